//! Shared helpers for the acceptance tests: a tiny scenario builder with
//! stacked (fixed-order) decks, in the spirit of the rulebook's examples.

pub mod fixture;
pub mod hidden;
pub mod properties;

use depths_rules::action_card::{ActionCard, MonsterDeck};
use depths_rules::effect::{Ability, Activation, Effect, Whom};
use depths_rules::monster::HealthState;
use depths_rules::{Action, CardId, Content, Difficulty, Event, Foe, Game, HeroMat, MonsterCard, MonsterType};

pub fn mat(id: &str) -> HeroMat {
    let heroes = Content::builtin_heroes().expect("heroes.json loads");
    heroes.into_iter().find(|h| h.id == id).unwrap_or_else(|| panic!("no hero {id}"))
}

/// Heroes by id at level 1; the game is not yet in Combat.
pub fn table(heroes: &[&str]) -> Game {
    Game::with_heroes(heroes.iter().map(|h| mat(h)).collect(), 1, 7)
}

/// Takes a card of `value` (0 = a Power Card) out of `pool`.
fn take(pool: &mut Vec<ActionCard>, value: u8) -> ActionCard {
    let i = pool
        .iter()
        .position(|c| if value == 0 { c.power } else { !c.power && c.value == value })
        .unwrap_or_else(|| panic!("no card of value {value} left to stack"));
    pool.remove(i)
}

/// Arranges Hero `h`'s own cards: `hand`, then `draw` (top first, 0 = Power
/// Card); every other card of theirs goes to the Discard Pile. Stored Power
/// Cards stay stored unless listed in `draw`.
pub fn stack_hero(game: &mut Game, h: usize, hand: &[u8], draw: &[u8]) {
    let hero = &mut game.heroes[h];
    let mut pool: Vec<ActionCard> =
        hero.draw.drain(..).chain(hero.hand.drain(..)).chain(hero.discard.drain(..)).collect();
    for &v in draw.iter().filter(|v| **v == 0) {
        let _ = v;
        if let Some(p) = hero.stored_power.pop() {
            pool.push(p);
        }
    }
    hero.hand = hand.iter().map(|&v| take(&mut pool, v)).collect();
    let mut pile: Vec<ActionCard> = draw.iter().map(|&v| take(&mut pool, v)).collect();
    pile.reverse();
    hero.draw = pile;
    hero.discard = pool;
}

/// Puts the listed cards (top first; 0 = Power Card) on top of the Monster
/// Action deck of `difficulty`, the rest of the deck below them in its order.
pub fn stack_monster(game: &mut Game, difficulty: Difficulty, top: &[u8]) {
    let deck = &mut game.monster_decks[difficulty.index()];
    let mut pool: Vec<ActionCard> = deck.draw.drain(..).rev().chain(deck.discard.drain(..)).collect();
    let mut order: Vec<ActionCard> = top.iter().map(|&v| take(&mut pool, v)).collect();
    order.extend(pool);
    *deck = MonsterDeck::stacked(difficulty, order);
}

/// A Monster Action deck of exactly these cards (for the book's examples
/// whose values are not all from one printed deck).
pub fn custom_monster_deck(game: &mut Game, difficulty: Difficulty, top: &[u8]) {
    let cards = top
        .iter()
        .enumerate()
        .map(|(i, &v)| if v == 0 { ActionCard::power(200 + i as u16) } else { ActionCard::numbered(200 + i as u16, v) })
        .collect();
    game.monster_decks[difficulty.index()] = MonsterDeck::stacked(difficulty, cards);
}

pub fn power(name: &str, effects: Vec<Effect>) -> Ability {
    Ability { name: name.into(), activation: Activation::Power(1), effects, exhaust_after_use: false }
}

/// Gives Hero `h` an Ability Card of `class` carrying `ability`.
pub fn give_ability_card(game: &mut Game, h: usize, id: &str, class: depths_rules::HeroClass, ability: Ability) {
    let card = depths_rules::hero::AbilityCard { id: id.into(), class, ability };
    game.heroes[h].abilities.push(depths_rules::hero::OwnedAbility { card, exhausted: false });
}

