//! "4. Chests": "the players choose 1 Hero to draw 1 Item"; with the Locked
//! Chests variant a Chest is Unlocked "just like Doors".

use crate::adventure::{HeroChoice, Pending};
use crate::event::Event;
use crate::game::Game;

impl Game {
    pub(crate) fn open_chest(&mut self, with_key: bool, events: &mut Vec<Event>) {
        if self.adv().options.variants.locked_chests && with_key {
            self.spend_key(events);
        }
        self.adv_mut().pending.push(Pending::ChooseHero(HeroChoice::DrawItem));
    }
}
