//! What the player holds and points at, as plain resources: the tile in hand,
//! the part of the window the board shows through, the element whose details
//! are open, and the card under the pointer. Input systems above set them;
//! hints, forecasts and panels read them.

use bevy::prelude::*;
use depths_rules::map::{Cell, ElementRef, Rotation};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TileInHand>()
        .init_resource::<BoardArea>()
        .init_resource::<BoardReserved>()
        .init_resource::<SelectedElement>()
        .init_resource::<PreviewedEncounter>()
        .init_resource::<Hovered>()
        .init_resource::<HoveredToken>()
        .init_resource::<HintedSpot>()
        .init_resource::<PressOverPanel>();
    app.add_systems(PreUpdate, note_press.after(bevy::input::InputSystems));
}

/// Whether the last press of the primary button began over a panel or a
/// window: the click it ends is that panel's, even where the panel is gone
/// when the button comes up (the pass screen lifts on its button's click,
/// and the pair under the button was resolved by the same click).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct PressOverPanel(pub bool);

/// Without a mouse or panels (a headless test) there is nothing to note.
/// The pass screen counts as a panel: drawn on egui's background layer, it
/// is no "area" to egui, and a click on "I am Mara" resolved Bren's pair
/// lying under the button.
fn note_press(
    buttons: Option<Res<ButtonInput<MouseButton>>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
    table: (Option<Res<crate::game::session::Seats>>, Option<Res<crate::game::session::Delve>>),
    mut press: ResMut<PressOverPanel>,
) {
    if let (Some(buttons), Some(egui)) = (buttons, egui)
        && buttons.just_pressed(MouseButton::Left)
    {
        let curtain = match table {
            (Some(seats), Some(delve)) => seats.curtain(delve.game()).is_some(),
            _ => false,
        };
        press.0 = egui.is_pointer_over_area() || curtain;
    }
}

/// The tile in hand: how it is turned and where its ghost stands.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct TileInHand {
    pub rotation: Rotation,
    /// The cell the ghost stands on; `None` while the tile waits in the tray.
    pub cell: Option<Cell>,
    /// Being dragged with the mouse: the ghost follows `drag_world`.
    pub dragging: bool,
    pub drag_world: Option<Vec2>,
    /// Id of the tile this hand state belongs to.
    pub(crate) tile: Option<String>,
}

/// The part of the window the board shows through (not under a side panel),
/// in logical pixels; set by the panels each frame. `None`: the whole window.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct BoardArea(pub Option<Rect>);

/// The height (logical pixels) at the top of the [`BoardArea`] that a window
/// over the board keeps for itself (the guide): the map is framed below it,
/// so the window never covers the cells it points at.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct BoardReserved(pub f32);

/// The element whose details are shown.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SelectedElement(pub Option<ElementRef>);

/// The fight a "Within reach" row under the pointer would start: its chance
/// is worked out while the pointer rests there, for the row's hover box
/// (a click there Encounters at once, with no chance shown before).
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct PreviewedEncounter(pub Option<depths_rules::Action>);

/// Where the hinted move lies on the board on screen (logical px): the
/// cell the hint places a tile in, or the element it Encounters; and the
/// cells a drawn tile may go to (gold, or blue: turned). The hint's words over the board keep
/// off them (they covered the very cell, and a gold cell beside it).
#[derive(Resource, Default, Debug, PartialEq)]
pub struct HintedSpot {
    pub hinted: Option<Rect>,
    pub cells: Vec<Rect>,
}

/// The card under the pointer and what it says, for the hover box.
#[derive(Resource, Default, Debug, PartialEq, Eq)]
pub struct Hovered(pub Option<(Entity, String)>);

/// Where a token on the board under the pointer lies on screen (logical
/// px), for the hover box to keep clear of: a zoomed-in token is larger
/// than the square the box keeps off round the pointer, and the box covered it.
#[derive(Resource, Default, Debug, PartialEq)]
pub struct HoveredToken(pub Option<(Entity, Rect)>);

impl Hovered {
    pub fn text(&self) -> Option<&str> {
        self.0.as_ref().map(|(_, t)| t.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::session::{Seats, Session};
    use depths_rules::{Content, Game, GameOptions};

    /// A playtester's click on "I am Mara" also resolved Bren's pair lying
    /// under the button: a press made while the pass screen is up belongs
    /// to it (egui does not count it as an area), as one over a panel does.
    #[test]
    fn a_press_on_the_pass_screen_is_not_the_tables() {
        let press_with = |curtain: bool| {
            let mut app = App::new();
            let game = Game::new(GameOptions::standard(&["bren", "sil"], 1), Content::builtin().unwrap()).unwrap();
            Session::new(game).insert_into(app.world_mut());
            let mut seats = app.world_mut().resource_mut::<Seats>();
            seats.players.names = vec!["Mara".into(), "Jon".into()];
            seats.players.owners = vec![0, 1];
            seats.players.curtain = curtain;
            seats.turn.shown_to = None;
            app.init_resource::<PressOverPanel>();
            app.init_resource::<bevy_egui::input::EguiWantsInput>();
            let mut buttons = ButtonInput::<MouseButton>::default();
            buttons.press(MouseButton::Left);
            app.insert_resource(buttons);
            app.add_systems(Update, note_press);
            app.update();
            app.world().resource::<PressOverPanel>().0
        };
        assert!(press_with(true), "a press on the pass screen is the screen's");
        assert!(!press_with(false), "with no pass screen (nor panel) under it, a press is the table's");
    }
}
