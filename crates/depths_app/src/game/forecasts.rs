//! Forecasts that do not cheat: the chance to win the fight in front of the
//! party (and the damage each Hero can expect), the chance that a later tile
//! of this Ecology finds no place, and the chance to win the whole game —
//! each estimated by playing the situation out many times with the careful
//! bot, every card and tile order the players cannot know reshuffled for each
//! playout (`depths_sim::Forecaster`).
//!
//! The playouts run in short chunks on Bevy's compute task pool, never in a
//! frame; a chunk that finishes wakes the (reactive) window, the figure is
//! refined until its ± is small enough or its budget is spent, and any
//! change of the situation drops the work for the new one.

use std::time::{Duration, Instant};

use bevy::{
    prelude::*,
    tasks::{AsyncComputeTaskPool, Task, block_on, futures_lite::future},
};
use depths_rules::{Action, Game, Phase};
use depths_sim::{Estimate, Forecaster, Kind};

use crate::{
    PlaySystems,
    game::focus::{PreviewedEncounter, SelectedElement},
    game::screen::Screen,
    game::session::Delve,
};

/// Playing time of one chunk of playouts.
const CHUNK: Duration = Duration::from_millis(120);
/// A figure is refined until its ± is under this…
const CLOSE_ENOUGH: f64 = 0.02;

/// What a forecast is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// The fight in progress, or the one the selected element would start.
    Fight,
    /// The tile in hand: will a later tile of this Ecology find no place?
    Tile,
    /// The whole game from here.
    Game,
}

impl Subject {
    /// …or until this many playouts (a whole game costs ~15 ms a playout).
    fn budget(self) -> u64 {
        match self {
            Subject::Fight => 4000,
            Subject::Tile => 400,
            Subject::Game => 400,
        }
    }
}

/// One forecast being made or made.
#[derive(Default)]
pub struct Slot {
    /// The situation (the game's version) and question it is for.
    key: Option<(u64, Kind)>,
    /// The chunk under way: the forecaster back, with the CPU time it took (ns).
    task: Option<Task<(Forecaster, u64)>>,
    /// CPU time spent on this situation so far (ns; Linux).
    cpu: u64,
    /// The figures so far for the current situation.
    pub latest: Option<Estimate>,
    /// The last steady figure of the same question one move back, told
    /// while the new one is worked out ("estimating…" after every move
    /// left the line empty of figures).
    pub before: Option<Estimate>,
    /// When the work for this situation began, until its figure is shown
    /// (logged at debug level: how long "estimating…" stood).
    since: Option<Instant>,
    /// Set when the situation changes: the chunk under way stops at its
    /// next playout instead of holding the pool for the new situation's.
    passed: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Slot {
    pub fn busy(&self) -> bool {
        self.task.is_some()
    }
}

/// The three forecasts of the table.
#[derive(Resource, Default)]
pub struct Forecasts {
    pub fight: Slot,
    pub tile: Slot,
    pub game: Slot,
}

impl Forecasts {
    /// Whether the fight's forecast is the one Encountering with `a` starts.
    pub fn fight_after(&self, a: &Action) -> bool {
        matches!(&self.fight.key, Some((_, Kind::Fight { first: Some(first) })) if first == a)
    }

    pub fn slot(&self, subject: Subject) -> &Slot {
        match subject {
            Subject::Fight => &self.fight,
            Subject::Tile => &self.tile,
            Subject::Game => &self.game,
        }
    }

