//! Exploring on the board: the tile in hand, where it may go, and the input
//! that draws, turns, drags and drops it; clicking an element selects it.
//!
//! [`plugin`] (the hand, the placement hints, the ghost tile, and a dropped
//! tile made a move: [`drops_to_actions`]) runs headless; [`desktop_plugin`]
//! needs a window and a camera.

use bevy::{
    input::mouse::{AccumulatedMouseScroll, MouseScrollUnit},
    prelude::*,
    window::PrimaryWindow,
};
use bevy_egui::input::{EguiWantsInput, egui_wants_any_keyboard_input};
use depths_rules::{
    Action, Event,
    map::{Placement, Rotation},
};

use crate::{
    PlaySystems, StageSystems,
    board::tiles::BoardCamera,
    board::tiles::{Board, cell_at, cell_center},
    board::view::{Cell, Tile},
    game::confirm::TryAction,
    game::focus::{BoardArea, SelectedElement, TileInHand},
    game::rules_events::RulesEvent,
    game::screen::Screen,
    game::session::{Delve, DropRefused, PlayerAction, Seats},
    game::words::rule_error_text,
};

/// Whether the pointer at `cursor` is over the board rather than a panel or window.
pub fn on_board(cursor: Option<Vec2>, area: &BoardArea, egui: &EguiWantsInput) -> bool {
    let Some(c) = cursor else { return false };
    !egui.is_pointer_over_area() && area.0.is_none_or(|r| r.contains(c))
}

/// A cell where the tile in hand fits: `now` in its current turn, otherwise
/// only in another turn.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlacementHint {
    pub cell: Cell,
    pub now: bool,
}

/// Above a tile's floor and walls, below its tokens: the ring shows around the token.
const RING_Z: f32 = 0.1;

/// A ring around the selected element.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SelectionRing;

/// The tile in hand drawn on the board.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct GhostTile {
    pub tile: Tile,
    pub legal: bool,
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<TileDrop>();
    // A dropped tile is Exploring's input.
    app.add_systems(Update, drops_to_actions.in_set(StageSystems::Exploring));
    app.add_systems(
        Update,
        (follow_hand, follow_encounter, sync_hints, sync_ghost, sync_selection)
            .chain()
            .in_set(PlaySystems::Sync)
            .run_if(in_state(Screen::Playing).and_then(resource_exists::<Delve>)),
    );
    app.add_systems(OnExit(Screen::Playing), |mut hand: ResMut<TileInHand>, mut sel: ResMut<SelectedElement>| {
        *hand = TileInHand::default();
        sel.0 = None;
    });
}

/// Cells where the tile in hand fits, each with whether the current turn does.
pub fn hint_cells(placements: &[Placement], rotation: Rotation) -> Vec<(Cell, bool)> {
    let mut out: Vec<(Cell, bool)> = Vec::new();
    for p in placements {
        let cell = p.cell;
        let now = p.rotation == rotation;
        match out.iter_mut().find(|(c, _)| *c == cell) {
            Some((_, n)) => *n |= now,
            None => out.push((cell, now)),
        }
    }
    out
}

/// A new tile in hand starts unturned in the tray; a refused drop springs back.
/// The reason stands for the drop it was given for: once the tile is moved
/// or turned it is gone ("Not there: it must touch a tile" stayed while the
/// tile lay turned on a gold cell).
fn follow_hand(
    delve: Res<Delve>,
    mut hand: ResMut<TileInHand>,
    mut refused: ResMut<DropRefused>,
    mut refused_at: Local<Option<(Option<Cell>, Rotation, bool)>>,
) {
    let id = delve.tile_in_hand().map(|(t, _)| t.id.clone());
    if id != hand.tile {
        *hand = TileInHand { tile: id, ..TileInHand::default() };
    }
    let now = (hand.cell, hand.rotation, hand.dragging);
    if refused.is_changed() && refused.0.is_some() {
        if hand.cell.is_some() || hand.dragging {
            hand.cell = None;
            hand.dragging = false;
            hand.drag_world = None;
        }
        *refused_at = Some((hand.cell, hand.rotation, hand.dragging));
    } else if refused.0.is_some() && refused_at.is_some_and(|at| at != now) {
        refused.0 = None;
        *refused_at = None;
    }
}

