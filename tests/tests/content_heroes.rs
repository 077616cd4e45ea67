//! The Heroes' content: Hero Mats, each class's Item Cards, Ability Cards
//! (Spells) and Item Action Cards — counts, validation, and a combat
//! simulation measuring what each card is worth against a fixed Monster.
//!
//! The simulation figures print with `cargo test -p depths_tests --test
//! content_heroes -- --nocapture`.

use depths_rules::action_card::ActionCard;
use depths_rules::combat::CombatStep;
use depths_rules::content::CLASSES;
use depths_rules::effect::{Ability, Activation, Effect, Whom, is_exploring_effect};
use depths_rules::hero::{AbilityCard, ITEM_CARD_ID_BASE, ItemCard, OwnedAbility, OwnedItem};
use depths_rules::{
    Action, CardId, Content, Difficulty, Foe, Game, GameRng, Hero, HeroClass, HeroMat, MonsterCard, MonsterType, Phase,
};

fn content() -> Content {
    Content::builtin().unwrap_or_else(|e| panic!("{e}"))
}

fn all_abilities(c: &Content) -> Vec<(String, &Ability)> {
    let mut out = Vec::new();
    for mat in &c.heroes {
        out.extend(mat.abilities.iter().map(|a| (mat.id.clone(), a)));
    }
    for deck in c.classes.values() {
        for item in &deck.items {
            out.extend(item.abilities.iter().map(|a| (item.id.clone(), a)));
        }
        out.extend(deck.abilities.iter().map(|a| (a.id.clone(), &a.ability)));
    }
    out
}

// ---------------------------------------------------------------------------
// Loading, counts and validation
// ---------------------------------------------------------------------------

#[test]
fn hero_content_loads_and_its_counts_match_the_components_list() {
    let c = content();
    let ours: Vec<String> = c
        .count_problems()
        .into_iter()
        .filter(|p| {
            p.contains(" items:")
                || p.contains(" abilities:")
                || p.contains("item action cards")
                || p.contains("alternate heroes")
        })
        .collect();
    assert!(ours.is_empty(), "hero content counts: {ours:?}");
    for (class, name) in CLASSES {
        let deck = c.class_deck(class);
        assert_eq!(deck.items.len(), 8, "{name} items");
        assert_eq!(deck.abilities.len(), 8, "{name} abilities");
        let want = if class == HeroClass::Rogue { 9 } else { 12 };
        assert_eq!(deck.item_action_cards.len(), want, "{name} item action cards");
    }
}

#[test]
fn six_hero_mats_with_one_block_and_one_power_ability_each() {
    let c = content();
    let ids: Vec<&str> = c.heroes.iter().map(|h| h.id.as_str()).collect();
    assert_eq!(ids, ["bren", "sil", "ava", "bren_alt", "sil_alt", "ava_alt"]);
    let alternates = [
        ("bren_alt", HeroClass::Fighter, HeroClass::Wizard),
        ("sil_alt", HeroClass::Wizard, HeroClass::Rogue),
        ("ava_alt", HeroClass::Rogue, HeroClass::Fighter),
    ];
    for (id, primary, secondary) in alternates {
        let h = c.hero(id).unwrap();
        assert_eq!((h.class, h.secondary_class), (primary, Some(secondary)), "{id}");
    }
    for mat in &c.heroes {
        assert_eq!(mat.abilities.len(), 2, "{}", mat.id);
        assert_eq!(mat.abilities[0].activation, Activation::Block, "{}: Mat(0) is the Block ability", mat.id);
        assert!(matches!(mat.abilities[1].activation, Activation::Power(1 | 2)), "{}: Mat(1) costs Power", mat.id);
        assert!(mat.max_health.windows(2).all(|w| w[0] < w[1]), "{}: health grows with level", mat.id);
        assert!((14..=26).contains(&mat.max_health[0]), "{}: level 1 health", mat.id);
    }
    // The rulebook's examples rely on these.
    let bren = c.hero("bren").unwrap();
    assert_eq!(bren.abilities[1].name, "Brush Aside");
    assert_eq!(bren.abilities[1].activation, Activation::Power(1));
    assert_eq!(bren.abilities[1].effects, vec![Effect::SwapPlayedCards]);
    assert_eq!(bren.abilities[0].name, "Shield Bash");
    assert!(matches!(bren.abilities[0].effects[..], [Effect::DamageMonster { .. }]));
    let ava = c.hero("ava").unwrap();
    assert_eq!(ava.abilities[0].name, "Counter-Cut");
    assert_eq!(ava.abilities[0].effects, vec![Effect::DamageMonster { amount: 2, magic: false }]);
    let sil = c.hero("sil").unwrap();
    assert_eq!(sil.abilities[1].name, "Force Bolt");
    assert_eq!(sil.abilities[1].effects, vec![Effect::DamageMonster { amount: 3, magic: true }]);
}

