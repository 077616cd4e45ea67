//! "5. Apply Damage": Direct and Return Damage from the pair each Hero
//! Resolves, "Applying Damage to Pairs, Groups, or Hordes" (all of a Hero's
//! Damage to one individual of a set; a Horde's excess spills over).
//!
//! "All Heroes perform each Step simultaneously": the Round's Damage — the
//! abilities' of step 4 and the Combat Pairs' — lands all at once, once every
//! packet has its individual. Nothing depends on the order the Heroes sit in
//! or act in: an individual takes the sum of what was put on it, and every
//! Hero whose Damage took health from it contributed to its defeat.

use super::{Combat, CombatStep, DamagePacket, Kill};
use crate::action::Action;
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;

impl Game {
    /// Step 3 is complete for every Hero: work out their damage (step 5) from
    /// the one Combat Pair each Resolves.
    pub(crate) fn begin_damage(&mut self, events: &mut Vec<Event>) {
        let n = self.heroes.len();
        let mut packets = Vec::new();
        for h in 0..n as u8 {
            let c = self.combat.as_ref().expect("in Combat");
            let round = &c.heroes[h as usize];
            if round.ignore_results {
                continue;
            }
            let hero = &self.heroes[h as usize];
            let Some(e) = c.chosen_engagement(h).map(|e| &c.engagements[e]) else { continue };
            let slot = e.slots[e.chosen.expect("chosen") as usize];
            let bonus = c.foes[e.foe as usize].card_bonus;
            let (dealt, _) = slot.damage(bonus).unwrap_or((0, 0));
            if dealt > 0 {
                packets.push(DamagePacket {
                    hero: h,
                    foe: e.foe,
                    amount: dealt.saturating_add(round.bonus_damage).saturating_add(hero.passive_bonus_damage()),
                    magic: hero.has_magic() || round.magic,
                    overflow: false,
                    individual: None,
                    owners: 0,
                });
            }
        }
        self.cbt().packets.extend(packets);
        self.advance_damage(events);
    }

    /// Where a packet not yet placed goes without asking: `Ok(Some(i))` to
    /// individual `i`, `Ok(None)` nowhere (no individual is left to take it),
    /// and `Err(())` when the players must choose the individual.
    fn packet_destination(&self, p: &DamagePacket) -> Result<Option<u8>, ()> {
        let c = self.combat.as_ref().expect("in Combat");
        let foe = &c.foes[p.foe as usize];
        let mut alive = foe.individuals.iter().enumerate().filter(|(_, i)| i.alive()).map(|(i, _)| i as u8);
        let Some(first) = alive.next() else { return Ok(None) };
        if foe.is_defeated() {
            return Ok(None);
        }
        if !p.overflow
            && let Some(i) = c.heroes[p.hero as usize].target_in(p.foe)
        {
            // "All of a Hero's Damage must be applied to one Individual Monster"
            // of the set: the Hero already named it this Round.
            return Ok(foe.individuals[i as usize].alive().then_some(i));
        }
        if alive.next().is_some() { Err(()) } else { Ok(Some(first)) }
    }

    /// Places every packet whose individual needs no choice; asks for the
    /// others; once all are placed, applies them together (and then any
    /// Horde overflow the same way) and goes on to Avoiding Return Damage.
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
            if self.cbt().packets.is_empty() {
                break;
            }
            self.apply_packets(events);
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

    /// An ability's Damage in step 4: named now, dealt with the Round's other
    /// Damage in step 5.
    pub(crate) fn add_ability_damage(&mut self, p: DamagePacket, individual: u8) {
        let c = self.cbt();
        c.packets.push(p);
        let k = c.packets.len() - 1;
        self.place_packet(k, individual);
    }

    /// Every placed packet lands at once: each individual loses the sum of
    /// the Damage put on it (each source reduced by its Armor on its own), and
    /// every Hero whose Damage took health from a defeated individual shared
    /// in its defeat. A Horde's excess becomes a new packet of all of them.
    fn apply_packets(&mut self, events: &mut Vec<Event>) {
        let c = self.combat.as_mut().expect("in Combat");
        let mut placed = std::mem::take(&mut c.packets);
        placed.sort_by_key(|p| (p.foe, p.individual, p.hero));
        let was_defeated: Vec<bool> = c.foes.iter().map(|f| f.is_defeated()).collect();
        let mut spill = Vec::new();
        let mut i = 0;
        while i < placed.len() {
            let (foe_ix, individual) = (placed[i].foe, placed[i].individual.expect("placed"));
            let end =
                i + placed[i..].iter().take_while(|p| p.foe == foe_ix && p.individual == Some(individual)).count();
            let foe = &mut c.foes[foe_ix as usize];
            let horde = foe.is_horde();
            let before = foe.individuals[individual as usize].health;
            let mut total: u16 = 0;
            let mut contributors: u8 = 0;
            let mut magic = false;
            for p in &placed[i..end] {
                let amount =
                    if p.overflow { p.amount } else { foe.damage_taken(usize::from(individual), p.amount, p.magic) };
                if amount == 0 || before == 0 {
                    continue;
                }
                total += u16::from(amount);
                contributors |= p.owner_bits();
                magic |= p.magic;
                events.push(Event::MonsterDamaged {
                    hero: p.hero,
                    foe: foe_ix,
                    individual,
                    amount: amount.min(before),
                });
            }
            i = end;
            if total == 0 {
                continue;
            }
            let dealt = total.min(u16::from(before)) as u8;
            foe.individuals[individual as usize].health -= dealt;
            let heroes: Vec<u8> = (0..8u8).filter(|h| contributors & (1 << h) != 0).collect();
            c.hits.extend(heroes.iter().map(|&h| (foe_ix, individual, h)));
            if foe.individuals[individual as usize].health > 0 {
                continue;
            }
            events.push(Event::IndividualDefeated { foe: foe_ix, individual });
            let excess = total - u16::from(dealt);
            // "If an individual Monster in a Horde is Defeated, any excess Damage
            // may be applied to any other individual Monster in that Horde."
            if horde && excess > 0 {
                spill.push(DamagePacket {
                    hero: heroes[0],
                    foe: foe_ix,
                    amount: excess.min(255) as u8,
                    magic,
                    overflow: true,
                    individual: None,
                    owners: contributors,
                });
            }
            c.kills.push(Kill { foe: foe_ix, individual, contributors: heroes });
        }
        for (f, foe) in c.foes.iter().enumerate() {
            if !was_defeated[f] && foe.is_defeated() {
                events.push(Event::FoeDefeated { foe: f as u8 });
            }
        }
        spill.retain(|p| c.foes[p.foe as usize].alive_count() > 0);
        c.packets = spill;
    }

    pub(crate) fn check_assign_damage(&self, c: &Combat, hero: u8, individual: u8) -> Result<(), RuleError> {
        super::steps::step_is(c, CombatStep::AssignDamage, "Damage to be assigned")?;
        self.may_act(c, hero)?;
        let p = &c.packets[c.packet_of(hero).ok_or(RuleError::NothingToDo)?];
        let ind = c.foes[p.foe as usize].individuals.get(usize::from(individual)).ok_or(RuleError::BadTarget)?;
        if ind.alive() { Ok(()) } else { Err(RuleError::IndividualDefeated) }
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
