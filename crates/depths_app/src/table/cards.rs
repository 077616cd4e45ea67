//! The card entities: spawned from [`super::faces`] at the places
//! [`super::layout`] gives, drawn by their own camera over the board (screen
//! fixed, so text stays crisp whatever the board's zoom), under egui's.
//!
//! A card flies in from its deck when drawn, slides to its place when played,
//! and flies off to the discard when it leaves play; a card whose face changes
//! is redrawn where it lies. In Combat a dark mat covers the board. Reactive
//! rendering: a frame is requested only while something moves.

use std::f32::consts::PI;

use bevy::{camera::visibility::RenderLayers, prelude::*, sprite::Anchor, text::TextBounds, window::PrimaryWindow};
use depths_rules::{Action, Outcome};

use super::{
    card_art::CardArt,
    faces::{Face, Kind, Spot, Tone, ecology_key, table_faces},
    layout::{
        FOE_HEAD, FOE_ROW, POWER_ICON, PRINT_LINE, PRINT_PX, Placed, TableLayout, fit_text, lay_out_grown, pair_words,
        print_shown, print_width, text_width,
    },
    motion::{CardBack, Jolts, turning},
};
use crate::theme::palette::{self, CARD_GOLD, CARD_MUTED, CARD_TEXT, MAT};
use crate::{
    PlaySystems,
    game::animating::{Animating, mark_motion},
    game::focus::BoardArea,
    game::rules_events::CardNews,
    game::screen::Screen,
    game::session::{Delve, Seats},
    theme::icons::Icons,
};

/// The render layer of the table's cards: only [`TableCamera`] draws it.
pub const TABLE_LAYER: usize = 1;

/// How long a card flies.
const FLIGHT: f32 = 0.35;
/// A drawn Feature / Legendary Location card stays at least this long.
const LINGER: f32 = 2.5;

/// The camera that draws the cards and egui: screen-fixed, after the board.
#[derive(Component)]
pub struct TableCamera;

/// The dark mat that covers the board while a Combat is on the table.
#[derive(Component)]
pub struct CombatMat;

/// A card entity on the table.
#[derive(Component, Debug)]
pub struct TableCard {
    pub key: super::faces::CardKey,
    pub kind: Kind,
    /// What a click (or a drop on the table, for a card in hand) does.
    pub action: Option<Action>,
    /// What a click tries when the rules refuse it now (to say why).
    pub intent: Option<Action>,
    /// Everything the card says, for the hover box.
    pub hover: String,
    /// Screen position (logical px) it flies from and to.
    from: Vec2,
    to: Vec2,
    start: f32,
    /// Fly to the discard and despawn on arrival.
    pub(crate) leaving: bool,
    /// Stay at least until then (a card drawn and resolved at once).
    linger_until: Option<f32>,
    look: u64,
    /// The size it was drawn at (logical px).
    size: Vec2,
    /// How much larger than at 100 % it is drawn (its face is laid out at
    /// `size / scale`).
    scale: f32,
    /// Where the pointer holds it, while dragged.
    pub held: Option<Vec2>,
    /// The pointer's offset from the card's centre when it was picked up.
    pub grab: Vec2,
    /// How far the pointer moved since it was pressed: a long move is a drag,
    /// not a click.
    pub moved: f32,
    pub hovered: bool,
    /// Later cards of a fanned hand lie over earlier ones.
    order: f32,
    /// It turns over on its way in (dealt, or a Monster's card revealed).
    turns: bool,
}

impl TableCard {
    /// Where it is now (logical px).
    pub fn position(&self, now: f32) -> Vec2 {
        self.held.unwrap_or_else(|| current(self, now))
    }

    /// Whether it is on its way somewhere (to its place, or to the discard).
    pub fn flying(&self, now: f32) -> bool {
        self.leaving || self.position(now).distance(self.to) > 0.5
    }

    /// The rectangle it covers now (logical px).
    pub fn screen_rect(&self, now: f32) -> Rect {
        Rect::from_center_size(self.position(now), self.size)
    }

    /// Where it lies once at rest, where it is going (logical px).
    pub fn placed(&self) -> Placed {
        Placed { center: self.to, size: self.size }
    }

    /// Its height at 100 % (its face is laid out at that size).
    pub fn face_height(&self) -> f32 {
        self.size.y / self.scale
    }

    /// Let go of it: it slides back to its place from where it was dropped.
    pub fn let_go(&mut self, now: f32) {
        if let Some(at) = self.held.take() {
            self.from = at;
            self.start = now;
        }
    }
}

/// One individual's row on a Monster card: clicking it may put damage there.
#[derive(Component, Debug)]
pub struct RowAction(pub Option<Action>);

/// A place on the table that makes a move: a card, a pair, an individual's row.
#[derive(Clone, Debug, PartialEq)]
pub struct ClickTarget {
    /// On screen (logical px, y down).
    pub rect: Rect,
    pub action: Action,
    /// Just under the card's own depth: a glow there frames it.
    pub z: f32,
}

/// The table's current geometry, for the pointer's drops, and the numbered
/// choices on it, for the number keys.
#[derive(Resource, Default, Debug)]
pub struct TableGeometry {
    pub layout: Option<TableLayout>,
    /// The room `layout` was laid out in (screen px).
    pub room: Rect,
    /// The number keys' choices, with their numbers.
    pub numbered: Vec<(u8, Action)>,
    /// Where each number is, to keep it there while its choice stays open.
    pub numbers: super::faces::NumberMemory,
    /// Every Action a card or row on the table offers.
    pub offered: Vec<Action>,
    /// Every card, pair and row that makes a move, with its place.
    pub targets: Vec<ClickTarget>,
    /// The revealed card on show, if any (screen px): notes keep off it.
    pub reveal: Option<Rect>,
}

impl TableGeometry {
    /// Where a window of `size` (egui points; `zoom`: the UI scale) covers
    /// the fewest cards and none of the moves to click: its top-left corner
    /// in egui points. None before the table is laid out.
    pub fn clear_corner(&self, size: Vec2, zoom: f32) -> Option<Vec2> {
        let layout = self.layout.as_ref()?;
        let targets: Vec<Rect> = self.targets.iter().map(|t| t.rect).chain(self.reveal).collect();
        Some(super::layout::clear_spot(layout, &targets, size * zoom, None) / zoom)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TableGeometry>();
    app.add_systems(Startup, spawn_table_camera);
    app.add_systems(
        Update,
        (sync_cards, move_cards)
            .chain()
            .in_set(PlaySystems::Present)
            .run_if(in_state(Screen::Playing).and_then(resource_exists::<Delve>)),
    );
    app.add_systems(OnExit(Screen::Playing), |mut geometry: ResMut<TableGeometry>| {
        *geometry = TableGeometry::default()
    });
}

/// The cards' camera also draws egui (after its own sprites, so the panels
/// lie over the cards): one camera more than the board's, not two — under a
/// software renderer each camera pass costs several milliseconds a frame.
fn spawn_table_camera(mut commands: Commands) {
    commands.spawn((
        Name::new("Card and panel camera"),
        Camera2d,
        TableCamera,
        bevy_egui::PrimaryEguiContext,
        Camera { order: 1, clear_color: ClearColorConfig::None, ..default() },
        RenderLayers::layer(TABLE_LAYER),
    ));
}

fn layer() -> RenderLayers {
    RenderLayers::layer(TABLE_LAYER)
}

fn color(kind: Kind) -> (Color, Color) {
    match kind {
        Kind::Hero | Kind::Hand | Kind::Pile => (palette::HERO_CARD.sprite(), palette::HERO_EDGE.sprite()),
        Kind::Monster | Kind::Foe => (palette::MONSTER_CARD.sprite(), palette::MONSTER_EDGE.sprite()),
        Kind::Ecology => (palette::ECOLOGY_CARD.sprite(), palette::ECOLOGY_EDGE.sprite()),
        Kind::Pair | Kind::Label => (Color::NONE, palette::PLAIN_EDGE.sprite()),
    }
}

fn tone_color(tone: Tone) -> Color {
    match tone {
        Tone::Plain => palette::PLAIN_EDGE.sprite(),
        Tone::Outcome(Outcome::Block) => palette::signals().block.sprite(),
        Tone::Outcome(Outcome::HeroHit) => palette::signals().hero_hits.sprite(),
        Tone::Outcome(Outcome::MonsterHit) => palette::signals().monster_hits.sprite(),
        Tone::Chosen => palette::CHOSEN_EDGE.sprite(),
        Tone::Muted => palette::DIM_EDGE.sprite(),
    }
}

/// The words of a pair in its tone: its frame's colour, but lighter where
/// the frame is too dark to read words in (4.5 : 1, `palette::WORDS_ON_GROUNDS`).
fn tone_ink(tone: Tone) -> Color {
    match tone {
        Tone::Plain => CARD_MUTED.sprite(),
        Tone::Muted => palette::DIM_TEXT.sprite(),
        Tone::Outcome(_) | Tone::Chosen => tone_color(tone),
    }
}

/// A face to write with on a card drawn `scale` times larger.
type Pen<'a> = (Option<&'a Handle<Font>>, f32);

