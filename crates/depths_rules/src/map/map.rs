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

pub(super) const NONE: u32 = u32::MAX;
pub(super) const NO_AREA: u8 = u8::MAX;

/// One area of a placed tile as a node of the movement graph.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Node {
    pub(super) tile: u32,
    pub(super) area: u8,
    /// Node across each side of the map, through a joined open edge.
    pub(super) links: [u32; 4],
    pub(super) secret_passage: bool,
    pub(super) warp_portal: bool,
    /// A room beyond a Door: the node of the Door's area (same tile), else `NONE`.
    pub(super) door: u32,
    /// Rooms of its tile lie beyond its Door.
    pub(super) rooms: bool,
    /// Holds a present Monster or Feature or a locked Door.
    pub(super) blocking: bool,
    /// The Heroes can reach it from the Lantern (see [`Map::flood`]).
    pub(super) reached: bool,
    /// Reached and passable: its exits and passages lead on.
    pub(super) expanded: bool,
    /// The node it was first reached from.
    pub(super) parent: u32,
}

/// Geometry of a placed tile on the map, precomputed.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Footprint {
    pub(super) edges: [Edge; 4],
    pub(super) area_on: [u8; 4],
    /// [`id_hash`] of the tile's id.
    pub(super) id: u64,
}

fn id_hash(id: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::default().hash_one(id)
}

/// The tile at each cell, in an array over the rectangle the map covers
/// (grown as tiles are placed): a look-up is an index, where a hash map
/// hashed the cell every time.
#[derive(Debug, Default)]
pub(super) struct CellIndex {
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

    pub(super) fn get(&self, cell: &Cell) -> Option<&u32> {
        self.slot(*cell).map(|i| &self.tiles[i]).filter(|&&t| t != NONE)
    }

    pub(super) fn contains_key(&self, cell: &Cell) -> bool {
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
pub(super) struct Graph {
    /// The tile at each cell: looked up on every step of every placement,
    /// preview and match.
    pub(super) index: CellIndex,
    pub(super) footprints: Vec<Footprint>,
    /// First node of each tile.
    pub(super) base: Vec<u32>,
    pub(super) nodes: Vec<Node>,
    /// The empty cells touching the map, sorted; kept as tiles are placed.
    pub(super) open: Vec<Cell>,
    /// The neighbourhood of each cell of `open`, in the same order.
    pub(super) spots: Vec<Spot>,
    /// The Heroes reach a Secret Passage: every Secret Passage leads on.
    pub(super) secret_open: bool,
    /// The Heroes reach a Warp Portal: both do.
    pub(super) portal_open: bool,
    /// The flood's stack, kept to be reused (empty between floods).
    pub(super) stack: Vec<u32>,
}

/// A way between areas that is not a walk: "All Secret Passages are
/// connected", and so are both Warp Portals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Passage {
    SecretPassage,
    WarpPortal,
}

impl Graph {
    /// Where the Heroes can walk from node `u`: through joined edges, and
    /// through a Door between its area and the rooms beyond it.
    fn on_foot(&self, u: u32) -> impl Iterator<Item = u32> + '_ {
        let node = &self.nodes[u as usize];
        let rooms = node.rooms.then(|| self.tile_nodes(node.tile).filter(move |&v| self.nodes[v as usize].door == u));
        node.links
            .into_iter()
            .filter(|&v| v != NONE)
            .chain((node.door != NONE).then_some(node.door))
            .chain(rooms.into_iter().flatten())
    }

