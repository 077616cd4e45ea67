//! The Combat: its Monster Cards against their cards, which card each Hero
//! fights, the pairings of the Round and their card positions, the Round's
//! modifiers, the Damage still to place and the individuals Defeated — and
//! that the step has someone who may act in it.

use super::refusal::{Checked, ensure, faultless, invalid, nth, who};
use crate::combat::{Combat, CombatStep, Engagement, Foe, FoeCard};
use crate::content::{entity_part_faults, monster_ability_faults, monster_faults};
use crate::game::Game;
use crate::monster::EntityPart;

/// The most Monster Cards in one Combat ("If 2 Monster icons are present,
/// draw 2 Monster Cards"; the Final Entity alone).
const MAX_CARDS: usize = 2;

pub(super) fn check(g: &Game, c: &Combat) -> Checked {
    let n = g.heroes.len();
    let k = c.foes.len();
    ensure!(
        (1..=MAX_CARDS).contains(&k),
        "combat.foes",
        "a Combat is against 1 or 2 Monster Cards, but this one has {k}"
    );
    for (f, foe) in c.foes.iter().enumerate() {
        self::foe(g, c, f, foe)?;
    }
    let per_hero = [
        ("assignment", "Monster Cards to fight", c.assignment.len()),
        ("heroes", "choices this Round", c.heroes.len()),
        ("play_one_next_round", "cards to play next Round", c.play_one_next_round.len()),
    ];
    for (field, words, len) in per_hero {
        ensure!(
            len == n,
            format!("combat.{field}"),
            "the Combat keeps {len} Heroes' {words}, but there are {n} Heroes"
        );
    }
    let assigning = c.step == CombatStep::AssignMonsters;
    ensure!(
        (c.round == 0) == assigning && c.round < u32::MAX,
        "combat.round",
        "the Combat is in Round {} while {}",
        c.round,
        if assigning { "its Monster Cards are still to be assigned" } else { "its Rounds are under way" }
    );
    for (h, cards) in c.assignment.iter().enumerate() {
        let at = format!("combat.assignment.{h}");
        if let Some(&f) = cards.iter().find(|&&f| usize::from(f) >= k) {
            return Err(invalid(at, format!("{} is assigned Monster Card {f}, but the Combat has {k}", who(g, h))));
        }
        let twice = cards.iter().enumerate().any(|(i, f)| cards[..i].contains(f));
        ensure!(!twice, at, "{} is assigned the same Monster Card twice", who(g, h));
        // Assigned once the players have chosen; each Hero fights one card at least.
        ensure!(
            cards.is_empty() == assigning,
            at,
            "{} {} Monster Card while {}",
            who(g, h),
            if cards.is_empty() { "fights no" } else { "is given a" },
            if assigning { "the cards are still to be assigned" } else { "the Rounds are under way" }
        );
    }
    engagements(g, c)?;
    rounds(g, c)?;
    damage(g, c)?;
    // A game over stops wherever it was; one going on must let someone act.
    if !g.is_over() { step(g, c) } else { Ok(()) }
}

