//! A remote player: joins the host's table under a name, sends the actions
//! its seat makes, and keeps its own copy of the game by applying what the
//! host applied. A copy whose checksum differs from the host's (or that
//! missed an action) asks for the host's whole table and starts again from it.
//! Seat changes (a Companion seated or a seat given back) come the same way,
//! numbered among the actions; a player runs no Companion of its own.

use bevy::{log::warn, prelude::*};
use bevy_renet::{RenetClient, RenetClientPlugin, netcode::NetcodeDisconnectReason};
use depths_rules::{Action, Event};

use crate::{
    invite::Invite,
    link::PlayerLink,
    protocol::{Lobby, PROTOCOL_VERSION, SeatSecret, ToHost, ToPlayer, decode_to_player, encode},
    shared_game::SharedGame,
    transport::{CHANNEL, NetError, TIMEOUT_SECONDS, client_transport},
};

pub struct ClientPlugin;

impl Plugin for ClientPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<RenetClientPlugin>() {
            app.add_plugins(RenetClientPlugin);
            crate::link::plugin(app);
        }
        crate::transport::plugin(app);
        app.init_resource::<JoinedGame>();
        app.add_message::<SendAction>();
        app.add_message::<RemoteApplied>();
        app.add_message::<AskCompanion>();
        app.add_message::<RemoteCompanion>();
        app.add_message::<Refusal>();
        app.add_message::<AskTakeBack>();
        app.add_message::<RemoteTookBack>();
        app.add_systems(
            Update,
            (join_when_connected, receive_from_host, send_actions)
                .chain()
                .in_set(crate::schedule::NetSystems)
                .run_if(resource_exists::<RenetClient>),
        );
    }
}

/// Ask the host to take this action for my seat.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct SendAction(pub Action);

/// The host applied an action and this copy did too (the client's table
/// reacts to the events as in a local game).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct RemoteApplied {
    pub seq: u64,
    pub seat: usize,
    pub action: Action,
    pub events: Vec<Event>,
    /// A Companion's move (made on the host's table).
    pub companion: bool,
}

/// Ask the host to seat a Companion at Hero `hero` (`on`) or give it back.
/// Only the host seats Companions: the answer is a [`Refusal`] saying so.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct AskCompanion {
    pub hero: u8,
    pub on: bool,
}

/// The host seated a Companion at Hero `hero` (`on`) or gave the seat back,
/// as the `seq`-th step, and this copy did too (the client's table follows
/// it in `seq` order with the [`RemoteApplied`] actions).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct RemoteCompanion {
    pub seq: u64,
    pub hero: u8,
    pub on: bool,
}

/// Ask the host to take back my seat's last move (one that revealed nothing).
/// The answer is a [`RemoteTookBack`], or a [`Refusal`] saying why not.
#[derive(Message, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AskTakeBack;

/// The host took back the last move as the `seq`-th step, and this copy did
/// too (`action`: the move taken back, for the client's table to lift).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct RemoteTookBack {
    pub seq: u64,
    pub action: Action,
}

/// The host did not take my message, and why (for the player to read).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct Refusal(pub String);

/// Where the connection stands, for the client to show.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Link {
    #[default]
    Idle,
    Connecting,
    /// Connected, waiting for a seat.
    Joining,
    /// At the table (in the lobby, or playing).
    Seated,
    /// This copy is being replaced by the host's.
    Resyncing,
    /// The connection is gone, and why.
    Lost(String),
}

/// What a player knows of the table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClientStats {
    pub applied: u64,
    pub resyncs: u64,
    pub dropped: u64,
    pub bytes_in: u64,
    pub bytes_out: u64,
}

#[derive(Resource, Default, Debug)]
pub struct JoinedGame {
    pub name: String,
    /// The invite this player joined with (to reconnect with).
    pub invite: Option<Invite>,
    /// The seat's secret from the host (keep it: it takes the seat back).
    pub secret: Option<SeatSecret>,
    pub seat: Option<usize>,
    pub lobby: Lobby,
    /// This player's copy of the game, once the host started it.
    pub shared: Option<SharedGame>,
    pub link: Link,
    /// The host's last refusal, for the client to show.
    pub refusal: Option<String>,
    pub stats: ClientStats,
    joined: bool,
    /// The host's own words for why it closes the connection, kept for when
    /// the connection is gone.
    goodbye: Option<String>,
}

impl JoinedGame {
    /// The seats the table waits for (see [`Lobby::waiting_for_at`]): the banner.
    pub fn waiting_for(&self) -> Vec<usize> {
        match &self.shared {
            Some(shared) if self.lobby.started => self.lobby.waiting_for_at(&shared.players),
            _ if self.lobby.started => self.lobby.waiting_for(),
            _ => Vec::new(),
        }
    }

    /// In step with the host: seated, a game, and not resynchronising.
    pub fn in_sync(&self) -> bool {
        self.link == Link::Seated && self.shared.is_some()
    }
}

