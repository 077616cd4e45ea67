//! Saved games: one JSON file per game in the platform's data folder, written
//! atomically (a temporary file, then a rename) after every move, so a crash
//! loses nothing. A move's save is written off the frame (the I/O task pool);
//! a phase change, Ctrl+S and leaving write at once. Saves of one file land
//! in the order they were asked for, whichever thread writes them. A save
//! that does not load is reported and left untouched.
//!
//! A save holds the rules state and the table around it (the players, whose
//! turn it is, the log), so a hot-seat game resumes with the same owners.
//! A bare rules save (older saves, the simulator's) still loads, with one
//! player at the table.

use std::path::{Path, PathBuf};

use bevy::{ecs::system::SystemParam, prelude::*};
use depths_rules::Game;
use serde::{Deserialize, Serialize};

use crate::{
    PlaySystems,
    game::flow::MenuNotice,
    game::game_log::{GameLog, RoundSummary},
    game::hotseat::{Players, Turn},
    game::screen::Screen,
    game::session::{Delve, SaveSlot, Seats, Session},
};

/// How many log lines a save keeps (the newest).
const SAVED_LOG_LINES: usize = 300;

/// What the client keeps beside the rules state.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq)]
pub struct SavedSession {
    pub players: Players,
    pub turn: Turn,
    pub log: Vec<String>,
    /// The Combat round summary on screen.
    #[serde(default)]
    pub rounds: RoundSummary,
    /// Every action since the game began (for the replay); absent in saves
    /// of earlier versions.
    #[serde(default)]
    pub history: Option<Vec<depths_rules::Action>>,
    /// Time at the table and whether the game's end is recorded; absent in
    /// saves of earlier versions.
    #[serde(default)]
    pub clock: crate::game::play_clock::PlayClock,
    /// Online, the host's save: the key (its text) that sat at each seat,
    /// so that those players come back to a restarted host without a new
    /// invite; absent in other saves and in saves of earlier versions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<Option<String>>,
}

/// The file: the client's session and the rules core's own save, untouched
/// inside it.
#[derive(Serialize, Deserialize)]
struct SaveFile {
    /// Named as files of every version name it.
    #[serde(rename = "table")]
    session: SavedSession,
    game: serde_json::Value,
}

/// A save as the menu lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveSummary {
    pub path: PathBuf,
    /// "2026-11-29 17:40" (UTC), from the file's time.
    pub date: String,
    /// The line under the date: Ecology, Heroes and players, or why it does not load.
    pub about: String,
    pub loads: bool,
    /// It kept its moves since the start: it can be watched again.
    pub replayable: bool,
    /// The players at its table (1 for a save that does not load).
    pub players: usize,
    /// A game this machine hosted online, not over: the table it was
    /// playing when it stopped.
    pub interrupted: bool,
}

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

/// The save that was open when the game last stopped on an error (told by
/// `stopped.rs` at the start), until Continue has asked once before opening it.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct StoppedWith(pub Option<PathBuf>);

/// Open the newest save that loads (Continue): a newer one that does not is
/// passed over, said in the log, and left as it is.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContinueNewest;

/// The game's folders as the platform wants them (`directories`): on Linux
/// `$XDG_DATA_HOME/forgotten-depths` (`~/.local/share/…`) for data and
/// `$XDG_CONFIG_HOME/forgotten-depths` (`~/.config/…`) for settings; on
/// Windows `%APPDATA%\forgotten-depths\data` and `…\config`; on macOS
/// `~/Library/Application Support/forgotten-depths` for both. None without a
/// home folder.
pub fn project_dirs() -> Option<directories::ProjectDirs> {
    directories::ProjectDirs::from("", "", "forgotten-depths")
}

/// A file's path as a player reads it: the home folder as `~`
/// ("~/.config/forgotten-depths/settings.json", not the whole of it).
pub fn shown_path(path: &Path) -> String {
    let home = directories::BaseDirs::new().map(|b| b.home_dir().to_path_buf());
    match home.as_deref().and_then(|h| path.strip_prefix(h).ok()) {
        Some(rest) => format!("~{}{}", std::path::MAIN_SEPARATOR, rest.display()),
        None => path.display().to_string(),
    }
}

