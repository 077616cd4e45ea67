//! "2. Play Cards": the Heroes play from their Hands, then the Monsters draw
//! and play against each Hero they are assigned to, Activating their
//! Power-Activated Abilities on a Power Card.

use super::{Combat, CombatStep, Slot};
use crate::action_card::{ActionCard, CardId};
use crate::effect::{Effect, Whom};
use crate::effect_resolution::EffectContext;
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;

impl Game {
    pub(crate) fn check_play_card(&self, c: &Combat, hero: u8, card: CardId) -> Result<(), RuleError> {
        super::steps::step_is(c, CombatStep::PlayCards, "Heroes to play cards")?;
        self.may_act(c, hero)?;
        self.heroes[hero as usize].find_hand(card).map(|_| ()).ok_or(RuleError::CardNotInHand)
    }

    pub(crate) fn play_card(&mut self, hero: u8, card: CardId, events: &mut Vec<Event>) {
        let h = &mut self.heroes[hero as usize];
        let i = h.find_hand(card).expect("checked");
        let card = h.hand.remove(i);
        let c = self.cbt();
        let e = c.playing_engagement(hero).expect("checked");
        let en = &mut c.engagements[e];
        en.slots.push(Slot { hero: Some(card), ..Slot::default() });
        events.push(Event::CardPlayed { hero, engagement: e as u8, slot: en.played() - 1, card });
        self.advance_play(events);
    }

    /// "If a Monster only Plays 1 Action Card against a Hero, that Hero may move
    /// it opposite either of their Played Action Cards."
    pub(crate) fn check_place_monster_card(&self, c: &Combat, hero: u8, slot: u8) -> Result<(), RuleError> {
        super::steps::step_is(c, CombatStep::PlaceMonsterCard, "a Monster Card to be placed")?;
        self.may_act(c, hero)?;
        let e = c.engagements.iter().find(|e| e.hero == hero && e.waiting.is_some()).ok_or(RuleError::NothingToDo)?;
        if usize::from(slot) < e.slots.len() { Ok(()) } else { Err(RuleError::NoSuchSlot) }
    }

    pub(crate) fn place_monster_card(&mut self, hero: u8, slot: u8, events: &mut Vec<Event>) {
        let c = self.cbt();
        let e = c.engagements.iter().position(|e| e.hero == hero && e.waiting.is_some()).expect("checked");
        let card = c.engagements[e].waiting.take();
        c.engagements[e].slots[slot as usize].monster = card;
        events.push(Event::MonsterCardMoved { engagement: e as u8, slot });
        self.after_monsters_play(events);
    }

    /// "Monsters Play after the Heroes": once per Hero they are assigned to.
    pub(crate) fn monsters_play(&mut self, events: &mut Vec<Event>) {
        let group = self.cbt().group;
        let list: Vec<usize> =
            (0..self.cbt().engagements.len()).filter(|&e| self.cbt().engagements[e].group == group).collect();
        for e in list {
            let (hero, foe, count) = {
                let en = &self.cbt().engagements[e];
                (en.hero, en.foe, en.monster_cards)
            };
            let mut cards = Vec::new();
            for _ in 0..count {
                if self.is_over() {
                    break;
                }
                if let Some(card) = self.monster_draw(foe, hero, events) {
                    cards.push(card);
                }
            }
            let en = &mut self.cbt().engagements[e];
            let played = en.played();
            match (played, cards.len()) {
                (2, 1) => en.waiting = Some(cards[0]),
                (1, 2) => {
                    // "move it opposite the highest-value Monster Action Card played against that Hero"
                    let hi = if cards[1].value > cards[0].value { 1 } else { 0 };
                    en.slots[0].monster = Some(cards[hi]);
                    en.unpaired.push(cards[1 - hi]);
                }
                _ => {
                    for (i, card) in cards.into_iter().enumerate() {
                        match en.slots.get_mut(i) {
                            Some(slot) => slot.monster = Some(card),
                            None => en.unpaired.push(card),
                        }
                    }
                }
            }
            let en = &self.cbt().engagements[e];
            for (i, s) in en.slots.iter().enumerate() {
                if let Some(card) = s.monster {
                    events.push(Event::MonsterCardPlayed { foe, engagement: e as u8, slot: Some(i as u8), card });
                }
            }
            for &card in &en.unpaired {
                events.push(Event::MonsterCardPlayed { foe, engagement: e as u8, slot: None, card });
            }
            if let Some(card) = en.waiting {
                events.push(Event::MonsterCardWaiting { foe, engagement: e as u8, card });
            }
        }
        if !self.is_over() {
            self.after_monsters_play(events);
        }
    }

