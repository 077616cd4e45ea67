//! The careful bot Exploring: where to place the tile in hand (a dead-end
//! gauge over the remaining tiles), what to Encounter, when to heal, rest
//! or buy a Key.

use std::cell::RefCell;
use std::sync::Arc;

use depths_rules::adventure::Purchase;
use depths_rules::map::{
    Element, ElementRef, Map, MapTile, PlaceCounts, Placement, Preview, Rotation, ThroughCounter, TileShape,
};
use depths_rules::{Action, Game};

use super::choosing::{best_by, first, frac, heal_below, knob, min_frac};
use super::decisions::item_score;

/// Remaining tiles that could not be placed now, by their [`shapes`]: tiles
/// of one shape fit in as many places (and the pile's tiles are none of
/// the map's: every tile's id is its own).
fn stuck_count(map: &Map, shapes: &[(TileShape, usize)]) -> usize {
    let f = map.frontier();
    shapes.iter().filter(|(s, _)| f.placements_of(s).next().is_none()).map(|(_, n)| n).sum()
}

/// The tiles, one of each shape with how many have it. Tiles whose edges are
/// the same up to a turn, with the same passages, fit in as many places on
/// any map: each shape is counted once for each map weighed, its turns
/// worked out once for the decision.
fn shapes(tiles: &[MapTile]) -> Vec<(TileShape, usize)> {
    let key = |t: &MapTile| {
        // The edges, four bits a side: a quarter turn moves them four bits.
        let edges = t.edges.to_array().iter().fold(0u16, |k, &e| k << 4 | e as u16);
        let turns = Rotation::ALL.map(|r| edges.rotate_right(4 * u32::from(r.quarter_turns())));
        (turns.into_iter().min(), t.has_secret_passage(), t.has_warp_portal())
    };
    let mut out: Vec<(&MapTile, usize, _)> = Vec::new();
    for t in tiles {
        let k = key(t);
        match out.iter_mut().find(|(_, _, u)| *u == k) {
            Some((_, n, _)) => *n += 1,
            None => out.push((t, 1, k)),
        }
    }
    out.into_iter().map(|(t, n, _)| (TileShape::of(t), n)).collect()
}

/// The rewards the Heroes reach on `map` (see [`score`]).
fn rewards(map: &Map) -> usize {
    map.reachable_unencountered_kinds().filter(|&k| is_reward(k)).count()
}

/// What [`score`] counts as a reward to reach.
fn is_reward(k: Element) -> bool {
    matches!(k, Element::Chest | Element::Campfire | Element::StairGuardian)
}

/// How good a map is to keep exploring from: few stuck tiles, many places.
/// `shapes`: the remaining tiles ([`shapes`]) and `places` how many places
/// each has (at most 8 count); `cells`: the empty cells around the map;
/// `legendary`: the Legendary Locations the map shows (see [`Legendary`]);
/// `rewards`: the rewards reached ([`rewards`]).
fn score(
    shapes: &[(TileShape, usize)],
    places: impl Iterator<Item = usize>,
    cells: usize,
    legendary: usize,
    rewards: usize,
) -> i32 {
    let mut stuck = 0;
    let mut options = 0;
    for ((_, tiles), n) in shapes.iter().zip(places) {
        let tiles = *tiles;
        if n == 0 {
            stuck += tiles as i32;
        }
        options += n * tiles;
    }
    -stuck * 40 + options as i32 + cells as i32 * 2 + legendary as i32 * 15 + rewards as i32 * knob(8, 8.0) as i32
}

/// What the careful bot weighs maps on, kept from one decision to the next
/// so that their lists are reused (a copy into a new map allocated every
/// tile's lists, and dropping it freed them).
#[derive(Default)]
struct Scratch {
    /// The map copied, to weigh an Encounter on.
    map: Option<Map>,
    /// The preview of a place for a tile, while no [`PlaceScorer`] has it.
    preview: Preview,
    /// The places of the tiles left, counted at the last decision that
    /// weighed maps: renewed, it counts again only the spots that changed.
    counts: PlaceCounts,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// [`score`] of the map with a tile placed, for every place weighed
/// for that tile: worked out from a [`Preview`] of each place, what the map
/// has counted once for the decision.
struct PlaceScorer<'a> {
    map: &'a Map,
    shapes: &'a [(TileShape, usize)],
    counts: PlaceCounts,
    rewards: usize,
    preview: Preview,
}

