//! Map Tiles as content designers write them in JSON, their validation, and
//! their rotation ("Placing Map Tiles", "Habitat Boundaries",
//! "Ecology-Specific Details").
//!
//! Directions: `N` is up on the table, quarter turns are clockwise, tiles are
//! never mirrored. On the map, cell `(x, y)` has `(x, y + 1)` to its north.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::ecology::Ecology;

/// One of a tile's four edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    N,
    E,
    S,
    W,
}

impl Side {
    /// Clockwise from north.
    pub const ALL: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Side {
        Side::ALL[i % 4]
    }

    pub fn opposite(self) -> Side {
        Side::from_index(self.index() + 2)
    }

    pub fn rotated(self, rotation: Rotation) -> Side {
        Side::from_index(self.index() + rotation.quarter_turns() as usize)
    }

    /// Left–right mirror image (used only by rune patterns, never by tiles).
    pub fn mirrored(self) -> Side {
        match self {
            Side::E => Side::W,
            Side::W => Side::E,
            other => other,
        }
    }

    /// Step from a cell to its neighbour on this side (`y` grows northward).
    pub fn offset(self) -> (i32, i32) {
        match self {
            Side::N => (0, 1),
            Side::E => (1, 0),
            Side::S => (0, -1),
            Side::W => (-1, 0),
        }
    }
}

/// One of a tile's four corners (for Caverns water).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Corner {
    NE,
    SE,
    SW,
    NW,
}

impl Corner {
    /// Clockwise from north-east.
    pub const ALL: [Corner; 4] = [Corner::NE, Corner::SE, Corner::SW, Corner::NW];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Corner {
        Corner::ALL[i % 4]
    }

    pub fn rotated(self, rotation: Rotation) -> Corner {
        Corner::from_index(self.index() + rotation.quarter_turns() as usize)
    }

    /// The two corners at the ends of a side, in clockwise order.
    pub fn ends_of(side: Side) -> [Corner; 2] {
        match side {
            Side::N => [Corner::NW, Corner::NE],
            Side::E => [Corner::NE, Corner::SE],
            Side::S => [Corner::SE, Corner::SW],
            Side::W => [Corner::SW, Corner::NW],
        }
    }

    /// The corner of the neighbour across `side` that touches this corner.
    /// `None` when this corner is not on that side.
    pub fn across(self, side: Side) -> Option<Corner> {
        let mirrored = match side {
            Side::N | Side::S => match self {
                Corner::NE => Corner::SE,
                Corner::SE => Corner::NE,
                Corner::SW => Corner::NW,
                Corner::NW => Corner::SW,
            },
            Side::E | Side::W => match self {
                Corner::NE => Corner::NW,
                Corner::NW => Corner::NE,
                Corner::SE => Corner::SW,
                Corner::SW => Corner::SE,
            },
        };
        Corner::ends_of(side).contains(&self).then_some(mirrored)
    }
}

/// A quarter-turn count, 0..4, clockwise. Serialized as that number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "u8", into = "u8")]
pub struct Rotation(u8);

impl Rotation {
    pub const ALL: [Rotation; 4] = [Rotation(0), Rotation(1), Rotation(2), Rotation(3)];

    /// Any number of quarter turns; five turns are one turn.
    pub fn new(quarter_turns: u8) -> Rotation {
        Rotation(quarter_turns % 4)
    }

    pub fn quarter_turns(self) -> u8 {
        self.0
    }

    /// The turn that undoes this one.
    pub fn inverse(self) -> Rotation {
        Rotation::new(4 - self.0)
    }
}

impl From<u8> for Rotation {
    fn from(q: u8) -> Rotation {
        Rotation::new(q)
    }
}

impl From<Rotation> for u8 {
    fn from(r: Rotation) -> u8 {
        r.0
    }
}

/// A set of sides, written in JSON as a list such as `["N", "E"]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "Vec<Side>", into = "Vec<Side>")]
pub struct Sides(u8);

