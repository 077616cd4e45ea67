//! The board model the client shows, and the entities that stand for it.
//!
//! Sync systems keep one [`BoardTile`] entity per placed tile and one
//! [`LanternToken`], positioned in world space. How they look is
//! `board_art`'s business, so this module runs headless.

use bevy::prelude::*;

use crate::{
    PlaySystems,
    demo_map::{Cell, DemoMap, Side, Tile},
    screens::Screen,
};

/// World units per tile side.
pub const TILE_SIZE: f32 = 240.0;
/// Thickness of a wall drawn along a tile edge.
pub const WALL_THICKNESS: f32 = 26.0;
/// Distance between the centres of two tokens side by side in an area.
pub const TOKEN_SPACING: f32 = 70.0;

/// The map on the table. // replaced by depths_rules' Game once merged
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct Board(pub DemoMap);

/// A placed map tile.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardTile {
    pub cell: Cell,
}

/// The Lantern token, which marks where the heroes are.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LanternToken;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (spawn_new_tiles, place_lantern)
            .chain()
            .in_set(PlaySystems::Sync)
            .run_if(in_state(Screen::Playing).and_then(resource_exists_and_changed::<Board>)),
    );
    app.add_systems(OnExit(Screen::Playing), |mut commands: Commands| {
        commands.remove_resource::<Board>();
    });
}

/// World position of a cell's centre.
pub fn cell_center(cell: Cell) -> Vec2 {
    Vec2::new(cell.x as f32, cell.y as f32) * TILE_SIZE
}

/// The rectangle the placed tiles cover, in world units.
pub fn map_bounds(map: &DemoMap) -> Rect {
    let mut bounds = Rect::EMPTY;
    for tile in &map.tiles {
        let c = cell_center(tile.cell);
        bounds = bounds.union(Rect::from_center_size(c, Vec2::splat(TILE_SIZE)));
    }
    bounds
}

/// Unit vector from a tile's centre towards the middle of `side`.
pub fn side_dir(side: Side) -> Vec2 {
    let (x, y) = side.offset();
    Vec2::new(x as f32, y as f32)
}

/// Where an area's tokens gather, relative to the tile centre: the middle of the
/// tile for a tile with one area, otherwise pulled towards the area's exits.
pub fn area_anchor(tile: &Tile, area: usize) -> Vec2 {
    if tile.areas.len() <= 1 {
        return Vec2::ZERO;
    }
    let exits = &tile.areas[area].exits;
    if exits.is_empty() {
        return Vec2::ZERO;
    }
    let sum: Vec2 = exits.iter().map(|s| side_dir(*s)).sum();
    let mean = sum / exits.len() as f32;
    mean * TILE_SIZE * 0.25
}

/// Offset of token `index` among `count` tokens in a row centred on an anchor.
pub fn slot_offset(index: usize, count: usize) -> Vec2 {
    let x = (index as f32 - (count.saturating_sub(1)) as f32 / 2.0) * TOKEN_SPACING;
    Vec2::new(x, 0.0)
}

/// How many tokens stand in an area: its elements, plus the Lantern if it is there.
pub fn tokens_in_area(map: &DemoMap, tile: &Tile, area: usize) -> usize {
    let lantern = usize::from(map.lantern.cell == tile.cell && map.lantern.area == area);
    tile.areas[area].elements.len() + lantern
}

/// World position of the Lantern token: the last slot of its area.
pub fn lantern_position(map: &DemoMap) -> Option<Vec2> {
    let tile = map.tile_at(map.lantern.cell)?;
    let count = tokens_in_area(map, tile, map.lantern.area);
    Some(
        cell_center(tile.cell)
            + area_anchor(tile, map.lantern.area)
            + slot_offset(count - 1, count),
    )
}

fn spawn_new_tiles(mut commands: Commands, board: Res<Board>, existing: Query<&BoardTile>) {
    for tile in &board.0.tiles {
        if existing.iter().any(|t| t.cell == tile.cell) {
            continue;
        }
        commands.spawn((
            Name::new(format!("Tile ({}, {})", tile.cell.x, tile.cell.y)),
            BoardTile { cell: tile.cell },
            Transform::from_translation(cell_center(tile.cell).extend(0.0)),
            Visibility::default(),
            DespawnOnExit(Screen::Playing),
        ));
    }
}

fn place_lantern(
    mut commands: Commands,
    board: Res<Board>,
    mut lantern: Query<&mut Transform, With<LanternToken>>,
) {
    let Some(pos) = lantern_position(&board.0) else {
        return;
    };
    // Above every tile and token.
    let translation = pos.extend(10.0);
    match lantern.single_mut() {
        Ok(mut transform) => transform.translation = translation,
        Err(_) => {
            commands.spawn((
                Name::new("Lantern"),
                LanternToken,
                Transform::from_translation(translation),
                Visibility::default(),
                DespawnOnExit(Screen::Playing),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_cover_every_tile() {
        let map = DemoMap::new(3);
        let b = map_bounds(&map);
        assert_eq!(b.min, Vec2::new(-1.5, -1.5) * TILE_SIZE);
        assert_eq!(b.max, Vec2::new(2.5, 1.5) * TILE_SIZE);
    }

    #[test]
    fn lantern_stands_beside_the_stairs_on_the_entrance() {
        let map = DemoMap::new(3);
        let pos = lantern_position(&map).unwrap();
        assert_eq!(pos, Vec2::new(TOKEN_SPACING / 2.0, 0.0));
    }
}
