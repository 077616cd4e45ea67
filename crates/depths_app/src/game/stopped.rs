//! The game that was open when the game stopped on an error: the panic hook
//! leaves a note in the data folder naming its save, and the next start says
//! so in one sentence with where the log is; Continue then asks before it
//! opens that save again (it may stop the game again: a player once had to
//! find and delete such a file by hand).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use bevy::prelude::*;

use crate::game::{
    flow::MenuNotice,
    saves::{SaveDir, save_path},
    session::SaveSlot,
};

/// The save of the game open now, for the panic hook (which cannot reach
/// the app's resources).
static OPEN_SAVE: Mutex<Option<PathBuf>> = Mutex::new(None);

/// The note's file name in the data folder.
const NOTE: &str = "stopped-with-game.txt";

/// The save named by a note left last time, until Continue has asked once.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct StoppedWith(pub Option<PathBuf>);

/// The game itself (not the headless tests): notes the open save, reads the
/// note left by the last run.
pub(super) fn desktop_plugin(app: &mut App) {
    app.init_resource::<StoppedWith>();
    // Once the menu is on screen (entering it clears its notice).
    app.add_systems(Update, read_note.run_if(in_state(crate::game::screen::Screen::Menu)));
    app.add_systems(Last, remember_open_save);
}

fn note_path() -> Option<PathBuf> {
    crate::game::saves::project_dirs().map(|dirs| dirs.data_dir().join(NOTE))
}

/// Called by the panic hook: names the open save in the note, if a game is open.
pub fn leave_note() {
    let save = OPEN_SAVE.lock().ok().and_then(|open| open.clone());
    if let (Some(note), Some(save)) = (note_path(), save) {
        write_note(&note, &save);
    }
}

fn write_note(note: &Path, save: &Path) {
    if let Some(dir) = note.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = std::fs::write(note, save.to_string_lossy().as_bytes());
}

/// The save a note names, and the note taken away (it is said once).
fn take_note(note: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(note).ok()?;
    let _ = std::fs::remove_file(note);
    let path = PathBuf::from(text.trim());
    (!text.trim().is_empty()).then_some(path)
}

/// What the menu says at the next start.
pub fn stopped_words(save: &Path, logs: Option<&Path>) -> String {
    let name = save.file_name().map_or_else(|| save.display().to_string(), |n| n.to_string_lossy().into_owned());
    let logs = logs.map(|l| format!(" (the log in {} tells more)", l.display())).unwrap_or_default();
    format!(
        "Last time the game stopped on an error while {name} was open{logs}; Continue asks before opening it again."
    )
}

fn read_note(
    mut notice: ResMut<MenuNotice>,
    mut stopped: ResMut<StoppedWith>,
    options: Option<Res<crate::game::cli::Options>>,
    mut read: Local<bool>,
) {
    // A tool's run never touches the player's folders.
    if std::mem::replace(&mut *read, true) || crate::game::saves::tool_run(options.as_deref()) {
        return;
    }
    let Some(save) = note_path().and_then(|note| take_note(&note)) else { return };
    let words = stopped_words(&save, crate::game::log_file::folder().as_deref());
    warn!("{words}");
    notice.0 = Some(words);
    stopped.0 = Some(save);
}

/// Keeps [`OPEN_SAVE`] up to date: the save of the game on the table, none
/// off it. Only a change takes the lock.
fn remember_open_save(dir: Res<SaveDir>, slot: Option<Res<SaveSlot>>, mut last: Local<Option<PathBuf>>) {
    let now = slot.map(|s| save_path(&dir, &s));
    if *last != now {
        if let Ok(mut open) = OPEN_SAVE.lock() {
            open.clone_from(&now);
        }
        *last = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A note left names the save; it is read once and said in one sentence
    /// that names the save and the log folder.
    #[test]
    fn a_note_left_on_an_error_is_read_once_and_told() {
        let dir = std::env::temp_dir().join(format!("fd-stopped-{}", std::process::id()));
        let note = dir.join(NOTE);
        let save = dir.join("saves").join("game-7-seed3.json");
        write_note(&note, &save);
        assert_eq!(take_note(&note), Some(save.clone()));
        assert_eq!(take_note(&note), None, "said once");
        let words = stopped_words(&save, Some(Path::new("/data/logs")));
        assert!(words.contains("game-7-seed3.json") && words.contains("/data/logs"), "{words}");
        assert_eq!(words.matches(". ").count(), 0, "one sentence: {words}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
