//! "Combat": Setup, the six Combat Steps, and Combat with the Final Entity.
//!
//! Heroes act in Hero order where the book has them act simultaneously; the
//! outcome is the same because no Hero sees anything new from another's choice
//! before the Monsters play.

mod combat_pair;
mod foe;

pub use combat_pair::{Outcome, Slot, may_choose, may_choose_outcome};
pub use foe::{FinalEntity, Foe, FoeCard, Individual, PowerList};

use serde::{Deserialize, Serialize};

use crate::action::{Action, Target};
use crate::action_card::ActionCard;
use crate::effect::{Ability, Activation, Effect, TargetKind, Whom, is_exploring_effect};
use crate::error::RuleError;
use crate::event::{Event, LossReason};
use crate::game::{Game, Stage};
use crate::hero::AbilitySource;

/// Where a Round stands; the client mirrors this as a Bevy sub-state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CombatStep {
    /// Two Monster Cards: the players assign them to Heroes.
    AssignMonsters,
    /// "1. Draw Cards" is automatic; Heroes play their cards.
    PlayCards,
    /// A Monster played 1 card against 2: the Hero places it.
    PlaceMonsterCard,
    /// "3. Evaluate Combat Pairs" and "4. Activate Hero Abilities".
    Resolve,
    /// "5. Apply Damage": a Hero picks the individual Monster to damage.
    AssignDamage,
    /// Several Heroes defeated an individual together: who avoids Return Damage.
    AvoidReturnDamage,
}

/// One Hero facing one Monster Card for a Round (a single Hero facing two
/// Monster Cards has two engagements, played one after the other).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Engagement {
    pub hero: u8,
    pub foe: u8,
    /// 0 for the Hero's first Monster Card, 1 for the second.
    pub group: u8,
    pub hero_cards: u8,
    pub monster_cards: u8,
    pub slots: Vec<Slot>,
    /// Monster Cards with no Hero card opposite them.
    pub unpaired: Vec<ActionCard>,
    /// A Monster's single card waiting to be placed by the Hero.
    pub waiting: Option<ActionCard>,
    pub chosen: Option<u8>,
}

impl Engagement {
    fn played(&self) -> u8 {
        self.slots.iter().filter(|s| s.hero.is_some()).count() as u8
    }
}

/// A Hero's choices and modifiers for the current Round.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HeroRound {
    pub done: bool,
    pub block_ability_used: bool,
    pub bonus_damage: u8,
    pub armor: u8,
    pub ignore_results: bool,
    /// An ability made the Hero's attacks (Magic) this Round. Casting a Spell
    /// does not: only the Spell's own attack is (Magic).
    pub magic: bool,
    /// "All of a Hero's Damage must be applied to one Individual Monster": the
    /// individual (foe, individual) the Hero's Damage went to this Round.
    #[serde(default)]
    pub target: Option<(u8, u8)>,
    pub avoids_return_damage: bool,
    pub play_one_card: bool,
}

/// Damage a Hero still has to put on an individual Monster.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DamagePacket {
    pub hero: u8,
    pub foe: u8,
    pub amount: u8,
    pub magic: bool,
    /// Horde overflow: already reduced once, not again.
    pub overflow: bool,
}

/// An individual defeated this Round and the Heroes whose damage did it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Kill {
    pub foe: u8,
    pub individual: u8,
    pub contributors: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Combat {
    pub foes: Vec<Foe>,
    /// The Monster Cards each Hero fights.
    pub assignment: Vec<Vec<u8>>,
    pub round: u32,
    pub step: CombatStep,
    /// Which of a Hero's engagements is being played (steps 1–2 repeat per card).
    pub group: u8,
    pub engagements: Vec<Engagement>,
    pub heroes: Vec<HeroRound>,
    pub play_one_next_round: Vec<bool>,
    pub packets: Vec<DamagePacket>,
    /// (foe, individual, hero) for every hit that took health this Round.
    pub hits: Vec<(u8, u8, u8)>,
    pub kills: Vec<Kill>,
    /// Kills still waiting for the players to name the Hero who avoids Return Damage.
    pub avoid_queue: Vec<usize>,
}

impl Combat {
    /// "All Heroes perform each Step simultaneously": every Hero who still has
    /// something to do in this step, in Hero order. Any of them may act next;
    /// the step ends when none is left.
    pub fn heroes_to_act(&self) -> Vec<u8> {
        let mut heroes: Vec<u8> = match self.step {
            CombatStep::AssignMonsters | CombatStep::AvoidReturnDamage => Vec::new(),
            CombatStep::PlayCards => {
                (0..self.heroes.len() as u8).filter(|&h| self.playing_engagement(h).is_some()).collect()
            }
            CombatStep::PlaceMonsterCard => {
                self.engagements.iter().filter(|e| e.waiting.is_some()).map(|e| e.hero).collect()
            }
            CombatStep::Resolve => (0..self.heroes.len() as u8).filter(|&h| !self.heroes[h as usize].done).collect(),
            CombatStep::AssignDamage => self.packets.iter().map(|p| p.hero).collect(),
        };
        heroes.sort_unstable();
        heroes.dedup();
        heroes
    }

    /// The first Hero who may act (see [`Combat::heroes_to_act`]).
    pub fn acting_hero(&self) -> Option<u8> {
        self.heroes_to_act().first().copied()
    }

