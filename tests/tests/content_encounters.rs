//! The encounter content: Features, Legendary Locations, treasures and the
//! Fabled Blades ("2. Features", "5. Legendary Locations", "4. Chests",
//! "The Fabled Blades", "Arranging the Legendary Location Cards").
//!
//! Legendary Location cards need their Rune Patterns (`rune_patterns.json`)
//! and the Caverns' set-aside Crazed Bipedal Saurian (`monsters.json`), which
//! other files provide. While those files are still being authored, these
//! tests load the shipped files with numbered stand-in patterns and a
//! stand-in Saurian in their place, and say so on stderr; once the real ones
//! are there, they test `Content::builtin()` itself.

use std::collections::{BTreeMap, BTreeSet};

use depths_rules::effect::{Activation, Effect, Whom, all_effects};
use depths_rules::feature::ReferenceCard;
use depths_rules::legendary_location::{LegendaryCard, LegendaryPiles};
use depths_rules::{Content, Ecology, GameRng};

const ECOLOGIES: [(Ecology, &str); 3] =
    [(Ecology::Ruins, "ruins"), (Ecology::Caverns, "caverns"), (Ecology::Subterranean, "subterranean")];
const SAURIAN: &str = "crazed_bipedal_saurian";

/// The shipped content.
fn content() -> Content {
    Content::builtin().unwrap_or_else(|e| panic!("{e}"))
}

