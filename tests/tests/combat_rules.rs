//! One test per rule of "Combat" and "Combat with the Final Entity".

use depths_rules::action_card::ActionCard;
use depths_rules::effect::{Ability, Activation, Effect, Whom};
use depths_rules::hero::HeroClass;
use depths_rules::monster::{MonsterCard, MonsterType};
use depths_rules::{AbilitySource, Action, CombatStep, Difficulty, Event, Foe, LossReason, Phase, RuleError, Target};
use depths_tests::*;

fn weakling() -> MonsterCard {
    monster("Pale Grub", Difficulty::I, [1, 1, 1], vec![])
}

fn group(health: [u8; 3]) -> MonsterCard {
    MonsterCard {
        monster_type: MonsterType::Group,
        health_states: states(&[(4, 2, 2), (3, 2, 2), (2, 2, 2), (1, 2, 2)]),
        ..monster("Bone Chorus", Difficulty::I, health, vec![])
    }
}

fn horde3() -> MonsterCard {
    MonsterCard {
        monster_type: MonsterType::Horde(3),
        health_states: states(&[(3, 2, 2), (2, 2, 2), (1, 2, 2)]),
        ..monster("Gnat Cloud", Difficulty::I, [2, 4, 6], vec![])
    }
}

/// Plays one round for a lone Hero: cards, then the pair in `slot`.
fn round(g: &mut depths_rules::Game, cards: &[u8], slot: u8) -> Vec<Event> {
    let mut ev = play(g, 0, cards);
    ev.extend(act(g, Action::ChoosePair { hero: 0, engagement: 0, slot }));
    ev.extend(act(g, Action::EndTurn { hero: 0 }));
    ev
}

/// "Combat Setup 1": one Health Token per individual, Health Value by number of Heroes.
#[test]
fn setup_one_health_token_per_individual_by_number_of_heroes() {
    for (heroes, hp) in [(vec!["bren"], 5u8), (vec!["bren", "sil"], 10), (vec!["bren", "sil", "ava"], 15)] {
        let mut g = game_of(&heroes);
        fight(&mut g, vec![group([5, 10, 15])]);
        assert_eq!(foe_health(&g, 0), vec![hp; 4]);
    }
}

/// "One Monster Icon … assigned to all the Heroes"; the Monster plays once per Hero assigned.
#[test]
fn one_monster_card_fights_every_hero_and_plays_against_each() {
    let mut g = game_of(&["bren", "sil", "ava"]);
    fight(&mut g, vec![sentient_vapor()]);
    for h in 0..3u8 {
        let hand: Vec<u8> = g.heroes[h as usize].hand.iter().take(2).map(|c| c.value).collect();
        play(&mut g, h as usize, &hand);
    }
    let c = g.combat().unwrap();
    assert_eq!(c.engagements.len(), 3);
    assert!(c.engagements.iter().all(|e| e.foe == 0));
    let monster_cards: usize =
        c.engagements.iter().map(|e| e.slots.iter().filter(|s| s.monster.is_some()).count()).sum();
    assert_eq!(monster_cards, 6, "2 cards against each of 3 Heroes");
}

/// "Heroes Combat their assigned Monster Card until it is Defeated. Once it is,
/// they join their allies on the next Round."
#[test]
fn hero_who_defeats_their_monster_joins_allies_next_round() {
    let mut g = game_of(&["bren", "ava"]);
    stack_hero(&mut g, 0, &[8, 7, 6], &[]);
    stack_hero(&mut g, 1, &[4, 5, 6], &[]);
    stack_monster(&mut g, Difficulty::I, &[2, 2]);
    stack_monster(&mut g, Difficulty::II, &[4, 5]);
    fight(&mut g, vec![weakling(), shrieking_shroud()]);
    act(&mut g, Action::AssignMonsters { foes: vec![0, 1] });
    play(&mut g, 0, &[8, 7]);
    play(&mut g, 1, &[4, 5]);
    for h in 0..2u8 {
        act(&mut g, Action::ChoosePair { hero: h, engagement: h, slot: 0 });
        act(&mut g, Action::EndTurn { hero: h });
    }
    let c = g.combat().unwrap();
    assert!(c.foes[0].is_defeated());
    assert_eq!(c.round, 2);
    assert!(c.engagements.iter().all(|e| e.foe == 1), "both Heroes now fight the Shroud");
}

/// "If a Monster only Plays 1 Action Card against a Hero, that Hero may move it
/// opposite either of their Played Action Cards."
#[test]
fn a_single_monster_card_may_go_opposite_either_hero_card() {
    let mut lone = group([9, 9, 9]);
    lone.health_states = states(&[(4, 1, 2), (3, 1, 2), (2, 1, 2), (1, 1, 2)]);
    for slot in 0..2u8 {
        let mut g = game_of(&["bren"]);
        stack_hero(&mut g, 0, &[5, 6, 7], &[]);
        stack_monster(&mut g, Difficulty::I, &[4]);
        fight(&mut g, vec![lone.clone()]);
        play(&mut g, 0, &[5, 6]);
        assert_eq!(g.combat().unwrap().step, CombatStep::PlaceMonsterCard);
        let legal = g.legal_actions();
        assert_eq!(legal.len(), 2);
        act(&mut g, Action::PlaceMonsterCard { hero: 0, slot });
        let s = slots(&g, 0);
        assert_eq!(s[slot as usize].1, Some(4));
        assert_eq!(s[1 - slot as usize].1, None);
    }
}

