//! Figures for docs/online.md (ignored: run on demand), and what an
//! eavesdropper on the wire sees (run with the other tests):
//! `cargo test --workspace --features depths_app/dev-tools --test measure -- --ignored --nocapture`
//! (the workspace's features, so the engine is not built a second time).
//!
//! The bytes are QUIC's own count of what crossed the network (every header,
//! acknowledgement, resend and keep-alive), not just our messages. The
//! eavesdropper's test puts a capturing UDP forwarder between a player and
//! the host.

mod common;

use std::{
    net::{SocketAddr, UdpSocket},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    thread::JoinHandle,
    time::{Duration, Instant},
};

use bevy::prelude::*;
use depths_net::{HostPlugin, Relays, client, host, link::PlayerLink, transport::SecretKey};

use common::{Net, play_one, player_app_with};

#[derive(Default)]
struct Counts {
    /// Every datagram, both ways, as an eavesdropper would capture them.
    captured: Mutex<Vec<Vec<u8>>>,
}

/// A forwarder between one player and the host, keeping every datagram.
struct Relay {
    addr: SocketAddr,
    counts: Arc<Counts>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    socket: Option<UdpSocket>,
}

impl Relay {
    fn bind() -> Relay {
        let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
        Relay {
            addr: socket.local_addr().unwrap(),
            counts: Arc::default(),
            stop: Arc::default(),
            thread: None,
            socket: Some(socket),
        }
    }