/// The `saves` folder in the platform's data folder (`./saves` without a home folder).
pub fn default_save_dir() -> PathBuf {
    project_dirs().map_or_else(|| PathBuf::from("saves"), |dirs| dirs.data_dir().join("saves"))
}

/// The folders earlier versions of the game used, inside the platform's data
/// folder: `Forgotten Depths` on Windows and macOS, `forgotten-depths` elsewhere.
/// (Both are looked for everywhere; one that does not exist is skipped.)
pub fn old_data_dirs() -> Vec<PathBuf> {
    let Some(base) = directories::BaseDirs::new() else { return Vec::new() };
    ["forgotten-depths", "Forgotten Depths"].iter().map(|name| base.data_dir().join(name)).collect()
}

/// Moves the saves (`*.json`) of `from` into `to`, keeping each file's time,
/// and returns where each one went. Nothing is deleted or overwritten: a save
/// whose name is taken in `to` by a different file comes over as
/// `NAME-moved.json` (`NAME-moved-2.json`, …); one identical to the file in
/// `to` stays where it was. A file that cannot be moved is left in `from` and
/// reported in the list of failures.
pub fn move_saves(from: &Path, to: &Path) -> (Vec<(PathBuf, PathBuf)>, Vec<(PathBuf, std::io::Error)>) {
    let (mut moved, mut failed) = (Vec::new(), Vec::new());
    if from == to {
        return (moved, failed);
    }
    for save in list_saves(from).into_iter().rev() {
        match move_one_save(&save, to) {
            Ok(Some(target)) => moved.push((save, target)),
            Ok(None) => {}
            Err(e) => failed.push((save, e)),
        }
    }
    (moved, failed)
}

fn move_one_save(save: &Path, to: &Path) -> std::io::Result<Option<PathBuf>> {
    let (Some(name), Some(stem)) = (save.file_name(), save.file_stem()) else { return Ok(None) };
    std::fs::create_dir_all(to)?;
    let mut target = to.join(name);
    let mut n = 1;
    while target.exists() {
        if std::fs::read(&target)? == std::fs::read(save)? {
            return Ok(None);
        }
        let suffix = if n == 1 { "-moved".to_owned() } else { format!("-moved-{n}") };
        target = to.join(format!("{}{suffix}.json", stem.to_string_lossy()));
        n += 1;
    }
    if std::fs::rename(save, &target).is_err() {
        // Another disk: copy with the file's time, and leave the original.
        let modified = std::fs::metadata(save)?.modified()?;
        std::fs::copy(save, &target)?;
        std::fs::File::options().write(true).open(&target)?.set_modified(modified)?;
    }
    Ok(Some(target))
}

/// Brings the saves of earlier versions' folders into the current one. Only
/// for the player's own folder: a run that only looks, or a test's folder,
/// moves nothing.
fn move_old_saves(dir: Res<SaveDir>, options: Option<Res<crate::game::cli::Options>>) {
    if only_looks(options.as_deref()) || dir.0 != default_save_dir() {
        return;
    }
    for old in old_data_dirs() {
        let (moved, failed) = move_saves(&old.join("saves"), &dir.0);
        if !moved.is_empty() {
            info!("moved {} saves from {} to {}", moved.len(), old.join("saves").display(), dir.0.display());
        }
        for (save, e) in failed {
            error!(
                "could not move {} into {}: {e}; it is still there (open it with --load)",
                save.display(),
                dir.0.display()
            );
        }
    }
}

/// Run by the game itself (not by headless tests): moves old saves into place.
pub(super) fn desktop_plugin(app: &mut App) {
    app.add_systems(Startup, move_old_saves);
}

/// Writes `text` to `path` through a temporary file in the same folder, so a
/// crash never leaves half a save; and so does a power cut: the file's bytes
/// reach the disk before it takes the save's name, and the folder's new entry
/// after (else the disk may hold the new name over an empty file).
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("json.tmp");
    let mut file = std::fs::File::create(&tmp)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&tmp, path)?;
    // A folder opens and syncs on Unix; Windows has no such call (NTFS
    // journals the rename itself).
    #[cfg(unix)]
    std::fs::File::open(dir.unwrap_or(Path::new(".")))?.sync_all()?;
    Ok(())
}

