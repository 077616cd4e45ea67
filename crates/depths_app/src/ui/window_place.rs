//! The window on the player's desktop: it opens where and as large as it was
//! left (its size, its place, fullscreen or not, kept in the settings), on a
//! screen it fits (a 1366×768 laptop's window is made to fit, maximised); F11
//! and the Settings window switch borderless fullscreen.
//!
//! A place saved on a screen that is gone (a monitor unplugged) is not used:
//! the window opens centred instead. The settings file is hostile input: a
//! size or place no window could have is refused where the file is read.

use bevy::{
    prelude::*,
    window::{Monitor, MonitorSelection, PrimaryWindow, WindowMode, WindowMoved, WindowPosition, WindowResized},
};

use crate::game::settings::{Settings, WindowPlace};

/// Room a screen keeps around a window: its title bar, a task bar.
const FRAME: Vec2 = Vec2::new(40.0, 100.0);
/// A window change is written to the settings once it has rested this long.
const REST: f32 = 1.0;

pub(super) fn plugin(app: &mut App) {
    // A tool's run (a screenshot, the frame bench, the health check, which
    // sizes the window itself) keeps its own window and leaves the player's
    // settings alone.
    let options = app.world().get_resource::<crate::game::cli::Options>();
    if crate::game::saves::tool_run(options) {
        return;
    }
    app.add_systems(PreUpdate, (open_where_left, switch_fullscreen));
    app.add_systems(Last, remember_place);
}

/// The window as it was left, once the screens are known: on a screen that
/// holds its top-left corner, else centred; made to fit a screen smaller
/// than it (maximised).
fn open_where_left(
    mut window: Single<&mut Window, With<PrimaryWindow>>,
    monitors: Query<&Monitor>,
    settings: Res<Settings>,
    mut done: Local<bool>,
) {
    if *done || monitors.is_empty() {
        return;
    }
    *done = true;
    if settings.fullscreen {
        window.mode = WindowMode::BorderlessFullscreen(MonitorSelection::Current);
    }
    let screens: Vec<(IRect, f32)> = monitors
        .iter()
        .map(|m| {
            let size = IVec2::new(m.physical_width as i32, m.physical_height as i32);
            (IRect::from_corners(m.physical_position, m.physical_position + size), m.scale_factor as f32)
        })
        .collect();
    match settings.window {
        Some(place) => {
            window.resolution.set(place.width, place.height);
            let corner = IVec2::new(place.x, place.y);
            window.position = match screens.iter().any(|(r, _)| r.contains(corner)) {
                true => WindowPosition::At(corner),
                false => WindowPosition::Centered(MonitorSelection::Primary),
            };
        }
        None => {
            // First run: the window fits the screen it opens on.
            let fits = |(r, scale): &(IRect, f32)| {
                let room = r.size().as_vec2() / scale.max(0.1) - FRAME;
                Vec2::new(window.resolution.width(), window.resolution.height()).cmple(room).all()
            };
            if !screens.iter().any(fits) {
                // Made to fit as well as maximised: a desktop without a
                // window manager to maximise it (or one that refuses) left
                // a 1280×800 window's foot off a 1366×768 screen.
                if let Some((r, scale)) = screens.first() {
                    let room = (r.size().as_vec2() / scale.max(0.1)).max(Vec2::new(640.0, 400.0));
                    let size = Vec2::new(window.resolution.width(), window.resolution.height()).min(room);
                    window.resolution.set(size.x, size.y);
                    window.position = WindowPosition::Centered(MonitorSelection::Primary);
                }
                window.set_maximized(true);
            }
        }
    }
}

/// F11 switches borderless fullscreen; so does the Settings window's box.
fn switch_fullscreen(
    keys: Res<ButtonInput<KeyCode>>,
    mut settings: ResMut<Settings>,
    mut window: Single<&mut Window, With<PrimaryWindow>>,
) {
    if keys.just_pressed(KeyCode::F11) {
        settings.fullscreen = !settings.fullscreen;
        if let Err(e) = settings.write() {
            warn!("the settings were not saved: {e}");
        }
    }
    let mode = match settings.fullscreen {
        true => WindowMode::BorderlessFullscreen(MonitorSelection::Current),
        false => WindowMode::Windowed,
    };
    if window.mode != mode {
        window.mode = mode;
    }
}

/// A window moved or sized by the player is written to the settings once
/// it rests (not at every step of a drag); fullscreen keeps the windowed
/// place to come back to.
fn remember_place(
    window: Single<&Window, With<PrimaryWindow>>,
    mut moved: MessageReader<WindowMoved>,
    mut resized: MessageReader<WindowResized>,
    mut settings: ResMut<Settings>,
    time: Res<Time<Real>>,
    (mut since, mut corner): (Local<Option<f32>>, Local<Option<IVec2>>),
) {
    let now = time.elapsed_secs();
    // Where the platform says the window went (the window's own position
    // is only what was asked of it).
    let mut changed = resized.read().count() > 0;
    for m in moved.read() {
        *corner = Some(m.position);
        changed = true;
    }
    if changed && window.mode == WindowMode::Windowed {
        *since = Some(now);
    }
    let Some(at) = *since else { return };
    if now - at < REST {
        return;
    }
    *since = None;
    // Fullscreen keeps the windowed place to come back to.
    if window.mode != WindowMode::Windowed {
        return;
    }
    let corner = match (*corner, window.position) {
        (Some(p), _) | (None, WindowPosition::At(p)) => p,
        _ => return,
    };
    // In the screen's own logical pixels: not those of a big window's growth
    // (window_scale.rs), which it regains by itself.
    let size = window.physical_size().as_vec2() / window.resolution.base_scale_factor().max(0.1);
    let place = WindowPlace { width: size.x, height: size.y, x: corner.x, y: corner.y };
    if place.sane() && settings.window != Some(place) {
        settings.window = Some(place);
        if let Err(e) = settings.write() {
            warn!("the window's place was not saved: {e}");
        }
    }
}
