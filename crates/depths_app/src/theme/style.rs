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

// egui's names for the palette's panel colours (`theme::palette`).
pub const GOLD: Color32 = palette::TITLE_GOLD.egui();
pub const MUTED: Color32 = palette::MUTED.egui();
pub const NOTICE: Color32 = palette::NOTICE.egui();
pub const GOOD: Color32 = palette::GOOD.egui();
pub const BAD: Color32 = palette::BAD.egui();
/// A panel's fill: the table's dark, nearly opaque.
const PANEL: Color32 = Color32::from_rgba_premultiplied(0x1A, 0x15, 0x11, 0xF0);
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
    visuals.override_text_color = Some(Color32::from_rgb(0xE6, 0xDB, 0xC8));
    visuals.widgets.inactive.weak_bg_fill = Color32::from_rgb(0x3A, 0x2E, 0x22);
    visuals.widgets.inactive.bg_stroke = Stroke::new(1.0, EDGE);
    visuals.widgets.hovered.weak_bg_fill = Color32::from_rgb(0x5A, 0x44, 0x2C);
    visuals.widgets.hovered.bg_stroke = Stroke::new(1.5, GOLD);
    visuals.widgets.active.weak_bg_fill = Color32::from_rgb(0x72, 0x56, 0x34);
    // A blinking cursor in a focused text field would ask for frames forever.
    visuals.text_cursor.blink = false;
    ctx.set_visuals(visuals);
    ctx.all_styles_mut(|style| {
        style.spacing.button_padding = vec2(10.0, 5.0);
        style.text_styles.insert(egui::TextStyle::Body, egui::FontId::new(15.0, egui::FontFamily::Proportional));
        style.text_styles.insert(egui::TextStyle::Button, egui::FontId::new(16.0, egui::FontFamily::Proportional));
    });
    *done = true;
    Ok(())
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
        .shadow(egui::Shadow { offset: [0, 8], blur: 24, spread: 0, color: Color32::from_black_alpha(160) })
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
    egui::Button::new(title(label, 24.0)).min_size(vec2(240.0, 42.0))
}

/// Draws one legend icon centred on a point.
type DrawIcon = fn(&egui::Painter, Pos2);

