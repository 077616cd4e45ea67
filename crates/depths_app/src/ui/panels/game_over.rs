//! The end of a game, on a screen of its own over the whole window: won or
//! lost and why, the party's record (each Hero, the delve), the graph of
//! the party's chance move by move across the whole width with its three
//! turning points, and what to do next: watch the replay with its
//! analysis, play again with the same Heroes, look at the table, or go
//! back to the menu. (A small window had held all this, scrolling.)

use super::widgets::*;

/// What the screen shows besides the game: its analysis and its clock.
pub(super) struct Shown<'a> {
    pub board: &'a crate::game::analysis::AnalysisBoard,
    pub clock: Option<&'a crate::game::play_clock::PlayClock>,
    /// The record written at the game's end, if this sitting wrote it.
    pub record: Option<&'a crate::game::records::GameRecord>,
}

/// Where the screen's buttons lead.
pub(super) struct Leads<'a, 'w> {
    pub menu: &'a mut MessageWriter<'w, MenuAction>,
    pub replay: &'a mut MessageWriter<'w, crate::game::replay::WatchReplay>,
    pub again: &'a mut MessageWriter<'w, crate::game::session::StartGame>,
}

/// Below this width (points) the party and the delve stand one over the other.
const TWO_COLUMNS: f32 = 860.0;

pub(super) fn game_over_screen(
    ctx: &egui::Context,
    delve: &Delve,
    seats: &Seats,
    leads: Leads,
    looking: &mut bool,
    shown: Shown,
    room: egui::Rect,
) {
    let game = delve.game();
    let (title, cause, accent) = match game.phase() {
        Phase::Won => (
            "Victory",
            "The Final Entity is defeated and the Heroes climb back into the light.".to_owned(),
            style::GOLD,
        ),
        Phase::Lost(r) => ("Defeat", format!("The Heroes lose: {}.", loss_text(game, &r)), bad()),
        _ => return,
    };
    let screen = ctx.content_rect();
    // Looking at the table: a bar at the top of the board's room brings the
    // screen back (at the window's top it covered Undo and the banner's
    // words; at the room's foot, the party's strip and its hover box).
    if *looking {
        egui::Area::new(egui::Id::new("game_over_bar"))
            .order(egui::Order::Foreground)
            .pivot(egui::Align2::CENTER_TOP)
            .fixed_pos(egui::pos2(room.center().x, room.min.y + 8.0))
            .show(ctx, |ui| {
                style::bar_frame().show(ui, |ui| {
                    ui.horizontal(|ui| {
                        ui.label(style::title(title, style::type_scale::HEADING));
                        if ui.button("Show the end of the game").clicked() {
                            *looking = false;
                        }
                    });
                });
            });
        return;
    }
    egui::Area::new(egui::Id::new("game_over")).order(egui::Order::Foreground).fixed_pos(screen.min).show(ctx, |ui| {
        let frame = egui::Frame::new()
            .fill(crate::theme::palette::PANEL_GROUND.egui())
            .inner_margin(egui::Margin::symmetric(28, 16));
        ui.set_min_size(screen.size());
        ui.set_max_size(screen.size());
        frame.show(ui, |ui| {
            let inner = screen.shrink2(egui::vec2(28.0, 16.0));
            ui.set_min_size(inner.size());
            ui.set_max_size(inner.size());
            // The buttons keep the bottom; the rest scrolls above them.
            egui::Panel::bottom("game_over_buttons").frame(egui::Frame::new()).show(ui, |ui| {
                ui.add_space(8.0);
                buttons(ui, delve, seats, leads, looking);
            });
            egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
                ui.vertical_centered(|ui| {
                    ui.label(style::title(title, style::type_scale::HERO).color(accent));
                    ui.label(egui::RichText::new(cause).size(style::type_scale::LEAD));
                    // Wrapped: one line, it ran past the page's right edge ("… at the tabl").
                    if let Some(line) = kept_line(&shown) {
                        ui.add(egui::Label::new(egui::RichText::new(line).color(style::MUTED)).wrap());
                    }
                });
                ui.add_space(10.0);
                // First how it went (the graph across the page and its turning
                // points), then the record.
                ui.label(style::title("How the game went", style::type_scale::TITLE));
                crate::ui::analysis_panel::graph_caption(ui);
                if delve.history.is_some() {
                    let height = (screen.height() * 0.24).clamp(100.0, 240.0);
                    crate::ui::analysis_panel::chance_graph(ui, shown.board, None, height);
                    ui.add_space(4.0);
                    crate::ui::analysis_panel::turning_lines(ui, shown.board, None);
                } else {
                    ui.label(
                        "This table does not know the game's moves from its start (a save of an earlier \
                             version, or an online seat taken after the start), so it has no analysis.",
                    );
                }
                ui.add_space(6.0);
                ui.separator();
                if ui.available_width() >= TWO_COLUMNS {
                    ui.columns(2, |cols| {
                        party(&mut cols[0], game);
                        delve_record(&mut cols[1], game, &shown);
                    });
                } else {
                    party(ui, game);
                    ui.add_space(8.0);
                    delve_record(ui, game, &shown);
                }
            });
        });
    });
}

/// What Statistics keeps of the game (or, for a game recorded before, its time).
fn kept_line(shown: &Shown) -> Option<String> {
    match (shown.record, shown.clock) {
        (Some(r), _) => Some(format!("Kept in Statistics: {}", crate::game::records::record_line(r))),
        (None, Some(clock)) if clock.played_ms >= 1000 => {
            Some(format!("{} at the table", crate::game::words::time_spent(clock.played_ms / 1000)))
        }
        _ => None,
    }
}

