//! A small, fully controlled content set for rule tests: every tile open, weak
//! Monsters, one short Legendary Location per Ecology. The shipped content is
//! tuned for play; these tests check rules, so they must not move with it.

use depths_rules::content::{BUILTIN_FILES, file_names};
use depths_rules::{Content, Ecology};
use serde_json::{Value, json};

fn eco_name(e: Ecology) -> &'static str {
    match e {
        Ecology::Ruins => "ruins",
        Ecology::Caverns => "caverns",
        Ecology::Subterranean => "subterranean",
    }
}

fn tile(e: Ecology, id: &str, kind: &str, elements: Value, nodes: Value) -> Value {
    let open = if e == Ecology::Subterranean { "upper" } else { "open" };
    json!({
        "id": format!("{}-{id}", eco_name(e)), "ecology": eco_name(e), "kind": kind,
        "edges": {"N": open, "E": open, "S": open, "W": open},
        "areas": [{"exits": ["N", "E", "S", "W"], "elements": elements}],
        "nodes": nodes
    })
}

fn monster(id: &str, health: u8, xp: u8) -> Value {
    json!({"id": id, "name": id.replace('_', " "), "difficulty": "I", "type": "singular",
           "health": [health, health, health], "xp": xp, "abilities": []})
}

fn ecology_files(e: Ecology) -> Vec<(String, String)> {
    let n = eco_name(e);
    let mut tiles = vec![
        tile(e, "entry", "entry", json!([]), json!([])),
        tile(e, "stairs", "stairs", json!([{"type": "stair_guardian"}]), json!([])),
        tile(e, "monster", "normal", json!([{"type": "monster", "count": 1}]), json!([])),
        tile(e, "twins", "normal", json!([{"type": "monster", "count": 2}]), json!([])),
        tile(e, "feature", "normal", json!([{"type": "feature"}]), json!([])),
        tile(e, "door", "normal", json!([{"type": "door"}]), json!([])),
        tile(e, "chest", "normal", json!([{"type": "chest"}]), json!([])),
        tile(e, "camp", "normal", json!([{"type": "campfire"}]), json!([])),
        tile(e, "rune-a", "normal", json!([]), json!(["E", "W", "N", "S"])),
        tile(e, "rune-b", "normal", json!([]), json!(["E", "W", "N", "S"])),
    ];
    for i in 0..4 {
        tiles.push(tile(e, &format!("hall-{i}"), "normal", json!([]), json!([])));
    }
    let monsters: Vec<Value> = (0..6).map(|i| monster(&format!("{n}_grub_{i}"), 1, 2)).collect();
    let mut monsters = json!({ "monsters": monsters });
    if e == Ecology::Caverns {
        let mut saurian = monster("crazed_bipedal_saurian", 1, 3);
        saurian["set_aside"] = json!(true);
        monsters["monsters"].as_array_mut().unwrap().push(saurian);
    }
    let mut features = json!({"features": [
        {"id": format!("{n}_well"), "name": "Old Well", "xp": 1, "effects": [
            {"effect": "test", "target": [5, 10, 15], "cards": 2,
             "success": [{"effect": "heal_heroes", "amount": 2, "whom": "heroes"}],
             "failure": [{"effect": "damage_heroes", "amount": 1, "whom": "heroes"}]}]},
        {"id": format!("{n}_cache"), "name": "Cache", "xp": 1, "effects": [{"effect": "gain_item", "item": "charm"}]},
        {"id": format!("{n}_bowl"), "name": "Brass Scrying Bowl", "xp": 2, "effects": [{"effect": "reveal_features", "count": 2}]},
        {"id": format!("{n}_keys"), "name": "Key Ring", "xp": 1, "effects": [{"effect": "keys", "amount": 1}]}
    ]});
    if e == Ecology::Caverns {
        features["features"]
            .as_array_mut()
            .unwrap()
            .push(json!({"id": "caverns_tracks", "name": "Three-Toed Tracks", "xp": 1,
            "effects": [{"effect": "shuffle_into_monsters", "monster": "crazed_bipedal_saurian"}]}));
    }
    let patterns = json!({"patterns": [
        {"id": "1", "cells": [{"offset": [0, 0], "nodes": ["E"]}, {"offset": [1, 0], "nodes": ["W"]}]}
    ]});
    let legendary = json!({"cards": [
        {"id": format!("{n}_ll_1"), "name": "Sunken Section of Floor", "back": "1", "next": "A", "xp": 2, "effects": []},
        {"id": format!("{n}_ll_1a1"), "name": "Hollow Below", "back": "1A I", "xp": 1,
         "effects": [{"effect": "gain_item", "item": "charm"}]},
        {"id": format!("{n}_ll_1a2"), "name": "Way Down", "back": "1A II", "xp": 1, "effects": [{"effect": "keys", "amount": 1}]}
    ]});
    let guardians = if e == Ecology::Subterranean {
        json!({"stair_guardians": []})
    } else {
        json!({"stair_guardians": [monster(&format!("{n}_warden"), 2, 4)]})
    };
    let reference = json!({"ecology": n, "monster_xp": 2, "feature_xp": 1, "legendary_xp": [3, 6],
        "healing": {"xp": 1, "health": 1}, "key_cost": 2, "ability_cost": 3});
    [
        ("tiles", json!({ "tiles": tiles })),
        ("monsters", monsters),
        ("features", features),
        ("rune_patterns", patterns),
        ("legendary_locations", legendary),
        ("stair_guardians", guardians),
        ("reference", reference),
    ]
    .into_iter()
    .map(|(f, v)| (format!("{n}/{f}.json"), v.to_string()))
    .collect()
}

