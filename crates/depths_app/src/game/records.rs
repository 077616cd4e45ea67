//! The record of every game: when a game ends (won, lost, or left
//! unfinished after the Heroes cleared at least one Ecology) this machine
//! keeps one line of JSON about it in `records.jsonl` in the data folder,
//! for the Statistics screen (`ui/screens/statistics.rs`).
//!
//! The file only grows, a line at a time, each written whole and flushed to
//! the disk before it counts: a crash mid-write leaves at most one broken
//! last line, which the next read reports and skips (and the next write
//! starts on a line of its own). A game left unfinished and later finished
//! has two lines with the same id: the last one counts. Every line is
//! checked like anything else from outside (a player may edit or copy the
//! file): one that is not a record of ours is named and skipped.
//!
//! Online, each machine records the games its own player sat in; the host's
//! save keeps whether its game was recorded, a player's table remembers it
//! for the sitting.

use std::{
    io::{Read, Write},
    path::{Path, PathBuf},
};

use bevy::prelude::*;
use depths_rules::{Content, Ecology, Event, Game, GameOptions, LossReason, Phase, Variants};
use depths_seats::seats::Strength;
use serde::{Deserialize, Serialize};

use crate::{
    game::play_clock::{PlayClock, unix_now},
    game::screen::Screen,
    game::session::{Delve, SaveSlot, Seats},
    game::words::time_spent,
};

/// The file's name in the data folder.
pub const RECORDS_FILE: &str = "records.jsonl";
/// The format of a line; a line of a later format is skipped, and said so.
pub const FORMAT: u32 = 1;
/// A longer line is no record of ours (one is a few hundred bytes).
const MAX_LINE: usize = 16 * 1024;
/// A larger file is read only this far (some 40,000 games), and said so.
const MAX_READ: u64 = 16 * 1024 * 1024;
/// The longest text a record keeps in any one field.
const MAX_TEXT: usize = 200;

/// Where this machine keeps its records: set by the desktop app (the data
/// folder); without it (tests, tools) no game is recorded.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct RecordsFile(pub PathBuf);

/// How a game ended.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Won,
    Lost,
    /// Left after at least one Ecology, not finished (yet).
    Unfinished,
}

/// Why a game was lost.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub enum Cause {
    /// A Map Tile that could not be placed.
    DeadEnd,
    /// Nothing left to draw or Encounter.
    Stranded,
    /// A Hero was Defeated, by the Monsters of the last Combat if any.
    HeroDefeated { hero: String, by: Option<String> },
}

/// One game, as the Statistics screen counts it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub format: u32,
    /// The same game recorded again (left, then finished) has the same id.
    pub id: String,
    /// When it ended or was left (seconds since 1970, UTC).
    pub ended: u64,
    /// The Heroes' names and their Hero Mats ("bren", "bren_alt").
    pub heroes: Vec<String>,
    pub mats: Vec<String>,
    /// The variants played, by name; none is the standard game.
    pub variants: Vec<String>,
    pub single_classed: bool,
    pub start: Ecology,
    /// Where the party got: the Ecology it was in at the end.
    pub reached: Ecology,
    pub ecologies_cleared: u8,
    pub outcome: Outcome,
    pub cause: Option<Cause>,
    /// Combat Rounds fought (unknown for a game loaded from a save that kept no moves).
    pub rounds: Option<u32>,
    /// Time at the table, in seconds.
    pub seconds: u64,
    /// How many Heroes a Companion played at the end, and how strong.
    pub companions: u8,
    pub companion_strength: Option<Strength>,
    pub players: u8,
    pub online: bool,
    pub seed: u64,
}

/// The variants' names, as New Game shows them.
pub fn variant_names(v: &Variants) -> Vec<String> {
    let mut v = *v;
    let rows = crate::game::words::variants_in_words(&mut v);
    rows.into_iter().filter(|(on, ..)| **on).map(|(_, name, _)| name.to_owned()).collect()
}

/// What the moves of a game tell that its end does not: the Combat Rounds
/// fought and the foes of the last Combat. `None` where the moves do not replay.
pub fn from_moves(options: &GameOptions, content: &Content, history: &[depths_rules::Action]) -> Option<(u32, String)> {
    let mut game = Game::new(options.clone(), content.clone()).ok()?;
    let (mut rounds, mut foes) = (0, String::new());
    for a in history {
        for e in game.apply(a.clone()).ok()? {
            match e {
                Event::RoundStarted { .. } => rounds += 1,
                Event::CombatStarted { foes: f } => foes = f.join(", "),
                _ => {}
            }
        }
    }
    Some((rounds, foes))
}