pub fn passive(name: &str, effects: Vec<Effect>) -> Ability {
    Ability { name: name.into(), activation: Activation::Passive, effects, exhaust_after_use: false }
}

pub fn monster(name: &str, difficulty: Difficulty, health: [u8; 3], abilities: Vec<Ability>) -> MonsterCard {
    MonsterCard {
        id: name.to_lowercase().replace(' ', "_"),
        name: name.into(),
        description: String::new(),
        difficulty,
        monster_type: MonsterType::Singular,
        health,
        health_states: Vec::new(),
        xp: 2,
        set_aside: false,
        abilities,
    }
}

pub fn states(cols: &[(u8, u8, u8)]) -> Vec<HealthState> {
    cols.iter().map(|&(alive, monster_cards, hero_cards)| HealthState { alive, monster_cards, hero_cards }).collect()
}

/// "Withered Shade": a Light Group, Health 4 / 8 / 12, "Flash of Anguish: Deal 4 Damage to Hero".
pub fn withered_shade() -> MonsterCard {
    MonsterCard {
        monster_type: MonsterType::Group,
        health_states: states(&[(4, 2, 2), (3, 2, 2), (2, 1, 2), (1, 1, 2)]),
        ..monster(
            "Withered Shade",
            Difficulty::I,
            [4, 8, 12],
            vec![power(
                "Flash of Anguish",
                vec![Effect::DamageHeroes { amount: 4, whom: Whom::Hero, ignore_armor: false }],
            )],
        )
    }
}

/// "Decrepit Skeletal Warriors": a Group; 10 Health each with two Heroes;
/// at ×4 the Monsters play 2 cards and the Heroes 1.
pub fn skeletal_warriors() -> MonsterCard {
    MonsterCard {
        monster_type: MonsterType::Group,
        health_states: states(&[(4, 2, 1), (3, 2, 2), (2, 1, 2), (1, 1, 2)]),
        ..monster("Decrepit Skeletal Warriors", Difficulty::III, [5, 10, 15], vec![])
    }
}

/// "Shrieking Black Shroud" with "Sustained Wail": Heroes play just 1 card next Round.
pub fn shrieking_shroud() -> MonsterCard {
    monster(
        "Shrieking Black Shroud",
        Difficulty::II,
        [9, 18, 27],
        vec![power("Sustained Wail", vec![Effect::PlayOneCardNextRound { whom: Whom::Heroes }])],
    )
}

pub fn sentient_vapor() -> MonsterCard {
    monster("Sentient Vapor", Difficulty::I, [8, 16, 24], vec![])
}

/// Starts Combat against these Monster Cards.
pub fn fight(game: &mut Game, cards: Vec<MonsterCard>) -> Vec<Event> {
    let n = game.heroes.len();
    game.start_combat(cards.into_iter().map(|c| Foe::monster(c, n)).collect())
}

/// The id of a card of `value` in Hero `h`'s hand.
pub fn card_in_hand(game: &Game, h: usize, value: u8) -> CardId {
    game.heroes[h]
        .hand
        .iter()
        .find(|c| c.value == value)
        .unwrap_or_else(|| panic!("hero {h} holds no {value}: {:?}", game.heroes[h].hand))
        .id
}

/// Plays cards of these values for Hero `h`, in order.
pub fn play(game: &mut Game, h: usize, values: &[u8]) -> Vec<Event> {
    let mut events = Vec::new();
    for &v in values {
        let card = card_in_hand(game, h, v);
        events.extend(game.apply(Action::PlayCard { hero: h as u8, card }).expect("legal play"));
    }
    events
}

/// Applies an action that must be legal.
pub fn act(game: &mut Game, action: Action) -> Vec<Event> {
    game.apply(action.clone()).unwrap_or_else(|e| panic!("{action:?} refused: {e}"))
}