impl<'a> PlaceScorer<'a> {
    fn new(map: &'a Map, shapes: &'a [(TileShape, usize)]) -> PlaceScorer<'a> {
        let rewards = rewards(map);
        let (mut counts, preview) = SCRATCH
            .with_borrow_mut(|scratch| (std::mem::take(&mut scratch.counts), std::mem::take(&mut scratch.preview)));
        counts.renew(map, shapes.iter().map(|(t, _)| t));
        PlaceScorer { map, shapes, counts, rewards, preview }
    }

    /// `None` where the tile cannot go.
    fn score(&mut self, tile: &Arc<MapTile>, placement: Placement, legendary: &Legendary) -> Option<i32> {
        let (map, p) = (self.map, &mut self.preview);
        map.preview(tile, placement, p).ok()?;
        let p = &self.preview;
        let places = (0..self.shapes.len()).map(|k| self.counts.after(k, map, p).min(8));
        let rewards = self.rewards + p.newly_reachable(map).filter(|&k| is_reward(k)).count();
        Some(score(self.shapes, places, p.cells(), legendary.after_preview(p), rewards))
    }
}

impl Drop for PlaceScorer<'_> {
    fn drop(&mut self) {
        let (preview, counts) = (std::mem::take(&mut self.preview), std::mem::take(&mut self.counts));
        // Gone only while the thread ends.
        let _ = SCRATCH.try_with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            (scratch.preview, scratch.counts) = (preview, counts);
        });
    }
}

/// The Legendary Locations the map of the Ecology shows now, and those a
/// map weighed shows: a tile placed only adds the matches through it, and an
/// Encounter changes none, so the whole map is searched once per decision.
struct Legendary<'a> {
    now: usize,
    through: ThroughCounter<'a>,
}

