//! The board the client shows, and the entities that stand for it.
//!
//! [`Board`] is rebuilt from the rules map after every applied action (plain
//! data, cheap). The entities follow the rules' events (`rules_events`): one
//! [`BoardTile`] per placed tile, spawned when that tile lands; one
//! [`ElementToken`] per element and one [`ReachShade`] per tile, children of
//! their tile, changed only when their own state changes; one
//! [`LanternToken`]. Every tile is laid again only on a new game, a load, an
//! undo or a new Ecology. How they look is `board_art`'s business, so this
//! module runs headless.

use bevy::prelude::*;
use depths_rules::map::Passage;

/// Marks the one 2D camera that looks at the board (`camera.rs` moves it).
#[derive(Component)]
pub struct BoardCamera;

use crate::{
    PlaySystems,
    board::view::{BoardView, Cell, RuneMark, Side, Tile, Token},
    game::rules_events::BoardNews,
    game::screen::Screen,
    game::session::Delve,
};

/// World units per tile side.
pub const TILE_SIZE: f32 = 240.0;
/// Thickness of a wall drawn along a tile edge.
pub const WALL_THICKNESS: f32 = 26.0;
/// Distance between the centres of two tokens side by side in an area.
pub const TOKEN_SPACING: f32 = 70.0;
/// Radius of an element token.
pub const TOKEN_RADIUS: f32 = 30.0;

/// The map on the table, as drawn; follows [`Delve`].
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Board {
    pub view: BoardView,
    /// The [`Delve::stamp`] it was built from.
    pub version: (u64, u64),
    /// The Lantern's last move went through this Secret Passage or Warp
    /// Portal (it sinks into one and rises from the other, not sliding
    /// across walls and locked Doors).
    pub came_through: Option<Passage>,
}

/// A placed map tile; its walls, floor and markings never change.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardTile {
    pub cell: Cell,
}

/// An Ecology Element's token on its tile (a child of the tile, placed
/// relative to it), with the Encounter Token or Key lying on it.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ElementToken {
    pub cell: Cell,
    pub area: usize,
    pub element: usize,
    pub token: Token,
}

/// Which areas of a tile the Heroes can reach (lit or dark); a child of the tile.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct ReachShade {
    pub cell: Cell,
    pub accessible: Vec<bool>,
}

/// The Encounter Tokens and glows on a tile's rune Nodes (a child of the
/// tile), drawn again when they change.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct RuneTokens {
    pub cell: Cell,
    pub runes: Vec<(Side, RuneMark)>,
}

/// Height of element `element`'s token above its tile (later ones on top).
pub fn token_z(element: usize) -> f32 {
    0.2 + element as f32 * 0.05
}

/// A tile just laid on a cell that was empty: it settles onto the table
/// (drawn by the board art) from `since` (seconds of [`Time`]).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
#[require(crate::game::animating::Animating)]
pub struct Landing {
    pub since: f32,
}

/// The Lantern just moved from `from` (world position) at `since`: the board
/// art slides its picture over from there; the entity itself is already in
/// its new place.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
#[require(crate::game::animating::Animating)]
pub struct LanternMove {
    pub from: Vec3,
    pub since: f32,
    pub through: Option<Passage>,
}

/// The Lantern token, which marks where the heroes are.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LanternToken;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (rebuild_board, lay_board, spawn_laid_tiles, lift_tiles, refresh_tokens, refresh_runes, place_lantern)
            .chain()
            .in_set(PlaySystems::Sync)
            .run_if(in_state(Screen::Playing).and_then(resource_exists::<Delve>)),
    );
    app.add_systems(OnExit(Screen::Playing), |mut commands: Commands| {
        commands.remove_resource::<Board>();
    });
}

