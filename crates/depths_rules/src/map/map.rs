//! The placed Map Tiles of one Ecology, the Lantern, and what the Heroes can
//! reach ("Placing Map Tiles", "Encountering", "Habitat Boundaries",
//! "Ecology-Specific Details").
//!
//! The unit of movement is a tile's area. Heroes flood from the Lantern
//! through joined open edges, Secret Passages and Warp Portals. An area that
//! still holds a Monster, a Feature or a locked Door can be reached (so it
//! can be Encountered) but not passed through.

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::map_tile::{Edge, Element, MapTile, Rotation, Side, TileError, TileKind};
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlacedTile {
    /// The tile as printed; `rotation` turns it onto the map.
    pub tile: MapTile,
    pub cell: Cell,
    pub rotation: Rotation,
    /// `states[area][element]`, parallel to `tile.areas[area].elements`.
    pub states: Vec<Vec<ElementState>>,
}

impl PlacedTile {
    fn new(tile: MapTile, placement: Placement) -> PlacedTile {
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
    InvalidTile(TileError),
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
            PlacementError::InvalidTile(e) => write!(f, "{e}"),
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
    /// Holds a present Monster or Feature or a locked Door.
    blocking: bool,
}

/// Geometry of a placed tile on the map, precomputed.
#[derive(Clone, Debug, PartialEq)]
struct Footprint {
    edges: [Edge; 4],
    area_on: [u8; 4],
}

/// Everything derived from the placed tiles; rebuilt after loading.
#[derive(Clone, Debug, Default, PartialEq)]
struct Graph {
    /// Looked up on every step of every placement and match: a fast hasher
    /// with a fixed seed (the same on every machine; nothing is saved from it).
    index: HashMap<Cell, u32, foldhash::fast::FixedState>,
    footprints: Vec<Footprint>,
    /// First node of each tile.
    base: Vec<u32>,
    nodes: Vec<Node>,
}

/// Who the Heroes can reach from the Lantern.
#[derive(Clone, Debug)]
struct Access {
    reached: Vec<bool>,
    /// Reached and passable: its exits and passages lead on.
    expanded: Vec<bool>,
    /// The node a reached node was first reached from.
    parent: Vec<u32>,
    secret_open: bool,
    portal_open: bool,
}

/// The placed map of the current Ecology.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
        map.tiles.push(PlacedTile::new(entry, Placement { cell: (0, 0), rotation: Rotation::default() }));
        map.attach(0);
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
        let access = self.access();
        let shape = self.shape(tile)?;
        if self.graph.index.contains_key(&placement.cell) {
            return Err(PlacementError::Occupied(placement.cell));
        }
        let Some(spot) = self.spot(placement.cell, &access) else {
            return Err(PlacementError::NotAdjacent(placement.cell));
        };
        shape.fit(&spot, placement.rotation, access.secret_open, access.portal_open)
    }

    /// "It is possible to lose by drawing a Map Tile that cannot be placed."
    pub fn is_dead_end(&self, tile: &MapTile) -> bool {
        self.legal_placements(tile).is_empty()
    }

    /// Everything [`Map::legal_placements`] needs that does not depend on
    /// the tile; compute once to test many tiles.
    pub fn frontier(&self) -> Frontier<'_> {
        let access = self.access();
        let mut cells: Vec<Cell> = Vec::with_capacity(self.tiles.len() * 2);
        for placed in &self.tiles {
            for side in Side::ALL {
                let cell = step(placed.cell, side);
                if !self.graph.index.contains_key(&cell) {
                    cells.push(cell);
                }
            }
        }
        cells.sort_unstable();
        cells.dedup();
        let spots = cells.into_iter().filter_map(|c| self.spot(c, &access)).collect();
        Frontier { map: self, spots, secret_open: access.secret_open, portal_open: access.portal_open }
    }

    /// Places a tile after checking it.
    pub fn place(&mut self, tile: &MapTile, placement: Placement) -> Result<(), PlacementError> {
        self.check_placement(tile, placement)?;
        self.tiles.push(PlacedTile::new(tile.clone(), placement));
        self.attach(self.tiles.len() - 1);
        Ok(())
    }

    fn shape(&self, tile: &MapTile) -> Result<Shape, PlacementError> {
        if tile.ecology != self.ecology {
            return Err(PlacementError::WrongEcology { tile: tile.ecology, map: self.ecology });
        }
        if self.tiles.iter().any(|p| p.tile.id == tile.id) {
            return Err(PlacementError::AlreadyPlaced(tile.id.clone()));
        }
        tile.validate().map_err(PlacementError::InvalidTile)?;
        Ok(Shape::of(tile))
    }

    /// The neighbourhood of an empty cell; `None` when it touches no tile.
    fn spot(&self, cell: Cell, access: &Access) -> Option<Spot> {
        let mut spot = Spot { cell, neighbour: [None; 4], entry: [false; 4] };
        for side in Side::ALL {
            let Some(&t) = self.graph.index.get(&step(cell, side)) else {
                continue;
            };
            let back = side.opposite().index();
            let foot = &self.graph.footprints[t as usize];
            spot.neighbour[side.index()] = Some(foot.edges[back]);
            let area = foot.area_on[back];
            spot.entry[side.index()] = foot.edges[back].is_passable()
                && area != NO_AREA
                && access.expanded[(self.graph.base[t as usize] + u32::from(area)) as usize];
        }
        spot.neighbour.iter().any(Option::is_some).then_some(spot)
    }

    // ---- accessibility ----

    /// Every area the Heroes can reach from the Lantern, blocked ones included.
    pub fn accessible_areas(&self) -> Vec<AreaRef> {
        let access = self.access();
        (0..self.graph.nodes.len()).filter(|&n| access.reached[n]).map(|n| self.area_ref(n as u32)).collect()
    }

    pub fn is_accessible(&self, area: AreaRef) -> bool {
        self.node(area).is_some_and(|n| self.access().reached[n as usize])
    }

    /// Every element the Heroes may choose to Encounter now: reachable, not
    /// yet Encountered (Doors: still locked), and no Chest whose Monsters
    /// are still present.
    pub fn reachable_unencountered_elements(&self) -> Vec<ElementRef> {
        let access = self.access();
        let mut out = Vec::new();
        for (n, node) in self.graph.nodes.iter().enumerate() {
            if !access.reached[n] {
                continue;
            }
            let placed = &self.tiles[node.tile as usize];
            let area = usize::from(node.area);
            let guarded = guarded(placed, area);
            for (i, (&element, &state)) in placed.tile.areas[area].elements.iter().zip(&placed.states[area]).enumerate()
            {
                if state == ElementState::Present && !(element == Element::Chest && guarded) {
                    out.push(ElementRef { cell: placed.cell, area: node.area, element: i as u8 });
                }
            }
        }
        out
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
        let access = self.access();
        if !access.reached[node as usize] {
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
            self.anchor = self.area_ref(access.parent[node as usize]);
        }
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
        if !self.access().reached[node as usize] {
            return Err(MapError::AreaNotReachable(area));
        }
        if self.graph.nodes[node as usize].blocking {
            return Err(MapError::AreaBlocked(area));
        }
        self.lantern = area;
        self.anchor = area;
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

    fn access(&self) -> Access {
        let n = self.graph.nodes.len();
        let mut access = Access {
            reached: vec![false; n],
            expanded: vec![false; n],
            parent: vec![NONE; n],
            secret_open: false,
            portal_open: false,
        };
        if let Some(stairs) = self.guardian_taken() {
            access.reached[stairs as usize] = true;
            return access;
        }
        let Some(start) = self.node(self.anchor) else {
            return access;
        };
        access.reached[start as usize] = true;
        let mut stack = vec![start];
        while let Some(u) = stack.pop() {
            let node = &self.graph.nodes[u as usize];
            if node.blocking {
                continue;
            }
            access.expanded[u as usize] = true;
            let visit = |v: u32, access: &mut Access, stack: &mut Vec<u32>| {
                if !access.reached[v as usize] {
                    access.reached[v as usize] = true;
                    access.parent[v as usize] = u;
                    stack.push(v);
                }
            };
            for &v in &node.links {
                if v != NONE {
                    visit(v, &mut access, &mut stack);
                }
            }
            // All Secret Passages are one place, and so are both Warp Portals.
            if node.secret_passage && !access.secret_open {
                access.secret_open = true;
                for v in 0..n as u32 {
                    if self.graph.nodes[v as usize].secret_passage {
                        visit(v, &mut access, &mut stack);
                    }
                }
            }
            if node.warp_portal && !access.portal_open {
                access.portal_open = true;
                for v in 0..n as u32 {
                    if self.graph.nodes[v as usize].warp_portal {
                        visit(v, &mut access, &mut stack);
                    }
                }
            }
        }
        access
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
        let mut foot = Footprint { edges: [Edge::Wall; 4], area_on: [NO_AREA; 4] };
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
                blocking: false,
            });
        }
        let cell = placed.cell;
        self.graph.index.insert(cell, t as u32);
        self.graph.base.push(base);
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
#[derive(Clone, Debug)]
struct Spot {
    cell: Cell,
    /// The placed edge across each side, if a tile is there.
    neighbour: [Option<Edge>; 4],
    /// Heroes stand in a passable area that owns that neighbour edge.
    entry: [bool; 4],
}

