//! The analysis board: the party's chance to win the whole game after every
//! move of a game (finished or not), as the players could have known it at
//! that move — the forecast of [`Kind::Game`], every playout from a fresh
//! deal of what the players cannot see ([`Game::determinized`]), the careful
//! bot ([`HeuristicBot`]) playing to the end. The real hidden orders are
//! never read; only the moves are.
//!
//! Point `k` is the chance after the first `k` moves (point 0: the new game;
//! point `n`: after the last move, exactly 1 or 0 in a finished game). A
//! point is estimated to the table's precision: until its Wilson 95%
//! half-width is at most `half_width` (5 points), or `cap` playouts.
//!
//! An [`Analyst`] does the work in short chunks ([`Analyst::work`] returns
//! within about its budget, one playout at a time), so a client runs it in a
//! background task; its state ([`Analysis`]) serializes, so a save keeps it
//! in a sidecar and [`Analyst::resume`] carries on after checking it belongs
//! to the game (format, options, number of moves and a hash of them). The
//! order of the work:
//! 1. Each move is classified ([`Step`]): whether it is the careful bot's
//!    choice, and whether it reveals anything. Every Combat's Rounds are
//!    noted on the way.
//! 2. The points, coarse to fine: the two ends, then every 64th point, every
//!    32nd, … every one, so a graph drawn early already spans the game.
//! 3. Each fight's chance to win ([`Kind::Fight`]) at the start of each of
//!    its Rounds ([`FightCurve`]): a few dozen short playouts each.
//!
//! The game at move `k` is rebuilt from a snapshot taken every
//! `snapshot_every` moves (the nearest before `k`) and the moves since, and
//! the last one built is kept, so consecutive playouts of a point cost no
//! rebuilding at all.
//!
//! # Why it costs a minute, not ten
//!
//! A playout of a whole game costs about 2 ms, a point ±5 needs up to ~385
//! of them, and a long game has ~900 moves: about ten minutes of a core done
//! naively. Two savings keep the figures what they would be:
//!
//! (a) **Quiet moves keep the chance.** The forecast at a point is "deal the
//! hidden orders afresh, then the careful bot plays". Say move `k` is what
//! the careful bot would play at point `k` (in the game as the players see
//! it and in every world tried; a forced move always is) and reveals
//! nothing: what the players see after it does not depend on the hidden
//! orders. Then a playout from point `k` plays that very move first, and
//! what it reaches is a fresh deal of point `k + 1`: the two chances are the
//! same number, not two estimates of neighbours. The test for "reveals
//! nothing": for `reveal_worlds` deals `s'` of point `k` and one fixed seed
//! `s`, `apply(point_k.determinized(s'), move_k).determinized(s) ==
//! point_{k+1}.determinized(s)` (a determinized game depends only on what
//! is visible and on its seed, so equal results mean the visible state after
//! the move came out the same in every deal). Runs of points joined by quiet
//! moves form a segment ([`Segment`]), estimated once from its last point
//! (the shortest playouts), and every point of it shows that figure. Drawing
//! a tile, a card or a Monster, and any move other than the careful bot's,
//! starts a new segment. A segment that ends in the game's end is exact.
//!
//! (b) **Common random numbers.** Playout `i` of every point is dealt from
//! the same seed, [`playout_seed`]`(seed, i)`, so two neighbouring points
//! differ by what really changed between them more than by the luck of
//! their deals, and a graph of the points is smooth where nothing happened.
//!
//! Turning points ([`turning_points`]) are the moves across which the chance
//! moved most, more than the two points' combined margin; each is a choice
//! other than the careful bot's, the luck of a draw, or both ([`Cause`]).
//! Alternatives ([`Analyst::alternative`]): what the planning bot would have
//! played instead, and the chance with each move played first.

use std::sync::Arc;
use std::time::{Duration, Instant};

use depths_rules::{Action, Content, Event, Game, GameOptions};
use serde::{Deserialize, Serialize};

use crate::bot::{Bot, HeuristicBot, combat_hero};
use crate::forecast::{Figure, Kind, playout_hit};
use crate::plan::{PlanBot, PlanConfig};
use crate::playout::playout_seed;

/// The version of [`Analysis`]: a saved one of another format is analysed again.
pub const FORMAT: u32 = 1;

/// Keeps the worlds that test whether a move reveals anything apart from the playouts'.
const REVEAL_SALT: u64 = 0x7265_7665_616c_7321;

/// How precisely and how the game is analysed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AnalysisConfig {
    /// A point (or a Round of a fight) is done when its 95% half-width is at
    /// most this: 0.05, the ± 5 points the table shows.
    pub half_width: f64,
    /// … or after this many playouts.
    pub cap: u64,
    /// The half-width is looked at every `batch` playouts (never on fewer).
    pub batch: u64,
    /// A snapshot of the game is kept every this many moves.
    pub snapshot_every: usize,
    /// In how many deals a move is tried to tell whether it reveals anything.
    pub reveal_worlds: u32,
}

impl Default for AnalysisConfig {
    fn default() -> AnalysisConfig {
        AnalysisConfig { half_width: 0.05, cap: 600, batch: 8, snapshot_every: 32, reveal_worlds: 3 }
    }
}

/// What one move was, seen from the point before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The careful bot's choice there (and in every deal of the hidden orders tried).
    pub careful: bool,
    /// What the players see after it depends on the hidden orders (a draw,
    /// a reveal, a roll).
    pub reveals: bool,
}

impl Step {
    /// The chance after the move is the chance before it.
    pub fn quiet(&self) -> bool {
        self.careful && !self.reveals
    }
}

/// Playouts so far, and how many hit (won the game or the fight).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub playouts: u64,
    pub hits: u64,
}

impl Tally {
    pub fn figure(&self) -> Figure {
        Figure::share(self.hits, self.playouts)
    }

    fn add(&mut self, hit: bool) {
        self.playouts += 1;
        self.hits += u64::from(hit);
    }

    /// Enough playouts: at the cap, or ± small enough when a batch ends.
    fn done(&self, c: &AnalysisConfig) -> bool {
        self.playouts >= c.cap.max(1)
            || (self.playouts > 0
                && self.playouts.is_multiple_of(c.batch.max(1))
                && self.figure().half_width <= c.half_width)
    }
}

