//! The guided first game: Menu → "Guided first game" starts the Ruins with
//! Bren and Sil on a fixed seed, and a small guide walks the first turns —
//! draw, place, Encounter, one fight — saying what to do next and moving on
//! as soon as the table shows it done. In the fight it follows the Combat
//! step the table is in, whichever comes. It can be skipped at any time.

use bevy::prelude::*;
use depths_rules::{CombatStep, Game, GameOptions, Phase};

use crate::{
    PlaySystems,
    game::flow::MenuAction,
    game::screen::Screen,
    game::session::{Delve, StartGame},
};

/// The guided game's seed: its first tiles lead within a few turns to one
/// Monster card of a single Monster (an Armored Rubble Beetle), which a
/// careful player defeats in two Rounds unhurt: a safe first fight.
pub const GUIDE_SEED: u64 = 23;

/// Where the guide stands; `None` when no guided game is on.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct Guide(pub Option<usize>);

/// The Combat steps the guide has explained, each with the Round it first
/// came up in: from the next Round on it says one short line instead.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct Explained(pub std::collections::HashMap<CombatStep, u32>);

/// One step: what to do, and when it is done.
pub struct Step {
    pub title: &'static str,
    pub text: &'static str,
    pub done: fn(&Game) -> bool,
}

fn tiles(g: &Game) -> usize {
    g.adventure().map_or(0, |a| a.ecology.map.tiles().len())
}

/// Whether the Heroes have Encountered anything yet (a Feature, a Chest, a
/// Door, a Monster).
fn encountered(g: &Game) -> bool {
    use depths_rules::map::ElementState;
    g.combat().is_some()
        || g.adventure().is_some_and(|a| {
            a.ecology.map.tiles().iter().flat_map(|t| t.states.iter().flatten()).any(|s| *s != ElementState::Present)
        })
}

fn fought(g: &Game) -> bool {
    g.adventure().is_some_and(|a| a.record.monsters_defeated > 0) || g.is_over()
}

/// The guided first turns, in order.
pub const STEPS: &[Step] = &[
    Step {
        title: "Draw a map tile",
        text: "The dungeon is built as you go. Press D, or \"Draw tile\" in the panel on the right.",
        done: |g| matches!(g.phase(), Phase::Exploring { tile_in_hand: true, .. }) || tiles(g) > 1,
    },
    Step {
        title: "Place it",
        text: "Drag the tile from the tray onto a gold cell of the board (R turns it; blue cells fit after a \
               turn). Or press H for a hint and Enter to place it there.",
        done: |g| tiles(g) > 1,
    },
    Step {
        title: "Explore and Encounter",
        text: "Round tokens are Ecology Elements. Click one within reach to read what Encountering it does, \
               then Encounter it from the panel — a red token is a Monster. Or draw and place more tiles.",
        done: |g| encountered(g) || fought(g),
    },
    Step {
        title: "Find a fight",
        text: "A red token is a Monster: click it to read it. Encounter one your Heroes can beat (H says \
               whether a careful player would, and why); else draw and place tiles until one is in reach.",
        done: |g| fought(g) && g.combat().is_none(),
    },
    Step {
        title: "Onward",
        text: "Well fought. Explore on to the Stair Guardian, defeat it and go deeper. F1 opens the rules at \
               what is on the table; F2 lists the keys.",
        done: |_| false,
    },
];

/// While a decision is open: the guide says to answer it, and waits.
pub const DECISION: (&str, &str) = (
    "Answer the window",
    "A choice waits in the window on the table (a card's question, or what a payment buys): read it, then \
     choose there; the guide goes on after.",
);

/// The fight's step: what to do in the Combat step the table is in.
pub const FIGHT: usize = 3;

