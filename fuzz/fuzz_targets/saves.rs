//! Fuzzes loading a save: the bytes are read as a save (`Game::load_json`),
//! and one that loads must then take up to 50 legal moves, the random bot's
//! and the careful bot's, answering every question the client asks before
//! each, without a panic (see `depths_sim::save_play::play_save_bytes`).
//! A save that loads is one the whole-game check let through: a panic here
//! is a bound that check misses.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = depths_sim::save_play::play_save_bytes(data);
});
