//! Asking once before a player's move that cannot be taken back and costs
//! what cannot be won back: a tile drawn when every tile left fits nowhere
//! (the game is lost) or when most do (it most likely is), a Round ended while a Hero's Health is too low for
//! its Damage and something else could still be done (the Hero is Defeated
//! and the game lost), or Finish Level Up with XP unspent and no Ability
//! bought (Abilities are bought only then). The question says what the move
//! costs and offers what else can be done. A move Undo can take back is not
//! asked about (a slip there costs one Ctrl+Z), but for one trap: an
//! Ability whose Damage brings an individual down and so binds, and wastes,
//! the Hero's pair Damage this Round ([`wasted_by_binding`]), which a
//! player does not see coming; and a turn ended with an Ability a Block
//! paid for still unused (the Round's end takes it without a word).
//!
//! The panels and keys write [`TryAction`]; [`screen_tries`] passes a move
//! on as a [`PlayerAction`] at once or holds it in [`Asking`] until the
//! player [`Answer`]s. Companions write their moves straight on.
//!
//! A number key is guarded too ([`KeyGuard`]): keys pressed in a quick run
//! (1-2-3) must not lock in a choice for another Hero than the one the
//! player was just acting for; such a key asks to be pressed again.

use bevy::prelude::*;
use depths_rules::{Action, Game, Pending, Phase, Purchase};

use crate::{
    PlaySystems,
    game::session::{Delve, PlayerAction},
    game::words::counted,
};

/// A move a player chose at the table, not yet made.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct TryAction(pub Action);

/// The player's answer to the question on the table.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Make the move asked about.
    Go,
    /// Make this move instead (one of the alternatives offered).
    Instead(Action),
    /// Make no move.
    Cancel,
}

/// The question about a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ask {
    pub action: Action,
    /// "Drawing a tile loses the game".
    pub title: String,
    /// What the move costs, in a sentence or two.
    pub cost: String,
    /// The button that makes the move anyway.
    pub go: String,
    /// The moves made on "go": the move asked about and those chosen with
    /// it in the same click (End round ends every Hero's turn).
    pub moves: Vec<Action>,
    /// What else the table offers now, instead.
    pub alternatives: Vec<Action>,
}

/// The question on the table, for the table state it was asked in.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct Asking(pub Option<((u64, u64), Ask)>);

impl Asking {
    pub fn ask(&self) -> Option<&Ask> {
        self.0.as_ref().map(|(_, a)| a)
    }
}

/// How soon after a move a number key for another Hero is held (seconds):
/// a run of keys, not a choice read off the table.
pub const KEY_SWITCH_WINDOW: f32 = 1.5;

/// A moment in seconds of real time (`Time<Real>`): the key guard's clock.
/// Its own type, so that no caller hands it the game's clock, which runs
/// slow at a low frame rate (a click timed by one and a key by the other
/// never asked, seen in issue 53: keys 3 then 6, half a second apart).
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct RealSecs(f32);

impl RealSecs {
    /// The clock's time since `real` started. Not `real.elapsed_secs()`:
    /// that is the render world's instant of the frame before, and drawing
    /// only on input, the frame of a key pressed after a rest was stamped
    /// with the last move's time (a key 3 s after Ava's move was held as
    /// "right after" it).
    pub fn now(real: &Time<Real>) -> Self {
        Self(bevy::platform::time::Instant::now().saturating_duration_since(real.startup()).as_secs_f32())
    }
}

/// The Hero the player last moved for, and when; and the key held back
/// because it would have moved for another Hero right after.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct KeyGuard {
    last: Option<(u8, RealSecs)>,
    held: Option<(u8, Action)>,
}

impl KeyGuard {
    /// A move was made for its Hero at `now` (seconds), by click or key.
    pub fn acted(&mut self, action: &Action, now: RealSecs) {
        if let Some(h) = crate::game::hotseat::action_hero(action) {
            self.last = Some((h, now));
        }
        self.held = None;
    }

