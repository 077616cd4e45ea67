//! What every panel shares: the view of the game on the table, the legal
//! buttons with their number keys ([`Choices`]), the banner's words, the
//! health bar and the hover box; and the imports the panels all use.

pub(super) use bevy::{ecs::system::SystemParam, prelude::*};
pub(super) use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
pub(super) use depths_rules::{
    Action, Activation, CombatStep, Ecology, Game, Pending, Phase, Purchase, XpRef, adventure::HeroChoice,
    combat::Combat,
};

pub(super) use crate::{
    game::focus::{BoardArea, SelectedElement, TileInHand},
    game::game_log::GameLog,
    game::hotseat::banner_line,
    game::hotseat::{HandOver, LiftCurtain, PassTable, SetCurtain},
    game::saves::{SaveDir, save_path},
    game::session::{Delve, DropRefused, PutBack, SaveSlot, Seats, TakeBack, Undo},
    game::words::banner,
    game::words::{describe_action, loss_text, passage_text},
    game::{flow::MenuAction, screen::Screen},
    theme::icons::Icons,
    theme::style,
};

pub(super) use crate::theme::style::{bad, good};

/// What the panels show of the game on the table: all of it but the change
/// feed (the game, the seats, the log, the moves that can be taken back, the save slot).
#[derive(SystemParam)]
pub struct GameView<'w> {
    pub delve: Res<'w, Delve>,
    pub seats: Res<'w, Seats>,
    pub log: Res<'w, GameLog>,
    pub undo: Res<'w, Undo>,
    pub slot: Res<'w, SaveSlot>,
}

/// What the panels' systems of one frame hand each other, in order: the
/// legal moves, which were shown and chosen, the number keys, whether the
/// "Pass to …" curtain is up, and the room left for the next panel (egui
/// points). The frame system fills it; the stage systems add to it; the
/// finish system makes the chosen moves.
#[derive(Resource, Default, Debug)]
pub(super) struct PanelPass {
    pub(super) legal: Vec<Action>,
    pub(super) shown: Vec<Action>,
    pub(super) chosen: Vec<Action>,
    pub(super) keyed: Option<(u8, Action)>,
    pub(super) next_key: Option<u8>,
    pub(super) pressed: Option<u8>,
    /// The curtain is up: nothing but it is drawn, nothing is chosen.
    pub(super) curtain: bool,
    /// The numbers the cards on the table took (in Combat).
    pub(super) on_table: Vec<(u8, Action)>,
    /// What the side panels, the help line and the Combat strip left free.
    pub(super) room: Option<egui::Rect>,
    /// Seats the Hero mats asked to hand to a Companion (`true`) or back.
    pub(super) seats_asked: Vec<(u8, bool)>,
    /// The controls drawn so far this frame.
    pub(super) controls: Vec<Control>,
    /// The greyed buttons drawn so far this frame.
    pub(super) greyed: Vec<Greyed>,
    /// The banner and the side panels drawn this frame.
    pub(super) banner: Option<egui::Rect>,
    pub(super) panels: Vec<(String, egui::Rect)>,
    /// The hinted move, while the hint is for the table as it is.
    pub(super) hinted: Option<Action>,
}

/// A control the panels drew this frame: what it does, where it is (egui
/// points) and the layer it lies on.
#[derive(Clone, Debug, PartialEq)]
pub struct Control {
    pub what: String,
    pub rect: egui::Rect,
    /// The part of it inside its panel's clip (a scrolled list hides some).
    pub visible: egui::Rect,
    pub layer: egui::LayerId,
}

/// A button drawn greyed: the move it would make and the reason its hover
/// gives (none: a refusal the player is left to guess).
#[derive(Clone, Debug, PartialEq)]
pub struct Greyed {
    pub action: Action,
    pub why: Option<String>,
}

impl Control {
    pub(super) fn of(response: &egui::Response, what: impl Into<String>) -> Control {
        Control { what: what.into(), rect: response.rect, visible: response.interact_rect, layer: response.layer_id }
    }
}

/// What the panels drew in the last frame, for the table-health check
/// (`dev/health.rs`): the banner, the side panels, the room left for the
/// board or the cards (egui points), the controls a click acts on, and
/// whether the "Pass to …" curtain was up.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct PanelProbe {
    pub banner: Option<egui::Rect>,
    pub panels: Vec<(String, egui::Rect)>,
    pub room: Option<egui::Rect>,
    pub controls: Vec<Control>,
    pub greyed: Vec<Greyed>,
    pub curtain: bool,
}

/// Buttons for legal actions; remembers which were shown and what was clicked.
pub(super) struct Choices<'a> {
    /// To say why a greyed-out button is refused, in the rules' words.
    pub(super) seated: Option<(&'a Delve, &'a Seats)>,
    pub(super) legal: Vec<Action>,
    pub(super) shown: Vec<Action>,
    pub(super) chosen: Vec<Action>,
    /// The move a number key chose this frame, with its key: made only if
    /// the key guard lets it (`crate::game::confirm::KeyGuard`).
    pub(super) keyed: Option<(u8, Action)>,
    /// In a decision or Combat window the legal buttons are numbered, so
    /// number keys answer them: the next number to hand out.
    pub(super) next_key: Option<u8>,
    /// The number key (1–9) pressed this frame.
    pub(super) pressed: Option<u8>,
    /// Seats the Hero mats asked to hand to a Companion (`true`) or back.
    pub(super) seats_asked: Vec<(u8, bool)>,
    /// The controls drawn so far this frame, for the [`PanelProbe`].
    pub(super) controls: Vec<Control>,
    /// The greyed buttons drawn so far this frame, for the [`PanelProbe`].
    pub(super) greyed: Vec<Greyed>,
    /// The hinted move: its button is outlined as its card on the table is.
    pub(super) hinted: Option<Action>,
}

