//! The in-game egui panels: the banner, Hero mats, the party's Keys and XP,
//! the Reference Card, the tile tray, element details, every pending
//! decision, Combat, the log and the game-over sheet.
//!
//! Every button is built from `Game::legal_actions()` and only writes a
//! [`PlayerAction`]; whatever no nicer widget shows is listed under "Other
//! choices", so a whole game can always be finished here.

use bevy::{ecs::system::SystemParam, prelude::*};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use depths_rules::{
    Action, Activation, CombatStep, Ecology, Encountering, Game, Pending, Phase, Purchase, Target, XpRef,
    adventure::HeroChoice, combat::Combat, map::ElementState,
};

mod combat;
mod decisions;
mod game_over;
mod hero_mat;
mod party;

use crate::{
    board::explore::{BoardArea, Hand, SelectedElement},
    game::hotseat::{HandOver, LiftCurtain, PassTable, SetCurtain},
    game::saves::{SaveDir, save_path},
    game::session::{Delve, DropRefused, GameLog, PlayerAction, SaveSlot, Seats, Undo, UndoPlacement},
    game::words::{counted, describe_action, loss_text, passage_text},
    ui::icons::Icons,
    ui::screens::{Screen, menu::MenuAction},
    ui::ui_style,
};
use combat::combat_strip;
use decisions::{passage_window, pending_window};
use game_over::game_over_window;
use hero_mat::heroes_panel;
use party::party_panel;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        game_ui.run_if(in_state(Screen::Playing).and_then(resource_exists::<Delve>)),
    );
}

const GOOD: egui::Color32 = egui::Color32::from_rgb(0x8f, 0xd1, 0x7a);

const BAD: egui::Color32 = egui::Color32::from_rgb(0xe0, 0x5a, 0x4a);

/// What the panels show of the game on the table: all of it but the change
/// feed (the game, the seats, the log, the undo point, the save slot).
#[derive(SystemParam)]
pub struct TableView<'w> {
    pub delve: Res<'w, Delve>,
    pub seats: Res<'w, Seats>,
    pub log: Res<'w, GameLog>,
    pub undo: Res<'w, Undo>,
    pub slot: Res<'w, SaveSlot>,
}

/// Buttons for legal actions; remembers which were shown and what was clicked.
struct Choices<'a> {
    /// To say why a greyed-out button is refused, in the rules' words.
    table: Option<(&'a Game, &'a Seats)>,
    legal: Vec<Action>,
    shown: Vec<Action>,
    chosen: Vec<Action>,
    /// In a decision or Combat window the legal buttons are numbered, so
    /// number keys answer them: the next number to hand out.
    next_key: Option<u8>,
    /// The number key (1–9) pressed this frame.
    pressed: Option<u8>,
}

impl Choices<'_> {
    fn is_legal(&self, a: &Action) -> bool {
        self.legal.contains(a)
    }

    /// A button for `a`, enabled only when it is legal.
    fn button(&mut self, ui: &mut egui::Ui, a: Action, label: impl Into<egui::WidgetText>) -> bool {
        let legal = self.is_legal(&a);
        let key = self.next_key.filter(|n| legal && *n <= 9);
        let button = match key {
            Some(n) => {
                self.next_key = Some(n + 1);
                let mark = egui::RichText::new(format!("[{n}]")).size(11.0).color(ui_style::MUTED);
                // The label, not the tag, takes the squeeze: "[1]" stays whole
                // and beside the words it answers.
                egui::Button::new((mark, egui::AtomExt::atom_shrink(label.into(), true)))
            }
            None => egui::Button::new(label),
        };
        let mut response = ui.add_enabled(legal, button);
        if !legal && let Some((game, seats)) = self.table {
            // "Every greyed-out button says why": the rules' own refusal.
            response = response.on_disabled_hover_text(crate::table::pointer::refusal(game, seats, &a));
        }
        let clicked = response.clicked() || key.is_some_and(|n| self.pressed == Some(n));
        if clicked {
            self.chosen.push(a.clone());
        }
        self.shown.push(a);
        clicked
    }

    /// [`Self::button`] with words on hover (when it is enabled).
    fn button_with_hover(&mut self, ui: &mut egui::Ui, a: Action, label: impl Into<egui::WidgetText>, hover: &str) {
        let legal = self.is_legal(&a);
        let key = self.next_key.filter(|n| legal && *n <= 9);
        if key.is_some() {
            self.next_key = key.map(|n| n + 1);
        }
        let response = ui.add_enabled(legal, egui::Button::new(label)).on_hover_text(hover);
        if response.clicked() || key.is_some_and(|n| self.pressed == Some(n)) {
            self.chosen.push(a.clone());
        }
        self.shown.push(a);
    }

    /// Buttons for every legal action matching `f`, labelled in words.
    fn all(&mut self, ui: &mut egui::Ui, game: &Game, f: impl Fn(&Action) -> bool) {
        let list: Vec<Action> = self.legal.iter().filter(|a| f(a)).cloned().collect();
        for a in list {
            let label = describe_action(game, &a);
            self.button(ui, a, label);
        }
    }
}

