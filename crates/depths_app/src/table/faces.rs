//! What lies on the table and what touching it does: plain data built from the
//! rules' state and the Actions the players at the table may take now.
//!
//! A face is one thing a player sees and may click: a Hero's card in hand, a
//! card in a Combat Pair, the pair itself (its outcome both ways), a Monster
//! card with its individuals, a drawn Feature card. Every face that answers a
//! click carries the legal `Action` it makes; the ones that answer a number
//! key carry its number too, counted in the order a player reads the table.

use depths_rules::{
    Action, ActionCard, CardId, CombatStep, Game, Outcome, Phase,
    adventure::Resolving,
    combat::{Combat, Foe, FoeCard, Slot, may_choose_outcome},
    monster::EntityPart,
};

use crate::game::words::outcome_name;

/// Which card or place a face is, by the rules' own ids: stable while the
/// same card stays on the table (a Hero's card keeps its key from the hand
/// to the pair, so it slides there).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CardKey {
    /// A Hero's Action Card, in hand or in a pair.
    Hero { hero: u8, card: CardId },
    /// A Monster's Action Card in an engagement (a Power Card drawn in its
    /// place is a card of its own).
    Monster { engagement: usize, card: CardId, power: bool },
    /// A Monster card (or the Final Entity) along the top.
    Foe(usize),
    /// A Combat Pair's frame.
    Pair { engagement: usize, slot: usize },
    /// A Hero's name over their pairs in an engagement.
    Label(usize),
    /// A Feature or Legendary Location card drawn, by its name.
    Ecology(String),
    /// A Hero's Draw Pile, or Discard Pile.
    Pile { hero: u8, discard: bool },
}

impl std::fmt::Display for CardKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CardKey::Hero { hero, card } => write!(f, "hero{hero}-{}", card.0),
            CardKey::Monster { engagement, card, power } => write!(f, "m{engagement}-{}-{}", card.0, u8::from(*power)),
            CardKey::Foe(i) => write!(f, "foe-{i}"),
            CardKey::Pair { engagement, slot } => write!(f, "pair-{engagement}-{slot}"),
            CardKey::Label(e) => write!(f, "label-{e}"),
            CardKey::Ecology(name) => write!(f, "eco-{name}"),
            CardKey::Pile { hero, discard } => write!(f, "{}{hero}", if *discard { "discard" } else { "draw" }),
        }
    }
}

/// What a face is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A Hero's card played into a Combat Pair.
    Hero,
    /// A Monster's card: in a pair, unpaired, or waiting to be placed.
    Monster,
    /// A Feature or Legendary Location card being resolved (or just drawn).
    Ecology,
    /// An Action Card in a Hero's hand.
    Hand,
    /// A Monster card (or the Final Entity) with its individuals.
    Foe,
    /// A Combat Pair's frame: the outcome and the damage both ways.
    Pair,
    /// "Bren against the Withered Shade", above a Hero's pairs.
    Label,
    /// A Hero's Draw Pile (face down, its count) or Discard Pile (its top
    /// card face up: the book makes discards open information).
    Pile,
}

/// Where a face lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spot {
    /// Engagement `group`, column `col`: the Monster's card above, the
    /// Hero's below, the pair's frame around both.
    Combat { group: usize, col: usize },
    /// Above engagement `group`.
    Label { group: usize },
    /// The `index`th card of the `row`th hand shown.
    Hand { row: usize, index: usize },
    /// Beside the `row`th hand: its Hero's Draw Pile, or Discard Pile.
    Pile { row: usize, discard: bool },
    /// The `index`th Monster card along the top.
    Foe { index: usize },
    /// The `index`th Ecology card, from the right.
    Ecology { index: usize },
}

/// How a pair's frame is lit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tone {
    Plain,
    /// Its outcome, when the pair still counts.
    Outcome(Outcome),
    /// Chosen to be resolved this Round.
    Chosen,
    /// Discarded, or not allowed while a Monster Hit comes first.
    Muted,
}

/// One individual on a Monster card.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Row {
    pub name: String,
    /// Which part of the Final Entity it is ("Head I", "Body"); empty for a Monster.
    pub tag: String,
    pub health: u8,
    pub max: u8,
    pub armor: u8,
    /// Health it loses when the Damage already placed on it lands (once
    /// every Hero's is placed): `Game::placed_damage`.
    pub placed: u8,
    /// Clicking the row puts a Hero's pending damage there.
    pub action: Option<Action>,
    pub number: Option<u8>,
}

impl Row {
    /// Its Health as its track reads: "14 / 14", "Body · 9 / 20", and what
    /// Damage already placed will take when it lands: "14 / 14 (−6)".
    pub fn health_words(&self) -> String {
        let tag = if self.tag.is_empty() { String::new() } else { format!("{} · ", self.tag) };
        let placed = if self.placed > 0 { format!(" (−{})", self.placed) } else { String::new() };
        format!("{tag}{} / {}{placed}", self.health, self.max)
    }
}

/// A line of a Monster card's small print.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Print {
    pub text: String,
    /// Power icons drawn before it: an ability's cost.
    pub power: u8,
    /// The line with its cost in words, for the hover box.
    pub words: String,
    /// Drawn as the Health States' strip instead of words.
    pub strip: Option<StateStrip>,
}

