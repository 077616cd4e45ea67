//! Everything a whole game adds to the Combat core: its options and cards,
//! the Keys and XP, the Item and Ability decks, the Ecology in play (its
//! map, tiles, piles and Lantern), the decisions the game waits for and the
//! cards being Resolved.

use super::refusal::{Checked, MAX_NAMED, ensure, faultless, invalid, nth, who};
use crate::Ecology;
use crate::adventure::{Adventure, HeroChoice, MAX_KEYS, Pending, Purchase, Resolving, class_index};
use crate::combat::FoeCard;
use crate::content::{CLASSES, hero_ability_faults, item_faults, monster_faults};
use crate::game::{Game, Stage};
use crate::purchases::paid_so_far;

pub(super) fn check(g: &Game, a: &Adventure) -> Checked {
    let n = g.heroes.len();
    let ids = a.options.heroes.iter().zip(&g.heroes).all(|(id, h)| *id == h.mat.id);
    ensure!(
        a.options.heroes.len() == n && ids,
        "adventure.options.heroes",
        "the game was set up for the Heroes {:?}, but they are not the Heroes at the table",
        a.options.heroes
    );
    if let Some(fault) = a.content.save_fault() {
        return Err(invalid("adventure.content", format!("the game's cards: {fault}")));
    }
    ensure!(a.keys <= MAX_KEYS, "adventure.keys", "the Heroes have {} Keys; {MAX_KEYS} at most", a.keys);
    ensure!(
        a.xp_pool.len() <= MAX_NAMED,
        "adventure.xp_pool",
        "the XP pool holds {} cards, more than can be told apart",
        a.xp_pool.len()
    );
    // "Starting at a Lower Ecology": at most two Abilities each, and one to start with.
    ensure!(
        a.abilities_to_gain.len() <= 3 * n,
        "adventure.abilities_to_gain",
        "{} Abilities are still to be Gained at the start, more than {n} Heroes may",
        a.abilities_to_gain.len()
    );
    for (i, &h) in a.abilities_to_gain.iter().enumerate() {
        ensure!(
            usize::from(h) < n,
            format!("adventure.abilities_to_gain.{i}"),
            "an Ability is still to be Gained by Hero {}, but the game has {n}",
            u16::from(h) + 1
        );
    }
    decks(a)?;
    item_action_cards(g, a)?;
    ecology(a)?;
    for (i, p) in a.pending.iter().enumerate() {
        pending(g, a, i, p)?;
    }
    resolving(g, a)
}

/// One Item deck, one Ability deck and one pool of Item Action Cards per
/// class, each card of its class.
fn decks(a: &Adventure) -> Checked {
    for (field, words, len) in [
        ("item_decks", "Item decks", a.item_decks.len()),
        ("ability_decks", "Ability decks", a.ability_decks.len()),
        ("item_action_cards", "piles of Item Action Cards", a.item_action_cards.len()),
    ] {
        ensure!(len == CLASSES.len(), format!("adventure.{field}"), "the game has {len} {words}; one per class, 3");
    }
    for (d, (class, name)) in CLASSES.iter().enumerate() {
        for (i, item) in a.item_decks[d].iter().enumerate() {
            let at = || format!("adventure.item_decks.{d}.{i}");
            faultless(item_faults(item), at, &item.name)?;
            ensure!(
                item.deck == Some(*class),
                at(),
                "{} lies in the {name} Item deck, but is not a {name} Item",
                item.name
            );
        }
        for (i, card) in a.ability_decks[d].iter().enumerate() {
            let at = || format!("adventure.ability_decks.{d}.{i}");
            faultless(hero_ability_faults(&card.ability), at, &card.ability.name)?;
            ensure!(
                card.class == *class,
                at(),
                "{} lies in the {name} Ability deck, but is not a {name} Ability",
                card.ability.name
            );
        }
        let pool = &a.item_action_cards[d];
        let twice = pool.iter().enumerate().any(|(i, c)| pool[..i].iter().any(|o| o.id == c.id));
        ensure!(
            pool.iter().all(|c| c.item && !c.power) && !twice,
            format!("adventure.item_action_cards.{d}"),
            "a card among the {name} Item Action Cards is not one, or is there twice"
        );
    }
    Ok(())
}

/// An Item Action Card is in its class's pool or in a Hero's deck (or on the
/// table), not both, and no card of a Hero's shares its number: a Hero Adds
/// cards from the pool of their Primary class.
fn item_action_cards(g: &Game, a: &Adventure) -> Checked {
    for (h, hero) in g.heroes.iter().enumerate() {
        let pool = &a.item_action_cards[class_index(hero.mat.class)];
        let piles = [&hero.draw, &hero.hand, &hero.discard, &hero.stored_power, &hero.out_of_deck, &hero.test_cards];
        let table = g.combat.iter().flat_map(|c| c.engagements.iter()).filter(|e| usize::from(e.hero) == h);
        let played = table.flat_map(|e| e.slots.iter().filter_map(|s| s.hero.as_ref()));
        let mut owned = piles.into_iter().flatten().chain(played);
        if let Some(card) = owned.find(|c| pool.iter().any(|p| p.id == c.id)) {
            return Err(invalid(
                format!("heroes.{h}"),
                format!(
                    "{} owns Action Card {}, and an Item Action Card still to Add has that number too",
                    who(g, h),
                    card.id.0
                ),
            ));
        }
    }
    Ok(())
}

