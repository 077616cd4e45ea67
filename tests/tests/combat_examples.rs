//! The rulebook's worked Combat examples, each played with stacked decks.

use depths_rules::{AbilitySource, Action, Difficulty, Effect, Event, RuleError, Target, Whom};
use depths_tests::*;

/// "Combat Play Examples — Example 1: Two Hero Hits".
#[test]
fn example_1_two_hero_hits_bren_chooses_either() {
    for (slot, dealt, taken) in [(0u8, 5u8, 1u8), (1, 6, 4)] {
        let mut g = game_of(&["bren"]);
        stack_hero(&mut g, 0, &[5, 6, 7], &[]);
        stack_monster(&mut g, Difficulty::I, &[4, 2]);
        fight(&mut g, vec![sentient_vapor()]);
        play(&mut g, 0, &[5, 6]);
        assert_eq!(slots(&g, 0), vec![(Some(5), Some(4)), (Some(6), Some(2))]);
        let legal = g.legal_actions();
        for s in 0..2 {
            assert!(
                legal.contains(&Action::ChoosePair { hero: 0, engagement: 0, slot: s }),
                "both Hero Hits may be chosen"
            );
        }
        let before = g.heroes[0].health;
        act(&mut g, Action::ChoosePair { hero: 0, engagement: 0, slot });
        act(&mut g, Action::EndTurn { hero: 0 });
        assert_eq!(g.heroes[0].health, before - taken, "Return Damage {taken}");
        assert_eq!(foe_health(&g, 0), vec![8 - dealt], "Direct Damage {dealt}");
    }
}

/// "Example 2: Monster Hit": Monster Hits take priority over Hero Hits.
#[test]
fn example_2_monster_hit_must_be_resolved() {
    let mut g = game_of(&["sil"]);
    stack_hero(&mut g, 0, &[3, 5, 2], &[]);
    stack_monster(&mut g, Difficulty::I, &[6, 2]);
    fight(&mut g, vec![sentient_vapor()]);
    play(&mut g, 0, &[3, 5]);
    let snapshot = g.clone();
    assert_eq!(
        g.apply(Action::ChoosePair { hero: 0, engagement: 0, slot: 1 }),
        Err(RuleError::MonsterHitTakesPriority)
    );
    assert_eq!(g, snapshot, "a refused action changes nothing");
    let before = g.heroes[0].health;
    act(&mut g, Action::ChoosePair { hero: 0, engagement: 0, slot: 0 });
    act(&mut g, Action::EndTurn { hero: 0 });
    assert_eq!(g.heroes[0].health, before - 6, "6 points of Direct Damage");
    assert_eq!(foe_health(&g, 0), vec![8 - 3], "3 points of Return Damage (6−3)");
}

/// "Example 3: Block-Activated Ability": a Block may be chosen over a Monster Hit.
#[test]
fn example_3_block_over_monster_hit_pays_for_block_ability() {
    let mut g = game_of(&["ava"]);
    stack_hero(&mut g, 0, &[4, 2, 3], &[]);
    stack_monster(&mut g, Difficulty::I, &[4, 5]);
    fight(&mut g, vec![sentient_vapor()]);
    play(&mut g, 0, &[4, 2]);
    let legal = g.legal_actions();
    assert!(legal.contains(&Action::ChoosePair { hero: 0, engagement: 0, slot: 0 }), "the Block");
    assert!(legal.contains(&Action::ChoosePair { hero: 0, engagement: 0, slot: 1 }), "the Monster Hit");
    let counter_cut = Action::ActivateAbility {
        hero: 0,
        source: AbilitySource::Mat(0),
        target: Target::Individual { foe: 0, individual: 0 },
    };
    assert_eq!(g.check(&counter_cut), Err(RuleError::NeedsBlock), "no Block chosen yet");
    let before = g.heroes[0].health;
    act(&mut g, Action::ChoosePair { hero: 0, engagement: 0, slot: 0 });
    act(&mut g, counter_cut);
    act(&mut g, Action::EndTurn { hero: 0 });
    assert_eq!(g.heroes[0].health, before, "a Block avoids any Damage");
    assert_eq!(foe_health(&g, 0), vec![8 - 2], "Counter-Cut deals 2");
}

