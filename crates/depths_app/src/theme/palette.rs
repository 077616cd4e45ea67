//! The game's colours, in one table: the egui panels and the sprites of the
//! board and the card table take them from here, so a colour is named and
//! valued once. Values are sRGB; `egui()` and `sprite()` give each side's type.

use bevy::color::Color;
use bevy_egui::egui::Color32;
use std::sync::atomic::{AtomicU8, Ordering};

use crate::game::settings::Vision;

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

    /// For a sprite, see-through by `alpha` (0–1).
    pub const fn sprite_alpha(self, alpha: f32) -> Color {
        Color::srgba(self.r, self.g, self.b, alpha)
    }

    /// For egui.
    pub const fn egui(self) -> Color32 {
        Color32::from_rgb(byte(self.r), byte(self.g), byte(self.b))
    }

    /// For egui, see-through by `alpha` (0–255, not premultiplied).
    pub fn egui_alpha(self, alpha: u8) -> Color32 {
        Color32::from_rgba_unmultiplied(byte(self.r), byte(self.g), byte(self.b), alpha)
    }
}

impl Tone {
    /// `self` moved `t` (0–1) of the way to `other`.
    pub const fn mix(self, other: Tone, t: f32) -> Tone {
        Tone {
            r: self.r + (other.r - self.r) * t,
            g: self.g + (other.g - self.g) * t,
            b: self.b + (other.b - self.b) * t,
        }
    }
}

const fn byte(x: f32) -> u8 {
    (x * 255.0 + 0.5) as u8
}

/// Black: shadows, ink on gold, the veil under a reveal.
pub const BLACK: Tone = Tone::rgb(0.0, 0.0, 0.0);

// The panels (egui).
/// Parchment-gold for titles.
pub const TITLE_GOLD: Tone = Tone::hex(0xE8C87A);
/// Secondary text.
pub const MUTED: Tone = Tone::hex(0xB8A88E);
/// A panel's frame.
pub const EDGE: Tone = Tone::hex(0x6B553A);
/// The panels' text, and the map's lettering.
pub const TEXT: Tone = Tone::hex(0xE6DBC8);
/// A panel's fill: the table's dark, nearly opaque (premultiplied).
pub const PANEL: Color32 = Color32::from_rgba_premultiplied(0x1A, 0x15, 0x11, 0xF0);
/// A button at rest, under the pointer, pressed; also the tile tray's well.
pub const WIDGET: Tone = Tone::hex(0x3A2E22);
pub const WIDGET_HOVER: Tone = Tone::hex(0x5A442C);
pub const WIDGET_PRESSED: Tone = Tone::hex(0x725634);
/// The hover box over the table.
pub const POPUP: Tone = Tone::hex(0x1E1914);
/// The "Pass to …" curtain.
pub const CURTAIN: Tone = Tone::hex(0x14100C);
/// An XP card in the party panel.
pub const XP_CARD: Tone = Tone::hex(0x3A301C);
/// A paragraph of the rulebook that matches the search.
pub const SEARCH_HIT: Tone = Tone::hex(0x4A3A18);

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
/// A revealed card's kind and lore: lighter than `CARD_MUTED`, to read on
/// the coloured faces of revealed cards.
pub const CARD_LORE: Tone = Tone::rgb(0.84, 0.80, 0.72);
/// The party's edge: its felt, an empty Health space, a lit one, a lost one.
pub const FELT: Tone = Tone::rgb(0.13, 0.10, 0.08);
pub const SPACE: Tone = Tone::rgb(0.22, 0.18, 0.15);
pub const LIT: Tone = Tone::rgb(0.42, 0.30, 0.24);
pub const RED: Tone = Tone::rgb(0.78, 0.16, 0.14);
/// The table's wood under the board, dimmed so the board stands out.
pub const TABLE_DIM: Tone = Tone::rgb(0.62, 0.62, 0.62);
/// A pair's face on the table (see-through a little).
pub const CARD_FACE: Tone = Tone::rgb(0.08, 0.07, 0.06);
/// The end-of-fight banner's ground.
pub const BANNER_GROUND: Tone = Tone::rgb(0.09, 0.075, 0.06);
/// The XP card's inner face on the party's edge.
pub const XP_FACE: Tone = Tone::rgb(0.30, 0.24, 0.12);
/// The table's cards by kind: ground and edge.
/// A Hero's cards by class: (face, frame). Unknown classes take the Hero's.
pub fn class_tones(class: &str) -> (Tone, Tone) {
    match class {
        "fighter" => (FIGHTER_CARD, FIGHTER_EDGE),
        "wizard" => (WIZARD_CARD, WIZARD_EDGE),
        "rogue" => (ROGUE_CARD, ROGUE_EDGE),
        _ => (HERO_CARD, HERO_EDGE),
    }
}

