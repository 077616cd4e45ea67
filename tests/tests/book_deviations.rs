//! Rules where an earlier reading differed from the book; each test names the
//! passage it holds the game to.

use std::collections::BTreeMap;

use depths_rules::adventure::{Pending, Purchase, XpRef};
use depths_rules::hero::{OwnedAbility, OwnedItem};
use depths_rules::map::{Element, ElementState};
use depths_rules::{
    AbilitySource, Action, Content, Ecology, Game, GameOptions, HeroClass, RuleError, Target, Variants,
};
use depths_tests::fixture::fixture;
use depths_tests::*;

fn new_game(heroes: &[&str], variants: Variants) -> Game {
    let mut o = GameOptions::standard(heroes, 21);
    o.variants = variants;
    Game::new(o, fixture()).expect("setup")
}

/// Lays the `stairs` tile east of the Entry and plays its Stair Guardian's
/// fight with the steady policy until Level Up.
fn defeat_the_stair_guardian(g: &mut Game, stairs: &str) {
    lay(g, stairs, (1, 0));
    act(g, Action::Encounter { element: element_at((1, 0)) });
    while !matches!(g.pending(), Some(Pending::LevelUp { .. })) {
        let a = steady_policy(g);
        act(g, a);
    }
}

fn give_ability(g: &mut Game, h: usize, class: HeroClass, name: &str) -> AbilitySource {
    let card = g.adventure().unwrap().content.class_deck(class).abilities.iter().find(|a| a.ability.name == name);
    let card = card.unwrap_or_else(|| panic!("no {name}")).clone();
    g.heroes[h].abilities.push(OwnedAbility { card, exhausted: false });
    AbilitySource::Card(g.heroes[h].abilities.len() as u8 - 1)
}

/// "Note: Sil has 3 Power Cards, but the third one is only added to her Action
/// Card deck when she reaches level 3." Only that card: a Power Card another
/// Hero Removed with an Item stays out of their deck.
#[test]
fn only_sils_third_power_card_joins_at_level_three() {
    let mut g = new_game(&["bren", "sil"], Variants::default());
    // Bren Removed one of his Power Cards (an Item's "Remove" step).
    let bren = &mut g.heroes[0];
    let removed = bren.stored_power.pop().unwrap();
    bren.out_of_deck.push(removed);
    for h in &mut g.heroes {
        h.level = 2;
    }
    defeat_the_stair_guardian(&mut g, "ruins-stairs");
    assert_eq!(g.heroes[0].level, 3);
    assert!(g.heroes[0].out_of_deck.contains(&removed), "Bren's Removed Power Card stays out");
    let sil = &g.heroes[1];
    assert!(sil.out_of_deck.iter().all(|c| !c.power), "Sil's third Power Card joined her deck");
    let power = sil.draw.iter().chain(&sil.hand).chain(&sil.discard).chain(&sil.stored_power).filter(|c| c.power);
    assert_eq!(power.count(), 3);
}

/// "Passage to Next Ecology … Note: Each Ecology follows the same Setup" —
/// "3. Monster Action Cards … Shuffle each deck": the Monster Action decks are
/// gathered from their Discard Piles and shuffled for the new Ecology.
#[test]
fn each_ecology_gathers_and_shuffles_the_monster_action_decks() {
    let mut g = new_game(&["bren"], Variants::default());
    defeat_the_stair_guardian(&mut g, "ruins-stairs");
    assert!(g.monster_decks.iter().any(|d| !d.discard.is_empty()), "the Stair Guardian's cards were discarded");
    act(&mut g, Action::FinishLevelUp);
    if matches!(g.pending(), Some(Pending::Passage { .. })) {
        act(&mut g, Action::Descend);
    }
    assert_eq!(g.adventure().unwrap().ecology.ecology, Ecology::Caverns);
    for d in &g.monster_decks {
        assert!(d.discard.is_empty(), "{:?}: gathered", d.difficulty);
        assert_eq!(d.draw.len(), 22, "{:?}: all 22 cards", d.difficulty);
    }
}

