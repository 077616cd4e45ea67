//! The rules text players read on a card, generated from its [`Effect`]s so
//! that it always says what the engine does. There is one generator,
//! [`rules_text`]; [`Effect::text`], [`Ability::text`] and
//! [`Content::effect_text`] are views of it (without or with the content that
//! gives the Items and Monsters the effects name by id their printed names).
//! The effects themselves are data in `effect`; what they do is
//! `effect_resolution`.

use crate::content::Content;
use crate::effect::{Ability, Activation, Effect, Whom};

/// A card's rules text: the sentence of each effect, in order, separated by
/// spaces. With `content`, an Item or Monster that an effect names by id reads
/// by its printed name (an id the content lacks stays as it is); without, by
/// its id.
pub fn rules_text(effects: &[Effect], content: Option<&Content>) -> String {
    effects.iter().map(|e| sentence(e, content)).collect::<Vec<_>>().join(" ")
}

/// One effect's sentence (a Test's holds the sentences of its outcomes).
fn sentence(effect: &Effect, content: Option<&Content>) -> String {
    fn whom(w: Whom) -> &'static str {
        match w {
            Whom::Hero => "the Hero",
            Whom::Heroes => "all Heroes",
            Whom::ChosenHero => "a Hero of your choice",
        }
    }
    match effect {
        Effect::DamageHeroes { amount, whom: w, ignore_armor } => {
            format!("Deal {amount} Damage to {}{}.", whom(*w), if *ignore_armor { " (Ignore Armor)" } else { "" })
        }
        Effect::HealHeroes { amount, whom: w } => format!("Heal {} by {amount}.", whom(*w)),
        Effect::DamageMonster { amount, magic } => {
            format!("Deal {amount}{} Damage to one individual Monster.", if *magic { " (Magic)" } else { "" })
        }
        Effect::HealMonster { amount } => format!("Each living Monster in the set Heals {amount}."),
        Effect::SwapPlayedCards => "Swap the positions of your Played Action Cards.".into(),
        Effect::ModifyPlayedCard { delta } => format!("{delta:+} to one of your Played Cards this Round."),
        Effect::ModifyMonsterCard { delta } => {
            format!("{delta:+} to one Monster Card played against you this Round.")
        }
        Effect::RedrawMonsterCard => {
            "Discard one Monster Card played against you; the Monster draws a replacement.".into()
        }
        Effect::ReplacePlayedCard => "Draw a card to replace one of your Played Cards.".into(),
        Effect::BonusDamage { amount } => format!("+{amount} Damage from your Combat Pair this Round."),
        Effect::IgnoreResults => "Ignore Results: don't Resolve your Combat Pairs this Round.".into(),
        Effect::Armor { amount } => format!("+{amount} Armor."),
        Effect::Magic => "(Magic) attacks.".into(),
        Effect::ResistNonMagic => "Resistant to non-magic attacks (half Damage).".into(),
        Effect::MonsterCardBonus { amount } => format!("+{amount} to each Action Card it plays."),
        Effect::PlayOneCardNextRound { whom: w } => {
            format!("Next Round, {} may play only 1 Action Card.", whom(*w))
        }
        Effect::LoseStoredPower { whom: w } => format!("{} discard a Stored Power Card.", whom(*w)),
        Effect::Retrieve => "Retrieve a card from your Discard Pile onto your Draw Pile.".into(),
        Effect::RefreshSpells => "Refresh your Exhausted Spells.".into(),
        Effect::Test { target, cards, success, failure } => {
            let list = |v: &[Effect]| if v.is_empty() { "nothing happens.".into() } else { rules_text(v, content) };
            format!(
                "Test: each Hero draws and plays {cards} Action Card{}; total {}/{}/{}. Success: {} Failure: {}",
                if *cards == 1 { "" } else { "s" },
                target[0],
                target[1],
                target[2],
                list(success),
                list(failure),
            )
        }
        Effect::Keys { amount } if *amount >= 0 => {
            format!("Gain {amount} Key{}.", if *amount == 1 { "" } else { "s" })
        }
        Effect::Keys { amount } => format!("Lose {} Key{}.", -amount, if *amount == -1 { "" } else { "s" }),
        Effect::DrawItem => "One Hero draws an Item.".into(),
        Effect::GainItem { item } => format!("One Hero gains the Item \"{}\".", item_name(content, item)),
        Effect::FightMonster => "Draw the next Monster Card and enter into Combat with it.".into(),
        Effect::FightNamedMonster { monster } => {
            format!("Enter into Combat with \"{}\".", monster_name(content, monster))
        }
        Effect::ShuffleIntoMonsters { monster } => {
            format!("Shuffle \"{}\" into the Monster deck.", monster_name(content, monster))
        }
        Effect::RevealFeatures { count } => {
            format!(
                "Reveal the next ({count}) Features. Assign them in any order to the next ({count}) Features Encountered."
            )
        }
        Effect::UnlockDoor => "Unlock a Door.".into(),
        Effect::StorePower => "Each Hero Stores a Power Card from their Draw or Discard Pile.".into(),
        Effect::GoToPile { letter } => format!("Continue with pile {letter}."),
        Effect::WoundEachRound { amount } => {
            format!("At the end of every Combat Round, take {amount} Damage (Ignore Armor).")
        }
    }
}

