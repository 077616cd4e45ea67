//! Action Cards: the numbered cards Heroes and Monsters play in Combat and in
//! Feature tests, and the Power Cards shuffled among them ("Action Card Values").

use serde::{Deserialize, Serialize};

use crate::GameRng;

/// Identifies one physical card within its deck, so that decks can be checked
/// for conservation (no card is ever created or lost by a rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CardId(pub u16);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionCard {
    pub id: CardId,
    /// Face value; 0 for a Power Card.
    pub value: u8,
    pub power: bool,
    /// An Item Action Card (chest icon), added to a deck by an Item.
    pub item: bool,
}

impl ActionCard {
    pub fn numbered(id: u16, value: u8) -> Self {
        ActionCard { id: CardId(id), value, power: false, item: false }
    }
    pub fn power(id: u16) -> Self {
        ActionCard { id: CardId(id), value: 0, power: true, item: false }
    }
}

/// The three Monster difficulties; each has its own Monster Action deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Difficulty {
    /// Light (I)
    I,
    /// Medium (II)
    II,
    /// Heavy (III)
    III,
}

impl Difficulty {
    pub const ALL: [Difficulty; 3] = [Difficulty::I, Difficulty::II, Difficulty::III];

    pub fn index(self) -> usize {
        self as usize
    }

    /// "Action Card Values — Monsters"; each deck also holds 2 Power Cards (22 cards).
    pub fn action_values(self) -> [u8; 20] {
        match self {
            Difficulty::I => [2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6],
            Difficulty::II => [3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7],
            Difficulty::III => [1, 1, 1, 1, 2, 2, 2, 2, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7],
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Difficulty::I => "Light (I)",
            Difficulty::II => "Medium (II)",
            Difficulty::III => "Heavy (III)",
        }
    }
}

/// Power Cards in each Monster Action deck: 22 cards less the 20 numbered ones.
pub const MONSTER_POWER_CARDS: usize = 2;

/// A Monster Action deck: shared by every Monster of its difficulty for the
/// whole Ecology; never reshuffled after Combat, only when it runs out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MonsterDeck {
    pub difficulty: Difficulty,
    pub draw: Vec<ActionCard>,
    pub discard: Vec<ActionCard>,
}

impl MonsterDeck {
    pub fn new(difficulty: Difficulty, rng: &mut GameRng) -> Self {
        let mut draw: Vec<ActionCard> =
            difficulty.action_values().iter().enumerate().map(|(i, &v)| ActionCard::numbered(i as u16, v)).collect();
        for p in 0..MONSTER_POWER_CARDS {
            draw.push(ActionCard::power((20 + p) as u16));
        }
        rng.shuffle(&mut draw);
        MonsterDeck { difficulty, draw, discard: Vec::new() }
    }

    /// A deck stacked in a fixed order; the first card is drawn first (for tests and replays).
    pub fn stacked(difficulty: Difficulty, top_first: Vec<ActionCard>) -> Self {
        let mut draw = top_first;
        draw.reverse();
        MonsterDeck { difficulty, draw, discard: Vec::new() }
    }

    /// Draws the top card, shuffling the discard into a new draw pile when empty
    /// ("If a Monster needs to Draw a Card but there are none left…").
    pub fn draw(&mut self, rng: &mut GameRng) -> Option<ActionCard> {
        if self.draw.is_empty() {
            self.draw.append(&mut self.discard);
            rng.shuffle(&mut self.draw);
        }
        self.draw.pop()
    }

    /// Gathers the Discard Pile into the Draw Pile and shuffles them together
    /// (the Setup of each new Ecology).
    pub fn gather(&mut self, rng: &mut GameRng) {
        self.draw.append(&mut self.discard);
        rng.shuffle(&mut self.draw);
    }

    pub fn len_total(&self) -> usize {
        self.draw.len() + self.discard.len()
    }
}
