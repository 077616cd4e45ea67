//! The placed Map Tiles of one Ecology, the Lantern, and what the Heroes can
//! reach ("Placing Map Tiles", "Encountering", "Habitat Boundaries",
//! "Ecology-Specific Details").
//!
//! The unit of movement is a tile's area. Heroes flood from the Lantern
//! through joined open edges, Secret Passages and Warp Portals. An area that
//! still holds a Monster, a Feature or a locked Door can be reached (so it
//! can be Encountered) but not passed through.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::map_tile::{Area, Edge, Element, MapTile, Rotation, Side, TileError, TileKind};
use crate::ecology::Ecology;

/// A grid position; `(x, y + 1)` is north of `(x, y)`. The Entry tile is at `(0, 0)`.
pub type Cell = (i32, i32);

/// Where a tile goes and how it is turned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Placement {
    pub cell: Cell,
    pub rotation: Rotation,
}

/// One area of a placed tile (`area` indexes the tile's printed `areas`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct AreaRef {
    pub cell: Cell,
    pub area: u8,
}

/// One Ecology Element on a placed tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ElementRef {
    pub cell: Cell,
    pub area: u8,
    pub element: u8,
}

impl ElementRef {
    pub fn area_ref(self) -> AreaRef {
        AreaRef { cell: self.cell, area: self.area }
    }
}

/// What the Encounter Token on an element says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ElementState {
    /// Not yet Encountered (a Door: still locked).
    #[default]
    Present,
    /// Feature, Chest, Campfire or Stair Guardian Encountered (gold slash).
    Encountered,
    /// Monster Defeated (red X); a Campfire rest makes it Present again.
    Defeated,
    /// Door Unlocked (Key token).
    Unlocked,
}

/// A tile on the map with the state of each of its elements.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct PlacedTile {
    /// The tile as printed; `rotation` turns it onto the map. Shared by the
    /// copies of the map (a bot copies it for every place it weighs).
    #[serde(with = "crate::shared")]
    pub tile: Arc<MapTile>,
    pub cell: Cell,
    pub rotation: Rotation,
    /// `states[area][element]`, parallel to `tile.areas[area].elements`.
    pub states: Vec<Vec<ElementState>>,
}

/// By hand for `clone_from`: a bot copies a map onto the same scratch map
/// for every place it weighs, and the states' lists are reused.
impl Clone for PlacedTile {
    fn clone(&self) -> PlacedTile {
        PlacedTile {
            tile: Arc::clone(&self.tile),
            cell: self.cell,
            rotation: self.rotation,
            states: self.states.clone(),
        }
    }

    fn clone_from(&mut self, source: &PlacedTile) {
        self.tile = Arc::clone(&source.tile);
        (self.cell, self.rotation) = (source.cell, source.rotation);
        self.states.clone_from(&source.states);
    }
}

impl PlacedTile {
    fn new(tile: Arc<MapTile>, placement: Placement) -> PlacedTile {
        let states = tile.areas.iter().map(|a| vec![ElementState::Present; a.elements.len()]).collect();
        PlacedTile { tile, cell: placement.cell, rotation: placement.rotation, states }
    }

    /// The edge on a side of the map (after rotation).
    pub fn edge(&self, side: Side) -> Edge {
        self.tile.edges.get(side.rotated(self.rotation.inverse()))
    }

    /// The area whose exit is on a side of the map (after rotation).
    pub fn area_at(&self, side: Side) -> Option<usize> {
        self.tile.area_at(side.rotated(self.rotation.inverse()))
    }
}

/// Why a tile cannot go where asked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlacementError {
    WrongEcology {
        tile: Ecology,
        map: Ecology,
    },
    AlreadyPlaced(String),
    Occupied(Cell),
    NotAdjacent(Cell),
    /// `side` is the side of the new tile (on the map) whose edge does not match.
    EdgeMismatch {
        side: Side,
        tile_edge: Edge,
        neighbour_edge: Edge,
    },
    /// No path leads from the Heroes' accessible area into the new tile.
    NoPath,
}

impl fmt::Display for PlacementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlacementError::WrongEcology { tile, map } => {
                write!(f, "a {} tile cannot go on the {} map", tile.name(), map.name())
            }
            PlacementError::AlreadyPlaced(id) => write!(f, "tile \"{id}\" is already on the map"),
            PlacementError::Occupied(c) => write!(f, "cell {c:?} already holds a tile"),
            PlacementError::NotAdjacent(c) => write!(f, "cell {c:?} does not touch a placed tile"),
            PlacementError::EdgeMismatch { side, tile_edge, neighbour_edge } => {
                // "Walls must touch walls. Blank edges must touch blank edges."
                write!(f, "its {tile_edge:?} edge on side {side:?} would touch the neighbour's {neighbour_edge:?} edge")
            }
            PlacementError::NoPath => write!(f, "the Heroes cannot trace a path into the new tile"),
        }
    }
}

impl std::error::Error for PlacementError {}

/// Why an Encounter, Door or Lantern move is refused.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum MapError {
    InvalidTile(TileError),
    NotEntryTile(String),
    NoSuchArea(AreaRef),
    NoSuchElement(ElementRef),
    AlreadyEncountered(ElementRef),
    NotReachable(ElementRef),
    AreaNotReachable(AreaRef),
    /// "Heroes must Encounter all Monsters present at a Chest before Encountering the Chest."
    ChestGuarded(ElementRef),
    NotADoor(ElementRef),
    /// The Lantern cannot stop among un-Encountered blocking elements.
    AreaBlocked(AreaRef),
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MapError::InvalidTile(e) => write!(f, "{e}"),
            MapError::NotEntryTile(id) => write!(f, "tile \"{id}\" is not an Entry tile"),
            MapError::NoSuchArea(a) => write!(f, "no area {a:?} on the map"),
            MapError::NoSuchElement(e) => write!(f, "no element {e:?} on the map"),
            MapError::AlreadyEncountered(e) => write!(f, "element {e:?} was already Encountered"),
            MapError::NotReachable(e) => write!(f, "the Heroes cannot reach element {e:?}"),
            MapError::AreaNotReachable(a) => write!(f, "the Heroes cannot reach area {a:?}"),
            MapError::ChestGuarded(e) => {
                write!(f, "chest {e:?} is guarded: Encounter the Monsters in its area first")
            }
            MapError::NotADoor(e) => write!(f, "element {e:?} is not a Door"),
            MapError::AreaBlocked(a) => {
                write!(f, "area {a:?} holds an element that blocks movement; Encounter it instead")
            }
        }
    }
}

impl std::error::Error for MapError {}

const NONE: u32 = u32::MAX;
const NO_AREA: u8 = u8::MAX;

/// One area of a placed tile as a node of the movement graph.
#[derive(Clone, Debug, PartialEq)]
struct Node {
    tile: u32,
    area: u8,
    /// Node across each side of the map, through a joined open edge.
    links: [u32; 4],
    secret_passage: bool,
    warp_portal: bool,
    /// A room beyond a Door: the node of the Door's area (same tile), else `NONE`.
    door: u32,
    /// Rooms of its tile lie beyond its Door.
    rooms: bool,
    /// Holds a present Monster or Feature or a locked Door.
    blocking: bool,
    /// The Heroes can reach it from the Lantern (see [`Map::flood`]).
    reached: bool,
    /// Reached and passable: its exits and passages lead on.
    expanded: bool,
    /// The node it was first reached from.
    parent: u32,
}

/// Geometry of a placed tile on the map, precomputed.
#[derive(Clone, Debug, PartialEq)]
struct Footprint {
    edges: [Edge; 4],
    area_on: [u8; 4],
    /// [`id_hash`] of the tile's id.
    id: u64,
}

fn id_hash(id: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::default().hash_one(id)
}

