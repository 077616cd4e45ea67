//! The rules reference (F1): the rulebook's sections and glossary, searchable,
//! and a sheet of keyboard shortcuts (F2 or "?"). Also opened by Menu → Rules.
//!
//! The text is the project's public rulebook, shipped as
//! `assets/rules/RULEBOOK.txt` and compiled in, so the reference works even
//! before (or without) the asset folder. Sections are cut at the headings the
//! rulebook's own table of contents names, in its order.

use std::sync::OnceLock;

use bevy::{input::keyboard::KeyboardInput, prelude::*};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui, input::egui_wants_any_keyboard_input};

use crate::{PlaySystems, game::play_phase::PlayPhase, theme::style};

/// The rulebook as the project ships it.
pub const RULEBOOK: &str = include_str!("../../../../assets/rules/RULEBOOK.txt");

/// One section of the rulebook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    pub title: String,
    /// Nesting in the table of contents: 0 for a chapter, 1 for a section.
    pub depth: u8,
    pub body: String,
}

/// One glossary entry: "Term - meaning".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    pub term: String,
    pub meaning: String,
}

/// The rulebook's sections, in order.
pub fn sections() -> &'static [Section] {
    static SECTIONS: OnceLock<Vec<Section>> = OnceLock::new();
    SECTIONS.get_or_init(|| parse_sections(RULEBOOK))
}

/// The glossary's entries, in the rulebook's order.
pub fn glossary() -> &'static [Term] {
    static TERMS: OnceLock<Vec<Term>> = OnceLock::new();
    TERMS.get_or_init(|| {
        sections()
            .iter()
            .find(|s| s.title == "Glossary")
            .map(|s| {
                s.body
                    .lines()
                    .filter_map(|l| l.split_once(" - "))
                    .map(|(t, m)| Term { term: t.trim().to_owned(), meaning: m.trim().to_owned() })
                    .collect()
            })
            .unwrap_or_default()
    })
}

/// Cuts `text` at the headings its table of contents lists ("• Title" lines,
/// indented for sub-sections), matched in order after the table.
pub fn parse_sections(text: &str) -> Vec<Section> {
    let lines: Vec<&str> = text.lines().collect();
    let mut toc: Vec<(String, u8)> = Vec::new();
    let mut i = 0;
    // The table of contents: the first run of bullet lines.
    while i < lines.len() && !lines[i].trim_start().starts_with('•') {
        i += 1;
    }
    while i < lines.len() {
        let l = lines[i];
        let t = l.trim_start();
        if let Some(title) = t.strip_prefix('•') {
            let depth = u8::from(l.len() - t.len() > 0);
            toc.push((title.trim().to_owned(), depth));
        } else if !t.is_empty() {
            break;
        }
        i += 1;
    }
    let mut out: Vec<Section> = Vec::new();
    let mut next = 0;
    let blank = |j: usize| lines.get(j).is_none_or(|l| l.trim().is_empty());
    for (j, l) in lines.iter().enumerate().skip(i) {
        // A heading is a paragraph of its own (not an item of a list); one
        // the text spells differently is skipped, not fatal.
        let alone = blank(j - 1) && blank(j + 1);
        if let Some(k) = (next..toc.len().min(next + 4)).find(|k| alone && l.trim() == toc[*k].0) {
            out.push(Section { title: toc[k].0.clone(), depth: toc[k].1, body: String::new() });
            next = k + 1;
        } else if let Some(s) = out.last_mut() {
            s.body.push_str(l);
            s.body.push('\n');
        }
    }
    for s in &mut out {
        s.body = s.body.trim().to_owned();
    }
    out
}

/// The indices of the sections whose title or text contains every word of `query`.
pub fn matching_sections(query: &str) -> Vec<usize> {
    let words = words(query);
    sections()
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            let hay = format!("{}\n{}", s.title, s.body).to_lowercase();
            words.iter().all(|w| hay.contains(w.as_str()))
        })
        .map(|(i, _)| i)
        .collect()
}

