//! The table camera: pan (drag, arrow keys while no tile is in hand), zoom
//! (wheel, towards the cursor) and fit-to-map (on entering the board, when a
//! new Ecology starts, and with F or Home).

use bevy::{
    input::mouse::{AccumulatedMouseScroll, MouseScrollUnit},
    prelude::*,
    window::PrimaryWindow,
};
use bevy_egui::input::{EguiWantsInput, egui_wants_any_keyboard_input};

use crate::{
    PlaySystems,
    board::explore::{PlacementHint, on_board},
    board::tiles::BoardCamera,
    board::tiles::{Board, TILE_SIZE, cell_center, map_bounds},
    game::focus::{BoardArea, TileInHand},
    game::notices::FitRequested,
    game::screen::Screen,
    game::session::Delve,
    game::taps::CLICK_SLOP,
};

/// A software renderer (Mesa's lavapipe, Windows' WARP…) pays for MSAA on
/// the CPU: under Xvfb 4× MSAA halved the frame rate (debug build, board
/// panning: 18 → 37 fps). Such renderers draw without it; GPUs keep Bevy's
/// default 4× MSAA, where it costs next to nothing.
fn fit_msaa_to_renderer(
    adapter: Option<Res<bevy::render::renderer::RenderAdapterInfo>>,
    mut cameras: Query<&mut Msaa, With<Camera>>,
    mut done: Local<bool>,
) {
    let Some(adapter) = adapter.filter(|_| !*done) else { return };
    if cameras.is_empty() {
        return;
    }
    *done = true;
    // wgpu's DeviceType is not re-exported by bevy; its name is enough.
    if format!("{:?}", adapter.0.device_type) == "Cpu" {
        info!("software renderer ({}): drawing without MSAA", adapter.0.name);
        // Every camera on the window alike: they share its target.
        for mut msaa in &mut cameras {
            *msaa = Msaa::Off;
        }
    }
}

const MIN_SCALE: f32 = 0.2;
const MAX_SCALE: f32 = 5.0;
/// Fitting a small map stops at about natural size (a tile ≈ 270 px).
const FIT_MIN_SCALE: f32 = 0.9;
/// Keyboard pan speed, in screen pixels per second.
const KEY_PAN_SPEED: f32 = 800.0;

/// Screen space (logical pixels) kept clear around the fitted map, for the bars.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Insets {
    pub left: f32,
    pub right: f32,
    pub top: f32,
    pub bottom: f32,
}

const BOARD_INSETS: Insets = Insets { left: 320.0, right: 350.0, top: 50.0, bottom: 50.0 };

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_camera);
    app.add_systems(Update, fit_msaa_to_renderer.in_set(PlaySystems::Present));
    app.init_resource::<Framed>();
    app.add_systems(OnEnter(Screen::Playing), |mut fit: ResMut<FitRequested>, mut framed: ResMut<Framed>| {
        fit.0 = true;
        framed.0 = false;
    });
    app.add_systems(
        Update,
        // In a replay the arrows step through the moves.
        (
            keyboard_pan.run_if(not(egui_wants_any_keyboard_input).and_then(crate::game::session::not_read_only)),
            drag_pan,
            wheel_zoom,
        )
            .in_set(PlaySystems::Input)
            // In Combat the mat covers the board and a drag moves a card.
            .run_if(in_state(Screen::Playing).and_then(not(crate::game::play_phase::in_combat))),
    );
    app.add_systems(
        Update,
        (fit_to_map, glide_camera.run_if(any_with_component::<CameraGlide>))
            .chain()
            .in_set(PlaySystems::Present)
            .run_if(in_state(Screen::Playing).and_then(resource_exists::<Board>)),
    );
}

fn spawn_camera(mut commands: Commands) {
    // The card and panel camera (table/cards.rs) draws after it into the same
    // picture and writes it to the window: this one skips its own write, a
    // full-screen pass a software renderer pays for on every frame.
    commands.spawn((
        Name::new("Board camera"),
        Camera2d,
        BoardCamera,
        Camera { output_mode: bevy::camera::CameraOutputMode::Skip, ..default() },
    ));
}