/// The tile at each cell, in an array over the rectangle the map covers
/// (grown as tiles are placed): a look-up is an index, where a hash map
/// hashed the cell every time.
#[derive(Debug, Default)]
struct CellIndex {
    corner: Cell,
    width: i32,
    height: i32,
    /// The tile's index, or `NONE`.
    tiles: Vec<u32>,
    len: usize,
}

impl CellIndex {
    fn slot(&self, (x, y): Cell) -> Option<usize> {
        let (x, y) = (x.wrapping_sub(self.corner.0), y.wrapping_sub(self.corner.1));
        (x >= 0 && y >= 0 && x < self.width && y < self.height).then(|| (y * self.width + x) as usize)
    }

    fn get(&self, cell: &Cell) -> Option<&u32> {
        self.slot(*cell).map(|i| &self.tiles[i]).filter(|&&t| t != NONE)
    }

    fn contains_key(&self, cell: &Cell) -> bool {
        self.get(cell).is_some()
    }

    fn insert(&mut self, cell: Cell, tile: u32) {
        if self.slot(cell).is_none() {
            // Room for a few more tiles on every side before growing again.
            const MARGIN: i32 = 3;
            let (lo, hi) = if self.width == 0 {
                (cell, cell)
            } else {
                let hi = (self.corner.0 + self.width - 1, self.corner.1 + self.height - 1);
                ((self.corner.0.min(cell.0), self.corner.1.min(cell.1)), (hi.0.max(cell.0), hi.1.max(cell.1)))
            };
            let (lo, hi) = ((lo.0 - MARGIN, lo.1 - MARGIN), (hi.0 + MARGIN, hi.1 + MARGIN));
            let mut grown =
                CellIndex { corner: lo, width: hi.0 - lo.0 + 1, height: hi.1 - lo.1 + 1, tiles: Vec::new(), len: 0 };
            grown.tiles = vec![NONE; (grown.width * grown.height) as usize];
            for (c, t) in self.entries() {
                let i = grown.slot(c).expect("inside");
                grown.tiles[i] = t;
            }
            grown.len = self.len;
            *self = grown;
        }
        let i = self.slot(cell).expect("grown");
        if self.tiles[i] == NONE {
            self.len += 1;
        }
        self.tiles[i] = tile;
    }

    fn entries(&self) -> impl Iterator<Item = (Cell, u32)> + '_ {
        self.tiles.iter().enumerate().filter(|(_, t)| **t != NONE).map(|(i, &t)| {
            let (x, y) = (i as i32 % self.width, i as i32 / self.width);
            ((self.corner.0 + x, self.corner.1 + y), t)
        })
    }
}

/// By hand for `clone_from`, which reuses the array (see [`Graph`]).
impl Clone for CellIndex {
    fn clone(&self) -> CellIndex {
        CellIndex { tiles: self.tiles.clone(), ..*self }
    }

    fn clone_from(&mut self, s: &CellIndex) {
        self.tiles.clone_from(&s.tiles);
        (self.corner, self.width, self.height, self.len) = (s.corner, s.width, s.height, s.len);
    }
}

/// The same tiles at the same cells, however far the arrays reach.
impl PartialEq for CellIndex {
    fn eq(&self, o: &CellIndex) -> bool {
        self.len == o.len && self.entries().all(|(c, t)| o.get(&c) == Some(&t))
    }
}

/// Everything derived from the placed tiles and their states; rebuilt after
/// loading and brought up to date by every change, so that the questions the
/// rules and the bots ask (many for each change) only read it.
#[derive(Debug, Default)]
struct Graph {
    /// The tile at each cell: looked up on every step of every placement,
    /// preview and match.
    index: CellIndex,
    footprints: Vec<Footprint>,
    /// First node of each tile.
    base: Vec<u32>,
    nodes: Vec<Node>,
    /// The empty cells touching the map, sorted; kept as tiles are placed.
    open: Vec<Cell>,
    /// The neighbourhood of each cell of `open`, in the same order.
    spots: Vec<Spot>,
    /// The Heroes reach a Secret Passage: every Secret Passage leads on.
    secret_open: bool,
    /// The Heroes reach a Warp Portal: both do.
    portal_open: bool,
    /// The flood's stack, kept to be reused (empty between floods).
    stack: Vec<u32>,
}

impl Graph {
    /// The nodes of the tile at index `tile` (its areas, in order).
    fn tile_nodes(&self, tile: u32) -> std::ops::Range<u32> {
        let first = self.base[tile as usize];
        let end = self.base.get(tile as usize + 1).copied().unwrap_or(self.nodes.len() as u32);
        first..end
    }
}

/// The stack is scratch space: not part of what the graph says.
impl PartialEq for Graph {
    fn eq(&self, o: &Graph) -> bool {
        (&self.index, &self.footprints, &self.base, &self.nodes, &self.open, &self.spots)
            == (&o.index, &o.footprints, &o.base, &o.nodes, &o.open, &o.spots)
            && (self.secret_open, self.portal_open) == (o.secret_open, o.portal_open)
    }
}

/// By hand for `clone_from`, which reuses every list (see [`PlacedTile`]).
impl Clone for Graph {
    fn clone(&self) -> Graph {
        Graph {
            index: self.index.clone(),
            footprints: self.footprints.clone(),
            base: self.base.clone(),
            nodes: self.nodes.clone(),
            open: self.open.clone(),
            spots: self.spots.clone(),
            secret_open: self.secret_open,
            portal_open: self.portal_open,
            stack: Vec::new(),
        }
    }

    fn clone_from(&mut self, s: &Graph) {
        self.index.clone_from(&s.index);
        self.footprints.clone_from(&s.footprints);
        self.base.clone_from(&s.base);
        self.nodes.clone_from(&s.nodes);
        self.open.clone_from(&s.open);
        self.spots.clone_from(&s.spots);
        (self.secret_open, self.portal_open) = (s.secret_open, s.portal_open);
    }
}

/// The placed map of the current Ecology.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "MapSave", into = "MapSave")]
pub struct Map {
    ecology: Ecology,
    tiles: Vec<PlacedTile>,
    lantern: AreaRef,
    /// Where the flood starts. The Lantern's area, except when the Lantern
    /// stands in an area still blocked by another element: then the area
    /// the Heroes came from, so they can turn back but not pass.
    anchor: AreaRef,
    graph: Graph,
}

/// By hand for `clone_from`: a bot weighing places copies the map onto one
/// scratch map again and again, reusing its lists.
impl Clone for Map {
    fn clone(&self) -> Map {
        Map {
            ecology: self.ecology,
            tiles: self.tiles.clone(),
            lantern: self.lantern,
            anchor: self.anchor,
            graph: self.graph.clone(),
        }
    }

    fn clone_from(&mut self, source: &Map) {
        (self.ecology, self.lantern, self.anchor) = (source.ecology, source.lantern, source.anchor);
        self.tiles.clone_from(&source.tiles);
        self.graph.clone_from(&source.graph);
    }
}

/// What a save holds of a [`Map`].
#[derive(Clone, Debug, Serialize, Deserialize)]
struct MapSave {
    ecology: Ecology,
    tiles: Vec<PlacedTile>,
    lantern: AreaRef,
    anchor: AreaRef,
}

impl From<Map> for MapSave {
    fn from(m: Map) -> MapSave {
        MapSave { ecology: m.ecology, tiles: m.tiles, lantern: m.lantern, anchor: m.anchor }
    }
}

impl TryFrom<MapSave> for Map {
    type Error = String;

