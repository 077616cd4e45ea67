//! Development tools (cargo feature `dev-tools`): `--screenshot` and
//! `--frame-bench`.

pub(crate) mod frame_bench;
pub mod screenshot;

use bevy::prelude::*;

pub(crate) fn desktop_plugin(app: &mut App) {
    app.add_plugins((screenshot::plugin, frame_bench::plugin));
}
