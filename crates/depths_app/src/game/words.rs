//! The game in words: every rules [`Event`] as a line of the log, every
//! [`Action`] as the label of its button, and why an action was refused.

use depths_rules::{
    Action, CombatStep, Ecology, Encountering, Event, Game, LossReason, Outcome, Pending, Phase, Purchase, RuleError,
    Target, XpRef,
    adventure::HeroChoice,
    hero::AbilitySource,
    map::{Cell, Edge, Element, ElementRef, ElementState, Map, PlacementError, Side, TileKind},
};

/// How many of [`variants_in_words`] make the game harder (they come first).
pub const HARDER_VARIANTS: usize = 3;

/// The book's variants ("Adjusting Game Difficulty"), the harder first: each
/// with its switch, its name on New Game and in the records, and what it
/// changes, in the book's words.
#[rustfmt::skip]
pub fn variants_in_words(v: &mut depths_rules::Variants) -> [(&mut bool, &'static str, &'static str); 8] {
    [
        (&mut v.random_campfire_healing, "Random Campfire Healing", "At a Campfire each Hero draws 2 cards and heals the higher value, not a fixed amount."),
        (&mut v.no_level_up_heal, "No healing at Level Up", "Heroes do not heal when they Level Up after a Stair Guardian."),
        (&mut v.locked_chests, "Locked Chests", "Chests must be Unlocked like Doors (a Key, or an unlocking Ability or Item)."),
        (&mut v.start_with_ability, "Start with an Ability", "Starting at the Ruins, each Hero draws an Ability to start with."),
        (&mut v.six_keys, "Start with 6 Keys", "The party begins with 6 Keys instead of 3."),
        (&mut v.keys_each_ecology, "3 Keys at each new Ecology", "3 more Keys each time the Heroes go down to a new Ecology."),
        (&mut v.one_dead_end, "One Dead-End per Ecology", "Once per Ecology a tile that fits nowhere is set aside (it may be placed later); draw another or Encounter something instead."),
        (&mut v.double_healing, "Twice as much Healing", "Healing paid with XP heals twice what the Reference Card lists."),
    ]
}

/// Why an action was refused, as a sentence.
pub fn rule_error_text(game: &Game, e: &RuleError) -> String {
    match e {
        RuleError::Placement(p) => placement_error_text(p),
        RuleError::HeroIsDone { hero } => {
            format!("{} has nothing left to do in this step; the others may still act.", hero_name(game, *hero))
        }
        other => capitalise(&other.to_string()),
    }
}

/// Why Hero `hero`'s Ability at `source` cannot be used now, from the rules
/// (asked with no target: the step, its cost and a Block are checked
/// first). A Drink "used at will" read "not now" with no reason a player
/// could find.
pub fn ability_not_now(game: &Game, hero: u8, source: depths_rules::AbilitySource) -> String {
    let a = Action::ActivateAbility { hero, source, target: depths_rules::Target::None };
    match game.check(&a) {
        Err(RuleError::WrongStep { .. }) if game.combat().is_some() => {
            "In a Combat, Abilities are used at the Resolve step, once the cards are played.".to_owned()
        }
        Err(RuleError::BadTarget) | Ok(()) => "Nothing to aim it at now.".to_owned(),
        Err(e) => rule_error_text(game, &e),
    }
}

/// Why `action` is refused, as [`rule_error_text`], but naming what stands
/// in the way of an element out of reach ("the Heroes cannot reach that"
/// named no wall, Door or Monster).
pub fn refusal_text(game: &Game, action: &Action, e: &RuleError) -> String {
    match (e, action) {
        (RuleError::NotReachable, Action::Encounter { element }) => unreachable_text(game, *element),
        _ => rule_error_text(game, e),
    }
}

/// "The Heroes cannot reach that: the Door 1 tile east of the Lantern
/// stands in the way. Unlock it first." ([`depths_rules::map::Map::in_the_way`]).
fn unreachable_text(game: &Game, e: ElementRef) -> String {
    let Some(map) = game.adventure().map(|a| &a.ecology.map) else {
        return rule_error_text(game, &RuleError::NotReachable);
    };
    match map.in_the_way(e) {
        None => "The Heroes cannot reach that: no open way leads there yet.".to_owned(),
        Some(way) if way.is_empty() => rule_error_text(game, &RuleError::NotReachable),
        Some(way) => {
            let names: Vec<String> = way.iter().map(|w| element_text(game, *w)).collect();
            let doors = way.iter().all(|w| map.element(*w).is_some_and(|(el, _)| el == Element::Door));
            let (stand, it) = if way.len() == 1 { ("stands", "it") } else { ("stand", "them") };
            let act = if doors { "Unlock" } else { "Encounter" };
            format!("The Heroes cannot reach that: {} {stand} in the way. {act} {it} first.", names.join(" and "))
        }
    }
}

/// Why a tile cannot go there, without cell coordinates or tile ids.
pub fn placement_error_text(p: &PlacementError) -> String {
    let edge = |e: &Edge| match e {
        Edge::Wall => "wall",
        Edge::Open => "open",
        Edge::Water => "water",
        Edge::Upper => "upper-level",
        Edge::Lower => "lower-level",
    };
    match p {
        PlacementError::AlreadyPlaced(_) => "That tile is already on the map.".into(),
        PlacementError::Occupied(_) => "A tile is already there.".into(),
        PlacementError::NotAdjacent(_) => "It must touch a tile on the map.".into(),
        PlacementError::EdgeMismatch { side, tile_edge, neighbour_edge } => format!(
            "Its {} edge on the {} side would touch the neighbour's {} edge.",
            edge(tile_edge),
            side_name(*side),
            edge(neighbour_edge)
        ),
        other => capitalise(&other.to_string()) + ".",
    }
}

fn side_name(s: Side) -> &'static str {
    match s {
        Side::N => "north",
        Side::E => "east",
        Side::S => "south",
        Side::W => "west",
    }
}

/// "The Ruins are behind you — descend to the Caverns": the Passage moment.
pub fn passage_text(from: Ecology, next: Ecology) -> String {
    format!("The {} are behind you — descend to the {}", from.name(), next.name())
}

