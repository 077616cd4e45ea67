//! "All Heroes perform each Step simultaneously": the same Combat with the
//! Heroes seated differently ([`reseat`]), and every outcome a Round can reach
//! from where it stands ([`round_outcomes`]), told in the original seating so
//! that two seatings can be compared.

use std::collections::BTreeSet;

use depths_rules::effect::{Effect, TargetKind};
use depths_rules::{Action, CombatStep, Event, Game, Phase};

/// The Combat with the Heroes seated anew: seat `j` holds the Hero who sat at
/// `order[j]`. Everything that names a Hero follows them, and the
/// engagements are listed in seat order, as a Round deals them.
pub fn reseat(g: &Game, order: &[usize]) -> Game {
    let mut seat = vec![0u8; order.len()];
    for (j, &o) in order.iter().enumerate() {
        seat[o] = j as u8;
    }
    let mut out = g.clone();
    out.heroes = order.iter().map(|&o| g.heroes[o].clone()).collect();
    let (Some(c), Some(src)) = (out.combat.as_mut(), g.combat()) else { return out };
    c.assignment = order.iter().map(|&o| src.assignment[o].clone()).collect();
    c.heroes = order.iter().map(|&o| src.heroes[o].clone()).collect();
    c.play_one_next_round = order.iter().map(|&o| src.play_one_next_round[o]).collect();
    for e in &mut c.engagements {
        e.hero = seat[usize::from(e.hero)];
    }
    c.engagements.sort_by_key(|e| (e.group, e.hero));
    let bits = |b: u8| (0..8).filter(|h| b & (1 << h) != 0).fold(0u8, |acc, h| acc | (1 << seat[h]));
    for p in &mut c.packets {
        p.hero = seat[usize::from(p.hero)];
        p.owners = bits(p.owners);
    }
    for w in &mut c.wounds {
        w.heroes = bits(w.heroes);
    }
    for hit in &mut c.hits {
        hit.2 = seat[usize::from(hit.2)];
    }
    for k in &mut c.kills {
        for h in &mut k.contributors {
            *h = seat[usize::from(*h)];
        }
        k.contributors.sort_unstable();
    }
    out
}

/// Where a Round ends, in the original seating: each Hero's Health and
/// whether they avoided Return Damage, each individual's Health (`None` once
/// the Combat is won and its tokens are gone) and whether the game is lost.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RoundOutcome {
    pub health: Vec<u8>,
    pub avoided: Vec<bool>,
    pub foes: Option<Vec<Vec<u8>>>,
    pub lost: bool,
}

/// Why a Round's outcomes were not all found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unexplored {
    /// More states than the budget allows.
    TooMany,
    /// The next Round's Monsters played at once (no Hero had a card): their
    /// draws from a shared deck follow the seating, as dealing cards does.
    NextRoundPlayed,
}

/// An ability whose outcome rests on a card drawn face down (a Monster card
/// redrawn, a played card replaced): a draw, not a choice, so left out.
fn draws_a_card(g: &Game, a: &Action) -> bool {
    let Action::ActivateAbility { hero, source, .. } = a else { return false };
    let Some(ability) = g.heroes[usize::from(*hero)].ability(*source) else { return false };
    ability.target_kind() == TargetKind::DiscardCard
        || ability.effects.iter().any(|e| matches!(e, Effect::RedrawMonsterCard | Effect::ReplacePlayedCard))
}

fn acting(a: &Action) -> Option<u8> {
    match a {
        Action::PlayCard { hero, .. }
        | Action::PlaceMonsterCard { hero, .. }
        | Action::ChoosePair { hero, .. }
        | Action::EndTurn { hero }
        | Action::ActivateAbility { hero, .. }
        | Action::AssignDamage { hero, .. } => Some(*hero),
        _ => None,
    }
}

/// Every outcome the rest of this Round can reach, seated by `order` (see
/// [`reseat`]) and told in the original seating. In each step the first Hero
/// by seat still acting acts until done, so each seating also tries another
/// order of acting; each Hero uses at most one ability (none that draws a card).
pub fn round_outcomes(g: &Game, order: &[usize], budget: usize) -> Result<BTreeSet<RoundOutcome>, Unexplored> {
    let mut out = BTreeSet::new();
    let mut left = budget;
    let avoided = vec![false; order.len()];
    explore(g, order, 0, &avoided, &mut left, &mut out)?;
    Ok(out)
}

fn explore(
    g: &Game,
    order: &[usize],
    used: u8,
    avoided: &[bool],
    left: &mut usize,
    out: &mut BTreeSet<RoundOutcome>,
) -> Result<(), Unexplored> {
    let c = g.combat().expect("in Combat");
    let round = c.round;
    let first = c.acting_hero();
    for a in g.legal_actions() {
        if acting(&a).is_some_and(|h| Some(h) != first) || draws_a_card(g, &a) {
            continue;
        }
        let mut used = used;
        if let Action::ActivateAbility { hero, .. } = a {
            if used & (1 << hero) != 0 {
                continue;
            }
            used |= 1 << hero;
        }
        *left = left.checked_sub(1).ok_or(Unexplored::TooMany)?;
        let mut next = g.clone();
        let events = next.apply(a).expect("legal");
        let mut avoided = avoided.to_vec();
        for e in &events {
            if let Event::ReturnDamageAvoided { hero } = e {
                avoided[order[usize::from(*hero)]] = true;
            }
        }
        let ended = next.is_over() || next.combat().is_none_or(|n| n.round != round);
        if !ended {
            explore(&next, order, used, &avoided, left, out)?;
            continue;
        }
        if next.combat().is_some_and(|n| n.step != CombatStep::PlayCards && !next.is_over()) {
            return Err(Unexplored::NextRoundPlayed);
        }
        let mut health = vec![0; order.len()];
        for (j, h) in next.heroes.iter().enumerate() {
            health[order[j]] = h.health;
        }
        let foes =
            next.combat().map(|n| n.foes.iter().map(|f| f.individuals.iter().map(|i| i.health).collect()).collect());
        out.insert(RoundOutcome { health, avoided, foes, lost: matches!(next.phase(), Phase::Lost(_)) });
    }
    Ok(())
}

/// Every order of `0..n`.
pub fn seatings(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for rest in seatings(n - 1) {
        for at in 0..=rest.len() {
            let mut s = rest.clone();
            s.insert(at, n - 1);
            all.push(s);
        }
    }
    all
}
