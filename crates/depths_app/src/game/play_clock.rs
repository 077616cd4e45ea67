//! Time at the table and whether a game's end is in the records
//! (`records.rs`): a part of the game on the table, saved with it.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// Time at the table and whether the game's end is recorded: saved with the game.
#[derive(Resource, Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq)]
#[serde(default)]
pub struct PlayClock {
    /// When the game began (seconds since 1970), for its record's id; 0 when unknown.
    pub started: u64,
    /// Milliseconds at the table so far.
    pub played_ms: u64,
    /// The game's end is in the records.
    pub recorded: bool,
}

impl PlayClock {
    pub fn now() -> PlayClock {
        PlayClock { started: unix_now(), ..default() }
    }
}

/// Seconds since 1970 (0 on a clock set before it).
pub fn unix_now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}