/// Rebuilds [`Board`] when the game changed.
fn rebuild_board(
    mut commands: Commands,
    delve: Res<Delve>,
    board: Option<Res<Board>>,
    mut toasts: MessageWriter<crate::game::notices::Toast>,
) {
    if board.as_ref().is_some_and(|b| b.version == delve.stamp()) {
        return;
    }
    let Some(adventure) = delve.game().adventure() else {
        return;
    };
    let mut view = BoardView::from_map(&adventure.ecology.map, delve.seed());
    // The red X goes down when the Monster is beaten, not while the fight is on.
    if delve.game().combat().is_some()
        && let Some(e) = adventure.ecology.encountering
        && let Some(tile) = view.tiles.iter_mut().find(|t| t.cell == e.cell)
        && let Some(token) = tile.tokens.get_mut(usize::from(e.area)).and_then(|a| a.get_mut(usize::from(e.element)))
        && *token == crate::board::view::Token::Defeated
    {
        *token = crate::board::view::Token::None;
    }
    view.mark_runes(&adventure.ecology.used_runes, &delve.game().discovered_legendary_locations());
    let came_through = board.as_deref().and_then(|old| came_through(&old.view, &view));
    if let Some(passage) = came_through {
        toasts.write(crate::game::notices::Toast(crate::game::words::went_through(passage)));
    }
    commands.insert_resource(Board { view, version: delve.stamp(), came_through });
}

/// The passage the Lantern went through between two views of one map: the
/// one the old view's way to its new area took.
fn came_through(old: &BoardView, new: &BoardView) -> Option<Passage> {
    let same_map = old.tiles.first().map(|t| &t.turned.id) == new.tiles.first().map(|t| &t.turned.id);
    if !same_map || old.lantern == new.lantern {
        return None;
    }
    old.through.iter().find(|(at, _)| *at == new.lantern).map(|&(_, p)| p)
}

/// World position of a cell's centre.
pub fn cell_center(cell: Cell) -> Vec2 {
    Vec2::new(cell.0 as f32, cell.1 as f32) * TILE_SIZE
}

/// The cell under a world position.
pub fn cell_at(world: Vec2) -> Cell {
    let c = (world / TILE_SIZE).round();
    (c.x as i32, c.y as i32)
}

/// The rectangle the placed tiles cover, in world units.
pub fn map_bounds(map: &BoardView) -> Rect {
    let mut bounds = Rect::EMPTY;
    for tile in &map.tiles {
        let c = cell_center(tile.cell);
        bounds = bounds.union(Rect::from_center_size(c, Vec2::splat(TILE_SIZE)));
    }
    bounds
}

/// Unit vector from a tile's centre towards the middle of `side`.
pub fn side_dir(side: Side) -> Vec2 {
    let (x, y) = side.offset();
    Vec2::new(x as f32, y as f32)
}

/// Where an area's tokens gather, relative to the tile centre: the middle of the
/// tile for a tile with one area, otherwise pulled towards the area's exits.
pub fn area_anchor(tile: &Tile, area: usize) -> Vec2 {
    if tile.areas().len() <= 1 {
        return Vec2::ZERO;
    }
    let exits = tile.areas()[area].exits;
    if exits.is_empty() {
        // A sealed area (reached by a passage or portal): spread them out.
        let a = std::f32::consts::TAU * area as f32 / tile.areas().len() as f32;
        return Vec2::new(a.cos(), a.sin()) * TILE_SIZE * 0.2;
    }
    let sum: Vec2 = exits.iter().map(side_dir).sum();
    let mean = sum / exits.len() as f32;
    if mean.length() < 0.1 {
        return Vec2::new(0.0, (area as f32 - 0.5) * TILE_SIZE * 0.2);
    }
    mean * TILE_SIZE * 0.25
}

/// Offset of token `index` among `count` tokens in a row centred on an anchor.
pub fn slot_offset(index: usize, count: usize) -> Vec2 {
    let x = (index as f32 - (count.saturating_sub(1)) as f32 / 2.0) * TOKEN_SPACING;
    Vec2::new(x, 0.0)
}

/// A mark printed on a map tile that is not an element: it names itself on
/// hover ([`BoardMark`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// The Node on that side of the tile (as it lies on the map).
    RuneNode(Side),
    SecretPassage,
    WarpPortal,
    LevelStair,
    Boat,
    Sword,
}