/// What the guide says at `step` in `game`: in the fight, the words of the
/// Combat step on the table ("Step 4: Play a card" while the Monsters were
/// still being assigned told the wrong thing), each explained in the first
/// Round it comes up (`explained`: the Combat steps and the Round each was
/// first met), then one short line.
pub fn shown(step: usize, game: &Game, explained: &Explained) -> Option<(&'static str, &'static str)> {
    let s = STEPS.get(step)?;
    // A card asks a question first: the guide points at it, not past it.
    if game.phase().decision().is_some() {
        return Some(DECISION);
    }
    let Some(c) = game.combat().filter(|_| step >= FIGHT) else {
        return Some((s.title, s.text));
    };
    // After the first fight every step has been told ("Onward: Well fought"
    // stood over the second fight).
    if step + 1 == STEPS.len() || explained.0.get(&c.step).is_some_and(|&round| round < c.round) {
        return Some(FIGHT_ON);
    }
    FIGHT_WORDS.iter().find(|(s, _)| *s == c.step).map(|(_, words)| *words)
}

/// Once every step has been explained: one short line.
const FIGHT_ON: (&str, &str) = ("Fight on", "Each step as before, until the Monster falls. H for a hint.");

/// Each Combat step's words, the first Round it comes up.
const FIGHT_WORDS: [(CombatStep, (&str, &str)); 6] = [
    (
        CombatStep::AssignMonsters,
        (
            "Who fights which Monster",
            "Two Monster cards: choose in the strip above which one each Hero fights. Each Hero then plays \
             against their own.",
        ),
    ),
    (
        CombatStep::PlayCards,
        (
            "Play your cards",
            "Drag a card from a hand at the bottom onto the table (or click it, or press its gold number); the \
             strip says how many each Hero plays. Hover a card to read it.",
        ),
    ),
    (
        CombatStep::PlaceMonsterCard,
        (
            "Place the Monster's card",
            "The Monster plays one card against your two this Round: click the card of yours it goes \
             opposite. Only a full pair (both cards) can be resolved.",
        ),
    ),
    (
        CombatStep::Resolve,
        (
            "Resolve one pair each",
            "Each pair's frame says Block, Hero Hit or Monster Hit and what it deals both ways. Click the pair \
             each Hero resolves, then End (E).",
        ),
    ),
    (
        CombatStep::AssignDamage,
        (
            "Pick the individual",
            "Your damage goes to one individual Monster: click its row on the Monster card (or press its gold \
             number).",
        ),
    ),
    (
        CombatStep::AvoidReturnDamage,
        (
            "Who avoids Return Damage",
            "Several Heroes together defeated a Monster: one of them avoids the Return Damage this Round. Each \
             button above says what it saves.",
        ),
    ),
];

/// Everything the guide may say in a fight: the Combat strip keeps room
/// for the longest, so a step's words coming mid-Round never push the
/// lines under them out of sight.
pub fn fight_words() -> impl Iterator<Item = (&'static str, &'static str)> {
    FIGHT_WORDS.iter().map(|(_, words)| *words).chain([FIGHT_ON, DECISION])
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Guide>().init_resource::<Explained>();
    app.add_systems(Update, start_guided_game.in_set(PlaySystems::Rules));
    app.add_systems(
        Update,
        advance.in_set(PlaySystems::Sync).run_if(in_state(Screen::Playing).and_then(resource_exists::<Delve>)),
    );
    app.add_systems(OnEnter(Screen::Menu), |mut guide: ResMut<Guide>, mut explained: ResMut<Explained>| {
        guide.0 = None;
        explained.0.clear();
    });
}

fn start_guided_game(
    mut actions: MessageReader<MenuAction>,
    mut starts: MessageWriter<StartGame>,
    mut guide: ResMut<Guide>,
    mut players: ResMut<crate::game::hotseat::Players>,
) {
    for a in actions.read() {
        if *a == MenuAction::GuidedGame {
            // One player at the table, whoever sat at the last New Game: a
            // first game is no place for hot-seat pass screens.
            *players = crate::game::hotseat::Players::default();
            starts.write(StartGame(GameOptions::standard(&["bren", "sil"], GUIDE_SEED)));
            guide.0 = Some(0);
        }
    }
}

