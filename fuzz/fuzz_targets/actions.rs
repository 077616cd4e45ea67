//! Fuzzes the rules with the property tests' properties: the bytes are a
//! seed, a kind of game (whole game on the fixture or the shipped content, or
//! a skirmish) and action choices (see `depths_tests::properties::run_bytes`).
//! Every step checks that `check`, `legal_actions` and `apply` agree and that
//! no Action Card is created or lost; a violation panics with the seed and the
//! actions played.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    depths_tests::properties::run_bytes(data);
});
