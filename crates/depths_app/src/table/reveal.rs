//! Card reveals: every card drawn or gained — the Monster cards of a new
//! Combat, a Feature or Legendary Location card, an Item, an Ability — is
//! shown large on the table, clear of any dialog, with its name, icon, rules
//! text and flavour, until a click, Space, or the next action. A Feature's test is
//! told on its card: the total, the target, passed or failed.
//!
//! [`reveals_for`] (what to show for a batch of events) is plain data, tested
//! headless; the entities are a reaction to [`RulesEvent`]s.

use bevy::{camera::visibility::RenderLayers, prelude::*, sprite::Anchor, text::TextBounds, window::PrimaryWindow};
use depths_rules::{
    Content, Event, Game,
    combat::{Foe, FoeCard},
};

use super::card_art::CardArt;
use super::cards::{TABLE_LAYER, TableGeometry, text_font, to_world};
use super::faces::{foe_abilities, foe_icon};
use crate::theme::palette::{CARD_GOLD, CARD_LORE, CARD_MUTED, CARD_TEXT, HERO_CARD, HERO_EDGE, Tone};
use crate::{
    PlaySystems,
    game::notices::{ReadFor, RevealSet, reading_time},
    game::rules_events::RulesEvent,
    game::screen::Screen,
    game::session::{Delve, GameContent},
};

/// One card to reveal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RevealCard {
    /// Whose kind of card it is: the colours it is drawn in.
    pub family: Family,
    /// "Monster", "Feature", "Item for Bren"…
    pub kind: String,
    pub title: String,
    pub icon: (&'static str, String),
    /// Its rules, one line each.
    pub rules: Vec<String>,
    pub flavour: String,
    /// Cards laid out on it, a row each: a Feature test's draws by Hero.
    pub rows: Vec<CardRow>,
}

/// The kinds of card a reveal draws in their own colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// A Monster and its Power: the Monsters' red.
    Monster,
    /// A Feature or Legendary Location and its test: the Ecology's gold-brown.
    Ecology,
    /// A Feature's test shown alone (its card is no longer on show).
    Test,
    /// An Item or an Ability a Hero gained: the Heroes' blue.
    Hero,
}

/// The cards on show, on the reveal's root: a decision window that leaves
/// the reveal too little room to be read shows their words itself.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct RevealedCards(pub Vec<RevealCard>);

/// Below this scale a revealed card cannot be read: it gives way to the
/// dialog that covers it, which shows its words.
pub const LEAST_READABLE: f32 = 0.6;

/// A row of small cards on a revealed card: whose, and their values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardRow {
    pub label: String,
    pub values: Vec<u8>,
}

