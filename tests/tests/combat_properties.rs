//! Random play: thousands of seeded combats through random legal actions,
//! with the invariants checked after every step; replay and save round-trips.

use depths_rules::action_card::MONSTER_POWER_CARDS;
use depths_rules::effect::{Ability, Activation, Effect, Whom};
use depths_rules::hero::{AbilityCard, HeroClass, OwnedAbility};
use depths_rules::monster::{MonsterCard, MonsterType};
use depths_rules::{Action, CardId, Difficulty, FORMAT_VERSION, Foe, Game, GameRng, Phase, SaveError, Target};
use depths_tests::*;

fn spell(name: &str, activation: Activation, effects: Vec<Effect>, exhaust: bool) -> OwnedAbility {
    OwnedAbility {
        card: AbilityCard {
            id: name.into(),
            class: HeroClass::Wizard,
            ability: Ability { name: name.into(), activation, effects, exhaust_after_use: exhaust },
        },
        exhausted: false,
    }
}

/// A varied pool of Monster Cards exercising every type and monster effect.
fn monster_pool() -> Vec<MonsterCard> {
    let mut pair =
        monster("Twin Lurkers", Difficulty::II, [5, 9, 13], vec![passive("Hide", vec![Effect::Armor { amount: 1 }])]);
    pair.monster_type = MonsterType::Pair;
    pair.health_states = states(&[(2, 2, 2), (1, 1, 2)]);
    let mut horde = monster(
        "Rat Swarm",
        Difficulty::I,
        [2, 4, 6],
        vec![power("Gnaw", vec![Effect::LoseStoredPower { whom: Whom::Hero }])],
    );
    horde.monster_type = MonsterType::Horde(5);
    horde.health_states = states(&[(5, 2, 1), (4, 2, 1), (3, 2, 2), (2, 1, 2), (1, 1, 2)]);
    vec![
        sentient_vapor(),
        shrieking_shroud(),
        withered_shade(),
        skeletal_warriors(),
        pair,
        horde,
        monster(
            "Glass Wraith",
            Difficulty::III,
            [10, 20, 30],
            vec![
                passive("Unreal", vec![Effect::ResistNonMagic, Effect::MonsterCardBonus { amount: 1 }]),
                power("Shatter", vec![Effect::DamageHeroes { amount: 3, whom: Whom::Heroes, ignore_armor: true }]),
                power("Mend", vec![Effect::HealMonster { amount: 3 }]),
            ],
        ),
    ]
}

fn random_game(seed: u64) -> Game {
    let mut rng = GameRng::from_seed(seed);
    let n = 1 + rng.below(3) as usize;
    let heroes: Vec<String> = ["bren", "sil", "ava"][..n]
        .iter()
        .map(|id| if rng.below(2) == 0 { id.to_string() } else { format!("{id}_alt") })
        .collect();
    let mut g = Game::with_heroes(heroes.iter().map(|h| mat(h)).collect(), 1 + rng.below(3) as u8, seed);
    for hero in &mut g.heroes {
        if rng.below(2) == 0 {
            hero.items.push(equipped_item(
                "Mail",
                1,
                rng.below(2) == 0,
                vec![power("Parry", vec![Effect::Armor { amount: 2 }])],
            ));
        }
        if rng.below(2) == 0 {
            hero.abilities.push(spell(
                "Searing Dart",
                Activation::Power(1),
                vec![Effect::DamageMonster { amount: 4, magic: true }],
                true,
            ));
            hero.abilities.push(spell("Recall", Activation::Block, vec![Effect::Retrieve], false));
            hero.abilities.push(spell("Keen Eye", Activation::Power(2), vec![Effect::ReplacePlayedCard], false));
            hero.abilities.push(spell(
                "Hex",
                Activation::Power(1),
                vec![Effect::ModifyMonsterCard { delta: -2 }],
                false,
            ));
        }
    }
    let pool = monster_pool();
    let count = g.heroes.len();
    let foes: Vec<Foe> = match rng.below(6) {
        0 => vec![Foe::final_entity(final_entity(), count)],
        1 | 2 => {
            let a = rng.below(pool.len() as u32) as usize;
            let b = (a + 1 + rng.below(pool.len() as u32 - 1) as usize) % pool.len();
            vec![Foe::monster(pool[a].clone(), count), Foe::monster(pool[b].clone(), count)]
        }
        _ => vec![Foe::monster(pool[rng.below(pool.len() as u32) as usize].clone(), count)],
    };
    g.start_combat(foes);
    g
}

/// Card counts conserved per deck, health within bounds, no Power Card in a hand.
fn check_invariants(g: &Game, hero_cards: &[usize]) {
    let c = g.combat();
    for (h, hero) in g.heroes.iter().enumerate() {
        let on_table: usize = c.map_or(0, |c| {
            c.engagements
                .iter()
                .filter(|e| e.hero as usize == h)
                .map(|e| e.slots.iter().filter(|s| s.hero.is_some()).count())
                .sum()
        });
        assert_eq!(hero.cards_held() + on_table, hero_cards[h], "hero {h} cards conserved");
        assert!(hero.health <= hero.max_health());
        assert!(hero.hand.iter().all(|c| !c.power), "no Power Card in a hand");
        assert!(hero.hand.len() <= 3);
    }
    for deck in &g.monster_decks {
        let on_table: usize = c.map_or(0, |c| {
            c.engagements
                .iter()
                .filter(|e| c.foes[e.foe as usize].difficulty == deck.difficulty)
                .map(|e| {
                    e.slots.iter().filter(|s| s.monster.is_some()).count()
                        + e.unpaired.len()
                        + usize::from(e.waiting.is_some())
                })
                .sum()
        });
        assert_eq!(deck.len_total() + on_table, 20 + MONSTER_POWER_CARDS, "{:?} deck conserved", deck.difficulty);
    }
    if let Some(c) = c {
        for f in &c.foes {
            assert!(f.individuals.iter().all(|i| i.health <= i.max_health));
        }
    }
}

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

#[test]
fn ten_thousand_random_combats_keep_every_invariant() {
    let started = std::time::Instant::now();
    let (mut won, mut lost, mut actions) = (0, 0, 0usize);
    for seed in 0..10_000u64 {
        let mut g = random_game(seed);
        let hero_cards: Vec<usize> = g.heroes.iter().map(|h| h.cards_held()).collect();
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
            check_invariants(&g, &hero_cards);
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