/// Which save of each file was asked for last, and which landed: a save
/// finished late never replaces a newer one.
struct SaveOrder {
    next: std::sync::atomic::AtomicU64,
    landed: std::sync::Mutex<std::collections::HashMap<PathBuf, u64>>,
}

static SAVE_ORDER: std::sync::LazyLock<SaveOrder> = std::sync::LazyLock::new(|| SaveOrder {
    next: std::sync::atomic::AtomicU64::new(1),
    landed: std::sync::Mutex::new(std::collections::HashMap::new()),
});

/// A place in the order of saves, taken when a save is asked for.
fn next_in_order() -> u64 {
    SAVE_ORDER.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Writes save number `seq` of `path` unless a later one landed already.
fn write_in_order(path: &Path, seq: u64, text: &str) -> std::io::Result<()> {
    let mut landed = SAVE_ORDER.landed.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if landed.get(path).is_some_and(|n| *n > seq) {
        return Ok(());
    }
    write_atomic(path, text)?;
    landed.insert(path.to_owned(), seq);
    Ok(())
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

/// The text of a save of the game, the seats and the log.
pub fn save_text(delve: &Delve, seats: &Seats, log: &GameLog) -> String {
    snapshot(delve, seats, log).text()
}

/// What a save holds, copied off the table (to be written elsewhere).
struct Snapshot {
    game: Game,
    session: SavedSession,
}

fn snapshot(delve: &Delve, seats: &Seats, log: &GameLog) -> Snapshot {
    let skip = log.lines.len().saturating_sub(SAVED_LOG_LINES);
    let session = SavedSession {
        players: seats.players.clone(),
        turn: seats.turn.clone(),
        log: log.lines[skip..].to_vec(),
        rounds: log.rounds.clone(),
        history: delve.history.clone(),
        clock: Default::default(),
        keys: seats.keys.clone(),
    };
    Snapshot { game: delve.game().clone(), session }
}

impl Snapshot {
    fn text(self) -> String {
        let game = serde_json::from_str(&self.game.save_json()).expect("the rules save is JSON");
        serde_json::to_string(&SaveFile { session: self.session, game }).expect("a save always serializes")
    }
}

/// Reads a save; the file is never changed. A bare rules save has no table.
pub fn read_save(path: &Path) -> Result<(Game, Option<SavedSession>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    parse_save(&text)
}

fn parse_save(text: &str) -> Result<(Game, Option<SavedSession>), String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not a Forgotten Depths save: {e}"))?;
    if value.get("table").is_none() {
        return Ok((Game::load_json(text).map_err(|e| e.to_string())?, None));
    }
    let file: SaveFile = serde_json::from_value(value).map_err(|e| format!("corrupt save: {e}"))?;
    let game = Game::load_json(&file.game.to_string()).map_err(|e| e.to_string())?;
    let (players, turn) = (&file.session.players, &file.session.turn);
    depths_seats::table_check::check_table(players, turn, game.heroes.len())
        .map_err(|e| format!("corrupt save: {e}"))?;
    Ok((game, Some(file.session)))
}

/// The game a save at `path` holds: its game and the table around it
/// (players, turn, log, moves), saved again under the same name.
pub fn session_from(path: &Path, game: Game, saved: Option<SavedSession>) -> Session {
    let mut session = Session::new(game);
    session.log.lines.clear();
    // Only a save that kept them knows the moves since the start.
    session.delve.history = None;
    if let Some(saved) = saved {
        session.seats.players = saved.players;
        session.seats.turn = saved.turn;
        session.log.lines = saved.log;
        session.log.rounds = saved.rounds;
        session.delve.history = saved.history;
        session.clock = saved.clock;
        session.seats.keys = saved.keys;
    }
    session.log.lines.push(format!("Loaded {}.", path.display()));
    if let Some(stem) = path.file_stem() {
        session.saves.name = stem.to_string_lossy().into_owned();
    }
    session
}

/// The saves in `dir`, newest first, described for the menu.
pub fn summarize_saves(dir: &Path) -> Vec<SaveSummary> {
    list_saves(dir).into_iter().take(30).map(|p| summarize(&p)).collect()
}

fn summarize(path: &Path) -> SaveSummary {
    let modified = std::fs::metadata(path).and_then(|m| m.modified()).unwrap_or(std::time::UNIX_EPOCH);
    let date = local_date(modified);
    match read_save(path) {
        Ok((game, saved)) => {
            let heroes: Vec<&str> = game.heroes.iter().map(|h| h.name()).collect();
            // Where the game stands: the Ecology and the book's name for the phase.
            let phase = game.phase();
            let place = match (game.is_over(), game.adventure()) {
                (true, _) => "Game over".to_owned(),
                (false, Some(a)) => format!("{}, {}", a.ecology.ecology.name(), phase.name()),
                (false, None) => phase.name().to_owned(),
            };
            let replayable = saved.as_ref().is_some_and(|t| t.history.is_some());
            let interrupted = !game.is_over() && saved.as_ref().is_some_and(|t| t.keys.iter().any(Option::is_some));
            let count = saved.map_or(1, |t| t.players.count());
            let players = if count == 1 { "1 player".to_owned() } else { format!("{count} players") };
            let seed = game.adventure().map_or(String::new(), |a| format!(" · seed {}", a.options.seed));
            SaveSummary {
                path: path.to_owned(),
                date,
                about: format!("{place} · {} · {players}{seed}", heroes.join(", ")),
                loads: true,
                replayable,
                players: count,
                interrupted,
            }
        }
        Err(e) => SaveSummary {
            path: path.to_owned(),
            date,
            about: format!("does not load: {e}"),
            loads: false,
            replayable: false,
            players: 1,
            interrupted: false,
        },
    }
}

/// "YYYY-MM-DD HH:MM" in the player's own time zone (the system's; UTC
/// where it cannot be found).
pub fn local_date(time: std::time::SystemTime) -> String {
    save_date(time, &jiff::tz::TimeZone::system())
}

/// "YYYY-MM-DD HH:MM" in `zone`.
pub fn save_date(time: std::time::SystemTime, zone: &jiff::tz::TimeZone) -> String {
    jiff::Timestamp::try_from(time)
        .map_or_else(|_| "unknown date".to_owned(), |t| t.to_zoned(zone.clone()).strftime("%Y-%m-%d %H:%M").to_string())
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SaveDir>();
    app.add_message::<LoadSave>();
    app.add_message::<ContinueNewest>();
    app.add_systems(
        Update,
        (
            load_saves.in_set(PlaySystems::Rules),
            (autosave, tell_failed_autosave.run_if(resource_exists::<GameLog>.and_then(resource_exists::<SaveSlot>)))
                .in_set(PlaySystems::Present),
        ),
    );
}

/// The file this game saves to.
pub fn save_path(dir: &SaveDir, slot: &SaveSlot) -> PathBuf {
    dir.0.join(format!("{}.json", slot.name))
}

/// What a save writes (the game, the seats, the log), where it goes, and
/// where a failure is shown: for the systems that save.
#[derive(SystemParam)]
pub struct Saving<'w> {
    pub delve: Res<'w, Delve>,
    pub seats: Res<'w, Seats>,
    pub log: ResMut<'w, GameLog>,
    pub slot: ResMut<'w, SaveSlot>,
    pub clock: Option<Res<'w, crate::game::play_clock::PlayClock>>,
}

