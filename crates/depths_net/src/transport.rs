//! Opening the connection: renet's reliable ordered channel each way over
//! UDP, with netcode's connection handshake and timeouts; and whether a
//! message is still on its way.

use std::{
    net::{SocketAddr, UdpSocket},
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use bevy::prelude::*;
use bevy_renet::{
    RenetClient, RenetSend, RenetServer,
    netcode::{
        ClientAuthentication, ConnectToken, NETCODE_KEY_BYTES, NETCODE_USER_DATA_BYTES, ServerAuthentication,
        ServerConfig, generate_random_bytes,
    },
    renet::{ChannelConfig, ConnectionConfig, SendType},
};

use crate::{
    gate::HostGate,
    invite::Invite,
    link::PlayerLink,
    protocol::{MAX_FROM_HOST, MAX_FROM_PLAYER},
    socket::Wake,
};

/// Netcode's protocol id: this game's online play, the same in every
/// version since 4, so a player of another version reaches the host and is
/// told in words ([`version_data`]) instead of hearing nothing.
pub const PROTOCOL_ID: u64 = 0x4644_4550_5448_0000;

/// The connect token's user data, which the host reads before any message:
/// the protocol version, little-endian, in its first four bytes.
pub fn version_data() -> [u8; NETCODE_USER_DATA_BYTES] {
    let mut data = [0; NETCODE_USER_DATA_BYTES];
    data[..4].copy_from_slice(&crate::protocol::PROTOCOL_VERSION.to_le_bytes());
    data
}

/// The protocol version a connect token's user data names.
pub fn version_of(data: &[u8; NETCODE_USER_DATA_BYTES]) -> u32 {
    u32::from_le_bytes([data[0], data[1], data[2], data[3]])
}

/// The one channel each way (everything is reliable and in order: an action
/// lost or reordered would fork the game).
pub const CHANNEL: u8 = 0;

/// The host's seats besides its own: two or three people play.
pub const MAX_PLAYERS: usize = 2;

/// Why a connection could not be opened.
#[derive(Debug)]
pub enum NetError {
    Bind { addr: SocketAddr, error: std::io::Error },
    Netcode(String),
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetError::Bind { addr, error } => write!(f, "cannot open {addr}: {error}"),
            NetError::Netcode(why) => write!(f, "cannot start the connection: {why}"),
        }
    }
}

impl std::error::Error for NetError {}

/// Room for a few whole-table messages in flight from the host, and for
/// many actions from a player.
const HOST_SENDS: usize = 4 * MAX_FROM_HOST;
const PLAYER_SENDS: usize = 8 * MAX_FROM_PLAYER;

fn connection_config() -> ConnectionConfig {
    let channel = |max_memory_usage_bytes| {
        vec![ChannelConfig {
            channel_id: CHANNEL,
            max_memory_usage_bytes,
            send_type: SendType::ReliableOrdered { resend_time: Duration::from_millis(200) },
        }]
    };
    ConnectionConfig {
        server_channels_config: channel(HOST_SENDS),
        client_channels_config: channel(PLAYER_SENDS),
        ..Default::default()
    }
}

/// Whether a message this end sent is not yet acknowledged, as of this
/// frame's sending: a table that would sleep keeps updating until it is,
/// so a lost packet is sent again in time.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Unacknowledged(pub bool);

/// Keeps [`Unacknowledged`] (the host's and the player's plugins both add it).
pub(crate) fn plugin(app: &mut App) {
    if app.world().contains_resource::<Unacknowledged>() {
        return;
    }
    app.init_resource::<Unacknowledged>();
    app.add_systems(PostUpdate, note_unacknowledged.after(RenetSend));
}

fn note_unacknowledged(
    server: Option<Res<RenetServer>>,
    client: Option<Res<RenetClient>>,
    mut flag: ResMut<Unacknowledged>,
) {
    flag.set_if_neq(Unacknowledged(unacknowledged(server.as_deref(), client.as_deref())));
}

