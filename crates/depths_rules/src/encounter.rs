//! "Encountering": what each Ecology Element does, card effects outside
//! Combat, Items and Experience Points, Campfires, Level Up and Passage.

use crate::Ecology;
use crate::action_card::CardId;
use crate::adventure::{
    HeroChoice, Pending, Purchase, Resolving, XpCard, XpRef, XpSource, class_index, draw_final_entity, note,
    setup_ecology,
};
use crate::combat::Foe;
use crate::effect::{Effect, Whom};
use crate::event::{Event, LossReason};
use crate::exploring::{fits_class, hands_equipped};
use crate::game::{Game, Stage};
use crate::phase::Encountering;
use crate::hero::{ItemCard, OwnedAbility, OwnedItem};
use crate::map::{Element, ElementRef, MapTile, Placement, RuneMatch};

impl Game {
    pub(crate) fn draw_tile(&mut self, events: &mut Vec<Event>) {
        let adv = self.adv_mut();
        let eco = &mut adv.ecology;
        let Some(tile) = eco.pile.draw() else { return };
        events.push(Event::TileDrawn { tile: tile.id.clone() });
        if !eco.map.is_dead_end(&tile) {
            eco.drawn = Some(tile);
            return;
        }
        // "One Dead-End Per Ecology": set it aside; it stays placeable later.
        if eco.dead_end.check_set_aside(&eco.map, &tile).is_ok() {
            events.push(Event::TileSetAside { tile: tile.id.clone() });
            let _ = eco.dead_end.set_aside(&eco.map, tile);
            return;
        }
        // "WARNING! LOSING BY TILE PLACEMENT"
        eco.drawn = Some(tile);
        self.lose(LossReason::DeadEnd, events);
    }

    pub(crate) fn place_tile(&mut self, tile: MapTile, placement: Placement, events: &mut Vec<Event>) {
        let adv = self.adv_mut();
        if adv.ecology.map.place(&tile, placement).is_ok() {
            adv.record.tiles_placed += 1;
            events.push(Event::TilePlaced { tile: tile.id, placement });
        }
    }

    pub(crate) fn encounter(&mut self, element: ElementRef, events: &mut Vec<Event>) {
        self.open_element(element, true, events);
    }

    /// Encounters an element; a Door or Locked Chest is Unlocked with a Key
    /// (`with_key`) or by an ability or card that unlocks.
    pub(crate) fn open_element(&mut self, element: ElementRef, with_key: bool, events: &mut Vec<Event>) {
        let locked_chests = self.adv().options.variants.locked_chests;
        let adv = self.adv_mut();
        let Ok(kind) = adv.ecology.map.encounter(element) else { return };
        adv.ecology.encountering = Some(element);
        let last = adv.ecology.ecology == Ecology::Subterranean;
        adv.encounter = Some(match kind {
            Element::Monster { .. } => Encountering::Monster,
            Element::Feature => Encountering::Feature,
            Element::Door => Encountering::Door,
            Element::Chest => Encountering::Chest,
            Element::Campfire => Encountering::Campfire,
            Element::StairGuardian if last => Encountering::FinalEntity,
            Element::StairGuardian => Encountering::StairGuardian,
        });
        events.push(Event::ElementEncountered { element });
        match kind {
            Element::Monster { count } => {
                let mut cards = Vec::new();
                for _ in 0..count {
                    if let Some(card) = adv.ecology.monsters.pop() {
                        cards.push(card);
                    }
                }
                if cards.is_empty() {
                    // Rule clarification: an exhausted Monster deck leaves the way open.
                    note(events, "The Monster deck is empty: nothing is here any more.");
                    return;
                }
                adv.resolving.push(Resolving::Monsters);
                let n = self.heroes.len();
                let foes = cards.into_iter().map(|c| Foe::monster(c, n)).collect();
                events.extend(self.start_combat(foes));
            }
            Element::Feature => self.draw_feature(events),
            Element::Door => {
                if with_key {
                    adv.keys -= 1;
                    events.push(Event::KeysChanged { keys: adv.keys });
                }
            }
            Element::Chest => {
                if locked_chests && with_key {
                    adv.keys -= 1;
                    events.push(Event::KeysChanged { keys: adv.keys });
                }
                // "the players choose 1 Hero to draw 1 Item"
                adv.pending.push(Pending::ChooseHero(HeroChoice::DrawItem));
            }
            Element::Campfire => self.rest(events),
            Element::StairGuardian => self.encounter_stair_guardian(events),
        }
    }

