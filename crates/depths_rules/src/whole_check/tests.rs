//! The whole-game check: what it refuses, how it says so, and that the rules
//! it makes safe no longer panic where a number alone could not be checked.

use serde_json::Value;

use crate::action::Action;
use crate::action_card::{ActionCard, MonsterDeck};
use crate::adventure::Purchase;
use crate::combat::{CombatStep, Foe};
use crate::error::RuleError;
use crate::{Content, Ecology, Game, GameOptions, SaveError};

fn content() -> Content {
    Content::builtin().expect("the shipped content loads")
}

/// Bren and Sil against the first Monster of the Ruins, cards still to play.
fn skirmish() -> Game {
    let content = content();
    let mats = ["bren", "sil"].iter().map(|h| content.hero(h).expect("a Hero").clone()).collect();
    let card = content.ecology(Ecology::Ruins).monsters[0].clone();
    Game::skirmish(mats, vec![Foe::monster(card, 2)], 3).0
}

/// The game's save with `edit` made to its JSON, loaded.
fn load_edited(g: &Game, edit: impl FnOnce(&mut Value)) -> Result<Game, SaveError> {
    let mut value: Value = serde_json::from_str(&g.save_json()).expect("a save is JSON");
    edit(&mut value);
    Game::load_json(&value.to_string())
}

/// The field and the reason of a refusal by the check.
fn refusal(result: Result<Game, SaveError>) -> (String, String) {
    match result {
        Err(SaveError::Invalid { field, reason }) => (field, reason),
        other => panic!("not refused by the check: {other:?}"),
    }
}

#[test]
fn games_as_the_rules_leave_them_pass_the_check() {
    assert_eq!(skirmish().check_whole(), Ok(()));
    let g = Game::new(GameOptions::standard(&["bren", "sil", "ava_alt"], 5), content()).expect("sets up");
    assert_eq!(g.check_whole(), Ok(()));
    assert_eq!(Game::load_json(&g.save_json()).as_ref(), Ok(&g));
}

#[test]
fn a_pairing_that_names_a_monster_card_not_in_the_combat_is_refused_in_a_players_words() {
    let g = skirmish();
    assert_eq!(g.combat().expect("a Combat").step, CombatStep::PlayCards);
    let (field, reason) = refusal(load_edited(&g, |v| v["combat"]["engagements"][0]["foe"] = 9.into()));
    assert_eq!(field, "combat.engagements.0.foe");
    assert_eq!(reason, "the Combat's first pairing names Monster Card 9, but the Combat has 1");
    let shown = load_edited(&g, |v| v["combat"]["engagements"][0]["foe"] = 9.into()).expect_err("refused").to_string();
    assert_eq!(
        shown,
        "this game cannot be played on: the Combat's first pairing names Monster Card 9, but the Combat has 1 \
         (combat.engagements.0.foe)"
    );
}

#[test]
fn the_numbers_the_issue_found_each_refuse_the_save() {
    let g = skirmish();
    let cases: [(&str, fn(&mut Value)); 4] = [
        ("combat.engagements.0.hero", |v| v["combat"]["engagements"][0]["hero"] = 9.into()),
        ("combat.group", |v| v["combat"]["group"] = 9.into()),
        ("heroes.0.health", |v| v["heroes"][0]["health"] = 255.into()),
        ("combat.round", |v| v["combat"]["round"] = 0.into()),
    ];
    for (want, edit) in cases {
        let (field, reason) = refusal(load_edited(&g, edit));
        assert_eq!(field, want, "{reason}");
    }
}

#[test]
fn a_power_list_whose_next_ability_is_not_one_of_its_own_is_refused() {
    let content = content();
    let mats = vec![content.hero("bren").expect("Bren").clone()];
    let monsters = &content.ecology(Ecology::Ruins).monsters;
    let card = monsters.iter().find(|m| m.power_abilities().next().is_some()).expect("a Monster with Power").clone();
    let (g, _) = Game::skirmish(mats, vec![Foe::monster(card, 1)], 1);
    let (field, reason) = refusal(load_edited(&g, |v| v["combat"]["foes"][0]["power_lists"][0]["next"] = 9.into()));
    assert_eq!(field, "combat.foes.0.power_lists.0.next");
    assert!(reason.contains("next Power-Activated ability is number 9"), "{reason}");
}

#[test]
fn a_decision_for_a_hero_not_at_the_table_is_refused() {
    let mut options = GameOptions::standard(&["bren"], 2);
    options.start = Ecology::Caverns;
    let g = Game::new(options, content()).expect("sets up");
    assert!(g.pending().is_some(), "a lower start has choices to make");
    let (field, _) = refusal(load_edited(&g, |v| {
        let first = &mut v["adventure"]["pending"][0];
        let (_, inner) = first.as_object_mut().and_then(|o| o.iter_mut().next()).expect("a decision");
        inner["hero"] = 1.into();
    }));
    assert_eq!(field, "adventure.pending.0.hero");
}