/// The classes' colours: Fighter steel blue, Wizard violet, Rogue green.
pub const FIGHTER_CARD: Tone = Tone::rgb(0.17, 0.24, 0.36);
pub const FIGHTER_EDGE: Tone = Tone::rgb(0.60, 0.76, 0.96);
pub const WIZARD_CARD: Tone = Tone::rgb(0.22, 0.17, 0.38);
pub const WIZARD_EDGE: Tone = Tone::rgb(0.72, 0.62, 0.98);
pub const ROGUE_CARD: Tone = Tone::rgb(0.12, 0.26, 0.21);
pub const ROGUE_EDGE: Tone = Tone::rgb(0.50, 0.86, 0.64);

pub const HERO_CARD: Tone = Tone::rgb(0.20, 0.28, 0.42);
pub const HERO_EDGE: Tone = Tone::rgb(0.55, 0.72, 0.95);
pub const MONSTER_CARD: Tone = Tone::rgb(0.33, 0.13, 0.11);
pub const MONSTER_EDGE: Tone = Tone::rgb(0.92, 0.45, 0.38);
pub const ECOLOGY_CARD: Tone = Tone::rgb(0.33, 0.27, 0.14);
pub const ECOLOGY_EDGE: Tone = Tone::rgb(0.91, 0.76, 0.42);
/// A plain edge (a pair, a label), a dimmed one, the chosen one.
pub const PLAIN_EDGE: Tone = Tone::rgb(0.45, 0.40, 0.33);
pub const DIM_EDGE: Tone = Tone::rgb(0.35, 0.32, 0.28);
/// The words of a pair that no longer counts (its frame is `DIM_EDGE`,
/// too dark to read words in).
pub const DIM_TEXT: Tone = Tone::rgb(0.58, 0.54, 0.48);
pub const CHOSEN_EDGE: Tone = Tone::rgb(1.0, 0.92, 0.55);
/// A Health track's back (its fill by what is left is a `Signals` colour).
pub const BAR_BACK: Tone = Tone::rgb(0.12, 0.10, 0.09);
/// The hint's frame around a card: a cold white, not the gold every card
/// on offer wears (a hinted card differed only by a slightly thicker rim).
pub const HINT: Tone = Tone::rgb(0.80, 0.97, 1.0);

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
/// The map's pieces, shared by the board's art and the panels' glyphs.
pub const CRIMSON: Tone = Tone::hex(0xb3261e);
pub const RUNE_DEEP: Tone = Tone::hex(0x1b5f7a);
pub const LANTERN_GLOW: Tone = Tone::hex(0xffd86b);
pub const LANTERN_GOLD: Tone = Tone::hex(0xf2c14e);
pub const DARK_WOOD: Tone = Tone::hex(0x5b3a1e);

