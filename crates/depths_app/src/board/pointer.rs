//! The pointer on the board, through Bevy's picking (egui's panels block it
//! where they lie):
//! - a token: hovering tells what the Ecology Element is, what Encountering
//!   it does and whether it can be reached; clicking selects it (its details
//!   and Encounter button in the party panel);
//! - the tile in hand on the board: pressing picks it up (it follows the
//!   pointer until let go, see `explore.rs`), clicking it places it;
//! - a gold placement cell: clicking moves the tile in hand there, turned to
//!   fit;
//! - anywhere else on the board (a placed tile, the bare table: the window
//!   itself, which Bevy's picking lists behind every entity): clicking clears
//!   the selection;
//! - any of them: a right-click turns the tile in hand.
//!
//! Only the tokens, the tile in hand and the gold cells carry an invisible
//! sprite for the picking to find: a sprite under the whole table would be
//! drawn, blended, over every pixel of every frame.
//!
//! A tile dragged out of the egui tray is egui's drag until it reaches the
//! board; from there `explore.rs` carries it as it carries one picked up here.

use bevy::{ecs::system::SystemParam, picking::pointer::PointerButton, prelude::*, window::PrimaryWindow};
use bevy_egui::input::EguiWantsInput;
use depths_rules::{Action, Game, Phase, map::ElementRef};

use crate::{
    board::explore::TileDrop,
    board::explore::{GhostTile, PlacementHint, board_open, fitting_rotation, on_board, rotate},
    board::tiles::{BoardMark, ElementToken, Mark, TILE_SIZE, TOKEN_RADIUS},
    game::focus::{BoardArea, Hovered, SelectedElement, TileInHand},
    game::session::{Delve, Seats},
    game::taps::CLICK_SLOP,
    game::words::{element_help, element_text},
    game::{play_phase::PlayPhase, screen::Screen},
};

/// Where the pointer was last pressed: a press that moves is a pan, not a click.
#[derive(Resource, Default, Debug)]
struct PressedAt(Option<Vec2>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PressedAt>();
    app.add_observer(remember_press);
    app.add_observer(on_board_click);
    app.add_systems(
        PostUpdate,
        (make_tokens_pickable, make_marks_pickable, make_board_pickable).run_if(in_state(Screen::Playing)),
    );
    app.add_systems(
        Update,
        (place_hovered_token, place_hinted_spot).in_set(crate::PlaySystems::Present).run_if(in_state(Screen::Playing)),
    );
}

/// Every mark printed on a tile (a rune node, a Secret Passage, a Warp
/// Portal, a Level Stair, the Boat, the Sword) says what it is on hover.
fn make_marks_pickable(mut commands: Commands, marks: Query<Entity, Added<BoardMark>>) {
    for e in &marks {
        commands
            .entity(e)
            .insert((Sprite::from_color(Color::NONE, Vec2::splat(MARK_SIZE)), Pickable::default()))
            .observe(on_mark_over)
            .observe(on_out);
    }
}

/// What a mark is, in the book's words ("Map Tile Icons").
pub fn mark_text(mark: Mark) -> &'static str {
    match mark {
        Mark::RuneNode(_) => {
            "Map Tile Node\nPlace tiles so their Nodes match the Rune Pattern on a Legendary Location's card back to \
             Discover it; each Node is used once."
        }
        Mark::SecretPassage => {
            "Secret Passage\nAll Secret Passages are connected: entering one lets the Heroes exit any other in play."
        }
        Mark::WarpPortal => "Warp Portal\nThe two Warp Portals connect to each other, like the Ruins' Secret Passages.",
        Mark::LevelStair => "Level Stairs\nOnly here may the Heroes move between the Upper and Lower levels.",
        Mark::Boat => "Boat\nThe first part of one Legendary Location's Rune Pattern; it has no other effect.",
        Mark::Sword => "Sword\nThe last part of one Legendary Location's Rune Pattern; it has no other effect.",
    }
}

/// The hover spot of a mark (world units): about the size it is drawn.
const MARK_SIZE: f32 = 36.0;

