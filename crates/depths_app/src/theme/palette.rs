//! The game's colours, in one table: the egui panels and the sprites of the
//! board and the card table take them from here, so a colour is named and
//! valued once. Values are sRGB; `egui()` and `sprite()` give each side's type.

use bevy::color::Color;
use bevy_egui::egui::Color32;

/// One colour of the palette (sRGB, 0–1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tone {
    r: f32,
    g: f32,
    b: f32,
}

impl Tone {
    pub const fn rgb(r: f32, g: f32, b: f32) -> Tone {
        Tone { r, g, b }
    }

    /// From `0xRRGGBB`.
    pub const fn hex(rgb: u32) -> Tone {
        const fn channel(rgb: u32, shift: u32) -> f32 {
            ((rgb >> shift) & 0xff) as f32 / 255.0
        }
        Tone { r: channel(rgb, 16), g: channel(rgb, 8), b: channel(rgb, 0) }
    }

    /// For a sprite, a mesh or text on the table.
    pub const fn sprite(self) -> Color {
        Color::srgb(self.r, self.g, self.b)
    }

    /// For egui.
    pub const fn egui(self) -> Color32 {
        const fn byte(x: f32) -> u8 {
            (x * 255.0 + 0.5) as u8
        }
        Color32::from_rgb(byte(self.r), byte(self.g), byte(self.b))
    }
}

// The panels (egui).
/// Parchment-gold for titles.
pub const TITLE_GOLD: Tone = Tone::hex(0xE8C87A);
/// Secondary text.
pub const MUTED: Tone = Tone::hex(0xB8A88E);
/// Notices such as "not yet available".
pub const NOTICE: Tone = Tone::hex(0xF0A860);
/// A panel's frame.
pub const EDGE: Tone = Tone::hex(0x6B553A);
/// A good outcome (a win chance, Health kept).
pub const GOOD: Tone = Tone::hex(0x8FD17A);
/// A bad one (damage taken, a loss).
pub const BAD: Tone = Tone::hex(0xE05A4A);

// The board and the card table (sprites).
/// Behind everything: the table the game lies on.
pub const TABLE: Tone = Tone::rgb(0.085, 0.07, 0.06);
/// The Combat mat: dark felt, opaque, so the board under it rests.
pub const MAT: Tone = Tone::rgb(0.085, 0.075, 0.062);
/// Gold on the table: a card that may be played, a frame, a Key.
pub const CARD_GOLD: Tone = Tone::rgb(0.95, 0.78, 0.35);
/// Text on the table's cards.
pub const CARD_TEXT: Tone = Tone::rgb(0.96, 0.93, 0.86);
/// Secondary text on the table's cards.
pub const CARD_MUTED: Tone = Tone::rgb(0.72, 0.68, 0.60);
/// The party's edge: its felt, an empty Health space, a lit one, a lost one.
pub const FELT: Tone = Tone::rgb(0.13, 0.10, 0.08);
pub const SPACE: Tone = Tone::rgb(0.22, 0.18, 0.15);
pub const LIT: Tone = Tone::rgb(0.42, 0.30, 0.24);
pub const RED: Tone = Tone::rgb(0.78, 0.16, 0.14);
/// Damage and healing as they happen.
pub const HURT: Tone = Tone::rgb(1.0, 0.42, 0.32);
pub const HEAL: Tone = Tone::rgb(0.55, 0.9, 0.5);

// The map's tiles.
pub const WALL: Tone = Tone::hex(0x241e19);
pub const WALL_TOP: Tone = Tone::hex(0x4a3f34);
pub const RIM: Tone = Tone::hex(0x141009);
/// Parchment: the tokens on the map and the panels' map icons.
pub const PARCHMENT: Tone = Tone::hex(0xd9c9a3);
pub const TOKEN_RIM: Tone = Tone::hex(0x1e1812);
pub const RUNE: Tone = Tone::hex(0x6fe3ff);
/// Gold on the map: the Encountered slash, the placement hints.
pub const MAP_GOLD: Tone = Tone::hex(0xc9a24a);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sides_read_the_same_colour() {
        assert_eq!(TITLE_GOLD.egui(), Color32::from_rgb(0xE8, 0xC8, 0x7A));
        assert_eq!(PARCHMENT.sprite(), Color::srgb_u8(0xd9, 0xc9, 0xa3));
        assert_eq!(CARD_GOLD.sprite(), Color::srgb(0.95, 0.78, 0.35));
    }
}
