//! The main menu: New Game, Continue, Load, Rules, Quit.

use bevy::{prelude::*, window::RequestRedraw};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{PlaySystems, cli::Options, screens::Screen, ui_style};

/// A choice made on a menu or the in-game bar. The UI only writes these; the
/// rules step applies them, so tests can drive the game without egui.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum MenuAction {
    NewGame,
    Continue,
    Load,
    Rules,
    Quit,
    /// Leave the board for the main menu.
    BackToMenu,
}

/// A line shown under the menu buttons, e.g. for features that are not there yet.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct MenuNotice(pub Option<String>);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<MenuAction>();
    // Registered by bevy's WindowPlugin too; here so headless apps have it.
    app.add_message::<RequestRedraw>();
    app.init_resource::<MenuNotice>();
    app.add_systems(Update, apply_menu_actions.in_set(PlaySystems::Rules));
    app.add_systems(
        OnEnter(Screen::Menu),
        (
            |mut notice: ResMut<MenuNotice>| notice.0 = None,
            skip_menu_once
                .run_if(|options: Res<Options>| options.new_game || options.screenshot.is_some()),
        ),
    );
    app.add_systems(
        EguiPrimaryContextPass,
        main_menu_ui.run_if(in_state(Screen::Menu)),
    );
}

/// `--new-game` (and `--screenshot`): go straight to the board the first time
/// the menu comes up; "Menu" on the board still returns here.
fn skip_menu_once(mut actions: MessageWriter<MenuAction>, mut done: Local<bool>) {
    if !*done {
        *done = true;
        actions.write(MenuAction::NewGame);
    }
}

fn not_yet(what: &str) -> String {
    format!("{what} is not yet available: it arrives with the rules core.")
}

fn apply_menu_actions(
    mut actions: MessageReader<MenuAction>,
    mut next: ResMut<NextState<Screen>>,
    mut notice: ResMut<MenuNotice>,
    mut exit: MessageWriter<AppExit>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    for action in actions.read() {
        // The state changes on the next frame, and the new screen must be
        // drawn: under reactive rendering nothing else would ask for frames.
        redraw.write(RequestRedraw);
        match action {
            MenuAction::NewGame => next.set(Screen::Playing),
            MenuAction::Continue => notice.0 = Some(not_yet("Continue")),
            MenuAction::Load => notice.0 = Some(not_yet("Loading a saved game")),
            MenuAction::Rules => notice.0 = Some(not_yet("The rules reference")),
            MenuAction::Quit => {
                exit.write(AppExit::Success);
            }
            MenuAction::BackToMenu => next.set(Screen::Menu),
        }
    }
}

fn main_menu_ui(
    mut contexts: EguiContexts,
    notice: Res<MenuNotice>,
    mut actions: MessageWriter<MenuAction>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    egui::Area::new(egui::Id::new("main_menu"))
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui_style::panel_frame().show(ui, |ui| {
                ui.set_width(440.0);
                ui.vertical_centered(|ui| {
                    ui.label(ui_style::title("Forgotten Depths", 54.0));
                    ui.label(
                        egui::RichText::new("a cooperative dungeon of tiles and lantern-light")
                            .italics()
                            .color(ui_style::MUTED),
                    );
                    ui.add_space(24.0);
                    let buttons = [
                        ("New Game", MenuAction::NewGame),
                        ("Continue", MenuAction::Continue),
                        ("Load", MenuAction::Load),
                        ("Rules", MenuAction::Rules),
                        ("Quit", MenuAction::Quit),
                    ];
                    for (label, action) in buttons {
                        if ui.add(ui_style::menu_button(label)).clicked() {
                            actions.write(action);
                        }
                        ui.add_space(6.0);
                    }
                    if let Some(text) = &notice.0 {
                        ui.add_space(8.0);
                        ui.label(egui::RichText::new(text).color(ui_style::NOTICE));
                    }
                });
            });
        });
    Ok(())
}