#[test]
fn a_combat_stage_without_a_combat_is_refused() {
    let g = Game::new(GameOptions::standard(&["bren", "sil"], 4), content()).expect("sets up");
    let (field, reason) = refusal(load_edited(&g, |v| v["stage"] = "Combat".into()));
    assert_eq!((field.as_str(), reason.as_str()), ("combat", "the game is in a Combat, but there is no Combat"));
}

#[test]
fn a_placed_tile_that_touches_no_earlier_tile_is_refused_by_the_map() {
    let mut g = Game::new(GameOptions::standard(&["bren", "sil"], 6), content()).expect("sets up");
    while g.adventure().expect("a game").ecology.map.tiles().len() < 2 {
        let draw_or_place =
            g.legal_actions().into_iter().find(|a| matches!(a, Action::DrawTile | Action::PlaceTile { .. }));
        g.apply(draw_or_place.expect("a tile to draw or place")).expect("legal");
    }
    let far = load_edited(&g, |v| v["adventure"]["ecology"]["map"]["tiles"][1]["cell"] = serde_json::json!([40, 40]));
    assert!(matches!(&far, Err(SaveError::Corrupt { reason, .. }) if reason.contains("touches no tile")), "{far:?}");
}

/// A deck of Power Cards only (a scenario's few-card deck) deals no card,
/// where it dealt Power Cards for ever.
#[test]
fn a_monster_deck_of_power_cards_alone_deals_nothing_instead_of_dealing_for_ever() {
    let mut g = skirmish();
    let d = g.combat().expect("a Combat").foes[0].difficulty;
    let powers = (0..2).map(|i| ActionCard::power(300 + i)).collect();
    g.monster_decks[d.index()] = MonsterDeck::stacked(d, powers);
    for hero in 0..2u8 {
        while g.combat().is_some_and(|c| c.step == CombatStep::PlayCards && c.may_act(hero)) {
            let card = g.heroes[usize::from(hero)].hand[0].id;
            g.apply(Action::PlayCard { hero, card }).expect("a card from the hand");
        }
    }
    let c = g.combat().expect("a Combat");
    assert_eq!(c.step, CombatStep::Resolve);
    assert!(c.engagements.iter().all(|e| e.slots.iter().all(|s| s.monster.is_none())), "no Monster card was played");
    assert_eq!(g.monster_decks[d.index()].len_total(), 2, "the Power Cards are back in the deck");
}

/// A purchase of more Healing than anyone misses is refused as too much,
/// where counting what it heals overflowed (a Reference Card's generous
/// Healing, many units named by a move from outside).
#[test]
fn buying_any_number_of_healing_units_is_answered_not_a_panic() {
    let mut g = Game::new(GameOptions::standard(&["bren", "sil", "ava"], 7), content()).expect("sets up");
    g.heroes[0].health = 1;
    g.adventure.as_deref_mut().expect("a game").ecology.reference.healing.health = 200;
    let refused = g.check(&Action::StartPurchase { what: Purchase::Healing { units: 255 } });
    assert_eq!(refused, Err(RuleError::BadSplit));
}

/// Armor from many Items and a Combat's bonus tops out instead of overflowing.
#[test]
fn armor_sums_stop_at_the_most_a_number_holds() {
    let mut g = skirmish();
    let content = content();
    let item = content.treasures.iter().find(|i| i.armor > 0 && i.class_only.is_none()).cloned();
    let mut item = item.unwrap_or_else(|| content.treasures[0].clone());
    (item.armor, item.hands) = (200, 0);
    for _ in 0..2 {
        let owned = crate::hero::OwnedItem { card: item.clone(), equipped: true, uses_left: item.uses };
        g.heroes[0].items.push(owned);
    }
    assert_eq!(g.heroes[0].armor(), 255);
    g.combat.as_mut().expect("a Combat").heroes[0].armor = 200;
    assert_eq!(g.armor_of(0), 255);
}

/// A Hero still to Gain a starting Ability is drawn for once the choice
/// before is made: one not at the table is refused before anything draws.
#[test]
fn an_ability_owed_to_a_hero_not_at_the_table_is_refused() {
    let g = Game::new(GameOptions::standard(&["bren", "sil"], 5), content()).expect("sets up");
    let (field, reason) = refusal(load_edited(&g, |v| v["adventure"]["abilities_to_gain"] = vec![9].into()));
    assert_eq!(field, "adventure.abilities_to_gain.0");
    assert_eq!(reason, "an Ability is still to be Gained by Hero 10, but the game has 2");
}
