//! `FD_SLOW_MOTION=F`: the game's clock runs at F times its pace (0.05 to 1),
//! so the table's motion (a card turning over, a Hit's shake) can be looked
//! at frame by frame under a slow software renderer.

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    let Ok(value) = std::env::var("FD_SLOW_MOTION") else { return };
    match pace(&value) {
        Some(pace) => {
            app.add_systems(Startup, move |mut time: ResMut<Time<Virtual>>| time.set_relative_speed(pace));
        }
        None => warn!("FD_SLOW_MOTION={value:?} ignored: a number from 0.05 to 1 is expected"),
    }
}

/// The pace a setting asks for, if it is one.
fn pace(value: &str) -> Option<f32> {
    value.trim().parse::<f32>().ok().filter(|p| (0.05..=1.0).contains(p))
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_a_slower_pace_is_taken() {
        assert_eq!(super::pace("0.1"), Some(0.1));
        assert_eq!(super::pace("2"), None);
        assert_eq!(super::pace("NaN"), None);
        assert_eq!(super::pace("fast"), None);
    }
}