    fn try_from(save: MapSave) -> Result<Map, String> {
        let mut map = Map {
            ecology: save.ecology,
            tiles: Vec::with_capacity(save.tiles.len()),
            lantern: save.lantern,
            anchor: save.anchor,
            graph: Graph::default(),
        };
        for placed in save.tiles {
            placed.tile.validate().map_err(|e| e.to_string())?;
            if placed.tile.ecology != map.ecology {
                return Err(format!("tile \"{}\" is not of the map's Ecology", placed.tile.id));
            }
            if map.graph.index.contains_key(&placed.cell) {
                return Err(format!("two tiles at {:?}", placed.cell));
            }
            let shape_ok = placed.states.len() == placed.tile.areas.len()
                && placed.states.iter().zip(&placed.tile.areas).all(|(s, a)| s.len() == a.elements.len());
            if !shape_ok {
                return Err(format!("element states of tile \"{}\" do not fit its areas", placed.tile.id));
            }
            map.tiles.push(placed);
            map.attach(map.tiles.len() - 1);
        }
        if map.node(save.lantern).is_none() || map.node(save.anchor).is_none() {
            return Err(String::from("the Lantern is not on an area of the map"));
        }
        map.refresh();
        Ok(map)
    }
}

impl Map {
    /// "Place the Entry Tile near the center of the Play Area with the
    /// Lantern Token on it": at `(0, 0)`, unturned, the Lantern in its first area.
    pub fn new(entry: MapTile) -> Result<Map, MapError> {
        entry.validate().map_err(MapError::InvalidTile)?;
        if entry.kind != TileKind::Entry {
            return Err(MapError::NotEntryTile(entry.id));
        }
        let start = AreaRef { cell: (0, 0), area: 0 };
        let mut map =
            Map { ecology: entry.ecology, tiles: Vec::new(), lantern: start, anchor: start, graph: Graph::default() };
        map.tiles.push(PlacedTile::new(Arc::new(entry), Placement { cell: (0, 0), rotation: Rotation::default() }));
        map.attach(0);
        map.refresh();
        Ok(map)
    }

    pub fn ecology(&self) -> Ecology {
        self.ecology
    }

    /// Placed tiles in the order they were placed.
    pub fn tiles(&self) -> &[PlacedTile] {
        &self.tiles
    }

    pub fn tile_at(&self, cell: Cell) -> Option<&PlacedTile> {
        self.graph.index.get(&cell).map(|&t| &self.tiles[t as usize])
    }

    /// The index in [`Map::tiles`] of the tile at `cell`.
    pub(crate) fn tile_index(&self, cell: Cell) -> Option<usize> {
        self.graph.index.get(&cell).map(|&t| t as usize)
    }

    pub fn lantern(&self) -> AreaRef {
        self.lantern
    }

    pub fn element(&self, e: ElementRef) -> Option<(Element, ElementState)> {
        let placed = self.tile_at(e.cell)?;
        let element = *placed.tile.areas.get(usize::from(e.area))?.elements.get(usize::from(e.element))?;
        Some((element, placed.states[usize::from(e.area)][usize::from(e.element)]))
    }

    // ---- placement ----

    /// Every legal place and turn for `tile` ("Placing Map Tiles", rules 1 and 2).
    pub fn legal_placements(&self, tile: &MapTile) -> Vec<Placement> {
        self.frontier().legal_placements(tile)
    }

    /// Why `tile` cannot go at `placement`, if it cannot. Agrees with [`Map::legal_placements`].
    pub fn check_placement(&self, tile: &MapTile, placement: Placement) -> Result<(), PlacementError> {
        let shape = self.shape(tile)?;
        if self.graph.index.contains_key(&placement.cell) {
            return Err(PlacementError::Occupied(placement.cell));
        }
        let g = &self.graph;
        let Ok(i) = g.spots.binary_search_by_key(&placement.cell, |s| s.cell) else {
            return Err(PlacementError::NotAdjacent(placement.cell));
        };
        let spot = &g.spots[i];
        if shape.fits(spot, placement.rotation, g.secret_open, g.portal_open) {
            Ok(())
        } else {
            Err(shape.why_not(spot, placement.rotation))
        }
    }

    /// "It is possible to lose by drawing a Map Tile that cannot be placed."
    pub fn is_dead_end(&self, tile: &MapTile) -> bool {
        self.frontier().placements(tile).next().is_none()
    }