/// Windows at the foot of the board sit above the help line and the
/// party's edge (Health Tracks, Keys, XP), never over them.
pub const FOOT: f32 = 50.0 + crate::table::party::EDGE_HEIGHT;

fn game_ui(
    mut contexts: EguiContexts,
    view: TableView,
    mut hand: ResMut<Hand>,
    (mut board_area, mut party_edge): (ResMut<BoardArea>, ResMut<crate::table::party::PartyEdge>),
    refused: Res<DropRefused>,
    selected: Res<SelectedElement>,
    save_dir: Res<SaveDir>,
    mut actions: MessageWriter<PlayerAction>,
    mut menu: MessageWriter<MenuAction>,
    (mut lift, mut pass, mut hand_over, mut curtain_switch): (
        MessageWriter<LiftCurtain>,
        MessageWriter<PassTable>,
        MessageWriter<HandOver>,
        MessageWriter<SetCurtain>,
    ),
    mut curtain_seen: Local<Option<usize>>,
    mut undo: MessageWriter<UndoPlacement>,
    mut settings: ResMut<crate::game::settings::Settings>,
    icons: Res<Icons>,
    health: Res<crate::game::table_events::HealthNews>,
    (hovered, geometry, mut redraw, forecasts, hint, mut ask_hint, guide, mut watch): (
        Res<crate::table::pointer::Hovered>,
        Res<crate::table::cards::TableGeometry>,
        MessageWriter<bevy::window::RequestRedraw>,
        Option<Res<crate::game::forecasts::Forecasts>>,
        Option<Res<crate::game::hint::Hint>>,
        MessageWriter<crate::game::hint::AskHint>,
        Option<Res<crate::game::guide::Guide>>,
        MessageWriter<crate::game::replay::WatchReplay>,
    ),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let (delve, seats, log) = (&*view.delve, &*view.seats, &*view.log);
    let game = &delve.game;
    let pressed = number_key(ctx);
    // Behind the curtain each player acts for their own Heroes.
    let legal = crate::table::cards::legal_at_table(delve, seats);
    let mut c =
        Choices { table: Some((game, seats)), legal, shown: Vec::new(), chosen: Vec::new(), next_key: None, pressed };
    // The cards on the table take the first numbers; egui's buttons the next.
    let on_table = if matches!(game.phase(), Phase::Combat { .. }) { geometry.numbered.as_slice() } else { &[] };
    if let Some((_, a)) = pressed.and_then(|n| on_table.iter().find(|(k, _)| *k == n)) {
        c.chosen.push(a.clone());
        c.pressed = None;
    }
    let mut root = egui::Ui::new(
        ctx.clone(),
        "game_viewport".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    );

    egui::Panel::top("banner").show(&mut root, |ui| {
        // Wraps: in Combat the line names every player who may act, and the
        // "Pass to …" button must stay on screen.
        ui.horizontal_wrapped(|ui| {
            if ui.button("☰ Menu").clicked() {
                menu.write(MenuAction::BackToMenu);
            }
            if ui.button("📖 Rules").on_hover_text("Rules reference and glossary (F1); shortcuts (F2 or ?)").clicked()
            {
                menu.write(MenuAction::Rules);
            }
            if ui
                .button("⚙")
                .on_hover_text("Settings: UI scale, the \"Pass to …\" screen, sound, Companions' pace, hints")
                .clicked()
            {
                settings.open = !settings.open;
            }
            if ui.button("💡 Hint").on_hover_text("What the careful bot would do now, and why (H)").clicked() {
                ask_hint.write(crate::game::hint::AskHint);
            }
            ui.separator();
            ui.label(ui_style::title("Forgotten Depths", 22.0));
            if let Some(a) = game.adventure() {
                ui.label(
                    egui::RichText::new(format!("{} · seed {}", a.ecology.ecology.name(), a.options.seed))
                        .color(ui_style::MUTED),
                );
            }
            ui.separator();
            ui.label(egui::RichText::new(banner_line(game, seats)).strong().color(ui_style::GOLD));
            if let Some(next) = seats.hand_off_due(game) {
                let text = format!("Pass to {} ▶", seats.players.name(next));
                let button = egui::Button::new(egui::RichText::new(text).strong().color(egui::Color32::BLACK))
                    .fill(ui_style::GOLD);
                if ui.add(button).on_hover_text("Hide the table until the next player comes to it").clicked() {
                    hand_over.write(HandOver);
                }
            }
            if seats.players.count() >= 2 {
                let mut on = seats.players.curtain;
                if ui
                    .checkbox(&mut on, "Pass screen")
                    .on_hover_text("A \"Pass to …\" screen when the table changes hands (remembered)")
                    .changed()
                {
                    curtain_switch.write(SetCurtain(on));
                    settings.curtain = on;
                    let _ = settings.write();
                }
            }
        });
        // In a Combat the strip carries it, in a line kept for it.
        if let Some(n) = log.notice.as_ref().filter(|_| !matches!(game.phase(), Phase::Combat { .. })) {
            ui.label(egui::RichText::new(n).color(ui_style::NOTICE));
        }
        if let Some(h) = hint.as_deref().filter(|h| h.version == delve.version && !h.text.is_empty()) {
            ui.label(egui::RichText::new(format!("💡 {}", h.text)).color(ui_style::GOLD));
        }
    });

    let up = seats.curtain(game);
    // Enter lifts the curtain only once it has been on screen for a pass, so
    // the Enter that placed a tile cannot also lift the curtain after it.
    let was_up = std::mem::replace(&mut *curtain_seen, up) == up;
    if let Some(p) = up {
        curtain(&mut root, game, seats, p, was_up, &mut lift);
        return Ok(());
    }

    // Room for the board: each side panel folds to a slim strip and opens on
    // demand; in a Combat on a narrow window the party panel starts folded,
    // and on a cramped one the Hero mats.
    let folds_id = egui::Id::new("panel_folds");
    let (fold_heroes, fold_party) =
        ctx.data_mut(|d| *d.get_temp_mut_or_default::<(Option<bool>, Option<bool>)>(folds_id));
    let narrow = ctx.content_rect().width() < 1500.0;
    // At a large UI scale (150 % of 1280×800 is 853 points wide) the Hero
    // mats start folded too; the party panel keeps the tile tray open.
    let cramped = ctx.content_rect().width() < 1000.0;
    let in_combat = matches!(game.phase(), Phase::Combat { .. });
    let heroes_folded = fold_heroes.unwrap_or(cramped);
    let party_folded = fold_party.unwrap_or(in_combat && narrow);
    let mut toggle: (Option<bool>, Option<bool>) = (None, None);

    if heroes_folded {
        egui::Panel::left("heroes_strip").resizable(false).exact_size(70.0).show(&mut root, |ui| {
            if heroes_strip(ui, game, &icons, &c) {
                toggle.0 = Some(false);
            }
        });
    } else {
        egui::Panel::left("heroes").resizable(true).default_size(300.0).show(&mut root, |ui| {
            if ui
                .small_button("◀ fold")
                .on_hover_text("Fold the Hero mats to a strip: more room for the table")
                .clicked()
            {
                toggle.0 = Some(true);
            }
            // A bar always in sight: what is below the window's edge (an
            // Ability to use in Combat) is known to be there.
            egui::ScrollArea::vertical()
                .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysVisible)
                .show(ui, |ui| heroes_panel(ui, game, &icons, &health, &mut c));
        });
    }

    if party_folded {
        egui::Panel::right("party_strip").resizable(false).exact_size(70.0).show(&mut root, |ui| {
            if party_strip(ui, game, &icons) {
                toggle.1 = Some(false);
            }
        });
    } else {
        egui::Panel::right("party").resizable(true).default_size(330.0).show(&mut root, |ui| {
            if ui
                .small_button("fold ▶")
                .on_hover_text("Fold the party panel to a strip: more room for the table")
                .clicked()
            {
                toggle.1 = Some(true);
            }
            egui::ScrollArea::vertical().show(ui, |ui| {
                party_panel(
                    ui,
                    delve,
                    &view.undo,
                    &mut hand,
                    &refused,
                    &selected,
                    &icons,
                    &mut c,
                    &mut undo,
                    forecasts.as_deref(),
                );
                ui.separator();
                egui::CollapsingHeader::new("Log").default_open(true).show(ui, |ui| {
                    egui::ScrollArea::vertical().id_salt("log").max_height(260.0).stick_to_bottom(true).show(
                        ui,
                        |ui| {
                            for line in log.lines.iter().rev().take(300).rev() {
                                match short_path_line(line) {
                                    Some((short, full)) => {
                                        ui.label(egui::RichText::new(short).size(13.0)).on_hover_text(full);
                                    }
                                    None => {
                                        ui.label(egui::RichText::new(line).size(13.0));
                                    }
                                }
                            }
                        },
                    );
                });
                if delve.read_only {
                    ui.label(egui::RichText::new("A replay: nothing here is saved.").size(11.0).color(ui_style::MUTED));
                } else {
                    // The file's name; the whole path on hover.
                    let path = save_path(&save_dir, &view.slot);
                    let name = path
                        .file_name()
                        .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
                    ui.label(egui::RichText::new(format!("Saves to {name}")).size(11.0).color(ui_style::MUTED))
                        .on_hover_text(path.display().to_string());
                }
            });
        });
    }
    if toggle != (None, None) {
        ctx.data_mut(|d| {
            let folds = d.get_temp_mut_or_default::<(Option<bool>, Option<bool>)>(folds_id);
            folds.0 = toggle.0.or(folds.0);
            folds.1 = toggle.1.or(folds.1);
        });
        ctx.request_repaint();
    }

    // The keys and gestures of what is on screen.
    let help = if in_combat {
        "Drag a card from a hand onto the table, click it or press its number · click a pair to resolve it · click an individual to damage it · hover a card to read it · H: hint · Space: put a revealed card away · F1: rules"
    } else {
        "F1: rules · F2 / ?: shortcuts · D: draw a tile · drag it from the tray (or click a gold cell, then click it again) · R / right-click: turn · arrows + Enter: place · drag: pan · wheel: zoom · F: fit · H: hint · Ctrl+Z: undo placement · Ctrl+S: save"
    };
    egui::Panel::bottom("help").show(&mut root, |ui| {
        ui.label(egui::RichText::new(help).size(12.0).color(ui_style::MUTED));
    });

    if let (Phase::Combat { .. }, Some(combat)) = (game.phase(), game.combat()) {
        c.next_key = Some(on_table.iter().map(|(k, _)| *k).max().unwrap_or(0) + 1);
        combat_strip(&mut root, game, seats, log, combat, &mut c, &mut pass, forecasts.as_deref());
    }
    // egui points → window (logical) pixels: the UI scale zooms egui.
    let free = root.available_rect_before_wrap();
    let z = ctx.zoom_factor();
    let free = Rect::new(free.min.x * z, free.min.y * z, free.max.x * z, free.max.y * z);
    // The party's edge (Health Tracks, Keys, XP) along the board's foot.
    let edge_h = crate::table::party::EDGE_HEIGHT.min(free.height() / 4.0);
    let edge = Rect::new(free.min.x, free.max.y - edge_h, free.max.x, free.max.y);
    let free = Rect::new(free.min.x, free.min.y, free.max.x, free.max.y - edge_h);
    if party_edge.0 != Some(edge) {
        party_edge.0 = Some(edge);
    }
    if board_area.0 != Some(free) {
        board_area.0 = Some(free);
        // The table lays itself out again in the next frame: ask for one.
        redraw.write(bevy::window::RequestRedraw);
    }

    match game.phase() {
        // A replay's last move is no new ending.
        Phase::Won | Phase::Lost(_) if !delve.read_only => game_over_window(ctx, delve, seats, &mut menu, &mut watch),
        Phase::Won | Phase::Lost(_) => {}
        Phase::Combat { .. } => {}
        Phase::Passage { next } => passage_window(ctx, game, next, &mut c),
        phase => {
            if let Some(p) = game.pending() {
                pending_window(ctx, game, p, &mut c);
            } else if first_steps(&phase, game) && guide.as_ref().is_none_or(|g| g.0.is_none()) && !delve.read_only {
                first_steps_window(ctx);
            }
        }
    }

    // Anything legal that no widget above and no card on the table offered
    // (a row on a Monster card takes one Hero's damage, then the other's:
    // the second Hero's is on the table too).
    let on_table = |a: &Action| {
        matches!(game.phase(), Phase::Combat { .. })
            && geometry.offered.iter().any(|o| crate::table::faces::same_place(o, a))
    };
    let rest: Vec<Action> = c
        .legal
        .iter()
        .filter(|a| !c.shown.contains(a) && !on_table(a))
        .filter(|a| !matches!(a, Action::PlaceTile { .. } | Action::PlaceSetAsideTile { .. }))
        .cloned()
        .collect();
    if !rest.is_empty() && !game.is_over() {
        egui::Window::new("Other choices")
            .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -FOOT])
            .collapsible(true)
            .default_open(false)
            .vscroll(true)
            .max_height(240.0)
            .show(ctx, |ui| {
                for a in rest {
                    let label = describe_action(game, &a);
                    c.button(ui, a, label);
                }
            });
    }

    if let Some(text) = hovered.text() {
        hover_box(ctx, text);
    }

    for a in c.chosen {
        actions.write(PlayerAction(a));
    }
    Ok(())
}

