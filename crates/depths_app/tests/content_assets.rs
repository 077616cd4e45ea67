//! The cards and tiles through Bevy's asset pipeline, headless: the content
//! files load as assets through bevy_asset_loader into the same Content as the
//! one compiled in; a bad folder names every fault with its file and card; a
//! reloaded file changes the words of the game in progress.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bevy::{prelude::*, state::app::StatesPlugin};
use bevy_asset_loader::prelude::*;
use depths_app::{
    game::content_assets::{self, ContentFiles, JsonText, assemble},
    game::session::{Delve, GameContent, Session},
};
use depths_rules::{Content, ContentErrorKind, Game, GameOptions, content::BUILTIN_FILES};

#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
enum Stage {
    #[default]
    Loading,
    Done,
    Failed,
}

/// Loads the content files from `assets` (a folder like the game's `assets/`)
/// through a loading state, as the game's loading screen does.
fn load_from(assets: &Path) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        StatesPlugin,
        AssetPlugin { file_path: assets.to_string_lossy().into_owned(), ..default() },
        content_assets::plugin,
    ));
    app.init_state::<Stage>();
    app.add_loading_state(
        LoadingState::new(Stage::Loading)
            .continue_to_state(Stage::Done)
            .on_failure_continue_to_state(Stage::Failed)
            .load_collection::<ContentFiles>(),
    );
    let start = Instant::now();
    while *app.world().resource::<State<Stage>>().get() == Stage::Loading {
        assert!(start.elapsed() < Duration::from_secs(60), "the content never finished loading");
        app.update();
        std::thread::sleep(Duration::from_millis(2));
    }
    app
}

fn stage(app: &App) -> Stage {
    *app.world().resource::<State<Stage>>().get()
}

fn assembled(app: &App) -> Result<Content, depths_rules::ContentError> {
    assemble(app.world().resource::<ContentFiles>(), app.world().resource::<Assets<JsonText>>())
}

/// A copy of the game's `assets/content/` in a fresh folder, `name`d.
fn content_copy(name: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("fd-content-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for (file, text) in BUILTIN_FILES {
        let path = root.join("content").join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    root
}

fn edit(root: &Path, file: &str, from: &str, to: &str) {
    let path = root.join("content").join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{file} has no {from}");
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn every_content_file_loads_as_an_asset_into_the_builtin_content() {
    let app = load_from(&depths_app::game::asset_folder::asset_root());
    assert_eq!(stage(&app), Stage::Done);
    let files = app.world().resource::<ContentFiles>();
    assert_eq!(files.files.len(), BUILTIN_FILES.len(), "one asset per file");
    let content = assembled(&app).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(content, Content::builtin().unwrap());
}

/// Two bad cards in two files: both are named, with file and card, and the
/// files are not taken for missing ones.
#[test]
fn a_malformed_folder_names_every_fault_with_its_file_and_card() {
    let root = content_copy("bad");
    edit(&root, "classes/rogue.json", "\"hands\": 2", "\"hands\": 3");
    edit(&root, "ruins/monsters.json", "\"xp\": 2", "\"xp\": 40");
    let app = load_from(&root);
    assert_eq!(stage(&app), Stage::Done, "bad cards still load as files");
    let e = assembled(&app).unwrap_err();
    let named: Vec<(&str, Option<&str>)> = e.faults.iter().map(|f| (f.file.as_str(), f.card.as_deref())).collect();
    assert_eq!(named.len(), 2, "{e}");
    assert!(named[0].0 == "classes/rogue.json" && named[0].1.is_some_and(|c| c.starts_with("rogue_")), "{e}");
    assert_eq!(named[1], ("ruins/monsters.json", Some("withered_shade")), "{e}");
    assert!(!e.files_missing());
    let _ = std::fs::remove_dir_all(root);
}

/// A file that is not there fails loading (the loading screen then names it
/// and suspects the folder).
#[test]
fn a_missing_content_file_fails_loading() {
    let root = content_copy("missing");
    std::fs::remove_file(root.join("content/caverns/features.json")).unwrap();
    let app = load_from(&root);
    assert_eq!(stage(&app), Stage::Failed);
    let _ = std::fs::remove_dir_all(root);
}

/// The content files as assets added by hand (as a file watcher's reload
/// would change them), a game in progress, and the reload system.
fn running_game() -> (App, Vec<Handle<JsonText>>) {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), content_assets::plugin));
    let mut texts = app.world_mut().resource_mut::<Assets<JsonText>>();
    let files: Vec<Handle<JsonText>> = BUILTIN_FILES
        .iter()
        .map(|(name, text)| texts.add(JsonText { path: format!("content/{name}"), text: text.to_string() }))
        .collect();
    app.insert_resource(ContentFiles { files: files.clone() });
    app.insert_resource(GameContent(Content::builtin().unwrap()));
    let game = Game::new(GameOptions::standard(&["bren", "sil"], 5), Content::builtin().unwrap()).unwrap();
    Session::new(game).insert_into(app.world_mut());
    app.update();
    (app, files)
}

