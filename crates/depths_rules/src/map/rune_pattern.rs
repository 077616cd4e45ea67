//! Discovering Legendary Locations by Rune Patterns ("5. Legendary
//! Locations", "Caverns: Water", "Caverns: Boat and Sword Icons").
//!
//! A pattern matches when, under one of the 8 rotations and mirror images,
//! each of its cells lies on a placed tile carrying (at least) that cell's
//! Nodes. Access does not matter; unused Nodes do.

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::map::{Cell, Map, PlacedTile, step};
use super::map_tile::{Corner, Corners, Rotation, Side, Sides};

/// One square rune of a pattern: a tile at `offset` with Nodes on `nodes`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuneCell {
    /// `[x, y]`, with `y` growing northward as on the map.
    pub offset: (i32, i32),
    pub nodes: Sides,
}

/// The Rune Pattern on the back of a group of Legendary Location cards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunePattern {
    pub id: String,
    pub cells: Vec<RuneCell>,
    /// Caverns: the tiles must be joined by water meeting at corners.
    #[serde(default)]
    pub water_connected: bool,
    /// Caverns: the first cell's tile shows the Boat, the last one the Sword.
    #[serde(default)]
    pub boat_first_sword_last: bool,
}

impl RunePattern {
    pub fn validate(&self) -> Result<(), RuneError> {
        if self.id.trim().is_empty() || self.cells.is_empty() {
            return Err(RuneError::BadPattern(self.id.clone()));
        }
        let offsets: BTreeSet<_> = self.cells.iter().map(|c| c.offset).collect();
        if offsets.len() != self.cells.len() {
            return Err(RuneError::BadPattern(self.id.clone()));
        }
        Ok(())
    }
}

/// A rotation, after an optional left–right mirror image.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Symmetry {
    pub mirrored: bool,
    pub rotation: Rotation,
}

impl Symmetry {
    pub fn all() -> impl Iterator<Item = Symmetry> {
        [false, true]
            .into_iter()
            .flat_map(|mirrored| Rotation::ALL.into_iter().map(move |rotation| Symmetry { mirrored, rotation }))
    }

    pub fn apply_offset(self, (mut x, mut y): (i32, i32)) -> (i32, i32) {
        if self.mirrored {
            x = -x;
        }
        for _ in 0..self.rotation.quarter_turns() {
            // A clockwise quarter turn with y northward: north becomes east.
            (x, y) = (y, -x);
        }
        (x, y)
    }

    pub fn apply_sides(self, sides: Sides) -> Sides {
        let sides = if self.mirrored { sides.mirrored() } else { sides };
        sides.rotated(self.rotation)
    }
}

/// One Node: the side of a placed tile, as seen on the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct NodeRef {
    pub cell: Cell,
    pub side: Side,
}

/// A place where a pattern can be built now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RuneMatch {
    pub pattern: String,
    pub symmetry: Symmetry,
    /// The map cell of each pattern cell, in the pattern's order.
    pub cells: Vec<Cell>,
    /// The Nodes used, sorted.
    pub nodes: Vec<NodeRef>,
}

/// Nodes covered by Encounter Tokens and patterns already Encountered in
/// this Ecology; start a fresh one per Ecology.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct UsedRunes {
    pub nodes: BTreeSet<NodeRef>,
    pub patterns: BTreeSet<String>,
}

impl UsedRunes {
    /// The Heroes Encounter the Legendary Location of `m`: "place Encounter
    /// Tokens ... on the Nodes used ... These Nodes cannot be used again",
    /// and "each Rune Pattern can only be Encountered once per Ecology".
    /// Take `m` from [`discovered_legendary_locations`].
    pub fn record(&mut self, m: &RuneMatch) -> Result<(), RuneError> {
        if self.patterns.contains(&m.pattern) {
            return Err(RuneError::PatternTaken(m.pattern.clone()));
        }
        if let Some(&node) = m.nodes.iter().find(|n| self.nodes.contains(n)) {
            return Err(RuneError::NodeUsed(node));
        }
        self.patterns.insert(m.pattern.clone());
        self.nodes.extend(m.nodes.iter().copied());
        Ok(())
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RuneError {
    BadPattern(String),
    PatternTaken(String),
    NodeUsed(NodeRef),
}

impl fmt::Display for RuneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuneError::BadPattern(id) => {
                write!(f, "rune pattern \"{id}\" needs an id and cells at distinct offsets")
            }
            RuneError::PatternTaken(id) => write!(f, "rune pattern \"{id}\" was already Encountered in this Ecology"),
            RuneError::NodeUsed(n) => write!(f, "the Node on side {:?} of cell {:?} was already used", n.side, n.cell),
        }
    }
}

