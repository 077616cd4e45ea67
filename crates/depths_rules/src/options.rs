//! A new game's choices: Heroes, starting Ecology and the book's variants
//! ("Modifying the Game", "Starting at a Lower Ecology", "Alternate Heroes").

use serde::{Deserialize, Serialize};

use crate::Ecology;

/// "Adjusting Game Difficulty": each rule may be used alone or in any combination.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct Variants {
    // Harder
    /// "Random Campfire Healing": each Hero draws 2 cards and heals the highest value.
    pub random_campfire_healing: bool,
    /// "Heroes Don't Heal When Leveling Up".
    pub no_level_up_heal: bool,
    /// "Locked Chests": Chests must be Unlocked like Doors.
    pub locked_chests: bool,
    // Easier
    /// "Start with an Ability" (when starting at the Ruins).
    pub start_with_ability: bool,
    /// "Start with More Keys": 6 Keys.
    pub six_keys: bool,
    /// "3 Keys Added at Each New Ecology".
    pub keys_each_ecology: bool,
    /// "One Dead-End Per Ecology".
    pub one_dead_end: bool,
    /// "Twice as Much Healing" when paying XP for Healing.
    pub double_healing: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameOptions {
    /// Hero Mat ids: "bren", "sil", "ava", or an alternate side "bren_alt"…
    pub heroes: Vec<String>,
    pub start: Ecology,
    pub variants: Variants,
    /// Play Alternate Heroes with only their Primary Class.
    #[serde(default)]
    pub single_classed: bool,
    pub seed: u64,
}

impl GameOptions {
    pub fn standard(heroes: &[&str], seed: u64) -> GameOptions {
        GameOptions {
            heroes: heroes.iter().map(|h| h.to_string()).collect(),
            start: Ecology::Ruins,
            variants: Variants::default(),
            single_classed: false,
            seed,
        }
    }
}
