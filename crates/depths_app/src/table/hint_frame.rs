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

/// How far the hint's frame shows round its card (px), less than half the
/// narrowest gap between two cards in a hand.
const HINT_RIM: f32 = 3.0;

/// The frame around a hinted card on the table.
#[derive(Component)]
pub struct HintFrame;

/// A white glow around the card or row that makes the hinted move. Steady, not
/// pulsing: a hint may stay while the players think, and the table must sleep.
fn frame_hint(
    mut commands: Commands,
    hint: Res<Hint>,
    delve: Res<Delve>,
    geometry: Res<TableGeometry>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut frames: Query<(Entity, &mut Sprite, &mut Transform), With<HintFrame>>,
) {
    let target = hint
        .action
        .as_ref()
        .filter(|_| hint.version == delve.version() && matches!(delve.game().phase(), Phase::Combat { .. }))
        .and_then(|a| {
            let exact = geometry.targets.iter().find(|t| &t.action == a);
            exact.or_else(|| geometry.targets.iter().find(|t| same_place(a, &t.action))).map(|t| (t.rect, t.z))
        });
    let Some((rect, z)) = target else {
        for (e, ..) in &frames {
            commands.entity(e).despawn();
        }
        return;
    };
    let screen = Vec2::new(window.width(), window.height());
    let at = to_world(rect.center(), screen).extend(z);
    // A thin rim: 7 px a side lay over the pile and the next card, closer
    // to it than that in a hand.
    let size = rect.size() + Vec2::splat(2.0 * HINT_RIM);
    match frames.single_mut() {
        Ok((_, mut sprite, mut transform)) => {
            if sprite.custom_size != Some(size) {
                sprite.custom_size = Some(size);
            }
            if transform.translation != at {
                transform.translation = at;
            }
        }
        Err(_) => {
            commands.spawn((
                Name::new("Hint frame"),
                HintFrame,
                Sprite::from_color(crate::theme::palette::HINT.sprite_alpha(0.95), size),
                Transform::from_translation(at),
                RenderLayers::layer(TABLE_LAYER),
                Pickable::IGNORE,
                DespawnOnExit(Screen::Playing),
            ));
        }
    }
}