/// The Hero mats folded: each Hero's icon, Health and a mark when an Ability
/// may be used now. Returns whether the player asked to open the mats.
fn heroes_strip(ui: &mut egui::Ui, game: &Game, icons: &Icons, c: &Choices) -> bool {
    let mut open = ui.button("▶").on_hover_text("Open the Hero mats").clicked();
    for (h, hero) in game.heroes.iter().enumerate() {
        ui.separator();
        let usable =
            c.legal.iter().any(|a| matches!(a, Action::ActivateAbility { hero, .. } if usize::from(*hero) == h));
        let response = ui
            .vertical_centered(|ui| {
                icons.show(ui, "classes", &hero.mat.class.name().to_lowercase(), 24.0, ui_style::GOLD);
                ui.label(egui::RichText::new(hero.name()).size(12.0));
                let color = if hero.health * 4 <= hero.max_health() { BAD } else { GOOD };
                ui.label(egui::RichText::new(format!("{}/{}", hero.health, hero.max_health())).size(12.0).color(color));
                if usable {
                    ui.label(egui::RichText::new("⚡").color(ui_style::GOLD));
                }
            })
            .response;
        let text = format!(
            "{}: {} / {} Health{}",
            hero.name(),
            hero.health,
            hero.max_health(),
            if usable { " · an Ability may be used now (open the mats)" } else { "" }
        );
        if response.interact(egui::Sense::click()).on_hover_text(text).clicked() {
            open = true;
        }
    }
    open
}