/// Each Hero as the game left them: level, Health, Items and Abilities by name.
fn party(ui: &mut egui::Ui, game: &Game) {
    ui.label(style::title("The party", style::type_scale::TITLE));
    for hero in &game.heroes {
        ui.add_space(4.0);
        ui.horizontal_wrapped(|ui| {
            ui.label(style::title(hero.name(), style::type_scale::HEADING));
            ui.label(
                egui::RichText::new(format!("level {} · {} of {} Health", hero.level, hero.health, hero.max_health()))
                    .size(style::type_scale::LEAD),
            );
        });
        // A Fabled Blade says what it is: "Null" alone read as a blank.
        let items: Vec<String> = hero
            .items
            .iter()
            .map(|i| if i.card.fabled_blade { format!("{} (Fabled Blade)", i.card.name) } else { i.card.name.clone() })
            .collect();
        let abilities = crate::game::words::ability_names(hero);
        for (what, names) in [("Items", items), ("Abilities", abilities)] {
            let list = if names.is_empty() { "none".to_owned() } else { names.join(", ") };
            ui.label(egui::RichText::new(format!("{what}: {list}")).color(style::MUTED));
        }
    }
}

/// The delve: Ecologies cleared, Monsters, XP, tiles, Legendary Locations, Rounds.
fn delve_record(ui: &mut egui::Ui, game: &Game, shown: &Shown) {
    let Some(a) = game.adventure() else { return };
    let rec = &a.record;
    ui.label(style::title("The delve", style::type_scale::TITLE));
    let cleared: Vec<&str> = rec.ecologies_cleared.iter().map(|e| e.name()).collect();
    let mut rows = vec![
        ("Ecologies cleared", if cleared.is_empty() { "none".into() } else { cleared.join(", ") }),
        ("Monsters defeated", rec.monsters_defeated.to_string()),
        ("XP earned / spent", format!("{} / {}", rec.xp_earned, rec.xp_spent)),
        ("Map Tiles placed", rec.tiles_placed.to_string()),
        (
            "Legendary Locations",
            if rec.legendary_locations_found.is_empty() {
                "none".into()
            } else {
                rec.legendary_locations_found.join(", ")
            },
        ),
    ];
    if let Some(n) = shown.record.and_then(|r| r.rounds) {
        rows.push(("Combat Rounds", n.to_string()));
    }
    let width = ui.available_width();
    egui::Grid::new("game_over_record").num_columns(2).spacing([16.0, 4.0]).show(ui, |ui| {
        for (what, value) in rows {
            ui.label(egui::RichText::new(what).color(style::MUTED));
            // Long lists (Legendary Locations) wrap inside the second column.
            ui.scope(|ui| {
                ui.set_max_width((width - 180.0).max(160.0));
                ui.add(egui::Label::new(egui::RichText::new(value).size(style::type_scale::LEAD)).wrap());
            });
            ui.end_row();
        }
    });
}

/// What to do next, in a row across the bottom, centred.
fn buttons(ui: &mut egui::Ui, delve: &Delve, seats: &Seats, leads: Leads, looking: &mut bool) {
    let game = delve.game();
    // Centred by the row's width the frame before (while it fits on one line).
    let id = egui::Id::new("game_over_row");
    let row: Option<f32> = ui.data(|d| d.get_temp::<Option<f32>>(id)).flatten();
    let button = |label: &str| {
        egui::Button::new(style::title(label, style::type_scale::HEADING)).min_size(egui::vec2(180.0, 38.0))
    };
    let mut shown: Vec<egui::Rect> = Vec::new();
    ui.horizontal_wrapped(|ui| {
        if let Some(w) = row.filter(|w| *w < ui.available_width()) {
            ui.add_space((ui.available_width() - w) / 2.0);
        }
        if let (Some(history), Some(a)) = (&delve.history, game.adventure()) {
            let watch = ui
                .add(button("Watch the replay"))
                .on_hover_text("Every move again, with the graph and the turning points beside it");
            shown.push(watch.rect);
            if watch.clicked() {
                leads.replay.write(crate::game::replay::WatchReplay {
                    options: a.options.clone(),
                    history: history.clone(),
                    players: seats.players.clone(),
                    save: None,
                });
            }
        }
        if let Some(a) = game.adventure() {
            let again = ui
                .add(button("Play again"))
                .on_hover_text("A new game with the same Heroes, players and choices, on new tiles");
            shown.push(again.rect);
            if again.clicked() {
                let options =
                    depths_rules::GameOptions { seed: crate::game::session::clock_seed(), ..a.options.clone() };
                leads.again.write(crate::game::session::StartGame(options));
            }
        }
        let look = ui.add(button("Look at the table")).on_hover_text("The board as the game left it");
        shown.push(look.rect);
        if look.clicked() {
            *looking = true;
        }
        let menu = ui.add(button("Back to the menu"));
        shown.push(menu.rect);
        if menu.clicked() {
            leads.menu.write(MenuAction::BackToMenu);
        }
    });
    let (first, last) = (shown[0], shown[shown.len() - 1]);
    let one_line = (first.min.y - last.min.y).abs() < 1.0;
    let width = one_line.then_some(last.max.x - first.min.x);
    if width != row {
        ui.data_mut(|d| d.insert_temp(id, width));
        ui.ctx().request_repaint();
    }
}
