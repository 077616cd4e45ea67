//! Giving a running game edited cards (hot reload for content authors).
//!
//! A game copies cards out of its [`Content`] as it goes: into decks, hands,
//! piles, a Hero's mat, the Foe in Combat. Changing what a card *does* in the
//! middle of a game could contradict what the state already built from it (a
//! Foe's health tokens from the card's health, a placed tile's edges, a Hero's
//! health from the mat, a test waiting on its targets, a deck that would gain
//! or lose a card). So only a change of words — names, descriptions, lore —
//! reaches a running game, in the content and in every copy of the card; any
//! other change is refused and the game keeps its cards (a new game takes
//! the new ones).

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use crate::content::Content;
use crate::game::Game;

/// The keys whose values are words only: the rules never read them.
const WORDS: [&str; 3] = ["name", "description", "text"];

/// Why a running game keeps its cards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SwapRefused {
    /// Something other than words changed; `at` says where, e.g.
    /// `ecologies.ruins.monsters.withered_shade.health`.
    RulesChanged { at: String },
    /// The game's state did not survive the rewrite (a bug; the game is untouched).
    State(String),
}

impl std::fmt::Display for SwapRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SwapRefused::RulesChanged { at } => write!(
                f,
                "{at} changed: only names and descriptions reach a game in progress, which keeps its cards; \
                 a new game uses the new ones"
            ),
            SwapRefused::State(why) => write!(f, "the game in progress keeps its cards: {why}"),
        }
    }
}

impl std::error::Error for SwapRefused {}

impl Game {
    /// Takes `new` as this game's content if it differs from the current one
    /// only in words, rewriting those words in every copy of the changed
    /// cards; returns how many cards changed. Otherwise the game is left as
    /// it was. Names the game derived from a card follow it too (a Monster's
    /// health tokens, "Name #2"; the XP pool's cards); the log keeps the
    /// words it was written with.
    pub fn swap_content(&mut self, new: Arc<Content>) -> Result<usize, SwapRefused> {
        // A skirmish holds no Content.
        let Some(adventure) = &self.adventure else { return Ok(0) };
        let state = |e: serde_json::Error| SwapRefused::State(e.to_string());
        let old = serde_json::to_value(adventure.content.as_ref()).map_err(state)?;
        let fresh = serde_json::to_value(new.as_ref()).map_err(state)?;
        let mut changed = HashMap::new();
        word_changes(&old, &fresh, &mut Vec::new(), None, &mut changed)
            .map_err(|path| SwapRefused::RulesChanged { at: path.join(".") })?;
        let count = changed.len();
        let mut game = if changed.is_empty() {
            self.clone()
        } else {
            let mut value = serde_json::to_value(&*self).map_err(state)?;
            rewrite_cards(&mut value, &changed);
            let renames: Vec<(&str, &str)> = changed
                .values()
                .filter_map(|(o, n)| Some((o.get("name")?.as_str()?, n.get("name")?.as_str()?)))
                .filter(|(o, n)| o != n)
                .collect();
            rename_derived(&mut value, &renames);
            serde_json::from_value::<Game>(value).map_err(state)?
        };
        if let Some(a) = &mut game.adventure {
            a.content = new;
        }
        *self = game;
        Ok(count)
    }
}

/// The card (an object with a string `id`) around a value: `(old, new)`.
type Card<'a> = Option<(&'a Value, &'a Value)>;

