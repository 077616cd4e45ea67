//! Hot-seat play: 1–3 named players share the table, each owning some Heroes.
//!
//! Who must act is worked out from the rules state: a Combat choice belongs to
//! the owner of `combat().acting_hero()`, a Hero's own decision (an Item, an
//! Ability, cards to remove) to that Hero's owner, and everything else to the
//! player whose turn it is to explore. Exploring turns rotate in the client
//! (the rules core has no players): a turn is one tile drawn and placed, or an
//! Encounter, and passes on once the table is quiet again (no decision, no
//! Combat, no tile in hand).
//!
//! With the curtain on, a "Pass to <player>" screen hides the hands whenever
//! the player who must act changes, until that player clicks.

use bevy::{prelude::*, window::RequestRedraw};
use depths_rules::{Event, Game, Pending, Phase};
use serde::{Deserialize, Serialize};

use crate::{PlaySystems, session::Session};

/// The players at the table, chosen on the setup screen.
#[derive(Resource, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Players {
    /// 1–3 names.
    pub names: Vec<String>,
    /// Per Hero (in the game's Hero order): the index of the player who owns it.
    pub owners: Vec<usize>,
    /// Show a "pass to …" screen between players.
    pub curtain: bool,
}

impl Default for Players {
    /// One player who plays every Hero, no curtain.
    fn default() -> Self {
        Players { names: vec!["Player 1".into()], owners: Vec::new(), curtain: false }
    }
}

impl Players {
    /// The player who owns Hero `hero` (the first player if it was not assigned).
    pub fn owner(&self, hero: u8) -> usize {
        self.owners.get(usize::from(hero)).copied().filter(|p| *p < self.names.len()).unwrap_or(0)
    }

    pub fn name(&self, player: usize) -> &str {
        self.names.get(player).map_or("Player 1", String::as_str)
    }

    pub fn count(&self) -> usize {
        self.names.len().max(1)
    }
}

/// The client-side turn: whose turn it is to explore and who has seen the table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// The player whose turn it is to draw a tile (or Encounter).
    pub player: usize,
    /// The turn's tile was placed or an Encounter chosen: the next player
    /// takes over once the table is quiet.
    pub over: bool,
    /// The player the hidden information was last shown to (curtain lifted).
    pub shown_to: Option<usize>,
}

/// Who must act now: a player, and the Hero they act for if one is named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Acting {
    pub player: usize,
    pub hero: Option<u8>,
}

/// The Hero whose own choice the game waits for, if any.
pub fn acting_hero(game: &Game) -> Option<u8> {
    if game.is_over() {
        return None;
    }
    if game.phase == Phase::Combat
        && let Some(c) = game.combat()
        && let Some(h) = c.acting_hero()
    {
        return Some(h);
    }
    match game.pending() {
        Some(
            Pending::ChooseItem { hero, .. }
            | Pending::RemoveCards { hero, .. }
            | Pending::ChooseAbility { hero, .. }
            | Pending::ChooseAbilityDraw { hero },
        ) => Some(*hero),
        _ => None,
    }
}

/// Who must act in `game` with these players and this turn.
pub fn acting(game: &Game, players: &Players, turn: &Turn) -> Acting {
    match acting_hero(game) {
        Some(h) => Acting { player: players.owner(h), hero: Some(h) },
        None => Acting { player: turn.player.min(players.count() - 1), hero: None },
    }
}

/// Nothing is going on: Exploring, no decision, no tile in hand.
fn quiet(game: &Game) -> bool {
    game.phase == Phase::Exploring
        && game.pending().is_none()
        && game.adventure().is_some_and(|a| a.ecology.drawn.is_none())
}

/// Moves the turn on after `events` were applied.
pub fn after_events(game: &Game, players: &Players, turn: &mut Turn, events: &[Event]) {
    if events.iter().any(|e| {
        matches!(
            e,
            Event::TilePlaced { .. }
                | Event::TileSetAside { .. }
                | Event::ElementEncountered { .. }
                | Event::LegendaryLocationEncountered { .. }
        )
    }) {
        turn.over = true;
    }
    if turn.over && quiet(game) {
        turn.over = false;
        turn.player = (turn.player + 1) % players.count();
    }
}

/// Lift the curtain: the player who must act has come to the table.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiftCurtain;

impl Session {
    /// Who must act now.
    pub fn acting(&self) -> Acting {
        acting(&self.game, &self.players, &self.turn)
    }

    /// The player the curtain asks for, if it is down.
    pub fn curtain(&self) -> Option<usize> {
        if !self.players.curtain || self.players.count() < 2 || self.game.is_over() {
            return None;
        }
        let who = self.acting().player;
        (self.turn.shown_to != Some(who)).then_some(who)
    }

    /// "Ann (Bren)" — the player who must act, and the Hero if one is named.
    pub fn acting_text(&self) -> String {
        let a = self.acting();
        let player = self.players.name(a.player);
        match a.hero.and_then(|h| self.game.heroes.get(usize::from(h))) {
            Some(hero) => format!("{player} ({})", hero.name()),
            None => player.to_owned(),
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Players>();
    app.add_message::<LiftCurtain>();
    app.add_systems(Update, lift_curtain.in_set(PlaySystems::Rules));
}

fn lift_curtain(
    mut lifts: MessageReader<LiftCurtain>,
    session: Option<ResMut<Session>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let Some(mut session) = session else {
        lifts.clear();
        return;
    };
    if lifts.read().count() > 0 {
        let who = session.acting().player;
        session.turn.shown_to = Some(who);
        redraw.write(RequestRedraw);
    }
}
