//! Online co-op at the client's table (`depths_net`): the same board and
//! panels as a local game, but the rules move only through the host.
//!
//! Every [`PlayerAction`] goes to the host (the host player's through
//! `HostAct`, a remote player's over the network) instead of straight into
//! the game on the table; what the host applied comes back and is applied
//! like a local move ([`SessionMut::apply`]), so the log, the board and the
//! saves work as ever. A refusal shows as the log's notice; a resynchronised
//! copy replaces the table's game. The host saves after every applied action.
//! Undo goes to the host too: the host may take back any seat's last move, a
//! player only their own (or one of a seat they stand in for), never across
//! a reveal; the rewind comes back numbered among the actions and every
//! table takes it back as a local undo. A move taken back online is not made
//! again by Redo (the table has moved on for everyone).
//!
//! Companions are the host's: only the host seats them (the Hero mats' box
//! becomes the host's `SeatCompanion`; a player's box asks, and the host
//! refuses) and only the host's table runs them, their moves going through
//! the host like its own. A seat change comes back numbered among the
//! actions and is applied to the table in that order, since the turns
//! after it depend on it.
//! A banner says whom the table waits for, and lets the host stand in or
//! hand the away player's Heroes to Companions.

use std::time::Duration;

use bevy::{
    prelude::*,
    winit::{UpdateMode, WinitSettings},
};
use depths_net::{
    ClientPlugin, HostPlugin, HostedGame, JoinedGame, NetWake, SendAction,
    client::{AskCompanion, AskTakeBack, Link, RemoteApplied, RemoteCompanion, RemoteTookBack},
    host::{self, Applied, CompanionAct, CompanionSeated, HostAct, HostRefused, HostTakeBack, SeatCompanion, TookBack},
};
use depths_rules::Action;

use crate::{
    PlaySystems,
    game::companions::{CompanionAction, CompanionsOnline, SetCompanion, companion_note},
    game::game_log::GameLog,
    game::screen::Screen,
    game::session::{Delve, Moves, NO_REDO_ONLINE, PlayerAction, PutBack, Seats, SessionMut, TakeBack, Undo},
};

/// The lobby is open (a table hosted or joined, not yet playing).
#[derive(Resource, Debug, Default)]
pub struct LobbyOpen;

/// This game is played online, as the host or as a remote player.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Online {
    Host,
    Player,
}

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((HostPlugin, ClientPlugin));
    app.add_systems(Update, route_actions.in_set(PlaySystems::Route).run_if(resource_exists::<Online>));
    app.add_systems(
        Update,
        (route_companion_seats, companions_online, who_may_take_back, seat_rights)
            .in_set(PlaySystems::Seats)
            .run_if(resource_exists::<Online>),
    );
    app.add_systems(Update, (apply_hosted, apply_remote).in_set(PlaySystems::Rules).run_if(resource_exists::<Online>));
    app.add_systems(OnEnter(Screen::Menu), close);
    app.init_resource::<NetWake>();
    app.add_systems(Startup, wake_the_window);
}

/// This machine's key pair, beside the data folder's saves: its identity at
/// every online table (a seat belongs to the key that first sat in it).
/// Made the first time it is needed; a file there that is not a key is
/// named, and left alone.
pub fn machine_key(dir: &crate::game::saves::SaveDir) -> Result<depths_net::transport::SecretKey, String> {
    let data = dir.0.parent().unwrap_or(std::path::Path::new("."));
    depths_net::transport::machine_key(&data.join(KEY_FILE))
}

/// The key's file name in the data folder.
pub const KEY_FILE: &str = "player.key";

/// How long a waiting online table sleeps at most. The connections keep
/// themselves meanwhile (`depths_net::link`: the engine's keep-alives,
/// resends and timeouts on a thread of its own), and a message wakes the
/// table at once.
const ONLINE_SLEEP: Duration = Duration::from_secs(60);

/// The window's pace online, focused or not: `wait` between updates at most.
fn online_pace(wait: Duration) -> WinitSettings {
    WinitSettings { focused_mode: UpdateMode::reactive(wait), unfocused_mode: UpdateMode::reactive_low_power(wait) }
}