/// "1 place", "3 places": a count with its noun in the right number.
pub fn counted(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "under a minute", "36 min", "1 h 29 min": time at the table, one form
/// everywhere it is shown.
pub fn time_spent(seconds: u64) -> String {
    match seconds / 60 {
        0 => "under a minute".to_owned(),
        m if m < 60 => format!("{m} min"),
        m => format!("{} h {:02} min", m / 60, m % 60),
    }
}

/// What a Hero's Health did just now and what the Round's end will take, in
/// one line: `change` from the last action's events, `due` only while a
/// Round is in progress (0 otherwise), `avoidable` the part of `due` that is
/// Return Damage ("In Rounds where Heroes Defeat a Monster, they avoid some
/// Return Damage"; Direct Damage they still suffer). `None` when there is
/// nothing to say.
pub fn health_line(change: i16, due: u8, avoidable: u8) -> Option<String> {
    // Short: a Hero mat's line is cut to its width ("−5 Health when this
    // Round ends, un…" left out what mattered).
    let now = match change {
        0 => None,
        c if c < 0 => Some(format!("−{} Health just now", -c)),
        c => Some(format!("+{c} Health just now")),
    };
    let later = (due > 0).then(|| {
        let more = if change < 0 { " more" } else { "" };
        // The Health bar shows the loss: "Health" gives way to the condition,
        // and "at Round's end" too ("−3 at Round's end unless a Monster …"
        // was cut at the mat's width, the condition lost; the hover says when).
        let kept = due.saturating_sub(avoidable);
        match avoidable.min(due) {
            0 => format!("−{due}{more}{} at Round's end", if now.is_none() { " Health" } else { "" }),
            // "Unless a Monster falls" was untrue where several Heroes Defeat
            // it: one of them avoids, the others still take it (the hover says who).
            _ if kept == 0 => format!("−{due}{more} unless avoided"),
            _ => format!("−{due}{more}, or −{kept} if avoided"),
        }
    });
    match (now, later) {
        (Some(a), Some(b)) => Some(format!("{a} · {b}")),
        (a, b) => a.or(b),
    }
}

/// A Hero's Abilities by name: the mat's own first, then each Ability Card
/// gained (an Item's are the Item's: it is named with the Items). The end
/// of a game read "Abilities: none" for Heroes who had used theirs.
pub fn ability_names(hero: &depths_rules::hero::Hero) -> Vec<String> {
    let mat = hero.mat.abilities.iter().map(|a| a.name.clone());
    mat.chain(hero.abilities.iter().map(|a| a.card.ability.name.clone())).collect()
}

/// A title or a sentence starts with a capital ("the Final Entity" → "The Final Entity").
pub fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

fn hero_name(game: &Game, h: u8) -> String {
    game.heroes.get(usize::from(h)).map_or_else(|| format!("Hero {h}"), |h| h.name().to_owned())
}

fn foe_name(game: &Game, f: u8) -> String {
    game.combat()
        .and_then(|c| c.foes.get(usize::from(f)))
        // After the last Monster falls the Combat is gone, and its name with it.
        .map_or_else(|| "the Monster".to_owned(), |f| f.name().to_owned())
}

/// What an Ability that deals Damage to an individual also does ("All of a
/// Hero's Damage must be applied to one Individual Monster").
pub fn binding_note(hero: &str) -> String {
    format!(
        "Its target then takes all of {hero}'s Damage to that Monster card this Round, the pair's too: \
         if it falls first, the rest is lost (a Horde's excess spills over)."
    )
}

/// An Ability aimed where it wastes the Hero's pair Damage (`confirm::wasted_by_binding`).
pub fn wasted_note(hero: &str, target: &str, lost: u8) -> String {
    format!("This brings {target} down, and {hero}'s pair Damage ({lost}) must then go to {target}: it is lost.")
}

/// A number key pressed when no card or button has that number.
pub fn no_such_key(n: u8) -> String {
    format!("Key {n}: nothing has that number now.")
}

/// "Bren's", "the Ivy Mass's", "the Pale Rats'": a name's possessive (a
/// plural name, as most Monster sets are, takes the apostrophe alone:
/// "RATS'S POWER" read wrong).
pub fn possessive(name: &str) -> String {
    if name.ends_with('s') && !name.ends_with("ss") { format!("{name}'") } else { format!("{name}'s") }
}

/// In the Assign Damage step, whose Damage a click on an individual places,
/// and how much: "Click the individual of the Skeletal Warriors that takes
/// Bren's 7 Damage." `legal` is what the table offers this seat, in the
/// order the table takes it (a Monster card's row places the first Hero's
/// Damage for that card), so the Hero named is the Hero the click moves for.
pub fn damage_waiting(game: &Game, legal: &[Action]) -> Option<String> {
    let c = game.combat().filter(|c| c.step == CombatStep::AssignDamage)?;
    let mut named: Vec<u8> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    for a in legal {
        let Action::AssignDamage { hero, .. } = a else { continue };
        let Some(p) = c.packet_of(*hero).and_then(|k| c.packets.get(k)) else { continue };
        if named.contains(&p.foe) {
            continue;
        }
        named.push(p.foe);
        // A Horde's excess is no magic (it is only not reduced again): it is
        // what was left over from a kill, of every Hero who shared it.
        let (kind, tail) = match (p.overflow, p.magic) {
            (true, _) => {
                let owners: Vec<String> =
                    (0..8u8).filter(|h| p.owner_bits() & (1 << h) != 0).map(|h| hero_name(game, h)).collect();
                let whose =
                    if owners.len() > 1 { format!(" {} Defeated", owners.join(" and ")) } else { " Defeated".into() };
                ("", format!(" left over from the one{whose}"))
            }
            (false, true) => (" magic", String::new()),
            (false, false) => ("", String::new()),
        };
        lines.push(format!(
            "Click the individual of the {} that takes {}'s {}{kind} Damage{tail}.",
            foe_name(game, p.foe),
            hero_name(game, *hero),
            p.amount
        ));
    }
    (!lines.is_empty()).then(|| lines.join(" "))
}

fn individual_name(game: &Game, f: u8, i: u8) -> String {
    game.combat()
        .and_then(|c| c.foes.get(usize::from(f)))
        .and_then(|f| f.individuals.get(usize::from(i)))
        .map_or_else(|| format!("#{}", i + 1), |i| i.name.clone())
}

/// What resolving a pair does to whom, short enough for the pair on the
/// table: "Monster −7, Bren −5" (the one Hit first). The Hitter does Direct
/// Damage, the one Hit does Return Damage back ("5. Apply Damage"); `dealt`
/// is the Monster's after its Armor (least and most, over the individuals
/// it may go to: `Game::pair_deals`), `taken` the Hero's after theirs
/// (least and most: "−5?" while a Monster may fall and spare the Hero its
/// Return Damage, `Game::pair_takes_range`).
/// `health`: the Hero's Health now; a loss that takes all of it reads
/// "falls" ("Bren −1" beside a Health of 1 hid a 6 that Defeats him).
pub fn pair_damage_note(hero: &str, o: Outcome, dealt: (u8, u8), taken: (u8, u8), health: u8) -> String {
    let (dealt, taken) = (loss_figure(dealt), hero_loss(hero, taken, health));
    match o {
        Outcome::Block => "no Damage".into(),
        Outcome::HeroHit => format!("Monster {dealt}, {taken}"),
        Outcome::MonsterHit => format!("{taken}, Monster {dealt}"),
    }
}

/// A resolved pair whose Damage to the Monster has landed this Round: the
/// Monster card shows what it took; the Hero's side is still to come.
pub fn landed_pair_note(hero: &str, o: Outcome, taken: (u8, u8), health: u8) -> String {
    match o {
        Outcome::Block => "no Damage".into(),
        _ => hero_loss(hero, taken, health),
    }
}

/// "Bren −5", or "Bren falls" where the loss is all the Health Bren has
/// ("Bren falls?" where a Monster falling may spare it).
fn hero_loss(hero: &str, (least, most): (u8, u8), health: u8) -> String {
    match (least, most) {
        (l, _) if health > 0 && l >= health => format!("{hero} falls"),
        (_, m) if health > 0 && m >= health => format!("{hero} falls?"),
        _ => format!("{hero} {}", loss_figure((least, most))),
    }
}

/// "6", or "5–7" where a choice still to come decides (the individual
/// chosen, their Armor differing; a Monster falling).
fn deal_figure((least, most): (u8, u8)) -> String {
    if least == most { least.to_string() } else { format!("{least}–{most}") }
}

/// A loss of Health as a pair prints it: "−6"; "−5–7" where the individual
/// chosen decides (their Armor differing); "−5?" where a Monster falling
/// spares it, said on hover ("Bren −0–5" read as minus zero to five).
pub fn loss_figure((least, most): (u8, u8)) -> String {
    match (least, most) {
        (0, m) if m > 0 => format!("−{m}?"),
        _ => format!("−{}", deal_figure((least, most))),
    }
}

/// The same in the book's words, for the hover text and the hint.
pub fn pair_damage_text(hero: &str, foe: &str, o: Outcome, dealt: (u8, u8), taken: (u8, u8)) -> String {
    let spared = if taken.0 < taken.1 {
        format!(" If a Monster falls this Round, {hero} may avoid that Return Damage (\"Avoiding Return Damage\").")
    } else {
        String::new()
    };
    let (dealt, taken) = (deal_figure(dealt), taken.1);
    match o {
        Outcome::Block => "A Block: neither side takes Damage.".into(),
        Outcome::HeroHit => format!(
            "A Hero Hit: {hero} does {dealt} Direct Damage to the {foe} (after its Armor), and the {foe} does {taken} Return Damage back to {hero} (after Armor).{spared}"
        ),
        Outcome::MonsterHit => format!(
            "A Monster Hit: the {foe} does {taken} Direct Damage to {hero} (after Armor), and {hero} does {dealt} Return Damage back to the {foe} (after its Armor)."
        ),
    }
}

pub fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Block => "Block",
        Outcome::MonsterHit => "Monster Hit",
        Outcome::HeroHit => "Hero Hit",
    }
}

/// One line of the log for an event, or `None` for bookkeeping.
pub fn describe_event(game: &Game, e: &Event) -> Option<String> {
    describe_event_named(game, e, &[])
}

/// [`describe_event`] with the individuals' names of the Combat the event
/// came from (`names[foe][individual]`), for an event told after its
/// Combat ended: the killing blow's line said "Bren deals 8 damage to #1".
pub fn describe_event_named(game: &Game, e: &Event, names: &[Vec<String>]) -> Option<String> {
    // A line may begin with a name such as "the Final Entity".
    event_words(game, e, names).map(|line| capitalise(&line))
}