/// A Monster Card against its card: the health tokens, Armor, card bonus
/// and Power-Activated abilities the card gives for this many Heroes, each
/// token's Health within its maximum, each Power list's next ability one of its.
fn foe(g: &Game, c: &Combat, f: usize, foe: &Foe) -> Checked {
    let n = g.heroes.len();
    let at = |field: &str| format!("combat.foes.{f}.{field}");
    let name = foe.name().to_string();
    let fresh = match &foe.card {
        FoeCard::Monster(m) => {
            faultless(monster_faults(m), || at("card"), &name)?;
            Foe::monster(m.clone(), n)
        }
        FoeCard::FinalEntity(e) => {
            let parts = [(&e.head_1, EntityPart::HeadI), (&e.head_2, EntityPart::HeadII), (&e.body, EntityPart::Body)];
            for (part, kind) in parts {
                faultless(entity_part_faults(part, kind), || at("card"), &part.name)?;
            }
            faultless(monster_ability_faults(&e.tail.abilities), || at("card"), &e.tail.name)?;
            ensure!(
                c.foes.len() == 1,
                "combat.foes",
                "the Final Entity is fought alone, but this Combat has another card"
            );
            Foe::final_entity((**e).clone(), n)
        }
    };
    ensure!(
        foe.difficulty == fresh.difficulty,
        at("difficulty"),
        "{name} plays from the {} Monster Action deck, but its card says {}",
        foe.difficulty.name(),
        fresh.difficulty.name()
    );
    ensure!(
        foe.card_bonus == fresh.card_bonus && foe.resists_non_magic == fresh.resists_non_magic,
        at("card_bonus"),
        "{name}'s card bonus or resistance to non-Magic attacks is not its card's"
    );
    ensure!(
        foe.individuals.len() == fresh.individuals.len(),
        at("individuals"),
        "{name} has {} health tokens, but its card has {}",
        foe.individuals.len(),
        fresh.individuals.len()
    );
    for (i, (ind, card)) in foe.individuals.iter().zip(&fresh.individuals).enumerate() {
        let at = at(&format!("individuals.{i}"));
        ensure!(
            ind.part == card.part && ind.max_health == card.max_health && ind.armor == card.armor,
            at,
            "{} has a Maximum Health of {} and Armor {}, but its card gives {} and {} for {n} Heroes",
            ind.name,
            ind.max_health,
            ind.armor,
            card.max_health,
            card.armor
        );
        ensure!(
            ind.health <= ind.max_health,
            at,
            "{} has {} Health, above its Maximum Health of {}",
            ind.name,
            ind.health,
            ind.max_health
        );
    }
    ensure!(
        foe.power_lists.len() == fresh.power_lists.len(),
        at("power_lists"),
        "{name} has {} lists of Power-Activated abilities, but its card has {}",
        foe.power_lists.len(),
        fresh.power_lists.len()
    );
    for (l, (list, card)) in foe.power_lists.iter().zip(&fresh.power_lists).enumerate() {
        ensure!(
            list.part == card.part && list.abilities == card.abilities,
            at(&format!("power_lists.{l}")),
            "{name}'s Power-Activated abilities are not its card's"
        );
        // "Multiple Monster Abilities" take turns: the next is one of the list's.
        ensure!(
            list.next < list.abilities.len(),
            at(&format!("power_lists.{l}.next")),
            "{name}'s next Power-Activated ability is number {}, but it has {}",
            list.next,
            list.abilities.len()
        );
    }
    Ok(())
}

/// The Round's pairings are the assignment's — one per Hero and assigned
/// card, in the order they are played — and each holds the cards its
/// step allows.
fn engagements(g: &Game, c: &Combat) -> Checked {
    let (n, k) = (g.heroes.len(), c.foes.len());
    let groups = c.assignment.iter().map(Vec::len).max().unwrap_or(0).max(1);
    ensure!(
        usize::from(c.group) < groups,
        "combat.group",
        "the Round is at each Hero's Monster Card number {}, but no Hero fights more than {groups}",
        c.group
    );
    for (i, e) in c.engagements.iter().enumerate() {
        let at = |field: &str| format!("combat.engagements.{i}.{field}");
        ensure!(
            usize::from(e.hero) < n,
            at("hero"),
            "the Combat's {} pairing names Hero {}, but there are {n} Heroes",
            nth(i),
            e.hero
        );
        ensure!(
            usize::from(e.foe) < k,
            at("foe"),
            "the Combat's {} pairing names Monster Card {}, but the Combat has {k}",
            nth(i),
            e.foe
        );
    }
    // Built at the start of each Round from the assignment (see `start_round`).
    let mut want: Vec<(u8, u8, u8)> = c
        .assignment
        .iter()
        .enumerate()
        .flat_map(|(h, cards)| cards.iter().enumerate().map(move |(group, &f)| (group as u8, h as u8, f)))
        .collect();
    want.sort_by_key(|&(group, h, _)| (group, h));
    let have: Vec<(u8, u8, u8)> = c.engagements.iter().map(|e| (e.group, e.hero, e.foe)).collect();
    if have != want {
        let i = have.iter().zip(&want).position(|(a, b)| a != b).unwrap_or(have.len().min(want.len()));
        return Err(invalid(
            format!("combat.engagements.{i}"),
            format!(
                "the Round has {} pairings of a Hero and a Monster Card, and its {} is not the one the assignment of Monster Cards makes",
                have.len(),
                nth(i)
            ),
        ));
    }
    let mut chosen = vec![false; n];
    for (i, e) in c.engagements.iter().enumerate() {
        pairing(g, c, i, e)?;
        if e.chosen.is_some() {
            let h = usize::from(e.hero);
            ensure!(
                !chosen[h],
                format!("combat.engagements.{i}.chosen"),
                "{} has chosen two Combat Pairs to Resolve; each Hero Resolves one",
                who(g, h)
            );
            chosen[h] = true;
        }
    }
    Ok(())
}

