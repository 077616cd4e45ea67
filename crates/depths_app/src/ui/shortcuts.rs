//! Keys that act on the whole game, away from any panel: H asks for a
//! hint, Ctrl+S saves, Ctrl+Z takes the last move back and Ctrl+Shift+Z
//! (or Ctrl+Y) makes it again, by the letters the keyboard's keys type
//! (`game::keys`). They stand down while a text field has the keyboard
//! (the rules search).

use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;

use crate::{
    PlaySystems,
    game::game_log::GameLog,
    game::hint::AskHint,
    game::keys::{Letters, held},
    game::screen::Screen,
    game::session::{Delve, PutBack, SaveSlot, TakeBack},
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (|letters: Res<Letters>, mut ask: MessageWriter<AskHint>| {
            if letters.just_pressed('h') {
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
    held(keys, [KeyCode::ControlLeft, KeyCode::ControlRight]) || held(keys, [KeyCode::SuperLeft, KeyCode::SuperRight])
}

/// Ctrl+Z takes back, Ctrl+Shift+Z or Ctrl+Y makes again, in any phase.
/// By the letters the keyboard types (a German Z is where a US Y is).
fn undo_keys(
    keys: Res<ButtonInput<KeyCode>>,
    letters: Res<Letters>,
    mut take: MessageWriter<TakeBack>,
    mut put: MessageWriter<PutBack>,
) {
    if !ctrl(&keys) {
        return;
    }
    let shift = held(&keys, [KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if letters.just_pressed('z') && !shift {
        take.write(TakeBack);
    } else if letters.just_pressed('y') || (letters.just_pressed('z') && shift) {
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
    letters: Res<Letters>,
    delve: Res<Delve>,
    mut log: ResMut<GameLog>,
    mut slot: ResMut<SaveSlot>,
    mut toast: MessageWriter<crate::game::notices::Toast>,
) {
    if ctrl(&keys) && letters.just_pressed('s') {
        if delve.read_only {
            toast.write(crate::game::notices::Toast("A replay saves nothing".into()));
            return;
        }
        slot.due = true;
        log.lines.push("Game saved.".into());
        toast.write(crate::game::notices::Toast("Game saved".into()));
    }
}

#[cfg(test)]
mod tests {
    use bevy::{
        input::{
            ButtonState,
            keyboard::{Key, KeyboardInput},
        },
        state::app::StatesPlugin,
    };
    use depths_rules::{Content, Game, GameOptions};

    use super::*;

    /// Ctrl held and one key that types `letter` from the place `code`.
    fn ctrl_key(code: KeyCode, letter: &str) -> (usize, usize, usize) {
        ctrl_key_within(code, letter, false)
    }

    /// [`ctrl_key`]; `quick`: Ctrl pressed and let go within the frame.
    fn ctrl_key_within(code: KeyCode, letter: &str, quick: bool) -> (usize, usize, usize) {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin));
        app.init_state::<Screen>();
        app.insert_state(Screen::Playing);
        app.init_resource::<ButtonInput<KeyCode>>().init_resource::<EguiWantsInput>();
        app.add_message::<TakeBack>().add_message::<PutBack>().add_message::<AskHint>();
        app.add_message::<crate::game::notices::Toast>();
        app.add_plugins((crate::game::keys::plugin, plugin));
        let game = Game::new(GameOptions::standard(&["bren"], 1), Content::builtin().unwrap()).unwrap();
        let world = app.world_mut();
        crate::game::session::Session::new(game).insert_into(world);
        world.resource_mut::<ButtonInput<KeyCode>>().press(KeyCode::ControlLeft);
        if quick {
            world.resource_mut::<ButtonInput<KeyCode>>().release(KeyCode::ControlLeft);
        }
        world.write_message(KeyboardInput {
            key_code: code,
            logical_key: Key::Character(letter.into()),
            state: ButtonState::Pressed,
            text: None,
            repeat: false,
            window: Entity::PLACEHOLDER,
        });
        app.update();
        let world = app.world();
        let saved = usize::from(world.resource::<SaveSlot>().due);
        (world.resource::<Messages<TakeBack>>().len(), world.resource::<Messages<PutBack>>().len(), saved)
    }

    /// Issue: "on a German keyboard Ctrl+Z redoes". Undo, redo and save go by
    /// the letter the key types: a German keyboard's Z sits where a US Y is,
    /// a French one's Z where a US W is.
    #[test]
    fn ctrl_shortcuts_follow_the_keyboards_labels() {
        // us: Z in its place; de: Z types from the Y key; fr: from the W key.
        for code in [KeyCode::KeyZ, KeyCode::KeyY, KeyCode::KeyW] {
            assert_eq!(ctrl_key(code, "z"), (1, 0, 0), "Ctrl+Z from {code:?} undoes");
        }
        // de: Y types from the Z key, and redoes.
        assert_eq!(ctrl_key(KeyCode::KeyZ, "y"), (0, 1, 0), "a German Ctrl+Y redoes");
        // fr: the key where a US keyboard has Q types a; nothing.
        assert_eq!(ctrl_key(KeyCode::KeyQ, "a"), (0, 0, 0));
        assert_eq!(ctrl_key(KeyCode::KeyS, "s"), (0, 0, 1), "Ctrl+S saves");
    }

    /// A tried game at a low frame rate: Ctrl+Z and Ctrl+S typed quickly
    /// (Ctrl down and up between two frames) did nothing.
    #[test]
    fn a_quick_ctrl_shortcut_within_one_frame_is_heard() {
        assert_eq!(ctrl_key_within(KeyCode::KeyZ, "z", true), (1, 0, 0), "a quick Ctrl+Z undoes");
        assert_eq!(ctrl_key_within(KeyCode::KeyS, "s", true), (0, 0, 1), "a quick Ctrl+S saves");
    }
}