impl<'a> Choices<'a> {
    /// The first of a pass's systems: the `legal` moves, the number key
    /// `pressed` this frame, and the table they are taken at (`seated`; none
    /// in a test without one).
    pub(super) fn new(seated: Option<(&'a Delve, &'a Seats)>, legal: Vec<Action>, pressed: Option<u8>) -> Self {
        Choices {
            seated,
            legal,
            shown: Vec::new(),
            chosen: Vec::new(),
            keyed: None,
            next_key: None,
            pressed,
            seats_asked: Vec::new(),
            controls: Vec::new(),
            greyed: Vec::new(),
            hinted: None,
        }
    }

    /// Carries on where the pass's systems before this one left off.
    pub(super) fn resume(pass: &mut PanelPass, seated: Option<(&'a Delve, &'a Seats)>) -> Self {
        Choices {
            seated,
            legal: std::mem::take(&mut pass.legal),
            shown: std::mem::take(&mut pass.shown),
            chosen: std::mem::take(&mut pass.chosen),
            keyed: pass.keyed.take(),
            next_key: pass.next_key,
            pressed: pass.pressed,
            seats_asked: std::mem::take(&mut pass.seats_asked),
            controls: std::mem::take(&mut pass.controls),
            greyed: std::mem::take(&mut pass.greyed),
            hinted: pass.hinted.clone(),
        }
    }

    /// "Every greyed-out button says why": a replay only looks, else the
    /// rules' own refusal or whose turn it is. `None` where no table is known.
    pub(super) fn why_refused(&self, a: &Action) -> Option<String> {
        self.seated.map(|(delve, seats)| crate::table::pointer::refusal_at_table(delve, seats, a))
    }

    /// A greyed button for `a`: its hover says why, and the probe notes it.
    fn refused(&mut self, response: egui::Response, a: &Action) -> egui::Response {
        let why = self.why_refused(a);
        let response = match &why {
            Some(why) => response.on_disabled_hover_text(why),
            None => response,
        };
        self.greyed.push(Greyed { action: a.clone(), why });
        response
    }

    /// Hands what this system added on to the next.
    pub(super) fn suspend(self, pass: &mut PanelPass) {
        pass.legal = self.legal;
        pass.shown = self.shown;
        pass.chosen = self.chosen;
        pass.keyed = self.keyed;
        pass.next_key = self.next_key;
        pass.pressed = self.pressed;
        pass.seats_asked = self.seats_asked;
        pass.controls = self.controls;
        pass.greyed = self.greyed;
        pass.hinted = self.hinted;
    }

    /// `a` clicked, or answered by number key `keyed` (which the key guard
    /// weighs before the move is made).
    fn choose(&mut self, a: &Action, clicked: bool, keyed: Option<u8>) {
        if clicked {
            self.chosen.push(a.clone());
        } else if let Some(n) = keyed {
            self.keyed = Some((n, a.clone()));
        }
    }

    /// Keeps a number for a line that offers no move now (a card already
    /// paid), so the lines after it keep theirs.
    pub(super) fn skip_number(&mut self) {
        self.next_key = self.next_key.map(|n| n + 1);
    }

    /// The legal moves no widget so far and no card on the table offers
    /// (`offered`: the table's; a row on a Monster card takes one Hero's
    /// damage, then the other's, so the second Hero's counts as offered).
    pub(super) fn unoffered(&self, game: &Game, offered: &[Action]) -> Vec<Action> {
        let in_combat = matches!(game.phase(), Phase::Combat { .. });
        let on_table = |a: &Action| in_combat && offered.iter().any(|o| crate::table::faces::same_place(o, a));
        self.legal
            .iter()
            .filter(|a| !self.shown.contains(a) && !on_table(a))
            .filter(|a| !matches!(a, Action::PlaceTile { .. } | Action::PlaceSetAsideTile { .. }))
            .cloned()
            .collect()
    }

    pub(super) fn is_legal(&self, a: &Action) -> bool {
        self.legal.contains(a)
    }