/// The element being Encountered is the one whose details are shown, however
/// the Encounter was chosen (a "Within reach" button, a hint); a Legendary
/// Location, which is no element, leaves none shown.
fn follow_encounter(mut events: MessageReader<RulesEvent>, mut selected: ResMut<SelectedElement>) {
    for RulesEvent(event) in events.read() {
        let now = match event {
            Event::ElementEncountered { element } => Some(*element),
            Event::LegendaryLocationEncountered { .. } => None,
            // The other events, by name, so a new one is decided here.
            #[rustfmt::skip]
            Event::CombatStarted { .. } | Event::MonstersAssigned { .. } | Event::RoundStarted { .. } |
                Event::CardsDrawn { .. } | Event::PowerStored { .. } | Event::DiscardReshuffled { .. } |
                Event::CannotPlay { .. } | Event::CardPlayed { .. } | Event::MonsterCardPlayed { .. } |
                Event::MonsterCardWaiting { .. } | Event::MonsterDeckReshuffled { .. } |
                Event::MonsterPowerDrawn { .. } | Event::MonsterAbility { .. } | Event::MonsterPowerWasted { .. } |
                Event::MonsterCardMoved { .. } | Event::PairChosen { .. } | Event::AbilityActivated { .. } |
                Event::PowerSpent { .. } | Event::SpellExhausted { .. } | Event::MonsterDamaged { .. } |
                Event::IndividualDefeated { .. } | Event::MonsterHealed { .. } | Event::ReturnDamageAvoided { .. } |
                Event::HeroDamaged { .. } | Event::HeroHealed { .. } | Event::FoeDefeated { .. } |
                Event::RoundEnded { .. } | Event::CombatWon | Event::GameLost { .. } | Event::Note { .. } |
                Event::EcologyStarted { .. } | Event::EcologyCompleted { .. } | Event::TileDrawn { .. } |
                Event::TilePlaced { .. } | Event::TileSetAside { .. } | Event::CardDrawn { .. } |
                Event::CardsOffered { .. } | Event::TestResolved { .. } | Event::XpGained { .. } |
                Event::XpSpent { .. } | Event::KeysChanged { .. } | Event::ItemGained { .. } |
                Event::AbilityGained { .. } | Event::Rested | Event::LevelUp { .. } | Event::GameWon => continue,
        };
        if selected.0 != now {
            selected.0 = now;
        }
    }
}

fn sync_hints(
    mut commands: Commands,
    delve: Res<Delve>,
    hand: Res<TileInHand>,
    hints: Query<(Entity, &PlacementHint)>,
    mut last: Local<Option<(u64, Rotation)>>,
) {
    let key = (delve.version(), hand.rotation);
    if *last == Some(key) && hints.is_empty() != delve.tile_in_hand().is_some() {
        return;
    }
    *last = Some(key);
    for (entity, _) in &hints {
        commands.entity(entity).despawn();
    }
    if delve.tile_in_hand().is_none() {
        return;
    }
    for (cell, now) in hint_cells(&delve.legal_placements(), hand.rotation) {
        commands.spawn((
            Name::new("Placement hint"),
            PlacementHint { cell, now },
            Transform::from_translation(cell_center(cell).extend(0.5)),
            Visibility::default(),
            DespawnOnExit(Screen::Playing),
        ));
    }
}

fn sync_ghost(
    mut commands: Commands,
    delve: Res<Delve>,
    hand: Res<TileInHand>,
    mut ghosts: Query<(Entity, &GhostTile, &mut Transform)>,
) {
    let wanted = delve.tile_in_hand().and_then(|(tile, _)| {
        let cell = hand.cell?;
        let placement = Placement { cell, rotation: hand.rotation };
        let legal = delve.legal_placements().contains(&placement);
        Some(GhostTile { tile: Tile::from_printed(tile, placement), legal })
    });
    let position = match (hand.dragging, hand.drag_world, hand.cell) {
        (true, Some(world), _) => world.extend(6.0),
        (_, _, Some(cell)) => cell_center(cell).extend(6.0),
        _ => Vec3::ZERO,
    };
    // A ghost is the same drawing wherever it is; only its look respawns it.
    let same = |g: &GhostTile, w: &GhostTile| g.legal == w.legal && g.tile.turned == w.tile.turned;
    let mut kept = false;
    for (entity, ghost, mut transform) in &mut ghosts {
        match &wanted {
            Some(w) if !kept && same(ghost, w) => {
                kept = true;
                if transform.translation != position {
                    transform.translation = position;
                }
            }
            _ => commands.entity(entity).despawn(),
        }
    }
    if let (Some(w), false) = (wanted, kept) {
        commands.spawn((
            Name::new("Tile in hand"),
            w,
            Transform::from_translation(position),
            Visibility::default(),
            DespawnOnExit(Screen::Playing),
        ));
    }
}

