//! "Combat": the state of a fight (`state`) and the dispatch of its Actions
//! to the files of the book's steps — `setup` (Combat Setup, Assigning
//! Monsters), `drawing` (1. Draw Cards), `playing` (2. Play Cards, Monster
//! Power Cards), `combat_pair` (3. Evaluate Combat Pairs), `abilities`
//! (4. Activate Hero Abilities), `damage` (5. Apply Damage), `return_damage`
//! (Avoiding Return Damage) and `end` (6. Discard Cards). "All Heroes perform
//! each Step simultaneously": within a step any Hero with something left to
//! do may act.

mod abilities;
mod combat_pair;
mod damage;
mod drawing;
mod end;
mod evaluate;
mod foe;
mod playing;
mod return_damage;
mod setup;
mod state;
mod steps;

pub use combat_pair::{Outcome, Slot, may_choose, may_choose_outcome};
pub use foe::{FinalEntity, Foe, FoeCard, Individual, PowerList};
pub use state::{Combat, CombatStep, DamagePacket, Engagement, HeroRound, Kill, Wound};