/// A mark's place on the board, for the pointer: a child of its tile.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardMark(pub Mark);

/// Half a tile's floor, inside its cardboard edge.
pub const FLOOR_HALF: f32 = TILE_SIZE / 2.0 - 3.0;

/// Half the room inside a tile's walls, where its tokens stand.
const INNER_HALF: f32 = TILE_SIZE / 2.0 - WALL_THICKNESS / 2.0;

/// Where a rune node on `side` is drawn, relative to the tile's centre.
pub fn node_spot(side: Side) -> Vec2 {
    side_dir(side) * (FLOOR_HALF - WALL_THICKNESS / 2.0)
}

/// Where area `area`'s marking (a Secret Passage, Warp Portal or Level
/// Stair) is drawn: beside its tokens, towards the tile's centre line.
pub fn marking_spot(tile: &Tile, area: usize) -> Vec2 {
    area_anchor(tile, area) + Vec2::new(0.0, -52.0)
}

/// Where the Boat is drawn; the Sword in the opposite corner.
pub const BOAT_SPOT: Vec2 = Vec2::new(-FLOOR_HALF + 44.0, FLOOR_HALF - 44.0);

/// Every mark on `tile` and its place relative to the tile's centre.
pub fn marks(tile: &Tile) -> Vec<(Mark, Vec2)> {
    let mut out: Vec<(Mark, Vec2)> =
        tile.turned.nodes.iter().map(|side| (Mark::RuneNode(side), node_spot(side))).collect();
    for (a, area) in tile.areas().iter().enumerate() {
        let at = marking_spot(tile, a);
        let printed = [
            (area.secret_passage, Mark::SecretPassage),
            (area.warp_portal, Mark::WarpPortal),
            (area.level_stair, Mark::LevelStair),
        ];
        out.extend(printed.into_iter().filter(|(on, _)| *on).map(|(_, mark)| (mark, at)));
    }
    if tile.turned.boat {
        out.push((Mark::Boat, BOAT_SPOT));
    }
    if tile.turned.sword {
        out.push((Mark::Sword, -BOAT_SPOT));
    }
    out
}

/// How many tokens stand in an area: its elements, plus the Lantern if it is there.
pub fn tokens_in_area(map: &BoardView, tile: &Tile, area: usize) -> usize {
    let lantern = usize::from(map.lantern.cell == tile.cell && map.lantern.area == area);
    tile.areas()[area].elements.len() + lantern
}

/// What stands on a tile: an element's token, or the Lantern with the
/// Heroes' standees behind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    Element { area: usize, element: usize },
    Lantern,
}

/// The room one thing standing on a tile takes, about its spot (world units):
/// an element's token with the Key or slash lying on it; the Lantern's token
/// with up to three standees in a row behind it (`standees.rs`).
fn footprint(what: Standing) -> Rect {
    match what {
        Standing::Element { .. } => Rect::from_center_half_size(Vec2::ZERO, Vec2::splat(TOKEN_RADIUS + 4.0)),
        Standing::Lantern => Rect::new(-64.0, -36.0, 64.0, 78.0),
    }
}

