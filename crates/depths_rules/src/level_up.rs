//! "Level Up": Maximum Health up, Heal, Spells Refreshed, and each Hero may
//! buy one Ability (drawing two and keeping one; "Rules for Multi-Classed
//! Heroes" for how a two-class Hero draws).

use crate::action::Action;
use crate::adventure::{Pending, Purchase, class_index};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;
use crate::hero::{AbilityCard, HeroClass, OwnedAbility};

impl Game {
    /// "Level Up": max health up, Heal, Spells Refreshed, then Abilities may be bought.
    pub(crate) fn level_up(&mut self, events: &mut Vec<Event>) {
        let heal = !self.adv().options.variants.no_level_up_heal;
        for hero in &mut self.heroes {
            hero.level = (hero.level + 1).min(3);
            if heal {
                hero.health = hero.max_health();
            }
            hero.refresh_spells();
            // "Sil has 3 Power Cards, but the third one is only added to her
            // Action Card deck when she reaches level 3" — that card only: a
            // Power Card Removed with an Item stays out.
            let third = crate::hero::third_power_card(hero.mat.class);
            if hero.level == 3
                && let Some(i) = hero.out_of_deck.iter().position(|c| Some(c.id) == third)
            {
                let card = hero.out_of_deck.remove(i);
                hero.draw.push(card);
                hero.shuffle_draw(&mut self.rng);
            }
        }
        events.push(Event::LevelUp { level: self.heroes[0].level });
        let n = self.heroes.len();
        self.adv_mut().pending.push(Pending::LevelUp { bought: vec![false; n] });
    }

    /// A Hero played with both classes of an alternate Hero Mat.
    pub(crate) fn is_multi_classed(&self, h: u8) -> bool {
        self.heroes[h as usize].mat.secondary_class.is_some() && !self.adv().options.single_classed
    }

    /// Draws two Abilities for a Hero to keep one (Level Up, or a lower start);
    /// a multi-classed Hero first chooses which decks to draw from.
    pub(crate) fn offer_abilities(&mut self, h: u8, events: &mut Vec<Event>) {
        if self.is_multi_classed(h) {
            self.adv_mut().pending.push(Pending::ChooseAbilityDraw { hero: h });
        } else {
            let class = self.heroes[h as usize].mat.class;
            self.draw_abilities(h, [class, class], events);
        }
    }

    /// Queues the choice between the Ability Cards drawn from these decks.
    pub(crate) fn draw_abilities(&mut self, h: u8, decks: [HeroClass; 2], events: &mut Vec<Event>) {
        let adv = self.adv_mut();
        let mut options = Vec::new();
        for c in decks {
            if let Some(card) = adv.ability_decks[class_index(c)].pop() {
                options.push(card.into_inner());
            }
        }
        if !options.is_empty() {
            events
                .push(Event::CardsOffered { hero: h, names: options.iter().map(|o| o.ability.name.clone()).collect() });
            adv.pending.push(Pending::ChooseAbility { hero: h, options });
        }
    }

    /// "Starting at a Lower Ecology … Use the process described in Leveling Up":
    /// the next Hero still to Gain an Ability draws (or, multi-classed, chooses
    /// how to draw) once no Ability choice is waiting, so each pair is drawn
    /// after the choice before it and a card just put at the bottom of its pile
    /// may come again. Her choice comes before any other waiting (the Items').
    pub(crate) fn offer_next_ability(&mut self, events: &mut Vec<Event>) {
        let choosing = |p: &Pending| matches!(p, Pending::ChooseAbility { .. } | Pending::ChooseAbilityDraw { .. });
        while !self.adv().pending.iter().any(choosing) && !self.adv().abilities_to_gain.is_empty() {
            let adv = self.adv_mut();
            let h = adv.abilities_to_gain.remove(0);
            let rest = std::mem::take(&mut adv.pending);
            self.offer_abilities(h, events);
            self.adv_mut().pending.extend(rest);
        }
    }

    /// "Draw 1 from each of their Primary and Secondary Class Ability Decks"
    /// (option 0), or "Draw 2 from their Primary Class Ability Deck" (option 1).
    pub(crate) fn choose_ability_draw(&mut self, hero: u8, index: usize, events: &mut Vec<Event>) {
        let mat = &self.heroes[hero as usize].mat;
        let (p, s) = (mat.class, mat.secondary_class.unwrap_or(mat.class));
        // The choice of the two drawn comes first.
        let rest = std::mem::take(&mut self.adv_mut().pending);
        self.draw_abilities(hero, if index == 0 { [p, s] } else { [p, p] }, events);
        self.adv_mut().pending.extend(rest);
        self.offer_next_ability(events);
    }

    /// "…select one to keep, and place the other at the bottom of their Ability pile."
    pub(crate) fn choose_ability(
        &mut self,
        hero: u8,
        mut options: Vec<AbilityCard>,
        index: usize,
        events: &mut Vec<Event>,
    ) {
        let keep = options.remove(index);
        events.push(Event::AbilityGained { hero, name: keep.ability.name.clone() });
        for other in options {
            self.adv_mut().put_under_ability_deck(other);
        }
        self.heroes[hero as usize].abilities.push(OwnedAbility { card: keep, exhausted: false });
        self.offer_next_ability(events);
    }

    pub(crate) fn check_finish_level_up(&self) -> Result<(), RuleError> {
        match self.pending() {
            Some(Pending::LevelUp { .. }) => Ok(()),
            _ => Err(RuleError::WrongStep { expected: "Level Up" }),
        }
    }

    /// Level Up is over: "After Level Up, the current Ecology is complete".
    pub(crate) fn finish_level_up(&mut self, events: &mut Vec<Event>) {
        self.adv_mut().pending.remove(0);
        let current = self.adv().ecology.ecology;
        self.adv_mut().record.ecologies_cleared.push(current);
        if let Some(next) = current.next() {
            self.adv_mut().pending.push(Pending::Passage { next });
            events.push(Event::EcologyCompleted { ecology: current, next });
        }
    }

    /// Buying Abilities, or being done with Level Up.
    pub(crate) fn level_up_candidates(&self, out: &mut Vec<Action>) {
        out.extend((0..self.heroes.len() as u8).map(|hero| Action::StartPurchase { what: Purchase::Ability { hero } }));
        out.push(Action::FinishLevelUp);
    }
}