/// "Locked Chests: Just like Doors, all Chests must be Unlocked to open" — and
/// "Certain Hero Items, Abilities, and Spells can also be used to Unlock Doors":
/// whatever unlocks a Door unlocks a Locked Chest, without a Key.
#[test]
fn locked_chests_open_with_whatever_unlocks_a_door() {
    let mut g = new_game(&["bren"], Variants { locked_chests: true, ..Variants::default() });
    let pick = give_ability(&mut g, 0, HeroClass::Fighter, "Pick Lock");
    lay(&mut g, "ruins-chest", (1, 0));
    let chest = element_at((1, 0));
    g.adventure.as_deref_mut().unwrap().keys = 0;
    assert_eq!(g.check(&Action::Encounter { element: chest }), Err(RuleError::NeedsKey));
    act(&mut g, Action::ActivateAbility { hero: 0, source: pick, target: Target::Element(chest) });
    assert_eq!(g.adventure().unwrap().keys, 0, "no Key spent");
    assert!(matches!(g.pending(), Some(Pending::ChooseHero(_))), "the Chest opens: a Hero draws an Item");
    act(&mut g, Action::ChooseHero { hero: 0 });
    assert_eq!(g.heroes[0].items.len(), 1);
    assert_eq!(g.adventure().unwrap().ecology.map.element(chest).unwrap().1, ElementState::Encountered);
    // Without the variant a Chest is not locked, so there is nothing to unlock.
    let mut g = new_game(&["bren"], Variants::default());
    let pick = give_ability(&mut g, 0, HeroClass::Fighter, "Pick Lock");
    lay(&mut g, "ruins-chest", (1, 0));
    let unlock = Action::ActivateAbility { hero: 0, source: pick, target: Target::Element(element_at((1, 0))) };
    assert_eq!(g.check(&unlock), Err(RuleError::BadTarget));
}

/// "Players take turns drawing and placing Map Tiles" and "Keys … cannot be
/// bought in the time between drawing and placing a new Map Tile": with a tile
/// drawn and not yet placed, nothing may change the map or the party's options.
#[test]
fn with_a_tile_in_hand_nothing_changes_the_map_or_the_partys_options() {
    let mut g = new_game(&["bren"], Variants::default());
    let pick = give_ability(&mut g, 0, HeroClass::Fighter, "Pick Lock");
    lay(&mut g, "ruins-door", (1, 0));
    lay(&mut g, "ruins-monster", (-1, 0));
    let door = element_at((1, 0));
    give_xp(&mut g, &[5]);
    act(&mut g, Action::DrawTile);
    let unlock = Action::ActivateAbility { hero: 0, source: pick, target: Target::Element(door) };
    assert_eq!(g.check(&unlock), Err(RuleError::TileWaiting), "no unlocking by ability");
    assert_eq!(g.check(&Action::Encounter { element: door }), Err(RuleError::TileWaiting), "no Encounter");
    assert_eq!(g.check(&Action::Encounter { element: element_at((-1, 0)) }), Err(RuleError::TileWaiting));
    assert_eq!(g.check(&Action::StartPurchase { what: Purchase::Key }), Err(RuleError::TileWaiting), "no Key");
    assert!(!g.legal_actions().iter().any(|a| matches!(a, Action::ActivateAbility { .. } | Action::Encounter { .. })));
    // "Healing can be bought anytime while Heroes are Exploring": the book allows it.
    g.heroes[0].health -= 2;
    assert_eq!(g.check(&Action::StartPurchase { what: Purchase::Healing { units: 1 } }), Ok(()));
}

/// "Spending Experience Points … Equipped and Unequipped Items may be spent":
/// an Item offered and then taken back (the purchase cancelled) returns exactly
/// as it was — its place, its uses left, Equipped or not.
#[test]
fn cancelling_a_purchase_returns_offered_items_as_they_were() {
    let mut g = new_game(&["bren"], Variants::default());
    let content = g.adventure().unwrap().content.clone();
    let charm = content.item("charm").unwrap().clone();
    let shield =
        content.class_deck(HeroClass::Fighter).items.iter().find(|i| i.id == "fighter_shield").unwrap().clone();
    g.heroes[0].items = vec![
        OwnedItem { card: shield, equipped: true, uses_left: None },
        OwnedItem { card: charm, equipped: false, uses_left: Some(1) },
    ];
    let before = g.heroes[0].items.clone();
    act(&mut g, Action::StartPurchase { what: Purchase::Key });
    act(&mut g, Action::PayXp { card: XpRef::Item { hero: 0, item: 1 } });
    assert_eq!(g.heroes[0].items.len(), 1, "offered");
    act(&mut g, Action::CancelPurchase);
    assert_eq!(g.heroes[0].items, before, "same order, same uses left, still Equipped");
    act(&mut g, Action::StartPurchase { what: Purchase::Key });
    act(&mut g, Action::PayXp { card: XpRef::Item { hero: 0, item: 0 } });
    act(&mut g, Action::CancelPurchase);
    assert_eq!(g.heroes[0].items, before);
}

