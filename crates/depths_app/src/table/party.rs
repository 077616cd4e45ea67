//! The party's edge of the table: each Hero's Health Track with its Health
//! Token, the Keys, and the XP cards of the pool, as entities along the foot
//! of the board (the panels may be folded; this edge stays). A Health Token
//! slides along its track when the Hero is hurt or healed, XP cards fly in
//! from the table when a Monster falls and away when they are spent, and a
//! Key flies out when a Door takes it.

use bevy::{camera::visibility::RenderLayers, prelude::*, sprite::Anchor, window::PrimaryWindow};
use depths_rules::Game;

use super::cards::{TABLE_LAYER, text_font, to_world};
use crate::theme::palette::{CARD_GOLD, CARD_TEXT, FELT, LIT, RED, SPACE, XP_FACE};
use crate::{
    PlaySystems,
    game::animating::{Animating, mark_motion},
    game::screen::Screen,
    game::session::Delve,
    theme::icons::Icons,
};

/// The edge's height, in logical pixels. Its pieces grow with the UI scale
/// inside it (a taller edge took the room of the cards in hand at 150 %).
pub const EDGE_HEIGHT: f32 = 46.0;
/// How long a token or card takes to slide into place.
const SLIDE: f32 = 0.45;

/// Where the party's edge lies on screen (logical px, y down): under the
/// board, set by the panels with the board's own room; and the UI scale its
/// pieces are drawn at (0: 100 %).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct PartyEdge(pub Option<Rect>, pub f32);

impl PartyEdge {
    /// How much larger than at 100 % its pieces are: the UI scale, as far
    /// as the edge holds them.
    pub fn scale(&self) -> f32 {
        if self.1 > 0.0 { self.1.clamp(1.0, 1.5) } else { 1.0 }
    }
}

/// A Hero's Health Track: a numbered space per point of Maximum Health.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct HealthTrack {
    pub hero: u8,
    pub max: u8,
}

/// A Hero's Health Token, on the space of the Hero's Health.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct HealthToken {
    pub hero: u8,
    pub health: u8,
}

/// One of the party's Keys.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyToken(pub u8);

/// One XP card of the pool: its place in the pool and its value.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct XpCardToken {
    pub index: u8,
    pub xp: u8,
}

/// The edge's felt.
#[derive(Component)]
struct EdgeFelt;

/// What the pointer over a piece of the edge reads.
#[derive(Component, Debug, Clone)]
pub struct EdgeHover(pub String);

/// A piece moving from one place (screen px) to another; `leaving` pieces
/// are despawned when they arrive.
#[derive(Component, Debug, Clone, Copy)]
struct Slide {
    from: Vec2,
    to: Vec2,
    start: f32,
    leaving: bool,
}

impl Slide {
    fn at(&self, now: f32) -> Vec2 {
        let t = ((now - self.start) / SLIDE).clamp(0.0, 1.0);
        let eased = 1.0 - (1.0 - t) * (1.0 - t) * (1.0 - t);
        self.from.lerp(self.to, eased)
    }

    fn moving(&self, now: f32) -> bool {
        now - self.start < SLIDE
    }
}

pub fn plugin(app: &mut App) {
    app.init_resource::<PartyEdge>();
    app.add_systems(
        Update,
        (sync_edge, slide)
            .chain()
            .in_set(PlaySystems::Present)
            .run_if(in_state(Screen::Playing).and_then(resource_exists::<Delve>)),
    );
    app.add_systems(PostUpdate, (attach_hover, xp_values_in_sight).run_if(in_state(Screen::Playing)));
    app.add_systems(OnExit(Screen::Playing), |mut edge: ResMut<PartyEdge>| edge.0 = None);
}

/// The pieces' places on the edge, worked out from the game alone.
#[derive(Debug, Clone, PartialEq)]
pub struct EdgeLayout {
    /// Per Hero: the track's first space's centre, the step between spaces, and the space size.
    pub tracks: Vec<(Vec2, f32, Vec2)>,
    /// The first Key's centre and the step to the next.
    pub keys: (Vec2, f32),
    /// The first XP card's centre and the step to the next.
    pub xp: (Vec2, f32),
    /// How much larger than at 100 % the pieces are drawn.
    pub k: f32,
}

