//! "Game Setup" for the chosen Heroes, starting Ecology and variants
//! ("Starting at a Lower Ecology", "Making the Game Harder / Easier"), and the
//! Setup each Ecology follows.

use std::sync::Arc;

use crate::action_card::ActionCard;
use crate::adventure::{Adventure, AdventureRecord, EcologyState, class_index};
use crate::content::{Content, ContentError};
use crate::error::SetupError;
use crate::game::Game;
use crate::hero::{HeroMat, ITEM_CARD_ID_BASE};
use crate::map::{DeadEndAllowance, Map, RuneMatches, UsedRunes};
use crate::options::GameOptions;
use crate::shared::Shared;
use crate::{Ecology, GameRng};

impl Game {
    /// "Game Setup" for the chosen Heroes, starting Ecology and variants.
    pub fn new(options: GameOptions, content: Content) -> Result<Game, SetupError> {
        Game::new_shared(options, Arc::new(content))
    }

    /// [`Game::new`] with cards already shared: many games played from one
    /// content (a simulation) need not copy every card for each game.
    pub fn new_shared(options: GameOptions, content: Arc<Content>) -> Result<Game, SetupError> {
        Game::set_up(options, content, true)
    }

    /// Game Setup; `lower_start` gives the Abilities and Items of "Starting
    /// at a Lower Ecology" (a game recreated from its records has them already).
    pub(crate) fn set_up(options: GameOptions, content: Arc<Content>, lower_start: bool) -> Result<Game, SetupError> {
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
            let mut mat = content.hero(id).ok_or_else(|| SetupError::UnknownHero(id.clone()))?.clone();
            // "Playing Alternate Heroes as Single-Classed": the Hero in play has
            // only her Primary Class (no Secondary-class Items, Equipping or draws).
            if options.single_classed {
                mat.secondary_class = None;
            }
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
        let decks = content.decks();
        for ((class, _), cards) in crate::content::CLASSES.into_iter().zip(&decks.classes) {
            let deck = content.class_deck(class);
            let mut items = cards.items.clone();
            rng.shuffle(&mut items);
            item_decks.push(items);
            let mut abilities = cards.abilities.clone();
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
            setting_up: false,
            known_at_bottom: Default::default(),
            abilities_to_gain: Vec::new(),
        }));
        // "Starting at a Lower Ecology": Abilities by the Level Up process, one
        // after another (each pair drawn once the choice before is made), then Items.
        let (abilities, items) = match start {
            _ if !lower_start => (0, 0),
            Ecology::Ruins => (0, 0),
            Ecology::Caverns => (1, 1),
            Ecology::Subterranean => (2, 2),
        };
        let mut events = Vec::new();
        let mut to_gain = Vec::new();
        for h in 0..game.heroes.len() as u8 {
            to_gain.extend(std::iter::repeat_n(h, abilities));
            if start_with_ability && start == Ecology::Ruins {
                // "each Hero draws an Ability to start the game with." A
                // multi-classed Hero draws as the book has them draw Abilities:
                // one from each class deck or two from the Primary, keeping one.
                if game.is_multi_classed(h) {
                    to_gain.push(h);
                } else {
                    let class = class_index(game.heroes[h as usize].mat.class);
                    if let Some(card) = game.adv_mut().ability_decks[class].pop().map(Shared::into_inner) {
                        game.heroes[h as usize].abilities.push(crate::hero::OwnedAbility { card, exhausted: false });
                    }
                }
            }
        }
        game.adv_mut().abilities_to_gain = to_gain;
        game.offer_next_ability(&mut events);
        // Then the Items; their choices come after the Abilities', as the book lists them.
        let abilities_first = std::mem::take(&mut game.adv_mut().pending);
        for h in 0..game.heroes.len() as u8 {
            for _ in 0..items {
                game.draw_item_for(h, &mut events);
            }
        }
        let items_after = std::mem::replace(&mut game.adv_mut().pending, abilities_first);
        let adv = game.adv_mut();
        adv.pending.extend(items_after);
        adv.setting_up = !adv.pending.is_empty();
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
}

