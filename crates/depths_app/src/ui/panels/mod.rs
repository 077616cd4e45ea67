//! The in-game egui panels: the banner, Hero mats, the party's Keys and XP,
//! the Reference Card, the tile tray, element details, every pending
//! decision, Combat, the log, the end of a fight and the game-over screen.
//!
//! Every button is built from `Game::legal_actions()` and only writes a
//! [`TryAction`](crate::game::confirm::TryAction) (made at once unless it
//! must be asked about); whatever no nicer widget shows is listed under "Other
//! choices", so a whole game can always be finished here.

mod banner;
mod combat;
mod decisions;
mod fight_end;
mod frame;
mod game_over;
mod hero_mat;
mod party;
mod widgets;

pub use banner::MAX_SHARE as BANNER_SHARE;
pub use combat::STRIP_CUT;
pub(crate) use widgets::number_key;
pub use widgets::{Control, HOVER_BOX, PanelProbe};

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(frame::plugin);
}
