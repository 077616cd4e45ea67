//! Online co-op end to end: a host and two players, each a headless Bevy app
//! in this process, over UDP on 127.0.0.1.

mod common;

use bevy::prelude::*;
use depths_net::{
    client::{self, Link},
    host::{CompanionAct, HostAct, HostRefused, SeatCompanion, StandIn},
    protocol::MAX_FROM_PLAYER,
};
use depths_rules::{Action, GameRng, Phase};

use common::{Net, next_move, play_one, play_step, player_app};

const HEROES: [&str; 3] = ["bren", "sil", "ava"];

/// Proves: a whole game played by three people (host Ann, players Bo and
/// Cy, one Hero each, every move the careful bot's for the seat that owns
/// it) ends, and after every single action each player's copy (game, turn,
/// count) equals the host's.
#[test]
fn three_players_finish_a_game_and_every_copy_equals_the_hosts_after_every_action() {
    let mut net = Net::seated(&["Ann", "Bo", "Cy"]);
    net.start(&HEROES, &[0, 1, 2], 11);
    let mut by_seat = [0usize; 3];
    let mut round = 0;
    while !net.shared().game.is_over() {
        by_seat[next_move(net.shared(), round).0] += 1;
        play_one(&mut net, round);
        round += 1;
        assert!(round < 20_000, "the game ends");
    }
    assert!(by_seat.iter().all(|&n| n > 0), "every seat played moves: {by_seat:?}");
    assert_eq!(net.hosted().stats.applied, round as u64);
    assert_eq!(net.hosted().stats.refused, 0, "the bot's moves were all its seat's to make");
    for p in 0..2 {
        assert_eq!(net.remote(p).stats.resyncs, 0, "no copy ever drifted");
        assert_eq!(net.remote(p).shared.as_ref().unwrap().game, net.shared().game);
    }
}

/// Proves: a move for another seat's Hero, a shared choice out of turn, a
/// move the rules forbid, garbage bytes and an oversized message are each
/// refused with a reason the sender sees, the host keeps running, and no
/// copy of the game changes.
#[test]
fn wrong_seat_illegal_and_garbage_messages_are_refused_and_change_nothing() {
    let mut net = Net::seated(&["Ann", "Bo", "Cy"]);
    net.start(&HEROES, &[0, 1, 2], 5);
    let before = net.shared().clone();
    let refusal = |net: &mut Net, send: &dyn Fn(&mut App)| -> String {
        net.remote_mut(0).refusal = None;
        send(&mut net.players[0]);
        assert!(net.pump(|n| n.remote(0).refusal.is_some()), "Bo hears back");
        net.remote(0).refusal.clone().unwrap()
    };
    let send = |action: Action| {
        move |app: &mut App| {
            app.world_mut().write_message(depths_net::SendAction(action.clone()));
        }
    };
    assert_eq!(refusal(&mut net, &send(Action::Unequip { hero: 2, item: 0 })), "Ava is Cy's Hero");
    assert_eq!(refusal(&mut net, &send(Action::DrawTile)), "it is Ann's turn");
    let illegal = refusal(&mut net, &send(Action::Unequip { hero: 1, item: 9 }));
    assert!(!illegal.is_empty() && !illegal.contains("turn"), "the rules' reason: {illegal}");
    let garbage = refusal(&mut net, &|app: &mut App| {
        app.world().resource::<depths_net::link::PlayerLink>().send(b"\x00\xffnot json".to_vec());
    });
    assert!(garbage.starts_with("the host could not read your message"), "{garbage}");
    let huge = refusal(&mut net, &|app: &mut App| {
        app.world().resource::<depths_net::link::PlayerLink>().send(vec![b'['; MAX_FROM_PLAYER + 1]);
    });
    assert!(huge.contains("over the limit"), "{huge}");

    let stats = net.hosted().stats;
    assert_eq!((stats.refused, stats.dropped, stats.applied), (3, 2, 0));
    assert_eq!(net.shared(), &before, "the host's table did not move");
    assert!(net.all_in_step(), "nor did any copy");
    assert_eq!(net.remote(0).link, Link::Seated, "Bo is still at the table");

    // The host's own move for Bo's Hero is refused too.
    net.host.world_mut().write_message(depths_net::host::HostAct(Action::Unequip { hero: 1, item: 0 }));
    net.host.update();
    let refused: Vec<String> =
        net.host.world_mut().resource_mut::<Messages<HostRefused>>().drain().map(|r| r.0).collect();
    assert_eq!(refused, vec!["Sil is Bo's Hero".to_owned()]);

    // And a well-formed move of Ann's still goes through afterwards.
    play_one(&mut net, 0);
    assert_eq!(net.shared().seq, 1);
}