/// One pairing's cards: as many Hero cards as they play (2 at most), each
/// card position with the Hero's card, Monster cards as many as the Monster
/// plays, a Monster card waiting only against two Hero cards, and the pair
/// chosen a full Combat Pair. The pairings of earlier Monster Cards are
/// played out, those of later ones not begun.
fn pairing(g: &Game, c: &Combat, i: usize, e: &Engagement) -> Checked {
    let at = |field: &str| format!("combat.engagements.{i}.{field}");
    let who = who(g, usize::from(e.hero));
    let name = c.foes[usize::from(e.foe)].name();
    ensure!(e.hero_cards <= 2, at("hero_cards"), "{who} is to play {} cards against {name}; 2 at most", e.hero_cards);
    ensure!(
        (1..=2).contains(&e.monster_cards),
        at("monster_cards"),
        "{name} is to play {} cards against {who}; 1 or 2",
        e.monster_cards
    );
    ensure!(
        e.slots.len() <= usize::from(e.hero_cards),
        at("slots"),
        "{who} has played {} cards against {name}, more than the {} to play",
        e.slots.len(),
        e.hero_cards
    );
    ensure!(
        e.slots.iter().all(|s| s.hero.is_some()),
        at("slots"),
        "a card position in front of {who} has no card of theirs"
    );
    let monster =
        e.slots.iter().filter(|s| s.monster.is_some()).count() + e.unpaired.len() + usize::from(e.waiting.is_some());
    ensure!(
        monster <= usize::from(e.monster_cards),
        at("unpaired"),
        "{name} has {monster} cards on the table against {who}, more than the {} it plays",
        e.monster_cards
    );
    if e.waiting.is_some() {
        // "If a Monster only Plays 1 Action Card against a Hero, that Hero may
        // move it opposite either of their Played Action Cards."
        ensure!(
            e.slots.len() == 2 && monster == 1,
            at("waiting"),
            "a Monster card waits to be placed in front of {who}, who has not two cards to place it against"
        );
    }
    if let Some(slot) = e.chosen {
        let bonus = c.foes[usize::from(e.foe)].card_bonus;
        let pair = e.slots.get(usize::from(slot)).and_then(|s| s.outcome(bonus));
        ensure!(
            pair.is_some(),
            at("chosen"),
            "{who} has chosen card position {slot} against {name} to Resolve, which holds no Combat Pair"
        );
    }
    if g.is_over() {
        return Ok(());
    }
    let done = e.slots.len() == usize::from(e.hero_cards) && e.waiting.is_none();
    let begun = !e.slots.is_empty() || monster > 0;
    let early = matches!(c.step, CombatStep::PlayCards | CombatStep::PlaceMonsterCard);
    let fits = match e.group.cmp(&c.group) {
        std::cmp::Ordering::Less => done,
        std::cmp::Ordering::Greater => !begun,
        // The Monsters play once every Hero has played against this card.
        std::cmp::Ordering::Equal if c.step == CombatStep::PlayCards => monster == 0,
        std::cmp::Ordering::Equal if c.step == CombatStep::PlaceMonsterCard => {
            e.slots.len() == usize::from(e.hero_cards)
        }
        std::cmp::Ordering::Equal => done,
    };
    ensure!(fits, at("slots"), "the cards played between {who} and {name} do not fit the Round's step");
    ensure!(
        e.chosen.is_none() || !early,
        at("chosen"),
        "{who} has chosen a Combat Pair to Resolve before the cards are all played"
    );
    Ok(())
}

