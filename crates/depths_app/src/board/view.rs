//! What the board shows, as plain data (no Bevy types), built from the rules
//! core's map and in its types: every placed tile already turned onto the
//! table, the Encounter / Key tokens on its elements, and which areas the
//! Heroes can reach. The drawing code in [`crate::board::art`] reads only this.

use depths_rules::map::{
    self as rules_map, Area, AreaRef, ElementState, Map, MapTile, Passage, Placement, RuneMatch, UsedRunes,
};

/// A grid cell, `(x, y)` with `y` growing northward: the rules' own.
pub use depths_rules::map::Cell;

/// One of a square tile's four sides: the rules' own sides (`y` grows northward).
pub use depths_rules::map::Side;

/// What a tile edge is made of: the rules' own edges.
pub use depths_rules::map::Edge;

/// An Ecology Element printed in an area of a tile: the rules' own.
pub use depths_rules::map::Element;

/// The token on an element: none, a gold slash, a red X, or a Key. The
/// table's picture of the rules' [`ElementState`].
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

/// A map tile as it lies on the table: the rules' printed tile turned as
/// placed (edges, areas, nodes and water already on the table's sides), and
/// what the table adds: the tokens on its elements and which areas the
/// Heroes can reach.
#[derive(Clone, Debug, PartialEq)]
pub struct Tile {
    pub cell: Cell,
    pub turned: MapTile,
    /// Per area, per element (as in `turned.areas`): its token.
    pub tokens: Vec<Vec<Token>>,
    /// Per area: the Heroes can reach it from the Lantern.
    pub accessible: Vec<bool>,
    /// Its Nodes that a Legendary Location used or that make one the Heroes
    /// have Discovered.
    pub runes: Vec<(Side, RuneMark)>,
}

/// What lies on a rune Node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuneMark {
    /// "Place Encounter Tokens, gold 'slash' side up, on the Nodes used":
    /// a Legendary Location was Encountered with it.
    Used,
    /// Part of a Legendary Location the Heroes have Discovered and may
    /// Encounter now.
    Discovered,
}

impl Tile {
    pub fn edge(&self, side: Side) -> Edge {
        self.turned.edges.get(side)
    }

    pub fn areas(&self) -> &[Area] {
        &self.turned.areas
    }

    /// The element `element` of area `area`, with its token.
    pub fn element(&self, area: usize, element: usize) -> Option<(Element, Token)> {
        let e = *self.turned.areas.get(area)?.elements.get(element)?;
        Some((e, self.tokens.get(area).and_then(|t| t.get(element)).copied().unwrap_or_default()))
    }

    pub fn is_entry(&self) -> bool {
        self.turned.kind == rules_map::TileKind::Entry
    }

    /// A printed tile turned by `rotation` and standing at `cell`, with no tokens
    /// (the tile in hand, or a ghost on the board).
    pub fn from_printed(tile: &MapTile, placement: Placement) -> Tile {
        let turned = tile.rotated(placement.rotation);
        let tokens = turned.areas.iter().map(|a| vec![Token::None; a.elements.len()]).collect();
        let accessible = vec![false; turned.areas.len()];
        Tile { cell: placement.cell, turned, tokens, accessible, runes: Vec::new() }
    }
}

/// Where the Lantern token stands: a tile and one of its areas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LanternAt {
    pub cell: Cell,
    pub area: usize,
}

/// The whole board as drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardView {
    /// Varies the stone of the floors between games.
    pub seed: u64,
    pub tiles: Vec<Tile>,
    pub lantern: LanternAt,
    /// The areas the Heroes reach only through a Secret Passage or Warp
    /// Portal, with the first one the way takes.
    pub through: Vec<(LanternAt, Passage)>,
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
                for (a, reach) in tile.accessible.iter_mut().enumerate() {
                    *reach = accessible.contains(&AreaRef { cell: placed.cell, area: a as u8 });
                }
                for (a, tokens) in tile.tokens.iter_mut().enumerate() {
                    for (e, token) in tokens.iter_mut().enumerate() {
                        *token = Token::from_state(placed.states[a][e]);
                    }
                }
                tile
            })
            .collect();
        let at = |a: AreaRef| LanternAt { cell: a.cell, area: usize::from(a.area) };
        let through = accessible.iter().filter_map(|&a| map.passage_on_the_way(a).map(|p| (at(a), p))).collect();
        BoardView { seed, tiles, lantern: at(map.lantern()), through }
    }

    /// Marks the Nodes Legendary Locations used (`used`) and those of the
    /// ones Discovered now (`discovered`); a used Node stays used.
    pub fn mark_runes(&mut self, used: &UsedRunes, discovered: &[RuneMatch]) {
        let found = discovered.iter().flat_map(|m| &m.nodes).map(|n| (n, RuneMark::Discovered));
        for (node, mark) in used.nodes.iter().map(|n| (n, RuneMark::Used)).chain(found) {
            let Some(tile) = self.tiles.iter_mut().find(|t| t.cell == node.cell) else { continue };
            if !tile.runes.iter().any(|(side, _)| *side == node.side) {
                tile.runes.push((node.side, mark));
            }
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
    use depths_rules::{Content, Game, GameOptions};

    #[test]
    fn the_entry_tile_is_drawn_with_the_lantern_and_reachable_areas() {
        let game = Game::new(GameOptions::standard(&["bren", "sil"], 1), Content::builtin().unwrap()).unwrap();
        let map = &game.adventure().unwrap().ecology.map;
        let view = BoardView::from_map(map, 1);
        assert_eq!(view.tiles.len(), 1);
        assert_eq!(view.tiles[0].cell, (0, 0));
        assert_eq!(view.lantern, LanternAt { cell: (0, 0), area: 0 });
        assert!(view.tiles[0].accessible[0]);
        for side in Side::ALL {
            let passable = !matches!(view.tiles[0].edge(side), Edge::Wall | Edge::Water);
            let owned = view.tiles[0].areas().iter().any(|a| a.exits.contains(side));
            assert_eq!(passable, owned, "{side:?}");
        }
    }

    /// "Place Encounter Tokens, gold 'slash' side up, on the Nodes used":
    /// a used Node shows its token, a Discovered one its glow, and one
    /// both used and in a listed match stays used; Nodes of no tile drawn
    /// are left alone.
    #[test]
    fn used_and_discovered_nodes_are_marked_on_their_tiles() {
        use depths_rules::map::{NodeRef, RuneMatch, Symmetry, UsedRunes};
        let game = Game::new(GameOptions::standard(&["bren"], 1), Content::builtin().unwrap()).unwrap();
        let mut view = BoardView::from_map(&game.adventure().unwrap().ecology.map, 1);
        let node = |side| NodeRef { cell: (0, 0), side };
        let used = UsedRunes { nodes: [node(Side::N)].into(), patterns: Default::default() };
        let found = RuneMatch {
            pattern: "p".into(),
            symmetry: Symmetry::all().next().unwrap(),
            cells: vec![(0, 0)],
            nodes: vec![node(Side::N), node(Side::E), NodeRef { cell: (7, 7), side: Side::S }],
        };
        view.mark_runes(&used, &[found]);
        assert_eq!(view.tiles[0].runes, vec![(Side::N, RuneMark::Used), (Side::E, RuneMark::Discovered)]);
    }
}