    fn draw_feature(&mut self, events: &mut Vec<Event>) {
        let adv = self.adv_mut();
        let eco = &mut adv.ecology;
        let Some(card) = eco.revealed_features.pop().or_else(|| eco.features.pop()) else {
            note(events, "The Feature deck is empty: nothing happens.");
            return;
        };
        events.push(Event::CardDrawn { name: card.name.clone() });
        adv.queue.extend(card.effects.iter().cloned());
        adv.resolving.push(Resolving::Feature(card));
    }

    fn encounter_stair_guardian(&mut self, events: &mut Vec<Event>) {
        let n = self.heroes.len();
        if self.adv().ecology.ecology == Ecology::Subterranean {
            // "When Heroes descend the Stairs at the end of the Subterranean
            // Architecture Ecology, they enter into Combat with the Final Entity."
            let content = &self.adventure.as_deref().expect("full game").content;
            let Some(entity) = draw_final_entity(content, &mut self.rng) else {
                note(events, "The Final Entity cards are missing.");
                return;
            };
            let lore = self.adv().content.final_entity.lore.text.clone();
            note(events, lore.clone());
            let adv = self.adv_mut();
            adv.final_entity_lore = Some(lore);
            adv.resolving.push(Resolving::FinalEntity);
            events.extend(self.start_combat(vec![Foe::final_entity(entity, n)]));
            return;
        }
        let adv = self.adv_mut();
        let Some(card) = adv.ecology.stair_guardians.pop() else {
            self.level_up(events);
            return;
        };
        adv.resolving.push(Resolving::StairGuardian);
        events.extend(self.start_combat(vec![Foe::monster(card, n)]));
    }

    pub(crate) fn encounter_legendary(&mut self, m: RuneMatch, events: &mut Vec<Event>) {
        let adv = self.adv_mut();
        let eco = &mut adv.ecology;
        if eco.used_runes.record(&m).is_err() {
            return;
        }
        events.push(Event::LegendaryLocationEncountered { pattern: m.pattern.clone() });
        adv.encounter = Some(Encountering::LegendaryLocation);
        let Some(pattern) = eco.patterns.iter().position(|p| p.id == m.pattern) else { return };
        let Some(card) = eco.legendary.get_mut(pattern).and_then(|piles| piles.entry.pop()) else { return };
        adv.record.legendary_locations_found.push(card.name.clone());
        self.begin_legendary_card(pattern, card, events);
    }

    fn begin_legendary_card(
        &mut self,
        pattern: usize,
        card: crate::legendary_location::LegendaryCard,
        events: &mut Vec<Event>,
    ) {
        events.push(Event::CardDrawn { name: card.name.clone() });
        let adv = self.adv_mut();
        adv.queue.extend(card.effects.iter().cloned());
        let next = card.next;
        adv.resolving.push(Resolving::Legendary { pattern, card, next });
    }

    /// Resolves queued effects and finished encounters until a choice or a Combat is needed.
    pub(crate) fn advance_adventure(&mut self, events: &mut Vec<Event>) {
        loop {
            if self.stage != Stage::Exploring {
                return;
            }
            let adv = self.adv_mut();
            if !adv.pending.is_empty() {
                return;
            }
            if !adv.queue.is_empty() {
                let effect = adv.queue.remove(0);
                self.exploring_effect_now(effect, events);
                continue;
            }
            let Some(top) = adv.resolving.pop() else { break };
            match top {
                Resolving::Feature(card) => self.gain_xp(card.name, card.xp, XpSource::Feature, events),
                Resolving::Legendary { pattern, card, next } => {
                    let letter = next;
                    self.gain_xp(card.name.clone(), card.xp, XpSource::LegendaryLocation, events);
                    // Continue with the lettered pile named (or the one being drawn from).
                    let piles = &mut self.adv_mut().ecology.legendary[pattern];
                    let following = letter.and_then(|l| piles.pile_mut(l)).and_then(|p| p.pop());
                    if let Some(card) = following {
                        let mut card = card;
                        if card.next.is_none() {
                            card.next = letter;
                        }
                        self.begin_legendary_card(pattern, card, events);
                    }
                }
                Resolving::Monsters | Resolving::StairGuardian | Resolving::FinalEntity => {}
            }
        }
        // Everything is Resolved: back to Exploring.
        if self.stage == Stage::Exploring {
            self.adv_mut().encounter = None;
        }
        // No way forward at all: no tile to draw or place and nothing to Encounter.
        if self.stage == Stage::Exploring && self.is_stranded() {
            self.lose(LossReason::Stranded, events);
        }
    }

