//! Map Tiles, placement, accessibility and Legendary Location discovery ("Exploring").

pub mod dead_end;
// Named after the rulebook's nouns; the placed map is "the map" inside `map`.
#[allow(clippy::module_inception)]
pub mod map;
pub mod map_tile;
pub mod preview;
pub mod rune_pattern;
pub mod tile_pile;

pub use dead_end::{DeadEndAllowance, DeadEndError};
pub use map::{
    AreaRef, Cell, ElementRef, ElementState, Frontier, Map, MapError, Passage, PlacedTile, Placement, PlacementError,
    TileShape,
};
pub use map_tile::{
    Area, Corner, Corners, Edge, Edges, Element, MapTile, Marking, Rotation, Side, Sides, TileError, TileKind,
    TileProblem,
};
pub use preview::{PlaceCounts, Preview};
pub use rune_pattern::{
    NodeRef, RuneCell, RuneError, RuneMatch, RuneMatches, RunePattern, Symmetry, ThroughCounter, TurnedPatterns,
    UsedRunes, discovered_legendary_locations, legendary_locations_through,
};
pub use tile_pile::{PileError, SortedTiles, TilePile};
