//! The properties every reachable state keeps, as plain functions that return
//! the first violation found. The property tests (`tests/tests/properties.rs`)
//! drive them with proptest, which shrinks a failure to a short action list;
//! the fuzz target (`fuzz/fuzz_targets/actions.rs`) drives the same code with
//! libFuzzer's bytes through [`run_bytes`].
//!
//! A run starts a game from a seed ([`start`]) and follows a list of choices:
//! each choice picks `legal_actions()[choice % len]`. Before every step:
//! - every action `legal_actions()` lists passes `check`;
//! - every action of a broad candidate set ([`candidates`]) that `check`
//!   accepts is in `legal_actions()`;
//! - a refused candidate changes nothing: `apply` refuses it too and the game
//!   equals its copy from before;
//! - the game is never stuck: unless it is over, something is legal.
//!
//! After every step (see [`Census`] and [`check_invariants`]): no Action Card is
//! created or lost, each Monster Action deck keeps its cards, Hero health stays
//! within 0..=max, no Power Card is in a hand and a hand holds at most 3 cards.

use std::collections::{BTreeSet, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

use depths_rules::action_card::MONSTER_POWER_CARDS;
use depths_rules::adventure::{Pending, Purchase, XpRef, class_index};
use depths_rules::map::{ElementRef, Placement, Rotation};
use depths_rules::{AbilitySource, Action, CardId, Content, Game, Phase, Target};

use crate::setups::{random_game, random_options};

/// How long a run may be; the property tests and the fuzz target stop there.
pub const MAX_STEPS: usize = 150;

/// Cards in each Monster Action deck: 20 numbered and the Power Cards.
pub const MONSTER_DECK_CARDS: usize = 20 + MONSTER_POWER_CARDS;

/// What a run plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole game on the fixture content, options from [`random_options`].
    Game,
    /// A whole game on the shipped content, options from [`random_options`].
    ShippedGame,
    /// A stand-alone fight from [`random_game`].
    Skirmish,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Game, Kind::ShippedGame, Kind::Skirmish];
}

fn fixture_content() -> &'static Content {
    static CONTENT: OnceLock<Content> = OnceLock::new();
    CONTENT.get_or_init(crate::fixture::fixture)
}

fn shipped_content() -> &'static Content {
    static CONTENT: OnceLock<Content> = OnceLock::new();
    CONTENT.get_or_init(|| Content::builtin().expect("shipped content loads"))
}

/// The game a run starts from.
pub fn start(kind: Kind, seed: u64) -> Game {
    match kind {
        Kind::Game => Game::new(random_options(seed), fixture_content().clone()).expect("fixture game sets up"),
        Kind::ShippedGame => Game::new(random_options(seed), shipped_content().clone()).expect("game sets up"),
        Kind::Skirmish => random_game(seed),
    }
}

// ----- conservation -----

/// Where every Action Card is, as multisets of card ids (sorted lists).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Census {
    /// Each Hero's own Action Cards (not Item Action Cards): Draw Pile, hand,
    /// Discard Pile, Stored Power, out of the deck, drawn for a Feature's test,
    /// and played on the table.
    pub heroes: Vec<Vec<CardId>>,
    /// Per class (Fighter, Wizard, Rogue): the Item Action Cards not yet
    /// Added, and those in the decks of the Heroes of that Primary Class.
    pub item_cards: [Vec<CardId>; 3],
    /// Each Monster Action deck (Light, Medium, Heavy): draw, discard and
    /// the cards on the table.
    pub monster_decks: [Vec<CardId>; 3],
}