    /// A button for `a`, enabled only when it is legal.
    /// A button for `label`, with the next number key when it is enabled.
    fn numbered<'b>(&mut self, enabled: bool, label: impl Into<egui::WidgetText>) -> (Option<u8>, egui::Button<'b>) {
        let key = self.next_key.filter(|n| enabled && *n <= 9);
        let button = match key {
            Some(n) => {
                self.next_key = Some(n + 1);
                let mark = egui::RichText::new(format!("[{n}]")).size(style::type_scale::FINE).color(style::MUTED);
                // The label, not the tag, takes the squeeze: "[1]" stays whole
                // and beside the words it answers.
                egui::Button::new((mark, egui::AtomExt::atom_shrink(label.into(), true)))
            }
            None => egui::Button::new(label),
        };
        (key, button)
    }

    pub(super) fn button(&mut self, ui: &mut egui::Ui, a: Action, label: impl Into<egui::WidgetText>) -> bool {
        self.button_hover(ui, a, label, None).0
    }

    /// [`Choices::button`] with words for its hover box; also says whether
    /// the pointer is on it.
    pub(super) fn button_hover(
        &mut self,
        ui: &mut egui::Ui,
        a: Action,
        label: impl Into<egui::WidgetText>,
        hover: Option<String>,
    ) -> (bool, bool) {
        let legal = self.is_legal(&a);
        let (key, mut button) = self.numbered(legal, label);
        // The hinted move in the hint's white (a hinted Monster card to
        // fight was not marked at all).
        if legal && self.hinted.as_ref() == Some(&a) {
            button = button.stroke(egui::Stroke::new(2.0, crate::theme::palette::HINT.egui()));
        }
        let mut response = ui.add_enabled(legal, button);
        if !legal {
            response = self.refused(response, &a);
        }
        let on = response.contains_pointer();
        if let Some(hover) = hover.filter(|_| legal) {
            response = response.on_hover_text(hover);
        }
        let keyed = key.filter(|n| self.pressed == Some(*n));
        let clicked = response.clicked() || keyed.is_some();
        if legal {
            self.controls.push(Control::of(&response, format!("{a:?}")));
        }
        self.choose(&a, response.clicked(), keyed);
        self.shown.push(a);
        (clicked, on)
    }

    /// A numbered button for a step of a choice that is not yet a move (the
    /// first of the Features to order): whether it was clicked or keyed.
    pub(super) fn step_button(&mut self, ui: &mut egui::Ui, label: &str, hover: &str) -> bool {
        let (key, button) = self.numbered(true, label);
        let response = ui.add(button).on_hover_text(hover);
        self.controls.push(Control::of(&response, label));
        response.clicked() || key.is_some_and(|n| self.pressed == Some(n))
    }

    /// One button for several moves made together, each legal now (every
    /// Hero's End turn), numbered like any other.
    pub(super) fn button_all(&mut self, ui: &mut egui::Ui, all: Vec<Action>, label: egui::RichText, hover: &str) {
        let (key, button) = self.numbered(true, label);
        let response = ui.add(button).on_hover_text(hover);
        self.controls.push(Control::of(&response, hover));
        if response.clicked() || key.is_some_and(|n| self.pressed == Some(n)) {
            self.chosen.extend(all.iter().cloned());
        }
        self.shown.extend(all);
    }

    /// One button for several moves made together that never takes a number
    /// key (a number means a card, pair or choice; a number that became
    /// "End turn" once its pair was chosen ended turns by a second press):
    /// `pressed` is its own key, said in the label.
    pub(super) fn button_keyed(
        &mut self,
        ui: &mut egui::Ui,
        all: Vec<Action>,
        key: Option<(&str, bool)>,
        label: egui::RichText,
        hover: &str,
    ) {
        let button = match key {
            Some((key, _)) => {
                let mark = egui::RichText::new(format!("[{key}]")).size(style::type_scale::FINE).color(style::MUTED);
                egui::Button::new((mark, egui::AtomExt::atom_shrink(egui::WidgetText::from(label), true)))
            }
            None => egui::Button::new(label),
        };
        let pressed = key.is_some_and(|(_, pressed)| pressed);
        let response = ui.add(button).on_hover_text(hover);
        self.controls.push(Control::of(&response, hover));
        if response.clicked() || pressed {
            self.chosen.extend(all.iter().cloned());
        }
        self.shown.extend(all);
    }

    /// [`Self::button`] with words on hover (when it is enabled).
    pub(super) fn button_with_hover(
        &mut self,
        ui: &mut egui::Ui,
        a: Action,
        label: impl Into<egui::WidgetText>,
        hover: &str,
    ) {
        let legal = self.is_legal(&a);
        let key = self.next_key.filter(|n| legal && *n <= 9);
        if key.is_some() {
            self.next_key = key.map(|n| n + 1);
        }
        let mut response = ui.add_enabled(legal, egui::Button::new(label)).on_hover_text(hover);
        if legal {
            self.controls.push(Control::of(&response, hover));
        } else {
            // Greyed, its hover is the refusal (egui shows no other).
            response = self.refused(response, &a);
        }
        self.choose(&a, response.clicked(), key.filter(|n| self.pressed == Some(*n)));
        self.shown.push(a);
    }

    /// Buttons for every legal action matching `f`, labelled in words.
    pub(super) fn all(&mut self, ui: &mut egui::Ui, game: &Game, f: impl Fn(&Action) -> bool) {
        let list: Vec<Action> = self.legal.iter().filter(|a| f(a)).cloned().collect();
        for a in list {
            let label = describe_action(game, &a);
            self.button(ui, a, label);
        }
    }
}

/// Whether a Combat Round is being played (its Damage to come is news).
pub(super) fn round_in_progress(game: &Game) -> bool {
    matches!(game.phase(), Phase::Combat { step } if step != CombatStep::AssignMonsters)
        && game.combat().is_some_and(|c| c.round > 0)
}