/// Online, the window sleeps until something happens (a message wakes it).
pub fn keep_online_pace(world: &mut World) {
    if let Some(mut winit) = world.get_resource_mut::<WinitSettings>() {
        *winit = online_pace(ONLINE_SLEEP);
    }
}

/// Lets the connections' thread wake the window (desktop only; a
/// headless app updates on its own).
fn wake_the_window(proxy: Option<Res<bevy::winit::EventLoopProxyWrapper>>, mut wake: ResMut<NetWake>) {
    let Some(proxy) = proxy else { return };
    let proxy = std::sync::Mutex::new((**proxy).clone());
    wake.0 = Some(std::sync::Arc::new(move || {
        if let Ok(proxy) = proxy.lock() {
            let _ = proxy.send_event(bevy::winit::WinitUserEvent::WakeUp);
        }
    }));
}

/// Leaving for the menu ends the online game.
fn close(world: &mut World) {
    if world.remove_resource::<Online>().is_none() && !world.contains_resource::<LobbyOpen>() {
        return;
    }
    world.remove_resource::<LobbyOpen>();
    world.remove_resource::<CompanionsOnline>();
    host::close(world);
    depths_net::client::close(world);
    if let Some(mut winit) = world.get_resource_mut::<WinitSettings>() {
        *winit = crate::game::animating::resting_pace();
    }
}

/// The players' moves go to the host, not onto the table; so do the
/// host's Companions' (a remote table runs none).
#[allow(clippy::too_many_arguments)]
fn route_actions(
    online: Res<Online>,
    mut actions: ResMut<Messages<PlayerAction>>,
    mut companion_moves: ResMut<Messages<CompanionAction>>,
    (mut undos, mut redos): (ResMut<Messages<TakeBack>>, ResMut<Messages<PutBack>>),
    mut host_acts: MessageWriter<HostAct>,
    mut companion_acts: MessageWriter<CompanionAct>,
    mut sends: MessageWriter<SendAction>,
    (mut host_take_backs, mut asks): (MessageWriter<HostTakeBack>, MessageWriter<AskTakeBack>),
    (log, undo): (Option<ResMut<GameLog>>, Option<Res<Undo>>),
    (seats, delve): (Option<Res<Seats>>, Option<Res<Delve>>),
) {
    for CompanionAction(action) in companion_moves.drain() {
        if *online == Online::Host {
            companion_acts.write(CompanionAct(action));
        }
    }
    let mut notice = None;
    for PlayerAction(action) in actions.drain() {
        // Refused here, in the host's words, rather than after a round trip.
        if let (Some(seats), Some(delve)) = (&seats, &delve)
            && let Some(why) = seats.online_refusal(delve.game(), &action)
        {
            notice = Some(why);
            continue;
        }
        match *online {
            Online::Host => {
                host_acts.write(HostAct(action));
            }
            Online::Player => {
                sends.write(SendAction(action));
            }
        }
    }
    // Taken back by the host for everyone, or refused here with the reason
    // the Undo button shows (no round trip for a move that is not ours).
    for TakeBack in undos.drain() {
        match (undo.as_deref().map(Undo::undo_words), *online) {
            (Some(Err(why)), _) => notice = Some(why),
            (_, Online::Host) => {
                host_take_backs.write(HostTakeBack);
            }
            (_, Online::Player) => {
                asks.write(AskTakeBack);
            }
        }
    }
    if redos.drain().count() > 0 {
        notice = Some(NO_REDO_ONLINE.into());
    }
    if let (Some(notice), Some(mut log)) = (notice, log) {
        log.notice = Some(notice);
    }
}

