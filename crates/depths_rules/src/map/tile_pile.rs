//! The Map Tile Draw Pile ("Game Setup", "2. Ecology Map Tiles").

use std::fmt;

use serde::{Deserialize, Serialize};

use super::map_tile::{MapTile, TileError, TileKind};
use crate::ecology::Ecology;
use crate::rng::GameRng;

/// Face-down Map Tiles; the last one is the top.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TilePile {
    tiles: Vec<MapTile>,
}

/// How many tiles lie under the Stairs Tile.
pub const TILES_UNDER_STAIRS: usize = 3;

impl TilePile {
    /// Sorts out one Ecology's tiles: returns the Entry Tile (to be placed
    /// with the Lantern on it) and the pile, "with the Stairs Tile located
    /// fourth from the bottom" and the rest shuffled. With fewer than three
    /// other tiles the Stairs Tile lies on all of them.
    pub fn deal(tiles: Vec<MapTile>, rng: &mut GameRng) -> Result<(MapTile, TilePile), PileError> {
        Ok(SortedTiles::new(tiles)?.deal(rng))
    }

    /// Takes the top tile.
    pub fn draw(&mut self) -> Option<MapTile> {
        self.tiles.pop()
    }

    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// Bottom first.
    pub fn tiles(&self) -> &[MapTile] {
        &self.tiles
    }

    /// Puts the tiles in a new random order, as far as the players cannot
    /// know it: the Stairs Tile keeps its place ("fourth from the bottom",
    /// which everyone saw at Setup) and every other tile may lie anywhere
    /// else. The new order depends only on which tiles are in the pile and on
    /// `rng`, never on their old order.
    pub fn reshuffle_hidden(&mut self, rng: &mut GameRng) {
        let stairs = self.tiles.iter().position(|t| t.kind == TileKind::Stairs);
        let stairs_tile = stairs.map(|i| self.tiles.remove(i));
        self.tiles.sort_by(|a, b| a.id.cmp(&b.id));
        rng.shuffle(&mut self.tiles);
        if let (Some(i), Some(tile)) = (stairs, stairs_tile) {
            self.tiles.insert(i, tile);
        }
    }

    /// Moves the tile with this id to the top of the pile (for set-up scenarios
    /// and tests); false if it is not in the pile.
    pub fn put_on_top(&mut self, id: &str) -> bool {
        let Some(i) = self.tiles.iter().position(|t| t.id == id) else { return false };
        let tile = self.tiles.remove(i);
        self.tiles.push(tile);
        true
    }
}

/// One Ecology's tiles checked and sorted out, to be dealt into many games
/// ([`TilePile::deal`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SortedTiles {
    entry: MapTile,
    stairs: MapTile,
    /// The other tiles, in the order given.
    rest: Vec<MapTile>,
}

impl SortedTiles {
    pub fn new(tiles: Vec<MapTile>) -> Result<SortedTiles, PileError> {
        let Some(first) = tiles.first() else {
            return Err(PileError::Empty);
        };
        let ecology = first.ecology;
        let mut entry = None;
        let mut stairs = None;
        let mut rest = Vec::with_capacity(tiles.len());
        let mut seen = std::collections::HashSet::new();
        for tile in tiles {
            tile.validate().map_err(PileError::InvalidTile)?;
            if tile.ecology != ecology {
                return Err(PileError::MixedEcologies { tile: tile.id, ecology: tile.ecology, expected: ecology });
            }
            if !seen.insert(tile.id.clone()) {
                return Err(PileError::DuplicateId(tile.id));
            }
            let slot = match tile.kind {
                TileKind::Entry => &mut entry,
                TileKind::Stairs => &mut stairs,
                TileKind::Normal => {
                    rest.push(tile);
                    continue;
                }
            };
            if let Some(other) = slot.replace(tile) {
                return Err(PileError::TwoOfKind { kind: other.kind, ecology });
            }
        }
        let entry = entry.ok_or(PileError::Missing { kind: TileKind::Entry, ecology })?;
        let stairs = stairs.ok_or(PileError::Missing { kind: TileKind::Stairs, ecology })?;
        Ok(SortedTiles { entry, stairs, rest })
    }

    /// The Entry Tile and the pile, as [`TilePile::deal`] gives them.
    pub fn deal(&self, rng: &mut GameRng) -> (MapTile, TilePile) {
        let mut rest = Vec::with_capacity(self.rest.len() + 1);
        rest.extend(self.rest.iter().cloned());
        rng.shuffle(&mut rest);
        let under = TILES_UNDER_STAIRS.min(rest.len());
        rest.insert(under, self.stairs.clone());
        (self.entry.clone(), TilePile { tiles: rest })
    }
}

/// Why an Ecology's tiles cannot form a pile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PileError {
    Empty,
    InvalidTile(TileError),
    MixedEcologies { tile: String, ecology: Ecology, expected: Ecology },
    DuplicateId(String),
    Missing { kind: TileKind, ecology: Ecology },
    TwoOfKind { kind: TileKind, ecology: Ecology },
}

impl fmt::Display for PileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PileError::Empty => write!(f, "no Map Tiles to deal"),
            PileError::InvalidTile(e) => write!(f, "{e}"),
            PileError::MixedEcologies { tile, ecology, expected } => {
                write!(f, "map tile \"{tile}\" belongs to the {}, not the {}", ecology.name(), expected.name())
            }
            PileError::DuplicateId(id) => write!(f, "two map tiles have the id \"{id}\""),
            PileError::Missing { kind, ecology } => {
                write!(f, "the {} have no {kind:?} tile", ecology.name())
            }
            PileError::TwoOfKind { kind, ecology } => {
                write!(f, "the {} have two {kind:?} tiles", ecology.name())
            }
        }
    }
}

impl std::error::Error for PileError {}
