//! "3. Evaluate Combat Pairs": a Hero's Played Card and the Monster Card
//! played against it, and which pair a Hero may choose to Resolve.

use serde::{Deserialize, Serialize};

use crate::action_card::ActionCard;

/// The three relationships between the two values in a Combat Pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub enum Outcome {
    /// Values match: no damage; may pay for a Block-Activated Ability.
    Block,
    /// The Monster Card is higher.
    MonsterHit,
    /// The Hero Card is higher.
    HeroHit,
}

impl Outcome {
    pub fn of(hero: u8, monster: u8) -> Outcome {
        match hero.cmp(&monster) {
            std::cmp::Ordering::Equal => Outcome::Block,
            std::cmp::Ordering::Less => Outcome::MonsterHit,
            std::cmp::Ordering::Greater => Outcome::HeroHit,
        }
    }
}

/// One position in front of a Hero: their Played Card and the Monster Card
/// opposite it, each with this Round's modifiers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Slot {
    pub hero: Option<ActionCard>,
    pub hero_delta: i8,
    pub monster: Option<ActionCard>,
    pub monster_delta: i8,
}

fn adjusted(value: u8, delta: i16) -> u8 {
    (i16::from(value) + delta).clamp(0, 255) as u8
}

impl Slot {
    pub fn hero_value(&self) -> Option<u8> {
        self.hero.map(|c| adjusted(c.value, self.hero_delta.into()))
    }

    /// The Monster Card's value, with the Monster's passive card bonus.
    pub fn monster_value(&self, bonus: u8) -> Option<u8> {
        self.monster.map(|c| adjusted(c.value, i16::from(self.monster_delta) + i16::from(bonus)))
    }

    /// `Some` only for a full Combat Pair.
    pub fn outcome(&self, bonus: u8) -> Option<Outcome> {
        Some(Outcome::of(self.hero_value()?, self.monster_value(bonus)?))
    }

    /// (damage the Hero deals, damage the Monster deals) if this pair is Resolved:
    /// the Hitter does Direct Damage equal to its value, the one Hit does Return
    /// Damage equal to the difference ("5. Apply Damage").
    pub fn damage(&self, bonus: u8) -> Option<(u8, u8)> {
        let (h, m) = (self.hero_value()?, self.monster_value(bonus)?);
        Some(match Outcome::of(h, m) {
            Outcome::Block => (0, 0),
            Outcome::HeroHit => (h, h - m),
            Outcome::MonsterHit => (m - h, m),
        })
    }
}

/// Whether the pair at `index` may be chosen, given all of a Hero's slots:
/// Blocks always; Monster Hits always; Hero Hits only when no Monster Hit is
/// present (the other pair being a Block or a Hero Hit).
pub fn may_choose(slots: &[Slot], index: usize, bonus: u8) -> bool {
    let Some(outcome) = slots.get(index).and_then(|s| s.outcome(bonus)) else {
        return false;
    };
    // Asked for every pair a bot weighs: the outcomes are not listed.
    may_choose_among(outcome, slots.iter().filter_map(|s| s.outcome(bonus)))
}

/// Whether a pair with `outcome` may be chosen when the Hero's pairs (against
/// every Monster Card they face) have `all` these outcomes.
pub fn may_choose_outcome(outcome: Outcome, all: &[Outcome]) -> bool {
    may_choose_among(outcome, all.iter().copied())
}

/// [`may_choose_outcome`] with the outcomes one by one.
pub(crate) fn may_choose_among(outcome: Outcome, mut all: impl Iterator<Item = Outcome>) -> bool {
    match outcome {
        Outcome::Block | Outcome::MonsterHit => true,
        Outcome::HeroHit => !all.any(|o| o == Outcome::MonsterHit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slot(h: u8, m: u8) -> Slot {
        Slot { hero: Some(ActionCard::numbered(0, h)), monster: Some(ActionCard::numbered(0, m)), ..Slot::default() }
    }

    #[test]
    fn evaluate_combat_pairs_relationships() {
        assert_eq!(slot(4, 4).outcome(0), Some(Outcome::Block));
        assert_eq!(slot(3, 6).outcome(0), Some(Outcome::MonsterHit));
        assert_eq!(slot(5, 2).outcome(0), Some(Outcome::HeroHit));
        assert_eq!(slot(5, 4).outcome(1), Some(Outcome::Block), "monster card bonus counts");
    }

    #[test]
    fn monster_hit_takes_priority_over_hero_hit_but_block_is_always_allowed() {
        let s = [slot(3, 6), slot(6, 2)];
        assert!(may_choose(&s, 0, 0));
        assert!(!may_choose(&s, 1, 0));
        let s = [slot(4, 4), slot(6, 2)];
        assert!(may_choose(&s, 0, 0) && may_choose(&s, 1, 0));
        let s = [slot(4, 4), slot(2, 6)];
        assert!(may_choose(&s, 0, 0) && may_choose(&s, 1, 0));
    }

    #[test]
    fn applying_damage_sil_five_against_two() {
        // "Sil is Resolving a Hero Hit … Her Action Card Value is 5, and the
        // Monster's is 2. The Monster takes 5 … and Sil takes 3 (5−2)."
        assert_eq!(slot(5, 2).damage(0), Some((5, 3)));
        assert_eq!(slot(3, 6).damage(0), Some((3, 6)));
        assert_eq!(slot(4, 4).damage(0), Some((0, 0)));
    }
}
