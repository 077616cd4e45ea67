//! The board screen: deals the demo dungeon and shows the in-game bar.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{
    board::Board,
    cli::Options,
    demo_map::DemoMap,
    screens::{Screen, menu::MenuAction},
    ui_style,
};

/// The seed of the game on the table.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameSeed(pub u64);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Playing), deal_demo_board);
    app.add_systems(
        EguiPrimaryContextPass,
        playing_bar_ui.run_if(in_state(Screen::Playing)),
    );
}

fn deal_demo_board(mut commands: Commands, options: Res<Options>) {
    let seed = options.seed.unwrap_or_else(clock_seed);
    commands.insert_resource(GameSeed(seed));
    commands.insert_resource(Board(DemoMap::new(seed)));
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
        % 1_000_000
}

fn playing_bar_ui(
    mut contexts: EguiContexts,
    seed: Option<Res<GameSeed>>,
    mut actions: MessageWriter<MenuAction>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    egui::Area::new(egui::Id::new("playing_bar"))
        .anchor(egui::Align2::LEFT_TOP, [12.0, 12.0])
        .show(ctx, |ui| {
            ui_style::bar_frame().show(ui, |ui| {
                ui.horizontal(|ui| {
                    if ui.button("☰ Menu").clicked() {
                        actions.write(MenuAction::BackToMenu);
                    }
                    ui.separator();
                    ui.label(ui_style::title("Forgotten Depths", 22.0));
                    if let Some(seed) = &seed {
                        ui.label(
                            egui::RichText::new(format!("demo dungeon · seed {}", seed.0))
                                .color(ui_style::MUTED),
                        );
                    }
                });
            });
        });
    egui::Area::new(egui::Id::new("playing_help"))
        .anchor(egui::Align2::LEFT_BOTTOM, [12.0, -12.0])
        .show(ctx, |ui| {
            ui_style::bar_frame().show(ui, |ui| {
                ui.label(
                    egui::RichText::new(
                        "drag or WASD / arrows: pan   ·   wheel: zoom   ·   F: fit the map",
                    )
                    .color(ui_style::MUTED),
                );
            });
        });
    egui::Area::new(egui::Id::new("legend"))
        .anchor(egui::Align2::RIGHT_TOP, [-12.0, 12.0])
        .show(ctx, |ui| {
            ui_style::bar_frame().show(ui, |ui| {
                ui.label(ui_style::title("Legend", 20.0));
                ui_style::legend(ui);
            });
        });
    Ok(())
}
