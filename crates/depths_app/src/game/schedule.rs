//! The frame's order, in one place, in the book's words: every set of
//! `Update` and of egui's pass is configured here and nowhere else.
//!
//! `Update`: Seats → Input → the book's stages → Route → Net → Rules →
//! Events → Sync → Present. Cross-cutting work (camera, menus, saving) keeps
//! the generic sets; between Input and Route each of the book's stages has
//! its own set, run only while [`PlayPhase`] (derived from `Game::phase()`)
//! says play stands there. A stage's systems turn that stage's input into
//! `PlayerAction`s; online, Route sends them to the host instead, and Net
//! (the connections, `depths_net`) sends them and takes in what arrived;
//! `session::apply_player_actions` (in Rules) is the one system that applies
//! them. egui's pass: the panels' frame → the same stages, gated alike →
//! the panels' finish. A test in `lib.rs` fails when an `Update` system
//! joins no set.

use bevy::prelude::*;
use bevy_egui::EguiPrimaryContextPass;
use depths_net::NetSystems;
use depths_rules::CombatStep;

use crate::game::play_phase::PlayPhase;

/// Every game system in `Update` joins one of these, run in this order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlaySystems {
    /// Online: who may act and take back now, and the Companions' seats, as
    /// the host's table says, before any input is read.
    Seats,
    /// What came in: clicks, drags and keys into camera moves and menu
    /// choices; files loaded.
    Input,
    /// Online: the players' moves go to the host, not onto this table.
    Route,
    /// Online: the connections tended (`depths_net`): what goes out is sent,
    /// what arrived is taken in.
    Net,
    /// Apply choices: menu actions and the rules-core `Action`s.
    Rules,
    /// Publish the rules core's `Event`s as messages and dispatch them.
    Events,
    /// Spawn, update and despawn entities as the events say.
    Sync,
    /// Animate and draw what the model does not know about.
    Present,
}

/// egui's pass around the book's stages: the banner, side panels and the
/// board's room first, each stage's panel, then what is left (the hover box,
/// other choices, the toasts).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PanelSystems {
    Frame,
    Finish,
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
            PlaySystems::Seats,
            PlaySystems::Input,
            stages(),
            PlaySystems::Route,
            PlaySystems::Net,
            PlaySystems::Rules,
            PlaySystems::Events,
            PlaySystems::Sync,
            PlaySystems::Present,
        )
            .chain(),
    );
    app.configure_sets(Update, NetSystems.in_set(PlaySystems::Net));
    app.configure_sets(EguiPrimaryContextPass, (PanelSystems::Frame, stages(), PanelSystems::Finish).chain());
}
