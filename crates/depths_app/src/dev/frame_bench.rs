//! `--frame-bench N`: a benchmark of frame time while the table moves. On the
//! board, the camera glides in a slow circle (every sprite, the egui panels
//! and the window redraw each frame, as during any animation); after a short
//! warm-up, N frames are timed and the figures printed, then the game exits.

use bevy::prelude::*;

use crate::{
    board::tiles::BoardCamera,
    game::animating::{Wait, Waiting},
    game::cli::Options,
    game::screen::Screen,
};

/// Frames on the board before timing starts (shaders, egui fonts, fit).
const WARM_UP: u32 = 30;

#[derive(Resource, Debug, Default)]
struct FrameBench {
    wanted: usize,
    warm: u32,
    /// Frame times in seconds.
    times: Vec<f32>,
    start: Option<Vec3>,
}

pub(super) fn plugin(app: &mut App) {
    let Some(wanted) = app.world().get_resource::<Options>().and_then(|o| o.frame_bench) else {
        return;
    };
    app.insert_resource(FrameBench { wanted, ..default() });
    app.add_systems(Update, glide.run_if(in_state(Screen::Playing)));
    // Reactive rendering sleeps without input: ask for every frame.
    app.add_systems(Startup, |mut w: ResMut<Waiting>| w.set(Wait::Tool, true));
}

fn glide(
    time: Res<Time<Real>>,
    mut bench: ResMut<FrameBench>,
    mut camera: Query<&mut Transform, With<BoardCamera>>,
    mut exit: MessageWriter<AppExit>,
) {
    let Ok(mut transform) = camera.single_mut() else { return };
    if bench.warm < WARM_UP {
        bench.warm += 1;
        bench.start = Some(transform.translation);
        return;
    }
    let centre = bench.start.unwrap_or(transform.translation);
    let angle = bench.times.len() as f32 * 0.05;
    transform.translation = centre + Vec3::new(angle.cos() - 1.0, angle.sin(), 0.0) * 120.0;
    bench.times.push(time.delta_secs());
    if bench.times.len() >= bench.wanted {
        println!("{}", summary(&bench.times));
        exit.write(AppExit::Success);
    }
}

/// "300 frames while panning the board: mean 16.9 ms (59 fps), median …".
pub fn summary(times: &[f32]) -> String {
    let mut ms: Vec<f32> = times.iter().map(|t| t * 1000.0).collect();
    ms.sort_by(f32::total_cmp);
    let n = ms.len().max(1);
    let mean = ms.iter().sum::<f32>() / n as f32;
    let at = |q: f32| ms.get(((n - 1) as f32 * q).round() as usize).copied().unwrap_or(0.0);
    format!(
        "frame bench: {} frames while panning the board: mean {mean:.1} ms ({:.0} fps), median {:.1} ms, 95th percentile {:.1} ms, worst {:.1} ms",
        ms.len(),
        1000.0 / mean.max(0.001),
        at(0.5),
        at(0.95),
        at(1.0)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_reports_mean_median_and_tail() {
        let mut times = vec![0.016; 19];
        times.push(0.050);
        let line = summary(&times);
        assert!(line.contains("20 frames"), "{line}");
        assert!(line.contains("mean 17.7 ms (56 fps)"), "{line}");
        assert!(line.contains("median 16.0 ms"), "{line}");
        assert!(line.contains("worst 50.0 ms"), "{line}");
    }
}
