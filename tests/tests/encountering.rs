//! One test per Ecology Element, spending rule and Item rule, on the fixture content.

use depths_rules::adventure::{Pending, Purchase, XpRef};
use depths_rules::map::ElementState;
use depths_rules::{Ability, Action, Activation, Effect, Event, Game, GameOptions, RuleError, Target, Variants};
use depths_tests::fixture::fixture;
use depths_tests::*;

fn new_game(heroes: &[&str], variants: Variants) -> Game {
    let mut o = GameOptions::standard(heroes, 21);
    o.variants = variants;
    Game::new(o, fixture()).expect("setup")
}

fn keys(g: &Game) -> u8 {
    g.adventure().unwrap().keys
}

/// "Game Setup": 3 Keys, Level 1 maximum health, Power Cards Stored, the
/// Stairs fourth from the bottom, the set-aside Monster kept out.
#[test]
fn setup_follows_the_book() {
    let g = new_game(&["bren", "sil"], Variants::default());
    assert_eq!(keys(&g), 3);
    for h in &g.heroes {
        assert_eq!(h.health, h.mat.max_health[0]);
        assert_eq!(h.stored_power.len(), 2, "Sil's third Power Card waits for level 3");
        assert_eq!(h.draw.len(), 12);
    }
    let adv = g.adventure().unwrap();
    let pile = adv.ecology.pile.tiles();
    assert_eq!(pile[3].id, "ruins-stairs");
    assert_eq!(adv.ecology.map.tiles().len(), 1, "the Entry tile with the Lantern");
    assert!(adv.ecology.legendary[0].entry.len() == 1 && adv.ecology.legendary[0].lettered[0].1.len() == 2);
    let top = adv.ecology.legendary[0].lettered[0].1.last().unwrap();
    assert_eq!(top.back, "1A I", "lowest roman numeral on top");
    assert_eq!(new_game(&["bren"], Variants { six_keys: true, ..Variants::default() }).adventure().unwrap().keys, 6);
}

/// "3. Doors": a Key Unlocks a Door; without one the Door stays shut.
#[test]
fn doors_need_a_key_and_spend_it() {
    let mut g = new_game(&["bren"], Variants::default());
    lay(&mut g, "ruins-door", (1, 0));
    let door = element_at((1, 0));
    g.adventure.as_deref_mut().unwrap().keys = 0;
    assert_eq!(g.check(&Action::Encounter { element: door }), Err(RuleError::NeedsKey));
    g.adventure.as_deref_mut().unwrap().keys = 2;
    act(&mut g, Action::Encounter { element: door });
    assert_eq!(keys(&g), 1);
    assert_eq!(g.adventure().unwrap().ecology.map.element(door).unwrap().1, ElementState::Unlocked);
}

/// "Certain Hero Items, Abilities, and Spells can also be used to Unlock Doors."
#[test]
fn an_ability_unlocks_a_door_while_exploring() {
    let mut g = new_game(&["bren"], Variants::default());
    let card = g.adventure().unwrap().content.class_deck(depths_rules::HeroClass::Fighter).abilities[2].clone();
    g.heroes[0].abilities.push(depths_rules::hero::OwnedAbility { card, exhausted: false });
    lay(&mut g, "ruins-door", (1, 0));
    let door = element_at((1, 0));
    let source = depths_rules::AbilitySource::Card(0);
    act(&mut g, Action::ActivateAbility { hero: 0, source, target: Target::Element(door) });
    assert_eq!(keys(&g), 3, "no Key spent");
    assert_eq!(g.adventure().unwrap().ecology.map.element(door).unwrap().1, ElementState::Unlocked);
}

/// "4. Chests": the players choose 1 Hero to draw 1 Item.
#[test]
fn a_chest_gives_one_item_to_the_chosen_hero() {
    let mut g = new_game(&["bren", "sil"], Variants::default());
    lay(&mut g, "ruins-chest", (1, 0));
    act(&mut g, Action::Encounter { element: element_at((1, 0)) });
    assert!(matches!(g.pending(), Some(Pending::ChooseHero(_))));
    assert!(matches!(g.check(&Action::DrawTile), Err(RuleError::NotWhileEncountering)));
    let events = act(&mut g, Action::ChooseHero { hero: 1 });
    assert!(events.iter().any(|e| matches!(e, Event::ItemGained { hero: 1, .. })));
    assert_eq!(g.heroes[1].items.len(), 1);
    assert!(g.heroes[0].items.is_empty());
}

/// "The double-sided Encounter Tokens are used to mark Ecology Elements that
/// have been Encountered": an Element so marked is refused for what it is,
/// not as out of reach (a greyed Encounter of an Encountered Chest said "the
/// Heroes cannot reach that").
#[test]
fn an_encountered_element_is_refused_as_encountered() {
    let mut g = new_game(&["bren", "sil"], Variants::default());
    lay(&mut g, "ruins-chest", (1, 0));
    let chest = element_at((1, 0));
    act(&mut g, Action::Encounter { element: chest });
    act(&mut g, Action::ChooseHero { hero: 1 });
    assert_eq!(g.check(&Action::Encounter { element: chest }), Err(RuleError::AlreadyEncountered));
    let door_game = &mut new_game(&["bren"], Variants::default());
    lay(door_game, "ruins-door", (1, 0));
    let door = element_at((1, 0));
    act(door_game, Action::Encounter { element: door });
    assert_eq!(door_game.check(&Action::Encounter { element: door }), Err(RuleError::AlreadyEncountered));
}

/// "Locked Chests: Just like Doors, all Chests must be Unlocked to open."
#[test]
fn locked_chests_variant_costs_a_key() {
    let mut g = new_game(&["bren"], Variants { locked_chests: true, ..Variants::default() });
    lay(&mut g, "ruins-chest", (1, 0));
    act(&mut g, Action::Encounter { element: element_at((1, 0)) });
    assert_eq!(keys(&g), 2);
}