/// "If a Monster needs to Draw a Card but there are none left in their Draw
/// Pile, shuffle their Discard to form a new Draw Pile."
#[test]
fn monster_deck_reshuffles_its_discard_when_empty() {
    let mut g = game_of(&["bren"]);
    let deck = &mut g.monster_decks[Difficulty::I.index()];
    let mut all: Vec<ActionCard> = deck.draw.drain(..).collect();
    deck.draw = vec![all.pop().unwrap()];
    deck.discard = all;
    let events = fight(&mut g, vec![sentient_vapor()]);
    let hand: Vec<u8> = g.heroes[0].hand.iter().take(2).map(|c| c.value).collect();
    let mut events2 = play(&mut g, 0, &hand);
    events2.extend(events);
    assert!(events2.contains(&Event::MonsterDeckReshuffled { foe: 0 }));
    let deck = &g.monster_decks[Difficulty::I.index()];
    assert!(deck.discard.is_empty() && !deck.draw.is_empty());
}

/// "A Monster can only Activate its Power-Activated Ability once per Round. If a
/// Monster Draws 2 Power Cards in the same Round, discard the second … and draw
/// a new card to replace it."
#[test]
fn monster_power_once_per_round_second_power_card_is_wasted() {
    let mut g = game_of(&["bren"]);
    stack_hero(&mut g, 0, &[5, 6, 7], &[]);
    stack_monster(&mut g, Difficulty::I, &[0, 0, 3, 4]);
    fight(&mut g, vec![withered_shade()]);
    let before = g.heroes[0].health;
    let events = play(&mut g, 0, &[5, 6]);
    assert_eq!(events.iter().filter(|e| matches!(e, Event::MonsterAbility { .. })).count(), 1);
    assert!(events.contains(&Event::MonsterPowerWasted { foe: 0 }));
    assert_eq!(g.heroes[0].health, before - 4, "Flash of Anguish once");
    assert_eq!(slots(&g, 0), vec![(Some(5), Some(3)), (Some(6), Some(4))], "both Power Cards replaced");
}

/// "If a Monster has no Power-Activated Ability, discard the Power Card without effect."
#[test]
fn monster_without_power_ability_wastes_power_card() {
    let mut g = game_of(&["bren"]);
    stack_hero(&mut g, 0, &[5, 6, 7], &[]);
    stack_monster(&mut g, Difficulty::I, &[0, 3, 4]);
    fight(&mut g, vec![sentient_vapor()]);
    let events = play(&mut g, 0, &[5, 6]);
    assert!(events.contains(&Event::MonsterPowerWasted { foe: 0 }));
    assert!(g.monster_decks[0].discard.iter().any(|c| c.power));
    assert_eq!(slots(&g, 0), vec![(Some(5), Some(3)), (Some(6), Some(4))]);
}

/// "Multiple Monster Abilities": first listed, then the next, then back to the top.
#[test]
fn several_power_abilities_cycle_in_order() {
    let hurt = |n| vec![Effect::DamageHeroes { amount: n, whom: Whom::Hero, ignore_armor: false }];
    let beast =
        monster("Two-Voiced Beast", Difficulty::I, [40, 40, 40], vec![power("Low", hurt(1)), power("High", hurt(2))]);
    let mut g = game_of(&["bren"]);
    stack_hero(&mut g, 0, &[3, 3, 4], &[4, 5, 5, 6, 6]);
    custom_monster_deck(&mut g, Difficulty::I, &[0, 3, 3, 0, 4, 4, 0, 5, 5]);
    fight(&mut g, vec![beast]);
    let mut names = Vec::new();
    for cards in [[3, 3], [4, 4], [5, 5]] {
        for e in round(&mut g, &cards, 0) {
            if let Event::MonsterAbility { name, .. } = e {
                names.push(name);
            }
        }
    }
    assert_eq!(names, ["Low", "High", "Low"]);
}

/// "Passive Abilities … always available": Monster Armor reduces each hit; a
/// Hero's passive Armor reduces each source.
#[test]
fn passive_armor_on_monsters_and_heroes() {
    let mut g = game_of(&["bren"]);
    stack_hero(&mut g, 0, &[6, 3, 4], &[]);
    stack_monster(&mut g, Difficulty::I, &[2, 5]);
    give_ability_card(
        &mut g,
        0,
        "thick_skin",
        HeroClass::Fighter,
        passive("Thick Skin", vec![Effect::Armor { amount: 2 }]),
    );
    let shell = monster(
        "Shelled Crawler",
        Difficulty::I,
        [20, 20, 20],
        vec![passive("Shell", vec![Effect::Armor { amount: 1 }])],
    );
    fight(&mut g, vec![shell]);
    let before = g.heroes[0].health;
    round(&mut g, &[6, 3], 1);
    assert_eq!(foe_health(&g, 0), vec![20 - 1], "Return Damage 2 (5−3) less the Monster's 1 Armor");
    assert_eq!(g.heroes[0].health, before - 3, "5 Direct Damage less 2 Armor");
}

/// Power-Activated: "multiple times each Round", "more than one … each Round", paid with Stored Power.
#[test]
fn power_abilities_any_number_of_times_while_power_lasts() {
    let mut g = game_of(&["bren"]);
    stack_hero(&mut g, 0, &[6, 3, 4], &[]);
    stack_monster(&mut g, Difficulty::I, &[3, 5]);
    give_ability_card(&mut g, 0, "rally", HeroClass::Fighter, power("Rally", vec![Effect::BonusDamage { amount: 2 }]));
    fight(&mut g, vec![sentient_vapor()]);
    play(&mut g, 0, &[6, 3]);
    let swap = Action::ActivateAbility { hero: 0, source: AbilitySource::Mat(1), target: Target::Engagement(0) };
    act(&mut g, swap.clone());
    act(&mut g, swap.clone());
    assert_eq!(slots(&g, 0), vec![(Some(6), Some(3)), (Some(3), Some(5))], "swapped twice");
    assert_eq!(g.check(&swap), Err(RuleError::NotEnoughPower { need: 1, have: 0 }));
    g.heroes[0].stored_power.push(ActionCard::power(99));
    act(&mut g, Action::ActivateAbility { hero: 0, source: AbilitySource::Card(0), target: Target::None });
    act(&mut g, Action::ChoosePair { hero: 0, engagement: 0, slot: 1 });
    act(&mut g, Action::EndTurn { hero: 0 });
    assert_eq!(foe_health(&g, 0), vec![8 - (2 + 2)], "Return Damage 2 plus Rally's 2");
}

