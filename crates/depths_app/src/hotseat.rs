//! Hot-seat play: 1–3 named players share the table, each owning some Heroes.
//!
//! Who must act is worked out from the rules' [`Game::phase`]: in a Combat
//! step every Hero with something left to do may act, in any order ("All
//! Heroes perform each Step simultaneously"), so every player owning one of
//! them may act; the player at the table keeps it while any of their Heroes
//! may act, and may pass it on earlier. A Hero's own decision (an Item, an
//! Ability, cards to remove) belongs to that Hero's owner, and everything else
//! to the player whose turn it is to explore. Exploring turns rotate in the
//! client (the rules core has no players): a turn is one tile drawn and placed,
//! or an Encounter, and passes on once the table is quiet again (Exploring with
//! no decision and no tile in hand). With Companions at the table
//! (`companions.rs`) the turns go round the seats: each player who plays a
//! Hero themselves, then each Companion.
//!
//! The game's information is open, so the pass-the-device curtain is off
//! unless the players switch it on (on the setup screen or in ⚙ Settings).
//! With it on, it comes up only when control passes to another player, and
//! never straight over the result of the move that passed it: the player who
//! acted sees the outcome, then presses "Pass to <player>" (or tries to act
//! again, which hands over instead). The next player lifts it.

use bevy::{prelude::*, window::RequestRedraw};
use depths_rules::{Action, Decision, Event, Game, Phase};
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
    /// Per Hero (in the game's Hero order): a Companion plays it for its
    /// owner (`companions.rs`). Saves from before Companions have none.
    #[serde(default)]
    pub companions: Vec<bool>,
}

impl Default for Players {
    /// One player who plays every Hero, no curtain.
    fn default() -> Self {
        Players { names: vec!["Player 1".into()], owners: Vec::new(), curtain: false, companions: Vec::new() }
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

    /// Whether a Companion plays Hero `hero`.
    pub fn is_companion(&self, hero: u8) -> bool {
        self.companions.get(usize::from(hero)).copied().unwrap_or(false)
    }

    /// Seats or unseats a Companion for Hero `hero` (of `heroes`).
    pub fn set_companion(&mut self, hero: u8, on: bool, heroes: usize) {
        if self.companions.len() < heroes {
            self.companions.resize(heroes, false);
        }
        if let Some(c) = self.companions.get_mut(usize::from(hero)) {
            *c = on;
        }
    }

    /// The seats that take Exploring turns, in turn order, in a game of
    /// `heroes` Heroes: each player who plays a Hero themselves, then each
    /// Companion. Without Companions, every player.
    pub fn seats(&self, heroes: usize) -> Vec<Seat> {
        let heroes = heroes as u8;
        if !(0..heroes).any(|h| self.is_companion(h)) {
            return (0..self.count()).map(Seat::Player).collect();
        }
        let mut seats: Vec<Seat> = (0..self.count())
            .filter(|&p| (0..heroes).any(|h| self.owner(h) == p && !self.is_companion(h)))
            .map(Seat::Player)
            .collect();
        seats.extend((0..heroes).filter(|&h| self.is_companion(h)).map(Seat::Companion));
        seats
    }
}

/// Who takes an Exploring turn: a player, or the Companion playing a Hero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seat {
    Player(usize),
    Companion(u8),
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
    /// In a Combat step, the player the table was passed to before the one
    /// at it had finished (until they lift the curtain).
    #[serde(default)]
    pub pass_to: Option<usize>,
    /// The player who acted has handed the table on: the curtain is down
    /// until the next player lifts it.
    #[serde(default)]
    pub handing_over: bool,
    /// The Exploring turn is this Companion's (its Hero's index); `player`
    /// is then the Hero's owner.
    #[serde(default)]
    pub companion: Option<u8>,
}

impl Turn {
    /// The seat whose Exploring turn it is.
    pub fn seat(&self) -> Seat {
        self.companion.map_or(Seat::Player(self.player), Seat::Companion)
    }

    /// Gives the Exploring turn to `seat`.
    pub fn set_seat(&mut self, seat: Seat, players: &Players) {
        match seat {
            Seat::Player(p) => {
                self.player = p;
                self.companion = None;
            }
            Seat::Companion(h) => {
                self.player = players.owner(h);
                self.companion = Some(h);
            }
        }
    }
}

/// Who must act now: a player, and the Hero they act for if one is named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Acting {
    pub player: usize,
    pub hero: Option<u8>,
}