fn event_words(game: &Game, e: &Event, names: &[Vec<String>]) -> Option<String> {
    let h = |h: &u8| hero_name(game, *h);
    // After the Combat, by the names it had.
    let named = |f: u8, i: u8| match game.combat() {
        None => names
            .get(usize::from(f))
            .and_then(|n| n.get(usize::from(i)))
            .cloned()
            .unwrap_or_else(|| individual_name(game, f, i)),
        Some(_) => individual_name(game, f, i),
    };
    Some(match e {
        Event::CombatStarted { foes } => format!("Combat! Against {}.", foes.join(" and ")),
        Event::MonstersAssigned { foes } => {
            let parts: Vec<String> = foes
                .iter()
                .enumerate()
                .map(|(i, f)| format!("{} fights {}", h(&(i as u8)), foe_name(game, *f)))
                .collect();
            format!("{}.", parts.join("; "))
        }
        Event::RoundStarted { round } => format!("— Round {round} —"),
        Event::CardsDrawn { .. } => return None,
        Event::PowerStored { hero } => format!("{} stores a Power Card.", h(hero)),
        Event::DiscardReshuffled { hero } => format!("{} reshuffles their discard pile.", h(hero)),
        Event::CannotPlay { hero } => format!("{} has no card to play.", h(hero)),
        Event::CardPlayed { hero, card, .. } => {
            format!("{} plays {}.", h(hero), card_text(card))
        }
        Event::MonsterCardPlayed { foe, card, .. } => {
            format!("{} plays {}.", foe_name(game, *foe), card_text(card))
        }
        Event::MonsterDeckReshuffled { .. } => return None,
        Event::MonsterPowerDrawn { foe, hero } => {
            format!("{} draws Power against {}.", foe_name(game, *foe), h(hero))
        }
        Event::MonsterAbility { foe, name, .. } => {
            format!("{} uses {name}.", foe_name(game, *foe))
        }
        Event::MonsterPowerWasted { foe } => {
            format!("{} Power fizzles.", possessive(&foe_name(game, *foe)))
        }
        // On the table, face up: the Hero places it, or picks one, next.
        Event::MonsterCardMoved { .. } | Event::MonsterCardWaiting { .. } | Event::CardsOffered { .. } => return None,
        Event::PairChosen { hero, outcome, .. } => {
            format!("{} resolves a {}.", h(hero), outcome_name(*outcome))
        }
        Event::AbilityActivated { hero, name } => format!("{} activates {name}.", h(hero)),
        Event::PowerSpent { hero, count } => format!("{} spends {count} Power.", h(hero)),
        Event::SpellExhausted { hero, name } => format!("{}'s {name} is exhausted.", h(hero)),
        Event::MonsterDamaged { hero, foe, individual, amount } => {
            format!("{} deals {amount} damage to {}.", h(hero), named(*foe, *individual))
        }
        Event::IndividualDefeated { foe, individual } => {
            format!("{} is defeated.", named(*foe, *individual))
        }
        Event::MonsterHealed { foe, individual, amount } => {
            format!("{} heals {amount}.", named(*foe, *individual))
        }
        // "Heroes only avoid Return Damage this way. They still suffer any Direct Damage."
        Event::ReturnDamageAvoided { hero } => {
            format!("{} avoids Return Damage this Round (Direct Damage still counts).", h(hero))
        }
        Event::HeroDamaged { hero, amount } => format!("{} takes {amount} damage.", h(hero)),
        Event::HeroHealed { hero, amount } => format!("{} heals {amount}.", h(hero)),
        Event::FoeDefeated { foe } => format!("{} is Defeated!", foe_name(game, *foe)),
        Event::RoundEnded { .. } => return None,
        Event::CombatWon => "The Heroes win the Combat.".into(),
        Event::GameLost { reason } => format!("The Heroes lose: {}.", loss_text(game, reason)),
        Event::Note { text } => text.clone(),
        Event::EcologyStarted { ecology } => format!("The Heroes enter the {}.", ecology.name()),
        Event::EcologyCompleted { ecology, next } => format!(
            "Level Up is over and the {} are complete: record the Heroes, then descend to the {}.",
            ecology.name(),
            next.name()
        ),
        Event::TileDrawn { .. } => "Drew a map tile.".into(),
        Event::TilePlaced { placement, .. } => match game.adventure() {
            Some(a) => format!("Placed a tile {}.", where_placed(&a.ecology.map, placement.cell)),
            None => "Placed a tile.".into(),
        },
        Event::TileSetAside { .. } => "The tile is set aside (a dead end).".into(),
        Event::ElementEncountered { element } => {
            let what =
                game.adventure().and_then(|a| a.ecology.map.element(*element)).map_or("an element", |(e, _)| e.name());
            format!("The Heroes Encounter a {what}.")
        }
        Event::LegendaryLocationEncountered { pattern } => {
            format!("Legendary Location {pattern} is Encountered!")
        }
        Event::CardDrawn { name } => format!("Drew “{name}”."),
        Event::TestResolved { total, target, passed, .. } => {
            format!("Test: {total} against {target} — {}.", if *passed { "passed" } else { "failed" })
        }
        Event::XpGained { name, xp } => format!("Gained {name} ({xp} XP)."),
        Event::XpSpent { xp } => format!("Spent {xp} XP."),
        Event::KeysChanged { keys } => format!("Keys: {keys}."),
        Event::ItemGained { hero, name } => format!("{} gains {name}.", h(hero)),
        Event::AbilityGained { hero, name } => format!("{} learns {name}.", h(hero)),
        Event::Rested => "The Heroes rest at the campfire.".into(),
        Event::LevelUp { level } => format!("Level Up! The Heroes reach level {level}."),
        Event::GameWon => "The Final Entity falls. The Heroes win!".into(),
    })
}

/// A fight's end as told in the middle of the table: its title ("Victory",
/// or `fell`, the Hero who fell), then a line for each XP gained (`xp`: by
/// what it was gained for) and for what the fight cost each Hero (`cost`:
/// Health lost, by Hero; none when not known).
pub fn fight_end_words(
    game: &Game,
    fell: Option<u8>,
    xp: &[(String, u8)],
    cost: Option<&[i16]>,
) -> (String, Vec<String>) {
    let title = match fell {
        None => "Victory".to_owned(),
        Some(h) => format!("{} falls", hero_name(game, h)),
    };
    let mut lines: Vec<String> = xp.iter().map(|(name, xp)| format!("+{xp} XP for the party: {name}")).collect();
    for (h, lost) in cost.into_iter().flatten().enumerate() {
        let name = hero_name(game, h as u8);
        lines.push(match *lost {
            0 => format!("{name} lost no Health"),
            n if n > 0 => format!("{name} lost {n} Health"),
            n => format!("{name} gained {} Health", -n),
        });
    }
    (title, lines)
}

pub fn loss_text(game: &Game, reason: &LossReason) -> String {
    match reason {
        LossReason::DeadEnd => "they drew a Map Tile that cannot be placed (a dead end)".into(),
        LossReason::Stranded => "no tile left to draw and nothing left to Encounter".into(),
        LossReason::HeroDefeated { hero } => format!("{} was Defeated", hero_name(game, *hero)),
    }
}

fn card_text(card: &depths_rules::ActionCard) -> String {
    match card.value {
        _ if card.power => "a Power Card".into(),
        // "an 8", "an 11", "an 18": said as they sound.
        8 | 11 | 18 => format!("an {}", card.value),
        v => format!("a {v}"),
    }
}

fn source_name(game: &Game, hero: u8, source: AbilitySource) -> String {
    game.heroes
        .get(usize::from(hero))
        .and_then(|h| h.ability(source))
        .map_or_else(|| format!("{source:?}"), |a| a.name.clone())
}

fn target_text(game: &Game, t: &Target) -> String {
    match t {
        Target::None => String::new(),
        Target::Engagement(e) => format!(" on the cards against {}", engagement_foe(game, *e)),
        Target::Individual { foe, individual } => {
            format!(" on {}", individual_name(game, *foe, *individual))
        }
        Target::HeroSlot { engagement, slot } => {
            format!(" on own card {} against {}", slot + 1, engagement_foe(game, *engagement))
        }
        Target::MonsterSlot { engagement, slot } => {
            format!(" on {} card {}", possessive(&engagement_foe(game, *engagement)), slot + 1)
        }
        Target::Hero(h) => format!(" on {}", hero_name(game, *h)),
        Target::DiscardCard(c) => {
            let card = game.heroes.iter().flat_map(|h| &h.discard).find(|d| d.id == *c);
            format!(" taking back {}", card.map_or_else(|| "a card".into(), card_text))
        }
        Target::Element(e) => format!(" on {}", element_text(game, *e)),
    }
}

/// An Ability's target on its own ("Withered Shade #2", "Bren"), for a
/// button beside the Ability's name; empty for none.
pub fn target_words(game: &Game, t: &Target) -> String {
    let text = target_text(game, t);
    let text = text.trim_start();
    text.strip_prefix("on ").unwrap_or(text).to_owned()
}

/// What several labels begin with, word by word ("Withered Shade " of
/// "Withered Shade #1" and "Withered Shade #2"), and the rest of each; no
/// common part when one would be left empty.
pub fn split_common_start(labels: &[String]) -> (String, Vec<String>) {
    let whole = || (String::new(), labels.to_vec());
    let Some(first) = labels.first() else { return whole() };
    if labels.len() < 2 {
        return whole();
    }
    let mut end = 0;
    for (i, _) in first.match_indices(' ') {
        let start = &first[..=i];
        if labels.iter().all(|l| l.starts_with(start) && l.len() > start.len()) {
            end = i + 1;
        } else {
            break;
        }
    }
    if end == 0 {
        return whole();
    }
    (first[..end].trim_end().to_owned(), labels.iter().map(|l| l[end..].to_owned()).collect())
}

/// The Monster Card a Hero faces in engagement `e`.
fn engagement_foe(game: &Game, e: u8) -> String {
    let foe = game.combat().and_then(|c| c.engagements.get(usize::from(e))).map(|en| en.foe);
    foe.map_or_else(|| format!("Monster card {}", e + 1), |f| foe_name(game, f))
}

/// The most notable element on a tile, for naming it: what the players
/// would call it by.
fn landmark(elements: impl Iterator<Item = Element>) -> Option<Element> {
    let rank = |e: &Element| match e {
        Element::Campfire => 0,
        Element::StairGuardian => 1,
        Element::Chest => 2,
        Element::Door => 3,
        Element::Feature => 4,
        Element::Monster { .. } => 5,
    };
    elements.min_by_key(rank)
}