/// Points `first..=last`, joined by quiet moves: one chance.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Segment {
    pub first: usize,
    pub last: usize,
    /// The playouts from point `last`.
    pub tally: Tally,
    /// Known: done, or exact (the game over at `last`).
    pub figure: Option<Figure>,
    pub exact: bool,
}

/// A fight's chance to win at the start of each of its Rounds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FightCurve {
    /// The point right after the move that began the Combat.
    pub start_step: usize,
    /// The foes, joined with " + ".
    pub name: String,
    /// (the point right after a Round began, the chance to win the fight
    /// there), in order; a Round appears once its figure is done.
    pub rounds: Vec<(usize, Figure)>,
}

/// A Round still to estimate (or done).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
struct RoundWork {
    fight: usize,
    step: usize,
    tally: Tally,
}

/// Why the chance moved across a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cause {
    /// A choice other than the careful bot's, which revealed nothing.
    Choice,
    /// The careful bot's move, which revealed something: the luck of the draw.
    Reveal,
    /// A choice other than the careful bot's that revealed something.
    ChoiceAndReveal,
}

/// A move across which the chance moved more than the noise.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TurningPoint {
    /// The move (`history[step]`), from point `step` to point `step + 1`.
    pub step: usize,
    /// The chance after it less the chance before it.
    pub delta: f64,
    /// The two points' combined margin, √(h₁² + h₂²), which `|delta|` exceeds.
    pub noise: f64,
    /// From the steps' classification (none from [`turning_points`] alone).
    pub cause: Option<Cause>,
}

/// What the planning bot would have played instead of a move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Alternative {
    /// The move (`history[step]`).
    pub step: usize,
    pub played: Action,
    /// The planning bot's move there.
    pub suggested: Action,
    /// The chance to win the game with the played move first, then the careful bot.
    pub played_chance: Figure,
    /// … with the planning bot's move first.
    pub suggested_chance: Figure,
    /// Playouts of both, dealt alike (playout `i` of each from the same seed).
    pub playouts: u64,
}

/// Counts of the work, for reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    pub moves: usize,
    /// Moves classified so far.
    pub classified: usize,
    pub quiet_moves: usize,
    pub segments: usize,
    /// Segments estimated by playouts (not exact).
    pub estimated: usize,
    /// Points that share an estimated segment's figure without playouts of their own.
    pub pooled_points: usize,
    /// Points of the segment that ends the game (exact).
    pub exact_points: usize,
    /// Whole-game playouts (the points').
    pub playouts: u64,
    /// The fights' playouts.
    pub fight_playouts: u64,
    pub rounds: usize,
}

/// Everything an analysis found and where its work stands: what a save keeps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// [`FORMAT`].
    pub format: u32,
    /// The game's options (its seed included).
    pub options: GameOptions,
    /// How many moves were analysed.
    pub history_len: usize,
    /// FNV-1a of the moves as JSON: a different game of as many moves is not this one.
    pub history_hash: u64,
    /// The analysis' own seed (the playouts' deals).
    pub seed: u64,
    pub config: AnalysisConfig,
    /// One per move classified so far.
    pub steps: Vec<Step>,
    /// After every move is classified.
    pub segments: Vec<Segment>,
    /// `history_len + 1` points: the chance after the first `k` moves, when known.
    pub points: Vec<Option<Figure>>,
    pub fights: Vec<FightCurve>,
    /// Alternatives asked for so far (none where the planning bot agreed).
    pub alternatives: Vec<(usize, Option<Alternative>)>,
    /// Segment indices, coarse to fine.
    order: Vec<usize>,
    next_target: usize,
    rounds: Vec<RoundWork>,
    next_round: usize,
    playouts: u64,
    fight_playouts: u64,
}

impl Analysis {
    /// Whether every point and every Round is known.
    pub fn is_done(&self) -> bool {
        self.steps.len() == self.history_len
            && !self.segments.is_empty()
            && self.next_target >= self.order.len()
            && self.next_round >= self.rounds.len()
    }

    /// Work units (moves classified + segments + Rounds) done and in all;
    /// before every move is classified the segments are counted as the points.
    pub fn progress(&self) -> (usize, usize) {
        let segments = if self.segments.is_empty() { self.points.len() } else { self.segments.len() };
        let known = self.segments.iter().filter(|s| s.figure.is_some()).count();
        (self.steps.len() + known + self.next_round, self.history_len + segments + self.rounds.len())
    }

    pub fn stats(&self) -> Stats {
        let estimated: Vec<&Segment> = self.segments.iter().filter(|s| !s.exact).collect();
        Stats {
            moves: self.history_len,
            classified: self.steps.len(),
            quiet_moves: self.steps.iter().filter(|s| s.quiet()).count(),
            segments: self.segments.len(),
            estimated: estimated.len(),
            pooled_points: estimated.iter().map(|s| s.last - s.first).sum(),
            exact_points: self.segments.iter().filter(|s| s.exact).map(|s| s.last - s.first + 1).sum(),
            playouts: self.playouts,
            fight_playouts: self.fight_playouts,
            rounds: self.rounds.len(),
        }
    }

    /// The moves where the chance moved most ([`turning_points`]), each with its [`Cause`].
    pub fn turning_points(&self, n: usize) -> Vec<TurningPoint> {
        let mut out = turning_points(&self.points, n);
        for t in &mut out {
            t.cause = self.steps.get(t.step).and_then(|s| match (s.careful, s.reveals) {
                (false, false) => Some(Cause::Choice),
                (true, true) => Some(Cause::Reveal),
                (false, true) => Some(Cause::ChoiceAndReveal),
                (true, false) => None,
            });
        }
        out
    }
}

/// Analyses a game in chunks; see the module documentation.
pub struct Analyst {
    analysis: Analysis,
    history: Vec<Action>,
    /// The game after `i × snapshot_every` moves, for every such `i`.
    snapshots: Vec<Game>,
    /// The last game built, and after how many moves.
    current: Option<(usize, Game)>,
}

