//! The random bot: a baseline for the simulator and the fuzzing of the rules.

use depths_rules::{Action, Game, GameRng};

use super::choosing::Bot;

/// Uniform over the legal actions, except that Equip/Unequip and purchases
/// are rare (otherwise random play could toggle an Item forever).
pub struct RandomBot {
    pub rng: GameRng,
}

impl Bot for RandomBot {
    fn choose(&mut self, g: &Game) -> Action {
        let legal = g.legal_actions();
        let is_busy = |a: &&Action| {
            !matches!(
                a,
                Action::Equip { .. } | Action::Unequip { .. } | Action::StartPurchase { .. } | Action::CancelPurchase
            )
        };
        // Counted, not listed: the n-th busy action is found again below.
        let busy = legal.iter().filter(is_busy).count();
        if busy == 0 || self.rng.below(20) == 0 {
            legal[self.rng.below(legal.len() as u32) as usize].clone()
        } else {
            let pick = self.rng.below(busy as u32) as usize;
            legal.iter().filter(is_busy).nth(pick).expect("fewer than busy").clone()
        }
    }
}