/// The Monster whose Power is drawn, by name and icon ("The Monster" once
/// it is gone from the table).
fn monster_and_icon(foe: Option<&Foe>) -> (String, (&'static str, String)) {
    foe.map_or_else(|| ("The Monster".into(), ("elements", "monster".into())), |f| (f.name().to_owned(), foe_icon(f)))
}

/// A Monster's Power at work: the ability, whom it hits and what it did to
/// them (the events that follow it in the batch, in the log's words).
fn power_reveal(game: &Game, foe: Option<&Foe>, name: &str, heroes: &[u8], after: &[Event]) -> RevealCard {
    let (monster, icon) = monster_and_icon(foe);
    let abilities = foe.map(foe_abilities).unwrap_or_default();
    let mut rules: Vec<String> = abilities.into_iter().filter(|(n, _)| *n == name).map(|(_, t)| t).take(1).collect();
    let names: Vec<&str> = heroes.iter().filter_map(|h| game.heroes.get(usize::from(*h))).map(|h| h.name()).collect();
    rules.push(format!(
        "{} drew a Power Card: it hits {}.",
        crate::game::words::capitalise(&monster),
        crate::game::words::and_list(&names)
    ));
    // What it did, up to the next thing the Monster or a Hero does.
    let effects = after.iter().take_while(|e| {
        matches!(
            e,
            Event::HeroDamaged { .. } | Event::HeroHealed { .. } | Event::MonsterHealed { .. } | Event::GameLost { .. }
        )
    });
    // A wound under the printed Damage says why: "Deal 4 Damage" and "Sil
    // takes 2 damage" read as a number that did not come true.
    rules.extend(effects.filter_map(|e| {
        let line = crate::game::words::describe_event(game, e)?;
        match e {
            Event::HeroDamaged { hero, .. } if game.armor_of(*hero) > 0 => {
                let line = line.strip_suffix('.').unwrap_or(&line);
                Some(format!("{line}, after {} Armor.", game.armor_of(*hero)))
            }
            _ => Some(line),
        }
    }));
    RevealCard {
        family: Family::Monster,
        kind: format!("{} Power", crate::game::words::possessive(&monster)),
        title: name.to_owned(),
        icon,
        rules,
        flavour: String::new(),
        rows: Vec::new(),
    }
}

/// A Feature card as it is revealed: its rules and what it is worth.
pub fn feature_card(content: &Content, f: &depths_rules::feature::FeatureCard) -> RevealCard {
    ecology_card(content, ("Feature", "feature"), &f.name, &f.effects, &f.description, f.xp)
}

/// A Feature or Legendary Location card (its kind and icon): its rules,
/// then what it is worth.
fn ecology_card(
    content: &Content,
    (kind, icon): (&str, &str),
    name: &str,
    effects: &[depths_rules::Effect],
    flavour: &str,
    xp: u8,
) -> RevealCard {
    let mut rules: Vec<String> = vec![content.effect_text(effects)];
    if xp > 0 {
        rules.push(format!("Worth {xp} XP."));
    }
    RevealCard {
        family: Family::Ecology,
        kind: kind.into(),
        title: name.to_owned(),
        icon: ("elements", icon.to_owned()),
        rules,
        flavour: flavour.to_owned(),
        rows: Vec::new(),
    }
}

/// What a batch of events (one action's) reveals, in the state after it.
pub fn reveals_for(game: &Game, content: &Content, events: &[Event]) -> Vec<RevealCard> {
    let mut out: Vec<RevealCard> = Vec::new();
    let foe_at = |f: u8| game.combat().and_then(|c| c.foes.get(usize::from(f)));
    for (at, event) in events.iter().enumerate() {
        match event {
            Event::CombatStarted { .. } => {
                let Some(c) = game.combat() else { continue };
                for foe in &c.foes {
                    let mut rules = vec![format!(
                        "{} · {}",
                        foe.difficulty.name(),
                        crate::game::words::counted(foe.individuals.len() as u64, "individual", "individuals")
                    )];
                    let most: Vec<u8> = foe.individuals.iter().map(|i| i.max_health).collect();
                    rules.push(crate::game::words::starting_health(&most));
                    rules.extend(foe_abilities(foe).into_iter().map(|(_, text)| text));
                    let flavour = match &foe.card {
                        FoeCard::Monster(m) => m.description.clone(),
                        FoeCard::FinalEntity(_) => {
                            game.adventure().and_then(|a| a.final_entity_lore.clone()).unwrap_or_default()
                        }
                    };
                    let icon = foe_icon(foe);
                    let title = foe.name().to_owned();
                    let family = Family::Monster;
                    out.push(RevealCard {
                        family,
                        kind: "Monster".into(),
                        title,
                        icon,
                        rules,
                        flavour,
                        rows: Vec::new(),
                    });
                }
            }
            Event::CardDrawn { name } => {
                let eco = content.ecologies.iter();
                let feature = eco.clone().flat_map(|e| &e.features).find(|f| &f.name == name);
                let legendary = eco.flat_map(|e| &e.legendary).find(|l| &l.name == name);
                out.push(match (feature, legendary) {
                    (Some(f), _) => feature_card(content, f),
                    (_, Some(l)) => ecology_card(
                        content,
                        ("Legendary Location", "legendary_location"),
                        name,
                        &l.effects,
                        &l.description,
                        l.xp,
                    ),
                    _ => continue,
                });
            }
            Event::TestResolved { total, target, passed, drawn } => {
                let verdict = if *passed { "passed" } else { "failed" };
                let line = format!("Test: {total} against {target} — {verdict}.");
                // The cards each Hero drew, laid out on the card.
                let rows = drawn.iter().enumerate().map(|(h, values)| CardRow {
                    label: game.heroes.get(h).map_or_else(|| format!("Hero {}", h + 1), |h| h.name().to_owned()),
                    values: values.clone(),
                });
                match out.iter_mut().rev().find(|r| r.family == Family::Ecology) {
                    Some(card) => {
                        card.rules.push(line);
                        card.rows.extend(rows);
                    }
                    None => out.push(RevealCard {
                        family: Family::Test,
                        kind: "Test".into(),
                        title: if *passed { "Test passed".into() } else { "Test failed".into() },
                        icon: ("elements", "feature".into()),
                        rules: vec![line],
                        flavour: String::new(),
                        rows: rows.collect(),
                    }),
                }
            }
            Event::MonsterAbility { foe, name, heroes } => {
                out.push(power_reveal(game, foe_at(*foe), name, heroes, &events[at + 1..]));
            }
            // A Monster with no Power ability just plays on: nothing to show.
            Event::MonsterPowerWasted { foe } if foe_at(*foe).is_some_and(|f| !f.power_lists.is_empty()) => {
                let (monster, icon) = monster_and_icon(foe_at(*foe));
                out.push(RevealCard {
                    family: Family::Monster,
                    kind: format!("{} Power", crate::game::words::possessive(&monster)),
                    title: "Power wasted".into(),
                    icon,
                    rules: vec![format!(
                        "{} drew another Power Card this Round: a Monster Activates its Power only once a Round, so \
                         this one is wasted.",
                        crate::game::words::capitalise(&monster)
                    )],
                    flavour: String::new(),
                    rows: Vec::new(),
                });
            }
            Event::ItemGained { hero, name } => {
                let Some(h) = game.heroes.get(usize::from(*hero)) else { continue };
                let Some(item) = h.items.iter().find(|i| &i.card.name == name).map(|i| &i.card) else { continue };
                let mut rules = vec![crate::game::words::item_facts(item)];
                rules.extend(item.abilities.iter().map(|a| a.text()));
                if !item.add_cards.is_empty() {
                    let cards: Vec<String> = item.add_cards.iter().map(u8::to_string).collect();
                    rules.push(format!("Adds Action Cards {} to {}'s deck.", cards.join(", "), h.name()));
                }
                out.push(RevealCard {
                    family: Family::Hero,
                    kind: format!("Item for {}", h.name()),
                    title: name.clone(),
                    icon: ("items", item.id.clone()),
                    rules,
                    flavour: item.description.clone(),
                    rows: Vec::new(),
                });
            }
            Event::AbilityGained { hero, name } => {
                let Some(h) = game.heroes.get(usize::from(*hero)) else { continue };
                let Some((_, ability)) = h.abilities().find(|(_, a)| &a.name == name) else { continue };
                out.push(RevealCard {
                    family: Family::Hero,
                    kind: format!("Ability for {}", h.name()),
                    title: name.clone(),
                    icon: ("ui", "ability".into()),
                    rules: vec![ability.text()],
                    flavour: String::new(),
                    rows: Vec::new(),
                });
            }
            // The other events, by name, so a new one is decided here.
            #[rustfmt::skip]
            Event::MonstersAssigned { .. } | Event::RoundStarted { .. } |
                Event::CardsDrawn { .. } | Event::PowerStored { .. } | Event::DiscardReshuffled { .. } |
                Event::CannotPlay { .. } | Event::CardPlayed { .. } | Event::MonsterCardPlayed { .. } |
                Event::MonsterCardWaiting { .. } | Event::MonsterDeckReshuffled { .. } |
                Event::MonsterPowerDrawn { .. } | Event::MonsterPowerWasted { .. } | Event::MonsterCardMoved { .. } |
                Event::PairChosen { .. } | Event::AbilityActivated { .. } | Event::PowerSpent { .. } |
                Event::SpellExhausted { .. } | Event::MonsterDamaged { .. } | Event::IndividualDefeated { .. } |
                Event::MonsterHealed { .. } | Event::ReturnDamageAvoided { .. } | Event::HeroDamaged { .. } |
                Event::HeroHealed { .. } | Event::FoeDefeated { .. } | Event::RoundEnded { .. } | Event::CombatWon |
                Event::GameLost { .. } | Event::Note { .. } | Event::EcologyStarted { .. } |
                Event::EcologyCompleted { .. } | Event::TileDrawn { .. } | Event::TilePlaced { .. } |
                Event::TileSetAside { .. } | Event::ElementEncountered { .. } |
                Event::LegendaryLocationEncountered { .. } | Event::CardsOffered { .. } |
                Event::XpGained { .. } | Event::XpSpent { .. } |
                Event::KeysChanged { .. } | Event::Rested | Event::LevelUp { .. } | Event::GameWon => {}
        }
    }
    out
}

/// The revealed cards' own size (the prompt under them included), to fit
/// them where no dialog lies.
#[derive(Component, Debug)]
struct RevealSize(Vec2);

/// When the reveal on show came up: the next move takes it away only after a
/// moment (a Companion moves on quickly; a click or Space is always at once).
#[derive(Resource, Default, Debug)]
struct ShownAt(Option<f32>);

/// A reveal stays at least this long against the next moves.
const READ_TIME: f32 = 1.5;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ShownAt>();
    app.add_systems(
        Update,
        ((reveal, place_reveal).chain().in_set(PlaySystems::Present), dismiss_with_space.in_set(PlaySystems::Input))
            .run_if(in_state(Screen::Playing).and_then(resource_exists::<Delve>)),
    );
}

