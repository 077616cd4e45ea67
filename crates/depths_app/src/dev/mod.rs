//! Development tools (cargo feature `dev-tools`): `--screenshot`,
//! `--frame-bench` and `--health-check`.

pub(crate) mod frame_bench;
pub(crate) mod health;
pub mod screenshot;

use bevy::prelude::*;

pub(crate) fn desktop_plugin(app: &mut App) {
    app.add_plugins((screenshot::plugin, frame_bench::plugin, health::plugin));
}
