//! Headless play for Forgotten Depths: bots that choose legal actions, a
//! simulator that plays many seeded games, and the benchmarks.

pub mod analysis;
pub mod bench;
pub mod bot;
pub mod forecast;
pub mod plan;
pub mod playout;
pub mod save_play;
pub mod search;
pub mod search_stats;
pub mod sim;

pub use analysis::{
    Alternative, Analysis, AnalysisConfig, Analyst, Cause, FightCurve, Step, TurningPoint, alternative, turning_points,
};
pub use bot::{Bot, HeuristicBot, RandomBot, combat_hero};
pub use forecast::{Estimate, Figure, Forecaster, Kind};
pub use plan::{PlanBot, PlanConfig, thread_cpu_ns};
pub use search::{SearchBot, SearchConfig};
pub use search_stats::SearchStats;
pub use sim::{BotKind, GameResult, play_many, play_one, summary};
