//! "Exploring": Map Tiles, placement, accessibility, the tile pile, dead ends
//! and Legendary Location discovery. Each test names the rulebook passage it checks.

use Side::{E, N, S, W};
use depths_rules::map::*;
use depths_rules::{Ecology, GameRng};

// ---------------------------------------------------------------- helpers

/// Edges from four characters N, E, S, W: `#` wall, `.` open, `~` water, `U` upper, `L` lower.
fn edges(s: &str) -> Edges {
    let e: Vec<Edge> = s
        .chars()
        .map(|c| match c {
            '#' => Edge::Wall,
            '.' => Edge::Open,
            '~' => Edge::Water,
            'U' => Edge::Upper,
            'L' => Edge::Lower,
            _ => panic!("bad edge {c}"),
        })
        .collect();
    Edges::from_array([e[0], e[1], e[2], e[3]])
}

fn area(exits: &[Side], elements: &[Element]) -> Area {
    Area { exits: Sides::of(exits), elements: elements.to_vec(), ..Area::default() }
}

fn tile(id: &str, ecology: Ecology, kind: TileKind, e: &str, areas: Vec<Area>) -> MapTile {
    MapTile {
        id: id.into(),
        ecology,
        kind,
        edges: edges(e),
        areas,
        water_corners: Corners::NONE,
        boat: false,
        sword: false,
        nodes: Sides::NONE,
    }
}

/// One area holding every passable edge, with `elements` in it.
fn room(id: &str, ecology: Ecology, e: &str, elements: &[Element]) -> MapTile {
    let mut t = tile(id, ecology, TileKind::Normal, e, vec![]);
    let exits: Vec<Side> = Side::ALL.into_iter().filter(|&s| t.edges.get(s).is_passable()).collect();
    t.areas = vec![area(&exits, elements)];
    t
}

fn entry(ecology: Ecology, e: &str) -> MapTile {
    MapTile { id: "entry".into(), kind: TileKind::Entry, ..room("entry", ecology, e, &[]) }
}

fn at(x: i32, y: i32, r: u8) -> Placement {
    Placement { cell: (x, y), rotation: Rotation::new(r) }
}

fn el(x: i32, y: i32, area: u8, element: u8) -> ElementRef {
    ElementRef { cell: (x, y), area, element }
}

fn ar(x: i32, y: i32, area: u8) -> AreaRef {
    AreaRef { cell: (x, y), area }
}

const RUINS: Ecology = Ecology::Ruins;
const CAVERNS: Ecology = Ecology::Caverns;
const SUB: Ecology = Ecology::Subterranean;
const MONSTER: Element = Element::Monster { count: 1 };

/// Entry with one exit east, then a corridor holding a Monster at (1, 0).
fn guarded_corridor() -> Map {
    let mut map = Map::new(entry(RUINS, "#.##")).unwrap();
    map.place(&room("monster", RUINS, "#.#.", &[MONSTER]), at(1, 0, 0)).unwrap();
    map
}

// ------------------------------------------------------------ tile model

/// Content is hand-written JSON; the example in the Map tiles design note parses.
#[test]
fn map_tile_json_is_authorable_and_round_trips() {
    let json = r#"{
        "id": "ruins-07", "ecology": "ruins",
        "edges": {"N": "open", "E": "wall", "S": "open", "W": "open"},
        "areas": [
            {"exits": ["N", "S"], "elements": [{"type": "monster", "count": 2}, {"type": "chest"}]},
            {"exits": ["W"], "secret_passage": true}
        ],
        "nodes": ["E", "N"]
    }"#;
    let t = MapTile::from_json(json).unwrap();
    assert_eq!(t.kind, TileKind::Normal);
    assert_eq!(t.areas[0].elements, vec![Element::Monster { count: 2 }, Element::Chest]);
    assert!(t.areas[1].secret_passage);
    assert!(t.nodes.contains(N) && t.nodes.contains(E) && !t.nodes.contains(S));
    let back: MapTile = serde_json::from_str(&serde_json::to_string(&t).unwrap()).unwrap();
    assert_eq!(back, t);
}

/// "Tiles may be rotated (4 ways), never mirrored": a clockwise quarter turn
/// moves sides, corners and nodes together.
#[test]
fn rotating_a_tile_moves_its_sides_corners_and_nodes() {
    let mut t = room("river", CAVERNS, ".~##", &[]);
    t.water_corners = Corners::of(&[Corner::NE]);
    t.nodes = Sides::of(&[N, W]);
    let r = t.rotated(Rotation::new(1));
    assert_eq!(r.edges, edges("#.~#"));
    assert_eq!(r.areas[0].exits, Sides::of(&[E]));
    assert_eq!(r.water_corners, Corners::of(&[Corner::SE]));
    assert_eq!(r.nodes, Sides::of(&[E, N]));
    let r3 = t.rotated(Rotation::new(3));
    assert_eq!(r3.edges, edges("~##."));
    assert_eq!(r3.water_corners, Corners::of(&[Corner::NW]));
    assert_eq!(t.rotated(Rotation::new(2)).rotated(Rotation::new(2)), t);
}

/// Malformed tiles are refused with a message that names the tile.
#[test]
fn malformed_tiles_are_rejected_naming_the_tile() {
    let cases: Vec<(MapTile, TileProblem)> = vec![
        (tile("bad-1", RUINS, TileKind::Normal, ".#..", vec![area(&[N, S], &[])]), TileProblem::EdgeInNoArea(W)),
        (
            tile("bad-2", RUINS, TileKind::Normal, ".#.#", vec![area(&[N, S], &[]), area(&[S], &[])]),
            TileProblem::EdgeInTwoAreas(S),
        ),
        (
            tile("bad-3", RUINS, TileKind::Normal, ".#.#", vec![area(&[N, S, E], &[])]),
            TileProblem::ExitOnClosedEdge { area: 0, side: E, edge: Edge::Wall },
        ),
        (
            room("bad-4", RUINS, ".~##", &[]),
            TileProblem::EdgeNotInEcology { side: E, edge: Edge::Water, ecology: RUINS },
        ),
        (
            room("bad-5", CAVERNS, "U###", &[]),
            TileProblem::EdgeNotInEcology { side: N, edge: Edge::Upper, ecology: CAVERNS },
        ),
        (room("bad-6", SUB, "U#L#", &[]), TileProblem::LevelsMixedWithoutStair(0)),
        (
            room("bad-7", RUINS, ".#.#", &[Element::Monster { count: 3 }]),
            TileProblem::MonsterCount { area: 0, count: 3 },
        ),
        (room("bad-8", RUINS, ".#.#", &[Element::StairGuardian]), TileProblem::GuardianOffStairs),
    ];
    for (t, problem) in cases {
        let err = t.validate().and_then(|()| t.check_doors()).unwrap_err();
        assert_eq!(err.problem, problem, "{}", t.id);
        let msg = err.to_string();
        assert!(msg.contains(&format!("\"{}\"", t.id)), "{msg}");
    }
    let mut portal = room("bad-9", RUINS, ".###", &[]);
    portal.areas[0].warp_portal = true;
    assert!(portal.validate().unwrap_err().to_string().contains("\"bad-9\": has a Warp Portal"));
    let typo = r#"{"id": "bad-10", "ecology": "ruins", "edges": {"N": "open", "E": "wall", "S": "wall", "W": "wall"},
                   "areas": [{"exits": ["N"], "secret_pasage": true}]}"#;
    let msg = MapTile::from_json(typo).unwrap_err().to_string();
    assert!(msg.contains("\"bad-10\"") && msg.contains("secret_pasage"), "{msg}");
}