    /// The empty cells around the map, to test many tiles.
    pub fn frontier(&self) -> Frontier<'_> {
        Frontier { map: self }
    }

    /// Places a tile after checking it.
    pub fn place(&mut self, tile: &MapTile, placement: Placement) -> Result<(), PlacementError> {
        self.check_placement(tile, placement)?;
        self.attach_new(Arc::new(tile.clone()), placement);
        Ok(())
    }

    /// [`Map::place`] with the tile already shared: a bot weighing many
    /// places for one tile copies the tile once, not for every place.
    pub fn place_shared(&mut self, tile: &Arc<MapTile>, placement: Placement) -> Result<(), PlacementError> {
        self.check_placement(tile, placement)?;
        self.attach_new(Arc::clone(tile), placement);
        Ok(())
    }

    fn attach_new(&mut self, tile: Arc<MapTile>, placement: Placement) {
        self.tiles.push(PlacedTile::new(tile, placement));
        self.attach(self.tiles.len() - 1);
        self.refresh();
    }

    /// The tile's edges under each turn. The tile itself was checked when it
    /// came into the game (content, pile or save), not on every question.
    fn shape(&self, tile: &MapTile) -> Result<Shape, PlacementError> {
        if tile.ecology != self.ecology {
            return Err(PlacementError::WrongEcology { tile: tile.ecology, map: self.ecology });
        }
        // Asked for every remaining tile in every place a bot weighs: compare
        // the ids' hashes first, and the ids only when these are equal.
        let id = id_hash(&tile.id);
        let g = &self.graph;
        if (0..self.tiles.len()).any(|t| g.footprints[t].id == id && self.tiles[t].tile.id == tile.id) {
            return Err(PlacementError::AlreadyPlaced(tile.id.clone()));
        }
        Ok(Shape::of(tile))
    }

    /// The neighbourhood of an empty cell; `None` when it touches no tile.
    fn spot(&self, cell: Cell) -> Option<Spot> {
        let mut spot = Spot { cell, neighbour: [None; 4], allow: u32::MAX, join: 0, entry: [NONE; 4] };
        for side in Side::ALL {
            let Some(&t) = self.graph.index.get(&step(cell, side)) else {
                continue;
            };
            let (i, back) = (side.index(), side.opposite().index());
            let foot = &self.graph.footprints[t as usize];
            let theirs = foot.edges[back];
            spot.neighbour[i] = Some(theirs);
            // "All edges of the new Map Tile must match": the same edge, or water on either.
            if theirs != Edge::Water {
                spot.allow &= !(0xff << (8 * i));
                spot.allow |= edge_bit(i, theirs) | edge_bit(i, Edge::Water);
            }
            // The Heroes can walk in through the same passable edge, from an area they pass through.
            let area = foot.area_on[back];
            if theirs.is_passable() && area != NO_AREA {
                let node = self.graph.base[t as usize] + u32::from(area);
                spot.entry[i] = node;
                if self.graph.nodes[node as usize].expanded {
                    spot.join |= edge_bit(i, theirs);
                }
            }
        }
        spot.neighbour.iter().any(Option::is_some).then_some(spot)
    }

    // ---- accessibility ----

    /// Every area the Heroes can reach from the Lantern, blocked ones included.
    pub fn accessible_areas(&self) -> Vec<AreaRef> {
        (0..self.graph.nodes.len() as u32).filter(|&n| self.reached(n)).map(|n| self.area_ref(n)).collect()
    }

    pub fn is_accessible(&self, area: AreaRef) -> bool {
        self.node(area).is_some_and(|n| self.reached(n))
    }

    fn reached(&self, node: u32) -> bool {
        self.graph.nodes[node as usize].reached
    }

    /// Every element the Heroes may choose to Encounter now: reachable, not
    /// yet Encountered (Doors: still locked), and no Chest whose Monsters
    /// are still present.
    pub fn reachable_unencountered_elements(&self) -> Vec<ElementRef> {
        self.reachable_unencountered().collect()
    }

    /// [`Map::reachable_unencountered_elements`] one by one, without a list.
    pub fn reachable_unencountered(&self) -> impl Iterator<Item = ElementRef> + '_ {
        self.reachable_present().map(|(e, _)| e)
    }

    /// What each of [`Map::reachable_unencountered`] is, in the same order
    /// (without looking each up again).
    pub fn reachable_unencountered_kinds(&self) -> impl Iterator<Item = Element> + '_ {
        self.reachable_present().map(|(_, k)| k)
    }

    /// Whether [`Map::reachable_unencountered`] lists `e`, found from its
    /// own area instead of going through the list (every candidate of
    /// `legal_actions` that names an element asks).
    pub fn is_reachable_unencountered(&self, e: ElementRef) -> bool {
        let Some(&t) = self.graph.index.get(&e.cell) else { return false };
        let (placed, area) = (&self.tiles[t as usize], usize::from(e.area));
        if area >= placed.tile.areas.len() || !self.reached(self.graph.base[t as usize] + u32::from(e.area)) {
            return false;
        }
        let mut states = placed.tile.areas[area].elements.iter().zip(&placed.states[area]);
        states.nth(usize::from(e.element)).is_some_and(|(&element, &state)| {
            state == ElementState::Present && !(element == Element::Chest && guarded(placed, area))
        })
    }

    fn reachable_present(&self) -> impl Iterator<Item = (ElementRef, Element)> + '_ {
        self.graph.nodes.iter().filter(|node| node.reached).flat_map(move |node| {
            let placed = &self.tiles[node.tile as usize];
            let area = usize::from(node.area);
            let guarded = guarded(placed, area);
            let states = placed.tile.areas[area].elements.iter().zip(&placed.states[area]);
            states.enumerate().filter_map(move |(i, (&element, &state))| {
                (state == ElementState::Present && !(element == Element::Chest && guarded))
                    .then_some((ElementRef { cell: placed.cell, area: node.area, element: i as u8 }, element))
            })
        })
    }

    /// The Heroes choose to Encounter an element: mark it and move the
    /// Lantern there. A Door is Unlocked; a Monster is marked Defeated (a
    /// lost fight ends the game anyway).
    pub fn encounter(&mut self, e: ElementRef) -> Result<Element, MapError> {
        let (element, state) = self.element(e).ok_or(MapError::NoSuchElement(e))?;
        if state != ElementState::Present {
            return Err(MapError::AlreadyEncountered(e));
        }
        let node = self.node(e.area_ref()).ok_or(MapError::NoSuchElement(e))?;
        if !self.reached(node) {
            return Err(MapError::NotReachable(e));
        }
        let t = self.graph.nodes[node as usize].tile as usize;
        if element == Element::Chest && guarded(&self.tiles[t], usize::from(e.area)) {
            return Err(MapError::ChestGuarded(e));
        }
        self.tiles[t].states[usize::from(e.area)][usize::from(e.element)] = match element {
            Element::Monster { .. } => ElementState::Defeated,
            Element::Door => ElementState::Unlocked,
            _ => ElementState::Encountered,
        };
        self.refresh_blocking(node);
        let anchor = self.node(self.anchor).unwrap_or(node);
        self.lantern = e.area_ref();
        if element == Element::StairGuardian || !self.graph.nodes[node as usize].blocking {
            self.anchor = self.lantern;
        } else if node != anchor {
            self.anchor = self.area_ref(self.graph.nodes[node as usize].parent);
        }
        self.refresh_reach();
        Ok(element)
    }

    /// "Spending a Key Unlocks a Door" (or an Item, Ability or Spell does).
    pub fn unlock_door(&mut self, e: ElementRef) -> Result<(), MapError> {
        match self.element(e) {
            None => Err(MapError::NoSuchElement(e)),
            Some((Element::Door, _)) => self.encounter(e).map(|_| ()),
            Some(_) => Err(MapError::NotADoor(e)),
        }
    }

    /// Move the Lantern anywhere the Heroes can go and stand.
    pub fn move_lantern(&mut self, area: AreaRef) -> Result<(), MapError> {
        let node = self.node(area).ok_or(MapError::NoSuchArea(area))?;
        if !self.reached(node) {
            return Err(MapError::AreaNotReachable(area));
        }
        if self.graph.nodes[node as usize].blocking {
            return Err(MapError::AreaBlocked(area));
        }
        self.lantern = area;
        self.anchor = area;
        self.refresh_reach();
        Ok(())
    }

    /// Campfire rest: "All Defeated Monster Tokens are removed from the Map.
    /// Monsters are present at those locations again."
    pub fn return_defeated_monsters(&mut self) {
        for placed in &mut self.tiles {
            for state in placed.states.iter_mut().flatten() {
                if *state == ElementState::Defeated {
                    *state = ElementState::Present;
                }
            }
        }
        for n in 0..self.graph.nodes.len() {
            self.refresh_blocking(n as u32);
        }
        self.refresh_reach();
    }

    /// The area of a Stair Guardian already Encountered: "they cannot go
    /// back to any of the current Ecology's Map Tiles".
    fn guardian_taken(&self) -> Option<u32> {
        self.tiles.iter().enumerate().find_map(|(t, placed)| {
            placed.tile.areas.iter().zip(&placed.states).enumerate().find_map(|(a, (area, states))| {
                let taken = area
                    .elements
                    .iter()
                    .zip(states)
                    .any(|(&e, &s)| e == Element::StairGuardian && s != ElementState::Present);
                taken.then(|| self.graph.base[t] + a as u32)
            })
        })
    }

    /// Brings what the questions read up to date after a change: who the
    /// Heroes reach, and the empty cells a tile could go to.
    fn refresh(&mut self) {
        self.flood();
        let mut spots = std::mem::take(&mut self.graph.spots);
        spots.clear();
        spots.extend(self.graph.open.iter().filter_map(|&c| self.spot(c)));
        self.graph.spots = spots;
    }

    /// [`Map::refresh`] when no tile came or went: the empty cells and their
    /// edges stay, and only the ways in follow the flood.
    fn refresh_reach(&mut self) {
        self.flood();
        let g = &mut self.graph;
        for spot in &mut g.spots {
            spot.join = 0;
            for (i, &node) in spot.entry.iter().enumerate() {
                if node != NONE && g.nodes[node as usize].expanded {
                    let edge = spot.neighbour[i].expect("an entry has a neighbour");
                    spot.join |= edge_bit(i, edge);
                }
            }
        }
    }

    /// Floods from the anchor through joined exits and passages, depth first.
    /// The order matters: the node an area is first reached from is where the
    /// Lantern turns back to ([`Map::encounter`]).
    fn flood(&mut self) {
        let stairs = self.guardian_taken();
        let start = self.node(self.anchor);
        let g = &mut self.graph;
        for node in &mut g.nodes {
            (node.reached, node.expanded, node.parent) = (false, false, NONE);
        }
        (g.secret_open, g.portal_open) = (false, false);
        if let Some(stairs) = stairs {
            g.nodes[stairs as usize].reached = true;
            return;
        }
        let Some(start) = start else {
            return;
        };
        g.nodes[start as usize].reached = true;
        let mut stack = std::mem::take(&mut g.stack);
        stack.push(start);
        let visit = |nodes: &mut [Node], v: u32, from: u32, stack: &mut Vec<u32>| {
            let node = &mut nodes[v as usize];
            if !node.reached {
                (node.reached, node.parent) = (true, from);
                stack.push(v);
            }
        };
        while let Some(u) = stack.pop() {
            let node = &mut g.nodes[u as usize];
            if node.blocking {
                continue;
            }
            node.expanded = true;
            let (links, secret, portal) = (node.links, node.secret_passage, node.warp_portal);
            let (door, rooms, tile) = (node.door, node.rooms, node.tile);
            for v in links {
                if v != NONE {
                    visit(&mut g.nodes, v, u, &mut stack);
                }
            }
            // A Door leads between its area and the rooms beyond it.
            if door != NONE {
                visit(&mut g.nodes, door, u, &mut stack);
            }
            if rooms {
                for v in g.tile_nodes(tile) {
                    if g.nodes[v as usize].door == u {
                        visit(&mut g.nodes, v, u, &mut stack);
                    }
                }
            }
            // All Secret Passages are one place, and so are both Warp Portals.
            if secret && !g.secret_open {
                g.secret_open = true;
                for v in 0..g.nodes.len() as u32 {
                    if g.nodes[v as usize].secret_passage {
                        visit(&mut g.nodes, v, u, &mut stack);
                    }
                }
            }
            if portal && !g.portal_open {
                g.portal_open = true;
                for v in 0..g.nodes.len() as u32 {
                    if g.nodes[v as usize].warp_portal {
                        visit(&mut g.nodes, v, u, &mut stack);
                    }
                }
            }
        }
        g.stack = stack;
    }

    // ---- the movement graph ----

    fn node(&self, area: AreaRef) -> Option<u32> {
        let &t = self.graph.index.get(&area.cell)?;
        (usize::from(area.area) < self.tiles[t as usize].tile.areas.len())
            .then(|| self.graph.base[t as usize] + u32::from(area.area))
    }

    fn area_ref(&self, node: u32) -> AreaRef {
        let node = &self.graph.nodes[node as usize];
        AreaRef { cell: self.tiles[node.tile as usize].cell, area: node.area }
    }

    fn refresh_blocking(&mut self, node: u32) {
        let n = &self.graph.nodes[node as usize];
        let placed = &self.tiles[n.tile as usize];
        let area = usize::from(n.area);
        let blocking = placed.tile.areas[area]
            .elements
            .iter()
            .zip(&placed.states[area])
            .any(|(e, &s)| e.blocks_movement() && s == ElementState::Present);
        self.graph.nodes[node as usize].blocking = blocking;
    }

    /// Adds the nodes of a newly placed tile and links them to the neighbours.
    fn attach(&mut self, t: usize) {
        let placed = &self.tiles[t];
        let mut foot = Footprint { edges: [Edge::Wall; 4], area_on: [NO_AREA; 4], id: id_hash(&placed.tile.id) };
        for side in Side::ALL {
            foot.edges[side.index()] = placed.edge(side);
            foot.area_on[side.index()] = placed.area_at(side).map_or(NO_AREA, |a| a as u8);
        }
        let base = self.graph.nodes.len() as u32;
        for (a, area) in placed.tile.areas.iter().enumerate() {
            self.graph.nodes.push(Node {
                tile: t as u32,
                area: a as u8,
                links: [NONE; 4],
                secret_passage: area.secret_passage,
                warp_portal: area.warp_portal,
                door: area.beyond_door.map_or(NONE, |d| base + u32::from(d)),
                rooms: Area::rooms_beyond(&placed.tile.areas, a).next().is_some(),
                blocking: false,
                reached: false,
                expanded: false,
                parent: NONE,
            });
        }
        let cell = placed.cell;
        self.graph.index.insert(cell, t as u32);
        self.graph.base.push(base);
        // The new tile's cell is no longer open; its empty neighbours are.
        let open = &mut self.graph.open;
        if let Ok(i) = open.binary_search(&cell) {
            open.remove(i);
        }
        for side in Side::ALL {
            let c = step(cell, side);
            if !self.graph.index.contains_key(&c)
                && let Err(i) = open.binary_search(&c)
            {
                open.insert(i, c);
            }
        }
        for side in Side::ALL {
            let here = foot.area_on[side.index()];
            let Some(&u) = self.graph.index.get(&step(cell, side)) else {
                continue;
            };
            let back = side.opposite().index();
            let other = &self.graph.footprints[u as usize];
            if here != NO_AREA && other.area_on[back] != NO_AREA && foot.edges[side.index()].joins(other.edges[back]) {
                let a = base + u32::from(here);
                let b = self.graph.base[u as usize] + u32::from(other.area_on[back]);
                self.graph.nodes[a as usize].links[side.index()] = b;
                self.graph.nodes[b as usize].links[back] = a;
            }
        }
        self.graph.footprints.push(foot);
        for a in 0..self.tiles[t].tile.areas.len() {
            self.refresh_blocking(base + a as u32);
        }
    }
}

