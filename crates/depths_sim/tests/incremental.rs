//! What the rules core keeps up to date step by step, or works out for a
//! change without making it, equals what it works out from scratch: at
//! every state of the bots' games where a tile is in hand, every place for
//! it is previewed ([`Map::preview`], [`PlaceCounts`],
//! [`ThroughCounter`], with the patterns turned or the Ecology's kept
//! turned) and compared with the map that has the tile
//! placed; and every placement's Rune Pattern matches kept up to date
//! ([`RuneMatches::placed`]) are compared with a search of the whole map,
//! order included (the random bot picks Legendary Locations by their place
//! in the list of legal actions). The places after each Encounter the Heroes
//! could make are counted from the map's ([`PlaceCounts::on_copy`], with
//! the map's counts renewed from an earlier state's), and
//! the map kept after every step equals the map worked out from its save;
//! an element is looked up as reachable exactly when it is listed.

use std::sync::Arc;

use depths_rules::map::{
    Element, ElementRef, Map, MapTile, PlaceCounts, Placement, Preview, RuneMatches, RunePattern, ThroughCounter,
    TileShape, UsedRunes, discovered_legendary_locations, legendary_locations_through,
};
use depths_rules::{Action, Content, Game, GameOptions};
use depths_sim::BotKind;

/// The element kinds, sorted, to compare lists in any order.
fn kinds(elements: impl Iterator<Item = Element>) -> Vec<String> {
    let mut v: Vec<String> = elements.map(|e| format!("{e:?}")).collect();
    v.sort();
    v
}

fn reachable_kinds(map: &Map) -> Vec<String> {
    kinds(map.reachable_unencountered().map(|e| map.element(e).expect("on the map").0))
}

/// Every place for `tile`, previewed and placed; the number of places
/// checked. `kept`: the Ecology's own counter, with the patterns it keeps turned.
fn check_places(
    map: &Map,
    tile: &MapTile,
    pile: &[MapTile],
    patterns: &[RunePattern],
    used: &UsedRunes,
    kept: &ThroughCounter,
) -> usize {
    let shared = Arc::new(tile.clone());
    // The tile in hand among the shapes too: the pile is often nearly empty.
    let shapes: Vec<TileShape> = pile.iter().chain([tile]).map(TileShape::of).collect();
    let counts = PlaceCounts::new(map, &shapes);
    let before = map.frontier();
    for (k, shape) in shapes.iter().enumerate() {
        assert_eq!(counts.on_map(k), before.placements_of(shape).count());
    }
    let reachable_before = reachable_kinds(map);
    let mut preview = Preview::default();
    let counter = ThroughCounter::new(map, patterns, used);
    let mut checked = 0;
    for placement in map.legal_placements(tile) {
        map.preview(&shared, placement, &mut preview).expect("a legal place");
        let mut after = map.clone();
        after.place(tile, placement).expect("a legal place");
        let cells: Vec<_> = after.frontier().cells().collect();
        assert_eq!(preview.cells(), cells.len(), "{placement:?}");
        assert_eq!(preview.cell_list(map), cells, "{placement:?}");
        for (k, shape) in shapes.iter().enumerate() {
            let want = after.frontier().placements_of(shape).count();
            assert_eq!(counts.after(k, map, &preview), want, "shape {k} after {placement:?}");
        }
        let mut newly = reachable_before.clone();
        newly.extend(kinds(preview.newly_reachable(map)));
        newly.sort();
        assert_eq!(newly, reachable_kinds(&after), "{placement:?}");
        let through = legendary_locations_through(&after, placement.cell, patterns, used).len();
        let counted = counter.count(&preview);
        assert_eq!(counted, through, "{placement:?}");
        assert_eq!(kept.count(&preview), through, "{placement:?}");
        checked += 1;
    }
    // A place the tile does not fit is refused as `place` refuses it.
    let nowhere = Placement { cell: (1000, 1000), rotation: Default::default() };
    assert_eq!(map.preview(&shared, nowhere, &mut preview), map.check_placement(tile, nowhere));
    checked
}

