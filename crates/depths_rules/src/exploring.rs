//! "Exploring": drawing and placing Map Tiles, choosing what to Encounter,
//! spending Experience Points, and Equipping Items — the actions outside Combat.

use crate::action::{Action, Target};
use crate::adventure::{Pending, Purchase, XpRef};
use crate::effect::{Ability, Activation, Effect};
use crate::error::RuleError;
use crate::event::Event;
use crate::game::{Game, Stage};
use crate::hero::{AbilitySource, Hero};
use crate::map::{Element, ElementState, RuneMatch};

/// Effects an ability may have to be used while Exploring.
fn usable_exploring(e: &Effect) -> bool {
    matches!(
        e,
        Effect::UnlockDoor
            | Effect::HealHeroes { .. }
            | Effect::RefreshSpells
            | Effect::Keys { .. }
            | Effect::StorePower
            | Effect::RevealFeatures { .. }
    )
}

pub(crate) fn exploring_ability(a: &Ability) -> bool {
    a.activation != Activation::Passive && !a.effects.is_empty() && a.effects.iter().all(usable_exploring)
}

impl Game {
    /// No card, choice or Combat is in progress: the Heroes are free to Explore.
    fn free(&self) -> bool {
        let a = self.adv();
        self.stage == Stage::Exploring && a.pending.is_empty() && a.queue.is_empty() && a.resolving.is_empty()
    }

    /// Legendary Locations the Heroes may Encounter now.
    pub fn discovered_legendary_locations(&self) -> Vec<RuneMatch> {
        let Some(a) = self.adventure() else { return Vec::new() };
        let e = &a.ecology;
        crate::map::discovered_legendary_locations(&e.map, &e.patterns, &e.used_runes)
    }

    /// The decision the game waits for outside Combat, if any.
    pub fn pending(&self) -> Option<&Pending> {
        self.adventure().and_then(|a| a.pending.first())
    }

