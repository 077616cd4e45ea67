//! What travels between the host and the players: the messages, their size
//! limits, and the one place that turns them into bytes and back.
//!
//! Messages are JSON (the rules core's own save format is JSON, and every
//! `Action` already serializes): readable in a packet log, and any change of
//! a rules type stays compatible the way saves do. A message that does not
//! decode, or is larger than its direction allows, is an error naming why —
//! the receiver drops and logs it; nothing panics.

use depths_rules::{Action, Game};
use depths_seats::seats::{Players, Turn};
use depths_seats::table_check::check_table;
use serde::{Deserialize, Serialize};

use crate::{invite::Admission, shared_game::SharedGame};

/// Raised whenever a message changes meaning; a player on another version is
/// told so at the door instead of misreading the table.
///
/// 2: Companions online. The host alone seats them and runs them; a seat
/// change is a numbered step among the actions ([`ToPlayer::Companion`]),
/// and the checksum covers the seats as well as the game and the turn.
///
/// 3: Private tables. Netcode's secure mode, keyed by the invite; a seat
/// secret in [`ToPlayer::Welcome`], given back in [`ToHost::Join`] to take
/// the seat again; [`ToPlayer::Goodbye`] says why a connection closes; a
/// move taken back is a numbered step ([`ToHost::TakeBack`],
/// [`ToPlayer::TakenBack`]).
///
/// 4: One netcode protocol id for every version; the version rides in the
/// connect token, and a player of another version is sent a
/// [`ToPlayer::Goodbye`] saying so (its shape never changes, so every
/// version reads it).
///
/// 5: Peer to peer (iroh over QUIC). A seat belongs to the key that first
/// sat in it: no seat secret. A newcomer's [`ToHost::Join`] carries the
/// invite's admission secret; the version rides in the Join, whose fields
/// only ever grow, so any later version is told in words.
pub const PROTOCOL_VERSION: u32 = 5;

/// The largest message a player may send. An `Action` is a few dozen bytes,
/// a join a name: anything near this is not a player's message.
pub const MAX_FROM_PLAYER: usize = 16 * 1024;

/// The largest message the host sends: a whole game (a late-game save is
/// tens of kilobytes) with room to spare.
pub const MAX_FROM_HOST: usize = 4 * 1024 * 1024;

/// The most steps a table takes (actions, seat changes, moves taken back):
/// far beyond any game, and far from the end of the count's range.
pub const MAX_STEPS: u64 = u32::MAX as u64;

/// The longest player name, in characters (the same at a hot-seat table).
pub use depths_seats::table_check::MAX_NAME;

/// A player's message to the host.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToHost {
    /// Take a seat under this name with the invite's `admission` secret,
    /// or (a key that has a seat) one's seat back, secret or not. Always a
    /// connection's first message.
    Join {
        name: String,
        version: u32,
        #[serde(default)]
        admission: Option<Admission>,
    },
    /// Please apply this action for me.
    Act(Action),
    /// My copy differs from yours: send me the whole table.
    Resync,
    /// Let a Companion play Hero `hero` (`on`), or give it back. Only the
    /// host seats Companions: a player's ask is always refused, with why.
    SetCompanion { hero: u8, on: bool },
    /// Take back my seat's last move (one that revealed nothing); `seq` is
    /// the step I saw last, so a move that came in between is not taken
    /// back by mistake.
    TakeBack { seq: u64 },
}

/// The host's message to a player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToPlayer {
    /// You sit at seat `seat` (your key takes it back after a drop: a name
    /// alone never does).
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
    /// The host took back the last move, as the `seq`-th step; after doing
    /// the same a copy's checksum must be `checksum`.
    TakenBack { seq: u64, checksum: u64 },
    /// Your message was not taken, and why (in words for the player).
    Refused { action: Option<Action>, reason: String },
    /// The host closes your connection, and why (sent away, idle, too many
    /// connections, another version, the table closing). Never changes
    /// shape: it is how a player of another version is told.
    Goodbye { reason: String },
}

