//! The look of the egui panels: a dark, warm tabletop theme, the title font, and
//! small widget helpers shared by the screens.

use std::sync::Arc;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use egui::{Color32, Pos2, Shape, Stroke, pos2, vec2};

use bevy_asset_loader::prelude::*;

use super::palette;

/// Assets every screen can use once loading is done.
#[derive(AssetCollection, Resource)]
pub struct UiAssets {
    /// EB Garamond (SIL OFL 1.1), the title face of the menus.
    #[asset(path = "fonts/EBGaramond12-Regular.otf")]
    pub title_font: Handle<Font>,
    /// Ubuntu Light (Ubuntu Font Licence), the cards' text: the panels' face.
    #[asset(path = "fonts/Ubuntu-Light.ttf")]
    pub body_font: Handle<Font>,
}

/// A rectangle of the window in logical pixels (the board's room, a card)
/// in egui's points at UI scale `zoom`.
pub fn in_points(r: Rect, zoom: f32) -> egui::Rect {
    egui::Rect::from_min_max(pos2(r.min.x / zoom, r.min.y / zoom), pos2(r.max.x / zoom, r.max.y / zoom))
}

/// The other way: a rectangle in egui's points at UI scale `zoom`, in the
/// window's logical pixels.
pub fn in_pixels(r: egui::Rect, zoom: f32) -> Rect {
    Rect::new(r.min.x * zoom, r.min.y * zoom, r.max.x * zoom, r.max.y * zoom)
}

/// A chart that holds still: no zoom, drag, scroll or box zoom, no reset on
/// a double click (the statistics' and the analysis board's: a click there
/// means a move or a row, not a view).
pub fn still_plot<'a>(id: impl egui::AsId) -> egui_plot::Plot<'a> {
    egui_plot::Plot::new(id)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
}

// egui's names for the palette's panel colours (`theme::palette`).
pub const GOLD: Color32 = palette::TITLE_GOLD.egui();
pub const MUTED: Color32 = palette::MUTED.egui();
/// The signal colours of the player's colour vision (`palette::Signals`).
pub fn notice() -> Color32 {
    palette::signals().notice.egui()
}
pub fn good() -> Color32 {
    palette::signals().good.egui()
}
pub fn bad() -> Color32 {
    palette::signals().bad.egui()
}
/// A panel's fill: the table's dark, nearly opaque.
const PANEL: Color32 = palette::PANEL;
const EDGE: Color32 = palette::EDGE.egui();

/// The egui font family of the title face.
const TITLE_FAMILY: &str = "title";

pub(super) fn plugin(app: &mut App) {
    app.add_systems(EguiPrimaryContextPass, (apply_style, install_title_font.run_if(resource_exists::<UiAssets>)));
}

/// egui fonts with a "title" family: `face` (if loaded) in front of the
/// default faces, which also cover symbols the title face lacks.
fn font_definitions(face: Option<Vec<u8>>) -> egui::FontDefinitions {
    let mut fonts = egui::FontDefinitions::default();
    let mut title = Vec::new();
    if let Some(bytes) = face {
        fonts.font_data.insert(TITLE_FAMILY.to_owned(), Arc::new(egui::FontData::from_owned(bytes)));
        title.push(TITLE_FAMILY.to_owned());
    }
    title.extend(fonts.families.get(&egui::FontFamily::Proportional).cloned().unwrap_or_default());
    fonts.families.insert(egui::FontFamily::Name(TITLE_FAMILY.into()), title);
    fonts
}

/// Hands the title face loaded by the loading screen (EB Garamond) to egui, once.
fn install_title_font(
    mut contexts: EguiContexts,
    assets: Res<UiAssets>,
    fonts: Res<Assets<Font>>,
    mut done: Local<bool>,
) -> Result {
    if *done {
        return Ok(());
    }
    let Some(font) = fonts.get(&assets.title_font) else {
        return Ok(());
    };
    let bytes: &[u8] = font.data.as_ref();
    contexts.ctx_mut()?.set_fonts(font_definitions(Some(bytes.to_vec())));
    *done = true;
    Ok(())
}

