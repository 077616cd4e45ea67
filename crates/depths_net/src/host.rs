//! The host: the only rules core that applies actions. Players join under a
//! name and get a seat; the host starts the game; every action — a remote
//! player's or the host's own — is checked for its seat and by the rules,
//! applied, and sent to every player with a checksum of the result.
//!
//! Companions are the host's alone: only the host seats them
//! ([`SeatCompanion`], a numbered step every copy takes in order) and only
//! the host's Companions move ([`CompanionAct`], checked, applied and sent
//! like any action). A player's ask to seat one is refused.

use std::{
    collections::BTreeMap,
    net::{IpAddr, SocketAddr},
    time::{Duration, Instant},
};

use bevy::{log::warn, prelude::*};
use bevy_renet::{
    RenetServer, RenetServerEvent, RenetServerPlugin,
    renet::{ClientId, ServerEvent},
};
use depths_rules::{Action, Event, Game};
use depths_seats::seats::{Players, Turn, companion_may_take, seats_may_take};

use crate::{
    gate::HostGate,
    invite::Invite,
    protocol::{
        Lobby, PROTOCOL_VERSION, SeatSecret, Snapshot, ToHost, ToPlayer, WireError, decode_to_host, encode, name_key,
        normal_name,
    },
    shared_game::SharedGame,
    transport::{CHANNEL, MAX_PLAYERS, NetError, host_transport, version_of},
};

/// A connection that has not asked for a seat within this is dropped: it
/// holds one of the few connection slots a real player may need to rejoin.
pub const JOIN_WITHIN: Duration = Duration::from_secs(5);

/// The most connections from one address at once: a player's stale
/// connection and its rejoin, and one more (two friends behind one router).
pub const PER_ADDRESS: usize = 3;

/// The most connections without a seat at once. Netcode has few slots
/// (`transport::MAX_PLAYERS` + 6); beyond this the oldest seatless one
/// makes room, so a player rejoining always finds one.
pub const MAX_SEATLESS: usize = 2;

/// What a banned player is told, when sent away and when they try again.
const BANNED: &str = "the host has sent you away from this table";

/// How long a goodbye has to reach its player before the connection closes
/// (the reason travels as a message; closing at once would lose it).
const GOODBYE_GRACE: Duration = Duration::from_millis(300);

pub struct HostPlugin;

impl Plugin for HostPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<RenetServerPlugin>() {
            app.add_plugins(RenetServerPlugin);
        }
        crate::gate::plugin(app);
        crate::transport::plugin(app);
        app.init_resource::<HostedGame>();
        app.add_message::<HostAct>();
        app.add_message::<StartTable>();
        app.add_message::<StandIn>();
        app.add_message::<SeatCompanion>();
        app.add_message::<CompanionAct>();
        app.add_message::<Applied>();
        app.add_message::<CompanionSeated>();
        app.add_message::<HostRefused>();
        app.add_message::<Kick>();
        app.add_message::<HostTakeBack>();
        app.add_message::<TookBack>();
        app.add_observer(connection_events);
        app.add_systems(
            Update,
            (host_inputs, receive_from_players, tend_connections)
                .chain()
                .in_set(crate::schedule::NetSystems)
                .run_if(resource_exists::<RenetServer>),
        );
    }
}

/// The host player (seat 0) takes this action.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct HostAct(pub Action);

/// Start the game, with these Heroes per seat (in the game's Hero order: the
/// seat that plays each Hero). The seats are the lobby's. `turn` is whose
/// Exploring turn it is: the default for a new game, a saved game's own when
/// it is resumed. `companions`: per Hero, whether a Companion plays it
/// (empty: none).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct StartTable {
    pub game: Game,
    pub owners: Vec<usize>,
    pub turn: Turn,
    pub companions: Vec<bool>,
}

/// The host seats a Companion at Hero `hero` (`on`) or gives the seat back
/// to its owner — before or during the game, a dropped player's Heroes too
/// (then the table no longer waits for them).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatCompanion {
    pub hero: u8,
    pub on: bool,
}

/// A Companion's move, chosen on the host: checked as a Companion's
/// (`depths_seats::seats::companion_may_take`) and by the rules, then
/// applied and sent like any action (for seat 0).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct CompanionAct(pub Action);

/// The host seated a Companion or gave a seat back, as the `seq`-th step
/// (the hook for the client's table; actions and seat changes share the count).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompanionSeated {
    pub seq: u64,
    pub hero: u8,
    pub on: bool,
}