/// "A Hero may only Activate one Block-Activated Ability each Round."
#[test]
fn one_block_ability_per_round() {
    let mut g = game_of(&["ava"]);
    stack_hero(&mut g, 0, &[4, 2, 3], &[]);
    stack_monster(&mut g, Difficulty::I, &[4, 5]);
    fight(&mut g, vec![monster("Big", Difficulty::I, [30, 30, 30], vec![])]);
    play(&mut g, 0, &[4, 2]);
    act(&mut g, Action::ChoosePair { hero: 0, engagement: 0, slot: 0 });
    let cut = Action::ActivateAbility {
        hero: 0,
        source: AbilitySource::Mat(0),
        target: Target::Individual { foe: 0, individual: 0 },
    };
    act(&mut g, cut.clone());
    assert_eq!(g.check(&cut), Err(RuleError::BlockAbilityUsed));
}

/// "Spells": Exhaust After Use; unusable until Refreshed; Spells are (Magic).
#[test]
fn spells_exhaust_refresh_and_count_as_magic() {
    let mut g = game_of(&["sil"]);
    stack_hero(&mut g, 0, &[2, 3, 4], &[]);
    stack_monster(&mut g, Difficulty::III, &[2, 7]);
    give_ability_card(
        &mut g,
        0,
        "ember",
        HeroClass::Wizard,
        Ability {
            name: "Ember".into(),
            activation: Activation::Power(1),
            effects: vec![Effect::DamageMonster { amount: 6, magic: false }],
            exhaust_after_use: true,
        },
    );
    let wraith =
        monster("Glass Wraith", Difficulty::III, [30, 30, 30], vec![passive("Unreal", vec![Effect::ResistNonMagic])]);
    fight(&mut g, vec![wraith]);
    play(&mut g, 0, &[2, 3]);
    let ember = Action::ActivateAbility {
        hero: 0,
        source: AbilitySource::Card(0),
        target: Target::Individual { foe: 0, individual: 0 },
    };
    act(&mut g, ember.clone());
    assert_eq!(foe_health(&g, 0), vec![24], "a Spell's damage is Magic: not halved");
    assert_eq!(g.check(&ember), Err(RuleError::SpellExhausted));
    g.heroes[0].refresh_spells();
    assert_eq!(g.check(&ember), Ok(()), "Refreshed");
}

/// "Certain Monsters are resistant to non-magic attacks. Unless a Hero has a
/// (Magic) Item equipped, they will make non-magic attacks."
#[test]
fn non_magic_attacks_are_halved_against_resistant_monsters() {
    for magic in [false, true] {
        let mut g = game_of(&["bren"]);
        stack_hero(&mut g, 0, &[8, 7, 6], &[]);
        stack_monster(&mut g, Difficulty::I, &[2, 2]);
        if magic {
            g.heroes[0].mat.abilities.push(passive("Runed Blade", vec![Effect::Magic]));
        }
        let wraith =
            monster("Glass Wraith", Difficulty::I, [30, 30, 30], vec![passive("Unreal", vec![Effect::ResistNonMagic])]);
        fight(&mut g, vec![wraith]);
        round(&mut g, &[8, 7], 0);
        assert_eq!(foe_health(&g, 0), vec![if magic { 22 } else { 26 }]);
    }
}

/// "Any Action Cards Drawn for a Hero's Ability are Discarded at the end of the Round."
#[test]
fn cards_drawn_for_abilities_are_discarded_at_round_end() {
    let mut g = game_of(&["sil"]);
    stack_hero(&mut g, 0, &[2, 3, 4], &[8, 5]);
    stack_monster(&mut g, Difficulty::I, &[5, 5]);
    give_ability_card(
        &mut g,
        0,
        "second_sight",
        HeroClass::Wizard,
        power("Second Sight", vec![Effect::ReplacePlayedCard]),
    );
    fight(&mut g, vec![monster("Big", Difficulty::I, [30, 30, 30], vec![])]);
    play(&mut g, 0, &[2, 3]);
    let draw_before = g.heroes[0].draw.len();
    act(
        &mut g,
        Action::ActivateAbility {
            hero: 0,
            source: AbilitySource::Card(0),
            target: Target::HeroSlot { engagement: 0, slot: 0 },
        },
    );
    assert_eq!(g.heroes[0].draw.len(), draw_before - 1);
    let drawn = slots(&g, 0)[0].0;
    assert_eq!(drawn, Some(8), "the top card replaced the played 2");
    act(&mut g, Action::ChoosePair { hero: 0, engagement: 0, slot: 1 });
    act(&mut g, Action::EndTurn { hero: 0 });
    assert!(g.heroes[0].discard.iter().any(|c| c.value == 8), "discarded at the end of the Round");
    assert!(!g.heroes[0].hand.iter().any(|c| c.value == 8));
}

/// "All of a Hero's Damage must be applied to one Individual Monster."
#[test]
fn a_heros_damage_goes_to_one_individual_only() {
    let mut g = game_of(&["bren"]);
    stack_hero(&mut g, 0, &[8, 7, 6], &[]);
    stack_monster(&mut g, Difficulty::I, &[2, 2]);
    fight(&mut g, vec![group([3, 3, 3])]);
    round(&mut g, &[8, 7], 0);
    assert_eq!(g.combat().unwrap().step, CombatStep::AssignDamage);
    act(&mut g, Action::AssignDamage { hero: 0, individual: 2 });
    assert_eq!(foe_health(&g, 0), vec![3, 3, 0, 3], "8 Damage, no spill outside a Horde");
}

