//! The in-game panels, drawn each frame as a chain in egui's pass: the frame
//! (banner, side panels, help line), then the book's stage sets (the Combat
//! strip in each Combat step, the pending decision, the Passage, the game-over
//! sheet), then what is left (the board's room, other choices, the hover
//! box, the moves chosen). They hand each other a [`PanelPass`].

use super::widgets::*;
use super::{
    combat::combat_strip,
    decisions::{passage_window, pending_window},
    game_over::game_over_screen,
    hero_mat::heroes_panel,
    party::party_panel,
};

pub(super) fn plugin(app: &mut App) {
    use crate::{
        StageSystems as S,
        game::schedule::{COMBAT_STEPS, PanelSystems},
    };
    app.init_resource::<PanelPass>().init_resource::<PanelFolds>().init_resource::<super::widgets::PanelProbe>();
    let at_table = || in_state(Screen::Playing).and_then(resource_exists::<Delve>);
    app.add_systems(EguiPrimaryContextPass, game_ui.in_set(PanelSystems::Frame).run_if(at_table()));
    for step in COMBAT_STEPS {
        app.add_systems(EguiPrimaryContextPass, combat_panel.in_set(S::Combat(step)).run_if(at_table()));
    }
    for stage in [S::Setup, S::Exploring, S::Encountering, S::LevelUp] {
        app.add_systems(EguiPrimaryContextPass, decision_panel.in_set(stage).run_if(at_table()));
    }
    app.add_systems(EguiPrimaryContextPass, passage_panel.in_set(S::Passage).run_if(at_table()));
    app.add_systems(EguiPrimaryContextPass, game_over_panel.in_set(S::GameOver).run_if(at_table()));
    app.add_systems(EguiPrimaryContextPass, finish.in_set(PanelSystems::Finish).run_if(at_table()));
    app.add_systems(
        EguiPrimaryContextPass,
        super::fight_end::fight_end_panel.in_set(PanelSystems::Finish).before(finish).run_if(at_table()),
    );
}

/// The side panels folded (`true`) or opened by the player; `None` until the
/// player touches one (then the window's width decides). A replay keeps its
/// own: panels opened at the table stayed open beside the replay's column
/// and left the board 270 px at 150 %.
#[derive(Resource, Clone, Copy, Debug, Default)]
struct PanelFolds {
    table: Folds,
    replay: Folds,
}

#[derive(Clone, Copy, Debug, Default)]
struct Folds {
    heroes: Option<bool>,
    party: Option<bool>,
}

/// What the banner's buttons ask for.
#[derive(SystemParam)]
struct BannerOrders<'w> {
    menu: MessageWriter<'w, MenuAction>,
    lift: MessageWriter<'w, LiftCurtain>,
    hand_over: MessageWriter<'w, HandOver>,
    curtain_switch: MessageWriter<'w, SetCurtain>,
    take_back: MessageWriter<'w, TakeBack>,
    put_back: MessageWriter<'w, PutBack>,
    ask_hint: MessageWriter<'w, crate::game::hint::AskHint>,
    settings: ResMut<'w, crate::game::settings::Settings>,
}

impl BannerOrders<'_> {
    fn obey(&mut self, click: Option<super::banner::BannerClick>) {
        use super::banner::BannerClick as B;
        match click {
            Some(B::Menu) => {
                self.menu.write(MenuAction::BackToMenu);
            }
            Some(B::Rules) => {
                self.menu.write(MenuAction::Rules);
            }
            Some(B::Settings) => self.settings.open = !self.settings.open,
            Some(B::Hint) => {
                self.ask_hint.write(crate::game::hint::AskHint);
            }
            Some(B::Undo) => {
                self.take_back.write(TakeBack);
            }
            Some(B::Redo) => {
                self.put_back.write(PutBack);
            }
            Some(B::HandOver) => {
                self.hand_over.write(HandOver);
            }
            Some(B::Curtain(on)) => {
                self.curtain_switch.write(SetCurtain(on));
                self.settings.curtain = on;
                let _ = self.settings.write();
            }
            None => {}
        }
    }
}

/// What the side panels show and change beside the game itself.
#[derive(SystemParam)]
struct SidePanels<'w> {
    folds: ResMut<'w, PanelFolds>,
    hand: ResMut<'w, TileInHand>,
    refused: Res<'w, DropRefused>,
    selected: Res<'w, SelectedElement>,
    previewed: ResMut<'w, crate::game::focus::PreviewedEncounter>,
    save_dir: Res<'w, SaveDir>,
    icons: Res<'w, Icons>,
    health: Res<'w, crate::game::rules_events::HealthNews>,
    tray: Option<Res<'w, crate::board::tray_preview::TrayPreview>>,
    forecasts: Option<Res<'w, crate::game::forecasts::Forecasts>>,
}

