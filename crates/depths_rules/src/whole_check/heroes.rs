//! The Heroes: their mats, level and Health, their Action Cards in every
//! pile (and on the Combat's table), their Items and Abilities.

use super::refusal::{Checked, MAX_HEROES, MAX_NAMED, ensure, faultless, invalid, who};
use crate::action_card::ActionCard;
use crate::adventure::Resolving;
use crate::content::{hero_ability_faults, item_faults, mat_faults};
use crate::game::Game;
use crate::hero::Hero;
use crate::items::hands_equipped;

/// The most Action Cards a Hero may own: far above a deck's 12 numbered
/// cards, its Power Cards and every Item Action Card, and low enough that a
/// test's sum over every Hero's cards stays within its counter.
const MAX_CARDS: usize = 64;

pub(super) fn check(g: &Game) -> Checked {
    let n = g.heroes.len();
    ensure!((1..=MAX_HEROES).contains(&n), "heroes", "the game has {n} Heroes, but it is played by 1 to {MAX_HEROES}");
    for (h, hero) in g.heroes.iter().enumerate() {
        let at = |field: &str| format!("heroes.{h}.{field}");
        let who = who(g, h);
        faultless(mat_faults(&hero.mat), || at("mat"), &format!("{who}'s Hero Mat"))?;
        ensure!((1..=3).contains(&hero.level), at("level"), "{who} is at level {}; levels run 1 to 3", hero.level);
        ensure!(
            hero.health <= hero.max_health(),
            at("health"),
            "{who} has {} Health, above their Maximum Health Value of {}",
            hero.health,
            hero.max_health()
        );
        cards(g, h, hero, &who)?;
        items(h, hero, &who)?;
        ensure!(
            hero.abilities.len() <= MAX_NAMED && hero.mat.abilities.len() <= MAX_NAMED,
            at("abilities"),
            "{who} has {} Abilities, more than can be told apart",
            hero.abilities.len()
        );
        for (i, a) in hero.abilities.iter().enumerate() {
            let card = format!("{who}'s Ability {}", a.card.ability.name);
            faultless(hero_ability_faults(&a.card.ability), || at(&format!("abilities.{i}")), &card)?;
        }
    }
    Ok(())
}

/// Every Action Card of a Hero's is in one place only, a Power Card is
/// Stored (never in a Hand) and worth nothing, a Hand holds 3 at most, and
/// the cards drawn for a test lie apart only while a card is being Resolved.
fn cards(g: &Game, h: usize, hero: &Hero, who: &str) -> Checked {
    let at = |field: &str| format!("heroes.{h}.{field}");
    ensure!(hero.hand.len() <= 3, at("hand"), "{who} holds {} cards; a Hand holds 3 at most", hero.hand.len());
    ensure!(
        usize::from(hero.known_on_top) <= hero.draw.len(),
        at("known_on_top"),
        "{who}'s Draw Pile has {} known cards on top, but holds {}",
        hero.known_on_top,
        hero.draw.len()
    );
    if let Some(i) = hero.hand.iter().position(|c| c.power) {
        return Err(invalid(at(&format!("hand.{i}")), format!("{who} holds a Power Card in their Hand")));
    }
    if let Some(i) = hero.stored_power.iter().position(|c| !c.power) {
        return Err(invalid(
            at(&format!("stored_power.{i}")),
            format!("{who} has Stored a card that is not a Power Card"),
        ));
    }
    let resolving_card = g
        .adventure()
        .is_some_and(|a| a.resolving.iter().any(|r| matches!(r, Resolving::Feature(_) | Resolving::Legendary { .. })));
    ensure!(
        hero.test_cards.is_empty() || resolving_card,
        at("test_cards"),
        "{who} has cards drawn for a test, but no card is being Resolved"
    );
    // The cards on the Combat's table are the Hero's too.
    let table = g.combat.iter().flat_map(|c| c.engagements.iter()).filter(|e| usize::from(e.hero) == h);
    let piles: [(&str, &[ActionCard]); 6] = [
        ("draw", &hero.draw),
        ("hand", &hero.hand),
        ("discard", &hero.discard),
        ("stored_power", &hero.stored_power),
        ("out_of_deck", &hero.out_of_deck),
        ("test_cards", &hero.test_cards),
    ];
    let played = table.flat_map(|e| e.slots.iter().filter_map(|s| s.hero)).map(|c| ("on the table", c));
    let all: Vec<(&str, ActionCard)> =
        piles.iter().flat_map(|(pile, cards)| cards.iter().map(move |c| (*pile, *c))).chain(played).collect();
    ensure!(all.len() <= MAX_CARDS, at("draw"), "{who} owns {} Action Cards, more than any deck holds", all.len());
    let mut ids: Vec<_> = all.iter().map(|(_, c)| c.id).collect();
    ids.sort_unstable();
    if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
        return Err(invalid(at("draw"), format!("{who} owns Action Card {} twice", w[0].0)));
    }
    if let Some((pile, c)) = all.iter().find(|(_, c)| c.power && (c.value != 0 || c.item)) {
        return Err(invalid(
            at(pile),
            format!("{who}'s Power Card {} has a value or an Item's chest; a Power Card has neither", c.id.0),
        ));
    }
    Ok(())
}

/// Each Item is a sound card, its use tokens within the card's, and the
/// Items Equipped take 2 hands at most.
fn items(h: usize, hero: &Hero, who: &str) -> Checked {
    let at = |field: &str| format!("heroes.{h}.{field}");
    ensure!(
        hero.items.len() <= MAX_NAMED,
        at("items"),
        "{who} has {} Items, more than can be told apart",
        hero.items.len()
    );
    for (i, item) in hero.items.iter().enumerate() {
        let card = &item.card;
        faultless(item_faults(card), || at(&format!("items.{i}.card")), &format!("{who}'s {}", card.name))?;
        ensure!(
            card.abilities.len() <= MAX_NAMED,
            at(&format!("items.{i}.card.abilities")),
            "{who}'s {} has more abilities than can be told apart",
            card.name
        );
        let tokens_fit = match (item.uses_left, card.uses) {
            (None, None) => true,
            (Some(left), Some(uses)) => left <= uses,
            _ => false,
        };
        ensure!(
            tokens_fit,
            at(&format!("items.{i}.uses_left")),
            "{who}'s {} has {:?} uses left, but its card gives {:?}",
            card.name,
            item.uses_left,
            card.uses
        );
    }
    // "Heroes are limited to Equipping no more than 2 hand icons worth of Items at a time."
    ensure!(
        hands_equipped(hero) <= 2,
        at("items"),
        "{who} has Equipped {} hands' worth of Items; 2 at most",
        hands_equipped(hero)
    );
    Ok(())
}
