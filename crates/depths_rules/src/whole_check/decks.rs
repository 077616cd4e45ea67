//! The three Monster Action decks: one per difficulty, in order, each card
//! in one place only (the Draw Pile, the Discard Pile or the Combat's table).

use super::refusal::{Checked, ensure, invalid};
use crate::action_card::{ActionCard, Difficulty};
use crate::game::Game;

/// The most cards a Monster Action deck may hold (22 are printed).
const MAX_CARDS: usize = 255;

pub(super) fn check(g: &Game) -> Checked {
    ensure!(
        g.monster_decks.len() == Difficulty::ALL.len(),
        "monster_decks",
        "the game has {} Monster Action decks, but there is one per difficulty, 3",
        g.monster_decks.len()
    );
    for (d, (deck, difficulty)) in g.monster_decks.iter().zip(Difficulty::ALL).enumerate() {
        ensure!(
            deck.difficulty == difficulty,
            format!("monster_decks.{d}.difficulty"),
            "the {} Monster Action deck is in the place of the {} one",
            deck.difficulty.name(),
            difficulty.name()
        );
        // The cards the deck's Monsters have on the table are still its own.
        let combat = g.combat.iter();
        let table = combat.flat_map(|c| {
            let played = c
                .engagements
                .iter()
                .filter(|e| c.foes.get(usize::from(e.foe)).map(|f| f.difficulty) == Some(difficulty));
            played.flat_map(|e| {
                e.slots.iter().filter_map(|s| s.monster).chain(e.unpaired.iter().copied()).chain(e.waiting)
            })
        });
        let all: Vec<ActionCard> = deck.draw.iter().chain(&deck.discard).copied().chain(table).collect();
        ensure!(
            all.len() <= MAX_CARDS,
            format!("monster_decks.{d}.draw"),
            "the {} Monster Action deck holds {} cards",
            difficulty.name(),
            all.len()
        );
        let mut ids: Vec<_> = all.iter().map(|c| c.id).collect();
        ids.sort_unstable();
        if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
            return Err(invalid(
                format!("monster_decks.{d}.draw"),
                format!("the {} Monster Action deck holds card {} twice", difficulty.name(), w[0].0),
            ));
        }
        ensure!(
            all.iter().all(|c| !c.power || c.value == 0),
            format!("monster_decks.{d}.draw"),
            "a Power Card of the {} Monster Action deck has a value; a Power Card has none",
            difficulty.name()
        );
    }
    Ok(())
}