/// Compares `old` and `new` (the same place in both contents): `Err(path)` at
/// the first difference that is not words; each card with changed words is
/// put in `changed` by id.
fn word_changes<'a>(
    old: &'a Value,
    new: &'a Value,
    path: &mut Vec<String>,
    card: Card<'a>,
    changed: &mut HashMap<String, (&'a Value, &'a Value)>,
) -> Result<(), Vec<String>> {
    match (old, new) {
        (Value::Object(o), Value::Object(n)) => {
            if o.len() != n.len() || o.keys().any(|k| !n.contains_key(k)) {
                return Err(path.clone());
            }
            let card = match o.get("id") {
                Some(Value::String(_)) => Some((old, new)),
                _ => card,
            };
            for (key, ov) in o {
                let nv = &n[key];
                path.push(key.clone());
                if WORDS.contains(&key.as_str()) && ov.is_string() && nv.is_string() {
                    if ov != nv
                        && let Some((co, cn)) = card
                        && let Some(Value::String(id)) = co.get("id")
                    {
                        changed.insert(id.clone(), (co, cn));
                    }
                } else {
                    word_changes(ov, nv, path, card, changed)?;
                }
                path.pop();
            }
            Ok(())
        }
        (Value::Array(o), Value::Array(n)) if o.len() == n.len() => {
            for (i, (ov, nv)) in o.iter().zip(n).enumerate() {
                // Name an element by its id (or Ecology) where it has one: a path an author can follow.
                let label = ["id", "ecology"].iter().find_map(|k| ov.get(*k).and_then(Value::as_str));
                path.push(label.map_or_else(|| i.to_string(), str::to_string));
                word_changes(ov, nv, path, card, changed)?;
                path.pop();
            }
            Ok(())
        }
        _ if old == new => Ok(()),
        _ => Err(path.clone()),
    }
}

/// Rewrites, in a game's state, the words of every copy of a changed card
/// (found by its id, which content ids make unique).
fn rewrite_cards(value: &mut Value, changed: &HashMap<String, (&Value, &Value)>) {
    match value {
        Value::Object(map) => {
            let id = map.get("id").and_then(Value::as_str).map(str::to_string);
            if let Some((old, new)) = id.and_then(|id| changed.get(&id)) {
                rewrite_words(value, old, new);
            } else {
                map.values_mut().for_each(|v| rewrite_cards(v, changed));
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rewrite_cards(v, changed)),
        _ => {}
    }
}

/// Renames what the rules named after a card: the health tokens of a Foe
/// (`individuals`: the card's name, or "name #n" for a group) and the cards
/// of the XP pool (`xp_pool`). `renames` are (old name, new name).
fn rename_derived(value: &mut Value, renames: &[(&str, &str)]) {
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match (key.as_str(), v) {
                    ("individuals" | "xp_pool", Value::Array(items)) => {
                        for name in items.iter_mut().filter_map(|i| i.get_mut("name")) {
                            if let Some(renamed) = name.as_str().and_then(|n| renamed(n, renames)) {
                                *name = Value::String(renamed);
                            }
                        }
                    }
                    (_, v) => rename_derived(v, renames),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rename_derived(v, renames)),
        _ => {}
    }
}

/// `name` with an old card name (whole, or before " #n") put right.
fn renamed(name: &str, renames: &[(&str, &str)]) -> Option<String> {
    renames.iter().find_map(|(old, new)| match name.strip_prefix(old) {
        Some("") => Some(new.to_string()),
        Some(rest) if rest.starts_with(" #") => Some(format!("{new}{rest}")),
        _ => None,
    })
}

/// Sets each word of `copy` that still reads as in `old` to `new`'s; a copy
/// the game has changed elsewhere (uses spent…) keeps those changes.
fn rewrite_words(copy: &mut Value, old: &Value, new: &Value) {
    match (copy, old, new) {
        (Value::Object(c), Value::Object(o), Value::Object(n)) => {
            for (key, cv) in c.iter_mut() {
                let (Some(ov), Some(nv)) = (o.get(key), n.get(key)) else { continue };
                if WORDS.contains(&key.as_str()) {
                    if cv == ov {
                        *cv = nv.clone();
                    }
                } else {
                    rewrite_words(cv, ov, nv);
                }
            }
        }
        (Value::Array(c), Value::Array(o), Value::Array(n)) if c.len() == o.len() => {
            for ((cv, ov), nv) in c.iter_mut().zip(o).zip(n) {
                rewrite_words(cv, ov, nv);
            }
        }
        _ => {}
    }
}