/// Installs visuals, and fonts with a provisional title family, on the first
/// egui pass (the title face itself arrives with the loaded assets).
fn apply_style(mut contexts: EguiContexts, mut done: Local<bool>) -> Result {
    if *done {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    ctx.set_fonts(font_definitions(None));

    let mut visuals = egui::Visuals::dark();
    visuals.override_text_color = Some(palette::TEXT.egui());
    visuals.widgets.inactive.weak_bg_fill = palette::WIDGET.egui();
    visuals.widgets.inactive.bg_stroke = Stroke::new(1.0, EDGE);
    visuals.widgets.hovered.weak_bg_fill = palette::WIDGET_HOVER.egui();
    // As wide as at rest: a button's frame grows with its stroke, and a
    // wider one on hover made the top bar 1 px taller under the pointer.
    visuals.widgets.hovered.bg_stroke = Stroke::new(1.0, GOLD);
    visuals.widgets.active.weak_bg_fill = palette::WIDGET_PRESSED.egui();
    // A blinking cursor in a focused text field would ask for frames forever.
    visuals.text_cursor.blink = false;
    ctx.set_visuals(visuals);
    ctx.all_styles_mut(|style| {
        style.spacing.button_padding = vec2(10.0, 5.0);
        style
            .text_styles
            .insert(egui::TextStyle::Body, egui::FontId::new(type_scale::BODY, egui::FontFamily::Proportional));
        style
            .text_styles
            .insert(egui::TextStyle::Button, egui::FontId::new(type_scale::BODY, egui::FontFamily::Proportional));
    });
    *done = true;
    Ok(())
}

/// The type scale: every size of text in the panels is one of these steps,
/// about 1.2 apart around the body's 15 points (a test keeps other sizes out
/// of the panels' code).
pub mod type_scale {
    /// Fine print: a count under a bar, a file's path.
    pub const FINE: f32 = 11.0;
    /// Secondary lines: what an Ability does, a hint.
    pub const SMALL: f32 = 12.5;
    /// Body text and buttons.
    pub const BODY: f32 = 15.0;
    /// A lead line, a Hero's name on a strip.
    pub const LEAD: f32 = 18.0;
    /// A panel's heading.
    pub const HEADING: f32 = 22.0;
    /// A window's title, the menu's buttons.
    pub const TITLE: f32 = 26.0;
    /// A screen's title.
    pub const DISPLAY: f32 = 36.0;
    /// A banner across the table ("Victory", "Pass to …").
    pub const BANNER: f32 = 45.0;
    /// The game's name on the menu.
    pub const HERO: f32 = 54.0;
}

/// Text in the title face.
pub fn title(text: &str, size: f32) -> egui::RichText {
    egui::RichText::new(text).font(egui::FontId::new(size, egui::FontFamily::Name(TITLE_FAMILY.into()))).color(GOLD)
}

/// The frame of a large floating panel (the main menu).
pub fn panel_frame() -> egui::Frame {
    egui::Frame::new()
        .fill(PANEL)
        .stroke(Stroke::new(2.0, EDGE))
        .corner_radius(10.0)
        .inner_margin(32.0)
        .shadow(egui::Shadow { offset: [0, 8], blur: 24, spread: 0, color: palette::BLACK.egui_alpha(160) })
}

/// The top of a box centred on the screen (an `Area` anchored at
/// `CENTER_TOP` with this offset): where its first height, centred, put it.
/// What it grows by later (the other tab's longer form, a line of error)
/// goes downward, so nothing above moves under the pointer; it moves only
/// to stay on a screen it would leave, or when the screen changes height.
pub fn steady_top(ctx: &egui::Context, area: egui::Id) -> f32 {
    const EDGE_ROOM: f32 = 8.0;
    let screen = ctx.content_rect();
    let key = area.with("steady_top");
    // Unknown before the box is first laid out: a guess, not kept.
    let Some(height) = ctx.memory(|m| m.area_rect(area)).map(|r| r.height()) else {
        return screen.height() * 0.15;
    };
    let centred = ((screen.height() - height) / 2.0).max(EDGE_ROOM);
    let kept: Option<(f32, f32)> = ctx.data(|d| d.get_temp(key));
    let top = match kept {
        Some((screen_h, top)) if screen_h == screen.height() && top + height <= screen.height() - EDGE_ROOM => top,
        _ => centred,
    };
    ctx.data_mut(|d| d.insert_temp(key, (screen.height(), top)));
    top
}

/// The frame of a small bar over the board.
pub fn bar_frame() -> egui::Frame {
    egui::Frame::new()
        .fill(PANEL)
        .stroke(Stroke::new(1.0, EDGE))
        .corner_radius(6.0)
        .inner_margin(egui::Margin::symmetric(12, 8))
}

/// A wide main-menu button in the title face.
pub fn menu_button(label: &str) -> egui::Button<'static> {
    egui::Button::new(title(label, type_scale::TITLE)).min_size(vec2(240.0, 42.0))
}

