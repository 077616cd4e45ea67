//! The shipped content loads, validates and matches the rulebook's Components;
//! each kind of content error names its file (and card) and says what is wrong.

use depths_rules::content::{BUILTIN_FILES, file_names};
use depths_rules::effect::Effect;
use depths_rules::{Content, ContentError, ContentErrorKind, ContentFault, Ecology};
use depths_tests::fixture::fixture_files;
use serde_json::{Value, json};

#[test]
fn every_content_file_is_shipped_and_loads() {
    let names: Vec<&str> = BUILTIN_FILES.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, file_names(), "the compiled-in list and the on-disk list agree");
    let content = Content::builtin().unwrap_or_else(|e| panic!("{e}"));
    let from_disk = Content::load_dir(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/content"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(content, from_disk);
}

#[test]
fn a_malformed_file_is_named_with_the_reason() {
    let mut files: Vec<(&str, &str)> = BUILTIN_FILES.to_vec();
    let i = files.iter().position(|(n, _)| *n == "heroes.json").unwrap();
    files[i].1 = "{ \"heroes\": [ { \"id\": \"bren\" } ] }";
    let e = Content::from_files(&files).unwrap_err();
    let [fault] = &e.faults[..] else { panic!("one fault: {e:?}") };
    assert_eq!(fault.file, "heroes.json");
    let ContentErrorKind::Parse { line: 1, column, message } = &fault.kind else { panic!("{e:?}") };
    assert!(message.starts_with("missing field") && *column > 0, "{e}");
    files.remove(i);
    let e = Content::from_files(&files).unwrap_err();
    assert_eq!(e, ContentError::new("heroes.json", ContentErrorKind::Missing));
    assert!(e.files_missing());
    assert_eq!(e.to_string(), "heroes.json: file is missing");
}

#[test]
fn missing_content_folder_names_the_file() {
    let e = Content::load_dir(std::path::Path::new("/nonexistent")).unwrap_err();
    // Every file is named, not only the first.
    assert_eq!(e.faults.len(), file_names().len(), "{e}");
    assert_eq!(e.faults[0].file, "heroes.json");
    assert!(e.faults.iter().all(|f| matches!(f.kind, ContentErrorKind::Unreadable(_))), "{e:?}");
    assert!(e.files_missing());
    assert!(e.to_string().starts_with("heroes.json: cannot read: "), "{e}");
}

/// "Components" and the published set: counts, chests, campfires, tokens, blades.
#[test]
fn shipped_content_matches_the_component_counts() {
    let content = Content::builtin().unwrap();
    assert_eq!(content.count_problems(), Vec::<String>::new());
    let census = content.census();
    assert_eq!(census["ruins"]["legendary_location_cards"], 30);
    assert_eq!(census["final_entity"]["head_2"], 3);
    assert_eq!(census["heroes"]["sil"]["action_cards"], 15);
}

/// A malformed card inside a valid file is named with its id.
#[test]
fn a_dangling_reference_names_the_card() {
    let mut files: Vec<(String, String)> = BUILTIN_FILES.iter().map(|(n, t)| (n.to_string(), t.to_string())).collect();
    let caverns = files.iter_mut().find(|(n, _)| n == "caverns/monsters.json").unwrap();
    caverns.1 = caverns.1.replace("crazed_bipedal_saurian", "crazed_saurian_typo");
    let refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let e = Content::from_files(&refs).unwrap_err();
    let [fault] = &e.faults[..] else { panic!("one fault: {e:?}") };
    assert_eq!(fault.file, "caverns/features.json");
    assert_eq!(fault.card.as_deref(), Some("three_toed_tracks"));
    let ContentErrorKind::UnknownReference { id, .. } = &fault.kind else { panic!("{e:?}") };
    assert_eq!(id, "crazed_bipedal_saurian");
    assert!(!e.files_missing(), "a bad card is not a missing file");
    assert!(e.to_string().contains("crazed_bipedal_saurian"), "{e}");
}

