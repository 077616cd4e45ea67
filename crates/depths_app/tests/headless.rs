//! The client's logic without a window or GPU: `MinimalPlugins` + `StatesPlugin`
//! + the non-render plugins, driven through the messages the UI writes.

use std::path::PathBuf;

use bevy::{prelude::*, state::app::StatesPlugin};
use depths_app::{
    board::explore::PlacementHint,
    board::explore::TileDrop,
    board::tiles::{BoardTile, ElementToken, LanternToken, cell_center, lantern_position},
    core_plugin,
    game::cli::Options,
    game::flow::{MenuAction, MenuNotice},
    game::game_log::GameLog,
    game::saves::{LoadSave, SaveDir, save_path},
    game::screen::Screen,
    game::session::{Delve, DropRefused, GameContent, PlayerAction, SaveSlot, Seats, Session, StartGame, Undo},
};
use depths_rules::{Action, Content, Game, GameOptions, Phase, map::Cell, map::Placement};
use depths_tests::steady_policy;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fd-headless-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn app_with(options: Options, saves: &str) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    app.insert_resource(options);
    app.insert_resource(GameContent(Content::builtin().expect("content")));
    app.insert_resource(SaveDir(temp_dir(saves)));
    app.add_plugins(core_plugin);
    app.update();
    app
}

/// On the menu (loading needs a renderer-backed AssetServer; the content is
/// inserted above instead).
fn menu_app(saves: &str) -> App {
    let mut app = app_with(Options::default(), saves);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Menu);
    app.update();
    assert_eq!(screen(&app), Screen::Menu);
    app
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

fn frames(app: &mut App, n: usize) {
    for _ in 0..n {
        app.update();
    }
}

fn start(app: &mut App, seed: u64) {
    app.world_mut().write_message(StartGame(GameOptions::standard(&["bren", "sil"], seed)));
    frames(app, 3);
    assert_eq!(screen(app), Screen::Playing);
}

fn act(app: &mut App, action: Action) {
    app.world_mut().write_message(PlayerAction(action));
    app.update();
}

fn game(app: &App) -> &Game {
    app.world().resource::<Delve>().game()
}

fn tile_cells(app: &mut App) -> Vec<Cell> {
    let mut cells: Vec<Cell> = app.world_mut().query::<&BoardTile>().iter(app.world()).map(|t| t.cell).collect();
    cells.sort();
    cells
}

fn rules_cells(app: &App) -> Vec<Cell> {
    let mut cells: Vec<Cell> = game(app).adventure().unwrap().ecology.map.tiles().iter().map(|t| t.cell).collect();
    cells.sort();
    cells
}

fn in_combat(g: &Game) -> bool {
    matches!(g.phase(), Phase::Combat { .. })
}

fn legal_placements(app: &App) -> Vec<Placement> {
    app.world().resource::<Delve>().legal_placements()
}

/// Draws a tile and places it at its first legal place.
fn draw_and_place(app: &mut App) {
    act(app, Action::DrawTile);
    let p = legal_placements(app)[0];
    act(app, Action::PlaceTile { placement: p });
}

#[test]
fn a_new_game_lays_the_rules_map_on_the_board() {
    let mut app = menu_app("new");
    assert!(tile_cells(&mut app).is_empty(), "no tiles on the menu");
    start(&mut app, 1);
    assert_eq!(tile_cells(&mut app), rules_cells(&app));
    assert_eq!(tile_cells(&mut app), vec![(0, 0)]);
    let positions: Vec<Vec3> = app
        .world_mut()
        .query::<(&BoardTile, &Transform)>()
        .iter(app.world())
        .map(|(t, tr)| {
            assert_eq!(tr.translation.truncate(), cell_center(t.cell));
            tr.translation
        })
        .collect();
    assert_eq!(positions.len(), 1);
    let lanterns: Vec<Vec3> = app
        .world_mut()
        .query_filtered::<&Transform, With<LanternToken>>()
        .iter(app.world())
        .map(|t| t.translation)
        .collect();
    assert_eq!(lanterns.len(), 1, "exactly one Lantern");
    let board = app.world().resource::<depths_app::board::tiles::Board>();
    assert_eq!(Some(lanterns[0].truncate()), lantern_position(&board.view));
    // Further frames spawn nothing twice.
    frames(&mut app, 2);
    assert_eq!(tile_cells(&mut app).len(), 1);
}

#[test]
fn dropping_the_drawn_tile_on_a_legal_cell_places_it() {
    let mut app = menu_app("drop");
    start(&mut app, 1);
    act(&mut app, Action::DrawTile);
    app.update();
    let legal = legal_placements(&app);
    assert!(!legal.is_empty());
    let hints = app.world_mut().query::<&PlacementHint>().iter(app.world()).count();
    assert!(hints > 0, "legal cells are highlighted");
    let target = legal[0];
    app.world_mut().write_message(TileDrop { cell: target.cell, rotation: target.rotation });
    frames(&mut app, 2);
    assert_eq!(app.world().resource::<DropRefused>().0, None);
    let placed = game(&app).adventure().unwrap().ecology.map.tile_at(target.cell).cloned();
    assert_eq!(placed.map(|t| t.rotation), Some(target.rotation));
    assert!(tile_cells(&mut app).contains(&target.cell));
    assert_eq!(tile_cells(&mut app), rules_cells(&app));
    let hints = app.world_mut().query::<&PlacementHint>().iter(app.world()).count();
    assert_eq!(hints, 0, "no highlights once the tile is placed");
}

#[test]
fn an_illegal_drop_springs_back_and_changes_nothing() {
    let mut app = menu_app("illegal");
    start(&mut app, 1);
    act(&mut app, Action::DrawTile);
    let before = game(&app).clone();
    let cells = tile_cells(&mut app);
    app.world_mut().write_message(TileDrop { cell: (7, 7), rotation: Default::default() });
    frames(&mut app, 2);
    let reason = app.world().resource::<DropRefused>().0.clone();
    assert!(reason.is_some_and(|r| !r.is_empty()), "the reason is shown");
    assert_eq!(game(&app), &before, "the rules state is unchanged");
    assert_eq!(tile_cells(&mut app), cells);
    assert!(game(&app).adventure().unwrap().ecology.drawn.is_some(), "still in hand");
    // Its reason is for that drop: the tile turned, it is gone (it stayed
    // while the tile lay turned on a gold cell).
    frames(&mut app, 2);
    assert!(app.world().resource::<DropRefused>().0.is_some(), "it stays while the tile is left alone");
    let mut hand = app.world_mut().resource_mut::<depths_app::game::focus::TileInHand>();
    hand.rotation = depths_rules::map::Rotation::new(hand.rotation.quarter_turns() + 1);
    frames(&mut app, 2);
    assert_eq!(app.world().resource::<DropRefused>().0, None, "turned, the tile is no longer where it was refused");
}

/// Plays like the acceptance tests' steady policy, through UI messages, until `stop`.
fn play_until(app: &mut App, stop: impl Fn(&Game) -> bool, limit: usize) {
    for _ in 0..limit {
        if stop(game(app)) || game(app).is_over() {
            return;
        }
        let a = steady_policy(game(app));
        act(app, a);
    }
}

#[test]
fn a_combat_round_played_through_the_ui_follows_the_rules() {
    let mut app = menu_app("combat");
    start(&mut app, 3);
    play_until(&mut app, in_combat, 400);
    assert!(in_combat(game(&app)), "the steady explorer meets a Monster");
    let mut shadow = game(&app).clone();
    let health = |g: &Game| {
        let heroes: Vec<u8> = g.heroes.iter().map(|h| h.health).collect();
        let foes: Vec<u8> = g
            .combat()
            .map(|c| c.foes.iter().flat_map(|f| f.individuals.iter().map(|i| i.health)).collect())
            .unwrap_or_default();
        (heroes, foes)
    };
    let start_health = health(&shadow);
    // Play until a round has hurt someone, mirroring each choice on a copy.
    for _ in 0..200 {
        let g = game(&app);
        if !in_combat(g) || health(g) != start_health {
            break;
        }
        let a = steady_policy(g);
        shadow.apply(a.clone()).expect("legal");
        act(&mut app, a);
        assert_eq!(game(&app), &shadow, "the UI applied exactly the rules' result");
    }
    assert_ne!(health(game(&app)), start_health, "someone took damage");
    // On into the next round: the summary tells the damage of the one before.
    for _ in 0..200 {
        let g = game(&app);
        if !in_combat(g) || g.combat().is_some_and(|c| c.round >= 2) {
            break;
        }
        let a = steady_policy(g);
        act(&mut app, a);
    }
    assert!(game(&app).combat().is_some_and(|c| c.round == 2), "this fight lasts into a second round");
    let summary = &app.world().resource::<GameLog>().rounds;
    assert_eq!(summary.round, 1);
    assert!(summary.last.iter().any(|l| l.contains("damage")), "{:?}", summary.last);
    // The Hero mats heard the Health events.
    let health = app.world().resource::<depths_app::game::rules_events::HealthNews>();
    assert!(health.heroes.iter().any(|(_, by, _)| *by != 0), "{health:?}");
    // Each change stands at the table the move left, while the Hero's Health is what it left.
    let stamp = app.world().resource::<depths_app::game::session::Delve>().stamp();
    for (h, by, _) in &health.heroes {
        assert_eq!(health.change_of(*h, game(&app).heroes[usize::from(*h)].health, stamp), *by);
    }
}

/// Issue 55: the end of a fight tells what it cost each Hero. Read from the
/// words the table shows, each figure is the Health the Hero lost in it
/// (where no Level Up healed them after it).
#[test]
fn the_end_of_a_fight_tells_the_health_it_cost_each_hero() {
    use depths_app::game::rules_events::FightEnd;
    let (mut told, mut hurt) = (0, 0);
    for seed in [3, 5, 8, 13] {
        let mut app = menu_app(&format!("fight-end-{seed}"));
        start(&mut app, seed);
        for _ in 0..3 {
            play_until(&mut app, in_combat, 800);
            if !in_combat(game(&app)) {
                break;
            }
            let before: Vec<(u8, u8)> = game(&app).heroes.iter().map(|h| (h.health, h.level)).collect();
            assert_eq!(app.world().resource::<FightEnd>().moment, None, "nothing told while the fight goes on");
            play_until(&mut app, |g| !in_combat(g), 800);
            let end = app.world().resource::<FightEnd>().moment.clone().expect("the fight's end is told");
            let (title, lines) =
                depths_app::game::words::fight_end_words(game(&app), end.fell, &end.xp, end.cost.as_deref());
            assert_eq!(title == "Victory", !game(&app).is_over(), "{title}");
            for (hero, (health, level)) in game(&app).heroes.iter().zip(&before) {
                if hero.level != *level {
                    continue;
                }
                let lost = i16::from(*health) - i16::from(hero.health);
                let line = match lost {
                    0 => format!("{} lost no Health", hero.name()),
                    n => format!("{} lost {n} Health", hero.name()),
                };
                assert!(lines.contains(&line), "{line:?} not in {lines:?}");
                hurt += usize::from(lost > 0);
            }
            assert!(lines.iter().any(|l| l.contains("XP")) || game(&app).is_over(), "{lines:?}");
            told += 1;
            if game(&app).is_over() {
                break;
            }
        }
    }
    assert!(told >= 4 && hurt >= 1, "{told} fights told, {hurt} Heroes hurt");
}

#[test]
fn turning_the_tile_in_hand_updates_the_highlights() {
    let mut app = menu_app("turn");
    start(&mut app, 3);
    act(&mut app, Action::DrawTile);
    app.update();
    let legal = legal_placements(&app);
    for turns in 0..4u8 {
        app.world_mut().resource_mut::<depths_app::game::focus::TileInHand>().rotation =
            depths_rules::map::Rotation::new(turns);
        frames(&mut app, 2);
        let mut shown: Vec<(Cell, bool)> =
            app.world_mut().query::<&PlacementHint>().iter(app.world()).map(|h| (h.cell, h.now)).collect();
        shown.sort();
        let mut expected = depths_app::board::explore::hint_cells(&legal, depths_rules::map::Rotation::new(turns));
        expected.sort();
        assert_eq!(shown, expected, "{turns} quarter turns");
        for (cell, now) in shown {
            let fits_now = legal.iter().any(|p| p.cell == cell && p.rotation.quarter_turns() == turns);
            assert_eq!(now, fits_now);
        }
    }
}

/// Words a player reads hold no tile ids ("ruins-17") and no coordinates
/// ("(1, 0)").
fn assert_player_words(text: &str) {
    for eco in ["ruins-", "caverns-", "subterranean-"] {
        assert!(!text.to_lowercase().contains(eco), "a tile id in {text:?}");
    }
    let b = text.as_bytes();
    for (i, w) in b.windows(2).enumerate() {
        if w[0] == b'(' && (w[1].is_ascii_digit() || w[1] == b'-') {
            let rest = &text[i..];
            assert!(!rest.split(')').next().unwrap_or("").contains(", "), "a coordinate in {text:?}");
        }
    }
    assert!(!text.contains("Play just"), "{text:?}");
}

#[test]
fn every_legal_action_and_event_of_whole_games_has_words() {
    use depths_app::game::words::{describe_action, describe_event};
    for seed in 1..6 {
        let mut g =
            Game::new(GameOptions::standard(&["bren", "sil", "ava"], seed), Content::builtin().unwrap()).unwrap();
        let mut n = 0;
        while !g.is_over() && n < 2000 {
            for a in g.legal_actions() {
                let label = describe_action(&g, &a);
                assert!(!label.trim().is_empty(), "{a:?}");
                assert_player_words(&label);
            }
            let a = steady_policy(&g);
            for e in g.apply(a).unwrap() {
                if let Some(line) = describe_event(&g, &e) {
                    assert!(!line.trim().is_empty(), "{e:?}");
                    assert_player_words(&line);
                }
            }
            n += 1;
        }
        assert!(!depths_app::game::words::banner(&g).is_empty());
    }
}