/// The Ecology in play: its map, its Reference Card and its tiles are of
/// it, a tile is set aside only under the rule that allows it, its cards are
/// sound, each Rune Pattern has its Legendary Location piles, and the
/// Encounter Token stands on an element of the map.
fn ecology(a: &Adventure) -> Checked {
    let eco = &a.ecology;
    let here = eco.ecology;
    ensure!(
        eco.map.ecology() == here && eco.reference.ecology == here,
        "adventure.ecology.ecology",
        "the Heroes are in the {}, but the map or the Reference Card is of another Ecology",
        here.name()
    );
    let tiles = eco.pile.tiles().iter().map(|t| ("pile", t));
    let tiles = tiles.chain(eco.drawn.iter().map(|t| ("drawn", t)));
    for (field, tile) in tiles.chain(eco.dead_end.set_aside.iter().map(|t| ("dead_end.set_aside", t))) {
        let at = format!("adventure.ecology.{field}");
        if let Err(e) = tile.validate() {
            return Err(invalid(at, format!("Map Tile {}: {e}", tile.id)));
        }
        ensure!(
            tile.ecology == here,
            at,
            "Map Tile {} is of the {}, not the {}",
            tile.id,
            tile.ecology.name(),
            here.name()
        );
    }
    let aside = &eco.dead_end;
    ensure!(
        aside.set_aside.is_none() || (aside.enabled && aside.used),
        "adventure.ecology.dead_end",
        "a Map Tile is set aside, but the One Dead-End Per Ecology rule has not been used"
    );
    let monsters = eco.monsters.iter().map(|m| ("monsters", m));
    let monsters = monsters.chain(eco.set_aside_monsters.iter().map(|m| ("set_aside_monsters", m)));
    for (field, m) in monsters.chain(eco.stair_guardians.iter().map(|m| ("stair_guardians", m))) {
        faultless(monster_faults(m), || format!("adventure.ecology.{field}"), &m.name)?;
    }
    for (p, pattern) in eco.patterns.iter().enumerate() {
        ensure!(
            pattern.validate().is_ok(),
            format!("adventure.ecology.patterns.{p}"),
            "Rune Pattern {} cannot be matched on a map",
            pattern.id
        );
    }
    ensure!(
        eco.legendary.len() == eco.patterns.len(),
        "adventure.ecology.legendary",
        "the Ecology has {} Rune Patterns, but Legendary Location piles for {}",
        eco.patterns.len(),
        eco.legendary.len()
    );
    if let Some(e) = eco.encountering {
        ensure!(
            eco.map.element(e).is_some(),
            "adventure.ecology.encountering",
            "the Encounter Token stands on no Ecology Element of the map"
        );
    }
    Ok(())
}