// ------------------------------------------------------------- placement

/// "Placing Map Tiles", rule 1: "Walls must touch walls. Blank edges must touch blank edges."
#[test]
fn wall_against_blank_edge_is_refused() {
    let map = Map::new(entry(RUINS, "....")).unwrap();
    let dead_end = room("dead-end", RUINS, ".###", &[]);
    // North of the entry, unturned, the wall on S would touch the entry's open N.
    assert_eq!(
        map.check_placement(&dead_end, at(0, 1, 0)),
        Err(PlacementError::EdgeMismatch { side: S, tile_edge: Edge::Wall, neighbour_edge: Edge::Open })
    );
    assert!(!map.legal_placements(&dead_end).contains(&at(0, 1, 0)));
}

/// Rule 1 with rotation: turning the tile twice brings its open edge south.
#[test]
fn rotation_makes_a_tile_fit() {
    let map = Map::new(entry(RUINS, "....")).unwrap();
    let dead_end = room("dead-end", RUINS, ".###", &[]);
    assert_eq!(map.check_placement(&dead_end, at(0, 1, 2)), Ok(()));
    let mut legal = map.legal_placements(&dead_end);
    legal.sort();
    assert_eq!(legal, vec![at(-1, 0, 1), at(0, -1, 0), at(0, 1, 2), at(1, 0, 3)]);
    assert_eq!(map.check_placement(&dead_end, at(0, 0, 0)), Err(PlacementError::Occupied((0, 0))));
    assert_eq!(map.check_placement(&dead_end, at(5, 5, 0)), Err(PlacementError::NotAdjacent((5, 5))));
}

/// Rule 2: "Monsters, Features, and Doors block access to Tile edges beyond
/// them ... cannot be moved through until they have been Encountered."
#[test]
fn path_through_a_monster_is_refused_until_it_is_encountered() {
    let mut map = guarded_corridor();
    let next = room("next", RUINS, "#.#.", &[]);
    assert_eq!(map.check_placement(&next, at(2, 0, 0)), Err(PlacementError::NoPath));
    assert!(map.legal_placements(&next).is_empty());
    // The monster itself can be reached, so it can be Encountered.
    assert_eq!(map.reachable_unencountered_elements(), vec![el(1, 0, 0, 0)]);
    assert_eq!(map.encounter(el(1, 0, 0, 0)), Ok(MONSTER));
    assert_eq!(map.element(el(1, 0, 0, 0)), Some((MONSTER, ElementState::Defeated)));
    assert_eq!(map.lantern(), ar(1, 0, 0));
    assert_eq!(map.check_placement(&next, at(2, 0, 0)), Ok(()));
    assert_eq!(map.legal_placements(&next), vec![at(2, 0, 0), at(2, 0, 2)]);
    assert_eq!(map.encounter(el(1, 0, 0, 0)), Err(MapError::AlreadyEncountered(el(1, 0, 0, 0))));
}

/// "Doors: Blocks Movement until Unlocked."
#[test]
fn a_locked_door_blocks_until_unlocked() {
    let mut map = Map::new(entry(RUINS, "#.##")).unwrap();
    map.place(&room("door", RUINS, "#.#.", &[Element::Door]), at(1, 0, 0)).unwrap();
    let next = room("next", RUINS, "#.#.", &[]);
    assert_eq!(map.check_placement(&next, at(2, 0, 0)), Err(PlacementError::NoPath));
    assert_eq!(map.unlock_door(el(0, 0, 0, 0)), Err(MapError::NoSuchElement(el(0, 0, 0, 0))));
    map.unlock_door(el(1, 0, 0, 0)).unwrap();
    assert_eq!(map.element(el(1, 0, 0, 0)), Some((Element::Door, ElementState::Unlocked)));
    assert_eq!(map.check_placement(&next, at(2, 0, 0)), Ok(()));
}

/// A room beyond the Door of area 0 (`"beyond_door": 0`), holding `elements`.
fn beyond_door(elements: &[Element]) -> Area {
    Area { elements: elements.to_vec(), beyond_door: Some(0), ..Area::default() }
}

/// A tile whose Door, on its west side, leads to a room holding a Chest.
fn vault() -> MapTile {
    tile("vault", RUINS, TileKind::Normal, "###.", vec![area(&[W], &[Element::Door]), beyond_door(&[Element::Chest])])
}

