//! The client played online, headless: a host's client and a player's
//! client (each the client's core under `MinimalPlugins`) on 127.0.0.1,
//! driven through the messages the lobby and the board write.

use std::time::{Duration, Instant};

use bevy::{prelude::*, state::app::StatesPlugin};
use depths_app::{
    core_plugin,
    game::cli::Options,
    game::companions::{CompanionMoves, SetCompanion},
    game::game_log::GameLog,
    game::online::Online,
    game::saves::SaveDir,
    game::screen::Screen,
    game::session::{Delve, GameContent, PlayerAction, Seats, TakeBack},
    ui::screens::lobby::HostStart,
};
use depths_net::{HostedGame, JoinedGame, Relays, client, host};
use depths_rules::{Action, Content, Phase};

fn client_app(name: &str) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    app.insert_resource(Options::default());
    app.insert_resource(GameContent(Content::builtin().expect("content")));
    let dir = std::env::temp_dir().join(format!("fd-online-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    // The data folder's saves: the machine's key goes beside them, one per player.
    app.insert_resource(SaveDir(dir.join("saves")));
    app.add_plugins(core_plugin);
    app.update();
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Lobby);
    app.update();
    app
}

fn pump(apps: &mut [&mut App], mut done: impl FnMut(&[&mut App]) -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !done(apps) {
        if Instant::now() > deadline {
            return false;
        }
        for app in apps.iter_mut() {
            app.update();
        }
        std::thread::sleep(Duration::from_micros(300));
    }
    true
}

fn delve(app: &App) -> &Delve {
    app.world().resource::<Delve>()
}

fn seats(app: &App) -> &Seats {
    app.world().resource::<Seats>()
}

