//! Hot-seat play: 1–3 named players share the table, each owning some Heroes.
//!
//! Who must act is worked out from the rules' [`Game::phase`]: in a Combat
//! step every Hero with something left to do may act, in any order ("All
//! Heroes perform each Step simultaneously"), so every player owning one of
//! them may act; the player at the table keeps it while any of their Heroes
//! may act, and may pass it on earlier. A Hero's own decision (an Item, an
//! Ability, cards to remove) belongs to that Hero's owner, and everything else
//! to the player whose turn it is to explore. Exploring turns rotate at the
//! table (the rules core has no players): a turn is one tile drawn and placed,
//! or an Encounter, and passes on once the table is quiet again (Exploring with
//! no decision and no tile in hand). With Companions at the table
//! (`companions.rs`) the turns go round the seats: each player who plays a
//! Hero themselves, then each Companion.
//!
//! The game's information is open, so the pass-the-device curtain is off
//! unless the players switch it on (on the setup screen or in ⚙ Settings).
//! With it on, it comes up only when control passes to another player, and
//! never straight over the result of the move that passed it: the player who
//! acted sees the outcome, then presses "Pass to …" (or tries to act
//! again, which hands over instead). The next player lifts it.
//!
//! The seats, turns and who-must-act rules are `depths_seats::seats` (online
//! play uses the same ones); this file keeps the Bevy side: the curtain, the
//! hand-overs and their messages.

use bevy::prelude::*;
use depths_rules::{Action, CombatStep, Game, Phase};
// The seats and turns themselves are pure rules of the table, shared with
// online play: one copy, in `depths_seats`.
pub use depths_seats::seats::{
    Acting, Players, Seat, Turn, acting, action_hero, after_events, heroes_to_act, players_heroes_to_act,
    players_to_act, seats_may_take,
};

use crate::{
    PlaySystems,
    game::session::{Delve, SaveSlot, Seats},
};

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

impl Seats {
    /// Who must act now.
    pub fn acting(&self, game: &Game) -> Acting {
        acting(game, &self.players, &self.turn)
    }

    /// Whether the table is passed between players behind a curtain.
    pub fn uses_curtain(&self) -> bool {
        self.players.curtain && self.players.count() >= 2
    }

    /// The player the curtain asks for, if it is down: at the start, or
    /// once the player who acted has handed over.
    pub fn curtain(&self, game: &Game) -> Option<usize> {
        if !self.uses_curtain() || game.is_over() {
            return None;
        }
        // A choice made together hides nothing: whoever is at the table makes it.
        if made_together(game) && self.turn.shown_to.is_some() && !self.turn.handing_over {
            return None;
        }
        let who = self.acting(game).player;
        (self.turn.shown_to != Some(who) && (self.turn.shown_to.is_none() || self.turn.handing_over)).then_some(who)
    }

    /// The player the table should pass to, while the one who acted still
    /// looks at the result (the banner offers "Pass to …").
    pub fn hand_off_due(&self, game: &Game) -> Option<usize> {
        if !self.uses_curtain() || game.is_over() || self.turn.handing_over || made_together(game) {
            return None;
        }
        let who = self.acting(game).player;
        (self.turn.shown_to.is_some_and(|p| p != who)).then_some(who)
    }

    /// An action tried while a hand-off is due is the previous player's
    /// next input: it brings the curtain up instead of acting for the next
    /// player. Returns whether the input was taken for that.
    pub fn hand_over_instead(&mut self, game: &Game) -> bool {
        if self.hand_off_due(game).is_none() {
            return false;
        }
        self.turn.handing_over = true;
        true
    }

    /// The Heroes the player at the table may act for in this Combat step,
    /// when the curtain keeps each player to their own Heroes; `None` when
    /// anyone may act for any Hero (no curtain, or outside Combat).
    pub fn heroes_at_table(&self, game: &Game) -> Option<Vec<u8>> {
        if !matches!(game.phase(), Phase::Combat { .. }) {
            return None;
        }
        // Online, this machine's seats; at one screen, the player at it.
        let players = match self.seat {
            Some(_) => self.online_seats(),
            None if self.uses_curtain() && made_together(game) => return None,
            None if self.uses_curtain() => vec![self.acting(game).player],
            None => return None,
        };
        Some((0..game.heroes.len() as u8).filter(|&h| players.contains(&self.players.owner(h))).collect())
    }

    /// Online: the seats this machine plays for (its own, and any it stands in for).
    fn online_seats(&self) -> Vec<usize> {
        match self.seat {
            Some(seat) if !self.acts_as.contains(&seat) => vec![seat],
            Some(_) => self.acts_as.clone(),
            None => Vec::new(),
        }
    }

    /// Online: why this machine may not take `action` now as far as the
    /// seats go, in the host's own words and by the host's own test (the
    /// table waits for nobody; the seat, or one it stands in for, may make
    /// the move), so the table greys it and nothing is refused after a round
    /// trip. `None` when it may, and always at one screen.
    pub fn online_refusal(&self, game: &Game, action: &Action) -> Option<String> {
        self.seat?;
        if let Some(down) = &self.link_down {
            return Some(down.clone());
        }
        if !self.waiting_for.is_empty() {
            return Some(format!("The table waits for {} to come back.", self.waiting_for.join(" and ")));
        }
        let why = seats_may_take(game, &self.players, &self.turn, &self.online_seats(), action).err()?;
        Some(format!("{}.", crate::game::words::capitalise(&why)))
    }

