//! The Monsters, Stair Guardians, Final Entity and Reference cards: they load,
//! their counts and ids are right, and a simulation keeps their difficulty in
//! bounds. Run with `--nocapture` to see the balance figures.

use std::collections::BTreeSet;

use depths_rules::combat::{FinalEntity, Outcome, Slot, may_choose};
use depths_rules::{
    Action, Activation, CombatStep, Content, Ecology, Effect, Event, Foe, Game, MonsterCard, MonsterType, Phase, Target,
};
use depths_sim::bot::{aimed_target, pick_for_packet};
use depths_tests::mat;

fn content() -> Content {
    Content::builtin().unwrap_or_else(|e| panic!("{e}"))
}

fn all_monsters(c: &Content) -> Vec<(Ecology, bool, &MonsterCard)> {
    c.ecologies
        .iter()
        .flat_map(|e| {
            e.monsters
                .iter()
                .map(move |m| (e.ecology, false, m))
                .chain(e.stair_guardians.iter().map(move |m| (e.ecology, true, m)))
        })
        .collect()
}

#[test]
fn monster_content_loads_and_counts_match_the_rulebook() {
    let c = content();
    let mine = |p: &String| p.contains("monsters") || p.contains("stair guardians") || p.contains("final entity");
    let problems: Vec<String> = c.count_problems().into_iter().filter(mine).collect();
    assert!(problems.is_empty(), "{problems:#?}");
    let fe = &c.final_entity;
    assert!(!fe.lore.text.is_empty() && !fe.lore.name.is_empty(), "the Lore card is written");
    assert!(c.ecology(Ecology::Subterranean).stair_guardians.is_empty(), "its guardian is the Final Entity");
}