/// The record of `game` as it stands (over, or left unfinished).
pub fn record_of(game: &Game, players: &depths_seats::seats::Players, facts: &RecordFacts) -> Option<GameRecord> {
    let adv = game.adventure()?;
    let (outcome, cause) = match game.phase() {
        Phase::Won => (Outcome::Won, None),
        Phase::Lost(reason) => (
            Outcome::Lost,
            Some(match reason {
                LossReason::DeadEnd => Cause::DeadEnd,
                LossReason::Stranded => Cause::Stranded,
                LossReason::HeroDefeated { hero } => Cause::HeroDefeated {
                    hero: game.heroes.get(usize::from(hero)).map_or("a Hero", |h| h.name()).to_owned(),
                    by: facts.last_foes.clone().filter(|f| !f.is_empty()),
                },
            }),
        ),
        _ => (Outcome::Unfinished, None),
    };
    let options = &adv.options;
    let companions = players.companions.iter().filter(|c| **c).count() as u8;
    Some(GameRecord {
        format: FORMAT,
        id: record_id(options, facts.started),
        ended: unix_now(),
        heroes: game.heroes.iter().map(|h| h.name().to_owned()).collect(),
        mats: options.heroes.clone(),
        variants: variant_names(&options.variants),
        single_classed: options.single_classed,
        start: options.start,
        reached: adv.ecology.ecology,
        ecologies_cleared: adv.record.ecologies_cleared.len() as u8,
        outcome,
        cause,
        rounds: facts.rounds,
        seconds: facts.seconds,
        companions,
        companion_strength: (companions > 0).then_some(facts.strength),
        players: players.names.len() as u8,
        online: facts.online,
        seed: options.seed,
    })
}

/// A game's id in the records: the same game left, then finished, keeps it.
fn record_id(options: &GameOptions, started: u64) -> String {
    format!("{}-{}-{}", options.seed, options.heroes.join("+"), started)
}

/// What the table knows about a game besides the game itself.
#[derive(Clone, Debug, Default)]
pub struct RecordFacts {
    pub started: u64,
    pub seconds: u64,
    pub rounds: Option<u32>,
    pub last_foes: Option<String>,
    pub strength: Strength,
    pub online: bool,
}

impl GameRecord {
    /// When the game ended, as the saves' dates read, in `zone`.
    pub fn ended_at(&self, zone: &jiff::tz::TimeZone) -> String {
        let ended = std::time::UNIX_EPOCH + std::time::Duration::from_secs(self.ended);
        crate::game::saves::save_date(ended, zone)
    }

    /// Whether this line is one of ours and sane; why not, in words.
    fn check(&self) -> Result<(), String> {
        if self.format > FORMAT {
            return Err(format!("written by a later version (format {})", self.format));
        }
        let texts = self.heroes.iter().chain(&self.mats).chain(&self.variants).chain(std::iter::once(&self.id));
        let cause = match &self.cause {
            Some(Cause::HeroDefeated { hero, by }) => vec![hero.as_str(), by.as_deref().unwrap_or("")],
            _ => Vec::new(),
        };
        if texts.map(String::as_str).chain(cause).any(|t| t.len() > MAX_TEXT) {
            return Err("a name is too long".into());
        }
        if self.heroes.is_empty() || self.heroes.len() > 3 || self.mats.len() != self.heroes.len() {
            return Err(format!("{} Heroes", self.heroes.len()));
        }
        if self.ecologies_cleared > 3 || self.players > 3 || self.companions > 3 {
            return Err("a count out of range".into());
        }
        Ok(())
    }
}

