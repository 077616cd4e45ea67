//! Online: whom the table waits for, a lost connection, and the host's
//! choice for an away player's Heroes (stand in, or Companions).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use depths_net::{
    HostTable, RemoteTable,
    client::Link,
    host::{SeatCompanion, StandIn},
};

use crate::{game::online::Online, game::screen::Screen, theme::style};

/// Dials the table again as the same player, from the banner of a lost connection.
fn reconnect(world: &mut World) {
    if let Err(e) = depths_net::client::reconnect(world) {
        world.resource_mut::<RemoteTable>().link = Link::Lost(e.to_string());
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, banner.run_if(in_state(Screen::Playing)).run_if(resource_exists::<Online>));
}

/// Whom the table waits for, a lost connection, and the host's choice for
/// an away player's Heroes: stand in, or Companions.
fn banner(
    mut contexts: EguiContexts,
    online: Res<Online>,
    hosted: Res<HostTable>,
    remote: Res<RemoteTable>,
    mut stand_ins: MessageWriter<StandIn>,
    mut seats: MessageWriter<SeatCompanion>,
    mut commands: Commands,
) -> Result {
    let (lobby, lost, waiting) = match *online {
        Online::Host => (&hosted.lobby, None, hosted.waiting_for()),
        Online::Player => (
            &remote.lobby,
            if let Link::Lost(why) = &remote.link { Some(why.clone()) } else { None },
            remote.waiting_for(),
        ),
    };
    if waiting.is_empty() && lost.is_none() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    egui::Area::new(egui::Id::new("online_banner")).anchor(egui::Align2::CENTER_TOP, [0.0, 48.0]).show(ctx, |ui| {
        style::panel_frame().show(ui, |ui| {
            if let Some(why) = &lost {
                ui.horizontal(|ui| {
                    ui.label(egui::RichText::new(format!("Connection to the host lost: {why}")).color(style::NOTICE));
                    if remote.invite.is_some()
                        && ui
                            .button("Reconnect")
                            .on_hover_text("Dial the same table again, as the same player")
                            .clicked()
                    {
                        commands.queue(reconnect);
                    }
                });
            }
            for &seat in &waiting {
                ui.horizontal(|ui| {
                    ui.label(
                        egui::RichText::new(format!("Waiting for {} to come back…", lobby.name(seat)))
                            .color(style::NOTICE),
                    );
                    if *online == Online::Host
                        && ui.button("Play their Heroes").on_hover_text("Until they rejoin").clicked()
                    {
                        stand_ins.write(StandIn { seat, by: Some(0) });
                    }
                    if *online == Online::Host
                        && let Some(table) = &hosted.table
                        && ui
                            .button("Companions play them")
                            .on_hover_text("Until you give their seats back (the Companion box on each Hero)")
                            .clicked()
                    {
                        let heroes = table.game.heroes.len() as u8;
                        for hero in (0..heroes).filter(|&h| table.players.owner(h) == seat) {
                            seats.write(SeatCompanion { hero, on: true });
                        }
                    }
                });
            }
        });
    });
    Ok(())
}
