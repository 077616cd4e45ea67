//! "5. Apply Damage": Direct and Return Damage from the pair each Hero
//! Resolves, "Applying Damage to Pairs, Groups, or Hordes" (all of a Hero's
//! Damage to one individual of a set; a Horde's excess spills over).
//!
//! "All Heroes perform each Step simultaneously": the Round's Damage — the
//! abilities' of step 4 and the Combat Pairs' — counts as dealt at once.
//! Health drops as each source lands, but an individual brought down this
//! Round may still be named until step 5 settles the sum ([`Wound`]): who
//! Defeated it (every Hero whose Damage took part) and a Horde's excess.
//! Nothing depends on the order the Heroes sit in or act in.

use super::{Combat, CombatStep, DamagePacket, Kill, Wound};
use crate::action::Action;
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;

impl Game {
    /// Step 3 is complete for every Hero: work out their damage (step 5) from
    /// the one Combat Pair each Resolves.
    pub(crate) fn begin_damage(&mut self, events: &mut Vec<Event>) {
        let c = self.combat.as_ref().expect("in Combat");
        let chosen = (0..self.heroes.len() as u8).filter_map(|h| {
            let e = c.chosen_engagement(h)?;
            self.pair_packet(e, usize::from(c.engagements[e].chosen?))
        });
        let packets: Vec<DamagePacket> = chosen.filter(|p| p.amount > 0).collect();
        self.cbt().packets.extend(packets);
        self.advance_damage(events);
    }

    /// The Damage `engagement`'s pair in `slot` does to the Monster when it
    /// is Resolved, before the individual's Armor: the Hero's side with the
    /// Round's bonus and the Hero's passive bonus, Magic or not. `None` for
    /// a pair without both cards; `amount` 0 for a Hero whose results this
    /// Round are ignored.
    pub(crate) fn pair_packet(&self, engagement: usize, slot: usize) -> Option<DamagePacket> {
        let c = self.combat.as_ref()?;
        let e = c.engagements.get(engagement)?;
        let (round, hero) = (c.heroes.get(usize::from(e.hero))?, self.heroes.get(usize::from(e.hero))?);
        let bonus = c.foes.get(usize::from(e.foe))?.card_bonus;
        let (dealt, _) = e.slots.get(slot)?.damage(bonus)?;
        let amount = if round.ignore_results || dealt == 0 {
            0
        } else {
            dealt.saturating_add(round.bonus_damage).saturating_add(hero.passive_bonus_damage())
        };
        let magic = hero.has_magic() || round.magic;
        Some(DamagePacket { hero: e.hero, foe: e.foe, amount, magic, overflow: false, individual: None, owners: 0 })
    }

    /// The Damage the Monster takes from `engagement`'s pair in `slot` if it
    /// is Resolved, as things stand: after a resistance to non-Magic attacks
    /// and the Armor of the individual it goes to ("5. Apply Damage"), as
    /// (least, most) over the individuals the Hero may still give it to (one
    /// when the Hero's Damage to that set is already bound to an individual
    /// this Round, or one is left). An individual already brought down takes
    /// none of it, except in a Horde, whose excess goes on to another.
    /// `None` for a pair without both cards.
    pub fn pair_deals(&self, engagement: usize, slot: usize) -> Option<(u8, u8)> {
        let c = self.combat.as_ref()?;
        let p = self.pair_packet(engagement, slot)?;
        let foe = &c.foes[usize::from(p.foe)];
        let takes = |i: u8| {
            let fallen = foe.individuals.get(usize::from(i)).is_none_or(|ind| ind.health == 0);
            if fallen && !foe.is_horde() { 0 } else { foe.damage_taken(usize::from(i), p.amount, p.magic) }
        };
        let figures: Vec<u8> = match c.heroes[usize::from(p.hero)].target_in(p.foe) {
            Some(i) if c.open(p.foe, i) => vec![takes(i)],
            Some(_) => vec![0],
            None => (0..foe.individuals.len() as u8).filter(|&i| c.open(p.foe, i)).map(takes).collect(),
        };
        let least = figures.iter().copied().min().unwrap_or(0);
        Some((least, figures.into_iter().max().unwrap_or(0)))
    }

