//! Playing on from a game that came from outside: a save file, the network.
//! The rules core checks such a game whole when it is loaded
//! ([`Game::load_json`], [`Game::check_whole`]); what passes must then take
//! any legal move and answer every question the client asks without a panic.
//! The property test `tests/save_edits.rs` plays on from saves edited one
//! number at a time, and the fuzz target `fuzz/fuzz_targets/saves.rs` from
//! any bytes, both through [`play_on`].

use depths_rules::{Action, Game, GameRng, Phase};

use crate::bot::{Bot, HeuristicBot, RandomBot};

/// How a game played on from a save went: moves made, or why it stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedOn {
    pub moves: usize,
    /// The game ended within the moves.
    pub ended: bool,
    /// An action `legal_actions` listed was refused by `apply` (the two
    /// disagree), with the rules' reason; play stops there.
    pub refused: Option<String>,
    /// Nothing was legal in a game not over.
    pub stuck: bool,
    /// The game the moves led to no longer loads once saved, with why: the
    /// whole-game check refuses what the rules made of a game it accepted.
    pub unloadable: Option<String>,
}

/// Makes up to `moves` legal moves from `game`: each the random bot's or the
/// careful bot's ([`HeuristicBot`]), chosen by `seed`, asking before each
/// move every question the client asks of the rules ([`ask_everything`]);
/// then saves the game it came to and loads it again.
pub fn play_on(game: &mut Game, seed: u64, moves: usize) -> PlayedOn {
    let mut random = RandomBot { rng: GameRng::from_seed(seed) };
    let mut careful = HeuristicBot;
    let mut coin = GameRng::from_seed(seed ^ 0x5a7e);
    let mut played = PlayedOn { moves: 0, ended: false, refused: None, stuck: false, unloadable: None };
    while played.moves < moves {
        let legal = ask_everything(game, seed);
        if game.is_over() {
            played.ended = true;
            break;
        }
        if legal.is_empty() {
            played.stuck = true;
            break;
        }
        let action = if coin.below(2) == 0 { random.choose(game) } else { careful.choose(game) };
        if let Err(e) = game.apply(action.clone()) {
            played.refused = Some(format!("{action:?}: {e}"));
            break;
        }
        played.moves += 1;
    }
    if played.moves > 0 {
        played.unloadable = Game::load_json(&game.save_json()).err().map(|e| e.to_string());
    }
    played
}

/// Asks `game` every question the client and the bots ask of the rules
/// (the phase, the legal actions and whether each passes `check`, the
/// Combat's pairs and what each deals and costs, the Damage due, the Health
/// after a move, the XP payable and the payment, the Legendary Locations,
/// where the tile in hand may go, the party's record, a determinized copy),
/// throwing the answers away but the legal actions: a panic is what is looked for.
pub fn ask_everything(game: &Game, seed: u64) -> Vec<Action> {
    let phase = game.phase();
    let _ = (phase.name(), phase.decision(), game.pending(), game.is_over(), game.in_combat());
    let legal = game.legal_actions();
    for action in &legal {
        let _ = game.check(action);
    }
    for hero in 0..game.heroes.len() as u8 {
        let _ = (game.armor_of(hero), game.hero_damage_due(hero));
        let h = &game.heroes[usize::from(hero)];
        let _ = (h.max_health(), h.armor(), h.has_magic(), h.passive_bonus_damage(), h.wound_each_round());
        h.abilities().for_each(|(_, a)| {
            let _ = (a.target_kind(), a.alters_pairs());
        });
    }
    let _ = game.return_damage_due();
    if let Some(c) = game.combat() {
        let _ = (c.heroes_to_act(), c.acting_hero(), c.is_over());
        for hero in 0..game.heroes.len() as u8 {
            let _ = (c.pairs_of(hero), c.may_act(hero), c.playing_engagement(hero), c.chosen_engagement(hero));
        }
        for (e, engagement) in c.engagements.iter().enumerate() {
            for slot in 0..engagement.slots.len() {
                let _ = (game.pair_deals(e, slot), game.pair_takes(e, slot));
            }
        }
        for foe in &c.foes {
            let _ = (foe.name(), foe.alive_count(), foe.health_state(), foe.cards_to_play(), foe.is_defeated());
        }
    }
    if matches!(phase, Phase::Combat { .. }) {
        for action in legal.iter().take(3) {
            let _ = game.health_after_round(action);
        }
    }
    let _ = (game.payable_xp(), game.xp_payment(), game.party_record());
    if let Some(adv) = game.adventure() {
        let _ = (game.healing_per_unit(), game.discovered_legendary_locations(), game.discovered_legendary_count());
        let eco = &adv.ecology;
        for tile in eco.drawn.iter().chain(&eco.dead_end.set_aside) {
            let _ = eco.map.legal_placements(tile);
        }
        let _ = (eco.map.accessible_areas(), eco.map.reachable_unencountered_elements(), eco.through_counter());
    }
    let copy = game.determinized(seed);
    let _ = copy.legal_actions();
    legal
}

/// The fuzz target's entry point: `data` read as a save; if it loads, up to
/// 50 moves played on from it ([`play_on`]), and how that went. A panic is
/// the finding; `None` when the bytes are no save that loads.
pub fn play_save_bytes(data: &[u8]) -> Option<PlayedOn> {
    let text = std::str::from_utf8(data).ok()?;
    let mut game = Game::load_json(text).ok()?;
    Some(play_on(&mut game, fnv(data), 50))
}

/// FNV-1a of the bytes: the fuzz input's own seed for the moves.
fn fnv(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
