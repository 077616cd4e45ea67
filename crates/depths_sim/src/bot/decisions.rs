//! The careful bot's answers to the decisions outside Combat: Items,
//! Abilities, purchases and which Hero takes what.

use depths_rules::adventure::{HeroChoice, Pending, Purchase, XpRef};
use depths_rules::{Action, Activation, Effect, Game};

use super::choosing::{best_by, first};

fn ability_score(ab: &depths_rules::Ability) -> i32 {
    let mut s = 0;
    for e in &ab.effects {
        s += match e {
            Effect::Armor { amount } => 8 * i32::from(*amount),
            Effect::DamageMonster { amount, .. } => 2 * i32::from(*amount),
            Effect::BonusDamage { amount } => 2 * i32::from(*amount),
            Effect::HealHeroes { amount, .. } => i32::from(*amount) + 1,
            Effect::SwapPlayedCards | Effect::ModifyMonsterCard { .. } | Effect::ModifyPlayedCard { .. } => 5,
            Effect::RedrawMonsterCard | Effect::IgnoreResults => 4,
            Effect::Magic => 3,
            Effect::StorePower => 3,
            Effect::UnlockDoor | Effect::Keys { .. } => 3,
            _ => 1,
        };
    }
    s += match ab.activation {
        Activation::Passive => 6,
        Activation::Block => 0,
        Activation::Power(n) => -i32::from(n),
    };
    if ab.exhaust_after_use {
        s -= 2;
    }
    s
}

pub(super) fn item_score(it: &depths_rules::hero::ItemCard) -> i32 {
    let mut s = 4 * i32::from(it.armor) + if it.magic { 3 } else { 0 };
    s += it.abilities.iter().map(ability_score).sum::<i32>();
    s += it.add_cards.iter().map(|&v| i32::from(v) - 4).sum::<i32>();
    for a in &it.abilities {
        if a.effects.iter().any(|e| matches!(e, Effect::WoundEachRound { .. })) {
            s -= 6;
        }
    }
    s
}

pub(super) fn pending_choice(g: &Game, p: &Pending, legal: &[Action]) -> Action {
    let pick = match p {
        Pending::ChooseHero(HeroChoice::Heal(_)) => best_by(legal, |a| match a {
            Action::ChooseHero { hero } => {
                let h = &g.heroes[*hero as usize];
                Some(i32::from(h.max_health() - h.health))
            }
            _ => None,
        }),
        Pending::ChooseHero(HeroChoice::Damage(_)) => best_by(legal, |a| match a {
            Action::ChooseHero { hero } => Some(i32::from(g.heroes[*hero as usize].health)),
            _ => None,
        }),
        Pending::ChooseHero(_) => best_by(legal, |a| match a {
            Action::ChooseHero { hero } => {
                let h = &g.heroes[*hero as usize];
                Some(-(h.items.len() as i32) * 10 - i32::from(h.armor()))
            }
            _ => None,
        }),
        Pending::ChooseItem { options, .. } => best_by(legal, |a| match a {
            Action::ChooseOption { index } => options.get(usize::from(*index)).map(item_score),
            _ => None,
        }),
        Pending::ChooseAbility { options, .. } => best_by(legal, |a| match a {
            Action::ChooseOption { index } => options.get(usize::from(*index)).map(|o| ability_score(&o.ability)),
            _ => None,
        }),
        // Remove the lowest cards.
        Pending::RemoveCards { hero, .. } => best_by(legal, |a| match a {
            Action::RemoveActionCard { card } => {
                g.heroes[*hero as usize].draw.iter().find(|c| c.id == *card).map(|c| -i32::from(c.value))
            }
            _ => None,
        }),
        Pending::Purchase { cost, paid, items, .. } => {
            let have = depths_rules::purchases::paid_so_far(paid, items);
            let left = u16::from(*cost).saturating_sub(have);
            let pool = &g.adventure().expect("full game").xp_pool;
            // A card that pays exactly what is left, else the smallest card.
            let exact = pool.iter().position(|c| u16::from(c.xp) == left);
            let smallest = (0..pool.len()).min_by_key(|&i| pool[i].xp);
            let fits: u16 = pool.iter().map(|c| u16::from(c.xp)).sum();
            if fits >= left {
                exact.or(smallest).map(|i| Action::PayXp { card: XpRef::Pool(i as u8) }).filter(|a| legal.contains(a))
            } else {
                first(legal, |a| matches!(a, Action::CancelPurchase))
            }
        }
        Pending::SplitHealing { .. } => best_by(legal, |a| match a {
            // Spread healing towards whoever is lowest (by share of maximum).
            Action::SplitHealing { amounts } => Some(
                amounts
                    .iter()
                    .zip(&g.heroes)
                    .map(|(x, h)| {
                        let f = (i32::from(h.health) + i32::from(*x)) * 100 / i32::from(h.max_health().max(1));
                        -(100 - f).pow(2)
                    })
                    .sum(),
            ),
            _ => None,
        }),
        Pending::LevelUp { bought } => {
            let cost = g.adventure().map_or(255, |a| u16::from(a.ecology.reference.ability_cost));
            // Weakest Hero first.
            let mut order: Vec<usize> = (0..g.heroes.len()).filter(|&h| !bought[h]).collect();
            order.sort_by_key(|&h| g.heroes[h].abilities.len());
            let buy = order
                .into_iter()
                .map(|h| Action::StartPurchase { what: Purchase::Ability { hero: h as u8 } })
                .find(|a| legal.contains(a));
            if g.pool_xp() >= cost { buy } else { None }
                .or_else(|| first(legal, |a| matches!(a, Action::FinishLevelUp)))
        }
        _ => None,
    };
    pick.unwrap_or_else(|| {
        if legal.is_empty() {
            panic!("no legal action for {p:?}; pending {:?}", g.adventure().map(|a| &a.pending));
        }
        legal[0].clone()
    })
}
