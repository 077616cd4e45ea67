//! Property tests that shrink: random seeds and random action choices (each an
//! index into `legal_actions()`, taken modulo its length) for whole games and
//! skirmishes, with every property of `depths_tests::properties` checked before
//! and after each step. A failure is shrunk to a short choice list, and the
//! message names the seed and the actions played.
//!
//! The fuzz target in `fuzz/` runs the same properties (see fuzz/README.md).
//! The whole file takes about 5 seconds in the test profile on two cores.

use depths_tests::properties::{Kind, MAX_STEPS, run, run_bytes};
use proptest::prelude::*;
use proptest::test_runner::{FileFailurePersistence, TestCaseError};

/// `cases` runs; a failure shrinks for up to 2,000 runs, and its seed is kept
/// in `properties.proptest-regressions` beside this file to be tried first.
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        max_shrink_iters: 2_000,
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..ProptestConfig::default()
    }
}

fn choices() -> impl Strategy<Value = Vec<u16>> {
    prop::collection::vec(any::<u16>(), 0..=MAX_STEPS)
}

fn holds(kind: Kind, seed: u64, choices: &[u16]) -> Result<(), TestCaseError> {
    run(kind, seed, choices).map(|_| ()).map_err(TestCaseError::fail)
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn whole_games_on_the_fixture_keep_every_property(seed in any::<u64>(), choices in choices()) {
        holds(Kind::Game, seed, &choices)?;
    }
}

proptest! {
    // A skirmish ends within about 50 actions, so more of them fit in the same time.
    #![proptest_config(config(256))]

    #[test]
    fn skirmishes_keep_every_property(seed in any::<u64>(), choices in choices()) {
        holds(Kind::Skirmish, seed, &choices)?;
    }
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn whole_games_on_the_shipped_content_keep_every_property(seed in any::<u64>(), choices in choices()) {
        holds(Kind::ShippedGame, seed, &choices)?;
    }
}

/// The fuzz target's entry point reads any bytes: empty, short, odd-length.
#[test]
fn the_fuzz_entry_point_reads_any_bytes() {
    run_bytes(&[]);
    run_bytes(&[1, 2, 3]);
    for kind in 0..3u8 {
        let mut data = vec![7, 0, 0, 0, 0, 0, 0, 0, kind];
        data.extend((0..61u8).map(|b| b.wrapping_mul(37)));
        run_bytes(&data);
    }
}