/// Changes `file`'s text as a reload from disk would, and lets the app see it.
fn reload(app: &mut App, files: &[Handle<JsonText>], file: &str, from: &str, to: &str) {
    let i = BUILTIN_FILES.iter().position(|(n, _)| *n == file).unwrap();
    {
        let mut texts = app.world_mut().resource_mut::<Assets<JsonText>>();
        let mut asset = texts.get_mut(&files[i]).unwrap();
        assert!(asset.text.contains(from), "{file} has no {from}");
        asset.text = asset.text.replacen(from, to, 1);
    }
    for _ in 0..3 {
        app.update();
    }
}

fn shade_in(delve: &Delve) -> (String, String) {
    let a = delve.game().adventure.as_ref().unwrap();
    let card = a.content.ecologies[0].monsters.iter().find(|m| m.id == "withered_shade").unwrap();
    let copy = a.ecology.monsters.iter().find(|m| m.id == "withered_shade").expect("in the Monster deck");
    (card.name.clone(), copy.name.clone())
}

#[test]
fn a_reload_with_a_new_card_name_changes_the_card_in_the_running_game() {
    let (mut app, files) = running_game();
    let version = app.world().resource::<Delve>().version();
    reload(&mut app, &files, "ruins/monsters.json", "\"Withered Shade\"", "\"Wilted Shade\"");
    let delve = app.world().resource::<Delve>();
    assert_eq!(shade_in(delve), ("Wilted Shade".into(), "Wilted Shade".into()), "the content and the deck's copy");
    assert!(delve.version() > version, "the table redraws");
    let content = &app.world().resource::<GameContent>().0;
    assert_eq!(content.ecologies[0].monsters[0].name, "Wilted Shade", "new games too");
}

#[test]
fn a_bad_reload_keeps_the_last_good_content() {
    let (mut app, files) = running_game();
    reload(&mut app, &files, "ruins/monsters.json", "\"Withered Shade\"", "\"Withered Shade\",,");
    assert_eq!(app.world().resource::<GameContent>().0, Content::builtin().unwrap());
    let delve = app.world().resource::<Delve>();
    assert_eq!(shade_in(delve), ("Withered Shade".into(), "Withered Shade".into()));
    // And the faults are reported with the file (what the log shows).
    let texts = app.world().resource::<Assets<JsonText>>();
    let e = assemble(app.world().resource::<ContentFiles>(), texts).unwrap_err();
    assert_eq!(e.faults[0].file, "ruins/monsters.json");
    assert!(matches!(e.faults[0].kind, ContentErrorKind::Parse { .. }), "{e}");
}

/// A change to what a card does reaches new games, not the one in progress.
#[test]
fn a_reload_that_changes_the_rules_reaches_only_new_games() {
    let (mut app, files) = running_game();
    reload(&mut app, &files, "ruins/monsters.json", "\"xp\": 2", "\"xp\": 3");
    let new = &app.world().resource::<GameContent>().0;
    assert_eq!(new.ecologies[0].monsters[0].xp, 3, "new games use it");
    let delve = app.world().resource::<Delve>();
    let a = delve.game().adventure.as_ref().unwrap();
    assert_eq!(*a.content, Content::builtin().unwrap(), "the game in progress keeps its cards");
}