/// Proves: a player who drops mid-Combat pauses the table (the host refuses
/// moves and every client can show whom it waits for), rejoins under the
/// same name from a fresh client, is handed the current table, and the game
/// then plays to its end with every copy equal to the host's.
#[test]
fn a_player_who_drops_mid_combat_pauses_the_table_rejoins_and_the_game_completes() {
    let mut net = Net::seated(&["Ann", "Bo", "Cy"]);
    net.start(&HEROES, &[0, 1, 2], 11);
    let mut round = 0;
    while !matches!(net.shared().game.phase(), Phase::Combat { .. }) {
        play_one(&mut net, round);
        round += 1;
        assert!(!net.shared().game.is_over(), "a Combat comes before the end");
    }
    // A move into the fight, so the rejoin is really mid-Combat.
    play_one(&mut net, round);
    round += 1;

    client::leave(net.players[0].world_mut());
    assert!(net.pump(|n| n.hosted().lobby.waiting_for() == vec![1]), "the host sees Bo go");
    assert!(net.pump(|n| n.remote(1).waiting_for() == vec![1]), "Cy's client can show 'waiting for Bo'");
    let seq = net.shared().seq;
    net.act(2, next_move(net.shared(), round).1);
    assert!(net.pump(|n| n.remote(1).refusal.is_some()));
    assert_eq!(net.remote(1).refusal.as_deref(), Some("the table waits for Bo to come back"));
    assert_eq!(net.shared().seq, seq, "nothing is played while the table waits");

    net.rejoin(0, "Bo");
    assert!(net.pump(|n| n.remote(0).seat == Some(1) && n.all_in_step()), "Bo is back at seat 1, in step");
    assert!(matches!(net.remote(0).shared.as_ref().unwrap().game.phase(), Phase::Combat { .. }));
    assert!(net.hosted().lobby.waiting_for().is_empty());

    while !net.shared().game.is_over() {
        play_one(&mut net, round);
        round += 1;
        assert!(round < 20_000, "the game ends");
    }
    assert!(net.all_in_step());
}

/// Proves: while a player is away the host may stand in for them (their
/// Heroes and turns), and the seat goes back to the player on their return.
#[test]
fn the_host_stands_in_for_an_away_player_until_they_return() {
    let mut net = Net::seated(&["Ann", "Bo"]);
    net.start(&["bren", "sil"], &[1, 1], 2);
    client::leave(net.players[0].world_mut());
    assert!(net.pump(|n| n.hosted().lobby.waiting_for() == vec![1]));
    net.host.world_mut().write_message(StandIn { seat: 1, by: Some(0) });
    assert!(net.pump(|n| n.hosted().lobby.waiting_for().is_empty()));
    // Bo's turns and Bo's Heroes: the host plays them now, beside its own.
    let mut for_bo = 0;
    for round in 0..12 {
        let (seat, action) = next_move(net.shared(), round);
        for_bo += usize::from(seat == 1);
        net.host.world_mut().write_message(depths_net::host::HostAct(action));
        let seq = net.shared().seq;
        assert!(net.pump(|n| n.shared().seq == seq + 1), "the host's move for seat {seat} is applied");
    }
    assert!(for_bo > 0, "some of those moves were Bo's");
    net.rejoin(0, "Bo");
    assert!(net.pump(|n| n.remote(0).seat == Some(1) && n.all_in_step()));
    assert_eq!(net.hosted().lobby.stand_in(1), None, "Bo plays again");
}

