//! `cargo bench -p depths_sim --bench playouts`: the figures issue 23 aims
//! at (docs/performance.md), timed by criterion, which keeps each run's
//! figures under the target folder and reports the change from the last
//! run, so that a regression shows. `depths-sim bench` prints the same
//! figures in one quick run.

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use depths_rules::{Content, GameOptions};
use depths_sim::bench::{mid_game, weigh_places};
use depths_sim::{BotKind, play_one};

fn single_calls(c: &mut Criterion) {
    let content = Content::builtin().expect("the built-in content");
    let game = mid_game(&content).expect("a mid-game state");
    c.bench_function("legal_actions with a tile in hand (9-tile map, 3 Heroes)", |b| b.iter(|| game.legal_actions()));
    let mut seed = 0;
    c.bench_function("a determinized copy of the same game", |b| {
        b.iter(|| {
            seed += 1;
            game.determinized(seed)
        })
    });
    c.bench_function("a plain copy of the same game", |b| b.iter(|| game.clone()));
    c.bench_function("every place for the tile in hand weighed from previews (the same game)", |b| {
        b.iter(|| weigh_places(&game))
    });
}

/// Whole two-Hero games, a fixed set of seeds per iteration (games differ
/// in length, so one seed per iteration would measure the seeds).
fn whole_games(c: &mut Criterion) {
    let content = Arc::new(Content::builtin().expect("the built-in content"));
    let options = GameOptions::standard(&["bren", "sil"], 0);
    let mut group = c.benchmark_group("whole games");
    group.sample_size(10);
    for (bot, games, name) in
        [(BotKind::Heuristic, 20, "20 careful-bot games"), (BotKind::Random, 200, "200 random-bot games")]
    {
        group.bench_function(name, |b| {
            b.iter(|| {
                (0..games).map(|seed| play_one(&content, options.clone(), seed, bot, false).0.actions).sum::<usize>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, single_calls, whole_games);
criterion_main!(benches);