    /// Whether `hero` may act in the current step.
    pub fn may_act(&self, hero: u8) -> bool {
        self.heroes_to_act().contains(&hero)
    }

    /// The engagement in which `hero` must still play a card this group.
    pub fn playing_engagement(&self, hero: u8) -> Option<usize> {
        self.engagements.iter().position(|e| e.hero == hero && e.group == self.group && e.played() < e.hero_cards)
    }

    /// The engagement holding the Combat Pair `hero` chose to Resolve this Round.
    pub fn chosen_engagement(&self, hero: u8) -> Option<usize> {
        self.engagements.iter().position(|e| e.hero == hero && e.chosen.is_some())
    }

    /// Every full Combat Pair in front of `hero`, as (engagement, slot, outcome).
    pub fn pairs_of(&self, hero: u8) -> Vec<(usize, u8, Outcome)> {
        let mut out = Vec::new();
        for (e, en) in self.engagements_of(hero) {
            let bonus = self.foes[en.foe as usize].card_bonus;
            for (s, slot) in en.slots.iter().enumerate() {
                if let Some(o) = slot.outcome(bonus) {
                    out.push((e, s as u8, o));
                }
            }
        }
        out
    }

    pub fn engagements_of(&self, hero: u8) -> impl Iterator<Item = (usize, &Engagement)> {
        self.engagements.iter().enumerate().filter(move |(_, e)| e.hero == hero)
    }

    pub fn is_over(&self) -> bool {
        self.foes.iter().all(Foe::is_defeated)
    }
}

impl Game {
    pub fn combat(&self) -> Option<&Combat> {
        self.combat.as_ref()
    }

    fn cbt(&mut self) -> &mut Combat {
        self.combat.as_mut().expect("in Combat")
    }

    /// "Combat Setup": health tokens are part of each [`Foe`]; then Monsters
    /// are assigned to Heroes.
    pub fn start_combat(&mut self, foes: Vec<Foe>) -> Vec<Event> {
        let mut events = vec![Event::CombatStarted { foes: foes.iter().map(|f| f.name().to_string()).collect() }];
        let n = self.heroes.len();
        let two_cards = foes.len() == 2;
        self.combat = Some(Combat {
            assignment: vec![Vec::new(); n],
            round: 0,
            step: CombatStep::AssignMonsters,
            group: 0,
            engagements: Vec::new(),
            heroes: vec![HeroRound::default(); n],
            play_one_next_round: vec![false; n],
            packets: Vec::new(),
            hits: Vec::new(),
            kills: Vec::new(),
            avoid_queue: Vec::new(),
            foes,
        });
        self.stage = Stage::Combat;
        if two_cards && n >= 2 {
            // "The players decide which Monster will be assigned to which hero."
            return events;
        }
        // One card: everyone fights it. One Hero: they fight both.
        let all: Vec<u8> = (0..self.cbt().foes.len() as u8).collect();
        self.cbt().assignment = vec![all; n];
        self.start_round(&mut events);
        events
    }

    fn start_round(&mut self, events: &mut Vec<Event>) {
        let n = self.heroes.len();
        let c = self.combat.as_mut().expect("in Combat");
        c.round += 1;
        events.push(Event::RoundStarted { round: c.round });
        for f in &mut c.foes {
            f.power_used_this_round = false;
        }
        let alive: Vec<u8> = (0..c.foes.len() as u8).filter(|&f| !c.foes[f as usize].is_defeated()).collect();
        // "Once it is [Defeated], they join their allies … to Combat any remaining Monster Cards."
        for a in &mut c.assignment {
            a.retain(|f| alive.contains(f));
            if a.is_empty() {
                a.clone_from(&alive);
            }
        }
        c.heroes =
            (0..n).map(|h| HeroRound { play_one_card: c.play_one_next_round[h], ..HeroRound::default() }).collect();
        c.play_one_next_round = vec![false; n];
        c.engagements.clear();
        c.hits.clear();
        c.kills.clear();
        for h in 0..n {
            for (g, &f) in c.assignment[h].iter().enumerate() {
                let (monster, hero) = c.foes[f as usize].cards_to_play();
                let hero = if c.heroes[h].play_one_card { 1 } else { hero };
                c.engagements.push(Engagement {
                    hero: h as u8,
                    foe: f,
                    group: g as u8,
                    hero_cards: hero,
                    monster_cards: monster,
                    slots: Vec::new(),
                    unpaired: Vec::new(),
                    waiting: None,
                    chosen: None,
                });
            }
        }
        c.engagements.sort_by_key(|e| (e.group, e.hero));
        self.begin_group(0, events);
    }

    /// Steps 1–2 for one Monster Card per Hero.
    fn begin_group(&mut self, group: u8, events: &mut Vec<Event>) {
        let c = self.cbt();
        c.group = group;
        c.step = CombatStep::PlayCards;
        let heroes: Vec<u8> = c.engagements.iter().filter(|e| e.group == group).map(|e| e.hero).collect();
        for h in heroes {
            self.draw_hand(h, 3, events);
        }
        self.advance_play(events);
    }

