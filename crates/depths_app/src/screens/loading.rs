//! The loading screen: waits for the fonts (and, later, the card and tile content).

use bevy::{prelude::*, window::RequestRedraw};
use bevy_asset_loader::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::screens::Screen;

/// Assets every screen can use once loading is done.
#[derive(AssetCollection, Resource)]
pub struct UiAssets {
    /// EB Garamond (SIL OFL 1.1), the title face of the menus.
    #[asset(path = "fonts/EBGaramond12-Regular.otf")]
    pub title_font: Handle<Font>,
}

pub(crate) fn plugin(app: &mut App) {
    app.add_loading_state(
        LoadingState::new(Screen::Loading)
            .continue_to_state(Screen::Menu)
            .load_collection::<UiAssets>(),
    );
    app.add_systems(
        EguiPrimaryContextPass,
        loading_ui.run_if(in_state(Screen::Loading)),
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
    egui::Area::new(egui::Id::new("loading"))
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label(egui::RichText::new("Lighting the lantern…").size(28.0));
        });
    Ok(())
}
