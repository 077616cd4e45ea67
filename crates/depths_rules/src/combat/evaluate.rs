//! "3. Evaluate Combat Pairs": each Hero chooses one pair to Resolve (Blocks
//! always, Monster Hits over Hero Hits), then is done for Steps 3–4.

use super::combat_pair::may_choose_among;
use super::{Combat, CombatStep};
use crate::action::Action;
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;

impl Game {
    /// "Every Round, each Hero will choose one of their Combat Pairs to Resolve
    /// and discard any others": one in all, however many Monster Cards the Hero faces.
    pub(crate) fn check_choose_pair(&self, c: &Combat, hero: u8, engagement: u8, slot: u8) -> Result<(), RuleError> {
        super::steps::step_is(c, CombatStep::Resolve, "Combat Pairs to be chosen")?;
        self.may_act(c, hero)?;
        let e = super::steps::own_engagement(c, hero, engagement)?;
        if c.chosen_engagement(hero).is_some() {
            return Err(RuleError::PairAlreadyChosen);
        }
        let bonus = c.foes[e.foe as usize].card_bonus;
        let s = e.slots.get(usize::from(slot)).ok_or(RuleError::NoSuchSlot)?;
        let Some(outcome) = s.outcome(bonus) else { return Err(RuleError::NotACombatPair) };
        if may_choose_among(outcome, c.pairs(hero).map(|(_, _, o)| o)) {
            Ok(())
        } else {
            Err(RuleError::MonsterHitTakesPriority)
        }
    }

    pub(crate) fn choose_pair(&mut self, hero: u8, engagement: u8, slot: u8, events: &mut Vec<Event>) {
        let c = self.cbt();
        let e = &mut c.engagements[engagement as usize];
        e.chosen = Some(slot);
        let outcome = e.slots[slot as usize].outcome(c.foes[e.foe as usize].card_bonus).expect("checked");
        events.push(Event::PairChosen { hero, engagement, slot, outcome });
    }

    /// The Hero is done with Steps 3–4 for the Round: a pair is chosen (or the
    /// Results are Ignored, or there is no pair).
    pub(crate) fn check_end_turn(&self, c: &Combat, hero: u8) -> Result<(), RuleError> {
        super::steps::step_is(c, CombatStep::Resolve, "Combat Pairs to be chosen")?;
        self.may_act(c, hero)?;
        let round = &c.heroes[hero as usize];
        if !round.ignore_results && c.chosen_engagement(hero).is_none() && c.pairs(hero).next().is_some() {
            return Err(RuleError::PairsNotChosen);
        }
        Ok(())
    }

    /// "All Heroes perform each Step simultaneously": Damage is applied once every Hero is done.
    pub(crate) fn end_turn(&mut self, hero: u8, events: &mut Vec<Event>) {
        let c = self.cbt();
        c.heroes[hero as usize].done = true;
        if c.heroes.iter().all(|h| h.done) {
            self.begin_damage(events);
        }
    }

    pub(crate) fn pair_candidates(&self, c: &Combat, hero: u8, out: &mut Vec<Action>) {
        for (e, en) in c.engagements_of(hero) {
            out.extend((0..en.slots.len() as u8).map(|slot| Action::ChoosePair { hero, engagement: e as u8, slot }));
        }
        out.push(Action::EndTurn { hero });
    }
}