const CARD: Vec2 = Vec2::new(300.0, 400.0);

fn reveal(
    mut commands: Commands,
    mut events: MessageReader<RulesEvent>,
    delve: Res<Delve>,
    content: Option<Res<GameContent>>,
    shown: Query<Entity, With<RevealSet>>,
    geometry: Res<TableGeometry>,
    window: Single<&Window, With<PrimaryWindow>>,
    ui_assets: Option<Res<crate::theme::style::UiAssets>>,
    icons: Option<Res<crate::theme::icons::Icons>>,
    time: Res<Time>,
    mut shown_at: ResMut<ShownAt>,
    card_art: Option<Res<CardArt>>,
) {
    let batch: Vec<Event> = events.read().map(|RulesEvent(e)| e.clone()).collect();
    if batch.is_empty() {
        return;
    }
    let Some(content) = content else { return };
    let cards = reveals_for(delve.game(), &content.0, &batch);
    let now = time.elapsed_secs();
    // The next action takes the last reveal away, once it has been up a moment.
    let young = shown_at.0.is_some_and(|t| now - t < READ_TIME);
    if cards.is_empty() && young && !shown.is_empty() {
        return;
    }
    for e in &shown {
        commands.entity(e).despawn();
    }
    shown_at.0 = None;
    if cards.is_empty() {
        return;
    }
    shown_at.0 = Some(now);
    let screen = Vec2::new(window.width(), window.height());
    let area = geometry.layout.as_ref().map_or(Rect::from_corners(Vec2::ZERO, screen), |l| l.area);
    // Side by side, as tall as the longest needs, shrunk to fit the free area
    // (`place_reveal` keeps them clear of any dialog).
    let n = cards.len().min(4);
    let card_h = cards.iter().take(n).map(card_height).fold(CARD.y, f32::max);
    let size = reveal_size(n, card_h);
    let (center, scale) = fit_reveal(size, area);
    let center = to_world(center, screen);
    let title_font = ui_assets.as_ref().map(|a| a.title_font.clone());
    let body_font = ui_assets.as_ref().map(|a| a.body_font.clone());
    let font = |f: &Option<Handle<Font>>, px: f32| text_font(f.as_ref(), px);
    let layer = RenderLayers::layer(TABLE_LAYER);
    // A veil over the whole window: a click anywhere on it dismisses.
    commands
        .spawn((
            Name::new("Reveal veil"),
            RevealSet,
            Sprite::from_color(crate::theme::palette::BLACK.sprite_alpha(0.55), screen),
            Transform::from_xyz(0.0, 0.0, 94.0),
            layer.clone(),
            Pickable::default(),
            DespawnOnExit(Screen::Playing),
        ))
        .observe(dismiss_on_click);
    let words: usize = cards
        .iter()
        .take(n)
        .map(|c| {
            let rows: usize = c.rows.iter().map(|r| r.values.len() + 1).sum();
            c.title.split_whitespace().count()
                + c.rules.iter().chain([&c.flavour]).map(|t| t.split_whitespace().count()).sum::<usize>()
                + rows
        })
        .sum();
    commands
        .spawn((
            Name::new("Reveal"),
            RevealSet,
            ReadFor(reading_time(words)),
            RevealSize(size),
            RevealedCards(cards.iter().take(n).cloned().collect()),
            Transform::from_translation(center.extend(95.0)).with_scale(Vec3::new(scale, scale, 1.0)),
            Visibility::Inherited,
            layer.clone(),
            DespawnOnExit(Screen::Playing),
        ))
        .with_children(|c| {
            let width = n as f32 * (CARD.x + 16.0) - 16.0;
            let card = Vec2::new(CARD.x, card_h);
            for (i, revealed) in cards.iter().take(n).enumerate() {
                let x = -width / 2.0 + CARD.x / 2.0 + i as f32 * (CARD.x + 16.0);
                let at = |y: f32, z: f32| Transform::from_xyz(x, y, z);
                // A card of its kind: its frame and face in the kind's
                // colours, a thin line inside, the picture on a lit field.
                let (face, edge) = reveal_tones(revealed.family);
                let (face, edge) = (face.sprite(), edge.sprite());
                let sprite = |image: fn(&CardArt) -> &Handle<Image>, color: Color, size: Vec2| match &card_art {
                    Some(art) => CardArt::sliced(image(art), color, size),
                    None => Sprite::from_color(color, size),
                };
                c.spawn((sprite(|a| &a.frame, edge, card + Vec2::splat(6.0)), at(0.0, 0.1), layer.clone()));
                c.spawn((sprite(|a| &a.face, face, card), at(0.0, 0.2), layer.clone()));
                c.spawn((
                    sprite(|a| &a.frame, edge.with_alpha(0.45), card - Vec2::splat(12.0)),
                    at(0.0, 0.21),
                    layer.clone(),
                ));
                c.spawn((sprite(|a| &a.face, face, card - Vec2::splat(15.0)), at(0.0, 0.22), layer.clone()));
                let top = card_h / 2.0;
                if let Some(art) = &card_art {
                    let field = CardArt::stretched(&art.field, edge.with_alpha(0.35), Vec2::splat(150.0));
                    c.spawn((field, at(top - 140.0, 0.25), layer.clone()));
                }
                c.spawn((
                    Text2d::new(revealed.kind.to_uppercase()),
                    font(&body_font, 13.0),
                    TextColor(CARD_LORE.sprite()),
                    at(top - 22.0, 0.3),
                    layer.clone(),
                ));
                c.spawn((
                    Text2d::new(revealed.title.clone()),
                    font(&title_font, 28.0),
                    TextColor(CARD_GOLD.sprite()),
                    TextLayout::justify(Justify::Center),
                    TextBounds::new_horizontal(CARD.x - 24.0),
                    Anchor::TOP_CENTER,
                    at(top - 38.0, 0.3),
                    layer.clone(),
                ));
                if let Some(image) = icons.as_ref().and_then(|i| i.image(revealed.icon.0, &revealed.icon.1)) {
                    let sprite = Sprite { image, color: edge, custom_size: Some(Vec2::splat(76.0)), ..default() };
                    c.spawn((sprite, at(top - 140.0, 0.3), layer.clone()));
                }
                // The flavour follows the rules in the same text, so however
                // long the rules (a Feature's test result too) they never meet.
                let flavour =
                    if revealed.flavour.is_empty() { String::new() } else { format!("\n\n{}", revealed.flavour) };
                c.spawn((
                    Text2d::new(revealed.rules.join("\n")),
                    font(&body_font, RULES_PX),
                    TextColor(CARD_TEXT.sprite()),
                    TextLayout::justify(Justify::Left),
                    TextBounds::new_horizontal(TEXT_W),
                    Anchor::TOP_CENTER,
                    at(top - TEXT_TOP, 0.3),
                    layer.clone(),
                ))
                .with_child((
                    TextSpan::new(flavour),
                    font(&body_font, FLAVOUR_PX),
                    TextColor(CARD_LORE.sprite()),
                ));
                // The cards laid out on it, a row each, at its foot.
                let rows = revealed.rows.len();
                for (r, row) in revealed.rows.iter().enumerate() {
                    let y = -card_h / 2.0 + 12.0 + (rows - r) as f32 * ROW_H - ROW_H / 2.0;
                    let left = x - CARD.x / 2.0 + 16.0;
                    let sum: u16 = row.values.iter().map(|&v| u16::from(v)).sum();
                    let small = |t: String, px: f32, dx: f32, color: Color| {
                        (
                            Text2d::new(t),
                            font(&body_font, px),
                            TextColor(color),
                            Anchor::CENTER_LEFT,
                            Transform::from_xyz(left + dx, y, 0.4),
                            layer.clone(),
                        )
                    };
                    c.spawn(small(row.label.clone(), 15.0, 0.0, CARD_TEXT.sprite()));
                    for (i, v) in row.values.iter().enumerate() {
                        let cx = left + 78.0 + i as f32 * (MINI.x + 6.0) + MINI.x / 2.0;
                        let at = |z: f32| Transform::from_xyz(cx, y, z);
                        c.spawn((
                            Sprite::from_color(HERO_EDGE.sprite(), MINI + Vec2::splat(4.0)),
                            at(0.3),
                            layer.clone(),
                        ));
                        c.spawn((Sprite::from_color(HERO_CARD.sprite(), MINI), at(0.35), layer.clone()));
                        c.spawn((
                            Text2d::new(v.to_string()),
                            font(&title_font, 24.0),
                            TextColor(CARD_TEXT.sprite()),
                            at(0.4),
                            layer.clone(),
                        ));
                    }
                    let after = 78.0 + row.values.len() as f32 * (MINI.x + 6.0) + 4.0;
                    c.spawn(small(format!("= {sum}"), 17.0, after, CARD_GOLD.sprite()));
                }
            }
            // On a plate of its own: laid straight on the table it was read
            // over the hand cards under it.
            c.spawn((
                Sprite::from_color(crate::theme::palette::POPUP.sprite_alpha(0.94), Vec2::new(300.0, 26.0)),
                Transform::from_xyz(0.0, -card_h / 2.0 - 22.0, 0.25),
                layer.clone(),
            ));
            c.spawn((
                Text2d::new("Click or press Space to continue"),
                font(&body_font, 14.0),
                TextColor(CARD_MUTED.sprite()),
                Transform::from_xyz(0.0, -card_h / 2.0 - 22.0, 0.3),
                layer.clone(),
            ));
        });
}

