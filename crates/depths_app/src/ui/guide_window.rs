//! The guided first game's box, in the board's corner: the step, what to do,
//! and a way out. In a Combat its words are a line of the Combat strip
//! (`ui/panels/combat.rs`), where they never move or cover a card.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{
    game::focus::BoardReserved,
    game::guide::{Explained, Guide, STEPS, shown},
    game::screen::Screen,
    theme::style,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (
            guide_ui.run_if(in_state(Screen::Playing).and_then(|g: Res<Guide>| g.0.is_some())),
            // Without the guide the board has its top back.
            (|mut r: ResMut<BoardReserved>| r.0 = 0.0)
                .run_if(|g: Res<Guide>, r: Res<BoardReserved>| g.0.is_none() && r.0 > 0.0),
        ),
    );
}

/// The guided game's box (a window), for what must keep clear of it.
pub fn guide_layer() -> egui::LayerId {
    egui::LayerId::new(egui::Order::Middle, egui::Id::new("guide"))
}

fn guide_ui(
    mut contexts: EguiContexts,
    mut guide: ResMut<Guide>,
    explained: Res<Explained>,
    area: Res<crate::game::focus::BoardArea>,
    delve: Res<crate::game::session::Delve>,
    mut reserved: ResMut<BoardReserved>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Some(step) = guide.0 else { return Ok(()) };
    let game = delve.game();
    let combat = game.combat().is_some();
    let Some((title, text)) = shown(step, game, &explained).filter(|_| !combat) else {
        if reserved.0 != 0.0 {
            reserved.0 = 0.0;
        }
        return Ok(());
    };
    let z = ctx.zoom_factor();
    let id = guide_layer().id;
    // The board's top-left corner, with the map framed below it (the cells
    // it points at are never under it).
    let size = ctx.memory(|m| m.area_rect(id)).map_or(Vec2::new(240.0, 190.0), |r| Vec2::new(r.width(), r.height()));
    let corner = area.0.map_or(egui::pos2(320.0, 90.0), |r| egui::pos2(r.min.x / z + 10.0, r.min.y / z + 10.0));
    // Whole 40 px steps, so a line more or less does not move the map (it
    // is framed again when its room changes by more than 20 px).
    let wanted = ((size.y * z + 20.0) / 40.0).ceil() * 40.0;
    if reserved.0 != wanted {
        reserved.0 = wanted;
    }
    let last = step + 1 == STEPS.len();
    let mut close = false;
    egui::Window::new("Guide").id(id).title_bar(false).fixed_pos(corner).resizable(false).show(ctx, |ui| {
        ui.set_max_width(280.0);
        ui.label(
            egui::RichText::new(format!("Guide · step {} of {}", step + 1, STEPS.len()))
                .size(style::type_scale::SMALL)
                .color(style::MUTED),
        );
        ui.label(style::title(title, style::type_scale::HEADING));
        ui.label(text);
        ui.horizontal(|ui| {
            let label = if last { "Finish the guide" } else { "Skip the guide" };
            if ui.button(label).clicked() {
                close = true;
            }
        });
    });
    if close {
        guide.0 = None;
    }
    Ok(())
}
