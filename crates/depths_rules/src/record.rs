//! "Save your Game": the Hero Record and Adventure Record sheets, produced
//! after Level Up, from which a later session recreates the Heroes.

use serde::{Deserialize, Serialize};

use crate::Ecology;
use crate::action_card::ActionCard;
use crate::adventure::{AdventureRecord, XpCard, class_index};
use crate::content::Content;
use crate::error::SetupError;
use crate::game::Game;
use crate::hero::{OwnedAbility, OwnedItem, third_power_card};
use crate::options::GameOptions;

/// One Hero Record Sheet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeroRecord {
    pub mat: String,
    pub level: u8,
    pub health: u8,
    pub items: Vec<OwnedItem>,
    pub abilities: Vec<OwnedAbility>,
    /// The Action Card deck as it now stands (Items Added and cards Removed).
    pub deck: Vec<ActionCard>,
    pub stored_power: usize,
    /// The Stored Power Cards themselves.
    #[serde(default)]
    pub stored: Vec<ActionCard>,
    /// Cards out of the deck: Removed ones, and Sil's third Power Card before level 3.
    #[serde(default)]
    pub out_of_deck: Vec<ActionCard>,
}

/// The party's sheets: Heroes, Keys, unspent XP and the Adventure Record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PartyRecord {
    pub options: GameOptions,
    pub heroes: Vec<HeroRecord>,
    pub keys: u8,
    pub xp_pool: Vec<XpCard>,
    /// The Ecology the party goes down to next.
    pub next_ecology: Ecology,
    pub adventure: AdventureRecord,
    /// The sheets were filled in once `next_ecology` had begun (after the
    /// descent, or during the first Ecology): whatever starting it brings,
    /// such as the Keys of "3 Keys Added at Each New Ecology", is in them
    /// already. False for the book's record, made "Just after Level Up"
    /// (and for a record that does not say).
    #[serde(default)]
    pub ecology_begun: bool,
}

impl Game {
    /// The record of each Hero and the party; `None` outside a full game.
    pub fn party_record(&self) -> Option<PartyRecord> {
        let adv = self.adventure()?;
        let current = adv.ecology.ecology;
        let next = if adv.record.ecologies_cleared.contains(&current) { current.next()? } else { current };
        Some(PartyRecord {
            options: adv.options.clone(),
            heroes: self
                .heroes
                .iter()
                .map(|h| HeroRecord {
                    mat: h.mat.id.clone(),
                    level: h.level,
                    health: h.health,
                    items: h.items.clone(),
                    abilities: h.abilities.clone(),
                    deck: h.draw.iter().chain(&h.hand).chain(&h.discard).chain(&h.test_cards).copied().collect(),
                    stored_power: h.stored_power.len(),
                    stored: h.stored_power.clone(),
                    out_of_deck: h.out_of_deck.clone(),
                })
                .collect(),
            keys: adv.keys,
            xp_pool: adv.xp_pool.clone(),
            next_ecology: next,
            adventure: adv.record.clone(),
            ecology_begun: next == current,
        })
    }

    /// Recreates the Heroes from their records at the start of `record.next_ecology`.
    pub fn from_record(record: &PartyRecord, content: Content, seed: u64) -> Result<Game, SetupError> {
        let mut options = record.options.clone();
        options.start = record.next_ecology;
        options.seed = seed;
        options.variants.start_with_ability = false;
        // The starting bonuses of a lower start are already in the records.
        let mut game = Game::set_up(options, std::sync::Arc::new(content), false)?;
        let adv = game.adventure.as_deref_mut().expect("full game");
        adv.pending.clear();
        adv.keys = record.keys;
        if !record.ecology_begun {
            // The Heroes start a new Ecology now, as a continuing party does
            // at the Passage (see `descend`).
            adv.add_new_ecology_keys();
        }
        adv.xp_pool = record.xp_pool.clone();
        adv.record = record.adventure.clone();
        for (hero, r) in game.heroes.iter_mut().zip(&record.heroes) {
            hero.level = r.level;
            hero.health = r.health.min(hero.max_health());
            hero.items = r.items.clone();
            hero.abilities = r.abilities.clone();
            let fresh: Vec<ActionCard> = hero.stored_power.drain(..).chain(hero.out_of_deck.drain(..)).collect();
            let mut deck = r.deck.clone();
            if r.stored.is_empty() && r.out_of_deck.is_empty() {
                // An older record: only the number of Stored Power Cards is known.
                let mut power: Vec<ActionCard> =
                    fresh.iter().filter(|c| c.power && !deck.iter().any(|d| d.id == c.id)).copied().collect();
                let rest = power.split_off(r.stored_power.min(power.len()));
                hero.stored_power = power;
                let late = third_power_card(hero.mat.class);
                deck.extend(rest.into_iter().filter(|c| Some(c.id) != late || r.level >= 3));
            } else {
                hero.stored_power = r.stored.clone();
                hero.out_of_deck = r.out_of_deck.clone();
            }
            hero.draw = deck;
            hero.hand.clear();
            hero.discard.clear();
            // The new Ecology's Setup, as a continuing game has it (see `descend`).
            hero.set_up_action_cards(&mut game.rng);
        }
        let adv = game.adventure.as_deref_mut().expect("full game");
        for hero in &game.heroes {
            // Item Action Cards a Hero holds (or Removed) leave the class pool;
            let held = |id| hero.draw.iter().chain(&hero.out_of_deck).any(|d| d.item && d.id == id);
            adv.item_action_cards[class_index(hero.mat.class)].retain(|c| !held(c.id));
            // and the Items and Abilities the Heroes own leave their decks.
            for owned in &hero.items {
                for deck in &mut adv.item_decks {
                    if let Some(i) = deck.iter().position(|c| c.id == owned.card.id) {
                        deck.remove(i);
                        break;
                    }
                }
            }
            for owned in &hero.abilities {
                let deck = &mut adv.ability_decks[class_index(owned.card.class)];
                if let Some(i) = deck.iter().position(|c| c.id == owned.card.id) {
                    deck.remove(i);
                }
            }
        }
        Ok(game)
    }
}