fn sync_selection(
    mut commands: Commands,
    selected: Res<SelectedElement>,
    board: Option<Res<Board>>,
    mut rings: Query<(Entity, &mut Transform), With<SelectionRing>>,
) {
    let at = selected.0.zip(board.as_ref()).and_then(|(e, board)| {
        let tile = board.view.tile_at(e.cell)?;
        tile.element(usize::from(e.area), usize::from(e.element))?;
        Some(crate::board::tiles::element_position(&board.view, tile, usize::from(e.area), usize::from(e.element)))
    });
    match (at, rings.single_mut()) {
        (Some(p), Ok((_, mut t))) => {
            let to = p.extend(RING_Z);
            if t.translation != to {
                t.translation = to;
            }
        }
        (Some(p), Err(_)) => {
            commands.spawn((
                Name::new("Selection"),
                SelectionRing,
                Transform::from_translation(p.extend(RING_Z)),
                Visibility::default(),
                DespawnOnExit(Screen::Playing),
            ));
        }
        (None, Ok((entity, _))) => commands.entity(entity).despawn(),
        (None, Err(_)) => {}
    }
}

// ---------------------------------------------------------------- input

/// Board input that needs a window: keys, and carrying the tile in hand
/// (clicks and presses on the board's entities are `pointer.rs`'s).
pub(super) fn desktop_plugin(app: &mut App) {
    app.add_systems(
        Update,
        (keys.run_if(not(egui_wants_any_keyboard_input)), carry)
            // Tiles and tokens answer only while the Heroes explore.
            .in_set(StageSystems::Exploring)
            .before(drops_to_actions)
            .run_if(resource_exists::<Delve>)
            .run_if(|d: Option<Res<Delve>>, s: Option<Res<Seats>>| match (d, s) {
                (Some(d), Some(s)) => board_open(&d, &s) && tile_not_ours(&d, &s).is_none(),
                _ => false,
            }),
    );
}

/// Nothing on the board moves behind the "pass to …" screen, nor in a
/// replay: for the keys, the carried tile and the board's picking alike.
pub fn board_open(delve: &Delve, seats: &Seats) -> bool {
    seats.curtain(delve.game()).is_none() && !delve.read_only
}

/// Why the tile in hand is not this table's to place now: online, on
/// another seat's turn (in the words the host would refuse it with). None
/// where it is, or where no tile is in hand. Off turn, the tray, its turn
/// buttons, the keys and the board do not take it up (a player turned and
/// placed another's tile, and only the last click was refused).
pub fn tile_not_ours(delve: &Delve, seats: &Seats) -> Option<String> {
    seats.seat?;
    delve.tile_in_hand()?;
    let p = delve.legal_placements().into_iter().next()?;
    let action = delve.place_action(p.cell, p.rotation)?;
    seats.online_refusal(delve.game(), &action)
}

/// Turns the tile in hand a quarter clockwise (`by` = 1) or back (`by` = 3).
pub fn rotate(hand: &mut TileInHand, by: u8) {
    hand.rotation = Rotation::new(hand.rotation.quarter_turns() + by);
}

fn keys(
    mut keys: ResMut<ButtonInput<KeyCode>>,
    letters: Res<crate::game::keys::Letters>,
    delve: Res<Delve>,
    mut hand: ResMut<TileInHand>,
    mut actions: MessageWriter<TryAction>,
    mut drops: MessageWriter<TileDrop>,
) {
    let ctrl = crate::game::keys::held(&keys, [KeyCode::ControlLeft, KeyCode::ControlRight]);
    // Letters as the keyboard labels them; arrows and Enter where they sit.
    if letters.just_pressed('d') && !ctrl {
        // A draw that loses the game is asked about first.
        if delve.game().check(&Action::DrawTile).is_ok() {
            actions.write(TryAction(Action::DrawTile));
        }
        return;
    }
    if delve.tile_in_hand().is_none() {
        return;
    }
    if letters.just_pressed('r') {
        let back = crate::game::keys::held(&keys, [KeyCode::ShiftLeft, KeyCode::ShiftRight]);
        rotate(&mut hand, if back { 3 } else { 1 });
    }
    for (key, (dx, dy)) in [
        (KeyCode::ArrowUp, (0, 1)),
        (KeyCode::ArrowDown, (0, -1)),
        (KeyCode::ArrowLeft, (-1, 0)),
        (KeyCode::ArrowRight, (1, 0)),
    ] {
        if keys.just_pressed(key) {
            let cell = match hand.cell {
                Some((x, y)) => (x + dx, y + dy),
                // Out of the tray onto the first cell where it fits.
                None => delve
                    .legal_placements()
                    .iter()
                    .find(|p| p.rotation == hand.rotation)
                    .or(delve.legal_placements().first())
                    .map_or((0, 1), |p| p.cell),
            };
            hand.cell = Some(cell);
        }
    }
    if keys.just_pressed(KeyCode::Escape) && hand.cell.is_some() {
        hand.cell = None;
    }
    if keys.any_just_pressed([KeyCode::Enter, KeyCode::NumpadEnter])
        && let Some(cell) = hand.cell
    {
        drops.write(TileDrop { cell, rotation: hand.rotation });
        // The Enter is spent on the tile: nothing later this frame answers it too.
        keys.clear_just_pressed(KeyCode::Enter);
        keys.clear_just_pressed(KeyCode::NumpadEnter);
    }
}