// The panels' glyphs of the map's elements (theme/style.rs).
pub const FEATURE_TEAL: Tone = Tone::hex(0x2A7F8F);
pub const FEATURE_PUPIL: Tone = Tone::hex(0x102024);
pub const DOOR_WOOD: Tone = Tone::hex(0x7A4A22);
pub const CHEST_WOOD: Tone = Tone::hex(0x8A5A2B);
pub const CHEST_LID: Tone = Tone::hex(0x5E3A1C);
pub const CHEST_LOCK: Tone = Tone::hex(0xD4A017);
pub const FLAME: Tone = Tone::hex(0xE8731C);
pub const FLAME_CORE: Tone = Tone::hex(0xFFD23F);
pub const STAIR_STONE: Tone = Tone::hex(0x55585F);
pub const LANTERN_BODY: Tone = Tone::hex(0x2D3340);
pub const LANTERN_LIGHT: Tone = Tone::hex(0xFFF6D5);
/// A Secret Passage's dark archway and violet keyhole.
pub const PASSAGE_DARK: Tone = Tone::hex(0x120c18);
pub const PASSAGE_VIOLET: Tone = Tone::hex(0xa678e0);
/// A Warp Portal's rings, outside in.
pub const PORTAL_RINGS: [Tone; 4] =
    [Tone::hex(0x2b1a52), Tone::hex(0x7a4fd6), Tone::hex(0x2b1a52), Tone::hex(0xd9c7ff)];

/// The panels' ground as it is seen over the dark table (`PANEL` is nearly opaque).
pub const PANEL_GROUND: Tone = Tone::hex(0x1A1511);

/// A Hero mat's ground: the panel's, tinted with the class's card colour.
pub const fn mat_ground(class_card: Tone) -> Tone {
    PANEL_GROUND.mix(class_card, 0.3)
}

/// Every colour words are written in, on each ground they are read on (and
/// `Signals::words`, each palette's). Each pair must reach 4.5 : 1, the
/// contrast WCAG asks of body text; the test below measures them all.
pub const WORDS_ON_GROUNDS: &[(&str, Tone, Tone)] = &[
    ("text on a panel", TEXT, PANEL_GROUND),
    ("text on a button", TEXT, WIDGET),
    ("text on a hovered button", TEXT, WIDGET_HOVER),
    ("text on a pressed button", TEXT, WIDGET_PRESSED),
    ("text in a pop-up", TEXT, POPUP),
    ("text on the curtain", TEXT, CURTAIN),
    ("text on an XP card", TEXT, XP_CARD),
    ("text on a search hit", TEXT, SEARCH_HIT),
    ("muted text on a panel", MUTED, PANEL_GROUND),
    ("muted text in a pop-up", MUTED, POPUP),
    ("muted text on a button", MUTED, WIDGET),
    ("a title on a panel", TITLE_GOLD, PANEL_GROUND),
    ("a title in a pop-up", TITLE_GOLD, POPUP),
    ("a title on the banner", TITLE_GOLD, BANNER_GROUND),
    ("text on a Fighter's mat", TEXT, mat_ground(FIGHTER_CARD)),
    ("text on a Wizard's mat", TEXT, mat_ground(WIZARD_CARD)),
    ("text on a Rogue's mat", TEXT, mat_ground(ROGUE_CARD)),
    ("muted text on a Fighter's mat", MUTED, mat_ground(FIGHTER_CARD)),
    ("muted text on a Wizard's mat", MUTED, mat_ground(WIZARD_CARD)),
    ("muted text on a Rogue's mat", MUTED, mat_ground(ROGUE_CARD)),
    ("a name on a Fighter's mat", TITLE_GOLD, mat_ground(FIGHTER_CARD)),
    ("a Monster card's words", CARD_TEXT, MONSTER_CARD),
    ("a Monster card's name", CARD_GOLD, MONSTER_CARD),
    ("a Monster card's print", CARD_MUTED, MONSTER_CARD),
    ("a Fighter's card", CARD_TEXT, FIGHTER_CARD),
    ("a Wizard's card", CARD_TEXT, WIZARD_CARD),
    ("a Rogue's card", CARD_TEXT, ROGUE_CARD),
    ("another Hero's card", CARD_TEXT, HERO_CARD),
    ("'Passive' on a Fighter's Ability card", CARD_LORE, FIGHTER_CARD),
    ("'Passive' on a Wizard's Ability card", CARD_LORE, WIZARD_CARD),
    ("'Passive' on a Rogue's Ability card", CARD_LORE, ROGUE_CARD),
    ("'Passive' on an Item card", CARD_LORE, HERO_CARD),
    ("a turned-down card on a mat", MUTED, MAT),
    ("a Feature card", CARD_TEXT, ECOLOGY_CARD),
    ("a revealed Feature's kind and lore", CARD_LORE, ECOLOGY_CARD),
    ("a revealed Monster's kind and lore", CARD_LORE, MONSTER_CARD),
    ("a revealed Feature's name", CARD_GOLD, ECOLOGY_CARD),
    ("a revealed Item's kind and lore", CARD_LORE, HERO_CARD),
    ("a revealed Item's name", CARD_GOLD, HERO_CARD),
    ("a Hero's name over the pairs", CARD_MUTED, MAT),
    ("an empty pair's 'play here'", CARD_MUTED, CARD_FACE),
    ("a pair's damage", CARD_TEXT, CARD_FACE),
    ("a chosen pair", CHOSEN_EDGE, CARD_FACE),
    ("a pair not yet decided", CARD_MUTED, CARD_FACE),
    ("a pair that no longer counts", DIM_TEXT, CARD_FACE),
    ("a number key's badge", BLACK, CARD_GOLD),
    ("Health on its track", CARD_TEXT, BAR_BACK),
    ("a defeated individual", CARD_GOLD, BANNER_GROUND),
];