/// "Exception: If an individual Monster in a Horde is Defeated, any excess
/// Damage may be applied to any other individual Monster in that Horde."
#[test]
fn horde_excess_damage_spills_to_another_individual() {
    let mut g = game_of(&["bren"]);
    stack_hero(&mut g, 0, &[5, 3, 4], &[]);
    stack_monster(&mut g, Difficulty::I, &[2, 3]);
    fight(&mut g, vec![horde3()]);
    round(&mut g, &[5, 3], 0);
    act(&mut g, Action::AssignDamage { hero: 0, individual: 0 });
    assert_eq!(g.combat().unwrap().step, CombatStep::AssignDamage, "3 excess to place");
    assert_eq!(g.check(&Action::AssignDamage { hero: 0, individual: 0 }), Err(RuleError::IndividualDefeated));
    act(&mut g, Action::AssignDamage { hero: 0, individual: 2 });
    assert_eq!(foe_health(&g, 0), vec![0, 1, 0], "2, then 2, then the last 1 to the only one left");
}

/// "If one Hero delivered all of the Damage needed to Defeat the Monster, ALL
/// Heroes avoid ANY Return Damage this Round … They still suffer any Direct Damage."
#[test]
fn a_lone_kill_spares_every_hero_return_damage_but_not_direct_damage() {
    let mut g = game_of(&["bren", "ava", "sil"]);
    stack_hero(&mut g, 0, &[8, 7, 6], &[]);
    stack_hero(&mut g, 1, &[7, 6, 5], &[]);
    stack_hero(&mut g, 2, &[2, 2, 3], &[]);
    custom_monster_deck(&mut g, Difficulty::I, &[2, 2, 3, 3, 6, 6, 4, 4, 4, 4, 4, 4]);
    let mut weak = group([1, 1, 1]);
    weak.health = [1, 1, 1];
    fight(&mut g, vec![weak]);
    play(&mut g, 0, &[8, 7]);
    play(&mut g, 1, &[7, 6]);
    play(&mut g, 2, &[2, 2]);
    let before: Vec<u8> = g.heroes.iter().map(|h| h.health).collect();
    for h in 0..3u8 {
        act(&mut g, Action::ChoosePair { hero: h, engagement: h, slot: 0 });
        act(&mut g, Action::EndTurn { hero: h });
    }
    act(&mut g, Action::AssignDamage { hero: 0, individual: 0 });
    act(&mut g, Action::AssignDamage { hero: 1, individual: 1 });
    act(&mut g, Action::AssignDamage { hero: 2, individual: 2 });
    assert_eq!(g.heroes[0].health, before[0], "no Return Damage for the killer");
    assert_eq!(g.heroes[1].health, before[1], "nor for anyone else");
    assert_eq!(g.heroes[2].health, before[2] - 6, "Direct Damage is still suffered");
}

/// "If one Hero delivered all of the Damage needed to Defeat the Monster, ALL
/// Heroes avoid ANY Return Damage this Round": one Hero's Damage alone meets
/// the individual's Health, so that Hero delivered all that was needed, even
/// though another's Damage landed on it too in the same Round (at the table
/// the big Hit is placed first and the other has nothing left to wound; a
/// new player's report: Bren's 8 on a 2-Health Monster read as a shared kill).
#[test]
fn a_kill_one_heros_damage_alone_met_spares_every_hero_return_damage() {
    let mut g = game_of(&["bren", "ava"]);
    stack_hero(&mut g, 0, &[8, 7, 6], &[]);
    stack_hero(&mut g, 1, &[7, 6, 5], &[]);
    custom_monster_deck(&mut g, Difficulty::I, &[2, 2, 3, 3, 4, 4, 4, 4]);
    let mut weak = group([1, 1, 1]);
    weak.health = [3, 3, 3];
    fight(&mut g, vec![weak]);
    play(&mut g, 0, &[8, 7]);
    play(&mut g, 1, &[7, 6]);
    let before: Vec<u8> = g.heroes.iter().map(|h| h.health).collect();
    // The table's figure is sure: whichever individual it goes to, either
    // Hero's pair defeats it alone, so no Return Damage ("Bren −0", not "−6?").
    assert_eq!(g.pair_takes_range(0, 0), Some((0, 0)));
    assert_eq!(g.pair_takes_range(1, 0), Some((0, 0)));
    for h in 0..2u8 {
        act(&mut g, Action::ChoosePair { hero: h, engagement: h, slot: 0 });
        act(&mut g, Action::EndTurn { hero: h });
    }
    // Both Heroes' Damage onto the first individual: either alone defeats it.
    act(&mut g, Action::AssignDamage { hero: 0, individual: 0 });
    act(&mut g, Action::AssignDamage { hero: 1, individual: 0 });
    assert_ne!(g.combat().map(|c| c.step), Some(CombatStep::AvoidReturnDamage), "no choice: all avoid");
    let after: Vec<u8> = g.heroes.iter().map(|h| h.health).collect();
    assert_eq!(after, before, "no Return Damage for either Hero");
}

