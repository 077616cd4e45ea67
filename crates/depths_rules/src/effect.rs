//! What cards do, as data. Every rule printed on a Monster, Ability, Item,
//! Feature or Legendary Location card is a list of [`Effect`]s that the engine
//! interprets (`effect_resolution`); the text players read is generated from
//! them (`card_text`, [`Effect::text`]).

use serde::{Deserialize, Serialize};

/// Which Heroes an effect touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Whom {
    /// The Hero the card acts on: the one a Monster Power Card was drawn
    /// against, or the Hero who activates an Ability.
    Hero,
    /// Every Hero ("Heroes", plural, in the book's wording).
    Heroes,
    /// One Hero the players choose.
    ChosenHero,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "snake_case")]
pub enum Effect {
    // --- damage and healing ---
    /// Damage to Heroes (a Monster's ability, a Feature's failure…). Armor
    /// reduces it in Combat unless `ignore_armor`.
    DamageHeroes {
        amount: u8,
        whom: Whom,
        #[serde(default)]
        ignore_armor: bool,
    },
    HealHeroes {
        amount: u8,
        whom: Whom,
    },
    /// A Hero's ability deals damage to one individual Monster (or Final
    /// Entity part) the Hero chooses.
    DamageMonster {
        amount: u8,
        #[serde(default)]
        magic: bool,
    },
    /// A Monster heals each of its living individuals.
    HealMonster {
        amount: u8,
    },

    // --- combat-pair modifiers (Hero abilities) ---
    /// Swap the positions of the Hero's two Played Action Cards ("Brush Aside").
    SwapPlayedCards,
    /// Change the value of one of the Hero's Played Cards this Round.
    ModifyPlayedCard {
        delta: i8,
    },
    /// Change the value of one Monster Card played against the Hero this Round.
    ModifyMonsterCard {
        delta: i8,
    },
    /// Discard one Monster Card played against the Hero; the Monster draws a replacement.
    RedrawMonsterCard,
    /// Draw a card from the Hero's deck to replace one of their Played Cards.
    ReplacePlayedCard,
    /// Add to the damage the Hero deals from their Combat Pair this Round.
    BonusDamage {
        amount: u8,
    },
    /// Don't resolve the Hero's Combat Pairs this Round.
    IgnoreResults,

    // --- standing qualities (Passive abilities, Items) ---
    /// Reduce each separate source of damage received (Hero) or dealt to each
    /// individual (Monster).
    Armor {
        amount: u8,
    },
    /// The Hero's attacks are (Magic).
    Magic,
    /// Damage from non-magic attacks is halved (rounded down).
    ResistNonMagic,
    /// Each Action Card the Monster plays is worth this much more.
    MonsterCardBonus {
        amount: u8,
    },

    // --- decks, hands and Power ---
    /// The affected Heroes play only 1 Action Card next Round.
    PlayOneCardNextRound {
        whom: Whom,
    },
    /// The affected Heroes discard one Stored Power Card, if they have one.
    LoseStoredPower {
        whom: Whom,
    },
    /// Put a card from the Hero's Discard Pile on top of their Draw Pile.
    Retrieve,
    /// Refresh the Hero's Exhausted Spells.
    RefreshSpells,

    // --- Exploring and Encountering (Features, Legendary Locations, Items) ---
    /// A test: the Heroes draw and play `cards` Action Cards each from their
    /// Draw Piles; Success if the total reaches the target for 1/2/3 Heroes.
    Test {
        target: [u8; 3],
        cards: u8,
        success: Vec<Effect>,
        failure: Vec<Effect>,
    },
    /// Gain (or, negative, lose) Keys.
    Keys {
        amount: i8,
    },
    /// One Hero the players choose draws an Item from their Item Cards (a
    /// Legendary Location's; a Feature gives only limited-use Items, by
    /// [`Effect::GainItem`]).
    DrawItem,
    /// One Hero the players choose gains this particular Item (Legendary
    /// Location treasures, limited-use Items, the Fabled Blades).
    GainItem {
        item: String,
    },
    /// Draw the next Monster Card and fight it.
    FightMonster,
    /// Fight this particular Monster (a Legendary Location's guardian).
    FightNamedMonster {
        monster: String,
    },
    /// Shuffle a set-aside Monster Card into the Monster deck (the Crazed Bipedal Saurian).
    ShuffleIntoMonsters {
        monster: String,
    },
    /// Reveal the next Features and put them back in the order the players choose.
    RevealFeatures {
        count: u8,
    },
    /// Unlock one Door (Items, Abilities, Spells that unlock).
    UnlockDoor,
    /// Every Hero Stores one Power Card from their Draw Pile or Discard, if any.
    StorePower,
    /// Legendary Locations: continue with this lettered pile of the pattern
    /// (overrides the letter printed on the card, so outcomes can branch).
    GoToPile {
        letter: char,
    },
    /// Passive, the terrible cost of a mighty Item: at the end of every Combat
    /// Round its wielder takes this much Damage, ignoring Armor.
    WoundEachRound {
        amount: u8,
    },
}

