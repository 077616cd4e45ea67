//! Hot reload for content authors: a running game takes edited words (names,
//! descriptions) in every copy of a card, and refuses any change to what a
//! card does, keeping its cards.

use std::sync::Arc;

use depths_rules::{Content, Foe, Game, GameOptions, SwapRefused};
use serde_json::{Value, json};

fn game() -> Game {
    Game::new(GameOptions::standard(&["bren", "sil"], 7), Content::builtin().unwrap()).unwrap()
}

/// The shipped content with `edit` applied to its JSON form.
fn edited(edit: impl FnOnce(&mut Value)) -> Content {
    let mut value = serde_json::to_value(Content::builtin().unwrap()).unwrap();
    edit(&mut value);
    serde_json::from_value(value).unwrap()
}

fn card<'a>(list: &'a mut Value, id: &str) -> &'a mut Value {
    list.as_array_mut().unwrap().iter_mut().find(|c| c["id"] == id).unwrap_or_else(|| panic!("no {id}"))
}

#[test]
fn new_words_reach_every_copy_of_the_card_in_a_running_game() {
    let mut g = game();
    let before = g.clone();
    let new = Arc::new(edited(|v| {
        card(&mut v["heroes"], "bren")["name"] = json!("Brennan");
        card(&mut v["classes"]["fighter"]["items"], "fighter_notched_longsword")["name"] = json!("Chipped Longsword");
        card(&mut v["ecologies"][0]["monsters"], "withered_shade")["description"] = json!("Grey, and grieving.");
    }));
    assert_eq!(g.swap_content(new.clone()), Ok(3));
    let a = g.adventure.as_ref().unwrap();
    assert!(Arc::ptr_eq(&a.content, &new), "the game holds the new content");
    assert_eq!(g.heroes[0].mat.name, "Brennan", "the Hero's mat in play");
    let sword = a.item_decks[0].iter().find(|i| i.id == "fighter_notched_longsword").expect("in the Fighter's deck");
    assert_eq!(sword.name, "Chipped Longsword", "the copy in the Item deck");
    let shade = a.ecology.monsters.iter().find(|m| m.id == "withered_shade").expect("in the Monster deck");
    assert_eq!(shade.description, "Grey, and grieving.");
    // Nothing else moved: the same game, but for the words.
    assert_eq!(g.legal_actions(), before.legal_actions());
    assert_eq!(g.rng, before.rng);
}

#[test]
fn a_change_to_what_a_card_does_is_refused_and_the_game_keeps_its_cards() {
    let mut g = game();
    let before = g.clone();
    let new = edited(|v| {
        let shade = card(&mut v["ecologies"][0]["monsters"], "withered_shade");
        shade["name"] = json!("Shade");
        shade["health"] = json!([5, 9, 13]);
    });
    let refused = g.swap_content(Arc::new(new)).unwrap_err();
    assert_eq!(refused, SwapRefused::RulesChanged { at: "ecologies.ruins.monsters.withered_shade.health.0".into() });
    assert!(refused.to_string().contains("a new game uses the new ones"), "{refused}");
    assert_eq!(g, before, "untouched, words included");
}

#[test]
fn a_card_added_or_removed_is_refused() {
    let mut g = game();
    let new = edited(|v| {
        v["treasures"].as_array_mut().unwrap().pop();
    });
    let refused = g.swap_content(Arc::new(new)).unwrap_err();
    assert_eq!(refused, SwapRefused::RulesChanged { at: "treasures".into() });
    assert_eq!(g.adventure.as_ref().unwrap().content.treasures, Content::builtin().unwrap().treasures);
}

/// In Combat, the Monster's health tokens are named after its card: they
/// follow the new name ("Withered Shade #2" becomes "Wilted Shade #2").
#[test]
fn a_foe_s_health_tokens_take_the_new_name() {
    let mut g = game();
    let shade = g.adventure.as_ref().unwrap().content.ecologies[0].monsters[0].clone();
    assert_eq!(shade.id, "withered_shade");
    g.start_combat(vec![Foe::monster(shade, 2)]);
    let names = |g: &Game| -> Vec<String> {
        g.combat.as_ref().unwrap().foes[0].individuals.iter().map(|i| i.name.clone()).collect()
    };
    assert_eq!(names(&g)[1], "Withered Shade #2");
    let new = edited(|v| card(&mut v["ecologies"][0]["monsters"], "withered_shade")["name"] = json!("Wilted Shade"));
    assert_eq!(g.swap_content(Arc::new(new)), Ok(1));
    assert_eq!(names(&g), ["Wilted Shade #1", "Wilted Shade #2", "Wilted Shade #3", "Wilted Shade #4"]);
}