/// Proves: a copy that differs from the host's (here, its random generator
/// tampered with) is found out by the next action's checksum, asks for the
/// host's table, and is equal to it again.
#[test]
fn a_copy_that_drifts_resynchronises_from_the_host() {
    let mut net = Net::seated(&["Ann", "Bo"]);
    net.start(&["bren", "sil"], &[0, 1], 4);
    net.remote_mut(0).shared.as_mut().unwrap().game.rng = GameRng::from_seed(999);
    assert!(!net.all_in_step());
    play_one(&mut net, 0);
    assert_eq!(net.remote(0).stats.resyncs, 1, "one resync");
    assert_eq!(net.hosted().stats.snapshots_sent, 2, "the start, and the resync");
}

/// Proves: the door is kept: a fourth person, a name already at the table,
/// a seated player asking for a second seat, and a newcomer after the start
/// are each refused a seat with a reason.
#[test]
fn seats_are_refused_to_a_fourth_player_a_taken_name_and_latecomers() {
    let mut net = Net::seated(&["Ann", "Bo", "Cy"]);
    let reason_for = |net: &mut Net, name: &str| -> String {
        net.players.push(player_app(&net.invite, name));
        let last = net.players.len() - 1;
        assert!(net.pump(|n| matches!(n.remote(last).link, Link::Lost(_))), "{name} is turned away");
        let r = net.remote(last).refusal.clone().unwrap_or_else(|| panic!("{:?}", net.remote(last).link));
        net.players.pop();
        r
    };
    assert_eq!(reason_for(&mut net, "Di"), "the table is full");
    assert_eq!(reason_for(&mut net, "Bo"), "the name Bo is taken at this table: choose another");
    assert_eq!(reason_for(&mut net, "b0"), "the name b0 is taken at this table: choose another", "a look-alike");
    // A seated player asking for a second seat.
    let join = depths_net::protocol::encode(&depths_net::protocol::ToHost::Join {
        name: "Zed".into(),
        version: depths_net::protocol::PROTOCOL_VERSION,
        admission: None,
    });
    net.players[0].world().resource::<depths_net::link::PlayerLink>().send(join);
    assert!(net.pump(|n| n.remote(0).refusal.is_some()));
    assert_eq!(net.remote(0).refusal.as_deref(), Some("you already sit at the table as Bo"));
    assert_eq!(net.hosted().lobby.names.len(), 3, "no seat for Zed");
    net.start(&HEROES, &[0, 1, 2], 1);
    client::leave(net.players[1].world_mut());
    assert!(net.pump(|n| n.hosted().lobby.waiting_for() == vec![2]));
    assert_eq!(reason_for(&mut net, "Eve"), "the game has started: only its players can rejoin");
    assert_eq!(
        reason_for(&mut net, "Cy"),
        "the name Cy is taken at this table: choose another",
        "the name is not a key"
    );
}

/// Proves: a saved online game resumes. Ann, Bo and Cy play part of a game;
/// the host saves it (its game, seats and turn) and the table closes. Later
/// Ann hosts again and Cy and Bo sit down in the other order: the saved
/// players are reseated by name (`reseat`), every Hero stays with its
/// player, the turn stays with the same person, every copy equals the
/// host's, and the game plays on to its end.
#[test]
fn a_saved_online_game_resumes_with_its_players_back_at_their_heroes() {
    use depths_net::host::StartTable;
    use depths_seats::seats::reseat;
    let mut first = Net::seated(&["Ann", "Bo", "Cy"]);
    first.start(&HEROES, &[0, 1, 2], 7);
    for round in 0..60 {
        play_one(&mut first, round);
    }
    let saved = first.shared().clone();
    drop(first);

    let mut net = Net::seated(&["Ann", "Cy", "Bo"]);
    let seats = net.hosted().lobby.names.clone();
    let (players, turn) = reseat(&saved.players, &saved.turn, &seats).expect("everyone is back");
    let owner_name = |p: &depths_seats::seats::Players, h: u8| p.name(p.owner(h)).to_owned();
    for h in 0..saved.game.heroes.len() as u8 {
        assert_eq!(owner_name(&players, h), owner_name(&saved.players, h), "Hero {h} stays with its player");
    }
    assert_eq!(players.name(turn.player), saved.players.name(saved.turn.player), "the turn stays with its player");
    let owners = players.owners.clone();
    let companions = players.companions.clone();
    net.host.world_mut().write_message(StartTable { game: saved.game.clone(), owners, turn: turn.clone(), companions });
    assert!(net.pump(|n| n.all_in_step()), "every player gets the saved table");
    assert_eq!(net.shared().game, saved.game);
    assert_eq!(net.shared().turn, turn);
    let mut round = 60;
    while !net.shared().game.is_over() {
        play_one(&mut net, round);
        round += 1;
        assert!(round < 20_000, "the resumed game ends");
    }
    assert_eq!(net.hosted().stats.refused, 0);
}

