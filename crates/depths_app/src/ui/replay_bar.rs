//! The replay's column at the window's right, beside the table (lichess's
//! analysis board is the model): its controls, the graph of the party's
//! chance with the move shown, the fight's graph while the replay shows a
//! fight, the turning points and the game's chapters, each a click away.
//! The player may widen it and it keeps its width; as a column it covers
//! no card and never moves between moves (floating boxes had changed
//! corners between steps, and a click meant for ▶ landed on a hand).
//! And its keys (← → Home End).

use bevy::{ecs::system::SystemParam, prelude::*};
use bevy_egui::egui;

use crate::{
    PlaySystems,
    game::analysis::AnalysisBoard,
    game::replay::{GoToStep, Replay},
    theme::style,
    ui::analysis_panel::{chance_graph, fight_graph, graph_caption, turning_lines},
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, replay_keys.in_set(PlaySystems::Input).run_if(resource_exists::<Replay>));
}

/// ← → step, Home / End to the ends.
fn replay_keys(keys: Res<ButtonInput<KeyCode>>, replay: Res<Replay>, mut go: MessageWriter<GoToStep>) {
    let step = replay.step;
    if keys.just_pressed(KeyCode::ArrowRight) || keys.just_pressed(KeyCode::Period) {
        go.write(GoToStep(step + 1));
    }
    if keys.just_pressed(KeyCode::ArrowLeft) || keys.just_pressed(KeyCode::Comma) {
        go.write(GoToStep(step.saturating_sub(1)));
    }
    if keys.just_pressed(KeyCode::Home) {
        go.write(GoToStep(0));
    }
    if keys.just_pressed(KeyCode::End) {
        go.write(GoToStep(replay.history.len()));
    }
}

/// What the replay's column shows and where its clicks go.
#[derive(SystemParam)]
pub struct ReplayColumn<'w> {
    board: Res<'w, AnalysisBoard>,
    replay: Option<Res<'w, Replay>>,
    go: MessageWriter<'w, GoToStep>,
    leave: MessageWriter<'w, crate::game::replay::LeaveReplay>,
    aside: Option<Res<'w, crate::game::replay::FinishedAside>>,
}

impl ReplayColumn<'_> {
    /// The column, in a replay, as a panel of `root` at its right (before
    /// the party panel is laid, so it takes the window's edge); its rect.
    pub fn show(&mut self, root: &mut egui::Ui, in_combat: bool) -> Option<egui::Rect> {
        let replay = self.replay.as_deref()?;
        let content = root.ctx().content_rect();
        let (board, go, leave) = (&*self.board, &mut self.go, &mut self.leave);
        // Watched from a game's end, the replay goes back to it.
        let (leave_label, leave_hover) = if self.aside.is_some() {
            ("Back to the game's end", "The end of the game, as it was before the replay")
        } else {
            ("Leave the replay", "Back to the menu")
        };
        let shown = egui::Panel::right("replay_column")
            .resizable(true)
            .default_size((content.width() * 0.3).clamp(280.0, 460.0))
            .min_size(240.0)
            .max_size(content.width() * 0.5)
            .show(root, |ui| {
                let (step, total) = (replay.step, replay.history.len());
                ui.horizontal(|ui| {
                    ui.label(style::title("Replay", style::type_scale::HEADING));
                    ui.label(format!("move {step} of {total}"));
                });
                ui.horizontal_wrapped(|ui| {
                    if ui.button("⏮").on_hover_text("The start (Home)").clicked() {
                        go.write(GoToStep(0));
                    }
                    if ui.button("◀").on_hover_text("One move back (Left arrow)").clicked() {
                        go.write(GoToStep(step.saturating_sub(1)));
                    }
                    if ui.button("▶").on_hover_text("One move on (Right arrow)").clicked() {
                        go.write(GoToStep(step + 1));
                    }
                    if ui.button("⏭").on_hover_text("The end (End)").clicked() {
                        go.write(GoToStep(total));
                    }
                    if ui.button(leave_label).on_hover_text(leave_hover).clicked() {
                        leave.write(crate::game::replay::LeaveReplay);
                    }
                });
                ui.separator();
                if let Some(e) = &board.error {
                    ui.label(egui::RichText::new(e).color(style::notice()));
                }
                graph_caption(ui);
                let height = (ui.available_height() * 0.3).clamp(90.0, 220.0);
                if let Some(at) = chance_graph(ui, board, Some(step), height) {
                    go.write(GoToStep(at));
                }
                // The fight's line only while the replay shows a fight (exploring,
                // it drew the last fight's), in a room kept for it all along:
                // coming with a "Go" to a fight, it slid the turning points
                // under the pointer.
                const GRAPH: f32 = 70.0;
                let room = GRAPH + 2.0 * ui.spacing().interact_size.y;
                let width = ui.available_width();
                ui.allocate_ui_with_layout(egui::vec2(width, room), egui::Layout::top_down(egui::Align::Min), |ui| {
                    ui.set_min_size(egui::vec2(width, room));
                    if !in_combat {
                        let words = "Each fight's chance, Round by Round, shows here while the replay is in it.";
                        ui.label(egui::RichText::new(words).size(style::type_scale::SMALL).color(style::MUTED));
                    } else if let Some(at) = fight_graph(ui, board, step, GRAPH) {
                        go.write(GoToStep(at));
                    }
                });
                ui.separator();
                egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
                    ui.label(style::title("Turning points", style::type_scale::LEAD));
                    turning_lines(ui, board, Some(go));
                    ui.add_space(8.0);
                    ui.label(style::title("Chapters", style::type_scale::LEAD));
                    // The chapter the move shown is in is lit.
                    let current = replay.marks.iter().rposition(|(at, _)| *at <= step);
                    for (i, (at, name)) in replay.marks.iter().enumerate() {
                        if ui.selectable_label(current == Some(i), format!("Move {at}: {name}")).clicked() {
                            go.write(GoToStep(*at));
                        }
                    }
                });
            });
        Some(shown.response.rect)
    }
}