/// The glossary entries whose term or meaning contains every word of `query`.
pub fn matching_terms(query: &str) -> Vec<&'static Term> {
    let words = words(query);
    glossary()
        .iter()
        .filter(|t| {
            let hay = format!("{} {}", t.term, t.meaning).to_lowercase();
            words.iter().all(|w| hay.contains(w.as_str()))
        })
        .collect()
}

fn words(query: &str) -> Vec<String> {
    query.split_whitespace().map(str::to_lowercase).collect()
}

/// The keyboard shortcuts, for the sheet.
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("F1", "Rules reference (search the rulebook and glossary)"),
    ("F2 or ?", "This sheet of shortcuts"),
    ("D", "Draw a map tile"),
    ("R / Shift+R", "Turn the tile in hand clockwise / back"),
    ("Right-click, wheel while dragging", "Turn the tile in hand"),
    ("Arrows, Enter", "Move the tile in hand over the board, place it"),
    ("Esc", "Tile back to the tray; close this window or Settings; leave Statistics"),
    ("Ctrl+Z", "Take back the last move that revealed nothing (a card played, a pair chosen, a tile placed, …)"),
    ("Ctrl+Shift+Z / Ctrl+Y", "Make again the move just taken back"),
    ("Drag, wheel", "Pan, zoom the board"),
    ("Arrows (no tile in hand)", "Pan the board"),
    ("F or Home", "Fit the map on screen"),
    ("Ctrl+S", "Save the game"),
    ("F11", "Fullscreen on or off (also in Settings)"),
    (
        "1 – 9",
        "In Combat: the card, pair or individual on the table with that gold number; else the button marked with it",
    ),
    ("Drag a card", "In Combat: play a card from a hand by dropping it on the table"),
    ("E", "In Combat: End round (or End turn, when one Hero may end it); no number key ever does"),
    ("H", "Hint: what the careful bot would do now, and why"),
    ("Space", "Put a revealed card away"),
    ("Enter", "Lift the \"pass to\" curtain (when it is your turn)"),
];

/// Which page of the reference window is up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tab {
    #[default]
    Rulebook,
    Glossary,
    Shortcuts,
}

/// The reference window's state.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct RulesWindow {
    pub open: bool,
    pub tab: Tab,
    pub query: String,
    /// The section shown (an index into [`sections`]).
    pub selected: usize,
    /// Put the keyboard in the search box on the next frame (just opened).
    pub focus_search: bool,
}

/// Open (or close, if it is already showing) the reference at `Tab`.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToggleRules(pub Tab);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<RulesWindow>();
    app.add_message::<ToggleRules>();
    app.add_systems(Update, (function_keys, toggle_rules).chain().in_set(PlaySystems::Input));
}

/// The window (needs egui).
pub(super) fn desktop_plugin(app: &mut App) {
    app.add_systems(Update, question_mark.run_if(not(egui_wants_any_keyboard_input)).in_set(PlaySystems::Input));
    app.add_systems(EguiPrimaryContextPass, rules_ui.run_if(|w: Res<RulesWindow>| w.open));
}

/// F1 and F2 work everywhere, even while typing in the search box.
fn function_keys(keys: Option<Res<ButtonInput<KeyCode>>>, mut toggles: MessageWriter<ToggleRules>) {
    let Some(keys) = keys else { return };
    if keys.just_pressed(KeyCode::F1) {
        toggles.write(ToggleRules(Tab::Rulebook));
    }
    if keys.just_pressed(KeyCode::F2) {
        toggles.write(ToggleRules(Tab::Shortcuts));
    }
}

/// "?" (whatever key makes it) opens the shortcuts, unless a text field has the keyboard.
fn question_mark(mut input: MessageReader<KeyboardInput>, mut toggles: MessageWriter<ToggleRules>) {
    for k in input.read() {
        if k.state.is_pressed()
            && let bevy::input::keyboard::Key::Character(c) = &k.logical_key
            && c.as_str() == "?"
        {
            toggles.write(ToggleRules(Tab::Shortcuts));
        }
    }
}