impl Sides {
    pub const NONE: Sides = Sides(0);

    pub fn of(sides: &[Side]) -> Sides {
        sides.iter().fold(Sides::NONE, |acc, &s| acc.with(s))
    }

    pub fn contains(self, side: Side) -> bool {
        self.0 & (1 << side.index()) != 0
    }

    pub fn with(self, side: Side) -> Sides {
        Sides(self.0 | (1 << side.index()))
    }

    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    pub fn len(&self) -> usize {
        self.0.count_ones() as usize
    }

    /// True when every side of `other` is in `self`.
    pub fn contains_all(self, other: Sides) -> bool {
        self.0 & other.0 == other.0
    }

    pub fn intersects(self, other: Sides) -> bool {
        self.0 & other.0 != 0
    }

    pub fn iter(self) -> impl Iterator<Item = Side> {
        Side::ALL.into_iter().filter(move |&s| self.contains(s))
    }

    pub fn rotated(self, rotation: Rotation) -> Sides {
        let q = rotation.quarter_turns();
        Sides(((self.0 << q) | (self.0 >> (4 - q))) & 0b1111)
    }

    pub fn mirrored(self) -> Sides {
        self.iter().fold(Sides::NONE, |acc, s| acc.with(s.mirrored()))
    }
}

impl From<Vec<Side>> for Sides {
    fn from(v: Vec<Side>) -> Sides {
        Sides::of(&v)
    }
}

impl From<Sides> for Vec<Side> {
    fn from(s: Sides) -> Vec<Side> {
        s.iter().collect()
    }
}

/// A set of corners, written in JSON as a list such as `["NE", "SW"]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "Vec<Corner>", into = "Vec<Corner>")]
pub struct Corners(u8);

impl Corners {
    pub const NONE: Corners = Corners(0);

    pub fn of(corners: &[Corner]) -> Corners {
        corners.iter().fold(Corners::NONE, |acc, &c| acc.with(c))
    }

    pub fn contains(self, corner: Corner) -> bool {
        self.0 & (1 << corner.index()) != 0
    }

    pub fn with(self, corner: Corner) -> Corners {
        Corners(self.0 | (1 << corner.index()))
    }

    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = Corner> {
        Corner::ALL.into_iter().filter(move |&c| self.contains(c))
    }

    pub fn rotated(self, rotation: Rotation) -> Corners {
        let q = rotation.quarter_turns();
        Corners(((self.0 << q) | (self.0 >> (4 - q))) & 0b1111)
    }
}

impl From<Vec<Corner>> for Corners {
    fn from(v: Vec<Corner>) -> Corners {
        Corners::of(&v)
    }
}

impl From<Corners> for Vec<Corner> {
    fn from(c: Corners) -> Vec<Corner> {
        c.iter().collect()
    }
}

/// What a tile edge is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    Wall,
    /// A blank edge heroes walk through (Ruins and Caverns).
    Open,
    /// Caverns: may touch any edge; heroes cannot walk through it.
    Water,
    /// Subterranean Architecture: an open edge on the upper level.
    Upper,
    /// Subterranean Architecture: an open edge on the lower level.
    Lower,
}

impl Edge {
    /// Heroes can walk through this edge.
    pub fn is_passable(self) -> bool {
        matches!(self, Edge::Open | Edge::Upper | Edge::Lower)
    }

    /// "All edges of the new Map Tile must match": wall to wall, blank to
    /// blank, level to the same level; water touches anything.
    pub fn matches(self, other: Edge) -> bool {
        self == other || self == Edge::Water || other == Edge::Water
    }

    /// Heroes can cross from this edge into `other`.
    pub fn joins(self, other: Edge) -> bool {
        self == other && self.is_passable()
    }
}

/// The four edges of a tile, written in JSON as `{"N": "open", "E": "wall", ...}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Edges {
    #[serde(rename = "N")]
    pub n: Edge,
    #[serde(rename = "E")]
    pub e: Edge,
    #[serde(rename = "S")]
    pub s: Edge,
    #[serde(rename = "W")]
    pub w: Edge,
}

