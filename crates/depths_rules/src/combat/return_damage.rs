//! "Important! Avoiding Return Damage", then the Monsters' side of every
//! Resolved pair.

use super::{Combat, CombatStep, Outcome};
use crate::abilities::check_activation;
use crate::action::Action;
use crate::effect::is_exploring_effect;
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;

impl Game {
    /// "Important! Avoiding Return Damage".
    pub(crate) fn begin_avoidance(&mut self, events: &mut Vec<Event>) {
        let c = self.cbt();
        if c.kills.iter().any(|k| k.contributors.len() == 1) {
            // One Hero delivered all the Damage: ALL Heroes avoid ANY Return Damage.
            for h in 0..c.heroes.len() {
                c.heroes[h].avoids_return_damage = true;
                events.push(Event::ReturnDamageAvoided { hero: h as u8 });
            }
            c.avoid_queue.clear();
        } else {
            c.avoid_queue = (0..c.kills.len()).filter(|&k| c.kills[k].contributors.len() > 1).collect();
        }
        self.advance_avoidance(events);
    }

    pub(crate) fn advance_avoidance(&mut self, events: &mut Vec<Event>) {
        let c = self.cbt();
        while let Some(&k) = c.avoid_queue.first() {
            // A choice only matters while some contributor still takes Return Damage.
            if c.kills[k].contributors.iter().all(|h| c.heroes[*h as usize].avoids_return_damage) {
                c.avoid_queue.remove(0);
                continue;
            }
            c.step = CombatStep::AvoidReturnDamage;
            return;
        }
        self.monsters_deal_damage(events);
    }

    /// The Monsters' side of every Resolved pair so far, as (Hero, Damage
    /// before Armor): what "6." will deal if nothing else changes (a Hero who
    /// avoids Return Damage after this takes none). Empty outside Combat.
    pub fn return_damage_due(&self) -> Vec<(u8, u8)> {
        let Some(c) = self.combat.as_ref() else { return Vec::new() };
        let hits = c.engagements.iter().enumerate().filter_map(|(i, e)| {
            let taken = pair_hit(c, i, usize::from(e.chosen?))?;
            (taken > 0).then_some((e.hero, taken))
        });
        hits.collect()
    }

    /// The Health `hero` will lose when this Round's Monsters deal their
    /// Damage, if nothing else changes: Return Damage less Armor, and an
    /// Item's cost paid every Round.
    pub fn hero_damage_due(&self, hero: u8) -> u8 {
        let Some(h) = self.heroes.get(usize::from(hero)) else { return 0 };
        let engagements = self.combat.iter().flat_map(|c| c.engagements.iter().enumerate());
        let hits: u8 = engagements
            .filter(|(_, e)| e.hero == hero)
            .filter_map(|(i, e)| self.pair_takes(i, usize::from(e.chosen?)))
            .fold(0, u8::saturating_add);
        hits.saturating_add(h.wound_each_round()).min(h.health)
    }

    /// The Health `hero` will lose when this Round's Monsters deal their
    /// Damage, as (least, most): [`Game::hero_damage_due`] with each pair's
    /// [`Game::pair_takes_range`] (none of a Return Damage sure to be
    /// avoided; none at least of one that may be). The Hero mat and the
    /// pairs read the same: the mat said "−1 unless avoided" beside a pair
    /// reading "Bren −0", a Defeat by one Hero alone being sure to come.
    pub fn hero_damage_range(&self, hero: u8) -> (u8, u8) {
        let Some(h) = self.heroes.get(usize::from(hero)) else { return (0, 0) };
        let engagements = self.combat.iter().flat_map(|c| c.engagements.iter().enumerate());
        let (least, most) = engagements
            .filter(|(_, e)| e.hero == hero)
            .filter_map(|(i, e)| self.pair_takes_range(i, usize::from(e.chosen?)))
            .fold((0u8, 0u8), |(l, m), (a, b)| (l.saturating_add(a), m.saturating_add(b)));
        let wound = h.wound_each_round();
        (least.saturating_add(wound).min(h.health), most.saturating_add(wound).min(h.health))
    }

    /// The Health a pair's Hero loses to it when this Round's Monsters deal
    /// their Damage, if it is (or was) the pair resolved: the Monster's side
    /// less the Hero's Armor, none for a Hero Hit a Hero avoids, and never
    /// more than the Hero has ("Bren −6" beside a Health of 5 promised a
    /// loss that cannot come). `None` for a pair without both cards.
    pub fn pair_takes(&self, engagement: usize, slot: usize) -> Option<u8> {
        let c = self.combat.as_ref()?;
        let hero = c.engagements.get(engagement)?.hero;
        let health = self.heroes.get(usize::from(hero))?.health;
        Some(pair_hit(c, engagement, slot)?.saturating_sub(self.armor_of(hero)).min(health))
    }