/// Dials the host of `invite` as the player `name`: a new seat, or with
/// `secret` (from an earlier [`ToPlayer::Welcome`]) one's own seat back. A
/// connection already open is replaced.
pub fn join(world: &mut World, invite: &Invite, name: &str, secret: Option<SeatSecret>) -> Result<(), NetError> {
    let wake = world.get_resource::<crate::socket::NetWake>().and_then(|w| w.0.clone());
    let (client, transport) = client_transport(invite, wake)?;
    world.insert_resource(client);
    world.insert_resource(transport);
    let mut remote = world.resource_mut::<JoinedGame>();
    remote.name = name.to_owned();
    remote.invite = Some(invite.clone());
    remote.secret = secret;
    remote.link = Link::Connecting;
    remote.joined = false;
    remote.goodbye = None;
    Ok(())
}

/// Dials the same table again with the same name and seat secret (after a drop).
pub fn reconnect(world: &mut World) -> Result<(), NetError> {
    let remote = world.resource::<JoinedGame>();
    let Some(invite) = remote.invite.clone() else {
        return Err(NetError::Netcode("there is no table to reconnect to".into()));
    };
    let (name, secret) = (remote.name.clone(), remote.secret.clone());
    join(world, &invite, &name, secret)
}

/// Why a connection ended, in words for the player, with what to do next.
pub fn why_lost(reason: Option<NetcodeDisconnectReason>) -> String {
    use NetcodeDisconnectReason::*;
    match reason {
        Some(ConnectionTimedOut) => {
            format!("the host stopped answering (nothing for {TIMEOUT_SECONDS} s): check your network, then Reconnect")
        }
        Some(ConnectionRequestTimedOut | ConnectionResponseTimedOut) => {
            "the host did not answer: check that the invite is the current one and that the host's table is open".into()
        }
        Some(ConnectionDenied) => "the host's table is full: ask the host, then try again".into(),
        Some(ConnectTokenExpired) => "the invite's connection expired before the host answered: Reconnect".into(),
        Some(DisconnectedByServer) => "the host closed the connection".into(),
        Some(DisconnectedByClient) => "you left the table".into(),
        None => "the connection closed".into(),
    }
}

/// Leaves the table (the host sees the seat go away).
pub fn leave(world: &mut World) {
    if let Some(mut client) = world.get_resource_mut::<RenetClient>() {
        client.disconnect();
    }
    world.resource_mut::<JoinedGame>().link = Link::Lost("you left the table".into());
}

/// Closes the connection (the host sees the seat go away) and forgets the table.
pub fn close(world: &mut World) {
    if let Some(mut transport) = world.remove_resource::<PlayerLink>() {
        transport.disconnect();
    }
    world.remove_resource::<RenetClient>();
    *world.resource_mut::<JoinedGame>() = JoinedGame::default();
}

fn send(client: &mut RenetClient, remote: &mut JoinedGame, message: &ToHost) {
    let bytes = encode(message);
    remote.stats.bytes_out += bytes.len() as u64;
    client.send_message(CHANNEL, bytes);
}

fn join_when_connected(
    mut client: ResMut<RenetClient>,
    mut remote: ResMut<JoinedGame>,
    transport: Option<Res<PlayerLink>>,
) {
    if client.is_disconnected() {
        if !matches!(remote.link, Link::Lost(_) | Link::Idle) {
            // Gone on its own (the host left, a timeout): say why, in the
            // host's words if it gave them.
            let why = remote.goodbye.clone().unwrap_or_else(|| why_lost(transport.and_then(|t| t.disconnect_reason())));
            remote.link = Link::Lost(why);
        }
        return;
    }
    if client.is_connected() && !remote.joined {
        remote.joined = true;
        remote.link = Link::Joining;
        let join = ToHost::Join { name: remote.name.clone(), version: PROTOCOL_VERSION, secret: remote.secret.clone() };
        send(&mut client, &mut remote, &join);
    }
}

fn send_actions(
    mut actions: MessageReader<SendAction>,
    mut asks: MessageReader<AskCompanion>,
    mut take_backs: MessageReader<AskTakeBack>,
    mut client: ResMut<RenetClient>,
    mut remote: ResMut<JoinedGame>,
) {
    let asks = asks.read().map(|&AskCompanion { hero, on }| ToHost::SetCompanion { hero, on });
    let seen = remote.shared.as_ref().map_or(0, |t| t.seq);
    let take_backs = take_backs.read().map(|_| ToHost::TakeBack { seq: seen }).collect::<Vec<_>>();
    for message in actions.read().map(|SendAction(a)| ToHost::Act(a.clone())).chain(asks).chain(take_backs) {
        if !client.is_connected() {
            remote.refusal = Some("not connected to the host".into());
            continue;
        }
        send(&mut client, &mut remote, &message);
    }
}

