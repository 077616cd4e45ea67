//! The in-game egui panels: the banner, Hero mats, the party's Keys and XP,
//! the Reference Card, the tile tray, element details, every pending
//! decision, Combat, the log and the game-over sheet.
//!
//! Every button is built from `Game::legal_actions()` and only writes a
//! [`PlayerAction`]; whatever no nicer widget shows is listed under "Other
//! choices", so a whole game can always be finished here.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use depths_rules::{
    Action, Activation, CombatStep, Game, Pending, Phase, Purchase, Target, XpRef,
    adventure::HeroChoice,
    combat::{Combat, FoeCard, may_choose},
    map::{Element, ElementState},
    monster::EntityPart,
};

use crate::{
    explore::{BoardArea, Hand, SelectedElement},
    hotseat::LiftCurtain,
    icons::Icons,
    saves::{SaveDir, save_path},
    screens::{Screen, menu::MenuAction},
    session::{DropRefused, PlayerAction, Session, UndoPlacement, describe_action, loss_text, outcome_name},
    ui_style,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        game_ui.run_if(in_state(Screen::Playing).and_then(resource_exists::<Session>)),
    );
}

const GOOD: egui::Color32 = egui::Color32::from_rgb(0x8f, 0xd1, 0x7a);
const BAD: egui::Color32 = egui::Color32::from_rgb(0xe0, 0x5a, 0x4a);
/// Monster icons: a dried-blood red, bright enough on the dark cards.
const FOE_TINT: egui::Color32 = egui::Color32::from_rgb(0xd8, 0x6a, 0x55);

/// Buttons for legal actions; remembers which were shown and what was clicked.
struct Choices {
    legal: Vec<Action>,
    shown: Vec<Action>,
    chosen: Vec<Action>,
    /// In a decision or Combat window the legal buttons are numbered, so
    /// number keys answer them: the next number to hand out.
    next_key: Option<u8>,
    /// The number key (1–9) pressed this frame.
    pressed: Option<u8>,
}

impl Choices {
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
                egui::Button::new((mark, label.into()))
            }
            None => egui::Button::new(label),
        };
        let clicked = ui.add_enabled(legal, button).clicked() || key.is_some_and(|n| self.pressed == Some(n));
        if clicked {
            self.chosen.push(a.clone());
        }
        self.shown.push(a);
        clicked
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

fn game_ui(
    mut contexts: EguiContexts,
    session: Res<Session>,
    mut hand: ResMut<Hand>,
    mut board_area: ResMut<BoardArea>,
    refused: Res<DropRefused>,
    selected: Res<SelectedElement>,
    save_dir: Res<SaveDir>,
    mut actions: MessageWriter<PlayerAction>,
    mut menu: MessageWriter<MenuAction>,
    mut lift: MessageWriter<LiftCurtain>,
    mut undo: MessageWriter<UndoPlacement>,
    mut settings: ResMut<crate::settings::Settings>,
    icons: Res<Icons>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let game = &session.game;
    let pressed = number_key(ctx);
    let mut c = Choices { legal: game.legal_actions(), shown: Vec::new(), chosen: Vec::new(), next_key: None, pressed };
    let mut root = egui::Ui::new(
        ctx.clone(),
        "game_viewport".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    );

    egui::Panel::top("banner").show(&mut root, |ui| {
        ui.horizontal(|ui| {
            if ui.button("☰ Menu").clicked() {
                menu.write(MenuAction::BackToMenu);
            }
            if ui.button("📖 Rules").on_hover_text("Rules reference and glossary (F1); shortcuts (F2 or ?)").clicked()
            {
                menu.write(MenuAction::Rules);
            }
            if ui.button("⚙").on_hover_text("Settings: UI scale").clicked() {
                settings.open = !settings.open;
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
            ui.label(egui::RichText::new(banner_line(&session)).strong().color(ui_style::GOLD));
        });
        if let Some(n) = &session.notice {
            ui.label(egui::RichText::new(n).color(ui_style::NOTICE));
        }
    });

    if let Some(p) = session.curtain() {
        curtain(&mut root, &session, p, &mut lift);
        return Ok(());
    }

    egui::Panel::left("heroes").resizable(true).default_size(300.0).show(&mut root, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| heroes_panel(ui, game, &icons, &mut c));
    });

    egui::Panel::right("party").resizable(true).default_size(330.0).show(&mut root, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            party_panel(ui, &session, &mut hand, &refused, &selected, &icons, &mut c, &mut undo);
            ui.separator();
            egui::CollapsingHeader::new("Log").default_open(true).show(ui, |ui| {
                egui::ScrollArea::vertical().id_salt("log").max_height(260.0).stick_to_bottom(true).show(ui, |ui| {
                    for line in session.log.iter().rev().take(300).rev() {
                        ui.label(egui::RichText::new(line).size(13.0));
                    }
                });
            });
            ui.label(
                egui::RichText::new(format!("Saves to {}", save_path(&save_dir, &session).display()))
                    .size(11.0)
                    .color(ui_style::MUTED),
            );
        });
    });

    egui::Panel::bottom("help").show(&mut root, |ui| {
        ui.label(
            egui::RichText::new(
                "F1: rules · F2 / ?: shortcuts · D: draw a tile · drag it from the tray (or click a gold cell, then click it again) · R / right-click: turn · arrows + Enter: place · drag: pan · wheel: zoom · F: fit · Ctrl+Z: undo placement · Ctrl+S: save",
            )
            .size(12.0)
            .color(ui_style::MUTED),
        );
    });

    // egui points → window (logical) pixels: the UI scale zooms egui.
    let free = root.available_rect_before_wrap();
    // The Combat window leaves the strip of cards on the table visible.
    let combat_height = (free.height() - 60.0 - 210.0 / ctx.zoom_factor()).max(260.0);
    let z = ctx.zoom_factor();
    let free = Rect::new(free.min.x * z, free.min.y * z, free.max.x * z, free.max.y * z);
    if board_area.0 != Some(free) {
        board_area.0 = Some(free);
    }

    if game.is_over() {
        game_over_window(ctx, game, &mut menu);
    } else if let Some(combat) = game.combat().filter(|_| game.phase == Phase::Combat) {
        combat_window(ctx, &session, combat, &icons, &mut c, combat_height);
    } else if let Some(p) = game.pending() {
        pending_window(ctx, game, p, &mut c);
    } else if first_steps(game) {
        first_steps_window(ctx);
    }

    // Anything legal that no widget above offered.
    let rest: Vec<Action> = c
        .legal
        .iter()
        .filter(|a| !c.shown.contains(a) && !matches!(a, Action::PlaceTile { .. } | Action::PlaceSetAsideTile { .. }))
        .cloned()
        .collect();
    if !rest.is_empty() && !game.is_over() {
        egui::Window::new("Other choices")
            .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -40.0])
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

    for a in c.chosen {
        actions.write(PlayerAction(a));
    }
    Ok(())
}