/// Icons beside their names, drawn with the same shapes as the board tokens.
pub fn legend(ui: &mut egui::Ui) {
    let rows: [(&str, DrawIcon); 8] = [
        ("Monster (spiked star)", icon_monster),
        ("Feature (eye)", icon_feature),
        ("Door (arch)", icon_door),
        ("Chest (box)", icon_chest),
        ("Campfire (flame)", icon_campfire),
        ("Stairs (steps)", icon_stairs),
        ("Rune node (diamond)", icon_rune),
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
    p.circle_filled(c, 14.0, Color32::from_rgb(0x1E, 0x18, 0x12));
    p.circle_filled(c, 12.5, face);
}

const PARCHMENT: Color32 = palette::PARCHMENT.egui();

fn icon_monster(p: &egui::Painter, c: Pos2) {
    token(p, c, PARCHMENT);
    star(p, c, 10.0, 4.5, 7, Color32::from_rgb(0xB3, 0x26, 0x1E));
}

fn icon_feature(p: &egui::Painter, c: Pos2) {
    token(p, c, PARCHMENT);
    let teal = Color32::from_rgb(0x2A, 0x7F, 0x8F);
    let eye: Vec<Pos2> = (0..24)
        .map(|i| {
            let a = i as f32 / 24.0 * std::f32::consts::TAU;
            pos2(c.x + 9.5 * a.cos(), c.y + 5.5 * a.sin())
        })
        .collect();
    p.add(Shape::convex_polygon(eye, teal, Stroke::NONE));
    p.circle_filled(c, 3.0, Color32::from_rgb(0x10, 0x20, 0x24));
}

fn icon_door(p: &egui::Painter, c: Pos2) {
    token(p, c, PARCHMENT);
    let wood = Color32::from_rgb(0x7A, 0x4A, 0x22);
    p.rect_filled(egui::Rect::from_min_max(pos2(c.x - 5.5, c.y - 2.0), pos2(c.x + 5.5, c.y + 8.0)), 0.0, wood);
    p.circle_filled(pos2(c.x, c.y - 2.0), 5.5, wood);
    p.circle_filled(pos2(c.x, c.y + 1.0), 1.5, Color32::BLACK);
}

fn icon_chest(p: &egui::Painter, c: Pos2) {
    token(p, c, PARCHMENT);
    p.rect_filled(
        egui::Rect::from_center_size(pos2(c.x, c.y + 2.0), vec2(16.0, 9.0)),
        1.0,
        Color32::from_rgb(0x8A, 0x5A, 0x2B),
    );
    p.rect_filled(
        egui::Rect::from_center_size(pos2(c.x, c.y - 4.0), vec2(17.0, 5.0)),
        1.0,
        Color32::from_rgb(0x5E, 0x3A, 0x1C),
    );
    p.rect_filled(
        egui::Rect::from_center_size(pos2(c.x, c.y - 0.5), vec2(3.0, 4.0)),
        0.0,
        Color32::from_rgb(0xD4, 0xA0, 0x17),
    );
}

fn icon_campfire(p: &egui::Painter, c: Pos2) {
    token(p, c, PARCHMENT);
    let log = Stroke::new(3.0, Color32::from_rgb(0x5B, 0x3A, 0x1E));
    p.line_segment([pos2(c.x - 8.0, c.y + 8.0), pos2(c.x + 8.0, c.y + 4.0)], log);
    p.line_segment([pos2(c.x - 8.0, c.y + 4.0), pos2(c.x + 8.0, c.y + 8.0)], log);
    let flame = |h: f32, w: f32, col| {
        Shape::convex_polygon(
            vec![pos2(c.x, c.y - h), pos2(c.x + w, c.y + 5.0), pos2(c.x - w, c.y + 5.0)],
            col,
            Stroke::NONE,
        )
    };
    p.add(flame(10.0, 6.5, Color32::from_rgb(0xE8, 0x73, 0x1C)));
    p.add(flame(4.0, 3.5, Color32::from_rgb(0xFF, 0xD2, 0x3F)));
}

fn icon_stairs(p: &egui::Painter, c: Pos2) {
    token(p, c, PARCHMENT);
    for i in 0..4 {
        let w = 16.0 - i as f32 * 4.0;
        let y = c.y + 6.0 - i as f32 * 4.0;
        p.rect_filled(
            egui::Rect::from_min_size(pos2(c.x - 8.0, y - 1.5), vec2(w, 3.5)),
            0.0,
            Color32::from_rgb(0x55, 0x58, 0x5F),
        );
    }
}

fn icon_rune(p: &egui::Painter, c: Pos2) {
    p.circle_filled(c, 11.0, Color32::from_rgba_unmultiplied(0x6F, 0xE3, 0xFF, 50));
    let d = |r: f32| vec![pos2(c.x, c.y - r), pos2(c.x + r, c.y), pos2(c.x, c.y + r), pos2(c.x - r, c.y)];
    p.add(Shape::convex_polygon(d(9.0), Color32::from_rgb(0x6F, 0xE3, 0xFF), Stroke::NONE));
    p.add(Shape::convex_polygon(d(4.0), Color32::from_rgb(0x1B, 0x5F, 0x7A), Stroke::NONE));
}

fn icon_lantern(p: &egui::Painter, c: Pos2) {
    p.circle_filled(c, 15.0, Color32::from_rgba_unmultiplied(0xFF, 0xD8, 0x6B, 60));
    token(p, c, Color32::from_rgb(0x2D, 0x33, 0x40));
    p.circle_stroke(pos2(c.x, c.y - 7.0), 3.0, Stroke::new(1.5, GOLD));
    p.rect_filled(
        egui::Rect::from_center_size(pos2(c.x, c.y + 1.0), vec2(9.0, 11.0)),
        3.0,
        Color32::from_rgb(0xF2, 0xC1, 0x4E),
    );
    p.circle_filled(pos2(c.x, c.y + 1.0), 2.5, Color32::from_rgb(0xFF, 0xF6, 0xD5));
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