/// A Monster's Health States as a picture: a segment per state, named by
/// its individuals alive, the one that holds now lit (its numbers are in the
/// hover box, and the line under the strip says what holds now and next).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StateStrip {
    pub alive: Vec<u8>,
    pub now: Option<usize>,
}

impl From<String> for Print {
    fn from(text: String) -> Print {
        Print { words: text.clone(), text, power: 0, strip: None }
    }
}

impl From<&str> for Print {
    fn from(text: &str) -> Print {
        Print::from(text.to_owned())
    }
}

/// One face on the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Face {
    /// Stable while the same card stays on the table.
    pub key: CardKey,
    pub kind: Kind,
    /// "7", "P" (Power), "3 XP"…
    pub value: String,
    pub name: String,
    pub spot: Spot,
    /// A line under the name (the pair's outcome…).
    pub note: String,
    /// Its icon: a group and key of [`crate::theme::icons::Icons`].
    pub icon: (&'static str, String),
    /// The Monster's health token (what its living individuals have left), on
    /// the first of its cards in each engagement.
    pub health: Option<u16>,
    /// What a click (or, for a card in hand, a drop on the table) does.
    pub action: Option<Action>,
    /// What a click would try even when the rules refuse it now (then the
    /// refusal is shown): playing a card in hand, resolving a pair.
    pub intent: Option<Action>,
    /// The number key that does the same.
    pub number: Option<u8>,
    /// A Monster card's individuals.
    pub rows: Vec<Row>,
    /// Small print under the rows: Health States, abilities.
    pub print: Vec<Print>,
    pub tone: Tone,
    /// A pile's number of cards.
    pub count: Option<usize>,
    /// Everything the card says, shown while the pointer rests on it.
    pub hover: String,
    /// A label: the columns its engagement keeps room for (through a Round,
    /// a Monster's card placed into a pair gives up no room the next
    /// engagement would slide into).
    pub columns: usize,
    /// A Draw Pile: the cards its Hero's row keeps room for through the
    /// Round, where the hand will be dealt more mid-Round (0: its hand).
    pub room: usize,
}

impl Face {
    /// A face with nothing printed on it yet.
    pub fn new(key: CardKey, kind: Kind, spot: Spot) -> Face {
        Face {
            key,
            kind,
            value: String::new(),
            name: String::new(),
            spot,
            note: String::new(),
            icon: ("elements", String::new()),
            health: None,
            action: None,
            intent: None,
            number: None,
            rows: Vec::new(),
            print: Vec::new(),
            tone: Tone::Plain,
            count: None,
            hover: String::new(),
            columns: 0,
            room: 0,
        }
    }

    /// Everything drawn on it: a change means the card is redrawn in place.
    pub fn look(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.kind, &self.value, &self.name, &self.note, self.health, self.number, &self.rows, &self.print, self.tone)
            .hash(&mut h);
        self.count.hash(&mut h);
        self.action.is_some().hash(&mut h);
        h.finish()
    }
}

/// The faces on the table in `game`, each with its place; `legal` is what
/// the players at the table may do now (clicks and number keys answer only
/// those).
/// The columns each engagement takes in `faces`, by engagement: its pairs
/// and the Monster's cards unpaired or waiting, or the room its label keeps
/// for them if that is more.
pub fn columns(faces: &[Face]) -> Vec<usize> {
    let mut cols: Vec<usize> = Vec::new();
    for f in faces {
        let (group, n) = match f.spot {
            Spot::Combat { group, col } => (group, col + 1),
            Spot::Label { group } if f.columns > 0 => (group, f.columns),
            _ => continue,
        };
        if cols.len() <= group {
            cols.resize(group + 1, 0);
        }
        cols[group] = cols[group].max(n);
    }
    cols
}

pub fn table_faces(game: &Game, legal: &[Action]) -> Vec<Face> {
    let mut out = Vec::new();
    if let Phase::Combat { .. } = game.phase()
        && let Some(c) = game.combat()
    {
        foes(game, c, legal, &mut out);
        pairs(game, c, legal, &mut out);
        hands(game, c, legal, &mut out);
    } else {
        // A Feature whose test began a fight waits off the table until the
        // fight is over (it was revealed when drawn): the hands need the room.
        ecology_cards(game, &mut out);
    }
    number(&mut out);
    out
}

/// The key of a drawn Feature / Legendary Location card, by name.
pub fn ecology_key(name: &str) -> CardKey {
    CardKey::Ecology(name.to_owned())
}

/// Hand out number keys 1–9: one kind of choice is open at a time (cards to
/// play, pairs to resolve or to take a Monster card, individuals to damage),
/// numbered as a player reads the table.
fn number(faces: &mut [Face]) {
    keep_numbers(faces, &[]);
}

