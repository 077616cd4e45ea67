//! Loading the game's cards and tiles from the JSON files in `assets/content/`.
//!
//! A malformed file is reported with the file's name, the card and the reason,
//! never a panic. [`Content::from_files`] checks structure and references;
//! [`Content::count_problems`] compares the set with the rulebook's Components.

use std::collections::{BTreeMap, BTreeSet};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::Ecology;
use crate::effect::{Ability, Activation, Effect, all_effects};
use crate::feature::{FeatureCard, ReferenceCard};
use crate::hero::{AbilityCard, HeroClass, HeroMat, ItemCard};
use crate::legendary_location::{LegendaryCard, PileLabel};
use crate::map::{MapTile, RunePattern, TileKind};
use crate::monster::{EntityPart, EntityPartCard, EntityTailCard, MonsterCard};

/// A content problem, naming the file and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentError {
    pub file: String,
    pub kind: ContentErrorKind,
}

/// What is wrong with a content file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContentErrorKind {
    /// The file is not among those given.
    Missing,
    /// The file could not be read from disk.
    Unreadable(String),
    /// Not JSON, or not the shape the file must have.
    Parse { line: usize, column: usize, message: String },
    /// Two cards (in any files) share an id.
    Duplicate { id: String },
    /// A card names an Item or Monster that does not exist (`what` says which kind).
    UnknownReference { card: String, what: &'static str, id: String },
    /// A Feature gives an Item that is not a limited-use one: "Chests and
    /// Legendary Locations are the only places to find Items", and "Some
    /// Features … provide Items with limited numbers of uses". `item` is
    /// `None` for a `draw_item` (an Item from the Item Cards).
    FeatureItem { card: String, item: Option<String> },
    /// Any other broken rule (naming the card, where there is one).
    Invalid(String),
}

impl std::fmt::Display for ContentErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ContentErrorKind::Missing => write!(f, "file is missing"),
            ContentErrorKind::Unreadable(why) => write!(f, "cannot read: {why}"),
            ContentErrorKind::Parse { line: 0, message, .. } => write!(f, "{message}"),
            ContentErrorKind::Parse { line, column, message } => write!(f, "{message} at line {line} column {column}"),
            ContentErrorKind::Duplicate { id } => write!(f, "duplicate id \"{id}\""),
            ContentErrorKind::UnknownReference { card, what, id } => write!(f, "{card}: unknown {what} \"{id}\""),
            ContentErrorKind::FeatureItem { card, item: None } => write!(
                f,
                "{card}: a Feature cannot draw an Item (only Chests and Legendary Locations give Items from the Item \
                 Cards); give a limited-use Item with gain_item"
            ),
            ContentErrorKind::FeatureItem { card, item: Some(item) } => {
                write!(f, "{card}: a Feature gives only limited-use Items, and \"{item}\" has no uses")
            }
            ContentErrorKind::Invalid(why) => write!(f, "{why}"),
        }
    }
}

impl std::fmt::Display for ContentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.kind)
    }
}

impl std::error::Error for ContentError {}

impl ContentError {
    pub fn new(file: &str, kind: ContentErrorKind) -> ContentError {
        ContentError { file: file.to_string(), kind }
    }

    /// A broken rule in `file` ([`ContentErrorKind::Invalid`]).
    pub fn invalid(file: &str, reason: impl Into<String>) -> ContentError {
        ContentError::new(file, ContentErrorKind::Invalid(reason.into()))
    }
}

fn err(file: &str, reason: impl Into<String>) -> ContentError {
    ContentError::invalid(file, reason)
}

/// Parses one content file, naming it in any error.
pub fn parse<T: DeserializeOwned>(file: &str, text: &str) -> Result<T, ContentError> {
    serde_json::from_str(text).map_err(|e| {
        let (line, column, message) = json_position(&e);
        ContentError::new(file, ContentErrorKind::Parse { line, column, message })
    })
}