/// "If more than one Hero contributed to the Damage needed to Defeat the
/// Monster, only ONE Hero, from among those that contributed Damage, may Avoid
/// Return Damage this Round. The Players choose which Hero that will be."
#[test]
fn a_shared_kill_lets_one_chosen_contributor_avoid_return_damage() {
    let mut g = game_of(&["bren", "ava"]);
    let throw = power("Dagger Throw", vec![Effect::DamageMonster { amount: 2, magic: false }]);
    for h in 0..2 {
        g.heroes[h].mat.abilities.push(throw.clone());
    }
    stack_hero(&mut g, 0, &[6, 6, 3], &[]);
    stack_hero(&mut g, 1, &[5, 7, 3], &[]);
    custom_monster_deck(&mut g, Difficulty::I, &[2, 3, 2, 3, 4, 4, 4, 4]);
    // 12 Health: neither Hero's Damage (a throw and a pair: 8, 7) alone defeats it.
    fight(&mut g, vec![group([12, 12, 12])]);
    play(&mut g, 0, &[6, 6]);
    play(&mut g, 1, &[5, 7]);
    let before: Vec<u8> = g.heroes.iter().map(|h| h.health).collect();
    // Neither pair alone defeats a 12-Health individual: "Bren −4?".
    assert_eq!(g.pair_takes_range(0, 0), Some((0, 4)));
    for h in [0u8, 1] {
        let throw = Action::ActivateAbility {
            hero: h,
            source: AbilitySource::Mat(2),
            target: Target::Individual { foe: 0, individual: 0 },
        };
        act(&mut g, throw);
        act(&mut g, Action::ChoosePair { hero: h, engagement: h, slot: 0 });
        act(&mut g, Action::EndTurn { hero: h });
    }
    assert_eq!(foe_health(&g, 0), vec![0, 12, 12, 12], "two Dagger Throws and both pairs' Damage on it");
    assert_eq!(g.combat().unwrap().step, CombatStep::AvoidReturnDamage);
    assert_eq!(g.legal_actions().len(), 2, "either contributor");
    act(&mut g, Action::AvoidReturnDamage { hero: 0 });
    let after: Vec<u8> = g.heroes.iter().map(|h| h.health).collect();
    assert_eq!(after[0], before[0], "Bren avoided her Return Damage");
    assert_eq!(after[1], before[1] - 3, "Ava takes hers (5 against 2)");
}

/// "Every Round, each Hero will choose one of their Combat Pairs to Resolve and
/// discard any others" — a single Hero against two Monster Cards too ("Single
/// Hero Against Two Monster Cards": Steps 1–2 twice, then Steps 3–6 once).
#[test]
fn combat_pairs_a_lone_hero_against_two_monster_cards_resolves_one_pair_in_all() {
    let mut g = game_of(&["bren"]);
    stack_hero(&mut g, 0, &[8, 7, 3], &[6, 5, 4, 3]);
    stack_monster(&mut g, Difficulty::I, &[2, 2, 5, 6]);
    fight(
        &mut g,
        vec![
            monster("Left", Difficulty::I, [30, 30, 30], vec![]),
            monster("Right", Difficulty::I, [30, 30, 30], vec![]),
        ],
    );
    play(&mut g, 0, &[8, 7]);
    play(&mut g, 0, &[6, 5]);
    assert_eq!(slots(&g, 0), vec![(Some(8), Some(2)), (Some(7), Some(2))]);
    assert_eq!(slots(&g, 1), vec![(Some(6), Some(5)), (Some(5), Some(6))]);
    assert_eq!(
        g.check(&Action::ChoosePair { hero: 0, engagement: 0, slot: 0 }),
        Err(RuleError::MonsterHitTakesPriority),
        "the Monster Hit against the second card outranks the Hero Hits against the first"
    );
    let before = g.heroes[0].health;
    act(&mut g, Action::ChoosePair { hero: 0, engagement: 1, slot: 1 });
    assert_eq!(g.check(&Action::ChoosePair { hero: 0, engagement: 0, slot: 0 }), Err(RuleError::PairAlreadyChosen));
    assert_eq!(g.check(&Action::ChoosePair { hero: 0, engagement: 0, slot: 1 }), Err(RuleError::PairAlreadyChosen));
    act(&mut g, Action::EndTurn { hero: 0 });
    assert_eq!(foe_health(&g, 0), vec![30], "the pairs against the first card were discarded");
    assert_eq!(foe_health(&g, 1), vec![29], "Return Damage 1 from the one pair Resolved");
    assert_eq!(g.heroes[0].health, before - 6, "only that pair's Direct Damage");
}

/// "All Heroes perform each Step simultaneously": in any order, and the step
/// ends only when every Hero is done.
#[test]
fn all_heroes_perform_each_step_simultaneously_in_any_order() {
    let mut g = game_of(&["bren", "ava"]);
    stack_hero(&mut g, 0, &[8, 7, 6], &[]);
    stack_hero(&mut g, 1, &[7, 6, 5], &[]);
    stack_monster(&mut g, Difficulty::I, &[2, 2, 2, 2]);
    fight(&mut g, vec![monster("Big", Difficulty::I, [40, 40, 40], vec![])]);
    assert_eq!(g.combat().unwrap().heroes_to_act(), vec![0, 1]);
    play(&mut g, 1, &[7]);
    play(&mut g, 0, &[8]);
    play(&mut g, 1, &[6]);
    assert_eq!(g.combat().unwrap().step, CombatStep::PlayCards, "Bren has not played her second card");
    assert_eq!(g.combat().unwrap().heroes_to_act(), vec![0]);
    assert_eq!(
        g.check(&Action::PlayCard { hero: 1, card: card_in_hand(&g, 1, 5) }),
        Err(RuleError::HeroIsDone { hero: 1 })
    );
    play(&mut g, 0, &[7]);
    assert_eq!(g.combat().unwrap().step, CombatStep::Resolve, "the Monsters played once both were done");
    // Ava resolves first; Bren may still wait and see.
    act(&mut g, Action::ChoosePair { hero: 1, engagement: 1, slot: 0 });
    act(&mut g, Action::EndTurn { hero: 1 });
    assert_eq!(g.combat().unwrap().step, CombatStep::Resolve, "the step ends when every Hero is done");
    assert_eq!(g.check(&Action::EndTurn { hero: 1 }), Err(RuleError::HeroIsDone { hero: 1 }));
    act(&mut g, Action::ChoosePair { hero: 0, engagement: 0, slot: 0 });
    act(&mut g, Action::EndTurn { hero: 0 });
    assert_eq!(foe_health(&g, 0), vec![40 - 8 - 7]);
}

