//! The main menu: New Game, Continue, Load, Play online, Statistics, Rules, Quit.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::{
    PlaySystems,
    game::cli::{OpenScreen, Options},
    game::saves::{ContinueNewest, LoadSave, SaveDir, SaveSummary, list_saves, summarize_saves},
    game::screen::Screen,
    game::session::StartGame,
    theme::style,
    ui::rules_ref::{Tab, ToggleRules},
};

pub use crate::game::flow::{MenuAction, MenuNotice};

/// The menu's inner height (points) below which its buttons stand in two
/// columns: the title and eight buttons in one take about this much.
const TALL_ENOUGH: f32 = 560.0;
/// The least height the Load list opens at (three saves).
const LEAST_LIST: f32 = 130.0;
/// The Load list's width beside the menu, and its gap from it.
const LIST_WIDTH: f32 = 340.0;
const LIST_GAP: f32 = 12.0;

/// Whether the save folder holds a game (read when the menu comes up, not
/// on every frame it draws): Continue and Load need one.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct HasSaves(pub bool);

/// The list of saves open on the menu (read once when it opens).
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct ShowSaves(pub Option<Vec<SaveSummary>>);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<MenuAction>();
    // Registered by bevy's WindowPlugin too; here so headless apps have it.
    app.init_resource::<MenuNotice>();
    app.init_resource::<ShowSaves>();
    app.init_resource::<HasSaves>();
    app.add_systems(Update, apply_menu_actions.in_set(PlaySystems::Rules));
    app.add_systems(
        OnEnter(Screen::Menu),
        (
            |mut notice: ResMut<MenuNotice>| notice.0 = None,
            |dir: Res<SaveDir>, mut has: ResMut<HasSaves>| has.0 = !list_saves(&dir.0).is_empty(),
            skip_menu_once.run_if(|options: Res<Options>| {
                let wanted = options.new_game
                    || options.screenshot.is_some()
                    || options.frame_bench.is_some()
                    || options.load.is_some()
                    || options.replay.is_some()
                    || options.watch_seed.is_some()
                    || options.open.is_some();
                wanted && options.open != Some(OpenScreen::Menu)
            }),
        ),
    );
    // The Load list closes with the menu: it stood open again on the way
    // back from a game, where a click meant for Quit opened a replay.
    app.add_systems(OnExit(Screen::Menu), |mut show_saves: ResMut<ShowSaves>| show_saves.0 = None);
    app.add_systems(EguiPrimaryContextPass, main_menu_ui.run_if(in_state(Screen::Menu)));
}

/// `--new-game` (and `--screenshot`): a standard two-Hero game (Bren and Sil)
/// straight away, or `--load FILE`, the first time the menu comes up; "Menu"
/// on the board still returns here.
fn skip_menu_once(
    options: Res<Options>,
    mut starts: MessageWriter<StartGame>,
    mut loads: MessageWriter<LoadSave>,
    mut next: ResMut<NextState<Screen>>,
    mut done: Local<bool>,
    mut replays: MessageWriter<crate::game::replay::ReplaySave>,
    mut watch: MessageWriter<crate::game::replay::WatchSeed>,
) {
    if *done {
        return;
    }
    *done = true;
    if options.open == Some(OpenScreen::Setup) {
        next.set(Screen::Setup);
    } else if options.open == Some(OpenScreen::Statistics) {
        next.set(Screen::Statistics);
    } else if let Some(path) = &options.replay {
        replays.write(crate::game::replay::ReplaySave(path.clone()));
    } else if let Some(seed) = options.watch_seed {
        watch.write(crate::game::replay::WatchSeed(seed));
    } else if let Some(path) = &options.load {
        loads.write(LoadSave(path.clone()));
    } else {
        starts.write(StartGame(depths_rules::GameOptions::standard(
            &["bren", "sil"],
            options.seed.unwrap_or_else(crate::game::session::clock_seed),
        )));
    }
}

