//! "Combat Steps": each Combat Action goes to the file of its step, and the
//! candidates for every Hero still acting in the current step.

use super::{Combat, CombatStep, Engagement};
use crate::action::{Action, CANDIDATES};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;

impl Game {
    pub fn combat(&self) -> Option<&Combat> {
        self.combat.as_ref()
    }

    pub(crate) fn cbt(&mut self) -> &mut Combat {
        self.combat.as_mut().expect("in Combat")
    }

    /// "All Heroes perform each Step simultaneously": any Hero with something
    /// left to do in this step may act.
    pub(crate) fn may_act(&self, c: &Combat, hero: u8) -> Result<(), RuleError> {
        if usize::from(hero) >= self.heroes.len() {
            return Err(RuleError::NoSuchHero(hero));
        }
        if c.may_act(hero) { Ok(()) } else { Err(RuleError::HeroIsDone { hero }) }
    }

    pub(crate) fn check_combat(&self, action: &Action) -> Result<(), RuleError> {
        let c = self.combat.as_ref().ok_or(RuleError::WrongStep { expected: "Combat" })?;
        match action {
            Action::AssignMonsters { foes } => self.check_assign_monsters(c, foes),
            Action::PlayCard { hero, card } => self.check_play_card(c, *hero, *card),
            Action::PlaceMonsterCard { hero, slot } => self.check_place_monster_card(c, *hero, *slot),
            Action::ChoosePair { hero, engagement, slot } => self.check_choose_pair(c, *hero, *engagement, *slot),
            Action::EndTurn { hero } => self.check_end_turn(c, *hero),
            Action::ActivateAbility { hero, source, target } => self.check_combat_ability(c, *hero, *source, *target),
            Action::AssignDamage { hero, individual } => self.check_assign_damage(c, *hero, *individual),
            Action::AvoidReturnDamage { hero } => self.check_avoid_return_damage(c, *hero),
            _ => Err(RuleError::WrongStep { expected: "a Combat action" }),
        }
    }

    pub(crate) fn apply_combat(&mut self, action: Action, events: &mut Vec<Event>) {
        match action {
            Action::AssignMonsters { foes } => self.assign_monsters(foes, events),
            Action::PlayCard { hero, card } => self.play_card(hero, card, events),
            Action::PlaceMonsterCard { hero, slot } => self.place_monster_card(hero, slot, events),
            Action::ChoosePair { hero, engagement, slot } => self.choose_pair(hero, engagement, slot, events),
            Action::EndTurn { hero } => self.end_turn(hero, events),
            Action::ActivateAbility { hero, source, target } => self.activate(hero, source, target, events),
            Action::AssignDamage { hero, individual } => self.assign_damage(hero, individual, events),
            Action::AvoidReturnDamage { hero } => self.avoid_return_damage(hero, events),
            _ => unreachable!("check_combat refuses actions outside Combat"),
        }
    }

    /// Candidates for every Hero still acting in this step.
    pub(crate) fn combat_candidates(&self) -> Vec<Action> {
        let Some(c) = self.combat.as_ref() else { return Vec::new() };
        // Room for most lists at once: growing it was a tenth of the call.
        let mut out = Vec::with_capacity(CANDIDATES);
        match c.step {
            CombatStep::AssignMonsters => self.assignment_candidates(c, &mut out),
            CombatStep::AvoidReturnDamage => self.avoidance_candidates(&mut out),
            step => {
                for hero in (0..c.heroes.len() as u8).filter(|&h| c.may_act(h)) {
                    match step {
                        CombatStep::PlayCards => {
                            let hand = &self.heroes[hero as usize].hand;
                            out.extend(hand.iter().map(|card| Action::PlayCard { hero, card: card.id }));
                        }
                        CombatStep::PlaceMonsterCard => {
                            out.extend((0..2).map(|slot| Action::PlaceMonsterCard { hero, slot }));
                        }
                        CombatStep::AssignDamage => self.damage_candidates(c, hero, &mut out),
                        CombatStep::Resolve => {
                            self.pair_candidates(c, hero, &mut out);
                            self.combat_ability_candidates(c, hero, &mut out);
                        }
                        CombatStep::AssignMonsters | CombatStep::AvoidReturnDamage => {}
                    }
                }
            }
        }
        out
    }
}

/// The step a Combat Action belongs to.
pub(crate) fn step_is(c: &Combat, step: CombatStep, name: &'static str) -> Result<(), RuleError> {
    if c.step == step { Ok(()) } else { Err(RuleError::WrongStep { expected: name }) }
}

/// One of `hero`'s own engagements.
pub(crate) fn own_engagement(c: &Combat, hero: u8, engagement: u8) -> Result<&Engagement, RuleError> {
    c.engagements.get(usize::from(engagement)).filter(|e| e.hero == hero).ok_or(RuleError::BadTarget)
}
