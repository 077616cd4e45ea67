//! Hints: what the careful bot would do now, and why, on request (the Hint
//! button or H). The hint is shown on the table itself: a drawn tile's ghost
//! stands on the hinted cell in the hinted turn (Enter places it), the hinted
//! element is selected on the map, and a hinted card, pair or individual is
//! framed in gold. It lasts until the next action.

use bevy::prelude::*;
use depths_rules::{Action, Game, Outcome, Purchase};
use depths_sim::{Bot, HeuristicBot};

use crate::{
    PlaySystems,
    game::focus::{SelectedElement, TileInHand},
    game::screen::Screen,
    game::session::Delve,
    game::words::{describe_action, outcome_name},
};

/// Ask for a hint (the banner's button writes this too).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct AskHint;

/// The hint on show: for the game's version it was made for.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct Hint {
    pub version: u64,
    pub action: Option<Action>,
    /// "Bren plays a 7 — the card with the best expected result…"
    pub text: String,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Hint>();
    app.add_message::<AskHint>();
    app.add_systems(
        Update,
        give_hint.in_set(PlaySystems::Sync).run_if(in_state(Screen::Playing).and_then(resource_exists::<Delve>)),
    );
    app.add_systems(OnExit(Screen::Playing), |mut hint: ResMut<Hint>| *hint = Hint::default());
}

/// What the careful bot would do in `game`, and why, in a player's words.
pub fn hint_for(game: &Game) -> Option<(Action, String)> {
    hint_with(game, false)
}

/// [`hint_for`], or with `strong` the search bot's move in Combat: each
/// choice played out in reshuffled worlds (`depths_sim::SearchBot`).
pub fn hint_with(game: &Game, strong: bool) -> Option<(Action, String)> {
    if game.is_over() || game.legal_actions().is_empty() {
        return None;
    }
    let careful = HeuristicBot.choose(game);
    let seed = game.adventure().map_or(0, |a| a.options.seed);
    let action = if strong {
        depths_sim::SearchBot::new(seed, depths_sim::search::SearchConfig::default()).choose(game)
    } else {
        careful.clone()
    };
    let what = describe_action(game, &action);
    let why = if strong && action != careful {
        "played out in many reshuffled worlds, it keeps the party alive and healthiest".to_owned()
    } else {
        why(game, &action)
    };
    let text = if why.is_empty() { what } else { format!("{what} — {why}") };
    Some((action, text))
}

/// Why the careful bot chooses `action`: its rule for that kind of choice,
/// with the figures of this situation where they are plain (the hint's
/// words, and a Companion's in the log).
pub fn why(game: &Game, action: &Action) -> String {
    match action {
        // Short: the Combat strip gives the hint one line (at 150 % the
        // longer reason was cut).
        Action::PlayCard { .. } => "its expected result is best against the Monster cards still to come".into(),
        Action::ChoosePair { engagement, slot, .. } => {
            let Some(c) = game.combat() else { return String::new() };
            let Some(en) = c.engagements.get(usize::from(*engagement)) else { return String::new() };
            let Some(s) = en.slots.get(usize::from(*slot)) else { return String::new() };
            let bonus = c.foes.get(usize::from(en.foe)).map_or(0, |f| f.card_bonus);
            // The same figures as the pair's frame: the rules', after Armor.
            let (e, at) = (usize::from(*engagement), usize::from(*slot));
            match (s.outcome(bonus), game.pair_deals(e, at), game.pair_takes_range(e, at)) {
                (Some(o), Some(dealt), Some(taken)) => {
                    let trade = match o {
                        Outcome::MonsterHit => "the Monster Hit that costs least",
                        _ => "the pair that trades least Health for the damage dealt",
                    };
                    let (hero, health) =
                        game.heroes.get(usize::from(en.hero)).map_or(("the Hero", 0), |h| (h.name(), h.health));
                    let what = crate::game::words::pair_damage_note(hero, o, dealt, taken, health);
                    format!("{} ({what}); {trade}", outcome_name(o))
                }
                _ => String::new(),
            }
        }
        Action::AssignDamage { .. } => "the individual closest to falling".into(),
        Action::ActivateAbility { .. } => "worth its cost now: it turns harm aside or finishes a Monster".into(),
        Action::EndTurn { .. } => "nothing more is worth doing this Round".into(),
        // With the figure the "Dead ends now" gauge then shows: "the most
        // room" was followed by "4 of 18" with no word of it.
        Action::PlaceTile { .. } | Action::PlaceSetAsideTile { .. } => {
            let mut after = game.clone();
            let (dead, total) = match after.apply(action.clone()) {
                Ok(_) => crate::game::session::dead_ends_in_pile(&after),
                Err(_) => (0, 0),
            };
            match (dead, total) {
                (_, 0) => "the place that leaves the most room for the tiles still in the pile".into(),
                (0, _) => "the place that leaves the most room: every tile in the pile still fits somewhere".into(),
                (d, t) => format!(
                    "the place that leaves the most room, though {d} of the {t} tiles in the pile fit nowhere yet"
                ),
            }
        }
        Action::Encounter { .. } => "of what is within reach, it frees the most of the map for what it costs".into(),
        // Not "nothing is worth it": a fight within reach may be well worth
        // winning (its forecast says so), only not yet worth its cost.
        Action::DrawTile => {
            "a new tile opens more of the map now than any Encounter within reach, for what it costs".into()
        }
        // Each purchase its own reason ("a Key for a Door" was given for an Ability).
        Action::StartPurchase { what: Purchase::Key } => "a Key for a Door in the way".into(),
        // Who is low, in figures: "Healing" again and again, with no
        // reason but a rule, read as the hint repeating itself.
        Action::StartPurchase { what: Purchase::Healing { .. } } => {
            // Every Hero it heals, lowest first: "×5 — Bren has 9 of 14" read
            // as buying 10 Health for Bren's 5 (Sil's 5 were missing too).
            let mut hurt: Vec<&depths_rules::Hero> = game.heroes.iter().filter(|h| h.health < h.max_health()).collect();
            hurt.sort_by_key(|h| u32::from(h.health) * 1000 / u32::from(h.max_health().max(1)));
            let each: Vec<String> =
                hurt.iter().map(|h| format!("{} has {} of {} Health", h.name(), h.health, h.max_health())).collect();
            if each.is_empty() {
                "Healing for a Hero low before a fight".into()
            } else {
                format!("Healing before a fight: {}", each.join(", "))
            }
        }
        Action::StartPurchase { what: Purchase::Ability { .. } } => {
            "an Ability while Level Up offers one: they are bought only then".into()
        }
        Action::AssignMonsters { .. } => "the stronger Monster to the healthier Hero".into(),
        _ => String::new(),
    }
}