/// The camera centre and orthographic scale (world units per logical pixel) that
/// frame `bounds` in a `viewport` of logical pixels, leaving `insets` clear.
#[cfg(test)]
fn fit_view(bounds: Rect, viewport: Vec2, insets: Insets) -> (Vec2, f32) {
    fit_view_within(bounds, viewport, insets, MIN_SCALE)
}

/// `fit_view`, zooming in no closer than `min_scale`.
fn fit_view_within(bounds: Rect, viewport: Vec2, insets: Insets, min_scale: f32) -> (Vec2, f32) {
    let free = Vec2::new(
        (viewport.x - insets.left - insets.right).max(1.0),
        (viewport.y - insets.top - insets.bottom).max(1.0),
    );
    let scale = (bounds.width() / free.x).max(bounds.height() / free.y).clamp(min_scale, MAX_SCALE);
    // The free region's centre, relative to the viewport centre, in pixels (y up).
    let shift = Vec2::new((insets.left - insets.right) / 2.0, (insets.bottom - insets.top) / 2.0);
    (bounds.center() - shift * scale, scale)
}

/// The board's room: `area` less the `reserved` height at its top (a
/// window over the board, the guide, keeps it).
fn room(area: Option<Rect>, reserved: f32) -> Option<Rect> {
    area.map(|a| Rect { min: Vec2::new(a.min.x, (a.min.y + reserved).min(a.max.y)), max: a.max })
}

/// The insets that frame the map inside `room` of a `viewport`, 10 px in.
fn insets(room: Option<Rect>, viewport: Vec2) -> Insets {
    room.map_or(BOARD_INSETS, |a| Insets {
        left: a.min.x + 10.0,
        right: (viewport.x - a.max.x).max(0.0) + 10.0,
        top: a.min.y + 10.0,
        bottom: (viewport.y - a.max.y).max(0.0) + 10.0,
    })
}

/// The world rectangle the camera at `center` and `scale` shows in the
/// board's `room` (window px, y down) of a `viewport`.
fn seen(room: Option<Rect>, viewport: Vec2, center: Vec2, scale: f32) -> Option<Rect> {
    let room = room?;
    let world = |p: Vec2| center + Vec2::new(p.x - viewport.x / 2.0, viewport.y / 2.0 - p.y) * scale;
    Some(Rect::from_corners(world(room.min), world(room.max)))
}

pub(crate) fn ortho_scale(projection: &Projection) -> f32 {
    match projection {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    }
}

fn fit_to_map(
    mut fit: ResMut<FitRequested>,
    keys: Res<ButtonInput<KeyCode>>,
    letters: Res<crate::game::keys::Letters>,
    board: Res<Board>,
    camera: Single<(Entity, &Camera, &Transform, &Projection, Option<&CameraGlide>), With<BoardCamera>>,
    hints: Query<&PlacementHint>,
    mut last_tiles: Local<(usize, usize)>,
    area: Res<BoardArea>,
    reserved: Res<crate::game::focus::BoardReserved>,
    mut last_area: Local<Option<Rect>>,
    mut framed: ResMut<Framed>,
    hand: Option<Res<TileInHand>>,
    time: Res<Time>,
    mut commands: Commands,
) {
    if letters.just_pressed('f') || keys.just_pressed(KeyCode::Home) {
        fit.0 = true;
    }
    // Never under a tile being dragged: a panel that widened as a forecast
    // came in framed the board anew, and the drop missed its gold cell. What
    // changed meanwhile is seen after the drop.
    if hand.is_some_and(|h| h.dragging) {
        return;
    }
    // The panels found their size (the first frames, a fold, a UI scale):
    // frame the map in the room it really has.
    // A room that changed while the map stays seen whole keeps the view (a
    // guide window or a fold reframed the board under the pointer); only
    // the first room known frames the map at once.
    let area = room(area.0, reserved.0);
    let mut room_moved = false;
    if let Some(a) = area {
        let moved = last_area
            .is_none_or(|l| (l.min - a.min).abs().max_element() > 20.0 || (l.max - a.max).abs().max_element() > 20.0);
        if moved {
            *last_area = Some(a);
            room_moved = true;
            if !framed.0 {
                fit.0 = true;
            }
        }
    }
    // Keep the whole map in view as it grows, and frame a new Ecology's Entry tile.
    // and every cell where a drawn tile could go.
    let counts = (board.view.tiles.len(), hints.iter().count());
    let changed = counts != *last_tiles;
    // Fewer tiles: a new Ecology's map, framed anew.
    if counts.0 < last_tiles.0 {
        fit.0 = true;
    }
    *last_tiles = counts;
    if !fit.0 && !changed && !room_moved {
        return;
    }
    let (entity, camera, transform, projection, glide) = camera.into_inner();
    let Some(viewport) = camera.logical_viewport_size() else {
        return; // not laid out yet; try again next frame
    };
    let mut bounds = map_bounds(&board.view);
    for hint in &hints {
        bounds = bounds.union(Rect::from_center_size(cell_center(hint.cell), Vec2::splat(TILE_SIZE)));
    }
    // A changed map that the view still shows whole keeps the view: framed
    // anew after each tile, the board zoomed and slid under the pointer.
    // (Seen from where a glide under way ends.)
    let (now_center, now_scale) = glide.map_or((transform.translation.truncate(), ortho_scale(projection)), |g| g.to);
    let shown = seen(area, viewport, now_center, now_scale);
    if !fit.0 && shown.is_some_and(|s| s.contains(bounds.min) && s.contains(bounds.max)) {
        return;
    }
    let to = fit_view_within(bounds, viewport, insets(area, viewport), FIT_MIN_SCALE);
    // The first framing is at once; any later one glides there.
    let from = (transform.translation.truncate(), ortho_scale(projection));
    commands.entity(entity).insert(CameraGlide { from, to, since: time.elapsed_secs(), at_once: !framed.0 });
    framed.0 = area.is_some();
    fit.0 = false;
}