/// Every element the Heroes reach Encountered on a copy of the map: the
/// places counted on the copy from the map's counts ([`PlaceCounts::on_copy`])
/// equal those of the copy; the number of copies checked.
/// `counts`: carried from state to state and renewed ([`PlaceCounts::renew`]
/// keeps the counts of the spots that did not change).
fn check_encounters(map: &Map, pile: &[MapTile], counts: &mut PlaceCounts) -> usize {
    let shapes: Vec<TileShape> = pile.iter().map(TileShape::of).collect();
    counts.renew(map, &shapes);
    let before = map.frontier();
    for (k, shape) in shapes.iter().enumerate() {
        assert_eq!(counts.on_map(k), before.placements_of(shape).count());
    }
    let kinds: Vec<Element> = map.reachable_unencountered().map(|e| map.element(e).expect("on the map").0).collect();
    assert_eq!(map.reachable_unencountered_kinds().collect::<Vec<_>>(), kinds);
    // Every element of the map (and one past each area's last) is listed
    // exactly when it is looked up as listed.
    let listed: Vec<ElementRef> = map.reachable_unencountered().collect();
    for placed in map.tiles() {
        for (area, a) in placed.tile.areas.iter().enumerate() {
            for element in 0..=a.elements.len() {
                let e = ElementRef { cell: placed.cell, area: area as u8, element: element as u8 };
                assert_eq!(map.is_reachable_unencountered(e), listed.contains(&e), "{e:?}");
            }
        }
    }
    let mut out = Vec::new();
    let mut checked = 0;
    for e in map.reachable_unencountered() {
        let mut copy = map.clone();
        if copy.encounter(e).is_err() {
            continue;
        }
        counts.on_copy(map, &copy, &mut out);
        let whole: Vec<usize> = shapes.iter().map(|s| copy.frontier().placements_of(s).count()).collect();
        assert_eq!(out, whole, "after encountering {e:?}");
        checked += 1;
    }
    checked
}

/// What the map keeps after a change (an Encounter, a rest or a Lantern move
/// brings only the ways in up to date) equals the map worked out again from
/// its save.
fn check_kept(map: &Map) {
    let again: Map = serde_json::from_str(&serde_json::to_string(map).expect("save")).expect("load");
    assert!(again == *map, "the map as kept differs from the map worked out from scratch");
}

/// Plays `games` games and checks every state with a tile in hand, and every
/// placement; returns the places and placements checked.
fn check_games(bot: BotKind, games: u64) -> (usize, usize) {
    let content = Arc::new(Content::builtin().expect("content"));
    let (mut places, mut placements) = (0, 0);
    for seed in 1..=games {
        let mut options = GameOptions::standard(&["bren", "sil"], 0);
        options.seed = seed;
        let mut g = Game::new_shared(options, Arc::clone(&content)).expect("content is valid");
        let mut b = bot.make(seed);
        // Searched in full for each new Ecology, then kept up to date.
        let mut kept = RuneMatches::default();
        let mut kept_for = None;
        let mut steps = 0;
        let mut renewed = PlaceCounts::default();
        while !g.is_over() && steps < 5_000 {
            let eco = &g.adventure().expect("full game").ecology;
            if let Some(tile) = eco.drawn.as_ref().or(eco.dead_end.set_aside.as_ref()) {
                let kept = eco.through_counter();
                places += check_places(&eco.map, tile, eco.pile.tiles(), &eco.patterns, &eco.used_runes, &kept);
            } else if steps % 4 == 0 {
                places += check_encounters(&eco.map, eco.pile.tiles(), &mut renewed);
            }
            check_kept(&eco.map);
            let (tiles, ecology) = (eco.map.tiles().len(), eco.ecology);
            if kept_for != Some(ecology) {
                kept.refresh(&eco.map, &eco.patterns);
                kept_for = Some(ecology);
            }
            let a = b.choose(&g);
            let placing = matches!(a, Action::PlaceTile { .. } | Action::PlaceSetAsideTile { .. });
            g.apply(a).expect("bots choose legal actions");
            steps += 1;
            let eco = &g.adventure().expect("full game").ecology;
            if placing && eco.ecology == ecology && eco.map.tiles().len() == tiles + 1 {
                kept.placed(&eco.map, &eco.patterns);
                let none = UsedRunes::default();
                let whole = discovered_legendary_locations(&eco.map, &eco.patterns, &none);
                assert_eq!(kept.discovered(&eco.map, &eco.patterns, &none), whole, "seed {seed}, step {steps}");
                placements += 1;
            }
        }
    }
    (places, placements)
}

#[test]
fn previews_and_kept_matches_equal_the_whole_work() {
    let (places, placements) = check_games(BotKind::Heuristic, 12);
    assert!(places > 1_000 && placements > 100, "{places} places, {placements} placements");
    let (places, placements) = check_games(BotKind::Random, 60);
    assert!(places > 1_000 && placements > 100, "{places} places, {placements} placements");
}

/// Many more games: `cargo test --release -p depths_sim --test incremental -- --ignored`.
#[test]
#[ignore]
fn previews_and_kept_matches_equal_the_whole_work_in_many_games() {
    check_games(BotKind::Heuristic, 300);
    check_games(BotKind::Random, 3_000);
}