/// Where a face's number is kept between two looks at the table: the face's
/// key, and the row's index for an individual.
fn number_slots(faces: &mut [Face]) -> Vec<((CardKey, Option<usize>), &mut Option<u8>, bool)> {
    let mut out = Vec::new();
    for f in faces.iter_mut() {
        let numbered = matches!(f.kind, Kind::Hand | Kind::Pair);
        for (i, r) in f.rows.iter_mut().enumerate() {
            out.push(((f.key.clone(), Some(i)), &mut r.number, r.action.is_some()));
        }
        out.push(((f.key.clone(), None), &mut f.number, numbered && f.action.is_some()));
    }
    out
}

/// The numbers handed out, by where they are ([`number_slots`]).
pub type Numbers = Vec<((CardKey, Option<usize>), u8)>;

/// The numbers `faces` carry now, to keep them at the next look.
pub fn numbers_of(faces: &mut [Face]) -> Numbers {
    number_slots(faces).into_iter().filter_map(|(k, n, _)| Some((k, (*n)?))).collect()
}

/// How many games' numbers [`NumberMemory`] keeps.
const PAST_NUMBERS: usize = 64;

/// The numbers the table handed out, by the game they were handed out for:
/// Undo and Redo bring a table back as it was, its numbers too (a card
/// taken back took whatever number was free: Sil's 4 came back as 1).
#[derive(Clone, Debug, Default)]
pub struct NumberMemory {
    /// The last look's numbers.
    last: Numbers,
    /// Per game, by its sitting and the moves made in it (`moves`), the
    /// numbers it showed.
    past: Vec<((u64, usize), Numbers)>,
}

impl NumberMemory {
    /// Numbers `faces` for the game after `moves` moves: as that game was
    /// numbered if the table showed it before (Undo, Redo), else keeping the
    /// last look's ([`keep_numbers`]).
    pub fn number(&mut self, faces: &mut [Face], moves: Option<(u64, usize)>) {
        let before = moves.and_then(|m| self.past.iter().find(|(n, _)| *n == m)).map(|(_, n)| n);
        keep_numbers(faces, before.unwrap_or(&self.last));
        self.last = numbers_of(faces);
        if let Some(m) = moves {
            self.past.retain(|(n, _)| *n != m);
            self.past.push((m, self.last.clone()));
            // Undo goes back a Round or so at most.
            let keep = self.past.len().saturating_sub(PAST_NUMBERS);
            self.past.drain(..keep);
        }
    }

    /// The numbers now on the table.
    pub fn now(&self) -> &Numbers {
        &self.last
    }
}

/// Numbers the choices on the table: a card, pair or individual still on
/// offer keeps the number it had `before` (playing Bren's card 1 does not
/// turn Sil's 4 into a 3 under the player's finger); the others take, in
/// reading order, numbers nobody had before, then any free one, up to 9.
/// A new set of choices starts again from 1, and so does a hand a new card
/// came into at a Round's deal (no card played yet): kept, it mixed the
/// Heroes' numbers (Bren's 3 and 4, Sil's 1 and 5). Cards drawn mid-Round
/// (a reshuffle) take new numbers and the others keep theirs: numbered
/// afresh, Sil's 2 became 3 as Bren's hand grew, and her key played his.
pub fn keep_numbers(faces: &mut [Face], before: &[((CardKey, Option<usize>), u8)]) {
    let came = faces
        .iter()
        .any(|f| f.kind == Kind::Hand && f.action.is_some() && !before.iter().any(|((k, _), _)| *k == f.key));
    let dealt = came && !faces.iter().any(|f| f.kind == Kind::Hero);
    let before = if dealt { &[][..] } else { before };
    let mut slots = number_slots(faces);
    let mut taken = [false; 10];
    for (key, n, open) in slots.iter_mut() {
        **n = None;
        if *open
            && let Some((_, k)) = before.iter().find(|(b, _)| b == key)
            && !taken[usize::from(*k)]
        {
            **n = Some(*k);
            taken[usize::from(*k)] = true;
        }
    }
    let mut was = [false; 10];
    if taken.iter().any(|t| *t) {
        for (_, k) in before {
            was[usize::from(*k)] = true;
        }
    }
    // The individuals of a lone Monster card to damage keep their own
    // numbers: "#2" is key 2 though #1 is down (it was key 1, and a player
    // pressing 2 for "#2" damaged #3).
    let mut row_cards: Vec<&CardKey> =
        slots.iter().filter(|(k, _, open)| *open && k.1.is_some()).map(|(k, ..)| &k.0).collect();
    row_cards.dedup();
    let own_numbers = row_cards.len() == 1;
    let owned: Vec<Option<usize>> =
        slots.iter().map(|(k, ..)| k.1.map(|i| i + 1).filter(|k| own_numbers && *k <= 9)).collect();
    for ((_, n, open), own) in slots.iter_mut().zip(owned) {
        if !*open || n.is_some() {
            continue;
        }
        let free = |k: &usize| !taken[*k];
        let k = own.filter(free).or_else(|| (1..=9).find(|k| free(k) && !was[*k])).or_else(|| (1..=9).find(free));
        if let Some(k) = k {
            **n = Some(k as u8);
            taken[k] = true;
        }
    }
}

