//! The whole game state and the Action pipeline:
//! `check(&Action)` → `apply(Action) -> Events` and `legal_actions()`.

use serde::{Deserialize, Serialize};

use crate::GameRng;
use crate::action::Action;
use crate::action_card::{Difficulty, MonsterDeck};
use crate::combat::{Combat, Foe};
use crate::error::RuleError;
use crate::event::{Event, LossReason};
use crate::hero::{Hero, HeroMat};
use crate::phase::Phase;

/// Saves carry this; a save from a newer format is refused with a clear message.
pub const FORMAT_VERSION: u32 = 1;

/// The part of [`Phase`] the state stores: whether a Combat is on and how
/// the game ended; the rest of the phase is read from the state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// Outside Combat (Exploring, Encountering, Level Up, Passage).
    Exploring,
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
            stage: Stage::Exploring,
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

    /// Whether `action` is legal now: first whether the book allows it in
    /// this [`Phase`] at all, then the action's own conditions.
    pub fn check(&self, action: &Action) -> Result<(), RuleError> {
        let phase = self.phase();
        phase.admits(action)?;
        match phase {
            Phase::Combat { .. } => self.check_combat(action),
            _ => self.check_exploring(action),
        }
    }

    /// Performs a legal action and reports what happened; an illegal one is
    /// refused with the game unchanged.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, RuleError> {
        self.check(&action)?;
        let mut events = Vec::new();
        match self.stage {
            Stage::Combat => {
                self.apply_combat(action, &mut events);
                if self.stage == Stage::Exploring && self.adventure.is_some() {
                    self.after_combat(&mut events);
                }
            }
            _ => self.apply_exploring(action, &mut events),
        }
        Ok(events)
    }

    /// Every legal action now; each passes [`Game::check`].
    pub fn legal_actions(&self) -> Vec<Action> {
        let candidates = match self.phase() {
            Phase::Won | Phase::Lost(_) => Vec::new(),
            Phase::Combat { .. } => self.combat_candidates(),
            _ => self.exploring_candidates(),
        };
        candidates.into_iter().filter(|a| self.check(a).is_ok()).collect()
    }

    /// Ends the game: "The Heroes Lose if … One of the Heroes is Defeated."
    pub(crate) fn lose(&mut self, reason: LossReason, events: &mut Vec<Event>) {
        if !self.is_over() {
            self.stage = Stage::Lost(reason.clone());
            events.push(Event::GameLost { reason });
        }
    }

    pub fn save_json(&self) -> String {
        crate::save::to_json(self)
    }

    /// Loads a save, refusing corrupt data or a newer format ([`crate::save`]).
    pub fn load_json(text: &str) -> Result<Game, crate::save::SaveError> {
        crate::save::from_json(text)
    }
}
