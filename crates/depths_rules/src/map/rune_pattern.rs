//! Discovering Legendary Locations by Rune Patterns ("5. Legendary
//! Locations", "Caverns: Water", "Caverns: Boat and Sword Icons").
//!
//! A pattern matches when, under one of the 8 rotations and mirror images,
//! each of its cells lies on a placed tile carrying (at least) that cell's
//! Nodes. Access does not matter; unused Nodes do.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::map::{Cell, Map, PlacedTile, step};
use super::map_tile::{Corner, Corners, MapTile, Rotation, Side, Sides};
use super::preview::Preview;

/// How far a pattern's cells may lie from its first (more than any Ecology
/// has tiles).
const MAX_OFFSET: i32 = 64;

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
        // Checked on every search for matches: compare pairs, no allocation.
        let repeated = self.cells.iter().enumerate().any(|(i, a)| self.cells[..i].iter().any(|b| b.offset == a.offset));
        // A pattern lies on a few tiles: offsets far beyond a map's reach would
        // only overflow the search's arithmetic (a save carries its patterns).
        let far = self.cells.iter().any(|c| c.offset.0.abs() > MAX_OFFSET || c.offset.1.abs() > MAX_OFFSET);
        if repeated || far {
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
    matches(map, patterns, used, None)
}

/// Every match of an Ecology's patterns on its map, used Nodes or not, in
/// the order [`discovered_legendary_locations`] finds them. Worked out again
/// when a tile is placed, so that asking what the Heroes may Encounter (every
/// list of legal actions while Exploring) filters a list instead of searching
/// the map. A map it was not worked out for is searched as before.
#[derive(Clone, Debug, Default)]
pub struct RuneMatches {
    /// The map's tile count and last placed cell when worked out.
    map: Option<(usize, Cell)>,
    matches: Vec<RuneMatch>,
    /// Where the search of the whole map first finds each match: (pattern,
    /// symmetry, index of the tile under the pattern's first cell). The list
    /// is in this order.
    keys: Vec<(usize, usize, usize)>,
    /// The Ecology's patterns turned, for the searches after each placement.
    turned: Option<Arc<TurnedPatterns>>,
}

/// Worked out from the rest of the state: never what tells two games apart.
impl PartialEq for RuneMatches {
    fn eq(&self, _: &RuneMatches) -> bool {
        true
    }
}

impl RuneMatches {
    /// Searches the whole map.
    pub fn refresh(&mut self, map: &Map, patterns: &[RunePattern]) {
        self.refresh_turned(map, patterns, Arc::new(TurnedPatterns::new(patterns, &UsedRunes::default())));
    }

    /// [`RuneMatches::refresh`] with `patterns` already turned (no used runes).
    pub(crate) fn refresh_turned(&mut self, map: &Map, patterns: &[RunePattern], turned: Arc<TurnedPatterns>) {
        (self.matches, self.keys) = keyed_matches(map, patterns, &turned, None);
        self.turned = Some(turned);
        self.map = Some(map_key(map));
    }

    /// The patterns turned, none taken for used, if worked out for `patterns`.
    pub(crate) fn turned(&self, patterns: &[RunePattern]) -> Option<&TurnedPatterns> {
        self.turned.as_deref().filter(|t| t.patterns == patterns.len())
    }

    /// Brings the list up to date after a tile is placed: a placed tile takes
    /// no match away, so only the matches through it are searched and put in
    /// their places in the order of [`RuneMatches::refresh`], which gives the
    /// same list. Searches the whole map unless the list was last worked out
    /// for the map as it was before this tile.
    pub fn placed(&mut self, map: &Map, patterns: &[RunePattern]) {
        let tiles = map.tiles();
        let Some(new) = tiles.last() else { return self.refresh(map, patterns) };
        let before = (tiles.len() - 1, tiles.len().checked_sub(2).map_or((0, 0), |i| tiles[i].cell));
        let turned = match &self.turned {
            Some(t) if self.map == Some(before) && t.patterns == patterns.len() => Arc::clone(t),
            _ => return self.refresh(map, patterns),
        };
        let (found, keys) = keyed_matches(map, patterns, &turned, Some(new));
        if !found.is_empty() {
            let old = std::mem::take(&mut self.matches).into_iter().zip(std::mem::take(&mut self.keys));
            let mut all: Vec<(RuneMatch, (usize, usize, usize))> = old.chain(found.into_iter().zip(keys)).collect();
            // Keys are distinct: each (pattern, symmetry, anchor) finds one place.
            all.sort_by_key(|(_, k)| *k);
            (self.matches, self.keys) = all.into_iter().unzip();
        }
        self.map = Some(map_key(map));
    }