/// The Hero mats folded: each Hero's icon, Health, the Health the Round's
/// end takes (kept as the open mats keep it: at 150 % the mats fold and it
/// was gone) and a mark when an Ability may be used now. Returns whether
/// the player asked to open the mats.
pub(super) fn heroes_strip(ui: &mut egui::Ui, game: &Game, icons: &Icons, c: &Choices) -> bool {
    let mut open = ui.button("▶").on_hover_text("Open the Hero mats").clicked();
    for (h, hero) in game.heroes.iter().enumerate() {
        ui.separator();
        let usable =
            c.legal.iter().any(|a| matches!(a, Action::ActivateAbility { hero, .. } if usize::from(*hero) == h));
        // What the Round's end takes, as the pairs read it (only while a Round is played).
        let (least, due) = if round_in_progress(game) { game.hero_damage_range(h as u8) } else { (0, 0) };
        let response = ui
            .vertical_centered(|ui| {
                // The whole box opens the mats: a label that could be
                // selected took the click ("⚡ Ability" did nothing).
                ui.style_mut().interaction.selectable_labels = false;
                icons.show(ui, "classes", &hero.mat.class.name().to_lowercase(), 24.0, style::GOLD);
                ui.label(egui::RichText::new(hero.name()).size(style::type_scale::SMALL));
                let color = if hero.health * 4 <= hero.max_health() { bad() } else { good() };
                ui.label(
                    egui::RichText::new(format!("{}/{}", hero.health, hero.max_health()))
                        .size(style::type_scale::SMALL)
                        .color(color),
                );
                if round_in_progress(game) {
                    // As the pairs read it: "−3?" where it may be avoided.
                    let text = if due > 0 { crate::game::words::loss_figure((least, due)) } else { String::new() };
                    ui.label(egui::RichText::new(text).size(style::type_scale::SMALL).color(bad()));
                }
                // Named, and its line kept through a Combat: an unlabelled
                // ⚡ came and went, moving the Heroes under it.
                if usable || game.combat().is_some() {
                    let mark = if usable { "⚡ Ability" } else { " " };
                    ui.label(egui::RichText::new(mark).size(style::type_scale::SMALL).color(style::GOLD))
                        .on_hover_text("An Ability can be used now: open the Hero mats (▶) to use it");
                }
            })
            .response;
        let text = format!(
            "{}: {} / {} Health{}{}",
            hero.name(),
            hero.health,
            hero.max_health(),
            match crate::game::words::health_line(0, due, due - least) {
                Some(line) => format!(" · {line}, as the pairs stand"),
                None => String::new(),
            },
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
pub(super) fn party_strip(ui: &mut egui::Ui, game: &Game, icons: &Icons) -> bool {
    let open = ui.button("◀").on_hover_text("Open the party panel: the tiles, Keys, XP and the log").clicked();
    let Some(adv) = game.adventure() else { return open };
    ui.separator();
    ui.vertical_centered(|ui| {
        icons.show(ui, "ui", "key", 20.0, style::GOLD);
        ui.label(adv.keys.to_string()).on_hover_text("Keys");
        ui.add_space(6.0);
        icons.show(ui, "ui", "xp", 20.0, style::GOLD);
        let xp = game.pool_xp();
        ui.label(xp.to_string()).on_hover_text("XP in the pool");
        ui.add_space(6.0);
        ui.label(
            egui::RichText::new(format!(
                "{}\n{}",
                adv.ecology.pile.len(),
                if adv.ecology.pile.len() == 1 { "tile" } else { "tiles" }
            ))
            .size(style::type_scale::SMALL)
            .color(style::MUTED),
        )
        .on_hover_text("Map tiles left in the pile");
    });
    open
}

/// A log line naming a file by its path ("Loaded /a/b/c.json."): the line
/// with the file's name alone, and the whole path for its hover.
pub(super) fn short_path_line(line: &str) -> Option<(String, String)> {
    let (verb, rest) = line.split_once(' ')?;
    if verb != "Loaded" {
        return None;
    }
    let path = rest.strip_suffix('.').unwrap_or(rest);
    let name = std::path::Path::new(path).file_name()?.to_str()?;
    (name != path).then(|| (format!("{verb} {name}."), path.to_owned()))
}

/// A forecast's words ("Chance to win this fight: 62% ± 4"), with the
/// figure they give: "estimating…" until the figure is steady (its ± within
/// a few points), so no wide, jumping figure is ever shown.
pub(super) fn forecast_text<'a>(
    forecasts: Option<&'a crate::game::forecasts::Forecasts>,
    subject: crate::game::forecasts::Subject,
    what: &str,
) -> Option<(String, Option<&'a depths_sim::Estimate>)> {
    let slot = forecasts.map(|f| f.slot(subject))?;
    let steady = slot.latest.as_ref().filter(|e| crate::game::forecasts::steady(e) || !slot.busy());
    let text = match steady {
        Some(e) => format!("{what}: {}", crate::game::forecasts::chance_text(e)),
        None if slot.busy() => format!("{what}: estimating…{}", crate::game::forecasts::was_text(slot)),
        None => return None,
    };
    Some((text, steady))
}

/// A forecast's line ([`forecast_text`]), its method on hover.
pub(super) fn forecast_line(
    ui: &mut egui::Ui,
    forecasts: Option<&crate::game::forecasts::Forecasts>,
    subject: crate::game::forecasts::Subject,
    what: &str,
) {
    let Some((text, steady)) = forecast_text(forecasts, subject, what) else { return };
    // Two lines always, the question over its figure, each cut to the
    // panel's width: wrapped as it came, the line grew and shrank as
    // "estimating… (was 38% ± 5)" came and went, and moved what lay under it.
    let hover = steady.map_or_else(|| text.clone(), crate::game::forecasts::method_text);
    let (question, figure) = text.split_once(": ").unwrap_or((text.as_str(), ""));
    let line = |t: String| egui::RichText::new(t).color(style::MUTED).size(style::type_scale::SMALL);
    ui.scope(|ui| {
        ui.spacing_mut().item_spacing.y = 0.0;
        one_line(ui, line(format!("{question}:")), &hover);
        one_line(ui, line(figure.to_owned()), &hover);
    });
}

/// How many of `parts`, joined by " · " from the first, fit where `fits`
/// says (at least one: the first is what matters most). A line of several
/// things keeps whole things: cut at a letter it read "· C…".
pub(crate) fn parts_that_fit(parts: &[&str], fits: impl Fn(&str) -> bool) -> usize {
    (1..=parts.len()).rev().find(|&n| fits(&parts[..n].join(" · "))).unwrap_or(1.min(parts.len()))
}

/// The width `text` takes on one line in `ui`.
pub(super) fn line_width(ui: &egui::Ui, text: impl Into<egui::WidgetText>) -> f32 {
    text.into().into_galley(ui, Some(egui::TextWrapMode::Extend), f32::INFINITY, egui::TextStyle::Body).size().x
}

/// A line of things joined by " · ", as many whole ones as fit the room
/// (the first cut short if even it does not), all of them on hover.
pub(super) fn parts_line(
    ui: &mut egui::Ui,
    text: &str,
    size: f32,
    color: egui::Color32,
    hover: &str,
) -> egui::Response {
    let parts: Vec<&str> = text.split(" · ").collect();
    let room = ui.available_width();
    let rich = |t: &str| egui::RichText::new(t).size(size).color(color);
    let n = parts_that_fit(&parts, |t| line_width(ui, rich(t)) <= room);
    let shown = parts[..n].join(" · ");
    one_line(ui, rich(&shown), hover)
}

/// A line whose room is kept while it has nothing to say (coming and going,
/// it moved what lay under it): [`one_line`], blank when `text` is empty.
pub(super) fn kept_line(ui: &mut egui::Ui, text: &str, size: f32, color: egui::Color32) -> egui::Response {
    let shown = if text.is_empty() { " " } else { text };
    one_line(ui, egui::RichText::new(shown).size(size).color(color), text)
}

/// One line that never wraps (a line that wrapped moved what lay under it):
/// cut short with "…", with `hover` on hover, ours alone (egui's own box for
/// the cut words stacked a second one over it). An empty `hover` says nothing.
pub(super) fn one_line(ui: &mut egui::Ui, text: impl Into<egui::WidgetText>, hover: &str) -> egui::Response {
    let line = ui.add(egui::Label::new(text).truncate().show_tooltip_when_elided(false));
    if hover.is_empty() { line } else { line.on_hover_text(hover) }
}

/// The egui id of a card's hover box (the steadiness check finds it by it).
pub const HOVER_BOX: &str = "card_hover";

/// The full text of the card under the pointer, beside it: at the
/// pointer's height, to the right of what is hovered (`thing`, egui points;
/// a small square around the pointer when unknown), else to its left, else
/// below or above it, never over it (the card, its rows, the individual to
/// click) and kept on screen.
/// `clear`: the places to click in this step (egui points), which the box
/// keeps off where it can; `room`: the table's, which it stays in (at the
/// window's top it covered the banner and the Combat strip's buttons).
pub(super) fn hover_box(
    ctx: &egui::Context,
    text: &str,
    thing: Option<egui::Rect>,
    clear: &[egui::Rect],
    room: egui::Rect,
) {
    let Some(at) = ctx.pointer_latest_pos() else { return };
    let id = egui::Id::new(HOVER_BOX);
    let size = ctx.memory(|m| m.area_rect(id)).map_or(egui::vec2(356.0, 160.0), |r| r.size());
    let screen = room;
    let thing = thing.unwrap_or_else(|| egui::Rect::from_center_size(at, egui::vec2(48.0, 48.0)));
    let pos = hover_place(screen, thing, at, size, clear);
    egui::Area::new(id).order(egui::Order::Tooltip).interactable(false).fixed_pos(pos).show(ctx, |ui| {
        let frame = egui::Frame::new()
            .fill(crate::theme::palette::POPUP.egui())
            .stroke(egui::Stroke::new(1.0, style::GOLD))
            .corner_radius(4.0)
            .inner_margin(8.0);
        frame.show(ui, |ui| {
            ui.set_max_width(340.0);
            let mut lines = text.lines();
            if let Some(first) = lines.next() {
                ui.label(egui::RichText::new(first).strong().color(style::GOLD));
            }
            for line in lines {
                ui.label(line);
            }
        });
    });
}

/// Where a box of `size` goes beside `thing` (pointer at `at`) inside
/// `screen`: never over `thing`, and of the places beside it (each side, at
/// the pointer's height or along the screen's edges) the one that covers
/// least of `clear` (the places to click in this step: the box over the
/// pairs and hands hid the cards a player was about to click), then the
/// first side with room. If no side has room, the side with the most,
/// pushed inside the screen.
pub(crate) fn hover_place(
    screen: egui::Rect,
    thing: egui::Rect,
    at: egui::Pos2,
    size: egui::Vec2,
    clear: &[egui::Rect],
) -> egui::Pos2 {
    const GAP: f32 = 12.0;
    // On whole points (a box between pixels is drawn blurred).
    let inside = |p: egui::Pos2| {
        egui::pos2(
            p.x.clamp(screen.min.x, (screen.max.x - size.x).max(screen.min.x)).round(),
            p.y.clamp(screen.min.y, (screen.max.y - size.y).max(screen.min.y)).round(),
        )
    };
    let ys = [at.y - 20.0, screen.min.y, screen.max.y - size.y];
    let xs = [at.x - size.x / 2.0, screen.min.x, screen.max.x - size.x];
    // (room on that side, what it needs, the places on it)
    let sides = [
        (screen.max.x - thing.max.x, size.x, ys.map(|y| egui::pos2(thing.max.x + GAP, y))),
        (thing.min.x - screen.min.x, size.x, ys.map(|y| egui::pos2(thing.min.x - GAP - size.x, y))),
        (screen.max.y - thing.max.y, size.y, xs.map(|x| egui::pos2(x, thing.max.y + GAP))),
        (thing.min.y - screen.min.y, size.y, xs.map(|x| egui::pos2(x, thing.min.y - GAP - size.y))),
    ];
    let covered = |p: egui::Pos2| -> f32 {
        let placed = egui::Rect::from_min_size(p, size);
        clear.iter().filter(|c| c.intersects(placed)).map(|c| c.intersect(placed).area()).sum()
    };
    let roomy = sides.iter().filter(|(room, need, _)| *room >= need + GAP);
    // Beside the thing first; then the screen's corners and edges, where
    // the box may lie further off when the places beside it are all taken.
    let (lo, hi) = (screen.min, screen.max - size);
    let far = [lo.x, (lo.x + hi.x) / 2.0, hi.x]
        .into_iter()
        .flat_map(|x| [lo.y, (lo.y + hi.y) / 2.0, hi.y].map(|y| egui::pos2(x, y)))
        .filter(|p| !egui::Rect::from_min_size(*p, size).intersects(thing.expand(GAP / 2.0)));
    let best = roomy
        .flat_map(|(_, _, places)| places.iter().map(|p| inside(*p)))
        .chain(far.map(inside))
        .map(|p| (covered(p), p))
        .fold(None::<(f32, egui::Pos2)>, |best, (c, p)| match best {
            Some((b, _)) if b <= c + 0.5 => best,
            _ => Some((c, p)),
        })
        .map(|(_, p)| p);
    best.unwrap_or_else(|| {
        let most = sides.iter().max_by(|a, b| (a.0 - a.1).total_cmp(&(b.0 - b.1)));
        inside(most.map_or(at, |(_, _, places)| places[0]))
    })
}

#[cfg(test)]
mod hover_tests {
    use super::*;

    fn overlaps(a: egui::Rect, b: egui::Rect) -> bool {
        a.intersects(b) && a.intersect(b).area() > 0.5
    }

    /// Issue: the Monster card's text covered the individuals to click (at
    /// 150 % the whole card). The box lies beside the card, on screen.
    #[test]
    fn the_hover_box_never_covers_what_it_describes_and_stays_on_screen() {
        let size = egui::vec2(356.0, 240.0);
        for screen in [egui::vec2(1280.0, 800.0), egui::vec2(853.0, 533.0), egui::vec2(1920.0, 1080.0)] {
            let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, screen);
            for (cx, cy) in [(0.2, 0.3), (0.5, 0.3), (0.8, 0.3), (0.5, 0.8), (0.9, 0.9), (0.1, 0.9)] {
                let center = egui::pos2(screen.width() * cx, screen.height() * cy);
                let card = egui::Rect::from_center_size(center, egui::vec2(220.0, 300.0).min(screen.size() * 0.4));
                let at = card.center() + egui::vec2(10.0, 40.0);
                let pos = hover_place(screen, card, at, size, &[]);
                let placed = egui::Rect::from_min_size(pos, size);
                assert!(screen.contains_rect(placed), "{placed:?} off {screen:?}");
                assert!(!overlaps(placed, card), "{placed:?} covers the card {card:?} on {screen:?}");
            }
        }
    }

    /// Issue 53: hovering an individual's row (to be clicked to place
    /// Damage) opened a box over the pairs and the hands below the Monster
    /// card. Where a side has room clear of the step's targets, the box
    /// lies there.
    #[test]
    fn the_hover_box_keeps_off_the_places_to_click() {
        let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1280.0, 800.0));
        // A Monster card at the top left, the pairs and a hand to its right and below.
        let card = egui::Rect::from_min_size(egui::pos2(40.0, 60.0), egui::vec2(220.0, 300.0));
        let pairs = egui::Rect::from_min_size(egui::pos2(300.0, 60.0), egui::vec2(500.0, 300.0));
        let hand = egui::Rect::from_min_size(egui::pos2(40.0, 600.0), egui::vec2(660.0, 180.0));
        let size = egui::vec2(356.0, 450.0);
        let at = card.center();
        let pos = hover_place(screen, card, at, size, &[pairs, hand]);
        let placed = egui::Rect::from_min_size(pos, size);
        assert!(screen.contains_rect(placed) && !overlaps(placed, card));
        assert!(!overlaps(placed, pairs) && !overlaps(placed, hand), "{placed:?} covers a target");
    }
}

