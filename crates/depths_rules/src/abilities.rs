//! "4. Activate Hero Abilities" — what every activation shares (paying its
//! cost, Exhausting a Spell, an Item's use tokens) — and Abilities used while
//! Exploring ("Certain Hero Items, Abilities, and Spells can also be used to
//! Unlock Doors"), and whether any sequence of them could open a locked Door
//! (for "Stranded"). Their use in a Combat Round is in `combat::abilities`.

use std::collections::HashSet;

use crate::action::{Action, Target};
use crate::effect::{Ability, Activation, Effect, Whom};
use crate::effect_resolution::EffectContext;
use crate::error::RuleError;
use crate::event::Event;
use crate::game::Game;
use crate::hero::{AbilitySource, Hero};
use crate::map::{Element, ElementState};

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

/// An ability that can be Activated while Exploring.
pub(crate) fn exploring_ability(a: &Ability) -> bool {
    a.activation != Activation::Passive && !a.effects.is_empty() && a.effects.iter().all(usable_exploring)
}

/// Effects that change the map or what the party can do, which must wait
/// while a drawn Map Tile is in hand.
fn changes_options(e: &Effect) -> bool {
    matches!(e, Effect::UnlockDoor | Effect::Keys { .. } | Effect::RevealFeatures { .. })
}

/// An ability whose use opens a locked Door or Chest: it Unlocks, or gives Keys.
fn opens_a_door(a: &Ability) -> bool {
    a.effects.iter().any(|e| match e {
        Effect::UnlockDoor => true,
        &Effect::Keys { amount } => amount > 0,
        _ => false,
    })
}

/// An ability a Hero could Activate while Exploring, the Items she may Equip
/// included ("Items may be Equipped or Unequipped anytime while Exploring":
/// with the others put down, any Item of two hands or fewer fits).
struct Within<'a> {
    hero: usize,
    ability: &'a Ability,
    /// The Ability Card it is printed on (Spells are Exhausted after use).
    card: Option<usize>,
    /// The Item it is printed on (a limited-use Item loses a use token).
    item: Option<usize>,
}

/// What Activating abilities while Exploring spends and gives back, per Hero:
/// Stored Power, Power Cards in the Draw and Discard Piles (to be Stored
/// again), Ability Cards Exhausted, Item uses left (`u8::MAX`: unlimited).
#[derive(Clone, PartialEq, Eq, Hash)]
struct Means {
    stored: u8,
    storable: u8,
    exhausted: Vec<bool>,
    uses: Vec<u8>,
}

impl Within<'_> {
    /// The Heroes' means after this ability is Activated, if it can be now
    /// (as `check_activation` and `activate` have it).
    fn activated(&self, means: &[Means]) -> Option<Vec<Means>> {
        let m = &means[self.hero];
        let need = if let Activation::Power(n) = self.ability.activation { n } else { 0 };
        if m.stored < need || self.card.is_some_and(|i| m.exhausted[i]) || self.item.is_some_and(|i| m.uses[i] == 0) {
            return None;
        }
        let mut next = means.to_vec();
        let m = &mut next[self.hero];
        m.stored -= need;
        m.storable += need;
        if let Some(i) = self.card
            && self.ability.exhaust_after_use
        {
            m.exhausted[i] = true;
        }
        if let Some(i) = self.item
            && m.uses[i] != u8::MAX
        {
            m.uses[i] -= 1;
        }
        for effect in &self.ability.effects {
            match effect {
                Effect::RefreshSpells => next[self.hero].exhausted.fill(false),
                Effect::StorePower => {
                    for m in next.iter_mut().filter(|m| m.storable > 0) {
                        m.storable -= 1;
                        m.stored += 1;
                    }
                }
                _ => {}
            }
        }
        Some(next)
    }
}

/// What every activation requires: an active ability, its Power, a Spell not Exhausted.
pub(crate) fn check_activation(hero: &Hero, source: AbilitySource) -> Result<&Ability, RuleError> {
    let ability = hero.ability(source).ok_or(RuleError::AbilityNotAvailable)?;
    match ability.activation {
        Activation::Passive => return Err(RuleError::PassiveNotActivated),
        Activation::Power(need) => {
            let have = hero.stored_power.len() as u8;
            if have < need {
                return Err(RuleError::NotEnoughPower { need, have });
            }
        }
        Activation::Block => {}
    }
    if hero.is_exhausted(source) {
        return Err(RuleError::SpellExhausted);
    }
    Ok(ability)
}