/// The map has been framed in the board's room since the board came up
/// (until then a framing is at once, not a glide from another game's view).
#[derive(Resource, Default)]
struct Framed(bool);

/// How long the camera takes to frame the map anew.
const GLIDE_SECS: f32 = 0.3;

/// The board camera on its way to a new framing (centre, scale): it glides
/// there instead of jumping, so a grown map or a new room is seen to move.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
#[require(crate::game::animating::Animating)]
pub struct CameraGlide {
    from: (Vec2, f32),
    to: (Vec2, f32),
    since: f32,
    /// The first framing of a board: no glide from wherever the camera was.
    at_once: bool,
}

impl CameraGlide {
    /// Where the camera is a fraction `t` of the way (eased at both ends).
    fn at(&self, t: f32) -> (Vec2, f32) {
        if self.at_once || t >= 1.0 {
            return self.to;
        }
        let e = t * t * (3.0 - 2.0 * t);
        (self.from.0.lerp(self.to.0, e), self.from.1 + (self.to.1 - self.from.1) * e)
    }
}

fn glide_camera(
    mut commands: Commands,
    time: Res<Time>,
    camera: Single<(Entity, &CameraGlide, &mut Transform, &mut Projection), With<BoardCamera>>,
) {
    let (entity, glide, mut transform, mut projection) = camera.into_inner();
    let t = ((time.elapsed_secs() - glide.since) / GLIDE_SECS).clamp(0.0, 1.0);
    let (center, scale) = glide.at(t);
    transform.translation = center.extend(transform.translation.z);
    if let Projection::Orthographic(o) = projection.as_mut() {
        o.scale = scale;
    }
    if glide.at_once || t >= 1.0 {
        commands.entity(entity).remove::<(CameraGlide, crate::game::animating::Animating)>();
    }
}

fn keyboard_pan(
    keys: Res<ButtonInput<KeyCode>>,
    delve: Option<Res<Delve>>,
    time: Res<Time>,
    camera: Single<(&mut Transform, &Projection), With<BoardCamera>>,
) {
    // With a tile in hand the arrows move its ghost instead.
    if delve.is_some_and(|s| s.tile_in_hand().is_some()) {
        return;
    }
    let mut dir = Vec2::ZERO;
    for (key, d) in [
        (KeyCode::ArrowUp, Vec2::Y),
        (KeyCode::ArrowDown, Vec2::NEG_Y),
        (KeyCode::ArrowLeft, Vec2::NEG_X),
        (KeyCode::ArrowRight, Vec2::X),
    ] {
        if keys.pressed(key) {
            dir += d;
        }
    }
    if dir == Vec2::ZERO {
        return;
    }
    let (mut transform, projection) = camera.into_inner();
    // The first frame after a long idle has a huge delta: cap it.
    let dt = time.delta_secs().min(1.0 / 30.0);
    let step = dir.normalize() * KEY_PAN_SPEED * ortho_scale(projection) * dt;
    transform.translation += step.extend(0.0);
    // Reactive rendering sleeps between events; keep frames coming while held.
}

