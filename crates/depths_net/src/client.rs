//! A remote player: joins the host's table under a name, sends the actions
//! its seat makes, and keeps its own copy of the game by applying what the
//! host applied. A copy whose checksum differs from the host's (or that
//! missed an action) asks for the host's whole table and starts again from it.
//! Seat changes (a Companion seated or a seat given back) come the same way,
//! numbered among the actions; a player runs no Companion of its own.

use bevy::{log::warn, prelude::*};
use depths_rules::{Action, Event};
use iroh::SecretKey;

use crate::{
    invite::Invite,
    link::{Closed, NetEvent, PlayerLink},
    protocol::{Lobby, MAX_FROM_HOST, PROTOCOL_VERSION, ToHost, ToPlayer, WireError, decode_to_player, encode},
    shared_game::SharedGame,
    transport::{NetError, Relays, TIMEOUT_SECONDS, endpoint},
};

pub struct ClientPlugin;

impl Plugin for ClientPlugin {
    fn build(&self, app: &mut App) {
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
            (receive_from_host, send_actions)
                .chain()
                .in_set(crate::schedule::NetSystems)
                .run_if(resource_exists::<PlayerLink>),
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
    pub seat: Option<usize>,
    pub lobby: Lobby,
    /// This player's copy of the game, once the host started it.
    pub shared: Option<SharedGame>,
    pub link: Link,
    /// The host's last refusal, for the client to show.
    pub refusal: Option<String>,
    pub stats: ClientStats,
    /// Seconds since anything came from the host, once that is
    /// [`crate::link::QUIET_AFTER`] or more (None: it speaks).
    pub quiet: Option<u64>,
    /// This machine's key and relays, to dial again with (the key is the seat).
    dial: Option<(SecretKey, Relays)>,
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

/// Dials the host of `invite` as the player `name`, with this machine's
/// `key` (a seat it sat in before is its own again) through `relays`. A
/// connection already open is replaced.
pub fn join(world: &mut World, invite: &Invite, name: &str, key: SecretKey, relays: &Relays) -> Result<(), NetError> {
    let wake = world.get_resource::<crate::link::NetWake>().and_then(|w| w.0.clone());
    let toward = relays.toward(invite.host.relay_urls().next());
    let link = PlayerLink::dial(endpoint(key.clone(), &toward, false), invite.host.clone(), wake)?;
    world.insert_resource(link);
    let mut remote = world.resource_mut::<JoinedGame>();
    // Another host's table: no seat there yet.
    if remote.invite.as_ref().is_none_or(|i| i.key() != invite.key()) {
        remote.seat = None;
    }
    remote.name = name.to_owned();
    remote.invite = Some(invite.clone());
    remote.dial = Some((key, relays.clone()));
    remote.link = Link::Connecting;
    remote.goodbye = None;
    Ok(())
}

/// Dials the same table again with the same name and key (after a drop).
pub fn reconnect(world: &mut World) -> Result<(), NetError> {
    let remote = world.resource::<JoinedGame>();
    let (Some(invite), Some((key, relays))) = (remote.invite.clone(), remote.dial.clone()) else {
        return Err(NetError::Refused("there is no table to reconnect to".into()));
    };
    let name = remote.name.clone();
    join(world, &invite, &name, key, &relays)
}

/// Why a connection ended, in words for the player, with what to do next;
/// `again`: it was a Reconnect to a table the player sat at (then the
/// invite was not pasted: a host that restarted may be elsewhere).
pub fn why_lost(why: &Closed, again: bool) -> String {
    match why {
        Closed::NotAnswered(engine) if again => format!(
            "the host did not answer ({engine}): if the host restarted the game, join with the invite they have now \
             (your seat is still yours)"
        ),
        Closed::TimedOut => {
            format!("the host stopped answering (nothing for {TIMEOUT_SECONDS} s): check your network, then Reconnect")
        }
        Closed::NotAnswered(engine) => format!(
            "the host did not answer ({engine}): check that the host's table is open and that you pasted all of \
             the invite"
        ),
        Closed::ByPeer(words) if words.is_empty() => "the host closed the connection".into(),
        Closed::ByPeer(words) => format!("the host closed the connection: {words}"),
        Closed::Here => "you left the table".into(),
        Closed::Lost(engine) => format!("the connection was lost ({engine}): Reconnect"),
    }
}

/// Leaves the table (the host sees the seat go away).
pub fn leave(world: &mut World) {
    if let Some(link) = world.get_resource::<PlayerLink>() {
        link.close();
    }
    world.resource_mut::<JoinedGame>().link = Link::Lost("you left the table".into());
}

/// Closes the connection (the host sees the seat go away) and forgets the table.
pub fn close(world: &mut World) {
    if let Some(link) = world.remove_resource::<PlayerLink>() {
        link.close();
    }
    *world.resource_mut::<JoinedGame>() = JoinedGame::default();
}

fn send(link: &PlayerLink, remote: &mut JoinedGame, message: &ToHost) {
    let bytes = encode(message);
    remote.stats.bytes_out += bytes.len() as u64;
    link.send(bytes);
}

fn send_actions(
    mut actions: MessageReader<SendAction>,
    mut asks: MessageReader<AskCompanion>,
    mut take_backs: MessageReader<AskTakeBack>,
    link: Res<PlayerLink>,
    mut remote: ResMut<JoinedGame>,
) {
    let asks = asks.read().map(|&AskCompanion { hero, on }| ToHost::SetCompanion { hero, on });
    let seen = remote.shared.as_ref().map_or(0, |t| t.seq);
    let take_backs = take_backs.read().map(|_| ToHost::TakeBack { seq: seen }).collect::<Vec<_>>();
    for message in actions.read().map(|SendAction(a)| ToHost::Act(a.clone())).chain(asks).chain(take_backs) {
        if !matches!(remote.link, Link::Joining | Link::Seated | Link::Resyncing) {
            remote.refusal = Some("not connected to the host".into());
            continue;
        }
        send(&link, &mut remote, &message);
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
fn resync(link: &PlayerLink, remote: &mut JoinedGame, seq: u64, why: &str) {
    warn!("out of step with the host after step {seq} ({why}): asking for its table");
    remote.link = Link::Resyncing;
    remote.stats.resyncs += 1;
    send(link, remote, &ToHost::Resync);
}

fn receive_from_host(
    link: Res<PlayerLink>,
    mut remote: ResMut<JoinedGame>,
    mut applied: MessageWriter<RemoteApplied>,
    mut seated: MessageWriter<RemoteCompanion>,
    mut refusals: MessageWriter<Refusal>,
    mut took_back: MessageWriter<RemoteTookBack>,
) {
    while let Some(event) = link.next() {
        if !matches!(event, NetEvent::Quiet { .. }) && remote.quiet.is_some() {
            remote.quiet = None;
        }
        let bytes = match event {
            NetEvent::Quiet { secs, .. } => {
                remote.quiet = Some(secs);
                continue;
            }
            NetEvent::Heard { .. } => continue,
            NetEvent::Opened { .. } => {
                // Connected: the first message is always the join.
                remote.link = Link::Joining;
                let admission = remote.invite.as_ref().map(Invite::admission);
                let join = ToHost::Join { name: remote.name.clone(), version: PROTOCOL_VERSION, admission };
                send(&link, &mut remote, &join);
                continue;
            }
            NetEvent::Closed { why, .. } => {
                if !matches!(remote.link, Link::Lost(_) | Link::Idle) {
                    // Gone on its own (the host left, a timeout): said once,
                    // in the host's words if it gave them.
                    let again = remote.seat.is_some();
                    let why = remote.goodbye.clone().unwrap_or_else(|| why_lost(&why, again));
                    info!("the connection to the host ended: {why}");
                    remote.link = Link::Lost(why);
                }
                continue;
            }
            NetEvent::TooLarge { len, .. } => {
                remote.stats.dropped += 1;
                warn!("dropped a message from the host: {}", WireError::TooLarge { len, max: MAX_FROM_HOST });
                continue;
            }
            NetEvent::Message { bytes, .. } => bytes,
        };
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
            ToPlayer::Welcome { seat } => {
                remote.seat = Some(seat);
                remote.link = Link::Seated;
            }
            ToPlayer::Lobby(lobby) => remote.lobby = lobby,
            ToPlayer::Snapshot(snapshot) => match snapshot.shared() {
                Ok(shared) => {
                    remote.shared = Some(shared);
                    remote.link = Link::Seated;
                }
                Err(e) => {
                    // Refused whole: the player leaves the table cleanly (the
                    // host sees them away) rather than sit at a table it cannot read.
                    warn!("{e}");
                    remote.link = Link::Lost(e);
                    link.close();
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
                    Err(why) => resync(&link, &mut remote, seq, &why),
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
                    Err(why) => resync(&link, &mut remote, seq, &why),
                }
            }
            ToPlayer::TakenBack { seq, checksum } => {
                let Some(shared) = awaiting(&mut remote, seq) else { continue };
                // A copy that joined by a whole table has nothing to rewind: it resyncs.
                match step(shared, seq, checksum, |t| t.take_back().map_err(|e| e.to_string())) {
                    Ok(action) => {
                        took_back.write(RemoteTookBack { seq, action });
                    }
                    Err(why) => resync(&link, &mut remote, seq, &why),
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
                    link.close();
                }
                remote.refusal = Some(reason.clone());
                refusals.write(Refusal(reason));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reconnect_that_finds_no_host_gives_advice_that_applies() {
        let silent = Closed::NotAnswered("timed out".into());
        // A first join: the invite was pasted, and may be cut short.
        assert!(why_lost(&silent, false).contains("pasted all of the invite"));
        // Reconnect pasted nothing: a host that restarted has a new invite.
        let again = why_lost(&silent, true);
        assert!(!again.contains("pasted") && again.contains("the invite they have now"), "{again}");
    }
}