    /// [`discovered_legendary_locations`].
    pub fn discovered(&self, map: &Map, patterns: &[RunePattern], used: &UsedRunes) -> Vec<RuneMatch> {
        if self.map != Some(map_key(map)) {
            return discovered_legendary_locations(map, patterns, used);
        }
        self.matches.iter().filter(|m| usable(m, used)).cloned().collect()
    }

    /// How many [`RuneMatches::discovered`] lists, without the list.
    pub fn count(&self, map: &Map, patterns: &[RunePattern], used: &UsedRunes) -> usize {
        if self.map != Some(map_key(map)) {
            return discovered_legendary_locations(map, patterns, used).len();
        }
        self.matches.iter().filter(|m| usable(m, used)).count()
    }
}

fn map_key(map: &Map) -> (usize, Cell) {
    (map.tiles().len(), map.tiles().last().map_or((0, 0), |t| t.cell))
}

/// A match found with no Node used is still there to Encounter: its pattern
/// not yet Encountered, and none of its Nodes used.
fn usable(m: &RuneMatch, used: &UsedRunes) -> bool {
    !used.patterns.contains(&m.pattern) && m.nodes.iter().all(|n| !used.nodes.contains(n))
}

/// The [`discovered_legendary_locations`] that use the tile at `cell`. A
/// tile placed takes no match away: the map's matches are those it had
/// before and those through the new tile, so a bot weighing where to put a
/// tile need not look at the whole map again for each place.
pub fn legendary_locations_through(
    map: &Map,
    cell: Cell,
    patterns: &[RunePattern],
    used: &UsedRunes,
) -> Vec<RuneMatch> {
    matches(map, patterns, used, Some(cell))
}

/// Where a search looks: the map, and a tile not placed yet (a
/// [`crate::map::Preview`]'s) as if it were.
#[derive(Clone, Copy)]
struct Look<'m> {
    map: &'m Map,
    extra: Option<&'m PlacedTile>,
    /// The map's Nodes, for the cells other than the extra tile's.
    grid: Option<&'m NodeGrid>,
}

/// The Nodes of the map's tiles that are not used, by cell, in an array
/// (a search looks a cell up for every try; the index is a hash map).
struct NodeGrid {
    corner: Cell,
    width: i32,
    height: i32,
    /// `None` where no tile lies.
    cells: Vec<Option<Sides>>,
}

impl NodeGrid {
    fn new(map: &Map, used: &UsedRunes) -> NodeGrid {
        let tiles = map.tiles();
        let (mut lo, mut hi) = ((0, 0), (0, 0));
        for t in tiles {
            lo = (lo.0.min(t.cell.0), lo.1.min(t.cell.1));
            hi = (hi.0.max(t.cell.0), hi.1.max(t.cell.1));
        }
        let (width, height) = (hi.0 - lo.0 + 1, hi.1 - lo.1 + 1);
        let mut grid = NodeGrid { corner: lo, width, height, cells: vec![None; (width * height) as usize] };
        for t in tiles {
            let nodes = nodes_on_map(t);
            let free = Side::ALL
                .into_iter()
                .filter(|&side| nodes.contains(side) && !used.nodes.contains(&NodeRef { cell: t.cell, side }))
                .fold(Sides::NONE, Sides::with);
            let i = grid.index(t.cell).expect("inside");
            grid.cells[i] = Some(free);
        }
        grid
    }

    fn index(&self, (x, y): Cell) -> Option<usize> {
        let (x, y) = (x - self.corner.0, y - self.corner.1);
        (x >= 0 && y >= 0 && x < self.width && y < self.height).then(|| (y * self.width + x) as usize)
    }

    /// A tile lies at `cell` with every Node of `want`, none of them used.
    fn fits(&self, cell: Cell, want: Sides) -> bool {
        self.index(cell).and_then(|i| self.cells[i]).is_some_and(|free| free.contains_all(want))
    }
}

