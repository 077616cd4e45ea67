//! The phase machine: `Game::phase()` says where play stands in the book's
//! words, and every Action is accepted only in the phases the book allows.

use depths_rules::adventure::Purchase;
use depths_rules::map::Placement;
use depths_rules::{Action, Decision, Ecology, Encountering, Game, GameOptions, Phase, RuleError, Variants};
use depths_tests::fixture::fixture;
use depths_tests::*;

/// One Action of each kind, to probe what a phase refuses.
fn probes() -> Vec<Action> {
    vec![
        Action::DrawTile,
        Action::PlaceTile { placement: Placement { cell: (1, 0), rotation: Default::default() } },
        Action::Encounter { element: element_at((1, 0)) },
        Action::StartPurchase { what: Purchase::Key },
        Action::StartPurchase { what: Purchase::Ability { hero: 0 } },
        Action::Equip { hero: 0, item: 0 },
        Action::FinishLevelUp,
        Action::Descend,
        Action::AssignMonsters { foes: vec![0] },
        Action::PlayCard { hero: 0, card: depths_rules::CardId(0) },
        Action::EndTurn { hero: 0 },
    ]
}

/// "Gameplay alternates back and forth between two main activities, Exploring
/// and Encountering", Combat's steps, then "Level Up", "Passage to Next
/// Ecology", and the end: each is a phase, and each legal Action is one the
/// phase admits.
#[test]
fn a_whole_game_goes_through_the_books_phases() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..6 {
        let mut o = GameOptions::standard(&["bren", "sil"], seed);
        o.variants = Variants::default();
        let mut g = Game::new(o, fixture()).expect("setup");
        let mut steps = 0;
        while !g.is_over() && steps < 3000 {
            let phase = g.phase();
            seen.insert(match &phase {
                Phase::Exploring { tile_in_hand: true, .. } => "Exploring with a tile in hand".to_string(),
                Phase::Exploring { decision: Some(_), .. } => "Exploring, paying".to_string(),
                Phase::Encountering { element, .. } => format!("Encountering {element:?}"),
                Phase::Combat { step } => format!("Combat {step:?}"),
                p => p.name().to_string(),
            });
            assert_eq!(g.in_combat(), matches!(phase, Phase::Combat { .. }), "in_combat agrees with {phase:?}");
            let legal = g.legal_actions();
            for a in &legal {
                assert_eq!(phase.admits(a), Ok(()), "{a:?} is legal in {phase:?}");
            }
            for p in probes() {
                if phase.admits(&p).is_err() {
                    assert_eq!(g.check(&p), phase.admits(&p), "{p:?} in {phase:?}");
                }
            }
            let a = steady_policy(&g);
            act(&mut g, a);
            steps += 1;
        }
        seen.insert(g.phase().name().to_string());
    }
    for wanted in [
        "Exploring",
        "Exploring with a tile in hand",
        "Encountering Feature",
        "Encountering Chest",
        "Combat PlayCards",
        "Combat Resolve",
        "Level Up",
        "Passage to Next Ecology",
    ] {
        assert!(seen.contains(wanted), "never saw {wanted}: {seen:?}");
    }
    assert!(seen.contains("Won") || seen.contains("Lost"));
}

/// "Starting at a Lower Ecology … All Heroes Gain 1 Ability. Use the process
/// described in Level Up": the game begins in Setup with that choice, and
/// nothing of Exploring may happen before it is made.
#[test]
fn a_lower_start_begins_in_setup() {
    let mut o = GameOptions::standard(&["bren"], 4);
    o.start = Ecology::Caverns;
    let mut g = Game::new(o, fixture()).expect("setup");
    assert!(matches!(g.phase(), Phase::Setup { decision: Decision::ChooseAbility { hero: 0 } }), "{:?}", g.phase());
    assert_eq!(g.check(&Action::DrawTile), Err(RuleError::NotWhileEncountering));
    while matches!(g.phase(), Phase::Setup { .. }) {
        let a = g.legal_actions()[0].clone();
        act(&mut g, a);
    }
    assert_eq!(g.phase(), Phase::Exploring { tile_in_hand: false, decision: None });
}

