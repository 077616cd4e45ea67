//! The pointer on the table, through Bevy's picking (egui's panels block it
//! where they lie): hover a card to read it, click it to do what it offers,
//! drag a card from a hand onto the table to play it. A drop or click the
//! rules refuse springs back and says why, in the rules' own words.

use bevy::{picking::pointer::PointerButton, prelude::*};
use bevy_egui::input::EguiWantsInput;
use depths_rules::{Action, Game};

use super::cards::{RowAction, TableCard, TableGeometry};
use super::faces::Kind;
use crate::{
    StageSystems,
    game::focus::{Hovered, PressOverPanel},
    game::hotseat::action_hero,
    game::notices::PointerNote,
    game::schedule::COMBAT_STEPS,
    game::screen::Screen,
    game::session::{Delve, PlayerAction, Seats},
    // A press that moves past the board's click slop is a drag here too.
    game::taps::CLICK_SLOP,
    game::words::refusal_text,
};

/// A card, pair, individual or row on the table was chosen: the pointer's
/// observers write this, and the Combat step's own system makes it a move.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct TablePick(pub Action);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<TablePick>();
    // After Update's commands are in: a card spawned this frame answers the
    // pointer from the next event on.
    app.add_systems(PostUpdate, (attach_observers, forget_gone).run_if(in_state(Screen::Playing)));
    // Each Combat step turns the table's picks into its moves.
    for step in COMBAT_STEPS {
        app.add_systems(Update, picks_to_actions.in_set(StageSystems::Combat(step)));
    }
    app.add_systems(OnExit(Screen::Playing), |mut hovered: ResMut<Hovered>| hovered.0 = None);
}

fn attach_observers(
    mut commands: Commands,
    cards: Query<Entity, Added<TableCard>>,
    rows: Query<Entity, Added<RowAction>>,
) {
    for e in &cards {
        commands
            .entity(e)
            .observe(on_over)
            .observe(on_out)
            .observe(on_press)
            .observe(on_click)
            .observe(on_drag_start)
            .observe(on_drag)
            .observe(on_drag_end);
    }
    for e in &rows {
        commands.entity(e).observe(on_row_click);
    }
}

/// A card (or token) redrawn or gone from under a still pointer takes its
/// text along.
fn forget_gone(mut hovered: ResMut<Hovered>, all: Query<Entity>) {
    if hovered.0.as_ref().is_some_and(|(e, _)| !all.contains(*e)) {
        hovered.0 = None;
    }
}

fn on_over(ev: On<Pointer<Over>>, mut cards: Query<&mut TableCard>, mut hovered: ResMut<Hovered>) {
    // A card carried over the table opens no box: the text of each played
    // card it passed covered the cards it was carried to.
    let carrying = cards.iter().any(|c| c.held.is_some());
    let Ok(mut card) = cards.get_mut(ev.event_target()) else { return };
    card.hovered = true;
    if !card.hover.is_empty() && !carrying {
        hovered.0 = Some((ev.event_target(), card.hover.clone()));
    }
}

fn on_out(ev: On<Pointer<Out>>, mut cards: Query<&mut TableCard>, mut hovered: ResMut<Hovered>) {
    let Ok(mut card) = cards.get_mut(ev.event_target()) else { return };
    card.hovered = false;
    if hovered.0.as_ref().is_some_and(|(e, _)| *e == ev.event_target()) {
        hovered.0 = None;
    }
}

fn on_press(ev: On<Pointer<Press>>, mut cards: Query<&mut TableCard>) {
    if let Ok(mut card) = cards.get_mut(ev.event_target()) {
        card.moved = 0.0;
    }
}

/// Whether a pointer event is the table's: a primary button, not on a
/// panel or window. egui blocks the picking where it lies, but not while one
/// of its buttons is held down, so a slow click on a window over a card
/// would reach the card too when the button comes up.
/// Nor one whose press began over a panel (`PressOverPanel`).
pub fn tables(button: PointerButton, egui: &EguiWantsInput, press: &PressOverPanel) -> bool {
    button == PointerButton::Primary && !egui.is_pointer_over_area() && !press.0
}

