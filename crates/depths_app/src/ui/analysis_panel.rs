//! The analysis board beside the replay: the graph of the party's chance to
//! win after every move (`game/analysis.rs`), its turning points marked and
//! told, each fight's chance Round by Round; a click on the graph goes to
//! that move. The game-over sheet shows the same graph and turning points.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use egui_plot::{Line, Plot, PlotPoints, Points, VLine};

use crate::{
    game::analysis::{AnalysisBoard, TurningLine},
    game::replay::{GoToStep, Replay},
    game::screen::Screen,
    theme::style,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        analysis_window.run_if(in_state(Screen::Playing).and_then(resource_exists::<Replay>)),
    );
}

/// The graph: the chance after each move known so far, its ± as a faint
/// band, the turning points as dots (green a rise, red a fall) and the move
/// shown as a line; returns the move clicked.
pub fn chance_graph(ui: &mut egui::Ui, board: &AnalysisBoard, shown: Option<usize>, height: f32) -> Option<usize> {
    let Some(a) = &board.latest else {
        let text = board.error.as_deref().unwrap_or("Getting the game ready…");
        ui.label(egui::RichText::new(text).color(style::MUTED));
        return None;
    };
    let known: Vec<(usize, f64, f64)> = a
        .points
        .iter()
        .enumerate()
        .filter_map(|(k, p)| p.map(|f| (k, f.value * 100.0, f.half_width * 100.0)))
        .collect();
    let last = a.points.len().saturating_sub(1) as f64;
    let figures = a.points.clone();
    let line: PlotPoints = known.iter().map(|(k, v, _)| [*k as f64, *v]).collect();
    let upper: PlotPoints = known.iter().map(|(k, v, h)| [*k as f64, (v + h).min(100.0)]).collect();
    let lower: PlotPoints = known.iter().map(|(k, v, h)| [*k as f64, (v - h).max(0.0)]).collect();
    let turns: Vec<(f64, f64, bool)> = board
        .turning
        .iter()
        .filter_map(|t| a.points.get(t.point.step + 1).copied().flatten().map(|f| (t, f)))
        .map(|(t, f)| ((t.point.step + 1) as f64, f.value * 100.0, t.point.delta > 0.0))
        .collect();
    let response = Plot::new("chance_graph")
        .width(ui.available_width())
        .height(height)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .include_y(0.0)
        .include_y(100.0)
        .include_x(0.0)
        .include_x(last.max(1.0))
        .y_axis_formatter(|m, _| format!("{} %", m.value))
        // The figure at the move under the pointer, not the height of the pointer.
        .label_formatter(move |hover| {
            let (egui_plot::HoverPosition::NearDataPoint { position: p, .. }
            | egui_plot::HoverPosition::Elsewhere { position: p }) = hover;
            let k = p.x.round().max(0.0) as usize;
            let f = figures.get(k).copied().flatten()?;
            Some(format!("after move {k}: {:.0} % ± {:.0}", f.value * 100.0, (f.half_width * 100.0).max(1.0)))
        })
        .show(ui, |plot| {
            let band = egui::Color32::from_rgba_unmultiplied(200, 170, 100, 60);
            plot.line(Line::new("+", upper).color(band));
            plot.line(Line::new("-", lower).color(band));
            plot.line(Line::new("Chance to win", line).color(style::GOLD).width(2.0));
            for (x, y, rise) in turns {
                let color = if rise { style::good() } else { style::bad() };
                plot.points(Points::new("Turning point", vec![[x, y]]).radius(5.0).color(color));
            }
            if let Some(s) = shown {
                plot.vline(VLine::new("This move", s as f64).color(egui::Color32::from_gray(160)));
            }
            plot.response().clicked().then(|| plot.pointer_coordinate()).flatten()
        });
    let clicked = response.inner.map(|p| p.x.round().clamp(0.0, last) as usize);
    if let Some((done, all)) = board.progress().filter(|_| board.busy())
        && done < all
    {
        ui.add(
            egui::ProgressBar::new(done as f32 / all.max(1) as f32)
                .desired_width(ui.available_width())
                .text(format!("Playing the game out from every move… {}%", done * 100 / all.max(1))),
        );
    }
    clicked
}

