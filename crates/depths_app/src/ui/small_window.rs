//! Below the smallest size the game supports, it says so: a window (or a UI
//! scale) that leaves fewer than [`SMALLEST`] points cut the panels and
//! squeezed the table without a word. The notice offers a smaller UI scale
//! and can be put away for this size.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{
    game::settings::{Settings, step_scale},
    theme::style,
};

/// The smallest room the game is laid out for, in egui points: a 1366×768
/// window at 150 % (910×512) and a 1280×800 one at 150 % (853×533) fit;
/// a 1280×720 window needs 125 % or less.
pub const SMALLEST: egui::Vec2 = egui::vec2(850.0, 510.0);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, notice);
}

/// What the notice says for a room of `points` at UI scale `scale`, if the
/// room is below the smallest.
pub fn too_small(points: egui::Vec2, scale: f32) -> Option<String> {
    if points.x >= SMALLEST.x - 0.5 && points.y >= SMALLEST.y - 0.5 {
        return None;
    }
    let lower = step_scale(scale, -1) < scale - 1e-3;
    let advice = if lower {
        "Make the window larger, or choose a smaller UI scale (Ctrl −)."
    } else {
        "Make the window larger: the UI scale is already the smallest."
    };
    Some(format!(
        "This window is smaller than the game is made for at {:.0} % (it has room for {:.0}×{:.0}, the game needs \
         {:.0}×{:.0}): panels may be cut and the cards squeezed. {advice}",
        scale * 100.0,
        points.x,
        points.y,
        SMALLEST.x,
        SMALLEST.y,
    ))
}

fn notice(
    mut contexts: EguiContexts,
    mut settings: ResMut<Settings>,
    mut put_away: Local<Option<(i32, i32)>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let points = ctx.content_rect().size();
    let Some(words) = too_small(points, settings.ui_scale) else {
        *put_away = None;
        return Ok(());
    };
    // Put away for this size: it comes back when the size changes.
    let size = (points.x.round() as i32, points.y.round() as i32);
    if *put_away == Some(size) {
        return Ok(());
    }
    let mut smaller = false;
    let modal = egui::Modal::new(egui::Id::new("small_window")).show(ctx, |ui| {
        ui.set_max_width((points.x - 40.0).clamp(200.0, 440.0));
        ui.label(style::title("The window is too small", style::type_scale::TITLE));
        ui.add_space(4.0);
        ui.label(words);
        ui.add_space(8.0);
        ui.horizontal_wrapped(|ui| {
            let lower = step_scale(settings.ui_scale, -1);
            if lower < settings.ui_scale - 1e-3 && ui.button(format!("UI scale {:.0} %", lower * 100.0)).clicked() {
                smaller = true;
            }
            if ui.button("Go on anyway").clicked() {
                *put_away = Some(size);
            }
        });
    });
    if modal.should_close() {
        *put_away = Some(size);
    }
    if smaller {
        settings.ui_scale = step_scale(settings.ui_scale, -1);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sizes the game is checked at fit; smaller ones are told, with the
    /// way out that exists (no smaller scale past the least).
    #[test]
    fn a_window_below_the_smallest_size_is_told_with_what_to_do() {
        for (w, h, scale) in [(1280.0, 800.0, 1.5), (1366.0, 768.0, 1.5), (1280.0, 720.0, 1.15), (1920.0, 1080.0, 1.5)]
        {
            let points = egui::vec2(w, h) / scale;
            assert_eq!(too_small(points, scale), None, "{w}x{h} at {scale}");
        }
        let said = too_small(egui::vec2(1280.0, 720.0) / 1.5, 1.5).expect("1280x720 at 150 % is too small");
        assert!(said.contains("853×480") && said.contains("Ctrl −"), "{said}");
        let least = too_small(egui::vec2(640.0, 480.0) / 0.8, 0.8).expect("640x480 is too small");
        assert!(least.contains("already the smallest") && !least.contains("Ctrl"), "{least}");
    }
}