/// A click does what the card offers; a card in hand that may not be played
/// now says why.
fn on_click(
    ev: On<Pointer<Click>>,
    cards: Query<&TableCard>,
    (delve, seats, egui): (Res<Delve>, Res<Seats>, Res<EguiWantsInput>),
    mut picks: MessageWriter<TablePick>,
    (mut note, time, press): (ResMut<PointerNote>, Res<Time>, Res<PressOverPanel>),
) {
    if !tables(ev.event.button, &egui, &press) {
        return;
    }
    let Ok(card) = cards.get(ev.event_target()) else { return };
    // A card lifted by a jitter of the pointer (a trackpad tap) is still clicked.
    if card.moved > CLICK_SLOP {
        return;
    }
    match (&card.action, &card.intent) {
        (Some(a), _) => {
            picks.write(TablePick(a.clone()));
        }
        (None, Some(intent)) => {
            let why = refusal_at_table(&delve, &seats, intent);
            note.0 = Some((why, ev.pointer_location.position, time.elapsed_secs()));
        }
        (None, None) => {}
    }
}

fn on_drag_start(
    ev: On<Pointer<DragStart>>,
    mut cards: Query<&mut TableCard>,
    time: Res<Time>,
    mut hovered: ResMut<Hovered>,
    (egui, press): (Res<EguiWantsInput>, Res<PressOverPanel>),
) {
    if !tables(ev.event.button, &egui, &press) {
        return;
    }
    let Ok(mut card) = cards.get_mut(ev.event_target()) else { return };
    if card.kind == Kind::Hand {
        // The card in hand says enough; its text would cover the table.
        hovered.0 = None;
        let at = card.position(time.elapsed_secs());
        card.grab = ev.pointer_location.position - at;
        card.held = Some(at);
    }
}

fn on_drag(ev: On<Pointer<Drag>>, mut cards: Query<&mut TableCard>) {
    let Ok(mut card) = cards.get_mut(ev.event_target()) else { return };
    card.moved = card.moved.max(ev.event.distance.length());
    if card.held.is_some() {
        card.held = Some(ev.pointer_location.position - card.grab);
    }
}

/// Dropped above the hands: play it, if the rules allow; otherwise it slides
/// back and says why at the pointer.
fn on_drag_end(
    ev: On<Pointer<DragEnd>>,
    mut cards: Query<&mut TableCard>,
    geometry: Res<TableGeometry>,
    time: Res<Time>,
    (delve, seats): (Res<Delve>, Res<Seats>),
    mut picks: MessageWriter<TablePick>,
    mut note: ResMut<PointerNote>,
) {
    let Ok(mut card) = cards.get_mut(ev.event_target()) else { return };
    let Some(at) = card.held else { return };
    let play_line = geometry.layout.as_ref().map(|g| g.play_line);
    let on_table = plays_on_drop(card.moved, at, ev.pointer_location.position, play_line, geometry.room);
    if on_table {
        match (&card.action, &card.intent) {
            (Some(a), _) => {
                picks.write(TablePick(a.clone()));
            }
            (None, Some(intent)) => {
                let why = refusal_at_table(&delve, &seats, intent);
                note.0 = Some((why, ev.pointer_location.position, time.elapsed_secs()));
            }
            (None, None) => {}
        }
    }
    card.let_go(time.elapsed_secs());
}

/// Whether a card from a hand let go here is played: carried past the
/// click's slop (else it is a click, whose Click plays it), above the hands
/// (`play_line`), and let go on the table's room: over a side panel or the
/// banner the drag is called off and the card slides back (it was played
/// wherever it was let go).
fn plays_on_drop(moved: f32, card_at: Vec2, pointer: Vec2, play_line: Option<f32>, room: Rect) -> bool {
    moved > CLICK_SLOP && play_line.is_some_and(|line| card_at.y < line) && room.contains(pointer)
}