impl Saving<'_> {
    /// Whether this table is not this machine's to save: a replay (the
    /// game's own save stays as it was), or a player's copy of a host's
    /// game online (the game is the host's, saved there; a player's copies
    /// would fill the Load list with stale games), on every way out.
    fn not_ours(&self) -> bool {
        self.delve.read_only || self.seats.seat.is_some_and(|s| s > 0)
    }

    /// What the save holds now, the clock with it.
    fn snapshot(&self) -> Snapshot {
        let mut copy = snapshot(&self.delve, &self.seats, &self.log);
        copy.session.clock = self.clock.as_deref().cloned().unwrap_or_default();
        copy
    }

    /// Writes the game's save now; a failure is logged and shown on the table.
    pub fn write(&mut self, dir: &SaveDir) -> bool {
        if self.not_ours() {
            return true;
        }
        let path = save_path(dir, &self.slot);
        match write_in_order(&path, next_in_order(), &self.snapshot().text()) {
            Ok(()) => {
                info!("saved {}", path.display());
                true
            }
            Err(e) => {
                let line = save_failed(&path, &e);
                error!("{line}");
                self.log.notice = Some(line);
                false
            }
        }
    }
}

fn autosave(saving: Option<Saving>, dir: Res<SaveDir>, options: Option<Res<crate::game::cli::Options>>) {
    let Some(mut saving) = saving else { return };
    if !saving.slot.due && !saving.slot.moved {
        return;
    }
    let now = std::mem::take(&mut saving.slot.due);
    saving.slot.moved = false;
    if only_looks(options.as_deref()) || saving.not_ours() {
        return;
    }
    if now {
        saving.write(&dir);
        return;
    }
    // A move: copied now, written on the I/O pool, the frame goes on.
    let (path, seq) = (save_path(&dir, &saving.slot), next_in_order());
    let copy = saving.snapshot();
    let mut waiting = WAITING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    // Moves faster than the disk: only the newest copy waits, one task writes it.
    if waiting.insert(path.clone(), (seq, copy)).is_some() {
        return;
    }
    bevy::tasks::IoTaskPool::get()
        .spawn(async move {
            let newest = WAITING.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&path);
            if let Some((seq, copy)) = newest {
                let outcome = write_in_order(&path, seq, &copy.text()).map_err(|e| save_failed(&path, &e));
                if let Err(line) = &outcome {
                    error!("{line}");
                }
                LAST_AUTOSAVE.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(path, outcome);
            }
        })
        .detach();
}

