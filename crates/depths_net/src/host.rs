//! The host: the only rules core that applies actions. Players join under a
//! name and get a seat; the host starts the game; every action — a remote
//! player's or the host's own — is checked for its seat and by the rules,
//! applied, and sent to every player with a checksum of the result.
//!
//! Companions are the host's alone: only the host seats them
//! ([`SeatCompanion`], a numbered step every copy takes in order) and only
//! the host's Companions move ([`CompanionAct`], checked, applied and sent
//! like any action). A player's ask to seat one is refused.

use std::{collections::BTreeMap, time::Instant};

use bevy::{log::warn, prelude::*};
use depths_rules::{Action, Event, Game};
use depths_seats::seats::{Players, Turn, companion_may_take, seats_may_take};
use iroh::{PublicKey, SecretKey};

use crate::{
    invite::{Admission, Invite},
    link::{Closed, ConnId, HostLink, NetEvent},
    log_limit::LogLimit,
    protocol::{
        Lobby, MAX_FROM_PLAYER, PROTOCOL_VERSION, Snapshot, ToHost, ToPlayer, WireError, decode_to_host, encode,
        name_key, normal_name,
    },
    shared_game::SharedGame,
    transport::{CLOSED, MAX_PLAYERS, NetError, Relays, endpoint},
};

/// What a banned player is told, when sent away and when they try again.
const BANNED: &str = "the host has sent you away from this table";

/// The log's source for every connection without a seat: strangers minting
/// keys share one line a second.
const STRANGERS: &str = "connections without a seat";

pub struct HostPlugin;