impl Census {
    pub fn of(g: &Game) -> Census {
        let mut heroes: Vec<Vec<CardId>> = vec![Vec::new(); g.heroes.len()];
        let mut item_cards: [Vec<CardId>; 3] = Default::default();
        let mut monster_decks: [Vec<CardId>; 3] = Default::default();
        let mut hero_card = |h: usize, card: &depths_rules::ActionCard| {
            if card.item {
                item_cards[class_index(g.heroes[h].mat.class)].push(card.id);
            } else {
                heroes[h].push(card.id);
            }
        };
        for (h, hero) in g.heroes.iter().enumerate() {
            let piles = hero.draw.iter().chain(&hero.hand).chain(&hero.discard).chain(&hero.stored_power);
            let piles = piles.chain(&hero.test_cards);
            for card in piles.chain(&hero.out_of_deck) {
                hero_card(h, card);
            }
        }
        for deck in &g.monster_decks {
            monster_decks[deck.difficulty.index()].extend(deck.draw.iter().chain(&deck.discard).map(|c| c.id));
        }
        if let Some(c) = g.combat() {
            for e in &c.engagements {
                let deck = c.foes.get(usize::from(e.foe)).map(|f| f.difficulty.index());
                for s in &e.slots {
                    if let Some(card) = &s.hero {
                        hero_card(usize::from(e.hero), card);
                    }
                }
                let monster_cards =
                    e.slots.iter().filter_map(|s| s.monster).chain(e.unpaired.iter().copied()).chain(e.waiting);
                for card in monster_cards {
                    // A card opposite a foe that does not exist goes nowhere, and shows.
                    if let Some(d) = deck {
                        monster_decks[d].push(card.id);
                    }
                }
            }
        }
        if let Some(a) = g.adventure() {
            for (class, pool) in a.item_action_cards.iter().enumerate() {
                item_cards[class].extend(pool.iter().map(|c| c.id));
            }
        }
        for list in heroes.iter_mut().chain(item_cards.iter_mut()).chain(monster_decks.iter_mut()) {
            list.sort();
        }
        Census { heroes, item_cards, monster_decks }
    }
}

/// The state alone: cards conserved against `census` (taken at the start),
/// health within bounds, hands as the rules keep them.
pub fn check_invariants(g: &Game, census: &Census) -> Result<(), String> {
    let now = Census::of(g);
    for (h, (was, is)) in census.heroes.iter().zip(&now.heroes).enumerate() {
        if was != is {
            return Err(format!("Hero {h}'s Action Cards changed: {}", changes(was, is)));
        }
    }
    for (class, (was, is)) in census.item_cards.iter().zip(&now.item_cards).enumerate() {
        if was != is {
            return Err(format!("class {class}'s Item Action Cards changed: {}", changes(was, is)));
        }
    }
    for (d, (was, is)) in census.monster_decks.iter().zip(&now.monster_decks).enumerate() {
        if was != is || is.len() != MONSTER_DECK_CARDS {
            return Err(format!(
                "Monster Action deck {d} holds {} cards, not {MONSTER_DECK_CARDS}: {}",
                is.len(),
                changes(was, is)
            ));
        }
    }
    for (h, hero) in g.heroes.iter().enumerate() {
        if hero.health > hero.max_health() {
            return Err(format!("Hero {h} has {} health, more than the maximum {}", hero.health, hero.max_health()));
        }
        if hero.hand.iter().any(|c| c.power) {
            return Err(format!("Hero {h} holds a Power Card in hand: {:?}", hero.hand));
        }
        if hero.hand.len() > 3 {
            return Err(format!("Hero {h} holds {} cards", hero.hand.len()));
        }
    }
    if let Some(c) = g.combat() {
        for (f, foe) in c.foes.iter().enumerate() {
            if let Some(i) = foe.individuals.iter().position(|i| i.health > i.max_health) {
                return Err(format!("foe {f} individual {i} is above its maximum health"));
            }
        }
    }
    Ok(())
}

/// "lost [..], gained [..]" between two sorted lists of card ids.
fn changes(was: &[CardId], is: &[CardId]) -> String {
    let less = |a: &[CardId], b: &[CardId]| {
        let mut rest = b.to_vec();
        a.iter()
            .filter(|c| match rest.iter().position(|r| r == *c) {
                Some(i) => {
                    rest.remove(i);
                    false
                }
                None => true,
            })
            .copied()
            .collect::<Vec<_>>()
    };
    format!("lost {:?}, gained {:?}", less(was, is), less(is, was))
}

// ----- the candidate set -----