/// Pans once the pointer has moved more than [`CLICK_SLOP`] with a button
/// held, so a click does not nudge the table; never while a tile is dragged.
fn drag_pan(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(Entity, &mut Transform, &Projection), With<BoardCamera>>,
    mut commands: Commands,
    hand: Option<Res<TileInHand>>,
    area: Res<BoardArea>,
    egui: Res<EguiWantsInput>,
    mut last: Local<Option<Vec2>>,
    mut panning: Local<bool>,
) {
    let drag_buttons = [MouseButton::Left, MouseButton::Right, MouseButton::Middle];
    let cursor = window.cursor_position();
    if hand.is_some_and(|h| h.dragging) {
        *last = None;
        return;
    }
    if buttons.any_just_pressed(drag_buttons) {
        // Only a press on the board pans; one on a panel belongs to egui.
        *last = cursor.filter(|_| on_board(cursor, &area, &egui));
        *panning = false;
        return;
    }
    if !buttons.any_pressed(drag_buttons) {
        *last = None;
        return;
    }
    let (Some(prev), Some(now)) = (*last, cursor) else {
        return;
    };
    if !*panning {
        if prev.distance(now) <= CLICK_SLOP {
            return;
        }
        *panning = true;
    }
    let (entity, mut transform, projection) = camera.into_inner();
    // The player's own move wins over a framing under way.
    commands.entity(entity).remove::<(CameraGlide, crate::game::animating::Animating)>();
    let delta = now - prev;
    // Screen y grows downwards, world y upwards.
    transform.translation += Vec3::new(-delta.x, delta.y, 0.0) * ortho_scale(projection);
    *last = Some(now);
}