/// The records in `path`, each game once (its last line), oldest first, and
/// what was skipped, in words naming the file and the line. No file: none.
pub fn read_records(path: &Path) -> (Vec<GameRecord>, Vec<String>) {
    let mut problems = Vec::new();
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (Vec::new(), problems),
        Err(e) => return (Vec::new(), vec![format!("{}: cannot read: {e}", path.display())]),
    };
    let mut bytes = Vec::new();
    if let Err(e) = file.take(MAX_READ + 1).read_to_end(&mut bytes) {
        return (Vec::new(), vec![format!("{}: cannot read: {e}", path.display())]);
    }
    if bytes.len() as u64 > MAX_READ {
        bytes.truncate(MAX_READ as usize);
        problems.push(format!("{}: only its first {} MiB are read", path.display(), MAX_READ >> 20));
    }
    let mut records: Vec<GameRecord> = Vec::new();
    for (i, line) in bytes.split(|b| *b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let parsed = if line.len() > MAX_LINE {
            Err(format!("{} bytes long", line.len()))
        } else {
            serde_json::from_slice::<GameRecord>(line)
                .map_err(|e| format!("not a game record ({e})"))
                .and_then(|r| r.check().map(|()| r))
        };
        match parsed {
            Ok(r) => {
                // The same game again (left, then finished): the last line counts.
                records.retain(|old| old.id != r.id);
                records.push(r);
            }
            Err(why) => problems.push(format!("{} line {}: {why}: skipped", path.display(), i + 1)),
        }
    }
    records.sort_by_key(|r| r.ended);
    (records, problems)
}

/// Adds `record` to the file as one whole line, flushed to the disk; a
/// broken last line (a crash mid-write) is left on a line of its own.
pub fn append_record(path: &Path, record: &GameRecord) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut file = std::fs::OpenOptions::new().create(true).append(true).read(true).open(path)?;
    let len = file.metadata()?.len();
    let mut line = String::new();
    if len > 0 {
        let mut last = [0u8];
        use std::io::Seek;
        file.seek(std::io::SeekFrom::Start(len - 1))?;
        file.read_exact(&mut last)?;
        if last[0] != b'\n' {
            line.push('\n');
        }
    }
    line.push_str(&serde_json::to_string(record).map_err(std::io::Error::other)?);
    line.push('\n');
    file.write_all(line.as_bytes())?;
    file.sync_data()
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LastRecord>();
    app.add_systems(OnExit(Screen::Playing), |mut last: ResMut<LastRecord>| *last = default());
    app.add_systems(
        Update,
        (count_time, record_game_over)
            .chain()
            .in_set(crate::PlaySystems::Present)
            .run_if(in_state(Screen::Playing).and_then(resource_exists::<Delve>)),
    );
    app.add_systems(OnExit(Screen::Playing), record_unfinished);
    app.add_systems(Last, record_unfinished.run_if(crate::game::leaving::quitting_at_the_table));
}

/// The desktop's records: in the platform's data folder, beside the saves.
pub(super) fn desktop_plugin(app: &mut App) {
    let path = crate::game::saves::project_dirs()
        .map_or_else(|| PathBuf::from(RECORDS_FILE), |dirs| dirs.data_dir().join(RECORDS_FILE));
    app.insert_resource(RecordsFile(path));
}

/// Time at the table: real time between frames, a gap over two minutes
/// (a machine asleep) counted as two.
fn count_time(time: Res<Time<Real>>, delve: Res<Delve>, clock: Option<ResMut<PlayClock>>) {
    let Some(mut clock) = clock else { return };
    if delve.read_only || delve.game().is_over() {
        return;
    }
    // Saturating: a save's clock is read from outside and may be at the end of its range.
    clock.played_ms = clock.played_ms.saturating_add((time.delta_secs_f64().min(120.0) * 1000.0).round() as u64);
}

/// What a system needs to record the game on the table.
#[derive(bevy::ecs::system::SystemParam)]
pub struct Recorder<'w> {
    delve: Option<Res<'w, Delve>>,
    seats: Option<Res<'w, Seats>>,
    clock: Option<ResMut<'w, PlayClock>>,
    slot: Option<ResMut<'w, SaveSlot>>,
    file: Option<Res<'w, RecordsFile>>,
    settings: Option<Res<'w, crate::game::settings::Settings>>,
    options: Option<Res<'w, crate::game::cli::Options>>,
    content: Option<Res<'w, crate::game::session::GameContent>>,
    log: Option<ResMut<'w, crate::game::game_log::GameLog>>,
}