/// Whether this seat may ask for the table's last move back: the host any
/// seat's, a player their own or a seat's they stand in for (the host
/// judges again; this greys the button with the reason).
fn who_may_take_back(online: Res<Online>, remote: Res<JoinedGame>, undo: Option<ResMut<Undo>>) {
    let Some(mut undo) = undo else { return };
    let now = match (*online, &remote.shared, remote.seat) {
        (Online::Host, ..) => Ok(()),
        (Online::Player, Some(shared), Some(seat)) => match shared.last_move_by() {
            Ok(by) if by.is_some_and(|b| remote.lobby.acts_as(seat).contains(&b)) => Ok(()),
            Ok(by) => {
                let whose = by.map_or_else(|| "a Companion's".to_owned(), |b| format!("{}'s", remote.lobby.name(b)));
                Err(format!("The last move was {whose}: only they or the host can take it back."))
            }
            // The table's own history says why (a reveal since, no move yet).
            Err(_) => Ok(()),
        },
        (Online::Player, ..) => Err("Not at the table: nothing to take back.".to_owned()),
    };
    if undo.online.as_ref() != Some(&now) {
        undo.online = Some(now);
    }
}

/// Keeps the table's view of this machine's seats to the lobby's: the seats
/// it plays for (its own, and any the host made it stand in for) and whom
/// the table waits for, so the table offers exactly the moves the host takes.
fn seat_rights(
    online: Res<Online>,
    hosted: Res<HostedGame>,
    remote: Res<JoinedGame>,
    seats: Option<ResMut<Seats>>,
    player_link: Option<Res<depths_net::link::PlayerLink>>,
) {
    let Some(mut seats) = seats else { return };
    let (lobby, seat, waiting) = match *online {
        Online::Host => (&hosted.lobby, Some(0), hosted.waiting_for()),
        Online::Player => (&remote.lobby, remote.seat, remote.waiting_for()),
    };
    let acts_as = seat.map(|s| lobby.acts_as(s)).unwrap_or_default();
    let waiting: Vec<String> = waiting.iter().map(|&s| lobby.name(s).to_owned()).collect();
    // Written only when it changed: a changed table is redrawn.
    if seats.acts_as != acts_as || seats.waiting_for != waiting {
        seats.acts_as = acts_as;
        seats.waiting_for = waiting;
    }
    let (link_down, quiet): (Option<String>, Vec<(String, u64)>) = match *online {
        Online::Host => (None, hosted.quiet.iter().map(|(&s, &secs)| (lobby.name(s).to_owned(), secs)).collect()),
        Online::Player => (
            match &remote.link {
                Link::Seated | Link::Resyncing => None,
                Link::Lost(_) | Link::Idle => Some("Not connected to the host: Reconnect first.".to_owned()),
                Link::Connecting | Link::Joining => Some("Reconnecting to the host: wait a moment.".to_owned()),
            },
            remote.quiet.map(|secs| ("the host".to_owned(), secs)).into_iter().collect(),
        ),
    };
    // The way the connection goes now: direct, or through a relay only.
    let relayed = player_link.filter(|_| *online == Online::Player).and_then(|l| l.wire()).map(|w| w.relayed);
    if seats.relayed != relayed {
        seats.relayed = relayed;
    }
    if seats.link_down != link_down || seats.quiet != quiet {
        seats.link_down = link_down;
        seats.quiet = quiet;
    }
    if *online == Online::Host {
        let keys = hosted.seat_key_texts();
        if seats.keys != keys {
            seats.keys = keys;
        }
    }
}

/// A seat change changes the turn order, which is the host's table's, not
/// one board's: the host's goes to its table (and comes back numbered among
/// the actions), a player's is asked of the host (who refuses).
fn route_companion_seats(
    online: Res<Online>,
    mut seats: ResMut<Messages<SetCompanion>>,
    mut host_seats: MessageWriter<SeatCompanion>,
    mut asks: MessageWriter<AskCompanion>,
) {
    for SetCompanion { hero, on } in seats.drain() {
        match *online {
            Online::Host => {
                host_seats.write(SeatCompanion { hero, on });
            }
            Online::Player => {
                asks.write(AskCompanion { hero, on });
            }
        }
    }
}

/// Tells the Companions where they play: on the host, unless the table
/// waits for a player; never on a remote player's table.
fn companions_online(mut commands: Commands, online: Res<Online>, hosted: Res<HostedGame>) {
    let now = match *online {
        Online::Host => CompanionsOnline::Host { paused: hosted.shared.is_none() || !hosted.waiting_for().is_empty() },
        Online::Player => CompanionsOnline::Remote,
    };
    commands.insert_resource(now);
}

