//! Online co-op at the client's table (`depths_net`): the same board and
//! panels as a local game, but the rules move only through the host.
//!
//! Every [`PlayerAction`] goes to the host (the host player's through
//! `HostAct`, a remote player's over the network) instead of straight into
//! the game on the table; what the host applied comes back and is applied
//! like a local move ([`SessionMut::apply`]), so the log, the board and the
//! saves work as ever. A refusal shows as the log's notice; a resynchronised
//! copy replaces the table's game. The host saves after every applied action.
//! Undo and Companion seats are off online (a placement others saw stays; a
//! Companion would change the turn order the host keeps).
//! A banner says whom the table waits for, and lets the host stand in.

use std::time::Duration;

use bevy::{
    prelude::*,
    window::RequestRedraw,
    winit::{UpdateMode, WinitSettings},
};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use depths_net::{
    ClientPlugin, HostPlugin, HostTable, NetSystems, RemoteTable, SendAction,
    client::{Link, RemoteApplied},
    host::{self, Applied, HostAct, HostRefused, StandIn},
};

use crate::{
    PlaySystems, Stage,
    game::session::{GameLog, PlayerAction, SessionMut, UndoPlacement},
    ui::screens::Screen,
    ui::ui_style,
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

/// Between the stages that write the players' actions and the Rules set
/// that would apply them locally.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct RouteActions;

pub(crate) fn plugin(app: &mut App) {
    app.add_plugins((HostPlugin, ClientPlugin));
    app.configure_sets(Update, RouteActions.after(Stage::GameOver).before(PlaySystems::Rules));
    app.add_systems(Update, route_actions.in_set(RouteActions).run_if(resource_exists::<Online>));
    app.add_systems(Update, no_companions.before(PlaySystems::Input).run_if(resource_exists::<Online>));
    app.add_systems(
        Update,
        (apply_hosted, apply_remote).in_set(PlaySystems::Rules).after(NetSystems).run_if(resource_exists::<Online>),
    );
    app.add_systems(OnEnter(Screen::Menu), close);
}

pub(crate) fn ui_plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, banner.run_if(in_state(Screen::Playing)).run_if(resource_exists::<Online>));
}

/// While online the app must keep receiving: 20 updates a second, not only
/// on input (the window would otherwise sleep between clicks and the host
/// would time the player out).
pub fn stay_awake(world: &mut World) {
    if let Some(mut winit) = world.get_resource_mut::<WinitSettings>() {
        let every = UpdateMode::reactive(Duration::from_millis(50));
        winit.focused_mode = every;
        winit.unfocused_mode = every;
    }
}

/// Leaving for the menu ends the online game.
fn close(world: &mut World) {
    if world.remove_resource::<Online>().is_none() && !world.contains_resource::<LobbyOpen>() {
        return;
    }
    world.remove_resource::<LobbyOpen>();
    host::close(world);
    depths_net::client::close(world);
    if let Some(mut winit) = world.get_resource_mut::<WinitSettings>() {
        *winit = WinitSettings::desktop_app();
    }
}

/// The players' moves go to the host, not onto the table.
fn route_actions(
    online: Res<Online>,
    mut actions: ResMut<Messages<PlayerAction>>,
    mut undos: ResMut<Messages<UndoPlacement>>,
    mut host_acts: MessageWriter<HostAct>,
    mut sends: MessageWriter<SendAction>,
    log: Option<ResMut<GameLog>>,
) {
    for PlayerAction(action) in actions.drain() {
        match *online {
            Online::Host => {
                host_acts.write(HostAct(action));
            }
            Online::Player => {
                sends.write(SendAction(action));
            }
        }
    }
    // A placement the others have already seen cannot be taken back.
    if undos.drain().count() > 0
        && let Some(mut log) = log
    {
        log.notice = Some("Online, a placed tile stays placed.".into());
    }
}

