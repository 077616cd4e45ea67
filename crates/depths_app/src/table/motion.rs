//! How the cards move when something happens to them, beside their flight
//! (`cards`): a card dealt or revealed turns over on its way (its back
//! first), and a card hit shakes. Feedback asks for a shake ([`Jolts`]);
//! `cards` moves every card and applies both.
//!
//! Each lasts a fraction of a second and asks for frames only while it runs
//! (the table idles when nothing happens), and none holds up input: a card
//! may be played while it still turns.

use bevy::prelude::*;

use super::faces::{CardKey, Kind};

/// How long a shake lasts (s).
pub const JOLT: f32 = 0.35;
/// How far a shake throws a card at first (px).
const JOLT_PX: f32 = 7.0;

/// Whose cards shake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Jolt {
    /// A Monster card (or the Final Entity) hit.
    Foe(usize),
    /// A Hero hit: their cards in the pairs.
    Hero(u8),
}

impl Jolt {
    /// Whether the card `key` of kind `kind` shakes.
    pub fn shakes(&self, key: &CardKey, kind: Kind) -> bool {
        match (self, key) {
            (Jolt::Foe(f), CardKey::Foe(k)) => f == k,
            (Jolt::Hero(h), CardKey::Hero { hero, .. }) => h == hero && kind == Kind::Hero,
            _ => false,
        }
    }
}

/// The shakes under way, with when each began (kept by key, so a card
/// redrawn with its new Health goes on shaking).
#[derive(Resource, Default, Debug)]
pub struct Jolts(pub Vec<(Jolt, f32)>);

impl Jolts {
    /// How far across the card `key` is thrown `now` (px), if it shakes.
    pub fn offset(&self, key: &CardKey, kind: Kind, now: f32) -> Option<f32> {
        self.0.iter().filter(|(j, _)| j.shakes(key, kind)).find_map(|(_, born)| jolt_offset(now - born))
    }

    /// Forgets the shakes that are over.
    pub fn forget_old(&mut self, now: f32) {
        self.0.retain(|(_, born)| now - born < JOLT);
    }
}

/// A shake `age` seconds in: a fast swing that dies away; none once over.
pub fn jolt_offset(age: f32) -> Option<f32> {
    (0.0..JOLT).contains(&age).then(|| {
        let t = age / JOLT;
        (age * 55.0).sin() * JOLT_PX * (1.0 - t) * (1.0 - t)
    })
}

/// The back of a card that turns over on its way; hidden once it has.
#[derive(Component, Debug)]
pub struct CardBack;

/// A card turning over, `t` of its flight done (0..1): how wide it looks
/// (as a share of its width) and whether its back still shows.
pub fn turning(t: f32) -> (f32, bool) {
    let half = t < 0.5;
    let width = if half { 1.0 - 2.0 * t } else { 2.0 * t - 1.0 };
    (width.max(0.02), half)
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Jolts>();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A turning card shows its back, narrows to an edge, then shows its
    /// face at full width.
    #[test]
    fn a_card_turns_over_on_its_way() {
        assert_eq!(turning(0.0), (1.0, true));
        assert!(turning(0.49).0 < 0.05 && turning(0.49).1);
        assert!(!turning(0.51).1);
        assert_eq!(turning(1.0), (1.0, false));
    }

    /// A shake swings and dies away: nothing before or after it.
    #[test]
    fn a_shake_dies_away() {
        assert_eq!(jolt_offset(-0.1), None);
        assert_eq!(jolt_offset(JOLT), None);
        let early = (0..5).map(|i| jolt_offset(0.01 * i as f32).unwrap().abs()).fold(0.0, f32::max);
        let late = (25..34).map(|i| jolt_offset(0.01 * i as f32).unwrap().abs()).fold(0.0, f32::max);
        assert!(early > 3.0 && late < 1.0, "{early} then {late}");
        let jolts = Jolts(vec![(Jolt::Foe(1), 0.0)]);
        assert!(jolts.offset(&CardKey::Foe(1), Kind::Foe, 0.02).is_some());
        assert!(jolts.offset(&CardKey::Foe(0), Kind::Foe, 0.02).is_none());
    }
}