/// Draws one legend icon centred on a point.
type DrawIcon = fn(&egui::Painter, Pos2);

/// Icons beside their names, drawn with the same shapes as the board tokens.
pub fn legend(ui: &mut egui::Ui) {
    let rows: [(&str, DrawIcon); 10] = [
        ("Monster (spiked star)", icon_monster),
        ("Feature (eye)", icon_feature),
        ("Door (arch)", icon_door),
        ("Chest (box)", icon_chest),
        ("Campfire (flame)", icon_campfire),
        ("Stairs (steps)", icon_stairs),
        ("Rune node (diamond)", icon_rune),
        // Two lines: one that ran wider than the others widened the panel
        // and moved the board as the Legend opened.
        ("Secret Passage\n(dark arch)", icon_secret_passage),
        ("Warp Portal\n(rings)", icon_warp_portal),
        ("Lantern (heroes)", icon_lantern),
    ];
    for (label, draw) in rows {
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(vec2(30.0, 30.0), egui::Sense::hover());
            let painter = ui.painter_at(rect.expand(2.0));
            draw(&painter, rect.center());
            ui.label(label);
        });
    }
}

fn token(p: &egui::Painter, c: Pos2, face: Color32) {
    p.circle_filled(c, 14.0, palette::TOKEN_RIM.egui());
    p.circle_filled(c, 12.5, face);
}

const PARCHMENT: Color32 = palette::PARCHMENT.egui();

fn icon_monster(p: &egui::Painter, c: Pos2) {
    token(p, c, PARCHMENT);
    star(p, c, 10.0, 4.5, 7, palette::CRIMSON.egui());
}

fn icon_feature(p: &egui::Painter, c: Pos2) {
    token(p, c, PARCHMENT);
    let teal = palette::FEATURE_TEAL.egui();
    let eye: Vec<Pos2> = (0..24)
        .map(|i| {
            let a = i as f32 / 24.0 * std::f32::consts::TAU;
            pos2(c.x + 9.5 * a.cos(), c.y + 5.5 * a.sin())
        })
        .collect();
    p.add(Shape::convex_polygon(eye, teal, Stroke::NONE));
    p.circle_filled(c, 3.0, palette::FEATURE_PUPIL.egui());
}

fn icon_door(p: &egui::Painter, c: Pos2) {
    token(p, c, PARCHMENT);
    let wood = palette::DOOR_WOOD.egui();
    p.rect_filled(egui::Rect::from_min_max(pos2(c.x - 5.5, c.y - 2.0), pos2(c.x + 5.5, c.y + 8.0)), 0.0, wood);
    p.circle_filled(pos2(c.x, c.y - 2.0), 5.5, wood);
    p.circle_filled(pos2(c.x, c.y + 1.0), 1.5, palette::BLACK.egui());
}