impl Edges {
    /// Indexed by [`Side::index`].
    pub fn from_array([n, e, s, w]: [Edge; 4]) -> Edges {
        Edges { n, e, s, w }
    }

    pub fn to_array(self) -> [Edge; 4] {
        [self.n, self.e, self.s, self.w]
    }

    pub fn get(self, side: Side) -> Edge {
        self.to_array()[side.index()]
    }

    /// The edges after turning the tile: what was on `side` is now on
    /// `side.rotated(rotation)`.
    pub fn rotated(self, rotation: Rotation) -> Edges {
        // Side `i` goes to `i + turns`: the array turned right (asked for
        // each turn of each tile a bot weighs).
        let mut edges = self.to_array();
        edges.rotate_right(usize::from(rotation.quarter_turns()));
        Edges::from_array(edges)
    }
}

/// Entry tile (starts with the Lantern), Stairs tile (the way down) or any other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TileKind {
    Entry,
    Stairs,
    #[default]
    Normal,
}

/// An Ecology Element printed on a tile, written in JSON as
/// `{"type": "monster", "count": 2}` or `{"type": "door"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Element {
    /// One or two Monster icons (draw that many Monster Cards).
    Monster {
        count: u8,
    },
    Feature,
    Door,
    Chest,
    Campfire,
    StairGuardian,
}

impl Element {
    /// "Monsters, Features, and Doors block access to Tile edges beyond
    /// them" until Encountered (or, for a Door, Unlocked).
    pub fn blocks_movement(self) -> bool {
        matches!(self, Element::Monster { .. } | Element::Feature | Element::Door)
    }

    pub fn name(self) -> &'static str {
        match self {
            Element::Monster { .. } => "Monster",
            Element::Feature => "Feature",
            Element::Door => "Door",
            Element::Chest => "Chest",
            Element::Campfire => "Campfire",
            Element::StairGuardian => "Stair Guardian",
        }
    }
}

/// One region of a tile: Habitat Boundaries split a tile into areas that
/// heroes cross separately.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Area {
    /// The open edges this area touches (sides as printed, before rotation).
    #[serde(default)]
    pub exits: Sides,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub elements: Vec<Element>,
    /// Ruins: joined to every other Secret Passage on the map.
    #[serde(default, skip_serializing_if = "is_false")]
    pub secret_passage: bool,
    /// Caverns: joined to the other Warp Portal.
    #[serde(default, skip_serializing_if = "is_false")]
    pub warp_portal: bool,
    /// Subterranean Architecture: the only kind of area whose exits may mix
    /// upper and lower edges.
    #[serde(default, skip_serializing_if = "is_false")]
    pub level_stair: bool,
    /// A room that lies beyond the Door of area `n` of the same tile: the
    /// Heroes come into it only through that area, once its Door is
    /// Unlocked ("Doors cannot be moved through until they are Unlocked").
    /// Written in JSON as `"beyond_door": 0`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beyond_door: Option<u8>,
}

impl Area {
    /// The rooms of a tile's `areas` that lie beyond the Door of area `index`.
    pub(crate) fn rooms_beyond(areas: &[Area], index: usize) -> impl Iterator<Item = &Area> {
        areas.iter().filter(move |a| a.beyond_door.map(usize::from) == Some(index))
    }

