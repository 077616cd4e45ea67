//! "Save your Game": the Hero Record and Adventure Record sheets, produced
//! after Level Up, from which a later session recreates the Heroes.

use serde::{Deserialize, Serialize};

use crate::Ecology;
use crate::action_card::ActionCard;
use crate::adventure::{AdventureRecord, XpCard, class_index};
use crate::content::Content;
use crate::error::SetupError;
use crate::game::Game;
use crate::hero::{OwnedAbility, OwnedItem};
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
                    deck: h.draw.iter().chain(&h.hand).chain(&h.discard).copied().collect(),
                    stored_power: h.stored_power.len(),
                })
                .collect(),
            keys: adv.keys,
            xp_pool: adv.xp_pool.clone(),
            next_ecology: next,
            adventure: adv.record.clone(),
        })
    }

    /// Recreates the Heroes from their records at the start of `record.next_ecology`.
    pub fn from_record(record: &PartyRecord, content: Content, seed: u64) -> Result<Game, SetupError> {
        let mut options = record.options.clone();
        options.start = record.next_ecology;
        options.seed = seed;
        // The starting bonuses of a lower start are already in the records.
        options.variants.start_with_ability = false;
        let mut game = Game::new(options, content)?;
        let adv = game.adventure.as_deref_mut().expect("full game");
        adv.pending.clear();
        adv.keys = record.keys;
        adv.xp_pool = record.xp_pool.clone();
        adv.record = record.adventure.clone();
        for (hero, r) in game.heroes.iter_mut().zip(&record.heroes) {
            hero.level = r.level;
            hero.health = r.health.min(hero.max_health());
            hero.items = r.items.clone();
            hero.abilities = r.abilities.clone();
            // The deck as recorded; of the Power Cards the Hero has at this
            // level, as many Stored as recorded and the rest in the deck.
            let mut all: Vec<ActionCard> = r.deck.iter().filter(|c| !c.power).copied().collect();
            let mut power: Vec<ActionCard> = std::mem::take(&mut hero.stored_power);
            let stored = r.stored_power.min(power.len());
            all.extend(power.drain(stored..));
            hero.stored_power = power;
            game.rng.shuffle(&mut all);
            hero.draw = all;
            hero.hand.clear();
            hero.discard.clear();
        }
        // Item Action Cards already in a Hero's deck leave the class pool.
        let adv = game.adventure.as_deref_mut().expect("full game");
        for hero in &game.heroes {
            let pool = &mut adv.item_action_cards[class_index(hero.mat.class)];
            pool.retain(|c| !hero.draw.iter().any(|d| d.item && d.id == c.id));
        }
        Ok(game)
    }
}
