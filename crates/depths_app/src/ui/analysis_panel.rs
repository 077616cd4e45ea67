//! The analysis board's parts, for the replay's column (`replay_bar.rs`)
//! and the end of a game: the graph of the party's chance to win after
//! every move (`game/analysis.rs`), its turning points marked and told in
//! sentences, each fight's chance Round by Round; a click on a graph goes
//! to that move.

use bevy::prelude::*;
use bevy_egui::egui;
use egui_plot::{Line, PlotPoints, Points, VLine};

use crate::{
    game::analysis::{AnalysisBoard, TurningLine},
    game::replay::GoToStep,
    theme::style,
};

/// A flat tail longer than this many moves is folded.
const FOLD_AFTER: usize = 20;

/// Where the chance reached 0 or 100 % and stayed there to the game's end,
/// once every point is known.
fn flat_tail(points: &[Option<depths_sim::forecast::Figure>]) -> Option<usize> {
    let last = points.last().copied().flatten()?;
    let same = |p: &Option<depths_sim::forecast::Figure>| p.is_some_and(|f| f.value == last.value);
    let from = points.iter().rposition(|p| !same(p)).map_or(0, |i| i + 1);
    (from < points.len()).then_some(from)
}

/// What the chance graph shows, in a line over it (the replay's column and
/// the end of a game).
pub fn graph_caption(ui: &mut egui::Ui) {
    ui.label(
        egui::RichText::new("The party's chance to win after each move, from what the players could see then")
            .size(style::type_scale::SMALL)
            .color(style::MUTED),
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
    // A game decided long before its end (lost at every tile left, say)
    // folds its flat tail: 240 moves at 0 % hid the moves that mattered.
    let folded = flat_tail(&a.points)
        .filter(|k| a.points.len() - 1 - k > FOLD_AFTER)
        .filter(|_| a.points.iter().all(Option::is_some));
    let known: Vec<(usize, f64, f64)> =
        known.into_iter().filter(|(k, _, _)| folded.is_none_or(|f| *k <= f + FOLD_AFTER / 2)).collect();
    let last = folded.map_or(a.points.len().saturating_sub(1), |f| f + FOLD_AFTER / 2) as f64;
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
        // Moves are whole: no "0.1" under a graph not yet drawn.
        .x_axis_formatter(|m, _| if m.value.fract() == 0.0 { format!("{}", m.value) } else { String::new() })
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
    if let Some(k) = folded {
        let end = a.points.len() - 1;
        let at = a.points.get(k).copied().flatten().map_or(0.0, |f| f.value * 100.0);
        ui.label(
            egui::RichText::new(format!(
                "From move {k} to the end the chance stayed at {at:.0} %: the {} moves after it are left off the graph.",
                end - k
            ))
            .size(style::type_scale::SMALL)
            .color(style::MUTED),
        );
    }
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
    for line in &board.turning {
        let at = |k: usize| {
            let figure = points.and_then(|p| p.get(k).copied().flatten());
            figure.map_or_else(|| "0".to_owned(), crate::game::forecasts::percent)
        };
        let step = line.point.step;
        let (head, told) = turning_point(line, &at(step), &at(step + 1));
        let fell = line.point.delta < 0.0;
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new(head).strong().color(if fell { style::bad() } else { style::good() }));
            ui.label(told);
            if let Some(go) = go.as_deref_mut()
                && ui.small_button("Go").on_hover_text("Show this move on the table").clicked()
            {
                go.write(GoToStep(step + 1));
            }
        });
    }
}