#[test]
fn every_hero_ability_validates_and_does_something_the_engine_does() {
    let c = content();
    for (owner, a) in all_abilities(&c) {
        a.validate().unwrap_or_else(|e| panic!("{owner}: {e}"));
        assert!(!a.name.is_empty(), "{owner}: named");
        let text = a.text();
        assert!(text.starts_with(&a.name), "{owner}: {text}");
        let exploring = a.effects.iter().filter(|e| is_exploring_effect(e)).count();
        assert!(exploring == 0 || exploring == a.effects.len(), "{owner}: \"{}\" mixes Exploring and Combat", a.name);
        if exploring > 0 {
            // Used while Exploring: paid for with Power, never Passive or Block.
            assert!(matches!(a.activation, Activation::Power(_)), "{owner}: \"{}\"", a.name);
        }
        for e in &a.effects {
            // Passive abilities act only through standing qualities the engine reads.
            if a.activation == Activation::Passive {
                assert!(
                    matches!(e, Effect::Armor { .. } | Effect::Magic | Effect::BonusDamage { .. }),
                    "{owner}: passive \"{}\" has {e:?}, which does nothing while passive",
                    a.name
                );
            }
            // A Block is resolved before a Block ability: nothing left to alter or add to.
            if a.activation == Activation::Block {
                assert!(
                    !e.alters_pairs() && !matches!(e, Effect::BonusDamage { .. } | Effect::IgnoreResults),
                    "{owner}: Block ability \"{}\" has {e:?}, which cannot matter after a Block",
                    a.name
                );
            }
            assert!(
                !matches!(
                    e,
                    Effect::DamageHeroes { .. }
                        | Effect::PlayOneCardNextRound { .. }
                        | Effect::LoseStoredPower { .. }
                        | Effect::WoundEachRound { .. }
                ),
                "{owner}: a Hero card hurting Heroes belongs to treasures, not class cards"
            );
        }
        if a.exhaust_after_use {
            assert!(!matches!(a.activation, Activation::Passive), "{owner}: a passive cannot Exhaust");
        }
    }
}

#[test]
fn class_items_fit_their_item_action_cards_and_rules() {
    let c = content();
    for (class, name) in CLASSES {
        let deck = c.class_deck(class);
        let mut supply = deck.item_action_cards.clone();
        for item in &deck.items {
            assert_eq!(item.deck, Some(class), "{}", item.id);
            assert!(item.hands <= 2, "{}", item.id);
            assert!(item.uses.is_none() && !item.fabled_blade, "{}: class Items have no limited uses", item.id);
            assert!((1..=4).contains(&item.xp), "{}: XP value", item.id);
            assert!(!item.description.is_empty() && !item.name.is_empty(), "{}", item.id);
            assert!(
                usize::from(item.remove_cards) <= item.add_cards.len(),
                "{}: removes at most what it adds",
                item.id
            );
            if let Some(only) = item.class_only {
                assert_eq!(only, class, "{}: class_only names its own class", item.id);
            }
            for v in &item.add_cards {
                let i = supply
                    .iter()
                    .position(|s| s == v)
                    .unwrap_or_else(|| panic!("{name}: {} adds a {v} beyond the Item Action Cards", item.id));
                supply.remove(i);
            }
            let useful = item.armor > 0 || item.magic || !item.abilities.is_empty() || !item.add_cards.is_empty();
            assert!(useful, "{}: does something", item.id);
        }
        assert!(supply.is_empty(), "{name}: Item Action Cards no Item adds: {supply:?}");
        for v in &deck.item_action_cards {
            assert!((5..=9).contains(v), "{name}: Item Action Card value {v}");
        }
        for a in &deck.abilities {
            assert_eq!(a.class, class, "{}", a.id);
        }
    }
}