impl Recorder<'_> {
    /// Records the game if it is this machine's to record and `wanted` says
    /// its state is; returns the record written.
    fn record(&mut self, wanted: impl Fn(&Game) -> bool) -> Option<GameRecord> {
        let (delve, seats, file) = (self.delve.as_ref()?, self.seats.as_ref()?, self.file.as_ref()?);
        let clock = self.clock.as_mut()?;
        if delve.read_only || clock.recorded || crate::game::saves::tool_run(self.options.as_deref()) {
            return None;
        }
        let game = delve.game();
        if !wanted(game) {
            return None;
        }
        let moves = match (&delve.history, game.adventure(), &self.content) {
            (Some(h), Some(a), Some(c)) => from_moves(&a.options, &c.0, h),
            _ => None,
        };
        let facts = RecordFacts {
            started: clock.started,
            seconds: clock.played_ms / 1000,
            rounds: moves.as_ref().map(|m| m.0),
            last_foes: moves.map(|m| m.1),
            strength: self.settings.as_ref().map_or_else(Strength::default, |s| s.companion_strength),
            online: seats.seat.is_some(),
        };
        let record = record_of(game, &seats.players, &facts)?;
        match append_record(&file.0, &record) {
            Ok(()) => {
                info!("recorded the game in {}", file.0.display());
                if game.is_over() {
                    clock.recorded = true;
                    // The flag goes into the save at once: loading it again records nothing.
                    if let Some(slot) = self.slot.as_mut() {
                        slot.due = true;
                    }
                }
            }
            Err(e) => {
                let line = format!("The game could not be recorded in {}: {e}", file.0.display());
                error!("{line}");
                if let Some(log) = self.log.as_mut() {
                    log.notice = Some(line);
                }
            }
        }
        Some(record)
    }
}

/// The record of the finished game on the table, for the game-over screen:
/// written at its end, or read from the records once (the second field).
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct LastRecord(pub Option<GameRecord>, bool);

fn record_game_over(mut recorder: Recorder, mut last: ResMut<LastRecord>) {
    if let Some(r) = recorder.record(Game::is_over) {
        last.0 = Some(r);
    } else if last.0.is_none() && !last.1 && recorder.recorded_earlier() {
        // A finished game loaded again was recorded by an earlier sitting:
        // its end screen still tells what Statistics kept (it lost its
        // Combat Rounds and its "Kept in Statistics" line). Looked up once.
        last.1 = true;
        last.0 = recorder.recorded_before();
    }
}

impl Recorder<'_> {
    /// Whether the game on the table is over and an earlier sitting recorded it.
    fn recorded_earlier(&self) -> bool {
        self.delve.as_ref().is_some_and(|d| d.game().is_over()) && self.clock.as_ref().is_some_and(|c| c.recorded)
    }

    /// The record an earlier sitting wrote of the finished game on the table.
    fn recorded_before(&self) -> Option<GameRecord> {
        let (delve, clock, file) = (self.delve.as_ref()?, self.clock.as_ref()?, self.file.as_ref()?);
        let options = &delve.game().adventure()?.options;
        let id = record_id(options, clock.started);
        read_records(&file.0).0.into_iter().rev().find(|r| r.id == id && r.outcome != Outcome::Unfinished)
    }
}

/// A record in one line: "Lost in the Caverns: Sil fell (Ghoul) · 14 Combat Rounds · 36 min at the table".
pub fn record_line(r: &GameRecord) -> String {
    let how = match (&r.outcome, &r.cause) {
        (Outcome::Won, _) => "Won".to_owned(),
        (Outcome::Unfinished, _) => format!("Left in the {}", r.reached.name()),
        (Outcome::Lost, Some(c @ Cause::HeroDefeated { by: Some(by), .. })) => {
            format!("Lost in the {}: {} ({by})", r.reached.name(), cause_text(c))
        }
        (Outcome::Lost, Some(c)) => format!("Lost in the {}: {}", r.reached.name(), cause_text(c)),
        (Outcome::Lost, None) => format!("Lost in the {}", r.reached.name()),
    };
    let rounds = r.rounds.map_or(String::new(), |n| format!(" · {n} Combat Rounds"));
    // A game with no clock (made outside the table) has no time to tell.
    let time = if r.seconds == 0 { String::new() } else { format!(" · {} at the table", time_spent(r.seconds)) };
    format!("{how}{rounds}{time}")
}

/// A game left after its first Ecology: recorded as unfinished (a later
/// finish replaces it). A player's copy of an online game is the host's to record.
fn unfinished(game: &Game) -> bool {
    !game.is_over() && game.adventure().is_some_and(|a| !a.record.ecologies_cleared.is_empty())
}

