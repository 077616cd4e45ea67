//! Players made of code: a random bot and a careful heuristic bot. Both only
//! see the [`Game`] and answer with one legal [`Action`].

use depths_rules::adventure::{HeroChoice, Pending, Purchase, XpRef};
use depths_rules::combat::{Combat, DamagePacket};
use depths_rules::combat::{Slot, may_choose};
use depths_rules::effect::TargetKind;
use std::cell::RefCell;
use std::sync::Arc;

use depths_rules::map::{
    Element, ElementRef, Map, MapTile, PlaceCounts, Placement, Preview, Rotation, ThroughCounter, TileShape,
};
use depths_rules::{Ability, Action, Activation, CombatStep, Effect, Foe, Game, GameRng, Outcome, Phase, Target};

use crate::search_stats::SearchStats;

/// Chooses one legal action for the current decision.
pub trait Bot {
    fn choose(&mut self, game: &Game) -> Action;

    /// What searching cost so far, for a bot that searches.
    fn search_stats(&self) -> Option<SearchStats> {
        None
    }
}

/// Uniform over the legal actions, except that Equip/Unequip and purchases
/// are rare (otherwise random play could toggle an Item forever).
pub struct RandomBot {
    pub rng: GameRng,
}

impl Bot for RandomBot {
    fn choose(&mut self, g: &Game) -> Action {
        let legal = g.legal_actions();
        let is_busy = |a: &&Action| {
            !matches!(
                a,
                Action::Equip { .. } | Action::Unequip { .. } | Action::StartPurchase { .. } | Action::CancelPurchase
            )
        };
        // Counted, not listed: the n-th busy action is found again below.
        let busy = legal.iter().filter(is_busy).count();
        if busy == 0 || self.rng.below(20) == 0 {
            legal[self.rng.below(legal.len() as u32) as usize].clone()
        } else {
            let pick = self.rng.below(busy as u32) as usize;
            legal.iter().filter(is_busy).nth(pick).expect("fewer than busy").clone()
        }
    }
}

/// Plays like a careful player:
/// - Combat: plays the cards with the best expected result against what is
///   left in the Monster deck, resolves the pair that trades least health per
///   damage dealt (a killing blow avoids Return Damage), spends Power on
///   Abilities that turn a Monster Hit into something better.
/// - Exploring: keeps placement options open (a dead-end gauge over the
///   remaining tiles), encounters the blocker that frees most tiles before it
///   dead-ends, buys Keys for Doors that block progress, heals with XP (pool
///   cards, smallest first) below ~60% before fighting, rests at the Campfire
///   when it is worth most, takes Legendary Locations and Chests, equips Items.
/// - Level Up: buys an Ability for each Hero the pool can pay for.
#[derive(Default)]
pub struct HeuristicBot;

impl Bot for HeuristicBot {
    fn choose(&mut self, g: &Game) -> Action {
        let legal = g.legal_actions();
        if matches!(g.phase(), Phase::Combat { .. }) {
            return combat_choice(g, &legal, None);
        }
        if let Some(p) = g.pending() {
            return pending_choice(g, p, &legal);
        }
        explore_choice(g, &legal)
    }
}

impl HeuristicBot {
    /// The careful choice for Hero `hero` alone, when several Heroes may act
    /// in a Combat step and only this one is to be played (a Companion seat
    /// at the client's table): `None` when `hero` has nothing to do now.
    /// Outside Combat, the usual choice if it is for no other Hero.
    pub fn choose_for(&mut self, g: &Game, hero: u8) -> Option<Action> {
        let legal = g.legal_actions();
        if let Some(c) = g.combat().filter(|_| matches!(g.phase(), Phase::Combat { .. })) {
            if !c.may_act(hero) {
                return None;
            }
            let own: Vec<Action> = legal.iter().filter(|a| acting_for(a) == Some(hero)).cloned().collect();
            if own.is_empty() {
                return None;
            }
            return Some(combat_choice(g, &own, Some(hero)));
        }
        let a = self.choose(g);
        (acting_for(&a).is_none_or(|h| h == hero)).then_some(a)
    }
}

/// The Hero a Combat action is taken for (the players' joint choices, such
/// as assigning Monsters or who avoids Return Damage, name none).
pub fn combat_hero(a: &Action) -> Option<u8> {
    match a {
        Action::PlayCard { hero, .. }
        | Action::PlaceMonsterCard { hero, .. }
        | Action::ActivateAbility { hero, .. }
        | Action::ChoosePair { hero, .. }
        | Action::EndTurn { hero }
        | Action::AssignDamage { hero, .. } => Some(*hero),
        _ => None,
    }
}

/// The Hero a Combat action (or an Item's equip) is taken for.
fn acting_for(a: &Action) -> Option<u8> {
    match a {
        Action::Equip { hero, .. } | Action::Unequip { hero, .. } => Some(*hero),
        _ => combat_hero(a),
    }
}

/// Heal with XP when a Hero falls below this share of their maximum.
fn heal_below() -> f64 {
    knob(0, 0.7)
}

/// Experiment knobs (DEPTHS_KNOBS="a,b,c"), read once.
fn knob(i: usize, default: f64) -> f64 {
    static K: std::sync::OnceLock<Vec<Option<f64>>> = std::sync::OnceLock::new();
    K.get_or_init(|| std::env::var("DEPTHS_KNOBS").unwrap_or_default().split(',').map(|x| x.parse().ok()).collect())
        .get(i)
        .copied()
        .flatten()
        .unwrap_or(default)
}

fn first(legal: &[Action], f: impl Fn(&Action) -> bool) -> Option<Action> {
    legal.iter().find(|a| f(a)).cloned()
}

fn best_by(legal: &[Action], score: impl Fn(&Action) -> Option<i32>) -> Option<Action> {
    legal.iter().filter_map(|a| score(a).map(|s| (s, a))).max_by_key(|(s, _)| *s).map(|(_, a)| a.clone())
}

fn frac(g: &Game, h: usize) -> f64 {
    let hero = &g.heroes[h];
    f64::from(hero.health) / f64::from(hero.max_health().max(1))
}

fn min_frac(g: &Game) -> f64 {
    (0..g.heroes.len()).map(|h| frac(g, h)).fold(1.0, f64::min)
}

// ---------------------------------------------------------------------------
// Combat
// ---------------------------------------------------------------------------

/// How much a point of the Hero's own health is worth against a point of
/// damage dealt: more the lower the Hero is.
fn health_weight(g: &Game, hero: u8) -> f64 {
    1.2 + 1.5 * (1.0 - frac(g, hero as usize))
}

