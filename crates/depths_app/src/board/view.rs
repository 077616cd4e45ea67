//! What the board shows, as plain data (no Bevy types), built from the rules
//! core's map: every placed tile already turned onto the table, its edges,
//! areas with their elements and Encounter / Key tokens, and which areas the
//! Heroes can reach. The drawing code in [`crate::board::art`] reads only this.

use depths_rules::map::{self as rules_map, AreaRef, Element as RulesElement, ElementState, Map, MapTile, Placement};

/// A cell of the square grid. `x` grows to the east, `y` to the north.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub x: i32,
    pub y: i32,
}

impl Cell {
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }

    /// The neighbouring cell across `side`.
    pub fn step(self, side: Side) -> Self {
        let (dx, dy) = side.offset();
        Self::new(self.x + dx, self.y + dy)
    }
}

impl From<(i32, i32)> for Cell {
    fn from((x, y): (i32, i32)) -> Self {
        Self::new(x, y)
    }
}

impl From<Cell> for (i32, i32) {
    fn from(c: Cell) -> Self {
        (c.x, c.y)
    }
}

/// One of a square tile's four sides: the rules' own sides (`y` grows northward).
pub use depths_rules::map::Side;

/// What a tile edge is made of: the rules' own edges.
pub use depths_rules::map::Edge;

/// An Ecology Element printed in an area of a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Element {
    /// A monster symbol: one or two monsters.
    Monster(u8),
    Feature,
    Door,
    Chest,
    Campfire,
    /// The Stair Guardian, on the Stairs tile.
    Stairs,
}

impl Element {
    pub fn from_rules(e: RulesElement) -> Element {
        match e {
            RulesElement::Monster { count } => Element::Monster(count),
            RulesElement::Feature => Element::Feature,
            RulesElement::Door => Element::Door,
            RulesElement::Chest => Element::Chest,
            RulesElement::Campfire => Element::Campfire,
            RulesElement::StairGuardian => Element::Stairs,
        }
    }
}

/// The token on an element: none, a gold slash, a red X, or a Key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Token {
    #[default]
    None,
    /// Encountered (gold slash).
    Encountered,
    /// Monster Defeated (red X).
    Defeated,
    /// Door Unlocked (Key token).
    Key,
}

impl Token {
    fn from_state(s: ElementState) -> Token {
        match s {
            ElementState::Present => Token::None,
            ElementState::Encountered => Token::Encountered,
            ElementState::Defeated => Token::Defeated,
            ElementState::Unlocked => Token::Key,
        }
    }
}

/// A separate region of a tile; habitat boundaries split a tile into areas.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Area {
    /// The open edges that lead out of this area (on the table, after rotation).
    pub exits: Vec<Side>,
    pub elements: Vec<(Element, Token)>,
    pub secret_passage: bool,
    pub warp_portal: bool,
    pub level_stair: bool,
    /// The Heroes can reach it from the Lantern.
    pub accessible: bool,
}

/// A placed map tile, as it lies on the table.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    pub id: String,
    pub cell: Cell,
    /// Indexed N, E, S, W; see [`Tile::edge`].
    pub edges: [Edge; 4],
    pub areas: Vec<Area>,
    /// Rune nodes, printed on edges.
    pub nodes: Vec<Side>,
    /// Caverns water corners, as indices NE, SE, SW, NW.
    pub water_corners: Vec<usize>,
    pub boat: bool,
    pub sword: bool,
    pub entry: bool,
}

impl Tile {
    pub fn edge(&self, side: Side) -> Edge {
        self.edges[side.index()]
    }

    /// A printed tile turned by `rotation` and standing at `cell`, with no tokens
    /// (the tile in hand, or a ghost on the board).
    pub fn from_printed(tile: &MapTile, placement: Placement) -> Tile {
        let turned = tile.rotated(placement.rotation);
        Tile {
            id: tile.id.clone(),
            cell: placement.cell.into(),
            edges: rules_map::Side::ALL.map(|s| turned.edges.get(s)),
            areas: turned
                .areas
                .iter()
                .map(|a| Area {
                    exits: a.exits.iter().collect(),
                    elements: a.elements.iter().map(|e| (Element::from_rules(*e), Token::None)).collect(),
                    secret_passage: a.secret_passage,
                    warp_portal: a.warp_portal,
                    level_stair: a.level_stair,
                    accessible: false,
                })
                .collect(),
            nodes: turned.nodes.iter().collect(),
            water_corners: turned.water_corners.iter().map(|c| c.index()).collect(),
            boat: turned.boat,
            sword: turned.sword,
            entry: tile.kind == rules_map::TileKind::Entry,
        }
    }
}

/// Where the Lantern token stands: a tile and one of its areas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LanternAt {
    pub cell: Cell,
    pub area: usize,
}

/// The whole board as drawn.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BoardView {
    /// Varies the stone of the floors between games.
    pub seed: u64,
    pub tiles: Vec<Tile>,
    pub lantern: LanternAt,
}

impl BoardView {
    /// The rules map as the table shows it.
    pub fn from_map(map: &Map, seed: u64) -> BoardView {
        let accessible: Vec<AreaRef> = map.accessible_areas();
        let tiles = map
            .tiles()
            .iter()
            .map(|placed| {
                let mut tile =
                    Tile::from_printed(&placed.tile, Placement { cell: placed.cell, rotation: placed.rotation });
                for (a, area) in tile.areas.iter_mut().enumerate() {
                    area.accessible = accessible.contains(&AreaRef { cell: placed.cell, area: a as u8 });
                    for (e, (_, token)) in area.elements.iter_mut().enumerate() {
                        *token = Token::from_state(placed.states[a][e]);
                    }
                }
                tile
            })
            .collect();
        let l = map.lantern();
        BoardView { seed, tiles, lantern: LanternAt { cell: l.cell.into(), area: usize::from(l.area) } }
    }

    pub fn tile_at(&self, cell: Cell) -> Option<&Tile> {
        self.tiles.iter().find(|t| t.cell == cell)
    }
}

/// A tiny deterministic generator (SplitMix64), enough for demo variety without
/// pulling a RNG crate into the client.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0.0..1.0`.
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use depths_rules::{Content, Game, GameOptions};

    #[test]
    fn the_entry_tile_is_drawn_with_the_lantern_and_reachable_areas() {
        let game = Game::new(GameOptions::standard(&["bren", "sil"], 1), Content::builtin().unwrap()).unwrap();
        let map = &game.adventure().unwrap().ecology.map;
        let view = BoardView::from_map(map, 1);
        assert_eq!(view.tiles.len(), 1);
        assert_eq!(view.tiles[0].cell, Cell::new(0, 0));
        assert_eq!(view.lantern, LanternAt { cell: Cell::new(0, 0), area: 0 });
        assert!(view.tiles[0].areas[0].accessible);
        for side in Side::ALL {
            let passable = !matches!(view.tiles[0].edge(side), Edge::Wall | Edge::Water);
            let owned = view.tiles[0].areas.iter().any(|a| a.exits.contains(&side));
            assert_eq!(passable, owned, "{side:?}");
        }
    }
}
