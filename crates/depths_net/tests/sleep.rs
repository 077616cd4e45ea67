//! A waiting online table sleeps: between moves nothing crosses the wire
//! that would wake a table (only netcode's keep-alives), a move wakes the
//! tables that must show it, and a table that updates only every few
//! seconds keeps its connection.

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
    ClientPlugin, HostPlugin, HostTable, NetWake,
    client::{self, Link},
    host,
    transport::Unacknowledged,
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
fn table() -> (Net, Wakes) {
    let mut host_app = App::new();
    host_app.add_plugins((MinimalPlugins, HostPlugin));
    let host_wakes = counted(&mut host_app);
    host::open(host_app.world_mut(), "127.0.0.1:0".parse().unwrap(), &[], "Ann").unwrap();
    let invite = host_app.world().resource::<HostTable>().invite.clone().unwrap();
    let mut player = App::new();
    player.add_plugins((MinimalPlugins, ClientPlugin));
    let player_wakes = counted(&mut player);
    client::join(player.world_mut(), &invite, "Bo", None).unwrap();
    let mut net = Net { host: host_app, invite, players: vec![player], pace: None };
    assert!(net.pump(|n| n.remote(0).seat == Some(1)), "Bo sits down");
    net.start(&["bren", "sil"], &[0, 1], 11);
    (net, Wakes { host: host_wakes, player: player_wakes })
}

fn unacknowledged(app: &App) -> bool {
    app.world().resource::<Unacknowledged>().0
}

/// Renet acknowledges every packet, acknowledgements too: two copies
/// updating 20 times a second traded 20 acknowledgements a second each way
/// for ever, and a table woken by them would never sleep. Now, once the
/// start is acknowledged, a second of waiting wakes neither table, and a
/// move wakes both: the host for the move, the player for the host's answer.
#[test]
fn a_waiting_table_is_not_woken_and_a_move_wakes_it() {
    let (mut net, wakes) = table();
    net.pace = Some(Duration::from_millis(50));
    // The last acknowledgements of the start arrive.
    net.pump_for(Duration::from_millis(500), |_| false);
    assert!(!unacknowledged(&net.host) && !unacknowledged(&net.players[0]), "every message is acknowledged");

    let before = wakes.counts();
    net.pump_for(Duration::from_secs(1), |_| false);
    assert_eq!(wakes.counts(), before, "a second of waiting (20 updates each) wakes nobody");

    // A move of Bo's (or Ann's, whoever may move first) wakes the other side.
    let seq = net.table().seq;
    let (seat, action) = next_move(net.table(), 0);
    net.act(seat, action);
    assert!(net.pump(|n| n.table().seq == seq + 1 && n.all_in_step()), "the move is applied everywhere");
    net.pump_for(Duration::from_millis(300), |_| false);
    let after = wakes.counts();
    assert!(after.0 > before.0 && after.1 > before.1, "the move woke both tables: {before:?} -> {after:?}");
    assert!(!unacknowledged(&net.host) && !unacknowledged(&net.players[0]));

    net.pump_for(Duration::from_secs(1), |_| false);
    assert_eq!(wakes.counts(), after, "then both sleep again");
}

/// A sleeping table updates only every few seconds (the client's online
/// pace): its keep-alives still keep the connection past netcode's
/// timeout, and a move still goes through.
#[test]
fn tables_that_update_every_five_seconds_stay_connected() {
    let (mut net, _) = table();
    net.pace = Some(Duration::from_secs(5));
    let timeout = Duration::from_secs(depths_net::transport::TIMEOUT_SECONDS as u64);
    net.pump_for(timeout + Duration::from_secs(2), |_| false);
    net.pace = None;
    assert!(matches!(net.remote(0).link, Link::Seated), "Bo is still at the table: {:?}", net.remote(0).link);
    assert_eq!(net.host_table().lobby.online, vec![true, true], "Ann still sees Bo");
    let seq = net.table().seq;
    let (seat, action) = next_move(net.table(), 0);
    net.act(seat, action);
    assert!(net.pump(|n| n.table().seq == seq + 1 && n.all_in_step()), "a move still goes through");
}