/// A turning point of the analysis in sentences: its head ("Move 37: the
/// chance fell from 23 to 0 %"), then what was done there and why the chance
/// moved. A choice is a choice (with the planning bot's other move only
/// where its chance differs by more than both margins); a move the planning
/// bot would have made too moved the chance by what it turned up, and a
/// draw after which every tile left was a dead end says so.
pub fn turning_point(line: &TurningLine, before: &str, after: &str) -> (String, String) {
    use depths_sim::analysis::Cause;
    let fell = line.point.delta < 0.0;
    let head = format!(
        "Move {}: the chance {} from {before} to {after} %.",
        line.point.step + 1,
        if fell { "fell" } else { "rose" }
    );
    let done = line.words.trim_end_matches('.');
    let mut told = match line.point.cause {
        _ if line.dead_end_after => {
            format!("{done}. After it every Map Tile left was a dead end: the next draw lost the game.")
        }
        Some(Cause::Choice) => format!("{done}: a choice."),
        Some(Cause::Reveal) => {
            format!("{done}: the planning bot would have done the same; what it turned up moved the chance.")
        }
        Some(Cause::ChoiceAndReveal) => format!("{done}: a choice, and what it turned up."),
        None => format!("{done}."),
    };
    if let (Some(alt), Some(suggested)) = (&line.alternative, &line.suggested) {
        let (mine, theirs) = (alt.played_chance, alt.suggested_chance);
        let apart = (theirs.value - mine.value).abs() > theirs.half_width + mine.half_width;
        if apart && alt.suggested != alt.played {
            told.push_str(&format!(
                " The planning bot would rather have had this: {} ({:.0} % ± {:.0} to win, against {:.0} % ± {:.0}).",
                suggested.trim_end_matches('.'),
                theirs.value * 100.0,
                (theirs.half_width * 100.0).max(1.0),
                mine.value * 100.0,
                (mine.half_width * 100.0).max(1.0),
            ));
        }
    }
    (head, told)
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
pub fn fight_graph(ui: &mut egui::Ui, board: &AnalysisBoard, shown: usize, height: f32) -> Option<usize> {
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

#[cfg(test)]
mod tests {
    use depths_rules::Action;
    use depths_sim::analysis::{Alternative, Cause, TurningPoint};
    use depths_sim::forecast::Figure;

    use super::*;

    fn line(cause: Cause, alt: Option<(f64, f64)>, dead_end_after: bool) -> TurningLine {
        let figure = |value| Figure { value, half_width: 0.05 };
        TurningLine {
            point: TurningPoint { step: 36, delta: -0.23, noise: 0.07, cause: Some(cause) },
            words: "Ava plays a 6".into(),
            alternative: alt.map(|(played, suggested)| Alternative {
                step: 36,
                played: Action::EndTurn { hero: 0 },
                suggested: Action::EndTurn { hero: 1 },
                played_chance: figure(played),
                suggested_chance: figure(suggested),
                playouts: 200,
            }),
            suggested: alt.map(|_| "Sil plays an 8".into()),
            dead_end_after,
        }
    }

    /// Issue 55: "The planning bot would have played Ava plays a 6: 49 % ± 5,
    /// against 49 % ± 5" (ungrammatical, and equal numbers are no
    /// alternative); a draw that left only dead ends was "the luck of the draw".
    #[test]
    fn a_turning_point_reads_as_sentences_with_its_true_cause() {
        let (head, told) = turning_point(&line(Cause::Choice, Some((0.49, 0.49)), false), "23", "0");
        assert_eq!(head, "Move 37: the chance fell from 23 to 0 %.");
        assert_eq!(told, "Ava plays a 6: a choice.", "equal chances are no alternative");
        let (_, told) = turning_point(&line(Cause::Choice, Some((0.30, 0.62)), false), "50", "30");
        assert!(
            told.contains("would rather have had this: Sil plays an 8 (62 % ± 5 to win, against 30 % ± 5)"),
            "{told}"
        );
        let (_, told) = turning_point(&line(Cause::Reveal, None, false), "50", "30");
        assert!(told.contains("would have done the same"), "{told}");
        let (_, told) = turning_point(&line(Cause::Reveal, None, true), "23", "under 1");
        assert!(told.contains("every Map Tile left was a dead end"), "{told}");
    }

    /// Issue 55: a game lost long before its end ran ~240 moves at 0 % on
    /// the graph: the flat tail is found from where the chance stayed put.
    #[test]
    fn a_flat_tail_is_found_where_the_chance_stays_at_its_end() {
        let f = |value| Some(Figure { value, half_width: 0.02 });
        let mut points = vec![f(0.5), f(0.4), f(0.0), f(0.2)];
        points.extend(std::iter::repeat_n(f(0.0), 30));
        assert_eq!(flat_tail(&points), Some(4));
        assert_eq!(flat_tail(&[f(0.5), f(0.6)]), Some(1), "a last point alone is no tail worth folding");
        assert_eq!(flat_tail(&[]), None);
    }
}
