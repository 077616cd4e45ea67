//! Players made of code: a random bot and a careful heuristic bot. Both only
//! see the [`Game`] and answer with one legal [`Action`].

use depths_rules::adventure::{HeroChoice, Pending, Purchase, XpRef};
use depths_rules::map::Element;
use depths_rules::{Action, CombatStep, Game, GameRng, Outcome, Phase};

/// Chooses one legal action for the current decision.
pub trait Bot {
    fn choose(&mut self, game: &Game) -> Action;
}

/// Uniform over the legal actions, except that Equip/Unequip and purchases
/// are rare (otherwise random play could toggle an Item forever).
pub struct RandomBot {
    pub rng: GameRng,
}

impl Bot for RandomBot {
    fn choose(&mut self, g: &Game) -> Action {
        let legal = g.legal_actions();
        let busy: Vec<&Action> = legal
            .iter()
            .filter(|a| {
                !matches!(
                    a,
                    Action::Equip { .. }
                        | Action::Unequip { .. }
                        | Action::StartPurchase { .. }
                        | Action::CancelPurchase
                )
            })
            .collect();
        if busy.is_empty() || self.rng.below(20) == 0 {
            legal[self.rng.below(legal.len() as u32) as usize].clone()
        } else {
            busy[self.rng.below(busy.len() as u32) as usize].clone()
        }
    }
}

/// Plays like a careful player: keeps placement options open, encounters
/// blockers before it dead-ends, picks the Combat Pair that costs least,
/// heals when low and buys Abilities at Level Up.
#[derive(Default)]
pub struct HeuristicBot;

impl Bot for HeuristicBot {
    fn choose(&mut self, g: &Game) -> Action {
        let legal = g.legal_actions();
        if g.phase == Phase::Combat {
            return combat_choice(g, &legal);
        }
        if let Some(p) = g.pending() {
            return pending_choice(g, p, &legal);
        }
        explore_choice(g, &legal)
    }
}

fn first(legal: &[Action], f: impl Fn(&Action) -> bool) -> Option<Action> {
    legal.iter().find(|a| f(a)).cloned()
}

fn best_by(legal: &[Action], score: impl Fn(&Action) -> Option<i32>) -> Option<Action> {
    legal.iter().filter_map(|a| score(a).map(|s| (s, a))).max_by_key(|(s, _)| *s).map(|(_, a)| a.clone())
}

fn combat_choice(g: &Game, legal: &[Action]) -> Action {
    let c = g.combat().expect("in combat");
    let pick = match c.step {
        // Play the highest cards: more Hits, fewer Monster Hits.
        CombatStep::PlayCards => best_by(legal, |a| match a {
            Action::PlayCard { hero, card } => {
                g.heroes[*hero as usize].hand.iter().find(|x| x.id == *card).map(|x| i32::from(x.value))
            }
            _ => None,
        }),
        CombatStep::Resolve => {
            // Abilities that deal damage are always worth their Power; then the cheapest pair.
            let damage = first(legal, |a| {
                matches!(a, Action::ActivateAbility { hero, source, .. }
                    if g.heroes[*hero as usize].ability(*source).is_some_and(|ab| ab.effects.iter().any(|e| matches!(e, depths_rules::Effect::DamageMonster { .. }))))
            });
            damage
                .or_else(|| {
                    best_by(legal, |a| match a {
                        Action::ChoosePair { engagement, slot, .. } => {
                            let e = &c.engagements[*engagement as usize];
                            let bonus = c.foes[e.foe as usize].card_bonus;
                            let s = e.slots[*slot as usize];
                            let (dealt, taken) = s.damage(bonus)?;
                            let block = (s.outcome(bonus) == Some(Outcome::Block)) as i32;
                            Some(i32::from(dealt) * 2 - i32::from(taken) * 3 + block)
                        }
                        _ => None,
                    })
                })
                .or_else(|| first(legal, |a| matches!(a, Action::EndTurn { .. })))
        }
        // Damage to the weakest individual: kills avoid Return Damage.
        CombatStep::AssignDamage => best_by(legal, |a| match a {
            Action::AssignDamage { individual, .. } => {
                let foe = &c.foes[c.packets[0].foe as usize];
                foe.individuals.get(*individual as usize).map(|i| -i32::from(i.health))
            }
            _ => None,
        }),
        _ => None,
    };
    pick.unwrap_or_else(|| legal[0].clone())
}

