//! Requests that move between the screens (a menu choice, back to the menu)
//! and the line the menu shows: written by the game's flow and the UI
//! alike, handled by the menu screen (`ui/screens/menu.rs`).

use bevy::prelude::*;

/// A choice made on a menu or the in-game bar. The UI only writes these; the
/// rules step applies them, so tests can drive the game without egui.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub enum MenuAction {
    NewGame,
    /// The Ruins with a guide through the first turns (`crate::game::guide`).
    GuidedGame,
    Continue,
    Load,
    /// Host or join a game over the network (`lobby.rs`).
    PlayOnline,
    /// Join again the table this player last joined (its invite and their
    /// name are in the settings): the lobby opens and dials it.
    Rejoin,
    /// Games played and won, across games (`statistics.rs`).
    Statistics,
    Rules,
    Quit,
    /// Leave the board for the main menu.
    BackToMenu,
}

/// A line shown under the menu buttons, e.g. a save that does not load.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct MenuNotice(pub Option<String>);
