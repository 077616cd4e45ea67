//! The host's door: its UDP socket and netcode's server, with a look at each
//! datagram before netcode's decoding (which logs every failure, with no
//! sender and no limit). Datagrams from players and from addresses in the
//! middle of a handshake go straight through; from anyone else only what
//! is shaped like this game's connection request does. The rest, and every
//! datagram of an address that sent such in the last second, is counted and
//! dropped, and logged at most once a second per sender, with the sender.
//!
//! It stands where `bevy_renet`'s `NetcodeServerTransport` would, doing the
//! same work between renet and the socket, but on a reader thread
//! ([`crate::socket`]): the door, the handshakes, keep-alives and timeouts
//! go on while the table sleeps, and what renet must see (a connection
//! opened or closed, a player's packet) waits in order for its next update.
//! Acknowledgements go only when owed ([`Acks`]).

use std::{
    collections::HashMap,
    io,
    net::{SocketAddr, UdpSocket},
    sync::{Arc, Mutex, mpsc::SyncSender},
    time::{Duration, Instant},
};

use bevy::{log::warn, prelude::*};
use bevy_renet::{RenetReceive, RenetSend, RenetServer, RenetServerPlugin};
use renetcode::{
    NETCODE_KEY_BYTES, NETCODE_USER_DATA_BYTES, NetcodeServer, ServerAuthentication, ServerConfig, ServerResult,
};

use crate::socket::{Acks, Queue, Reader, Reading, Shared, Wake, lock, spawn_reader, worth_a_frame};

/// How long a sender's hostile datagrams stay muted and unlogged after one.
const QUIET: Duration = Duration::from_secs(1);

/// How long an address may take from its connection request to its answer.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// The most senders remembered at once (spoofed source addresses cannot
/// grow the table without end: past this it starts afresh).
const MAX_SENDERS: usize = 1024;

/// A netcode 1.02 connection request: prefix 0, the version, the protocol
/// id, the expiry, the token's nonce and its sealed private part.
const REQUEST_LEN: usize = 1 + 13 + 8 + 8 + 24 + 1024;
const VERSION_INFO: &[u8; 13] = b"NETCODE 1.02\0";

/// What the door turned away.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GateStats {
    /// Datagrams dropped before netcode, or that netcode refused.
    pub hostile: u64,
    /// Lines logged about them.
    pub logged: u64,
}

#[derive(Debug)]
struct Sender {
    last: Instant,
    logged: Option<Instant>,
    unlogged: u64,
}

/// What renet must hear of, in the order the door saw it.
#[derive(Debug)]
pub enum Delivery {
    Connected(u64),
    Packet(u64, Vec<u8>),
    Disconnected(u64),
}

#[derive(Resource, Debug)]
pub struct HostGate {
    socket: UdpSocket,
    door: Shared<Door>,
    deliveries: Queue<Delivery>,
    /// Each player's acknowledgements owed.
    acks: HashMap<u64, Acks>,
    _reading: Reading,
}

/// The door's state, kept by the reader thread and the table together.
#[derive(Debug)]
pub struct Door {
    /// The netcode server of the current invite: the only one that takes new connections.
    netcode: NetcodeServer,
    /// Servers of earlier invites (keyed by their secrets), kept while a
    /// player they admitted is still connected; they admit nobody new.
    retired: Vec<NetcodeServer>,
    /// What a server of a new invite is made with: all but the key.
    max_clients: usize,
    public_addresses: Vec<SocketAddr>,
    protocol_id: u64,
    /// Addresses whose connection request netcode answered, and when.
    handshakes: HashMap<SocketAddr, Instant>,
    senders: HashMap<SocketAddr, Sender>,
    stats: GateStats,
}

/// The reader's part: the door, with the queue to the table.
struct DoorReader {
    door: Shared<Door>,
    deliveries: SyncSender<Delivery>,
}