#[test]
fn each_class_has_spells_door_openers_healing_and_magic() {
    let c = content();
    let unlocks = |a: &Ability| a.effects.contains(&Effect::UnlockDoor);
    let heals = |a: &Ability| a.effects.iter().any(|e| matches!(e, Effect::HealHeroes { .. }));
    let mut door_item = false;
    let mut door_ability = false;
    let mut door_spell = false;
    for (class, name) in CLASSES {
        let deck = c.class_deck(class);
        let item_abilities = || deck.items.iter().flat_map(|i| i.abilities.iter());
        let card_abilities = || deck.abilities.iter().map(|a| &a.ability);
        let item_door = item_abilities().any(unlocks);
        let card_door = card_abilities().any(unlocks);
        assert!(item_door || card_door, "{name}: something unlocks a Door");
        door_item |= item_door;
        if class == HeroClass::Wizard {
            door_spell |= card_door;
            let exhaust = card_abilities().filter(|a| a.exhaust_after_use).count();
            assert!((2..=5).contains(&exhaust), "{name}: several Spells Exhaust After Use, not all ({exhaust})");
        } else {
            door_ability |= card_door;
            assert!(card_abilities().all(|a| !a.exhaust_after_use), "{name}: only Spells Exhaust");
        }
        assert!(deck.items.iter().any(|i| i.magic), "{name}: a (Magic) Item");
        assert!(item_abilities().chain(card_abilities()).any(heals), "{name}: something heals");
        let acts = |f: fn(&Activation) -> bool| card_abilities().filter(|a| f(&a.activation)).count();
        assert!(acts(|a| *a == Activation::Passive) >= 1, "{name}: a passive Ability");
        assert!(acts(|a| *a == Activation::Block) >= 1, "{name}: a Block-Activated Ability");
        assert!(acts(|a| matches!(a, Activation::Power(1 | 2))) >= 3, "{name}: Power-Activated Abilities");
        assert!(deck.items.iter().any(|i| i.add_cards.is_empty()), "{name}: Items a multi-classed Ally can take");
    }
    assert!(door_item && door_ability && door_spell, "an Item, an Ability and a Spell unlock Doors");
}

// ---------------------------------------------------------------------------
// Simulation
// ---------------------------------------------------------------------------

/// The fixed mid-strength opponent: a Medium (II) Singular Monster with one
/// Power-Activated ability.
fn test_monster() -> MonsterCard {
    monster_with_health(24)
}

fn monster_with_health(health: u8) -> MonsterCard {
    MonsterCard {
        id: "sim_gloom_stalker".into(),
        name: "Gloom Stalker".into(),
        description: String::new(),
        difficulty: Difficulty::II,
        monster_type: MonsterType::Singular,
        health: [health, health * 2, health * 3],
        health_states: Vec::new(),
        xp: 3,
        abilities: vec![Ability {
            name: "Rend".into(),
            activation: Activation::Power(1),
            effects: vec![Effect::DamageHeroes { amount: 3, whom: Whom::Hero, ignore_armor: false }],
            exhaust_after_use: false,
        }],
        set_aside: false,
    }
}