/// "north", "2 tiles east", "1 tile east and 2 tiles south": the step from
/// one cell to another in words (`y` grows northward).
fn offset_text(from: Cell, to: Cell) -> String {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let part = |n: i32, pos: &str, neg: &str| -> Option<String> {
        let dir = if n > 0 { pos } else { neg };
        match n.abs() {
            0 => None,
            1 => Some(format!("1 tile {dir}")),
            k => Some(format!("{k} tiles {dir}")),
        }
    };
    let parts: Vec<String> = [part(dy, "north", "south"), part(dx, "east", "west")].into_iter().flatten().collect();
    parts.join(" and ")
}

/// Where `to` lies from `from`: "east" for the next tile, else as
/// [`offset_text`] ("2 tiles east").
fn direction_text(from: Cell, to: Cell) -> String {
    match (to.0 - from.0, to.1 - from.1) {
        (0, 1) => "north".into(),
        (1, 0) => "east".into(),
        (0, -1) => "south".into(),
        (-1, 0) => "west".into(),
        _ => offset_text(from, to),
    }
}

/// A name for the placed tile at `cell`, as players point at it: "the
/// Entry", "the Campfire tile", or, for a tile with nothing on it, where
/// it lies from the Entry ("the empty tile 2 tiles east of the Entry").
pub fn tile_name(map: &Map, cell: Cell) -> String {
    let Some(t) = map.tile_at(cell) else { return "an empty place".into() };
    if t.tile.kind == TileKind::Entry {
        return "the Entry".into();
    }
    match landmark(t.tile.areas.iter().flat_map(|a| a.elements.iter().copied())) {
        Some(e) => format!("the {} tile", e.name()),
        None => format!("the empty tile {} of the Entry", direction_text(entry_cell(map), cell)),
    }
}

/// A drawn tile as a player sees it in the tray: "a Monster tile with 1
/// open side", "an empty tile with 3 open sides".
pub fn drawn_tile_text(tile: &depths_rules::map::MapTile) -> String {
    let what = landmark(tile.areas.iter().flat_map(|a| a.elements.iter().copied()))
        .map_or_else(|| "an empty tile".to_owned(), |e| format!("a {} tile", e.name()));
    let open = tile.edges.to_array().iter().filter(|e| e.is_passable()).count();
    format!("{what} with {open} open side{}", if open == 1 { "" } else { "s" })
}

fn entry_cell(map: &Map) -> Cell {
    map.tiles().iter().find(|t| t.tile.kind == TileKind::Entry).map_or((0, 0), |t| t.cell)
}

/// A discovered Legendary Location by its pattern ("2"), with where it lies
/// when another discovered one has the same pattern: two buttons read
/// "Legendary Location 2 (3 tiles)" with nothing to tell them apart.
pub fn legendary_name(game: &Game, index: u8) -> String {
    let found = game.discovered_legendary_locations();
    let Some(m) = found.get(usize::from(index)) else { return format!("#{index}") };
    let twins: Vec<usize> = (0..found.len()).filter(|&i| found[i].pattern == m.pattern).collect();
    let Some(a) = game.adventure().filter(|_| twins.len() > 1) else { return m.pattern.clone() };
    // Each by a tile of its own (two may share some), by number where even that reads the same.
    let place = |i: usize| {
        let own = found[i].cells.iter().find(|c| twins.iter().all(|&j| j == i || !found[j].cells.contains(c)));
        own.or(found[i].cells.first()).map_or_else(String::new, |&c| where_placed(&a.ecology.map, c))
    };
    let here = place(usize::from(index));
    let k = twins.iter().position(|&i| i == usize::from(index)).unwrap_or(0);
    if twins.iter().filter(|&&i| place(i) == here).count() > 1 {
        format!("{} ({here}, #{})", m.pattern, k + 1)
    } else {
        format!("{} ({here})", m.pattern)
    }
}

/// Where a tile at `cell` is (or would be) placed, from the tile it lies
/// next to: "east of the Entry", "north of the Campfire tile". The
/// neighbour is the one it connects through (open edges joining), else any
/// neighbour; among equals the Entry, then the tile placed first.
pub fn where_placed(map: &Map, cell: Cell) -> String {
    let here = map.tile_at(cell).filter(|t| t.cell == cell);
    let mut best: Option<(bool, bool, usize, Side, Cell)> = None;
    for side in Side::ALL {
        let (dx, dy) = side.offset();
        let n = (cell.0 + dx, cell.1 + dy);
        let Some(idx) = map.tiles().iter().position(|t| t.cell == n) else { continue };
        let nt = &map.tiles()[idx];
        let joined = here.is_some_and(|h| {
            let (a, b) = (h.edge(side), nt.edge(side.opposite()));
            a.is_passable() && b.is_passable() && a.joins(b)
        });
        let key = (!joined, nt.tile.kind != TileKind::Entry, idx, side, n);
        if best.is_none_or(|b| (key.0, key.1, key.2) < (b.0, b.1, b.2)) {
            best = Some(key);
        }
    }
    match best {
        Some((_, _, _, side, n)) => {
            format!("{} of {}", side_name(side.opposite()), tile_name(map, n))
        }
        None => format!("{} of the Entry", direction_text(entry_cell(map), cell)),
    }
}

/// An element as players point at it: "the Feature on the Lantern's
/// tile", "the Chest north of the Lantern", "the Door 2 tiles east of the
/// Lantern".
/// What a rune Node's hover adds when a Legendary Location used it or it is
/// part of one Discovered (named as the panel's list names it).
pub fn rune_node_state(game: &Game, node: depths_rules::map::NodeRef) -> Option<String> {
    if game.adventure()?.ecology.used_runes.nodes.contains(&node) {
        return Some("A Legendary Location was Encountered with this Node: it cannot be used again.".into());
    }
    let found = game.discovered_legendary_locations();
    let i = found.iter().position(|m| m.nodes.contains(&node))?;
    Some(format!(
        "Part of Legendary Location {}, Discovered: Encounter it from the panel on the right.",
        legendary_name(game, i as u8)
    ))
}

/// How the number-key guard's note begins ("Key 3 is Sil's move, not
/// Bren's: press 3 again…"): the note goes when the key is pressed again.
pub fn press_again_head(n: u8) -> String {
    format!("Key {n} is ")
}

/// A revealed Monster card's Health line, from each individual's Health:
/// "Health: 14", "Health: 12 each", or "Health: #1 12, #2 8" ("Health:
/// Armored Rubble Beetle 14" read as a list of names, and a Pair's name
/// came twice).
pub fn starting_health(most: &[u8]) -> String {
    match most {
        [one] => format!("Health: {one}"),
        [first, rest @ ..] if rest.iter().all(|h| h == first) => format!("Health: {first} each"),
        _ => {
            let each: Vec<String> = most.iter().enumerate().map(|(i, h)| format!("#{} {h}", i + 1)).collect();
            format!("Health: {}", each.join(", "))
        }
    }
}

/// The way a passage takes the Heroes, as a row of "Within reach" ends.
pub fn by_passage(passage: depths_rules::map::Passage) -> &'static str {
    match passage {
        depths_rules::map::Passage::SecretPassage => "through the Secret Passage",
        depths_rules::map::Passage::WarpPortal => "through the Warp Portals",
    }
}

/// The note when the Lantern went through a passage.
pub fn went_through(passage: depths_rules::map::Passage) -> String {
    format!("The Heroes went {}", by_passage(passage))
}

pub fn element_text(game: &Game, e: ElementRef) -> String {
    let Some(a) = game.adventure() else { return "the element".into() };
    let map = &a.ecology.map;
    let what = map.element(e).map_or("element", |(el, _)| el.name());
    let lantern = map.lantern().cell;
    if e.cell == lantern {
        format!("the {what} on the Lantern's tile")
    } else {
        format!("the {what} {} of the Lantern", direction_text(lantern, e.cell))
    }
}

/// The choices of who avoids Return Damage, each with what it leaves each
/// Hero: "Sil avoids it (saves 3): Bren −5, Sil −0", read
/// off the rules applied to a copy for every choice
/// (`Game::health_after_round`), never worked out here. Without amounts
/// while the Damage waits for another choice.
pub fn avoidance_labels(game: &Game, choices: &[Action]) -> Vec<String> {
    let afters: Vec<Option<Vec<u8>>> = choices.iter().map(|a| game.health_after_round(a)).collect();
    let label = |i: usize, choice: &Action| {
        let base = describe_action(game, choice);
        let (&Action::AvoidReturnDamage { hero }, Some(after)) = (choice, &afters[i]) else {
            return base;
        };
        let h = usize::from(hero);
        let others = afters.iter().enumerate().filter(|&(j, _)| j != i).filter_map(|(_, other)| other.as_ref());
        let saves = others.map(|other| after[h].saturating_sub(other[h])).max().unwrap_or(0);
        let name = game.heroes.get(h).map_or("?", |x| x.name());
        let changes = health_changes(game, after);
        // Short enough for two on a row of the strip at 150 %: wrapped onto
        // a second row they pushed its lines under its foot.
        let saves = if saves == 0 { "saves nothing".to_owned() } else { format!("saves {saves}") };
        format!("{name} avoids it ({saves}): {}", changes.join(", "))
    };
    choices.iter().enumerate().map(|(i, choice)| label(i, choice)).collect()
}

