//! What the players look at and click outside the board and the card
//! table: the screens (loading, menu, setup, lobby), the in-game panels and
//! windows (settings, the question before an irreversible move, guide, the replay's column with its analysis board, online banner, the notice of a window too small), the rules
//! reference, the keyboard shortcuts, the window, sound, and redrawing.

pub mod analysis_panel;
pub mod clipboard;
pub mod confirm_window;
pub mod guide_window;
pub mod online_banner;
pub mod panels;
mod quick_ctrl;
pub(crate) mod redraw;
pub mod replay_bar;
pub mod rules_ref;
pub mod screens;
pub mod settings_window;
pub mod shortcuts;
pub mod small_window;
pub mod sound;
pub(crate) mod window_icon;
mod window_place;
mod window_resize;
pub mod window_scale;

use bevy::prelude::*;

/// The menus' flow and the rules reference's state: runs headless.
pub(crate) fn plugin(app: &mut App) {
    app.add_plugins((screens::plugin, rules_ref::plugin));
}

/// Everything egui draws, the window, sound and the redraw policy.
pub(crate) fn desktop_plugin(app: &mut App) {
    app.add_plugins((
        screens::desktop_plugin,
        panels::plugin,
        redraw::plugin,
        rules_ref::desktop_plugin,
        settings_window::plugin,
        confirm_window::plugin,
        guide_window::plugin,
        replay_bar::plugin,
        shortcuts::plugin,
        window_icon::plugin,
        window_place::plugin,
        window_resize::plugin,
        window_scale::plugin,
        sound::plugin,
        (clipboard::plugin, quick_ctrl::plugin, small_window::plugin),
    ));
}