/// Effective damage an individual takes from `amount`.
fn effective(foe: &Foe, individual: usize, amount: u8, magic: bool) -> u8 {
    foe.damage_taken(individual, amount, magic)
}

/// The lowest health of a living individual (a Hero Hit that reaches it kills).
fn weakest(foe: &Foe) -> u8 {
    foe.individuals.iter().filter(|i| i.alive()).map(|i| i.health).min().unwrap_or(0)
}

struct PairCtx {
    bonus: u8,
    block_worth: f64,
    weight: f64,
    /// Effective damage needed to kill an individual (avoids Return Damage).
    kill_at: u8,
    resist: bool,
    armor: u8,
    hero_armor: u8,
    magic: bool,
}

impl PairCtx {
    fn new(g: &Game, hero: u8, foe: &Foe) -> PairCtx {
        let h = &g.heroes[hero as usize];
        let has_block = h.abilities().any(|(_, a)| a.activation == Activation::Block);
        let armor = foe.individuals.iter().filter(|i| i.alive()).map(|i| i.armor).min().unwrap_or(0);
        PairCtx {
            bonus: foe.card_bonus,
            block_worth: if has_block { 2.0 } else { 0.3 },
            weight: health_weight(g, hero),
            kill_at: weakest(foe),
            resist: foe.resists_non_magic,
            armor,
            hero_armor: h.armor(),
            magic: h.has_magic(),
        }
    }

    fn value(&self, slot: &Slot) -> f64 {
        match slot.outcome(self.bonus) {
            Some(Outcome::Block) => self.block_worth,
            Some(o) => {
                let (dealt, taken) = slot.damage(self.bonus).unwrap_or((0, 0));
                let raw = if self.resist && !self.magic { dealt / 2 } else { dealt };
                let eff = raw.saturating_sub(self.armor);
                let mut taken = taken.saturating_sub(self.hero_armor);
                let mut bonus = 0.0;
                if o == Outcome::HeroHit && eff >= self.kill_at && self.kill_at > 0 {
                    // A kill: no Return Damage.
                    taken = 0;
                    bonus = 2.0;
                }
                f64::from(eff) + bonus - self.weight * f64::from(taken)
            }
            None => f64::NEG_INFINITY,
        }
    }

    fn best(&self, slots: &[Slot]) -> (usize, f64) {
        (0..slots.len())
            .filter(|&i| may_choose(slots, i, self.bonus))
            .map(|i| (i, self.value(&slots[i])))
            .fold((0, f64::NEG_INFINITY), |a, b| if b.1 > a.1 { b } else { a })
    }
}

fn mk(h: u8, m: u8) -> Slot {
    Slot {
        hero: Some(depths_rules::ActionCard::numbered(0, h)),
        monster: Some(depths_rules::ActionCard::numbered(0, m)),
        ..Slot::default()
    }
}

/// The values a Monster card may show, each with how many cards show it,
/// lowest first: what is left in the Monster deck.
struct Draws {
    vals: [(u8, u32); 16],
    len: usize,
    /// Each two values `(i, j)` two cards may show, with how many ways
    /// there are to draw them (none left out but those with no way), in
    /// the order they are summed, and all those ways: the same for every
    /// card weighed, so worked out once.
    pairs: Vec<(u8, u8, f64)>,
    ways: f64,
}

impl Draws {
    fn new(g: &Game, foe: &Foe) -> Draws {
        let deck = &g.monster_decks[foe.difficulty.index()];
        // Values repeat: count each distinct value once, weighted (no list:
        // this runs for every card the bot weighs).
        let mut counts = [0u32; 16];
        let mut pool = 0;
        for c in deck.draw.iter().filter(|c| !c.power) {
            counts[usize::from(c.value).min(15)] += 1;
            pool += 1;
        }
        if pool < 2 {
            counts = [0; 16];
            for v in foe.difficulty.action_values() {
                counts[usize::from(v).min(15)] += 1;
            }
        }
        let mut vals = [(0u8, 0u32); 16];
        let mut len = 0;
        for v in 0..16u8 {
            if counts[usize::from(v)] > 0 {
                vals[len] = (v, counts[usize::from(v)]);
                len += 1;
            }
        }
        let mut pairs = Vec::with_capacity(len * len);
        let mut ways = 0.0;
        for (i, &(a, ca)) in vals[..len].iter().enumerate() {
            for (j, &(b, cb)) in vals[..len].iter().enumerate() {
                let w = if a == b { f64::from(ca * ca.saturating_sub(1)) } else { f64::from(ca * cb) };
                if w != 0.0 {
                    pairs.push((i as u8, j as u8, w));
                    ways += w;
                }
            }
        }
        Draws { vals, len, pairs, ways }
    }

    /// The mean of `value(i, j)` over two Monster cards drawn showing the
    /// `i`th and `j`th values, weighted by how many ways there are to draw them.
    fn mean(&self, value: impl Fn(usize, usize) -> f64) -> f64 {
        let mut total = 0.0;
        for &(i, j, w) in &self.pairs {
            total += value(usize::from(i), usize::from(j)) * w;
        }
        if self.ways == 0.0 { 0.0 } else { total / self.ways }
    }

    fn vals(&self) -> &[(u8, u32)] {
        &self.vals[..self.len]
    }
}

/// One Hero card against each value of [`Draws`]: (is a Hero Hit, is a
/// Monster Hit, its value), as `PairCtx::value` gives it.
type Row = [(bool, bool, f64); 16];

/// The rows of the Hero card values weighed in one decision, each worked
/// out once (a card is weighed alone and beside every other card in hand).
struct Rows<'a> {
    ctx: &'a PairCtx,
    draws: Draws,
    rows: Vec<(u8, Row)>,
}