    /// XP the Heroes could pay: the pool and every Item they own.
    pub fn payable_xp(&self) -> u16 {
        let a = self.adv();
        let pool: u16 = a.xp_pool.iter().map(|c| u16::from(c.xp)).sum();
        let items: u16 = self.heroes.iter().flat_map(|h| h.items.iter()).map(|i| u16::from(i.card.xp)).sum();
        pool + items
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
    pub(crate) fn healing_per_unit(&self) -> u16 {
        let a = self.adv();
        let double = if a.options.variants.double_healing { 2 } else { 1 };
        u16::from(a.ecology.reference.healing.health) * self.heroes.len() as u16 * double
    }

    fn missing_health(&self) -> u16 {
        self.heroes.iter().map(|h| u16::from(h.max_health() - h.health)).sum()
    }

    pub(crate) fn check_exploring(&self, action: &Action) -> Result<(), RuleError> {
        let a = self.adv();
        let eco = &a.ecology;
        let hero_ok = |h: u8| if usize::from(h) < self.heroes.len() { Ok(()) } else { Err(RuleError::NoSuchHero(h)) };
        let free = || {
            if self.free() { Ok(()) } else { Err(RuleError::NotWhileEncountering) }
        };
        let no_tile = || if eco.drawn.is_some() { Err(RuleError::TileWaiting) } else { Ok(()) };
        let pending = a.pending.first();
        match action {
            Action::DrawTile => {
                free()?;
                no_tile()?;
                if eco.pile.is_empty() { Err(RuleError::NoTilesLeft) } else { Ok(()) }
            }
            Action::PlaceTile { placement } => {
                let tile = eco.drawn.as_ref().ok_or(RuleError::NoTileDrawn)?;
                if !a.pending.is_empty() {
                    return Err(RuleError::NotWhileEncountering);
                }
                eco.map.check_placement(tile, *placement).map_err(RuleError::Placement)
            }
            Action::PlaceSetAsideTile { placement } => {
                free()?;
                no_tile()?;
                let tile = eco.dead_end.set_aside.as_ref().ok_or(RuleError::NoTileDrawn)?;
                eco.map.check_placement(tile, *placement).map_err(RuleError::Placement)
            }
            Action::Encounter { element } => {
                free()?;
                no_tile()?;
                if !eco.map.reachable_unencountered_elements().contains(element) {
                    return Err(RuleError::NotReachable);
                }
                let (kind, _) = eco.map.element(*element).ok_or(RuleError::NotReachable)?;
                let locked = kind == Element::Door || (kind == Element::Chest && a.options.variants.locked_chests);
                if locked && a.keys == 0 { Err(RuleError::NeedsKey) } else { Ok(()) }
            }
            Action::EncounterLegendary { index } => {
                free()?;
                no_tile()?;
                if usize::from(*index) < self.discovered_legendary_locations().len() {
                    Ok(())
                } else {
                    Err(RuleError::NotReachable)
                }
            }
            Action::StartPurchase { what } => {
                match what {
                    Purchase::Key => {
                        // "…cannot be bought in the time between drawing and placing a new Map Tile."
                        free()?;
                        no_tile()?;
                    }
                    Purchase::Healing { units } => {
                        // "Healing can be bought anytime while Heroes are Exploring."
                        if !a.pending.is_empty() || !a.queue.is_empty() || !a.resolving.is_empty() {
                            return Err(RuleError::NotWhileEncountering);
                        }
                        let per = self.healing_per_unit();
                        let missing = self.missing_health();
                        // Never more units than it takes to heal everyone fully.
                        if *units == 0 || missing == 0 || u16::from(*units - 1) * per >= missing {
                            return Err(RuleError::BadSplit);
                        }
                    }
                    Purchase::Ability { hero } => {
                        hero_ok(*hero)?;
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
            Action::Equip { hero, item } | Action::Unequip { hero, item } => {
                // "Items may be Equipped or Unequipped anytime while Exploring,
                // but cannot be … while Encountering."
                hero_ok(*hero)?;
                if !a.pending.is_empty() || !a.queue.is_empty() || !a.resolving.is_empty() {
                    return Err(RuleError::NotWhileEncountering);
                }
                let h = &self.heroes[*hero as usize];
                let it = h.items.get(usize::from(*item)).ok_or(RuleError::NoSuchItem)?;
                let equip = matches!(action, Action::Equip { .. });
                if it.equipped == equip {
                    return Err(RuleError::NothingToDo);
                }
                if equip {
                    if !fits_class(h, &it.card) {
                        return Err(RuleError::WrongClass);
                    }
                    if hands_equipped(h) + it.card.hands > 2 {
                        return Err(RuleError::TooManyHands);
                    }
                }
                Ok(())
            }
            Action::ActivateAbility { hero, source, target } => {
                hero_ok(*hero)?;
                free()?;
                self.check_exploring_ability(*hero, *source, *target)?;
                // The book's turn is draw, then place: with a tile in hand nothing
                // may change the map or the party's options.
                let ability = self.heroes[*hero as usize].ability(*source).expect("checked");
                if eco.drawn.is_some() && ability.effects.iter().any(changes_options) {
                    return Err(RuleError::TileWaiting);
                }
                Ok(())
            }
            Action::ChooseHero { hero } => {
                hero_ok(*hero)?;
                // Any Hero may take a class Item; only that class can Equip it.
                match pending {
                    Some(Pending::ChooseHero(_)) => Ok(()),
                    _ => Err(RuleError::WrongStep { expected: "a Hero to be chosen" }),
                }
            }
            Action::ChooseOption { index } => {
                let i = usize::from(*index);
                match pending {
                    Some(Pending::ChooseItem { hero, options }) => {
                        let item = options.get(i).ok_or(RuleError::NoSuchItem)?;
                        let mat = &self.heroes[*hero as usize].mat;
                        // "Items from their Secondary class that require adding Item
                        // Action Cards … cannot be selected."
                        // "…but the Hero may give an Ally with that Primary Class the Item instead."
                        if item.deck != Some(mat.class)
                            && !item.add_cards.is_empty()
                            && self.ally_for(*hero, item).is_none()
                        {
                            return Err(RuleError::WrongClass);
                        }
                        Ok(())
                    }
                    Some(Pending::ChooseAbility { options, .. }) if i < options.len() => Ok(()),
                    Some(Pending::ChooseAbilityDraw { .. }) if i < 2 => Ok(()),
                    Some(Pending::OrderFeatures { cards }) if i < factorial(cards.len()) => Ok(()),
                    _ => Err(RuleError::WrongStep { expected: "an option to be chosen" }),
                }
            }
            Action::RemoveActionCard { card } => match pending {
                Some(Pending::RemoveCards { hero, .. }) => {
                    if self.heroes[*hero as usize].draw.iter().any(|c| c.id == *card) {
                        Ok(())
                    } else {
                        Err(RuleError::CardNotInHand)
                    }
                }
                _ => Err(RuleError::WrongStep { expected: "Action Cards to be Removed" }),
            },
            Action::FinishLevelUp => match pending {
                Some(Pending::LevelUp { .. }) => Ok(()),
                _ => Err(RuleError::WrongStep { expected: "Level Up" }),
            },
            Action::Descend => match pending {
                Some(Pending::Passage { .. }) => Ok(()),
                _ => Err(RuleError::WrongStep { expected: "Passage to the next Ecology" }),
            },
            _ => Err(RuleError::WrongStep { expected: "an Exploring action" }),
        }
    }

    /// An Ally whose Primary Class is the Item's deck (for a multi-classed Hero's
    /// Secondary-class Item that Adds Item Action Cards).
    pub(crate) fn ally_for(&self, hero: u8, item: &crate::hero::ItemCard) -> Option<u8> {
        (0..self.heroes.len() as u8).find(|&h| h != hero && Some(self.heroes[h as usize].mat.class) == item.deck)
    }

    fn check_exploring_ability(&self, h: u8, source: AbilitySource, target: Target) -> Result<(), RuleError> {
        let hero = &self.heroes[h as usize];
        let ability = hero.ability(source).ok_or(RuleError::AbilityNotAvailable)?;
        if !exploring_ability(ability) {
            return Err(RuleError::AbilityNotAvailable);
        }
        if hero.is_exhausted(source) {
            return Err(RuleError::SpellExhausted);
        }
        match ability.activation {
            Activation::Power(need) if hero.stored_power.len() < usize::from(need) => {
                return Err(RuleError::NotEnoughPower { need, have: hero.stored_power.len() as u8 });
            }
            Activation::Block => return Err(RuleError::NeedsBlock),
            _ => {}
        }
        let map = &self.adv().ecology.map;
        let unlocks = ability.effects.iter().any(|e| matches!(e, Effect::UnlockDoor));
        let chosen =
            ability.effects.iter().any(|e| matches!(e, Effect::HealHeroes { whom: crate::Whom::ChosenHero, .. }));
        let locked_chests = self.adv().options.variants.locked_chests;
        let ok = match target {
            Target::Element(e) if unlocks => {
                // "Locked Chests: Just like Doors, all Chests must be Unlocked to open."
                let lockable = |k: Element| k == Element::Door || (k == Element::Chest && locked_chests);
                map.reachable_unencountered_elements().contains(&e)
                    && map.element(e).is_some_and(|(k, s)| lockable(k) && s == ElementState::Present)
            }
            Target::Hero(t) if chosen && !unlocks => usize::from(t) < self.heroes.len(),
            Target::None => !unlocks && !chosen,
            _ => false,
        };
        if ok { Ok(()) } else { Err(RuleError::BadTarget) }
    }

    pub(crate) fn apply_exploring(&mut self, action: Action, events: &mut Vec<Event>) {
        match action {
            Action::DrawTile => self.draw_tile(events),
            Action::PlaceTile { placement } => {
                let tile = self.adv_mut().ecology.drawn.take().expect("checked");
                self.place_tile(tile, placement, events);
            }
            Action::PlaceSetAsideTile { placement } => {
                let tile = self.adv_mut().ecology.dead_end.take().expect("checked");
                self.place_tile(tile, placement, events);
            }
            Action::Encounter { element } => self.encounter(element, events),
            Action::EncounterLegendary { index } => {
                let m = self.discovered_legendary_locations().swap_remove(usize::from(index));
                self.encounter_legendary(m, events);
            }
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
                    let healed = self.heroes[h].heal(amount);
                    if healed > 0 {
                        events.push(Event::HeroHealed { hero: h as u8, amount: healed });
                    }
                }
            }
            Action::Equip { hero, item } | Action::Unequip { hero, item } => {
                let equip = matches!(action, Action::Equip { .. });
                self.heroes[hero as usize].items[usize::from(item)].equipped = equip;
            }
            Action::ActivateAbility { hero, source, target } => {
                self.use_exploring_ability(hero, source, target, events)
            }
            Action::ChooseHero { hero } => self.choose_hero(hero, events),
            Action::ChooseOption { index } => self.choose_option(index, events),
            Action::RemoveActionCard { card } => self.remove_action_card(card),
            Action::FinishLevelUp => self.finish_level_up(events),
            Action::Descend => self.descend(events),
            _ => unreachable!("check_exploring refuses Combat actions"),
        }
        self.advance_adventure(events);
    }

    fn use_exploring_ability(&mut self, h: u8, source: AbilitySource, target: Target, events: &mut Vec<Event>) {
        let hero = &mut self.heroes[h as usize];
        let ability = hero.ability(source).expect("checked").clone();
        if let Activation::Power(cost) = ability.activation {
            for _ in 0..cost {
                if let Some(card) = hero.stored_power.pop() {
                    hero.discard.push(card);
                }
            }
            events.push(Event::PowerSpent { hero: h, count: cost });
        }
        if ability.exhaust_after_use
            && let AbilitySource::Card(i) = source
        {
            hero.abilities[usize::from(i)].exhausted = true;
        }
        events.push(Event::AbilityActivated { hero: h, name: ability.name.clone() });
        self.use_item_token(h, source, events);
        for e in &ability.effects {
            match (e, target) {
                (Effect::UnlockDoor, Target::Element(element)) => {
                    // Whatever unlocks a Door unlocks a Locked Chest too.
                    self.open_element(element, false, events);
                }
                (Effect::HealHeroes { amount, whom }, _) => {
                    let whom_list: Vec<u8> = match (whom, target) {
                        (crate::Whom::Heroes, _) => (0..self.heroes.len() as u8).collect(),
                        (_, Target::Hero(t)) => vec![t],
                        _ => vec![h],
                    };
                    for t in whom_list {
                        let healed = self.heroes[t as usize].heal(*amount);
                        events.push(Event::HeroHealed { hero: t, amount: healed });
                    }
                }
                (other, _) => self.exploring_effect_now(other.clone(), events),
            }
        }
    }

    /// A limited-use Item loses one use token; at none it is used up.
    pub(crate) fn use_item_token(&mut self, h: u8, source: AbilitySource, events: &mut Vec<Event>) {
        let AbilitySource::Item(i, _) = source else { return };
        let hero = &mut self.heroes[h as usize];
        let Some(item) = hero.items.get_mut(usize::from(i)) else { return };
        if let Some(uses) = item.uses_left.as_mut() {
            *uses = uses.saturating_sub(1);
            if *uses == 0 {
                let gone = hero.items.remove(usize::from(i));
                events.push(Event::Note { text: format!("{} is used up.", gone.card.name) });
            }
        }
    }

    pub(crate) fn exploring_candidates(&self) -> Vec<Action> {
        let Some(a) = self.adventure() else { return Vec::new() };
        let mut out = Vec::new();
        let n = self.heroes.len() as u8;
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
                for amounts in splits(&self.heroes, *points) {
                    out.push(Action::SplitHealing { amounts });
                }
            }
            Some(Pending::ChooseHero(_)) => out.extend((0..n).map(|hero| Action::ChooseHero { hero })),
            Some(Pending::ChooseItem { options, .. }) => {
                out.extend((0..options.len() as u8).map(|index| Action::ChooseOption { index }));
            }
            Some(Pending::ChooseAbilityDraw { .. }) => {
                out.extend((0..2).map(|index| Action::ChooseOption { index }));
            }
            Some(Pending::ChooseAbility { options, .. }) => {
                out.extend((0..options.len() as u8).map(|index| Action::ChooseOption { index }));
            }
            Some(Pending::OrderFeatures { cards }) => {
                out.extend((0..factorial(cards.len()) as u8).map(|index| Action::ChooseOption { index }));
            }
            Some(Pending::RemoveCards { hero, .. }) => {
                out.extend(self.heroes[*hero as usize].draw.iter().map(|c| Action::RemoveActionCard { card: c.id }));
            }
            Some(Pending::LevelUp { .. }) => {
                out.extend((0..n).map(|hero| Action::StartPurchase { what: Purchase::Ability { hero } }));
                out.push(Action::FinishLevelUp);
            }
            Some(Pending::Passage { .. }) => out.push(Action::Descend),
            None => {
                let eco = &a.ecology;
                if let Some(tile) = &eco.drawn {
                    out.extend(
                        eco.map.legal_placements(tile).into_iter().map(|placement| Action::PlaceTile { placement }),
                    );
                } else {
                    out.push(Action::DrawTile);
                    if let Some(tile) = &eco.dead_end.set_aside {
                        out.extend(
                            eco.map
                                .legal_placements(tile)
                                .into_iter()
                                .map(|placement| Action::PlaceSetAsideTile { placement }),
                        );
                    }
                    out.extend(
                        eco.map
                            .reachable_unencountered_elements()
                            .into_iter()
                            .map(|element| Action::Encounter { element }),
                    );
                    out.extend(
                        (0..self.discovered_legendary_locations().len() as u8)
                            .map(|index| Action::EncounterLegendary { index }),
                    );
                    out.push(Action::StartPurchase { what: Purchase::Key });
                }
                let per = self.healing_per_unit().max(1);
                let units = self.missing_health().div_ceil(per).min(20) as u8;
                out.extend((1..=units).map(|units| Action::StartPurchase { what: Purchase::Healing { units } }));
                for (h, hero) in self.heroes.iter().enumerate() {
                    for i in 0..hero.items.len() as u8 {
                        out.push(Action::Equip { hero: h as u8, item: i });
                        out.push(Action::Unequip { hero: h as u8, item: i });
                    }
                    for (source, ability) in hero.abilities() {
                        if !exploring_ability(ability) {
                            continue;
                        }
                        let mut targets = vec![Target::None];
                        targets.extend((0..n).map(Target::Hero));
                        targets.extend(eco.map.reachable_unencountered_elements().into_iter().map(Target::Element));
                        out.extend(targets.into_iter().map(|target| Action::ActivateAbility {
                            hero: h as u8,
                            source,
                            target,
                        }));
                    }
                }
            }
        }
        out
    }
}