impl<'m> Look<'m> {
    fn at(self, cell: Cell) -> Option<&'m PlacedTile> {
        match self.extra {
            Some(p) if p.cell == cell => Some(p),
            _ => self.map.tile_at(cell),
        }
    }
}

/// The patterns not yet Encountered under every symmetry, worked out once
/// to be searched many times (a bot looks for matches through every place
/// it weighs for a tile).
#[derive(Clone, Debug, Default)]
pub struct TurnedPatterns {
    /// (pattern index, symmetry index as [`Symmetry::all`] lists them, and
    /// where in `cells` its cells start and end).
    turns: Vec<(usize, usize, usize, usize)>,
    /// Each pattern cell turned: (offset, Nodes).
    cells: Vec<((i32, i32), Sides)>,
    /// The most cells of a pattern.
    longest: usize,
    /// How many patterns were given.
    patterns: usize,
}

impl TurnedPatterns {
    /// The patterns not in `used` and valid, turned. A turn that lies on
    /// the same cells with the same Nodes as an earlier turn of its pattern
    /// (a pattern that looks the same turned) finds the same matches, later:
    /// it is left out.
    pub fn new(patterns: &[RunePattern], used: &UsedRunes) -> TurnedPatterns {
        let mut t = TurnedPatterns { patterns: patterns.len(), ..TurnedPatterns::default() };
        let cells: usize = patterns.iter().map(|p| p.cells.len()).sum();
        t.turns.reserve(patterns.len() * 8);
        t.cells.reserve(cells * 8);
        for (p, pattern) in patterns.iter().enumerate() {
            if (!used.patterns.is_empty() && used.patterns.contains(&pattern.id)) || pattern.validate().is_err() {
                continue;
            }
            t.longest = t.longest.max(pattern.cells.len());
            let first = t.turns.len();
            for (s, symmetry) in Symmetry::all().enumerate() {
                let start = t.cells.len();
                t.cells.extend(
                    pattern.cells.iter().map(|c| (symmetry.apply_offset(c.offset), symmetry.apply_sides(c.nodes))),
                );
                let end = t.cells.len();
                let shape = &t.cells[start..end];
                let seen = t.turns[first..].iter().any(|&(_, _, a, b)| same_turn(pattern, &t.cells[a..b], shape));
                if seen {
                    t.cells.truncate(start);
                } else {
                    t.turns.push((p, s, start, end));
                }
            }
        }
        t
    }
}

impl TurnedPatterns {
    /// These turns (turned with no pattern used) less those of the patterns
    /// in `used`: what [`TurnedPatterns::new`] gives for `used`.
    fn without(&self, patterns: &[RunePattern], used: &UsedRunes) -> TurnedPatterns {
        let turns = self.turns.iter().filter(|&&(p, ..)| !used.patterns.contains(&patterns[p].id)).copied().collect();
        // `longest` may now be more than the longest left: it only sizes a buffer.
        TurnedPatterns { turns, cells: self.cells.clone(), longest: self.longest, patterns: self.patterns }
    }
}

/// Two turns of `pattern` find the same matches: the same cells with the
/// same Nodes once moved onto each other, and, where the Boat and the Sword
/// count, the same first and last cells (water joins the cells in any order).
fn same_turn(pattern: &RunePattern, a: &[((i32, i32), Sides)], b: &[((i32, i32), Sides)]) -> bool {
    let corner = |cells: &[((i32, i32), Sides)]| cells.iter().map(|&(cell, _)| cell).min();
    let (Some((ax, ay)), Some((bx, by))) = (corner(a), corner(b)) else { return false };
    let moved = |&((x, y), sides): &((i32, i32), Sides)| ((x - bx + ax, y - by + ay), sides);
    let ends = || moved(&b[0]) == a[0] && moved(&b[b.len() - 1]) == a[a.len() - 1];
    a.len() == b.len() && b.iter().all(|c| a.contains(&moved(c))) && (!pattern.boat_first_sword_last || ends())
}

/// The longest pattern moved on the stack; longer ones use the heap.
const SHORT: usize = 8;