    fn is_stranded(&self) -> bool {
        let adv = self.adv();
        let eco = &adv.ecology;
        let placeable = |t: &MapTile| !eco.map.legal_placements(t).is_empty();
        adv.pending.is_empty()
            && eco.pile.is_empty()
            && !eco.drawn.as_ref().is_some_and(placeable)
            && !eco.dead_end.set_aside.as_ref().is_some_and(placeable)
            && !eco.map.reachable_unencountered_elements().into_iter().any(|element| self.can_open(element))
            && self.discovered_legendary_locations().is_empty()
    }

    /// Whether the Heroes can Encounter the element now, or could after
    /// buying a Key or with an ability that unlocks.
    fn can_open(&self, element: ElementRef) -> bool {
        if self.check(&crate::Action::Encounter { element }).is_ok() {
            return true;
        }
        let key_cost = u16::from(self.adv().ecology.reference.key_cost);
        let unlocker = self
            .heroes
            .iter()
            .any(|h| h.abilities().any(|(_, a)| a.effects.iter().any(|e| matches!(e, Effect::UnlockDoor))));
        self.payable_xp() >= key_cost || unlocker
    }

    /// Combat just ended in victory: XP, tokens, and what the Combat was for.
    pub(crate) fn after_combat(&mut self, events: &mut Vec<Event>) {
        let adv = self.adv_mut();
        let foes = std::mem::take(&mut adv.defeated);
        let what = adv.resolving.pop();
        for f in &foes {
            if let crate::combat::FoeCard::Monster(m) = &f.card {
                let source =
                    if what == Some(Resolving::StairGuardian) { XpSource::StairGuardian } else { XpSource::Monster };
                self.adv_mut().record.monsters_defeated += 1;
                self.gain_xp(m.name.clone(), m.xp, source, events);
            }
        }
        match what {
            Some(Resolving::StairGuardian) => self.level_up(events),
            Some(Resolving::FinalEntity) => {
                // "Defeating the Final Entity is the only way to win the game."
                // Its Ecology is cleared with it (the others by Passage).
                let current = self.adv().ecology.ecology;
                self.adv_mut().record.ecologies_cleared.push(current);
                self.stage = Stage::Won;
                events.push(Event::GameWon);
            }
            _ => {}
        }
        self.advance_adventure(events);
    }

    pub(crate) fn gain_xp(&mut self, name: String, xp: u8, source: XpSource, events: &mut Vec<Event>) {
        let adv = self.adv_mut();
        adv.record.xp_earned += u32::from(xp);
        events.push(Event::XpGained { name: name.clone(), xp });
        adv.xp_pool.push(XpCard { name, xp, source });
    }

