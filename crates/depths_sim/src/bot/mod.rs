//! Players made of code: a random bot and a careful heuristic bot. Both only
//! see the [`Game`](depths_rules::Game) and answer with one legal
//! [`Action`](depths_rules::Action).

mod careful;
mod choosing;
mod combat;
mod decisions;
mod explore;
mod random;

pub use careful::HeuristicBot;
pub use choosing::{Bot, combat_hero};
pub use combat::{aimed_target, foe_after_placed, pick_for_packet, pick_individual};
pub use explore::placement_scores;
pub use random::RandomBot;
