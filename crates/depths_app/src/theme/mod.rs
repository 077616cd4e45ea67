//! The look shared by every layer above: the egui style and its colours, the
//! fonts, the icons, and the textures drawn in code.

pub mod icons;
pub mod palette;
pub mod style;
pub mod textures;

use bevy::prelude::*;

pub(crate) fn desktop_plugin(app: &mut App) {
    app.add_plugins((style::plugin, icons::plugin));
}