/// How much lighter the lighter of two colours is (WCAG 2's contrast
/// ratio, from 1 : 1 to 21 : 1).
pub fn contrast(a: Tone, b: Tone) -> f32 {
    let luminance = |t: Tone| 0.2126 * linear(t.r) + 0.7152 * linear(t.g) + 0.0722 * linear(t.b);
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// The colours that carry a meaning on their own, chosen for the player's
/// colour vision (⚙ Settings): each group of them must be told apart by a
/// player with that vision (the tests simulate it). Each meaning is also
/// told in words or by shape (a pair's outcome is written on it, Health has
/// its numbers, damage its sign), so colour only makes it quicker to read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Signals {
    /// A pair's outcome: the Hero hits, the Monster hits, a Block.
    pub hero_hits: Tone,
    pub monster_hits: Tone,
    pub block: Tone,
    /// News on the panels: good (a win chance, Health kept), a notice ("not
    /// yet available"), bad (damage taken, a loss).
    pub good: Tone,
    pub notice: Tone,
    pub bad: Tone,
    /// A Health track's fill: more than half left, more than a quarter, less.
    pub healthy: Tone,
    pub wounded: Tone,
    pub dying: Tone,
    /// Damage and healing as they happen.
    pub hurt: Tone,
    pub heal: Tone,
}

impl Signals {
    pub const fn of(vision: Vision) -> Signals {
        match vision {
            Vision::Typical => Signals {
                hero_hits: Tone::rgb(0.56, 0.82, 0.48),
                monster_hits: Tone::rgb(0.88, 0.35, 0.29),
                block: CARD_GOLD,
                good: Tone::hex(0x8FD17A),
                notice: Tone::hex(0xF0A860),
                bad: Tone::hex(0xEA6A56),
                healthy: Tone::rgb(0.40, 0.62, 0.34),
                wounded: Tone::rgb(0.85, 0.62, 0.25),
                dying: Tone::rgb(0.75, 0.25, 0.20),
                hurt: Tone::rgb(1.0, 0.42, 0.32),
                heal: Tone::rgb(0.55, 0.9, 0.5),
            },
            // Blue against orange, with yellow between: the pairs Okabe and
            // Ito's palette keeps apart for red-green colour vision.
            Vision::RedGreen => Signals {
                hero_hits: Tone::hex(0x6CB8F0),
                monster_hits: Tone::hex(0xE8762E),
                block: Tone::hex(0xF0E442),
                good: Tone::hex(0x6CB8F0),
                notice: Tone::hex(0xF0E442),
                bad: Tone::hex(0xE8762E),
                healthy: Tone::hex(0x3D7FC0),
                wounded: Tone::hex(0xD8C23A),
                dying: Tone::hex(0xC0561C),
                hurt: Tone::hex(0xF08040),
                heal: Tone::hex(0x7CC4F8),
            },
            // Teal against rose, with white between: blue-yellow colour
            // vision keeps red from green-blue.
            Vision::BlueYellow => Signals {
                hero_hits: Tone::hex(0x4FC8C0),
                monster_hits: Tone::hex(0xF06A7A),
                block: Tone::hex(0xF2F2F2),
                good: Tone::hex(0x4FC8C0),
                notice: Tone::hex(0xF2F2F2),
                bad: Tone::hex(0xF06A7A),
                healthy: Tone::hex(0x2F8F88),
                wounded: Tone::hex(0xB8B8B8),
                dying: Tone::hex(0xC03850),
                hurt: Tone::hex(0xF06A7A),
                heal: Tone::hex(0x60D8D0),
            },
        }
    }