/// Every outcome of one Round of Bren (8 against 2) and Ava (4 against 2)
/// against a Monster of 10 Health (neither alone defeats it), seated in `order`: for each way the players
/// may settle Avoiding Return Damage, each Hero's Health lost, by name.
fn shared_kill_outcomes(order: [&str; 2]) -> Vec<Vec<(String, u8)>> {
    let mut g = game_of(&order);
    for (h, name) in order.iter().enumerate() {
        let hand: &[u8] = if *name == "bren" { &[8, 7, 6] } else { &[4, 3, 2] };
        stack_hero(&mut g, h, hand, &[]);
    }
    custom_monster_deck(&mut g, Difficulty::I, &[2; 8]);
    fight(&mut g, vec![monster("Lurker", Difficulty::I, [4, 10, 12], vec![])]);
    for (h, name) in order.iter().enumerate() {
        play(&mut g, h, if *name == "bren" { &[8, 7] } else { &[4, 3] });
    }
    let before: Vec<u8> = g.heroes.iter().map(|h| h.health).collect();
    for h in 0..2u8 {
        act(&mut g, Action::ChoosePair { hero: h, engagement: h, slot: 0 });
        act(&mut g, Action::EndTurn { hero: h });
    }
    let lost = |g: &depths_rules::Game| {
        let mut v: Vec<(String, u8)> =
            g.heroes.iter().zip(&before).map(|(h, b)| (h.mat.id.clone(), b - h.health)).collect();
        v.sort();
        v
    };
    if g.in_combat() && g.combat().unwrap().step == CombatStep::AvoidReturnDamage {
        let mut all: Vec<Vec<(String, u8)>> = (0..2u8)
            .map(|hero| {
                let mut choice = g.clone();
                act(&mut choice, Action::AvoidReturnDamage { hero });
                lost(&choice)
            })
            .collect();
        all.sort();
        all
    } else {
        vec![lost(&g)]
    }
}

/// "All Heroes perform each Step simultaneously" and "If more than one Hero
/// contributed to the Damage needed to Defeat the Monster, only ONE Hero, from
/// among those that contributed Damage, may Avoid Return Damage": the Round's
/// Damage lands at once, so both Heroes contributed (8 + 4 against 10 Health)
/// however they are seated, and the players choose who avoids it.
#[test]
fn simultaneous_damage_the_same_round_gives_the_same_return_damage_however_the_heroes_sit() {
    let a = shared_kill_outcomes(["bren", "ava"]);
    let b = shared_kill_outcomes(["ava", "bren"]);
    assert_eq!(a, b, "the seating changes nothing");
    let want = vec![
        vec![("ava".to_string(), 0), ("bren".to_string(), 8 - 2)],
        vec![("ava".to_string(), 4 - 2), ("bren".to_string(), 0)],
    ];
    assert_eq!(a, want, "both contributed: the one the players choose avoids Return Damage");
}

/// "All of a Hero's Damage must be applied to one Individual Monster; it cannot
/// be spread across multiple Individual Monsters" — an ability's Damage and the
/// pair's Damage in one Round go to the same individual.
#[test]
fn all_of_a_heros_damage_ability_and_pair_goes_to_one_individual() {
    let mut g = game_of(&["bren"]);
    g.heroes[0].mat.abilities.push(power("Dagger Throw", vec![Effect::DamageMonster { amount: 2, magic: false }]));
    stack_hero(&mut g, 0, &[8, 7, 6], &[]);
    stack_monster(&mut g, Difficulty::I, &[2, 2]);
    fight(&mut g, vec![group([20, 20, 20])]);
    play(&mut g, 0, &[8, 7]);
    let throw = |individual| Action::ActivateAbility {
        hero: 0,
        source: AbilitySource::Mat(2),
        target: Target::Individual { foe: 0, individual },
    };
    act(&mut g, throw(1));
    assert_eq!(g.check(&throw(2)), Err(RuleError::OneIndividualPerRound));
    assert_eq!(g.check(&throw(1)), Ok(()), "the same individual again is fine");
    act(&mut g, Action::ChoosePair { hero: 0, engagement: 0, slot: 0 });
    act(&mut g, Action::EndTurn { hero: 0 });
    assert_ne!(g.combat().unwrap().step, CombatStep::AssignDamage, "no choice left: the pair's Damage follows");
    assert_eq!(foe_health(&g, 0), vec![20, 20 - 2 - 8, 20, 20]);
}

/// "When facing non-singular Monster Types, Heroes may freely assign damage to
/// any Individual Monster within the Set. All of a Hero's Damage must be
/// applied to one Individual Monster": the rule binds the individuals of one
/// set. A lone Hero against two Monster Cards who throws a dagger at one card
/// still deals the Combat Pair's Direct Damage to the other, and may throw at
/// one individual of each.
#[test]
fn one_individual_per_set_a_lone_hero_damages_both_monster_cards() {
    let mut g = game_of(&["bren"]);
    g.heroes[0].mat.abilities.push(power("Dagger Throw", vec![Effect::DamageMonster { amount: 2, magic: false }]));
    stack_hero(&mut g, 0, &[8, 7, 3], &[6, 5, 4, 3]);
    stack_monster(&mut g, Difficulty::I, &[2, 2, 3, 4]);
    g.heroes[0].stored_power.push(ActionCard::power(300));
    fight(&mut g, vec![group([20, 20, 20]), monster("Right", Difficulty::I, [30, 30, 30], vec![])]);
    play(&mut g, 0, &[8, 7]);
    play(&mut g, 0, &[6, 5]);
    assert_eq!(slots(&g, 0), vec![(Some(8), Some(2)), (Some(7), Some(2))]);
    let throw = |foe, individual| Action::ActivateAbility {
        hero: 0,
        source: AbilitySource::Mat(2),
        target: Target::Individual { foe, individual },
    };
    act(&mut g, throw(1, 0));
    assert_eq!(g.check(&throw(0, 1)), Ok(()), "an individual of the other set");
    act(&mut g, throw(0, 1));
    assert_eq!(g.check(&throw(0, 2)), Err(RuleError::OneIndividualPerRound), "but one per set");
    act(&mut g, Action::ChoosePair { hero: 0, engagement: 0, slot: 0 });
    act(&mut g, Action::EndTurn { hero: 0 });
    assert_eq!(foe_health(&g, 0), vec![20, 20 - 2 - 8, 20, 20], "the pair's Direct Damage follows the dagger");
    assert_eq!(foe_health(&g, 1), vec![30 - 2]);
    // Only the dagger thrown at the other card: the pair's Damage is not lost.
    let mut g = game_of(&["bren"]);
    g.heroes[0].mat.abilities.push(power("Dagger Throw", vec![Effect::DamageMonster { amount: 2, magic: false }]));
    stack_hero(&mut g, 0, &[8, 7, 3], &[6, 5, 4, 3]);
    stack_monster(&mut g, Difficulty::I, &[2, 2, 3, 4]);
    fight(&mut g, vec![monster("Left", Difficulty::I, [30, 30, 30], vec![]), group([20, 20, 20])]);
    play(&mut g, 0, &[8, 7]);
    play(&mut g, 0, &[6, 5]);
    act(&mut g, throw(1, 3));
    act(&mut g, Action::ChoosePair { hero: 0, engagement: 0, slot: 0 });
    act(&mut g, Action::EndTurn { hero: 0 });
    assert_eq!(foe_health(&g, 0), vec![30 - 8], "Direct Damage to the opponent of the pair");
    assert_eq!(foe_health(&g, 1), vec![20, 20, 20, 18]);
}