/// A revealed card's face and frame colours, by its kind: a Monster's and
/// its Power's red, the Ecology's cards gold-brown, what a Hero gains in the
/// Heroes' blue.
fn reveal_tones(family: Family) -> (Tone, Tone) {
    use crate::theme::palette::{ECOLOGY_CARD, ECOLOGY_EDGE, MONSTER_CARD, MONSTER_EDGE};
    match family {
        Family::Monster => (MONSTER_CARD, MONSTER_EDGE),
        Family::Ecology | Family::Test => (ECOLOGY_CARD, ECOLOGY_EDGE),
        Family::Hero => (HERO_CARD, HERO_EDGE),
    }
}

const RULES_PX: f32 = 15.0;
/// A laid-out card, and the height of its row.
const MINI: Vec2 = Vec2::new(34.0, 46.0);
const ROW_H: f32 = 58.0;
const FLAVOUR_PX: f32 = 13.0;
/// Where the rules text starts under a card's top, and its width.
const TEXT_TOP: f32 = 186.0;
const TEXT_W: f32 = CARD.x - 32.0;

/// How tall a revealed card must be for all its text (estimated a line
/// long, so it errs taller).
pub fn card_height(card: &RevealCard) -> f32 {
    let lines = |t: &str, px: f32| (super::layout::lines_for(t, TEXT_W * 0.92, px) + 1) as f32 * px * 1.3;
    let mut h = TEXT_TOP + lines(&card.rules.join("\n"), RULES_PX) + 20.0;
    if !card.flavour.is_empty() {
        h += RULES_PX * 1.3 + lines(&card.flavour, FLAVOUR_PX);
    }
    // The laid-out cards take their own room under the words.
    h.max(CARD.y) + card.rows.len() as f32 * ROW_H
}

