//! The window's icon (`assets/icons/app.png`). Bevy has no icon setting, so
//! the icon goes to the winit window itself, on the main thread, once the
//! window exists. A missing or unreadable icon is logged and skipped: the game
//! plays on with the platform's default icon.

use bevy::{
    ecs::system::NonSendMarker, prelude::*, render::render_resource::TextureFormat, window::PrimaryWindow,
    winit::WINIT_WINDOWS,
};

/// The icon file, under the assets folder.
pub const ICON_FILE: &str = "icons/app.png";

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, set_window_icon);
}

fn set_window_icon(
    _main_thread: NonSendMarker,
    window: Query<Entity, With<PrimaryWindow>>,
    mut icon: Local<Option<Result<winit::window::Icon, String>>>,
    mut done: Local<bool>,
) {
    if *done {
        return;
    }
    let Ok(entity) = window.single() else { return };
    let path = crate::game::asset_folder::asset_root().join(ICON_FILE);
    match icon.get_or_insert_with(|| read_icon(&path)) {
        Ok(icon) => {
            let icon = icon.clone();
            WINIT_WINDOWS.with_borrow(|windows| {
                if let Some(window) = windows.get_window(entity) {
                    window.set_window_icon(Some(icon));
                    *done = true;
                }
            });
        }
        Err(e) => {
            warn!("no window icon: {}: {e}", path.display());
            *done = true;
        }
    }
}

/// Reads a PNG into the RGBA pixels winit wants.
fn read_icon(path: &std::path::Path) -> Result<winit::window::Icon, String> {
    let (rgba, width, height) = read_rgba(path)?;
    winit::window::Icon::from_rgba(rgba, width, height).map_err(|e| e.to_string())
}

fn read_rgba(path: &std::path::Path) -> Result<(Vec<u8>, u32, u32), String> {
    let image = crate::theme::icons::decode_png(path)?;
    let rgba = image.convert(TextureFormat::Rgba8UnormSrgb).ok_or("cannot convert to RGBA")?;
    let (width, height) = (rgba.width(), rgba.height());
    let data = rgba.data.ok_or("no pixels")?;
    Ok((data, width, height))
}
