//! The frame's order, in one place, in the book's words.
//!
//! Cross-cutting work (camera, menus, saving) keeps the generic
//! Input → Rules → Events → Sync → Present sets; between Input and Rules, each
//! of the book's stages has its own set, run only while [`Table`] (derived from
//! `Game::phase()`) says play stands there. A stage's systems turn that stage's
//! input into `PlayerAction`s; `session::apply_player_actions` (in Rules) is
//! the one system that applies them.

use bevy::prelude::*;
use depths_rules::CombatStep;

use crate::ui::screens::playing::Table;

/// Every game system in `Update` joins one of these, run in this order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlaySystems {
    /// Turn clicks, drags and keys into camera moves and menu choices.
    Input,
    /// Apply choices: menu actions and the rules-core `Action`s.
    Rules,
    /// Publish the rules core's `Event`s as messages and dispatch them.
    Events,
    /// Spawn, update and despawn entities as the events say.
    Sync,
    /// Animate and draw what the model does not know about.
    Present,
}

/// The book's stages of play. A system in one of these runs only while the
/// game stands there.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// "Starting at a Lower Ecology": Abilities and Items are chosen first.
    Setup,
    /// Drawing and placing Map Tiles, choosing what to Encounter.
    Exploring,
    /// An Ecology Element is being Resolved: the pending decisions.
    Encountering,
    /// One set per Combat step.
    Combat(CombatStep),
    LevelUp,
    Passage,
    GameOver,
}

pub(crate) fn plugin(app: &mut App) {
    use CombatStep::*;
    let combat = |step| Stage::Combat(step).run_if(in_state(Table::Combat(step)));
    app.configure_sets(
        Update,
        (
            PlaySystems::Input,
            Stage::Setup.run_if(in_state(Table::Setup)),
            Stage::Exploring.run_if(in_state(Table::Exploring)),
            Stage::Encountering.run_if(in_state(Table::Encountering)),
            combat(AssignMonsters),
            combat(PlayCards),
            combat(PlaceMonsterCard),
            combat(Resolve),
            combat(AssignDamage),
            combat(AvoidReturnDamage),
            Stage::LevelUp.run_if(in_state(Table::LevelUp)),
            Stage::Passage.run_if(in_state(Table::Passage)),
            Stage::GameOver.run_if(in_state(Table::Over)),
            PlaySystems::Rules,
            PlaySystems::Events,
            PlaySystems::Sync,
            PlaySystems::Present,
        )
            .chain(),
    );
}
