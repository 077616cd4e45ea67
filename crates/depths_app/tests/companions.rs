//! Companions played through the client's systems, headless: a whole game
//! with two Companions and one scripted player, seats kept by saves, seats
//! taken back, and the pause between a Companion's moves.

use std::path::PathBuf;

use bevy::{prelude::*, state::app::StatesPlugin};
use depths_app::{
    core_plugin,
    game::cli::Options,
    game::companions::{CompanionMoves, SetCompanion, companion_choice, decision_hero, seat_hero, turn_companion},
    game::game_log::GameLog,
    game::hotseat::{Players, Seat, heroes_to_act},
    game::saves::{LoadSave, SaveDir, save_path},
    game::session::{Delve, GameContent, PlayerAction, PutBack, SaveSlot, Seats, StartGame, TakeBack},
    game::settings::Settings,
    game::settings::Speed,
    game::{flow::MenuAction, screen::Screen},
};
use depths_rules::{Action, Content, Game, GameOptions, Phase};
use depths_sim::{Bot, HeuristicBot};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fd-companions-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A client on the menu with Companions at `speed`.
fn app(name: &str, speed: Speed) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    app.insert_resource(Options::default());
    app.insert_resource(GameContent(Content::builtin().expect("content")));
    app.insert_resource(SaveDir(temp_dir(name)));
    let mut settings = Settings::default();
    settings.companion_speed = speed;
    app.insert_resource(settings);
    app.add_plugins(core_plugin);
    app.update();
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Menu);
    app.update();
    app
}

/// One player, Ann, with Bren; Sil and Ava are Companions.
fn ann_and_two_companions() -> Players {
    Players { names: vec!["Ann".into()], owners: vec![0, 0, 0], curtain: false, companions: vec![false, true, true] }
}

fn start(app: &mut App, players: Players, heroes: &[&str], seed: u64) {
    app.insert_resource(players);
    app.world_mut().write_message(StartGame(GameOptions::standard(heroes, seed)));
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Playing);
}

fn delve(app: &App) -> &Delve {
    app.world().resource::<Delve>()
}

fn game(app: &App) -> &Game {
    delve(app).game()
}

fn seats(app: &App) -> &Seats {
    app.world().resource::<Seats>()
}

fn game_log(app: &App) -> &GameLog {
    app.world().resource::<GameLog>()
}

fn moves(app: &App) -> Vec<Action> {
    app.world().resource::<CompanionMoves>().0.clone()
}

/// Whether the scripted player (who plays every Hero not a Companion's) may take `a`.
fn player_may_take(g: &Game, s: &Seats, a: &Action) -> bool {
    if g.check(a).is_err() {
        return false;
    }
    match (seat_hero(a), decision_hero(g)) {
        (Some(h), _) | (None, Some(h)) => !s.players.is_companion(h),
        (None, None) => turn_companion(g, s).is_none(),
    }
}

/// The scripted player's move: the careful bot's, for the player's own Heroes only.
fn player_choice(g: &Game, s: &Seats) -> Option<Action> {
    if g.is_over() {
        return None;
    }
    let own: Vec<u8> = heroes_to_act(g).into_iter().filter(|&h| !s.players.is_companion(h)).collect();
    for h in own {
        if let Some(a) = HeuristicBot.choose_for(g, h).filter(|a| player_may_take(g, s, a)) {
            return Some(a);
        }
    }
    if !heroes_to_act(g).is_empty() {
        return None;
    }
    // Outside Combat Ann moves on her own turn or her own Hero's decision
    // (she does not swap Items while a Companion explores).
    let named = decision_hero(g);
    if named.is_some_and(|h| s.players.is_companion(h)) || (named.is_none() && turn_companion(g, s).is_some()) {
        return None;
    }
    let a = HeuristicBot.choose(g);
    if player_may_take(g, s, &a) {
        return Some(a);
    }
    let legal = g.legal_actions();
    let mine: Vec<&Action> = legal.iter().filter(|a| player_may_take(g, s, a)).collect();
    mine.iter()
        .find(|a| {
            !matches!(
                a,
                Action::Equip { .. } | Action::Unequip { .. } | Action::StartPurchase { .. } | Action::CancelPurchase
            )
        })
        .or(mine.first())
        .map(|a| (*a).clone())
}

