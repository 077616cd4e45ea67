//! Saved games: one JSON file per game in the platform's data folder, written
//! atomically (a temporary file, then a rename) on every phase change and on
//! Ctrl+S. A save that does not load is reported and left untouched.

use std::path::{Path, PathBuf};

use bevy::{prelude::*, window::RequestRedraw};
use bevy_egui::input::egui_wants_any_keyboard_input;
use depths_rules::Game;

use crate::{
    PlaySystems,
    screens::{Screen, menu::MenuNotice},
    session::Session,
};

/// Where saves are written; the platform's data folder unless a test says otherwise.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct SaveDir(pub PathBuf);

impl Default for SaveDir {
    fn default() -> Self {
        SaveDir(default_save_dir())
    }
}

/// Load this save file and play it.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct LoadSave(pub PathBuf);

/// `$XDG_DATA_HOME/forgotten-depths` (or `~/.local/share/…`) on Linux,
/// `%APPDATA%\Forgotten Depths` on Windows, `~/Library/Application
/// Support/Forgotten Depths` on macOS.
pub fn default_save_dir() -> PathBuf {
    let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    let home = env("HOME").unwrap_or_else(|| PathBuf::from("."));
    if cfg!(target_os = "windows") {
        env("APPDATA").unwrap_or(home).join("Forgotten Depths").join("saves")
    } else if cfg!(target_os = "macos") {
        home.join("Library/Application Support/Forgotten Depths/saves")
    } else {
        env("XDG_DATA_HOME").unwrap_or_else(|| home.join(".local/share")).join("forgotten-depths").join("saves")
    }
}

/// Writes `text` to `path` through a temporary file in the same folder, so a
/// crash never leaves half a save.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

/// Saves in `dir`, newest first.
pub fn list_saves(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut saves: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let t = std::fs::metadata(&p).and_then(|m| m.modified()).unwrap_or(std::time::UNIX_EPOCH);
            (t, p)
        })
        .collect();
    saves.sort_by_key(|s| std::cmp::Reverse(s.0));
    saves.into_iter().map(|(_, p)| p).collect()
}

/// Reads a save; the file is never changed.
pub fn read_save(path: &Path) -> Result<Game, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    Game::load_json(&text)
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SaveDir>();
    app.add_message::<LoadSave>();
    app.add_systems(Update, (load_saves.in_set(PlaySystems::Rules), autosave.in_set(PlaySystems::Present)));
}

/// Ctrl+S on the board.
pub(super) fn input_plugin(app: &mut App) {
    app.add_systems(
        Update,
        ctrl_s
            .run_if(not(egui_wants_any_keyboard_input))
            .in_set(PlaySystems::Input)
            .run_if(in_state(Screen::Playing).and_then(resource_exists::<Session>)),
    );
}

fn ctrl_s(keys: Res<ButtonInput<KeyCode>>, mut session: ResMut<Session>) {
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight, KeyCode::SuperLeft, KeyCode::SuperRight]);
    if ctrl && keys.just_pressed(KeyCode::KeyS) {
        session.save_due = true;
        session.log.push("Game saved.".into());
    }
}

/// The file this session saves to.
pub fn save_path(dir: &SaveDir, session: &Session) -> PathBuf {
    dir.0.join(format!("{}.json", session.save_name))
}

fn autosave(session: Option<ResMut<Session>>, dir: Res<SaveDir>, options: Option<Res<crate::cli::Options>>) {
    let Some(mut session) = session else { return };
    if !session.save_due {
        return;
    }
    // A `--screenshot` run only looks; it leaves the player's saves alone.
    if options.is_some_and(|o| o.screenshot.is_some()) {
        session.save_due = false;
        return;
    }
    session.save_due = false;
    let path = save_path(&dir, &session);
    match write_atomic(&path, &session.game.save_json()) {
        Ok(()) => info!("saved {}", path.display()),
        Err(e) => {
            let line = format!("Could not save to {}: {e}", path.display());
            error!("{line}");
            session.notice = Some(line);
        }
    }
}

fn load_saves(
    mut commands: Commands,
    mut loads: MessageReader<LoadSave>,
    mut notice: ResMut<MenuNotice>,
    mut next: ResMut<NextState<Screen>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    for LoadSave(path) in loads.read() {
        redraw.write(RequestRedraw);
        match read_save(path) {
            Ok(game) => {
                let mut session = Session::new(game);
                session.log = vec![format!("Loaded {}.", path.display())];
                if let Some(stem) = path.file_stem() {
                    session.save_name = stem.to_string_lossy().into_owned();
                }
                commands.insert_resource(session);
                notice.0 = None;
                next.set(Screen::Playing);
            }
            Err(e) => {
                let line = format!("{} could not be loaded: {e}", path.display());
                warn!("{line}");
                notice.0 = Some(line);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_and_leaves_no_temporary_file() {
        let dir = std::env::temp_dir().join(format!("fd-save-test-{}", std::process::id()));
        let path = dir.join("a.json");
        write_atomic(&path, "one").unwrap();
        write_atomic(&path, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        assert_eq!(list_saves(&dir), vec![path.clone()]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_corrupt_save_is_refused_and_left_alone() {
        let dir = std::env::temp_dir().join(format!("fd-corrupt-test-{}", std::process::id()));
        let path = dir.join("bad.json");
        write_atomic(&path, "{ not a save").unwrap();
        assert!(read_save(&path).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{ not a save");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