/// Seat `by` plays for away seat `seat` (its Heroes, its Exploring turns)
/// until its player comes back; `by: None` takes that back.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct StandIn {
    pub seat: usize,
    pub by: Option<usize>,
}

/// The host applied an action (the hook for the client's autosave and table):
/// the `seq`-th step since the start, for seat `seat` (a Companion's move:
/// seat 0, the host's, which runs every Companion), and what it did.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct Applied {
    pub seq: u64,
    pub seat: usize,
    pub action: Action,
    pub events: Vec<Event>,
}

/// The host sends seat `seat`'s player away (in the lobby or during play);
/// `ban`: their name and address cannot come back to this table. Before the
/// game starts the seat is freed for someone else; during play it is away
/// (its Heroes wait, or the host stands in or seats Companions) and its seat
/// secret no longer works.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kick {
    pub seat: usize,
    pub ban: bool,
}

/// The host takes back the table's last move (any seat's, a Companion's
/// too), if it revealed nothing.
#[derive(Message, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HostTakeBack;

/// A move was taken back, as the `seq`-th step (the hook for the client's
/// table: the move's tile or card returns).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct TookBack {
    pub seq: u64,
    pub action: Action,
    /// The seat whose move it was (`None`: a Companion's).
    pub by: Option<usize>,
}

/// The host's own action or command was not taken, and why.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct HostRefused(pub String);

/// What the host counts (for the tests and the measurements).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HostStats {
    pub applied: u64,
    pub refused: u64,
    /// Messages that were not messages (malformed, oversized).
    pub dropped: u64,
    pub bytes_in: u64,
    pub bytes_out: u64,
    pub snapshots_sent: u64,
    /// Connections dropped for never asking for a seat, or over the bound
    /// per address.
    pub idle_dropped: u64,
    /// Time spent checking, applying and relaying the applied actions (the
    /// host's cost per action is this over `applied`), and the longest one.
    pub take_time: std::time::Duration,
    pub take_time_max: std::time::Duration,
}

/// One connection: its seat once it joined, when it came, from where.
#[derive(Clone, Copy, Debug)]
struct Conn {
    seat: Option<usize>,
    since: Instant,
    ip: Option<IpAddr>,
}

/// The host's table: the seats, who is connected as which seat, and the game.
#[derive(Resource, Default, Debug)]
pub struct HostedGame {
    pub lobby: Lobby,
    pub shared: Option<SharedGame>,
    pub stats: HostStats,
    /// What players need to join (set by [`open`]): the address and secret.
    pub invite: Option<Invite>,
    /// Connected players by connection, with their seat once they joined.
    clients: BTreeMap<ClientId, Conn>,
    /// Per seat, the secret its player rejoins with (never sent to anyone else).
    secrets: Vec<Option<SeatSecret>>,
    /// Names (their comparison keys) sent away for good; their seat
    /// secrets are void too. (Not addresses: friends behind one router, or
    /// on one machine, share one.)
    banned_names: Vec<String>,
    /// Connections to close once their goodbye has gone out.
    closing: Vec<(ClientId, Instant)>,
}

impl HostedGame {
    fn seat_of(&self, client: ClientId) -> Option<usize> {
        self.clients.get(&client).and_then(|c| c.seat)
    }

    fn client_of(&self, seat: usize) -> Option<ClientId> {
        self.clients.iter().find(|(_, c)| c.seat == Some(seat)).map(|(c, _)| *c)
    }

    /// Whether something is due by the clock: a connection that has not
    /// sat down yet (dropped after [`JOIN_WITHIN`]), or one to close once
    /// its goodbye has gone out. A sleeping table must wake for it.
    pub fn clock_running(&self) -> bool {
        self.clients.values().any(|c| c.seat.is_none()) || !self.closing.is_empty()
    }

    /// How many connections are open (seated or not), for the tests.
    pub fn connections(&self) -> usize {
        self.clients.len()
    }

    /// The address players dial.
    pub fn addr(&self) -> Option<SocketAddr> {
        self.invite.as_ref().map(|i| i.addr)
    }

    /// The seats the table waits for: away, nobody standing in for them, and
    /// a Hero of theirs not played by a Companion.
    pub fn waiting_for(&self) -> Vec<usize> {
        match &self.shared {
            Some(shared) => self.lobby.waiting_for_at(&shared.players),
            None => Vec::new(),
        }
    }

