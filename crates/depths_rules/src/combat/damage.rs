//! "5. Apply Damage": Direct and Return Damage from the pair each Hero
//! Resolves, "Applying Damage to Pairs, Groups, or Hordes" (all of a Hero's
//! Damage to one individual; a Horde's excess spills over).

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
                });
            }
        }
        self.cbt().packets.extend(packets);
        self.advance_damage(events);
    }

    /// Where a packet of damage goes without asking, if it needs no choice:
    /// `Ok(Some(i))` to individual `i`, `Ok(None)` nowhere (it is lost), and
    /// `Err(())` when the players must choose the individual.
    pub(crate) fn packet_destination(&self, p: &DamagePacket) -> Result<Option<u8>, ()> {
        let c = self.combat.as_ref().expect("in Combat");
        let foe = &c.foes[p.foe as usize];
        let alive: Vec<u8> =
            foe.individuals.iter().enumerate().filter(|(_, i)| i.alive()).map(|(i, _)| i as u8).collect();
        if foe.is_defeated() || alive.is_empty() {
            return Ok(None);
        }
        if !p.overflow
            && let Some(i) = c.heroes[p.hero as usize].target_in(p.foe)
        {
            // "All of a Hero's Damage must be applied to one Individual Monster"
            // of the set: the Hero already chose it this Round (with an ability's damage).
            if foe.individuals[i as usize].alive() {
                return Ok(Some(i));
            }
            // "…in a Horde … any excess Damage may be applied to any other individual."
            if !foe.is_horde() {
                return Ok(None);
            }
        }
        if alive.len() > 1 { Err(()) } else { Ok(Some(alive[0])) }
    }

    /// Puts pending damage on individuals, asking only when there is a choice.
    /// The Heroes may place their damage in any order.
    pub(crate) fn advance_damage(&mut self, events: &mut Vec<Event>) {
        loop {
            let c = self.combat.as_ref().expect("in Combat");
            let found = c.packets.iter().enumerate().find_map(|(k, p)| self.packet_destination(p).ok().map(|d| (k, d)));
            let Some((k, destination)) = found else { break };
            let p = self.cbt().packets.remove(k);
            match destination {
                Some(individual) => self.hit_individual(p, individual, events),
                None if !self.cbt().foes[p.foe as usize].is_defeated() => {
                    let name = self.heroes[p.hero as usize].name().to_string();
                    events.push(Event::Note {
                        text: format!("{name}'s {} Damage is lost: all of it must go to one individual.", p.amount),
                    });
                }
                None => {}
            }
        }
        if !self.cbt().packets.is_empty() {
            self.cbt().step = CombatStep::AssignDamage;
            return;
        }
        self.begin_avoidance(events);
    }

    /// One source of a Hero's damage lands on one individual.
    pub(crate) fn hit_individual(&mut self, p: DamagePacket, individual: u8, events: &mut Vec<Event>) {
        let c = self.cbt();
        let round = &mut c.heroes[p.hero as usize];
        if round.target_in(p.foe).is_none() {
            round.targets.push((p.foe, individual));
        }
        let foe = &mut c.foes[p.foe as usize];
        let was_defeated = foe.is_defeated();
        let horde = foe.is_horde();
        let amount = if p.overflow { p.amount } else { foe.damage_taken(usize::from(individual), p.amount, p.magic) };
        let ind = &mut foe.individuals[individual as usize];
        let dealt = amount.min(ind.health);
        ind.health -= dealt;
        let killed = dealt > 0 && ind.health == 0;
        if dealt == 0 {
            return;
        }
        events.push(Event::MonsterDamaged { hero: p.hero, foe: p.foe, individual, amount: dealt });
        c.hits.push((p.foe, individual, p.hero));
        if killed {
            events.push(Event::IndividualDefeated { foe: p.foe, individual });
            let mut contributors: Vec<u8> =
                c.hits.iter().filter(|(f, i, _)| *f == p.foe && *i == individual).map(|(_, _, h)| *h).collect();
            contributors.sort_unstable();
            contributors.dedup();
            c.kills.push(Kill { foe: p.foe, individual, contributors });
            let excess = amount - dealt;
            // "If an individual Monster in a Horde is Defeated, any excess Damage
            // may be applied to any other individual Monster in that Horde."
            if horde && excess > 0 && c.foes[p.foe as usize].alive_count() > 0 {
                c.packets.insert(0, DamagePacket { amount: excess, overflow: true, ..p });
            }
            if !was_defeated && c.foes[p.foe as usize].is_defeated() {
                events.push(Event::FoeDefeated { foe: p.foe });
            }
        }
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
        let p = self.cbt().packets.remove(k);
        self.hit_individual(p, individual, events);
        self.advance_damage(events);
    }

    pub(crate) fn damage_candidates(&self, c: &Combat, hero: u8, out: &mut Vec<Action>) {
        let Some(k) = c.packet_of(hero) else { return };
        let foe = &c.foes[c.packets[k].foe as usize];
        out.extend((0..foe.individuals.len() as u8).map(|individual| Action::AssignDamage { hero, individual }));
    }
}