/// A Companion seat changes the turn order, which is the host's table's, not
/// one board's: online every Hero is played by a player at the table.
fn no_companions(mut seats: ResMut<Messages<crate::game::companions::SetCompanion>>, log: Option<ResMut<GameLog>>) {
    if seats.drain().count() > 0
        && let Some(mut log) = log
    {
        log.notice = Some("Online, every Hero is played by a player at the table.".into());
    }
}

/// The host applied an action: the same move on this table, and a save.
fn apply_hosted(
    mut applied: MessageReader<Applied>,
    mut refused: MessageReader<HostRefused>,
    session: Option<SessionMut>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let Some(mut session) = session else {
        applied.clear();
        refused.clear();
        return;
    };
    for a in applied.read() {
        if let Err(e) = session.apply(a.action.clone()) {
            // This table follows the host's move for move; this is a bug.
            error!("the host applied {:?} but the table refused it: {e}", a.action);
        }
        session.undo.0 = None;
        session.saves.due = true;
        redraw.write(RequestRedraw);
    }
    for HostRefused(reason) in refused.read() {
        session.log.notice = Some(reason.clone());
        redraw.write(RequestRedraw);
    }
}

/// The host's moves, applied to this player's table; a refusal shown; a
/// copy replaced by the host's (a resync or a rejoin) replaces the table's.
fn apply_remote(
    mut applied: MessageReader<RemoteApplied>,
    mut refusals: MessageReader<depths_net::client::Refusal>,
    remote: Res<RemoteTable>,
    session: Option<SessionMut>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let Some(mut session) = session else {
        applied.clear();
        refusals.clear();
        return;
    };
    for a in applied.read() {
        if let Err(e) = session.apply(a.action.clone()) {
            warn!("the host applied {:?} but this table refused it ({e}); the host's copy follows", a.action);
        }
        session.undo.0 = None;
        redraw.write(RequestRedraw);
    }
    for depths_net::client::Refusal(reason) in refusals.read() {
        session.log.notice = Some(format!("The host refused: {reason}."));
        redraw.write(RequestRedraw);
    }
    if let Some(table) = &remote.table
        && remote.link == Link::Seated
        && (table.game != session.delve.game || table.turn != session.seats.turn)
    {
        session.delve.game = table.game.clone();
        session.seats.turn = table.turn.clone();
        session.seats.players = table.players.clone();
        session.news.rebuild = true;
        session.delve.version += 1;
        session.log.lines.push("The table was brought in step with the host's.".into());
        redraw.write(RequestRedraw);
    }
}

/// Whom the table waits for, a lost connection, and the host's stand-in button.
fn banner(
    mut contexts: EguiContexts,
    online: Res<Online>,
    hosted: Res<HostTable>,
    remote: Res<RemoteTable>,
    mut stand_ins: MessageWriter<StandIn>,
) -> Result {
    let (lobby, lost) = match *online {
        Online::Host => (&hosted.lobby, None),
        Online::Player => (&remote.lobby, if let Link::Lost(why) = &remote.link { Some(why.clone()) } else { None }),
    };
    let waiting = if lobby.started { lobby.waiting_for() } else { Vec::new() };
    if waiting.is_empty() && lost.is_none() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    egui::Area::new(egui::Id::new("online_banner")).anchor(egui::Align2::CENTER_TOP, [0.0, 48.0]).show(ctx, |ui| {
        ui_style::panel_frame().show(ui, |ui| {
            if let Some(why) = &lost {
                ui.label(egui::RichText::new(format!("Connection to the host lost: {why}")).color(ui_style::NOTICE));
            }
            for &seat in &waiting {
                ui.horizontal(|ui| {
                    ui.label(
                        egui::RichText::new(format!("Waiting for {} to come back…", lobby.name(seat)))
                            .color(ui_style::NOTICE),
                    );
                    if *online == Online::Host
                        && ui.button("Play their Heroes").on_hover_text("Until they rejoin").clicked()
                    {
                        stand_ins.write(StandIn { seat, by: Some(0) });
                    }
                });
            }
        });
    });
    Ok(())
}