#[test]
fn saving_then_loading_restores_the_same_board() {
    let mut app = menu_app("save");
    // Two players at the table: each owns one Hero; the save must keep that.
    let players = depths_app::game::hotseat::Players {
        names: vec!["Ann".into(), "Bo".into()],
        owners: vec![1, 0],
        curtain: true,
        ..Default::default()
    };
    app.insert_resource(players.clone());
    start(&mut app, 1);
    for _ in 0..3 {
        draw_and_place(&mut app);
    }
    app.world_mut().resource_mut::<SaveSlot>().due = true;
    app.update();
    let path = save_path(app.world().resource::<SaveDir>(), app.world().resource::<SaveSlot>());
    assert!(path.is_file(), "saved to {}", path.display());
    let saved_game = game(&app).clone();
    let saved_turn = app.world().resource::<Seats>().turn.clone();
    let saved_log = app.world().resource::<GameLog>().lines.clone();
    let cells = tile_cells(&mut app);
    assert_eq!(cells.len(), 4);
    // Another game in between changes the setup screen's players.
    app.insert_resource(depths_app::game::hotseat::Players::default());

    app.world_mut().write_message(MenuAction::BackToMenu);
    frames(&mut app, 2);
    assert_eq!(screen(&app), Screen::Menu);
    assert!(tile_cells(&mut app).is_empty());

    app.world_mut().write_message(LoadSave(path.clone()));
    frames(&mut app, 3);
    assert_eq!(screen(&app), Screen::Playing);
    assert_eq!(game(&app), &saved_game);
    assert_eq!(tile_cells(&mut app), cells);
    let seats = app.world().resource::<Seats>();
    assert_eq!(seats.players, players);
    assert_eq!(seats.turn, saved_turn);
    assert_eq!(
        app.world().resource::<GameLog>().lines[..saved_log.len()],
        saved_log[..],
        "the log is kept, then says it was loaded"
    );

    // Continue picks the newest save too.
    app.world_mut().write_message(MenuAction::BackToMenu);
    frames(&mut app, 2);
    app.world_mut().write_message(MenuAction::Continue);
    frames(&mut app, 4);
    assert_eq!(screen(&app), Screen::Playing);
    assert_eq!(game(&app), &saved_game);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn a_corrupt_save_shows_an_error_and_is_left_untouched() {
    let mut app = menu_app("corrupt");
    let dir = temp_dir("corrupt-file");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.json");
    std::fs::write(&path, "{\"format_version\": 1, \"heroes\": 7}").unwrap();
    app.world_mut().write_message(LoadSave(path.clone()));
    frames(&mut app, 3);
    assert_eq!(screen(&app), Screen::Menu);
    let notice = app.world().resource::<MenuNotice>().0.clone().unwrap_or_default();
    assert!(notice.contains("could not be loaded"), "{notice}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"format_version\": 1, \"heroes\": 7}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue: "with a damaged newest save, Continue stops the game, every time,
/// until the player finds and deletes the file by hand". Continue opens the
/// newest save that loads, says which did not and why, and leaves the
/// damaged file as it was.
#[test]
fn continue_passes_over_a_damaged_newest_save_to_the_newest_good_one() {
    let mut app = menu_app("continue-damaged");
    start(&mut app, 1);
    draw_and_place(&mut app);
    app.world_mut().resource_mut::<SaveSlot>().due = true;
    app.update();
    let good = save_path(app.world().resource::<SaveDir>(), app.world().resource::<SaveSlot>());
    let saved_game = game(&app).clone();
    app.world_mut().write_message(MenuAction::BackToMenu);
    frames(&mut app, 2);
    // A newer save, one number past what the game can hold.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let damaged = good.with_file_name("zz-damaged.json");
    let text = std::fs::read_to_string(&good).unwrap().replacen("\"format_version\":1", "\"format_version\":999", 1);
    std::fs::write(&damaged, &text).unwrap();
    assert_eq!(
        depths_app::game::saves::list_saves(good.parent().unwrap())[0],
        damaged,
        "the damaged save is the newest"
    );
    app.world_mut().write_message(MenuAction::Continue);
    frames(&mut app, 4);
    assert_eq!(screen(&app), Screen::Playing);
    assert_eq!(game(&app), &saved_game, "the newest good save opened");
    let said = app.world().resource::<GameLog>().lines.join("\n");
    assert!(said.contains("zz-damaged.json") && said.contains("does not load"), "{said}");
    assert_eq!(std::fs::read_to_string(&damaged).unwrap(), text, "the damaged save is kept as it was");
    let _ = std::fs::remove_dir_all(good.parent().unwrap());
}

/// "If the game ever stops on an error while a game is open, the next start
/// says so … and does not reopen that game without asking": Continue asks
/// once before opening the save that was open, then opens it.
#[test]
fn continue_asks_before_reopening_the_game_open_when_it_stopped() {
    use depths_app::game::saves::StoppedWith;
    let mut app = menu_app("continue-stopped");
    start(&mut app, 1);
    app.world_mut().resource_mut::<SaveSlot>().due = true;
    app.update();
    let path = save_path(app.world().resource::<SaveDir>(), app.world().resource::<SaveSlot>());
    app.world_mut().write_message(MenuAction::BackToMenu);
    frames(&mut app, 2);
    app.insert_resource(StoppedWith(Some(path.clone())));
    app.world_mut().write_message(MenuAction::Continue);
    frames(&mut app, 3);
    assert_eq!(screen(&app), Screen::Menu, "not reopened without asking");
    let notice = app.world().resource::<MenuNotice>().0.clone().unwrap_or_default();
    assert!(notice.contains("Continue again"), "{notice}");
    app.world_mut().write_message(MenuAction::Continue);
    frames(&mut app, 4);
    assert_eq!(screen(&app), Screen::Playing, "opened once asked");
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn back_to_menu_clears_the_board() {
    let mut app = menu_app("back");
    start(&mut app, 2);
    assert_eq!(tile_cells(&mut app).len(), 1);
    app.world_mut().write_message(MenuAction::BackToMenu);
    frames(&mut app, 2);
    assert_eq!(screen(&app), Screen::Menu);
    assert!(tile_cells(&mut app).is_empty(), "tiles despawn on leaving the board");
    assert!(!app.world().contains_resource::<Delve>());
    let lanterns = app.world_mut().query_filtered::<(), With<LanternToken>>().iter(app.world()).count();
    assert_eq!(lanterns, 0);
}

#[test]
fn new_game_flag_skips_the_menus_once() {
    let mut app = app_with(Options { seed: Some(5), new_game: true, ..Options::default() }, "flag");
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Menu);
    frames(&mut app, 4);
    assert_eq!(screen(&app), Screen::Playing);
    assert_eq!(game(&app).adventure().unwrap().options.seed, 5);
    assert_eq!(tile_cells(&mut app).len(), 1);
    app.world_mut().write_message(MenuAction::BackToMenu);
    frames(&mut app, 3);
    assert_eq!(screen(&app), Screen::Menu);
}

#[test]
fn quit_asks_the_app_to_exit() {
    let mut app = menu_app("quit");
    app.world_mut().write_message(MenuAction::Quit);
    frames(&mut app, 2);
    assert_eq!(app.should_exit(), Some(AppExit::Success));
}

/// Plays the steady way until `stop` holds, the game ends, or `limit` actions pass.
fn steady_until(g: &mut Game, stop: impl Fn(&Game) -> bool, limit: usize) {
    for _ in 0..limit {
        if g.is_over() || stop(g) {
            return;
        }
        let a = steady_policy(g);
        g.apply(a).unwrap();
    }
}

/// Plays a client session the steady way until `stop` holds or `limit` actions pass.
fn session_until(session: &mut Session, stop: impl Fn(&Game) -> bool, limit: usize) {
    for _ in 0..limit {
        if session.delve.game().is_over() || stop(session.delve.game()) {
            return;
        }
        let a = steady_policy(session.delve.game());
        session.apply(a).unwrap();
        session.record_news();
    }
}

/// Writes saves of interesting moments to /tmp/fd-saves for looking at the
/// client by hand (`--load`): `cargo test -p depths_app --test headless -- --ignored`.
#[test]
#[ignore]
fn make_saves_for_screenshots() {
    let dir = PathBuf::from("/tmp/fd-saves");
    std::fs::create_dir_all(&dir).unwrap();
    let mut g = Game::new(GameOptions::standard(&["bren", "sil"], 3), Content::builtin().unwrap()).unwrap();
    let write = |g: &Game, name: &str| std::fs::write(dir.join(name), g.save_json()).unwrap();
    for _ in 0..6 {
        g.apply(Action::DrawTile).unwrap();
        let p = g.legal_actions().into_iter().find(|a| matches!(a, Action::PlaceTile { .. })).unwrap();
        g.apply(p).unwrap();
    }
    g.apply(Action::DrawTile).unwrap();
    write(&g, "drawn.json");
    steady_until(&mut g, in_combat, 400);
    write(&g, "combat.json");
    steady_until(&mut g, |g| g.combat().is_some_and(|c| c.step == depths_rules::CombatStep::Resolve), 100);
    write(&g, "resolve.json");
    // The last move of a won fight: the Victory banner.
    let mut w = Game::new(GameOptions::standard(&["bren", "sil"], 11), Content::builtin().unwrap()).unwrap();
    for _ in 0..2000 {
        if w.is_over() {
            break;
        }
        let a = steady_policy(&w);
        let mut next = w.clone();
        let events = next.apply(a).unwrap();
        if events.contains(&depths_rules::Event::CombatWon) {
            write(&w, "winning-move.json");
            break;
        }
        w = next;
    }
    // Three Heroes in a fight, for the Combat window's layout.
    for seed in 1..20 {
        let mut g =
            Game::new(GameOptions::standard(&["bren", "sil", "ava"], seed), Content::builtin().unwrap()).unwrap();
        steady_until(&mut g, |g| g.combat().is_some_and(|c| c.round >= 2 && c.foes.len() >= 2), 2000);
        if g.combat().is_some_and(|c| c.round >= 2) {
            write(&g, "combat3.json");
            break;
        }
    }
    // Client saves (with the log and round summary): a Combat step in which
    // both Heroes may act (cards to play, then pairs to resolve), and the
    // Passage after the first Level Up.
    let both = |step: depths_rules::CombatStep| {
        move |g: &Game| g.combat().is_some_and(|c| c.round >= 2 && c.step == step && c.heroes_to_act().len() == 2)
    };
    for seed in 3..40 {
        let mut session = Session::new(
            Game::new(GameOptions::standard(&["bren", "sil"], seed), Content::builtin().unwrap()).unwrap(),
        );
        session_until(&mut session, both(depths_rules::CombatStep::PlayCards), 2000);
        if !both(depths_rules::CombatStep::PlayCards)(session.delve.game()) {
            continue;
        }
        let playing = depths_app::game::saves::save_text(&session.delve, &session.seats, &session.log);
        session_until(&mut session, both(depths_rules::CombatStep::Resolve), 200);
        if both(depths_rules::CombatStep::Resolve)(session.delve.game()) {
            std::fs::write(dir.join("combat-both.json"), playing).unwrap();
            std::fs::write(
                dir.join("resolve-both.json"),
                depths_app::game::saves::save_text(&session.delve, &session.seats, &session.log),
            )
            .unwrap();
            break;
        }
    }
    let mut session =
        Session::new(Game::new(GameOptions::standard(&["bren", "sil"], 1), Content::builtin().unwrap()).unwrap());
    for _ in 0..6000 {
        if session.delve.game().is_over() || matches!(session.delve.game().phase(), Phase::Passage { .. }) {
            break;
        }
        let a = depths_sim::Bot::choose(&mut depths_sim::HeuristicBot, session.delve.game());
        session.apply(a).unwrap();
        session.record_news();
    }
    assert!(matches!(session.delve.game().phase(), Phase::Passage { .. }));
    std::fs::write(
        dir.join("passage.json"),
        depths_app::game::saves::save_text(&session.delve, &session.seats, &session.log),
    )
    .unwrap();
    // Whole careful-bot games with their moves: the game-over sheet and its analysis.
    for seed in [3, 5, 84] {
        let mut session = Session::new(
            Game::new(GameOptions::standard(&["bren", "sil"], seed), Content::builtin().unwrap()).unwrap(),
        );
        while !session.delve.game().is_over() {
            let a = depths_sim::Bot::choose(&mut depths_sim::HeuristicBot, session.delve.game());
            session.apply(a).unwrap();
            session.record_news();
        }
        std::fs::write(
            dir.join(format!("over-seed{seed}.json")),
            depths_app::game::saves::save_text(&session.delve, &session.seats, &session.log),
        )
        .unwrap();
    }
    // A client save (with the round summary) in the second round of a fight.
    let mut session =
        Session::new(Game::new(GameOptions::standard(&["bren", "sil"], 3), Content::builtin().unwrap()).unwrap());
    let mut n = 0;
    while session.delve.game().combat().is_none_or(|c| c.round < 2) && !session.delve.game().is_over() && n < 1000 {
        let a = steady_policy(session.delve.game());
        session.apply(a).unwrap();
        session.record_news();
        n += 1;
    }
    std::fs::write(
        dir.join("round2.json"),
        depths_app::game::saves::save_text(&session.delve, &session.seats, &session.log),
    )
    .unwrap();
    let mut n = 0;
    let mut pendings = 0;
    while !g.is_over() && n < 5000 {
        if g.pending().is_some() && matches!(g.phase(), Phase::Exploring { .. }) {
            pendings += 1;
            write(&g, &format!("pending{pendings}.json"));
        }
        let a = steady_policy(&g);
        g.apply(a).unwrap();
        n += 1;
    }
    write(&g, "over.json");
    // A finished game that kept its moves: "Watch the replay".
    let content = Content::builtin().unwrap();
    let mut session = Session::new(Game::new(GameOptions::standard(&["bren", "sil"], 3), content).unwrap());
    session_until(&mut session, |_| false, 5000);
    assert!(session.delve.game().is_over());
    std::fs::write(
        dir.join("replayable.json"),
        depths_app::game::saves::save_text(&session.delve, &session.seats, &session.log),
    )
    .unwrap();
    // A Subterranean map a few tiles deep, and a Ruins map after some fights.
    let mut options = GameOptions::standard(&["bren", "sil"], 11);
    options.start = depths_rules::Ecology::Subterranean;
    let mut g = Game::new(options, Content::builtin().unwrap()).unwrap();
    steady_until(&mut g, |g| g.adventure().unwrap().ecology.map.tiles().len() >= 8, 500);
    write(&g, "subterranean.json");
    let mut options = GameOptions::standard(&["bren", "sil"], 12);
    options.start = depths_rules::Ecology::Caverns;
    let mut g = Game::new(options, Content::builtin().unwrap()).unwrap();
    let mut n = 0;
    // Tiles only, no Encounters: a wider map.
    while g.adventure().unwrap().ecology.map.tiles().len() < 12 && !g.is_over() && n < 800 {
        let legal = g.legal_actions();
        let a = legal
            .iter()
            .find(|a| matches!(a, Action::PlaceTile { .. } | Action::DrawTile))
            .cloned()
            .unwrap_or_else(|| steady_policy(&g));
        g.apply(a).unwrap();
        n += 1;
    }
    write(&g, "caverns.json");
    // An early and a late map of each Ecology (3 tiles; 16 or more), for
    // the screenshots of each Ecology's look.
    for (name, ecology) in [
        ("ruins", depths_rules::Ecology::Ruins),
        ("caverns", depths_rules::Ecology::Caverns),
        ("subterranean", depths_rules::Ecology::Subterranean),
    ] {
        let tiles = |g: &Game| g.adventure().map_or(0, |a| a.ecology.map.tiles().len());
        for seed in 1..20 {
            let mut options = GameOptions::standard(&["bren", "sil", "ava"], seed);
            options.start = ecology;
            let mut g = Game::new(options, Content::builtin().unwrap()).unwrap();
            steady_until(&mut g, |g| tiles(g) >= 3 && !in_combat(g), 500);
            let early = g.clone();
            // The fullest map of this Ecology at rest (no fight, no question).
            let mut late: Option<Game> = None;
            for _ in 0..3000 {
                if g.is_over() || g.adventure().is_none_or(|a| a.ecology.ecology != ecology) {
                    break;
                }
                if !in_combat(&g) && g.pending().is_none() && late.as_ref().is_none_or(|l| tiles(&g) > tiles(l)) {
                    late = Some(g.clone());
                }
                let a = depths_sim::Bot::choose(&mut depths_sim::HeuristicBot, &g);
                g.apply(a).unwrap();
            }
            if let Some(late) = late.filter(|l| tiles(l) >= 15) {
                write(&early, &format!("early-{name}.json"));
                write(&late, &format!("late-{name}.json"));
                break;
            }
        }
    }
    for seed in 1..40 {
        let mut g =
            Game::new(GameOptions::standard(&["bren", "sil", "ava"], seed), Content::builtin().unwrap()).unwrap();
        let mut wins = 0;
        let mut n = 0;
        while !g.is_over() && n < 3000 && wins < 2 {
            let was_combat = in_combat(&g);
            let a = steady_policy(&g);
            g.apply(a).unwrap();
            if was_combat && matches!(g.phase(), Phase::Exploring { .. }) {
                wins += 1;
            }
            n += 1;
        }
        if wins >= 2 && g.pending().is_none() && matches!(g.phase(), Phase::Exploring { .. }) {
            write(&g, "tokens.json");
            break;
        }
    }
    // The first moment of each kind of decision, the Final Entity and a win:
    // three Heroes played steadily, then two played by the careful bot (it
    // gets as far as Level Up and the Final Entity).
    use depths_sim::{Bot, HeuristicBot};
    let parties: [(&[&str], bool); 2] = [(&["bren", "sil", "ava"], false), (&["bren", "sil"], true)];
    for (heroes, careful) in parties {
        for seed in 1..40 {
            let mut g = Game::new(GameOptions::standard(heroes, seed), Content::builtin().unwrap()).unwrap();
            let mut n = 0;
            while !g.is_over() && n < 4000 {
                if let Some(p) = g.pending() {
                    let kind = format!("{p:?}").split([' ', '(', '{']).next().unwrap_or("x").to_owned();
                    if !dir.join(format!("pending-{kind}.json")).exists() {
                        write(&g, &format!("pending-{kind}.json"));
                    }
                }
                let final_entity = g.combat().is_some_and(|c| {
                    c.foes.iter().any(|f| matches!(f.card, depths_rules::combat::FoeCard::FinalEntity(_)))
                });
                if final_entity && !dir.join("final-entity.json").exists() {
                    write(&g, "final-entity.json");
                }
                let a = if careful { HeuristicBot.choose(&g) } else { steady_policy(&g) };
                // The moment before a Monster's Power or a Feature's test, to
                // see them revealed (the next move: the hint's, or a Companion's).
                let events = g.clone().apply(a.clone()).unwrap();
                for (kind, name) in [("MonsterAbility", "before-power.json"), ("TestResolved", "before-test.json")] {
                    let named = |e: &depths_rules::Event| format!("{e:?}").starts_with(kind);
                    if events.iter().any(named) && !dir.join(name).exists() {
                        write(&g, name);
                    }
                }
                g.apply(a).unwrap();
                n += 1;
            }
            if g.phase() == Phase::Won && !dir.join("won.json").exists() {
                write(&g, "won.json");
            }
        }
    }
}

// ---------------------------------------------------------------- hot-seat, rules reference, undo

fn hot_seat_app(name: &str, curtain: bool) -> App {
    use depths_app::game::hotseat::Players;
    let mut app = menu_app(name);
    app.insert_resource(Players {
        names: vec!["Ann".into(), "Bo".into()],
        owners: vec![0, 1],
        curtain,
        ..Default::default()
    });
    start(&mut app, 3);
    app
}

fn seats(app: &App) -> &Seats {
    app.world().resource::<Seats>()
}

fn game_log(app: &App) -> &GameLog {
    app.world().resource::<GameLog>()
}

fn lift(app: &mut App) {
    app.world_mut().write_message(depths_app::game::hotseat::LiftCurtain);
    app.update();
}

#[test]
fn the_banner_names_the_player_who_must_act_and_turns_rotate() {
    use depths_app::game::hotseat::banner_line;
    let mut app = hot_seat_app("banner", false);
    assert!(
        banner_line(game(&app), seats(&app)).starts_with("▶ Ann (Bren) — Exploring"),
        "{}",
        banner_line(game(&app), seats(&app))
    );
    assert_eq!(seats(&app).curtain(game(&app)), None, "no curtain when it is off");
    // Ann draws and places one tile: Bo's turn.
    act(&mut app, Action::DrawTile);
    assert!(banner_line(game(&app), seats(&app)).contains("Ann"));
    let p = legal_placements(&app)[0];
    act(&mut app, Action::PlaceTile { placement: p });
    if game(&app).pending().is_none() {
        assert_eq!(seats(&app).acting(game(&app)).player, 1);
        assert!(
            banner_line(game(&app), seats(&app)).starts_with("▶ Bo (Sil) — "),
            "{}",
            banner_line(game(&app), seats(&app))
        );
    }
    // In Combat every Hero with something to do may act: the banner names
    // each of their owners with their Heroes, the player who keeps the table first.
    for _ in 0..400 {
        let g = game(&app);
        if g.is_over() {
            break;
        }
        let heroes = g.combat().filter(|_| in_combat(g)).map(|c| c.heroes_to_act()).unwrap_or_default();
        if heroes.len() == 2 {
            let line = banner_line(game(&app), seats(&app));
            let acting = seats(&app).acting(game(&app));
            let name = |h: u8| g.heroes[usize::from(h)].name().to_owned();
            let first = format!("▶ {} ({})", ["Ann", "Bo"][acting.player], name(acting.hero.unwrap()));
            assert!(line.starts_with(&first), "{line}");
            for h in heroes {
                assert!(line.contains(&format!("{} ({})", ["Ann", "Bo"][usize::from(h)], name(h))), "{line}");
            }
            assert!(line.contains("— Combat") && line.contains("in any order"), "{line}");
            return;
        }
        let a = steady_policy(g);
        act(&mut app, a);
    }
    panic!("no Combat step where both Heroes may act was reached");
}

#[test]
fn the_curtain_hides_the_table_until_the_next_player_clicks() {
    let mut app = hot_seat_app("curtain", true);
    assert_eq!(seats(&app).curtain(game(&app)), Some(0), "Ann is asked to the table first");
    lift(&mut app);
    assert_eq!(seats(&app).curtain(game(&app)), None, "lifted for Ann");
    act(&mut app, Action::DrawTile);
    assert_eq!(seats(&app).curtain(game(&app)), None, "still Ann's turn");
    let p = legal_placements(&app)[0];
    act(&mut app, Action::PlaceTile { placement: p });
    if game(&app).pending().is_none() {
        // Ann sees her tile on the table first; the banner offers "Pass to Bo".
        assert_eq!(seats(&app).curtain(game(&app)), None, "not over the result of Ann's move");
        assert_eq!(seats(&app).hand_off_due(game(&app)), Some(1));
        hand_over(&mut app);
        assert_eq!(seats(&app).curtain(game(&app)), Some(1), "pass to Bo");
        lift(&mut app);
        assert_eq!(seats(&app).curtain(game(&app)), None);
        assert_eq!(seats(&app).hand_off_due(game(&app)), None);
    }
}

/// Issue 53: Undo worked behind the pass screen, taking back a move the
/// next player had not seen. It is refused there, with the reason, and
/// works again once the curtain is lifted.
#[test]
fn nothing_is_taken_back_behind_the_pass_screen() {
    use depths_app::game::session::TakeBack;
    let mut app = hot_seat_app("undo-curtain", true);
    lift(&mut app);
    act(&mut app, Action::DrawTile);
    let p = legal_placements(&app)[0];
    act(&mut app, Action::PlaceTile { placement: p });
    assert_eq!(seats(&app).hand_off_due(game(&app)), Some(1), "Ann placed her tile");
    hand_over(&mut app);
    assert!(seats(&app).curtain(game(&app)).is_some(), "the pass screen is up");
    let before = game(&app).clone();
    app.world_mut().write_message(TakeBack);
    app.update();
    assert!(game(&app) == &before, "nothing taken back behind the pass screen");
    let notice = game_log(&app).notice.clone().unwrap_or_default();
    assert!(notice.contains("pass screen"), "{notice}");
    lift(&mut app);
    app.world_mut().write_message(TakeBack);
    app.update();
    assert!(game(&app) != &before, "once lifted, Undo takes the move back");
}

fn hand_over(app: &mut App) {
    app.world_mut().write_message(depths_app::game::hotseat::HandOver);
    app.update();
}

/// Plays `steps` of a two-player game through the client (the careful bot
/// decides), handing the table over and lifting the curtain as a
/// pair of players would; returns (acting-player changes, curtains shown).
fn play_hot_seat(app: &mut App, steps: usize, mut check: impl FnMut(&App, usize, usize)) -> (usize, usize) {
    let (mut changes, mut curtains) = (0, 0);
    for _ in 0..steps {
        if game(app).is_over() {
            break;
        }
        if seats(app).curtain(game(app)).is_some() {
            curtains += 1;
            lift(app);
        }
        let before = seats(app).acting(game(app)).player;
        let a = depths_sim::Bot::choose(&mut depths_sim::HeuristicBot, game(app));
        act(app, a);
        let after = seats(app).acting(game(app)).player;
        if after != before {
            changes += 1;
        }
        check(app, before, after);
        if seats(app).hand_off_due(game(app)).is_some() {
            hand_over(app);
        }
    }
    (changes, curtains)
}

#[test]
fn with_the_curtain_off_no_curtain_ever_shows_in_a_two_player_game() {
    let mut app = hot_seat_app("curtain-off", false);
    let (changes, _) = play_hot_seat(&mut app, 600, |app, _, _| {
        assert_eq!(seats(app).curtain(game(app)), None);
        assert_eq!(seats(app).hand_off_due(game(app)), None);
    });
    assert!(changes >= 20, "the table changed hands {changes} times");
}

#[test]
fn with_the_curtain_on_it_shows_only_when_the_acting_player_changes() {
    let mut app = hot_seat_app("curtain-on", true);
    lift(&mut app);
    let (changes, curtains) = play_hot_seat(&mut app, 600, |app, before, after| {
        let (s, g) = (seats(app), game(app));
        // Never over the result of the move just made: the player who made
        // it sees it, and the banner offers the hand-off only if hands change.
        assert_eq!(s.curtain(g), None, "no curtain right after a move");
        if g.is_over() {
            return;
        }
        if after == before {
            assert_eq!(s.hand_off_due(g), None, "no hand-off between two steps of one player");
        } else {
            assert_eq!(s.hand_off_due(g), Some(after), "hands change: pass to the next player");
        }
    });
    assert!(changes >= 20, "the table changed hands {changes} times");
    assert_eq!(curtains, changes, "one curtain per change of hands, no more");
}

#[test]
fn an_action_tried_while_the_table_should_pass_brings_the_curtain_instead() {
    let mut app = hot_seat_app("curtain-input", true);
    lift(&mut app);
    draw_and_place(&mut app);
    if seats(&app).hand_off_due(game(&app)) == Some(1) {
        let before = game(&app).clone();
        act(&mut app, Action::DrawTile);
        assert_eq!(game(&app), &before, "Ann's next input hands over, it does not act for Bo");
        assert_eq!(seats(&app).curtain(game(&app)), Some(1));
    }
}

#[test]
fn switching_the_curtain_on_mid_game_hides_nothing_until_hands_change() {
    use depths_app::game::hotseat::SetCurtain;
    let mut app = hot_seat_app("curtain-switch", false);
    act(&mut app, Action::DrawTile);
    app.world_mut().write_message(SetCurtain(true));
    app.update();
    assert!(seats(&app).players.curtain);
    assert_eq!(seats(&app).curtain(game(&app)), None, "Ann is at the table");
    let p = legal_placements(&app)[0];
    act(&mut app, Action::PlaceTile { placement: p });
    if game(&app).pending().is_none() {
        assert_eq!(seats(&app).hand_off_due(game(&app)), Some(1));
    }
    app.world_mut().write_message(SetCurtain(false));
    app.update();
    assert_eq!((seats(&app).curtain(game(&app)), seats(&app).hand_off_due(game(&app))), (None, None));
}

// ---------------------------------------------------------------- leaving is safe

#[test]
fn menu_then_continue_returns_to_the_very_last_move() {
    let mut app = menu_app("leave-menu");
    start(&mut app, 5);
    for _ in 0..2 {
        draw_and_place(&mut app);
    }
    // A tile drawn just now: its save may still be on its way; leaving writes it at once.
    act(&mut app, Action::DrawTile);
    let last = game(&app).save_json();
    let turn = seats(&app).turn.clone();
    app.world_mut().write_message(MenuAction::BackToMenu);
    frames(&mut app, 2);
    assert_eq!(screen(&app), Screen::Menu);
    app.world_mut().write_message(MenuAction::Continue);
    frames(&mut app, 3);
    assert_eq!(screen(&app), Screen::Playing);
    assert_eq!(game(&app).save_json(), last, "Continue restores exactly the last move");
    assert_eq!(seats(&app).turn, turn);
}

#[test]
fn a_close_request_saves_the_game_before_the_app_exits() {
    use bevy::window::WindowCloseRequested;
    let mut app = menu_app("leave-close");
    start(&mut app, 6);
    draw_and_place(&mut app);
    act(&mut app, Action::DrawTile);
    let last = game(&app).save_json();
    let path = save_path(app.world().resource::<SaveDir>(), app.world().resource::<SaveSlot>());
    let _ = std::fs::remove_file(&path);
    assert_eq!(app.should_exit(), None);
    app.world_mut().write_message(WindowCloseRequested { window: Entity::PLACEHOLDER });
    app.update();
    assert_eq!(app.should_exit(), Some(AppExit::Success), "the close button exits");
    let (saved, _) = depths_app::game::saves::read_save(&path).expect("saved before exiting");
    assert_eq!(saved.save_json(), last);
}

#[test]
fn quitting_saves_the_game_on_the_table() {
    let mut app = menu_app("leave-quit");
    start(&mut app, 7);
    act(&mut app, Action::DrawTile);
    let last = game(&app).save_json();
    let path = save_path(app.world().resource::<SaveDir>(), app.world().resource::<SaveSlot>());
    app.world_mut().write_message(AppExit::Success);
    app.update();
    let (saved, _) = depths_app::game::saves::read_save(&path).expect("saved on exit");
    assert_eq!(saved.save_json(), last);
}

#[test]
fn one_player_sees_no_curtain_and_the_plain_banner() {
    let mut app = menu_app("solo");
    start(&mut app, 1);
    assert_eq!(seats(&app).curtain(game(&app)), None);
    assert_eq!(
        depths_app::game::hotseat::banner_line(game(&app), seats(&app)),
        depths_app::game::words::banner(game(&app))
    );
}

#[test]
fn f1_opens_the_rules_reference_and_search_filters_it() {
    use depths_app::ui::rules_ref::{RulesWindow, Tab, matching_sections, sections};
    let mut app = menu_app("rules");
    app.init_resource::<ButtonInput<KeyCode>>();
    assert!(!app.world().resource::<RulesWindow>().open);
    let press = |app: &mut App, key: KeyCode| {
        app.world_mut().resource_mut::<ButtonInput<KeyCode>>().press(key);
        app.update();
        let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
        keys.release(key);
        keys.clear();
        app.update();
    };
    press(&mut app, KeyCode::F1);
    let w = app.world().resource::<RulesWindow>().clone();
    assert!(w.open && w.tab == Tab::Rulebook, "{w:?}");
    press(&mut app, KeyCode::F2);
    assert_eq!(app.world().resource::<RulesWindow>().tab, Tab::Shortcuts);
    press(&mut app, KeyCode::F2);
    assert!(!app.world().resource::<RulesWindow>().open, "F2 again closes it");
    // Menu → Rules opens it too.
    app.world_mut().write_message(MenuAction::Rules);
    frames(&mut app, 2);
    assert!(app.world().resource::<RulesWindow>().open);
    let hits = matching_sections("campfire");
    assert!(!hits.is_empty() && hits.len() < sections().len());
    assert!(hits.iter().all(|i| {
        let s = &sections()[*i];
        (s.title.clone() + &s.body).to_lowercase().contains("campfire")
    }));
}

fn undo_state(app: &App) -> &Undo {
    app.world().resource::<Undo>()
}

fn last_line(app: &App) -> String {
    app.world().resource::<GameLog>().lines.last().cloned().unwrap_or_default()
}

#[test]
fn undo_takes_the_placement_back_and_redo_makes_it_again_but_not_across_the_draw() {
    use depths_app::game::session::{PutBack, TakeBack};
    let mut app = menu_app("undo");
    start(&mut app, 1);
    act(&mut app, Action::DrawTile);
    let before = game(&app).clone();
    let cells = tile_cells(&mut app);
    let entities = tile_entities(&mut app);
    let p = legal_placements(&app)[0];
    let logged = app.world().resource::<GameLog>().lines.len();
    act(&mut app, Action::PlaceTile { placement: p });
    app.update();
    let after = game(&app).clone();
    let placed_lines = app.world().resource::<GameLog>().lines[logged..].to_vec();
    assert_ne!(tile_cells(&mut app), cells);
    assert_eq!(undo_state(&app).undoable(), 1);
    app.world_mut().write_message(TakeBack);
    frames(&mut app, 2);
    assert_eq!(game(&app), &before, "the rules state is back");
    assert_eq!(tile_cells(&mut app), cells, "and the board");
    assert_eq!(tile_entities(&mut app), entities, "only the placed tile left the table");
    assert!(game(&app).adventure().unwrap().ecology.drawn.is_some(), "the tile is in hand again");
    assert!(last_line(&app).starts_with("Took back: "), "{}", last_line(&app));
    // The tile's draw revealed it: nothing before that is taken back.
    app.world_mut().write_message(TakeBack);
    frames(&mut app, 2);
    assert_eq!(game(&app), &before, "an undo across the draw changes nothing");
    let notice = app.world().resource::<GameLog>().notice.clone().unwrap_or_default();
    assert!(notice.contains("a Map Tile was drawn since"), "{notice}");
    // Redo lays it again, and the log tells the move once, as made again.
    let logged = app.world().resource::<GameLog>().lines.len();
    app.world_mut().write_message(PutBack);
    frames(&mut app, 2);
    assert_eq!(game(&app), &after, "made again exactly");
    let redone = app.world().resource::<GameLog>().lines[logged..].to_vec();
    let told: Vec<String> = placed_lines
        .iter()
        .enumerate()
        .map(|(i, l)| if i == 0 { format!("Made again: {l}") } else { l.clone() })
        .collect();
    assert_eq!(redone, told, "the move's own lines, the first marked");
    assert_eq!(tile_cells(&mut app), rules_cells(&app), "the board shows it");
    assert!(undo_state(&app).next_redo().is_none());
    if game(&app).check(&Action::DrawTile).is_ok() {
        act(&mut app, Action::DrawTile);
        assert_eq!(undo_state(&app).undoable(), 0, "the next tile drawn ends what can be taken back");
    }
}

/// "A save after an undo holds only the moves that stand": the move list
/// saved replays to the game as it now is, Continue returns to it, and the
/// replay viewer's last step is it.
#[test]
fn a_save_after_an_undo_holds_only_the_moves_that_stand() {
    use depths_app::game::session::TakeBack;
    let mut app = menu_app("undo-save");
    start(&mut app, 1);
    for _ in 0..2 {
        draw_and_place(&mut app);
    }
    let moves = |app: &App| app.world().resource::<Delve>().history.clone().expect("a game's moves");
    let made = moves(&app).len();
    app.world_mut().write_message(TakeBack);
    frames(&mut app, 3);
    let standing = game(&app).clone();
    assert_eq!(moves(&app).len(), made - 1, "the move taken back left the move list");
    // The undo asked for a save: the newest save is the game as it now is.
    let path = save_path(app.world().resource::<SaveDir>(), app.world().resource::<SaveSlot>());
    assert!(path.is_file(), "saved to {}", path.display());
    let mut replayed = Game::new(GameOptions::standard(&["bren", "sil"], 1), Content::builtin().unwrap()).unwrap();
    for a in moves(&app) {
        replayed.apply(a).expect("every standing move replays");
    }
    assert_eq!(replayed, standing, "the saved moves replay to the game on the table");
    app.world_mut().write_message(MenuAction::BackToMenu);
    frames(&mut app, 2);
    app.world_mut().write_message(MenuAction::Continue);
    frames(&mut app, 4);
    assert_eq!(screen(&app), Screen::Playing);
    assert_eq!(game(&app), &standing, "Continue returns to the game after the undo");
    // The replay viewer, from the same save, ends at the game as it now is.
    use depths_app::game::replay::{GoToStep, Replay, ReplaySave};
    app.world_mut().write_message(MenuAction::BackToMenu);
    frames(&mut app, 2);
    app.world_mut().write_message(ReplaySave(path.clone()));
    frames(&mut app, 4);
    let steps = app.world().resource::<Replay>().history.len();
    assert_eq!(steps, made - 1, "the replay holds the standing moves only");
    app.world_mut().write_message(GoToStep(steps));
    frames(&mut app, 3);
    assert_eq!(game(&app), &standing, "the replay's last step is the game after the undo");
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// "Take back any move that revealed nothing": a whole three-Hero game
/// through the client, in which a card played, a pair chosen and a
/// purchase are each taken back (the game exactly as before, the log saying
/// so) and made again (exactly as after), then played on to the end.
#[test]
fn a_card_a_pair_and_a_purchase_are_taken_back_and_made_again_in_a_three_hero_game() {
    use depths_app::game::session::{PutBack, TakeBack};
    use depths_sim::{Bot, HeuristicBot};
    let mut app = menu_app("undo3");
    app.world_mut().write_message(StartGame(GameOptions::standard(&["bren", "sil", "ava"], 2)));
    frames(&mut app, 3);
    let mut tried: Vec<&str> = Vec::new();
    for _ in 0..20_000 {
        if game(&app).is_over() {
            break;
        }
        let before = game(&app).clone();
        let a = HeuristicBot.choose(&before);
        let kind = match &a {
            Action::PlayCard { .. } => "card",
            Action::ChoosePair { .. } => "pair",
            Action::StartPurchase { .. } => "purchase",
            _ => "",
        };
        act(&mut app, a.clone());
        if kind.is_empty() || tried.contains(&kind) || undo_state(&app).undoable() == 0 {
            continue;
        }
        let after = game(&app).clone();
        app.world_mut().write_message(TakeBack);
        frames(&mut app, 2);
        assert_eq!(game(&app), &before, "{kind} taken back exactly: {a:?}");
        assert!(last_line(&app).starts_with("Took back: "), "{}", last_line(&app));
        app.world_mut().write_message(PutBack);
        frames(&mut app, 2);
        assert_eq!(game(&app), &after, "{kind} made again exactly");
        tried.push(kind);
    }
    assert!(game(&app).is_over(), "the game played on to its end");
    tried.sort();
    assert_eq!(tried, ["card", "pair", "purchase"]);
}

#[test]
fn the_dead_end_gauge_counts_the_pile() {
    let mut app = menu_app("gauge");
    start(&mut app, 1);
    let (dead, total) = app.world().resource::<Delve>().dead_ends_in_pile();
    assert_eq!(total, game(&app).adventure().unwrap().ecology.pile.len());
    assert!(dead <= total);
}

#[test]
fn the_cards_in_play_are_laid_on_the_table() {
    use depths_app::table::faces::{Kind, table_faces};
    let faces_of = |g: &Game| table_faces(g, &g.legal_actions());
    let mut app = menu_app("cards");
    start(&mut app, 3);
    assert!(faces_of(game(&app)).is_empty(), "no cards while exploring");
    play_until(&mut app, |g| in_combat(g) && faces_of(g).iter().any(|f| f.kind == Kind::Hero), 600);
    let g = game(&app);
    let faces = faces_of(g);
    let c = g.combat().expect("in Combat");
    let played: usize = c.engagements.iter().flat_map(|e| &e.slots).filter(|s| s.hero.is_some()).count();
    assert_eq!(faces.iter().filter(|f| f.kind == Kind::Hero).count(), played, "one card per played Hero card");
    let heroes: Vec<&str> = g.heroes.iter().map(|h| h.name()).collect();
    assert!(faces.iter().filter(|f| f.kind == Kind::Hero).all(|f| heroes.contains(&f.name.as_str())));
    let mut keys: Vec<String> = faces.iter().map(|f| f.key.to_string()).collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), faces.len(), "every card has its own key");
    // Once the Monster's cards are down, one health token per engagement says what it has left.
    play_until(&mut app, |g| faces_of(g).iter().any(|f| f.kind == Kind::Monster), 200);
    let g = game(&app);
    let c = g.combat().expect("still in Combat");
    let faces = faces_of(g);
    let tokens: Vec<u16> = faces.iter().filter_map(|f| f.health).collect();
    let expected: Vec<u16> = c
        .engagements
        .iter()
        .filter(|en| en.slots.iter().any(|s| s.monster.is_some()) || !en.unpaired.is_empty() || en.waiting.is_some())
        .map(|en| c.foes[usize::from(en.foe)].individuals.iter().map(|i| u16::from(i.health)).sum())
        .collect();
    assert!(!tokens.is_empty(), "a Monster card carries its health token");
    assert_eq!(tokens, expected);
    assert!(faces.iter().filter(|f| f.health.is_some()).all(|f| f.kind == Kind::Monster));
}

/// "Done when": two players, two Heroes, the pass-to screen on, a whole game
/// through the client's own inputs: tiles go down by drag-and-drop (`TileDrop`),
/// every other choice is a button (`PlayerAction`), and each player lifts the
/// curtain before acting (and, in a Combat step, passes the table to an ally
/// the bot wants to act first). The careful bot decides; the client must carry
/// it through Level Up and the Passages to the Final Entity and the win, with
/// the board matching the rules map.
#[test]
fn a_whole_two_hero_hot_seat_game_plays_to_the_win_through_the_client() {
    use depths_app::game::hotseat::Players;
    use depths_sim::{Bot, HeuristicBot};
    let mut app = menu_app("whole");
    let players =
        Players { names: vec!["Ann".into(), "Bo".into()], owners: vec![0, 1], curtain: true, ..Default::default() };
    app.insert_resource(players.clone());
    // Seed 6: under the Combat rules as the book has them (one pair per Hero
    // in all, a Round's Damage settled at once whatever the order the Heroes
    // act in) the careful bot wins it (`depths-sim play --bot heuristic`).
    start(&mut app, 6);
    use depths_app::game::hotseat::{PassTable, action_hero, heroes_to_act, made_together};
    use depths_app::game::play_phase::PlayPhase;
    let (mut passes, mut acted_by, mut drops, mut early) = (0, [0usize; 2], 0, 0);
    let mut tables: Vec<PlayPhase> = Vec::new();
    for _ in 0..10000 {
        if game(&app).is_over() {
            break;
        }
        let phase = *app.world().resource::<State<PlayPhase>>().get();
        if !tables.contains(&phase) {
            tables.push(phase);
        }
        if seats(&app).hand_off_due(game(&app)).is_some() {
            hand_over(&mut app);
            assert!(seats(&app).curtain(game(&app)).is_some(), "handed over: the curtain is down");
        }
        if seats(&app).curtain(game(&app)).is_some() {
            passes += 1;
            lift(&mut app);
            assert_eq!(seats(&app).curtain(game(&app)), None, "the curtain lifts for the player who must act");
            continue;
        }
        let acting = seats(&app).acting(game(&app));
        if let Some(h) = acting.hero {
            assert_eq!(acting.player, players.owner(h), "a Hero's choice is asked of its owner");
            assert!(heroes_to_act(game(&app)).contains(&h));
        }
        let before = game(&app).clone();
        let a = HeuristicBot.choose(&before);
        // Heroes act in any order within a Combat step: the bot may want an
        // ally to act first. Behind the curtain only the player at the table
        // acts, for their own Heroes, so the table is passed to the ally.
        // (A choice made together is made by whoever is at the table.)
        if let Some(h) = action_hero(&a)
            && players.owner(h) != acting.player
            && !made_together(game(&app))
        {
            let mine = seats(&app).heroes_at_table(game(&app)).expect("behind the curtain in Combat");
            assert!(!mine.contains(&h));
            app.world_mut().write_message(PassTable(players.owner(h)));
            app.update();
            assert_eq!(seats(&app).curtain(game(&app)), Some(players.owner(h)), "the table goes to the ally");
            early += 1;
            continue;
        }
        acted_by[acting.player] += 1;
        match a {
            Action::PlaceTile { placement } => {
                app.world_mut().write_message(TileDrop { cell: placement.cell, rotation: placement.rotation });
                frames(&mut app, 2);
                drops += 1;
                assert_eq!(tile_cells(&mut app), rules_cells(&app), "the board shows the rules map");
            }
            other => act(&mut app, other.clone()),
        }
        assert_ne!(game(&app), &before, "every choice was applied");
    }
    println!(
        "{drops} tiles dropped, the table passed {passes} times ({early} before a player was done), choices per player {acted_by:?}"
    );
    for t in [
        PlayPhase::Exploring,
        PlayPhase::Encountering,
        PlayPhase::Combat(depths_rules::CombatStep::PlayCards),
        PlayPhase::LevelUp,
        PlayPhase::Passage,
    ] {
        assert!(tables.contains(&t), "the table went through {t:?}: {tables:?}");
    }
    assert_eq!(game(&app).phase(), Phase::Won, "the careful bot wins seed 9");
    assert!(drops >= 40, "{drops} tiles were dropped onto the board");
    assert!(passes >= 10, "the table passed between the players {passes} times");
    assert!(acted_by.iter().all(|n| *n > 50), "both players acted: {acted_by:?}");
    let record = &game(&app).adventure().unwrap().record;
    assert_eq!(record.ecologies_cleared.len(), 3);
}

/// The Lantern token is at once where the rules put it; its picture is told
/// where it came from, to walk over.
#[test]
fn the_lantern_moves_with_the_heroes_and_remembers_where_from() {
    use depths_app::board::tiles::LanternMove;
    let mut app = menu_app("lantern");
    start(&mut app, 3);
    let at = |app: &mut App| {
        app.world_mut().query_filtered::<&Transform, With<LanternToken>>().single(app.world()).unwrap().translation
    };
    let first = at(&mut app);
    for _ in 0..400 {
        let a = steady_policy(game(&app));
        act(&mut app, a);
        app.update();
        if at(&mut app) != first {
            break;
        }
    }
    let now = at(&mut app);
    assert_ne!(now, first, "the Heroes went somewhere");
    let board = app.world().resource::<depths_app::board::tiles::Board>();
    assert_eq!(now.truncate(), lantern_position(&board.view).unwrap(), "the token is where the rules say");
    let moved = app.world_mut().query::<&LanternMove>().single(app.world()).map(|m| m.from).ok();
    assert_eq!(moved, Some(first), "the picture walks from the old place");
}

/// The `Table` sub-state mirrors the rules core: Exploring, Encountering,
/// each Combat step, the end.
#[test]
fn the_table_state_follows_the_game() {
    use depths_app::game::play_phase::PlayPhase;
    let mut app = menu_app("table");
    start(&mut app, 3);
    let phase = |app: &App| *app.world().resource::<State<PlayPhase>>().get();
    assert_eq!(phase(&app), PlayPhase::Exploring);
    let mut seen_combat = false;
    for _ in 0..3000 {
        if game(&app).is_over() {
            break;
        }
        let a = steady_policy(game(&app));
        act(&mut app, a);
        app.update();
        assert_eq!(phase(&app), PlayPhase::of(game(&app)), "the state follows after a frame");
        seen_combat |= matches!(phase(&app), PlayPhase::Combat(_));
    }
    assert!(seen_combat, "a Combat was reached");
    assert_eq!(phase(&app), PlayPhase::Over);
    // Back to the menu: the sub-state goes with the board.
    app.world_mut().write_message(MenuAction::BackToMenu);
    frames(&mut app, 2);
    assert!(app.world().get_resource::<State<PlayPhase>>().is_none());
}

/// Two Heroes against one Monster card, both still to play: the step's Heroes.
fn both_play(g: &Game) -> bool {
    g.combat().is_some_and(|c| c.step == depths_rules::CombatStep::PlayCards && c.heroes_to_act() == vec![0, 1])
}

/// "All Heroes perform each Step simultaneously": both Heroes may play, in
/// any order (Sil before Bren here); a Hero who is done is refused with a
/// reason naming them, while the other still plays. Each Hero then resolves
/// one Combat Pair in all.
#[test]
fn both_heroes_act_in_a_combat_step_in_any_order() {
    use depths_app::game::play_phase::PlayPhase;
    use depths_rules::CombatStep;
    let mut app = menu_app("simultaneous");
    start(&mut app, 3);
    play_until(&mut app, both_play, 600);
    assert!(both_play(game(&app)), "a step where both Heroes play was reached");
    app.update();
    assert_eq!(*app.world().resource::<State<PlayPhase>>().get(), PlayPhase::Combat(CombatStep::PlayCards));
    let banner = depths_app::game::words::banner(game(&app));
    assert!(banner.contains("Bren and Sil play cards, in any order"), "{banner}");
    let bren_first = Action::PlayCard { hero: 0, card: game(&app).heroes[0].hand[0].id };
    assert!(game(&app).legal_actions().contains(&bren_first), "Bren may play too");
    // Sil plays every card she must before Bren plays any.
    let mut sil_played = 0;
    while game(&app).combat().is_some_and(|c| c.step == CombatStep::PlayCards && c.may_act(1)) {
        let card = game(&app).heroes[1].hand[0].id;
        act(&mut app, Action::PlayCard { hero: 1, card });
        assert_eq!(game_log(&app).notice, None, "Sil's card is taken");
        sil_played += 1;
        assert!(sil_played <= 3);
    }
    assert!(sil_played >= 1);
    let c = game(&app).combat().unwrap();
    assert_eq!(c.step, CombatStep::PlayCards, "Bren has not played yet");
    assert_eq!(c.heroes_to_act(), vec![0]);
    assert!(c.engagements.iter().all(|e| e.hero == 0 || e.slots.iter().all(|s| s.hero.is_some())));
    // Sil is done: her next card is refused, and the reason names her.
    if let Some(card) = game(&app).heroes[1].hand.first().map(|c| c.id) {
        let before = game(&app).clone();
        act(&mut app, Action::PlayCard { hero: 1, card });
        assert_eq!(game(&app), &before);
        let notice = game_log(&app).notice.clone().unwrap_or_default();
        assert!(notice.starts_with("Sil has nothing left to do"), "{notice}");
    }
    // Bren plays; then both may resolve a pair, one pair each in all.
    play_until(&mut app, |g| g.combat().is_none_or(|c| c.step != CombatStep::PlayCards), 10);
    let resolving = |g: &Game| g.combat().is_some_and(|c| c.step == CombatStep::Resolve);
    play_until(&mut app, resolving, 10);
    if resolving(game(&app)) && game(&app).combat().unwrap().heroes_to_act() == vec![0, 1] {
        let pick = |g: &Game, hero: u8| {
            g.legal_actions().into_iter().find(|a| matches!(a, Action::ChoosePair { hero: h, .. } if *h == hero))
        };
        if let Some(a) = pick(game(&app), 1) {
            act(&mut app, a);
            let c = game(&app).combat().unwrap();
            assert!(c.chosen_engagement(1).is_some(), "Sil resolves before Bren");
            assert_eq!(pick(game(&app), 1), None, "one Combat Pair in all");
            assert!(c.may_act(0) && c.may_act(1), "both still act until they end their turn");
        }
    }
}

/// Hot-seat in a simultaneous step: the player at the table keeps it while
/// one of their Heroes may act, may hand it to an ally early, and gets it
/// back when the ally is done.
#[test]
fn in_a_simultaneous_step_the_table_can_pass_between_players() {
    use depths_app::game::hotseat::{Acting, PassTable};
    let mut app = hot_seat_app("simul-seat", true);
    play_until(&mut app, both_play, 600);
    assert!(both_play(game(&app)));
    lift(&mut app);
    let who = seats(&app).acting(game(&app)).player;
    let other = 1 - who;
    assert_eq!(seats(&app).curtain(game(&app)), None);
    assert_eq!(seats(&app).heroes_at_table(game(&app)), Some(vec![who as u8]), "each player acts for their own Heroes");
    // Passing to a player with nothing to do is ignored.
    app.world_mut().write_message(PassTable(7));
    app.update();
    assert_eq!(seats(&app).curtain(game(&app)), None);
    // The player at the table lets the ally go first.
    app.world_mut().write_message(PassTable(other));
    app.update();
    assert_eq!(seats(&app).curtain(game(&app)), Some(other), "the curtain asks for the ally");
    lift(&mut app);
    assert_eq!(seats(&app).acting(game(&app)), Acting { player: other, hero: Some(other as u8) });
    while game(&app).combat().is_some_and(|c| c.step == depths_rules::CombatStep::PlayCards && c.may_act(other as u8)) {
        let card = game(&app).heroes[other].hand[0].id;
        act(&mut app, Action::PlayCard { hero: other as u8, card });
    }
    assert_eq!(seats(&app).curtain(game(&app)), None, "the ally sees the result of their last card");
    assert_eq!(seats(&app).hand_off_due(game(&app)), Some(who), "back to the player whose Hero still has to play");
    hand_over(&mut app);
    assert_eq!(seats(&app).curtain(game(&app)), Some(who));
}

/// After the Stair Guardian: Level Up, then the Passage (its own phase,
/// saved on the way in) until the players Descend to the next Ecology.
#[test]
fn after_level_up_the_passage_waits_for_descend() {
    use depths_app::game::play_phase::PlayPhase;
    use depths_app::game::words::describe_action;
    use depths_sim::{Bot, HeuristicBot};
    let mut g = Game::new(GameOptions::standard(&["bren", "sil"], 1), Content::builtin().unwrap()).unwrap();
    for _ in 0..6000 {
        if g.is_over() || matches!(g.phase(), Phase::LevelUp { decision: None }) {
            break;
        }
        let a = HeuristicBot.choose(&g);
        g.apply(a).unwrap();
    }
    assert_eq!(g.phase(), Phase::LevelUp { decision: None }, "the careful bot reaches Level Up");
    let mut app = menu_app("passage");
    let dir = temp_dir("passage-file");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("levelup.json");
    std::fs::write(&path, g.save_json()).unwrap();
    app.world_mut().write_message(LoadSave(path.clone()));
    frames(&mut app, 3);
    let phase = |app: &App| *app.world().resource::<State<PlayPhase>>().get();
    assert_eq!(phase(&app), PlayPhase::LevelUp);
    assert_eq!(describe_action(game(&app), &Action::FinishLevelUp), "Finish Level Up: the Ruins are complete");
    act(&mut app, Action::FinishLevelUp);
    app.update();
    assert_eq!(game(&app).phase(), Phase::Passage { next: depths_rules::Ecology::Caverns });
    assert_eq!(phase(&app), PlayPhase::Passage);
    assert_eq!(game(&app).legal_actions(), vec![Action::Descend], "only Descend goes on");
    assert_eq!(describe_action(game(&app), &Action::Descend), "Descend to the Caverns");
    assert_eq!(depths_app::game::words::banner(game(&app)), "The Ruins are behind you — descend to the Caverns");
    assert!(game_log(&app).lines.last().is_some_and(|l| l.contains("record the Heroes")), "{:?}", game_log(&app).lines);
    // The phase change saved the game, at the Passage.
    let saved_to = save_path(app.world().resource::<SaveDir>(), app.world().resource::<SaveSlot>());
    let (saved, _) = depths_app::game::saves::read_save(&saved_to).unwrap();
    assert_eq!(&saved, game(&app));
    act(&mut app, Action::Descend);
    app.update();
    assert_eq!(phase(&app), PlayPhase::Exploring);
    assert_eq!(game(&app).adventure().unwrap().ecology.ecology, depths_rules::Ecology::Caverns);
    assert_eq!(tile_cells(&mut app), rules_cells(&app), "the board shows the new Ecology's map");
    assert_eq!(tile_cells(&mut app).len(), 1);
    let (saved, _) = depths_app::game::saves::read_save(&saved_to).unwrap();
    assert_eq!(saved.adventure().unwrap().ecology.ecology, depths_rules::Ecology::Caverns, "saved again below");
    std::fs::remove_dir_all(&dir).unwrap();
    let _ = std::fs::remove_dir_all(saved_to.parent().unwrap());
}

fn tile_entities(app: &mut App) -> Vec<(Entity, Cell)> {
    let mut tiles: Vec<(Entity, Cell)> =
        app.world_mut().query::<(Entity, &BoardTile)>().iter(app.world()).map(|(e, t)| (e, t.cell)).collect();
    tiles.sort_by_key(|(_, c)| *c);
    tiles
}

fn tokens(app: &mut App) -> Vec<(Entity, ElementToken)> {
    let mut tokens: Vec<(Entity, ElementToken)> =
        app.world_mut().query::<(Entity, &ElementToken)>().iter(app.world()).map(|(e, t)| (e, *t)).collect();
    tokens.sort_by_key(|(e, _)| *e);
    tokens
}

/// Events drive the table: a placed tile spawns exactly one tile entity and
/// leaves the others alone; an Encounter flips its token (the same entity)
/// and neither despawns nor respawns any tile.
#[test]
fn a_tile_lands_alone_and_an_encounter_flips_only_its_token() {
    let mut app = menu_app("events");
    start(&mut app, 3);
    let mut encountered = false;
    for _ in 0..40 {
        if encountered {
            break;
        }
        let legal = game(&app).legal_actions();
        if let Some(a @ Action::Encounter { .. }) = legal.iter().find(|a| matches!(a, Action::Encounter { .. })) {
            let tiles = tile_entities(&mut app);
            let before = tokens(&mut app);
            act(&mut app, a.clone());
            frames(&mut app, 2);
            assert_eq!(tile_entities(&mut app), tiles, "no tile entity despawned or respawned by an Encounter");
            let after = tokens(&mut app);
            assert_eq!(
                after.iter().map(|(e, _)| *e).collect::<Vec<_>>(),
                before.iter().map(|(e, _)| *e).collect::<Vec<_>>(),
                "the tokens are the same entities"
            );
            let flipped: Vec<_> = before.iter().zip(&after).filter(|(b, a)| b.1.token != a.1.token).collect();
            // A Monster's red X waits for the end of the Combat.
            let expected = usize::from(!in_combat(game(&app)));
            assert_eq!(flipped.len(), expected, "only the Encountered token flips: {flipped:?}");
            encountered = true;
        } else if legal.contains(&Action::DrawTile) {
            let before = tile_entities(&mut app);
            act(&mut app, Action::DrawTile);
            let Some(target) = legal_placements(&app).first().copied() else { break };
            app.world_mut().write_message(TileDrop { cell: target.cell, rotation: target.rotation });
            frames(&mut app, 2);
            let after = tile_entities(&mut app);
            assert_eq!(after.len(), before.len() + 1, "exactly one tile entity added");
            assert!(before.iter().all(|t| after.contains(t)), "the other tiles keep their entities");
            assert!(after.iter().any(|(_, c)| *c == target.cell));
        } else {
            let a = steady_policy(game(&app));
            act(&mut app, a);
        }
    }
    assert!(encountered, "the game reached an Encounter");
    // Board and rules still agree after the Encounter has played out.
    play_until(&mut app, |g| matches!(g.phase(), Phase::Exploring { .. }), 200);
    frames(&mut app, 2);
    assert_eq!(tile_cells(&mut app), rules_cells(&app));
    let view = app.world().resource::<depths_app::board::tiles::Board>().view.clone();
    for (_, t) in tokens(&mut app) {
        let tile = view.tile_at(t.cell).unwrap();
        assert_eq!(
            tile.element(t.area, t.element).map(|(_, token)| token),
            Some(t.token),
            "token {t:?} follows the map"
        );
    }
}

/// Frames a stage's set ran in, and what the table said then.
#[derive(Resource, Default)]
struct StageRuns(Vec<(depths_app::StageSystems, depths_app::game::play_phase::PlayPhase)>);

/// The book's stage sets run only while the table stands at that stage.
#[test]
fn each_stage_set_runs_only_in_its_stage() {
    use depths_app::{StageSystems, game::play_phase::PlayPhase};
    use depths_rules::CombatStep;
    let mut app = menu_app("stages");
    app.init_resource::<StageRuns>();
    fn note(stage: StageSystems) -> impl FnMut(Res<State<PlayPhase>>, ResMut<StageRuns>) {
        move |phase, mut runs| runs.0.push((stage, *phase.get()))
    }
    let stages = [
        (StageSystems::Exploring, PlayPhase::Exploring),
        (StageSystems::Encountering, PlayPhase::Encountering),
        (StageSystems::Combat(CombatStep::PlayCards), PlayPhase::Combat(CombatStep::PlayCards)),
        (StageSystems::Combat(CombatStep::Resolve), PlayPhase::Combat(CombatStep::Resolve)),
        (StageSystems::Combat(CombatStep::AssignDamage), PlayPhase::Combat(CombatStep::AssignDamage)),
        (StageSystems::GameOver, PlayPhase::Over),
    ];
    for (stage, _) in stages {
        app.add_systems(Update, note(stage).in_set(stage));
    }
    start(&mut app, 3);
    play_until(&mut app, |g| g.is_over(), 3000);
    frames(&mut app, 2);
    let runs = &app.world().resource::<StageRuns>().0;
    for (stage, phase) in stages {
        assert!(runs.iter().filter(|(s, _)| *s == stage).all(|(_, t)| *t == phase), "{stage:?} ran outside {phase:?}");
    }
    for stage in [StageSystems::Exploring, StageSystems::Combat(CombatStep::PlayCards), StageSystems::GameOver] {
        assert!(runs.iter().any(|(s, _)| *s == stage), "{stage:?} ran");
    }
}

/// "A guided first game (the first turns of Ruins with a scripted seed:
/// draw, place, encounter, one fight) that points at what to do next and
/// can be skipped": played through the client's messages, the guide moves
/// step by step to its last as the table shows each step done.
#[test]
fn the_guided_first_game_walks_draw_place_encounter_and_a_fight() {
    use depths_app::game::guide::{Explained, GUIDE_SEED, Guide, STEPS, shown};
    let mut app = menu_app("guide");
    // A tried game: the last New Game seated two players, and the guided
    // game showed their pass screens; it is one player's.
    app.world_mut().insert_resource(depths_app::game::hotseat::Players {
        names: vec!["Ann".into(), "Bo".into()],
        owners: vec![0, 1],
        curtain: true,
        ..Default::default()
    });
    app.world_mut().write_message(MenuAction::GuidedGame);
    frames(&mut app, 3);
    assert_eq!(screen(&app), Screen::Playing);
    assert_eq!(app.world().resource::<Seats>().players.count(), 1, "one player at the guided game");
    assert_eq!(game(&app).adventure().unwrap().options.seed, GUIDE_SEED);
    assert_eq!(app.world().resource::<Guide>().0, Some(0), "it starts at the first step");
    let mut seen = vec![0];
    let (mut rounds, mut fights) = (0, 0);
    let (mut before_move, mut asked) = (0, 0);
    for _ in 0..600 {
        let step = app.world().resource::<Guide>().0.expect("the guide stays on");
        // Issue 53: a card's question open, the guide points at it and waits
        // ("Find a fight" came while "Choose the Hero who gains …" was open).
        if game(&app).phase().decision().is_some() {
            let explained = app.world().resource::<Explained>().clone();
            assert_eq!(shown(step, game(&app), &explained).unwrap().0, "Answer the window");
            assert_eq!(step, before_move, "the guide moved on while a card asked");
            asked += 1;
        }
        before_move = step;
        // In the fight the guide says what the Combat step on the table asks.
        if let Some(c) = game(&app).combat() {
            let explained = app.world().resource::<Explained>().clone();
            let (title, _) = shown(step, game(&app), &explained).unwrap();
            // Each Combat step is explained in the first Round it comes up, then in one line.
            let again = explained.0.get(&c.step).is_some_and(|&r| r < c.round);
            let want = if again {
                "Fight on"
            } else {
                match c.step {
                    depths_rules::CombatStep::AssignMonsters => "Who fights which Monster",
                    depths_rules::CombatStep::PlayCards => "Play your cards",
                    depths_rules::CombatStep::PlaceMonsterCard => "Place the Monster's card",
                    depths_rules::CombatStep::Resolve => "Resolve one pair each",
                    depths_rules::CombatStep::AssignDamage => "Pick the individual",
                    depths_rules::CombatStep::AvoidReturnDamage => "Who avoids Return Damage",
                }
            };
            assert_eq!(title, want);
            // A safe first fight: one Monster card, a single Monster.
            assert_eq!(c.foes.len(), 1);
            let depths_rules::combat::FoeCard::Monster(m) = &c.foes[0].card else { panic!("a Monster") };
            assert_eq!(m.monster_type, depths_rules::monster::MonsterType::Singular);
            rounds = rounds.max(c.round);
            fights = 1;
        }
        if *seen.last().unwrap() != step {
            assert!(step > *seen.last().unwrap(), "the guide only moves on");
            seen.push(step);
        }
        if step + 1 == STEPS.len() || game(&app).is_over() {
            break;
        }
        let a = depths_sim::Bot::choose(&mut depths_sim::HeuristicBot, game(&app));
        act(&mut app, a);
    }
    assert_eq!(seen.last(), Some(&(STEPS.len() - 1)), "steps seen: {seen:?}");
    assert!(seen.len() >= 5, "the draw, place, Encounter and fight steps each showed: {seen:?}");
    assert!(asked > 0, "a card asked a question on the way");
    // On this seed a careful player wins the first fight, in three Rounds at most, still healthy.
    assert!(fights == 1 && rounds <= 3, "{rounds} rounds");
    assert!(game(&app).heroes.iter().all(|h| h.health * 2 > h.max_health()));
    assert!(!game(&app).is_over());
    assert!(game(&app).adventure().unwrap().record.monsters_defeated >= 1);
    // Back to the menu ends it.
    app.world_mut().write_message(MenuAction::BackToMenu);
    frames(&mut app, 3);
    assert_eq!(app.world().resource::<Guide>().0, None);
}

/// "The replay's state at step N equals the game's state after N actions":
/// a game played through the client keeps its moves; watching it again puts
/// the table at any step exactly as the game stood after that many moves,
/// and nothing can be changed or saved while it runs.
#[test]
fn the_replay_at_step_n_is_the_game_after_n_moves() {
    use depths_app::game::replay::{GoToStep, Replay, WatchReplay};
    let mut app = menu_app("replay");
    start(&mut app, 5);
    let mut after: Vec<Game> = vec![game(&app).clone()];
    for _ in 0..120 {
        if game(&app).is_over() {
            break;
        }
        let a = depths_sim::Bot::choose(&mut depths_sim::HeuristicBot, game(&app));
        act(&mut app, a);
        after.push(game(&app).clone());
    }
    let history = app.world().resource::<Delve>().history.clone().expect("a new game keeps its moves");
    assert_eq!(history.len() + 1, after.len());
    // Saved and read back, the moves are there.
    let text = depths_app::game::saves::save_text(
        app.world().resource::<Delve>(),
        seats(&app),
        app.world().resource::<GameLog>(),
    );
    assert!(text.contains("\"history\""));
    let options = game(&app).adventure().unwrap().options.clone();
    let players = seats(&app).players.clone();
    app.world_mut().write_message(WatchReplay { options, history: history.clone(), players, save: None });
    frames(&mut app, 3);
    assert!(app.world().get_resource::<Replay>().is_some());
    assert_eq!(game(&app), &after[0], "the replay starts at the first move");
    for n in [1, 7, 60, history.len(), 3] {
        app.world_mut().write_message(GoToStep(n));
        frames(&mut app, 2);
        assert_eq!(game(&app), &after[n], "step {n}");
    }
    // Moves are refused and the game is unchanged.
    let before = game(&app).clone();
    let any = game(&app).legal_actions().into_iter().next().unwrap();
    act(&mut app, any);
    assert_eq!(game(&app), &before);
    assert!(game_log(&app).notice.as_deref().is_some_and(|n| n.contains("replay")));
}

/// Issue 55: a replay stepped onto a fight's end tells, like the game did,
/// what the fight cost each Hero (it said only "Victory": the table laid
/// anew at each step had not seen the fight begin).
#[test]
fn a_replay_stepped_onto_a_fights_end_tells_what_it_cost() {
    use depths_app::game::replay::{GoToStep, WatchReplay};
    use depths_app::game::rules_events::FightEnd;
    use depths_rules::Event;
    let mut app = menu_app("replay-fight-end");
    start(&mut app, 5);
    play_until(&mut app, |_| false, 400);
    let history = app.world().resource::<Delve>().history.clone().expect("a new game keeps its moves");
    let options = game(&app).adventure().unwrap().options.clone();
    // The first fight won, read off the rules: its last move and each
    // Hero's Health at its start and at its end.
    let content = depths_rules::Content::builtin().unwrap();
    let mut g = Game::new(options.clone(), content).unwrap();
    let mut start_health: Option<Vec<u8>> = None;
    let mut won = None;
    for (i, a) in history.iter().enumerate() {
        let events = g.apply(a.clone()).unwrap();
        if events.iter().any(|e| matches!(e, Event::CombatStarted { .. })) {
            start_health = Some(g.heroes.iter().map(|h| h.health).collect());
        }
        if events.iter().any(|e| matches!(e, Event::CombatWon)) {
            let at = start_health.clone().expect("a fight began before it was won");
            let lost: Vec<i16> = at.iter().zip(&g.heroes).map(|(&s, h)| i16::from(s) - i16::from(h.health)).collect();
            won = Some((i + 1, lost));
            break;
        }
    }
    let (step, lost) = won.expect("the bot won a fight in 400 moves");
    let players = seats(&app).players.clone();
    app.world_mut().write_message(WatchReplay { options, history, players, save: None });
    frames(&mut app, 3);
    app.world_mut().write_message(GoToStep(step));
    frames(&mut app, 3);
    let end = app.world().resource::<FightEnd>().moment.clone().expect("the fight's end is told in the replay");
    assert_eq!(end.fell, None);
    assert_eq!(end.cost, Some(lost), "what the fight cost each Hero, at step {step}");
}

/// "Everything on the table is an entity": each Hero's Health Token on its
/// Health Track, the Keys and the XP cards lie along the board's foot and
/// follow the game (a Token moves to the Hero's new Health, a Key bought
/// appears, XP cards spent leave).
#[test]
fn the_party_edge_holds_health_tokens_keys_and_xp_cards_as_entities() {
    use bevy::window::PrimaryWindow;
    use depths_app::table::party::{self, HealthToken, KeyToken, PartyEdge, XpCardToken, edge_layout};
    let mut app = app_with(Options::default(), "party-edge");
    app.add_plugins(party::plugin);
    app.world_mut().spawn((Window::default(), PrimaryWindow));
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Menu);
    app.update();
    start(&mut app, 29);
    let edge = Rect::new(300.0, 700.0, 950.0, 746.0);
    app.world_mut().resource_mut::<PartyEdge>().0 = Some(edge);
    frames(&mut app, 2);
    let count = |app: &mut App| {
        let tokens: Vec<HealthToken> = app.world_mut().query::<&HealthToken>().iter(app.world()).copied().collect();
        let keys = app.world_mut().query::<&KeyToken>().iter(app.world()).count();
        let xp = app.world_mut().query::<&XpCardToken>().iter(app.world()).count();
        (tokens, keys, xp)
    };
    let (tokens, keys, xp) = count(&mut app);
    let g = game(&app).clone();
    let adv = g.adventure().unwrap();
    assert_eq!(tokens.len(), g.heroes.len(), "one Health Token per Hero");
    assert!(tokens.iter().all(|t| t.health == g.heroes[usize::from(t.hero)].health));
    assert_eq!((keys, xp), (usize::from(adv.keys), adv.xp_pool.len()));
    // Every piece's place lies on the edge; a lower Health is further left.
    let layout = edge_layout(&g, edge, 1.0);
    for (h, hero) in g.heroes.iter().enumerate() {
        for v in [0, 1, hero.max_health()] {
            assert!(edge.contains(layout.space(h, v)), "Hero {h} space {v} off the edge");
        }
        assert!(layout.space(h, 3).x < layout.space(h, 4).x);
    }
    // The game changes: Bren is hurt, the party holds one Key more.
    {
        let mut delve = app.world_mut().resource_mut::<Delve>();
        delve.edit(|g| {
            g.heroes[0].health -= 3;
            g.adventure.as_mut().unwrap().keys += 1;
        });
    }
    frames(&mut app, 2);
    let (tokens, keys, _) = count(&mut app);
    let bren = tokens.iter().find(|t| t.hero == 0).unwrap();
    assert_eq!(bren.health, g.heroes[0].health - 3, "the Token follows the Health");
    assert_eq!(keys, usize::from(adv.keys) + 1, "the new Key is on the edge");
}

/// A Monster's fall is one line of the log, with its name: no "X is
/// defeated." before "X is Defeated!", and no individual named by its
/// number alone ("#4 is defeated.") once the Combat it fell in is over.
#[test]
fn a_monster_falls_in_one_named_line_of_the_log() {
    use depths_sim::{Bot, HeuristicBot};
    let mut falls = 0;
    for seed in [5, 6] {
        let mut app = menu_app(&format!("falls{seed}"));
        start(&mut app, seed);
        for _ in 0..20_000 {
            if game(&app).is_over() {
                break;
            }
            let a = HeuristicBot.choose(game(&app));
            act(&mut app, a);
        }
        let lines = &app.world().resource::<GameLog>().lines;
        for (i, line) in lines.iter().enumerate() {
            assert!(!line.starts_with('#'), "an individual with no name: {line:?}");
            let Some(name) = line.strip_suffix(" is Defeated!") else { continue };
            falls += 1;
            let before = i.checked_sub(1).map(|j| lines[j].as_str()).unwrap_or_default();
            assert_ne!(before, format!("{name} is defeated."), "told twice");
        }
    }
    assert!(falls > 3, "the games saw Monsters fall: {falls}");
}

/// The party panel shows the element being Encountered, however it was
/// chosen, and a Monster being fought is not yet "Defeated" there.
#[test]
fn the_element_being_encountered_is_the_one_shown_and_a_fought_monster_is_not_defeated() {
    use depths_app::game::focus::SelectedElement;
    use depths_sim::{Bot, HeuristicBot};
    let mut app = menu_app("encountered");
    start(&mut app, 5);
    let (mut encounters, mut fights) = (0, 0);
    for _ in 0..3000 {
        if game(&app).is_over() || (encounters > 2 && fights > 0) {
            break;
        }
        let a = HeuristicBot.choose(game(&app));
        if let Action::Encounter { element } = a {
            // Another element's details were open: as after a click elsewhere.
            app.world_mut().resource_mut::<SelectedElement>().0 = None;
            act(&mut app, a);
            app.update();
            assert_eq!(app.world().resource::<SelectedElement>().0, Some(element), "the panel shows the element met");
            encounters += 1;
            if in_combat(game(&app)) {
                // The rules marked it Defeated at the Encounter; the panel does not say so yet.
                let words = depths_app::game::words::element_state_text(game(&app), element);
                let monster = game(&app).adventure().unwrap().ecology.map.element(element).is_some_and(|(e, _)| {
                    matches!(e, depths_rules::map::Element::Monster { .. } | depths_rules::map::Element::StairGuardian)
                });
                let want = if monster { "Being fought now." } else { "Being Encountered now." };
                assert_eq!(words, want, "the panel's word for the element fought over");
                fights += 1;
            }
            continue;
        }
        act(&mut app, a);
    }
    assert!(encounters > 2 && fights > 0, "{encounters} encounters, {fights} fights");
}

/// A replay started from a loaded game's sheet lays the first move's map at
/// once, not the map the game was loaded with (the loaded table and the
/// replay's first move must never pass for the same state of the board).
#[test]
fn a_replay_from_a_loaded_game_starts_on_the_first_map() {
    use depths_app::game::replay::WatchReplay;
    let mut app = menu_app("replay-first");
    start(&mut app, 1);
    for _ in 0..3 {
        draw_and_place(&mut app);
    }
    app.world_mut().resource_mut::<SaveSlot>().due = true;
    app.update();
    let path = save_path(app.world().resource::<SaveDir>(), app.world().resource::<SaveSlot>());
    app.world_mut().write_message(MenuAction::BackToMenu);
    frames(&mut app, 2);
    app.world_mut().write_message(LoadSave(path.clone()));
    frames(&mut app, 3);
    assert_eq!(tile_cells(&mut app).len(), 4, "the loaded map");
    // As the game-over sheet's "Watch the replay" asks, on the loaded table.
    let history = app.world().resource::<Delve>().history.clone().unwrap();
    let options = game(&app).adventure().unwrap().options.clone();
    let players = seats(&app).players.clone();
    app.world_mut().write_message(WatchReplay { options, history, players, save: None });
    frames(&mut app, 3);
    assert_eq!(tile_cells(&mut app), rules_cells(&app), "the board is the replay's move 0");
    assert_eq!(tile_cells(&mut app), vec![(0, 0)]);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// A new player's report: "Leave the replay" from the game's end went to
/// the menu, and the end (its graph, its turning points) was gone. Watched
/// from the end, the replay goes back to the finished game as it was; a
/// replay watched from the menu goes back to the menu.
#[test]
fn leaving_a_replay_watched_from_the_end_comes_back_to_the_end() {
    use depths_app::game::replay::{LeaveReplay, Replay, WatchReplay};
    let mut app = menu_app("replay-back");
    start(&mut app, 3);
    let mut session =
        Session::new(Game::new(GameOptions::standard(&["bren", "sil"], 3), Content::builtin().unwrap()).unwrap());
    session_until(&mut session, |_| false, 5000);
    assert!(session.delve.game().is_over(), "seed 3 ends");
    let (end, history) = (session.delve.game().clone(), session.delve.history.clone().unwrap());
    session.log.lines.push("the finished game's own line".into());
    session.insert_into(app.world_mut());
    frames(&mut app, 2);
    let options = end.adventure().unwrap().options.clone();
    let players = seats(&app).players.clone();
    app.world_mut().write_message(WatchReplay {
        options: options.clone(),
        history: history.clone(),
        players,
        save: None,
    });
    frames(&mut app, 3);
    assert!(app.world().get_resource::<Replay>().is_some());
    assert!(app.world().resource::<Delve>().read_only);
    app.world_mut().write_message(LeaveReplay);
    frames(&mut app, 3);
    assert!(app.world().get_resource::<Replay>().is_none(), "the replay is left");
    assert_eq!(screen(&app), Screen::Playing, "not the menu");
    assert_eq!(game(&app), &end, "the finished game, at its end");
    let delve = app.world().resource::<Delve>();
    assert!(!delve.read_only);
    assert_eq!(delve.history.as_ref(), Some(&history), "its moves, for another replay");
    assert!(game_log(&app).lines.iter().any(|l| l == "the finished game's own line"), "its own log");
    // From the menu, the replay goes back to the menu.
    app.world_mut().write_message(MenuAction::BackToMenu);
    frames(&mut app, 2);
    app.world_mut().write_message(WatchReplay { options, history, players: Default::default(), save: None });
    frames(&mut app, 3);
    assert_eq!(screen(&app), Screen::Playing);
    app.world_mut().write_message(LeaveReplay);
    frames(&mut app, 3);
    assert_eq!(screen(&app), Screen::Menu);
}

/// Ctrl+Z with nothing to take back says why where the eye is: a note at
/// the top of the table, as well as the banner's notice.
#[test]
fn an_undo_with_nothing_to_take_back_says_why_in_a_note() {
    use bevy::ecs::message::Messages;
    use depths_app::game::{notices::Toast, session::TakeBack};
    let toasts = |app: &App| {
        let messages = app.world().resource::<Messages<Toast>>();
        messages.get_cursor().read(messages).map(|Toast(t)| t.clone()).collect::<Vec<_>>()
    };
    let mut app = menu_app("undo-nothing");
    start(&mut app, 1);
    app.world_mut().write_message(TakeBack);
    app.update();
    let said = toasts(&app);
    assert!(said.iter().any(|t| t.starts_with("Nothing to take back")), "{said:?}");
    // After a draw (a reveal) the note says what came between.
    act(&mut app, Action::DrawTile);
    app.world_mut().write_message(TakeBack);
    app.update();
    let said = toasts(&app);
    assert!(said.iter().any(|t| t.contains("a Map Tile was drawn since")), "{said:?}");
}

/// The game with every tile left in its pile a dead end (each from another
/// Ecology, so it fits nowhere on this map).
fn dead_end_pile(game: &Game) -> Game {
    let mut v = serde_json::to_value(game).unwrap();
    for t in v["adventure"]["ecology"]["pile"]["tiles"].as_array_mut().unwrap() {
        t["ecology"] = "caverns".into();
    }
    serde_json::from_value(v).unwrap()
}

/// "Confirm the irreversible": a draw when every tile left fits nowhere
/// (the dead-end count at its limit) is asked about once, says so and what
/// it costs, offers the other moves; Cancel changes nothing, going on loses.
/// An ordinary draw is not asked about.
#[test]
fn a_draw_that_loses_the_game_is_asked_about_first() {
    use depths_app::game::confirm::{Answer, Asking, TryAction};
    let mut app = menu_app("ask-draw");
    start(&mut app, 1);
    app.world_mut().write_message(TryAction(Action::DrawTile));
    app.update();
    assert!(app.world().resource::<Asking>().0.is_none(), "an ordinary draw is made at once");
    assert!(game(&app).adventure().unwrap().ecology.drawn.is_some());
    let p = legal_placements(&app)[0];
    act(&mut app, Action::PlaceTile { placement: p });
    let walled = dead_end_pile(game(&app));
    app.world_mut().resource_mut::<Delve>().edit(|g| *g = walled);
    app.update();
    let (dead, total) = app.world().resource::<Delve>().dead_ends_in_pile();
    assert!(dead == total && total > 0, "{dead} of {total}");
    let before = game(&app).clone();
    app.world_mut().write_message(TryAction(Action::DrawTile));
    frames(&mut app, 2);
    let ask = app.world().resource::<Asking>().ask().cloned().expect("the draw is asked about");
    assert!(ask.cost.contains("Every tile left fits nowhere"), "{}", ask.cost);
    assert!(ask.cost.contains("Defeat"), "says what it costs: {}", ask.cost);
    assert!(
        ask.alternatives.iter().all(|a| before.legal_actions().contains(a) && *a != Action::DrawTile),
        "the other moves are offered: {:?}",
        ask.alternatives
    );
    assert_eq!(game(&app), &before, "nothing is drawn while the table asks");
    app.world_mut().write_message(Answer::Cancel);
    frames(&mut app, 2);
    assert!(app.world().resource::<Asking>().0.is_none());
    assert_eq!(game(&app), &before, "Cancel draws nothing");
    // Asked again, once, and answered: the draw is made and the game lost.
    app.world_mut().write_message(TryAction(Action::DrawTile));
    frames(&mut app, 2);
    assert!(app.world().resource::<Asking>().0.is_some());
    app.world_mut().write_message(Answer::Go);
    frames(&mut app, 2);
    assert!(app.world().resource::<Asking>().0.is_none(), "asked once");
    assert!(matches!(game(&app).phase(), Phase::Lost(_)), "{:?}", game(&app).phase());
}

/// "Finish Level Up" with XP unspent and no Ability bought is asked about,
/// offering the purchases; with an Ability bought (or too little XP) it is not.
#[test]
fn finishing_level_up_with_xp_unspent_and_no_ability_is_asked_about() {
    use depths_app::game::confirm::{Answer, Asking, TryAction};
    use depths_rules::{Pending, Purchase};
    use depths_sim::{Bot, HeuristicBot};
    let mut app = menu_app("ask-levelup");
    start(&mut app, 6);
    let mut asked = 0;
    for _ in 0..20_000 {
        if game(&app).is_over() || asked > 0 {
            break;
        }
        let g = game(&app).clone();
        let level_up = matches!(g.adventure().and_then(|a| a.pending.first()), Some(Pending::LevelUp { bought }) if !bought.contains(&true));
        let cost = g.adventure().map_or(0, |a| u16::from(a.ecology.reference.ability_cost));
        if level_up && g.legal_actions().contains(&Action::FinishLevelUp) {
            app.world_mut().write_message(TryAction(Action::FinishLevelUp));
            frames(&mut app, 2);
            let ask = app.world().resource::<Asking>().ask().cloned();
            if g.pool_xp() < cost {
                assert!(ask.is_none(), "nothing to buy with: not asked");
                continue;
            }
            let ask = ask.expect("asked about");
            assert!(ask.cost.contains("XP unspent") && ask.cost.contains("only at Level Up"), "{}", ask.cost);
            assert!(
                ask.alternatives.iter().any(|a| matches!(a, Action::StartPurchase { what: Purchase::Ability { .. } }))
            );
            assert_eq!(game(&app), &g, "nothing happens while the table asks");
            // A purchase offered instead is made.
            let buy = ask.alternatives[0].clone();
            app.world_mut().write_message(Answer::Instead(buy.clone()));
            frames(&mut app, 2);
            assert_ne!(game(&app), &g, "{buy:?} was made");
            asked += 1;
            continue;
        }
        let a = HeuristicBot.choose(&g);
        act(&mut app, a);
    }
    assert_eq!(asked, 1, "a Level Up with XP to spend was reached");
}

/// "Save after every move": a tile placed (no new phase) is on disk soon
/// after, written off the frame, so a crash (no quit, no close) loses it not.
#[test]
fn every_move_is_saved_without_a_phase_change() {
    let mut app = menu_app("every-move");
    start(&mut app, 1);
    draw_and_place(&mut app);
    let path = save_path(app.world().resource::<SaveDir>(), app.world().resource::<SaveSlot>());
    let tiles = |path: &std::path::Path| {
        let text = std::fs::read_to_string(path).ok()?;
        let (g, _) = depths_app::game::saves::read_save(path).ok().filter(|_| !text.is_empty())?;
        Some(g.adventure()?.ecology.map.tiles().len())
    };
    // The write runs on the I/O pool: wait for it as a crash would not.
    let mut saved = None;
    for _ in 0..400 {
        app.update();
        saved = tiles(&path);
        if saved == Some(2) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    assert_eq!(saved, Some(2), "the placed tile is in the save at {}", path.display());
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// Issue: "a failed autosave (a rename refused because another program holds
/// the file) is shown on the table, not only logged". An autosave written off
/// the frame that fails comes back to the table as a note and a toast.
#[test]
fn a_failed_autosave_is_told_on_the_table() {
    let mut app = menu_app("failed-autosave");
    start(&mut app, 1);
    // The save folder becomes a path through a file: no save can be written there.
    let blocker = temp_dir("failed-autosave-blocker");
    std::fs::create_dir_all(blocker.parent().unwrap()).unwrap();
    std::fs::write(&blocker, "a file, not a folder").unwrap();
    app.world_mut().insert_resource(SaveDir(blocker.join("saves")));
    draw_and_place(&mut app);
    let mut told = None;
    for _ in 0..400 {
        app.update();
        told = app.world().resource::<GameLog>().notice.clone().filter(|n| n.contains("could not be saved"));
        if told.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
    let told = told.expect("the failed autosave is told on the table");
    assert!(told.contains(&blocker.display().to_string()), "{told}");
    let _ = std::fs::remove_file(&blocker);
}

/// A waiting table changes nothing frame after frame: the redraw policy
/// draws a frame whenever the game, its log or the table changed, so a
/// resource touched every frame keeps the window redrawing for ever (the
/// Companions' note once did it to the log: 167 % CPU on an idle board).
#[test]
fn a_waiting_table_touches_nothing_frame_after_frame() {
    let mut app = menu_app("still");
    start(&mut app, 5);
    frames(&mut app, 20);
    let ticks = |app: &App| {
        let w = app.world();
        [
            w.get_resource_change_ticks::<GameLog>().unwrap().changed,
            w.get_resource_change_ticks::<Delve>().unwrap().changed,
            w.get_resource_change_ticks::<Seats>().unwrap().changed,
        ]
    };
    let before = ticks(&app);
    frames(&mut app, 10);
    assert_eq!(ticks(&app), before, "GameLog, Delve, Seats");
}

/// The game's clock keeps up with the wall clock however far apart frames
/// are (reactive rendering: seconds may pass between two). Bevy's virtual
/// clock moves at most 0.25 s a frame, so the number keys' guard, timed by
/// it, held a key 2-2.5 s after a move instead of 1.5 s.
#[test]
fn the_games_clock_keeps_up_with_sparse_frames() {
    let mut app = menu_app("clock");
    let gap = std::time::Duration::from_secs(2);
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(gap));
    frames(&mut app, 2);
    let before = app.world().resource::<Time>().elapsed_secs();
    frames(&mut app, 3);
    let after = app.world().resource::<Time>().elapsed_secs();
    assert!((after - before - 6.0).abs() < 0.01, "three frames 2 s apart moved the clock {} s", after - before);
}

/// "Defeated - A Monster or Hero's Health is reduced to zero", and the game
/// ends when "One of the Heroes is Defeated": End round (every Hero's turn
/// ended in one click) that brings a Hero to zero while an Ability is still
/// open is asked about first; no Hero's turn ends while the table asks,
/// Cancel changes nothing, going on loses. With Health to spare it is not asked.
#[test]
fn ending_a_round_that_defeats_a_hero_is_asked_about_while_an_ability_is_open() {
    use depths_app::game::confirm::{Answer, Asking, TryAction, ask_for};
    use depths_sim::{Bot, HeuristicBot};
    let mut app = menu_app("ask-fall");
    start(&mut app, 3);
    for _ in 0..20_000 {
        let g = game(&app).clone();
        if g.is_over() {
            break;
        }
        let ends: Vec<Action> = g.legal_actions().into_iter().filter(|a| matches!(a, Action::EndTurn { .. })).collect();
        if let Some((last, first)) = ends.split_last() {
            // The Round ends with the last Hero's turn.
            let mut ended = g.clone();
            for a in first {
                ended.apply(a.clone()).unwrap();
            }
            let after = ended.health_after_round(last).unwrap_or_default();
            let hurt = (0..after.len()).find(|&h| after[h] < g.heroes[h].health && after[h] > 0);
            if let Some(h) = hurt {
                assert!(ask_for(&ended, last).is_none(), "Health to spare: not asked");
                let damage = g.heroes[h].health - after[h];
                let mut low = ended.clone();
                low.heroes[h].health = damage;
                if ask_for(&low, last).is_some() {
                    app.world_mut().resource_mut::<Delve>().edit(|g| g.heroes[h].health = damage);
                    app.update();
                    let before = game(&app).clone();
                    let click = |app: &mut App| {
                        for a in &ends {
                            app.world_mut().write_message(TryAction(a.clone()));
                        }
                        frames(app, 2);
                    };
                    click(&mut app);
                    let ask = app.world().resource::<Asking>().ask().cloned().expect("End round is asked about");
                    assert!(ask.cost.contains(before.heroes[h].name()) && ask.cost.contains("zero"), "{}", ask.cost);
                    assert!(ask.alternatives.iter().all(|a| before.legal_actions().contains(a) || first.is_empty()));
                    assert_eq!(game(&app), &before, "no Hero's turn ends while the table asks");
                    app.world_mut().write_message(Answer::Cancel);
                    frames(&mut app, 2);
                    assert_eq!(game(&app), &before, "Cancel ends no turn");
                    click(&mut app);
                    app.world_mut().write_message(Answer::Go);
                    frames(&mut app, 2);
                    assert!(matches!(game(&app).phase(), Phase::Lost(_)), "{:?}", game(&app).phase());
                    return;
                }
            }
        }
        act(&mut app, HeuristicBot.choose(&g));
    }
    panic!("no Round's end with Damage and an Ability open was reached");
}

/// Issue: the replay's "Jump to … Combat 2" still showed Combat 1's reveal.
/// A jump publishes the events of the move it lands on (that Combat's
/// start, whose Monster the table reveals); one step back publishes none.
#[test]
fn a_replay_jump_to_a_combat_shows_that_combats_start() {
    use depths_app::game::replay::{GoToStep, Replay, WatchReplay};
    use depths_app::game::rules_events::RulesEvent;
    use depths_rules::Event;
    #[derive(Resource, Default)]
    struct Seen(Vec<Event>);
    let mut app = menu_app("replay-jump");
    app.init_resource::<Seen>();
    app.add_systems(PostUpdate, |mut events: MessageReader<RulesEvent>, mut seen: ResMut<Seen>| {
        seen.0.extend(events.read().map(|RulesEvent(e)| e.clone()));
    });
    start(&mut app, 5);
    for _ in 0..400 {
        if game(&app).is_over() {
            break;
        }
        let a = depths_sim::Bot::choose(&mut depths_sim::HeuristicBot, game(&app));
        act(&mut app, a);
    }
    let history = app.world().resource::<Delve>().history.clone().expect("a new game keeps its moves");
    let options = game(&app).adventure().unwrap().options.clone();
    let players = seats(&app).players.clone();
    app.world_mut().write_message(WatchReplay { options, history, players, save: None });
    frames(&mut app, 3);
    let marks = app.world().resource::<Replay>().marks.clone();
    let combats: Vec<&(usize, String)> = marks.iter().filter(|(_, m)| m.starts_with("Combat")).collect();
    assert!(combats.len() >= 2, "two Combats to jump between: {marks:?}");
    let started = |seen: &Seen| {
        seen.0.iter().find_map(|e| if let Event::CombatStarted { foes } = e { Some(foes.join(", ")) } else { None })
    };
    for (step, mark) in combats.iter().rev().take(2) {
        app.world_mut().resource_mut::<Seen>().0.clear();
        app.world_mut().write_message(GoToStep(*step));
        frames(&mut app, 2);
        let foes = started(app.world().resource::<Seen>()).expect("the jump shows the Combat start");
        assert!(mark.ends_with(&foes), "{mark} shows {foes}");
    }
    let step = combats[combats.len() - 2].0;
    app.world_mut().write_message(GoToStep(step + 1));
    frames(&mut app, 2);
    app.world_mut().resource_mut::<Seen>().0.clear();
    app.world_mut().write_message(GoToStep(step));
    frames(&mut app, 2);
    assert!(app.world().resource::<Seen>().0.is_empty(), "one step back shows nothing happen");
}

/// The record of a game (`records.rs`): kept once at its end, kept again
/// only if a game left unfinished is finished later, never for a replay.
#[test]
fn a_finished_game_is_recorded_once_and_a_replay_not_at_all() {
    use depths_app::game::records::{Outcome, RecordsFile, read_records};
    let mut app = menu_app("records");
    let file = temp_dir("records-file").join("records.jsonl");
    app.insert_resource(RecordsFile(file.clone()));
    start(&mut app, 5);
    // Left before the first Ecology is cleared: nothing to record yet.
    play_until(&mut app, |g| g.adventure().is_some_and(|a| a.record.monsters_defeated > 0), 3000);
    assert!(!game(&app).is_over(), "the game goes on after its first fight");
    app.world_mut().write_message(MenuAction::BackToMenu);
    frames(&mut app, 2);
    assert!(read_records(&file).0.is_empty(), "a game left in its first Ecology is not recorded");
    app.world_mut().write_message(MenuAction::Continue);
    frames(&mut app, 4);
    play_until(&mut app, |_| false, 20_000);
    assert!(game(&app).is_over());
    frames(&mut app, 2);
    let (records, problems) = read_records(&file);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_ne!(r.outcome, Outcome::Unfinished);
    assert_eq!(r.heroes, ["Bren", "Sil"]);
    assert_eq!(r.seed, 5);
    assert!(r.rounds.is_some_and(|n| n > 0), "{r:?}");
    // The game-over sheet shows the line it kept.
    let shown = app.world().resource::<depths_app::game::records::LastRecord>().0.clone();
    assert_eq!(shown.as_ref().map(|s| &s.id), Some(&r.id));
    assert!(depths_app::game::records::record_line(r).contains("Combat Rounds"));
    // Loading the finished game again records nothing new: the save says it is recorded.
    frames(&mut app, 2);
    app.world_mut().write_message(MenuAction::BackToMenu);
    frames(&mut app, 2);
    app.world_mut().write_message(MenuAction::Continue);
    frames(&mut app, 4);
    assert!(game(&app).is_over());
    // The end screen still tells what Statistics kept (its Combat Rounds among it).
    let shown = app.world().resource::<depths_app::game::records::LastRecord>().0.clone();
    assert_eq!(shown.as_ref().map(|s| &s.id), Some(&r.id), "the finished game, loaded again, shows its record");
    app.world_mut().write_message(MenuAction::BackToMenu);
    frames(&mut app, 2);
    let lines = std::fs::read_to_string(&file).unwrap().lines().count();
    assert_eq!(lines, 1, "one line for one game");
    // Its replay, watched to the end, records nothing.
    let path = depths_app::game::saves::list_saves(&app.world().resource::<SaveDir>().0)[0].clone();
    app.world_mut().write_message(depths_app::game::replay::ReplaySave(path));
    frames(&mut app, 4);
    let total = app.world().resource::<depths_app::game::replay::Replay>().history.len();
    app.world_mut().write_message(depths_app::game::replay::GoToStep(total));
    frames(&mut app, 3);
    assert!(game(&app).is_over());
    assert_eq!(std::fs::read_to_string(&file).unwrap().lines().count(), 1, "a replay is not a game played");
    let _ = std::fs::remove_dir_all(file.parent().unwrap());
}

/// Issue 53: the Load list stood open again on the way back from a game,
/// over the menu's title, where a click meant for Quit opened a replay.
#[test]
fn the_load_list_closes_with_the_menu() {
    use depths_app::ui::screens::menu::ShowSaves;
    let mut app = menu_app("load-list");
    app.world_mut().write_message(MenuAction::Load);
    frames(&mut app, 2);
    assert!(app.world().resource::<ShowSaves>().0.is_some(), "Load opens the list");
    start(&mut app, 1);
    app.world_mut().write_message(MenuAction::BackToMenu);
    frames(&mut app, 3);
    assert_eq!(screen(&app), Screen::Menu);
    assert_eq!(app.world().resource::<ShowSaves>().0, None, "back on the menu, the list is closed");
}

/// Issue 53: "rune nodes and door arches say nothing on hover". Every mark
/// printed on a laid tile (its Nodes, a Secret Passage, Warp Portal or
/// Level Stair, the Boat, the Sword) stands on the board as a place the
/// pointer finds, and says what it is.
#[test]
fn every_mark_on_a_laid_tile_names_itself() {
    use depths_app::board::pointer::mark_text;
    use depths_app::board::tiles::BoardMark;
    let mut app = menu_app("marks");
    start(&mut app, 4);
    for _ in 0..12 {
        act(&mut app, Action::DrawTile);
        let Some(place) = game(&app).legal_actions().into_iter().find(|a| matches!(a, Action::PlaceTile { .. })) else {
            break;
        };
        act(&mut app, place);
    }
    frames(&mut app, 2);
    let printed: usize = game(&app)
        .adventure()
        .unwrap()
        .ecology
        .map
        .tiles()
        .iter()
        .map(|t| {
            let areas = t.tile.areas.iter();
            t.tile.nodes.iter().count()
                + areas
                    .map(|a| usize::from(a.secret_passage) + usize::from(a.warp_portal) + usize::from(a.level_stair))
                    .sum::<usize>()
                + usize::from(t.tile.boat)
                + usize::from(t.tile.sword)
        })
        .sum();
    let marks: Vec<BoardMark> = app.world_mut().query::<&BoardMark>().iter(app.world()).copied().collect();
    assert!(printed > 3, "{printed} marks on the map");
    assert_eq!(marks.len(), printed, "a place on the board for each mark printed");
    for m in marks {
        let text = mark_text(m.0);
        assert!(text.lines().count() >= 2, "{m:?}: a name and what it does: {text}");
    }
}

/// Issue 54: "every game from outside checked whole". A save's table (the
/// players, their Heroes and Companions, the turn, the round summary, the
/// clock, the moves) changed one value at a time is refused on Load with a
/// notice naming the field, or loads and is played on through the client
/// (hot-seat hand-overs, curtains and Companions included) without a panic.
#[test]
fn a_saves_table_changed_one_value_at_a_time_is_refused_or_played_on() {
    use depths_app::game::hotseat::Players;
    use std::panic::{AssertUnwindSafe, catch_unwind};
    let mut app = menu_app("table-edits");
    app.insert_resource(Players {
        names: vec!["Ann".into(), "Bo".into()],
        owners: vec![0, 1, 1],
        curtain: true,
        companions: vec![false, false, true],
    });
    app.world_mut().write_message(StartGame(GameOptions::standard(&["bren", "sil", "ava"], 5)));
    frames(&mut app, 3);
    play_hot_seat(&mut app, 60, |_, _, _| {});
    assert!(seats(&app).players.companions.contains(&true));
    app.world_mut().resource_mut::<SaveSlot>().due = true;
    app.update();
    let good = save_path(app.world().resource::<SaveDir>(), app.world().resource::<SaveSlot>());
    let text = std::fs::read_to_string(&good).unwrap();
    let save: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut edits = Vec::new();
    depths_tests::edits::changed_leaves(&save["table"], "/table", &mut edits);
    // The log's lines are only words; a few of them are enough.
    edits.retain(|(at, _)| !at.starts_with("/table/log/"));
    assert!(edits.len() > 60, "only {} edits", edits.len());
    let dir = temp_dir("table-edits-files");
    std::fs::create_dir_all(&dir).unwrap();
    let (mut refused, mut played, mut faults) = (0, 0, Vec::new());
    std::panic::set_hook(Box::new(|_| {}));
    for (i, (at, to)) in edits.iter().enumerate() {
        let mut edited = save.clone();
        let pointer = at.split(' ').next().unwrap();
        *edited.pointer_mut(pointer).unwrap() = to.clone();
        let path = dir.join(format!("edit-{i}.json"));
        std::fs::write(&path, edited.to_string()).unwrap();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let mut app = menu_app(&format!("table-edit-{i}"));
            app.world_mut().write_message(LoadSave(path.clone()));
            frames(&mut app, 3);
            if screen(&app) == Screen::Menu {
                let notice = app.world().resource::<MenuNotice>().0.clone().unwrap_or_default();
                return Err(notice);
            }
            play_hot_seat(&mut app, 12, |_, _, _| {});
            frames(&mut app, 3);
            Ok(())
        }));
        match outcome {
            Ok(Ok(())) => played += 1,
            Ok(Err(notice)) => {
                assert!(notice.contains("could not be loaded"), "{at} = {to}: {notice}");
                refused += 1;
            }
            Err(panic) => {
                let why =
                    panic.downcast_ref::<String>().cloned().or(panic.downcast_ref::<&str>().map(|s| s.to_string()));
                faults.push(format!("{at} = {to}: {}", why.unwrap_or_default()));
            }
        }
    }
    let _ = std::panic::take_hook();
    println!("{} edits of a save's table: {refused} refused, {played} played on, {} faults", edits.len(), faults.len());
    assert!(faults.is_empty(), "{} of {} edits stopped the client:\n{}", faults.len(), edits.len(), faults.join("\n"));
    assert!(refused > 0 && played > 0, "{refused} refused, {played} played on");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(good.parent().unwrap());
}

/// A new player's report: "Choose who avoids Return Damage" named only Ann
/// while Bo's Sil was one to choose. A choice the players make together
/// (who avoids Return Damage, which Monster each Hero fights) names every
/// player whose Hero it touches; outside them the banner names one player
/// with their Heroes ("Ann (Bren)"), as the manual says.
#[test]
fn a_choice_made_together_names_every_player_it_touches() {
    use depths_app::game::hotseat::{Players, banner_line};
    let players = Players { names: vec!["Ann".into(), "Bo".into()], owners: vec![0, 1, 1], ..Default::default() };
    let (mut avoided, mut assigned) = (0, 0);
    for seed in 1..=60 {
        let mut g =
            Game::new(GameOptions::standard(&["bren", "sil", "ava"], seed), Content::builtin().unwrap()).unwrap();
        let mut seats = Seats { players: players.clone(), ..Default::default() };
        for _ in 0..1500 {
            if g.is_over() {
                break;
            }
            let line = banner_line(&g, &seats);
            match g.phase() {
                Phase::Combat { step: depths_rules::CombatStep::AvoidReturnDamage } => {
                    let owners: std::collections::BTreeSet<usize> = g
                        .legal_actions()
                        .iter()
                        .filter_map(|a| match a {
                            Action::AvoidReturnDamage { hero } => Some(players.owner(*hero)),
                            _ => None,
                        })
                        .collect();
                    if owners.len() == 2 {
                        assert!(line.starts_with("▶ Ann and Bo — "), "{line}");
                        avoided += 1;
                    }
                }
                Phase::Combat { step: depths_rules::CombatStep::AssignMonsters } => {
                    assert!(line.starts_with("▶ Ann and Bo — "), "{line}");
                    assigned += 1;
                }
                Phase::Exploring { .. } => {
                    let p = seats.acting(&g).player;
                    let own = if p == 0 { "Ann (Bren)" } else { "Bo (Sil, Ava)" };
                    assert!(line.starts_with(&format!("▶ {own} — ")), "{line}");
                }
                _ => {}
            }
            let a = steady_policy(&g);
            let events = g.apply(a).unwrap();
            depths_seats::seats::after_events(&g, &seats.players, &mut seats.turn, &events);
        }
        if avoided > 0 && assigned > 0 {
            return;
        }
    }
    panic!("not met: {avoided} choices of who avoids Return Damage, {assigned} assignments, between two players");
}

/// A new player's report: after Undo then Redo a fight's chance read 34 %
/// where the same position had read 41 %. The worlds a forecast plays out
/// are seeded by the position (the moves since the start), not by how many
/// changes the table saw: the same position, the same seed.
#[test]
fn the_same_position_after_undo_and_redo_has_the_same_forecast_seed() {
    use depths_app::game::session::{PutBack, TakeBack};
    let mut app = menu_app("undo-seed");
    start(&mut app, 1);
    act(&mut app, Action::DrawTile);
    let p = legal_placements(&app)[0];
    act(&mut app, Action::PlaceTile { placement: p });
    let (seed, version) = {
        let d = app.world().resource::<Delve>();
        (d.situation_seed(), d.version())
    };
    app.world_mut().write_message(TakeBack);
    frames(&mut app, 2);
    let taken_back = app.world().resource::<Delve>().situation_seed();
    assert_ne!(taken_back, seed, "another position, another seed");
    app.world_mut().write_message(PutBack);
    frames(&mut app, 2);
    let d = app.world().resource::<Delve>();
    assert_ne!(d.version(), version, "the table changed twice since");
    assert_eq!(d.situation_seed(), seed, "the same position, the same seed");
}

/// "Doors: Blocks Movement until Unlocked"; a Monster or Feature "Blocks
/// Movement until Encountered": a token out of reach says what stands in
/// the way, through the hover's own words, and what it names is something
/// the Heroes can deal with now (the refusal said only "the Heroes cannot
/// reach that").
#[test]
fn a_token_out_of_reach_names_what_stands_in_the_way() {
    use depths_app::board::pointer::token_text;
    use depths_rules::map::{ElementRef, ElementState};
    let mut named = 0;
    for seed in 1..30 {
        let mut g = Game::new(GameOptions::standard(&["bren", "sil"], seed), Content::builtin().unwrap()).unwrap();
        for _ in 0..400 {
            if g.is_over() {
                break;
            }
            if matches!(g.phase(), Phase::Exploring { tile_in_hand: false, decision: None }) {
                let map = &g.adventure().unwrap().ecology.map;
                for placed in map.tiles() {
                    for (a, states) in placed.states.iter().enumerate() {
                        for (i, state) in states.iter().enumerate() {
                            let e = ElementRef { cell: placed.cell, area: a as u8, element: i as u8 };
                            let Some(way) = map.in_the_way(e).filter(|w| !w.is_empty()) else { continue };
                            if *state != ElementState::Present {
                                continue;
                            }
                            let text = token_text(&g, e);
                            assert!(text.contains("cannot reach that: ") && text.contains("in the way"), "{text}");
                            assert!(!text.contains("Not within reach now: The Heroes"), "said twice: {text}");
                            for w in way {
                                let place = depths_app::game::words::element_text(&g, w);
                                assert!(text.contains(&place), "{text} does not name {place}");
                                let check = g.check(&Action::Encounter { element: w });
                                assert!(
                                    matches!(check, Ok(()) | Err(depths_rules::RuleError::NeedsKey)),
                                    "{place} named but {check:?}"
                                );
                            }
                            named += 1;
                        }
                    }
                }
            }
            let a = steady_policy(&g);
            g.apply(a).unwrap();
        }
    }
    assert!(named > 5, "{named} tokens out of reach seen");
}

/// A new player's report: in a hot-seat game with the pass screen, choosing
/// who avoids Return Damage brought the pass screen up, to hand the table
/// to the player whose Hero the choice named. A choice made together
/// (which Monster card each Hero fights, who avoids Return Damage) shows no
/// hand: the player at the table makes it, for any Hero, with no pass.
#[test]
fn a_choice_made_together_is_made_at_the_table_without_a_pass() {
    use depths_app::game::hotseat::{Players, made_together};
    let players =
        Players { names: vec!["Ann".into(), "Bo".into()], owners: vec![0, 1], curtain: true, ..Default::default() };
    let (mut together, mut elsewhere) = (0, 0);
    for seed in 1..=40 {
        let mut g = Game::new(GameOptions::standard(&["bren", "sil"], seed), Content::builtin().unwrap()).unwrap();
        let mut seats = Seats { players: players.clone(), ..Default::default() };
        for _ in 0..1500 {
            if g.is_over() {
                break;
            }
            if let (true, Some(at_table)) = (made_together(&g), seats.turn.shown_to) {
                together += 1;
                // Someone else's Hero named first: the pass screen came up.
                elsewhere += usize::from(seats.acting(&g).player != at_table);
                assert_eq!(seats.curtain(&g), None, "no curtain for a choice made together");
                assert_eq!(seats.hand_off_due(&g), None, "no hand-off for a choice made together");
                assert_eq!(seats.heroes_at_table(&g), None, "the player at the table may choose for any Hero");
            }
            // The players at the table: the curtain lifts for whom it asks,
            // a hand-off due is made.
            if let Some(p) = seats.curtain(&g) {
                (seats.turn.shown_to, seats.turn.pass_to, seats.turn.handing_over) = (Some(p), None, false);
                continue;
            }
            if seats.hand_off_due(&g).is_some() {
                seats.turn.handing_over = true;
                continue;
            }
            let a = steady_policy(&g);
            let events = g.apply(a).unwrap();
            depths_seats::seats::after_events(&g, &seats.players, &mut seats.turn, &events);
        }
        if elsewhere > 0 {
            break;
        }
    }
    assert!(together > 0 && elsewhere > 0, "{together} choices made together, {elsewhere} naming another player first");
}

/// A new player's report: alone with two Companions, the banner said
/// "Exploring: place the drawn tile" with no name while Companion Ava held
/// the tile, and it read as the player's own move. A Companion's Exploring
/// turn names the Companion; the player's own turn names no one.
#[test]
fn alone_with_companions_the_banner_names_a_companions_turn() {
    use depths_app::game::hotseat::{Players, banner_line};
    let players = Players { companions: vec![false, true, true], ..Default::default() };
    let mut g = Game::new(GameOptions::standard(&["bren", "sil", "ava"], 8), Content::builtin().unwrap()).unwrap();
    let mut seats = Seats { players, ..Default::default() };
    let (mut theirs, mut mine) = (0, 0);
    for _ in 0..600 {
        if g.is_over() {
            break;
        }
        if matches!(g.phase(), Phase::Exploring { .. }) {
            let line = banner_line(&g, &seats);
            match seats.turn.companion {
                Some(h) => {
                    assert!(line.starts_with(&format!("▶ Companion {} — ", g.heroes[usize::from(h)].name())), "{line}");
                    theirs += 1;
                }
                None => {
                    assert!(!line.starts_with('▶'), "{line}");
                    mine += 1;
                }
            }
        }
        let a = steady_policy(&g);
        let events = g.apply(a).unwrap();
        depths_seats::seats::after_events(&g, &seats.players, &mut seats.turn, &events);
    }
    assert!(theirs > 0 && mine > 0, "{theirs} Companion turns, {mine} the player's");
}
