//! Why an action is illegal (an illegal action never changes the game), and
//! why a new game cannot be set up.

use serde::{Deserialize, Serialize};

use crate::content::ContentError;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RuleError {
    GameOver,
    /// The action belongs to another phase or step of play.
    WrongStep {
        expected: &'static str,
    },
    /// The Hero has nothing left to do in this step (the others may still act).
    HeroIsDone {
        hero: u8,
    },
    /// "All of a Hero's Damage must be applied to one Individual Monster."
    OneIndividualPerRound,
    NoSuchHero(u8),
    CardNotInHand,
    NoSuchSlot,
    /// "Monster Hits … must be chosen over any Hero Hits."
    MonsterHitTakesPriority,
    NotACombatPair,
    PairAlreadyChosen,
    PairsNotChosen,
    AbilityNotAvailable,
    /// The ability works only while Exploring.
    NotDuringCombat,
    PassiveNotActivated,
    NotEnoughPower {
        need: u8,
        have: u8,
    },
    SpellExhausted,
    /// A Block-Activated Ability needs a Resolved Block.
    NeedsBlock,
    /// "A Hero may only Activate one Block-Activated Ability each Round."
    BlockAbilityUsed,
    BadTarget,
    IndividualDefeated,
    NotAContributor,
    BadAssignment(&'static str),
    NothingToDo,
    /// A Map Tile is drawn and must be placed first.
    TileWaiting,
    NoTileDrawn,
    NoTilesLeft,
    Placement(crate::map::PlacementError),
    NotReachable,
    /// "Once a Feature has been Encountered…": the element was already
    /// dealt with (Encountered, Defeated, Unlocked).
    AlreadyEncountered,
    /// A Chest in an area whose Monster is not yet Defeated.
    ChestGuarded,
    NeedsKey,
    NotEnoughXp {
        need: u8,
        have: u8,
    },
    AlreadyPaid,
    BadSplit,
    TooManyHands,
    WrongClass,
    NoSuchItem,
    NotWhileEncountering,
    /// A choice in progress (a payment, an Item, an order…) must be made first.
    DecisionPending,
    AlreadyBought,
}

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RuleError::GameOver => write!(f, "the game is over"),
            RuleError::WrongStep { expected } => write!(f, "not now: the game is waiting for {expected}"),
            RuleError::HeroIsDone { hero } => write!(f, "Hero {hero} has nothing left to do in this step"),
            RuleError::OneIndividualPerRound => {
                write!(f, "all of a Hero's Damage this Round must go to the one individual already hit")
            }
            RuleError::NoSuchHero(h) => write!(f, "there is no Hero {h}"),
            RuleError::CardNotInHand => write!(f, "that card is not in the Hero's hand"),
            RuleError::NoSuchSlot => write!(f, "there is no such card position"),
            RuleError::MonsterHitTakesPriority => write!(f, "a Monster Hit must be Resolved before a Hero Hit"),
            RuleError::NotACombatPair => write!(f, "that position is not a full Combat Pair"),
            RuleError::PairAlreadyChosen => write!(f, "a Combat Pair is already chosen there"),
            RuleError::PairsNotChosen => write!(f, "choose a Combat Pair to Resolve first"),
            RuleError::AbilityNotAvailable => write!(f, "the Hero has no such ability available"),
            RuleError::NotDuringCombat => write!(f, "that ability can only be used while Exploring"),
            RuleError::PassiveNotActivated => write!(f, "Passive abilities are always on and need no activation"),
            RuleError::NotEnoughPower { need, have } => {
                write!(f, "needs {need} Stored Power Card(s), the Hero has {have}")
            }
            RuleError::SpellExhausted => write!(f, "that Spell is Exhausted until Refreshed"),
            RuleError::NeedsBlock => write!(f, "a Block-Activated Ability needs a Resolved Block"),
            RuleError::BlockAbilityUsed => write!(f, "only one Block-Activated Ability each Round"),
            RuleError::BadTarget => write!(f, "that is not a valid target"),
            RuleError::IndividualDefeated => write!(f, "that Monster is already Defeated"),
            RuleError::NotAContributor => write!(f, "only a Hero who contributed Damage may Avoid Return Damage"),
            RuleError::BadAssignment(why) => write!(f, "invalid Monster assignment: {why}"),
            RuleError::NothingToDo => write!(f, "there is nothing to do"),
            RuleError::TileWaiting => write!(f, "place the drawn Map Tile first"),
            RuleError::NoTileDrawn => write!(f, "no Map Tile is waiting to be placed"),
            RuleError::NoTilesLeft => write!(f, "the Map Tile pile is empty"),
            RuleError::Placement(e) => write!(f, "the tile cannot go there: {e}"),
            RuleError::NotReachable => write!(f, "the Heroes cannot reach that"),
            RuleError::AlreadyEncountered => write!(f, "that has already been Encountered"),
            RuleError::ChestGuarded => write!(f, "a Monster in its area guards that Chest: defeat it first"),
            RuleError::NeedsKey => write!(f, "a Key is needed to Unlock it"),
            RuleError::NotEnoughXp { need, have } => write!(f, "costs {need} XP, the Heroes have {have}"),
            RuleError::AlreadyPaid => write!(f, "the cost is already paid"),
            RuleError::BadSplit => write!(f, "share out exactly the Healing bought, no Hero above their maximum"),
            RuleError::TooManyHands => write!(f, "no more than 2 hand icons of Items may be Equipped"),
            RuleError::WrongClass => write!(f, "that Item is for another class"),
            RuleError::NoSuchItem => write!(f, "no such Item"),
            RuleError::NotWhileEncountering => write!(f, "not while Encountering"),
            RuleError::DecisionPending => write!(f, "finish the choice in progress first"),
            RuleError::AlreadyBought => write!(f, "only one Ability per Hero at each Level Up"),
        }
    }
}

impl std::error::Error for RuleError {}

/// Why [`crate::Game::new`] (or [`crate::Game::from_record`]) cannot set up a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    NoHeroes,
    /// More than 3 Heroes chosen (the count).
    TooManyHeroes(usize),
    /// No Hero Mat has this id.
    UnknownHero(String),
    /// The same Hero (by name) chosen twice.
    HeroTwice(String),
    /// The content cannot be set up (an Ecology without its tiles…).
    Content(ContentError),
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::NoHeroes | SetupError::TooManyHeroes(_) => write!(f, "choose 1 to 3 Heroes"),
            SetupError::UnknownHero(id) => write!(f, "no Hero \"{id}\""),
            SetupError::HeroTwice(name) => write!(f, "{name} is chosen twice"),
            SetupError::Content(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SetupError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SetupError::Content(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ContentError> for SetupError {
    fn from(e: ContentError) -> SetupError {
        SetupError::Content(e)
    }
}
