//! The rules of Forgotten Depths as a pure, deterministic library.
//!
//! Every player decision is an [`Action`]; [`Game::check`] says whether it is
//! legal, [`Game::apply`] performs it and reports [`Event`]s, and
//! [`Game::legal_actions`] lists every legal choice. The whole [`Game`],
//! random generator included, serializes with serde.

pub mod ecology;
pub mod map;
pub mod rng;

pub use ecology::Ecology;
pub use rng::GameRng;
