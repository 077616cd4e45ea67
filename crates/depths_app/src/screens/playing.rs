//! The board screen: leaving it ends the session.

use bevy::prelude::*;

use crate::{screens::Screen, session::Session};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnExit(Screen::Playing), |mut commands: Commands| {
        commands.remove_resource::<Session>();
    });
}
