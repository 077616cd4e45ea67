//! The analysis board's work: the party's chance to win after every move of
//! the game being replayed, or of the game just over (`depths_sim::analysis`:
//! the table's never-peeking forecasts, move by move), each fight's chance
//! Round by Round, the turning points with what happened there and what the
//! planning bot would have played instead.
//!
//! It runs in short chunks on Bevy's compute pool, never in a frame; each
//! chunk's end wakes the (reactive) window so the graph grows, and the table
//! never waits on it. When done it is kept beside the game's save
//! (`NAME.analysis`), so it is computed once; a kept analysis that is not
//! this game's, or not ours, is named in the log and made again.
//!
//! Its seed is the game's own, so every machine that analyses a game finds
//! the same figures (online, each player's board shows what the host's shows).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, atomic::AtomicBool, atomic::Ordering};
use std::time::Duration;

use bevy::{prelude::*, tasks::AsyncComputeTaskPool};
use depths_rules::{Action, GameOptions};
use depths_sim::analysis::{Alternative, Analysis, Analyst, TurningPoint};

use crate::{
    PlaySystems,
    game::replay::Replay,
    game::saves::{SaveDir, save_path},
    game::screen::Screen,
    game::session::{Delve, GameContent, SaveSlot},
};

/// Playing time of one chunk.
const CHUNK: Duration = Duration::from_millis(150);
/// How many turning points are shown (and get the planning bot's alternative).
pub const TURNING_POINTS: usize = 3;
/// A kept analysis larger than this is no analysis of ours.
const MAX_FILE: u64 = 8 * 1024 * 1024;

/// A turning point told: the move, in words, and what the planning bot would have played.
#[derive(Clone, Debug)]
pub struct TurningLine {
    pub point: TurningPoint,
    /// The move made there, in words.
    pub words: String,
    pub alternative: Option<Alternative>,
    /// The planning bot's move, in words.
    pub suggested: Option<String>,
    /// After this move every tile left in the pile was a dead end: the next
    /// draw, whichever tile it was, lost the game.
    pub dead_end_after: bool,
}

/// The analysis of the game on the board, as far as it has got.
#[derive(Resource, Default)]
pub struct AnalysisBoard {
    /// The game analysed: its options and moves.
    subject: Option<(GameOptions, Vec<Action>)>,
    /// Where it is kept, if the game has a save.
    file: Option<PathBuf>,
    /// The file held a finished analysis with this many alternatives: it is
    /// not written again unless more were found.
    kept_whole: Option<usize>,
    /// The figures so far (a copy after each chunk).
    pub latest: Option<Analysis>,
    /// Once every point is known: the turning points, told.
    pub turning: Vec<TurningLine>,
    /// Why there is no analysis (a game the rules refuse).
    pub error: Option<String>,
    /// The chunk under way leaves its work here, then wakes the window
    /// (a wake before the work is handed over would find nothing, and no
    /// other frame would come to look again).
    task: Option<Arc<Mutex<Option<Work>>>>,
    /// Set when the subject changes: the chunk under way stops early.
    passed: Arc<AtomicBool>,
    /// CPU time of the chunks so far (ns), for the log.
    cpu: u64,
    /// Chunks done in this sitting (an unfinished analysis is kept every
    /// [`KEEP_EVERY`]).
    chunks: u32,
}

impl AnalysisBoard {
    /// Work done and in all.
    pub fn progress(&self) -> Option<(usize, usize)> {
        self.latest.as_ref().map(Analysis::progress)
    }

    pub fn busy(&self) -> bool {
        self.task.is_some()
    }
}

/// What a chunk hands back.
struct Work {
    analyst: Box<Analyst>,
    /// Once everything is known: the turning points told.
    turning: Option<Vec<TurningLine>>,
    cpu: u64,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<AnalysisBoard>();
    if app.world().get_resource::<crate::game::cli::Options>().is_some_and(|o| o.frame_bench.is_some()) {
        return;
    }
    app.add_systems(Update, drive.in_set(PlaySystems::Sync).run_if(in_state(Screen::Playing)));
    app.add_systems(OnExit(Screen::Playing), |mut board: ResMut<AnalysisBoard>| {
        board.passed.store(true, Ordering::Relaxed);
        keep_so_far(&board);
        *board = AnalysisBoard::default();
    });
}

