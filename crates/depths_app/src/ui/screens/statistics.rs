//! The Statistics screen, from the menu: how this machine's games went
//! (`game/records.rs`), as charts with their numbers on hover, the last
//! games as a list, and the records exported as CSV.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use egui_plot::{Bar, BarChart};

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

fn count_rows(list: &[(String, u32)], noun: &str) -> Vec<Row> {
    list.iter()
        .map(|(k, n)| Row {
            label: k.clone(),
            value: f64::from(*n),
            tag: n.to_string(),
            hover: format!("{k}: {n} {noun}"),
        })
        .collect()
}

/// A label no longer than a chart's axis has room for.
fn short(label: &str) -> String {
    const ROOM: usize = 26;
    if label.chars().count() <= ROOM {
        label.to_owned()
    } else {
        format!("{}…", label.chars().take(ROOM - 1).collect::<String>())
    }
}

/// A horizontal bar chart, one bar a row, its label on the left and its
/// number at the bar's end; hovering a bar says it in full.
fn bar_chart(ui: &mut egui::Ui, title: &str, rows: &[Row], max: f64) {
    ui.label(style::title(title, style::type_scale::HEADING));
    if rows.is_empty() {
        ui.label(egui::RichText::new("Nothing yet").color(style::MUTED));
        ui.add_space(10.0);
        return;
    }
    let n = rows.len();
    // Rows from the top: the first row has the highest argument.
    let at = |i: usize| (n - 1 - i) as f64;
    let labels: Vec<String> = rows.iter().map(|r| short(&r.label)).collect();
    let bars: Vec<Bar> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| Bar::new(at(i), r.value).width(0.6).fill(style::GOLD.gamma_multiply(0.75)))
        .collect();
    let texts: Vec<(f64, f64, String)> =
        rows.iter().enumerate().map(|(i, r)| (at(i), r.value, r.tag.clone())).collect();
    let hovers: Vec<String> = rows.iter().map(|r| r.hover.clone()).collect();
    let shown = style::still_plot(ui.next_auto_id())
        .height(34.0 + 28.0 * n as f32)
        // The plot's own hover label is drawn inside it and cut at its edge:
        // the bar's words come as a tooltip instead (below).
        .show_x(false)
        .show_y(false)
        .show_grid([true, false])
        // Room at the end of the longest bar for its number.
        .default_x_bounds(0.0, max * 1.3)
        .default_y_bounds(-0.6, n as f64 - 0.4)
        .y_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 1.0, 1.0]))
        .y_axis_min_width(150.0)
        .y_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() > 1e-6 || i < 0.0 || i as usize >= n {
                return String::new();
            }
            labels[n - 1 - i as usize].clone()
        })
        .x_axis_formatter(|mark, _| format!("{}", mark.value))
        .show(ui, |plot| {
            plot.bar_chart(BarChart::new(title, bars).horizontal());
            for (y, x, text) in texts {
                plot.text(
                    egui_plot::Text::new(
                        "",
                        egui_plot::PlotPoint::new(x, y),
                        egui::RichText::new(format!(" {text}")).size(style::type_scale::SMALL),
                    )
                    .anchor(egui::Align2::LEFT_CENTER)
                    .color(style::GOLD),
                );
            }
            plot.pointer_coordinate()
        });
    // The row under the pointer, in words.
    if let Some(p) = shown.inner.filter(|_| shown.response.hovered()) {
        let row = p.y.round();
        if (p.y - row).abs() <= 0.35 && row >= 0.0 && (row as usize) < n && p.x >= 0.0 {
            shown.response.on_hover_text_at_pointer(hovers[n - 1 - row as usize].clone());
        }
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
    egui::CentralPanel::default().show(&mut root, |ui| {
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
        ui.add_space(8.0);
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            let most = |rows: &[Row]| rows.iter().map(|r| r.value).fold(1.0, f64::max);
            let left = |ui: &mut egui::Ui| {
                bar_chart(ui, "Win rate by Heroes", &rate_rows(&s.by_heroes), 100.0);
                bar_chart(ui, "Win rate by variants", &rate_rows(&s.by_variants), 100.0);
                bar_chart(ui, "Win rate by starting Ecology", &rate_rows(&s.by_start), 100.0);
            };
            let right = |ui: &mut egui::Ui| {
                let depth = count_rows(&s.depth, "games ended here");
                bar_chart(ui, "How deep each run got", &depth, most(&depth));
                let causes = count_rows(&s.causes, "games lost so");
                bar_chart(ui, "Causes of defeat", &causes, most(&causes));
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
