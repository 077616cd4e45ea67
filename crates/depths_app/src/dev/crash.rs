//! `--crash`: a panic once the first frame is drawn, to see the crash
//! report as a player meets it (the log file, the message box on Windows).

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    if app.world().get_resource::<crate::game::cli::Options>().is_some_and(|o| o.crash) {
        app.add_systems(Last, crash);
    }
}

fn crash(mut frames: Local<u32>) {
    *frames += 1;
    assert!(*frames < 3, "--crash asked for this panic, on frame {}", *frames);
}