/// The frame around the table: the banner (or the hot-seat curtain), the
/// Hero mats, the party panel and the help line; what is left is the
/// board's room, handed on in the [`PanelPass`].
fn game_ui(
    mut contexts: EguiContexts,
    view: GameView,
    mut pass_on: ResMut<PanelPass>,
    mut orders: BannerOrders,
    mut side: SidePanels,
    mut online: crate::ui::online_banner::OnlineBanner,
    (mut probe, mut curtain_seen, geometry, hint, mut replay_column, fight_end): (
        ResMut<super::widgets::PanelProbe>,
        Local<Option<usize>>,
        Res<crate::table::cards::TableGeometry>,
        Option<Res<crate::game::hint::Hint>>,
        crate::ui::replay_bar::ReplayColumn,
        Res<crate::game::rules_events::FightEnd>,
    ),
    (asking, hinted): (Res<crate::game::confirm::Asking>, Res<crate::game::focus::HintedSpot>),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let (delve, seats) = (&*view.delve, &*view.seats);
    let game = delve.game();
    // No number key acts on the table while the fight's end is told, or
    // while a question is asked (its own choices take the keys).
    let pressed = number_key(ctx).filter(|_| fight_end.moment.is_none() && asking.ask().is_none());
    // Behind the curtain each player acts for their own Heroes.
    let legal = crate::table::cards::legal_at_table(delve, seats);
    let mut c = Choices::new(Some((delve, seats)), legal, pressed);
    c.hinted = hint.as_deref().filter(|h| h.version == delve.version()).and_then(|h| h.action.clone());
    // The cards on the table take the first numbers; egui's buttons the next.
    let in_combat = matches!(game.phase(), Phase::Combat { .. });
    let on_table = if in_combat { geometry.numbered.clone() } else { Vec::new() };
    if let Some((n, a)) = pressed.and_then(|n| on_table.iter().find(|(k, _)| *k == n)) {
        c.keyed = Some((*n, a.clone()));
        c.pressed = None;
    }
    *pass_on = PanelPass { on_table, ..default() };
    let mut root = egui::Ui::new(
        ctx.clone(),
        "game_viewport".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    );

    let shown = super::banner::BannerView {
        place: game.adventure().map(|a| format!("{} · seed {}", a.ecology.ecology.name(), a.options.seed)),
        // A replay knows the moves, not who made them (a Companion seated
        // late was named for the players' own moves): the rules' words only.
        line: if delve.read_only { crate::game::words::banner(game) } else { banner_line(game, seats) },
        undo: (!delve.read_only).then(|| (view.undo.undo_words().map(str::to_owned), view.undo.redo_words(game))),
        // Hot-seat only: online each player has their own screen.
        // Not in a replay, which hands nothing over (its box read unticked).
        pass_to: seats
            .hand_off_due(game)
            .filter(|_| seats.seat.is_none() && !delve.read_only)
            .map(|p| seats.players.name(p).to_owned()),
        curtain: (seats.players.count() >= 2 && seats.seat.is_none() && !delve.read_only)
            .then_some(seats.players.curtain),
    };
    let super::banner::BannerShown { rect: banner_rect, click, pass } =
        super::banner::banner(&mut root, &shown, |ui| online.show(ui));
    orders.obey(click);
    c.controls.extend(pass);
    pass_on.banner = Some(banner_rect);
    let up = seats.curtain(game);
    // Enter lifts the curtain only once it has been on screen for a pass, so
    // the Enter that placed a tile cannot also lift the curtain after it.
    let was_up = std::mem::replace(&mut *curtain_seen, up) == up;
    if let Some(p) = up {
        curtain(&mut root, game, seats, p, was_up, &mut orders.lift);
        pass_on.curtain = true;
        *probe = super::widgets::PanelProbe { banner: Some(banner_rect), curtain: true, ..default() };
        return Ok(());
    }

    // A replay's column takes the window's right edge, beside the party panel.
    if let Some(rect) = replay_column.show(&mut root, in_combat) {
        pass_on.panels.push(("replay_column".into(), rect));
    }
    side_panels(&mut root, &view, &mut side, &mut online, &mut c, &mut pass_on);
    // A game lost in a fight is over: no step of it is asked for.
    help_line(
        &mut root,
        game.combat().filter(|_| !game.is_over()).map(|c| c.step),
        view.delve.read_only,
        game.is_over(),
    );
    let room = root.available_rect_before_wrap();
    // A notice or the hint floats over the board's top edge: it takes no
    // room, so nothing moves under the pointer when it comes or goes. (In a
    // Combat the strip carries them, in a line kept for them.)
    if !in_combat {
        let hint = current_hint(hint.as_deref(), delve.version());
        let z = ctx.zoom_factor();
        let hinted_at = hinted.hinted.filter(|_| hint.is_some()).map(|r| style::in_points(r, z));
        let cells: Vec<egui::Rect> = hinted.cells.iter().map(|r| style::in_points(*r, z)).collect();
        notes_over_board(ctx, room, view.log.notice.as_deref(), hint, (hinted_at, &cells));
    }
    pass_on.room = Some(room);
    c.suspend(&mut pass_on);
    Ok(())
}

