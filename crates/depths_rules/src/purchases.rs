//! "Spending Experience Points": Keys, Healing and Abilities, paid from the
//! communal XP pool and with Items, "No change is given"; Healing shared as
//! the players decide ("Healing Cost").

use crate::action::Action;
use crate::adventure::{MAX_KEYS, OfferedItem, Pending, Purchase, XpCard, XpRef};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;
use crate::hero::Hero;

impl Game {
    /// The XP in the party's pool (0 outside an Adventure).
    pub fn pool_xp(&self) -> u16 {
        self.adventure().map_or(0, |a| a.xp_pool.iter().map(|c| u16::from(c.xp)).sum())
    }

    /// XP the Heroes could pay: the pool and every Item they own.
    pub fn payable_xp(&self) -> u16 {
        let pool = self.adventure().into_iter().flat_map(|a| a.xp_pool.iter().map(|c| c.xp));
        let items = self.heroes.iter().flat_map(|h| h.items.iter()).map(|i| i.card.xp);
        pool.chain(items).fold(0, |sum, xp| sum.saturating_add(u16::from(xp)))
    }

    /// The pool's cards that pay what the purchase under way still owes:
    /// those that overpay least ("No change is given"), the fewest such,
    /// highest index first so each stays where it is until paid. `None`
    /// when no purchase is under way or the pool alone cannot pay (Items
    /// are never spent unasked).
    pub fn xp_payment(&self) -> Option<Vec<XpRef>> {
        let a = self.adventure()?;
        let Some(Pending::Purchase { cost, paid, items, .. }) = a.pending.first() else { return None };
        let owed = usize::from(u16::from(*cost).saturating_sub(paid_so_far(paid, items)));
        let values: Vec<usize> = a.xp_pool.iter().map(|c| usize::from(c.xp)).collect();
        let total: usize = values.iter().sum();
        if owed == 0 || total < owed {
            return None;
        }
        // fewest[s]: the fewest cards that sum to exactly s; each card used
        // at most once (the sums walked downwards).
        let mut fewest: Vec<Option<Vec<usize>>> = vec![None; total + 1];
        fewest[0] = Some(Vec::new());
        for (i, &v) in values.iter().enumerate() {
            for s in (v..=total).rev() {
                if let Some(fewer) = &fewest[s - v]
                    && fewest[s].as_ref().is_none_or(|have| fewer.len() + 1 < have.len())
                {
                    let mut cards = fewer.clone();
                    cards.push(i);
                    fewest[s] = Some(cards);
                }
            }
        }
        let mut cards = (owed..=total).find_map(|s| fewest[s].take())?;
        cards.sort_unstable_by(|a, b| b.cmp(a));
        Some(cards.into_iter().map(|i| XpRef::Pool(i as u8)).collect())
    }

    /// What `what` costs in XP now (the Reference Card's price); `None`
    /// outside an Adventure.
    pub fn price_of(&self, what: Purchase) -> Option<u8> {
        self.adventure().map(|_| self.purchase_cost(what))
    }

    pub(crate) fn purchase_cost(&self, what: Purchase) -> u8 {
        let r = &self.adv().ecology.reference;
        match what {
            Purchase::Key => r.key_cost,
            Purchase::Healing { units } => r.healing.xp.saturating_mul(units),
            Purchase::Ability { .. } => r.ability_cost,
        }
    }

    /// Health Points one unit of Healing buys for the whole party.
    pub fn healing_per_unit(&self) -> u16 {
        // A fight on its own buys nothing.
        let Some(a) = self.adventure() else { return 0 };
        let double = if a.options.variants.double_healing { 2 } else { 1 };
        u16::from(a.ecology.reference.healing.health) * self.heroes.len() as u16 * double
    }

    pub(crate) fn missing_health(&self) -> u16 {
        self.heroes.iter().map(|h| u16::from(h.max_health() - h.health)).sum()
    }

