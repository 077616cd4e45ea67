//! What the Heroes fight: one Monster Card (with one health token per
//! individual Monster), or the Final Entity (one enemy of several part cards).

use serde::{Deserialize, Serialize};

use crate::action_card::Difficulty;
use crate::effect::{Ability, Activation, Effect};
use crate::monster::{EntityPart, EntityPartCard, EntityTailCard, HealthState, MonsterCard, MonsterType};

/// One health token on the Health Track.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Individual {
    pub name: String,
    pub part: Option<EntityPart>,
    pub health: u8,
    pub max_health: u8,
    /// Armor that protects this individual only (a Final Entity part's own Armor
    /// applies to that part only; a Monster's passive Armor to each individual).
    pub armor: u8,
}

impl Individual {
    pub fn alive(&self) -> bool {
        self.health > 0
    }
}

/// The cards making up the Final Entity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FinalEntity {
    pub head_1: EntityPartCard,
    pub head_2: EntityPartCard,
    pub body: EntityPartCard,
    pub tail: EntityTailCard,
}

impl FinalEntity {
    /// The parts with health of their own: Head I, Head II, Body.
    pub fn parts(&self) -> [&EntityPartCard; 3] {
        [&self.head_1, &self.head_2, &self.body]
    }

    /// The card of one part.
    pub fn part(&self, part: EntityPart) -> &EntityPartCard {
        match part {
            EntityPart::HeadI => &self.head_1,
            EntityPart::HeadII => &self.head_2,
            EntityPart::Body => &self.body,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FoeCard {
    Monster(MonsterCard),
    FinalEntity(Box<FinalEntity>),
}

/// A Power-Activated ability list that cycles ("Multiple Monster Abilities").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PowerList {
    /// For the Final Entity: the Head whose abilities these are.
    pub part: Option<EntityPart>,
    pub abilities: Vec<Ability>,
    pub next: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Foe {
    pub card: FoeCard,
    pub difficulty: Difficulty,
    pub individuals: Vec<Individual>,
    pub power_lists: Vec<PowerList>,
    /// A Monster can only Activate its Power-Activated Ability once per Round.
    pub power_used_this_round: bool,
    pub card_bonus: u8,
    pub resists_non_magic: bool,
}

impl Foe {
    pub fn monster(card: MonsterCard, heroes: usize) -> Foe {
        let health = card.health_for(heroes);
        let armor = card.armor();
        let individuals = (0..card.monster_type.individuals())
            .map(|i| Individual {
                name: if card.monster_type == MonsterType::Singular {
                    card.name.clone()
                } else {
                    format!("{} #{}", card.name, i + 1)
                },
                part: None,
                health,
                max_health: health,
                armor,
            })
            .collect();
        let powers: Vec<Ability> = card.power_abilities().cloned().collect();
        Foe {
            difficulty: card.difficulty,
            card_bonus: card.card_bonus(),
            resists_non_magic: card.resists_non_magic(),
            power_lists: if powers.is_empty() {
                Vec::new()
            } else {
                vec![PowerList { part: None, abilities: powers, next: 0 }]
            },
            individuals,
            power_used_this_round: false,
            card: FoeCard::Monster(card),
        }
    }

    /// "Combat with the Final Entity": separate health tokens per part, both
    /// Heads' Power-Activated abilities fire on one Power Card.
    pub fn final_entity(entity: FinalEntity, heroes: usize) -> Foe {
        let parts = entity.parts();
        let individuals = parts
            .iter()
            .map(|p| {
                let h = p.health[heroes.clamp(1, 3) - 1];
                Individual { name: p.name.clone(), part: Some(p.part), health: h, max_health: h, armor: p.armor }
            })
            .collect();
        let power_lists = [&entity.head_1, &entity.head_2]
            .iter()
            .map(|p| PowerList {
                part: Some(p.part),
                abilities: p
                    .abilities
                    .iter()
                    .filter(|a| matches!(a.activation, Activation::Power(_)))
                    .cloned()
                    .collect(),
                next: 0,
            })
            .filter(|l| !l.abilities.is_empty())
            .collect();
        let passives: Vec<&Effect> = parts
            .iter()
            .flat_map(|p| p.abilities.iter())
            .chain(entity.tail.abilities.iter())
            .filter(|a| a.activation == Activation::Passive)
            .flat_map(|a| a.effects.iter())
            .collect();
        Foe {
            difficulty: entity.tail.difficulty,
            card_bonus: passives
                .iter()
                .map(|e| if let Effect::MonsterCardBonus { amount } = e { *amount } else { 0 })
                .fold(0, u8::saturating_add),
            resists_non_magic: passives.iter().any(|e| matches!(e, Effect::ResistNonMagic)),
            individuals,
            power_lists,
            power_used_this_round: false,
            card: FoeCard::FinalEntity(Box::new(entity)),
        }
    }

    pub fn name(&self) -> &str {
        match &self.card {
            FoeCard::Monster(m) => &m.name,
            FoeCard::FinalEntity(_) => "the Final Entity",
        }
    }

    pub fn alive_count(&self) -> u8 {
        self.individuals.iter().filter(|i| i.alive()).count() as u8
    }

    pub fn is_horde(&self) -> bool {
        matches!(&self.card, FoeCard::Monster(m) if matches!(m.monster_type, MonsterType::Horde(_)))
    }

    /// The current Monster Health State column, if the card has a table.
    pub fn health_state(&self) -> Option<HealthState> {
        match &self.card {
            FoeCard::Monster(m) => m.health_state(self.alive_count()),
            FoeCard::FinalEntity(_) => None,
        }
    }

    /// Action Cards (monster, hero) played this Round: 2 each unless the
    /// Health State says otherwise.
    pub fn cards_to_play(&self) -> (u8, u8) {
        self.health_state().map_or((2, 2), |s| (s.monster_cards, s.hero_cards))
    }

    fn part_down(&self, part: EntityPart) -> bool {
        self.individuals.iter().any(|i| i.part == Some(part) && !i.alive())
    }

    /// Monsters: every individual down. The Final Entity: both Heads, or the
    /// Body and one Head.
    pub fn is_defeated(&self) -> bool {
        match &self.card {
            FoeCard::Monster(_) => self.alive_count() == 0,
            FoeCard::FinalEntity(_) => {
                let heads = [EntityPart::HeadI, EntityPart::HeadII].iter().filter(|p| self.part_down(**p)).count();
                heads == 2 || (heads == 1 && self.part_down(EntityPart::Body))
            }
        }
    }

    /// Whether a power list's owner can still act (a defeated Head doesn't).
    pub fn power_list_active(&self, list: &PowerList) -> bool {
        list.part.is_none_or(|p| !self.part_down(p))
    }

    /// How much of one source of damage an individual actually loses:
    /// halved if non-magic against a resistant foe, then less its Armor.
    pub fn damage_taken(&self, individual: usize, amount: u8, magic: bool) -> u8 {
        let a = if self.resists_non_magic && !magic { amount / 2 } else { amount };
        a.saturating_sub(self.individuals.get(individual).map_or(0, |i| i.armor))
    }

    pub fn xp(&self) -> u8 {
        match &self.card {
            FoeCard::Monster(m) => m.xp,
            FoeCard::FinalEntity(_) => 0,
        }
    }
}