/// True when the area still holds a present Monster (its Chest must wait).
fn guarded(placed: &PlacedTile, area: usize) -> bool {
    placed.tile.areas[area]
        .elements
        .iter()
        .zip(&placed.states[area])
        .any(|(e, &s)| matches!(e, Element::Monster { .. }) && s == ElementState::Present)
}

pub(crate) fn step((x, y): Cell, side: Side) -> Cell {
    let (dx, dy) = side.offset();
    (x + dx, y + dy)
}

/// An empty cell next to the map, seen from the cell.
#[derive(Clone, Debug, PartialEq)]
struct Spot {
    cell: Cell,
    /// The placed edge across each side, if a tile is there.
    neighbour: [Option<Edge>; 4],
    /// The [`edge_bit`]s of the edges the new tile may have on each side.
    allow: u32,
    /// The edge bits through which the Heroes could walk into the new tile.
    join: u32,
    /// The area across each side whose passable edge leads in, if any:
    /// `join` has that side's bit when the Heroes pass through it.
    entry: [u32; 4],
}

/// One bit for each kind of edge, in the byte of its side: the four edges of
/// a turned tile, and the edges a spot accepts, are tested all at once (the
/// bots test every remaining tile at every spot for every move they weigh).
fn edge_bit(side: usize, edge: Edge) -> u32 {
    1 << (8 * side + edge as usize)
}

/// A tile's edges under each rotation.
#[derive(Clone, Copy)]
struct Shape {
    edges: [[Edge; 4]; 4],
    /// The [`edge_bit`]s of `edges`.
    bits: [u32; 4],
    secret_passage: bool,
    warp_portal: bool,
}

impl Shape {
    fn of(tile: &MapTile) -> Shape {
        let mut edges = [[Edge::Wall; 4]; 4];
        let mut bits = [0; 4];
        for r in Rotation::ALL {
            let turned = tile.edges.rotated(r).to_array();
            let q = usize::from(r.quarter_turns());
            edges[q] = turned;
            bits[q] = turned.iter().enumerate().map(|(i, &e)| edge_bit(i, e)).sum();
        }
        Shape { edges, bits, secret_passage: tile.has_secret_passage(), warp_portal: tile.has_warp_portal() }
    }

    /// Every edge matches its neighbour's, and the Heroes can walk in (or
    /// come through a Secret Passage or Warp Portal they already reach).
    fn fits(&self, spot: &Spot, rotation: Rotation, secret_open: bool, portal_open: bool) -> bool {
        let bits = self.bits[usize::from(rotation.quarter_turns())];
        let passage = (self.secret_passage && secret_open) || (self.warp_portal && portal_open);
        bits & !spot.allow == 0 && (passage || bits & spot.join != 0)
    }

    /// Why a tile that does not [`fit`](Shape::fits) does not: the first edge
    /// that does not match, else no path.
    fn why_not(&self, spot: &Spot, rotation: Rotation) -> PlacementError {
        let edges = &self.edges[usize::from(rotation.quarter_turns())];
        let mismatch = Side::ALL.into_iter().find_map(|side| {
            let theirs = spot.neighbour[side.index()]?;
            let tile_edge = edges[side.index()];
            (!tile_edge.matches(theirs)).then_some(PlacementError::EdgeMismatch {
                side,
                tile_edge,
                neighbour_edge: theirs,
            })
        });
        mismatch.unwrap_or(PlacementError::NoPath)
    }
}