    /// The Health an individual will lose when the Round's Damage placed on
    /// it so far lands (it lands once every Hero's is placed): after Armor
    /// and a resistance to non-Magic attacks (a Horde's excess is not
    /// reduced again), no more than it has. 0 outside the Assign Damage step.
    pub fn placed_damage(&self, foe: u8, individual: u8) -> u8 {
        let Some(c) = self.combat.as_ref().filter(|c| c.step == CombatStep::AssignDamage) else { return 0 };
        let Some(f) = c.foes.get(usize::from(foe)) else { return 0 };
        let health = f.individuals.get(usize::from(individual)).map_or(0, |i| i.health);
        let placed = c.packets.iter().filter(|p| p.foe == foe && p.individual == Some(individual));
        let sum = placed.fold(0u8, |sum, p| {
            let amount = if p.overflow { p.amount } else { f.damage_taken(usize::from(individual), p.amount, p.magic) };
            sum.saturating_add(amount)
        });
        sum.min(health)
    }

    /// Where a packet not yet placed goes without asking: `Ok(Some(i))` to
    /// individual `i`, `Ok(None)` nowhere (no individual is left to take it),
    /// and `Err(())` when the players must choose the individual.
    fn packet_destination(&self, p: &DamagePacket) -> Result<Option<u8>, ()> {
        let c = self.combat.as_ref().expect("in Combat");
        let count = c.foes[p.foe as usize].individuals.len() as u8;
        if !p.overflow
            && let Some(i) = c.heroes[p.hero as usize].target_in(p.foe)
        {
            // "All of a Hero's Damage must be applied to one Individual Monster"
            // of the set: the Hero already named it this Round.
            return Ok(c.open(p.foe, i).then_some(i));
        }
        let mut open = (0..count).filter(|&i| c.open(p.foe, i));
        let Some(first) = open.next() else { return Ok(None) };
        if open.next().is_some() { Err(()) } else { Ok(Some(first)) }
    }

    /// Places every packet whose individual needs no choice and asks for the
    /// others; once all are placed they land, the Round's Damage is settled
    /// (and then any Horde overflow the same way), and play goes on to
    /// Avoiding Return Damage.
    pub(crate) fn advance_damage(&mut self, events: &mut Vec<Event>) {
        loop {
            let mut waiting = false;
            let mut k = 0;
            while k < self.cbt().packets.len() {
                let p = self.cbt().packets[k];
                if p.individual.is_some() {
                    k += 1;
                    continue;
                }
                match self.packet_destination(&p) {
                    Ok(Some(individual)) => {
                        self.place_packet(k, individual);
                        k += 1;
                    }
                    Ok(None) => {
                        self.cbt().packets.remove(k);
                    }
                    Err(()) => {
                        waiting = true;
                        k += 1;
                    }
                }
            }
            if waiting {
                self.cbt().step = CombatStep::AssignDamage;
                return;
            }
            let placed = std::mem::take(&mut self.cbt().packets);
            for p in placed {
                let individual = p.individual.expect("placed");
                self.wound(p, individual, events);
            }
            self.settle_wounds();
            if self.cbt().packets.is_empty() {
                break;
            }
        }
        self.begin_avoidance(events);
    }

    /// Packet `k` goes to `individual`, and so does the rest of its Hero's
    /// Damage to that set this Round.
    fn place_packet(&mut self, k: usize, individual: u8) {
        let c = self.cbt();
        let p = &mut c.packets[k];
        p.individual = Some(individual);
        let (hero, foe, overflow) = (p.hero, p.foe, p.overflow);
        let round = &mut c.heroes[hero as usize];
        if !overflow && round.target_in(foe).is_none() {
            round.targets.push((foe, individual));
        }
    }

    /// An ability's Damage in step 4 lands on the individual named; it is
    /// settled with the Round's other Damage in step 5.
    pub(crate) fn add_ability_damage(&mut self, p: DamagePacket, individual: u8, events: &mut Vec<Event>) {
        let round = &mut self.cbt().heroes[p.hero as usize];
        if round.target_in(p.foe).is_none() {
            round.targets.push((p.foe, individual));
        }
        self.wound(p, individual, events);
    }

