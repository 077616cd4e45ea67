//! The redraw policy: the window draws only on input or a `RequestRedraw`
//! (reactive rendering), and [`redraw_on_news`] is the one system that asks
//! for the next frame: when the game, the table or a screen changed this
//! frame (so what reads it next frame shows it), while anything is
//! [`Animating`] or [`Waiting`], and twice after a resize. Systems change
//! state; none asks for frames itself.
//!
//! The egui half: reactive rendering (`resting_pace`) only redraws on input or a
//! `RequestRedraw`, and bevy_egui 0.42 defeats that: its
//! `write_egui_input_system` pushes an `egui::Event::ModifiersChanged` into
//! every context's input on EVERY frame, changed or not. egui treats any
//! input event as a reason to repaint at once
//! (`InputState::wants_repaint_after` → zero delay), bevy_egui's
//! `process_output_system` turns that into a `RequestRedraw`, and the next
//! frame pushes the event again: an endless redraw loop (measured here: ~27
//! frames/s and ~120–150 % CPU under Xvfb with software rendering, on an
//! idle menu). The fix drops a `ModifiersChanged` event that repeats the
//! modifiers egui was last told about. egui keeps the previous pass's
//! modifiers when no such event arrives, so held Shift / Ctrl still reach
//! widgets; a real change still goes through.

use bevy::{
    ecs::system::SystemParam,
    platform::collections::HashMap,
    prelude::*,
    window::{RequestRedraw, WindowResized},
};
use bevy_egui::{EguiContexts, EguiInput, EguiInputSet, EguiPreUpdateSet, EguiPrimaryContextPass, egui};

use crate::{
    game::animating::{Animating, Waiting},
    game::confirm::Asking,
    game::flow::MenuNotice,
    game::focus::{BoardArea, Hovered, SelectedElement, TileInHand},
    game::game_log::GameLog,
    game::guide::Guide,
    game::hint::Hint,
    game::notices::{FitRequested, Toast},
    game::play_phase::PlayPhase,
    game::replay::Replay,
    game::screen::Screen,
    game::session::{Delve, DropRefused, GameContent, Seats, SetupNotice, Undo},
    game::settings::Settings,
    table::cards::TableCard,
    table::party::PartyEdge,
    ui::rules_ref::RulesWindow,
    ui::screens::menu::ShowSaves,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        (drop_repeated_modifier_events, stamp_egui_input_now)
            .after(EguiInputSet::WriteEguiEvents)
            .before(EguiPreUpdateSet::BeginPass),
    );
    app.add_systems(Last, redraw_on_news);
    // Dev aid: FD_FRAME_LOG=1 logs how many frames ran in each second and why.
    if std::env::var_os("FD_FRAME_LOG").is_some() {
        app.add_systems(Last, log_frame_rate);
        app.add_systems(EguiPrimaryContextPass, log_repaint_causes);
    }
}

/// Whether `res` exists and changed since the system last ran.
fn changed<T: Resource>(res: &Option<Res<T>>) -> bool {
    res.as_ref().is_some_and(|r| r.is_changed())
}

/// The game's state: the game on the table and around it.
#[derive(SystemParam)]
struct GameNews<'w> {
    delve: Option<Res<'w, Delve>>,
    seats: Option<Res<'w, Seats>>,
    log: Option<Res<'w, GameLog>>,
    undo: Option<Res<'w, Undo>>,
    replay: Option<Res<'w, Replay>>,
    guide: Option<Res<'w, Guide>>,
    hint: Option<Res<'w, Hint>>,
    content: Option<Res<'w, GameContent>>,
}

impl GameNews<'_> {
    fn any(&self) -> bool {
        changed(&self.delve)
            || changed(&self.seats)
            || changed(&self.log)
            || changed(&self.undo)
            || changed(&self.replay)
            || changed(&self.guide)
            || changed(&self.hint)
            || changed(&self.content)
    }
}