/// The Hero mats on the left and the party panel on the right, each folded
/// to a slim strip until the player opens it where room is short.
fn side_panels(
    root: &mut egui::Ui,
    view: &GameView,
    side: &mut SidePanels,
    online: &mut crate::ui::online_banner::OnlineBanner,
    c: &mut Choices,
    pass_on: &mut PanelPass,
) {
    let game = view.delve.game();
    let content = root.ctx().content_rect();
    // In a Combat on a narrow window the party panel starts folded, and on a
    // cramped one the Hero mats.
    let replay = view.delve.read_only;
    let Folds { heroes: fold_heroes, party: fold_party } = if replay { side.folds.replay } else { side.folds.table };
    let narrow = content.width() < 1500.0;
    // At a large UI scale (150 % of 1280×800 is 853 points wide) the Hero
    // mats start folded too; the party panel keeps the tile tray open.
    let cramped = content.width() < 1000.0;
    let in_combat = matches!(game.phase(), Phase::Combat { .. });
    let heroes_folded = fold_heroes.unwrap_or(cramped);
    // A replay's column takes the right edge too: the party panel folds.
    let party_folded = fold_party.unwrap_or((in_combat || view.delve.read_only) && narrow);
    let mut toggle: (Option<bool>, Option<bool>) = (None, None);
    // Each side panel keeps to at most 28 % of the window, its words
    // wrapping (long Item names once widened the mats until the board had
    // 44 points left at 125 %).
    let side_max = content.width() * 0.28;

    if heroes_folded {
        let shown = egui::Panel::left("heroes_strip").resizable(false).exact_size(70.0).show(root, |ui| {
            if heroes_strip(ui, game, &side.icons, c) {
                toggle.0 = Some(false);
            }
        });
        pass_on.panels.push(("heroes_strip".into(), shown.response.rect));
    } else {
        let shown =
            egui::Panel::left("heroes").resizable(true).default_size(300.0).max_size(side_max).show(root, |ui| {
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
                    .show(ui, |ui| heroes_panel(ui, game, &side.icons, (&side.health, view.delve.stamp()), c));
            });
        pass_on.panels.push(("heroes".into(), shown.response.rect));
    }

    if party_folded {
        let shown = egui::Panel::right("party_strip").resizable(false).exact_size(70.0).show(root, |ui| {
            if party_strip(ui, game, &side.icons) {
                toggle.1 = Some(false);
            }
        });
        pass_on.panels.push(("party_strip".into(), shown.response.rect));
    } else {
        let shown = egui::Panel::right("party")
            .resizable(true)
            .default_size(330.0_f32.min(side_max))
            .max_size(side_max)
            .show(root, |ui| {
                if ui
                    .small_button("fold ▶")
                    .on_hover_text("Fold the party panel to a strip: more room for the table")
                    .clicked()
                {
                    toggle.1 = Some(true);
                }
                egui::ScrollArea::vertical().show(ui, |ui| {
                    party_column(ui, view, side, c);
                    online.invite(ui);
                });
            });
        pass_on.panels.push(("party".into(), shown.response.rect));
    }
    if toggle != (None, None) {
        let folds = if replay { &mut side.folds.replay } else { &mut side.folds.table };
        folds.heroes = toggle.0.or(folds.heroes);
        folds.party = toggle.1.or(folds.party);
    }
}

/// The party panel's column: the party and the tile tray, the log, and
/// where the game is saved.
fn party_column(ui: &mut egui::Ui, view: &GameView, side: &mut SidePanels, c: &mut Choices) {
    let (delve, seats) = (&*view.delve, &*view.seats);
    party_panel(
        ui,
        delve,
        &mut side.hand,
        &side.refused,
        &side.selected,
        &mut side.previewed,
        &side.icons,
        c,
        side.forecasts.as_deref(),
        side.tray.as_deref().and_then(|t| t.texture()),
    );
    ui.separator();
    egui::CollapsingHeader::new("Log").default_open(true).show(ui, |ui| {
        // Its full height from the first line: growing, it slid the save
        // line under a resting pointer, whose hover box then opened.
        // No taller than the room left above the save line (at 1280×800 the
        // line was cut by the window's foot).
        let room = (ui.available_height() - 2.0 * style::type_scale::FINE - 8.0).clamp(80.0, 260.0);
        let log = egui::ScrollArea::vertical().id_salt("log").max_height(room).auto_shrink([false, false]);
        log.stick_to_bottom(true).show(ui, |ui| {
            for line in view.log.lines.iter().rev().take(300).rev() {
                match short_path_line(line) {
                    Some((short, full)) => {
                        ui.label(egui::RichText::new(short).size(style::type_scale::SMALL)).on_hover_text(full);
                    }
                    None => {
                        ui.label(egui::RichText::new(line).size(style::type_scale::SMALL));
                    }
                }
            }
        });
    });
    let small = |text: String| egui::RichText::new(text).size(style::type_scale::FINE).color(style::MUTED);
    if delve.read_only {
        ui.label(small("A replay: nothing here is saved.".into()));
    } else if seats.seat.is_some_and(|s| s > 0) {
        let host = seats.players.name(0);
        let path = match seats.relayed {
            Some(true) => " · through a relay (no direct path found)",
            Some(false) => " · connected directly",
            None => "",
        };
        ui.label(small(format!("{host}'s game: {host} saves it{path}.")));
    } else {
        // Said plainly; where, on hover (the file name read like a debug line).
        let path = save_path(&side.save_dir, &view.slot);
        ui.label(small("Saved as you play".into())).on_hover_text(format!("In {}", path.display()));
    }
}

