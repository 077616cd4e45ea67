//! What just happened, told on the table as it happens: damage and healing
//! numbers float up from the individual hit (one under another when they
//! come together), a defeated individual says so. (The end of a fight is
//! told by the panels, over every window: `ui/panels/fight_end.rs`.) All
//! are reactions to the rules' events ([`crate::game::rules_events::RulesEvent`]).

use bevy::{camera::visibility::RenderLayers, prelude::*, sprite::Text2dShadow, window::PrimaryWindow};
use depths_rules::Event;

use super::{
    cards::{TABLE_LAYER, TableGeometry, text_font, to_world},
    layout::{FOE_HEAD, FOE_ROW, TableLayout},
    motion::{Jolt, Jolts},
    party::{PartyEdge, edge_layout},
};
use crate::theme::palette::{BANNER_GROUND, BLACK, CARD_GOLD, signals};

/// The ground of a floating number: the banner's, see-through.
const BACKDROP: crate::theme::palette::Tone = BANNER_GROUND;
use crate::{
    PlaySystems, game::animating::Animating, game::focus::BoardArea, game::notices::Toast,
    game::rules_events::RulesEvent, game::screen::Screen, game::session::Delve,
};

/// How long a number floats: long enough to read at a low frame rate.
const FLOAT: f32 = 2.0;
/// The part of that it stays whole before it fades (fading from the start,
/// it read as a dark smudge by the time the eye got there).
const HOLD: f32 = 0.6;
/// How far a defeated individual's word falls (px).
const FALL: f32 = 36.0;
/// How long a Hit's flash lasts.
const FLASH: f32 = 0.3;

/// A number rising from where it happened, fading out.
#[derive(Component, Debug)]
#[require(Animating)]
pub struct Floater {
    /// Screen position (logical px) it starts from.
    at: Vec2,
    born: f32,
    color: Color,
    /// How far it rises while it fades (px).
    rise: f32,
    /// Beside a Monster card's row: gone with the Combat's cards (a "−3"
    /// and "defeated" floated over the map as the fight ended).
    on_card: bool,
}

/// The dark ground behind a floating number or word.
#[derive(Component, Debug)]
pub struct FloaterBack;

/// How dark that ground is at its most.
const BACKDROP_ALPHA: f32 = 0.72;

/// A toast on show (it fades and leaves by itself). The panels draw it, on
/// a backdrop, where it covers no card to click (`ui/panels/frame.rs`).
#[derive(Component, Debug)]
#[require(Animating)]
pub struct ToastNote {
    pub text: String,
    born: f32,
}

impl ToastNote {
    /// How long it stays: long enough to read it (a short note 2.5 s, a
    /// sentence up to 6 s).
    fn stay(&self) -> f32 {
        (2.0 + 0.05 * self.text.chars().count() as f32).clamp(2.5, 6.0)
    }

    /// How opaque it is `now`: steady, then a quick fade; `None` once gone.
    pub fn alpha(&self, now: f32) -> Option<f32> {
        let left = self.stay() - (now - self.born);
        (left > 0.0).then(|| (left / 0.5).min(1.0))
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (toasts.in_set(PlaySystems::Present).after(spawn_feedback), fade_toasts.in_set(PlaySystems::Present))
            .run_if(in_state(Screen::Playing)),
    );
    app.add_systems(
        Update,
        (spawn_feedback.in_set(PlaySystems::Present), animate.in_set(PlaySystems::Present).after(spawn_feedback))
            .run_if(in_state(Screen::Playing)),
    );
}

/// A Hit's flash over the row it landed on, fading out.
#[derive(Component, Debug)]
#[require(Animating)]
pub struct Flash {
    born: f32,
}

fn flash(commands: &mut Commands, rect: Rect, window: &Window, now: f32) {
    commands.spawn((
        Name::new("Hit flash"),
        Flash { born: now },
        Sprite::from_color(signals().hurt.sprite_alpha(0.55), rect.size()),
        Transform::from_translation(to_world(rect.center(), screen(window)).extend(79.0)),
        RenderLayers::layer(TABLE_LAYER),
        Pickable::IGNORE,
        DespawnOnExit(Screen::Playing),
    ));
}