/// The Reference Card as it is on disk now (another designer may tune it).
fn reference(dir: &str) -> ReferenceCard {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../assets/content/{dir}/reference.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// What resolving a card can lead to: one entry per way its tests can come
/// out, with the pile it sends the Heroes to (if any) and the Items gained.
fn outcomes(effects: &[Effect]) -> Vec<(Option<char>, Vec<String>)> {
    let mut ways: Vec<(Option<char>, Vec<String>)> = vec![(None, Vec::new())];
    for e in effects {
        match e {
            Effect::GoToPile { letter } => ways.iter_mut().for_each(|w| w.0 = Some(*letter)),
            Effect::GainItem { item } => ways.iter_mut().for_each(|w| w.1.push(item.clone())),
            Effect::Test { success, failure, .. } => {
                let branches: Vec<_> = outcomes(success).into_iter().chain(outcomes(failure)).collect();
                ways = ways
                    .iter()
                    .flat_map(|(go, items)| {
                        branches.iter().map(move |(bgo, bitems)| {
                            (bgo.or(*go), items.iter().chain(bitems).cloned().collect::<Vec<_>>())
                        })
                    })
                    .collect();
            }
            _ => {}
        }
    }
    ways
}

/// One way through a Legendary Location, from a number-only card to the end.
#[derive(Debug)]
struct Route {
    cards: Vec<String>,
    piles: Vec<char>,
    xp: u32,
    items: Vec<String>,
}

/// Resolves `card` and then whatever follows it: the pile it names (its
/// letter, or a `go_to_pile` outcome), else the rest of the current pile.
fn follow(
    piles: &LegendaryPiles,
    card: &LegendaryCard,
    rest: &[LegendaryCard],
    route: &Route,
) -> Vec<Result<Route, String>> {
    let mut out = Vec::new();
    for (go, items) in outcomes(&card.effects) {
        let mut r = Route {
            cards: route.cards.iter().cloned().chain([card.id.clone()]).collect(),
            piles: route.piles.clone(),
            xp: route.xp + u32::from(card.xp),
            items: route.items.iter().cloned().chain(items).collect(),
        };
        match go.or(card.next) {
            Some(letter) => {
                if r.piles.contains(&letter) {
                    out.push(Err(format!("{}: pile {letter} is entered twice", card.id)));
                    continue;
                }
                let Some((_, pile)) = piles.lettered.iter().find(|(l, _)| *l == letter) else {
                    out.push(Err(format!("{}: letter {letter} names no pile of pattern {}", card.id, piles.number)));
                    continue;
                };
                r.piles.push(letter);
                // The top of a pile is its last card.
                let order: Vec<LegendaryCard> = pile.iter().rev().map(|c| LegendaryCard::clone(c)).collect();
                match order.split_first() {
                    Some((top, below)) => out.extend(follow(piles, top, below, &r)),
                    None => out.push(Err(format!("{}: pile {letter} is empty", card.id))),
                }
            }
            None => match rest.split_first() {
                Some((next, below)) => out.extend(follow(piles, next, below, &r)),
                None => out.push(Ok(r)),
            },
        }
    }
    out
}

/// Every Route of every pattern of an Ecology, arranged as at Setup.
fn routes(cards: &[LegendaryCard], seed: u64) -> BTreeMap<u8, (LegendaryPiles, Vec<Route>)> {
    let numbers: BTreeSet<u8> = cards.iter().map(|c| c.label().unwrap().number).collect();
    let mut rng = GameRng::from_seed(seed);
    numbers
        .into_iter()
        .map(|n| {
            let piles = LegendaryPiles::arrange(n, cards, &mut rng);
            let start = Route { cards: vec![], piles: vec![], xp: 0, items: vec![] };
            let mut all = Vec::new();
            for entry in &piles.entry {
                for r in follow(&piles, entry, &[], &start) {
                    all.push(r.unwrap_or_else(|e| panic!("pattern {n}: {e}")));
                }
            }
            (n, (piles, all))
        })
        .collect()
}

#[test]
fn shipped_content_loads_with_the_encounter_cards() {
    let c = content();
    for (eco, _) in ECOLOGIES {
        assert!(!c.ecology(eco).features.is_empty());
        assert!(!c.ecology(eco).legendary.is_empty());
    }
    assert!(!c.treasures.is_empty());
    // Rules text is generated from the effects; every card has some.
    for (eco, d) in ECOLOGIES {
        let e = c.ecology(eco);
        for f in &e.features {
            assert!(!f.effects.is_empty(), "{d} feature {} has no rules", f.id);
            assert!(f.effects.iter().all(|x| !x.text().is_empty()));
        }
        for card in &e.legendary {
            let _ = card.effects.iter().map(Effect::text).collect::<Vec<_>>();
        }
    }
}

#[test]
fn encounter_counts_match_the_components() {
    let c = content();
    let mine = ["features", "legendary location cards", "limited-use tokens", "fabled blades"];
    let left: Vec<String> = c.count_problems().into_iter().filter(|p| mine.iter().any(|m| p.contains(m))).collect();
    assert!(left.is_empty(), "{left:#?}");
    for (eco, d, ll) in
        [(Ecology::Ruins, "ruins", 30), (Ecology::Caverns, "caverns", 30), (Ecology::Subterranean, "subterranean", 21)]
    {
        let e = c.ecology(eco);
        assert_eq!(e.features.len(), 10, "{d} features");
        assert_eq!(e.legendary.len(), ll, "{d} legendary location cards");
        let numbers: BTreeSet<u8> = e.legendary.iter().map(|x| x.label().unwrap().number).collect();
        assert_eq!(numbers, BTreeSet::from([1, 2, 3, 4]), "{d}: four Rune Patterns");
    }
    // The 22 limited-use tokens are all the treasures' own.
    let tokens: u32 = c.treasures.iter().filter(|i| !i.fabled_blade).map(|i| u32::from(i.uses.unwrap_or(0))).sum();
    assert_eq!(tokens, 22);
    assert!(c.treasures.iter().all(|i| i.deck.is_none()), "treasures belong to no class deck");
    assert!(c.treasures.iter().all(|i| i.hands <= 2));
}

#[test]
fn every_legendary_location_can_be_walked_to_its_end() {
    let c = content();
    for (eco, d) in ECOLOGIES {
        let cards = &c.ecology(eco).legendary;
        for seed in [1, 7, 1234] {
            for (n, (piles, all)) in routes(cards, seed) {
                assert!((1..=3).contains(&piles.entry.len()), "{d} pattern {n}: 1–3 number-only cards");
                for entry in &piles.entry {
                    assert!(
                        entry.next.is_some() || outcomes(&entry.effects).iter().all(|(g, _)| g.is_some()),
                        "{d} {}: a number-only card names the pile to draw next",
                        entry.id
                    );
                }
                // Piles are stacked I on top, II under it, …
                for (letter, pile) in &piles.lettered {
                    let romans: Vec<u8> = pile.iter().rev().map(|x| x.label().unwrap().roman.unwrap()).collect();
                    assert!(romans.windows(2).all(|w| w[0] <= w[1]), "{d} {n}{letter}: {romans:?}");
                }
                // No pile is unreachable, and every card is seen on some route.
                let seen: BTreeSet<&String> = all.iter().flat_map(|r| &r.cards).collect();
                for card in cards.iter().filter(|x| x.label().unwrap().number == n) {
                    assert!(seen.contains(&card.id), "{d} {}: no route reaches it", card.id);
                }
                for r in &all {
                    let mut items = r.items.clone();
                    items.sort();
                    items.dedup();
                    assert_eq!(items.len(), r.items.len(), "{d} pattern {n}: an Item twice on {:?}", r.cards);
                }
            }
        }
    }
}

#[test]
fn legendary_location_xp_is_within_the_reference_card_range() {
    let c = content();
    for (eco, d) in ECOLOGIES {
        let [lo, hi] = reference(d).legendary_xp;
        for (n, (_, all)) in routes(&c.ecology(eco).legendary, 42) {
            for r in all {
                assert!(
                    (u32::from(lo)..=u32::from(hi)).contains(&r.xp),
                    "{d} pattern {n}: {} XP along {:?}, Reference Card says {lo}–{hi}",
                    r.xp,
                    r.cards
                );
            }
        }
    }
}

#[test]
fn tests_targets_grow_with_the_number_of_heroes() {
    let c = content();
    for (eco, d) in ECOLOGIES {
        let e = c.ecology(eco);
        let cards =
            e.features.iter().map(|f| (&f.id, &f.effects)).chain(e.legendary.iter().map(|l| (&l.id, &l.effects)));
        let mut feature_tests = 0;
        for (id, effects) in cards {
            for x in all_effects(effects) {
                if let Effect::Test { target, cards, .. } = x {
                    assert!((1..=3).contains(cards), "{d} {id}: {cards} cards");
                    assert!(target[0] < target[1] && target[1] < target[2], "{d} {id}: {target:?}");
                    // One Hero per share, like 16/32/48.
                    assert_eq!([target[0], target[0] * 2, target[0] * 3], *target, "{d} {id}");
                    // Possible for any Hero alone (Wizard and Fighter top out at 8), never a sure thing.
                    assert!(target[0] <= cards * 8 && target[0] > *cards * 2, "{d} {id}: {target:?} for {cards} cards");
                    if e.features.iter().any(|f| &f.id == id) {
                        feature_tests += 1;
                    }
                }
            }
        }
        assert!(feature_tests >= 6, "{d}: most Features test the Heroes");
        for f in &e.features {
            assert!((1..=3).contains(&f.xp), "{d} {}: xp {}", f.id, f.xp);
        }
    }
}

#[test]
fn the_named_cards_are_there() {
    let c = content();
    let ruins = c.ecology(Ecology::Ruins);
    let bowl = ruins.features.iter().find(|f| f.name == "Brass Scrying Bowl").expect("Brass Scrying Bowl");
    assert_eq!(bowl.effects, vec![Effect::RevealFeatures { count: 3 }]);
    assert!(bowl.effects[0].text().starts_with("Reveal the next (3) Features."));
    let sunken = ruins.legendary.iter().find(|l| l.name == "Sunken Section of Floor").expect("Sunken Section of Floor");
    assert_eq!(
        sunken.description,
        "It seems to have opened into a hollow space below. The rubble makes it easy to descend."
    );
}

#[test]
fn one_caverns_card_lets_the_saurian_loose() {
    let c = content();
    for (eco, d) in ECOLOGIES {
        let e = c.ecology(eco);
        let effects = e
            .features
            .iter()
            .flat_map(|f| all_effects(&f.effects))
            .chain(e.legendary.iter().flat_map(|l| all_effects(&l.effects)));
        let n = effects.filter(|x| matches!(x, Effect::ShuffleIntoMonsters { monster } if monster == SAURIAN)).count();
        assert_eq!(n, usize::from(eco == Ecology::Caverns), "{d}");
    }
}

/// Where each Item is gained: a Feature id, or "<ecology> pattern <n>".
fn sources(c: &Content) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (eco, d) in ECOLOGIES {
        let e = c.ecology(eco);
        for f in &e.features {
            for x in all_effects(&f.effects) {
                if let Effect::GainItem { item } = x {
                    out.entry(item.clone()).or_default().insert(format!("{d} feature {}", f.id));
                }
            }
        }
        for l in &e.legendary {
            for x in all_effects(&l.effects) {
                if let Effect::GainItem { item } = x {
                    out.entry(item.clone()).or_default().insert(format!("{d} pattern {}", l.label().unwrap().number));
                }
            }
        }
    }
    out
}