/// One label for every choice of who avoids Return Damage where they all
/// leave every Hero the same Health: "Bren avoids it (saves nothing)"
/// beside "Sil avoids it (saves nothing)" asked a question with no answer.
pub fn avoidance_makes_no_difference(game: &Game, choices: &[Action]) -> Option<String> {
    let afters: Vec<Vec<u8>> = choices.iter().map(|a| game.health_after_round(a)).collect::<Option<_>>()?;
    let first = afters.first().filter(|_| choices.len() > 1)?;
    if afters.iter().any(|a| a != first) {
        return None;
    }
    Some(format!("Go on: avoiding saves nobody anything ({})", health_changes(game, first).join(", ")))
}

/// Each Hero's Health change to `after` ("Bren −4", "Sil +2").
fn health_changes(game: &Game, after: &[u8]) -> Vec<String> {
    (game.heroes.iter().zip(after))
        .map(|(x, &a)| match i16::from(a) - i16::from(x.health) {
            d if d > 0 => format!("{} +{d}", x.name()),
            d => format!("{} −{}", x.name(), -d),
        })
        .collect()
}

/// A readable label for any legal action.
pub fn describe_action(game: &Game, a: &Action) -> String {
    let h = |h: &u8| hero_name(game, *h);
    let card = |hero: u8, id: depths_rules::CardId| {
        let hero = &game.heroes[usize::from(hero)];
        hero.hand.iter().chain(&hero.draw).find(|c| c.id == id).map_or_else(|| "a card".into(), card_text)
    };
    match a {
        Action::AssignMonsters { foes } => {
            let parts: Vec<String> = foes
                .iter()
                .enumerate()
                .map(|(i, f)| format!("{} fights {}", h(&(i as u8)), foe_name(game, *f)))
                .collect();
            parts.join("; ")
        }
        Action::PlayCard { hero, card: id } => format!("{} plays {}", h(hero), card(*hero, *id)),
        Action::PlaceMonsterCard { hero, slot } => {
            format!("{}: put the Monster card opposite card {}", h(hero), slot + 1)
        }
        Action::ActivateAbility { hero, source, target } => {
            format!("{}: activate {}{}", h(hero), source_name(game, *hero, *source), target_text(game, target))
        }
        Action::ChoosePair { hero, engagement, slot } => {
            // Named by its cards, as they lie on the table: a pair's place
            // and its number badge are two different numbers.
            let values = game.combat().and_then(|c| {
                let en = c.engagements.get(usize::from(*engagement))?;
                let bonus = c.foes.get(usize::from(en.foe))?.card_bonus;
                let s = en.slots.get(usize::from(*slot))?;
                Some((s.hero_value()?, s.monster_value(bonus)?))
            });
            let foe = engagement_foe(game, *engagement);
            match values {
                Some((mine, theirs)) => {
                    format!("{}: resolve the pair of {mine} against the {} {theirs}", h(hero), possessive(&foe))
                }
                None => format!("{}: resolve a pair against {foe}", h(hero)),
            }
        }
        Action::EndTurn { hero } => format!("{}: end turn", h(hero)),
        Action::AssignDamage { hero, individual } => {
            // The damage this Hero still has to place.
            let packet = game.combat().and_then(|c| c.packet_of(*hero).map(|k| &c.packets[k]));
            let foe = packet.map_or(0, |p| p.foe);
            format!("{}: damage {}", h(hero), individual_name(game, foe, *individual))
        }
        Action::AvoidReturnDamage { hero } => format!("{} avoids Return Damage", h(hero)),
        Action::DrawTile => "Draw a map tile".into(),
        Action::PlaceTile { placement } | Action::PlaceSetAsideTile { placement } => {
            let place = game
                .adventure()
                .map_or_else(String::new, |a| format!(" {}", where_placed(&a.ecology.map, placement.cell)));
            let turned = match placement.rotation.quarter_turns() {
                0 => String::new(),
                q => format!(", turned {}°", u32::from(q) * 90),
            };
            format!("Place the tile{place}{turned}")
        }
        Action::Encounter { element } => format!("Encounter {}", element_text(game, *element)),
        Action::EncounterLegendary { index } => {
            format!("Encounter Legendary Location {}", legendary_name(game, *index))
        }
        Action::StartPurchase { what } => match what {
            Purchase::Key => "Buy a Key".into(),
            Purchase::Healing { units } => format!("Buy Healing ×{units}"),
            Purchase::Ability { hero } => format!("Buy an Ability for {}", h(hero)),
        },
        Action::PayXp { card } => match card {
            XpRef::Pool(i) => game
                .adventure()
                .and_then(|a| a.xp_pool.get(usize::from(*i)))
                .map_or_else(|| format!("Pay XP card {i}"), |c| format!("Pay {} ({} XP)", c.name, c.xp)),
            XpRef::Item { hero, item } => game.heroes[usize::from(*hero)].items.get(usize::from(*item)).map_or_else(
                || "Pay an Item".into(),
                |i| format!("Pay {}'s {} ({} XP)", h(hero), i.card.name, i.card.xp),
            ),
        },
        Action::CancelPurchase => "Cancel the purchase".into(),
        Action::SplitHealing { amounts } => {
            let parts: Vec<String> =
                amounts.iter().enumerate().map(|(i, n)| format!("{} +{n}", h(&(i as u8)))).collect();
            format!("Heal: {}", parts.join(", "))
        }
        Action::Equip { hero, item } | Action::Unequip { hero, item } => {
            let verb = if matches!(a, Action::Equip { .. }) { "equips" } else { "unequips" };
            let name = game.heroes[usize::from(*hero)]
                .items
                .get(usize::from(*item))
                .map_or("an Item", |i| i.card.name.as_str());
            format!("{} {verb} {name}", h(hero))
        }
        Action::ChooseHero { hero } => {
            let why = match game.pending() {
                Some(Pending::ChooseHero(HeroChoice::DrawItem)) => " draws the Item",
                Some(Pending::ChooseHero(HeroChoice::GainItem(_))) => " gains the Item",
                Some(Pending::ChooseHero(HeroChoice::Heal(_))) => " is healed",
                Some(Pending::ChooseHero(HeroChoice::Damage(_))) => " takes the damage",
                _ => "",
            };
            format!("{}{why}", h(hero))
        }
        Action::ChooseOption { index } => match game.pending() {
            Some(Pending::ChooseItem { options, .. }) => options
                .get(usize::from(*index))
                .map_or_else(|| format!("Option {index}"), |i| format!("Keep {}", i.name)),
            Some(Pending::ChooseAbility { options, .. }) => options
                .get(usize::from(*index))
                .map_or_else(|| format!("Option {index}"), |c| format!("Keep {}", c.ability.text())),
            Some(Pending::ChooseAbilityDraw { .. }) => {
                if *index == 0 {
                    "Draw one from each class".into()
                } else {
                    "Draw two from the Primary class".into()
                }
            }
            Some(Pending::OrderFeatures { cards }) => {
                let order = depths_rules::encountering::feature_order(cards.len(), usize::from(*index));
                let names: Vec<&str> = order.iter().filter_map(|&i| cards.get(i).map(|c| c.name.as_str())).collect();
                format!("Order: {}", names.join(", then "))
            }
            _ => format!("Option {}", index + 1),
        },
        Action::RemoveActionCard { card: id } => {
            let hero = match game.pending() {
                Some(Pending::RemoveCards { hero, .. }) => *hero,
                _ => 0,
            };
            format!("{}: remove {}", h(&hero), card(hero, *id))
        }
        Action::FinishLevelUp => {
            let eco = game.adventure().map_or("Ecology", |a| a.ecology.ecology.name());
            format!("Finish Level Up: the {eco} are complete")
        }
        Action::Descend => match game.phase() {
            Phase::Passage { next } => format!("Descend to the {}", next.name()),
            _ => "Descend to the next Ecology".into(),
        },
    }
}

/// The token on element `e`, in words. The rules mark a Monster Defeated
/// as it is Encountered; the table says so only once the fight is won.
pub fn element_state_text(game: &Game, e: ElementRef) -> &'static str {
    let Some(adv) = game.adventure() else { return "" };
    let Some((element, state)) = adv.ecology.map.element(e) else { return "" };
    if adv.ecology.encountering == Some(e) {
        let fought = matches!(element, Element::Monster { .. } | Element::StairGuardian);
        match game.phase() {
            Phase::Combat { .. } if fought => return "Being fought now.",
            // A Feature's test began the fight.
            Phase::Combat { .. } => return "Being Encountered now.",
            Phase::Encountering { element, .. } if element != Encountering::LegendaryLocation => {
                return "Being Encountered now.";
            }
            _ => {}
        }
    }
    match state {
        ElementState::Present => "Not yet Encountered.",
        ElementState::Encountered => "Encountered (gold slash).",
        ElementState::Defeated => "Defeated (red X).",
        ElementState::Unlocked => "Unlocked (Key token).",
    }
}

