//! A quick Ctrl for egui's text fields. bevy_egui gives every key of a
//! frame the modifiers as they stand at the frame's end, so a Ctrl pressed
//! and let go within one frame (a quick Ctrl+A at a low frame rate, or one
//! typed by a tool) reached a text field as the letter "a". Here each letter
//! pressed in the frame gets the Ctrl (⌘ on macOS) held when it was pressed,
//! read from the frame's keyboard messages in order, and the letter it would
//! have typed is taken out: Ctrl+A selects all, a quick Ctrl− or Ctrl+
//! steps the UI scale. (Copy, cut and paste are
//! bevy_egui's own events, sent only for a Ctrl still down at the frame's end.)

use bevy::{
    input::{ButtonState, keyboard::Key, keyboard::KeyboardInput},
    prelude::*,
};
use bevy_egui::{EguiInput, EguiInputSet, EguiPreUpdateSet, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        restore_quick_ctrl.after(EguiInputSet::WriteEguiEvents).before(EguiPreUpdateSet::BeginPass),
    );
}

/// The command keys: Ctrl, or ⌘ on macOS (as egui's `Modifiers::command`).
const COMMAND: [KeyCode; 2] = if cfg!(target_os = "macos") {
    [KeyCode::SuperLeft, KeyCode::SuperRight]
} else {
    [KeyCode::ControlLeft, KeyCode::ControlRight]
};

fn restore_quick_ctrl(
    keys: Res<ButtonInput<KeyCode>>,
    mut keyboard: MessageReader<KeyboardInput>,
    mut inputs: Query<&mut EguiInput>,
) {
    // Down at the frame's start: held and not pressed in it, or let go in
    // it without being pressed in it.
    let mut down = keys.any_pressed(COMMAND) && !keys.any_just_pressed(COMMAND)
        || keys.any_just_released(COMMAND) && !keys.any_just_pressed(COMMAND);
    // The letters pressed under the command key, in order.
    let mut under: Vec<String> = Vec::new();
    for m in keyboard.read() {
        if COMMAND.contains(&m.key_code) {
            down = m.state == ButtonState::Pressed;
        } else if m.state == ButtonState::Pressed
            && down
            && let Key::Character(c) = &m.logical_key
        {
            under.push(c.to_lowercase());
        }
    }
    // Only a frame that ended with the command key up lost it for its keys.
    if under.is_empty() || keys.any_pressed(COMMAND) {
        return;
    }
    for mut input in &mut inputs {
        let mut left = under.clone();
        input.0.events.retain_mut(|e| match e {
            egui::Event::Text(t) => !left.iter().any(|c| c == &t.to_lowercase()),
            egui::Event::Key { key, pressed: true, modifiers, .. } => {
                // By name ("a" for A) or by symbol ("-" for Minus: Ctrl− steps the UI scale).
                let named = |c: &String| c.eq_ignore_ascii_case(key.name()) || egui::Key::from_name(c) == Some(*key);
                if let Some(i) = left.iter().position(named) {
                    left.remove(i);
                    modifiers.ctrl |= !cfg!(target_os = "macos");
                    modifiers.mac_cmd |= cfg!(target_os = "macos");
                    modifiers.command = true;
                }
                true
            }
            _ => true,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(code: KeyCode, key: Key, state: ButtonState) -> KeyboardInput {
        KeyboardInput {
            key_code: code,
            logical_key: key,
            state,
            text: None,
            repeat: false,
            window: Entity::PLACEHOLDER,
        }
    }

    /// Issue 53: Ctrl+A in a text field typed "a" when Ctrl went down and up
    /// within one frame; and a quick Ctrl+− (main row) left the UI scale as
    /// it was, its character ("-") not matched to egui's key ("Minus").
    #[test]
    fn a_quick_ctrl_a_selects_all_instead_of_typing_a() {
        quick_ctrl_with(KeyCode::KeyA, "a", egui::Key::A);
        quick_ctrl_with(KeyCode::Minus, "-", egui::Key::Minus);
    }

    fn quick_ctrl_with(code: KeyCode, typed: &str, key: egui::Key) {
        let mut app = App::new();
        app.add_message::<KeyboardInput>().init_resource::<ButtonInput<KeyCode>>();
        let ctrl = COMMAND[0];
        let ctrl_key = if cfg!(target_os = "macos") { Key::Super } else { Key::Control };
        // Ctrl pressed and let go in this frame, with A between.
        let mut keys = ButtonInput::<KeyCode>::default();
        keys.press(ctrl);
        keys.release(ctrl);
        app.insert_resource(keys);
        for m in [
            press(ctrl, ctrl_key.clone(), ButtonState::Pressed),
            press(code, Key::Character(typed.into()), ButtonState::Pressed),
            press(code, Key::Character(typed.into()), ButtonState::Released),
            press(ctrl, ctrl_key, ButtonState::Released),
        ] {
            app.world_mut().write_message(m);
        }
        // What bevy_egui wrote: the letter, and the key with no Ctrl.
        let raw = egui::RawInput {
            events: vec![
                egui::Event::Text(typed.into()),
                egui::Event::Key {
                    key,
                    physical_key: Some(key),
                    pressed: true,
                    repeat: false,
                    modifiers: egui::Modifiers::NONE,
                },
            ],
            ..default()
        };
        let input = app.world_mut().spawn(EguiInput(raw)).id();
        app.world_mut().run_system_cached(restore_quick_ctrl).unwrap();
        let events = &app.world().get::<EguiInput>(input).unwrap().events;
        assert!(!events.iter().any(|e| matches!(e, egui::Event::Text(_))), "no letter typed: {events:?}");
        assert!(
            events
                .iter()
                .any(|e| matches!(e, egui::Event::Key { key: k, modifiers, .. } if *k == key && modifiers.command)),
            "Ctrl+{typed}: {events:?}"
        );
    }
}
