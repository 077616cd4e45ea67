//! The game in words: the log lines each applied event writes, the Combat
//! round summary, and a Companion's reason joined to its move's line.

use bevy::prelude::*;
use depths_rules::{Event, Game, Phase};

use crate::game::words::{describe_event, describe_event_named};

/// The game in words: the log, the Combat round summary, the cards just
/// drawn and why the last choice was refused.
#[derive(Resource, Clone, Debug, Default)]
pub struct GameLog {
    /// The log lines, oldest first.
    pub lines: Vec<String>,
    /// The Combat round summary: what the last finished round did, in words.
    pub rounds: RoundSummary,
    /// Why the last choice was refused, shown until the next one is made.
    pub notice: Option<String>,
    /// The Monsters of the Combat in progress, by number, as it began.
    pub foes: Vec<String>,
    /// Their individuals' names, for the lines told after the Combat ends.
    pub individuals: Vec<Vec<String>>,
    /// A Companion's move on its way: its reason joins the move's own line.
    pub companion: Option<CompanionNote>,
    /// A move made again (Redo) on its way: its own first line says so, and
    /// these words only when it logs nothing of its own.
    pub made_again: Option<String>,
}

/// What a Companion says of the move it made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompanionNote {
    /// The table's version when it chose: the move is made once this changes.
    pub version: u64,
    /// The line for a move that logs nothing of its own ("Companion Sil is
    /// done this Round").
    pub alone: String,
    /// Why it chose it (the careful bot's rule), or empty.
    pub why: String,
}

/// What happened in the last finished Combat round (and so far in this one).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RoundSummary {
    /// The number of the last finished round (0 before any).
    pub round: u32,
    /// Its events in words.
    pub last: Vec<String>,
    /// Its totals.
    #[serde(default)]
    pub totals: RoundTotals,
    current: Vec<String>,
    #[serde(default)]
    current_totals: RoundTotals,
}

/// Damage and healing both ways in one round, and individuals defeated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RoundTotals {
    pub dealt: u16,
    pub taken: u16,
    pub healed: u16,
    pub defeated: u16,
}

impl RoundSummary {
    /// Notes one applied event (and its line in the log).
    fn note(&mut self, event: &Event, line: Option<&String>) {
        let t = &mut self.current_totals;
        match event {
            Event::CombatStarted { .. } => *self = RoundSummary::default(),
            Event::RoundStarted { round } => {
                self.round = round.saturating_sub(1);
                self.last = std::mem::take(&mut self.current);
                self.totals = std::mem::take(&mut self.current_totals);
                return;
            }
            Event::MonsterDamaged { amount, .. } => t.dealt += u16::from(*amount),
            Event::HeroDamaged { amount, .. } => t.taken += u16::from(*amount),
            Event::HeroHealed { amount, .. } => t.healed += u16::from(*amount),
            Event::IndividualDefeated { .. } => t.defeated += 1,
            // The other events, by name, so a new one is decided here.
            #[rustfmt::skip]
            Event::MonstersAssigned { .. } | Event::CardsDrawn { .. } | Event::PowerStored { .. } |
                Event::DiscardReshuffled { .. } | Event::CannotPlay { .. } | Event::CardPlayed { .. } |
                Event::MonsterCardPlayed { .. } | Event::MonsterCardWaiting { .. } |
                Event::MonsterDeckReshuffled { .. } | Event::MonsterPowerDrawn { .. } |
                Event::MonsterAbility { .. } | Event::MonsterPowerWasted { .. } | Event::MonsterCardMoved { .. } |
                Event::PairChosen { .. } | Event::AbilityActivated { .. } | Event::PowerSpent { .. } |
                Event::SpellExhausted { .. } | Event::MonsterHealed { .. } | Event::ReturnDamageAvoided { .. } |
                Event::FoeDefeated { .. } | Event::RoundEnded { .. } | Event::CombatWon | Event::GameLost { .. } |
                Event::Note { .. } | Event::EcologyStarted { .. } | Event::EcologyCompleted { .. } |
                Event::TileDrawn { .. } | Event::TilePlaced { .. } | Event::TileSetAside { .. } |
                Event::ElementEncountered { .. } | Event::LegendaryLocationEncountered { .. } |
                Event::CardDrawn { .. } | Event::CardsOffered { .. } | Event::TestResolved { .. } |
                Event::XpGained { .. } | Event::XpSpent { .. } | Event::KeysChanged { .. } |
                Event::ItemGained { .. } | Event::AbilityGained { .. } | Event::Rested | Event::LevelUp { .. } |
                Event::GameWon => {}
        }
        // Damage, healing, defeats and abilities make the summary; card
        // draws and plays are on the table already.
        if matches!(
            event,
            Event::MonsterDamaged { .. }
                | Event::HeroDamaged { .. }
                | Event::HeroHealed { .. }
                | Event::MonsterHealed { .. }
                | Event::IndividualDefeated { .. }
                | Event::FoeDefeated { .. }
                | Event::AbilityActivated { .. }
                | Event::MonsterAbility { .. }
                | Event::ReturnDamageAvoided { .. }
                | Event::PairChosen { .. }
        ) {
            self.current.extend(line.cloned());
        }
    }