/// "Spending Experience Points": exact cost or more, "No change is given", cards return to the box.
#[test]
fn buying_a_key_gives_no_change() {
    let mut g = new_game(&["bren"], Variants::default());
    give_xp(&mut g, &[3, 1]);
    act(&mut g, Action::StartPurchase { what: Purchase::Key });
    act(&mut g, Action::PayXp { card: XpRef::Pool(0) });
    assert_eq!(keys(&g), 4);
    let pool: Vec<u8> = g.adventure().unwrap().xp_pool.iter().map(|c| c.xp).collect();
    assert_eq!(pool, vec![1], "the 3 was spent whole for a cost of 2");
}

/// "Spending Experience Points … No change is given": the one-click payment
/// the table offers is the pool's cards that overpay least, the fewest such
/// (checked against every subset of the pool), and paying them in its order
/// completes the purchase with exactly those cards gone.
#[test]
fn the_offered_payment_overpays_least_with_the_fewest_cards() {
    let pools: [&[u8]; 6] = [&[3, 1, 1, 2], &[1, 1, 1, 1, 1], &[4, 3, 3], &[5], &[2, 2, 1, 3, 1, 4], &[1, 3]];
    for pool in pools {
        let mut g = new_game(&["bren", "sil"], Variants::default());
        g.adventure.as_deref_mut().unwrap().xp_pool.clear();
        give_xp(&mut g, pool);
        act(&mut g, Action::StartPurchase { what: Purchase::Key });
        let Some(Pending::Purchase { cost, .. }) = g.pending().cloned() else { panic!("a purchase is under way") };
        let cost = u32::from(cost);
        let payment = g.xp_payment().expect("the pool covers a Key");
        let chosen: Vec<usize> = payment
            .iter()
            .map(|r| match r {
                XpRef::Pool(i) => usize::from(*i),
                XpRef::Item { .. } => panic!("an Item is never spent unasked"),
            })
            .collect();
        let sum = |set: &[usize]| set.iter().map(|&i| u32::from(pool[i])).sum::<u32>();
        // Every subset of the pool that pays: none overpays less, or as little with fewer cards.
        let best = (1u32..1 << pool.len())
            .map(|mask| (0..pool.len()).filter(|i| mask & (1 << i) != 0).collect::<Vec<_>>())
            .filter(|set| sum(set) >= cost)
            .map(|set| (sum(&set), set.len()))
            .min()
            .unwrap();
        assert_eq!((sum(&chosen), chosen.len()), best, "pool {pool:?}, cost {cost}: {chosen:?}");
        let keys_before = keys(&g);
        for r in payment {
            act(&mut g, Action::PayXp { card: r });
        }
        assert_eq!(keys(&g), keys_before + 1, "pool {pool:?}: the Key is bought");
        assert!(g.pending().is_none());
        let mut left: Vec<u8> = g.adventure().unwrap().xp_pool.iter().map(|c| c.xp).collect();
        let mut want: Vec<u8> = (0..pool.len()).filter(|i| !chosen.contains(i)).map(|i| pool[i]).collect();
        left.sort_unstable();
        want.sort_unstable();
        assert_eq!(left, want, "pool {pool:?}: exactly the chosen cards were spent");
    }
    // Nothing to pay for, nothing offered.
    let mut g = new_game(&["bren"], Variants::default());
    give_xp(&mut g, &[1, 2]);
    assert!(g.xp_payment().is_none(), "no purchase under way");
}

/// "Keys can be bought while Heroes are Exploring, but … not … between drawing and placing a new Map Tile."
#[test]
fn no_keys_between_drawing_and_placing() {
    let mut g = new_game(&["bren"], Variants::default());
    give_xp(&mut g, &[5]);
    act(&mut g, Action::DrawTile);
    assert_eq!(g.check(&Action::StartPurchase { what: Purchase::Key }), Err(RuleError::TileWaiting));
}

/// "Healing Cost": per XP, health × number of Heroes, shared as the players decide.
#[test]
fn healing_is_bought_per_hero_and_shared() {
    for (double, points) in [(false, 4u8), (true, 8)] {
        let mut g = new_game(&["bren", "sil"], Variants { double_healing: double, ..Variants::default() });
        give_xp(&mut g, &[1, 1]);
        g.heroes[0].health -= 5;
        g.heroes[1].health -= 5;
        act(&mut g, Action::StartPurchase { what: Purchase::Healing { units: 2 } });
        act(&mut g, Action::PayXp { card: XpRef::Pool(0) });
        act(&mut g, Action::PayXp { card: XpRef::Pool(0) });
        assert_eq!(g.pending(), Some(&Pending::SplitHealing { points }));
        let (a, b) = (points.min(5), points - points.min(5));
        assert_eq!(g.check(&Action::SplitHealing { amounts: vec![points, 0] }).is_ok(), points <= 5);
        act(&mut g, Action::SplitHealing { amounts: vec![a, b] });
        assert_eq!(g.heroes[0].health, g.heroes[0].max_health() - 5 + a);
    }
}

/// "Abilities can only be bought during Level Up."
#[test]
fn abilities_only_at_level_up() {
    let mut g = new_game(&["bren"], Variants::default());
    give_xp(&mut g, &[9]);
    assert!(matches!(
        g.check(&Action::StartPurchase { what: Purchase::Ability { hero: 0 } }),
        Err(RuleError::WrongStep { .. })
    ));
}

