//! Random play: thousands of seeded combats through random legal actions,
//! with the invariants checked after every step; replay and save round-trips.

use depths_rules::{Action, CardId, CombatStep, FORMAT_VERSION, Game, GameRng, Phase, SaveError, Target};
use depths_tests::properties::{Census, check_invariants};
use depths_tests::*;

/// Arbitrary (mostly illegal) actions, to check that `check` accepts nothing
/// that `legal_actions` leaves out.
fn arbitrary_action(rng: &mut GameRng) -> Action {
    let hero = rng.below(4) as u8;
    let small = |rng: &mut GameRng| rng.below(3) as u8;
    match rng.below(8) {
        0 => Action::AssignMonsters { foes: (0..1 + rng.below(3)).map(|_| small(rng)).collect() },
        1 => Action::PlayCard { hero, card: CardId(rng.below(16) as u16) },
        2 => Action::PlaceMonsterCard { hero, slot: small(rng) },
        3 => Action::ActivateAbility {
            hero,
            source: depths_rules::AbilitySource::Mat(small(rng)),
            target: match rng.below(3) {
                0 => Target::None,
                1 => Target::Engagement(small(rng)),
                _ => Target::Individual { foe: small(rng), individual: small(rng) },
            },
        },
        4 => Action::ChoosePair { hero, engagement: small(rng), slot: small(rng) },
        5 => Action::EndTurn { hero },
        6 => Action::AssignDamage { hero, individual: rng.below(6) as u8 },
        _ => Action::AvoidReturnDamage { hero },
    }
}

/// "Important! Avoiding Return Damage", then the Monsters' Damage at the
/// Round's end: what the table shows before the choice is what the choice
/// brings. Each choice's preview (`Game::health_after_round`, the rules on
/// a copy) is the Health the action leaves, and for every Hero who does not
/// avoid it is the Hero mat's "when this Round ends" figure
/// (`Game::hero_damage_due`) taken off; avoiding never costs Health; and
/// that figure is what the Hero's resolved pairs' frames say they take
/// (`Game::pair_takes`). Over 4,000 random combats, at every step.
#[test]
fn the_round_ends_previews_are_what_the_round_end_deals() {
    let mut checked = 0;
    for seed in 0..4_000u64 {
        let mut g = random_game(seed);
        let mut rng = GameRng::from_seed(seed ^ 0x5EED);
        let mut steps = 0;
        while matches!(g.phase(), Phase::Combat { .. }) && steps < 5_000 {
            let legal = g.legal_actions();
            let c = g.combat().expect("in Combat");
            // The pairs' frames and the mats agree: a mat's figure is its
            // Hero's resolved pairs' "takes" (after Armor) and the Items' cost.
            for (h, hero) in g.heroes.iter().enumerate() {
                let pairs: u16 = (c.engagements.iter().enumerate())
                    .filter(|(_, e)| usize::from(e.hero) == h)
                    .filter_map(|(i, e)| g.pair_takes(i, usize::from(e.chosen?)))
                    .map(u16::from)
                    .sum();
                let want = (pairs + u16::from(hero.wound_each_round())).min(u16::from(hero.health));
                assert_eq!(u16::from(g.hero_damage_due(h as u8)), want, "seed {seed}: Hero {h}'s frames and mat");
            }
            if c.step == CombatStep::AvoidReturnDamage && c.avoid_queue.len() == 1 {
                let health: Vec<u8> = g.heroes.iter().map(|h| h.health).collect();
                let due: Vec<u8> = (0..g.heroes.len() as u8).map(|h| g.hero_damage_due(h)).collect();
                for a in legal.iter().filter(|a| matches!(a, Action::AvoidReturnDamage { .. })) {
                    let &Action::AvoidReturnDamage { hero } = a else { unreachable!() };
                    let preview = g.health_after_round(a).expect("the last choice brings the Damage");
                    let mut applied = g.clone();
                    applied.apply(a.clone()).expect("legal");
                    let after: Vec<u8> = applied.heroes.iter().map(|h| h.health).collect();
                    assert_eq!(preview, after, "seed {seed}: {a:?}");
                    for k in 0..health.len() {
                        if k == usize::from(hero) {
                            assert!(after[k] >= health[k] - due[k], "seed {seed}: avoiding cost Hero {k} Health");
                        } else {
                            assert_eq!(after[k], health[k] - due[k], "seed {seed}: Hero {k}'s mat said −{}", due[k]);
                        }
                    }
                    checked += 1;
                }
            }
            let pick = legal[rng.below(legal.len() as u32) as usize].clone();
            g.apply(pick).expect("legal actions apply");
            steps += 1;
        }
    }
    assert!(checked > 50, "only {checked} choices of who avoids were met");
}