impl Reader for DoorReader {
    fn datagram(&mut self, from: SocketAddr, datagram: &mut [u8], socket: &UdpSocket) -> bool {
        let mut wake = false;
        let deliveries = &self.deliveries;
        lock(&self.door).datagram(from, datagram, socket, &mut |d| wake |= deliver(d, deliveries));
        wake
    }

    fn tick(&mut self, elapsed: Duration, socket: &UdpSocket) -> bool {
        let mut wake = false;
        let deliveries = &self.deliveries;
        lock(&self.door).tick(elapsed, socket, &mut |d| wake |= deliver(d, deliveries));
        wake
    }
}

/// Queues a delivery for the table; whether it is worth a frame.
fn deliver(d: Delivery, deliveries: &SyncSender<Delivery>) -> bool {
    let wake = match &d {
        Delivery::Packet(_, packet) => worth_a_frame(packet),
        Delivery::Connected(_) | Delivery::Disconnected(_) => true,
    };
    // Full: dropped, as a full socket buffer would drop it.
    let _ = deliveries.try_send(d);
    wake
}

impl HostGate {
    /// The door of `socket`, waking the table with `wake` when something
    /// worth a frame arrives.
    pub fn new(config: ServerConfig, socket: UdpSocket, wake: Option<Wake>) -> io::Result<HostGate> {
        let (protocol_id, max_clients, public_addresses) =
            (config.protocol_id, config.max_clients, config.public_addresses.clone());
        let door = Arc::new(Mutex::new(Door {
            netcode: NetcodeServer::new(config),
            retired: Vec::new(),
            max_clients,
            public_addresses,
            protocol_id,
            handshakes: HashMap::new(),
            senders: HashMap::new(),
            stats: GateStats::default(),
        }));
        let (deliveries, tx) = Queue::new();
        let reading = spawn_reader(&socket, wake, DoorReader { door: door.clone(), deliveries: tx })?;
        Ok(HostGate { socket, door, deliveries, acks: HashMap::new(), _reading: reading })
    }

    /// What the door turned away so far.
    pub fn stats(&self) -> GateStats {
        lock(&self.door).stats
    }

    pub fn client_addr(&self, client_id: u64) -> Option<SocketAddr> {
        lock(&self.door).servers().find_map(|s| s.client_addr(client_id))
    }

    /// What the player's connect token carried for the host (its version).
    pub fn user_data(&self, client_id: u64) -> Option<[u8; NETCODE_USER_DATA_BYTES]> {
        lock(&self.door).servers().find_map(|s| s.user_data(client_id))
    }

    /// From now on only connect tokens sealed with `key` (a new invite's)
    /// are admitted; the players already connected stay.
    pub fn rekey(&mut self, key: [u8; NETCODE_KEY_BYTES]) {
        lock(&self.door).rekey(key);
    }

    /// Closes every connection now (the table closing).
    pub fn disconnect_all(&mut self, server: &mut RenetServer) {
        let mut door = lock(&self.door);
        let Door { netcode, retired, .. } = &mut *door;
        for netcode in std::iter::once(netcode).chain(retired) {
            for client_id in netcode.clients_id() {
                let result = netcode.disconnect(client_id);
                result_to(result, &self.socket, &mut |d| renet_hears(d, server, &mut self.acks));
            }
        }
    }

    /// Hands renet what the door let through, in order; closes the
    /// connections renet ended.
    pub fn update(&mut self, server: &mut RenetServer) {
        while let Some(d) = self.deliveries.next() {
            renet_hears(d, server, &mut self.acks);
        }
        for client_id in server.disconnections_id() {
            let mut door = lock(&self.door);
            let Door { netcode, retired, .. } = &mut *door;
            let result = admitted(netcode, retired, client_id).disconnect(client_id);
            result_to(result, &self.socket, &mut |d| renet_hears(d, server, &mut self.acks));
        }
    }