/// The printed name of the Item `id`, or the id itself.
fn item_name<'a>(content: Option<&'a Content>, id: &'a str) -> &'a str {
    content.and_then(|c| c.item(id)).map_or(id, |i| i.name.as_str())
}

/// The printed name of the Monster (or Stair Guardian) `id`, or the id itself.
fn monster_name<'a>(content: Option<&'a Content>, id: &'a str) -> &'a str {
    content
        .into_iter()
        .flat_map(|c| &c.ecologies)
        .flat_map(|e| e.monsters.iter().chain(&e.stair_guardians))
        .find(|m| m.id == id)
        .map_or(id, |m| m.name.as_str())
}

impl Effect {
    /// This effect's rules text, Items and Monsters named by id ([`rules_text`]
    /// without content).
    pub fn text(&self) -> String {
        rules_text(std::slice::from_ref(self), None)
    }
}

impl Ability {
    /// "Name (cost): rules text", as printed on the card.
    pub fn text(&self) -> String {
        let cost = match self.activation {
            Activation::Passive => "Passive".to_string(),
            Activation::Power(n) => format!("{n} Power"),
            Activation::Block => "Block".to_string(),
        };
        format!("{} ({cost}): {}", self.name, self.effect_text())
    }

    /// What it does, without its name and cost: "rules text", and "Exhaust
    /// After Use." where it says so.
    pub fn effect_text(&self) -> String {
        let exhaust = if self.exhaust_after_use { " Exhaust After Use." } else { "" };
        format!("{}{exhaust}", rules_text(&self.effects, None))
    }
}

impl Content {
    /// A card's rules text as players read it: [`rules_text`] with Item and
    /// Monster names in place of their ids.
    pub fn effect_text(&self, effects: &[Effect]) -> String {
        rules_text(effects, Some(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_in_effect_text_take_the_right_number() {
        assert_eq!(Effect::Keys { amount: 1 }.text(), "Gain 1 Key.");
        assert_eq!(Effect::Keys { amount: 2 }.text(), "Gain 2 Keys.");
        assert_eq!(Effect::Keys { amount: -1 }.text(), "Lose 1 Key.");
        let test = |cards| Effect::Test { target: [5, 9, 13], cards, success: vec![], failure: vec![] }.text();
        assert!(test(1).contains("plays 1 Action Card;"), "{}", test(1));
        assert!(test(2).contains("plays 2 Action Cards;"), "{}", test(2));
    }
}