/// A class's Item Cards, Ability Cards and Item Action Cards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassDeck {
    pub items: Vec<ItemCard>,
    pub abilities: Vec<AbilityCard>,
    /// Values of the Item Action Cards (chest icon).
    pub item_action_cards: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lore {
    pub name: String,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FinalEntityContent {
    pub head_1: Vec<EntityPartCard>,
    pub head_2: Vec<EntityPartCard>,
    pub body: Vec<EntityPartCard>,
    pub tail: EntityTailCard,
    pub lore: Lore,
}

/// Everything belonging to one Ecology.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EcologyContent {
    pub ecology: Ecology,
    pub tiles: Vec<MapTile>,
    pub monsters: Vec<MonsterCard>,
    pub features: Vec<FeatureCard>,
    pub patterns: Vec<RunePattern>,
    pub legendary: Vec<LegendaryCard>,
    pub stair_guardians: Vec<MonsterCard>,
    pub reference: ReferenceCard,
}

/// Every card the game knows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Content {
    pub heroes: Vec<HeroMat>,
    pub classes: BTreeMap<String, ClassDeck>,
    /// Items found only at Features and Legendary Locations.
    pub treasures: Vec<ItemCard>,
    pub ecologies: Vec<EcologyContent>,
    pub final_entity: FinalEntityContent,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HeroesFile {
    heroes: Vec<HeroMat>,
}
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TreasuresFile {
    items: Vec<ItemCard>,
}
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TilesFile {
    tiles: Vec<MapTile>,
}
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MonstersFile {
    monsters: Vec<MonsterCard>,
}
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FeaturesFile {
    features: Vec<FeatureCard>,
}
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LegendaryFile {
    cards: Vec<LegendaryCard>,
}
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PatternsFile {
    patterns: Vec<RunePattern>,
}
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GuardiansFile {
    stair_guardians: Vec<MonsterCard>,
}

fn eco_dir(e: Ecology) -> &'static str {
    match e {
        Ecology::Ruins => "ruins",
        Ecology::Caverns => "caverns",
        Ecology::Subterranean => "subterranean",
    }
}

/// The Map Tiles file of an Ecology.
pub fn tiles_file(e: Ecology) -> String {
    format!("{}/tiles.json", eco_dir(e))
}

pub const CLASSES: [(HeroClass, &str); 3] =
    [(HeroClass::Fighter, "fighter"), (HeroClass::Wizard, "wizard"), (HeroClass::Rogue, "rogue")];

/// Every content file, by its path under `assets/content/`.
pub fn file_names() -> Vec<String> {
    let mut names: Vec<String> =
        ["heroes.json", "treasures.json", "final_entity.json"].iter().map(|s| s.to_string()).collect();
    names.extend(CLASSES.iter().map(|(_, c)| format!("classes/{c}.json")));
    for e in Ecology::ALL {
        for f in
            ["tiles", "monsters", "features", "rune_patterns", "legendary_locations", "stair_guardians", "reference"]
        {
            names.push(format!("{}/{f}.json", eco_dir(e)));
        }
    }
    names
}

macro_rules! builtin {
    ($($path:literal),* $(,)?) => {
        &[$(($path, include_str!(concat!("../../../assets/content/", $path)))),*]
    };
}

/// The files as shipped with the game (the same list as [`file_names`]).
pub const BUILTIN_FILES: &[(&str, &str)] = builtin!(
    "heroes.json",
    "treasures.json",
    "final_entity.json",
    "classes/fighter.json",
    "classes/wizard.json",
    "classes/rogue.json",
    "ruins/tiles.json",
    "ruins/monsters.json",
    "ruins/features.json",
    "ruins/rune_patterns.json",
    "ruins/legendary_locations.json",
    "ruins/stair_guardians.json",
    "ruins/reference.json",
    "caverns/tiles.json",
    "caverns/monsters.json",
    "caverns/features.json",
    "caverns/rune_patterns.json",
    "caverns/legendary_locations.json",
    "caverns/stair_guardians.json",
    "caverns/reference.json",
    "subterranean/tiles.json",
    "subterranean/monsters.json",
    "subterranean/features.json",
    "subterranean/rune_patterns.json",
    "subterranean/legendary_locations.json",
    "subterranean/stair_guardians.json",
    "subterranean/reference.json",
);

/// Effects only Monsters use.
fn monster_only(e: &Effect) -> bool {
    matches!(e, Effect::HealMonster { .. } | Effect::ResistNonMagic | Effect::MonsterCardBonus { .. })
}

/// Effects a Monster's ability may have.
fn monster_may(e: &Effect) -> bool {
    monster_only(e)
        || matches!(
            e,
            Effect::DamageHeroes { .. }
                | Effect::PlayOneCardNextRound { .. }
                | Effect::LoseStoredPower { .. }
                | Effect::Armor { .. }
        )
}