/// Whether every card in a hand in `faces` already lies in a hand
/// (`lying`: the cards on the table, not those leaving, with their kind):
/// only then are the hands kept where they were dealt. A card that
/// comes into a hand (dealt, or taken back by Undo from its pair) must go
/// to its place at once: kept, it stayed in its pair until the pointer moved.
pub fn hands_unchanged(faces: &[Face], lying: &[(CardKey, Kind)]) -> bool {
    faces
        .iter()
        .filter(|f| f.kind == Kind::Hand)
        .all(|f| lying.iter().any(|(k, kind)| *k == f.key && *kind == Kind::Hand))
}

/// Whether `a` and `b` are made on the same place of the table: the same
/// Action, or two Heroes' damage for one individual (its row takes one
/// Hero's, then the other's).
pub fn same_place(a: &Action, b: &Action) -> bool {
    match (a, b) {
        (Action::AssignDamage { individual: i, .. }, Action::AssignDamage { individual: j, .. }) => i == j,
        _ => a == b,
    }
}

/// The numbered choices on the table, in number order, with their numbers
/// (which may skip one: a card played leaves its number unused).
pub fn numbered(faces: &[Face]) -> Vec<(u8, Action)> {
    let mut out: Vec<(u8, Action)> = Vec::new();
    for f in faces {
        for r in &f.rows {
            if let (Some(n), Some(a)) = (r.number, &r.action) {
                out.push((n, a.clone()));
            }
        }
        if let (Some(n), Some(a)) = (f.number, &f.action) {
            out.push((n, a.clone()));
        }
    }
    out.sort_by_key(|(n, _)| *n);
    out
}

/// A Monster card's abilities as printed ("Name (cost): text"), each with its
/// name; the Final Entity's with the card they are on ("Lamprey Maw: …").
pub fn foe_abilities(foe: &Foe) -> Vec<(&str, String)> {
    abilities_of(foe).into_iter().map(|(part, a)| (a.name.as_str(), format!("{part}{}", a.text()))).collect()
}

/// What the Health State now holding asks of each side, and what changes at
/// the next state that changes it: "Now each Hero plays 1 card and faces 2.
/// At 3 alive: plays 2, faces 2."
pub fn state_words(states: &[depths_rules::monster::HealthState], now: Option<usize>) -> String {
    let Some(here) = now.and_then(|i| states.get(i)) else { return String::new() };
    let cards = |n: u8| if n == 1 { "1 card".to_owned() } else { format!("{n} cards") };
    let mut text = format!("Now each Hero plays {} and faces {}.", cards(here.hero_cards), cards(here.monster_cards));
    let later = now.map_or(0, |i| i + 1);
    if let Some(next) = states[later.min(states.len())..]
        .iter()
        .find(|s| (s.hero_cards, s.monster_cards) != (here.hero_cards, here.monster_cards))
    {
        text.push_str(&format!(" At {} alive: plays {}, faces {}.", next.alive, next.hero_cards, next.monster_cards));
    }
    text
}

/// The same as drawn on the Monster card: an ability that costs Power shows
/// its cost as that many Power icons before its name, as the book's cards do
/// ("1 Power Card per Power Icon shown next to the Ability's name").
fn foe_prints(foe: &Foe) -> Vec<Print> {
    abilities_of(foe)
        .into_iter()
        .map(|(part, a)| match a.activation {
            depths_rules::Activation::Power(n) if n > 0 => {
                let text = format!("{part}{}: {}", a.name, a.effect_text());
                Print { text, power: n, words: format!("{part}{}", a.text()), strip: None }
            }
            _ => Print::from(format!("{part}{}", a.text())),
        })
        .collect()
}

/// Each ability of a Monster card, with the Final Entity card it is on
/// ("Lamprey Maw: ", else "").
fn abilities_of(foe: &Foe) -> Vec<(String, &depths_rules::Ability)> {
    match &foe.card {
        FoeCard::Monster(m) => m.abilities.iter().map(|a| (String::new(), a)).collect(),
        FoeCard::FinalEntity(fe) => {
            let parts = fe.parts().map(|p| (&p.name, &p.abilities));
            let all = parts.into_iter().chain([(&fe.tail.name, &fe.tail.abilities)]);
            all.flat_map(|(part, abs)| abs.iter().map(move |a| (format!("{part}: "), a))).collect()
        }
    }
}

pub fn foe_icon(foe: &Foe) -> (&'static str, String) {
    match &foe.card {
        FoeCard::Monster(m) => ("monsters", m.id.clone()),
        FoeCard::FinalEntity(_) => ("elements", "final_entity".to_owned()),
    }
}