fn on_row_click(
    mut ev: On<Pointer<Click>>,
    rows: Query<&RowAction>,
    mut picks: MessageWriter<TablePick>,
    (egui, press): (Res<EguiWantsInput>, Res<PressOverPanel>),
) {
    if !tables(ev.event.button, &egui, &press) {
        return;
    }
    if let Ok(RowAction(Some(a))) = rows.get(ev.event_target()) {
        picks.write(TablePick(a.clone()));
        ev.propagate(false);
    }
}

/// The picks of this step that the rules take now become moves (a pick
/// made in the step before, still in the message buffer, is not one of them).
fn picks_to_actions(
    mut picks: MessageReader<TablePick>,
    delve: Res<Delve>,
    mut actions: MessageWriter<PlayerAction>,
    (mut guard, real): (ResMut<crate::game::confirm::KeyGuard>, Res<Time<Real>>),
) {
    for TablePick(a) in picks.read() {
        if delve.game().check(a).is_ok() {
            // A click says which Hero the player acts for (the number keys' guard).
            guard.acted(a, crate::game::confirm::RealSecs::now(&real));
            actions.write(PlayerAction(a.clone()));
        }
    }
}

/// Why a card clicked or a button pressed at the table does nothing: a
/// replay only looks, else [`refusal`].
pub fn refusal_at_table(delve: &Delve, seats: &Seats, intent: &Action) -> String {
    if delve.read_only { crate::game::session::REPLAY_REFUSAL.to_owned() } else { refusal(delve.game(), seats, intent) }
}