/// A tile's edges under each rotation.
struct Shape {
    edges: [[Edge; 4]; 4],
    secret_passage: bool,
    warp_portal: bool,
}

impl Shape {
    fn of(tile: &MapTile) -> Shape {
        let mut edges = [[Edge::Wall; 4]; 4];
        for r in Rotation::ALL {
            edges[usize::from(r.quarter_turns())] = tile.edges.rotated(r).to_array();
        }
        Shape { edges, secret_passage: tile.has_secret_passage(), warp_portal: tile.has_warp_portal() }
    }

    fn fit(&self, spot: &Spot, rotation: Rotation, secret_open: bool, portal_open: bool) -> Result<(), PlacementError> {
        let edges = &self.edges[usize::from(rotation.quarter_turns())];
        let mut path = (self.secret_passage && secret_open) || (self.warp_portal && portal_open);
        for side in Side::ALL {
            let i = side.index();
            let Some(theirs) = spot.neighbour[i] else {
                continue;
            };
            if !edges[i].matches(theirs) {
                return Err(PlacementError::EdgeMismatch { side, tile_edge: edges[i], neighbour_edge: theirs });
            }
            path |= spot.entry[i] && edges[i].joins(theirs);
        }
        if path { Ok(()) } else { Err(PlacementError::NoPath) }
    }
}

/// The empty cells around the map and what the Heroes can reach, computed
/// once by [`Map::frontier`] to test many tiles.
#[derive(Debug)]
pub struct Frontier<'a> {
    map: &'a Map,
    spots: Vec<Spot>,
    secret_open: bool,
    portal_open: bool,
}

impl Frontier<'_> {
    pub fn legal_placements(&self, tile: &MapTile) -> Vec<Placement> {
        let Ok(shape) = self.map.shape(tile) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for spot in &self.spots {
            for rotation in Rotation::ALL {
                if shape.fit(spot, rotation, self.secret_open, self.portal_open).is_ok() {
                    out.push(Placement { cell: spot.cell, rotation });
                }
            }
        }
        out
    }

    /// Empty cells touching the map.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.spots.iter().map(|s| s.cell)
    }
}