/// The Heroes whose own choice the game waits for, in Hero order: in a Combat
/// step every Hero who still has something to do (any of them may act next);
/// outside Combat the Hero a decision names, if any.
pub fn heroes_to_act(game: &Game) -> Vec<u8> {
    let phase = game.phase();
    if let Phase::Combat { .. } = phase {
        return game.combat().map_or_else(Vec::new, |c| c.heroes_to_act());
    }
    match phase.decision() {
        Some(
            Decision::ChooseItem { hero }
            | Decision::RemoveCards { hero, .. }
            | Decision::ChooseAbility { hero }
            | Decision::ChooseAbilityDraw { hero },
        ) => vec![hero],
        _ => Vec::new(),
    }
}

/// The Hero a Combat action is taken for (the players' joint choices, such
/// as assigning Monsters or who avoids Return Damage, name none).
pub fn action_hero(action: &Action) -> Option<u8> {
    match action {
        Action::PlayCard { hero, .. }
        | Action::PlaceMonsterCard { hero, .. }
        | Action::ActivateAbility { hero, .. }
        | Action::ChoosePair { hero, .. }
        | Action::EndTurn { hero }
        | Action::AssignDamage { hero, .. } => Some(*hero),
        _ => None,
    }
}

/// Who must act in `game` with these players and this turn. When several
/// Heroes may act, the player the table was passed to, else the player at
/// the table, else the player whose turn it is keeps it while one of their
/// Heroes may act; otherwise the owner of the first Hero to act.
pub fn acting(game: &Game, players: &Players, turn: &Turn) -> Acting {
    // A Companion needs nobody at the table: its Heroes are left out, and
    // its turn stays with the player at the table.
    let heroes = players_heroes_to_act(game, players);
    let Some(&first) = heroes.first() else {
        let companions_only = turn.companion.is_some() || !heroes_to_act(game).is_empty();
        let player = if companions_only { turn.shown_to.unwrap_or(turn.player) } else { turn.player };
        return Acting { player: player.min(players.count() - 1), hero: None };
    };
    [turn.pass_to, turn.shown_to, Some(turn.player)]
        .into_iter()
        .flatten()
        .find_map(|p| heroes.iter().find(|&&h| players.owner(h) == p).map(|&h| Acting { player: p, hero: Some(h) }))
        .unwrap_or(Acting { player: players.owner(first), hero: Some(first) })
}

/// Every player who may act now with the Heroes they act for, the player
/// [`acting`] names first; empty when no Hero is named (the turn's player acts).
pub fn players_to_act(game: &Game, players: &Players, turn: &Turn) -> Vec<(usize, Vec<u8>)> {
    let heroes = players_heroes_to_act(game, players);
    if heroes.is_empty() {
        return Vec::new();
    }
    let first = acting(game, players, turn).player;
    let mut order: Vec<usize> = vec![first];
    for &h in &heroes {
        let p = players.owner(h);
        if !order.contains(&p) {
            order.push(p);
        }
    }
    order.into_iter().map(|p| (p, heroes.iter().copied().filter(|&h| players.owner(h) == p).collect())).collect()
}

/// The Heroes to act ([`heroes_to_act`]) that players play, not Companions.
fn players_heroes_to_act(game: &Game, players: &Players) -> Vec<u8> {
    heroes_to_act(game).into_iter().filter(|&h| !players.is_companion(h)).collect()
}

/// Nothing is going on: Exploring, no decision, no tile in hand.
fn quiet(game: &Game) -> bool {
    matches!(game.phase(), Phase::Exploring { tile_in_hand: false, decision: None })
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
        let seats = players.seats(game.heroes.len());
        let next = seats.iter().position(|s| *s == turn.seat()).map_or(0, |i| (i + 1) % seats.len());
        turn.set_seat(seats[next], players);
    }
}

/// Lift the curtain: the player who must act has come to the table.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct LiftCurtain;

/// "Pass to …" pressed: the player who acted has seen the result and hands over.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandOver;

/// Switch the pass-the-device curtain on or off for this game.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetCurtain(pub bool);

/// In a Combat step, hand the table to this player (who owns a Hero that may
/// act) before the player at it has finished: one may wait for an ally.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassTable(pub usize);

impl Session {
    /// Who must act now.
    pub fn acting(&self) -> Acting {
        acting(&self.game, &self.players, &self.turn)
    }

    /// Whether the table is passed between players behind a curtain.
    pub fn uses_curtain(&self) -> bool {
        self.players.curtain && self.players.count() >= 2
    }

    /// The player the curtain asks for, if it is down: at the start, or
    /// once the player who acted has handed over.
    pub fn curtain(&self) -> Option<usize> {
        if !self.uses_curtain() || self.game.is_over() {
            return None;
        }
        let who = self.acting().player;
        (self.turn.shown_to != Some(who) && (self.turn.shown_to.is_none() || self.turn.handing_over)).then_some(who)
    }

