//! The Hero mats' Companion boxes: a click asks for a seat change, passed on
//! as a [`SetCompanion`] message after the panels are drawn.

use bevy::{prelude::*, window::RequestRedraw};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{game::companions::SetCompanion, game::screen::Screen};

/// The Hero mats' seat boxes, passed on as [`SetCompanion`] messages.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, seat_requests.run_if(in_state(Screen::Playing)));
}

/// Where a Hero mat leaves a seat change (egui's memory) for [`seat_requests`].
fn requests_id() -> egui::Id {
    egui::Id::new("companion seat requests")
}

/// Asks for Hero `hero`'s seat to go to a Companion (`on`) or back to its owner.
pub(crate) fn request_seat(ctx: &egui::Context, hero: u8, on: bool) {
    ctx.data_mut(|d| d.get_temp_mut_or_default::<Vec<(u8, bool)>>(requests_id()).push((hero, on)));
    ctx.request_repaint();
}

fn seat_requests(
    mut contexts: EguiContexts,
    mut seats: MessageWriter<SetCompanion>,
    mut redraw: MessageWriter<RequestRedraw>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let requests = ctx.data_mut(|d| d.remove_temp::<Vec<(u8, bool)>>(requests_id())).unwrap_or_default();
    for (hero, on) in requests {
        seats.write(SetCompanion { hero, on });
        redraw.write(RequestRedraw);
    }
    Ok(())
}