/// A tile's edges under each turn, worked out once: a bot asks where each
/// tile still in the pile could go on every map it weighs.
#[derive(Clone, Copy)]
pub struct TileShape {
    shape: Shape,
    ecology: Ecology,
}

impl TileShape {
    pub fn of(tile: &MapTile) -> TileShape {
        TileShape { shape: Shape::of(tile), ecology: tile.ecology }
    }
}

/// [`Frontier::placements`]: each turn at each spot in turn. (A loop of its
/// own: nested iterator adapters cost more than the test of a fit.)
struct Placements<'a> {
    shape: Option<Shape>,
    graph: &'a Graph,
    /// The next spot, times 4, plus the next turn.
    next: usize,
}

impl Iterator for Placements<'_> {
    type Item = Placement;

    fn next(&mut self) -> Option<Placement> {
        let shape = self.shape.as_ref()?;
        let g = self.graph;
        while self.next < g.spots.len() * 4 {
            let (spot, rotation) = (&g.spots[self.next / 4], Rotation::new((self.next % 4) as u8));
            self.next += 1;
            if shape.fits(spot, rotation, g.secret_open, g.portal_open) {
                return Some(Placement { cell: spot.cell, rotation });
            }
        }
        None
    }
}

/// The empty cells around the map, where [`Map::legal_placements`] looks.
#[derive(Debug)]
pub struct Frontier<'a> {
    map: &'a Map,
}

impl<'a> Frontier<'a> {
    pub fn legal_placements(&self, tile: &MapTile) -> Vec<Placement> {
        self.placements(tile).collect()
    }

    /// [`Frontier::legal_placements`] one by one, without a list: to count
    /// them, or to learn whether there is any.
    pub fn placements(&self, tile: &MapTile) -> impl Iterator<Item = Placement> + use<'a> {
        let g = &self.map.graph;
        Placements { shape: self.map.shape(tile).ok(), graph: g, next: 0 }
    }

    /// [`Frontier::placements`] of a tile not on the map (one still in the
    /// pile) by its shape.
    pub fn placements_of(&self, shape: &TileShape) -> impl Iterator<Item = Placement> + use<'a> {
        let shape = (shape.ecology == self.map.ecology).then_some(shape.shape);
        Placements { shape, graph: &self.map.graph, next: 0 }
    }

    /// Empty cells touching the map.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + use<'a> {
        self.map.graph.spots.iter().map(|s| s.cell)
    }
}

/// One area of the tile a [`Preview`] places.
#[derive(Clone, Copy, Debug)]
struct NewNode {
    links: [u32; 4],
    secret_passage: bool,
    warp_portal: bool,
    /// As [`Node::door`], numbered as the preview numbers the new tile's areas.
    door: u32,
    rooms: bool,
    blocking: bool,
    reached: bool,
    expanded: bool,
}

/// The map as it would be with one more tile, worked out without placing it
/// ([`Map::preview`]): the careful bot weighs every place for the tile in
/// hand, and a placed tile changes only the cells next to it and next to the
/// areas the Heroes newly reach. Keep one and reuse it: its lists are kept.
///
/// It says what [`Map::place`] then [`Map::frontier`] and
/// [`Map::reachable_unencountered`] would say (tested against them over the
/// bots' games), except the order of the Heroes' paths, which only the real
/// map keeps.
#[derive(Debug, Default)]
pub struct Preview {
    /// The new tile, as it would lie on the map (its states left empty).
    placed: Option<PlacedTile>,
    foot: Option<Footprint>,
    /// The new tile's areas.
    new_nodes: Vec<NewNode>,
    /// Per node of the map: `epoch` when this preview newly reaches it, and
    /// when it newly expands it (passes through it).
    reached_at: Vec<u32>,
    expanded_at: Vec<u32>,
    epoch: u32,
    /// The map's nodes this preview newly reaches, then those it newly expands.
    newly_reached: Vec<u32>,
    newly_expanded: Vec<u32>,
    stack: Vec<u32>,
    /// Indexes of the map's spots the tile takes or changes.
    gone: Vec<u32>,
    /// The spots new or changed.
    spots: Vec<Spot>,
    /// Empty cells touching the map, all told.
    cells: usize,
    secret_open: bool,
    portal_open: bool,
}

impl Preview {
    /// How many empty cells would touch the map ([`Frontier::cells`]).
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// The tile placed, as it would lie on the map.
    pub fn placed(&self) -> Option<&PlacedTile> {
        self.placed.as_ref()
    }

    /// The elements the Heroes could newly choose to Encounter (those
    /// [`Map::reachable_unencountered`] would add), in no set order.
    pub fn newly_reachable<'a>(&'a self, map: &'a Map) -> impl Iterator<Item = Element> + 'a {
        let old = self.newly_reached.iter().flat_map(move |&n| {
            let node = &map.graph.nodes[n as usize];
            let placed = &map.tiles[node.tile as usize];
            let area = usize::from(node.area);
            let guarded = guarded(placed, area);
            let states = placed.tile.areas[area].elements.iter().zip(&placed.states[area]);
            states.filter_map(move |(&element, &state)| {
                (state == ElementState::Present && !(element == Element::Chest && guarded)).then_some(element)
            })
        });
        let tile = self.placed.as_ref().map(|p| &p.tile);
        let new =
            self.new_nodes.iter().zip(tile.into_iter().flat_map(|t| &t.areas)).filter(|(n, _)| n.reached).flat_map(
                |(_, area)| {
                    // Every element of a new tile is present.
                    let guarded = area.elements.iter().any(|e| matches!(e, Element::Monster { .. }));
                    area.elements.iter().copied().filter(move |&e| !(e == Element::Chest && guarded))
                },
            );
        old.chain(new)
    }

    /// The empty cells around the map with the tile placed, sorted (for tests).
    pub fn cell_list(&self, map: &Map) -> Vec<Cell> {
        let kept = map.graph.spots.iter().enumerate().filter(|(i, _)| !self.gone.contains(&(*i as u32)));
        let mut cells: Vec<Cell> = kept.map(|(_, s)| s.cell).chain(self.spots.iter().map(|s| s.cell)).collect();
        cells.sort_unstable();
        cells
    }
}

impl Map {
    /// Works out into `p` what placing `tile` at `placement` would change,
    /// leaving the map as it is. Refused as [`Map::place`] would refuse it.
    pub fn preview(&self, tile: &Arc<MapTile>, placement: Placement, p: &mut Preview) -> Result<(), PlacementError> {
        self.check_placement(tile, placement)?;
        let g = &self.graph;
        let placed = PlacedTile {
            tile: Arc::clone(tile),
            cell: placement.cell,
            rotation: placement.rotation,
            states: Vec::new(),
        };
        let cell = placed.cell;
        let mut foot = Footprint { edges: [Edge::Wall; 4], area_on: [NO_AREA; 4], id: 0 };
        for side in Side::ALL {
            foot.edges[side.index()] = placed.edge(side);
            foot.area_on[side.index()] = placed.area_at(side).map_or(NO_AREA, |a| a as u8);
        }
        p.new_nodes.clear();
        let first_new = g.nodes.len() as u32;
        for (a, area) in tile.areas.iter().enumerate() {
            p.new_nodes.push(NewNode {
                links: [NONE; 4],
                secret_passage: area.secret_passage,
                warp_portal: area.warp_portal,
                door: area.beyond_door.map_or(NONE, |d| first_new + u32::from(d)),
                rooms: Area::rooms_beyond(&tile.areas, a).next().is_some(),
                // Every element of a new tile is present.
                blocking: area.elements.iter().any(|e| e.blocks_movement()),
                reached: false,
                expanded: false,
            });
        }
        for side in Side::ALL {
            let here = foot.area_on[side.index()];
            let Some(&u) = g.index.get(&step(cell, side)) else { continue };
            let back = side.opposite().index();
            let other = &g.footprints[u as usize];
            if here != NO_AREA && other.area_on[back] != NO_AREA && foot.edges[side.index()].joins(other.edges[back]) {
                p.new_nodes[usize::from(here)].links[side.index()] =
                    g.base[u as usize] + u32::from(other.area_on[back]);
            }
        }
        // The stamps: a new epoch, so nothing needs clearing.
        p.epoch = p.epoch.wrapping_add(1);
        if p.epoch == 0 || p.reached_at.len() < g.nodes.len() {
            p.reached_at.clear();
            p.expanded_at.clear();
            p.reached_at.resize(g.nodes.len(), 0);
            p.expanded_at.resize(g.nodes.len(), 0);
            p.epoch = 1;
        }
        p.newly_reached.clear();
        p.newly_expanded.clear();
        (p.secret_open, p.portal_open) = (g.secret_open, g.portal_open);
        p.placed = Some(placed);
        p.foot = Some(foot);
        self.preview_flood(p);
        self.preview_spots(p);
        Ok(())
    }