#[test]
fn monster_ids_are_unique_snake_case_and_every_card_is_complete() {
    let c = content();
    let mut ids = BTreeSet::new();
    let entity = c.final_entity.head_1.iter().chain(&c.final_entity.head_2).chain(&c.final_entity.body);
    for id in
        all_monsters(&c).iter().map(|(_, _, m)| &m.id).chain(entity.map(|p| &p.id)).chain([&c.final_entity.tail.id])
    {
        assert!(ids.insert(id.clone()), "duplicate id {id}");
        assert!(id.chars().all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_'), "{id} is snake_case");
    }
    let mut names = BTreeSet::new();
    for (eco, guardian, m) in all_monsters(&c) {
        assert!(names.insert(m.name.clone()), "duplicate name {}", m.name);
        assert!(!m.description.is_empty(), "{} has a description", m.id);
        assert!(!m.abilities.is_empty(), "{} has an ability", m.id);
        assert!(m.health[0] < m.health[1] && m.health[1] < m.health[2], "{} health scales with Heroes", m.id);
        assert!(m.xp > 0);
        let n = m.monster_type.individuals();
        if m.monster_type != MonsterType::Singular {
            let alive: Vec<u8> = m.health_states.iter().map(|s| s.alive).collect();
            assert_eq!(alive, (1..=n).rev().collect::<Vec<u8>>(), "{} has a full Health State table", m.id);
        } else {
            assert!(m.health_states.is_empty());
        }
        if guardian {
            assert_eq!(m.monster_type, MonsterType::Singular, "Stair Guardian {} is singular", m.id);
        }
        for a in &m.abilities {
            assert!(!a.text().is_empty());
        }
        let _ = eco;
    }
}

#[test]
fn the_books_named_monsters_match_the_book() {
    let c = content();
    let find = |id: &str| {
        all_monsters(&c).into_iter().find(|(_, _, m)| m.id == id).unwrap_or_else(|| panic!("no monster {id}"))
    };
    let (eco, _, shade) = find("withered_shade");
    assert_eq!(eco, Ecology::Ruins);
    assert_eq!(
        (shade.difficulty, shade.monster_type, shade.health),
        (depths_rules::Difficulty::I, MonsterType::Group, [4, 8, 12])
    );
    let s = |m: &MonsterCard, alive| m.health_state(alive).map(|s| (s.monster_cards, s.hero_cards));
    assert_eq!(s(shade, 4), Some((2, 2)));
    assert_eq!(s(shade, 2), Some((1, 2)));
    assert_eq!(shade.abilities[0].name, "Flash of Anguish");
    assert_eq!(
        shade.abilities[0].effects,
        vec![Effect::DamageHeroes { amount: 4, whom: depths_rules::Whom::Hero, ignore_armor: false }]
    );
    let (_, _, skel) = find("decrepit_skeletal_warriors");
    assert_eq!((skel.monster_type, skel.health[1]), (MonsterType::Group, 10));
    assert_eq!(s(skel, 4), Some((2, 1)));
    assert_eq!(s(skel, 3).map(|x| x.1), Some(2));
    let (_, _, shroud) = find("shrieking_black_shroud");
    let wail = shroud.abilities.iter().find(|a| a.name == "Sustained Wail").expect("Sustained Wail");
    assert_eq!(wail.effects, vec![Effect::PlayOneCardNextRound { whom: depths_rules::Whom::Heroes }]);
    find("sentient_vapor");
    let (eco, _, saurian) = find("crazed_bipedal_saurian");
    assert_eq!((eco, saurian.name.as_str(), saurian.set_aside), (Ecology::Caverns, "Crazed Bipedal Saurian", true));
    assert_eq!(all_monsters(&c).iter().filter(|(_, _, m)| m.set_aside).count(), 1);
}

#[test]
fn reference_cards_grow_deeper() {
    let c = content();
    let r: Vec<_> = Ecology::ALL.iter().map(|e| &c.ecology(*e).reference).collect();
    for w in r.windows(2) {
        assert!(w[0].monster_xp <= w[1].monster_xp && w[0].feature_xp <= w[1].feature_xp);
        assert!(w[0].legendary_xp[1] <= w[1].legendary_xp[1] && w[0].ability_cost <= w[1].ability_cost);
        assert!(w[0].key_cost <= w[1].key_cost);
    }
    for (e, card) in Ecology::ALL.iter().zip(&r) {
        assert!(card.legendary_xp[0] <= card.legendary_xp[1]);
        let monsters = &c.ecology(*e).monsters;
        let avg = monsters.iter().map(|m| f64::from(m.xp)).sum::<f64>() / monsters.len() as f64;
        assert!(
            (avg - f64::from(card.monster_xp)).abs() <= 1.0,
            "{e:?}: typical Monster XP {} vs cards {avg:.1}",
            card.monster_xp
        );
    }
}

// ---------------------------------------------------------------------------
// Simulation: a simple greedy player fights every card many times.
// ---------------------------------------------------------------------------

const HEROES: [&str; 3] = ["bren", "sil", "ava"];
/// How much a point of the Hero's own health is worth against a point of damage dealt.
const HEALTH_WEIGHT: f64 = 1.3;

/// The value of resolving `slot` for the player: damage dealt less damage taken.
fn pair_value(slot: &Slot, bonus: u8, block_worth: f64) -> f64 {
    match slot.outcome(bonus) {
        Some(Outcome::Block) => block_worth,
        Some(_) => {
            let (dealt, taken) = slot.damage(bonus).unwrap_or((0, 0));
            f64::from(dealt) - HEALTH_WEIGHT * f64::from(taken)
        }
        None => f64::NEG_INFINITY,
    }
}

/// The best pair the Hero may legally choose among `slots`.
fn best_pair(slots: &[Slot], bonus: u8, block_worth: f64) -> (usize, f64) {
    (0..slots.len())
        .filter(|&i| may_choose(slots, i, bonus))
        .map(|i| (i, pair_value(&slots[i], bonus, block_worth)))
        .fold((0, f64::NEG_INFINITY), |a, b| if b.1 > a.1 { b } else { a })
}

fn block_worth(game: &Game, hero: u8) -> f64 {
    let has_block = game.heroes[hero as usize].abilities().any(|(_, a)| a.activation == Activation::Block);
    if has_block { 2.0 } else { 0.5 }
}

/// Expected value of the Hero's cards `hero_cards` against `monster_cards`
/// cards drawn from what is left in the Monster deck.
fn expected(game: &Game, foe: &Foe, hero_cards: &[u8], monster_cards: u8, bw: f64) -> f64 {
    let deck = &game.monster_decks[foe.difficulty.index()];
    let mut pool: Vec<u8> = deck.draw.iter().filter(|c| !c.power).map(|c| c.value).collect();
    if pool.len() < 2 {
        pool = foe.difficulty.action_values().to_vec();
    }
    let mk = |h: u8, m: u8| Slot {
        hero: Some(depths_rules::ActionCard::numbered(0, h)),
        monster: Some(depths_rules::ActionCard::numbered(0, m)),
        ..Slot::default()
    };
    let bonus = foe.card_bonus;
    let (mut total, mut n) = (0.0, 0.0);
    for i in 0..pool.len() {
        for j in 0..pool.len() {
            if i == j {
                continue;
            }
            let (a, b) = (pool[i], pool[j]);
            let v = match (hero_cards, monster_cards) {
                ([h], 1) => pair_value(&mk(*h, a), bonus, bw),
                ([h], _) => pair_value(&mk(*h, a.max(b)), bonus, bw),
                ([h1, h2], 1) => best_pair(&[mk(*h1, a)], bonus, bw).1.max(best_pair(&[mk(*h2, a)], bonus, bw).1),
                ([h1, h2], _) => best_pair(&[mk(*h1, a), mk(*h2, b)], bonus, bw).1,
                _ => 0.0,
            };
            total += v;
            n += 1.0;
        }
    }
    if n == 0.0 { 0.0 } else { total / n }
}

/// A simple greedy player: plays the cards with the best expected result,
/// resolves the best pair, uses Abilities when they obviously help.
fn greedy(game: &Game) -> Action {
    let c = game.combat().expect("in Combat");
    let legal = || game.legal_actions();
    match c.step {
        CombatStep::AssignMonsters | CombatStep::AvoidReturnDamage => {
            let mut l = legal();
            if c.step == CombatStep::AvoidReturnDamage {
                // Spare the Hero in worst shape.
                l.sort_by_key(|a| match a {
                    Action::AvoidReturnDamage { hero } => {
                        let h = &game.heroes[*hero as usize];
                        u32::from(h.health) * 100 / u32::from(h.max_health())
                    }
                    _ => 0,
                });
            }
            l.remove(0)
        }
        CombatStep::PlayCards => {
            let hero = c.acting_hero().expect("someone plays");
            let e = c
                .engagements
                .iter()
                .find(|e| {
                    e.group == c.group
                        && e.hero == hero
                        && e.slots.iter().filter(|s| s.hero.is_some()).count() < usize::from(e.hero_cards)
                })
                .expect("engagement");
            let foe = &c.foes[e.foe as usize];
            let bw = block_worth(game, hero);
            let hand = &game.heroes[hero as usize].hand;
            let played: Vec<u8> = e.slots.iter().filter_map(|s| s.hero.map(|h| h.value)).collect();
            let best = (0..hand.len())
                .map(|i| {
                    let mut cards = played.clone();
                    cards.push(hand[i].value);
                    let v = if cards.len() < usize::from(e.hero_cards) {
                        // First of two: the best partner among the rest of the hand.
                        (0..hand.len())
                            .filter(|&j| j != i)
                            .map(|j| expected(game, foe, &[hand[i].value, hand[j].value], e.monster_cards, bw))
                            .fold(f64::NEG_INFINITY, f64::max)
                    } else {
                        expected(game, foe, &cards, e.monster_cards, bw)
                    };
                    (i, v)
                })
                .fold((0, f64::NEG_INFINITY), |a, b| if b.1 > a.1 { b } else { a });
            Action::PlayCard { hero, card: hand[best.0].id }
        }
        CombatStep::PlaceMonsterCard => {
            let e = c.engagements.iter().find(|e| e.waiting.is_some()).expect("waiting");
            let bonus = c.foes[e.foe as usize].card_bonus;
            let bw = block_worth(game, e.hero);
            let value = |slot: usize| {
                let mut s = e.slots.clone();
                s[slot].monster = e.waiting;
                best_pair(&s, bonus, bw).1
            };
            Action::PlaceMonsterCard { hero: e.hero, slot: if value(1) > value(0) { 1 } else { 0 } }
        }
        CombatStep::AssignDamage => {
            // Damage lands all at once: aim where what is placed already leaves health.
            let hero = c.acting_hero().expect("someone places Damage");
            let p = c.packets[c.packet_of(hero).expect("a packet to place")];
            Action::AssignDamage { hero, individual: pick_for_packet(c, &p) }
        }
        CombatStep::Resolve => resolve(game),
    }
}

fn resolve(game: &Game) -> Action {
    let c = game.combat().expect("in Combat");
    let hero = c.acting_hero().expect("someone resolves");
    let h = &game.heroes[hero as usize];
    let bw = block_worth(game, hero);
    let power = h.stored_power.len() as u8;
    let ok = |a: &Action| game.check(a).is_ok();
    // Pair-altering Power abilities first, while pairs are open.
    for (e, en) in c.engagements_of(hero) {
        if en.chosen.is_some() || !en.slots.iter().any(|s| s.hero.is_some() && s.monster.is_some()) {
            continue;
        }
        let bonus = c.foes[en.foe as usize].card_bonus;
        let (_, now) = best_pair(&en.slots, bonus, bw);
        for (source, ability) in h.abilities() {
            let Activation::Power(cost) = ability.activation else { continue };
            if cost > power || !ability.alters_pairs() {
                continue;
            }
            let e8 = e as u8;
            let candidate = if ability.effects.contains(&Effect::SwapPlayedCards) && en.slots.len() == 2 {
                let mut s = en.slots.clone();
                (s[0].hero, s[1].hero) = (s[1].hero, s[0].hero);
                (best_pair(&s, bonus, bw).1 >= now + 2.0).then_some(Target::Engagement(e8))
            } else if ability.effects.contains(&Effect::RedrawMonsterCard) && now < -3.0 {
                let worst = (0..en.slots.len())
                    .filter(|&i| en.slots[i].monster.is_some())
                    .max_by_key(|&i| en.slots[i].monster_value(bonus));
                worst.map(|slot| Target::MonsterSlot { engagement: e8, slot: slot as u8 })
            } else if let Some(Effect::ModifyPlayedCard { delta }) = ability.effects.first() {
                let improved = (0..en.slots.len())
                    .filter(|&i| en.slots[i].hero.is_some())
                    .map(|i| {
                        let mut s = en.slots.clone();
                        s[i].hero_delta += *delta;
                        (i, best_pair(&s, bonus, bw).1)
                    })
                    .fold((0, f64::NEG_INFINITY), |a, b| if b.1 > a.1 { b } else { a });
                (improved.1 >= now + 2.0).then_some(Target::HeroSlot { engagement: e8, slot: improved.0 as u8 })
            } else {
                None
            };
            if let Some(target) = candidate {
                let a = Action::ActivateAbility { hero, source, target };
                if ok(&a) {
                    return a;
                }
            }
        }
        let (slot, _) = best_pair(&en.slots, bonus, bw);
        return Action::ChoosePair { hero, engagement: e as u8, slot: slot as u8 };
    }
    // Damage and healing abilities, Power and Block.
    for (source, ability) in h.abilities() {
        if ability.alters_pairs() {
            continue;
        }
        let Some(target) = aimed_target(game, c, hero, ability) else { continue };
        let a = Action::ActivateAbility { hero, source, target };
        if ok(&a) {
            return a;
        }
    }
    Action::EndTurn { hero }
}

#[derive(Default, Clone, Copy)]
struct Tally {
    fights: u32,
    wins: u32,
    /// Sum over fights of the average fraction of health the Heroes lost.
    lost: f64,
    rounds: u32,
}

impl Tally {
    fn win_rate(&self) -> f64 {
        f64::from(self.wins) / f64::from(self.fights.max(1))
    }
    fn health_lost(&self) -> f64 {
        self.lost / f64::from(self.fights.max(1))
    }
    fn add(&mut self, o: Tally) {
        self.fights += o.fights;
        self.wins += o.wins;
        self.lost += o.lost;
        self.rounds += o.rounds;
    }
}

/// One fight to the end with fresh Heroes; `None` if it ran away.
fn fight_once(heroes: &[&str], level: u8, foe: Foe, seed: u64) -> Tally {
    let mut game = Game::with_heroes(heroes.iter().map(|h| mat(h)).collect(), level, seed);
    game.start_combat(vec![foe]);
    let (mut steps, mut rounds) = (0, 0);
    while matches!(game.phase(), Phase::Combat { .. }) && steps < 4000 {
        let a = greedy(&game);
        let events = game.apply(a.clone()).unwrap_or_else(|e| panic!("greedy chose illegal {a:?}: {e}"));
        rounds += events.iter().filter(|e| matches!(e, Event::RoundEnded { .. })).count() as u32;
        steps += 1;
    }
    let lost: f64 = game.heroes.iter().map(|h| 1.0 - f64::from(h.health) / f64::from(h.max_health())).sum::<f64>()
        / game.heroes.len() as f64;
    Tally { fights: 1, wins: u32::from(game.phase() == Phase::Won), lost, rounds }
}

/// Parties of `n` Heroes, rotating through every combination.
fn parties(n: usize) -> Vec<Vec<&'static str>> {
    match n {
        1 => HEROES.iter().map(|h| vec![*h]).collect(),
        2 => vec![vec!["bren", "sil"], vec!["bren", "ava"], vec!["sil", "ava"]],
        _ => vec![HEROES.to_vec()],
    }
}

