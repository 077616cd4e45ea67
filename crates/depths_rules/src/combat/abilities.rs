//! "4. Activate Hero Abilities" in a Combat Round: Passive always on, any
//! number of Power-Activated ones while the Power lasts, one Block-Activated
//! ability for a Resolved Block; what each may point at.

use super::{Combat, CombatStep, Engagement, Outcome};
use crate::abilities::check_activation;
use crate::action::{Action, Target};
use crate::effect::{Ability, Activation, TargetKind, is_exploring_effect};
use crate::error::RuleError;
use crate::game::Game;
use crate::hero::AbilitySource;

impl Game {
    pub(crate) fn check_combat_ability(
        &self,
        c: &Combat,
        h: u8,
        source: AbilitySource,
        target: Target,
    ) -> Result<(), RuleError> {
        super::steps::step_is(c, CombatStep::Resolve, "Hero abilities")?;
        self.may_act(c, h)?;
        let hero = &self.heroes[h as usize];
        let ability = hero.ability(source).ok_or(RuleError::AbilityNotAvailable)?;
        if ability.effects.iter().any(is_exploring_effect) {
            return Err(RuleError::NotDuringCombat);
        }
        let ability = check_activation(hero, source)?;
        if ability.activation == Activation::Block {
            // "When a Hero chooses to Resolve a Block, they may Activate a Block-Activated Ability."
            if c.heroes[h as usize].block_ability_used {
                return Err(RuleError::BlockAbilityUsed);
            }
            let blocked = c.engagements_of(h).any(|(_, e)| {
                e.chosen.is_some_and(|s| {
                    e.slots[s as usize].outcome(c.foes[e.foe as usize].card_bonus) == Some(Outcome::Block)
                })
            });
            if !blocked {
                return Err(RuleError::NeedsBlock);
            }
        }
        self.check_target(c, h, ability, target)
    }

    pub(crate) fn check_target(&self, c: &Combat, h: u8, ability: &Ability, target: Target) -> Result<(), RuleError> {
        let open_engagement = |engagement: u8| -> Result<&Engagement, RuleError> {
            let e = super::steps::own_engagement(c, h, engagement)?;
            if ability.alters_pairs() && c.chosen_engagement(h).is_some() {
                return Err(RuleError::PairAlreadyChosen);
            }
            Ok(e)
        };
        let ok = match (ability.target_kind(), target) {
            (TargetKind::None, Target::None) => true,
            (TargetKind::Engagement, Target::Engagement(en)) => open_engagement(en)?.played() == 2,
            (TargetKind::Individual, Target::Individual { foe, individual }) => {
                let engaged = c.engagements_of(h).any(|(_, e)| e.foe == foe);
                let f = c.foes.get(usize::from(foe)).ok_or(RuleError::BadTarget)?;
                f.individuals.get(usize::from(individual)).ok_or(RuleError::BadTarget)?;
                // "All of a Hero's Damage must be applied to one Individual Monster"
                // within the set.
                if c.heroes[h as usize].target_in(foe).is_some_and(|i| i != individual) {
                    return Err(RuleError::OneIndividualPerRound);
                }
                // Brought down by this Round's Damage, it may still be named: the
                // Round's Damage is dealt at once ("simultaneously").
                engaged && c.open(foe, individual)
            }
            (TargetKind::HeroSlot, Target::HeroSlot { engagement, slot }) => {
                open_engagement(engagement)?.slots.get(usize::from(slot)).is_some_and(|s| s.hero.is_some())
            }
            (TargetKind::MonsterSlot, Target::MonsterSlot { engagement, slot }) => {
                open_engagement(engagement)?.slots.get(usize::from(slot)).is_some_and(|s| s.monster.is_some())
            }
            (TargetKind::Hero, Target::Hero(t)) => usize::from(t) < self.heroes.len(),
            (TargetKind::DiscardCard, Target::DiscardCard(id)) => {
                self.heroes[h as usize].discard.iter().any(|card| card.id == id)
            }
            _ => false,
        };
        if ok { Ok(()) } else { Err(RuleError::BadTarget) }
    }

    /// Every ability of `hero` with every target it might take.
    pub(crate) fn combat_ability_candidates(&self, c: &Combat, hero: u8, out: &mut Vec<Action>) {
        for (source, ability) in self.heroes[hero as usize].abilities() {
            self.ability_targets(c, hero, ability.target_kind(), |target| {
                out.push(Action::ActivateAbility { hero, source, target });
            });
        }
    }

    /// Every target of an ability of `kind`, one by one (no list: this runs
    /// for every ability in every list of legal actions in a Combat).
    pub(crate) fn ability_targets(&self, c: &Combat, hero: u8, kind: TargetKind, mut each: impl FnMut(Target)) {
        let mine = || c.engagements_of(hero).map(|(e, en)| (e as u8, en));
        match kind {
            TargetKind::None => each(Target::None),
            TargetKind::Engagement => mine().for_each(|(e, _)| each(Target::Engagement(e))),
            TargetKind::Individual => {
                // A foe once, however many engagements in a row face it.
                let mut last = None;
                for (_, en) in mine() {
                    if last == Some(en.foe) {
                        continue;
                    }
                    last = Some(en.foe);
                    for individual in 0..c.foes[en.foe as usize].individuals.len() as u8 {
                        each(Target::Individual { foe: en.foe, individual });
                    }
                }
            }
            TargetKind::HeroSlot => {
                for (e, en) in mine() {
                    (0..en.slots.len() as u8).for_each(|slot| each(Target::HeroSlot { engagement: e, slot }));
                }
            }
            TargetKind::MonsterSlot => {
                for (e, en) in mine() {
                    (0..en.slots.len() as u8).for_each(|slot| each(Target::MonsterSlot { engagement: e, slot }));
                }
            }
            TargetKind::Hero => (0..self.heroes.len() as u8).for_each(|h| each(Target::Hero(h))),
            TargetKind::DiscardCard => {
                self.heroes[hero as usize].discard.iter().for_each(|card| each(Target::DiscardCard(card.id)))
            }
        }
    }
}