/// A new delve that has not drawn its first tile yet (once a tile is in
/// hand the tray says what to do, and the board needs all its room).
fn first_steps(game: &Game) -> bool {
    game.phase == Phase::Exploring
        && game.adventure().is_some_and(|a| {
            a.ecology.map.tiles().len() == 1 && a.ecology.drawn.is_none() && a.record.ecologies_cleared.is_empty()
        })
}

/// How to begin, on the table until the first tile is laid.
fn first_steps_window(ctx: &egui::Context) {
    egui::Window::new("How to play")
        .id(egui::Id::new("first_steps"))
        .anchor(egui::Align2::CENTER_BOTTOM, [-15.0, -50.0])
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

/// What an XP card or an Item is worth when paying.
fn xp_of(game: &Game, card: &XpRef) -> u16 {
    let xp = match card {
        XpRef::Pool(i) => game.adventure().and_then(|a| a.xp_pool.get(usize::from(*i))).map(|c| c.xp),
        XpRef::Item { hero, item } => {
            game.heroes.get(usize::from(*hero)).and_then(|h| h.items.get(usize::from(*item))).map(|i| i.card.xp)
        }
    };
    xp.map_or(0, u16::from)
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
pub fn banner_line(session: &Session) -> String {
    let game = &session.game;
    let solo = session.players.count() < 2 && session.players.names.first().is_none_or(|n| n == "Player 1");
    if game.is_over() || solo {
        return banner(game);
    }
    format!("▶ {} — {}", session.acting_text(), banner(game))
}

/// The "pass to …" screen: hides the table until `player` comes to it.
fn curtain(root: &mut egui::Ui, session: &Session, player: usize, lift: &mut MessageWriter<LiftCurtain>) {
    let name = session.players.name(player);
    egui::CentralPanel::default().frame(egui::Frame::new().fill(egui::Color32::from_rgb(0x14, 0x10, 0x0c))).show(
        root,
        |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(ui.available_height() * 0.3);
                ui.label(ui_style::title(&format!("Pass to {name}"), 48.0));
                ui.add_space(8.0);
                let heroes: Vec<&str> = session
                    .game
                    .heroes
                    .iter()
                    .enumerate()
                    .filter(|(h, _)| session.players.owner(*h as u8) == player)
                    .map(|(_, h)| h.name())
                    .collect();
                ui.label(
                    egui::RichText::new(format!("{name} plays {}. The other players look away.", heroes.join(" and ")))
                        .color(ui_style::MUTED),
                );
                ui.add_space(6.0);
                ui.label(egui::RichText::new(banner(&session.game)).color(ui_style::GOLD));
                ui.add_space(16.0);
                let enter = ui.input(|i| i.key_pressed(egui::Key::Enter));
                if ui.add(ui_style::menu_button(&format!("I am {name}"))).on_hover_text("or press Enter").clicked()
                    || enter
                {
                    lift.write(LiftCurtain);
                }
            });
        },
    );
}