pub(crate) fn give_hint(
    mut asks: MessageReader<AskHint>,
    settings: Option<Res<crate::game::settings::Settings>>,
    delve: Res<Delve>,
    mut hint: ResMut<Hint>,
    mut hand: ResMut<TileInHand>,
    mut selected: ResMut<SelectedElement>,
    seats: Option<Res<crate::game::session::Seats>>,
) {
    if hint.action.is_some() && hint.version != delve.version() {
        *hint = Hint::default();
    }
    if asks.read().count() == 0 {
        return;
    }
    let strong = settings.is_some_and(|s| s.strong_hints);
    let Some((action, mut text)) = hint_with(delve.game(), strong) else {
        *hint = Hint { version: delve.version(), action: None, text: "No move to hint: the game is over.".into() };
        return;
    };
    // A hot-seat move of a Hero another player holds: whose it is, so the
    // player at the table does not take it for their own (H on Sil's turn
    // said "Bren plays a 7").
    if let Some(seats) = seats.as_deref()
        && let Some(here) = seats.heroes_at_table(delve.game())
        && let Some(h) = crate::game::hotseat::action_hero(&action).filter(|h| !here.contains(h))
    {
        let player = seats.players.name(seats.players.owner(h));
        text = format!("{player}'s move first: {text}");
    }
    // Shown where the move is made.
    match &action {
        Action::PlaceTile { placement } | Action::PlaceSetAsideTile { placement } => {
            hand.rotation = placement.rotation;
            hand.cell = Some(placement.cell);
        }
        Action::Encounter { element } => selected.0 = Some(*element),
        _ => {}
    }
    *hint = Hint { version: delve.version(), action: Some(action), text };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A playtest: a placement hinted as "the place that leaves the most
    /// room" was followed by "Dead ends now 4 of 18". The hint says the
    /// figure the gauge then shows, read from the hint's own words.
    #[test]
    fn a_placement_hint_tells_the_dead_ends_it_leaves() {
        let mut told = 0;
        for seed in 1..=6 {
            let mut game = Game::new(
                depths_rules::GameOptions::standard(&["bren"], seed),
                depths_rules::Content::builtin().unwrap(),
            )
            .unwrap();
            for _ in 0..40 {
                if !game.legal_actions().contains(&Action::DrawTile) {
                    break;
                }
                game.apply(Action::DrawTile).unwrap();
                let Some(place) = game.legal_actions().into_iter().find(|a| matches!(a, Action::PlaceTile { .. }))
                else {
                    break;
                };
                let words = why(&game, &place);
                let mut after = game.clone();
                after.apply(place.clone()).unwrap();
                let (dead, total) = crate::game::session::dead_ends_in_pile(&after);
                if dead == 0 {
                    assert!(words.contains("every tile in the pile still fits"), "{words}");
                } else {
                    assert!(words.contains(&format!("{dead} of the {total} tiles")), "{words} ({dead} of {total})");
                    told += 1;
                }
                game = after;
            }
        }
        assert!(told > 0, "a placement that leaves dead ends, in 6 games");
    }

    /// A new player's report: "Companion Ava: Buy an Ability for Ava — a Key
    /// for a Door in the way, or Healing for a Hero low before a fight".
    #[test]
    fn each_purchase_is_given_its_own_reason() {
        let game =
            Game::new(depths_rules::GameOptions::standard(&["bren"], 1), depths_rules::Content::builtin().unwrap())
                .unwrap();
        let reason = |what| why(&game, &Action::StartPurchase { what });
        assert!(reason(Purchase::Ability { hero: 0 }).contains("Ability"));
        assert!(!reason(Purchase::Ability { hero: 0 }).contains("Key"));
        assert!(reason(Purchase::Key).contains("Key") && !reason(Purchase::Key).contains("Healing"));
        assert!(reason(Purchase::Healing { units: 1 }).contains("Healing"));
        // Healing says who is low, in figures read off the Hero.
        let mut hurt = game.clone();
        hurt.heroes[0].health = 3;
        let heal = why(&hurt, &Action::StartPurchase { what: Purchase::Healing { units: 1 } });
        let bren = &hurt.heroes[0];
        assert!(heal.contains(&format!("{} has 3 of {} Health", bren.name(), bren.max_health())), "{heal}");
        // Every Hero it would heal, not only the lowest.
        let mut both = hurt.clone();
        both.heroes.push(both.heroes[0].clone());
        both.heroes[1].health = 5;
        let heal = why(&both, &Action::StartPurchase { what: Purchase::Healing { units: 2 } });
        assert_eq!(heal.matches(" has ").count(), 2, "{heal}");
    }
}