impl EdgeLayout {
    /// The centre of space `health` (0: before the first space) on Hero `hero`'s track.
    pub fn space(&self, hero: usize, health: u8) -> Vec2 {
        let (first, step, _) = self.tracks[hero];
        first + Vec2::X * step * (f32::from(health.max(1)) - 1.0) - Vec2::X * if health == 0 { step } else { 0.0 }
    }
}

/// The Keys and XP cards take what they need at the right end, the tracks
/// share the rest; every piece `k` times its size at 100 %.
pub fn edge_layout(game: &Game, edge: Rect, k: f32) -> EdgeLayout {
    let (keys, cards) = game.adventure().map_or((0, 0), |a| (usize::from(a.keys), a.xp_pool.len()));
    let y = edge.center().y;
    let key_step = 16.0 * k;
    // The XP cards close up (overlapping like a fanned pile) past a third of the edge.
    // The blocks keep their width as cards come and go, so the tracks stay put.
    let xp_w = (edge.width() / 4.0).clamp(60.0 * k, 220.0 * k);
    let xp_step =
        if cards > 1 { ((xp_w - 18.0 * k) / (cards as f32 - 1.0)).clamp(4.0 * k, 21.0 * k) } else { 21.0 * k };
    let keys_w = key_step * keys.max(6) as f32;
    let xp_first = edge.max.x - 10.0 * k - xp_w + 9.0 * k;
    let keys_first = edge.max.x - 10.0 * k - xp_w - 14.0 * k - keys_w + key_step / 2.0;
    let tracks_right = keys_first - key_step / 2.0 - 12.0 * k;
    let n = game.heroes.len().max(1) as f32;
    let each = ((tracks_right - edge.min.x - 8.0 * k) / n).clamp(40.0 * k, 300.0 * k);
    let tracks = game
        .heroes
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let left = edge.min.x + 8.0 * k + i as f32 * each + 22.0 * k;
            let room = each - 36.0 * k;
            let max = f32::from(h.max_health().max(1));
            let step = room / max;
            (Vec2::new(left + step / 2.0, y + 6.0 * k), step, Vec2::new((step - 1.0).max(1.0), 10.0 * k))
        })
        .collect();
    EdgeLayout { tracks, keys: (Vec2::new(keys_first, y), key_step), xp: (Vec2::new(xp_first, y), xp_step), k }
}

fn layer() -> RenderLayers {
    RenderLayers::layer(TABLE_LAYER)
}

/// The state the edge shows, to redraw only what changed.
#[derive(Default, PartialEq)]
struct Shown {
    edge: Option<Rect>,
    screen: Vec2,
    /// Each Hero's Maximum Health: a new one lays the tracks again.
    maxima: Vec<u8>,
    geometry: Vec<(Vec2, f32, Vec2)>,
}