/// "Heroes are limited to Equipping no more than 2 hand icons"; "Equipped and
/// Unequipped Items may be spent"; "Item Action Cards … stay in your Action Deck".
#[test]
fn items_hands_spending_and_item_action_cards() {
    let mut g = new_game(&["bren"], Variants::default());
    let deck = g.adventure().unwrap().content.class_deck(depths_rules::HeroClass::Fighter).clone();
    let blade = deck.items.iter().find(|i| i.id == "fighter_blade").unwrap().clone();
    let pike = deck.items.iter().find(|i| i.id == "fighter_pike").unwrap().clone();
    g.adventure
        .as_deref_mut()
        .unwrap()
        .pending
        .push(Pending::ChooseHero(depths_rules::adventure::HeroChoice::GainItem(blade)));
    act(&mut g, Action::ChooseHero { hero: 0 });
    // Four steps: draw and discard combined, two 9s Added, then 2 cards Removed.
    assert_eq!(g.pending(), Some(&Pending::RemoveCards { hero: 0, count: 2 }));
    assert_eq!(g.heroes[0].draw.iter().filter(|c| c.item).count(), 2);
    let low: Vec<_> = g.heroes[0].draw.iter().filter(|c| c.value == 3).map(|c| c.id).collect();
    act(&mut g, Action::RemoveActionCard { card: low[0] });
    act(&mut g, Action::RemoveActionCard { card: low[1] });
    assert_eq!(g.heroes[0].draw.len(), 12, "12 + 2 added − 2 removed");
    assert!(g.heroes[0].items[0].equipped);
    g.adventure
        .as_deref_mut()
        .unwrap()
        .pending
        .push(Pending::ChooseHero(depths_rules::adventure::HeroChoice::GainItem(pike)));
    act(&mut g, Action::ChooseHero { hero: 0 });
    assert!(!g.heroes[0].items[1].equipped, "a 2-hand pike does not fit beside a 1-hand blade");
    assert_eq!(g.check(&Action::Equip { hero: 0, item: 1 }), Err(RuleError::TooManyHands));
    act(&mut g, Action::Unequip { hero: 0, item: 0 });
    act(&mut g, Action::Equip { hero: 0, item: 1 });
    act(&mut g, Action::StartPurchase { what: Purchase::Key });
    act(&mut g, Action::PayXp { card: XpRef::Item { hero: 0, item: 0 } });
    assert_eq!(keys(&g), 4, "the blade's 2 XP bought a Key");
    assert_eq!(g.heroes[0].draw.iter().filter(|c| c.item).count(), 2, "its Item Action Cards stay");
}

/// "6. Campfires": heal half, reshuffle, Stored Power stays, Spells Refreshed, Monsters return.
#[test]
fn resting_at_the_campfire() {
    let mut g = new_game(&["sil"], Variants::default());
    lay(&mut g, "ruins-monster", (1, 0));
    play_out_until(
        &mut g,
        |g| matches!(g.phase(), depths_rules::Phase::Exploring { decision: None, .. }),
        Action::Encounter { element: element_at((1, 0)) },
    );
    assert_eq!(g.adventure().unwrap().ecology.map.element(element_at((1, 0))).unwrap().1, ElementState::Defeated);
    lay(&mut g, "ruins-camp", (-1, 0));
    g.heroes[0].health = 2;
    let stored = g.heroes[0].stored_power.len();
    let cards = g.heroes[0].draw.len() + g.heroes[0].discard.len();
    act(&mut g, Action::Encounter { element: element_at((-1, 0)) });
    let h = &g.heroes[0];
    assert_eq!(h.health, 2 + h.max_health() / 2);
    assert!(h.discard.is_empty() && h.draw.len() == cards, "Discard and Draw shuffled together");
    assert_eq!(h.stored_power.len(), stored);
    assert_eq!(g.adventure().unwrap().ecology.map.element(element_at((1, 0))).unwrap().1, ElementState::Present);
}

/// Applies `first`, then the steady policy until `done`.
fn play_out_until(g: &mut Game, done: impl Fn(&Game) -> bool, first: Action) {
    act(g, first);
    let mut n = 0;
    while !done(g) && n < 500 {
        let a = steady_policy(g);
        act(g, a);
        n += 1;
    }
    assert!(done(g));
}

/// "2. Features": a test, then XP "regardless of whether they Succeed or Fail".
#[test]
fn feature_tests_and_xp_whatever_the_result() {
    let mut g = new_game(&["bren"], Variants::default());
    let adv = g.adventure.as_deref_mut().unwrap();
    let i = adv.ecology.features.iter().position(|f| f.name == "Old Well").unwrap();
    let well = adv.ecology.features.remove(i);
    adv.ecology.features.push(well);
    lay(&mut g, "ruins-feature", (0, 1));
    let discard = g.heroes[0].discard.len();
    let events = act(&mut g, Action::Encounter { element: element_at((0, 1)) });
    let test = events.iter().find_map(|e| {
        if let Event::TestResolved { total, target, passed, drawn } = e {
            Some((*total, *target, *passed, drawn.clone()))
        } else {
            None
        }
    });
    let (total, target, passed, drawn) = test.expect("a test was made");
    assert_eq!(target, 5);
    assert_eq!(passed, total >= 5);
    assert_eq!(g.heroes[0].discard.len(), discard + 2, "the 2 cards drawn are Discarded");
    // The cards drawn are told, so the table can lay them out: the very
    // cards now on top of the Discard pile, adding up to the total.
    let on_top: Vec<u8> = g.heroes[0].discard[discard..].iter().map(|c| c.value).collect();
    assert_eq!(drawn, vec![on_top]);
    assert_eq!(drawn.iter().flatten().map(|&v| u16::from(v)).sum::<u16>(), total);
    assert!(events.contains(&Event::XpGained { name: "Old Well".into(), xp: 1 }));
}

/// "5. Legendary Locations": Discovered by the Rune Pattern, then the
/// number-only card, its letter's pile in order, tokens on the Nodes, once per Ecology.
#[test]
fn legendary_location_chain_and_once_per_ecology() {
    let mut g = new_game(&["bren", "sil"], Variants::default());
    lay(&mut g, "ruins-rune-a", (1, 0));
    assert!(g.discovered_legendary_locations().is_empty());
    lay(&mut g, "ruins-rune-b", (2, 0));
    assert!(!g.discovered_legendary_locations().is_empty());
    let mut names = Vec::new();
    for e in act(&mut g, Action::EncounterLegendary { index: 0 }) {
        if let Event::CardDrawn { name } = e {
            names.push(name);
        }
    }
    assert_eq!(names, ["Sunken Section of Floor", "Hollow Below"]);
    assert!(matches!(g.pending(), Some(Pending::ChooseHero(_))), "the Charm goes to a Hero");
    let events = act(&mut g, Action::ChooseHero { hero: 1 });
    assert!(events.iter().any(|e| matches!(e, Event::CardDrawn { name } if name == "Way Down")));
    assert_eq!(g.heroes[1].items[0].card.name, "Charm");
    let xp: u8 = g.adventure().unwrap().xp_pool.iter().map(|c| c.xp).sum();
    assert_eq!(xp, 4);
    assert!(g.discovered_legendary_locations().is_empty(), "each Rune Pattern only once per Ecology");
}

