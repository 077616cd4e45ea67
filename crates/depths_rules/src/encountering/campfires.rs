//! "6. Campfires": the Heroes Rest (and the "Random Campfire Healing" variant).

use crate::event::Event;
use crate::game::Game;

impl Game {
    /// "When Heroes Rest: All Heroes receive Healing equal to ½ of their current
    /// Maximum Health Value. Heroes Shuffle their Action Card Discard and Draw
    /// Piles together … Any Stored Power Cards remain Stored. All Exhausted
    /// Spells are Refreshed. All Defeated Monster Tokens are removed."
    pub(crate) fn rest(&mut self, events: &mut Vec<Event>) {
        let random = self.adv().options.variants.random_campfire_healing;
        for h in 0..self.heroes.len() as u8 {
            let amount = if random {
                // "each Hero Draws 2 Cards and Heals equal to the highest-value Card."
                let drawn: Vec<_> = (0..2).filter_map(|_| self.draw_action_card(h, true, events)).collect();
                let best = drawn.iter().map(|c| c.value).max().unwrap_or(0);
                self.heroes[h as usize].discard.extend(drawn);
                best
            } else {
                self.heroes[h as usize].max_health() / 2
            };
            self.heal_hero(h, amount, events);
            let hero = &mut self.heroes[h as usize];
            hero.reshuffle_discard(&mut self.rng);
            hero.refresh_spells();
        }
        self.adv_mut().ecology.map.return_defeated_monsters();
        events.push(Event::Rested);
    }
}
