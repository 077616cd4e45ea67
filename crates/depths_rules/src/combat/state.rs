//! The state of a Combat, in the book's nouns: the Round's [`CombatStep`],
//! each Hero's [`Engagement`]s with their Combat Pairs, the Round's
//! modifiers ([`HeroRound`]), the Damage still to place ([`DamagePacket`]) and
//! the individuals defeated ([`Kill`]). The step files read and change it;
//! it lives apart from `combat/mod.rs` so they share it without importing
//! their parent.

use serde::{Deserialize, Serialize};

use super::combat_pair::{Outcome, Slot};
use super::foe::Foe;
use crate::action_card::ActionCard;

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
    /// The Hero's cards played into its pairs this Round.
    pub fn played(&self) -> u8 {
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
    /// "All of a Hero's Damage must be applied to one Individual Monster",
    /// within each set ("any Individual Monster within the Set"): the
    /// individual of each Monster Card the Hero's Damage goes to this Round,
    /// as (foe, individual).
    /// (A save from before kept one `target` for the whole Round: it is read
    /// as that one individual.)
    #[serde(default, alias = "target", deserialize_with = "targets_or_one")]
    pub targets: Vec<(u8, u8)>,
    pub avoids_return_damage: bool,
    pub play_one_card: bool,
}

/// `targets` as saved now (a list) or before (one `target`, or none).
fn targets_or_one<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<(u8, u8)>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Saved {
        Many(Vec<(u8, u8)>),
        One(Option<(u8, u8)>),
    }
    Ok(match Saved::deserialize(d)? {
        Saved::Many(all) => all,
        Saved::One(one) => one.into_iter().collect(),
    })
}

impl HeroRound {
    /// The individual of `foe` the Hero's Damage goes to this Round, once named.
    pub fn target_in(&self, foe: u8) -> Option<u8> {
        self.targets.iter().find(|(f, _)| *f == foe).map(|&(_, i)| i)
    }
}

/// One source of a Hero's Damage this Round, waiting for step 5 ("Apply
/// Damage"), when all of the Round's Damage lands at once.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DamagePacket {
    /// The Hero whose Damage it is (for Horde overflow, the first of `owners`).
    pub hero: u8,
    pub foe: u8,
    pub amount: u8,
    pub magic: bool,
    /// Horde overflow: already reduced once, not again.
    pub overflow: bool,
    /// The individual it goes to, once named; `None` while the players must
    /// still choose ("Heroes may freely assign damage to any Individual Monster
    /// within the Set").
    #[serde(default)]
    pub individual: Option<u8>,
    /// Horde overflow carries the Damage of every Hero who shared the kill:
    /// one bit per Hero (0 means `hero` alone).
    #[serde(default)]
    pub owners: u8,
}

impl DamagePacket {
    /// Whether this is (part of) `hero`'s Damage.
    pub fn owned_by(&self, hero: u8) -> bool {
        if self.owners == 0 { self.hero == hero } else { self.owners & (1 << hero) != 0 }
    }

    /// The bits of the Heroes whose Damage this is.
    pub fn owner_bits(&self) -> u8 {
        if self.owners == 0 { 1 << self.hero } else { self.owners }
    }
}

/// The Damage one individual took this Round. Its Health drops as each
/// source lands, but the Round's Damage counts as dealt at once: whether it
/// is Defeated, who contributed and a Horde's excess are settled in step 5 from
/// the sum, whatever order it came in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Wound {
    pub foe: u8,
    pub individual: u8,
    /// Its Health before this Round's first Damage.
    pub start: u8,
    /// All the Damage put on it this Round (after Armor), beyond its Health too.
    pub total: u16,
    /// The Heroes whose Damage took part, one bit each.
    pub heroes: u8,
    /// The Damage each Hero put on it alone (a shared Horde excess is no
    /// one Hero's): one who met its Health alone "delivered all of the
    /// Damage needed".
    #[serde(default)]
    pub alone: [u16; 8],
    /// Defeated and accounted for (a Kill), or spared this Round.
    pub settled: bool,
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
    /// The Round's Damage not yet applied: abilities' from step 4, then the
    /// Combat Pairs' and any Horde overflow in step 5.
    pub packets: Vec<DamagePacket>,
    /// (foe, individual, hero) for every hit that took health this Round.
    pub hits: Vec<(u8, u8, u8)>,
    /// The Damage each individual has taken this Round, settled in step 5.
    #[serde(default)]
    pub wounds: Vec<Wound>,
    pub kills: Vec<Kill>,
    /// Kills still waiting for the players to name the Hero who avoids Return Damage.
    pub avoid_queue: Vec<usize>,
}