    pub(crate) fn check_purchase(&self, action: &Action) -> Result<(), RuleError> {
        let a = self.adv();
        let pending = a.pending.first();
        match action {
            Action::StartPurchase { what } => {
                match what {
                    // "Keys can be bought while Heroes are Exploring, but they cannot
                    // be bought in the time between drawing and placing a new Map Tile."
                    Purchase::Key if a.ecology.drawn.is_some() => return Err(RuleError::TileWaiting),
                    Purchase::Key => {}
                    // "Healing can be bought anytime while Heroes are Exploring."
                    Purchase::Healing { units } => {
                        let per = self.healing_per_unit();
                        let missing = self.missing_health();
                        // Never more units than it takes to heal everyone fully.
                        if *units == 0 || missing == 0 || u32::from(*units - 1) * u32::from(per) >= u32::from(missing) {
                            return Err(RuleError::BadSplit);
                        }
                    }
                    // "Each Hero may buy one Ability" at Level Up.
                    Purchase::Ability { hero } => {
                        if usize::from(*hero) >= self.heroes.len() {
                            return Err(RuleError::NoSuchHero(*hero));
                        }
                        match pending {
                            Some(Pending::LevelUp { bought }) if bought[*hero as usize] => {
                                return Err(RuleError::AlreadyBought);
                            }
                            Some(Pending::LevelUp { .. }) => {}
                            _ => return Err(RuleError::WrongStep { expected: "Level Up" }),
                        }
                    }
                }
                let need = self.purchase_cost(*what);
                let have = self.payable_xp();
                if u16::from(need) > have {
                    Err(RuleError::NotEnoughXp { need, have: have.min(255) as u8 })
                } else {
                    Ok(())
                }
            }
            Action::PayXp { card } => {
                let Some(Pending::Purchase { .. }) = pending else {
                    return Err(RuleError::WrongStep { expected: "a purchase" });
                };
                match *card {
                    XpRef::Pool(i) if usize::from(i) < a.xp_pool.len() => Ok(()),
                    XpRef::Item { hero, item }
                        if self.heroes.get(usize::from(hero)).is_some_and(|h| usize::from(item) < h.items.len()) =>
                    {
                        Ok(())
                    }
                    _ => Err(RuleError::NoSuchItem),
                }
            }
            Action::CancelPurchase => match pending {
                Some(Pending::Purchase { .. }) => Ok(()),
                _ => Err(RuleError::WrongStep { expected: "a purchase" }),
            },
            Action::SplitHealing { amounts } => {
                let Some(Pending::SplitHealing { points }) = pending else {
                    return Err(RuleError::WrongStep { expected: "Healing to be shared" });
                };
                let total = u16::from(*points).min(self.missing_health());
                let fits = amounts.len() == self.heroes.len()
                    && amounts.iter().map(|&x| u16::from(x)).sum::<u16>() == total
                    && amounts.iter().zip(&self.heroes).all(|(&x, h)| x <= h.max_health() - h.health);
                if fits { Ok(()) } else { Err(RuleError::BadSplit) }
            }
            _ => Err(RuleError::WrongStep { expected: "a purchase" }),
        }
    }

    pub(crate) fn apply_purchase(&mut self, action: Action, events: &mut Vec<Event>) {
        match action {
            Action::StartPurchase { what } => {
                let cost = self.purchase_cost(what);
                self.adv_mut().pending.insert(0, Pending::Purchase { what, cost, paid: Vec::new(), items: Vec::new() });
            }
            Action::PayXp { card } => self.pay_xp(card, events),
            Action::CancelPurchase => {
                if let Some(Pending::Purchase { paid, items, .. }) = self.adv_mut().pending.first().cloned() {
                    self.adv_mut().pending.remove(0);
                    self.adv_mut().xp_pool.extend(paid);
                    // Back where they were, as they were (uses left, Equipped),
                    // last offered first so the earlier positions hold.
                    for offered in items.into_iter().rev() {
                        let list = &mut self.heroes[offered.hero as usize].items;
                        let at = usize::from(offered.index).min(list.len());
                        list.insert(at, offered.item);
                    }
                }
            }
            Action::SplitHealing { amounts } => {
                self.adv_mut().pending.remove(0);
                for (h, amount) in amounts.into_iter().enumerate() {
                    self.heal_hero(h as u8, amount, events);
                }
            }
            _ => unreachable!("check_purchase refuses other actions"),
        }
    }

    /// Healing to buy while Exploring: one to as many units as heal everyone.
    pub(crate) fn healing_candidates(&self, out: &mut Vec<Action>) {
        let per = self.healing_per_unit().max(1);
        let units = self.missing_health().div_ceil(per).min(20) as u8;
        out.extend((1..=units).map(|units| Action::StartPurchase { what: Purchase::Healing { units } }));
    }