/// Whether any message sent is unacknowledged (renet frees a message's
/// room in its channel only then).
fn unacknowledged(server: Option<&RenetServer>, client: Option<&RenetClient>) -> bool {
    let host =
        server.is_some_and(|s| s.clients_id_iter().any(|id| s.channel_available_memory(id, CHANNEL) < HOST_SENDS));
    let player = client.is_some_and(|c| c.is_connected() && c.channel_available_memory(CHANNEL) < PLAYER_SENDS);
    host || player
}

fn now() -> Duration {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default()
}

/// How long a player's connection lasts without a packet: a crashed player
/// is seen gone after this (one rejoining sooner takes the seat back at once).
pub const TIMEOUT_SECONDS: i32 = 15;

/// The host's side, listening on `bind` (port 0: any free port), admitting
/// only connect tokens sealed with `key` (an invite's). `public` are the
/// addresses players dial (netcode only admits those); empty means the bound
/// address. Returns the bound address.
pub fn host_transport(
    bind: SocketAddr,
    public: &[SocketAddr],
    key: [u8; NETCODE_KEY_BYTES],
    wake: Option<Wake>,
) -> Result<(RenetServer, HostGate, SocketAddr), NetError> {
    let socket = UdpSocket::bind(bind).map_err(|error| NetError::Bind { addr: bind, error })?;
    let bound = socket.local_addr().map_err(|error| NetError::Bind { addr: bind, error })?;
    let mut public_addresses: Vec<SocketAddr> = public.to_vec();
    if public_addresses.is_empty() || !bound.ip().is_unspecified() {
        public_addresses.push(bound);
    }
    let config = ServerConfig {
        current_time: now(),
        // More connections than seats: a player turned away (table full,
        // name taken) is told why by the host, not cut off by netcode; and
        // room beyond the host's own bounds (`host::MAX_SEATLESS`,
        // `host::PER_ADDRESS`) for connections being closed.
        max_clients: MAX_PLAYERS + 6,
        protocol_id: PROTOCOL_ID,
        public_addresses,
        // Secure: a token sealed with the invite's key, every packet
        // encrypted and authenticated with that connection's own keys.
        authentication: ServerAuthentication::Secure { private_key: key },
    };
    let transport = HostGate::new(config, socket, wake).map_err(|e| NetError::Bind { addr: bind, error: e })?;
    Ok((RenetServer::new(connection_config()), transport, bound))
}

/// A player's side, dialing the host of `invite` with a connect token made
/// from its secret (as a matchmaking server would make one: whoever holds the
/// invite may), waking the table with `wake` when the host says something.
pub fn client_transport(invite: &Invite, wake: Option<Wake>) -> Result<(RenetClient, PlayerLink), NetError> {
    let server = invite.addr;
    let local: SocketAddr = if server.is_ipv4() { "0.0.0.0:0" } else { "[::]:0" }.parse().expect("literal address");
    let socket = UdpSocket::bind(local).map_err(|error| NetError::Bind { addr: local, error })?;
    // Valid for five minutes: enough to connect, too short to reuse a captured one later.
    let token = ConnectToken::generate(
        now(),
        PROTOCOL_ID,
        300,
        client_id(),
        TIMEOUT_SECONDS,
        vec![server],
        Some(&version_data()),
        &invite.key(),
    )
    .map_err(|e| NetError::Netcode(e.to_string()))?;
    let authentication = ClientAuthentication::Secure { connect_token: token };
    let transport = PlayerLink::new(now(), authentication, socket, wake).map_err(NetError::Netcode)?;
    Ok((RenetClient::new(connection_config()), transport))
}

/// This machine's address on its local network, for players to dial (the
/// address the system would send from; nothing is sent). `None` offline.
pub fn lan_address() -> Option<std::net::IpAddr> {
    let probe = UdpSocket::bind("0.0.0.0:0").ok()?;
    // A documentation-only address (TEST-NET-1): routing is looked up, no packet leaves.
    probe.connect("192.0.2.1:9").ok()?;
    probe.local_addr().ok().map(|a| a.ip()).filter(|ip| !ip.is_unspecified())
}

/// Netcode needs each connection's id to differ, and an id a stranger could
/// guess would let them collide with a player's: random from the OS.
fn client_id() -> u64 {
    u64::from_le_bytes(generate_random_bytes())
}
