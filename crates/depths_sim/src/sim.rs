//! Plays many seeded games with a bot and sums up what happened.

use std::collections::BTreeMap;
use std::sync::Arc;

use depths_rules::{Action, Content, Ecology, Foe, Game, GameOptions, GameRng, LossReason, Phase};

use crate::bot::{Bot, HeuristicBot, RandomBot};
use crate::forecast::wilson;
use crate::plan::{PlanBot, PlanConfig};
use crate::playout::ACTION_LIMIT;
use crate::search::{SearchBot, SearchConfig};
use crate::search_stats::SearchStats;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BotKind {
    Random,
    Heuristic,
    /// The careful bot with Combat decisions searched ([`SearchBot`]).
    Search(SearchConfig),
    /// The search bot with Exploring decisions searched too ([`PlanBot`]).
    Plan(PlanConfig),
}

impl BotKind {
    /// The bot for the game of `seed` (a bot's own randomness comes from it).
    pub fn make(self, seed: u64) -> Box<dyn Bot> {
        match self {
            BotKind::Random => Box::new(RandomBot { rng: GameRng::from_seed(seed ^ 0x5eed) }),
            BotKind::Heuristic => Box::new(HeuristicBot),
            BotKind::Search(config) => Box::new(SearchBot::new(seed, config)),
            BotKind::Plan(config) => Box::new(PlanBot::new(seed, config)),
        }
    }
}

/// How one game went.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    pub seed: u64,
    pub won: bool,
    /// e.g. "dead end in Ruins", "hero defeated in Caverns by Stalactite Titan".
    pub loss: Option<String>,
    pub ecology: Ecology,
    pub actions: usize,
    pub xp_earned: u32,
    pub xp_spent: u32,
    pub tiles_placed: u32,
    pub legendary_found: usize,
    /// What searching cost in this game (a searching bot only).
    pub search: Option<SearchStats>,
}

/// Plays one game; returns the result and, if asked, the action log.
pub fn play_one(
    content: &Arc<Content>,
    mut options: GameOptions,
    seed: u64,
    bot: BotKind,
    log: bool,
) -> (GameResult, Vec<Action>) {
    options.seed = seed;
    let mut g = Game::new_shared(options, Arc::clone(content)).expect("content is valid");
    let mut b = bot.make(seed);
    let mut actions = Vec::new();
    let mut count = 0;
    let mut last_foe = String::new();
    while !g.is_over() && count < ACTION_LIMIT {
        // Named again only when the foes' names change: a Combat asks for a
        // move many times over, and only a lost game reads the names.
        if let Some(c) = g.combat()
            && !joins(&last_foe, c.foes.iter().map(Foe::name))
        {
            last_foe = c.foes.iter().map(|f| f.name().to_string()).collect::<Vec<_>>().join(" + ");
        }
        let a = b.choose(&g);
        if log {
            actions.push(a.clone());
        }
        g.apply(a).expect("bots choose legal actions");
        count += 1;
    }
    let adv = g.adventure().expect("full game");
    let ecology = adv.ecology.ecology;
    let loss = match &g.phase() {
        Phase::Won => None,
        Phase::Lost(LossReason::DeadEnd) => Some(format!("dead end in {}", ecology.name())),
        Phase::Lost(LossReason::Stranded) => Some(format!("stranded in {}", ecology.name())),
        Phase::Lost(LossReason::HeroDefeated { .. }) => Some(format!(
            "hero defeated in {} by {}",
            ecology.name(),
            if last_foe.is_empty() { "a card" } else { &last_foe }
        )),
        _ => Some("did not finish".to_string()),
    };
    let r = &adv.record;
    (
        GameResult {
            seed,
            won: g.phase() == Phase::Won,
            loss,
            ecology,
            actions: count,
            xp_earned: r.xp_earned,
            xp_spent: r.xp_spent,
            tiles_placed: r.tiles_placed,
            legendary_found: r.legendary_locations_found.len(),
            search: b.search_stats(),
        },
        actions,
    )
}

/// Whether `joined` is `names` joined with " + ".
fn joins<'a>(joined: &str, names: impl Iterator<Item = &'a str>) -> bool {
    let mut rest = joined;
    for (i, name) in names.enumerate() {
        let Some(after) =
            (if i == 0 { Some(rest) } else { rest.strip_prefix(" + ") }).and_then(|r| r.strip_prefix(name))
        else {
            return false;
        };
        rest = after;
    }
    rest.is_empty()
}

