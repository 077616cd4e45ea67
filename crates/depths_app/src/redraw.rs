//! Keeps the client idle when nothing happens (reactive rendering).

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    // Dev aid: FD_FRAME_LOG=1 logs how many frames ran in each second.
    if std::env::var_os("FD_FRAME_LOG").is_some() {
        app.add_systems(Last, log_frame_rate);
    }
}

fn log_frame_rate(time: Res<Time<Real>>, mut count: Local<u32>, mut since: Local<f32>) {
    *count += 1;
    *since += time.delta_secs();
    if *since >= 1.0 {
        info!("{} frames in the last {:.1} s", *count, *since);
        *count = 0;
        *since = 0.0;
    }
}
