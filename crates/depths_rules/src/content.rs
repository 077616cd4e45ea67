//! Loading the game's cards and tiles from the JSON files in `assets/content/`.
//!
//! A malformed file is reported with the file's name, the card and the reason —
//! every fault of every file, not only the first —
//! never a panic. [`Content::from_files`] checks structure and references;
//! [`Content::count_problems`] compares the set with the rulebook's Components.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, OnceLock};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::Ecology;
use crate::effect::{Ability, Activation, Effect, all_effects};
use crate::feature::{FeatureCard, ReferenceCard};
use crate::hero::{AbilityCard, HeroClass, HeroMat, ItemCard};
use crate::legendary_location::{LegendaryCard, LegendaryLayout, PileLabel};
use crate::map::{MapTile, PileError, RunePattern, SortedTiles, TileKind, TurnedPatterns, UsedRunes};
use crate::monster::{EntityPart, EntityPartCard, EntityTailCard, MonsterCard};
use crate::shared::Shared;

/// One thing wrong with the content: the file, the card (where there is one)
/// and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentFault {
    pub file: String,
    /// The card's id, when the fault is in one card.
    pub card: Option<String>,
    pub kind: ContentErrorKind,
}

/// Everything found wrong with the content (at least one fault): an author
/// fixes a whole batch at once instead of one fault per start of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContentError {
    pub faults: Vec<ContentFault>,
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
    /// The card's id is already used by a card in `first_file`.
    Duplicate { first_file: String },
    /// The card names an Item or Monster that does not exist (`what` says which kind).
    UnknownReference { what: &'static str, id: String },
    /// A Feature gives an Item that is not a limited-use one: "Chests and
    /// Legendary Locations are the only places to find Items", and "Some
    /// Features … provide Items with limited numbers of uses". `item` is
    /// `None` for a `draw_item` (an Item from the Item Cards).
    FeatureItem { item: Option<String> },
    /// A Map Tile breaks a rule of its Ecology (see [`crate::map::TileProblem`]).
    Tile(crate::map::TileError),
    /// Any other broken rule.
    Invalid(String),
}

impl ContentErrorKind {
    /// The file could not be had at all (as opposed to a file with bad cards):
    /// only then is the game's folder worth suspecting.
    pub fn is_missing(&self) -> bool {
        matches!(self, ContentErrorKind::Missing | ContentErrorKind::Unreadable(_))
    }
}

impl std::fmt::Display for ContentErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ContentErrorKind::Missing => write!(f, "file is missing"),
            ContentErrorKind::Unreadable(why) => write!(f, "cannot read: {why}"),
            ContentErrorKind::Parse { line: 0, message, .. } => write!(f, "{message}"),
            ContentErrorKind::Parse { line, column, message } => write!(f, "{message} at line {line} column {column}"),
            ContentErrorKind::Duplicate { first_file } => write!(f, "id already used by a card in {first_file}"),
            ContentErrorKind::UnknownReference { what, id } => write!(f, "unknown {what} \"{id}\""),
            ContentErrorKind::FeatureItem { item: None } => write!(
                f,
                "a Feature cannot draw an Item (only Chests and Legendary Locations give Items from the Item \
                 Cards); give a limited-use Item with gain_item"
            ),
            ContentErrorKind::FeatureItem { item: Some(item) } => {
                write!(f, "a Feature gives only limited-use Items, and \"{item}\" has no uses")
            }
            ContentErrorKind::Tile(e) => write!(f, "{e}"),
            ContentErrorKind::Invalid(why) => write!(f, "{why}"),
        }
    }
}

impl std::fmt::Display for ContentFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.card {
            Some(card) => write!(f, "{}: {card}: {}", self.file, self.kind),
            None => write!(f, "{}: {}", self.file, self.kind),
        }
    }
}

/// One fault per line.
impl std::fmt::Display for ContentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, fault) in self.faults.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{fault}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ContentError {}