/// The turn the tile keeps on `cell` if it fits there so, else the first that fits.
pub fn fitting_rotation(legal: &[Placement], cell: Cell, now: Rotation) -> Rotation {
    if legal.iter().any(|p| p.cell == cell && p.rotation == now) {
        return now;
    }
    legal.iter().find(|p| p.cell == cell).map_or(now, |p| p.rotation)
}

/// Carries the tile in hand while it is held: picked up on the board (its
/// press, `pointer.rs`) or dragged out of the tray (egui's drag). It follows
/// the pointer, a right press or the wheel turns it, and letting go drops it
/// on the cell below, or back in the tray over a panel. Let go on a cell
/// where it fits only turned, it stays there turned to fit, for a click to
/// place it (a refusal would only say what the turned tile shows).
#[allow(clippy::too_many_arguments)]
fn carry(
    buttons: Res<ButtonInput<MouseButton>>,
    scroll: Res<AccumulatedMouseScroll>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform), With<BoardCamera>>,
    egui: Res<EguiWantsInput>,
    area: Res<BoardArea>,
    mut hand: ResMut<TileInHand>,
    delve: Res<Delve>,
    mut drops: MessageWriter<TileDrop>,
) {
    if !hand.dragging {
        return;
    }
    let cursor = window.cursor_position();
    let (camera, cam_transform) = camera.into_inner();
    let world = cursor.and_then(|c| camera.viewport_to_world_2d(cam_transform, c).ok());
    if buttons.just_pressed(MouseButton::Right) {
        rotate(&mut hand, 1);
    }
    if scroll.delta.y != 0.0 {
        let notches = match scroll.unit {
            MouseScrollUnit::Line => scroll.delta.y,
            MouseScrollUnit::Pixel => scroll.delta.y / 60.0,
        };
        rotate(&mut hand, if notches > 0.0 { 3 } else { 1 });
    }
    if let Some(w) = world {
        hand.drag_world = Some(w);
        hand.cell = Some(cell_at(w));
    }
    if buttons.just_released(MouseButton::Left) || !buttons.pressed(MouseButton::Left) {
        hand.dragging = false;
        hand.drag_world = None;
        match world {
            Some(w) if on_board(cursor, &area, &egui) => {
                let cell = cell_at(w);
                let legal = delve.legal_placements();
                let turned = fitting_rotation(&legal, cell, hand.rotation);
                if turned == hand.rotation {
                    drops.write(TileDrop { cell, rotation: hand.rotation });
                } else {
                    hand.rotation = turned;
                }
            }
            // Let go over a panel: back to the tray.
            _ => hand.cell = None,
        }
    }
}

/// The tile in hand was let go over `cell`, turned by `rotation`.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileDrop {
    pub cell: Cell,
    pub rotation: Rotation,
}

/// Turns a dropped tile into its placement `Action` (checked first, so a
/// refused drop springs back with the reason and leaves the log alone).
pub(crate) fn drops_to_actions(
    mut drops: MessageReader<TileDrop>,
    delve: Option<Res<Delve>>,
    mut refused: ResMut<DropRefused>,
    mut actions: MessageWriter<PlayerAction>,
) {
    let Some(delve) = delve else {
        drops.clear();
        return;
    };
    for drop in drops.read() {
        // A hand-off that is due is handled where the action is applied.
        let Some(action) = delve.place_action(drop.cell, drop.rotation) else {
            refused.0 = Some("There is no tile in hand: draw one first.".into());
            continue;
        };
        // Check first, so a refused drop leaves the log and notice alone.
        match delve.game().check(&action) {
            Ok(()) => {
                refused.0 = None;
                actions.write(PlayerAction(action));
            }
            Err(e) => refused.0 = Some(rule_error_text(delve.game(), &e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tile_keeps_its_turn_where_it_fits_so_and_takes_the_first_that_fits_elsewhere() {
        let at = |cell: Cell, turns: u8| Placement { cell, rotation: Rotation::new(turns) };
        let legal = [at((1, 0), 1), at((1, 0), 2), at((0, 1), 3)];
        assert_eq!(fitting_rotation(&legal, (1, 0), Rotation::new(2)), Rotation::new(2), "fits as turned");
        assert_eq!(fitting_rotation(&legal, (1, 0), Rotation::new(0)), Rotation::new(1), "turned to the first fit");
        assert_eq!(fitting_rotation(&legal, (0, 1), Rotation::new(0)), Rotation::new(3));
        assert_eq!(fitting_rotation(&legal, (5, 5), Rotation::new(2)), Rotation::new(2), "no fit: as it was");
    }
}
