//! Where play stands on the table, as a Bevy state derived only from the rules'
//! phase, so each of the book's stages runs its own systems (the session
//! sets it after every change of the game).

use bevy::prelude::*;
use depths_rules::{CombatStep, Game, Phase};

use crate::game::screen::Screen;

/// Where the game stands: the rules core's [`Game::phase`] in the book's
/// words (Setup, Exploring, Encountering, each Combat step, Level Up, Passage
/// to the next Ecology, the end of the game). The sync systems set it from the
/// phase after every action; input systems run only in the state they belong to.
#[derive(SubStates, Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[source(Screen = Screen::Playing)]
pub enum PlayPhase {
    /// "Starting at a Lower Ecology": Abilities and Items are chosen first.
    Setup,
    /// Drawing and placing tiles, choosing what to Encounter, spending XP.
    #[default]
    Exploring,
    /// An Ecology Element (or a card it led to) is being Resolved.
    Encountering,
    Combat(CombatStep),
    /// After a Stair Guardian: each Hero may buy one Ability.
    LevelUp,
    /// The Ecology is complete: the Heroes are recorded and descend.
    Passage,
    Over,
}

impl PlayPhase {
    /// Where `game` stands, read only from its phase.
    pub fn of(game: &Game) -> PlayPhase {
        PlayPhase::from(&game.phase())
    }
}

impl From<&Phase> for PlayPhase {
    fn from(phase: &Phase) -> PlayPhase {
        match phase {
            Phase::Setup { .. } => PlayPhase::Setup,
            Phase::Exploring { .. } => PlayPhase::Exploring,
            Phase::Encountering { .. } => PlayPhase::Encountering,
            Phase::Combat { step } => PlayPhase::Combat(*step),
            Phase::LevelUp { .. } => PlayPhase::LevelUp,
            Phase::Passage { .. } => PlayPhase::Passage,
            Phase::Won | Phase::Lost(_) => PlayPhase::Over,
        }
    }
}

/// A run condition: a Combat lies on the table (the board under it is still).
pub fn in_combat(phase: Option<Res<State<PlayPhase>>>) -> bool {
    phase.is_some_and(|t| matches!(t.get(), PlayPhase::Combat(_)))
}