    /// The groups whose colours must be told apart from each other.
    pub fn groups(&self) -> [(&'static str, Vec<(&'static str, Tone)>); 4] {
        [
            (
                "a pair's outcome",
                vec![("Hero Hit", self.hero_hits), ("Monster Hit", self.monster_hits), ("Block", self.block)],
            ),
            ("news on a panel", vec![("good", self.good), ("notice", self.notice), ("bad", self.bad)]),
            ("Health left", vec![("healthy", self.healthy), ("wounded", self.wounded), ("dying", self.dying)]),
            ("Health changing", vec![("damage", self.hurt), ("healing", self.heal)]),
        ]
    }

    /// The words written in these colours, on their grounds (as `WORDS_ON_GROUNDS`).
    pub fn words(&self) -> [(&'static str, Tone, Tone); 11] {
        [
            ("a notice on a panel", self.notice, PANEL_GROUND),
            ("good news on a panel", self.good, PANEL_GROUND),
            ("bad news on a panel", self.bad, PANEL_GROUND),
            ("bad news on a Fighter's mat", self.bad, mat_ground(FIGHTER_CARD)),
            ("bad news on a Wizard's mat", self.bad, mat_ground(WIZARD_CARD)),
            ("bad news on a Rogue's mat", self.bad, mat_ground(ROGUE_CARD)),
            ("a Block", self.block, CARD_FACE),
            ("a Hero Hit", self.hero_hits, CARD_FACE),
            ("a Monster Hit", self.monster_hits, CARD_FACE),
            ("damage floating up", self.hurt, BANNER_GROUND),
            ("healing floating up", self.heal, BANNER_GROUND),
        ]
    }
}

/// The vision the game's colours follow now (`Settings::vision`, set by the
/// Settings window): one switch for every painter, panels and table alike.
static VISION: AtomicU8 = AtomicU8::new(0);

pub fn set_vision(vision: Vision) {
    VISION.store(vision_index(vision), Ordering::Relaxed);
}

pub fn vision() -> Vision {
    vision_at(VISION.load(Ordering::Relaxed))
}

fn vision_index(vision: Vision) -> u8 {
    Vision::ALL.iter().position(|v| *v == vision).map_or(0, |i| i as u8)
}

fn vision_at(index: u8) -> Vision {
    Vision::ALL.get(usize::from(index)).copied().unwrap_or_default()
}

/// A Health track's colour by how full it is, from `[more than half left,
/// more than a quarter, less]`: the table's tracks and the mats' bars step
/// at the same points.
pub fn by_health<T>(fraction: f32, [healthy, wounded, dying]: [T; 3]) -> T {
    if fraction > 0.5 {
        healthy
    } else if fraction > 0.25 {
        wounded
    } else {
        dying
    }
}

/// The signal colours of the vision chosen now.
pub fn signals() -> Signals {
    Signals::of(vision())
}