/// The party panel folded: Keys, XP and tiles left. Returns whether the
/// player asked to open it.
fn party_strip(ui: &mut egui::Ui, game: &Game, icons: &Icons) -> bool {
    let open = ui.button("◀").on_hover_text("Open the party panel: the tiles, Keys, XP and the log").clicked();
    let Some(adv) = game.adventure() else { return open };
    ui.separator();
    ui.vertical_centered(|ui| {
        icons.show(ui, "ui", "key", 20.0, ui_style::GOLD);
        ui.label(adv.keys.to_string()).on_hover_text("Keys");
        ui.add_space(6.0);
        icons.show(ui, "ui", "xp", 20.0, ui_style::GOLD);
        let xp: u16 = adv.xp_pool.iter().map(|c| u16::from(c.xp)).sum();
        ui.label(xp.to_string()).on_hover_text("XP in the pool");
        ui.add_space(6.0);
        ui.label(
            egui::RichText::new(format!(
                "{}\n{}",
                adv.ecology.pile.len(),
                if adv.ecology.pile.len() == 1 { "tile" } else { "tiles" }
            ))
            .size(12.0)
            .color(ui_style::MUTED),
        )
        .on_hover_text("Map tiles left in the pile");
    });
    open
}

/// A log line naming a file by its path ("Loaded /a/b/c.json."): the line
/// with the file's name alone, and the whole path for its hover.
fn short_path_line(line: &str) -> Option<(String, String)> {
    let (verb, rest) = line.split_once(' ')?;
    if verb != "Loaded" {
        return None;
    }
    let path = rest.strip_suffix('.').unwrap_or(rest);
    let name = std::path::Path::new(path).file_name()?.to_str()?;
    (name != path).then(|| (format!("{verb} {name}."), path.to_owned()))
}

