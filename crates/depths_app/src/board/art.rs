//! How the board looks: every tile, token and node is drawn procedurally from the
//! plain map data (edges, areas with elements, nodes) as flat meshes.
//!
//! Each element is told apart by its SHAPE, not only its colour: monster = spiked
//! star, feature = eye, door = arch, chest = box with lid, campfire = flame on
//! crossed logs, stairs = steps, rune node = diamond, Lantern = lantern on a gold
//! rimmed token.

use std::collections::HashMap;

use bevy::{
    asset::RenderAssetUsages,
    image::{ImageAddressMode, ImageSampler, ImageSamplerDescriptor},
    math::Affine2,
    mesh::{Indices, PrimitiveTopology},
    prelude::*,
    sprite_render::AlphaMode2d,
};

use depths_rules::Ecology;

use crate::theme::palette;
use crate::theme::textures::{radial_alpha, rgba_image};
use crate::{
    PlaySystems,
    board::explore::{GhostTile, PlacementHint, SelectionRing},
    board::floors::{floor_texture, hash2, periodic_noise},
    board::tiles::{
        BOAT_SPOT, Board, BoardTile, ElementToken, FLOOR_HALF, Landing, LanternMove, LanternToken, ReachShade,
        RuneTokens, Standing, TILE_SIZE, TOKEN_RADIUS, WALL_THICKNESS, area_anchor, cell_center, marking_spot,
        node_spot, side_dir, token_spots,
    },
    board::tray_preview::TrayTile,
    board::view::{BoardView, Edge, Element, RuneMark, Side, SplitMix64, Tile, Token},
    game::animating::Animating,
};

/// The table under the tiles.
pub const TABLE_COLOR: Color = palette::TABLE.sprite();

/// Width of the passage in an open edge.
const OPENING: f32 = TILE_SIZE * 0.42;
/// Stone textures to choose from; each tile picks one.
const FLOOR_VARIANTS: usize = 4;
const FLOOR_TEXELS: u32 = 256;
const GLOW_TEXELS: u32 = 128;
const TABLE_TEXELS: u32 = 256;
/// Side of the table quad, in world units; large enough to never see its edge.
const TABLE_SIZE: f32 = 40_000.0;
/// World units one repeat of the wood texture covers.
const TABLE_TILE: f32 = 900.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Art>();
    app.add_systems(Startup, spawn_table);
    app.add_systems(
        Update,
        (
            draw_new_tiles,
            draw_tokens,
            draw_shades,
            draw_runes,
            draw_lantern,
            draw_hints,
            draw_ghost,
            draw_tray_tile,
            draw_selection,
            settle_tiles,
            slide_lantern,
            flicker_flames,
        )
            .in_set(PlaySystems::Present)
            .run_if(resource_exists::<Board>),
    );
}

/// The mesh a [`Piece`] is drawn with; all are unit sized and scaled by the piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Shape {
    /// 1 × 1 square.
    Square,
    /// Circle of radius 1 (scale unevenly for an ellipse).
    Circle,
    /// Seven-pointed star, outer radius 1.
    Star,
    /// Triangle, base 1 on y = -0.5, apex at y = 0.5.
    Triangle,
    /// Diamond with diagonals 1.
    Diamond,
    /// A stone floor texture on a 1 × 1 square.
    Floor(usize),
    /// A soft round light (radial gradient) on a 1 × 1 square; tinted by the colour.
    Glow,
}

/// One flat shape of the drawing, relative to its tile or token.
#[derive(Clone, Debug, PartialEq)]
struct Piece {
    shape: Shape,
    color: Color,
    pos: Vec2,
    size: Vec2,
    /// Radians, counter-clockwise.
    rot: f32,
    z: f32,
    /// A flame's phase: it flickers ([`Flame`]).
    flicker: Option<f32>,
}

/// A flame of a campfire token: it flickers whenever the board is drawn
/// anyway (a tile lands, the board pans, the pointer moves), and never asks
/// for a frame itself, so a waiting board still sleeps.
#[derive(Component, Debug)]
struct Flame {
    rest: Transform,
    phase: f32,
}

impl Piece {
    fn new(shape: Shape, color: Color, pos: Vec2, size: Vec2, z: f32) -> Self {
        Self { shape, color, pos, size, rot: 0.0, z, flicker: None }
    }

    fn flickering(mut self, phase: f32) -> Self {
        self.flicker = Some(phase);
        self
    }

    fn rotated(mut self, rot: f32) -> Self {
        self.rot = rot;
        self
    }

    fn transform(&self) -> Transform {
        Transform {
            translation: self.pos.extend(self.z),
            rotation: Quat::from_rotation_z(self.rot),
            scale: self.size.extend(1.0),
        }
    }
}

fn rect(color: Color, pos: Vec2, size: Vec2, z: f32) -> Piece {
    Piece::new(Shape::Square, color, pos, size, z)
}

fn circle(color: Color, pos: Vec2, radius: f32, z: f32) -> Piece {
    Piece::new(Shape::Circle, color, pos, Vec2::splat(radius), z)
}

