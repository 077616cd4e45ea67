//! The guided first game's box, in the table's corner: the step, what to do, and a way out.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{
    game::guide::{Guide, STEPS},
    game::screen::Screen,
    theme::style,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        guide_ui.run_if(in_state(Screen::Playing).and_then(|g: Res<Guide>| g.0.is_some())),
    );
}

fn guide_ui(mut contexts: EguiContexts, mut guide: ResMut<Guide>, area: Res<crate::game::focus::BoardArea>) -> Result {
    let ctx = contexts.ctx_mut()?;
    // The table's top-left corner: clear of the tray, the hands and the
    // middle of the board; in a Combat, the left edge halfway down, clear of
    // the Monster cards along the top.
    let Some(step) = guide.0 else { return Ok(()) };
    let z = ctx.zoom_factor();
    let combat = (3..6).contains(&step);
    let corner = area.0.map_or(egui::pos2(320.0, 90.0), |r| {
        let y = if combat { r.min.y + r.height() * 0.42 } else { r.min.y + 10.0 };
        egui::pos2(r.min.x / z + 10.0, y / z)
    });
    let Some(s) = STEPS.get(step) else { return Ok(()) };
    let last = step + 1 == STEPS.len();
    let mut close = false;
    egui::Window::new("Guide").id(egui::Id::new("guide")).title_bar(false).fixed_pos(corner).resizable(false).show(
        ctx,
        |ui| {
            ui.set_max_width(if combat { 220.0 } else { 280.0 });
            ui.label(
                egui::RichText::new(format!("Guide · step {} of {}", step + 1, STEPS.len()))
                    .size(12.0)
                    .color(style::MUTED),
            );
            ui.label(style::title(s.title, 20.0));
            ui.label(s.text);
            ui.horizontal(|ui| {
                let label = if last { "Finish the guide" } else { "Skip the guide" };
                if ui.button(label).clicked() {
                    close = true;
                }
            });
        },
    );
    if close {
        guide.0 = None;
    }
    Ok(())
}
