//! The one interpreter of card and ability [`Effect`]s. An effect does what
//! its text says wherever it is met; the [`EffectContext`] says who is acting
//! (a card the Heroes Encounter, a Hero's ability, a Monster's ability) and
//! whether a Combat is on, which settles what "the Hero" and Armor mean.

use crate::action::Target;
use crate::adventure::{HeroChoice, MAX_KEYS, Pending};
use crate::combat::DamagePacket;
use crate::effect::{Effect, Whom};
use crate::event::Event;
use crate::game::Game;
use crate::shared::Shared;

/// Who an effect acts for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum EffectContext {
    /// A Feature or Legendary Location card the Heroes Encounter.
    Card,
    /// A Hero's activated ability, with its target; a Spell's attacks are (Magic).
    Hero { hero: u8, target: Target, spell: bool },
    /// A Monster's Power-Activated ability, "against the Hero the Power Card was drawn against".
    Monster { foe: u8, hero: u8 },
}

impl Game {
    /// The Heroes an effect on `whom` touches; `None` when the players choose
    /// (a card's "a Hero").
    fn affected(&self, whom: Whom, ctx: EffectContext) -> Option<Vec<u8>> {
        let all = || (0..self.heroes.len() as u8).collect();
        match (whom, ctx) {
            // "If the Ability explicitly refers to "Heroes" (plural), then all Heroes are affected."
            (Whom::Heroes, _) => Some(all()),
            (_, EffectContext::Card) => None,
            (Whom::ChosenHero, EffectContext::Hero { target: Target::Hero(t), .. }) => Some(vec![t]),
            (_, EffectContext::Hero { hero, .. } | EffectContext::Monster { hero, .. }) => Some(vec![hero]),
        }
    }