impl Combat {
    /// "All Heroes perform each Step simultaneously": every Hero who still has
    /// something to do in this step, in Hero order. Any of them may act next;
    /// the step ends when none is left.
    pub fn heroes_to_act(&self) -> Vec<u8> {
        (0..self.heroes.len() as u8).filter(|&h| self.may_act(h)).collect()
    }

    /// The first Hero who may act (see [`Combat::heroes_to_act`]).
    pub fn acting_hero(&self) -> Option<u8> {
        (0..self.heroes.len() as u8).find(|&h| self.may_act(h))
    }

    /// Whether `hero` still has something to do in the current step.
    pub fn may_act(&self, hero: u8) -> bool {
        match self.step {
            CombatStep::AssignMonsters | CombatStep::AvoidReturnDamage => false,
            CombatStep::PlayCards => self.playing_engagement(hero).is_some(),
            CombatStep::PlaceMonsterCard => self.engagements.iter().any(|e| e.hero == hero && e.waiting.is_some()),
            CombatStep::Resolve => self.heroes.get(usize::from(hero)).is_some_and(|h| !h.done),
            CombatStep::AssignDamage => self.packet_of(hero).is_some(),
        }
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
        self.pairs(hero).collect()
    }

    /// [`Combat::pairs_of`] one by one, without a list (asked while checking
    /// every legal action).
    pub fn pairs(&self, hero: u8) -> impl Iterator<Item = (usize, u8, Outcome)> + '_ {
        self.engagements_of(hero).flat_map(move |(e, en)| {
            let bonus = self.foes[en.foe as usize].card_bonus;
            en.slots.iter().enumerate().filter_map(move |(s, slot)| Some((e, s as u8, slot.outcome(bonus)?)))
        })
    }

    /// The first packet of `hero`'s Damage still waiting for an individual.
    pub fn packet_of(&self, hero: u8) -> Option<usize> {
        self.packets.iter().position(|p| p.individual.is_none() && p.owned_by(hero))
    }

    pub fn engagements_of(&self, hero: u8) -> impl Iterator<Item = (usize, &Engagement)> {
        self.engagements.iter().enumerate().filter(move |(_, e)| e.hero == hero)
    }

    pub fn is_over(&self) -> bool {
        self.foes.iter().all(Foe::is_defeated)
    }

    /// Whether Damage may still go to this individual this Round: alive, or
    /// brought down by this Round's Damage, which is not settled before step 5.
    pub fn open(&self, foe: u8, individual: u8) -> bool {
        self.foes.get(usize::from(foe)).and_then(|f| f.individuals.get(usize::from(individual))).is_some_and(|i| {
            i.alive() || self.wounds.iter().any(|w| w.foe == foe && w.individual == individual && !w.settled)
        })
    }
}

#[cfg(test)]
mod saved_round_tests {
    use super::HeroRound;

    #[test]
    fn a_round_saved_with_one_target_keeps_it() {
        let round = |json: &str| -> HeroRound { serde_json::from_str(json).expect("a saved round") };
        let base = r#""done":false,"block_ability_used":false,"bonus_damage":0,"armor":0,"ignore_results":false,"magic":false,"avoids_return_damage":false,"play_one_card":false"#;
        assert_eq!(round(&format!("{{{base},\"target\":[1,2]}}")).targets, vec![(1, 2)]);
        assert_eq!(round(&format!("{{{base},\"target\":null}}")).targets, vec![]);
        assert_eq!(round(&format!("{{{base},\"targets\":[[0,1],[1,0]]}}")).targets, vec![(0, 1), (1, 0)]);
        assert_eq!(round(&format!("{{{base}}}")).targets, vec![]);
    }
}
