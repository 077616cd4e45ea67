//! The whole game state and the Action pipeline:
//! `check(&Action)` → `apply(Action) -> Events` and `legal_actions()`.

use serde::{Deserialize, Serialize};

use crate::GameRng;
use crate::action::Action;
use crate::action_card::{Difficulty, MonsterDeck};
use crate::adventure::Pending;
use crate::combat::{Combat, Foe, FoeCard};
use crate::error::RuleError;
use crate::event::{Event, LossReason};
use crate::hero::{Hero, HeroMat};
use crate::phase::{Decision, Phase};

/// Saves carry this; a save from a newer format is refused with a clear message.
pub const FORMAT_VERSION: u32 = 1;

/// The part of [`Phase`] the state stores: whether a Combat is on and how
/// the game ended; the rest of the phase is read from the state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// Outside Combat (Exploring, Encountering, Level Up, Passage); saved
    /// under its first name.
    #[serde(rename = "Exploring")]
    OutOfCombat,
    Combat,
    Won,
    Lost(LossReason),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Game {
    pub format_version: u32,
    pub rng: GameRng,
    pub heroes: Vec<Hero>,
    /// Light, Medium and Heavy Monster Action decks.
    pub monster_decks: Vec<MonsterDeck>,
    #[serde(alias = "phase")]
    pub stage: Stage,
    pub combat: Option<Combat>,
    /// Everything beyond Combat, in a full game (absent in a skirmish).
    pub adventure: Option<Box<crate::adventure::Adventure>>,
}

impl Game {
    /// Heroes at `level` with shuffled decks, and the three Monster Action
    /// decks shuffled, all from `seed`.
    pub fn with_heroes(mats: Vec<HeroMat>, level: u8, seed: u64) -> Game {
        let mut rng = GameRng::from_seed(seed);
        let heroes = mats.into_iter().map(|m| Hero::new(m, level, &mut rng)).collect();
        let monster_decks = Difficulty::ALL.iter().map(|d| MonsterDeck::new(*d, &mut rng)).collect();
        Game {
            format_version: FORMAT_VERSION,
            rng,
            heroes,
            monster_decks,
            stage: Stage::OutOfCombat,
            combat: None,
            adventure: None,
        }
    }

    /// A stand-alone fight (skirmish): the given Heroes against the given foes.
    pub fn skirmish(mats: Vec<HeroMat>, foes: Vec<Foe>, seed: u64) -> (Game, Vec<Event>) {
        let mut game = Game::with_heroes(mats, 1, seed);
        let events = game.start_combat(foes);
        (game, events)
    }

    pub fn monster_deck(&mut self, d: Difficulty) -> &mut MonsterDeck {
        &mut self.monster_decks[d.index()]
    }

    pub fn is_over(&self) -> bool {
        matches!(self.stage, Stage::Won | Stage::Lost(_))
    }

    /// Whether the phase is one of Combat's steps: what a playout to the end
    /// of a fight asks after every move (cheaper than building the phase).
    pub fn in_combat(&self) -> bool {
        self.stage == Stage::Combat && self.combat().is_some()
    }

    /// Whether `action` is legal now: first whether the book allows it in
    /// this [`Phase`] at all, then the action's own conditions, checked by the
    /// file of the rule it belongs to.
    pub fn check(&self, action: &Action) -> Result<(), RuleError> {
        self.check_in(&self.phase(), action)
    }

    /// [`Game::check`] with the phase already known (`legal_actions` checks
    /// every candidate in one phase).
    fn check_in(&self, phase: &Phase, action: &Action) -> Result<(), RuleError> {
        phase.admits(action)?;
        if let Phase::Combat { .. } = *phase {
            return self.check_combat(action);
        }
        use Action as A;
        match action {
            A::DrawTile
            | A::PlaceTile { .. }
            | A::PlaceSetAsideTile { .. }
            | A::Encounter { .. }
            | A::EncounterLegendary { .. } => self.check_exploring(action),
            A::ActivateAbility { hero, source, target } => self.check_exploring_ability(*hero, *source, *target),
            A::StartPurchase { .. } | A::PayXp { .. } | A::CancelPurchase | A::SplitHealing { .. } => {
                self.check_purchase(action)
            }
            A::Equip { .. } | A::Unequip { .. } => self.check_equip(action),
            A::ChooseHero { .. } | A::ChooseOption { .. } | A::RemoveActionCard { .. } => self.check_decision(action),
            A::FinishLevelUp => self.check_finish_level_up(),
            A::Descend => self.check_descend(),
            // Combat's actions, which `admits` refuses outside Combat.
            _ => Err(RuleError::WrongStep { expected: "Combat" }),
        }
    }

