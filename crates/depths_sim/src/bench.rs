//! `depths-sim bench`: throughput and worst-case rule calls, measured here
//! rather than asserted in tests.

use std::time::Instant;

use std::sync::Arc;

use depths_rules::map::{PlaceCounts, Preview, ThroughCounter, TileShape};
use depths_rules::{Action, Content, Foe, Game, GameOptions, History, Phase};

use crate::sim::{BotKind, play_one};

/// Seconds of this thread's CPU time, read from Linux's
/// `/proc/thread-self/schedstat`: on a busy machine wall time counts the
/// other programs too. It moves on with the scheduler's ticks, so only for
/// whole games; elsewhere (no such file) wall time since the first call.
fn cpu_seconds() -> f64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    let ns = std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok());
    ns.map_or_else(|| START.get_or_init(Instant::now).elapsed().as_secs_f64(), |ns| ns / 1e9)
}

/// The mean of the fastest of ten batches of `runs / 10` calls: other work
/// on the machine can only make a batch slower.
fn time<T>(label: &str, runs: u32, mut f: impl FnMut() -> T) {
    let batch = (runs / 10).max(1);
    let fastest = (0..10)
        .map(|_| {
            let started = Instant::now();
            for _ in 0..batch {
                std::hint::black_box(f());
            }
            started.elapsed().as_secs_f64() / f64::from(batch)
        })
        .fold(f64::INFINITY, f64::min);
    println!("{label}: {:.2} µs", fastest * 1e6);
}

/// The mid-game state the single calls are timed on (here and in `cargo
/// bench`): explores greedily (place anywhere, encounter when stuck, first
/// choice otherwise) and keeps the state with the biggest map and a tile in
/// hand (three Heroes, 9 tiles).
pub fn mid_game(content: &Content) -> Result<Game, String> {
    let mut g =
        Game::new(GameOptions::standard(&["bren", "sil", "ava"], 3), content.clone()).map_err(|e| e.to_string())?;
    let mut best = g.clone();
    for _ in 0..20_000 {
        if g.is_over() {
            break;
        }
        let legal = g.legal_actions();
        let pick = |f: &dyn Fn(&Action) -> bool| legal.iter().find(|a| f(a)).cloned();
        let a = if matches!(g.phase(), Phase::Combat { .. }) || g.pending().is_some() {
            legal[0].clone()
        } else {
            pick(&|a| matches!(a, Action::PlaceTile { .. }))
                .or_else(|| pick(&|a| matches!(a, Action::DrawTile)))
                .or_else(|| pick(&|a| matches!(a, Action::Encounter { .. })))
                .unwrap_or_else(|| legal[0].clone())
        };
        // Keep the Heroes alive: this is a benchmark of the map, not of Combat.
        for h in &mut g.heroes {
            h.health = h.max_health();
        }
        g.apply(a).map_err(|e| e.to_string())?;
        let size = |g: &Game| g.adventure().map_or(0, |a| a.ecology.map.tiles().len());
        let drawn = g.adventure().is_some_and(|a| a.ecology.drawn.is_some());
        if drawn && !g.is_over() && size(&g) >= size(&best) {
            best = g.clone();
        }
    }
    Ok(best)
}

/// What the careful bot works out for each place it weighs for the tile in
/// hand, for every place: a [`Preview`], the places of each remaining tile
/// there and the Legendary Locations through it (here and in `cargo bench`).
/// Returns (places weighed, a sum of the figures).
pub fn weigh_places(g: &Game) -> (usize, usize) {
    let Some(eco) = g.adventure().map(|a| &a.ecology) else { return (0, 0) };
    let Some(tile) = eco.drawn.as_ref() else { return (0, 0) };
    let (map, tile) = (&eco.map, Arc::new(tile.clone()));
    let shapes: Vec<TileShape> = eco.pile.tiles().iter().map(TileShape::of).collect();
    let counts = PlaceCounts::new(map, &shapes);
    let through = ThroughCounter::new(map, &eco.patterns, &eco.used_runes);
    let mut preview = Preview::default();
    let (mut places, mut sum) = (0, 0);
    for placement in map.frontier().placements(&tile) {
        if map.preview(&tile, placement, &mut preview).is_ok() {
            places += 1;
            sum += preview.cells() + through.count(&preview);
            sum += (0..shapes.len()).map(|k| counts.after(k, map, &preview).min(8)).sum::<usize>();
        }
    }
    (places, sum)
}

/// [`weigh_places`] as it was done before previews: the map copied, the
/// tile placed (the whole map worked out again) and the places counted.
fn weigh_places_by_copy(g: &Game) -> usize {
    let Some(eco) = g.adventure().map(|a| &a.ecology) else { return 0 };
    let Some(tile) = eco.drawn.as_ref() else { return 0 };
    let (map, tile) = (&eco.map, Arc::new(tile.clone()));
    let shapes: Vec<TileShape> = eco.pile.tiles().iter().map(TileShape::of).collect();
    let mut scratch = map.clone();
    let mut sum = 0;
    for placement in map.frontier().placements(&tile) {
        scratch.clone_from(map);
        if scratch.place_shared(&tile, placement).is_ok() {
            let f = scratch.frontier();
            sum += f.cells().count();
            sum += depths_rules::map::legendary_locations_through(
                &scratch,
                placement.cell,
                &eco.patterns,
                &eco.used_runes,
            )
            .len();
            sum += shapes.iter().map(|s| f.placements_of(s).take(8).count()).sum::<usize>();
        }
    }
    sum
}

