//! How the whole-game check refuses a game: the field and the reason, in a
//! player's words, and the small helpers its checks share.

use crate::game::Game;
use crate::save::SaveError;

/// The most Heroes at the table ("1–3 players"); each also has a bit in a
/// Combat's masks of Heroes, which hold 8.
pub(super) const MAX_HEROES: usize = 3;

/// The most of anything a Hero owns or a list offers that actions name by a
/// one-byte number (Items, Abilities, XP cards, options).
pub(super) const MAX_NAMED: usize = u8::MAX as usize;

/// Refuses the game unless `$ok`: `$field` is where, the rest says why (as `format!`).
macro_rules! ensure {
    ($ok:expr, $field:expr, $($reason:tt)+) => {
        if !$ok {
            return Err($crate::whole_check::refusal::invalid($field, format!($($reason)+)));
        }
    };
}
pub(crate) use ensure;

pub(super) type Checked = Result<(), SaveError>;

pub(crate) fn invalid(field: impl Into<String>, reason: impl Into<String>) -> SaveError {
    SaveError::Invalid { field: field.into(), reason: reason.into() }
}

/// The first of a card's faults, if any, as a refusal at `field`.
pub(super) fn faultless(faults: Vec<String>, field: impl FnOnce() -> String, card: &str) -> Checked {
    match faults.into_iter().next() {
        Some(fault) => Err(invalid(field(), format!("{card}: {fault}"))),
        None => Ok(()),
    }
}

/// "first", "second", …: the place of something in a list.
pub(super) fn nth(i: usize) -> String {
    match i {
        0 => "first".into(),
        1 => "second".into(),
        2 => "third".into(),
        3 => "fourth".into(),
        _ => format!("{}th", i + 1),
    }
}

/// A Hero by name (by number if the name is missing), for the refusal.
pub(super) fn who(g: &Game, hero: usize) -> String {
    match g.heroes.get(hero).map(|h| h.name()) {
        Some(name) if !name.trim().is_empty() => name.to_string(),
        _ => format!("Hero {hero}"),
    }
}