/// "Rules text on a card is generated from its effects": names, not ids.
#[test]
fn card_text_names_items_and_monsters() {
    let content = Content::builtin().unwrap();
    let caverns = content.ecology(depths_rules::Ecology::Caverns);
    let tracks = caverns
        .features
        .iter()
        .find(|f| format!("{:?}", f.effects).contains("crazed_bipedal_saurian"))
        .expect("a card shuffles in the Saurian");
    let text = content.effect_text(&tracks.effects);
    assert!(text.contains("Crazed Bipedal Saurian"), "{text}");
    assert!(!text.contains("crazed_bipedal_saurian"), "{text}");
}

/// Loads the fixture with one file changed by `edit`.
fn fixture_with(file: &str, edit: impl FnOnce(&mut Value)) -> Result<Content, ContentError> {
    let mut files = fixture_files();
    let text = &mut files.iter_mut().find(|(n, _)| n == file).unwrap_or_else(|| panic!("no {file}")).1;
    let mut value: Value = serde_json::from_str(text).unwrap();
    edit(&mut value);
    *text = value.to_string();
    let refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    Content::from_files(&refs)
}

/// The fixture's feature `id` in `value` (a features.json).
fn feature<'a>(value: &'a mut Value, id: &str) -> &'a mut Value {
    value["features"].as_array_mut().unwrap().iter_mut().find(|f| f["id"] == id).unwrap()
}

#[test]
fn a_syntax_error_names_its_line_and_column() {
    let mut files = fixture_files();
    let text = &mut files.iter_mut().find(|(n, _)| n == "ruins/monsters.json").unwrap().1;
    *text = "{\n  \"monsters\": [\n    { \"id\": \"grub\",, }\n  ]\n}".to_string();
    let refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let e = Content::from_files(&refs).unwrap_err();
    let [fault] = &e.faults[..] else { panic!("one fault: {e:?}") };
    assert_eq!(fault.file, "ruins/monsters.json");
    let ContentErrorKind::Parse { line, column, message } = &fault.kind else { panic!("{e:?}") };
    assert_eq!((*line, *column), (3, 20), "{e}");
    assert_eq!(e.to_string(), format!("ruins/monsters.json: {message} at line 3 column 20"));
}

#[test]
fn an_id_used_twice_is_named() {
    let e =
        fixture_with("caverns/features.json", |v| feature(v, "caverns_well")["id"] = json!("ruins_well")).unwrap_err();
    let kind = ContentErrorKind::Duplicate { first_file: "ruins/features.json".into() };
    assert_eq!(e.faults, [ContentFault::new("caverns/features.json", Some("ruins_well"), kind)]);
    assert_eq!(e.to_string(), "caverns/features.json: ruins_well: id already used by a card in ruins/features.json");
}

#[test]
fn an_unknown_item_is_a_dangling_reference() {
    let e = fixture_with("ruins/features.json", |v| feature(v, "ruins_cache")["effects"][0]["item"] = json!("charn"))
        .unwrap_err();
    let kind = ContentErrorKind::UnknownReference { what: "item", id: "charn".into() };
    assert_eq!(e.faults, [ContentFault::new("ruins/features.json", Some("ruins_cache"), kind)]);
    assert_eq!(e.to_string(), "ruins/features.json: ruins_cache: unknown item \"charn\"");
}

#[test]
fn any_other_broken_rule_is_invalid_and_names_the_card() {
    let e = fixture_with("classes/rogue.json", |v| v["items"][2]["hands"] = json!(3)).unwrap_err();
    let kind = ContentErrorKind::Invalid("at most 2 hands".into());
    assert_eq!(e.faults, [ContentFault::new("classes/rogue.json", Some("rogue_pike"), kind)]);
    assert_eq!(e.to_string(), "classes/rogue.json: rogue_pike: at most 2 hands");
}

/// "Chests and Legendary Locations are the only places to find Items", and
/// "Some Features and Legendary Locations provide Items with limited numbers
/// of uses" (Limited-Use Item Tokens): no shipped Feature draws an Item, and
/// every Item a Feature gives has uses.
#[test]
fn shipped_features_give_only_limited_use_items_chests_and_legendary_locations_the_rest() {
    let content = Content::builtin().unwrap_or_else(|e| panic!("{e}"));
    let mut given = 0;
    for eco in Ecology::ALL {
        for f in &content.ecology(eco).features {
            for e in depths_rules::effect::all_effects(&f.effects) {
                assert_ne!(*e, Effect::DrawItem, "{eco:?} feature {} draws an Item", f.id);
                if let Effect::GainItem { item } = e {
                    let card = content.item(item).unwrap_or_else(|| panic!("{}: no item {item}", f.id));
                    assert!(card.uses.is_some_and(|u| u > 0), "{eco:?} feature {} gives {item}, not limited-use", f.id);
                    given += 1;
                }
            }
        }
    }
    assert_eq!(given, 9, "three Features in each Ecology give a limited-use Item");
}