/// The keys and gestures of what is on screen, along the window's foot (a
/// replay's own keys in a replay): in a Combat, the step's own first (it offered "click an individual to damage
/// it" while pairs were being resolved, where that click only opens its text).
fn help_line(root: &mut egui::Ui, step: Option<CombatStep>, replay: bool, over: bool) {
    let now = match step {
        Some(CombatStep::AssignMonsters) => "choose in the strip which Monster card each Hero fights",
        Some(CombatStep::PlayCards) => "drag a card from a hand onto the table, click it or press its number",
        Some(CombatStep::PlaceMonsterCard) => "click the pair where the Monster's card goes",
        // E presses the End button, whichever it reads ("End round", or one
        // Hero's "end turn": "E: end round" stood beside "Ava: end turn").
        Some(CombatStep::Resolve) => "click a pair to resolve it or press its number · E: the End button",
        Some(CombatStep::AssignDamage) => "click an individual on the Monster card, or press its number, to damage it",
        Some(CombatStep::AvoidReturnDamage) => "choose in the strip who avoids Return Damage",
        None => "",
    };
    // A replay is watched, not played: its own keys (it told of drawing
    // tiles and Ctrl+Z there).
    // After the game's end nothing is drawn or placed (it told of D and Ctrl+Z).
    // Shown: what the step asks and the few keys a player reaches for;
    // the rest on hover (the whole list was text to wade through, and F2
    // lists every key).
    let (shown, all) = if over && !replay {
        let line = "The game is over: “Show the end of the game” at the top brings its results back · drag: pan · wheel: zoom · F1: rules";
        (line.to_owned(), line.to_owned())
    } else if replay {
        (
            "Left / Right arrow: a move back or on · Home / End: the first or last move · F2: all keys".to_owned(),
            "Left / Right arrow: a move back or on · Home / End: the first or last move · hover a card to read it · drag: pan · wheel: zoom · F1: rules".to_owned(),
        )
    } else if step.is_some() {
        (
            crate::game::words::capitalise(&format!("{now} · H: hint · Ctrl+Z: undo · F2: all keys")),
            crate::game::words::capitalise(&format!(
                "{now} · hover a card to read it · H: hint · Space: put a revealed card away · Ctrl+Z: undo · F1: rules · F2: all keys"
            )),
        )
    } else {
        (
            "D: draw a tile · R: turn it · H: hint · Ctrl+Z: undo · F2: all keys".to_owned(),
            "F1: rules · F2 / ?: shortcuts · D: draw a tile · drag it from the tray (or click a gold cell, then click it again) · R / right-click: turn · arrows + Enter: place · drag: pan · wheel: zoom · F: fit · H: hint · Ctrl+Z: undo · Ctrl+S: save".to_owned(),
        )
    };
    // One line of whole keys, all on hover: wrapped to two at 150 % it took
    // the table's room (the cards in hand came out smaller than at 100 %).
    egui::Panel::bottom("help").show(root, |ui| {
        parts_line(ui, &shown, style::type_scale::SMALL, style::MUTED, &all);
    });
}

/// The hint's words while they are for the table as it is.
pub(super) fn current_hint(hint: Option<&crate::game::hint::Hint>, version: u64) -> Option<&str> {
    hint.filter(|h| h.version == version && !h.text.is_empty()).map(|h| h.text.as_str())
}

/// The notice and the hint, over the top of the board, or over its foot
/// where they cover less there of `keep_off`: where the hinted move lies
/// above all, then the gold cells a tile may go to.
fn notes_over_board(
    ctx: &egui::Context,
    room: egui::Rect,
    notice: Option<&str>,
    hint: Option<&str>,
    keep_off: (Option<egui::Rect>, &[egui::Rect]),
) {
    if notice.is_none() && hint.is_none() {
        return;
    }
    // Beside the guided game's box, which holds the room's top-left corner
    // (the hint was printed over its title).
    let guide = crate::ui::guide_window::guide_layer();
    let left = ctx
        .memory(|m| m.areas().visible_last_frame(&guide).then(|| m.area_rect(guide.id)).flatten())
        .filter(|g| room.max.x - g.max.x > 200.0)
        .map_or(room.min.x + 8.0, |g| g.max.x + 8.0);
    let id = egui::Id::new("notes_over_board");
    // One width wherever it goes (its height, known from the frame before,
    // stays true), narrow enough to lie beside what it must not cover.
    let width = (room.max.x - left - 8.0).min((room.width() * 0.6).max(240.0)).max(120.0);
    let size = ctx.memory(|m| m.area_rect(id)).map_or(egui::vec2(width, 60.0), |r| r.size());
    let (x0, x1) = (left, (room.max.x - 8.0 - size.x).max(left));
    let (y0, y1) = (room.min.y + 6.0, (room.max.y - 6.0 - size.y).max(room.min.y + 6.0));
    // The top left first, then the top right, then the foot.
    let places =
        [(x0, y0), (x1, y0), (x0, y1), (x1, y1)].map(|(x, y)| egui::Rect::from_min_size(egui::pos2(x, y), size));
    // The buttons over the board's foot ("Other choices", a decision's
    // window) weigh as much as the hinted move.
    let other = egui::Id::new("other_choices");
    let shown = ctx.memory(|m| m.areas().visible_last_frame(&egui::LayerId::new(egui::Order::Middle, other)));
    let mut first: Vec<egui::Rect> = decision_rects(ctx);
    first.extend(ctx.memory(|m| m.area_rect(other)).filter(|_| shown));
    first.extend(keep_off.0);
    let at = note_place(&places, &first, keep_off.1);
    egui::Area::new(id).order(egui::Order::Foreground).fixed_pos(at.min).interactable(false).show(ctx, |ui| {
        ui.set_max_width(width);
        egui::Frame::popup(ui.style()).fill(crate::theme::palette::PANEL).show(ui, |ui| {
            if let Some(n) = notice {
                ui.label(egui::RichText::new(n).color(style::notice()));
            }
            if let Some(h) = hint {
                ui.label(egui::RichText::new(format!("💡 {h}")).color(style::GOLD));
            }
        });
    });
}