impl<'a> Rows<'a> {
    fn new(g: &Game, foe: &Foe, ctx: &'a PairCtx) -> Rows<'a> {
        Rows { ctx, draws: Draws::new(g, foe), rows: Vec::with_capacity(8) }
    }

    fn row(&mut self, h: u8) -> Row {
        if let Some((_, row)) = self.rows.iter().find(|(v, _)| *v == h) {
            return *row;
        }
        let mut row = [(false, false, 0.0); 16];
        for (j, &(m, _)) in self.draws.vals().iter().enumerate() {
            let slot = mk(h, m);
            let outcome = slot.outcome(self.ctx.bonus);
            row[j] = (outcome == Some(Outcome::HeroHit), outcome == Some(Outcome::MonsterHit), self.ctx.value(&slot));
        }
        self.rows.push((h, row));
        row
    }

    /// Expected value of `hero_cards` against `monster_cards` cards drawn
    /// from what is left in the Monster deck.
    fn expected(&mut self, hero_cards: &[u8], monster_cards: u8) -> f64 {
        let mut pairs = [[(false, false, 0.0); 16]; 2];
        for (k, &h) in hero_cards.iter().take(2).enumerate() {
            pairs[k] = self.row(h);
        }
        let draws = &self.draws;
        // One loop for each way to value a draw (the loop runs for every
        // card weighed; the choice is the same throughout).
        match (hero_cards.len(), monster_cards) {
            (1, 1) => draws.mean(|i, _| pairs[0][i].2),
            // The higher Monster card: values are listed lowest first.
            (1, _) => draws.mean(|i, j| pairs[0][i.max(j)].2),
            // `ctx.best` of one pair is its value.
            (2, 1) => draws.mean(|i, _| pairs[0][i].2.max(pairs[1][i].2)),
            (2, _) => draws.mean(|i, j| best_of_two(pairs[0][i], pairs[1][j])),
            _ => draws.mean(|_, _| 0.0),
        }
    }
}

/// `PairCtx::best` of two pairs (is a Hero Hit, is a Monster Hit, value):
/// a Hero Hit may be chosen only when neither pair is a Monster Hit.
fn best_of_two(first: (bool, bool, f64), second: (bool, bool, f64)) -> f64 {
    let monster_hit = first.1 || second.1;
    let mut best = f64::NEG_INFINITY;
    for (hero_hit, _, v) in [first, second] {
        if (!hero_hit || !monster_hit) && v > best {
            best = v;
        }
    }
    best
}

/// Where a damage or healing ability is aimed: the individual closest to
/// falling among the Monsters `hero` fights, or the most hurt Hero; `None`
/// when there is nothing to aim at (no living Monster, nobody hurt) or the
/// ability alters Combat Pairs instead.
pub fn aimed_target(g: &Game, c: &Combat, hero: u8, ability: &Ability) -> Option<Target> {
    match ability.target_kind() {
        TargetKind::Individual => {
            // "All of a Hero's Damage must be applied to one Individual
            // Monster" of a set: the one already aimed at this Round, or the
            // one the ability and the chosen pair's Damage together serve best.
            let chosen = c.chosen_engagement(hero).map(|e| &c.engagements[e]);
            let en = match chosen {
                Some(en) => en,
                None => c.engagements_of(hero).map(|(_, en)| en).find(|en| !c.foes[en.foe as usize].is_defeated())?,
            };
            if let Some(individual) = c.heroes[hero as usize].target_in(en.foe) {
                return Some(Target::Individual { foe: en.foe, individual });
            }
            // Its card bonus and Armor as now; the health once placed Damage lands.
            let foe = &c.foes[en.foe as usize];
            let amount = ability
                .effects
                .iter()
                .find_map(|e| if let Effect::DamageMonster { amount, .. } = e { Some(*amount) } else { None })
                .unwrap_or(0);
            let pair = chosen
                .and_then(|en| en.chosen.map(|s| en.slots[s as usize]))
                .and_then(|s| s.damage(foe.card_bonus))
                .map_or(0, |(dealt, _)| dealt);
            let amount = amount.saturating_add(pair);
            let individual = match health_after_placed(c, en.foe) {
                Some(health) => pick_by_health(foe, |i| health[i], amount, true),
                None => pick_individual(&foe_after_placed(c, en.foe), amount, true),
            };
            Some(Target::Individual { foe: en.foe, individual: individual as u8 })
        }
        TargetKind::Hero => {
            let worst = (0..g.heroes.len()).max_by_key(|&i| g.heroes[i].max_health() - g.heroes[i].health).unwrap_or(0);
            (g.heroes[worst].health < g.heroes[worst].max_health()).then_some(Target::Hero(worst as u8))
        }
        TargetKind::None => Some(Target::None),
        _ => None,
    }
}

/// The foe as it will stand once the Damage already placed this Round lands
/// (all of a Round's Damage lands together in step 5).
pub fn foe_after_placed(c: &Combat, f: u8) -> Foe {
    let mut foe = c.foes[f as usize].clone();
    for p in c.packets.iter().filter(|p| p.foe == f) {
        if let Some(i) = p.individual {
            let amount = if p.overflow { p.amount } else { foe.damage_taken(usize::from(i), p.amount, p.magic) };
            let ind = &mut foe.individuals[usize::from(i)];
            ind.health = ind.health.saturating_sub(amount);
        }
    }
    foe
}

/// Each individual's health once the Damage already placed this Round lands,
/// as [`foe_after_placed`] leaves it, without copying the foe (its card and
/// names); `None` for a foe of more individuals than this holds.
fn health_after_placed(c: &Combat, f: u8) -> Option<[u8; 16]> {
    let foe = &c.foes[f as usize];
    let mut health = [0u8; 16];
    for (h, i) in health.iter_mut().zip(&foe.individuals) {
        *h = i.health;
    }
    if foe.individuals.len() > health.len() {
        return None;
    }
    for p in c.packets.iter().filter(|p| p.foe == f) {
        if let Some(i) = p.individual {
            let amount = if p.overflow { p.amount } else { foe.damage_taken(usize::from(i), p.amount, p.magic) };
            let h = &mut health[usize::from(i)];
            *h = h.saturating_sub(amount);
        }
    }
    Some(health)
}

/// Where to put a packet of Damage: the best individual once what is placed
/// already lands, or, if that leaves none standing, the best of those alive now.
pub fn pick_for_packet(c: &Combat, p: &DamagePacket) -> u8 {
    let foe = &c.foes[p.foe as usize];
    let Some(after) = health_after_placed(c, p.foe) else {
        let after = foe_after_placed(c, p.foe);
        if after.alive_count() > 0 {
            return pick_individual(&after, p.amount, p.magic) as u8;
        }
        return pick_individual(foe, p.amount, p.magic) as u8;
    };
    if after.iter().any(|&h| h > 0) {
        return pick_by_health(foe, |i| after[i], p.amount, p.magic) as u8;
    }
    pick_individual(foe, p.amount, p.magic) as u8
}

/// The individual to hit: the one closest to falling that the damage hurts.
pub fn pick_individual(foe: &Foe, amount: u8, magic: bool) -> usize {
    pick_by_health(foe, |i| foe.individuals[i].health, amount, magic)
}

/// [`pick_individual`] with each individual's health given.
fn pick_by_health(foe: &Foe, health: impl Fn(usize) -> u8, amount: u8, magic: bool) -> usize {
    (0..foe.individuals.len())
        .filter(|&i| health(i) > 0)
        .min_by_key(|&i| {
            let eff = effective(foe, i, amount, magic);
            let h = health(i);
            let kill = eff >= h;
            (
                if eff == 0 {
                    2
                } else if kill {
                    0
                } else {
                    1
                },
                if kill { 255 - h } else { h.saturating_sub(eff) },
            )
        })
        .unwrap_or(0)
}

fn foe_strength(f: &Foe) -> u32 {
    f.individuals.iter().map(|i| u32::from(i.health)).sum::<u32>() + 3 * u32::from(f.difficulty.index() as u8)
}

/// The choice in a Combat step for `hero`, or (`None`) for whichever Hero
/// the step reaches first.
fn combat_choice(g: &Game, legal: &[Action], hero: Option<u8>) -> Action {
    let c = g.combat().expect("in combat");
    let acting = hero.or_else(|| c.acting_hero());
    let pick = match c.step {
        CombatStep::AssignMonsters => best_by(legal, |a| match a {
            // The stronger Monster to the healthier Hero.
            Action::AssignMonsters { foes } => Some(
                foes.iter()
                    .enumerate()
                    .map(|(h, f)| i32::from(g.heroes[h].health) * foe_strength(&c.foes[usize::from(*f)]) as i32)
                    .sum(),
            ),
            _ => None,
        }),
        CombatStep::AvoidReturnDamage => best_by(legal, |a| match a {
            Action::AvoidReturnDamage { hero } => Some(-((frac(g, *hero as usize) * 1000.0) as i32)),
            _ => None,
        }),
        CombatStep::PlayCards => acting.and_then(|h| play_card(g, legal, h)),
        CombatStep::PlaceMonsterCard => {
            let e = c.engagements.iter().find(|e| e.waiting.is_some() && hero.is_none_or(|h| e.hero == h));
            e.map(|e| {
                let ctx = PairCtx::new(g, e.hero, &c.foes[e.foe as usize]);
                let value = |slot: usize| {
                    let mut s = e.slots.clone();
                    if slot < s.len() {
                        s[slot].monster = e.waiting;
                    }
                    ctx.best(&s).1
                };
                Action::PlaceMonsterCard { hero: e.hero, slot: if value(1) > value(0) { 1 } else { 0 } }
            })
            .filter(|a| legal.contains(a))
        }
        CombatStep::AssignDamage => {
            let heroes = hero.map_or_else(|| c.heroes_to_act(), |h| vec![h]);
            heroes.into_iter().find_map(|h| {
                let p = c.packets[c.packet_of(h)?];
                let a = Action::AssignDamage { hero: h, individual: pick_for_packet(c, &p) };
                legal.contains(&a).then_some(a)
            })
        }
        CombatStep::Resolve => acting.and_then(|h| resolve(g, legal, h)),
    };
    pick.unwrap_or_else(|| legal[0].clone())
}

fn play_card(g: &Game, legal: &[Action], hero: u8) -> Option<Action> {
    let c = g.combat()?;
    let e = c.engagements.iter().find(|e| {
        e.group == c.group
            && e.hero == hero
            && e.slots.iter().filter(|s| s.hero.is_some()).count() < usize::from(e.hero_cards)
    })?;
    let foe = &c.foes[e.foe as usize];
    let ctx = PairCtx::new(g, hero, foe);
    let hand = &g.heroes[hero as usize].hand;
    let played: Vec<u8> = e.slots.iter().filter_map(|s| s.hero.map(|h| h.value)).collect();
    let mut rows = Rows::new(g, foe, &ctx);
    let mut best: Option<(f64, Action)> = None;
    let mut cards = Vec::with_capacity(played.len() + 1);
    for (i, card) in hand.iter().enumerate() {
        let a = Action::PlayCard { hero, card: card.id };
        if !legal.contains(&a) {
            continue;
        }
        cards.clear();
        cards.extend_from_slice(&played);
        cards.push(card.value);
        let v = if cards.len() < usize::from(e.hero_cards) {
            (0..hand.len())
                .filter(|&j| j != i)
                .map(|j| rows.expected(&[card.value, hand[j].value], e.monster_cards))
                .fold(f64::NEG_INFINITY, f64::max)
                .max(rows.expected(&[card.value], e.monster_cards))
        } else {
            rows.expected(&cards, e.monster_cards)
        };
        // Keep high cards for later when it costs little: a slight tie-break.
        let v = v - 0.01 * f64::from(card.value);
        if best.as_ref().is_none_or(|(b, _)| v > *b) {
            best = Some((v, a));
        }
    }
    best.map(|(_, a)| a)
}

fn resolve(g: &Game, legal: &[Action], hero: u8) -> Option<Action> {
    let c = g.combat()?;
    let h = &g.heroes[hero as usize];
    let power = h.stored_power.len() as u8;
    let ok = |a: &Action| legal.contains(a);
    // One Combat Pair in all: look first at the engagement whose best pair is
    // best and may be chosen.
    let mut engagements: Vec<(f64, usize, &depths_rules::combat::Engagement)> = c
        .engagements_of(hero)
        .filter(|_| c.chosen_engagement(hero).is_none())
        .filter(|(_, en)| en.slots.iter().any(|s| s.hero.is_some() && s.monster.is_some()))
        .map(|(e, en)| {
            let (slot, value) = PairCtx::new(g, hero, &c.foes[en.foe as usize]).best(&en.slots);
            let legal_best = ok(&Action::ChoosePair { hero, engagement: e as u8, slot: slot as u8 });
            (if legal_best { value } else { f64::NEG_INFINITY }, e, en)
        })
        .collect();
    engagements.sort_by(|a, b| b.0.total_cmp(&a.0));
    if let Some((_, e, en)) = engagements.into_iter().next() {
        let foe = &c.foes[en.foe as usize];
        let ctx = PairCtx::new(g, hero, foe);
        let (_, now) = ctx.best(&en.slots);
        // Power is scarce: spend it only to avoid real harm.
        let threshold = if power >= 2 { 2.0 } else { 3.0 };
        let mut options: Vec<(f64, Action)> = Vec::new();
        for (source, ability) in h.abilities() {
            let Activation::Power(cost) = ability.activation else { continue };
            if cost > power || !ability.alters_pairs() {
                continue;
            }
            let e8 = e as u8;
            if ability.effects.contains(&Effect::SwapPlayedCards) && en.slots.len() == 2 {
                let mut s = en.slots.clone();
                (s[0].hero, s[1].hero) = (s[1].hero, s[0].hero);
                let v = ctx.best(&s).1;
                options.push((v, Action::ActivateAbility { hero, source, target: Target::Engagement(e8) }));
            } else if ability.effects.contains(&Effect::RedrawMonsterCard) && now < -3.0 {
                let worst = (0..en.slots.len())
                    .filter(|&i| en.slots[i].monster.is_some())
                    .max_by_key(|&i| en.slots[i].monster_value(ctx.bonus));
                if let Some(slot) = worst {
                    // A fresh card is on average middling.
                    let v = now / 3.0;
                    options.push((
                        v,
                        Action::ActivateAbility {
                            hero,
                            source,
                            target: Target::MonsterSlot { engagement: e8, slot: slot as u8 },
                        },
                    ));
                }
            } else if let Some(Effect::ModifyPlayedCard { delta }) = ability.effects.first() {
                for i in 0..en.slots.len() {
                    if en.slots[i].hero.is_none() {
                        continue;
                    }
                    let mut s = en.slots.clone();
                    s[i].hero_delta += *delta;
                    options.push((
                        ctx.best(&s).1,
                        Action::ActivateAbility {
                            hero,
                            source,
                            target: Target::HeroSlot { engagement: e8, slot: i as u8 },
                        },
                    ));
                }
            } else if let Some(Effect::ModifyMonsterCard { delta }) = ability.effects.first() {
                for i in 0..en.slots.len() {
                    if en.slots[i].monster.is_none() {
                        continue;
                    }
                    let mut s = en.slots.clone();
                    s[i].monster_delta += *delta;
                    options.push((
                        ctx.best(&s).1,
                        Action::ActivateAbility {
                            hero,
                            source,
                            target: Target::MonsterSlot { engagement: e8, slot: i as u8 },
                        },
                    ));
                }
            } else if ability.effects.contains(&Effect::IgnoreResults) && now < -6.0 {
                options.push((0.0, Action::ActivateAbility { hero, source, target: Target::Engagement(e8) }));
            }
        }
        if let Some((v, a)) = options.into_iter().filter(|(_, a)| ok(a)).max_by(|x, y| x.0.total_cmp(&y.0))
            && v >= now + threshold
        {
            return Some(a);
        }
        let (slot, _) = ctx.best(&en.slots);
        let a = Action::ChoosePair { hero, engagement: e as u8, slot: slot as u8 };
        if ok(&a) {
            return Some(a);
        }
        return first(legal, |x| matches!(x, Action::ChoosePair { hero: hh, .. } if *hh == hero));
    }
    // Damage and healing abilities, Power and Block.
    for (source, ability) in h.abilities() {
        if ability.alters_pairs() {
            continue;
        }
        let Some(target) = aimed_target(g, c, hero, ability) else { continue };
        // Healing with nothing to heal, or a Power-only buff: skip when useless.
        let heals = ability.effects.iter().any(|e| matches!(e, Effect::HealHeroes { .. }));
        if target == Target::None && heals && g.heroes.iter().all(|x| x.health == x.max_health()) {
            continue;
        }
        // Keep one Power Card for Brush Aside-like escapes when a pure damage
        // ability would spend the last one on a nearly dead Monster anyway.
        let a = Action::ActivateAbility { hero, source, target };
        if ok(&a) {
            return Some(a);
        }
    }
    first(legal, |a| matches!(a, Action::EndTurn { hero: h } if *h == hero))
        .or_else(|| first(legal, |a| matches!(a, Action::EndTurn { .. })))
}

// ---------------------------------------------------------------------------
// Pending decisions outside Combat
// ---------------------------------------------------------------------------

fn pool_xp(g: &Game) -> u16 {
    g.adventure().map_or(0, |a| a.xp_pool.iter().map(|c| u16::from(c.xp)).sum())
}

fn ability_score(ab: &depths_rules::Ability) -> i32 {
    let mut s = 0;
    for e in &ab.effects {
        s += match e {
            Effect::Armor { amount } => 8 * i32::from(*amount),
            Effect::DamageMonster { amount, .. } => 2 * i32::from(*amount),
            Effect::BonusDamage { amount } => 2 * i32::from(*amount),
            Effect::HealHeroes { amount, .. } => i32::from(*amount) + 1,
            Effect::SwapPlayedCards | Effect::ModifyMonsterCard { .. } | Effect::ModifyPlayedCard { .. } => 5,
            Effect::RedrawMonsterCard | Effect::IgnoreResults => 4,
            Effect::Magic => 3,
            Effect::StorePower => 3,
            Effect::UnlockDoor | Effect::Keys { .. } => 3,
            _ => 1,
        };
    }
    s += match ab.activation {
        Activation::Passive => 6,
        Activation::Block => 0,
        Activation::Power(n) => -i32::from(n),
    };
    if ab.exhaust_after_use {
        s -= 2;
    }
    s
}

fn item_score(it: &depths_rules::hero::ItemCard) -> i32 {
    let mut s = 4 * i32::from(it.armor) + if it.magic { 3 } else { 0 };
    s += it.abilities.iter().map(ability_score).sum::<i32>();
    s += it.add_cards.iter().map(|&v| i32::from(v) - 4).sum::<i32>();
    for a in &it.abilities {
        if a.effects.iter().any(|e| matches!(e, Effect::WoundEachRound { .. })) {
            s -= 6;
        }
    }
    s
}

fn pending_choice(g: &Game, p: &Pending, legal: &[Action]) -> Action {
    let pick = match p {
        Pending::ChooseHero(HeroChoice::Heal(_)) => best_by(legal, |a| match a {
            Action::ChooseHero { hero } => {
                let h = &g.heroes[*hero as usize];
                Some(i32::from(h.max_health() - h.health))
            }
            _ => None,
        }),
        Pending::ChooseHero(HeroChoice::Damage(_)) => best_by(legal, |a| match a {
            Action::ChooseHero { hero } => Some(i32::from(g.heroes[*hero as usize].health)),
            _ => None,
        }),
        Pending::ChooseHero(_) => best_by(legal, |a| match a {
            Action::ChooseHero { hero } => {
                let h = &g.heroes[*hero as usize];
                Some(-(h.items.len() as i32) * 10 - i32::from(h.armor()))
            }
            _ => None,
        }),
        Pending::ChooseItem { options, .. } => best_by(legal, |a| match a {
            Action::ChooseOption { index } => options.get(usize::from(*index)).map(item_score),
            _ => None,
        }),
        Pending::ChooseAbility { options, .. } => best_by(legal, |a| match a {
            Action::ChooseOption { index } => options.get(usize::from(*index)).map(|o| ability_score(&o.ability)),
            _ => None,
        }),
        // Remove the lowest cards.
        Pending::RemoveCards { hero, .. } => best_by(legal, |a| match a {
            Action::RemoveActionCard { card } => {
                g.heroes[*hero as usize].draw.iter().find(|c| c.id == *card).map(|c| -i32::from(c.value))
            }
            _ => None,
        }),
        Pending::Purchase { cost, paid, items, .. } => {
            let have = depths_rules::purchases::paid_so_far(paid, items);
            let left = u16::from(*cost).saturating_sub(have);
            let pool = &g.adventure().expect("full game").xp_pool;
            // A card that pays exactly what is left, else the smallest card.
            let exact = pool.iter().position(|c| u16::from(c.xp) == left);
            let smallest = (0..pool.len()).min_by_key(|&i| pool[i].xp);
            let fits: u16 = pool.iter().map(|c| u16::from(c.xp)).sum();
            if fits >= left {
                exact.or(smallest).map(|i| Action::PayXp { card: XpRef::Pool(i as u8) }).filter(|a| legal.contains(a))
            } else {
                first(legal, |a| matches!(a, Action::CancelPurchase))
            }
        }
        Pending::SplitHealing { .. } => best_by(legal, |a| match a {
            // Spread healing towards whoever is lowest (by share of maximum).
            Action::SplitHealing { amounts } => Some(
                amounts
                    .iter()
                    .zip(&g.heroes)
                    .map(|(x, h)| {
                        let f = (i32::from(h.health) + i32::from(*x)) * 100 / i32::from(h.max_health().max(1));
                        -(100 - f).pow(2)
                    })
                    .sum(),
            ),
            _ => None,
        }),
        Pending::LevelUp { bought } => {
            let cost = g.adventure().map_or(255, |a| u16::from(a.ecology.reference.ability_cost));
            // Weakest Hero first.
            let mut order: Vec<usize> = (0..g.heroes.len()).filter(|&h| !bought[h]).collect();
            order.sort_by_key(|&h| g.heroes[h].abilities.len());
            let buy = order
                .into_iter()
                .map(|h| Action::StartPurchase { what: Purchase::Ability { hero: h as u8 } })
                .find(|a| legal.contains(a));
            if pool_xp(g) >= cost { buy } else { None }.or_else(|| first(legal, |a| matches!(a, Action::FinishLevelUp)))
        }
        _ => None,
    };
    pick.unwrap_or_else(|| {
        if legal.is_empty() {
            panic!("no legal action for {p:?}; pending {:?}", g.adventure().map(|a| &a.pending));
        }
        legal[0].clone()
    })
}

// ---------------------------------------------------------------------------
// Exploring
// ---------------------------------------------------------------------------

/// Remaining tiles that could not be placed now, by their [`shapes`]: tiles
/// of one shape fit in as many places (and the pile's tiles are none of
/// the map's: every tile's id is its own).
fn stuck_count(map: &Map, shapes: &[(TileShape, usize)]) -> usize {
    let f = map.frontier();
    shapes.iter().filter(|(s, _)| f.placements_of(s).next().is_none()).map(|(_, n)| n).sum()
}

/// The tiles, one of each shape with how many have it. Tiles whose edges are
/// the same up to a turn, with the same passages, fit in as many places on
/// any map: each shape is counted once for each map weighed, its turns
/// worked out once for the decision.
fn shapes(tiles: &[MapTile]) -> Vec<(TileShape, usize)> {
    let key = |t: &MapTile| {
        // The edges, four bits a side: a quarter turn moves them four bits.
        let edges = t.edges.to_array().iter().fold(0u16, |k, &e| k << 4 | e as u16);
        let turns = Rotation::ALL.map(|r| edges.rotate_right(4 * u32::from(r.quarter_turns())));
        (turns.into_iter().min(), t.has_secret_passage(), t.has_warp_portal())
    };
    let mut out: Vec<(&MapTile, usize, _)> = Vec::new();
    for t in tiles {
        let k = key(t);
        match out.iter_mut().find(|(_, _, u)| *u == k) {
            Some((_, n, _)) => *n += 1,
            None => out.push((t, 1, k)),
        }
    }
    out.into_iter().map(|(t, n, _)| (TileShape::of(t), n)).collect()
}

/// The rewards the Heroes reach on `map` (see [`score`]).
fn rewards(map: &Map) -> usize {
    map.reachable_unencountered_kinds().filter(|&k| is_reward(k)).count()
}

/// What [`score`] counts as a reward to reach.
fn is_reward(k: Element) -> bool {
    matches!(k, Element::Chest | Element::Campfire | Element::StairGuardian)
}

/// How good a map is to keep exploring from: few stuck tiles, many places.
/// `shapes`: the remaining tiles ([`shapes`]) and `places` how many places
/// each has (at most 8 count); `cells`: the empty cells around the map;
/// `legendary`: the Legendary Locations the map shows (see [`Legendary`]);
/// `rewards`: the rewards reached ([`rewards`]).
fn score(
    shapes: &[(TileShape, usize)],
    places: impl Iterator<Item = usize>,
    cells: usize,
    legendary: usize,
    rewards: usize,
) -> i32 {
    let mut stuck = 0;
    let mut options = 0;
    for ((_, tiles), n) in shapes.iter().zip(places) {
        let tiles = *tiles;
        if n == 0 {
            stuck += tiles as i32;
        }
        options += n * tiles;
    }
    -stuck * 40 + options as i32 + cells as i32 * 2 + legendary as i32 * 15 + rewards as i32 * knob(8, 8.0) as i32
}

/// What the careful bot weighs maps on, kept from one decision to the next
/// so that their lists are reused (a copy into a new map allocated every
/// tile's lists, and dropping it freed them).
#[derive(Default)]
struct Scratch {
    /// The map copied, to weigh an Encounter on.
    map: Option<Map>,
    /// The preview of a place for a tile, while no [`PlaceScorer`] has it.
    preview: Preview,
    /// The places of the tiles left, counted at the last decision that
    /// weighed maps: renewed, it counts again only the spots that changed.
    counts: PlaceCounts,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// [`score`] of the map with a tile placed, for every place weighed
/// for that tile: worked out from a [`Preview`] of each place, what the map
/// has counted once for the decision.
struct PlaceScorer<'a> {
    map: &'a Map,
    shapes: &'a [(TileShape, usize)],
    counts: PlaceCounts,
    rewards: usize,
    preview: Preview,
}

impl<'a> PlaceScorer<'a> {
    fn new(map: &'a Map, shapes: &'a [(TileShape, usize)]) -> PlaceScorer<'a> {
        let rewards = rewards(map);
        let (mut counts, preview) = SCRATCH
            .with_borrow_mut(|scratch| (std::mem::take(&mut scratch.counts), std::mem::take(&mut scratch.preview)));
        counts.renew(map, shapes.iter().map(|(t, _)| t));
        PlaceScorer { map, shapes, counts, rewards, preview }
    }