/// Text on the table's layer.
fn text(t: &str, px: f32, at: Vec3, color: Color, pen: Pen) -> impl Bundle {
    text_at(t, px, at, color, pen, Anchor::CENTER)
}

/// A text face at `px`: `font` if loaded, else Bevy's default.
pub fn text_font(font: Option<&Handle<Font>>, px: f32) -> TextFont {
    let mut f = TextFont { font_size: FontSize::Px(px), ..default() };
    if let Some(h) = font {
        f.font = h.clone().into();
    }
    f
}

/// Text anchored at `anchor` (left-anchored text is left-justified). On a
/// card drawn `scale` times larger the glyphs are set that much larger and
/// the text shrunk back by as much, so they stay sharp.
fn text_at(t: &str, px: f32, at: Vec3, color: Color, (font, scale): Pen, anchor: Anchor) -> impl Bundle {
    let text_font = text_font(font, px * scale);
    let justify = if anchor.0.x < 0.0 { Justify::Left } else { Justify::Center };
    (
        Text2d::new(t.to_owned()),
        text_font,
        TextColor(color),
        TextLayout::justify(justify),
        anchor,
        Transform::from_translation(at).with_scale(Vec3::splat(1.0 / scale)),
        layer(),
        Pickable::IGNORE,
    )
}

fn rect(color: Color, size: Vec2, at: Vec3) -> impl Bundle {
    (Sprite::from_color(color, size), Transform::from_translation(at), layer())
}

/// A card's body: the part the pointer finds (sprite picking needs the
/// `Pickable` component; text and icons on it are left out).
fn body_rect(color: Color, size: Vec2, at: Vec3) -> impl Bundle {
    (rect(color, size, at), Pickable::default())
}

/// A number-key badge in a card's top right corner (a card that has one has
/// no health token there); on a card in hand, under its corner value, where
/// the next card of a fanned hand leaves it in sight.
fn badge(c: &mut ChildSpawnerCommands, art: &Art, n: u8, size: Vec2, kind: Kind) {
    let y = size.y / 2.0 - BADGE / 2.0 - 2.0;
    let at = match kind {
        Kind::Hand => Vec3::new(-size.x / 2.0 + BADGE / 2.0 + 4.0, y - top_row(size), 0.6),
        _ => Vec3::new(size.x / 2.0 - BADGE / 2.0 - 2.0, y, 0.6),
    };
    c.spawn((rect(CARD_GOLD.sprite(), Vec2::splat(BADGE), at), Pickable::IGNORE));
    c.spawn(text(&n.to_string(), 12.0, at + Vec3::Z * 0.1, palette::BLACK.sprite(), art.text()));
}

struct Art<'a> {
    /// The title face, for values and names.
    font: Option<&'a Handle<Font>>,
    /// The text face, for everything else.
    body: Option<&'a Handle<Font>>,
    icons: Option<&'a Icons>,
    cards: Option<&'a CardArt>,
    /// How much larger than at 100 % the table draws its cards.
    scale: f32,
}

impl<'a> Art<'a> {
    fn title(&self) -> Pen<'a> {
        (self.font, self.scale)
    }

    fn text(&self) -> Pen<'a> {
        (self.body, self.scale)
    }
}

fn spawn_card(commands: &mut Commands, art: &Art, face: &Face, placed: Placed, from: Vec2, now: f32, linger: f32) {
    // The face is drawn at 100 % and the card grown (`move_cards`).
    let size = placed.size / art.scale;
    let turns = matches!(face.kind, Kind::Hand | Kind::Monster) && from.distance(placed.center) > 1.0;
    commands
        .spawn((
            Name::new(format!("Card {}", face.key)),
            TableCard {
                key: face.key.clone(),
                kind: face.kind,
                action: face.action.clone(),
                intent: face.intent.clone(),
                hover: face.hover.clone(),
                from,
                to: placed.center,
                start: now,
                leaving: false,
                linger_until: (linger > 0.0).then_some(now + linger),
                look: face.look(),
                size: placed.size,
                scale: art.scale,
                held: None,
                grab: Vec2::ZERO,
                moved: 0.0,
                hovered: false,
                order: match face.spot {
                    Spot::Hand { index, .. } => index as f32,
                    _ => 0.0,
                },
                turns,
            },
            Transform::from_translation(Vec3::new(0.0, 0.0, 20.0)),
            Visibility::Hidden,
            layer(),
            DespawnOnExit(Screen::Playing),
        ))
        .with_children(|c| match face.kind {
            Kind::Foe => foe_card(c, art, face, size),
            Kind::Pair => pair_frame(c, art, face, size),
            Kind::Label => {
                c.spawn(body_rect(Color::NONE, size, Vec3::ZERO));
                c.spawn(text(&face.name, 13.0, Vec3::Z * 0.2, CARD_MUTED.sprite(), art.text()));
            }
            Kind::Pile => pile(c, art, face, size),
            _ => {
                small_card(c, art, face, size);
                if turns {
                    card_back(c, art, face.kind, size);
                }
            }
        });
}

/// The back a card shows until it has turned over: a Hero's deck's, or a
/// Monster's (tinted red).
fn card_back(c: &mut ChildSpawnerCommands, art: &Art, kind: Kind, size: Vec2) {
    let tint = if kind == Kind::Monster { Color::srgb(1.0, 0.62, 0.55) } else { Color::WHITE };
    let sprite = match art.cards {
        Some(cards) => CardArt::stretched(&cards.back, tint, size + Vec2::splat(4.0)),
        None => Sprite::from_color(palette::HERO_CARD.sprite(), size),
    };
    c.spawn((CardBack, sprite, Transform::from_xyz(0.0, 0.0, 0.95), layer(), Pickable::IGNORE));
}

