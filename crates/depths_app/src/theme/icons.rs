//! Icons: white glyphs on transparent PNGs under `assets/icons/` (from the
//! Game Icons set, see `assets/LICENSES.md`), tinted where they are drawn.
//! `assets/icons/icons.json` says which icon goes with which Monster, class,
//! element… in groups: `{"monsters": {"withered_shade": "ghost"}, …}`.
//!
//! The folder loads on the loading screen through bevy_asset_loader
//! ([`IconFiles`]), and the icons are made before the menu comes up, so they
//! are there for the first frame that needs them (reactive rendering would
//! not redraw when a late icon arrived). Icons are decoration: an icon the
//! mapping names but the folder lacks, or a missing mapping, is logged and
//! the game is drawn without it. (A file that is there but cannot be decoded
//! fails loading with its name, like any asset.)

use std::{collections::HashMap, path::Path};

use bevy::{
    asset::RenderAssetUsages,
    image::{CompressedImageFormats, ImageSampler, ImageType},
    prelude::*,
    render::render_resource::TextureFormat,
};
use bevy_asset_loader::{mapped::AssetFileStem, prelude::*};
use bevy_egui::{EguiTextureHandle, EguiUserTextures, egui};

use crate::game::content_assets::JsonText;

/// The mapping file, under the assets folder.
pub const MAP_FILE: &str = "icons/icons.json";

/// group → key → icon name (a PNG's stem in `assets/icons/`).
pub type IconMap = HashMap<String, HashMap<String, String>>;

/// The icons that loaded, for sprites and for egui.
#[derive(Resource, Default, Debug)]
pub struct Icons {
    map: IconMap,
    images: HashMap<String, Handle<Image>>,
    textures: HashMap<String, egui::TextureId>,
}

/// The icon `map` gives `key` in `group`: its own, else the group's `"*"`
/// (every Item without one of its own is a bag).
pub fn icon_name<'a>(map: &'a IconMap, group: &str, key: &str) -> Option<&'a str> {
    let names = map.get(group)?;
    names.get(key).or_else(|| names.get("*")).map(String::as_str)
}

impl Icons {
    fn name(&self, group: &str, key: &str) -> Option<&str> {
        icon_name(&self.map, group, key)
    }

    /// The icon of `key` in `group` as an image for sprites.
    pub fn image(&self, group: &str, key: &str) -> Option<Handle<Image>> {
        self.images.get(self.name(group, key)?).cloned()
    }

    /// The icon of `key` in `group` as an egui image, `size` points square, tinted.
    pub fn egui(&self, group: &str, key: &str, size: f32, tint: egui::Color32) -> Option<egui::Image<'static>> {
        let id = *self.textures.get(self.name(group, key)?)?;
        Some(egui::Image::new(egui::load::SizedTexture::new(id, [size, size])).tint(tint))
    }

    /// Draws the icon (if there is one) at the start of a horizontal run.
    pub fn show(&self, ui: &mut egui::Ui, group: &str, key: &str, size: f32, tint: egui::Color32) {
        if let Some(image) = self.egui(group, key, size, tint) {
            ui.add(image);
        }
    }
}

/// The icons folder, loaded on the loading screen: every file in it by stem
/// (the PNGs, and `icons.json` as [`JsonText`]).
#[derive(AssetCollection, Resource)]
pub struct IconFiles {
    #[asset(path = "icons", collection(mapped))]
    pub files: bevy::platform::collections::HashMap<AssetFileStem, UntypedHandle>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Icons>();
    app.add_systems(Update, make_icons.in_set(crate::PlaySystems::Input).run_if(resource_added::<IconFiles>));
}

/// Makes the icons from the loaded folder (the loading screen waits for this).
pub(crate) fn make_icons(
    files: Res<IconFiles>,
    texts: Res<Assets<JsonText>>,
    mut icons: ResMut<Icons>,
    mut images: ResMut<Assets<Image>>,
    mut textures: ResMut<EguiUserTextures>,
) {
    let stem = MAP_FILE.trim_start_matches("icons/").trim_end_matches(".json");
    let text = files.files.get(stem).and_then(|h| texts.get(h.id().try_typed::<JsonText>().ok()?));
    let map = match text.map(|t| parse_map(&t.text)) {
        Some(Ok(map)) => map,
        Some(Err(e)) => {
            warn!("no icons: {MAP_FILE}: {e}");
            return;
        }
        None => {
            warn!("no icons: {MAP_FILE} is missing");
            return;
        }
    };
    let mut names: Vec<&String> = map.values().flat_map(|g| g.values()).collect();
    names.sort();
    names.dedup();
    for name in names {
        let handle = files.files.get(name.as_str()).and_then(|h| h.clone().try_typed::<Image>().ok());
        let Some((handle, image)) = handle.and_then(|h| Some((h.clone(), images.get(&h)?))) else {
            warn!("icon icons/{name}.png is missing: drawn without it");
            continue;
        };
        // egui blends premultiplied colours, sprites straight ones: one copy each.
        let premultiplied = premultiplied(image);
        let for_egui = images.add(premultiplied);
        let id = textures.add_image(EguiTextureHandle::Strong(for_egui));
        icons.images.insert(name.clone(), handle);
        icons.textures.insert(name.clone(), id);
    }
    icons.map = map;
}

