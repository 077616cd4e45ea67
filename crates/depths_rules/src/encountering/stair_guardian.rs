//! "7. Stair Guardian": the Combat that ends an Ecology (then Level Up), and
//! at the bottom of the Subterranean Architecture the Final Entity ("Setup").

use crate::Ecology;
use crate::GameRng;
use crate::adventure::Resolving;
use crate::combat::{FinalEntity, Foe};
use crate::content::Content;
use crate::event::Event;
use crate::event::note;
use crate::game::Game;
use crate::shared::Shared;

impl Game {
    pub(crate) fn encounter_stair_guardian(&mut self, events: &mut Vec<Event>) {
        let n = self.heroes.len();
        if self.adv().ecology.ecology == Ecology::Subterranean {
            // "When Heroes descend the Stairs at the end of the Subterranean
            // Architecture Ecology, they enter into Combat with the Final Entity."
            let content = &self.adventure.as_deref().expect("full game").content;
            let Some(entity) = draw_final_entity(content, &mut self.rng) else {
                note(events, "The Final Entity cards are missing.");
                return;
            };
            let lore = self.adv().content.final_entity.lore.text.clone();
            note(events, lore.clone());
            let adv = self.adv_mut();
            adv.final_entity_lore = Some(lore);
            adv.resolving.push(Resolving::FinalEntity);
            events.extend(self.start_combat(vec![Foe::final_entity(entity, n)]));
            return;
        }
        let adv = self.adv_mut();
        let Some(card) = adv.ecology.stair_guardians.pop().map(Shared::into_inner) else {
            self.level_up(events);
            return;
        };
        adv.resolving.push(Resolving::StairGuardian);
        events.extend(self.start_combat(vec![Foe::monster(card, n)]));
    }
}

/// "Draw a Head I, Head II, and Body card, and arrange them with the Tail card."
pub(crate) fn draw_final_entity(content: &Content, rng: &mut GameRng) -> Option<FinalEntity> {
    let fe = &content.final_entity;
    let pick = |list: &Vec<crate::monster::EntityPartCard>, rng: &mut GameRng| {
        (!list.is_empty()).then(|| list[rng.below(list.len() as u32) as usize].clone())
    };
    Some(FinalEntity {
        head_1: pick(&fe.head_1, rng)?,
        head_2: pick(&fe.head_2, rng)?,
        body: pick(&fe.body, rng)?,
        tail: fe.tail.clone(),
    })
}