/// The table and the screens: what the player holds, points at and opened.
#[derive(SystemParam)]
struct ViewNews<'w, 's> {
    hand: Option<Res<'w, TileInHand>>,
    hovered: Option<Res<'w, Hovered>>,
    selected: Option<Res<'w, SelectedElement>>,
    room: (Option<Res<'w, BoardArea>>, Option<Res<'w, PartyEdge>>, Option<Res<'w, FitRequested>>),
    notices: (Option<Res<'w, DropRefused>>, Option<Res<'w, SetupNotice>>, Option<Res<'w, MenuNotice>>),
    windows:
        (Option<Res<'w, Settings>>, Option<Res<'w, RulesWindow>>, Option<Res<'w, ShowSaves>>, Option<Res<'w, Asking>>),
    states: (Option<Res<'w, State<Screen>>>, Option<Res<'w, State<PlayPhase>>>),
    toasts: MessageReader<'w, 's, Toast>,
    cards: Query<'w, 's, (), Changed<TableCard>>,
    cameras: Query<'w, 's, (), (With<Camera>, Or<(Changed<Transform>, Changed<Projection>)>)>,
    spawned: Query<'w, 's, (), Added<Transform>>,
    despawned: RemovedComponents<'w, 's, Transform>,
}

impl ViewNews<'_, '_> {
    fn any(&mut self) -> bool {
        let (area, edge, fit) = &self.room;
        let (refused, setup, menu) = &self.notices;
        let (settings, rules, saves, asking) = &self.windows;
        let (screen, phase) = &self.states;
        // Messages and removals are read to the end, so none counts twice.
        let toasts = self.toasts.read().count() > 0;
        let despawned = self.despawned.read().count() > 0;
        toasts
            || despawned
            || changed(&self.hand)
            || changed(&self.hovered)
            || changed(&self.selected)
            || changed(area)
            || changed(edge)
            || changed(fit)
            || changed(refused)
            || changed(setup)
            || changed(menu)
            || changed(settings)
            || changed(rules)
            || changed(saves)
            || changed(asking)
            || changed(screen)
            || changed(phase)
            || !self.cards.is_empty()
            || !self.cameras.is_empty()
            || !self.spawned.is_empty()
    }
}

/// The one system that asks for the next frame (see the module's docs).
/// Runs last, after every change of the frame.
fn redraw_on_news(
    game: GameNews,
    mut views: ViewNews,
    animating: Query<(), With<Animating>>,
    waiting: Res<Waiting>,
    mut resized: MessageReader<WindowResized>,
    mut owed: Local<u8>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    // A resized window is laid out again at once, not at the next mouse
    // move: egui learns the new size in one pass and lays out to it in the next.
    if resized.read().count() > 0 {
        *owed = 2;
    }
    let news = views.any() || game.any();
    if news || *owed > 0 || !animating.is_empty() || waiting.any() {
        *owed = owed.saturating_sub(1);
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

/// egui times a press to its release with `RawInput::time`, which bevy_egui
/// takes from `Time<Real>`: the render world's instant of the frame before.
/// Drawing only on input, the press frame after a rest was stamped with the
/// last frame's time (the pointer's last move), so a press held 0.3 s after
/// a 1 s rest lasted 1.3 s for egui, over `max_click_duration`: no click.
/// A screen that kept drawing (the lobby) hid it. egui gets the clock's time.
fn stamp_egui_input_now(mut inputs: Query<&mut EguiInput>, real: Res<Time<Real>>) {
    let now = bevy::platform::time::Instant::now().saturating_duration_since(real.startup()).as_secs_f64();
    for mut input in &mut inputs {
        input.time = Some(now);
    }
}

/// Timed by the wall clock, not `Time<Real>`: the first frame after an idle
/// gap sees a tiny time step (its timestamp is the render world's, from the
/// frame before), so a lone frame would never reach a line.
fn log_frame_rate(
    mut redraws: MessageReader<RequestRedraw>,
    mut count: Local<(u32, u32)>,
    mut since: Local<Option<std::time::Instant>>,
) {
    count.0 += 1;
    count.1 += redraws.read().count() as u32;
    let start = *since.get_or_insert_with(std::time::Instant::now);
    let elapsed = start.elapsed().as_secs_f32();
    if elapsed >= 1.0 {
        info!("{} frames in the last {elapsed:.1} s ({} RequestRedraw)", count.0, count.1);
        *count = (0, 0);
        *since = Some(std::time::Instant::now());
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

    /// A press after a rest, held a moment: under reactive rendering
    /// `Time<Real>` on each frame is the frame before's (here 2 s before the
    /// press, then the press's). The button must still be clicked.
    #[test]
    fn a_slow_click_after_a_rest_clicks() {
        use bevy::time::TimeUpdateStrategy;
        use bevy_egui::EguiInputSet;
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        // bevy_egui's stamp, as `write_egui_input_system` does it.
        let bevy_egui_time = |real: Res<Time<Real>>, mut inputs: Query<&mut EguiInput>| {
            for mut input in &mut inputs {
                input.time = Some(real.elapsed_secs_f64());
            }
        };
        app.add_systems(PreUpdate, bevy_egui_time.in_set(EguiInputSet::WriteEguiEvents));
        app.add_systems(PreUpdate, stamp_egui_input_now.after(EguiInputSet::WriteEguiEvents));
        let input = app.world_mut().spawn(EguiInput::default()).id();
        let start = app.world().resource::<Time<Real>>().startup();
        let ctx = egui::Context::default();
        let mut clicked = false;
        let at = egui::pos2(50.0, 20.0);
        let mut frame = |app: &mut App, stale_s: u64, pressed: Option<bool>| {
            app.insert_resource(TimeUpdateStrategy::ManualInstant(start + std::time::Duration::from_secs(stale_s)));
            let mut raw = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(400.0, 300.0))),
                events: vec![egui::Event::PointerMoved(at)],
                ..default()
            };
            if let Some(pressed) = pressed {
                let button = egui::PointerButton::Primary;
                let modifiers = egui::Modifiers::NONE;
                raw.events.push(egui::Event::PointerButton { pos: at, button, pressed, modifiers });
            }
            app.world_mut().get_mut::<EguiInput>(input).unwrap().0 = raw;
            app.update();
            let raw = app.world_mut().get_mut::<EguiInput>(input).unwrap().0.take();
            let mut output = ctx.run_ui(raw, |ui| {
                clicked |= ui.add(egui::Button::new("New Game").min_size(egui::vec2(200.0, 60.0))).clicked();
            });
            output.textures_delta.clear();
        };
        frame(&mut app, 1, None);
        frame(&mut app, 2, None);
        frame(&mut app, 2, Some(true));
        frame(&mut app, 4, Some(false));
        assert!(clicked, "a press held still and released is a click");
    }
}