/// Of `places` (the first preferred), the one that covers least of
/// `first` (what must stay clear above all), then of `then`; another than
/// the first only to be clear of more: a box that hopped at every draw
/// moved for nothing.
fn note_place(places: &[egui::Rect], first: &[egui::Rect], then: &[egui::Rect]) -> egui::Rect {
    let covers = |at: egui::Rect| {
        let over = |r: &egui::Rect| if r.intersects(at) { r.intersect(at).area() } else { 0.0 };
        (first.iter().map(over).sum::<f32>(), then.iter().map(over).sum::<f32>())
    };
    places.iter().fold(places[0], |best, p| {
        let (b, c) = (covers(best), covers(*p));
        if c.0 + 1.0 < b.0 || (c.0 <= b.0 + 1.0 && c.1 + 1.0 < b.1) { *p } else { best }
    })
}

#[cfg(test)]
mod note_tests {
    use super::*;

    fn at(x: f32, y: f32) -> egui::Rect {
        egui::Rect::from_min_size(egui::pos2(x, y), egui::vec2(300.0, 80.0))
    }

    /// A playtest: the hint's words over the board covered the very cell
    /// it told the player to place the tile in, and a gold cell beside it.
    #[test]
    fn the_hint_keeps_off_the_hinted_cell_then_the_gold_cells() {
        let places = [at(0.0, 0.0), at(400.0, 0.0), at(0.0, 500.0), at(400.0, 500.0)];
        let cell = |x: f32, y: f32| egui::Rect::from_min_size(egui::pos2(x, y), egui::vec2(100.0, 100.0));
        assert_eq!(note_place(&places, &[], &[]), places[0], "nothing to keep off: the top left");
        assert_eq!(note_place(&places, &[cell(50.0, 20.0)], &[]), places[1], "off the hinted cell");
        // The hinted cell first, whatever gold cells the other place covers.
        let gold = [cell(450.0, 20.0), cell(450.0, 520.0)];
        assert_eq!(note_place(&places, &[cell(50.0, 20.0), cell(50.0, 520.0)], &gold), places[1]);
        assert_eq!(note_place(&places, &[], &[cell(50.0, 20.0), cell(450.0, 20.0)]), places[2], "off gold cells");
    }
}

/// Why a click did nothing, beside where the player clicked, in large print.
fn note_at_pointer(ctx: &egui::Context, text: &str, at: egui::Pos2) {
    let id = egui::Id::new("pointer_note");
    let size = ctx.memory(|m| m.area_rect(id)).map_or(egui::vec2(300.0, 60.0), |r| r.size());
    let thing = egui::Rect::from_center_size(at, egui::vec2(40.0, 40.0));
    let pos = hover_place(ctx.content_rect(), thing, at, size, &[]);
    egui::Area::new(id).order(egui::Order::Tooltip).interactable(false).fixed_pos(pos).show(ctx, |ui| {
        egui::Frame::popup(ui.style()).fill(crate::theme::palette::PANEL).show(ui, |ui| {
            ui.set_max_width(320.0);
            ui.label(egui::RichText::new(text).size(style::type_scale::LEAD).color(style::notice()));
        });
    });
}

/// Short notes that fade by themselves ("Game saved", "Keys: 3"), each on a
/// backdrop, inside the table's room.
fn toast_notes(ctx: &egui::Context, id: egui::Id, at: egui::Pos2, room: egui::Rect, notes: &[(&str, f32)]) {
    egui::Area::new(id).order(egui::Order::Foreground).fixed_pos(at).constrain_to(room).interactable(false).show(
        ctx,
        |ui| {
            ui.set_max_width((room.width() - 16.0).clamp(120.0, 520.0));
            for (text, alpha) in notes {
                egui::Frame::popup(ui.style()).fill(crate::theme::palette::PANEL.gamma_multiply(*alpha)).show(
                    ui,
                    |ui| {
                        ui.label(
                            egui::RichText::new(*text)
                                .size(style::type_scale::BODY)
                                .color(style::GOLD.gamma_multiply(*alpha)),
                        )
                    },
                );
            }
        },
    );
}