fn record_unfinished(mut recorder: Recorder) {
    if recorder.seats.as_ref().is_some_and(|s| s.seat.is_some_and(|s| s > 0)) {
        return;
    }
    recorder.record(unfinished);
}

/// Games played and won.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub played: u32,
    pub won: u32,
}

impl Tally {
    fn add(&mut self, won: bool) {
        self.played += 1;
        self.won += u32::from(won);
    }

    /// The share won, 0–1 (0 for none played).
    pub fn rate(&self) -> f64 {
        if self.played == 0 { 0.0 } else { f64::from(self.won) / f64::from(self.played) }
    }
}

/// What the Statistics screen draws: finished games only (won or lost),
/// the unfinished counted apart.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Statistics {
    pub all: Tally,
    pub unfinished: u32,
    pub by_heroes: Vec<(String, Tally)>,
    pub by_variants: Vec<(String, Tally)>,
    pub by_start: Vec<(String, Tally)>,
    /// Where each finished run ended: the Ecology it was lost in, or Victory.
    pub depth: Vec<(String, u32)>,
    /// Why games were lost, most often first.
    pub causes: Vec<(String, u32)>,
    /// Time at the table in all, in seconds.
    pub seconds: u64,
}

fn tally_into(list: &mut Vec<(String, Tally)>, key: String, won: bool) {
    match list.iter_mut().find(|(k, _)| *k == key) {
        Some((_, t)) => t.add(won),
        None => {
            let mut t = Tally::default();
            t.add(won);
            list.push((key, t));
        }
    }
}

/// A party by its Heroes' names in one order everywhere ("Ava + Bren +
/// Sil"): the charts sorted them and the list of last games did not.
pub fn party(heroes: &[String]) -> String {
    let mut heroes = heroes.to_vec();
    heroes.sort();
    heroes.join(" + ")
}

fn count_into(list: &mut Vec<(String, u32)>, key: String) {
    match list.iter_mut().find(|(k, _)| *k == key) {
        Some((_, n)) => *n += 1,
        None => list.push((key, 1)),
    }
}

/// The cause of a loss as the chart groups it.
pub fn cause_text(cause: &Cause) -> String {
    match cause {
        Cause::DeadEnd => "A Dead End".into(),
        Cause::Stranded => "Stranded".into(),
        Cause::HeroDefeated { hero, .. } => format!("{hero} fell"),
    }
}

impl Statistics {
    pub fn of(records: &[GameRecord]) -> Statistics {
        let mut s = Statistics::default();
        for r in records {
            s.seconds = s.seconds.saturating_add(r.seconds);
            if r.outcome == Outcome::Unfinished {
                s.unfinished += 1;
                continue;
            }
            let won = r.outcome == Outcome::Won;
            s.all.add(won);
            tally_into(&mut s.by_heroes, party(&r.heroes), won);
            let variants = if r.variants.is_empty() { "Standard game".to_owned() } else { r.variants.join(", ") };
            tally_into(&mut s.by_variants, variants, won);
            tally_into(&mut s.by_start, r.start.name().to_owned(), won);
            count_into(&mut s.depth, if won { "Victory".to_owned() } else { r.reached.name().to_owned() });
            if let Some(c) = &r.cause {
                count_into(&mut s.causes, cause_text(c));
            }
        }
        for list in [&mut s.by_heroes, &mut s.by_variants] {
            list.sort_by(|a, b| b.1.played.cmp(&a.1.played).then_with(|| a.0.cmp(&b.0)));
        }
        // The Ecologies in the book's order, then Victory.
        let order = |name: &str| Ecology::ALL.iter().position(|e| e.name() == name).unwrap_or(Ecology::ALL.len());
        s.by_start.sort_by_key(|(k, _)| order(k));
        s.depth.sort_by_key(|(k, _)| order(k));
        s.causes.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        s
    }
}

/// One CSV cell: quoted where it must be, and a cell that a spreadsheet
/// would take for a formula (a name from a content file) made plain text.
fn cell(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{text}") } else { text.to_owned() };
    if text.contains([',', '"', '\n', '\r']) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text }
}

