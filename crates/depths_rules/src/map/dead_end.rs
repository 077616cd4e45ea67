//! The "One Dead-End Per Ecology" easier rule: once per Ecology, a tile that
//! cannot be placed may be set aside and placed later at any time during
//! Exploration.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::map::Map;
use super::map_tile::MapTile;

/// The variant's state for the current Ecology; start a fresh one per Ecology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DeadEndAllowance {
    /// The variant is being played.
    pub enabled: bool,
    /// Used this Ecology (stays used after the tile is placed).
    pub used: bool,
    /// The set-aside tile, until it is placed.
    pub set_aside: Option<MapTile>,
}

impl DeadEndAllowance {
    pub fn new(enabled: bool) -> DeadEndAllowance {
        DeadEndAllowance { enabled, used: false, set_aside: None }
    }

    /// Why `tile` may not be set aside now, if it may not.
    pub fn check_set_aside(&self, map: &Map, tile: &MapTile) -> Result<(), DeadEndError> {
        if !self.enabled {
            Err(DeadEndError::VariantOff)
        } else if self.used {
            Err(DeadEndError::AlreadyUsed)
        } else if !map.is_dead_end(tile) {
            Err(DeadEndError::TileFits)
        } else {
            Ok(())
        }
    }

    /// Sets a dead-end tile aside. The Game then lets the Heroes draw a
    /// replacement or choose to Encounter an element.
    pub fn set_aside(&mut self, map: &Map, tile: MapTile) -> Result<(), DeadEndError> {
        self.check_set_aside(map, &tile)?;
        self.used = true;
        self.set_aside = Some(tile);
        Ok(())
    }

    /// Takes the set-aside tile back, when the Heroes place it.
    pub fn take(&mut self) -> Option<MapTile> {
        self.set_aside.take()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeadEndError {
    VariantOff,
    AlreadyUsed,
    /// The tile has a legal placement, so it is no dead end.
    TileFits,
}

impl fmt::Display for DeadEndError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DeadEndError::VariantOff => "the One Dead-End Per Ecology rule is not in play",
            DeadEndError::AlreadyUsed => "a tile was already set aside in this Ecology",
            DeadEndError::TileFits => "the tile can be placed, so it cannot be set aside",
        })
    }
}

impl std::error::Error for DeadEndError {}