#[test]
fn ten_thousand_random_combats_keep_every_invariant() {
    let started = std::time::Instant::now();
    let (mut won, mut lost, mut actions) = (0, 0, 0usize);
    for seed in 0..10_000u64 {
        let mut g = random_game(seed);
        let census = Census::of(&g);
        let mut rng = GameRng::from_seed(seed ^ 0xABCD);
        let mut steps = 0;
        while matches!(g.phase(), Phase::Combat { .. }) {
            let legal = g.legal_actions();
            assert!(!legal.is_empty(), "seed {seed}: stuck in {:?}", g.combat().map(|c| c.step));
            if seed % 10 == 0 {
                let probe = arbitrary_action(&mut rng);
                if g.check(&probe).is_ok() {
                    assert!(legal.contains(&probe), "seed {seed}: check accepts {probe:?} missing from legal_actions");
                } else {
                    let before = g.clone();
                    assert!(g.apply(probe).is_err());
                    assert_eq!(g, before, "a refused action changes nothing");
                }
            }
            let pick = legal[rng.below(legal.len() as u32) as usize].clone();
            g.apply(pick).expect("legal actions apply");
            check_invariants(&g, &census).unwrap_or_else(|m| panic!("seed {seed}: {m}"));
            steps += 1;
            assert!(steps < 5_000, "seed {seed}: combat did not end");
        }
        actions += steps;
        match g.phase() {
            Phase::Won => won += 1,
            Phase::Lost(_) => lost += 1,
            ref p => panic!("seed {seed}: ended in {p:?}"),
        }
    }
    assert_eq!(won + lost, 10_000);
    assert!(won > 0 && lost > 0, "both outcomes happen: {won} won, {lost} lost");
    eprintln!("10,000 random combats: {won} won, {lost} lost, {actions} actions in {:?}", started.elapsed());
}

fn play_random(seed: u64, steps: usize) -> (Game, Vec<Action>) {
    let mut g = random_game(seed);
    let mut rng = GameRng::from_seed(seed);
    let mut log = Vec::new();
    for _ in 0..steps {
        let legal = g.legal_actions();
        if legal.is_empty() {
            break;
        }
        let a = legal[rng.below(legal.len() as u32) as usize].clone();
        log.push(a.clone());
        g.apply(a).unwrap();
    }
    (g, log)
}

/// "All randomness comes from one seeded RNG stored in the state": the same
/// seed and actions replay to the same state.
#[test]
fn same_seed_and_actions_replay_to_the_same_state() {
    for seed in [1u64, 2, 3, 99] {
        let (a, log) = play_random(seed, 40);
        let mut b = random_game(seed);
        for action in log {
            b.apply(action).unwrap();
        }
        assert_eq!(a, b);
        let (c, _) = play_random(seed + 1000, 40);
        assert_ne!(a, c, "different seeds differ");
    }
}

/// A mid-combat state round-trips through a JSON save unchanged and plays on identically.
#[test]
fn mid_combat_save_round_trips_and_continues_identically() {
    for seed in 0..50u64 {
        let (g, _) = play_random(seed, 7);
        let text = g.save_json();
        let mut loaded = Game::load_json(&text).expect("loads");
        assert_eq!(loaded, g);
        let mut original = g.clone();
        let mut rng = GameRng::from_seed(seed);
        for _ in 0..30 {
            let legal = original.legal_actions();
            assert_eq!(legal, loaded.legal_actions());
            if legal.is_empty() {
                break;
            }
            let a = legal[rng.below(legal.len() as u32) as usize].clone();
            assert_eq!(original.apply(a.clone()), loaded.apply(a));
        }
        assert_eq!(original, loaded);
    }
}

