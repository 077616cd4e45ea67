//! The shipped content loads, validates and matches the rulebook's Components.

use depths_rules::Content;
use depths_rules::content::{BUILTIN_FILES, file_names};

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
    assert_eq!(e.file, "heroes.json");
    assert!(e.reason.contains("missing field"), "{e}");
    files.remove(i);
    let e = Content::from_files(&files).unwrap_err();
    assert_eq!(e.to_string(), "heroes.json: file is missing");
}

#[test]
fn missing_content_folder_names_the_file() {
    let e = Content::load_dir(std::path::Path::new("/nonexistent")).unwrap_err();
    assert_eq!(e.file, "heroes.json");
    assert!(e.reason.starts_with("cannot read"));
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
    assert_eq!(e.file, "caverns/features.json");
    assert!(e.reason.contains("crazed_bipedal_saurian"), "{e}");
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
