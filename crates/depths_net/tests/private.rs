//! Private tables: only holders of the invite sit down, a seat belongs to
//! the key that first sat in it, the host sends players away, and strangers
//! cost the table little. Each test names the threat it closes
//! (docs/online.md, "What a stranger can do").

mod common;

use std::time::{Duration, Instant};

use depths_net::{
    Invite, Relays,
    client::Link,
    host::Kick,
    invite::Admission,
    link::{Closed, NetEvent, PlayerLink},
    protocol::{MAX_FROM_PLAYER, PROTOCOL_VERSION, ToHost, ToPlayer, decode_to_player, encode},
    transport::{SecretKey, endpoint},
};

use common::{Net, play_one, player_app, player_app_with};

/// A bare connection from a new key: whatever bytes a stranger likes.
fn raw(invite: &Invite) -> PlayerLink {
    PlayerLink::dial(endpoint(SecretKey::generate(), &Relays::Off, false), invite.host.clone(), None).unwrap()
}

fn join(name: &str, admission: Option<Admission>, version: u32) -> Vec<u8> {
    encode(&ToHost::Join { name: name.into(), version, admission })
}

/// Updates the table while collecting what `link` hears, until `done` holds
/// for it (false after 10 s).
fn pump_raw(net: &mut Net, link: &PlayerLink, heard: &mut Vec<NetEvent>, done: impl Fn(&[NetEvent]) -> bool) -> bool {
    net.pump(|_| {
        while let Some(event) = link.next() {
            heard.push(event);
        }
        done(heard)
    })
}

/// The host's goodbye in what a connection heard, if any.
fn goodbye(heard: &[NetEvent]) -> Option<String> {
    heard.iter().find_map(|e| match e {
        NetEvent::Message { bytes, .. } => match decode_to_player(bytes) {
            Ok(ToPlayer::Goodbye { reason }) => Some(reason),
            _ => None,
        },
        _ => None,
    })
}

fn closed(heard: &[NetEvent]) -> bool {
    heard.iter().any(|e| matches!(e, NetEvent::Closed { .. }))
}

/// Why a player's client lost the table, once it has.
fn lost(net: &mut Net, player: usize) -> String {
    assert!(net.pump(|n| matches!(n.remote(player).link, Link::Lost(_))), "player {player} is sent away");
    match &net.remote(player).link {
        Link::Lost(why) => why.clone(),
        _ => unreachable!(),
    }
}

/// Threat: anyone who can reach the host connects (a leaked address was
/// enough). The connection itself is made only to the host's key, and a
/// newcomer sits down only with the invite's secret: one with another
/// invite's secret, or none, is sent away with the reason and never seated.
#[test]
fn without_the_invites_secret_nobody_sits_down() {
    let mut net = Net::seated(&["Ann"]);
    let forged = Invite::new(net.invite.host.clone());
    net.players.push(player_app(&forged, "Eve"));
    let why = lost(&mut net, 0);
    assert!(why.contains("not the host's current one"), "{why}");
    let link = raw(&net.invite);
    link.send(join("Mallory", None, PROTOCOL_VERSION));
    let mut heard = Vec::new();
    assert!(pump_raw(&mut net, &link, &mut heard, closed));
    assert!(goodbye(&heard).unwrap().contains("not the host's current one"));
    assert_eq!(net.hosted().lobby.names, vec!["Ann".to_owned()], "nobody sat down");
    assert_eq!(net.hosted().connections(), 0);
}