    /// Where node `u`'s passages lead: every other Secret Passage, or the
    /// other Warp Portal.
    fn through_passages(&self, u: u32) -> impl Iterator<Item = (u32, Passage)> + '_ {
        let node = &self.nodes[u as usize];
        let kinds = [(node.secret_passage, Passage::SecretPassage), (node.warp_portal, Passage::WarpPortal)];
        kinds.into_iter().filter(|&(on, _)| on).flat_map(move |(_, kind)| {
            (0..self.nodes.len() as u32)
                .filter(move |&v| {
                    let m = &self.nodes[v as usize];
                    v != u && if kind == Passage::SecretPassage { m.secret_passage } else { m.warp_portal }
                })
                .map(move |v| (v, kind))
        })
    }

    /// The nodes of the tile at index `tile` (its areas, in order).
    pub(super) fn tile_nodes(&self, tile: u32) -> std::ops::Range<u32> {
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
    pub(super) tiles: Vec<PlacedTile>,
    lantern: AreaRef,
    /// Where the flood starts. The Lantern's area, except when the Lantern
    /// stands in an area still blocked by another element: then the area
    /// the Heroes came from, so they can turn back but not pass.
    anchor: AreaRef,
    pub(super) graph: Graph,
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
            // As placing builds it: the Entry Tile at (0, 0), every later tile
            // beside one placed before (a far cell would make the map's
            // index cover everything between).
            let beside = Side::ALL.iter().any(|&side| map.graph.index.contains_key(&step(placed.cell, side)));
            if (map.tiles.is_empty() && placed.cell != (0, 0)) || (!map.tiles.is_empty() && !beside) {
                return Err(format!(
                    "tile \"{}\" at {:?} touches no tile placed before it",
                    placed.tile.id, placed.cell
                ));
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

    /// What stands between the Heroes and `e`: the elements that block
    /// movement ("Blocks Movement until Encountered"/"until Unlocked") in
    /// the first blocked area on the way that passes the fewest of them.
    /// Empty when nothing does (`e` is reached); `None` when no way at all
    /// leads there (walls, exits not yet joined).
    pub fn in_the_way(&self, e: ElementRef) -> Option<Vec<ElementRef>> {
        let target = self.node(e.area_ref())?;
        let start = self.node(self.anchor)?;
        let g = &self.graph;
        // Fewest blocked areas first: entering one costs 1, others 0.
        let n = g.nodes.len();
        let (mut cost, mut parent) = (vec![u32::MAX; n], vec![NONE; n]);
        let mut deque = std::collections::VecDeque::from([start]);
        cost[start as usize] = 0;
        while let Some(u) = deque.pop_front() {
            if u == target {
                break;
            }
            let mut next: Vec<u32> = g.on_foot(u).collect();
            next.extend(g.through_passages(u).map(|(v, _)| v));
            for v in next {
                let step = u32::from(g.nodes[v as usize].blocking && v != target);
                if cost[u as usize] + step < cost[v as usize] {
                    (cost[v as usize], parent[v as usize]) = (cost[u as usize] + step, u);
                    if step == 0 { deque.push_front(v) } else { deque.push_back(v) }
                }
            }
        }
        if cost[target as usize] == u32::MAX {
            return None;
        }
        let mut way = vec![target];
        while let Some(&u) = way.last().filter(|&&u| u != start) {
            way.push(parent[u as usize]);
        }
        let first = way.iter().rev().copied().find(|&u| u != target && g.nodes[u as usize].blocking);
        Some(first.map_or_else(Vec::new, |u| {
            let placed = &self.tiles[g.nodes[u as usize].tile as usize];
            let area = g.nodes[u as usize].area;
            let states = placed.tile.areas[usize::from(area)].elements.iter().zip(&placed.states[usize::from(area)]);
            states
                .enumerate()
                .filter(|(_, (el, s))| el.blocks_movement() && **s == ElementState::Present)
                .map(|(i, _)| ElementRef { cell: placed.cell, area, element: i as u8 })
                .collect()
        }))
    }

    /// The passage the Heroes must take to reach `area` from where they
    /// stand, when no way on foot leads there: the first Secret Passage or
    /// Warp Portal on the way that takes the fewest. `None` when they can
    /// walk there, or cannot reach it at all. The table shows this way (a
    /// Lantern that slid across a wall looked like a walk through a locked
    /// Door).
    pub fn passage_on_the_way(&self, area: AreaRef) -> Option<Passage> {
        let target = self.node(area)?;
        let start = self.node(self.anchor)?;
        if !self.reached(target) {
            return None;
        }
        let g = &self.graph;
        // Fewest passages first: a step on foot costs 0, a passage 1. Each
        // node keeps the first passage of the way it was reached by.
        let n = g.nodes.len();
        let mut best: Vec<Option<(u32, Option<Passage>)>> = vec![None; n];
        best[start as usize] = Some((0, None));
        let mut deque = std::collections::VecDeque::from([start]);
        while let Some(u) = deque.pop_front() {
            let Some((cost, first)) = best[u as usize] else { continue };
            // As the flood: a blocked area is reached but not passed.
            if u == target || (u != start && g.nodes[u as usize].blocking) {
                continue;
            }
            let steps = g.on_foot(u).map(|v| (v, None)).chain(g.through_passages(u).map(|(v, p)| (v, Some(p))));
            for (v, passage) in steps {
                let (c, way) = (cost + u32::from(passage.is_some()), first.or(passage));
                if best[v as usize].is_none_or(|(old, _)| c < old) {
                    best[v as usize] = Some((c, way));
                    if passage.is_none() { deque.push_front(v) } else { deque.push_back(v) }
                }
            }
        }
        best[target as usize].and_then(|(_, first)| first)
    }

    /// Whether `e`, a Chest, lies in an area whose Monster still stands
    /// (reachable or not).
    pub fn is_chest_guarded(&self, e: ElementRef) -> bool {
        let Some(&t) = self.graph.index.get(&e.cell) else { return false };
        let placed = &self.tiles[t as usize];
        usize::from(e.area) < placed.tile.areas.len() && guarded(placed, usize::from(e.area))
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
pub(super) fn guarded(placed: &PlacedTile, area: usize) -> bool {
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
pub(super) struct Spot {
    pub(super) cell: Cell,
    /// The placed edge across each side, if a tile is there.
    pub(super) neighbour: [Option<Edge>; 4],
    /// The [`edge_bit`]s of the edges the new tile may have on each side.
    pub(super) allow: u32,
    /// The edge bits through which the Heroes could walk into the new tile.
    pub(super) join: u32,
    /// The area across each side whose passable edge leads in, if any:
    /// `join` has that side's bit when the Heroes pass through it.
    pub(super) entry: [u32; 4],
}

/// One bit for each kind of edge, in the byte of its side: the four edges of
/// a turned tile, and the edges a spot accepts, are tested all at once (the
/// bots test every remaining tile at every spot for every move they weigh).
pub(super) fn edge_bit(side: usize, edge: Edge) -> u32 {
    1 << (8 * side + edge as usize)
}

/// A tile's edges under each rotation.
#[derive(Clone, Copy)]
pub(super) struct Shape {
    pub(super) edges: [[Edge; 4]; 4],
    /// The [`edge_bit`]s of `edges`.
    pub(super) bits: [u32; 4],
    pub(super) secret_passage: bool,
    pub(super) warp_portal: bool,
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
    pub(super) fn fits(&self, spot: &Spot, rotation: Rotation, secret_open: bool, portal_open: bool) -> bool {
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
    pub(super) shape: Shape,
    pub(super) ecology: Ecology,
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