/// The Monster cards along the top, with a row per individual.
fn foes(game: &Game, c: &Combat, legal: &[Action], out: &mut Vec<Face>) {
    for (f, foe) in c.foes.iter().enumerate() {
        let mut face = Face::new(CardKey::Foe(f), Kind::Foe, Spot::Foe { index: f });
        // A card title, whatever the name is in a sentence ("the Final Entity").
        face.name = crate::game::words::capitalise(foe.name());
        face.icon = foe_icon(foe);
        let mut facts = vec![format!("{} deck", foe.difficulty.name())];
        // What the short facts mean, for the hover box.
        let mut terms = vec![format!(
            "{} deck: the Monster's Action Cards come from the {} Monster deck.",
            foe.difficulty.name(),
            foe.difficulty.name()
        )];
        if foe.card_bonus > 0 {
            facts.push(format!("card values +{}", foe.card_bonus));
            terms.push(format!("Card values +{0}: each of its Monster Action Cards counts {0} more.", foe.card_bonus));
        }
        if foe.resists_non_magic {
            facts.push("resists non-Magic".into());
        }
        if foe.is_defeated() {
            facts.push("DEFEATED".into());
        } else {
            // Who fights it, on the card itself (the pairs below name the Heroes).
            let mut fighters: Vec<&str> = Vec::new();
            for e in c.engagements.iter().filter(|e| usize::from(e.foe) == f) {
                let name = game.heroes.get(usize::from(e.hero)).map_or("a Hero", |h| h.name());
                if !fighters.contains(&name) {
                    fighters.push(name);
                }
            }
            if !fighters.is_empty() {
                facts.push(format!("fights {}", crate::game::words::and_list(&fighters)));
            }
        }
        face.note = facts.join(" · ");
        for (i, ind) in foe.individuals.iter().enumerate() {
            // "Applying Damage to Pairs, Groups, or Hordes": the Hero whose
            // damage waits picks the individual.
            let action = legal
                .iter()
                .find(|a| match a {
                    Action::AssignDamage { hero, individual } => {
                        usize::from(*individual) == i
                            && c.packet_of(*hero).is_some_and(|k| usize::from(c.packets[k].foe) == f)
                    }
                    _ => false,
                })
                .cloned();
            // "#2" rather than the Monster's name again.
            let short = ind.name.strip_prefix(foe.name()).map(str::trim).filter(|s| !s.is_empty());
            let tag = match ind.part {
                Some(EntityPart::HeadI) => "Head I",
                Some(EntityPart::HeadII) => "Head II",
                Some(EntityPart::Body) => "Body",
                None => "",
            };
            face.rows.push(Row {
                name: short.unwrap_or(&ind.name).to_owned(),
                tag: tag.to_owned(),
                health: ind.health,
                max: ind.max_health,
                armor: ind.armor,
                placed: game.placed_damage(f as u8, i as u8),
                action,
                number: None,
            });
        }
        let mut hover = vec![face.name.clone(), face.note.clone()];
        match &foe.card {
            FoeCard::Monster(card) => {
                if !card.health_states.is_empty() {
                    let alive = foe.alive_count();
                    let states = &card.health_states;
                    let row = |v: &dyn Fn(&depths_rules::monster::HealthState) -> u8| {
                        states.iter().map(|s| v(s).to_string()).collect::<Vec<_>>().join(" ")
                    };
                    let words = format!(
                        "Health States (now: {alive} alive): individuals alive {} · Monster cards vs each Hero {} · \
                         cards each Hero plays {}",
                        row(&|s| s.alive),
                        row(&|s| s.monster_cards),
                        row(&|s| s.hero_cards)
                    );
                    let now = states.iter().position(|s| s.alive == alive);
                    let alive_of: Vec<u8> = states.iter().map(|s| s.alive).collect();
                    face.print.push(Print {
                        text: String::new(),
                        power: 0,
                        words,
                        strip: Some(StateStrip { alive: alive_of, now }),
                    });
                    face.print.push(state_words(states, now).into());
                    terms.push(
                        "Health States: the strip's segments are the Monster's individuals alive; the lit one \
                         holds now. As they fall, the cards each side plays change as the line under it says."
                            .into(),
                    );
                }
                face.print.extend(foe_prints(foe));
                if !card.description.is_empty() {
                    hover.push(card.description.clone());
                }
            }
            FoeCard::FinalEntity(fe) => {
                // "To Defeat the Final Entity, Heroes must either Defeat both
                // of its Heads, or its Body and one of its Heads."
                face.print.push(Print::from(format!(
                    "Heads: {} and {}. Body: {}. Defeat both Heads, or the Body and one Head.",
                    fe.head_1.name, fe.head_2.name, fe.body.name
                )));
                face.print.extend(foe_prints(foe));
                if let Some(lore) = game.adventure().and_then(|a| a.final_entity_lore.as_ref()) {
                    hover.push(lore.clone());
                }
            }
        }
        for r in &face.rows {
            let armor = if r.armor > 0 { format!(", Armor {}", r.armor) } else { String::new() };
            let armor = if r.tag.is_empty() { armor } else { format!("{armor} ({})", r.tag) };
            // An individual may carry the card's name already ("Strangling Ivy Mass").
            let who =
                if r.name.contains(face.name.as_str()) { r.name.clone() } else { format!("{} {}", face.name, r.name) };
            hover.push(format!("{who}: {} / {} Health{armor}", r.health, r.max));
            if r.placed > 0 {
                hover.push(format!("  −{} when this Round's Damage lands, once every Hero's is placed.", r.placed));
            }
        }
        // The hover box says every cost in words.
        hover.extend(face.print.iter().map(|p| p.words.clone()));
        hover.extend(terms);
        if face.rows.iter().any(|r| r.action.is_some()) {
            hover.push("Click an individual to put the damage there.".into());
        }
        face.hover = hover.join("\n");
        out.push(face);
    }
}

