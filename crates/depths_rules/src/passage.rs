//! "Passage to Next Ecology": after Level Up the Ecology is complete; "Each
//! Ecology follows the same Setup".

use crate::adventure::{Adventure, Pending};
use crate::error::RuleError;
use crate::event::Event;
use crate::event::note;
use crate::game::Game;
use crate::setup::setup_ecology;

impl Game {
    pub(crate) fn check_descend(&self) -> Result<(), RuleError> {
        match self.pending() {
            Some(Pending::Passage { .. }) => Ok(()),
            _ => Err(RuleError::WrongStep { expected: "Passage to the next Ecology" }),
        }
    }

    /// "Passage to Next Ecology … Each Ecology follows the same Setup."
    pub(crate) fn descend(&mut self, events: &mut Vec<Event>) {
        let Some(Pending::Passage { next }) = self.adv_mut().pending.first().cloned() else { return };
        self.adv_mut().pending.remove(0);
        // "3. Monster Action Cards … Shuffle each deck": gathered from their
        // Discard Piles and shuffled for the new Ecology.
        for deck in &mut self.monster_decks {
            deck.gather(&mut self.rng);
        }
        // "9. Hero Play Area … Hero Action Cards": Power Cards Stored, the rest shuffled.
        for hero in &mut self.heroes {
            hero.set_up_action_cards(&mut self.rng);
        }
        let adv = self.adventure.as_deref_mut().expect("full game");
        match setup_ecology(&adv.content, next, &adv.options, &mut self.rng) {
            Ok(eco) => adv.ecology = eco,
            Err(e) => {
                note(events, e);
                return;
            }
        }
        if adv.add_new_ecology_keys() {
            events.push(Event::KeysChanged { keys: adv.keys });
        }
        events.push(Event::EcologyStarted { ecology: next });
    }
}

impl Adventure {
    /// "3 Keys Added at Each New Ecology: Each time the Heroes start a new
    /// Ecology, they get 3 Keys added to their supply for free." Whether the
    /// variant is played (and so the Keys were added).
    pub(crate) fn add_new_ecology_keys(&mut self) -> bool {
        let added = self.options.variants.keys_each_ecology;
        if added {
            self.keys = self.keys.saturating_add(3);
        }
        added
    }
}
