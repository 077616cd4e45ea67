//! "1. Monsters": draw the next Monster Card (two for two icons) and enter
//! into Combat; the Crazed Bipedal Saurian waits until a card shuffles it in.

use crate::adventure::Resolving;
use crate::combat::Foe;
use crate::event::Event;
use crate::event::note;
use crate::game::Game;
use crate::monster::MonsterCard;

impl Game {
    /// "To Encounter a Monster, Draw the next Monster Card and enter into
    /// Combat with it. If 2 Monster icons are present, draw 2 Monster Cards."
    pub(crate) fn encounter_monsters(&mut self, count: u8, events: &mut Vec<Event>) {
        let adv = self.adv_mut();
        let mut cards = Vec::new();
        for _ in 0..count {
            if let Some(card) = adv.ecology.monsters.pop() {
                cards.push(card.into_inner());
            }
        }
        if cards.is_empty() {
            // Rule clarification: an exhausted Monster deck leaves the way open.
            note(events, "The Monster deck is empty: nothing is here any more.");
            return;
        }
        self.fight_monsters(cards, events);
    }

    /// Enter into Combat with these Monster Cards, for an Ecology Element or a card.
    pub(crate) fn fight_monsters(&mut self, cards: Vec<MonsterCard>, events: &mut Vec<Event>) {
        self.adv_mut().resolving.push(Resolving::Monsters);
        let n = self.heroes.len();
        let foes = cards.into_iter().map(|c| Foe::monster(c, n)).collect();
        events.extend(self.start_combat(foes));
    }

    /// "One card in the Caverns will instruct you to shuffle the Crazed
    /// Bipedal Saurian into the Monster deck."
    pub(crate) fn shuffle_into_monsters(&mut self, monster: &str, events: &mut Vec<Event>) {
        let eco = &mut self.adventure.as_deref_mut().expect("full game").ecology;
        if let Some(i) = eco.set_aside_monsters.iter().position(|m| m.id == monster) {
            let card = eco.set_aside_monsters.remove(i);
            note(events, format!("{} is shuffled into the Monster deck.", card.name));
            eco.monsters.push(card);
            self.rng.shuffle(&mut eco.monsters);
        }
    }
}