/// Values of the Hero and Monster cards in each slot of an engagement.
pub fn slots(game: &Game, engagement: usize) -> Vec<(Option<u8>, Option<u8>)> {
    game.combat().expect("in combat").engagements[engagement]
        .slots
        .iter()
        .map(|s| (s.hero_value(), s.monster_value(0)))
        .collect()
}

pub fn foe_health(game: &Game, foe: usize) -> Vec<u8> {
    game.combat().expect("in combat").foes[foe].individuals.iter().map(|i| i.health).collect()
}

use depths_rules::combat::FinalEntity;
use depths_rules::monster::{EntityPart, EntityPartCard, EntityTailCard};

fn part(name: &str, part: EntityPart, health: [u8; 3], armor: u8, abilities: Vec<Ability>) -> EntityPartCard {
    EntityPartCard {
        id: name.to_lowercase(),
        name: name.into(),
        description: String::new(),
        part,
        health,
        armor,
        abilities,
    }
}

/// A Final Entity for tests: each Head has a Power-Activated ability.
pub fn final_entity() -> FinalEntity {
    FinalEntity {
        head_1: part(
            "Maw",
            EntityPart::HeadI,
            [6, 12, 18],
            0,
            vec![power("Bite", vec![Effect::DamageHeroes { amount: 2, whom: Whom::Hero, ignore_armor: false }])],
        ),
        head_2: part(
            "Crown",
            EntityPart::HeadII,
            [6, 12, 18],
            0,
            vec![power("Dread", vec![Effect::DamageHeroes { amount: 1, whom: Whom::Heroes, ignore_armor: false }])],
        ),
        body: part("Coils", EntityPart::Body, [8, 16, 24], 2, vec![]),
        tail: EntityTailCard {
            id: "tail".into(),
            name: "Tail".into(),
            description: String::new(),
            difficulty: Difficulty::III,
            abilities: vec![],
        },
    }
}

/// A plain, deterministic way to play: resolve choices with the first option,
/// fight by choosing the first pair, explore by encountering everything
/// reachable (the Stair Guardian last), then drawing and placing tiles.
pub fn steady_policy(g: &Game) -> Action {
    use depths_rules::map::Element;
    let legal = g.legal_actions();
    assert!(!legal.is_empty(), "no legal action in {:?}", g.phase());
    let pick = |f: &dyn Fn(&Action) -> bool| legal.iter().find(|a| f(a)).cloned();
    if matches!(g.phase(), depths_rules::Phase::Combat { .. }) {
        return pick(&|a| matches!(a, Action::ChoosePair { .. }))
            .or_else(|| pick(&|a| matches!(a, Action::EndTurn { .. })))
            .unwrap_or_else(|| legal[0].clone());
    }
    if let Some(p) = g.pending() {
        return match p {
            depths_rules::Pending::LevelUp { .. } => Action::FinishLevelUp,
            _ => legal[0].clone(),
        };
    }
    let adv = g.adventure().expect("full game");
    let is_guardian = |a: &Action| matches!(a, Action::Encounter { element } if adv.ecology.map.element(*element).map(|e| e.0) == Some(Element::StairGuardian));
    pick(&|a| matches!(a, Action::PlaceTile { .. }))
        .or_else(|| pick(&|a| matches!(a, Action::Encounter { .. }) && !is_guardian(a)))
        .or_else(|| pick(&|a| matches!(a, Action::EncounterLegendary { .. })))
        .or_else(|| pick(&|a| matches!(a, Action::DrawTile)))
        .or_else(|| pick(&is_guardian))
        .unwrap_or_else(|| legal[0].clone())
}

/// Plays with `policy` until the game ends or `limit` actions pass; returns the actions.
pub fn play_out(g: &mut Game, policy: impl Fn(&Game) -> Action, limit: usize) -> Vec<Action> {
    let mut log = Vec::new();
    while !g.is_over() && log.len() < limit {
        let a = policy(g);
        g.apply(a.clone()).unwrap_or_else(|e| panic!("policy chose illegal {a:?}: {e}"));
        log.push(a);
    }
    log
}