/// A broad superset of the legal actions: every Action variant with small
/// field ranges around the current state (Hero indices 0..4 so one is always
/// out of range, every index one past its list, the cards the Heroes hold,
/// placements on and around every tile in all 4 turns, …). Most are illegal.
pub fn candidates(g: &Game) -> Vec<Action> {
    let mut out = Vec::new();
    const HEROES: std::ops::Range<u8> = 0..4;
    // Cards by id: everything any Hero holds, plus one no one does.
    let mut cards: BTreeSet<CardId> = BTreeSet::new();
    for hero in &g.heroes {
        let piles = hero.draw.iter().chain(&hero.hand).chain(&hero.discard).chain(&hero.stored_power);
        cards.extend(piles.chain(&hero.out_of_deck).map(|c| c.id));
    }
    cards.insert(CardId(999));

    // --- Combat ---
    let mut vectors: Vec<Vec<u8>> = vec![Vec::new()];
    for len in 1..=4 {
        let k: u32 = 3;
        for code in 0..k.pow(len) {
            vectors.push((0..len).map(|i| ((code / k.pow(i)) % k) as u8).collect());
        }
    }
    out.extend(vectors.into_iter().map(|foes| Action::AssignMonsters { foes }));
    let combat = g.combat();
    let engagements = combat.map_or(0, |c| c.engagements.len()) as u8;
    let individuals = combat.map_or(0, |c| c.foes.iter().map(|f| f.individuals.len()).max().unwrap_or(0)) as u8;
    for hero in HEROES {
        out.extend(cards.iter().map(|&card| Action::PlayCard { hero, card }));
        out.extend((0..4).map(|slot| Action::PlaceMonsterCard { hero, slot }));
        for engagement in 0..=engagements.max(2) {
            out.extend((0..4).map(|slot| Action::ChoosePair { hero, engagement, slot }));
        }
        out.push(Action::EndTurn { hero });
        out.extend((0..=individuals.max(5)).map(|individual| Action::AssignDamage { hero, individual }));
        out.push(Action::AvoidReturnDamage { hero });
    }

    // Ability sources and targets.
    let mut targets = vec![Target::None];
    targets.extend((0..=engagements.max(2)).map(Target::Engagement));
    let foes = combat.map_or(0, |c| c.foes.len()) as u8;
    for foe in 0..=foes.max(2) {
        targets.extend((0..=individuals.max(5)).map(|individual| Target::Individual { foe, individual }));
    }
    for engagement in 0..=engagements.max(2) {
        for slot in 0..4 {
            targets.push(Target::HeroSlot { engagement, slot });
            targets.push(Target::MonsterSlot { engagement, slot });
        }
    }
    targets.extend(HEROES.map(Target::Hero));
    targets.extend(cards.iter().map(|&c| Target::DiscardCard(c)));
    let elements = element_refs(g);
    targets.extend(elements.iter().map(|&e| Target::Element(e)));
    for hero in HEROES {
        let mut sources: Vec<AbilitySource> = Vec::new();
        match g.heroes.get(usize::from(hero)) {
            Some(h) => {
                sources.extend((0..=h.mat.abilities.len() as u8).map(AbilitySource::Mat));
                sources.extend((0..=h.abilities.len() as u8).map(AbilitySource::Card));
                for (i, item) in h.items.iter().enumerate() {
                    sources.extend((0..=item.card.abilities.len() as u8).map(|j| AbilitySource::Item(i as u8, j)));
                }
                sources.push(AbilitySource::Item(h.items.len() as u8, 0));
            }
            None => sources.extend([AbilitySource::Mat(0), AbilitySource::Card(0), AbilitySource::Item(0, 0)]),
        }
        for source in sources {
            out.extend(targets.iter().map(|&target| Action::ActivateAbility { hero, source, target }));
        }
    }

    // --- Exploring ---
    out.push(Action::DrawTile);
    out.push(Action::CancelPurchase);
    out.push(Action::FinishLevelUp);
    out.push(Action::Descend);
    for placement in placements(g) {
        out.push(Action::PlaceTile { placement });
        out.push(Action::PlaceSetAsideTile { placement });
    }
    out.extend(elements.iter().map(|&element| Action::Encounter { element }));
    out.extend((0..4).map(|index| Action::EncounterLegendary { index }));
    out.push(Action::StartPurchase { what: Purchase::Key });
    out.extend((0..=21).map(|units| Action::StartPurchase { what: Purchase::Healing { units } }));
    out.extend(HEROES.map(|hero| Action::StartPurchase { what: Purchase::Ability { hero } }));
    let pool = g.adventure().map_or(0, |a| a.xp_pool.len()) as u8;
    out.extend((0..=pool).map(|i| Action::PayXp { card: XpRef::Pool(i) }));
    let items = g.heroes.iter().map(|h| h.items.len()).max().unwrap_or(0) as u8;
    for hero in HEROES {
        for item in 0..=items {
            out.push(Action::PayXp { card: XpRef::Item { hero, item } });
            out.push(Action::Equip { hero, item });
            out.push(Action::Unequip { hero, item });
        }
        out.push(Action::ChooseHero { hero });
    }
    out.extend(healing_splits(g).into_iter().map(|amounts| Action::SplitHealing { amounts }));
    out.extend((0..10).map(|index| Action::ChooseOption { index }));
    out.extend(cards.iter().map(|&card| Action::RemoveActionCard { card }));
    out
}

