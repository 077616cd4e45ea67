//! A tiny scenario builder with stacked (fixed-order) decks, in the spirit of
//! the rulebook's examples: Heroes at the table, their cards and the Monster
//! decks arranged, and short ways to act and to read the table.

use depths_rules::action_card::{ActionCard, MonsterDeck};
use depths_rules::effect::Ability;
use depths_rules::{Action, CardId, Content, Difficulty, Event, Foe, Game, HeroMat, MonsterCard};

pub fn mat(id: &str) -> HeroMat {
    let heroes = Content::builtin_heroes().expect("heroes.json loads");
    heroes.into_iter().find(|h| h.id == id).unwrap_or_else(|| panic!("no hero {id}"))
}

/// Heroes by id at level 1; the game is not yet in Combat.
pub fn game_of(heroes: &[&str]) -> Game {
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

/// Gives Hero `h` an Ability Card of `class` carrying `ability`.
pub fn give_ability_card(game: &mut Game, h: usize, id: &str, class: depths_rules::HeroClass, ability: Ability) {
    let card = depths_rules::hero::AbilityCard { id: id.into(), class, ability };
    game.heroes[h].abilities.push(depths_rules::hero::OwnedAbility { card, exhausted: false });
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
