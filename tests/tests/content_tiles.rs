//! The shipped Map Tiles and Rune Patterns: counts, Ecology-specific
//! markings, buildable patterns, and seeded explorations that measure how
//! often a careful party dead-ends, reaches the Stairs and finds each
//! Legendary Location.
//!
//! Run with `--nocapture` to see the measured rates.

use std::collections::BTreeSet;

use depths_rules::map::rune_pattern::{PatternLayout, pattern_buildable, pattern_layout};
use depths_rules::map::*;
use depths_rules::{Content, Ecology, GameRng};

/// The shipped content.
fn content() -> Content {
    Content::builtin().unwrap_or_else(|e| panic!("{e}"))
}

fn elements(tiles: &[MapTile]) -> impl Iterator<Item = Element> + '_ {
    tiles.iter().flat_map(|t| t.areas.iter().flat_map(|a| a.elements.iter().copied()))
}

fn count(tiles: &[MapTile], f: impl Fn(&MapTile) -> bool) -> usize {
    tiles.iter().filter(|t| f(t)).count()
}

// ---------------------------------------------------------------- counts

#[test]
fn tile_and_pattern_counts_match_the_components() {
    let content = content();
    let ours = ["map tiles", "rune patterns", "chests", "campfires"];
    let problems: Vec<String> =
        content.count_problems().into_iter().filter(|p| ours.iter().any(|w| p.contains(w))).collect();
    assert!(problems.is_empty(), "{problems:#?}");
    for eco in Ecology::ALL {
        let c = content.ecology(eco);
        let tiles = &c.tiles;
        assert_eq!(tiles.len(), 24, "{eco:?}");
        assert_eq!(count(tiles, |t| t.kind == TileKind::Entry), 1, "{eco:?} entry");
        assert_eq!(count(tiles, |t| t.kind == TileKind::Stairs), 1, "{eco:?} stairs");
        assert_eq!(elements(tiles).filter(|e| *e == Element::Chest).count(), 2, "{eco:?} chests");
        assert_eq!(elements(tiles).filter(|e| *e == Element::Campfire).count(), 1, "{eco:?} campfire");
        assert_eq!(elements(tiles).filter(|e| *e == Element::StairGuardian).count(), 1, "{eco:?} guardian");
        for (i, t) in tiles.iter().enumerate() {
            let want = format!("{}-{:02}", ["ruins", "caverns", "subterranean"][eco as usize], i + 1);
            assert_eq!(t.id, want);
            t.validate().and_then(|()| t.check_doors()).unwrap_or_else(|e| panic!("{e}"));
        }
        let ids: Vec<&str> = c.patterns.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["1", "2", "3", "4"], "{eco:?} pattern ids");
    }
}

/// A good spread of what a tile can hold, in every Ecology.
#[test]
fn every_ecology_has_a_spread_of_elements_and_shapes() {
    let content = content();
    for eco in Ecology::ALL {
        let tiles = &content.ecology(eco).tiles;
        let monsters = |n| elements(tiles).filter(|e| *e == Element::Monster { count: n }).count();
        assert!(monsters(1) >= 4 && monsters(2) >= 2, "{eco:?} single and double Monsters");
        assert!(elements(tiles).filter(|e| *e == Element::Feature).count() >= 4, "{eco:?} Features");
        assert!(elements(tiles).filter(|e| *e == Element::Door).count() >= 2, "{eco:?} Doors");
        assert!(count(tiles, |t| t.areas.len() == 2) >= 4, "{eco:?} Habitat Boundaries");
        assert!(count(tiles, |t| !t.nodes.is_empty()) >= 12, "{eco:?} tiles with Nodes");
        let exits = |t: &MapTile| Side::ALL.iter().filter(|&&s| t.edges.get(s).is_passable()).count();
        assert!(count(tiles, |t| exits(t) == 1) >= 2, "{eco:?} dead-end rooms");
        assert!(count(tiles, |t| exits(t) == 2) >= 4, "{eco:?} corridors and bends");
        assert!(count(tiles, |t| exits(t) >= 3) >= 8, "{eco:?} junctions");
    }
}

