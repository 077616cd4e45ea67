//! The game-over sheet: won or lost and why, the Adventure Record, the
//! graph of the party's chance move by move with its three turning points,
//! and what the Statistics screen keeps of the game.

use super::widgets::*;

/// What the sheet shows besides the game: its analysis and its clock.
pub(super) struct Shown<'a> {
    pub board: &'a crate::game::analysis::AnalysisBoard,
    pub clock: Option<&'a crate::game::play_clock::PlayClock>,
    /// The record written at the game's end, if this sitting wrote it.
    pub record: Option<&'a crate::game::records::GameRecord>,
}

pub(super) fn game_over_window(
    ctx: &egui::Context,
    delve: &Delve,
    seats: &Seats,
    menu: &mut MessageWriter<MenuAction>,
    replay: &mut MessageWriter<crate::game::replay::WatchReplay>,
    room: egui::Rect,
    shown: Shown,
) {
    let game = delve.game();
    // In the board's room, the Hero mats and the party beside it still read.
    let width = 560.0f32.min(room.width() - 16.0);
    egui::Window::new("Game over")
        .pivot(egui::Align2::CENTER_CENTER)
        .fixed_pos(room.center())
        .constrain_to(room)
        .collapsible(true)
        .resizable(false)
        .vscroll(true)
        .max_width(width)
        .max_height(room.height() - 16.0)
        .show(ctx, |ui| {
            ui.set_min_width(420.0f32.min(width));
            ui.set_max_width(width);
            match &game.phase() {
                Phase::Won => {
                    ui.label(style::title("Victory", style::type_scale::BANNER));
                    ui.label("The Final Entity is defeated and the Heroes climb back into the light.");
                }
                Phase::Lost(r) => {
                    ui.label(style::title("Defeat", style::type_scale::BANNER));
                    ui.label(format!("The Heroes lose: {}.", loss_text(game, r)));
                }
                _ => {}
            }
            // First how it went (the graph and its turning points), then the record.
            // The line Statistics keeps of it (or, for a game recorded before, its time).
            match (shown.record, shown.clock) {
                (Some(r), _) => {
                    let line = format!("Kept in Statistics: {}", crate::game::records::record_line(r));
                    ui.label(egui::RichText::new(line).color(style::MUTED));
                }
                (None, Some(clock)) if clock.played_ms >= 1000 => {
                    let time = crate::game::words::time_spent(clock.played_ms / 1000);
                    ui.label(egui::RichText::new(format!("{time} at the table")).color(style::MUTED));
                }
                _ => {}
            }
            ui.separator();
            ui.label(style::title("How the game went", style::type_scale::TITLE));
            ui.label(
                egui::RichText::new("The party's chance to win after each move, from what the players could see then")
                    .size(style::type_scale::SMALL)
                    .color(style::MUTED),
            );
            if delve.history.is_some() {
                crate::ui::analysis_panel::chance_graph(ui, shown.board, None, 110.0);
                crate::ui::analysis_panel::turning_lines(ui, shown.board, None);
            } else {
                ui.label(
                    "This table does not know the game's moves from its start (a save of an earlier version, or \
                     an online seat taken after the start), so it has no analysis.",
                );
            }
            if let Some(a) = game.adventure() {
                let rec = &a.record;
                ui.separator();
                ui.label(style::title("Adventure Record", style::type_scale::TITLE));
                // Long lists (Legendary Locations) wrap inside the second column.
                egui::Grid::new("record").max_col_width((width - 180.0).clamp(160.0, 380.0)).show(ui, |ui| {
                    let cleared: Vec<&str> = rec.ecologies_cleared.iter().map(|e| e.name()).collect();
                    ui.label("Ecologies cleared");
                    ui.label(if cleared.is_empty() { "none".into() } else { cleared.join(", ") });
                    ui.end_row();
                    ui.label("Monsters defeated");
                    ui.label(rec.monsters_defeated.to_string());
                    ui.end_row();
                    ui.label("XP earned / spent");
                    ui.label(format!("{} / {}", rec.xp_earned, rec.xp_spent));
                    ui.end_row();
                    ui.label("Tiles placed");
                    ui.label(rec.tiles_placed.to_string());
                    ui.end_row();
                    ui.label("Legendary Locations");
                    ui.label(if rec.legendary_locations_found.is_empty() {
                        "none".into()
                    } else {
                        rec.legendary_locations_found.join(", ")
                    });
                    ui.end_row();
                });
                for hero in &game.heroes {
                    ui.label(format!(
                        "{}: level {}, {} / {} Health, {}, {}",
                        hero.name(),
                        hero.level,
                        hero.health,
                        hero.max_health(),
                        counted(hero.items.len() as u64, "Item", "Items"),
                        counted(hero.abilities.len() as u64, "Ability", "Abilities")
                    ));
                }
            }
            ui.add_space(8.0);
            if let (Some(history), Some(a)) = (&delve.history, game.adventure())
                && ui.add(style::menu_button("Watch the replay")).clicked()
            {
                replay.write(crate::game::replay::WatchReplay {
                    options: a.options.clone(),
                    history: history.clone(),
                    players: seats.players.clone(),
                    save: None,
                });
            }
            if ui.add(style::menu_button("Back to the menu")).clicked() {
                menu.write(MenuAction::BackToMenu);
            }
        });
}
