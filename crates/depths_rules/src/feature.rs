//! Feature Cards ("2. Features") and the Ecology Reference Card.

use serde::{Deserialize, Serialize};

use crate::Ecology;
use crate::effect::Effect;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeatureCard {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub xp: u8,
    pub effects: Vec<Effect>,
}

/// Healing on the Reference Card: pay `xp` for `health` Health Points per Hero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HealingCost {
    pub xp: u8,
    pub health: u8,
}

/// "Anatomy of a Reference Card".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReferenceCard {
    pub ecology: Ecology,
    pub monster_xp: u8,
    pub feature_xp: u8,
    /// Reward Range for Legendary Locations (lowest, highest).
    pub legendary_xp: [u8; 2],
    pub healing: HealingCost,
    pub key_cost: u8,
    pub ability_cost: u8,
}