impl Effect {
    /// Whether this effect needs a target chosen when activated, and which kind.
    pub fn target_kind(&self) -> TargetKind {
        match self {
            Effect::DamageMonster { .. } => TargetKind::Individual,
            Effect::SwapPlayedCards => TargetKind::Engagement,
            Effect::ModifyPlayedCard { .. } | Effect::ReplacePlayedCard => TargetKind::HeroSlot,
            Effect::ModifyMonsterCard { .. } | Effect::RedrawMonsterCard => TargetKind::MonsterSlot,
            Effect::HealHeroes { whom: Whom::ChosenHero, .. }
            | Effect::DamageHeroes { whom: Whom::ChosenHero, .. }
            | Effect::PlayOneCardNextRound { whom: Whom::ChosenHero }
            | Effect::LoseStoredPower { whom: Whom::ChosenHero } => TargetKind::Hero,
            Effect::Retrieve => TargetKind::DiscardCard,
            _ => TargetKind::None,
        }
    }

    /// Whether the effect changes the Combat Pairs (so it must come before a pair is chosen).
    pub fn alters_pairs(&self) -> bool {
        matches!(
            self,
            Effect::SwapPlayedCards
                | Effect::ModifyPlayedCard { .. }
                | Effect::ModifyMonsterCard { .. }
                | Effect::RedrawMonsterCard
                | Effect::ReplacePlayedCard
        )
    }
}

/// What an activated ability needs the player to point at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TargetKind {
    None,
    /// One of the Hero's engagements (both their Played Cards there).
    Engagement,
    /// One individual Monster / Final Entity part.
    Individual,
    /// One of the Hero's Played Cards.
    HeroSlot,
    /// One Monster Card played against the Hero.
    MonsterSlot,
    /// One Hero.
    Hero,
    /// A card in the Hero's Discard Pile.
    DiscardCard,
}

/// How an Ability is paid for ("4. Activate Hero Abilities").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Activation {
    /// Always on.
    Passive,
    /// Costs this many Stored Power Cards.
    Power(u8),
    /// Paid for by Resolving a Block; one per Round.
    Block,
}

/// An Ability on a Hero Mat, Ability Card, Item or Monster card.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ability {
    pub name: String,
    pub activation: Activation,
    pub effects: Vec<Effect>,
    /// "Exhaust After Use" (Spells).
    #[serde(default)]
    pub exhaust_after_use: bool,
}