fn sync_edge(
    mut commands: Commands,
    delve: Res<Delve>,
    edge: Res<PartyEdge>,
    window: Single<&Window, With<PrimaryWindow>>,
    time: Res<Time>,
    icons: Option<Res<Icons>>,
    ui_assets: Option<Res<crate::theme::style::UiAssets>>,
    felt: Query<Entity, Or<(With<EdgeFelt>, With<HealthToken>, With<KeyToken>, With<XpCardToken>)>>,
    mut tokens: Query<(&mut HealthToken, &mut Slide, &mut EdgeHover), Without<KeyToken>>,
    keys: Query<(Entity, &KeyToken, &Slide), Without<HealthToken>>,
    xp: Query<(Entity, &XpCardToken, &Slide), (Without<HealthToken>, Without<KeyToken>)>,
    mut shown: Local<Shown>,
) {
    if !delve.is_changed() && !edge.is_changed() {
        return;
    }
    let screen = Vec2::new(window.width(), window.height());
    let now = time.elapsed_secs();
    let game = delve.game();
    let Some(rect) = edge.0 else {
        for e in &felt {
            commands.entity(e).despawn();
        }
        *shown = Shown::default();
        return;
    };
    let layout = edge_layout(game, rect, edge.scale());
    let body = ui_assets.as_ref().map(|a| &a.body_font);
    let maxima: Vec<u8> = game.heroes.iter().map(|h| h.max_health()).collect();
    let same_frame = shown.edge == Some(rect) && shown.screen == screen && shown.geometry == layout.tracks;
    let same_tracks = shown.maxima == maxima;
    if !(same_frame && same_tracks) {
        // The felt and the tracks, anew (a new game, a level's new Maximum, a resize).
        for e in &felt {
            commands.entity(e).despawn();
        }
        spawn_felt(&mut commands, game, &layout, rect, screen, icons.as_deref(), body);
        if let Some(adv) = game.adventure() {
            for i in 0..adv.keys {
                let at = layout.keys.0 + Vec2::X * layout.keys.1 * f32::from(i);
                spawn_key(&mut commands, i, still(at), (screen, layout.k), icons.as_deref(), keys_text(adv));
            }
            for (i, c) in adv.xp_pool.iter().enumerate() {
                let at = layout.xp.0 + Vec2::X * layout.xp.1 * i as f32;
                spawn_xp(
                    &mut commands,
                    XpCardToken { index: i as u8, xp: c.xp },
                    still(at),
                    (screen, layout.k),
                    body,
                    adv,
                );
            }
        }
        shown.edge = Some(rect);
        shown.screen = screen;
        shown.maxima = maxima;
        shown.geometry = layout.tracks.clone();
        return; // every piece is in its place
    }
    // The tokens slide to their Heroes' Health.
    for (mut token, mut slide, mut hover) in &mut tokens {
        let h = usize::from(token.hero);
        let Some(hero) = game.heroes.get(h) else { continue };
        if token.health != hero.health {
            token.health = hero.health;
            *slide = Slide { from: slide.at(now), to: layout.space(h, hero.health), start: now, leaving: false };
            hover.0 = health_text(game, h);
        }
    }
    let Some(adv) = game.adventure() else { return };
    let middle = rect.center() - Vec2::Y * 200.0;
    // Keys: new ones fly in from the table, spent ones fly off to it.
    let held: Vec<u8> = keys.iter().filter(|(_, _, s)| !s.leaving).map(|(_, k, _)| k.0).collect();
    for (e, k, s) in &keys {
        if s.leaving {
            continue;
        }
        let to = if k.0 >= adv.keys { middle } else { layout.keys.0 + Vec2::X * layout.keys.1 * f32::from(k.0) };
        if s.to != to {
            commands.entity(e).insert(Slide { from: s.at(now), to, start: now, leaving: k.0 >= adv.keys });
        }
    }
    for i in 0..adv.keys {
        if !held.contains(&i) {
            let to = layout.keys.0 + Vec2::X * layout.keys.1 * f32::from(i);
            spawn_key(
                &mut commands,
                i,
                Slide { from: middle, to, start: now, leaving: false },
                (screen, layout.k),
                icons.as_deref(),
                keys_text(adv),
            );
        }
    }
    // XP cards: a card of the same value stays (sliding to its new place
    // in the pool), the others fly off; the pool's new cards fly in.
    let mut pool: Vec<Option<u8>> = adv.xp_pool.iter().map(|c| Some(c.xp)).collect();
    let place = |i: usize| layout.xp.0 + Vec2::X * layout.xp.1 * i as f32;
    let mut staying: Vec<(Entity, usize, Vec2)> = Vec::new();
    let mut cards: Vec<_> = xp.iter().filter(|(_, _, s)| !s.leaving).collect();
    cards.sort_by_key(|(_, c, _)| c.index);
    for (e, card, s) in cards {
        let same_place = pool.get(usize::from(card.index)).copied().flatten() == Some(card.xp);
        let found =
            if same_place { Some(usize::from(card.index)) } else { pool.iter().position(|v| *v == Some(card.xp)) };
        match found {
            Some(i) => {
                pool[i] = None;
                staying.push((e, i, s.at(now)));
            }
            None => {
                commands.entity(e).insert(Slide { from: s.at(now), to: middle, start: now, leaving: true });
            }
        }
    }
    for (e, i, from) in staying {
        let token = XpCardToken { index: i as u8, xp: adv.xp_pool[i].xp };
        commands.entity(e).insert((token, Slide { from, to: place(i), start: now, leaving: false }));
    }
    for (i, value) in pool.iter().enumerate() {
        if let Some(xp) = value {
            let slide = Slide { from: middle, to: place(i), start: now, leaving: false };
            spawn_xp(&mut commands, XpCardToken { index: i as u8, xp: *xp }, slide, (screen, layout.k), body, adv);
        }
    }
}

/// A piece at rest at `p`.
fn still(p: Vec2) -> Slide {
    Slide { from: p, to: p, start: f32::NEG_INFINITY, leaving: false }
}

