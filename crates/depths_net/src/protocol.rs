//! What travels between the host and the players: the messages, their size
//! limits, and the one place that turns them into bytes and back.
//!
//! Messages are JSON (the rules core's own save format is JSON, and every
//! `Action` already serializes): readable in a packet log, and any change of
//! a rules type stays compatible the way saves do. A message that does not
//! decode, or is larger than its direction allows, is an error naming why —
//! the receiver drops and logs it; nothing panics.

use depths_rules::{Action, Game};
use depths_table::seats::{Players, Turn};
use serde::{Deserialize, Serialize};

use crate::table::OnlineTable;

/// Raised whenever a message changes meaning; a player on another version is
/// told so at the door instead of misreading the table.
///
/// 2: Companions online. The host alone seats them and runs them; a seat
/// change is a numbered step among the actions ([`ToPlayer::Companion`]),
/// and the checksum covers the seats as well as the game and the turn.
pub const PROTOCOL_VERSION: u32 = 2;

/// The largest message a player may send. An `Action` is a few dozen bytes,
/// a join a name: anything near this is not a player's message.
pub const MAX_FROM_PLAYER: usize = 16 * 1024;

/// The largest message the host sends: a whole game (a late-game save is
/// tens of kilobytes) with room to spare.
pub const MAX_FROM_HOST: usize = 4 * 1024 * 1024;

/// The longest player name, in characters.
pub const MAX_NAME: usize = 24;

/// A player's message to the host.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToHost {
    /// Take a seat (or take one's seat back) under this name.
    Join { name: String, version: u32 },
    /// Please apply this action for me.
    Act(Action),
    /// My copy differs from yours: send me the whole table.
    Resync,
    /// Let a Companion play Hero `hero` (`on`), or give it back. Only the
    /// host seats Companions: a player's ask is always refused, with why.
    SetCompanion { hero: u8, on: bool },
}

/// The host's message to a player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToPlayer {
    /// You sit at seat `seat`.
    Welcome { seat: usize },
    /// Who is at the table (sent whenever that changes).
    Lobby(Lobby),
    /// The whole table: at the start, on a rejoin, on a resync.
    Snapshot(Snapshot),
    /// The host applied `action` (the `seq`-th since the start) for seat
    /// `seat`; after applying it too, a copy's checksum must be `checksum`.
    /// `companion`: the move was a Companion's (the host runs them; `seat`
    /// is then 0), so a player's table can say so in its log.
    Applied {
        seq: u64,
        seat: usize,
        action: Action,
        checksum: u64,
        // Left out when false: a player's move costs no more bytes.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        companion: bool,
    },
    /// The host seated a Companion at Hero `hero` (`on`) or gave the seat
    /// back to its owner, as the `seq`-th step since the start: actions and
    /// seat changes share one count, so every copy takes the change at the
    /// same place among the actions (the turn order after it depends on
    /// it). After it a copy's checksum, which covers the seats, must be
    /// `checksum`; as with an action, a gap or a difference means a resync.
    /// A Companion's own moves come as [`ToPlayer::Applied`], for seat 0
    /// (the host runs every Companion).
    Companion { seq: u64, hero: u8, on: bool, checksum: u64 },
    /// Your message was not taken, and why (in words for the player).
    Refused { action: Option<Action>, reason: String },
}

/// The seats at an online table. Seat 0 is the host's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lobby {
    pub names: Vec<String>,
    /// Per seat: connected now (the host always is).
    pub online: Vec<bool>,
    /// Per seat: another seat acting for it while its player is away.
    pub stand_ins: Vec<Option<usize>>,
    /// The game has begun (no new seats after that).
    pub started: bool,
}

impl Lobby {
    /// The seats the table waits for: away, and nobody standing in for them.
    /// A client shows this as a banner ("Waiting for Bo…"); the host refuses
    /// every action meanwhile, so nobody plays an absent player's Heroes.
    pub fn waiting_for(&self) -> Vec<usize> {
        (0..self.names.len())
            .filter(|&s| !self.online.get(s).copied().unwrap_or(false) && self.stand_in(s).is_none())
            .collect()
    }

    pub fn stand_in(&self, seat: usize) -> Option<usize> {
        self.stand_ins.get(seat).copied().flatten()
    }

    /// The seats `seat` may act as: its own, then those it stands in for.
    pub fn acts_as(&self, seat: usize) -> Vec<usize> {
        let mut seats = vec![seat];
        seats.extend((0..self.names.len()).filter(|&s| s != seat && self.stand_in(s) == Some(seat)));
        seats
    }

    /// The seats the table waits for at a game with these `players`: those
    /// of [`Lobby::waiting_for`] that still play a Hero themselves. A seat
    /// whose every Hero the host gave to a Companion has nothing to do.
    pub fn waiting_for_at(&self, players: &Players) -> Vec<usize> {
        let heroes = players.owners.len() as u8;
        let plays = |s: usize| (0..heroes).any(|h| players.owner(h) == s && !players.is_companion(h));
        self.waiting_for().into_iter().filter(|&s| plays(s)).collect()
    }

