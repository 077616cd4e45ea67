//! One check of a whole game: every number the rules use to find something
//! (a Hero, a Monster Card, an individual, a pairing, a card position, a
//! Power list's next ability, a decision's options…) finds it, every number
//! keeps the rules' own bounds (Health within its maximum, the level, the
//! Keys, the Rounds, Monster health against the card), and the phase fits
//! the state (a Combat phase has a Combat, a step has someone who may act,
//! a decision has what it decides over). The rules trust such a game and do
//! not ask again on every move, so [`Game::load_json`] runs this before
//! anything asks a loaded game a question. Split by the book's nouns: the
//! Heroes, the Monster Action decks, the Combat, the Adventure (its decks,
//! map and decisions); the cards' own faults are the content's.

mod adventure;
mod combat;
mod decks;
mod heroes;

use super::SaveError;
use crate::event::LossReason;
use crate::game::{Game, Stage};

/// The most Heroes at the table ("1–3 players"); each also has a bit in a
/// Combat's masks of Heroes, which hold 8.
pub(crate) const MAX_HEROES: usize = 3;

/// The most of anything a Hero owns or a list offers that actions name by a
/// one-byte number (Items, Abilities, XP cards, options).
const MAX_NAMED: usize = u8::MAX as usize;

/// Refuses the game unless `$ok`: `$field` is where, the rest says why (as `format!`).
macro_rules! ensure {
    ($ok:expr, $field:expr, $($reason:tt)+) => {
        if !$ok {
            return Err($crate::save::check::invalid($field, format!($($reason)+)));
        }
    };
}
pub(crate) use ensure;

type Checked = Result<(), SaveError>;

pub(crate) fn invalid(field: impl Into<String>, reason: impl Into<String>) -> SaveError {
    SaveError::Invalid { field: field.into(), reason: reason.into() }
}

/// The first of a card's faults, if any, as a refusal at `field`.
fn faultless(faults: Vec<String>, field: impl FnOnce() -> String, card: &str) -> Checked {
    match faults.into_iter().next() {
        Some(fault) => Err(invalid(field(), format!("{card}: {fault}"))),
        None => Ok(()),
    }
}

/// "first", "second", …: the place of something in a list.
fn nth(i: usize) -> String {
    match i {
        0 => "first".into(),
        1 => "second".into(),
        2 => "third".into(),
        3 => "fourth".into(),
        _ => format!("{}th", i + 1),
    }
}

/// A Hero by name (by number if the name is missing), for the refusal.
fn who(g: &Game, hero: usize) -> String {
    match g.heroes.get(hero).map(|h| h.name()) {
        Some(name) if !name.trim().is_empty() => name.to_string(),
        _ => format!("Hero {hero}"),
    }
}

impl Game {
    /// Whether the game holds together as the rules keep it; the first thing
    /// that does not, with where it is and why, if not. [`Game::load_json`]
    /// runs it on every save; call it on a game that came any other way (the
    /// network, a tool) before asking it anything: the rules trust what
    /// passes, and a game that passes takes any legal move without a panic.
    pub fn check_whole(&self) -> Result<(), SaveError> {
        heroes::check(self)?;
        decks::check(self)?;
        stage(self)?;
        if let Some(c) = &self.combat {
            combat::check(self, c)?;
        }
        if let Some(a) = self.adventure() {
            adventure::check(self, a)?;
        }
        Ok(())
    }
}

/// The stage fits the rest: a Combat phase has a Combat, a fight on its own
/// is only that fight, and a Hero without Health has lost the game.
fn stage(g: &Game) -> Checked {
    match &g.stage {
        Stage::Combat => ensure!(g.combat.is_some(), "combat", "the game is in a Combat, but there is no Combat"),
        Stage::OutOfCombat => {
            ensure!(g.combat.is_none(), "combat", "the game is out of Combat, but holds a Combat");
            ensure!(
                g.adventure.is_some(),
                "stage",
                "a fight on its own is over once its Combat is, but this one goes on out of Combat"
            );
        }
        Stage::Won => ensure!(g.combat.is_none(), "combat", "the game is won, but a Combat goes on"),
        Stage::Lost(LossReason::HeroDefeated { hero }) => {
            let h = usize::from(*hero);
            ensure!(
                h < g.heroes.len(),
                "stage.Lost.HeroDefeated.hero",
                "the game was lost when Hero {hero} was Defeated, but there are {} Heroes",
                g.heroes.len()
            );
            ensure!(
                g.heroes[h].health == 0,
                format!("heroes.{h}.health"),
                "the game was lost when {} was Defeated, but {} has {} Health",
                who(g, h),
                who(g, h),
                g.heroes[h].health
            );
        }
        Stage::Lost(_) => {}
    }
    // "The Heroes Lose if … One of the Heroes is Defeated."
    if !matches!(g.stage, Stage::Lost(_))
        && let Some(h) = g.heroes.iter().position(|h| h.health == 0)
    {
        return Err(invalid(
            format!("heroes.{h}.health"),
            format!("{} has no Health left, but the game is not lost", who(g, h)),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