impl Analyst {
    /// An analysis of the game of `options` after `history`, its playouts
    /// dealt from `seed`. An error names the move the rules refuse.
    pub fn new(options: &GameOptions, content: &Content, history: &[Action], seed: u64) -> Result<Analyst, String> {
        Analyst::with_config(options, content, history, seed, AnalysisConfig::default())
    }

    /// [`Analyst::new`] with another precision or snapshot spacing.
    pub fn with_config(
        options: &GameOptions,
        content: &Content,
        history: &[Action],
        seed: u64,
        config: AnalysisConfig,
    ) -> Result<Analyst, String> {
        let n = history.len();
        let analysis = Analysis {
            format: FORMAT,
            options: options.clone(),
            history_len: n,
            history_hash: history_hash(history),
            seed,
            config,
            steps: Vec::with_capacity(n),
            segments: Vec::new(),
            points: vec![None; n + 1],
            fights: Vec::new(),
            alternatives: Vec::new(),
            order: Vec::new(),
            next_target: 0,
            rounds: Vec::new(),
            next_round: 0,
            playouts: 0,
            fight_playouts: 0,
        };
        Analyst::build(analysis, Arc::new(content.clone()), history)
    }

    /// Carries on with a saved analysis of the game of `options` after
    /// `history`; an error says why it is not this game's.
    pub fn resume(
        analysis: Analysis,
        options: &GameOptions,
        content: &Content,
        history: &[Action],
    ) -> Result<Analyst, String> {
        if analysis.format != FORMAT {
            return Err(format!("analysis format {} (this build reads {FORMAT})", analysis.format));
        }
        if analysis.options != *options {
            return Err("the analysis is of a game with other options".into());
        }
        if analysis.history_len != history.len() || analysis.history_hash != history_hash(history) {
            return Err(format!(
                "the analysis is of {} other moves (this game has {})",
                analysis.history_len,
                history.len()
            ));
        }
        sane(&analysis).map_err(|why| format!("the analysis is damaged: {why}"))?;
        Analyst::build(analysis, Arc::new(content.clone()), history)
    }

    /// Replays the moves once, keeping the snapshots; the end of a finished game is exact.
    fn build(mut analysis: Analysis, content: Arc<Content>, history: &[Action]) -> Result<Analyst, String> {
        let every = analysis.config.snapshot_every.max(1);
        let mut game = Game::new_shared(analysis.options.clone(), content).map_err(|e| e.to_string())?;
        let mut snapshots = vec![game.clone()];
        for (i, a) in history.iter().enumerate() {
            game.apply(a.clone()).map_err(|e| format!("move {} ({a:?}) is refused: {e}", i + 1))?;
            if (i + 1) % every == 0 {
                snapshots.push(game.clone());
            }
        }
        let n = history.len();
        if let Some(end) = exact(&game) {
            analysis.points[n] = Some(end);
        }
        let mut analyst = Analyst { analysis, history: history.to_vec(), snapshots, current: Some((n, game)) };
        if analyst.analysis.steps.len() == n && analyst.analysis.segments.is_empty() {
            analyst.finish_classifying();
        }
        Ok(analyst)
    }

    /// What the analysis found so far, and where its work stands (what a save keeps).
    pub fn analysis(&self) -> &Analysis {
        &self.analysis
    }

    /// The chance after the first `k` moves, for `k` in `0..=history.len()`; `None` until known.
    pub fn points(&self) -> &[Option<Figure>] {
        &self.analysis.points
    }

    pub fn fights(&self) -> &[FightCurve] {
        &self.analysis.fights
    }

    pub fn steps(&self) -> &[Step] {
        &self.analysis.steps
    }

    pub fn progress(&self) -> (usize, usize) {
        self.analysis.progress()
    }

    pub fn is_done(&self) -> bool {
        self.analysis.is_done()
    }

    pub fn stats(&self) -> Stats {
        self.analysis.stats()
    }

    pub fn turning_points(&self, n: usize) -> Vec<TurningPoint> {
        self.analysis.turning_points(n)
    }

    /// Works for about `budget` (at least one unit: a move classified or
    /// one playout); true when everything is done.
    pub fn work(&mut self, budget: Duration) -> bool {
        let started = Instant::now();
        while !self.is_done() {
            self.unit();
            if started.elapsed() >= budget {
                break;
            }
        }
        self.is_done()
    }

    /// The moves analysed.
    pub fn history(&self) -> &[Action] {
        &self.history
    }

    /// The game after the first `k` moves (at most `history.len()`).
    pub fn game_at(&mut self, k: usize) -> Game {
        self.state(k.min(self.history.len())).clone()
    }

    /// The JSON size of the snapshots kept, in bytes: a rough measure of
    /// their memory (the cards are shared with the content, not copied).
    pub fn snapshot_bytes(&self) -> usize {
        let games = self.snapshots.iter().chain(self.current.as_ref().map(|(_, g)| g));
        games.map(|g| serde_json::to_vec(g).map_or(0, |v| v.len())).sum()
    }

    /// What the planning bot would have played instead of move `step`, and
    /// the chance with each played first (± `half_width`); `None` where it
    /// plays the same move (or there is no such move). Kept in the analysis.
    pub fn alternative(&mut self, step: usize) -> Option<Alternative> {
        if let Some((_, a)) = self.analysis.alternatives.iter().find(|(s, _)| *s == step) {
            return a.clone();
        }
        let played = self.history.get(step)?.clone();
        let game = self.state(step).clone();
        let found = alternative_at(&game, step, &played, self.analysis.seed, &self.analysis.config);
        self.analysis.alternatives.push((step, found.clone()));
        found
    }