    pub fn name(&self, seat: usize) -> &str {
        self.names.get(seat).map_or("?", String::as_str)
    }
}

/// The whole table: the rules core's save (its own versioned JSON, checked
/// on load), the seats' Heroes and the turn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub seq: u64,
    pub game: String,
    pub players: Players,
    pub turn: Turn,
}

impl Snapshot {
    pub fn of(table: &OnlineTable) -> Snapshot {
        Snapshot {
            seq: table.seq,
            game: table.game.save_json(),
            players: table.players.clone(),
            turn: table.turn.clone(),
        }
    }

    /// The table it describes, or why the save inside does not load.
    pub fn table(&self) -> Result<OnlineTable, String> {
        let game = Game::load_json(&self.game).map_err(|e| format!("the host's game does not load here: {e}"))?;
        Ok(OnlineTable { game, players: self.players.clone(), turn: self.turn.clone(), seq: self.seq })
    }
}

/// Why bytes from the network were not a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireError {
    TooLarge { len: usize, max: usize },
    Malformed(String),
}

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WireError::TooLarge { len, max } => write!(f, "a message of {len} bytes is over the limit of {max}"),
            WireError::Malformed(why) => write!(f, "not a message of this game: {why}"),
        }
    }
}

impl std::error::Error for WireError {}

pub fn encode<T: Serialize>(message: &T) -> Vec<u8> {
    serde_json::to_vec(message).expect("protocol messages always serialize")
}

fn decode<'a, T: Deserialize<'a>>(bytes: &'a [u8], max: usize) -> Result<T, WireError> {
    if bytes.len() > max {
        return Err(WireError::TooLarge { len: bytes.len(), max });
    }
    serde_json::from_slice(bytes).map_err(|e| WireError::Malformed(e.to_string()))
}

/// A player's message, as the host reads it.
pub fn decode_to_host(bytes: &[u8]) -> Result<ToHost, WireError> {
    decode(bytes, MAX_FROM_PLAYER)
}

/// The host's message, as a player reads it.
pub fn decode_to_player(bytes: &[u8]) -> Result<ToPlayer, WireError> {
    decode(bytes, MAX_FROM_HOST)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_and_bad_bytes_are_errors_not_panics() {
        let m = ToHost::Act(Action::DrawTile);
        assert_eq!(decode_to_host(&encode(&m)), Ok(m));
        assert!(matches!(decode_to_host(b"\xff\x00garbage"), Err(WireError::Malformed(_))));
        assert!(matches!(decode_to_host(&vec![b' '; MAX_FROM_PLAYER + 1]), Err(WireError::TooLarge { .. })));
        assert!(matches!(decode_to_player(b"{\"Applied\":{}}"), Err(WireError::Malformed(_))));
    }

    #[test]
    fn the_table_waits_for_an_away_seat_until_someone_stands_in() {
        let mut lobby = Lobby {
            names: vec!["Ann".into(), "Bo".into(), "Cy".into()],
            online: vec![true, false, true],
            stand_ins: vec![None; 3],
            started: true,
        };
        assert_eq!(lobby.waiting_for(), vec![1]);
        lobby.stand_ins[1] = Some(0);
        assert!(lobby.waiting_for().is_empty());
        assert_eq!(lobby.acts_as(0), vec![0, 1]);
        assert_eq!(lobby.acts_as(2), vec![2]);
    }

    #[test]
    fn the_table_does_not_wait_for_a_seat_whose_heroes_companions_play() {
        let lobby = Lobby {
            names: vec!["Ann".into(), "Bo".into()],
            online: vec![true, false],
            stand_ins: vec![None; 2],
            started: true,
        };
        let mut players = Players { names: lobby.names.clone(), owners: vec![0, 1, 1], ..Players::default() };
        assert_eq!(lobby.waiting_for_at(&players), vec![1]);
        players.set_companion(1, true, 3);
        assert_eq!(lobby.waiting_for_at(&players), vec![1], "Bo still plays Ava");
        players.set_companion(2, true, 3);
        assert!(lobby.waiting_for_at(&players).is_empty());
    }

    #[test]
    fn a_seat_change_round_trips() {
        let m = ToPlayer::Companion { seq: 4, hero: 2, on: true, checksum: 9 };
        assert_eq!(decode_to_player(&encode(&m)), Ok(m));
        for companion in [false, true] {
            let m = ToPlayer::Applied { seq: 1, seat: 0, action: Action::DrawTile, checksum: 2, companion };
            assert_eq!(decode_to_player(&encode(&m)), Ok(m));
        }
        let ask = ToHost::SetCompanion { hero: 1, on: false };
        assert_eq!(decode_to_host(&encode(&ask)), Ok(ask));
    }
}