    pub(crate) fn after_monsters_play(&mut self, events: &mut Vec<Event>) {
        let c = self.cbt();
        if c.engagements.iter().any(|e| e.waiting.is_some()) {
            c.step = CombatStep::PlaceMonsterCard;
            return;
        }
        let next = c.group + 1;
        if c.engagements.iter().any(|e| e.group == next) {
            self.begin_group(next, events);
        } else {
            c.step = CombatStep::Resolve;
        }
    }

    /// Draws a Monster Action Card for `foe` against `hero`, Activating its
    /// Power-Activated abilities on a Power Card ("Drawing a Monster Power Card").
    pub(crate) fn monster_draw(&mut self, foe: u8, hero: u8, events: &mut Vec<Event>) -> Option<ActionCard> {
        let difficulty = self.cbt().foes[foe as usize].difficulty;
        // Power Cards go back to the deck as they are drawn: a deck with no
        // numbered card left off the table (a few-card deck of a scenario)
        // would deal them for ever. Once every card has come up, none is played.
        let mut left = self.monster_decks[difficulty.index()].len_total() + 1;
        loop {
            if left == 0 {
                return None;
            }
            left -= 1;
            let deck = &mut self.monster_decks[difficulty.index()];
            let reshuffle = deck.draw.is_empty() && !deck.discard.is_empty();
            let card = deck.draw(&mut self.rng)?;
            if reshuffle {
                events.push(Event::MonsterDeckReshuffled { foe });
            }
            if !card.power {
                return Some(card);
            }
            events.push(Event::MonsterPowerDrawn { foe, hero });
            let f = &self.cbt().foes[foe as usize];
            if f.power_used_this_round || f.power_lists.is_empty() {
                events.push(Event::MonsterPowerWasted { foe });
            } else {
                self.activate_monster_power(foe, hero, events);
            }
            self.monster_decks[difficulty.index()].discard.push(card);
            if self.is_over() {
                return None;
            }
        }
    }

    pub(crate) fn activate_monster_power(&mut self, foe: u8, hero: u8, events: &mut Vec<Event>) {
        let f = &mut self.cbt().foes[foe as usize];
        f.power_used_this_round = true;
        let mut abilities = Vec::new();
        for i in 0..f.power_lists.len() {
            if !f.power_list_active(&f.power_lists[i]) {
                continue;
            }
            let list = &mut f.power_lists[i];
            abilities.push(list.abilities[list.next].clone());
            list.next = (list.next + 1) % list.abilities.len();
        }
        for ability in abilities {
            let whom_all = ability.effects.iter().any(|e| {
                matches!(
                    e,
                    Effect::DamageHeroes { whom: Whom::Heroes, .. }
                        | Effect::PlayOneCardNextRound { whom: Whom::Heroes }
                        | Effect::LoseStoredPower { whom: Whom::Heroes }
                )
            });
            let heroes: Vec<u8> = if whom_all { (0..self.heroes.len() as u8).collect() } else { vec![hero] };
            events.push(Event::MonsterAbility { foe, name: ability.name.clone(), heroes });
            for effect in &ability.effects {
                self.resolve_effect(effect, EffectContext::Monster { foe, hero }, events);
            }
        }
    }
}
