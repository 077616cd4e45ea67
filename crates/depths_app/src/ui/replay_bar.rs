//! The replay's bar over the foot of the Hero mats, and its keys (← → Home End).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{
    PlaySystems,
    game::flow::MenuAction,
    game::replay::{GoToStep, Replay},
    game::screen::Screen,
    theme::style,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        replay_bar.run_if(in_state(Screen::Playing).and_then(resource_exists::<Replay>)),
    );
    app.add_systems(Update, replay_keys.in_set(PlaySystems::Input).run_if(resource_exists::<Replay>));
}

/// ← → step, Home / End to the ends.
fn replay_keys(keys: Res<ButtonInput<KeyCode>>, replay: Res<Replay>, mut go: MessageWriter<GoToStep>) {
    let step = replay.step;
    if keys.just_pressed(KeyCode::ArrowRight) || keys.just_pressed(KeyCode::Period) {
        go.write(GoToStep(step + 1));
    }
    if keys.just_pressed(KeyCode::ArrowLeft) || keys.just_pressed(KeyCode::Comma) {
        go.write(GoToStep(step.saturating_sub(1)));
    }
    if keys.just_pressed(KeyCode::Home) {
        go.write(GoToStep(0));
    }
    if keys.just_pressed(KeyCode::End) {
        go.write(GoToStep(replay.history.len()));
    }
}

fn replay_bar(
    mut contexts: EguiContexts,
    replay: Res<Replay>,
    mut go: MessageWriter<GoToStep>,
    mut menu: MessageWriter<MenuAction>,
    (geometry, area, delve): (
        Res<crate::table::cards::TableGeometry>,
        Res<crate::game::focus::BoardArea>,
        Option<Res<crate::game::session::Delve>>,
    ),
    mut was: Local<Option<Vec2>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let total = replay.history.len();
    // In the board's room: in a Combat where it covers no card (anchored to
    // the window at 150 % it lay over the hands), else at the room's foot.
    let z = ctx.zoom_factor();
    let id = egui::Id::new("replay_bar");
    let size = ctx.memory(|m| m.area_rect(id)).map_or(egui::vec2(290.0, 110.0), |r| r.size());
    let room = area.0.map_or(ctx.content_rect(), |r| style::in_points(r, z));
    let in_combat = delve.is_some_and(|d| d.game().combat().is_some());
    // Where it lay stays while it is as clear as any: moving as cards came
    // and went, it left a second click on ▶ to land on a card.
    let at = match geometry.clear_corner_keeping(Vec2::new(size.x, size.y), z, *was).filter(|_| in_combat) {
        Some(at) => egui::pos2(at.x, at.y),
        None => egui::pos2(room.min.x + 8.0, room.max.y - size.y - 8.0),
    };
    *was = in_combat.then_some(Vec2::new(at.x, at.y));
    egui::Window::new("Replay").id(id).title_bar(false).fixed_pos(at).constrain_to(room).resizable(false).show(
        ctx,
        |ui| {
            ui.set_max_width(270.0);
            ui.horizontal(|ui| {
                ui.label(style::title("Replay", style::type_scale::HEADING));
                ui.label(format!("move {} of {total}", replay.step));
            });
            ui.horizontal_wrapped(|ui| {
                let step = replay.step;
                if ui.button("⏮").on_hover_text("The start (Home)").clicked() {
                    go.write(GoToStep(0));
                }
                if ui.button("◀").on_hover_text("One move back (Left arrow)").clicked() {
                    go.write(GoToStep(step.saturating_sub(1)));
                }
                if ui.button("▶").on_hover_text("One move on (Right arrow)").clicked() {
                    go.write(GoToStep(step + 1));
                }
                if ui.button("⏭").on_hover_text("The end (End)").clicked() {
                    go.write(GoToStep(total));
                }
                egui::ComboBox::from_id_salt("replay_marks").selected_text("Jump to…").show_ui(ui, |ui| {
                    for (at, name) in &replay.marks {
                        if ui.selectable_label(false, format!("{name} (move {at})")).clicked() {
                            go.write(GoToStep(*at));
                        }
                    }
                });
                if ui.button("Leave the replay").clicked() {
                    menu.write(MenuAction::BackToMenu);
                }
            });
        },
    );
    Ok(())
}
