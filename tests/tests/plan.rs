//! The planning bot: legal actions only, the same game from the same seed,
//! blind to the hidden orders, and its Exploring decisions really searched.

use depths_rules::{Action, Content, Game, GameOptions};
use depths_sim::plan::{DecisionKind, explore_seed};
use depths_sim::{Bot, HeuristicBot, PlanBot, PlanConfig, SearchBot, SearchConfig};
use depths_tests::hidden::other_hidden_orders;

/// A small search, for speed: the figures of a real one are in
/// docs/balance.md.
fn config(playouts: u32) -> PlanConfig {
    PlanConfig {
        combat: SearchConfig { playouts: 2, ..SearchConfig::default() },
        playouts,
        placements: 3,
        horizon: 120,
        ..PlanConfig::default()
    }
}

fn new_game(seed: u64) -> Game {
    Game::new(GameOptions::standard(&["bren", "sil"], seed), Content::builtin().unwrap()).unwrap()
}

/// Plays `actions` actions of the game of `seed` (or to its end) with `bot`,
/// each checked against the legal actions of its moment.
fn play(seed: u64, actions: usize, bot: &mut dyn Bot) -> Vec<Action> {
    let mut g = new_game(seed);
    let mut log = Vec::new();
    while !g.is_over() && log.len() < actions {
        let a = bot.choose(&g);
        assert!(g.legal_actions().contains(&a), "seed {seed}: {a:?} is not legal here");
        g.apply(a.clone()).unwrap();
        log.push(a);
    }
    log
}

/// The game of `seed` played by the careful bot until `n` decisions of
/// `kind` with more than one candidate have passed; `None` if it ends first.
fn careful_until(seed: u64, kind: DecisionKind, n: usize) -> Option<Game> {
    let mut g = new_game(seed);
    let bot = PlanBot::new(seed, config(2));
    let mut seen = 0;
    while !g.is_over() {
        let careful = HeuristicBot.choose(&g);
        if PlanBot::kind(&g) == kind && bot.candidates(&g, &careful).len() >= 2 {
            if seen == n {
                return Some(g);
            }
            seen += 1;
        }
        g.apply(careful).unwrap();
    }
    None
}

#[test]
fn the_planning_bot_chooses_legal_actions_and_replays_from_its_seed() {
    for seed in [3, 4] {
        let mut bot = PlanBot::new(seed, config(2));
        let a = play(seed, 400, &mut bot);
        let b = play(seed, 400, &mut PlanBot::new(seed, config(2)));
        assert_eq!(a, b, "seed {seed}: the same seed, the same game");
        let s = bot.stats();
        assert!(s.explored > 0 && s.explore_playouts >= 2 * 2 * s.explored, "{s:?}");
        assert!(s.searched > 0, "Combat is searched too: {s:?}");
        assert!(s.explore_max_seconds > 0.0 && s.explore_seconds >= s.explore_max_seconds, "{s:?}");
    }
}

#[test]
fn the_planning_bot_never_reads_a_hidden_order() {
    for (seed, kind, n) in
        [(1, DecisionKind::Placement, 3), (2, DecisionKind::Explore, 4), (6, DecisionKind::Explore, 9)]
    {
        let g = careful_until(seed, kind, n).expect("the decision comes");
        let other = other_hidden_orders(&g);
        assert_ne!(other, g, "the test must change a hidden order");
        let bot = PlanBot::new(seed, config(4));
        let careful = HeuristicBot.choose(&g);
        let candidates = bot.candidates(&g, &careful);
        assert_eq!(candidates, bot.candidates(&other, &careful));
        let (a, b) = (bot.scores(&g, &candidates, 9), bot.scores(&other, &candidates, 9));
        assert_eq!(a, b, "seed {seed}: {candidates:?}");
        for s in 0..3 {
            let c = PlanBot::new(s, config(4)).choose(&g);
            assert_eq!(c, PlanBot::new(s, config(4)).choose(&other), "seed {seed}, bot seed {s}");
        }
    }
}