/// "Adding / Removing Action Cards": add the Item Action Cards, remove the
/// lowest cards, shuffle.
fn gain_item(hero: &mut Hero, card: &ItemCard, rng: &mut GameRng) {
    for (k, &v) in card.add_cards.iter().enumerate() {
        let id = ITEM_CARD_ID_BASE + hero.out_of_deck.len() as u16 + k as u16;
        hero.draw.push(ActionCard { id: CardId(id), value: v, power: false, item: true });
    }
    for _ in 0..card.remove_cards {
        let i = (0..hero.draw.len()).filter(|&i| !hero.draw[i].power).min_by_key(|&i| hero.draw[i].value).unwrap();
        let removed = hero.draw.remove(i);
        hero.out_of_deck.push(removed);
    }
    rng.shuffle(&mut hero.draw);
    hero.items.push(OwnedItem { card: card.clone(), equipped: true, uses_left: card.uses });
}

fn gain_ability(hero: &mut Hero, card: &AbilityCard) {
    hero.abilities.push(OwnedAbility { card: card.clone(), exhausted: false });
}

/// How a state compares with the one a decision was taken in.
fn score(root: &Game, g: &Game) -> f64 {
    let health = |g: &Game| -> f64 {
        g.combat().map_or(0.0, |c| c.foes.iter().flat_map(|f| &f.individuals).map(|i| f64::from(i.health)).sum())
    };
    let h0 = &root.heroes[0];
    let h1 = &g.heroes[0];
    let exhausted = |h: &Hero| h.abilities.iter().filter(|a| a.exhausted).count() as f64;
    let mut s = (health(root) - health(g)) - 1.3 * (f64::from(h0.health) - f64::from(h1.health))
        + POWER_WORTH * (h1.stored_power.len() as f64 - h0.stored_power.len() as f64)
        - SPELL_WORTH * (exhausted(h1) - exhausted(h0));
    match g.phase() {
        Phase::Won => s += 15.0,
        Phase::Lost(_) => s -= 100.0,
        _ => {}
    }
    s
}

/// The simple part of the policy: highest card, best pair by its damage.
fn base_action(g: &Game, legal: &[Action]) -> Action {
    let c = g.combat().expect("in Combat");
    let hero = &g.heroes[0];
    let armor = i32::from(hero.armor());
    let bonus = i32::from(hero.passive_bonus_damage());
    let pair_value = |a: &Action| -> i32 {
        let Action::ChoosePair { engagement, slot, .. } = a else { return i32::MIN };
        let e = &c.engagements[*engagement as usize];
        let b = c.foes[e.foe as usize].card_bonus;
        let (dealt, taken) = e.slots[*slot as usize].damage(b).unwrap_or((0, 0));
        let dealt = if dealt > 0 { i32::from(dealt) + bonus } else { 0 };
        dealt - (i32::from(taken) - armor).max(0)
    };
    match c.step {
        CombatStep::PlayCards => legal
            .iter()
            .max_by_key(|a| match a {
                Action::PlayCard { card, .. } => hero.hand.iter().find(|h| h.id == *card).map_or(0, |h| h.value),
                _ => 0,
            })
            .cloned()
            .unwrap(),
        CombatStep::Resolve => legal
            .iter()
            .filter(|a| matches!(a, Action::ChoosePair { .. }))
            .max_by_key(|a| pair_value(a))
            .cloned()
            .unwrap_or_else(|| legal.iter().find(|a| matches!(a, Action::EndTurn { .. })).cloned().unwrap()),
        _ => legal[0].clone(),
    }
}

/// Plays the base policy to the end of the current Round.
fn finish_round(g: &mut Game) {
    let round = g.combat().map_or(0, |c| c.round);
    while matches!(g.phase(), Phase::Combat { .. }) && g.combat().is_some_and(|c| c.round == round) {
        let legal = g.legal_actions();
        let a = base_action(g, &legal);
        g.apply(a).expect("legal");
    }
}

/// Hides what the player cannot know: reshuffles every draw pile.
fn determinize(g: &mut Game, rng: &mut GameRng) {
    for d in &mut g.monster_decks {
        rng.shuffle(&mut d.draw);
    }
    for h in &mut g.heroes {
        rng.shuffle(&mut h.draw);
    }
}