fn on_mark_over(
    ev: On<Pointer<Over>>,
    marks: Query<&BoardMark>,
    (parents, tiles): (Query<&ChildOf>, Query<&crate::board::tiles::BoardTile>),
    delve: Option<Res<Delve>>,
    mut hovered: ResMut<Hovered>,
) {
    let (Ok(mark), Some(delve)) = (marks.get(ev.event_target()), delve) else { return };
    if matches!(delve.game().phase(), Phase::Combat { .. }) {
        return;
    }
    let mut text = mark_text(mark.0).to_owned();
    // A used or Discovered Node says so, and which Legendary Location.
    if let (Mark::RuneNode(side), Ok(ChildOf(tile))) = (mark.0, parents.get(ev.event_target()))
        && let Ok(tile) = tiles.get(*tile)
        && let Some(line) =
            crate::game::words::rune_node_state(delve.game(), depths_rules::map::NodeRef { cell: tile.cell, side })
    {
        text = format!("{text}\n{line}");
    }
    hovered.0 = Some((ev.event_target(), text));
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
            .observe(on_click);
    }
}

/// The tile in hand and the gold cells get an invisible square the picking
/// finds (their art is meshes) and observers.
fn make_board_pickable(
    mut commands: Commands,
    ghosts: Query<Entity, Added<GhostTile>>,
    hints: Query<Entity, Added<PlacementHint>>,
) {
    let square = || (Sprite::from_color(Color::NONE, Vec2::splat(TILE_SIZE)), Pickable::default());
    for e in &ghosts {
        commands.entity(e).insert(square()).observe(on_ghost_press);
    }
    for e in &hints {
        commands.entity(e).insert(square()).observe(on_hint_click);
    }
}

fn remember_press(ev: On<Pointer<Press>>, mut pressed: ResMut<PressedAt>) {
    pressed.0 = Some(ev.pointer_location.position);
}

/// Whether the board takes the pointer now: the Heroes explore, nobody waits
/// behind the "pass to …" screen, and it is not a replay.
#[derive(SystemParam)]
struct Exploring<'w> {
    delve: Option<Res<'w, Delve>>,
    seats: Option<Res<'w, Seats>>,
    phase: Option<Res<'w, State<PlayPhase>>>,
    egui: Res<'w, EguiWantsInput>,
    area: Res<'w, BoardArea>,
}

impl Exploring<'_> {
    /// Whether the pointer at `at` is on the board itself, not on a panel:
    /// egui lets the picking through while a button is held down, and the
    /// click that ends it must stay the button's.
    fn reaches(&self, at: Vec2) -> bool {
        on_board(Some(at), &self.area, &self.egui)
    }

    /// The game, if the board takes the pointer now.
    fn game(&self) -> Option<&Game> {
        let (delve, seats, phase) = (self.delve.as_ref()?, self.seats.as_ref()?, self.phase.as_ref()?);
        let open = *phase.get() == PlayPhase::Exploring && board_open(delve, seats);
        open.then_some(delve.game())
    }

    /// A tile in hand that this table may place now.
    fn tile_in_hand(&self) -> bool {
        let ours = match (&self.delve, &self.seats) {
            (Some(d), Some(s)) => crate::board::explore::tile_not_ours(d, s).is_none(),
            _ => false,
        };
        ours && self.game().is_some_and(|g| matches!(g.phase(), Phase::Exploring { tile_in_hand: true, .. }))
    }
}

/// A click, not the end of a pan: the pointer stayed where it was pressed.
fn still(pressed: &PressedAt, at: Vec2) -> bool {
    pressed.0.is_some_and(|p| p.distance(at) <= CLICK_SLOP)
}

/// Pressing the tile in hand picks it up; a right press turns it.
fn on_ghost_press(mut ev: On<Pointer<Press>>, board: Exploring, mut hand: ResMut<TileInHand>) {
    if !board.tile_in_hand() || !board.reaches(ev.pointer_location.position) {
        return;
    }
    ev.propagate(false);
    match ev.event.button {
        PointerButton::Primary => hand.dragging = true,
        PointerButton::Secondary => rotate(&mut hand, 1),
        PointerButton::Middle => {}
    }
}