/// Where the guide stands after `step` on the table `g`.
fn next_step(mut step: usize, g: &Game) -> usize {
    // Not while a card's question is open: "Find a fight" came while the
    // window "Choose the Hero who gains …" still waited.
    let asking = g.phase().decision().is_some();
    while !asking && step + 1 < STEPS.len() && (STEPS[step].done)(g) {
        step += 1;
    }
    // Undo takes the guide back with the table: after the first Encounter
    // was taken back it still said "Find a fight".
    while step > 0 && !reached(step - 1, g) {
        step -= 1;
    }
    step
}

/// Whether the table shows `step` done, as only Undo can take back: the
/// fight's step once a Monster fell (a later fight does not undo it).
fn reached(step: usize, g: &Game) -> bool {
    if step == FIGHT { fought(g) } else { (STEPS[step].done)(g) }
}

/// Moves on past every step the table already shows done, back to the
/// first one it no longer shows done (Undo), and notes the
/// Combat step on the table as explained.
fn advance(delve: Res<Delve>, mut guide: ResMut<Guide>, mut explained: ResMut<Explained>) {
    let Some(step) = guide.0 else { return };
    if let Some(c) = delve.game().combat()
        && !explained.0.contains_key(&c.step)
    {
        explained.0.insert(c.step, c.round);
    }
    let step = next_step(step, delve.game());
    if guide.0 != Some(step) {
        guide.0 = Some(step);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new player's report: "Onward: Well fought…" stood over the second
    /// fight. Once the guide is at its last step, a fight says "Fight on".
    #[test]
    fn after_the_first_fight_a_fight_says_fight_on() {
        let content = depths_rules::Content::builtin().unwrap();
        let mut g = Game::new(GameOptions::standard(&["bren", "sil"], 3), content).unwrap();
        while g.combat().is_none() {
            let a = careful(&g);
            g.apply(a).unwrap();
        }
        let last = STEPS.len() - 1;
        assert_eq!(shown(last, &g, &Explained::default()), Some(FIGHT_ON));
        assert_ne!(shown(FIGHT, &g, &Explained::default()), Some(FIGHT_ON), "the first fight is told step by step");
    }

    /// Issue 53: "Undo doesn't rewind the guide". Taken back to any earlier
    /// table, the guide stands where it stood then (the first Encounter
    /// taken back brings back "Explore and Encounter"); a later fight
    /// leaves "Onward" as it is.
    #[test]
    fn undo_takes_the_guide_back_and_a_later_fight_does_not() {
        let content = depths_rules::Content::builtin().unwrap();
        let mut g = Game::new(GameOptions::standard(&["bren", "sil"], GUIDE_SEED), content).unwrap();
        let mut step = 0;
        let mut tables: Vec<(Game, usize)> = Vec::new();
        let mut later = 0;
        for _ in 0..3000 {
            if g.is_over() {
                break;
            }
            // A table with a card's question open holds the guide where it
            // is (it says to answer): not one Undo can be checked against.
            if g.phase().decision().is_none() && tables.len() < 400 {
                tables.push((g.clone(), step));
            }
            g.apply(careful(&g)).unwrap();
            step = next_step(step, &g);
            if step == STEPS.len() - 1 && g.combat().is_some() {
                assert_eq!(next_step(step, &g), step, "a later fight");
                later += 1;
            }
        }
        let mut back = 0;
        for (table, then) in &tables {
            assert_eq!(next_step(step, table), *then, "Undo from step {step}");
            back += usize::from(*then < step);
        }
        assert!(back > 10 && later > 0, "{back} tables taken back to, {later} later fight states");
    }

    fn careful(g: &Game) -> depths_rules::Action {
        use depths_sim::Bot;
        depths_sim::HeuristicBot.choose(g)
    }
}