    /// The game, if it is on and not waiting for anyone; else why not.
    fn playing(&self) -> Result<&SharedGame, String> {
        let Some(shared) = &self.shared else { return Err("the game has not started".into()) };
        if shared.game.is_over() {
            return Err("the game is over".into());
        }
        let waiting = self.waiting_for();
        if !waiting.is_empty() {
            let names: Vec<&str> = waiting.iter().map(|&s| self.lobby.name(s)).collect();
            return Err(format!("the table waits for {} to come back", names.join(" and ")));
        }
        Ok(shared)
    }

    /// Whether a Companion may take `action` now, else why not: the table is
    /// not waiting, the move is a Companion's, and the rules allow it.
    pub fn companion_may_take(&self, action: &Action) -> Result<(), String> {
        let shared = self.playing()?;
        companion_may_take(&shared.game, &shared.players, &shared.turn, action)?;
        shared.game.check(action).map_err(|e| e.to_string())
    }

    /// Whether seat `seat` may take `action` now, else why not (in words for
    /// the player): the table is not waiting for anyone, the seat (or a seat
    /// it stands in for) may make this move, and the rules allow it.
    pub fn may_take(&self, seat: usize, action: &Action) -> Result<(), String> {
        let shared = self.playing()?;
        seats_may_take(&shared.game, &shared.players, &shared.turn, &self.lobby.acts_as(seat), action)?;
        shared.game.check(action).map_err(|e| e.to_string())
    }
}

/// Starts hosting on `bind` (port 0: any free port) as the player `name`,
/// with a new invite ([`HostedGame::invite`]: pass it on). `public`: the
/// addresses players will dial, if not the bound one (a host bound to
/// 0.0.0.0 lists its LAN address); the invite names the first. Returns the
/// bound address.
pub fn open(world: &mut World, bind: SocketAddr, public: &[SocketAddr], name: &str) -> Result<SocketAddr, NetError> {
    let name = normal_name(name).map_err(NetError::Netcode)?;
    let secret = Invite::new(bind);
    let wake = world.get_resource::<crate::socket::NetWake>().and_then(|w| w.0.clone());
    let (server, transport, bound) = host_transport(bind, public, secret.key(), wake)?;
    world.insert_resource(server);
    world.insert_resource(transport);
    let mut host = world.resource_mut::<HostedGame>();
    host.lobby = Lobby { names: vec![name], online: vec![true], stand_ins: vec![None], started: false };
    host.secrets = vec![None];
    host.invite = Some(secret.at(public.first().copied().unwrap_or(bound)));
    Ok(bound)
}

/// Stops hosting: tells every player the table closed, forgets the table.
pub fn close(world: &mut World) {
    if let (Some(mut server), Some(mut transport)) =
        (world.remove_resource::<RenetServer>(), world.remove_resource::<HostGate>())
    {
        let mut host = world.resource_mut::<HostedGame>();
        broadcast(&mut server, &mut host, &ToPlayer::Goodbye { reason: CLOSED.into() });
        transport.send_packets(&mut server);
        transport.disconnect_all(&mut server);
    }
    *world.resource_mut::<HostedGame>() = HostedGame::default();
}

/// What the players hear when the host closes the table.
pub const CLOSED: &str = "the host closed the table: ask them for a new invite to play again";

/// Makes a new invite for the table: from now on only it lets anyone in
/// (the old one stops working for new connections; the players at the
/// table stay, and a player who drops needs the new one to come back).
pub fn new_invite(world: &mut World) -> Result<Invite, NetError> {
    let old = world.resource::<HostedGame>().invite.clone();
    let (Some(old), Some(mut gate)) = (old, world.get_resource_mut::<HostGate>()) else {
        return Err(NetError::Netcode("no table is open".into()));
    };
    let invite = Invite::new(old.addr);
    gate.rekey(invite.key());
    world.resource_mut::<HostedGame>().invite = Some(invite.clone());
    Ok(invite)
}

fn send(server: &mut RenetServer, stats: &mut HostStats, client: ClientId, message: &ToPlayer) {
    let bytes = encode(message);
    stats.bytes_out += bytes.len() as u64;
    if matches!(message, ToPlayer::Snapshot(_)) {
        stats.snapshots_sent += 1;
    }
    server.send_message(client, CHANNEL, bytes);
}