/// Who must act now, in words.
pub fn banner(game: &Game) -> String {
    let name = |h: u8| game.heroes.get(usize::from(h)).map_or("?", |h| h.name());
    match &game.phase {
        Phase::Won => return "The Heroes have won!".into(),
        Phase::Lost(r) => return format!("The Heroes have lost: {}.", loss_text(game, r)),
        _ => {}
    }
    if let Some(c) = game.combat().filter(|_| game.phase == Phase::Combat) {
        return match (c.step, c.acting_hero()) {
            (CombatStep::AssignMonsters, _) => "Combat: the players assign the Monsters to Heroes".into(),
            (CombatStep::AvoidReturnDamage, _) => "Combat: choose who avoids Return Damage".into(),
            (CombatStep::PlayCards, Some(h)) => format!("Combat, round {}: {} plays a card", c.round, name(h)),
            (CombatStep::PlaceMonsterCard, Some(h)) => format!("Combat: {} places the Monster's card", name(h)),
            (CombatStep::Resolve, Some(h)) => format!("Combat, round {}: {} resolves a pair", c.round, name(h)),
            (CombatStep::AssignDamage, Some(h)) => format!("Combat: {} chooses whom to damage", name(h)),
            _ => "Combat".into(),
        };
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
        Some(Pending::RemoveCards { hero, count }) => format!("{}: remove {count} Action Card(s)", name(*hero)),
        Some(Pending::ChooseAbility { hero, .. }) => format!("{}: keep one Ability", name(*hero)),
        Some(Pending::ChooseAbilityDraw { hero }) => {
            format!("{}: draw one Ability from each class, or two from the Primary class", name(*hero))
        }
        Some(Pending::OrderFeatures { .. }) => "Choose the order of the revealed Features".into(),
        Some(Pending::LevelUp { .. }) => "Level Up: buy Abilities, then go on".into(),
        None => {
            let drawn = game.adventure().is_some_and(|a| a.ecology.drawn.is_some());
            if drawn {
                "Exploring: place the drawn tile".into()
            } else {
                "Exploring: draw a tile, or Encounter something".into()
            }
        }
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
fn health_bar(ui: &mut egui::Ui, id: impl std::hash::Hash + std::fmt::Debug, health: u8, max: u8, width: f32) {
    let f = if max == 0 { 0.0 } else { f32::from(health) / f32::from(max) };
    let shown = ui.ctx().animate_value_with_time(egui::Id::new(("health", id)), f, 0.35);
    let color = if f > 0.5 {
        GOOD
    } else if f > 0.25 {
        ui_style::NOTICE
    } else {
        BAD
    };
    ui.add(
        egui::ProgressBar::new(shown)
            .desired_width(width)
            .fill(color.gamma_multiply(0.7))
            .text(format!("{health} / {max}")),
    );
}

fn heroes_panel(ui: &mut egui::Ui, game: &Game, icons: &Icons, c: &mut Choices) {
    ui.label(ui_style::title("Heroes", 24.0));
    for (h, hero) in game.heroes.iter().enumerate() {
        let h = h as u8;
        ui_style::bar_frame().show(ui, |ui| {
            ui.set_width(ui.available_width());
            let class = match hero.mat.secondary_class {
                Some(s) => format!("{} / {}", hero.mat.class.name(), s.name()),
                None => hero.mat.class.name().to_string(),
            };
            ui.horizontal(|ui| {
                icons.show(ui, "classes", &hero.mat.class.name().to_lowercase(), 24.0, ui_style::GOLD);
                ui.label(ui_style::title(hero.name(), 22.0));
                ui.label(egui::RichText::new(format!("{class} · level {}", hero.level)).color(ui_style::MUTED));
            });
            health_bar(ui, ("hero", h), hero.health, hero.max_health(), ui.available_width());
            ui.label(format!(
                "Power stored: {} · hand {} · draw {} · discard {}",
                hero.stored_power.len(),
                hero.hand.len(),
                hero.draw.len(),
                hero.discard.len()
            ));
            if !hero.hand.is_empty() {
                let cards: Vec<String> =
                    hero.hand.iter().map(|c| if c.power { "P".into() } else { c.value.to_string() }).collect();
                ui.label(format!("Hand: {}", cards.join(" ")));
            }
            if !hero.discard.is_empty() {
                // The discard pile is open information: its cards, newest first.
                egui::CollapsingHeader::new(format!("Discard pile ({})", hero.discard.len()))
                    .id_salt(("discard", h))
                    .default_open(false)
                    .show(ui, |ui| {
                        let cards: Vec<String> = hero
                            .discard
                            .iter()
                            .rev()
                            .map(|c| if c.power { "P".into() } else { c.value.to_string() })
                            .collect();
                        ui.label(egui::RichText::new(cards.join(" ")).size(13.0));
                    });
            }
            egui::CollapsingHeader::new("Abilities").id_salt(("abilities", h)).default_open(false).show(ui, |ui| {
                for (source, ability) in hero.abilities() {
                    let exhausted = hero.is_exhausted(source);
                    let head = format!(
                        "{}{}",
                        activation_text(ability.activation),
                        if exhausted { " · exhausted" } else { "" }
                    );
                    ui.label(egui::RichText::new(head).size(12.0).color(ui_style::GOLD));
                    ui.label(egui::RichText::new(ability.text()).size(13.0));
                }
            });
            if !hero.items.is_empty() {
                ui.label(egui::RichText::new("Items").strong());
                for (i, item) in hero.items.iter().enumerate() {
                    ui.horizontal_wrapped(|ui| {
                        let hands = "✋".repeat(usize::from(item.card.hands));
                        let mut text = format!("{hands} {}", item.card.name);
                        if item.card.magic {
                            text.push_str(" (Magic)");
                        }
                        if item.card.armor > 0 {
                            text.push_str(&format!(" Armor {}", item.card.armor));
                        }
                        if let Some(u) = item.uses_left {
                            text.push_str(&format!(" · {u} uses"));
                        }
                        text.push_str(&format!(" · {} XP", item.card.xp));
                        ui.label(if item.equipped {
                            egui::RichText::new(text).strong()
                        } else {
                            egui::RichText::new(text).color(ui_style::MUTED)
                        });
                        let (a, label) = if item.equipped {
                            (Action::Unequip { hero: h, item: i as u8 }, "Unequip")
                        } else {
                            (Action::Equip { hero: h, item: i as u8 }, "Equip")
                        };
                        c.button(ui, a, label);
                    });
                    for ab in &item.card.abilities {
                        ui.label(egui::RichText::new(format!("   {}", ab.text())).size(12.0).color(ui_style::MUTED));
                    }
                }
            }
            // Abilities usable while Exploring (unlocking Doors, healing…).
            if game.phase == Phase::Exploring {
                c.all(ui, game, |a| matches!(a, Action::ActivateAbility { hero, .. } if *hero == h));
            }
        });
        ui.add_space(6.0);
    }
}

/// What Encountering an element does, in a line or two.
fn element_help(e: Element) -> &'static str {
    match e {
        Element::Monster { count: 1 } => {
            "Draw a Monster card and fight it. When it is Defeated it gets a red X and its XP joins the pool."
        }
        Element::Monster { .. } => {
            "Draw two Monster cards and fight them together. When Defeated they get a red X and their XP joins the pool."
        }
        Element::Feature => {
            "Draw a Feature card and resolve it (a test, a reward, a trap…). Blocks the way until Encountered."
        }
        Element::Door => {
            "Spend a Key (or an unlocking ability) to open it; it then gets a Key token. Blocks the way until then."
        }
        Element::Chest => "One Hero draws an Item. Any Monsters in its area must be Encountered first.",
        Element::Campfire => "Rest: the Heroes heal as the Reference Card says; Defeated Monsters return to the map.",
        Element::StairGuardian => "Fight the Stair Guardian; win to Level Up and go down to the next Ecology.",
    }
}

fn party_panel(
    ui: &mut egui::Ui,
    session: &Session,
    hand: &mut Hand,
    refused: &DropRefused,
    selected: &SelectedElement,
    icons: &Icons,
    c: &mut Choices,
    undo: &mut MessageWriter<UndoPlacement>,
) {
    let game = &session.game;
    let Some(adv) = game.adventure() else { return };
    let eco = &adv.ecology;

    // The tile tray.
    ui.label(ui_style::title("Map tiles", 22.0));
    ui.horizontal(|ui| {
        c.button(ui, Action::DrawTile, "Draw tile (D)");
        ui.label(egui::RichText::new(format!("{} left in the pile", eco.pile.len())).color(ui_style::MUTED));
    });
    dead_end_gauge(ui, session);
    if let Some(point) = &session.undo {
        let b = ui
            .button(format!("⟲ Undo placing {} (Ctrl+Z)", point.tile))
            .on_hover_text("Client-side undo: the game is restored from a save taken just before the tile was placed. Possible until the next action.");
        if b.clicked() {
            undo.write(UndoPlacement);
        }
    }
    if let Some((tile, set_aside)) = session.tile_in_hand() {
        let (rect, response) =
            ui.allocate_exact_size(egui::vec2(ui.available_width(), 120.0), egui::Sense::click_and_drag());
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 6.0, egui::Color32::from_rgb(0x3a, 0x2e, 0x22));
        painter.rect_stroke(rect, 6.0, egui::Stroke::new(2.0, ui_style::GOLD), egui::StrokeKind::Inside);
        let square = egui::Rect::from_min_size(rect.min + egui::vec2(10.0, 10.0), egui::vec2(100.0, 100.0));
        if hand.cell.is_none() {
            let turned = crate::board_view::Tile::from_printed(
                tile,
                depths_rules::map::Placement { cell: (0, 0), rotation: hand.rotation },
            );
            paint_tile(&painter, square, &turned);
        } else {
            painter.rect_stroke(square, 4.0, egui::Stroke::new(1.5, ui_style::MUTED), egui::StrokeKind::Inside);
        }
        let state = if hand.cell.is_some() { "on the board" } else { "in the tray" };
        painter.text(
            egui::pos2(square.right() + 12.0, rect.center().y),
            egui::Align2::LEFT_CENTER,
            format!(
                "{}{}\nturned {}°, {state}\n\ndrag it onto a gold cell",
                tile.id,
                if set_aside { " (set aside)" } else { "" },
                u32::from(hand.rotation.quarter_turns()) * 90
            ),
            egui::FontId::proportional(14.0),
            ui_style::GOLD,
        );
        if response.drag_started() {
            hand.dragging = true;
        }
        if response.hovered() {
            ui.ctx().set_cursor_icon(egui::CursorIcon::Grab);
        }
        ui.horizontal(|ui| {
            if ui.button("⟲").on_hover_text("Turn back (Shift+R)").clicked() {
                crate::explore::rotate(hand, 3);
            }
            if ui.button("⟳ Turn (R)").clicked() {
                crate::explore::rotate(hand, 1);
            }
            let fits = session.legal_placements();
            let now = fits.iter().filter(|p| p.rotation == hand.rotation).count();
            ui.label(
                egui::RichText::new(format!("{now} places fit this turn, {} in all", fits.len()))
                    .color(ui_style::MUTED),
            );
        });
        if let Some(r) = &refused.0 {
            ui.label(egui::RichText::new(format!("Not there: {r}")).color(ui_style::NOTICE));
        }
    }
    ui.separator();

    // The selected element.
    if let Some(e) = selected.0
        && let Some((element, state)) = eco.map.element(e)
    {
        ui.label(ui_style::title(element.name(), 20.0));
        ui.label(element_help(element));
        ui.label(
            egui::RichText::new(match state {
                ElementState::Present => "Not yet Encountered.",
                ElementState::Encountered => "Encountered (gold slash).",
                ElementState::Defeated => "Defeated (red X).",
                ElementState::Unlocked => "Unlocked (Key token).",
            })
            .color(ui_style::MUTED),
        );
        c.button(ui, Action::Encounter { element: e }, "Encounter");
        ui.separator();
    }
    let reachable: Vec<Action> = c.legal.iter().filter(|a| matches!(a, Action::Encounter { .. })).cloned().collect();
    if !reachable.is_empty() {
        ui.label(egui::RichText::new("Within reach").strong());
        for a in reachable {
            let Action::Encounter { element } = a else { continue };
            let name = eco.map.element(element).map_or("?", |(e, _)| e.name());
            c.button(ui, a, format!("Encounter the {name} at {:?}", element.cell));
        }
    }
    let legendary = game.discovered_legendary_locations();
    if !legendary.is_empty() {
        ui.label(egui::RichText::new("Legendary Locations discovered").strong());
        for (i, m) in legendary.iter().enumerate() {
            c.button(
                ui,
                Action::EncounterLegendary { index: i as u8 },
                format!("Encounter Legendary Location {} ({} tiles)", m.pattern, m.cells.len()),
            );
        }
    }
    ui.separator();

    // Keys, XP, buying.
    ui.label(ui_style::title("The party", 22.0));
    ui.horizontal(|ui| {
        icons.show(ui, "ui", "key", 18.0, ui_style::GOLD);
        ui.label(format!("Keys: {}", adv.keys));
    });
    let xp: u16 = adv.xp_pool.iter().map(|c| u16::from(c.xp)).sum();
    ui.horizontal(|ui| {
        icons.show(ui, "ui", "xp", 18.0, ui_style::GOLD);
        ui.label(format!("XP pool: {xp} in {} cards", adv.xp_pool.len()));
    });
    if !adv.xp_pool.is_empty() {
        // The pool as cards: each a small chip with its XP, the name on hover.
        egui::CollapsingHeader::new(format!("XP cards ({})", adv.xp_pool.len()))
            .id_salt("xp_cards")
            .default_open(adv.xp_pool.len() <= 12)
            .show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    ui.spacing_mut().item_spacing = egui::vec2(4.0, 4.0);
                    for card in &adv.xp_pool {
                        egui::Frame::new()
                            .fill(egui::Color32::from_rgb(0x3a, 0x30, 0x1c))
                            .stroke(egui::Stroke::new(1.0, ui_style::GOLD.gamma_multiply(0.6)))
                            .corner_radius(3.0)
                            .inner_margin(egui::Margin::symmetric(4, 1))
                            .show(ui, |ui| {
                                ui.label(egui::RichText::new(card.xp.to_string()).strong().color(ui_style::GOLD));
                            })
                            .response
                            .on_hover_text(&card.name);
                    }
                });
            });
    }
    let r = &eco.reference;
    ui.horizontal_wrapped(|ui| {
        c.button(ui, Action::StartPurchase { what: Purchase::Key }, format!("Buy a Key ({} XP)", r.key_cost));
        c.button(
            ui,
            Action::StartPurchase { what: Purchase::Healing { units: 1 } },
            format!("Buy Healing ({} XP)", r.healing.xp),
        );
    });
    let more: Vec<u8> = c
        .legal
        .iter()
        .filter_map(|a| match a {
            Action::StartPurchase { what: Purchase::Healing { units } } if *units > 1 => Some(*units),
            _ => None,
        })
        .collect();
    if !more.is_empty() {
        ui.horizontal_wrapped(|ui| {
            ui.label("More Healing:");
            for units in more {
                c.button(ui, Action::StartPurchase { what: Purchase::Healing { units } }, format!("×{units}"));
            }
        });
    }
    egui::CollapsingHeader::new("Legend").default_open(false).show(ui, ui_style::legend);
    egui::CollapsingHeader::new("Reference Card").default_open(false).show(ui, |ui| {
        ui.label(format!("Ecology: {}", r.ecology.name()));
        ui.label(format!("Monster XP: {} · Feature XP: {}", r.monster_xp, r.feature_xp));
        ui.label(format!("Legendary Location XP: {}–{}", r.legendary_xp[0], r.legendary_xp[1]));
        ui.label(format!("Healing: {} XP heals {} per Hero", r.healing.xp, r.healing.health));
        ui.label(format!("Key: {} XP · Ability: {} XP", r.key_cost, r.ability_cost));
    });
}