/// Each thing standing on `tile` and its spot, relative to the tile's centre:
/// each area's tokens in a row at its anchor, the Lantern after them; each
/// where it would stand if that is free, else at the nearest free place
/// inside the walls (the Lantern first, then the elements). Rows of two
/// areas could fall on each other (a Campfire under a Monster), and the
/// standees behind the Lantern covered a Chest.
///
/// The elements stand where they stand without the Lantern, and the Lantern
/// takes the free place nearest its own: the Heroes arriving on a tile slid
/// its Feature's token from under the pointer. Only where no place is free
/// for it are all laid together.
pub fn token_spots(map: &BoardView, tile: &Tile) -> Vec<(Standing, Vec2)> {
    let mut spots: Vec<(Standing, Vec2)> = Vec::new();
    let mut lantern = None;
    for (a, area) in tile.areas().iter().enumerate() {
        let count = tokens_in_area(map, tile, a);
        let anchor = area_anchor(tile, a);
        for e in 0..area.elements.len() {
            spots.push((Standing::Element { area: a, element: e }, anchor + slot_offset(e, area.elements.len())));
        }
        if count > area.elements.len() {
            lantern = Some(anchor + slot_offset(count - 1, count));
        }
    }
    let Some(at) = lantern else {
        make_room(&mut spots);
        return spots;
    };
    let mut apart = spots.clone();
    make_room(&mut apart);
    let placed: Vec<Rect> = apart.iter().map(|(what, p)| rect_at(*what, *p)).collect();
    let free = |p: &Vec2| inside_walls(Standing::Lantern, *p) && !covers_any(&placed, rect_at(Standing::Lantern, *p));
    let beside = Some(at).filter(free).or_else(|| places_by_distance(Standing::Lantern, at, &placed, 4.0).next());
    if let Some(p) = beside {
        apart.insert(0, (Standing::Lantern, p));
        return apart;
    }
    // The Lantern and its standees first: they take the most room.
    spots.insert(0, (Standing::Lantern, at));
    make_room(&mut spots);
    spots
}

/// Moves each spot that would cover one placed before it (or cross a
/// wall) to the nearest free place inside the walls, on a grid of a few
/// units. Where the first (the Lantern) leaves the others no room, it tries
/// the places nearest its own in turn until they all fit; with none, each
/// stays where it would stand.
fn make_room(spots: &mut [(Standing, Vec2)]) {
    let wanted: Vec<Vec2> = spots.iter().map(|(_, at)| *at).collect();
    let Some((first, _)) = spots.first().copied() else { return };
    let firsts = std::iter::once(wanted[0]).filter(|at| inside_walls(first, *at)).chain(places_by_distance(
        first,
        wanted[0],
        &[],
        8.0,
    ));
    for at in firsts.take(400) {
        let mut placed = vec![rect_at(first, at)];
        let mut fitted = vec![at];
        for (what, want) in spots.iter().skip(1).map(|(w, _)| *w).zip(&wanted[1..]) {
            let free = |p: &Vec2| inside_walls(what, *p) && !covers_any(&placed, rect_at(what, *p));
            let Some(p) = Some(*want).filter(free).or_else(|| places_by_distance(what, *want, &placed, 4.0).next())
            else {
                break;
            };
            placed.push(rect_at(what, p));
            fitted.push(p);
        }
        if fitted.len() == spots.len() {
            for ((_, spot), p) in spots.iter_mut().zip(fitted) {
                *spot = p;
            }
            return;
        }
    }
}

/// The footprint of `what` standing at `at`.
fn rect_at(what: Standing, at: Vec2) -> Rect {
    let f = footprint(what);
    Rect::from_corners(f.min + at, f.max + at)
}

fn covers_any(placed: &[Rect], r: Rect) -> bool {
    placed.iter().any(|o| {
        let over = o.intersect(r).size();
        over.x > 0.0 && over.y > 0.0
    })
}

/// Whether `what` at `at` stands inside the tile's walls.
fn inside_walls(what: Standing, at: Vec2) -> bool {
    let r = rect_at(what, at);
    r.min.cmpge(Vec2::splat(-INNER_HALF)).all() && r.max.cmple(Vec2::splat(INNER_HALF)).all()
}

/// The places inside the walls where `what` covers nothing `placed`, on a
/// grid of `step` units, nearest `want` first.
fn places_by_distance(what: Standing, want: Vec2, placed: &[Rect], step: f32) -> impl Iterator<Item = Vec2> {
    let f = footprint(what);
    let (lo, hi) = (Vec2::splat(-INNER_HALF) - f.min, Vec2::splat(INNER_HALF) - f.max);
    let steps = |a: f32, b: f32| (0..=((b - a) / step).max(0.0) as usize).map(move |i| a + i as f32 * step);
    let mut all: Vec<Vec2> = steps(lo.x, hi.x)
        .flat_map(|x| steps(lo.y, hi.y).map(move |y| Vec2::new(x, y)))
        .filter(|p| !covers_any(placed, rect_at(what, *p)))
        .collect();
    all.sort_by(|a, b| a.distance_squared(want).total_cmp(&b.distance_squared(want)));
    all.into_iter()
}