/// Sets up one Ecology as "Game Setup" says, from the content and the seed.
pub(crate) fn setup_ecology(
    content: &Content,
    ecology: Ecology,
    options: &GameOptions,
    rng: &mut GameRng,
) -> Result<EcologyState, String> {
    let c = content.ecology(ecology);
    let cards = &content.decks().ecologies[ecology as usize];
    let tiles = cards.tiles.as_ref().map_err(|e| format!("{}: {e:?}", ecology.name()))?;
    let (entry, pile) = tiles.deal(rng);
    let map = Map::new(entry).map_err(|e| format!("{}: {e:?}", ecology.name()))?;
    let mut monsters = cards.monsters.clone();
    rng.shuffle(&mut monsters);
    let mut features = cards.features.clone();
    rng.shuffle(&mut features);
    let mut stair_guardians = cards.stair_guardians.clone();
    rng.shuffle(&mut stair_guardians);
    let legendary = cards.legendary.iter().map(|layout| layout.deal(rng)).collect();
    let mut rune_matches = RuneMatches::default();
    rune_matches.refresh_turned(&map, &c.patterns, Arc::clone(&cards.turned));
    Ok(EcologyState {
        rune_matches,
        ecology,
        map,
        pile,
        drawn: None,
        dead_end: DeadEndAllowance::new(options.variants.one_dead_end),
        monsters,
        set_aside_monsters: cards.set_aside_monsters.clone(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::legendary_location::LegendaryPiles;
    use crate::map::TilePile;

    /// An Ecology's Setup as it was before the content sorted its cards
    /// once: every card copied from the content, every label parsed.
    fn from_the_cards(content: &Content, ecology: Ecology, options: &GameOptions, rng: &mut GameRng) -> EcologyState {
        let c = content.ecology(ecology);
        let (entry, pile) = TilePile::deal(c.tiles.clone(), rng).expect("tiles");
        let map = Map::new(entry).expect("entry");
        let mut monsters: Vec<Shared<_>> =
            c.monsters.iter().filter(|m| !m.set_aside).cloned().map(Shared::new).collect();
        rng.shuffle(&mut monsters);
        let mut features: Vec<Shared<_>> = c.features.iter().cloned().map(Shared::new).collect();
        rng.shuffle(&mut features);
        let mut stair_guardians: Vec<Shared<_>> = c.stair_guardians.iter().cloned().map(Shared::new).collect();
        rng.shuffle(&mut stair_guardians);
        let legendary =
            c.patterns.iter().map(|p| LegendaryPiles::arrange(p.id.parse().unwrap_or(0), &c.legendary, rng)).collect();
        let mut rune_matches = RuneMatches::default();
        rune_matches.refresh(&map, &c.patterns);
        EcologyState {
            rune_matches,
            ecology,
            map,
            pile,
            drawn: None,
            dead_end: DeadEndAllowance::new(options.variants.one_dead_end),
            monsters,
            set_aside_monsters: c.monsters.iter().filter(|m| m.set_aside).cloned().map(Shared::new).collect(),
            features,
            revealed_features: Vec::new(),
            stair_guardians,
            patterns: c.patterns.clone(),
            legendary,
            used_runes: UsedRunes::default(),
            reference: c.reference.clone(),
            encountering: None,
        }
    }

    #[test]
    fn an_ecology_dealt_from_the_sorted_cards_is_dealt_as_from_the_cards() {
        let content = Content::builtin().expect("content");
        let options = GameOptions::standard(&["bren", "sil"], 0);
        for ecology in Ecology::ALL {
            for seed in 0..20 {
                let (mut a, mut b) = (GameRng::from_seed(seed), GameRng::from_seed(seed));
                let sorted = setup_ecology(&content, ecology, &options, &mut a).expect("set up");
                let copied = from_the_cards(&content, ecology, &options, &mut b);
                assert_eq!(sorted, copied, "{ecology:?}, seed {seed}");
                assert_eq!(
                    sorted.rune_matches.discovered(&sorted.map, &sorted.patterns, &UsedRunes::default()),
                    copied.rune_matches.discovered(&copied.map, &copied.patterns, &UsedRunes::default())
                );
                assert_eq!(a, b, "the same draws");
            }
        }
    }
}
