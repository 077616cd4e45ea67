//! Cards on the table: the Action Cards in play during Combat (each Hero's
//! cards in a row, the Monster's cards opposite) and the drawn Feature /
//! Legendary Location card, as sprite entities with their value, name and an
//! icon. A card flies in from its deck when drawn, slides to its place when
//! played, and flies off to the discard when it leaves play.
//!
//! The cards lie in a strip along the bottom of the board area, fixed on
//! screen (they follow the camera). Reactive rendering: a frame is requested
//! only while a card moves.
//!
//! [`table_faces`] (which cards are in play, where) is plain data, tested
//! headless; the entities need the renderer's text and sprites.

use bevy::{prelude::*, window::PrimaryWindow, window::RequestRedraw};
use depths_rules::{
    Game, Phase,
    adventure::Resolving,
    combat::{FoeCard, may_choose_outcome},
};

use crate::{
    PlaySystems, camera::BoardCamera, explore::BoardArea, icons::Icons, screens::Screen, session::Session,
    words::outcome_name,
};

/// What a card is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Hero,
    Monster,
    /// A Feature or Legendary Location card being resolved (or just drawn).
    Ecology,
}

/// Where a card lies in the strip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spot {
    /// Engagement `group`, column `col`; Hero cards on the upper row,
    /// Monster cards on the lower.
    Combat { group: usize, col: usize },
    /// The `index`th Ecology card, from the right.
    Ecology { index: usize },
}

/// One card face on the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Face {
    /// Stable while the same card stays in play.
    pub key: String,
    pub kind: Kind,
    /// "7", "P" (Power), "3 XP"…
    pub value: String,
    pub name: String,
    pub spot: Spot,
    /// A line under the name (the pair's outcome…).
    pub note: String,
    /// Its icon: a group and key of [`crate::icons::Icons`].
    pub icon: (&'static str, String),
    /// The Monster's health token (what its living individuals have left), on
    /// the first of its cards in each engagement.
    pub health: Option<u16>,
}

impl Face {
    /// What is printed on it: a change means the card is redrawn.
    fn look(&self) -> (String, String, Option<u16>) {
        (self.value.clone(), self.note.clone(), self.health)
    }
}

/// The cards in play in `game`, each with its place.
pub fn table_faces(game: &Game) -> Vec<Face> {
    let mut out = Vec::new();
    if let Phase::Combat { .. } = game.phase()
        && let Some(c) = game.combat()
    {
        for (e, en) in c.engagements.iter().enumerate() {
            let hero_mat = game.heroes.get(usize::from(en.hero));
            let hero = hero_mat.map_or("Hero", |h| h.name());
            let hero_icon = ("classes", hero_mat.map_or_else(String::new, |h| h.mat.class.name().to_lowercase()));
            let foe = c.foes.get(usize::from(en.foe));
            // The health token goes on the first Monster card of the engagement.
            let mut token = foe.map(|f| f.individuals.iter().map(|i| u16::from(i.health)).sum::<u16>());
            let foe_icon = match foe.map(|f| &f.card) {
                Some(FoeCard::Monster(m)) => ("monsters", m.id.clone()),
                _ => ("elements", "final_entity".to_owned()),
            };
            let foe_name = foe.map_or("Monster", |f| f.name());
            let bonus = foe.map_or(0, |f| f.card_bonus);
            // One pair per Hero in all: priority runs over every pair in front
            // of the Hero, and once one is chosen the others are discarded.
            let outcomes: Vec<_> = c.pairs_of(en.hero).into_iter().map(|(_, _, o)| o).collect();
            let chosen = c.chosen_engagement(en.hero).is_some();
            for (s, slot) in en.slots.iter().enumerate() {
                let note = match slot.outcome(bonus) {
                    Some(o) if en.chosen == Some(s as u8) => outcome_name(o).to_string(),
                    Some(o) if !chosen && may_choose_outcome(o, &outcomes) => outcome_name(o).to_string(),
                    Some(o) => format!("({})", outcome_name(o)),
                    None => String::new(),
                };
                if let Some(card) = slot.hero {
                    out.push(Face {
                        key: format!("h{e}-{}", card.id.0),
                        kind: Kind::Hero,
                        value: value_text(card.power, slot.hero_value()),
                        name: hero.to_owned(),
                        spot: Spot::Combat { group: e, col: s },
                        note: note.clone(),
                        icon: hero_icon.clone(),
                        health: None,
                    });
                }
                if let Some(card) = slot.monster {
                    out.push(Face {
                        key: format!("m{e}-{}-{}", card.id.0, u8::from(card.power)),
                        kind: Kind::Monster,
                        value: value_text(card.power, slot.monster_value(bonus)),
                        name: foe_name.to_owned(),
                        spot: Spot::Combat { group: e, col: s },
                        note: String::new(),
                        icon: foe_icon.clone(),
                        health: token.take(),
                    });
                }
            }
            let extra = en.unpaired.iter().chain(en.waiting.iter());
            for (k, card) in extra.enumerate() {
                out.push(Face {
                    key: format!("m{e}-{}-{}", card.id.0, u8::from(card.power)),
                    kind: Kind::Monster,
                    value: value_text(card.power, Some(card.value)),
                    name: foe_name.to_owned(),
                    spot: Spot::Combat { group: e, col: en.slots.len() + k },
                    note: "unpaired".into(),
                    icon: foe_icon.clone(),
                    health: token.take(),
                });
            }
        }
    }
    if let Some(a) = game.adventure() {
        let mut index = 0;
        for r in &a.resolving {
            let (name, value, icon) = match r {
                Resolving::Feature(card) => (card.name.clone(), format!("{} XP", card.xp), "feature"),
                Resolving::Legendary { card, .. } => (card.name.clone(), card.back.clone(), "legendary_location"),
                _ => continue,
            };
            out.push(Face {
                key: ecology_key(&name),
                kind: Kind::Ecology,
                value,
                name,
                spot: Spot::Ecology { index },
                note: String::new(),
                icon: ("elements", icon.to_owned()),
                health: None,
            });
            index += 1;
        }
    }
    out
}

