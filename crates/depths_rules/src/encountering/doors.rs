//! "3. Doors": "Spending a Key Unlocks a Door. Certain Hero Items,
//! Abilities, and Spells can also be used to Unlock Doors."

use crate::event::Event;
use crate::game::Game;

impl Game {
    /// The Door is Unlocked (the map marks it); a Key is spent unless an
    /// ability or card did the unlocking.
    pub(crate) fn unlock_door(&mut self, with_key: bool, events: &mut Vec<Event>) {
        if with_key {
            self.spend_key(events);
        }
    }

    pub(crate) fn spend_key(&mut self, events: &mut Vec<Event>) {
        let adv = self.adv_mut();
        adv.keys = adv.keys.saturating_sub(1);
        events.push(Event::KeysChanged { keys: adv.keys });
    }
}