/// "Encountering": from the choice to Encounter until it is Resolved, the
/// phase names the element and the choice it waits for.
#[test]
fn encountering_names_the_element_and_the_choice() {
    let mut g = Game::new(GameOptions::standard(&["bren", "sil"], 2), fixture()).expect("setup");
    lay(&mut g, "ruins-chest", (1, 0));
    act(&mut g, Action::Encounter { element: element_at((1, 0)) });
    assert_eq!(g.phase(), Phase::Encountering { element: Encountering::Chest, decision: Some(Decision::ChooseHero) });
    act(&mut g, Action::ChooseHero { hero: 0 });
    // The Item may Add and Remove Action Cards: still the Chest's Encounter.
    while let Phase::Encountering { element, decision: Some(d) } = g.phase() {
        assert_eq!(element, Encountering::Chest);
        assert!(matches!(d, Decision::RemoveCards { hero: 0, .. } | Decision::ChooseItem { hero: 0 }), "{d:?}");
        let a = g.legal_actions()[0].clone();
        act(&mut g, a);
    }
    assert_eq!(g.phase(), Phase::Exploring { tile_in_hand: false, decision: None }, "Resolved: back to Exploring");
    give_xp(&mut g, &[5]);
    act(&mut g, Action::DrawTile);
    assert!(matches!(g.phase(), Phase::Exploring { tile_in_hand: true, decision: None }));
    g.heroes[0].health -= 1;
    act(&mut g, Action::StartPurchase { what: Purchase::Healing { units: 1 } });
    assert_eq!(
        g.phase(),
        Phase::Exploring {
            tile_in_hand: true,
            decision: Some(Decision::Payment { what: Purchase::Healing { units: 1 } })
        }
    );
    assert_eq!(g.check(&Action::DrawTile), Err(RuleError::DecisionPending));
}

/// A skirmish (a Combat with no adventure around it) is only its fight: no
/// accessor panics, nothing outside Combat is legal, and winning it ends it.
#[test]
fn a_skirmish_is_only_its_fight() {
    let mut g = game_of(&["bren"]);
    stack_hero(&mut g, 0, &[8, 7, 6], &[]);
    stack_monster(&mut g, depths_rules::Difficulty::I, &[2, 2]);
    fight(&mut g, vec![monster("Pale Grub", depths_rules::Difficulty::I, [1, 1, 1], vec![])]);
    assert!(matches!(g.phase(), Phase::Combat { .. }));
    assert_eq!(g.payable_xp(), 0);
    assert!(g.pending().is_none() && g.discovered_legendary_locations().is_empty() && g.party_record().is_none());
    for p in probes().into_iter().take(8) {
        assert!(g.check(&p).is_err(), "{p:?}");
    }
    play(&mut g, 0, &[8, 7]);
    act(&mut g, Action::ChoosePair { hero: 0, engagement: 0, slot: 0 });
    act(&mut g, Action::EndTurn { hero: 0 });
    assert_eq!(g.phase(), Phase::Won);
    assert!(g.legal_actions().is_empty());
    assert_eq!(g.check(&Action::DrawTile), Err(RuleError::GameOver));
}

/// An ability used while Exploring may ask for a choice ("Reveal the next (2)
/// Features. Assign them in any order…"): that is still Exploring, not Setup.
#[test]
fn a_choice_asked_by_an_ability_while_exploring_is_not_setup() {
    let mut g = Game::new(GameOptions::standard(&["sil"], 3), fixture()).expect("setup");
    let seer = depths_rules::Ability {
        name: "Seer".into(),
        activation: depths_rules::Activation::Power(1),
        effects: vec![depths_rules::Effect::RevealFeatures { count: 2 }],
        exhaust_after_use: false,
    };
    give_ability_card(&mut g, 0, "seer", depths_rules::HeroClass::Wizard, seer);
    let source = depths_rules::AbilitySource::Card(0);
    act(&mut g, Action::ActivateAbility { hero: 0, source, target: depths_rules::Target::None });
    assert_eq!(
        g.phase(),
        Phase::Exploring { tile_in_hand: false, decision: Some(Decision::OrderFeatures { count: 2 }) }
    );
    assert_eq!(g.check(&Action::DrawTile), Err(RuleError::DecisionPending));
    act(&mut g, Action::ChooseOption { index: 1 });
    assert_eq!(g.phase(), Phase::Exploring { tile_in_hand: false, decision: None });
}
