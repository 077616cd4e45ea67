//! The game's banner: the buttons, the place in the game and what to do now
//! in one row, and any lines under it (online: whom the table waits for).
//!
//! Its height is its content's and never what it was last frame. egui keeps
//! a top panel's height from frame to frame and gives its contents that much
//! room; a row laid out in all of it (`with_layout`) had its separators grow
//! to fill it, so every frame the row was as tall as the last banner and any
//! second row or line added its own height on top: the banner grew until it
//! filled the window (after the "Pass to …" button wrapped the row, a UI
//! scale switch, an online line). Here each row is a row (`horizontal`,
//! whose room is one line high) and the panel is capped at a share of the
//! window.

use bevy_egui::egui;

use crate::theme::style;

/// The banner never takes more than this share of the window's height.
pub const MAX_SHARE: f32 = 0.25;

/// What the banner shows: plain words and flags, so it can be drawn anywhere.
#[derive(Clone, Debug, Default)]
pub(crate) struct BannerView {
    /// The Ecology and the seed.
    pub(crate) place: Option<String>,
    /// Who acts and what to do now.
    pub(crate) line: String,
    /// Undo's words (or why not) and Redo's; `None` in a replay.
    pub(crate) undo: Option<(Result<String, String>, Result<String, String>)>,
    /// Hot-seat: the player the table should pass to now.
    pub(crate) pass_to: Option<String>,
    /// Hot-seat with two players or more: whether the pass screen is on.
    pub(crate) curtain: Option<bool>,
}

/// What the player clicked in the banner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BannerClick {
    Menu,
    Rules,
    Settings,
    Hint,
    Undo,
    Redo,
    HandOver,
    Curtain(bool),
}

/// What the banner drew: its rectangle, what was clicked, and the "Pass to
/// …" button (if shown), for the table-health check.
pub(crate) struct BannerShown {
    pub(crate) rect: egui::Rect,
    pub(crate) click: Option<BannerClick>,
    pub(crate) pass: Option<super::widgets::Control>,
}

/// Below this width (egui points) the banner's buttons show their signs only.
const COMPACT_BELOW: f32 = 1000.0;

/// Draws the banner at the top of `root`, with `lines` under its row.
pub(crate) fn banner(root: &mut egui::Ui, view: &BannerView, lines: impl FnOnce(&mut egui::Ui)) -> BannerShown {
    let max = root.ctx().content_rect().height() * MAX_SHARE;
    let (mut click, mut pass) = (None, None);
    let shown = egui::Panel::top("banner").resizable(false).max_size(max).show(root, |ui| {
        // One row at every width and scale: a row that wrapped moved the
        // whole table down and back as the "Pass to …" button came and went,
        // and one cut at the window's edge lost that button and what to do now.
        ui.horizontal(|ui| row(ui, view, &mut click, &mut pass));
        lines(ui);
    });
    BannerShown { rect: shown.response.rect, click, pass }
}

/// The row: the buttons on the left; the hand-over (the "Pass to …" button
/// and the pass screen's box) on the right; between them what to do now,
/// cut to the room left and whole on hover, after the place where it fits.
fn row(
    ui: &mut egui::Ui,
    view: &BannerView,
    click: &mut Option<BannerClick>,
    pass: &mut Option<super::widgets::Control>,
) {
    // As tall as a button with the bar's tallest glyphs: the "Pass to … ▶"
    // button's arrow, from a fallback font with a taller line, made the bar
    // 2 px taller as it came and went.
    let font = egui::TextStyle::Button.resolve(ui.style());
    let glyphs = ui.painter().layout_no_wrap("Pass ▶ ⟲ ⟳ ☰ 📖 ⚙ 💡".to_owned(), font, egui::Color32::WHITE);
    ui.set_min_height(glyphs.size().y + 2.0 * ui.spacing().button_padding.y);
    let mut clicked = |yes: bool, what: BannerClick| {
        if yes {
            *click = Some(what);
        }
    };
    // On a narrow window (1366×768 at 150 % is 911 points across) the
    // buttons keep their signs and give their words to what to do now, which
    // was cut ("Exploring: dr…"). By the window's width alone, so the row
    // never changes with the words it holds.
    let compact = ui.ctx().content_rect().width() < COMPACT_BELOW;
    let word = |sign: &str, word: &str| if compact { sign.to_owned() } else { format!("{sign} {word}") };
    clicked(ui.button(word("☰", "Menu")).on_hover_text("Menu").clicked(), BannerClick::Menu);
    let rules = ui.button(word("📖", "Rules")).on_hover_text("Rules reference and glossary (F1); shortcuts (F2 or ?)");
    clicked(rules.clicked(), BannerClick::Rules);
    let settings =
        ui.button("⚙").on_hover_text("Settings: UI scale, the \"Pass to …\" screen, sound, Companions' pace, hints");
    clicked(settings.clicked(), BannerClick::Settings);
    let hint = ui.button("💡 Hint").on_hover_text("What the careful bot would do now, and why (H)");
    clicked(hint.clicked(), BannerClick::Hint);
    if let Some((undo, redo)) = &view.undo {
        // Greyed with the reason when there is nothing to take back.
        let (enabled, tip) = match undo {
            Ok(words) => (true, format!("Take back: {words} (Ctrl+Z)")),
            Err(why) => (false, why.clone()),
        };
        let b = ui.add_enabled(enabled, egui::Button::new(word("⟲", "Undo")));
        clicked(b.on_hover_text(&tip).on_disabled_hover_text(&tip).clicked(), BannerClick::Undo);
        // Always there, greyed until something was taken back: coming with
        // the first undo it pushed the banner's words along the bar.
        let (enabled, tip) = match redo {
            Ok(words) => (true, format!("Make again: {words} (Ctrl+Shift+Z)")),
            Err(why) => (false, why.clone()),
        };
        let b = ui.add_enabled(enabled, egui::Button::new(word("⟳", "Redo")));
        clicked(b.on_hover_text(&tip).on_disabled_hover_text(&tip).clicked(), BannerClick::Redo);
    }
    ui.separator();
    // The right end first (right to left), so the middle gets what is left.
    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
        if let Some(mut on) = view.curtain
            && ui
                .checkbox(&mut on, "Pass screen")
                .on_hover_text("A \"Pass to …\" screen when the table changes hands (remembered)")
                .changed()
        {
            clicked(true, BannerClick::Curtain(on));
        }
        if let Some(next) = &view.pass_to {
            let text =
                egui::RichText::new(format!("Pass to {next} ▶")).strong().color(crate::theme::palette::BLACK.egui());
            let b = ui
                .add(egui::Button::new(text).fill(style::GOLD))
                .on_hover_text("Hide the table until the next player comes to it");
            *pass = Some(super::widgets::Control::of(&b, format!("Pass to {next}")));
            clicked(b.clicked(), BannerClick::HandOver);
        }
        ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| middle(ui, view));
    });
}