/// A gold cell: the tile in hand goes there, turned to fit if its turn does
/// not; a second click on it places it.
fn on_hint_click(
    ev: On<Pointer<Click>>,
    hints: Query<&PlacementHint>,
    board: Exploring,
    pressed: Res<PressedAt>,
    mut hand: ResMut<TileInHand>,
    mut drops: MessageWriter<TileDrop>,
) {
    let (Ok(hint), true) = (hints.get(ev.event_target()), board.tile_in_hand()) else { return };
    if !board.reaches(ev.pointer_location.position) {
        return;
    }
    match ev.event.button {
        PointerButton::Secondary => rotate(&mut hand, 1),
        PointerButton::Primary if still(&pressed, ev.pointer_location.position) => {
            if hand.cell == Some(hint.cell) {
                drops.write(TileDrop { cell: hint.cell, rotation: hand.rotation });
            } else {
                hand.cell = Some(hint.cell);
                let legal = board.delve.as_ref().map(|d| d.legal_placements()).unwrap_or_default();
                hand.rotation = fitting_rotation(&legal, hint.cell, hand.rotation);
            }
        }
        _ => {}
    }
}

/// A click that no token, gold cell or tile in hand took (it lands on the
/// window): it clears the selection; a right click turns the tile in hand.
fn on_board_click(
    ev: On<Pointer<Click>>,
    windows: Query<(), With<PrimaryWindow>>,
    board: Exploring,
    pressed: Res<PressedAt>,
    mut hand: ResMut<TileInHand>,
    mut selected: ResMut<SelectedElement>,
) {
    if !windows.contains(ev.event_target()) || board.game().is_none() || !board.reaches(ev.pointer_location.position) {
        return;
    }
    match ev.event.button {
        PointerButton::Secondary if board.tile_in_hand() => rotate(&mut hand, 1),
        PointerButton::Primary if still(&pressed, ev.pointer_location.position) && selected.0.is_some() => {
            selected.0 = None;
        }
        _ => {}
    }
}

fn element_ref(token: &ElementToken) -> ElementRef {
    ElementRef { cell: token.cell, area: token.area as u8, element: token.element as u8 }
}

/// What a token says on hover.
pub fn token_text(game: &Game, e: ElementRef) -> String {
    let Some((element, present)) = game.adventure().and_then(|a| a.ecology.map.element(e)) else {
        return String::new();
    };
    let present = present == depths_rules::map::ElementState::Present;
    let state = crate::game::words::element_state_text(game, e);
    // Not within reach: why, in the rules' words, while the party explores
    // ("Not yet Encountered" alone left a player to guess).
    let exploring = matches!(game.phase(), Phase::Exploring { tile_in_hand: false, decision: None });
    let encounter = Action::Encounter { element: e };
    let reach = match game.check(&encounter) {
        Ok(()) => match game.adventure().and_then(|a| a.ecology.map.passage_on_the_way(e.area_ref())) {
            Some(p) => format!("Within reach {}: click it, then Encounter.", crate::game::words::by_passage(p)),
            None => "Within reach: click it, then Encounter.".to_owned(),
        },
        // (Out of reach, the refusal says so itself, and what is in the way.)
        Err(depths_rules::RuleError::NotReachable) if exploring && present => {
            crate::game::words::refusal_text(game, &encounter, &depths_rules::RuleError::NotReachable)
        }
        Err(why) if exploring && present => {
            format!("Not within reach now: {}", crate::game::words::rule_error_text(game, &why))
        }
        Err(_) => String::new(),
    };
    let mut text = format!("{}\n{}\n{state}", element.name(), element_help(element));
    let place = element_text(game, e);
    text.push_str(&format!("\n({place})"));
    if !reach.is_empty() {
        text.push('\n');
        text.push_str(&reach);
    }
    text
}

fn on_over(
    ev: On<Pointer<Over>>,
    tokens: Query<&ElementToken>,
    delve: Option<Res<Delve>>,
    mut hovered: ResMut<Hovered>,
) {
    let (Ok(token), Some(delve)) = (tokens.get(ev.event_target()), delve) else { return };
    // In Combat the mat covers the board.
    if matches!(delve.game().phase(), Phase::Combat { .. }) {
        return;
    }
    let text = token_text(delve.game(), element_ref(token));
    if !text.is_empty() {
        hovered.0 = Some((ev.event_target(), text));
    }
}