/// A forecast's line: "Chance to win this fight: 62% ± 4", its method on hover;
/// "estimating…" until the figure is steady (its ± within a few points), so
/// no wide, jumping figure is ever shown.
fn forecast_line(
    ui: &mut egui::Ui,
    forecasts: Option<&crate::game::forecasts::Forecasts>,
    subject: crate::game::forecasts::Subject,
    what: &str,
) {
    let Some(slot) = forecasts.map(|f| f.slot(subject)) else { return };
    let steady = slot.latest.as_ref().filter(|e| crate::game::forecasts::steady(e) || !slot.busy());
    let text = match steady {
        Some(e) => format!("{what}: {}", crate::game::forecasts::chance_text(e)),
        None if slot.busy() => format!("{what}: estimating…"),
        None => return,
    };
    let response = ui.label(egui::RichText::new(text).color(ui_style::MUTED).size(13.0));
    if let Some(e) = steady {
        response.on_hover_text(crate::game::forecasts::method_text(e));
    }
}

/// The full text of the card under the pointer, in the other half of the
/// screen from the pointer (so it never covers the card or the row beside it
/// that may be the next click), kept on screen.
fn hover_box(ctx: &egui::Context, text: &str) {
    let Some(at) = ctx.pointer_latest_pos() else { return };
    let screen = ctx.content_rect();
    let right = at.x > screen.center().x;
    let upper = at.y < screen.center().y;
    let pivot = match (right, upper) {
        (false, true) => egui::Align2::LEFT_TOP,
        (true, true) => egui::Align2::RIGHT_TOP,
        (false, false) => egui::Align2::LEFT_BOTTOM,
        (true, false) => egui::Align2::RIGHT_BOTTOM,
    };
    let y = if upper { screen.center().y + 40.0 } else { screen.center().y - 40.0 };
    let x = if right { at.x + 20.0 } else { at.x - 20.0 };
    egui::Area::new(egui::Id::new("card_hover"))
        .order(egui::Order::Tooltip)
        .interactable(false)
        .pivot(pivot)
        .fixed_pos(egui::pos2(x, y))
        .constrain(true)
        .show(ctx, |ui| {
            let frame = egui::Frame::new()
                .fill(egui::Color32::from_rgb(0x1e, 0x19, 0x14))
                .stroke(egui::Stroke::new(1.0, ui_style::GOLD))
                .corner_radius(4.0)
                .inner_margin(8.0);
            frame.show(ui, |ui| {
                ui.set_max_width(340.0);
                let mut lines = text.lines();
                if let Some(first) = lines.next() {
                    ui.label(egui::RichText::new(first).strong().color(ui_style::GOLD));
                }
                for line in lines {
                    ui.label(line);
                }
            });
        });
}

