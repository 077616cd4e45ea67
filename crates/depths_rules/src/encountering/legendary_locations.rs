//! "5. Legendary Locations": the numbered-only card first, then the lettered
//! pile it names, one card at a time until the pile is done.

use crate::adventure::Resolving;
use crate::event::Event;
use crate::game::Game;
use crate::legendary_location::LegendaryCard;
use crate::map::RuneMatch;
use crate::phase::Encountering;
use crate::shared::Shared;

impl Game {
    pub(crate) fn encounter_legendary(&mut self, m: RuneMatch, events: &mut Vec<Event>) {
        let adv = self.adv_mut();
        let eco = &mut adv.ecology;
        if eco.used_runes.record(&m).is_err() {
            return;
        }
        events.push(Event::LegendaryLocationEncountered { pattern: m.pattern.clone() });
        adv.encounter = Some(Encountering::LegendaryLocation);
        let Some(pattern) = eco.patterns.iter().position(|p| p.id == m.pattern) else { return };
        let Some(card) = eco.legendary.get_mut(pattern).and_then(|piles| piles.entry.pop()).map(Shared::into_inner)
        else {
            return;
        };
        adv.record.legendary_locations_found.push(card.name.clone());
        self.begin_legendary_card(pattern, card, events);
    }

    pub(crate) fn begin_legendary_card(&mut self, pattern: usize, card: LegendaryCard, events: &mut Vec<Event>) {
        events.push(Event::CardDrawn { name: card.name.clone() });
        let adv = self.adv_mut();
        adv.queue.extend(card.effects.iter().cloned());
        let next = card.next;
        adv.resolving.push(Resolving::Legendary { pattern, card, next });
    }

    /// "…find the letter in the upper-right corner of the card's text field.
    /// This letter indicates which Draw Pile … to draw from for the next card."
    pub(crate) fn continue_legendary(&mut self, pattern: usize, letter: Option<char>, events: &mut Vec<Event>) {
        let piles = &mut self.adv_mut().ecology.legendary[pattern];
        let Some(mut card) = letter.and_then(|l| piles.pile_mut(l)).and_then(|p| p.pop()).map(Shared::into_inner)
        else {
            return;
        };
        // A card without a letter continues with the pile being drawn from.
        if card.next.is_none() {
            card.next = letter;
        }
        self.begin_legendary_card(pattern, card, events);
    }

    /// A card's branch: continue with this lettered pile instead.
    pub(crate) fn go_to_pile(&mut self, letter: char) {
        if let Some(Resolving::Legendary { next, .. }) =
            self.adv_mut().resolving.iter_mut().rev().find(|r| matches!(r, Resolving::Legendary { .. }))
        {
            *next = Some(letter);
        }
    }
}
