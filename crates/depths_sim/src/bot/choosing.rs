//! What every bot is ([`Bot`]) and the small tools the careful bot's
//! choices share: picking among the legal actions, whose action it is, how
//! hurt the party is.

use depths_rules::{Action, Game};

use crate::search_stats::SearchStats;

/// Chooses one legal action for the current decision.
pub trait Bot {
    fn choose(&mut self, game: &Game) -> Action;

    /// What searching cost so far, for a bot that searches.
    fn search_stats(&self) -> Option<SearchStats> {
        None
    }
}

/// The Hero a Combat action is taken for (the players' joint choices, such
/// as assigning Monsters or who avoids Return Damage, name none).
pub fn combat_hero(a: &Action) -> Option<u8> {
    match a {
        Action::PlayCard { hero, .. }
        | Action::PlaceMonsterCard { hero, .. }
        | Action::ActivateAbility { hero, .. }
        | Action::ChoosePair { hero, .. }
        | Action::EndTurn { hero }
        | Action::AssignDamage { hero, .. } => Some(*hero),
        _ => None,
    }
}

/// The Hero a Combat action (or an Item's equip) is taken for.
pub(super) fn acting_for(a: &Action) -> Option<u8> {
    match a {
        Action::Equip { hero, .. } | Action::Unequip { hero, .. } => Some(*hero),
        _ => combat_hero(a),
    }
}

/// Heal with XP when a Hero falls below this share of their maximum.
pub(super) fn heal_below() -> f64 {
    knob(0, 0.7)
}

/// Experiment knobs (DEPTHS_KNOBS="a,b,c"), read once.
pub(super) fn knob(i: usize, default: f64) -> f64 {
    static K: std::sync::OnceLock<Vec<Option<f64>>> = std::sync::OnceLock::new();
    K.get_or_init(|| std::env::var("DEPTHS_KNOBS").unwrap_or_default().split(',').map(|x| x.parse().ok()).collect())
        .get(i)
        .copied()
        .flatten()
        .unwrap_or(default)
}

pub(super) fn first(legal: &[Action], f: impl Fn(&Action) -> bool) -> Option<Action> {
    legal.iter().find(|a| f(a)).cloned()
}

pub(super) fn best_by(legal: &[Action], score: impl Fn(&Action) -> Option<i32>) -> Option<Action> {
    legal.iter().filter_map(|a| score(a).map(|s| (s, a))).max_by_key(|(s, _)| *s).map(|(_, a)| a.clone())
}

pub(super) fn frac(g: &Game, h: usize) -> f64 {
    let hero = &g.heroes[h];
    f64::from(hero.health) / f64::from(hero.max_health().max(1))
}

pub(super) fn min_frac(g: &Game) -> f64 {
    (0..g.heroes.len()).map(|h| frac(g, h)).fold(1.0, f64::min)
}