/// A new delve that has not drawn its first tile yet (once a tile is in
/// hand the tray says what to do, and the board needs all its room).
fn first_steps(phase: &Phase, game: &Game) -> bool {
    matches!(phase, Phase::Exploring { tile_in_hand: false, decision: None })
        && game.adventure().is_some_and(|a| {
            a.ecology.map.tiles().len() == 1 && a.ecology.drawn.is_none() && a.record.ecologies_cleared.is_empty()
        })
}

/// How to begin, on the table until the first tile is laid.
fn first_steps_window(ctx: &egui::Context) {
    egui::Window::new("How to play")
        .id(egui::Id::new("first_steps"))
        .anchor(egui::Align2::CENTER_BOTTOM, [-15.0, -FOOT])
        .collapsible(true)
        .resizable(false)
        .show(ctx, |ui| {
            ui.set_max_width(440.0);
            for line in [
                "1. Press D (or Draw tile) to draw a map tile.",
                "2. Drag it from the tray onto a gold cell; R or right-click turns it.",
                "3. Click a token on the map to see what Encountering it does.",
                "4. Reach the Stair Guardian, defeat it, and go deeper. F1 has the rules.",
            ] {
                ui.label(line);
            }
        });
}

/// An Action Card on a button or in a list: "Power" or its value.
fn card_label(card: &depths_rules::ActionCard) -> String {
    if card.power { "Power".into() } else { card.value.to_string() }
}

/// The number key 1–9 pressed this frame, unless a text field has the keyboard.
fn number_key(ctx: &egui::Context) -> Option<u8> {
    use egui::Key::*;
    if ctx.egui_wants_keyboard_input() {
        return None;
    }
    let keys = [Num1, Num2, Num3, Num4, Num5, Num6, Num7, Num8, Num9];
    ctx.input(|i| keys.iter().position(|k| i.key_pressed(*k))).map(|n| n as u8 + 1)
}

/// The banner: the player (and Hero) who must act, and what they must do.
pub fn banner_line(game: &Game, seats: &Seats) -> String {
    let solo = seats.players.count() < 2 && seats.players.names.first().is_none_or(|n| n == "Player 1");
    if game.is_over() || solo {
        return banner(game);
    }
    format!("▶ {} — {}", seats.acting_text(game), banner(game))
}

/// The "pass to …" screen: hides the table until `player` comes to it.
fn curtain(
    root: &mut egui::Ui,
    game: &Game,
    seats: &Seats,
    player: usize,
    enter_lifts: bool,
    lift: &mut MessageWriter<LiftCurtain>,
) {
    let name = seats.players.name(player);
    egui::CentralPanel::default().frame(egui::Frame::new().fill(egui::Color32::from_rgb(0x14, 0x10, 0x0c))).show(
        root,
        |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(ui.available_height() * 0.3);
                ui.label(ui_style::title(&format!("Pass to {name}"), 48.0));
                ui.add_space(8.0);
                let heroes: Vec<&str> = game
                    .heroes
                    .iter()
                    .enumerate()
                    .filter(|(h, _)| seats.players.owner(*h as u8) == player)
                    .map(|(_, h)| h.name())
                    .collect();
                ui.label(
                    egui::RichText::new(format!("{name} plays {}. The other players look away.", heroes.join(" and ")))
                        .color(ui_style::MUTED),
                );
                ui.add_space(6.0);
                ui.label(egui::RichText::new(banner(game)).color(ui_style::GOLD));
                ui.add_space(16.0);
                let enter = enter_lifts && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Enter));
                if ui.add(ui_style::menu_button(&format!("I am {name}"))).on_hover_text("or press Enter").clicked()
                    || enter
                {
                    lift.write(LiftCurtain);
                }
            });
        },
    );
}

