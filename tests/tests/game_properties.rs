//! Random play through whole games: no panic, no illegal action accepted,
//! invariants intact, and every game ends in a win or a named loss.

use depths_rules::{Action, Content, Game, GameRng, Phase};
use depths_tests::fixture::fixture;
use depths_tests::properties::{Census, check_invariants};
use depths_tests::random_options;

/// Uniform over legal actions, except that Equip / Unequip / purchases are
/// rare, so that random play makes progress.
fn random_action(g: &Game, rng: &mut GameRng) -> Action {
    let legal = g.legal_actions();
    assert!(!legal.is_empty(), "no legal action in {:?} / {:?}", g.phase(), g.pending());
    let busy: Vec<&Action> = legal
        .iter()
        .filter(|a| {
            !matches!(
                a,
                Action::Equip { .. } | Action::Unequip { .. } | Action::StartPurchase { .. } | Action::CancelPurchase
            )
        })
        .collect();
    if busy.is_empty() || rng.below(20) == 0 {
        legal[rng.below(legal.len() as u32) as usize].clone()
    } else {
        busy[rng.below(busy.len() as u32) as usize].clone()
    }
}

/// Arbitrary actions of every Exploring kind, mostly illegal.
fn arbitrary_action(g: &Game, rng: &mut GameRng) -> Action {
    use depths_rules::adventure::{Purchase, XpRef};
    use depths_rules::map::{ElementRef, Placement, Rotation};
    let small = |rng: &mut GameRng| rng.below(4) as u8;
    let tiles = g.adventure().unwrap().ecology.map.tiles();
    let cell = tiles[rng.below(tiles.len() as u32) as usize].cell;
    let near = (cell.0 + rng.below(3) as i32 - 1, cell.1 + rng.below(3) as i32 - 1);
    let element = ElementRef { cell, area: rng.below(2) as u8, element: rng.below(2) as u8 };
    match rng.below(12) {
        0 => Action::DrawTile,
        1 => Action::PlaceTile { placement: Placement { cell: near, rotation: Rotation::default() } },
        2 => Action::Encounter { element },
        3 => Action::EncounterLegendary { index: small(rng) },
        4 => Action::StartPurchase {
            what: match rng.below(3) {
                0 => Purchase::Key,
                1 => Purchase::Healing { units: small(rng) },
                _ => Purchase::Ability { hero: small(rng) },
            },
        },
        5 => Action::PayXp {
            card: if rng.below(2) == 0 {
                XpRef::Pool(small(rng))
            } else {
                XpRef::Item { hero: small(rng), item: small(rng) }
            },
        },
        6 => Action::ChooseHero { hero: small(rng) },
        7 => Action::ChooseOption { index: small(rng) },
        8 => Action::Equip { hero: small(rng), item: small(rng) },
        9 => Action::FinishLevelUp,
        10 => Action::SplitHealing { amounts: (0..g.heroes.len()).map(|_| small(rng)).collect() },
        _ => Action::ActivateAbility {
            hero: small(rng),
            source: depths_rules::AbilitySource::Card(small(rng)),
            target: depths_rules::Target::Element(element),
        },
    }
}

fn run(content: &Content, games: u64) -> (u32, u32) {
    let (mut won, mut lost) = (0, 0);
    for seed in 0..games {
        let mut g = Game::new(random_options(seed), content.clone()).expect("setup");
        let census = Census::of(&g);
        let mut rng = GameRng::from_seed(seed.wrapping_mul(7919));
        let mut steps = 0;
        while !g.is_over() {
            if steps % 7 == 0 {
                let probe = arbitrary_action(&g, &mut rng);
                if g.check(&probe).is_ok() {
                    assert!(
                        g.legal_actions().contains(&probe),
                        "seed {seed}: check accepts {probe:?}, legal_actions omits it"
                    );
                } else {
                    let before = g.clone();
                    assert!(g.apply(probe).is_err());
                    assert_eq!(g, before, "a refused action changes nothing");
                }
            }
            let a = random_action(&g, &mut rng);
            g.apply(a.clone()).unwrap_or_else(|e| panic!("seed {seed}: legal {a:?} refused: {e}"));
            steps += 1;
            assert!(steps < 40_000, "seed {seed}: no end in sight ({:?})", g.pending());
            check_invariants(&g, &census).unwrap_or_else(|m| panic!("seed {seed}: {m}"));
        }
        match g.phase() {
            Phase::Won => won += 1,
            Phase::Lost(_) => lost += 1,
            ref p => panic!("{p:?}"),
        }
    }
    (won, lost)
}

#[test]
fn two_thousand_random_whole_games_end_with_invariants_intact() {
    let started = std::time::Instant::now();
    let (won, lost) = run(&fixture(), 2_000);
    assert_eq!(won + lost, 2_000);
    eprintln!("2,000 random games on the fixture: {won} won, {lost} lost in {:?}", started.elapsed());
}

#[test]
fn random_whole_games_on_the_shipped_content_end_with_invariants_intact() {
    let content = Content::builtin().expect("shipped content loads");
    let (won, lost) = run(&content, 600);
    assert_eq!(won + lost, 600);
}