/// "3. Doors — Blocks Movement until Unlocked … Doors cannot be moved through
/// until they are Unlocked." A room that lies beyond a Door is reached only
/// through it: its Chest waits until the Door is Unlocked, on the map, in a
/// preview of the tile, and after the map is saved and loaded.
#[test]
fn a_chest_beyond_a_door_waits_until_the_door_is_unlocked() {
    let vault = vault();
    vault.validate().unwrap();
    let mut map = Map::new(entry(RUINS, "#.##")).unwrap();
    let mut preview = Preview::default();
    map.preview(&std::sync::Arc::new(vault.clone()), at(1, 0, 0), &mut preview).unwrap();
    assert_eq!(preview.newly_reachable(&map).collect::<Vec<_>>(), vec![Element::Door]);
    map.place(&vault, at(1, 0, 0)).unwrap();
    assert_eq!(map.reachable_unencountered_elements(), vec![el(1, 0, 0, 0)], "the Door, not the Chest");
    assert!(!map.is_accessible(ar(1, 0, 1)));
    assert_eq!(map.encounter(el(1, 0, 1, 0)), Err(MapError::NotReachable(el(1, 0, 1, 0))));
    map.unlock_door(el(1, 0, 0, 0)).unwrap();
    assert!(map.is_accessible(ar(1, 0, 1)));
    assert_eq!(map.reachable_unencountered_elements(), vec![el(1, 0, 1, 0)]);
    let loaded: Map = serde_json::from_str(&serde_json::to_string(&map).unwrap()).unwrap();
    assert_eq!(loaded, map);
    assert_eq!(map.encounter(el(1, 0, 1, 0)), Ok(Element::Chest));
    assert_eq!(map.lantern(), ar(1, 0, 1));
    // A Door across a corridor with a room beyond it: both wait for the Door.
    let mut map = Map::new(entry(RUINS, "#.##")).unwrap();
    let hall = tile(
        "hall",
        RUINS,
        TileKind::Normal,
        "#.#.",
        vec![area(&[E, W], &[Element::Door]), beyond_door(&[Element::Chest])],
    );
    map.place(&hall, at(1, 0, 0)).unwrap();
    let next = room("next", RUINS, "#.#.", &[]);
    assert_eq!(map.check_placement(&next, at(2, 0, 0)), Err(PlacementError::NoPath));
    assert_eq!(map.reachable_unencountered_elements(), vec![el(1, 0, 0, 0)]);
    map.unlock_door(el(1, 0, 0, 0)).unwrap();
    assert_eq!(map.check_placement(&next, at(2, 0, 0)), Ok(()));
    assert_eq!(map.reachable_unencountered_elements(), vec![el(1, 0, 1, 0)]);
}

/// "3. Doors — Blocks Movement until Unlocked": a Door stands between the way
/// in and what lies beyond it. One that blocks nothing (alone in a room with
/// one way in, or beside the Chest it should guard) is refused, as is a room
/// "beyond" an area without a Door; each names the tile.
#[test]
fn a_door_that_blocks_nothing_is_refused_naming_the_tile() {
    let door = Element::Door;
    let two_rooms = |id: &str, room: Area| tile(id, RUINS, TileKind::Normal, ".###", vec![area(&[N], &[door]), room]);
    let hall = |id: &str, room: Area| tile(id, RUINS, TileKind::Normal, ".#.#", vec![area(&[N, S], &[door]), room]);
    let cases: Vec<(MapTile, TileProblem)> = vec![
        (room("door-1", RUINS, ".###", &[door]), TileProblem::DoorBlocksNothing(0)),
        (room("door-2", RUINS, ".###", &[door, Element::Chest]), TileProblem::DoorBlocksNothing(0)),
        (room("door-3", RUINS, ".#.#", &[door, Element::Chest]), TileProblem::ChestBesideDoor(0)),
        (
            tile("door-4", RUINS, TileKind::Normal, ".###", vec![area(&[N], &[]), beyond_door(&[Element::Chest])]),
            TileProblem::NoDoorBefore { area: 1, door: 0 },
        ),
        (
            hall("door-5", Area { beyond_door: Some(1), ..beyond_door(&[]) }),
            TileProblem::NoDoorBefore { area: 1, door: 1 },
        ),
        (
            hall("door-6", Area { beyond_door: Some(7), ..beyond_door(&[]) }),
            TileProblem::NoDoorBefore { area: 1, door: 7 },
        ),
    ];
    for (t, problem) in cases {
        let err = t.validate().and_then(|()| t.check_doors()).unwrap_err();
        assert_eq!(err.problem, problem, "{}", t.id);
        assert!(err.to_string().contains(&format!("\"{}\"", t.id)), "{err}");
    }
    // A Door with a room beyond it, across a corridor, or before a Secret Passage guards something.
    two_rooms("door-ok-1", beyond_door(&[Element::Chest])).check_doors().unwrap();
    room("door-ok-2", RUINS, ".#.#", &[door]).check_doors().unwrap();
    let mut passage = room("door-ok-3", RUINS, ".###", &[door]);
    passage.areas[0].secret_passage = true;
    passage.check_doors().unwrap();
    let json = r#"{"id": "door-ok-4", "ecology": "ruins", "edges": {"N": "open", "E": "wall", "S": "wall", "W": "wall"},
                   "areas": [{"exits": ["N"], "elements": [{"type": "door"}]}, {"beyond_door": 0, "elements": [{"type": "chest"}]}]}"#;
    let t = MapTile::from_json(json).unwrap();
    assert_eq!(t.areas[1].beyond_door, Some(0));
    assert_eq!(serde_json::from_str::<MapTile>(&serde_json::to_string(&t).unwrap()).unwrap(), t);
}

/// "Habitat Boundaries: Heroes may move through the tile on the side without
/// Monsters or Features without having to Encounter them."
#[test]
fn habitat_boundary_lets_heroes_pass_on_the_empty_side() {
    let mut map = Map::new(entry(RUINS, "....")).unwrap();
    let split = tile("split", RUINS, TileKind::Normal, "....", vec![area(&[W, E], &[]), area(&[N, S], &[MONSTER])]);
    map.place(&split, at(1, 0, 0)).unwrap();
    let corridor = room("corridor", RUINS, ".#.#", &[]);
    let cross = room("cross", RUINS, "....", &[]);
    // The heroes walk the empty side to the east without meeting the Monster.
    assert_eq!(map.check_placement(&cross, at(2, 0, 0)), Ok(()));
    assert!(!map.is_accessible(ar(1, 0, 1)), "the boundary parts the Monster's side");
    assert_eq!(map.check_placement(&corridor, at(1, 1, 0)), Err(PlacementError::NoPath));
    // Come round to the Monster's side from the south: it can be reached, to Encounter it, but not passed.
    map.place(&cross, at(0, -1, 0)).unwrap();
    map.place(&room("cross2", RUINS, "....", &[]), at(1, -1, 0)).unwrap();
    assert!(map.is_accessible(ar(1, 0, 1)));
    assert_eq!(map.check_placement(&corridor, at(1, 1, 0)), Err(PlacementError::NoPath));
    map.encounter(el(1, 0, 1, 0)).unwrap();
    assert_eq!(map.check_placement(&corridor, at(1, 1, 0)), Ok(()));
}

