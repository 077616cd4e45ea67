//! The system clipboard for egui: Ctrl+C / Ctrl+X / Ctrl+V in every text
//! field (Cmd on macOS), and [`copy`] for the lobby's Copy button. bevy_egui
//! has this behind its `manage_clipboard` feature, which would bring in the
//! Wayland stack; `arboard` here speaks X11 through the x11rb winit already
//! builds (and the native clipboards on Windows and macOS).

use std::sync::{Mutex, PoisonError};

use bevy::prelude::*;
use bevy_egui::{EguiInput, EguiInputSet, EguiOutput, EguiPostUpdateSet, EguiPreUpdateSet, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(PreUpdate, clipboard_keys.after(EguiInputSet::WriteEguiEvents).before(EguiPreUpdateSet::BeginPass));
    app.add_systems(PostUpdate, copied_text.after(EguiPostUpdateSet::ProcessOutput));
}

/// One clipboard for the whole run: on X11 what was copied is served by it
/// for as long as it lives (a dropped one would take the text with it).
static CLIPBOARD: Mutex<Option<arboard::Clipboard>> = Mutex::new(None);

fn with_clipboard<R>(f: impl FnOnce(&mut arboard::Clipboard) -> Result<R, arboard::Error>) -> Result<R, String> {
    let mut held = CLIPBOARD.lock().unwrap_or_else(PoisonError::into_inner);
    if held.is_none() {
        *held = Some(arboard::Clipboard::new().map_err(|e| format!("no clipboard here ({e})"))?);
    }
    let clipboard = held.as_mut().expect("just made");
    f(clipboard).map_err(|e| format!("the clipboard refused ({e})"))
}

/// Puts `text` on the system clipboard, else says why not.
pub fn copy(text: &str) -> Result<(), String> {
    with_clipboard(|c| c.set_text(text))
}

/// The clipboard's text, if it holds any.
pub fn pasted() -> Option<String> {
    with_clipboard(|c| c.get_text()).ok().filter(|t| !t.is_empty())
}

/// Ctrl+C, Ctrl+X and Ctrl+V become egui's own copy, cut and paste.
fn clipboard_keys(mut inputs: Query<&mut EguiInput>) {
    for mut input in &mut inputs {
        let mut added = Vec::new();
        for event in &input.events {
            let egui::Event::Key { key, pressed: true, modifiers, .. } = event else { continue };
            if !modifiers.command {
                continue;
            }
            match key {
                egui::Key::C => added.push(egui::Event::Copy),
                egui::Key::X => added.push(egui::Event::Cut),
                egui::Key::V => added.extend(pasted().map(egui::Event::Paste)),
                _ => {}
            }
        }
        if !added.is_empty() {
            input.events.extend(added);
        }
    }
}

/// What egui copied (a text field's Ctrl+C) goes on the system clipboard.
fn copied_text(outputs: Query<&EguiOutput>) {
    for output in &outputs {
        for command in &output.platform_output.commands {
            if let egui::OutputCommand::CopyText(text) = command
                && !text.is_empty()
                && let Err(e) = copy(text)
            {
                warn!("could not copy: {e}");
            }
        }
    }
}
