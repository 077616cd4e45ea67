//! What the players look at and click outside the board and the card
//! table: the screens (loading, menu, setup, lobby, playing), the egui
//! panels, the rules reference, icons, style, the window, sound.

pub mod icons;
pub mod panels;
pub(crate) mod redraw;
pub mod rules_ref;
pub mod screens;
pub mod sound;
pub(crate) mod ui_style;
pub(crate) mod window_icon;
pub mod window_scale;