impl std::error::Error for RuneError {}

/// Every Legendary Location the Heroes may Encounter now: each match of a
/// pattern not yet Encountered that uses no used Node. Two listed matches
/// may share a Node; once one is recorded the other is no longer listed.
pub fn discovered_legendary_locations(map: &Map, patterns: &[RunePattern], used: &UsedRunes) -> Vec<RuneMatch> {
    let mut out: Vec<RuneMatch> = Vec::new();
    for pattern in patterns {
        if used.patterns.contains(&pattern.id) || pattern.validate().is_err() {
            continue;
        }
        for symmetry in Symmetry::all() {
            let shape: Vec<((i32, i32), Sides)> = pattern
                .cells
                .iter()
                .map(|c| (symmetry.apply_offset(c.offset), symmetry.apply_sides(c.nodes)))
                .collect();
            let (first, _) = shape[0];
            for anchor in map.tiles() {
                let shift = (anchor.cell.0 - first.0, anchor.cell.1 - first.1);
                if let Some(m) = try_match(map, pattern, symmetry, &shape, shift, used) {
                    let same = |o: &RuneMatch| {
                        o.pattern == m.pattern && o.nodes == m.nodes && sorted(&o.cells) == sorted(&m.cells)
                    };
                    if !out.iter().any(same) {
                        out.push(m);
                    }
                }
            }
        }
    }
    out
}

fn sorted(cells: &[Cell]) -> Vec<Cell> {
    let mut v = cells.to_vec();
    v.sort_unstable();
    v
}

fn try_match(
    map: &Map,
    pattern: &RunePattern,
    symmetry: Symmetry,
    shape: &[((i32, i32), Sides)],
    shift: (i32, i32),
    used: &UsedRunes,
) -> Option<RuneMatch> {
    let mut cells = Vec::with_capacity(shape.len());
    let mut nodes = Vec::new();
    let mut tiles: Vec<&PlacedTile> = Vec::with_capacity(shape.len());
    for &((x, y), want) in shape {
        let cell = (x + shift.0, y + shift.1);
        let placed = map.tile_at(cell)?;
        if !placed.tile.nodes.rotated(placed.rotation).contains_all(want) {
            return None;
        }
        for side in want.iter() {
            let node = NodeRef { cell, side };
            if used.nodes.contains(&node) {
                return None;
            }
            nodes.push(node);
        }
        cells.push(cell);
        tiles.push(placed);
    }
    if pattern.boat_first_sword_last && !(tiles[0].tile.boat && tiles[tiles.len() - 1].tile.sword) {
        return None;
    }
    if pattern.water_connected && !water_connected(&tiles) {
        return None;
    }
    nodes.sort_unstable();
    Some(RuneMatch { pattern: pattern.id.clone(), symmetry, cells, nodes })
}

/// The tile's water corners as they lie on the map.
pub fn water_on_map(placed: &PlacedTile) -> Corners {
    placed.tile.water_corners.rotated(placed.rotation)
}

/// "For water to be connected, water must meet water in at least one corner
/// of orthogonally adjacent tiles": `b` lies across `side` of `a`.
pub fn water_meets(a: &PlacedTile, side: Side, b: &PlacedTile) -> bool {
    let (wa, wb) = (water_on_map(a), water_on_map(b));
    Corner::ends_of(side).into_iter().any(|c| wa.contains(c) && c.across(side).is_some_and(|d| wb.contains(d)))
}

/// All the tiles are joined to each other by water meeting at corners.
fn water_connected(tiles: &[&PlacedTile]) -> bool {
    let mut joined = vec![false; tiles.len()];
    joined[0] = true;
    let mut stack = vec![0];
    while let Some(i) = stack.pop() {
        for (j, t) in tiles.iter().enumerate() {
            if joined[j] {
                continue;
            }
            let touching = Side::ALL.into_iter().find(|&s| step(tiles[i].cell, s) == t.cell);
            if touching.is_some_and(|s| water_meets(tiles[i], s, t)) {
                joined[j] = true;
                stack.push(j);
            }
        }
    }
    joined.iter().all(|&j| j)
}
