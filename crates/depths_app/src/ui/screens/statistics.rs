//! The Statistics screen, from the menu: how this machine's games went
//! (`game/records.rs`), as charts with their numbers on hover, the last
//! games as a list, and the records exported as CSV.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{
    game::flow::MenuAction,
    game::records::{GameRecord, Outcome, RecordsFile, Statistics, read_records, to_csv},
    game::screen::Screen,
    theme::style,
};

/// The records as read when the screen opened.
#[derive(Resource, Debug, Default)]
pub struct StatisticsView {
    pub records: Vec<GameRecord>,
    /// Lines that were skipped, each naming the file and line.
    pub problems: Vec<String>,
    pub stats: Statistics,
    /// What the last export did, in words.
    pub exported: Option<String>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<StatisticsView>();
    app.add_systems(OnEnter(Screen::Statistics), read_view);
    app.add_systems(OnExit(Screen::Statistics), |mut view: ResMut<StatisticsView>| *view = default());
}

pub(super) fn desktop_plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, statistics_ui.run_if(in_state(Screen::Statistics)));
}

fn read_view(file: Option<Res<RecordsFile>>, mut view: ResMut<StatisticsView>) {
    let (records, problems) = file.map_or_else(Default::default, |f| read_records(&f.0));
    for p in &problems {
        warn!("{p}");
    }
    let stats = Statistics::of(&records);
    *view = StatisticsView { records, problems, stats, exported: None };
}

/// One row of a chart: its label, its length, the number at its end and
/// the words on hover.
struct Row {
    label: String,
    value: f64,
    tag: String,
    hover: String,
}

fn rate_rows(list: &[(String, crate::game::records::Tally)]) -> Vec<Row> {
    list.iter()
        .map(|(k, t)| Row {
            label: k.clone(),
            value: t.rate() * 100.0,
            tag: format!("{:.0} % · {} of {}", t.rate() * 100.0, t.won, t.played),
            hover: format!("{k}: won {} of {} ({:.0} %)", t.won, t.played, t.rate() * 100.0),
        })
        .collect()
}

/// Rows of counts; `what` says of how many games ("ended here"): "1 game
/// ended here", "3 games ended here".
fn count_rows(list: &[(String, u32)], what: &str) -> Vec<Row> {
    list.iter()
        .map(|(k, n)| Row {
            label: k.clone(),
            value: f64::from(*n),
            tag: n.to_string(),
            hover: format!("{k}: {} {what}", crate::game::words::counted(u64::from(*n), "game", "games")),
        })
        .collect()
}

/// What a chart's bars measure: a rate, whose track is 0 to 100 %, or a
/// count, whose track runs to the largest count.
#[derive(Clone, Copy, PartialEq)]
enum Scale {
    Rate,
    Count,
}