/// "Brass Scrying Bowl": reveal the next Features and assign them in any order.
#[test]
fn scrying_bowl_orders_the_next_features() {
    let mut g = new_game(&["bren"], Variants::default());
    let adv = g.adventure.as_deref_mut().unwrap();
    let i = adv.ecology.features.iter().position(|f| f.name == "Brass Scrying Bowl").unwrap();
    let bowl = adv.ecology.features.remove(i);
    adv.ecology.features.push(bowl);
    let next_two: Vec<String> = adv.ecology.features[adv.ecology.features.len() - 3..adv.ecology.features.len() - 1]
        .iter()
        .rev()
        .map(|f| f.name.clone())
        .collect();
    lay(&mut g, "ruins-feature", (0, 1));
    act(&mut g, Action::Encounter { element: element_at((0, 1)) });
    assert!(matches!(g.pending(), Some(Pending::OrderFeatures { cards }) if cards.len() == 2));
    act(&mut g, Action::ChooseOption { index: 1 });
    let revealed: Vec<String> =
        g.adventure().unwrap().ecology.revealed_features.iter().rev().map(|f| f.name.clone()).collect();
    assert_eq!(revealed, vec![next_two[1].clone(), next_two[0].clone()], "the second order: swapped");
}

/// "Starting at a Lower Ecology": level, Abilities, Items and Keys.
#[test]
fn starting_at_the_caverns_and_below() {
    for (start, level, abilities) in
        [(depths_rules::Ecology::Caverns, 2u8, 1usize), (depths_rules::Ecology::Subterranean, 3, 2)]
    {
        let mut o = GameOptions::standard(&["bren", "sil"], 4);
        o.start = start;
        let mut g = Game::new(o, fixture()).unwrap();
        assert!(matches!(g.pending(), Some(Pending::ChooseAbility { .. }) | Some(Pending::RemoveCards { .. })));
        while g.pending().is_some() {
            let first = g.legal_actions()[0].clone();
            act(&mut g, first);
        }
        for h in &g.heroes {
            assert_eq!(h.level, level);
            assert_eq!(h.health, h.mat.max_health[usize::from(level) - 1]);
            assert_eq!(h.abilities.len(), abilities);
            assert_eq!(h.items.len(), abilities, "1 Item at the Caverns, 2 at Subterranean");
        }
        assert_eq!(keys(&g), 3);
        assert_eq!(g.adventure().unwrap().ecology.ecology, start);
        assert_eq!(g.heroes[1].stored_power.len(), if level == 3 { 3 } else { 2 }, "Sil's third Power Card at level 3");
    }
}

/// "If starting at Subterranean Architecture … All Heroes Gain 2 Abilities.
/// Use the process described in Leveling Up for selecting them": "they draw
/// two of their Ability Cards, select one to keep, and place the other at the
/// bottom of their Ability pile". Each Ability is selected in turn: the next
/// two are drawn only once the choice before is made, so the card just put
/// back comes again when the pile is short (the fixture's holds three
/// Abilities per class). Then the Items, as before.
#[test]
fn a_lower_start_draws_each_pair_after_the_choice_before() {
    let mut o = GameOptions::standard(&["bren", "sil"], 4);
    o.start = depths_rules::Ecology::Subterranean;
    let mut g = Game::new(o, fixture()).unwrap();
    for hero in 0..2u8 {
        let class = depths_rules::adventure::class_index(g.heroes[usize::from(hero)].mat.class);
        let pile = |g: &Game| g.adventure().unwrap().ability_decks[class].len();
        let Some(Pending::ChooseAbility { hero: h, options }) = g.pending().cloned() else {
            panic!("the first pair: {:?}", g.pending())
        };
        assert_eq!((h, options.len(), pile(&g)), (hero, 2, 1), "two drawn, one left: the next two wait");
        act(&mut g, Action::ChooseOption { index: 0 });
        let Some(Pending::ChooseAbility { hero: h, options: next }) = g.pending().cloned() else {
            panic!("the second pair: {:?}", g.pending())
        };
        assert_eq!((h, next.len(), pile(&g)), (hero, 2, 0), "the last card and the one put back");
        assert!(next.iter().any(|o| o.id == options[1].id), "the card put back comes again: {next:?}");
        act(&mut g, Action::ChooseOption { index: 0 });
        assert_eq!(g.heroes[usize::from(hero)].abilities.len(), 2);
    }
    assert!(matches!(g.phase(), depths_rules::Phase::Setup { .. }), "the Items' choices follow: {:?}", g.phase());
    while g.pending().is_some() {
        assert!(!matches!(g.pending(), Some(Pending::ChooseAbility { .. })), "no third Ability");
        let first = g.legal_actions()[0].clone();
        act(&mut g, first);
    }
    assert!(g.heroes.iter().all(|h| h.abilities.len() == 2 && h.items.len() == 2));
}

/// A save made while a lower start's Abilities were all drawn at once (as
/// this game once drew them) still loads and finishes its Setup as drawn.
#[test]
fn a_lower_start_saved_with_both_pairs_drawn_still_loads() {
    let mut o = GameOptions::standard(&["bren"], 4);
    o.start = depths_rules::Ecology::Subterranean;
    let mut g = Game::new(o, fixture()).unwrap();
    let cards = g.adventure().unwrap().content.class_deck(depths_rules::HeroClass::Fighter).abilities.clone();
    let (first, second) = (cards[..2].to_vec(), cards[2..].to_vec());
    let adv = g.adventure.as_deref_mut().unwrap();
    adv.pending.retain(|p| !matches!(p, Pending::ChooseAbility { .. }));
    adv.pending.insert(0, Pending::ChooseAbility { hero: 0, options: first });
    adv.pending.insert(1, Pending::ChooseAbility { hero: 0, options: second.clone() });
    let mut text = g.save_json();
    let mut old: serde_json::Value = serde_json::from_str(&text).unwrap();
    old["adventure"].as_object_mut().unwrap().retain(|k, _| k != "abilities_to_gain");
    text = old.to_string();
    let mut g = Game::load_json(&text).expect("an older save loads");
    act(&mut g, Action::ChooseOption { index: 0 });
    assert_eq!(g.pending(), Some(&Pending::ChooseAbility { hero: 0, options: second }), "as it was drawn");
    act(&mut g, Action::ChooseOption { index: 0 });
    assert!(!matches!(g.pending(), Some(Pending::ChooseAbility { .. })), "nothing drawn again");
    assert_eq!(g.heroes[0].abilities.len(), 2);
}