/// Every element on every placed tile, and one past each list.
fn element_refs(g: &Game) -> Vec<ElementRef> {
    let Some(a) = g.adventure() else { return Vec::new() };
    let mut out = Vec::new();
    for t in a.ecology.map.tiles() {
        for area in 0..=t.tile.areas.len() {
            let elements = t.tile.areas.get(area).map_or(0, |a| a.elements.len());
            out.extend((0..=elements).map(|element| ElementRef {
                cell: t.cell,
                area: area as u8,
                element: element as u8,
            }));
        }
    }
    out
}

/// Every cell that holds a tile or touches one, in all 4 turns.
fn placements(g: &Game) -> Vec<Placement> {
    let Some(a) = g.adventure() else { return Vec::new() };
    let mut cells = BTreeSet::new();
    for t in a.ecology.map.tiles() {
        let (x, y) = t.cell;
        cells.extend([(x, y), (x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]);
    }
    cells.into_iter().flat_map(|cell| Rotation::ALL.map(|rotation| Placement { cell, rotation })).collect()
}

/// Ways to share Healing: while a split is pending, every vector of the
/// party's length with each share up to one past what that Hero misses (and a
/// vector one too short and one too long); otherwise a few.
fn healing_splits(g: &Game) -> Vec<Vec<u8>> {
    let n = g.heroes.len();
    let mut out = vec![vec![0; n], vec![1; n], vec![0; n + 1], vec![0; n.saturating_sub(1)]];
    if matches!(g.pending(), Some(Pending::SplitHealing { .. })) {
        let limits: Vec<u8> = g.heroes.iter().map(|h| h.max_health() - h.health + 1).collect();
        let mut current = vec![0u8; n];
        'all: loop {
            out.push(current.clone());
            for i in 0..n {
                if current[i] < limits[i] {
                    current[i] += 1;
                    continue 'all;
                }
                current[i] = 0;
            }
            break;
        }
    }
    out
}

// ----- the properties at one state -----

/// Won or lost, or a skirmish whose fight is over.
pub fn finished(g: &Game) -> bool {
    g.is_over() || (g.adventure().is_none() && !matches!(g.phase(), Phase::Combat { .. }))
}

