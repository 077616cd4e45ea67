//! Monster Cards ("Anatomy of a Monster Card") and the Final Entity's parts.

use serde::{Deserialize, Serialize};

use crate::action_card::Difficulty;
use crate::effect::{Ability, Activation, Effect};

/// "Monster Type": how many individual Monsters one card represents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MonsterType {
    Singular,
    Pair,
    Group,
    /// Horde/x: x individual Monsters; excess damage may spill to another.
    Horde(u8),
}

impl MonsterType {
    pub fn individuals(self) -> u8 {
        match self {
            MonsterType::Singular => 1,
            MonsterType::Pair => 2,
            MonsterType::Group => 4,
            MonsterType::Horde(x) => x,
        }
    }
}

/// One column of a "Monster Health State" table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HealthState {
    /// Individual Monsters alive (×4, ×3, …).
    pub alive: u8,
    /// Action Cards each Monster Card plays against each Hero.
    pub monster_cards: u8,
    /// Action Cards each Hero plays.
    pub hero_cards: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonsterCard {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub difficulty: Difficulty,
    #[serde(rename = "type")]
    pub monster_type: MonsterType,
    /// Health of each individual with 1, 2 and 3 Heroes ("8 / 16 / 24").
    pub health: [u8; 3],
    /// Left-most column first; present only for non-singular types.
    #[serde(default)]
    pub health_states: Vec<HealthState>,
    pub xp: u8,
    #[serde(default)]
    pub abilities: Vec<Ability>,
    /// Set aside at Setup until a card shuffles it in (the Crazed Bipedal Saurian).
    #[serde(default)]
    pub set_aside: bool,
}

impl MonsterCard {
    pub fn health_for(&self, heroes: usize) -> u8 {
        self.health[heroes.clamp(1, 3) - 1]
    }

    /// The Health State column for `alive` individuals; `None` for a Singular Monster.
    pub fn health_state(&self, alive: u8) -> Option<HealthState> {
        self.health_states.iter().find(|s| s.alive == alive).copied()
    }

    pub fn power_abilities(&self) -> impl Iterator<Item = &Ability> {
        self.abilities.iter().filter(|a| matches!(a.activation, Activation::Power(_)))
    }

    fn passive_effects(&self) -> impl Iterator<Item = &Effect> {
        self.abilities.iter().filter(|a| a.activation == Activation::Passive).flat_map(|a| a.effects.iter())
    }

    pub fn armor(&self) -> u8 {
        self.passive_effects()
            .map(|e| if let Effect::Armor { amount } = e { *amount } else { 0 })
            .fold(0, u8::saturating_add)
    }

    pub fn resists_non_magic(&self) -> bool {
        self.passive_effects().any(|e| matches!(e, Effect::ResistNonMagic))
    }

    pub fn card_bonus(&self) -> u8 {
        let bonus = |e: &Effect| if let Effect::MonsterCardBonus { amount } = e { *amount } else { 0 };
        self.passive_effects().map(bonus).fold(0, u8::saturating_add)
    }

    /// Checks the card against "Anatomy of a Monster Card".
    pub fn validate(&self) -> Result<(), String> {
        let n = self.monster_type.individuals();
        if n == 0 {
            return Err(format!("monster {}: a Horde needs at least one individual", self.id));
        }
        if self.health.contains(&0) {
            return Err(format!("monster {}: health must be above 0 for 1, 2 and 3 Heroes", self.id));
        }
        if n > 1 {
            let expected: Vec<u8> = (1..=n).rev().collect();
            let got: Vec<u8> = self.health_states.iter().map(|s| s.alive).collect();
            if got != expected {
                return Err(format!(
                    "monster {}: Health State columns must count down {expected:?}, found {got:?}",
                    self.id
                ));
            }
            if self
                .health_states
                .iter()
                .any(|s| !(1..=2).contains(&s.monster_cards) || !(1..=2).contains(&s.hero_cards))
            {
                return Err(format!("monster {}: Health States play 1 or 2 cards", self.id));
            }
        } else if !self.health_states.is_empty() {
            return Err(format!("monster {}: a Singular Monster has no Health State table", self.id));
        }
        for a in &self.abilities {
            a.validate().map_err(|e| format!("monster {}: {e}", self.id))?;
            if a.activation == Activation::Block {
                return Err(format!("monster {}: Monsters have no Block-Activated abilities", self.id));
            }
        }
        Ok(())
    }
}

/// Which card of the Final Entity a part is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntityPart {
    HeadI,
    #[serde(rename = "head_ii")]
    HeadII,
    Body,
}

/// A Head I, Head II or Body card of the Final Entity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntityPartCard {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub part: EntityPart,
    pub health: [u8; 3],
    #[serde(default)]
    pub armor: u8,
    #[serde(default)]
    pub abilities: Vec<Ability>,
}

/// The Tail card: no health of its own, only abilities (usually Passive).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntityTailCard {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub difficulty: Difficulty,
    #[serde(default)]
    pub abilities: Vec<Ability>,
}