/// "Tiles may be rotated": a placed tile's areas turn with it, so which side
/// of a Habitat Boundary the Heroes enter depends on the rotation.
#[test]
fn a_turned_tile_turns_its_areas() {
    // Printed: an empty area on N, a Monster's area on S.
    let split = tile("split", RUINS, TileKind::Normal, ".#.#", vec![area(&[N], &[]), area(&[S], &[MONSTER])]);
    for (r, empty_faces_heroes) in [(1, false), (3, true)] {
        let mut map = Map::new(entry(RUINS, "#.##")).unwrap();
        map.place(&split, at(1, 0, r)).unwrap();
        assert_eq!(map.is_accessible(ar(1, 0, 0)), empty_faces_heroes, "rotation {r}");
        assert_eq!(map.is_accessible(ar(1, 0, 1)), !empty_faces_heroes, "rotation {r}");
        let next = room("next", RUINS, "#.#.", &[]);
        assert_eq!(map.check_placement(&next, at(2, 0, 0)), Err(PlacementError::NoPath));
    }
}

/// East of the entry: a Monster's side facing west, a sealed side facing
/// east with a Secret Passage.
fn sealed_tile() -> MapTile {
    let mut sealed = tile("sealed", RUINS, TileKind::Normal, "#...", vec![area(&[W], &[MONSTER]), area(&[E, S], &[])]);
    sealed.areas[1].secret_passage = true;
    sealed
}

/// The entry, with a Secret Passage of its own, and [`sealed_tile`] east of it.
fn passage_to_the_sealed_side() -> Map {
    let mut with_passage = entry(RUINS, "#.##");
    with_passage.areas[0].secret_passage = true;
    let mut map = Map::new(with_passage).unwrap();
    map.place(&sealed_tile(), at(1, 0, 0)).unwrap();
    map
}

/// The Caverns' entry, with a Warp Portal, and east of it a tile whose
/// west side holds a Feature and whose east side the other Portal.
fn portal_to_the_far_side() -> Map {
    let mut start = entry(CAVERNS, "#.##");
    start.areas[0].warp_portal = true;
    let mut map = Map::new(start).unwrap();
    let mut far =
        tile("far", CAVERNS, TileKind::Normal, "#.#.", vec![area(&[W], &[Element::Feature]), area(&[E], &[])]);
    far.areas[1].warp_portal = true;
    map.place(&far, at(1, 0, 0)).unwrap();
    map
}

/// "All Secret Passages are connected ... Heroes may use Secret Passages to
/// reach parts of the Ecology that are otherwise inaccessible."
#[test]
fn secret_passage_reaches_an_otherwise_sealed_part() {
    let sealed = sealed_tile();
    let next = room("next", RUINS, "#.#.", &[]);

    let mut plain = Map::new(entry(RUINS, "#.##")).unwrap();
    plain.place(&sealed, at(1, 0, 0)).unwrap();
    assert!(!plain.is_accessible(ar(1, 0, 1)));
    assert_eq!(plain.check_placement(&next, at(2, 0, 0)), Err(PlacementError::NoPath));

    let map = passage_to_the_sealed_side();
    assert!(map.is_accessible(ar(1, 0, 1)));
    assert_eq!(map.check_placement(&next, at(2, 0, 0)), Ok(()));
    // Only the Monster waits to be Encountered; the sealed side holds nothing.
    assert_eq!(map.reachable_unencountered_elements(), vec![el(1, 0, 0, 0)]);
}

/// "Entering any Secret Passage in the Play Area allows you to exit any
/// other Secret Passage": the table shows the way the Heroes take, so the
/// map says which passage the way must go through, and none where they can
/// walk (even past another passage) or cannot get at all.
#[test]
fn the_way_says_which_passage_it_takes() {
    let mut map = passage_to_the_sealed_side();
    // Beyond the Monster: only through the passage.
    assert_eq!(map.passage_on_the_way(ar(1, 0, 1)), Some(Passage::SecretPassage));
    // The Monster's own area is a walk, and so is the Lantern's.
    assert_eq!(map.passage_on_the_way(ar(1, 0, 0)), None);
    assert_eq!(map.passage_on_the_way(ar(0, 0, 0)), None);
    // A tile the passage's side leads on to, on foot after the passage.
    map.place(&room("next", RUINS, "#.#.", &[]), at(2, 0, 0)).unwrap();
    assert_eq!(map.passage_on_the_way(ar(2, 0, 0)), Some(Passage::SecretPassage));
    // A room the Heroes can walk into is a walk, though it has a passage too.
    let mut start = entry(RUINS, "#.##");
    start.areas[0].secret_passage = true;
    let mut walk = Map::new(start).unwrap();
    let mut open_room = room("open", RUINS, "#...", &[]);
    open_room.areas[0].secret_passage = true;
    walk.place(&open_room, at(1, 0, 0)).unwrap();
    assert_eq!(walk.passage_on_the_way(ar(1, 0, 0)), None);
    // Two tiles on foot beat one jump through the passage.
    let mut far_room = room("far", RUINS, "###.", &[]);
    far_room.areas[0].secret_passage = true;
    walk.place(&far_room, at(2, 0, 0)).unwrap();
    assert_eq!(walk.passage_on_the_way(ar(2, 0, 0)), None);
    // Not reached at all: no way, so no passage.
    assert_eq!(map.passage_on_the_way(ar(5, 5, 0)), None);

    let caverns = portal_to_the_far_side();
    assert_eq!(caverns.passage_on_the_way(ar(1, 0, 1)), Some(Passage::WarpPortal));
    assert_eq!(caverns.passage_on_the_way(ar(1, 0, 0)), None);
}

/// Rule 2 read with "Secret Passages": a new tile whose Secret Passage the
/// Heroes can reach is reachable through it, even with no open edge toward them.
#[test]
fn a_new_tile_may_be_reached_through_its_own_secret_passage() {
    let mut start = entry(RUINS, "#.##");
    start.areas[0].secret_passage = true;
    let map = Map::new(start).unwrap();
    let mut hideout = room("hideout", RUINS, "###.", &[]);
    assert_eq!(map.check_placement(&hideout, at(0, 1, 0)), Err(PlacementError::NoPath));
    hideout.areas[0].secret_passage = true;
    assert_eq!(map.check_placement(&hideout, at(0, 1, 0)), Ok(()));
}

