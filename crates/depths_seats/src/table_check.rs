//! The check of a table that comes from outside (a save's players and turn,
//! the host's snapshot): every seat and Hero it names is at the table. Like
//! the rules core's check of a whole game, it runs before anything asks the
//! table a question, and a refusal names the field and the value.

use crate::seats::{Players, Turn};

/// The most players at one table.
pub const MAX_SEATS: usize = 3;

/// The longest player's name, in letters: the setup screen and the online
/// lobby take no longer one.
pub const MAX_NAME: usize = 24;

/// Whether `players` and `turn` fit a game of `heroes` Heroes; else what
/// does not, in a player's words ("turn.player is 7, but the table has 2 players").
pub fn check_table(players: &Players, turn: &Turn, heroes: usize) -> Result<(), String> {
    let seated = players.names.len();
    if !(1..=MAX_SEATS).contains(&seated) {
        return Err(format!("players.names holds {seated} players; a table has 1 to {MAX_SEATS}"));
    }
    if let Some((p, name)) = players.names.iter().enumerate().find(|(_, n)| n.chars().count() > MAX_NAME) {
        return Err(format!(
            "players.names.{p} is {} letters long; a name has at most {MAX_NAME}",
            name.chars().count()
        ));
    }
    for (field, len) in [("players.owners", players.owners.len()), ("players.companions", players.companions.len())] {
        if len > heroes {
            return Err(format!("{field} names {len} Heroes, but the game has {heroes}"));
        }
    }
    if let Some((h, p)) = players.owners.iter().enumerate().find(|(_, p)| **p >= seated) {
        return Err(format!("players.owners.{h} is player {p}, but the table has {}", at_table(seated)));
    }
    let seats = [("turn.player", Some(turn.player)), ("turn.shown_to", turn.shown_to), ("turn.pass_to", turn.pass_to)];
    if let Some((field, p)) = seats.into_iter().find_map(|(f, p)| p.filter(|p| *p >= seated).map(|p| (f, p))) {
        return Err(format!("{field} is player {p}, but the table has {}", at_table(seated)));
    }
    if let Some(h) = turn.companion.filter(|h| usize::from(*h) >= heroes) {
        return Err(format!("turn.companion is Hero {h}, but the game has {heroes}"));
    }
    Ok(())
}

/// "1 player", "2 players".
fn at_table(seated: usize) -> String {
    if seated == 1 { "1 player".into() } else { format!("{seated} players") }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> (Players, Turn) {
        let players = Players { names: vec!["Ann".into(), "Bo".into()], owners: vec![0, 1, 1], ..Players::default() };
        (players, Turn { player: 1, shown_to: Some(0), ..Turn::default() })
    }

    #[test]
    fn a_table_that_names_a_missing_seat_or_hero_is_refused_with_the_field() {
        let (players, turn) = table();
        assert_eq!(check_table(&players, &turn, 3), Ok(()));
        assert_eq!(check_table(&Players::default(), &Turn::default(), 1), Ok(()), "a bare save's table");
        let refused = |players: &Players, turn: &Turn| check_table(players, turn, 3).expect_err("refused");
        let mut p = players.clone();
        p.owners[2] = 2;
        assert!(refused(&p, &turn).starts_with("players.owners.2 is player 2"), "{}", refused(&p, &turn));
        p.owners.push(0);
        assert!(refused(&p, &turn).contains("names 4 Heroes"));
        let mut t = turn.clone();
        t.pass_to = Some(9);
        assert_eq!(refused(&players, &t), "turn.pass_to is player 9, but the table has 2 players");
        t = Turn { companion: Some(3), ..turn.clone() };
        assert!(refused(&players, &t).starts_with("turn.companion is Hero 3"));
        p = Players { names: Vec::new(), ..players.clone() };
        assert!(refused(&p, &turn).contains("holds 0 players"));
        p = Players { names: vec!["x".repeat(MAX_NAME + 1), "Bo".into()], ..players.clone() };
        assert!(refused(&p, &turn).starts_with("players.names.0 is 25 letters long"));
        p.companions = vec![true; 4];
        assert!(check_table(&p, &turn, 3).is_err());
    }
}
