//! The pointer on the board's tokens, through Bevy's picking (egui's panels
//! block it where they lie): hovering an Ecology Element's token tells what
//! it is, what Encountering it does and whether it can be reached; clicking
//! it selects it (its details and Encounter button in the party panel).
//! Tile placement keeps its own drag handling (`explore.rs`): the tile comes
//! from the egui tray and is dropped on cells, not on entities.

use bevy::{picking::pointer::PointerButton, prelude::*, window::RequestRedraw};
use depths_rules::{
    Action, Game, Phase,
    map::{ElementRef, ElementState},
};

use crate::{
    board::explore::{CLICK_SLOP, SelectedElement},
    board::{ElementToken, TOKEN_RADIUS},
    game::session::{Delve, Seats},
    game::words::{element_help, element_text},
    table::pointer::Hovered,
    ui::screens::Screen,
};

/// Where the pointer was pressed on a token: a press that moves is a pan.
#[derive(Resource, Default, Debug)]
struct PressedAt(Option<Vec2>);

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<PressedAt>();
    app.add_systems(PostUpdate, make_tokens_pickable.run_if(in_state(Screen::Playing)));
}

/// Every token gets an invisible disc the picking finds (the token's art is
/// meshes, redrawn as it flips) and the observers.
fn make_tokens_pickable(mut commands: Commands, tokens: Query<Entity, Added<ElementToken>>) {
    for e in &tokens {
        commands
            .entity(e)
            .insert((Sprite::from_color(Color::NONE, Vec2::splat(TOKEN_RADIUS * 2.0)), Pickable::default()))
            .observe(on_over)
            .observe(on_out)
            .observe(on_press)
            .observe(on_click);
    }
}

fn element_ref(token: &ElementToken) -> ElementRef {
    ElementRef { cell: token.cell, area: token.area as u8, element: token.element as u8 }
}

/// What a token says on hover.
pub fn token_text(game: &Game, e: ElementRef) -> String {
    let Some((element, state)) = game.adventure().and_then(|a| a.ecology.map.element(e)) else { return String::new() };
    let state = match state {
        ElementState::Present => "Not yet Encountered.",
        ElementState::Encountered => "Encountered.",
        ElementState::Defeated => "Defeated.",
        ElementState::Unlocked => "Unlocked.",
    };
    let reach = if game.check(&Action::Encounter { element: e }).is_ok() {
        "Within reach: click it, then Encounter."
    } else {
        ""
    };
    let mut text = format!("{}\n{}\n{state}", element.name(), element_help(element));
    let place = element_text(game, e);
    text.push_str(&format!("\n({place})"));
    if !reach.is_empty() {
        text.push('\n');
        text.push_str(reach);
    }
    text
}

fn on_over(
    ev: On<Pointer<Over>>,
    tokens: Query<&ElementToken>,
    delve: Option<Res<Delve>>,
    mut hovered: ResMut<Hovered>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let (Ok(token), Some(delve)) = (tokens.get(ev.event_target()), delve) else { return };
    // In Combat the mat covers the board.
    if matches!(delve.game.phase(), Phase::Combat { .. }) {
        return;
    }
    let text = token_text(&delve.game, element_ref(token));
    if !text.is_empty() {
        hovered.0 = Some((ev.event_target(), text));
        redraw.write(RequestRedraw);
    }
}

fn on_out(ev: On<Pointer<Out>>, mut hovered: ResMut<Hovered>, mut redraw: MessageWriter<RequestRedraw>) {
    if hovered.0.as_ref().is_some_and(|(e, _)| *e == ev.event_target()) {
        hovered.0 = None;
        redraw.write(RequestRedraw);
    }
}

fn on_press(ev: On<Pointer<Press>>, mut pressed: ResMut<PressedAt>) {
    pressed.0 = Some(ev.pointer_location.position);
}

/// A click (not a pan) selects the token while the Heroes explore with no
/// tile in hand (with one, a click places the tile).
fn on_click(
    ev: On<Pointer<Click>>,
    tokens: Query<&ElementToken>,
    table: Option<(Res<Delve>, Res<Seats>)>,
    pressed: Res<PressedAt>,
    mut selected: ResMut<SelectedElement>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    if ev.event.button != PointerButton::Primary {
        return;
    }
    let (Ok(token), Some((delve, seats))) = (tokens.get(ev.event_target()), table) else { return };
    let exploring = matches!(delve.game.phase(), Phase::Exploring { tile_in_hand: false, .. });
    let still = pressed.0.is_some_and(|p| p.distance(ev.pointer_location.position) <= CLICK_SLOP);
    if exploring && still && seats.curtain(&delve.game).is_none() {
        selected.0 = Some(element_ref(token));
        redraw.write(RequestRedraw);
    }
}