impl ContentFault {
    pub fn new(file: &str, card: Option<&str>, kind: ContentErrorKind) -> ContentFault {
        ContentFault { file: file.to_string(), card: card.map(str::to_string), kind }
    }
}

impl ContentError {
    /// A single fault in `file`, not in any one card.
    pub fn new(file: &str, kind: ContentErrorKind) -> ContentError {
        ContentError { faults: vec![ContentFault::new(file, None, kind)] }
    }

    /// A broken rule in `file` ([`ContentErrorKind::Invalid`]).
    pub fn invalid(file: &str, reason: impl Into<String>) -> ContentError {
        ContentError::new(file, ContentErrorKind::Invalid(reason.into()))
    }

    /// Whether any file could not be had at all (see [`ContentErrorKind::is_missing`]).
    pub fn files_missing(&self) -> bool {
        self.faults.iter().any(|f| f.kind.is_missing())
    }

    /// `Err` with every fault, or `Ok` when there is none.
    fn check(faults: Vec<ContentFault>) -> Result<(), ContentError> {
        if faults.is_empty() { Ok(()) } else { Err(ContentError { faults }) }
    }
}

/// The files given to [`Content::from_files`], read one by one. A missing
/// or unparsable file is a fault, and the shipped file of the same name
/// stands in for it, so that the cards of every other file are still checked
/// (and an author sees the faults of a whole batch of edits at once).
struct Given<'a> {
    files: &'a [(&'a str, &'a str)],
    faults: Vec<ContentFault>,
    /// The files whose shipped version stands in.
    failed: BTreeSet<String>,
}

impl Given<'_> {
    /// `name` parsed, or its stand-in (`None` only if even that fails).
    fn read<T: DeserializeOwned>(&mut self, name: &str) -> Option<T> {
        match self.files.iter().find(|(f, _)| *f == name) {
            None => self.faults.push(ContentFault::new(name, None, ContentErrorKind::Missing)),
            Some((_, text)) => match parse(name, text) {
                Ok(value) => return Some(value),
                Err(e) => self.faults.extend(e.faults),
            },
        }
        self.failed.insert(name.to_string());
        parse(name, BUILTIN_FILES.iter().find(|(f, _)| *f == name)?.1).ok()
    }
}

/// Collects faults while the checks carry on past each one.
#[derive(Default)]
struct Faults(Vec<ContentFault>);

impl Faults {
    /// A broken rule in `card` of `file`.
    fn card(&mut self, file: &str, card: &str, reason: impl Into<String>) {
        self.0.push(ContentFault::new(file, Some(card), ContentErrorKind::Invalid(reason.into())));
    }

    /// A broken rule of `file` as a whole.
    fn file(&mut self, file: &str, reason: impl Into<String>) {
        self.0.push(ContentFault::new(file, None, ContentErrorKind::Invalid(reason.into())));
    }

    fn push(&mut self, file: &str, card: &str, kind: ContentErrorKind) {
        self.0.push(ContentFault::new(file, Some(card), kind));
    }
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
    /// The cards as a new game's piles hold them, sorted out at the first
    /// Game Setup and shared by every game set up from this content:
    /// copying every card and parsing every Legendary Location's label for
    /// each game was a third of a random bot's game. The content is not
    /// changed once a game is set up from it; a copy sorts its own.
    #[serde(skip)]
    decks: Decks,
}

#[derive(Default)]
struct Decks(OnceLock<DeckCards>);

impl Clone for Decks {
    fn clone(&self) -> Decks {
        Decks::default()
    }
}

/// Worked out from the cards: never what tells two contents apart.
impl PartialEq for Decks {
    fn eq(&self, _: &Decks) -> bool {
        true
    }
}

impl std::fmt::Debug for Decks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Decks")
    }
}

/// The piles of a new game before they are shuffled.
pub(crate) struct DeckCards {
    /// In the order of [`CLASSES`].
    pub(crate) classes: Vec<ClassCards>,
    /// As [`Content::ecology`] finds them.
    pub(crate) ecologies: Vec<EcologyCards>,
}