/// "Example 4: Power-Activated Ability": Brush Aside turns a Monster Hit into a Block.
#[test]
fn example_4_brush_aside_swaps_played_cards() {
    let mut g = game_of(&["bren"]);
    stack_hero(&mut g, 0, &[6, 3, 4], &[]);
    stack_monster(&mut g, Difficulty::I, &[3, 5]);
    fight(&mut g, vec![sentient_vapor()]);
    play(&mut g, 0, &[6, 3]);
    assert_eq!(slots(&g, 0), vec![(Some(6), Some(3)), (Some(3), Some(5))]);
    assert_eq!(
        g.check(&Action::ChoosePair { hero: 0, engagement: 0, slot: 0 }),
        Err(RuleError::MonsterHitTakesPriority)
    );
    let stored = g.heroes[0].stored_power.len();
    act(&mut g, Action::ActivateAbility { hero: 0, source: AbilitySource::Mat(1), target: Target::Engagement(0) });
    assert_eq!(g.heroes[0].stored_power.len(), stored - 1, "one Stored Power Card spent");
    assert!(g.heroes[0].discard.iter().any(|c| c.power), "a spent Power Card is Discarded");
    assert_eq!(slots(&g, 0), vec![(Some(3), Some(3)), (Some(6), Some(5))], "a Block and a Hero Hit");
    let legal = g.legal_actions();
    assert!(legal.contains(&Action::ChoosePair { hero: 0, engagement: 0, slot: 0 }));
    assert!(legal.contains(&Action::ChoosePair { hero: 0, engagement: 0, slot: 1 }));
    let before = g.heroes[0].health;
    act(&mut g, Action::ChoosePair { hero: 0, engagement: 0, slot: 1 });
    act(&mut g, Action::EndTurn { hero: 0 });
    assert_eq!(foe_health(&g, 0), vec![8 - 6], "6 points in Direct Damage");
    assert_eq!(g.heroes[0].health, before - 1, "1 point in Return Damage (6−5)");
}

/// "Example 5: Non-Singular Monster": Decrepit Skeletal Warriors, Ava and Sil.
/// The example's Monster values (1, 1 against Ava; 4 against Sil) are not all
/// in one printed deck, so the deck holds exactly those cards.
#[test]
fn example_5_skeletal_warriors_two_heroes_defeat_one_individual() {
    let mut g = game_of(&["ava", "sil"]);
    stack_hero(&mut g, 0, &[6, 2, 3], &[]);
    stack_hero(&mut g, 1, &[5, 2, 3], &[]);
    custom_monster_deck(&mut g, Difficulty::III, &[1, 1, 4, 2, 5, 5, 6, 6, 7, 7]);
    fight(&mut g, vec![skeletal_warriors()]);
    assert_eq!(foe_health(&g, 0), vec![10, 10, 10, 10], "four tokens at 10 with two Heroes");
    let c = g.combat().unwrap();
    assert!(c.engagements.iter().all(|e| e.hero_cards == 1 && e.monster_cards == 2), "×4: Monsters 2, Heroes 1");
    play(&mut g, 0, &[6]);
    play(&mut g, 1, &[5]);
    assert_eq!(slots(&g, 0), vec![(Some(6), Some(1))], "Ava's card moved opposite the highest");
    assert_eq!(slots(&g, 1), vec![(Some(5), Some(4))], "Sil's card moved opposite the highest");
    for h in 0..2 {
        act(&mut g, Action::ChoosePair { hero: h, engagement: h, slot: 0 });
        act(&mut g, Action::EndTurn { hero: h });
    }
    let (ava, sil) = (g.heroes[0].health, g.heroes[1].health);
    act(&mut g, Action::AssignDamage { hero: 0, individual: 0 });
    act(&mut g, Action::AssignDamage { hero: 1, individual: 0 });
    assert_eq!(foe_health(&g, 0), vec![0, 10, 10, 10], "11 Damage Defeats one Skeleton");
    assert_eq!(g.check(&Action::AvoidReturnDamage { hero: 2 }), Err(RuleError::NotAContributor));
    act(&mut g, Action::AvoidReturnDamage { hero: 0 });
    assert_eq!(g.heroes[0].health, ava, "Ava avoids her 5 Return Damage");
    assert_eq!(g.heroes[1].health, sil - 1, "Sil still takes 1");
    let c = g.combat().unwrap();
    assert!(c.engagements.iter().all(|e| e.hero_cards == 2), "with one Skeleton Defeated, Heroes play 2");
}