    fn slot_mut(&mut self, subject: Subject) -> &mut Slot {
        match subject {
            Subject::Fight => &mut self.fight,
            Subject::Tile => &mut self.tile,
            Subject::Game => &mut self.game,
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Forecasts>();
    // The frame benchmark times the table alone.
    if app.world().get_resource::<crate::game::cli::Options>().is_some_and(|o| o.frame_bench.is_some()) {
        return;
    }
    app.add_systems(
        Update,
        drive.in_set(PlaySystems::Sync).run_if(in_state(Screen::Playing).and_then(resource_exists::<Delve>)),
    );
    app.add_systems(OnExit(Screen::Playing), |mut f: ResMut<Forecasts>| *f = Forecasts::default());
}

/// What each forecast is about in `game`: the fight of a Combat in progress or
/// of the selected element's Encounter, the tile in hand, the whole game.
pub fn questions(game: &Game, selected: Option<Action>) -> [(Subject, Option<Kind>); 3] {
    let phase = game.phase();
    let fight = match (&phase, selected) {
        (Phase::Combat { .. }, _) => Some(Kind::Fight { first: None }),
        (Phase::Exploring { tile_in_hand: false, decision: None }, Some(a)) => Some(Kind::Fight { first: Some(a) }),
        _ => None,
    };
    let tile = matches!(phase, Phase::Exploring { tile_in_hand: true, .. }).then_some(Kind::DeadEnd { first: None });
    let whole = (!game.is_over()).then_some(Kind::Game { first: None });
    [(Subject::Fight, fight), (Subject::Tile, tile), (Subject::Game, whole)]
}

fn drive(
    delve: Res<Delve>,
    selected: Res<SelectedElement>,
    previewed: Res<PreviewedEncounter>,
    mut forecasts: ResMut<Forecasts>,
    proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>,
) {
    let game = delve.game();
    // Only an Encounter the rules allow now is forecast: the one a row under
    // the pointer would make, else the selected element's.
    let encounter = previewed
        .0
        .clone()
        .or_else(|| selected.0.map(|element| Action::Encounter { element }))
        .filter(|a| matches!(game.phase(), Phase::Exploring { .. }) && game.check(a).is_ok());
    for (subject, kind) in questions(game, encounter) {
        let slot = forecasts.slot_mut(subject);
        let key = kind.clone().map(|k| (delve.version(), k));
        if slot.key != key {
            // A new situation: drop the old work (its chunk stops at its next playout).
            slot.passed.store(true, std::sync::atomic::Ordering::Relaxed);
            let before = carried(slot, kind.as_ref());
            *slot = Slot { key: key.clone(), since: Some(Instant::now()), before, ..Slot::default() };
            if let Some(kind) = kind {
                start_chunk(slot, Forecaster::new(game, kind, delve.situation_seed()), proxy.as_deref());
            }
            continue;
        }
        let Some(task) = slot.task.as_mut() else { continue };
        let Some((forecaster, cpu)) = block_on(future::poll_once(task)) else { continue };
        slot.cpu += cpu;
        slot.task = None;
        let estimate = forecaster.estimate();
        let spread =
            estimate.chance.half_width.max(estimate.damage.iter().map(|d| d.half_width / 20.0).fold(0.0, f64::max));
        let more = spread > CLOSE_ENOUGH && estimate.playouts < subject.budget();
        if let Some(since) = slot.since.filter(|_| steady(&estimate) || !more) {
            debug!(
                "forecast {subject:?} shown {} ms after the situation changed ({} playouts, ± {:.1} points, {} ms of a core)",
                since.elapsed().as_millis(),
                estimate.playouts,
                estimate.chance.half_width * 100.0,
                slot.cpu / 1_000_000
            );
            slot.since = None;
        }
        slot.latest = Some(estimate);
        if more {
            start_chunk(slot, forecaster, proxy.as_deref());
        }
    }
}

/// The figure a slot tells while its next situation is worked out: its
/// last steady one, for the same question only (a fight's chance is no
/// guide to another fight's).
fn carried(slot: &mut Slot, kind: Option<&Kind>) -> Option<Estimate> {
    let same_question = slot.key.as_ref().map(|k| &k.1) == kind;
    same_question.then(|| slot.latest.take().filter(steady).or(slot.before.take())).flatten()
}

/// Plays one chunk in the background; its end wakes the window. The first
/// chunks of a situation end as soon as its figure is steady enough to show.
fn start_chunk(slot: &mut Slot, mut forecaster: Forecaster, proxy: Option<&bevy::winit::EventLoopProxyWrapper>) {
    let wake = proxy.map(|p| (**p).clone());
    let (passed, first) = (slot.passed.clone(), slot.since.is_some());
    slot.task = Some(AsyncComputeTaskPool::get().spawn(async move {
        let cpu = depths_sim::thread_cpu_ns();
        forecaster.run_until(CHUNK, |e| passed.load(std::sync::atomic::Ordering::Relaxed) || (first && steady(e)));
        let cpu = cpu.zip(depths_sim::thread_cpu_ns()).map_or(0, |(a, b)| b.saturating_sub(a));
        if let Some(w) = wake {
            let _ = w.send_event(bevy::winit::WinitUserEvent::WakeUp);
        }
        (forecaster, cpu)
    }));
}

/// The widest ± (in points of chance) a figure may show: wider ones still
/// jump from one chunk of playouts to the next. Five points: what a player
/// is promised within a second of a core.
pub const STEADY: f64 = 0.05;

/// Whether a figure is steady enough to show.
pub fn steady(e: &Estimate) -> bool {
    e.chance.half_width <= STEADY
}

/// " (was 62% ± 4)": the figure one move back, while a slot works out the
/// new one; nothing where there is none.
pub fn was_text(slot: &Slot) -> String {
    slot.before.as_ref().map_or_else(String::new, |e| format!(" (was {})", chance_text(e)))
}

/// "62% ± 4": a chance and its 95% uncertainty, in whole points; an
/// estimate at an end reads "under 1%" or "over 99%" ("100% ± 1" read oddly,
/// and a fight at "0%" was still won).
pub fn chance_text(e: &Estimate) -> String {
    let shown = percent(e.chance);
    if shown.starts_with(char::is_numeric) {
        // Unbroken: at 150 % the margin wrapped alone onto the next line.
        format!("{shown}%\u{a0}±\u{a0}{:.0}", (e.chance.half_width * 100.0).max(1.0))
    } else {
        format!("{shown}%")
    }
}

/// A chance in whole points as a player reads it: "62"; an estimate that
/// rounds to 0 or 100 is "under 1" or "over 99" (no playout won is not
/// "cannot be won"); only a certain figure (no margin) is "0" or "100".
pub fn percent(f: depths_sim::Figure) -> String {
    let points = (f.value * 100.0).round();
    match points {
        p if p <= 0.0 && f.half_width > 0.0 => "under 1".to_owned(),
        p if p >= 100.0 && f.half_width > 0.0 => "over 99".to_owned(),
        p => format!("{p:.0}"),
    }
}

/// How the figures were made, for a hover.
pub fn method_text(e: &Estimate) -> String {
    format!(
        "Estimated from {} playouts with the careful bot: every card and tile order the players cannot know is \
         reshuffled for each playout, so the figure never peeks. ± is the 95% range. It is the chance if the \
         careful bot's moves are made from here on: a move it would not make (a Round ended while a heal could \
         still save a Hero) changes it at once. The expected damage is all the Damage each Hero takes to the fight's \
         end in those playouts (healing not taken off), with the careful bot's choices: which pair each Hero resolves, where Damage goes \
         and who avoids Return Damage. Choose otherwise and a Hero's share changes.",
        e.playouts
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use depths_rules::{Content, GameOptions};

    /// A tried game: "Move 64: the chance fell from 19 to 0 %", and the game
    /// climbed back to 45 %; a fight read "100% ± 1". An estimate at an end
    /// is "under 1" or "over 99"; only a certain figure is 0 or 100.
    #[test]
    fn a_chance_at_an_end_is_said_as_an_estimate() {
        let f = |value, half_width| depths_sim::Figure { value, half_width };
        assert_eq!(percent(f(0.001, 0.01)), "under 1");
        assert_eq!(percent(f(0.998, 0.01)), "over 99");
        assert_eq!(percent(f(0.0, 0.0)), "0", "a game lost is lost");
        assert_eq!(percent(f(1.0, 0.0)), "100");
        assert_eq!(percent(f(0.62, 0.04)), "62");
    }

    /// A playtest: the game's chance read "estimating…" after nearly every
    /// move. The last steady figure of the same question is told meanwhile;
    /// never one of another question, nor one still wide.
    #[test]
    fn a_figure_one_move_back_is_told_while_the_new_one_comes() {
        let estimate = |half_width| depths_sim::Estimate {
            playouts: 100,
            chance: depths_sim::Figure { value: 0.39, half_width },
            damage: Vec::new(),
            no_fight: 0,
            actions_per_playout: 1.0,
        };
        let game = Kind::Game { first: None };
        let slot =
            |half_width| Slot { key: Some((1, game.clone())), latest: Some(estimate(half_width)), ..Slot::default() };
        let mut s = slot(0.04);
        assert_eq!(carried(&mut s, Some(&game)), Some(estimate(0.04)));
        let mut s = slot(0.04);
        assert_eq!(carried(&mut s, Some(&Kind::Fight { first: None })), None, "another question");
        let mut s = slot(0.2);
        assert_eq!(carried(&mut s, Some(&game)), None, "too wide to tell");
        let mut s = Slot { before: Some(estimate(0.03)), ..slot(0.2) };
        assert_eq!(carried(&mut s, Some(&game)), Some(estimate(0.03)), "the one before, kept through a quick move");
        let told = Slot { before: Some(estimate(0.04)), ..Slot::default() };
        assert_eq!(was_text(&told), " (was 39%\u{a0}±\u{a0}4)");
    }

    fn kinds(game: &Game, selected: Option<Action>) -> Vec<Option<Kind>> {
        questions(game, selected).into_iter().map(|(_, k)| k).collect()
    }

    #[test]
    fn each_forecast_asks_the_question_of_the_moment() {
        let mut game = Game::new(GameOptions::standard(&["bren", "sil"], 3), Content::builtin().unwrap()).unwrap();
        // Exploring, nothing selected: only the whole game.
        assert_eq!(kinds(&game, None), vec![None, None, Some(Kind::Game { first: None })]);
        // A tile in hand: will a later one find no place?
        game.apply(Action::DrawTile).unwrap();
        assert_eq!(
            kinds(&game, None),
            vec![None, Some(Kind::DeadEnd { first: None }), Some(Kind::Game { first: None })]
        );
        // Play on to the first Encounter the rules allow: its fight is forecast.
        for _ in 0..400 {
            if let Some(a) = game.legal_actions().into_iter().find(|a| matches!(a, Action::Encounter { .. })) {
                assert_eq!(kinds(&game, Some(a.clone()))[0], Some(Kind::Fight { first: Some(a) }));
                break;
            }
            let a = depths_sim::Bot::choose(&mut depths_sim::HeuristicBot, &game);
            game.apply(a).unwrap();
        }
        // In Combat the fight in progress, whatever is selected.
        for _ in 0..2000 {
            if matches!(game.phase(), Phase::Combat { .. }) {
                assert_eq!(kinds(&game, None)[0], Some(Kind::Fight { first: None }));
                return;
            }
            let a = depths_sim::Bot::choose(&mut depths_sim::HeuristicBot, &game);
            game.apply(a).unwrap();
        }
        panic!("no Combat in 2000 actions");
    }
}