impl Content {
    /// Builds the content from `(path, text)` pairs, validating every card.
    pub fn from_files(files: &[(&str, &str)]) -> Result<Content, ContentError> {
        let text = |name: &str| -> Result<&str, ContentError> {
            files
                .iter()
                .find(|(f, _)| *f == name)
                .map(|(_, t)| *t)
                .ok_or_else(|| ContentError::new(name, ContentErrorKind::Missing))
        };
        let heroes: HeroesFile = parse("heroes.json", text("heroes.json")?)?;
        let treasures: TreasuresFile = parse("treasures.json", text("treasures.json")?)?;
        let final_entity: FinalEntityContent = parse("final_entity.json", text("final_entity.json")?)?;
        let mut classes = BTreeMap::new();
        for (_, c) in CLASSES {
            let name = format!("classes/{c}.json");
            classes.insert(c.to_string(), parse::<ClassDeck>(&name, text(&name)?)?);
        }
        let mut ecologies = Vec::new();
        for e in Ecology::ALL {
            let d = eco_dir(e);
            let path = |f: &str| format!("{d}/{f}.json");
            let tiles: TilesFile = parse(&path("tiles"), text(&path("tiles"))?)?;
            let monsters: MonstersFile = parse(&path("monsters"), text(&path("monsters"))?)?;
            let features: FeaturesFile = parse(&path("features"), text(&path("features"))?)?;
            let legendary: LegendaryFile = parse(&path("legendary_locations"), text(&path("legendary_locations"))?)?;
            let patterns: PatternsFile = parse(&path("rune_patterns"), text(&path("rune_patterns"))?)?;
            let guardians: GuardiansFile = parse(&path("stair_guardians"), text(&path("stair_guardians"))?)?;
            let reference: ReferenceCard = parse(&path("reference"), text(&path("reference"))?)?;
            ecologies.push(EcologyContent {
                ecology: e,
                tiles: tiles.tiles,
                monsters: monsters.monsters,
                features: features.features,
                patterns: patterns.patterns,
                legendary: legendary.cards,
                stair_guardians: guardians.stair_guardians,
                reference,
            });
        }
        let content = Content { heroes: heroes.heroes, classes, treasures: treasures.items, ecologies, final_entity };
        content.validate()?;
        Ok(content)
    }

    /// Reads the files from a content folder on disk (for modding and the client).
    pub fn load_dir(dir: &std::path::Path) -> Result<Content, ContentError> {
        let mut owned = Vec::new();
        for name in file_names() {
            let path = dir.join(&name);
            let text = std::fs::read_to_string(&path)
                .map_err(|e| ContentError::new(&name, ContentErrorKind::Unreadable(e.to_string())))?;
            owned.push((name, text));
        }
        let files: Vec<(&str, &str)> = owned.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
        Content::from_files(&files)
    }

    /// Just the Hero Mats compiled into the game.
    pub fn builtin_heroes() -> Result<Vec<HeroMat>, ContentError> {
        let text = BUILTIN_FILES.iter().find(|(f, _)| *f == "heroes.json").map_or("", |(_, t)| *t);
        Ok(parse::<HeroesFile>("heroes.json", text)?.heroes)
    }

    /// The content compiled into the game.
    pub fn builtin() -> Result<Content, ContentError> {
        Content::from_files(BUILTIN_FILES)
    }

    pub fn hero(&self, id: &str) -> Option<&HeroMat> {
        self.heroes.iter().find(|h| h.id == id)
    }

    pub fn class_deck(&self, class: HeroClass) -> &ClassDeck {
        &self.classes[CLASSES.iter().find(|(c, _)| *c == class).map(|(_, n)| *n).unwrap_or("fighter")]
    }

    pub fn ecology(&self, e: Ecology) -> &EcologyContent {
        &self.ecologies[e as usize]
    }

    /// Any Item by id: class decks first, then treasures.
    pub fn item(&self, id: &str) -> Option<&ItemCard> {
        self.classes.values().flat_map(|c| c.items.iter()).chain(self.treasures.iter()).find(|i| i.id == id)
    }