#[test]
fn every_treasure_is_found_in_exactly_one_place() {
    let c = content();
    let found = sources(&c);
    for t in &c.treasures {
        let at = found.get(&t.id).unwrap_or_else(|| panic!("treasure {} is found nowhere", t.id));
        assert_eq!(at.len(), 1, "treasure {} is found in {at:?}", t.id);
    }
    for id in found.keys() {
        assert!(c.treasures.iter().any(|t| &t.id == id), "{id} is no treasure");
    }
    // Limited-use Items come from Features and Legendary Locations alike.
    let limited: Vec<&String> =
        c.treasures.iter().filter(|t| t.uses.is_some()).map(|t| found[&t.id].first().unwrap()).collect();
    assert!(limited.iter().any(|s| s.contains("feature")) && limited.iter().any(|s| s.contains("pattern")));
}

#[test]
fn the_fabled_blades_are_mighty_terrible_and_far_apart() {
    let c = content();
    let blades: Vec<_> = c.treasures.iter().filter(|i| i.fabled_blade).collect();
    let names: BTreeSet<&str> = blades.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, BTreeSet::from(["Null", "Nenth"]));
    let found = sources(&c);
    let mut where_: BTreeSet<String> = BTreeSet::new();
    for b in &blades {
        assert!(b.magic && b.uses.is_none() && b.class_only.is_none(), "{}", b.id);
        let effects: Vec<(&Activation, &Effect)> =
            b.abilities.iter().flat_map(|a| a.effects.iter().map(move |e| (&a.activation, e))).collect();
        let mighty = effects
            .iter()
            .any(|(a, e)| **a == Activation::Passive && matches!(e, Effect::BonusDamage { amount } if *amount >= 3));
        let terrible = effects.iter().any(|(a, e)| {
            (**a == Activation::Passive && matches!(e, Effect::WoundEachRound { .. }))
                || matches!(
                    e,
                    Effect::DamageHeroes { whom: Whom::Heroes, .. } | Effect::LoseStoredPower { whom: Whom::Heroes }
                )
        });
        assert!(mighty && terrible, "{}", b.id);
        let at = found[&b.id].first().unwrap().clone();
        assert!(at.contains("pattern"), "{} lies at a Legendary Location, not {at}", b.id);
        where_.insert(at.split(' ').next().unwrap().to_string());
    }
    assert_eq!(where_, BTreeSet::from(["caverns".to_string(), "subterranean".to_string()]));
}
