//! Hidden orders: a forecast may not peek at a face-down pile. A determinized
//! game (`Game::determinized`) deals every order the players cannot know
//! afresh and keeps everything they can see, down to the cards in each pile.

use depths_rules::map::TileKind;
use depths_rules::{Content, Game, GameOptions};
use depths_sim::{Bot, HeuristicBot};
use depths_tests::hidden::other_hidden_orders;
use serde_json::Value;

fn new_game(seed: u64) -> Game {
    Game::new(GameOptions::standard(&["bren", "sil"], seed), Content::builtin().unwrap()).unwrap()
}

/// A game `actions` careful moves in (or its end, if that comes first).
fn game_after(seed: u64, actions: usize) -> Game {
    let mut g = new_game(seed);
    let mut bot = HeuristicBot;
    for _ in 0..actions {
        if g.is_over() {
            break;
        }
        let a = bot.choose(&g);
        g.apply(a).unwrap();
    }
    g
}

fn situations() -> Vec<Game> {
    [(1, 0), (2, 40), (3, 120), (4, 250), (5, 400)].into_iter().map(|(s, n)| game_after(s, n)).collect()
}

fn sort_array(v: &mut Value) {
    if let Some(a) = v.as_array_mut() {
        a.sort_by_key(|c| c.to_string());
    }
}

/// What the table shows: the game as JSON with every face-down pile sorted
/// (so only which cards it holds remains) and the random generator left out.
fn game_of(g: &Game) -> Value {
    let mut v = serde_json::to_value(g).unwrap();
    v["rng"] = Value::Null;
    for hero in v["heroes"].as_array_mut().unwrap() {
        sort_array(&mut hero["draw"]);
    }
    for deck in v["monster_decks"].as_array_mut().unwrap() {
        sort_array(&mut deck["draw"]);
    }
    let adv = &mut v["adventure"];
    for deck in ["item_decks", "ability_decks"] {
        for d in adv[deck].as_array_mut().unwrap() {
            sort_array(d);
        }
    }
    let eco = &mut adv["ecology"];
    for pile in ["monsters", "features", "stair_guardians"] {
        sort_array(&mut eco[pile]);
    }
    sort_array(&mut eco["pile"]["tiles"]);
    for piles in eco["legendary"].as_array_mut().unwrap() {
        sort_array(&mut piles["entry"]);
        for (_, pile) in piles["lettered"].as_array_mut().unwrap().iter_mut().map(|p| (0, &mut p[1])) {
            sort_array(pile);
        }
    }
    v
}

#[test]
fn a_determinized_game_shows_the_same_table_and_holds_the_same_cards() {
    for g in situations() {
        for seed in [1, 2, 99] {
            let d = g.determinized(seed);
            assert_eq!(game_of(&d), game_of(&g), "seed {seed}: only hidden orders may change");
        }
    }
}

#[test]
fn the_hidden_orders_are_dealt_afresh() {
    let g = new_game(7);
    let (a, b) = (g.determinized(1), g.determinized(2));
    assert_ne!(a, b);
    assert_ne!(a.rng, g.rng, "the generator is reseeded");
    let adv = |x: &Game| x.adventure.clone().unwrap();
    assert_ne!(adv(&a).ecology.monsters, adv(&g).ecology.monsters);
    assert_ne!(adv(&a).ecology.features, adv(&b).ecology.features);
    assert_ne!(adv(&a).ecology.pile.tiles(), adv(&g).ecology.pile.tiles());
    assert_ne!(adv(&a).item_decks, adv(&g).item_decks);
    assert_ne!(adv(&a).ability_decks, adv(&g).ability_decks);
    assert_ne!(a.heroes[0].draw, g.heroes[0].draw);
    assert_ne!(a.monster_decks[0].draw, g.monster_decks[0].draw);
}

#[test]
fn games_that_differ_only_in_hidden_orders_determinize_alike() {
    for g in situations() {
        let other = other_hidden_orders(&g);
        assert_ne!(other, g, "the test must change a hidden order");
        assert_eq!(game_of(&other), game_of(&g));
        for seed in [3, 4] {
            assert_eq!(g.determinized(seed), other.determinized(seed), "seed {seed}");
        }
    }
    // Also two real deals of the same table: a determinized game of a game.
    let g = game_after(11, 60);
    assert_eq!(g.determinized(5), g.determinized(6).determinized(5));
}