/// Effects that change the map or what the party can do, which must wait
/// while a drawn Map Tile is in hand.
fn changes_options(e: &Effect) -> bool {
    matches!(e, Effect::UnlockDoor | Effect::Keys { .. } | Effect::RevealFeatures { .. })
}

pub(crate) fn hands_equipped(h: &Hero) -> u8 {
    h.items.iter().filter(|i| i.equipped).map(|i| i.card.hands).sum()
}

/// "Some Items … can only be equipped by a specific Hero Class."
pub(crate) fn fits_class(h: &Hero, item: &crate::hero::ItemCard) -> bool {
    item.class_only.is_none_or(|c| c == h.mat.class || Some(c) == h.mat.secondary_class)
}

pub(crate) fn factorial(n: usize) -> usize {
    (1..=n).product()
}

/// The order `ChooseOption { index }` gives `n` revealed Features: the
/// positions, in the order they will be met.
pub fn feature_order(n: usize, index: usize) -> Vec<usize> {
    let mut left: Vec<usize> = (0..n).collect();
    let mut k = index;
    let mut order = Vec::new();
    while !left.is_empty() {
        let f = factorial(left.len() - 1);
        order.push(left.remove((k / f).min(left.len() - 1)));
        k %= f;
    }
    order
}

/// Every way to share `points` (capped at what the Heroes are missing).
fn splits(heroes: &[Hero], points: u8) -> Vec<Vec<u8>> {
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