/// A Hero's Draw Pile (a few backs stacked, the count on them) or Discard
/// Pile (the top card's value on its face, the count in the corner); an
/// empty pile is its faint outline.
fn pile(c: &mut ChildSpawnerCommands, art: &Art, face: &Face, size: Vec2) {
    let discard = matches!(face.key, super::faces::CardKey::Pile { discard: true, .. });
    let count = face.count.unwrap_or(0);
    c.spawn(body_rect(Color::NONE, size, Vec3::ZERO));
    let (body, edge) = card_colors(face);
    if count == 0 {
        rounded(c, art, |a| &a.frame, edge.with_alpha(0.35), size, Vec3::Z * 0.01);
        rounded(c, art, |a| &a.face, palette::MAT.sprite(), size - Vec2::splat(3.0), Vec3::Z * 0.02);
        return;
    }
    // A thicker pile for more cards: up to three edges showing under the top.
    let layers = count.min(3);
    for i in (0..layers).rev() {
        let at = Vec3::new(1.5 * i as f32, -1.5 * i as f32, 0.01 + 0.1 * (layers - i) as f32);
        if discard && i == 0 {
            rounded(c, art, |a| &a.frame, edge, size, at);
            rounded(c, art, |a| &a.face, body, size - Vec2::splat(3.0), at + Vec3::Z * 0.01);
        } else {
            let sprite = match art.cards {
                Some(cards) => CardArt::stretched(&cards.back, Color::WHITE, size),
                None => Sprite::from_color(palette::HERO_CARD.sprite(), size),
            };
            c.spawn((sprite, Transform::from_translation(at), layer(), Pickable::IGNORE));
        }
    }
    let ink = CARD_TEXT.sprite();
    if discard {
        // Above the count in its foot.
        c.spawn(text(&face.value, (size.y * 0.4).max(10.0), Vec3::new(0.0, 6.0, 0.5), ink, art.title()));
    }
    // The count on a dark pill: centred on the backs, in the discard's foot.
    let pill = Vec2::new(size.x * 0.62, 13.0);
    let at = if discard { Vec3::new(0.0, -size.y / 2.0 + pill.y / 2.0 + 2.0, 0.55) } else { Vec3::Z * 0.55 };
    c.spawn((rect(palette::BLACK.sprite_alpha(0.62), pill, at), Pickable::IGNORE));
    c.spawn(text(&count.to_string(), 10.0, at + Vec3::Z * 0.05, ink, art.text()));
}

/// A Hero's or Monster's Action Card, or a drawn Ecology card: a framed card
/// in its owner's colours, its value large in the top corner (and small,
/// upside down, in the bottom one), its owner's picture on a lit field, the
/// owner's name on a band at the foot.
fn small_card(c: &mut ChildSpawnerCommands, art: &Art, face: &Face, size: Vec2) {
    let (body, edge) = card_colors(face);
    // A card that may be played now is framed in gold.
    let (rim, border) = if face.action.is_some() { (CARD_GOLD.sprite(), 6.0) } else { (edge, 4.0) };
    // What the pointer finds: the card's whole rectangle, frame and all.
    c.spawn(body_rect(Color::NONE, size + Vec2::splat(border), Vec3::ZERO));
    rounded(c, art, |a| &a.frame, rim, size + Vec2::splat(border), Vec3::Z * 0.01);
    rounded(c, art, |a| &a.face, body, size, Vec3::Z * 0.1);
    // A thin line just inside the edge, as printed cards have.
    rounded(c, art, |a| &a.frame, edge.with_alpha(0.45), size - Vec2::splat(7.0), Vec3::Z * 0.11);
    rounded(c, art, |a| &a.face, body, size - Vec2::splat(9.0), Vec3::Z * 0.12);
    let top = top_row(size);
    // A value in words ("3 XP") goes under the picture: the picture makes room.
    let worded = face.value.chars().count() > 2;
    let (center, px) = match picture(size) {
        (center, px) if worded => (center + Vec2::Y * 8.0, px - 16.0),
        fits => fits,
    };
    if let Some(cards) = art.cards {
        let field = CardArt::stretched(&cards.field, edge.with_alpha(0.28), Vec2::splat((px * 1.6).min(size.x - 10.0)));
        c.spawn((field, Transform::from_translation(center.extend(0.15)), layer(), Pickable::IGNORE));
    }
    match art.icons.and_then(|i| i.image(face.icon.0, &face.icon.1)) {
        Some(image) => {
            let sprite = Sprite { image, color: edge, custom_size: Some(Vec2::splat(px)), ..default() };
            c.spawn((sprite, Transform::from_translation(center.extend(0.2)), layer(), Pickable::IGNORE));
        }
        None => {
            let mut t = Transform::from_translation(center.extend(0.2));
            t.rotate_z(std::f32::consts::FRAC_PI_4);
            c.spawn((Sprite::from_color(edge, Vec2::splat(px * 0.6)), t, layer(), Pickable::IGNORE));
        }
    }
    // The health token: a heart in the top right corner with what is left.
    if let Some(hp) = face.health {
        let corner = Vec3::new(size.x / 2.0 - HEART / 2.0 + 1.0, size.y / 2.0 - HEART / 2.0 + 1.0, 0.4);
        let red = palette::RED.sprite();
        let token = match art.icons.and_then(|i| i.image("ui", "health")) {
            Some(image) => Sprite { image, color: red, custom_size: Some(Vec2::splat(HEART)), ..default() },
            None => Sprite::from_color(red, Vec2::splat(HEART - 4.0)),
        };
        c.spawn((token, Transform::from_translation(corner), layer(), Pickable::IGNORE));
        c.spawn(text(&hp.to_string(), 11.0, corner + Vec3::new(0.0, 1.0, 0.1), CARD_TEXT.sprite(), art.text()));
    }
    let (named, foot) = caption(size, &face.value, &face.name);
    if !worded {
        // The value in the corners, as a player finds it in a fanned hand.
        let at = Vec3::new(-size.x / 2.0 + 5.0, size.y / 2.0 - top / 2.0 - 1.0, 0.3);
        c.spawn(text_at(&face.value, top * 0.95, at, CARD_TEXT.sprite(), art.title(), Anchor::CENTER_LEFT));
        // Upside down in the foot's corner, where a card has room for it.
        if foot {
            let at = Vec3::new(size.x / 2.0 - 6.0, -size.y / 2.0 + top * 0.3 + 3.0, 0.3);
            let upside_down = Transform::from_translation(at)
                .with_scale(Vec3::splat(1.0 / art.scale))
                .with_rotation(Quat::from_rotation_z(PI));
            let low =
                text_at(&face.value, top * 0.5, at, CARD_TEXT.sprite_alpha(0.8), art.title(), Anchor::CENTER_LEFT);
            c.spawn(low).insert(upside_down);
        }
    } else {
        // "3 XP", "drawn": across the card, under the picture.
        let at = Vec3::new(0.0, center.y - px / 2.0 - 7.0, 0.3);
        c.spawn(text(&face.value, 12.0, at, CARD_TEXT.sprite(), art.title()));
    }
    // The owner's name on a band at the foot; long Monster names keep their
    // words: two lines, a size smaller if need be.
    let band = name_band(size);
    let band_y = -size.y / 2.0 + 4.5 + band / 2.0;
    c.spawn((
        rect(palette::BLACK.sprite_alpha(0.45), Vec2::new(size.x - 9.0, band), Vec3::new(0.0, band_y, 0.25)),
        Pickable::IGNORE,
    ));
    let (name, px) = named;
    c.spawn(text(&name, px, Vec3::new(0.0, band_y, 0.3), CARD_TEXT.sprite(), art.text()));
    if !face.note.is_empty() {
        let at = Vec3::new(0.0, band_y + band / 2.0 + 6.0, 0.3);
        c.spawn((
            rect(palette::BLACK.sprite_alpha(0.6), Vec2::new(size.x - 9.0, 12.0), at - Vec3::Z * 0.05),
            Pickable::IGNORE,
        ));
        c.spawn(text(&face.note, 9.0, at, CARD_GOLD.sprite(), art.text()));
    }
    if let Some(n) = face.number {
        badge(c, art, n, size, face.kind);
    }
}