fn apply_menu_actions(
    mut actions: MessageReader<MenuAction>,
    mut next: ResMut<NextState<Screen>>,
    mut show_saves: ResMut<ShowSaves>,
    dir: Res<SaveDir>,
    mut continues: MessageWriter<ContinueNewest>,
    mut exit: MessageWriter<AppExit>,
    mut rules: MessageWriter<ToggleRules>,
    mut rejoin: ResMut<crate::ui::screens::lobby::RejoinAsked>,
) {
    for action in actions.read() {
        // The state changes on the next frame, and the new screen must be
        // drawn: under reactive rendering nothing else would ask for frames.
        match action {
            MenuAction::NewGame => next.set(Screen::Setup),
            MenuAction::PlayOnline => next.set(Screen::Lobby),
            MenuAction::Rejoin => {
                rejoin.0 = true;
                next.set(Screen::Lobby);
            }
            MenuAction::Statistics => next.set(Screen::Statistics),
            // `guide.rs` starts it.
            MenuAction::GuidedGame => {}
            MenuAction::Continue => {
                continues.write(ContinueNewest);
            }
            MenuAction::Load => {
                show_saves.0 = match show_saves.0 {
                    Some(_) => None,
                    None => Some(summarize_saves(&dir.0)),
                }
            }
            MenuAction::Rules => {
                rules.write(ToggleRules(Tab::Rulebook));
            }
            MenuAction::Quit => {
                exit.write(AppExit::Success);
            }
            MenuAction::BackToMenu => next.set(Screen::Menu),
        }
    }
}