fn wheel_zoom(
    scroll: Res<AccumulatedMouseScroll>,
    hand: Option<Res<TileInHand>>,
    area: Res<BoardArea>,
    egui: Res<EguiWantsInput>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(Entity, &Camera, &mut Transform, &mut Projection), With<BoardCamera>>,
    mut commands: Commands,
) {
    // While a tile is dragged the wheel turns it; over a panel it scrolls the panel.
    if scroll.delta.y == 0.0 || hand.is_some_and(|h| h.dragging) || !on_board(window.cursor_position(), &area, &egui) {
        return;
    }
    let notches = match scroll.unit {
        MouseScrollUnit::Line => scroll.delta.y,
        MouseScrollUnit::Pixel => scroll.delta.y / 60.0,
    };
    let (entity, camera, mut transform, mut projection) = camera.into_inner();
    commands.entity(entity).remove::<(CameraGlide, crate::game::animating::Animating)>();
    let Projection::Orthographic(ortho) = projection.as_mut() else {
        return;
    };
    let old = ortho.scale;
    let new = (old * 1.15f32.powf(-notches)).clamp(MIN_SCALE, MAX_SCALE);
    ortho.scale = new;
    // Keep the point under the cursor where it is.
    if let (Some(cursor), Some(size)) = (window.cursor_position(), camera.logical_viewport_size()) {
        let offset = Vec2::new(cursor.x - size.x / 2.0, size.y / 2.0 - cursor.y);
        let shift = offset * (old - new);
        transform.translation += shift.extend(0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONE: Insets = Insets { left: 0.0, right: 0.0, top: 0.0, bottom: 0.0 };

    #[test]
    fn fit_centres_and_scales_to_the_tighter_axis() {
        let bounds = Rect::new(-100.0, -50.0, 300.0, 150.0); // 400 x 200
        let (center, scale) = fit_view(bounds, Vec2::new(800.0, 800.0), NONE);
        assert_eq!(center, Vec2::new(100.0, 50.0));
        assert_eq!(scale, 0.5);
    }

    #[test]
    fn fit_leaves_the_insets_clear() {
        let bounds = Rect::new(0.0, 0.0, 400.0, 400.0);
        let insets = Insets { left: 0.0, right: 200.0, top: 100.0, bottom: 100.0 };
        let (center, scale) = fit_view(bounds, Vec2::new(1000.0, 1000.0), insets);
        assert_eq!(scale, 0.5);
        // Free region is x 0..800, y 100..900 (screen), centred 100 px left of the
        // viewport centre: the camera looks 100 px * 0.5 to the right of the map.
        assert_eq!(center, Vec2::new(250.0, 200.0));
    }

    /// A map framed in a room is seen whole there, so a tile placed inside
    /// the view keeps it still; a map grown past the view is not, and is
    /// framed anew.
    #[test]
    fn a_framed_map_is_seen_whole_and_a_grown_one_is_not() {
        let viewport = Vec2::new(1280.0, 800.0);
        let area = Some(Rect::new(328.0, 35.0, 950.0, 720.0));
        let bounds = Rect::new(-300.0, -200.0, 500.0, 400.0);
        let (center, scale) = fit_view_within(bounds, viewport, insets(area, viewport), FIT_MIN_SCALE);
        let shown = seen(area, viewport, center, scale).unwrap();
        assert!(shown.contains(bounds.min) && shown.contains(bounds.max), "{shown:?} vs {bounds:?}");
        let grown =
            bounds.union(Rect::from_center_size(Vec2::new(bounds.max.x + TILE_SIZE, 0.0), Vec2::splat(TILE_SIZE)));
        assert!(!shown.contains(grown.max), "{shown:?} vs {grown:?}");
    }

    /// "The guide never covers what it points at": a map framed with the
    /// guide's height reserved lies wholly below the guide, and inside the board.
    #[test]
    fn the_map_is_framed_below_the_guide() {
        let viewport = Vec2::new(1280.0, 800.0);
        let area = Some(Rect::new(328.0, 35.0, 950.0, 720.0));
        // The first tile and the four cells around it, as at the guide's step 2.
        let bounds = Rect::new(-360.0, -360.0, 360.0, 360.0);
        for reserved in [0.0, 160.0, 240.0] {
            let room = room(area, reserved).unwrap();
            let (center, scale) = fit_view_within(bounds, viewport, insets(Some(room), viewport), FIT_MIN_SCALE);
            // Screen y grows downwards; world y upwards.
            let top = viewport.y / 2.0 - (bounds.max.y - center.y) / scale;
            let bottom = viewport.y / 2.0 - (bounds.min.y - center.y) / scale;
            let (left, right) = (
                viewport.x / 2.0 + (bounds.min.x - center.x) / scale,
                viewport.x / 2.0 + (bounds.max.x - center.x) / scale,
            );
            assert!(top >= 35.0 + reserved, "reserved {reserved}: the map's top at {top}");
            assert!(bottom <= 720.0 && left >= 328.0 && right <= 950.0, "{left} {right} {bottom}");
        }
    }

    /// "The table jumps": a new framing glides from the view the player had
    /// to the new one, both ends held, never past it; the first framing of
    /// a board is at once.
    #[test]
    fn a_new_framing_glides_there_and_the_first_is_at_once() {
        let glide =
            CameraGlide { from: (Vec2::ZERO, 1.0), to: (Vec2::new(400.0, -100.0), 2.0), since: 0.0, at_once: false };
        assert_eq!(glide.at(0.0), glide.from);
        assert_eq!(glide.at(1.0), glide.to);
        let mut last = glide.from;
        for i in 1..=10 {
            let now = glide.at(i as f32 / 10.0);
            assert!(now.0.x >= last.0.x && now.0.x <= 400.0 && now.1 >= last.1 && now.1 <= 2.0, "step {i}: {now:?}");
            last = now;
        }
        let (mid, _) = glide.at(0.5);
        assert!(mid.x > 0.0 && mid.x < 400.0, "half way it is between: {mid}");
        assert_eq!(CameraGlide { at_once: true, ..glide }.at(0.0), glide.to);
    }
}