    /// Performs a legal action and reports what happened; an illegal one is
    /// refused with the game unchanged.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, RuleError> {
        self.check(&action)?;
        let mut events = self.apply_checked(action);
        // The game's end is told last: Damage dealt at once to several
        // Heroes came after "the Heroes lose" when the first of them fell.
        if let Some(i) = events.iter().position(|e| matches!(e, Event::GameLost { .. })) {
            let lost = events.remove(i);
            events.push(lost);
        }
        Ok(events)
    }

    /// [`Game::apply`] of an action [`Game::check`] accepted.
    fn apply_checked(&mut self, action: Action) -> Vec<Event> {
        let mut events = Vec::new();
        if self.stage == Stage::Combat {
            self.apply_combat(action, &mut events);
            if self.stage == Stage::OutOfCombat && self.adventure.is_some() {
                self.after_combat(&mut events);
            }
            return events;
        }
        use Action as A;
        match action {
            A::DrawTile
            | A::PlaceTile { .. }
            | A::PlaceSetAsideTile { .. }
            | A::Encounter { .. }
            | A::EncounterLegendary { .. } => self.apply_exploring(action, &mut events),
            A::ActivateAbility { hero, source, target } => self.activate(hero, source, target, &mut events),
            A::StartPurchase { .. } | A::PayXp { .. } | A::CancelPurchase | A::SplitHealing { .. } => {
                self.apply_purchase(action, &mut events)
            }
            A::Equip { hero, item } => self.equip(hero, item, true),
            A::Unequip { hero, item } => self.equip(hero, item, false),
            A::ChooseHero { .. } | A::ChooseOption { .. } | A::RemoveActionCard { .. } => {
                self.apply_decision(action, &mut events)
            }
            A::FinishLevelUp => self.finish_level_up(&mut events),
            A::Descend => self.descend(&mut events),
            _ => unreachable!("check refuses Combat's actions outside Combat"),
        }
        self.advance_adventure(&mut events);
        events
    }

    /// Every legal action now; each passes [`Game::check`].
    pub fn legal_actions(&self) -> Vec<Action> {
        let phase = self.phase();
        let mut candidates = match phase {
            Phase::Won | Phase::Lost(_) => Vec::new(),
            Phase::Combat { .. } => self.combat_candidates(),
            _ => match self.pending() {
                Some(p) => self.decision_candidates(p),
                None => self.exploring_candidates(),
            },
        };
        // Placements come from the map's own list of the places a tile fits:
        // whether this step allows placing that tile at all is checked once
        // (checking each place again was most of the call).
        let mut placing = [None, None];
        candidates.retain(|a| {
            let kind = match a {
                Action::PlaceTile { .. } => 0,
                Action::PlaceSetAsideTile { .. } => 1,
                _ => return self.check_in(&phase, a).is_ok(),
            };
            *placing[kind].get_or_insert_with(|| self.check_in(&phase, a).is_ok())
        });
        candidates
    }

    /// Ends the game: "The Heroes Lose if … One of the Heroes is Defeated."
    pub(crate) fn lose(&mut self, reason: LossReason, events: &mut Vec<Event>) {
        if !self.is_over() {
            // The Monster cards a lost Combat defeated were defeated all the
            // same: the Adventure Record counts them (it said 1 where the log
            // told of two).
            if let (Some(c), Some(adv)) = (self.combat.as_ref(), self.adventure.as_deref_mut()) {
                let fallen = c.foes.iter().filter(|f| matches!(f.card, FoeCard::Monster(_)) && f.is_defeated()).count();
                adv.record.monsters_defeated = adv.record.monsters_defeated.saturating_add(fallen as u32);
            }
            self.stage = Stage::Lost(reason.clone());
            events.push(Event::GameLost { reason });
        }
    }
}

impl Game {
    /// Where the game stands now: the one phase machine, read from the state.
    pub fn phase(&self) -> Phase {
        match &self.stage {
            Stage::Won => return Phase::Won,
            Stage::Lost(reason) => return Phase::Lost(reason.clone()),
            Stage::Combat => {
                if let Some(c) = self.combat() {
                    return Phase::Combat { step: c.step };
                }
            }
            Stage::OutOfCombat => {}
        }
        // A skirmish has nothing beyond its fight.
        let Some(a) = self.adventure() else { return Phase::Won };
        let decision = a.pending.first().and_then(Decision::of);
        if a.pending.iter().any(|p| matches!(p, Pending::LevelUp { .. })) {
            return Phase::LevelUp { decision };
        }
        if let Some(Pending::Passage { next }) = a.pending.first() {
            return Phase::Passage { next: *next };
        }
        if let Some(element) = a.encounter {
            return Phase::Encountering { element, decision };
        }
        match decision {
            Some(d) if a.setting_up => Phase::Setup { decision: d },
            _ => Phase::Exploring { tile_in_hand: a.ecology.drawn.is_some(), decision },
        }
    }
}