/// "7. Stair Guardian" → "Level Up" → "Passage to Next Ecology".
#[test]
fn stair_guardian_level_up_and_passage() {
    for keys_each in [false, true] {
        let mut g = new_game(&["bren"], Variants { keys_each_ecology: keys_each, ..Variants::default() });
        give_xp(&mut g, &[3]);
        lay(&mut g, "ruins-stairs", (1, 0));
        g.heroes[0].health = 5;
        play_out_until(
            &mut g,
            |g| matches!(g.pending(), Some(Pending::LevelUp { .. })),
            Action::Encounter { element: element_at((1, 0)) },
        );
        assert_eq!(g.heroes[0].level, 2);
        assert_eq!(g.heroes[0].health, g.heroes[0].mat.max_health[1], "Heal completely");
        act(&mut g, Action::StartPurchase { what: Purchase::Ability { hero: 0 } });
        act(&mut g, Action::PayXp { card: XpRef::Pool(0) });
        assert!(matches!(g.pending(), Some(Pending::ChooseAbility { options, .. }) if options.len() == 2), "draw two");
        act(&mut g, Action::ChooseOption { index: 1 });
        assert_eq!(g.heroes[0].abilities.len(), 1);
        assert_eq!(
            g.check(&Action::StartPurchase { what: Purchase::Ability { hero: 0 } }),
            Err(RuleError::AlreadyBought)
        );
        act(&mut g, Action::FinishLevelUp);
        // "After Level Up, the current Ecology is complete": the moment to
        // record the Heroes, before the Passage.
        assert!(matches!(g.pending(), Some(Pending::Passage { next: depths_rules::Ecology::Caverns })));
        assert_eq!(g.legal_actions(), vec![Action::Descend]);
        act(&mut g, Action::Descend);
        let adv = g.adventure().unwrap();
        assert_eq!(adv.ecology.ecology, depths_rules::Ecology::Caverns);
        assert_eq!(adv.ecology.map.tiles().len(), 1, "a fresh Ecology");
        assert_eq!(adv.keys, if keys_each { 6 } else { 3 });
    }
}

/// "Heroes Don't Heal When Leveling Up".
#[test]
fn no_heal_at_level_up_variant() {
    let mut g = new_game(&["bren"], Variants { no_level_up_heal: true, ..Variants::default() });
    lay(&mut g, "ruins-stairs", (1, 0));
    g.heroes[0].health = 9;
    play_out_until(
        &mut g,
        |g| matches!(g.pending(), Some(Pending::LevelUp { .. })),
        Action::Encounter { element: element_at((1, 0)) },
    );
    assert!(g.heroes[0].health <= 9);
}

/// "Start with an Ability: When starting at the Ruins, each Hero draws an Ability."
#[test]
fn start_with_an_ability_variant() {
    let g = new_game(&["bren", "ava"], Variants { start_with_ability: true, ..Variants::default() });
    assert!(g.heroes.iter().all(|h| h.abilities.len() == 1));
    assert!(new_game(&["bren"], Variants::default()).heroes[0].abilities.is_empty());
}

/// "Random Campfire Healing: each Hero Draws 2 Cards and Heals equal to the highest-value Card."
#[test]
fn random_campfire_healing_variant() {
    let mut g = new_game(&["bren"], Variants { random_campfire_healing: true, ..Variants::default() });
    lay(&mut g, "ruins-camp", (1, 0));
    g.heroes[0].health = 1;
    let events = act(&mut g, Action::Encounter { element: element_at((1, 0)) });
    let healed = events
        .iter()
        .find_map(|e| if let Event::HeroHealed { amount, .. } = e { Some(*amount) } else { None })
        .unwrap();
    assert!((3..=8).contains(&healed), "a Fighter card value, not half of 22: {healed}");
}

/// "Alternate Heroes — Items": a multi-classed Hero draws from both classes and
/// keeps one; a Secondary-class Item that Adds cards cannot be kept, but may go
/// to an Ally of that Primary Class.
#[test]
fn multi_classed_items_choice_and_gift_to_an_ally() {
    for with_wizard in [false, true] {
        let heroes: &[&str] = if with_wizard { &["bren_alt", "sil"] } else { &["bren_alt"] };
        let mut g = new_game(heroes, Variants::default());
        // Put the Wizard's card-adding blade on top of the Wizard Item deck.
        let adv = g.adventure.as_deref_mut().unwrap();
        let wiz = &mut adv.item_decks[1];
        let i = wiz.iter().position(|c| c.id == "wizard_blade").unwrap();
        let blade = wiz.remove(i);
        wiz.push(blade);
        lay(&mut g, "ruins-chest", (1, 0));
        act(&mut g, Action::Encounter { element: element_at((1, 0)) });
        act(&mut g, Action::ChooseHero { hero: 0 });
        let Some(Pending::ChooseItem { options, .. }) = g.pending().cloned() else { panic!("a choice of two") };
        assert_eq!(options.len(), 2);
        let wizard_index = options.iter().position(|o| o.id == "wizard_blade").unwrap() as u8;
        let choose_wizard = Action::ChooseOption { index: wizard_index };
        if with_wizard {
            act(&mut g, choose_wizard);
            while let Some(Pending::RemoveCards { .. }) = g.pending() {
                let first = g.legal_actions()[0].clone();
                act(&mut g, first);
            }
            assert_eq!(g.heroes[1].items[0].card.id, "wizard_blade", "given to Sil");
            assert!(g.heroes[0].items.is_empty());
        } else {
            assert_eq!(g.check(&choose_wizard), Err(RuleError::WrongClass));
        }
    }
}