/// The rulebook's section for where play stands.
pub fn section_for(phase: PlayPhase) -> Option<usize> {
    let title = match phase {
        PlayPhase::Setup => "Game Setup",
        PlayPhase::Exploring => "Exploring",
        PlayPhase::Encountering => "Encountering",
        PlayPhase::Combat(_) => "Combat",
        PlayPhase::LevelUp => "Level Up",
        PlayPhase::Passage => "Passage",
        PlayPhase::Over => return None,
    };
    sections().iter().position(|s| s.title.to_lowercase().starts_with(&title.to_lowercase()))
}

fn toggle_rules(
    mut toggles: MessageReader<ToggleRules>,
    mut window: ResMut<RulesWindow>,
    phase: Option<Res<State<PlayPhase>>>,
) {
    for ToggleRules(tab) in toggles.read() {
        if window.open && window.tab == *tab {
            window.open = false;
        } else {
            window.open = true;
            window.tab = *tab;
            window.focus_search = true;
            // "The rules reference opens at the section for what is on screen."
            if *tab == Tab::Rulebook
                && window.query.is_empty()
                && let Some(i) = phase.as_ref().and_then(|t| section_for(*t.get()))
            {
                window.selected = i;
            }
        }
    }
}

fn rules_ui(mut contexts: EguiContexts, mut window: ResMut<RulesWindow>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut open = window.open;
    let w = &mut *window;
    egui::Window::new("Rules reference")
        .id(egui::Id::new("rules_reference"))
        .open(&mut open)
        .default_size([760.0, 560.0])
        // Never wider or taller than the window: at 150 % on 1280x800 it was.
        .max_size(ctx.content_rect().size() - egui::vec2(32.0, 32.0))
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(true)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.selectable_value(&mut w.tab, Tab::Rulebook, "Rulebook (F1)");
                ui.selectable_value(&mut w.tab, Tab::Glossary, "Glossary");
                ui.selectable_value(&mut w.tab, Tab::Shortcuts, "Shortcuts (F2, ?)");
                if w.tab != Tab::Shortcuts {
                    ui.separator();
                    ui.label("🔍");
                    let search =
                        ui.add(egui::TextEdit::singleline(&mut w.query).hint_text("search").desired_width(200.0));
                    if std::mem::take(&mut w.focus_search) {
                        search.request_focus();
                    }
                    if !w.query.is_empty() && ui.small_button("✖").clicked() {
                        w.query.clear();
                    }
                }
            });
            ui.separator();
            match w.tab {
                Tab::Rulebook => rulebook_page(ui, w),
                Tab::Glossary => glossary_page(ui, &w.query),
                Tab::Shortcuts => shortcuts_page(ui),
            }
        });
    if ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
        open = false;
    }
    window.open = open;
    Ok(())
}

