//! Cards made for the tests: Abilities, Monsters (some of them the book's
//! examples), a Final Entity, an Item and a Spell, built in code so a test
//! shows the card it plays with.

use depths_rules::combat::FinalEntity;
use depths_rules::effect::{Ability, Activation, Effect, Whom};
use depths_rules::hero::{AbilityCard, HeroClass, OwnedAbility};
use depths_rules::monster::{EntityPart, EntityPartCard, EntityTailCard, HealthState};
use depths_rules::{Difficulty, MonsterCard, MonsterType};

pub fn power(name: &str, effects: Vec<Effect>) -> Ability {
    Ability { name: name.into(), activation: Activation::Power(1), effects, exhaust_after_use: false }
}

pub fn passive(name: &str, effects: Vec<Effect>) -> Ability {
    Ability { name: name.into(), activation: Activation::Passive, effects, exhaust_after_use: false }
}

pub fn monster(name: &str, difficulty: Difficulty, health: [u8; 3], abilities: Vec<Ability>) -> MonsterCard {
    MonsterCard {
        id: name.to_lowercase().replace(' ', "_"),
        name: name.into(),
        description: String::new(),
        difficulty,
        monster_type: MonsterType::Singular,
        health,
        health_states: Vec::new(),
        xp: 2,
        set_aside: false,
        abilities,
    }
}

pub fn states(cols: &[(u8, u8, u8)]) -> Vec<HealthState> {
    cols.iter().map(|&(alive, monster_cards, hero_cards)| HealthState { alive, monster_cards, hero_cards }).collect()
}

/// "Withered Shade": a Light Group, Health 4 / 8 / 12, "Flash of Anguish: Deal 4 Damage to Hero".
pub fn withered_shade() -> MonsterCard {
    MonsterCard {
        monster_type: MonsterType::Group,
        health_states: states(&[(4, 2, 2), (3, 2, 2), (2, 1, 2), (1, 1, 2)]),
        ..monster(
            "Withered Shade",
            Difficulty::I,
            [4, 8, 12],
            vec![power(
                "Flash of Anguish",
                vec![Effect::DamageHeroes { amount: 4, whom: Whom::Hero, ignore_armor: false }],
            )],
        )
    }
}

/// "Decrepit Skeletal Warriors": a Group; 10 Health each with two Heroes;
/// at ×4 the Monsters play 2 cards and the Heroes 1.
pub fn skeletal_warriors() -> MonsterCard {
    MonsterCard {
        monster_type: MonsterType::Group,
        health_states: states(&[(4, 2, 1), (3, 2, 2), (2, 1, 2), (1, 1, 2)]),
        ..monster("Decrepit Skeletal Warriors", Difficulty::III, [5, 10, 15], vec![])
    }
}

/// "Shrieking Black Shroud" with "Sustained Wail": Heroes play just 1 card next Round.
pub fn shrieking_shroud() -> MonsterCard {
    monster(
        "Shrieking Black Shroud",
        Difficulty::II,
        [9, 18, 27],
        vec![power("Sustained Wail", vec![Effect::PlayOneCardNextRound { whom: Whom::Heroes }])],
    )
}

pub fn sentient_vapor() -> MonsterCard {
    monster("Sentient Vapor", Difficulty::I, [8, 16, 24], vec![])
}

fn part(name: &str, part: EntityPart, health: [u8; 3], armor: u8, abilities: Vec<Ability>) -> EntityPartCard {
    EntityPartCard {
        id: name.to_lowercase(),
        name: name.into(),
        description: String::new(),
        part,
        health,
        armor,
        abilities,
    }
}

/// A Final Entity for tests: each Head has a Power-Activated ability.
pub fn final_entity() -> FinalEntity {
    FinalEntity {
        head_1: part(
            "Maw",
            EntityPart::HeadI,
            [6, 12, 18],
            0,
            vec![power("Bite", vec![Effect::DamageHeroes { amount: 2, whom: Whom::Hero, ignore_armor: false }])],
        ),
        head_2: part(
            "Crown",
            EntityPart::HeadII,
            [6, 12, 18],
            0,
            vec![power("Dread", vec![Effect::DamageHeroes { amount: 1, whom: Whom::Heroes, ignore_armor: false }])],
        ),
        body: part("Coils", EntityPart::Body, [8, 16, 24], 2, vec![]),
        tail: EntityTailCard {
            id: "tail".into(),
            name: "Tail".into(),
            description: String::new(),
            difficulty: Difficulty::III,
            abilities: vec![],
        },
    }
}

/// An equipped one-hand Fighter Item for tests.
pub fn equipped_item(name: &str, armor: u8, magic: bool, abilities: Vec<Ability>) -> depths_rules::hero::OwnedItem {
    depths_rules::hero::OwnedItem {
        card: depths_rules::hero::ItemCard {
            id: name.to_lowercase(),
            name: name.into(),
            description: String::new(),
            deck: Some(depths_rules::HeroClass::Fighter),
            class_only: None,
            hands: 1,
            magic,
            armor,
            abilities,
            xp: 1,
            add_cards: vec![],
            remove_cards: 0,
            uses: None,
            fabled_blade: false,
        },
        equipped: true,
        uses_left: None,
    }
}

pub fn spell(name: &str, activation: Activation, effects: Vec<Effect>, exhaust: bool) -> OwnedAbility {
    OwnedAbility {
        card: AbilityCard {
            id: name.into(),
            class: HeroClass::Wizard,
            ability: Ability { name: name.into(), activation, effects, exhaust_after_use: exhaust },
        },
        exhausted: false,
    }
}