fn pending_choice(g: &Game, p: &Pending, legal: &[Action]) -> Action {
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
            Action::ChooseHero { hero } => Some(-(g.heroes[*hero as usize].items.len() as i32)),
            _ => None,
        }),
        // Remove the lowest cards.
        Pending::RemoveCards { hero, .. } => best_by(legal, |a| match a {
            Action::RemoveActionCard { card } => {
                g.heroes[*hero as usize].draw.iter().find(|c| c.id == *card).map(|c| -i32::from(c.value))
            }
            _ => None,
        }),
        Pending::Purchase { .. } => first(legal, |a| matches!(a, Action::PayXp { card: XpRef::Pool(_) }))
            .or_else(|| first(legal, |a| matches!(a, Action::CancelPurchase))),
        Pending::SplitHealing { .. } => best_by(legal, |a| match a {
            // Spread healing towards whoever is lowest.
            Action::SplitHealing { amounts } => {
                Some(amounts.iter().zip(&g.heroes).map(|(x, h)| -(i32::from(h.health) + i32::from(*x)).pow(2)).sum())
            }
            _ => None,
        }),
        Pending::LevelUp { .. } => {
            first(legal, |a| matches!(a, Action::StartPurchase { what: Purchase::Ability { .. } }))
                .or_else(|| first(legal, |a| matches!(a, Action::FinishLevelUp)))
        }
        _ => None,
    };
    pick.unwrap_or_else(|| legal[0].clone())
}

fn explore_choice(g: &Game, legal: &[Action]) -> Action {
    let adv = g.adventure().expect("full game");
    let eco = &adv.ecology;
    let map = &eco.map;
    // Place the drawn tile where it leaves the most room to grow.
    if eco.drawn.is_some() {
        let pick = best_by(legal, |a| match a {
            Action::PlaceTile { placement } => {
                let mut next = g.clone();
                next.apply(a.clone()).ok()?;
                let m = &next.adventure()?.ecology.map;
                let room = m.frontier().cells().count() as i32;
                let _ = placement;
                Some(room * 4 + m.reachable_unencountered_elements().len() as i32)
            }
            _ => None,
        });
        return pick.unwrap_or_else(|| legal[0].clone());
    }
    let low = g.heroes.iter().any(|h| h.health * 2 < h.max_health());
    let kind = |a: &Action| match a {
        Action::Encounter { element } => map.element(*element).map(|(k, _)| k),
        _ => None,
    };
    // Heal when someone is low and XP allows.
    if low
        && let Some(a) = first(legal, |a| matches!(a, Action::StartPurchase { what: Purchase::Healing { units: 1 } }))
    {
        let spare = g.payable_xp() > 6;
        if spare {
            return a;
        }
    }
    let campfire = first(legal, |a| kind(a) == Some(Element::Campfire));
    if low && let Some(a) = campfire {
        return a;
    }
    if let Some(a) = first(legal, |a| matches!(a, Action::EncounterLegendary { .. })) {
        return a;
    }
    if let Some(a) = first(legal, |a| kind(a) == Some(Element::Chest)) {
        return a;
    }
    // Dead-end gauge: how many of the remaining tiles could not be placed now.
    let remaining = eco.pile.tiles();
    let frontier = map.frontier();
    let stuck = remaining.iter().filter(|t| frontier.legal_placements(t).is_empty()).count();
    let blockers: Vec<Action> = legal
        .iter()
        .filter(|a| matches!(kind(a), Some(Element::Feature) | Some(Element::Door) | Some(Element::Monster { .. })))
        .cloned()
        .collect();
    if stuck > 0 || frontier.cells().count() < 3 {
        // Features and Doors first, then Monsters while healthy.
        if let Some(a) = blockers.iter().find(|a| matches!(kind(a), Some(Element::Feature) | Some(Element::Door))) {
            return a.clone();
        }
        if !low && let Some(a) = blockers.first() {
            return a.clone();
        }
        if adv.keys == 0
            && let Some(a) = first(legal, |a| matches!(a, Action::StartPurchase { what: Purchase::Key }))
        {
            return a;
        }
    }
    // Monsters and Features give XP; take them while healthy, before the Stairs.
    if !low && let Some(a) = blockers.first() {
        return a.clone();
    }
    if let Some(a) = first(legal, |a| matches!(a, Action::DrawTile)) {
        return a;
    }
    if let Some(a) = blockers.first().cloned().or(campfire) {
        return a;
    }
    first(legal, |a| kind(a) == Some(Element::StairGuardian)).unwrap_or_else(|| legal[0].clone())
}