/// Every match of every pattern under every symmetry, in the order
/// [`discovered_legendary_locations`] lists them (duplicates included): with
/// the pattern's first cell on each placed tile, or, `through` a tile, with
/// any of its cells on that one. `turned` are the patterns not in `used`.
/// `found` gets the pattern's index, the symmetry's (as [`Symmetry::all`]
/// lists them) and the pattern as it lies on the map: (cell, Nodes) in the
/// pattern's order.
fn search(
    look: Look,
    patterns: &[RunePattern],
    turned: &TurnedPatterns,
    used: &UsedRunes,
    through: Option<&PlacedTile>,
    mut found: impl FnMut(usize, usize, &[(Cell, Sides)]),
) {
    let mut short = [((0, 0), Sides::NONE); SHORT];
    let mut long = Vec::new();
    let moved_all: &mut [(Cell, Sides)] = if turned.longest <= SHORT {
        &mut short
    } else {
        long.resize(turned.longest, ((0, 0), Sides::NONE));
        &mut long
    };
    let no_used = used.nodes.is_empty();
    let through_nodes = through.map(nodes_on_map);
    for &(p, s, start, end) in &turned.turns {
        let pattern = &patterns[p];
        let shape = &turned.cells[start..end];
        let moved = &mut moved_all[..shape.len()];
        let mut try_at = |shift: (i32, i32)| {
            for (m, &((x, y), want)) in moved.iter_mut().zip(shape) {
                let cell = (x + shift.0, y + shift.1);
                let fits = match look.grid {
                    Some(grid) if look.extra.is_none_or(|p| p.cell != cell) => grid.fits(cell, want),
                    _ => look.at(cell).is_some_and(|placed| {
                        nodes_on_map(placed).contains_all(want)
                            && (no_used || want.iter().all(|side| !used.nodes.contains(&NodeRef { cell, side })))
                    }),
                };
                if !fits {
                    return;
                }
                *m = (cell, want);
            }
            if extras_hold(look, pattern, moved) {
                found(p, s, moved);
            }
        };
        match (through, through_nodes) {
            (Some(placed), Some(nodes)) => {
                for &((dx, dy), want) in shape {
                    // As with an anchor: the tile must carry this cell's Nodes.
                    if nodes.contains_all(want) {
                        try_at((placed.cell.0 - dx, placed.cell.1 - dy));
                    }
                }
            }
            _ => {
                let (origin, want) = shape[0];
                for anchor in look.map.tiles() {
                    // Most anchors lack the first cell's Nodes: look at
                    // the anchor itself before looking anything up.
                    if nodes_on_map(anchor).contains_all(want) {
                        try_at((anchor.cell.0 - origin.0, anchor.cell.1 - origin.1));
                    }
                }
            }
        }
    }
}

/// The Caverns' conditions beyond the Nodes: the Boat and the Sword, and water.
fn extras_hold(look: Look, pattern: &RunePattern, moved: &[(Cell, Sides)]) -> bool {
    let tile = |i: usize| look.at(moved[i].0).expect("fits");
    if pattern.boat_first_sword_last && !(tile(0).tile.boat && tile(moved.len() - 1).tile.sword) {
        return false;
    }
    if pattern.water_connected {
        let tiles: Vec<&PlacedTile> = (0..moved.len()).map(tile).collect();
        return water_connected(&tiles);
    }
    true
}

/// Two finds are one match: the same pattern on the same cells with the same
/// Nodes (a pattern that looks the same turned is found once per turn).
/// The cells of a valid pattern are distinct.
fn same_match(a: &[(Cell, Sides)], b: &[(Cell, Sides)]) -> bool {
    a.len() == b.len() && a.iter().all(|x| b.contains(x))
}

fn to_match(pattern: &RunePattern, symmetry: Symmetry, moved: &[(Cell, Sides)]) -> RuneMatch {
    let cells: Vec<Cell> = moved.iter().map(|&(cell, _)| cell).collect();
    let mut nodes: Vec<NodeRef> =
        moved.iter().flat_map(|&(cell, want)| want.iter().map(move |side| NodeRef { cell, side })).collect();
    nodes.sort_unstable();
    RuneMatch { pattern: pattern.id.clone(), symmetry, cells, nodes }
}