    /// One unit of work.
    fn unit(&mut self) {
        let n = self.history.len();
        let k = self.analysis.steps.len();
        if k < n {
            self.classify(k);
            if k + 1 == n {
                self.finish_classifying();
            }
            return;
        }
        let seed = self.analysis.seed;
        let config = self.analysis.config;
        if let Some(&s) = self.analysis.order.get(self.analysis.next_target) {
            let seg = self.analysis.segments[s];
            if seg.figure.is_some() {
                self.analysis.next_target += 1;
                return;
            }
            let i = seg.tally.playouts;
            let hit = playout_hit(self.state(seg.last), &Kind::Game { first: None }, playout_seed(seed, i));
            self.analysis.playouts += 1;
            let seg = &mut self.analysis.segments[s];
            seg.tally.add(hit);
            if seg.tally.done(&config) {
                let f = seg.tally.figure();
                seg.figure = Some(f);
                let (first, last) = (seg.first, seg.last);
                self.analysis.points[first..=last].fill(Some(f));
                self.analysis.next_target += 1;
            }
            return;
        }
        if let Some(r) = self.analysis.rounds.get(self.analysis.next_round).copied() {
            let i = r.tally.playouts;
            let hit = playout_hit(self.state(r.step), &Kind::Fight { first: None }, playout_seed(seed, i));
            self.analysis.fight_playouts += 1;
            let round = &mut self.analysis.rounds[self.analysis.next_round];
            round.tally.add(hit);
            if round.tally.done(&config) {
                let f = round.tally.figure();
                self.analysis.fights[r.fight].rounds.push((r.step, f));
                self.analysis.next_round += 1;
            }
        }
    }

    /// Classifies move `k` ([`Step`]) and notes a Combat or Round it begins.
    fn classify(&mut self, k: usize) {
        let before = self.state(k).clone();
        let a = self.history[k].clone();
        let mut after = before.clone();
        let Ok(events) = after.apply(a.clone()) else {
            unreachable!("the moves were checked when the analysis was built")
        };
        let salt = self.analysis.seed ^ REVEAL_SALT;
        let seen_seed = playout_seed(salt, 0);
        let seen = after.determinized(seen_seed);
        let mut careful = HeuristicBot.choose(&before) == a;
        let mut reveals = false;
        for w in 0..self.analysis.config.reveal_worlds {
            let mut world = before.determinized(playout_seed(salt, 1 + u64::from(w)));
            if careful && HeuristicBot.choose(&world) != a {
                careful = false;
            }
            if reveals {
                continue;
            }
            if world.apply(a.clone()).is_err() {
                reveals = true;
                continue;
            }
            world.determinize(seen_seed);
            reveals = world != seen;
        }
        self.analysis.steps.push(Step { careful, reveals });
        for e in &events {
            match e {
                Event::CombatStarted { foes } => self.analysis.fights.push(FightCurve {
                    start_step: k + 1,
                    name: foes.join(" + "),
                    rounds: Vec::new(),
                }),
                Event::RoundStarted { .. } if !after.is_over() && after.in_combat() => {
                    if let Some(fight) = self.analysis.fights.len().checked_sub(1) {
                        self.analysis.rounds.push(RoundWork { fight, step: k + 1, tally: Tally::default() });
                    }
                }
                _ => {}
            }
        }
        self.current = Some((k + 1, after));
    }

    /// Joins the points into segments and orders them coarse to fine.
    fn finish_classifying(&mut self) {
        let n = self.history.len();
        let mut segments = Vec::new();
        let mut first = 0;
        for k in 0..n {
            if !self.analysis.steps[k].quiet() {
                segments.push(segment(first, k));
                first = k + 1;
            }
        }
        segments.push(segment(first, n));
        if let Some(end) = self.analysis.points[n]
            && let Some(last) = segments.last_mut()
        {
            last.figure = Some(end);
            last.exact = true;
            self.analysis.points[last.first..=n].fill(Some(end));
        }
        let mut order = Vec::with_capacity(segments.len());
        let mut seen = vec![false; segments.len()];
        for p in coarse_to_fine(n) {
            let s = segments.partition_point(|seg| seg.last < p);
            if !seen[s] {
                seen[s] = true;
                order.push(s);
            }
        }
        self.analysis.segments = segments;
        self.analysis.order = order;
    }

    /// The game after the first `k` moves, from the last one built or the nearest snapshot.
    fn state(&mut self, k: usize) -> &Game {
        let every = self.analysis.config.snapshot_every.max(1);
        let base = k / every * every;
        let reuse = matches!(&self.current, Some((c, _)) if *c <= k && *c >= base);
        if !reuse {
            self.current = Some((base, self.snapshots[base / every].clone()));
        }
        let (at, game) = self.current.as_mut().expect("set above");
        while *at < k {
            if game.apply(self.history[*at].clone()).is_err() {
                unreachable!("the moves were checked when the analysis was built");
            }
            *at += 1;
        }
        game
    }
}

/// Whether a saved analysis (a file from outside) can be worked on without
/// an index out of range or work without end; why not, in words.
fn sane(a: &Analysis) -> Result<(), String> {
    let n = a.history_len;
    let c = &a.config;
    if !(0.005..=0.5).contains(&c.half_width)
        || !(1..=100_000).contains(&c.cap)
        || !(1..=1_000).contains(&c.batch)
        || !(1..=10_000).contains(&c.snapshot_every)
        || !(1..=16).contains(&c.reveal_worlds)
    {
        return Err("its settings are out of range".into());
    }
    if a.points.len() != n + 1 || a.steps.len() > n {
        return Err("its points are not the game's".into());
    }
    if !a.segments.is_empty() {
        // Segments cover the points in order, without gaps.
        let mut next = 0;
        for seg in &a.segments {
            if seg.first != next || seg.last < seg.first || seg.last > n {
                return Err("its segments do not cover the game".into());
            }
            next = seg.last + 1;
        }
        if next != n + 1 || a.steps.len() != n {
            return Err("its segments do not cover the game".into());
        }
    }
    if a.order.iter().any(|s| *s >= a.segments.len()) || a.next_target > a.order.len() {
        return Err("its order of work is out of range".into());
    }
    if a.rounds.iter().any(|r| r.fight >= a.fights.len() || r.step > n) || a.next_round > a.rounds.len() {
        return Err("its Rounds are out of range".into());
    }
    if a.fights.iter().any(|f| f.start_step > n || f.rounds.iter().any(|(k, _)| *k > n))
        || a.alternatives.iter().any(|(k, _)| *k >= n)
    {
        return Err("a fight or an alternative is out of range".into());
    }
    Ok(())
}

fn segment(first: usize, last: usize) -> Segment {
    Segment { first, last, tally: Tally::default(), figure: None, exact: false }
}