/// "Start with an Ability: When starting at the Ruins, each Hero draws an
/// Ability" — and "When drawing Hero Abilities, multi-classed Heroes may either
/// draw 1 from each of their Primary and Secondary Class Ability Decks … or
/// draw 2 from their Primary Class Ability Deck and select one to keep."
#[test]
fn start_with_an_ability_gives_a_multi_classed_hero_the_books_choice() {
    let mut g = new_game(&["bren_alt"], Variants { start_with_ability: true, ..Variants::default() });
    assert!(g.heroes[0].abilities.is_empty(), "not drawn blind");
    assert!(matches!(g.pending(), Some(Pending::ChooseAbilityDraw { hero: 0 })));
    act(&mut g, Action::ChooseOption { index: 0 });
    let Some(Pending::ChooseAbility { options, .. }) = g.pending() else { panic!("{:?}", g.pending()) };
    let classes: Vec<HeroClass> = options.iter().map(|o| o.class).collect();
    assert_eq!(classes, vec![HeroClass::Fighter, HeroClass::Wizard], "one from each class");
    act(&mut g, Action::ChooseOption { index: 1 });
    assert_eq!(g.heroes[0].abilities.len(), 1);
    assert_eq!(g.heroes[0].abilities[0].card.class, HeroClass::Wizard);
    assert!(g.pending().is_none());
}

/// Every Item and Ability a class deck holds, counted across the decks and
/// the Heroes.
fn owned_and_decked(g: &Game) -> (BTreeMap<String, usize>, BTreeMap<String, usize>) {
    let adv = g.adventure().unwrap();
    let mut items = BTreeMap::new();
    let mut abilities = BTreeMap::new();
    for i in adv
        .item_decks
        .iter()
        .flatten()
        .map(|c| &**c)
        .chain(g.heroes.iter().flat_map(|h| h.items.iter().map(|o| &o.card)))
    {
        *items.entry(i.id.clone()).or_insert(0) += 1;
    }
    for a in adv
        .ability_decks
        .iter()
        .flatten()
        .map(|c| &**c)
        .chain(g.heroes.iter().flat_map(|h| h.abilities.iter().map(|o| &o.card)))
    {
        *abilities.entry(a.id.clone()).or_insert(0) += 1;
    }
    (items, abilities)
}

fn ids(cards: impl Iterator<Item = depths_rules::action_card::ActionCard>) -> Vec<u16> {
    let mut v: Vec<u16> = cards.map(|c| c.id.0).collect();
    v.sort_unstable();
    v
}

/// "Save your Game … When you want to pick up where you left off, simply use
/// the sheets to recreate your Heroes": recreated Heroes have the decks a
/// continuing game has — no Item or Ability twice, no card lost.
#[test]
fn heroes_recreated_from_the_record_have_the_decks_of_a_continuing_game() {
    let mut g = new_game(&["bren", "sil"], Variants::default());
    // Bren found a class Item that Adds and Removes cards; Sil has an Ability.
    let adv = g.adventure.as_deref_mut().unwrap();
    let i = adv.item_decks[0].iter().position(|c| c.id == "fighter_blade").unwrap();
    let blade = adv.item_decks[0].remove(i).into_inner();
    let j = adv.ability_decks[1].iter().position(|c| c.id == "wizard_rally").unwrap();
    let rally = adv.ability_decks[1].remove(j).into_inner();
    g.heroes[1].abilities.push(OwnedAbility { card: rally, exhausted: false });
    g.heroes[0].items.push(OwnedItem { card: blade, equipped: true, uses_left: None });
    let nine = adv.item_action_cards[0].remove(0);
    g.heroes[0].draw.push(nine);
    let removed = g.heroes[0].draw.remove(0);
    g.heroes[0].out_of_deck.push(removed);
    defeat_the_stair_guardian(&mut g, "ruins-stairs");
    act(&mut g, Action::FinishLevelUp);
    if matches!(g.pending(), Some(Pending::Passage { .. })) {
        act(&mut g, Action::Descend);
    }
    let record = g.party_record().unwrap();
    let resumed = Game::from_record(&record, fixture(), 5).unwrap();
    assert_eq!(owned_and_decked(&resumed), owned_and_decked(&g), "no Item or Ability twice or lost");
    assert!(owned_and_decked(&resumed).0.values().all(|&n| n == 1));
    for (a, b) in resumed.heroes.iter().zip(&g.heroes) {
        let deck = |h: &depths_rules::Hero| ids(h.draw.iter().chain(&h.hand).chain(&h.discard).copied());
        assert_eq!(deck(a), deck(b), "{}: the same deck", a.name());
        assert_eq!(ids(a.stored_power.iter().copied()), ids(b.stored_power.iter().copied()));
        assert_eq!(ids(a.out_of_deck.iter().copied()), ids(b.out_of_deck.iter().copied()), "Removed cards stay out");
    }
    let pools =
        |g: &Game| g.adventure().unwrap().item_action_cards.iter().map(|p| ids(p.iter().copied())).collect::<Vec<_>>();
    assert_eq!(pools(&resumed), pools(&g), "Item Action Cards");
    // A lower start's bonuses are already in the records: none drawn again.
    assert!(resumed.pending().is_none());
}

