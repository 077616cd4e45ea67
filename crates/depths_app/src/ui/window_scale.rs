//! A bigger window draws the whole table bigger, not just more felt around it.
//!
//! The table is laid out for a window of 1280×800 logical pixels. On a larger
//! window (1920×1080, a 4K screen at 100 %), the panels' text, the cards and
//! their print would stay the same size and the Monster cards would shrink to
//! a corner of the room. So the window's scale factor grows with its size, up
//! to [`MAX_GROWTH`]: Bevy then lays out a 1422×800 table on a 1920×1080
//! window, and text is still rasterised at the screen's own pixels (a scale on
//! the cameras would blur it). The player's own UI scale (⚙ Settings) comes on
//! top of this, through egui's zoom.

use bevy::{prelude::*, window::PrimaryWindow};

/// The logical size the table is designed for.
pub const DESIGN: Vec2 = Vec2::new(1280.0, 800.0);
/// The most a big window grows everything by.
pub const MAX_GROWTH: f32 = 1.6;

pub(super) fn plugin(app: &mut App) {
    // Drawn into an image (`--offscreen`), the table keeps the scale of one:
    // the image's cameras have no growth, and sprites laid out in grown
    // units would be drawn in the image's (a third of the table bare).
    let offscreen = |o: Option<Res<crate::game::cli::Options>>| o.is_some_and(|o| o.offscreen.is_some());
    app.add_systems(PreUpdate, grow_with_window.run_if(not(offscreen)));
}

/// How much larger than at the screen's own scale a window of `physical`
/// pixels, on a screen of scale `base`, draws the table: as much as the
/// narrower of its two sides has room for, never smaller, at most
/// [`MAX_GROWTH`].
pub fn growth(physical: Vec2, base: f32) -> f32 {
    let logical = physical / base.max(0.01);
    (logical.x / DESIGN.x).min(logical.y / DESIGN.y).clamp(1.0, MAX_GROWTH)
}

/// The physical size never changes with the override, so setting it cannot
/// feed back into the next growth.
fn grow_with_window(mut window: Single<&mut Window, With<PrimaryWindow>>) {
    let physical = window.physical_size().as_vec2();
    if physical.min_element() < 1.0 {
        return; // minimised
    }
    let base = window.resolution.base_scale_factor();
    let grow = growth(physical, base);
    if (window.resolution.scale_factor() - base * grow).abs() > 1e-3 {
        window.resolution.set_scale_factor_override((grow > 1.0).then_some(base * grow));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_design_size_and_smaller_windows_keep_the_screens_own_scale() {
        assert_eq!(growth(Vec2::new(1280.0, 800.0), 1.0), 1.0);
        assert_eq!(growth(Vec2::new(1024.0, 700.0), 1.0), 1.0);
        // A HiDPI screen at 200 %: 2560×1600 physical is 1280×800 logical.
        assert_eq!(growth(Vec2::new(2560.0, 1600.0), 2.0), 1.0);
    }

    #[test]
    fn a_bigger_window_grows_by_its_narrower_side_up_to_the_cap() {
        assert!((growth(Vec2::new(1920.0, 1080.0), 1.0) - 1.35).abs() < 1e-6);
        assert!((growth(Vec2::new(2560.0, 800.0), 1.0) - 1.0).abs() < 1e-6, "a wide strip stays as it is");
        assert_eq!(growth(Vec2::new(3840.0, 2160.0), 1.0), MAX_GROWTH);
    }
}