/// The game to analyse now: the replay's, or the game on the table once it is over.
/// Borrowed: it is compared every frame, and copied only when it changes.
fn subject<'a>(replay: Option<&'a Replay>, delve: Option<&'a Delve>) -> Option<(&'a GameOptions, &'a [Action])> {
    if let Some(r) = replay {
        return Some((&r.options, &r.history));
    }
    let delve = delve?;
    let game = delve.game();
    if !game.is_over() || delve.read_only {
        return None;
    }
    Some((&game.adventure()?.options, delve.history.as_deref()?))
}

/// Where a game's analysis is kept: beside its save.
pub fn analysis_file(save: &Path) -> PathBuf {
    save.with_extension("analysis")
}

/// A kept analysis, if there is one that reads; a bad one is named in the log.
fn read_kept(path: &Path) -> Option<Analysis> {
    let size = std::fs::metadata(path).ok()?.len();
    if size > MAX_FILE {
        warn!("{}: {size} bytes is no analysis of ours: made again", path.display());
        return None;
    }
    let text = std::fs::read_to_string(path).map_err(|e| warn!("{}: cannot read: {e}", path.display())).ok()?;
    serde_json::from_str(&text).map_err(|e| warn!("{}: not an analysis ({e}): made again", path.display())).ok()
}

fn drive(
    mut board: ResMut<AnalysisBoard>,
    replay: Option<Res<Replay>>,
    delve: Option<Res<Delve>>,
    content: Option<Res<GameContent>>,
    (dir, slot, seats): (Res<SaveDir>, Option<Res<SaveSlot>>, Option<Res<crate::game::session::Seats>>),
    proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
) {
    let want = subject(replay.as_deref(), delve.as_deref());
    if board.subject.as_ref().map(|(o, h)| (o, h.as_slice())) != want {
        let want = want.map(|(o, h)| (o.clone(), h.to_vec()));
        board.passed.store(true, Ordering::Relaxed);
        *board = AnalysisBoard { subject: want.clone(), ..default() };
        let (Some((options, history)), Some(content)) = (want, content) else { return };
        // Kept beside the save: the replay's file, or the game's own save.
        let save = match replay.as_deref() {
            Some(r) => r.save.clone(),
            None => slot.as_deref().map(|s| save_path(&dir, s)),
        };
        // A player's copy of an online game keeps nothing on this machine.
        let ours = seats.is_none_or(|s| s.seat.is_none_or(|seat| seat == 0));
        board.file = save.as_deref().filter(|_| ours).map(analysis_file);
        let kept = board.file.as_deref().and_then(read_kept);
        board.kept_whole = kept.as_ref().filter(|k| k.is_done()).map(|k| k.alternatives.len());
        let analyst = match kept.map(|a| Analyst::resume(a, &options, &content.0, &history)) {
            Some(Ok(a)) => Ok(a),
            Some(Err(why)) => {
                warn!("the kept analysis is not this game's ({why}): made again");
                Analyst::new(&options, &content.0, &history, options.seed)
            }
            None => Analyst::new(&options, &content.0, &history, options.seed),
        };
        match analyst {
            Ok(a) => {
                board.latest = Some(a.analysis().clone());
                start_chunk(&mut board, Box::new(a), proxy.as_deref());
            }
            Err(e) => board.error = Some(format!("This game cannot be analysed: {e}")),
        }
        return;
    }
    let Some(task) = board.task.as_ref() else { return };
    let Some(work) = task.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take() else { return };
    board.task = None;
    board.cpu += work.cpu;
    board.latest = Some(work.analyst.analysis().clone());
    let Some(turning) = work.turning else {
        // Kept as it grows, every few seconds of work: a game over left
        // before its analysis was done began it again from nothing.
        board.chunks += 1;
        if board.chunks.is_multiple_of(KEEP_EVERY) {
            keep_so_far(&board);
        }
        start_chunk(&mut board, work.analyst, proxy.as_deref());
        return;
    };
    board.turning = turning;
    info!("analysis done ({} ms of a core in this sitting)", board.cpu / 1_000_000);
    // Kept unless the file already held all of it (figures read back from
    // JSON may differ in their last bit, so the work done is compared).
    if let (Some(path), Some(a)) = (&board.file, &board.latest)
        && board.kept_whole != Some(a.alternatives.len())
    {
        keep(path, a);
    }
}

