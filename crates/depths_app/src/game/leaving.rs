//! Leaving is safe: going back to the menu, closing the window and quitting
//! all save the game first, so Continue always returns to the very last move.
//!
//! Autosave writes every move's save off the frame; leaving writes at once,
//! so the last move is on disk before the table goes. The window's
//! close button does not close it directly (`close_when_requested: false` in
//! `lib.rs`): [`close_requested`] saves, then exits.

use bevy::{prelude::*, window::WindowCloseRequested};

use crate::{
    game::cli::Options,
    game::saves::{SaveDir, Saving, only_looks},
    game::screen::Screen,
};

pub(super) fn plugin(app: &mut App) {
    // Registered by bevy's WindowPlugin too; here so headless apps have it.
    app.add_message::<WindowCloseRequested>();
    // Menu: the game's resources are removed on leaving Playing, by a command that
    // runs after this system has read it.
    app.add_systems(OnExit(Screen::Playing), save_on_leaving);
    app.add_systems(Last, (close_requested, save_on_leaving.run_if(quitting_at_the_table)).chain());
}

/// Saves the game on the table, unless this run only looks.
fn save_on_leaving(saving: Option<Saving>, dir: Res<SaveDir>, options: Option<Res<Options>>) {
    if let Some(mut saving) = saving
        && !only_looks(options.as_deref())
    {
        saving.slot.due = false;
        saving.write(&dir);
    }
}

/// The window's close button: save, then exit (the exit saves below).
fn close_requested(mut requests: MessageReader<WindowCloseRequested>, mut exit: MessageWriter<AppExit>) {
    if requests.read().count() > 0 {
        exit.write(AppExit::Success);
    }
}

/// Any exit (Quit, the close button, the OS) while a game is on the table:
/// what leaving the table does is done first (a save, the records); the
/// runner stops only after this frame.
pub(crate) fn quitting_at_the_table(mut exits: MessageReader<AppExit>, screen: Option<Res<State<Screen>>>) -> bool {
    exits.read().count() > 0 && screen.is_some_and(|s| *s.get() == Screen::Playing)
}
