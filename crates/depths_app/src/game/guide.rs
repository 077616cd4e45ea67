//! The guided first game: Menu → "Guided first game" starts the Ruins with
//! Bren and Sil on a fixed seed, and a small guide walks the first turns —
//! draw, place, Encounter, one fight — saying what to do next and moving on
//! as soon as the table shows it done. It can be skipped at any time.

use bevy::prelude::*;
use depths_rules::{CombatStep, Game, GameOptions, Phase};

use crate::{
    PlaySystems,
    game::flow::MenuAction,
    game::screen::Screen,
    game::session::{Delve, StartGame},
};

/// The guided game's seed: its first tiles lead to a Monster within a few turns.
pub const GUIDE_SEED: u64 = 3;

/// Where the guide stands; `None` when no guided game is on.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct Guide(pub Option<usize>);

/// One step: what to do, and when it is done.
pub struct Step {
    pub title: &'static str,
    pub text: &'static str,
    pub done: fn(&Game) -> bool,
}

fn tiles(g: &Game) -> usize {
    g.adventure().map_or(0, |a| a.ecology.map.tiles().len())
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
        done: |g| matches!(g.phase(), Phase::Combat { .. }) || fought(g),
    },
    Step {
        title: "Play a card",
        text: "The Combat mat: the Monster cards at the top, your hands at the bottom. (With two Monster \
               cards, first choose in the strip above which one each Hero fights.) Drag a card from a hand onto \
               the table (or click it, or press its gold number). Hover any card to read it.",
        done: |g| {
            g.combat().is_none_or(|c| {
                c.engagements.iter().any(|e| e.slots.iter().any(|s| s.hero.is_some()))
                    || !matches!(c.step, CombatStep::AssignMonsters | CombatStep::PlayCards)
            })
        },
    },
    Step {
        title: "Resolve a pair",
        text: "Once every Hero has played, the Monster plays its cards opposite yours. Click the pair each Hero \
               resolves — its frame says Block, Hero Hit or Monster Hit and the damage both ways — then End turn \
               in the strip above.",
        done: |g| g.combat().is_none_or(|c| c.round >= 2),
    },
    Step {
        title: "Win the fight",
        text: "Fight on, round after round, until the Monster falls. H shows what a careful player would do, \
               and why.",
        done: |g| g.combat().is_none() || g.is_over(),
    },
    Step {
        title: "Onward",
        text: "Well fought. Explore on to the Stair Guardian, defeat it and go deeper. F1 opens the rules at \
               what is on the table; F2 lists the keys.",
        done: |_| false,
    },
];

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Guide>();
    app.add_systems(Update, start_guided_game.in_set(PlaySystems::Rules));
    app.add_systems(
        Update,
        advance.in_set(PlaySystems::Sync).run_if(in_state(Screen::Playing).and_then(resource_exists::<Delve>)),
    );
    app.add_systems(OnEnter(Screen::Menu), |mut guide: ResMut<Guide>| guide.0 = None);
}

fn start_guided_game(
    mut actions: MessageReader<MenuAction>,
    mut starts: MessageWriter<StartGame>,
    mut guide: ResMut<Guide>,
) {
    for a in actions.read() {
        if *a == MenuAction::GuidedGame {
            starts.write(StartGame(GameOptions::standard(&["bren", "sil"], GUIDE_SEED)));
            guide.0 = Some(0);
        }
    }
}

/// Moves on past every step the table already shows done.
fn advance(delve: Res<Delve>, mut guide: ResMut<Guide>) {
    let Some(mut step) = guide.0 else { return };
    while step + 1 < STEPS.len() && (STEPS[step].done)(delve.game()) {
        step += 1;
    }
    if guide.0 != Some(step) {
        guide.0 = Some(step);
    }
}