/// The records as CSV, a header and one row per game, dates in `zone`.
pub fn to_csv(records: &[GameRecord], zone: &jiff::tz::TimeZone) -> String {
    let mut out = String::from(
        "ended,outcome,heroes,hero_mats,variants,single_classed,starting_ecology,reached,ecologies_cleared,cause,\
         defeated_by,rounds,minutes_played,companions,companion_strength,players,online,seed\n",
    );
    for r in records {
        let (cause, by) = match &r.cause {
            Some(c @ Cause::HeroDefeated { by, .. }) => (cause_text(c), by.clone().unwrap_or_default()),
            Some(c) => (cause_text(c), String::new()),
            None => (String::new(), String::new()),
        };
        let row = [
            r.ended_at(zone),
            format!("{:?}", r.outcome),
            r.heroes.join(" + "),
            r.mats.join(" + "),
            r.variants.join(" + "),
            r.single_classed.to_string(),
            r.start.name().to_owned(),
            r.reached.name().to_owned(),
            r.ecologies_cleared.to_string(),
            cause,
            by,
            r.rounds.map_or(String::new(), |n| n.to_string()),
            format!("{:.1}", r.seconds as f64 / 60.0),
            r.companions.to_string(),
            r.companion_strength.map_or(String::new(), |s| format!("{s:?}")),
            r.players.to_string(),
            r.online.to_string(),
            r.seed.to_string(),
        ];
        out.push_str(&row.iter().map(|c| cell(c)).collect::<Vec<_>>().join(","));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("fd-records-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir.join(RECORDS_FILE)
    }

    /// "Ava + Bren + Sil" in the charts and "Bren + Sil + Ava" in the list of last games.
    #[test]
    fn a_party_reads_the_same_everywhere() {
        let heroes = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        assert_eq!(party(&heroes(&["Bren", "Sil", "Ava"])), "Ava + Bren + Sil");
        assert_eq!(party(&heroes(&["Sil", "Ava", "Bren"])), party(&heroes(&["Bren", "Sil", "Ava"])));
    }

    fn a_record(id: &str, outcome: Outcome) -> GameRecord {
        GameRecord {
            format: FORMAT,
            id: id.into(),
            ended: 1_765_000_000,
            heroes: vec!["Bren".into(), "Sil".into()],
            mats: vec!["bren".into(), "sil".into()],
            variants: Vec::new(),
            single_classed: false,
            start: Ecology::Ruins,
            reached: Ecology::Caverns,
            ecologies_cleared: 1,
            outcome,
            cause: (outcome == Outcome::Lost).then_some(Cause::DeadEnd),
            rounds: Some(12),
            seconds: 1800,
            companions: 0,
            companion_strength: None,
            players: 1,
            online: false,
            seed: 7,
        }
    }

    /// The record line tells time at the table in the one form the Statistics
    /// screen uses, and says nothing of time for a game with no clock.
    #[test]
    fn the_record_line_tells_time_at_the_table_in_one_form() {
        let mut r = a_record("t", Outcome::Lost);
        assert_eq!(record_line(&r), "Lost in the Caverns: A Dead End · 12 Combat Rounds · 30 min at the table");
        r.seconds = 89 * 60 + 5;
        assert!(record_line(&r).ends_with(" · 1 h 29 min at the table"), "{}", record_line(&r));
        r.seconds = 0;
        assert_eq!(record_line(&r), "Lost in the Caverns: A Dead End · 12 Combat Rounds");
        assert_eq!(time_spent(59), "under a minute");
    }

    #[test]
    fn a_line_cut_by_a_crash_is_reported_skipped_and_the_next_record_is_kept() {
        let path = temp("crash");
        append_record(&path, &a_record("a", Outcome::Lost)).unwrap();
        // A crash mid-write: half a line, no newline.
        let whole = serde_json::to_string(&a_record("b", Outcome::Won)).unwrap();
        let mut f = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(&whole.as_bytes()[..whole.len() / 2]).unwrap();
        drop(f);
        append_record(&path, &a_record("c", Outcome::Won)).unwrap();
        let (records, problems) = read_records(&path);
        assert_eq!(records.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(), ["a", "c"]);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("line 2") && problems[0].contains(RECORDS_FILE), "{problems:?}");
    }

    #[test]
    fn foreign_or_hostile_lines_are_named_and_skipped_never_fatal() {
        let path = temp("foreign");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut later = serde_json::to_value(a_record("later", Outcome::Won)).unwrap();
        later["format"] = 99.into();
        let mut many = serde_json::to_value(a_record("many", Outcome::Won)).unwrap();
        many["heroes"] = serde_json::json!(["a", "b", "c", "d"]);
        many["mats"] = serde_json::json!(["a", "b", "c", "d"]);
        let text = [
            "{\"hello\": 1}".to_owned(),
            "\u{0}\u{1} binary".to_owned(),
            later.to_string(),
            many.to_string(),
            format!("{{\"id\": \"{}\"}}", "x".repeat(MAX_LINE)),
            serde_json::to_string(&a_record("good", Outcome::Lost)).unwrap(),
        ]
        .join("\n");
        std::fs::write(&path, text).unwrap();
        let (records, problems) = read_records(&path);
        assert_eq!(records.len(), 1);
        assert_eq!(problems.len(), 5, "{problems:#?}");
        assert!(problems[2].contains("later version"), "{problems:#?}");
    }

    #[test]
    fn a_game_left_then_finished_counts_once_as_finished() {
        let path = temp("again");
        append_record(&path, &a_record("g", Outcome::Unfinished)).unwrap();
        append_record(&path, &a_record("g", Outcome::Won)).unwrap();
        let (records, problems) = read_records(&path);
        assert!(problems.is_empty());
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].outcome, Outcome::Won);
    }

    #[test]
    fn statistics_count_finished_games_by_heroes_variants_start_depth_and_cause() {
        let mut records = vec![a_record("1", Outcome::Won), a_record("2", Outcome::Lost), a_record("3", Outcome::Lost)];
        records[1].heroes = vec!["Sil".into(), "Bren".into()];
        records[2].variants = vec!["Locked Chests".into()];
        records[2].cause = Some(Cause::HeroDefeated { hero: "Sil".into(), by: Some("Ghoul".into()) });
        records.push(a_record("4", Outcome::Unfinished));
        let s = Statistics::of(&records);
        assert_eq!(s.all, Tally { played: 3, won: 1 });
        assert_eq!(s.unfinished, 1);
        // Bren + Sil and Sil + Bren are one combination.
        assert_eq!(s.by_heroes, vec![("Bren + Sil".to_owned(), Tally { played: 3, won: 1 })]);
        assert_eq!(s.by_variants[0], ("Standard game".to_owned(), Tally { played: 2, won: 1 }));
        assert_eq!(s.depth, vec![("Caverns".to_owned(), 2), ("Victory".to_owned(), 1)]);
        assert_eq!(s.causes, vec![("A Dead End".to_owned(), 1), ("Sil fell".to_owned(), 1)]);
        assert_eq!(s.seconds, 4 * 1800);
    }

    #[test]
    fn the_csv_has_a_row_per_game_and_no_formula_cells() {
        let mut r = a_record("1", Outcome::Lost);
        r.cause = Some(Cause::HeroDefeated { hero: "Bren".into(), by: Some("=HYPERLINK(\"x\"), Ghoul".into()) });
        let csv = to_csv(&[r, a_record("2", Outcome::Won)], &jiff::tz::TimeZone::UTC);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[1].contains("\"'=HYPERLINK(\"\"x\"\"), Ghoul\""), "{}", lines[1]);
        assert_eq!(lines[0].split(',').count(), 18);
    }

    #[test]
    fn a_finished_game_is_recorded_with_its_cause_and_rounds() {
        let content = Content::builtin().unwrap();
        let options = GameOptions::standard(&["bren", "sil"], 3);
        let history = crate::game::replay::bot_game(&options, &content);
        let mut game = Game::new(options.clone(), content.clone()).unwrap();
        for a in &history {
            game.apply(a.clone()).unwrap();
        }
        let (rounds, foes) = from_moves(&options, &content, &history).unwrap();
        assert!(rounds > 0);
        let facts = RecordFacts { rounds: Some(rounds), last_foes: Some(foes.clone()), ..default() };
        let r = record_of(&game, &depths_seats::seats::Players::default(), &facts).unwrap();
        assert_ne!(r.outcome, Outcome::Unfinished);
        if let Phase::Lost(LossReason::HeroDefeated { .. }) = game.phase() {
            assert!(matches!(&r.cause, Some(Cause::HeroDefeated { by: Some(b), .. }) if *b == foes));
        }
        assert_eq!(r.rounds, Some(rounds));
        assert!(r.check().is_ok());
    }
}