fn icon_chest(p: &egui::Painter, c: Pos2) {
    token(p, c, PARCHMENT);
    p.rect_filled(egui::Rect::from_center_size(pos2(c.x, c.y + 2.0), vec2(16.0, 9.0)), 1.0, palette::CHEST_WOOD.egui());
    p.rect_filled(egui::Rect::from_center_size(pos2(c.x, c.y - 4.0), vec2(17.0, 5.0)), 1.0, palette::CHEST_LID.egui());
    p.rect_filled(egui::Rect::from_center_size(pos2(c.x, c.y - 0.5), vec2(3.0, 4.0)), 0.0, palette::CHEST_LOCK.egui());
}

fn icon_campfire(p: &egui::Painter, c: Pos2) {
    token(p, c, PARCHMENT);
    let log = Stroke::new(3.0, palette::DARK_WOOD.egui());
    p.line_segment([pos2(c.x - 8.0, c.y + 8.0), pos2(c.x + 8.0, c.y + 4.0)], log);
    p.line_segment([pos2(c.x - 8.0, c.y + 4.0), pos2(c.x + 8.0, c.y + 8.0)], log);
    let flame = |h: f32, w: f32, col| {
        Shape::convex_polygon(
            vec![pos2(c.x, c.y - h), pos2(c.x + w, c.y + 5.0), pos2(c.x - w, c.y + 5.0)],
            col,
            Stroke::NONE,
        )
    };
    p.add(flame(10.0, 6.5, palette::FLAME.egui()));
    p.add(flame(4.0, 3.5, palette::FLAME_CORE.egui()));
}

fn icon_stairs(p: &egui::Painter, c: Pos2) {
    token(p, c, PARCHMENT);
    for i in 0..4 {
        let w = 16.0 - i as f32 * 4.0;
        let y = c.y + 6.0 - i as f32 * 4.0;
        p.rect_filled(
            egui::Rect::from_min_size(pos2(c.x - 8.0, y - 1.5), vec2(w, 3.5)),
            0.0,
            palette::STAIR_STONE.egui(),
        );
    }
}

fn icon_rune(p: &egui::Painter, c: Pos2) {
    p.circle_filled(c, 11.0, palette::RUNE.egui_alpha(50));
    let d = |r: f32| vec![pos2(c.x, c.y - r), pos2(c.x + r, c.y), pos2(c.x, c.y + r), pos2(c.x - r, c.y)];
    p.add(Shape::convex_polygon(d(9.0), palette::RUNE.egui(), Stroke::NONE));
    p.add(Shape::convex_polygon(d(4.0), palette::RUNE_DEEP.egui(), Stroke::NONE));
}

fn icon_secret_passage(p: &egui::Painter, c: Pos2) {
    let (dark, violet) = (palette::PASSAGE_DARK.egui(), palette::PASSAGE_VIOLET.egui());
    p.circle_filled(pos2(c.x, c.y - 2.0), 8.0, dark);
    p.rect_filled(egui::Rect::from_min_max(pos2(c.x - 8.0, c.y - 2.0), pos2(c.x + 8.0, c.y + 9.0)), 0.0, dark);
    p.circle_filled(pos2(c.x, c.y - 1.0), 2.5, violet);
    let keyhole = vec![pos2(c.x, c.y), pos2(c.x + 2.5, c.y + 6.0), pos2(c.x - 2.5, c.y + 6.0)];
    p.add(Shape::convex_polygon(keyhole, violet, Stroke::NONE));
}

fn icon_warp_portal(p: &egui::Painter, c: Pos2) {
    for (i, tone) in palette::PORTAL_RINGS.iter().enumerate() {
        p.circle_filled(c, 11.0 - 2.75 * i as f32, tone.egui());
    }
}