/// Who must act now, in words, from the rules' phase.
pub fn banner(game: &Game) -> String {
    let name = |h: u8| game.heroes.get(usize::from(h)).map_or("?", |h| h.name());
    let phase = game.phase();
    match &phase {
        Phase::Won => return "The Heroes have won!".into(),
        Phase::Lost(r) => return format!("The Heroes have lost: {}.", loss_text(game, r)),
        Phase::Combat { step } => {
            let Some(c) = game.combat() else { return "Combat".into() };
            // "All Heroes perform each Step simultaneously": name them all.
            let heroes: Vec<&str> = c.heroes_to_act().into_iter().map(name).collect();
            let who = and_list(&heroes);
            let several = heroes.len() > 1;
            return match step {
                CombatStep::AssignMonsters => "Combat: the players assign the Monsters to Heroes".into(),
                CombatStep::AvoidReturnDamage => "Combat: choose who avoids Return Damage".into(),
                _ if heroes.is_empty() => "Combat".into(),
                CombatStep::PlayCards if several => {
                    format!("Combat, round {}: {who} play cards, in any order", c.round)
                }
                CombatStep::PlayCards => format!("Combat, round {}: {who} plays a card", c.round),
                CombatStep::PlaceMonsterCard if several => format!("Combat: {who} place the Monsters' cards"),
                CombatStep::PlaceMonsterCard => format!("Combat: {who} places the Monster's card"),
                CombatStep::Resolve if several => {
                    format!("Combat, round {}: {who} each resolve one pair, in any order", c.round)
                }
                CombatStep::Resolve => format!("Combat, round {}: {who} resolves one pair", c.round),
                CombatStep::AssignDamage if several => format!("Combat: {who} choose whom to damage"),
                CombatStep::AssignDamage => format!("Combat: {who} chooses whom to damage"),
            };
        }
        Phase::Passage { next } => {
            let from = game.adventure().map_or(Ecology::Ruins, |a| a.ecology.ecology);
            return passage_text(from, *next);
        }
        _ => {}
    }
    match game.pending() {
        Some(Pending::Purchase { what, cost, .. }) => format!("Pay {cost} XP for {}", purchase_name(game, *what)),
        Some(Pending::SplitHealing { points }) => format!("Share {points} Health among the Heroes"),
        Some(Pending::ChooseHero(why)) => match why {
            HeroChoice::DrawItem => "Choose the Hero who draws an Item".into(),
            HeroChoice::GainItem(i) => format!("Choose the Hero who gains {}", i.name),
            HeroChoice::Heal(n) => format!("Choose the Hero healed by {n}"),
            HeroChoice::Damage(n) => format!("Choose the Hero who takes {n} damage"),
        },
        Some(Pending::ChooseItem { hero, .. }) => format!("{}: keep one Item", name(*hero)),
        Some(Pending::RemoveCards { hero, count }) => {
            format!("{}: remove {}", name(*hero), counted(*count, "Action Card", "Action Cards"))
        }
        Some(Pending::ChooseAbility { hero, .. }) => format!("{}: keep one Ability", name(*hero)),
        Some(Pending::ChooseAbilityDraw { hero }) => {
            format!("{}: draw one Ability from each class, or two from the Primary class", name(*hero))
        }
        Some(Pending::OrderFeatures { .. }) => "Choose the order of the revealed Features".into(),
        Some(Pending::LevelUp { .. }) => "Level Up: buy Abilities, then finish the Ecology".into(),
        Some(Pending::Passage { .. }) => "Passage to the next Ecology".into(),
        None => match phase {
            Phase::Encountering { element, .. } => format!("Encountering {}", encountering_name(element)),
            Phase::Exploring { tile_in_hand: true, .. } => "Exploring: place the drawn tile".into(),
            _ => "Exploring: draw a tile, or Encounter something".into(),
        },
    }
}

