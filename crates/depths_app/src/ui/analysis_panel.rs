//! The analysis board beside the replay: the graph of the party's chance to
//! win after every move (`game/analysis.rs`), its turning points marked and
//! told, each fight's chance Round by Round; a click on the graph goes to
//! that move. The game-over sheet shows the same graph and turning points.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use egui_plot::{Line, PlotPoints, Points, VLine};

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
    let response = chance_plot(ui, "chance_graph", height)
        .include_x(0.0)
        .include_x(last.max(1.0))
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

/// A still chart of a chance, 0 to 100 %, as wide as the room: the game's
/// and the fight's graphs.
fn chance_plot<'a>(ui: &egui::Ui, id: &'static str, height: f32) -> egui_plot::Plot<'a> {
    style::still_plot(id)
        .width(ui.available_width())
        .height(height)
        .include_y(0.0)
        .include_y(100.0)
        .y_axis_formatter(|m, _| format!("{} %", m.value))
}

/// The fight the shown move is in (or the last before it): its chance to win
/// at the start of each Round, as a small graph, the Round shown marked; a
/// click goes to that Round's start.
fn fight_graph(ui: &mut egui::Ui, board: &AnalysisBoard, shown: usize, height: f32) -> Option<usize> {
    let a = board.latest.as_ref()?;
    let fight = a.fights.iter().rev().find(|f| f.start_step <= shown)?;
    if fight.rounds.is_empty() {
        return None;
    }
    ui.label(
        egui::RichText::new(format!("{}: the fight's chance at each Round", fight.name)).size(style::type_scale::SMALL),
    );
    let rounds: Vec<(usize, f64, f64)> =
        fight.rounds.iter().map(|(step, f)| (*step, f.value * 100.0, f.half_width * 100.0)).collect();
    let dots: Vec<[f64; 2]> = rounds.iter().enumerate().map(|(i, (_, v, _))| [(i + 1) as f64, *v]).collect();
    let now = rounds.iter().rposition(|(step, _, _)| *step <= shown);
    let steps: Vec<usize> = rounds.iter().map(|r| r.0).collect();
    let labels = rounds.clone();
    let response = chance_plot(ui, "fight_graph", height)
        .include_x(0.5)
        .include_x(rounds.len() as f64 + 0.5)
        .x_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 1.0, 1.0]))
        .x_axis_formatter(|m, _| format!("Round {}", m.value))
        .label_formatter(move |hover| {
            let (egui_plot::HoverPosition::NearDataPoint { position: p, .. }
            | egui_plot::HoverPosition::Elsewhere { position: p }) = hover;
            let i = (p.x.round() as usize).checked_sub(1)?;
            let (_, v, h) = labels.get(i)?;
            Some(format!("Round {}: {v:.0} % ± {:.0}", i + 1, h.max(1.0)))
        })
        .show(ui, |plot| {
            plot.line(Line::new("The fight", PlotPoints::from(dots.clone())).color(style::GOLD).width(2.0));
            plot.points(Points::new("Rounds", dots).radius(2.5).color(style::GOLD));
            if let Some(i) = now {
                let (_, v, _) = rounds[i];
                plot.points(Points::new("This Round", vec![[(i + 1) as f64, v]]).radius(5.0).color(style::GOLD));
            }
            plot.response().clicked().then(|| plot.pointer_coordinate()).flatten()
        });
    let i = (response.inner?.x.round() as usize).checked_sub(1)?;
    steps.get(i).copied()
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
    // One window each way: egui keeps a window's size, and the tall one of
    // the exploring table would push the compact one over the replay bar.
    let id = egui::Id::new(("analysis_board", in_combat));
    // (width, where, pivot, the height it may take)
    let (width, at, pivot, max_height) = match bar.filter(|_| in_combat) {
        Some(bar) => {
            // Under the bar where it has some room (it scrolls), else over it.
            let under = room.max.y - bar.max.y - 14.0;
            let over = bar.min.y - room.min.y - 14.0;
            let width = bar.width().max(290.0);
            if under >= 150.0 || under >= over {
                (width, bar.left_bottom() + egui::vec2(0.0, 6.0), egui::Align2::LEFT_TOP, under)
            } else {
                (width, bar.left_top() - egui::vec2(0.0, 6.0), egui::Align2::LEFT_BOTTOM, over)
            }
        }
        None => {
            let width = (room.width() * 0.45).clamp(300.0, 560.0);
            let at = egui::pos2(room.max.x - 8.0, room.min.y + 8.0);
            // It ends above the replay bar where the two would meet (a
            // narrow room at 150 %), and scrolls.
            let meets = bar.filter(|b| b.max.x > at.x - width && b.min.x < at.x);
            let max_height = meets.map_or(room.height() - 16.0, |b| b.min.y - at.y - 8.0);
            (width, at, egui::Align2::RIGHT_TOP, max_height)
        }
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
        .max_height(max_height.max(100.0))
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
            if let Some(step) = chance_graph(ui, &board, Some(replay.step), if in_combat { 60.0 } else { 150.0 }) {
                go.write(GoToStep(step));
            }
            if let Some(step) = fight_graph(ui, &board, replay.step, if in_combat { 50.0 } else { 80.0 }) {
                go.write(GoToStep(step));
            }
            ui.separator();
            egui::CollapsingHeader::new(style::title("Turning points", style::type_scale::LEAD))
                .id_salt(("turning_points", in_combat))
                .default_open(!in_combat)
                .show(ui, |ui| turning_lines(ui, &board, Some(&mut go)));
        });
    Ok(())
}