    /// Draws up to a hand of `size`, reporting drawn and Stored Power cards.
    fn draw_hand(&mut self, h: u8, size: usize, events: &mut Vec<Event>) {
        let hero = &mut self.heroes[h as usize];
        let (hand, stored) = (hero.hand.len(), hero.stored_power.len());
        hero.draw_up_to(size);
        for _ in stored..hero.stored_power.len() {
            events.push(Event::PowerStored { hero: h });
        }
        if hero.hand.len() > hand {
            events.push(Event::CardsDrawn { hero: h, count: (hero.hand.len() - hand) as u8 });
        }
    }

    /// Refills the hand of every Hero who must still play but holds nothing,
    /// then, once no Hero has a card left to play, lets the Monsters play.
    fn advance_play(&mut self, events: &mut Vec<Event>) {
        if self.is_over() {
            return;
        }
        for h in 0..self.heroes.len() as u8 {
            let Some(e) = self.cbt().playing_engagement(h) else { continue };
            if !self.heroes[h as usize].hand.is_empty() {
                continue; // waiting for PlayCard
            }
            let played = self.cbt().engagements[e].played();
            // "If, after that, they still need to Play Cards, they shuffle their
            // Discard to form a new Draw Pile and Draw up to a total of 3 minus
            // the Card(s) just played."
            if self.heroes[h as usize].draw.is_empty() && !self.heroes[h as usize].discard.is_empty() {
                let rng = &mut self.rng;
                self.heroes[h as usize].reshuffle_discard(rng);
                events.push(Event::DiscardReshuffled { hero: h });
            }
            self.draw_hand(h, 3usize.saturating_sub(played.into()).max(1), events);
            if self.heroes[h as usize].hand.is_empty() {
                // No card left anywhere: the Hero plays what they could.
                self.cbt().engagements[e].hero_cards = played;
                events.push(Event::CannotPlay { hero: h });
            }
        }
        if self.cbt().heroes_to_act().is_empty() {
            self.monsters_play(events);
        }
    }