/// "Items … can include new Abilities", "Certain Hero Items, Abilities, and
/// Spells can also be used to Unlock Doors": every Ability and Item ability
/// in the shipped content can be used somewhere the book allows.
#[test]
fn every_authored_ability_is_usable_somewhere() {
    let content = Content::builtin().expect("content");
    let mut checked = 0;
    let mut unusable = Vec::new();
    let mut sources: Vec<(String, HeroClass, depths_rules::effect::Ability, Option<depths_rules::hero::ItemCard>)> =
        Vec::new();
    for (class, _) in depths_rules::content::CLASSES {
        let deck = content.class_deck(class);
        for a in &deck.abilities {
            sources.push((a.id.clone(), class, a.ability.clone(), None));
        }
        for item in &deck.items {
            for a in &item.abilities {
                sources.push((item.id.clone(), class, a.clone(), Some(item.clone())));
            }
        }
    }
    for item in &content.treasures {
        for a in &item.abilities {
            sources.push((
                item.id.clone(),
                item.class_only.unwrap_or(HeroClass::Fighter),
                a.clone(),
                Some(item.clone()),
            ));
        }
    }
    for (id, class, ability, item) in sources {
        if ability.activation == depths_rules::Activation::Passive {
            continue; // always on: nothing to activate
        }
        checked += 1;
        if !usable_exploring(&content, class, &ability, item.clone()) && !usable_in_combat(class, &ability, item) {
            unusable.push(format!("{id}: {}", ability.name));
        }
    }
    assert!(checked > 30, "only {checked} abilities walked");
    assert!(unusable.is_empty(), "never usable: {unusable:?}");
}

/// An ally for the Hero of `class`.
fn ally(class: HeroClass) -> &'static str {
    if class == HeroClass::Rogue { "bren" } else { "ava" }
}

fn hero_for(class: HeroClass) -> &'static str {
    match class {
        HeroClass::Fighter => "bren",
        HeroClass::Wizard => "sil",
        HeroClass::Rogue => "ava",
    }
}

/// Gives Hero 0 the ability (as an Ability Card, or on an Equipped Item) and
/// plenty of Stored Power; returns where it sits.
fn grant(
    g: &mut Game,
    class: HeroClass,
    ability: &depths_rules::effect::Ability,
    item: Option<depths_rules::hero::ItemCard>,
) -> AbilitySource {
    let hero = &mut g.heroes[0];
    for i in 0..3u16 {
        hero.stored_power.push(depths_rules::action_card::ActionCard::power(300 + i));
    }
    match item {
        Some(card) => {
            let j = card.abilities.iter().position(|a| a == ability).unwrap() as u8;
            hero.items.push(OwnedItem { uses_left: card.uses, card, equipped: true });
            AbilitySource::Item(hero.items.len() as u8 - 1, j)
        }
        None => {
            let card = depths_rules::hero::AbilityCard { id: "probe".into(), class, ability: ability.clone() };
            hero.abilities.push(OwnedAbility { card, exhausted: false });
            AbilitySource::Card(hero.abilities.len() as u8 - 1)
        }
    }
}

/// While Exploring, next to a Door, a Chest (locked) and with a Hero hurt.
fn usable_exploring(
    content: &Content,
    class: HeroClass,
    ability: &depths_rules::effect::Ability,
    item: Option<depths_rules::hero::ItemCard>,
) -> bool {
    let mut o = GameOptions::standard(&[hero_for(class), ally(class)], 3);
    o.variants.locked_chests = true;
    let _ = content;
    let mut g = Game::new(o, fixture()).expect("setup");
    lay(&mut g, "ruins-door", (1, 0));
    g.heroes[0].health -= 3;
    let source = grant(&mut g, class, ability, item);
    g.legal_actions().iter().any(|a| matches!(a, Action::ActivateAbility { hero: 0, source: s, .. } if *s == source))
}

