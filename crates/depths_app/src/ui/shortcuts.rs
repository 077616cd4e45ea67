//! Keys that act on the whole game, away from any panel: H asks for a
//! hint, Ctrl+S saves. They stand down while egui has the keyboard (a text
//! field, the rules search).

use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_keyboard_input;

use crate::{
    PlaySystems,
    game::hint::AskHint,
    game::screen::Screen,
    game::session::{Delve, GameLog, SaveSlot},
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (|keys: Res<ButtonInput<KeyCode>>, mut ask: MessageWriter<AskHint>| {
            if keys.just_pressed(KeyCode::KeyH) {
                ask.write(AskHint);
            }
        })
        .run_if(not(egui_wants_any_keyboard_input))
        .in_set(PlaySystems::Input),
    );
    save_key(app);
}

/// Ctrl+S on the board.
fn save_key(app: &mut App) {
    app.add_systems(
        Update,
        ctrl_s
            .run_if(not(egui_wants_any_keyboard_input))
            .in_set(PlaySystems::Input)
            .run_if(in_state(Screen::Playing).and_then(resource_exists::<Delve>)),
    );
}

fn ctrl_s(
    keys: Res<ButtonInput<KeyCode>>,
    delve: Res<Delve>,
    mut log: ResMut<GameLog>,
    mut slot: ResMut<SaveSlot>,
    mut toast: MessageWriter<crate::game::notices::Toast>,
) {
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight, KeyCode::SuperLeft, KeyCode::SuperRight]);
    if ctrl && keys.just_pressed(KeyCode::KeyS) {
        if delve.read_only {
            toast.write(crate::game::notices::Toast("A replay saves nothing".into()));
            return;
        }
        slot.due = true;
        log.lines.push("Game saved.".into());
        toast.write(crate::game::notices::Toast("Game saved".into()));
    }
}
