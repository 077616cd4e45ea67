//! The hint on the card table: a white frame around the card or pair the
//! careful player would choose (the cards on offer are framed in gold).

use bevy::{camera::visibility::RenderLayers, prelude::*, window::PrimaryWindow};
use depths_rules::Phase;

use crate::{
    PlaySystems,
    game::hint::Hint,
    game::screen::Screen,
    game::session::Delve,
    table::{
        cards::{TABLE_LAYER, TableGeometry, to_world},
        faces::same_place,
    },
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        frame_hint.in_set(PlaySystems::Present).run_if(in_state(Screen::Playing).and_then(resource_exists::<Delve>)),
    );
}

/// How far the hint's frame reaches outside its card (px), less than half
/// the narrowest gap between two cards in a hand.
const HINT_RIM: f32 = 3.0;

/// How thick the frame is: it lies over the card's own rim, in white where
/// the cards on offer wear gold (behind the card, 3 px of it showed, and a
/// hinted card differed only by a slightly thicker rim).
const HINT_LINE: f32 = 5.0;

/// The frame around a hinted card on the table (its four sides are children).
#[derive(Component)]
pub struct HintFrame;

/// A white frame around the card or row that makes the hinted move. Steady,
/// not pulsing: a hint may stay while the players think, and the table must
/// sleep. Laid again only when its place changes.
fn frame_hint(
    mut commands: Commands,
    hint: Res<Hint>,
    delve: Res<Delve>,
    geometry: Res<TableGeometry>,
    window: Single<&Window, With<PrimaryWindow>>,
    frames: Query<Entity, With<HintFrame>>,
    mut laid: Local<Option<(Rect, f32)>>,
) {
    let target = hint
        .action
        .as_ref()
        .filter(|_| hint.version == delve.version() && matches!(delve.game().phase(), Phase::Combat { .. }))
        .and_then(|a| {
            let exact = geometry.targets.iter().find(|t| &t.action == a);
            exact.or_else(|| geometry.targets.iter().find(|t| same_place(a, &t.action))).map(|t| (t.rect, t.z))
        });
    if target == *laid && (target.is_none() || !frames.is_empty()) {
        return;
    }
    for e in &frames {
        commands.entity(e).despawn();
    }
    *laid = target;
    let Some((rect, z)) = target else { return };
    let screen = Vec2::new(window.width(), window.height());
    // Over the card (its rim and a little outside it), under what floats.
    let at = to_world(rect.center(), screen).extend(z + 4.0);
    let outer = rect.size() + Vec2::splat(2.0 * HINT_RIM);
    let (w, h) = (outer.x / 2.0 - HINT_LINE / 2.0, outer.y / 2.0 - HINT_LINE / 2.0);
    let sides = [
        (Vec2::new(0.0, h), Vec2::new(outer.x, HINT_LINE)),
        (Vec2::new(0.0, -h), Vec2::new(outer.x, HINT_LINE)),
        (Vec2::new(-w, 0.0), Vec2::new(HINT_LINE, outer.y)),
        (Vec2::new(w, 0.0), Vec2::new(HINT_LINE, outer.y)),
    ];
    let color = crate::theme::palette::HINT.sprite_alpha(0.95);
    commands
        .spawn((
            Name::new("Hint frame"),
            HintFrame,
            Transform::from_translation(at),
            Visibility::default(),
            RenderLayers::layer(TABLE_LAYER),
            DespawnOnExit(Screen::Playing),
        ))
        .with_children(|c| {
            for (offset, size) in sides {
                c.spawn((
                    Sprite::from_color(color, size),
                    Transform::from_translation(offset.extend(0.0)),
                    RenderLayers::layer(TABLE_LAYER),
                    Pickable::IGNORE,
                ));
            }
        });
}
