//! The three Ecologies, top to bottom.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ecology {
    Ruins,
    Caverns,
    Subterranean,
}

impl Ecology {
    pub const ALL: [Ecology; 3] = [Ecology::Ruins, Ecology::Caverns, Ecology::Subterranean];

    /// The Ecology below this one ("Passage to Next Ecology"), if any.
    pub fn next(self) -> Option<Ecology> {
        match self {
            Ecology::Ruins => Some(Ecology::Caverns),
            Ecology::Caverns => Some(Ecology::Subterranean),
            Ecology::Subterranean => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Ecology::Ruins => "Ruins",
            Ecology::Caverns => "Caverns",
            Ecology::Subterranean => "Subterranean Architecture",
        }
    }
}