/// A rounded rectangle from the cards' frame or face texture (a plain one
/// before the textures are made, as in tests).
fn rounded(
    c: &mut ChildSpawnerCommands,
    art: &Art,
    image: fn(&CardArt) -> &Handle<Image>,
    color: Color,
    size: Vec2,
    at: Vec3,
) {
    match art.cards {
        Some(cards) => {
            let sprite = CardArt::sliced(image(cards), color, size);
            c.spawn((sprite, Transform::from_translation(at), layer(), Pickable::IGNORE));
        }
        None => {
            c.spawn((rect(color, size, at), Pickable::IGNORE));
        }
    }
}

/// The height of a card's top row: its corner value, number badge and
/// health token.
pub fn top_row(size: Vec2) -> f32 {
    (size.y * 0.26).clamp(14.0, 26.0)
}

/// The height of the band at a card's foot that names its owner.
pub fn name_band(size: Vec2) -> f32 {
    (size.y * 0.2).clamp(12.0, 22.0)
}

/// The owner's name on a card's foot band, fitted (text and size), and
/// whether the card's value shows small and upside down in the foot's
/// corner too: only where the name fits clear of it on both sides, to stay
/// centred ("Dripstone Mimic" ran over the Monster card's 9); a long name
/// keeps its words and the corner goes without (the value is at the top).
pub fn caption(size: Vec2, value: &str, name: &str) -> ((String, f32), bool) {
    let fit = |width: f32| fit_text(name, width, 10.0, 8.0, 2);
    // A value in words ("3 XP") goes across the card instead.
    if value.chars().count() <= 2 && size.y >= 90.0 {
        let clear = fit(size.x - 10.0 - 2.0 * (text_width(value, top_row(size) * 0.5) + 2.0));
        if !clear.0.contains('…') {
            return (clear, true);
        }
    }
    (fit(size.x - 10.0), false)
}

/// Where a card's picture goes (its centre) and its side: between the top
/// row and the name band, inside the inner line.
pub fn picture(size: Vec2) -> (Vec2, f32) {
    let (top, bottom) = (size.y / 2.0 - top_row(size), -size.y / 2.0 + 4.5 + name_band(size));
    let px = (top - bottom - 4.0).min(size.x - 16.0).max(4.0);
    (Vec2::new(0.0, (top + bottom) / 2.0), px)
}

/// A card's face and frame colours: a Hero's by class, a Monster's red.
fn card_colors(face: &Face) -> (Color, Color) {
    match face.kind {
        Kind::Hero | Kind::Hand | Kind::Pile => {
            let (body, edge) = palette::class_tones(&face.icon.1);
            (body.sprite(), edge.sprite())
        }
        kind => color(kind),
    }
}

/// A Combat Pair's frame: the outcome and the damage both ways between its
/// two cards, lit by what the pair would do.
fn pair_frame(c: &mut ChildSpawnerCommands, art: &Art, face: &Face, size: Vec2) {
    let tone = tone_color(face.tone);
    let (edge, width) = if face.action.is_some() { (CARD_GOLD.sprite(), 4.0) } else { (tone.with_alpha(0.8), 2.0) };
    c.spawn(body_rect(edge, size + Vec2::splat(width), Vec3::ZERO));
    c.spawn(body_rect(palette::CARD_FACE.sprite_alpha(0.96), size, Vec3::Z * 0.1));
    if !face.value.is_empty() {
        // Both fit the frame's width (split or smaller): neighbours' never meet.
        let ((value, value_px), (note, note_px)) = pair_words(&face.value, &face.note, size.x - 4.0);
        let (value_y, note_y) = if note.contains('\n') { (12.0, -6.0) } else { (9.0, -8.0) };
        c.spawn(text(&value, value_px, Vec3::new(0.0, value_y, 0.3), tone_ink(face.tone), art.text()));
        c.spawn(text(&note, note_px, Vec3::new(0.0, note_y, 0.3), CARD_TEXT.sprite(), art.text()));
    } else if !face.note.is_empty() {
        // An empty slot waiting for the Hero's next card.
        c.spawn(text(&face.note, 11.0, Vec3::new(0.0, -size.y / 4.0, 0.3), CARD_MUTED.sprite(), art.text()));
    }
    if let Some(n) = face.number {
        // On the frame's top edge, between the Monster card's value and its
        // health token, clear of the outcome in the gap; over the pair's
        // cards even when one is hovered and lifted (Sil's 2 hid under her
        // Monster card while the pointer rested on it).
        let at = Vec3::new(0.0, size.y / 2.0 - 6.0, 28.0);
        c.spawn((rect(CARD_GOLD.sprite(), Vec2::splat(16.0), at), Pickable::IGNORE));
        c.spawn(text(&n.to_string(), 12.0, at + Vec3::Z * 0.1, palette::BLACK.sprite(), art.text()));
    }
}