    /// Outside Combat: one card effect, now.
    pub(crate) fn exploring_effect_now(&mut self, effect: Effect, events: &mut Vec<Event>) {
        let n = self.heroes.len();
        match effect {
            Effect::DamageHeroes { amount, whom, .. } => match whom {
                // "Armor only reduces damage taken during Combat, unless a card … says otherwise."
                Whom::Heroes => {
                    for h in 0..n {
                        self.wound(h as u8, amount, events);
                    }
                }
                _ => self.adv_mut().pending.push(Pending::ChooseHero(HeroChoice::Damage(amount))),
            },
            Effect::HealHeroes { amount, whom } => match whom {
                Whom::Heroes => {
                    for h in 0..n {
                        let healed = self.heroes[h].heal(amount);
                        events.push(Event::HeroHealed { hero: h as u8, amount: healed });
                    }
                }
                _ => self.adv_mut().pending.push(Pending::ChooseHero(HeroChoice::Heal(amount))),
            },
            Effect::Test { target, cards, success, failure } => {
                let mut total: u16 = 0;
                for h in 0..n {
                    let mut drawn = Vec::new();
                    for _ in 0..cards {
                        let hero = &mut self.heroes[h];
                        if hero.draw.iter().all(|c| c.power) && !hero.discard.is_empty() {
                            hero.reshuffle_discard(&mut self.rng);
                        }
                        let stored = hero.stored_power.len();
                        if let Some(card) = hero.draw_card() {
                            drawn.push(card);
                        }
                        for _ in stored..hero.stored_power.len() {
                            events.push(Event::PowerStored { hero: h as u8 });
                        }
                    }
                    total += drawn.iter().map(|c| u16::from(c.value)).sum::<u16>();
                    // "Once a Feature has been Resolved, any Action Cards … drawn or played for it are Discarded."
                    self.heroes[h].discard.extend(drawn);
                }
                let goal = target[n.clamp(1, 3) - 1];
                let passed = total >= u16::from(goal);
                events.push(Event::TestResolved { total, target: goal, passed });
                let next = if passed { success } else { failure };
                let adv = self.adv_mut();
                for (i, e) in next.into_iter().enumerate() {
                    adv.queue.insert(i, e);
                }
            }
            Effect::Keys { amount } => {
                let adv = self.adv_mut();
                adv.keys = (i16::from(adv.keys) + i16::from(amount)).clamp(0, 99) as u8;
                events.push(Event::KeysChanged { keys: adv.keys });
            }
            Effect::UnlockDoor => {
                // Without a Door in hand, a card that unlocks is as good as a Key.
                let adv = self.adv_mut();
                adv.keys += 1;
                events.push(Event::KeysChanged { keys: adv.keys });
            }
            Effect::DrawItem => self.adv_mut().pending.push(Pending::ChooseHero(HeroChoice::DrawItem)),
            Effect::GainItem { item } => {
                if let Some(card) = self.adv().content.item(&item).cloned() {
                    self.adv_mut().pending.push(Pending::ChooseHero(HeroChoice::GainItem(card)));
                }
            }
            Effect::FightMonster => {
                let Some(card) = self.adv_mut().ecology.monsters.pop() else { return };
                self.adv_mut().resolving.push(Resolving::Monsters);
                events.extend(self.start_combat(vec![Foe::monster(card, n)]));
            }
            Effect::FightNamedMonster { monster } => {
                let eco = self.adv().content.ecology(self.adv().ecology.ecology);
                let Some(card) = eco.monsters.iter().chain(&eco.stair_guardians).find(|m| m.id == monster).cloned()
                else {
                    return;
                };
                self.adv_mut().resolving.push(Resolving::Monsters);
                events.extend(self.start_combat(vec![Foe::monster(card, n)]));
            }
            Effect::ShuffleIntoMonsters { monster } => {
                let eco = &mut self.adventure.as_deref_mut().expect("full game").ecology;
                if let Some(i) = eco.set_aside_monsters.iter().position(|m| m.id == monster) {
                    let card = eco.set_aside_monsters.remove(i);
                    note(events, format!("{} is shuffled into the Monster deck.", card.name));
                    eco.monsters.push(card);
                    self.rng.shuffle(&mut eco.monsters);
                }
            }
            Effect::RevealFeatures { count } => {
                let eco = &mut self.adv_mut().ecology;
                let mut cards = Vec::new();
                for _ in 0..count {
                    if let Some(c) = eco.revealed_features.pop().or_else(|| eco.features.pop()) {
                        cards.push(c);
                    }
                }
                if !cards.is_empty() {
                    self.adv_mut().pending.push(Pending::OrderFeatures { cards });
                }
            }
            Effect::RefreshSpells => {
                for h in &mut self.heroes {
                    h.refresh_spells();
                }
            }
            Effect::StorePower => {
                for h in &mut self.heroes {
                    if let Some(i) = h.draw.iter().position(|c| c.power) {
                        let card = h.draw.remove(i);
                        h.stored_power.push(card);
                    } else if let Some(i) = h.discard.iter().position(|c| c.power) {
                        let card = h.discard.remove(i);
                        h.stored_power.push(card);
                    }
                }
            }
            Effect::LoseStoredPower { .. } => {
                for h in &mut self.heroes {
                    if let Some(card) = h.stored_power.pop() {
                        h.discard.push(card);
                    }
                }
            }
            Effect::GoToPile { letter } => {
                if let Some(Resolving::Legendary { next, .. }) =
                    self.adv_mut().resolving.iter_mut().rev().find(|r| matches!(r, Resolving::Legendary { .. }))
                {
                    *next = Some(letter);
                }
            }
            // Combat-only effects have no meaning outside a Round.
            _ => {}
        }
    }