/// The key of a drawn Feature / Legendary Location card, by name.
pub fn ecology_key(name: &str) -> String {
    format!("eco-{name}")
}

fn value_text(power: bool, value: Option<u8>) -> String {
    if power { "P".into() } else { value.map_or("?".into(), |v| v.to_string()) }
}

// ---------------------------------------------------------------- entities

const CARD: Vec2 = Vec2::new(62.0, 90.0);
const STEP: f32 = 68.0;
const STRIP: f32 = 210.0;
/// How long a card flies.
const FLIGHT: f32 = 0.35;
/// A drawn Feature / Legendary Location card stays at least this long.
const LINGER: f32 = 2.5;

/// A card entity on the table.
#[derive(Component, Debug)]
pub struct TableCard {
    pub key: String,
    pub kind: Kind,
    /// Screen position (logical px) it flies from and to.
    from: Vec2,
    to: Vec2,
    start: f32,
    /// Fly to the discard and despawn on arrival.
    leaving: bool,
    /// Stay at least until then (a card drawn and resolved at once).
    linger_until: f32,
    /// The card's face, to notice a change.
    face: (String, String, Option<u16>),
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (sync_cards, move_cards)
            .chain()
            .in_set(PlaySystems::Present)
            .run_if(in_state(Screen::Playing).and_then(resource_exists::<Session>)),
    );
}

struct Layout {
    area: Rect,
}

impl Layout {
    fn strip_top(&self) -> f32 {
        self.area.max.y - STRIP
    }

    fn group_x(&self, group: usize, cols: &[usize]) -> f32 {
        let before: f32 = cols.iter().take(group).map(|c| *c as f32 * STEP + 28.0).sum();
        self.area.min.x + 24.0 + CARD.x / 2.0 + before
    }

    fn place(&self, face: &Face, cols: &[usize]) -> Vec2 {
        match face.spot {
            Spot::Combat { group, col } => {
                let x = self.group_x(group, cols) + col as f32 * STEP;
                let row = if face.kind == Kind::Hero { 0.0 } else { 1.0 };
                Vec2::new(x, self.strip_top() + 52.0 + row * (CARD.y + 10.0))
            }
            Spot::Ecology { index } => Vec2::new(
                self.area.max.x - 30.0 - CARD.x * 0.75 - index as f32 * (CARD.x * 1.5 + 10.0),
                self.strip_top() + 100.0,
            ),
        }
    }

    /// Where a card of this kind comes from.
    fn deck(&self, kind: Kind, to: Vec2) -> Vec2 {
        match kind {
            Kind::Hero => Vec2::new(to.x, self.area.max.y + CARD.y),
            Kind::Monster => Vec2::new(self.area.max.x + CARD.x, self.strip_top()),
            Kind::Ecology => Vec2::new(self.area.max.x + CARD.x * 2.0, self.area.min.y + 60.0),
        }
    }

    fn discard(&self, kind: Kind) -> Vec2 {
        match kind {
            Kind::Hero => Vec2::new(self.area.min.x - CARD.x * 2.0, self.area.max.y),
            _ => Vec2::new(self.area.max.x + CARD.x * 2.0, self.area.max.y),
        }
    }
}