impl Game {
    /// Pays for an ability and resolves its effects.
    pub(crate) fn activate(&mut self, h: u8, source: AbilitySource, target: Target, events: &mut Vec<Event>) {
        let hero = &self.heroes[h as usize];
        let ability = hero.ability(source).expect("checked").clone();
        let spell = hero.is_spell(source);
        if let Activation::Power(cost) = ability.activation {
            self.spend_power(h, cost, events);
        }
        if ability.exhaust_after_use
            && let AbilitySource::Card(i) = source
        {
            // "Exhaust After Use": unusable until Refreshed.
            self.heroes[h as usize].abilities[usize::from(i)].exhausted = true;
            events.push(Event::SpellExhausted { hero: h, name: ability.name.clone() });
        }
        events.push(Event::AbilityActivated { hero: h, name: ability.name.clone() });
        self.use_item_token(h, source, events);
        if ability.activation == Activation::Block
            && let Some(c) = self.combat.as_mut()
        {
            c.heroes[h as usize].block_ability_used = true;
        }
        for effect in &ability.effects {
            self.resolve_effect(effect, EffectContext::Hero { hero: h, target, spell }, events);
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

    /// An ability Activated while Exploring.
    pub(crate) fn check_exploring_ability(
        &self,
        h: u8,
        source: AbilitySource,
        target: Target,
    ) -> Result<(), RuleError> {
        let hero = self.heroes.get(usize::from(h)).ok_or(RuleError::NoSuchHero(h))?;
        let ability = check_activation(hero, source)?;
        if !exploring_ability(ability) {
            return Err(RuleError::AbilityNotAvailable);
        }
        if ability.activation == Activation::Block {
            return Err(RuleError::NeedsBlock);
        }
        let eco = &self.adv().ecology;
        // The book's turn is draw, then place: with a tile in hand nothing may
        // change the map or the party's options.
        if eco.drawn.is_some() && ability.effects.iter().any(changes_options) {
            return Err(RuleError::TileWaiting);
        }
        let map = &eco.map;
        let unlocks = ability.effects.iter().any(|e| matches!(e, Effect::UnlockDoor));
        let chosen = ability.effects.iter().any(|e| matches!(e, Effect::HealHeroes { whom: Whom::ChosenHero, .. }));
        let locked_chests = self.adv().options.variants.locked_chests;
        let ok = match target {
            Target::Element(e) if unlocks => {
                // "Locked Chests: Just like Doors, all Chests must be Unlocked to open."
                let lockable = |k: Element| k == Element::Door || (k == Element::Chest && locked_chests);
                map.is_reachable_unencountered(e)
                    && map.element(e).is_some_and(|(k, s)| lockable(k) && s == ElementState::Present)
            }
            Target::Hero(t) if chosen && !unlocks => usize::from(t) < self.heroes.len(),
            Target::None => !unlocks && !chosen,
            _ => false,
        };
        if ok { Ok(()) } else { Err(RuleError::BadTarget) }
    }

    /// Whether some sequence of Exploring actions lets a Hero Activate an
    /// ability that Unlocks a Door (or a Locked Chest) or gives a Key: from her
    /// mat, her Ability Cards, or any Item she could Equip, once others have
    /// Refreshed her Spells or Stored Power as needed. Only what Activations
    /// spend and give back is followed (Power, Exhausted Spells, Item uses),
    /// so the search is small; it runs only when nothing else is left to do.
    pub(crate) fn abilities_could_unlock(&self) -> bool {
        let mut within = Vec::new();
        for (h, hero) in self.heroes.iter().enumerate() {
            let mat = hero.mat.abilities.iter().map(|a| (a, None, None));
            let cards = hero.abilities.iter().enumerate().map(|(i, a)| (&a.card.ability, Some(i), None));
            let items = hero.items.iter().enumerate().filter(|(_, it)| hero.fits_class(&it.card) && it.card.hands <= 2);
            let items = items.flat_map(|(i, it)| it.card.abilities.iter().map(move |a| (a, None, Some(i))));
            for (ability, card, item) in mat.chain(cards).chain(items) {
                if exploring_ability(ability) && ability.activation != Activation::Block {
                    within.push(Within { hero: h, ability, card, item });
                }
            }
        }
        if !within.iter().any(|w| opens_a_door(w.ability)) {
            return false;
        }
        let start: Vec<Means> = self
            .heroes
            .iter()
            .map(|h| Means {
                stored: h.stored_power.len() as u8,
                storable: h.draw.iter().chain(&h.discard).filter(|c| c.power).count() as u8,
                exhausted: h.abilities.iter().map(|a| a.exhausted).collect(),
                uses: h.items.iter().map(|it| it.uses_left.unwrap_or(u8::MAX)).collect(),
            })
            .collect();
        // Every state is met once: Power only moves between Stored and the
        // piles, and uses only go down, so the search ends.
        let mut seen = HashSet::from([start.clone()]);
        let mut todo = vec![start];
        while let Some(means) = todo.pop() {
            for w in &within {
                let Some(next) = w.activated(&means) else { continue };
                if opens_a_door(w.ability) {
                    return true;
                }
                if seen.insert(next.clone()) {
                    todo.push(next);
                }
            }
        }
        false
    }

    /// Abilities the Heroes might Activate while Exploring, with every target
    /// of the kind each may take.
    pub(crate) fn exploring_ability_candidates(&self, out: &mut Vec<Action>) {
        let n = self.heroes.len() as u8;
        // No lists: this runs for every list of legal actions while Exploring.
        let map = &self.adv().ecology.map;
        for (h, hero) in self.heroes.iter().enumerate() {
            for (source, ability) in hero.abilities() {
                if !exploring_ability(ability) {
                    continue;
                }
                let action = |target| Action::ActivateAbility { hero: h as u8, source, target };
                // Only the kind of target the check may accept for this
                // ability: the others were listed only to be refused.
                let unlocks = ability.effects.iter().any(|e| matches!(e, Effect::UnlockDoor));
                let chosen =
                    ability.effects.iter().any(|e| matches!(e, Effect::HealHeroes { whom: Whom::ChosenHero, .. }));
                if unlocks {
                    out.extend(map.reachable_unencountered().map(|e| action(Target::Element(e))));
                } else if chosen {
                    out.extend((0..n).map(|t| action(Target::Hero(t))));
                } else {
                    out.push(action(Target::None));
                }
            }
        }
    }
}