#[test]
fn the_stairs_tile_stays_fourth_from_the_bottom() {
    let g = new_game(8);
    let place =
        |g: &Game| g.adventure().unwrap().ecology.pile.tiles().iter().position(|t| t.kind == TileKind::Stairs).unwrap();
    assert_eq!(place(&g), 3);
    for seed in 0..20 {
        assert_eq!(place(&g.determinized(seed)), 3);
    }
}

#[test]
fn a_card_retrieved_onto_the_draw_pile_stays_on_top() {
    let mut g = new_game(9);
    // Play a Feature-test's worth of cards into the Discard, then Retrieve one.
    let hero = &mut g.heroes[0];
    for _ in 0..3 {
        let card = hero.draw_card().unwrap();
        hero.discard.push(card);
    }
    let card = hero.discard.remove(1);
    hero.put_on_draw_pile(card);
    assert_eq!(hero.known_on_top, 1);
    for seed in 0..20 {
        let d = g.determinized(seed);
        assert_eq!(d.heroes[0].draw.last(), Some(&card), "seed {seed}");
        assert_eq!(d.heroes[0].discard, g.heroes[0].discard);
    }
    // Once it is drawn, nothing on top is known any more.
    let hero = &mut g.heroes[0];
    let drawn = hero.draw_card();
    assert_eq!(drawn, Some(card).filter(|c| !c.power));
    assert_eq!(hero.known_on_top, 0);
}

#[test]
fn a_shuffle_forgets_the_cards_known_on_top() {
    let mut g = new_game(14);
    let mut rng = depths_rules::GameRng::from_seed(1);
    let hero = &mut g.heroes[1];
    let card = hero.draw_card().unwrap();
    hero.put_on_draw_pile(card);
    assert_eq!(hero.known_on_top, 1);
    // "Shuffle the Discard Pile to form a new Draw Pile."
    hero.reshuffle_discard(&mut rng);
    assert_eq!(hero.known_on_top, 0);
    // A card searched out of the Draw Pile (Store Power) from under the known
    // ones leaves them known; the known card itself, once taken, is no more.
    hero.put_on_draw_pile(card);
    let top = hero.draw.len() - 1;
    hero.take_from_draw(0);
    assert_eq!(hero.known_on_top, 1);
    hero.take_from_draw(top - 1);
    assert_eq!(hero.known_on_top, 0);
}

#[test]
fn features_revealed_and_put_back_in_order_stay_in_that_order() {
    let mut g = new_game(10);
    let eco = &mut g.adventure.as_deref_mut().unwrap().ecology;
    for _ in 0..2 {
        let f = eco.features.pop().unwrap().into_inner();
        eco.revealed_features.push(f);
    }
    let revealed = eco.revealed_features.clone();
    for seed in 0..10 {
        assert_eq!(g.determinized(seed).adventure().unwrap().ecology.revealed_features, revealed);
    }
}

#[test]
fn cards_put_back_at_the_bottom_of_the_item_and_ability_decks_stay_there() {
    let mut g = new_game(12);
    let adv = g.adventure.as_deref_mut().unwrap();
    let ability = adv.ability_decks[0].pop().unwrap();
    adv.put_under_ability_deck(ability.clone());
    let item = adv.item_decks[1].pop().unwrap();
    adv.put_under_item_deck(1, item.clone());
    for seed in 0..20 {
        let d = g.determinized(seed);
        let adv = d.adventure().unwrap();
        assert_eq!(adv.ability_decks[0][0], ability, "seed {seed}");
        assert_eq!(adv.item_decks[1][0], item, "seed {seed}");
    }
}

#[test]
fn lettered_legendary_piles_keep_their_numerals_in_order() {
    let g = new_game(13);
    let numerals = |g: &Game| -> Vec<Vec<Option<u8>>> {
        g.adventure()
            .unwrap()
            .ecology
            .legendary
            .iter()
            .flat_map(|p| p.lettered.iter().map(|(_, pile)| pile.iter().map(|c| c.label().unwrap().roman).collect()))
            .collect()
    };
    assert!(numerals(&g).iter().any(|p| p.len() > 1), "the content has lettered piles");
    for seed in 0..10 {
        assert_eq!(numerals(&g.determinized(seed)), numerals(&g));
    }
}

#[test]
fn a_determinized_game_plays_on_to_its_end() {
    for (i, g) in situations().into_iter().enumerate() {
        let mut d = g.determinized(i as u64);
        let mut bot = HeuristicBot;
        let mut n = 0;
        while !d.is_over() && n < 20_000 {
            let a = bot.choose(&d);
            d.apply(a).unwrap();
            n += 1;
        }
        assert!(d.is_over());
    }
}