fn rulebook_page(ui: &mut egui::Ui, w: &mut RulesWindow) {
    let found = matching_sections(&w.query);
    if !found.is_empty() && !found.contains(&w.selected) {
        w.selected = found[0];
    }
    let height = ui.available_height().max(360.0);
    ui.horizontal_top(|ui| {
        ui.vertical(|ui| {
            ui.set_width(230.0);
            ui.label(
                egui::RichText::new(format!("{} sections", found.len()))
                    .size(style::type_scale::SMALL)
                    .color(style::MUTED),
            );
            egui::ScrollArea::vertical().id_salt("rules_toc").max_height(height - 20.0).show(ui, |ui| {
                for i in &found {
                    let s = &sections()[*i];
                    let indent = if s.depth > 0 { "    " } else { "" };
                    let label = egui::RichText::new(format!("{indent}{}", s.title)).size(style::type_scale::BODY);
                    let label = if s.depth == 0 { label.strong() } else { label };
                    if ui.selectable_label(w.selected == *i, label).clicked() {
                        w.selected = *i;
                    }
                }
            });
        });
        ui.separator();
        ui.vertical(|ui| {
            if found.is_empty() {
                ui.label(egui::RichText::new("Nothing in the rulebook matches.").color(style::notice()));
                return;
            }
            let Some(s) = sections().get(w.selected) else { return };
            ui.label(style::title(&s.title, style::type_scale::TITLE));
            egui::ScrollArea::vertical().id_salt(("rules_text", w.selected)).max_height(height - 40.0).show(ui, |ui| {
                let words = words(&w.query);
                for para in s.body.split("\n\n").filter(|p| !p.trim().is_empty()) {
                    let hit = !words.is_empty() && words.iter().any(|q| para.to_lowercase().contains(q.as_str()));
                    let text = egui::RichText::new(para.trim()).size(style::type_scale::BODY);
                    ui.label(if hit { text.background_color(crate::theme::palette::SEARCH_HIT.egui()) } else { text });
                    ui.add_space(4.0);
                }
            });
        });
    });
}

fn glossary_page(ui: &mut egui::Ui, query: &str) {
    let terms = matching_terms(query);
    if terms.is_empty() {
        ui.label(egui::RichText::new("No glossary entry matches.").color(style::notice()));
    }
    egui::ScrollArea::vertical().id_salt("glossary").show(ui, |ui| {
        for t in terms {
            ui.horizontal_wrapped(|ui| {
                ui.label(egui::RichText::new(&t.term).strong().color(style::GOLD));
                ui.label(&t.meaning);
            });
            ui.add_space(2.0);
        }
    });
}

/// The keys in a column of their own and what they do beside them, both
/// wrapped to the window (a grid of unwrapped lines made the window wider
/// than the screen at 150 %, its keys cut off at the left).
fn shortcuts_page(ui: &mut egui::Ui) {
    egui::ScrollArea::vertical().id_salt("shortcuts").show(ui, |ui| {
        let keys_width = (ui.available_width() * 0.38).min(300.0);
        for (keys, what) in SHORTCUTS {
            ui.horizontal_top(|ui| {
                let column = egui::Layout::top_down(egui::Align::Min);
                ui.allocate_ui_with_layout(egui::vec2(keys_width, 0.0), column, |ui| {
                    ui.set_width(keys_width);
                    ui.add(egui::Label::new(egui::RichText::new(*keys).strong().color(style::GOLD)).wrap());
                });
                ui.add(egui::Label::new(*what).wrap());
            });
            ui.add_space(3.0);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rulebook_is_cut_at_its_table_of_contents() {
        let s = sections();
        let titles: Vec<&str> = s.iter().map(|s| s.title.as_str()).collect();
        for want in [
            "Background",
            "1. Ecology Cards",
            "2. Ecology Map Tiles",
            "4. Hero Item Cards, Ability Cards and Item Action Cards",
            "Exploring",
            "Placing Map Tiles",
            "Combat",
            "5. Apply Damage",
            "Glossary",
            "Combat Sequence",
        ] {
            assert!(titles.contains(&want), "{want} missing from {titles:?}");
        }
        let placing = s.iter().find(|s| s.title == "Placing Map Tiles").unwrap();
        assert!(!placing.body.is_empty());
        assert!(glossary().iter().any(|t| t.term == "Block" && t.meaning.contains("match")));
    }

    #[test]
    fn search_filters_sections_and_terms() {
        let all = matching_sections("");
        assert_eq!(all.len(), sections().len());
        let found = matching_sections("dead end");
        assert!(!found.is_empty() && found.len() < all.len());
        assert!(matching_sections("xyzzy-nothing").is_empty());
        let terms = matching_terms("rune");
        assert!(terms.iter().any(|t| t.term == "Rune Pattern"));
        assert!(terms.len() < glossary().len());
    }
}