/// `check`, `legal_actions` and `apply` agree at this state. `legal` is
/// `g.legal_actions()`. The game is left as it was.
pub fn check_actions(g: &mut Game, legal: &[Action]) -> Result<(), String> {
    for a in legal {
        if let Err(e) = g.check(a) {
            return Err(format!("legal_actions lists {a:?}, but check refuses it: {e}"));
        }
    }
    if legal.is_empty() && !finished(g) {
        return Err(format!("stuck: nothing is legal in {:?} (pending {:?})", g.phase(), g.pending()));
    }
    let listed: HashSet<&Action> = legal.iter().collect();
    let candidates = candidates(g);
    let known: HashSet<&Action> = candidates.iter().collect();
    if let Some(a) = legal.iter().find(|a| !known.contains(a)) {
        // Not a rules bug: the candidate set must grow to cover this.
        return Err(format!("the candidate set misses the legal {a:?}: widen properties::candidates"));
    }
    let mut refused = Vec::new();
    for a in &candidates {
        match g.check(a) {
            Ok(()) if !listed.contains(a) => {
                return Err(format!("check accepts {a:?}, but legal_actions omits it"));
            }
            Ok(()) => {}
            Err(e) => refused.push((a, e)),
        }
    }
    // Every refused candidate goes to apply; one comparison at the end finds
    // any change, then each is tried alone on a copy to name the culprit.
    let before = g.clone();
    for (a, why) in &refused {
        if let Ok(events) = g.apply((*a).clone()) {
            return Err(format!("check refuses {a:?} ({why}), but apply performs it: {events:?}"));
        }
    }
    if *g != before {
        let culprit = refused.iter().find(|(a, _)| {
            let mut copy = before.clone();
            let _ = copy.apply((*a).clone());
            copy != before
        });
        *g = before;
        return Err(match culprit {
            Some((a, why)) => format!("the refused {a:?} ({why}) changed the game"),
            None => "refused actions changed the game together, none alone".into(),
        });
    }
    Ok(())
}

// ----- whole runs -----

/// A run that kept every property.
#[derive(Debug)]
pub struct Played {
    pub actions: Vec<Action>,
    /// See [`finished`].
    pub finished: bool,
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

/// Starts `kind` from `seed` and plays the choices (at most [`MAX_STEPS`]),
/// checking every property before and after each step. A violation, or a
/// panic in the rules, comes back as a message naming the seed and the
/// actions played.
pub fn run(kind: Kind, seed: u64, choices: &[u16]) -> Result<Played, String> {
    let mut actions: Vec<Action> = Vec::new();
    let fail = |actions: &[Action], msg: String| {
        format!("{kind:?} seed {seed}, after {} action(s) {actions:?}:\n{msg}", actions.len())
    };
    let mut g =
        catch_unwind(|| start(kind, seed)).map_err(|p| fail(&[], format!("set-up panicked: {}", panic_text(&*p))))?;
    let census = Census::of(&g);
    check_invariants(&g, &census).map_err(|m| fail(&actions, m))?;
    for &choice in choices.iter().take(MAX_STEPS) {
        let outcome = catch_unwind(AssertUnwindSafe(|| -> Result<Option<Action>, String> {
            let legal = g.legal_actions();
            check_actions(&mut g, &legal)?;
            if legal.is_empty() {
                return Ok(None);
            }
            let a = legal[usize::from(choice) % legal.len()].clone();
            g.apply(a.clone()).map_err(|e| format!("the legal {a:?} is refused: {e}"))?;
            check_invariants(&g, &census).map_err(|m| format!("after {a:?}: {m}"))?;
            Ok(Some(a))
        }));
        match outcome {
            Ok(Ok(Some(a))) => actions.push(a),
            Ok(Ok(None)) => break,
            Ok(Err(m)) => return Err(fail(&actions, m)),
            Err(p) => return Err(fail(&actions, format!("the rules panicked: {}", panic_text(&*p)))),
        }
    }
    Ok(Played { actions, finished: finished(&g) })
}

/// The fuzz target's reading of its bytes: 8 bytes of seed (little-endian,
/// missing bytes are 0), one byte for the [`Kind`], then the choices as
/// little-endian `u16`s. Panics with [`run`]'s message on a violation.
pub fn run_bytes(data: &[u8]) {
    let mut seed = [0u8; 8];
    let head = data.len().min(8);
    seed[..head].copy_from_slice(&data[..head]);
    let seed = u64::from_le_bytes(seed);
    let kind = Kind::ALL[usize::from(data.get(8).copied().unwrap_or(0)) % Kind::ALL.len()];
    let choices: Vec<u16> =
        data.get(9..).unwrap_or(&[]).chunks(2).map(|c| u16::from_le_bytes([c[0], *c.get(1).unwrap_or(&0)])).collect();
    if let Err(message) = run(kind, seed, &choices) {
        panic!("{message}");
    }
}
