//! Heroes: Hero Mats, their Action Card decks, Items and Ability Cards.

use serde::{Deserialize, Serialize};

use crate::GameRng;
use crate::action_card::{ActionCard, CardId};
use crate::effect::{Ability, Activation, Effect};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HeroClass {
    Fighter,
    Wizard,
    Rogue,
}

impl HeroClass {
    /// "Action Card Values — Heroes (starting Action Card Decks)".
    pub fn action_values(self) -> [u8; 12] {
        match self {
            HeroClass::Fighter => [3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8],
            HeroClass::Wizard => [2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8],
            HeroClass::Rogue => [2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7],
        }
    }

    /// Power Cards in the deck ("Sil has 3 Power Cards, but the third one is
    /// only added … when she reaches level 3").
    pub fn power_cards(self) -> u8 {
        match self {
            HeroClass::Wizard => 3,
            _ => 2,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            HeroClass::Fighter => "Fighter",
            HeroClass::Wizard => "Wizard",
            HeroClass::Rogue => "Rogue",
        }
    }
}

/// One side of a Hero Mat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeroMat {
    /// "bren", "sil", "ava" (the alternate sides add "_alt").
    pub id: String,
    pub name: String,
    pub class: HeroClass,
    /// Alternate (multi-classed) Heroes list a Secondary Class.
    #[serde(default)]
    pub secondary_class: Option<HeroClass>,
    /// Maximum Health Value at levels 1, 2 and 3.
    pub max_health: [u8; 3],
    /// Starting Block-Activated and Power-Activated abilities.
    pub abilities: Vec<Ability>,
}

/// An Item Card ("Chests", "Equipping / Unequipping Items").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemCard {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// The class Item deck it belongs to; `None` for treasures found only at
    /// Features and Legendary Locations (and the Fabled Blades).
    #[serde(default)]
    pub deck: Option<HeroClass>,
    /// Set for class-restricted Items ("Fighter Item").
    #[serde(default)]
    pub class_only: Option<HeroClass>,
    /// Hand icons; at most 2 hands' worth may be Equipped.
    #[serde(default)]
    pub hands: u8,
    #[serde(default)]
    pub magic: bool,
    #[serde(default)]
    pub armor: u8,
    #[serde(default)]
    pub abilities: Vec<Ability>,
    #[serde(default)]
    pub xp: u8,
    /// Values of the Item Action Cards this Item Adds.
    #[serde(default)]
    pub add_cards: Vec<u8>,
    /// How many Action Cards to Remove after Adding.
    #[serde(default)]
    pub remove_cards: u8,
    /// Limited-use Items: number of uses (tokens).
    #[serde(default)]
    pub uses: Option<u8>,
    /// One of the two Fabled Blades (Null, Nenth), with its own token.
    #[serde(default)]
    pub fabled_blade: bool,
}

/// An Ability Card (a Wizard's are Spells).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbilityCard {
    pub id: String,
    pub class: HeroClass,
    pub ability: Ability,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OwnedItem {
    pub card: ItemCard,
    pub equipped: bool,
    pub uses_left: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OwnedAbility {
    pub card: AbilityCard,
    pub exhausted: bool,
}

impl OwnedAbility {
    pub fn is_spell(&self) -> bool {
        self.card.class == HeroClass::Wizard
    }
}

/// Where a Hero's ability is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AbilitySource {
    /// The Hero Mat's starting abilities.
    Mat(u8),
    /// An owned Ability Card.
    Card(u8),
    /// An ability of an owned Item, by item and ability index.
    Item(u8, u8),
}

/// A Hero in play: mat, level, health and every card they own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hero {
    pub mat: HeroMat,
    pub level: u8,
    pub health: u8,
    pub draw: Vec<ActionCard>,
    pub hand: Vec<ActionCard>,
    pub discard: Vec<ActionCard>,
    pub stored_power: Vec<ActionCard>,
    /// Cards not in the deck: the Wizard's third Power Card before level 3,
    /// unused Item Action Cards, and Removed cards.
    pub out_of_deck: Vec<ActionCard>,
    pub items: Vec<OwnedItem>,
    pub abilities: Vec<OwnedAbility>,
    /// How many cards on top of the Draw Pile the players know (put there
    /// face up by Retrieve); the rest of the Draw Pile's order is hidden.
    #[serde(default)]
    pub known_on_top: u8,
    /// Cards drawn for the test of the Feature (or Legendary Location card)
    /// being Resolved: "Once a Feature has been Resolved, any Action Cards that
    /// were drawn or played for it are Discarded", not before.
    #[serde(default)]
    pub test_cards: Vec<ActionCard>,
}