/// A decision the game waits for has what it decides over: a Hero at the
/// table, options to choose among, a purchase not yet paid in full, a Level
/// Up for each Hero, a Passage to the Ecology below.
fn pending(g: &Game, a: &Adventure, i: usize, p: &Pending) -> Checked {
    let n = g.heroes.len();
    let at = format!("adventure.pending.{i}");
    let hero_in = |hero: u8| -> Checked {
        ensure!(
            usize::from(hero) < n,
            format!("{at}.hero"),
            "the {} decision the game waits for is for Hero {hero}, but there are {n} Heroes",
            nth(i)
        );
        Ok(())
    };
    ensure!(g.stage != Stage::Combat, &at, "the game waits for a decision outside Combat, but is in a Combat");
    match p {
        Pending::Purchase { what, cost, paid, items } => {
            let r = &a.ecology.reference;
            let price = match *what {
                Purchase::Key => r.key_cost,
                Purchase::Healing { units } => {
                    ensure!(units > 0, &at, "the Heroes are buying no Healing");
                    r.healing.xp.saturating_mul(units)
                }
                Purchase::Ability { hero } => {
                    hero_in(hero)?;
                    r.ability_cost
                }
            };
            ensure!(*cost == price, &at, "a purchase costs {cost} XP, but the Reference Card asks {price}");
            ensure!(
                paid_so_far(paid, items) < u16::from(*cost),
                &at,
                "a purchase of {cost} XP is paid in full, but still waits"
            );
            for (k, offered) in items.iter().enumerate() {
                hero_in(offered.hero)?;
                faultless(item_faults(&offered.item.card), || format!("{at}.items.{k}"), &offered.item.card.name)?;
            }
        }
        Pending::SplitHealing { .. } => {}
        Pending::ChooseHero(HeroChoice::GainItem(item)) => {
            faultless(item_faults(item), || at.clone(), &item.name)?;
            ensure!(
                (0..n as u8).any(|h| g.may_select_item(h, item)),
                &at,
                "the players are to choose a Hero to take {}, but no Hero may",
                item.name
            );
        }
        Pending::ChooseHero(_) => {}
        Pending::ChooseItem { hero, options } => {
            hero_in(*hero)?;
            ensure!(options.len() <= MAX_NAMED, &at, "{} Items are offered; too many to tell apart", options.len());
            for (k, item) in options.iter().enumerate() {
                faultless(item_faults(item), || format!("{at}.options.{k}"), &item.name)?;
            }
            ensure!(
                options.iter().any(|o| g.item_destination(*hero, o).is_some()),
                &at,
                "{} is to choose an Item, but may take none of those offered",
                who(g, usize::from(*hero))
            );
        }
        Pending::RemoveCards { hero, count } => {
            hero_in(*hero)?;
            let draw = g.heroes[usize::from(*hero)].draw.len();
            ensure!(
                *count > 0 && usize::from(*count) <= draw,
                &at,
                "{} is to Remove {count} Action Cards from a Draw Pile of {draw}",
                who(g, usize::from(*hero))
            );
        }
        Pending::ChooseAbilityDraw { hero } => hero_in(*hero)?,
        Pending::ChooseAbility { hero, options } => {
            hero_in(*hero)?;
            ensure!(
                !options.is_empty() && options.len() <= MAX_NAMED,
                &at,
                "{} is to choose among {} Abilities",
                who(g, usize::from(*hero)),
                options.len()
            );
            for (k, card) in options.iter().enumerate() {
                faultless(hero_ability_faults(&card.ability), || format!("{at}.options.{k}"), &card.ability.name)?;
            }
        }
        Pending::OrderFeatures { cards } => {
            ensure!(!cards.is_empty(), &at, "the players are to order the Features revealed, but none is");
        }
        Pending::LevelUp { bought } => {
            ensure!(
                bought.len() == n,
                &at,
                "Level Up keeps what {} Heroes bought, but there are {n} Heroes",
                bought.len()
            );
            let again = a.pending[..i].iter().any(|p| matches!(p, Pending::LevelUp { .. }));
            ensure!(!again, &at, "the Heroes Level Up twice at once");
        }
        Pending::Passage { next } => {
            let below = a.ecology.ecology.next();
            ensure!(
                below == Some(*next),
                &at,
                "the Passage leads to the {}, but {}",
                next.name(),
                below.map_or(String::from("the Final Entity's Ecology is the last"), |b: Ecology| format!(
                    "the {} lies below the {}",
                    b.name(),
                    a.ecology.ecology.name()
                ))
            );
            ensure!(a.pending.len() == 1, &at, "the Heroes descend with other decisions still to make");
        }
    }
    Ok(())
}

/// The cards being Resolved: a Legendary Location's pattern is one of the
/// Ecology's, effects wait only for a card, an Encounter goes on only while
/// a decision or a Combat holds it, the Combat on is for what is being
/// Resolved (the Final Entity for the Final Entity), and a Combat's foes
/// wait for their XP only within the move that won it.
fn resolving(g: &Game, a: &Adventure) -> Checked {
    for (i, r) in a.resolving.iter().enumerate() {
        if let Resolving::Legendary { pattern, card, .. } = r {
            ensure!(
                *pattern < a.ecology.legendary.len(),
                format!("adventure.resolving.{i}"),
                "{} is a Legendary Location of Rune Pattern {pattern}, but the Ecology has {}",
                card.name,
                a.ecology.legendary.len()
            );
        }
    }
    ensure!(
        a.queue.is_empty() || !a.resolving.is_empty(),
        "adventure.queue",
        "card effects wait to be resolved, but no card is being Resolved"
    );
    ensure!(a.defeated.is_empty(), "adventure.defeated", "the foes of a Combat won wait for their XP");
    // Out of Combat, play goes on until a decision is needed: with none, what
    // was Encountered is fully Resolved and the Heroes are Exploring.
    let waiting = g.stage == Stage::OutOfCombat && a.pending.is_empty();
    ensure!(
        !waiting || (a.queue.is_empty() && a.resolving.is_empty() && a.encounter.is_none() && !a.setting_up),
        "adventure.encounter",
        "the Heroes are still Encountering or setting up, but the game waits for no decision"
    );
    if g.stage == Stage::Combat
        && let Some(c) = &g.combat
    {
        let entity = c.foes.iter().any(|f| matches!(f.card, FoeCard::FinalEntity(_)));
        let fits = match a.resolving.last() {
            Some(Resolving::FinalEntity) => entity,
            Some(Resolving::Monsters | Resolving::StairGuardian) => !entity,
            _ => false,
        };
        ensure!(fits, "adventure.resolving", "the Combat on is not for what the Heroes are Encountering");
    }
    Ok(())
}
