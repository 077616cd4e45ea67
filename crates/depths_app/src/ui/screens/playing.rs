//! The board screen and where the game stands on it. Leaving the screen ends
//! the game on the table.

use bevy::prelude::*;
use depths_rules::{CombatStep, Game, Phase};

use crate::{
    PlaySystems,
    game::session::{Delve, Session},
    ui::screens::Screen,
};

/// Where the game stands: the rules core's [`Game::phase`] in the book's
/// words (Setup, Exploring, Encountering, each Combat step, Level Up, Passage
/// to the next Ecology, the end of the game). The sync systems set it from the
/// phase after every action; input systems run only in the state they belong to.
#[derive(SubStates, Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[source(Screen = Screen::Playing)]
pub enum Table {
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

impl Table {
    /// Where `game` stands, read only from its phase.
    pub fn of(game: &Game) -> Table {
        Table::from(&game.phase())
    }
}

impl From<&Phase> for Table {
    fn from(phase: &Phase) -> Table {
        match phase {
            Phase::Setup { .. } => Table::Setup,
            Phase::Exploring { .. } => Table::Exploring,
            Phase::Encountering { .. } => Table::Encountering,
            Phase::Combat { step } => Table::Combat(*step),
            Phase::LevelUp { .. } => Table::LevelUp,
            Phase::Passage { .. } => Table::Passage,
            Phase::Won | Phase::Lost(_) => Table::Over,
        }
    }
}

/// A run condition: a Combat lies on the table (the board under it is still).
pub fn in_combat(table: Option<Res<State<Table>>>) -> bool {
    table.is_some_and(|t| matches!(t.get(), Table::Combat(_)))
}

pub(super) fn plugin(app: &mut App) {
    app.add_sub_state::<Table>();
    app.add_systems(OnExit(Screen::Playing), |mut commands: Commands| {
        Session::remove(&mut commands);
    });
    app.add_systems(
        Update,
        follow_game.in_set(PlaySystems::Sync).run_if(in_state(Screen::Playing).and_then(resource_exists::<Delve>)),
    );
    app.add_systems(Update, log_transitions);
}

fn follow_game(delve: Res<Delve>, table: Res<State<Table>>, mut next: ResMut<NextState<Table>>) {
    let now = Table::of(&delve.game);
    if *table.get() != now {
        next.set(now);
    }
}

fn log_transitions(mut transitions: MessageReader<StateTransitionEvent<Table>>) {
    for t in transitions.read() {
        debug!("table: {:?} → {:?}", t.exited, t.entered);
    }
}