/// A new delve that has not drawn its first tile yet (once a tile is in
/// hand the tray says what to do, and the board needs all its room).
pub(super) fn first_steps(phase: &Phase, game: &Game) -> bool {
    matches!(phase, Phase::Exploring { tile_in_hand: false, decision: None })
        && game.adventure().is_some_and(|a| {
            a.ecology.map.tiles().len() == 1 && a.ecology.drawn.is_none() && a.record.ecologies_cleared.is_empty()
        })
}

/// Where a window at the foot of the board's `room` has its bottom centre:
/// clear of the party's edge along the room's foot.
pub(super) fn room_foot(room: egui::Rect) -> egui::Pos2 {
    egui::pos2(room.center().x, room.max.y - crate::table::party::EDGE_HEIGHT - 8.0)
}

/// How to begin, on the table until the first tile is laid: at the foot of
/// the board's room and inside it (at 150 % it covered the party panel).
pub(super) fn first_steps_window(ctx: &egui::Context, room: egui::Rect) {
    egui::Window::new("How to play")
        .id(egui::Id::new("first_steps"))
        .pivot(egui::Align2::CENTER_BOTTOM)
        .fixed_pos(room_foot(room))
        .constrain_to(room)
        .collapsible(true)
        .resizable(false)
        .show(ctx, |ui| {
            ui.set_max_width(440.0f32.min(room.width() - 32.0));
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
pub(super) fn card_label(card: &depths_rules::ActionCard) -> String {
    if card.power { "Power".into() } else { card.value.to_string() }
}

/// The number key 1–9 pressed this frame, unless a text field has the keyboard.
pub(crate) fn number_key(ctx: &egui::Context) -> Option<u8> {
    use egui::Key::*;
    let id = egui::Id::new("number_keys");
    if ctx.egui_wants_keyboard_input() {
        ctx.data_mut(|d| d.remove::<NumberKeys>(id));
        return None;
    }
    let keys = [Num1, Num2, Num3, Num4, Num5, Num6, Num7, Num8, Num9];
    // This pass's presses in the order they came: several in one frame
    // (3, 2, 6, 4 at once) answered only the lowest and dropped the rest
    // without a word. They wait their turn, one a pass.
    let pressed: Vec<u8> = ctx.input(|i| {
        i.events
            .iter()
            .filter_map(|e| match e {
                egui::Event::Key { key, pressed: true, repeat: false, .. } => {
                    keys.iter().position(|k| k == key).map(|n| n as u8 + 1)
                }
                _ => None,
            })
            .collect()
    });
    let pass = ctx.cumulative_pass_nr();
    ctx.data_mut(|d| {
        let q = d.get_temp_mut_or_default::<NumberKeys>(id);
        // Asked again in the same pass (the confirm window, the frame): the same key.
        if q.pass != Some(pass) {
            q.pass = Some(pass);
            q.waiting.extend(pressed);
            q.waiting.truncate(NUMBER_KEYS_WAITING);
            q.now = q.waiting.pop_front();
        }
        q.now
    })
}

/// How many number keys pressed at once wait their turn at the most.
const NUMBER_KEYS_WAITING: usize = 4;

/// Number keys pressed and not yet answered, and the one this pass answers.
#[derive(Clone, Debug, Default)]
struct NumberKeys {
    pass: Option<u64>,
    now: Option<u8>,
    waiting: std::collections::VecDeque<u8>,
}

/// The "pass to …" screen: hides the table until `player` comes to it.
pub(super) fn curtain(
    root: &mut egui::Ui,
    game: &Game,
    seats: &Seats,
    player: usize,
    enter_lifts: bool,
    lift: &mut MessageWriter<LiftCurtain>,
) {
    let name = seats.players.name(player);
    egui::CentralPanel::default().frame(egui::Frame::new().fill(crate::theme::palette::CURTAIN.egui())).show(
        root,
        |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(ui.available_height() * 0.3);
                ui.label(style::title(&format!("Pass to {name}"), style::type_scale::BANNER));
                ui.add_space(8.0);
                let heroes: Vec<&str> = game
                    .heroes
                    .iter()
                    .enumerate()
                    // Not a Hero handed to a Companion: it plays itself.
                    .filter(|(h, _)| seats.players.owner(*h as u8) == player && !seats.players.is_companion(*h as u8))
                    .map(|(_, h)| h.name())
                    .collect();
                // Everything in the game is open (every hand shows once the
                // screen lifts): "The other players look away" promised a
                // secret the table does not keep.
                let plays = if heroes.is_empty() {
                    format!("{name}'s Heroes are played by Companions.")
                } else {
                    format!("{name} plays {} now.", heroes.join(" and "))
                };
                ui.label(egui::RichText::new(plays).color(style::MUTED));
                ui.add_space(6.0);
                ui.label(egui::RichText::new(banner(game)).color(style::GOLD));
                ui.add_space(16.0);
                let enter = enter_lifts && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Enter));
                if ui.add(style::menu_button(&format!("I am {name}"))).on_hover_text("or press Enter").clicked()
                    || enter
                {
                    lift.write(LiftCurtain);
                }
            });
        },
    );
}