    /// A card's rules text as players read it: like [`Effect::text`], with
    /// Item and Monster names in place of their ids.
    pub fn effect_text(&self, effects: &[Effect]) -> String {
        let monster = |id: &str| {
            self.ecologies
                .iter()
                .flat_map(|e| e.monsters.iter().chain(&e.stair_guardians))
                .find(|m| m.id == id)
                .map_or(id.to_string(), |m| m.name.clone())
        };
        let one = |e: &Effect| match e {
            Effect::GainItem { item } => {
                format!("One Hero gains the Item \"{}\".", self.item(item).map_or(item.as_str(), |i| i.name.as_str()))
            }
            Effect::FightNamedMonster { monster: m } => format!("Enter into Combat with \"{}\".", monster(m)),
            Effect::ShuffleIntoMonsters { monster: m } => format!("Shuffle \"{}\" into the Monster deck.", monster(m)),
            Effect::Test { target, cards, success, failure } => {
                let list =
                    |v: &[Effect]| if v.is_empty() { "nothing happens.".to_string() } else { self.effect_text(v) };
                format!(
                    "Test: each Hero draws and plays {cards} Action Card(s); total {}/{}/{}. Success: {} Failure: {}",
                    target[0],
                    target[1],
                    target[2],
                    list(success),
                    list(failure)
                )
            }
            other => other.text(),
        };
        effects.iter().map(one).collect::<Vec<_>>().join(" ")
    }

    /// Structure, ids and references; counts are [`Content::count_problems`].
    fn validate(&self) -> Result<(), ContentError> {
        let mut ids = BTreeSet::new();
        let mut unique = |file: &str, id: &str| -> Result<(), ContentError> {
            if ids.insert(id.to_string()) {
                Ok(())
            } else {
                Err(ContentError::new(file, ContentErrorKind::Duplicate { id: id.to_string() }))
            }
        };
        let hero_ability = |file: &str, owner: &str, a: &Ability| -> Result<(), ContentError> {
            a.validate().map_err(|r| err(file, format!("{owner}: {r}")))?;
            if let Some(e) = a.effects.iter().find(|e| monster_only(e)) {
                return Err(err(file, format!("{owner}: ability \"{}\" uses a Monster-only effect {e:?}", a.name)));
            }
            Ok(())
        };
        for mat in &self.heroes {
            unique("heroes.json", &mat.id)?;
            if mat.max_health.contains(&0) || mat.max_health.windows(2).any(|w| w[0] > w[1]) {
                return Err(err("heroes.json", format!("hero {}: max health must be above 0 and never fall", mat.id)));
            }
            for a in &mat.abilities {
                hero_ability("heroes.json", &mat.id, a)?;
            }
        }
        for (class, name) in CLASSES {
            let file = format!("classes/{name}.json");
            let deck = &self.classes[name];
            let mut needed: Vec<u8> = Vec::new();
            for item in &deck.items {
                unique(&file, &item.id)?;
                if item.deck != Some(class) {
                    return Err(err(&file, format!("item {}: \"deck\" must be \"{name}\"", item.id)));
                }
                self.check_item(&file, item)?;
                needed.extend(&item.add_cards);
            }
            let mut have = deck.item_action_cards.clone();
            for v in needed {
                match have.iter().position(|h| *h == v) {
                    Some(i) => {
                        have.remove(i);
                    }
                    None => {
                        return Err(err(
                            &file,
                            format!("the Items add more Item Action Cards of value {v} than exist"),
                        ));
                    }
                }
            }
            for a in &deck.abilities {
                unique(&file, &a.id)?;
                if a.class != class {
                    return Err(err(&file, format!("ability {}: class must be {name}", a.id)));
                }
                hero_ability(&file, &a.id, &a.ability)?;
            }
        }
        for item in &self.treasures {
            unique("treasures.json", &item.id)?;
            self.check_item("treasures.json", item)?;
        }
        let fe = &self.final_entity;
        for (list, part) in
            [(&fe.head_1, EntityPart::HeadI), (&fe.head_2, EntityPart::HeadII), (&fe.body, EntityPart::Body)]
        {
            for p in list {
                unique("final_entity.json", &p.id)?;
                if p.part != part || p.health.contains(&0) {
                    return Err(err("final_entity.json", format!("part {}: wrong part or zero health", p.id)));
                }
                self.check_monster_abilities("final_entity.json", &p.id, &p.abilities)?;
            }
        }
        unique("final_entity.json", &fe.tail.id)?;
        self.check_monster_abilities("final_entity.json", &fe.tail.id, &fe.tail.abilities)?;
        for eco in &self.ecologies {
            let d = eco_dir(eco.ecology);
            self.validate_ecology(eco, d, &mut unique)?;
        }
        Ok(())
    }

