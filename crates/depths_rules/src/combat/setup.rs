//! "Combat Setup" and "Assigning Monsters": health tokens, which Monster
//! Card each Hero fights, and the start of every Round.

use super::{Combat, CombatStep, Engagement, Foe, HeroRound};
use crate::action::Action;
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{Game, Stage};

impl Game {
    /// "Combat Setup": health tokens are part of each [`Foe`]; then Monsters
    /// are assigned to Heroes.
    pub fn start_combat(&mut self, foes: Vec<Foe>) -> Vec<Event> {
        let mut events = vec![Event::CombatStarted { foes: foes.iter().map(|f| f.name().to_string()).collect() }];
        let n = self.heroes.len();
        let two_cards = foes.len() == 2;
        self.combat = Some(Combat {
            assignment: vec![Vec::new(); n],
            round: 0,
            step: CombatStep::AssignMonsters,
            group: 0,
            engagements: Vec::new(),
            heroes: vec![HeroRound::default(); n],
            play_one_next_round: vec![false; n],
            packets: Vec::new(),
            hits: Vec::new(),
            wounds: Vec::new(),
            kills: Vec::new(),
            avoid_queue: Vec::new(),
            foes,
        });
        self.stage = Stage::Combat;
        if two_cards && n >= 2 {
            // "The players decide which Monster will be assigned to which hero."
            return events;
        }
        // One card: everyone fights it. One Hero: they fight both.
        let all: Vec<u8> = (0..self.cbt().foes.len() as u8).collect();
        self.cbt().assignment = vec![all; n];
        self.start_round(&mut events);
        events
    }

    pub(crate) fn start_round(&mut self, events: &mut Vec<Event>) {
        let n = self.heroes.len();
        let c = self.combat.as_mut().expect("in Combat");
        c.round += 1;
        events.push(Event::RoundStarted { round: c.round });
        for f in &mut c.foes {
            f.power_used_this_round = false;
        }
        let alive: Vec<u8> = (0..c.foes.len() as u8).filter(|&f| !c.foes[f as usize].is_defeated()).collect();
        // "Once it is [Defeated], they join their allies … to Combat any remaining Monster Cards."
        for a in &mut c.assignment {
            a.retain(|f| alive.contains(f));
            if a.is_empty() {
                a.clone_from(&alive);
            }
        }
        c.heroes =
            (0..n).map(|h| HeroRound { play_one_card: c.play_one_next_round[h], ..HeroRound::default() }).collect();
        c.play_one_next_round = vec![false; n];
        c.engagements.clear();
        c.hits.clear();
        c.wounds.clear();
        c.kills.clear();
        for h in 0..n {
            for (g, &f) in c.assignment[h].iter().enumerate() {
                let (monster, hero) = c.foes[f as usize].cards_to_play();
                let hero = if c.heroes[h].play_one_card { 1 } else { hero };
                c.engagements.push(Engagement {
                    hero: h as u8,
                    foe: f,
                    group: g as u8,
                    hero_cards: hero,
                    monster_cards: monster,
                    slots: Vec::new(),
                    unpaired: Vec::new(),
                    waiting: None,
                    chosen: None,
                });
            }
        }
        c.engagements.sort_by_key(|e| (e.group, e.hero));
        self.begin_group(0, events);
    }

    /// "Two Monster Icons … The players decide which Monster will be assigned to which hero."
    pub(crate) fn check_assign_monsters(&self, c: &Combat, foes: &[u8]) -> Result<(), RuleError> {
        super::steps::step_is(c, CombatStep::AssignMonsters, "Monsters to be assigned")?;
        if foes.len() != self.heroes.len() {
            return Err(RuleError::BadAssignment("name one Monster Card per Hero"));
        }
        if foes.iter().any(|&f| usize::from(f) >= c.foes.len()) {
            return Err(RuleError::BadAssignment("no such Monster Card"));
        }
        // "Each Monster Card must be assigned to a different Hero, if possible."
        if (0..c.foes.len() as u8).any(|f| !foes.contains(&f)) {
            return Err(RuleError::BadAssignment("each Monster Card needs a Hero"));
        }
        Ok(())
    }

    pub(crate) fn assign_monsters(&mut self, foes: Vec<u8>, events: &mut Vec<Event>) {
        events.push(Event::MonstersAssigned { foes: foes.clone() });
        self.cbt().assignment = foes.into_iter().map(|f| vec![f]).collect();
        self.start_round(events);
    }

    /// Every way to give each Hero one Monster Card.
    pub(crate) fn assignment_candidates(&self, c: &Combat, out: &mut Vec<Action>) {
        let n = self.heroes.len() as u8;
        let k = c.foes.len() as u32;
        for code in 0..k.pow(u32::from(n)) {
            let foes = (0..n).map(|h| ((code / k.pow(u32::from(h))) % k) as u8).collect();
            out.push(Action::AssignMonsters { foes });
        }
    }
}
