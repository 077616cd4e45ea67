//! What the game's flow asks of the table without knowing how it is shown: a
//! short note, framing the whole map, and the mark of cards on show (which
//! Companions wait for).

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Toast>().init_resource::<FitRequested>().init_resource::<PointerNote>();
}

/// Why a click on the table did nothing, said where the player clicked
/// (window px), large enough to read, until it has been read or the next click.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct PointerNote(pub Option<(String, Vec2, f32)>);

impl PointerNote {
    /// How long a note at the pointer stays (seconds): long enough to read it.
    pub fn stay(text: &str) -> f32 {
        (2.5 + 0.06 * text.chars().count() as f32).min(8.0)
    }
}

/// A short note at the top of the table ("Game saved", "Keys: 2", "Level Up").
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct Toast(pub String);

/// Set to ask for the whole map to be framed on the next frame that can.
#[derive(Resource, Default)]
pub struct FitRequested(pub bool);

/// The cards being revealed, on top of the table.
#[derive(Component, Debug)]
pub struct RevealSet;

/// How long the cards on show take to read at an easy pace, in seconds (on
/// the reveal's root): a Companion waits that long before its next move.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct ReadFor(pub f32);

/// The time to read `words` words: a second to take the card in, then 240
/// words a minute.
pub fn reading_time(words: usize) -> f32 {
    1.0 + words as f32 * 0.25
}