    /// Extends the map's flood from the new tile. The nodes a flood reaches
    /// do not depend on the order it goes in, and a tile only adds ways on:
    /// what the map reaches stays reached.
    fn preview_flood(&self, p: &mut Preview) {
        let g = &self.graph;
        let first_new = g.nodes.len() as u32;
        let epoch = p.epoch;
        let mut stack = std::mem::take(&mut p.stack);
        stack.clear();
        for (a, n) in p.new_nodes.iter_mut().enumerate() {
            let linked = n.links.iter().any(|&v| v != NONE && g.nodes[v as usize].expanded);
            if linked || (n.secret_passage && p.secret_open) || (n.warp_portal && p.portal_open) {
                n.reached = true;
                stack.push(first_new + a as u32);
            }
        }
        // Reaches a node not yet reached.
        fn visit(g: &Graph, p: &mut Preview, v: u32, stack: &mut Vec<u32>) {
            let first_new = g.nodes.len() as u32;
            if v >= first_new {
                let n = &mut p.new_nodes[(v - first_new) as usize];
                if !n.reached {
                    n.reached = true;
                    stack.push(v);
                }
            } else if !g.nodes[v as usize].reached && p.reached_at[v as usize] != p.epoch {
                p.reached_at[v as usize] = p.epoch;
                p.newly_reached.push(v);
                stack.push(v);
            }
        }
        // Reaches every node, the map's and the new tile's, that `pick` marks
        // by its (Secret Passage, Warp Portal).
        fn visit_all(g: &Graph, p: &mut Preview, pick: fn((bool, bool)) -> bool, stack: &mut Vec<u32>) {
            let first_new = g.nodes.len() as u32;
            for v in 0..first_new + p.new_nodes.len() as u32 {
                let marks = if v < first_new {
                    let n = &g.nodes[v as usize];
                    (n.secret_passage, n.warp_portal)
                } else {
                    let n = &p.new_nodes[(v - first_new) as usize];
                    (n.secret_passage, n.warp_portal)
                };
                if pick(marks) {
                    visit(g, p, v, stack);
                }
            }
        }
        while let Some(u) = stack.pop() {
            let (links, secret, portal) = if u >= first_new {
                let n = &mut p.new_nodes[(u - first_new) as usize];
                if n.blocking {
                    continue;
                }
                n.expanded = true;
                let (door, rooms) = (n.door, n.rooms);
                // A Door leads between its area and the rooms beyond it.
                if door != NONE {
                    visit(g, p, door, &mut stack);
                }
                if rooms {
                    for a in 0..p.new_nodes.len() {
                        if p.new_nodes[a].door == u {
                            visit(g, p, first_new + a as u32, &mut stack);
                        }
                    }
                }
                let n = &p.new_nodes[(u - first_new) as usize];
                (n.links, n.secret_passage, n.warp_portal)
            } else {
                let n = &g.nodes[u as usize];
                if n.blocking {
                    continue;
                }
                p.expanded_at[u as usize] = epoch;
                p.newly_expanded.push(u);
                // The new tile's areas joined to this one.
                for a in 0..p.new_nodes.len() {
                    if p.new_nodes[a].links.contains(&u) {
                        visit(g, p, first_new + a as u32, &mut stack);
                    }
                }
                if n.door != NONE {
                    visit(g, p, n.door, &mut stack);
                }
                if n.rooms {
                    for v in g.tile_nodes(n.tile) {
                        if g.nodes[v as usize].door == u {
                            visit(g, p, v, &mut stack);
                        }
                    }
                }
                (n.links, n.secret_passage, n.warp_portal)
            };
            for v in links {
                if v != NONE {
                    visit(g, p, v, &mut stack);
                }
            }
            // All Secret Passages are one place, and so are both Warp Portals.
            if secret && !p.secret_open {
                p.secret_open = true;
                visit_all(g, p, |(secret, _)| secret, &mut stack);
            }
            if portal && !p.portal_open {
                p.portal_open = true;
                visit_all(g, p, |(_, portal)| portal, &mut stack);
            }
        }
        p.stack = stack;
    }

    /// The spots the new tile takes or changes: its own cell, the empty
    /// cells next to it, and those next to an area newly passed through.
    fn preview_spots(&self, p: &mut Preview) {
        let g = &self.graph;
        let cell = p.placed.as_ref().expect("placed").cell;
        p.gone.clear();
        p.spots.clear();
        let Ok(own) = g.spots.binary_search_by_key(&cell, |s| s.cell) else {
            unreachable!("a placed tile goes on a spot")
        };
        p.gone.push(own as u32);
        let mut added = 0;
        let mut consider = |p: &mut Preview, c: Cell| {
            if c == cell || g.index.contains_key(&c) || p.spots.iter().any(|s| s.cell == c) {
                return;
            }
            match g.spots.binary_search_by_key(&c, |s| s.cell) {
                Ok(i) => p.gone.push(i as u32),
                Err(_) => added += 1,
            }
            let spot = self.preview_spot(p, c);
            p.spots.push(spot);
        };
        for side in Side::ALL {
            consider(p, step(cell, side));
        }
        for k in 0..p.newly_expanded.len() {
            let node = &g.nodes[p.newly_expanded[k] as usize];
            let foot = &g.footprints[node.tile as usize];
            let at = self.tiles[node.tile as usize].cell;
            for side in Side::ALL {
                if foot.area_on[side.index()] == node.area {
                    consider(p, step(at, side));
                }
            }
        }
        p.cells = g.spots.len() - 1 + added;
    }

    /// [`Map::spot`] on the map with the previewed tile (its `entry` left
    /// out: a preview's spots are only counted).
    fn preview_spot(&self, p: &Preview, cell: Cell) -> Spot {
        let g = &self.graph;
        let new_cell = p.placed.as_ref().expect("placed").cell;
        let mut spot = Spot { cell, neighbour: [None; 4], allow: u32::MAX, join: 0, entry: [NONE; 4] };
        for side in Side::ALL {
            let c = step(cell, side);
            let (i, back) = (side.index(), side.opposite().index());
            let (foot, expanded) = if c == new_cell {
                let foot = p.foot.as_ref().expect("placed");
                let area = foot.area_on[back];
                (foot, area != NO_AREA && p.new_nodes[usize::from(area)].expanded)
            } else {
                let Some(&t) = g.index.get(&c) else { continue };
                let foot = &g.footprints[t as usize];
                let area = foot.area_on[back];
                let expanded = area != NO_AREA && {
                    let n = g.base[t as usize] + u32::from(area);
                    g.nodes[n as usize].expanded || p.expanded_at[n as usize] == p.epoch
                };
                (foot, expanded)
            };
            let theirs = foot.edges[back];
            spot.neighbour[i] = Some(theirs);
            if theirs != Edge::Water {
                spot.allow &= !(0xff << (8 * i));
                spot.allow |= edge_bit(i, theirs) | edge_bit(i, Edge::Water);
            }
            if theirs.is_passable() && expanded {
                spot.join |= edge_bit(i, theirs);
            }
        }
        spot
    }
}

