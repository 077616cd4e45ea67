//! The frame's order, in one place, in the book's words.
//!
//! Cross-cutting work (camera, menus, saving) keeps the generic
//! Input → Rules → Events → Sync → Present sets; between Input and Rules, each
//! of the book's stages has its own set, run only while [`PlayPhase`] (derived from
//! `Game::phase()`) says play stands there. A stage's systems turn that stage's
//! input into `PlayerAction`s; `session::apply_player_actions` (in Rules) is
//! the one system that applies them.

use bevy::prelude::*;
use depths_rules::CombatStep;

use crate::game::play_phase::PlayPhase;

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
pub enum StageSystems {
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

/// The Combat steps in the book's order.
pub const COMBAT_STEPS: [CombatStep; 6] = [
    CombatStep::AssignMonsters,
    CombatStep::PlayCards,
    CombatStep::PlaceMonsterCard,
    CombatStep::Resolve,
    CombatStep::AssignDamage,
    CombatStep::AvoidReturnDamage,
];

/// The stage sets in the book's order, each run only while play stands
/// there; `Update` and the panels' pass (`ui`) configure them alike.
pub fn stages() -> impl IntoScheduleConfigs<bevy::ecs::schedule::InternedSystemSet, ()> {
    let combat = |step| StageSystems::Combat(step).run_if(in_state(PlayPhase::Combat(step)));
    let [assign, play, place, resolve, damage, avoid] = COMBAT_STEPS;
    (
        StageSystems::Setup.run_if(in_state(PlayPhase::Setup)),
        StageSystems::Exploring.run_if(in_state(PlayPhase::Exploring)),
        StageSystems::Encountering.run_if(in_state(PlayPhase::Encountering)),
        combat(assign),
        combat(play),
        combat(place),
        combat(resolve),
        combat(damage),
        combat(avoid),
        StageSystems::LevelUp.run_if(in_state(PlayPhase::LevelUp)),
        StageSystems::Passage.run_if(in_state(PlayPhase::Passage)),
        StageSystems::GameOver.run_if(in_state(PlayPhase::Over)),
    )
        .chain()
}

pub(super) fn plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (
            PlaySystems::Input,
            stages(),
            PlaySystems::Rules,
            PlaySystems::Events,
            PlaySystems::Sync,
            PlaySystems::Present,
        )
            .chain(),
    );
}