/// A finished game's chance: 1 won, 0 lost, without margin.
fn exact(game: &Game) -> Option<Figure> {
    game.is_over()
        .then(|| Figure { value: if game.phase() == depths_rules::Phase::Won { 1.0 } else { 0.0 }, half_width: 0.0 })
}

/// The points `0..=n`, coarse to fine: both ends, then every 64th, every
/// 32nd, … every one; each once.
pub fn coarse_to_fine(n: usize) -> Vec<usize> {
    let mut seen = vec![false; n + 1];
    let mut out = Vec::with_capacity(n + 1);
    let mut take = |p: usize, out: &mut Vec<usize>| {
        if !seen[p] {
            seen[p] = true;
            out.push(p);
        }
    };
    take(0, &mut out);
    take(n, &mut out);
    let mut stride = 64;
    while stride >= 1 {
        for p in (stride..n).step_by(stride) {
            take(p, &mut out);
        }
        stride /= 2;
    }
    out
}

/// FNV-1a of the moves as JSON.
fn history_hash(history: &[Action]) -> u64 {
    let bytes = serde_json::to_vec(history).unwrap_or_default();
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3))
}

/// The `n` moves across which the chance fell or rose most, more than the
/// two points' combined margin (both points known), the biggest change
/// first; `cause` is left out (see [`Analysis::turning_points`]).
pub fn turning_points(points: &[Option<Figure>], n: usize) -> Vec<TurningPoint> {
    let mut out: Vec<TurningPoint> = points
        .windows(2)
        .enumerate()
        .filter_map(|(step, w)| {
            let (a, b) = (w[0]?, w[1]?);
            let delta = b.value - a.value;
            let noise = a.half_width.hypot(b.half_width);
            (delta.abs() > noise).then_some(TurningPoint { step, delta, noise, cause: None })
        })
        .collect();
    out.sort_by(|x, y| y.delta.abs().total_cmp(&x.delta.abs()).then(x.step.cmp(&y.step)));
    out.truncate(n);
    out
}

/// What the planning bot (`PlanBot::new(seed, PlanConfig::default())`)
/// would have played instead of move `step` of the game of `options` after
/// `history`, and the chance to win with each played first (± 5 points);
/// `None` where it plays the same move, or there is no such move.
pub fn alternative(
    options: &GameOptions,
    content: &Content,
    history: &[Action],
    step: usize,
    seed: u64,
) -> Option<Alternative> {
    let played = history.get(step)?;
    let mut game = Game::new(options.clone(), content.clone()).ok()?;
    for a in &history[..step] {
        game.apply(a.clone()).ok()?;
    }
    alternative_at(&game, step, played, seed, &AnalysisConfig::default())
}

fn alternative_at(
    game: &Game,
    step: usize,
    played: &Action,
    seed: u64,
    config: &AnalysisConfig,
) -> Option<Alternative> {
    if game.is_over() {
        return None;
    }
    let mut plan = PlanBot::new(seed, PlanConfig::default());
    // In Combat, the planning bot's choice for the Hero who moved.
    let suggested = match combat_hero(played) {
        Some(hero) if game.in_combat() => plan.choose_for(game, hero)?,
        _ => plan.choose(game),
    };
    if suggested == *played {
        return None;
    }
    let kinds = [Kind::Game { first: Some(played.clone()) }, Kind::Game { first: Some(suggested.clone()) }];
    let mut tallies = [Tally::default(); 2];
    while !tallies.iter().all(|t| t.done(config)) {
        for (kind, t) in kinds.iter().zip(&mut tallies) {
            if !t.done(config) {
                let i = t.playouts;
                t.add(playout_hit(game, kind, playout_seed(seed, i)));
            }
        }
    }
    Some(Alternative {
        step,
        played: played.clone(),
        suggested,
        played_chance: tallies[0].figure(),
        suggested_chance: tallies[1].figure(),
        playouts: tallies[0].playouts + tallies[1].playouts,
    })
}

#[cfg(test)]
mod tests {
    use depths_rules::{Phase, RuleError};

    use super::*;
    use crate::forecast::Forecaster;

    fn content() -> Content {
        Content::builtin().expect("the built-in content loads")
    }

    fn options(seed: u64) -> GameOptions {
        GameOptions::standard(&["bren", "sil"], seed)
    }

    /// The careful bot's moves in the game of `seed`, at most `cut` of them.
    fn careful_moves(c: &Content, seed: u64, cut: usize) -> Vec<Action> {
        let mut g = Game::new(options(seed), c.clone()).expect("sets up");
        let mut moves = Vec::new();
        while !g.is_over() && moves.len() < cut {
            let a = HeuristicBot.choose(&g);
            g.apply(a.clone()).expect("the careful bot plays legal moves");
            moves.push(a);
        }
        moves
    }

    /// Small caps: quick in a debug build.
    fn small() -> AnalysisConfig {
        AnalysisConfig { cap: 16, batch: 8, snapshot_every: 8, ..AnalysisConfig::default() }
    }

    fn run_to_end(a: &mut Analyst) {
        while !a.work(Duration::from_secs(60)) {}
    }

    /// Seed 95: the careful bot loses its first fight after 30 moves.
    const SHORT: u64 = 95;

    #[test]
    fn a_refused_move_is_named() {
        let c = content();
        let mut moves = careful_moves(&c, 3, 10);
        moves.insert(4, Action::Descend);
        let err = Analyst::new(&options(3), &c, &moves, 1).err().expect("refused");
        assert!(err.starts_with("move 5 (Descend) is refused"), "{err}");
    }

    #[test]
    fn a_finished_game_ends_exactly() {
        let c = content();
        let moves = careful_moves(&c, SHORT, 10_000);
        let a = Analyst::with_config(&options(SHORT), &c, &moves, 1, small()).expect("builds");
        assert_eq!(a.points().len(), moves.len() + 1);
        let mut g = Game::new(options(SHORT), c).unwrap();
        moves.iter().for_each(|m| drop(g.apply(m.clone()).unwrap()));
        let won = if g.phase() == Phase::Won { 1.0 } else { 0.0 };
        assert!(g.is_over());
        assert_eq!(a.points().last().copied().flatten(), Some(Figure { value: won, half_width: 0.0 }));
        assert!(a.points()[..moves.len()].iter().all(Option::is_none), "nothing else known before any work");
        assert_eq!(a.progress(), (0, moves.len() + moves.len() + 1));
    }