    /// Sends renet's packets for every connection.
    pub fn send_packets(&mut self, server: &mut RenetServer) {
        let mut door = lock(&self.door);
        let Door { netcode, retired, .. } = &mut *door;
        for client_id in server.clients_id() {
            let Ok(packets) = server.get_packets_to_send(client_id) else { continue };
            let acks = self.acks.entry(client_id).or_default();
            for packet in packets.iter().filter(|p| acks.send(p)) {
                match admitted(netcode, retired, client_id).generate_payload_packet(client_id, packet) {
                    Ok((addr, payload)) => {
                        if let Err(e) = self.socket.send_to(payload, addr) {
                            warn!("could not send to player {client_id} ({addr}): {e}");
                            break;
                        }
                    }
                    Err(e) => {
                        warn!("could not seal a packet for player {client_id}: {e}");
                        break;
                    }
                }
            }
            acks.sent();
        }
    }
}

/// What renet hears of a delivery, on the table's thread.
fn renet_hears(d: Delivery, server: &mut RenetServer, acks: &mut HashMap<u64, Acks>) {
    match d {
        Delivery::Connected(client_id) => server.add_connection(client_id),
        Delivery::Packet(client_id, packet) => {
            acks.entry(client_id).or_default().received(&packet);
            if server.process_packet_from(&packet, client_id).is_err() {
                warn!("a packet for player {client_id}, who is not connected");
            }
        }
        Delivery::Disconnected(client_id) => {
            server.remove_connection(client_id);
            acks.remove(&client_id);
        }
    }
}

impl Door {
    /// Every netcode server, the current one first.
    fn servers(&self) -> impl Iterator<Item = &NetcodeServer> {
        std::iter::once(&self.netcode).chain(&self.retired)
    }

    fn rekey(&mut self, key: [u8; NETCODE_KEY_BYTES]) {
        let config = ServerConfig {
            current_time: self.netcode.current_time(),
            max_clients: self.max_clients,
            protocol_id: self.protocol_id,
            public_addresses: self.public_addresses.clone(),
            authentication: ServerAuthentication::Secure { private_key: key },
        };
        let old = std::mem::replace(&mut self.netcode, NetcodeServer::new(config));
        self.retired.push(old);
        // A handshake half made with the old invite does not finish.
        self.handshakes.clear();
    }

    /// Time passes: keep-alives go out, silent connections time out,
    /// finished handshakes and empty earlier invites are forgotten.
    fn tick(&mut self, elapsed: Duration, socket: &UdpSocket, out: &mut impl FnMut(Delivery)) {
        self.netcode.update(elapsed);
        for old in &mut self.retired {
            old.update(elapsed);
        }
        self.retired.retain(|old| old.connected_clients() > 0);
        let now = Instant::now();
        self.handshakes.retain(|_, at| now - *at < HANDSHAKE);
        for netcode in std::iter::once(&mut self.netcode).chain(&mut self.retired) {
            for client_id in netcode.clients_id() {
                result_to(netcode.update_client(client_id), socket, out);
            }
        }
    }

    /// One datagram: passed on if it may, else counted.
    fn datagram(&mut self, from: SocketAddr, datagram: &mut [u8], socket: &UdpSocket, out: &mut impl FnMut(Delivery)) {
        let now = Instant::now();
        // An earlier invite's player, to the server that admitted it.
        let elder =
            self.retired.iter().position(|old| old.clients_id_iter().any(|id| old.client_addr(id) == Some(from)));
        if let Some(i) = elder {
            result_to(self.retired[i].process_packet(from, datagram), socket, out);
            return;
        }
        let player = self.netcode.clients_id_iter().any(|id| self.netcode.client_addr(id) == Some(from));
        let known = player || self.handshakes.contains_key(&from);
        if !known && let Some(why) = self.stranger(from, datagram, now) {
            self.hostile(from, why, now);
            return;
        }
        let result = self.netcode.process_packet(from, datagram);
        let (answered, refused) =
            (matches!(result, ServerResult::PacketToSend { .. }), matches!(result, ServerResult::None));
        result_to(result, socket, out);
        if !known && answered {
            self.handshakes.insert(from, now);
        } else if !known && refused {
            // Shaped right, but no token of this table's invite.
            self.hostile(from, "a connection request without this table's invite", now);
        }
    }

