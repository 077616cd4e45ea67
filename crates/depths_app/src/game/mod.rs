//! The bottom layer: the game's state and flow around the rules core,
//! headless. The screens and the play phase (derived only from
//! `Game::phase()`), the schedule in the book's stages, the game on the table
//! and the one place that changes it, seats and turns (hot-seat, Companions,
//! online), saves and leaving (and the game open when it last stopped on an error), settings, the rules' events as messages, what
//! the player holds and points at, questions before the irreversible, letter keys as the keyboard labels them, notices for the table, the words players
//! read, forecasts, hints, the guide and the replay. Nothing here names
//! egui, a sprite or a module above.

pub mod analysis;
pub mod animating;
pub mod asset_folder;
pub mod cli;
pub mod companions;
pub mod confirm;
pub mod console;
pub mod content_assets;
pub mod flow;
pub mod focus;
pub mod forecasts;
pub mod game_log;
pub mod graphics;
pub mod guide;
pub mod hint;
pub mod hotseat;
pub mod keys;
pub(crate) mod leaving;
pub mod log_file;
pub mod notices;
pub mod online;
pub mod play_clock;
pub mod play_phase;
pub mod records;
pub mod replay;
pub mod rules_events;
pub mod saves;
pub mod schedule;
pub mod screen;
pub mod session;
pub mod settings;
pub mod stopped;
pub mod taps;
pub mod words;

use bevy::prelude::*;

/// What runs headless (the tests run it under `MinimalPlugins`).
pub(crate) fn plugin(app: &mut App) {
    app.add_plugins((
        screen::plugin,
        animating::plugin,
        schedule::plugin,
        focus::plugin,
        notices::plugin,
        rules_events::plugin,
        session::plugin,
        hotseat::plugin,
        saves::plugin,
        leaving::plugin,
        guide::plugin,
        replay::plugin,
        companions::plugin,
        confirm::plugin,
        online::plugin,
    ));
    app.add_plugins((keys::plugin, records::plugin));
}

/// What needs the desktop: the asset server's content, the player's
/// settings and old save folders, background forecasts, hints.
pub(crate) fn desktop_plugin(app: &mut App) {
    app.add_plugins((
        content_assets::plugin,
        settings::plugin,
        saves::desktop_plugin,
        stopped::desktop_plugin,
        records::desktop_plugin,
        forecasts::plugin,
        analysis::plugin,
        hint::plugin,
        taps::plugin,
    ));
}