/// A Monster card (or the Final Entity): icon and name, the facts, a health
/// bar per individual, then the Health States and abilities in small print.
fn foe_card(c: &mut ChildSpawnerCommands, art: &Art, face: &Face, size: Vec2) {
    let (body, edge) = color(Kind::Foe);
    let defeated = face.rows.iter().all(|r| r.health == 0);
    let edge = if defeated { CARD_MUTED.sprite() } else { edge };
    c.spawn(body_rect(Color::NONE, size + Vec2::splat(4.0), Vec3::ZERO));
    rounded(c, art, |a| &a.frame, edge, size + Vec2::splat(4.0), Vec3::Z * 0.01);
    rounded(c, art, |a| &a.face, body, size, Vec3::Z * 0.1);
    let left = -size.x / 2.0 + 8.0;
    let top = size.y / 2.0;
    // Its picture: the Monster's icon on a lit field in a dark inset.
    let pic = FOE_HEAD - 10.0;
    let pic_at = Vec3::new(left + pic / 2.0 - 2.0, top - pic / 2.0 - 5.0, 0.12);
    rounded(c, art, |a| &a.face, palette::BLACK.sprite_alpha(0.55), Vec2::splat(pic), pic_at);
    if let Some(cards) = art.cards {
        let field = CardArt::stretched(&cards.field, edge.with_alpha(0.45), Vec2::splat(pic * 1.1));
        c.spawn((field, Transform::from_translation(pic_at + Vec3::Z * 0.05), layer(), Pickable::IGNORE));
    }
    if let Some(image) = art.icons.and_then(|i| i.image(face.icon.0, &face.icon.1)) {
        let sprite = Sprite { image, color: edge, custom_size: Some(Vec2::splat(pic - 6.0)), ..default() };
        c.spawn((sprite, Transform::from_translation(pic_at + Vec3::Z * 0.1), layer(), Pickable::IGNORE));
    }
    // The name on a banner beside it.
    let beside = left + pic + 2.0;
    let banner = Vec2::new(size.x / 2.0 - 4.0 - beside, 24.0);
    let banner_at = Vec3::new(beside + banner.x / 2.0, top - 17.0, 0.15);
    c.spawn((rect(palette::BLACK.sprite_alpha(0.4), banner, banner_at), Pickable::IGNORE));
    let (name, name_px) = fit_text(&face.name, banner.x - 8.0, 18.0, 12.0, 1);
    let name_at = Vec3::new(beside + 5.0, top - 17.0, 0.3);
    c.spawn(text_at(&name, name_px, name_at, CARD_GOLD.sprite(), art.title(), Anchor::CENTER_LEFT));
    // No room left under the rows for even the "hover for all" line (a
    // large UI scale): the note under the name says the rest is there.
    let print_top = top - FOE_HEAD - FOE_ROW * face.rows.len() as f32 - 4.0;
    let bottom = -size.y / 2.0 + 4.0;
    let (shown, more) = print_shown(&face.print, size.x, print_top - bottom);
    let cut = shown < face.print.len() && !more;
    let whole = if cut { format!("{} · more on hover", face.note) } else { face.note.clone() };
    // One line while it fits at 9 px, else two: on one, "fights Bren and…"
    // lost the Hero who fights it at 1280×800.
    let (mut note, mut note_px) = fit_text(&whole, banner.x - 4.0, 11.0, 9.0, 1);
    if note.ends_with('…') {
        (note, note_px) = fit_text(&whole, banner.x - 4.0, 9.0, 8.0, 2);
    }
    let note_at = Vec3::new(beside + 3.0, top - 41.0, 0.3);
    c.spawn(text_at(&note, note_px, note_at, CARD_MUTED.sprite(), art.text(), Anchor::CENTER_LEFT));
    let bar_w = (size.x * 0.45).min(130.0);
    for (i, row) in face.rows.iter().enumerate() {
        let y = top - FOE_HEAD - FOE_ROW * (i as f32 + 0.5);
        let lit = row.action.is_some();
        // The whole row answers a click when damage may go there.
        c.spawn((
            Sprite::from_color(
                if lit { CARD_GOLD.sprite().with_alpha(0.18) } else { Color::NONE },
                Vec2::new(size.x - 8.0, FOE_ROW - 2.0),
            ),
            Transform::from_xyz(0.0, y, 0.15),
            layer(),
            Pickable::default(),
            RowAction(row.action.clone()),
        ));
        let bar_x = size.x / 2.0 - 8.0 - bar_w / 2.0;
        // Left of the track: its number key, then its Armor (a breastplate).
        let mut free = bar_x - bar_w / 2.0 - 4.0;
        if row.armor > 0 {
            let at = Vec3::new(free - 6.0, y, 0.3);
            c.spawn(text(&row.armor.to_string(), 11.0, at, CARD_TEXT.sprite(), art.text()));
            if let Some(image) = art.icons.and_then(|i| i.image("ui", "armor")) {
                let sprite =
                    Sprite { image, color: CARD_TEXT.sprite(), custom_size: Some(Vec2::splat(14.0)), ..default() };
                c.spawn((sprite, Transform::from_translation(at - Vec3::X * 14.0), layer(), Pickable::IGNORE));
            }
            free -= 24.0;
        }
        if let Some(n) = row.number {
            let at = Vec3::new(free - 8.0, y, 0.6);
            c.spawn((rect(CARD_GOLD.sprite(), Vec2::splat(14.0), at), Pickable::IGNORE));
            c.spawn(text(&n.to_string(), 11.0, at + Vec3::Z * 0.1, palette::BLACK.sprite(), art.text()));
            free -= 18.0;
        }
        // The name keeps to the room the track leaves it.
        let (name, name_px) = fit_text(&row.name, free - left - 2.0, 11.0, 8.0, 1);
        c.spawn(text_at(&name, name_px, Vec3::new(left, y, 0.3), CARD_TEXT.sprite(), art.text(), Anchor::CENTER_LEFT));
        health_track(c, art, row, Vec2::new(bar_x, y), bar_w);
    }
    let mut y = print_top;
    for line in &face.print[..shown] {
        let lines = super::layout::print_lines(line, size.x);
        if let Some(strip) = &line.strip {
            state_strip(c, art, strip, Vec2::new(left, y), print_width(size.x));
            y -= PRINT_LINE * lines as f32;
            continue;
        }
        // An ability's cost: its Power icons, then its words beside them.
        let indent = super::layout::print_indent(line);
        for i in 0..line.power {
            let at = Vec3::new(left + POWER_ICON * (f32::from(i) + 0.5), y - PRINT_LINE / 2.0, 0.3);
            power_icon(c, art, at);
        }
        let at = Vec3::new(left + indent, y, 0.3);
        c.spawn((
            text_at(&line.text, PRINT_PX, at, CARD_MUTED.sprite(), art.text(), Anchor::TOP_LEFT),
            TextBounds::new_horizontal((print_width(size.x) - indent) * art.scale),
        ));
        y -= PRINT_LINE * lines as f32;
    }
    // The rest is in the hover box.
    if more {
        let at = Vec3::new(left, y, 0.3);
        c.spawn(text_at("… (hover for all)", 10.0, at, CARD_MUTED.sprite(), art.text(), Anchor::TOP_LEFT));
    }
}

/// The Health States' strip, its top-left corner at `at`: a segment per
/// state, named by its individuals alive; the state that holds now lit in
/// gold, those already passed dark, those to come outlined.
fn state_strip(c: &mut ChildSpawnerCommands, art: &Art, strip: &super::faces::StateStrip, at: Vec2, width: f32) {
    let n = strip.alive.len().max(1) as f32;
    let gap = 3.0;
    let h = PRINT_LINE * super::layout::STRIP_LINES as f32 - 4.0;
    let w = ((width - gap * (n - 1.0)) / n).max(8.0);
    for (i, alive) in strip.alive.iter().enumerate() {
        let x = at.x + i as f32 * (w + gap) + w / 2.0;
        let y = at.y - h / 2.0 - 1.0;
        // Light words on dark fills: dark words on gold read faint here.
        let lit = strip.now == Some(i);
        let (fill, ink) = match strip.now {
            Some(k) if k == i => (CARD_GOLD.mix(palette::BLACK, 0.45).sprite(), CARD_TEXT.sprite()),
            Some(k) if i < k => (palette::BLACK.sprite_alpha(0.35), CARD_MUTED.sprite().with_alpha(0.6)),
            _ => (CARD_MUTED.sprite().with_alpha(0.25), CARD_TEXT.sprite()),
        };
        if lit {
            let edge = Vec2::new(w + 3.0, h + 3.0);
            c.spawn((rect(CARD_GOLD.sprite(), edge, Vec3::new(x, y, 0.155)), Pickable::IGNORE));
        }
        c.spawn((rect(fill, Vec2::new(w, h), Vec3::new(x, y, 0.16)), Pickable::IGNORE));
        let label = if w >= 44.0 { format!("{alive} alive") } else { alive.to_string() };
        // Left-set on whole pixels: centred, its glyphs fell between pixels
        // and read faint.
        let px = PRINT_PX + 1.0;
        let from = Vec3::new((x - super::layout::text_width(&label, px) / 2.0).round(), y.round(), 0.3);
        c.spawn(text_at(&label, px, from, ink, art.text(), Anchor::CENTER_LEFT));
    }
}

/// A Power icon (a bolt in the Power Cards' gold), as on the book's cards
/// beside an ability's name; a gold diamond before the icons are loaded.
fn power_icon(c: &mut ChildSpawnerCommands, art: &Art, at: Vec3) {
    let side = POWER_ICON - 1.0;
    let sprite = match art.icons.and_then(|i| i.image("ui", "power")) {
        Some(image) => Sprite { image, color: CARD_GOLD.sprite(), custom_size: Some(Vec2::splat(side)), ..default() },
        None => Sprite::from_color(CARD_GOLD.sprite(), Vec2::splat(side * 0.6)),
    };
    c.spawn((sprite, Transform::from_translation(at), layer(), Pickable::IGNORE));
}

