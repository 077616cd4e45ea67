//! `--screenshot FILE`: open straight on the board (the menu skips itself; or
//! on the screen `--open` names), save the first complete frame as a PNG,
//! check it is not blank, and exit (non-zero if it is).

use std::path::PathBuf;

use bevy::{
    prelude::*,
    render::view::screenshot::{ScreenshotCaptured, save_to_disk},
};

use crate::{
    game::animating::{Wait, Waiting},
    game::cli::{OpenScreen, Options},
    game::screen::Screen,
    ui::screens::loading::LoadErrors,
};

/// Frames to let the board settle (egui layout, camera fit) before capturing.
const SETTLE_FRAMES: u32 = 12;
/// Give up if nothing was captured after this many frames.
const GIVE_UP_FRAMES: u32 = 1200;

#[derive(Resource, Debug)]
struct ScreenshotJob {
    path: PathBuf,
    /// Frames since start.
    frames: u32,
    /// Frames on the board.
    settled: u32,
    requested: bool,
}

pub(super) fn plugin(app: &mut App) {
    let Some(path) = app.world().get_resource::<Options>().and_then(|o| o.screenshot.clone()) else {
        return;
    };
    app.insert_resource(ScreenshotJob { path, frames: 0, settled: 0, requested: false });
    app.add_systems(Update, drive_screenshot);
    app.add_systems(OnEnter(Screen::LoadFailed), |errors: Res<LoadErrors>, mut exit: MessageWriter<AppExit>| {
        error!("no screenshot: loading failed: {:?}", errors.0);
        exit.write(AppExit::error());
    });
}

fn drive_screenshot(
    mut commands: Commands,
    mut job: ResMut<ScreenshotJob>,
    screen: Res<State<Screen>>,
    options: Res<Options>,
    offscreen: Option<Res<super::offscreen::Offscreen>>,
    mut waiting: ResMut<Waiting>,
    mut exit: MessageWriter<AppExit>,
) {
    // Reactive rendering would sleep until an input event: keep frames coming.
    waiting.set(Wait::Tool, true);
    job.frames += 1;
    if job.frames > GIVE_UP_FRAMES {
        error!("no screenshot was captured after {GIVE_UP_FRAMES} frames (stuck on {:?}?)", screen.get());
        exit.write(AppExit::error());
        return;
    }
    let wanted = match options.open {
        Some(OpenScreen::Menu) => Screen::Menu,
        Some(OpenScreen::Setup) => Screen::Setup,
        Some(OpenScreen::Statistics) => Screen::Statistics,
        None => Screen::Playing,
    };
    if *screen.get() != wanted {
        job.settled = 0;
        return;
    }
    job.settled += 1;
    if job.settled == SETTLE_FRAMES && !job.requested {
        job.requested = true;
        let shot = super::offscreen::screenshot(offscreen.as_deref());
        commands.spawn(shot).observe(save_to_disk(job.path.clone())).observe(check_not_blank);
    }
}

fn check_not_blank(captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>) {
    let image = &captured.image;
    let Some(data) = image.data.as_deref() else {
        error!("the screenshot has no pixel data");
        exit.write(AppExit::error());
        return;
    };
    let bytes_per_pixel = (data.len() / (image.width() as usize * image.height() as usize).max(1)).max(1);
    if looks_blank(data, bytes_per_pixel) {
        error!("the screenshot looks blank ({}×{})", image.width(), image.height());
        exit.write(AppExit::error());
    } else {
        info!("screenshot captured ({}×{}), not blank", image.width(), image.height());
        exit.write(AppExit::Success);
    }
}

/// True when a frame is (nearly) one colour: fewer than 16 distinct colours, or
/// fewer than 5 % of pixels visibly different from the first one.
pub fn looks_blank(pixels: &[u8], bytes_per_pixel: usize) -> bool {
    if bytes_per_pixel < 3 || pixels.len() < bytes_per_pixel {
        return true;
    }
    let first = &pixels[..3];
    let mut distinct = std::collections::HashSet::new();
    let mut different = 0usize;
    let mut total = 0usize;
    for px in pixels.chunks_exact(bytes_per_pixel) {
        total += 1;
        if distinct.len() < 64 {
            distinct.insert([px[0], px[1], px[2]]);
        }
        let diff: u32 = (0..3).map(|c| px[c].abs_diff(first[c]) as u32).sum();
        if diff > 24 {
            different += 1;
        }
    }
    distinct.len() < 16 || different * 20 < total
}

#[cfg(test)]
mod tests {
    use super::looks_blank;

    #[test]
    fn uniform_frames_are_blank() {
        assert!(looks_blank(&[10, 20, 30, 255].repeat(1000), 4));
        assert!(looks_blank(&[], 4));
    }

    #[test]
    fn varied_frames_are_not_blank() {
        let px: Vec<u8> = (0..4000u32).flat_map(|i| [(i % 256) as u8, (i / 16 % 256) as u8, 90, 255]).collect();
        assert!(!looks_blank(&px, 4));
    }
}