/// The id of the Power Card that joins a class's deck only at level 3 (the
/// Wizard's third), if the class has one.
pub fn third_power_card(class: HeroClass) -> Option<CardId> {
    (class.power_cards() > 2).then(|| ActionCard::power(12 + 2).id)
}

/// Item Action Card ids start here so they never clash with starting cards.
pub const ITEM_CARD_ID_BASE: u16 = 100;

impl Hero {
    /// A Hero at `level` with their Power Cards Stored and the rest shuffled
    /// into a Draw Pile ("Hero Action Cards").
    pub fn new(mat: HeroMat, level: u8, rng: &mut GameRng) -> Self {
        let class = mat.class;
        let mut draw: Vec<ActionCard> =
            class.action_values().iter().enumerate().map(|(i, &v)| ActionCard::numbered(i as u16, v)).collect();
        rng.shuffle(&mut draw);
        let mut stored_power = Vec::new();
        let mut out_of_deck = Vec::new();
        for p in 0..class.power_cards() {
            let card = ActionCard::power(12 + u16::from(p));
            if p >= 2 && level < 3 {
                out_of_deck.push(card);
            } else {
                stored_power.push(card);
            }
        }
        let health = mat.max_health[usize::from(level.clamp(1, 3)) - 1];
        Hero {
            mat,
            level,
            health,
            draw,
            hand: Vec::new(),
            discard: Vec::new(),
            stored_power,
            out_of_deck,
            items: Vec::new(),
            abilities: Vec::new(),
            known_on_top: 0,
            test_cards: Vec::new(),
        }
    }

    /// "Hero Action Cards" at the Setup each Ecology follows: "retrieve the …
    /// Power Cards … You begin the game with them Stored", and "Shuffle the
    /// rest of your Action Cards … to form a Draw Pile" — hand and Discard
    /// included. Cards out of the deck stay out.
    pub fn set_up_action_cards(&mut self, rng: &mut GameRng) {
        let mut all: Vec<ActionCard> = std::mem::take(&mut self.draw);
        for pile in [&mut self.hand, &mut self.discard, &mut self.stored_power, &mut self.test_cards] {
            all.append(pile);
        }
        let (power, rest): (Vec<ActionCard>, Vec<ActionCard>) = all.into_iter().partition(|c| c.power);
        self.stored_power = power;
        self.draw = rest;
        self.shuffle_draw(rng);
    }

    pub fn name(&self) -> &str {
        &self.mat.name
    }

    pub fn max_health(&self) -> u8 {
        self.mat.max_health[usize::from(self.level.clamp(1, 3)) - 1]
    }

    pub fn heal(&mut self, amount: u8) -> u8 {
        let before = self.health;
        self.health = self.health.saturating_add(amount).min(self.max_health());
        self.health - before
    }

    pub fn is_defeated(&self) -> bool {
        self.health == 0
    }

    /// Draws one card for the hand, Storing any Power Cards and drawing a
    /// replacement ("Drawing & Storing Power Cards"). Never reshuffles.
    pub fn draw_card(&mut self) -> Option<ActionCard> {
        while let Some(card) = self.draw.pop() {
            self.known_on_top = self.known_on_top.saturating_sub(1);
            if card.power {
                self.stored_power.push(card);
            } else {
                return Some(card);
            }
        }
        None
    }

    /// Shuffle the Discard Pile to form a new Draw Pile.
    pub fn reshuffle_discard(&mut self, rng: &mut GameRng) {
        self.draw.append(&mut self.discard);
        self.shuffle_draw(rng);
    }

    /// Shuffles the Draw Pile: afterwards no card's place in it is known.
    pub fn shuffle_draw(&mut self, rng: &mut GameRng) {
        rng.shuffle(&mut self.draw);
        self.known_on_top = 0;
    }

    /// Puts a card face up on top of the Draw Pile (Retrieve): its place is known.
    pub fn put_on_draw_pile(&mut self, card: ActionCard) {
        self.draw.push(card);
        self.known_on_top = self.known_on_top.saturating_add(1);
    }

    /// Takes the card at `index` out of the Draw Pile, keeping count of the
    /// known cards on top.
    pub fn take_from_draw(&mut self, index: usize) -> ActionCard {
        if index >= self.draw.len() - usize::from(self.known_on_top).min(self.draw.len()) {
            self.known_on_top -= 1;
        }
        self.draw.remove(index)
    }

