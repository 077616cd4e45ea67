//! The Heroes on the map: a cardboard standee per Hero beside the Lantern,
//! in the Hero's class colours with the class's icon, walking with it; a
//! defeated Hero's lies on its back, greyed.

use bevy::prelude::*;

use super::art::LanternArt;
use crate::{
    PlaySystems,
    game::session::Delve,
    theme::{icons::Icons, palette},
};

/// A Hero's standee, a child of the Lantern's picture (so it walks with it).
#[derive(Component)]
pub struct Standee(pub u8);

/// A standee's card, in world units (a tile is 240).
const CARD: Vec2 = Vec2::new(38.0, 52.0);
/// How far apart the standees stand.
const SPACING: f32 = 42.0;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, place_standees.in_set(PlaySystems::Present).run_if(resource_exists::<Delve>));
}

/// Stands the Heroes by the Lantern when it is drawn, and again when one of
/// them falls or rises (the party's look changes).
fn place_standees(
    mut commands: Commands,
    delve: Res<Delve>,
    icons: Option<Res<Icons>>,
    lanterns: Query<(Entity, Option<&Children>), With<LanternArt>>,
    new_lanterns: Query<(), Added<LanternArt>>,
    standees: Query<(), With<Standee>>,
    mut last: Local<(Option<(u64, u64)>, Vec<(String, bool)>)>,
) {
    // The party is looked at only when the game changed, not every frame.
    if last.0 == Some(delve.stamp()) && new_lanterns.is_empty() {
        return;
    }
    last.0 = Some(delve.stamp());
    let party: Vec<(String, bool)> =
        delve.game().heroes.iter().map(|h| (h.mat.class.name().to_lowercase(), h.is_defeated())).collect();
    if party == last.1 && new_lanterns.is_empty() {
        return;
    }
    last.1 = party.clone();
    for (lantern, children) in &lanterns {
        for child in children.into_iter().flatten().filter(|c| standees.contains(**c)) {
            commands.entity(*child).despawn();
        }
        let n = party.len() as f32;
        for (i, (class, down)) in party.iter().enumerate() {
            // In a row behind the Lantern, as figures stand round a light.
            let at = Vec2::new((i as f32 - (n - 1.0) / 2.0) * SPACING, 50.0);
            let mut standee = commands.spawn((
                Standee(i as u8),
                Name::new(format!("Standee {class}")),
                standee_transform(at, *down, i),
                Visibility::default(),
                ChildOf(lantern),
            ));
            let (body, edge) = palette::class_tones(class);
            let (body, edge) = if *down {
                // Greyed, its class still known by its icon (darker, it read as a black box).
                (palette::DIM_EDGE.sprite(), palette::DIM_TEXT.sprite())
            } else {
                (body.sprite(), edge.sprite())
            };
            let icon = icons.as_ref().and_then(|i| i.image("classes", class));
            standee.with_children(|s| {
                // Its shadow and its stand, then the card with the icon.
                s.spawn((
                    Sprite::from_color(Color::BLACK.with_alpha(0.45), Vec2::new(CARD.x + 6.0, 8.0)),
                    Transform::from_xyz(3.0, -CARD.y / 2.0 - 1.0, 0.0),
                ));
                s.spawn((
                    Sprite::from_color(palette::RIM.sprite(), Vec2::new(CARD.x + 2.0, 6.0)),
                    Transform::from_xyz(0.0, -CARD.y / 2.0 + 1.0, 0.00015),
                ));
                s.spawn((
                    Sprite::from_color(palette::MAP_GOLD.sprite(), CARD + Vec2::splat(3.0)),
                    Transform::from_xyz(0.0, 2.0, 0.00005),
                ));
                s.spawn((Sprite::from_color(body, CARD), Transform::from_xyz(0.0, 2.0, 0.0001)));
                if let Some(image) = icon {
                    let sprite =
                        Sprite { image, color: edge, custom_size: Some(Vec2::splat(CARD.x - 4.0)), ..default() };
                    s.spawn((sprite, Transform::from_xyz(0.0, 4.0, 0.0002)));
                }
            });
        }
    }
}

/// Standing just behind the Lantern's token, in its light (over the glow,
/// under the token); fallen, flat on its side.
fn standee_transform(at: Vec2, down: bool, i: usize) -> Transform {
    let z = 0.0005 + i as f32 * 0.0003;
    let t = Transform::from_translation(at.extend(z));
    if down { t.with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2)) } else { t }
}
