//! The board screen and where the game stands on it. Leaving the screen ends
//! the session.

use bevy::prelude::*;
use depths_rules::{CombatStep, Game, Phase};

use crate::{PlaySystems, screens::Screen, session::Session};

/// Where the game stands, mirroring the rules core (the book's Exploring,
/// Encountering, the Combat steps, the end of the game). The sync systems
/// set it from the `Game` after every action; input systems run only in the
/// state they belong to.
#[derive(SubStates, Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[source(Screen = Screen::Playing)]
pub enum Table {
    #[default]
    Exploring,
    /// A drawn card, a decision or a purchase is being resolved outside Combat.
    Encountering,
    Combat(CombatStep),
    Over,
}

impl Table {
    /// Where `game` stands.
    pub fn of(game: &Game) -> Table {
        if game.is_over() {
            return Table::Over;
        }
        if game.phase == Phase::Combat
            && let Some(c) = game.combat()
        {
            return Table::Combat(c.step);
        }
        let resolving = game.adventure().is_some_and(|a| !a.resolving.is_empty());
        if game.pending().is_some() || resolving { Table::Encountering } else { Table::Exploring }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_sub_state::<Table>();
    app.add_systems(OnExit(Screen::Playing), |mut commands: Commands| {
        commands.remove_resource::<Session>();
    });
    app.add_systems(
        Update,
        follow_game.in_set(PlaySystems::Sync).run_if(in_state(Screen::Playing).and_then(resource_exists::<Session>)),
    );
    app.add_systems(Update, log_transitions);
}

fn follow_game(session: Res<Session>, table: Res<State<Table>>, mut next: ResMut<NextState<Table>>) {
    let now = Table::of(&session.game);
    if *table.get() != now {
        next.set(now);
    }
}

fn log_transitions(mut transitions: MessageReader<StateTransitionEvent<Table>>) {
    for t in transitions.read() {
        debug!("table: {:?} → {:?}", t.exited, t.entered);
    }
}
