//! Development tools (cargo feature `dev-tools`): `--screenshot`,
//! `--frame-bench`, `--offscreen`, `--health-check`, `--steadiness-check`,
//! `--crash`, and
//! `FD_SLOW_MOTION` to look at motion.

mod crash;
pub(crate) mod frame_bench;
pub(crate) mod health;
pub(crate) mod offscreen;
pub mod screenshot;
mod slow_motion;
mod steadiness;

use bevy::prelude::*;

pub(crate) fn desktop_plugin(app: &mut App) {
    app.add_plugins((
        crash::plugin,
        offscreen::plugin,
        screenshot::plugin,
        frame_bench::plugin,
        health::plugin,
        steadiness::plugin,
        slow_motion::plugin,
    ));
}
