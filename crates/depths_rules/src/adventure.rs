//! A whole game beyond Combat: "Game Setup" (and "Starting at a Lower
//! Ecology"), the state of the Ecology in play, the XP pool, Keys, the decks
//! of Items and Abilities, and the choices play waits for.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::Ecology;
use crate::action_card::ActionCard;
use crate::combat::Foe;
use crate::content::Content;
use crate::effect::Effect;
use crate::feature::{FeatureCard, ReferenceCard};
use crate::hero::{AbilityCard, HeroClass, ItemCard};
use crate::legendary_location::{LegendaryCard, LegendaryPiles};
use crate::map::{
    DeadEndAllowance, ElementRef, Map, MapTile, RuneMatches, RunePattern, ThroughCounter, TilePile, UsedRunes,
};
use crate::monster::MonsterCard;
use crate::options::GameOptions;
use crate::shared::Shared;

/// The most Keys the Heroes may hold (a card that gives Keys stops there).
pub const MAX_KEYS: u8 = 99;

/// Where a card in the communal Experience Point pool came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum XpSource {
    Monster,
    Feature,
    LegendaryLocation,
    StairGuardian,
}

/// A card in the communal XP pool, worth its printed XP.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct XpCard {
    pub name: String,
    pub xp: u8,
    pub source: XpSource,
}

/// A card or Item offered as payment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum XpRef {
    /// A card in the pool, by index.
    Pool(u8),
    /// "Equipped and Unequipped Items may be spent for their Experience Point Value."
    Item { hero: u8, item: u8 },
}

/// The three things XP buys ("Spending Experience Points").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Purchase {
    Key,
    /// `units` times the Reference Card's healing.
    Healing {
        units: u8,
    },
    /// One Ability for a Hero, at Level Up (or when starting lower).
    Ability {
        hero: u8,
    },
}

/// An Item offered as payment, with where it came from so a cancelled
/// purchase puts it back exactly as it was.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OfferedItem {
    pub hero: u8,
    pub index: u8,
    pub item: crate::hero::OwnedItem,
}

/// Why the players must name a Hero.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum HeroChoice {
    /// A Chest or a card: one Hero draws one Item.
    DrawItem,
    GainItem(ItemCard),
    Heal(u8),
    Damage(u8),
}

/// A decision the game is waiting for, outside Combat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Pending {
    Purchase {
        what: Purchase,
        cost: u8,
        paid: Vec<XpCard>,
        items: Vec<OfferedItem>,
    },
    SplitHealing {
        points: u8,
    },
    ChooseHero(HeroChoice),
    /// A multi-classed Hero keeps one of the Items drawn.
    ChooseItem {
        hero: u8,
        options: Vec<ItemCard>,
    },
    /// "3. Remove the indicated number of Action Cards."
    RemoveCards {
        hero: u8,
        count: u8,
    },
    /// A multi-classed Hero chooses how to draw: one from each class (0) or
    /// two from the Primary class (1).
    ChooseAbilityDraw {
        hero: u8,
    },
    /// Draw two Abilities, keep one.
    ChooseAbility {
        hero: u8,
        options: Vec<AbilityCard>,
    },
    /// "Reveal the next (n) Features. Assign them in any order…"
    OrderFeatures {
        cards: Vec<FeatureCard>,
    },
    /// After a Stair Guardian: each Hero may buy one Ability, then Passage.
    LevelUp {
        bought: Vec<bool>,
    },
    /// "Passage to Next Ecology": Level Up is done and the Ecology complete
    /// (the moment to record the Heroes); the Heroes descend when ready.
    Passage {
        next: Ecology,
    },
}

/// What an encounter in progress will do when its effects are resolved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Resolving {
    Feature(FeatureCard),
    Legendary {
        pattern: usize,
        card: LegendaryCard,
        next: Option<char>,
    },
    /// Combat against Monster Cards drawn for an element or a card.
    Monsters,
    StairGuardian,
    FinalEntity,
}

/// One Ecology in play: its map, decks and Reference Card.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EcologyState {
    pub ecology: Ecology,
    pub map: Map,
    pub pile: TilePile,
    /// Drawn and waiting to be placed.
    pub drawn: Option<MapTile>,
    pub dead_end: DeadEndAllowance,
    /// Top = last. The cards of the piles are shared by the copies of a game.
    pub monsters: Vec<Shared<MonsterCard>>,
    pub set_aside_monsters: Vec<Shared<MonsterCard>>,
    pub features: Vec<Shared<FeatureCard>>,
    /// Features revealed by a card, in the order they will be met (next = last).
    pub revealed_features: Vec<FeatureCard>,
    pub stair_guardians: Vec<Shared<MonsterCard>>,
    pub patterns: Vec<RunePattern>,
    pub legendary: Vec<LegendaryPiles>,
    pub used_runes: UsedRunes,
    pub reference: ReferenceCard,
    /// The element being Encountered (for its Encounter Token).
    pub encountering: Option<ElementRef>,
    /// The matches of `patterns` on `map`, brought up to date as tiles are placed.
    #[serde(skip)]
    pub(crate) rune_matches: RuneMatches,
}