/// An individual's Health as a track: a box a point while the boxes are
/// wide enough to count, filled up to what is left.
fn health_track(c: &mut ChildSpawnerCommands, art: &Art, row: &super::faces::Row, at: Vec2, width: f32) {
    let f = if row.max == 0 { 0.0 } else { f32::from(row.health) / f32::from(row.max) };
    let signals = palette::signals();
    let fill = palette::by_health(f, [signals.healthy, signals.wounded, signals.dying]).sprite();
    let h = 14.0;
    c.spawn((rect(palette::BAR_BACK.sprite(), Vec2::new(width, h), at.extend(0.2)), Pickable::IGNORE));
    if f > 0.0 {
        let w = width * f;
        c.spawn((
            rect(fill, Vec2::new(w, h - 2.0), Vec3::new(at.x - width / 2.0 + w / 2.0, at.y, 0.25)),
            Pickable::IGNORE,
        ));
        // The Health that Damage already placed will take, dimmed at the
        // fill's end: the Round's Damage lands only once all of it is placed.
        let lost = width * f32::from(row.placed) / f32::from(row.max.max(1));
        if lost > 0.0 {
            let x = at.x - width / 2.0 + w - lost / 2.0;
            let doomed = rect(palette::BAR_BACK.sprite_alpha(0.6), Vec2::new(lost, h - 2.0), Vec3::new(x, at.y, 0.255));
            c.spawn((doomed, Pickable::IGNORE));
        }
    }
    // A mark a point while the boxes are wide enough to count, else every five.
    let point = width / f32::from(row.max.max(1));
    let every = if point >= 6.0 { 1 } else { 5 };
    let step = point * f32::from(every);
    if step >= 6.0 {
        for i in (every..row.max).step_by(usize::from(every)) {
            let x = at.x - width / 2.0 + step * f32::from(i);
            let line = rect(palette::BAR_BACK.sprite_alpha(0.8), Vec2::new(1.0, h - 2.0), Vec3::new(x, at.y, 0.26));
            c.spawn((line, Pickable::IGNORE));
        }
    }
    let words = row.health_words();
    // On a dark pill of its own, readable over the fill and the marks.
    let pill = Vec2::new(super::layout::text_width(&words, 10.0) + 8.0, h - 3.0);
    c.spawn((rect(palette::BAR_BACK.sprite_alpha(0.85), pill, at.extend(0.28)), Pickable::IGNORE));
    c.spawn(text(&words, 10.0, at.extend(0.3), CARD_TEXT.sprite(), art.text()));
}

/// The health token's size.
const HEART: f32 = 22.0;
/// A number badge's size.
const BADGE: f32 = 16.0;

/// Where a card comes from: a Hero's card in hand from their Draw Pile
/// (from below the table when it is not shown).
fn deck(face: &Face, layout: &TableLayout, area: Rect, to: Vec2) -> Vec2 {
    match face.kind {
        Kind::Hand => pile_at(&face.key, false, layout).unwrap_or(Vec2::new(to.x, area.max.y + 120.0)),
        Kind::Monster | Kind::Foe => Vec2::new(area.max.x + 120.0, area.min.y + 40.0),
        Kind::Ecology => Vec2::new(area.max.x + 160.0, area.min.y + 60.0),
        // Pairs, labels and piles simply appear where they are.
        Kind::Pair | Kind::Label | Kind::Hero | Kind::Pile => to,
    }
}

/// Where a card goes when it leaves play: a Hero's to their Discard Pile
/// while it is shown, the rest off the table's edge.
fn discard(card: &TableCard, layout: &TableLayout, area: Rect) -> Vec2 {
    match card.kind {
        Kind::Hero | Kind::Hand => {
            pile_at(&card.key, true, layout).unwrap_or(Vec2::new(area.min.x - 140.0, area.max.y))
        }
        _ => Vec2::new(area.max.x + 140.0, area.max.y),
    }
}

/// The Draw or Discard Pile of the Hero whose card `key` is, where it lies.
fn pile_at(key: &super::faces::CardKey, discard: bool, layout: &TableLayout) -> Option<Vec2> {
    let super::faces::CardKey::Hero { hero, .. } = key else { return None };
    Some(layout.get(&super::faces::CardKey::Pile { hero: *hero, discard })?.center)
}

/// The legal Actions of the players at the table: not those of a Hero whose
/// seat is a Companion's (it plays them itself), nor behind the curtain
/// another player's, nor online another seat's.
pub fn legal_at_table(delve: &Delve, seats: &Seats) -> Vec<Action> {
    // A replay only looks.
    if delve.read_only {
        return Vec::new();
    }
    let mut legal = delve.game().legal_actions();
    legal.retain(|a| crate::game::hotseat::action_hero(a).is_none_or(|h| !seats.players.is_companion(h)));
    if let Some(mine) = seats.heroes_at_table(delve.game()) {
        legal.retain(|a| crate::game::hotseat::action_hero(a).is_none_or(|h| mine.contains(&h)));
    }
    // Online, what the host would refuse this seat is greyed here, with its reason.
    legal.retain(|a| seats.online_refusal(delve.game(), a).is_none());
    legal
}

/// Every Hero's End turn, once two or more Heroes may end theirs and every
/// Hero with a move left may (each has its pair chosen, or none to choose):
/// one button makes them all, instead of a press per Hero. An Ability still
/// usable is used first, or not at all.
pub fn end_round(legal: &[Action]) -> Option<Vec<Action>> {
    use crate::game::hotseat::action_hero;
    let ends: Vec<Action> = legal.iter().filter(|a| matches!(a, Action::EndTurn { .. })).cloned().collect();
    let may_end = |h: u8| ends.contains(&Action::EndTurn { hero: h });
    // A choice that is no Hero's (the table's) is never skipped by it.
    let every_hero_may_end = legal.iter().all(|a| action_hero(a).is_some_and(may_end));
    (ends.len() >= 2 && every_hero_may_end).then_some(ends)
}