/// The rectangle of individual `row`'s line on foe `foe`'s card, on screen.
pub fn row_rect(layout: &TableLayout, foe: u8, row: u8) -> Option<Rect> {
    let p = layout.get(&super::faces::CardKey::Foe(usize::from(foe)))?;
    let k = layout.scale;
    let top = p.center.y - p.size.y / 2.0 + k * (FOE_HEAD + FOE_ROW * f32::from(row));
    Some(Rect::new(p.center.x - p.size.x / 2.0 + 3.0, top, p.center.x + p.size.x / 2.0 - 3.0, top + k * FOE_ROW))
}

/// Where a number for individual `row` of foe `foe` rises from: beside the
/// row's health bar, where it does not hide it.
pub fn row_at(layout: &TableLayout, foe: u8, row: u8) -> Option<Vec2> {
    let rect = row_rect(layout, foe, row)?;
    Some(Vec2::new(rect.max.x + 21.0, rect.center().y))
}

/// Where a number for Hero `hero` rises from: their Health Token on the
/// party's edge (`edge`), the Health it changed, not their pairs (which lie
/// under the Monster cards, so a Hero's wound read as the Monster's).
pub fn hero_at(game: &depths_rules::Game, edge: &PartyEdge, hero: u8) -> Option<Vec2> {
    let h = usize::from(hero);
    let health = game.heroes.get(h)?.health;
    let layout = edge_layout(game, edge.0?, edge.scale());
    Some(layout.space(h, health) - Vec2::Y * 14.0 * layout.k)
}

fn foe_width(layout: &TableLayout, foe: u8) -> Option<f32> {
    Some(layout.get(&super::faces::CardKey::Foe(usize::from(foe)))?.size.x)
}

