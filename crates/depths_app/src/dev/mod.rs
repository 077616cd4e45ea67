//! Development tools (cargo feature `dev-tools`): `--screenshot` and
//! `--frame-bench`.

pub(crate) mod frame_bench;
pub mod screenshot;