fn value_text(power: bool, value: Option<u8>) -> String {
    if power { "P".into() } else { value.map_or("?".into(), |v| v.to_string()) }
}

/// Each engagement's pairs: the Monster's card above the Hero's, the
/// pair's frame with what it would deal both ways.
fn pairs(game: &Game, c: &Combat, legal: &[Action], out: &mut Vec<Face>) {
    for (e, en) in c.engagements.iter().enumerate() {
        let hero_mat = game.heroes.get(usize::from(en.hero));
        let hero = hero_mat.map_or("Hero", |h| h.name());
        let hero_icon = ("classes", hero_mat.map_or_else(String::new, |h| h.mat.class.name().to_lowercase()));
        let Some(foe) = c.foes.get(usize::from(en.foe)) else { continue };
        // The health token goes on the first Monster card of the engagement.
        let mut token = Some(foe.individuals.iter().map(|i| u16::from(i.health)).sum::<u16>());
        let bonus = foe.card_bonus;
        // One pair per Hero in all: priority runs over every pair in front
        // of the Hero, and once one is chosen the others are discarded.
        let outcomes: Vec<_> = c.pairs_of(en.hero).into_iter().map(|(_, _, o)| o).collect();
        let chosen = c.chosen_engagement(en.hero).is_some();
        let mut label = Face::new(CardKey::Label(e), Kind::Label, Spot::Label { group: e });
        // The Hero's name only: the Monster's cards above name the Monster.
        label.name = hero.to_owned();
        label.hover = format!("{hero} against {}: {hero}'s cards below, the Monster's above.", foe.name());
        if c.engagements_of(en.hero).count() > 1 {
            label.hover.push_str(&format!("\n{hero} resolves one pair in all, against either Monster card."));
        }
        out.push(label);
        // The slots the Hero still has to fill this Round show as empty
        // frames: where a card dragged from the hand lands.
        let empty = Slot::default();
        let shown = en.slots.len().max(usize::from(en.hero_cards));
        let next_to_play = c.step == CombatStep::PlayCards && c.playing_engagement(en.hero) == Some(e);
        for s in 0..shown {
            let slot = en.slots.get(s).unwrap_or(&empty);
            let spot = Spot::Combat { group: e, col: s };
            let pair_action = legal
                .iter()
                .find(|a| match a {
                    Action::ChoosePair { hero, engagement, slot: at } => {
                        *hero == en.hero && usize::from(*engagement) == e && usize::from(*at) == s
                    }
                    Action::PlaceMonsterCard { hero, slot: at } => {
                        *hero == en.hero && en.waiting.is_some() && usize::from(*at) == s
                    }
                    _ => false,
                })
                .cloned();
            let pair_intent = match c.step {
                CombatStep::Resolve if slot.outcome(bonus).is_some() => {
                    Some(Action::ChoosePair { hero: en.hero, engagement: e as u8, slot: s as u8 })
                }
                CombatStep::PlaceMonsterCard if en.waiting.is_some() => {
                    Some(Action::PlaceMonsterCard { hero: en.hero, slot: s as u8 })
                }
                _ => None,
            };
            let mut frame = Face::new(CardKey::Pair { engagement: e, slot: s }, Kind::Pair, spot);
            frame.action = pair_action.clone();
            frame.intent = pair_intent.clone();
            if let (Some(o), Some(dealt)) = (slot.outcome(bonus), game.pair_deals(e, s)) {
                // What the pair does to each side: the rules' figures, after Armor.
                let taken = game.pair_takes_range(e, s).unwrap_or_default();
                let counts = !chosen && may_choose_outcome(o, &outcomes);
                // Once the Round's pair Damage has landed (a Horde's excess
                // may still wait), the Monster's side is on its card: a figure
                // worked out again from there read "Monster −0" for Damage
                // already dealt.
                let landed = en.chosen == Some(s as u8)
                    && match c.step {
                        CombatStep::AvoidReturnDamage => true,
                        // Only a Horde's excess waits: the pairs' Damage is in.
                        CombatStep::AssignDamage => c.packets.iter().all(|p| p.overflow),
                        _ => false,
                    };
                let health = game.heroes.get(usize::from(en.hero)).map_or(0, |h| h.health);
                frame.note = if landed {
                    crate::game::words::landed_pair_note(hero, o, taken, health)
                } else if chosen && en.chosen != Some(s as u8) {
                    // A pair set aside does nothing: figures there (read
                    // again after a kill, "Monster −0") would promise.
                    String::new()
                } else {
                    crate::game::words::pair_damage_note(hero, o, dealt, taken, health)
                };
                // Its state in words as well as in its colour, for every
                // colour vision; one word, to fit a pair at 1280×800 (only a
                // Hero Hit waits, for a Monster Hit to come first).
                (frame.tone, frame.value) = if en.chosen == Some(s as u8) {
                    (Tone::Chosen, "Resolved".to_owned())
                } else if chosen {
                    (Tone::Muted, "Discarded".to_owned())
                } else if counts {
                    (Tone::Outcome(o), outcome_name(o).to_owned())
                } else {
                    (Tone::Muted, "Waits".to_owned())
                };
                let mut hover = format!(
                    "{hero} {} against {} {}. {}",
                    value_text(slot.hero.is_some_and(|c| c.power), slot.hero_value()),
                    foe.name(),
                    value_text(slot.monster.is_some_and(|c| c.power), slot.monster_value(bonus)),
                    crate::game::words::pair_damage_text(hero, foe.name(), o, dealt, taken),
                );
                if health > 0 && taken.1 >= health {
                    hover.push_str(&format!(
                        "\nThat is all the Health {hero} has left: {hero} {} Defeated, and the game is lost.",
                        if taken.0 >= health { "would be" } else { "may be" }
                    ));
                }
                if en.chosen == Some(s as u8) {
                    hover.push_str("\nResolved this Round.");
                } else if chosen {
                    hover.push_str("\nDiscarded: another pair was resolved.");
                } else if !counts {
                    hover.push_str("\nA Monster Hit comes first.");
                }
                if frame.action.is_some() {
                    hover.push_str("\nClick to resolve this pair.");
                } else if let Some(Err(e)) = frame.intent.as_ref().filter(|_| !chosen && counts).map(|i| game.check(i))
                {
                    // A greyed pair says why on hover, in the rules' words.
                    hover.push_str(&format!("\nNot now: {}", crate::game::words::rule_error_text(game, &e)));
                }
                frame.hover = hover;
            } else if matches!(pair_action, Some(Action::PlaceMonsterCard { .. })) {
                frame.hover =
                    format!("Click to put {} card opposite this one.", crate::game::words::possessive(foe.name()));
            } else if slot.hero.is_none() {
                frame.note = if next_to_play && s == en.slots.len() { "play here".into() } else { String::new() };
                frame.hover = format!(
                    "{hero}'s card goes here, {} card opposite it.",
                    crate::game::words::possessive(foe.name())
                );
            }
            // The cards in a pair tell the pair too: hovered, "an Action
            // Card of 2" left "Bren −0–5" on the frame unexplained.
            let with_pair = |card: String| {
                if frame.hover.is_empty() || slot.outcome(bonus).is_none() {
                    card
                } else {
                    format!("{card}\n\n{}", frame.hover)
                }
            };
            let (hero_hover, monster_hover) = (
                slot.hero.map(|card| with_pair(card_hover(hero, &card, slot.hero_value()))),
                slot.monster.map(|card| with_pair(card_hover(foe.name(), &card, slot.monster_value(bonus)))),
            );
            out.push(frame);
            if let Some(card) = slot.hero {
                let mut f = Face::new(hero_card_key(en.hero, &card), Kind::Hero, spot);
                f.value = value_text(card.power, slot.hero_value());
                f.name = hero.to_owned();
                f.icon = hero_icon.clone();
                f.action = pair_action.clone();
                f.intent = pair_intent.clone();
                f.hover = hero_hover.clone().unwrap_or_default();
                out.push(f);
            }
            if let Some(card) = slot.monster {
                let mut f = Face::new(monster_key(e, &card), Kind::Monster, spot);
                f.value = value_text(card.power, slot.monster_value(bonus));
                f.name = foe.name().to_owned();
                f.icon = foe_icon(foe);
                f.health = token.take();
                f.action = pair_action.clone();
                f.intent = pair_intent.clone();
                f.hover = monster_hover.clone().unwrap_or_default();
                out.push(f);
            }
        }
        let extra = en.unpaired.iter().map(|c| (c, "unpaired")).chain(en.waiting.iter().map(|c| (c, "to place")));
        for (k, (card, note)) in extra.enumerate() {
            let mut f =
                Face::new(monster_key(e, card), Kind::Monster, Spot::Combat { group: e, col: en.slots.len() + k });
            f.value = value_text(card.power, Some(card.value.saturating_add(bonus)));
            f.name = foe.name().to_owned();
            f.note = note.to_owned();
            f.icon = foe_icon(foe);
            f.health = token.take();
            f.hover = card_hover(foe.name(), card, Some(card.value.saturating_add(bonus)));
            if note == "to place" {
                f.hover.push_str("\nClick one of the Hero's pairs to put it there.");
            }
            out.push(f);
        }
    }
}

