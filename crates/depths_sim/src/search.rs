//! The search bot: the careful bot ([`HeuristicBot`]) everywhere except in
//! Combat, where each decision with more than one legal action is searched by
//! determinized Monte Carlo.
//!
//! How a Combat decision is searched:
//! - Every legal action is a candidate (the careful bot's own choice first).
//! - Each candidate is tried in `playouts` worlds: a copy of the game with
//!   every order the players cannot know dealt afresh ([`Game::determinized`]),
//!   the candidate applied, then the careful bot playing on until the Combat is
//!   over (or the game is). The real hidden order is never looked at.
//! - Every candidate sees the same worlds (common random numbers: world `i` of
//!   a decision is dealt from the same seed for each candidate), so the
//!   difference between two candidates is not drowned by the luck of the deal.
//! - A world scores 0 if the game is lost by the end of the Combat, otherwise
//!   `1 + health_weight × (mean + lowest) / 2`, where `mean` is the Heroes'
//!   mean share of their maximum Health and `lowest` the lowest Hero's share:
//!   a fight survived first, Health kept second, the Hero closest to falling
//!   counting twice.
//! - The candidate with the best mean score is played; the careful bot's choice
//!   keeps the decision unless another candidate is strictly better.
//!
//! The cost of a searched decision is bounded: at most `candidates ×
//! playouts` playouts, each to the end of one Combat (a few dozen actions).
//! Outside Combat, and wherever only one action is legal, the bot answers at
//! once as the careful bot does.
//!
//! Deterministic: the worlds of the `n`-th searched decision are dealt from
//! [`playout_seed`]`(playout_seed(seed, n), i)`, so a game replays from its seed.

use std::time::{Duration, Instant};

use depths_rules::{Action, Game, Phase};

use crate::bot::{Bot, HeuristicBot};
use crate::playout::playout_seed;
use crate::search_stats::SearchStats;

/// Actions a playout may take before it is cut short (a Combat takes far fewer).
const PLAYOUT_LIMIT: usize = 3_000;

/// How the search bot searches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Playouts (determinized worlds) per candidate action.
    pub playouts: u32,
    /// How much the Health kept counts against winning the fight (see the module
    /// documentation); 0 counts only whether the fight was survived.
    pub health_weight: f64,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig { playouts: 16, health_weight: 0.5 }
    }
}

/// The careful bot with a determinized Monte Carlo search of Combat decisions.
pub struct SearchBot {
    pub config: SearchConfig,
    seed: u64,
    stats: SearchStats,
}

impl SearchBot {
    /// A search bot whose worlds are dealt from `seed` (give the game's seed).
    pub fn new(seed: u64, config: SearchConfig) -> SearchBot {
        SearchBot { config, seed, stats: SearchStats::default() }
    }

    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// The mean score of each candidate over the same `playouts` worlds, dealt
    /// from `seed`.
    pub fn scores(&self, g: &Game, candidates: &[Action], seed: u64) -> Vec<f64> {
        let n = self.config.playouts.max(1);
        let mut sums = vec![0.0; candidates.len()];
        for i in 0..n {
            let world = g.determinized(playout_seed(seed, u64::from(i)));
            for (c, a) in candidates.iter().enumerate() {
                sums[c] += self.playout(&world, a);
            }
        }
        sums.into_iter().map(|s| s / f64::from(n)).collect()
    }

    /// Plays `first` in `world`, then the careful bot to the end of the
    /// Combat; the score of where that leaves the Heroes.
    pub fn playout(&self, world: &Game, first: &Action) -> f64 {
        let mut g = world.clone();
        if g.apply(first.clone()).is_err() {
            return f64::NEG_INFINITY;
        }
        let mut bot = HeuristicBot;
        let mut actions = 0;
        while g.in_combat() && actions < PLAYOUT_LIMIT {
            let a = bot.choose(&g);
            if g.apply(a).is_err() {
                break;
            }
            actions += 1;
        }
        self.score(&g)
    }

    /// 0 for a lost game; otherwise 1 plus the weighted Health kept.
    pub fn score(&self, g: &Game) -> f64 {
        if matches!(g.phase(), Phase::Lost(_)) {
            return 0.0;
        }
        let shares: Vec<f64> =
            g.heroes.iter().map(|h| f64::from(h.health) / f64::from(h.max_health().max(1))).collect();
        let mean = shares.iter().sum::<f64>() / shares.len().max(1) as f64;
        let low = shares.iter().copied().fold(1.0, f64::min);
        1.0 + self.config.health_weight * (mean + low) / 2.0
    }
}

impl Bot for SearchBot {
    fn choose(&mut self, g: &Game) -> Action {
        let careful = HeuristicBot.choose(g);
        if !g.in_combat() {
            return careful;
        }
        let legal = g.legal_actions();
        if legal.len() < 2 {
            return careful;
        }
        let started = Instant::now();
        let mut candidates = vec![careful.clone()];
        candidates.extend(legal.into_iter().filter(|a| *a != careful));
        let seed = playout_seed(self.seed, self.stats.searched);
        let scores = self.scores(g, &candidates, seed);
        let mut best = 0;
        for (c, s) in scores.iter().enumerate() {
            if *s > scores[best] {
                best = c;
            }
        }
        let playouts = candidates.len() as u64 * u64::from(self.config.playouts.max(1));
        self.stats.count(best != 0, playouts, started.elapsed().as_secs_f64());
        candidates.swap_remove(best)
    }

    fn search_stats(&self) -> Option<SearchStats> {
        Some(self.stats)
    }
}

/// Time per searched decision, for a summary: (mean, max).
pub fn per_decision(s: &SearchStats) -> (Duration, Duration) {
    let mean = if s.searched == 0 { 0.0 } else { s.seconds / s.searched as f64 };
    (Duration::from_secs_f64(mean), Duration::from_secs_f64(s.max_seconds))
}