    #[test]
    fn an_unfinished_game_has_no_exact_end() {
        let c = content();
        let moves = careful_moves(&c, 3, 12);
        let mut a = Analyst::with_config(&options(3), &c, &moves, 1, small()).expect("builds");
        assert_eq!(a.points()[12], None);
        run_to_end(&mut a);
        let end = a.points()[12].expect("estimated");
        assert!(end.half_width > 0.0 && a.stats().exact_points == 0);
    }

    #[test]
    fn the_game_at_any_step_is_the_replayed_one() {
        let c = content();
        let moves = careful_moves(&c, 7, 60);
        let mut a = Analyst::with_config(&options(7), &c, &moves, 1, small()).expect("builds");
        // Forward, back across snapshots, within one, and to the end.
        for k in [0, 3, 8, 9, 17, 5, 40, 39, 60, 16, 23] {
            let mut g = Game::new(options(7), c.clone()).unwrap();
            moves[..k].iter().for_each(|m| drop(g.apply(m.clone()).unwrap()));
            assert!(a.game_at(k) == g, "the game after {k} moves");
        }
    }

    #[test]
    fn draws_reveal_and_other_choices_are_noted() {
        let c = content();
        let mut g = Game::new(options(5), c.clone()).unwrap();
        let mut moves = Vec::new();
        let mut other_at = None;
        while moves.len() < 40 {
            let careful = HeuristicBot.choose(&g);
            // One move other than the careful bot's, once there is a choice.
            let legal = g.legal_actions();
            let a = match legal.iter().find(|a| **a != careful) {
                Some(other) if other_at.is_none() && moves.len() >= 3 => {
                    other_at = Some(moves.len());
                    other.clone()
                }
                _ => careful,
            };
            g.apply(a.clone()).unwrap();
            moves.push(a);
        }
        let other_at = other_at.expect("a choice came up");
        let mut a = Analyst::with_config(&options(5), &c, &moves, 1, small()).expect("builds");
        while a.steps().len() < moves.len() {
            a.work(Duration::ZERO);
        }
        let steps = a.steps();
        assert!(!steps[other_at].careful, "move {other_at} was not the careful bot's");
        let draws: Vec<usize> = (0..moves.len()).filter(|&k| moves[k] == Action::DrawTile).collect();
        assert!(!draws.is_empty());
        for k in draws {
            assert!(steps[k].reveals, "drawing a tile (move {k}) reveals it");
            // Placing the tile drawn, where the careful bot would, is quiet.
            if matches!(moves[k + 1], Action::PlaceTile { .. }) && k + 1 != other_at {
                assert!(steps[k + 1].quiet(), "placing (move {}) is quiet", k + 1);
            }
        }
        assert!(steps.iter().any(|s| s.quiet()) && steps.iter().any(|s| !s.quiet()));
    }

    /// A quiet move keeps what the players see independent of the hidden
    /// orders in deals other than the ones that classified it.
    #[test]
    fn quiet_moves_stay_quiet_in_other_deals() {
        let c = content();
        let moves = careful_moves(&c, 11, 60);
        let mut a = Analyst::with_config(&options(11), &c, &moves, 1, small()).expect("builds");
        while a.steps().len() < moves.len() {
            a.work(Duration::from_secs(5));
        }
        let quiet: Vec<usize> = (0..moves.len()).filter(|&k| a.steps()[k].quiet()).collect();
        assert!(quiet.len() >= 10, "{} quiet moves", quiet.len());
        for k in quiet {
            let (before, after) = (a.game_at(k), a.game_at(k + 1));
            for s in 100..104 {
                let mut w = before.determinized(playout_seed(77, s));
                assert_eq!(HeuristicBot.choose(&w), moves[k]);
                w.apply(moves[k].clone()).unwrap();
                assert!(w.determinized(5) == after.determinized(5), "move {k} in deal {s}");
            }
        }
    }

    /// Estimates the chance on both sides of each of the `moves` quiet moves
    /// spread over the game, `playouts` each, from deals of their own; the
    /// moves whose two figures differ by more than the sum of their margins.
    fn quiet_disagreements(a: &mut Analyst, count: usize, playouts: usize) -> (usize, Vec<String>) {
        let n = a.steps().len();
        let exact_from = a.analysis().segments.last().filter(|s| s.exact).map_or(n + 1, |s| s.first);
        let quiet: Vec<usize> = (0..n).filter(|&k| a.steps()[k].quiet() && k + 1 < exact_from).collect();
        let picked: Vec<usize> = (0..count.min(quiet.len())).map(|i| quiet[i * quiet.len() / count]).collect();
        let chance = |g: &Game, seed: u64| {
            let mut f = Forecaster::new(g, Kind::Game { first: None }, seed);
            f.run(playouts);
            f.estimate().chance
        };
        let mut off = Vec::new();
        let mut z2 = 0.0;
        for &k in &picked {
            let (before, after) = (chance(&a.game_at(k), 21 + k as u64), chance(&a.game_at(k + 1), 9_000 + k as u64));
            let d = before.value - after.value;
            if d.abs() > before.half_width + after.half_width {
                off.push(format!("move {k}: {before} then {after}"));
            }
            z2 += (d / (before.half_width.hypot(after.half_width) / 1.96).max(1e-9)).powi(2);
        }
        eprintln!(
            "sum of squared z over {} quiet moves: {z2:.1} (about as many if the chances are equal)",
            picked.len()
        );
        (picked.len(), off)
    }

    /// The claim the pooling rests on, checked by playouts: across a quiet
    /// move, the chance estimated separately on both sides, from deals of
    /// their own, agrees within the two margins.
    #[test]
    fn a_quiet_move_keeps_the_chance() {
        let c = content();
        let moves = careful_moves(&c, SHORT, 10_000);
        let mut a = Analyst::with_config(&options(SHORT), &c, &moves, 1, small()).expect("builds");
        while a.steps().len() < moves.len() {
            a.work(Duration::from_secs(5));
        }
        let (checked, off) = quiet_disagreements(&mut a, 4, 200);
        assert!(checked == 4 && off.is_empty(), "{off:?}");
        // The analysis sees the loss coming.
        run_to_end(&mut a);
        let p = a.points();
        assert!(p[0].unwrap().value > 0.2 && p[moves.len()].unwrap().value == 0.0);
    }

