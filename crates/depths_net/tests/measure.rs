//! Figures for docs/online.md (ignored: run on demand), and what an
//! eavesdropper on the wire sees (run with the other tests):
//! `cargo test --workspace --features depths_app/dev-tools --test measure -- --ignored --nocapture`
//! (the workspace's features, so the engine is not built a second time).
//!
//! Each player dials the host through a counting UDP relay on 127.0.0.1, so
//! the bytes are what really crosses the wire (netcode headers, acks,
//! keep-alives included), not just our messages.

mod common;

use std::{
    net::{SocketAddr, UdpSocket},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    thread::JoinHandle,
    time::{Duration, Instant},
};

use bevy::prelude::*;
use depths_net::{ClientPlugin, HostPlugin, client, host};

use common::{Net, play_one};

/// UDP datagram overhead on IPv4 (20 IP + 8 UDP), counted per packet.
const HEADERS: u64 = 28;

#[derive(Default)]
struct Counts {
    up_bytes: AtomicU64,
    up_packets: AtomicU64,
    down_bytes: AtomicU64,
    down_packets: AtomicU64,
    /// Every datagram, both ways, as an eavesdropper would capture them.
    captured: Mutex<Vec<Vec<u8>>>,
}

impl Counts {
    fn wire(&self) -> (u64, u64) {
        let up = self.up_bytes.load(Ordering::Relaxed) + HEADERS * self.up_packets.load(Ordering::Relaxed);
        let down = self.down_bytes.load(Ordering::Relaxed) + HEADERS * self.down_packets.load(Ordering::Relaxed);
        (up, down)
    }
}

/// A relay between one player and the host, counting every datagram.
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
                    counts.up_bytes.fetch_add(n as u64, Ordering::Relaxed);
                    counts.captured.lock().unwrap().push(buf[..n].to_vec());
                    counts.up_packets.fetch_add(1, Ordering::Relaxed);
                    let _ = back.send(&buf[..n]);
                }
                while let Ok(n) = back.recv(&mut buf) {
                    idle = false;
                    if let Some(p) = player {
                        counts.down_bytes.fetch_add(n as u64, Ordering::Relaxed);
                        counts.captured.lock().unwrap().push(buf[..n].to_vec());
                        counts.down_packets.fetch_add(1, Ordering::Relaxed);
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

fn net_through_relays(relays: &mut [Relay], names: [&str; 2]) -> Net {
    let mut host = App::new();
    host.add_plugins((MinimalPlugins, HostPlugin));
    let public: Vec<SocketAddr> = relays.iter().map(|r| r.addr).collect();
    let addr = host::open(host.world_mut(), "127.0.0.1:0".parse().unwrap(), &public, "Ann").unwrap();
    let invite = host.world().resource::<depths_net::HostedGame>().invite.clone().unwrap();
    // A rejoin dials the host itself, not a relay (a relay serves one player).
    let mut net = Net { host, invite: invite.at(addr), players: Vec::new(), pace: None };
    for (i, (relay, name)) in relays.iter_mut().zip(names).enumerate() {
        relay.start(addr);
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, ClientPlugin));
        client::join(app.world_mut(), &invite.at(relay.addr), name, None).unwrap();
        net.players.push(app);
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
    let joined: Vec<(u64, u64)> = relays.iter().map(|r| r.counts.wire()).collect();
    let started = Instant::now();
    net.start(&["bren", "sil", "ava"], &[0, 1, 2], 11);
    let after_start: Vec<(u64, u64)> = relays.iter().map(|r| r.counts.wire()).collect();
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
    let end: Vec<(u64, u64)> = relays.iter().map(|r| r.counts.wire()).collect();
    // A waiting table: nobody moves for 5 s.
    let before_idle = end[0];
    let idle_from = Instant::now();
    net.pump(|_| idle_from.elapsed() > Duration::from_secs(5));
    let idle_after = relays[0].counts.wire();
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
    println!(
        "a crashed player with its seat secret: back in step after {:?} (the old connection replaced)",
        t.elapsed()
    );
}

/// Threat: unsecured netcode could be read (the Join with the name, the
/// whole table with the random generator, every action): its connect token
/// is sealed with a key everyone knows (zeros), so whoever captures the
/// handshake unseals the session keys. Captured on the wire through a relay
/// (a join, the start, a dozen moves): the connection request's token does
/// not open with the known key, only with the invite's; and none of the
/// traffic holds a name, an action or the table in the clear.
#[test]
fn captured_traffic_holds_no_plaintext() {
    let mut relays = [Relay::bind(), Relay::bind()];
    let mut net = net_through_relays(&mut relays, ["Bartholomew", "Cyprianus"]);
    net.start(&["bren", "sil", "ava"], &[0, 1, 2], 12);
    for round in 0..12 {
        play_one(&mut net, round);
    }
    let packets: Vec<Vec<u8>> = relays.iter().flat_map(|r| r.counts.captured.lock().unwrap().clone()).collect();
    // Netcode 1.02's connection request: prefix 0, then the version (13
    // bytes), protocol id and expiry (8 each; the token's additional data),
    // the token's nonce (24) and its sealed private part (1024).
    let requests: Vec<&Vec<u8>> = packets.iter().filter(|p| p.len() == 1078 && p[0] == 0).collect();
    assert!(!requests.is_empty(), "the handshake was captured");
    let unseal = |packet: &[u8], key: &[u8; 32]| {
        use chacha20poly1305::{KeyInit, Tag, XChaCha20Poly1305, XNonce, aead::AeadInPlace};
        let (aad, nonce, mut sealed) = (&packet[1..30], &packet[30..54], packet[54..].to_vec());
        let (data, tag) = sealed.split_at_mut(1024 - 16);
        XChaCha20Poly1305::new(key.into())
            .decrypt_in_place_detached(XNonce::from_slice(nonce), aad, data, Tag::from_slice(tag))
            .is_ok()
    };
    for request in requests {
        assert!(!unseal(request, &[0; 32]), "the token does not open with the key everyone knows");
        assert!(unseal(request, &net.invite.key()), "it opens with the invite's (the packet read right)");
    }
    let wire: Vec<u8> = packets.concat();
    assert!(wire.len() > 100_000, "the table went over the wire ({} B)", wire.len());
    let shared = net.shared();
    let plain = [
        "Bartholomew".to_owned(),
        "Cyprianus".to_owned(),
        "DrawTile".to_owned(),
        "PlaceTile".to_owned(),
        "Welcome".to_owned(),
        "Snapshot".to_owned(),
        "\"rng\"".to_owned(),
        shared.game.save_json()[..40].to_owned(),
    ];
    for text in plain {
        assert!(!wire.windows(text.len()).any(|w| w == text.as_bytes()), "{text:?} crossed the wire in the clear");
    }
}