/// The host's refusals since the last call.
fn host_refusals(net: &mut Net) -> Vec<String> {
    net.host.world_mut().resource_mut::<Messages<HostRefused>>().drain().map(|r| r.0).collect()
}

/// Proves: a table with a Companion plays a whole game. Ann plays Bren, Bo
/// plays Sil, a Companion plays Ava from the start; midway the host gives
/// Sil to a Companion too (Bo's turns become the Companions') and later
/// gives it back. The Companions' moves are chosen on the host and go
/// through it like any action, and after every single step (action or
/// seat change) Bo's copy — game, seats, turn, count — equals the host's.
#[test]
fn a_companion_plays_a_hero_through_a_whole_game_and_every_copy_equals_the_hosts_after_every_step() {
    let mut net = Net::seated(&["Ann", "Bo"]);
    net.start_with(&HEROES, &[0, 1, 1], &[false, false, true], 11);
    assert!(net.remote(0).shared.as_ref().unwrap().players.is_companion(2), "Bo sees Ava is a Companion");
    let (mut by_companion, mut by_seat, mut round) = (0, [0usize; 2], 0);
    while !net.shared().game.is_over() {
        if round == 40 {
            assert!(net.seat_companion(1, true), "Sil to a Companion");
            assert!(net.remote(0).shared.as_ref().unwrap().players.is_companion(1));
        }
        if round == 160 {
            assert!(net.seat_companion(1, false), "Sil back to Bo");
        }
        match play_step(&mut net, round) {
            None => by_companion += 1,
            Some(seat) => by_seat[seat] += 1,
        }
        round += 1;
        assert!(round < 20_000, "the game ends");
    }
    assert!(by_companion > 0 && by_seat.iter().all(|&n| n > 0), "Companion {by_companion}, seats {by_seat:?}");
    let host = net.hosted().stats;
    assert_eq!((host.applied, host.refused), (round as u64, 0), "every step was its mover's to make");
    assert_eq!(net.shared().seq, round as u64 + 2, "the actions and the two seat changes");
    assert_eq!(net.remote(0).stats.resyncs, 0, "no copy ever drifted");
    assert_eq!(net.remote(0).shared.as_ref(), Some(net.shared()));
}

