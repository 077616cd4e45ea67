//! The map with one more tile, worked out without placing it ([`Preview`]),
//! and how many places tile shapes have there ([`PlaceCounts`]): the careful
//! bot's questions about the places for the tile in hand. They read the
//! map's movement graph, so they live beside it.

use std::sync::Arc;

use super::map::{
    Cell, ElementState, Footprint, Graph, Map, NO_AREA, NONE, PlacedTile, Placement, PlacementError, Shape, Spot,
    TileShape, edge_bit, guarded, step,
};
use super::map_tile::{Area, Edge, Element, MapTile, Rotation, Side};

/// One area of the tile a [`Preview`] places.
#[derive(Clone, Copy, Debug)]
struct NewNode {
    links: [u32; 4],
    secret_passage: bool,
    warp_portal: bool,
    /// As [`Node::door`](super::map::Node::door), numbered as the preview numbers the new tile's areas.
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
    /// How many empty cells would touch the map ([`Frontier::cells`](super::map::Frontier::cells)).
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
        self.shapes.extend(shapes.into_iter().map(|s| (s.ecology == map.ecology()).then_some(s.shape)));
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

    /// The places of shape `k` on the map ([`Frontier::placements_of`](super::map::Frontier::placements_of), counted).
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
