//! What changed, reported by [`crate::Game::apply`] for the log and the client.

use serde::{Deserialize, Serialize};

use crate::action_card::ActionCard;
use crate::combat::Outcome;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LossReason {
    /// "They Draw a Map Tile that cannot be placed legally."
    DeadEnd,
    /// Nothing left to do: no tile to draw and nothing to Encounter.
    Stranded,
    /// "One of the Heroes is Defeated."
    HeroDefeated { hero: u8 },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    CombatStarted {
        foes: Vec<String>,
    },
    MonstersAssigned {
        foes: Vec<u8>,
    },
    RoundStarted {
        round: u32,
    },
    CardsDrawn {
        hero: u8,
        count: u8,
    },
    PowerStored {
        hero: u8,
    },
    DiscardReshuffled {
        hero: u8,
    },
    CannotPlay {
        hero: u8,
    },
    CardPlayed {
        hero: u8,
        engagement: u8,
        slot: u8,
        card: ActionCard,
    },
    MonsterCardPlayed {
        foe: u8,
        engagement: u8,
        slot: Option<u8>,
        card: ActionCard,
    },
    /// A Monster played 1 card against a Hero's 2: it lies face up beside
    /// them until the Hero places it (Combat step "place a Monster's card").
    MonsterCardWaiting {
        foe: u8,
        engagement: u8,
        card: ActionCard,
    },
    MonsterDeckReshuffled {
        foe: u8,
    },
    MonsterPowerDrawn {
        foe: u8,
        hero: u8,
    },
    MonsterAbility {
        foe: u8,
        name: String,
        heroes: Vec<u8>,
    },
    MonsterPowerWasted {
        foe: u8,
    },
    MonsterCardMoved {
        engagement: u8,
        slot: u8,
    },
    PairChosen {
        hero: u8,
        engagement: u8,
        slot: u8,
        outcome: Outcome,
    },
    AbilityActivated {
        hero: u8,
        name: String,
    },
    PowerSpent {
        hero: u8,
        count: u8,
    },
    SpellExhausted {
        hero: u8,
        name: String,
    },
    MonsterDamaged {
        hero: u8,
        foe: u8,
        individual: u8,
        amount: u8,
    },
    IndividualDefeated {
        foe: u8,
        individual: u8,
    },
    MonsterHealed {
        foe: u8,
        individual: u8,
        amount: u8,
    },
    ReturnDamageAvoided {
        hero: u8,
    },
    HeroDamaged {
        hero: u8,
        amount: u8,
    },
    HeroHealed {
        hero: u8,
        amount: u8,
    },
    FoeDefeated {
        foe: u8,
    },
    RoundEnded {
        round: u32,
    },
    CombatWon,
    GameLost {
        reason: LossReason,
    },

    // --- Exploring and Encountering ---
    /// A line for the game log.
    Note {
        text: String,
    },
    EcologyStarted {
        ecology: crate::Ecology,
    },
    /// "After Level Up, the current Ecology is complete": the Passage to
    /// `next` waits for the Heroes.
    EcologyCompleted {
        ecology: crate::Ecology,
        next: crate::Ecology,
    },
    TileDrawn {
        tile: String,
    },
    TilePlaced {
        tile: String,
        placement: crate::map::Placement,
    },
    TileSetAside {
        tile: String,
    },
    ElementEncountered {
        element: crate::map::ElementRef,
    },
    LegendaryLocationEncountered {
        pattern: String,
    },
    CardDrawn {
        name: String,
    },
    /// Item or Ability cards drawn for a Hero to choose from (or to take,
    /// when only one is drawn).
    CardsOffered {
        hero: u8,
        names: Vec<String>,
    },
    TestResolved {
        total: u16,
        target: u8,
        passed: bool,
        /// The values of the cards each Hero drew for the test, by Hero
        /// (so the table can lay them out; they are Discarded later).
        #[serde(default)]
        drawn: Vec<Vec<u8>>,
    },
    XpGained {
        name: String,
        xp: u8,
    },
    XpSpent {
        xp: u8,
    },
    KeysChanged {
        keys: u8,
    },
    ItemGained {
        hero: u8,
        name: String,
    },
    AbilityGained {
        hero: u8,
        name: String,
    },
    Rested,
    LevelUp {
        level: u8,
    },
    GameWon,
}

/// A short log line for the client.
/// What a move let the players see that they could not know before it: the
/// line an undo may not cross.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reveal {
    /// A Map Tile was drawn.
    Tile,
    /// A Feature, Monster, Item, Ability or Legendary Location card was drawn.
    Card,
    /// Heroes drew Action Cards.
    ActionCards,
    /// A Monster's Action Card was turned over.
    MonsterCard,
    /// A deck or pile was shuffled (or a new Ecology laid out).
    Shuffle,
    /// A test's cards were drawn.
    Test,
    /// The game ended, won or lost: its end is final (the table records it).
    End,
}

impl Event {
    /// What this event revealed, if anything. Every kind is decided here (no
    /// `_` arm): a new event does not build until it is classified.
    pub fn reveal(&self) -> Option<Reveal> {
        use Event as E;
        match self {
            E::CombatStarted { .. }
            | E::MonsterCardPlayed { .. }
            | E::MonsterCardWaiting { .. }
            | E::MonsterPowerDrawn { .. } => Some(Reveal::MonsterCard),
            E::CardsDrawn { .. } => Some(Reveal::ActionCards),
            E::DiscardReshuffled { .. } | E::MonsterDeckReshuffled { .. } | E::EcologyStarted { .. } | E::Rested => {
                Some(Reveal::Shuffle)
            }
            E::TileDrawn { .. } => Some(Reveal::Tile),
            E::CardDrawn { .. } | E::CardsOffered { .. } | E::ItemGained { .. } | E::AbilityGained { .. } => {
                Some(Reveal::Card)
            }
            E::TestResolved { .. } => Some(Reveal::Test),
            E::GameWon | E::GameLost { .. } => Some(Reveal::End),
            E::MonstersAssigned { .. }
            | E::RoundStarted { .. }
            | E::PowerStored { .. }
            | E::CannotPlay { .. }
            | E::CardPlayed { .. }
            | E::MonsterAbility { .. }
            | E::MonsterPowerWasted { .. }
            | E::MonsterCardMoved { .. }
            | E::PairChosen { .. }
            | E::AbilityActivated { .. }
            | E::PowerSpent { .. }
            | E::SpellExhausted { .. }
            | E::MonsterDamaged { .. }
            | E::IndividualDefeated { .. }
            | E::MonsterHealed { .. }
            | E::ReturnDamageAvoided { .. }
            | E::HeroDamaged { .. }
            | E::HeroHealed { .. }
            | E::FoeDefeated { .. }
            | E::RoundEnded { .. }
            | E::CombatWon
            | E::Note { .. }
            | E::EcologyCompleted { .. }
            | E::TilePlaced { .. }
            | E::TileSetAside { .. }
            | E::ElementEncountered { .. }
            | E::LegendaryLocationEncountered { .. }
            | E::XpGained { .. }
            | E::XpSpent { .. }
            | E::KeysChanged { .. }
            | E::LevelUp { .. } => None,
        }
    }
}

/// The first thing `events` revealed, if any.
pub fn revealed(events: &[Event]) -> Option<Reveal> {
    events.iter().find_map(Event::reveal)
}

pub(crate) fn note(events: &mut Vec<Event>, text: impl Into<String>) {
    events.push(Event::Note { text: text.into() });
}
