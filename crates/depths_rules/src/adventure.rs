//! A whole game: Setup, one Ecology after another, Level Up and Passage, the
//! Final Entity ("Game Setup", "Level Up", "Passage to Next Ecology").

use serde::{Deserialize, Serialize};

use crate::action_card::ActionCard;
use crate::combat::{FinalEntity, Foe};
use crate::content::{Content, ContentError};
use crate::effect::Effect;
use crate::error::SetupError;
use crate::event::Event;
use crate::feature::{FeatureCard, ReferenceCard};
use crate::game::Game;
use crate::hero::{AbilityCard, HeroClass, HeroMat, ITEM_CARD_ID_BASE, ItemCard};
use crate::legendary_location::{LegendaryCard, LegendaryPiles};
use crate::map::{DeadEndAllowance, ElementRef, Map, MapTile, RunePattern, TilePile, UsedRunes};
use crate::monster::MonsterCard;
use crate::options::GameOptions;
use crate::{Ecology, GameRng};

pub fn class_index(c: HeroClass) -> usize {
    match c {
        HeroClass::Fighter => 0,
        HeroClass::Wizard => 1,
        HeroClass::Rogue => 2,
    }
}

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
    /// Top = last.
    pub monsters: Vec<MonsterCard>,
    pub set_aside_monsters: Vec<MonsterCard>,
    pub features: Vec<FeatureCard>,
    /// Features revealed by a card, in the order they will be met (next = last).
    pub revealed_features: Vec<FeatureCard>,
    pub stair_guardians: Vec<MonsterCard>,
    pub patterns: Vec<RunePattern>,
    pub legendary: Vec<LegendaryPiles>,
    pub used_runes: UsedRunes,
    pub reference: ReferenceCard,
    /// The element being Encountered (for its Encounter Token).
    pub encountering: Option<ElementRef>,
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
    pub content: Content,
    pub ecology: EcologyState,
    pub xp_pool: Vec<XpCard>,
    pub keys: u8,
    /// Item and Ability draw piles per class (Fighter, Wizard, Rogue); top = last.
    pub item_decks: Vec<Vec<ItemCard>>,
    pub ability_decks: Vec<Vec<AbilityCard>>,
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
    pub encounter: Option<crate::phase::Encountering>,
}

impl Game {
    /// "Game Setup" for the chosen Heroes, starting Ecology and variants.
    pub fn new(options: GameOptions, content: Content) -> Result<Game, SetupError> {
        Game::set_up(options, content, true)
    }