pub(super) fn activation_text(a: Activation) -> String {
    match a {
        Activation::Passive => "Passive".into(),
        Activation::Power(0) => "Free: used at will, for no Power Card".into(),
        Activation::Power(n) => format!("Power ×{n}"),
        Activation::Block => "Block".into(),
    }
}

/// A health bar; `id` keeps its animation: the bar slides to a new value
/// (egui asks for the frames it needs, so reactive rendering still idles).
/// A Hero's Health bar; `due` is the Health this Round's end will take if
/// nothing changes, shown as the part of the bar about to go.
pub(super) fn health_bar(
    ui: &mut egui::Ui,
    id: impl std::hash::Hash + std::fmt::Debug,
    health: u8,
    max: u8,
    due: u8,
    width: f32,
) {
    let f = if max == 0 { 0.0 } else { f32::from(health) / f32::from(max) };
    let shown = ui.ctx().animate_value_with_time(egui::Id::new(("health", id)), f, 0.35);
    let color = crate::theme::palette::by_health(f, [good(), style::notice(), bad()]);
    // A track: a box a point (or a mark every five where points are narrow),
    // filled up to what is left, the words on a dark pill in the middle.
    let (rect, response) = ui.allocate_exact_size(egui::vec2(width, 20.0), egui::Sense::hover());
    let painter = ui.painter();
    let back = crate::theme::palette::BAR_BACK.egui();
    painter.rect_filled(rect, 3.0, back);
    let fill = egui::Rect::from_min_max(rect.min, egui::pos2(rect.left() + rect.width() * shown, rect.bottom()));
    painter.rect_filled(fill.shrink(1.5), 2.0, color.gamma_multiply(0.8));
    let point = rect.width() / f32::from(max.max(1));
    let every: u8 = if point >= 5.0 { 1 } else { 5 };
    if point * f32::from(every) >= 5.0 {
        for i in (every..max).step_by(usize::from(every)) {
            let x = rect.left() + point * f32::from(i);
            painter.line_segment([egui::pos2(x, rect.top() + 2.0), egui::pos2(x, rect.bottom() - 2.0)], (1.0, back));
        }
    }
    if due > 0 && max > 0 {
        let x = |v: u8| rect.left() + rect.width() * f32::from(v) / f32::from(max);
        let going = egui::Rect::from_x_y_ranges(x(health.saturating_sub(due))..=x(health), rect.y_range());
        painter.rect_filled(going.shrink(1.0), 2.0, bad().gamma_multiply(0.55));
    }
    let text = format!("{health} / {max}");
    let font = egui::FontId::proportional(style::type_scale::SMALL);
    let ink = crate::theme::palette::TEXT.egui();
    let galley = painter.layout_no_wrap(text, font, ink);
    let pill = egui::Rect::from_center_size(rect.center(), galley.size() + egui::vec2(10.0, 2.0));
    painter.rect_filled(pill, 3.0, back.gamma_multiply(0.85));
    painter.galley(pill.center() - galley.size() / 2.0, galley, ink);
    if due > 0 && max > 0 {
        response.on_hover_text("The Monsters' side of the pairs resolved so far, after Armor, unless it is avoided.");
    }
}

