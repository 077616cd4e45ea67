//! The question before a move that cannot be taken back (`game::confirm`):
//! a modal box in the middle of the table with what the move costs, the
//! moves offered instead (numbered, their keys taking them), the move
//! itself and Cancel (Esc). No key makes the move: the slip it guards
//! against is a key press.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{
    game::confirm::{Answer, Asking},
    game::screen::Screen,
    game::session::Delve,
    game::words::describe_action,
    theme::style,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        confirm_ui.run_if(
            in_state(Screen::Playing)
                .and_then(resource_exists::<Delve>)
                .and_then(|asking: Res<Asking>| asking.0.is_some()),
        ),
    );
}

fn confirm_ui(
    mut contexts: EguiContexts,
    asking: Res<Asking>,
    delve: Res<Delve>,
    mut answer: MessageWriter<Answer>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Some(ask) = asking.ask() else { return Ok(()) };
    let game = delve.game();
    let mut said = None;
    let modal = egui::Modal::new(egui::Id::new("confirm")).show(ctx, |ui| {
        ui.set_max_width(440.0);
        ui.label(style::title(&ask.title, style::type_scale::TITLE));
        ui.add_space(4.0);
        ui.label(egui::RichText::new(&ask.cost).color(style::notice()));
        if !ask.alternatives.is_empty() {
            ui.add_space(6.0);
            ui.label(egui::RichText::new("Instead:").strong());
            // In rows, as many as fit: six Healing amounts need not make a column.
            // Numbered as the table's choices are, their keys taking them:
            // they are the safe moves (no key makes the move asked about).
            let pressed = crate::ui::panels::number_key(ui.ctx());
            ui.horizontal_wrapped(|ui| {
                for (i, a) in ask.alternatives.iter().enumerate() {
                    let n = u8::try_from(i + 1).ok().filter(|n| *n <= 9);
                    let label = match n {
                        Some(n) => format!("[{n}] {}", describe_action(game, a)),
                        None => describe_action(game, a),
                    };
                    if ui.button(label).clicked() || (n.is_some() && pressed == n) {
                        said = Some(Answer::Instead(a.clone()));
                    }
                }
            });
        }
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            if ui.button(egui::RichText::new("Cancel (Esc)").strong()).clicked() {
                said = Some(Answer::Cancel);
            }
            if ui.button(egui::RichText::new(&ask.go).color(style::bad())).clicked() {
                said = Some(Answer::Go);
            }
        });
    });
    if modal.should_close() && said.is_none() {
        said = Some(Answer::Cancel);
    }
    if let Some(a) = said {
        answer.write(a);
    }
    Ok(())
}