/// Each Hero's choices for the Round: the individual of each Monster Card
/// their Damage goes to.
fn rounds(g: &Game, c: &Combat) -> Checked {
    for (h, round) in c.heroes.iter().enumerate() {
        for (t, &(f, i)) in round.targets.iter().enumerate() {
            let at = format!("combat.heroes.{h}.targets.{t}");
            individual(c, &at, f, i)?;
            let twice = round.targets[..t].iter().any(|&(other, _)| other == f);
            ensure!(!twice, at, "{} names two individuals of the same Monster Card for the Round's Damage", who(g, h));
        }
    }
    Ok(())
}

/// `foe` and its `individual` are on the table.
fn individual(c: &Combat, at: &str, foe: u8, individual: u8) -> Checked {
    let f = c.foes.get(usize::from(foe));
    ensure!(f.is_some(), at, "Damage goes to Monster Card {foe}, but the Combat has {}", c.foes.len());
    let count = f.map_or(0, |f| f.individuals.len());
    ensure!(
        usize::from(individual) < count,
        at,
        "Damage goes to individual {individual} of {}, which has {count}",
        f.map_or("", Foe::name)
    );
    Ok(())
}

/// The Damage of the Round: packets still to place, wounds, hits and kills
/// name Heroes and individuals on the table; the kills still waiting for
/// someone to avoid Return Damage are kills.
fn damage(g: &Game, c: &Combat) -> Checked {
    let n = g.heroes.len();
    let heroes_mask = (1u16 << n) - 1;
    for (p, packet) in c.packets.iter().enumerate() {
        let at = |field: &str| format!("combat.packets.{p}.{field}");
        ensure!(
            usize::from(packet.hero) < n,
            at("hero"),
            "Damage waits to be placed for Hero {}, but there are {n} Heroes",
            packet.hero
        );
        individual(c, &at("foe"), packet.foe, packet.individual.unwrap_or(0))?;
        ensure!(
            u16::from(packet.owners) & !heroes_mask == 0,
            at("owners"),
            "Damage waiting to be placed belongs to Heroes who are not at the table"
        );
    }
    for (w, wound) in c.wounds.iter().enumerate() {
        let at = format!("combat.wounds.{w}");
        individual(c, &at, wound.foe, wound.individual)?;
        ensure!(
            wound.heroes != 0 && u16::from(wound.heroes) & !heroes_mask == 0,
            at,
            "a Monster's wound this Round is from no Hero at the table"
        );
    }
    for (i, &(foe, ind, hero)) in c.hits.iter().enumerate() {
        let at = format!("combat.hits.{i}");
        individual(c, &at, foe, ind)?;
        ensure!(usize::from(hero) < n, at, "a hit this Round is by Hero {hero}, but there are {n} Heroes");
    }
    for (i, kill) in c.kills.iter().enumerate() {
        let at = format!("combat.kills.{i}");
        individual(c, &at, kill.foe, kill.individual)?;
        let twice = kill.contributors.iter().enumerate().any(|(j, h)| kill.contributors[..j].contains(h));
        ensure!(
            !kill.contributors.is_empty() && !twice && kill.contributors.iter().all(|&h| usize::from(h) < n),
            format!("{at}.contributors"),
            "an individual Defeated this Round was Defeated by Heroes not at the table"
        );
    }
    for (i, &k) in c.avoid_queue.iter().enumerate() {
        ensure!(
            k < c.kills.len(),
            format!("combat.avoid_queue.{i}"),
            "the Heroes are to choose who avoids Return Damage for kill {k}, but this Round has {}",
            c.kills.len()
        );
    }
    Ok(())
}