    /// The Health a pair's Hero loses to it, as (least, most): `pair_takes`,
    /// and none at least while the Hero may yet avoid this Round's Return
    /// Damage ("Important! Avoiding Return Damage"): a Hero Hit's Return
    /// Damage in a Round where an individual is, or may still be, Defeated.
    /// Both none once a Defeat by one Hero alone spares every Hero.
    pub fn pair_takes_range(&self, engagement: usize, slot: usize) -> Option<(u8, u8)> {
        let c = self.combat.as_ref()?;
        let e = c.engagements.get(engagement)?;
        let most = self.pair_takes(engagement, slot)?;
        let hero_hit = e.slots.get(slot)?.outcome(c.foes.get(usize::from(e.foe))?.card_bonus) == Some(Outcome::HeroHit);
        if !hero_hit || most == 0 {
            return Some((most, most));
        }
        // A Defeat by one Hero alone: ALL Heroes avoid ANY Return Damage.
        if c.kills.iter().any(|k| k.contributors.len() == 1) {
            return Some((0, 0));
        }
        // One sure to come: this pair's Damage, or that of a pair already
        // chosen, defeats whichever individual it goes to by itself.
        if c.step == CombatStep::Resolve {
            let mut chosen = c.engagements.iter().enumerate().filter_map(|(i, en)| Some((i, usize::from(en.chosen?))));
            if self.kills_alone(c, engagement, slot) || chosen.any(|(i, s)| self.kills_alone(c, i, s)) {
                return Some((0, 0));
            }
        }
        let may = match c.step {
            // The Defeats are settled: only their contributors may be chosen.
            CombatStep::AvoidReturnDamage => {
                c.avoid_queue.iter().any(|&k| c.kills.get(k).is_some_and(|k| k.contributors.contains(&e.hero)))
            }
            _ => c.kills.iter().any(|k| k.contributors.contains(&e.hero)) || self.a_defeat_may_come(c),
        };
        Some((if may { 0 } else { most }, most))
    }

    /// Whether `engagement`'s pair in `slot`, Resolved, Defeats an individual
    /// by its Hero's Damage alone wherever the Hero puts it: after Armor, with
    /// what the Hero already put on it this Round, it meets the Health the
    /// individual began the Round's Damage with ("If one Hero delivered all
    /// of the Damage needed").
    fn kills_alone(&self, c: &Combat, engagement: usize, slot: usize) -> bool {
        let Some(p) = self.pair_packet(engagement, slot).filter(|p| p.amount > 0) else { return false };
        let foe = &c.foes[usize::from(p.foe)];
        let targets: Vec<u8> = match c.heroes[usize::from(p.hero)].target_in(p.foe) {
            Some(i) => vec![i],
            None => (0..foe.individuals.len() as u8).filter(|&i| c.open(p.foe, i)).collect(),
        };
        !targets.is_empty()
            && targets.iter().all(|&i| {
                let Some(ind) = foe.individuals.get(usize::from(i)) else { return false };
                let wound = c.wounds.iter().find(|w| w.foe == p.foe && w.individual == i && !w.settled);
                let (start, own) = wound.map_or((ind.health, 0), |w| (w.start, w.alone[usize::from(p.hero)]));
                let dealt = u16::from(foe.damage_taken(usize::from(i), p.amount, p.magic));
                c.open(p.foe, i) && start > 0 && dealt + own >= u16::from(start)
            })
    }

