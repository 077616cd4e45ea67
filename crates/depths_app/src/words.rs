//! The game in words: every rules [`Event`] as a line of the log, every
//! [`Action`] as the label of its button, and why an action was refused.

use depths_rules::{
    Action, Ecology, Event, Game, LossReason, Outcome, Pending, Phase, Purchase, RuleError, Target, XpRef,
    adventure::HeroChoice, hero::AbilitySource,
};

/// Why an action was refused, as a sentence.
pub fn rule_error_text(game: &Game, e: &RuleError) -> String {
    match e {
        RuleError::Placement(p) => capitalise(&p.to_string()) + ".",
        RuleError::HeroIsDone { hero } => {
            format!("{} has nothing left to do in this step; the others may still act.", hero_name(game, *hero))
        }
        other => capitalise(&other.to_string()),
    }
}

/// "The Ruins are behind you — descend to the Caverns": the Passage moment.
pub fn passage_text(from: Ecology, next: Ecology) -> String {
    format!("The {} are behind you — descend to the {}", from.name(), next.name())
}

fn capitalise(s: &str) -> String {
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
        .map_or_else(|| format!("Monster {f}"), |f| f.name().to_owned())
}

fn individual_name(game: &Game, f: u8, i: u8) -> String {
    game.combat()
        .and_then(|c| c.foes.get(usize::from(f)))
        .and_then(|f| f.individuals.get(usize::from(i)))
        .map_or_else(|| format!("#{}", i + 1), |i| i.name.clone())
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
    let h = |h: &u8| hero_name(game, *h);
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
            format!("{}'s Power fizzles.", foe_name(game, *foe))
        }
        Event::MonsterCardMoved { .. } => return None,
        Event::PairChosen { hero, outcome, .. } => {
            format!("{} resolves a {}.", h(hero), outcome_name(*outcome))
        }
        Event::AbilityActivated { hero, name } => format!("{} activates {name}.", h(hero)),
        Event::PowerSpent { hero, count } => format!("{} spends {count} Power.", h(hero)),
        Event::SpellExhausted { hero, name } => format!("{}'s {name} is exhausted.", h(hero)),
        Event::MonsterDamaged { hero, foe, individual, amount } => {
            format!("{} deals {amount} damage to {}.", h(hero), individual_name(game, *foe, *individual))
        }
        Event::IndividualDefeated { foe, individual } => {
            format!("{} is defeated.", individual_name(game, *foe, *individual))
        }
        Event::MonsterHealed { foe, individual, amount } => {
            format!("{} heals {amount}.", individual_name(game, *foe, *individual))
        }
        Event::ReturnDamageAvoided { hero } => format!("{} avoids Return Damage.", h(hero)),
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
        Event::TileDrawn { tile } => format!("Drew map tile {tile}."),
        Event::TilePlaced { tile, placement } => format!(
            "Placed {tile} at {:?}, turned {}°.",
            placement.cell,
            u32::from(placement.rotation.quarter_turns()) * 90
        ),
        Event::TileSetAside { tile } => format!("{tile} is set aside (a dead end)."),
        Event::ElementEncountered { element } => {
            let what =
                game.adventure().and_then(|a| a.ecology.map.element(*element)).map_or("an element", |(e, _)| e.name());
            format!("The Heroes Encounter a {what}.")
        }
        Event::LegendaryLocationEncountered { pattern } => {
            format!("Legendary Location {pattern} is Encountered!")
        }
        Event::CardDrawn { name } => format!("Drew “{name}”."),
        Event::TestResolved { total, target, passed } => {
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

pub fn loss_text(game: &Game, reason: &LossReason) -> String {
    match reason {
        LossReason::DeadEnd => "they drew a Map Tile that cannot be placed (a dead end)".into(),
        LossReason::Stranded => "no tile left to draw and nothing left to Encounter".into(),
        LossReason::HeroDefeated { hero } => format!("{} was Defeated", hero_name(game, *hero)),
    }
}

fn card_text(card: &depths_rules::ActionCard) -> String {
    if card.power { "a Power Card".into() } else { format!("a {}", card.value) }
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
            format!(" on {}'s card {}", engagement_foe(game, *engagement), slot + 1)
        }
        Target::Hero(h) => format!(" on {}", hero_name(game, *h)),
        Target::DiscardCard(c) => format!(" taking back card #{}", c.0),
        Target::Element(e) => format!(" on the element at {:?}", e.cell),
    }
}

/// The Monster Card a Hero faces in engagement `e`.
fn engagement_foe(game: &Game, e: u8) -> String {
    let foe = game.combat().and_then(|c| c.engagements.get(usize::from(e))).map(|en| en.foe);
    foe.map_or_else(|| format!("Monster card {}", e + 1), |f| foe_name(game, f))
}

/// A readable label for any legal action.
pub fn describe_action(game: &Game, a: &Action) -> String {
    let h = |h: &u8| hero_name(game, *h);
    let card = |hero: u8, id: depths_rules::CardId| {
        let hero = &game.heroes[usize::from(hero)];
        hero.hand.iter().chain(&hero.draw).find(|c| c.id == id).map_or_else(|| format!("card #{}", id.0), card_text)
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
            format!("{}: resolve pair {} against {}", h(hero), slot + 1, engagement_foe(game, *engagement))
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
        Action::PlaceTile { placement } | Action::PlaceSetAsideTile { placement } => format!(
            "Place the tile at {:?}, turned {}°",
            placement.cell,
            u32::from(placement.rotation.quarter_turns()) * 90
        ),
        Action::Encounter { element } => {
            let what =
                game.adventure().and_then(|a| a.ecology.map.element(*element)).map_or("element", |(e, _)| e.name());
            format!("Encounter the {what} at {:?}", element.cell)
        }
        Action::EncounterLegendary { index } => {
            let name = game
                .discovered_legendary_locations()
                .get(usize::from(*index))
                .map_or_else(|| format!("#{index}"), |m| m.pattern.clone());
            format!("Encounter Legendary Location {name}")
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
