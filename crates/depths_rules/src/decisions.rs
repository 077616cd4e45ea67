//! The choices play waits for outside Combat ("the players choose 1 Hero",
//! "select one to keep", "Remove … Action Cards", "Assign them in any
//! order"): each answer goes to the file of the rule that asked.

use crate::action::{Action, CANDIDATES};
use crate::adventure::{HeroChoice, Pending};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;

impl Game {
    pub(crate) fn check_decision(&self, action: &Action) -> Result<(), RuleError> {
        let pending = self.pending();
        match action {
            Action::ChooseHero { hero } => {
                if usize::from(*hero) >= self.heroes.len() {
                    return Err(RuleError::NoSuchHero(*hero));
                }
                // Any Hero may take a class Item; only that class can Equip it,
                // and a multi-classed Hero cannot select a Secondary-class
                // Item that Adds cards (an Ally of that class may take it).
                match pending {
                    Some(Pending::ChooseHero(HeroChoice::GainItem(item))) if !self.may_select_item(*hero, item) => {
                        Err(RuleError::WrongClass)
                    }
                    Some(Pending::ChooseHero(_)) => Ok(()),
                    _ => Err(RuleError::WrongStep { expected: "a Hero to be chosen" }),
                }
            }
            Action::ChooseOption { index } => {
                let i = usize::from(*index);
                match pending {
                    Some(Pending::ChooseItem { hero, options }) => self.check_choose_item(*hero, options, i),
                    Some(Pending::ChooseAbility { options, .. }) if i < options.len() => Ok(()),
                    Some(Pending::ChooseAbilityDraw { .. }) if i < 2 => Ok(()),
                    Some(Pending::OrderFeatures { cards }) => self.check_order_features(cards, i),
                    _ => Err(RuleError::WrongStep { expected: "an option to be chosen" }),
                }
            }
            Action::RemoveActionCard { card } => match pending {
                Some(Pending::RemoveCards { hero, .. }) => self.check_remove_card(*hero, *card),
                _ => Err(RuleError::WrongStep { expected: "Action Cards to be Removed" }),
            },
            _ => Err(RuleError::WrongStep { expected: "a choice" }),
        }
    }

    pub(crate) fn apply_decision(&mut self, action: Action, events: &mut Vec<Event>) {
        match action {
            Action::ChooseHero { hero } => self.choose_hero(hero, events),
            Action::ChooseOption { index } => {
                let Some(p) = self.adv_mut().pending.first().cloned() else { return };
                self.adv_mut().pending.remove(0);
                let i = usize::from(index);
                match p {
                    Pending::ChooseItem { hero, options } => self.choose_item(hero, options, i, events),
                    Pending::ChooseAbilityDraw { hero } => self.choose_ability_draw(hero, i, events),
                    Pending::ChooseAbility { hero, options } => self.choose_ability(hero, options, i, events),
                    Pending::OrderFeatures { cards } => self.order_features(cards, i),
                    other => self.adv_mut().pending.insert(0, other),
                }
            }
            Action::RemoveActionCard { card } => self.remove_action_card(card),
            _ => unreachable!("check_decision refuses other actions"),
        }
    }

    /// "…the players choose 1 Hero": who draws or gains the Item, is healed,
    /// or takes the card's Damage (Armor does not reduce it outside Combat).
    pub(crate) fn choose_hero(&mut self, h: u8, events: &mut Vec<Event>) {
        let Some(Pending::ChooseHero(why)) = self.adv_mut().pending.first().cloned() else { return };
        self.adv_mut().pending.remove(0);
        match why {
            HeroChoice::DrawItem => self.draw_item_for(h, events),
            HeroChoice::GainItem(item) => self.gain_item(h, item, events),
            HeroChoice::Heal(amount) => {
                self.heal_hero(h, amount, events);
            }
            HeroChoice::Damage(amount) => self.damage_hero(h, amount, true, events),
        }
    }

    /// The answers to the choice play waits for.
    pub(crate) fn decision_candidates(&self, pending: &Pending) -> Vec<Action> {
        // Room for most lists at once: growing it was a tenth of the call.
        let mut out = Vec::with_capacity(CANDIDATES);
        let n = self.heroes.len() as u8;
        match pending {
            Pending::Purchase { .. } | Pending::SplitHealing { .. } => self.payment_candidates(&mut out),
            Pending::ChooseHero(_) => out.extend((0..n).map(|hero| Action::ChooseHero { hero })),
            Pending::ChooseItem { options, .. } => {
                out.extend((0..options.len() as u8).map(|index| Action::ChooseOption { index }));
            }
            Pending::ChooseAbilityDraw { .. } => out.extend((0..2).map(|index| Action::ChooseOption { index })),
            Pending::ChooseAbility { options, .. } => {
                out.extend((0..options.len() as u8).map(|index| Action::ChooseOption { index }));
            }
            Pending::OrderFeatures { cards } => self.order_candidates(cards, &mut out),
            Pending::RemoveCards { hero, .. } => {
                out.extend(self.heroes[*hero as usize].draw.iter().map(|c| Action::RemoveActionCard { card: c.id }));
            }
            Pending::LevelUp { .. } => self.level_up_candidates(&mut out),
            Pending::Passage { .. } => out.push(Action::Descend),
        }
        out
    }
}