    /// Whether number key `key`, which answers `action` now, makes it: not
    /// when it is for another Hero than the last move, made less than
    /// [`KEY_SWITCH_WINDOW`] before (`now`: seconds of real time, not the
    /// game's clock, which runs slow at a low frame rate), while that Hero
    /// still has a move among `legal` the key could have been meant for
    /// (one who has played all they may leaves no doubt); unless the same
    /// key was held back for the same move just before (pressed again on
    /// purpose).
    pub fn key(&mut self, key: u8, action: &Action, now: RealSecs, legal: &[Action]) -> bool {
        let hero = crate::game::hotseat::action_hero(action);
        let has_more = |was: u8| {
            legal
                .iter()
                .any(|a| !matches!(a, Action::EndTurn { .. }) && crate::game::hotseat::action_hero(a) == Some(was))
        };
        let switch = match (self.last, hero) {
            (Some((was, at)), Some(h)) => was != h && now.0 - at.0 < KEY_SWITCH_WINDOW && has_more(was),
            _ => false,
        };
        let again = self.held.as_ref().is_some_and(|(k, a)| *k == key && a == action);
        if !switch || again {
            self.acted(action, now);
            return true;
        }
        self.held = Some((key, action.clone()));
        false
    }

    /// The Hero the last move was made for.
    pub fn last_hero(&self) -> Option<u8> {
        self.last.map(|(h, _)| h)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<TryAction>().add_message::<Answer>().init_resource::<Asking>().init_resource::<KeyGuard>();
    app.add_systems(Update, (answers, screen_tries).chain().in_set(PlaySystems::Input));
}

/// Whether every tile left in the pile is a dead end and none can be set
/// aside: the next tile drawn, whichever it is, loses the game.
pub fn draw_surely_loses(game: &Game) -> bool {
    losing_draws(game).is_some_and(|(losing, all)| losing == all)
}

/// Of the tiles left in the pile, how many would lose the game if drawn
/// now (a dead end that cannot be set aside), and how many there are.
pub fn losing_draws(game: &Game) -> Option<(usize, usize)> {
    let eco = game.adventure().map(|a| &a.ecology)?;
    let tiles = eco.pile.tiles();
    let frontier = eco.map.frontier();
    let losing = tiles
        .iter()
        .filter(|t| frontier.legal_placements(t).is_empty() && eco.dead_end.check_set_aside(&eco.map, t).is_err())
        .count();
    (!tiles.is_empty()).then_some((losing, tiles.len()))
}

/// A move that may open the map before a draw: an Encounter, a set-aside
/// tile placed, a Key bought or a Door unlocked by an Ability (the question
/// listed taking off a Buckler and buying Healing, which open nothing).
///
/// A Key only where a Door is within reach: "Buy a Key" was offered with
/// no Door on the map, and a Companion's forced draw looked like a blunder.
fn opens_the_map(game: &Game, a: &Action) -> bool {
    match a {
        Action::StartPurchase { what: Purchase::Key } => game.adventure().is_some_and(|adv| {
            adv.ecology.map.reachable_unencountered_kinds().any(|k| k == depths_rules::map::Element::Door)
        }),
        _ => matches!(
            a,
            Action::Encounter { .. }
                | Action::EncounterLegendary { .. }
                | Action::PlaceSetAsideTile { .. }
                | Action::ActivateAbility { target: depths_rules::Target::Element(_), .. }
        ),
    }
}

/// The question to ask before `action`, if it must be asked.
pub fn ask_for(game: &Game, action: &Action) -> Option<Ask> {
    let legal = game.legal_actions();
    if !legal.contains(action) {
        return None;
    }
    let others = |keep: &dyn Fn(&Action) -> bool| legal.iter().filter(|a| keep(a)).cloned().collect::<Vec<_>>();
    match action {
        // A draw reveals a tile: it can never be taken back.
        Action::DrawTile if draw_surely_loses(game) => {
            let n = game.adventure().map_or(0, |a| a.ecology.pile.len());
            let alternatives = others(&|a| opens_the_map(game, a));
            let instead = if alternatives.is_empty() {
                "Nothing else can be done: the draw is the last move of this game."
            } else {
                "Something else may open the map first:"
            };
            Some(Ask {
                action: action.clone(),
                title: "Drawing a tile loses the game".into(),
                cost: format!(
                    "Every tile left fits nowhere: {} in the pile, all dead ends, and no tile can be set aside. \
                     The tile drawn ends the game in Defeat. {instead}",
                    counted(n as u64, "tile", "tiles"),
                ),
                go: "Draw and lose".into(),
                moves: vec![action.clone()],
                alternatives,
            })
        }
        // More likely lost than not: the panel's "Dead ends now: 16 of 19"
        // in red, and D drew at once.
        Action::DrawTile => {
            let (losing, all) = losing_draws(game).filter(|(losing, all)| losing * 2 >= *all)?;
            Some(Ask {
                action: action.clone(),
                title: "Drawing a tile most likely loses the game".into(),
                cost: format!(
                    "{losing} of the {all} tiles in the pile fit nowhere now and cannot be set aside: the tile \
                     drawn loses the game {} times in 100. Something else may open the map first:",
                    losing * 100 / all
                ),
                go: "Draw anyway".into(),
                moves: vec![action.clone()],
                alternatives: others(&|a| opens_the_map(game, a)),
            })
        }
        // Abilities are bought only at Level Up: once the Heroes descend the chance is gone.
        Action::FinishLevelUp => {
            let Phase::LevelUp { .. } = game.phase() else { return None };
            let Some(Pending::LevelUp { bought }) = game.adventure().and_then(|a| a.pending.first()) else {
                return None;
            };
            let cost = game.adventure().map_or(0, |a| u16::from(a.ecology.reference.ability_cost));
            let xp = game.pool_xp();
            if bought.iter().any(|b| *b) || xp < cost {
                return None;
            }
            let alternatives = others(&|a| matches!(a, Action::StartPurchase { what: Purchase::Ability { .. } }));
            Some(Ask {
                action: action.clone(),
                title: "Finish Level Up without an Ability?".into(),
                cost: format!(
                    "{xp} XP unspent and no Hero bought an Ability ({cost} XP each). Abilities are bought \
                     only at Level Up: after it the XP buys Keys and Healing only."
                ),
                go: "Finish without one".into(),
                moves: vec![action.clone()],
                alternatives,
            })
        }
        Action::EndTurn { hero } => {
            ask_before_a_fall(game, action, &legal).or_else(|| ask_before_a_block_ability_lost(game, *hero, &legal))
        }
        Action::AvoidReturnDamage { .. } => ask_before_a_fall(game, action, &legal),
        Action::ActivateAbility { hero, source, .. } if heals_nobody(game, action) => {
            let ability = game.heroes.get(usize::from(*hero)).and_then(|h| h.ability(*source))?;
            Some(Ask {
                action: action.clone(),
                title: format!("{} heals nobody now", ability.name),
                cost: format!(
                    "{} only heals, and the Hero it would heal is at full Health: it would be spent for nothing.",
                    ability.name
                ),
                go: "Use it anyway".into(),
                moves: vec![action.clone()],
                alternatives: Vec::new(),
            })
        }
        Action::ActivateAbility { hero, source, .. } => {
            let (target, lost) = wasted_by_binding(game, action)?;
            let name = game.heroes.get(usize::from(*hero)).map_or("the Hero", |h| h.name());
            let ability =
                game.heroes.get(usize::from(*hero)).and_then(|h| h.ability(*source)).map_or("It", |a| &a.name);
            let alternatives = others(&|a| {
                // The same Hero's (a source names a place on a mat: the
                // same place on another Hero's offered Bren's Brush Aside
                // for Sil's Force Bolt, another player's move).
                matches!(a, Action::ActivateAbility { hero: h, source: s, .. } if h == hero && s == source)
                    && a != action
                    && wasted_by_binding(game, a).is_none()
            });
            Some(Ask {
                action: action.clone(),
                title: format!("{ability} wastes {name}'s Damage"),
                cost: format!(
                    "{ability} brings {target} down, and all of {name}'s Damage this Round must go to {target} \
                     (\"All of a Hero's Damage must be applied to one Individual Monster\"): the {lost} Damage of \
                     {name}'s pair is lost. {}",
                    if alternatives.is_empty() {
                        "Keep it for later, or use it anyway."
                    } else {
                        "Aim it elsewhere, or keep it:"
                    }
                ),
                go: "Use it anyway".into(),
                moves: vec![action.clone()],
                alternatives,
            })
        }
        _ => None,
    }
}

/// What an Ability's Damage to an individual wastes this Round, if anything:
/// it brings the individual down, and since "All of a Hero's Damage must be
/// applied to one Individual Monster" the Hero's pair Damage to that set
/// then goes to it too, and is lost (a Horde's excess spills, so not there).
/// The individual's name, and the most the Hero's pairs would have dealt.
pub fn wasted_by_binding(game: &Game, action: &Action) -> Option<(String, u8)> {
    let Action::ActivateAbility { hero, target: depths_rules::Target::Individual { foe, individual }, .. } = action
    else {
        return None;
    };
    let c = game.combat()?;
    if c.heroes.get(usize::from(*hero))?.target_in(*foe).is_some() {
        return None;
    }
    let best = |g: &Game| -> u8 {
        let Some(c) = g.combat() else { return 0 };
        // Once the Hero has chosen the pair to resolve, that pair alone: a
        // warning quoted the 6 of Sil's discarded pair for the 2 she resolved.
        let chosen = c.chosen_engagement(*hero).and_then(|e| Some((e, c.engagements[e].chosen?)));
        let pairs =
            c.pairs(*hero).filter(|(e, s, _)| c.engagements[*e].foe == *foe && chosen.is_none_or(|k| k == (*e, *s)));
        pairs.filter_map(|(e, s, _)| g.pair_deals(e, usize::from(s))).map(|(_, most)| most).max().unwrap_or(0)
    };
    let before = best(game);
    let mut after = game.clone();
    after.apply(action.clone()).ok()?;
    let down = after.combat()?.foes.get(usize::from(*foe))?.individuals.get(usize::from(*individual))?;
    (before > 0 && down.health == 0 && best(&after) == 0).then(|| (down.name.clone(), before))
}

/// "1. Defeated - A Monster or Hero's Health is reduced to zero", and the
/// game ends when "One of the Heroes is Defeated": a move that ends the
/// Round with a Hero's Health at zero is asked about while some other move
/// is open to the Hero (an Ability, an Item: a heal or Armor may save them).
/// Read off the rules applied to a copy up to the Round's end
/// (`Game::health_after_round`), which never sees a face-down card.
fn ask_before_a_fall(game: &Game, action: &Action, legal: &[Action]) -> Option<Ask> {
    let after = game.health_after_round(action)?;
    let fallen: Vec<(&str, u8)> = game
        .heroes
        .iter()
        .zip(&after)
        .filter(|(h, a)| **a == 0 && h.health > 0)
        .map(|(h, _)| (h.name(), h.health))
        .collect();
    if fallen.is_empty() {
        return None;
    }
    // Other moves that change the Round's outcome: not another way to end it.
    let alternatives: Vec<Action> = legal
        .iter()
        .filter(|a| matches!(a, Action::ActivateAbility { .. } | Action::Equip { .. } | Action::Unequip { .. }))
        .take(8)
        .cloned()
        .collect();
    if alternatives.is_empty() {
        return None;
    }
    let who: Vec<String> = fallen.iter().map(|(n, h)| format!("{n} (Health {h})")).collect();
    let who = crate::game::words::and_list(&who.iter().map(String::as_str).collect::<Vec<_>>());
    Some(Ask {
        action: action.clone(),
        title: "Ending the Round loses the game".into(),
        cost: format!(
            "This Round's Damage brings {who} to zero, and a Defeated Hero ends the game in Defeat. \
             An Ability or an Item may still heal or shield first:"
        ),
        go: "End it and lose".into(),
        moves: vec![action.clone()],
        alternatives,
    })
}

/// An Ability "Paid for by Resolving a Block; one per Round" that the
/// Hero's turn would end unused: the Block paid for it and the Round's end
/// takes it, with no word (pressing E lost Sil's heal of 3). Asked with the
/// Ability's uses offered instead.
fn ask_before_a_block_ability_lost(game: &Game, hero: u8, legal: &[Action]) -> Option<Ask> {
    let h = game.heroes.get(usize::from(hero))?;
    let paid =
        |a: &&Action| matches!(a, Action::ActivateAbility { hero: by, .. } if *by == hero) && paid_by_block(game, a);
    let alternatives: Vec<Action> =
        legal.iter().filter(paid).filter(|a| !heals_nobody(game, a)).take(8).cloned().collect();
    let Some(Action::ActivateAbility { source, .. }) = alternatives.first() else { return None };
    let ability = h.ability(*source)?;
    Some(Ask {
        action: Action::EndTurn { hero },
        title: format!("{} goes unused", ability.name),
        cost: format!(
            "{}'s Block paid for {} this Round ({}), and it is lost when the turn ends. Use it first, or end \
             the turn without it:",
            h.name(),
            ability.name,
            ability.text()
        ),
        go: "End the turn without it".into(),
        moves: vec![Action::EndTurn { hero }],
        alternatives,
    })
}

/// Whether `action` uses an Ability that only heals, on Heroes it would
/// heal nothing (at full Health): no loss when it goes unused (Warding
/// Sigil was offered on Heroes at full Health, and healed 0).
fn heals_nobody(game: &Game, action: &Action) -> bool {
    let Action::ActivateAbility { hero, source, .. } = action else { return false };
    let ability = game.heroes.get(usize::from(*hero)).and_then(|h| h.ability(*source));
    let heals_only = ability.is_some_and(|ab| {
        !ab.effects.is_empty() && ab.effects.iter().all(|e| matches!(e, depths_rules::Effect::HealHeroes { .. }))
    });
    // The game is played on a copy only for an Ability that only heals.
    heals_only
        && game.clone().apply(action.clone()).is_ok_and(|events| {
            !events.iter().any(|e| matches!(e, depths_rules::Event::HeroHealed { amount, .. } if *amount > 0))
        })
}

/// Whether `action` uses an Ability "Paid for by Resolving a Block".
fn paid_by_block(game: &Game, action: &Action) -> bool {
    let Action::ActivateAbility { hero, source, .. } = action else { return false };
    let ability = game.heroes.get(usize::from(*hero)).and_then(|h| h.ability(*source));
    ability.is_some_and(|ab| ab.activation == depths_rules::Activation::Block)
}

/// A player's move goes on at once, or waits for an answer.
fn screen_tries(
    mut tries: MessageReader<TryAction>,
    delve: Option<Res<Delve>>,
    mut asking: ResMut<Asking>,
    mut actions: MessageWriter<PlayerAction>,
) {
    let Some(delve) = delve else {
        tries.clear();
        return;
    };
    // The moves of one click are weighed in turn on a copy: End round
    // ends every Hero's turn, and only the last ends the Round. If one must
    // be asked about, they all wait for the answer together.
    let tried: Vec<Action> = tries.read().map(|TryAction(a)| a.clone()).collect();
    let mut copy: Option<depths_rules::Game> = None;
    let mut asked = None;
    for (i, action) in tried.iter().enumerate() {
        if let Some(ask) = ask_for(copy.as_ref().unwrap_or(delve.game()), action) {
            asked = Some(ask);
            break;
        }
        if i + 1 < tried.len() {
            let _ = copy.get_or_insert_with(|| delve.game().clone()).apply(action.clone());
        }
    }
    match asked {
        Some(ask) => asking.0 = Some((delve.stamp(), Ask { moves: tried, ..ask })),
        None => {
            actions.write_batch(tried.into_iter().map(PlayerAction));
        }
    }
    // The table moved on (a Companion, an undo): the question no longer stands.
    if asking.0.as_ref().is_some_and(|(stamp, _)| *stamp != delve.stamp()) {
        asking.0 = None;
    }
}

fn answers(mut answers: MessageReader<Answer>, mut asking: ResMut<Asking>, mut actions: MessageWriter<PlayerAction>) {
    for answer in answers.read() {
        let Some((_, ask)) = asking.0.take() else { continue };
        match answer {
            Answer::Go => {
                actions.write_batch(ask.moves.into_iter().map(PlayerAction));
            }
            Answer::Instead(a) => {
                actions.write(PlayerAction(a.clone()));
            }
            Answer::Cancel => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key 3 s after a move, on the first frame after a rest, was held
    /// as right after it: the frame's `Time<Real>` was the last frame's.
    #[test]
    fn the_key_guard_reads_the_clock_not_the_last_frame() {
        let started = std::time::Instant::now().checked_sub(std::time::Duration::from_secs(10)).unwrap();
        // Never updated since it started: its elapsed time is still 0.
        let real = Time::<Real>::new(started);
        assert!(RealSecs::now(&real).0 >= 10.0, "read {:?}", RealSecs::now(&real));
    }

    fn resolve(hero: u8, slot: u8) -> Action {
        Action::ChoosePair { hero, engagement: hero, slot }
    }

    /// Every Hero's first two pairs, as a Resolve step offers them.
    fn all_pairs() -> Vec<Action> {
        (0..3).flat_map(|h| (0..2).map(move |s| resolve(h, s))).collect()
    }

    /// Issue: mashing 1-2-3 locked in three Heroes' pairs.
    #[test]
    fn a_quick_key_for_another_hero_is_held_until_pressed_again() {
        let mut guard = KeyGuard::default();
        let legal = all_pairs();
        assert!(guard.key(1, &resolve(0, 0), RealSecs(10.0), &legal), "the first key of a fight goes");
        assert!(!guard.key(2, &resolve(1, 0), RealSecs(10.2), &legal), "Sil's pair right after Bren's is held");
        assert!(!guard.key(3, &resolve(2, 0), RealSecs(10.3), &legal), "and Ava's");
        assert!(!guard.key(2, &resolve(1, 0), RealSecs(10.4), &legal), "a held key is replaced by the next, not kept");
        assert!(guard.key(2, &resolve(1, 0), RealSecs(10.5), &legal), "the same key again makes the move");
        assert_eq!(guard.last_hero(), Some(1));
        assert!(guard.key(4, &resolve(1, 1), RealSecs(10.6), &legal), "the same Hero's keys go at once");
        assert!(guard.key(1, &resolve(0, 1), RealSecs(12.2), &legal), "another Hero's key after a pause goes");
    }

    /// Issue 53: with Bren's cards all played, key 4 for Sil's card asked
    /// "Key 4 is Sil's move, not Bren's: press 4 again".
    #[test]
    fn a_key_goes_at_once_when_the_last_hero_has_nothing_left() {
        let mut guard = KeyGuard::default();
        guard.acted(&resolve(0, 0), RealSecs(10.0));
        // Bren may only end the turn now: no key could have been meant for him.
        let legal = vec![Action::EndTurn { hero: 0 }, resolve(1, 0), resolve(2, 0)];
        assert!(guard.key(4, &resolve(1, 0), RealSecs(10.2), &legal), "Sil's key goes at once");
        assert!(
            !guard.key(5, &resolve(2, 0), RealSecs(10.3), &legal),
            "Ava's right after Sil's, who has more, is held"
        );
    }

    #[test]
    fn a_click_counts_as_acting_for_its_hero() {
        let mut guard = KeyGuard::default();
        guard.acted(&resolve(2, 0), RealSecs(5.0));
        assert!(!guard.key(1, &resolve(0, 0), RealSecs(5.5), &all_pairs()));
        assert!(guard.key(1, &Action::DrawTile, RealSecs(5.6), &all_pairs()), "a move for no Hero is never held");
    }

    /// Issue 53: Force Bolt brought an individual down and bound all of
    /// Sil's Damage that Round to it, so her pair's Damage was lost without
    /// a word. The move is asked about, with the same Ability aimed where it
    /// wastes nothing offered instead; aimed there, nothing is asked.
    #[test]
    fn an_ability_that_binds_damage_to_a_falling_individual_is_asked_about() {
        use depths_rules::monster::MonsterType;
        use depths_rules::{AbilitySource, Difficulty, Effect, MonsterCard, Target};
        use depths_tests::*;
        let mut g = game_of(&["bren"]);
        g.heroes[0].mat.abilities.push(power("Dagger Throw", vec![Effect::DamageMonster { amount: 2, magic: false }]));
        stack_hero(&mut g, 0, &[8, 7, 6], &[]);
        stack_monster(&mut g, Difficulty::I, &[2, 2]);
        let chorus = MonsterCard {
            monster_type: MonsterType::Group,
            health_states: states(&[(4, 2, 2), (3, 2, 2), (2, 2, 2), (1, 2, 2)]),
            ..monster("Bone Chorus", Difficulty::I, [20, 20, 20], vec![])
        };
        fight(&mut g, vec![chorus]);
        g.combat.as_mut().unwrap().foes[0].individuals[1].health = 2;
        play(&mut g, 0, &[8, 7]);
        let throw = |individual| Action::ActivateAbility {
            hero: 0,
            source: AbilitySource::Mat(2),
            target: Target::Individual { foe: 0, individual },
        };
        let (down, lost) = wasted_by_binding(&g, &throw(1)).expect("the dagger brings #2 down");
        let c = g.combat().unwrap();
        let best = c.pairs(0).filter_map(|(e, s, _)| g.pair_deals(e, usize::from(s))).map(|(_, most)| most).max();
        assert_eq!(Some(lost), best, "what the best pair would have dealt");
        assert!(lost > 0);
        assert!(down.contains('2'), "{down}");
        let ask = ask_for(&g, &throw(1)).expect("asked");
        assert!(ask.cost.contains(&format!("{lost} Damage")), "{}", ask.cost);
        assert!(ask.alternatives.contains(&throw(0)), "aim it at one it does not bring down");
        assert_eq!(ask_for(&g, &throw(0)), None);
        // A playtest: once a pair is chosen, the warning quoted the other
        // pair's Damage. Resolving the weaker pair, the weaker pair's is lost.
        let deals = |g: &Game, slot: u8| g.pair_deals(0, usize::from(slot)).map_or(0, |(_, most)| most);
        let weaker = if deals(&g, 0) < deals(&g, 1) { 0 } else { 1 };
        assert_ne!(deals(&g, 0), deals(&g, 1), "two pairs that deal differently");
        g.apply(Action::ChoosePair { hero: 0, engagement: 0, slot: weaker }).unwrap();
        let (_, lost) = wasted_by_binding(&g, &throw(1)).expect("still asked");
        assert_eq!(lost, deals(&g, weaker), "the chosen pair's Damage");
    }

    /// A hot-seat playtest: Sil's Force Bolt was asked about, and the one
    /// move offered instead was Bren's Brush Aside (the same place on
    /// another Hero's mat), a move of the other player's. What is offered
    /// instead is the same Hero's same Ability, aimed elsewhere.
    #[test]
    fn an_ability_asked_about_offers_only_its_own_hero_instead() {
        use depths_rules::monster::MonsterType;
        use depths_rules::{AbilitySource, Difficulty, Effect, MonsterCard, Target};
        use depths_tests::*;
        let mut g = game_of(&["bren", "sil"]);
        for h in 0..2 {
            g.heroes[h]
                .mat
                .abilities
                .push(power("Dagger Throw", vec![Effect::DamageMonster { amount: 2, magic: false }]));
        }
        stack_hero(&mut g, 0, &[8, 7, 6], &[]);
        stack_hero(&mut g, 1, &[6, 5, 4], &[]);
        stack_monster(&mut g, Difficulty::I, &[2, 2, 2, 2]);
        let chorus = MonsterCard {
            monster_type: MonsterType::Group,
            health_states: states(&[(4, 2, 2), (3, 2, 2), (2, 2, 2), (1, 2, 2)]),
            ..monster("Bone Chorus", Difficulty::I, [20, 20, 20], vec![])
        };
        fight(&mut g, vec![chorus]);
        g.combat.as_mut().unwrap().foes[0].individuals[1].health = 2;
        play(&mut g, 0, &[8, 7]);
        play(&mut g, 1, &[6, 5]);
        let throw = Action::ActivateAbility {
            hero: 0,
            source: AbilitySource::Mat(2),
            target: Target::Individual { foe: 0, individual: 1 },
        };
        assert!(g.legal_actions().iter().any(|a| matches!(a, Action::ActivateAbility { hero: 1, .. })));
        let ask = ask_for(&g, &throw).expect("asked");
        assert!(!ask.alternatives.is_empty());
        for a in &ask.alternatives {
            assert!(
                matches!(a, Action::ActivateAbility { hero: 0, source: AbilitySource::Mat(2), .. }),
                "offered instead: {a:?}"
            );
        }
    }

    /// Resolves pairs (no Ability used, no turn ended) until `end` may be
    /// made with an Ability a Block paid for still unused.
    fn resolve_until_a_block_pays(g: &mut Game, end: &Action) {
        for _ in 0..10 {
            let legal = g.legal_actions();
            if legal.contains(end) && legal.iter().any(|a| paid_by_block(g, a)) {
                return;
            }
            let a = legal.iter().find(|a| !matches!(a, Action::EndTurn { .. } | Action::ActivateAbility { .. }));
            g.apply(a.cloned().expect("a pair to resolve")).unwrap();
        }
    }

    /// `hero` alone against a Cellar Rat that plays 6 and 4, having played 6
    /// and 4 from `hand`: a Block on each pair.
    fn facing_a_block(hero: &str, hand: &[u8]) -> Game {
        use depths_rules::Difficulty;
        use depths_tests::*;
        let mut g = game_of(&[hero]);
        stack_hero(&mut g, 0, hand, &[]);
        stack_monster(&mut g, Difficulty::I, &[6, 4]);
        fight(&mut g, vec![monster("Cellar Rat", Difficulty::I, [20, 20, 20], vec![])]);
        play(&mut g, 0, &[6, 4]);
        g
    }

    /// A turn ended with Shield Bash, paid for by a Block, unused: the
    /// Round's end takes it without a word (E lost Sil's heal of 3).
    #[test]
    fn ending_a_turn_with_an_ability_a_block_paid_for_is_asked_about() {
        let mut g = facing_a_block("bren", &[6, 4, 8]);
        let end = Action::EndTurn { hero: 0 };
        assert_eq!(ask_for(&g, &end), None, "not while nothing is paid for");
        resolve_until_a_block_pays(&mut g, &end);
        let ask = ask_for(&g, &end).expect("asked");
        assert!(ask.title.contains("Shield Bash"), "{}", ask.title);
        assert!(!ask.alternatives.is_empty() && ask.alternatives.iter().all(|a| paid_by_block(&g, a)), "{ask:?}");
        // Used, nothing is lost: the turn ends unasked.
        g.apply(ask.alternatives[0].clone()).unwrap();
        assert_eq!(ask_for(&g, &end), None);
    }

    /// A playtest: E asked "Warding Sigil goes unused" and offered it on
    /// Heroes at full Health; it healed nothing. A heal that would heal
    /// nobody is no loss: the turn ends unasked. Once it would heal, asked.
    #[test]
    fn a_heal_that_would_heal_nobody_is_not_asked_about() {
        let mut g = facing_a_block("sil", &[6, 4, 5]);
        let end = Action::EndTurn { hero: 0 };
        resolve_until_a_block_pays(&mut g, &end);
        assert!(g.legal_actions().iter().any(|a| paid_by_block(&g, a)), "a Block paid for the heal");
        assert_eq!(g.heroes[0].health, g.heroes[0].max_health());
        assert_eq!(ask_for(&g, &end), None, "healing nobody, nothing is lost");
        // Used on a Hero at full Health, it is spent for nothing: asked (the
        // Draught of Stillwater, three uses, was offered to drink at 14/14).
        let heal = g.legal_actions().into_iter().find(|a| paid_by_block(&g, a)).expect("the heal");
        let ask = ask_for(&g, &heal).expect("a heal that heals nobody is asked about");
        assert!(ask.title.contains("heals nobody"), "{}", ask.title);
        g.heroes[0].health -= 3;
        assert!(ask_for(&g, &end).is_some(), "a heal that heals is asked about");
        assert_eq!(ask_for(&g, &heal), None, "a heal that heals goes on unasked");
    }

    /// "Dead ends now: 16 of 19" stood in red and D drew at once: a draw
    /// that more likely loses the game than not is asked about, with the
    /// chance, and one that is more likely safe is not.
    #[test]
    fn a_draw_that_most_likely_loses_is_asked_about() {
        use depths_sim::Bot;
        let content = depths_rules::Content::builtin().unwrap();
        let (mut asked, mut safe, mut idle, mut no_door) = (0, 0, 0, 0);
        for seed in 1..=40 {
            let options = depths_rules::GameOptions::standard(&["bren", "sil"], seed);
            let mut g = Game::new(options, content.clone()).unwrap();
            for _ in 0..600 {
                if g.is_over() {
                    break;
                }
                if g.legal_actions().contains(&Action::DrawTile)
                    && let Some((losing, all)) = losing_draws(&g)
                {
                    let ask = ask_for(&g, &Action::DrawTile);
                    // What it offers instead may open the map: never an Item
                    // taken off or Healing bought.
                    let offered = ask.as_ref().map_or(&[][..], |a| &a.alternatives[..]);
                    assert!(offered.iter().all(|a| opens_the_map(&g, a)), "{offered:?}");
                    // A Key opens nothing where no Door is within reach.
                    let map = &g.adventure().unwrap().ecology.map;
                    let doors = map
                        .reachable_unencountered_elements()
                        .into_iter()
                        .filter(|e| matches!(map.element(*e), Some((depths_rules::map::Element::Door, _))));
                    if ask.is_some() && doors.count() == 0 {
                        let key = Action::StartPurchase { what: Purchase::Key };
                        assert!(!offered.contains(&key), "a Key offered with no Door in reach");
                        no_door += 1;
                    }
                    let other = g.legal_actions().into_iter().filter(|a| !matches!(a, Action::DrawTile));
                    idle += other.filter(|a| !opens_the_map(&g, a)).count().min(usize::from(ask.is_some()));
                    if losing == all {
                        assert!(ask.is_some_and(|a| a.cost.starts_with("Every tile left fits nowhere")));
                    } else if losing * 2 >= all {
                        let ask = ask.expect("asked");
                        assert!(ask.cost.contains(&format!("{losing} of the {all} tiles")), "{}", ask.cost);
                        asked += 1;
                    } else {
                        assert_eq!(ask, None, "{losing} of {all}");
                        safe += 1;
                    }
                }
                let a = depths_sim::HeuristicBot.choose(&g);
                g.apply(a).unwrap();
            }
        }
        assert!(asked > 0 && safe > 0, "asked {asked}, safe {safe}");
        assert!(idle > 0, "no question met a move that opens nothing, left out");
        assert!(no_door > 0, "no question asked with no Door in reach");
    }
}