    /// One source of Damage lands: reduced by the individual's Armor (Horde
    /// overflow is not reduced again), added to the Round's wound, and taken
    /// off its Health at once.
    fn wound(&mut self, p: DamagePacket, individual: u8, events: &mut Vec<Event>) {
        let c = self.cbt();
        let foe = &mut c.foes[p.foe as usize];
        let amount = if p.overflow { p.amount } else { foe.damage_taken(usize::from(individual), p.amount, p.magic) };
        if amount == 0 {
            return;
        }
        let was_defeated = foe.is_defeated();
        let ind = &mut foe.individuals[individual as usize];
        let before = ind.health;
        let w = match c.wounds.iter().position(|w| w.foe == p.foe && w.individual == individual && !w.settled) {
            Some(w) => w,
            None => {
                c.wounds.push(Wound {
                    foe: p.foe,
                    individual,
                    start: before,
                    total: 0,
                    heroes: 0,
                    alone: [0; 8],
                    settled: false,
                });
                c.wounds.len() - 1
            }
        };
        let w = &mut c.wounds[w];
        w.total = w.total.saturating_add(u16::from(amount));
        w.heroes |= p.owner_bits();
        if p.owner_bits().count_ones() == 1 {
            let h = usize::from(p.owner_bits().trailing_zeros() as u8);
            w.alone[h] = w.alone[h].saturating_add(u16::from(amount));
        }
        ind.health = before.saturating_sub(amount);
        let heroes = (0..8u8).filter(|h| p.owner_bits() & (1 << h) != 0);
        c.hits.extend(heroes.map(|h| (p.foe, individual, h)));
        if before > 0 {
            events.push(Event::MonsterDamaged { hero: p.hero, foe: p.foe, individual, amount: amount.min(before) });
        }
        if before > 0 && ind.health == 0 {
            events.push(Event::IndividualDefeated { foe: p.foe, individual });
            if !was_defeated && c.foes[p.foe as usize].is_defeated() {
                events.push(Event::FoeDefeated { foe: p.foe });
            }
        }
    }

    /// The Round's Damage so far counts as dealt at once: each individual its
    /// sum brought down is Defeated, with every Hero whose Damage took part
    /// as a contributor, and a Horde's excess becomes Damage of all of them,
    /// to be placed on another of its individuals.
    fn settle_wounds(&mut self) {
        let c = self.cbt();
        let mut order: Vec<usize> = (0..c.wounds.len()).filter(|&w| !c.wounds[w].settled).collect();
        order.sort_by_key(|&w| (c.wounds[w].foe, c.wounds[w].individual));
        for w in order {
            let Wound { foe, individual, start, total, heroes, alone, .. } = c.wounds[w];
            if total < u16::from(start) || start == 0 {
                continue;
            }
            c.wounds[w].settled = true;
            let all: Vec<u8> = (0..8u8).filter(|h| heroes & (1 << h) != 0).collect();
            // "If one Hero delivered all of the Damage needed": a Hero whose
            // Damage alone met its Health defeated it alone, whoever else's
            // landed too; else every Hero whose Damage took part contributed.
            // (A Horde's excess below is still every one of theirs.)
            let first = all[0];
            let contributors = match all.iter().find(|&&h| alone[usize::from(h)] >= u16::from(start)) {
                Some(&h) => vec![h],
                None => all,
            };
            let excess = total - u16::from(start);
            // "If an individual Monster in a Horde is Defeated, any excess Damage
            // may be applied to any other individual Monster in that Horde."
            if c.foes[foe as usize].is_horde() && excess > 0 {
                c.packets.push(DamagePacket {
                    hero: first,
                    foe,
                    amount: excess.min(255) as u8,
                    magic: true,
                    overflow: true,
                    individual: None,
                    owners: heroes,
                });
            }
            c.kills.push(Kill { foe, individual, contributors });
        }
    }

    pub(crate) fn check_assign_damage(&self, c: &Combat, hero: u8, individual: u8) -> Result<(), RuleError> {
        super::steps::step_is(c, CombatStep::AssignDamage, "Damage to be assigned")?;
        self.may_act(c, hero)?;
        let p = &c.packets[c.packet_of(hero).ok_or(RuleError::NothingToDo)?];
        c.foes[p.foe as usize].individuals.get(usize::from(individual)).ok_or(RuleError::BadTarget)?;
        if c.open(p.foe, individual) { Ok(()) } else { Err(RuleError::IndividualDefeated) }
    }

    pub(crate) fn assign_damage(&mut self, hero: u8, individual: u8, events: &mut Vec<Event>) {
        let k = self.cbt().packet_of(hero).expect("checked");
        self.place_packet(k, individual);
        self.advance_damage(events);
    }

    pub(crate) fn damage_candidates(&self, c: &Combat, hero: u8, out: &mut Vec<Action>) {
        let Some(k) = c.packet_of(hero) else { return };
        let foe = &c.foes[c.packets[k].foe as usize];
        out.extend((0..foe.individuals.len() as u8).map(|individual| Action::AssignDamage { hero, individual }));
    }
}