#[test]
fn saves_carry_a_format_version_and_bad_saves_get_a_message() {
    let (g, _) = play_random(5, 3);
    let text = g.save_json();
    assert!(text.contains("\"format_version\":1"));
    let future = text.replacen("\"format_version\":1", "\"format_version\":999", 1);
    let err = Game::load_json(&future).unwrap_err();
    assert_eq!(err, SaveError::NewerFormat { found: 999, supported: FORMAT_VERSION });
    assert_eq!(err.to_string(), "save format 999 is newer than this game understands (1)");
    // Cut short before the header is even whole: not recognisably a save.
    let err = Game::load_json("{\"format_version\":1,\"rng\":").unwrap_err();
    assert!(matches!(err, SaveError::NotASave { .. }), "{err:?}");
    let err = Game::load_json("not json").unwrap_err();
    let SaveError::NotASave { reason } = &err else { panic!("{err:?}") };
    assert_eq!(err.to_string(), format!("not a Forgotten Depths save: {reason}"));
    let err = Game::load_json("{\"heroes\": []}").unwrap_err();
    assert!(matches!(&err, SaveError::NotASave { reason } if reason.contains("format_version")), "{err:?}");
}

/// A save of a known format whose data is damaged says where: line and column.
#[test]
fn a_corrupt_save_names_the_line_and_column() {
    let (g, _) = play_random(5, 3);
    assert!(matches!(g.phase(), Phase::Combat { .. }));
    let value: serde_json::Value = serde_json::from_str(&g.save_json()).unwrap();
    let pretty = serde_json::to_string_pretty(&value).unwrap();
    let bad = pretty.replacen("\"stage\": \"Combat\"", "\"stage\": \"Nowhere\"", 1);
    assert_ne!(bad, pretty);
    let (at, text) = bad.lines().enumerate().find(|(_, l)| l.contains("Nowhere")).unwrap();
    let start = text.find("\"Nowhere\"").unwrap();
    let err = Game::load_json(&bad).unwrap_err();
    let SaveError::Corrupt { line, column, reason } = &err else { panic!("{err:?}") };
    assert_eq!(*line, at + 1, "{err}");
    assert!((start + 1..=start + "\"Nowhere\"".len()).contains(column), "{err}: the value spans from {}", start + 1);
    assert!(reason.contains("Nowhere") && !reason.contains(" at line "), "{reason}");
    assert_eq!(err.to_string(), format!("corrupt save: {reason} at line {line} column {column}"));
}

/// "Apply Damage" / the Monsters' side of the Resolved pairs: what the table
/// shows a Hero will take (`Game::hero_damage_due`) is what the Round's end
/// then takes, unless that last move let Heroes avoid Return Damage (then
/// never more).
#[test]
fn the_damage_shown_as_due_is_the_damage_the_round_deals() {
    let (mut exact, mut hurt) = (0, 0);
    for seed in 0..2_000u64 {
        let mut g = random_game(seed);
        let mut rng = GameRng::from_seed(seed ^ 0x5EED);
        while matches!(g.phase(), Phase::Combat { .. }) {
            let due: Vec<u8> = (0..g.heroes.len() as u8).map(|h| g.hero_damage_due(h)).collect();
            let legal = g.legal_actions();
            let pick = legal[rng.below(legal.len() as u32) as usize].clone();
            let events = g.apply(pick).expect("legal actions apply");
            if !events.iter().any(|e| matches!(e, depths_rules::Event::RoundEnded { .. })) {
                continue;
            }
            let avoided = events.iter().any(|e| matches!(e, depths_rules::Event::ReturnDamageAvoided { .. }));
            for (h, due) in due.iter().enumerate() {
                // Only the damage dealt at the Round's end (not a Monster
                // ability's during the steps before it).
                let taken: u8 = events
                    .iter()
                    .filter_map(|e| match e {
                        depths_rules::Event::HeroDamaged { hero, amount } if usize::from(*hero) == h => Some(*amount),
                        _ => None,
                    })
                    .sum();
                if avoided {
                    assert!(taken <= *due, "seed {seed}: Hero {h} took {taken}, more than the {due} shown");
                } else {
                    assert_eq!(taken, *due, "seed {seed}: Hero {h} took {taken}, {due} was shown");
                    exact += 1;
                    hurt += usize::from(taken > 0);
                }
            }
        }
    }
    assert!(exact > 1000 && hurt > 300, "compared {exact} Round ends, {hurt} with damage");
}