    fn check_item(&self, file: &str, item: &ItemCard) -> Result<(), ContentError> {
        if item.hands > 2 {
            return Err(err(file, format!("item {}: at most 2 hands", item.id)));
        }
        if usize::from(item.remove_cards) > item.add_cards.len() + 14 {
            return Err(err(file, format!("item {}: removes too many cards", item.id)));
        }
        for a in &item.abilities {
            a.validate().map_err(|r| err(file, format!("item {}: {r}", item.id)))?;
        }
        Ok(())
    }

    fn check_monster_abilities(&self, file: &str, id: &str, abilities: &[Ability]) -> Result<(), ContentError> {
        for a in abilities {
            a.validate().map_err(|r| err(file, format!("{id}: {r}")))?;
            if a.activation == Activation::Block {
                return Err(err(file, format!("{id}: Monsters have no Block-Activated abilities")));
            }
            if let Some(e) = a.effects.iter().find(|e| !monster_may(e)) {
                return Err(err(file, format!("{id}: ability \"{}\" uses {e:?}, which Monsters cannot", a.name)));
            }
        }
        Ok(())
    }

    fn check_card_effects(
        &self,
        file: &str,
        id: &str,
        effects: &[Effect],
        eco: &EcologyContent,
        letters: &BTreeSet<char>,
    ) -> Result<(), ContentError> {
        for e in all_effects(effects) {
            let unknown = |what: &'static str, name: &str| {
                let kind = ContentErrorKind::UnknownReference { card: id.to_string(), what, id: name.to_string() };
                Err(ContentError::new(file, kind))
            };
            let bad = match e {
                Effect::GainItem { item } if self.item(item).is_none() => return unknown("item", item),
                Effect::FightNamedMonster { monster }
                    if !eco.monsters.iter().chain(&eco.stair_guardians).any(|m| &m.id == monster) =>
                {
                    return unknown("monster", monster);
                }
                Effect::ShuffleIntoMonsters { monster }
                    if !eco.monsters.iter().any(|m| &m.id == monster && m.set_aside) =>
                {
                    return unknown("set-aside Monster of this Ecology", monster);
                }
                Effect::GoToPile { letter } if !letters.contains(letter) => {
                    Some(format!("pile {letter} does not exist in this pattern"))
                }
                Effect::Test { target, cards, .. } if *cards == 0 || target.contains(&0) => {
                    Some("a test needs cards and targets above 0".to_string())
                }
                e if monster_only(e) => Some(format!("{e:?} is for Monsters only")),
                _ => None,
            };
            if let Some(reason) = bad {
                return Err(err(file, format!("{id}: {reason}")));
            }
        }
        Ok(())
    }

    /// "Chests and Legendary Locations are the only places to find Items", and
    /// "Some Features and Legendary Locations provide Items with limited
    /// numbers of uses": a Feature draws no Item from the Item Cards and gains
    /// only Items with `uses`, however deep in its tests.
    fn check_feature_items(&self, file: &str, card: &FeatureCard) -> Result<(), ContentError> {
        for e in all_effects(&card.effects) {
            let item = match e {
                Effect::DrawItem => None,
                Effect::GainItem { item } if self.item(item).is_some_and(|i| i.uses.is_none()) => Some(item.clone()),
                _ => continue,
            };
            return Err(ContentError::new(file, ContentErrorKind::FeatureItem { card: card.id.clone(), item }));
        }
        Ok(())
    }

    fn validate_ecology(
        &self,
        eco: &EcologyContent,
        d: &str,
        unique: &mut impl FnMut(&str, &str) -> Result<(), ContentError>,
    ) -> Result<(), ContentError> {
        let tiles_file = format!("{d}/tiles.json");
        for t in &eco.tiles {
            unique(&tiles_file, &t.id)?;
            t.validate().map_err(|e| err(&tiles_file, e.to_string()))?;
            if t.ecology != eco.ecology {
                return Err(err(&tiles_file, format!("tile {} belongs to another Ecology", t.id)));
            }
        }
        for kind in [TileKind::Entry, TileKind::Stairs] {
            let n = eco.tiles.iter().filter(|t| t.kind == kind).count();
            // An Ecology still being authored may have no tiles; count_problems reports that.
            if n > 1 || (n == 0 && !eco.tiles.is_empty()) {
                return Err(err(&tiles_file, format!("needs exactly one {kind:?} tile, found {n}")));
            }
        }
        let monsters_file = format!("{d}/monsters.json");
        for m in &eco.monsters {
            unique(&monsters_file, &m.id)?;
            m.validate().map_err(|r| err(&monsters_file, r))?;
            self.check_monster_abilities(&monsters_file, &m.id, &m.abilities)?;
            if !(1..=60).contains(&m.health[2]) || m.xp > 10 {
                return Err(err(&monsters_file, format!("monster {}: health or XP out of range", m.id)));
            }
        }
        let guardians_file = format!("{d}/stair_guardians.json");
        for m in &eco.stair_guardians {
            unique(&guardians_file, &m.id)?;
            m.validate().map_err(|r| err(&guardians_file, r))?;
            self.check_monster_abilities(&guardians_file, &m.id, &m.abilities)?;
        }
        let features_file = format!("{d}/features.json");
        let none = BTreeSet::new();
        for f in &eco.features {
            unique(&features_file, &f.id)?;
            self.check_card_effects(&features_file, &f.id, &f.effects, eco, &none)?;
            self.check_feature_items(&features_file, f)?;
        }
        let ll_file = format!("{d}/legendary_locations.json");
        let patterns_file = format!("{d}/rune_patterns.json");
        let mut pattern_numbers = BTreeSet::new();
        for p in &eco.patterns {
            p.validate().map_err(|e| err(&patterns_file, format!("pattern {}: {e:?}", p.id)))?;
            let n: u8 =
                p.id.parse().map_err(|_| err(&patterns_file, format!("pattern id \"{}\" must be a number", p.id)))?;
            pattern_numbers.insert(n);
        }
        let mut labels = Vec::new();
        for c in &eco.legendary {
            unique(&ll_file, &c.id)?;
            let l = c.label().map_err(|r| err(&ll_file, format!("{}: {r}", c.id)))?;
            if !pattern_numbers.contains(&l.number) {
                return Err(err(&ll_file, format!("{}: no Rune Pattern {}", c.id, l.number)));
            }
            labels.push((l, c));
        }
        for &n in &pattern_numbers {
            let of: Vec<&(PileLabel, &LegendaryCard)> = labels.iter().filter(|(l, _)| l.number == n).collect();
            if !of.iter().any(|(l, _)| l.letter.is_none()) {
                return Err(err(&ll_file, format!("pattern {n} has no number-only card to start from")));
            }
            let letters: BTreeSet<char> = of.iter().filter_map(|(l, _)| l.letter).collect();
            for letter in &letters {
                let mut romans: Vec<u8> =
                    of.iter().filter(|(l, _)| l.letter == Some(*letter)).filter_map(|(l, _)| l.roman).collect();
                romans.sort_unstable();
                romans.dedup();
                if romans.first() != Some(&1) || romans.windows(2).any(|w| w[1] != w[0] + 1) {
                    return Err(err(&ll_file, format!("pile {n}{letter}: roman numerals must run I, II, III…")));
                }
            }
            for (_, c) in &of {
                if let Some(next) = c.next
                    && !letters.contains(&next)
                {
                    return Err(err(&ll_file, format!("{}: its letter {next} leads to no pile", c.id)));
                }
                self.check_card_effects(&ll_file, &c.id, &c.effects, eco, &letters)?;
            }
        }
        if eco.reference.ecology != eco.ecology {
            return Err(err(&format!("{d}/reference.json"), "names another Ecology"));
        }
        Ok(())
    }

    /// Differences from the rulebook's "Components" and the published set
    /// (empty when the set is complete).
    pub fn count_problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut expect = |what: String, got: usize, want: usize| {
            if got != want {
                out.push(format!("{what}: {got}, expected {want}"));
            }
        };
        for (eco, monsters, ll, guardians) in
            [(Ecology::Ruins, 10, 30, 3), (Ecology::Caverns, 11, 30, 3), (Ecology::Subterranean, 10, 21, 0)]
        {
            let c = self.ecology(eco);
            let d = eco_dir(eco);
            let census = c.census();
            expect(format!("{d} map tiles"), c.tiles.len(), 24);
            expect(format!("{d} monsters"), c.monsters.len(), monsters);
            expect(format!("{d} features"), c.features.len(), 10);
            expect(format!("{d} legendary location cards"), c.legendary.len(), ll);
            expect(format!("{d} rune patterns"), c.patterns.len(), 4);
            expect(format!("{d} stair guardians"), c.stair_guardians.len(), guardians);
            expect(format!("{d} chests"), census["chests"], 2);
            expect(format!("{d} campfires"), census["campfires"], 1);
        }
        let fe = &self.final_entity;
        expect("final entity head I cards".into(), fe.head_1.len(), 3);
        expect("final entity head II cards".into(), fe.head_2.len(), 3);
        expect("final entity body cards".into(), fe.body.len(), 3);
        for (class, name) in CLASSES {
            let deck = self.class_deck(class);
            expect(format!("{name} items"), deck.items.len(), 8);
            expect(format!("{name} abilities"), deck.abilities.len(), 8);
            let want = match class {
                HeroClass::Rogue => 9,
                _ => 12,
            };
            expect(format!("{name} item action cards"), deck.item_action_cards.len(), want);
        }
        expect("alternate heroes".into(), self.heroes.iter().filter(|h| h.secondary_class.is_some()).count(), 3);
        expect("limited-use tokens".into(), self.limited_use_tokens(), 22);
        expect("fabled blades".into(), self.treasures.iter().filter(|i| i.fabled_blade).count(), 2);
        out
    }

    pub fn limited_use_tokens(&self) -> usize {
        self.classes
            .values()
            .flat_map(|c| c.items.iter())
            .chain(self.treasures.iter())
            .filter(|i| !i.fabled_blade)
            .map(|i| usize::from(i.uses.unwrap_or(0)))
            .sum()
    }

    /// Counts read from the data, for `depths-sim census`.
    pub fn census(&self) -> serde_json::Value {
        let mut root = serde_json::Map::new();
        for eco in &self.ecologies {
            let c = eco.census();
            root.insert(
                eco_dir(eco.ecology).to_string(),
                serde_json::json!({
                    "tiles": eco.tiles.len(),
                    "monsters": eco.monsters.len(),
                    "features": eco.features.len(),
                    "legendary_location_cards": eco.legendary.len(),
                    "rune_patterns": eco.patterns.len(),
                    "stair_guardians": eco.stair_guardians.len(),
                    "chests": c["chests"],
                    "campfires": c["campfires"],
                }),
            );
        }
        let fe = &self.final_entity;
        root.insert(
            "final_entity".into(),
            serde_json::json!({"head_1": fe.head_1.len(), "head_2": fe.head_2.len(), "body": fe.body.len(), "tail": 1, "lore": 1}),
        );
        let mut heroes = serde_json::Map::new();
        for mat in self.heroes.iter().filter(|h| h.secondary_class.is_none()) {
            let deck = self.class_deck(mat.class);
            heroes.insert(
                mat.id.clone(),
                serde_json::json!({
                    "items": deck.items.len(),
                    "abilities": deck.abilities.len(),
                    "item_action_cards": deck.item_action_cards.len(),
                    "action_cards": 12 + usize::from(mat.class.power_cards()),
                }),
            );
        }
        root.insert("heroes".into(), serde_json::Value::Object(heroes));
        root.insert(
            "alternate_heroes".into(),
            self.heroes.iter().filter(|h| h.secondary_class.is_some()).count().into(),
        );
        root.insert("limited_use_tokens".into(), self.limited_use_tokens().into());
        root.insert("fabled_blades".into(), self.treasures.iter().filter(|i| i.fabled_blade).count().into());
        serde_json::Value::Object(root)
    }
}

impl EcologyContent {
    fn census(&self) -> BTreeMap<&'static str, usize> {
        use crate::map::Element;
        let mut chests = 0;
        let mut campfires = 0;
        for t in &self.tiles {
            for a in &t.areas {
                for e in &a.elements {
                    match e {
                        Element::Chest => chests += 1,
                        Element::Campfire => campfires += 1,
                        _ => {}
                    }
                }
            }
        }
        BTreeMap::from([("chests", chests), ("campfires", campfires)])
    }
}

/// serde_json's message without the " at line L column C" it ends with, and the position.
pub(crate) fn json_position(e: &serde_json::Error) -> (usize, usize, String) {
    let (line, column) = (e.line(), e.column());
    let text = e.to_string();
    let suffix = format!(" at line {line} column {column}");
    let message = text.strip_suffix(&suffix).unwrap_or(&text).to_string();
    (line, column, message)
}