fn health_text(game: &Game, h: usize) -> String {
    let hero = &game.heroes[h];
    format!("{}'s Health Track: {} of {} Health.", hero.name(), hero.health, hero.max_health())
}

/// The Keys' hover, with this Ecology's price (the Caverns' Key was said to
/// cost 4 XP beside a button asking 6).
fn keys_text(adv: &depths_rules::adventure::Adventure) -> String {
    let keys = adv.keys;
    let n = if keys == 1 { "1 Key".to_owned() } else { format!("{keys} Keys") };
    let cost = adv.ecology.reference.key_cost;
    format!("The party holds {n}. A Key unlocks a Door; {cost} XP buys another.")
}

fn xp_text(adv: &depths_rules::adventure::Adventure) -> String {
    let total: u16 = adv.xp_pool.iter().map(|c| u16::from(c.xp)).sum();
    let cards: Vec<String> = adv.xp_pool.iter().map(|c| c.xp.to_string()).collect();
    format!("The XP pool: {total} XP in {} cards ({}).", cards.len(), cards.join(", "))
}

fn piece_at(p: Vec2, screen: Vec2, z: f32) -> Transform {
    Transform::from_translation(to_world(p, screen).extend(z))
}

fn spawn_felt(
    commands: &mut Commands,
    game: &Game,
    layout: &EdgeLayout,
    rect: Rect,
    screen: Vec2,
    icons: Option<&Icons>,
    body: Option<&Handle<Font>>,
) {
    commands
        .spawn((
            Name::new("The party's edge"),
            EdgeFelt,
            Sprite::from_color(FELT.sprite(), rect.size()),
            piece_at(rect.center(), screen, 1.0),
            layer(),
            Pickable::IGNORE,
            DespawnOnExit(Screen::Playing),
        ))
        .with_children(|c| {
            // Children are placed relative to the felt's centre.
            let rel = |p: Vec2, z: f32| {
                Transform::from_translation((to_world(p, screen) - to_world(rect.center(), screen)).extend(z))
            };
            let k = layout.k;
            for (h, hero) in game.heroes.iter().enumerate() {
                let (first, step, size) = layout.tracks[h];
                let max = hero.max_health();
                c.spawn((HealthTrack { hero: h as u8, max }, Transform::default(), Visibility::Inherited, layer()))
                    .with_children(|t| {
                        for v in 1..=max {
                            let p = first + Vec2::X * step * f32::from(v - 1);
                            // Every fifth space stands out, as on a printed track.
                            let space = TrackSpace { hero: h as u8, value: v };
                            let color = space.color(hero.health);
                            t.spawn((space, Sprite::from_color(color, size), rel(p, 0.1), layer(), Pickable::IGNORE));
                        }
                    });
                let label_at = first - Vec2::new(step / 2.0 + 12.0 * k, 0.0);
                if let Some(image) = icons.and_then(|i| i.image("classes", &hero.mat.class.name().to_lowercase())) {
                    let sprite = Sprite {
                        image,
                        color: CARD_GOLD.sprite(),
                        custom_size: Some(Vec2::splat(16.0 * k)),
                        ..default()
                    };
                    c.spawn((sprite, rel(label_at, 0.2), layer(), Pickable::IGNORE));
                }
                let name_at = first + Vec2::new(-step / 2.0, -15.0 * k);
                c.spawn((
                    Text2d::new(format!("{} · {} / {}", hero.name(), hero.health, max)),
                    text_font(body, 11.0 * k),
                    TextColor(CARD_TEXT.sprite().with_alpha(0.8)),
                    Anchor::CENTER_LEFT,
                    rel(name_at, 0.2),
                    layer(),
                    Pickable::IGNORE,
                    HealthLabel(h as u8),
                ));
            }
        });
    // The tokens are top-level pieces: they slide on their own.
    for (h, hero) in game.heroes.iter().enumerate() {
        let at = layout.space(h, hero.health);
        let token = match icons.and_then(|i| i.image("ui", "health")) {
            Some(image) => {
                Sprite { image, color: RED.sprite(), custom_size: Some(Vec2::splat(18.0 * layout.k)), ..default() }
            }
            None => Sprite::from_color(RED.sprite(), Vec2::splat(12.0 * layout.k)),
        };
        commands.spawn((
            Name::new(format!("Health Token of {}", hero.name())),
            HealthToken { hero: h as u8, health: hero.health },
            still(at),
            token,
            piece_at(at, screen, 30.0),
            layer(),
            Pickable::default(),
            EdgeHover(health_text(game, h)),
            DespawnOnExit(Screen::Playing),
        ));
    }
}

