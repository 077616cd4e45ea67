//! The top-level screens: loading, the menu, New Game, the lobby, Statistics.

pub mod loading;
pub mod lobby;
pub mod menu;
pub mod setup;
pub mod statistics;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((menu::plugin, setup::plugin, lobby::plugin, statistics::plugin));
}

/// The loading screen needs the asset server and egui.
pub(super) fn desktop_plugin(app: &mut App) {
    app.add_plugins((loading::plugin, statistics::desktop_plugin));
}
