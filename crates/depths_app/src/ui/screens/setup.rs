//! New Game: choose 1–3 Heroes (standard or alternate mat), the starting
//! Ecology, the book's variants and an optional seed.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use depths_rules::{Ecology, GameOptions, Variants};

use crate::{
    game::hotseat::Players,
    game::session::{SetupNotice, StartGame},
    game::{flow::MenuAction, screen::Screen},
    theme::style,
};

/// The form's state.
#[derive(Resource, Debug, Clone)]
pub struct SetupForm {
    /// Per Hero (Bren, Sil, Ava): chosen, alternate mat.
    pub heroes: [(bool, bool); 3],
    pub start: Ecology,
    pub variants: Variants,
    pub single_classed: bool,
    pub seed: String,
    /// How many players sit at the table (1–3), and their names.
    pub player_count: usize,
    pub player_names: [String; 3],
    /// Per Hero (Bren, Sil, Ava): the player who plays it.
    pub owners: [usize; 3],
    /// Per Hero (Bren, Sil, Ava): a Companion plays it for its owner.
    pub companions: [bool; 3],
    /// A "pass to …" screen between players.
    pub curtain: bool,
}

impl Default for SetupForm {
    fn default() -> Self {
        SetupForm {
            heroes: [(true, false), (true, false), (false, false)],
            start: Ecology::Ruins,
            variants: Variants::default(),
            single_classed: false,
            seed: String::new(),
            player_count: 1,
            // Blank: the field shows "Player N" as a hint, and that is the name if left so.
            player_names: Default::default(),
            owners: [0, 1, 2],
            companions: [false; 3],
            // Open information: no curtain unless the players want one.
            curtain: false,
        }
    }
}

/// Id, name and class of each Hero on offer.
const HEROES: [(&str, &str, &str); 3] =
    [("bren", "Bren", "Fighter"), ("sil", "Sil", "Wizard"), ("ava", "Ava", "Rogue")];

impl SetupForm {
    /// The options for `Game::new`, or why they are not ready.
    pub fn options(&self) -> Result<GameOptions, String> {
        let heroes: Vec<String> = HEROES
            .iter()
            .zip(self.heroes)
            .filter(|(_, (on, _))| *on)
            .map(|((id, _, _), (_, alt))| if alt { format!("{id}_alt") } else { id.to_string() })
            .collect();
        if heroes.is_empty() {
            return Err("Choose at least one Hero.".into());
        }
        let seed = match self.seed.trim() {
            "" => crate::game::session::clock_seed(),
            s => s.parse().map_err(|_| format!("The seed must be a whole number, not {s:?}."))?,
        };
        self.players()?;
        Ok(GameOptions {
            heroes,
            start: self.start,
            variants: self.variants,
            single_classed: self.single_classed,
            seed,
        })
    }
}

impl SetupForm {
    /// Player `p`'s name as typed, or "Player N" when the field is blank.
    pub fn player_name(&self, p: usize) -> String {
        let typed = self.player_names.get(p).map_or("", |s| s.trim());
        if typed.is_empty() { format!("Player {}", p + 1) } else { typed.to_owned() }
    }

