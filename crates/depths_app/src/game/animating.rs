//! What keeps the window drawing with no input. The window draws only on
//! input (reactive rendering); the one redraw system (`ui/redraw.rs`) asks for
//! the next frame when the game or the table changed, and for every frame
//! while something moves or waits by itself: an entity marked [`Animating`],
//! or a [`Waiting`] reason that no entity shows.

use std::collections::BTreeSet;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Waiting>();
    // The game's clock is the wall clock. Frames are reactive, so seconds
    // may pass between two; Bevy's virtual clock moves at most 0.25 s a
    // frame, so after an idle spell it ran behind: the number keys' guard
    // (1.5 s) held a key 2-2.5 s after a move, and a note stayed on longer.
    if let Some(mut time) = app.world_mut().get_resource_mut::<Time<Virtual>>() {
        time.set_max_delta(std::time::Duration::from_secs(24 * 3600));
    }
}

/// The window's pace when nothing asks for frames: none until input, a
/// `RequestRedraw` or a task's wake-up, focused or not. Under software
/// rendering one frame costs 9–13 ticks of CPU, so a periodic "safety" frame
/// (`desktop_app()`'s every 5 s, ours once a minute) broke the idle bound;
/// everything that changes by itself asks for its frames (see below). The
/// wait is a day rather than `Duration::MAX`: winit's deadline is the frame's
/// start plus the wait, and one that overflows leaves the loop polling.
pub fn resting_pace() -> bevy::winit::WinitSettings {
    let day = std::time::Duration::from_secs(24 * 3600);
    bevy::winit::WinitSettings {
        focused_mode: bevy::winit::UpdateMode::reactive(day),
        unfocused_mode: bevy::winit::UpdateMode::reactive_low_power(day),
    }
}

/// An entity that changes by itself from frame to frame (a tile landing, the
/// Lantern walking, a card sliding, a toast fading, music fading): while any
/// entity carries it, every frame is drawn. Taken off when the motion ends.
#[derive(Component, Debug, Default)]
pub struct Animating;

/// A wait measured in time that no entity shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wait {
    /// A Companion's pause before its move (the setting's pace).
    CompanionPause,
    /// Assets load off the main thread, which wakes nothing.
    Loading,
    /// A development tool wants every frame (the screenshot, the frame bench).
    Tool,
}

/// The waits under way: while any is, every frame is drawn.
#[derive(Resource, Debug, Default)]
pub struct Waiting(BTreeSet<Wait>);

impl Waiting {
    /// Starts (`on`) or ends a wait; touches the set only when that changes it.
    pub fn set(&mut self, wait: Wait, on: bool) {
        if self.0.contains(&wait) != on {
            if on {
                self.0.insert(wait);
            } else {
                self.0.remove(&wait);
            }
        }
    }

    pub fn any(&self) -> bool {
        !self.0.is_empty()
    }
}

/// Marks `entity` as [`Animating`] while `moving`, taking the mark off when it
/// stops (`marked`: whether it carries the mark now).
pub fn mark_motion(commands: &mut Commands, entity: Entity, moving: bool, marked: bool) {
    match (moving, marked) {
        (true, false) => {
            commands.entity(entity).insert(Animating);
        }
        (false, true) => {
            commands.entity(entity).remove::<Animating>();
        }
        _ => {}
    }
}