    /// "Ann (Bren)" — the player who must act, and the Hero if one is named;
    /// "Ann (Bren) · Bo (Sil)" when several players' Heroes may act.
    /// The players a choice made together touches, in seat order: the
    /// owners of the Heroes who may avoid Return Damage, or of every Hero
    /// the Monsters are assigned to; none outside those steps.
    pub fn sharing(&self, game: &Game) -> Vec<usize> {
        let heroes: Vec<u8> = match (game.phase(), game.combat()) {
            (Phase::Combat { step: CombatStep::AvoidReturnDamage }, _) => game
                .legal_actions()
                .iter()
                .filter_map(|a| match a {
                    Action::AvoidReturnDamage { hero } => Some(*hero),
                    _ => None,
                })
                .collect(),
            (Phase::Combat { step: CombatStep::AssignMonsters }, Some(_)) => (0..game.heroes.len() as u8).collect(),
            _ => Vec::new(),
        };
        let mut players: Vec<usize> =
            heroes.into_iter().filter(|&h| !self.players.is_companion(h)).map(|h| self.players.owner(h)).collect();
        players.sort_unstable();
        players.dedup();
        players
    }

    pub fn acting_text(&self, game: &Game) -> String {
        let hero = |h: &u8| game.heroes.get(usize::from(*h)).map_or("?", |h| h.name());
        let all = players_to_act(game, &self.players, &self.turn);
        let mut parts: Vec<String> = all
            .iter()
            .map(|(p, heroes)| {
                let names: Vec<&str> = heroes.iter().map(hero).collect();
                format!("{} ({})", self.players.name(*p), names.join(", "))
            })
            .collect();
        let companions: Vec<&str> =
            heroes_to_act(game).iter().filter(|&&h| self.players.is_companion(h)).map(hero).collect();
        if !companions.is_empty() {
            parts.push(format!("Companion ({})", companions.join(", ")));
        }
        if parts.is_empty() {
            if let Some(h) = self.turn.companion {
                return format!("Companion {}", hero(&h));
            }
            // A choice the players make together names every player it
            // touches ("choose who avoids Return Damage" named only Ann
            // while Bo's Sil was one to choose).
            let shared = self.sharing(game);
            if shared.len() > 1 {
                let names: Vec<&str> = shared.iter().map(|&p| self.players.name(p)).collect();
                return crate::game::words::and_list(&names);
            }
            // "Ann (Bren)": whose turn, and with which Heroes.
            let p = self.acting(game).player;
            let own: Vec<&str> = (0..game.heroes.len() as u8)
                .filter(|&h| self.players.owner(h) == p && !self.players.is_companion(h))
                .map(|h| hero(&h))
                .collect();
            let name = self.players.name(p);
            return if own.is_empty() || self.players.count() < 2 {
                name.to_owned()
            } else {
                format!("{name} ({})", own.join(", "))
            };
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
    delve: Option<Res<Delve>>,
    seats: Option<ResMut<Seats>>,
    saves: Option<ResMut<SaveSlot>>,
) {
    let (Some(delve), Some(mut seats), Some(mut saves)) = (delve, seats, saves) else {
        passes.clear();
        lifts.clear();
        hand_overs.clear();
        switches.clear();
        return;
    };
    let game = delve.game();
    for SetCurtain(on) in switches.read() {
        seats.players.curtain = *on;
        // Switched on at the table: whoever must act is the one there now,
        // so nothing is hidden until the table next changes hands.
        let who = seats.acting(game).player;
        seats.turn.shown_to = Some(who);
        seats.turn.handing_over = false;
        seats.turn.pass_to = None;
        saves.due = true;
    }
    for PassTable(player) in passes.read() {
        // Only to a player who owns a Hero that may act now.
        if players_heroes_to_act(game, &seats.players).iter().any(|&h| seats.players.owner(h) == *player) {
            seats.turn.pass_to = Some(*player);
            seats.turn.handing_over = true;
        }
    }
    if hand_overs.read().count() > 0 && seats.hand_off_due(game).is_some() {
        seats.turn.handing_over = true;
    }
    // The table came back to the player at it (an undo, say): nothing to hand over.
    if seats.turn.handing_over && seats.turn.shown_to == Some(seats.acting(game).player) {
        seats.turn.handing_over = false;
    }
    if lifts.read().count() > 0 {
        let who = seats.acting(game).player;
        seats.turn.shown_to = Some(who);
        seats.turn.pass_to = None;
        seats.turn.handing_over = false;
    }
}

/// A choice the players make together, at one screen: which Monster card
/// each Hero fights, who avoids Return Damage. It shows no hand, so the
/// player at the table makes it without passing it (the pass screen came up
/// for it, to hand the table to a player whose Hero it named).
pub fn made_together(game: &Game) -> bool {
    matches!(game.phase(), Phase::Combat { step: CombatStep::AvoidReturnDamage | CombatStep::AssignMonsters })
}

/// The banner: the player (and Hero) who must act, and what they must do.
pub fn banner_line(game: &Game, seats: &Seats) -> String {
    let solo = seats.players.count() < 2 && seats.players.names.first().is_none_or(|n| n == "Player 1");
    // Alone at the table, a Companion's Exploring turn is still named: "place
    // the drawn tile" with no name read as the player's own, tray and all.
    let companion = seats.turn.companion.filter(|_| matches!(game.phase(), Phase::Exploring { .. }));
    if let (false, true, Some(h)) = (game.is_over(), solo, companion) {
        let name = game.heroes.get(usize::from(h)).map_or("?", |x| x.name());
        return format!("▶ Companion {name} — {}", crate::game::words::banner(game));
    }
    let companions: Vec<u8> = (0..game.heroes.len() as u8).filter(|&h| seats.players.is_companion(h)).collect();
    if game.is_over() || solo {
        return crate::game::words::banner_with(game, &companions);
    }
    // The Companions are named in the acting part ("Companion (Sil)").
    let rules_words = crate::game::words::banner_of_players(game, &companions);
    format!("▶ {} — {rules_words}", seats.acting_text(game))
}