fn simulate(make: &dyn Fn(usize) -> Foe, heroes: usize, level: u8, fights: u32, seed: u64) -> Tally {
    let mut t = Tally::default();
    let ps = parties(heroes);
    for i in 0..fights {
        let party = &ps[i as usize % ps.len()];
        t.add(fight_once(party, level, make(heroes), seed.wrapping_mul(7919).wrapping_add(u64::from(i))));
    }
    t
}

fn level_for(e: Ecology) -> u8 {
    match e {
        Ecology::Ruins => 1,
        Ecology::Caverns => 2,
        Ecology::Subterranean => 3,
    }
}

const FIGHTS: u32 = 90;

#[test]
fn simulated_monster_fights_stay_in_bounds() {
    let c = content();
    let mut per_eco = Vec::new();
    let mut out = String::new();
    let mut failures = Vec::new();
    for (ei, eco) in c.ecologies.iter().enumerate() {
        let level = level_for(eco.ecology);
        for (guardians, list) in [(false, &eco.monsters), (true, &eco.stair_guardians)] {
            if list.is_empty() {
                continue;
            }
            let mut totals = [Tally::default(); 3];
            for (mi, m) in list.iter().enumerate() {
                let mut line = format!("{:?}{} {:<32}", eco.ecology, if guardians { " guardian" } else { "" }, m.name);
                for n in 1..=3 {
                    let seed = (ei * 1000 + mi * 10 + n) as u64 + if guardians { 500 } else { 0 };
                    let t = simulate(&|k| Foe::monster(m.clone(), k), n, level, FIGHTS, seed);
                    line += &format!(
                        " | {n}H win {:>3.0}% lost {:>3.0}% rds {:>4.1}",
                        100.0 * t.win_rate(),
                        100.0 * t.health_lost(),
                        f64::from(t.rounds) / f64::from(t.fights)
                    );
                    totals[n - 1].add(t);
                    // Nothing in the Monster deck should be a near-certain death or a walkover
                    // for a single fresh Hero.
                    if n == 1 && !guardians && (t.win_rate() < 0.6 || t.health_lost() < 0.08) {
                        failures.push(format!(
                            "{}: a lone Hero wins {:.0}%, loses {:.0}%",
                            m.name,
                            100.0 * t.win_rate(),
                            100.0 * t.health_lost()
                        ));
                    }
                }
                out += &format!("{line}\n");
            }
            per_eco.push((eco.ecology, guardians, totals));
        }
    }
    out += "\n";
    for (eco, guardians, totals) in &per_eco {
        let mut line = format!("{:<14}{:<10}", format!("{eco:?}"), if *guardians { "guardians" } else { "monsters" });
        for (n, t) in totals.iter().enumerate() {
            line += &format!(" | {}H win {:>5.1}% lost {:>4.1}%", n + 1, 100.0 * t.win_rate(), 100.0 * t.health_lost());
        }
        out += &format!("{line}\n");
    }
    eprintln!("{out}");
    assert!(failures.is_empty(), "{failures:#?}");
    let get = |e: Ecology, g: bool| {
        per_eco.iter().find(|(x, y, _)| *x == e && *y == g).map(|(_, _, t)| *t).expect("simulated")
    };
    let ruins = get(Ecology::Ruins, false);
    let caverns = get(Ecology::Caverns, false);
    let sub = get(Ecology::Subterranean, false);
    // A single fresh Hero usually survives a Ruins Monster, losing a sensible share of health.
    assert!(ruins[0].win_rate() >= 0.9, "Ruins win rate {}", ruins[0].win_rate());
    assert!((0.15..=0.40).contains(&ruins[0].health_lost()), "Ruins health lost {}", ruins[0].health_lost());
    assert!(caverns[0].win_rate() >= 0.85 && sub[0].win_rate() >= 0.8, "deeper Monsters are still usually beaten");
    assert!(sub[0].health_lost() <= 0.55, "Subterranean health lost {}", sub[0].health_lost());
    // Deeper Monsters hurt more (the Heroes are a level higher each time).
    assert!(caverns[0].health_lost() > ruins[0].health_lost() - 0.02);
    assert!(sub[0].health_lost() > caverns[0].health_lost() - 0.02);
    assert!(sub[0].health_lost() > ruins[0].health_lost());
    for e in [Ecology::Ruins, Ecology::Caverns] {
        let (m, g) = (get(e, false), get(e, true));
        for n in 0..3 {
            // Stair Guardians are real fights: costlier than the Ecology's Monsters, yet winnable.
            assert!(g[n].health_lost() > m[n].health_lost(), "{e:?} guardians vs monsters, {} Heroes", n + 1);
            assert!(
                (0.3..=0.95).contains(&g[n].win_rate()),
                "{e:?} guardians win rate {} with {} Heroes",
                g[n].win_rate(),
                n + 1
            );
        }
    }
}