/// Draws the tile `id` (moved to the top of the pile) and places it at `cell`, unturned.
pub fn lay(g: &mut Game, id: &str, cell: (i32, i32)) -> Vec<Event> {
    let adv = g.adventure.as_deref_mut().expect("full game");
    assert!(adv.ecology.pile.put_on_top(id), "{id} is not in the pile");
    let mut events = act(g, Action::DrawTile);
    let placement = depths_rules::map::Placement { cell, rotation: Default::default() };
    events.extend(act(g, Action::PlaceTile { placement }));
    events
}

/// The first element on the tile at `cell`.
pub fn element_at(cell: (i32, i32)) -> depths_rules::map::ElementRef {
    depths_rules::map::ElementRef { cell, area: 0, element: 0 }
}

pub fn give_xp(g: &mut Game, values: &[u8]) {
    let adv = g.adventure.as_deref_mut().expect("full game");
    for &xp in values {
        adv.xp_pool.push(depths_rules::adventure::XpCard {
            name: format!("{xp} XP"),
            xp,
            source: depths_rules::adventure::XpSource::Monster,
        });
    }
}

/// An equipped one-hand Fighter Item for tests.
pub fn equipped_item(name: &str, armor: u8, magic: bool, abilities: Vec<Ability>) -> depths_rules::hero::OwnedItem {
    depths_rules::hero::OwnedItem {
        card: depths_rules::hero::ItemCard {
            id: name.to_lowercase(),
            name: name.into(),
            description: String::new(),
            deck: Some(depths_rules::HeroClass::Fighter),
            class_only: None,
            hands: 1,
            magic,
            armor,
            abilities,
            xp: 1,
            add_cards: vec![],
            remove_cards: 0,
            uses: None,
            fabled_blade: false,
        },
        equipped: true,
        uses_left: None,
    }
}

// ----- random set-ups, shared by the random-play tests, the property tests and the fuzz target -----

use depths_rules::hero::{AbilityCard, HeroClass, OwnedAbility};
use depths_rules::{Ecology, GameOptions, GameRng, Variants};

/// New-game choices from a seed: 1–3 Heroes (some on their alternate side),
/// any variants, any starting Ecology.
pub fn random_options(seed: u64) -> GameOptions {
    let mut rng = GameRng::from_seed(seed);
    let n = 1 + rng.below(3) as usize;
    let heroes: Vec<String> = ["bren", "sil", "ava"][..n]
        .iter()
        .map(|id| if rng.below(3) == 0 { format!("{id}_alt") } else { id.to_string() })
        .collect();
    let mut flag = || rng.below(4) == 0;
    let variants = Variants {
        random_campfire_healing: flag(),
        no_level_up_heal: flag(),
        locked_chests: flag(),
        start_with_ability: flag(),
        six_keys: flag(),
        keys_each_ecology: flag(),
        one_dead_end: flag(),
        double_healing: flag(),
    };
    let start = [Ecology::Ruins, Ecology::Ruins, Ecology::Caverns, Ecology::Subterranean][rng.below(4) as usize];
    GameOptions { heroes, start, variants, single_classed: rng.below(2) == 0, seed }
}

pub fn spell(name: &str, activation: Activation, effects: Vec<Effect>, exhaust: bool) -> OwnedAbility {
    OwnedAbility {
        card: AbilityCard {
            id: name.into(),
            class: HeroClass::Wizard,
            ability: Ability { name: name.into(), activation, effects, exhaust_after_use: exhaust },
        },
        exhausted: false,
    }
}

