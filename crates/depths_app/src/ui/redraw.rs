//! Keeps the client idle when nothing happens (reactive rendering).
//!
//! `WinitSettings::desktop_app()` only redraws on input or a `RequestRedraw`.
//! bevy_egui 0.42 defeats that: its `write_egui_input_system` pushes an
//! `egui::Event::ModifiersChanged` into every context's input on EVERY frame,
//! changed or not. egui treats any input event as a reason to repaint at once
//! (`InputState::wants_repaint_after` → zero delay), bevy_egui's
//! `process_output_system` turns that into a `RequestRedraw`, and the next frame
//! pushes the event again: an endless redraw loop (measured here: ~27 frames/s
//! and ~120–150 % CPU under Xvfb with software rendering, on an idle menu).
//!
//! The fix drops a `ModifiersChanged` event that repeats the modifiers egui was
//! last told about. egui keeps the previous pass's modifiers when no such event
//! arrives, so held Shift / Ctrl still reach widgets; a real change still goes
//! through.

use bevy::{
    platform::collections::HashMap,
    prelude::*,
    window::{RequestRedraw, WindowResized},
};
use bevy_egui::{EguiContexts, EguiInput, EguiInputSet, EguiPreUpdateSet, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        drop_repeated_modifier_events.after(EguiInputSet::WriteEguiEvents).before(EguiPreUpdateSet::BeginPass),
    );
    app.add_systems(Last, redraw_after_resize);
    // Dev aid: FD_FRAME_LOG=1 logs how many frames ran in each second and why.
    if std::env::var_os("FD_FRAME_LOG").is_some() {
        app.add_systems(Last, log_frame_rate);
        app.add_systems(EguiPrimaryContextPass, log_repaint_causes);
    }
}

/// A resized window is laid out again at once, not at the next mouse move:
/// egui learns the new size in one pass and lays out to it in the next.
fn redraw_after_resize(
    mut resized: MessageReader<WindowResized>,
    mut redraw: MessageWriter<RequestRedraw>,
    mut owed: Local<u8>,
) {
    if resized.read().count() > 0 {
        *owed = 2;
    }
    if *owed > 0 {
        *owed -= 1;
        redraw.write(RequestRedraw);
    }
}

fn drop_repeated_modifier_events(
    mut inputs: Query<(Entity, &mut EguiInput)>,
    mut told: Local<HashMap<Entity, egui::Modifiers>>,
) {
    for (entity, mut input) in &mut inputs {
        let mut last = told.get(&entity).copied();
        input.events.retain(|event| match event {
            egui::Event::ModifiersChanged(modifiers) => {
                let changed = last != Some(*modifiers);
                last = Some(*modifiers);
                changed
            }
            _ => true,
        });
        if let Some(modifiers) = last {
            told.insert(entity, modifiers);
        }
    }
}

fn log_frame_rate(
    time: Res<Time<Real>>,
    mut redraws: MessageReader<RequestRedraw>,
    mut count: Local<(u32, u32)>,
    mut since: Local<f32>,
) {
    count.0 += 1;
    count.1 += redraws.read().count() as u32;
    *since += time.delta_secs();
    if *since >= 1.0 {
        info!("{} frames in the last {:.1} s ({} RequestRedraw)", count.0, *since, count.1);
        *count = (0, 0);
        *since = 0.0;
    }
}

fn log_repaint_causes(mut contexts: EguiContexts) -> Result {
    let ctx = contexts.ctx_mut()?;
    if ctx.has_requested_repaint() {
        info!(
            "egui asks for a repaint: causes {:?}, events {:?}",
            ctx.repaint_causes(),
            ctx.input(|i| i.raw.events.clone()),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(events: Vec<egui::Event>, app: &mut App, entity: Entity) -> Vec<egui::Event> {
        app.world_mut().get_mut::<EguiInput>(entity).unwrap().events = events;
        app.world_mut().run_system_cached(drop_repeated_modifier_events).unwrap();
        app.world().get::<EguiInput>(entity).unwrap().events.clone()
    }

    #[test]
    fn only_changed_modifiers_reach_egui() {
        let mut app = App::new();
        let ctx = app.world_mut().spawn(EguiInput::default()).id();
        let none = egui::Event::ModifiersChanged(egui::Modifiers::NONE);
        let shift = egui::Event::ModifiersChanged(egui::Modifiers::SHIFT);
        assert_eq!(run(vec![none.clone()], &mut app, ctx), vec![none.clone()], "first is news");
        assert_eq!(run(vec![none.clone()], &mut app, ctx), vec![], "a repeat is dropped");
        assert_eq!(run(vec![shift.clone()], &mut app, ctx), vec![shift.clone()], "a change passes");
        assert_eq!(run(vec![shift.clone()], &mut app, ctx), vec![]);
        let key = egui::Event::Text("a".into());
        assert_eq!(run(vec![key.clone(), none.clone()], &mut app, ctx), vec![key, none], "other events are untouched");
    }
}