    /// The player the table should pass to, while the one who acted still
    /// looks at the result (the banner offers "Pass to …").
    pub fn hand_off_due(&self) -> Option<usize> {
        if !self.uses_curtain() || self.game.is_over() || self.turn.handing_over {
            return None;
        }
        let who = self.acting().player;
        (self.turn.shown_to.is_some_and(|p| p != who)).then_some(who)
    }

    /// An action tried while a hand-off is due is the previous player's
    /// next input: it brings the curtain up instead of acting for the next
    /// player. Returns whether the input was taken for that.
    pub fn hand_over_instead(&mut self) -> bool {
        if self.hand_off_due().is_none() {
            return false;
        }
        self.turn.handing_over = true;
        true
    }

    /// The Heroes the player at the table may act for in this Combat step,
    /// when the curtain keeps each player to their own Heroes; `None` when
    /// anyone may act for any Hero (no curtain, or outside Combat).
    pub fn heroes_at_table(&self) -> Option<Vec<u8>> {
        if !self.uses_curtain() || !matches!(self.game.phase(), Phase::Combat { .. }) {
            return None;
        }
        let player = self.acting().player;
        Some((0..self.game.heroes.len() as u8).filter(|&h| self.players.owner(h) == player).collect())
    }

    /// "Ann (Bren)" — the player who must act, and the Hero if one is named;
    /// "Ann (Bren) · Bo (Sil)" when several players' Heroes may act.
    pub fn acting_text(&self) -> String {
        let hero = |h: &u8| self.game.heroes.get(usize::from(*h)).map_or("?", |h| h.name());
        let all = players_to_act(&self.game, &self.players, &self.turn);
        let mut parts: Vec<String> = all
            .iter()
            .map(|(p, heroes)| {
                let names: Vec<&str> = heroes.iter().map(hero).collect();
                format!("{} ({})", self.players.name(*p), names.join(", "))
            })
            .collect();
        let companions: Vec<&str> =
            heroes_to_act(&self.game).iter().filter(|&&h| self.players.is_companion(h)).map(hero).collect();
        if !companions.is_empty() {
            parts.push(format!("Companion ({})", companions.join(", ")));
        }
        if parts.is_empty() {
            if let Some(h) = self.turn.companion {
                return format!("Companion {}", hero(&h));
            }
            return self.players.name(self.acting().player).to_owned();
        }
        parts.join(" · ")
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Players>();
    app.add_message::<LiftCurtain>();
    app.add_message::<PassTable>();
    app.add_message::<HandOver>();
    app.add_message::<SetCurtain>();
    app.add_systems(Update, seat_messages.in_set(PlaySystems::Rules));
}

/// The table passed on early, or the curtain lifted by the player it asked for.
fn seat_messages(
    mut passes: MessageReader<PassTable>,
    mut lifts: MessageReader<LiftCurtain>,
    mut hand_overs: MessageReader<HandOver>,
    mut switches: MessageReader<SetCurtain>,
    session: Option<ResMut<Session>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let Some(mut session) = session else {
        passes.clear();
        lifts.clear();
        hand_overs.clear();
        switches.clear();
        return;
    };
    for SetCurtain(on) in switches.read() {
        session.players.curtain = *on;
        // Switched on at the table: whoever must act is the one there now,
        // so nothing is hidden until the table next changes hands.
        let who = session.acting().player;
        session.turn.shown_to = Some(who);
        session.turn.handing_over = false;
        session.turn.pass_to = None;
        session.save_due = true;
        redraw.write(RequestRedraw);
    }
    for PassTable(player) in passes.read() {
        // Only to a player who owns a Hero that may act now.
        if players_heroes_to_act(&session.game, &session.players).iter().any(|&h| session.players.owner(h) == *player) {
            session.turn.pass_to = Some(*player);
            session.turn.handing_over = true;
            redraw.write(RequestRedraw);
        }
    }
    if hand_overs.read().count() > 0 && session.hand_off_due().is_some() {
        session.turn.handing_over = true;
        redraw.write(RequestRedraw);
    }
    // The table came back to the player at it (an undo, say): nothing to hand over.
    if session.turn.handing_over && session.turn.shown_to == Some(session.acting().player) {
        session.turn.handing_over = false;
    }
    if lifts.read().count() > 0 {
        let who = session.acting().player;
        session.turn.shown_to = Some(who);
        session.turn.pass_to = None;
        session.turn.handing_over = false;
        redraw.write(RequestRedraw);
    }
}
