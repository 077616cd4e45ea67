//! The careful bot ([`HeuristicBot`]): which of its parts answers a decision.

use depths_rules::{Action, Game, Phase};

use super::choosing::{Bot, acting_for};
use super::combat::combat_choice;
use super::decisions::pending_choice;
use super::explore::explore_choice;

/// Plays like a careful player:
/// - Combat: plays the cards with the best expected result against what is
///   left in the Monster deck, resolves the pair that trades least health per
///   damage dealt (a killing blow avoids Return Damage), spends Power on
///   Abilities that turn a Monster Hit into something better.
/// - Exploring: keeps placement options open (a dead-end gauge over the
///   remaining tiles), encounters the blocker that frees most tiles before it
///   dead-ends, buys Keys for Doors that block progress, heals with XP (pool
///   cards, smallest first) below ~60% before fighting, rests at the Campfire
///   when it is worth most, takes Legendary Locations and Chests, equips Items.
/// - Level Up: buys an Ability for each Hero the pool can pay for.
#[derive(Default)]
pub struct HeuristicBot;

impl Bot for HeuristicBot {
    fn choose(&mut self, g: &Game) -> Action {
        let legal = g.legal_actions();
        if matches!(g.phase(), Phase::Combat { .. }) {
            return combat_choice(g, &legal, None);
        }
        if let Some(p) = g.pending() {
            return pending_choice(g, p, &legal);
        }
        explore_choice(g, &legal)
    }
}

impl HeuristicBot {
    /// The careful choice for Hero `hero` alone, when several Heroes may act
    /// in a Combat step and only this one is to be played (a Companion seat
    /// at the client's table): `None` when `hero` has nothing to do now.
    /// Outside Combat, the usual choice if it is for no other Hero.
    pub fn choose_for(&mut self, g: &Game, hero: u8) -> Option<Action> {
        let legal = g.legal_actions();
        if let Some(c) = g.combat().filter(|_| matches!(g.phase(), Phase::Combat { .. })) {
            if !c.may_act(hero) {
                return None;
            }
            let own: Vec<Action> = legal.iter().filter(|a| acting_for(a) == Some(hero)).cloned().collect();
            if own.is_empty() {
                return None;
            }
            return Some(combat_choice(g, &own, Some(hero)));
        }
        let a = self.choose(g);
        (acting_for(&a).is_none_or(|h| h == hero)).then_some(a)
    }
}
