//! Settings remembered between runs: the UI scale (egui zoom) and whether
//! hot-seat games use the "Pass to …" curtain (off: the game's information
//! is open, so hiding the table is only for players who want it). Stored as
//! `key = value` lines in `settings.txt` beside the saves folder (the data
//! dir: `~/.local/share/forgotten-depths/settings.txt` on Linux).

use std::path::PathBuf;

use bevy::{prelude::*, window::RequestRedraw};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::saves::default_save_dir;

/// The UI scales offered.
pub const UI_SCALES: [f32; 6] = [0.8, 0.9, 1.0, 1.15, 1.3, 1.5];

/// The settings, and where they are kept.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct Settings {
    /// egui's zoom factor.
    pub ui_scale: f32,
    /// New hot-seat games hide the table when it changes hands.
    pub curtain: bool,
    /// The Settings window is open.
    pub open: bool,
    pub file: PathBuf,
}

impl Default for Settings {
    fn default() -> Self {
        let file =
            default_save_dir().parent().map_or_else(|| PathBuf::from("settings.txt"), |d| d.join("settings.txt"));
        Settings::read(file)
    }
}

impl Settings {
    /// Reads `file`; anything missing or unreadable keeps its default.
    pub fn read(file: PathBuf) -> Settings {
        let mut s = Settings { ui_scale: 1.0, curtain: false, open: false, file };
        if let Ok(text) = std::fs::read_to_string(&s.file) {
            for line in text.lines() {
                let Some((k, v)) = line.split_once('=') else { continue };
                match (k.trim(), v.trim()) {
                    ("ui_scale", v) => {
                        if let Ok(v) = v.parse::<f32>()
                            && (0.5..=3.0).contains(&v)
                        {
                            s.ui_scale = v;
                        }
                    }
                    ("curtain", v) => s.curtain = v == "true",
                    _ => {}
                }
            }
        }
        s
    }

    pub fn write(&self) -> std::io::Result<()> {
        crate::saves::write_atomic(&self.file, &format!("ui_scale = {}\ncurtain = {}\n", self.ui_scale, self.curtain))
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Settings>();
    app.add_systems(EguiPrimaryContextPass, (apply_zoom, settings_ui.run_if(|s: Res<Settings>| s.open)).chain());
}

/// Keeps egui's zoom and the setting together: the setting drives egui, and
/// egui's own Ctrl+plus / Ctrl+minus are remembered too.
fn apply_zoom(mut contexts: EguiContexts, mut settings: ResMut<Settings>, mut last: Local<Option<f32>>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let zoom = ctx.zoom_factor();
    match *last {
        // egui zoomed by keyboard since the last pass: remember it.
        Some(l) if (zoom - l).abs() > 1e-3 && (zoom - settings.ui_scale).abs() > 1e-3 => {
            settings.ui_scale = zoom;
            let _ = settings.write();
        }
        _ => {
            if (zoom - settings.ui_scale).abs() > 1e-3 {
                ctx.set_zoom_factor(settings.ui_scale);
            }
        }
    }
    *last = Some(zoom);
    Ok(())
}

fn settings_ui(
    mut contexts: EguiContexts,
    mut settings: ResMut<Settings>,
    session: Option<Res<crate::session::Session>>,
    mut switch: MessageWriter<crate::hotseat::SetCurtain>,
    mut redraw: MessageWriter<RequestRedraw>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut open = settings.open;
    let mut chosen = None;
    // In a game the box shows (and switches) that game's curtain.
    let mut curtain = session.as_ref().map_or(settings.curtain, |s| s.players.curtain);
    let mut curtain_changed = false;
    egui::Window::new("Settings")
        .id(egui::Id::new("settings"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::RIGHT_TOP, [-12.0, 44.0])
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
                egui::RichText::new(format!("Ctrl + / Ctrl − also zoom. Remembered in {}", settings.file.display()))
                    .size(11.0)
                    .color(crate::ui_style::MUTED),
            );
            ui.separator();
            curtain_changed = ui
                .checkbox(&mut curtain, "\"Pass to …\" screen between players")
                .on_hover_text(
                    "Hot-seat: hide the table when it changes hands, after the player who acted has seen the result",
                )
                .changed();
        });
    if curtain_changed {
        settings.curtain = curtain;
        if let Err(e) = settings.write() {
            warn!("could not write {}: {e}", settings.file.display());
        }
        if session.is_some() {
            switch.write(crate::hotseat::SetCurtain(curtain));
        }
        redraw.write(RequestRedraw);
    }
    if let Some(s) = chosen {
        settings.ui_scale = s;
        if let Err(e) = settings.write() {
            warn!("could not write {}: {e}", settings.file.display());
        }
        redraw.write(RequestRedraw);
    }
    if settings.open != open {
        settings.open = open;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ui_scale_is_remembered() {
        let dir = std::env::temp_dir().join(format!("fd-settings-test-{}", std::process::id()));
        let file = dir.join("settings.txt");
        let mut s = Settings::read(file.clone());
        assert_eq!(s.ui_scale, 1.0, "default without a file");
        s.ui_scale = 1.3;
        s.write().unwrap();
        assert_eq!(Settings::read(file.clone()).ui_scale, 1.3);
        assert!(!s.curtain, "the curtain is off unless asked for");
        s.curtain = true;
        s.write().unwrap();
        assert!(Settings::read(file.clone()).curtain);
        std::fs::write(&file, "ui_scale = nonsense\n").unwrap();
        assert_eq!(Settings::read(file).ui_scale, 1.0, "nonsense keeps the default");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