/// Plays `games` seeds from `seed` on `threads` threads.
pub fn play_many(
    content: &Arc<Content>,
    options: &GameOptions,
    seed: u64,
    games: u64,
    bot: BotKind,
    threads: usize,
) -> Vec<GameResult> {
    let threads = threads.max(1) as u64;
    let mut results: Vec<GameResult> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let options = options.clone();
                s.spawn(move || {
                    (0..games)
                        .filter(|i| i % threads == t)
                        .map(|i| play_one(content, options.clone(), seed + i, bot, false).0)
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("worker")).collect()
    });
    results.sort_by_key(|r| r.seed);
    results
}

/// The summary printed by `depths-sim play`.
pub fn summary(results: &[GameResult], seconds: f64) -> serde_json::Value {
    let n = results.len() as u64;
    let wins = results.iter().filter(|r| r.won).count() as u64;
    let mut causes: BTreeMap<String, u64> = BTreeMap::new();
    let mut by_ecology: BTreeMap<String, u64> = BTreeMap::new();
    for r in results.iter().filter(|r| !r.won) {
        *causes.entry(r.loss.clone().unwrap_or_default()).or_default() += 1;
        *by_ecology.entry(r.ecology.name().to_string()).or_default() += 1;
    }
    let avg = |f: &dyn Fn(&GameResult) -> f64| if n == 0 { 0.0 } else { results.iter().map(f).sum::<f64>() / n as f64 };
    let (lo, hi) = wilson(wins, n);
    let mut search: Option<SearchStats> = None;
    for r in results {
        if let Some(s) = &r.search {
            search.get_or_insert_with(SearchStats::default).add(s);
        }
    }
    let mut v = serde_json::json!({
        "games": n,
        "wins": wins,
        "win_rate": if n == 0 { 0.0 } else { wins as f64 / n as f64 },
        "win_rate_ci95": [lo, hi],
        "losses_by_cause": causes,
        "losses_by_ecology": by_ecology,
        "avg_actions": avg(&|r| r.actions as f64),
        "avg_xp_earned": avg(&|r| f64::from(r.xp_earned)),
        "avg_xp_spent": avg(&|r| f64::from(r.xp_spent)),
        "avg_tiles_placed": avg(&|r| f64::from(r.tiles_placed)),
        "avg_legendary_locations": avg(&|r| r.legendary_found as f64),
        "games_per_second": if seconds > 0.0 { n as f64 / seconds } else { 0.0 },
    });
    if let Some(s) = search {
        v["search"] = decisions_json(n, s.searched, s.changed, s.playouts, s.seconds, s.max_seconds);
        if s.explored > 0 {
            v["search"]["explore"] = decisions_json(
                n,
                s.explored,
                s.explore_changed,
                s.explore_playouts,
                s.explore_seconds,
                s.explore_max_seconds,
            );
        }
    }
    v
}

/// One game's result as one line of JSON (for `depths-sim play --per-game`).
pub fn result_line(r: &GameResult) -> serde_json::Value {
    let mut v = serde_json::json!({
        "seed": r.seed,
        "won": r.won,
        "loss": r.loss,
        "actions": r.actions,
    });
    if let Some(s) = &r.search {
        v["searched"] = s.searched.into();
        v["changed"] = s.changed.into();
        v["search_seconds"] = s.seconds.into();
        v["max_ms"] = (s.max_seconds * 1000.0).into();
        if s.explored > 0 {
            v["explored"] = s.explored.into();
            v["explore_changed"] = s.explore_changed.into();
            v["explore_seconds"] = s.explore_seconds.into();
            v["explore_max_ms"] = (s.explore_max_seconds * 1000.0).into();
        }
    }
    v
}

/// What searching `decisions` decisions over `n` games cost (one kind of decision).
fn decisions_json(
    n: u64,
    decisions: u64,
    changed: u64,
    playouts: u64,
    seconds: f64,
    max_seconds: f64,
) -> serde_json::Value {
    let per = |x: f64| if decisions == 0 { 0.0 } else { x / decisions as f64 };
    serde_json::json!({
        "searched_decisions": decisions,
        "changed_decisions": changed,
        "searched_per_game": if n == 0 { 0.0 } else { decisions as f64 / n as f64 },
        "playouts_per_decision": per(playouts as f64),
        "ms_per_decision_mean": per(seconds) * 1000.0,
        "ms_per_decision_max": max_seconds * 1000.0,
    })
}