/// To every player who has a seat.
fn broadcast(server: &mut RenetServer, host: &mut HostedGame, message: &ToPlayer) {
    let bytes = encode(message);
    for client in host.clients.iter().filter(|(_, c)| c.seat.is_some()).map(|(c, _)| *c).collect::<Vec<_>>() {
        host.stats.bytes_out += bytes.len() as u64;
        if matches!(message, ToPlayer::Snapshot(_)) {
            host.stats.snapshots_sent += 1;
        }
        server.send_message(client, CHANNEL, bytes.clone());
    }
}

/// Who is at the table, to every seated player (whenever it changes).
fn broadcast_lobby(server: &mut RenetServer, host: &mut HostedGame) {
    let lobby = ToPlayer::Lobby(host.lobby.clone());
    broadcast(server, host, &lobby);
}

fn connection_events(
    event: On<RenetServerEvent>,
    mut host: ResMut<HostedGame>,
    mut server: ResMut<RenetServer>,
    transport: Res<HostGate>,
) {
    match **event {
        ServerEvent::ClientConnected { client_id } => {
            let ip = transport.client_addr(client_id).map(|a| a.ip());
            host.clients.insert(client_id, Conn { seat: None, since: Instant::now(), ip });
            let version = transport.user_data(client_id).map(|data| version_of(&data)).unwrap_or(0);
            if version != PROTOCOL_VERSION {
                info!("connection {client_id} plays protocol {version}, not {PROTOCOL_VERSION}");
                goodbye(&mut host, &mut server, client_id, &other_version(version));
                return;
            }
            make_room(&mut host, &mut server, client_id);
        }
        ServerEvent::ClientDisconnected { client_id, reason } => {
            // A seat whose connection was replaced by a rejoin stays online.
            let Some(seat) = host.clients.remove(&client_id).and_then(|c| c.seat) else { return };
            info!("{} left the table ({reason})", host.lobby.name(seat));
            host.lobby.online[seat] = false;
            if !host.lobby.started {
                // Gone before the start: the seat is free again (a departed
                // stranger must not block Start).
                free_seat(&mut host, &mut server, seat);
            }
            broadcast_lobby(&mut server, &mut host);
        }
    }
}

/// Keeps the connections within bounds after `newcomer` came: per address,
/// and seatless in all. The oldest seatless connection goes first (one that
/// sat down is a player); if every other one from its address is seated,
/// the newcomer goes.
fn make_room(host: &mut HostedGame, server: &mut RenetServer, newcomer: ClientId) {
    let ip = host.clients[&newcomer].ip;
    let open = |host: &HostedGame, c: &ClientId| !host.closing.iter().any(|(k, _)| k == c);
    loop {
        let live: Vec<(ClientId, Conn)> =
            host.clients.iter().filter(|(c, _)| open(host, c)).map(|(c, conn)| (*c, *conn)).collect();
        let from_ip: Vec<&(ClientId, Conn)> = live.iter().filter(|(_, c)| c.ip.is_some() && c.ip == ip).collect();
        let seatless: Vec<&(ClientId, Conn)> = live.iter().filter(|(_, c)| c.seat.is_none()).collect();
        let (pool, why) = if from_ip.len() > PER_ADDRESS {
            (from_ip, "too many connections from your address")
        } else if seatless.len() > MAX_SEATLESS {
            (seatless, "too many connections are waiting to sit down")
        } else {
            return;
        };
        let oldest = pool.iter().filter(|(_, c)| c.seat.is_none()).min_by_key(|(_, c)| c.since).map(|(id, _)| *id);
        let out = oldest.unwrap_or(newcomer);
        host.stats.idle_dropped += 1;
        info!("closed connection {out} from {ip:?} to make room: {why}");
        goodbye(host, server, out, why);
        if out == newcomer {
            return;
        }
    }
}

/// What a player of protocol `theirs` is told.
fn other_version(theirs: u32) -> String {
    let (newer, older) = if theirs < PROTOCOL_VERSION { ("the host's", "yours") } else { ("yours", "the host's") };
    format!(
        "the host's game is another version (online protocol {PROTOCOL_VERSION}, yours {theirs}): {newer} is newer \
         than {older}; play the same release as the host"
    )
}

/// Tells `client` why it must go, then closes its connection shortly after
/// (so the reason arrives first).
fn goodbye(host: &mut HostedGame, server: &mut RenetServer, client: ClientId, reason: &str) {
    send(server, &mut host.stats, client, &ToPlayer::Goodbye { reason: reason.to_owned() });
    host.closing.push((client, Instant::now() + GOODBYE_GRACE));
}

