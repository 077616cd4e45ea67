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
