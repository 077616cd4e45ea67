//! "Exploring": drawing and placing Map Tiles ("Placing Map Tiles",
//! "WARNING! LOSING BY TILE PLACEMENT", "One Dead-End Per Ecology") and
//! choosing which Discovered Ecology Element to Encounter ("Discovering vs.
//! Encountering Ecology Elements"). Spending XP is in `purchases`, Equipping
//! in `items`, Abilities used while Exploring in `abilities`.

use crate::action::{Action, CANDIDATES};
use crate::adventure::{Pending, Purchase};
use crate::error::RuleError;
use crate::event::{Event, LossReason};
use crate::game::Game;
use crate::map::{Element, ElementState, MapTile, Placement, RuneMatch};

impl Game {
    /// Legendary Locations the Heroes may Encounter now.
    pub fn discovered_legendary_locations(&self) -> Vec<RuneMatch> {
        let Some(a) = self.adventure() else { return Vec::new() };
        let e = &a.ecology;
        e.rune_matches.discovered(&e.map, &e.patterns, &e.used_runes)
    }

    /// How many [`Game::discovered_legendary_locations`] lists, without the list.
    pub fn discovered_legendary_count(&self) -> usize {
        let Some(a) = self.adventure() else { return 0 };
        let e = &a.ecology;
        e.rune_matches.count(&e.map, &e.patterns, &e.used_runes)
    }

    /// The decision the game waits for outside Combat, if any.
    pub fn pending(&self) -> Option<&Pending> {
        self.adventure().and_then(|a| a.pending.first())
    }

    /// Drawing and placing tiles, and choosing an Element to Encounter.
    pub(crate) fn check_exploring(&self, action: &Action) -> Result<(), RuleError> {
        let a = self.adv();
        let eco = &a.ecology;
        let no_tile = || if eco.drawn.is_some() { Err(RuleError::TileWaiting) } else { Ok(()) };
        match action {
            Action::DrawTile => {
                no_tile()?;
                if eco.pile.is_empty() { Err(RuleError::NoTilesLeft) } else { Ok(()) }
            }
            Action::PlaceTile { placement } => {
                let tile = eco.drawn.as_ref().ok_or(RuleError::NoTileDrawn)?;
                eco.map.check_placement(tile, *placement).map_err(RuleError::Placement)
            }
            Action::PlaceSetAsideTile { placement } => {
                no_tile()?;
                let tile = eco.dead_end.set_aside.as_ref().ok_or(RuleError::NoTileDrawn)?;
                eco.map.check_placement(tile, *placement).map_err(RuleError::Placement)
            }
            Action::Encounter { element } => {
                no_tile()?;
                if !eco.map.is_reachable_unencountered(*element) {
                    // The true reason: dealt with already, guarded, or out of reach.
                    return Err(match eco.map.element(*element) {
                        Some((_, state)) if state != ElementState::Present => RuleError::AlreadyEncountered,
                        Some((Element::Chest, _)) if eco.map.is_chest_guarded(*element) => RuleError::ChestGuarded,
                        _ => RuleError::NotReachable,
                    });
                }
                let (kind, _) = eco.map.element(*element).ok_or(RuleError::NotReachable)?;
                // "Spending a Key Unlocks a Door"; with Locked Chests, a Chest too.
                let locked = kind == Element::Door || (kind == Element::Chest && a.options.variants.locked_chests);
                if locked && a.keys == 0 { Err(RuleError::NeedsKey) } else { Ok(()) }
            }
            Action::EncounterLegendary { index } => {
                no_tile()?;
                if usize::from(*index) < self.discovered_legendary_count() {
                    Ok(())
                } else {
                    Err(RuleError::NotReachable)
                }
            }
            _ => Err(RuleError::WrongStep { expected: "an Exploring action" }),
        }
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
            Action::Encounter { element } => self.open_element(element, true, events),
            Action::EncounterLegendary { index } => {
                let m = self.discovered_legendary_locations().swap_remove(usize::from(index));
                self.encounter_legendary(m, events);
            }
            _ => unreachable!("check_exploring refuses other actions"),
        }
    }

    /// Everything the Heroes might do while Exploring with no choice pending.
    pub(crate) fn exploring_candidates(&self) -> Vec<Action> {
        // Room for most lists at once: growing it was a tenth of the call.
        let mut out = Vec::with_capacity(CANDIDATES);
        let eco = &self.adv().ecology;
        if let Some(tile) = &eco.drawn {
            out.extend(eco.map.frontier().placements(tile).map(|placement| Action::PlaceTile { placement }));
        } else {
            out.push(Action::DrawTile);
            if let Some(tile) = &eco.dead_end.set_aside {
                out.extend(
                    eco.map.frontier().placements(tile).map(|placement| Action::PlaceSetAsideTile { placement }),
                );
            }
            out.extend(eco.map.reachable_unencountered().map(|element| Action::Encounter { element }));
            out.extend((0..self.discovered_legendary_count() as u8).map(|index| Action::EncounterLegendary { index }));
            out.push(Action::StartPurchase { what: Purchase::Key });
        }
        self.healing_candidates(&mut out);
        self.equip_candidates(&mut out);
        self.exploring_ability_candidates(&mut out);
        out
    }

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
            let eco = &mut adv.ecology;
            eco.rune_matches.placed(&eco.map, &eco.patterns);
            adv.record.tiles_placed = adv.record.tiles_placed.saturating_add(1);
            events.push(Event::TilePlaced { tile: tile.id, placement });
        }
    }

    /// "Stranded": with no tile left to draw or place and nothing left to
    /// Encounter, the Heroes can go nowhere.
    pub(crate) fn check_stranded(&mut self, events: &mut Vec<Event>) {
        if self.is_stranded() {
            self.lose(LossReason::Stranded, events);
        }
    }

    /// No way on is left, whatever the Heroes do while Exploring: no tile to
    /// draw or place, no Legendary Location, nothing to Encounter, and no way
    /// through a locked Door or Chest ([`Game::can_unlock`]).
    pub(crate) fn is_stranded(&self) -> bool {
        let adv = self.adv();
        let eco = &adv.ecology;
        let placeable = |t: &MapTile| !eco.map.is_dead_end(t);
        let nothing_to_place = adv.pending.is_empty()
            && eco.pile.is_empty()
            && !eco.drawn.as_ref().is_some_and(placeable)
            && !eco.dead_end.set_aside.as_ref().is_some_and(placeable)
            && self.discovered_legendary_count() == 0;
        if !nothing_to_place {
            return false;
        }
        let mut locked = false;
        for element in eco.map.reachable_unencountered() {
            match self.check(&Action::Encounter { element }) {
                Ok(()) => return false,
                Err(RuleError::NeedsKey) => locked = true,
                Err(_) => {}
            }
        }
        !(locked && self.can_unlock())
    }

    /// Whether some sequence of Exploring actions Unlocks a Door (or a Locked
    /// Chest): a Key in hand; one bought ("Keys can be bought while Heroes are
    /// Exploring") with the pool and any Item ("Equipped and Unequipped Items
    /// may be spent"); or an ability that unlocks or gives Keys, which "Certain
    /// Hero Items, Abilities, and Spells" do, that some Hero could Activate,
    /// Equipping what she carries ("Items may be Equipped or Unequipped anytime
    /// while Exploring") and Refreshing or Storing Power first if need be.
    pub(crate) fn can_unlock(&self) -> bool {
        let adv = self.adv();
        adv.keys > 0 || self.payable_xp() >= u16::from(adv.ecology.reference.key_cost) || self.abilities_could_unlock()
    }
}