/// Proves: only the host seats Companions. A player's ask to seat one (or
/// to take one's own Hero back from one) is refused with the reason, and no
/// copy changes; nor may a player move for a Companion's Hero, the host's
/// own input act on a Companion's turn, or a Companion move for a player's
/// Hero. A seat change for no Hero is refused; one that changes nothing is
/// no step.
#[test]
fn a_players_ask_to_seat_a_companion_is_refused_and_changes_nothing() {
    let mut net = Net::seated(&["Ann", "Bo"]);
    net.start_with(&["bren", "sil"], &[0, 1], &[true, false], 5);
    let before = net.shared().clone();
    let refusal = |net: &mut Net, message: &dyn Fn(&mut App)| -> String {
        net.remote_mut(0).refusal = None;
        message(&mut net.players[0]);
        assert!(net.pump(|n| n.remote(0).refusal.is_some()), "Bo hears back");
        net.remote(0).refusal.clone().unwrap()
    };
    let ask = |hero, on| {
        move |app: &mut App| {
            app.world_mut().write_message(client::AskCompanion { hero, on });
        }
    };
    assert_eq!(refusal(&mut net, &ask(1, true)), "only the host seats Companions");
    assert_eq!(refusal(&mut net, &ask(0, false)), "only the host seats Companions");
    let unequip = |app: &mut App| {
        app.world_mut().write_message(depths_net::SendAction(Action::Unequip { hero: 0, item: 0 }));
    };
    assert_eq!(refusal(&mut net, &unequip), "a Companion plays Bren");
    assert_eq!(net.shared(), &before, "the host's table did not move");
    assert!(net.all_in_step(), "nor did Bo's copy");

    // Ann's only Hero is a Companion's: the first turn is the Companion's.
    net.host.world_mut().write_message(HostAct(Action::DrawTile));
    net.host.world_mut().write_message(CompanionAct(Action::Unequip { hero: 1, item: 0 }));
    net.host.world_mut().write_message(SeatCompanion { hero: 9, on: true });
    net.host.update();
    assert_eq!(
        host_refusals(&mut net),
        vec![
            "there is no Hero 9 at this table".to_owned(),
            "it is a Companion's turn".to_owned(),
            "Bo plays Sil themselves".to_owned()
        ]
    );
    assert!(!net.seat_companion(0, true), "already a Companion: no step");
    assert_eq!(net.shared(), &before);

    // The Companion's own move goes through, to every copy.
    net.host.world_mut().write_message(CompanionAct(Action::DrawTile));
    assert!(net.pump(|n| n.shared().seq == 1 && n.all_in_step()));
    assert_eq!(net.hosted().stats.refused, 5, "three of Bo's, two of the host's moves");
}

/// Proves: the host may hand a dropped player's Heroes to Companions. Bo
/// (Sil and Ava) drops: the table waits for him; once Companions play both
/// his Heroes it no longer does and the game goes on, the Companions moving
/// for him. Bo rejoins into the current table (his Heroes shown as the
/// Companions'), the host gives them back, and the game ends with every
/// copy equal to the host's.
#[test]
fn a_dropped_players_heroes_played_by_companions_let_the_game_go_on() {
    let mut net = Net::seated(&["Ann", "Bo"]);
    net.start(&HEROES, &[0, 1, 1], 3);
    for round in 0..20 {
        play_one(&mut net, round);
    }
    client::leave(net.players[0].world_mut());
    assert!(net.pump(|n| n.hosted().waiting_for() == vec![1]), "the host sees Bo go");
    let action = next_move(net.shared(), 0).1;
    net.host.world_mut().write_message(HostAct(action));
    net.host.update();
    assert_eq!(host_refusals(&mut net), vec!["the table waits for Bo to come back".to_owned()]);

    assert!(net.seat_companion(1, true));
    assert_eq!(net.hosted().waiting_for(), vec![1], "Bo still plays Ava");
    assert!(net.seat_companion(2, true));
    assert!(net.hosted().waiting_for().is_empty(), "nothing of Bo's is left to wait for");
    let mut by_companion = 0;
    for round in 20..140 {
        if net.shared().game.is_over() {
            break;
        }
        by_companion += usize::from(play_step(&mut net, round).is_none());
    }
    assert!(by_companion > 0, "the Companions played for Bo");

    net.rejoin(0, "Bo");
    assert!(net.pump(|n| n.remote(0).seat == Some(1) && n.all_in_step()), "Bo is back, in step");
    assert!(net.remote(0).shared.as_ref().unwrap().players.is_companion(2), "his Heroes shown as the Companions'");
    assert!(net.seat_companion(1, false) && net.seat_companion(2, false));
    let mut round = 140;
    while !net.shared().game.is_over() {
        play_step(&mut net, round);
        round += 1;
        assert!(round < 20_000, "the game ends");
    }
    assert!(net.all_in_step());
    assert_eq!(net.remote(0).stats.resyncs, 0);
}