    /// Game Setup; `lower_start` gives the Abilities and Items of "Starting
    /// at a Lower Ecology" (a game recreated from its records has them already).
    pub(crate) fn set_up(options: GameOptions, content: Content, lower_start: bool) -> Result<Game, SetupError> {
        if options.heroes.is_empty() {
            return Err(SetupError::NoHeroes);
        }
        if options.heroes.len() > 3 {
            return Err(SetupError::TooManyHeroes(options.heroes.len()));
        }
        let level = match options.start {
            Ecology::Ruins => 1,
            Ecology::Caverns => 2,
            Ecology::Subterranean => 3,
        };
        let mut mats: Vec<HeroMat> = Vec::new();
        for id in &options.heroes {
            let mat = content.hero(id).ok_or_else(|| SetupError::UnknownHero(id.clone()))?.clone();
            if mats.iter().any(|m| m.name == mat.name) {
                return Err(SetupError::HeroTwice(mat.name));
            }
            mats.push(mat);
        }
        // Heroes and Monster Action decks as in a skirmish, then the rest of Setup.
        let mut game = Game::with_heroes(mats, level, options.seed);
        let rng = &mut game.rng;
        let mut item_decks = Vec::new();
        let mut ability_decks = Vec::new();
        let mut item_action_cards = Vec::new();
        for (class, _) in crate::content::CLASSES {
            let deck = content.class_deck(class);
            let mut items = deck.items.clone();
            rng.shuffle(&mut items);
            item_decks.push(items);
            let mut abilities = deck.abilities.clone();
            rng.shuffle(&mut abilities);
            ability_decks.push(abilities);
            item_action_cards.push(
                deck.item_action_cards
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| ActionCard { item: true, ..ActionCard::numbered(ITEM_CARD_ID_BASE + i as u16, v) })
                    .collect(),
            );
        }
        let ecology = setup_ecology(&content, options.start, &options, rng)
            .map_err(|r| ContentError::invalid(&crate::content::tiles_file(options.start), r))?;
        let keys = if options.variants.six_keys { 6 } else { 3 };
        let start = options.start;
        let start_with_ability = options.variants.start_with_ability;
        game.adventure = Some(Box::new(Adventure {
            options,
            content,
            ecology,
            xp_pool: Vec::new(),
            keys,
            item_decks,
            ability_decks,
            item_action_cards,
            pending: Vec::new(),
            queue: Vec::new(),
            resolving: Vec::new(),
            defeated: Vec::new(),
            record: AdventureRecord::default(),
            final_entity_lore: None,
            encounter: None,
        }));
        // "Starting at a Lower Ecology": Abilities by the Level Up process, then Items.
        let (abilities, items) = match start {
            _ if !lower_start => (0, 0),
            Ecology::Ruins => (0, 0),
            Ecology::Caverns => (1, 1),
            Ecology::Subterranean => (2, 2),
        };
        let mut events = Vec::new();
        for h in 0..game.heroes.len() as u8 {
            for _ in 0..abilities {
                game.offer_abilities(h);
            }
            if start_with_ability && start == Ecology::Ruins {
                // "each Hero draws an Ability to start the game with." A
                // multi-classed Hero draws as the book has them draw Abilities:
                // one from each class deck or two from the Primary, keeping one.
                if game.is_multi_classed(h) {
                    game.offer_abilities(h);
                } else {
                    let class = class_index(game.heroes[h as usize].mat.class);
                    if let Some(card) = game.adv_mut().ability_decks[class].pop() {
                        game.heroes[h as usize].abilities.push(crate::hero::OwnedAbility { card, exhausted: false });
                    }
                }
            }
        }
        // Then the Items; their choices come after the Abilities', as the book lists them.
        let abilities_first = std::mem::take(&mut game.adv_mut().pending);
        for h in 0..game.heroes.len() as u8 {
            for _ in 0..items {
                game.draw_item_for(h, &mut events);
            }
        }
        let items_after = std::mem::replace(&mut game.adv_mut().pending, abilities_first);
        game.adv_mut().pending.extend(items_after);
        Ok(game)
    }

    pub fn adventure(&self) -> Option<&Adventure> {
        self.adventure.as_deref()
    }

    pub(crate) fn adv(&self) -> &Adventure {
        self.adventure.as_deref().expect("a full game")
    }

    pub(crate) fn adv_mut(&mut self) -> &mut Adventure {
        self.adventure.as_deref_mut().expect("a full game")
    }

    /// A Hero played with both classes of an alternate Hero Mat.
    pub(crate) fn is_multi_classed(&self, h: u8) -> bool {
        self.heroes[h as usize].mat.secondary_class.is_some() && !self.adv().options.single_classed
    }

    /// Draws two Abilities for a Hero to keep one (Level Up, or a lower start);
    /// a multi-classed Hero first chooses which decks to draw from.
    pub(crate) fn offer_abilities(&mut self, h: u8) {
        if self.is_multi_classed(h) {
            self.adv_mut().pending.push(Pending::ChooseAbilityDraw { hero: h });
        } else {
            let class = self.heroes[h as usize].mat.class;
            self.draw_abilities(h, [class, class]);
        }
    }

    /// Queues the choice between the Ability Cards drawn from these decks.
    pub(crate) fn draw_abilities(&mut self, h: u8, decks: [HeroClass; 2]) {
        let adv = self.adv_mut();
        let mut options = Vec::new();
        for c in decks {
            if let Some(card) = adv.ability_decks[class_index(c)].pop() {
                options.push(card);
            }
        }
        if !options.is_empty() {
            adv.pending.push(Pending::ChooseAbility { hero: h, options });
        }
    }
}

/// Sets up one Ecology as "Game Setup" says, from the content and the seed.
pub(crate) fn setup_ecology(
    content: &Content,
    ecology: Ecology,
    options: &GameOptions,
    rng: &mut GameRng,
) -> Result<EcologyState, String> {
    let c = content.ecology(ecology);
    let (entry, pile) = TilePile::deal(c.tiles.clone(), rng).map_err(|e| format!("{}: {e:?}", ecology.name()))?;
    let map = Map::new(entry).map_err(|e| format!("{}: {e:?}", ecology.name()))?;
    let mut monsters: Vec<MonsterCard> = c.monsters.iter().filter(|m| !m.set_aside).cloned().collect();
    rng.shuffle(&mut monsters);
    let mut features = c.features.clone();
    rng.shuffle(&mut features);
    let mut stair_guardians = c.stair_guardians.clone();
    rng.shuffle(&mut stair_guardians);
    let legendary =
        c.patterns.iter().map(|p| LegendaryPiles::arrange(p.id.parse().unwrap_or(0), &c.legendary, rng)).collect();
    Ok(EcologyState {
        ecology,
        map,
        pile,
        drawn: None,
        dead_end: DeadEndAllowance::new(options.variants.one_dead_end),
        monsters,
        set_aside_monsters: c.monsters.iter().filter(|m| m.set_aside).cloned().collect(),
        features,
        revealed_features: Vec::new(),
        stair_guardians,
        patterns: c.patterns.clone(),
        legendary,
        used_runes: UsedRunes::default(),
        reference: c.reference.clone(),
        encountering: None,
    })
}

/// "Draw a Head I, Head II, and Body card, and arrange them with the Tail card."
pub(crate) fn draw_final_entity(content: &Content, rng: &mut GameRng) -> Option<FinalEntity> {
    let fe = &content.final_entity;
    let pick = |list: &Vec<crate::monster::EntityPartCard>, rng: &mut GameRng| {
        (!list.is_empty()).then(|| list[rng.below(list.len() as u32) as usize].clone())
    };
    Some(FinalEntity {
        head_1: pick(&fe.head_1, rng)?,
        head_2: pick(&fe.head_2, rng)?,
        body: pick(&fe.body, rng)?,
        tail: fe.tail.clone(),
    })
}

/// Events helper: a short log line for the client.
pub(crate) fn note(events: &mut Vec<Event>, text: impl Into<String>) {
    events.push(Event::Note { text: text.into() });
}