/// The same rule, enforced by the loader: a Feature that draws an Item — here
/// inside a test's success — is refused, naming the file and the card.
#[test]
fn a_feature_that_draws_an_item_is_refused_chests_and_legendary_locations_are_the_only_places() {
    let e = fixture_with("caverns/features.json", |v| {
        feature(v, "caverns_well")["effects"][0]["success"] = json!([{"effect": "draw_item"}]);
    })
    .unwrap_err();
    let kind = ContentErrorKind::FeatureItem { item: None };
    assert_eq!(e.faults, [ContentFault::new("caverns/features.json", Some("caverns_well"), kind)]);
    let text = e.to_string();
    assert!(text.starts_with("caverns/features.json: caverns_well: a Feature cannot draw an Item"), "{text}");
}

/// "Some Features … provide Items with limited numbers of uses": a Feature
/// that gives an Item without uses is refused too; a Legendary Location may.
#[test]
fn a_feature_that_gives_an_unlimited_item_is_refused() {
    let e = fixture_with("ruins/features.json", |v| {
        feature(v, "ruins_cache")["effects"] = json!([{"effect": "gain_item", "item": "fighter_shield"}]);
    })
    .unwrap_err();
    let kind = ContentErrorKind::FeatureItem { item: Some("fighter_shield".into()) };
    assert_eq!(e.faults, [ContentFault::new("ruins/features.json", Some("ruins_cache"), kind)]);
    assert!(e.to_string().contains("\"fighter_shield\" has no uses"), "{e}");
    // Legendary Locations may give any Item, or draw one.
    fixture_with("ruins/legendary_locations.json", |v| {
        v["cards"][1]["effects"] = json!([{"effect": "gain_item", "item": "fighter_shield"}, {"effect": "draw_item"}]);
    })
    .unwrap_or_else(|e| panic!("{e}"));
}

/// Every fault is reported, not only the first: two bad cards in two files
/// are both named, with their files, cards and reasons.
#[test]
fn faults_in_two_files_are_all_reported() {
    let mut files = fixture_files();
    let mut edit = |file: &str, change: &dyn Fn(&mut Value)| {
        let text = &mut files.iter_mut().find(|(n, _)| n == file).unwrap().1;
        let mut value: Value = serde_json::from_str(text).unwrap();
        change(&mut value);
        *text = value.to_string();
    };
    edit("classes/rogue.json", &|v| v["items"][2]["hands"] = json!(3));
    edit("ruins/features.json", &|v| feature(v, "ruins_cache")["effects"][0]["item"] = json!("charn"));
    let refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let e = Content::from_files(&refs).unwrap_err();
    let unknown = ContentErrorKind::UnknownReference { what: "item", id: "charn".into() };
    assert_eq!(
        e.faults,
        [
            ContentFault::new(
                "classes/rogue.json",
                Some("rogue_pike"),
                ContentErrorKind::Invalid("at most 2 hands".into())
            ),
            ContentFault::new("ruins/features.json", Some("ruins_cache"), unknown),
        ]
    );
    assert_eq!(e.to_string().lines().count(), 2, "one line per fault: {e}");
}

