//! Forgotten Depths desktop client.
//!
//! One plugin per file, each a `pub(super) fn plugin(app: &mut App)`; [`AppPlugin`]
//! only assembles them. [`core_plugin`] is the part that needs no window or GPU, so
//! headless tests can run it under `MinimalPlugins`.

use bevy::{prelude::*, window::WindowResolution, winit::WinitSettings};
use bevy_egui::EguiPlugin;

pub mod board;
#[cfg(feature = "dev-tools")]
pub mod dev;
pub mod game;
pub mod table;
pub mod ui;

pub use game::schedule::{PlaySystems, Stage};

/// The whole desktop client.
pub struct AppPlugin;

impl Plugin for AppPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(
            DefaultPlugins
                .set(WindowPlugin {
                    primary_window: Some(Window {
                        title: "Forgotten Depths".into(),
                        resolution: WindowResolution::new(1280, 800),
                        ..default()
                    }),
                    // The close button saves first (leaving.rs), then exits.
                    close_when_requested: false,
                    ..default()
                })
                .set(AssetPlugin { file_path: asset_dir(), ..default() }),
        )
        // A board game must not burn a core while the players think.
        .insert_resource(WinitSettings::desktop_app())
        .insert_resource(ClearColor(board::art::TABLE_COLOR))
        .add_plugins(EguiPlugin::default())
        // egui draws through its own camera, after the board's and the cards'.
        .insert_resource(bevy_egui::EguiGlobalSettings { auto_create_primary_context: false, ..default() });

        app.init_resource::<game::cli::Options>();
        app.add_plugins((
            core_plugin,
            ui::screens::loading::plugin,
            ui::ui_style::plugin,
            board::camera::plugin,
            board::art::plugin,
            board::explore::input_plugin,
            ui::panels::plugin,
            game::saves::input_plugin,
            ui::redraw::plugin,
            ui::rules_ref::ui_plugin,
            game::settings::plugin,
            table::cards::plugin,
            table::pointer::plugin,
            table::feedback::plugin,
            table::reveal::plugin,
        ));
        app.add_plugins((
            game::content_assets::plugin,
            ui::icons::plugin,
            ui::window_icon::plugin,
            ui::window_scale::plugin,
            game::saves::old_saves_plugin,
            game::forecasts::plugin,
            game::hint::plugin,
            game::guide::ui_plugin,
            game::replay::ui_plugin,
            board::pointer::plugin,
            game::companions::ui_plugin,
            table::party::plugin,
            board::tray_preview::plugin,
            game::online::ui_plugin,
            ui::sound::plugin,
        ));
        #[cfg(feature = "dev-tools")]
        app.add_plugins((dev::screenshot::plugin, dev::frame_bench::plugin));
    }
}

/// Everything that runs without a window or renderer: states, menu actions, the
/// board model and its entities. Used by [`AppPlugin`] and by headless tests.
pub fn core_plugin(app: &mut App) {
    app.init_resource::<game::cli::Options>();
    app.add_plugins((
        game::schedule::plugin,
        game::table_events::plugin,
        game::session::plugin,
        game::hotseat::plugin,
        ui::rules_ref::plugin,
        ui::screens::plugin,
        board::plugin,
        board::explore::plugin,
        game::saves::plugin,
        game::leaving::plugin,
        game::guide::plugin,
        game::replay::plugin,
        game::companions::plugin,
        game::online::plugin,
    ));
}

/// The folder that holds `assets/`' files, as bevy's asset server finds it.
pub fn asset_root() -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(asset_dir());
    if dir.is_absolute() {
        return dir;
    }
    let base = std::env::var_os("BEVY_ASSET_ROOT")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("CARGO_MANIFEST_DIR").map(std::path::PathBuf::from))
        .or_else(|| std::env::current_exe().ok().and_then(|e| e.parent().map(|p| p.to_path_buf())))
        .unwrap_or_default();
    base.join(dir)
}

/// Where the `assets/` folder is. Under cargo, BEVY_ASSET_ROOT (see
/// .cargo/config.toml) points at the workspace root and bevy finds `assets`
/// there; a binary started by hand looks beside itself, then in the checkout it
/// was built from.
fn asset_dir() -> String {
    let relative = "assets".to_owned();
    if std::env::var_os("BEVY_ASSET_ROOT").is_some() || std::env::var_os("CARGO_MANIFEST_DIR").is_some() {
        return relative;
    }
    let beside_exe = std::env::current_exe().ok().and_then(|exe| exe.parent().map(|dir| dir.join("assets")));
    if beside_exe.is_some_and(|dir| dir.is_dir()) {
        return relative;
    }
    let checkout = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
    if checkout.is_dir() {
        return checkout.to_string_lossy().into_owned();
    }
    relative
}