/// Where `what` stands among a tile's [`token_spots`].
fn spot_of(spots: &[(Standing, Vec2)], what: Standing) -> Option<Vec2> {
    spots.iter().find(|(s, _)| *s == what).map(|(_, at)| *at)
}

/// World position of element `element` of area `area` on `tile`.
pub fn element_position(map: &BoardView, tile: &Tile, area: usize, element: usize) -> Vec2 {
    let spot = spot_of(&token_spots(map, tile), Standing::Element { area, element });
    cell_center(tile.cell) + spot.unwrap_or(Vec2::ZERO)
}

/// World position of the Lantern token, beside its area's tokens.
pub fn lantern_position(map: &BoardView) -> Option<Vec2> {
    let tile = map.tile_at(map.lantern.cell)?;
    Some(cell_center(tile.cell) + spot_of(&token_spots(map, tile), Standing::Lantern)?)
}

/// Spawns the entity of one placed tile, with its tokens and shade.
fn spawn_tile(commands: &mut Commands, view: &BoardView, tile: &Tile, landing: Option<Landing>) -> Entity {
    let cell = tile.cell;
    let mut entity = commands.spawn((
        Name::new(format!("Tile ({}, {})", cell.0, cell.1)),
        BoardTile { cell },
        Transform::from_translation(cell_center(cell).extend(0.0)),
        Visibility::default(),
        DespawnOnExit(Screen::Playing),
    ));
    if let Some(landing) = landing {
        entity.insert(landing);
    }
    let id = entity.id();
    let spots = token_spots(view, tile);
    for (a, tokens) in tile.tokens.iter().enumerate() {
        for (e, token) in tokens.iter().enumerate() {
            commands.spawn((
                ElementToken { cell, area: a, element: e, token: *token },
                token_transform(&spots, a, e),
                Visibility::default(),
                ChildOf(id),
            ));
        }
    }
    for (mark, at) in marks(tile) {
        // Under the tokens: a token over a mark is what the pointer finds.
        commands.spawn((
            BoardMark(mark),
            Transform::from_translation(at.extend(0.05)),
            Visibility::default(),
            ChildOf(id),
        ));
    }
    commands.spawn((
        RuneTokens { cell, runes: tile.runes.clone() },
        // Over the printed Nodes, under the element tokens and the shade.
        Transform::from_translation(Vec3::new(0.0, 0.0, 0.1)),
        Visibility::default(),
        ChildOf(id),
    ));
    commands.spawn((
        ReachShade { cell, accessible: tile.accessible.clone() },
        Transform::default(),
        Visibility::default(),
        ChildOf(id),
    ));
    id
}

/// Where a token stands on its tile, among the tile's [`token_spots`]
/// (worked out once a tile: placing one token places them all).
fn token_transform(spots: &[(Standing, Vec2)], area: usize, element: usize) -> Transform {
    let at = spot_of(spots, Standing::Element { area, element }).unwrap_or(Vec2::ZERO);
    Transform::from_translation(at.extend(token_z(element)))
}

/// Lays every tile again: a new game, a load, an undo, a new Ecology.
fn lay_board(
    mut commands: Commands,
    board: Option<Res<Board>>,
    news: Res<BoardNews>,
    existing: Query<Entity, With<BoardTile>>,
) {
    let Some(board) = board else { return };
    if !news.is_changed() || !news.rebuild {
        return;
    }
    for entity in &existing {
        commands.entity(entity).despawn();
    }
    for tile in &board.view.tiles {
        spawn_tile(&mut commands, &board.view, tile, None);
    }
}

