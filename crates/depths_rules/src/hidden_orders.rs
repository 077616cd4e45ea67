//! Hidden orders: what the players cannot know. Every face-down pile is in an
//! order nobody has seen; a forecast that played on from the real order would
//! be peeking. [`Game::determinized`] deals those orders afresh, so that one
//! playout sees one of the worlds the players cannot tell apart from the real
//! one.
//!
//! Reshuffled (face down, order unseen):
//! - the Map Tile pile, except the Stairs Tile's place ("fourth from the
//!   bottom", which everyone saw at Setup);
//! - the Monster, Feature and Stair Guardian decks of the Ecology;
//! - the Legendary Location piles: the number-only pile wholly, a lettered pile
//!   only among cards of the same numeral (the book stacks the numerals in
//!   order, so that order is known);
//! - the Item and Ability decks, except the cards put back at their bottom;
//! - each Hero's Action Card Draw Pile, except the cards Retrieve put on top;
//! - the three Monster Action decks' Draw Piles;
//! - the game's random generator, which decides everything not yet dealt (the
//!   next Ecologies' Setup, the Final Entity's cards, later reshuffles).
//!
//! Kept as they are: everything face up — the map, the tile in hand and a
//! set-aside tile, hands, Discard Piles, Stored Power, Removed cards, Items and
//! Abilities owned, the Features revealed and put back in the players' order,
//! set-aside Monsters, cards offered in a choice, the Combat, the XP pool —
//! and which cards each pile holds.

use crate::GameRng;
use crate::game::Game;
use crate::legendary_location::LegendaryPiles;

impl Game {
    /// A copy of the game in which every order the players cannot know is
    /// dealt afresh from `seed`, and the game's own random generator reseeded.
    /// The result depends only on what the players can see and on `seed`:
    /// two games that differ only in hidden orders (or in their generator)
    /// give the same game for the same seed.
    pub fn determinized(&self, seed: u64) -> Game {
        let mut game = self.clone();
        game.determinize(seed);
        game
    }

    /// [`Game::determinized`] in place.
    pub fn determinize(&mut self, seed: u64) {
        let mut rng = GameRng::from_seed(seed);
        for hero in &mut self.heroes {
            let hidden = hero.draw.len() - usize::from(hero.known_on_top).min(hero.draw.len());
            reshuffle_by(&mut hero.draw[..hidden], &mut rng, |c| &c.id);
        }
        for deck in &mut self.monster_decks {
            reshuffle_by(&mut deck.draw, &mut rng, |c| &c.id);
        }
        if let Some(adv) = self.adventure.as_deref_mut() {
            let eco = &mut adv.ecology;
            eco.pile.reshuffle_hidden(&mut rng);
            reshuffle_by(&mut eco.monsters, &mut rng, |m| &m.id);
            reshuffle_by(&mut eco.features, &mut rng, |f| &f.id);
            reshuffle_by(&mut eco.stair_guardians, &mut rng, |m| &m.id);
            for piles in &mut eco.legendary {
                reshuffle_legendary(piles, &mut rng);
            }
            for (class, deck) in adv.item_decks.iter_mut().enumerate() {
                let known = usize::from(adv.known_at_bottom.items.get(class).copied().unwrap_or(0)).min(deck.len());
                reshuffle_by(&mut deck[known..], &mut rng, |c| &c.id);
            }
            for (class, deck) in adv.ability_decks.iter_mut().enumerate() {
                let known = usize::from(adv.known_at_bottom.abilities.get(class).copied().unwrap_or(0)).min(deck.len());
                reshuffle_by(&mut deck[known..], &mut rng, |c| &c.id);
            }
        }
        self.rng = GameRng::from_seed(u64::from(rng.next_u32()) << 32 | u64::from(rng.next_u32()));
    }
}

/// Sorts the cards by `key` first, so the new order owes nothing to the old
/// one. The key is borrowed: a forecast determinizes a game for every
/// playout, and copying every id for every comparison cost more than the rest.
fn reshuffle_by<T, K: Ord + ?Sized>(cards: &mut [T], rng: &mut GameRng, key: impl Fn(&T) -> &K) {
    cards.sort_by(|a, b| key(a).cmp(key(b)));
    rng.shuffle(cards);
}

/// The number-only pile wholly; a lettered pile within each run of cards
/// sharing a numeral.
fn reshuffle_legendary(piles: &mut LegendaryPiles, rng: &mut GameRng) {
    reshuffle_by(&mut piles.entry, rng, |c| &c.id);
    for (_, pile) in &mut piles.lettered {
        // Each back is parsed once: a determinized copy is made per playout.
        let mut start = 0;
        let mut label = pile.first().map(|c| c.label().ok());
        while let Some(run) = label {
            let mut end = start + 1;
            label = None;
            while end < pile.len() {
                let next = pile[end].label().ok();
                if next != run {
                    label = Some(next);
                    break;
                }
                end += 1;
            }
            if run.is_some() {
                reshuffle_by(&mut pile[start..end], rng, |c| &c.id);
            }
            start = end;
        }
    }
}