const SAMPLES: u64 = 3;
/// What the policy thinks a Stored Power Card and a ready Spell are worth, in Health.
const POWER_WORTH: f64 = 3.0;
const SPELL_WORTH: f64 = 2.0;

/// One-step lookahead over sampled hidden information, with the base policy
/// finishing the Round.
fn choose(g: &Game, legal: &[Action], decision: u64) -> Action {
    if legal.len() == 1 {
        return legal[0].clone();
    }
    let step = g.combat().unwrap().step;
    if !matches!(step, CombatStep::PlayCards | CombatStep::Resolve | CombatStep::PlaceMonsterCard) {
        return legal[0].clone();
    }
    let mut best = (f64::MIN, 0);
    for (i, a) in legal.iter().enumerate() {
        let mut total = 0.0;
        for s in 0..SAMPLES {
            let mut sim = g.clone();
            determinize(&mut sim, &mut GameRng::from_seed(decision.wrapping_mul(31).wrapping_add(s)));
            sim.apply(a.clone()).expect("legal");
            finish_round(&mut sim);
            total += score(g, &sim);
        }
        if total > best.0 {
            best = (total, i);
        }
    }
    legal[best.1].clone()
}

#[derive(Clone, Copy, Default)]
struct Tally {
    fights: u32,
    wins: u32,
    health_lost: u32,
    rounds: u32,
}

impl Tally {
    fn win_rate(&self) -> f64 {
        f64::from(self.wins) / f64::from(self.fights)
    }
    fn health_lost(&self) -> f64 {
        f64::from(self.health_lost) / f64::from(self.fights)
    }
    fn rounds(&self) -> f64 {
        f64::from(self.rounds) / f64::from(self.fights)
    }
}

/// A fresh level-1 Hero, given `gain`, fights the test Monster `fights` times.
fn simulate(mat: &HeroMat, fights: u64, gain: &dyn Fn(&mut Hero, &mut GameRng)) -> Tally {
    simulate_against(mat, &test_monster(), fights, gain)
}

fn simulate_against(
    mat: &HeroMat,
    monster: &MonsterCard,
    fights: u64,
    gain: &dyn Fn(&mut Hero, &mut GameRng),
) -> Tally {
    let mut t = Tally::default();
    for seed in 0..fights {
        let mut g = Game::with_heroes(vec![mat.clone()], 1, 1000 + seed);
        let mut deck_rng = GameRng::from_seed(seed ^ 0x5EED);
        gain(&mut g.heroes[0], &mut deck_rng);
        deck_rng.shuffle(&mut g.heroes[0].draw);
        let start = g.heroes[0].health;
        g.start_combat(vec![Foe::monster(monster.clone(), 1)]);
        let mut decision = seed << 20;
        let mut rounds = 0;
        while matches!(g.phase(), Phase::Combat { .. }) {
            rounds = g.combat().map_or(rounds, |c| c.round);
            let legal = g.legal_actions();
            let a = choose(&g, &legal, decision);
            decision += 1;
            g.apply(a).expect("legal");
            assert!(g.combat().is_none_or(|c| c.round < 60), "combat did not end");
        }
        t.fights += 1;
        t.rounds += rounds;
        if g.phase() == Phase::Won {
            t.wins += 1;
        }
        t.health_lost += u32::from(start - g.heroes[0].health);
    }
    t
}

const FIGHTS: u64 = 400;

/// Bare win rates of a mat at level-1 health `base + k` for each k in `CURVE`.
const CURVE: [i8; 9] = [-4, -2, 0, 2, 4, 6, 8, 10, 12];

fn health_curve(mat: &HeroMat) -> Vec<(f64, f64)> {
    CURVE
        .iter()
        .map(|&k| {
            let mut m = mat.clone();
            for h in &mut m.max_health {
                *h = (i16::from(*h) + i16::from(k)).max(1) as u8;
            }
            (f64::from(k), simulate(&m, FIGHTS, &|_, _| {}).win_rate())
        })
        .collect()
}

