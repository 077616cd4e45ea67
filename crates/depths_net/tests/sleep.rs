//! A waiting online table sleeps: between moves nothing reaches a table
//! that would wake it (the engine's keep-alives, acknowledgements and
//! resends stay on its own thread), a move wakes the table that must show
//! it, and tables that do not update for longer than the timeout keep
//! their connection.

mod common;

use std::{
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};

use bevy::prelude::*;
use depths_net::{
    ClientPlugin, HostPlugin, NetWake, Relays,
    client::{self, Link},
    host,
    transport::SecretKey,
};

use common::{Net, next_move};

/// How many times each app's connection woke it.
struct Wakes {
    host: Arc<AtomicUsize>,
    player: Arc<AtomicUsize>,
}

impl Wakes {
    fn counts(&self) -> (usize, usize) {
        (self.host.load(Ordering::SeqCst), self.player.load(Ordering::SeqCst))
    }
}

fn counted(app: &mut App) -> Arc<AtomicUsize> {
    let count = Arc::new(AtomicUsize::new(0));
    let c = count.clone();
    app.insert_resource(NetWake(Some(Arc::new(move || {
        c.fetch_add(1, Ordering::SeqCst);
    }))));
    count
}

/// Ann hosts, Bo joins; both count their wake-ups; the game has started.
fn shared() -> (Net, Wakes) {
    let mut host_app = App::new();
    host_app.add_plugins((MinimalPlugins, HostPlugin));
    let host_wakes = counted(&mut host_app);
    let invite = host::open(host_app.world_mut(), SecretKey::generate(), &Relays::Off, "Ann").unwrap();
    let mut player = App::new();
    player.add_plugins((MinimalPlugins, ClientPlugin));
    let player_wakes = counted(&mut player);
    let key = SecretKey::generate();
    client::join(player.world_mut(), &invite, "Bo", key.clone(), &Relays::Off).unwrap();
    let mut net = Net { host: host_app, invite, players: vec![player], keys: vec![key], pace: None };
    assert!(net.pump(|n| n.remote(0).seat == Some(1)), "Bo sits down");
    net.start(&["bren", "sil"], &[0, 1], 11);
    (net, Wakes { host: host_wakes, player: player_wakes })
}

/// A table woken by the connection's own traffic (acknowledgements,
/// keep-alives) would never sleep. Once the start is through, a second of
/// waiting wakes neither table, and each move wakes the table that did not
/// make it.
#[test]
fn a_waiting_table_is_not_woken_and_a_move_wakes_it() {
    let (mut net, wakes) = shared();
    net.pace = Some(Duration::from_millis(50));
    // The last acknowledgements of the start arrive.
    net.pump_for(Duration::from_millis(500), |_| false);

    let before = wakes.counts();
    net.pump_for(Duration::from_secs(1), |_| false);
    assert_eq!(wakes.counts(), before, "a second of waiting (20 updates each) wakes nobody");

    // Each move wakes the table that did not make it: Ann's wakes Bo's,
    // Bo's wakes Ann's (an acknowledgement alone wakes nobody).
    let mut seen = [false, false];
    for round in 0..60 {
        let before = wakes.counts();
        let seq = net.shared().seq;
        let (seat, action) = next_move(net.shared(), round);
        net.act(seat, action);
        assert!(net.pump(|n| n.shared().seq == seq + 1 && n.all_in_step()), "the move is applied everywhere");
        // A wake-up held back (at most one per 50 ms) is paid soon after.
        net.pump_for(Duration::from_millis(150), |_| false);
        let now = wakes.counts();
        if seat == 0 {
            assert!(now.1 > before.1, "Ann's move woke Bo's table: {before:?} -> {now:?}");
        } else {
            assert!(now.0 > before.0, "Bo's move woke Ann's table: {before:?} -> {now:?}");
        }
        seen[seat.min(1)] = true;
        if seen == [true, true] {
            break;
        }
    }
    assert_eq!(seen, [true, true], "both played");
    net.pump_for(Duration::from_millis(300), |_| false);
    let after = wakes.counts();
    net.pump_for(Duration::from_secs(1), |_| false);
    assert_eq!(wakes.counts(), after, "then both sleep again");
}

/// A sleeping table may not update for longer than the connection's timeout:
/// the connection keeps itself off the frame (keep-alives both ways), so
/// after 20 s without an update on either side both are still at the
/// table, and a move still goes through.
#[test]
fn tables_that_sleep_past_the_timeout_stay_connected() {
    let (mut net, _) = shared();
    let timeout = Duration::from_secs(depths_net::transport::TIMEOUT_SECONDS);
    // One round of updates, then none for longer than the timeout.
    net.pace = Some(timeout + Duration::from_secs(5));
    net.pump_for(Duration::from_millis(1), |_| false);
    // The tables wake and look (a connection lost meanwhile would show now).
    net.pace = None;
    net.pump_for(Duration::from_millis(300), |_| false);
    assert!(matches!(net.remote(0).link, Link::Seated), "Bo is still at the table: {:?}", net.remote(0).link);
    assert_eq!(net.hosted().lobby.online, vec![true, true], "Ann still sees Bo");
    let seq = net.shared().seq;
    let (seat, action) = next_move(net.shared(), 0);
    net.act(seat, action);
    assert!(net.pump(|n| n.shared().seq == seq + 1 && n.all_in_step()), "a move still goes through");
}
