//! Forecasts that do not cheat: estimates made by playing the situation
//! forward many times with the careful bot ([`HeuristicBot`]), each playout
//! from a fresh deal of everything the players cannot see
//! ([`Game::determinized`]). The real hidden order is never looked at, so a
//! forecast is the same whatever it is.
//!
//! A [`Forecaster`] is incremental and cheap to stop: [`Forecaster::run`] adds
//! a batch of playouts, [`Forecaster::estimate`] reads the figures so far with
//! their 95% ± half-widths. A client runs small batches in a background task
//! and drops the forecaster when the situation changes
//! ([`Forecaster::is_for`]).
//!
//! The three kinds ([`Kind`]):
//! - [`Kind::Fight`]: before an Encounter (give the Encounter as the first
//!   action) or during a Combat — the chance to win the fight and the expected
//!   damage each Hero takes in it. A playout applies the first action, then the
//!   careful bot plays until a Combat has begun and ended. The fight is won if
//!   the game is not lost when the Combat ends. Damage is every `HeroDamaged`
//!   during the Combat, healing not subtracted. A playout in which no Combat
//!   begins (an empty Monster deck, a Feature that fights nothing) before the
//!   Heroes are back to choosing freely while Exploring counts as won without
//!   damage, and is counted in [`Estimate::no_fight`].
//! - [`Kind::DeadEnd`]: with a tile in hand — the chance that a later tile of
//!   this Ecology finds no place. A playout applies the first action (say,
//!   one placement of the tile in hand; none lets the careful bot place it),
//!   then the careful bot plays on until this Ecology is over: the Stair
//!   Guardian is defeated, or the game ends. The figure is the share of
//!   playouts in which a tile drawn in that time had no legal place on the map
//!   (the game lost to a Dead End, or the tile set aside under One Dead-End Per
//!   Ecology). A game lost another way before that counts as no Dead End.
//! - [`Kind::Game`]: the chance to win the whole game from here: a playout
//!   applies the first action (none: the careful bot's), then the careful bot
//!   plays to the end.

use std::time::{Duration, Instant};

use depths_rules::{Action, Event, Game, LossReason, Phase};
use serde::{Deserialize, Serialize};

use crate::bot::{Bot, HeuristicBot};
use crate::playout::{ACTION_LIMIT, playout_seed};

/// What a forecast estimates; see the module documentation for the exact rules.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// The chance to win the fight and the damage to each Hero; `first` is the
    /// Encounter to make (none when the game is already in Combat).
    Fight { first: Option<Action> },
    /// The chance that a later tile of this Ecology finds no place; `first` is
    /// the placement of the tile in hand (none: the careful bot's).
    DeadEnd { first: Option<Action> },
    /// The chance to win the whole game if `first` is played now, then the
    /// careful bot (none: the careful bot from now on).
    Game { first: Option<Action> },
}

impl Kind {
    /// What the chance is of, after "chance": "to win this fight".
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Fight { .. } => "to win this fight",
            Kind::DeadEnd { .. } => "that a later tile of this Ecology finds no place",
            Kind::Game { .. } => "to win the game",
        }
    }
}

/// One figure and its 95% half-width (the figure is `value ± half_width`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    pub value: f64,
    pub half_width: f64,
}

impl Figure {
    /// A share of `n` playouts: the observed rate, ± half the Wilson interval's width.
    pub fn share(hits: u64, n: u64) -> Figure {
        if n == 0 {
            return Figure { value: 0.0, half_width: 1.0 };
        }
        let (lo, hi) = wilson(hits, n);
        Figure { value: hits as f64 / n as f64, half_width: (hi - lo) / 2.0 }
    }

    /// A mean from a sum and a sum of squares: ± 1.96 standard errors.
    pub fn mean(sum: f64, sum_sq: f64, n: u64) -> Figure {
        if n == 0 {
            return Figure { value: 0.0, half_width: f64::INFINITY };
        }
        let nf = n as f64;
        let mean = sum / nf;
        let var = if n > 1 { ((sum_sq - nf * mean * mean) / (nf - 1.0)).max(0.0) } else { f64::INFINITY };
        Figure { value: mean, half_width: 1.96 * (var / nf).sqrt() }
    }
}

impl std::fmt::Display for Figure {
    /// A share as "47.3% ± 2.0".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.1}% ± {:.1}", self.value * 100.0, self.half_width * 100.0)
    }
}