/// The turning points in words, with the planning bot's alternatives (kept
/// in the analysis once found).
fn tell(analyst: &mut Analyst) -> Vec<TurningLine> {
    let points = analyst.turning_points(TURNING_POINTS);
    points
        .iter()
        .map(|t| {
            let before = analyst.game_at(t.step);
            let played = analyst.history().get(t.step).cloned();
            let mut words =
                played.as_ref().map_or_else(String::new, |a| crate::game::words::describe_action(&before, a));
            // A draw says what came up ("Draw a map tile" alone left the
            // player guessing what turned the game).
            if matches!(played, Some(Action::DrawTile))
                && let Some(tile) = analyst.game_at(t.step + 1).adventure().and_then(|a| a.ecology.drawn.clone())
            {
                words = format!("{words} ({})", crate::game::words::drawn_tile_text(&tile));
            }
            let alternative = analyst.alternative(t.step);
            let suggested =
                alternative.as_ref().map(|alt| crate::game::words::describe_action(&before, &alt.suggested));
            // Said only of a tile's move that left the party exploring (in a
            // fight the pile's tiles are no threat until it is won).
            let tile_move =
                matches!(played, Some(Action::DrawTile | Action::PlaceTile { .. } | Action::PlaceSetAsideTile { .. }));
            let dead_end_after = tile_move && t.delta < 0.0 && {
                let after = analyst.game_at(t.step + 1);
                after.combat().is_none() && crate::game::confirm::draw_surely_loses(&after)
            };
            TurningLine { point: *t, words, alternative, suggested, dead_end_after }
        })
        .collect()
}

/// Plays one chunk in the background: the points and fights first; once all
/// are known, the turning points told (the planning bot's alternatives take
/// a second or two each). Its end wakes the window.
fn start_chunk(
    board: &mut AnalysisBoard,
    mut analyst: Box<Analyst>,
    proxy: Option<&bevy::winit::EventLoopProxyWrapper>,
) {
    let wake = proxy.map(|p| (**p).clone());
    let passed = board.passed.clone();
    let handed = Arc::new(Mutex::new(None));
    board.task = Some(handed.clone());
    AsyncComputeTaskPool::get()
        .spawn(async move {
            let cpu = depths_sim::thread_cpu_ns();
            let mut turning = None;
            if passed.load(Ordering::Relaxed) {
                // The board has moved on: hand it back untouched.
            } else if !analyst.is_done() {
                analyst.work(CHUNK);
            } else {
                turning = Some(tell(&mut analyst));
            }
            let cpu = cpu.zip(depths_sim::thread_cpu_ns()).map_or(0, |(a, b)| b.saturating_sub(a));
            *handed.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Work { analyst, turning, cpu });
            if let Some(w) = wake {
                let _ = w.send_event(bevy::winit::WinitUserEvent::WakeUp);
            }
        })
        .detach();
}

/// How many chunks of work between keeping an unfinished analysis.
const KEEP_EVERY: u32 = 40;

/// Keeps an unfinished analysis beside its save, to go on from next time.
fn keep_so_far(board: &AnalysisBoard) {
    if let (Some(path), Some(a)) = (&board.file, &board.latest)
        && !a.is_done()
        && a.progress().0 > 0
    {
        keep(path, a);
    }
}