/// The Combat strip over the Combat mat, in each Combat step.
fn combat_panel(
    mut contexts: EguiContexts,
    view: GameView,
    mut pass_on: ResMut<PanelPass>,
    mut pass: MessageWriter<PassTable>,
    (forecasts, hint): (Option<Res<crate::game::forecasts::Forecasts>>, Option<Res<crate::game::hint::Hint>>),
    (mut guide, explained): (ResMut<crate::game::guide::Guide>, Res<crate::game::guide::Explained>),
    geometry: Res<crate::table::cards::TableGeometry>,
) -> Result {
    let (Some(room), false) = (pass_on.room, pass_on.curtain) else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let (game, seats) = (view.delve.game(), &*view.seats);
    let Some(combat) = game.combat() else { return Ok(()) };
    let next_key = pass_on.on_table.iter().map(|(k, _)| *k).max().unwrap_or(0) + 1;
    let mut c = Choices::resume(&mut pass_on, Some((&view.delve, seats)));
    c.next_key = Some(next_key);
    let mut root = egui::Ui::new(
        ctx.clone(),
        "combat_viewport".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(room),
    );
    let hint = current_hint(hint.as_deref(), view.delve.version());
    // The guided game's words, a line of the strip in a fight.
    let guided = guide.0.and_then(|step| crate::game::guide::shown(step, game, &explained));
    let said = combat_strip(
        &mut root,
        game,
        seats,
        &view.log,
        combat,
        &mut c,
        &mut pass,
        (forecasts.as_deref(), hint, guided),
        &geometry.offered,
    );
    if said.skip_guide {
        guide.0 = None;
    }
    c.suspend(&mut pass_on);
    pass_on.room = Some(root.available_rect_before_wrap());
    Ok(())
}