/// A step the host took, for this table: an action or a seat change.
enum Step {
    /// An action, and whether it was a Companion's (a player's table names
    /// it in the log as the host's does).
    Act(Action, bool),
    Seat {
        hero: u8,
        on: bool,
    },
    /// The last move taken back.
    TakeBack,
}

/// Takes the host's steps onto this table in the host's order (a seat
/// change between two actions changes the turn the second one passes).
fn apply_steps(moves: &mut Moves, mut steps: Vec<(u64, Step)>) {
    steps.sort_by_key(|(seq, _)| *seq);
    for (_, step) in steps {
        match step {
            Step::Act(action, companion) => {
                if companion {
                    let note = companion_note(moves.delve.game(), moves.seats, moves.delve.version(), &action);
                    moves.log.companion = Some(note);
                }
                if let Err(e) = moves.apply(action.clone()) {
                    warn!("the host applied {action:?} but this table refused it ({e})");
                }
            }
            Step::Seat { hero, on } => {
                moves.seat_companion(hero, on);
                // As on the host: nothing is taken back across a seat change.
                moves.undo.forget();
            }
            Step::TakeBack => {
                if let Err(e) = moves.undo() {
                    warn!("the host took back a move but this table could not ({e})");
                }
            }
        }
    }
}

/// The host applied an action or changed a seat: the same on this table, and a save.
fn apply_hosted(
    mut applied: MessageReader<Applied>,
    mut seated: MessageReader<CompanionSeated>,
    mut took_back: MessageReader<TookBack>,
    mut refused: MessageReader<HostRefused>,
    session: Option<SessionMut>,
) {
    let Some(mut session) = session else {
        applied.clear();
        seated.clear();
        took_back.clear();
        refused.clear();
        return;
    };
    // The host's own log named its Companions' moves when they were made.
    let steps: Vec<(u64, Step)> = applied
        .read()
        .map(|a| (a.seq, Step::Act(a.action.clone(), false)))
        .chain(seated.read().map(|s| (s.seq, Step::Seat { hero: s.hero, on: s.on })))
        .chain(took_back.read().map(|t| (t.seq, Step::TakeBack)))
        .collect();
    if !steps.is_empty() {
        apply_steps(&mut session.moves(), steps);
        session.saves.due = true;
    }
    for HostRefused(reason) in refused.read() {
        session.log.notice = Some(reason.clone());
    }
}

/// The host's moves, applied to this player's table; a refusal shown; a
/// copy replaced by the host's (a resync or a rejoin) replaces the table's.
fn apply_remote(
    mut applied: MessageReader<RemoteApplied>,
    mut seated: MessageReader<RemoteCompanion>,
    mut took_back: MessageReader<RemoteTookBack>,
    mut refusals: MessageReader<depths_net::client::Refusal>,
    remote: Res<JoinedGame>,
    session: Option<SessionMut>,
) {
    let Some(mut session) = session else {
        applied.clear();
        seated.clear();
        took_back.clear();
        refusals.clear();
        return;
    };
    let steps: Vec<(u64, Step)> = applied
        .read()
        .map(|a| (a.seq, Step::Act(a.action.clone(), a.companion)))
        .chain(seated.read().map(|s| (s.seq, Step::Seat { hero: s.hero, on: s.on })))
        .chain(took_back.read().map(|t| (t.seq, Step::TakeBack)))
        .collect();
    if !steps.is_empty() {
        // Should this table differ, the host's copy replaces it below.
        apply_steps(&mut session.moves(), steps);
    }
    for depths_net::client::Refusal(reason) in refusals.read() {
        session.log.notice = Some(format!("The host refused: {reason}."));
    }
    if let Some(shared) = &remote.shared
        && remote.link == Link::Seated
        && (shared.game != *session.delve.game()
            || shared.turn != session.seats.turn
            || shared.players.companions != session.seats.players.companions)
    {
        session.moves().replace_game(shared.game.clone());
        session.seats.turn = shared.turn.clone();
        session.seats.players = shared.players.clone();
        session.log.lines.push("The table was brought in step with the host's.".into());
    }
}
