//! The tile in the tray, drawn exactly as it will look on the board: the
//! board's own art for that tile, turned as it is in hand, is rendered by a
//! small camera into an image that the tray shows. The camera only renders
//! while a tile waits in the tray (each camera pass costs the software
//! renderer several milliseconds a frame).

use bevy::{
    camera::{RenderTarget, visibility::RenderLayers},
    prelude::*,
    render::render_resource::TextureFormat,
};
use bevy_egui::{EguiTextureHandle, EguiUserTextures, egui};

use crate::{
    PlaySystems, board::tiles::TILE_SIZE, board::view::Tile, game::focus::TileInHand, game::screen::Screen,
    game::session::Delve,
};

/// The preview's own render layer: neither the board's nor the cards'.
pub const PREVIEW_LAYER: usize = 2;
/// Far from any board, so its tile never shows on the map.
const ORIGIN: Vec2 = Vec2::new(-60_000.0, -60_000.0);
/// The image's side, in pixels (the tray shows it at 100 points).
const SIDE: u32 = 200;

/// The tile drawn for the tray (board_art draws it like the ghost in hand).
#[derive(Component, Debug, Clone)]
pub struct TrayTile {
    pub tile: Tile,
}

/// The preview's camera.
#[derive(Component)]
struct TrayCamera;

/// The image the tray shows, and what it shows now.
#[derive(Resource, Debug, Default)]
pub struct TrayPreview {
    image: Handle<Image>,
    texture: Option<egui::TextureId>,
    /// The tile (its printed id) and turn drawn into the image.
    showing: Option<(String, u8)>,
}

impl TrayPreview {
    /// The picture of the tile in the tray, while one is drawn into it.
    pub fn texture(&self) -> Option<egui::TextureId> {
        self.showing.as_ref().and(self.texture)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TrayPreview>();
    app.add_systems(Startup, spawn_camera);
    app.add_systems(
        Update,
        (show_tile_in_hand, layer_new_pieces)
            .chain()
            .in_set(PlaySystems::Present)
            .run_if(in_state(Screen::Playing).and_then(resource_exists::<Delve>)),
    );
    app.add_systems(OnExit(Screen::Playing), stop);
}

fn spawn_camera(
    mut commands: Commands,
    mut images: ResMut<Assets<Image>>,
    mut preview: ResMut<TrayPreview>,
    mut textures: ResMut<EguiUserTextures>,
    adapter: Option<Res<bevy::render::renderer::RenderAdapter>>,
) {
    // Drawn through an sRGB view of a plain texture, which egui samples as
    // it should; OpenGL cannot view a texture as another format, so there
    // the texture is sRGB itself (a little darker in the tray).
    let views =
        adapter.is_none_or(|a| a.get_downlevel_capabilities().flags.contains(wgpu::DownlevelFlags::VIEW_FORMATS));
    let image = if views {
        Image::new_target_texture(SIDE, SIDE, TextureFormat::Rgba8Unorm, Some(TextureFormat::Rgba8UnormSrgb))
    } else {
        Image::new_target_texture(SIDE, SIDE, TextureFormat::Rgba8UnormSrgb, None)
    };
    let handle = images.add(image);
    preview.texture = Some(textures.add_image(EguiTextureHandle::Strong(handle.clone())));
    preview.image = handle.clone();
    // The tile plus its rim fill the image.
    let mut projection = OrthographicProjection::default_2d();
    projection.scale = (TILE_SIZE + 12.0) / SIDE as f32;
    commands.spawn((
        Name::new("Tray preview camera"),
        Camera2d,
        TrayCamera,
        Camera { order: -1, is_active: false, clear_color: ClearColorConfig::Custom(Color::NONE), ..default() },
        RenderTarget::Image(handle.into()),
        Projection::Orthographic(projection),
        Transform::from_translation(ORIGIN.extend(0.0)),
        RenderLayers::layer(PREVIEW_LAYER),
    ));
}

/// Draws the tile in hand, turned as it is, while it waits in the tray.
fn show_tile_in_hand(
    mut commands: Commands,
    delve: Res<Delve>,
    hand: Res<TileInHand>,
    mut preview: ResMut<TrayPreview>,
    mut camera: Single<&mut Camera, With<TrayCamera>>,
    shown: Query<Entity, With<TrayTile>>,
) {
    let in_tray = delve.tile_in_hand().filter(|_| hand.cell.is_none()).map(|(t, _)| t.clone());
    let wanted = in_tray.as_ref().map(|t| (t.id.clone(), hand.rotation.quarter_turns()));
    if wanted == preview.showing {
        return;
    }
    for e in &shown {
        commands.entity(e).despawn();
    }
    if let Some(printed) = &in_tray {
        let placement = depths_rules::map::Placement { cell: (0, 0), rotation: hand.rotation };
        commands.spawn((
            Name::new("Tile in the tray"),
            TrayTile { tile: Tile::from_printed(printed, placement) },
            Transform::from_translation(ORIGIN.extend(0.0)),
            Visibility::default(),
            RenderLayers::layer(PREVIEW_LAYER),
            DespawnOnExit(Screen::Playing),
        ));
    }
    camera.is_active = wanted.is_some();
    preview.showing = wanted;
}

/// The board's art spawns the tile's pieces as plain children: they join the
/// preview's layer, or the board's camera would draw them too.
fn layer_new_pieces(
    mut commands: Commands,
    tiles: Query<&Children, With<TrayTile>>,
    unlayered: Query<(), (With<Mesh2d>, Without<RenderLayers>)>,
) {
    for children in &tiles {
        for child in children.iter() {
            if unlayered.contains(child) {
                commands.entity(child).insert(RenderLayers::layer(PREVIEW_LAYER));
                // Reactive rendering: the preview's next frame must come now.
            }
        }
    }
}

fn stop(mut preview: ResMut<TrayPreview>, mut camera: Single<&mut Camera, With<TrayCamera>>) {
    preview.showing = None;
    camera.is_active = false;
}