/// A space of a Health Track: lit up to the Hero's Health.
#[derive(Component, Debug, Clone, Copy)]
struct TrackSpace {
    hero: u8,
    value: u8,
}

impl TrackSpace {
    fn color(&self, health: u8) -> Color {
        // Every fifth space stands out, as on a printed track.
        let base = if health >= self.value { LIT.sprite() } else { SPACE.sprite() };
        if self.value.is_multiple_of(5) { base.lighter(0.08) } else { base }
    }
}

/// The "Bren · 8 / 14" over a track, kept up to date by [`slide`].
#[derive(Component)]
struct HealthLabel(u8);

fn spawn_key(
    commands: &mut Commands,
    i: u8,
    slide: Slide,
    (screen, k): (Vec2, f32),
    icons: Option<&Icons>,
    hover: String,
) {
    let sprite = match icons.and_then(|ic| ic.image("ui", "key")) {
        Some(image) => {
            Sprite { image, color: CARD_GOLD.sprite(), custom_size: Some(Vec2::splat(18.0 * k)), ..default() }
        }
        None => Sprite::from_color(CARD_GOLD.sprite(), Vec2::new(8.0, 16.0) * k),
    };
    commands.spawn((
        Name::new(format!("Key {}", i + 1)),
        KeyToken(i),
        slide,
        sprite,
        piece_at(slide.from, screen, 31.0),
        layer(),
        Pickable::default(),
        EdgeHover(hover),
        DespawnOnExit(Screen::Playing),
    ));
}

fn spawn_xp(
    commands: &mut Commands,
    card: XpCardToken,
    slide: Slide,
    (screen, k): (Vec2, f32),
    body: Option<&Handle<Font>>,
    adv: &depths_rules::adventure::Adventure,
) {
    commands
        .spawn((
            Name::new(format!("XP card {} ({} XP)", card.index + 1, card.xp)),
            card,
            slide,
            Sprite::from_color(CARD_GOLD.sprite(), Vec2::new(18.0, 26.0) * k),
            piece_at(slide.from, screen, 32.0 + f32::from(card.index) * 0.01),
            layer(),
            Pickable::default(),
            EdgeHover(xp_text(adv)),
            DespawnOnExit(Screen::Playing),
        ))
        .with_children(|c| {
            let inner = Sprite::from_color(XP_FACE.sprite(), Vec2::new(15.0, 23.0) * k);
            c.spawn((inner, Transform::from_xyz(0.0, 0.0, 0.05), layer(), Pickable::IGNORE));
            c.spawn((
                XpValue,
                Text2d::new(card.xp.to_string()),
                text_font(body, 12.0 * k),
                TextColor(CARD_GOLD.sprite()),
                Transform::from_xyz(0.0, 0.0, 0.1),
                layer(),
                Pickable::IGNORE,
            ));
        });
}

/// The value printed on an XP card.
#[derive(Component)]
struct XpValue;

/// Whether every XP card shows its value: not once they overlap past a
/// digit's width, where side by side the values read as one long number
/// ("1111112…"); the pile then shows the pool's total on its top card (in
/// white, unlike a card's own gold value), and its hover lists every card.
fn values_spread(step: f32, k: f32) -> bool {
    step >= 14.0 * k
}

fn xp_values_in_sight(
    delve: Option<Res<Delve>>,
    edge: Res<PartyEdge>,
    cards: Query<(&XpCardToken, &Children)>,
    changed: Query<(), Changed<XpCardToken>>,
    mut values: Query<(&mut Visibility, &mut Text2d, &mut TextColor), With<XpValue>>,
) {
    let (Some(delve), Some(rect)) = (delve, edge.0) else { return };
    if !delve.is_changed() && !edge.is_changed() && changed.is_empty() {
        return;
    }
    let layout = edge_layout(delve.game(), rect, edge.scale());
    let spread = values_spread(layout.xp.1, layout.k);
    let Some(adv) = delve.game().adventure() else { return };
    let top = adv.xp_pool.len().saturating_sub(1);
    let total = delve.game().pool_xp();
    for (card, children) in &cards {
        let is_top = usize::from(card.index) == top;
        let (seen, text, color) = match (spread, is_top) {
            (true, _) => (Visibility::Inherited, card.xp.to_string(), CARD_GOLD.sprite()),
            (false, true) => (Visibility::Inherited, total.to_string(), CARD_TEXT.sprite()),
            (false, false) => (Visibility::Hidden, card.xp.to_string(), CARD_GOLD.sprite()),
        };
        for &child in children {
            if let Ok((mut v, mut t, mut c)) = values.get_mut(child) {
                if *v != seen {
                    *v = seen;
                }
                if t.0 != text {
                    t.0 = text.clone();
                }
                if c.0 != color {
                    c.0 = color;
                }
            }
        }
    }
}