/// The whole reveal's size: `n` cards side by side and the prompt under them
/// (as much room above as below, so its centre is the cards' centre).
fn reveal_size(n: usize, card_h: f32) -> Vec2 {
    Vec2::new(n as f32 * (CARD.x + 16.0) - 10.0, card_h + 2.0 * 36.0)
}

/// Its centre and scale in `room` (screen px): as large as fits, at most full size.
pub fn fit_reveal(size: Vec2, room: Rect) -> (Vec2, f32) {
    let scale = ((room.width() - 24.0) / size.x).min((room.height() - 12.0) / size.y).clamp(0.05, 1.0);
    (room.center(), scale)
}

/// The part of `area` a reveal of `size` is largest in, clear of `dialogs`
/// (screen px): the whole area if none lies over it, else the room above,
/// below, left or right of them.
pub fn room_for_reveal(size: Vec2, area: Rect, dialogs: &[Rect]) -> Rect {
    let over: Vec<Rect> = dialogs.iter().map(|d| d.intersect(area)).filter(|d| !d.is_empty()).collect();
    if over.is_empty() {
        return area;
    }
    let cover = over.iter().fold(over[0], |a, d| a.union(*d));
    let candidates = [
        Rect::new(area.min.x, area.min.y, area.max.x, cover.min.y),
        Rect::new(area.min.x, cover.max.y, area.max.x, area.max.y),
        Rect::new(area.min.x, area.min.y, cover.min.x, area.max.y),
        Rect::new(cover.max.x, area.min.y, area.max.x, area.max.y),
    ];
    candidates
        .into_iter()
        .filter(|r| r.width() > 40.0 && r.height() > 40.0)
        .max_by(|a, b| fit_reveal(size, *a).1.total_cmp(&fit_reveal(size, *b).1))
        .unwrap_or(area)
}