/// Keeps an analysis beside its save; a failure is only logged (it is made
/// again next time).
fn keep(path: &Path, analysis: &Analysis) {
    match serde_json::to_string(analysis) {
        Ok(text) => match crate::game::saves::write_atomic(path, &text) {
            Ok(()) => info!("kept the analysis in {}", path.display()),
            Err(e) => warn!("the analysis could not be kept in {}: {e}", path.display()),
        },
        Err(e) => warn!("the analysis could not be written: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::state::app::StatesPlugin;
    use depths_rules::Content;

    fn app_with(replay: Replay) -> App {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin));
        app.init_state::<Screen>();
        app.insert_resource(GameContent(Content::builtin().unwrap()));
        app.insert_resource(SaveDir(std::env::temp_dir()));
        app.insert_resource(replay);
        app.add_plugins(plugin);
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
        app
    }

    /// Runs the app until the analysis is done (its turning points told).
    fn until_done(app: &mut App) {
        for _ in 0..20_000 {
            app.update();
            let board = app.world().resource::<AnalysisBoard>();
            if board.latest.as_ref().is_some_and(Analysis::is_done) && !board.busy() {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        panic!("the analysis did not finish");
    }

    /// The first `moves` of a bot's game, as a replay whose save lies in a
    /// fresh folder of its own (`name`): the folder and the save's path.
    fn replay_saved_in(name: &str, moves: usize) -> (PathBuf, PathBuf, Replay) {
        let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let save = dir.join("game.json");
        let options = GameOptions::standard(&["bren", "sil"], 3);
        let history = crate::game::replay::bot_game(&options, &Content::builtin().unwrap())[..moves].to_vec();
        let replay = Replay {
            options,
            history,
            players: Default::default(),
            step: 0,
            marks: Vec::new(),
            save: Some(save.clone()),
        };
        (dir, save, replay)
    }

    #[test]
    fn the_analysis_is_made_off_the_frame_kept_beside_the_save_and_read_back() {
        let (dir, save, replay) = replay_saved_in("fd-analysis", 30);
        let mut app = app_with(replay.clone());
        until_done(&mut app);
        let first = app.world().resource::<AnalysisBoard>().latest.clone().unwrap();
        let first_cpu = app.world().resource::<AnalysisBoard>().cpu;
        assert!(first.points.iter().all(Option::is_some), "every point known");
        let kept = analysis_file(&save);
        assert!(kept.is_file(), "kept beside the save");
        // Watched again: read back, not made again.
        let mut again = app_with(replay.clone());
        until_done(&mut again);
        let board = again.world().resource::<AnalysisBoard>();
        let back = board.latest.as_ref().unwrap();
        assert_eq!(back.progress(), first.progress());
        for (p, q) in back.points.iter().zip(&first.points) {
            assert!((p.unwrap().value - q.unwrap().value).abs() < 1e-12);
        }
        // Only the turning points are told again (a fraction of a
        // millisecond, not always 0 on a busy machine), no playout made.
        assert!(board.cpu * 20 < first_cpu, "made again: {} ns of a core after {first_cpu}", board.cpu);
        // A damaged file is named and the analysis made again, not trusted.
        std::fs::write(&kept, "{\"format\": 1}").unwrap();
        let mut damaged = app_with(replay);
        until_done(&mut damaged);
        assert!(damaged.world().resource::<AnalysisBoard>().latest.as_ref().is_some_and(Analysis::is_done));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A playtester left a game over before its analysis was done and came
    /// back to it: it began again from nothing. Leaving keeps what was
    /// done, and coming back goes on from there.
    #[test]
    fn an_analysis_left_unfinished_goes_on_from_where_it_was() {
        let (dir, save, replay) = replay_saved_in("fd-analysis-left", 60);
        let mut app = app_with(replay.clone());
        let mut done = (0, 0);
        for _ in 0..20_000 {
            app.update();
            done = app.world().resource::<AnalysisBoard>().progress().unwrap_or_default();
            if done.0 > 0 {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        assert!(done.0 > 0 && done.0 < done.1, "some of it done, not all: {done:?}");
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Menu);
        app.update();
        assert!(analysis_file(&save).is_file(), "what was done is kept on leaving");
        // Its first frame reads the kept file back.
        let mut back = app_with(replay);
        back.update();
        let resumed = back.world().resource::<AnalysisBoard>().progress().unwrap_or_default();
        assert!(resumed.0 >= done.0, "came back at {resumed:?}, had {done:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