fn sync_cards(
    mut commands: Commands,
    (delve, seats): (Res<Delve>, Res<Seats>),
    // Like the board: the cards follow the game's stamp, and hear from the
    // events what the game no longer holds (cards drawn and resolved).
    news: Res<CardNews>,
    mut laid: Local<Option<(u64, u64)>>,
    area: Res<BoardArea>,
    window: Single<&Window, With<PrimaryWindow>>,
    time: Res<Time>,
    mut cards: Query<(Entity, &mut TableCard)>,
    mut mat: Query<(&mut Sprite, &mut Transform, &mut Visibility), With<CombatMat>>,
    mut geometry: ResMut<TableGeometry>,
    (ui_assets, icons, card_art): (
        Option<Res<crate::theme::style::UiAssets>>,
        Option<Res<Icons>>,
        Option<Res<CardArt>>,
    ),
    mut last: Local<Option<(Rect, Vec2, f32)>>,
    mut coloured_for: Local<crate::game::settings::Vision>,
    (mut arrangement, mut kept_scale): (Local<Option<bool>>, Local<Option<f32>>),
    // Each engagement's columns this Round; where each hand row lay when
    // the hands were last laid out, and in which Round.
    (mut kept_cols, mut row_spans): (
        Local<Option<((u64, u32), Vec<usize>)>>,
        Local<(Option<(u64, u32)>, Vec<super::layout::RowSpan>)>,
    ),
    settings: Option<Res<crate::game::settings::Settings>>,
) {
    let now = time.elapsed_secs();
    let whole = Rect::new(0.0, 0.0, window.width(), window.height());
    let area_rect = area.0.unwrap_or(whole);
    let screen = Vec2::new(window.width(), window.height());
    let lingering = cards.iter().any(|(_, c)| c.linger_until.is_some_and(|t| now >= t));
    let ui_scale = settings.as_ref().map_or(1.0, |s| s.ui_scale);
    let moved = *last != Some((area_rect, screen, ui_scale));
    let mut drawn: Vec<String> = if news.is_changed() { news.drawn.clone() } else { Vec::new() };
    // A few at most: a long undo or replay step is not a parade of cards.
    drawn.drain(..drawn.len().saturating_sub(4));
    let has_drawn = !drawn.is_empty();
    // The player chose other colours (⚙ Settings): every card is drawn again.
    let recolour = *coloured_for != palette::vision();
    *coloured_for = palette::vision();
    // The cards follow the game and, behind the curtain, whose hands are shown.
    let new_game = *laid != Some(delve.stamp());
    if !new_game && !seats.is_changed() && !moved && !lingering && !has_drawn && !recolour {
        return;
    }
    *laid = Some(delve.stamp());
    *last = Some((area_rect, screen, ui_scale));
    let legal = legal_at_table(&delve, &seats);
    let mut faces = table_faces(delve.game(), &legal);
    let moves = delve.history.as_ref().map(|h| (delve.stamp().0, h.len()));
    geometry.numbers.number(&mut faces, moves);
    // A card drawn and resolved at once still shows for a moment.
    for name in drawn {
        let key = ecology_key(&name);
        if !faces.iter().any(|f| f.key == key) {
            let index = faces.iter().filter(|f| f.kind == Kind::Ecology).count();
            let mut f = Face::new(key, Kind::Ecology, Spot::Ecology { index });
            f.value = "drawn".into();
            f.icon = ("elements", "feature".to_owned());
            f.hover = format!("{name} (drawn and resolved; the log tells what it did)");
            f.name = name;
            faces.push(f);
        }
    }
    // A Combat keeps the arrangement it was first laid out in (unless the
    // window changes): Monster cards on top or down the side.
    let in_combat = faces.iter().any(|f| f.kind == Kind::Foe);
    // Each engagement keeps its columns through a Round: a Monster's card
    // placed into a pair left its column, and the next Hero's pairs slid
    // 40-50 px into it.
    let round = delve.game().combat().filter(|_| in_combat).map(|c| (delve.stamp().0, c.round));
    let now_cols = super::faces::columns(&faces);
    let cols = match kept_cols.take() {
        Some((at, cols)) if Some(at) == round => (0..cols.len().max(now_cols.len()))
            .map(|g| cols.get(g).max(now_cols.get(g)).copied().unwrap_or(0))
            .collect(),
        _ => now_cols,
    };
    for f in faces.iter_mut() {
        if let Spot::Label { group } = f.spot {
            f.columns = cols.get(group).copied().unwrap_or(0);
        }
    }
    *kept_cols = round.map(|at| (at, cols));
    let kept = (*arrangement).filter(|_| in_combat && !moved);
    // The cards grow with the UI scale as far as the room allows, and keep
    // their size through the Combat while they still have room.
    let mut layout = lay_out_grown(&faces, area_rect, ui_scale, kept, (*kept_scale).filter(|_| in_combat && !moved));
    // A scale is kept once the hands are dealt: chosen over an empty table
    // (the Monsters' assignment) it held the hands small all the Combat.
    let scale = layout.scale;
    *kept_scale = (in_combat && layout.hands(&faces).is_some()).then_some(scale);
    *arrangement = in_combat.then_some(layout.aside);
    // A card played from a hand leaves a gap: the hands stay where they were
    // dealt until cards come into a hand (the next Round's deal, or a played
    // card taken back by Undo, which then lies where it lay) or the window
    // changes. Closed up as soon as the pointer left the hands, they slid
    // under it when it came back (a drag played the 8, the next drag where
    // the 5 lay played the 4), and every Hero's row moved when a Companion
    // played.
    let lying: Vec<(super::faces::CardKey, Kind, Placed)> =
        cards.iter().filter(|(_, c)| !c.leaving).map(|(_, c)| (c.key.clone(), c.kind, c.placed())).collect();
    let kinds: Vec<(super::faces::CardKey, Kind)> = lying.iter().map(|(k, w, _)| (k.clone(), *w)).collect();
    // The hands and piles where they lie now; a hand that gained a card
    // mid-Round (a reshuffle dealt Bren two for the one played) fitted into
    // its row's room, the other rows kept: laid anew, every hand moved.
    let kept: Option<Vec<(super::faces::CardKey, Placed)>> = if moved {
        None
    } else if super::faces::hands_unchanged(&faces, &kinds) {
        Some(
            faces
                .iter()
                .filter(|f| matches!(f.kind, Kind::Hand | Kind::Pile))
                .filter_map(|f| lying.iter().find(|(k, _, _)| *k == f.key).map(|(_, _, p)| (f.key.clone(), *p)))
                .collect(),
        )
    } else if round.is_some() && row_spans.0 == round {
        let foes: Vec<Rect> = faces
            .iter()
            .filter(|f| f.kind == Kind::Foe)
            .filter_map(|f| lying.iter().find(|(k, _, _)| *k == f.key).map(|(_, _, p)| p.rect()))
            .collect();
        let room = (layout.area, super::layout::HAND_GAP * layout.scale);
        super::layout::keep_rows(&faces, &row_spans.1, &lying, room, &foes)
    } else {
        None
    };
    let keep = kept.is_some();
    let kept = kept.unwrap_or_default();
    // A Monster card laid anew ends above the hands where they lie (at 150 %
    // a card grew down over Bren's hand and piles): it gives up the foot of
    // its small print, which its hover box holds. Where even its head and
    // its individuals' rows would not fit (a row, a place to click, was
    // drawn under the card's foot, over Bren's piles), the hands are laid
    // anew instead.
    let mut shortened: Vec<(&super::faces::CardKey, Placed)> = Vec::new();
    let mut keep_hands = keep;
    for f in faces.iter().filter(|f| keep && f.kind == Kind::Foe) {
        let least = super::layout::foe_least_height(f.rows.len()) * layout.scale;
        // One already lying there stays as it lies while its rows fit it:
        // laid anew as its small print grew mid-Round, it was too short
        // above the hands for its rows, and the hands were laid anew under
        // the pointer.
        // …and while it covers no pair laid anew (at 130 % it stayed as wide
        // as it lay, over the first column of Bren's pairs).
        let others: Vec<Rect> = faces
            .iter()
            .filter(|g| matches!(g.kind, Kind::Pair | Kind::Label | Kind::Hero | Kind::Monster))
            .filter_map(|g| layout.get(&g.key))
            .map(|p| p.rect())
            .collect();
        let clear = |p: &Placed| others.iter().all(|r| r.intersect(p.rect().inflate(-0.5)).is_empty());
        let lies = cards.iter().find(|(_, c)| c.key == f.key && !c.leaving).map(|(_, c)| c.placed());
        if let Some(at) = lies.filter(|p| p.size.y + 0.5 >= least && clear(p)) {
            shortened.push((&f.key, at));
            continue;
        }
        let Some(m) = layout.get(&f.key).map(|p| p.rect()) else { continue };
        let Some(top) = kept
            .iter()
            .map(|(_, p)| p.rect())
            .filter(|h| h.min.x < m.max.x && h.max.x > m.min.x && h.max.y > m.min.y)
            .map(|h| h.min.y)
            .reduce(f32::min)
        else {
            continue;
        };
        let bottom = top - super::layout::GAP;
        if m.max.y > bottom {
            if bottom - m.min.y < least {
                keep_hands = false;
                break;
            }
            let size = Vec2::new(m.width(), bottom - m.min.y);
            shortened.push((&f.key, Placed { center: Vec2::new(m.center().x, m.min.y + size.y / 2.0), size }));
        }
    }
    // Nor are hands kept where a pair or its label, laid anew, would cover them.
    let laid_anew: Vec<Rect> = faces
        .iter()
        .filter(|f| matches!(f.kind, Kind::Pair | Kind::Label))
        .filter_map(|f| layout.get(&f.key))
        .map(|p| p.rect().inflate(-0.5))
        .collect();
    keep_hands &= kept.iter().all(|(_, p)| laid_anew.iter().all(|r| r.intersect(p.rect()).is_empty()));
    if keep_hands {
        // The piles beside the hands stay too: moved alone they slid over
        // the next Hero's cards until the pointer left.
        for (key, at) in kept.iter().map(|(k, p)| (k, *p)).chain(shortened) {
            layout.set(key, at);
        }
    } else {
        *row_spans = (round, super::layout::row_spans(&faces, &layout));
    }
    let combat = faces.iter().any(|f| f.kind == Kind::Foe);
    let font = ui_assets.as_ref().map(|a| &a.title_font);
    let body = ui_assets.as_ref().map(|a| &a.body_font);
    let art = Art { font, body, icons: icons.as_deref(), cards: card_art.as_deref(), scale };
    for (entity, mut card) in &mut cards {
        let placed = faces.iter().find(|f| f.key == card.key).and_then(|f| layout.get(&f.key).map(|p| (f, p)));
        match placed {
            Some((f, p))
                if recolour && card.held.is_none()
                    || card.look != f.look()
                    || card.held.is_none() && p.size != card.size =>
            {
                // Same card, new face: redraw it where it lies.
                let here = current(&card, now);
                commands.entity(entity).despawn();
                spawn_card(&mut commands, &art, f, p, here, now, 0.0);
            }
            Some((f, p)) => {
                card.linger_until = card.linger_until.filter(|t| now < *t);
                card.action = f.action.clone();
                card.intent = f.intent.clone();
                card.hover = f.hover.clone();
                if card.to != p.center && !card.leaving {
                    card.from = current(&card, now);
                    card.to = p.center;
                    card.start = now;
                }
            }
            None if !card.leaving && card.linger_until.is_none_or(|t| now >= t) => {
                card.from = current(&card, now);
                card.to = discard(&card, &layout, area_rect);
                card.start = now;
                card.leaving = true;
                card.action = None;
                card.intent = None;
                card.linger_until = None;
            }
            None => {}
        }
    }
    for f in &faces {
        if cards.iter().any(|(_, c)| c.key == f.key) {
            continue;
        }
        let Some(p) = layout.get(&f.key) else { continue };
        let linger = if f.kind == Kind::Ecology { LINGER } else { 0.0 };
        spawn_card(&mut commands, &art, f, p, deck(f, &layout, area_rect, p.center), now, linger);
    }
    // The mat under the Combat.
    let center = to_world(area_rect.center(), screen);
    match mat.single_mut() {
        Ok((mut sprite, mut transform, mut visibility)) => {
            sprite.custom_size = Some(area_rect.size());
            transform.translation = center.extend(0.0);
            *visibility = if combat { Visibility::Inherited } else { Visibility::Hidden };
        }
        Err(_) => {
            commands.spawn((
                Name::new("Combat mat"),
                CombatMat,
                Sprite::from_color(MAT.sprite(), area_rect.size()),
                Transform::from_translation(center.extend(0.0)),
                if combat { Visibility::Inherited } else { Visibility::Hidden },
                layer(),
                DespawnOnExit(Screen::Playing),
            ));
        }
    }
    geometry.numbered = super::faces::numbered(&faces);
    geometry.targets = targets(&faces, &layout);
    geometry.offered = faces
        .iter()
        .flat_map(|f| f.action.iter().chain(f.rows.iter().filter_map(|r| r.action.as_ref())))
        .cloned()
        .collect();
    geometry.layout = Some(layout);
    geometry.room = area_rect;
}