fn entity(c: &Content, h1: usize, h2: usize, b: usize) -> FinalEntity {
    let fe = &c.final_entity;
    FinalEntity {
        head_1: fe.head_1[h1].clone(),
        head_2: fe.head_2[h2].clone(),
        body: fe.body[b].clone(),
        tail: fe.tail.clone(),
    }
}

#[test]
fn simulated_final_entity_is_very_hard_but_winnable() {
    let c = content();
    let mut by_heroes = [Tally::default(); 3];
    let mut out = String::new();
    let mut worst = (f64::MAX, String::new());
    let mut best = (0.0f64, String::new());
    for h1 in 0..c.final_entity.head_1.len() {
        for h2 in 0..c.final_entity.head_2.len() {
            for b in 0..c.final_entity.body.len() {
                let e = entity(&c, h1, h2, b);
                let name = format!("{} + {} + {}", e.head_1.name, e.head_2.name, e.body.name);
                let mut line = format!("{name:<62}");
                for n in 1..=3 {
                    let seed = (h1 * 100 + h2 * 10 + b) as u64 * 3 + n as u64;
                    let t = simulate(&|k| Foe::final_entity(e.clone(), k), n, 3, FIGHTS, seed + 77);
                    line +=
                        &format!(" | {n}H win {:>3.0}% lost {:>3.0}%", 100.0 * t.win_rate(), 100.0 * t.health_lost());
                    by_heroes[n - 1].add(t);
                    if n == 2 {
                        if t.win_rate() < worst.0 {
                            worst = (t.win_rate(), name.clone());
                        }
                        if t.win_rate() > best.0 {
                            best = (t.win_rate(), name.clone());
                        }
                    }
                }
                out += &format!("{line}\n");
            }
        }
    }
    for (n, t) in by_heroes.iter().enumerate() {
        out += &format!(
            "Final Entity, {} level-3 Heroes: win {:.1}%, health lost {:.1}%\n",
            n + 1,
            100.0 * t.win_rate(),
            100.0 * t.health_lost()
        );
    }
    eprintln!(
        "{out}2 Heroes: hardest {:.0}% ({}), easiest {:.0}% ({})",
        100.0 * worst.0,
        worst.1,
        100.0 * best.0,
        best.1
    );
    let two = by_heroes[1];
    assert!((0.15..=0.6).contains(&two.win_rate()), "2 healthy level-3 Heroes win {}", two.win_rate());
    assert!(two.health_lost() > 0.5, "a win costs dearly: {}", two.health_lost());
    assert!(worst.0 >= 0.05, "every combination is winnable: {} at {}", worst.1, worst.0);
    assert!(best.0 <= 0.8, "no combination is a walkover: {} at {}", best.1, best.0);
}
