//! The game that was open when the game stopped on an error: the panic hook
//! leaves a note in the data folder naming its save, and the next start says
//! so in one sentence with where the log is; Continue then asks before it
//! opens that save again (it may stop the game again: a player once had to
//! find and delete such a file by hand).

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use crate::game::{
    flow::MenuNotice,
    log_file::{set_open_save, stopped_note},
    saves::{SaveDir, StoppedWith, save_path},
    session::SaveSlot,
};

/// The game itself (not the headless tests): notes the open save, reads the
/// note left by the last run.
pub(super) fn desktop_plugin(app: &mut App) {
    app.init_resource::<StoppedWith>();
    // Once the menu is on screen (entering it clears its notice).
    app.add_systems(
        Update,
        read_note
            .run_if(in_state(crate::game::screen::Screen::Menu))
            .in_set(crate::game::schedule::PlaySystems::Present),
    );
    app.add_systems(Last, remember_open_save);
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
    let Some(save) = stopped_note().and_then(|note| take_note(&note)) else { return };
    let words = stopped_words(&save, crate::game::log_file::folder().as_deref());
    warn!("{words}");
    notice.0 = Some(words);
    stopped.0 = Some(save);
}

/// Keeps the panic hook's open save up to date: the save of the game on the
/// table, none off it. Only a change takes its lock.
fn remember_open_save(dir: Res<SaveDir>, slot: Option<Res<SaveSlot>>, mut last: Local<Option<PathBuf>>) {
    let now = slot.map(|s| save_path(&dir, &s));
    if *last != now {
        set_open_save(now.clone());
        *last = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::log_file::write_note;

    /// A note left names the save; it is read once and said in one sentence
    /// that names the save and the log folder.
    #[test]
    fn a_note_left_on_an_error_is_read_once_and_told() {
        let dir = std::env::temp_dir().join(format!("fd-stopped-{}", std::process::id()));
        let note = dir.join("stopped-with-game.txt");
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