/// In a Combat Round against a Group, before and after choosing a Block.
fn usable_in_combat(
    class: HeroClass,
    ability: &depths_rules::effect::Ability,
    item: Option<depths_rules::hero::ItemCard>,
) -> bool {
    let mut g = game_of(&[hero_for(class), ally(class)]);
    let source = grant(&mut g, class, ability, item);
    let values: Vec<u8> = {
        let h = &g.heroes[0];
        let mut v: Vec<u8> =
            h.draw.iter().chain(&h.hand).chain(&h.discard).filter(|c| !c.power).map(|c| c.value).collect();
        v.sort_unstable();
        v
    };
    let (a, b) = (values[values.len() - 1], values[values.len() - 3]);
    stack_hero(&mut g, 0, &[a, b, values[0]], &[]);
    stack_hero(&mut g, 1, &[5, 4, 3], &[]);
    custom_monster_deck(&mut g, depths_rules::Difficulty::I, &[a, 2, 3, 3, 4, 4, 5, 5]);
    fight(&mut g, vec![withered_shade()]);
    let mut order = vec![a, b];
    order.sort_unstable_by(|x, y| y.cmp(x));
    play(&mut g, 0, &order);
    play(&mut g, 1, &[5, 4]);
    let activates = |g: &Game| {
        g.legal_actions()
            .iter()
            .any(|x| matches!(x, Action::ActivateAbility { hero: 0, source: s, .. } if *s == source))
    };
    if activates(&g) {
        return true;
    }
    let block = (0..2u8).find(|&s| {
        g.check(&Action::ChoosePair { hero: 0, engagement: 0, slot: s }).is_ok()
            && depths_tests::slots(&g, 0)[s as usize].0 == depths_tests::slots(&g, 0)[s as usize].1
    });
    let Some(slot) = block else { return false };
    act(&mut g, Action::ChoosePair { hero: 0, engagement: 0, slot });
    activates(&g)
}

#[allow(dead_code)]
fn is_door(g: &Game, e: depths_rules::map::ElementRef) -> bool {
    g.adventure().unwrap().ecology.map.element(e).map(|x| x.0) == Some(Element::Door)
}

/// A game of one or more Heroes; `single` plays the Alternate Heroes with their
/// Primary Class only.
fn alternate_game(heroes: &[&str], single: bool) -> Game {
    let mut o = GameOptions::standard(heroes, 21);
    o.single_classed = single;
    Game::new(o, fixture()).expect("setup")
}

/// A class Item of `class` that only that class may Equip, (Magic), one hand,
/// Adding no cards.
fn class_only_magic_item(g: &Game, class: HeroClass) -> depths_rules::hero::ItemCard {
    let deck = &g.adventure().unwrap().content.class_deck(class).items;
    let mut item = deck.iter().find(|i| i.add_cards.is_empty() && i.remove_cards == 0).unwrap().clone();
    item.class_only = Some(class);
    item.magic = true;
    item.hands = 1;
    item
}

/// "Playing Alternate Heroes as Single-Classed: The Alternate Heroes can also be
/// played as only having their Primary Class … without the additional
/// multi-class considerations": such a Hero cannot Equip an Item of her
/// Secondary class, gains no (Magic) attack from one, and draws no Item from
/// that class. Played multi-classed, the same Hero may.
#[test]
fn a_single_classed_alternate_hero_has_only_her_primary_class() {
    for (id, secondary) in
        [("bren_alt", HeroClass::Wizard), ("sil_alt", HeroClass::Rogue), ("ava_alt", HeroClass::Fighter)]
    {
        for single in [true, false] {
            let mut g = alternate_game(&[id], single);
            let item = class_only_magic_item(&g, secondary);
            g.adventure
                .as_deref_mut()
                .unwrap()
                .pending
                .push(Pending::ChooseHero(depths_rules::adventure::HeroChoice::GainItem(item)));
            act(&mut g, Action::ChooseHero { hero: 0 });
            let hero = &g.heroes[0];
            assert_eq!(hero.items[0].equipped, !single, "{id} single={single}: Equipped on gaining");
            assert_eq!(hero.has_magic(), !single, "{id} single={single}: (Magic) from a Secondary-class Item");
            if single {
                assert_eq!(g.check(&Action::Equip { hero: 0, item: 0 }), Err(RuleError::WrongClass));
                let before = g.clone();
                assert!(g.apply(Action::Equip { hero: 0, item: 0 }).is_err());
                assert_eq!(g, before, "a refused Equip changes nothing");
            }
            // A Chest: a single-classed Hero is offered her Primary class only.
            let primary = g.heroes[0].mat.class;
            lay(&mut g, "ruins-chest", (1, 0));
            act(&mut g, Action::Encounter { element: element_at((1, 0)) });
            act(&mut g, Action::ChooseHero { hero: 0 });
            match g.pending() {
                Some(Pending::ChooseItem { options, .. }) => {
                    assert!(!single, "{id}: a single-classed Hero draws one Item");
                    assert!(options.iter().any(|o| o.deck == Some(secondary)));
                }
                _ => {
                    assert!(single, "{id}: a multi-classed Hero draws from both classes");
                    assert_eq!(g.heroes[0].items[1].card.deck, Some(primary));
                }
            }
        }
    }
}