/// A Hero's card keeps its key from the hand to the pair, so it slides there.
fn hero_card_key(hero: u8, card: &ActionCard) -> CardKey {
    CardKey::Hero { hero, card: card.id }
}

fn monster_key(engagement: usize, card: &ActionCard) -> CardKey {
    CardKey::Monster { engagement, card: card.id, power: card.power }
}

fn card_hover(owner: &str, card: &ActionCard, value: Option<u8>) -> String {
    let what = if card.power {
        "a Power Card".to_owned()
    } else {
        match value {
            Some(v) if v != card.value => format!("an Action Card of {} (now {v})", card.value),
            _ => format!("an Action Card of {}", card.value),
        }
    };
    let item = if card.item { " (an Item's card)" } else { "" };
    format!("{owner}: {what}{item}")
}

/// The hands of the Heroes in this Combat, one row each, the Heroes who may
/// play first.
fn hands(game: &Game, c: &Combat, legal: &[Action], out: &mut Vec<Face>) {
    let fighting: Vec<u8> = (0..game.heroes.len() as u8).filter(|h| c.engagements_of(*h).next().is_some()).collect();
    for (row, h) in fighting.into_iter().enumerate() {
        let hero = &game.heroes[usize::from(h)];
        let icon = ("classes", hero.mat.class.name().to_lowercase());
        let against = c.playing_engagement(h).and_then(|e| c.foes.get(usize::from(c.engagements[e].foe)));
        for (i, card) in hero.hand.iter().enumerate() {
            let mut f = Face::new(hero_card_key(h, card), Kind::Hand, Spot::Hand { row, index: i });
            f.value = value_text(card.power, Some(card.value));
            f.name = hero.name().to_owned();
            f.icon = icon.clone();
            let play = Action::PlayCard { hero: h, card: card.id };
            f.action = legal.contains(&play).then(|| play.clone());
            f.intent = Some(play);
            f.hover = card_hover(hero.name(), card, Some(card.value));
            if f.action.is_some() {
                let foe = against.map_or("the Monster", |f| f.name());
                f.hover.push_str(&format!("\nDrag it onto the table or click it to play it against {foe}."));
            }
            out.push(f);
        }
        let mut piles = piles(hero, h, row, icon);
        piles[0].room = c.playing_engagement(h).map_or(0, |e| dealt_room(hero, &c.engagements[e]));
        out.extend(piles);
    }
}