#[derive(Default, Debug)]
struct Tally {
    player_moves: usize,
    companion_moves: Vec<Action>,
    frames: usize,
}

/// Plays frames until the game ends or `limit` frames pass: the scripted
/// player moves for its own Heroes when it may; the Companions play the rest.
/// Every frame checks the player never moved for a Companion's Hero, and that
/// each Companion move was legal and is exactly what the table then shows.
fn play(app: &mut App, limit: usize, stop: impl Fn(&App) -> bool) -> Tally {
    let mut tally = Tally::default();
    let mut idle = 0;
    for _ in 0..limit {
        if game(app).is_over() || stop(app) {
            break;
        }
        tally.frames += 1;
        let before = game(app).clone();
        let (version, seen) = (delve(app).version(), moves(app).len());
        let mine = player_choice(game(app), seats(app));
        if let Some(a) = &mine {
            if let Some(h) = seat_hero(a) {
                assert!(!seats(app).players.is_companion(h), "the player moved for a Companion's Hero: {a:?}");
            }
            app.world_mut().write_message(PlayerAction(a.clone()));
            tally.player_moves += 1;
        }
        app.update();
        let new: Vec<Action> = moves(app)[seen..].to_vec();
        assert!(new.len() <= 1, "one Companion move a frame: {new:?}");
        if let Some(a) = new.first() {
            assert!(mine.is_none(), "a Companion moved in the same frame as the player");
            assert_eq!(before.check(a), Ok(()), "a Companion's move is legal: {a:?}");
            let mut expected = before.clone();
            expected.apply(a.clone()).unwrap();
            assert_eq!(game(app), &expected, "the Companion's move was applied as it is: {a:?}");
            if let Some(h) = seat_hero(a) {
                assert!(seats(app).players.is_companion(h), "a Companion moved for a player's Hero: {a:?}");
            }
            tally.companion_moves.push(a.clone());
        }
        assert_eq!(game_log(app).notice, None, "nothing was refused");
        // Someone always has a move: the table never stalls.
        if delve(app).version() == version && mine.is_none() && new.is_empty() {
            idle += 1;
            assert!(idle < 4, "nobody moves in {:?}: {:?}", game(app).phase(), companion_choice(game(app), seats(app)));
        } else {
            idle = 0;
        }
    }
    tally
}

#[test]
fn one_player_and_two_companions_play_a_whole_game() {
    for seed in [7, 11, 12] {
        whole_game(seed);
    }
}

fn whole_game(seed: u64) {
    let mut app = app(&format!("whole-game-{seed}"), Speed::Instant);
    start(&mut app, ann_and_two_companions(), &["bren", "sil", "ava"], seed);
    let tally = play(&mut app, 40_000, |_| false);
    let g = game(&app);
    eprintln!(
        "seed {seed}: {} frames, Ann made {} moves, the Companions {}; {:?}",
        tally.frames,
        tally.player_moves,
        tally.companion_moves.len(),
        g.phase()
    );
    let companion_lines = game_log(&app).lines.iter().filter(|l| l.contains("Companion"));
    let damage_lines = companion_lines.clone().filter(|l| l.contains(": damage ")).take(3);
    for line in companion_lines.take(12).chain(damage_lines) {
        eprintln!("  {line}");
    }
    assert!(g.is_over(), "the game ended (won or lost) after {tally:?}-ish frames: {:?}", g.phase());
    assert!(tally.player_moves > 0, "Ann played Bren");
    for hero in [1u8, 2] {
        let n = tally.companion_moves.iter().filter(|a| seat_hero(a) == Some(hero)).count();
        assert!(n > 0, "the Companion played Hero {hero}");
    }
    assert!(
        tally.companion_moves.iter().any(|a| matches!(a, Action::DrawTile)),
        "the Companions took their share of Exploring turns"
    );
    // Each Companion move is in the log once, with its reason.
    let log = &game_log(&app).lines;
    let lines = log.iter().filter(|l| l.contains("(Companion") || l.starts_with("Companion ")).count();
    assert!(lines >= tally.companion_moves.len().min(250), "{lines} reasons for {} moves", tally.companion_moves.len());
    let played = "Sil plays a";
    assert!(
        log.iter().any(|l| l.starts_with(played)
            && l.contains("(Companion — its expected result is best against the Monster cards still to come")),
        "a card played is explained"
    );
    assert!(!log.iter().any(|l| l.starts_with("Companion Sil plays")), "a card played is told once");
    let sil_cards = tally.companion_moves.iter().filter(|a| matches!(a, Action::PlayCard { hero: 1, .. })).count();
    let sil_lines = log.iter().filter(|l| l.starts_with(played)).count();
    assert!(sil_lines <= sil_cards, "{sil_lines} lines for Sil's {sil_cards} cards");
}