fn game_log(app: &App) -> &GameLog {
    app.world().resource::<GameLog>()
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

/// Proves: from the lobby, the host's Start puts the same game on both
/// clients' boards; a move made on the host's board and one made on the
/// player's board both go through the host and land on both tables; a move
/// out of turn from the player's board is refused, shown as the notice, and
/// changes nothing; the player's Companion box is refused by the host; the
/// host's seats a Companion on both boards, and that Companion's moves, made
/// on the host's table only, land on both; leaving for the menu closes the
/// table. Undo online: the player's Ctrl+Z on the host's move is refused on
/// his board with the reason; the host's takes it back on both boards, and
/// the same move made again gives the same game. The host's save keeps its
/// seats' keys.
#[test]
fn host_and_player_clients_play_the_same_game_through_the_host() {
    let mut ann = client_app("ann");
    let mut bo = client_app("bo");
    let ann_key = depths_app::game::online::machine_key(ann.world().resource::<SaveDir>()).unwrap();
    let invite = host::open(ann.world_mut(), ann_key, &Relays::Off, "Ann").unwrap();
    let bo_key = depths_app::game::online::machine_key(bo.world().resource::<SaveDir>()).unwrap();
    client::join(bo.world_mut(), &invite, "Bo", bo_key.clone(), &Relays::Off).unwrap();
    let sat =
        pump(&mut [&mut ann, &mut bo], |a| a[0].world().resource::<HostedGame>().lobby.online == vec![true, true]);
    assert!(sat, "Bo sits down: {:?} {:?}", bo.world().resource::<JoinedGame>().link, invite);

    ann.world_mut().write_message(HostStart {
        heroes: vec!["bren".into(), "sil".into()],
        owners: vec![0, 1],
        companions: vec![false, false],
        seed: 3,
    });
    assert!(
        pump(&mut [&mut ann, &mut bo], |a| screen(a[0]) == Screen::Playing && screen(a[1]) == Screen::Playing),
        "both sit down to play"
    );
    assert_eq!(ann.world().get_resource::<Online>(), Some(&Online::Host));
    assert_eq!(bo.world().get_resource::<Online>(), Some(&Online::Player));
    assert_eq!(delve(&ann).game(), delve(&bo).game(), "the same game on both boards");
    assert_eq!(seats(&bo).players.names, vec!["Ann".to_owned(), "Bo".to_owned()]);

    // Ann's turn: she draws on her board.
    ann.world_mut().write_message(PlayerAction(Action::DrawTile));
    assert!(pump(&mut [&mut ann, &mut bo], |a| delve(a[1]).version() > 1 && delve(a[0]).version() > 1));
    assert!(matches!(delve(&bo).game().phase(), Phase::Exploring { tile_in_hand: true, .. }));
    assert_eq!(delve(&ann).game(), delve(&bo).game());

    // Bo may not place Ann's tile: greyed on his table, refused there with
    // the host's own reason (no round trip), nothing changes.
    let place = delve(&bo).game().legal_actions().into_iter().find(|a| matches!(a, Action::PlaceTile { .. })).unwrap();
    assert!(!depths_app::table::cards::legal_at_table(delve(&bo), seats(&bo)).contains(&place), "greyed for Bo");
    // Nor does his tray, his keys or his board take the tile up (he turned
    // it and the table said "click it again" before the click was refused).
    use depths_app::board::explore::tile_not_ours;
    assert_eq!(tile_not_ours(delve(&bo), seats(&bo)).as_deref(), Some("It is Ann's turn."));
    assert_eq!(tile_not_ours(delve(&ann), seats(&ann)), None, "Ann's to place");
    let before = delve(&bo).game().clone();
    let host_refusals = ann.world().resource::<HostedGame>().stats.refused;
    bo.world_mut().write_message(PlayerAction(place.clone()));
    assert!(pump(&mut [&mut ann, &mut bo], |a| game_log(a[1]).notice.is_some()));
    assert_eq!(game_log(&bo).notice.as_deref(), Some("It is Ann's turn."));
    assert_eq!(ann.world().resource::<HostedGame>().stats.refused, host_refusals, "never sent");
    assert_eq!(delve(&bo).game(), &before);
    assert_eq!(delve(&ann).game(), &before);

    // Ann places it; both boards follow.
    let placed = |a: &[&mut App]| {
        delve(a[0]).game() == delve(a[1]).game()
            && !matches!(delve(a[0]).game().phase(), Phase::Exploring { tile_in_hand: true, .. })
    };
    ann.world_mut().write_message(PlayerAction(place.clone()));
    assert!(pump(&mut [&mut ann, &mut bo], placed));
    let after = delve(&ann).game().clone();

    // Bo may not take back Ann's move: refused on his board with why, nothing changes.
    bo.world_mut().resource_mut::<GameLog>().notice = None;
    bo.world_mut().write_message(TakeBack);
    assert!(pump(&mut [&mut ann, &mut bo], |a| game_log(a[1]).notice.is_some()));
    assert_eq!(
        game_log(&bo).notice.as_deref(),
        Some("The last move was Ann's: only they or the host can take it back.")
    );
    assert_eq!(delve(&bo).game(), &after);
    // Ann may: the tile is back in her hand on both boards, the turn hers again.
    ann.world_mut().write_message(TakeBack);
    assert!(pump(&mut [&mut ann, &mut bo], |a| delve(a[0]).game() == &before && delve(a[1]).game() == &before));
    assert!(game_log(&bo).lines.iter().any(|l| l.starts_with("Took back:")), "Bo's log says so");
    assert_eq!(seats(&ann).turn, seats(&bo).turn);
    assert_eq!(seats(&bo).turn.player, 0, "Ann's turn again");

    // She places it again; the turn passes to Bo, whose draw goes through.
    ann.world_mut().write_message(PlayerAction(place));
    assert!(pump(&mut [&mut ann, &mut bo], placed));
    assert_eq!(delve(&bo).game(), &after, "the same move, the same game");
    if seats(&bo).turn.player == 1 && delve(&bo).game().check(&Action::DrawTile).is_ok() {
        bo.world_mut().write_message(PlayerAction(Action::DrawTile));
        assert!(pump(&mut [&mut ann, &mut bo], |a| matches!(
            delve(a[0]).game().phase(),
            Phase::Exploring { tile_in_hand: true, .. }
        ) && delve(a[0]).game() == delve(a[1]).game()));
    }
    assert_eq!(seats(&ann).turn, seats(&bo).turn);

    // Only the host seats Companions: Bo's box is asked of the host, who refuses.
    bo.world_mut().write_message(SetCompanion { hero: 1, on: true });
    assert!(pump(&mut [&mut ann, &mut bo], |a| game_log(a[1]).notice.is_some()));
    assert_eq!(game_log(&bo).notice.as_deref(), Some("The host refused: only the host seats Companions."));
    assert!(!seats(&bo).players.is_companion(1) && !seats(&ann).players.is_companion(1));

    // Ann's box: a Companion plays Sil for Bo on both boards, and moves for him from the host's table.
    let before = delve(&ann).version();
    ann.world_mut().write_message(SetCompanion { hero: 1, on: true });
    assert!(pump(&mut [&mut ann, &mut bo], |a| seats(a[1]).players.is_companion(1)));
    assert!(seats(&ann).players.is_companion(1));
    assert!(
        pump(&mut [&mut ann, &mut bo], |a| !a[0].world().resource::<CompanionMoves>().0.is_empty()
            && delve(a[0]).version() > before + 1
            && delve(a[0]).game() == delve(a[1]).game()),
        "the host's Companion moves and both boards follow"
    );
    assert!(bo.world().resource::<CompanionMoves>().0.is_empty(), "Bo's table runs no Companion");
    assert!(
        pump(&mut [&mut ann, &mut bo], |a| game_log(a[1]).lines.iter().any(|l| l.contains("(Companion"))),
        "Bo's log names the Companion's move: {:?}",
        game_log(&bo).lines
    );
    assert_eq!(seats(&ann).turn, seats(&bo).turn);
    assert_eq!(seats(&ann).players.companions, seats(&bo).players.companions);
    // Seated from the start, Bo's table knows every move since (its game-over
    // sheet's analysis and replay), a take-back taken back too.
    assert!(pump(&mut [&mut ann, &mut bo], |a| delve(a[0]).game() == delve(a[1]).game()));
    assert!(delve(&bo).history.as_ref().is_some_and(|h| h.len() > 3));
    assert_eq!(delve(&bo).history, delve(&ann).history);

    // Bo's machine keeps its key in the data folder, the same every start:
    // after a crash it is his seat's key again.
    let again = depths_app::game::online::machine_key(bo.world().resource::<SaveDir>()).unwrap();
    assert_eq!(again.public(), bo_key.public());

    // The host saves the game; a player's copy is not a save.
    let saves = |app: &App| {
        let dir = &app.world().resource::<SaveDir>().0;
        std::fs::read_dir(dir).map_or(0, |d| {
            d.filter_map(Result::ok).filter(|e| e.path().extension().is_some_and(|x| x == "json")).count()
        })
    };
    assert!(saves(&ann) >= 1, "the host saved");
    // The host's save knows whose key sat at each seat, and is the table it
    // was playing: restarted, it offers that game first and lets Bo back by
    // his key (a host that restarted locked its friends out).
    let dir = ann.world().resource::<SaveDir>().0.clone();
    let listed = depths_app::game::saves::summarize_saves(&dir);
    let (_, saved) = depths_app::game::saves::read_save(&listed[0].path).unwrap();
    assert_eq!(saved.unwrap().keys, vec![None, Some(bo_key.public().to_string())]);
    assert!(listed[0].interrupted, "{:?}", listed[0]);
    assert_eq!(saves(&bo), 0, "Bo's machine keeps no copy of Ann's game");

    // Back to the menu: the table closes for both.
    ann.world_mut().write_message(depths_app::ui::screens::menu::MenuAction::BackToMenu);
    assert!(pump(&mut [&mut ann, &mut bo], |a| a[1].world().resource::<JoinedGame>().waiting_for().is_empty()
        && matches!(a[1].world().resource::<JoinedGame>().link, depths_net::client::Link::Lost(_))));
    assert!(ann.world().get_resource::<Online>().is_none());
    // Bo's table, cut off, offers nothing, greyed with why (a click was dropped without a word).
    assert!(pump(&mut [&mut bo], |a| seats(a[0]).link_down.is_some()));
    assert_eq!(seats(&bo).link_down.as_deref(), Some("Not connected to the host: Reconnect first."));
    assert!(depths_app::table::cards::legal_at_table(delve(&bo), seats(&bo)).is_empty());
    // Bo, dropped, goes to the menu: his machine still keeps no save of Ann's game.
    bo.world_mut().write_message(depths_app::ui::screens::menu::MenuAction::BackToMenu);
    assert!(pump(&mut [&mut bo], |a| screen(a[0]) == Screen::Menu));
    bo.update();
    assert_eq!(saves(&bo), 0, "leaving a dropped table writes no save on a player's machine");
}

/// Proves: a restarted game's way back to the table it joined is one click.
/// Bo's settings keep his name, the invite he last joined with and its
/// host's name (learnt once seated); the menu's Rejoin opens the lobby and
/// dials it, and Bo sits down again (after a crash the form was empty and
/// the menu offered nothing).
#[test]
fn the_menus_rejoin_dials_the_table_last_joined() {
    use depths_app::game::{flow::MenuAction, settings::Settings};
    let mut ann = client_app("ann-rejoin");
    let ann_key = depths_app::game::online::machine_key(ann.world().resource::<SaveDir>()).unwrap();
    let invite = host::open(ann.world_mut(), ann_key, &Relays::Off, "Ann").unwrap();
    let mut bo = client_app("bo-rejoin");
    let file = bo.world().resource::<SaveDir>().0.with_file_name("settings.json");
    let mut settings = Settings::read(file);
    (settings.player_name, settings.last_invite, settings.relay) = ("Bo".into(), invite.text(), "off".into());
    bo.world_mut().insert_resource(settings);
    bo.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Menu);
    bo.update();
    bo.world_mut().write_message(MenuAction::Rejoin);
    let seated = pump(&mut [&mut ann, &mut bo], |a| a[0].world().resource::<HostedGame>().lobby.online == [true, true]);
    assert!(seated, "Bo is back at Ann's table: {:?}", bo.world().resource::<JoinedGame>().link);
    assert_eq!(ann.world().resource::<HostedGame>().lobby.names[1], "Bo");
    assert!(pump(&mut [&mut ann, &mut bo], |a| a[1].world().resource::<Settings>().last_host == "Ann"), "kept");
}
