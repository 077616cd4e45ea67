//! Saving and loading a whole [`Game`] as JSON, and why a save is refused.
//! A save that reads is then checked whole ([`Game::check_whole`], in
//! `whole_check`) before anything asks it a question.

use serde::Deserialize;

use crate::content::json_position;
use crate::game::{FORMAT_VERSION, Game};

/// Why a save cannot be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveError {
    /// Not JSON, or JSON without a `format_version`.
    NotASave { reason: String },
    /// Written by a newer version of the game.
    NewerFormat { found: u32, supported: u32 },
    /// A save of a format this game knows, but its data does not fit it.
    Corrupt { line: usize, column: usize, reason: String },
    /// The data reads, but the game it describes breaks the rules' own
    /// bounds: `field` is where (`combat.engagements.0.foe`), `reason` says
    /// what, in a player's words.
    Invalid { field: String, reason: String },
}

impl std::fmt::Display for SaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SaveError::NotASave { reason } => write!(f, "not a Forgotten Depths save: {reason}"),
            SaveError::NewerFormat { found, supported } => {
                write!(f, "save format {found} is newer than this game understands ({supported})")
            }
            SaveError::Corrupt { line: 0, reason, .. } => write!(f, "corrupt save: {reason}"),
            SaveError::Corrupt { line, column, reason } => {
                write!(f, "corrupt save: {reason} at line {line} column {column}")
            }
            SaveError::Invalid { field, reason } => write!(f, "this game cannot be played on: {reason} ({field})"),
        }
    }
}

impl std::error::Error for SaveError {}

/// The game as JSON; everything in it, random generator included, serializes.
pub fn to_json(game: &Game) -> String {
    serde_json::to_string(game).expect("game state always serializes")
}

/// Reads a save, refusing what is not one, a newer format, corrupt data, or
/// a game that does not hold together ([`Game::check_whole`]).
pub fn from_json(text: &str) -> Result<Game, SaveError> {
    #[derive(Deserialize)]
    struct Header {
        format_version: u32,
    }
    let header: Header = serde_json::from_str(text).map_err(|e| SaveError::NotASave { reason: e.to_string() })?;
    if header.format_version > FORMAT_VERSION {
        return Err(SaveError::NewerFormat { found: header.format_version, supported: FORMAT_VERSION });
    }
    let corrupt = |e: serde_json::Error| {
        let (line, column, reason) = json_position(&e);
        SaveError::Corrupt { line, column, reason }
    };
    // A save keeps its own copy of the cards: one written before a card was
    // corrected gets the correction the content file got, or it could not
    // be played on at all.
    let mut cards: serde_json::Value = serde_json::from_str(text).map_err(corrupt)?;
    let upgraded = upgrade_cards(&mut cards).then(|| cards.to_string());
    let mut game: Game = serde_json::from_str(upgraded.as_deref().unwrap_or(text)).map_err(corrupt)?;
    check_map_content(&game).map_err(|reason| SaveError::Corrupt { line: 0, column: 0, reason })?;
    game.check_whole()?;
    if let Some(adv) = game.adventure.as_deref_mut() {
        let eco = &mut adv.ecology;
        eco.rune_matches.refresh(&eco.map, &eco.patterns);
    }
    Ok(game)
}

/// The corrections made to our cards since saves were first written, on a
/// save's JSON; whether any applied. A Block-Activated ability's +Damage
/// acted on nothing ("Block: No Damage is done to the Hero or Monster"):
/// the content's two (Searing Thrust, Geared Strike) now deal that Damage
/// to the Monster, and content validation refuses the old form.
fn upgrade_cards(value: &mut serde_json::Value) -> bool {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            let mut changed = false;
            if map.get("activation").and_then(Value::as_str) == Some("block")
                && let Some(Value::Array(effects)) = map.get_mut("effects")
            {
                for effect in effects.iter_mut().filter_map(Value::as_object_mut) {
                    if effect.get("effect").and_then(Value::as_str) == Some("bonus_damage") {
                        effect.insert("effect".into(), Value::from("damage_monster"));
                        changed = true;
                    }
                }
            }
            map.values_mut().fold(changed, |c, v| upgrade_cards(v) | c)
        }
        Value::Array(items) => items.iter_mut().fold(false, |c, v| upgrade_cards(v) | c),
        _ => false,
    }
}

/// The tiles of a save still to be placed, checked as content loading checks
/// them: play trusts them and does not check them again on every question
/// (placed tiles are checked with the map).
fn check_map_content(game: &Game) -> Result<(), String> {
    let Some(adv) = game.adventure() else { return Ok(()) };
    let eco = &adv.ecology;
    for tile in eco.pile.tiles().iter().chain(&eco.drawn).chain(&eco.dead_end.set_aside) {
        tile.validate().map_err(|e| e.to_string())?;
    }
    Ok(())
}

impl Game {
    pub fn save_json(&self) -> String {
        to_json(self)
    }

    /// Loads a save, refusing corrupt data, a newer format, or a game that
    /// does not hold together ([`Game::check_whole`]).
    pub fn load_json(text: &str) -> Result<Game, SaveError> {
        from_json(text)
    }
}

#[cfg(test)]
mod tests {
    use crate::map::MapTile;
    use crate::{Content, Game, GameOptions};

    /// A save written before Searing Thrust and Geared Strike were
    /// corrected (their Block +Damage acted on nothing) kept the old cards,
    /// which content validation now refuses: such a save could not be
    /// played on. It loads with the cards as the content has them now.
    #[test]
    fn a_save_with_a_card_corrected_since_loads_with_the_correction() {
        let g = Game::new(GameOptions::standard(&["bren", "sil"], 1), Content::builtin().unwrap()).unwrap();
        let mut old: serde_json::Value = serde_json::from_str(&g.save_json()).unwrap();
        let treasures = old["adventure"]["content"]["treasures"].as_array_mut().unwrap();
        let mut turned = 0;
        for ability in treasures.iter_mut().flat_map(|t| t["abilities"].as_array_mut().unwrap().iter_mut()) {
            if ability["activation"] == "block" && ability["effects"][0]["effect"] == "damage_monster" {
                ability["effects"][0]["effect"] = "bonus_damage".into();
                turned += 1;
            }
        }
        assert!(turned >= 2, "the content has the corrected cards");
        let loaded = Game::load_json(&old.to_string()).expect("an old save loads");
        assert_eq!(loaded, g, "with the cards as the content has them now");
        // Equal, so only a Block's +Damage was corrected: other cards have +Damage too.
        assert!(g.save_json().contains("\"bonus_damage\""), "other cards keep their +Damage");
    }

    #[test]
    fn a_save_with_a_malformed_tile_still_to_place_is_refused() {
        let mut g = Game::new(GameOptions::standard(&["bren", "sil"], 1), Content::builtin().unwrap()).unwrap();
        assert_eq!(Game::load_json(&g.save_json()).as_ref(), Ok(&g));
        let eco = &mut g.adventure.as_deref_mut().unwrap().ecology;
        eco.drawn = Some(MapTile { id: " ".into(), ..eco.pile.tiles()[0].clone() });
        let refused = Game::load_json(&g.save_json()).unwrap_err().to_string();
        assert!(refused.contains("the id is empty"), "{refused}");
    }
}