/// A tile was laid: spawn that one, which settles onto the table.
fn spawn_laid_tiles(
    mut commands: Commands,
    board: Option<Res<Board>>,
    news: Res<BoardNews>,
    existing: Query<&BoardTile>,
    time: Res<Time>,
) {
    let Some(board) = board else { return };
    if !news.is_changed() || news.rebuild {
        return;
    }
    for cell in &news.landed {
        if existing.iter().any(|t| t.cell == *cell) {
            continue;
        }
        if let Some(tile) = board.view.tile_at(*cell) {
            spawn_tile(&mut commands, &board.view, tile, Some(Landing { since: time.elapsed_secs() }));
        }
    }
}

/// An undone placement: the tile goes back to the hand, the others stay.
fn lift_tiles(
    mut commands: Commands,
    board: Option<Res<Board>>,
    news: Res<BoardNews>,
    existing: Query<(Entity, &BoardTile)>,
) {
    let Some(board) = board else { return };
    if !news.is_changed() || news.rebuild || !news.lifted {
        return;
    }
    for (entity, tile) in &existing {
        if board.view.tile_at(tile.cell).is_none() {
            commands.entity(entity).despawn();
        }
    }
}

/// Tokens flipped, the Lantern moved (its area's tokens shift over), or
/// reachability changed: update only the tokens and shades that differ.
fn refresh_tokens(
    board: Option<Res<Board>>,
    news: Res<BoardNews>,
    mut tokens: Query<(&mut ElementToken, &mut Transform)>,
    mut shades: Query<&mut ReachShade>,
) {
    let Some(board) = board else { return };
    if !news.is_changed() || news.rebuild || !news.tokens {
        return;
    }
    // Each tile's spots once, for all of its tokens.
    let mut spots: std::collections::HashMap<Cell, Vec<(Standing, Vec2)>> = Default::default();
    for (mut token, mut transform) in &mut tokens {
        let Some(tile) = board.view.tile_at(token.cell) else { continue };
        let Some((_, now)) = tile.element(token.area, token.element) else {
            continue;
        };
        if token.token != now {
            token.token = now;
        }
        let tile_spots = spots.entry(token.cell).or_insert_with(|| token_spots(&board.view, tile));
        let at = token_transform(tile_spots, token.area, token.element);
        if transform.translation != at.translation {
            transform.translation = at.translation;
        }
    }
    for mut shade in &mut shades {
        let Some(tile) = board.view.tile_at(shade.cell) else { continue };
        if shade.accessible != tile.accessible {
            shade.accessible = tile.accessible.clone();
        }
    }
}

/// A Legendary Location Discovered (a tile placed) or Encountered: its
/// Nodes change on the board.
fn refresh_runes(board: Option<Res<Board>>, mut runes: Query<&mut RuneTokens>) {
    let Some(board) = board.filter(|b| b.is_changed()) else { return };
    for mut on in &mut runes {
        let now = board.view.tile_at(on.cell).map(|t| &t.runes);
        if let Some(now) = now.filter(|now| **now != on.runes) {
            on.runes = now.clone();
        }
    }
}