/// How far apart two colours look to a player with `vision`'s deficiency
/// at its strongest: each is simulated (Machado, Oliveira and Fernandes
/// 2009, severity 1, on linear RGB) and the distance taken in CIELAB (ΔE
/// 1976; about 2.3 is the least a person notices, 20 reads at a glance).
pub fn seen_distance(a: Tone, b: Tone, deficiency: Deficiency) -> f32 {
    let (la, lb) = (deficiency.simulate(a).lab(), deficiency.simulate(b).lab());
    ((la[0] - lb[0]).powi(2) + (la[1] - lb[1]).powi(2) + (la[2] - lb[2]).powi(2)).sqrt()
}

/// The least `seen_distance` between two colours of a group: told apart at a glance.
pub const GLANCE: f32 = 20.0;

/// A colour-vision deficiency to simulate (dichromacy: one kind of cone missing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deficiency {
    None,
    Deuteranopia,
    Protanopia,
    Tritanopia,
}

impl Deficiency {
    pub const ALL: [Deficiency; 4] =
        [Deficiency::None, Deficiency::Deuteranopia, Deficiency::Protanopia, Deficiency::Tritanopia];

    /// Machado et al.'s matrix for linear RGB.
    const fn matrix(self) -> [[f32; 3]; 3] {
        match self {
            Deficiency::None => [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            Deficiency::Deuteranopia => [
                [0.367_322, 0.860_646, -0.227_968],
                [0.280_085, 0.672_501, 0.047_413],
                [-0.011_820, 0.042_940, 0.968_881],
            ],
            Deficiency::Protanopia => [
                [0.152_286, 1.052_583, -0.204_868],
                [0.114_503, 0.786_281, 0.099_216],
                [-0.003_882, -0.048_116, 1.051_998],
            ],
            Deficiency::Tritanopia => [
                [1.255_528, -0.076_749, -0.178_779],
                [-0.078_411, 0.930_809, 0.147_602],
                [0.004_733, 0.691_367, 0.303_900],
            ],
        }
    }

    /// `tone` as a player with this deficiency sees it (in linear RGB).
    fn simulate(self, tone: Tone) -> Linear {
        let rgb = [linear(tone.r), linear(tone.g), linear(tone.b)];
        let m = self.matrix();
        let row = |i: usize| (m[i][0] * rgb[0] + m[i][1] * rgb[1] + m[i][2] * rgb[2]).clamp(0.0, 1.0);
        Linear([row(0), row(1), row(2)])
    }
}

/// A colour in linear RGB.
struct Linear([f32; 3]);

impl Linear {
    /// CIELAB (D65).
    fn lab(&self) -> [f32; 3] {
        let [r, g, b] = self.0;
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.950_47;
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.088_83;
        let f = |t: f32| if t > 216.0 / 24389.0 { t.cbrt() } else { (24389.0 / 27.0 * t + 16.0) / 116.0 };
        let (fx, fy, fz) = (f(x), f(y), f(z));
        [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
    }
}

/// sRGB to linear light.
fn linear(c: f32) -> f32 {
    if c <= 0.040_45 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_sides_read_the_same_colour() {
        assert_eq!(TITLE_GOLD.egui(), Color32::from_rgb(0xE8, 0xC8, 0x7A));
        assert_eq!(PARCHMENT.sprite(), Color::srgb_u8(0xd9, 0xc9, 0xa3));
        assert_eq!(CARD_GOLD.sprite(), Color::srgb(0.95, 0.78, 0.35));
    }

    /// Every colour words are written in reads on its ground at 4.5 : 1 or
    /// more (the table of them is printed with `--nocapture`).
    #[test]
    fn words_reach_4_5_to_1_on_their_grounds() {
        assert!((contrast(BLACK, Tone::rgb(1.0, 1.0, 1.0)) - 21.0).abs() < 0.01);
        assert!((contrast(TEXT, TEXT) - 1.0).abs() < 0.001);
        let mut low = Vec::new();
        let signals = Vision::ALL.map(|v| (v, Signals::of(v).words()));
        let all = WORDS_ON_GROUNDS
            .iter()
            .map(|w| (None, *w))
            .chain(signals.iter().flat_map(|(v, words)| words.iter().map(move |w| (Some(v.name()), *w))));
        for (vision, (what, ink, ground)) in all {
            let ratio = contrast(ink, ground);
            let what = vision.map_or_else(|| what.to_owned(), |v| format!("{what} ({v})"));
            println!("{what:48} {ratio:5.2} : 1");
            if ratio < 4.5 {
                low.push(format!("{what}: {ratio:.2} : 1"));
            }
        }
        assert!(low.is_empty(), "below 4.5 : 1: {low:?}");
    }

    /// Each palette's groups are told apart at a glance by a player with the
    /// vision it is for (and the typical palette by typical vision); the
    /// figures print with `--nocapture`.
    #[test]
    fn each_vision_tells_its_signals_apart() {
        // The simulation keeps what it must: grey stays grey, and a
        // deficiency changes what it should.
        let grey = Tone::rgb(0.5, 0.5, 0.5);
        for d in Deficiency::ALL {
            assert!(seen_distance(grey, grey, d) < 1e-3);
            assert!(seen_distance(grey, Tone::rgb(0.52, 0.5, 0.5), Deficiency::None) > 0.5);
        }
        let (red, green) = (Tone::hex(0xCC3333), Tone::hex(0x33AA33));
        assert!(seen_distance(red, green, Deficiency::None) > 60.0);
        assert!(
            seen_distance(red, green, Deficiency::Deuteranopia) < seen_distance(red, green, Deficiency::None) / 2.0,
            "deuteranopia brings red and green together"
        );
        let mut close = Vec::new();
        let mut check = |vision: Vision, deficiency: Deficiency| {
            for (group, tones) in Signals::of(vision).groups() {
                for (i, (a, ta)) in tones.iter().enumerate() {
                    for (b, tb) in &tones[i + 1..] {
                        let d = seen_distance(*ta, *tb, deficiency);
                        println!("{:11} {deficiency:12?} {group:18} {a:>11} / {b:<11} ΔE {d:5.1}", vision.name());
                        if d < GLANCE {
                            close.push(format!("{} under {deficiency:?}: {group}: {a} / {b} ΔE {d:.1}", vision.name()));
                        }
                    }
                }
            }
        };
        // Each palette for the vision it is for, and for typical vision
        // (players share a screen); the typical palette serves tritanopia too.
        for (vision, deficiencies) in [
            (Vision::Typical, &[Deficiency::None, Deficiency::Tritanopia][..]),
            (Vision::RedGreen, &[Deficiency::None, Deficiency::Deuteranopia, Deficiency::Protanopia][..]),
            (Vision::BlueYellow, &[Deficiency::None, Deficiency::Tritanopia][..]),
        ] {
            for &deficiency in deficiencies {
                check(vision, deficiency);
            }
        }
        assert!(close.is_empty(), "told apart by less than ΔE {GLANCE}: {close:#?}");
    }

    /// Why the setting is there: the typical palette's greens and reds run
    /// together for deuteranopia and protanopia.
    #[test]
    fn the_typical_palette_fails_red_green_vision() {
        let typical = Signals::of(Vision::Typical);
        for deficiency in [Deficiency::Deuteranopia, Deficiency::Protanopia] {
            let least = typical
                .groups()
                .iter()
                .flat_map(|(_, tones)| {
                    tones.iter().enumerate().flat_map(move |(i, (_, a))| {
                        tones[i + 1..].iter().map(move |(_, b)| seen_distance(*a, *b, deficiency))
                    })
                })
                .fold(f32::INFINITY, f32::min);
            assert!(least < GLANCE, "{deficiency:?}: {least}");
        }
    }

    /// The switch keeps each vision apart (tests never flip the switch
    /// itself: the table's tests read it in parallel).
    #[test]
    fn the_vision_switch_keeps_each_vision() {
        for v in Vision::ALL {
            assert_eq!(vision_at(vision_index(v)), v);
        }
        assert_eq!(vision_at(200), Vision::Typical, "out of range reads as typical");
    }
}