    /// Whether an individual may still be Defeated this Round, as far as the
    /// table shows: one already brought to nothing, or one whose Health the
    /// Damage still to land on its Monster Card could reach (every pair still
    /// to be chosen at its most, a card still to be played or an Ability
    /// still to be used at any amount).
    fn a_defeat_may_come(&self, c: &Combat) -> bool {
        if c.wounds.iter().any(|w| !w.settled && w.total >= u16::from(w.start) && w.start > 0) {
            return true;
        }
        let before_damage = !matches!(c.step, CombatStep::AssignDamage | CombatStep::AvoidReturnDamage);
        // An Ability still to be used may add Damage, or change a pair (looked
        // for only before the Damage lands).
        let strikes_left = before_damage
            && c.heroes.iter().zip(&self.heroes).any(|(round, hero)| {
                !round.done
                    && hero.abilities().any(|(source, a)| {
                        !a.effects.iter().any(is_exploring_effect) && check_activation(hero, source).is_ok()
                    })
            });
        (0..c.foes.len()).any(|f| {
            let mut could = 0u16;
            for (i, e) in c.engagements.iter().enumerate().filter(|(_, e)| usize::from(e.foe) == f) {
                let deals = |s: usize| self.pair_deals(i, s).map_or(0, |(_, most)| u16::from(most));
                could += match e.chosen {
                    Some(s) if c.step == CombatStep::Resolve => deals(usize::from(s)),
                    Some(_) => 0,
                    None if e.slots.len() < usize::from(e.hero_cards)
                        || e.slots.iter().any(|s| s.monster.is_none()) =>
                    {
                        u16::MAX / 4
                    }
                    None if before_damage => (0..e.slots.len()).map(deals).max().unwrap_or(0),
                    None => 0,
                };
            }
            // Placed or not, a packet lands when the last is placed.
            let waiting = c.packets.iter().filter(|p| usize::from(p.foe) == f);
            could += waiting.map(|p| u16::from(p.amount)).sum::<u16>();
            if strikes_left {
                could = u16::MAX / 4;
            }
            let foe = &c.foes[f];
            (0..foe.individuals.len())
                .any(|i| c.open(f as u8, i as u8) && u16::from(foe.individuals[i].health) <= could)
        })
    }

    /// Each Hero's Health once `action` is taken and this Round's Monsters
    /// have dealt their Damage: the rules applied to a copy, read up to the
    /// Round's end (what comes after may draw face-down cards, which a
    /// preview must not see). `None` when the rules refuse the action, or
    /// when the Damage still waits for another choice.
    pub fn health_after_round(&self, action: &Action) -> Option<Vec<u8>> {
        let mut copy = self.clone();
        let events = copy.apply(action.clone()).ok()?;
        let mut health: Vec<u8> = self.heroes.iter().map(|h| h.health).collect();
        for event in &events {
            let (hero, change) = match *event {
                Event::HeroDamaged { hero, amount } => (hero, -i16::from(amount)),
                Event::HeroHealed { hero, amount } => (hero, i16::from(amount)),
                Event::RoundEnded { .. } => return Some(health),
                _ => continue,
            };
            if let Some(h) = health.get_mut(usize::from(hero)) {
                *h = (i16::from(*h) + change).clamp(0, 255) as u8;
            }
        }
        copy.is_over().then_some(health)
    }

    /// The Monsters' side of every Resolved pair, then "6. Discard Cards".
    pub(crate) fn monsters_deal_damage(&mut self, events: &mut Vec<Event>) {
        for (h, amount) in self.return_damage_due() {
            self.damage_hero(h, amount, false, events);
        }
        // The terrible cost of some mighty Items, paid every Round.
        for h in 0..self.heroes.len() as u8 {
            let wound = self.heroes[h as usize].wound_each_round();
            if wound > 0 {
                self.damage_hero(h, wound, true, events);
            }
        }
        if !self.is_over() {
            self.end_round(events);
        }
    }

    pub(crate) fn check_avoid_return_damage(&self, c: &Combat, hero: u8) -> Result<(), RuleError> {
        super::steps::step_is(c, CombatStep::AvoidReturnDamage, "a Hero to avoid Return Damage")?;
        let k = c.avoid_queue.first().ok_or(RuleError::NothingToDo)?;
        if c.kills[*k].contributors.contains(&hero) { Ok(()) } else { Err(RuleError::NotAContributor) }
    }

    pub(crate) fn avoid_return_damage(&mut self, hero: u8, events: &mut Vec<Event>) {
        let c = self.cbt();
        c.avoid_queue.remove(0);
        c.heroes[hero as usize].avoids_return_damage = true;
        events.push(Event::ReturnDamageAvoided { hero });
        self.advance_avoidance(events);
    }

    pub(crate) fn avoidance_candidates(&self, out: &mut Vec<Action>) {
        out.extend((0..self.heroes.len() as u8).map(|hero| Action::AvoidReturnDamage { hero }));
    }
}

/// The Monsters' side of one pair, before Armor: the Damage its Monster
/// deals, none when the Hero ignores the Round's results or avoids a Hero
/// Hit's Return Damage. `None` for a pair without both cards.
fn pair_hit(c: &Combat, engagement: usize, slot: usize) -> Option<u8> {
    let e = c.engagements.get(engagement)?;
    let bonus = c.foes.get(usize::from(e.foe))?.card_bonus;
    let pair = e.slots.get(slot)?;
    let (outcome, (_, taken)) = (pair.outcome(bonus)?, pair.damage(bonus)?);
    let round = c.heroes.get(usize::from(e.hero))?;
    let avoided = outcome == Outcome::HeroHit && round.avoids_return_damage;
    Some(if round.ignore_results || avoided { 0 } else { taken })
}
