//! Forgotten Depths desktop client.
//!
//! One plugin per file, each a `pub(super) fn plugin(app: &mut App)`, added by
//! its folder's `mod.rs`; the folders, bottom to top, are game → theme →
//! board → table → ui → dev, each importing only those below it. A folder's
//! `plugin` runs headless and its `desktop_plugin` needs the window;
//! [`core_plugin`] is the headless part, so tests can run it under
//! `MinimalPlugins`, and [`AppPlugin`] adds the rest.

// The client's documentation is for its maintainers (CI builds it with
// `--document-private-items`): a module's notes may name its private systems.
#![allow(rustdoc::private_intra_doc_links)]

use bevy::{prelude::*, window::WindowResolution};
use bevy_egui::EguiPlugin;

pub mod board;
#[cfg(feature = "dev-tools")]
pub mod dev;
pub mod game;
pub mod table;
pub mod theme;
pub mod ui;

pub use game::schedule::{PlaySystems, StageSystems};

/// The whole desktop client.
pub struct AppPlugin;

impl Plugin for AppPlugin {
    fn build(&self, app: &mut App) {
        let window =
            Window { title: "Forgotten Depths".into(), resolution: WindowResolution::new(1280, 800), ..default() };
        #[cfg(feature = "dev-tools")]
        let window = dev::offscreen::window(app, window);
        let backends = game::graphics::backends();
        let engine = DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(window),
                // The close button saves first (leaving.rs), then exits.
                close_when_requested: false,
                ..default()
            })
            .set(AssetPlugin { file_path: game::asset_folder::asset_dir(), ..default() })
            // Vulkan, Metal or DirectX 12, else OpenGL (graphics.rs).
            .set(bevy::render::RenderPlugin {
                render_creation: bevy::render::settings::WgpuSettings { backends: Some(backends), ..default() }.into(),
                ..default()
            })
            // The log also goes to a file in the data folder (log_file.rs).
            .set(bevy::log::LogPlugin { custom_layer: game::log_file::layer, ..default() });
        #[cfg(feature = "dev-tools")]
        let engine = dev::offscreen::engine(app, engine);
        app.add_plugins(engine);
        game::graphics::tell(backends);
        app
            // A board game must not burn a core while the players think.
            .insert_resource(game::animating::resting_pace())
            .insert_resource(ClearColor(board::art::TABLE_COLOR))
            .add_plugins(EguiPlugin::default())
            // egui draws through its own camera, after the board's and the cards'.
            .insert_resource(bevy_egui::EguiGlobalSettings { auto_create_primary_context: false, ..default() });

        app.add_plugins((
            core_plugin,
            game::desktop_plugin,
            theme::desktop_plugin,
            board::desktop_plugin,
            table::desktop_plugin,
            ui::desktop_plugin,
        ));
        #[cfg(feature = "dev-tools")]
        app.add_plugins(dev::desktop_plugin);
    }
}