/// Where a tile goes is searched among several places, and what to do next
/// among several actions; over a game some of the careful bot's choices are
/// changed, and each change is to a candidate the search scored strictly
/// better on the same worlds.
#[test]
fn the_planning_bot_searches_the_exploring() {
    let g = careful_until(1, DecisionKind::Placement, 0).expect("a tile to place");
    let bot = PlanBot::new(1, config(4));
    let careful = HeuristicBot.choose(&g);
    let c = bot.candidates(&g, &careful);
    assert!(c.len() >= 2 && c.iter().all(|a| matches!(a, Action::PlaceTile { .. })), "{c:?}");
    assert_eq!(c[0], careful);
    let g = careful_until(2, DecisionKind::Explore, 0).expect("a choice of what next");
    let careful = HeuristicBot.choose(&g);
    let c = bot.candidates(&g, &careful);
    assert!(c.len() >= 2 && c.contains(&Action::DrawTile), "{c:?}");

    let mut changed = 0;
    for seed in 5..9 {
        let mut bot = PlanBot::new(seed, config(4));
        let mut g = new_game(seed);
        while !g.is_over() && changed < 3 {
            let careful = HeuristicBot.choose(&g);
            let kind = PlanBot::kind(&g);
            let before = bot.stats();
            let a = bot.choose(&g);
            if matches!(kind, DecisionKind::Placement | DecisionKind::Explore) && a != careful {
                let s = bot.stats();
                assert_eq!(s.explore_changed, before.explore_changed + 1);
                // The same worlds as the decision's: the search's own figures.
                let candidates = bot.candidates(&g, &careful);
                let scores = bot.scores(&g, &candidates, explore_seed(seed, before.explored));
                let i = candidates.iter().position(|c| *c == a).expect("a candidate");
                assert!(scores[i] > scores[0], "{a:?} over {careful:?}: {scores:?}");
                changed += 1;
            }
            g.apply(a).unwrap();
        }
    }
    assert!(changed >= 3, "the search changed only {changed} Exploring choices in four games");
}

/// A Companion seat: in a fight, the choice for one Hero is that Hero's own
/// and legal, or nothing when that Hero has nothing to do.
#[test]
fn a_companion_seat_gets_its_own_heros_choice() {
    let mut g = depths_tests::two_against_two(3);
    let mut bot = PlanBot::new(3, config(2));
    let (mut mine, mut none) = (0, 0);
    while g.stage == depths_rules::Stage::Combat && mine + none < 200 {
        for hero in 0..2u8 {
            match bot.choose_for(&g, hero) {
                Some(a) => {
                    assert!(g.legal_actions().contains(&a), "{a:?} is not legal here");
                    assert!(HeuristicBot.choose_for(&g, hero).is_some());
                    assert!(
                        depths_sim::combat_hero(&a).is_none_or(|h| h == hero),
                        "{a:?} is for another Hero than {hero}"
                    );
                    mine += 1;
                }
                None => {
                    assert_eq!(HeuristicBot.choose_for(&g, hero), None);
                    none += 1;
                }
            }
        }
        let a = bot.choose_for(&g, 0).or_else(|| bot.choose_for(&g, 1)).unwrap_or_else(|| HeuristicBot.choose(&g));
        g.apply(a).unwrap();
    }
    assert!(mine > 0 && bot.stats().searched > 0, "{mine} {:?}", bot.stats());
}

/// In a fight, with no race the choice is the search bot's over the same
/// worlds; racing plays more worlds only for close choices, within its bound.
#[test]
fn close_combat_choices_get_more_worlds() {
    let combat = SearchConfig { playouts: 4, ..SearchConfig::default() };
    let flat = PlanBot::new(3, PlanConfig { combat, race_rounds: 0, ..config(2) });
    let racing = PlanBot::new(3, PlanConfig { combat, race_rounds: 2, race_keep: 2, ..config(2) });
    let search = SearchBot::new(3, combat);
    let mut g = depths_tests::two_against_two(3);
    let (mut searched, mut raced) = (0, 0);
    while g.stage == depths_rules::Stage::Combat && searched < 40 {
        let careful = HeuristicBot.choose(&g);
        let legal = g.legal_actions();
        if legal.len() >= 2 {
            let mut candidates = vec![careful.clone()];
            candidates.extend(legal.into_iter().filter(|a| *a != careful));
            let (k, seed) = (candidates.len() as u64, 17 + searched);
            let scores = search.scores(&g, &candidates, seed);
            let first_best = (0..scores.len()).fold(0, |b, c| if scores[c] > scores[b] { c } else { b });
            assert_eq!(flat.race(&g, &candidates, seed), (first_best, k * 4));
            let (_, played) = racing.race(&g, &candidates, seed);
            assert!(played >= k * 4 && played <= k * 4 + 2 * 2 * 4, "{played} playouts for {k} candidates");
            raced += u64::from(played > k * 4);
            searched += 1;
        }
        g.apply(careful).unwrap();
    }
    assert!(searched > 0 && raced > 0, "{raced} of {searched} decisions raced");
}
