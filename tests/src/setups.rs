//! Games set up from a seed, shared by the random-play tests, the property
//! tests and the fuzz target: new-game choices, random skirmishes and one
//! fixed fight.

use depths_rules::effect::{Activation, Effect, Whom};
use depths_rules::{Content, Difficulty, Ecology, Foe, Game, GameOptions, GameRng, MonsterCard, MonsterType, Variants};

use crate::cards::{
    equipped_item, final_entity, monster, passive, power, sentient_vapor, shrieking_shroud, skeletal_warriors, spell,
    states, withered_shade,
};
use crate::scenario::mat;

/// New-game choices from a seed: 1–3 Heroes (some on their alternate side),
/// any variants, any starting Ecology.
pub fn random_options(seed: u64) -> GameOptions {
    let mut rng = GameRng::from_seed(seed);
    let n = 1 + rng.below(3) as usize;
    let heroes: Vec<String> = ["bren", "sil", "ava"][..n]
        .iter()
        .map(|id| if rng.below(3) == 0 { format!("{id}_alt") } else { id.to_string() })
        .collect();
    let mut flag = || rng.below(4) == 0;
    let variants = Variants {
        random_campfire_healing: flag(),
        no_level_up_heal: flag(),
        locked_chests: flag(),
        start_with_ability: flag(),
        six_keys: flag(),
        keys_each_ecology: flag(),
        one_dead_end: flag(),
        double_healing: flag(),
    };
    let start = [Ecology::Ruins, Ecology::Ruins, Ecology::Caverns, Ecology::Subterranean][rng.below(4) as usize];
    GameOptions { heroes, start, variants, single_classed: rng.below(2) == 0, seed }
}

/// A varied pool of Monster Cards exercising every type and monster effect.
pub fn monster_pool() -> Vec<MonsterCard> {
    let mut pair =
        monster("Twin Lurkers", Difficulty::II, [5, 9, 13], vec![passive("Hide", vec![Effect::Armor { amount: 1 }])]);
    pair.monster_type = MonsterType::Pair;
    pair.health_states = states(&[(2, 2, 2), (1, 1, 2)]);
    let mut horde = monster(
        "Rat Swarm",
        Difficulty::I,
        [2, 4, 6],
        vec![power("Gnaw", vec![Effect::LoseStoredPower { whom: Whom::Hero }])],
    );
    horde.monster_type = MonsterType::Horde(5);
    horde.health_states = states(&[(5, 2, 1), (4, 2, 1), (3, 2, 2), (2, 1, 2), (1, 1, 2)]);
    vec![
        sentient_vapor(),
        shrieking_shroud(),
        withered_shade(),
        skeletal_warriors(),
        pair,
        horde,
        monster(
            "Glass Wraith",
            Difficulty::III,
            [10, 20, 30],
            vec![
                passive("Unreal", vec![Effect::ResistNonMagic, Effect::MonsterCardBonus { amount: 1 }]),
                power("Shatter", vec![Effect::DamageHeroes { amount: 3, whom: Whom::Heroes, ignore_armor: true }]),
                power("Mend", vec![Effect::HealMonster { amount: 3 }]),
            ],
        ),
    ]
}

/// A skirmish from a seed: 1–3 Heroes at level 1–3, some with an Item or
/// Spells, against one or two Monster Cards from [`monster_pool`] or the
/// Final Entity; Combat has started.
pub fn random_game(seed: u64) -> Game {
    let mut rng = GameRng::from_seed(seed);
    let n = 1 + rng.below(3) as usize;
    let heroes: Vec<String> = ["bren", "sil", "ava"][..n]
        .iter()
        .map(|id| if rng.below(2) == 0 { id.to_string() } else { format!("{id}_alt") })
        .collect();
    let mut g = Game::with_heroes(heroes.iter().map(|h| mat(h)).collect(), 1 + rng.below(3) as u8, seed);
    for hero in &mut g.heroes {
        if rng.below(2) == 0 {
            hero.items.push(equipped_item(
                "Mail",
                1,
                rng.below(2) == 0,
                vec![power("Parry", vec![Effect::Armor { amount: 2 }])],
            ));
        }
        if rng.below(2) == 0 {
            hero.abilities.push(spell(
                "Searing Dart",
                Activation::Power(1),
                vec![Effect::DamageMonster { amount: 4, magic: true }],
                true,
            ));
            hero.abilities.push(spell("Recall", Activation::Block, vec![Effect::Retrieve], false));
            hero.abilities.push(spell("Keen Eye", Activation::Power(2), vec![Effect::ReplacePlayedCard], false));
            hero.abilities.push(spell(
                "Hex",
                Activation::Power(1),
                vec![Effect::ModifyMonsterCard { delta: -2 }],
                false,
            ));
        }
    }
    let pool = monster_pool();
    let count = g.heroes.len();
    let foes: Vec<Foe> = match rng.below(6) {
        0 => vec![Foe::final_entity(final_entity(), count)],
        1 | 2 => {
            let a = rng.below(pool.len() as u32) as usize;
            let b = (a + 1 + rng.below(pool.len() as u32 - 1) as usize) % pool.len();
            vec![Foe::monster(pool[a].clone(), count), Foe::monster(pool[b].clone(), count)]
        }
        _ => vec![Foe::monster(pool[rng.below(pool.len() as u32) as usize].clone(), count)],
    };
    g.start_combat(foes);
    g
}

/// Bren and Sil against the Moss-Covered Walking Statue and the Shrieking
/// Black Shroud (two Monster Cards still to be assigned, no card drawn yet): a
/// fight whose table is the same for every seed.
pub fn two_against_two(seed: u64) -> Game {
    let content = Content::builtin().unwrap();
    let monsters = &content.ecology(depths_rules::Ecology::Ruins).monsters;
    let pick = |name: &str| monsters.iter().find(|m| m.name == name).unwrap().clone();
    let mats = ["bren", "sil"].iter().map(|h| content.hero(h).unwrap().clone()).collect();
    let foes =
        vec![Foe::monster(pick("Moss-Covered Walking Statue"), 2), Foe::monster(pick("Shrieking Black Shroud"), 2)];
    Game::skirmish(mats, foes, seed).0
}