    /// Carries out one effect now.
    pub(crate) fn resolve_effect(&mut self, effect: &Effect, ctx: EffectContext, events: &mut Vec<Event>) {
        let n = self.heroes.len() as u8;
        let in_combat = self.combat.is_some();
        let (acting, target, spell) = match ctx {
            EffectContext::Hero { hero, target, spell } => (Some(hero), target, spell),
            _ => (None, Target::None, false),
        };
        match effect {
            &Effect::DamageHeroes { amount, whom, ignore_armor } => match self.affected(whom, ctx) {
                // "Armor only reduces damage taken during Combat, unless a card … says otherwise."
                Some(heroes) => {
                    for h in heroes {
                        self.damage_hero(h, amount, ignore_armor || !in_combat, events);
                    }
                }
                None => self.adv_mut().pending.push(Pending::ChooseHero(HeroChoice::Damage(amount))),
            },
            &Effect::HealHeroes { amount, whom } => match self.affected(whom, ctx) {
                Some(heroes) => {
                    for h in heroes {
                        self.heal_hero(h, amount, events);
                    }
                }
                None => self.adv_mut().pending.push(Pending::ChooseHero(HeroChoice::Heal(amount))),
            },
            &Effect::DamageMonster { amount, magic } => {
                let (Some(h), Target::Individual { foe, individual }, true) = (acting, target, in_combat) else {
                    return;
                };
                // "A Wizard's Spells are considered (Magic) attacks."
                let magic = magic || spell || self.heroes[h as usize].has_magic();
                // It lands now; with the Round's other Damage it is settled in step 5.
                let p = DamagePacket { hero: h, foe, amount, magic, overflow: false, individual: None, owners: 0 };
                self.add_ability_damage(p, individual, events);
            }
            &Effect::HealMonster { amount } => {
                let EffectContext::Monster { foe, .. } = ctx else { return };
                let f = &mut self.cbt().foes[foe as usize];
                for (i, ind) in f.individuals.iter_mut().enumerate() {
                    if ind.alive() && ind.health < ind.max_health {
                        let healed = amount.min(ind.max_health - ind.health);
                        ind.health += healed;
                        events.push(Event::MonsterHealed { foe, individual: i as u8, amount: healed });
                    }
                }
            }
            Effect::SwapPlayedCards => {
                let (Target::Engagement(e), true) = (target, in_combat) else { return };
                let slots = &mut self.cbt().engagements[e as usize].slots;
                let (a, b) = ((slots[0].hero, slots[0].hero_delta), (slots[1].hero, slots[1].hero_delta));
                (slots[0].hero, slots[0].hero_delta, slots[1].hero, slots[1].hero_delta) = (b.0, b.1, a.0, a.1);
            }
            &Effect::ModifyPlayedCard { delta } => {
                let (Target::HeroSlot { engagement, slot }, true) = (target, in_combat) else { return };
                let s = &mut self.cbt().engagements[engagement as usize].slots[slot as usize];
                s.hero_delta = s.hero_delta.saturating_add(delta);
            }
            &Effect::ModifyMonsterCard { delta } => {
                let (Target::MonsterSlot { engagement, slot }, true) = (target, in_combat) else { return };
                let s = &mut self.cbt().engagements[engagement as usize].slots[slot as usize];
                s.monster_delta = s.monster_delta.saturating_add(delta);
            }
            Effect::RedrawMonsterCard => {
                let (Some(h), Target::MonsterSlot { engagement, slot }, true) = (acting, target, in_combat) else {
                    return;
                };
                let e = &mut self.cbt().engagements[engagement as usize];
                let foe = e.foe;
                let Some(old) = e.slots[slot as usize].monster.take() else { return };
                e.slots[slot as usize].monster_delta = 0;
                let d = self.cbt().foes[foe as usize].difficulty;
                self.monster_decks[d.index()].discard.push(old);
                let new = self.monster_draw(foe, h, events);
                if let Some(c) = self.combat.as_mut() {
                    c.engagements[engagement as usize].slots[slot as usize].monster = new;
                }
                if let Some(card) = new {
                    events.push(Event::MonsterCardPlayed { foe, engagement, slot: Some(slot), card });
                }
            }
            Effect::ReplacePlayedCard => {
                let (Some(h), Target::HeroSlot { engagement, slot }, true) = (acting, target, in_combat) else {
                    return;
                };
                // "Any Action Cards Drawn for a Hero's Ability are Discarded at the end of the Round."
                let Some(new) = self.draw_action_card(h, true, events) else { return };
                events.push(Event::CardsDrawn { hero: h, count: 1 });
                let s = &mut self.cbt().engagements[engagement as usize].slots[slot as usize];
                let old = s.hero.replace(new);
                s.hero_delta = 0;
                self.heroes[h as usize].discard.extend(old);
            }
            &Effect::BonusDamage { amount } => {
                let (Some(h), true) = (acting, in_combat) else { return };
                let r = &mut self.cbt().heroes[h as usize];
                r.bonus_damage = r.bonus_damage.saturating_add(amount);
            }
            Effect::IgnoreResults => {
                let (Some(h), true) = (acting, in_combat) else { return };
                self.cbt().heroes[h as usize].ignore_results = true;
            }
            &Effect::Armor { amount } => {
                let (Some(h), true) = (acting, in_combat) else { return };
                let r = &mut self.cbt().heroes[h as usize];
                r.armor = r.armor.saturating_add(amount);
            }
            Effect::Magic => {
                let (Some(h), true) = (acting, in_combat) else { return };
                self.cbt().heroes[h as usize].magic = true;
            }
            &Effect::PlayOneCardNextRound { whom } => {
                let (Some(heroes), true) = (self.affected(whom, ctx), in_combat) else { return };
                for h in heroes {
                    self.cbt().play_one_next_round[h as usize] = true;
                }
            }
            &Effect::LoseStoredPower { whom } => {
                for h in self.affected(whom, ctx).unwrap_or_else(|| (0..n).collect()) {
                    let hero = &mut self.heroes[h as usize];
                    if let Some(card) = hero.stored_power.pop() {
                        hero.discard.push(card);
                    }
                }
            }
            Effect::Retrieve => {
                // "Retrieve - Collect a Card from your Discard Pile and put it on top of your Draw Pile."
                let (Some(h), Target::DiscardCard(id)) = (acting, target) else { return };
                let hero = &mut self.heroes[h as usize];
                if let Some(i) = hero.discard.iter().position(|c| c.id == id) {
                    let card = hero.discard.remove(i);
                    hero.put_on_draw_pile(card);
                }
            }
            Effect::RefreshSpells => match acting {
                Some(h) => self.heroes[h as usize].refresh_spells(),
                None => self.heroes.iter_mut().for_each(|h| h.refresh_spells()),
            },
            Effect::Test { target, cards, success, failure } => {
                self.feature_test(*target, *cards, success, failure, events);
            }
            &Effect::Keys { amount } => {
                let adv = self.adv_mut();
                adv.keys = (i16::from(adv.keys) + i16::from(amount)).clamp(0, i16::from(MAX_KEYS)) as u8;
                events.push(Event::KeysChanged { keys: adv.keys });
            }
            Effect::UnlockDoor => match target {
                // Whatever unlocks a Door unlocks a Locked Chest too.
                Target::Element(element) => self.open_element(element, false, events),
                // A card that unlocks, with no Door at hand, is as good as a Key.
                _ => {
                    let adv = self.adv_mut();
                    adv.keys = adv.keys.saturating_add(1).min(MAX_KEYS);
                    events.push(Event::KeysChanged { keys: adv.keys });
                }
            },
            Effect::DrawItem => self.adv_mut().pending.push(Pending::ChooseHero(HeroChoice::DrawItem)),
            Effect::GainItem { item } => {
                if let Some(card) = self.adv().content.item(item).cloned() {
                    // Only when some Hero may select it (see `may_select_item`).
                    if (0..n).any(|h| self.may_select_item(h, &card)) {
                        self.adv_mut().pending.push(Pending::ChooseHero(HeroChoice::GainItem(card)));
                    } else {
                        crate::event::note(events, format!("No Hero can take {}.", card.name));
                    }
                }
            }
            Effect::FightMonster => {
                let Some(card) = self.adv_mut().ecology.monsters.pop().map(Shared::into_inner) else { return };
                self.fight_monsters(vec![card], events);
            }
            Effect::FightNamedMonster { monster } => {
                let eco = self.adv().content.ecology(self.adv().ecology.ecology);
                let Some(card) = eco.monsters.iter().chain(&eco.stair_guardians).find(|m| &m.id == monster).cloned()
                else {
                    return;
                };
                self.fight_monsters(vec![card], events);
            }
            Effect::ShuffleIntoMonsters { monster } => self.shuffle_into_monsters(monster, events),
            &Effect::RevealFeatures { count } => self.reveal_features(count),
            Effect::StorePower => {
                // Said for each Hero, stored or not: a Hero whose Power Cards
                // were all stored already gained nothing, and a player saw
                // the reward "never happen".
                for h in &mut self.heroes {
                    let card = if let Some(i) = h.draw.iter().position(|c| c.power) {
                        Some(h.take_from_draw(i))
                    } else {
                        h.discard.iter().position(|c| c.power).map(|i| h.discard.remove(i))
                    };
                    let text = match card {
                        Some(card) => {
                            h.stored_power.push(card);
                            format!("{} Stores a Power Card ({} stored).", h.name(), h.stored_power.len())
                        }
                        None => format!("{} has no Power Card in the Draw or Discard Pile to Store.", h.name()),
                    };
                    crate::event::note(events, text);
                }
            }
            &Effect::GoToPile { letter } => self.go_to_pile(letter),
            // Standing qualities, read where they matter (Armor, Resistance, card bonus, wounds).
            Effect::ResistNonMagic | Effect::MonsterCardBonus { .. } | Effect::WoundEachRound { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Content, GameOptions};

    /// A Feature's "Each Hero Stores a Power Card from their Draw or
    /// Discard Pile": a Hero with one left Stores it; one whose Power Cards
    /// are all stored already gains nothing, and the log says so for each
    /// (a player saw the reward "never happen").
    #[test]
    fn store_power_stores_one_each_and_says_so_for_every_hero() {
        let mut game = Game::new(GameOptions::standard(&["bren", "sil"], 1), Content::builtin().unwrap()).unwrap();
        let sil = &mut game.heroes[1];
        let powers: Vec<_> = sil.draw.iter().chain(&sil.discard).filter(|c| c.power).copied().collect();
        sil.draw.retain(|c| !c.power);
        sil.discard.retain(|c| !c.power);
        sil.stored_power.extend(powers);
        // Bren's Power Cards start stored; one went to his Discard Pile since.
        let bren = &mut game.heroes[0];
        let spent = bren.stored_power.pop().expect("Bren starts with stored Power");
        bren.discard.push(spent);
        let (bren_had, sil_had) = (game.heroes[0].stored_power.len(), game.heroes[1].stored_power.len());
        let mut events = Vec::new();
        game.resolve_effect(&Effect::StorePower, EffectContext::Card, &mut events);
        assert_eq!(game.heroes[0].stored_power.len(), bren_had + 1, "Bren Stores one");
        assert_eq!(game.heroes[1].stored_power.len(), sil_had, "Sil has none left to Store");
        let notes: Vec<&str> = events
            .iter()
            .filter_map(|e| if let Event::Note { text } = e { Some(text.as_str()) } else { None })
            .collect();
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].starts_with("Bren Stores a Power Card") && notes[1].starts_with("Sil has no Power Card"));
    }
}
