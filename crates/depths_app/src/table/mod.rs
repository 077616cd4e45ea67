//! The table: the cards in play as entities under their own screen-fixed
//! camera. In Combat the board dims and the table becomes the Combat mat —
//! the Monster cards along the top (or down the side), each Hero's Combat
//! Pairs face to face in the middle, the hands along the bottom.
//!
//! [`faces`] says what lies where and what clicking it does (plain data,
//! tested headless), [`layout`] where each card goes on screen, `cards`
//! spawns and moves the entities, `pointer` turns Bevy picking (click,
//! drag, hover) into the rules' `Action`s, `feedback` tells what just
//! happened (damage numbers, the end of a fight), and `reveal` shows each
//! card drawn or gained large until dismissed.

pub mod card_art;
pub mod cards;
pub mod faces;
pub mod feedback;
pub mod hint_frame;
pub mod layout;
pub mod motion;
pub mod party;
pub mod pointer;
pub mod reveal;

use bevy::prelude::*;

pub(crate) fn desktop_plugin(app: &mut App) {
    app.add_plugins((
        card_art::plugin,
        cards::plugin,
        motion::plugin,
        pointer::plugin,
        feedback::plugin,
        reveal::plugin,
        party::plugin,
        hint_frame::plugin,
    ));
}