impl Plugin for HostPlugin {
    fn build(&self, app: &mut App) {
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
        app.add_message::<Returning>();
        app.add_systems(
            Update,
            (host_inputs, receive_from_players)
                .chain()
                .in_set(crate::schedule::NetSystems)
                .run_if(resource_exists::<HostLink>),
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

/// The players of the saved game the host resumes, each with the key that
/// sat at its seat: each seat waits in the lobby under its name, away, and
/// that key alone sits down in it again, with any invite or none (a host
/// that restarted makes a new invite; the players' Reconnect still holds
/// the old one). Seats of an earlier `Returning` still empty are freed
/// first: an empty list takes the offer back (the host chose another game).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct Returning(pub Vec<(String, PublicKey)>);

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
/// `ban`: their name and key cannot come back to this table. Before the
/// game starts the seat is freed for someone else; during play it is away
/// (its Heroes wait, or the host stands in or seats Companions) and its key
/// no longer opens it.
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
    /// Connections sent away before they had a seat (a first message that
    /// was not a join the host took).
    pub turned_away: u64,
    /// Time spent checking, applying and relaying the applied actions (the
    /// host's cost per action is this over `applied`), and the longest one.
    pub take_time: std::time::Duration,
    pub take_time_max: std::time::Duration,
}

/// One connection: its seat once it joined, and whose key it is.
#[derive(Clone, Copy, Debug)]
struct Conn {
    seat: Option<usize>,
    key: PublicKey,
}

/// The host's table: the seats, who is connected as which seat, and the game.
#[derive(Resource, Default, Debug)]
pub struct HostedGame {
    pub lobby: Lobby,
    pub shared: Option<SharedGame>,
    pub stats: HostStats,
    /// What players need to join (set by [`open`]): the host's key, how to
    /// reach it, and the admission secret.
    pub invite: Option<Invite>,
    /// Connected players by connection, with their seat once they joined.
    clients: BTreeMap<ConnId, Conn>,
    /// Per seat, the key that sat in it: only that key takes it back.
    keys: Vec<Option<PublicKey>>,
    /// Names (their comparison keys) and keys sent away for good.
    banned_names: Vec<String>,
    banned_keys: Vec<PublicKey>,
    /// The keys of a resumed game's players ([`Returning`]): their seats
    /// wait for them, and are not freed when they drop before the start.
    returning: Vec<PublicKey>,
    /// Per seat whose connection went quiet, the seconds since anything came
    /// from it (from [`crate::link::QUIET_AFTER`]); gone when it speaks.
    pub quiet: BTreeMap<usize, u64>,
    /// The last seats refused, newest last, for the lobby to show: who asked
    /// (the name they gave) and why.
    pub refused_seats: Vec<(String, String)>,
    /// At most a line a second from any one source.
    log: LogLimit,
}

impl HostedGame {
    fn seat_of(&self, client: ConnId) -> Option<usize> {
        self.clients.get(&client).and_then(|c| c.seat)
    }

    fn client_of(&self, seat: usize) -> Option<ConnId> {
        self.clients.iter().find(|(_, c)| c.seat == Some(seat)).map(|(c, _)| *c)
    }

    /// The key that sits at each seat (None: nobody has sat there yet), for
    /// the save of the game: a host that resumes it admits these keys again.
    pub fn seat_keys(&self) -> &[Option<PublicKey>] {
        &self.keys
    }

    /// [`HostedGame::seat_keys`] as text, as a save writes them.
    pub fn seat_key_texts(&self) -> Vec<Option<String>> {
        self.keys.iter().map(|k| k.map(|k| k.to_string())).collect()
    }

    /// How many connections are open (seated or not), for the tests.
    pub fn connections(&self) -> usize {
        self.clients.len()
    }

    /// The key players dial.
    pub fn key(&self) -> Option<PublicKey> {
        self.invite.as_ref().map(Invite::key)
    }

    /// Whether a log line about `source` may be written now, and its ending.
    fn log_line(&mut self, source: &str) -> Option<String> {
        self.log.line(source, Instant::now())
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

/// Starts hosting as the player `name`, with this machine's `key`, reached
/// through `relays`, with a new invite ([`HostedGame::invite`]: pass it on).
pub fn open(world: &mut World, key: SecretKey, relays: &Relays, name: &str) -> Result<Invite, NetError> {
    let name = normal_name(name).map_err(NetError::Refused)?;
    let wake = world.get_resource::<crate::link::NetWake>().and_then(|w| w.0.clone());
    let mut link = HostLink::open(endpoint(key, relays, true), wake)?;
    // The players' way in where no lookup service can tell them: our own relay.
    if let Relays::Own(url) = relays
        && link.addr.relay_urls().next().is_none()
    {
        link.addr = link.addr.clone().with_relay_url(url.clone());
    }
    let invite = Invite::new(link.addr.clone());
    world.insert_resource(link);
    let mut host = world.resource_mut::<HostedGame>();
    host.lobby = Lobby { names: vec![name], online: vec![true], stand_ins: vec![None], started: false };
    host.keys = vec![None];
    host.returning.clear();
    host.refused_seats.clear();
    host.invite = Some(invite.clone());
    Ok(invite)
}

/// Stops hosting: tells every player the table closed, forgets the table.
pub fn close(world: &mut World) {
    if let Some(link) = world.remove_resource::<HostLink>() {
        let mut host = world.resource_mut::<HostedGame>();
        for client in host.clients.keys().copied().collect::<Vec<_>>() {
            goodbye(&mut host, &link, client, CLOSED);
        }
    }
    *world.resource_mut::<HostedGame>() = HostedGame::default();
}

/// Makes a new invite for the table: from now on only it lets anyone in
/// (the old one stops working for new connections; the players at the
/// table stay, and a player who drops needs the new one to come back).
pub fn new_invite(world: &mut World) -> Result<Invite, NetError> {
    let Some(link) = world.get_resource::<HostLink>() else {
        return Err(NetError::Refused("no table is open".into()));
    };
    let invite = Invite::new(link.addr.clone());
    world.resource_mut::<HostedGame>().invite = Some(invite.clone());
    Ok(invite)
}

fn send(link: &HostLink, stats: &mut HostStats, client: ConnId, message: &ToPlayer) {
    let bytes = encode(message);
    stats.bytes_out += bytes.len() as u64;
    if matches!(message, ToPlayer::Snapshot(_)) {
        stats.snapshots_sent += 1;
    }
    link.send(client, bytes);
}

/// To every player who has a seat.
fn broadcast(link: &HostLink, host: &mut HostedGame, message: &ToPlayer) {
    let bytes = encode(message);
    for client in host.clients.iter().filter(|(_, c)| c.seat.is_some()).map(|(c, _)| *c).collect::<Vec<_>>() {
        host.stats.bytes_out += bytes.len() as u64;
        if matches!(message, ToPlayer::Snapshot(_)) {
            host.stats.snapshots_sent += 1;
        }
        link.send(client, bytes.clone());
    }
}

/// Who is at the table, to every seated player (whenever it changes).
fn broadcast_lobby(link: &HostLink, host: &mut HostedGame) {
    let lobby = ToPlayer::Lobby(host.lobby.clone());
    broadcast(link, host, &lobby);
}

/// A connection ended: its seat, if it had one, is away (before the start,
/// free again).
fn disconnected(host: &mut HostedGame, link: &HostLink, client: ConnId, why: &Closed) {
    // A connection replaced by a rejoin, or sent away, is no longer here.
    let Some(conn) = host.clients.remove(&client) else { return };
    let Some(seat) = conn.seat else { return };
    info!("{} left the table ({why:?})", host.lobby.name(seat));
    host.lobby.online[seat] = false;
    let waited_for = host.keys[seat].is_some_and(|k| host.returning.contains(&k));
    if !host.lobby.started && !waited_for {
        // Gone before the start: the seat is free again (a departed
        // stranger must not block Start).
        free_seat(host, link, seat);
    }
    broadcast_lobby(link, host);
}

/// What a player of protocol `theirs` is told.
fn other_version(theirs: u32) -> String {
    let (newer, older) = if theirs < PROTOCOL_VERSION { ("the host's", "yours") } else { ("yours", "the host's") };
    format!(
        "the host's game is another version (online protocol {PROTOCOL_VERSION}, yours {theirs}): {newer} is newer \
         than {older}; play the same release as the host"
    )
}

/// Tells `client` why it must go, then closes its connection once that has
/// gone out; the table forgets it at once (what it sends after is not read).
fn goodbye(host: &mut HostedGame, link: &HostLink, client: ConnId, reason: &str) {
    send(link, &mut host.stats, client, &ToPlayer::Goodbye { reason: reason.to_owned() });
    link.close(client, reason);
    host.clients.remove(&client);
}

/// Removes seat `seat` from a lobby whose game has not started; the seats
/// after it move down one, and their players are told their new number.
fn free_seat(host: &mut HostedGame, link: &HostLink, seat: usize) {
    if host.lobby.started || seat == 0 || seat >= host.lobby.names.len() {
        return;
    }
    host.lobby.names.remove(seat);
    host.lobby.online.remove(seat);
    host.lobby.stand_ins.remove(seat);
    host.keys.remove(seat);
    for stand_in in &mut host.lobby.stand_ins {
        *stand_in = None;
    }
    let moved: Vec<(ConnId, usize)> = host
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
        send(link, &mut host.stats, client, &ToPlayer::Welcome { seat });
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
    mut returning: MessageReader<Returning>,
    mut host: ResMut<HostedGame>,
    link: Res<HostLink>,
    (mut applied, mut seated, mut took_back): (
        MessageWriter<Applied>,
        MessageWriter<CompanionSeated>,
        MessageWriter<TookBack>,
    ),
    mut refused: MessageWriter<HostRefused>,
) {
    for Returning(players) in returning.read() {
        if let Err(reason) = await_returning(&mut host, &link, players) {
            refused.write(HostRefused(reason));
        }
        link.set_seats(host.keys.iter().flatten().copied());
        broadcast_lobby(&link, &mut host);
    }
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
        broadcast_lobby(&link, &mut host);
        let snapshot = ToPlayer::Snapshot(Snapshot::of(host.shared.as_ref().expect("just set")));
        broadcast(&link, &mut host, &snapshot);
    }
    for &Kick { seat, ban } in kicks.read() {
        if let Err(reason) = kick(&mut host, &link, seat, ban) {
            refused.write(HostRefused(reason));
        }
        link.set_seats(host.keys.iter().flatten().copied());
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
        broadcast_lobby(&link, &mut host);
    }
    // In the order the host made them: a seat change, then the moves judged after it.
    for &SeatCompanion { hero, on } in seatings.read() {
        match seat(&mut host, &link, hero, on) {
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
        match take_back(&mut host, &link, None, None) {
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
        match take(&mut host, &link, by, action.clone()) {
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
fn kick(host: &mut HostedGame, link: &HostLink, seat: usize, ban: bool) -> Result<(), String> {
    if seat == 0 || seat >= host.lobby.names.len() {
        return Err(format!("there is no player at seat {seat} to send away"));
    }
    let name = host.lobby.name(seat).to_owned();
    let client = host.client_of(seat);
    if ban {
        host.banned_names.push(name_key(&name));
        host.banned_keys.extend(host.keys[seat]);
    }
    // Their key no longer opens the seat: only the host can let them back.
    host.keys[seat] = None;
    if let Some(client) = client {
        let reason = if ban { BANNED } else { "the host asked you to leave the table" };
        goodbye(host, link, client, reason);
    }
    info!("{name} was sent away{}", if ban { " for good" } else { "" });
    host.lobby.online[seat] = false;
    free_seat(host, link, seat);
    broadcast_lobby(link, host);
    Ok(())
}

/// Seats or unseats a Companion as the next numbered step and tells every
/// player; `None` when nothing changed (no step, no message).
fn seat(host: &mut HostedGame, link: &HostLink, hero: u8, on: bool) -> Result<Option<CompanionSeated>, String> {
    let Some(shared) = host.shared.as_mut() else { return Err("the game has not started".into()) };
    if shared.game.is_over() {
        return Err("the game is over".into());
    }
    if !shared.seat_companion(hero, on)? {
        return Ok(None);
    }
    let (seq, checksum) = (shared.seq, shared.checksum());
    broadcast(link, host, &ToPlayer::Companion { seq, hero, on, checksum });
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
fn take(host: &mut HostedGame, link: &HostLink, by: Mover, action: Action) -> Result<Applied, String> {
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
    broadcast(link, host, &ToPlayer::Applied { seq, seat, action: action.clone(), checksum, companion });
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
    link: &HostLink,
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
    broadcast(link, host, &ToPlayer::TakenBack { seq, checksum });
    Ok(TookBack { seq, action, by })
}

/// What the engine handed over, in the order it came: connections opened
/// and closed, and every player's messages.
fn receive_from_players(
    mut host: ResMut<HostedGame>,
    link: Res<HostLink>,
    mut applied: MessageWriter<Applied>,
    mut took_back: MessageWriter<TookBack>,
) {
    while let Some(event) = link.next() {
        // Any word from a seat's connection: it is not quiet.
        if let (false, Some(seat)) = (matches!(event, NetEvent::Quiet { .. }), host.seat_of(event_conn(&event))) {
            host.quiet.remove(&seat);
        }
        match event {
            NetEvent::Quiet { conn, secs } => {
                if let Some(seat) = host.seat_of(conn) {
                    host.quiet.insert(seat, secs);
                }
            }
            NetEvent::Heard { .. } => {}
            NetEvent::Opened { conn, key } => {
                host.clients.insert(conn, Conn { seat: None, key });
            }
            NetEvent::Message { conn, bytes } => {
                // A connection sent away is not read any more.
                if !host.clients.contains_key(&conn) {
                    continue;
                }
                host.stats.bytes_in += bytes.len() as u64;
                match decode_to_host(&bytes) {
                    Ok(message) => match handle(&mut host, &link, conn, message) {
                        Some(Step::Applied(a)) => {
                            applied.write(a);
                        }
                        Some(Step::TookBack(t)) => {
                            took_back.write(t);
                        }
                        None => {}
                    },
                    Err(e) => drop_bad(&mut host, &link, conn, &e),
                }
            }
            NetEvent::TooLarge { conn, len } => {
                if host.clients.contains_key(&conn) {
                    drop_bad(&mut host, &link, conn, &WireError::TooLarge { len, max: MAX_FROM_PLAYER });
                }
            }
            NetEvent::Closed { conn, why } => disconnected(&mut host, &link, conn, &why),
        }
    }
    link.set_seats(host.keys.iter().flatten().copied());
}

/// The connection an event is about.
fn event_conn(event: &NetEvent) -> ConnId {
    match event {
        NetEvent::Opened { conn, .. }
        | NetEvent::Message { conn, .. }
        | NetEvent::TooLarge { conn, .. }
        | NetEvent::Closed { conn, .. }
        | NetEvent::Quiet { conn, .. }
        | NetEvent::Heard { conn } => *conn,
    }
}

/// Who a connection is, for the log: its seat's name, or one of the strangers.
fn source(host: &HostedGame, client: ConnId) -> String {
    host.seat_of(client).map_or_else(|| STRANGERS.to_owned(), |s| host.lobby.name(s).to_owned())
}

/// A message that is not one: dropped, logged with its source (a line a
/// second at most), and the sender told (its client shows it), never a
/// crash. A connection without a seat is sent away.
fn drop_bad(host: &mut HostedGame, link: &HostLink, client: ConnId, error: &WireError) {
    host.stats.dropped += 1;
    let who = source(host, client);
    let reason = format!("the host could not read your message: {error}");
    // A flood costs a line a second, not a line each. (Each is answered: a
    // sender that does not read the answers is cut off, `link::MAX_WAITING`.)
    if let Some(more) = host.log_line(&who) {
        warn!("dropped a message from {who}: {error}{more}");
    }
    if host.seat_of(client).is_none() {
        host.stats.turned_away += 1;
        goodbye(host, link, client, &reason);
    } else {
        send(link, &mut host.stats, client, &ToPlayer::Refused { action: None, reason });
    }
}

/// What a player's message made happen at the table.
enum Step {
    Applied(Applied),
    TookBack(TookBack),
}

fn handle(host: &mut HostedGame, link: &HostLink, client: ConnId, message: ToHost) -> Option<Step> {
    let refuse = |host: &mut HostedGame, link: &HostLink, action: Option<Action>, reason: String| {
        host.stats.refused += 1;
        send(link, &mut host.stats, client, &ToPlayer::Refused { action, reason });
    };
    if host.seat_of(client).is_none() && !matches!(message, ToHost::Join { .. }) {
        // The first message is a join, or the connection goes.
        host.stats.turned_away += 1;
        goodbye(host, link, client, "join the table first");
        return None;
    }
    match message {
        ToHost::Join { name, version, admission } => {
            // One seat per connection: a second join would leave the first
            // seat "online" with nobody behind it.
            if let Some(seat) = host.seat_of(client) {
                let reason = format!("you already sit at the table as {}", host.lobby.name(seat));
                refuse(host, link, None, reason);
                return None;
            }
            let key = host.clients[&client].key;
            match seat_for(host, key, &name, version, admission.as_ref()) {
                Ok(seat) => {
                    // The same player on a new connection (a crash, a new
                    // network): the old one is replaced now, not after its
                    // timeout. Only their own key gets here.
                    if let Some(stale) = host.client_of(seat) {
                        info!("{} is back on a new connection: closing the old one", host.lobby.name(seat));
                        goodbye(host, link, stale, "you sat down again on another connection");
                    }
                    if let Some(conn) = host.clients.get_mut(&client) {
                        conn.seat = Some(seat);
                    }
                    host.lobby.online[seat] = true;
                    // Back at the table: nobody needs to stand in any more.
                    host.lobby.stand_ins[seat] = None;
                    info!("{} sits at seat {seat}", host.lobby.name(seat));
                    host.keys[seat] = Some(key);
                    send(link, &mut host.stats, client, &ToPlayer::Welcome { seat });
                    broadcast_lobby(link, host);
                    if let Some(shared) = &host.shared {
                        let snapshot = ToPlayer::Snapshot(Snapshot::of(shared));
                        send(link, &mut host.stats, client, &snapshot);
                    }
                }
                Err(reason) => {
                    if let Some(more) = host.log_line(STRANGERS) {
                        warn!("refused a seat to {name:?}: {reason}{more}");
                    }
                    note_refusal(host, &name, &reason);
                    host.stats.refused += 1;
                    host.stats.turned_away += 1;
                    goodbye(host, link, client, &reason);
                }
            }
            None
        }
        ToHost::Act(action) => {
            let seat = host.seat_of(client)?;
            match take(host, link, Mover::Seat(seat), action.clone()) {
                Ok(a) => Some(Step::Applied(a)),
                Err(reason) => {
                    send(link, &mut host.stats, client, &ToPlayer::Refused { action: Some(action), reason });
                    None
                }
            }
        }
        ToHost::Resync => {
            match (&host.shared, host.seat_of(client)) {
                (Some(shared), Some(_)) => {
                    let snapshot = ToPlayer::Snapshot(Snapshot::of(shared));
                    send(link, &mut host.stats, client, &snapshot);
                }
                _ => refuse(host, link, None, "there is no game to send yet".into()),
            }
            None
        }
        ToHost::SetCompanion { .. } => {
            refuse(host, link, None, "only the host seats Companions".into());
            None
        }
        ToHost::TakeBack { seq } => {
            let seat = host.seat_of(client)?;
            match take_back(host, link, Some(seat), Some(seq)) {
                Ok(t) => Some(Step::TookBack(t)),
                Err(reason) => {
                    refuse(host, link, None, reason);
                    None
                }
            }
        }
    }
}

/// The seat for the player with `key` joining as `name`: their own seat
/// back (their key sat in it: no secret, whatever the name), else, with the
/// invite's `admission` secret, a new one while the game has not begun. A
/// name is never proof. A seat of a game resumed from a save has no key
/// until its player first sits down again (by name, with the invite, in the
/// lobby the host watches), unless the host offers it to its saved key
/// ([`Returning`]).
fn seat_for(
    host: &mut HostedGame,
    key: PublicKey,
    name: &str,
    version: u32,
    admission: Option<&Admission>,
) -> Result<usize, String> {
    if version != PROTOCOL_VERSION {
        return Err(other_version(version));
    }
    if host.banned_keys.contains(&key) {
        return Err(BANNED.into());
    }
    if let Some(seat) = host.keys.iter().position(|k| *k == Some(key)) {
        return Ok(seat);
    }
    let invited = host.invite.as_ref().zip(admission).is_some_and(|(invite, given)| invite.admission().admits(given));
    if !invited {
        return Err("this invite is not the host's current one: ask the host for the new invite".into());
    }
    let name = normal_name(name)?;
    let named = name_key(&name);
    if host.banned_names.contains(&named) {
        return Err(BANNED.into());
    }
    if let Some(seat) = host.lobby.names.iter().position(|n| name_key(n) == named) {
        return match host.keys[seat] {
            // Resumed from a save: the seat waits for its name, before the start only.
            None if seat != 0 && !host.lobby.started && !host.lobby.online[seat] => Ok(seat),
            // The same words whether the seat is taken or away: a stranger
            // learns nothing about who sits here.
            _ => Err(format!("the name {name} is taken at this table: choose another")),
        };
    }
    if host.lobby.started {
        return Err("the game has started: only its players can rejoin".into());
    }
    add_seat(host, name, None)
}

/// A new seat at the lobby's end for `name`, away until its player's
/// connection takes it, with the `key` it waits for (None: the first to sit
/// down in it); or why not.
fn add_seat(host: &mut HostedGame, name: String, key: Option<PublicKey>) -> Result<usize, String> {
    if host.lobby.names.len() > MAX_PLAYERS {
        return Err("the table is full".into());
    }
    host.lobby.names.push(name);
    host.lobby.online.push(false);
    host.lobby.stand_ins.push(None);
    host.keys.push(key);
    Ok(host.lobby.names.len() - 1)
}

/// How many refused seats the lobby keeps to show.
const REFUSALS_KEPT: usize = 5;

/// Keeps a refused seat for the lobby (a name cut to a line: it comes from
/// a stranger).
fn note_refusal(host: &mut HostedGame, name: &str, reason: &str) {
    let name: String = name.chars().filter(|c| !c.is_control()).take(24).collect();
    host.refused_seats.push((name, reason.to_owned()));
    let extra = host.refused_seats.len().saturating_sub(REFUSALS_KEPT);
    host.refused_seats.drain(..extra);
}

/// The seats a resumed game's players come back to ([`Returning`]): the
/// offer of an earlier one taken back where nobody sat down, then each
/// player's seat found by their key, or their name, or added, away.
fn await_returning(host: &mut HostedGame, link: &HostLink, players: &[(String, PublicKey)]) -> Result<(), String> {
    if host.lobby.started {
        return Err("the game has already started".into());
    }
    let old = std::mem::take(&mut host.returning);
    while let Some(seat) =
        (1..host.keys.len()).rev().find(|&s| !host.lobby.online[s] && host.keys[s].is_some_and(|k| old.contains(&k)))
    {
        free_seat(host, link, seat);
    }
    for (name, key) in players {
        if host.banned_keys.contains(key) || host.keys.first() == Some(&Some(*key)) {
            continue;
        }
        host.returning.push(*key);
        if host.keys.contains(&Some(*key)) {
            continue;
        }
        let name = normal_name(name)?;
        let named = name_key(&name);
        // Sat down by name with the new invite before the offer: theirs.
        if host.lobby.names.iter().any(|n| name_key(n) == named) {
            continue;
        }
        add_seat(host, name, Some(*key))?;
    }
    Ok(())
}

impl HostedGame {
    /// The connection of the player at `seat`, if connected (for a host that
    /// wants to show who is on which address).
    pub fn connection(&self, seat: usize) -> Option<ConnId> {
        self.client_of(seat)
    }
}