/// Where each move on the table is made.
fn targets(faces: &[Face], layout: &TableLayout) -> Vec<ClickTarget> {
    let mut out = Vec::new();
    let k = layout.scale;
    for f in faces {
        let Some(p) = layout.get(&f.key) else { continue };
        if let Some(a) = &f.action {
            let z = match f.kind {
                Kind::Pair | Kind::Label | Kind::Foe => 9.9,
                _ => 19.9,
            };
            out.push(ClickTarget { rect: p.rect(), action: a.clone(), z });
        }
        let top = p.center.y - p.size.y / 2.0;
        for (i, r) in f.rows.iter().enumerate() {
            let Some(a) = &r.action else { continue };
            let center = Vec2::new(p.center.x, top + k * (FOE_HEAD + FOE_ROW * (i as f32 + 0.5)));
            let rect = Rect::from_center_size(center, Vec2::new(p.size.x - 20.0 * k, (FOE_ROW - 12.0) * k));
            // Over the card's body, under its text.
            out.push(ClickTarget { rect, action: a.clone(), z: 10.12 });
        }
    }
    out
}

fn progress(card: &TableCard, now: f32) -> f32 {
    ((now - card.start) / FLIGHT).clamp(0.0, 1.0)
}

fn current(card: &TableCard, now: f32) -> Vec2 {
    card.from.lerp(card.to, eased(progress(card, now)))
}

/// Fast out, slow in: a card slows as it lands.
fn eased(t: f32) -> f32 {
    1.0 - (1.0 - t).powi(3)
}

/// Logical screen pixels (y down) to the card camera's world (y up, centred).
pub fn to_world(p: Vec2, screen: Vec2) -> Vec2 {
    Vec2::new(p.x - screen.x / 2.0, screen.y / 2.0 - p.y)
}

/// Puts every card at its place, moves flying ones, despawns arrived
/// discards, and marks a card [`Animating`] while it moves or, drawn, waits
/// to leave.
fn move_cards(
    mut commands: Commands,
    time: Res<Time>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut jolts: ResMut<Jolts>,
    mut cards: Query<(Entity, &TableCard, &mut Transform, &mut Visibility, Has<Animating>), Without<CardBack>>,
    mut backs: Query<(Entity, &ChildOf, &mut Visibility), With<CardBack>>,
) {
    let now = time.elapsed_secs();
    let screen = Vec2::new(window.width(), window.height());
    if !jolts.0.is_empty() {
        jolts.forget_old(now);
    }
    for (entity, card, mut transform, mut visibility, marked) in &mut cards {
        let moving = card.held.is_none() && progress(card, now) < 1.0;
        let z = match (card.held.is_some(), moving, card.kind) {
            (true, _, _) => 50.0,
            (_, true, _) => 40.0,
            (_, _, Kind::Pair | Kind::Label | Kind::Foe) => 10.0,
            _ => 20.0 + card.order + if card.hovered { 15.0 } else { 0.0 },
        };
        let lift = if card.hovered && card.kind == Kind::Hand && card.held.is_none() { 8.0 } else { 0.0 };
        let shake = jolts.offset(&card.key, card.kind, now);
        let p = card.position(now) - Vec2::Y * lift + Vec2::X * shake.unwrap_or(0.0);
        // Turning over on its way in: narrow, its back showing, then its face.
        let (width, back) = if card.turns && moving { turning(progress(card, now)) } else { (1.0, false) };
        // Dealt from a pile it grows from the pile's size; discarded it
        // shrinks to it.
        let size = match (card.turns, card.leaving) {
            (true, false) if moving => 0.5 + 0.5 * eased(progress(card, now)),
            (_, true) => 1.0 - 0.5 * eased(progress(card, now)),
            _ => 1.0,
        };
        let scale = Vec3::new(card.scale * width * size, card.scale * size, card.scale);
        let target = Transform::from_translation(to_world(p, screen).extend(z)).with_scale(scale);
        if *transform != target {
            *transform = target;
        }
        if *visibility != Visibility::Inherited {
            *visibility = Visibility::Inherited;
        }
        // Its back goes once its face shows.
        for (back_entity, parent, mut shown) in &mut backs {
            if parent.parent() != entity {
                continue;
            }
            if !back {
                commands.entity(back_entity).despawn();
            } else if *shown != Visibility::Inherited {
                *shown = Visibility::Inherited;
            }
        }
        let moving = moving || shake.is_some();
        if card.leaving && !moving {
            commands.entity(entity).despawn();
            continue;
        }
        let lingers = !card.leaving && card.linger_until.is_some_and(|t| now < t);
        mark_motion(&mut commands, entity, moving || lingers, marked);
    }
}