/// Why `intent` cannot be done now: the rules' refusal, or whose turn at the
/// table it is.
pub fn refusal(game: &Game, seats: &Seats, intent: &Action) -> String {
    match game.check(intent) {
        Err(e) => refusal_text(game, intent, &e),
        Ok(()) => {
            if let Some(why) = seats.online_refusal(game, intent) {
                return why;
            }
            if let Some(h) = action_hero(intent).filter(|h| seats.players.is_companion(*h)) {
                let name = game.heroes.get(usize::from(h)).map_or("that Hero", |x| x.name());
                return format!("A Companion plays {name}: take the seat back on the Hero mat to play it yourself.");
            }
            let owner = action_hero(intent).map(|h| seats.players.owner(h));
            match owner {
                Some(p) => format!("That is for {} to play: pass the table first.", seats.players.name(p)),
                None => "Not now.".to_owned(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use bevy::{state::app::StatesPlugin, window::PrimaryWindow};
    use depths_rules::{Action, Content, GameOptions};

    use super::*;
    use crate::{
        board::explore::TileDrop,
        game::confirm::{Answer, Asking, TryAction},
        game::saves::SaveDir,
        game::session::{GameContent, StartGame},
    };

    /// A new player's report: a card dragged and let go over the side panel
    /// or the banner was played; there the drag is called off.
    #[test]
    fn a_card_let_go_off_the_table_is_not_played() {
        let room = Rect::new(340.0, 150.0, 1210.0, 720.0);
        let line = Some(560.0);
        let card = Vec2::new(700.0, 400.0);
        assert!(plays_on_drop(80.0, card, Vec2::new(700.0, 410.0), line, room), "on the table, above the hands");
        assert!(!plays_on_drop(80.0, card, Vec2::new(200.0, 410.0), line, room), "over the Hero mats");
        assert!(!plays_on_drop(80.0, card, Vec2::new(700.0, 20.0), line, room), "over the banner");
        assert!(
            !plays_on_drop(80.0, Vec2::new(700.0, 600.0), Vec2::new(700.0, 600.0), line, room),
            "back on the hands"
        );
        assert!(!plays_on_drop(2.0, card, Vec2::new(700.0, 410.0), line, room), "a click, not a drag");
    }

    /// A replay only looks: a card clicked or a greyed button hovered says
    /// so, where the same game at the table gives the rules' refusal.
    #[test]
    fn a_replay_refuses_in_its_own_words() {
        let game = depths_rules::Game::new(GameOptions::standard(&["bren", "sil"], 3), Content::builtin().unwrap());
        let mut session = crate::game::session::Session::new(game.unwrap());
        let illegal = Action::FinishLevelUp;
        let at_table = refusal_at_table(&session.delve, &session.seats, &illegal);
        assert_eq!(at_table, refusal(session.delve.game(), &session.seats, &illegal));
        assert_ne!(at_table, crate::game::session::REPLAY_REFUSAL);
        session.delve.read_only = true;
        for a in [illegal, Action::DrawTile] {
            assert_eq!(refusal_at_table(&session.delve, &session.seats, &a), crate::game::session::REPLAY_REFUSAL);
        }
    }

    /// The moves of a Combat and of Exploring come through the inputs a
    /// player gives, not as moves written straight in: each move a card on
    /// the table offers is a pick of that card (`TablePick`, as a click or a
    /// drop makes), a tile goes down by a drop (`TileDrop`), and the rest are
    /// the strip's and panels' buttons (`TryAction`), answered when asked.
    /// The steady policy chooses; the game must go through a whole Combat.
    #[test]
    fn a_whole_combat_and_its_exploring_are_played_through_the_tables_inputs() {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin, AssetPlugin::default(), bevy::input::InputPlugin));
        app.init_asset::<Mesh>().init_asset::<ColorMaterial>().init_asset::<Image>();
        app.init_resource::<crate::game::hint::Hint>();
        // The table's cards are laid out for a window; what needs a renderer
        // (egui's textures for a reveal) is left out and skipped.
        app.world_mut().spawn((Window::default(), PrimaryWindow));
        app.insert_resource(bevy::ecs::error::FallbackErrorHandler(bevy::ecs::error::ignore));
        let dir = std::env::temp_dir().join(format!("fd-picks-{}", std::process::id()));
        app.insert_resource(GameContent(Content::builtin().expect("content")));
        app.insert_resource(SaveDir(dir.clone()));
        app.add_plugins((crate::core_plugin, super::super::desktop_plugin));
        app.update();
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Menu);
        app.update();
        app.world_mut().write_message(StartGame(GameOptions::standard(&["bren", "sil"], 3)));
        for _ in 0..3 {
            app.update();
        }
        let game = |app: &App| app.world().resource::<Delve>().game().clone();
        let (mut drops, mut picks, mut buttons, mut fought) = (0, 0, 0, false);
        for _ in 0..400 {
            let before = game(&app);
            if before.is_over() || (fought && before.combat().is_none()) {
                break;
            }
            let a = depths_tests::steady_policy(&before);
            let on_table = app.world().resource::<TableGeometry>().offered.contains(&a);
            match a {
                Action::PlaceTile { placement } => {
                    app.world_mut().write_message(TileDrop { cell: placement.cell, rotation: placement.rotation });
                    drops += 1;
                }
                a if on_table => {
                    app.world_mut().write_message(TablePick(a));
                    picks += 1;
                }
                a => {
                    app.world_mut().write_message(TryAction(a));
                    buttons += 1;
                }
            }
            app.update();
            if app.world().resource::<Asking>().ask().is_some() {
                app.world_mut().write_message(Answer::Go);
                app.update();
            }
            app.update();
            fought |= before.combat().is_some();
            assert_ne!(game(&app), before, "the input made the move");
        }
        let _ = std::fs::remove_dir_all(dir);
        let phase = game(&app).phase();
        // Won, or lost with its last Hero: either way played to its end.
        let ended = game(&app).combat().is_none() || game(&app).is_over();
        assert!(fought && ended, "a whole Combat: {phase:?}, drops {drops}, picks {picks}, buttons {buttons}");
        assert!(drops >= 1 && picks >= 6 && buttons >= 2, "drops {drops}, picks {picks}, buttons {buttons}");
    }
}