/// Moves the sliding pieces, despawns the ones that left, keeps the hover
/// texts and the track labels true, and marks what moves [`Animating`].
fn slide(
    mut commands: Commands,
    time: Res<Time>,
    delve: Res<Delve>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut pieces: Query<(
        Entity,
        &Slide,
        &mut Transform,
        Option<&KeyToken>,
        Option<&XpCardToken>,
        Option<&mut EdgeHover>,
        Has<Animating>,
    )>,
    mut labels: Query<(&HealthLabel, &mut Text2d)>,
    mut spaces: Query<(&TrackSpace, &mut Sprite)>,
) {
    let now = time.elapsed_secs();
    let screen = Vec2::new(window.width(), window.height());
    let adv = delve.game().adventure();
    for (e, s, mut transform, key, xp, hover, marked) in &mut pieces {
        let z = transform.translation.z;
        let at = to_world(s.at(now), screen).extend(z);
        if transform.translation != at {
            transform.translation = at;
        }
        if !s.moving(now) && s.leaving {
            commands.entity(e).despawn();
            continue;
        }
        mark_motion(&mut commands, e, s.moving(now), marked);
        // The texts change only with the game, not every frame.
        if let (true, Some(mut hover), Some(adv)) = (delve.is_changed(), hover, adv) {
            let text = if key.is_some() {
                keys_text(adv)
            } else if xp.is_some() {
                xp_text(adv)
            } else {
                continue;
            };
            if hover.0 != text {
                hover.0 = text;
            }
        }
    }
    if delve.is_changed() {
        for (space, mut sprite) in &mut spaces {
            if let Some(hero) = delve.game().heroes.get(usize::from(space.hero)) {
                let want = space.color(hero.health);
                if sprite.color != want {
                    sprite.color = want;
                }
            }
        }
        for (label, mut text) in &mut labels {
            if let Some(hero) = delve.game().heroes.get(usize::from(label.0)) {
                let want = format!("{} · {} / {}", hero.name(), hero.health, hero.max_health());
                if text.0 != want {
                    text.0 = want;
                }
            }
        }
    }
}

/// The pieces tell what they are under the pointer (the same hover box as the cards').
fn attach_hover(mut commands: Commands, added: Query<Entity, Added<EdgeHover>>) {
    for e in &added {
        commands.entity(e).observe(on_over).observe(on_out);
    }
}

fn on_over(ev: On<Pointer<Over>>, pieces: Query<&EdgeHover>, mut hovered: ResMut<crate::game::focus::Hovered>) {
    if let Ok(h) = pieces.get(ev.event_target())
        && !h.0.is_empty()
    {
        hovered.0 = Some((ev.event_target(), h.0.clone()));
    }
}

fn on_out(ev: On<Pointer<Out>>, mut hovered: ResMut<crate::game::focus::Hovered>) {
    if hovered.0.as_ref().is_some_and(|(e, _)| *e == ev.event_target()) {
        hovered.0 = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Keys' hover names this Ecology's price, the one the button asks
    /// (the Ruins' and the Caverns' differ, so a fixed price is caught).
    #[test]
    fn the_keys_hover_names_this_ecologys_price() {
        let mut costs = Vec::new();
        for start in [depths_rules::Ecology::Ruins, depths_rules::Ecology::Caverns] {
            let options = depths_rules::GameOptions { start, ..depths_rules::GameOptions::standard(&["bren"], 1) };
            let game = Game::new(options, depths_rules::Content::builtin().unwrap()).unwrap();
            let adv = game.adventure().unwrap();
            let cost = adv.ecology.reference.key_cost;
            let text = keys_text(adv);
            assert!(text.contains(&format!("; {cost} XP buys another")), "{text}");
            costs.push(cost);
        }
        assert_ne!(costs[0], costs[1], "the Ecologies' Key prices differ");
    }
}
