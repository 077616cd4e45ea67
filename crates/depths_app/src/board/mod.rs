//! The map on the table: its tiles and tokens as entities, the tile in
//! hand and the Exploring input, the camera, and the picking on the board.

pub(crate) mod art;
pub(crate) mod camera;
pub mod explore;
pub(crate) mod floors;
pub mod pointer;
pub mod standees;
pub mod tiles;
pub mod tray_preview;
pub mod view;

use bevy::prelude::*;

/// The tiles, tokens and the tile in hand as entities: runs headless.
pub(crate) fn plugin(app: &mut App) {
    app.add_plugins((tiles::plugin, explore::plugin));
}

/// Drawing, the camera, and the pointer on the board.
pub(crate) fn desktop_plugin(app: &mut App) {
    app.add_plugins((
        camera::plugin,
        art::plugin,
        explore::desktop_plugin,
        pointer::plugin,
        tray_preview::plugin,
        standees::plugin,
    ));
}