/// Puts the first Item of `class`'s deck that Adds Item Action Cards on top of
/// that deck and returns its id; with `empty_other`, empties the deck of `other`.
fn card_adding_item_on_top(g: &mut Game, class: HeroClass, other: Option<HeroClass>) -> String {
    let adv = g.adventure.as_deref_mut().unwrap();
    let deck = &mut adv.item_decks[depths_rules::adventure::class_index(class)];
    let i = deck.iter().position(|c| !c.add_cards.is_empty()).expect("an Item that Adds cards");
    let item = deck.remove(i);
    let id = item.id.clone();
    deck.push(item);
    if let Some(o) = other {
        adv.item_decks[depths_rules::adventure::class_index(o)].clear();
    }
    id
}

/// "Items from their Secondary class that require adding Item Action Cards to
/// their Action Card Deck cannot be selected, but the Hero may give an Ally with
/// that Primary Class the Item instead": also when it is the only Item drawn
/// (the Primary class's deck is empty), and with the Ally's offer made there too.
#[test]
fn a_lone_secondary_item_that_adds_cards_is_never_kept_but_may_go_to_an_ally() {
    for (id, primary, secondary, ally) in [
        ("bren_alt", HeroClass::Fighter, HeroClass::Wizard, "sil"),
        ("sil_alt", HeroClass::Wizard, HeroClass::Rogue, "ava"),
        ("ava_alt", HeroClass::Rogue, HeroClass::Fighter, "bren"),
    ] {
        for with_ally in [false, true] {
            let heroes: &[&str] = if with_ally { &[id, ally] } else { &[id] };
            let mut g = alternate_game(heroes, false);
            let item = card_adding_item_on_top(&mut g, secondary, Some(primary));
            lay(&mut g, "ruins-chest", (1, 0));
            act(&mut g, Action::Encounter { element: element_at((1, 0)) });
            act(&mut g, Action::ChooseHero { hero: 0 });
            assert!(g.heroes[0].items.is_empty(), "{id}: cannot keep {item}");
            if with_ally {
                let Some(Pending::ChooseItem { hero: 0, options }) = g.pending().cloned() else {
                    panic!("{id}: the Ally is offered {item}: {:?}", g.pending())
                };
                assert_eq!(options.iter().map(|o| o.id.as_str()).collect::<Vec<_>>(), [item.as_str()]);
                act(&mut g, Action::ChooseOption { index: 0 });
                assert_eq!(g.heroes[1].items[0].card.id, item, "{id}: given to the Ally");
            } else {
                assert!(g.pending().is_none(), "{id}: nothing to choose");
                let deck = &g.adventure().unwrap().item_decks[depths_rules::adventure::class_index(secondary)];
                assert_eq!(deck[0].id, item, "{id}: not selected, so back at the bottom of its deck");
            }
        }
    }
}

/// The same rule when a card names the Item: "cannot be selected" by the
/// multi-classed Hero, who "may give an Ally with that Primary Class the Item
/// instead" — the players may choose the Ally, not her.
#[test]
fn a_named_secondary_item_that_adds_cards_goes_to_an_ally_not_the_multi_classed_hero() {
    let mut g = alternate_game(&["bren_alt", "sil"], false);
    let content = g.adventure().unwrap().content.clone();
    let item = content.class_deck(HeroClass::Wizard).items.iter().find(|i| !i.add_cards.is_empty()).unwrap().clone();
    g.adventure
        .as_deref_mut()
        .unwrap()
        .pending
        .push(Pending::ChooseHero(depths_rules::adventure::HeroChoice::GainItem(item.clone())));
    let before = g.clone();
    assert_eq!(g.check(&Action::ChooseHero { hero: 0 }), Err(RuleError::WrongClass));
    assert!(g.apply(Action::ChooseHero { hero: 0 }).is_err());
    assert_eq!(g, before);
    assert!(!g.legal_actions().contains(&Action::ChooseHero { hero: 0 }));
    act(&mut g, Action::ChooseHero { hero: 1 });
    assert_eq!(g.heroes[1].items[0].card.id, item.id);
    // Played single-classed she has no Secondary class: the rule does not arise.
    let mut g = alternate_game(&["bren_alt", "sil"], true);
    g.adventure
        .as_deref_mut()
        .unwrap()
        .pending
        .push(Pending::ChooseHero(depths_rules::adventure::HeroChoice::GainItem(item)));
    assert_eq!(g.check(&Action::ChooseHero { hero: 0 }), Ok(()));
}

