//! The loading screen: waits for the fonts (and, later, the card and tile content).

use bevy::{asset::UntypedAssetLoadFailedEvent, prelude::*, window::RequestRedraw};
use bevy_asset_loader::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{screens::Screen, session::GameContent};

/// Assets every screen can use once loading is done.
#[derive(AssetCollection, Resource)]
pub struct UiAssets {
    /// EB Garamond (SIL OFL 1.1), the title face of the menus.
    #[asset(path = "fonts/EBGaramond12-Regular.otf")]
    pub title_font: Handle<Font>,
    /// Ubuntu Light (Ubuntu Font Licence), the cards' text: the panels' face.
    #[asset(path = "fonts/Ubuntu-Light.ttf")]
    pub body_font: Handle<Font>,
}

pub(crate) fn plugin(app: &mut App) {
    app.add_loading_state(
        LoadingState::new(Screen::Loading)
            .continue_to_state(Screen::Menu)
            .on_failure_continue_to_state(Screen::LoadFailed)
            .load_collection::<UiAssets>(),
    );
    app.init_resource::<LoadErrors>();
    app.add_systems(PreUpdate, collect_load_errors);
    app.add_systems(OnEnter(Screen::Loading), load_content);
    // The fonts may finish first: never show the menu without the content.
    app.add_systems(
        OnEnter(Screen::Menu),
        |errors: Res<LoadErrors>, content: Option<Res<GameContent>>, mut next: ResMut<NextState<Screen>>| {
            if content.is_none() && !errors.0.is_empty() {
                next.set(Screen::LoadFailed);
            }
        },
    );
    app.add_systems(
        EguiPrimaryContextPass,
        (loading_ui.run_if(in_state(Screen::Loading)), load_failed_ui.run_if(in_state(Screen::LoadFailed))),
    );
    // Assets finish loading off the main thread, which wakes nothing: under
    // reactive rendering the next frame would wait for input or the 5 s (60 s
    // unfocused) timeout. Keep frames coming while loading.
    app.add_systems(
        Update,
        (|mut redraw: MessageWriter<RequestRedraw>| {
            redraw.write(RequestRedraw);
        })
        .run_if(in_state(Screen::Loading)),
    );
}

fn loading_ui(mut contexts: EguiContexts) -> Result {
    let ctx = contexts.ctx_mut()?;
    egui::Area::new(egui::Id::new("loading")).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
        ui.label(egui::RichText::new("Lighting the lantern…").size(28.0));
    });
    Ok(())
}

/// Every file that failed to load, as "path: reason".
#[derive(Resource, Debug, Default)]
pub struct LoadErrors(pub Vec<String>);

/// Reads and checks the cards and tiles in `assets/content/`; a bad file
/// fails loading with its name and the reason.
fn load_content(mut commands: Commands, mut errors: ResMut<LoadErrors>, mut next: ResMut<NextState<Screen>>) {
    let dir = crate::asset_root().join("content");
    match depths_rules::Content::load_dir(&dir) {
        Ok(content) => commands.insert_resource(GameContent(content)),
        Err(e) => {
            for fault in &e.faults {
                let line = format!("content/{fault}");
                error!("{line}");
                errors.0.push(line);
            }
            next.set(Screen::LoadFailed);
        }
    }
}

fn collect_load_errors(mut failures: MessageReader<UntypedAssetLoadFailedEvent>, mut errors: ResMut<LoadErrors>) {
    for failure in failures.read() {
        let line = format!("{}: {}", failure.path, failure.error);
        error!("{line}");
        errors.0.push(line);
    }
}

fn load_failed_ui(mut contexts: EguiContexts, errors: Res<LoadErrors>, mut exit: MessageWriter<AppExit>) -> Result {
    let ctx = contexts.ctx_mut()?;
    egui::Area::new(egui::Id::new("load_failed")).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
        crate::ui_style::panel_frame().show(ui, |ui| {
            ui.set_max_width(720.0);
            ui.heading("The game's files could not be loaded");
            ui.add_space(8.0);
            if errors.0.is_empty() {
                ui.label("A file failed to load; see the log for details.");
            }
            for line in &errors.0 {
                ui.label(egui::RichText::new(line).color(crate::ui_style::NOTICE));
            }
            ui.add_space(8.0);
            ui.label("Run the game from its folder, or set BEVY_ASSET_ROOT to the folder that holds assets/.");
            ui.add_space(12.0);
            if ui.button("Quit").clicked() {
                exit.write(AppExit::error());
            }
        });
    });
    Ok(())
}
