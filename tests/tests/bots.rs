//! The bots through whole games: no panic, nothing illegal accepted, every
//! game ends in a win or a named loss within the action limit.

use depths_rules::{Ecology, GameOptions};
use depths_sim::{BotKind, play_one};
use depths_tests::fixture::fixture;

#[test]
fn random_and_heuristic_bots_finish_every_game() {
    let content = std::sync::Arc::new(fixture());
    for (bot, games) in [(BotKind::Random, 300u64), (BotKind::Heuristic, 100)] {
        for seed in 0..games {
            let heroes: &[&str] =
                [&["bren"][..], &["sil", "ava"][..], &["bren", "sil", "ava"][..]][(seed % 3) as usize];
            let mut options = GameOptions::standard(heroes, seed);
            options.start = [Ecology::Ruins, Ecology::Caverns][(seed % 2) as usize];
            let (r, _) = play_one(&content, options, seed, bot, false);
            assert!(r.actions < depths_sim::playout::ACTION_LIMIT, "{bot:?} seed {seed} did not finish");
            assert!(r.won || r.loss.is_some(), "{bot:?} seed {seed}: a loss names its cause");
        }
    }
}

#[test]
fn win_rate_interval_is_sound() {
    let (lo, hi) = depths_sim::forecast::wilson(50, 100);
    assert!(lo < 0.5 && hi > 0.5 && (hi - lo) < 0.25, "{lo} {hi}");
    assert_eq!(depths_sim::forecast::wilson(0, 0), (0.0, 0.0));
}