/// How much extra starting Health would win as often as `win` does: the
/// card's worth in Health. Linear between the curve's points, clamped to it.
fn health_equivalent(curve: &[(f64, f64)], win: f64) -> f64 {
    // The curve rises with health but is noisy: make it monotone first.
    let mut pts: Vec<(f64, f64)> = Vec::new();
    for &(h, w) in curve {
        let w = pts.last().map_or(w, |&(_, p): &(f64, f64)| w.max(p));
        pts.push((h, w));
    }
    if win <= pts[0].1 {
        return pts[0].0;
    }
    for pair in pts.windows(2) {
        let ((h0, w0), (h1, w1)) = (pair[0], pair[1]);
        if win <= w1 {
            return if w1 > w0 { h0 + (h1 - h0) * (win - w0) / (w1 - w0) } else { h0 };
        }
    }
    pts.last().unwrap().0
}

#[test]
fn simulation_every_card_helps_and_none_is_absurd() {
    let c = content();
    let started = std::time::Instant::now();
    let m = test_monster();
    let mut report = vec![format!(
        "Simulation: a level-1 Hero alone vs {} (Medium, Singular, Health {}, Power: Rend 3 Damage), {FIGHTS} fights per line",
        m.name, m.health[0]
    )];
    let mut failures = Vec::new();
    for mat in &c.heroes {
        let t = simulate(mat, FIGHTS, &|_, _| {});
        report.push(format!(
            "mat {:<9} health {:>2}: win {:>5.1}%  health lost {:>5.1}  rounds {:.1}",
            mat.id,
            mat.max_health[0],
            100.0 * t.win_rate(),
            t.health_lost(),
            t.rounds()
        ));
        if !(0.25..=0.90).contains(&t.win_rate()) {
            failures.push(format!("mat {}: bare win rate {:.2} out of 0.25..0.90", mat.id, t.win_rate()));
        }
    }
    for (class, name) in CLASSES {
        let deck = c.class_deck(class);
        let mat = c.heroes.iter().find(|h| h.class == class && h.secondary_class.is_none()).unwrap();
        let base = simulate(mat, FIGHTS, &|_, _| {});
        let curve = health_curve(mat);
        report.push(format!(
            "--- {name} ({}, health {}) bare: win {:.1}%, health lost {:.1}; win by extra health: {}",
            mat.id,
            mat.max_health[0],
            100.0 * base.win_rate(),
            base.health_lost(),
            curve.iter().map(|(h, w)| format!("{h:+}:{:.0}%", 100.0 * w)).collect::<Vec<_>>().join(" ")
        ));
        let mut check = |label: String, combat: bool, t: Tally| {
            let worth = health_equivalent(&curve, t.win_rate());
            report.push(format!(
                "{label:<34} win {:>5.1}% ({:+5.1})  health lost {:>5.1} ({:+5.1})  worth {:>+5.1} Health{}",
                100.0 * t.win_rate(),
                100.0 * (t.win_rate() - base.win_rate()),
                t.health_lost(),
                t.health_lost() - base.health_lost(),
                worth,
                if combat { "" } else { "  (used while Exploring)" }
            ));
            if !combat {
                return;
            }
            let saved = base.health_lost() - t.health_lost();
            if worth < 1.0 && saved < 1.0 {
                failures.push(format!("{label}: too weak (worth {worth:+.1} Health, saves {saved:+.1})"));
            }
            // The worth is read off a curve of 400 fights a point: one fight
            // moves it by about 0.1 Health, so the bound leaves that much room
            // (Mirror Buckler sits at +10.0 to +10.1).
            if worth > 10.5 {
                failures.push(format!("{label}: too strong (worth {worth:+.1} Health)"));
            }
        };
        for item in &deck.items {
            let combat = item.armor > 0
                || item.magic && (!item.add_cards.is_empty() || !item.abilities.is_empty())
                || !item.add_cards.is_empty()
                || item.abilities.iter().any(|a| !a.effects.iter().any(is_exploring_effect));
            let t = simulate(mat, FIGHTS, &|h, rng| gain_item(h, item, rng));
            check(format!("item {}", item.name), combat, t);
        }
        for card in &deck.abilities {
            let combat = !card.ability.effects.iter().any(is_exploring_effect);
            let t = simulate(mat, FIGHTS, &|h, _| gain_ability(h, card));
            check(format!("ability {}", card.ability.name), combat, t);
        }
    }
    report.push(format!("({:.1?})", started.elapsed()));
    eprintln!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{failures:#?}");
}

/// "(Magic)" only shows against Monsters resistant to non-magic attacks: a
/// (Magic) Item must be worth clearly more there than on the plain Monster.
#[test]
fn simulation_magic_items_pay_off_against_resistant_monsters() {
    let c = content();
    let mut glass = test_monster();
    glass.name = "Glass Gloom Stalker".into();
    glass.health = [14, 28, 42];
    glass.abilities.push(Ability {
        name: "Unreal".into(),
        activation: Activation::Passive,
        effects: vec![Effect::ResistNonMagic],
        exhaust_after_use: false,
    });
    let fights = 300;
    let mut report = vec![format!("vs {} (Health {}, resistant to non-magic attacks):", glass.name, glass.health[0])];
    let mut failures = Vec::new();
    for (class, name) in CLASSES {
        let deck = c.class_deck(class);
        let mat = c.heroes.iter().find(|h| h.class == class && h.secondary_class.is_none()).unwrap();
        let bare_plain = simulate(mat, fights, &|_, _| {});
        let bare_glass = simulate_against(mat, &glass, fights, &|_, _| {});
        report.push(format!("--- {name}: bare win {:.1}%", 100.0 * bare_glass.win_rate()));
        for item in deck.items.iter().filter(|i| i.magic) {
            let plain = simulate(mat, fights, &|h, rng| gain_item(h, item, rng));
            let on_glass = simulate_against(mat, &glass, fights, &|h, rng| gain_item(h, item, rng));
            let gain_plain = plain.win_rate() - bare_plain.win_rate();
            let gain_glass = on_glass.win_rate() - bare_glass.win_rate();
            report.push(format!(
                "item {:<28} win {:>5.1}% ({:+5.1}; on the plain Monster {:+5.1})",
                item.name,
                100.0 * on_glass.win_rate(),
                100.0 * gain_glass,
                100.0 * gain_plain
            ));
            if gain_glass < 0.10 {
                failures
                    .push(format!("{}: (Magic) gains only {gain_glass:+.2} against a resistant Monster", item.name));
            }
            // A Wizard's Spells already make their Round's attack (Magic); others need the Item.
            if class != HeroClass::Wizard && gain_glass < gain_plain + 0.05 {
                failures
                    .push(format!("{}: (Magic) makes no difference ({gain_glass:+.2} vs {gain_plain:+.2})", item.name));
            }
        }
    }
    eprintln!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Tuning aid: bare win rates by Hero level-1 health and Monster health.
#[test]
#[ignore]
fn sweep_health() {
    let c = content();
    for id in ["bren", "sil", "ava", "bren_alt", "sil_alt", "ava_alt"] {
        for hp in [14u8, 16, 18, 20, 22, 24] {
            let mut mat = c.hero(id).unwrap().clone();
            mat.max_health = [hp, hp + 5, hp + 10];
            let row: Vec<String> = [16u8, 20, 24, 28]
                .iter()
                .map(|&m| {
                    let t = simulate_against(&mat, &monster_with_health(m), 300, &|_, _| {});
                    format!("m{m}: {:>5.1}%", 100.0 * t.win_rate())
                })
                .collect();
            eprintln!("{id:<9} hp {hp:>2}: {}", row.join("  "));
        }
    }
}