    /// The players and which Heroes they own (in the game's Hero order), or
    /// why they are not ready.
    pub fn players(&self) -> Result<Players, String> {
        let n = self.player_count.clamp(1, 3);
        let names: Vec<String> = (0..n).map(|p| self.player_name(p)).collect();
        if let Some(p) = (1..n).find(|&p| names[..p].contains(&names[p])) {
            return Err(format!("Two players are called {}: give one another name.", names[p]));
        }
        let owners: Vec<usize> = (0..3).filter(|i| self.heroes[*i].0).map(|i| self.owners[i].min(n - 1)).collect();
        let companions: Vec<bool> = (0..3).filter(|i| self.heroes[*i].0).map(|i| self.companions[i]).collect();
        if let Some(p) = (0..n).find(|p| !owners.contains(p)) {
            return Err(format!("{} has no Hero: give them one, or seat fewer players.", names[p]));
        }
        Ok(Players { names, owners, curtain: self.curtain, companions })
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SetupForm>();
    // `--seed N` fills in the seed.
    app.add_systems(
        OnEnter(Screen::Setup),
        |mut form: ResMut<SetupForm>,
         options: Res<crate::game::cli::Options>,
         settings: Option<Res<crate::game::settings::Settings>>| {
            // The curtain as the players last chose it (⚙ Settings).
            if let Some(settings) = settings {
                form.curtain = settings.curtain;
            }
            if form.seed.is_empty()
                && let Some(seed) = options.seed
            {
                form.seed = seed.to_string();
            }
        },
    );
    app.add_systems(EguiPrimaryContextPass, setup_ui.run_if(in_state(Screen::Setup)));
}

fn setup_ui(
    mut commands: Commands,
    mut contexts: EguiContexts,
    mut form: ResMut<SetupForm>,
    notice: Res<SetupNotice>,
    mut starts: MessageWriter<StartGame>,
    mut menu: MessageWriter<MenuAction>,
    icons: Option<Res<crate::theme::icons::Icons>>,
    content: Option<Res<crate::game::session::GameContent>>,
    mut settings: Option<ResMut<crate::game::settings::Settings>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let curtain_was = form.curtain;
    // The form scrolls when it is taller than the window (two or three
    // players, 150 % UI scale); Start and Back stay in sight below it.
    let room = ctx.content_rect().height() - 150.0;
    // Centred once, then grown downward: nothing above moves under the pointer.
    let top = style::steady_top(ctx, egui::Id::new("setup"));
    egui::Area::new(egui::Id::new("setup")).anchor(egui::Align2::CENTER_TOP, [0.0, top]).show(ctx, |ui| {
        style::panel_frame().show(ui, |ui| {
            // The width is the frame's; the scroll bar takes its share inside.
            ui.set_width(640.0);
            egui::ScrollArea::vertical().auto_shrink([false, true]).max_height(room).min_scrolled_height(room).show(
                ui,
                |ui| {
                    ui.set_width(ui.available_width() - 24.0);
                    ui.label(style::title("New Game", style::type_scale::DISPLAY));
                    ui.add_space(8.0);
                    ui.label(style::title("Heroes", style::type_scale::HEADING));
                    for (i, (_, name, class)) in HEROES.iter().enumerate() {
                        // The mat chosen: the standard one or the alternate.
                        let mat = content.as_ref().and_then(|c| {
                            let id =
                                if form.heroes[i].1 { format!("{}_alt", HEROES[i].0) } else { HEROES[i].0.to_owned() };
                            c.0.heroes.iter().find(|h| h.id == id).cloned()
                        });
                        ui.horizontal(|ui| {
                            if let Some(icons) = &icons {
                                icons.show(ui, "classes", &class.to_lowercase(), 20.0, style::GOLD);
                            }
                            ui.checkbox(&mut form.heroes[i].0, format!("{name}, {class}"))
                                .on_hover_text(hero_rules(mat.as_ref()));
                            ui.add_enabled_ui(form.heroes[i].0, |ui| {
                                ui.radio_value(&mut form.heroes[i].1, false, "standard mat");
                                ui.radio_value(&mut form.heroes[i].1, true, "alternate mat (multi-classed)");
                                ui.checkbox(&mut form.companions[i], "Companion").on_hover_text(
                                    "A Companion plays this Hero: its Combat cards, pairs, Abilities, Level Up \
                             choices and its share of Exploring turns. Take the seat back any time on the Hero mat",
                                );
                            });
                        });
                        ui.label(
                            egui::RichText::new(hero_blurb(class, mat.as_ref()))
                                .size(style::type_scale::SMALL)
                                .color(style::MUTED),
                        )
                        .on_hover_text(hero_rules(mat.as_ref()));
                    }
                    ui.checkbox(&mut form.single_classed, "Alternate Heroes use only their Primary Class");
                    ui.add_space(8.0);
                    ui.label(style::title("Players", style::type_scale::HEADING));
                    ui.horizontal(|ui| {
                        ui.label("At the table:");
                        for n in 1..=3 {
                            ui.radio_value(&mut form.player_count, n, n.to_string());
                        }
                        ui.add_enabled_ui(form.player_count > 1, |ui| {
                            ui.checkbox(&mut form.curtain, "\"Pass to …\" screen between players").on_hover_text(
                                "Off: everything is open, as at a real table. On: when the table changes hands, \
                             the player who acted presses \"Pass to …\" and the next one clicks to see it",
                            );
                        });
                        // Remembered, as in ⚙ Settings: the next New Game opens with it.
                        if form.curtain != curtain_was
                            && let Some(settings) = settings.as_mut()
                        {
                            settings.curtain = form.curtain;
                            let _ = settings.write();
                        }
                    });
                    let n = form.player_count.clamp(1, 3);
                    ui.horizontal(|ui| {
                        for p in 0..n {
                            let hint = format!("Player {}", p + 1);
                            ui.add(
                                egui::TextEdit::singleline(&mut form.player_names[p])
                                    .char_limit(depths_seats::table_check::MAX_NAME)
                                    .hint_text(hint)
                                    .desired_width(140.0),
                            );
                        }
                    });
                    if n > 1 {
                        for (i, (_, hero, _)) in HEROES.iter().enumerate() {
                            if !form.heroes[i].0 {
                                continue;
                            }
                            ui.horizontal(|ui| {
                                ui.label(format!("{hero} is played by"));
                                // A seat beyond the players shows (and is) the last player's,
                                // as the game seats it: with no radio marked it read as no one's.
                                form.owners[i] = form.owners[i].min(n - 1);
                                for p in 0..n {
                                    let name = form.player_name(p);
                                    ui.radio_value(&mut form.owners[i], p, name);
                                }
                            });
                        }
                    }
                    ui.add_space(8.0);
                    ui.label(style::title("Starting Ecology", style::type_scale::HEADING));
                    ui.horizontal(|ui| {
                        for e in Ecology::ALL {
                            ui.radio_value(&mut form.start, e, e.name());
                        }
                    });
                    ui.add_space(8.0);
                    ui.label(style::title("Variants", style::type_scale::HEADING));
                    ui.columns(2, |cols| {
                        // Each variant with what it changes, in the book's words.
                        let mut rows = crate::game::words::variants_in_words(&mut form.variants).into_iter();
                        cols[0].label(egui::RichText::new("Harder").color(style::MUTED));
                        for (on, label, what) in rows.by_ref().take(crate::game::words::HARDER_VARIANTS) {
                            variant(&mut cols[0], on, label, what);
                        }
                        cols[1].label(egui::RichText::new("Easier").color(style::MUTED));
                        for (on, label, what) in rows {
                            variant(&mut cols[1], on, label, what);
                        }
                    });
                    ui.add_space(8.0);
                    ui.horizontal(|ui| {
                        ui.label("Seed (blank = random):");
                        ui.text_edit_singleline(&mut form.seed);
                    });
                },
            );
            ui.add_space(12.0);
            let options = form.options();
            ui.horizontal(|ui| {
                if ui.add_enabled(options.is_ok(), style::menu_button("Start")).clicked()
                    && let Ok(o) = &options
                    && let Ok(p) = form.players()
                {
                    commands.insert_resource(p);
                    starts.write(StartGame(o.clone()));
                }
                if ui.button("Back").clicked() {
                    menu.write(MenuAction::BackToMenu);
                }
            });
            if let Err(e) = &options {
                ui.label(egui::RichText::new(e).color(style::notice()));
            }
            if let Some(e) = &notice.0 {
                ui.label(egui::RichText::new(e).color(style::notice()));
            }
        });
    });
    Ok(())
}

/// One line on a Hero for the setup screen: starting Health, class and the
/// Abilities printed on the mat (their rules on hover) — from the content, so
/// it is always what the game does.
fn hero_blurb(class: &str, mat: Option<&depths_rules::HeroMat>) -> String {
    let Some(m) = mat else { return class.to_owned() };
    let second = m.secondary_class.map_or(String::new(), |c| format!(" and {}", c.name()));
    let abilities: Vec<&str> = m.abilities.iter().map(|a| a.name.as_str()).collect();
    format!("{} Health at level 1 · {class}{second} · starts with {}", m.max_health[0], abilities.join(" and "))
}

/// The mat's Abilities in full, for the hover.
fn hero_rules(mat: Option<&depths_rules::HeroMat>) -> String {
    mat.map_or(String::new(), |m| m.abilities.iter().map(|a| a.text()).collect::<Vec<_>>().join("\n"))
}

/// A variant's checkbox with what it changes in one line under it.
fn variant(ui: &mut egui::Ui, on: &mut bool, label: &str, what: &str) {
    ui.checkbox(on, label);
    // Indented under the box, wrapped to the column.
    ui.indent(label, |ui| ui.label(egui::RichText::new(what).size(style::type_scale::SMALL).color(style::MUTED)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_names_become_player_n_and_two_alike_are_refused() {
        let mut form = SetupForm { player_count: 2, ..SetupForm::default() };
        form.owners = [0, 1, 0];
        form.player_names[1] = "  Bo ".into();
        let players = form.players().unwrap();
        assert_eq!(players.names, vec!["Player 1".to_owned(), "Bo".to_owned()]);
        form.player_names[0] = "Bo".into();
        let err = form.players().unwrap_err();
        assert!(err.contains("Two players are called Bo"), "{err}");
    }

    #[test]
    fn companion_seats_follow_the_heroes_chosen() {
        let mut form = SetupForm { heroes: [(true, false), (false, false), (true, false)], ..SetupForm::default() };
        form.companions = [false, true, true];
        let players = form.players().unwrap();
        assert_eq!(players.companions, vec![false, true], "Bren plays herself, Ava is a Companion");
        assert!(players.is_companion(1) && !players.is_companion(0));
    }
}
