//! Shared helpers for the acceptance tests, all reachable from the crate's
//! root: a tiny scenario builder with stacked decks (`scenario`), cards made
//! in code (`cards`), games set up from a seed (`setups`), the content fixture
//! (`fixture`), the hidden orders (`hidden`), the property checks
//! (`properties`), the same Combat seated differently (`seating`) and a
//! file's values changed one at a time (`edits`).

mod cards;
pub mod edits;
pub mod fixture;
pub mod hidden;
pub mod properties;
mod scenario;
pub mod seating;
mod setups;

pub use cards::*;
pub use scenario::*;
pub use setups::*;