/// How many tiles left in the pile would have no legal place right now.
fn dead_end_gauge(ui: &mut egui::Ui, session: &Session) {
    let (dead, total) = session.dead_ends_in_pile();
    if total == 0 {
        return;
    }
    let f = dead as f32 / total as f32;
    let color = if dead == 0 {
        GOOD
    } else if f < 0.25 {
        ui_style::NOTICE
    } else {
        BAD
    };
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new("Dead ends now").size(13.0));
        ui.add(
            egui::ProgressBar::new(f)
                .desired_width(ui.available_width())
                .fill(color.gamma_multiply(0.7))
                .text(format!("{dead} of {total} tiles")),
        )
        .on_hover_text(
            "Tiles left in the pile that have no legal place on the map as it is now: drawing one loses the game.",
        );
    });
}

/// A small drawing of a tile as it would lie on the table.
fn paint_tile(p: &egui::Painter, r: egui::Rect, tile: &crate::board_view::Tile) {
    use crate::board_view::{Edge as E, Element as El, Side};
    p.rect_filled(r, 2.0, egui::Color32::from_rgb(0x8a, 0x80, 0x72));
    let wall = egui::Color32::from_rgb(0x24, 0x1e, 0x19);
    let t = 9.0;
    for side in Side::ALL {
        let (a, b) = match side {
            Side::North => (r.left_top(), r.right_top()),
            Side::East => (r.right_top(), r.right_bottom()),
            Side::South => (r.right_bottom(), r.left_bottom()),
            Side::West => (r.left_bottom(), r.left_top()),
        };
        let inward = (r.center() - a.lerp(b, 0.5)).normalized() * (t / 2.0);
        let (a, b) = (a + inward, b + inward);
        let line = |p0: egui::Pos2, p1: egui::Pos2, c: egui::Color32| {
            p.line_segment([p0, p1], egui::Stroke::new(t, c));
        };
        match tile.edge(side) {
            E::Wall => line(a, b, wall),
            E::Water => line(a, b, egui::Color32::from_rgb(0x1f, 0x5f, 0x80)),
            e => {
                line(a, a.lerp(b, 0.3), wall);
                line(a.lerp(b, 0.7), b, wall);
                if e != E::Open {
                    let c = if e == E::Upper {
                        egui::Color32::from_rgb(0xbf, 0xb4, 0x9a)
                    } else {
                        egui::Color32::from_rgb(0x15, 0x11, 0x0d)
                    };
                    line(a.lerp(b, 0.3), a.lerp(b, 0.7), c);
                }
            }
        }
    }
    for side in &tile.nodes {
        let d = crate::board::side_dir(*side);
        let at = r.center() + egui::vec2(d.x, -d.y) * (r.width() / 2.0 - t);
        p.circle_filled(at, 5.0, egui::Color32::from_rgb(0x6f, 0xe3, 0xff));
    }
    let scale = r.width() / crate::board::TILE_SIZE;
    for (a, area) in tile.areas.iter().enumerate() {
        let anchor = crate::board::area_anchor(tile, a);
        let n = area.elements.len();
        for (i, (e, _)) in area.elements.iter().enumerate() {
            let off = anchor + crate::board::slot_offset(i, n);
            let at = r.center() + egui::vec2(off.x, -off.y) * scale;
            let (letter, color) = match e {
                El::Monster(_) => ("M", egui::Color32::from_rgb(0xb3, 0x26, 0x1e)),
                El::Feature => ("F", egui::Color32::from_rgb(0x2a, 0x8f, 0x9f)),
                El::Door => ("D", egui::Color32::from_rgb(0x8a, 0x54, 0x28)),
                El::Chest => ("C", egui::Color32::from_rgb(0xd4, 0xa0, 0x17)),
                El::Campfire => ("R", egui::Color32::from_rgb(0xe8, 0x73, 0x1c)),
                El::Stairs => ("S", egui::Color32::from_rgb(0x7d, 0x81, 0x88)),
            };
            p.circle_filled(at, 9.0, egui::Color32::from_rgb(0xd9, 0xc9, 0xa3));
            p.text(at, egui::Align2::CENTER_CENTER, letter, egui::FontId::proportional(12.0), color);
        }
        if area.secret_passage || area.warp_portal || area.level_stair {
            let off = anchor + bevy::math::Vec2::new(0.0, -52.0);
            p.circle_filled(
                r.center() + egui::vec2(off.x, -off.y) * scale,
                5.0,
                egui::Color32::from_rgb(0xa6, 0x78, 0xe0),
            );
        }
    }
}