/// The matches [`search`] finds, each once, in the order first found.
fn matches(map: &Map, patterns: &[RunePattern], used: &UsedRunes, through: Option<Cell>) -> Vec<RuneMatch> {
    let look = Look { map, extra: None, grid: None };
    let through = match through {
        Some(cell) => match map.tile_at(cell) {
            Some(placed) => Some(placed),
            None => return Vec::new(),
        },
        None => None,
    };
    let mut out: Vec<RuneMatch> = Vec::new();
    let turned = TurnedPatterns::new(patterns, used);
    search(look, patterns, &turned, used, through, |p, s, moved| {
        let pattern = &patterns[p];
        let is_same = |o: &RuneMatch| {
            o.pattern == pattern.id
                && o.cells.len() == moved.len()
                && moved.iter().all(|&(cell, want)| {
                    o.cells.contains(&cell) && want.iter().all(|side| o.nodes.contains(&NodeRef { cell, side }))
                })
                && o.nodes.len() == moved.iter().map(|(_, w)| w.len()).sum::<usize>()
        };
        if !out.iter().any(is_same) {
            out.push(to_match(pattern, symmetry_at(s), moved));
        }
    });
    out
}

/// [`matches()`] with no Node used and each match's key (see
/// [`RuneMatches`]), sorted by key; `through` a tile of the map, only the
/// matches that use it (each where a search of the whole map first finds it).
fn keyed_matches(
    map: &Map,
    patterns: &[RunePattern],
    turned: &TurnedPatterns,
    through: Option<&PlacedTile>,
) -> (Vec<RuneMatch>, Vec<(usize, usize, usize)>) {
    let look = Look { map, extra: None, grid: None };
    let mut finds: Vec<((usize, usize, usize), RuneMatch)> = Vec::new();
    search(look, patterns, turned, &UsedRunes::default(), through, |p, s, moved| {
        let anchor = map.tile_index(moved[0].0).expect("fits");
        finds.push(((p, s, anchor), to_match(&patterns[p], symmetry_at(s), moved)));
    });
    if through.is_some() {
        finds.sort_by_key(|(k, _)| *k);
    }
    let mut out: (Vec<RuneMatch>, Vec<(usize, usize, usize)>) = (Vec::new(), Vec::new());
    for (key, m) in finds {
        let is_same = |o: &RuneMatch| o.pattern == m.pattern && o.nodes == m.nodes && same_cells(&o.cells, &m.cells);
        if !out.0.iter().any(is_same) {
            out.0.push(m);
            out.1.push(key);
        }
    }
    out
}

/// The same cells, in any order (a valid pattern's cells are distinct).
fn same_cells(a: &[Cell], b: &[Cell]) -> bool {
    a.len() == b.len() && a.iter().all(|c| b.contains(c))
}

fn symmetry_at(s: usize) -> Symmetry {
    Symmetry::all().nth(s).expect("eight symmetries")
}

/// Counts the Legendary Locations a tile not yet placed would show on one
/// map, for many places ([`Preview`]s of it): the patterns are turned and the
/// map's Nodes laid out once.
pub struct ThroughCounter<'m> {
    map: &'m Map,
    patterns: &'m [RunePattern],
    used: &'m UsedRunes,
    turned: Cow<'m, TurnedPatterns>,
    grid: NodeGrid,
}

impl<'m> ThroughCounter<'m> {
    pub fn new(map: &'m Map, patterns: &'m [RunePattern], used: &'m UsedRunes) -> ThroughCounter<'m> {
        ThroughCounter::with_turned(map, patterns, used, None)
    }

    /// `turned`: the patterns turned with no pattern taken for used, which
    /// the game keeps; the counter turns them itself once a pattern is used.
    pub(crate) fn with_turned(
        map: &'m Map,
        patterns: &'m [RunePattern],
        used: &'m UsedRunes,
        turned: Option<&'m TurnedPatterns>,
    ) -> ThroughCounter<'m> {
        let turned = match turned {
            Some(t) if used.patterns.is_empty() => Cow::Borrowed(t),
            Some(t) => Cow::Owned(t.without(patterns, used)),
            None => Cow::Owned(TurnedPatterns::new(patterns, used)),
        };
        ThroughCounter { map, patterns, used, turned, grid: NodeGrid::new(map, used) }
    }

