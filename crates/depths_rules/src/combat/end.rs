//! "6. Discard Cards": all Played Cards are Discarded; another Round, or the
//! end of Combat.

use crate::event::Event;
use crate::game::{Game, Stage};

impl Game {
    pub(crate) fn end_round(&mut self, events: &mut Vec<Event>) {
        let c = self.combat.as_mut().expect("in Combat");
        let round = c.round;
        for e in std::mem::take(&mut c.engagements) {
            let difficulty = c.foes[e.foe as usize].difficulty;
            for s in e.slots {
                if let Some(card) = s.hero {
                    self.heroes[e.hero as usize].discard.push(card);
                }
                if let Some(card) = s.monster {
                    self.monster_decks[difficulty.index()].discard.push(card);
                }
            }
            self.monster_decks[difficulty.index()].discard.extend(e.unpaired.into_iter().chain(e.waiting));
        }
        events.push(Event::RoundEnded { round });
        if c.is_over() {
            // "When Combat ends, any Cards left in a Hero's Hand remain there."
            let foes = self.combat.take().map(|c| c.foes).unwrap_or_default();
            if let Some(adv) = self.adventure.as_deref_mut() {
                adv.defeated = foes;
                self.stage = Stage::OutOfCombat;
            } else {
                // A skirmish is only its fight.
                self.stage = Stage::Won;
            }
            events.push(Event::CombatWon);
        } else {
            self.start_round(events);
        }
    }
}