fn pending_window(ctx: &egui::Context, game: &Game, p: &Pending, c: &mut Choices) {
    egui::Window::new(banner(game))
        .id(egui::Id::new("pending"))
        .anchor(egui::Align2::CENTER_BOTTOM, [-15.0, -50.0])
        .max_width(480.0)
        .collapsible(true)
        .resizable(false)
        .show(ctx, |ui| {
            c.next_key = Some(1);
            ui.set_min_width(380.0);
            egui::ScrollArea::vertical().max_height(400.0).show(ui, |ui| {
                match p {
                    Pending::Purchase { cost, paid, items, .. } => {
                        let so_far: u16 = paid.iter().map(|c| u16::from(c.xp)).sum::<u16>()
                            + items.iter().map(|(_, i)| u16::from(i.xp)).sum::<u16>();
                        ui.label(format!("Paid {so_far} of {cost} XP. Choose cards (or Items) to pay with:"));
                        // "No change is given": say so before a card pays too much.
                        let owed = u16::from(*cost).saturating_sub(so_far);
                        let pays: Vec<Action> =
                            c.legal.iter().filter(|a| matches!(a, Action::PayXp { .. })).cloned().collect();
                        for a in pays {
                            let Action::PayXp { card } = &a else { continue };
                            let mut label = describe_action(game, &a);
                            let over = xp_of(game, card).saturating_sub(owed);
                            if over > 0 {
                                label.push_str(&format!(" — overpays by {over}, no change"));
                            }
                            c.button(ui, a, label);
                        }
                        c.all(ui, game, |a| matches!(a, Action::CancelPurchase));
                    }
                    Pending::ChooseAbility { options, .. } => {
                        for (i, o) in options.iter().enumerate() {
                            ui.label(egui::RichText::new(o.ability.text()).strong());
                            c.button(ui, Action::ChooseOption { index: i as u8 }, format!("Keep {}", o.ability.name));
                            ui.add_space(4.0);
                        }
                    }
                    Pending::ChooseItem { options, .. } => {
                        for (i, o) in options.iter().enumerate() {
                            ui.label(
                                egui::RichText::new(format!("{} {}", "✋".repeat(usize::from(o.hands)), o.name))
                                    .strong(),
                            );
                            for ab in &o.abilities {
                                ui.label(egui::RichText::new(ab.text()).color(ui_style::MUTED));
                            }
                            c.button(ui, Action::ChooseOption { index: i as u8 }, format!("Keep {}", o.name));
                        }
                    }
                    Pending::RemoveCards { hero, count } => {
                        let hero = &game.heroes[usize::from(*hero)];
                        ui.label(format!(
                            "Remove {count} card(s) from {}'s Action Card deck. Click a value:",
                            hero.name()
                        ));
                        let mut cards: Vec<&depths_rules::ActionCard> = hero.draw.iter().collect();
                        cards.sort_by_key(|c| (c.power, c.value));
                        ui.horizontal_wrapped(|ui| {
                            let mut last = None;
                            for card in cards {
                                let key = (card.power, card.value);
                                let a = Action::RemoveActionCard { card: card.id };
                                if last == Some(key) {
                                    // The same value again: one button per value is enough.
                                    c.shown.push(a);
                                    continue;
                                }
                                last = Some(key);
                                let label = if card.power { "Power".to_string() } else { card.value.to_string() };
                                c.button(ui, a, egui::RichText::new(label).size(20.0));
                            }
                        });
                    }
                    Pending::LevelUp { bought } => {
                        let cost = game.adventure().map_or(0, |a| a.ecology.reference.ability_cost);
                        ui.label(format!("Each Hero may buy one Ability for {cost} XP."));
                        for (h, hero) in game.heroes.iter().enumerate() {
                            let done = bought.get(h).copied().unwrap_or(false);
                            ui.horizontal(|ui| {
                                ui.label(hero.name());
                                if done {
                                    ui.label("bought");
                                }
                                c.button(
                                    ui,
                                    Action::StartPurchase { what: Purchase::Ability { hero: h as u8 } },
                                    "Buy an Ability",
                                );
                            });
                        }
                        c.button(ui, Action::FinishLevelUp, "Finish Level Up: on to the next Ecology");
                    }
                    _ => c.all(ui, game, |_| true),
                }
                // Anything else this decision allows.
                let list: Vec<Action> = c.legal.iter().filter(|a| !c.shown.contains(a)).cloned().collect();
                for a in list {
                    let label = describe_action(game, &a);
                    c.button(ui, a, label);
                }
            });
        });
}

