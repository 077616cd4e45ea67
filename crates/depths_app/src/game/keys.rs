//! Letter shortcuts go by the letter a key types, as the player's keyboard
//! labels it, not by where the key sits: on a German keyboard Z and Y swap
//! places, on a French one A and Q, Z and W, and Ctrl+Z must undo wherever
//! Z is. [`Letters`] holds the letters typed this frame, read from the
//! keyboard's messages (not from a pressed-keys table, where a letter pressed
//! with Shift and let go without it would stay down).

use bevy::{
    input::{
        ButtonState, InputSystems,
        keyboard::{Key, KeyboardInput},
    },
    prelude::*,
};

/// The letters typed this frame (lower case; held keys repeating left out).
#[derive(Resource, Debug, Default)]
pub struct Letters(Vec<char>);

impl Letters {
    /// Whether `letter` (lower case) was typed this frame, Shift or not.
    pub fn just_pressed(&self, letter: char) -> bool {
        self.0.contains(&letter)
    }
}

/// Crate-wide so the shortcuts' tests can read the keyboard as the game does.
pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Letters>();
    // Registered by bevy's InputPlugin too; here so headless apps have it.
    app.add_message::<KeyboardInput>();
    app.add_systems(PreUpdate, read_letters.after(InputSystems));
}

fn read_letters(mut letters: ResMut<Letters>, mut input: MessageReader<KeyboardInput>) {
    letters.0.clear();
    for key in input.read() {
        if key.state == ButtonState::Pressed
            && !key.repeat
            && let Some(letter) = letter(&key.logical_key)
        {
            letters.0.push(letter);
        }
    }
}

/// The one letter a key types, in lower case ("Z" with Shift is z).
fn letter(key: &Key) -> Option<char> {
    let Key::Character(text) = key else { return None };
    let mut chars = text.chars();
    let first = chars.next()?;
    if chars.next().is_some() || !first.is_alphabetic() {
        return None;
    }
    first.to_lowercase().next()
}

/// Whether any of `codes` (a modifier's left and right keys) was down
/// during this frame: held, or let go in it. At a low frame rate a quick
/// Ctrl+Z (or a typed one) presses and releases Ctrl between two frames,
/// and it went unheard.
pub fn held(keys: &ButtonInput<KeyCode>, codes: [KeyCode; 2]) -> bool {
    keys.any_pressed(codes) || keys.any_just_released(codes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::input::keyboard::NativeKey;

    fn key(code: KeyCode, typed: &str, state: ButtonState, repeat: bool) -> KeyboardInput {
        KeyboardInput {
            key_code: code,
            logical_key: Key::Character(typed.into()),
            state,
            text: None,
            repeat,
            window: Entity::PLACEHOLDER,
        }
    }

    fn typed(messages: Vec<KeyboardInput>) -> Vec<char> {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, plugin));
        for m in messages {
            app.world_mut().write_message(m);
        }
        app.update();
        app.world().resource::<Letters>().0.clone()
    }

    /// On a German keyboard the key where a US keyboard has Y types z: it is
    /// Z to the game. Shift's capital is the same letter; a held key's
    /// repeats and its release type nothing.
    #[test]
    fn a_letter_is_what_the_key_types_not_where_it_sits() {
        assert_eq!(typed(vec![key(KeyCode::KeyY, "z", ButtonState::Pressed, false)]), vec!['z']);
        assert_eq!(typed(vec![key(KeyCode::KeyW, "Z", ButtonState::Pressed, false)]), vec!['z']);
        assert_eq!(typed(vec![key(KeyCode::KeyZ, "z", ButtonState::Pressed, true)]), Vec::<char>::new());
        assert_eq!(typed(vec![key(KeyCode::KeyZ, "z", ButtonState::Released, false)]), Vec::<char>::new());
        assert_eq!(letter(&Key::Character("1".into())), None);
        assert_eq!(letter(&Key::Unidentified(NativeKey::Unidentified)), None);
        assert_eq!(letter(&Key::Character("é".into())), Some('é'));
    }
}