/// Ids of the cards in a Hero's Draw Pile, hand and Discard Pile, and those
/// played on the table.
fn cards_in_play(g: &Game, h: usize) -> Vec<depths_rules::CardId> {
    let hero = &g.heroes[h];
    let mut out: Vec<_> = hero.draw.iter().chain(&hero.hand).chain(&hero.discard).map(|c| c.id).collect();
    if let Some(c) = g.combat() {
        let played = c.engagements.iter().filter(|e| usize::from(e.hero) == h).flat_map(|e| e.slots.iter());
        out.extend(played.filter_map(|s| s.hero.map(|c| c.id)));
    }
    out
}

/// "Once a Feature has been Resolved, any Action Cards that were drawn or
/// played for it are Discarded": the cards drawn for a Feature's test stay out
/// until the Feature is Resolved, also through a Combat its failed test starts
/// (whose reshuffle of the Discard does not take them).
#[test]
fn feature_test_cards_stay_out_until_the_feature_is_resolved() {
    for heroes in [&["bren"][..], &["bren", "sil"]] {
        let mut g = new_game(heroes, Variants::default());
        let pit = depths_rules::feature::FeatureCard {
            id: "pit".into(),
            name: "Lurking Pit".into(),
            description: String::new(),
            xp: 1,
            effects: vec![depths_rules::effect::Effect::Test {
                target: [99, 99, 99],
                cards: 2,
                success: vec![],
                failure: vec![depths_rules::effect::Effect::FightMonster],
            }],
        };
        g.adventure.as_deref_mut().unwrap().ecology.features.push(pit.into());
        // Each Draw Pile holds just the two cards the test draws.
        let mut drawn = Vec::new();
        for h in 0..heroes.len() {
            let top: Vec<u8> = {
                let mut v: Vec<u8> = g.heroes[h].draw.iter().filter(|c| !c.power).map(|c| c.value).collect();
                v.sort_unstable();
                v[v.len() - 2..].to_vec()
            };
            stack_hero(&mut g, h, &[], &top);
            drawn.push(g.heroes[h].draw.iter().map(|c| c.id).collect::<Vec<_>>());
        }
        lay(&mut g, "ruins-feature", (1, 0));
        let events = act(&mut g, Action::Encounter { element: element_at((1, 0)) });
        assert!(g.in_combat(), "the failed test starts a Combat");
        let mut reshuffled = events.iter().any(|e| matches!(e, depths_rules::Event::DiscardReshuffled { .. }));
        while g.in_combat() {
            for (h, ids) in drawn.iter().enumerate() {
                let now = cards_in_play(&g, h);
                assert!(ids.iter().all(|id| !now.contains(id)), "Hero {h}: the test's cards are still out");
            }
            let a = steady_policy(&g);
            let events = act(&mut g, a);
            reshuffled |= events.iter().any(|e| matches!(e, depths_rules::Event::DiscardReshuffled { .. }));
        }
        assert!(reshuffled, "the Combat reshuffled a Discard");
        assert!(g.adventure().unwrap().encounter.is_none(), "the Feature is Resolved");
        for (h, ids) in drawn.iter().enumerate() {
            let discard: Vec<_> = g.heroes[h].discard.iter().map(|c| c.id).collect();
            assert!(ids.iter().all(|id| discard.contains(id)), "Hero {h}: Discarded once the Feature is Resolved");
        }
    }
}

/// Plays a game from `start` to the Passage after its Level Up, with a Power
/// Card Spent, cards in hand and in the Discard Pile.
fn to_passage(heroes: &[&str], start: Ecology) -> Game {
    let mut o = GameOptions::standard(heroes, 21);
    o.start = start;
    let mut g = Game::new(o, fixture()).expect("setup");
    while g.pending().is_some() {
        let a = steady_policy(&g);
        act(&mut g, a);
    }
    let stairs = format!("{}-stairs", start.name().to_lowercase().split(' ').next().unwrap());
    defeat_the_stair_guardian(&mut g, &stairs);
    act(&mut g, Action::FinishLevelUp);
    assert!(matches!(g.pending(), Some(Pending::Passage { .. })));
    for hero in &mut g.heroes {
        if let Some(p) = hero.stored_power.pop() {
            hero.discard.push(p);
        }
        while hero.hand.len() < 2 {
            let Some(c) = hero.draw.iter().position(|c| !c.power) else { break };
            let card = hero.take_from_draw(c);
            hero.hand.push(card);
        }
        if hero.discard.iter().all(|c| c.power)
            && let Some(c) = hero.draw.iter().position(|c| !c.power)
        {
            let card = hero.take_from_draw(c);
            hero.discard.push(card);
        }
    }
    g
}

