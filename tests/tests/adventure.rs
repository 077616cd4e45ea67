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
    assert_eq!(g.phase(), Phase::Won, "after {} actions", log.len());
    let rec = &g.adventure().unwrap().record;
    assert_eq!(rec.ecologies_cleared, vec![Ecology::Ruins, Ecology::Caverns, Ecology::Subterranean]);
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
    assert_eq!(g.phase(), Phase::Lost(depths_rules::LossReason::HeroDefeated { hero: 0 }), "after {log:?}");
    assert!(g.legal_actions().is_empty());
}

/// "Save your Game … Just after Level Up, record the details of each Hero and
/// the group … use the sheets to recreate your Heroes."
#[test]
fn a_party_record_after_level_up_starts_the_next_ecology() {
    use depths_rules::record::PartyRecord;
    let mut g = new_game(&["bren", "sil"], 11);
    while !matches!(g.pending(), Some(depths_rules::Pending::LevelUp { .. })) {
        let a = steady_policy(&g);
        act(&mut g, a);
    }
    act(&mut g, depths_rules::Action::FinishLevelUp);
    let record = g.party_record().expect("a full game");
    assert_eq!(record.next_ecology, Ecology::Caverns);
    let text = serde_json::to_string(&record).unwrap();
    let back: PartyRecord = serde_json::from_str(&text).unwrap();
    let resumed = Game::from_record(&back, fixture(), 99).unwrap();
    let adv = resumed.adventure().unwrap();
    assert_eq!(adv.ecology.ecology, Ecology::Caverns);
    assert_eq!(adv.keys, g.adventure().unwrap().keys);
    assert_eq!(adv.xp_pool, g.adventure().unwrap().xp_pool);
    for (a, b) in resumed.heroes.iter().zip(&g.heroes) {
        assert_eq!(
            (a.level, a.health, a.items.len(), a.abilities.len()),
            (b.level, b.health, b.items.len(), b.abilities.len())
        );
        assert_eq!(a.stored_power.len(), b.stored_power.len());
        let mut x: Vec<u8> = a.draw.iter().map(|c| c.value).collect();
        let mut y: Vec<u8> = b.draw.iter().chain(&b.hand).chain(&b.discard).map(|c| c.value).collect();
        x.sort();
        y.sort();
        assert_eq!(x, y, "the same Action Card deck");
    }
    assert!(resumed.legal_actions().contains(&depths_rules::Action::DrawTile));
}

/// "Game Setup" refuses options it cannot set up, each with its own reason.
#[test]
fn setup_refuses_bad_options_with_a_typed_reason() {
    use depths_rules::{ContentErrorKind, SetupError};
    let setup = |heroes: &[&str]| Game::new(GameOptions::standard(heroes, 1), fixture()).map(|_| ()).unwrap_err();
    assert_eq!(setup(&[]), SetupError::NoHeroes);
    assert_eq!(setup(&["bren", "sil", "ava", "bren"]), SetupError::TooManyHeroes(4));
    assert_eq!(setup(&["bren", "nobody"]), SetupError::UnknownHero("nobody".into()));
    let twice = setup(&["sil", "sil"]);
    assert!(matches!(&twice, SetupError::HeroTwice(name) if twice.to_string() == format!("{name} is chosen twice")));
    assert_eq!(SetupError::NoHeroes.to_string(), "choose 1 to 3 Heroes");
    // An Ecology still without its tiles loads, but cannot be started in.
    let mut files = depths_tests::fixture::fixture_files();
    files.iter_mut().find(|(n, _)| n == "caverns/tiles.json").unwrap().1 = "{\"tiles\": []}".into();
    let refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
    let content = depths_rules::Content::from_files(&refs).unwrap_or_else(|e| panic!("{e}"));
    let mut options = GameOptions::standard(&["bren"], 1);
    options.start = Ecology::Caverns;
    let e = Game::new(options, content).map(|_| ()).unwrap_err();
    let SetupError::Content(inner) = &e else { panic!("{e:?}") };
    assert_eq!(inner.faults[0].file, "caverns/tiles.json");
    assert!(matches!(inner.faults[0].kind, ContentErrorKind::Invalid(_)), "{inner:?}");
    assert!(std::error::Error::source(&e).is_some());
}

/// "After winning or losing, players may wish to start or update an
/// Adventure Record Sheet": every Monster card defeated is on the record
/// once, in a Combat won or lost (a lost one's were left out: the record
/// said 1 where the log told of two), and the game's end is the last thing
/// an action tells (Damage dealt to several Heroes at once came after "the
/// Heroes lose" when the first of them fell).
#[test]
fn the_record_counts_every_monster_card_defeated_and_the_end_is_told_last() {
    use depths_rules::{Content, Event, combat::FoeCard};
    let mut lost_after_a_fall = 0;
    for seed in 1..=120 {
        let content = Content::builtin().expect("content");
        let mut g = Game::new(GameOptions::standard(&["bren", "sil", "ava"], seed), content).expect("setup");
        let (mut fallen, mut this_combat) = (0u32, 0u32);
        for _ in 0..5_000 {
            if g.is_over() {
                break;
            }
            let monsters: Vec<bool> = g
                .combat()
                .map(|c| c.foes.iter().map(|f| matches!(f.card, FoeCard::Monster(_))).collect())
                .unwrap_or_default();
            let events = g.apply(steady_policy(&g)).expect("the steady policy plays legal moves");
            for e in &events {
                match e {
                    Event::FoeDefeated { foe } if monsters.get(usize::from(*foe)) == Some(&true) => {
                        fallen += 1;
                        this_combat += 1;
                    }
                    Event::CombatWon => this_combat = 0,
                    _ => {}
                }
            }
            if let Some(i) = events.iter().position(|e| matches!(e, Event::GameLost { .. })) {
                assert_eq!(i, events.len() - 1, "seed {seed}: {events:?}");
            }
        }
        assert_eq!(g.adventure().expect("a game").record.monsters_defeated, fallen, "seed {seed}");
        if matches!(g.phase(), Phase::Lost(_)) && this_combat > 0 {
            lost_after_a_fall += 1;
        }
        if lost_after_a_fall >= 2 {
            return;
        }
    }
    panic!("only {lost_after_a_fall} games lost in a Combat where a Monster card fell");
}
