//! The cards and tiles as Bevy assets. Each `assets/content/**.json` file is a
//! [`JsonText`] asset; bevy_asset_loader collects them ([`ContentFiles`], its
//! list taken from the rules core's `file_names`) on the loading screen, and
//! [`assemble`] puts them together into the rules' [`Content`] once all are in.
//!
//! Hot reload for content authors (cargo feature `content-watch`, which turns
//! on bevy's file watcher): an edited file is loaded again, the whole content
//! is checked again, and new games use it; the game in progress takes the new
//! words of its cards (names, descriptions) but keeps its cards if anything
//! else changed (see `depths_rules::content_swap`). A bad edit is logged,
//! every fault of it, and the last good content stays.

use std::sync::Arc;

use bevy::{
    asset::{AssetLoader, LoadContext, io::Reader},
    prelude::*,
};
use bevy_asset_loader::prelude::*;
use depths_rules::{Content, ContentError};

use crate::{
    game::notices::Toast,
    game::session::{Delve, GameContent},
};

/// A JSON file's text and its path under the assets folder. The rules core
/// parses it, with the other files, so that one pass finds every fault in
/// every file (and the core stays free of Bevy); a file loads as long as it
/// is UTF-8 text.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct JsonText {
    /// As the asset server names it, e.g. `content/ruins/monsters.json`.
    pub path: String,
    pub text: String,
}

/// Reads `.json` files as [`JsonText`].
#[derive(Default, TypePath)]
pub struct JsonTextLoader;

impl AssetLoader for JsonTextLoader {
    type Asset = JsonText;
    type Settings = ();
    type Error = std::io::Error;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<JsonText, std::io::Error> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        let text = String::from_utf8(bytes)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, format!("not UTF-8 text ({e})")))?;
        Ok(JsonText { path: load_context.path().path().to_string_lossy().replace('\\', "/"), text })
    }

    fn extensions(&self) -> &[&str] {
        &["json"]
    }
}

/// The key of the content files in bevy_asset_loader's dynamic assets.
pub const CONTENT_KEY: &str = "content.files";

/// Where the content files live under the assets folder.
pub const CONTENT_DIR: &str = "content/";

/// Every content file, once loaded.
#[derive(AssetCollection, Resource)]
pub struct ContentFiles {
    #[asset(key = "content.files", collection(typed))]
    pub files: Vec<Handle<JsonText>>,
}

/// The content files' paths under the assets folder: the rules core's list,
/// so the game, its tests and the files shipped compiled-in never disagree.
pub fn content_paths() -> Vec<String> {
    depths_rules::content::file_names().into_iter().map(|n| format!("{CONTENT_DIR}{n}")).collect()
}

/// [`ContentFiles`]' list for bevy_asset_loader, from [`content_paths`].
#[derive(Debug)]
struct ContentFileList;

impl DynamicAsset for ContentFileList {
    fn load(&self, asset_server: &AssetServer) -> Vec<UntypedHandle> {
        content_paths().into_iter().map(|p| asset_server.load::<JsonText>(p).untyped()).collect()
    }

    fn build(&self, world: &mut World) -> Result<DynamicAssetType, anyhow::Error> {
        let server = world.resource::<AssetServer>();
        Ok(DynamicAssetType::Collection(
            content_paths().into_iter().map(|p| server.load::<JsonText>(p).untyped()).collect(),
        ))
    }
}

pub fn plugin(app: &mut App) {
    // Reload notices; registered here too, for this plugin used on its own (tests).
    app.add_message::<Toast>();
    app.init_asset::<JsonText>();
    app.init_asset_loader::<JsonTextLoader>();
    app.init_resource::<DynamicAssets>();
    app.world_mut().resource_mut::<DynamicAssets>().register_asset(CONTENT_KEY, Box::new(ContentFileList));
    app.add_systems(Update, reload_content.in_set(crate::PlaySystems::Input));
}

/// The rules' [`Content`] from the loaded files: every fault of every file,
/// each naming its file (as under `content/`) and card. A file that is not
/// loaded is reported missing.
pub fn assemble(files: &ContentFiles, texts: &Assets<JsonText>) -> Result<Content, ContentError> {
    let loaded: Vec<(&str, &str)> = files
        .files
        .iter()
        .filter_map(|h| texts.get(h))
        .map(|f| (f.path.strip_prefix(CONTENT_DIR).unwrap_or(&f.path), f.text.as_str()))
        .collect();
    Content::from_files(&loaded)
}

/// A content file changed on disk (the file watcher loaded it again): check
/// the whole content again and use it if it is good.
fn reload_content(
    mut changes: MessageReader<AssetEvent<JsonText>>,
    files: Option<Res<ContentFiles>>,
    texts: Res<Assets<JsonText>>,
    content: Option<ResMut<GameContent>>,
    delve: Option<ResMut<Delve>>,
    mut toast: MessageWriter<Toast>,
) {
    let (Some(files), Some(mut content)) = (files, content) else {
        changes.clear();
        return;
    };
    let ours = |id: &AssetId<JsonText>| files.files.iter().any(|h| h.id() == *id);
    let modified = changes.read().filter(|e| matches!(e, AssetEvent::Modified { id } if ours(id))).count() > 0;
    if !modified {
        return;
    }
    let note = apply_reload(assemble(&files, &texts), &mut content, delve.map(|d| d.into_inner()));
    toast.write(Toast(note));
}

/// Takes reloaded content: new games use it, and the game in progress (if
/// any) takes what it safely can. A bad reload changes nothing. Returns the
/// one-line note for the players; the details go to the log.
pub fn apply_reload(
    reloaded: Result<Content, ContentError>,
    content: &mut GameContent,
    delve: Option<&mut Delve>,
) -> String {
    let new = match reloaded {
        Ok(new) => new,
        Err(e) => {
            for fault in &e.faults {
                error!("content not reloaded: {CONTENT_DIR}{fault}");
            }
            let first = e.faults.first().map(|f| format!(": {CONTENT_DIR}{f}")).unwrap_or_default();
            return format!("Content not reloaded, {} fault(s){first}", e.faults.len());
        }
    };
    if new == content.0 {
        return "Content reloaded: nothing changed".into();
    }
    content.0 = new.clone();
    info!("content reloaded: new games use it");
    let Some(delve) = delve else { return "Content reloaded".into() };
    match delve.swap_content(Arc::new(new)) {
        Ok(cards) => {
            info!("content reloaded: {cards} card(s) of the game in progress have new words");
            format!("Content reloaded: {cards} card(s) updated")
        }
        Err(refused) => {
            warn!("content reloaded for new games only: {refused}");
            "Content reloaded for new games; this game keeps its cards (see the log)".into()
        }
    }
}