fn combat_window(
    ctx: &egui::Context,
    session: &Session,
    combat: &Combat,
    icons: &Icons,
    c: &mut Choices,
    max_height: f32,
) {
    let game = &session.game;
    egui::Window::new(format!("Combat — round {}", combat.round))
        .id(egui::Id::new("combat"))
        .anchor(egui::Align2::CENTER_TOP, [-15.0, 60.0])
        .collapsible(true)
        .resizable(false)
        .vscroll(true)
        .min_width(600.0)
        .max_width(620.0)
        .default_height(max_height)
        .min_height(max_height.min(480.0))
        .max_height(max_height)
        .show(ctx, |ui| {
            c.next_key = Some(1);
            ui.label(egui::RichText::new(banner(game)).color(ui_style::GOLD).strong());
            // The round summary: the last round's totals in one line, its
            // events one by one on hover.
            let summary = &session.rounds;
            if !summary.last.is_empty() {
                ui.label(
                    egui::RichText::new(format!("{} (hover for each step)", summary.headline()))
                        .size(12.0)
                        .color(ui_style::MUTED),
                )
                .on_hover_text(summary.last.join("\n"));
            }
            ui.separator();
            // The Monster cards, side by side.
            let n = combat.foes.len().max(1);
            ui.columns(n, |cols| {
                for (f, foe) in combat.foes.iter().enumerate() {
                    let ui = &mut cols[f];
                    ui_style::bar_frame().show(ui, |ui| {
                        ui.set_width(ui.available_width());
                        ui.horizontal(|ui| {
                            let (group, key) = match &foe.card {
                                FoeCard::Monster(m) => ("monsters", m.id.as_str()),
                                FoeCard::FinalEntity(_) => ("elements", "final_entity"),
                            };
                            let tint = if foe.is_defeated() { ui_style::MUTED } else { FOE_TINT };
                            icons.show(ui, group, key, 40.0, tint);
                            ui.label(ui_style::title(foe.name(), 20.0));
                        });
                        let mut facts = vec![foe.difficulty.name().to_string()];
                        if foe.card_bonus > 0 {
                            facts.push(format!("cards +{}", foe.card_bonus));
                        }
                        if foe.resists_non_magic {
                            facts.push("resists non-Magic".into());
                        }
                        if foe.is_defeated() {
                            facts.push("DEFEATED".into());
                        }
                        ui.label(egui::RichText::new(facts.join(" · ")).color(ui_style::MUTED));
                        for ind in &foe.individuals {
                            ui.horizontal(|ui| {
                                // A Final Entity part shows its own icon.
                                if let (FoeCard::FinalEntity(fe), Some(part)) = (&foe.card, ind.part) {
                                    let id = match part {
                                        EntityPart::HeadI => &fe.head_1.id,
                                        EntityPart::HeadII => &fe.head_2.id,
                                        EntityPart::Body => &fe.body.id,
                                    };
                                    icons.show(ui, "final_entity_parts", id, 18.0, FOE_TINT);
                                }
                                ui.label(egui::RichText::new(&ind.name).size(13.0));
                                health_bar(ui, ("foe", f, &ind.name), ind.health, ind.max_health, 120.0);
                                if ind.armor > 0 {
                                    ui.label(format!("🛡{}", ind.armor));
                                }
                            });
                        }
                        if let FoeCard::FinalEntity(fe) = &foe.card {
                            // Its abilities, part by part, and the Lore read when it was set up.
                            let parts =
                                [(&fe.head_1.name, &fe.head_1.abilities), (&fe.head_2.name, &fe.head_2.abilities)];
                            let parts = parts
                                .into_iter()
                                .chain([(&fe.body.name, &fe.body.abilities), (&fe.tail.name, &fe.tail.abilities)]);
                            for (name, abilities) in parts {
                                for ab in abilities {
                                    ui.label(
                                        egui::RichText::new(format!("{name}: {}", ab.text()))
                                            .size(12.0)
                                            .color(ui_style::MUTED),
                                    );
                                }
                            }
                            if let Some(lore) = game.adventure().and_then(|a| a.final_entity_lore.as_ref()) {
                                egui::CollapsingHeader::new("Lore")
                                    .id_salt("lore")
                                    .default_open(combat.round <= 1)
                                    .show(ui, |ui| {
                                        ui.label(egui::RichText::new(lore).italics().size(13.0));
                                    });
                            }
                        }
                        if let FoeCard::Monster(card) = &foe.card {
                            if !card.health_states.is_empty() {
                                // Transposed (one column per Health State) to stay short.
                                egui::Grid::new(("health_states", f)).striped(true).show(ui, |ui| {
                                    let mark = |alive: u8, t: String| {
                                        if alive == foe.alive_count() {
                                            egui::RichText::new(t).strong().color(ui_style::GOLD)
                                        } else {
                                            egui::RichText::new(t)
                                        }
                                    };
                                    let states = &card.health_states;
                                    ui.label("alive");
                                    for s in states {
                                        ui.label(mark(s.alive, format!("×{}", s.alive)));
                                    }
                                    ui.end_row();
                                    ui.label("Monster cards");
                                    for s in states {
                                        ui.label(mark(s.alive, s.monster_cards.to_string()));
                                    }
                                    ui.end_row();
                                    ui.label("Hero cards");
                                    for s in states {
                                        ui.label(mark(s.alive, s.hero_cards.to_string()));
                                    }
                                    ui.end_row();
                                });
                            }
                            for ab in &card.abilities {
                                ui.label(egui::RichText::new(ab.text()).size(12.0).color(ui_style::MUTED));
                            }
                        }
                    });
                }
            });
            if combat.step == CombatStep::AssignMonsters {
                ui.label("Which Monster card does each Hero fight?");
                c.all(ui, game, |a| matches!(a, Action::AssignMonsters { .. }));
            }
            // What the acting player must do now comes first: the hand while
            // cards are played, the Combat Pairs while they are resolved.
            let playing = c.legal.iter().any(|a| matches!(a, Action::PlayCard { .. }));
            ui.separator();
            if playing {
                hand_section(ui, game, combat, c);
                ui.separator();
                engagements_section(ui, game, combat, c);
            } else {
                engagements_section(ui, game, combat, c);
                ui.separator();
                hand_section(ui, game, combat, c);
            }
            if combat.step == CombatStep::AvoidReturnDamage {
                ui.label("Several Heroes defeated a Monster together: one of them avoids Return Damage.");
                c.all(ui, game, |a| matches!(a, Action::AvoidReturnDamage { .. }));
            }
        });
}