    /// `None` where the tile cannot go.
    fn score(&mut self, tile: &Arc<MapTile>, placement: Placement, legendary: &Legendary) -> Option<i32> {
        let (map, p) = (self.map, &mut self.preview);
        map.preview(tile, placement, p).ok()?;
        let p = &self.preview;
        let places = (0..self.shapes.len()).map(|k| self.counts.after(k, map, p).min(8));
        let rewards = self.rewards + p.newly_reachable(map).filter(|&k| is_reward(k)).count();
        Some(score(self.shapes, places, p.cells(), legendary.after_preview(p), rewards))
    }
}

impl Drop for PlaceScorer<'_> {
    fn drop(&mut self) {
        let (preview, counts) = (std::mem::take(&mut self.preview), std::mem::take(&mut self.counts));
        // Gone only while the thread ends.
        let _ = SCRATCH.try_with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            (scratch.preview, scratch.counts) = (preview, counts);
        });
    }
}

/// The Legendary Locations the map of the Ecology shows now, and those a
/// map weighed shows: a tile placed only adds the matches through it, and an
/// Encounter changes none, so the whole map is searched once per decision.
struct Legendary<'a> {
    now: usize,
    through: ThroughCounter<'a>,
}

impl<'a> Legendary<'a> {
    fn new(g: &'a Game) -> Legendary<'a> {
        let eco = &g.adventure().expect("full game").ecology;
        let through = eco.through_counter();
        Legendary { now: g.discovered_legendary_count(), through }
    }

    /// On the Ecology's map with the tile of `preview` placed.
    fn after_preview(&self, preview: &Preview) -> usize {
        self.now + self.through.count(preview)
    }
}

/// The careful bot's score of each legal placement of the tile in hand (or
/// of the set-aside tile), as it weighs them: higher is better. For a bot
/// that searches only the placements the careful bot rates best.
pub fn placement_scores(g: &Game, legal: &[Action]) -> Vec<(Action, i32)> {
    let Some(adv) = g.adventure() else { return Vec::new() };
    let eco = &adv.ecology;
    let Some(tile) = eco.drawn.as_ref().or(eco.dead_end.set_aside.as_ref()) else { return Vec::new() };
    let tile = Arc::new(tile.clone());
    let shapes = shapes(eco.pile.tiles());
    let legendary = Legendary::new(g);
    let mut scorer = PlaceScorer::new(&eco.map, &shapes);
    legal
        .iter()
        .filter_map(|a| match a {
            Action::PlaceTile { placement } | Action::PlaceSetAsideTile { placement } => {
                scorer.score(&tile, *placement, &legendary).map(|s| (a.clone(), s))
            }
            _ => None,
        })
        .collect()
}

fn explore_choice(g: &Game, legal: &[Action]) -> Action {
    let adv = g.adventure().expect("full game");
    let eco = &adv.ecology;
    let map = &eco.map;
    let remaining = eco.pile.tiles();
    // Worked out only for a decision that weighs maps (most do not).
    let shapes_once = std::cell::OnceCell::new();
    let shapes = || shapes_once.get_or_init(|| shapes(remaining)).as_slice();
    // Place the drawn tile where it leaves the most room to grow.
    let scorer = RefCell::new(None);
    let placed_score = |tile: &Arc<MapTile>, placement: Placement, legendary: &Legendary| {
        let mut scorer = scorer.borrow_mut();
        scorer.get_or_insert_with(|| PlaceScorer::new(map, shapes())).score(tile, placement, legendary)
    };
    if let Some(tile) = &eco.drawn {
        let tile = Arc::new(tile.clone());
        let tile = &tile;
        let legendary = Legendary::new(g);
        let pick = best_by(legal, |a| match a {
            Action::PlaceTile { placement } => placed_score(tile, *placement, &legendary),
            _ => None,
        });
        return pick.unwrap_or_else(|| legal[0].clone());
    }
    if let Some(tile) = &eco.dead_end.set_aside {
        let tile = &Arc::new(tile.clone());
        let legendary = Legendary::new(g);
        if let Some(a) = best_by(legal, |a| match a {
            Action::PlaceSetAsideTile { placement } => placed_score(tile, *placement, &legendary),
            _ => None,
        }) {
            return a;
        }
    }
    // Equip what is not equipped yet, best first.
    if let Some(a) = best_by(legal, |a| match a {
        Action::Equip { hero, item } => {
            let it = &g.heroes[*hero as usize].items[usize::from(*item)];
            (!it.equipped && item_score(&it.card) > 0).then(|| item_score(&it.card))
        }
        _ => None,
    }) {
        return a;
    }
    let r = &eco.reference;
    let pool = pool_xp(g);
    let lowest = min_frac(g);
    let kind = |a: &Action| match a {
        Action::Encounter { element } => map.element(*element).map(|(k, _)| k),
        _ => None,
    };
    let heal = |threshold: f64| -> Option<Action> {
        if min_frac(g) >= threshold || r.healing.xp == 0 {
            return None;
        }
        let per_unit = u16::from(r.healing.health)
            * g.heroes.len() as u16
            * if adv.options.variants.double_healing { 2 } else { 1 };
        let missing: u16 = g.heroes.iter().map(|h| u16::from(h.max_health() - h.health)).sum();
        let want = missing.div_ceil(per_unit.max(1));
        let afford = pool / u16::from(r.healing.xp);
        let units = want.min(afford).min(20) as u8;
        if units == 0 {
            return None;
        }
        let a = Action::StartPurchase { what: Purchase::Healing { units } };
        legal.contains(&a).then_some(a)
    };
    let campfire = first(legal, |a| kind(a) == Some(Element::Campfire));
    let rest_worth = |g: &Game| {
        // Rest when it heals a good share: average missing ≥ 40%.
        let missing: f64 = (0..g.heroes.len()).map(|h| 1.0 - frac(g, h)).sum::<f64>() / g.heroes.len() as f64;
        missing >= knob(10, 0.3)
    };
    // Someone is low: the Campfire is free (it brings Monsters back, so only
    // when it heals a good share), else pay XP.
    if lowest < heal_below()
        && rest_worth(g)
        && let Some(a) = campfire.clone()
    {
        return a;
    }
    if let Some(a) = heal(heal_below()) {
        return a;
    }
    if lowest < 0.45
        && let Some(a) = campfire.clone()
    {
        return a;
    }
    if rest_worth(g)
        && let Some(a) = campfire.clone()
    {
        return a;
    }
    let guardian = first(legal, |a| kind(a) == Some(Element::StairGuardian));
    let healthy = lowest >= 0.5;
    if healthy && let Some(a) = first(legal, |a| matches!(a, Action::EncounterLegendary { .. })) {
        return a;
    }
    if let Some(a) = first(legal, |a| kind(a) == Some(Element::Chest) && knob(9, 0.0) == 0.0) {
        // Locked Chests: keep a Key for Doors unless there are several.
        if !adv.options.variants.locked_chests || adv.keys >= 2 {
            return a;
        }
    }
    // The Stairs are open: get ready and go down.
    if let Some(a) = guardian {
        // XP is worth nothing after the Final Entity: heal fully before it.
        let last = eco.ecology == depths_rules::Ecology::Subterranean;
        if min_frac(g) < 0.7
            && let Some(c) = campfire
        {
            return c;
        }
        if let Some(h) = heal(if last { 1.01 } else { knob(7, 0.85) }) {
            return h;
        }
        return a;
    }
    // Dead-end gauge: how many of the remaining tiles could not be placed
    // now, counted only when a blocker is weighed worth nothing.
    let stuck = || stuck_count(map, shapes());
    let blockers: Vec<(Action, ElementRef, Element)> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Encounter { element } => {
                let k = kind(a)?;
                k.blocks_movement().then(|| (a.clone(), *element, k))
            }
            _ => None,
        })
        .collect();
    let must_open = || {
        let stuck = stuck();
        remaining.is_empty() || stuck * 3 >= remaining.len().max(1) || stuck > 0 && remaining.len() <= 4
    };
    // Weigh every blocker the Heroes can reach (Doors even without a Key):
    // what it does for the map against what it costs.
    let legendary = g.discovered_legendary_count();
    // Each blocker weighed is the map copied and the blocker Encountered:
    // the same tiles, so the places are counted again only where the ways
    // in changed. Counted at the first blocker weighed (often there is none).
    let mut counted: Option<(PlaceCounts, i32)> = None;
    let mut places = Vec::new();
    let key_cost = u16::from(r.key_cost);
    let mut best: Option<(i32, ElementRef, Element)> = None;
    for e in map.reachable_unencountered() {
        let Some((k, _)) = map.element(e) else { continue };
        if !k.blocks_movement() {
            continue;
        }
        let cost = match k {
            Element::Feature => knob(1, 4.0) as i32 + if lowest < 0.5 { 10 } else { 0 },
            // A Key in hand is cheap to use; buying one costs XP.
            Element::Door => match adv.keys {
                0 if pool >= key_cost => knob(2, 15.0) as i32,
                0 => continue,
                _ => knob(3, 4.0) as i32,
            },
            Element::Monster { count } => {
                let per = if lowest >= 0.75 {
                    knob(6, 25.0)
                } else if lowest >= 0.5 {
                    45.0
                } else {
                    90.0
                };
                (per * f64::from(count)) as i32
            }
            _ => continue,
        };
        // Every map weighed is the map copied onto the scratch map.
        let weighed = SCRATCH.with_borrow_mut(|scratch| {
            let m = match &mut scratch.map {
                Some(m) => {
                    m.clone_from(map);
                    m
                }
                none => none.insert(map.clone()),
            };
            m.encounter(e).ok()?;
            let shapes = shapes();
            let (counts, base) = counted.get_or_insert_with(|| {
                let mut counts = std::mem::take(&mut scratch.counts);
                counts.renew(map, shapes.iter().map(|(t, _)| t));
                let places = (0..shapes.len()).map(|k| counts.on_map(k).min(8));
                let base = score(shapes, places, map.frontier().cells().count(), legendary, rewards(map));
                (counts, base)
            });
            counts.on_copy(map, m, &mut places);
            let places = places.iter().map(|&n| n.min(8));
            Some(score(shapes, places, m.frontier().cells().count(), legendary, rewards(m)) - *base)
        });
        let Some(gain) = weighed else { continue };
        let net = gain - cost;
        if best.as_ref().is_none_or(|(b, _, _)| net > *b) {
            best = Some((net, e, k));
        }
    }
    if let Some((counts, _)) = counted {
        SCRATCH.with_borrow_mut(|scratch| scratch.counts = counts);
    }
    if let Some((net, e, k)) = best
        && (net > 0 || must_open())
    {
        let fight = matches!(k, Element::Monster { .. });
        if fight && let Some(h) = heal(0.75) {
            return h;
        }
        if fight
            && lowest < 0.5
            && !must_open()
            && let Some(c) = campfire.clone()
        {
            return c;
        }
        let a = Action::Encounter { element: e };
        if legal.contains(&a) {
            return a;
        }
        if k == Element::Door
            && adv.keys == 0
            && let Some(a) = first(legal, |a| matches!(a, Action::StartPurchase { what: Purchase::Key }))
        {
            return a;
        }
    }
    if let Some(a) = first(legal, |a| matches!(a, Action::DrawTile)) {
        return a;
    }
    // No tiles left: open whatever blocks, Features and Doors first.
    let mut order = blockers.clone();
    order.sort_by_key(|(_, _, k)| match k {
        Element::Feature => 0,
        Element::Door => 1,
        _ => 2,
    });
    if let Some((a, _, k)) = order.first() {
        if matches!(k, Element::Monster { .. })
            && let Some(h) = heal(0.75)
        {
            return h;
        }
        return a.clone();
    }
    if let Some(a) = first(legal, |a| matches!(a, Action::StartPurchase { what: Purchase::Key }))
        && pool >= u16::from(r.key_cost)
    {
        return a;
    }
    if let Some(a) = campfire.or_else(|| first(legal, |a| matches!(a, Action::EncounterLegendary { .. }))) {
        return a;
    }
    // Nothing useful: anything but an endless purchase or an Item toggle.
    first(legal, |a| {
        !matches!(
            a,
            Action::StartPurchase { .. } | Action::Equip { .. } | Action::Unequip { .. } | Action::CancelPurchase
        )
    })
    .unwrap_or_else(|| legal[0].clone())
}