/// Removes seat `seat` from a lobby whose game has not started; the seats
/// after it move down one, and their players are told their new number.
fn free_seat(host: &mut HostedGame, server: &mut RenetServer, seat: usize) {
    if host.lobby.started || seat == 0 || seat >= host.lobby.names.len() {
        return;
    }
    host.lobby.names.remove(seat);
    host.lobby.online.remove(seat);
    host.lobby.stand_ins.remove(seat);
    host.secrets.remove(seat);
    for stand_in in &mut host.lobby.stand_ins {
        *stand_in = None;
    }
    let moved: Vec<(ClientId, usize)> = host
        .clients
        .iter_mut()
        .filter_map(|(&id, c)| match c.seat {
            Some(s) if s == seat => {
                c.seat = None;
                None
            }
            Some(s) if s > seat => {
                c.seat = Some(s - 1);
                Some((id, s - 1))
            }
            _ => None,
        })
        .collect();
    for (client, seat) in moved {
        let secret = host.secrets[seat].clone().expect("a seated player has a secret");
        send(server, &mut host.stats, client, &ToPlayer::Welcome { seat, secret });
    }
}

/// Closes the connections whose goodbye is out, and drops those that never
/// asked for a seat.
fn tend_connections(mut host: ResMut<HostedGame>, mut server: ResMut<RenetServer>) {
    let now = Instant::now();
    let idle: Vec<ClientId> = host
        .clients
        .iter()
        .filter(|(id, c)| {
            c.seat.is_none() && now - c.since > JOIN_WITHIN && !host.closing.iter().any(|(k, _)| k == *id)
        })
        .map(|(id, _)| *id)
        .collect();
    for client in idle {
        host.stats.idle_dropped += 1;
        info!("dropped connection {client}: it did not ask for a seat within {JOIN_WITHIN:?}");
        goodbye(&mut host, &mut server, client, "the host waited for you to sit down: join again");
    }
    let (due, later): (Vec<_>, Vec<_>) = host.closing.drain(..).partition(|(_, at)| *at <= now);
    host.closing = later;
    for (client, _) in due {
        server.disconnect(client);
    }
}

/// The host player's actions and commands.
fn host_inputs(
    mut acts: MessageReader<HostAct>,
    mut starts: MessageReader<StartTable>,
    mut stand_ins: MessageReader<StandIn>,
    mut seatings: MessageReader<SeatCompanion>,
    mut companion_acts: MessageReader<CompanionAct>,
    mut kicks: MessageReader<Kick>,
    mut take_backs: MessageReader<HostTakeBack>,
    mut host: ResMut<HostedGame>,
    mut server: ResMut<RenetServer>,
    (mut applied, mut seated, mut took_back): (
        MessageWriter<Applied>,
        MessageWriter<CompanionSeated>,
        MessageWriter<TookBack>,
    ),
    mut refused: MessageWriter<HostRefused>,
) {
    for StartTable { game, owners, turn, companions } in starts.read() {
        if host.shared.is_some() {
            refused.write(HostRefused("the game has already started".into()));
            continue;
        }
        let seats = host.lobby.names.len();
        if owners.len() != game.heroes.len() || owners.iter().any(|&o| o >= seats) {
            refused.write(HostRefused(format!(
                "give each of the {} Heroes to one of the {seats} seats",
                game.heroes.len()
            )));
            continue;
        }
        if !companions.is_empty() && companions.len() != game.heroes.len() {
            refused.write(HostRefused(format!(
                "say for each of the {} Heroes if a Companion plays it",
                game.heroes.len()
            )));
            continue;
        }
        let players = Players {
            names: host.lobby.names.clone(),
            owners: owners.clone(),
            curtain: false,
            companions: companions.clone(),
        };
        let mut shared = SharedGame::new(game.clone(), players);
        shared.turn = turn.clone();
        host.shared = Some(shared);
        host.lobby.started = true;
        broadcast_lobby(&mut server, &mut host);
        let snapshot = ToPlayer::Snapshot(Snapshot::of(host.shared.as_ref().expect("just set")));
        broadcast(&mut server, &mut host, &snapshot);
    }
    for &Kick { seat, ban } in kicks.read() {
        if let Err(reason) = kick(&mut host, &mut server, seat, ban) {
            refused.write(HostRefused(reason));
        }
    }
    for &StandIn { seat, by } in stand_ins.read() {
        let seats = host.lobby.names.len();
        if seat >= seats || by.is_some_and(|b| b >= seats || b == seat) {
            refused.write(HostRefused(format!("no such seat to stand in: {seat} by {by:?}")));
            continue;
        }
        if by.is_some() && host.lobby.online[seat] {
            refused.write(HostRefused(format!("{} is at the table", host.lobby.name(seat))));
            continue;
        }
        host.lobby.stand_ins[seat] = by;
        broadcast_lobby(&mut server, &mut host);
    }
    // In the order the host made them: a seat change, then the moves judged after it.
    for &SeatCompanion { hero, on } in seatings.read() {
        match seat(&mut host, &mut server, hero, on) {
            Ok(Some(s)) => {
                seated.write(s);
            }
            Ok(None) => {}
            Err(reason) => {
                refused.write(HostRefused(reason));
            }
        }
    }
    for HostTakeBack in take_backs.read() {
        match take_back(&mut host, &mut server, None, None) {
            Ok(t) => {
                took_back.write(t);
            }
            Err(reason) => {
                refused.write(HostRefused(reason));
            }
        }
    }
    let moves = acts
        .read()
        .map(|HostAct(a)| (Mover::Seat(0), a))
        .chain(companion_acts.read().map(|CompanionAct(a)| (Mover::Companion, a)));
    for (by, action) in moves {
        match take(&mut host, &mut server, by, action.clone()) {
            Ok(a) => {
                applied.write(a);
            }
            Err(reason) => {
                refused.write(HostRefused(reason));
            }
        }
    }
}