fn boxed_in(variants: Variants) -> Game {
    let mut g = new_game(&["bren"], variants);
    lay(&mut g, "ruins-monster", (1, 0));
    lay(&mut g, "ruins-twins", (-1, 0));
    lay(&mut g, "ruins-feature", (0, 1));
    lay(&mut g, "ruins-door", (0, -1));
    g
}

/// "WARNING! LOSING BY TILE PLACEMENT": a drawn tile with no legal place loses the game.
#[test]
fn drawing_an_unplaceable_tile_loses() {
    let mut g = boxed_in(Variants::default());
    let events = act(&mut g, Action::DrawTile);
    assert_eq!(g.phase(), depths_rules::Phase::Lost(depths_rules::LossReason::DeadEnd));
    assert!(events.contains(&Event::GameLost { reason: depths_rules::LossReason::DeadEnd }));
}

/// "One Dead-End Per Ecology": set it aside, draw again or Encounter; the tile
/// stays placeable later; only once per Ecology.
#[test]
fn one_dead_end_per_ecology_variant() {
    let mut g = boxed_in(Variants { one_dead_end: true, ..Variants::default() });
    let events = act(&mut g, Action::DrawTile);
    assert!(events.iter().any(|e| matches!(e, Event::TileSetAside { .. })));
    assert!(matches!(g.phase(), depths_rules::Phase::Exploring { tile_in_hand: false, decision: None }));
    assert!(!g.legal_actions().iter().any(|a| matches!(a, Action::PlaceSetAsideTile { .. })), "nowhere to put it yet");
    act(&mut g, Action::Encounter { element: element_at((0, -1)) });
    let place = g.legal_actions().into_iter().find(|a| matches!(a, Action::PlaceSetAsideTile { .. }));
    act(&mut g, place.expect("placeable once the Door is open"));
    // A second dead end in the same Ecology loses.
    let mut g = boxed_in(Variants { one_dead_end: true, ..Variants::default() });
    act(&mut g, Action::DrawTile);
    act(&mut g, Action::DrawTile);
    assert_eq!(g.phase(), depths_rules::Phase::Lost(depths_rules::LossReason::DeadEnd));
}

/// "Caverns: Crazed Bipedal Saurian": set aside at Setup until a card shuffles it in.
#[test]
fn the_saurian_waits_until_a_card_shuffles_it_in() {
    let mut o = GameOptions::standard(&["bren"], 8);
    o.start = depths_rules::Ecology::Caverns;
    let mut g = Game::new(o, fixture()).unwrap();
    while g.pending().is_some() {
        let first = g.legal_actions()[0].clone();
        act(&mut g, first);
    }
    let has = |g: &Game| g.adventure().unwrap().ecology.monsters.iter().any(|m| m.id == "crazed_bipedal_saurian");
    assert!(!has(&g), "set aside at Setup");
    let adv = g.adventure.as_deref_mut().unwrap();
    let i = adv.ecology.features.iter().position(|f| f.id == "caverns_tracks").unwrap();
    let tracks = adv.ecology.features.remove(i);
    adv.ecology.features.push(tracks);
    lay(&mut g, "caverns-feature", (1, 0));
    act(&mut g, Action::Encounter { element: element_at((1, 0)) });
    assert!(has(&g), "shuffled into the Monster deck");
}

/// Rule clarification "Stranded": nothing left to draw, place or Encounter loses the game.
#[test]
fn stranded_with_nothing_left_loses() {
    let mut g = new_game(&["bren"], Variants::default());
    g.adventure.as_deref_mut().unwrap().ecology.pile = Default::default();
    g.heroes[0].health -= 1;
    give_xp(&mut g, &[1]);
    act(&mut g, Action::StartPurchase { what: Purchase::Healing { units: 1 } });
    act(&mut g, Action::PayXp { card: XpRef::Pool(0) });
    act(&mut g, Action::SplitHealing { amounts: vec![1] });
    assert_eq!(g.phase(), depths_rules::Phase::Lost(depths_rules::LossReason::Stranded));
}

/// A corridor: the Entry Tile open only to the North, a Door tile beyond it,
/// and the Stairs Tile last in the pile, which fits only beyond the Door
/// ("Doors cannot be moved through until they are Unlocked"). No Key and no
/// XP; the One Dead-End rule in play, so drawing the Stairs sets them aside.
fn corridor_to_a_locked_door(hero: &str) -> Game {
    let mut g = new_game(&[hero], Variants { one_dead_end: true, ..Variants::default() });
    let tile = |id: &str, kind: &str, exits: &[&str], elements: serde_json::Value| -> depths_rules::map::MapTile {
        let edge = |side: &str| if exits.contains(&side) { "open" } else { "wall" };
        serde_json::from_value(serde_json::json!({
            "id": id, "ecology": "ruins", "kind": kind,
            "edges": {"N": edge("N"), "E": edge("E"), "S": edge("S"), "W": edge("W")},
            "areas": [{"exits": exits, "elements": elements}]
        }))
        .expect("a tile")
    };
    let stairs = g.adventure().unwrap().ecology.pile.tiles().iter().find(|t| t.id == "ruins-stairs").unwrap().clone();
    let adv = g.adventure.as_deref_mut().unwrap();
    adv.keys = 0;
    let eco = &mut adv.ecology;
    eco.map = depths_rules::map::Map::new(tile("corridor-entry", "entry", &["N"], serde_json::json!([]))).unwrap();
    eco.pile = serde_json::from_value(serde_json::json!({ "tiles": [stairs] })).unwrap();
    eco.drawn = Some(tile("corridor-door", "normal", &["N", "S"], serde_json::json!([{"type": "door"}])));
    let placement = depths_rules::map::Placement { cell: (0, 1), rotation: Default::default() };
    act(&mut g, Action::PlaceTile { placement });
    Game::load_json(&g.save_json()).expect("the corridor saves and loads")
}

/// An Item for the corridor's Heroes, unequipped, worth no XP.
fn pack_item(name: &str, hands: u8, abilities: Vec<depths_rules::Ability>) -> depths_rules::hero::OwnedItem {
    let mut item = equipped_item(name, 0, false, abilities);
    item.card.deck = None;
    item.card.hands = hands;
    item.card.xp = 0;
    item.equipped = false;
    item
}