fn color(kind: Kind) -> (Color, Color) {
    match kind {
        Kind::Hero => (Color::srgb(0.20, 0.28, 0.42), Color::srgb(0.55, 0.72, 0.95)),
        Kind::Monster => (Color::srgb(0.40, 0.15, 0.13), Color::srgb(0.92, 0.45, 0.38)),
        Kind::Ecology => (Color::srgb(0.33, 0.27, 0.14), Color::srgb(0.91, 0.76, 0.42)),
    }
}

fn spawn_card(
    commands: &mut Commands,
    font: &Option<Handle<Font>>,
    icons: Option<&Icons>,
    face: &Face,
    from: Vec2,
    to: Vec2,
    now: f32,
    linger: f32,
) {
    let (body, edge) = color(face.kind);
    let size = if face.kind == Kind::Ecology { CARD * 1.5 } else { CARD };
    let big = |t: &str, px: f32, y: f32, title: bool| {
        let mut text_font = TextFont { font_size: FontSize::Px(px), ..default() };
        if title && let Some(f) = font {
            text_font.font = f.clone().into();
        }
        (
            Text2d::new(t.to_owned()),
            text_font,
            TextColor(Color::srgb(0.96, 0.93, 0.86)),
            TextLayout::justify(Justify::Center),
            Transform::from_xyz(0.0, y, 0.3),
        )
    };
    let name = wrap(&face.name, if face.kind == Kind::Ecology { 14 } else { 9 }, 2);
    commands
        .spawn((
            Name::new(format!("Card {}", face.key)),
            TableCard {
                key: face.key.clone(),
                kind: face.kind,
                from,
                to,
                start: now,
                leaving: false,
                linger_until: now + linger,
                face: face.look(),
            },
            Transform::from_translation(Vec3::new(0.0, 0.0, 60.0)),
            Visibility::Hidden,
            DespawnOnExit(Screen::Playing),
        ))
        .with_children(|c| {
            c.spawn((Sprite::from_color(edge, size + Vec2::splat(4.0)), Transform::from_xyz(0.0, 0.0, 0.0)));
            c.spawn((Sprite::from_color(body, size), Transform::from_xyz(0.0, 0.0, 0.1)));
            // The icon: the class, the Monster, the kind of card; without
            // icon files, a diamond (Hero / Monster) or a square (Ecology card).
            match icons.and_then(|i| i.image(face.icon.0, &face.icon.1)) {
                Some(image) => {
                    let sprite = Sprite { image, color: edge, custom_size: Some(Vec2::splat(20.0)), ..default() };
                    c.spawn((sprite, Transform::from_xyz(0.0, size.y / 2.0 - 15.0, 0.2)));
                }
                None => {
                    let icon = Sprite::from_color(edge, Vec2::splat(12.0));
                    let mut t = Transform::from_xyz(0.0, size.y / 2.0 - 13.0, 0.2);
                    if face.kind != Kind::Ecology {
                        t.rotate_z(std::f32::consts::FRAC_PI_4);
                    }
                    c.spawn((icon, t));
                }
            }
            // The health token: a heart in the corner with what is left.
            if let Some(hp) = face.health {
                let corner = Vec3::new(size.x / 2.0 - 13.0, size.y / 2.0 - 13.0, 0.4);
                let heart = icons.and_then(|i| i.image("ui", "health"));
                let token = match heart {
                    Some(image) => Sprite {
                        image,
                        color: Color::srgb(0.78, 0.16, 0.14),
                        custom_size: Some(Vec2::splat(30.0)),
                        ..default()
                    },
                    None => Sprite::from_color(Color::srgb(0.78, 0.16, 0.14), Vec2::splat(24.0)),
                };
                c.spawn((token, Transform::from_translation(corner)));
                let mut number = big(&hp.to_string(), 12.0, 0.0, false);
                number.4 = Transform::from_translation(corner + Vec3::new(0.0, 1.0, 0.1));
                c.spawn(number);
            }
            c.spawn(big(&face.value, if face.kind == Kind::Ecology { 22.0 } else { 36.0 }, size.y * 0.10, true));
            c.spawn(big(&name, 10.0, -size.y * 0.20, false));
            if !face.note.is_empty() {
                c.spawn(big(&face.note, 9.0, -size.y * 0.41, false));
            }
        });
}

/// `text` in lines of about `width` characters, at most `max` lines.
fn wrap(text: &str, width: usize, max: usize) -> String {
    let mut lines: Vec<String> = vec![String::new()];
    for w in text.split_whitespace() {
        let last = lines.last_mut().expect("one line");
        if !last.is_empty() && last.len() + 1 + w.len() > width {
            lines.push(w.to_owned());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(w);
        }
    }
    if lines.len() > max {
        lines.truncate(max);
        lines[max - 1].push('.');
    }
    lines.join("\n")
}

fn layout(area: &BoardArea, window: &Window) -> Layout {
    let whole = Rect::new(0.0, 0.0, window.width(), window.height());
    Layout { area: area.0.unwrap_or(whole) }
}