/// Sends seat `seat`'s player away (see [`Kick`]).
fn kick(host: &mut HostedGame, server: &mut RenetServer, seat: usize, ban: bool) -> Result<(), String> {
    if seat == 0 || seat >= host.lobby.names.len() {
        return Err(format!("there is no player at seat {seat} to send away"));
    }
    let name = host.lobby.name(seat).to_owned();
    let client = host.client_of(seat);
    if ban {
        host.banned_names.push(name_key(&name));
    }
    // Their secret no longer opens the seat: only the host can let them back.
    host.secrets[seat] = None;
    if let Some(client) = client {
        let reason = if ban { BANNED } else { "the host asked you to leave the table" };
        goodbye(host, server, client, reason);
        host.clients.get_mut(&client).expect("connected").seat = None;
    }
    info!("{name} was sent away{}", if ban { " for good" } else { "" });
    host.lobby.online[seat] = false;
    free_seat(host, server, seat);
    broadcast_lobby(server, host);
    Ok(())
}

/// Seats or unseats a Companion as the next numbered step and tells every
/// player; `None` when nothing changed (no step, no message).
fn seat(
    host: &mut HostedGame,
    server: &mut RenetServer,
    hero: u8,
    on: bool,
) -> Result<Option<CompanionSeated>, String> {
    let Some(shared) = host.shared.as_mut() else { return Err("the game has not started".into()) };
    if shared.game.is_over() {
        return Err("the game is over".into());
    }
    if !shared.seat_companion(hero, on)? {
        return Ok(None);
    }
    let (seq, checksum) = (shared.seq, shared.checksum());
    broadcast(server, host, &ToPlayer::Companion { seq, hero, on, checksum });
    Ok(Some(CompanionSeated { seq, hero, on }))
}

/// Who makes a move: a seat (its player, or the host standing in), or one of
/// the host's Companions.
#[derive(Clone, Copy, Debug)]
enum Mover {
    Seat(usize),
    Companion,
}

/// Checks, applies and relays `action` for `by`; the applied action, or why not.
fn take(host: &mut HostedGame, server: &mut RenetServer, by: Mover, action: Action) -> Result<Applied, String> {
    let started = std::time::Instant::now();
    let (seat, allowed) = match by {
        Mover::Seat(seat) => (seat, host.may_take(seat, &action)),
        // The host runs every Companion: its moves go out as seat 0's.
        Mover::Companion => (0, host.companion_may_take(&action)),
    };
    if let Err(reason) = allowed {
        host.stats.refused += 1;
        return Err(reason);
    }
    let shared = host.shared.as_mut().expect("may_take: the game has started");
    let mover = match by {
        Mover::Seat(_) => Some(seat),
        Mover::Companion => None,
    };
    let events = shared.apply(action.clone(), mover).map_err(|e| e.to_string())?;
    let (seq, checksum) = (shared.seq, shared.checksum());
    host.stats.applied += 1;
    let companion = matches!(by, Mover::Companion);
    broadcast(server, host, &ToPlayer::Applied { seq, seat, action: action.clone(), checksum, companion });
    let took = started.elapsed();
    host.stats.take_time += took;
    host.stats.take_time_max = host.stats.take_time_max.max(took);
    Ok(Applied { seq, seat, action, events })
}

