//! Map Tiles, placement, accessibility and Legendary Location discovery ("Exploring").

// Named after the rulebook's nouns; the placed map is "the map" inside `map`.
#[allow(clippy::module_inception)]
pub mod map;
pub mod map_tile;

pub use map::{
    AreaRef, Cell, ElementRef, ElementState, Frontier, Map, MapError, PlacedTile, Placement, PlacementError,
};
pub use map_tile::{
    Area, Corner, Corners, Edge, Edges, Element, MapTile, Marking, Rotation, Side, Sides, TileError,
    TileKind, TileProblem,
};