fn main_menu_ui(
    mut contexts: EguiContexts,
    notice: Res<MenuNotice>,
    show_saves: Res<ShowSaves>,
    dir: Res<SaveDir>,
    mut actions: MessageWriter<MenuAction>,
    mut loads: MessageWriter<LoadSave>,
    mut settings: Option<ResMut<crate::game::settings::Settings>>,
    mut replays: MessageWriter<crate::game::replay::ReplaySave>,
    has_saves: Res<HasSaves>,
    (mut page_opened, mut plain): (Local<Option<f64>>, Local<f32>),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if let Some(settings) = settings.as_mut() {
        egui::Area::new(egui::Id::new("menu_settings")).anchor(egui::Align2::RIGHT_TOP, [-12.0, 12.0]).show(
            ctx,
            |ui| {
                // Whole on one line: the corner's area is narrow and broke it mid-word.
                if ui.add(egui::Button::new("⚙ Settings").wrap_mode(egui::TextWrapMode::Extend)).clicked() {
                    settings.open = !settings.open;
                }
            },
        );
    }
    // Credits the icons' licence (CC BY) asks for; the details are in assets/LICENSES.md.
    // The menu keeps clear of the credits: centred, and no taller than the
    // window less the credits' line at both ends (it scrolls beyond that,
    // as on a short window at 150 %).
    let screen = ctx.content_rect();
    let credits_h = ctx.memory(|m| m.area_rect(egui::Id::new("menu_credits"))).map_or(24.0, |r| r.height());
    let menu_h = (screen.height() - 2.0 * (credits_h + 14.0)).max(160.0);
    egui::Area::new(egui::Id::new("menu_credits")).anchor(egui::Align2::CENTER_BOTTOM, [0.0, -10.0]).show(ctx, |ui| {
        ui.set_max_width(screen.width() - 24.0);
        ui.label(
            egui::RichText::new(
                "Icons: Game Icons (game-icons.net) by Lorc, Delapouite, Skoll, Sbed, Caro Asercion and Cathelineau, CC BY 3.0 · Font: EB Garamond by Georg Duffner, OFL",
            )
            .size(style::type_scale::FINE)
            .color(style::MUTED),
        );
    });
    // The box's top stays where the buttons alone, centred, put it: a notice
    // or the Load list grows it downward. Centred whole, it moved up under
    // the pointer as they came (a click meant for Continue opened Load).
    let margin = credits_h + 14.0;
    let top = ((screen.height() - plain.min(menu_h)) / 2.0).max(margin);
    // The Load list opens beside the menu where the window has room for it,
    // so nothing in the menu moves: under the buttons it made the menu
    // scroll, and Play online came under the pointer that had clicked Load.
    let menu_rect = ctx.memory(|m| m.area_rect(egui::Id::new("main_menu")));
    let beside = menu_rect
        .filter(|r| screen.right() - r.right() >= LIST_WIDTH + 2.0 * LIST_GAP)
        .map(|r| egui::pos2(r.right() + LIST_GAP, r.top()));
    let shown =
        egui::Area::new(egui::Id::new("main_menu")).anchor(egui::Align2::CENTER_TOP, [0.0, top]).show(ctx, |ui| {
            // The box scrolls in the room below its top: without a height to
            // scroll in, the Load list opened out of sight.
            let inside = (screen.height() - top - margin).max(160.0) - style::panel_frame().total_margin().sum().y;
            // Short of room for eight buttons in a column (1366x768 at 150 %
            // left Rules and Quit to scroll to), they stand in two.
            let columns = if menu_h - style::panel_frame().total_margin().sum().y < TALL_ENOUGH { 2 } else { 1 };
            style::panel_frame().show(ui, |ui| {
                ui.set_width(if columns == 2 { 560.0_f32 } else { 440.0 }.min(screen.width() - 40.0));
                egui::ScrollArea::vertical()
                    .id_salt("menu_scroll")
                    .max_height(inside)
                    .min_scrolled_height(inside)
                    .show(ui, |ui| {
                        ui.vertical_centered(|ui| {
                            ui.label(style::title("Forgotten Depths", style::type_scale::HERO));
                            ui.label(
                                egui::RichText::new("a cooperative dungeon of tiles and lantern-light")
                                    .italics()
                                    .color(style::MUTED),
                            );
                            ui.add_space(24.0);
                            let buttons = [
                                ("New Game", MenuAction::NewGame),
                                ("Guided first game", MenuAction::GuidedGame),
                                ("Continue", MenuAction::Continue),
                                ("Load", MenuAction::Load),
                                ("Play online", MenuAction::PlayOnline),
                                ("Statistics", MenuAction::Statistics),
                                ("Rules", MenuAction::Rules),
                                ("Quit", MenuAction::Quit),
                            ];
                            // Continue and Load need a save to open.
                            let has_saves = has_saves.0;
                            let mut button = |ui: &mut egui::Ui, (label, action): (&str, MenuAction)| {
                                let enabled = has_saves || !matches!(action, MenuAction::Continue | MenuAction::Load);
                                // Why they are greyed is said under the buttons, not
                                // on hover: the hover box covered "Play online".
                                let button = ui.add_enabled(enabled, style::menu_button(label));
                                if button.clicked() {
                                    actions.write(action);
                                }
                                ui.add_space(6.0);
                            };
                            let per_column = buttons.len().div_ceil(columns);
                            ui.columns(columns, |cols| {
                                for (i, b) in buttons.into_iter().enumerate() {
                                    cols[i / per_column].vertical_centered(|ui| button(ui, b));
                                }
                            });
                            if !has_saves {
                                ui.add_space(4.0);
                                ui.label(
                                    egui::RichText::new("No saved game yet: Continue and Load open once one is saved.")
                                        .size(style::type_scale::SMALL)
                                        .color(style::MUTED),
                                );
                            }
                            // The table this player last joined, while its invite is kept:
                            // after a crash the way back is one click.
                            let last = settings.as_ref().filter(|s| !s.last_invite.is_empty());
                            if let Some(s) = last {
                                ui.add_space(4.0);
                                let host = if s.last_host.is_empty() {
                                    "the last".to_owned()
                                } else {
                                    format!("{}'s", s.last_host)
                                };
                                let check =
                                    depths_net::Invite::parse(&s.last_invite).map(|i| i.check()).unwrap_or_default();
                                let rejoin = ui.button(format!("Rejoin {host} table")).on_hover_text(format!(
                                    "Join again as {} with the invite you last used (check {check})",
                                    s.player_name
                                ));
                                if rejoin.clicked() {
                                    actions.write(MenuAction::Rejoin);
                                }
                            }
                            if let Some(text) = &notice.0 {
                                ui.add_space(8.0);
                                ui.label(egui::RichText::new(text).color(style::notice()));
                            }
                        });
                    });
            });
        });
    // Short of room beside the menu (a small window at 150 %), the list is a
    // page of its own over the dimmed menu: under the buttons it made the
    // menu scroll and cut its title, and a click where Quit had been opened
    // a replay. A click in its first moments is not taken: it was meant for
    // the menu under it.
    if let (Some(saves), None) = (&show_saves.0, beside) {
        let now = ctx.input(|i| i.time);
        let opened = *page_opened.get_or_insert(now);
        let deaf = now - opened < 0.4;
        egui::Area::new(egui::Id::new("load_page_dim")).order(egui::Order::Foreground).fixed_pos(screen.min).show(
            ctx,
            |ui| {
                let (rect, _) = ui.allocate_exact_size(screen.size(), egui::Sense::click());
                ui.painter().rect_filled(rect, 0.0, crate::theme::palette::BLACK.egui_alpha(150));
            },
        );
        if deaf {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
        egui::Area::new(egui::Id::new("load_page"))
            .order(egui::Order::Tooltip)
            .anchor(egui::Align2::CENTER_TOP, [0.0, margin])
            .show(ctx, |ui| {
                style::panel_frame().inner_margin(16.0).show(ui, |ui| {
                    ui.set_width((LIST_WIDTH * 1.4).min(screen.width() - 40.0));
                    ui.add_enabled_ui(!deaf, |ui| {
                        let height = (screen.height() - 2.0 * margin - 90.0).max(LEAST_LIST);
                        let close = ("Back to the menu", "Esc");
                        if load_box(ui, saves, &dir, height, close, (&mut loads, &mut replays)) {
                            actions.write(MenuAction::Load);
                        }
                    });
                });
            });
    } else {
        *page_opened = None;
    }
    if let (Some(saves), Some(at)) = (&show_saves.0, beside) {
        egui::Area::new(egui::Id::new("load_list")).fixed_pos(at).show(ctx, |ui| {
            style::panel_frame().inner_margin(16.0).show(ui, |ui| {
                ui.set_width(LIST_WIDTH - 32.0);
                let height = (screen.bottom() - at.y - margin - 90.0).max(LEAST_LIST);
                if load_box(ui, saves, &dir, height, ("Close", "Esc, or Load again"), (&mut loads, &mut replays)) {
                    actions.write(MenuAction::Load);
                }
            });
        });
    }
    // Measured with neither (or, until then, as first shown).
    if notice.0.is_none() && show_saves.0.is_none() || *plain == 0.0 {
        *plain = shown.response.rect.height();
    }
    Ok(())
}

/// The Load list's inside, beside the menu or as a page: its title with a
/// button that closes it (`close`: its words and hover), the saves in a
/// scroll `height` tall. Whether it was closed (the button or Esc).
fn load_box(
    ui: &mut egui::Ui,
    saves: &[SaveSummary],
    dir: &SaveDir,
    height: f32,
    (close, why): (&str, &str),
    (loads, replays): (&mut MessageWriter<LoadSave>, &mut MessageWriter<crate::game::replay::ReplaySave>),
) -> bool {
    let mut closed = false;
    ui.horizontal(|ui| {
        ui.label(style::title("Load a game", style::type_scale::HEADING));
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            closed = ui.button(close).on_hover_text(why).clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape));
        });
    });
    if saves.is_empty() {
        ui.label(format!("No saves in {}", dir.0.display()));
    }
    egui::ScrollArea::vertical().max_height(height).show(ui, |ui| save_rows(ui, saves, loads, replays));
    closed
}