/// The cards a Hero's row keeps room for this Round: a hand smaller than
/// the cards still to play runs out, and the Discard, shuffled, deals
/// "up to a total of 3 minus the Card(s) just played" (Combat, Step 1)
/// beside the places its cards lay, never under the pointer that played
/// the last (with no room there every hand was laid anew). 0: its hand.
fn dealt_room(hero: &depths_rules::Hero, e: &depths_rules::combat::Engagement) -> usize {
    let (hand, played) = (hero.hand.len(), usize::from(e.played()));
    let runs_out = hand < usize::from(e.hero_cards).saturating_sub(played) && !hero.discard.is_empty();
    if runs_out { hand + 3usize.saturating_sub(played + hand).max(1) } else { 0 }
}

/// A Hero's Draw Pile and Discard Pile, beside their hand: the cards in hand
/// come from the one and go to the other. "Draw Piles … are not open
/// information" (Combat): the Draw Pile shows its back and its count only;
/// the Discard Pile its top card, and its hover every card in it.
fn piles(hero: &depths_rules::Hero, h: u8, row: usize, icon: (&'static str, String)) -> [Face; 2] {
    let count = |n: usize| if n == 1 { "1 card".to_owned() } else { format!("{n} cards") };
    let mut draw = Face::new(CardKey::Pile { hero: h, discard: false }, Kind::Pile, Spot::Pile { row, discard: false });
    draw.count = Some(hero.draw.len());
    draw.name = hero.name().to_owned();
    draw.icon = icon.clone();
    draw.hover = format!("{}'s Draw Pile: {}, face down.", hero.name(), count(hero.draw.len()));
    let mut discard =
        Face::new(CardKey::Pile { hero: h, discard: true }, Kind::Pile, Spot::Pile { row, discard: true });
    discard.value = hero.discard.last().map_or_else(String::new, |c| value_text(c.power, Some(c.value)));
    discard.count = Some(hero.discard.len());
    discard.name = hero.name().to_owned();
    discard.icon = icon;
    let cards: Vec<String> = hero.discard.iter().rev().map(|c| value_text(c.power, Some(c.value))).collect();
    discard.hover = match cards.is_empty() {
        true => format!("{}'s Discard Pile: empty.", hero.name()),
        false => format!("{}'s Discard Pile: {}, top first: {}.", hero.name(), count(cards.len()), cards.join(", ")),
    };
    [draw, discard]
}

/// The Feature and Legendary Location cards being resolved.
fn ecology_cards(game: &Game, out: &mut Vec<Face>) {
    let Some(a) = game.adventure() else { return };
    let mut index = 0;
    for r in &a.resolving {
        let (name, value, icon, text) = match r {
            Resolving::Feature(card) => (
                card.name.clone(),
                format!("{} XP", card.xp),
                "feature",
                effects_text(&a.content, &card.description, &card.effects),
            ),
            // Its worth, as a Feature card's: the pile label on its back
            // ("3B I") means nothing to a player.
            Resolving::Legendary { card, .. } => (
                card.name.clone(),
                format!("{} XP", card.xp),
                "legendary_location",
                effects_text(&a.content, &card.description, &card.effects),
            ),
            _ => continue,
        };
        let mut f = Face::new(ecology_key(&name), Kind::Ecology, Spot::Ecology { index });
        f.hover = format!("{name}\n{text}");
        f.name = name;
        f.value = value;
        f.icon = ("elements", icon.to_owned());
        out.push(f);
        index += 1;
    }
}

fn effects_text(content: &depths_rules::Content, description: &str, effects: &[depths_rules::Effect]) -> String {
    // The content names the Items and Monsters the rules text names by id.
    let rules = content.effect_text(effects);
    if description.is_empty() { rules } else { format!("{description}\n{rules}") }
}