/// Reads the mapping file.
pub fn read_map(path: &Path) -> Result<IconMap, String> {
    parse_map(&std::fs::read_to_string(path).map_err(|e| e.to_string())?)
}

/// Reads the mapping from its text.
pub fn parse_map(text: &str) -> Result<IconMap, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let Some(groups) = value.as_object() else { return Err("expected an object of groups".into()) };
    let mut map = IconMap::new();
    for (group, entries) in groups {
        // Anything that is not a group of names (a comment, say) is skipped.
        let Some(entries) = entries.as_object() else { continue };
        let names = entries.iter().filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned()))).collect();
        map.insert(group.clone(), names);
    }
    Ok(map)
}

/// A copy with each pixel's colour multiplied by its alpha, as egui expects
/// (a straight white glyph would otherwise paint its transparent background).
pub fn premultiplied(image: &Image) -> Image {
    let mut out = image.convert(TextureFormat::Rgba8UnormSrgb).unwrap_or_else(|| image.clone());
    if let Some(data) = out.data.as_mut() {
        for px in data.chunks_exact_mut(4) {
            let a = u16::from(px[3]);
            for c in &mut px[..3] {
                *c = (u16::from(*c) * a / 255) as u8;
            }
        }
    }
    out
}

/// Decodes a PNG file into an image usable by sprites and egui.
pub fn decode_png(path: &Path) -> Result<Image, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    Image::from_buffer(
        &bytes,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::linear(),
        RenderAssetUsages::default(),
    )
    .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every icon the mapping names exists and decodes.
    #[test]
    fn every_mapped_icon_decodes() {
        let dir = crate::game::asset_folder::asset_root().join("icons");
        let map = read_map(&dir.join("icons.json")).expect("icons.json");
        assert!(map.get("monsters").is_some_and(|m| !m.is_empty()), "no monster icons");
        for (group, names) in &map {
            for (key, name) in names {
                let image = decode_png(&dir.join(format!("{name}.png")));
                assert!(image.is_ok(), "{group}.{key} → {name}.png: {:?}", image.err());
            }
        }
        assert!(decode_png(&dir.join("app.png")).is_ok(), "the window icon");
    }

    #[test]
    fn premultiplying_clears_transparent_pixels() {
        let straight = Image::new_fill(
            bevy::render::render_resource::Extent3d { width: 2, height: 1, depth_or_array_layers: 1 },
            bevy::render::render_resource::TextureDimension::D2,
            &[255, 255, 255, 0],
            TextureFormat::Rgba8UnormSrgb,
            RenderAssetUsages::default(),
        );
        let mut straight = straight;
        straight.data.as_mut().unwrap()[4..8].copy_from_slice(&[255, 255, 255, 128]);
        let out = premultiplied(&straight);
        assert_eq!(out.data.as_deref().unwrap(), &[0, 0, 0, 0, 128, 128, 128, 128]);
    }

    /// An Item is drawn as what it is where the set has it (the Dented Pot
    /// Helm as a helm, not the bag every other Item gets).
    #[test]
    fn an_item_has_its_own_icon_or_the_bag() {
        let map = read_map(&crate::game::asset_folder::asset_root().join(MAP_FILE)).expect("icons.json");
        assert_eq!(icon_name(&map, "items", "fighter_pot_helm"), Some("visored_helm"));
        assert_eq!(icon_name(&map, "items", "fighter_tower_shield"), Some("shield"));
        assert_eq!(icon_name(&map, "items", "flash_powder"), Some("bag"));
        assert_eq!(icon_name(&map, "ui", "no_such_symbol"), None, "only a group with a \"*\" falls back");
    }

    /// Every Monster in the shipped content has an icon.
    #[test]
    fn every_monster_has_an_icon() {
        let map = read_map(&crate::game::asset_folder::asset_root().join(MAP_FILE)).expect("icons.json");
        let content = depths_rules::Content::builtin().expect("content");
        let monsters = map.get("monsters").cloned().unwrap_or_default();
        let missing: Vec<&str> = content
            .ecologies
            .iter()
            .flat_map(|e| e.monsters.iter().chain(e.stair_guardians.iter()))
            .map(|m| m.id.as_str())
            .filter(|id| !monsters.contains_key(*id))
            .collect();
        assert!(missing.is_empty(), "Monsters without an icon: {missing:?}");
    }
}
