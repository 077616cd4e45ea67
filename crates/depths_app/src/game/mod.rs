//! The game's state and flow around the rules core: the game on the table
//! (the game, its log, seats, undo and saves as resources), seats and turns (hot-seat, Companions, online), saves and
//! leaving, settings, the schedule in the book's stages, the rules' events
//! as messages, words, forecasts, hints, the guide and the replay.

pub mod cli;
pub mod companions;
pub mod content_assets;
pub mod flow;
pub mod forecasts;
pub mod guide;
pub mod hint;
pub mod hotseat;
pub(crate) mod leaving;
pub mod online;
pub mod replay;
pub mod saves;
pub mod schedule;
pub mod session;
pub mod settings;
pub mod table_events;
pub mod words;