/// What Encountering an element does, in a line or two.
pub fn element_help(e: depths_rules::map::Element) -> &'static str {
    match e {
        depths_rules::map::Element::Monster { count: 1 } => {
            "Draw a Monster card and fight it. When it is Defeated it gets a red X and its XP joins the pool."
        }
        depths_rules::map::Element::Monster { .. } => {
            "Draw two Monster cards and fight them together. When Defeated they get a red X and their XP joins the pool."
        }
        depths_rules::map::Element::Feature => {
            "Draw a Feature card and resolve it (a test, a reward, a trap…). Blocks the way until Encountered."
        }
        depths_rules::map::Element::Door => {
            "Spend a Key (or an unlocking ability) to open it; it then gets a Key token. Blocks the way until then."
        }
        depths_rules::map::Element::Chest => {
            "One Hero draws an Item. Any Monsters in its area must be Encountered first."
        }
        depths_rules::map::Element::Campfire => {
            "Rest: the Heroes heal as the Reference Card says; Defeated Monsters return to the map."
        }
        depths_rules::map::Element::StairGuardian => {
            "Fight the Stair Guardian; win to Level Up and go down to the next Ecology."
        }
    }
}

/// An Item's facts in one line: "1 hand · Magic · Armor 1 · 3 uses · 2 XP".
pub fn item_facts(item: &depths_rules::hero::ItemCard) -> String {
    let mut facts: Vec<String> = Vec::new();
    match item.hands {
        0 => {}
        1 => facts.push("1 hand".into()),
        n => facts.push(format!("{n} hands")),
    }
    if item.magic {
        facts.push("Magic".into());
    }
    if item.armor > 0 {
        facts.push(format!("Armor {}", item.armor));
    }
    if let Some(u) = item.uses {
        facts.push(format!("{u} uses"));
    }
    facts.push(format!("{} XP", item.xp));
    facts.join(" · ")
}

/// Who must act now, in words, from the rules' phase.
pub fn banner(game: &Game) -> String {
    banner_with(game, &[])
}

/// [`banner`] for a table where the Heroes `companions` play themselves: a
/// Combat step names only the players' own Heroes, then the Companions as
/// playing by themselves ("Bren and Sil play cards" with Sil a Companion
/// read as a move the player had to make for Sil).
pub fn banner_with(game: &Game, companions: &[u8]) -> String {
    let line = banner_of_players(game, companions);
    let acting: Vec<&str> = match (game.phase(), game.combat()) {
        (Phase::Combat { step }, Some(c))
            if !matches!(step, CombatStep::AssignMonsters | CombatStep::AvoidReturnDamage) =>
        {
            c.heroes_to_act()
                .into_iter()
                .filter(|h| companions.contains(h))
                .filter_map(|h| game.heroes.get(usize::from(h)).map(|x| x.name()))
                .collect()
        }
        _ => Vec::new(),
    };
    match acting.len() {
        0 => line,
        1 => format!("{line} · Companion {} plays by itself", acting[0]),
        _ => format!("{line} · Companions {} play by themselves", and_list(&acting)),
    }
}

/// [`banner`] naming only the Heroes not among `companions`.
pub fn banner_of_players(game: &Game, companions: &[u8]) -> String {
    let name = |h: u8| game.heroes.get(usize::from(h)).map_or("?", |h| h.name());
    let phase = game.phase();
    match &phase {
        Phase::Won => return "The Heroes have won!".into(),
        Phase::Lost(r) => return format!("The Heroes have lost: {}.", loss_text(game, r)),
        Phase::Combat { step } => {
            let Some(c) = game.combat() else { return "Combat".into() };
            // "All Heroes perform each Step simultaneously": name them all
            // (the players' own; the Companions are told after).
            let own = |h: &u8| !companions.contains(h);
            let heroes: Vec<&str> = c.heroes_to_act().into_iter().filter(own).map(name).collect();
            let who = and_list(&heroes);
            let several = heroes.len() > 1;
            return match step {
                CombatStep::AssignMonsters => "Combat: the players assign the Monsters to Heroes".into(),
                CombatStep::AvoidReturnDamage => "Combat: choose who avoids Return Damage".into(),
                _ if heroes.is_empty() => "Combat".into(),
                CombatStep::PlayCards if several => {
                    format!("Combat, round {}: {who} play cards, in any order", c.round)
                }
                // "plays a card" while two were to play read as one.
                CombatStep::PlayCards => {
                    let left: u8 = c
                        .engagements
                        .iter()
                        .filter(|e| c.heroes_to_act().contains(&e.hero) && own(&e.hero))
                        .map(|e| e.hero_cards.saturating_sub(e.played()))
                        .sum();
                    format!(
                        "Combat, round {}: {who} {}",
                        c.round,
                        if left > 1 { "plays cards" } else { "plays a card" }
                    )
                }
                CombatStep::PlaceMonsterCard if several => format!("Combat: {who} place the Monsters' cards"),
                CombatStep::PlaceMonsterCard => format!("Combat: {who} places the Monster's card"),
                // A Hero whose pair is chosen (or who has none) has only End
                // turn left: named as one who "resolves one pair" they looked
                // for a pair to click.
                CombatStep::Resolve => {
                    let (ending, choosing): (Vec<u8>, Vec<u8>) = c
                        .heroes_to_act()
                        .into_iter()
                        .filter(own)
                        .partition(|&h| c.chosen_engagement(h).is_some() || c.pairs_of(h).is_empty());
                    let names = |hs: &[u8]| and_list(&hs.iter().map(|&h| name(h)).collect::<Vec<_>>());
                    let mut parts = Vec::new();
                    match choosing.len() {
                        0 => {}
                        1 => parts.push(format!("{} resolves one pair", names(&choosing))),
                        // Short: "…, in any order" was cut at 150 % on 1366×768.
                        _ => parts.push(format!("{} each resolve a pair", names(&choosing))),
                    }
                    if !ending.is_empty() {
                        // As the button reads ("Bren: end turn").
                        parts.push(format!("{}: end turn", names(&ending)));
                    }
                    format!("Combat, round {}: {}", c.round, parts.join(" · "))
                }
                // Only the Heroes whose Damage still waits to be placed.
                CombatStep::AssignDamage => {
                    let waiting: Vec<&str> = c
                        .heroes_to_act()
                        .into_iter()
                        .filter(own)
                        .filter(|&h| c.packet_of(h).is_some())
                        .map(name)
                        .collect();
                    match waiting.len() {
                        0 => format!("Combat: {who} choose whom to damage"),
                        1 => format!("Combat: {} chooses whom to damage", waiting[0]),
                        _ => format!("Combat: {} choose whom to damage", and_list(&waiting)),
                    }
                }
            };
        }
        Phase::Passage { next } => {
            let from = game.adventure().map_or(Ecology::Ruins, |a| a.ecology.ecology);
            return passage_text(from, *next);
        }
        _ => {}
    }
    match game.pending() {
        Some(Pending::Purchase { what, cost, .. }) => format!("Pay {cost} XP for {}", purchase_name(game, *what)),
        Some(Pending::SplitHealing { points }) => format!("Share {points} Health among the Heroes"),
        Some(Pending::ChooseHero(why)) => match why {
            HeroChoice::DrawItem => "Choose the Hero who draws an Item".into(),
            HeroChoice::GainItem(i) => format!("Choose the Hero who gains {}", i.name),
            HeroChoice::Heal(n) => format!("Choose the Hero healed by {n}"),
            HeroChoice::Damage(n) => format!("Choose the Hero who takes {n} damage"),
        },
        Some(Pending::ChooseItem { hero, .. }) => format!("{}: keep one Item", name(*hero)),
        Some(Pending::RemoveCards { hero, count }) => {
            format!("{}: remove {}", name(*hero), counted(*count, "Action Card", "Action Cards"))
        }
        Some(Pending::ChooseAbility { hero, .. }) => format!("{}: keep one Ability", name(*hero)),
        Some(Pending::ChooseAbilityDraw { hero }) => {
            format!("{}: draw one Ability from each class, or two from the Primary class", name(*hero))
        }
        Some(Pending::OrderFeatures { .. }) => "Choose the order of the revealed Features".into(),
        Some(Pending::LevelUp { .. }) => "Level Up: buy Abilities, then finish the Ecology".into(),
        Some(Pending::Passage { .. }) => "Passage to the next Ecology".into(),
        None => match phase {
            Phase::Encountering { element, .. } => format!("Encountering {}", encountering_name(element)),
            Phase::Exploring { tile_in_hand: true, .. } => "Exploring: place the drawn tile".into(),
            _ => "Exploring: draw a tile, or Encounter something".into(),
        },
    }
}