fn spawn_feedback(
    mut commands: Commands,
    mut events: MessageReader<RulesEvent>,
    geometry: Res<TableGeometry>,
    area: Res<BoardArea>,
    edge: Res<PartyEdge>,
    delve: Option<Res<Delve>>,
    window: Single<&Window, With<PrimaryWindow>>,
    time: Res<Time>,
    floating: Query<(&Floater, &Text2d)>,
    ui_assets: Option<Res<crate::theme::style::UiAssets>>,
    mut jolts: ResMut<Jolts>,
) {
    let now = time.elapsed_secs();
    let body = ui_assets.as_ref().map(|a| a.body_font.clone());
    // Where the numbers still rising lie, and how big (window px): a new one
    // goes under one it would cover (two Heroes' Damage to one individual).
    let mut taken: Vec<Rect> = floating
        .iter()
        .filter(|(f, _)| now - f.born < FLOAT * 0.7)
        .map(|(f, t)| Rect::from_center_size(f.at, float_size(&t.0, 30.0)))
        .collect();
    let layout = geometry.layout.as_ref();
    let hero_at = |hero: u8| self::hero_at(delve.as_ref()?.game(), &edge, hero);
    for RulesEvent(event) in events.read() {
        // A number: large, rising from beside what it changed.
        let float = |text: String, at: Option<Vec2>, color: Color| (text, at, color, 30.0, 40.0);
        let number = match event {
            Event::MonsterDamaged { foe, individual, amount, .. } => {
                // The card shakes and the row flashes where the Hit landed.
                jolts.0.push((Jolt::Foe(usize::from(*foe)), now));
                if let Some(rect) = layout.and_then(|l| row_rect(l, *foe, *individual)) {
                    flash(&mut commands, rect, &window, now);
                }
                Some(float(
                    format!("-{amount}"),
                    layout.and_then(|l| row_at(l, *foe, *individual)),
                    signals().hurt.sprite(),
                ))
            }
            Event::MonsterHealed { foe, individual, amount } => Some(float(
                format!("+{amount}"),
                layout.and_then(|l| row_at(l, *foe, *individual)),
                signals().heal.sprite(),
            )),
            // At the Hero's Health Token (the Hero mat shows it too).
            Event::HeroDamaged { hero, amount } => {
                jolts.0.push((Jolt::Hero(*hero), now));
                Some(float(format!("-{amount}"), hero_at(*hero), signals().hurt.sprite()))
            }
            Event::HeroHealed { hero, amount } => {
                Some(float(format!("+{amount}"), hero_at(*hero), signals().heal.sprite()))
            }
            // A word over the row's own health bar, one row tall, staying in
            // its row: large and rising, it covered the rows around it.
            // It falls away from its row, tipping over as it goes.
            Event::IndividualDefeated { foe, individual } => {
                let bar = layout.and_then(|l| row_at(l, *foe, *individual).zip(foe_width(l, *foe)));
                let at = bar.map(|(p, w)| p - Vec2::X * (18.0 + 0.25 * w));
                Some(("defeated".into(), at, CARD_GOLD.sprite(), 15.0, -FALL))
            }
            // The other events, by name, so a new one is decided here.
            #[rustfmt::skip]
            Event::CombatStarted { .. } | Event::MonstersAssigned { .. } | Event::RoundStarted { .. } |
                Event::CardsDrawn { .. } | Event::PowerStored { .. } | Event::DiscardReshuffled { .. } |
                Event::CannotPlay { .. } | Event::CardPlayed { .. } | Event::MonsterCardPlayed { .. } |
                Event::MonsterCardWaiting { .. } | Event::MonsterDeckReshuffled { .. } |
                Event::MonsterPowerDrawn { .. } | Event::MonsterAbility { .. } | Event::MonsterPowerWasted { .. } |
                Event::MonsterCardMoved { .. } | Event::PairChosen { .. } | Event::AbilityActivated { .. } |
                Event::PowerSpent { .. } | Event::SpellExhausted { .. } | Event::ReturnDamageAvoided { .. } |
                Event::FoeDefeated { .. } | Event::RoundEnded { .. } | Event::GameLost { .. } | Event::Note { .. } | Event::CombatWon | Event::XpGained { .. } |
                Event::EcologyStarted { .. } | Event::EcologyCompleted { .. } | Event::TileDrawn { .. } |
                Event::TilePlaced { .. } | Event::TileSetAside { .. } | Event::ElementEncountered { .. } |
                Event::LegendaryLocationEncountered { .. } | Event::CardDrawn { .. } | Event::CardsOffered { .. } |
                Event::TestResolved { .. } | Event::XpSpent { .. } | Event::KeysChanged { .. } |
                Event::ItemGained { .. } | Event::AbilityGained { .. } | Event::Rested | Event::LevelUp { .. } |
                Event::GameWon => None,
        };
        let on_card = matches!(
            event,
            Event::MonsterDamaged { .. } | Event::MonsterHealed { .. } | Event::IndividualDefeated { .. }
        );
        if let Some((text, Some(at), color, px, rise)) = number {
            // On a backdrop, so it reads over a card's print, and inside the
            // table's room, so no panel cuts it.
            let size = float_size(&text, px);
            // The party's edge is the table's too: a Hero's number rises there.
            let board = area.0.unwrap_or(Rect::new(0.0, 0.0, window.width(), window.height()));
            let room = edge.0.map_or(board, |e| board.union(e));
            let half = (size / 2.0).min(room.size() / 2.0);
            let mut at = at.clamp(room.min + half, room.max - half);
            for _ in 0..6 {
                let here = Rect::from_center_size(at, size);
                let Some(under) = taken.iter().find(|r| !r.intersect(here).is_empty()) else { break };
                at.y = under.max.y + half.y + 2.0;
            }
            at = at.clamp(room.min + half, room.max - half);
            taken.push(Rect::from_center_size(at, size));
            commands
                .spawn((
                    Name::new("Floating number"),
                    Floater { at, born: now, color, rise, on_card },
                    Text2d::new(text),
                    text_font(body.as_ref(), px),
                    TextColor(color),
                    Text2dShadow { offset: Vec2::new(2.0, -2.0), color: BLACK.sprite() },
                    Transform::from_translation(to_world(at, screen(&window)).extend(80.0)),
                    RenderLayers::layer(TABLE_LAYER),
                    Pickable::IGNORE,
                    DespawnOnExit(Screen::Playing),
                ))
                .with_child((
                    FloaterBack,
                    Sprite::from_color(BACKDROP.sprite_alpha(BACKDROP_ALPHA), size),
                    Transform::from_xyz(0.0, 0.0, -0.5),
                    RenderLayers::layer(TABLE_LAYER),
                    Pickable::IGNORE,
                ));
        }
    }
}

