//! The cards' look, drawn once at start: a rounded frame and a lit face to
//! tint (nine-sliced, so the corners stay round at every size), a back for
//! face-down cards and decks, and a lit field behind a card's picture.
//!
//! Drawn in code rather than shipped as images: four small textures, tinted
//! per kind and Hero class, where a painted set would need one per colour.

use bevy::{
    prelude::*,
    sprite::{BorderRect, SliceScaleMode, SpriteImageMode, TextureSlicer},
};

use crate::theme::textures::{radial_alpha, rgba_image};

/// The textures every card is drawn from.
#[derive(Resource, Clone)]
pub struct CardArt {
    /// A rounded rectangle, white: tint it for the frame.
    pub frame: Handle<Image>,
    /// A rounded rectangle lit from the top, with a faint grain: tint it for the face.
    pub face: Handle<Image>,
    /// The back of a Hero's card: a lattice round a lantern's ring.
    pub back: Handle<Image>,
    /// White fading out from the centre: the light behind a card's picture.
    pub field: Handle<Image>,
}

/// Side of the sliced textures, and the rounding their corners keep.
const SLICED: u32 = 48;
const RADIUS: f32 = 9.0;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, make_card_art);
}

fn make_card_art(mut commands: Commands, mut images: ResMut<Assets<Image>>) {
    let s = SLICED as usize;
    let art = CardArt {
        frame: images.add(rgba_image(SLICED, SLICED, rounded(s, s, RADIUS, |_, _| 1.0))),
        face: images.add(rgba_image(SLICED, SLICED, rounded(s, s, RADIUS - 2.0, lit_grain))),
        back: images.add(rgba_image(64, 96, card_back(64, 96))),
        field: images.add(rgba_image(64, 64, radial_alpha(64, |r| (1.0 - r * r).powf(1.5)))),
    };
    commands.insert_resource(art);
}

impl CardArt {
    /// A rounded rectangle of `size` in `color` from `image` (the frame or the face).
    pub fn sliced(image: &Handle<Image>, color: Color, size: Vec2) -> Sprite {
        // Corners keep their pixels; a card smaller than two corners shrinks them.
        let slicer = TextureSlicer {
            border: BorderRect::all(RADIUS + 1.0),
            center_scale_mode: SliceScaleMode::Stretch,
            sides_scale_mode: SliceScaleMode::Stretch,
            max_corner_scale: 1.0,
        };
        Sprite {
            image: image.clone(),
            color,
            custom_size: Some(size),
            image_mode: SpriteImageMode::Sliced(slicer),
            ..default()
        }
    }

    /// `image` stretched to `size`, tinted `color`.
    pub fn stretched(image: &Handle<Image>, color: Color, size: Vec2) -> Sprite {
        Sprite { image: image.clone(), color, custom_size: Some(size), ..default() }
    }
}

/// How much of the pixel at (x, y) a rounded rectangle of `w`×`h` covers,
/// its edge smoothed over one pixel.
fn coverage(x: usize, y: usize, w: usize, h: usize, radius: f32) -> f32 {
    let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
    let (hw, hh) = (w as f32 / 2.0, h as f32 / 2.0);
    // Distance outside a rectangle shrunk by the radius, less the radius.
    let qx = ((px - hw).abs() - (hw - radius)).max(0.0);
    let qy = ((py - hh).abs() - (hh - radius)).max(0.0);
    let d = (qx * qx + qy * qy).sqrt() - radius;
    (0.5 - d).clamp(0.0, 1.0)
}

/// A rounded rectangle whose brightness at each pixel is `shade(x, y)`.
fn rounded(w: usize, h: usize, radius: f32, shade: impl Fn(usize, usize) -> f32) -> Vec<u8> {
    let mut data = Vec::with_capacity(w * h * 4);
    for y in 0..h {
        for x in 0..w {
            let k = (shade(x, y).clamp(0.0, 1.0) * 255.0) as u8;
            let a = (coverage(x, y, w, h, radius) * 255.0) as u8;
            data.extend_from_slice(&[k, k, k, a]);
        }
    }
    data
}

/// Lighter at the top, as under a lamp, with a faint paper grain.
fn lit_grain(x: usize, y: usize) -> f32 {
    let t = y as f32 / SLICED as f32;
    1.0 - 0.22 * t + 0.05 * (grain(x, y) - 0.5)
}

/// A repeatable pseudo-random value in 0..1 for a pixel.
fn grain(x: usize, y: usize) -> f32 {
    let mut h = (x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (y as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    h ^= h >> 29;
    h = h.wrapping_mul(0x1656_67B1_9E37_79F9);
    h ^= h >> 32;
    (h & 0xFFFF) as f32 / 65535.0
}

/// The back of a card: dark blue-grey, a gold lattice, a ring in the middle
/// and a border, with rounded corners.
fn card_back(w: usize, h: usize) -> Vec<u8> {
    let mut data = Vec::with_capacity(w * h * 4);
    let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
    for y in 0..h {
        for x in 0..w {
            let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
            let base = [0.13, 0.15, 0.22];
            let gold = [0.78, 0.63, 0.32];
            // A diagonal lattice, 12 pixels apart.
            let (u, v) = ((px + py) % 12.0, (px - py + 1200.0) % 12.0);
            let line = u < 1.2 || v < 1.2;
            // A border four pixels in, and a ring round the centre.
            let inset = px.min(py).min(w as f32 - px).min(h as f32 - py);
            let border = (3.0..4.5).contains(&inset);
            let r = ((px - cx).powi(2) + (py - cy).powi(2)).sqrt();
            let ring = (13.0..15.5).contains(&r);
            let hub = r < 13.0;
            let mix = if border || ring {
                0.9
            } else if hub {
                0.0
            } else if line && inset > 5.0 {
                0.35
            } else {
                0.0
            };
            let light = 1.0 - 0.25 * (py / h as f32);
            let rgb: Vec<u8> = (0..3)
                .map(|i| (((base[i] * (1.0 - mix) + gold[i] * mix) * light).clamp(0.0, 1.0) * 255.0) as u8)
                .collect();
            let a = (coverage(x, y, w, h, 6.0) * 255.0) as u8;
            data.extend_from_slice(&[rgb[0], rgb[1], rgb[2], a]);
        }
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The frame is solid inside, clear at its very corner, and its edge is
    /// smoothed rather than stepped.
    #[test]
    fn a_frames_corners_are_round() {
        assert_eq!(coverage(24, 24, 48, 48, RADIUS), 1.0);
        assert_eq!(coverage(0, 0, 48, 48, RADIUS), 0.0);
        assert_eq!(coverage(24, 0, 48, 48, RADIUS), 1.0, "the straight edge is solid");
        let part = (0..10).map(|i| coverage(i, i, 48, 48, RADIUS)).find(|c| *c > 0.0 && *c < 1.0);
        assert!(part.is_some(), "one pixel on the diagonal is partly covered");
    }
}