/// "Bren", "Bren and Sil", "Bren, Sil and Ava".
fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// What is being Encountered, with its article.
fn encountering_name(e: Encountering) -> &'static str {
    match e {
        Encountering::Monster => "a Monster",
        Encountering::Feature => "a Feature",
        Encountering::Door => "a Door",
        Encountering::Chest => "a Chest",
        Encountering::LegendaryLocation => "a Legendary Location",
        Encountering::Campfire => "a Campfire",
        Encountering::StairGuardian => "the Stair Guardian",
        Encountering::FinalEntity => "the Final Entity",
    }
}

fn purchase_name(game: &Game, p: Purchase) -> String {
    match p {
        Purchase::Key => "a Key".into(),
        Purchase::Healing { units } => format!("Healing ×{units}"),
        Purchase::Ability { hero } => {
            format!("an Ability for {}", game.heroes.get(usize::from(hero)).map_or("?", |h| h.name()))
        }
    }
}

fn activation_text(a: Activation) -> String {
    match a {
        Activation::Passive => "Passive".into(),
        Activation::Power(n) => format!("Power ×{n}"),
        Activation::Block => "Block".into(),
    }
}

/// A health bar; `id` keeps its animation: the bar slides to a new value
/// (egui asks for the frames it needs, so reactive rendering still idles).
/// A Hero's Health bar; `due` is the Health this Round's end will take if
/// nothing changes, shown as the part of the bar about to go.
fn health_bar(ui: &mut egui::Ui, id: impl std::hash::Hash + std::fmt::Debug, health: u8, max: u8, due: u8, width: f32) {
    let f = if max == 0 { 0.0 } else { f32::from(health) / f32::from(max) };
    let shown = ui.ctx().animate_value_with_time(egui::Id::new(("health", id)), f, 0.35);
    let color = if f > 0.5 {
        GOOD
    } else if f > 0.25 {
        ui_style::NOTICE
    } else {
        BAD
    };
    let text = format!("{health} / {max}");
    let bar = ui.add(egui::ProgressBar::new(shown).desired_width(width).fill(color.gamma_multiply(0.7)).text(text));
    if due > 0 && max > 0 {
        let r = bar.rect;
        let x = |v: u8| r.left() + r.width() * f32::from(v) / f32::from(max);
        let going = egui::Rect::from_x_y_ranges(x(health.saturating_sub(due))..=x(health), r.y_range());
        ui.painter().rect_filled(going.shrink(1.0), 2.0, BAD.gamma_multiply(0.55));
        bar.on_hover_text("The Monsters' side of the pairs resolved so far, after Armor, unless it is avoided.");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One egui pass over three buttons (the middle one not legal) with
    /// `key` pressed; returns what was chosen.
    fn press(key: Option<egui::Key>) -> Vec<Action> {
        let ctx = egui::Context::default();
        let mut input = egui::RawInput::default();
        if let Some(key) = key {
            let pressed = |pressed| egui::Event::Key {
                key,
                physical_key: None,
                pressed,
                repeat: false,
                modifiers: egui::Modifiers::NONE,
            };
            input.events = vec![pressed(true), pressed(false)];
        }
        let mut chosen = Vec::new();
        let mut output = ctx.run_ui(input, |ui| {
            let pressed = number_key(ui.ctx());
            let legal = vec![Action::DrawTile, Action::FinishLevelUp];
            let mut c =
                Choices { table: None, legal, shown: Vec::new(), chosen: Vec::new(), next_key: Some(1), pressed };
            c.button(ui, Action::DrawTile, "draw");
            c.button(ui, Action::CancelPurchase, "not legal");
            c.button(ui, Action::FinishLevelUp, "finish");
            chosen = c.chosen;
        });
        // No renderer here to take the font texture.
        output.textures_delta.clear();
        chosen
    }

    #[test]
    fn a_log_line_names_a_file_by_its_name() {
        assert_eq!(
            short_path_line("Loaded /tmp/fd-saves/tokens.json."),
            Some(("Loaded tokens.json.".to_owned(), "/tmp/fd-saves/tokens.json".to_owned()))
        );
        assert_eq!(short_path_line("Loaded tokens.json."), None);
        assert_eq!(short_path_line("Bren plays a 4."), None);
        assert_eq!(short_path_line("Drew “Bones/Ash”."), None);
    }

    #[test]
    fn number_keys_answer_the_numbered_legal_buttons() {
        assert_eq!(press(None), vec![]);
        assert_eq!(press(Some(egui::Key::Num1)), vec![Action::DrawTile]);
        // The refused button gets no number: 2 is the next legal one.
        assert_eq!(press(Some(egui::Key::Num2)), vec![Action::FinishLevelUp]);
        assert_eq!(press(Some(egui::Key::Num3)), vec![]);
    }
}