/// Takes the host's `seq`-th step on this copy: the next one, ending at the
/// host's `checksum`; else why not (a gap, a difference).
fn step<T>(
    shared: &mut SharedGame,
    seq: u64,
    checksum: u64,
    take: impl FnOnce(&mut SharedGame) -> Result<T, String>,
) -> Result<T, String> {
    if seq != shared.seq + 1 {
        return Err(format!("missed steps {} to {}", shared.seq + 1, seq - 1));
    }
    let done = take(shared)?;
    if shared.checksum() == checksum { Ok(done) } else { Err("checksum differs".to_owned()) }
}

/// This copy, if it takes the host's `seq`-th step: not while a whole table
/// is on its way, and not a step it already took.
fn awaiting(remote: &mut JoinedGame, seq: u64) -> Option<&mut SharedGame> {
    if remote.link == Link::Resyncing {
        return None;
    }
    remote.shared.as_mut().filter(|t| seq > t.seq)
}

/// Out of step: ask for the host's table and ignore its steps until it comes.
fn resync(client: &mut RenetClient, remote: &mut JoinedGame, seq: u64, why: &str) {
    warn!("out of step with the host after step {seq} ({why}): asking for its table");
    remote.link = Link::Resyncing;
    remote.stats.resyncs += 1;
    send(client, remote, &ToHost::Resync);
}

fn receive_from_host(
    mut client: ResMut<RenetClient>,
    mut remote: ResMut<JoinedGame>,
    mut applied: MessageWriter<RemoteApplied>,
    mut seated: MessageWriter<RemoteCompanion>,
    mut refusals: MessageWriter<Refusal>,
    mut took_back: MessageWriter<RemoteTookBack>,
) {
    while let Some(bytes) = client.receive_message(CHANNEL) {
        remote.stats.bytes_in += bytes.len() as u64;
        let message = match decode_to_player(&bytes) {
            Ok(m) => m,
            Err(e) => {
                // Not something to act on; our copy may now be behind, which
                // the next action's number or checksum shows.
                remote.stats.dropped += 1;
                warn!("dropped a message from the host: {e}");
                continue;
            }
        };
        match message {
            ToPlayer::Welcome { seat, secret } => {
                remote.seat = Some(seat);
                remote.secret = Some(secret);
                remote.link = Link::Seated;
            }
            ToPlayer::Lobby(lobby) => remote.lobby = lobby,
            ToPlayer::Snapshot(snapshot) => match snapshot.shared() {
                Ok(shared) => {
                    remote.shared = Some(shared);
                    remote.link = Link::Seated;
                }
                Err(e) => {
                    warn!("{e}");
                    remote.link = Link::Lost(e);
                }
            },
            ToPlayer::Applied { seq, seat, action, checksum, companion } => {
                let Some(shared) = awaiting(&mut remote, seq) else { continue };
                // A Companion's move is the host's (its seat is 0's, for the seat checks).
                let by = (!companion).then_some(seat);
                match step(shared, seq, checksum, |t| t.apply(action.clone(), by).map_err(|e| e.to_string())) {
                    Ok(events) => {
                        remote.stats.applied += 1;
                        applied.write(RemoteApplied { seq, seat, action, events, companion });
                    }
                    Err(why) => resync(&mut client, &mut remote, seq, &why),
                }
            }
            ToPlayer::Companion { seq, hero, on, checksum } => {
                let Some(shared) = awaiting(&mut remote, seq) else { continue };
                // The host numbers only real changes: one that changes nothing here is a drift.
                let changed = |t: &mut SharedGame| match t.seat_companion(hero, on)? {
                    true => Ok(()),
                    false => Err(format!("Hero {hero}'s seat was already so")),
                };
                match step(shared, seq, checksum, changed) {
                    Ok(()) => {
                        seated.write(RemoteCompanion { seq, hero, on });
                    }
                    Err(why) => resync(&mut client, &mut remote, seq, &why),
                }
            }
            ToPlayer::TakenBack { seq, checksum } => {
                let Some(shared) = awaiting(&mut remote, seq) else { continue };
                // A copy that joined by a whole table has nothing to rewind: it resyncs.
                match step(shared, seq, checksum, |t| t.take_back().map_err(|e| e.to_string())) {
                    Ok(action) => {
                        took_back.write(RemoteTookBack { seq, action });
                    }
                    Err(why) => resync(&mut client, &mut remote, seq, &why),
                }
            }
            ToPlayer::Goodbye { reason } => {
                warn!("the host closes the connection: {reason}");
                remote.goodbye = Some(reason.clone());
                // Sent away: the seats are no longer this player's to see.
                remote.lobby = Lobby::default();
                remote.link = Link::Lost(reason.clone());
                remote.refusal = Some(reason.clone());
                refusals.write(Refusal(reason));
            }
            ToPlayer::Refused { reason, .. } => {
                // Refused a seat: there is nothing more to wait for.
                if remote.link == Link::Joining {
                    remote.link = Link::Lost(reason.clone());
                    client.disconnect();
                }
                remote.refusal = Some(reason.clone());
                refusals.write(Refusal(reason));
            }
        }
    }
}