/// Every effect in `effects`, including those inside a test's Success and
/// Failure, in order.
pub fn all_effects(effects: &[Effect]) -> Vec<&Effect> {
    fn walk<'a>(effects: &'a [Effect], out: &mut Vec<&'a Effect>) {
        for e in effects {
            out.push(e);
            if let Effect::Test { success, failure, .. } = e {
                walk(success, out);
                walk(failure, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(effects, &mut out);
    out
}

/// Effects that only make sense while Exploring (not in a Combat Round).
pub fn is_exploring_effect(e: &Effect) -> bool {
    matches!(
        e,
        Effect::Test { .. }
            | Effect::Keys { .. }
            | Effect::DrawItem
            | Effect::GainItem { .. }
            | Effect::FightMonster
            | Effect::FightNamedMonster { .. }
            | Effect::ShuffleIntoMonsters { .. }
            | Effect::RevealFeatures { .. }
            | Effect::UnlockDoor
            | Effect::StorePower
            | Effect::GoToPile { .. }
    )
}

impl Ability {
    /// The one kind of target the ability needs (content validation makes sure
    /// no ability needs two).
    pub fn target_kind(&self) -> TargetKind {
        self.effects.iter().map(Effect::target_kind).find(|k| *k != TargetKind::None).unwrap_or(TargetKind::None)
    }

    pub fn alters_pairs(&self) -> bool {
        self.effects.iter().any(Effect::alters_pairs)
    }

    /// Checks that the engine can carry the ability out.
    pub fn validate(&self) -> Result<(), String> {
        let kinds: Vec<TargetKind> =
            self.effects.iter().map(Effect::target_kind).filter(|k| *k != TargetKind::None).collect();
        if kinds.windows(2).any(|w| w[0] != w[1]) {
            return Err(format!("ability \"{}\" needs two different kinds of target", self.name));
        }
        if self.effects.is_empty() {
            return Err(format!("ability \"{}\" has no effects", self.name));
        }
        // A Block pays for the ability once the Block is chosen, and a chosen
        // pair can no longer be changed: such an ability could never be used.
        if self.activation == Activation::Block && self.alters_pairs() {
            return Err(format!(
                "Block-Activated ability \"{}\" would change the Combat Pairs after the Block",
                self.name
            ));
        }
        // "Block: No Damage is done to the Hero or Monster", and a Hero
        // resolves one pair a Round: an effect on the Combat Pair's Damage
        // or results, after a Block, acts on nothing (a player's Searing
        // Thrust was spent so). The content tests held the class cards to
        // this; the rules now hold every card to it.
        if self.activation == Activation::Block
            && let Some(e) =
                self.effects.iter().find(|e| matches!(e, Effect::BonusDamage { .. } | Effect::IgnoreResults))
        {
            return Err(format!(
                "Block-Activated ability \"{}\" has {e:?}, which acts on the Combat Pair's Damage, and a Block deals none",
                self.name
            ));
        }
        Ok(())
    }

    /// Total of a standing quality among Passive effects.
    pub fn passive_armor(&self) -> u8 {
        if self.activation != Activation::Passive {
            return 0;
        }
        self.effects
            .iter()
            .map(|e| if let Effect::Armor { amount } = e { *amount } else { 0 })
            .fold(0, u8::saturating_add)
    }

    pub fn passive_has(&self, probe: fn(&Effect) -> bool) -> bool {
        self.activation == Activation::Passive && self.effects.iter().any(probe)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "When a Hero chooses to Resolve a Block, they may Activate a
    /// Block-Activated Ability": it comes after the pair is chosen, so it
    /// cannot be one that changes the pairs.
    #[test]
    fn a_block_activated_ability_may_not_change_the_combat_pairs() {
        let swap = Ability {
            name: "Roll Aside".into(),
            activation: Activation::Block,
            effects: vec![Effect::SwapPlayedCards],
            exhaust_after_use: false,
        };
        assert!(swap.validate().unwrap_err().contains("after the Block"));
        let power_swap = Ability { activation: Activation::Power(1), ..swap.clone() };
        assert_eq!(power_swap.validate(), Ok(()));
        let armor = Ability { effects: vec![Effect::Armor { amount: 2 }], ..swap };
        assert_eq!(armor.validate(), Ok(()));
    }

    /// "Block: No Damage is done to the Hero or Monster", and the Block is
    /// the pair resolved: an ability it pays for that only adds to the
    /// Combat Pair's Damage adds to nothing (a playtester's Searing Thrust,
    /// spent for no effect). Damage of its own to the Monster is fine, and
    /// the same bonus paid with Power is too.
    #[test]
    fn a_block_activated_ability_may_not_only_add_to_the_pairs_damage() {
        let thrust = Ability {
            name: "Searing Thrust".into(),
            activation: Activation::Block,
            effects: vec![Effect::BonusDamage { amount: 3 }],
            exhaust_after_use: false,
        };
        assert!(thrust.validate().unwrap_err().contains("a Block deals none"), "{:?}", thrust.validate());
        let with_power = Ability { activation: Activation::Power(1), ..thrust.clone() };
        assert_eq!(with_power.validate(), Ok(()));
        let strike = Ability { effects: vec![Effect::DamageMonster { amount: 3, magic: false }], ..thrust.clone() };
        assert_eq!(strike.validate(), Ok(()));
        // Nor beside another effect, nor one that sets the pair's results aside.
        let mixed =
            Ability { effects: vec![Effect::Armor { amount: 1 }, Effect::BonusDamage { amount: 2 }], ..thrust.clone() };
        assert!(mixed.validate().is_err());
        let ignore = Ability { effects: vec![Effect::IgnoreResults], ..thrust };
        assert!(ignore.validate().unwrap_err().contains("a Block deals none"));
    }
}
