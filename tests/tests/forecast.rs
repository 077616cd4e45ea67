//! Forecasts that do not cheat: a forecast is the same whatever the real
//! hidden order is, and its figures agree with what the simulator measures.

use depths_rules::{Action, Content, Event, Game, GameOptions, Phase, Stage};
use depths_sim::playout::playout_seed;
use depths_sim::{Bot, BotKind, Forecaster, HeuristicBot, Kind, play_many};
use depths_tests::hidden::other_hidden_orders;
use depths_tests::two_against_two;

fn options() -> GameOptions {
    GameOptions::standard(&["bren", "sil"], 0)
}

fn new_game(seed: u64) -> Game {
    Game::new(GameOptions { seed, ..options() }, Content::builtin().unwrap()).unwrap()
}

/// Plays the careful bot from a new game until `stop` says so; returns the
/// game and the bot's next action.
fn careful_until(seed: u64, stop: impl Fn(&Game, &Action) -> bool) -> (Game, Action) {
    for s in seed..seed + 50 {
        let mut g = new_game(s);
        let mut bot = HeuristicBot;
        while !g.is_over() {
            let a = bot.choose(&g);
            if stop(&g, &a) {
                return (g, a);
            }
            g.apply(a).unwrap();
        }
    }
    panic!("no such situation from seed {seed}");
}

/// Just before an Encounter that starts a Combat.
fn before_a_fight(seed: u64) -> (Game, Action) {
    careful_until(seed, |g, a| {
        let mut next = g.clone();
        matches!(a, Action::Encounter { .. }) && next.apply(a.clone()).is_ok() && next.stage == Stage::Combat
    })
}

/// A tile in hand, before the careful bot places it.
fn tile_in_hand(seed: u64) -> Game {
    careful_until(seed, |g, _| {
        matches!(g.phase(), Phase::Exploring { tile_in_hand: true, .. })
            && g.adventure().unwrap().record.tiles_placed >= 3
    })
    .0
}

fn forecast(g: &Game, kind: Kind, seed: u64, playouts: usize) -> depths_sim::Estimate {
    let mut f = Forecaster::new(g, kind, seed);
    f.run(playouts);
    f.estimate()
}

#[test]
fn a_forecast_is_the_same_whatever_the_real_hidden_order_is() {
    let (fight, encounter) = before_a_fight(3);
    let mut in_combat = fight.clone();
    in_combat.apply(encounter.clone()).unwrap();
    let tile = tile_in_hand(4);
    let cases = [
        (fight, Kind::Fight { first: Some(encounter) }),
        (in_combat, Kind::Fight { first: None }),
        (tile, Kind::DeadEnd { first: None }),
        (new_game(5), Kind::Game { first: None }),
    ];
    for (g, kind) in cases {
        let other = other_hidden_orders(&g);
        assert_ne!(other, g);
        let a = forecast(&g, kind.clone(), 77, 12);
        let b = forecast(&other, kind.clone(), 77, 12);
        assert_eq!(a, b, "{}", kind.name());
        // And another real deal of the same table.
        let c = forecast(&g.determinized(1234), kind.clone(), 77, 12);
        assert_eq!(a, c, "{}", kind.name());
    }
}

#[test]
fn a_fight_forecast_gives_the_chance_and_each_heros_damage() {
    let (g, encounter) = before_a_fight(6);
    let mut f = Forecaster::new(&g, Kind::Fight { first: Some(encounter) }, 1);
    f.run(30);
    let e = f.estimate();
    assert_eq!(e.playouts, 30);
    assert_eq!(e.no_fight, 0, "every playout fought");
    assert_eq!(e.damage.len(), g.heroes.len());
    assert!((0.0..=1.0).contains(&e.chance.value));
    assert!(e.chance.half_width > 0.0 && e.chance.half_width < 0.5);
    assert!(e.damage.iter().any(|d| d.value > 0.0), "a fight hurts someone: {e:?}");
    for d in &e.damage {
        assert!(d.half_width.is_finite());
    }
    // More playouts narrow the figure.
    f.run(90);
    assert!(f.estimate().chance.half_width < e.chance.half_width);
}

#[test]
fn a_forecast_is_for_its_situation_only() {
    let g = new_game(8);
    let f = Forecaster::new(&g, Kind::Game { first: None }, 1);
    assert!(f.is_for(&g));
    let mut moved = g.clone();
    let a = HeuristicBot.choose(&moved);
    moved.apply(a).unwrap();
    assert!(!f.is_for(&moved), "the situation changed: drop the forecast");
}

#[test]
fn a_forecaster_can_run_in_a_background_task() {
    fn send<T: Send + 'static>(_: &T) {}
    let g = new_game(9);
    let mut f = Forecaster::new(&g, Kind::Game { first: None }, 2);
    send(&f);
    let f = std::thread::spawn(move || {
        f.run_until(std::time::Duration::from_millis(1), |_| false);
        f
    })
    .join()
    .unwrap();
    assert!(f.estimate().playouts >= 1);
    assert!(f.playouts_per_second() > 0.0);
}