    /// Paying for a purchase, or sharing the Healing bought.
    pub(crate) fn payment_candidates(&self, out: &mut Vec<Action>) {
        let a = self.adv();
        match a.pending.first() {
            Some(Pending::Purchase { .. }) => {
                out.extend((0..a.xp_pool.len() as u8).map(|i| Action::PayXp { card: XpRef::Pool(i) }));
                for (h, hero) in self.heroes.iter().enumerate() {
                    out.extend(
                        (0..hero.items.len() as u8)
                            .map(|item| Action::PayXp { card: XpRef::Item { hero: h as u8, item } }),
                    );
                }
                out.push(Action::CancelPurchase);
            }
            Some(Pending::SplitHealing { points }) => {
                out.extend(splits(&self.heroes, *points).into_iter().map(|amounts| Action::SplitHealing { amounts }));
            }
            _ => {}
        }
    }

    pub(crate) fn pay_xp(&mut self, card: XpRef, events: &mut Vec<Event>) {
        let paid_xp = match card {
            XpRef::Pool(i) => {
                let c = self.adv_mut().xp_pool.remove(usize::from(i));
                let xp = c.xp;
                if let Some(Pending::Purchase { paid, .. }) = self.adv_mut().pending.first_mut() {
                    paid.push(c);
                }
                xp
            }
            XpRef::Item { hero, item } => {
                // "Item Action Cards from an Item stay in your Action Deck even if you spend … that Item."
                let it = self.heroes[hero as usize].items.remove(usize::from(item));
                let xp = it.card.xp;
                if let Some(Pending::Purchase { items, .. }) = self.adv_mut().pending.first_mut() {
                    items.push(OfferedItem { hero, index: item, item: it });
                }
                xp
            }
        };
        let Some(Pending::Purchase { what, cost, paid, items }) = self.adv_mut().pending.first().cloned() else {
            return;
        };
        let total = paid_so_far(&paid, &items);
        let _ = paid_xp;
        if total < u16::from(cost) {
            return;
        }
        // Paid in full; "No change is given."
        self.adv_mut().pending.remove(0);
        let record = &mut self.adv_mut().record;
        record.xp_spent = record.xp_spent.saturating_add(u32::from(total));
        events.push(Event::XpSpent { xp: total.min(255) as u8 });
        match what {
            Purchase::Key => {
                let adv = self.adv_mut();
                adv.keys = adv.keys.saturating_add(1).min(MAX_KEYS);
                events.push(Event::KeysChanged { keys: adv.keys });
            }
            Purchase::Healing { units } => {
                let points = (u32::from(self.healing_per_unit()) * u32::from(units)).min(255) as u8;
                self.adv_mut().pending.insert(0, Pending::SplitHealing { points });
            }
            Purchase::Ability { hero } => {
                if let Some(Pending::LevelUp { bought }) = self.adv_mut().pending.first_mut() {
                    bought[hero as usize] = true;
                }
                self.offer_abilities(hero, events);
                // offer_abilities queues at the back; the choice comes now.
                let adv = self.adv_mut();
                if let Some(p) = adv.pending.pop() {
                    adv.pending.insert(0, p);
                }
            }
        }
    }
}

/// What a purchase under way has been paid so far: its XP cards and the
/// Items offered.
pub fn paid_so_far(paid: &[XpCard], items: &[OfferedItem]) -> u16 {
    let xp = paid.iter().map(|c| c.xp).chain(items.iter().map(|o| o.item.card.xp));
    xp.fold(0, |sum, xp| sum.saturating_add(u16::from(xp)))
}

/// Every way to share `points` (capped at what the Heroes are missing).
pub(crate) fn splits(heroes: &[Hero], points: u8) -> Vec<Vec<u8>> {
    let missing: Vec<u8> = heroes.iter().map(|h| h.max_health() - h.health).collect();
    let total = u16::from(points).min(missing.iter().map(|&m| u16::from(m)).sum()) as u8;
    let mut out = Vec::new();
    let mut current = Vec::new();
    fn rec(missing: &[u8], left: u8, current: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if missing.is_empty() {
            if left == 0 {
                out.push(current.clone());
            }
            return;
        }
        let rest: u16 = missing[1..].iter().map(|&m| u16::from(m)).sum();
        for x in 0..=missing[0].min(left) {
            if u16::from(left - x) <= rest {
                current.push(x);
                rec(&missing[1..], left - x, current, out);
                current.pop();
            }
        }
    }
    rec(&missing, total, &mut current, &mut out);
    out
}
