//! "Encountering": the seven Ecology Elements, each in its own file, and
//! what all Encounters share — the Lantern moves there, the card's effects
//! resolve one by one, "Experience Points" go to the communal pool.

mod campfires;
mod chests;
mod doors;
mod features;
mod legendary_locations;
mod monsters;
mod stair_guardian;

pub use features::feature_order;

use crate::Ecology;
use crate::adventure::{Resolving, XpCard, XpSource};
use crate::effect_resolution::EffectContext;
use crate::event::Event;
use crate::game::{Game, Stage};
use crate::map::{Element, ElementRef};
use crate::phase::Encountering;

impl Game {
    /// "When Heroes choose to Encounter an Ecology Element, move the Lantern
    /// Token to that location." A Door or Locked Chest is Unlocked with a Key
    /// (`with_key`) or by an ability or card that unlocks.
    pub(crate) fn open_element(&mut self, element: ElementRef, with_key: bool, events: &mut Vec<Event>) {
        let adv = self.adv_mut();
        let Ok(kind) = adv.ecology.map.encounter(element) else { return };
        adv.ecology.encountering = Some(element);
        let last = adv.ecology.ecology == Ecology::Subterranean;
        adv.encounter = Some(match kind {
            Element::Monster { .. } => Encountering::Monster,
            Element::Feature => Encountering::Feature,
            Element::Door => Encountering::Door,
            Element::Chest => Encountering::Chest,
            Element::Campfire => Encountering::Campfire,
            Element::StairGuardian if last => Encountering::FinalEntity,
            Element::StairGuardian => Encountering::StairGuardian,
        });
        events.push(Event::ElementEncountered { element });
        match kind {
            Element::Monster { count } => self.encounter_monsters(count, events),
            Element::Feature => self.draw_feature(events),
            Element::Door => self.unlock_door(with_key, events),
            Element::Chest => self.open_chest(with_key, events),
            Element::Campfire => self.rest(events),
            Element::StairGuardian => self.encounter_stair_guardian(events),
        }
    }

    /// Resolves a card's effects one by one, and each finished card, until a
    /// choice or a Combat is needed; then back to Exploring.
    pub(crate) fn advance_adventure(&mut self, events: &mut Vec<Event>) {
        loop {
            if self.stage != Stage::OutOfCombat {
                return;
            }
            let adv = self.adv_mut();
            if !adv.pending.is_empty() {
                return;
            }
            if !adv.queue.is_empty() {
                let effect = adv.queue.remove(0);
                self.resolve_effect(&effect, EffectContext::Card, events);
                continue;
            }
            let Some(top) = adv.resolving.pop() else { break };
            if matches!(top, Resolving::Feature(_) | Resolving::Legendary { .. }) {
                self.discard_test_cards();
            }
            match top {
                Resolving::Feature(card) => self.gain_xp(card.name, card.xp, XpSource::Feature, events),
                Resolving::Legendary { pattern, card, next } => {
                    self.gain_xp(card.name.clone(), card.xp, XpSource::LegendaryLocation, events);
                    self.continue_legendary(pattern, next, events);
                }
                Resolving::Monsters | Resolving::StairGuardian | Resolving::FinalEntity => {}
            }
        }
        // Everything is Resolved (or chosen at Setup): back to Exploring.
        if self.stage == Stage::OutOfCombat {
            self.adv_mut().encounter = None;
            self.adv_mut().setting_up = false;
            self.check_stranded(events);
        }
    }

    /// Combat just ended in victory: XP, tokens, and what the Combat was for.
    pub(crate) fn after_combat(&mut self, events: &mut Vec<Event>) {
        let adv = self.adv_mut();
        let foes = std::mem::take(&mut adv.defeated);
        let what = adv.resolving.pop();
        for f in &foes {
            if let crate::combat::FoeCard::Monster(m) = &f.card {
                let source =
                    if what == Some(Resolving::StairGuardian) { XpSource::StairGuardian } else { XpSource::Monster };
                let record = &mut self.adv_mut().record;
                record.monsters_defeated = record.monsters_defeated.saturating_add(1);
                self.gain_xp(m.name.clone(), m.xp, source, events);
            }
        }
        match what {
            Some(Resolving::StairGuardian) => self.level_up(events),
            Some(Resolving::FinalEntity) => {
                // "Defeating the Final Entity is the only way to win the game."
                // Its Ecology is cleared with it (the others by Passage).
                let current = self.adv().ecology.ecology;
                self.adv_mut().record.ecologies_cleared.push(current);
                self.stage = Stage::Won;
                events.push(Event::GameWon);
            }
            _ => {}
        }
        self.advance_adventure(events);
    }

    /// "When Heroes collect Experience Points, keep them in a communal pool."
    pub(crate) fn gain_xp(&mut self, name: String, xp: u8, source: XpSource, events: &mut Vec<Event>) {
        let adv = self.adv_mut();
        adv.record.xp_earned = adv.record.xp_earned.saturating_add(u32::from(xp));
        events.push(Event::XpGained { name: name.clone(), xp });
        adv.xp_pool.push(XpCard { name, xp, source });
    }
}
