//! Items: drawing one ("4. Chests"), gaining one, "Adding / Removing Action
//! Cards", the multi-classed Hero's choice ("Rules for Multi-Classed Heroes"),
//! and "Equipping / Unequipping Items".

use crate::action::Action;
use crate::action_card::CardId;
use crate::adventure::{Pending, class_index};
use crate::error::RuleError;
use crate::event::Event;
use crate::event::note;
use crate::game::Game;
use crate::hero::{Hero, ItemCard, OwnedItem};

impl Game {
    /// A Hero draws an Item; a multi-classed Hero draws one from each class and keeps one.
    pub(crate) fn draw_item_for(&mut self, h: u8, events: &mut Vec<Event>) {
        let mat = self.heroes[h as usize].mat.clone();
        let single = self.adv().options.single_classed;
        let adv = self.adv_mut();
        let mut options = Vec::new();
        if let Some(card) = adv.item_decks[class_index(mat.class)].pop() {
            options.push(card.into_inner());
        }
        if let (Some(s), false) = (mat.secondary_class, single)
            && let Some(card) = adv.item_decks[class_index(s)].pop()
        {
            options.push(card.into_inner());
        }
        if !options.is_empty() {
            events.push(Event::CardsOffered { hero: h, names: options.iter().map(|o| o.name.clone()).collect() });
        }
        // A Secondary-class Item that Adds cards, with no Ally to take it, cannot be chosen.
        if !options.iter().any(|o| self.item_destination(h, o).is_some()) {
            for o in options.drain(..) {
                let deck = class_index(o.deck.unwrap_or(mat.class));
                self.adv_mut().put_under_item_deck(deck, o);
            }
        }
        match options.len() {
            0 => note(events, "No Item is left that this Hero can take."),
            // A lone Item the Hero may keep is hers; one only an Ally may
            // take is offered to the Ally, as when choosing between two.
            1 if self.item_destination(h, &options[0]) == Some(h) => self.gain_item(h, options.remove(0), events),
            _ => {
                let adv = self.adv_mut();
                adv.pending.insert(0, Pending::ChooseItem { hero: h, options });
            }
        }
    }

    /// "Items from their Secondary class that require adding Item Action
    /// Cards to their Action Card Deck cannot be selected" by a multi-classed
    /// Hero, however the Item reaches her.
    pub(crate) fn may_select_item(&self, h: u8, item: &ItemCard) -> bool {
        let mat = &self.heroes[h as usize].mat;
        let secondary = mat.secondary_class.is_some() && item.deck == mat.secondary_class;
        !(secondary && !item.add_cards.is_empty() && self.is_multi_classed(h))
    }

    /// Who takes an Item drawn for Hero `h`: she, or "an Ally with that Primary
    /// Class" when she cannot select it; `None` when neither can.
    pub(crate) fn item_destination(&self, h: u8, item: &ItemCard) -> Option<u8> {
        if self.may_select_item(h, item) { Some(h) } else { self.ally_for(h, item) }
    }

    /// The Hero takes an Item: "Adding / Removing Action Cards", then Equip it if it fits.
    pub(crate) fn gain_item(&mut self, h: u8, item: ItemCard, events: &mut Vec<Event>) {
        events.push(Event::ItemGained { hero: h, name: item.name.clone() });
        let class = class_index(self.heroes[h as usize].mat.class);
        if !item.add_cards.is_empty() || item.remove_cards > 0 {
            // 1. Combine the Discard and Draw Piles.
            let hero = &mut self.heroes[h as usize];
            let mut discard = std::mem::take(&mut hero.discard);
            hero.draw.append(&mut discard);
            // 2. Add the Item Action Cards with the specified Values.
            for v in &item.add_cards {
                let pool = &mut self.adventure.as_deref_mut().expect("full game").item_action_cards[class];
                if let Some(i) = pool.iter().position(|c| c.value == *v) {
                    let card = pool.remove(i);
                    self.heroes[h as usize].draw.push(card);
                }
            }
            // 3. Remove (the players choose); 4. then shuffle.
            let removable = (self.heroes[h as usize].draw.len()).min(usize::from(item.remove_cards)) as u8;
            if removable > 0 {
                self.adv_mut().pending.insert(0, Pending::RemoveCards { hero: h, count: removable });
            } else {
                let hero = &mut self.heroes[h as usize];
                hero.shuffle_draw(&mut self.rng);
            }
        }
        let hero = &mut self.heroes[h as usize];
        let equipped = hero.fits_class(&item) && hands_equipped(hero) + item.hands <= 2;
        hero.items.push(OwnedItem { uses_left: item.uses, card: item, equipped });
    }

