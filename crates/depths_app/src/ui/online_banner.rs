//! Online: whom the table waits for, a lost connection, and the host's
//! choice for an away player's Heroes (stand in, or Companions). Lines of
//! the game's banner (`panels/frame.rs` shows them under its own), so they
//! take room of their own and never cover the table's header or notices.

use bevy::{ecs::system::SystemParam, prelude::*};
use bevy_egui::egui;
use depths_net::{
    HostedGame, JoinedGame,
    client::Link,
    host::{SeatCompanion, StandIn},
};

use crate::{game::online::Online, theme::style};

/// Dials the table again as the same player, from the banner of a lost connection.
fn reconnect(world: &mut World) {
    if let Err(e) = depths_net::client::reconnect(world) {
        world.resource_mut::<JoinedGame>().link = Link::Lost(e.to_string());
    }
}

/// What the online lines read and what their buttons do.
#[derive(SystemParam)]
pub struct OnlineBanner<'w, 's> {
    online: Option<Res<'w, Online>>,
    hosted: Res<'w, HostedGame>,
    remote: Res<'w, JoinedGame>,
    seats_now: Option<Res<'w, crate::game::session::Seats>>,
    stand_ins: MessageWriter<'w, StandIn>,
    seats: MessageWriter<'w, SeatCompanion>,
    commands: Commands<'w, 's>,
    /// What the invite's buttons last said.
    said: Local<'s, Option<String>>,
}

impl OnlineBanner<'_, '_> {
    /// The host's invite during play, with Copy and New invite (a player
    /// who drops needs it to come back; one that got out is replaced).
    pub fn invite(&mut self, ui: &mut egui::Ui) {
        if self.online.as_deref() != Some(&Online::Host) {
            return;
        }
        ui.separator();
        if let Some(said) = crate::ui::screens::lobby::invite_line(ui, &self.hosted, &mut self.commands) {
            *self.said = Some(said);
        }
        if let Some(said) = self.said.as_ref() {
            ui.label(egui::RichText::new(said).size(style::type_scale::SMALL).color(style::MUTED));
        }
    }

    /// The online lines, if any: a lost connection (with Reconnect), and
    /// each player the table waits for (with the host's choices).
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let Some(online) = self.online.as_deref().copied() else { return };
        let (lobby, lost, waiting) = match online {
            Online::Host => (&self.hosted.lobby, None, self.hosted.waiting_for()),
            Online::Player => (
                &self.remote.lobby,
                if let Link::Lost(why) = &self.remote.link { Some(why.clone()) } else { None },
                self.remote.waiting_for(),
            ),
        };
        if let Some(why) = &lost {
            ui.horizontal_wrapped(|ui| {
                ui.label(egui::RichText::new(format!("Connection to the host lost: {why}")).color(style::notice()));
                if self.remote.invite.is_some()
                    && ui.button("Reconnect").on_hover_text("Dial the same table again, as the same player").clicked()
                {
                    self.commands.queue(reconnect);
                }
            });
        }
        // A connection gone quiet, told within seconds (the timeout is 15 s).
        if let Some(seats) = &self.seats_now {
            for (who, secs) in &seats.quiet {
                let gives_up = depths_net::transport::TIMEOUT_SECONDS.saturating_sub(*secs);
                ui.horizontal_wrapped(|ui| {
                    ui.label(
                        egui::RichText::new(format!(
                            "Connection to {who} quiet… {secs} s (nothing has come; given up in {gives_up} s)"
                        ))
                        .color(style::notice()),
                    );
                    // A player's Reconnect, greyed until the connection is given up:
                    // the line keeps the height of the lost line that follows it (the
                    // table moved down 14 px as one became the other).
                    if online == Online::Player {
                        ui.add_enabled(false, egui::Button::new("Reconnect"))
                            .on_disabled_hover_text("Once the connection is given up, or comes back by itself");
                    }
                });
            }
        }
        // Dialling again: the table is not live meanwhile (it looked so for 15 s).
        if online == Online::Player && matches!(self.remote.link, Link::Connecting | Link::Joining) {
            ui.label(
                egui::RichText::new("Reconnecting to the host… (moves wait until you are back)").color(style::notice()),
            );
        }
        // Back at a host that restarted, before it resumes the game.
        if online == Online::Player && self.remote.link == Link::Seated && !lobby.started {
            ui.label(
                egui::RichText::new(format!("Back at the table: waiting for {} to resume the game…", lobby.name(0)))
                    .color(style::notice()),
            );
        }
        for &seat in &waiting {
            ui.horizontal_wrapped(|ui| {
                ui.label(
                    egui::RichText::new(format!("Waiting for {} to come back…", lobby.name(seat)))
                        .color(style::notice()),
                );
                if online != Online::Host {
                    return;
                }
                if ui.button("Play their Heroes").on_hover_text("Until they rejoin").clicked() {
                    self.stand_ins.write(StandIn { seat, by: Some(0) });
                }
                if let Some(shared) = &self.hosted.shared
                    && ui
                        .button("Companions play them")
                        .on_hover_text("Until you give their seats back (the Companion box on each Hero)")
                        .clicked()
                {
                    let heroes = shared.game.heroes.len() as u8;
                    for hero in (0..heroes).filter(|&h| shared.players.owner(h) == seat) {
                        self.seats.write(SeatCompanion { hero, on: true });
                    }
                }
            });
        }
    }
}