/// Toasts from events (Keys, Level Up) and from elsewhere (a save).
fn toasts(
    mut commands: Commands,
    mut events: MessageReader<RulesEvent>,
    mut notes: MessageReader<Toast>,
    time: Res<Time>,
    mut shown: Query<&mut ToastNote>,
) {
    let mut lines: Vec<String> = notes.read().map(|Toast(t)| t.clone()).collect();
    for RulesEvent(event) in events.read() {
        match event {
            Event::KeysChanged { keys } => lines.push(format!("Keys: {keys}")),
            Event::LevelUp { level } => lines.push(format!("Level Up: the Heroes reach level {level}")),
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
                Event::TilePlaced { .. } | Event::TileSetAside { .. } | Event::ElementEncountered { .. } |
                Event::LegendaryLocationEncountered { .. } | Event::CardDrawn { .. } | Event::CardsOffered { .. } |
                Event::TestResolved { .. } | Event::XpGained { .. } | Event::XpSpent { .. } |
                Event::ItemGained { .. } | Event::AbilityGained { .. } | Event::Rested | Event::GameWon => {}
        }
    }
    let now = time.elapsed_secs();
    lines.dedup();
    for text in lines {
        // The same words again (Ctrl+Z held or pressed five times with
        // nothing to take back) start the note showing anew: five of them
        // stacked down the table.
        match shown.iter_mut().find(|t| t.text == text && t.alpha(now).is_some()) {
            Some(mut t) => t.born = now,
            None => {
                commands.spawn((Name::new("Toast"), ToastNote { text, born: now }, DespawnOnExit(Screen::Playing)));
            }
        }
    }
}

fn fade_toasts(mut commands: Commands, time: Res<Time>, toasts: Query<(Entity, &ToastNote)>) {
    let now = time.elapsed_secs();
    for (e, t) in &toasts {
        if t.alpha(now).is_none() {
            commands.entity(e).despawn();
        }
    }
}

/// The size of a floating number or word of `px` (its backdrop, window px).
fn float_size(text: &str, px: f32) -> Vec2 {
    Vec2::new(text.chars().count() as f32 * px * 0.57 + px * 0.5, (px * 1.33).max(FOE_ROW))
}

fn screen(window: &Window) -> Vec2 {
    Vec2::new(window.width(), window.height())
}

/// Numbers rise and fade, flashes fade.
fn animate(
    mut commands: Commands,
    time: Res<Time>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut floaters: Query<(Entity, &Floater, &mut Transform, &mut TextColor, &Children)>,
    mut backs: Query<&mut Sprite, With<FloaterBack>>,
    mut flashes: Query<(Entity, &Flash, &mut Sprite), Without<FloaterBack>>,
    cards: Query<&super::cards::TableCard>,
) {
    let now = time.elapsed_secs();
    // A Monster card still lies on the table (the last blow's numbers show
    // while the fight's end is on show). Asked only of a number beside one:
    // the cards are not walked every frame for nothing.
    let fighting = || cards.iter().any(|c| c.kind == super::faces::Kind::Foe && !c.leaving);
    for (e, f, mut transform, mut color, children) in &mut floaters {
        let t = (now - f.born) / FLOAT;
        if t >= 1.0 || (f.on_card && !fighting()) {
            commands.entity(e).despawn();
            continue;
        }
        let at = f.at - Vec2::Y * f.rise * t;
        transform.translation = to_world(at, screen(&window)).extend(80.0);
        // What falls tips over as it goes.
        if f.rise < 0.0 {
            transform.rotation = Quat::from_rotation_z(-0.5 * t * t);
        }
        let fade = ((t - HOLD) / (1.0 - HOLD)).max(0.0);
        let alpha = 1.0 - fade * fade;
        color.0 = f.color.with_alpha(alpha);
        for child in children {
            if let Ok(mut back) = backs.get_mut(*child) {
                back.color = BACKDROP.sprite_alpha(BACKDROP_ALPHA * alpha);
            }
        }
    }
    for (e, f, mut sprite) in &mut flashes {
        let t = (now - f.born) / FLASH;
        if t >= 1.0 {
            commands.entity(e).despawn();
        } else {
            sprite.color = signals().hurt.sprite_alpha(0.55 * (1.0 - t));
        }
    }
}
