//! A Hero's Action Card deck in play: drawing ("Drawing & Storing Power
//! Cards") and Spending Stored Power.

use crate::action_card::ActionCard;
use crate::event::Event;
use crate::game::Game;

impl Game {
    /// Draws one Action Card for Hero `h`: "Any Power Cards that are Drawn are
    /// immediately Stored … After one is Stored, draw a replacement card."
    /// With `reshuffle`, an empty Draw Pile is first refilled from the Discard
    /// (Feature tests, Campfire draws, Abilities); Combat's Step 1 has its own
    /// rule for that.
    pub(crate) fn draw_action_card(&mut self, h: u8, reshuffle: bool, events: &mut Vec<Event>) -> Option<ActionCard> {
        let hero = &mut self.heroes[h as usize];
        if reshuffle && hero.draw.iter().all(|c| c.power) && !hero.discard.is_empty() {
            hero.reshuffle_discard(&mut self.rng);
            events.push(Event::DiscardReshuffled { hero: h });
        }
        let stored = hero.stored_power.len();
        let card = hero.draw_card();
        for _ in stored..hero.stored_power.len() {
            events.push(Event::PowerStored { hero: h });
        }
        card
    }

    /// "Power-Activated Abilities cost 1 Power Card per Power Icon … When a
    /// Power Card is Spent it is Discarded."
    pub(crate) fn spend_power(&mut self, h: u8, count: u8, events: &mut Vec<Event>) {
        let hero = &mut self.heroes[h as usize];
        for _ in 0..count {
            if let Some(card) = hero.stored_power.pop() {
                hero.discard.push(card);
            }
        }
        if count > 0 {
            events.push(Event::PowerSpent { hero: h, count });
        }
    }
}