/// Proves (undo online): a player's ask to take back another seat's move is
/// refused with the reason and changes nothing; the owner's ask takes it
/// back on every copy (the rewind is a numbered step with the checksum, so
/// every copy equals the host's, game and turn as before the move); the
/// host takes back any seat's move; nothing is taken back across a reveal;
/// and the game plays on to its end in step.
#[test]
fn a_move_taken_back_online_is_taken_back_on_every_copy() {
    use depths_net::{client::AskTakeBack, host::HostTakeBack};
    let mut net = Net::seated(&["Ann", "Bo", "Cy"]);
    net.start(&HEROES, &[0, 1, 2], 11);
    let mut round = 0;
    let mut taken_back = 0;
    let mut refused = 0;
    while !net.shared().game.is_over() && round < 20_000 {
        let before = net.shared().clone();
        let (seat, action) = next_move(&before, round);
        play_one(&mut net, round);
        round += 1;
        let Ok(Some(by)) = net.shared().last_move_by() else { continue };
        assert_eq!(by, seat, "the history names who moved");
        if seat == 0 || taken_back >= 6 {
            continue;
        }
        // Another player asks first: refused in words, nothing changes.
        let other = if seat == 1 { 2 } else { 1 };
        let seq = net.shared().seq;
        net.players[other - 1].world_mut().write_message(AskTakeBack);
        assert!(net.pump(|n| n.remote(other - 1).refusal.is_some()));
        let name = net.shared().players.name(seat).to_owned();
        assert_eq!(
            net.remote_mut(other - 1).refusal.take(),
            Some(format!("the last move was {name}'s: only they or the host can take it back"))
        );
        assert_eq!(net.shared().seq, seq, "nothing was taken back");
        refused += 1;
        // Its owner asks (or, every other time, the host does): taken back everywhere.
        if taken_back % 2 == 0 {
            net.players[seat - 1].world_mut().write_message(AskTakeBack);
        } else {
            net.host.world_mut().write_message(HostTakeBack);
        }
        assert!(net.pump(|n| n.shared().seq == seq + 1 && n.all_in_step()), "every copy takes {action:?} back");
        assert_eq!(net.shared().game, before.game, "the game as before the move");
        assert_eq!(net.shared().turn, before.turn, "the turn as before the move");
        taken_back += 1;
        // Made again, so the game goes on as the bot plays it.
        net.act(seat, action);
        assert!(net.pump(|n| n.shared().seq == seq + 2 && n.all_in_step()));
    }
    assert!(net.shared().game.is_over(), "the game ends");
    assert!(taken_back >= 4 && refused >= 4, "moves were taken back ({taken_back}) and refused ({refused})");
    // The last move ended the game (or revealed something): nothing goes back across it.
    let seq = net.shared().seq;
    net.host.world_mut().write_message(HostTakeBack);
    net.host.update();
    assert_eq!(net.shared().seq, seq);
    assert_eq!(net.remote(0).stats.resyncs + net.remote(1).stats.resyncs, 0, "no copy needed the host's table");
}

/// Proves (issue 54): a player refuses a table that fails the check (here a
/// host of another build, or a doctored one, whose turn names a player not
/// at it), says "the host sent a game this version cannot read" with the
/// field, and leaves the table cleanly: the host sees the seat away.
#[test]
fn a_player_refuses_a_table_that_fails_the_check_and_leaves_cleanly() {
    let mut net = Net::seated(&["Ann", "Bo"]);
    let content = depths_rules::Content::builtin().unwrap();
    let game = depths_rules::Game::new(depths_rules::GameOptions::standard(&HEROES[..2], 3), content).unwrap();
    let turn = depths_seats::seats::Turn { pass_to: Some(9), ..Default::default() };
    net.host.world_mut().write_message(depths_net::host::StartTable {
        game,
        owners: vec![0, 1],
        turn,
        companions: Vec::new(),
    });
    assert!(net.pump(|n| matches!(n.remote(0).link, Link::Lost(_))), "Bo refuses the table");
    let Link::Lost(why) = &net.remote(0).link else { unreachable!() };
    assert_eq!(
        why,
        "the host sent a game this version cannot read (turn.pass_to is player 9, but the table has 2 players)"
    );
    assert!(net.remote(0).shared.is_none(), "nothing of the table is taken");
    assert!(net.pump(|n| n.hosted().lobby.online.get(1) == Some(&false)), "the host sees Bo away");
}