/// Two hands' worth of Item, Equipped, worth 1 XP (a Key costs 2).
fn full_hands() -> depths_rules::hero::OwnedItem {
    depths_rules::hero::OwnedItem { equipped: true, ..pack_item("Pike", 2, vec![]) }
}

fn stranded(g: &Game) -> bool {
    g.phase() == depths_rules::Phase::Lost(depths_rules::LossReason::Stranded)
}

/// Draws the last tile, the Stairs, which has no place yet and is set aside.
fn draw_the_stairs(g: &mut Game) {
    let events = act(g, Action::DrawTile);
    assert!(events.iter().any(|e| matches!(e, Event::TileSetAside { .. })), "{events:?}");
}

/// The set-aside Stairs go down beyond the opened Door.
fn place_the_stairs(g: &mut Game) {
    let door = element_at((0, 1));
    assert_eq!(g.adventure().unwrap().ecology.map.element(door).unwrap().1, ElementState::Unlocked);
    let place = g.legal_actions().into_iter().find(|a| matches!(a, Action::PlaceSetAsideTile { .. }));
    act(g, place.expect("the Stairs fit beyond the open Door"));
}

/// Rule clarification "Stranded" counts every way on the book allows while
/// Exploring: "Items may be Equipped or Unequipped anytime while Exploring"
/// and "Certain Hero Items, Abilities, and Spells can also be used to Unlock
/// Doors". A Hero whose hands are full, with a door-opening Item in her pack,
/// is not stranded before a locked Door: she puts one Item down, takes up the
/// other and opens the Door, and the set-aside Stairs ("The set-aside tile
/// remains available and may be placed at any time during Exploration") go
/// down beyond it.
#[test]
fn a_door_opener_in_the_pack_is_a_way_on() {
    let mut g = corridor_to_a_locked_door("bren");
    let maul = pack_item("Breaching Maul", 2, vec![power("Batter Down", vec![Effect::UnlockDoor])]);
    g.heroes[0].items = vec![full_hands(), maul];
    draw_the_stairs(&mut g);
    assert!(!stranded(&g), "the Maul in the pack opens the Door");
    let unlocks = |a: &Action| matches!(a, Action::ActivateAbility { target: Target::Element(_), .. });
    assert!(!g.legal_actions().iter().any(unlocks), "not in hand yet");
    act(&mut g, Action::Unequip { hero: 0, item: 0 });
    act(&mut g, Action::Equip { hero: 0, item: 1 });
    let source = depths_rules::AbilitySource::Item(1, 0);
    act(&mut g, Action::ActivateAbility { hero: 0, source, target: Target::Element(element_at((0, 1))) });
    place_the_stairs(&mut g);
}

/// The other ways on while Exploring: a Spell Exhausted and Refreshed by an
/// Item's Ability ("An Exhausted Spell cannot be used again until it is
/// Refreshed … Some Encounters, Items, and Abilities also Refresh Spells"),
/// Power Stored by an Ability for the one that unlocks, a Key given by an
/// Ability, and a Key bought with an Item ("Keys can be bought while Heroes
/// are Exploring"; "Equipped and Unequipped Items may be spent for their
/// Experience Point Value").
#[test]
fn refreshing_storing_power_or_a_key_from_an_ability_is_a_way_on() {
    // Sil's Unseal is Exhausted; the Staff in her pack Refreshes it.
    let mut g = corridor_to_a_locked_door("sil");
    let mut unseal = spell("Unseal", Activation::Power(1), vec![Effect::UnlockDoor], true);
    unseal.exhausted = true;
    g.heroes[0].abilities.push(unseal);
    let staff = pack_item("Staff", 2, vec![power("Channel", vec![Effect::RefreshSpells])]);
    g.heroes[0].items = vec![full_hands(), staff];
    draw_the_stairs(&mut g);
    assert!(!stranded(&g), "Refresh, then Unseal: one Power Card each");
    act(&mut g, Action::Unequip { hero: 0, item: 0 });
    act(&mut g, Action::Equip { hero: 0, item: 1 });
    act(
        &mut g,
        Action::ActivateAbility { hero: 0, source: depths_rules::AbilitySource::Item(1, 0), target: Target::None },
    );
    let source = depths_rules::AbilitySource::Card(0);
    act(&mut g, Action::ActivateAbility { hero: 0, source, target: Target::Element(element_at((0, 1))) });
    place_the_stairs(&mut g);

    // Bren has spent his Power; an Ability of his that costs none Stores one.
    let mut g = corridor_to_a_locked_door("bren");
    let h = &mut g.heroes[0];
    h.discard.append(&mut h.stored_power);
    let gather = Ability { activation: Activation::Power(0), ..power("Gather", vec![Effect::StorePower]) };
    let maul = pack_item("Breaching Maul", 2, vec![power("Batter Down", vec![Effect::UnlockDoor])]);
    g.heroes[0].items = vec![full_hands(), maul, pack_item("Horn", 0, vec![gather])];
    draw_the_stairs(&mut g);
    assert!(!stranded(&g), "Store a Power Card, then Batter Down");

    // An Ability that gives a Key.
    let mut g = corridor_to_a_locked_door("bren");
    let ring = pack_item("Ring", 2, vec![power("Find a Key", vec![Effect::Keys { amount: 1 }])]);
    g.heroes[0].items = vec![full_hands(), ring];
    draw_the_stairs(&mut g);
    assert!(!stranded(&g), "the Ring's Key opens the Door");

    // An Item worth a Key, though its Hero cannot use it.
    let mut g = corridor_to_a_locked_door("bren");
    let mut gem = pack_item("Gem", 0, vec![]);
    gem.card.xp = 2;
    gem.card.class_only = Some(depths_rules::HeroClass::Wizard);
    g.heroes[0].items = vec![gem];
    draw_the_stairs(&mut g);
    assert!(!stranded(&g), "the Gem buys a Key");
}