#[test]
fn ecology_markings() {
    let content = content();
    let ruins = &content.ecology(Ecology::Ruins).tiles;
    assert!(count(ruins, MapTile::has_secret_passage) >= 4, "Ruins Secret Passages");

    let caverns = &content.ecology(Ecology::Caverns).tiles;
    assert_eq!(count(caverns, |t| t.boat), 1, "one Boat");
    assert_eq!(count(caverns, |t| t.sword), 1, "one Sword");
    assert_eq!(count(caverns, MapTile::has_warp_portal), 2, "two Warp Portals");
    assert_eq!(caverns.iter().flat_map(|t| &t.areas).filter(|a| a.warp_portal).count(), 2);
    assert!(count(caverns, |t| Side::ALL.iter().any(|&s| t.edges.get(s) == Edge::Water)) >= 8, "water edges");
    for t in caverns {
        for s in Side::ALL.into_iter().filter(|&s| t.edges.get(s) == Edge::Water) {
            assert!(Corner::ends_of(s).iter().all(|&c| t.water_corners.contains(c)), "{}: water edge {s:?}", t.id);
        }
    }
    assert!(count(caverns, |t| !t.water_corners.is_empty()) >= 10, "water corners");

    let sub = &content.ecology(Ecology::Subterranean).tiles;
    let stairs = |t: &MapTile| t.areas.iter().any(|a| a.level_stair);
    assert!(count(sub, stairs) >= 6, "Level Stairs");
    let has = |t: &MapTile, e| Side::ALL.iter().any(|&s| t.edges.get(s) == e);
    assert!(count(sub, |t| has(t, Edge::Upper) && has(t, Edge::Lower)) >= 12, "tiles on both levels");
    assert!(has(&sub[0], Edge::Upper) && has(&sub[0], Edge::Lower) && stairs(&sub[0]), "the Entry joins both levels");
    for eco in [Ecology::Ruins, Ecology::Caverns, Ecology::Subterranean] {
        for t in &content.ecology(eco).tiles {
            for a in &t.areas {
                assert_eq!(a.secret_passage, a.secret_passage && eco == Ecology::Ruins);
                assert_eq!(a.warp_portal, a.warp_portal && eco == Ecology::Caverns);
                assert_eq!(a.level_stair, a.level_stair && eco == Ecology::Subterranean);
            }
        }
    }
}

// ---------------------------------------------------------------- doors

/// An Entry tile of `eco` with all four edges `edge`.
fn open_entry(eco: Ecology, edge: Edge) -> MapTile {
    let edges = Edges::from_array([edge; 4]);
    let area = Area { exits: Sides::of(&Side::ALL), ..Area::default() };
    MapTile {
        id: format!("{}-open-entry", eco.name()),
        ecology: eco,
        kind: TileKind::Entry,
        edges,
        areas: vec![area],
        water_corners: Corners::NONE,
        boat: false,
        sword: false,
        nodes: Sides::NONE,
    }
}

/// How many places the open rooms of `eco` have on `map`: what the Heroes
/// can build on from where they can go.
fn open_room_places(eco: Ecology, map: &Map) -> usize {
    [Edge::Open, Edge::Upper, Edge::Lower]
        .into_iter()
        .map(|edge| MapTile {
            id: format!("{}-open-room", eco.name()),
            kind: TileKind::Normal,
            ..open_entry(eco, edge)
        })
        .filter(|t| t.validate().is_ok())
        .map(|t| map.legal_placements(&t).len())
        .sum()
}