/// Wilson score interval for a win rate, 95%.
pub fn wilson(wins: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let (p, n, z) = (wins as f64 / n as f64, n as f64, 1.96f64);
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * ((p * (1.0 - p) + z * z / (4.0 * n)) / n).sqrt() / (1.0 + z * z / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The figures so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    pub playouts: u64,
    /// Win the fight, a later tile finds no place, or win the game (by [`Kind`]).
    pub chance: Figure,
    /// [`Kind::Fight`]: expected damage to each Hero in the fight, in Health
    /// Points (empty for the other kinds).
    pub damage: Vec<Figure>,
    /// [`Kind::Fight`]: playouts in which no Combat began.
    pub no_fight: u64,
    /// Mean actions per playout.
    pub actions_per_playout: f64,
}

/// An incremental, seeded Monte Carlo estimator over one situation.
pub struct Forecaster {
    start: Game,
    kind: Kind,
    seed: u64,
    playouts: u64,
    hits: u64,
    no_fight: u64,
    damage_sum: Vec<f64>,
    damage_sq: Vec<f64>,
    actions: u64,
    busy: Duration,
}

/// What one playout found.
struct Playout {
    hit: bool,
    fought: bool,
    damage: Vec<u32>,
    actions: u64,
}

impl Forecaster {
    /// A forecast of `kind` from `game`; playout `i` is dealt from
    /// [`playout_seed`]`(seed, i)`, so the same seed gives the same figures.
    pub fn new(game: &Game, kind: Kind, seed: u64) -> Forecaster {
        let n = game.heroes.len();
        Forecaster {
            start: game.clone(),
            kind,
            seed,
            playouts: 0,
            hits: 0,
            no_fight: 0,
            damage_sum: vec![0.0; n],
            damage_sq: vec![0.0; n],
            actions: 0,
            busy: Duration::ZERO,
        }
    }

    pub fn kind(&self) -> &Kind {
        &self.kind
    }

    /// Whether this forecast is about `game` as it stands (if not, drop it).
    pub fn is_for(&self, game: &Game) -> bool {
        &self.start == game
    }

    /// Adds `batch` playouts.
    pub fn run(&mut self, batch: usize) {
        let started = Instant::now();
        for _ in 0..batch {
            let p = self.playout(playout_seed(self.seed, self.playouts));
            self.playouts += 1;
            self.hits += u64::from(p.hit);
            self.no_fight += u64::from(matches!(self.kind, Kind::Fight { .. }) && !p.fought);
            for (h, d) in p.damage.iter().enumerate() {
                let d = f64::from(*d);
                self.damage_sum[h] += d;
                self.damage_sq[h] += d * d;
            }
            self.actions += p.actions;
        }
        self.busy += started.elapsed();
    }

    /// Runs playouts until `budget` has passed or `enough` says the figures
    /// so far will do (at least one): a client shows a steady figure at once,
    /// and stops work for a situation that has passed.
    pub fn run_until(&mut self, budget: Duration, enough: impl Fn(&Estimate) -> bool) {
        let started = Instant::now();
        loop {
            self.run(1);
            if started.elapsed() >= budget || enough(&self.estimate()) {
                break;
            }
        }
    }

    /// Time spent in playouts so far.
    pub fn busy(&self) -> Duration {
        self.busy
    }

    pub fn playouts_per_second(&self) -> f64 {
        let s = self.busy.as_secs_f64();
        if s > 0.0 { self.playouts as f64 / s } else { 0.0 }
    }

    pub fn estimate(&self) -> Estimate {
        let n = self.playouts;
        let damage = match self.kind {
            Kind::Fight { .. } => {
                (0..self.damage_sum.len()).map(|h| Figure::mean(self.damage_sum[h], self.damage_sq[h], n)).collect()
            }
            _ => Vec::new(),
        };
        Estimate {
            playouts: n,
            chance: Figure::share(self.hits, n),
            damage,
            no_fight: self.no_fight,
            actions_per_playout: if n == 0 { 0.0 } else { self.actions as f64 / n as f64 },
        }
    }

    fn playout(&self, seed: u64) -> Playout {
        playout(&self.start, &self.kind, seed)
    }
}

/// Whether one playout of `kind` from `start`, dealt from `seed` (a
/// [`playout_seed`]), hit: won the fight, found a Dead End, or won the game.
/// What [`Forecaster::run`] counts, for a caller that keeps its own tallies
/// (the analysis board's points share their playouts' seeds).
pub fn playout_hit(start: &Game, kind: &Kind, seed: u64) -> bool {
    playout(start, kind, seed).hit
}

fn playout(start: &Game, kind: &Kind, seed: u64) -> Playout {
    let mut g = start.determinized(seed);
    let mut bot = HeuristicBot;
    let n = g.heroes.len();
    let mut p = Playout { hit: false, fought: false, damage: vec![0; n], actions: 0 };
    let first = match kind {
        Kind::Fight { first } | Kind::DeadEnd { first } | Kind::Game { first } => first.clone(),
    };
    let ecology = g.adventure().map(|a| a.ecology.ecology);
    let mut next = first;
    while !g.is_over() && p.actions < ACTION_LIMIT as u64 {
        let in_combat = g.in_combat();
        let action = next.take().unwrap_or_else(|| bot.choose(&g));
        let Ok(events) = g.apply(action) else {
            // A first action that is not legal here: nothing to forecast.
            break;
        };
        p.actions += 1;
        match kind {
            Kind::Fight { .. } => {
                if in_combat || g.in_combat() {
                    p.fought = true;
                    for e in &events {
                        if let Event::HeroDamaged { hero, amount } = e {
                            p.damage[usize::from(*hero)] += u32::from(*amount);
                        }
                    }
                }
                if p.fought && !g.in_combat() {
                    break;
                }
                if !p.fought && free_to_explore(&g) {
                    break;
                }
            }
            Kind::DeadEnd { .. } => {
                if events
                    .iter()
                    .any(|e| matches!(e, Event::TileSetAside { .. } | Event::GameLost { reason: LossReason::DeadEnd }))
                {
                    p.hit = true;
                    break;
                }
                let here = g.adventure().map(|a| a.ecology.ecology);
                if here != ecology || matches!(g.phase(), Phase::LevelUp { .. } | Phase::Passage { .. }) {
                    break;
                }
            }
            Kind::Game { .. } => {}
        }
    }
    match kind {
        Kind::Fight { .. } => p.hit = !matches!(g.phase(), Phase::Lost(_)),
        Kind::Game { .. } => p.hit = g.phase() == Phase::Won,
        Kind::DeadEnd { .. } => {}
    }
    p
}

/// Exploring with no decision, no tile in hand and nothing being Encountered.
fn free_to_explore(g: &Game) -> bool {
    matches!(g.phase(), Phase::Exploring { tile_in_hand: false, decision: None })
}