    /// How many [`legendary_locations_through`] the tile of `preview` (a
    /// preview on this counter's map) would list once placed, without
    /// placing it or listing them.
    pub fn count(&self, preview: &Preview) -> usize {
        legendary_count_through(self, preview)
    }
}

fn legendary_count_through(counter: &ThroughCounter, preview: &Preview) -> usize {
    let ThroughCounter { map, patterns, used, ref turned, ref grid } = *counter;
    let Some(placed) = preview.placed() else { return 0 };
    let look = Look { map, extra: Some(placed), grid: Some(grid) };
    // Each find as (pattern, where in `cells`), to tell duplicates apart.
    let mut finds: Vec<(usize, usize, usize)> = Vec::new();
    let mut cells: Vec<(Cell, Sides)> = Vec::new();
    search(look, patterns, turned, used, Some(placed), |p, _, moved| {
        let seen = finds
            .iter()
            .any(|&(q, at, len)| patterns[q].id == patterns[p].id && same_match(&cells[at..at + len], moved));
        if !seen {
            finds.push((p, cells.len(), moved.len()));
            cells.extend_from_slice(moved);
        }
    });
    finds.len()
}

/// The tile's Nodes as they lie on the map.
fn nodes_on_map(placed: &PlacedTile) -> Sides {
    placed.tile.nodes.rotated(placed.rotation)
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

// ---- buildability (content checks) ----

/// One way to build a pattern from a set of tiles: the pattern turned by
/// `symmetry`, and for each of its cells (in the pattern's order) the index
/// of its tile in the slice given and how that tile is turned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternLayout {
    pub symmetry: Symmetry,
    pub tiles: Vec<(usize, Rotation)>,
}

/// The tiles of an Ecology can build `pattern`; see [`pattern_layout`].
pub fn pattern_buildable(pattern: &RunePattern, tiles: &[MapTile]) -> bool {
    pattern_layout(pattern, tiles).is_some()
}

/// A layout building `pattern` from distinct `tiles`, if there is one: each
/// cell's tile, turned, carries at least that cell's Nodes; tiles on
/// orthogonally adjacent cells have touching edges that match; the Boat
/// tile is first and the Sword tile last when the pattern asks; and water
/// meets water across the layout when the pattern asks. Whether a real
/// exploration can reach the layout (paths, other tiles) is not checked.
pub fn pattern_layout(pattern: &RunePattern, tiles: &[MapTile]) -> Option<PatternLayout> {
    if pattern.validate().is_err() {
        return None;
    }
    let turned: Vec<[MapTile; 4]> = tiles.iter().map(|t| Rotation::ALL.map(|r| t.rotated(r))).collect();
    Symmetry::all().find_map(|symmetry| {
        let shape: Vec<((i32, i32), Sides)> =
            pattern.cells.iter().map(|c| (symmetry.apply_offset(c.offset), symmetry.apply_sides(c.nodes))).collect();
        let mut chosen = Vec::with_capacity(shape.len());
        lay_out(pattern, &shape, &turned, &mut chosen).then_some(PatternLayout { symmetry, tiles: chosen })
    })
}

/// Depth-first search for the tile of the next cell.
fn lay_out(
    pattern: &RunePattern,
    shape: &[((i32, i32), Sides)],
    turned: &[[MapTile; 4]],
    chosen: &mut Vec<(usize, Rotation)>,
) -> bool {
    let i = chosen.len();
    if i == shape.len() {
        return !pattern.water_connected || layout_water_connected(shape, turned, chosen);
    }
    let (cell, want) = shape[i];
    let last = shape.len() - 1;
    for (t, turns) in turned.iter().enumerate() {
        if chosen.iter().any(|&(u, _)| u == t) {
            continue;
        }
        if pattern.boat_first_sword_last && ((i == 0 && !turns[0].boat) || (i == last && !turns[0].sword)) {
            continue;
        }
        for rotation in Rotation::ALL {
            let here = &turns[usize::from(rotation.quarter_turns())];
            if !here.nodes.contains_all(want) {
                continue;
            }
            let fits = chosen.iter().enumerate().all(|(j, &(u, r))| {
                let there = &turned[u][usize::from(r.quarter_turns())];
                Side::ALL
                    .into_iter()
                    .find(|&s| step(cell, s) == shape[j].0)
                    .is_none_or(|s| here.edges.get(s).matches(there.edges.get(s.opposite())))
            });
            if fits {
                chosen.push((t, rotation));
                if lay_out(pattern, shape, turned, chosen) {
                    return true;
                }
                chosen.pop();
            }
        }
    }
    false
}

