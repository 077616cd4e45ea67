//! Where the game stands, in the book's words: the one phase machine that
//! [`crate::Game::check`] and everything outside the core read.
//!
//! `Setup → Exploring ⇄ Encountering (→ Combat steps) → Level Up → Passage →
//! Exploring … → Final Entity → Won | Lost`. The phase is derived from the
//! state, never stored twice, so it cannot disagree with it.

use serde::{Deserialize, Serialize};

use crate::Ecology;
use crate::action::Action;
pub use crate::adventure::Encountering;
use crate::adventure::{Pending, Purchase};
use crate::combat::CombatStep;
use crate::error::RuleError;
use crate::event::LossReason;

/// A choice the players must make before play goes on (outside Combat).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Decision {
    /// Cards (or Items) to pay for a Key, Healing or an Ability.
    Payment { what: Purchase },
    /// How the Health Points bought are shared.
    SplitHealing,
    /// Which Hero draws or gains the Item, is healed or takes the damage.
    ChooseHero,
    /// Which of the Items drawn a multi-classed Hero keeps.
    ChooseItem { hero: u8 },
    /// Action Cards to Remove after an Item Added some.
    RemoveCards { hero: u8, count: u8 },
    /// How a multi-classed Hero draws Abilities.
    ChooseAbilityDraw { hero: u8 },
    /// Which of the two Abilities drawn to keep.
    ChooseAbility { hero: u8 },
    /// The order of the Features revealed.
    OrderFeatures { count: u8 },
}

impl Decision {
    pub(crate) fn of(p: &Pending) -> Option<Decision> {
        Some(match p {
            Pending::Purchase { what, .. } => Decision::Payment { what: *what },
            Pending::SplitHealing { .. } => Decision::SplitHealing,
            Pending::ChooseHero(_) => Decision::ChooseHero,
            Pending::ChooseItem { hero, .. } => Decision::ChooseItem { hero: *hero },
            Pending::RemoveCards { hero, count } => Decision::RemoveCards { hero: *hero, count: *count },
            Pending::ChooseAbilityDraw { hero } => Decision::ChooseAbilityDraw { hero: *hero },
            Pending::ChooseAbility { hero, .. } => Decision::ChooseAbility { hero: *hero },
            Pending::OrderFeatures { cards } => Decision::OrderFeatures { count: cards.len() as u8 },
            Pending::LevelUp { .. } | Pending::Passage { .. } => return None,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// "Starting at a Lower Ecology": the Heroes' Abilities and Items are
    /// being chosen before the first move.
    Setup {
        decision: Decision,
    },
    /// Drawing and placing Map Tiles, choosing what to Encounter, spending XP.
    Exploring {
        tile_in_hand: bool,
        decision: Option<Decision>,
    },
    /// An Ecology Element (or a card it led to) is being Resolved.
    Encountering {
        element: Encountering,
        decision: Option<Decision>,
    },
    Combat {
        step: CombatStep,
    },
    /// After a Stair Guardian: each Hero may buy one Ability.
    LevelUp {
        decision: Option<Decision>,
    },
    /// The Ecology is complete; the Heroes descend to the next.
    Passage {
        next: Ecology,
    },
    Won,
    Lost(LossReason),
}

impl Phase {
    /// The decision the phase waits for, if any.
    pub fn decision(&self) -> Option<Decision> {
        match self {
            Phase::Setup { decision } => Some(*decision),
            Phase::Exploring { decision, .. } | Phase::Encountering { decision, .. } | Phase::LevelUp { decision } => {
                *decision
            }
            _ => None,
        }
    }

    /// The book's name for the phase.
    pub fn name(&self) -> &'static str {
        match self {
            Phase::Setup { .. } => "Setup",
            Phase::Exploring { .. } => "Exploring",
            Phase::Encountering { .. } => "Encountering",
            Phase::Combat { .. } => "Combat",
            Phase::LevelUp { .. } => "Level Up",
            Phase::Passage { .. } => "Passage to Next Ecology",
            Phase::Won => "Won",
            Phase::Lost(_) => "Lost",
        }
    }

    /// Whether the book lets `action` be taken in this phase at all (the
    /// finer conditions are for each Action's own check). Answers a choice
    /// in progress are admitted in every phase outside Combat; their check
    /// asks for the matching choice.
    pub fn admits(&self, action: &Action) -> Result<(), RuleError> {
        use Action as A;
        match self {
            Phase::Won | Phase::Lost(_) => return Err(RuleError::GameOver),
            Phase::Combat { .. } => {
                return if action.is_combat() || matches!(action, A::ActivateAbility { .. }) {
                    Ok(())
                } else {
                    Err(RuleError::WrongStep { expected: "a Combat action" })
                };
            }
            _ => {}
        }
        let wanted = match action {
            A::AssignMonsters { .. }
            | A::PlayCard { .. }
            | A::PlaceMonsterCard { .. }
            | A::ChoosePair { .. }
            | A::EndTurn { .. }
            | A::AssignDamage { .. }
            | A::AvoidReturnDamage { .. } => return Err(RuleError::WrongStep { expected: "Combat" }),
            A::PayXp { .. }
            | A::CancelPurchase
            | A::SplitHealing { .. }
            | A::ChooseHero { .. }
            | A::ChooseOption { .. }
            | A::RemoveActionCard { .. } => return Ok(()),
            A::StartPurchase { what: Purchase::Ability { .. } } | A::FinishLevelUp => Wanted::LevelUp,
            A::Descend => Wanted::Passage,
            A::DrawTile
            | A::PlaceTile { .. }
            | A::PlaceSetAsideTile { .. }
            | A::Encounter { .. }
            | A::EncounterLegendary { .. }
            | A::StartPurchase { .. }
            | A::Equip { .. }
            | A::Unequip { .. }
            | A::ActivateAbility { .. } => Wanted::Exploring,
        };
        match (self, wanted) {
            (Phase::Setup { .. } | Phase::Encountering { .. }, Wanted::Exploring) => {
                Err(RuleError::NotWhileEncountering)
            }
            (_, _) if self.decision().is_some() => Err(RuleError::DecisionPending),
            (Phase::Exploring { .. }, Wanted::Exploring)
            | (Phase::LevelUp { .. }, Wanted::LevelUp)
            | (Phase::Passage { .. }, Wanted::Passage) => Ok(()),
            (_, Wanted::Exploring) => Err(RuleError::WrongStep { expected: self.name() }),
            (_, Wanted::LevelUp) => Err(RuleError::WrongStep { expected: "Level Up" }),
            (_, Wanted::Passage) => Err(RuleError::WrongStep { expected: "Passage to the next Ecology" }),
        }
    }
}

#[derive(Clone, Copy)]
enum Wanted {
    Exploring,
    LevelUp,
    Passage,
}
