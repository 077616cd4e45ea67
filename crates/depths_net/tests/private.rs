//! Private tables on loopback: only holders of the invite connect, a seat
//! is taken back only with its secret, the host sends players away, and
//! connections that never sit down make room. Each test names the threat
//! it closes (docs/online.md, "What a stranger can do").

mod common;

use std::{
    net::UdpSocket,
    time::{Duration, Instant},
};

use bevy::prelude::*;
use bevy_renet::{
    RenetClient, RenetClientPlugin,
    netcode::{
        ClientAuthentication, ConnectToken, NETCODE_USER_DATA_BYTES, NetcodeClientPlugin, NetcodeClientTransport,
    },
};
use depths_net::{
    ClientPlugin, Invite, JoinedGame,
    client::{self, Link},
    host::{JOIN_WITHIN, Kick},
    link::{self, PlayerLink},
    transport::{PROTOCOL_ID, client_transport},
};

use common::{Net, play_one};

/// A connection that never asks for a seat: netcode and renet only.
fn silent_app(invite: &Invite) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, RenetClientPlugin, link::plugin));
    let (client, transport) = client_transport(invite, None).expect("dial loopback");
    app.insert_resource(client);
    app.insert_resource(transport);
    // Not a player: the checks of every player's copy pass it by.
    let mut remote = JoinedGame::default();
    remote.link = Link::Lost("silent".into());
    app.insert_resource(remote);
    app
}

fn connected(app: &App) -> bool {
    app.world().resource::<RenetClient>().is_connected()
}

/// Threat: anyone who can reach the port connects. A plain netcode client
/// with the right protocol id but no invite, and one with the right address
/// but another secret, never complete the handshake; the second is told to
/// check its invite.
#[test]
fn without_the_invites_secret_nobody_connects() {
    let mut net = Net::seated(&["Ann"]);
    let addr = net.invite.addr;

    let mut plain = App::new();
    plain.add_plugins((MinimalPlugins, RenetClientPlugin, NetcodeClientPlugin));
    let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
    let auth =
        ClientAuthentication::Unsecure { protocol_id: PROTOCOL_ID, client_id: 7, server_addr: addr, user_data: None };
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
    plain.insert_resource(NetcodeClientTransport::new(now, auth, socket).unwrap());
    plain.insert_resource(RenetClient::new(Default::default()));
    net.players.push(plain);

    let mut wrong = App::new();
    wrong.add_plugins((MinimalPlugins, ClientPlugin));
    client::join(wrong.world_mut(), &Invite::new(addr), "Eve", None).unwrap();
    net.players.push(wrong);

    // Netcode gives up on an unanswered request after its timeout.
    let limit = Duration::from_secs(depths_net::transport::TIMEOUT_SECONDS as u64 + 5);
    let both_tried = net.pump_for(limit, |n| {
        connected(&n.players[0]) || connected(&n.players[1]) || matches!(n.remote(1).link, Link::Lost(_))
    });
    assert!(both_tried && !connected(&net.players[0]) && !connected(&net.players[1]), "neither connected");
    assert_eq!(net.hosted().connections(), 0, "the host saw no connection at all");
    assert!(
        matches!(net.remote(1).link, Link::Lost(_)),
        "the client with the wrong secret gives up: {:?}",
        net.remote(1).link
    );
    let Link::Lost(why) = &net.remote(1).link else { unreachable!() };
    assert!(why.contains("check that the invite is the current one"), "{why}");
    assert_eq!(net.hosted().lobby.names, vec!["Ann".to_owned()]);
}

fn stranger(net: &mut Net, name: &str, secret: Option<depths_net::protocol::SeatSecret>) -> String {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, ClientPlugin));
    client::join(app.world_mut(), &net.invite, name, secret).unwrap();
    net.players.push(app);
    let last = net.players.len() - 1;
    assert!(net.pump(|n| matches!(n.remote(last).link, Link::Lost(_))), "{name} is turned away");
    let why = net.remote(last).refusal.clone().unwrap_or_default();
    net.players.pop();
    why
}

/// Threat: a name is the only password. A stranger (with the invite) who
/// uses a seated player's name, or a dropped one's, or a look-alike of it,
/// or a made-up secret, is refused in the same words; the player comes back
/// with the seat's secret.
#[test]
fn a_stranger_cannot_take_a_seated_or_dropped_players_seat() {
    let mut net = Net::seated(&["Ann", "Bo"]);
    net.start(&["bren", "sil"], &[0, 1], 5);
    let taken = "the name Bo is taken at this table: choose another";
    assert_eq!(stranger(&mut net, "Bo", None), taken);
    client::leave(net.players[0].world_mut());
    assert!(net.pump(|n| n.hosted().lobby.waiting_for() == vec![1]));
    assert_eq!(stranger(&mut net, "Bo", None), taken, "the same words when he is away");
    assert_eq!(
        stranger(&mut net, "BO", Some(depths_net::protocol::SeatSecret::new())),
        "the name BO is taken at this table: choose another"
    );
    assert_eq!(
        stranger(&mut net, "Bo\u{200b}", None),
        "a name has letters, digits, spaces and - ' _ . only, not '\\u{200b}'"
    );
    assert_eq!(net.hosted().lobby.waiting_for(), vec![1], "the seat still waits for Bo");
    net.rejoin(0, "Bo");
    assert!(net.pump(|n| n.remote(0).seat == Some(1) && n.all_in_step()), "Bo's secret takes it back");
}