/// "Caverns: Warp Portals ... connect to each other ... to reach parts of the
/// Ecology that are otherwise inaccessible." Also "water edges may touch non-water edges."
#[test]
fn warp_portal_reaches_an_otherwise_sealed_part() {
    let map = portal_to_the_far_side();
    assert!(map.is_accessible(ar(1, 0, 1)));
    // In through the open west edge, from the portal side.
    let pool = room("pool", CAVERNS, "#~#.", &[]);
    assert_eq!(map.check_placement(&pool, at(2, 0, 0)), Ok(()));
    // Water gives no path: turned so that water faces the portal side, nothing leads in.
    assert_eq!(map.check_placement(&pool, at(2, 0, 2)), Err(PlacementError::NoPath));
}

/// "Subterranean Architecture: Upper Level edges touch Upper Level edges, and
/// Lower Level edges touch Lower Level edges." "Heroes may only move between
/// Upper and Lower levels on tiles containing a Level Stair icon."
#[test]
fn levels_must_match_and_only_a_level_stair_joins_them() {
    let mut map = Map::new(entry(SUB, "#U##")).unwrap();
    let lower = room("lower", SUB, "#L#L", &[]);
    assert_eq!(
        map.check_placement(&lower, at(1, 0, 0)),
        Err(PlacementError::EdgeMismatch { side: W, tile_edge: Edge::Lower, neighbour_edge: Edge::Upper })
    );
    // Upper west and lower east in two areas: the lower side is out of reach.
    let split = tile("split", SUB, TileKind::Normal, "#L#U", vec![area(&[W], &[]), area(&[E], &[])]);
    let mut split_map = map.clone();
    split_map.place(&split, at(1, 0, 0)).unwrap();
    assert_eq!(split_map.check_placement(&lower, at(2, 0, 0)), Err(PlacementError::NoPath));
    // The same edges in one area with a Level Stair: the lower level is reached.
    let mut stair = room("stair", SUB, "#L#U", &[]);
    stair.areas[0].level_stair = true;
    map.place(&stair, at(1, 0, 0)).unwrap();
    assert_eq!(map.check_placement(&lower, at(2, 0, 0)), Ok(()));
}

/// `check_placement` and `legal_placements` agree (as shakmaty's fuzz target does).
#[test]
fn check_placement_agrees_with_legal_placements() {
    for seed in 0..6 {
        let (map, rest) = grown_map(RUINS, seed, 20);
        for t in rest.iter().take(5) {
            let legal = map.legal_placements(t);
            for x in -6..=6 {
                for y in -6..=6 {
                    for r in 0..4 {
                        let p = at(x, y, r);
                        assert_eq!(map.check_placement(t, p).is_ok(), legal.contains(&p), "{} at {p:?}", t.id);
                    }
                }
            }
        }
    }
}

// ------------------------------------------------------ encountering state

/// "When Heroes choose to Encounter an Ecology Element, move the Lantern
/// Token to that location"; blocking elements still present in the Lantern's
/// area let the Heroes turn back but not pass.
#[test]
fn lantern_among_remaining_blockers_can_turn_back_but_not_pass() {
    let mut map = Map::new(entry(RUINS, "#.##")).unwrap();
    map.place(&room("den", RUINS, "#.#.", &[MONSTER, Element::Feature]), at(1, 0, 0)).unwrap();
    let next = room("next", RUINS, "#.#.", &[]);
    map.encounter(el(1, 0, 0, 0)).unwrap();
    assert_eq!(map.lantern(), ar(1, 0, 0));
    assert!(map.is_accessible(ar(0, 0, 0)));
    assert_eq!(map.check_placement(&next, at(2, 0, 0)), Err(PlacementError::NoPath));
    assert_eq!(map.move_lantern(ar(1, 0, 0)), Err(MapError::AreaBlocked(ar(1, 0, 0))));
    map.encounter(el(1, 0, 0, 1)).unwrap();
    assert_eq!(map.check_placement(&next, at(2, 0, 0)), Ok(()));
    map.move_lantern(ar(0, 0, 0)).unwrap();
    assert_eq!(map.lantern(), ar(0, 0, 0));
}

/// "Heroes must Encounter all Monsters present at a Chest before Encountering the Chest."
#[test]
fn a_chest_waits_for_the_monsters_in_its_area() {
    let mut map = Map::new(entry(RUINS, "#.##")).unwrap();
    map.place(&room("vault", RUINS, "###.", &[Element::Chest, MONSTER]), at(1, 0, 0)).unwrap();
    assert_eq!(map.reachable_unencountered_elements(), vec![el(1, 0, 0, 1)]);
    assert_eq!(map.encounter(el(1, 0, 0, 0)), Err(MapError::ChestGuarded(el(1, 0, 0, 0))));
    map.encounter(el(1, 0, 0, 1)).unwrap();
    assert_eq!(map.reachable_unencountered_elements(), vec![el(1, 0, 0, 0)]);
    assert_eq!(map.encounter(el(1, 0, 0, 0)), Ok(Element::Chest));
}

/// "6. Campfires": on a Rest "All Defeated Monster Tokens are removed from the
/// Map. Monsters are present at those locations again."
#[test]
fn campfire_rest_makes_defeated_monsters_present_again() {
    let mut map = guarded_corridor();
    map.encounter(el(1, 0, 0, 0)).unwrap();
    map.place(&room("camp", RUINS, "###.", &[Element::Campfire]), at(2, 0, 0)).unwrap();
    map.encounter(el(2, 0, 0, 0)).unwrap();
    assert!(map.is_accessible(ar(0, 0, 0)));
    map.return_defeated_monsters();
    assert_eq!(map.element(el(1, 0, 0, 0)), Some((MONSTER, ElementState::Present)));
    assert_eq!(map.element(el(2, 0, 0, 0)), Some((Element::Campfire, ElementState::Encountered)));
    // The Monster stands between the Heroes and the entry again.
    assert!(!map.is_accessible(ar(0, 0, 0)));
    assert_eq!(map.reachable_unencountered_elements(), vec![el(1, 0, 0, 0)]);
}

/// "7. Stair Guardian": "Once Heroes choose to Encounter a Stair Guardian,
/// they cannot go back to any of the current Ecology's Map Tiles."
#[test]
fn no_way_back_after_the_stair_guardian() {
    let mut map = Map::new(entry(RUINS, "#.##")).unwrap();
    let mut stairs = room("stairs", RUINS, "....", &[Element::StairGuardian]);
    stairs.kind = TileKind::Stairs;
    map.place(&stairs, at(1, 0, 0)).unwrap();
    let cross = room("cross", RUINS, "....", &[Element::Feature]);
    assert!(!map.legal_placements(&cross).is_empty());
    map.encounter(el(1, 0, 0, 0)).unwrap();
    assert_eq!(map.accessible_areas(), vec![ar(1, 0, 0)]);
    assert!(map.legal_placements(&cross).is_empty());
    assert!(map.reachable_unencountered_elements().is_empty());
}