/// Keeps the reveal where no egui dialog (a window) lies: egui is drawn over
/// the cards, so a card under a dialog could not be read.
fn place_reveal(
    mut reveal: Query<(&RevealSize, &mut Transform)>,
    mut shown: Query<&mut Visibility, With<RevealSet>>,
    mut geometry: ResMut<TableGeometry>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut contexts: bevy_egui::EguiContexts,
) {
    let Ok((size, mut transform)) = reveal.single_mut() else {
        if geometry.reveal.is_some() {
            geometry.reveal = None;
        }
        return;
    };
    let screen = Vec2::new(window.width(), window.height());
    let area = geometry.layout.as_ref().map_or(Rect::from_corners(Vec2::ZERO, screen), |l| l.area);
    let mut dialogs = Vec::new();
    if let Ok(ctx) = contexts.ctx_mut() {
        // egui points to the window's logical px.
        let k = ctx.pixels_per_point() / window.scale_factor();
        ctx.memory(|m| {
            for layer in m.layer_ids() {
                if layer.order != bevy_egui::egui::Order::Middle || !m.areas().is_visible(&layer) {
                    continue;
                }
                if let Some(r) = m.area_rect(layer.id) {
                    dialogs.push(Rect::new(r.min.x * k, r.min.y * k, r.max.x * k, r.max.y * k));
                }
            }
        });
    }
    let (center, scale) = fit_reveal(size.0, room_for_reveal(size.0, area, &dialogs));
    // Too small to read beside a dialog: the dialog shows the cards' words,
    // and the reveal (with its veil) waits behind it until it closes.
    let visible =
        if scale < LEAST_READABLE && !dialogs.is_empty() { Visibility::Hidden } else { Visibility::Inherited };
    for mut v in &mut shown {
        if *v != visible {
            *v = visible;
        }
    }
    // Where it lies, for the notes to keep off it (a "went through the
    // Secret Passage" note covered the Monster card's words).
    let rect = (visible != Visibility::Hidden).then(|| Rect::from_center_size(center, size.0 * scale));
    if geometry.reveal != rect {
        geometry.reveal = rect;
    }
    let target = to_world(center, screen).extend(transform.translation.z);
    if transform.translation.distance(target) > 0.5 || (transform.scale.x - scale).abs() > 0.005 {
        transform.translation = target;
        transform.scale = Vec3::new(scale, scale, 1.0);
    }
}

/// Puts the revealed cards away.
fn dismiss(commands: &mut Commands, shown: &Query<Entity, With<RevealSet>>) {
    for e in shown {
        commands.entity(e).despawn();
    }
}

fn dismiss_on_click(
    ev: On<Pointer<Click>>,
    mut commands: Commands,
    shown: Query<Entity, With<RevealSet>>,
    (egui, press): (Res<bevy_egui::input::EguiWantsInput>, Res<crate::game::focus::PressOverPanel>),
) {
    if super::pointer::tables(ev.event.button, &egui, &press) {
        dismiss(&mut commands, &shown);
    }
}

fn dismiss_with_space(keys: Res<ButtonInput<KeyCode>>, mut commands: Commands, shown: Query<Entity, With<RevealSet>>) {
    if keys.just_pressed(KeyCode::Space) && !shown.is_empty() {
        dismiss(&mut commands, &shown);
    }
}
