//! A window resized by the game itself (a remembered size put back, the
//! health check's sizes) reaches the renderer at once but its cameras only
//! when the windowing system reports the resize, a frame or more later. In
//! between, egui clipped its drawing to the old size, the renderer refused
//! the clip rectangles as larger than the window, and the game quit ("Scissor
//! Rect … is not contained in the render target"). So every change of the
//! window's size or scale is told to the cameras in the frame it is made.

use bevy::{camera::CameraUpdateSystems, prelude::*, window::WindowResized};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(PostUpdate, tell_the_cameras.before(CameraUpdateSystems));
}

fn tell_the_cameras(
    windows: Query<(Entity, &Window), Changed<Window>>,
    mut seen: Local<bevy::platform::collections::HashMap<Entity, (UVec2, f32)>>,
    mut resized: MessageWriter<WindowResized>,
) {
    for (entity, window) in &windows {
        let now = (window.physical_size(), window.scale_factor());
        if seen.insert(entity, now).is_some_and(|before| before != now) {
            resized.write(WindowResized { window: entity, width: window.width(), height: window.height() });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A size set by the game is told as a resize in the same frame; a
    /// window that did not change is not.
    #[test]
    fn a_size_the_game_sets_is_told_at_once() {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins).add_message::<WindowResized>().add_plugins(plugin);
        let window = app.world_mut().spawn(Window::default()).id();
        app.update();
        let mut cursor = app.world().resource::<Messages<WindowResized>>().get_cursor();
        let mut told = |app: &mut App| {
            let messages = app.world().resource::<Messages<WindowResized>>();
            cursor.read(messages).map(|m| (m.window, m.width, m.height)).collect::<Vec<_>>()
        };
        assert!(told(&mut app).is_empty(), "the first look is no change");
        app.world_mut().get_mut::<Window>(window).unwrap().resolution.set(1280.0, 800.0);
        app.update();
        assert_eq!(told(&mut app), [(window, 1280.0, 800.0)]);
        app.world_mut().get_mut::<Window>(window).unwrap().title = "renamed".into();
        app.update();
        assert!(told(&mut app).is_empty(), "a title is not a size");
    }
}