/// A Hero's portrait: the class's icon in its colours on a framed square.
pub(super) fn portrait(ui: &mut egui::Ui, icons: &Icons, class: &str, side: f32) {
    let (body, edge) = crate::theme::palette::class_tones(class);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(side, side), egui::Sense::hover());
    ui.painter().rect_filled(rect, 6.0, body.egui());
    ui.painter().rect_stroke(rect, 6.0, egui::Stroke::new(1.5, edge.egui()), egui::StrokeKind::Inside);
    if let Some(image) = icons.egui("classes", class, side - 8.0, edge.egui()) {
        image.paint_at(ui, rect.shrink(4.0));
    }
}

/// A small card on a Hero's mat (an Ability, an Item): framed and filled in
/// `tones` (body, edge) like the table's cards; `dim` for one turned down (an
/// exhausted Ability, an unequipped Item).
pub(super) fn mat_card<R>(
    ui: &mut egui::Ui,
    (body, edge): (crate::theme::palette::Tone, crate::theme::palette::Tone),
    dim: bool,
    contents: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    let fill = if dim { crate::theme::palette::MAT.egui() } else { body.egui() };
    let frame = egui::Frame::new()
        .fill(fill)
        .stroke(egui::Stroke::new(1.5, edge.egui().gamma_multiply(if dim { 0.45 } else { 0.9 })))
        .corner_radius(6.0)
        .inner_margin(egui::Margin::symmetric(7, 5));
    let shown = frame.show(ui, |ui| {
        ui.set_width(ui.available_width());
        contents(ui)
    });
    ui.add_space(3.0);
    shown.inner
}