/// Threats: a name was the only password; a captured rejoin, replayed from
/// another address, took the seat and blamed the real player; an invitee
/// read the seat secrets off the wire. Now a seat is its key's: a stranger
/// with the invite who uses a seated player's name, a dropped one's, or a
/// look-alike, or who replays that player's very bytes, is refused in the
/// same words, and the player is never disturbed. There is no secret on the
/// wire to read: the Welcome names the seat only.
#[test]
fn a_stranger_cannot_take_a_seat_by_name_or_replay() {
    let mut net = Net::seated(&["Ann", "Bo"]);
    let welcome = String::from_utf8(encode(&ToPlayer::Welcome { seat: 1 })).unwrap();
    assert_eq!(welcome, r#"{"Welcome":{"seat":1}}"#, "nothing secret in a Welcome");
    for name in ["Bo", "B0", " bo "] {
        net.players.push(player_app(&net.invite, name));
        let why = lost(&mut net, 1);
        assert!(why.contains("is taken at this table"), "{name}: {why}");
        drop(net.players.pop());
    }
    // Bo's own join, byte for byte, from another key.
    let replay = raw(&net.invite);
    replay.send(join("Bo", Some(net.invite.admission()), PROTOCOL_VERSION));
    let mut heard = Vec::new();
    assert!(pump_raw(&mut net, &replay, &mut heard, closed));
    assert!(goodbye(&heard).unwrap().contains("is taken"));
    assert_eq!(net.remote(0).link, Link::Seated, "Bo never hears of it");
    assert_eq!(net.hosted().lobby.names, vec!["Ann".to_owned(), "Bo".to_owned()]);
}

/// Threat: a dropped player's seat went to whoever came with the name. Here
/// Bo drops during play: a stranger with the invite and his name is
/// refused; Bo's key takes the seat back at once, whatever name he gives.
#[test]
fn a_dropped_players_seat_waits_for_their_key() {
    let mut net = Net::seated(&["Ann", "Bo"]);
    net.start(&["bren", "sil"], &[0, 1], 6);
    play_one(&mut net, 0);
    let bo = net.keys[0].clone();
    drop(net.players.remove(0));
    assert!(net.pump(|n| n.hosted().waiting_for() == vec![1]), "the table waits for Bo");
    net.players.push(player_app(&net.invite, "Bo"));
    let why = lost(&mut net, 0);
    assert!(why.contains("is taken at this table"), "{why}");
    let t = Instant::now();
    net.players[0] = player_app_with(&net.invite, "Robert", bo);
    assert!(net.pump(|n| n.remote(0).seat == Some(1) && n.all_in_step()), "Bo is back, in step");
    assert!(t.elapsed() < Duration::from_secs(depths_net::transport::TIMEOUT_SECONDS));
    assert_eq!(net.hosted().lobby.names[1], "Bo", "the seat keeps its name");
    for round in 1..4 {
        play_one(&mut net, round);
    }
}

/// Threat: a crashed player waited out the timeout and was told to choose
/// another name. Here the player's process dies without a word (its app is
/// dropped); the same machine's key takes the seat at once (well within
/// the timeout) and play goes on.
#[test]
fn a_crashed_player_is_back_at_once_with_its_key() {
    let mut net = Net::seated(&["Ann", "Bo"]);
    net.start(&["bren", "sil"], &[0, 1], 6);
    for round in 0..4 {
        play_one(&mut net, round);
    }
    let t = Instant::now();
    net.rejoin(0, "Bo");
    assert!(net.pump(|n| n.remote(0).seat == Some(1) && n.all_in_step()), "Bo is back, in step");
    assert!(t.elapsed() < Duration::from_secs(depths_net::transport::TIMEOUT_SECONDS));
    assert!(net.hosted().lobby.waiting_for().is_empty());
    for round in 4..8 {
        play_one(&mut net, round);
    }
}

/// Threat: a host that restarted locked its friends out. Its table opened
/// with a new invite, and a player's Reconnect (the old invite, the seat
/// their key's) was refused twice as "not the host's current one". Now the
/// host resumes the save with its seats' keys (`Returning`): Bo's seat
/// waits for him, away; his key sits down with the stale invite, the game
/// resumes and plays on, and a stranger with that stale invite, or with
/// Bo's name, still gets nothing.
#[test]
fn a_restarted_host_lets_its_players_back_by_key_with_the_old_invite() {
    use depths_net::host::{Returning, StartTable};
    let host_key = SecretKey::generate();
    let (host, invite) = common::host_app_keyed("Ann", host_key.clone(), &Relays::Off);
    let mut net = Net { host, invite, players: Vec::new(), keys: Vec::new(), pace: None };
    let bo = SecretKey::generate();
    net.players.push(player_app_with(&net.invite, "Bo", bo.clone()));
    net.keys.push(bo.clone());
    assert!(net.pump(|n| n.remote(0).seat == Some(1)), "Bo sits down");
    net.start(&["bren", "sil"], &[0, 1], 6);
    for round in 0..4 {
        play_one(&mut net, round);
    }
    let saved = net.shared().clone();
    let keys = net.hosted().seat_keys().to_vec();
    assert_eq!(keys, vec![None, Some(bo.public())], "the save knows whose key sat where");
    let stale = net.invite.clone();

    // The host's process dies; the same machine opens the table again.
    let (host, fresh) = common::host_app_keyed("Ann", host_key, &Relays::Off);
    assert!(!fresh.same_table(&stale), "a restarted host makes a new invite");
    net.host = host;
    net.invite = fresh.clone();
    let returning = vec![("Bo".to_owned(), bo.public())];
    net.host.world_mut().write_message(Returning(returning));
    assert!(net.pump(|n| n.hosted().lobby.names == ["Ann", "Bo"]), "Bo's seat waits for him");
    assert!(!net.hosted().lobby.online[1], "away until he is back");

    // A stranger with the stale invite, or with Bo's name and the new one: nothing.
    net.players.push(player_app(&stale.at(fresh.host.clone()), "Eve"));
    let why = lost(&mut net, 1);
    assert!(why.contains("not the host's current one"), "{why}");
    net.players[1] = player_app(&fresh, "Bo");
    let why = lost(&mut net, 1);
    assert!(why.contains("is taken at this table"), "{why}");
    drop(net.players.pop());
    assert_eq!(net.hosted().refused_seats.len(), 2, "the lobby shows both refusals");
    assert!(net.hosted().refused_seats[1].1.contains("is taken"), "{:?}", net.hosted().refused_seats);

    // Bo's Reconnect, from the game he kept open: his key, the stale invite
    // (found at the host's new address, as a relay finds a key).
    net.remote_mut(0).invite = Some(stale.at(fresh.host.clone()));
    depths_net::client::reconnect(net.players[0].world_mut()).expect("dial");
    assert!(net.pump(|n| n.remote(0).seat == Some(1) && n.hosted().lobby.online[1]), "Bo is back");
    let (players, turn) =
        depths_seats::seats::reseat(&saved.players, &saved.turn, &net.hosted().lobby.names).expect("all back");
    net.host.world_mut().write_message(StartTable {
        game: saved.game.clone(),
        owners: players.owners.clone(),
        turn,
        companions: players.companions.clone(),
    });
    assert!(net.pump(|n| n.all_in_step()), "Bo gets the resumed table");
    assert_eq!(net.shared().game, saved.game);
    for round in 4..8 {
        play_one(&mut net, round);
    }
}

/// Threat: the host cannot remove anyone. Sent away before the start, a
/// seat is freed (the next player moves up and is told); banned during
/// play, the player is told why and neither the name nor the key gets back in.
#[test]
fn the_host_sends_players_away_and_a_banned_one_cannot_come_back() {
    let mut net = Net::seated(&["Ann", "Eve", "Bo"]);
    net.host.world_mut().write_message(Kick { seat: 1, ban: false });
    assert!(net.pump(|n| matches!(n.remote(0).link, Link::Lost(_)) && n.remote(1).seat == Some(1)));
    assert_eq!(net.remote(0).refusal.as_deref(), Some("the host asked you to leave the table"));
    assert_eq!(net.hosted().lobby.names, vec!["Ann".to_owned(), "Bo".to_owned()], "Eve's seat is free");
    drop(net.players.remove(0));
    let bo = net.keys.remove(1);

    net.start(&["bren", "sil"], &[0, 1], 8);
    net.host.world_mut().write_message(Kick { seat: 1, ban: true });
    assert!(net.pump(|n| matches!(n.remote(0).link, Link::Lost(_))));
    assert_eq!(net.remote(0).refusal.as_deref(), Some("the host has sent you away from this table"));
    net.players[0] = player_app_with(&net.invite, "Robert", bo);
    assert_eq!(lost(&mut net, 0), "the host has sent you away from this table", "his key");
    net.players[0] = player_app(&net.invite, "Bo");
    assert_eq!(lost(&mut net, 0), "the host has sent you away from this table", "his name");
    assert_eq!(net.hosted().lobby.waiting_for(), vec![1], "his Heroes wait for the host's choice");
}

/// Threat: connections that never sit down held every slot, so a dropped
/// player could not rejoin, and made the host's window redraw twice a
/// second. Now the engine holds a connection back from the table until it
/// speaks (within `JOIN_WITHIN`), with a line of at most 16 strangers, and a
/// seat's key never waits in that line: with the line full, Bo's rejoin
/// gets through, and the table never saw the silent ones. One whose first
/// word is not a join is sent away.
#[test]
fn silent_connections_cost_the_table_nothing_and_block_no_rejoin() {
    let mut net = Net::seated(&["Ann", "Bo"]);
    net.start(&["bren", "sil"], &[0, 1], 9);
    let silent: Vec<PlayerLink> = (0..20).map(|_| raw(&net.invite)).collect();
    // The line fills: the latecomers are told so and closed.
    let mut full = 0;
    let deadline = Instant::now() + Duration::from_secs(10);
    while full == 0 && Instant::now() < deadline {
        net.host.update();
        for link in &silent {
            while let Some(event) = link.next() {
                if let NetEvent::Closed { why: Closed::ByPeer(words), .. } = event
                    && words.contains("too many connections are waiting")
                {
                    full += 1;
                }
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(full >= 1, "past the line, strangers are closed");
    assert_eq!(net.hosted().connections(), 1, "the table sees Bo only");
    net.rejoin(0, "Bo");
    assert!(net.pump(|n| n.remote(0).seat == Some(1) && n.all_in_step()), "Bo is back past the line");
    play_one(&mut net, 0);
    // The silent ones go; one whose first word is not a join is sent away
    // (once the line has room again).
    drop(silent);
    let deadline = Instant::now() + Duration::from_secs(10);
    let said = loop {
        let rude = raw(&net.invite);
        rude.send(encode(&ToHost::Resync));
        let mut heard = Vec::new();
        assert!(pump_raw(&mut net, &rude, &mut heard, closed));
        if let Some(said) = goodbye(&heard) {
            break said;
        }
        assert!(Instant::now() < deadline, "the line empties: {heard:?}");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(said, "join the table first");
    assert_eq!(net.hosted().connections(), 1);
}

/// A player of another version heard nothing. The version rides in the
/// join, whose fields only grow, and the host says in words what is wrong.
#[test]
fn a_player_of_another_version_is_told_so() {
    let mut net = Net::seated(&["Ann"]);
    for (theirs, newer) in [(PROTOCOL_VERSION - 1, "the host's is newer"), (PROTOCOL_VERSION + 1, "yours is newer")] {
        let link = raw(&net.invite);
        link.send(join("Old", Some(net.invite.admission()), theirs));
        let mut heard = Vec::new();
        assert!(pump_raw(&mut net, &link, &mut heard, closed));
        let said = goodbye(&heard).expect("a goodbye");
        assert!(said.contains("another version") && said.contains(newer), "{said}");
    }
}

/// Threat: an invite that got out let anyone in for as long as the table
/// ran. A new invite shuts the old one for newcomers at once; the players
/// already at the table play on, and one who drops comes back with either
/// invite (their key is their seat).
#[test]
fn a_new_invite_shuts_the_old_one_and_keeps_the_table() {
    let mut net = Net::seated(&["Ann", "Bo"]);
    net.start(&["bren", "sil"], &[0, 1], 11);
    play_one(&mut net, 0);
    let old = net.invite.clone();
    let new = depths_net::host::new_invite(net.host.world_mut()).unwrap();
    assert_eq!(new.key(), old.key());
    assert_ne!(new.text(), old.text());
    assert_eq!(net.hosted().invite.as_ref(), Some(&new));
    for round in 1..3 {
        play_one(&mut net, round);
    }
    let lobby = net.hosted().lobby.clone();
    net.players.push(player_app(&old, "Cy"));
    let why = lost(&mut net, 1);
    assert!(why.contains("not the host's current one"), "{why}");
    assert_eq!(net.hosted().lobby, lobby);
    drop(net.players.pop());
    // Bo's program dies; he comes back with the old invite.
    net.rejoin(0, "Bo");
    assert!(net.pump(|n| n.remote(0).seat == Some(1) && n.all_in_step()), "Bo is back");
    for round in 3..5 {
        play_one(&mut net, round);
    }
}

/// Threat: a seated player's 20,000 malformed messages wrote 20,000 warnings.
/// Now a seated player's flood of garbage, and a message over the limit,
/// are each counted and answered, the log has a line a second for them
/// (`log_limit`), and the table plays on with every copy the host's.
#[test]
fn a_flood_of_garbage_leaves_the_table_playing() {
    let mut net = Net::seated(&["Ann", "Bo"]);
    net.start(&["bren", "sil"], &[0, 1], 10);
    const FLOOD: u64 = 20_000;
    let bo = net.players[0].world().resource::<PlayerLink>();
    for i in 0..FLOOD {
        bo.send(format!("garbage {i}").into_bytes());
    }
    bo.send(vec![b'x'; MAX_FROM_PLAYER + 1]);
    assert!(
        net.pump_for(Duration::from_secs(60), |n| n.hosted().stats.dropped > FLOOD),
        "every one read and counted: {:?}",
        net.hosted().stats
    );
    for round in 0..4 {
        play_one(&mut net, round);
    }
    assert!(net.all_in_step());
}

/// A seated player's machine that writes `frames` and then never reads a
/// byte (a hung program whose connection the engine still keeps alive).
fn deaf_player(invite: &Invite, key: SecretKey, frames: Vec<Vec<u8>>) {
    let host = invite.host.clone();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async move {
            let endpoint = endpoint(key, &Relays::Off, false).bind().await.unwrap();
            let connection = endpoint.connect(host, depths_net::transport::ALPN).await.unwrap();
            let (mut send, _recv) = connection.open_bi().await.unwrap();
            for frame in frames {
                send.write_all(&(frame.len() as u32).to_le_bytes()).await.unwrap();
                send.write_all(&frame).await.unwrap();
            }
            // Never read; stay until the host gives up on us.
            connection.closed().await;
        });
    });
}

/// Threat: a player who asks for whole tables and never reads them would
/// grow the host's memory without end (each answer waits for them). Past
/// `link::MAX_WAITING` bytes waiting, the connection is cut: Bo's program
/// hangs after asking for 200 whole tables (34 MB), and the host lets him
/// go while the table stays.
#[test]
fn a_player_who_stops_reading_is_cut_off() {
    let mut net = Net::seated(&["Ann", "Bo"]);
    net.start(&["bren", "sil"], &[0, 1], 12);
    // Bo's machine again (his key), hung after asking.
    let mut frames = vec![join("Bo", None, PROTOCOL_VERSION)];
    frames.extend((0..200).map(|_| encode(&ToHost::Resync)));
    deaf_player(&net.invite, net.keys[0].clone(), frames);
    assert!(net.pump(|n| n.hosted().stats.snapshots_sent >= 100), "{:?}", net.hosted().stats);
    assert!(
        net.pump_for(Duration::from_secs(60), |n| !n.hosted().lobby.online[1]),
        "the host cut off the player who stopped reading: {:?}",
        net.hosted().stats
    );
    assert!(net.hosted().shared.is_some(), "the table stays");
}