fn icon_lantern(p: &egui::Painter, c: Pos2) {
    p.circle_filled(c, 15.0, palette::LANTERN_GLOW.egui_alpha(60));
    token(p, c, palette::LANTERN_BODY.egui());
    p.circle_stroke(pos2(c.x, c.y - 7.0), 3.0, Stroke::new(1.5, GOLD));
    p.rect_filled(
        egui::Rect::from_center_size(pos2(c.x, c.y + 1.0), vec2(9.0, 11.0)),
        3.0,
        palette::LANTERN_GOLD.egui(),
    );
    p.circle_filled(pos2(c.x, c.y + 1.0), 2.5, palette::LANTERN_LIGHT.egui());
}

/// A filled star from convex pieces (egui fills only convex polygons).
fn star(p: &egui::Painter, c: Pos2, outer: f32, inner: f32, points: usize, color: Color32) {
    let at = |i: usize, r: f32| {
        let a = i as f32 / (points * 2) as f32 * std::f32::consts::TAU - std::f32::consts::FRAC_PI_2;
        pos2(c.x + r * a.cos(), c.y + r * a.sin())
    };
    let inner_ring: Vec<Pos2> = (0..points).map(|k| at(2 * k + 1, inner)).collect();
    p.add(Shape::convex_polygon(inner_ring.clone(), color, Stroke::NONE));
    for k in 0..points {
        let tip = at(2 * k, outer);
        let left = inner_ring[(k + points - 1) % points];
        let right = inner_ring[k];
        p.add(Shape::convex_polygon(vec![left, tip, right], color, Stroke::NONE));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character outside ASCII in a string of the client's code (not
    /// a comment, a test or a log line), in the order found, with where.
    fn characters_written() -> Vec<(char, String)> {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = vec![src];
        let mut found = Vec::new();
        while let Some(path) = files.pop() {
            if path.is_dir() {
                files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            for (n, line) in std::fs::read_to_string(&path).unwrap().lines().enumerate() {
                // A file's tests, and what only the log or a failure says, are not shown.
                if line.trim_start().starts_with("#[cfg(test)]") {
                    break;
                }
                if ["info!(", "debug!(", "warn!(", "error!(", "panic!(", "expect("].iter().any(|m| line.contains(m)) {
                    continue;
                }
                let code = line.split("//").next().unwrap_or("");
                // Inside quotes: every other piece between two '"'.
                for piece in code.split('"').skip(1).step_by(2) {
                    for c in piece.chars().filter(|c| !c.is_ascii() && *c != '\u{a0}') {
                        found.push((c, format!("{}:{}", path.display(), n + 1)));
                    }
                }
            }
        }
        found
    }

    /// A tried game showed "Other choices (2) ☐": a character no font of
    /// the panels has. Every character the client's strings write has a
    /// glyph in the panels' faces (the body's and the title's, each with
    /// egui's fallbacks).
    #[test]
    fn every_character_the_panels_write_has_a_glyph() {
        let garamond =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/fonts/EBGaramond12-Regular.otf");
        let ctx = egui::Context::default();
        ctx.set_fonts(font_definitions(Some(std::fs::read(garamond).unwrap())));
        ctx.run_ui(egui::RawInput::default(), |_| {}).textures_delta.clear();
        let written = characters_written();
        assert!(written.iter().any(|(c, _)| *c == '⟲'), "the scan finds the banner's Undo");
        for family in [egui::FontFamily::Proportional, egui::FontFamily::Name(TITLE_FAMILY.into())] {
            // The faces' own character maps: egui's has_glyph says no for any
            // character of the face that also draws the replacement box.
            let known = ctx.fonts_mut(|f| f.fonts.font(&family).characters().clone());
            let missing: Vec<String> = written
                .iter()
                .filter(|(c, _)| !known.contains_key(c))
                .map(|(c, at)| format!("{c:?} (U+{:04X}) at {at}", *c as u32))
                .collect();
            assert!(missing.is_empty(), "no glyph in {family:?}: {missing:#?}");
        }
    }
}