/// "3. Doors — Blocks Movement until Unlocked … Doors cannot be moved through
/// until they are Unlocked", and "Monsters, Features, and Doors block access
/// to Tile edges beyond them". Every shipped Door, on a map where the Heroes
/// reach it, keeps them from something until it is Unlocked: nothing of its
/// tile beyond it (a Chest above all) can be Encountered before, and
/// Unlocking it opens new ground or new elements.
#[test]
fn every_shipped_door_blocks_movement_until_unlocked() {
    let content = content();
    let mut doors = 0;
    for eco in Ecology::ALL {
        for tile in &content.ecology(eco).tiles {
            let Some((area, element)) = tile.areas.iter().enumerate().find_map(|(a, area)| {
                area.elements.iter().position(|e| *e == Element::Door).map(|e| (a as u8, e as u8))
            }) else {
                continue;
            };
            doors += 1;
            let mut placed = None;
            for edge in [Edge::Open, Edge::Upper, Edge::Lower] {
                let entry = open_entry(eco, edge);
                if entry.validate().is_err() {
                    continue;
                }
                let mut map = Map::new(entry).unwrap_or_else(|e| panic!("{e}"));
                if let Some(&at) = map.legal_placements(tile).first() {
                    map.place(tile, at).unwrap_or_else(|e| panic!("{}: {e}", tile.id));
                    placed = Some((map, at.cell));
                    break;
                }
            }
            let (mut map, cell) = placed.unwrap_or_else(|| panic!("{}: no place next to an open Entry", tile.id));
            let door = ElementRef { cell, area, element };
            let before = map.reachable_unencountered_elements();
            assert!(before.contains(&door), "{}: the Heroes reach the Door", tile.id);
            let of_tile = |m: &Map| -> Vec<Element> {
                m.reachable_unencountered_elements()
                    .into_iter()
                    .filter(|e| e.cell == cell && *e != door)
                    .filter_map(|e| m.element(e).map(|(k, _)| k))
                    .collect()
            };
            assert!(!of_tile(&map).contains(&Element::Chest), "{}: a Chest is opened without the Door", tile.id);
            let (areas, elements, places) =
                (map.accessible_areas().len(), of_tile(&map).len(), open_room_places(eco, &map));
            map.unlock_door(door).unwrap_or_else(|e| panic!("{}: {e}", tile.id));
            let opened = map.accessible_areas().len() > areas
                || of_tile(&map).len() > elements
                || open_room_places(eco, &map) > places;
            assert!(opened, "{}: Unlocking the Door opens nothing", tile.id);
        }
    }
    assert!(doors >= 6, "{doors} Doors");
}

// ---------------------------------------------------------------- patterns

#[test]
fn rune_patterns_are_varied_and_special_in_the_caverns() {
    let content = content();
    for eco in Ecology::ALL {
        let patterns = &content.ecology(eco).patterns;
        let sizes: BTreeSet<usize> = patterns.iter().map(|p| p.cells.len()).collect();
        assert!(sizes.len() >= 2, "{eco:?}: patterns of several sizes");
        for p in patterns {
            assert!((2..=4).contains(&p.cells.len()), "{eco:?} pattern {}: 2 to 4 cells", p.id);
            assert!(p.cells.iter().all(|c| !c.nodes.is_empty()), "{eco:?} pattern {}: a Node per cell", p.id);
            let special = p.water_connected || p.boat_first_sword_last;
            assert!(eco == Ecology::Caverns || !special, "{eco:?} pattern {}", p.id);
        }
    }
    let caverns = &content.ecology(Ecology::Caverns).patterns;
    assert_eq!(caverns.iter().filter(|p| p.water_connected).count(), 1);
    assert_eq!(caverns.iter().filter(|p| p.boat_first_sword_last).count(), 1);
}