/// The slowest `legal_actions` call met while three Heroes fight two Monster
/// Cards with the heuristic bot, over several seeds: (µs, actions listed).
fn worst_combat_call(content: &Content) -> Result<(f64, usize), String> {
    let monsters = &content.ecology(depths_rules::Ecology::Ruins).monsters;
    let mut worst = (0.0f64, 0usize);
    let (mut calls, mut most) = (0usize, 0usize);
    for seed in 0..20u64 {
        let mut g = Game::new(GameOptions::standard(&["bren", "sil", "ava"], seed), content.clone())
            .map_err(|e| e.to_string())?;
        let (a, b) = ((seed % 10) as usize, ((seed + 3) % 10) as usize);
        g.start_combat(vec![Foe::monster(monsters[a].clone(), 3), Foe::monster(monsters[b].clone(), 3)]);
        let mut bot = BotKind::Heuristic.make(seed);
        while matches!(g.phase(), Phase::Combat { .. }) {
            let started = Instant::now();
            let legal = std::hint::black_box(g.legal_actions());
            let us = started.elapsed().as_secs_f64() * 1e6;
            if us > worst.0 {
                worst = (us, legal.len());
            }
            calls += 1;
            most = most.max(legal.len());
            let a = bot.choose(&g);
            g.apply(a).map_err(|e| e.to_string())?;
        }
    }
    println!("3 Heroes against 2 Monster Cards: {calls} legal_actions calls, up to {most} actions listed");
    Ok(worst)
}

pub fn run() -> Result<(), String> {
    let content = Arc::new(Content::builtin().map_err(|e| e.to_string())?);
    let options = GameOptions::standard(&["bren", "sil"], 0);
    for bot in [BotKind::Random, BotKind::Heuristic] {
        let started = cpu_seconds();
        let games = if bot == BotKind::Random { 2000 } else { 200 };
        let mut actions = 0;
        for seed in 0..games {
            actions += play_one(&content, options.clone(), seed, bot, false).0.actions;
        }
        let secs = cpu_seconds() - started;
        println!(
            "{bot:?}-bot full games (Bren + Sil): {:.0} games per CPU second ({:.0} actions/game)",
            games as f64 / secs,
            actions as f64 / games as f64
        );
    }
    let map = mid_game(&content)?;
    let adv = map.adventure().ok_or("no adventure")?;
    let tiles = adv.ecology.map.tiles().len();
    let n = map.legal_actions().len();
    time(&format!("legal_actions with a tile in hand, {tiles}-tile map ({n} actions)"), 2_000, || map.legal_actions());
    let remaining = adv.ecology.pile.tiles().to_vec();
    let m = &adv.ecology.map;
    time(&format!("legal placements of all {} remaining tiles", remaining.len()), 500, || {
        let f = m.frontier();
        remaining.iter().map(|t| f.legal_placements(t).len()).sum::<usize>()
    });
    time("accessible areas (kept up to date by the map, listed)", 5_000, || m.accessible_areas().len());
    let (places, sum) = weigh_places(&map);
    if weigh_places_by_copy(&map) != sum {
        return Err(String::from("a preview disagrees with the map placed"));
    }
    time(&format!("every place for the tile in hand weighed from previews ({places} places)"), 500, || {
        weigh_places(&map)
    });
    time("the same by copying the map and placing the tile", 500, || weigh_places_by_copy(&map));
    let mut seed = 0;
    time(&format!("a determinized copy of the {tiles}-tile game (every hidden order dealt afresh)"), 500, || {
        seed += 1;
        map.determinized(seed)
    });
    time("a plain copy of the same game", 500, || map.clone());
    // What undo costs at the table: the history keeps the game before each
    // move (one copy), and taking it back puts that copy in place.
    let place =
        map.legal_actions().into_iter().find(|a| matches!(a, Action::PlaceTile { .. })).ok_or("no placement")?;
    time("a placement made through the undo history, then taken back (one copy included)", 500, || {
        let (mut g, mut history) = (map.clone(), History::default());
        history.apply(&mut g, place.clone()).map(|_| history.undo(&mut g).is_ok())
    });
    let (us, n) = worst_combat_call(&content)?;
    println!("slowest legal_actions call, 3 Heroes against 2 Monster Cards: {us:.1} µs ({n} actions)");
    let text = map.save_json();
    println!("save size: {} KB", text.len() / 1024);
    time("save (JSON)", 100, || map.save_json());
    time("load (JSON)", 100, || Game::load_json(&text));
    Ok(())
}