/// Takes back the table's last move for `asker` (`None`: the host, who may
/// take back any seat's; a seat only its own or one it stands in for), then
/// tells every player. `seen`: the step the asker saw last (a player's ask:
/// a move that came in between is not taken back by mistake).
fn take_back(
    host: &mut HostedGame,
    server: &mut RenetServer,
    asker: Option<usize>,
    seen: Option<u64>,
) -> Result<TookBack, String> {
    let shared = host.playing()?;
    if seen.is_some_and(|s| s != shared.seq) {
        return Err("the table moved on since you asked: nothing was taken back".into());
    }
    let by = shared.last_move_by().map_err(|why| format!("nothing to take back: {why}"))?;
    if let Some(seat) = asker {
        let yours = by.is_some_and(|b| host.lobby.acts_as(seat).contains(&b));
        if !yours {
            let whose = by.map_or_else(|| "a Companion's".to_owned(), |b| format!("{}'s", host.lobby.name(b)));
            return Err(format!("the last move was {whose}: only they or the host can take it back"));
        }
    }
    let shared = host.shared.as_mut().expect("playing");
    let action = shared.take_back().map_err(|why| format!("nothing to take back: {why}"))?;
    let (seq, checksum) = (shared.seq, shared.checksum());
    info!("took back step {} for {}", seq - 1, asker.map_or("the host", |s| host.lobby.name(s)));
    broadcast(server, host, &ToPlayer::TakenBack { seq, checksum });
    Ok(TookBack { seq, action, by })
}

/// Every player's messages, in the order they came.
fn receive_from_players(
    mut host: ResMut<HostedGame>,
    mut server: ResMut<RenetServer>,
    mut applied: MessageWriter<Applied>,
    mut took_back: MessageWriter<TookBack>,
) {
    for client in server.clients_id() {
        while let Some(bytes) = server.receive_message(client, CHANNEL) {
            host.stats.bytes_in += bytes.len() as u64;
            match decode_to_host(&bytes) {
                Ok(message) => match handle(&mut host, &mut server, client, message) {
                    Some(Step::Applied(a)) => {
                        applied.write(a);
                    }
                    Some(Step::TookBack(t)) => {
                        took_back.write(t);
                    }
                    None => {}
                },
                Err(e) => drop_bad(&mut host, &mut server, client, &e),
            }
        }
    }
}

/// A message that is not one: dropped, logged with its source, and the
/// sender told (its client shows it), never a crash.
fn drop_bad(host: &mut HostedGame, server: &mut RenetServer, client: ClientId, error: &WireError) {
    host.stats.dropped += 1;
    let who = host.seat_of(client).map_or_else(|| format!("connection {client}"), |s| host.lobby.name(s).to_owned());
    warn!("dropped a message from {who}: {error}");
    let reply = ToPlayer::Refused { action: None, reason: format!("the host could not read your message: {error}") };
    send(server, &mut host.stats, client, &reply);
}

/// What a player's message made happen at the table.
enum Step {
    Applied(Applied),
    TookBack(TookBack),
}