    /// Damage outside Combat: "Armor only reduces damage taken during Combat".
    fn wound(&mut self, h: u8, amount: u8, events: &mut Vec<Event>) {
        self.damage_hero(h, amount, true, events);
    }

    pub(crate) fn choose_hero(&mut self, h: u8, events: &mut Vec<Event>) {
        let Some(Pending::ChooseHero(why)) = self.adv_mut().pending.first().cloned() else { return };
        self.adv_mut().pending.remove(0);
        match why {
            HeroChoice::DrawItem => self.draw_item_for(h, events),
            HeroChoice::GainItem(item) => self.gain_item(h, item, events),
            HeroChoice::Heal(amount) => {
                let healed = self.heroes[h as usize].heal(amount);
                events.push(Event::HeroHealed { hero: h, amount: healed });
            }
            HeroChoice::Damage(amount) => self.wound(h, amount, events),
        }
    }

    /// A Hero draws an Item; a multi-classed Hero draws one from each class and keeps one.
    pub(crate) fn draw_item_for(&mut self, h: u8, events: &mut Vec<Event>) {
        let mat = self.heroes[h as usize].mat.clone();
        let single = self.adv().options.single_classed;
        let adv = self.adv_mut();
        let mut options = Vec::new();
        if let Some(card) = adv.item_decks[class_index(mat.class)].pop() {
            options.push(card);
        }
        if let (Some(s), false) = (mat.secondary_class, single)
            && let Some(card) = adv.item_decks[class_index(s)].pop()
        {
            options.push(card);
        }
        // A Secondary-class Item that Adds cards, with no Ally to take it, cannot be chosen.
        let keepable =
            |g: &Game, o: &ItemCard| o.deck == Some(mat.class) || o.add_cards.is_empty() || g.ally_for(h, o).is_some();
        if !options.is_empty() && !options.iter().any(|o| keepable(self, o)) {
            for o in options.drain(..) {
                let deck = class_index(o.deck.unwrap_or(mat.class));
                self.adv_mut().item_decks[deck].insert(0, o);
            }
        }
        match options.len() {
            0 => note(events, "No Items are left to draw."),
            1 => self.gain_item(h, options.remove(0), events),
            _ => {
                let adv = self.adv_mut();
                adv.pending.insert(0, Pending::ChooseItem { hero: h, options });
            }
        }
    }

    /// The Hero takes an Item: "Adding / Removing Action Cards", then Equip it if it fits.
    pub(crate) fn gain_item(&mut self, h: u8, item: ItemCard, events: &mut Vec<Event>) {
        events.push(Event::ItemGained { hero: h, name: item.name.clone() });
        let class = class_index(self.heroes[h as usize].mat.class);
        if !item.add_cards.is_empty() || item.remove_cards > 0 {
            // 1. Combine the Discard and Draw Piles.
            let hero = &mut self.heroes[h as usize];
            let mut discard = std::mem::take(&mut hero.discard);
            hero.draw.append(&mut discard);
            // 2. Add the Item Action Cards with the specified Values.
            for v in &item.add_cards {
                let pool = &mut self.adventure.as_deref_mut().expect("full game").item_action_cards[class];
                if let Some(i) = pool.iter().position(|c| c.value == *v) {
                    let card = pool.remove(i);
                    self.heroes[h as usize].draw.push(card);
                }
            }
            // 3. Remove (the players choose); 4. then shuffle.
            let removable = (self.heroes[h as usize].draw.len()).min(usize::from(item.remove_cards)) as u8;
            if removable > 0 {
                self.adv_mut().pending.insert(0, Pending::RemoveCards { hero: h, count: removable });
            } else {
                let hero = &mut self.heroes[h as usize];
                self.rng.shuffle(&mut hero.draw);
            }
        }
        let hero = &mut self.heroes[h as usize];
        let equipped = fits_class(hero, &item) && hands_equipped(hero) + item.hands <= 2;
        hero.items.push(OwnedItem { uses_left: item.uses, card: item, equipped });
    }