    fn start(&mut self, host: SocketAddr) {
        let front = self.socket.take().unwrap();
        let back = UdpSocket::bind("127.0.0.1:0").unwrap();
        back.connect(host).unwrap();
        for s in [&front, &back] {
            s.set_nonblocking(true).unwrap();
        }
        let (counts, stop) = (self.counts.clone(), self.stop.clone());
        self.thread = Some(std::thread::spawn(move || {
            let mut buf = [0u8; 2048];
            let mut player = None;
            while !stop.load(Ordering::Relaxed) {
                let mut idle = true;
                while let Ok((n, from)) = front.recv_from(&mut buf) {
                    idle = false;
                    player = Some(from);
                    counts.captured.lock().unwrap().push(buf[..n].to_vec());
                    let _ = back.send(&buf[..n]);
                }
                while let Ok(n) = back.recv(&mut buf) {
                    idle = false;
                    if let Some(p) = player {
                        counts.captured.lock().unwrap().push(buf[..n].to_vec());
                        let _ = front.send_to(&buf[..n], p);
                    }
                }
                if idle {
                    std::thread::sleep(Duration::from_micros(100));
                }
            }
        }));
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// What crossed the network between the host and player `i` (player's side: up, down).
fn wire(net: &Net, i: usize) -> (u64, u64) {
    let w = net.players[i].world().resource::<PlayerLink>().wire().expect("connected");
    (w.sent, w.received)
}

/// Ann hosts; each named player dials her through a forwarder of its own
/// (the invite names the forwarder's address only).
fn net_through_relays(relays: &mut [Relay], names: [&str; 2]) -> Net {
    let mut host = App::new();
    host.add_plugins((MinimalPlugins, HostPlugin));
    let invite = host::open(host.world_mut(), SecretKey::generate(), &Relays::Off, "Ann").unwrap();
    let port = invite.host.ip_addrs().next().expect("an address").port();
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let mut net = Net { host, invite: invite.clone(), players: Vec::new(), keys: Vec::new(), pace: None };
    for (i, (relay, name)) in relays.iter_mut().zip(names).enumerate() {
        relay.start(addr);
        let through = invite.at(depths_net::transport::EndpointAddr::new(invite.key()).with_ip_addr(relay.addr));
        let key = SecretKey::generate();
        net.players.push(player_app_with(&through, name, key.clone()));
        net.keys.push(key);
        assert!(net.pump(|n| n.remote(i).seat == Some(i + 1)));
    }
    net
}

#[test]
#[ignore = "prints measurements; run on demand"]
fn measure_wire_bytes_host_time_and_rejoin() {
    let mut relays = [Relay::bind(), Relay::bind()];
    let mut net = net_through_relays(&mut relays, ["Bo", "Cy"]);
    // Every app updates at 60 Hz, as a window would while online: the
    // keep-alives and acks per second are then what a real table sends.
    net.pace = Some(Duration::from_secs_f64(1.0 / 60.0));
    let joined: Vec<(u64, u64)> = (0..2).map(|i| wire(&net, i)).collect();
    let started = Instant::now();
    net.start(&["bren", "sil", "ava"], &[0, 1, 2], 11);
    let after_start: Vec<(u64, u64)> = (0..2).map(|i| wire(&net, i)).collect();
    let start_snapshot = depths_net::protocol::encode(&depths_net::protocol::ToPlayer::Snapshot(
        depths_net::protocol::Snapshot::of(net.shared()),
    ))
    .len();

    let mut round = 0;
    while !net.shared().game.is_over() {
        play_one(&mut net, round);
        round += 1;
    }
    let played = started.elapsed();
    let end: Vec<(u64, u64)> = (0..2).map(|i| wire(&net, i)).collect();
    // A waiting table: nobody moves for 5 s.
    let before_idle = end[0];
    let idle_from = Instant::now();
    net.pump(|_| idle_from.elapsed() > Duration::from_secs(5));
    let idle_after = wire(&net, 0);
    let idle_rate =
        ((idle_after.0 - before_idle.0) + (idle_after.1 - before_idle.1)) as f64 / idle_from.elapsed().as_secs_f64();
    println!("idle table at 60 Hz: {idle_rate:.0} B/s between the host and one player (both ways, keep-alives)");
    let stats = net.hosted().stats;
    let actions = stats.applied;
    println!(
        "game: {actions} actions, {:?} wall time at 60 Hz, 3 apps in one process ({:?})",
        played,
        net.shared().game.phase()
    );
    println!("start snapshot (the save JSON): {start_snapshot} bytes");
    for (i, ((j, s), e)) in joined.iter().zip(&after_start).zip(&end).enumerate() {
        let up = e.0 - s.0;
        let down = e.1 - s.1;
        println!(
            "player {}: join {} B up / {} B down; start {} B down; whole game after start {up} B up, {down} B down = {:.0} B per action (up+down, all traffic incl. acks/keep-alives)",
            i + 1,
            j.0,
            j.1,
            s.1 - j.1,
            (up + down) as f64 / actions as f64
        );
    }
    println!(
        "host messages: {} B out in all, {:.0} B per player per action ({} Applied messages)",
        stats.bytes_out,
        (stats.bytes_out as f64 - 2.0 * start_snapshot as f64) / actions as f64 / 2.0,
        actions
    );
    println!(
        "host check-apply-broadcast: mean {:?}, max {:?} over {actions} actions",
        stats.take_time / actions as u32,
        stats.take_time_max
    );

    // Rejoin with the end-of-game state (the largest there is).
    client::leave(net.players[1].world_mut());
    assert!(net.pump(|n| n.hosted().lobby.waiting_for() == vec![2]));
    let late = depths_net::protocol::encode(&depths_net::protocol::ToPlayer::Snapshot(
        depths_net::protocol::Snapshot::of(net.shared()),
    ))
    .len();
    let t = Instant::now();
    net.rejoin(1, "Cy");
    assert!(net.pump(|n| n.remote(1).seat == Some(2) && n.all_in_step()));
    println!(
        "rejoin with the late-game table ({late} B snapshot): back in step after {:?} (dial, handshake, seat, snapshot, load)",
        t.elapsed()
    );
    // A crash: the program is gone without a word, and the host still holds its connection.
    let t = Instant::now();
    net.rejoin(1, "Cy");
    assert!(net.pump(|n| n.remote(1).seat == Some(2) && n.all_in_step()));
    println!("a crashed player, the same key: back in step after {:?} (the old connection replaced)", t.elapsed());
}

/// Threat: an invited player could read everyone's traffic (the tokens made
/// under the shared invite gave up the session keys). Now each connection
/// is QUIC's TLS 1.3 between the two keys, its session keys agreed afresh
/// (ephemeral Diffie-Hellman): nothing an invitee holds opens another's.
/// Captured on the wire through a forwarder (a join, the start, a dozen
/// moves), none of the traffic holds a name, an action or the table in the
/// clear, nor the invite's secret.
#[test]
fn captured_traffic_holds_no_plaintext() {
    let mut relays = [Relay::bind(), Relay::bind()];
    let mut net = net_through_relays(&mut relays, ["Bartholomew", "Cyprianus"]);
    net.start(&["bren", "sil", "ava"], &[0, 1, 2], 12);
    for round in 0..12 {
        play_one(&mut net, round);
    }
    let packets: Vec<Vec<u8>> = relays.iter().flat_map(|r| r.counts.captured.lock().unwrap().clone()).collect();
    let wire: Vec<u8> = packets.concat();
    assert!(wire.len() > 100_000, "the table went over the captured wire ({} B)", wire.len());
    let shared = net.shared();
    let secret = net.invite.text().split_once('.').unwrap().1[..23].replace('-', "");
    let plain = [
        "Bartholomew".to_owned(),
        "Cyprianus".to_owned(),
        "DrawTile".to_owned(),
        "PlaceTile".to_owned(),
        "Welcome".to_owned(),
        "Snapshot".to_owned(),
        "\"rng\"".to_owned(),
        secret,
        shared.game.save_json()[..40].to_owned(),
    ];
    for text in plain {
        assert!(!wire.windows(text.len()).any(|w| w == text.as_bytes()), "{text:?} crossed the wire in the clear");
    }
}
