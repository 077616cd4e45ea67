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

/// "Only ONE Hero, from among those that contributed Damage, may Avoid
/// Return Damage … The Players choose": a new player's report had three
/// Companions choose "Ava avoids it (saves nothing)" over "Sil avoids it
/// (saves 3)". The careful bot's choice leaves the weakest Hero no worse off
/// than any other choice, and among those the party the most Health.
#[test]
fn the_careful_bot_lets_the_hero_who_saves_the_most_avoid_return_damage() {
    use depths_rules::{Action, CombatStep, Content, Game, Phase};
    use depths_sim::{Bot, HeuristicBot};
    let (mut met, mut choices) = (0, 0);
    for seed in 1..=80 {
        let options = GameOptions::standard(&["bren", "sil", "ava"], seed);
        let mut g = Game::new(options, Content::builtin().unwrap()).unwrap();
        for _ in 0..3000 {
            if g.is_over() {
                break;
            }
            if matches!(g.phase(), Phase::Combat { step: CombatStep::AvoidReturnDamage }) {
                let rank = |a: &Action| {
                    let after = g.health_after_round(a)?;
                    let weakest = (0..after.len())
                        .map(|h| f64::from(after[h]) / f64::from(g.heroes[h].max_health().max(1)))
                        .fold(1.0, f64::min);
                    Some(((weakest * 1000.0) as i32, after.iter().map(|&x| i32::from(x)).sum::<i32>()))
                };
                let chosen = HeuristicBot.choose(&g);
                let legal = g.legal_actions();
                if let Some(best) = rank(&chosen) {
                    for a in &legal {
                        let other = rank(a).expect("every choice settles the Round");
                        assert!(best >= other, "{chosen:?} {best:?} over {a:?} {other:?}");
                    }
                    met += 1;
                    choices += usize::from(legal.len() > 1);
                }
            }
            let a = HeuristicBot.choose(&g);
            g.apply(a).unwrap();
        }
    }
    assert!(met > 10 && choices > 5, "{met} choices of who avoids, {choices} with more than one way");
}