/// The saves, newest first: each a button that loads it (greyed, with why,
/// when it does not load) and, when it kept its moves, its replay.
fn save_rows(
    ui: &mut egui::Ui,
    saves: &[crate::game::saves::SaveSummary],
    loads: &mut MessageWriter<LoadSave>,
    replays: &mut MessageWriter<crate::game::replay::ReplaySave>,
) {
    // The rows stop short of the scroll bar, which
    // floats over the list's right edge and cut them.
    let bar = ui.spacing().scroll;
    let row_w = ui.available_width() - (bar.bar_width + bar.bar_inner_margin + bar.bar_outer_margin);
    for save in saves {
        let text = egui::RichText::new(format!("{}\n{}", save.date, save.about));
        let text = if save.loads { text } else { text.color(style::notice()) };
        // Each row as wide as the list: a long line wraps.
        let button = egui::Button::new(text).wrap_mode(egui::TextWrapMode::Wrap).min_size(egui::vec2(row_w, 0.0));
        let button = ui.add_enabled(save.loads, button);
        // Why a damaged save does not load, where the pointer is.
        let button = button.on_disabled_hover_text(&save.about);
        if button.clicked() {
            loads.write(LoadSave(save.path.clone()));
        }
        if save.replayable
            && ui
                .small_button("▶ Watch the replay")
                .on_hover_text("Step through this game from its first move")
                .clicked()
        {
            replays.write(crate::game::replay::ReplaySave(save.path.clone()));
        }
    }
}
