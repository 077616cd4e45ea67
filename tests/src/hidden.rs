//! A game with the same table and other hidden orders, for the tests that a
//! forecast never looks at the real ones.

use depths_rules::map::TileKind;
use depths_rules::{Game, GameRng};

/// The same table with other hidden orders: every face-down pile turned
/// round (the Stairs Tile and the known cards kept in place), another generator.
pub fn other_hidden_orders(g: &Game) -> Game {
    let mut g = g.clone();
    for hero in &mut g.heroes {
        let hidden = hero.draw.len() - usize::from(hero.known_on_top);
        hero.draw[..hidden].reverse();
    }
    for deck in &mut g.monster_decks {
        deck.draw.reverse();
    }
    g.rng = GameRng::from_seed(0xdead_beef);
    let adv = g.adventure.as_deref_mut().unwrap();
    let eco = &mut adv.ecology;
    eco.monsters.reverse();
    eco.features.reverse();
    eco.stair_guardians.reverse();
    for piles in &mut eco.legendary {
        piles.entry.reverse();
    }
    // Swap the top two tiles when both lie above the Stairs Tile.
    let tiles = eco.pile.tiles();
    let stairs = tiles.iter().position(|t| t.kind == TileKind::Stairs).unwrap_or(0);
    if tiles.len() >= 2 && tiles.len() - 2 > stairs {
        let id = tiles[tiles.len() - 2].id.clone();
        eco.pile.put_on_top(&id);
    }
    for (class, deck) in adv.item_decks.iter_mut().enumerate() {
        let known = usize::from(adv.known_at_bottom.items[class]).min(deck.len());
        deck[known..].reverse();
    }
    for (class, deck) in adv.ability_decks.iter_mut().enumerate() {
        let known = usize::from(adv.known_at_bottom.abilities[class]).min(deck.len());
        deck[known..].reverse();
    }
    g
}
