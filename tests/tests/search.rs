//! The search bot: legal actions only, the same game from the same seed, and
//! in a fight where one choice is clearly better it finds it.

use depths_rules::{Action, Content, Game, GameOptions, Stage};
use depths_sim::{Bot, BotKind, HeuristicBot, SearchBot, SearchConfig, play_one};

fn config(playouts: u32) -> SearchConfig {
    SearchConfig { playouts, ..SearchConfig::default() }
}

/// Bren and Sil against the Moss-Covered Walking Statue and the Shrieking
/// Black Shroud, each Hero down to `health`.
fn skirmish(seed: u64, health: u8) -> Game {
    let mut g = depths_tests::two_against_two(seed);
    for h in &mut g.heroes {
        h.health = h.health.min(health);
    }
    g
}

/// Plays a skirmish to its end with `bot`; every action it chose, each checked
/// against the legal actions of its moment.
fn fight(mut g: Game, bot: &mut dyn Bot) -> Vec<Action> {
    let mut log = Vec::new();
    while g.stage == Stage::Combat {
        let a = bot.choose(&g);
        assert!(g.legal_actions().contains(&a), "{a:?} is not legal here");
        g.apply(a.clone()).unwrap();
        log.push(a);
        assert!(log.len() < 2_000, "the fight did not end");
    }
    log
}

#[test]
fn the_search_bot_chooses_legal_actions_and_replays_from_its_seed() {
    for seed in 1..4 {
        let a = fight(skirmish(seed, 30), &mut SearchBot::new(seed, config(4)));
        let b = fight(skirmish(seed, 30), &mut SearchBot::new(seed, config(4)));
        assert_eq!(a, b, "seed {seed}: the same seed, the same fight");
    }
    let mut bot = SearchBot::new(7, config(4));
    fight(skirmish(7, 30), &mut bot);
    let s = bot.stats();
    assert!(s.searched > 0 && s.playouts >= 4 * 2 * s.searched, "{s:?}");
    assert!(s.max_seconds > 0.0 && s.seconds >= s.max_seconds);
}

#[test]
fn the_search_bot_finishes_a_whole_game_and_replays_it() {
    let content = std::sync::Arc::new(Content::builtin().unwrap());
    let bot = BotKind::Search(config(2));
    let options = GameOptions::standard(&["bren", "sil"], 5);
    let (r, log) = play_one(&content, options.clone(), 5, bot, true);
    assert!(r.won || r.loss.is_some());
    let s = r.search.expect("the search bot reports its cost");
    assert!(s.searched > 0, "{s:?}");
    let (again, log_again) = play_one(&content, options, 5, bot, true);
    assert_eq!(log, log_again, "the same seed, the same game");
    assert_eq!(again.won, r.won);
}

/// A fight with both Heroes nearly down, where some choices lose the game and
/// others do not: find the first decision whose candidates differ by at least
/// 0.15 (a sixth of a fight won; measured with 300 playouts each), then check the
/// search's choice (16 playouts, other deals) is as good as the best there.
#[test]
fn the_search_finds_the_clearly_better_choice() {
    let truth = SearchBot::new(1_000, config(300));
    let mut found = 0;
    for seed in 1..40 {
        let mut g = skirmish(seed, 8);
        while g.stage == Stage::Combat {
            let legal = g.legal_actions();
            if legal.len() >= 2 {
                let scores = truth.scores(&g, &legal, 99);
                let best = scores.iter().copied().fold(f64::MIN, f64::max);
                let worst = scores.iter().copied().fold(f64::MAX, f64::min);
                if best - worst >= 0.15 {
                    let choice = SearchBot::new(seed, config(16)).choose(&g);
                    let i = legal.iter().position(|a| *a == choice).unwrap();
                    assert!(
                        scores[i] >= best - 0.05,
                        "seed {seed}: chose {choice:?} scoring {:.3}, the best scores {best:.3} ({legal:?} {scores:?})",
                        scores[i]
                    );
                    found += 1;
                    break;
                }
            }
            g.apply(HeuristicBot.choose(&g)).unwrap();
        }
        if found >= 3 {
            return;
        }
    }
    panic!("only {found} fights with a clearly better choice");
}