/// A map holding just the layout, built through a save (no placement rules),
/// to check that a layout really matches its pattern.
fn map_of_layout(eco: Ecology, tiles: &[MapTile], pattern: &RunePattern, layout: &PatternLayout) -> Map {
    let placed: Vec<serde_json::Value> = pattern
        .cells
        .iter()
        .zip(&layout.tiles)
        .map(|(cell, &(t, rotation))| {
            let tile = &tiles[t];
            let states: Vec<Vec<ElementState>> =
                tile.areas.iter().map(|a| vec![ElementState::Present; a.elements.len()]).collect();
            serde_json::json!({
                "tile": tile,
                "cell": layout.symmetry.apply_offset(cell.offset),
                "rotation": rotation,
                "states": states,
            })
        })
        .collect();
    let first = layout.symmetry.apply_offset(pattern.cells[0].offset);
    let lantern = serde_json::json!({"cell": first, "area": 0});
    let save = serde_json::json!({"ecology": eco, "tiles": placed, "lantern": lantern, "anchor": lantern});
    serde_json::from_value(save).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_shipped_pattern_is_buildable_from_its_ecology_tiles() {
    let content = content();
    for eco in Ecology::ALL {
        let c = content.ecology(eco);
        for p in &c.patterns {
            assert!(pattern_buildable(p, &c.tiles), "{eco:?} pattern {} cannot be built", p.id);
            let layout = pattern_layout(p, &c.tiles).unwrap();
            let ids: Vec<&str> = layout.tiles.iter().map(|&(t, _)| c.tiles[t].id.as_str()).collect();
            let map = map_of_layout(eco, &c.tiles, p, &layout);
            let found = discovered_legendary_locations(&map, std::slice::from_ref(p), &UsedRunes::default());
            assert!(!found.is_empty(), "{eco:?} pattern {}: layout {ids:?} is not discovered", p.id);
        }
    }
}

// ---------------------------------------------------------------- explorations

/// What happened in one seeded exploration.
#[derive(Debug, Default)]
struct Outcome {
    dead_end: bool,
    stairs: bool,
    placed: usize,
    encounters: usize,
    patterns: BTreeSet<String>,
}

/// Below this many cells able to take some remaining tile, the party clears blockers.
const FEW_OPTIONS: usize = 3;

/// A careful party explores one Ecology: it places each drawn tile at a
/// random legal place, and before each draw, while some tile still in the
/// pile could not be placed (or few cells could take one), it Encounters a
/// reachable blocking element (every Encounter simply succeeds). It stops at
/// a dead end, and once the Stairs are found it keeps drawing only while no
/// tile left could dead-end it. Legendary Locations are Encountered as soon
/// as they are Discovered.
fn explore(eco: Ecology, content: &Content, seed: u64, careful_placement: bool) -> Outcome {
    let c = content.ecology(eco);
    let mut rng = GameRng::from_seed(seed);
    let (entry, mut pile) = TilePile::deal(c.tiles.clone(), &mut rng).unwrap_or_else(|e| panic!("{e}"));
    let mut map = Map::new(entry).unwrap_or_else(|e| panic!("{e}"));
    let mut used = UsedRunes::default();
    let mut out = Outcome::default();
    while !pile.is_empty() {
        loop {
            let frontier = map.frontier();
            let risky = pile.tiles().iter().any(|t| frontier.legal_placements(t).is_empty());
            let cells: BTreeSet<Cell> =
                pile.tiles().iter().flat_map(|t| frontier.legal_placements(t)).map(|p| p.cell).collect();
            if !risky && cells.len() >= FEW_OPTIONS {
                break;
            }
            let blockers: Vec<ElementRef> = map
                .reachable_unencountered_elements()
                .into_iter()
                .filter(|&e| map.element(e).is_some_and(|(el, _)| el.blocks_movement()))
                .collect();
            if blockers.is_empty() {
                break;
            }
            let pick = blockers[rng.below(blockers.len() as u32) as usize];
            map.encounter(pick).unwrap_or_else(|e| panic!("{e}"));
            out.encounters += 1;
        }
        if out.stairs && pile.tiles().iter().any(|t| map.is_dead_end(t)) {
            break;
        }
        let tile = pile.draw().expect("not empty");
        let legal = map.legal_placements(&tile);
        if legal.is_empty() {
            out.dead_end = true;
            break;
        }
        let at = if careful_placement {
            safest(&map, &tile, &legal, pile.tiles(), &mut rng)
        } else {
            legal[rng.below(legal.len() as u32) as usize]
        };
        map.place(&tile, at).unwrap_or_else(|e| panic!("{e}"));
        out.placed += 1;
        out.stairs |= tile.kind == TileKind::Stairs;
        for m in discovered_legendary_locations(&map, &c.patterns, &used) {
            if used.record(&m).is_ok() {
                out.patterns.insert(m.pattern.clone());
            }
        }
    }
    out
}

/// Where a careful party puts a tile: the legal place leaving the fewest
/// tiles still in the pile without a place, then the most cells to build on;
/// ties broken at random.
fn safest(map: &Map, tile: &MapTile, legal: &[Placement], rest: &[MapTile], rng: &mut GameRng) -> Placement {
    let mut best: Vec<Placement> = Vec::new();
    let mut best_score = (usize::MAX, 0);
    for &at in legal {
        let mut after = map.clone();
        after.place(tile, at).unwrap_or_else(|e| panic!("{e}"));
        let frontier = after.frontier();
        let mut dead = 0;
        let mut cells = BTreeSet::new();
        for t in rest {
            let places = frontier.legal_placements(t);
            dead += usize::from(places.is_empty());
            cells.extend(places.into_iter().map(|p| p.cell));
        }
        let score = (dead, usize::MAX - cells.len());
        if score < best_score {
            best_score = score;
            best.clear();
        }
        if score == best_score {
            best.push(at);
        }
    }
    best[rng.below(best.len() as u32) as usize]
}

const GAMES: u64 = 300;

#[test]
fn careful_parties_rarely_dead_end_and_find_the_legendary_locations() {
    let content = content();
    let mut report = String::new();
    let mut failures: Vec<String> = Vec::new();
    for eco in Ecology::ALL {
        let outcomes: Vec<Outcome> =
            (0..GAMES).map(|seed| explore(eco, &content, 1000 * eco as u64 + seed, true)).collect();
        let n = outcomes.len() as f64;
        let rate = |f: &dyn Fn(&Outcome) -> bool| outcomes.iter().filter(|o| f(o)).count() as f64 / n;
        let dead = rate(&|o| o.dead_end && !o.stairs);
        let stairs = rate(&|o| o.stairs);
        let placed = outcomes.iter().map(|o| o.placed).sum::<usize>() as f64 / n;
        let encounters = outcomes.iter().map(|o| o.encounters).sum::<usize>() as f64 / n;
        let found: Vec<String> = content
            .ecology(eco)
            .patterns
            .iter()
            .map(|p| format!("{}: {:.0}%", p.id, 100.0 * rate(&|o| o.patterns.contains(&p.id))))
            .collect();
        let per_game = outcomes.iter().map(|o| o.patterns.len()).sum::<usize>() as f64 / n;
        report += &format!(
            "{:<26} dead ends {:>5.1}%  stairs {:>5.1}%  tiles placed {placed:.1}  blockers met {encounters:.1}  \
             legendary locations per game {per_game:.2} ({})\n",
            eco.name(),
            100.0 * dead,
            100.0 * stairs,
            found.join(", "),
        );
        if dead > 0.15 {
            failures.push(format!("{eco:?}: {:.1}% of careful explorations dead-end", 100.0 * dead));
        }
        if stairs < 0.85 {
            failures.push(format!("{eco:?}: the Stairs are reached in only {:.1}%", 100.0 * stairs));
        }
        for p in &content.ecology(eco).patterns {
            if !outcomes.iter().any(|o| o.patterns.contains(&p.id)) {
                failures.push(format!("{eco:?}: pattern {} is never found in {GAMES} explorations", p.id));
            }
        }
    }
    // For comparison: the same party placing each tile at a random legal place.
    for eco in Ecology::ALL {
        let outcomes: Vec<Outcome> =
            (0..GAMES).map(|seed| explore(eco, &content, 1000 * eco as u64 + seed, false)).collect();
        let dead = outcomes.iter().filter(|o| o.dead_end && !o.stairs).count() as f64 / outcomes.len() as f64;
        report +=
            &format!("{:<26} dead ends {:>5.1}% when tiles go to random legal places\n", eco.name(), 100.0 * dead);
        if dead > 0.4 {
            failures.push(format!("{eco:?}: {:.1}% of explorations with random placement dead-end", 100.0 * dead));
        }
    }
    println!("{report}");
    assert!(failures.is_empty(), "{failures:#?}");
}