/// Each engagement: the Hero's cards against the Monster's, pair by pair.
fn engagements_section(ui: &mut egui::Ui, game: &Game, combat: &Combat, c: &mut Choices) {
    // Each engagement: the Hero's cards against the Monster's.
    for (e, en) in combat.engagements.iter().enumerate() {
        let hero = &game.heroes[usize::from(en.hero)];
        let foe = &combat.foes[usize::from(en.foe)];
        ui.label(egui::RichText::new(format!("{} against {}", hero.name(), foe.name())).strong());
        ui.horizontal_top(|ui| {
            for (s, slot) in en.slots.iter().enumerate() {
                ui_style::bar_frame().show(ui, |ui| {
                    ui.vertical(|ui| {
                        ui.set_width(170.0);
                        let hv = slot.hero_value().map_or("—".into(), |v| {
                            if slot.hero.is_some_and(|c| c.power) { "Power".into() } else { v.to_string() }
                        });
                        let mv = slot.monster_value(foe.card_bonus).map_or("—".into(), |v| {
                            if slot.monster.is_some_and(|c| c.power) { "Power".into() } else { v.to_string() }
                        });
                        ui.label(format!("{}: {hv}", hero.name()));
                        ui.label(format!("{}: {mv}", foe.name()));
                        if let (Some(o), Some((dealt, taken))) =
                            (slot.outcome(foe.card_bonus), slot.damage(foe.card_bonus))
                        {
                            let color = match o {
                                depths_rules::Outcome::Block => ui_style::GOLD,
                                depths_rules::Outcome::HeroHit => GOOD,
                                depths_rules::Outcome::MonsterHit => BAD,
                            };
                            ui.label(egui::RichText::new(outcome_name(o)).strong().color(color));
                            ui.label(
                                egui::RichText::new(format!("{} deals {dealt}, takes {taken}", hero.name())).size(12.0),
                            );
                            if !may_choose(&en.slots, s, foe.card_bonus) {
                                ui.label(
                                    egui::RichText::new("(a Monster Hit comes first)")
                                        .size(11.0)
                                        .color(ui_style::MUTED),
                                );
                            }
                        }
                        if en.chosen == Some(s as u8) {
                            ui.label(egui::RichText::new("✔ resolved").color(ui_style::GOLD));
                        }
                        c.button(
                            ui,
                            Action::ChoosePair { hero: en.hero, engagement: e as u8, slot: s as u8 },
                            "Resolve this pair",
                        );
                        if en.waiting.is_some() {
                            c.button(
                                ui,
                                Action::PlaceMonsterCard { hero: en.hero, slot: s as u8 },
                                "Put the Monster card here",
                            );
                        }
                    })
                });
            }
            if !en.unpaired.is_empty() {
                let v: Vec<String> =
                    en.unpaired.iter().map(|c| if c.power { "Power".into() } else { c.value.to_string() }).collect();
                ui.label(format!("Unpaired Monster cards: {}", v.join(", ")));
            }
            if let Some(w) = &en.waiting {
                ui.label(format!(
                    "Waiting to be placed: {}",
                    if w.power { "Power".into() } else { w.value.to_string() }
                ));
            }
        });
    }
}