    /// Why a datagram from an unknown address does not reach netcode, if it
    /// does not: muted, or not a connection request of this game.
    fn stranger(&self, from: SocketAddr, bytes: &[u8], now: Instant) -> Option<&'static str> {
        if self.senders.get(&from).is_some_and(|s| now - s.last < QUIET) {
            return Some("more after a bad one");
        }
        let request = bytes.len() == REQUEST_LEN
            && bytes[0] == 0
            && &bytes[1..14] == VERSION_INFO
            && bytes[14..22] == self.protocol_id.to_le_bytes();
        (!request).then_some("not a packet of this game")
    }

    /// Counts a hostile datagram; logs the sender at most once per `QUIET`.
    fn hostile(&mut self, from: SocketAddr, why: &str, now: Instant) {
        self.stats.hostile += 1;
        if self.senders.len() >= MAX_SENDERS && !self.senders.contains_key(&from) {
            self.senders.clear();
        }
        let sender = self.senders.entry(from).or_insert(Sender { last: now, logged: None, unlogged: 0 });
        sender.last = now;
        sender.unlogged += 1;
        if sender.logged.is_none_or(|at| now - at >= QUIET) {
            warn!("dropped {} datagram(s) from {from}: {why}", sender.unlogged);
            sender.logged = Some(now);
            sender.unlogged = 0;
            self.stats.logged += 1;
        }
    }
}

/// The netcode server that admitted `client_id`: an earlier invite's, or the current one.
fn admitted<'a>(
    current: &'a mut NetcodeServer,
    retired: &'a mut [NetcodeServer],
    client_id: u64,
) -> &'a mut NetcodeServer {
    match retired.iter().position(|s| s.is_client_connected(client_id)) {
        Some(i) => &mut retired[i],
        None => current,
    }
}

/// Netcode's answer: what it sends goes out now; what renet must hear of goes to `out`.
fn result_to(result: ServerResult, socket: &UdpSocket, out: &mut impl FnMut(Delivery)) {
    let send = |packet: &[u8], addr: SocketAddr| {
        if let Err(e) = socket.send_to(packet, addr) {
            warn!("could not send to {addr}: {e}");
        }
    };
    match result {
        ServerResult::None => {}
        ServerResult::PacketToSend { payload, addr } => send(payload, addr),
        ServerResult::Payload { client_id, payload } => out(Delivery::Packet(client_id, payload.to_vec())),
        ServerResult::ClientConnected { client_id, addr, payload, .. } => {
            out(Delivery::Connected(client_id));
            send(payload, addr);
        }
        ServerResult::ClientDisconnected { client_id, addr, payload } => {
            out(Delivery::Disconnected(client_id));
            if let Some(payload) = payload {
                send(payload, addr);
            }
        }
    }
}

/// The door's systems, where `bevy_renet`'s netcode plugin would run its own.
pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        receive
            .in_set(RenetReceive)
            .run_if(resource_exists::<HostGate>)
            .run_if(resource_exists::<RenetServer>)
            .after(RenetServerPlugin::update_system)
            .before(RenetServerPlugin::emit_server_events_system),
    );
    app.add_systems(
        PostUpdate,
        send.in_set(RenetSend).run_if(resource_exists::<HostGate>).run_if(resource_exists::<RenetServer>),
    );
    app.add_systems(Last, close_on_exit.run_if(resource_exists::<HostGate>).run_if(resource_exists::<RenetServer>));
}

fn receive(mut gate: ResMut<HostGate>, mut server: ResMut<RenetServer>) {
    gate.update(&mut server);
}

fn send(mut gate: ResMut<HostGate>, mut server: ResMut<RenetServer>) {
    gate.send_packets(&mut server);
}

fn close_on_exit(exit: MessageReader<AppExit>, mut gate: ResMut<HostGate>, mut server: ResMut<RenetServer>) {
    if !exit.is_empty() {
        gate.disconnect_all(&mut server);
    }
}
