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
mod refusal;

use crate::event::LossReason;
use crate::game::{Game, Stage};
use crate::save::SaveError;
use refusal::{Checked, ensure, invalid, who};

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