/// How many places each of some tile shapes has on a map, and on the map
/// with one more tile ([`Preview`]): worked out for every spot once, so that
/// a preview only counts again at the spots it changes.
#[derive(Default)]
pub struct PlaceCounts {
    shapes: Vec<Option<Shape>>,
    /// `per_spot[spot * shapes + shape]`: the turns of the shape that fit there.
    per_spot: Vec<u8>,
    totals: Vec<usize>,
    secret_open: bool,
    portal_open: bool,
    /// Each spot counted: (cell, [`Spot::allow`], [`Spot::join`]), all a
    /// turn's fit depends on besides the shape and the passages open.
    keys: Vec<(Cell, u32, u32)>,
    /// For [`PlaceCounts::renew`]: the counts it replaces, and where each
    /// new shape was among the old ones.
    old_per_spot: Vec<u8>,
    old_shapes: Vec<Option<Shape>>,
    old_keys: Vec<(Cell, u32, u32)>,
    was: Vec<usize>,
}

/// In [`PlaceCounts::was`]: a shape not counted before.
const NEW_SHAPE: usize = usize::MAX;

impl PlaceCounts {
    pub fn new<'s>(map: &Map, shapes: impl IntoIterator<Item = &'s TileShape>) -> PlaceCounts {
        let mut counts = PlaceCounts::default();
        counts.renew(map, shapes);
        counts
    }

    /// [`PlaceCounts::new`] in place, for another map or other shapes: a
    /// spot with the same cell, edges and ways in as one counted before,
    /// with the same passages open, fits the same shapes as it did, so its
    /// counts are kept (a bot counts the places of the tiles left at every
    /// decision that weighs maps, and a decision changes few spots).
    pub fn renew<'s>(&mut self, map: &Map, shapes: impl IntoIterator<Item = &'s TileShape>) {
        let g = &map.graph;
        std::mem::swap(&mut self.shapes, &mut self.old_shapes);
        std::mem::swap(&mut self.per_spot, &mut self.old_per_spot);
        std::mem::swap(&mut self.keys, &mut self.old_keys);
        self.shapes.clear();
        self.shapes.extend(shapes.into_iter().map(|s| (s.ecology == map.ecology).then_some(s.shape)));
        let reuse = (self.secret_open, self.portal_open) == (g.secret_open, g.portal_open);
        let same = |a: &Shape, b: &Shape| {
            (a.bits, a.secret_passage, a.warp_portal) == (b.bits, b.secret_passage, b.warp_portal)
        };
        self.was.clear();
        for shape in &self.shapes {
            let was = shape
                .as_ref()
                .filter(|_| reuse)
                .and_then(|s| self.old_shapes.iter().position(|o| o.as_ref().is_some_and(|o| same(o, s))));
            self.was.push(was.unwrap_or(NEW_SHAPE));
        }
        let all_kept = self.was.iter().all(|&w| w != NEW_SHAPE);
        let (n, old_n) = (self.shapes.len(), self.old_shapes.len());
        self.per_spot.clear();
        self.keys.clear();
        // Both lists of spots are sorted by cell.
        let mut j = 0;
        for spot in &g.spots {
            let key = (spot.cell, spot.allow, spot.join);
            while j < self.old_keys.len() && self.old_keys[j].0 < spot.cell {
                j += 1;
            }
            let old = (j < self.old_keys.len() && self.old_keys[j] == key).then(|| {
                let row = j * old_n;
                &self.old_per_spot[row..row + old_n]
            });
            match old {
                Some(row) if all_kept => self.per_spot.extend(self.was.iter().map(|&o| row[o])),
                _ => {
                    for (shape, &o) in self.shapes.iter().zip(&self.was) {
                        self.per_spot.push(match (old, shape) {
                            (Some(row), _) if o != NEW_SHAPE => row[o],
                            (_, Some(s)) => turns_fitting(s, spot, g.secret_open, g.portal_open),
                            (_, None) => 0,
                        });
                    }
                }
            }
            self.keys.push(key);
        }
        self.totals.clear();
        self.totals.resize(n, 0);
        if n > 0 {
            for row in self.per_spot.chunks_exact(n) {
                for (total, &fit) in self.totals.iter_mut().zip(row) {
                    *total += usize::from(fit);
                }
            }
        }
        (self.secret_open, self.portal_open) = (g.secret_open, g.portal_open);
    }

    /// The places of shape `k` on the map ([`Frontier::placements_of`], counted).
    pub fn on_map(&self, k: usize) -> usize {
        self.totals[k]
    }

    /// The places of shape `k` on the map with the tile of `p` placed.
    pub fn after(&self, k: usize, map: &Map, p: &Preview) -> usize {
        let Some(shape) = &self.shapes[k] else { return 0 };
        let (so, po) = (p.secret_open, p.portal_open);
        let fits = |spot: &Spot| usize::from(turns_fitting(shape, spot, so, po));
        let new: usize = p.spots.iter().map(fits).sum();
        let passages_differ =
            (shape.secret_passage && so != self.secret_open) || (shape.warp_portal && po != self.portal_open);
        if passages_differ {
            // Every spot may fit differently: count them all again.
            let kept = map.graph.spots.iter().enumerate().filter(|(i, _)| !p.gone.contains(&(*i as u32)));
            return kept.map(|(_, s)| fits(s)).sum::<usize>() + new;
        }
        let n = self.shapes.len();
        let gone: usize = p.gone.iter().map(|&i| usize::from(self.per_spot[i as usize * n + k])).sum();
        self.totals[k] - gone + new
    }
}

impl PlaceCounts {
    /// The places of every shape on `other`, a copy of `map` (the map these
    /// counts are for) after an Encounter, a rest or a Lantern move: the
    /// same tiles, so only the spots whose ways in changed are counted again.
    pub fn on_copy(&self, map: &Map, other: &Map, out: &mut Vec<usize>) {
        let (a, b) = (&map.graph, &other.graph);
        let (so, po) = (b.secret_open, b.portal_open);
        out.clear();
        let same_cells = a.spots.len() == b.spots.len() && a.spots.iter().zip(&b.spots).all(|(x, y)| x.cell == y.cell);
        let n = self.shapes.len();
        for (k, shape) in self.shapes.iter().enumerate() {
            let Some(shape) = shape else {
                out.push(0);
                continue;
            };
            let fits = |spot: &Spot| usize::from(turns_fitting(shape, spot, so, po));
            let passages_differ =
                (shape.secret_passage && so != self.secret_open) || (shape.warp_portal && po != self.portal_open);
            if !same_cells || passages_differ {
                out.push(b.spots.iter().map(fits).sum());
                continue;
            }
            let mut total = self.totals[k];
            for (i, (x, y)) in a.spots.iter().zip(&b.spots).enumerate() {
                if (x.join, x.allow) != (y.join, y.allow) {
                    total = total - usize::from(self.per_spot[i * n + k]) + fits(y);
                }
            }
            out.push(total);
        }
    }
}

/// How many turns of a shape fit at a spot.
fn turns_fitting(shape: &Shape, spot: &Spot, secret_open: bool, portal_open: bool) -> u8 {
    Rotation::ALL.into_iter().filter(|&r| shape.fits(spot, r, secret_open, portal_open)).count() as u8
}