pub(crate) struct ClassCards {
    pub(crate) items: Vec<Shared<ItemCard>>,
    pub(crate) abilities: Vec<Shared<AbilityCard>>,
}

pub(crate) struct EcologyCards {
    pub(crate) tiles: Result<SortedTiles, PileError>,
    pub(crate) monsters: Vec<Shared<MonsterCard>>,
    pub(crate) set_aside_monsters: Vec<Shared<MonsterCard>>,
    pub(crate) features: Vec<Shared<FeatureCard>>,
    pub(crate) stair_guardians: Vec<Shared<MonsterCard>>,
    /// One per Rune Pattern, in the patterns' order.
    pub(crate) legendary: Vec<LegendaryLayout>,
    /// The patterns turned, for the search of their matches.
    pub(crate) turned: Arc<TurnedPatterns>,
}

impl DeckCards {
    fn new(content: &Content) -> DeckCards {
        let shared = |cards: &[MonsterCard]| cards.iter().cloned().map(Shared::new).collect();
        let classes = CLASSES
            .iter()
            .map(|&(class, _)| {
                let deck = content.class_deck(class);
                ClassCards {
                    items: deck.items.iter().cloned().map(Shared::new).collect(),
                    abilities: deck.abilities.iter().cloned().map(Shared::new).collect(),
                }
            })
            .collect();
        let ecologies = content
            .ecologies
            .iter()
            .map(|c| EcologyCards {
                tiles: SortedTiles::new(c.tiles.clone()),
                monsters: c.monsters.iter().filter(|m| !m.set_aside).cloned().map(Shared::new).collect(),
                set_aside_monsters: c.monsters.iter().filter(|m| m.set_aside).cloned().map(Shared::new).collect(),
                features: c.features.iter().cloned().map(Shared::new).collect(),
                stair_guardians: shared(&c.stair_guardians),
                legendary: c
                    .patterns
                    .iter()
                    .map(|p| LegendaryLayout::new(p.id.parse().unwrap_or(0), &c.legendary))
                    .collect(),
                turned: Arc::new(TurnedPatterns::new(&c.patterns, &UsedRunes::default())),
            })
            .collect();
        DeckCards { classes, ecologies }
    }
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

// What is wrong with one card, every fault: the content's check of its
// files, and a save's check of the cards it carries (`whole_check`).

/// A Hero Mat's faults.
pub(crate) fn mat_faults(mat: &HeroMat) -> Vec<String> {
    let mut out = Vec::new();
    if mat.max_health.contains(&0) || mat.max_health.windows(2).any(|w| w[0] > w[1]) {
        out.push(String::from("max health must be above 0 and never fall"));
    }
    out.extend(mat.abilities.iter().flat_map(hero_ability_faults));
    out
}

/// The faults of an ability printed for a Hero (a mat, an Ability Card).
pub(crate) fn hero_ability_faults(a: &Ability) -> Vec<String> {
    let mut out: Vec<String> = a.validate().err().into_iter().collect();
    if let Some(e) = a.effects.iter().find(|e| monster_only(e)) {
        out.push(format!("ability \"{}\" uses a Monster-only effect {e:?}", a.name));
    }
    out
}

/// An Item Card's faults.
pub(crate) fn item_faults(item: &ItemCard) -> Vec<String> {
    let mut out = Vec::new();
    if item.hands > 2 {
        out.push(String::from("at most 2 hands"));
    }
    if usize::from(item.remove_cards) > item.add_cards.len() + 14 {
        out.push(String::from("removes too many cards"));
    }
    out.extend(item.abilities.iter().filter_map(|a| a.validate().err()));
    out
}

/// The faults of a Monster's (or the Final Entity's) abilities.
pub(crate) fn monster_ability_faults(abilities: &[Ability]) -> Vec<String> {
    let mut out = Vec::new();
    for a in abilities {
        out.extend(a.validate().err());
        if a.activation == Activation::Block {
            out.push(String::from("Monsters have no Block-Activated abilities"));
        }
        if let Some(e) = a.effects.iter().find(|e| !monster_may(e)) {
            out.push(format!("ability \"{}\" uses {e:?}, which Monsters cannot", a.name));
        }
    }
    out
}

/// A Monster Card's faults ("Anatomy of a Monster Card").
pub(crate) fn monster_faults(m: &MonsterCard) -> Vec<String> {
    let mut out: Vec<String> = m.validate().err().into_iter().collect();
    out.extend(monster_ability_faults(&m.abilities));
    out
}

/// The faults of a Head or Body card of the Final Entity, as `part`.
pub(crate) fn entity_part_faults(p: &EntityPartCard, part: EntityPart) -> Vec<String> {
    let mut out = Vec::new();
    if p.part != part || p.health.contains(&0) {
        out.push(String::from("wrong part or zero health"));
    }
    out.extend(monster_ability_faults(&p.abilities));
    out
}

impl Content {
    /// Builds the content from `(path, text)` pairs, validating every card.
    /// Every fault is reported, not just the first: every file is parsed, and
    /// every card of the files that parse is checked too (see `Given`).
    pub fn from_files(files: &[(&str, &str)]) -> Result<Content, ContentError> {
        let mut given = Given { files, faults: Vec::new(), failed: BTreeSet::new() };
        let heroes: Option<HeroesFile> = given.read("heroes.json");
        let treasures: Option<TreasuresFile> = given.read("treasures.json");
        let final_entity: Option<FinalEntityContent> = given.read("final_entity.json");
        let mut classes = Some(BTreeMap::new());
        for (_, c) in CLASSES {
            let deck = given.read::<ClassDeck>(&format!("classes/{c}.json"));
            classes = classes.zip(deck).map(|(mut all, deck)| {
                all.insert(c.to_string(), deck);
                all
            });
        }
        let mut ecologies = Some(Vec::new());
        for e in Ecology::ALL {
            let d = eco_dir(e);
            let file = |f: &str| format!("{d}/{f}.json");
            let tiles: Option<TilesFile> = given.read(&file("tiles"));
            let monsters: Option<MonstersFile> = given.read(&file("monsters"));
            let features: Option<FeaturesFile> = given.read(&file("features"));
            let legendary: Option<LegendaryFile> = given.read(&file("legendary_locations"));
            let patterns: Option<PatternsFile> = given.read(&file("rune_patterns"));
            let guardians: Option<GuardiansFile> = given.read(&file("stair_guardians"));
            let reference: Option<ReferenceCard> = given.read(&file("reference"));
            let eco = match (tiles, monsters, features, legendary, patterns, guardians, reference) {
                (Some(t), Some(m), Some(f), Some(l), Some(p), Some(g), Some(reference)) => Some(EcologyContent {
                    ecology: e,
                    tiles: t.tiles,
                    monsters: m.monsters,
                    features: f.features,
                    patterns: p.patterns,
                    legendary: l.cards,
                    stair_guardians: g.stair_guardians,
                    reference,
                }),
                _ => None,
            };
            ecologies = ecologies.zip(eco).map(|(mut all, eco)| {
                all.push(eco);
                all
            });
        }
        let Given { mut faults, failed, .. } = given;
        let (Some(heroes), Some(treasures), Some(final_entity), Some(classes), Some(ecologies)) =
            (heroes, treasures, final_entity, classes, ecologies)
        else {
            return Err(ContentError { faults });
        };
        let content = Content {
            heroes: heroes.heroes,
            classes,
            treasures: treasures.items,
            ecologies,
            final_entity,
            decks: Decks::default(),
        };
        // With a stand-in for a bad file, a fault that may come from the
        // stand-in rather than the author's files is left out: one in the bad
        // file itself, a reference (it may name a card of the bad file), an id
        // first used in the bad file, a Legendary Location when its Ecology's
        // Rune Patterns are the stand-in.
        let from_stand_in = |f: &ContentFault| {
            failed.contains(&f.file)
                || (!failed.is_empty()
                    && matches!(
                        f.kind,
                        ContentErrorKind::UnknownReference { .. } | ContentErrorKind::FeatureItem { .. }
                    ))
                || matches!(&f.kind, ContentErrorKind::Duplicate { first_file } if failed.contains(first_file))
                || f.file
                    .strip_suffix("legendary_locations.json")
                    .is_some_and(|d| failed.contains(&format!("{d}rune_patterns.json")))
        };
        faults.extend(content.validate().into_iter().filter(|f| !from_stand_in(f)));
        ContentError::check(faults)?;
        Ok(content)
    }

