//! `forgotten-depths`: the desktop client.

// A release build on Windows opens no console window beside the game.
#![cfg_attr(all(windows, not(debug_assertions)), windows_subsystem = "windows")]

use bevy::prelude::*;
use depths_app::{
    AppPlugin,
    cli::{self, Command},
};

fn main() -> AppExit {
    let options = match cli::parse(std::env::args().skip(1)) {
        Ok(Command::Run(options)) => options,
        Ok(Command::Help) => {
            print!("{}", cli::USAGE);
            return AppExit::Success;
        }
        Err(message) => {
            eprintln!("forgotten-depths: {message}\n\n{}", cli::USAGE);
            return AppExit::error();
        }
    };
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