    /// One line: "Last round (2): the Heroes dealt 9, took 7, healed 3; 1 defeated."
    pub fn headline(&self) -> String {
        let t = self.totals;
        let mut line = format!("Last round ({}): the Heroes dealt {}, took {}", self.round, t.dealt, t.taken);
        if t.healed > 0 {
            line.push_str(&format!(", healed {}", t.healed));
        }
        if t.defeated > 0 {
            line.push_str(&format!("; {} defeated", t.defeated));
        }
        line.push('.');
        line
    }
}

impl GameLog {
    /// Once the Companion's move is made: its reason joins the first line the
    /// move logged (`from` on), or the move is told alone when it logged none.
    pub fn tell_companion(&mut self, version: u64, from: usize) {
        let Some(note) = self.companion.take_if(|n| n.version != version) else { return };
        let why = if note.why.is_empty() { String::new() } else { format!(" — {}", note.why) };
        match self.lines.get_mut(from) {
            Some(line) => {
                let said = line.trim_end_matches(['.', '!']).to_owned();
                *line = format!("{said} (Companion{why}).");
            }
            None => self.lines.push(format!("{}{why}.", note.alone)),
        }
    }

    /// The move made again since `from` says so on its first line (its
    /// events tell it once; a line of its own beside them told it twice).
    pub fn tell_made_again(&mut self, from: usize) {
        let Some(words) = self.made_again.take() else { return };
        match self.lines.get_mut(from) {
            Some(line) => *line = format!("Made again: {line}"),
            None => self.lines.push(format!("Made again: {words}")),
        }
    }