/// [`water_connected`] for a layout that is not on a map.
fn layout_water_connected(
    shape: &[((i32, i32), Sides)],
    turned: &[[MapTile; 4]],
    chosen: &[(usize, Rotation)],
) -> bool {
    let water = |j: usize| {
        let (t, r) = chosen[j];
        turned[t][usize::from(r.quarter_turns())].water_corners
    };
    let mut joined = vec![false; shape.len()];
    joined[0] = true;
    let mut stack = vec![0];
    while let Some(i) = stack.pop() {
        for j in 0..shape.len() {
            if joined[j] {
                continue;
            }
            let touching = Side::ALL.into_iter().find(|&s| step(shape[i].0, s) == shape[j].0);
            if touching.is_some_and(|s| corners_meet(water(i), s, water(j))) {
                joined[j] = true;
                stack.push(j);
            }
        }
    }
    joined.iter().all(|&j| j)
}

/// Water in corners `a` meets water in corners `b` of the neighbour across `side`.
fn corners_meet(a: Corners, side: Side, b: Corners) -> bool {
    Corner::ends_of(side).into_iter().any(|c| a.contains(c) && c.across(side).is_some_and(|d| b.contains(d)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ecology::Ecology;
    use crate::map::map_tile::{Area, Edge, Edges, TileKind};

    /// A one-area tile: edges from `#` wall, `.` open, `~` water (N, E, S, W).
    fn tile(id: &str, edges: &str, nodes: &[Side]) -> MapTile {
        let e: Vec<Edge> = edges
            .chars()
            .map(|c| match c {
                '#' => Edge::Wall,
                '~' => Edge::Water,
                _ => Edge::Open,
            })
            .collect();
        let edges = Edges::from_array([e[0], e[1], e[2], e[3]]);
        let exits: Vec<Side> = Side::ALL.into_iter().filter(|&s| edges.get(s).is_passable()).collect();
        MapTile {
            id: id.into(),
            ecology: Ecology::Caverns,
            kind: TileKind::Normal,
            edges,
            areas: vec![Area { exits: Sides::of(&exits), ..Area::default() }],
            water_corners: Corners::NONE,
            boat: false,
            sword: false,
            nodes: Sides::of(nodes),
        }
    }

    fn pattern(cells: &[((i32, i32), &[Side])]) -> RunePattern {
        RunePattern {
            id: "1".into(),
            cells: cells.iter().map(|&(offset, nodes)| RuneCell { offset, nodes: Sides::of(nodes) }).collect(),
            water_connected: false,
            boat_first_sword_last: false,
        }
    }

    /// Two runes facing each other across their shared edge.
    fn domino() -> RunePattern {
        pattern(&[((0, 0), &[Side::E]), ((1, 0), &[Side::W])])
    }

    #[test]
    fn a_pattern_that_looks_the_same_turned_is_searched_once_for_each_look() {
        let turns = |p: &RunePattern| TurnedPatterns::new(std::slice::from_ref(p), &UsedRunes::default()).turns.len();
        // The same after a half turn and mirrored: lying or standing.
        assert_eq!(turns(&domino()), 2);
        // Mirrored it is the same: its four turns.
        let mut row = pattern(&[((0, 0), &[Side::E]), ((1, 0), &[Side::N]), ((2, 0), &[Side::W])]);
        assert_eq!(turns(&row), 4);
        // Mirrored, the Boat's cell would be last.
        row.boat_first_sword_last = true;
        assert_eq!(turns(&row), 8);
    }

    #[test]
    fn tiles_are_turned_to_bring_their_nodes_into_place() {
        let tiles = [tile("a", "....", &[Side::N]), tile("b", "....", &[Side::S])];
        let layout = pattern_layout(&domino(), &tiles).expect("buildable");
        assert_eq!(layout.tiles.len(), 2);
        for (cell, &(t, r)) in domino().cells.iter().zip(&layout.tiles) {
            let nodes = tiles[t].rotated(r).nodes;
            assert!(nodes.contains_all(layout.symmetry.apply_sides(cell.nodes)));
        }
    }

    #[test]
    fn each_cell_needs_its_own_tile_with_enough_nodes() {
        let both = tile("both", "....", &[Side::E, Side::W]);
        let bare = tile("bare", "....", &[]);
        assert!(!pattern_buildable(&domino(), &[both.clone(), bare]));
        assert!(pattern_buildable(&domino(), &[both.clone(), tile("one", "....", &[Side::N])]));
        // Opposite Nodes are not two Nodes side by side, however the tile is turned.
        let two_nodes = pattern(&[((0, 0), &[Side::N, Side::S]), ((0, 1), &[Side::S])]);
        let corner = tile("corner", "....", &[Side::N, Side::E]);
        assert!(!pattern_buildable(&two_nodes, &[corner.clone(), tile("a", "....", &[Side::N])]));
        assert!(pattern_buildable(&two_nodes, &[corner, both]));
    }

    #[test]
    fn touching_edges_must_match() {
        // The Node of the corridor lies on a wall; the room's on an open edge.
        let corridor = tile("corridor", ".#.#", &[Side::E]);
        let room = tile("room", "....", &[Side::N]);
        assert!(!pattern_buildable(&domino(), &[corridor.clone(), room]));
        let closet = tile("closet", "#.##", &[Side::N]);
        assert!(pattern_buildable(&domino(), &[corridor.clone(), closet]));
        // Water touches anything.
        let pool = tile("pool", "~~~.", &[Side::N]);
        assert!(pattern_buildable(&domino(), &[corridor, pool]));
    }

    #[test]
    fn boat_first_and_sword_last() {
        let mut p = pattern(&[((0, 0), &[Side::E]), ((1, 0), &[Side::N]), ((2, 0), &[Side::W])]);
        p.boat_first_sword_last = true;
        let mut boat = tile("boat", "....", &[Side::N]);
        boat.boat = true;
        let mut sword = tile("sword", "....", &[Side::N]);
        sword.sword = true;
        let plain = || tile("plain", "....", &[Side::S]);
        assert!(!pattern_buildable(&p, &[boat.clone(), plain(), plain()]));
        assert!(!pattern_buildable(&p, &[sword.clone(), plain(), plain()]));
        assert!(!pattern_buildable(&p, &[boat.clone(), sword.clone()]), "three cells need three tiles");
        let tiles = [plain(), sword, boat, plain()];
        let layout = pattern_layout(&p, &tiles).expect("buildable");
        assert!(tiles[layout.tiles[0].0].boat);
        assert!(tiles[layout.tiles[2].0].sword);
    }

    #[test]
    fn water_must_meet_at_corners_when_asked() {
        let mut p = domino();
        p.water_connected = true;
        let pool = |id: &str, corner| {
            let mut t = tile(id, "....", &[Side::N]);
            t.water_corners = Corners::of(&[corner]);
            t
        };
        assert!(!pattern_buildable(&p, &[pool("pool", Corner::NE), tile("dry", "....", &[Side::N])]));
        // Turned to face their Nodes, two pools in the north-east corner end
        // up in opposite corners of the shared edge: tiles are never mirrored.
        assert!(!pattern_buildable(&p, &[pool("a", Corner::NE), pool("b", Corner::NE)]));
        let tiles = [pool("a", Corner::NE), pool("b", Corner::NW)];
        let layout = pattern_layout(&p, &tiles).expect("buildable");
        let a = tiles[layout.tiles[0].0].rotated(layout.tiles[0].1).water_corners;
        let b = tiles[layout.tiles[1].0].rotated(layout.tiles[1].1).water_corners;
        let toward = layout.symmetry.apply_offset((1, 0));
        let side = Side::ALL.into_iter().find(|s| s.offset() == toward).expect("a neighbour");
        assert!(corners_meet(a, side, b));
        p.water_connected = false;
        assert!(pattern_buildable(&p, &[pool("a", Corner::NE), pool("b", Corner::NE)]));
    }

    #[test]
    fn a_malformed_pattern_is_never_buildable() {
        let p = pattern(&[((0, 0), &[Side::E]), ((0, 0), &[Side::W])]);
        assert!(!pattern_buildable(&p, &[tile("a", "....", &[Side::E]), tile("b", "....", &[Side::W])]));
    }
}