/// An Ability's cost as the book's cards show it: a Power icon per Power Card
/// (a shield for a Block-Activated one), or the word "Passive"; the words on
/// hover.
pub(super) fn cost_icons(ui: &mut egui::Ui, icons: &Icons, a: Activation) {
    let gold = crate::theme::palette::CARD_GOLD.egui();
    let (key, n) = match a {
        Activation::Power(n) => ("power", n),
        Activation::Block => ("block", 1),
        Activation::Passive => ("", 0),
    };
    let response = ui
        .horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = 1.0;
            for _ in 0..n {
                match icons.egui("ui", key, 15.0, gold) {
                    Some(image) => ui.add(image),
                    None => ui.label(egui::RichText::new("⚡").color(gold)),
                };
            }
            if let Some(word) = cost_word(a) {
                ui.label(
                    egui::RichText::new(word)
                        .size(style::type_scale::SMALL)
                        .color(crate::theme::palette::CARD_LORE.egui()),
                );
            }
        })
        .response;
    response.on_hover_text(activation_text(a));
}

/// The word an Ability shows where no icon tells its cost: "Passive" for
/// one always on, "Free" for one used at will that costs no Power Card (a
/// Draught drunk was labelled "Passive").
fn cost_word(a: Activation) -> Option<&'static str> {
    match a {
        Activation::Passive => Some("Passive"),
        Activation::Power(0) => Some("Free"),
        Activation::Power(_) | Activation::Block => None,
    }
}

/// A context with the default fonts under the game's family names, for
/// the panels' tests.
#[cfg(test)]
pub(super) fn test_context() -> egui::Context {
    let ctx = egui::Context::default();
    let mut fonts = egui::FontDefinitions::default();
    let body = fonts.families[&egui::FontFamily::Proportional].clone();
    fonts.families.insert(egui::FontFamily::Name("title".into()), body);
    ctx.set_fonts(fonts);
    ctx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_of_parts_keeps_whole_parts() {
        let parts = ["Drag a card", "H: hint", "Ctrl+Z: undo", "F1: rules"];
        // Room for 24 letters: the first two parts ("Drag a card · H: hint", 21).
        let fits = |t: &str| t.chars().count() <= 24;
        assert_eq!(parts_that_fit(&parts, fits), 2);
        assert_eq!(parts_that_fit(&parts, |_| true), 4);
        // The first stays (cut) even where nothing fits.
        assert_eq!(parts_that_fit(&parts, |_| false), 1);
        assert_eq!(parts_that_fit(&[], |_| false), 0);
    }

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
            let mut c = Choices { next_key: Some(1), ..Choices::new(None, legal, pressed) };
            c.button(ui, Action::DrawTile, "draw");
            c.button(ui, Action::CancelPurchase, "not legal");
            c.button(ui, Action::FinishLevelUp, "finish");
            chosen = c.chosen;
            chosen.extend(c.keyed.map(|(_, a)| a));
        });
        // No renderer here to take the font texture.
        output.textures_delta.clear();
        chosen
    }

    /// A playtest: the hinted Monster card to fight (a button in the strip)
    /// was not marked at all. The hinted button wears the hint's white.
    #[test]
    fn the_hinted_button_is_outlined_in_the_hints_white() {
        let outlined = |hinted: Option<Action>| {
            let ctx = egui::Context::default();
            let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
                let mut c = Choices::new(None, vec![Action::DrawTile, Action::FinishLevelUp], None);
                c.hinted = hinted.clone();
                c.button(ui, Action::DrawTile, "draw");
                c.button(ui, Action::FinishLevelUp, "finish");
            });
            output.textures_delta.clear();
            let white = crate::theme::palette::HINT.egui();
            output
                .shapes
                .iter()
                .filter(|s| matches!(&s.shape, egui::Shape::Rect(r) if r.stroke.color == white && r.stroke.width > 0.0))
                .count()
        };
        assert_eq!(outlined(None), 0);
        assert_eq!(outlined(Some(Action::FinishLevelUp)), 1, "the hinted one alone");
        assert_eq!(outlined(Some(Action::CancelPurchase)), 0, "a move not on offer marks nothing");
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

    /// A playtest: 3, 2, 6, 4 pressed in one burst played Bren's two cards
    /// and dropped Sil's keys without a word. Keys pressed in one frame are
    /// answered in order, one a frame; asked twice in a frame, one key.
    #[test]
    fn number_keys_pressed_at_once_wait_their_turn() {
        let ctx = egui::Context::default();
        let key = |key| egui::Event::Key {
            key,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers: egui::Modifiers::NONE,
        };
        let mut answered = Vec::new();
        for events in [vec![key(egui::Key::Num3), key(egui::Key::Num2), key(egui::Key::Num6)], vec![], vec![], vec![]] {
            let input = egui::RawInput { events, ..Default::default() };
            let mut output = ctx.run_ui(input, |ui| {
                let first = number_key(ui.ctx());
                assert_eq!(number_key(ui.ctx()), first, "the same key however often it is asked in a frame");
                answered.push(first);
            });
            output.textures_delta.clear();
        }
        assert_eq!(answered, vec![Some(3), Some(2), Some(6), None]);
    }

    #[test]
    fn number_keys_answer_the_numbered_legal_buttons() {
        assert_eq!(press(None), vec![]);
        assert_eq!(press(Some(egui::Key::Num1)), vec![Action::DrawTile]);
        // The refused button gets no number: 2 is the next legal one.
        assert_eq!(press(Some(egui::Key::Num2)), vec![Action::FinishLevelUp]);
        assert_eq!(press(Some(egui::Key::Num3)), vec![]);
    }

    /// Issue 53: the Draught of Stillwater, drunk at will for no Power Card,
    /// was labelled "Passive".
    #[test]
    fn an_ability_used_for_no_power_is_not_called_passive() {
        use depths_rules::Activation;
        assert_eq!(super::cost_word(Activation::Power(0)), Some("Free"));
        assert_eq!(super::cost_word(Activation::Passive), Some("Passive"));
        assert_eq!(super::cost_word(Activation::Power(2)), None, "two Power icons tell it");
        assert!(!super::activation_text(Activation::Power(0)).contains("Passive"));
    }
}