#[test]
fn exploring_turns_rotate_through_the_players_and_the_companions() {
    let players = ann_and_two_companions();
    assert_eq!(players.seats(3), vec![Seat::Player(0), Seat::Companion(1), Seat::Companion(2)]);
    let two = Players { names: vec!["Ann".into(), "Bo".into()], owners: vec![0, 1, 1], ..Players::default() };
    assert_eq!(two.seats(3), vec![Seat::Player(0), Seat::Player(1)], "no Companions: every player");
    let bo_watches = Players { companions: vec![false, true, true], ..two };
    assert_eq!(
        bo_watches.seats(3),
        vec![Seat::Player(0), Seat::Companion(1), Seat::Companion(2)],
        "a player whose Heroes all have Companions takes no turns of their own"
    );
}

#[test]
fn a_save_keeps_who_sits_where() {
    let mut app = app("save", Speed::Instant);
    start(&mut app, ann_and_two_companions(), &["bren", "sil", "ava"], 3);
    // Play until it is a Companion's Exploring turn, so the turn's seat is saved too.
    play(&mut app, 5_000, |app| seats(app).turn.companion.is_some());
    assert!(seats(&app).turn.companion.is_some(), "a Companion's turn came");
    app.world_mut().resource_mut::<SaveSlot>().due = true;
    app.update();
    let path = save_path(app.world().resource::<SaveDir>(), app.world().resource::<SaveSlot>());
    let text = std::fs::read_to_string(&path).unwrap();
    let saved = depths_app::game::saves::read_save(&path).unwrap().1.expect("a table");
    assert_eq!(saved.players.companions, vec![false, true, true], "{text:.300}");
    assert_eq!(saved.players, seats(&app).players);

    // Another game's seats, then the save again.
    app.insert_resource(Players::default());
    app.world_mut().write_message(MenuAction::BackToMenu);
    for _ in 0..2 {
        app.update();
    }
    app.world_mut().write_message(LoadSave(path.clone()));
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Playing);
    assert_eq!(seats(&app).players, saved.players);
    assert!(seats(&app).players.is_companion(1) && !seats(&app).players.is_companion(0));
    // The Companions play on after the load.
    let before = moves(&app).len();
    play(&mut app, 200, |app| moves(app).len() > before + 3);
    assert!(moves(&app).len() > before, "the Companions play on");

    // A save from before Companions loads with every Hero played by a player.
    let old = r#"{"names":["Ann"],"owners":[0,0],"curtain":false}"#;
    let players: Players = serde_json::from_str(old).unwrap();
    assert!(!players.is_companion(0) && !players.is_companion(1));
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn taking_a_seat_back_stops_the_companion_for_that_hero() {
    let mut app = app("take-back", Speed::Instant);
    let players =
        Players { names: vec!["Ann".into()], owners: vec![0, 0], companions: vec![true, true], ..Players::default() };
    start(&mut app, players, &["bren", "sil"], 3);
    // Both Companions play on their own until Sil has something to do in Combat.
    let sil_may_act =
        |app: &App| matches!(game(app).phase(), Phase::Combat { .. }) && heroes_to_act(game(app)).contains(&1);
    play(&mut app, 5_000, sil_may_act);
    assert!(sil_may_act(&app), "a fight where Sil may act came: {:?}", game(&app).phase());
    app.world_mut().write_message(SetCompanion { hero: 1, on: false });
    app.update();
    assert!(!seats(&app).players.is_companion(1));
    assert!(game_log(&app).lines.iter().any(|l| l.contains("takes Sil's seat back")), "the log says so");
    let seen = moves(&app).len();
    // Nobody plays for Sil now: the Companion plays Bren until only Sil may act, then waits.
    for _ in 0..300 {
        app.update();
    }
    let after: Vec<Action> = moves(&app)[seen..].to_vec();
    assert!(after.iter().all(|a| seat_hero(a) != Some(1)), "no Companion move for Sil: {after:?}");
    assert!(!game(&app).is_over());
    assert_eq!(companion_choice(game(&app), seats(&app)), None, "the Companion waits for Ann to play Sil");
    assert!(player_choice(game(&app), seats(&app)).is_some(), "Ann has a move: {:?}", game(&app).phase());
    // Handing Sil over again: the Companion plays on.
    let waiting = game(&app).clone();
    app.world_mut().write_message(SetCompanion { hero: 1, on: true });
    for _ in 0..6 {
        app.update();
    }
    assert_ne!(game(&app), &waiting, "the Companion took Sil's seat again and moved");
}