/// Someone may act in the step, and what the step starts from is there:
/// before Combat Pairs are chosen no Damage is dealt, while they are chosen
/// someone is still choosing, Damage waits to be placed only while it is
/// placed, and the Heroes choose who avoids Return Damage only for a kill.
fn step(g: &Game, c: &Combat) -> Checked {
    let n = g.heroes.len();
    let early = matches!(c.step, CombatStep::AssignMonsters | CombatStep::PlayCards | CombatStep::PlaceMonsterCard);
    ensure!(
        !early || !c.is_over(),
        "combat.foes",
        "every Monster is Defeated, but the Combat goes on to another Round"
    );
    ensure!(
        !early || (c.wounds.is_empty() && c.hits.is_empty() && c.kills.is_empty()),
        "combat.wounds",
        "Damage was dealt this Round before the Combat Pairs were chosen"
    );
    ensure!(
        c.packets.is_empty() == (c.step != CombatStep::AssignDamage),
        "combat.packets",
        "Damage waits to be placed {}",
        if c.packets.is_empty() { "nowhere while it is being placed" } else { "outside \"5. Apply Damage\"" }
    );
    ensure!(
        c.avoid_queue.is_empty() == (c.step != CombatStep::AvoidReturnDamage),
        "combat.avoid_queue",
        "the Heroes {} choose who avoids Return Damage",
        if c.avoid_queue.is_empty() { "have no kill to" } else { "cannot now" }
    );
    let done = c.heroes.iter().filter(|r| r.done).count();
    match c.step {
        CombatStep::AssignMonsters => {
            // "Each Monster Card must be assigned to a different Hero."
            ensure!(
                c.foes.len() <= n,
                "combat.foes",
                "{} Monster Cards are to be assigned to {n} Heroes",
                c.foes.len()
            );
        }
        CombatStep::PlayCards => {
            let playing: Vec<u8> = (0..n as u8).filter(|&h| c.playing_engagement(h).is_some()).collect();
            ensure!(
                !playing.is_empty(),
                "combat.engagements",
                "the Heroes are to play cards, but every Hero has played"
            );
            for h in playing {
                let h = usize::from(h);
                ensure!(
                    !g.heroes[h].hand.is_empty(),
                    format!("heroes.{h}.hand"),
                    "{} is to play a card, but holds none",
                    who(g, h)
                );
            }
        }
        CombatStep::PlaceMonsterCard => {
            ensure!(
                c.engagements.iter().any(|e| e.waiting.is_some()),
                "combat.engagements",
                "a Monster card is to be placed, but none waits"
            );
        }
        CombatStep::Resolve => {
            ensure!(done < n, "combat.heroes", "the Heroes are choosing Combat Pairs, but every Hero is done");
        }
        CombatStep::AssignDamage => {
            ensure!(
                c.packets.iter().any(|p| p.individual.is_none()),
                "combat.packets",
                "Damage is being placed, but all of it is placed"
            );
        }
        CombatStep::AvoidReturnDamage => {}
    }
    ensure!(
        match c.step {
            CombatStep::AssignMonsters | CombatStep::PlayCards | CombatStep::PlaceMonsterCard => done == 0,
            CombatStep::Resolve => true,
            CombatStep::AssignDamage | CombatStep::AvoidReturnDamage => done == n,
        },
        "combat.heroes",
        "{done} of the {n} Heroes are done choosing Combat Pairs, which does not fit the Round's step"
    );
    Ok(())
}
