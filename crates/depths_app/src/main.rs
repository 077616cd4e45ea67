//! `forgotten-depths`: the desktop client.

// A release build on Windows opens no console window beside the game.
#![cfg_attr(all(windows, not(debug_assertions)), windows_subsystem = "windows")]

use bevy::prelude::*;
use depths_app::{
    AppPlugin,
    game::{cli, console, log_file},
};

fn main() -> AppExit {
    // A Windows release build has no console: take the terminal it was
    // started from, if any, for `--help`, errors and the log.
    console::attach_parent_terminal();
    let options = match cli::parse_from(std::env::args_os()) {
        Ok(options) => options,
        // `--help` to standard output and success; a bad option to standard
        // error with what was expected, and failure.
        Err(message) => {
            let _ = message.print();
            return if message.use_stderr() { AppExit::error() } else { AppExit::Success };
        }
    };
    // A panic reaches the log file (and, on Windows, a message box).
    log_file::install_panic_hook();
    let screenshot = options.screenshot.clone();
    let exit = App::new().insert_resource(options).add_plugins(AppPlugin).run();
    if let Some(path) = screenshot
        && exit.is_success()
        && !std::fs::metadata(&path).is_ok_and(|m| m.len() > 0)
    {
        eprintln!("forgotten-depths: the screenshot {} was not written", path.display());
        return AppExit::error();
    }
    exit
}