fn handle(host: &mut HostedGame, server: &mut RenetServer, client: ClientId, message: ToHost) -> Option<Step> {
    let refuse = |host: &mut HostedGame, server: &mut RenetServer, action: Option<Action>, reason: String| {
        host.stats.refused += 1;
        send(server, &mut host.stats, client, &ToPlayer::Refused { action, reason });
    };
    match message {
        ToHost::Join { name, version, secret } => {
            // One seat per connection: a second join would leave the first
            // seat "online" with nobody behind it.
            if let Some(seat) = host.seat_of(client) {
                let reason = format!("you already sit at the table as {}", host.lobby.name(seat));
                refuse(host, server, None, reason);
                return None;
            }
            match seat_for(host, &name, version, secret.as_ref()) {
                Ok(seat) => {
                    // The same player on a new connection (a crash, a new
                    // network): the old one is replaced now, not after its timeout.
                    if let Some(stale) = host.client_of(seat) {
                        info!("{} is back on a new connection: closing the old one", host.lobby.name(seat));
                        host.clients.get_mut(&stale).expect("connected").seat = None;
                        goodbye(host, server, stale, "you sat down again on another connection");
                    }
                    if let Some(conn) = host.clients.get_mut(&client) {
                        conn.seat = Some(seat);
                    }
                    host.lobby.online[seat] = true;
                    // Back at the table: nobody needs to stand in any more.
                    host.lobby.stand_ins[seat] = None;
                    info!("{} sits at seat {seat}", host.lobby.name(seat));
                    let secret = host.secrets[seat].get_or_insert_with(SeatSecret::new).clone();
                    send(server, &mut host.stats, client, &ToPlayer::Welcome { seat, secret });
                    broadcast_lobby(server, host);
                    if let Some(shared) = &host.shared {
                        let snapshot = ToPlayer::Snapshot(Snapshot::of(shared));
                        send(server, &mut host.stats, client, &snapshot);
                    }
                }
                Err(reason) => {
                    warn!("refused a seat to {name:?}: {reason}");
                    refuse(host, server, None, reason);
                }
            }
            None
        }
        ToHost::Act(action) => {
            let Some(seat) = host.seat_of(client) else {
                refuse(host, server, Some(action), "join the table first".into());
                return None;
            };
            match take(host, server, Mover::Seat(seat), action.clone()) {
                Ok(a) => Some(Step::Applied(a)),
                Err(reason) => {
                    send(server, &mut host.stats, client, &ToPlayer::Refused { action: Some(action), reason });
                    None
                }
            }
        }
        ToHost::Resync => {
            match (&host.shared, host.seat_of(client)) {
                (Some(shared), Some(_)) => {
                    let snapshot = ToPlayer::Snapshot(Snapshot::of(shared));
                    send(server, &mut host.stats, client, &snapshot);
                }
                _ => refuse(host, server, None, "there is no game to send yet".into()),
            }
            None
        }
        ToHost::SetCompanion { .. } => {
            refuse(host, server, None, "only the host seats Companions".into());
            None
        }
        ToHost::TakeBack { seq } => {
            let Some(seat) = host.seat_of(client) else {
                refuse(host, server, None, "join the table first".into());
                return None;
            };
            match take_back(host, server, Some(seat), Some(seq)) {
                Ok(t) => Some(Step::TookBack(t)),
                Err(reason) => {
                    refuse(host, server, None, reason);
                    None
                }
            }
        }
    }
}

/// The seat for a player joining as `name`: their own seat back with its
/// secret (given at their first join), else a new one while the game has not
/// begun. A name is never proof: a seat is taken back only with its secret.
/// A seat of a game resumed from a save has no secret until its player
/// first sits down again (by name, in the lobby the host watches).
fn seat_for(host: &mut HostedGame, name: &str, version: u32, secret: Option<&SeatSecret>) -> Result<usize, String> {
    if version != PROTOCOL_VERSION {
        return Err(other_version(version));
    }
    let name = normal_name(name)?;
    let key = name_key(&name);
    if host.banned_names.contains(&key) {
        return Err(BANNED.into());
    }
    if let Some(seat) = host.lobby.names.iter().position(|n| name_key(n) == key) {
        return match (&host.secrets[seat], secret) {
            (Some(theirs), Some(given)) if theirs.matches(given) => Ok(seat),
            // Resumed from a save: the seat waits for its name, before the start only.
            (None, _) if seat != 0 && !host.lobby.started && !host.lobby.online[seat] => Ok(seat),
            // The same words whether the seat is taken or away: a stranger
            // learns nothing about who sits here.
            _ => Err(format!("the name {name} is taken at this table: choose another")),
        };
    }
    if host.lobby.started {
        return Err("the game has started: only its players can rejoin".into());
    }
    if host.lobby.names.len() > MAX_PLAYERS {
        return Err("the table is full".into());
    }
    host.lobby.names.push(name);
    host.lobby.online.push(false);
    host.lobby.stand_ins.push(None);
    host.secrets.push(None);
    Ok(host.lobby.names.len() - 1)
}

impl HostedGame {
    /// The connection of the player at `seat`, if connected (for a host that
    /// wants to show who is on which address).
    pub fn connection(&self, seat: usize) -> Option<ClientId> {
        self.client_of(seat)
    }
}