/// The place and what to do now, in the room between the buttons and the
/// hand-over. The game's name is the window's title: shown here where it
/// fitted, it came and went with Redo and "Pass to …", and the row's height
/// with it (the table moved 11 px at 150 %).
fn middle(ui: &mut egui::Ui, view: &BannerView) {
    let place = view.place.as_ref().map(|p| egui::RichText::new(p).color(style::MUTED));
    let line = egui::RichText::new(&view.line).strong().color(style::GOLD);
    let gap = ui.spacing().item_spacing.x;
    let room = ui.available_width();
    let line_w = super::widgets::line_width(ui, line.clone());
    let place_w = place.as_ref().map_or(0.0, |p| super::widgets::line_width(ui, p.clone()) + gap);
    // The place stays while what to do now keeps all its words (it was cut
    // mid-word at 150 %: "… play cards, in a…").
    let show_place = room >= place_w + line_w + gap * 2.0;
    if let Some(place) = place.filter(|_| show_place) {
        ui.label(place);
        ui.separator();
    }
    // Short of room even so (a hot-seat turn at 150 %: "▶ Ann (Bren) —
    // Exploring: draw a tile, or Encounter somet…"), a size smaller before
    // it is cut: the row's height is its buttons'.
    let line = if line_w > room { line.size(style::type_scale::SMALL) } else { line };
    super::widgets::one_line(ui, line, &view.line);
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::ui::panels::widgets::test_context as context;

    /// A window of `size` logical pixels at UI scale `zoom`.
    fn input(size: egui::Vec2, zoom: f32) -> egui::RawInput {
        egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size / zoom)),
            ..Default::default()
        }
    }

    /// A window's size, the UI scale, how many online lines go under the
    /// banner's row, and for how many frames.
    type Run = (egui::Vec2, f32, usize, usize);

    /// The banner's height each frame of `run`.
    fn heights(ctx: &egui::Context, view: &BannerView, run: Run) -> Vec<f32> {
        drawn(ctx, view, run).into_iter().map(|(h, _)| h).collect()
    }

    /// [`heights`], with where the "Pass to …" button lay each frame.
    fn drawn(
        ctx: &egui::Context,
        view: &BannerView,
        (size, zoom, lines, frames): Run,
    ) -> Vec<(f32, Option<egui::Rect>)> {
        ctx.set_zoom_factor(zoom);
        (0..frames)
            .map(|_| {
                let (mut h, mut pass) = (0.0, None);
                let mut output = ctx.run_ui(input(size, zoom), |ui| {
                    let ctx = ui.ctx();
                    let mut root = egui::Ui::new(
                        ctx.clone(),
                        "game_viewport".into(),
                        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
                    );
                    let shown = banner(&mut root, view, |ui| {
                        for n in 0..lines {
                            ui.horizontal_wrapped(|ui| {
                                ui.label(format!("Waiting for Player {} to come back…", n + 2));
                                let _ = ui.button("Play their Heroes");
                                let _ = ui.button("Companions play them");
                            });
                        }
                    });
                    h = shown.rect.height();
                    pass = shown.pass.map(|c| c.rect);
                });
                output.textures_delta.clear();
                (h, pass)
            })
            .collect()
    }

    fn hot_seat(pass_to: Option<&str>, line: &str) -> BannerView {
        BannerView {
            place: Some("The Ruins · seed 5".into()),
            line: line.into(),
            undo: Some((Ok("the tile placed".into()), Err("Nothing to make again".into()))),
            pass_to: pass_to.map(Into::into),
            curtain: Some(true),
        }
    }

    fn assert_steady(what: &str, h: &[f32], window: egui::Vec2, zoom: f32) {
        let last = *h.last().unwrap();
        let settled = h[h.len() - 10];
        assert!((last - settled).abs() < 0.5, "{what}: the banner still changes ({settled} → {last} points): {h:?}");
        // Three rows at most at 100 %, and never past its share of the window.
        assert!(
            last <= window.y / zoom * MAX_SHARE + 0.5,
            "{what}: the banner is {last} points of {}",
            window.y / zoom
        );
        assert!(last < 140.0, "{what}: the banner is {last} points tall: {h:?}");
    }

    const LONG: &str = "▶ Player 2 — Exploring: draw a tile (D), then place it where a gold cell shows; or Encounter what the Heroes reach";

    /// The hot-seat repro: a tile placed, the "Pass to …" button comes and
    /// wraps the row; the banner must keep its size.
    #[test]
    fn the_pass_button_wrapping_the_row_does_not_grow_the_banner() {
        let ctx = context();
        let window = egui::vec2(1280.0, 800.0);
        let before = heights(&ctx, &hot_seat(None, LONG), (window, 1.0, 0, 5));
        let after = heights(&ctx, &hot_seat(Some("Player 2"), LONG), (window, 1.0, 0, 60));
        assert_steady("pass to", &after, window, 1.0);
        assert!(after.last() >= before.last(), "the wrapped row is at least as tall");
    }

    /// The UI scale repro: a Combat at 150 %, then 100 %.
    #[test]
    fn a_ui_scale_switch_does_not_grow_the_banner() {
        let ctx = context();
        let window = egui::vec2(1280.0, 800.0);
        let combat = "▶ Player 1 and Player 2 — Combat, round 2: Bren, Sil and Ann each play a card from their hand";
        heights(&ctx, &hot_seat(None, combat), (window, 1.5, 0, 10));
        let h = heights(&ctx, &hot_seat(Some("Player 2"), combat), (window, 1.0, 0, 60));
        assert_steady("150 % → 100 %", &h, window, 1.0);
    }

    /// The online repro: a player drops (two lines under the row), then
    /// comes back (none): the banner grows by the lines and shrinks again.
    #[test]
    fn online_lines_add_their_height_once_and_give_it_back() {
        let ctx = context();
        let window = egui::vec2(1280.0, 800.0);
        let view = hot_seat(None, "▶ Ann — Exploring: draw a tile (D)");
        let alone = *heights(&ctx, &view, (window, 1.0, 0, 5)).last().unwrap();
        let dropped = heights(&ctx, &view, (window, 1.0, 2, 60));
        assert_steady("a player dropped", &dropped, window, 1.0);
        assert!(*dropped.last().unwrap() > alone, "the lines take room of their own");
        let back = *heights(&ctx, &view, (window, 1.0, 0, 10)).last().unwrap();
        assert!((back - alone).abs() < 0.5, "back to {alone} points once the player is back, not {back}");
    }

    /// A tried hot-seat game: at 100 % the "Pass to …" button wrapped the
    /// row (the table jumped down and back), at 150 % the row ran off the
    /// window with that button and what to do now. At the sizes we support,
    /// at 100 % and 150 %, the banner is one row with or without the button,
    /// and the button lies whole in the window.
    #[test]
    fn the_pass_button_stays_in_one_row_in_the_window_at_every_size() {
        for (w, h) in [(1280.0, 800.0), (1366.0, 768.0), (1920.0, 1080.0)] {
            for zoom in [1.0, 1.5] {
                let ctx = context();
                let window = egui::vec2(w, h);
                // A short line leaves room for the place and more: the row
                // is as tall whatever shows (it moved the window 1 px).
                for line in [LONG, "Draw a tile"] {
                    let alone = *heights(&ctx, &hot_seat(None, line), (window, zoom, 0, 5)).last().unwrap();
                    let (with, pass) =
                        *drawn(&ctx, &hot_seat(Some("Player 2"), line), (window, zoom, 0, 5)).last().unwrap();
                    let at = format!("{w}x{h} at {zoom}, {line:?}");
                    assert!((with - alone).abs() < 0.01, "{at}: one row, {alone} points, not {with}");
                    let pass = pass.expect("the button is shown");
                    assert!(pass.right() <= w / zoom && pass.left() >= 0.0, "{at}: the button at {pass:?}");
                }
            }
        }
    }

    /// However many lines come, the banner keeps to its share of the window.
    #[test]
    fn the_banner_never_takes_more_than_its_share() {
        let ctx = context();
        let window = egui::vec2(1280.0, 800.0);
        let h = heights(&ctx, &hot_seat(Some("Player 3"), LONG), (window, 1.5, 20, 30));
        assert!(*h.last().unwrap() <= 800.0 / 1.5 * MAX_SHARE + 0.5, "{h:?}");
    }
}
