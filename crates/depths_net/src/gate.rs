//! The host's door: its UDP socket and netcode's server, with a look at each
//! datagram before netcode's decoding (which logs every failure, with no
//! sender and no limit). Datagrams from players and from addresses in the
//! middle of a handshake go straight through; from anyone else only what
//! is shaped like this game's connection request does. The rest, and every
//! datagram of an address that sent such in the last second, is counted and
//! dropped, and logged at most once a second per sender, with the sender.
//!
//! It stands where `bevy_renet`'s `NetcodeServerTransport` would, doing the
//! same work between renet and the socket, with the socket read off the
//! frame ([`Inbox`]) and acknowledgements sent only when owed ([`Acks`]).

use std::{
    collections::HashMap,
    io,
    net::{SocketAddr, UdpSocket},
    time::{Duration, Instant},
};

use bevy::{log::warn, prelude::*};
use bevy_renet::{RenetReceive, RenetSend, RenetServer, RenetServerPlugin};
use renetcode::{
    NETCODE_KEY_BYTES, NETCODE_USER_DATA_BYTES, NetcodeServer, ServerAuthentication, ServerConfig, ServerResult,
};

use crate::socket::{Acks, Inbox, Wake};

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

#[derive(Resource, Debug)]
pub struct HostGate {
    socket: UdpSocket,
    inbox: Inbox,
    /// The netcode server of the current invite: the only one that takes new connections.
    netcode: NetcodeServer,
    /// Servers of earlier invites (keyed by their secrets), kept while a
    /// player they admitted is still connected; they admit nobody new.
    retired: Vec<NetcodeServer>,
    /// What a server of a new invite is made with: all but the key.
    max_clients: usize,
    public_addresses: Vec<SocketAddr>,
    protocol_id: u64,
    /// Each player's acknowledgements owed.
    acks: HashMap<u64, Acks>,
    /// Addresses whose connection request netcode answered, and when.
    handshakes: HashMap<SocketAddr, Instant>,
    senders: HashMap<SocketAddr, Sender>,
    pub stats: GateStats,
}

impl HostGate {
    /// The door of `socket`, waking the table with `wake` when a datagram
    /// worth a frame arrives.
    pub fn new(config: ServerConfig, socket: UdpSocket, wake: Option<Wake>) -> io::Result<HostGate> {
        let inbox = Inbox::open(&socket, wake)?;
        let (protocol_id, max_clients, public_addresses) =
            (config.protocol_id, config.max_clients, config.public_addresses.clone());
        Ok(HostGate {
            socket,
            inbox,
            netcode: NetcodeServer::new(config),
            retired: Vec::new(),
            max_clients,
            public_addresses,
            protocol_id,
            acks: HashMap::new(),
            handshakes: HashMap::new(),
            senders: HashMap::new(),
            stats: GateStats::default(),
        })
    }

    /// Every netcode server, the current one first.
    fn servers(&self) -> impl Iterator<Item = &NetcodeServer> {
        std::iter::once(&self.netcode).chain(&self.retired)
    }

    pub fn client_addr(&self, client_id: u64) -> Option<SocketAddr> {
        self.servers().find_map(|s| s.client_addr(client_id))
    }

    /// What the player's connect token carried for the host (its version).
    pub fn user_data(&self, client_id: u64) -> Option<[u8; NETCODE_USER_DATA_BYTES]> {
        self.servers().find_map(|s| s.user_data(client_id))
    }