/// "Passage to Next Ecology … Note: Each Ecology follows the same Setup", and
/// the Setup says: "retrieve the … Power Cards … You begin the game with them
/// Stored" and "Shuffle the rest of your Action Cards … to form a Draw Pile".
/// A continuing game and one resumed from the Record Sheets start the new
/// Ecology with the same decks: every Power Card in the deck Stored, every
/// other card (hand and Discard too) in the Draw Pile.
#[test]
fn a_new_ecology_starts_every_heros_deck_by_the_setup() {
    for (heroes, start) in [(&["bren", "sil"][..], Ecology::Ruins), (&["sil", "ava"][..], Ecology::Caverns)] {
        let mut g = to_passage(heroes, start);
        let all: Vec<Vec<u16>> = g
            .heroes
            .iter()
            .map(|h| ids(h.draw.iter().chain(&h.hand).chain(&h.discard).chain(&h.stored_power).copied()))
            .collect();
        let record = g.party_record().unwrap();
        act(&mut g, Action::Descend);
        let resumed = Game::from_record(&record, fixture(), 5).unwrap();
        for game in [&g, &resumed] {
            for (h, hero) in game.heroes.iter().enumerate() {
                assert!(
                    hero.hand.is_empty() && hero.discard.is_empty(),
                    "{}: hand and Discard shuffled in",
                    hero.name()
                );
                assert!(hero.draw.iter().all(|c| !c.power), "{}: every Power Card retrieved", hero.name());
                assert!(hero.stored_power.iter().all(|c| c.power));
                let now = ids(hero.draw.iter().chain(&hero.stored_power).copied());
                assert_eq!(now, all[h], "{}: the same cards", hero.name());
            }
        }
        for (a, b) in g.heroes.iter().zip(&resumed.heroes) {
            assert_eq!(ids(a.stored_power.iter().copied()), ids(b.stored_power.iter().copied()), "{}", a.name());
            assert_eq!(ids(a.draw.iter().copied()), ids(b.draw.iter().copied()), "{}", a.name());
        }
    }
}

/// "3 Keys Added at Each New Ecology: Each time the Heroes start a new
/// Ecology, they get 3 Keys added to their supply for free", and "Save your
/// Game … Just after Level Up, record the details of each Hero and the group
/// … When you want to pick up where you left off, simply use the sheets to
/// recreate your Heroes." Heroes recreated from their sheets start the next
/// Ecology with the Keys of a party that went straight on: 3 more than sheets
/// filled in just after Level Up hold, and none more than sheets filled in
/// after the descent hold (those 3 Keys are on them already).
#[test]
fn keys_added_at_each_new_ecology_reach_heroes_recreated_from_their_sheets() {
    use depths_rules::record::PartyRecord;
    let keys = |g: &Game| g.adventure().unwrap().keys;
    let resume = |record: &PartyRecord| {
        // Through the sheets' text, as a record is kept between sessions.
        let back: PartyRecord = serde_json::from_str(&serde_json::to_string(record).unwrap()).unwrap();
        assert_eq!(&back, record);
        Game::from_record(&back, fixture(), 5).unwrap()
    };
    for keys_each_ecology in [true, false] {
        let mut g = new_game(&["bren"], Variants { keys_each_ecology, ..Variants::default() });
        // A record made during the first Ecology resumes it: no new Ecology, no Keys added.
        let first = g.party_record().unwrap();
        assert_eq!((first.next_ecology, keys(&resume(&first))), (Ecology::Ruins, 3));
        defeat_the_stair_guardian(&mut g, "ruins-stairs");
        act(&mut g, Action::FinishLevelUp);
        assert!(matches!(g.pending(), Some(Pending::Passage { next: Ecology::Caverns })));
        let held = keys(&g);
        let after_level_up = g.party_record().unwrap();
        assert_eq!(after_level_up.keys, held, "the sheets hold the Keys the party holds");
        act(&mut g, Action::Descend);
        let want = if keys_each_ecology { held + 3 } else { held };
        assert_eq!(keys(&g), want, "a party that goes straight on");
        let after_descent = g.party_record().unwrap();
        for (when, record) in [("just after Level Up", &after_level_up), ("after the descent", &after_descent)] {
            let resumed = resume(record);
            assert_eq!(resumed.adventure().unwrap().ecology.ecology, Ecology::Caverns, "{when}");
            assert_eq!(keys(&resumed), want, "sheets filled in {when}, variant {keys_each_ecology}");
        }
    }
}