fn hex(rgb: u32) -> Color {
    Color::srgb_u8((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8)
}

fn hexa(rgb: u32, alpha: f32) -> Color {
    hex(rgb).with_alpha(alpha)
}

// Layers within a tile (world z, relative to the tile entity).
const Z_SHADOW: f32 = 0.0;
const Z_RIM: f32 = 0.02;
const Z_FLOOR: f32 = 0.03;
const Z_WALL_SHADOW: f32 = 0.04;
const Z_BOUNDARY: f32 = 0.05;
const Z_WALL: f32 = 0.06;
const Z_NODE: f32 = 0.08;
const Z_TOKEN: f32 = 0.2;
const Z_SHADE: f32 = 0.4;

/// Everything drawn for one tile, relative to its centre: the tile itself,
/// its tokens and its shading (on the board each of those is its own entity;
/// the ghost tile in hand is drawn whole).
fn tile_pieces(map: &BoardView, tile: &Tile) -> Vec<Piece> {
    let mut out = tile_base_pieces(map, tile);
    for (what, at) in token_spots(map, tile) {
        let Standing::Element { area: a, element: i } = what else { continue };
        let Some((element, token)) = tile.element(a, i) else { continue };
        let z = Z_TOKEN + i as f32 * 0.05;
        element_token(&mut out, element, at, z);
        token_pieces(&mut out, token, at, z + 0.03);
    }
    reach_shading(&mut out, tile, FLOOR_HALF);
    out
}

/// What never changes on a placed tile: shadow, floor, walls, water,
/// boundaries, nodes and markings, relative to its centre.
fn tile_base_pieces(map: &BoardView, tile: &Tile) -> Vec<Piece> {
    let mut out = Vec::new();
    let t = TILE_SIZE;
    // Cast shadow on the table, a soft one and a tight one.
    out.push(rect(hexa(0x000000, 0.28), Vec2::new(9.0, -12.0), Vec2::splat(t + 18.0), Z_SHADOW));
    out.push(rect(hexa(0x000000, 0.45), Vec2::new(6.0, -8.0), Vec2::splat(t + 2.0), Z_SHADOW + 0.01));
    // The tile's cardboard edge, then the stone floor.
    out.push(rect(palette::RIM.sprite(), Vec2::ZERO, Vec2::splat(t), Z_RIM));
    let variant = floor_variant(map.seed, tile);
    out.push(Piece::new(Shape::Floor(variant), Color::WHITE, Vec2::ZERO, Vec2::splat(t - 6.0), Z_FLOOR));

    let h = FLOOR_HALF;
    for side in Side::ALL {
        wall_pieces(&mut out, side, tile.edge(side), h);
    }
    water_corner_pieces(&mut out, tile, h);
    boundary_pieces(&mut out, map.seed, tile, h);
    for side in tile.turned.nodes.iter() {
        rune_node(&mut out, node_spot(side), Z_NODE);
    }
    marking_pieces(&mut out, tile);
    out
}

/// Lit where the Heroes can go, dark where they cannot (yet).
fn reach_shading(out: &mut Vec<Piece>, tile: &Tile, h: f32) {
    let reachable = tile.accessible.iter().filter(|&&a| a).count();
    if reachable == 0 {
        out.push(rect(hexa(0x05070c, 0.42), Vec2::ZERO, Vec2::splat(2.0 * h), Z_SHADE));
    } else if reachable < tile.accessible.len() {
        for (a, &accessible) in tile.accessible.iter().enumerate() {
            let at = area_anchor(tile, a);
            if accessible {
                out.push(Piece::new(Shape::Glow, hexa(0xffd86b, 0.35), at, Vec2::splat(170.0), Z_SHADE));
            } else {
                out.push(Piece::new(Shape::Glow, hexa(0x000000, 0.7), at, Vec2::splat(170.0), Z_SHADE));
            }
        }
    } else {
        out.push(rect(hexa(0xffd86b, 0.06), Vec2::ZERO, Vec2::splat(2.0 * h), Z_SHADE));
    }
}

/// The Encounter Token or Key on an element.
fn token_pieces(out: &mut Vec<Piece>, token: Token, at: Vec2, z: f32) {
    match token {
        Token::None => {}
        Token::Defeated => {
            for rot in [0.785, -0.785] {
                out.push(rect(hex(0x3a0704), at, Vec2::new(62.0, 13.0), z).rotated(rot));
                out.push(rect(hex(0xd7261c), at, Vec2::new(58.0, 9.0), z + 0.001).rotated(rot));
            }
        }
        Token::Encountered => {
            out.push(rect(hex(0x4a3510), at, Vec2::new(64.0, 13.0), z).rotated(0.785));
            out.push(rect(hex(0xf2c14e), at, Vec2::new(60.0, 9.0), z + 0.001).rotated(0.785));
        }
        Token::Key => {
            let k = at + Vec2::new(20.0, -20.0);
            out.push(circle(palette::TOKEN_RIM.sprite(), k, 17.0, z));
            out.push(circle(palette::MAP_GOLD.sprite(), k, 15.0, z + 0.001));
            out.push(circle(hex(0x3d2a08), k + Vec2::new(-5.0, 0.0), 5.0, z + 0.002));
            out.push(circle(palette::MAP_GOLD.sprite(), k + Vec2::new(-5.0, 0.0), 2.5, z + 0.003));
            out.push(rect(hex(0x3d2a08), k + Vec2::new(4.0, 0.0), Vec2::new(12.0, 3.0), z + 0.002));
            out.push(rect(hex(0x3d2a08), k + Vec2::new(8.0, -3.0), Vec2::new(2.5, 5.0), z + 0.002));
        }
    }
}

/// Secret Passages, Warp Portals, Level Stairs, the Boat and the Sword.
fn marking_pieces(out: &mut Vec<Piece>, tile: &Tile) {
    for (a, area) in tile.areas().iter().enumerate() {
        // Beside the area's tokens, towards the tile's centre line.
        let at = marking_spot(tile, a);
        let z = Z_NODE + 0.01;
        if area.secret_passage {
            // A dark archway with a violet keyhole.
            let (dark, violet) = (palette::PASSAGE_DARK.sprite(), palette::PASSAGE_VIOLET.sprite());
            out.push(circle(dark, at + Vec2::new(0.0, 4.0), 16.0, z));
            out.push(rect(dark, at + Vec2::new(0.0, -6.0), Vec2::new(32.0, 20.0), z));
            out.push(circle(violet, at + Vec2::new(0.0, 2.0), 4.5, z + 0.001));
            out.push(Piece::new(Shape::Triangle, violet, at + Vec2::new(0.0, -6.0), Vec2::new(8.0, 12.0), z + 0.001));
        }
        if area.warp_portal {
            for (i, tone) in palette::PORTAL_RINGS.iter().enumerate() {
                out.push(circle(tone.sprite(), at, 20.0 - 5.0 * i as f32, z + i as f32 * 0.001));
            }
        }
        if area.level_stair {
            out.push(rect(hex(0x1c1a18), at, Vec2::new(34.0, 34.0), z));
            for i in 0..4 {
                let y = -12.0 + i as f32 * 8.0;
                out.push(rect(hex(0x9aa0a8), at + Vec2::new(0.0, y), Vec2::new(28.0 - i as f32 * 5.0, 4.0), z + 0.001));
            }
        }
    }
    let corner = BOAT_SPOT;
    if tile.turned.boat {
        let at = corner;
        out.push(Piece::new(Shape::Circle, hex(0x3d230f), at, Vec2::new(22.0, 9.0), Z_NODE + 0.01));
        out.push(rect(hex(0x9fb8c8), at + Vec2::new(0.0, 6.0), Vec2::new(44.0, 12.0), Z_NODE + 0.011));
        out.push(Piece::new(Shape::Circle, hex(0x8a5428), at, Vec2::new(20.0, 7.0), Z_NODE + 0.012));
        out.push(Piece::new(
            Shape::Triangle,
            palette::TEXT.sprite(),
            at + Vec2::new(2.0, 15.0),
            Vec2::new(14.0, 20.0),
            Z_NODE + 0.012,
        ));
    }
    if tile.turned.sword {
        let at = -corner;
        out.push(rect(hex(0xc8ccd2), at + Vec2::new(0.0, 6.0), Vec2::new(5.0, 34.0), Z_NODE + 0.01).rotated(-0.6));
        out.push(rect(hex(0x8a6a2a), at + Vec2::new(-5.0, -8.0), Vec2::new(18.0, 4.0), Z_NODE + 0.011).rotated(-0.6));
        out.push(rect(hex(0x5b3a1e), at + Vec2::new(-9.0, -14.0), Vec2::new(4.0, 10.0), Z_NODE + 0.011).rotated(-0.6));
    }
}

/// Caverns: pools of water in the corners that hold them.
fn water_corner_pieces(out: &mut Vec<Piece>, tile: &Tile, h: f32) {
    for c in tile.turned.water_corners.iter() {
        // NE, SE, SW, NW.
        let sign =
            [Vec2::new(1.0, 1.0), Vec2::new(1.0, -1.0), Vec2::new(-1.0, -1.0), Vec2::new(-1.0, 1.0)][c.index() % 4];
        // A pool filling the corner, kept inside the tile.
        let at = sign * (h - 40.0);
        out.push(rect(hex(0x0f2f44), sign * (h - 20.0), Vec2::splat(40.0), Z_FLOOR + 0.002));
        out.push(circle(hex(0x0f2f44), at, 40.0, Z_FLOOR + 0.002));
        out.push(rect(hex(0x1f5f80), sign * (h - 22.0), Vec2::splat(36.0), Z_FLOOR + 0.003));
        out.push(circle(hex(0x1f5f80), at, 35.0, Z_FLOOR + 0.003));
        out.push(circle(hexa(0x7fc8e8, 0.35), at - sign * 10.0, 8.0, Z_FLOOR + 0.004));
    }
}

/// Which floor texture a tile is painted with: its Ecology's, in a variant
/// chosen by the game's seed and the tile's place.
fn floor_variant(seed: u64, tile: &Tile) -> usize {
    let ecology = ECOLOGIES.iter().position(|e| *e == tile.turned.ecology).unwrap_or(0);
    if tile.is_entry() {
        return ecology * FLOOR_VARIANTS;
    }
    let mut rng = SplitMix64(seed ^ ((tile.cell.0 as u64) << 32) ^ (tile.cell.1 as u32 as u64));
    ecology * FLOOR_VARIANTS + rng.below(FLOOR_VARIANTS)
}

/// The Ecologies, in the order of their floor textures.
const ECOLOGIES: [Ecology; 3] = [Ecology::Ruins, Ecology::Caverns, Ecology::Subterranean];

/// The wall band along one side, with a gap in the middle if the edge is open.
fn wall_pieces(out: &mut Vec<Piece>, side: Side, edge: Edge, h: f32) {
    let normal = side_dir(side);
    let along = Vec2::new(-normal.y, normal.x);
    let w = WALL_THICKNESS;
    // Spans along the side, as (from, to) in -h..h.
    let spans: Vec<(f32, f32)> = match edge {
        Edge::Wall => vec![(-h, h)],
        Edge::Open | Edge::Upper | Edge::Lower => vec![(-h, -OPENING / 2.0), (OPENING / 2.0, h)],
        Edge::Water => {
            // Water right up to the edge: a blue channel instead of a wall.
            let center = normal * (h - w / 2.0);
            let rot = along.y.atan2(along.x);
            out.push(rect(hex(0x0f2f44), center, Vec2::new(2.0 * h, w + 4.0), Z_WALL).rotated(rot));
            out.push(rect(hex(0x1f5f80), center, Vec2::new(2.0 * h, w - 4.0), Z_WALL + 0.001).rotated(rot));
            out.push(
                rect(hexa(0x7fc8e8, 0.4), center + normal * 3.0, Vec2::new(2.0 * h - 20.0, 2.0), Z_WALL + 0.002)
                    .rotated(rot),
            );
            return;
        }
    };
    if matches!(edge, Edge::Upper | Edge::Lower) {
        // Level of the opening: a pale raised sill (upper) or a dark step down (lower).
        let (color, arrow) = if edge == Edge::Upper { (0xbfb49a, 0.0) } else { (0x15110d, std::f32::consts::PI) };
        let center = normal * (h - w / 2.0);
        let rot = along.y.atan2(along.x);
        out.push(rect(hex(color), center, Vec2::new(OPENING, w - 8.0), Z_WALL).rotated(rot));
        let tip_rot = normal.y.atan2(normal.x) - std::f32::consts::FRAC_PI_2 + arrow;
        let arrow_color = if edge == Edge::Upper { 0x4a3f34 } else { 0xd9c9a3 };
        out.push(
            Piece::new(Shape::Triangle, hex(arrow_color), center, Vec2::new(14.0, 12.0), Z_WALL + 0.001)
                .rotated(tip_rot),
        );
    }
    let rot = along.y.atan2(along.x);
    let inner = h - w; // where the floor starts, along the side
    for (from, to) in spans {
        let mid = (from + to) / 2.0;
        let len = to - from;
        let center = normal * (h - w / 2.0) + along * mid;
        out.push(rect(palette::WALL.sprite(), center, Vec2::new(len, w), Z_WALL).rotated(rot));
        // Masonry: blocks of slightly varied stone with dark joints between.
        let blocks = (len / 34.0).round().max(1.0) as usize;
        let block_len = len / blocks as f32;
        for b in 0..blocks {
            let at = from + (b as f32 + 0.5) * block_len;
            let mut rng = SplitMix64((at * 7.0) as i64 as u64 ^ ((side as u64) << 40));
            let shade = [0x2e2721, 0x332b24, 0x2a241f, 0x372e26][rng.below(4)];
            out.push(
                rect(
                    hex(shade),
                    normal * (h - w / 2.0) + along * at,
                    Vec2::new(block_len - 3.0, w - 5.0),
                    Z_WALL + 0.001,
                )
                .rotated(rot),
            );
        }
        // The wall's shadow on the floor and its lit inner edge, only where
        // there is floor beside it (not across the corners).
        let (lo, hi) = (from.max(-inner), to.min(inner));
        if hi > lo {
            let floor_mid = normal * (h - w) + along * ((lo + hi) / 2.0);
            out.push(
                rect(hexa(0x000000, 0.28), floor_mid - normal * 5.0, Vec2::new(hi - lo, 10.0), Z_WALL_SHADOW)
                    .rotated(rot),
            );
            out.push(
                rect(palette::WALL_TOP.sprite(), floor_mid + normal * 1.0, Vec2::new(hi - lo, 2.0), Z_WALL + 0.002)
                    .rotated(rot),
            );
        }
    }
}

/// A rubble ridge between the areas of a tile split by a habitat boundary.
fn boundary_pieces(out: &mut Vec<Piece>, seed: u64, tile: &Tile, h: f32) {
    if tile.areas().len() < 2 {
        return;
    }
    let mut rng = SplitMix64(seed ^ 0xB0_0DA7 ^ (tile.cell.0 as u64).rotate_left(17) ^ tile.cell.1 as u64);
    for pair in 0..tile.areas().len() - 1 {
        let a = area_anchor(tile, pair);
        let b = area_anchor(tile, pair + 1);
        let mid = (a + b) / 2.0;
        let dir = (b - a).perp().normalize_or(Vec2::X);
        // Clip the bisector to the floor inside the walls.
        let reach = clip_reach(mid, dir, h - WALL_THICKNESS / 2.0);
        let (p, q) = (mid - dir * reach.0, mid + dir * reach.1);
        let len = p.distance(q);
        let rot = dir.y.atan2(dir.x);
        out.push(
            rect(hexa(0x000000, 0.35), (p + q) / 2.0 + Vec2::new(3.0, -4.0), Vec2::new(len, 16.0), Z_BOUNDARY)
                .rotated(rot),
        );
        out.push(rect(hex(0x2a231d), (p + q) / 2.0, Vec2::new(len, 12.0), Z_BOUNDARY + 0.001).rotated(rot));
        let stones = (len / 11.0) as usize;
        for i in 0..stones {
            let f = (i as f32 + 0.5) / stones as f32;
            let jitter = dir.perp() * (rng.next_f32() - 0.5) * 10.0;
            let r = 4.0 + rng.next_f32() * 4.5;
            let shade = 0x4a4037 + ((rng.below(3) as u32) * 0x0a0a0a);
            out.push(circle(hex(shade), p.lerp(q, f) + jitter, r, Z_BOUNDARY + 0.002 + i as f32 * 1e-4));
        }
    }
}

/// How far a line through `p` along ±`dir` runs before leaving the square |x|,|y| ≤ h.
fn clip_reach(p: Vec2, dir: Vec2, h: f32) -> (f32, f32) {
    let along = |sign: f32| {
        let d = dir * sign;
        let tx = if d.x.abs() < 1e-6 { f32::MAX } else { ((h * d.x.signum()) - p.x) / d.x };
        let ty = if d.y.abs() < 1e-6 { f32::MAX } else { ((h * d.y.signum()) - p.y) / d.y };
        tx.min(ty).max(0.0)
    };
    (along(-1.0), along(1.0))
}

fn rune_node(out: &mut Vec<Piece>, at: Vec2, z: f32) {
    out.push(circle(palette::RUNE.sprite().with_alpha(0.18), at, 24.0, z));
    out.push(circle(palette::RUNE.sprite().with_alpha(0.25), at, 16.0, z + 0.001));
    out.push(Piece::new(Shape::Diamond, palette::RUNE.sprite(), at, Vec2::splat(26.0), z + 0.002));
    out.push(Piece::new(Shape::Diamond, palette::RUNE_DEEP.sprite(), at, Vec2::splat(11.0), z + 0.003));
}

/// A round token with the element's icon on it.
fn element_token(out: &mut Vec<Piece>, element: Element, at: Vec2, z: f32) {
    out.push(circle(hexa(0x000000, 0.5), at + Vec2::new(3.0, -4.0), TOKEN_RADIUS + 1.0, z));
    out.push(circle(palette::TOKEN_RIM.sprite(), at, TOKEN_RADIUS, z + 0.001));
    out.push(circle(palette::PARCHMENT.sprite(), at, TOKEN_RADIUS - 3.0, z + 0.002));
    let z = z + 0.003;
    let p = |x: f32, y: f32| at + Vec2::new(x, y);
    let mut dz = 0.0;
    let mut next_z = || {
        dz += 0.001;
        z + dz
    };
    match element {
        Element::Monster { count: n } => {
            let crimson = palette::CRIMSON.sprite();
            let spots: &[(f32, f32, f32)] =
                if n >= 2 { &[(-9.0, 5.0, 13.5), (9.0, -5.0, 13.5)] } else { &[(0.0, 0.0, 21.0)] };
            for &(x, y, r) in spots {
                out.push(Piece::new(Shape::Star, hex(0x4a0d0a), p(x, y - 1.0), Vec2::splat(r + 2.0), next_z()));
                out.push(Piece::new(Shape::Star, crimson, p(x, y), Vec2::splat(r), next_z()));
                out.push(circle(hex(0x4a0d0a), p(x, y), r * 0.2, next_z()));
            }
        }
        Element::Feature => {
            out.push(Piece::new(Shape::Circle, hex(0x17484f), p(0.0, 0.0), Vec2::new(22.0, 13.0), next_z()));
            out.push(Piece::new(Shape::Circle, hex(0x2a8f9f), p(0.0, 0.0), Vec2::new(19.0, 10.5), next_z()));
            out.push(circle(hex(0xe8f4f0), p(0.0, 0.0), 7.0, next_z()));
            out.push(circle(hex(0x102024), p(0.0, 0.0), 4.0, next_z()));
        }
        Element::Door => {
            let dark = hex(0x3d230f);
            out.push(rect(dark, p(0.0, -5.0), Vec2::new(27.0, 22.0), next_z()));
            out.push(circle(dark, p(0.0, 5.0), 13.5, next_z()));
            let wood = hex(0x8a5428);
            out.push(rect(wood, p(0.0, -5.5), Vec2::new(21.0, 19.0), next_z()));
            out.push(circle(wood, p(0.0, 5.0), 10.5, next_z()));
            out.push(rect(hex(0x5e3a1c), p(0.0, -1.0), Vec2::new(2.0, 28.0), next_z()));
            out.push(circle(hex(0x140c06), p(5.0, -2.0), 2.6, next_z()));
            out.push(Piece::new(Shape::Triangle, hex(0x140c06), p(5.0, -5.0), Vec2::new(4.0, 5.0), next_z()));
        }
        Element::Chest => {
            out.push(rect(hex(0x3d230f), p(0.0, 0.0), Vec2::new(38.0, 28.0), next_z()));
            out.push(rect(hex(0x8a5a2b), p(0.0, -4.5), Vec2::new(34.0, 15.0), next_z()));
            out.push(rect(hex(0x6b4220), p(0.0, 7.5), Vec2::new(34.0, 9.0), next_z()));
            for x in [-11.0, 11.0] {
                out.push(rect(hex(0xd4a017), p(x, 0.0), Vec2::new(3.5, 24.0), next_z()));
            }
            out.push(rect(hex(0xd4a017), p(0.0, 2.0), Vec2::new(7.0, 8.0), next_z()));
            out.push(rect(hex(0x2a1a0a), p(0.0, 1.5), Vec2::new(2.0, 3.5), next_z()));
        }
        Element::Campfire => {
            let log = hex(0x5b3a1e);
            out.push(rect(log, p(0.0, -11.0), Vec2::new(36.0, 7.0), next_z()).rotated(0.35));
            out.push(rect(log, p(0.0, -11.0), Vec2::new(36.0, 7.0), next_z()).rotated(-0.35));
            let flames = [
                (0xc0391b, 2.0, Vec2::new(26.0, 30.0)),
                (0xe8731c, 0.0, Vec2::new(20.0, 24.0)),
                (0xffd23f, -3.0, Vec2::new(10.0, 13.0)),
            ];
            for (i, (color, y, size)) in flames.into_iter().enumerate() {
                let flame = Piece::new(Shape::Triangle, hex(color), p(0.0, y), size, next_z());
                out.push(flame.flickering(i as f32 * 2.1));
            }
        }
        Element::StairGuardian => {
            for i in 0..4 {
                let w = 34.0 - i as f32 * 8.0;
                let y = -12.0 + i as f32 * 8.0;
                let x = -17.0 + w / 2.0;
                out.push(rect(hex(0x3a3c40), p(x, y - 1.0), Vec2::new(w, 8.0), next_z()));
                out.push(rect(hex(0x7d8188), p(x, y), Vec2::new(w - 1.5, 6.0), next_z()));
                out.push(rect(hex(0xaeb2b8), p(x, y + 2.5), Vec2::new(w - 1.5, 1.5), next_z()));
            }
        }
    }
}

/// The Lantern token: a pool of light and a lantern on a gold-rimmed token.
fn lantern_pieces() -> Vec<Piece> {
    let mut out = Vec::new();
    let z = 0.0;
    let warm = 0xffd86b;
    out.push(Piece::new(Shape::Glow, hexa(warm, 0.55), Vec2::ZERO, Vec2::splat(330.0), z));
    out.push(circle(hexa(0x000000, 0.55), Vec2::new(3.0, -5.0), 34.0, z + 0.003));
    out.push(circle(palette::MAP_GOLD.sprite(), Vec2::ZERO, 33.0, z + 0.004));
    out.push(circle(hex(0x2d3340), Vec2::ZERO, 29.5, z + 0.005));
    let gold = hex(0xf2c14e);
    out.push(circle(gold, Vec2::new(0.0, 15.0), 6.5, z + 0.006));
    out.push(circle(hex(0x2d3340), Vec2::new(0.0, 15.0), 3.8, z + 0.007));
    out.push(rect(hex(0x8a6a2a), Vec2::new(0.0, 10.0), Vec2::new(18.0, 4.0), z + 0.008));
    out.push(rect(gold, Vec2::new(0.0, -1.0), Vec2::new(16.0, 20.0), z + 0.008));
    out.push(rect(hex(0xfff2c0), Vec2::new(0.0, -1.0), Vec2::new(10.0, 14.0), z + 0.009));
    out.push(circle(hex(0xff9f1c), Vec2::new(0.0, -2.0), 3.8, z + 0.010));
    out.push(rect(hex(0x8a6a2a), Vec2::new(0.0, -12.5), Vec2::new(22.0, 5.0), z + 0.011));
    out
}

/// Meshes, floor textures and a colour → material cache.
#[derive(Resource)]
struct Art {
    meshes: HashMap<Shape, Handle<Mesh>>,
    floors: Vec<Handle<ColorMaterial>>,
    glow: Handle<Image>,
    glows: HashMap<[u8; 4], Handle<ColorMaterial>>,
    table: Handle<ColorMaterial>,
    colors: HashMap<[u8; 4], Handle<ColorMaterial>>,
}

impl FromWorld for Art {
    fn from_world(world: &mut World) -> Self {
        let mut meshes_map = HashMap::new();
        {
            let mut meshes = world.resource_mut::<Assets<Mesh>>();
            meshes_map.insert(Shape::Square, meshes.add(Rectangle::new(1.0, 1.0)));
            meshes_map.insert(Shape::Circle, meshes.add(Circle::new(1.0).mesh().resolution(48)));
            meshes_map.insert(Shape::Star, meshes.add(star_mesh(7, 0.45)));
            meshes_map.insert(
                Shape::Triangle,
                meshes.add(Triangle2d::new(Vec2::new(0.0, 0.5), Vec2::new(-0.5, -0.5), Vec2::new(0.5, -0.5))),
            );
            meshes_map.insert(Shape::Diamond, meshes.add(Rhombus::new(1.0, 1.0)));
        }
        let (floor_images, glow, table_image) = {
            let mut images = world.resource_mut::<Assets<Image>>();
            // Each Ecology's floor in a few variants: ECOLOGIES × FLOOR_VARIANTS.
            let floors: Vec<Handle<Image>> = ECOLOGIES
                .iter()
                .flat_map(|e| (0..FLOOR_VARIANTS).map(move |v| (*e, v)))
                .map(|(e, v)| {
                    let pixels = floor_texture(e, 0xF100_0000 + v as u64, FLOOR_TEXELS as usize);
                    images.add(rgba_image(FLOOR_TEXELS, FLOOR_TEXELS, pixels))
                })
                .collect();
            // A soft light: its alpha falls off from the centre.
            let glow = radial_alpha(GLOW_TEXELS as usize, |r| (1.0 - r).powf(2.2));
            let glow = images.add(rgba_image(GLOW_TEXELS, GLOW_TEXELS, glow));
            let mut table = rgba_image(TABLE_TEXELS, TABLE_TEXELS, wood_planks(0x7AB1E, TABLE_TEXELS as usize));
            table.sampler = ImageSampler::Descriptor(ImageSamplerDescriptor {
                address_mode_u: ImageAddressMode::Repeat,
                address_mode_v: ImageAddressMode::Repeat,
                ..ImageSamplerDescriptor::linear()
            });
            (floors, glow, images.add(table))
        };
        let mut materials = world.resource_mut::<Assets<ColorMaterial>>();
        let floors = floor_images.into_iter().map(|image| materials.add(ColorMaterial::from(image))).collect();
        let table = materials.add(ColorMaterial {
            // Dimmed, so the board stands out from the table.
            color: palette::TABLE_DIM.sprite(),
            texture: Some(table_image),
            uv_transform: Affine2::from_scale(Vec2::splat(TABLE_SIZE / TABLE_TILE)),
            alpha_mode: AlphaMode2d::Opaque,
        });
        Self { meshes: meshes_map, floors, glow, glows: HashMap::new(), table, colors: HashMap::new() }
    }
}

impl Art {
    /// Draws `parent` anew: its old pieces go, `pieces` come.
    fn redraw(&mut self, parent: &mut EntityCommands, pieces: Vec<Piece>, materials: &mut Assets<ColorMaterial>) {
        parent.despawn_children();
        self.spawn_pieces(parent, pieces, materials);
    }

    fn spawn_pieces(&mut self, parent: &mut EntityCommands, pieces: Vec<Piece>, materials: &mut Assets<ColorMaterial>) {
        let parts: Vec<_> = pieces
            .into_iter()
            .map(|piece| {
                let (mesh, material) = match piece.shape {
                    Shape::Floor(v) => (self.meshes[&Shape::Square].clone(), self.floors[v].clone()),
                    Shape::Glow => (self.meshes[&Shape::Square].clone(), self.glow_material(piece.color, materials)),
                    shape => (self.meshes[&shape].clone(), self.material(piece.color, materials)),
                };
                let flame = piece.flicker.map(|phase| Flame { rest: piece.transform(), phase });
                ((Mesh2d(mesh), MeshMaterial2d(material), piece.transform()), flame)
            })
            .collect();
        parent.with_children(|children| {
            for (part, flame) in parts {
                let mut child = children.spawn(part);
                if let Some(flame) = flame {
                    child.insert(flame);
                }
            }
        });
    }

    fn glow_material(&mut self, tint: Color, materials: &mut Assets<ColorMaterial>) -> Handle<ColorMaterial> {
        let key = tint.to_srgba().to_u8_array();
        let texture = self.glow.clone();
        self.glows
            .entry(key)
            .or_insert_with(|| {
                materials.add(ColorMaterial {
                    color: tint,
                    texture: Some(texture),
                    alpha_mode: AlphaMode2d::Blend,
                    ..default()
                })
            })
            .clone()
    }

    fn material(&mut self, color: Color, materials: &mut Assets<ColorMaterial>) -> Handle<ColorMaterial> {
        let key = color.to_srgba().to_u8_array();
        self.colors.entry(key).or_insert_with(|| materials.add(ColorMaterial::from(color))).clone()
    }
}

fn draw_new_tiles(
    mut commands: Commands,
    new_tiles: Query<(Entity, &BoardTile), Added<BoardTile>>,
    board: Res<Board>,
    mut art: ResMut<Art>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    for (entity, placed) in &new_tiles {
        let Some(tile) = board.view.tile_at(placed.cell) else {
            continue;
        };
        let pieces = tile_base_pieces(&board.view, tile);
        art.spawn_pieces(&mut commands.entity(entity), pieces, &mut materials);
    }
}

/// A token was laid or flipped: draw that token again (it stands at its
/// own place and height, so its pieces are drawn at its centre).
fn draw_tokens(
    mut commands: Commands,
    tokens: Query<(Entity, &ElementToken), Changed<ElementToken>>,
    board: Res<Board>,
    mut art: ResMut<Art>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    for (entity, token) in &tokens {
        let Some(tile) = board.view.tile_at(token.cell) else { continue };
        let Some((element, _)) = tile.element(token.area, token.element) else {
            continue;
        };
        let mut out = Vec::new();
        element_token(&mut out, element, Vec2::ZERO, 0.0);
        token_pieces(&mut out, token.token, Vec2::ZERO, 0.03);
        art.redraw(&mut commands.entity(entity), out, &mut materials);
    }
}

/// A tile's Nodes were used or Discovered: draw their tokens again.
fn draw_runes(
    mut commands: Commands,
    runes: Query<(Entity, &RuneTokens), Changed<RuneTokens>>,
    mut art: ResMut<Art>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    for (entity, on) in &runes {
        let mut out = Vec::new();
        for &(side, mark) in &on.runes {
            rune_token(&mut out, mark, node_spot(side));
        }
        art.redraw(&mut commands.entity(entity), out, &mut materials);
    }
}

/// On a used Node, a small Encounter Token gold slash up, as the book
/// lays it; on a Discovered one, the Node lit gold, so the pattern the
/// "Legendary Locations discovered" list names can be found on the map.
fn rune_token(out: &mut Vec<Piece>, mark: RuneMark, at: Vec2) {
    match mark {
        RuneMark::Used => {
            out.push(circle(palette::TOKEN_RIM.sprite(), at, 17.0, 0.0));
            out.push(circle(hex(0x2a2418), at, 15.0, 0.001));
            out.push(rect(hex(0x4a3510), at, Vec2::new(32.0, 8.0), 0.002).rotated(0.785));
            out.push(rect(hex(0xf2c14e), at, Vec2::new(29.0, 5.0), 0.003).rotated(0.785));
        }
        RuneMark::Discovered => {
            out.push(Piece::new(Shape::Glow, hexa(0xffd86b, 0.75), at, Vec2::splat(84.0), 0.0));
            out.push(circle(hex(0xf2c14e), at, 19.0, 0.001));
            out.push(Piece::new(Shape::Diamond, hex(0xffe9a8), at, Vec2::splat(26.0), 0.002));
            out.push(Piece::new(Shape::Diamond, hex(0x8a5a10), at, Vec2::splat(11.0), 0.003));
        }
    }
}

/// Reachability changed on a tile: draw its light and shade again.
fn draw_shades(
    mut commands: Commands,
    shades: Query<(Entity, &ReachShade), Changed<ReachShade>>,
    board: Res<Board>,
    mut art: ResMut<Art>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    for (entity, shade) in &shades {
        let Some(tile) = board.view.tile_at(shade.cell) else { continue };
        let mut out = Vec::new();
        reach_shading(&mut out, tile, FLOOR_HALF);
        art.redraw(&mut commands.entity(entity), out, &mut materials);
    }
}

/// Each flame stretches and sways about its base, two waves of unrelated
/// speeds apart so the fire never repeats visibly.
fn flicker_flames(time: Res<Time>, mut flames: Query<(&Flame, &mut Transform)>) {
    let t = time.elapsed_secs();
    for (flame, mut transform) in &mut flames {
        *transform = flame_at(flame.rest, flame.phase, t);
    }
}

/// A flame at time `t`: taller or shorter, narrower or wider, leaning a
/// little, grown from its base (a triangle's foot), not its middle.
fn flame_at(rest: Transform, phase: f32, t: f32) -> Transform {
    let (a, b) = (t * 7.3 + phase, t * 17.9 + phase * 1.7);
    let tall = 1.0 + 0.10 * a.sin() + 0.05 * b.sin();
    let wide = 1.0 - 0.04 * a.sin() + 0.03 * (b * 0.7).cos();
    Transform {
        translation: rest.translation + Vec3::Y * rest.scale.y * (tall - 1.0) / 2.0,
        rotation: rest.rotation * Quat::from_rotation_z(0.06 * (b * 0.5).sin()),
        scale: rest.scale * Vec3::new(wide, tall, 1.0),
    }
}

/// How long a newly laid tile takes to settle onto the table.
const LANDING_SECS: f32 = 0.22;

/// A newly laid tile drops from slightly above (a little larger, lifted over
/// its neighbours) onto its cell, easing out.
fn settle_tiles(
    mut commands: Commands,
    time: Res<Time>,
    mut tiles: Query<(Entity, &Landing, &BoardTile, &mut Transform)>,
) {
    for (entity, landing, tile, mut transform) in &mut tiles {
        let t = ((time.elapsed_secs() - landing.since) / LANDING_SECS).clamp(0.0, 1.0);
        let lift = (1.0 - t).powi(3);
        transform.scale = Vec3::splat(1.0 + 0.12 * lift);
        transform.translation = cell_center(tile.cell).extend(if t < 1.0 { 5.0 } else { 0.0 });
        if t >= 1.0 {
            commands.entity(entity).remove::<(Landing, Animating)>();
        }
    }
}

/// A cell where the tile in hand may go: gold for the current turn, blue if
/// only another turn fits.
fn draw_hints(
    mut commands: Commands,
    hints: Query<(Entity, &PlacementHint), Added<PlacementHint>>,
    mut art: ResMut<Art>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    for (entity, hint) in &hints {
        let (fill, line) = if hint.now {
            (hexa(0xf2c14e, 0.28), hexa(0xf2c14e, 0.95))
        } else {
            (hexa(0x6fa8ff, 0.12), hexa(0x6fa8ff, 0.7))
        };
        let s = TILE_SIZE - 14.0;
        let t = if hint.now { 7.0 } else { 4.0 };
        let mut pieces = vec![rect(fill, Vec2::ZERO, Vec2::splat(s), 0.0)];
        for side in Side::ALL {
            let n = side_dir(side);
            let along = Vec2::new(-n.y, n.x);
            let size = if along.x.abs() > 0.5 { Vec2::new(s, t) } else { Vec2::new(t, s) };
            pieces.push(rect(line, n * (s / 2.0 - t / 2.0), size, 0.001));
        }
        if !hint.now {
            // A turn arrow: "rotate to fit here".
            pieces.push(circle(hexa(0x6fa8ff, 0.8), Vec2::ZERO, 26.0, 0.002));
            pieces.push(circle(hexa(0x10141c, 0.9), Vec2::ZERO, 19.0, 0.003));
            pieces.push(rect(hexa(0x10141c, 0.9), Vec2::new(14.0, 10.0), Vec2::new(16.0, 20.0), 0.004));
            pieces.push(
                Piece::new(Shape::Triangle, hexa(0x6fa8ff, 0.9), Vec2::new(20.0, 6.0), Vec2::new(16.0, 12.0), 0.005)
                    .rotated(std::f32::consts::PI),
            );
        }
        art.spawn_pieces(&mut commands.entity(entity), pieces, &mut materials);
    }
}

/// A gold ring around the selected element token.
fn draw_selection(
    mut commands: Commands,
    rings: Query<Entity, Added<SelectionRing>>,
    mut art: ResMut<Art>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    for entity in &rings {
        let pieces = vec![
            Piece::new(Shape::Glow, hexa(0xffd86b, 0.6), Vec2::ZERO, Vec2::splat(120.0), 0.0),
            circle(hex(0xf2c14e), Vec2::ZERO, TOKEN_RADIUS + 7.0, 0.001),
        ];
        art.spawn_pieces(&mut commands.entity(entity), pieces, &mut materials);
    }
}

/// A tile in hand: the tile and its tokens as they will lie, without the
/// board's shading.
fn hand_tile_pieces(tile: &Tile) -> Vec<Piece> {
    let view = BoardView {
        seed: 0,
        tiles: vec![tile.clone()],
        lantern: crate::board::view::LanternAt { cell: (i32::MIN, i32::MIN), area: 0 },
        through: Vec::new(),
    };
    tile_pieces(&view, tile).into_iter().filter(|p| p.z >= Z_RIM && p.z < Z_SHADE).collect()
}

/// The tile waiting in the tray, drawn as the ghost is (`tray_preview.rs`
/// renders it into the tray's picture).
fn draw_tray_tile(
    mut commands: Commands,
    tiles: Query<(Entity, &TrayTile), Added<TrayTile>>,
    mut art: ResMut<Art>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    for (entity, t) in &tiles {
        art.spawn_pieces(&mut commands.entity(entity), hand_tile_pieces(&t.tile), &mut materials);
    }
}

/// The tile in hand, following the cursor or the keyboard.
fn draw_ghost(
    mut commands: Commands,
    ghosts: Query<(Entity, &GhostTile), Added<GhostTile>>,
    mut art: ResMut<Art>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    for (entity, ghost) in &ghosts {
        let mut pieces = hand_tile_pieces(&ghost.tile);
        let frame = if ghost.legal { hex(0xf2c14e) } else { hex(0xd7261c) };
        for side in Side::ALL {
            let n = side_dir(side);
            let along = Vec2::new(-n.y, n.x);
            let size =
                if along.x.abs() > 0.5 { Vec2::new(TILE_SIZE + 8.0, 6.0) } else { Vec2::new(6.0, TILE_SIZE + 8.0) };
            pieces.push(rect(frame, n * (TILE_SIZE / 2.0 + 1.0), size, Z_SHADE + 0.1));
        }
        art.spawn_pieces(&mut commands.entity(entity), pieces, &mut materials);
    }
}

/// The Lantern's picture, a child of the token so it can slide on its own.
#[derive(Component)]
pub(super) struct LanternArt;

fn draw_lantern(
    mut commands: Commands,
    new_lanterns: Query<Entity, Added<LanternToken>>,
    mut art: ResMut<Art>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    for entity in &new_lanterns {
        let mut picture = commands.spawn((LanternArt, Transform::default(), Visibility::default(), ChildOf(entity)));
        art.spawn_pieces(&mut picture, lantern_pieces(), &mut materials);
    }
}

/// How long the Lantern takes to walk to its new area (or to sink into a
/// passage and rise from the other end).
const LANTERN_SECS: f32 = 0.35;

/// The Lantern walks to where the Heroes went instead of jumping there.
fn slide_lantern(
    mut commands: Commands,
    time: Res<Time>,
    lanterns: Query<(Entity, &LanternMove, &Transform, &Children), With<LanternToken>>,
    mut pictures: Query<&mut Transform, (With<LanternArt>, Without<LanternToken>)>,
) {
    for (entity, moved, transform, children) in &lanterns {
        // Sinking and rising take a walk's time each.
        let secs = if moved.through.is_some() { 2.0 * LANTERN_SECS } else { LANTERN_SECS };
        let t = ((time.elapsed_secs() - moved.since) / secs).clamp(0.0, 1.0);
        let (offset, scale) = lantern_step(moved.from.truncate() - transform.translation.truncate(), t, moved.through);
        for child in children.iter() {
            if let Ok(mut picture) = pictures.get_mut(child) {
                picture.translation = offset.extend(0.0);
                picture.scale = Vec3::new(scale, scale, 1.0);
            }
        }
        if t >= 1.0 {
            commands.entity(entity).remove::<(LanternMove, Animating)>();
        }
    }
}

/// Where the Lantern's picture is (offset from its new place) and how big,
/// a fraction `t` of the way through its move from `back` away. A walk
/// slides there; through a passage it sinks where it was and rises where it
/// comes out, never crossing the walls between.
fn lantern_step(back: Vec2, t: f32, through: Option<depths_rules::map::Passage>) -> (Vec2, f32) {
    // Smoothstep: starts and stops gently.
    let ease = |t: f32| t * t * (3.0 - 2.0 * t);
    match through {
        None => (back * (1.0 - ease(t)), 1.0),
        Some(_) if t < 0.5 => (back, 1.0 - ease(t * 2.0)),
        Some(_) => (Vec2::ZERO, ease(t * 2.0 - 1.0)),
    }
}

/// A star with `points` spikes, outer radius 1 and inner radius `inner`, as a
/// triangle fan around its centre.
fn star_mesh(points: usize, inner: f32) -> Mesh {
    let mut positions = vec![[0.0, 0.0, 0.0]];
    let mut uvs = vec![[0.5, 0.5]];
    for i in 0..points * 2 {
        let a = std::f32::consts::FRAC_PI_2 + i as f32 * std::f32::consts::PI / points as f32;
        let r = if i % 2 == 0 { 1.0 } else { inner };
        let (x, y) = (r * a.cos(), r * a.sin());
        positions.push([x, y, 0.0]);
        uvs.push([0.5 + x / 2.0, 0.5 - y / 2.0]);
    }
    let n = (points * 2) as u32;
    let mut indices = Vec::new();
    for i in 1..=n {
        let next = if i == n { 1 } else { i + 1 };
        indices.extend_from_slice(&[0, i, next]);
    }
    let normals = vec![[0.0, 0.0, 1.0]; positions.len()];
    Mesh::new(PrimitiveTopology::TriangleList, RenderAssetUsages::RENDER_WORLD)
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
        .with_inserted_indices(Indices::U32(indices))
}

/// The wooden table under everything, on every screen.
fn spawn_table(mut commands: Commands, art: Res<Art>) {
    commands.spawn((
        Name::new("Table"),
        Mesh2d(art.meshes[&Shape::Square].clone()),
        MeshMaterial2d(art.table.clone()),
        Transform::from_xyz(0.0, 0.0, -5.0).with_scale(Vec3::new(TABLE_SIZE, TABLE_SIZE, 1.0)),
    ));
}

/// Dark walnut boards running east–west, with grain, seams and butt joints.
/// Tiles seamlessly in both directions.
fn wood_planks(seed: u64, size: usize) -> Vec<u8> {
    let mut rng = SplitMix64(seed);
    let boards = 4;
    let board_h = size / boards;
    let tints: Vec<f32> = (0..boards).map(|_| 0.85 + rng.next_f32() * 0.3).collect();
    let joints: Vec<usize> = (0..boards).map(|_| rng.below(size)).collect();
    let phase: Vec<f32> = (0..boards).map(|_| rng.next_f32() * 40.0).collect();
    let noise_seed = rng.next_u64();
    let mut data = Vec::with_capacity(size * size * 4);
    for y in 0..size {
        let b = (y / board_h).min(boards - 1);
        let yy = y % board_h;
        for x in 0..size {
            // Periodic noise so the texture repeats without a seam.
            let n = periodic_noise(noise_seed ^ b as u64, x as f32 / 32.0, yy as f32 / 6.0, size as f32 / 32.0);
            let grain = ((yy as f32 + n * 9.0 + phase[b]) * 0.9).sin() * 0.5 + 0.5;
            let fine = hash2(noise_seed ^ 0x77, x as i32 / 3, y as i32) * 0.06;
            let mut k = tints[b] * (0.82 + 0.18 * grain) + fine;
            if yy < 2 || x.abs_diff(joints[b]) < 2 {
                k *= 0.6; // seams between boards
            }
            let (r, g, bl) = (0.26 * k, 0.16 * k, 0.10 * k);
            for c in [r, g, bl] {
                data.push((c.clamp(0.0, 1.0) * 255.0) as u8);
            }
            data.push(255);
        }
    }
    data
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new player saw the Lantern slide across a locked Door: it had gone
    /// through a Secret Passage. Through a passage it is only ever where it
    /// was or where it comes out, never between; a walk slides.
    #[test]
    fn the_lantern_never_crosses_walls_through_a_passage() {
        let back = Vec2::new(-640.0, 0.0);
        for i in 0..=20 {
            let t = i as f32 / 20.0;
            let (offset, scale) = lantern_step(back, t, Some(depths_rules::map::Passage::SecretPassage));
            assert!(offset == back || offset == Vec2::ZERO, "at {t} the Lantern was at {offset}");
            assert!((0.0..=1.0).contains(&scale), "at {t} scale {scale}");
        }
        assert_eq!(lantern_step(back, 0.0, Some(depths_rules::map::Passage::WarpPortal)), (back, 1.0));
        assert_eq!(lantern_step(back, 1.0, Some(depths_rules::map::Passage::WarpPortal)), (Vec2::ZERO, 1.0));
        let (walked, _) = lantern_step(back, 0.5, None);
        assert!(walked.x > back.x && walked.x < 0.0, "a walk slides: {walked}");
    }

    /// Issue: "a campfire that flickers". Its three flames move, each from
    /// its foot (the flame stands on its logs), and no other token does.
    #[test]
    fn a_campfire_flickers_on_its_logs_and_nothing_else_does() {
        let mut out = Vec::new();
        element_token(&mut out, Element::Campfire, Vec2::ZERO, 0.0);
        let flames: Vec<&Piece> = out.iter().filter(|p| p.flicker.is_some()).collect();
        assert_eq!(flames.len(), 3, "the campfire's flames");
        for flame in flames {
            let rest = flame.transform();
            let foot = |t: Transform| t.translation.y - t.scale.y / 2.0;
            let frames: Vec<Transform> =
                (0..40).map(|i| flame_at(rest, flame.flicker.unwrap(), i as f32 * 0.05)).collect();
            for f in &frames {
                assert!((foot(*f) - foot(rest)).abs() < 1e-3, "the flame leaves its logs: {f:?}");
            }
            let heights = frames.iter().map(|f| f.scale.y);
            let (low, high) = heights.fold((f32::MAX, f32::MIN), |(l, h), y| (l.min(y), h.max(y)));
            assert!(high - low > rest.scale.y * 0.1, "the flame hardly moves: {low}..{high}");
        }
        for element in
            [Element::Monster { count: 2 }, Element::Feature, Element::Door, Element::Chest, Element::StairGuardian]
        {
            let mut out = Vec::new();
            element_token(&mut out, element, Vec2::ZERO, 0.0);
            assert!(out.iter().all(|p| p.flicker.is_none()), "{element:?} flickers");
        }
    }

    #[test]
    fn open_edges_leave_a_gap_and_walls_do_not() {
        let mut wall = Vec::new();
        wall_pieces(&mut wall, Side::N, Edge::Wall, 100.0);
        let mut open = Vec::new();
        wall_pieces(&mut open, Side::N, Edge::Open, 100.0);
        let bands = |p: &[Piece]| p.iter().filter(|p| p.color == palette::WALL.sprite()).count();
        assert_eq!(bands(&wall), 1);
        assert_eq!(bands(&open), 2);
    }

    #[test]
    fn every_element_draws_a_distinct_icon() {
        use Element::*;
        let icons: Vec<Vec<(Shape, Vec2)>> =
            [Monster { count: 1 }, Monster { count: 2 }, Feature, Door, Chest, Campfire, StairGuardian]
                .into_iter()
                .map(|e| {
                    let mut out = Vec::new();
                    element_token(&mut out, e, Vec2::ZERO, 0.0);
                    out.iter().skip(3).map(|p| (p.shape, p.size)).collect()
                })
                .collect();
        for (i, a) in icons.iter().enumerate() {
            assert!(!a.is_empty());
            for b in &icons[i + 1..] {
                assert_ne!(a, b, "two elements share an icon outline");
            }
        }
    }

    #[test]
    fn boundary_stays_inside_the_tile() {
        let content = depths_rules::Content::builtin().unwrap();
        let printed = depths_rules::Ecology::ALL
            .iter()
            .flat_map(|e| content.ecology(*e).tiles.iter())
            .find(|t| t.areas.len() == 2)
            .unwrap();
        let split =
            Tile::from_printed(printed, depths_rules::map::Placement { cell: (0, 0), rotation: Default::default() });
        let map = BoardView {
            seed: 5,
            tiles: vec![split.clone()],
            lantern: crate::board::view::LanternAt { cell: (9, 9), area: 0 },
            through: Vec::new(),
        };
        let pieces = tile_pieces(&map, &split);
        let h = TILE_SIZE / 2.0;
        for p in pieces.iter().filter(|p| p.z >= Z_BOUNDARY && p.z < Z_WALL) {
            assert!(p.pos.x.abs() <= h && p.pos.y.abs() <= h, "{p:?}");
        }
    }
}
