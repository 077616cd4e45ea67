//! The top-level screens: loading, the menu, New Game, the lobby.

pub mod loading;
pub mod lobby;
pub mod menu;
pub mod setup;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((menu::plugin, setup::plugin, lobby::plugin));
}

/// The loading screen needs the asset server and egui.
pub(super) fn desktop_plugin(app: &mut App) {
    app.add_plugins(loading::plugin);
}