    /// From now on only connect tokens sealed with `key` (a new invite's)
    /// are admitted; the players already connected stay.
    pub fn rekey(&mut self, key: [u8; NETCODE_KEY_BYTES]) {
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

    /// Closes every connection now (the table closing).
    pub fn disconnect_all(&mut self, server: &mut RenetServer) {
        for netcode in std::iter::once(&mut self.netcode).chain(&mut self.retired) {
            for client_id in netcode.clients_id() {
                let result = netcode.disconnect(client_id);
                deliver(result, &self.socket, server, &mut self.acks);
            }
        }
    }

    /// Receives what came, passes on what may, times connections out.
    pub fn update(&mut self, duration: Duration, server: &mut RenetServer) -> io::Result<()> {
        self.netcode.update(duration);
        for old in &mut self.retired {
            old.update(duration);
        }
        self.retired.retain(|old| old.connected_clients() > 0);
        let now = Instant::now();
        self.handshakes.retain(|_, at| now - *at < HANDSHAKE);
        let players: Vec<SocketAddr> =
            self.netcode.clients_id_iter().filter_map(|id| self.netcode.client_addr(id)).collect();
        // An earlier invite's players, each with the server that admitted it.
        let elders: Vec<(SocketAddr, usize)> = (self.retired.iter().enumerate())
            .flat_map(|(i, old)| old.clients_id_iter().filter_map(move |id| old.client_addr(id).map(|a| (a, i))))
            .collect();
        while let Some((from, mut datagram)) = self.inbox.next() {
            let datagram = datagram.as_mut_slice();
            if let Some(&(_, i)) = elders.iter().find(|(addr, _)| *addr == from) {
                let result = self.retired[i].process_packet(from, datagram);
                deliver(result, &self.socket, server, &mut self.acks);
                continue;
            }
            let known = players.contains(&from) || self.handshakes.contains_key(&from);
            if !known && let Some(why) = self.stranger(from, datagram, now) {
                self.hostile(from, why, now);
                continue;
            }
            let result = self.netcode.process_packet(from, datagram);
            let (answered, refused) =
                (matches!(result, ServerResult::PacketToSend { .. }), matches!(result, ServerResult::None));
            deliver(result, &self.socket, server, &mut self.acks);
            if !known && answered {
                self.handshakes.insert(from, now);
            } else if !known && refused {
                // Shaped right, but no token of this table's invite.
                self.hostile(from, "a connection request without this table's invite", now);
            }
        }
        for netcode in std::iter::once(&mut self.netcode).chain(&mut self.retired) {
            for client_id in netcode.clients_id() {
                let result = netcode.update_client(client_id);
                deliver(result, &self.socket, server, &mut self.acks);
            }
        }
        for client_id in server.disconnections_id() {
            let result = admitted(&mut self.netcode, &mut self.retired, client_id).disconnect(client_id);
            deliver(result, &self.socket, server, &mut self.acks);
        }
        Ok(())
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

    /// Sends renet's packets for every connection.
    pub fn send_packets(&mut self, server: &mut RenetServer) {
        for client_id in server.clients_id() {
            let Ok(packets) = server.get_packets_to_send(client_id) else { continue };
            let acks = self.acks.entry(client_id).or_default();
            for packet in packets.iter().filter(|p| acks.send(p)) {
                match admitted(&mut self.netcode, &mut self.retired, client_id)
                    .generate_payload_packet(client_id, &packet)
                {
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

fn deliver(result: ServerResult, socket: &UdpSocket, server: &mut RenetServer, acks: &mut HashMap<u64, Acks>) {
    let send = |packet: &[u8], addr: SocketAddr| {
        if let Err(e) = socket.send_to(packet, addr) {
            warn!("could not send to {addr}: {e}");
        }
    };
    match result {
        ServerResult::None => {}
        ServerResult::PacketToSend { payload, addr } => send(payload, addr),
        ServerResult::Payload { client_id, payload } => {
            acks.entry(client_id).or_default().received(payload);
            if server.process_packet_from(payload, client_id).is_err() {
                warn!("a packet for player {client_id}, who is not connected");
            }
        }
        ServerResult::ClientConnected { client_id, addr, payload, .. } => {
            server.add_connection(client_id);
            send(payload, addr);
        }
        ServerResult::ClientDisconnected { client_id, addr, payload } => {
            server.remove_connection(client_id);
            acks.remove(&client_id);
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

fn receive(mut gate: ResMut<HostGate>, mut server: ResMut<RenetServer>, time: Res<Time<Real>>) {
    if let Err(e) = gate.update(time.delta(), &mut server) {
        warn!("the host's socket failed: {e}");
    }
}

fn send(mut gate: ResMut<HostGate>, mut server: ResMut<RenetServer>) {
    gate.send_packets(&mut server);
}

fn close_on_exit(exit: MessageReader<AppExit>, mut gate: ResMut<HostGate>, mut server: ResMut<RenetServer>) {
    if !exit.is_empty() {
        gate.disconnect_all(&mut server);
    }
}