/// Everything that runs without a window or renderer: states, menu actions, the
/// board model and its entities. Used by [`AppPlugin`] and by headless tests.
pub fn core_plugin(app: &mut App) {
    app.init_resource::<game::cli::Options>();
    app.add_plugins((game::plugin, board::plugin, ui::plugin));
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use bevy::{
        ecs::schedule::{ScheduleLabel, SystemSet},
        prelude::*,
        state::app::StatesPlugin,
    };
    use bevy_egui::EguiPrimaryContextPass;

    use super::*;
    use game::schedule::COMBAT_STEPS;

    /// Every stage set, in the book's order.
    fn stage_sets() -> Vec<StageSystems> {
        let mut all = vec![StageSystems::Setup, StageSystems::Exploring, StageSystems::Encountering];
        all.extend(COMBAT_STEPS.map(StageSystems::Combat));
        all.extend([StageSystems::LevelUp, StageSystems::Passage, StageSystems::GameOver]);
        all
    }

    /// The client's plugins, headless: what the board's and the table's art
    /// ask of the renderer when they are built is there, the window is not.
    fn client_app() -> App {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin, AssetPlugin::default()));
        app.init_asset::<Mesh>().init_asset::<ColorMaterial>().init_asset::<Image>();
        app.add_plugins((core_plugin, game::desktop_plugin, theme::desktop_plugin));
        app.add_plugins((board::desktop_plugin, table::desktop_plugin, ui::desktop_plugin));
        app
    }

    /// Each stage set of `label` and its systems (a key and a name each),
    /// once the schedule is built from the client's own plugins.
    fn systems_by_stage(app: &mut App, label: impl ScheduleLabel) -> Vec<(StageSystems, Vec<(String, String)>)> {
        app.world_mut().schedule_scope(label, |world, schedule| {
            schedule.initialize(world).expect("the schedule builds");
            let names: HashMap<_, String> =
                schedule.systems().expect("initialized").map(|(key, s)| (key, s.name().to_string())).collect();
            stage_sets()
                .into_iter()
                .map(|stage| {
                    let keys = schedule.graph().systems_in_set(stage.intern()).map(|k| k.iter().copied().collect());
                    let keys: Vec<_> = keys.unwrap_or_default();
                    (stage, keys.iter().map(|k| (format!("{k:?}"), names[k].clone())).collect())
                })
                .collect()
        })
    }

    /// Every play system joins a set of the frame's order (`game/schedule.rs`),
    /// so its place in the frame is said there; these few, named, need no
    /// place: they touch neither the game nor what the table shows of it.
    #[test]
    fn every_update_system_joins_a_set_of_the_frame() {
        const NO_PLACE: &[&str] = &["log_phases", "log_transitions", "set_window_icon"];
        let mut app = client_app();
        let mut sets: Vec<bevy::ecs::schedule::InternedSystemSet> =
            stage_sets().into_iter().map(|s| s.intern()).collect();
        sets.extend(
            [
                PlaySystems::Seats,
                PlaySystems::Input,
                PlaySystems::Route,
                PlaySystems::Net,
                PlaySystems::Rules,
                PlaySystems::Events,
                PlaySystems::Sync,
                PlaySystems::Present,
            ]
            .map(|s| s.intern()),
        );
        let outside: Vec<String> = app.world_mut().schedule_scope(Update, |world, schedule| {
            schedule.initialize(world).expect("the schedule builds");
            let graph = schedule.graph();
            let placed: std::collections::HashSet<_> =
                sets.iter().filter_map(|s| graph.systems_in_set(*s).ok()).flatten().copied().collect();
            schedule
                .systems()
                .expect("initialized")
                .filter(|(key, _)| !placed.contains(key))
                .map(|(_, s)| s.name().to_string())
                .filter(|n| !n.starts_with("bevy_") && !NO_PLACE.iter().any(|a| n.ends_with(a)))
                .collect()
        });
        assert!(outside.is_empty(), "{} systems in no set of the frame: {outside:#?}", outside.len());
    }

    /// "The schedule is the book": each stage's set holds the systems that
    /// turn that stage's input into moves, in `Update` (keys, drops, the
    /// table's picks) and in egui's pass (the panels of that stage); no
    /// system sits in two stages (so each runs only in its own: the sets'
    /// gates are tested in `tests/headless.rs`), and no stage set is empty.
    #[test]
    fn each_stage_holds_its_own_systems_and_no_other_stages() {
        let mut app = client_app();
        let update = systems_by_stage(&mut app, Update);
        let egui = systems_by_stage(&mut app, EguiPrimaryContextPass);
        type Stages = [(StageSystems, Vec<(String, String)>)];
        let has = |stages: &Stages, stage: StageSystems, name: &str| {
            stages.iter().any(|(s, systems)| *s == stage && systems.iter().any(|(_, n)| n.ends_with(name)))
        };
        assert!(has(&update, StageSystems::Exploring, "drops_to_actions"), "{update:#?}");
        assert!(has(&update, StageSystems::Exploring, "explore::keys"), "{update:#?}");
        for step in COMBAT_STEPS {
            assert!(has(&update, StageSystems::Combat(step), "picks_to_actions"), "{step:?}: {update:#?}");
            assert!(has(&egui, StageSystems::Combat(step), "combat_panel"), "{step:?}: {egui:#?}");
        }
        for stage in [StageSystems::Setup, StageSystems::Exploring, StageSystems::Encountering, StageSystems::LevelUp] {
            assert!(has(&egui, stage, "decision_panel"), "{stage:?}: {egui:#?}");
        }
        assert!(has(&egui, StageSystems::Passage, "passage_panel"), "{egui:#?}");
        assert!(has(&egui, StageSystems::GameOver, "game_over_panel"), "{egui:#?}");
        for stages in [&update, &egui] {
            let mut stage_of: HashMap<&str, StageSystems> = HashMap::new();
            for (stage, systems) in stages.iter() {
                for (key, name) in systems {
                    let first = *stage_of.entry(key.as_str()).or_insert(*stage);
                    assert_eq!(first, *stage, "{name} is in {first:?} and in {stage:?}");
                }
            }
        }
        for stage in stage_sets() {
            let count = |s: &Stages| s.iter().filter(|(x, _)| *x == stage).map(|(_, n)| n.len()).sum::<usize>();
            assert!(count(&update) + count(&egui) > 0, "{stage:?} is an empty set kept for show");
        }
    }
}
