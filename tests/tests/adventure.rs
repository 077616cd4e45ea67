//! Whole games through the Action API, on the controlled fixture content.

use depths_rules::{Ecology, Game, GameOptions, Phase};
use depths_tests::fixture::fixture;
use depths_tests::*;

fn new_game(heroes: &[&str], seed: u64) -> Game {
    Game::new(GameOptions::standard(heroes, seed), fixture()).expect("setup")
}

/// "Winning and Losing": a two-Hero game walks Ruins → Caverns →
/// Subterranean Architecture → the Final Entity and wins.
#[test]
fn scripted_two_hero_game_wins_against_the_final_entity() {
    let mut g = new_game(&["bren", "sil"], 11);
    let log = play_out(&mut g, steady_policy, 5_000);
    assert_eq!(g.phase, Phase::Won, "after {} actions", log.len());
    let rec = &g.adventure().unwrap().record;
    assert_eq!(rec.ecologies_cleared, vec![Ecology::Ruins, Ecology::Caverns]);
    assert!(rec.monsters_defeated >= 3);
    assert!(g.heroes.iter().all(|h| h.level == 3));
}

/// "Save your Game": saving and loading at every step, then continuing,
/// gives the same game as never saving.
#[test]
fn save_load_continue_matches_at_every_step_of_a_scripted_game() {
    let mut plain = new_game(&["ava", "bren"], 5);
    let log = play_out(&mut plain, steady_policy, 5_000);
    assert!(plain.is_over());
    let mut g = new_game(&["ava", "bren"], 5);
    for (i, a) in log.iter().enumerate() {
        let text = g.save_json();
        let mut loaded = Game::load_json(&text).unwrap_or_else(|e| panic!("step {i}: {e}"));
        assert_eq!(loaded, g, "step {i}: the save restores the same game");
        assert_eq!(loaded.legal_actions(), g.legal_actions(), "step {i}");
        loaded.apply(a.clone()).unwrap();
        g.apply(a.clone()).unwrap();
        assert_eq!(loaded, g, "step {i}: continues identically");
    }
    assert_eq!(g, plain);
}

/// "The Heroes Lose if … One of the Heroes is Defeated."
#[test]
fn scripted_loss_by_a_defeated_hero() {
    let mut g = new_game(&["sil"], 3);
    g.heroes[0].health = 1;
    let log = play_out(&mut g, steady_policy, 5_000);
    assert_eq!(g.phase, Phase::Lost(depths_rules::LossReason::HeroDefeated { hero: 0 }), "after {log:?}");
    assert!(g.legal_actions().is_empty());
}