/// "A Hero may freely apply Damage to any one of these parts each Round": one
/// part per Round for all of the Hero's Damage.
#[test]
fn final_entity_one_part_per_round_for_all_of_a_heros_damage() {
    let mut g = game_of(&["bren"]);
    g.heroes[0].mat.abilities.push(power("Dagger Throw", vec![Effect::DamageMonster { amount: 2, magic: false }]));
    stack_hero(&mut g, 0, &[8, 7, 6], &[]);
    stack_monster(&mut g, Difficulty::III, &[1, 1]);
    fight_entity(&mut g);
    play(&mut g, 0, &[8, 7]);
    let throw = |individual| Action::ActivateAbility {
        hero: 0,
        source: AbilitySource::Mat(2),
        target: Target::Individual { foe: 0, individual },
    };
    act(&mut g, throw(1));
    assert_eq!(g.check(&throw(0)), Err(RuleError::OneIndividualPerRound));
    act(&mut g, Action::ChoosePair { hero: 0, engagement: 0, slot: 0 });
    act(&mut g, Action::EndTurn { hero: 0 });
    assert_eq!(foe_health(&g, 0), vec![6, 0, 8], "Head II took it all; the Body and Head I are untouched");
}

/// "A Wizard's Spells are considered (Magic) attacks": the Spell's own attack
/// is (Magic); casting one does not make the Hero's card hits (Magic).
#[test]
fn casting_a_spell_does_not_make_the_heros_card_hits_magic() {
    let mut g = game_of(&["sil"]);
    stack_hero(&mut g, 0, &[8, 6, 4], &[]);
    stack_monster(&mut g, Difficulty::I, &[2, 2]);
    give_ability_card(
        &mut g,
        0,
        "ember",
        HeroClass::Wizard,
        power("Ember", vec![Effect::DamageMonster { amount: 6, magic: false }]),
    );
    let wraith =
        monster("Glass Wraith", Difficulty::I, [40, 40, 40], vec![passive("Unreal", vec![Effect::ResistNonMagic])]);
    fight(&mut g, vec![wraith]);
    play(&mut g, 0, &[8, 6]);
    act(
        &mut g,
        Action::ActivateAbility {
            hero: 0,
            source: AbilitySource::Card(0),
            target: Target::Individual { foe: 0, individual: 0 },
        },
    );
    assert_eq!(foe_health(&g, 0), vec![34], "the Spell: 6 (Magic), not halved");
    act(&mut g, Action::ChoosePair { hero: 0, engagement: 0, slot: 0 });
    act(&mut g, Action::EndTurn { hero: 0 });
    assert_eq!(foe_health(&g, 0), vec![34 - 4], "the card hit of 8 is non-magic: halved");
}

/// "The Heroes Lose if … One of the Heroes is Defeated."
#[test]
fn a_defeated_hero_loses_the_game() {
    let mut g = game_of(&["sil"]);
    g.heroes[0].health = 3;
    stack_hero(&mut g, 0, &[2, 2, 3], &[]);
    stack_monster(&mut g, Difficulty::I, &[6, 6]);
    fight(&mut g, vec![sentient_vapor()]);
    let events = round(&mut g, &[2, 2], 0);
    assert_eq!(g.heroes[0].health, 0);
    assert_eq!(g.phase(), Phase::Lost(LossReason::HeroDefeated { hero: 0 }));
    assert!(events.contains(&Event::GameLost { reason: LossReason::HeroDefeated { hero: 0 } }));
    assert!(g.legal_actions().is_empty());
    assert_eq!(g.check(&Action::EndTurn { hero: 0 }), Err(RuleError::GameOver));
}

/// "If all Monsters are Defeated, Combat is ended. When Combat ends, any Cards
/// left in a Hero's Hand remain there." and "Hero and Monster Action Cards do
/// not get reshuffled after Combat".
#[test]
fn combat_ends_when_all_monsters_fall_hands_kept_no_reshuffle() {
    let mut g = game_of(&["bren"]);
    stack_hero(&mut g, 0, &[8, 7, 6], &[5, 4]);
    stack_monster(&mut g, Difficulty::I, &[2, 2]);
    fight(&mut g, vec![weakling()]);
    let events = round(&mut g, &[8, 7], 0);
    assert!(events.contains(&Event::CombatWon));
    assert_eq!(g.phase(), Phase::Won, "a skirmish is only its fight");
    assert!(g.combat().is_none());
    assert_eq!(g.heroes[0].hand.iter().map(|c| c.value).collect::<Vec<_>>(), vec![6]);
    assert_eq!(g.heroes[0].draw.iter().map(|c| c.value).collect::<Vec<_>>(), vec![4, 5], "Draw Pile untouched");
    assert!(g.heroes[0].discard.iter().any(|c| c.value == 8) && g.heroes[0].discard.iter().any(|c| c.value == 7));
    let deck = &g.monster_decks[0];
    assert_eq!(deck.discard.len(), 2, "Monster cards discarded, not reshuffled");
}

