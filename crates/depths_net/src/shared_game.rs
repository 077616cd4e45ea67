//! The state every copy of an online game keeps — the host's, which is the
//! truth, and each player's — and the one way it moves on, so the copies
//! cannot drift apart by running different code.

use depths_rules::{Action, Event, Game, History, RuleError, UndoRefused};
use depths_seats::seats::{Players, Turn, after_events, seat_companion};

/// A game at an online table: the rules state, the seats' Heroes, whose
/// Exploring turn it is, and how many steps (actions, seat changes, moves
/// taken back) were taken since the start.
#[derive(Clone, Debug)]
pub struct SharedGame {
    pub game: Game,
    pub players: Players,
    pub turn: Turn,
    pub seq: u64,
    /// The moves since the last reveal, to take back; with each, the turn
    /// before it and the seat that made it (`None`: a Companion). A copy
    /// that joined by a whole table starts with none (a rewind it cannot
    /// make asks for the host's table, as any difference does).
    history: History,
    moves: Vec<(Turn, Option<usize>)>,
}

/// Two copies are equal when their state is: the game, the seats, the turn
/// and the count (what the checksum covers). What each can take back is
/// not state: a copy that joined by a whole table has less of it.
impl PartialEq for SharedGame {
    fn eq(&self, other: &Self) -> bool {
        (&self.game, &self.players, &self.turn, self.seq) == (&other.game, &other.players, &other.turn, other.seq)
    }
}

impl SharedGame {
    pub fn new(game: Game, players: Players) -> SharedGame {
        SharedGame::at(game, players, Turn::default(), 0)
    }

    /// A table as a snapshot describes it: nothing to take back yet.
    pub fn at(game: Game, players: Players, turn: Turn, seq: u64) -> SharedGame {
        SharedGame { game, players, turn, seq, history: History::default(), moves: Vec::new() }
    }

    /// Applies `action` (made by seat `by`; `None`: a Companion) to the
    /// rules and moves the turn on, exactly as the hot-seat table does.
    pub fn apply(&mut self, action: Action, by: Option<usize>) -> Result<Vec<Event>, RuleError> {
        let turn = self.turn.clone();
        let events = self.history.apply(&mut self.game, action)?;
        // The history keeps a move only if it revealed nothing; a reveal starts afresh.
        if self.history.undoable() == 0 {
            self.moves.clear();
        } else {
            self.moves.push((turn, by));
        }
        after_events(&self.game, &self.players, &mut self.turn, &events);
        self.seq += 1;
        Ok(events)
    }

    /// The seat that made the move a take-back would undo (`None`: a
    /// Companion), or why nothing can be taken back.
    pub fn last_move_by(&self) -> Result<Option<usize>, UndoRefused> {
        self.history.next_undo()?;
        Ok(self.moves.last().expect("one per undoable move").1)
    }

    /// Takes back the last move as the next numbered step, if it revealed
    /// nothing (who may ask is the host's to judge). Returns the move taken
    /// back; refused, nothing changes.
    pub fn take_back(&mut self) -> Result<Action, UndoRefused> {
        let action = self.history.undo(&mut self.game)?;
        let (turn, _) = self.moves.pop().expect("one per undoable move");
        self.turn = turn;
        self.seq += 1;
        Ok(action)
    }

    /// Seats a Companion at Hero `hero` (`on`) or gives the seat back, as a
    /// numbered step like an action: the turn order depends on it, so every
    /// copy takes it at the same place among the actions
    /// (`depths_seats::seats::seat_companion`). `Ok(false)`: nothing changed
    /// and no step was taken.
    pub fn seat_companion(&mut self, hero: u8, on: bool) -> Result<bool, String> {
        let heroes = self.game.heroes.len();
        let changed = seat_companion(&mut self.players, &mut self.turn, heroes, hero, on)?;
        if changed {
            self.seq += 1;
            // The turns after a move depend on the seats: no taking back across a change.
            self.history = History::default();
            self.moves.clear();
        }
        Ok(changed)
    }

    /// A stable 64-bit digest of the game, the turn and the seats (who plays
    /// which Hero, the Companions: they decide the turn order): FNV-1a over
    /// their JSON. The JSON is deterministic (the map's only HashMap is derived data
    /// and not saved), and FNV is fixed by definition, unlike std's hasher,
    /// so a host and a player on different builds agree.
    pub fn checksum(&self) -> u64 {
        let mut hash = Fnv::default();
        hash.write(self.game.save_json().as_bytes());
        hash.write(serde_json::to_string(&self.turn).expect("a turn serializes").as_bytes());
        hash.write(serde_json::to_string(&self.players).expect("the seats serialize").as_bytes());
        hash.0
    }
}

struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use depths_rules::{Content, GameOptions};

    use super::*;

    #[test]
    fn the_checksum_follows_the_state_and_only_the_state() {
        let game = Game::new(GameOptions::standard(&["bren", "sil"], 3), Content::builtin().unwrap()).unwrap();
        let a = SharedGame::new(game, Players::default());
        let mut b = SharedGame::new(Game::load_json(&a.game.save_json()).unwrap(), Players::default());
        assert_eq!(a.checksum(), b.checksum(), "a loaded copy hashes the same");
        b.apply(Action::DrawTile, Some(0)).unwrap();
        assert_ne!(a.checksum(), b.checksum(), "a move changes it");
        let mut c = a.clone();
        c.apply(Action::DrawTile, Some(0)).unwrap();
        assert_eq!(b.checksum(), c.checksum(), "the same move on two copies agrees");
        let mut d = a.clone();
        assert_eq!(d.seat_companion(1, true), Ok(true));
        assert_ne!(a.checksum(), d.checksum(), "a Companion seated changes it");
        assert_eq!((d.seq, d.seat_companion(1, true)), (1, Ok(false)), "a step, once");
        d.seat_companion(1, false).unwrap();
        assert_eq!(d.seq, 2);
        assert!(!d.players.is_companion(1));
    }
}
