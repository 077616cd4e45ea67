//! The loading screen: bevy_asset_loader loads the fonts, the icons and the
//! card and tile content; once all are in, the icons are made, the content is
//! checked and put together, and the menu comes up. A failure shows every
//! fault found, and suspects the game's folder only when files are missing.

use bevy::{
    asset::{AssetLoadError, UntypedAssetLoadFailedEvent, io::AssetReaderError},
    prelude::*,
};
use bevy_asset_loader::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{
    PlaySystems,
    game::animating::{Wait, Waiting},
    game::content_assets::{ContentFiles, JsonText, assemble, content_paths},
    game::screen::Screen,
    game::session::GameContent,
    theme::icons::IconFiles,
};

use crate::theme::style::UiAssets;

/// The font files (for the progress shown while loading).
const FONT_PATHS: [&str; 2] = ["fonts/EBGaramond12-Regular.otf", "fonts/Ubuntu-Light.ttf"];

pub(super) fn plugin(app: &mut App) {
    // No `continue_to_state`: `finish_loading` moves on, once the content is
    // checked, to the menu or to the faults (never a frame of menu first).
    app.add_loading_state(
        LoadingState::new(Screen::Loading)
            .on_failure_continue_to_state(Screen::LoadFailed)
            .load_collection::<UiAssets>()
            .load_collection::<IconFiles>()
            .load_collection::<ContentFiles>(),
    );
    app.init_resource::<LoadErrors>();
    app.init_resource::<FilesMissing>();
    app.add_systems(PreUpdate, collect_load_errors);
    app.add_systems(
        Update,
        finish_loading
            .in_set(PlaySystems::Rules)
            .run_if(in_state(Screen::Loading))
            .run_if(resource_exists::<UiAssets>)
            .run_if(resource_exists::<IconFiles>)
            .run_if(resource_exists::<ContentFiles>),
    );
    app.add_systems(
        EguiPrimaryContextPass,
        (loading_ui.run_if(in_state(Screen::Loading)), load_failed_ui.run_if(in_state(Screen::LoadFailed))),
    );
    // Assets finish loading off the main thread, which wakes nothing: under
    // reactive rendering the next frame would wait for input. Keep frames
    // coming while loading.
    app.add_systems(OnEnter(Screen::Loading), |mut w: ResMut<Waiting>| w.set(Wait::Loading, true));
    app.add_systems(OnExit(Screen::Loading), |mut w: ResMut<Waiting>| {
        w.set(Wait::Loading, false);
        // The files were read on `blocking`'s pool (async-fs), grown to a
        // thread a file; since blocking 1.7 an idle thread leaves only above
        // the pool's limit (500), so 7–12 threads woke twice a second for
        // good. A limit of one lets the rest go within half a second; the
        // few files read later (music, a content edit) wait their turn.
        blocking::set_max_blocking_threads(std::num::NonZeroUsize::MIN);
    });
}

/// Every fault found while loading, one line each ("path: card: reason").
#[derive(Resource, Debug, Default)]
pub struct LoadErrors(pub Vec<String>);

/// Some file could not be found or read at all: then, and only then, the
/// game may be looking in the wrong folder.
#[derive(Resource, Debug, Default)]
pub struct FilesMissing(pub bool);

/// How far loading has come: `(loaded, total)` among `paths`.
fn progress(server: &AssetServer, paths: impl IntoIterator<Item = impl AsRef<str>>) -> (usize, usize) {
    let mut total = 0;
    let mut done = 0;
    for path in paths {
        total += 1;
        if server.get_path_id(path.as_ref().to_string()).is_some_and(|id| server.is_loaded_with_dependencies(id)) {
            done += 1;
        }
    }
    (done, total)
}

fn loading_ui(mut contexts: EguiContexts, server: Res<AssetServer>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let (cards, all_cards) = progress(&server, content_paths());
    let (art, all_art) = progress(&server, FONT_PATHS.iter().copied().chain(["icons"]));
    egui::Area::new(egui::Id::new("loading")).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
        ui.vertical_centered(|ui| {
            ui.label(egui::RichText::new("Lighting the lantern…").size(crate::theme::style::type_scale::TITLE));
            ui.add_space(12.0);
            ui.label(format!("Loading cards… {cards}/{all_cards} files"));
            ui.label(format!("Fonts and icons… {art}/{all_art}"));
            let fraction = (cards + art) as f32 / (all_cards + all_art).max(1) as f32;
            ui.add(egui::ProgressBar::new(fraction).desired_width(320.0));
        });
    });
    Ok(())
}

/// Everything is in: check the content and go to the menu, or list its faults.
fn finish_loading(
    mut commands: Commands,
    files: Res<ContentFiles>,
    texts: Res<Assets<JsonText>>,
    mut errors: ResMut<LoadErrors>,
    mut next: ResMut<NextState<Screen>>,
) {
    match assemble(&files, &texts) {
        Ok(content) => {
            commands.insert_resource(GameContent(content));
            next.set(Screen::Menu);
        }
        Err(e) => {
            for fault in &e.faults {
                let line = format!("{}{fault}", crate::game::content_assets::CONTENT_DIR);
                error!("{line}");
                errors.0.push(line);
            }
            next.set(Screen::LoadFailed);
        }
    }
}

fn collect_load_errors(
    mut failures: MessageReader<UntypedAssetLoadFailedEvent>,
    mut errors: ResMut<LoadErrors>,
    mut missing: ResMut<FilesMissing>,
) {
    for failure in failures.read() {
        let line = format!("{}: {}", failure.path, failure.error);
        error!("{line}");
        errors.0.push(line);
        // A file that is there but bad says nothing about the folder.
        missing.0 |= matches!(failure.error, AssetLoadError::AssetReaderError(AssetReaderError::NotFound(_)));
    }
}

fn load_failed_ui(
    mut contexts: EguiContexts,
    errors: Res<LoadErrors>,
    missing: Res<FilesMissing>,
    mut exit: MessageWriter<AppExit>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let room = ctx.content_rect().height() * 0.6;
    egui::Area::new(egui::Id::new("load_failed")).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
        crate::theme::style::panel_frame().show(ui, |ui| {
            ui.set_max_width(720.0);
            ui.heading("The game's files could not be loaded");
            ui.add_space(8.0);
            if errors.0.is_empty() {
                ui.label("A file failed to load; see the log for details.");
            } else {
                ui.label(format!("{} fault(s) found:", errors.0.len()));
            }
            egui::ScrollArea::vertical().max_height(room).auto_shrink([false, true]).show(ui, |ui| {
                for line in &errors.0 {
                    ui.label(egui::RichText::new(line).color(crate::theme::style::notice()));
                }
            });
            ui.add_space(8.0);
            if missing.0 {
                ui.label("Run the game from its folder, or set BEVY_ASSET_ROOT to the folder that holds assets/.");
            } else {
                ui.label("Fix the files named above and start the game again.");
            }
            ui.add_space(12.0);
            if ui.button("Quit").clicked() {
                exit.write(AppExit::error());
            }
        });
    });
    Ok(())
}