/// "Bren", "Bren and Sil", "Bren, Sil and Ava".
pub fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// What is being Encountered, with its article.
fn encountering_name(e: Encountering) -> &'static str {
    match e {
        Encountering::Monster => "a Monster",
        Encountering::Feature => "a Feature",
        Encountering::Door => "a Door",
        Encountering::Chest => "a Chest",
        Encountering::LegendaryLocation => "a Legendary Location",
        Encountering::Campfire => "a Campfire",
        Encountering::StairGuardian => "the Stair Guardian",
        Encountering::FinalEntity => "the Final Entity",
    }
}

fn purchase_name(game: &Game, p: Purchase) -> String {
    match p {
        Purchase::Key => "a Key".into(),
        Purchase::Healing { units } => format!("Healing ×{units}"),
        Purchase::Ability { hero } => {
            format!("an Ability for {}", game.heroes.get(usize::from(hero)).map_or("?", |h| h.name()))
        }
    }
}

/// Why nothing can be taken back (or made again), as the Undo button says it.
pub fn undo_refused_text(why: &depths_rules::UndoRefused) -> String {
    use depths_rules::UndoRefused::*;
    match why {
        NoMove => "Nothing to take back: no move was made since the game began or was loaded.".to_owned(),
        Revealed(depths_rules::Reveal::End) => "Nothing to take back: the game is over.".to_owned(),
        Revealed(reveal) => format!("Nothing to take back: {} since.", reveal.words()),
        NothingToRedo => "Nothing to make again: no move was taken back since the last one.".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use depths_rules::{Content, GameOptions};

    use super::*;

    /// A playtest: with Bren at 1 Health a Monster Hit of 6 read "Bren −1",
    /// which hid that it Defeats him. A loss of all the Health left reads "falls".
    #[test]
    fn a_pair_that_takes_all_a_heros_health_says_the_hero_falls() {
        assert_eq!(pair_damage_note("Bren", Outcome::MonsterHit, (1, 1), (1, 1), 1), "Bren falls, Monster −1");
        assert_eq!(pair_damage_note("Bren", Outcome::HeroHit, (4, 4), (0, 3), 3), "Monster −4, Bren falls?");
        assert_eq!(pair_damage_note("Bren", Outcome::HeroHit, (4, 4), (0, 3), 5), "Monster −4, Bren −3?");
        assert_eq!(landed_pair_note("Sil", Outcome::MonsterHit, (2, 2), 9), "Sil −2");
    }

    /// A playtest: Drink, "used at will", read "not now" in the Play Cards
    /// step and its hover gave no reason. The reason is the rules' own.
    #[test]
    fn an_ability_not_usable_now_says_why() {
        use depths_rules::{AbilitySource, Difficulty, Effect};
        use depths_tests::*;
        let mut g = game_of(&["bren"]);
        g.heroes[0].mat.abilities.push(power("Dagger Throw", vec![Effect::DamageMonster { amount: 2, magic: false }]));
        let source = AbilitySource::Mat((g.heroes[0].mat.abilities.len() - 1) as u8);
        stack_hero(&mut g, 0, &[8, 7, 6], &[]);
        stack_monster(&mut g, Difficulty::I, &[2, 2]);
        fight(&mut g, vec![monster("Rat", Difficulty::I, [20, 20, 20], vec![])]);
        assert!(matches!(g.phase(), Phase::Combat { step: CombatStep::PlayCards }));
        assert!(ability_not_now(&g, 0, source).contains("Resolve step"), "{}", ability_not_now(&g, 0, source));
        play(&mut g, 0, &[8, 7]);
        g.heroes[0].stored_power.clear();
        let why = ability_not_now(&g, 0, source);
        assert!(why.contains("Stored Power"), "{why}");
    }

    /// Issue 55: a turning point read "Draw a map tile" and never said
    /// which tile came up: each drawn tile is told by what is on it and
    /// its open sides, as the tray shows it.
    #[test]
    fn a_drawn_tile_is_told_by_what_is_on_it_and_its_open_sides() {
        let content = Content::builtin().unwrap();
        let tiles = depths_rules::Ecology::ALL.iter().flat_map(|e| &content.ecology(*e).tiles);
        let told: Vec<(String, &depths_rules::map::MapTile)> = tiles.map(|t| (drawn_tile_text(t), t)).collect();
        for (text, tile) in &told {
            let open = tile.edges.to_array().iter().filter(|e| e.is_passable()).count();
            let monster = tile.areas.iter().flat_map(|a| &a.elements).any(|e| matches!(e, Element::Monster { .. }));
            let sides = if open == 1 { "1 open side".to_owned() } else { format!("{open} open sides") };
            assert!(text.ends_with(&format!("with {sides}")), "{} reads {text}", tile.id);
            assert_eq!(
                text == &format!("an empty tile with {sides}"),
                tile.areas.iter().all(|a| a.elements.is_empty())
            );
            assert!(monster || !text.starts_with("a Monster"), "{} reads {text}", tile.id);
        }
        assert!(told.iter().any(|(t, _)| t.starts_with("a Monster tile")), "the content has Monster tiles");
    }

    /// A playtester alone with a Companion read "Bren and Sil play cards"
    /// as a move to make for Sil: a Combat step names the players' own
    /// Heroes, then the Companions as playing by themselves.
    #[test]
    fn a_combat_banner_tells_companions_apart() {
        let mut game = new_game(4);
        for _ in 0..3000 {
            let both = game.combat().is_some_and(|c| c.heroes_to_act().len() == 2);
            if both && matches!(game.phase(), Phase::Combat { step: CombatStep::PlayCards }) {
                break;
            }
            let a = depths_sim::Bot::choose(&mut depths_sim::HeuristicBot, &game);
            game.apply(a).unwrap();
        }
        assert!(matches!(game.phase(), Phase::Combat { step: CombatStep::PlayCards }), "a Combat to look at");
        let (bren, sil) = (game.heroes[0].name().to_owned(), game.heroes[1].name().to_owned());
        assert!(banner(&game).contains(&format!("{bren} and {sil} play cards")), "{}", banner(&game));
        let line = banner_with(&game, &[1]);
        // One Hero with two cards to play "plays cards" (a playtest read
        // "Bren plays a card" beside "Bren 0 of 2").
        let to_play =
            game.combat().unwrap().engagements.iter().filter(|e| e.hero == 0).map(|e| e.hero_cards).sum::<u8>();
        let verb = if to_play > 1 { "plays cards" } else { "plays a card" };
        assert!(line.contains(&format!("{bren} {verb}")), "{line}");
        assert!(line.ends_with(&format!("Companion {sil} plays by itself")), "{line}");
        assert!(!banner_of_players(&game, &[1]).contains(&sil), "{}", banner_of_players(&game, &[1]));
    }

    /// A revealed card's Health reads as figures, not a list of names.
    #[test]
    fn a_revealed_monsters_health_reads_as_figures() {
        assert_eq!(starting_health(&[14]), "Health: 14");
        assert_eq!(starting_health(&[12, 12]), "Health: 12 each");
        assert_eq!(starting_health(&[12, 8]), "Health: #1 12, #2 8");
    }

    fn new_game(seed: u64) -> Game {
        Game::new(GameOptions::standard(&["bren", "sil"], seed), Content::builtin().unwrap()).unwrap()
    }

    #[test]
    fn a_heros_abilities_include_the_mats_own() {
        let game = new_game(3);
        for hero in &game.heroes {
            let names = ability_names(hero);
            assert!(!hero.mat.abilities.is_empty(), "{} starts with Abilities", hero.name());
            for a in &hero.mat.abilities {
                assert!(names.contains(&a.name), "{}: {names:?} lacks {}", hero.name(), a.name);
            }
        }
    }

    #[test]
    fn targets_share_their_common_start_once() {
        let labels = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let (common, rest) = split_common_start(&labels(&["Withered Shade #1", "Withered Shade #3"]));
        assert_eq!((common.as_str(), rest), ("Withered Shade", labels(&["#1", "#3"])));
        // Nothing in common, one label, or a label that would be left empty: kept whole.
        for l in [&["Bren", "Sil"][..], &["Withered Shade #1"], &["Shade", "Shade #2"]] {
            assert_eq!(split_common_start(&labels(l)), (String::new(), labels(l)));
        }
    }

    /// "Important! Avoiding Return Damage": each choice's button says what
    /// the choice then does to every Hero, and what it saves the Hero who
    /// avoids compared with the other choices: checked against each choice
    /// applied, over random combats' last choices of who avoids.
    #[test]
    fn each_avoidance_choice_says_what_it_then_deals() {
        let (mut checked, mut alike) = (0, 0);
        for seed in 0..600u64 {
            let mut g = depths_tests::random_game(seed);
            let mut rng = depths_rules::GameRng::from_seed(seed);
            while matches!(g.phase(), Phase::Combat { .. }) && checked < 40 {
                let legal = g.legal_actions();
                let c = g.combat().unwrap();
                if c.step == depths_rules::CombatStep::AvoidReturnDamage && c.avoid_queue.len() == 1 {
                    let choices: Vec<Action> =
                        legal.iter().filter(|a| matches!(a, Action::AvoidReturnDamage { .. })).cloned().collect();
                    let applied: Vec<Vec<u8>> = (choices.iter())
                        .map(|a| {
                            let mut copy = g.clone();
                            copy.apply(a.clone()).unwrap();
                            copy.heroes.iter().map(|h| h.health).collect()
                        })
                        .collect();
                    let labels = avoidance_labels(&g, &choices);
                    // One "Go on" exactly where every choice leaves the same Health, saying it.
                    let same = applied.iter().all(|a| *a == applied[0]) && choices.len() > 1;
                    match avoidance_makes_no_difference(&g, &choices) {
                        Some(one) => {
                            assert!(same, "{one} though the choices differ: {applied:?}");
                            for (x, after) in g.heroes.iter().zip(&applied[0]) {
                                assert!(one.contains(&format!("{} −{}", x.name(), x.health - after)), "{one}");
                            }
                            alike += 1;
                        }
                        None => assert!(!same, "no single choice though all leave {:?}", applied[0]),
                    }
                    for (i, a) in choices.iter().enumerate() {
                        let &Action::AvoidReturnDamage { hero } = a else { unreachable!() };
                        let h = usize::from(hero);
                        let label = &labels[i];
                        let least = (0..choices.len()).filter(|&j| j != i).map(|j| applied[j][h]).min();
                        let saves = least.map_or(0, |l| applied[i][h].saturating_sub(l));
                        let name = g.heroes[h].name();
                        let said = if saves == 0 {
                            format!("{name} avoids it (saves nothing)")
                        } else {
                            format!("{name} avoids it (saves {saves})")
                        };
                        assert!(label.contains(&said), "{label}");
                        for (x, after) in g.heroes.iter().zip(&applied[i]) {
                            let loss = x.health - after;
                            assert!(label.contains(&format!("{} −{loss}", x.name())), "{label}");
                        }
                        checked += 1;
                    }
                }
                let pick = legal[rng.below(legal.len() as u32) as usize].clone();
                g.apply(pick).unwrap();
            }
        }
        assert!(checked >= 40 && alike > 0, "only {checked} choices met, {alike} alike");
    }

    /// Draws and places the first legal tile; the events of the placing,
    /// or `None` when no tile can be drawn and placed now.
    fn draw_and_place(g: &mut Game) -> Option<Vec<Event>> {
        if !g.legal_actions().contains(&Action::DrawTile) {
            return None;
        }
        g.apply(Action::DrawTile).unwrap();
        let place = g.legal_actions().into_iter().find(|a| matches!(a, Action::PlaceTile { .. }))?;
        Some(g.apply(place).unwrap())
    }

    #[test]
    fn counts_take_the_right_number() {
        assert_eq!(counted(1u8, "place", "places"), "1 place");
        assert_eq!(counted(0u8, "place", "places"), "0 places");
        assert_eq!(counted(2u16, "Key", "Keys"), "2 Keys");
        assert_eq!(counted(1u32, "individual", "individuals"), "1 individual");
    }

    #[test]
    fn a_heros_health_is_one_line() {
        assert_eq!(health_line(0, 0, 0), None);
        assert_eq!(health_line(-4, 0, 0).as_deref(), Some("−4 Health just now"));
        assert_eq!(health_line(3, 0, 0).as_deref(), Some("+3 Health just now"));
        assert_eq!(health_line(0, 6, 0).as_deref(), Some("−6 Health at Round's end"));
        assert_eq!(health_line(-4, 6, 0).as_deref(), Some("−4 Health just now · −6 more at Round's end"));
        assert_eq!(health_line(3, 2, 0).as_deref(), Some("+3 Health just now · −2 at Round's end"));
        // Return Damage is not certain: a Monster that falls this Round lets a Hero (or all) avoid it.
        assert_eq!(health_line(0, 2, 2).as_deref(), Some("−2 unless avoided"));
        assert_eq!(health_line(0, 5, 2).as_deref(), Some("−5, or −3 if avoided"));
        assert_eq!(health_line(-4, 5, 2).as_deref(), Some("−4 Health just now · −5 more, or −3 if avoided"));
    }

    #[test]
    fn log_lines_begin_with_a_capital() {
        let game = new_game(3);
        // No Combat is on: the Monster that fell is still named, and the line is capitalised.
        let line = describe_event(&game, &Event::FoeDefeated { foe: 0 }).unwrap();
        assert_eq!(line, "The Monster is Defeated!");
        assert!(!line.contains('0'));
    }

    #[test]
    fn a_refused_placement_names_no_cell() {
        for p in [PlacementError::Occupied((1, 0)), PlacementError::NotAdjacent((3, -2))] {
            let t = placement_error_text(&p);
            assert!(!t.contains('(') && !t.contains("cell"), "{t}");
        }
        let t = placement_error_text(&PlacementError::EdgeMismatch {
            side: Side::N,
            tile_edge: Edge::Wall,
            neighbour_edge: Edge::Open,
        });
        assert_eq!(t, "Its wall edge on the north side would touch the neighbour's open edge.");
    }

    #[test]
    fn offsets_read_as_steps_on_the_table() {
        assert_eq!(offset_text((0, 0), (0, 1)), "1 tile north");
        assert_eq!(offset_text((0, 0), (2, 0)), "2 tiles east");
        assert_eq!(offset_text((1, 1), (0, -1)), "2 tiles south and 1 tile west");
        assert_eq!(direction_text((1, 1), (1, 0)), "south");
        assert_eq!(direction_text((0, 0), (-2, 0)), "2 tiles west");
    }

    #[test]
    fn drawing_and_placing_a_tile_name_no_id_and_no_coordinate() {
        for seed in 1..8 {
            let mut g = new_game(seed);
            let drawn = g.apply(Action::DrawTile).unwrap();
            let id = g.adventure().and_then(|a| a.ecology.drawn.as_ref()).map(|t| t.id.clone()).unwrap_or_default();
            for e in &drawn {
                if let Some(line) = describe_event(&g, e) {
                    assert!(id.is_empty() || !line.contains(&id), "{line}");
                }
            }
            assert!(drawn.iter().filter_map(|e| describe_event(&g, e)).any(|l| l == "Drew a map tile."));
            let place = g.legal_actions().into_iter().find(|a| matches!(a, Action::PlaceTile { .. })).unwrap();
            let label = describe_action(&g, &place);
            assert!(label.starts_with("Place the tile ") && label.contains("of the Entry"), "{label}");
            assert!(!label.contains('('), "{label}");
            let events = g.apply(place).unwrap();
            let line = events
                .iter()
                .find(|e| matches!(e, Event::TilePlaced { .. }))
                .and_then(|e| describe_event(&g, e))
                .unwrap();
            assert!(!id.is_empty() && !line.contains(&id), "{line}");
            assert!(!line.contains('(') && !line.contains('°'), "{line}");
            // The first tile always lies next to the Entry.
            let dirs = ["north", "east", "south", "west"];
            assert!(dirs.iter().any(|d| line == format!("Placed a tile {d} of the Entry.")), "{line}");
        }
    }

    #[test]
    fn later_tiles_are_placed_next_to_a_named_tile() {
        let mut g = new_game(3);
        for _ in 0..6 {
            let Some(events) = draw_and_place(&mut g) else { break };
            let Some(Event::TilePlaced { placement, .. }) =
                events.iter().find(|e| matches!(e, Event::TilePlaced { .. }))
            else {
                panic!("no tile placed")
            };
            let map = &g.adventure().unwrap().ecology.map;
            let line =
                describe_event(&g, events.iter().find(|e| matches!(e, Event::TilePlaced { .. })).unwrap()).unwrap();
            assert!(line.starts_with("Placed a tile ") && line.contains(" of the "), "{line}");
            assert!(!line.contains('('), "{line}");
            assert!(line.ends_with(&format!("{}.", where_placed(map, placement.cell))));
        }
    }

    #[test]
    fn an_encounter_label_names_the_element_and_where_it_is() {
        let mut found = false;
        for seed in 1..30 {
            let mut g = new_game(seed);
            for _ in 0..4 {
                if draw_and_place(&mut g).is_none() {
                    break;
                }
            }
            for a in g.legal_actions() {
                let Action::Encounter { element } = a else { continue };
                let name = g.adventure().unwrap().ecology.map.element(element).unwrap().0.name();
                let label = describe_action(&g, &a);
                assert!(label.starts_with(&format!("Encounter the {name} ")), "{label}");
                assert!(
                    label.ends_with("on the Lantern's tile")
                        || ["north", "east", "south", "west"].iter().any(|d| label.contains(d)),
                    "{label}"
                );
                assert!(!label.contains('('), "{label}");
                found = true;
            }
        }
        assert!(found, "no Encounter was within reach in any game");
    }

    #[test]
    fn a_tile_is_named_by_what_is_on_it() {
        let mut g = new_game(2);
        for _ in 0..8 {
            if draw_and_place(&mut g).is_none() {
                break;
            }
        }
        let map = &g.adventure().unwrap().ecology.map;
        assert_eq!(tile_name(map, (0, 0)), "the Entry");
        for t in map.tiles().iter().skip(1) {
            let name = tile_name(map, t.cell);
            assert!(name.starts_with("the ") && (name.ends_with(" tile") || name.ends_with("of the Entry")), "{name}");
        }
    }
}