    /// Reads the files from a content folder on disk (for modding and tools);
    /// every unreadable file is named.
    pub fn load_dir(dir: &std::path::Path) -> Result<Content, ContentError> {
        let mut owned = Vec::new();
        let mut faults = Vec::new();
        for name in file_names() {
            match std::fs::read_to_string(dir.join(&name)) {
                Ok(text) => owned.push((name, text)),
                Err(e) => faults.push(ContentFault::new(&name, None, ContentErrorKind::Unreadable(e.to_string()))),
            }
        }
        ContentError::check(faults)?;
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

    /// The piles of a new game before they are shuffled.
    pub(crate) fn decks(&self) -> &DeckCards {
        self.decks.0.get_or_init(|| DeckCards::new(self))
    }

    /// Any Item by id: class decks first, then treasures.
    pub fn item(&self, id: &str) -> Option<&ItemCard> {
        self.classes.values().flat_map(|c| c.items.iter()).chain(self.treasures.iter()).find(|i| i.id == id)
    }

    /// Why the content a save carries cannot be played with, if it cannot:
    /// the three Ecologies in order (play finds each by its place), then
    /// every card as [`Content::from_files`] checks it (the first fault).
    pub(crate) fn save_fault(&self) -> Option<String> {
        let ecologies = self.ecologies.iter().map(|c| c.ecology);
        if !ecologies.eq(Ecology::ALL) {
            return Some(String::from("the cards of the three Ecologies are not all there, in order"));
        }
        self.validate().first().map(ToString::to_string)
    }

    /// Structure, ids and references, every fault found; counts are
    /// [`Content::count_problems`].
    fn validate(&self) -> Vec<ContentFault> {
        let mut faults = Faults::default();
        // id → the file that used it first.
        let mut ids: BTreeMap<String, String> = BTreeMap::new();
        let mut unique = |faults: &mut Faults, file: &str, id: &str| {
            if let Some(first_file) = ids.get(id) {
                faults.push(file, id, ContentErrorKind::Duplicate { first_file: first_file.clone() });
            } else {
                ids.insert(id.to_string(), file.to_string());
            }
        };
        let hero_ability = |faults: &mut Faults, file: &str, owner: &str, a: &Ability| {
            for r in hero_ability_faults(a) {
                faults.card(file, owner, r);
            }
        };
        for mat in &self.heroes {
            unique(&mut faults, "heroes.json", &mat.id);
            for r in mat_faults(mat) {
                faults.card("heroes.json", &mat.id, r);
            }
        }
        for (class, name) in CLASSES {
            let file = format!("classes/{name}.json");
            let Some(deck) = self.classes.get(name) else {
                faults.0.push(ContentFault::new(&file, None, ContentErrorKind::Missing));
                continue;
            };
            let mut needed: Vec<u8> = Vec::new();
            for item in &deck.items {
                unique(&mut faults, &file, &item.id);
                if item.deck != Some(class) {
                    faults.card(&file, &item.id, format!("\"deck\" must be \"{name}\""));
                }
                self.check_item(&mut faults, &file, item);
                needed.extend(&item.add_cards);
            }
            let mut have = deck.item_action_cards.clone();
            for v in needed {
                match have.iter().position(|h| *h == v) {
                    Some(i) => {
                        have.remove(i);
                    }
                    None => faults.file(&file, format!("the Items add more Item Action Cards of value {v} than exist")),
                }
            }
            for a in &deck.abilities {
                unique(&mut faults, &file, &a.id);
                if a.class != class {
                    faults.card(&file, &a.id, format!("class must be {name}"));
                }
                hero_ability(&mut faults, &file, &a.id, &a.ability);
            }
        }
        for item in &self.treasures {
            unique(&mut faults, "treasures.json", &item.id);
            self.check_item(&mut faults, "treasures.json", item);
        }
        let fe = &self.final_entity;
        for (list, part) in
            [(&fe.head_1, EntityPart::HeadI), (&fe.head_2, EntityPart::HeadII), (&fe.body, EntityPart::Body)]
        {
            for p in list {
                unique(&mut faults, "final_entity.json", &p.id);
                for r in entity_part_faults(p, part) {
                    faults.card("final_entity.json", &p.id, r);
                }
            }
        }
        unique(&mut faults, "final_entity.json", &fe.tail.id);
        self.check_monster_abilities(&mut faults, "final_entity.json", &fe.tail.id, &fe.tail.abilities);
        for eco in &self.ecologies {
            let d = eco_dir(eco.ecology);
            self.validate_ecology(&mut faults, eco, d, &mut unique);
        }
        faults.0
    }

    fn check_item(&self, faults: &mut Faults, file: &str, item: &ItemCard) {
        for r in item_faults(item) {
            faults.card(file, &item.id, r);
        }
    }

    fn check_monster_abilities(&self, faults: &mut Faults, file: &str, id: &str, abilities: &[Ability]) {
        for r in monster_ability_faults(abilities) {
            faults.card(file, id, r);
        }
    }

    fn check_card_effects(
        &self,
        faults: &mut Faults,
        file: &str,
        id: &str,
        effects: &[Effect],
        eco: &EcologyContent,
        letters: &BTreeSet<char>,
    ) {
        for e in all_effects(effects) {
            let mut unknown = |what: &'static str, name: &str| {
                faults.push(file, id, ContentErrorKind::UnknownReference { what, id: name.to_string() });
            };
            let bad = match e {
                Effect::GainItem { item } if self.item(item).is_none() => {
                    unknown("item", item);
                    None
                }
                Effect::FightNamedMonster { monster }
                    if !eco.monsters.iter().chain(&eco.stair_guardians).any(|m| &m.id == monster) =>
                {
                    unknown("monster", monster);
                    None
                }
                Effect::ShuffleIntoMonsters { monster }
                    if !eco.monsters.iter().any(|m| &m.id == monster && m.set_aside) =>
                {
                    unknown("set-aside Monster of this Ecology", monster);
                    None
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
                faults.card(file, id, reason);
            }
        }
    }

    /// "Chests and Legendary Locations are the only places to find Items", and
    /// "Some Features and Legendary Locations provide Items with limited
    /// numbers of uses": a Feature draws no Item from the Item Cards and gains
    /// only Items with `uses`, however deep in its tests.
    fn check_feature_items(&self, faults: &mut Faults, file: &str, card: &FeatureCard) {
        for e in all_effects(&card.effects) {
            let item = match e {
                Effect::DrawItem => None,
                Effect::GainItem { item } if self.item(item).is_some_and(|i| i.uses.is_none()) => Some(item.clone()),
                _ => continue,
            };
            faults.push(file, &card.id, ContentErrorKind::FeatureItem { item });
        }
    }

    fn validate_ecology(
        &self,
        faults: &mut Faults,
        eco: &EcologyContent,
        d: &str,
        unique: &mut impl FnMut(&mut Faults, &str, &str),
    ) {
        let tiles_file = format!("{d}/tiles.json");
        for t in &eco.tiles {
            unique(faults, &tiles_file, &t.id);
            if let Err(e) = t.validate().and_then(|()| t.check_doors()) {
                faults.push(&tiles_file, &t.id, ContentErrorKind::Tile(e));
            }
            if t.ecology != eco.ecology {
                faults.card(&tiles_file, &t.id, "belongs to another Ecology");
            }
        }
        for kind in [TileKind::Entry, TileKind::Stairs] {
            let n = eco.tiles.iter().filter(|t| t.kind == kind).count();
            // An Ecology still being authored may have no tiles; count_problems reports that.
            if n > 1 || (n == 0 && !eco.tiles.is_empty()) {
                faults.file(&tiles_file, format!("needs exactly one {kind:?} tile, found {n}"));
            }
        }
        let monsters_file = format!("{d}/monsters.json");
        for m in &eco.monsters {
            unique(faults, &monsters_file, &m.id);
            for r in monster_faults(m) {
                faults.card(&monsters_file, &m.id, r);
            }
            if !(1..=60).contains(&m.health[2]) || m.xp > 10 {
                faults.card(&monsters_file, &m.id, "health or XP out of range");
            }
        }
        let guardians_file = format!("{d}/stair_guardians.json");
        for m in &eco.stair_guardians {
            unique(faults, &guardians_file, &m.id);
            for r in monster_faults(m) {
                faults.card(&guardians_file, &m.id, r);
            }
        }
        let features_file = format!("{d}/features.json");
        let none = BTreeSet::new();
        for f in &eco.features {
            unique(faults, &features_file, &f.id);
            self.check_card_effects(faults, &features_file, &f.id, &f.effects, eco, &none);
            self.check_feature_items(faults, &features_file, f);
        }
        let ll_file = format!("{d}/legendary_locations.json");
        let patterns_file = format!("{d}/rune_patterns.json");
        let mut pattern_numbers = BTreeSet::new();
        for p in &eco.patterns {
            if let Err(e) = p.validate() {
                faults.card(&patterns_file, &p.id, format!("{e:?}"));
            }
            match p.id.parse::<u8>() {
                Ok(n) => {
                    pattern_numbers.insert(n);
                }
                Err(_) => faults.card(&patterns_file, &p.id, "a pattern's id must be a number"),
            }
        }
        let mut labels = Vec::new();
        for c in &eco.legendary {
            unique(faults, &ll_file, &c.id);
            match c.label() {
                Ok(l) => {
                    if !pattern_numbers.contains(&l.number) {
                        faults.card(&ll_file, &c.id, format!("no Rune Pattern {}", l.number));
                    }
                    labels.push((l, c));
                }
                Err(r) => faults.card(&ll_file, &c.id, r),
            }
        }
        for &n in &pattern_numbers {
            let of: Vec<&(PileLabel, &LegendaryCard)> = labels.iter().filter(|(l, _)| l.number == n).collect();
            if !of.iter().any(|(l, _)| l.letter.is_none()) {
                faults.file(&ll_file, format!("pattern {n} has no number-only card to start from"));
            }
            let letters: BTreeSet<char> = of.iter().filter_map(|(l, _)| l.letter).collect();
            for letter in &letters {
                let mut romans: Vec<u8> =
                    of.iter().filter(|(l, _)| l.letter == Some(*letter)).filter_map(|(l, _)| l.roman).collect();
                romans.sort_unstable();
                romans.dedup();
                if romans.first() != Some(&1) || romans.windows(2).any(|w| w[1] != w[0] + 1) {
                    faults.file(&ll_file, format!("pile {n}{letter}: roman numerals must run I, II, III…"));
                }
            }
            for (_, c) in &of {
                if let Some(next) = c.next
                    && !letters.contains(&next)
                {
                    faults.card(&ll_file, &c.id, format!("its letter {next} leads to no pile"));
                }
                self.check_card_effects(faults, &ll_file, &c.id, &c.effects, eco, &letters);
            }
        }
        if eco.reference.ecology != eco.ecology {
            faults.file(&format!("{d}/reference.json"), "names another Ecology");
        }
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