/// A player's name as the table shows it (spaces trimmed and single), or
/// why it cannot be one: 1 to [`MAX_NAME`] letters, digits, spaces and
/// `-'_.`, from one script. Invisible characters (a zero-width space),
/// combining marks and a mix of Latin, Greek and Cyrillic letters are
/// refused: they make names that look like another's.
pub fn normal_name(name: &str) -> Result<String, String> {
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    let count = name.chars().count();
    if count == 0 || count > MAX_NAME {
        return Err(format!("a name is 1 to {MAX_NAME} letters"));
    }
    if let Some(c) = name.chars().find(|&c| !(c.is_alphanumeric() || matches!(c, ' ' | '-' | '\'' | '_' | '.'))) {
        return Err(format!("a name has letters, digits, spaces and - ' _ . only, not {:?}", c));
    }
    let script = |c: char| match u32::from(c) {
        0x0370..=0x03ff | 0x1f00..=0x1fff => Some("Greek"),
        0x0400..=0x052f => Some("Cyrillic"),
        _ if c.is_ascii_alphabetic()
            || ('\u{c0}'..='\u{24f}').contains(&c)
            || ('\u{1e00}'..='\u{1eff}').contains(&c) =>
        {
            Some("Latin")
        }
        _ => None,
    };
    let mut scripts: Vec<&str> = name.chars().filter_map(script).collect();
    scripts.dedup();
    scripts.sort_unstable();
    scripts.dedup();
    if scripts.len() > 1 {
        return Err(format!("a name's letters come from one alphabet, not {}", scripts.join(" and ")));
    }
    Ok(name)
}