/// Threat: a crashed player waited out the 15 s timeout and was told to
/// choose another name. Here the player's process dies without a word (its
/// app is dropped); the new connection with the seat's secret takes the
/// seat at once (well within the timeout) and play goes on.
#[test]
fn a_crashed_player_is_back_at_once_with_its_seat_secret() {
    let mut net = Net::seated(&["Ann", "Bo"]);
    net.start(&["bren", "sil"], &[0, 1], 6);
    for round in 0..4 {
        play_one(&mut net, round);
    }
    let t = Instant::now();
    net.rejoin(0, "Bo");
    assert!(net.pump(|n| n.remote(0).seat == Some(1) && n.all_in_step()), "Bo is back, in step");
    assert!(t.elapsed() < Duration::from_secs(depths_net::transport::TIMEOUT_SECONDS as u64));
    assert!(net.hosted().lobby.waiting_for().is_empty());
    for round in 4..8 {
        play_one(&mut net, round);
    }
}

/// Threat: the host cannot remove anyone. Sent away before the start, a
/// seat is freed (the next player moves up and is told); banned during
/// play, the player is told why and neither the name nor the seat's secret
/// gets back in.
#[test]
fn the_host_sends_players_away_and_a_banned_one_cannot_come_back() {
    let mut net = Net::seated(&["Ann", "Eve", "Bo"]);
    net.host.world_mut().write_message(Kick { seat: 1, ban: false });
    assert!(net.pump(|n| matches!(n.remote(0).link, Link::Lost(_)) && n.remote(1).seat == Some(1)));
    assert_eq!(net.remote(0).refusal.as_deref(), Some("the host asked you to leave the table"));
    assert_eq!(net.hosted().lobby.names, vec!["Ann".to_owned(), "Bo".to_owned()], "Eve's seat is free");
    drop(net.players.remove(0));

    net.start(&["bren", "sil"], &[0, 1], 8);
    net.host.world_mut().write_message(Kick { seat: 1, ban: true });
    assert!(net.pump(|n| matches!(n.remote(0).link, Link::Lost(_))));
    assert_eq!(net.remote(0).refusal.as_deref(), Some("the host has sent you away from this table"));
    let secret = net.remote(0).secret.clone();
    assert_eq!(stranger(&mut net, "Bo", secret), "the host has sent you away from this table");
    assert_eq!(net.hosted().lobby.waiting_for(), vec![1], "his Heroes wait for the host's choice");
}

/// Threat: connections that never send a Join held every slot, so a
/// dropped player could not rejoin. Seatless connections beyond the bound
/// make room at once, the rest are dropped after `JOIN_WITHIN`, and a
/// crashed player's rejoin gets through meanwhile.
#[test]
fn seatless_connections_make_room_and_do_not_block_a_rejoin() {
    let mut net = Net::seated(&["Ann", "Bo"]);
    net.start(&["bren", "sil"], &[0, 1], 9);
    // Bo and five silent ones fill every netcode slot.
    let silent: Vec<App> = (0..5).map(|_| silent_app(&net.invite)).collect();
    net.players.extend(silent);
    let soon = JOIN_WITHIN / 2;
    assert!(
        net.pump_for(soon, |n| n.hosted().stats.idle_dropped >= 3 && n.hosted().connections() == 3),
        "the bound makes room at once: Bo and two silent ones stay"
    );
    // Bo crashes and comes back while the silent ones hold what they hold.
    let bo = net.remote(0).secret.clone();
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, ClientPlugin));
    client::join(app.world_mut(), &net.invite, "Bo", bo).unwrap();
    net.players[0] = app;
    assert!(
        net.pump_for(soon, |n| n.remote(0).seat == Some(1) && n.all_in_step()),
        "Bo's rejoin gets through before the silent ones time out"
    );
    let t = Instant::now();
    assert!(
        net.pump(|n| n.hosted().connections() == 1),
        "only Bo stays: {} connections after {:?}",
        net.hosted().connections(),
        t.elapsed()
    );
    assert!(net.hosted().stats.idle_dropped >= 5);
    assert!(JOIN_WITHIN < Duration::from_secs(10), "the pump waits 10 s");
}