/// The pending decision of Setup, Exploring, Encountering or Level Up; on a
/// new player's first turns, what to do first.
fn decision_panel(
    mut contexts: EguiContexts,
    view: GameView,
    mut pass_on: ResMut<PanelPass>,
    guide: Option<Res<crate::game::guide::Guide>>,
    (revealed, drawn): (Query<&crate::table::reveal::RevealedCards>, Query<&crate::table::cards::TableCard>),
) -> Result {
    if pass_on.curtain {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let (delve, seats) = (&*view.delve, &*view.seats);
    let game = delve.game();
    let mut c = Choices::resume(&mut pass_on, Some((&view.delve, seats)));
    if let Some(p) = game.pending() {
        // The cards just revealed, whose words the decision answers.
        let cards: Vec<&crate::table::reveal::RevealCard> = revealed.iter().flat_map(|r| &r.0).collect();
        let room = pass_on.room.unwrap_or(ctx.content_rect());
        // The Feature and Legendary Location cards drawn on the table, in points.
        let z = ctx.zoom_factor();
        let beside = drawn
            .iter()
            .filter(|t| t.kind == crate::table::faces::Kind::Ecology && !t.leaving)
            .map(|t| style::in_points(t.placed().rect(), z))
            .reduce(|a, b| a.union(b));
        pending_window(ctx, game, p, &cards, (room, beside), &mut c);
    } else if first_steps(&game.phase(), game) && guide.as_ref().is_none_or(|g| g.0.is_none()) && !delve.read_only {
        first_steps_window(ctx, pass_on.room.unwrap_or(ctx.content_rect()));
    }
    c.suspend(&mut pass_on);
    Ok(())
}

/// The Passage to the next Ecology.
fn passage_panel(mut contexts: EguiContexts, view: GameView, mut pass_on: ResMut<PanelPass>) -> Result {
    if pass_on.curtain {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let game = view.delve.game();
    let Phase::Passage { next } = game.phase() else { return Ok(()) };
    let mut c = Choices::resume(&mut pass_on, Some((&view.delve, &*view.seats)));
    let room = pass_on.room.unwrap_or(ctx.content_rect());
    passage_window(ctx, game, next, room, &mut c);
    c.suspend(&mut pass_on);
    Ok(())
}

/// The end of the game, over the whole window (a replay's last move is no new ending).
fn game_over_panel(
    mut contexts: EguiContexts,
    view: GameView,
    pass_on: Res<PanelPass>,
    (mut menu, mut watch, mut again): (
        MessageWriter<MenuAction>,
        MessageWriter<crate::game::replay::WatchReplay>,
        MessageWriter<crate::game::session::StartGame>,
    ),
    (board, clock, record, fight_end): (
        Res<crate::game::analysis::AnalysisBoard>,
        Option<Res<crate::game::play_clock::PlayClock>>,
        Res<crate::game::records::LastRecord>,
        Res<crate::game::rules_events::FightEnd>,
    ),
    mut looking: Local<(bool, (u64, u64))>,
) -> Result {
    // The fall that lost the game is told first, over the table it happened on.
    if pass_on.curtain || view.delve.read_only || fight_end.moment.is_some() {
        return Ok(());
    }
    // Each game's end opens on its results.
    if looking.1 != view.delve.stamp() {
        *looking = (false, view.delve.stamp());
    }
    let ctx = contexts.ctx_mut()?;
    let shown = super::game_over::Shown { board: &board, clock: clock.as_deref(), record: record.0.as_ref() };
    let leads = super::game_over::Leads { menu: &mut menu, replay: &mut watch, again: &mut again };
    let room = pass_on.room.unwrap_or(ctx.content_rect());
    game_over_screen(ctx, &view.delve, &view.seats, leads, &mut looking.0, shown, room);
    Ok(())
}

/// Where the pointer was last seen to move, and the table it moved over.
#[derive(Default)]
struct Pointed {
    at: Option<egui::Pos2>,
    stamp: (u64, u64),
    /// The note at the pointer (by when it was born), and the table it was said of.
    note: Option<(f32, (u64, u64))>,
}

/// What is left once the stages drew theirs: the room the board shows
/// through and the party's edge, any legal move no widget offered, the hover
/// box, and the moves chosen this frame.
fn finish(
    mut contexts: EguiContexts,
    view: GameView,
    mut pass_on: ResMut<PanelPass>,
    (mut board_area, mut party_edge): (ResMut<BoardArea>, ResMut<crate::table::party::PartyEdge>),
    (hovered, token, geometry, cards): (
        Res<crate::game::focus::Hovered>,
        Res<crate::game::focus::HoveredToken>,
        Res<crate::table::cards::TableGeometry>,
        Query<&crate::table::cards::TableCard>,
    ),
    (mut actions, mut seat_changes): (
        MessageWriter<crate::game::confirm::TryAction>,
        MessageWriter<crate::game::companions::SetCompanion>,
    ),
    (mut guard, (time, real), mut toast, toasts): (
        ResMut<crate::game::confirm::KeyGuard>,
        (Res<Time>, Res<Time<Real>>),
        MessageWriter<crate::game::notices::Toast>,
        Query<(Entity, &crate::table::feedback::ToastNote)>,
    ),
    (mut probe, mut pointer_note): (ResMut<super::widgets::PanelProbe>, ResMut<crate::game::notices::PointerNote>),
    mut pointed: Local<Pointed>,
    mut commands: Commands,
) -> Result {
    if pass_on.curtain {
        // The table comes back under a pointer at rest when the pass screen
        // lifts: no hover box until the pointer moves (the card under the
        // "I am …" button opened its box at once).
        let at = contexts.ctx_mut()?.pointer_latest_pos();
        *pointed = Pointed { at, stamp: (u64::MAX, u64::MAX), note: pointed.note };
        return Ok(());
    }
    let Some(free) = pass_on.room else { return Ok(()) };
    let room = free;
    let ctx = contexts.ctx_mut()?;
    let game = view.delve.game();
    let mut c = Choices::resume(&mut pass_on, Some((&view.delve, &*view.seats)));
    // egui points → window (logical) pixels: the UI scale zooms egui.
    let z = ctx.zoom_factor();
    let free = style::in_pixels(free, z);
    // The party's edge (Health Tracks, Keys, XP) along the board's foot.
    let edge_h = crate::table::party::EDGE_HEIGHT.min(free.height() / 4.0);
    let edge = Rect::new(free.min.x, free.max.y - edge_h, free.max.x, free.max.y);
    let free = Rect::new(free.min.x, free.min.y, free.max.x, free.max.y - edge_h);
    let on_edge = crate::table::party::PartyEdge(Some(edge), z);
    if *party_edge != on_edge {
        *party_edge = on_edge;
    }
    // A changed room is news: the table lays itself out again next frame.
    if board_area.0 != Some(free) {
        debug!("the board's free area: {free:?} (window px)");
        board_area.0 = Some(free);
    }

    // Anything legal that no widget above and no card on the table offered
    // (in a Combat the strip offers them, under "Other choices").
    let in_combat = matches!(game.phase(), Phase::Combat { .. });
    let rest = c.unoffered(game, &geometry.offered);
    if !rest.is_empty() && !game.is_over() && !in_combat {
        // One small button in the board's bottom left corner, its choices
        // in a menu that opens on a click: a window, even collapsed, lay
        // over the tiles and a Feature token at 150 %.
        egui::Area::new(egui::Id::new("other_choices"))
            .pivot(egui::Align2::LEFT_BOTTOM)
            .fixed_pos(egui::pos2(room.min.x + 8.0, room.max.y - edge_h / z - 8.0))
            .constrain_to(room)
            .show(ctx, |ui| {
                style::bar_frame().show(ui, |ui| {
                    ui.menu_button(format!("Other choices ({}) ⏷", rest.len()), |ui| {
                        egui::ScrollArea::vertical().max_height(240.0).show(ui, |ui| {
                            for a in rest {
                                let label = describe_action(game, &a);
                                c.button(ui, a, label);
                            }
                        });
                    });
                });
            });
    }

    // The toasts, on a backdrop where they cover no card to click.
    let now = time.elapsed_secs();
    let notes: Vec<(&str, f32)> = toasts.iter().filter_map(|(_, t)| Some((t.text.as_str(), t.alpha(now)?))).collect();
    if !notes.is_empty() {
        let id = egui::Id::new("toasts");
        let size = ctx.memory(|m| m.area_rect(id)).map_or(egui::vec2(320.0, 40.0), |r| r.size());
        let at = match geometry.clear_corner(Vec2::new(size.x, size.y), z).filter(|_| in_combat) {
            Some(at) => egui::pos2(at.x, at.y),
            // The board's top right corner, clear of the notes at its top
            // left and of the decision windows at its foot; its top left,
            // then its foot, where a revealed card lies there.
            None => {
                let reveal = geometry.reveal.map(|r| {
                    egui::Rect::from_min_max(egui::pos2(r.min.x / z, r.min.y / z), egui::pos2(r.max.x / z, r.max.y / z))
                });
                let corners = [
                    egui::pos2(room.max.x - size.x - 8.0, room.min.y + 6.0),
                    egui::pos2(room.min.x + 8.0, room.min.y + 6.0),
                    egui::pos2(room.min.x + 8.0, room.max.y - size.y - 8.0),
                ];
                let clear = |p: &egui::Pos2| reveal.is_none_or(|r| !r.intersects(egui::Rect::from_min_size(*p, size)));
                corners.iter().copied().find(clear).unwrap_or(corners[0])
            }
        };
        toast_notes(ctx, id, at, room, &notes);
    }

    // Why a click did nothing, at the pointer, until read or the next click.
    if let Some((text, at, born)) = &pointer_note.0 {
        let clicked_since = ctx.input(|i| i.pointer.any_pressed()) && now - born > 0.3;
        // Said of the table it was said at: after a move it no longer holds
        // ("A Monster Hit must be Resolved first" stayed over the cards once
        // every pair was resolved).
        if pointed.note.is_none_or(|(b, _)| b != *born) {
            pointed.note = Some((*born, view.delve.stamp()));
        }
        let moved_on = pointed.note.is_some_and(|(_, stamp)| stamp != view.delve.stamp());
        if now - born > crate::game::notices::PointerNote::stay(text) || clicked_since || moved_on {
            pointer_note.0 = None;
        } else {
            note_at_pointer(ctx, text, egui::pos2(at.x / z, at.y / z));
            ctx.request_repaint_after(std::time::Duration::from_millis(250));
        }
    }

    // A hover box opens when the pointer comes onto a card, not when the
    // table changes under a pointer at rest: after a click it covered the
    // cards the next step asks for (the Monster card's whole text over the
    // hands, once a row was clicked to place Damage).
    let at = ctx.pointer_latest_pos();
    if at != pointed.at {
        (pointed.at, pointed.stamp) = (at, view.delve.stamp());
    }
    let resting = pointed.stamp != view.delve.stamp();
    if let Some((entity, text)) = hovered.0.as_ref().filter(|_| !resting) {
        // The card's rectangle in egui points, for the box to keep clear of.
        // (or the token's on the board).
        let board = token.0.filter(|(e, _)| e == entity).map(|(_, r)| r);
        let card = cards.get(*entity).ok().map(|c| c.screen_rect(time.elapsed_secs())).or(board);
        let thing = card.map(|r| style::in_points(r, z));
        // The places to click now, which the box keeps off where it can.
        let mut clear: Vec<egui::Rect> = geometry.targets.iter().map(|t| style::in_points(t.rect, z)).collect();
        // And the window of a decision, whose buttons are the step's (a
        // drawn card's box covered Ava's).
        clear.extend(decision_rects(ctx));
        hover_box(ctx, text, thing, &clear, room);
    }

    // A number key in a quick run does not switch to another Hero's move: it
    // asks to be pressed again.
    let real_now = crate::game::confirm::RealSecs::now(&real);
    if let Some((n, a)) = c.keyed.take() {
        let was = guard.last_hero();
        if guard.key(n, &a, real_now, &c.legal) {
            // The note that asked for this press is answered: it goes (it
            // stayed on after the second press had made the move).
            for (e, note) in &toasts {
                if note.text.starts_with(&crate::game::words::press_again_head(n)) {
                    commands.entity(e).despawn();
                }
            }
            c.chosen.push(a);
        } else {
            let name = |h: Option<u8>| h.and_then(|h| game.heroes.get(usize::from(h))).map_or("", |x| x.name());
            toast.write(crate::game::notices::Toast(format!(
                "{}{}'s move, not {}'s: press {n} again for “{}”",
                crate::game::words::press_again_head(n),
                name(crate::game::hotseat::action_hero(&a)),
                name(was),
                describe_action(game, &a),
            )));
        }
    } else if let Some(n) = c.pressed.filter(|n| c.next_key.is_none_or(|next| *n >= next)) {
        // No card and no button had that number: say so, rather than drop the key.
        toast.write(crate::game::notices::Toast(crate::game::words::no_such_key(n)));
    }
    // A move that cannot be taken back and costs the game is asked about first.
    for a in std::mem::take(&mut c.chosen) {
        guard.acted(&a, real_now);
        actions.write(crate::game::confirm::TryAction(a));
    }
    for (hero, on) in std::mem::take(&mut c.seats_asked) {
        seat_changes.write(crate::game::companions::SetCompanion { hero, on });
    }
    *probe = super::widgets::PanelProbe {
        banner: pass_on.banner,
        panels: std::mem::take(&mut pass_on.panels),
        room: Some(room),
        controls: std::mem::take(&mut c.controls),
        greyed: std::mem::take(&mut c.greyed),
        curtain: false,
    };
    c.suspend(&mut pass_on);
    Ok(())
}

/// Where the decision windows lie on screen (egui points), those shown.
fn decision_rects(ctx: &egui::Context) -> Vec<egui::Rect> {
    let shown = ctx.memory(|m| m.areas().visible_layer_ids());
    ["pending", "passage"]
        .into_iter()
        .map(egui::Id::new)
        .filter(|id| shown.iter().any(|l| l.id == *id))
        .filter_map(|id| ctx.memory(|m| m.area_rect(id)))
        .collect()
}