    /// Writes one applied event into the log and the round summary (the
    /// `rules_events` log reaction calls this for every published event).
    pub fn record(&mut self, game: &Game, event: &Event) {
        if let Event::CombatStarted { foes } = event {
            self.foes = foes.clone();
        }
        if let Some(c) = game.combat() {
            self.individuals = c.foes.iter().map(|f| f.individuals.iter().map(|i| i.name.clone()).collect()).collect();
        }
        let line = match event {
            // A Monster whose last individual falls is told once, by its own line.
            Event::IndividualDefeated { foe, .. } if foe_falls(game, *foe) => None,
            // The last Monster's fall ends the Combat: its name is remembered here.
            Event::FoeDefeated { foe } if game.combat().is_none() => self
                .foes
                .get(usize::from(*foe))
                .map(|name| describe_event(game, &Event::Note { text: format!("{name} is Defeated!") }))
                .unwrap_or_else(|| describe_event(game, event)),
            // The other events, by name, so a new one is decided here.
            #[rustfmt::skip]
            Event::CombatStarted { .. } | Event::MonstersAssigned { .. } | Event::RoundStarted { .. } |
                Event::CardsDrawn { .. } | Event::PowerStored { .. } | Event::DiscardReshuffled { .. } |
                Event::CannotPlay { .. } | Event::CardPlayed { .. } | Event::MonsterCardPlayed { .. } |
                Event::MonsterCardWaiting { .. } | Event::MonsterDeckReshuffled { .. } |
                Event::MonsterPowerDrawn { .. } | Event::MonsterAbility { .. } | Event::MonsterPowerWasted { .. } |
                Event::MonsterCardMoved { .. } | Event::PairChosen { .. } | Event::AbilityActivated { .. } |
                Event::PowerSpent { .. } | Event::SpellExhausted { .. } | Event::MonsterDamaged { .. } |
                Event::IndividualDefeated { .. } | Event::MonsterHealed { .. } | Event::ReturnDamageAvoided { .. } |
                Event::HeroDamaged { .. } | Event::HeroHealed { .. } | Event::FoeDefeated { .. } |
                Event::RoundEnded { .. } | Event::CombatWon | Event::GameLost { .. } | Event::Note { .. } |
                Event::EcologyStarted { .. } | Event::EcologyCompleted { .. } | Event::TileDrawn { .. } |
                Event::TilePlaced { .. } | Event::TileSetAside { .. } | Event::ElementEncountered { .. } |
                Event::LegendaryLocationEncountered { .. } | Event::CardDrawn { .. } | Event::CardsOffered { .. } |
                Event::TestResolved { .. } | Event::XpGained { .. } | Event::XpSpent { .. } |
                Event::KeysChanged { .. } | Event::ItemGained { .. } | Event::AbilityGained { .. } | Event::Rested |
                Event::LevelUp { .. } | Event::GameWon => describe_event_named(game, event, &self.individuals),
        };
        self.rounds.note(event, line.as_ref());
        self.lines.extend(line);
    }
}

/// Whether Monster `foe` is Defeated in `game` (the state after the move):
/// still on the table and down, or gone with a Combat that was won.
fn foe_falls(game: &Game, foe: u8) -> bool {
    match game.combat() {
        Some(c) => c.foes.get(usize::from(foe)).is_some_and(|f| f.is_defeated()),
        None => !matches!(game.phase(), Phase::Lost(_)),
    }
}

#[cfg(test)]
mod round_summary_tests {
    use super::*;

    #[test]
    fn the_summary_holds_the_last_finished_round_and_starts_afresh_each_combat() {
        let mut r = RoundSummary::default();
        let line = |t: &str| Some(t.to_owned());
        r.note(&Event::CombatStarted { foes: vec!["Rats".into()] }, None);
        r.note(&Event::RoundStarted { round: 1 }, line("— Round 1 —").as_ref());
        r.note(&Event::CardsDrawn { hero: 0, count: 3 }, None);
        r.note(&Event::HeroDamaged { hero: 0, amount: 3 }, line("Bren takes 3 damage.").as_ref());
        assert!(r.last.is_empty(), "round 1 is not over yet");
        r.note(&Event::RoundStarted { round: 2 }, line("— Round 2 —").as_ref());
        assert_eq!((r.round, r.last.clone()), (1, vec!["Bren takes 3 damage.".to_owned()]));
        assert_eq!(r.headline(), "Last round (1): the Heroes dealt 0, took 3.");
        r.note(&Event::HeroHealed { hero: 0, amount: 2 }, line("Bren heals 2.").as_ref());
        r.note(&Event::RoundStarted { round: 3 }, None);
        assert_eq!((r.round, r.last.clone()), (2, vec!["Bren heals 2.".to_owned()]));
        assert_eq!(r.headline(), "Last round (2): the Heroes dealt 0, took 0, healed 2.");
        r.note(&Event::CombatStarted { foes: vec![] }, None);
        assert_eq!(r, RoundSummary::default());
    }
}