#[test]
fn a_companion_waits_the_setting_s_pause_before_moving() {
    let mut app = app("pace", Speed::Fast);
    let players = Players { names: vec!["Ann".into()], owners: vec![0], companions: vec![true], ..Players::default() };
    start(&mut app, players, &["bren"], 5);
    assert_eq!(turn_companion(game(&app), seats(&app)), Some(0), "Ann's only Hero is a Companion's: it explores");
    app.update();
    app.update();
    assert!(moves(&app).is_empty(), "no move before the pause");
    std::thread::sleep(std::time::Duration::from_millis(350));
    app.update();
    assert_eq!(moves(&app), vec![Action::DrawTile], "then the first move");
    let log = &game_log(&app).lines;
    // Told once, with the careful bot's reason.
    assert_eq!(
        log[log.len() - 1],
        "Drew a map tile (Companion — a new tile opens more of the map now than any Encounter within reach, for what it costs)."
    );
    assert!(!log.iter().any(|l| l.starts_with("Companion ")), "{log:?}");
}

#[test]
fn a_companion_never_needs_the_pass_screen() {
    use depths_app::game::hotseat::{HandOver, LiftCurtain};
    let mut app = app("curtain", Speed::Instant);
    // Bo's only Hero is played by a Companion: the table never needs to go to Bo.
    let players = Players {
        names: vec!["Ann".into(), "Bo".into()],
        owners: vec![0, 1],
        curtain: true,
        companions: vec![false, true],
    };
    start(&mut app, players, &["bren", "sil"], 3);
    let (mut asked, mut ann_moves) = (Vec::new(), 0);
    for _ in 0..3_000 {
        if game(&app).is_over() || moves(&app).len() > 150 {
            break;
        }
        if let Some(p) = seats(&app).curtain(game(&app)) {
            asked.push(p);
            app.world_mut().write_message(LiftCurtain);
            app.update();
            continue;
        }
        if seats(&app).hand_off_due(game(&app)).is_some() {
            app.world_mut().write_message(HandOver);
            app.update();
            continue;
        }
        if let Some(a) = player_choice(game(&app), seats(&app)) {
            assert_ne!(seat_hero(&a), Some(1));
            app.world_mut().write_message(PlayerAction(a));
            ann_moves += 1;
        }
        app.update();
        assert_eq!(game_log(&app).notice, None, "nothing was refused");
    }
    assert_eq!(asked, vec![0], "the pass screen only asked Ann to the table, once at the start");
    assert!(
        ann_moves > 5 && moves(&app).len() > 20,
        "both played: Ann {ann_moves}, the Companion {}",
        moves(&app).len()
    );
    assert!(moves(&app).iter().all(|a| seat_hero(a).is_none_or(|h| h == 1)), "the Companion played Sil only");
}