/// The acting Hero's hand, abilities, damage to place and End turn.
fn hand_section(ui: &mut egui::Ui, game: &Game, combat: &Combat, c: &mut Choices) {
    // The acting Hero's hand and abilities.
    if let Some(h) = combat.acting_hero() {
        let hero = &game.heroes[usize::from(h)];
        ui.label(egui::RichText::new(format!("{}'s hand", hero.name())).strong());
        ui.horizontal_wrapped(|ui| {
            for card in &hero.hand {
                let label = if card.power { "Power".to_string() } else { card.value.to_string() };
                c.button(ui, Action::PlayCard { hero: h, card: card.id }, egui::RichText::new(label).size(22.0));
            }
        });
        let abilities: Vec<Action> = c
            .legal
            .iter()
            .filter(|a| matches!(a, Action::ActivateAbility { hero, .. } if *hero == h))
            .cloned()
            .collect();
        if !abilities.is_empty() {
            ui.label(egui::RichText::new("Abilities").strong());
            for a in abilities {
                let Action::ActivateAbility { source, target, .. } = &a else { continue };
                let cost = hero.ability(*source).map_or(String::new(), |ab| activation_text(ab.activation));
                let mut label = describe_action(game, &a);
                if *target != Target::None || !cost.is_empty() {
                    label = format!("{label} [{cost}]");
                }
                let text = hero.ability(*source).map_or(String::new(), |ab| ab.text());
                c.button(ui, a, label);
                ui.label(egui::RichText::new(text).size(12.0).color(ui_style::MUTED));
            }
        }
        if combat.step == CombatStep::AssignDamage
            && let Some(p) = combat.packets.first()
        {
            ui.label(format!("{} damage to place on one of {}:", p.amount, combat.foes[usize::from(p.foe)].name()));
            c.all(ui, game, |a| matches!(a, Action::AssignDamage { .. }));
        }
        c.button(ui, Action::EndTurn { hero: h }, egui::RichText::new("End turn").strong());
    }
}

fn game_over_window(ctx: &egui::Context, game: &Game, menu: &mut MessageWriter<MenuAction>) {
    egui::Window::new("Game over")
        .anchor(egui::Align2::CENTER_CENTER, [-15.0, 0.0])
        .collapsible(true)
        .resizable(false)
        .max_width(560.0)
        .show(ctx, |ui| {
            ui.set_min_width(420.0);
            ui.set_max_width(560.0);
            match &game.phase {
                Phase::Won => {
                    ui.label(ui_style::title("Victory", 44.0));
                    ui.label("The Final Entity is defeated and the Heroes climb back into the light.");
                }
                Phase::Lost(r) => {
                    ui.label(ui_style::title("Defeat", 44.0));
                    ui.label(format!("The Heroes lose: {}.", loss_text(game, r)));
                }
                _ => {}
            }
            if let Some(a) = game.adventure() {
                let rec = &a.record;
                ui.separator();
                ui.label(ui_style::title("Adventure Record", 24.0));
                // Long lists (Legendary Locations) wrap inside the second column.
                egui::Grid::new("record").max_col_width(380.0).show(ui, |ui| {
                    let cleared: Vec<&str> = rec.ecologies_cleared.iter().map(|e| e.name()).collect();
                    ui.label("Ecologies cleared");
                    ui.label(if cleared.is_empty() { "none".into() } else { cleared.join(", ") });
                    ui.end_row();
                    ui.label("Monsters defeated");
                    ui.label(rec.monsters_defeated.to_string());
                    ui.end_row();
                    ui.label("XP earned / spent");
                    ui.label(format!("{} / {}", rec.xp_earned, rec.xp_spent));
                    ui.end_row();
                    ui.label("Tiles placed");
                    ui.label(rec.tiles_placed.to_string());
                    ui.end_row();
                    ui.label("Legendary Locations");
                    ui.label(if rec.legendary_locations_found.is_empty() {
                        "none".into()
                    } else {
                        rec.legendary_locations_found.join(", ")
                    });
                    ui.end_row();
                });
                for hero in &game.heroes {
                    ui.label(format!(
                        "{}: level {}, {} / {} Health, {} Items, {} Abilities",
                        hero.name(),
                        hero.level,
                        hero.health,
                        hero.max_health(),
                        hero.items.len(),
                        hero.abilities.len()
                    ));
                }
            }
            ui.add_space(8.0);
            if ui.add(ui_style::menu_button("Back to the menu")).clicked() {
                menu.write(MenuAction::BackToMenu);
            }
        });
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
            let mut c = Choices { legal, shown: Vec::new(), chosen: Vec::new(), next_key: Some(1), pressed };
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
    fn number_keys_answer_the_numbered_legal_buttons() {
        assert_eq!(press(None), vec![]);
        assert_eq!(press(Some(egui::Key::Num1)), vec![Action::DrawTile]);
        // The refused button gets no number: 2 is the next legal one.
        assert_eq!(press(Some(egui::Key::Num2)), vec![Action::FinishLevelUp]);
        assert_eq!(press(Some(egui::Key::Num3)), vec![]);
    }
}