impl EcologyState {
    /// Counts the Legendary Locations a tile would show on this Ecology's
    /// map, with the patterns turned that the game keeps.
    pub fn through_counter(&self) -> ThroughCounter<'_> {
        let turned = self.rune_matches.turned(&self.patterns);
        ThroughCounter::with_turned(&self.map, &self.patterns, &self.used_runes, turned)
    }
}

/// What the Adventure Record Sheet holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdventureRecord {
    pub ecologies_cleared: Vec<Ecology>,
    pub monsters_defeated: u32,
    pub xp_earned: u32,
    pub xp_spent: u32,
    pub legendary_locations_found: Vec<String>,
    pub tiles_placed: u32,
}

/// Everything a full game adds to the Combat core.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Adventure {
    pub options: GameOptions,
    /// Every card of the game, shared by the copies of a game (a forecast
    /// copies the game for every playout); saved as the cards themselves.
    #[serde(with = "crate::shared")]
    pub content: Arc<Content>,
    pub ecology: EcologyState,
    pub xp_pool: Vec<XpCard>,
    pub keys: u8,
    /// Item and Ability draw piles per class (Fighter, Wizard, Rogue); top = last.
    pub item_decks: Vec<Vec<Shared<ItemCard>>>,
    pub ability_decks: Vec<Vec<Shared<AbilityCard>>>,
    /// Item Action Cards not yet Added, per class.
    pub item_action_cards: Vec<Vec<ActionCard>>,
    pub pending: Vec<Pending>,
    /// Card effects still to resolve (next = first).
    pub queue: Vec<Effect>,
    pub resolving: Vec<Resolving>,
    /// Foes of the Combat just won, for their XP.
    pub defeated: Vec<Foe>,
    pub record: AdventureRecord,
    /// The Final Entity's Lore, once it is set up.
    pub final_entity_lore: Option<String>,
    /// What is being Encountered, until it is fully Resolved.
    #[serde(default)]
    pub encounter: Option<Encountering>,
    /// The choices of Game Setup ("Starting at a Lower Ecology") are still
    /// being made.
    #[serde(default)]
    pub setting_up: bool,
    /// Cards the players put back at the bottom of the Item and Ability decks.
    #[serde(default)]
    pub known_at_bottom: KnownAtBottom,
    /// "Starting at a Lower Ecology": the Heroes still to Gain an Ability "by
    /// the process described in Leveling Up", in turn (next = first). Each
    /// pair is drawn only once the choice before it is made. Absent from a
    /// save that has none, or from one made when every pair was drawn at once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abilities_to_gain: Vec<u8>,
}

/// How many cards at the bottom of each class's Item and Ability deck the
/// players know: those they saw and put back there ("Items not selected are
/// put on the bottom of the Item Deck", "place the other at the bottom of
/// their Ability pile"). Cards leave these decks only from the top, so a
/// count stays right until the deck is shorter than it; then every card left
/// is a known one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnownAtBottom {
    /// Per class (Fighter, Wizard, Rogue).
    pub items: [u8; 3],
    pub abilities: [u8; 3],
}

impl Adventure {
    /// Puts a seen Item Card at the bottom of class deck `deck`.
    pub fn put_under_item_deck(&mut self, deck: usize, card: impl Into<Shared<ItemCard>>) {
        let card = card.into();
        let known = &mut self.known_at_bottom.items[deck];
        *known = (*known).min(self.item_decks[deck].len() as u8).saturating_add(1);
        self.item_decks[deck].insert(0, card);
    }

    /// Puts a seen Ability Card at the bottom of its class's deck.
    pub fn put_under_ability_deck(&mut self, card: impl Into<Shared<AbilityCard>>) {
        let card = card.into();
        let deck = class_index(card.class);
        let known = &mut self.known_at_bottom.abilities[deck];
        *known = (*known).min(self.ability_decks[deck].len() as u8).saturating_add(1);
        self.ability_decks[deck].insert(0, card);
    }
}

pub fn class_index(c: HeroClass) -> usize {
    match c {
        HeroClass::Fighter => 0,
        HeroClass::Wizard => 1,
        HeroClass::Rogue => 2,
    }
}

/// The Ecology Element (or card) being Encountered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Encountering {
    Monster,
    Feature,
    Door,
    Chest,
    LegendaryLocation,
    Campfire,
    StairGuardian,
    FinalEntity,
}