/// A Companion's move is taken back like anyone's, and the Companion does
/// not make it again at once: it waits until the table moves on (here, Redo).
#[test]
fn a_companion_does_not_make_again_a_move_just_taken_back() {
    let mut app = app("undo", Speed::Instant);
    let players =
        Players { names: vec!["Ann".into()], owners: vec![0, 0], companions: vec![true, true], ..Players::default() };
    start(&mut app, players, &["bren", "sil"], 3);
    // The Companions play until one of them makes a move that revealed nothing.
    let mut taken = None;
    for _ in 0..5_000 {
        let before = game(&app).clone();
        let seen = moves(&app).len();
        app.update();
        if moves(&app).len() > seen && app.world().resource::<depths_app::game::session::Undo>().undoable() > 0 {
            taken = Some((before, game(&app).clone(), moves(&app)[seen].clone()));
            break;
        }
    }
    let (before, after, action) = taken.expect("a Companion made a move that revealed nothing");
    app.world_mut().write_message(TakeBack);
    app.update();
    assert_eq!(game(&app), &before, "the Companion's move was taken back: {action:?}");
    let seen = moves(&app).len();
    for _ in 0..30 {
        app.update();
    }
    assert_eq!(game(&app), &before, "the Companion did not make {action:?} again");
    assert_eq!(moves(&app).len(), seen);
    app.world_mut().write_message(PutBack);
    app.update();
    assert_eq!(game(&app), &after, "Redo makes it again, exactly");
    for _ in 0..30 {
        app.update();
    }
    assert_ne!(game(&app), &after, "and the Companions play on");
}

/// A planning Companion (⚙ Settings) thinks off the frame and plays the
/// planning bot's move for the table state it was asked about; frames go on
/// while it thinks, and it moves only for its own Heroes.
#[test]
fn a_planning_companion_plays_the_planning_bot_s_moves() {
    use depths_seats::seats::{Strength, companion_choice_by};
    let mut app = app("planning", Speed::Instant);
    app.world_mut().resource_mut::<Settings>().companion_strength = Strength::Planning;
    let players = ann_and_two_companions();
    start(&mut app, players, &["bren", "sil", "ava"], 11);
    let (mut checked, mut differs, mut frames) = (0, 0, 0);
    while checked < 60 && frames < 20_000 && !game(&app).is_over() {
        frames += 1;
        let before = game(&app).clone();
        let (seed, seen) = (delve(&app).situation_seed(), moves(&app).len());
        let (players, turn) = (seats(&app).players.clone(), seats(&app).turn.clone());
        if let Some(a) = player_choice(&before, seats(&app)) {
            app.world_mut().write_message(PlayerAction(a));
            app.update();
            continue;
        }
        app.update();
        let Some(a) = moves(&app).get(seen).cloned() else {
            std::thread::sleep(std::time::Duration::from_millis(2));
            continue;
        };
        let planned = companion_choice_by(&before, &players, &turn, Strength::Planning, seed);
        assert_eq!(Some(&a), planned.as_ref(), "the planning bot's move for that state");
        if let Some(h) = seat_hero(&a) {
            assert!(players.is_companion(h), "a Companion moved for a player's Hero: {a:?}");
        }
        checked += 1;
        differs += usize::from(depths_seats::seats::companion_choice(&before, &players, &turn).as_ref() != Some(&a));
    }
    eprintln!("{checked} planning moves in {frames} frames, {differs} unlike the careful bot's");
    assert!(checked >= 60 || game(&app).is_over(), "the Companions played on: {checked} moves in {frames} frames");
    assert!(frames > checked, "frames went on while the Companions thought");
    assert!(differs > 0, "some moves were the planning bot's own, not the careful bot's");
    let own = game_log(&app).lines.iter().filter(|l| l.contains("did clearly better than the careful choice")).count();
    assert_eq!(own, differs, "each of them says why: {:?}", game_log(&app).lines);
}
