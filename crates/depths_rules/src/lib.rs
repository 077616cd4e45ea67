//! The rules of Forgotten Depths as a pure, deterministic library.
//!
//! Every player decision is an [`Action`]; [`Game::check`] says whether it is
//! legal, [`Game::apply`] performs it and reports [`Event`]s, and
//! [`Game::legal_actions`] lists every legal choice. The whole [`Game`],
//! random generator included, serializes with serde.

pub mod abilities;
pub mod action;
pub mod action_card;
pub mod action_deck;
pub mod adventure;
pub mod card_text;
pub mod combat;
pub mod content;
pub mod content_swap;
pub mod decisions;
pub mod ecology;
pub mod effect;
pub(crate) mod effect_resolution;
pub mod encountering;
pub mod error;
pub mod event;
pub mod exploring;
pub mod feature;
pub mod game;
pub mod health_track;
pub mod hero;
pub mod hidden_orders;
pub mod history;
pub mod items;
pub mod legendary_location;
pub mod level_up;
pub mod map;
pub mod monster;
pub mod options;
pub mod passage;
pub mod phase;
pub mod purchases;
pub mod record;
pub mod rng;
pub mod save;
pub mod setup;
pub mod shared;
pub mod whole_check;

pub use action::{Action, Target};
pub use action_card::{ActionCard, CardId, Difficulty, MonsterDeck};
pub use adventure::{Adventure, Pending, Purchase, XpRef};
pub use combat::{CombatStep, Foe, Outcome};
pub use content::{Content, ContentError, ContentErrorKind, ContentFault};
pub use content_swap::SwapRefused;
pub use ecology::Ecology;
pub use effect::{Ability, Activation, Effect, Whom};
pub use error::{RuleError, SetupError};
pub use event::{Event, LossReason, Reveal};
pub use game::{FORMAT_VERSION, Game, Stage};
pub use hero::{AbilitySource, Hero, HeroClass, HeroMat};
pub use history::{History, UndoRefused};
pub use monster::{MonsterCard, MonsterType};
pub use options::{GameOptions, Variants};
pub use phase::{Decision, Encountering, Phase};
pub use rng::GameRng;
pub use save::SaveError;
pub use shared::Shared;