/// Where the hinted move lies on screen now: the tile's cell it places, or
/// the cell of the element it Encounters (the board may pan and zoom).
fn place_hinted_spot(
    hint: Res<crate::game::hint::Hint>,
    delve: Option<Res<Delve>>,
    gold: Query<&PlacementHint>,
    camera: Single<(&Camera, &GlobalTransform), With<crate::board::tiles::BoardCamera>>,
    mut spot: ResMut<crate::game::focus::HintedSpot>,
) {
    let (camera, eye) = *camera;
    let on_screen = |cell| {
        let half = Vec2::splat(TILE_SIZE / 2.0);
        let at = |w: Vec2| camera.world_to_viewport(eye, (crate::board::tiles::cell_center(cell) + w).extend(0.0)).ok();
        Some(Rect::from_corners(at(-half)?, at(half)?))
    };
    let cell = delve.filter(|d| hint.version == d.version()).and_then(|_| match hint.action.as_ref()? {
        Action::PlaceTile { placement } | Action::PlaceSetAsideTile { placement } => Some(placement.cell),
        Action::Encounter { element } => Some(element.cell),
        _ => None,
    });
    let now = crate::game::focus::HintedSpot {
        hinted: cell.and_then(on_screen),
        // Every cell the tile may go to, turned so or turned another way
        // (the hint's words lay over a blue cell at 150 %).
        cells: gold.iter().filter_map(|g| on_screen(g.cell)).collect(),
    };
    if *spot != now {
        *spot = now;
    }
}

/// Where the token under the pointer lies on screen now (it grows and
/// moves as the board zooms and pans under a pointer at rest).
fn place_hovered_token(
    hovered: Res<Hovered>,
    tokens: Query<&GlobalTransform, With<ElementToken>>,
    camera: Single<(&Camera, &GlobalTransform, &Projection), With<crate::board::tiles::BoardCamera>>,
    mut place: ResMut<crate::game::focus::HoveredToken>,
) {
    let (camera, eye, projection) = *camera;
    let rect = hovered.0.as_ref().and_then(|(e, _)| {
        let at = tokens.get(*e).ok()?;
        let center = camera.world_to_viewport(eye, at.translation()).ok()?;
        let radius = TOKEN_RADIUS * at.scale().x / crate::board::camera::ortho_scale(projection).max(1e-3);
        Some((*e, Rect::from_center_half_size(center, Vec2::splat(radius))))
    });
    if place.0 != rect {
        place.0 = rect;
    }
}

fn on_out(ev: On<Pointer<Out>>, mut hovered: ResMut<Hovered>) {
    if hovered.0.as_ref().is_some_and(|(e, _)| *e == ev.event_target()) {
        hovered.0 = None;
    }
}

/// A click (not a pan) selects the token while the Heroes explore with no
/// tile in hand (with one, the tile is placed by clicking it). The click goes
/// no further: the tile under the token would clear the selection.
fn on_click(
    mut ev: On<Pointer<Click>>,
    tokens: Query<&ElementToken>,
    seated: Option<(Res<Delve>, Res<Seats>)>,
    pressed: Res<PressedAt>,
    mut selected: ResMut<SelectedElement>,
    (egui, area): (Res<EguiWantsInput>, Res<BoardArea>),
) {
    if ev.event.button != PointerButton::Primary {
        return;
    }
    let (Ok(token), Some((delve, seats))) = (tokens.get(ev.event_target()), seated) else { return };
    ev.propagate(false);
    // Not through a panel (see `Exploring::reaches`).
    if !on_board(Some(ev.pointer_location.position), &area, &egui) {
        return;
    }
    let exploring = matches!(delve.game().phase(), Phase::Exploring { tile_in_hand: false, .. });
    if exploring && still(&pressed, ev.pointer_location.position) && seats.curtain(delve.game()).is_none() {
        selected.0 = Some(element_ref(token));
    }
}