    /// "Monsters Play after the Heroes": once per Hero they are assigned to.
    fn monsters_play(&mut self, events: &mut Vec<Event>) {
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
        }
        if !self.is_over() {
            self.after_monsters_play(events);
        }
    }

    fn after_monsters_play(&mut self, events: &mut Vec<Event>) {
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
    fn monster_draw(&mut self, foe: u8, hero: u8, events: &mut Vec<Event>) -> Option<ActionCard> {
        loop {
            let difficulty = self.cbt().foes[foe as usize].difficulty;
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

    fn activate_monster_power(&mut self, foe: u8, hero: u8, events: &mut Vec<Event>) {
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
                self.monster_effect(foe, hero, effect, events);
            }
        }
    }

    fn targets(&self, whom: Whom, hero: u8) -> Vec<u8> {
        match whom {
            Whom::Heroes => (0..self.heroes.len() as u8).collect(),
            Whom::Hero | Whom::ChosenHero => vec![hero],
        }
    }

    fn monster_effect(&mut self, foe: u8, hero: u8, effect: &Effect, events: &mut Vec<Event>) {
        match *effect {
            Effect::DamageHeroes { amount, whom, ignore_armor } => {
                for h in self.targets(whom, hero) {
                    self.damage_hero(h, amount, ignore_armor, events);
                }
            }
            Effect::HealMonster { amount } => {
                let f = &mut self.cbt().foes[foe as usize];
                for (i, ind) in f.individuals.iter_mut().enumerate() {
                    if ind.alive() && ind.health < ind.max_health {
                        let healed = amount.min(ind.max_health - ind.health);
                        ind.health += healed;
                        events.push(Event::MonsterHealed { foe, individual: i as u8, amount: healed });
                    }
                }
            }
            Effect::PlayOneCardNextRound { whom } => {
                for h in self.targets(whom, hero) {
                    self.cbt().play_one_next_round[h as usize] = true;
                }
            }
            Effect::LoseStoredPower { whom } => {
                for h in self.targets(whom, hero) {
                    let hero = &mut self.heroes[h as usize];
                    if let Some(card) = hero.stored_power.pop() {
                        hero.discard.push(card);
                    }
                }
            }
            // Content validation keeps Hero-only effects off Monster cards.
            _ => {}
        }
    }

    /// Damage to a Hero in Combat; Armor reduces each separate source.
    pub(crate) fn damage_hero(&mut self, h: u8, amount: u8, ignore_armor: bool, events: &mut Vec<Event>) {
        let armor = if ignore_armor {
            0
        } else {
            self.heroes[h as usize].armor() + self.combat.as_ref().map_or(0, |c| c.heroes[h as usize].armor)
        };
        let hero = &mut self.heroes[h as usize];
        let dealt = amount.saturating_sub(armor).min(hero.health);
        hero.health -= dealt;
        if dealt > 0 {
            events.push(Event::HeroDamaged { hero: h, amount: dealt });
        }
        if hero.health == 0 {
            self.lose(LossReason::HeroDefeated { hero: h }, events);
        }
    }

    /// Step 3 is complete for every Hero: work out their damage (step 5) from
    /// the one Combat Pair each Resolves.
    fn begin_damage(&mut self, events: &mut Vec<Event>) {
        let n = self.heroes.len();
        let mut packets = Vec::new();
        for h in 0..n as u8 {
            let c = self.combat.as_ref().expect("in Combat");
            let round = &c.heroes[h as usize];
            if round.ignore_results {
                continue;
            }
            let hero = &self.heroes[h as usize];
            let Some(e) = c.chosen_engagement(h).map(|e| &c.engagements[e]) else { continue };
            let slot = e.slots[e.chosen.expect("chosen") as usize];
            let bonus = c.foes[e.foe as usize].card_bonus;
            let (dealt, _) = slot.damage(bonus).unwrap_or((0, 0));
            if dealt > 0 {
                packets.push(DamagePacket {
                    hero: h,
                    foe: e.foe,
                    amount: dealt.saturating_add(round.bonus_damage).saturating_add(hero.passive_bonus_damage()),
                    magic: hero.has_magic() || round.magic,
                    overflow: false,
                });
            }
        }
        self.cbt().packets.extend(packets);
        self.advance_damage(events);
    }

    /// Where a packet of damage goes without asking, if it needs no choice:
    /// `Ok(Some(i))` to individual `i`, `Ok(None)` nowhere (it is lost), and
    /// `Err(())` when the players must choose the individual.
    fn packet_destination(&self, p: &DamagePacket) -> Result<Option<u8>, ()> {
        let c = self.combat.as_ref().expect("in Combat");
        let foe = &c.foes[p.foe as usize];
        let alive: Vec<u8> =
            foe.individuals.iter().enumerate().filter(|(_, i)| i.alive()).map(|(i, _)| i as u8).collect();
        if foe.is_defeated() || alive.is_empty() {
            return Ok(None);
        }
        if !p.overflow
            && let Some((f, i)) = c.heroes[p.hero as usize].target
        {
            // "All of a Hero's Damage must be applied to one Individual Monster":
            // the Hero already chose it this Round (with an ability's damage).
            if f != p.foe {
                return Ok(None);
            }
            if foe.individuals[i as usize].alive() {
                return Ok(Some(i));
            }
            // "…in a Horde … any excess Damage may be applied to any other individual."
            if !foe.is_horde() {
                return Ok(None);
            }
        }
        if alive.len() > 1 { Err(()) } else { Ok(Some(alive[0])) }
    }

    /// Puts pending damage on individuals, asking only when there is a choice.
    /// The Heroes may place their damage in any order.
    fn advance_damage(&mut self, events: &mut Vec<Event>) {
        loop {
            let c = self.combat.as_ref().expect("in Combat");
            let found = c.packets.iter().enumerate().find_map(|(k, p)| self.packet_destination(p).ok().map(|d| (k, d)));
            let Some((k, destination)) = found else { break };
            let p = self.cbt().packets.remove(k);
            match destination {
                Some(individual) => self.hit_individual(p, individual, events),
                None if !self.cbt().foes[p.foe as usize].is_defeated() => {
                    let name = self.heroes[p.hero as usize].name().to_string();
                    events.push(Event::Note {
                        text: format!("{name}'s {} Damage is lost: all of it must go to one individual.", p.amount),
                    });
                }
                None => {}
            }
        }
        if !self.cbt().packets.is_empty() {
            self.cbt().step = CombatStep::AssignDamage;
            return;
        }
        self.begin_avoidance(events);
    }

    /// The first packet of `hero`'s damage that waits for an individual.
    pub(crate) fn packet_of(&self, hero: u8) -> Option<usize> {
        let c = self.combat.as_ref()?;
        c.packets.iter().position(|p| p.hero == hero)
    }

    /// One source of a Hero's damage lands on one individual.
    fn hit_individual(&mut self, p: DamagePacket, individual: u8, events: &mut Vec<Event>) {
        let c = self.cbt();
        let round = &mut c.heroes[p.hero as usize];
        if round.target.is_none() {
            round.target = Some((p.foe, individual));
        }
        let foe = &mut c.foes[p.foe as usize];
        let was_defeated = foe.is_defeated();
        let horde = foe.is_horde();
        let amount = if p.overflow { p.amount } else { foe.damage_taken(usize::from(individual), p.amount, p.magic) };
        let ind = &mut foe.individuals[individual as usize];
        let dealt = amount.min(ind.health);
        ind.health -= dealt;
        let killed = dealt > 0 && ind.health == 0;
        if dealt == 0 {
            return;
        }
        events.push(Event::MonsterDamaged { hero: p.hero, foe: p.foe, individual, amount: dealt });
        c.hits.push((p.foe, individual, p.hero));
        if killed {
            events.push(Event::IndividualDefeated { foe: p.foe, individual });
            let mut contributors: Vec<u8> =
                c.hits.iter().filter(|(f, i, _)| *f == p.foe && *i == individual).map(|(_, _, h)| *h).collect();
            contributors.sort_unstable();
            contributors.dedup();
            c.kills.push(Kill { foe: p.foe, individual, contributors });
            let excess = amount - dealt;
            // "If an individual Monster in a Horde is Defeated, any excess Damage
            // may be applied to any other individual Monster in that Horde."
            if horde && excess > 0 && c.foes[p.foe as usize].alive_count() > 0 {
                c.packets.insert(0, DamagePacket { amount: excess, overflow: true, ..p });
            }
            if !was_defeated && c.foes[p.foe as usize].is_defeated() {
                events.push(Event::FoeDefeated { foe: p.foe });
            }
        }
    }

    /// "Important! Avoiding Return Damage".
    fn begin_avoidance(&mut self, events: &mut Vec<Event>) {
        let c = self.cbt();
        if c.kills.iter().any(|k| k.contributors.len() == 1) {
            // One Hero delivered all the Damage: ALL Heroes avoid ANY Return Damage.
            for h in 0..c.heroes.len() {
                c.heroes[h].avoids_return_damage = true;
                events.push(Event::ReturnDamageAvoided { hero: h as u8 });
            }
            c.avoid_queue.clear();
        } else {
            c.avoid_queue = (0..c.kills.len()).filter(|&k| c.kills[k].contributors.len() > 1).collect();
        }
        self.advance_avoidance(events);
    }

    fn advance_avoidance(&mut self, events: &mut Vec<Event>) {
        let c = self.cbt();
        while let Some(&k) = c.avoid_queue.first() {
            // A choice only matters while some contributor still takes Return Damage.
            if c.kills[k].contributors.iter().all(|h| c.heroes[*h as usize].avoids_return_damage) {
                c.avoid_queue.remove(0);
                continue;
            }
            c.step = CombatStep::AvoidReturnDamage;
            return;
        }
        self.monsters_deal_damage(events);
    }

    /// The Monsters' side of every Resolved pair, then "6. Discard Cards".
    fn monsters_deal_damage(&mut self, events: &mut Vec<Event>) {
        let c = self.combat.as_ref().expect("in Combat");
        let mut hits = Vec::new();
        for e in &c.engagements {
            let round = &c.heroes[e.hero as usize];
            let Some(slot) = e.chosen.map(|s| e.slots[s as usize]) else { continue };
            if round.ignore_results {
                continue;
            }
            let bonus = c.foes[e.foe as usize].card_bonus;
            let Some(outcome) = slot.outcome(bonus) else { continue };
            let (_, taken) = slot.damage(bonus).unwrap_or((0, 0));
            let avoided = outcome == Outcome::HeroHit && round.avoids_return_damage;
            if taken > 0 && !avoided {
                hits.push((e.hero, taken));
            }
        }
        for (h, amount) in hits {
            self.damage_hero(h, amount, false, events);
        }
        // The terrible cost of some mighty Items, paid every Round.
        for h in 0..self.heroes.len() as u8 {
            let wound = self.heroes[h as usize].wound_each_round();
            if wound > 0 {
                self.damage_hero(h, wound, true, events);
            }
        }
        if !self.is_over() {
            self.end_round(events);
        }
    }

    fn end_round(&mut self, events: &mut Vec<Event>) {
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
                self.stage = Stage::Exploring;
            } else {
                // A skirmish is only its fight.
                self.stage = Stage::Won;
            }
            events.push(Event::CombatWon);
        } else {
            self.start_round(events);
        }
    }

    // ----- checking actions -----

    pub(crate) fn check_combat(&self, action: &Action) -> Result<(), RuleError> {
        let c = self.combat.as_ref().ok_or(RuleError::WrongStep { expected: "Combat" })?;
        let step_is = |s: CombatStep, name: &'static str| {
            if c.step == s { Ok(()) } else { Err(RuleError::WrongStep { expected: name }) }
        };
        // "All Heroes perform each Step simultaneously": any Hero with
        // something left to do in this step may act.
        let turn = |hero: u8| {
            if usize::from(hero) >= self.heroes.len() {
                return Err(RuleError::NoSuchHero(hero));
            }
            if c.may_act(hero) { Ok(()) } else { Err(RuleError::HeroIsDone { hero }) }
        };
        match action {
            Action::AssignMonsters { foes } => {
                step_is(CombatStep::AssignMonsters, "Monsters to be assigned")?;
                if foes.len() != self.heroes.len() {
                    return Err(RuleError::BadAssignment("name one Monster Card per Hero"));
                }
                if foes.iter().any(|&f| usize::from(f) >= c.foes.len()) {
                    return Err(RuleError::BadAssignment("no such Monster Card"));
                }
                // "Each Monster Card must be assigned to a different Hero, if possible."
                if (0..c.foes.len() as u8).any(|f| !foes.contains(&f)) {
                    return Err(RuleError::BadAssignment("each Monster Card needs a Hero"));
                }
                Ok(())
            }
            Action::PlayCard { hero, card } => {
                step_is(CombatStep::PlayCards, "Heroes to play cards")?;
                turn(*hero)?;
                self.heroes[*hero as usize].find_hand(*card).map(|_| ()).ok_or(RuleError::CardNotInHand)
            }
            Action::PlaceMonsterCard { hero, slot } => {
                step_is(CombatStep::PlaceMonsterCard, "a Monster Card to be placed")?;
                turn(*hero)?;
                let e =
                    c.engagements.iter().find(|e| e.hero == *hero && e.waiting.is_some()).ok_or(RuleError::NothingToDo)?;
                if usize::from(*slot) < e.slots.len() { Ok(()) } else { Err(RuleError::NoSuchSlot) }
            }
            Action::ChoosePair { hero, engagement, slot } => {
                step_is(CombatStep::Resolve, "Combat Pairs to be chosen")?;
                turn(*hero)?;
                let e = self.own_engagement(c, *hero, *engagement)?;
                // "Every Round, each Hero will choose one of their Combat Pairs
                // to Resolve and discard any others": one in all, however many
                // Monster Cards the Hero faces.
                if c.chosen_engagement(*hero).is_some() {
                    return Err(RuleError::PairAlreadyChosen);
                }
                let bonus = c.foes[e.foe as usize].card_bonus;
                let s = e.slots.get(usize::from(*slot)).ok_or(RuleError::NoSuchSlot)?;
                let Some(outcome) = s.outcome(bonus) else { return Err(RuleError::NotACombatPair) };
                let outcomes: Vec<Outcome> = c.pairs_of(*hero).into_iter().map(|(_, _, o)| o).collect();
                if may_choose_outcome(outcome, &outcomes) { Ok(()) } else { Err(RuleError::MonsterHitTakesPriority) }
            }
            Action::EndTurn { hero } => {
                step_is(CombatStep::Resolve, "Combat Pairs to be chosen")?;
                turn(*hero)?;
                let round = &c.heroes[*hero as usize];
                if !round.ignore_results && c.chosen_engagement(*hero).is_none() && !c.pairs_of(*hero).is_empty() {
                    return Err(RuleError::PairsNotChosen);
                }
                Ok(())
            }
            Action::ActivateAbility { hero, source, target } => {
                step_is(CombatStep::Resolve, "Hero abilities")?;
                turn(*hero)?;
                self.check_ability(c, *hero, *source, *target)
            }
            Action::AssignDamage { hero, individual } => {
                step_is(CombatStep::AssignDamage, "Damage to be assigned")?;
                turn(*hero)?;
                let p = &c.packets[self.packet_of(*hero).ok_or(RuleError::NothingToDo)?];
                let ind =
                    c.foes[p.foe as usize].individuals.get(usize::from(*individual)).ok_or(RuleError::BadTarget)?;
                if ind.alive() { Ok(()) } else { Err(RuleError::IndividualDefeated) }
            }
            Action::AvoidReturnDamage { hero } => {
                step_is(CombatStep::AvoidReturnDamage, "a Hero to avoid Return Damage")?;
                let k = c.avoid_queue.first().ok_or(RuleError::NothingToDo)?;
                if c.kills[*k].contributors.contains(hero) { Ok(()) } else { Err(RuleError::NotAContributor) }
            }
            _ => Err(RuleError::WrongStep { expected: "a Combat action" }),
        }
    }

    fn own_engagement<'a>(&self, c: &'a Combat, hero: u8, engagement: u8) -> Result<&'a Engagement, RuleError> {
        c.engagements.get(usize::from(engagement)).filter(|e| e.hero == hero).ok_or(RuleError::BadTarget)
    }

    fn check_ability(&self, c: &Combat, h: u8, source: AbilitySource, target: Target) -> Result<(), RuleError> {
        let hero = &self.heroes[h as usize];
        let ability = hero.ability(source).ok_or(RuleError::AbilityNotAvailable)?;
        if ability.effects.iter().any(is_exploring_effect) {
            return Err(RuleError::NotDuringCombat);
        }
        let round = &c.heroes[h as usize];
        match ability.activation {
            Activation::Passive => return Err(RuleError::PassiveNotActivated),
            Activation::Power(need) => {
                let have = hero.stored_power.len() as u8;
                if have < need {
                    return Err(RuleError::NotEnoughPower { need, have });
                }
            }
            Activation::Block => {
                if round.block_ability_used {
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
        }
        if hero.is_exhausted(source) {
            return Err(RuleError::SpellExhausted);
        }
        self.check_target(c, h, ability, target)
    }

    fn check_target(&self, c: &Combat, h: u8, ability: &Ability, target: Target) -> Result<(), RuleError> {
        let open_engagement = |engagement: u8| -> Result<&Engagement, RuleError> {
            let e = self.own_engagement(c, h, engagement)?;
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
                let ind = f.individuals.get(usize::from(individual)).ok_or(RuleError::BadTarget)?;
                // "All of a Hero's Damage must be applied to one Individual Monster."
                if c.heroes[h as usize].target.is_some_and(|t| t != (foe, individual)) {
                    return Err(RuleError::OneIndividualPerRound);
                }
                engaged && !f.is_defeated() && ind.alive()
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

    // ----- applying actions -----

    pub(crate) fn apply_combat(&mut self, action: Action, events: &mut Vec<Event>) {
        match action {
            Action::AssignMonsters { foes } => {
                events.push(Event::MonstersAssigned { foes: foes.clone() });
                self.cbt().assignment = foes.into_iter().map(|f| vec![f]).collect();
                self.start_round(events);
            }
            Action::PlayCard { hero, card } => {
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
            Action::PlaceMonsterCard { hero, slot } => {
                let c = self.cbt();
                let e = c.engagements.iter().position(|e| e.hero == hero && e.waiting.is_some()).expect("checked");
                let card = c.engagements[e].waiting.take();
                c.engagements[e].slots[slot as usize].monster = card;
                events.push(Event::MonsterCardMoved { engagement: e as u8, slot });
                self.after_monsters_play(events);
            }
            Action::ChoosePair { hero, engagement, slot } => {
                let c = self.cbt();
                let e = &mut c.engagements[engagement as usize];
                e.chosen = Some(slot);
                let outcome = e.slots[slot as usize].outcome(c.foes[e.foe as usize].card_bonus).expect("checked");
                events.push(Event::PairChosen { hero, engagement, slot, outcome });
            }
            Action::EndTurn { hero } => {
                let c = self.cbt();
                c.heroes[hero as usize].done = true;
                if c.heroes.iter().all(|h| h.done) {
                    self.begin_damage(events);
                }
            }
            Action::ActivateAbility { hero, source, target } => self.activate_ability(hero, source, target, events),
            Action::AssignDamage { hero, individual } => {
                let k = self.packet_of(hero).expect("checked");
                let p = self.cbt().packets.remove(k);
                self.hit_individual(p, individual, events);
                self.advance_damage(events);
            }
            Action::AvoidReturnDamage { hero } => {
                let c = self.cbt();
                c.avoid_queue.remove(0);
                c.heroes[hero as usize].avoids_return_damage = true;
                events.push(Event::ReturnDamageAvoided { hero });
                self.advance_avoidance(events);
            }
            _ => unreachable!("check_combat refuses actions outside Combat"),
        }
    }

    fn activate_ability(&mut self, h: u8, source: AbilitySource, target: Target, events: &mut Vec<Event>) {
        let hero = &mut self.heroes[h as usize];
        let ability = hero.ability(source).expect("checked").clone();
        let spell = hero.is_spell(source);
        if let Activation::Power(cost) = ability.activation {
            // "When a Power Card is Spent it is Discarded."
            for _ in 0..cost {
                let card = hero.stored_power.pop().expect("checked");
                hero.discard.push(card);
            }
            events.push(Event::PowerSpent { hero: h, count: cost });
        }
        if ability.exhaust_after_use
            && let AbilitySource::Card(i) = source
        {
            hero.abilities[usize::from(i)].exhausted = true;
            events.push(Event::SpellExhausted { hero: h, name: ability.name.clone() });
        }
        events.push(Event::AbilityActivated { hero: h, name: ability.name.clone() });
        self.use_item_token(h, source, events);
        let round = &mut self.cbt().heroes[h as usize];
        if ability.activation == Activation::Block {
            round.block_ability_used = true;
        }
        for effect in &ability.effects {
            self.hero_effect(h, effect, target, spell, events);
        }
    }

    fn hero_effect(&mut self, h: u8, effect: &Effect, target: Target, spell: bool, events: &mut Vec<Event>) {
        let chosen = if let Target::Hero(t) = target { t } else { h };
        match *effect {
            Effect::DamageHeroes { amount, whom, ignore_armor } => {
                for t in self.targets(whom, chosen) {
                    self.damage_hero(t, amount, ignore_armor, events);
                }
            }
            Effect::HealHeroes { amount, whom } => {
                for t in self.targets(whom, chosen) {
                    let healed = self.heroes[t as usize].heal(amount);
                    if healed > 0 {
                        events.push(Event::HeroHealed { hero: t, amount: healed });
                    }
                }
            }
            Effect::DamageMonster { amount, magic } => {
                let Target::Individual { foe, individual } = target else { return };
                let magic = magic || spell || self.heroes[h as usize].has_magic();
                let p = DamagePacket { hero: h, foe, amount, magic, overflow: false };
                self.hit_individual(p, individual, events);
            }
            Effect::SwapPlayedCards => {
                let Target::Engagement(e) = target else { return };
                let slots = &mut self.cbt().engagements[e as usize].slots;
                let (a, b) = ((slots[0].hero, slots[0].hero_delta), (slots[1].hero, slots[1].hero_delta));
                (slots[0].hero, slots[0].hero_delta, slots[1].hero, slots[1].hero_delta) = (b.0, b.1, a.0, a.1);
            }
            Effect::ModifyPlayedCard { delta } => {
                if let Target::HeroSlot { engagement, slot } = target {
                    let s = &mut self.cbt().engagements[engagement as usize].slots[slot as usize];
                    s.hero_delta = s.hero_delta.saturating_add(delta);
                }
            }
            Effect::ModifyMonsterCard { delta } => {
                if let Target::MonsterSlot { engagement, slot } = target {
                    let s = &mut self.cbt().engagements[engagement as usize].slots[slot as usize];
                    s.monster_delta = s.monster_delta.saturating_add(delta);
                }
            }
            Effect::RedrawMonsterCard => {
                let Target::MonsterSlot { engagement, slot } = target else { return };
                let e = &mut self.cbt().engagements[engagement as usize];
                let foe = e.foe;
                let old = e.slots[slot as usize].monster.take().expect("checked");
                e.slots[slot as usize].monster_delta = 0;
                let d = self.cbt().foes[foe as usize].difficulty;
                self.monster_decks[d.index()].discard.push(old);
                let new = self.monster_draw(foe, h, events);
                if let Some(c) = self.combat.as_mut() {
                    c.engagements[engagement as usize].slots[slot as usize].monster = new;
                }
            }
            Effect::ReplacePlayedCard => {
                let Target::HeroSlot { engagement, slot } = target else { return };
                let hero = &mut self.heroes[h as usize];
                if hero.draw.is_empty() {
                    hero.reshuffle_discard(&mut self.rng);
                }
                let stored = hero.stored_power.len();
                let Some(new) = hero.draw_card() else { return };
                for _ in stored..hero.stored_power.len() {
                    events.push(Event::PowerStored { hero: h });
                }
                let s =
                    &mut self.combat.as_mut().expect("in Combat").engagements[engagement as usize].slots[slot as usize];
                let old = s.hero.replace(new).expect("checked");
                s.hero_delta = 0;
                self.heroes[h as usize].discard.push(old);
            }
            Effect::BonusDamage { amount } => {
                let r = &mut self.cbt().heroes[h as usize];
                r.bonus_damage = r.bonus_damage.saturating_add(amount);
            }
            Effect::IgnoreResults => self.cbt().heroes[h as usize].ignore_results = true,
            Effect::Armor { amount } => {
                let r = &mut self.cbt().heroes[h as usize];
                r.armor = r.armor.saturating_add(amount);
            }
            Effect::Magic => self.cbt().heroes[h as usize].magic = true,
            Effect::PlayOneCardNextRound { whom } => {
                for t in self.targets(whom, chosen) {
                    self.cbt().play_one_next_round[t as usize] = true;
                }
            }
            Effect::LoseStoredPower { whom } => {
                for t in self.targets(whom, chosen) {
                    let hero = &mut self.heroes[t as usize];
                    if let Some(card) = hero.stored_power.pop() {
                        hero.discard.push(card);
                    }
                }
            }
            Effect::Retrieve => {
                if let Target::DiscardCard(id) = target {
                    let hero = &mut self.heroes[h as usize];
                    if let Some(i) = hero.discard.iter().position(|c| c.id == id) {
                        let card = hero.discard.remove(i);
                        hero.draw.push(card);
                    }
                }
            }
            Effect::RefreshSpells => self.heroes[h as usize].refresh_spells(),
            // Monster-only qualities, and Exploring effects that check_ability keeps out of Combat.
            _ => {}
        }
    }

    // ----- enumerating candidates -----

    pub(crate) fn combat_candidates(&self) -> Vec<Action> {
        let Some(c) = self.combat.as_ref() else { return Vec::new() };
        let n = self.heroes.len() as u8;
        let mut out = Vec::new();
        match c.step {
            CombatStep::AssignMonsters => {
                let k = c.foes.len() as u32;
                for code in 0..k.pow(u32::from(n)) {
                    let foes = (0..n).map(|h| ((code / k.pow(u32::from(h))) % k) as u8).collect();
                    out.push(Action::AssignMonsters { foes });
                }
            }
            CombatStep::AvoidReturnDamage => out.extend((0..n).map(|hero| Action::AvoidReturnDamage { hero })),
            _ => {
                // Every Hero still acting in this step, in any order.
                for hero in c.heroes_to_act() {
                    self.hero_candidates(c, hero, &mut out);
                }
            }
        }
        out
    }

    fn hero_candidates(&self, c: &Combat, hero: u8, out: &mut Vec<Action>) {
        let h = &self.heroes[hero as usize];
        match c.step {
            CombatStep::PlayCards => {
                out.extend(h.hand.iter().map(|card| Action::PlayCard { hero, card: card.id }));
            }
            CombatStep::PlaceMonsterCard => {
                out.extend((0..2).map(|slot| Action::PlaceMonsterCard { hero, slot }));
            }
            CombatStep::AssignDamage => {
                let Some(k) = self.packet_of(hero) else { return };
                let foe = &c.foes[c.packets[k].foe as usize];
                out.extend((0..foe.individuals.len() as u8).map(|individual| Action::AssignDamage { hero, individual }));
            }
            CombatStep::Resolve => {
                for (e, en) in c.engagements_of(hero) {
                    for slot in 0..en.slots.len() as u8 {
                        out.push(Action::ChoosePair { hero, engagement: e as u8, slot });
                    }
                }
                for (source, ability) in h.abilities() {
                    for target in self.ability_targets(c, hero, ability.target_kind()) {
                        out.push(Action::ActivateAbility { hero, source, target });
                    }
                }
                out.push(Action::EndTurn { hero });
            }
            CombatStep::AssignMonsters | CombatStep::AvoidReturnDamage => {}
        }
    }

    fn ability_targets(&self, c: &Combat, hero: u8, kind: TargetKind) -> Vec<Target> {
        let mine = || c.engagements_of(hero).map(|(e, en)| (e as u8, en));
        match kind {
            TargetKind::None => vec![Target::None],
            TargetKind::Engagement => mine().map(|(e, _)| Target::Engagement(e)).collect(),
            TargetKind::Individual => {
                let mut foes: Vec<u8> = mine().map(|(_, en)| en.foe).collect();
                foes.dedup();
                foes.into_iter()
                    .flat_map(|foe| {
                        (0..c.foes[foe as usize].individuals.len() as u8)
                            .map(move |individual| Target::Individual { foe, individual })
                    })
                    .collect()
            }
            TargetKind::HeroSlot => mine()
                .flat_map(|(e, en)| (0..en.slots.len() as u8).map(move |slot| Target::HeroSlot { engagement: e, slot }))
                .collect(),
            TargetKind::MonsterSlot => mine()
                .flat_map(|(e, en)| {
                    (0..en.slots.len() as u8).map(move |slot| Target::MonsterSlot { engagement: e, slot })
                })
                .collect(),
            TargetKind::Hero => (0..self.heroes.len() as u8).map(Target::Hero).collect(),
            TargetKind::DiscardCard => {
                self.heroes[hero as usize].discard.iter().map(|card| Target::DiscardCard(card.id)).collect()
            }
        }
    }
}
