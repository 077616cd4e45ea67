//! The ⚙ Settings window, and egui's zoom kept equal to the UI scale setting.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use depths_seats::seats::Strength;

use crate::game::settings::{AVAILABLE, NO_SOUND, Settings, Speed, UI_SCALES, Vision};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, (apply_zoom, settings_ui.run_if(|s: Res<Settings>| s.open)).chain());
    // Before the frame's painters: the board, the cards and the panels.
    app.add_systems(PreUpdate, apply_vision);
}

/// The palette's signal colours follow the setting (`palette::signals`).
fn apply_vision(settings: Res<Settings>) {
    if settings.is_changed() {
        crate::theme::palette::set_vision(settings.vision);
    }
}

/// Keeps egui's zoom and the setting together: the setting drives egui.
/// Ctrl+minus and Ctrl+plus (or Ctrl+=) step the setting through
/// [`UI_SCALES`], one step a press, read from each key's own event (egui's
/// own zoom keys moved it by tenths between the steps, and missed a quick
/// Ctrl that was down and up within one frame).
fn apply_zoom(mut contexts: EguiContexts, mut settings: ResMut<Settings>) -> Result {
    let ctx = contexts.ctx_mut()?;
    if ctx.options(|o| o.zoom_with_keyboard) {
        ctx.options_mut(|o| o.zoom_with_keyboard = false);
    }
    let steps: i32 = ctx.input(|i| {
        i.events
            .iter()
            .map(|e| match e {
                egui::Event::Key { key, pressed: true, repeat: false, modifiers, .. } if modifiers.command => match key
                {
                    egui::Key::Minus => -1,
                    egui::Key::Plus | egui::Key::Equals => 1,
                    _ => 0,
                },
                _ => 0,
            })
            .sum()
    });
    if steps != 0 {
        let scale = crate::game::settings::step_scale(settings.ui_scale, steps);
        if (scale - settings.ui_scale).abs() > 1e-3 {
            settings.ui_scale = scale;
            let _ = settings.write();
        }
    }
    if (ctx.zoom_factor() - settings.ui_scale).abs() > 1e-3 {
        ctx.set_zoom_factor(settings.ui_scale);
    }
    Ok(())
}