/// Saves: a map serializes, loads, and goes on the same way.
#[test]
fn map_round_trips_through_json() {
    let mut map = guarded_corridor();
    map.encounter(el(1, 0, 0, 0)).unwrap();
    let json = serde_json::to_string(&map).unwrap();
    let back: Map = serde_json::from_str(&json).unwrap();
    assert_eq!(back, map);
    let next = room("next", RUINS, "#.#.", &[]);
    assert_eq!(back.legal_placements(&next), map.legal_placements(&next));
    let broken = json.replace("\"cell\":[1,0]", "\"cell\":[0,0]");
    assert!(serde_json::from_str::<Map>(&broken).is_err());
}

// ------------------------------------------------------------- tile pile

fn ecology_tiles(n_normal: usize) -> Vec<MapTile> {
    let mut tiles = vec![entry(RUINS, "....")];
    let mut stairs = room("stairs", RUINS, "#.##", &[Element::StairGuardian]);
    stairs.kind = TileKind::Stairs;
    tiles.push(stairs);
    tiles.extend((0..n_normal).map(|i| room(&format!("r{i:02}"), RUINS, ".#.#", &[])));
    tiles
}

/// "2. Ecology Map Tiles": "the Stairs Tile located fourth from the bottom".
#[test]
fn stairs_tile_is_fourth_from_the_bottom_for_100_seeds() {
    let mut bottoms = std::collections::BTreeSet::new();
    for seed in 0..100 {
        let (entry_tile, mut pile) = TilePile::deal(ecology_tiles(22), &mut GameRng::from_seed(seed)).unwrap();
        assert_eq!(entry_tile.kind, TileKind::Entry);
        assert_eq!(pile.len(), 23);
        assert_eq!(pile.tiles()[3].kind, TileKind::Stairs, "seed {seed}");
        assert_eq!(pile.tiles().iter().filter(|t| t.kind != TileKind::Normal).count(), 1);
        bottoms.insert(pile.tiles()[0].id.clone());
        // Drawing from the top, the Stairs come 20th.
        let draws: Vec<MapTile> = std::iter::from_fn(|| pile.draw()).collect();
        assert_eq!(draws[19].kind, TileKind::Stairs);
    }
    assert!(bottoms.len() > 10, "the rest are shuffled: {bottoms:?}");
}

/// Fewer than three other tiles: the Stairs Tile lies on all of them.
#[test]
fn short_pile_puts_the_stairs_on_whatever_there_is() {
    let (_, pile) = TilePile::deal(ecology_tiles(2), &mut GameRng::from_seed(1)).unwrap();
    assert_eq!(
        pile.tiles().iter().map(|t| t.kind).collect::<Vec<_>>(),
        [TileKind::Normal, TileKind::Normal, TileKind::Stairs]
    );
    let (_, pile) = TilePile::deal(ecology_tiles(0), &mut GameRng::from_seed(1)).unwrap();
    assert_eq!(pile.len(), 1);
    let no_stairs: Vec<MapTile> = ecology_tiles(3).into_iter().filter(|t| t.kind != TileKind::Stairs).collect();
    assert_eq!(
        TilePile::deal(no_stairs, &mut GameRng::from_seed(1)),
        Err(PileError::Missing { kind: TileKind::Stairs, ecology: RUINS })
    );
}

// -------------------------------------------------------------- dead ends

/// "WARNING! LOSING BY TILE PLACEMENT": while the Monster blocks the only way
/// on, no tile can be placed; Encountering it un-blocks tile edge access.
#[test]
fn dead_end_is_detected_and_lifted_by_encountering() {
    let mut map = guarded_corridor();
    let cross = room("cross", RUINS, "....", &[]);
    let walls = tile("walls", RUINS, TileKind::Normal, "####", vec![]);
    assert!(map.is_dead_end(&cross));
    map.encounter(el(1, 0, 0, 0)).unwrap();
    assert!(!map.is_dead_end(&cross));
    assert!(map.is_dead_end(&walls));
}

/// "One Dead-End Per Ecology: ... set it aside ... The set-aside tile remains
/// available and may be placed at any time during Exploration."
#[test]
fn set_aside_dead_end_tile_is_placeable_later() {
    let mut map = guarded_corridor();
    let cross = room("cross", RUINS, "....", &[]);
    let other = room("other", RUINS, ".#.#", &[]);
    assert_eq!(DeadEndAllowance::new(false).check_set_aside(&map, &cross), Err(DeadEndError::VariantOff));
    let mut allowance = DeadEndAllowance::new(true);
    allowance.set_aside(&map, cross.clone()).unwrap();
    assert_eq!(allowance.set_aside(&map, other.clone()), Err(DeadEndError::AlreadyUsed));
    map.encounter(el(1, 0, 0, 0)).unwrap();
    let waiting = allowance.set_aside.as_ref().unwrap();
    assert_eq!(map.legal_placements(waiting).len(), 4);
    let tile = allowance.take().unwrap();
    map.place(&tile, at(2, 0, 0)).unwrap();
    assert!(allowance.used && allowance.set_aside.is_none());
    assert_eq!(DeadEndAllowance::new(true).check_set_aside(&map, &other), Err(DeadEndError::TileFits));
}

// --------------------------------------------------------- rune patterns

/// An L-shaped, chiral pattern: a Node on N, and a Node on E of the tile to its east.
fn chiral_pattern(id: &str) -> RunePattern {
    RunePattern {
        id: id.into(),
        cells: vec![
            RuneCell { offset: (0, 0), nodes: Sides::of(&[N]) },
            RuneCell { offset: (1, 0), nodes: Sides::of(&[E]) },
        ],
        water_connected: false,
        boat_first_sword_last: false,
    }
}

fn with_nodes(mut t: MapTile, nodes: &[Side]) -> MapTile {
    t.nodes = Sides::of(nodes);
    t
}