    /// How many ways lead out of this area: its exits, its Secret Passage or
    /// Warp Portal, the Door it lies beyond, and the rooms beyond its Door
    /// (`areas` are all the tile's areas, this one among them at `index`).
    fn ways(&self, index: usize, areas: &[Area]) -> usize {
        let rooms = Area::rooms_beyond(areas, index).count();
        self.exits.len()
            + usize::from(self.secret_passage)
            + usize::from(self.warp_portal)
            + usize::from(self.beyond_door.is_some())
            + rooms
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A Map Tile as printed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapTile {
    pub id: String,
    pub ecology: Ecology,
    #[serde(default)]
    pub kind: TileKind,
    pub edges: Edges,
    #[serde(default)]
    pub areas: Vec<Area>,
    /// Caverns: corners holding water, for the water-connected Rune Pattern.
    #[serde(default, skip_serializing_if = "Corners::is_empty")]
    pub water_corners: Corners,
    /// Caverns: first part of the boat-and-sword Rune Pattern.
    #[serde(default, skip_serializing_if = "is_false")]
    pub boat: bool,
    /// Caverns: last part of the boat-and-sword Rune Pattern.
    #[serde(default, skip_serializing_if = "is_false")]
    pub sword: bool,
    /// Sides carrying a rune Node.
    #[serde(default, skip_serializing_if = "Sides::is_empty")]
    pub nodes: Sides,
}

impl MapTile {
    /// The tile turned by `rotation` (clockwise), with sides, corners and
    /// nodes moved with it.
    pub fn rotated(&self, rotation: Rotation) -> MapTile {
        MapTile {
            id: self.id.clone(),
            ecology: self.ecology,
            kind: self.kind,
            edges: self.edges.rotated(rotation),
            areas: self.areas.iter().map(|a| Area { exits: a.exits.rotated(rotation), ..a.clone() }).collect(),
            water_corners: self.water_corners.rotated(rotation),
            boat: self.boat,
            sword: self.sword,
            nodes: self.nodes.rotated(rotation),
        }
    }

    /// The area whose exit is on `side` (as printed), if any.
    pub fn area_at(&self, side: Side) -> Option<usize> {
        self.areas.iter().position(|a| a.exits.contains(side))
    }

    pub fn has_secret_passage(&self) -> bool {
        self.areas.iter().any(|a| a.secret_passage)
    }

    pub fn has_warp_portal(&self) -> bool {
        self.areas.iter().any(|a| a.warp_portal)
    }

    /// Parses one tile from JSON and validates it.
    pub fn from_json(json: &str) -> Result<MapTile, TileError> {
        // Name the tile even when the rest of it does not parse.
        let value: serde_json::Value = serde_json::from_str(json)
            .map_err(|e| TileError { tile: String::from("?"), problem: TileProblem::Json(e.to_string()) })?;
        let id = value.get("id").and_then(|v| v.as_str()).unwrap_or("?").to_owned();
        let tile: MapTile = serde_json::from_value(value)
            .map_err(|e| TileError { tile: id, problem: TileProblem::Json(e.to_string()) })?;
        tile.validate()?;
        tile.check_doors()?;
        Ok(tile)
    }

    /// Checks that each Door guards something: the content's tiles must, but
    /// a saved game keeps the tiles it was played with (a save from before
    /// this check, holding the old `ruins-16`, still loads and plays on).
    pub fn check_doors(&self) -> Result<(), TileError> {
        let fail = |problem| Err(TileError { tile: self.id.clone(), problem });
        for (i, area) in self.areas.iter().enumerate() {
            if area.elements.contains(&Element::Door) {
                // "Doors cannot be moved through until they are Unlocked": a
                // Door stands between two ways, or it keeps nobody out.
                if area.ways(i, &self.areas) < 2 {
                    return fail(TileProblem::DoorBlocksNothing(i));
                }
                // Whatever shares the Door's area is reached without passing it.
                if area.elements.contains(&Element::Chest) {
                    return fail(TileProblem::ChestBesideDoor(i));
                }
            }
        }
        Ok(())
    }

    /// Checks the printed tile against the rules of its Ecology.
    pub fn validate(&self) -> Result<(), TileError> {
        let fail = |problem| Err(TileError { tile: self.id.clone(), problem });
        if self.id.trim().is_empty() {
            return fail(TileProblem::EmptyId);
        }
        let eco = self.ecology;
        for side in Side::ALL {
            let edge = self.edges.get(side);
            let allowed = match edge {
                Edge::Wall => true,
                Edge::Open => eco != Ecology::Subterranean,
                Edge::Water => eco == Ecology::Caverns,
                Edge::Upper | Edge::Lower => eco == Ecology::Subterranean,
            };
            if !allowed {
                return fail(TileProblem::EdgeNotInEcology { side, edge, ecology: eco });
            }
            let owners = self.areas.iter().filter(|a| a.exits.contains(side)).count();
            if edge.is_passable() && owners == 0 {
                return fail(TileProblem::EdgeInNoArea(side));
            }
            if owners > 1 {
                return fail(TileProblem::EdgeInTwoAreas(side));
            }
        }
        if self.kind == TileKind::Entry && self.areas.is_empty() {
            return fail(TileProblem::EntryWithoutArea);
        }
        let mut guardians = 0;
        for (i, area) in self.areas.iter().enumerate() {
            for side in area.exits.iter() {
                let edge = self.edges.get(side);
                if !edge.is_passable() {
                    return fail(TileProblem::ExitOnClosedEdge { area: i, side, edge });
                }
            }
            if area.exits.is_empty() && !area.secret_passage && !area.warp_portal && area.beyond_door.is_none() {
                return fail(TileProblem::SealedArea(i));
            }
            if let Some(door) = area.beyond_door {
                let before = self.areas.get(usize::from(door));
                if usize::from(door) == i || !before.is_some_and(|a| a.elements.contains(&Element::Door)) {
                    return fail(TileProblem::NoDoorBefore { area: i, door });
                }
            }
            let upper = area.exits.iter().any(|s| self.edges.get(s) == Edge::Upper);
            let lower = area.exits.iter().any(|s| self.edges.get(s) == Edge::Lower);
            if upper && lower && !area.level_stair {
                return fail(TileProblem::LevelsMixedWithoutStair(i));
            }
            for (flag, name, home) in [
                (area.secret_passage, Marking::SecretPassage, Ecology::Ruins),
                (area.warp_portal, Marking::WarpPortal, Ecology::Caverns),
                (area.level_stair, Marking::LevelStair, Ecology::Subterranean),
            ] {
                if flag && eco != home {
                    return fail(TileProblem::FeatureNotInEcology { what: name, ecology: eco });
                }
            }
            for &element in &area.elements {
                match element {
                    Element::Monster { count } if !(1..=2).contains(&count) => {
                        return fail(TileProblem::MonsterCount { area: i, count });
                    }
                    Element::StairGuardian => guardians += 1,
                    _ => {}
                }
            }
            if area.elements.len() > usize::from(u8::MAX) {
                return fail(TileProblem::TooManyElements(i));
            }
        }
        if self.areas.len() > usize::from(u8::MAX) {
            return fail(TileProblem::TooManyAreas);
        }
        for (flag, name) in [
            (!self.water_corners.is_empty(), Marking::WaterCorners),
            (self.boat, Marking::Boat),
            (self.sword, Marking::Sword),
        ] {
            if flag && eco != Ecology::Caverns {
                return fail(TileProblem::FeatureNotInEcology { what: name, ecology: eco });
            }
        }
        match (self.kind, guardians) {
            (TileKind::Stairs, 1) | (TileKind::Entry | TileKind::Normal, 0) => Ok(()),
            (TileKind::Stairs, _) => fail(TileProblem::StairsNeedOneGuardian(guardians)),
            _ => fail(TileProblem::GuardianOffStairs),
        }
    }
}

/// Why a tile is malformed, with the tile's id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileError {
    pub tile: String,
    pub problem: TileProblem,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TileProblem {
    Json(String),
    EmptyId,
    EdgeNotInEcology { side: Side, edge: Edge, ecology: Ecology },
    EdgeInNoArea(Side),
    EdgeInTwoAreas(Side),
    ExitOnClosedEdge { area: usize, side: Side, edge: Edge },
    SealedArea(usize),
    LevelsMixedWithoutStair(usize),
    FeatureNotInEcology { what: Marking, ecology: Ecology },
    MonsterCount { area: usize, count: u8 },
    EntryWithoutArea,
    StairsNeedOneGuardian(usize),
    GuardianOffStairs,
    TooManyAreas,
    TooManyElements(usize),
    // Area `area` lies beyond the Door of area `door`, which has none (or is itself).
    NoDoorBefore { area: usize, door: u8 },
    // A Door in an area with a single way out: it blocks nothing.
    DoorBlocksNothing(usize),
    // A Chest in a Door's area is reached without passing the Door: a Chest
    // the Door guards lies in a room beyond it.
    ChestBesideDoor(usize),
}

/// An Ecology-specific marking on a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Marking {
    SecretPassage,
    WarpPortal,
    LevelStair,
    WaterCorners,
    Boat,
    Sword,
}

impl Marking {
    pub fn name(self) -> &'static str {
        match self {
            Marking::SecretPassage => "a Secret Passage",
            Marking::WarpPortal => "a Warp Portal",
            Marking::LevelStair => "a Level Stair",
            Marking::WaterCorners => "water corners",
            Marking::Boat => "a Boat icon",
            Marking::Sword => "a Sword icon",
        }
    }
}