    /// The same over a long game, 1,000 playouts a side at 24 quiet moves:
    /// `cargo test --release -p depths_sim --lib quiet_moves_over_a_long_game -- --ignored`.
    #[test]
    #[ignore = "a minute in a release build"]
    fn quiet_moves_over_a_long_game() {
        let c = content();
        let moves = careful_moves(&c, 84, 10_000);
        let mut a = Analyst::with_config(&options(84), &c, &moves, 1, AnalysisConfig::default()).expect("builds");
        while a.steps().len() < moves.len() {
            a.work(Duration::from_secs(5));
        }
        let (checked, off) = quiet_disagreements(&mut a, 24, 1_000);
        eprintln!("{checked} quiet moves checked, {} outside the margins: {off:?}", off.len());
        assert!(checked == 24 && off.len() <= 1, "{off:?}");
    }

    #[test]
    fn points_are_worked_coarse_to_fine() {
        let order = coarse_to_fine(200);
        assert_eq!(order[..5], [0, 200, 64, 128, 192]);
        assert_eq!(order[5..8], [32, 96, 160]);
        let mut all = order.clone();
        all.sort_unstable();
        assert_eq!(all, (0..=200).collect::<Vec<_>>());
        assert_eq!(coarse_to_fine(0), vec![0]);
        assert_eq!(coarse_to_fine(1), vec![0, 1]);
    }

    #[test]
    fn a_short_game_is_analysed_whole() {
        let c = content();
        let moves = careful_moves(&c, SHORT, 10_000);
        let mut a = Analyst::with_config(&options(SHORT), &c, &moves, 1, small()).expect("builds");
        run_to_end(&mut a);
        let s = a.stats();
        assert!(a.points().iter().all(Option::is_some));
        assert_eq!(a.progress().0, a.progress().1);
        assert_eq!(s.estimated + s.pooled_points + s.exact_points, moves.len() + 1);
        assert!(s.pooled_points > 0 && s.playouts <= s.estimated as u64 * 16);
        // Within a segment the points are one figure; quiet moves never change it.
        for (k, step) in a.steps().iter().enumerate() {
            if step.quiet() {
                assert_eq!(a.points()[k], a.points()[k + 1], "quiet move {k}");
            }
        }
        // A Combat with its Rounds, each right after the move that began it.
        assert!(!a.fights().is_empty());
        for f in a.fights().to_vec() {
            assert!(!f.name.is_empty());
            for &(step, chance) in &f.rounds {
                let mut g = a.game_at(step - 1);
                let events = g.apply(moves[step - 1].clone()).unwrap();
                assert!(events.iter().any(|e| matches!(e, Event::RoundStarted { .. })), "{step}");
                assert!(step >= f.start_step && (0.0..=1.0).contains(&chance.value));
            }
        }
        assert!(a.fights().iter().map(|f| f.rounds.len()).sum::<usize>() == s.rounds && s.rounds > 0);
        // Every turning point is a move that was not quiet, the biggest first.
        let turns = a.turning_points(3);
        for t in &turns {
            assert!(!a.steps()[t.step].quiet() && t.cause.is_some() && t.delta.abs() > t.noise);
        }
        assert!(turns.windows(2).all(|w| w[0].delta.abs() >= w[1].delta.abs()));
    }

    #[test]
    fn work_stops_within_its_budget() {
        let c = content();
        let moves = careful_moves(&c, 3, 60);
        let mut a = Analyst::with_config(&options(3), &c, &moves, 1, small()).expect("builds");
        let budget = Duration::from_millis(20);
        for _ in 0..5 {
            let started = Instant::now();
            assert!(!a.work(budget));
            // One playout of a whole game past the budget at the most (a debug build).
            assert!(started.elapsed() < budget + Duration::from_millis(400), "{:?}", started.elapsed());
        }
        assert!(a.progress().0 > 0);
        // A background task may own it.
        fn send<T: Send + 'static>(_: &T) {}
        send(&a);
    }

    /// Stopped, saved as JSON and resumed between chunks, an analysis finds
    /// exactly what one run straight through finds.
    #[test]
    fn a_saved_analysis_resumes_where_it_stopped() {
        let c = content();
        let moves = careful_moves(&c, SHORT, 10_000);
        let mut straight = Analyst::with_config(&options(SHORT), &c, &moves, 4, small()).expect("builds");
        run_to_end(&mut straight);
        let mut a = Analyst::with_config(&options(SHORT), &c, &moves, 4, small()).expect("builds");
        let mut chunks = 0;
        while !a.work(Duration::from_millis(5)) {
            let saved = serde_json::to_string(a.analysis()).unwrap();
            let back: Analysis = serde_json::from_str(&saved).unwrap();
            a = Analyst::resume(back, &options(SHORT), &c, &moves).expect("the same game");
            chunks += 1;
        }
        assert!(chunks > 3);
        // The same work (figures read back from JSON may differ in the last bit).
        let (x, y) = (a.analysis(), straight.analysis());
        assert_eq!((&x.steps, &x.order, &x.rounds, x.playouts), (&y.steps, &y.order, &y.rounds, y.playouts));
        let tallies = |a: &Analysis| a.segments.iter().map(|s| (s.first, s.last, s.tally)).collect::<Vec<_>>();
        assert_eq!(tallies(x), tallies(y));
        for (p, q) in x.points.iter().zip(&y.points) {
            let (p, q) = (p.expect("known"), q.expect("known"));
            assert!((p.value - q.value).abs() < 1e-12 && (p.half_width - q.half_width).abs() < 1e-12);
        }
        // Not another game's.
        let saved = a.analysis().clone();
        assert!(Analyst::resume(saved.clone(), &options(SHORT + 1), &c, &moves).is_err());
        assert!(Analyst::resume(saved.clone(), &options(SHORT), &c, &moves[..moves.len() - 1]).is_err());
        let mut other = moves.clone();
        other.swap(0, 1);
        let err = Analyst::resume(saved.clone(), &options(SHORT), &c, &other).err().expect("refused");
        assert!(err.contains("other moves"), "{err}");
        let newer = Analysis { format: FORMAT + 1, ..saved };
        let err = Analyst::resume(newer, &options(SHORT), &c, &moves).err().expect("refused");
        assert!(err.contains("format"), "{err}");
    }