impl<'a> Legendary<'a> {
    fn new(g: &'a Game) -> Legendary<'a> {
        let eco = &g.adventure().expect("full game").ecology;
        let through = eco.through_counter();
        Legendary { now: g.discovered_legendary_count(), through }
    }

    /// On the Ecology's map with the tile of `preview` placed.
    fn after_preview(&self, preview: &Preview) -> usize {
        self.now + self.through.count(preview)
    }
}

/// The careful bot's score of each legal placement of the tile in hand (or
/// of the set-aside tile), as it weighs them: higher is better. For a bot
/// that searches only the placements the careful bot rates best.
pub fn placement_scores(g: &Game, legal: &[Action]) -> Vec<(Action, i32)> {
    let Some(adv) = g.adventure() else { return Vec::new() };
    let eco = &adv.ecology;
    let Some(tile) = eco.drawn.as_ref().or(eco.dead_end.set_aside.as_ref()) else { return Vec::new() };
    let tile = Arc::new(tile.clone());
    let shapes = shapes(eco.pile.tiles());
    let legendary = Legendary::new(g);
    let mut scorer = PlaceScorer::new(&eco.map, &shapes);
    legal
        .iter()
        .filter_map(|a| match a {
            Action::PlaceTile { placement } | Action::PlaceSetAsideTile { placement } => {
                scorer.score(&tile, *placement, &legendary).map(|s| (a.clone(), s))
            }
            _ => None,
        })
        .collect()
}

pub(super) fn explore_choice(g: &Game, legal: &[Action]) -> Action {
    let adv = g.adventure().expect("full game");
    let eco = &adv.ecology;
    let map = &eco.map;
    let remaining = eco.pile.tiles();
    // Worked out only for a decision that weighs maps (most do not).
    let shapes_once = std::cell::OnceCell::new();
    let shapes = || shapes_once.get_or_init(|| shapes(remaining)).as_slice();
    // Place the drawn tile where it leaves the most room to grow.
    let scorer = RefCell::new(None);
    let placed_score = |tile: &Arc<MapTile>, placement: Placement, legendary: &Legendary| {
        let mut scorer = scorer.borrow_mut();
        scorer.get_or_insert_with(|| PlaceScorer::new(map, shapes())).score(tile, placement, legendary)
    };
    if let Some(tile) = &eco.drawn {
        let tile = Arc::new(tile.clone());
        let tile = &tile;
        let legendary = Legendary::new(g);
        let pick = best_by(legal, |a| match a {
            Action::PlaceTile { placement } => placed_score(tile, *placement, &legendary),
            _ => None,
        });
        return pick.unwrap_or_else(|| legal[0].clone());
    }
    if let Some(tile) = &eco.dead_end.set_aside {
        let tile = &Arc::new(tile.clone());
        let legendary = Legendary::new(g);
        if let Some(a) = best_by(legal, |a| match a {
            Action::PlaceSetAsideTile { placement } => placed_score(tile, *placement, &legendary),
            _ => None,
        }) {
            return a;
        }
    }
    // Equip what is not equipped yet, best first.
    if let Some(a) = best_by(legal, |a| match a {
        Action::Equip { hero, item } => {
            let it = &g.heroes[*hero as usize].items[usize::from(*item)];
            (!it.equipped && item_score(&it.card) > 0).then(|| item_score(&it.card))
        }
        _ => None,
    }) {
        return a;
    }
    let r = &eco.reference;
    let pool = g.pool_xp();
    let lowest = min_frac(g);
    let kind = |a: &Action| match a {
        Action::Encounter { element } => map.element(*element).map(|(k, _)| k),
        _ => None,
    };
    let heal = |threshold: f64| -> Option<Action> {
        if min_frac(g) >= threshold || r.healing.xp == 0 {
            return None;
        }
        let per_unit = u16::from(r.healing.health)
            * g.heroes.len() as u16
            * if adv.options.variants.double_healing { 2 } else { 1 };
        let missing: u16 = g.heroes.iter().map(|h| u16::from(h.max_health() - h.health)).sum();
        let want = missing.div_ceil(per_unit.max(1));
        let afford = pool / u16::from(r.healing.xp);
        let units = want.min(afford).min(20) as u8;
        if units == 0 {
            return None;
        }
        let a = Action::StartPurchase { what: Purchase::Healing { units } };
        legal.contains(&a).then_some(a)
    };
    let campfire = first(legal, |a| kind(a) == Some(Element::Campfire));
    let rest_worth = |g: &Game| {
        // Rest when it heals a good share: average missing ≥ 40%.
        let missing: f64 = (0..g.heroes.len()).map(|h| 1.0 - frac(g, h)).sum::<f64>() / g.heroes.len() as f64;
        missing >= knob(10, 0.3)
    };
    // Someone is low: the Campfire is free (it brings Monsters back, so only
    // when it heals a good share), else pay XP.
    if lowest < heal_below()
        && rest_worth(g)
        && let Some(a) = campfire.clone()
    {
        return a;
    }
    if let Some(a) = heal(heal_below()) {
        return a;
    }
    if lowest < 0.45
        && let Some(a) = campfire.clone()
    {
        return a;
    }
    if rest_worth(g)
        && let Some(a) = campfire.clone()
    {
        return a;
    }
    let guardian = first(legal, |a| kind(a) == Some(Element::StairGuardian));
    let healthy = lowest >= 0.5;
    if healthy && let Some(a) = first(legal, |a| matches!(a, Action::EncounterLegendary { .. })) {
        return a;
    }
    if let Some(a) = first(legal, |a| kind(a) == Some(Element::Chest) && knob(9, 0.0) == 0.0) {
        // Locked Chests: keep a Key for Doors unless there are several.
        if !adv.options.variants.locked_chests || adv.keys >= 2 {
            return a;
        }
    }
    // The Stairs are open: get ready and go down.
    if let Some(a) = guardian {
        // XP is worth nothing after the Final Entity: heal fully before it.
        let last = eco.ecology == depths_rules::Ecology::Subterranean;
        if min_frac(g) < 0.7
            && let Some(c) = campfire
        {
            return c;
        }
        if let Some(h) = heal(if last { 1.01 } else { knob(7, 0.85) }) {
            return h;
        }
        return a;
    }
    // Dead-end gauge: how many of the remaining tiles could not be placed
    // now, counted only when a blocker is weighed worth nothing.
    let stuck = || stuck_count(map, shapes());
    let blockers: Vec<(Action, ElementRef, Element)> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Encounter { element } => {
                let k = kind(a)?;
                k.blocks_movement().then(|| (a.clone(), *element, k))
            }
            _ => None,
        })
        .collect();
    let must_open = || {
        let stuck = stuck();
        remaining.is_empty() || stuck * 3 >= remaining.len().max(1) || stuck > 0 && remaining.len() <= 4
    };
    // Weigh every blocker the Heroes can reach (Doors even without a Key):
    // what it does for the map against what it costs.
    let legendary = g.discovered_legendary_count();
    // Each blocker weighed is the map copied and the blocker Encountered:
    // the same tiles, so the places are counted again only where the ways
    // in changed. Counted at the first blocker weighed (often there is none).
    let mut counted: Option<(PlaceCounts, i32)> = None;
    let mut places = Vec::new();
    let key_cost = u16::from(r.key_cost);
    let mut best: Option<(i32, ElementRef, Element)> = None;
    for e in map.reachable_unencountered() {
        let Some((k, _)) = map.element(e) else { continue };
        if !k.blocks_movement() {
            continue;
        }
        let cost = match k {
            Element::Feature => knob(1, 4.0) as i32 + if lowest < 0.5 { 10 } else { 0 },
            // A Key in hand is cheap to use; buying one costs XP.
            Element::Door => match adv.keys {
                0 if pool >= key_cost => knob(2, 15.0) as i32,
                0 => continue,
                _ => knob(3, 4.0) as i32,
            },
            Element::Monster { count } => {
                let per = if lowest >= 0.75 {
                    knob(6, 25.0)
                } else if lowest >= 0.5 {
                    45.0
                } else {
                    90.0
                };
                (per * f64::from(count)) as i32
            }
            _ => continue,
        };
        // Every map weighed is the map copied onto the scratch map.
        let weighed = SCRATCH.with_borrow_mut(|scratch| {
            let m = match &mut scratch.map {
                Some(m) => {
                    m.clone_from(map);
                    m
                }
                none => none.insert(map.clone()),
            };
            m.encounter(e).ok()?;
            let shapes = shapes();
            let (counts, base) = counted.get_or_insert_with(|| {
                let mut counts = std::mem::take(&mut scratch.counts);
                counts.renew(map, shapes.iter().map(|(t, _)| t));
                let places = (0..shapes.len()).map(|k| counts.on_map(k).min(8));
                let base = score(shapes, places, map.frontier().cells().count(), legendary, rewards(map));
                (counts, base)
            });
            counts.on_copy(map, m, &mut places);
            let places = places.iter().map(|&n| n.min(8));
            Some(score(shapes, places, m.frontier().cells().count(), legendary, rewards(m)) - *base)
        });
        let Some(gain) = weighed else { continue };
        let net = gain - cost;
        if best.as_ref().is_none_or(|(b, _, _)| net > *b) {
            best = Some((net, e, k));
        }
    }
    if let Some((counts, _)) = counted {
        SCRATCH.with_borrow_mut(|scratch| scratch.counts = counts);
    }
    if let Some((net, e, k)) = best
        && (net > 0 || must_open())
    {
        let fight = matches!(k, Element::Monster { .. });
        if fight && let Some(h) = heal(0.75) {
            return h;
        }
        if fight
            && lowest < 0.5
            && !must_open()
            && let Some(c) = campfire.clone()
        {
            return c;
        }
        let a = Action::Encounter { element: e };
        if legal.contains(&a) {
            return a;
        }
        if k == Element::Door
            && adv.keys == 0
            && let Some(a) = first(legal, |a| matches!(a, Action::StartPurchase { what: Purchase::Key }))
        {
            return a;
        }
    }
    if let Some(a) = first(legal, |a| matches!(a, Action::DrawTile)) {
        return a;
    }
    // No tiles left: open whatever blocks, Features and Doors first.
    let mut order = blockers.clone();
    order.sort_by_key(|(_, _, k)| match k {
        Element::Feature => 0,
        Element::Door => 1,
        _ => 2,
    });
    if let Some((a, _, k)) = order.first() {
        if matches!(k, Element::Monster { .. })
            && let Some(h) = heal(0.75)
        {
            return h;
        }
        return a.clone();
    }
    if let Some(a) = first(legal, |a| matches!(a, Action::StartPurchase { what: Purchase::Key }))
        && pool >= u16::from(r.key_cost)
    {
        return a;
    }
    if let Some(a) = campfire.or_else(|| first(legal, |a| matches!(a, Action::EncounterLegendary { .. }))) {
        return a;
    }
    // Nothing useful: anything but an endless purchase or an Item toggle.
    first(legal, |a| {
        !matches!(
            a,
            Action::StartPurchase { .. } | Action::Equip { .. } | Action::Unequip { .. } | Action::CancelPurchase
        )
    })
    .unwrap_or_else(|| legal[0].clone())
}
