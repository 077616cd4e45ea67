//! "6. Health Track and Health Tokens": the one way a Hero takes Damage and
//! the one way a Hero Heals.

use crate::event::{Event, LossReason};
use crate::game::Game;

impl Game {
    /// Damage to a Hero. In Combat "Armor … reduces the amount of Damage
    /// received from each separate source"; outside it, or when the source
    /// Ignores Armor, the full amount lands. A Hero at 0 loses the game.
    pub(crate) fn damage_hero(&mut self, h: u8, amount: u8, ignore_armor: bool, events: &mut Vec<Event>) {
        let armor = if ignore_armor { 0 } else { self.armor_of(h) };
        let hero = &mut self.heroes[h as usize];
        let dealt = amount.saturating_sub(armor).min(hero.health);
        hero.health -= dealt;
        if dealt > 0 {
            events.push(Event::HeroDamaged { hero: h, amount: dealt });
        }
        if hero.health == 0 {
            // "The Heroes Lose if … One of the Heroes is Defeated."
            self.lose(LossReason::HeroDefeated { hero: h }, events);
        }
    }

    /// A Hero's Armor against each separate source of Damage now: the
    /// Hero's own (Items, Abilities) and what this Combat added.
    pub fn armor_of(&self, h: u8) -> u8 {
        let own = self.heroes.get(usize::from(h)).map_or(0, |hero| hero.armor());
        own.saturating_add(self.combat.as_ref().and_then(|c| c.heroes.get(usize::from(h))).map_or(0, |r| r.armor))
    }

    /// Heals a Hero, never above their Maximum Health Value; returns how much.
    pub(crate) fn heal_hero(&mut self, h: u8, amount: u8, events: &mut Vec<Event>) -> u8 {
        let healed = self.heroes[h as usize].heal(amount);
        if healed > 0 {
            events.push(Event::HeroHealed { hero: h, amount: healed });
        }
        healed
    }
}