/// The turning points, one line each on what happened there and what the
/// planning bot would have played; "Go" jumps there in a replay.
pub fn turning_lines(ui: &mut egui::Ui, board: &AnalysisBoard, mut go: Option<&mut MessageWriter<GoToStep>>) {
    if board.turning.is_empty() {
        let text = if board.latest.as_ref().is_some_and(|a| a.is_done()) && !board.busy() {
            "No move changed the chance by more than its margin."
        } else {
            "The turning points are told once every move is known."
        };
        ui.label(egui::RichText::new(text).color(style::MUTED));
        return;
    }
    let points = board.latest.as_ref().map(|a| &a.points);
    for TurningLine { point, words, alternative, suggested } in &board.turning {
        let at = |k: usize| points.and_then(|p| p.get(k).copied().flatten()).map_or(0.0, |f| f.value * 100.0);
        let (before, after) = (at(point.step), at(point.step + 1));
        let fell = point.delta < 0.0;
        let why = match point.cause {
            Some(depths_sim::analysis::Cause::Choice) => "a choice",
            Some(depths_sim::analysis::Cause::Reveal) => "the luck of the draw",
            Some(depths_sim::analysis::Cause::ChoiceAndReveal) => "a choice, and what it revealed",
            None => "",
        };
        ui.horizontal_wrapped(|ui| {
            let head = format!(
                "Move {}: {} from {:.0} to {:.0} %",
                point.step + 1,
                if fell { "fell" } else { "rose" },
                before,
                after
            );
            ui.label(egui::RichText::new(head).strong().color(if fell { style::bad() } else { style::good() }));
            ui.label(format!("{words}{}", if why.is_empty() { String::new() } else { format!(" ({why})") }));
            if let Some(go) = go.as_deref_mut()
                && ui.small_button("Go").on_hover_text("Show this move on the table").clicked()
            {
                go.write(GoToStep(point.step + 1));
            }
        });
        if let (Some(alt), Some(suggested)) = (alternative, suggested) {
            ui.label(
                egui::RichText::new(format!(
                    "    The planning bot would have played {suggested}: {:.0} % ± {:.0}, against {:.0} % ± {:.0} for the move made.",
                    alt.suggested_chance.value * 100.0,
                    (alt.suggested_chance.half_width * 100.0).max(1.0),
                    alt.played_chance.value * 100.0,
                    (alt.played_chance.half_width * 100.0).max(1.0),
                ))
                .color(style::MUTED),
            );
        }
    }
}

/// The fight the shown move is in (or the last before it): its chance at each Round.
fn fight_line(ui: &mut egui::Ui, board: &AnalysisBoard, shown: usize) {
    let Some(a) = &board.latest else { return };
    let Some(fight) = a.fights.iter().rev().find(|f| f.start_step <= shown) else { return };
    if fight.rounds.is_empty() {
        return;
    }
    let rounds: Vec<String> = fight
        .rounds
        .iter()
        .enumerate()
        .map(|(i, (_, f))| format!("Round {} {:.0} %", i + 1, f.value * 100.0))
        .collect();
    ui.label(
        egui::RichText::new(format!("The fight with {}, its chance: {}", fight.name, rounds.join(", ")))
            .size(style::type_scale::SMALL),
    );
}

fn analysis_window(
    mut contexts: EguiContexts,
    board: Res<AnalysisBoard>,
    replay: Res<Replay>,
    mut go: MessageWriter<GoToStep>,
    area: Res<crate::game::focus::BoardArea>,
    delve: Option<Res<crate::game::session::Delve>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let z = ctx.zoom_factor();
    let room = area.0.map_or(ctx.content_rect(), |r| style::in_points(r, z));
    // Exploring: at the room's top right, clear of the replay bar at its
    // foot. In a Combat the cards fill the room: a compact graph beside the
    // replay bar (which finds the corner that covers the fewest cards),
    // below it where there is room, else above; the turning points folded.
    let in_combat = delve.is_some_and(|d| d.game().combat().is_some());
    let bar = ctx.memory(|m| m.area_rect(egui::Id::new("replay_bar")));
    let id = egui::Id::new("analysis_board");
    let (width, at, pivot) = match bar.filter(|_| in_combat) {
        Some(bar) => {
            let height = ctx.memory(|m| m.area_rect(id)).map_or(190.0, |r| r.height());
            let below = bar.max.y + 6.0 + height <= room.max.y;
            let at =
                if below { bar.left_bottom() + egui::vec2(0.0, 6.0) } else { bar.left_top() - egui::vec2(0.0, 6.0) };
            (bar.width().max(290.0), at, if below { egui::Align2::LEFT_TOP } else { egui::Align2::LEFT_BOTTOM })
        }
        None => (
            (room.width() * 0.45).clamp(300.0, 560.0),
            egui::pos2(room.max.x - 8.0, room.min.y + 8.0),
            egui::Align2::RIGHT_TOP,
        ),
    };
    // Exploring, it ends above the replay bar where the two would meet (a
    // narrow room at 150 %), and scrolls.
    let left = at.x - width;
    let max_height = match bar.filter(|b| !in_combat && b.max.x > left && b.min.x < at.x) {
        Some(bar) => bar.min.y - at.y - 8.0,
        None => room.height() - 16.0,
    };
    egui::Window::new("Analysis")
        .id(id)
        .pivot(pivot)
        .fixed_pos(at)
        .constrain_to(room)
        .collapsible(true)
        .resizable(false)
        .min_width(width)
        .max_width(width)
        .max_height(max_height.max(120.0))
        .vscroll(true)
        .show(ctx, |ui| {
            if let Some(e) = &board.error {
                ui.label(egui::RichText::new(e).color(style::notice()));
                return;
            }
            if !in_combat {
                ui.label(
                    egui::RichText::new(
                        "The party's chance to win after each move, from what the players could see then",
                    )
                    .size(style::type_scale::SMALL)
                    .color(style::MUTED),
                );
            }
            if let Some(step) = chance_graph(ui, &board, Some(replay.step), if in_combat { 70.0 } else { 150.0 }) {
                go.write(GoToStep(step));
            }
            fight_line(ui, &board, replay.step);
            ui.separator();
            egui::CollapsingHeader::new(style::title("Turning points", style::type_scale::LEAD))
                .id_salt(("turning_points", in_combat))
                .default_open(!in_combat)
                .show(ui, |ui| turning_lines(ui, &board, Some(&mut go)));
        });
    Ok(())
}