    /// "Items from their Secondary class that require adding Item Action Cards …
    /// cannot be selected, but the Hero may give an Ally with that Primary Class
    /// the Item instead."
    pub(crate) fn check_choose_item(&self, hero: u8, options: &[ItemCard], index: usize) -> Result<(), RuleError> {
        let item = options.get(index).ok_or(RuleError::NoSuchItem)?;
        if self.item_destination(hero, item).is_none() {
            return Err(RuleError::WrongClass);
        }
        Ok(())
    }

    /// The multi-classed Hero keeps one Item; "Items not selected are put on
    /// the bottom of the Item Deck."
    pub(crate) fn choose_item(&mut self, hero: u8, mut options: Vec<ItemCard>, index: usize, events: &mut Vec<Event>) {
        let keep = options.remove(index);
        for other in options {
            let deck = class_index(other.deck.unwrap_or(self.heroes[hero as usize].mat.class));
            self.adv_mut().put_under_item_deck(deck, other);
        }
        let to = self.item_destination(hero, &keep).unwrap_or(hero);
        self.gain_item(to, keep, events);
    }

    /// "3. Remove the indicated number of Action Cards from your Action Card Deck."
    pub(crate) fn check_remove_card(&self, hero: u8, card: CardId) -> Result<(), RuleError> {
        if self.heroes[hero as usize].draw.iter().any(|c| c.id == card) {
            Ok(())
        } else {
            Err(RuleError::CardNotInHand)
        }
    }

    pub(crate) fn remove_action_card(&mut self, card: CardId) {
        let Some(Pending::RemoveCards { hero, count }) = self.adv_mut().pending.first().cloned() else { return };
        let h = &mut self.heroes[hero as usize];
        if let Some(i) = h.draw.iter().position(|c| c.id == card) {
            let c = h.take_from_draw(i);
            h.out_of_deck.push(c);
        }
        if count > 1 && !h.draw.is_empty() {
            self.adv_mut().pending[0] = Pending::RemoveCards { hero, count: count - 1 };
        } else {
            self.adv_mut().pending.remove(0);
            let h = &mut self.heroes[hero as usize];
            h.shuffle_draw(&mut self.rng);
        }
    }

    /// An Ally whose Primary Class is the Item's deck (for a multi-classed Hero's
    /// Secondary-class Item that Adds Item Action Cards).
    pub(crate) fn ally_for(&self, hero: u8, item: &ItemCard) -> Option<u8> {
        (0..self.heroes.len() as u8).find(|&h| h != hero && Some(self.heroes[h as usize].mat.class) == item.deck)
    }

    /// "Items may be Equipped or Unequipped anytime while Exploring, but cannot
    /// be Equipped or Unequipped while Encountering."
    pub(crate) fn check_equip(&self, action: &Action) -> Result<(), RuleError> {
        let (Action::Equip { hero, item } | Action::Unequip { hero, item }) = action else {
            return Err(RuleError::WrongStep { expected: "an Item to Equip" });
        };
        let h = self.heroes.get(usize::from(*hero)).ok_or(RuleError::NoSuchHero(*hero))?;
        let it = h.items.get(usize::from(*item)).ok_or(RuleError::NoSuchItem)?;
        let equip = matches!(action, Action::Equip { .. });
        if it.equipped == equip {
            return Err(RuleError::NothingToDo);
        }
        if equip {
            if !h.fits_class(&it.card) {
                return Err(RuleError::WrongClass);
            }
            // "Heroes are limited to Equipping no more than 2 hand icons worth of Items at a time."
            if hands_equipped(h) + it.card.hands > 2 {
                return Err(RuleError::TooManyHands);
            }
        }
        Ok(())
    }

    pub(crate) fn equip(&mut self, hero: u8, item: u8, equipped: bool) {
        self.heroes[hero as usize].items[usize::from(item)].equipped = equipped;
    }

    pub(crate) fn equip_candidates(&self, out: &mut Vec<Action>) {
        for (h, hero) in self.heroes.iter().enumerate() {
            for item in 0..hero.items.len() as u8 {
                out.push(Action::Equip { hero: h as u8, item });
                out.push(Action::Unequip { hero: h as u8, item });
            }
        }
    }
}

pub(crate) fn hands_equipped(h: &Hero) -> u8 {
    h.items.iter().filter(|i| i.equipped).fold(0, |n, i| n.saturating_add(i.card.hands))
}