/// Rule clarification "Stranded", the other way: an Ability that unlocks is
/// no way on when no sequence of Exploring actions can Activate it — no
/// Stored Power and none to Store, a Spell Exhausted with too little Power to
/// Refresh it and then use it, or an Item only another class may Equip ("Some
/// Items … can only be equipped by a specific Hero Class").
#[test]
fn an_unlocker_that_cannot_be_activated_is_no_way_on() {
    let maul = || pack_item("Breaching Maul", 2, vec![power("Batter Down", vec![Effect::UnlockDoor])]);
    // Bren holds the Maul, with no Power left.
    let mut g = corridor_to_a_locked_door("bren");
    let h = &mut g.heroes[0];
    h.discard.append(&mut h.stored_power);
    g.heroes[0].items = vec![depths_rules::hero::OwnedItem { equipped: true, ..maul() }];
    draw_the_stairs(&mut g);
    assert!(stranded(&g), "no Power to Batter Down: {:?}", g.phase());

    // Sil's Unseal is Exhausted, and she has one Power Card for two uses.
    let mut g = corridor_to_a_locked_door("sil");
    let mut unseal = spell("Unseal", Activation::Power(1), vec![Effect::UnlockDoor], true);
    unseal.exhausted = true;
    g.heroes[0].abilities.push(unseal);
    g.heroes[0].items = vec![pack_item("Staff", 2, vec![power("Channel", vec![Effect::RefreshSpells])])];
    let h = &mut g.heroes[0];
    let spent = h.stored_power.pop().unwrap();
    h.discard.push(spent);
    draw_the_stairs(&mut g);
    assert!(stranded(&g), "one Power Card: Refresh or Unseal, not both: {:?}", g.phase());

    // Bren cannot Equip a Wizard's Maul.
    let mut g = corridor_to_a_locked_door("bren");
    let mut wizards = maul();
    wizards.card.class_only = Some(depths_rules::HeroClass::Wizard);
    g.heroes[0].items = vec![wizards];
    draw_the_stairs(&mut g);
    assert!(stranded(&g), "only a Wizard may take it up: {:?}", g.phase());
}

/// "Abilities: When drawing Hero Abilities, multi-classed Heroes may either draw
/// 1 from each of their Primary and Secondary Class Ability Decks … or draw 2
/// from their Primary Class Ability Deck."
#[test]
fn multi_classed_heroes_choose_how_to_draw_abilities() {
    for (how, classes) in [(0u8, ["fighter", "wizard"]), (1, ["fighter", "fighter"])] {
        let mut o = GameOptions::standard(&["bren_alt"], 2);
        o.start = depths_rules::Ecology::Caverns;
        let mut g = Game::new(o, fixture()).unwrap();
        assert_eq!(g.pending(), Some(&Pending::ChooseAbilityDraw { hero: 0 }));
        act(&mut g, Action::ChooseOption { index: how });
        let Some(Pending::ChooseAbility { options, .. }) = g.pending() else { panic!("two Abilities drawn") };
        let mut got: Vec<String> = options.iter().map(|o| format!("{:?}", o.class).to_lowercase()).collect();
        got.sort();
        assert_eq!(got, classes);
    }
    let mut o = GameOptions::standard(&["bren_alt"], 2);
    o.start = depths_rules::Ecology::Caverns;
    o.single_classed = true;
    let g = Game::new(o, fixture()).unwrap();
    assert!(matches!(g.pending(), Some(Pending::ChooseAbility { .. })), "single-classed: draws as normal");
}

/// "Some Items found at Legendary Locations can only be equipped by a specific
/// Hero Class": any Hero may take one (for its XP), only that class Equips it.
#[test]
fn a_class_item_goes_to_any_hero_but_only_its_class_equips_it() {
    let mut g = new_game(&["sil"], Variants::default());
    let mut item = g.adventure().unwrap().content.class_deck(depths_rules::HeroClass::Fighter).items[1].clone();
    item.class_only = Some(depths_rules::HeroClass::Fighter);
    g.adventure
        .as_deref_mut()
        .unwrap()
        .pending
        .push(Pending::ChooseHero(depths_rules::adventure::HeroChoice::GainItem(item)));
    act(&mut g, Action::ChooseHero { hero: 0 });
    assert!(!g.heroes[0].items[0].equipped);
    assert_eq!(g.check(&Action::Equip { hero: 0, item: 0 }), Err(RuleError::WrongClass));
}

/// "Modifying the Game": at Setup each variant changes only what the book says
/// it changes (the Keys for "Start with More Keys", the Heroes' Abilities for
/// "Start with an Ability", nothing yet for the others).
#[test]
fn each_variant_changes_only_what_it_says_at_setup() {
    let plain = serde_json::to_value(new_game(&["bren", "sil"], Variants::default())).unwrap();
    type Set = fn(&mut Variants);
    let all: [(&str, Set); 8] = [
        ("random_campfire_healing", |v| v.random_campfire_healing = true),
        ("no_level_up_heal", |v| v.no_level_up_heal = true),
        ("locked_chests", |v| v.locked_chests = true),
        ("start_with_ability", |v| v.start_with_ability = true),
        ("six_keys", |v| v.six_keys = true),
        ("keys_each_ecology", |v| v.keys_each_ecology = true),
        ("one_dead_end", |v| v.one_dead_end = true),
        ("double_healing", |v| v.double_healing = true),
    ];
    for (name, set) in all {
        let mut v = Variants::default();
        set(&mut v);
        let mut changed = serde_json::to_value(new_game(&["bren", "sil"], v)).unwrap();
        changed["adventure"]["options"] = plain["adventure"]["options"].clone();
        let mut expected = plain.clone();
        match name {
            "six_keys" => expected["adventure"]["keys"] = 6.into(),
            "one_dead_end" => expected["adventure"]["ecology"]["dead_end"]["enabled"] = true.into(),
            "start_with_ability" => {
                for h in 0..2 {
                    expected["heroes"][h]["abilities"] = changed["heroes"][h]["abilities"].clone();
                }
                expected["adventure"]["ability_decks"] = changed["adventure"]["ability_decks"].clone();
                assert_ne!(expected["heroes"][0]["abilities"], plain["heroes"][0]["abilities"]);
            }
            _ => {}
        }
        assert_eq!(changed, expected, "{name} changed something else at Setup");
    }
}