/// Syntax errors in two files are both reported too (each file is parsed
/// even after another failed), with their lines.
#[test]
fn syntax_errors_in_two_files_are_all_reported() {
    let mut files: Vec<(&str, &str)> = BUILTIN_FILES.to_vec();
    for (name, text) in &mut files {
        if *name == "heroes.json" || *name == "subterranean/monsters.json" {
            *text = "{\n  \"oops\": ,\n}";
        }
    }
    let e = Content::from_files(&files).unwrap_err();
    let named: Vec<(&str, usize)> = e
        .faults
        .iter()
        .map(|f| match &f.kind {
            ContentErrorKind::Parse { line, .. } => (f.file.as_str(), *line),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(named, [("heroes.json", 2), ("subterranean/monsters.json", 2)], "{e}");
    assert!(!e.files_missing());
}

/// A file that does not parse does not hide the bad cards of the others:
/// the shipped file stands in for it while they are checked.
#[test]
fn a_syntax_error_does_not_hide_bad_cards_in_other_files() {
    let mut files: Vec<(String, String)> = BUILTIN_FILES.iter().map(|(n, t)| (n.to_string(), t.to_string())).collect();
    let mut edit = |file: &str, from: &str, to: &str| {
        let text = &mut files.iter_mut().find(|(n, _)| n == file).unwrap().1;
        assert!(text.contains(from), "{file}: {from}");
        *text = text.replacen(from, to, 1);
    };
    edit("classes/rogue.json", "\"hands\": 2", "\"hands\": 3");
    edit("ruins/monsters.json", "\"xp\": 2", "\"xp\": 40");
    edit("caverns/features.json", "\"name\"", "\"nmae\"");
    let refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let e = Content::from_files(&refs).unwrap_err();
    let named: Vec<(&str, Option<&str>, bool)> = e
        .faults
        .iter()
        .map(|f| (f.file.as_str(), f.card.as_deref(), matches!(f.kind, ContentErrorKind::Parse { .. })))
        .collect();
    assert_eq!(
        named,
        [
            ("caverns/features.json", None, true),
            ("classes/rogue.json", Some("rogue_twin_stilettos"), false),
            ("ruins/monsters.json", Some("withered_shade"), false),
        ],
        "{e}"
    );
}

/// "3. Doors — Blocks Movement until Unlocked": a Door keeps the Heroes from
/// whatever lies beyond it. Planted tiles whose Door blocks nothing (alone in
/// a room with one way in, or with the Chest it should guard beside it) are
/// refused, each named with its file and tile and the typed reason; the
/// shipped tiles, whose Chests lie beyond their Doors, pass.
#[test]
fn a_door_that_blocks_nothing_is_refused() {
    use depths_rules::map::{TileError, TileProblem};
    Content::builtin().unwrap_or_else(|e| panic!("{e}"));
    let mut files: Vec<(String, String)> = BUILTIN_FILES.iter().map(|(n, t)| (n.to_string(), t.to_string())).collect();
    let mut plant = |file: &str, from: &str, to: &str| {
        let text = &mut files.iter_mut().find(|(n, _)| n == file).unwrap().1;
        assert!(text.contains(from), "{file}: {from}");
        *text = text.replace(from, to);
    };
    let room = r#"{"type": "door"}]}, {"beyond_door": 0, "elements": [{"type": "chest"}]}]"#;
    // The Chest back beside the Door, in a one-way room and in a corridor.
    plant(
        "ruins/tiles.json",
        &format!(r#""exits": ["N"], "elements": [{room}"#),
        r#""exits": ["N"], "elements": [{"type": "door"}, {"type": "chest"}]}]"#,
    );
    plant(
        "caverns/tiles.json",
        &format!(r#""exits": ["E", "W"], "elements": [{room}"#),
        r#""exits": ["E", "W"], "elements": [{"type": "door"}, {"type": "chest"}]}]"#,
    );
    // A Door alone at the end of a room.
    plant(
        "subterranean/tiles.json",
        &format!(r#""exits": ["E"], "elements": [{room}"#),
        r#""exits": ["E"], "elements": [{"type": "door"}]}]"#,
    );
    let refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let e = Content::from_files(&refs).map(|_| ()).unwrap_err();
    let tile = |file: &str, id: &str, problem| {
        ContentFault::new(file, Some(id), ContentErrorKind::Tile(TileError { tile: id.into(), problem }))
    };
    assert_eq!(
        e.faults,
        vec![
            tile("ruins/tiles.json", "ruins-16", TileProblem::DoorBlocksNothing(0)),
            tile("caverns/tiles.json", "caverns-21", TileProblem::ChestBesideDoor(0)),
            tile("subterranean/tiles.json", "subterranean-17", TileProblem::DoorBlocksNothing(0)),
        ],
        "{e}"
    );
    assert!(
        e.to_string().contains("ruins/tiles.json: ruins-16: map tile \"ruins-16\": the Door in area 0 blocks nothing"),
        "{e}"
    );
}