    pub(crate) fn remove_action_card(&mut self, card: CardId) {
        let Some(Pending::RemoveCards { hero, count }) = self.adv_mut().pending.first().cloned() else { return };
        let h = &mut self.heroes[hero as usize];
        if let Some(i) = h.draw.iter().position(|c| c.id == card) {
            let c = h.draw.remove(i);
            h.out_of_deck.push(c);
        }
        if count > 1 && !h.draw.is_empty() {
            self.adv_mut().pending[0] = Pending::RemoveCards { hero, count: count - 1 };
        } else {
            self.adv_mut().pending.remove(0);
            let h = &mut self.heroes[hero as usize];
            self.rng.shuffle(&mut h.draw);
        }
    }

    pub(crate) fn choose_option(&mut self, index: u8, events: &mut Vec<Event>) {
        let Some(p) = self.adv_mut().pending.first().cloned() else { return };
        self.adv_mut().pending.remove(0);
        let i = usize::from(index);
        match p {
            Pending::ChooseItem { hero, mut options } => {
                let keep = options.remove(i);
                // "Items not selected are put on the bottom of the Item Deck."
                for other in options {
                    let deck = class_index(other.deck.unwrap_or(self.heroes[hero as usize].mat.class));
                    self.adv_mut().item_decks[deck].insert(0, other);
                }
                let mat_class = self.heroes[hero as usize].mat.class;
                let to = if keep.deck != Some(mat_class) && !keep.add_cards.is_empty() {
                    self.ally_for(hero, &keep).unwrap_or(hero)
                } else {
                    hero
                };
                self.gain_item(to, keep, events);
            }
            Pending::ChooseAbilityDraw { hero } => {
                // "Draw 1 from each of their Primary and Secondary Class Ability
                // Decks", or "Draw 2 from their Primary Class Ability Deck".
                let mat = &self.heroes[hero as usize].mat;
                let (p, s) = (mat.class, mat.secondary_class.unwrap_or(mat.class));
                self.draw_abilities(hero, if i == 0 { [p, s] } else { [p, p] });
                let adv = self.adv_mut();
                if let Some(choice) = adv.pending.pop() {
                    adv.pending.insert(0, choice);
                }
            }
            Pending::ChooseAbility { hero, mut options } => {
                let keep = options.remove(i);
                events.push(Event::AbilityGained { hero, name: keep.ability.name.clone() });
                for other in options {
                    self.adv_mut().ability_decks[class_index(other.class)].insert(0, other);
                }
                self.heroes[hero as usize].abilities.push(OwnedAbility { card: keep, exhausted: false });
            }
            Pending::OrderFeatures { cards } => {
                // Permutation number `index` of the revealed cards; the first is met first.
                let mut order: Vec<_> =
                    crate::exploring::feature_order(cards.len(), i).into_iter().map(|k| cards[k].clone()).collect();
                order.reverse();
                self.adv_mut().ecology.revealed_features.extend(order);
            }
            other => self.adv_mut().pending.insert(0, other),
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
                    items.push(crate::adventure::OfferedItem { hero, index: item, item: it });
                }
                xp
            }
        };
        let Some(Pending::Purchase { what, cost, paid, items }) = self.adv_mut().pending.first().cloned() else {
            return;
        };
        let total: u16 = paid.iter().map(|c| u16::from(c.xp)).sum::<u16>()
            + items.iter().map(|o| u16::from(o.item.card.xp)).sum::<u16>();
        let _ = paid_xp;
        if total < u16::from(cost) {
            return;
        }
        // Paid in full; "No change is given."
        self.adv_mut().pending.remove(0);
        self.adv_mut().record.xp_spent += u32::from(total);
        events.push(Event::XpSpent { xp: total.min(255) as u8 });
        match what {
            Purchase::Key => {
                let adv = self.adv_mut();
                adv.keys += 1;
                events.push(Event::KeysChanged { keys: adv.keys });
            }
            Purchase::Healing { units } => {
                let points = (self.healing_per_unit() * u16::from(units)).min(255) as u8;
                self.adv_mut().pending.insert(0, Pending::SplitHealing { points });
            }
            Purchase::Ability { hero } => {
                if let Some(Pending::LevelUp { bought }) = self.adv_mut().pending.first_mut() {
                    bought[hero as usize] = true;
                }
                self.offer_abilities(hero);
                // offer_abilities queues at the back; the choice comes now.
                let adv = self.adv_mut();
                if let Some(p) = adv.pending.pop() {
                    adv.pending.insert(0, p);
                }
            }
        }
    }

    /// "6. Campfires": Rest.
    fn rest(&mut self, events: &mut Vec<Event>) {
        let random = self.adv().options.variants.random_campfire_healing;
        for h in 0..self.heroes.len() {
            let amount = if random {
                // "each Hero Draws 2 Cards and Heals equal to the highest-value Card."
                let hero = &mut self.heroes[h];
                let mut drawn = Vec::new();
                for _ in 0..2 {
                    if hero.draw.iter().all(|c| c.power) && !hero.discard.is_empty() {
                        hero.reshuffle_discard(&mut self.rng);
                    }
                    drawn.extend(hero.draw_card());
                }
                let best = drawn.iter().map(|c| c.value).max().unwrap_or(0);
                hero.discard.extend(drawn);
                best
            } else {
                self.heroes[h].max_health() / 2
            };
            let healed = self.heroes[h].heal(amount);
            events.push(Event::HeroHealed { hero: h as u8, amount: healed });
            // Shuffle Discard and Draw together; Stored Power stays; Spells Refreshed.
            let hero = &mut self.heroes[h];
            hero.reshuffle_discard(&mut self.rng);
            hero.refresh_spells();
        }
        self.adv_mut().ecology.map.return_defeated_monsters();
        events.push(Event::Rested);
    }

    /// "Level Up": max health up, Heal, Spells Refreshed, then Abilities may be bought.
    pub(crate) fn level_up(&mut self, events: &mut Vec<Event>) {
        let heal = !self.adv().options.variants.no_level_up_heal;
        for hero in &mut self.heroes {
            hero.level = (hero.level + 1).min(3);
            if heal {
                hero.health = hero.max_health();
            }
            hero.refresh_spells();
            // "Sil has 3 Power Cards, but the third one is only added to her
            // Action Card deck when she reaches level 3" — that card only: a
            // Power Card Removed with an Item stays out.
            let third = crate::hero::third_power_card(hero.mat.class);
            if hero.level == 3
                && let Some(i) = hero.out_of_deck.iter().position(|c| Some(c.id) == third)
            {
                let card = hero.out_of_deck.remove(i);
                hero.draw.push(card);
                self.rng.shuffle(&mut hero.draw);
            }
        }
        events.push(Event::LevelUp { level: self.heroes[0].level });
        let n = self.heroes.len();
        self.adv_mut().pending.push(Pending::LevelUp { bought: vec![false; n] });
    }

    /// Level Up is over: "After Level Up, the current Ecology is complete".
    pub(crate) fn finish_level_up(&mut self, _events: &mut Vec<Event>) {
        self.adv_mut().pending.remove(0);
        let current = self.adv().ecology.ecology;
        self.adv_mut().record.ecologies_cleared.push(current);
        if let Some(next) = current.next() {
            self.adv_mut().pending.push(Pending::Passage { next });
        }
    }

    /// "Passage to Next Ecology … Each Ecology follows the same Setup."
    pub(crate) fn descend(&mut self, events: &mut Vec<Event>) {
        let Some(Pending::Passage { next }) = self.adv_mut().pending.first().cloned() else { return };
        self.adv_mut().pending.remove(0);
        // "3. Monster Action Cards … Shuffle each deck": gathered from their
        // Discard Piles and shuffled for the new Ecology.
        for deck in &mut self.monster_decks {
            deck.gather(&mut self.rng);
        }
        let adv = self.adventure.as_deref_mut().expect("full game");
        match setup_ecology(&adv.content, next, &adv.options, &mut self.rng) {
            Ok(eco) => adv.ecology = eco,
            Err(e) => {
                note(events, e);
                return;
            }
        }
        if adv.options.variants.keys_each_ecology {
            adv.keys += 3;
            events.push(Event::KeysChanged { keys: adv.keys });
        }
        events.push(Event::EcologyStarted { ecology: next });
    }
}