/// What the table and the log say when a save is not written, on the
/// frame (Ctrl+S, a new game) or off it (a move's autosave) alike.
fn save_failed(path: &Path, e: &std::io::Error) -> String {
    format!("The game could not be saved to {}: {e}", path.display())
}

/// How the last autosave of each file written on the I/O pool went, until
/// the table that saves to it hears it.
static LAST_AUTOSAVE: std::sync::LazyLock<std::sync::Mutex<std::collections::HashMap<PathBuf, Result<(), String>>>> =
    std::sync::LazyLock::new(Default::default);

/// A failed autosave (a file another program holds, a full disk) is told on
/// the table, not only in the log: a note after each failed save, and a
/// toast once until a save succeeds again (not a toast at every move).
fn tell_failed_autosave(
    (dir, slot): (Res<SaveDir>, Res<SaveSlot>),
    mut log: ResMut<GameLog>,
    mut toast: MessageWriter<crate::game::notices::Toast>,
    mut told: Local<bool>,
) {
    let path = save_path(&dir, &slot);
    let outcome = LAST_AUTOSAVE.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&path);
    match outcome {
        Some(Err(line)) => {
            // The note after every failed save (a move clears the last one);
            // the toast once until a save goes through again.
            if !*told {
                *told = true;
                toast.write(crate::game::notices::Toast("The game could not be saved: see the note".into()));
            }
            log.notice = Some(line);
        }
        Some(Ok(())) => *told = false,
        None => {}
    }
}

/// The newest copy of each file waiting for the I/O pool.
static WAITING: std::sync::LazyLock<std::sync::Mutex<std::collections::HashMap<PathBuf, (u64, Snapshot)>>> =
    std::sync::LazyLock::new(Default::default);

/// A `--screenshot` or `--frame-bench` run only looks; it leaves the
/// player's saves alone.
pub fn only_looks(options: Option<&crate::game::cli::Options>) -> bool {
    options.is_some_and(|o| o.screenshot.is_some() || o.frame_bench.is_some())
}

/// Any tool's run (those that only look, and `--health-check` and
/// `--steadiness-check`, which size the window themselves): it keeps its
/// own window and writes nothing into the player's folders (settings, logs).
pub fn tool_run(options: Option<&crate::game::cli::Options>) -> bool {
    only_looks(options) || options.is_some_and(|o| o.health_check.is_some() || o.steadiness_check.is_some())
}

