//! A tiny stand-in for the rules core's tile model, so the client can draw a board
//! before `depths_rules` lands.
//!
//! // replaced by depths_rules::map once merged
//!
//! Everything here is plain data (no Bevy types): the drawing code in
//! [`crate::board_art`] only reads edges (wall / open), areas with their exits and
//! elements, and rune nodes, which is what the real map model will expose too.

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
    pub const fn step(self, side: Side) -> Self {
        let (dx, dy) = side.offset();
        Self::new(self.x + dx, self.y + dy)
    }
}

/// One of a square tile's four sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    North,
    East,
    South,
    West,
}

impl Side {
    pub const ALL: [Side; 4] = [Side::North, Side::East, Side::South, Side::West];

    /// Unit step on the grid (north is +y).
    pub const fn offset(self) -> (i32, i32) {
        match self {
            Side::North => (0, 1),
            Side::East => (1, 0),
            Side::South => (0, -1),
            Side::West => (-1, 0),
        }
    }

    pub const fn opposite(self) -> Side {
        match self {
            Side::North => Side::South,
            Side::East => Side::West,
            Side::South => Side::North,
            Side::West => Side::East,
        }
    }

    const fn index(self) -> usize {
        match self {
            Side::North => 0,
            Side::East => 1,
            Side::South => 2,
            Side::West => 3,
        }
    }
}

/// What a tile edge is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    Wall,
    Open,
}

/// An Ecology Element printed in an area of a tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Element {
    /// A monster symbol: one or two monsters.
    Monster(u8),
    Feature,
    Door,
    Chest,
    Campfire,
    Stairs,
}

/// A separate region of a tile; habitat boundaries split a tile into areas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Area {
    /// The open edges that lead out of this area.
    pub exits: Vec<Side>,
    pub elements: Vec<Element>,
}

/// A placed map tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tile {
    pub cell: Cell,
    /// Indexed N, E, S, W; see [`Tile::edge`].
    pub edges: [Edge; 4],
    pub areas: Vec<Area>,
    /// Rune nodes, printed on edges.
    pub nodes: Vec<Side>,
}

impl Tile {
    pub fn edge(&self, side: Side) -> Edge {
        self.edges[side.index()]
    }
}

/// Where the Lantern token stands: a tile and one of its areas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LanternAt {
    pub cell: Cell,
    pub area: usize,
}

/// A small explored dungeon to show on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DemoMap {
    pub seed: u64,
    pub tiles: Vec<Tile>,
    pub lantern: LanternAt,
}

/// The cells the demo board always covers, whatever the seed.
pub const DEMO_CELLS: [Cell; 6] = [
    Cell::new(0, 0),
    Cell::new(0, 1),
    Cell::new(-1, 0),
    Cell::new(1, 0),
    Cell::new(2, 0),
    Cell::new(1, -1),
];

impl DemoMap {
    /// The demo dungeon. Its shape is fixed; the seed shuffles which elements lie
    /// where in the rooms beyond the entrance (and the art's stone pattern).
    pub fn new(seed: u64) -> Self {
        use Edge::{Open as O, Wall as W};
        use Element::*;
        use Side::*;

        let mut rng = SplitMix64(seed);
        // Elements dealt into the rooms beyond the entrance, in a seeded order.
        let mut deal = vec![Feature, Monster(1), Door, Monster(2), Campfire];
        rng.shuffle(&mut deal);

        let area = |exits: &[Side], elements: Vec<Element>| Area {
            exits: exits.to_vec(),
            elements,
        };
        let tiles = vec![
            // The entrance: stairs down from the surface, where the Lantern starts.
            Tile {
                cell: DEMO_CELLS[0],
                edges: [O, O, W, O],
                areas: vec![area(&[North, East, West], vec![Stairs])],
                nodes: vec![South],
            },
            // A dead end to the north: a chest guarded by a monster.
            Tile {
                cell: DEMO_CELLS[1],
                edges: [W, W, O, W],
                areas: vec![area(&[South], vec![Monster(1), Chest])],
                nodes: vec![East],
            },
            // West: a tile split by a habitat boundary into two areas.
            Tile {
                cell: DEMO_CELLS[2],
                edges: [W, O, O, W],
                areas: vec![area(&[East], vec![deal[0]]), area(&[South], vec![deal[1]])],
                nodes: vec![North],
            },
            // East: a corridor crossing.
            Tile {
                cell: DEMO_CELLS[3],
                edges: [W, O, O, O],
                areas: vec![area(&[East, South, West], vec![deal[2]])],
                nodes: vec![],
            },
            // Far east: a quiet corner.
            Tile {
                cell: DEMO_CELLS[4],
                edges: [O, W, W, O],
                areas: vec![area(&[North, West], vec![deal[3]])],
                nodes: vec![South],
            },
            // South-east: the way on.
            Tile {
                cell: DEMO_CELLS[5],
                edges: [O, W, O, W],
                areas: vec![area(&[North, South], vec![deal[4], Chest])],
                nodes: vec![],
            },
        ];
        Self {
            seed,
            tiles,
            lantern: LanternAt {
                cell: DEMO_CELLS[0],
                area: 0,
            },
        }
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

    #[test]
    fn touching_edges_match() {
        for seed in 0..20 {
            let map = DemoMap::new(seed);
            for tile in &map.tiles {
                for side in Side::ALL {
                    if let Some(other) = map.tile_at(tile.cell.step(side)) {
                        assert_eq!(
                            tile.edge(side),
                            other.edge(side.opposite()),
                            "{:?} {side:?} against {:?}",
                            tile.cell,
                            other.cell
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn every_open_edge_belongs_to_exactly_one_area() {
        let map = DemoMap::new(7);
        for tile in &map.tiles {
            for side in Side::ALL {
                let owners = tile
                    .areas
                    .iter()
                    .filter(|a| a.exits.contains(&side))
                    .count();
                let expected = usize::from(tile.edge(side) == Edge::Open);
                assert_eq!(owners, expected, "{:?} {side:?}", tile.cell);
            }
        }
    }

    #[test]
    fn seed_changes_contents_not_shape() {
        let a = DemoMap::new(1);
        let b = DemoMap::new(2);
        let cells = |m: &DemoMap| m.tiles.iter().map(|t| t.cell).collect::<Vec<_>>();
        assert_eq!(cells(&a), DEMO_CELLS.to_vec());
        assert_eq!(cells(&a), cells(&b));
        assert_eq!(DemoMap::new(1), a, "same seed, same map");
        let any_diff = (0..10).any(|s| DemoMap::new(s).tiles != a.tiles);
        assert!(any_diff, "the seed should vary the contents");
    }
}
