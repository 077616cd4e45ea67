//! Taking moves back: every move since the last one that revealed something
//! (a tile or card drawn, a deck shuffled, a test's cards turned) can be
//! undone exactly and redone, and no further. The history keeps the game as
//! it was before each of those moves, so an undo restores it whole, random
//! generator included.

use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::error::RuleError;
use crate::event::{Event, Reveal, revealed};
use crate::game::Game;

/// Why there is nothing to take back (or to put back).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum UndoRefused {
    /// No move was made since the game began (or was loaded).
    NoMove,
    /// The last move revealed this: it and what came before stay.
    Revealed(Reveal),
    /// Nothing was taken back since the last move.
    NothingToRedo,
}

impl std::fmt::Display for UndoRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UndoRefused::NoMove => write!(f, "no move has been made yet"),
            UndoRefused::Revealed(r) => write!(f, "{} since", r.words()),
            UndoRefused::NothingToRedo => write!(f, "nothing was taken back"),
        }
    }
}

impl Reveal {
    /// "a Map Tile was drawn", for "… since".
    pub fn words(self) -> &'static str {
        match self {
            Reveal::Tile => "a Map Tile was drawn",
            Reveal::Card => "a card was drawn",
            Reveal::ActionCards => "Action Cards were drawn",
            Reveal::MonsterCard => "a Monster card was turned over",
            Reveal::Shuffle => "a deck was shuffled",
            Reveal::Test => "a test's cards were drawn",
            Reveal::End => "the game ended",
        }
    }
}

/// The moves since the last reveal, each with the game before it, and the
/// moves taken back since the last move.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct History {
    past: Vec<(Game, Action)>,
    future: Vec<Action>,
    /// What the move that began this stretch revealed.
    wall: Option<Reveal>,
}

impl History {
    /// Applies `action` to `game`; a legal move that revealed nothing can be
    /// taken back, one that revealed something begins a new stretch. A new
    /// move forgets what was taken back. An illegal one changes nothing.
    pub fn apply(&mut self, game: &mut Game, action: Action) -> Result<Vec<Event>, RuleError> {
        let before = game.clone();
        let events = game.apply(action.clone())?;
        self.future.clear();
        match revealed(&events) {
            Some(reveal) => {
                self.past.clear();
                self.wall = Some(reveal);
            }
            None => self.past.push((before, action)),
        }
        Ok(events)
    }

    /// Restores the game as it was before the last move (if that move
    /// revealed nothing) and returns that move.
    pub fn undo(&mut self, game: &mut Game) -> Result<Action, UndoRefused> {
        let (before, action) = self.past.pop().ok_or(self.why_not_undo())?;
        *game = before;
        self.future.push(action.clone());
        Ok(action)
    }

    /// Makes again the last move taken back.
    pub fn redo(&mut self, game: &mut Game) -> Result<(Action, Vec<Event>), UndoRefused> {
        let action = self.future.pop().ok_or(UndoRefused::NothingToRedo)?;
        let before = game.clone();
        match game.apply(action.clone()) {
            // The same game and the same move: legal and revealing nothing, as before.
            Ok(events) => {
                self.past.push((before, action.clone()));
                Ok((action, events))
            }
            Err(_) => {
                self.future.clear();
                Err(UndoRefused::NothingToRedo)
            }
        }
    }

    /// The move an undo would take back, or why there is none.
    pub fn next_undo(&self) -> Result<&Action, UndoRefused> {
        self.past.last().map(|(_, a)| a).ok_or(self.why_not_undo())
    }

    /// The move a redo would make again.
    pub fn next_redo(&self) -> Option<&Action> {
        self.future.last()
    }

    /// How many moves can be taken back.
    pub fn undoable(&self) -> usize {
        self.past.len()
    }

    fn why_not_undo(&self) -> UndoRefused {
        self.wall.map_or(UndoRefused::NoMove, UndoRefused::Revealed)
    }
}