/// A player of another version heard nothing ("the host did not answer":
/// the version was in netcode's protocol id). Now the version rides in the
/// connect token and the host says in words what is wrong, before reading
/// any message of a shape it may not know.
#[test]
fn a_player_of_another_version_is_told_so() {
    let mut net = Net::seated(&["Ann"]);
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, ClientPlugin));
    client::join(app.world_mut(), &net.invite, "Bo", None).unwrap();
    // The same dial, but a token of version 3.
    let mut data = [0; NETCODE_USER_DATA_BYTES];
    data[..4].copy_from_slice(&3u32.to_le_bytes());
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
    let timeout = depths_net::transport::TIMEOUT_SECONDS;
    let token = ConnectToken::generate(
        now,
        PROTOCOL_ID,
        300,
        99,
        timeout,
        vec![net.invite.addr],
        Some(&data),
        &net.invite.key(),
    )
    .unwrap();
    let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
    let auth = ClientAuthentication::Secure { connect_token: token };
    app.insert_resource(PlayerLink::new(now, auth, socket, None).unwrap());
    net.players.push(app);
    assert!(net.pump(|n| matches!(n.remote(0).link, Link::Lost(_))), "Bo is turned away");
    let Link::Lost(why) = &net.remote(0).link else { unreachable!() };
    assert!(why.contains("another version (online protocol 4, yours 3)"), "{why}");
    assert!(why.contains("the host's is newer than yours; play the same release"), "{why}");
    assert_eq!(net.hosted().lobby.names, vec!["Ann".to_owned()], "no seat for him");
}

/// Threat: an invite that got out let anyone in for as long as the table
/// ran. A new invite shuts the old one for new connections at once; the
/// players already at the table play on, and one who drops comes back with
/// the new invite and the seat's secret.
#[test]
fn a_new_invite_shuts_the_old_one_and_keeps_the_table() {
    let mut net = Net::seated(&["Ann", "Bo"]);
    net.start(&["bren", "sil"], &[0, 1], 11);
    play_one(&mut net, 0);
    let old = net.invite.clone();
    let new = depths_net::host::new_invite(net.host.world_mut()).unwrap();
    assert_eq!(new.addr, old.addr);
    assert_ne!(new.text(), old.text());
    assert_eq!(net.hosted().invite.as_ref(), Some(&new));
    for round in 1..4 {
        play_one(&mut net, round);
    }
    // A stranger with the old invite: refused at the door, never connected.
    let gate = |n: &Net| n.host.world().resource::<depths_net::gate::HostGate>().stats().hostile;
    let hostile = gate(&net);
    net.players.push(silent_app(&old));
    assert!(net.pump_for(Duration::from_secs(5), |n| gate(n) > hostile), "the old invite's request is refused");
    assert!(!connected(net.players.last().unwrap()));
    assert_eq!(net.hosted().connections(), 1, "Bo only");
    net.players.pop();
    // Bo's program dies; he comes back with the new invite.
    let bo = net.remote(0).secret.clone();
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, ClientPlugin));
    client::join(app.world_mut(), &new, "Bo", bo).unwrap();
    net.players[0] = app;
    assert!(net.pump(|n| n.remote(0).seat == Some(1) && n.all_in_step()), "Bo is back with the new invite");
    for round in 4..6 {
        play_one(&mut net, round);
    }
}

/// Threat: garbage flooded the log (1,531 lines for 2,000 datagrams, no
/// sender). Now 2,000 datagrams of noise, and 200 connection requests
/// shaped right but made without the invite, change nothing: the table
/// plays on, every copy stays the host's, each datagram is counted, and the
/// log has a line per sender per second.
#[test]
fn a_flood_of_garbage_leaves_the_table_playing() {
    let mut net = Net::seated(&["Ann", "Bo"]);
    net.start(&["bren", "sil"], &[0, 1], 10);
    let noise = UdpSocket::bind("127.0.0.1:0").unwrap();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for i in 0..2000 {
        let len = 1 + (i * 37) % 1200;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        let _ = noise.send_to(&bytes, net.invite.addr);
        if i % 50 == 49 {
            // As fast as the host's door reads (its own thread): no datagram
            // lost in the socket's buffer.
            let door = |n: &Net| n.host.world().resource::<depths_net::gate::HostGate>().stats().hostile;
            let read = Instant::now();
            while door(&net) < i as u64 + 1 && read.elapsed() < Duration::from_secs(5) {
                std::thread::sleep(Duration::from_millis(1));
            }
            net.host.update();
        }
    }
    // Requests from a second sender, with a token sealed by another invite.
    let forger = Invite::new(net.invite.addr);
    let mut forgers: Vec<App> = (0..4).map(|_| silent_app(&forger)).collect();
    let started = Instant::now();
    for _ in 0..50 {
        for app in &mut forgers {
            app.update();
        }
        net.host.update();
        std::thread::sleep(Duration::from_millis(2));
    }
    for round in 0..6 {
        play_one(&mut net, round);
    }
    assert!(net.all_in_step());
    assert_eq!(net.hosted().connections(), 1, "the noise opened nothing");
    let gate = net.host.world().resource::<depths_net::gate::HostGate>().stats();
    assert!(gate.hostile >= 2000, "every datagram counted: {gate:?}");
    // One line per sender per second: the noise, and each forger's socket.
    let seconds = started.elapsed().as_secs() + 2;
    assert!(gate.logged <= 5 * seconds, "{} lines logged in about {seconds} s", gate.logged);
}