/// The client's chunks stop as soon as the figure will do (shown at once)
/// or the situation has passed (the pool is free for the new one's).
#[test]
fn a_forecaster_stops_when_its_figures_will_do() {
    let g = new_game(9);
    let mut f = Forecaster::new(&g, Kind::Game { first: None }, 2);
    f.run_until(std::time::Duration::from_secs(600), |e| e.playouts >= 5);
    assert_eq!(f.estimate().playouts, 5);
    f.run_until(std::time::Duration::from_secs(600), |_| true);
    assert_eq!(f.estimate().playouts, 6, "at least one playout a chunk");
}

#[test]
fn playouts_are_dealt_from_different_seeds() {
    let seeds: std::collections::BTreeSet<u64> = (0..1000).map(|i| playout_seed(42, i)).collect();
    assert_eq!(seeds.len(), 1000);
    assert_ne!(playout_seed(1, 0), playout_seed(2, 0));
}

/// |a − b| within the two 95% half-widths combined (about a 95% test of the difference).
fn agrees(a: depths_sim::Figure, b: depths_sim::Figure) -> bool {
    (a.value - b.value).abs() <= (a.half_width.powi(2) + b.half_width.powi(2)).sqrt()
}

/// From a new standard game the players know nothing but the rules, so the
/// forecast must match the careful bot's win rate over other seeds, and its
/// Dead End figure the share of games lost to a Dead End in the Ruins.
fn forecast_agrees_with_the_simulator(games: u64) {
    let g = new_game(1_000_000);
    let content = std::sync::Arc::new(Content::builtin().unwrap());
    let results = play_many(&content, &options(), 5_000, games, BotKind::Heuristic, 1);
    let wins = results.iter().filter(|r| r.won).count() as u64;
    let dead_ends = results.iter().filter(|r| r.loss.as_deref() == Some("dead end in Ruins")).count() as u64;
    let measured = depths_sim::Figure::share(wins, games);
    let measured_dead_end = depths_sim::Figure::share(dead_ends, games);

    let whole = forecast(&g, Kind::Game { first: None }, 9, games as usize);
    let dead_end = forecast(&g, Kind::DeadEnd { first: None }, 9, games as usize);
    println!("win: forecast {} simulator {}", whole.chance, measured);
    println!("dead end in the Ruins: forecast {} simulator {}", dead_end.chance, measured_dead_end);
    assert!(agrees(whole.chance, measured), "win: forecast {} simulator {}", whole.chance, measured);
    assert!(
        agrees(dead_end.chance, measured_dead_end),
        "dead end: forecast {} simulator {}",
        dead_end.chance,
        measured_dead_end
    );
}

#[test]
fn the_whole_game_forecast_stays_inside_the_simulators_rate() {
    forecast_agrees_with_the_simulator(60);
}

/// The same with 1,000 games each (about a minute in release):
/// `cargo test --release -p depths_tests --test forecast -- --ignored --nocapture`.
#[test]
#[ignore]
fn the_whole_game_forecast_stays_inside_the_simulators_rate_long() {
    forecast_agrees_with_the_simulator(1000);
}

/// The fight forecast against fights really dealt: the same skirmish from
/// other seeds, played by the careful bot, with its win rate and the damage
/// each Hero took.
#[test]
fn the_fight_forecast_stays_inside_the_measured_rate_and_damage() {
    let n = 1000;
    let start = two_against_two(1);
    assert_eq!(start.determinized(5), two_against_two(2).determinized(5), "every seed shows the same table");
    let mut wins = 0;
    let mut damage = vec![(0.0, 0.0); 2];
    for seed in 1_000..1_000 + n {
        let mut g = two_against_two(seed);
        let mut bot = HeuristicBot;
        let mut taken = [0u32; 2];
        while g.stage == Stage::Combat {
            let a = bot.choose(&g);
            for e in g.apply(a).unwrap() {
                if let Event::HeroDamaged { hero, amount } = e {
                    taken[usize::from(hero)] += u32::from(amount);
                }
            }
        }
        wins += u64::from(!matches!(g.phase(), Phase::Lost(_)));
        for (h, d) in taken.iter().enumerate() {
            damage[h].0 += f64::from(*d);
            damage[h].1 += f64::from(*d).powi(2);
        }
    }
    let measured = depths_sim::Figure::share(wins, n);
    let e = forecast(&start, Kind::Fight { first: None }, 3, n as usize);
    println!("win: forecast {} measured {}", e.chance, measured);
    assert!(agrees(e.chance, measured), "win: forecast {} measured {}", e.chance, measured);
    for (h, (sum, sq)) in damage.into_iter().enumerate() {
        let m = depths_sim::Figure::mean(sum, sq, n);
        let f = e.damage[h];
        println!(
            "damage to hero {h}: forecast {:.2} ± {:.2} measured {:.2} ± {:.2}",
            f.value, f.half_width, m.value, m.half_width
        );
        assert!(agrees(f, m), "hero {h}: forecast {f:?} measured {m:?}");
    }
}