fn load_saves(
    mut commands: Commands,
    mut loads: MessageReader<LoadSave>,
    mut continues: MessageReader<ContinueNewest>,
    dir: Res<SaveDir>,
    mut stopped: Option<ResMut<StoppedWith>>,
    mut notice: ResMut<MenuNotice>,
    mut next: ResMut<NextState<Screen>>,
) {
    for LoadSave(path) in loads.read() {
        match read_save(path) {
            Ok((game, saved)) => {
                session_from(path, game, saved).insert(&mut commands);
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
    if continues.read().count() == 0 {
        return;
    }
    let saves = list_saves(&dir.0);
    let mut passed = Vec::new();
    for path in &saves {
        match read_save(path) {
            // The game stopped on an error last time with this one open: asked once first.
            Ok(_) if stopped.as_ref().is_some_and(|s| s.0.as_deref() == Some(path.as_path())) => {
                let name = path.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned());
                notice.0 = Some(format!(
                    "{name} was open when the game last stopped on an error: Continue again to open it anyway, \
                     or choose another save in Load."
                ));
                if let Some(s) = stopped.as_mut() {
                    s.0 = None;
                }
                return;
            }
            Ok((game, saved)) => {
                let mut session = session_from(path, game, saved);
                for (skipped, why) in &passed {
                    let line = format!("A newer save, {skipped}, does not load ({why}): it is left as it was.");
                    warn!("{line}");
                    session.log.lines.push(line);
                }
                session.insert(&mut commands);
                notice.0 = None;
                next.set(Screen::Playing);
                return;
            }
            Err(e) => passed.push((path.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned()), e)),
        }
    }
    notice.0 = Some(match passed.first() {
        None => "There is no saved game yet.".to_owned(),
        Some((name, why)) => format!("No save loads: the newest, {name}, {why}. Load lists them all."),
    });
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
        let summary = summarize(&path);
        assert!(!summary.loads && summary.about.contains("does not load"), "{summary:?}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{ not a save");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A save's date is the player's own clock's: the same moment reads
    /// 17:53 in UTC and 19:53 two hours east.
    #[test]
    fn dates_are_written_in_the_players_time_zone() {
        use jiff::tz::{TimeZone, offset};
        let utc = |secs| save_date(std::time::UNIX_EPOCH + std::time::Duration::from_secs(secs), &TimeZone::UTC);
        assert_eq!(utc(0), "1970-01-01 00:00");
        assert_eq!(utc(951_782_400), "2000-02-29 00:00");
        assert_eq!(utc(1_795_974_780), "2026-11-29 17:53");
        let day_before = std::time::UNIX_EPOCH - std::time::Duration::from_secs(86_400);
        assert_eq!(save_date(day_before, &TimeZone::UTC), "1969-12-31 00:00");
        let east = TimeZone::fixed(offset(2));
        let moment = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_795_974_780);
        assert_eq!(save_date(moment, &east), "2026-11-29 19:53");
        assert_eq!(save_date(std::time::UNIX_EPOCH, &TimeZone::fixed(offset(-5))), "1969-12-31 19:00");
    }

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("fd-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn the_save_folder_is_the_platforms_data_folder() {
        let dirs = project_dirs().expect("a home folder");
        assert_eq!(default_save_dir(), dirs.data_dir().join("saves"));
        assert!(default_save_dir().to_string_lossy().contains("forgotten-depths"));
        // On Linux the folder is where earlier versions kept it.
        if cfg!(target_os = "linux") {
            assert!(old_data_dirs().iter().any(|d| d.join("saves") == default_save_dir()));
        }
    }

    #[test]
    fn old_saves_move_into_the_new_folder_and_none_is_lost() {
        let (old, new) = (temp("old-saves"), temp("new-saves"));
        let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        write_atomic(&old.join("game-1.json"), "first").unwrap();
        std::fs::File::options().write(true).open(old.join("game-1.json")).unwrap().set_modified(hour_ago).unwrap();
        write_atomic(&old.join("game-2.json"), "second, old").unwrap();
        write_atomic(&old.join("same.json"), "same").unwrap();
        std::fs::write(old.join("notes.txt"), "not a save").unwrap();
        // Already in the new folder: one with another text, one the same.
        write_atomic(&new.join("game-2.json"), "second, new").unwrap();
        write_atomic(&new.join("same.json"), "same").unwrap();

        let (moved, failed) = move_saves(&old, &new);
        assert!(failed.is_empty(), "{failed:?}");
        assert_eq!(moved.len(), 2, "{moved:?}");
        let text = |p: PathBuf| std::fs::read_to_string(p).unwrap();
        assert_eq!(text(new.join("game-1.json")), "first");
        assert_eq!(text(new.join("game-2.json")), "second, new", "a save in the new folder is never overwritten");
        assert_eq!(text(new.join("game-2-moved.json")), "second, old", "the old one comes over beside it");
        assert_eq!(text(old.join("same.json")), "same", "an identical copy stays where it was");
        assert_eq!(text(old.join("notes.txt")), "not a save", "only saves move");
        assert!(!old.join("game-1.json").exists());
        let modified = std::fs::metadata(new.join("game-1.json")).unwrap().modified().unwrap();
        assert_eq!(local_date(modified), local_date(hour_ago), "a moved save keeps its date");
        assert_eq!(list_saves(&new).last(), Some(&new.join("game-1.json")), "and its place in the list");
        assert_eq!(list_saves(&new).len(), 4);

        // Moving again finds nothing new; a folder onto itself moves nothing.
        assert!(move_saves(&old, &new).0.is_empty());
        assert!(move_saves(&new, &new).0.is_empty());
        assert!(move_saves(&old.join("missing"), &new).0.is_empty());
        std::fs::remove_dir_all(&old).unwrap();
        std::fs::remove_dir_all(&new).unwrap();
    }

    #[test]
    fn a_moved_save_still_loads() {
        let (old, new) = (temp("old-game"), temp("new-game"));
        let mut session = Session::new(a_game());
        session.log.lines.push("Ann drew a tile.".into());
        write_atomic(&old.join("game-9-seed3.json"), &save_text(&session.delve, &session.seats, &session.log)).unwrap();
        move_saves(&old, &new);
        let (game, saved) = read_save(&new.join("game-9-seed3.json")).unwrap();
        assert_eq!(&game, session.delve.game());
        assert_eq!(saved.unwrap().log, session.log.lines);
        std::fs::remove_dir_all(&old).unwrap();
        std::fs::remove_dir_all(&new).unwrap();
    }

    fn a_game() -> Game {
        let content = depths_rules::Content::builtin().expect("content");
        Game::new(depths_rules::GameOptions::standard(&["bren", "sil"], 3), content).expect("game")
    }

    #[test]
    fn a_save_keeps_the_players_their_heroes_and_the_log() {
        let mut session = Session::new(a_game());
        session.seats.players =
            Players { names: vec!["Ann".into(), "Bo".into()], owners: vec![1, 0], curtain: true, ..Default::default() };
        session.seats.turn.player = 1;
        session.log.lines.push("Ann drew a tile.".into());
        session.log.rounds.last.push("Bren takes 3 damage.".into());
        let (game, saved) = parse_save(&save_text(&session.delve, &session.seats, &session.log)).unwrap();
        assert_eq!(&game, session.delve.game());
        let saved = saved.expect("the table is saved");
        assert_eq!(saved.players, session.seats.players);
        assert_eq!(saved.turn, session.seats.turn);
        assert_eq!(saved.log, session.log.lines);
        assert_eq!(saved.rounds, session.log.rounds);
    }

    /// A new player saw "/tmp/tmp.osFtrYn0re/.config/…" in Settings.
    #[test]
    fn a_path_in_the_home_folder_is_shown_from_the_home_folder() {
        let Some(home) = directories::BaseDirs::new().map(|b| b.home_dir().to_path_buf()) else { return };
        let sep = std::path::MAIN_SEPARATOR;
        assert_eq!(shown_path(&home.join("x").join("settings.json")), format!("~{sep}x{sep}settings.json"));
        let elsewhere = std::path::Path::new("/nowhere/settings.json");
        if !elsewhere.starts_with(&home) {
            assert_eq!(shown_path(elsewhere), elsewhere.display().to_string());
        }
    }

    #[test]
    fn a_bare_rules_save_still_loads_with_one_player() {
        let game = a_game();
        let (loaded, saved) = parse_save(&game.save_json()).unwrap();
        assert_eq!(loaded, game);
        assert_eq!(saved, None);
    }

    #[test]
    fn a_hero_owned_by_a_missing_player_is_refused() {
        let mut session = Session::new(a_game());
        session.seats.players =
            Players { names: vec!["Ann".into()], owners: vec![0, 3], curtain: false, ..Default::default() };
        let err = parse_save(&save_text(&session.delve, &session.seats, &session.log)).unwrap_err();
        assert_eq!(err, "corrupt save: players.owners.1 is player 3, but the table has 1 player");
    }
}
