//! Which screen is up, the top of the client's state: every other state and
//! most systems hang off `Screen::Playing`.

use bevy::prelude::*;

/// Which screen is up. Entities spawned for a screen carry
/// `DespawnOnExit(Screen::…)` so nothing leaks between screens.
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Screen {
    /// Fonts (and later card and tile content) load here.
    #[default]
    Loading,
    /// A file could not be loaded: says which and why.
    LoadFailed,
    Menu,
    /// New Game: Heroes, starting Ecology, variants, seed.
    Setup,
    /// Play online: host or join a table (`lobby.rs`).
    Lobby,
    /// How this machine's games went (`statistics.rs`).
    Statistics,
    Playing,
}

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Screen>();
    app.add_systems(Update, log_transitions);
}

fn log_transitions(mut transitions: MessageReader<StateTransitionEvent<Screen>>) {
    for t in transitions.read() {
        info!("screen: {:?} → {:?}", t.exited, t.entered);
    }
}