/// "Example 6: Two Monster Cards": Sustained Wail hits both Heroes.
#[test]
fn example_6_two_monster_cards_and_sustained_wail() {
    let mut g = game_of(&["bren", "ava"]);
    stack_hero(&mut g, 0, &[7, 3, 4], &[]);
    stack_hero(&mut g, 1, &[5, 7, 2], &[]);
    let bren = &mut g.heroes[0];
    bren.discard.append(&mut bren.stored_power); // "They don't have a Power Card to use"
    stack_monster(&mut g, Difficulty::I, &[5, 6]);
    stack_monster(&mut g, Difficulty::II, &[4, 0, 3]);
    fight(&mut g, vec![sentient_vapor(), shrieking_shroud()]);
    assert_eq!(
        g.check(&Action::AssignMonsters { foes: vec![0, 0] }),
        Err(RuleError::BadAssignment("each Monster Card needs a Hero")),
        "each card to a different Hero"
    );
    act(&mut g, Action::AssignMonsters { foes: vec![0, 1] });
    play(&mut g, 0, &[7, 3]);
    let events = play(&mut g, 1, &[5, 7]);
    assert!(events.contains(&Event::MonsterPowerDrawn { foe: 1, hero: 1 }));
    assert!(
        events.contains(&Event::MonsterAbility { foe: 1, name: "Sustained Wail".into(), heroes: vec![0, 1] }),
        "\"Heroes\" (plural): both are affected"
    );
    assert_eq!(slots(&g, 1), vec![(Some(5), Some(4)), (Some(7), Some(3))], "the Power Card was replaced");
    assert_eq!(
        g.check(&Action::ChoosePair { hero: 0, engagement: 0, slot: 0 }),
        Err(RuleError::MonsterHitTakesPriority),
        "Bren is forced to Resolve the Monster Hit"
    );
    let (bren, ava) = (g.heroes[0].health, g.heroes[1].health);
    act(&mut g, Action::ChoosePair { hero: 0, engagement: 0, slot: 1 });
    act(&mut g, Action::EndTurn { hero: 0 });
    act(&mut g, Action::ChoosePair { hero: 1, engagement: 1, slot: 0 });
    act(&mut g, Action::EndTurn { hero: 1 });
    assert_eq!(g.heroes[0].health, bren - 6);
    assert_eq!(g.heroes[1].health, ava - 1, "smaller Direct Damage, much less Return Damage");
    assert_eq!(foe_health(&g, 0), vec![16 - 3]);
    assert_eq!(foe_health(&g, 1), vec![18 - 5]);
    let c = g.combat().unwrap();
    assert!(c.engagements.iter().all(|e| e.hero_cards == 1), "next Round both Heroes play just 1 card");
}

/// "1. Draw Cards", first example: 1 in hand, empty Draw Pile, must play 2.
#[test]
fn draw_example_1_play_one_then_reshuffle_and_draw_two() {
    let mut g = game_of(&["bren"]);
    stack_hero(&mut g, 0, &[5], &[]);
    let discard = g.heroes[0].discard.len();
    fight(&mut g, vec![sentient_vapor()]);
    assert_eq!(g.heroes[0].hand.len(), 1, "nothing to draw");
    let events = play(&mut g, 0, &[5]);
    assert!(events.contains(&Event::DiscardReshuffled { hero: 0 }));
    assert!(events.contains(&Event::CardsDrawn { hero: 0, count: 2 }), "3 minus the 1 just played");
    assert_eq!(g.heroes[0].hand.len(), 2);
    assert_eq!(g.heroes[0].draw.len(), discard - 2);
    let second = g.heroes[0].hand[1].value;
    play(&mut g, 0, &[second]);
    assert_eq!(g.heroes[0].hand.len(), 1, "the other card stays in hand");
}

/// "Another example: … two Cards in their Hand, none in their Draw Pile … simply play both".
#[test]
fn draw_example_2_two_in_hand_play_both_without_reshuffle() {
    let mut g = game_of(&["bren"]);
    stack_hero(&mut g, 0, &[5, 6], &[]);
    fight(&mut g, vec![sentient_vapor()]);
    let events = play(&mut g, 0, &[5, 6]);
    assert!(!events.iter().any(|e| matches!(e, Event::DiscardReshuffled { .. })));
    assert!(g.heroes[0].hand.is_empty() && g.heroes[0].draw.is_empty());
}

/// "Another example: … 1 Card in their Hand, 1 in their Draw Pile … Draw the last Card … then Play both".
#[test]
fn draw_example_3_draw_the_last_card_then_play_both() {
    let mut g = game_of(&["bren"]);
    stack_hero(&mut g, 0, &[5], &[6]);
    let events = fight(&mut g, vec![sentient_vapor()]);
    assert!(events.contains(&Event::CardsDrawn { hero: 0, count: 1 }));
    assert_eq!(g.heroes[0].hand.len(), 2);
    let events = play(&mut g, 0, &[5, 6]);
    assert!(!events.iter().any(|e| matches!(e, Event::DiscardReshuffled { .. })));
}

