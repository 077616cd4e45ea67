//! `depths-sim bench`: throughput and worst-case rule calls, measured here
//! rather than asserted in tests.

use std::time::Instant;

use depths_rules::{Content, Game, GameOptions};

use crate::sim::{BotKind, play_one};

fn time<T>(label: &str, runs: u32, mut f: impl FnMut() -> T) {
    let started = Instant::now();
    for _ in 0..runs {
        std::hint::black_box(f());
    }
    let each = started.elapsed().as_secs_f64() / f64::from(runs);
    println!("{label}: {:.1} µs", each * 1e6);
}

pub fn run() -> Result<(), String> {
    let content = Content::builtin().map_err(|e| e.to_string())?;
    let options = GameOptions::standard(&["bren", "sil"], 0);
    // Random-bot full games on one core.
    let started = Instant::now();
    let games = 200;
    let mut actions = 0;
    for seed in 0..games {
        actions += play_one(&content, options.clone(), seed, BotKind::Random, false).0.actions;
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "random-bot full games, one core: {:.0} games/s ({:.0} actions/game)",
        games as f64 / secs,
        actions as f64 / games as f64
    );

    // A late game: play the heuristic bot for a while, keep the biggest map seen.
    let mut g = Game::new(options.clone(), content.clone()).map_err(|e| e.to_string())?;
    let mut bot = BotKind::Heuristic.make(1);
    let mut biggest = g.clone();
    for _ in 0..3_000 {
        if g.is_over() {
            break;
        }
        let a = bot.choose(&g);
        g.apply(a).map_err(|e| e.to_string())?;
        let size = |g: &Game| g.adventure().map_or(0, |a| a.ecology.map.tiles().len());
        if size(&g) >= size(&biggest) && g.combat().is_none() {
            biggest = g.clone();
        }
    }
    let tiles = biggest.adventure().map_or(0, |a| a.ecology.map.tiles().len());
    time(&format!("legal_actions on a {tiles}-tile map"), 200, || biggest.legal_actions());
    if let Some(adv) = biggest.adventure() {
        let remaining = adv.ecology.pile.tiles().to_vec();
        let map = &adv.ecology.map;
        time(&format!("legal placements of all {} remaining tiles", remaining.len()), 200, || {
            let f = map.frontier();
            remaining.iter().map(|t| f.legal_placements(t).len()).sum::<usize>()
        });
        time("accessible areas, one recomputation", 2_000, || map.accessible_areas().len());
    }
    let text = biggest.save_json();
    println!("save size: {} KB", text.len() / 1024);
    time("save (JSON)", 100, || biggest.save_json());
    time("load (JSON)", 100, || Game::load_json(&text));
    Ok(())
}