    /// "Some Items … can only be equipped by a specific Hero Class": the
    /// Hero's Primary class, or the Secondary class of a Hero played
    /// multi-classed (a single-classed Alternate Hero's mat has none in play).
    pub fn fits_class(&self, item: &ItemCard) -> bool {
        item.class_only.is_none_or(|c| c == self.mat.class || Some(c) == self.mat.secondary_class)
    }

    /// An Item the Hero is using: Equipped, and of a class the Hero may Equip.
    pub fn in_use(&self, item: &OwnedItem) -> bool {
        item.equipped && self.fits_class(&item.card)
    }

    /// Every ability the Hero can use now: mat, Ability Cards, Equipped Items.
    pub fn abilities(&self) -> impl Iterator<Item = (AbilitySource, &Ability)> {
        let mat = self.mat.abilities.iter().enumerate().map(|(i, a)| (AbilitySource::Mat(i as u8), a));
        let cards = self.abilities.iter().enumerate().map(|(i, a)| (AbilitySource::Card(i as u8), &a.card.ability));
        let items = self.items.iter().enumerate().filter(|(_, it)| self.in_use(it)).flat_map(|(i, it)| {
            it.card.abilities.iter().enumerate().map(move |(j, a)| (AbilitySource::Item(i as u8, j as u8), a))
        });
        mat.chain(cards).chain(items)
    }

    pub fn ability(&self, source: AbilitySource) -> Option<&Ability> {
        match source {
            AbilitySource::Mat(i) => self.mat.abilities.get(usize::from(i)),
            AbilitySource::Card(i) => self.abilities.get(usize::from(i)).map(|a| &a.card.ability),
            AbilitySource::Item(i, j) => self
                .items
                .get(usize::from(i))
                .filter(|it| self.in_use(it))
                .and_then(|it| it.card.abilities.get(usize::from(j))),
        }
    }

    /// Spells are the Wizard's Ability Cards (and the abilities on a
    /// Wizard-class mat), and count as (Magic).
    pub fn is_spell(&self, source: AbilitySource) -> bool {
        match source {
            AbilitySource::Card(i) => self.abilities.get(usize::from(i)).is_some_and(OwnedAbility::is_spell),
            AbilitySource::Mat(_) => self.mat.class == HeroClass::Wizard,
            AbilitySource::Item(..) => false,
        }
    }

    pub fn is_exhausted(&self, source: AbilitySource) -> bool {
        matches!(source, AbilitySource::Card(i) if self.abilities.get(usize::from(i)).is_some_and(|a| a.exhausted))
    }

    /// Armor: summed over Equipped Items and Passive abilities.
    pub fn armor(&self) -> u8 {
        // Saturating: the cards are checked one by one, never their sum.
        let items = self.items.iter().filter(|i| self.in_use(i)).fold(0u8, |n, i| n.saturating_add(i.card.armor));
        self.abilities().fold(items, |n, (_, a)| n.saturating_add(a.passive_armor()))
    }

    /// Unless a Hero has a (Magic) Item Equipped, they make non-magic attacks.
    pub fn has_magic(&self) -> bool {
        self.items.iter().any(|i| self.in_use(i) && i.card.magic)
            || self.abilities().any(|(_, a)| a.passive_has(|e| matches!(e, Effect::Magic)))
    }

    pub fn passive_bonus_damage(&self) -> u8 {
        self.abilities()
            .filter(|(_, a)| a.activation == Activation::Passive)
            .flat_map(|(_, a)| a.effects.iter())
            .map(|e| if let Effect::BonusDamage { amount } = e { *amount } else { 0 })
            .fold(0, u8::saturating_add)
    }

    /// Damage the Hero's own Items deal them at the end of every Combat Round.
    pub fn wound_each_round(&self) -> u8 {
        self.abilities()
            .filter(|(_, a)| a.activation == Activation::Passive)
            .flat_map(|(_, a)| a.effects.iter())
            .map(|e| if let Effect::WoundEachRound { amount } = e { *amount } else { 0 })
            .fold(0, u8::saturating_add)
    }

    pub fn refresh_spells(&mut self) {
        for a in &mut self.abilities {
            a.exhausted = false;
        }
    }

    /// Count of every Action Card the Hero owns, wherever it lies outside Combat.
    pub fn cards_held(&self) -> usize {
        self.draw.len()
            + self.hand.len()
            + self.discard.len()
            + self.stored_power.len()
            + self.out_of_deck.len()
            + self.test_cards.len()
    }

    pub fn find_hand(&self, id: CardId) -> Option<usize> {
        self.hand.iter().position(|c| c.id == id)
    }
}