/// Map: entry with Nodes E and N, and a tile south of it with a Node on S —
/// the chiral pattern turned a quarter clockwise.
fn rotated_rune_map() -> Map {
    let mut map = Map::new(with_nodes(entry(RUINS, "...."), &[E, N])).unwrap();
    map.place(&with_nodes(room("south", RUINS, "....", &[]), &[S]), at(0, -1, 0)).unwrap();
    map
}

/// "A Rune Pattern may be mirrored or rotated in order to match": rotated.
#[test]
fn rune_pattern_found_rotated() {
    let map = rotated_rune_map();
    let found = discovered_legendary_locations(&map, &[chiral_pattern("p1")], &UsedRunes::default());
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].cells, vec![(0, 0), (0, -1)]);
    assert_eq!(found[0].nodes, vec![NodeRef { cell: (0, -1), side: S }, NodeRef { cell: (0, 0), side: E }]);
    assert_eq!(found[0].symmetry, Symmetry { mirrored: false, rotation: Rotation::new(1) });
}

/// "A Rune Pattern may be mirrored": the mirror image, nodes on a turned tile.
#[test]
fn rune_pattern_found_mirrored() {
    let mut map = Map::new(with_nodes(entry(RUINS, "...."), &[N])).unwrap();
    // Printed on E, turned twice: on the map the Node is on W.
    map.place(&with_nodes(room("west", RUINS, "....", &[]), &[E]), at(-1, 0, 2)).unwrap();
    let found = discovered_legendary_locations(&map, &[chiral_pattern("p1")], &UsedRunes::default());
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].symmetry.mirrored);
    assert_eq!(found[0].nodes, vec![NodeRef { cell: (-1, 0), side: W }, NodeRef { cell: (0, 0), side: N }]);
    // The west tile unturned: its Node faces east, and nothing matches.
    let mut unturned = Map::new(with_nodes(entry(RUINS, "...."), &[N])).unwrap();
    unturned.place(&with_nodes(room("west", RUINS, "....", &[]), &[E]), at(-1, 0, 0)).unwrap();
    assert!(discovered_legendary_locations(&unturned, &[chiral_pattern("p1")], &UsedRunes::default()).is_empty());
}

/// "These Nodes cannot be used again."
#[test]
fn rune_pattern_not_found_when_one_of_its_nodes_is_used() {
    let map = rotated_rune_map();
    let mut used = UsedRunes::default();
    used.nodes.insert(NodeRef { cell: (0, -1), side: S });
    assert!(discovered_legendary_locations(&map, &[chiral_pattern("p1")], &used).is_empty());
}

/// "Each Rune Pattern can only be Encountered once per Ecology" and "players
/// cannot match overlapping Rune Patterns".
#[test]
fn rune_pattern_not_found_twice_and_overlaps_cannot_both_be_taken() {
    let map = rotated_rune_map();
    let single = RunePattern {
        id: "p2".into(),
        cells: vec![RuneCell { offset: (0, 0), nodes: Sides::of(&[E]) }],
        water_connected: false,
        boat_first_sword_last: false,
    };
    let patterns = [chiral_pattern("p1"), single];
    let mut used = UsedRunes::default();
    let found = discovered_legendary_locations(&map, &patterns, &used);
    let p2: Vec<&RuneMatch> = found.iter().filter(|m| m.pattern == "p2").collect();
    // p2 fits each single Node: E and N of the entry, S of the south tile.
    assert_eq!(p2.len(), 3, "{found:?}");
    let p1 = found.iter().find(|m| m.pattern == "p1").unwrap().clone();
    let p2_on_entry_east = p2.iter().find(|m| m.nodes == [NodeRef { cell: (0, 0), side: E }]).unwrap();
    let p2_on_entry_east = (*p2_on_entry_east).clone();
    used.record(&p1).unwrap();
    assert_eq!(used.record(&p1), Err(RuneError::PatternTaken("p1".into())));
    assert_eq!(used.record(&p2_on_entry_east), Err(RuneError::NodeUsed(NodeRef { cell: (0, 0), side: E })));
    let after = discovered_legendary_locations(&map, &patterns, &used);
    assert_eq!(after.len(), 1);
    assert_eq!(after[0].nodes, vec![NodeRef { cell: (0, 0), side: N }]);
}

/// Caverns map for water: entry (0,0), then tiles at (0,1), (1,1) and (1,0),
/// the last entered from the north so its west edge may be water. Nodes E on
/// the entry and W on the last for a two-cell pattern.
fn water_map(entry_corners: &[Corner], east_corners: &[Corner]) -> Map {
    let mut start = with_nodes(entry(CAVERNS, ".~##"), &[E]);
    start.areas = vec![area(&[N], &[])];
    start.water_corners = Corners::of(entry_corners);
    let mut map = Map::new(start).unwrap();
    map.place(&room("nw", CAVERNS, "....", &[]), at(0, 1, 0)).unwrap();
    map.place(&room("ne", CAVERNS, "....", &[]), at(1, 1, 0)).unwrap();
    let mut east = with_nodes(room("east", CAVERNS, ".##~", &[]), &[W]);
    east.water_corners = Corners::of(east_corners);
    map.place(&east, at(1, 0, 0)).unwrap();
    map
}

fn water_pattern() -> RunePattern {
    RunePattern {
        id: "river".into(),
        cells: vec![
            RuneCell { offset: (0, 0), nodes: Sides::of(&[E]) },
            RuneCell { offset: (1, 0), nodes: Sides::of(&[W]) },
        ],
        water_connected: true,
        boat_first_sword_last: false,
    }
}

/// "For water to be connected, water must meet water in at least one corner
/// of orthogonally adjacent tiles."
#[test]
fn water_connected_by_a_corner_but_not_by_an_edge_alone() {
    let used = UsedRunes::default();
    let met = water_map(&[Corner::SE], &[Corner::SW]);
    assert_eq!(discovered_legendary_locations(&met, &[water_pattern()], &used).len(), 1);
    // Both shared edges are water, but the corners at its ends do not meet.
    let apart = water_map(&[Corner::NE], &[Corner::SW]);
    assert!(discovered_legendary_locations(&apart, &[water_pattern()], &used).is_empty());
    let dry = water_map(&[], &[]);
    assert!(discovered_legendary_locations(&dry, &[water_pattern()], &used).is_empty());
}

