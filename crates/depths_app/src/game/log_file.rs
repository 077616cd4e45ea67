//! The log, kept in a file as well as on standard error: a Windows release
//! build has no console, so what went wrong must be found in the data
//! folder (`logs/`), by the player or from a player's report. A file a day,
//! the last `KEPT` kept (tracing's own appender rotates them). A panic is
//! written there, with where it happened, before the game ends, and a
//! player on Windows is shown it in a message box (`console::fatal`).

use std::path::{Path, PathBuf};

use bevy::{
    log::{BoxedLayer, tracing_subscriber},
    prelude::*,
};
use tracing_appender::rolling::{RollingFileAppender, Rotation};

use crate::game::console;

/// How many days of logs are kept.
pub const KEPT: usize = 7;

/// The log files' names: `forgotten-depths.YYYY-MM-DD.log`.
const PREFIX: &str = "forgotten-depths";
const SUFFIX: &str = "log";

/// `logs` in the platform's data folder.
pub fn folder() -> Option<PathBuf> {
    crate::game::saves::project_dirs().map(|dirs| dirs.data_dir().join("logs"))
}

/// The file's layer for bevy's `LogPlugin::custom_layer`: none for a tool's
/// run (they never write into the player's folders) or where the folder
/// cannot be made (said on standard error; the game goes on).
pub fn layer(app: &mut App) -> Option<BoxedLayer> {
    let options = app.world().get_resource::<crate::game::cli::Options>();
    if crate::game::saves::tool_run(options) {
        return None;
    }
    let dir = folder()?;
    match file_layer(&dir) {
        Ok(layer) => Some(layer),
        Err(e) => {
            console::say(&format!("forgotten-depths: no log file in {}: {e}", dir.display()));
            None
        }
    }
}

/// Plain text (no terminal colours) into today's file in `dir`.
fn file_layer(dir: &Path) -> Result<BoxedLayer, tracing_appender::rolling::InitError> {
    let appender = RollingFileAppender::builder()
        .rotation(Rotation::DAILY)
        .filename_prefix(PREFIX)
        .filename_suffix(SUFFIX)
        .max_log_files(KEPT)
        .build(dir)?;
    Ok(Box::new(tracing_subscriber::fmt::layer().with_ansi(false).with_writer(appender)))
}

/// Writes a panic into the log (and so into its file) with a backtrace,
/// tells a player who has no terminal, then lets the usual hook print it.
/// A missing graphics driver is not a panic to the player: it is said in
/// words, with what to install, and the game exits.
pub fn install_panic_hook() {
    let usual = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let what = panic_text(info.payload());
        let place = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        if let Some(advice) = crate::game::graphics::no_driver_advice(&what) {
            error!("{advice} ({what})");
            console::fatal(&advice);
            std::process::exit(1);
        }
        error!("the game stopped on an error{place}: {what}\n{}", std::backtrace::Backtrace::force_capture());
        // The next start says so, and asks before opening that game again (`stopped.rs`).
        leave_note();
        let logs = folder().map(|d| format!("\n\nThe log in {} tells more.", d.display())).unwrap_or_default();
        console::fatal(&format!("Forgotten Depths stopped on an error:\n\n{what}{logs}"));
        usual(info);
    }));
}

/// The save of the game open now, for the panic hook (which cannot reach
/// the app's resources): kept by `stopped.rs`.
static OPEN_SAVE: std::sync::Mutex<Option<PathBuf>> = std::sync::Mutex::new(None);

/// Names the save of the game open now (none off the table).
pub fn set_open_save(save: Option<PathBuf>) {
    if let Ok(mut open) = OPEN_SAVE.lock() {
        *open = save;
    }
}

/// Where the note of a game open when the game stopped on an error is left.
pub fn stopped_note() -> Option<PathBuf> {
    crate::game::saves::project_dirs().map(|dirs| dirs.data_dir().join("stopped-with-game.txt"))
}

/// Names the open save in the note, if a game is open.
fn leave_note() {
    let save = OPEN_SAVE.lock().ok().and_then(|open| open.clone());
    if let (Some(note), Some(save)) = (stopped_note(), save) {
        write_note(&note, &save);
    }
}

/// The note naming `save`, at `note`.
pub fn write_note(note: &Path, save: &Path) {
    if let Some(dir) = note.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = std::fs::write(note, save.to_string_lossy().as_bytes());
}

/// A panic's message, whichever way it was raised.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::log::tracing_subscriber::layer::SubscriberExt;

    /// What is logged reaches today's file, in plain text.
    #[test]
    fn the_log_is_written_to_a_dated_file() {
        let dir = std::env::temp_dir().join(format!("fd-logs-{}", std::process::id()));
        let layer = file_layer(&dir).unwrap();
        let subscriber = tracing_subscriber::registry().with(layer);
        bevy::log::tracing::subscriber::with_default(subscriber, || {
            warn!("the saves folder is a file");
        });
        let files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
        assert_eq!(files.len(), 1, "{files:?}");
        let name = files[0].file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with("forgotten-depths.") && name.ends_with(".log"), "{name}");
        let text = std::fs::read_to_string(&files[0]).unwrap();
        assert!(text.contains("WARN") && text.contains("the saves folder is a file"), "{text}");
        assert!(!text.contains('\u{1b}'), "no terminal colours in a file: {text:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_panics_text_is_found_either_way() {
        let boxed: Box<dyn std::any::Any + Send> = Box::new("static words");
        assert_eq!(panic_text(boxed.as_ref()), "static words");
        let boxed: Box<dyn std::any::Any + Send> = Box::new(format!("made {}", 2));
        assert_eq!(panic_text(boxed.as_ref()), "made 2");
        let boxed: Box<dyn std::any::Any + Send> = Box::new(7_u8);
        assert_eq!(panic_text(boxed.as_ref()), "(no message)");
    }
}