fn place_lantern(
    mut commands: Commands,
    board: Option<Res<Board>>,
    mut lantern: Query<(Entity, &mut Transform), With<LanternToken>>,
    news: Res<BoardNews>,
    time: Res<Time>,
) {
    let Some(board) = board else { return };
    // It walks on an Encounter (or a new map); otherwise it stays put.
    let walks = news.is_changed() && (news.tokens || news.rebuild);
    if !walks && !lantern.is_empty() {
        return;
    }
    let Some(pos) = lantern_position(&board.view) else {
        return;
    };
    // Above every tile and token.
    let translation = pos.extend(10.0);
    match lantern.single_mut() {
        Ok((entity, mut transform)) => {
            if transform.translation != translation {
                let from = transform.translation;
                transform.translation = translation;
                let through = board.came_through;
                commands.entity(entity).insert(LanternMove { from, since: time.elapsed_secs(), through });
            }
        }
        Err(_) => {
            commands.spawn((
                Name::new("Lantern"),
                LanternToken,
                Transform::from_translation(translation),
                Visibility::default(),
                DespawnOnExit(Screen::Playing),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 53: "the Lantern covers the Chest on the party's tile; a
    /// Campfire and a Monster overlap on one tile". On every map tile of
    /// every Ecology, turned every way, with the Lantern in each of its areas
    /// or elsewhere, nothing standing on it covers another, and all of it is
    /// inside the walls.
    #[test]
    fn nothing_standing_on_a_tile_covers_another() {
        use crate::board::view::LanternAt;
        use depths_rules::map::{Placement, Rotation};
        let content = depths_rules::Content::builtin().unwrap();
        let (mut tiles, mut crowded, mut kept, mut moved) = (0, 0, 0, Vec::new());
        let inner = INNER_HALF + 0.5;
        for printed in content.ecologies.iter().flat_map(|e| &e.tiles) {
            for rotation in Rotation::ALL {
                let tile = Tile::from_printed(printed, Placement { cell: (0, 0), rotation });
                for lantern in (0..tile.areas().len()).map(Some).chain([None]) {
                    let at =
                        LanternAt { cell: if lantern.is_some() { (0, 0) } else { (5, 5) }, area: lantern.unwrap_or(0) };
                    let view = BoardView { seed: 0, tiles: vec![tile.clone()], lantern: at, through: Vec::new() };
                    let spots = token_spots(&view, &tile);
                    let rect = |(what, at): &(Standing, Vec2)| {
                        let f = footprint(*what);
                        Rect::from_corners(f.min + *at, f.max + *at)
                    };
                    for (i, a) in spots.iter().enumerate() {
                        let ra = rect(a);
                        assert!(
                            ra.min.cmpge(Vec2::splat(-inner)).all() && ra.max.cmple(Vec2::splat(inner)).all(),
                            "{} turned {rotation:?}: {:?} at {:?} is outside the walls",
                            printed.id,
                            a.0,
                            a.1
                        );
                        for b in &spots[i + 1..] {
                            let over = ra.intersect(rect(b)).size();
                            assert!(
                                over.x <= 0.5 || over.y <= 0.5,
                                "{} turned {rotation:?}, Lantern in {lantern:?}: {:?} at {:?} covers {:?} at {:?}",
                                printed.id,
                                a.0,
                                a.1,
                                b.0,
                                b.1
                            );
                        }
                    }
                    crowded += usize::from(spots.len() >= 3);
                    tiles += 1;
                    // The tokens stand where they stood before the Heroes came.
                    let alone = BoardView {
                        seed: 0,
                        tiles: vec![tile.clone()],
                        lantern: LanternAt { cell: (5, 5), area: 0 },
                        through: Vec::new(),
                    };
                    let without = token_spots(&alone, &tile);
                    let elements = |s: &[(Standing, Vec2)]| {
                        s.iter().filter(|(w, _)| *w != Standing::Lantern).copied().collect::<Vec<_>>()
                    };
                    // …wherever the Lantern has a free place beside them.
                    let taken: Vec<Rect> = without.iter().map(|(w, p)| rect_at(*w, *p)).collect();
                    let room = places_by_distance(Standing::Lantern, Vec2::ZERO, &taken, 4.0).next().is_some();
                    if elements(&spots) == without {
                        kept += 1;
                    } else if room {
                        moved.push(format!("{} {rotation:?} {lantern:?}", printed.id));
                    }
                }
            }
        }
        assert!(tiles > 100 && crowded > 10, "{tiles} tiles, {crowded} with three or more things standing");
        assert!(moved.is_empty(), "the Lantern moved tokens it had room beside: {moved:?}");
        assert!(kept > tiles / 2, "{kept} of {tiles} kept their tokens where they stood");
    }

    #[test]
    fn cells_and_world_positions_agree() {
        for (x, y) in [(0, 0), (3, -2), (-1, 4)] {
            let c: Cell = (x, y);
            assert_eq!(cell_at(cell_center(c)), c);
            assert_eq!(cell_at(cell_center(c) + Vec2::splat(TILE_SIZE * 0.45)), c);
        }
    }
}