impl fmt::Display for TileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "map tile \"{}\": ", self.tile)?;
        match &self.problem {
            TileProblem::Json(e) => write!(f, "bad JSON: {e}"),
            TileProblem::EmptyId => write!(f, "the id is empty"),
            TileProblem::EdgeNotInEcology { side, edge, ecology } => {
                write!(f, "edge {side:?} is {edge:?}, which the {} do not have", ecology.name())
            }
            TileProblem::EdgeInNoArea(side) => write!(f, "open edge {side:?} belongs to no area"),
            TileProblem::EdgeInTwoAreas(side) => {
                write!(f, "edge {side:?} is an exit of two areas")
            }
            TileProblem::ExitOnClosedEdge { area, side, edge } => {
                write!(f, "area {area} has an exit on {side:?}, which is a {edge:?} edge")
            }
            TileProblem::SealedArea(area) => {
                write!(f, "area {area} has no exit, Secret Passage or Warp Portal")
            }
            TileProblem::LevelsMixedWithoutStair(area) => {
                write!(f, "area {area} has upper and lower exits but no Level Stair")
            }
            TileProblem::FeatureNotInEcology { what, ecology } => {
                write!(f, "has {}, which the {} do not have", what.name(), ecology.name())
            }
            TileProblem::MonsterCount { area, count } => {
                write!(f, "area {area} has a Monster with count {count}; it must be 1 or 2")
            }
            TileProblem::EntryWithoutArea => {
                write!(f, "the Entry tile needs an area for the Lantern")
            }
            TileProblem::StairsNeedOneGuardian(n) => {
                write!(f, "the Stairs tile needs exactly one Stair Guardian, it has {n}")
            }
            TileProblem::GuardianOffStairs => {
                write!(f, "a Stair Guardian on a tile that is not the Stairs tile")
            }
            TileProblem::NoDoorBefore { area, door } => {
                write!(f, "area {area} lies beyond the Door of area {door}, which holds no Door")
            }
            TileProblem::DoorBlocksNothing(area) => write!(
                f,
                "the Door in area {area} blocks nothing: its area has one way out; put what it guards in an area \
                 beyond it (\"beyond_door\")"
            ),
            TileProblem::ChestBesideDoor(area) => write!(
                f,
                "area {area} holds a Door and a Chest, so the Chest is opened without Unlocking the Door; put the \
                 Chest in an area beyond it (\"beyond_door\")"
            ),
            TileProblem::TooManyAreas => write!(f, "more than 255 areas"),
            TileProblem::TooManyElements(area) => {
                write!(f, "area {area} has more than 255 elements")
            }
        }
    }
}

impl std::error::Error for TileError {}