fn class_file(class: &str) -> String {
    json!({
        "items": [
            {"id": format!("{class}_blade"), "name": format!("{class} blade"), "deck": class, "hands": 1, "xp": 2,
             "add_cards": [9, 9], "remove_cards": 2},
            {"id": format!("{class}_shield"), "name": format!("{class} shield"), "deck": class, "hands": 1, "armor": 1, "xp": 1},
            {"id": format!("{class}_pike"), "name": format!("{class} pike"), "deck": class, "hands": 2, "xp": 1}
        ],
        "abilities": [
            {"id": format!("{class}_rally"), "class": class,
             "ability": {"name": "Rally", "activation": {"power": 1}, "effects": [{"effect": "bonus_damage", "amount": 2}]}},
            {"id": format!("{class}_mend"), "class": class,
             "ability": {"name": "Mend", "activation": {"power": 1}, "effects": [{"effect": "heal_heroes", "amount": 3, "whom": "chosen_hero"}]}},
            {"id": format!("{class}_pick"), "class": class,
             "ability": {"name": "Pick Lock", "activation": {"power": 1}, "effects": [{"effect": "unlock_door"}]}}
        ],
        "item_action_cards": [9, 9, 9]
    })
    .to_string()
}

/// The fixture's files, with the shipped Hero Mats.
pub fn fixture_files() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = Vec::new();
    let heroes = BUILTIN_FILES.iter().find(|(f, _)| *f == "heroes.json").unwrap().1;
    files.push(("heroes.json".into(), heroes.into()));
    files.push((
        "treasures.json".into(),
        json!({"items": [{"id": "charm", "name": "Charm", "hands": 0, "xp": 1, "uses": 2,
            "abilities": [{"name": "Charm's Warmth", "activation": {"power": 1}, "effects": [{"effect": "heal_heroes", "amount": 2, "whom": "heroes"}]}]}]})
        .to_string(),
    ));
    let part = |id: &str, part: &str| json!({"id": id, "name": id, "part": part, "health": [1, 1, 1], "armor": 0, "abilities": []});
    files.push((
        "final_entity.json".into(),
        json!({"head_1": [part("maw", "head_i")], "head_2": [part("crown", "head_ii")], "body": [part("coils", "body")],
               "tail": {"id": "tail", "name": "Tail", "difficulty": "I", "abilities": []},
               "lore": {"name": "The Final Entity", "text": "It waits below."}})
        .to_string(),
    ));
    for class in ["fighter", "wizard", "rogue"] {
        files.push((format!("classes/{class}.json"), class_file(class)));
    }
    for e in Ecology::ALL {
        files.extend(ecology_files(e));
    }
    files
}

pub fn fixture() -> Content {
    let files = fixture_files();
    let refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    assert_eq!(
        refs.iter().map(|(n, _)| n.to_string()).collect::<std::collections::BTreeSet<_>>(),
        file_names().into_iter().collect()
    );
    Content::from_files(&refs).unwrap_or_else(|e| panic!("fixture: {e}"))
}
