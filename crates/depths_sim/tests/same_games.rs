//! The bots play the same games move for move: a digest of every action of
//! many seeded games, and of their results, against the digest the code gave
//! before the rules core was made faster. A speed-up that changes a single
//! move (an order of legal actions, a tie broken differently) turns this red.
//! `tools/same-games.sh` checks the full 1,000 careful and 20,000 random games.
//! Taken again when three tiles' Chests moved into rooms beyond their Doors
//! (`ruins-16`, `caverns-21`, `subterranean-17`): with the earlier tiles the
//! code gave the earlier digests, all 21,000 games. Taken again when a
//! Defeat one Hero's Damage alone met became that Hero's alone ("If one Hero
//! delivered all of the Damage needed"): a rule's change, not a speed-up's.
//! Taken again when two Items' Block abilities (Searing Thrust, Geared
//! Strike) came to deal their Damage to the Monster, where they added to a
//! Block's none: a content change (the random bot's games did not change).

use std::sync::Arc;

use depths_rules::{Content, GameOptions};
use depths_sim::{BotKind, play_one, sim::result_line};

/// FNV-1a, 64 bits: no dependency, and the same on every machine.
struct Digest(u64);

impl Digest {
    fn new() -> Digest {
        Digest(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        // A separator, so that two texts never hash as their concatenation.
        self.0 = (self.0 ^ 0xff).wrapping_mul(0x0100_0000_01b3);
    }
}

/// The digest of `games` games from seed 1, two Heroes: every action as
/// JSON, then the game's `play --per-game` line.
fn digest(bot: BotKind, games: u64) -> u64 {
    let content = Arc::new(Content::builtin().expect("content"));
    let options = GameOptions::standard(&["bren", "sil"], 0);
    let mut d = Digest::new();
    for seed in 1..=games {
        let (result, log) = play_one(&content, options.clone(), seed, bot, true);
        for a in &log {
            d.add(serde_json::to_string(a).expect("json").as_bytes());
        }
        d.add(result_line(&result).to_string().as_bytes());
    }
    d.0
}

fn check(bot: BotKind, games: u64, want: u64) {
    let got = digest(bot, games);
    assert_eq!(got, want, "{bot:?} bot, {games} games: digest {got:#018x}, the committed one {want:#018x}");
}

#[test]
fn careful_bot_plays_the_same_games() {
    check(BotKind::Heuristic, 40, 0x8dbd_860f_c8e3_f815);
}

#[test]
fn random_bot_plays_the_same_games() {
    check(BotKind::Random, 400, 0x25e5_1a1a_cadc_1564);
}

/// Five times as many games: `cargo test --release -p depths_sim --test same_games -- --ignored`.
#[test]
#[ignore]
fn more_games_are_the_same() {
    check(BotKind::Heuristic, 200, 0xd3bf_4f50_52c9_6b75);
    check(BotKind::Random, 2000, 0x3a92_7f20_19b2_8c6f);
}