/// A varied pool of Monster Cards exercising every type and monster effect.
pub fn monster_pool() -> Vec<MonsterCard> {
    let mut pair =
        monster("Twin Lurkers", Difficulty::II, [5, 9, 13], vec![passive("Hide", vec![Effect::Armor { amount: 1 }])]);
    pair.monster_type = MonsterType::Pair;
    pair.health_states = states(&[(2, 2, 2), (1, 1, 2)]);
    let mut horde = monster(
        "Rat Swarm",
        Difficulty::I,
        [2, 4, 6],
        vec![power("Gnaw", vec![Effect::LoseStoredPower { whom: Whom::Hero }])],
    );
    horde.monster_type = MonsterType::Horde(5);
    horde.health_states = states(&[(5, 2, 1), (4, 2, 1), (3, 2, 2), (2, 1, 2), (1, 1, 2)]);
    vec![
        sentient_vapor(),
        shrieking_shroud(),
        withered_shade(),
        skeletal_warriors(),
        pair,
        horde,
        monster(
            "Glass Wraith",
            Difficulty::III,
            [10, 20, 30],
            vec![
                passive("Unreal", vec![Effect::ResistNonMagic, Effect::MonsterCardBonus { amount: 1 }]),
                power("Shatter", vec![Effect::DamageHeroes { amount: 3, whom: Whom::Heroes, ignore_armor: true }]),
                power("Mend", vec![Effect::HealMonster { amount: 3 }]),
            ],
        ),
    ]
}

/// A skirmish from a seed: 1–3 Heroes at level 1–3, some with an Item or
/// Spells, against one or two Monster Cards from [`monster_pool`] or the
/// Final Entity; Combat has started.
pub fn random_game(seed: u64) -> Game {
    let mut rng = GameRng::from_seed(seed);
    let n = 1 + rng.below(3) as usize;
    let heroes: Vec<String> = ["bren", "sil", "ava"][..n]
        .iter()
        .map(|id| if rng.below(2) == 0 { id.to_string() } else { format!("{id}_alt") })
        .collect();
    let mut g = Game::with_heroes(heroes.iter().map(|h| mat(h)).collect(), 1 + rng.below(3) as u8, seed);
    for hero in &mut g.heroes {
        if rng.below(2) == 0 {
            hero.items.push(equipped_item(
                "Mail",
                1,
                rng.below(2) == 0,
                vec![power("Parry", vec![Effect::Armor { amount: 2 }])],
            ));
        }
        if rng.below(2) == 0 {
            hero.abilities.push(spell(
                "Searing Dart",
                Activation::Power(1),
                vec![Effect::DamageMonster { amount: 4, magic: true }],
                true,
            ));
            hero.abilities.push(spell("Recall", Activation::Block, vec![Effect::Retrieve], false));
            hero.abilities.push(spell("Keen Eye", Activation::Power(2), vec![Effect::ReplacePlayedCard], false));
            hero.abilities.push(spell(
                "Hex",
                Activation::Power(1),
                vec![Effect::ModifyMonsterCard { delta: -2 }],
                false,
            ));
        }
    }
    let pool = monster_pool();
    let count = g.heroes.len();
    let foes: Vec<Foe> = match rng.below(6) {
        0 => vec![Foe::final_entity(final_entity(), count)],
        1 | 2 => {
            let a = rng.below(pool.len() as u32) as usize;
            let b = (a + 1 + rng.below(pool.len() as u32 - 1) as usize) % pool.len();
            vec![Foe::monster(pool[a].clone(), count), Foe::monster(pool[b].clone(), count)]
        }
        _ => vec![Foe::monster(pool[rng.below(pool.len() as u32) as usize].clone(), count)],
    };
    g.start_combat(foes);
    g
}

/// Bren and Sil against the Moss-Covered Walking Statue and the Shrieking
/// Black Shroud (two Monster Cards still to be assigned, no card drawn yet): a
/// fight whose table is the same for every seed.
pub fn two_against_two(seed: u64) -> Game {
    let content = Content::builtin().unwrap();
    let monsters = &content.ecology(depths_rules::Ecology::Ruins).monsters;
    let pick = |name: &str| monsters.iter().find(|m| m.name == name).unwrap().clone();
    let mats = ["bren", "sil"].iter().map(|h| content.hero(h).unwrap().clone()).collect();
    let foes =
        vec![Foe::monster(pick("Moss-Covered Walking Statue"), 2), Foe::monster(pick("Shrieking Black Shroud"), 2)];
    Game::skirmish(mats, foes, seed).0
}
