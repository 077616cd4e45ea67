//! Every decision a player can make, as data.

use serde::{Deserialize, Serialize};

use crate::action_card::CardId;
use crate::adventure::{Purchase, XpRef};
use crate::hero::AbilitySource;
use crate::map::{ElementRef, Placement};

/// Room made at once for the candidates of a list of legal actions.
pub(crate) const CANDIDATES: usize = 32;

/// What an activated ability points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Target {
    None,
    /// One of the Hero's engagements (for effects on both Played Cards).
    Engagement(u8),
    /// An individual Monster or Final Entity part.
    Individual {
        foe: u8,
        individual: u8,
    },
    /// One of the Hero's own slots in one engagement.
    HeroSlot {
        engagement: u8,
        slot: u8,
    },
    /// The Monster Card in one of the Hero's slots.
    MonsterSlot {
        engagement: u8,
        slot: u8,
    },
    Hero(u8),
    DiscardCard(CardId),
    /// An Ecology Element on the map (a Door to unlock).
    Element(ElementRef),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    // --- Combat ---
    /// Two Monster Cards: which card each Hero fights (index per Hero).
    AssignMonsters {
        foes: Vec<u8>,
    },
    /// "2. Play Cards": play one card from the Hero's hand.
    PlayCard {
        hero: u8,
        card: CardId,
    },
    /// A Monster played 1 card against the Hero's 2: put it opposite `slot`.
    PlaceMonsterCard {
        hero: u8,
        slot: u8,
    },
    /// "4. Activate Hero Abilities".
    ActivateAbility {
        hero: u8,
        source: AbilitySource,
        target: Target,
    },
    /// "3. Evaluate Combat Pairs": the pair the Hero Resolves in one engagement.
    ChoosePair {
        hero: u8,
        engagement: u8,
        slot: u8,
    },
    /// The Hero is done choosing pairs and activating abilities this Round.
    EndTurn {
        hero: u8,
    },
    /// "Applying Damage to Pairs, Groups, or Hordes": which individual takes
    /// the Hero's pending damage.
    AssignDamage {
        hero: u8,
        individual: u8,
    },
    /// Several Heroes defeated an individual together: which one Avoids Return Damage.
    AvoidReturnDamage {
        hero: u8,
    },

    // --- Exploring ---
    /// Draw the next Map Tile.
    DrawTile,
    /// Place the drawn Map Tile.
    PlaceTile {
        placement: Placement,
    },
    /// Place the tile set aside under "One Dead-End Per Ecology".
    PlaceSetAsideTile {
        placement: Placement,
    },
    /// Encounter a Discovered Ecology Element.
    Encounter {
        element: ElementRef,
    },
    /// Encounter a Discovered Legendary Location (index into
    /// [`crate::Game::discovered_legendary_locations`]).
    EncounterLegendary {
        index: u8,
    },
    /// Begin buying a Key, Healing or an Ability with XP.
    StartPurchase {
        what: Purchase,
    },
    /// Pay one XP card (or Item) towards the purchase.
    PayXp {
        card: XpRef,
    },
    /// Give up the purchase; the cards paid return to the pool.
    CancelPurchase,
    /// How the Health Points bought are shared among the Heroes.
    SplitHealing {
        amounts: Vec<u8>,
    },
    Equip {
        hero: u8,
        item: u8,
    },
    Unequip {
        hero: u8,
        item: u8,
    },

    // --- Encountering choices ---
    /// The Hero who draws the Item, is healed, …
    ChooseHero {
        hero: u8,
    },
    /// Which of the offered Items / Abilities to keep, or which order of revealed Features.
    ChooseOption {
        index: u8,
    },
    /// "Remove the indicated number of Action Cards from your Action Card Deck."
    RemoveActionCard {
        card: CardId,
    },
    /// Done buying Abilities at Level Up: the Ecology is complete.
    FinishLevelUp,
    /// "Passage to Next Ecology": set up the next Ecology and begin it.
    Descend,
}

impl Action {
    /// One of Combat's Actions (the Combat steps' own; an ability may also be
    /// Activated outside Combat).
    pub fn is_combat(&self) -> bool {
        matches!(
            self,
            Action::AssignMonsters { .. }
                | Action::PlayCard { .. }
                | Action::PlaceMonsterCard { .. }
                | Action::ChoosePair { .. }
                | Action::EndTurn { .. }
                | Action::AssignDamage { .. }
                | Action::AvoidReturnDamage { .. }
        )
    }
}
