//! Legendary Location Cards and the arrangement of their draw piles
//! ("Arranging the Legendary Location Cards", "5. Legendary Locations").

use serde::{Deserialize, Serialize};

use crate::GameRng;
use crate::effect::Effect;
use crate::shared::Shared;

/// The back of a Legendary Location Card: "2", or "2A" with a roman numeral.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PileLabel {
    /// The Rune Pattern number.
    pub number: u8,
    /// `None` for the number-only entry pile.
    pub letter: Option<char>,
    /// I = 1, II = 2 …; only on lettered cards.
    pub roman: Option<u8>,
}

impl PileLabel {
    /// Parses "2", "2A I", "2A-II", "3B III". Without allocating unless it
    /// fails: a determinized copy parses the back of every lettered card.
    pub fn parse(text: &str) -> Result<PileLabel, String> {
        let t = text.trim();
        let digits = &t[..t.bytes().take_while(u8::is_ascii_digit).count()];
        let number: u8 = digits.parse().map_err(|_| format!("label \"{text}\" must start with a number"))?;
        let rest = t[digits.len()..].trim_start();
        if rest.is_empty() {
            return Ok(PileLabel { number, letter: None, roman: None });
        }
        let mut chars = rest.chars();
        let letter = chars
            .next()
            .filter(char::is_ascii_uppercase)
            .ok_or_else(|| format!("label \"{text}\": expected a letter"))?;
        let roman_text = chars.as_str().trim_start_matches(['-', ' ']);
        let roman = match roman_text {
            "I" => 1,
            "II" => 2,
            "III" => 3,
            "IV" => 4,
            "V" => 5,
            "VI" => 6,
            _ => return Err(format!("label \"{text}\": expected a roman numeral I–VI after the letter")),
        };
        Ok(PileLabel { number, letter: Some(letter), roman: Some(roman) })
    }
}

impl std::fmt::Display for PileLabel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const ROMAN: [&str; 7] = ["", "I", "II", "III", "IV", "V", "VI"];
        match (self.letter, self.roman) {
            (Some(l), Some(r)) => write!(f, "{}{l} {}", self.number, ROMAN[usize::from(r).min(6)]),
            _ => write!(f, "{}", self.number),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegendaryCard {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// The back: "1", "1A I", …
    pub back: String,
    /// The letter in the upper-right corner: the pile to draw from next.
    #[serde(default)]
    pub next: Option<char>,
    pub xp: u8,
    #[serde(default)]
    pub effects: Vec<Effect>,
}

impl LegendaryCard {
    pub fn label(&self) -> Result<PileLabel, String> {
        PileLabel::parse(&self.back)
    }
}

/// One Rune Pattern's piles: the number-only pile and one pile per letter,
/// each stacked with the lowest roman numeral on top. Top of a pile = last.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LegendaryPiles {
    pub number: u8,
    pub entry: Vec<Shared<LegendaryCard>>,
    pub lettered: Vec<(char, Vec<Shared<LegendaryCard>>)>,
}

impl LegendaryPiles {
    /// Arranges one pattern's cards as the book says: number-only cards
    /// shuffled together; lettered piles stacked highest roman numeral at the
    /// bottom, cards sharing number, letter and numeral shuffled among themselves.
    pub fn arrange(number: u8, cards: &[LegendaryCard], rng: &mut GameRng) -> LegendaryPiles {
        LegendaryLayout::new(number, cards).deal(rng)
    }

    pub fn pile_mut(&mut self, letter: char) -> Option<&mut Vec<Shared<LegendaryCard>>> {
        self.lettered.iter_mut().find(|(l, _)| *l == letter).map(|(_, p)| p)
    }
}

/// One pattern's cards sorted into their piles, not yet shuffled: the
/// content sorts them once for every game set up from it (each Game Setup
/// parsed every card's label once for each pattern).
#[derive(Clone, Debug, PartialEq)]
pub struct LegendaryLayout {
    number: u8,
    entry: Vec<Shared<LegendaryCard>>,
    /// Each letter's cards by roman numeral, the highest (the bottom) first.
    lettered: Vec<(char, Vec<Vec<Shared<LegendaryCard>>>)>,
}

impl LegendaryLayout {
    pub fn new(number: u8, cards: &[LegendaryCard]) -> LegendaryLayout {
        let labelled: Vec<(PileLabel, &LegendaryCard)> =
            cards.iter().filter_map(|c| c.label().ok().map(|l| (l, c))).filter(|(l, _)| l.number == number).collect();
        let entry =
            labelled.iter().filter(|(l, _)| l.letter.is_none()).map(|(_, c)| Shared::new((*c).clone())).collect();
        let mut letters: Vec<char> = labelled.iter().filter_map(|(l, _)| l.letter).collect();
        letters.sort_unstable();
        letters.dedup();
        let lettered = letters
            .into_iter()
            .map(|letter| {
                let mut romans: Vec<u8> =
                    labelled.iter().filter(|(l, _)| l.letter == Some(letter)).filter_map(|(l, _)| l.roman).collect();
                romans.sort_unstable();
                romans.dedup();
                let numerals = romans
                    .into_iter()
                    .rev()
                    .map(|roman| {
                        labelled
                            .iter()
                            .filter(|(l, _)| l.letter == Some(letter) && l.roman == Some(roman))
                            .map(|(_, c)| Shared::new((*c).clone()))
                            .collect()
                    })
                    .collect();
                (letter, numerals)
            })
            .collect();
        LegendaryLayout { number, entry, lettered }
    }

    /// The piles as [`LegendaryPiles::arrange`] deals them: the cards
    /// shared, the same draws from `rng`.
    pub fn deal(&self, rng: &mut GameRng) -> LegendaryPiles {
        let mut entry = self.entry.clone();
        rng.shuffle(&mut entry);
        let lettered = self
            .lettered
            .iter()
            .map(|(letter, numerals)| {
                let mut pile = Vec::with_capacity(numerals.iter().map(Vec::len).sum());
                // Bottom first: the highest numeral goes in first.
                for cards in numerals {
                    let start = pile.len();
                    pile.extend(cards.iter().cloned());
                    rng.shuffle(&mut pile[start..]);
                }
                (*letter, pile)
            })
            .collect();
        LegendaryPiles { number: self.number, entry, lettered }
    }
}