fn settings_ui(
    mut contexts: EguiContexts,
    mut settings: ResMut<Settings>,
    seats: Option<Res<crate::game::session::Seats>>,
    mut switch: MessageWriter<crate::game::hotseat::SetCurtain>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut open = settings.open;
    let mut chosen = None;
    // In a game the box shows (and switches) that game's curtain.
    let mut curtain = seats.as_ref().map_or(settings.curtain, |s| s.players.curtain);
    let mut curtain_changed = false;
    let mut speed_chosen = None;
    let mut strength_chosen = None;
    let mut vision_chosen = None;
    let mut strong_changed = false;
    let mut screen_changed = false;
    let mut sound_changed = false;
    egui::Window::new("Settings")
        .id(egui::Id::new("settings"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::RIGHT_TOP, [-12.0, 44.0])
        // Over the menu's box, which a click on it brought forward.
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            ui.label(egui::RichText::new("UI scale").strong());
            ui.horizontal(|ui| {
                for s in UI_SCALES {
                    let on = (settings.ui_scale - s).abs() < 1e-3;
                    if ui.selectable_label(on, format!("{}%", (s * 100.0).round())).clicked() {
                        chosen = Some(s);
                    }
                }
            });
            ui.label(
                egui::RichText::new(format!(
                    "Ctrl + / Ctrl − also zoom. Remembered in {}",
                    crate::game::saves::shown_path(&settings.file)
                ))
                .size(crate::theme::style::type_scale::FINE)
                .color(crate::theme::style::MUTED),
            );
            if let Some(problem) = &settings.problem {
                ui.label(
                    egui::RichText::new(problem)
                        .size(crate::theme::style::type_scale::FINE)
                        .color(crate::theme::style::notice()),
                );
            }
            ui.separator();
            curtain_changed = ui
                .checkbox(&mut curtain, "\"Pass to …\" screen between players")
                .on_hover_text(
                    "Hot-seat: hide the table when it changes hands, after the player who acted has seen the result",
                )
                .changed();
            ui.separator();
            strong_changed = ui
                .checkbox(&mut settings.strong_hints, "Stronger hints (search every Combat choice)")
                .on_hover_text(
                    "The Hint plays each Combat choice out in 16 reshuffled worlds per option (a few \
                     milliseconds) instead of the careful bot's rules of thumb; it wins about 58% of \
                     games to the careful bot's 43%",
                )
                .changed();
            screen_changed = ui
                .checkbox(&mut settings.fullscreen, "Fullscreen (F11)")
                .on_hover_text("The window fills its screen, without borders; F11 switches it anywhere in the game")
                .changed();
            egui::Grid::new("vision_choice").show(ui, |ui| {
                vision_chosen = choice_row(ui, "Colours", &Vision::ALL, settings.vision, Vision::name, Vision::hint);
            });
            ui.separator();
            ui.label(egui::RichText::new("Companions play").strong());
            // A grid: both rows' choices start at one edge.
            egui::Grid::new("companion_choices").show(ui, |ui| {
                speed_chosen = choice_row(ui, "Pace", &Speed::ALL, settings.companion_speed, Speed::name, Speed::hint);
                strength_chosen = choice_row(
                    ui,
                    "Strength",
                    &Strength::ALL,
                    settings.companion_strength,
                    Strength::name,
                    Strength::hint,
                );
            });
            ui.separator();
            sound_changed = sound_controls(ui, &mut settings);
        });
    if let Some(speed) = speed_chosen {
        settings.companion_speed = speed;
    }
    if let Some(strength) = strength_chosen {
        settings.companion_strength = strength;
    }
    if let Some(vision) = vision_chosen {
        settings.vision = vision;
    }
    if curtain_changed {
        settings.curtain = curtain;
        if seats.is_some() {
            switch.write(crate::game::hotseat::SetCurtain(curtain));
        }
    }
    if let Some(s) = chosen {
        settings.ui_scale = s;
    }
    // Every change is written at once: nothing chosen is lost on a crash.
    let changed = sound_changed
        || screen_changed
        || strong_changed
        || speed_chosen.is_some()
        || strength_chosen.is_some()
        || vision_chosen.is_some()
        || curtain_changed
        || chosen.is_some();
    if changed {
        settings.keep();
    }
    // Escape closes it, as it does the rules reference.
    if open && ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
        open = false;
    }
    if settings.open != open {
        settings.open = open;
    }
    Ok(())
}

/// A grid row: `label`, then `options` with `now` marked; the one clicked.
fn choice_row<T: Copy + PartialEq>(
    ui: &mut egui::Ui,
    label: &str,
    options: &[T],
    now: T,
    name: fn(T) -> &'static str,
    hint: fn(T) -> &'static str,
) -> Option<T> {
    ui.label(label);
    let chosen = ui
        .horizontal(|ui| {
            let mut chosen = None;
            for &option in options {
                if ui.selectable_label(now == option, name(option)).on_hover_text(hint(option)).clicked() {
                    chosen = Some(option);
                }
            }
            chosen
        })
        .inner;
    ui.end_row();
    chosen
}

/// Mute and the volumes (greyed, with the reason, in a build without
/// sound); true when a change is to be saved.
fn sound_controls(ui: &mut egui::Ui, settings: &mut Settings) -> bool {
    ui.label(egui::RichText::new("Sound").strong());
    let mut save = false;
    ui.add_enabled_ui(AVAILABLE, |ui| {
        save |= ui.checkbox(&mut settings.muted, "Mute").changed();
        for (label, value) in [("Volume", &mut settings.master_volume), ("Music", &mut settings.music_volume)] {
            let slider =
                egui::Slider::new(value, 0.0..=1.0).text(label).custom_formatter(|v, _| format!("{:.0}%", v * 100.0));
            let response = ui.add(slider);
            // Saved when let go, not at every step of a drag.
            save |= response.drag_stopped() || (response.changed() && !response.dragged());
        }
    });
    if !AVAILABLE {
        ui.label(
            egui::RichText::new(NO_SOUND).size(crate::theme::style::type_scale::FINE).color(crate::theme::style::MUTED),
        );
    }
    save
}
