//! Keys that act on the whole game, away from any panel: H asks for a
//! hint, Ctrl+S saves, Ctrl+Z takes the last move back and Ctrl+Shift+Z
//! (or Ctrl+Y) makes it again. They stand down while a text field has the
//! keyboard (the rules search).

use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;

use crate::{
    PlaySystems,
    game::game_log::GameLog,
    game::hint::AskHint,
    game::screen::Screen,
    game::session::{Delve, PutBack, SaveSlot, TakeBack},
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (|keys: Res<ButtonInput<KeyCode>>, mut ask: MessageWriter<AskHint>| {
            if keys.just_pressed(KeyCode::KeyH) {
                ask.write(AskHint);
            }
        })
        .run_if(not(typing))
        .in_set(PlaySystems::Input),
    );
    save_key(app);
    app.add_systems(
        Update,
        undo_keys
            .run_if(not(typing))
            .in_set(PlaySystems::Input)
            .run_if(in_state(Screen::Playing).and_then(resource_exists::<Delve>)),
    );
}

/// A text field has the keyboard (the rules search, a name). A tooltip or a
/// menu open does not count: Ctrl+Z over the Undo button's tooltip still undoes.
fn typing(egui: Res<EguiWantsInput>) -> bool {
    egui.wants_keyboard_input()
}

/// Ctrl (or Cmd) held.
fn ctrl(keys: &ButtonInput<KeyCode>) -> bool {
    keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight, KeyCode::SuperLeft, KeyCode::SuperRight])
}

/// Ctrl+Z takes back, Ctrl+Shift+Z or Ctrl+Y makes again, in any phase.
fn undo_keys(keys: Res<ButtonInput<KeyCode>>, mut take: MessageWriter<TakeBack>, mut put: MessageWriter<PutBack>) {
    if !ctrl(&keys) {
        return;
    }
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if keys.just_pressed(KeyCode::KeyZ) && !shift {
        take.write(TakeBack);
    } else if keys.just_pressed(KeyCode::KeyY) || (keys.just_pressed(KeyCode::KeyZ) && shift) {
        put.write(PutBack);
    }
}

/// Ctrl+S on the board.
fn save_key(app: &mut App) {
    app.add_systems(
        Update,
        ctrl_s
            .run_if(not(typing))
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
    if ctrl(&keys) && keys.just_pressed(KeyCode::KeyS) {
        if delve.read_only {
            toast.write(crate::game::notices::Toast("A replay saves nothing".into()));
            return;
        }
        slot.due = true;
        log.lines.push("Game saved.".into());
        toast.write(crate::game::notices::Toast("Game saved".into()));
    }
}
