//! "All Heroes perform each Step simultaneously": the outcome of a Round —
//! who is hit, who Defeats what, who may Avoid Return Damage, how much
//! Return Damage each takes — does not depend on the order the Heroes are
//! seated in or act in. From random Combat states at the start of "3.
//! Evaluate Combat Pairs", every seating of the Heroes (and with it every
//! order of acting in each step) reaches the same set of outcomes.

use depths_rules::{CombatStep, Game, GameRng, Phase};
use depths_tests::seating::{Unexplored, reseat, round_outcomes, seatings};
use depths_tests::*;
use proptest::prelude::*;

/// States explored per seating before a case is set aside as too large.
const BUDGET: usize = 4_000;

/// A random skirmish from `seed`, played at random for at least `steps`
/// actions and then on to a Round's "3. Evaluate Combat Pairs" before any Hero
/// acts in it; `None` if the Combat ends first.
fn evaluating(seed: u64, steps: usize) -> Option<Game> {
    let mut g = random_game(seed);
    let mut rng = GameRng::from_seed(seed ^ 0x51);
    for taken in 0.. {
        let c = g.combat()?;
        if !matches!(g.phase(), Phase::Combat { .. }) {
            return None;
        }
        let fresh = c.step == CombatStep::Resolve
            && c.heroes.iter().all(|h| !h.done)
            && c.engagements.iter().all(|e| e.chosen.is_none())
            && c.packets.is_empty()
            && c.wounds.is_empty();
        if taken >= steps && fresh {
            return Some(g);
        }
        let legal = g.legal_actions();
        let a = legal[rng.below(legal.len() as u32) as usize].clone();
        g.apply(a).expect("legal");
    }
    None
}

/// Whether every seating of `g`'s Heroes reaches the same outcomes; `Err`
/// when the Round is too large to explore (or its end deals cards).
fn same_outcomes_every_seating(g: &Game) -> Result<Result<(), String>, Unexplored> {
    let n = g.heroes.len();
    let base = round_outcomes(g, &(0..n).collect::<Vec<_>>(), BUDGET)?;
    for order in seatings(n) {
        let other = round_outcomes(&reseat(g, &order), &order, BUDGET)?;
        if other != base {
            let only: Vec<_> = base.symmetric_difference(&other).collect();
            return Ok(Err(format!(
                "seated {order:?}: {} outcomes, not {}; differing: {only:?}",
                other.len(),
                base.len()
            )));
        }
    }
    Ok(Ok(()))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, max_shrink_iters: 200, ..ProptestConfig::default() })]

    /// Every permutation of the Heroes' seating gives the same set of
    /// reachable outcomes of the Round.
    #[test]
    fn a_rounds_outcomes_do_not_depend_on_the_seating(seed in any::<u64>(), steps in 0usize..40) {
        let g = evaluating(seed, steps);
        prop_assume!(g.as_ref().is_some_and(|g| g.heroes.len() > 1));
        let g = g.unwrap();
        match same_outcomes_every_seating(&g) {
            Ok(result) => prop_assert!(result.is_ok(), "seed {seed}, {steps} steps: {}", result.unwrap_err()),
            Err(_) => prop_assume!(false),
        }
    }
}

/// The property above compares many Rounds, among them shared kills (a choice
/// of who avoids Return Damage) and Damage the players place.
#[test]
fn seatings_are_compared_over_many_rounds_with_shared_kills() {
    let (mut compared, mut shared, mut placed) = (0, 0, 0);
    for seed in 0..120u64 {
        let Some(g) = evaluating(seed, (seed % 7) as usize * 5) else { continue };
        if g.heroes.len() < 2 {
            continue;
        }
        let Ok(result) = same_outcomes_every_seating(&g) else { continue };
        result.unwrap_or_else(|m| panic!("seed {seed}: {m}"));
        compared += 1;
        let outcomes = round_outcomes(&g, &(0..g.heroes.len()).collect::<Vec<_>>(), BUDGET).unwrap();
        shared += usize::from(outcomes.iter().any(|o| o.avoided.iter().filter(|a| **a).count() == 1));
        placed += usize::from(g.combat().unwrap().foes.iter().any(|f| f.individuals.len() > 1));
    }
    eprintln!("{compared} Rounds compared, {shared} with one Hero avoiding Return Damage, {placed} against sets");
    assert!(compared >= 30 && shared >= 3 && placed >= 10, "{compared} compared, {shared} shared, {placed} sets");
}