/// "Caverns: Boat and Sword Icons ... the first and last parts of a particular
/// Legendary Location Rune Pattern."
#[test]
fn boat_first_and_sword_last() {
    let build = |boat: bool, sword: bool| {
        let mut start = with_nodes(entry(CAVERNS, "...."), &[E]);
        start.boat = boat;
        let mut map = Map::new(start).unwrap();
        let mut east = with_nodes(room("east", CAVERNS, "....", &[]), &[W]);
        east.sword = sword;
        map.place(&east, at(1, 0, 0)).unwrap();
        map
    };
    let mut pattern = water_pattern();
    pattern.water_connected = false;
    pattern.boat_first_sword_last = true;
    let used = UsedRunes::default();
    let found = discovered_legendary_locations(&build(true, true), std::slice::from_ref(&pattern), &used);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].cells, vec![(0, 0), (1, 0)]);
    assert!(discovered_legendary_locations(&build(true, false), &[pattern], &used).is_empty());
}

// ---------------------------------------------------- grown maps, benchmark

/// Synthetic Ecology tiles: corridors, corners, T-junctions and crossroads,
/// a quarter with a Monster behind a Habitat Boundary or in the way.
fn synthetic_tiles(ecology: Ecology, n: usize, rng: &mut GameRng) -> Vec<MapTile> {
    const SHAPES: [&str; 5] = ["..#.", ".#.#", "..##", "....", "...#"];
    (0..n)
        .map(|i| {
            let shape = SHAPES[rng.below(SHAPES.len() as u32) as usize];
            let mut t = room(&format!("t{i:03}"), ecology, shape, &[]);
            match rng.below(8) {
                0 => t.areas[0].elements.push(MONSTER),
                1 => t.areas[0].elements.push(Element::Chest),
                _ => {}
            }
            if rng.below(3) == 0 {
                t.nodes = Sides::of(&[Side::from_index(rng.below(4) as usize)]);
            }
            t
        })
        .collect()
}

/// Grows a map by placing tiles at random legal places, Encountering what
/// blocks when stuck. Returns the map and the tiles left over.
fn grown_map(ecology: Ecology, seed: u64, placed: usize) -> (Map, Vec<MapTile>) {
    let mut rng = GameRng::from_seed(seed);
    let mut map = Map::new(entry(ecology, "....")).unwrap();
    let mut pile = synthetic_tiles(ecology, placed + 40, &mut rng);
    let mut rest = Vec::new();
    while map.tiles().len() < placed {
        let Some(t) = pile.pop() else { break };
        let legal = map.legal_placements(&t);
        if legal.is_empty() {
            if let Some(&e) = map.reachable_unencountered_elements().first() {
                map.encounter(e).unwrap();
            }
            rest.push(t);
            continue;
        }
        let p = legal[rng.below(legal.len() as u32) as usize];
        map.place(&t, p).unwrap();
    }
    rest.extend(pile);
    (map, rest)
}

/// Not a timed assertion: prints how long the Exploring queries take.
/// Run with `cargo test -p depths_rules --release --test map_exploring -- --ignored --nocapture`.
#[test]
#[ignore]
fn benchmark_exploring() {
    use std::time::Instant;
    let (map, rest) = grown_map(RUINS, 7, 70);
    let remaining: Vec<MapTile> = rest.into_iter().take(20).collect();
    assert_eq!(map.tiles().len(), 70);
    assert_eq!(remaining.len(), 20);
    let rounds = 200;

    let t0 = Instant::now();
    let mut total = 0;
    for _ in 0..rounds {
        for t in &remaining {
            total += map.legal_placements(t).len();
        }
    }
    let each_tile_alone = t0.elapsed() / rounds;

    let t0 = Instant::now();
    for _ in 0..rounds {
        let frontier = map.frontier();
        for t in &remaining {
            total += frontier.legal_placements(t).len();
        }
    }
    let shared_frontier = t0.elapsed() / rounds;

    let t0 = Instant::now();
    for _ in 0..rounds {
        total += map.accessible_areas().len();
    }
    let access = t0.elapsed() / rounds;

    println!(
        "70 tiles placed, {} areas accessible, {} frontier cells; 20 tiles' legal placements: {each_tile_alone:?} \
         (map.legal_placements each), {shared_frontier:?} (one shared frontier); one accessibility recomputation: \
         {access:?} [checksum {total}]",
        map.accessible_areas().len(),
        map.frontier().cells().count()
    );
}

/// A saved game keeps the tiles it was played with: a map holding a tile
/// from before Doors had to guard something (the old `ruins-16`, its Chest
/// beside its Door) still loads from its save, though the content refuses
/// such a tile now.
#[test]
fn a_saved_map_with_a_door_that_guards_nothing_still_loads() {
    let old = tile("old-16", RUINS, TileKind::Entry, ".###", vec![area(&[N], &[Element::Door, Element::Chest])]);
    assert!(old.check_doors().is_err(), "the content would refuse it");
    let map = Map::new(old).expect("a map from a save's tiles");
    let json = serde_json::to_string(&map).unwrap();
    let back: Map = serde_json::from_str(&json).expect("the saved map loads");
    assert_eq!(back.tiles().len(), 1);
}

/// A refusal names what is in the way: "Blocks Movement until Unlocked" /
/// "until Encountered": the Door before a Chest in the room beyond it, the
/// nothing once it is dealt with or where nothing blocks; no way at all
/// where no tile leads.
#[test]
fn what_stands_in_the_way_of_an_element_is_named() {
    let vault = vault();
    let mut map = Map::new(entry(RUINS, "#.##")).unwrap();
    map.place(&vault, at(1, 0, 0)).unwrap();
    assert_eq!(map.in_the_way(el(1, 0, 1, 0)), Some(vec![el(1, 0, 0, 0)]), "the Door before the Chest");
    assert_eq!(map.in_the_way(el(1, 0, 0, 0)), Some(vec![]), "the Door itself is reached");
    map.unlock_door(el(1, 0, 0, 0)).unwrap();
    assert_eq!(map.in_the_way(el(1, 0, 1, 0)), Some(vec![]));
    // Nothing on the way through empty halls.
    let mut open = Map::new(entry(RUINS, "#.##")).unwrap();
    open.place(&room("hall", RUINS, "#.#.", &[]), at(1, 0, 0)).unwrap();
    open.place(&room("past", RUINS, "#.#.", &[Element::Chest]), at(2, 0, 0)).unwrap();
    assert_eq!(open.in_the_way(el(2, 0, 0, 0)), Some(vec![]));
    assert_eq!(open.in_the_way(el(5, 5, 0, 0)), None, "no way at all where no tile is");
}
