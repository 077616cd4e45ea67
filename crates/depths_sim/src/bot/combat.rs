//! The careful bot in Combat: which cards to play against what is left in
//! the Monster deck, which pair to resolve, where Damage goes, when Power
//! buys an Ability.

use depths_rules::combat::{Combat, DamagePacket, Slot, may_choose};
use depths_rules::effect::TargetKind;
use depths_rules::{Ability, Action, Activation, CombatStep, Effect, Foe, Game, Outcome, Target};

use super::choosing::{best_by, first, frac};

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
pub(super) fn combat_choice(g: &Game, legal: &[Action], hero: Option<u8>) -> Action {
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