fn sync_cards(
    mut commands: Commands,
    mut session: ResMut<Session>,
    area: Res<BoardArea>,
    window: Single<&Window, With<PrimaryWindow>>,
    time: Res<Time>,
    mut cards: Query<(Entity, &mut TableCard)>,
    ui_assets: Option<Res<crate::screens::loading::UiAssets>>,
    icons: Option<Res<Icons>>,
) {
    let font = ui_assets.map(|a| a.title_font.clone());
    // Runs on every frame there is (frames are rare when nothing moves): a
    // lingering card must notice its time is up.
    let drawn = if session.drawn_cards.is_empty() { Vec::new() } else { std::mem::take(&mut session.drawn_cards) };
    let now = time.elapsed_secs();
    let layout = layout(&area, &window);
    let mut faces = table_faces(&session.game);
    // A card drawn and resolved at once still shows for a moment.
    for name in drawn {
        let key = ecology_key(&name);
        if !faces.iter().any(|f| f.key == key) {
            let index = faces.iter().filter(|f| f.kind == Kind::Ecology).count();
            faces.push(Face {
                key,
                kind: Kind::Ecology,
                value: "drawn".into(),
                name,
                spot: Spot::Ecology { index },
                note: String::new(),
                icon: ("elements", "feature".to_owned()),
                health: None,
            });
        }
    }
    let mut cols: Vec<usize> = Vec::new();
    for f in &faces {
        if let Spot::Combat { group, col } = f.spot {
            if cols.len() <= group {
                cols.resize(group + 1, 0);
            }
            cols[group] = cols[group].max(col + 1);
        }
    }
    for (entity, mut card) in &mut cards {
        match faces.iter().find(|f| f.key == card.key) {
            Some(f) if card.face != f.look() => {
                // Same card, new face (a value changed, an outcome): redraw it in place.
                let here = current(&card, now);
                commands.entity(entity).despawn();
                spawn_card(&mut commands, &font, icons.as_deref(), f, here, layout.place(f, &cols), now, 0.0);
            }
            Some(f) => {
                let to = layout.place(f, &cols);
                if card.to != to && !card.leaving {
                    card.from = current(&card, now);
                    card.to = to;
                    card.start = now;
                }
            }
            None if !card.leaving && now >= card.linger_until => {
                card.from = current(&card, now);
                card.to = layout.discard(card.kind);
                card.start = now;
                card.leaving = true;
            }
            None => {}
        }
    }
    for f in &faces {
        if cards.iter().any(|(_, c)| c.key == f.key) {
            continue;
        }
        let to = layout.place(f, &cols);
        let linger = if f.kind == Kind::Ecology { LINGER } else { 0.0 };
        spawn_card(&mut commands, &font, icons.as_deref(), f, layout.deck(f.kind, to), to, now, linger);
    }
}

fn progress(card: &TableCard, now: f32) -> f32 {
    ((now - card.start) / FLIGHT).clamp(0.0, 1.0)
}

fn current(card: &TableCard, now: f32) -> Vec2 {
    let t = progress(card, now);
    let eased = 1.0 - (1.0 - t) * (1.0 - t) * (1.0 - t);
    card.from.lerp(card.to, eased)
}

/// Puts every card at its screen place (through the camera), moves flying
/// ones, despawns arrived discards, and asks for frames while anything moves
/// or a drawn card waits to leave.
fn move_cards(
    mut commands: Commands,
    time: Res<Time>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Transform, &Projection), (With<BoardCamera>, Without<TableCard>)>,
    mut cards: Query<(Entity, &TableCard, &mut Transform, &mut Visibility)>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let now = time.elapsed_secs();
    let (cam, projection) = *camera;
    let scale = match projection {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    };
    let half = Vec2::new(window.width(), window.height()) / 2.0;
    let mut busy = false;
    for (entity, card, mut transform, mut visibility) in &mut cards {
        let p = current(card, now);
        let world = cam.translation.truncate() + Vec2::new(p.x - half.x, half.y - p.y) * scale;
        let z = if progress(card, now) < 1.0 { 70.0 } else { 60.0 };
        let target = Transform::from_translation(world.extend(z)).with_scale(Vec3::new(scale, scale, 1.0));
        if *transform != target {
            *transform = target;
        }
        if *visibility != Visibility::Inherited {
            *visibility = Visibility::Inherited;
        }
        let moving = progress(card, now) < 1.0;
        if card.leaving && !moving {
            commands.entity(entity).despawn();
        } else if moving {
            busy = true;
        }
        if !card.leaving && now < card.linger_until {
            busy = true;
        }
    }
    if busy {
        redraw.write(RequestRedraw);
    }
}
