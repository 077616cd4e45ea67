//! "2. Features": draw the next Feature Card and follow it; tests drawn from
//! the Heroes' Draw Piles; the Brass Scrying Bowl's revealed order.

use crate::action::Action;
use crate::adventure::{Pending, Resolving};
use crate::effect::Effect;
use crate::error::RuleError;
use crate::event::Event;
use crate::event::note;
use crate::feature::FeatureCard;
use crate::game::Game;
use crate::shared::Shared;

impl Game {
    pub(crate) fn draw_feature(&mut self, events: &mut Vec<Event>) {
        let adv = self.adv_mut();
        let eco = &mut adv.ecology;
        let Some(card) = eco.revealed_features.pop().or_else(|| eco.features.pop().map(Shared::into_inner)) else {
            note(events, "The Feature deck is empty: nothing happens.");
            return;
        };
        events.push(Event::CardDrawn { name: card.name.clone() });
        adv.queue.extend(card.effects.iter().cloned());
        adv.resolving.push(Resolving::Feature(card));
    }

    /// A Feature test: "each Hero draws and plays" the stated number of Action
    /// Cards from their Draw Pile; the total against the target for the number
    /// of Heroes; then the Success or Failure effects. "Once a Feature has been
    /// Resolved, any Action Cards that were drawn or played for it are
    /// Discarded": until then they lie apart (see [`Game::discard_test_cards`]).
    pub(crate) fn feature_test(
        &mut self,
        target: [u8; 3],
        cards: u8,
        success: &[Effect],
        failure: &[Effect],
        events: &mut Vec<Event>,
    ) {
        let n = self.heroes.len();
        let mut total: u16 = 0;
        let mut values = Vec::with_capacity(n);
        for h in 0..n as u8 {
            let mut drawn = Vec::new();
            for _ in 0..cards {
                drawn.extend(self.draw_action_card(h, true, events));
            }
            total += drawn.iter().map(|c| u16::from(c.value)).sum::<u16>();
            values.push(drawn.iter().map(|c| c.value).collect());
            self.heroes[h as usize].test_cards.extend(drawn);
        }
        let goal = target[n.clamp(1, 3) - 1];
        let passed = total >= u16::from(goal);
        events.push(Event::TestResolved { total, target: goal, passed, drawn: values });
        let next = if passed { success } else { failure };
        let adv = self.adv_mut();
        for (i, e) in next.iter().enumerate() {
            adv.queue.insert(i, e.clone());
        }
    }

    /// The card being Resolved is done: the cards drawn for its tests are Discarded.
    pub(crate) fn discard_test_cards(&mut self) {
        for hero in &mut self.heroes {
            let cards = std::mem::take(&mut hero.test_cards);
            hero.discard.extend(cards);
        }
    }

    /// "Reveal the next (n) Features. Assign them in any order to the next (n)
    /// Features Encountered."
    pub(crate) fn reveal_features(&mut self, count: u8) {
        let eco = &mut self.adv_mut().ecology;
        let mut cards = Vec::new();
        for _ in 0..count {
            if let Some(c) = eco.revealed_features.pop().or_else(|| eco.features.pop().map(Shared::into_inner)) {
                cards.push(c);
            }
        }
        if !cards.is_empty() {
            self.adv_mut().pending.push(Pending::OrderFeatures { cards });
        }
    }

    pub(crate) fn check_order_features(&self, cards: &[FeatureCard], index: usize) -> Result<(), RuleError> {
        if index < factorial(cards.len()) {
            Ok(())
        } else {
            Err(RuleError::WrongStep { expected: "an option to be chosen" })
        }
    }

    /// Permutation number `index` of the revealed cards; the first is met first.
    pub(crate) fn order_features(&mut self, cards: Vec<FeatureCard>, index: usize) {
        let mut order: Vec<_> = feature_order(cards.len(), index).into_iter().map(|k| cards[k].clone()).collect();
        order.reverse();
        self.adv_mut().ecology.revealed_features.extend(order);
    }

    pub(crate) fn order_candidates(&self, cards: &[FeatureCard], out: &mut Vec<Action>) {
        out.extend((0..factorial(cards.len()) as u8).map(|index| Action::ChooseOption { index }));
    }
}

pub(crate) fn factorial(n: usize) -> usize {
    // Saturating: a card may reveal more Features than orders can be counted.
    (1..=n).fold(1, usize::saturating_mul)
}

/// The order `ChooseOption { index }` gives `n` revealed Features: the
/// positions, in the order they will be met.
pub fn feature_order(n: usize, index: usize) -> Vec<usize> {
    let mut left: Vec<usize> = (0..n).collect();
    let mut k = index;
    let mut order = Vec::new();
    while !left.is_empty() {
        let f = factorial(left.len() - 1);
        order.push(left.remove((k / f).min(left.len() - 1)));
        k %= f;
    }
    order
}