/// A bar chart in the table's look: a row per label, a gold bar on a dark
/// track, the number after it, a scale under the tracks; hovering a row
/// says it in full. Painted, not plotted: a plot's axes ran past 100 % and
/// past whole counts.
fn bar_chart(ui: &mut egui::Ui, title: &str, rows: &[Row], scale: Scale) {
    ui.label(style::title(title, style::type_scale::HEADING));
    if rows.is_empty() {
        ui.label(egui::RichText::new("Nothing yet").color(style::MUTED));
        ui.add_space(10.0);
        return;
    }
    let max = match scale {
        Scale::Rate => 100.0,
        Scale::Count => rows.iter().map(|r| r.value).fold(1.0, f64::max),
    };
    let width = ui.available_width();
    let label_w = (width * 0.34).clamp(100.0, 200.0);
    let tag_w = match scale {
        Scale::Rate => 118.0,
        Scale::Count => 40.0,
    };
    let font = egui::FontId::proportional(style::type_scale::BODY);
    let small = egui::FontId::proportional(style::type_scale::SMALL);
    let mut track_x = (0.0, 0.0);
    for r in rows {
        let (rect, response) = ui.allocate_exact_size(egui::vec2(width, 26.0), egui::Sense::hover());
        let painter = ui.painter_at(rect);
        // The label, cut with "…" where it is longer than its column (whole on hover).
        let mut job =
            egui::text::LayoutJob::simple_singleline(r.label.clone(), font.clone(), crate::theme::palette::TEXT.egui());
        job.wrap = egui::text::TextWrapping::truncate_at_width(label_w);
        let galley = painter.layout_job(job);
        let y = rect.center().y;
        painter.galley(egui::pos2(rect.left(), y - galley.size().y / 2.0), galley, crate::theme::palette::TEXT.egui());
        let (left, right) =
            (rect.left() + label_w + 8.0, (rect.right() - tag_w - 8.0).max(rect.left() + label_w + 40.0));
        track_x = (left, right);
        let track = egui::Rect::from_min_max(egui::pos2(left, y - 8.0), egui::pos2(right, y + 8.0));
        painter.rect_filled(track, 4.0, crate::theme::palette::BLACK.egui_alpha(120));
        let share = (r.value / max).clamp(0.0, 1.0) as f32;
        if share > 0.0 {
            let bar = egui::Rect::from_min_max(track.min, egui::pos2(left + (right - left) * share, track.max.y));
            painter.rect_filled(bar, 4.0, style::GOLD.gamma_multiply(0.8));
        }
        painter.text(egui::pos2(right + 8.0, y), egui::Align2::LEFT_CENTER, &r.tag, small.clone(), style::GOLD);
        response.on_hover_text(&r.hover);
    }
    // The scale: where the track starts, its middle (a rate) and its end.
    let (rect, _) = ui.allocate_exact_size(egui::vec2(width, 16.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let (left, right) = track_x;
    let ticks: Vec<(f32, String)> = match scale {
        Scale::Rate => vec![(0.0, "0 %".into()), (0.5, "50 %".into()), (1.0, "100 %".into())],
        Scale::Count => vec![(0.0, "0".into()), (1.0, format!("{max:.0}"))],
    };
    for (at, text) in ticks {
        let x = left + (right - left) * at;
        painter.text(egui::pos2(x, rect.center().y), egui::Align2::CENTER_CENTER, text, small.clone(), style::MUTED);
    }
    ui.add_space(10.0);
}

fn outcome_text(r: &GameRecord) -> String {
    match r.outcome {
        Outcome::Won => "Victory".into(),
        Outcome::Lost => match &r.cause {
            Some(c) => format!("Lost: {}", crate::game::records::cause_text(c)),
            None => "Lost".into(),
        },
        Outcome::Unfinished => "Left unfinished".into(),
    }
}

fn statistics_ui(
    mut contexts: EguiContexts,
    mut view: ResMut<StatisticsView>,
    file: Option<Res<RecordsFile>>,
    mut menu: MessageWriter<MenuAction>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut root = egui::Ui::new(
        ctx.clone(),
        "statistics".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.content_rect()),
    );
    // The table's ground and frame, not a bare grey page.
    let page = egui::Frame::new()
        .fill(crate::theme::palette::PANEL_GROUND.egui())
        .stroke(egui::Stroke::new(2.0, crate::theme::palette::EDGE.egui()))
        .inner_margin(egui::Margin::symmetric(28, 18));
    egui::CentralPanel::default().frame(page).show(&mut root, |ui| {
        ui.horizontal(|ui| {
            ui.label(style::title("Statistics", style::type_scale::TITLE));
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let back = ui.add(style::menu_button("Back to the menu")).on_hover_text("Esc");
                if back.clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                    menu.write(MenuAction::BackToMenu);
                }
                let can_export = !view.records.is_empty() && file.is_some();
                if ui
                    .add_enabled(can_export, egui::Button::new("Export as CSV"))
                    .on_hover_text("Every game recorded, one row each, for a spreadsheet")
                    .clicked()
                    && let Some(file) = &file
                {
                    let path = file.0.with_file_name("records.csv");
                    let csv = to_csv(&view.records, &jiff::tz::TimeZone::system());
                    view.exported = Some(match crate::game::saves::write_atomic(&path, &csv) {
                        Ok(()) => format!("Exported {} games to {}", view.records.len(), path.display()),
                        Err(e) => format!("Could not write {}: {e}", path.display()),
                    });
                }
            });
        });
        if let Some(said) = &view.exported {
            ui.label(egui::RichText::new(said).color(style::MUTED));
        }
        // A few skipped lines by name (all are in the log), then how many more.
        for p in view.problems.iter().take(3) {
            ui.label(egui::RichText::new(p).color(style::notice()));
        }
        if view.problems.len() > 3 {
            let more = format!("… and {} more lines skipped (see the log)", view.problems.len() - 3);
            ui.label(egui::RichText::new(more).color(style::notice()));
        }
        ui.separator();
        let s = &view.stats;
        if view.records.is_empty() {
            ui.add_space(40.0);
            ui.vertical_centered(|ui| {
                ui.label(style::title("No games recorded yet", style::type_scale::HEADING));
                ui.add_space(8.0);
                ui.label(
                    "Every game you finish here, won or lost, is kept on this machine, and so is one you leave \
                     after its first Ecology. Play one and come back: how far you got, what ended it and your \
                     win rate by Heroes, variants and starting Ecology will be here.",
                );
            });
            return;
        }
        // "0 left unfinished" said nothing: an unfinished count shows only when there is one.
        let unfinished =
            if s.unfinished == 0 { String::new() } else { format!(" · {} left unfinished", s.unfinished) };
        ui.label(
            egui::RichText::new(format!(
                "{} finished · {} won ({:.0} %){unfinished} · {} at the table",
                crate::game::words::counted(s.all.played, "game", "games"),
                s.all.won,
                s.all.rate() * 100.0,
                crate::game::words::time_spent(s.seconds)
            ))
            .size(style::type_scale::LEAD),
        );
        if s.all.played + s.unfinished <= 1 {
            ui.label(
                egui::RichText::new("One game so far: the charts compare your games as you play more of them.")
                    .color(style::MUTED),
            );
        }
        ui.add_space(8.0);
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            let left = |ui: &mut egui::Ui| {
                bar_chart(ui, "Win rate by Heroes", &rate_rows(&s.by_heroes), Scale::Rate);
                bar_chart(ui, "Win rate by variants", &rate_rows(&s.by_variants), Scale::Rate);
                bar_chart(ui, "Win rate by starting Ecology", &rate_rows(&s.by_start), Scale::Rate);
            };
            let right = |ui: &mut egui::Ui| {
                let depth = count_rows(&s.depth, "ended here");
                bar_chart(ui, "How deep each run got", &depth, Scale::Count);
                let causes = count_rows(&s.causes, "lost so");
                bar_chart(ui, "Causes of defeat", &causes, Scale::Count);
                recent_games(ui, &view.records);
            };
            if ui.available_width() >= 900.0 {
                ui.columns(2, |cols| {
                    left(&mut cols[0]);
                    right(&mut cols[1]);
                });
            } else {
                left(ui);
                right(ui);
            }
        });
    });
    Ok(())
}

/// The last games, newest first.
fn recent_games(ui: &mut egui::Ui, records: &[GameRecord]) {
    ui.label(style::title("The last games", style::type_scale::HEADING));
    let zone = jiff::tz::TimeZone::system();
    egui::Grid::new("recent_games").striped(true).num_columns(4).show(ui, |ui| {
        for r in records.iter().rev().take(10) {
            ui.label(egui::RichText::new(r.ended_at(&zone)).color(style::MUTED));
            ui.label(crate::game::records::party(&r.heroes));
            let outcome = egui::RichText::new(outcome_text(r));
            ui.label(if r.outcome == Outcome::Won { outcome.color(style::good()) } else { outcome });
            ui.label(format!("{} · {}", r.reached.name(), crate::game::words::time_spent(r.seconds)));
            ui.end_row();
        }
    });
}