    /// A kept analysis is a file from outside: one edited or damaged is
    /// refused with the reason, never worked on out of range or without end.
    #[test]
    fn a_damaged_analysis_is_refused_not_worked_on() {
        let c = content();
        let moves = careful_moves(&c, SHORT, 10_000);
        let mut a = Analyst::with_config(&options(SHORT), &c, &moves, 4, small()).expect("builds");
        while a.analysis().segments.is_empty() {
            a.work(Duration::from_millis(5));
        }
        let good = a.analysis().clone();
        assert!(Analyst::resume(good.clone(), &options(SHORT), &c, &moves).is_ok());
        let n = good.history_len;
        let damaged: Vec<(&str, Analysis)> = vec![
            ("order", Analysis { order: vec![good.segments.len()], next_target: 0, ..good.clone() }),
            ("segments", {
                let mut b = good.clone();
                b.segments[0].last = n + 5;
                b
            }),
            ("settings", Analysis { config: AnalysisConfig { half_width: -1.0, ..good.config }, ..good.clone() }),
            ("settings", Analysis { config: AnalysisConfig { cap: u64::MAX, ..good.config }, ..good.clone() }),
            ("Rounds", Analysis { next_round: good.rounds.len() + 1, ..good.clone() }),
            ("alternative", Analysis { alternatives: vec![(n, None)], ..good.clone() }),
            ("points", Analysis { points: vec![None; n], ..good.clone() }),
        ];
        for (what, bad) in damaged {
            let err = Analyst::resume(bad, &options(SHORT), &c, &moves).err().expect("refused");
            assert!(err.contains("damaged"), "{what}: {err}");
        }
    }

    #[test]
    fn turning_points_are_the_biggest_changes_above_the_noise() {
        let f = |value: f64, half_width: f64| Some(Figure { value, half_width });
        let points =
            [f(0.4, 0.05), f(0.4, 0.05), f(0.2, 0.05), None, f(0.9, 0.0), f(0.95, 0.05), f(0.5, 0.03), f(0.0, 0.0)];
        let t = turning_points(&points, 2);
        assert_eq!(t.len(), 2);
        assert_eq!((t[0].step, t[1].step), (6, 5));
        assert!((t[0].delta + 0.5).abs() < 1e-12 && (t[1].delta + 0.45).abs() < 1e-12);
        let all = turning_points(&points, 10);
        // 0.4 to 0.2 is a change; 0.9 to 0.95 is noise; none across the unknown point.
        assert_eq!(all.iter().map(|t| t.step).collect::<Vec<_>>(), [6, 5, 1]);
    }

    #[test]
    fn the_careful_move_first_is_the_plain_forecast() {
        let c = content();
        let moves = careful_moves(&c, 3, 5);
        let mut g = Game::new(options(3), c).unwrap();
        moves.iter().for_each(|m| drop(g.apply(m.clone()).unwrap()));
        let careful = HeuristicBot.choose(&g);
        let estimate = |kind: Kind| {
            let mut f = Forecaster::new(&g, kind, 8);
            f.run(12);
            f.estimate()
        };
        let plain = estimate(Kind::Game { first: None });
        assert_eq!(estimate(Kind::Game { first: Some(careful) }), plain);
        // A first move the rules refuse wins nothing.
        assert!(g.check(&Action::Descend).is_err_and(|e| !matches!(e, RuleError::GameOver)));
        assert_eq!(estimate(Kind::Game { first: Some(Action::Descend) }).chance.value, 0.0);
    }

    #[test]
    fn an_alternative_is_another_move_with_both_chances() {
        let c = content();
        // A game with one move that is neither the careful bot's nor the
        // planning bot's.
        // The planning bot's move where `played` was made, as the analysis
        // asks it: in Combat, for the Hero who moved.
        let plan = |g: &Game, played: &Action| {
            let mut bot = PlanBot::new(2, PlanConfig::default());
            match combat_hero(played) {
                Some(hero) if g.in_combat() => bot.choose_for(g, hero),
                _ => Some(bot.choose(g)),
            }
        };
        let mut g = Game::new(options(5), c.clone()).unwrap();
        let mut moves = Vec::new();
        let mut other_at = None;
        while moves.len() < 12 {
            let careful = HeuristicBot.choose(&g);
            let a = match g.legal_actions().into_iter().find(|a| *a != careful) {
                Some(other) if other_at.is_none() && moves.len() >= 3 && plan(&g, &other) != Some(other.clone()) => {
                    other_at = Some(moves.len());
                    other
                }
                _ => careful,
            };
            g.apply(a.clone()).unwrap();
            moves.push(a);
        }
        let step = other_at.expect("a choice came up");
        let mut a = Analyst::with_config(&options(5), &c, &moves, 2, small()).expect("builds");
        let alt = a.alternative(step).expect("the planning bot plays another move");
        assert_eq!(alt.played, moves[step]);
        assert_eq!(Some(alt.suggested.clone()), plan(&a.game_at(step), &moves[step]));
        assert_ne!(alt.suggested, alt.played);
        assert_eq!(alt.playouts, 32);
        for f in [alt.played_chance, alt.suggested_chance] {
            assert!((0.0..=1.0).contains(&f.value) && f.half_width > 0.0);
        }
        // Kept: asked again, the same answer without playouts.
        assert_eq!(a.alternative(step), Some(alt));
        assert_eq!(a.analysis().alternatives.len(), 1);
        // A forced move has no alternative.
        let forced = (0..moves.len()).find(|&k| a.game_at(k).legal_actions().len() == 1).expect("a forced move");
        assert_eq!(a.alternative(forced), None);
        assert_eq!(alternative(&options(5), &c, &moves, moves.len(), 2), None);
    }
}
