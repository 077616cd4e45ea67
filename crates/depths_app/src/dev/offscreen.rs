//! `--offscreen WxH`: the frame bench and the screenshot with no window and no
//! display. The engine runs without winit, driven by a plain loop; the window
//! stays as an entity of that size (the table lays itself out from it), and
//! every camera that would draw into it draws into one image instead. Each
//! frame waits for the GPU to finish it, so a frame's time is the whole
//! frame's, not only the time to hand it over.

use std::time::Duration;

use bevy::{
    app::{PluginGroupBuilder, ScheduleRunnerPlugin},
    camera::RenderTarget,
    prelude::*,
    render::{
        Render, RenderApp, RenderSystems,
        render_resource::{PollType, TextureFormat},
        renderer::RenderDevice,
        view::screenshot::Screenshot,
    },
    window::WindowResolution,
    winit::WinitPlugin,
};

use crate::game::cli::Options;

/// The image the cameras draw into.
#[derive(Resource, Debug, Clone)]
pub struct Offscreen(pub Handle<Image>);

/// The size `--offscreen` asks for, if it does.
fn offscreen_size(app: &App) -> Option<UVec2> {
    app.world().get_resource::<Options>().and_then(|o| o.offscreen)
}

/// The window for this run: as given, or of the image's size at a scale of
/// one when `--offscreen` is asked for.
pub(crate) fn window(app: &App, window: Window) -> Window {
    match offscreen_size(app) {
        Some(size) => {
            Window { resolution: WindowResolution::new(size.x, size.y).with_scale_factor_override(1.0), ..window }
        }
        None => window,
    }
}

/// The engine's plugins for this run: as given, or without winit and with a
/// loop that never sleeps when `--offscreen` is asked for.
pub(crate) fn engine(app: &App, engine: PluginGroupBuilder) -> PluginGroupBuilder {
    match offscreen_size(app) {
        Some(_) => engine.disable::<WinitPlugin>().add(ScheduleRunnerPlugin::run_loop(Duration::ZERO)),
        None => engine,
    }
}

pub(super) fn plugin(app: &mut App) {
    let Some(size) = offscreen_size(app) else {
        return;
    };
    let target = Image::new_target_texture(size.x, size.y, TextureFormat::Rgba8UnormSrgb, None);
    let handle = app.world_mut().resource_mut::<Assets<Image>>().add(target);
    app.insert_resource(Offscreen(handle));
    app.add_observer(draw_into_the_image);
    if let Some(render) = app.get_sub_app_mut(RenderApp) {
        render.add_systems(Render, wait_for_the_gpu.after(RenderSystems::Render).before(RenderSystems::Cleanup));
    }
}

/// A camera meant for the window draws into the image; one with its own
/// image (the tray's preview) keeps it.
fn draw_into_the_image(
    added: On<Add, Camera>,
    targets: Query<&RenderTarget>,
    offscreen: Res<Offscreen>,
    mut commands: Commands,
) {
    if matches!(targets.get(added.entity), Ok(RenderTarget::Window(_)) | Err(_)) {
        commands.entity(added.entity).insert(RenderTarget::Image(offscreen.0.clone().into()));
    }
}

fn wait_for_the_gpu(device: Res<RenderDevice>) {
    if let Err(e) = device.poll(PollType::wait_indefinitely()) {
        warn!("offscreen: waiting for the GPU failed: {e}");
    }
}

/// What `--screenshot` captures: the image when there is no window.
pub(crate) fn screenshot(offscreen: Option<&Offscreen>) -> Screenshot {
    match offscreen {
        Some(image) => Screenshot::image(image.0.clone()),
        None => Screenshot::primary_window(),
    }
}