/// "Armor": a helmet and a shield (+1 each); 5 from a Monster Hit → 3, 3 from
/// a different Monster's Ability → 1; total 4.
#[test]
fn armor_example_bren_takes_four() {
    let mut g = game_of(&["bren"]);
    g.heroes[0].items = vec![equipped_item("Helmet", 1, false, vec![]), equipped_item("Shield", 1, false, vec![])];
    assert_eq!(g.heroes[0].armor(), 2, "Armor values are combined");
    stack_hero(&mut g, 0, &[3, 4, 5], &[6, 7, 8]);
    stack_monster(&mut g, Difficulty::I, &[5, 2]);
    stack_monster(&mut g, Difficulty::II, &[0, 5, 6]);
    let screecher = monster(
        "Screeching Thing",
        Difficulty::II,
        [9, 18, 27],
        vec![power("Screech", vec![Effect::DamageHeroes { amount: 3, whom: Whom::Hero, ignore_armor: false }])],
    );
    fight(&mut g, vec![sentient_vapor(), screecher]);
    let before = g.heroes[0].health;
    play(&mut g, 0, &[3, 4]);
    assert_eq!(g.heroes[0].hand.len(), 3, "steps 1–2 again for the second Monster Card: drew back to 3");
    play(&mut g, 0, &[5, 6]);
    assert_eq!(g.heroes[0].health, before - 1, "3 from the Ability, less 2 Armor");
    act(&mut g, Action::ChoosePair { hero: 0, engagement: 0, slot: 0 });
    act(&mut g, Action::EndTurn { hero: 0 });
    assert_eq!(g.heroes[0].health, before - 4, "3 + 1");
}

/// "Monster Health State — Withered Shade": ×4 both sides play 2; once two are
/// Defeated the Heroes play 2 to the Monster's 1. Its "Flash of Anguish"
/// hits the Hero the Power Card was drawn against.
#[test]
fn withered_shade_health_states_and_flash_of_anguish() {
    let mut g = game_of(&["bren"]);
    stack_hero(&mut g, 0, &[8, 7, 6], &[8, 7, 5, 4]);
    stack_monster(&mut g, Difficulty::I, &[0, 2, 3, 2, 3]);
    let max = g.heroes[0].health;
    fight(&mut g, vec![withered_shade()]);
    assert_eq!(foe_health(&g, 0), vec![4, 4, 4, 4], "Health Value 4 with one Hero");
    let e = &g.combat().unwrap().engagements[0];
    assert_eq!((e.hero_cards, e.monster_cards), (2, 2));
    for round in 0..2u8 {
        let events = play(&mut g, 0, &[8, 7]);
        if round == 0 {
            assert!(events.contains(&Event::MonsterAbility {
                foe: 0,
                name: "Flash of Anguish".into(),
                heroes: vec![0]
            }));
        }
        act(&mut g, Action::ChoosePair { hero: 0, engagement: 0, slot: 0 });
        act(&mut g, Action::EndTurn { hero: 0 });
        act(&mut g, Action::AssignDamage { hero: 0, individual: round });
    }
    assert_eq!(foe_health(&g, 0), vec![0, 0, 4, 4]);
    assert_eq!(g.heroes[0].health, max - 4, "Flash of Anguish; Return Damage avoided by each lone kill");
    let e = &g.combat().unwrap().engagements[0];
    assert_eq!((e.hero_cards, e.monster_cards), (2, 1), "×2: Heroes 2, Monster 1");
}

/// "Example: Applying Damage — Sil … 5 … Monster's is 2 … Sil takes 3 (5−2)".
#[test]
fn applying_damage_example_sil_five_against_two() {
    let mut g = game_of(&["sil"]);
    stack_hero(&mut g, 0, &[5, 2, 3], &[]);
    stack_monster(&mut g, Difficulty::I, &[2, 2]);
    fight(&mut g, vec![sentient_vapor()]);
    play(&mut g, 0, &[5, 2]);
    let before = g.heroes[0].health;
    act(&mut g, Action::ChoosePair { hero: 0, engagement: 0, slot: 0 });
    act(&mut g, Action::EndTurn { hero: 0 });
    assert_eq!(foe_health(&g, 0), vec![8 - 5]);
    assert_eq!(g.heroes[0].health, before - 3);
}