/// "Any Power Cards that are Drawn are immediately Stored … After one is Stored, draw a replacement card."
#[test]
fn a_drawn_power_card_is_stored_and_replaced() {
    let mut g = game_of(&["bren"]);
    stack_hero(&mut g, 0, &[8], &[0, 5, 4]);
    let stored = g.heroes[0].stored_power.len();
    let events = fight(&mut g, vec![sentient_vapor()]);
    assert!(events.contains(&Event::PowerStored { hero: 0 }));
    assert_eq!(g.heroes[0].stored_power.len(), stored + 1);
    assert_eq!(g.heroes[0].hand.iter().map(|c| c.value).collect::<Vec<_>>(), vec![8, 5, 4]);
}

fn fight_entity(g: &mut depths_rules::Game) {
    let n = g.heroes.len();
    g.start_combat(vec![Foe::final_entity(final_entity(), n)]);
}

/// "Combat with the Final Entity": one enemy for all Heroes, a token per part,
/// Damage to any part, part Armor only for that part.
#[test]
fn final_entity_is_one_enemy_with_a_health_token_per_part() {
    let mut g = game_of(&["bren", "ava"]);
    stack_hero(&mut g, 0, &[8, 7, 6], &[]);
    stack_hero(&mut g, 1, &[7, 6, 5], &[]);
    stack_monster(&mut g, Difficulty::III, &[1, 1, 2, 2]);
    fight_entity(&mut g);
    assert_eq!(g.combat().unwrap().step, CombatStep::PlayCards, "no assignment: everyone fights it");
    assert_eq!(foe_health(&g, 0), vec![12, 12, 16]);
    play(&mut g, 0, &[8, 7]);
    play(&mut g, 1, &[7, 6]);
    for h in 0..2u8 {
        act(&mut g, Action::ChoosePair { hero: h, engagement: h, slot: 0 });
        act(&mut g, Action::EndTurn { hero: h });
    }
    assert_eq!(g.legal_actions().len(), 6, "each Hero, in either order, to any of the three parts");
    act(&mut g, Action::AssignDamage { hero: 0, individual: 2 });
    act(&mut g, Action::AssignDamage { hero: 1, individual: 0 });
    assert_eq!(foe_health(&g, 0), vec![12 - 7, 12, 16 - (8 - 2)], "the Body's Armor 2 protects the Body only");
}

/// "When the Final Entity draws a Power Card, it activates the Power-Activated
/// Abilities on both of its Head Cards … only once per Round."
#[test]
fn final_entity_power_card_fires_both_heads_once_per_round() {
    let mut g = game_of(&["bren", "ava"]);
    stack_hero(&mut g, 0, &[8, 7, 6], &[]);
    stack_hero(&mut g, 1, &[7, 6, 5], &[]);
    stack_monster(&mut g, Difficulty::III, &[0, 1, 0, 1, 2, 2]);
    fight_entity(&mut g);
    let before: Vec<u8> = g.heroes.iter().map(|h| h.health).collect();
    play(&mut g, 0, &[8, 7]);
    let events = play(&mut g, 1, &[7, 6]);
    let names: Vec<String> = events
        .iter()
        .filter_map(|e| if let Event::MonsterAbility { name, .. } = e { Some(name.clone()) } else { None })
        .collect();
    assert_eq!(names, ["Bite", "Dread"]);
    assert!(events.contains(&Event::MonsterPowerWasted { foe: 0 }));
    assert_eq!(g.heroes[0].health, before[0] - 3, "Bite 2 on Bren (drawn against her) and Dread 1");
    assert_eq!(g.heroes[1].health, before[1] - 1, "Dread hits all Heroes");
}

/// "To Defeat the Final Entity, Heroes must either Defeat both of its Heads, or its Body and one of its Heads."
#[test]
fn final_entity_defeat_conditions() {
    let n = 1;
    let down = |parts: &[usize]| {
        let mut f = Foe::final_entity(final_entity(), n);
        for &p in parts {
            f.individuals[p].health = 0;
        }
        f.is_defeated()
    };
    assert!(down(&[0, 1]), "both Heads");
    assert!(down(&[2, 0]) && down(&[2, 1]), "the Body and one Head");
    assert!(!down(&[2]), "the Body alone is not enough");
    assert!(!down(&[0]) && !down(&[1]), "one Head alone is not enough");
}

/// A refused action changes nothing, for each kind of refusal met in Combat.
#[test]
fn illegal_actions_leave_the_state_unchanged() {
    let mut g = game_of(&["bren", "ava"]);
    fight(&mut g, vec![sentient_vapor(), shrieking_shroud()]);
    let probes = [
        Action::AssignMonsters { foes: vec![0] },
        Action::AssignMonsters { foes: vec![1, 1] },
        Action::PlayCard { hero: 0, card: depths_rules::CardId(0) },
        Action::EndTurn { hero: 0 },
        Action::AvoidReturnDamage { hero: 0 },
    ];
    for p in probes {
        let before = g.clone();
        assert!(g.apply(p.clone()).is_err(), "{p:?}");
        assert_eq!(g, before);
    }
    act(&mut g, Action::AssignMonsters { foes: vec![1, 0] });
    let before = g.clone();
    assert!(matches!(
        g.apply(Action::PlayCard { hero: 5, card: depths_rules::CardId(0) }),
        Err(RuleError::NoSuchHero(5))
    ));
    assert!(matches!(
        g.apply(Action::PlayCard { hero: 0, card: depths_rules::CardId(999) }),
        Err(RuleError::CardNotInHand)
    ));
    assert_eq!(g, before);
}
