//! The frame's order, in one place.

use bevy::prelude::*;

/// Every game system in `Update` joins one of these, run in this order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PlaySystems {
    /// Turn clicks, drags and keys into camera moves and player choices.
    Input,
    /// Apply choices: menu actions now, rules-core `Action`s later.
    Rules,
    /// Spawn, update and despawn entities to match the model.
    Sync,
    /// Animate and draw what the model does not know about.
    Present,
}

pub(super) fn plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (PlaySystems::Input, PlaySystems::Rules, PlaySystems::Sync, PlaySystems::Present).chain(),
    );
}