/// The key two names are compared by: case and the digits that pass for
/// letters (0/O, 1/I/L) do not make a different name.
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
        .chars()
        .map(|c| match c {
            '0' => 'o',
            '1' | 'i' => 'l',
            c => c,
        })
        .collect()
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
    pub fn of(shared: &SharedGame) -> Snapshot {
        Snapshot {
            seq: shared.seq,
            game: shared.game.save_json(),
            players: shared.players.clone(),
            turn: shared.turn.clone(),
        }
    }

    /// The table it describes, or why the save inside does not load.
    pub fn shared(&self) -> Result<SharedGame, String> {
        // Checked whole (Game::load_json): a host of another build, or a
        // doctored one, must not panic the player's game.
        let game =
            Game::load_json(&self.game).map_err(|e| format!("the host sent a game this version cannot read ({e})"))?;
        // Each step counts one on: a count at the end of its range has no next step.
        let steps = (self.seq <= MAX_STEPS)
            .then_some(())
            .ok_or_else(|| format!("seq is {}; a table takes at most {MAX_STEPS} steps", self.seq));
        steps
            .and_then(|()| check_table(&self.players, &self.turn, game.heroes.len()))
            .map_err(|e| format!("the host sent a game this version cannot read ({e})"))?;
        Ok(SharedGame::at(game, self.players.clone(), self.turn.clone(), self.seq))
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

    /// Issue 54: a snapshot whose game names a Monster Card the Combat does
    /// not have is refused with the field, not taken to the table.
    #[test]
    fn a_snapshot_of_a_game_that_fails_the_check_is_refused_in_words() {
        let content = depths_rules::Content::builtin().expect("the shipped content loads");
        let mats = ["bren", "sil"].iter().map(|h| content.hero(h).expect("a Hero").clone()).collect();
        let card = content.ecology(depths_rules::Ecology::Ruins).monsters[0].clone();
        let game = Game::skirmish(mats, vec![depths_rules::Foe::monster(card, 2)], 3).0;
        let shared = SharedGame::new(game, Players::default());
        let good = Snapshot::of(&shared);
        assert!(good.shared().is_ok());
        let mut value: serde_json::Value = serde_json::from_str(&good.game).expect("JSON");
        value["combat"]["engagements"][0]["foe"] = 9.into();
        let doctored = Snapshot { game: value.to_string(), ..good };
        let refused = doctored.shared().expect_err("refused");
        assert!(refused.starts_with("the host sent a game this version cannot read"), "{refused}");
        assert!(refused.contains("combat.engagements.0.foe"), "{refused}");
    }

    /// Issue 54: "no message either side receives can panic the other". The
    /// host's whole table (its seats, turn and step count; the game inside
    /// has the rules' own check and edits) changed one value at a time is
    /// refused in words, or taken and played on by the seats' own rules.
    #[test]
    fn a_snapshot_changed_one_value_at_a_time_is_refused_or_played_on() {
        use depths_seats::seats::{acting, companion_choice, players_to_act, seat_hero};
        use depths_sim::Bot;
        use std::panic::{AssertUnwindSafe, catch_unwind};
        let content = depths_rules::Content::builtin().expect("the shipped content loads");
        let game = Game::new(depths_rules::GameOptions::standard(&["bren", "sil", "ava"], 4), content).expect("game");
        let players = Players {
            names: vec!["Ann".into(), "Bo".into()],
            owners: vec![0, 1, 1],
            curtain: true,
            companions: vec![false, false, true],
        };
        let mut shared = SharedGame::new(game, players);
        for _ in 0..40 {
            let a = depths_sim::HeuristicBot.choose(&shared.game);
            let by = seat_hero(&a).map(|h| shared.players.owner(h));
            shared.apply(a, by).expect("the careful bot plays legal moves");
        }
        shared.turn.shown_to = Some(1);
        let good = Snapshot::of(&shared);
        let mut value = serde_json::to_value(&good).expect("JSON");
        value["game"] = serde_json::Value::Null;
        let mut edits = Vec::new();
        depths_tests::edits::changed_leaves(&value, "", &mut edits);
        edits.retain(|(at, _)| at != "/game");
        assert!(edits.len() > 40, "only {} edits", edits.len());
        let (mut refused, mut played, mut faults) = (0, 0, Vec::new());
        for (at, to) in &edits {
            let mut edited = value.clone();
            *edited.pointer_mut(at.split(' ').next().expect("a pointer")).expect("the leaf") = to.clone();
            edited["game"] = good.game.clone().into();
            let Ok(snapshot) = serde_json::from_value::<Snapshot>(edited) else {
                refused += 1;
                continue;
            };
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                let mut table = snapshot.shared()?;
                for _ in 0..20 {
                    if table.game.is_over() {
                        break;
                    }
                    let _ = (acting(&table.game, &table.players, &table.turn), table.players.seats(3));
                    let _ = players_to_act(&table.game, &table.players, &table.turn);
                    let companion = companion_choice(&table.game, &table.players, &table.turn);
                    let a = companion.unwrap_or_else(|| depths_sim::HeuristicBot.choose(&table.game));
                    let by = seat_hero(&a).map(|h| table.players.owner(h));
                    table.apply(a, by).map_err(|e| e.to_string())?;
                    let _ = table.checksum();
                }
                Ok::<(), String>(())
            }));
            match outcome {
                Ok(Ok(())) => played += 1,
                Ok(Err(why)) => {
                    assert!(why.starts_with("the host sent a game this version cannot read"), "{at} = {to}: {why}");
                    refused += 1;
                }
                Err(_) => faults.push(format!("{at} = {to}")),
            }
        }
        println!("{} edits of a snapshot: {refused} refused, {played} played on, {} faults", edits.len(), faults.len());
        assert!(faults.is_empty(), "{} edits panicked:\n{}", faults.len(), faults.join("\n"));
        assert!(refused > 0 && played > 0, "{refused} refused, {played} played on");
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
        let back = ToPlayer::TakenBack { seq: 7, checksum: 3 };
        assert_eq!(decode_to_player(&encode(&back)), Ok(back));
    }

    #[test]
    fn names_are_normalised_and_look_alikes_refused() {
        assert_eq!(normal_name("  Bo   Ann "), Ok("Bo Ann".into()));
        assert_eq!(normal_name("Zoë"), Ok("Zoë".into()));
        assert!(normal_name("Bo\u{200b}").unwrap_err().contains("not"), "a zero-width space");
        assert!(normal_name("B\u{43e}").unwrap_err().contains("Cyrillic"), "a Cyrillic o in a Latin name");
        assert!(normal_name("Вова").is_ok(), "a Cyrillic name");
        assert!(normal_name("").is_err());
        assert!(normal_name(&"x".repeat(MAX_NAME + 1)).is_err());
        assert_eq!(name_key("B0"), name_key("bo"));
        assert_eq!(name_key("Lia"), name_key("1ia"));
        assert_ne!(name_key("Bo"), name_key("Bob"));
    }
}
