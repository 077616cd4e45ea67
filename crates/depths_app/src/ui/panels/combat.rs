//! The Combat strip: a slim bar over the Combat mat with the round, what to
//! do in this step, the last round's summary, and the choices that are not
//! cards on the table (which Monster card each Hero fights, End turn, who
//! avoids Return Damage). The cards themselves lie on the table
//! (`crate::table`); Abilities are on the Hero mats.

use super::widgets::*;

pub(super) fn combat_strip(
    root: &mut egui::Ui,
    game: &Game,
    seats: &Seats,
    log: &GameLog,
    combat: &Combat,
    c: &mut Choices,
    pass: &mut MessageWriter<PassTable>,
    (forecasts, hint, guide): (Option<&crate::game::forecasts::Forecasts>, Option<&str>, Option<(&str, &str)>),
    offered: &[Action],
) -> StripSaid {
    let mut said = StripSaid::default();
    // A steady height: lines coming and going must not shift the table under
    // the pointer. Through a Round it keeps the height it began it with
    // (what comes in the Round scrolls); a new Round opens at the tallest
    // the strip's lines have been, so it grows only between Rounds. At most
    // 40 % of the window: past that it scrolls (three Heroes' assignments
    // at 150 % left the cards 145 points).
    let most = root.ctx().content_rect().height() * 0.4;
    // On whole points: an edge off egui's grid (1/32 point) drew its
    // "Unaligned" warning over the Monster cards in a development build.
    // The title and the choices the step asks for are never scrolled out of
    // sight (at 150 % the assignment's last buttons and a Return Damage
    // choice mid-Round were): the strip is at least as tall as they were
    // last frame, and only the lines under them scroll.
    let header = root.ctx().data(|d| d.get_temp::<f32>(egui::Id::new(STRIP_HEADER))).unwrap_or(0.0);
    let height = steady_height(root.ctx(), combat.round).min(most).max(header + LINE).round();
    let (mut content, mut inner, mut header_h) = (0.0, 0.0, 0.0);
    let panel = egui::Panel::top("combat_strip").exact_size(height).show(root, |ui| {
        let top = ui.cursor().min.y;
        {
            // One line: a step's words wrapping onto a second line mid-Round
            // pushed the strip's lines under its foot.
            ui.horizontal(|ui| {
                let title = if combat.step == CombatStep::AssignMonsters || combat.round == 0 {
                    "Combat — assigning Monsters".to_owned()
                } else {
                    format!("Combat — round {}", combat.round)
                };
                ui.label(style::title(&title, style::type_scale::HEADING));
                // A replay is watched: it told the watcher to drag a card.
                let replay = c.seated.is_some_and(|(delve, _)| delve.read_only);
                let what = if replay {
                    REPLAY_HINT.to_owned()
                } else {
                    crate::game::words::damage_waiting(game, &c.legal)
                        .unwrap_or_else(|| step_hint(combat.step).to_owned())
                };
                one_line(ui, egui::RichText::new(&what).color(style::GOLD), &what);
            });
            // The choices come first, right under the title, so the lines below
            // coming and going never move a button under the pointer. A step
            // with none (a Monster's turn to be placed) gives their row to the lines.
            let passes = passes(game, seats);
            // The Heroes who may end their turn now (End round needs two of them).
            let ends: Vec<u8> =
                (0..game.heroes.len() as u8).filter(|h| c.is_legal(&Action::EndTurn { hero: *h })).collect();
            let any = matches!(combat.step, CombatStep::AssignMonsters | CombatStep::AvoidReturnDamage)
                || !ends.is_empty()
                || !passes.is_empty();
            if any {
                // "Let Ann act now" keeps the row's right end: after the End
                // turn buttons it moved along the row as they changed.
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Min), |ui| {
                    pass_buttons(ui, seats, &passes, pass);
                    ui.with_layout(egui::Layout::left_to_right(egui::Align::Min).with_main_wrap(true), |ui| {
                        // "Other choices" first: at the row's end it moved right as End
                        // turn buttons came, and a click meant for it ended Bren's turn.
                        // Who avoids Return Damage is the step's only question, and
                        // its buttons need the row's room (they wrapped at 150 %).
                        let rest = other_moves(game, c, offered);
                        if combat.step != CombatStep::AvoidReturnDamage || !rest.is_empty() {
                            other_choices(ui, game, c, rest);
                        }
                        match combat.step {
                            CombatStep::AssignMonsters => {
                                c.all(ui, game, |a| matches!(a, Action::AssignMonsters { .. }))
                            }
                            CombatStep::AvoidReturnDamage => {
                                let choices: Vec<Action> = c
                                    .legal
                                    .iter()
                                    .filter(|a| matches!(a, Action::AvoidReturnDamage { .. }))
                                    .cloned()
                                    .collect();
                                match crate::game::words::avoidance_makes_no_difference(game, &choices) {
                                    Some(label) => {
                                        c.button(ui, choices[0].clone(), label);
                                    }
                                    None => {
                                        let labels = crate::game::words::avoidance_labels(game, &choices);
                                        for (a, label) in choices.into_iter().zip(labels) {
                                            c.button(ui, a, label);
                                        }
                                    }
                                }
                            }
                            _ => {}
                        }
                        // E ends the turn or Round; no number key ever does.
                        let e_key = ui.ctx().input(|i| i.key_pressed(egui::Key::E))
                            && ui.ctx().memory(|m| m.focused().is_none());
                        match crate::table::cards::end_round(&c.legal) {
                            Some(ends) => {
                                let names: Vec<&str> = ends
                                    .iter()
                                    .filter_map(crate::game::hotseat::action_hero)
                                    .map(|h| game.heroes[usize::from(h)].name())
                                    .collect();
                                // Online another seat's Heroes may still be at it: then it ends only these.
                                let label = if names.len() == combat.heroes.iter().filter(|h| !h.done).count() {
                                    "End round".to_owned()
                                } else {
                                    format!("End turn: {}", names.join(", "))
                                };
                                let hover =
                                    format!("Every pair is chosen: end the turn of {} at once", names.join(", "));
                                c.button_keyed(
                                    ui,
                                    ends,
                                    Some(("E", e_key)),
                                    egui::RichText::new(label).strong(),
                                    &hover,
                                );
                            }
                            None => {
                                // E is for the one Hero who may end a turn now; with several, a click says whose.
                                let one = ends.len() == 1;
                                // Every Hero of the fight keeps a slot while any may end a turn: a
                                // Hero who ended theirs leaves a greyed button, so the next Hero's
                                // does not slide under the pointer.
                                let slots: Vec<u8> =
                                    if ends.is_empty() { Vec::new() } else { (0..combat.heroes.len() as u8).collect() };
                                for h in slots {
                                    let name = game.heroes[usize::from(h)].name();
                                    if !ends.contains(&h) {
                                        let why = if combat.heroes[usize::from(h)].done {
                                            format!("{name} has ended this turn")
                                        } else {
                                            c.why_refused(&Action::EndTurn { hero: h }).unwrap_or_default()
                                        };
                                        ui.add_enabled(false, egui::Button::new(format!("{name}: end turn")))
                                            .on_disabled_hover_text(why);
                                        continue;
                                    }
                                    let label = egui::RichText::new(format!("{name}: end turn")).strong();
                                    let hover = format!("{name} does nothing more this Round");
                                    let end = vec![Action::EndTurn { hero: h }];
                                    c.button_keyed(ui, end, one.then_some(("E", e_key)), label, &hover);
                                }
                            }
                        }
                    });
                });
            } else {
                // The row keeps a button's height with no button in it: End
                // turn coming at the Resolve step pushed the lines under the
                // strip's foot.
                ui.horizontal_wrapped(|ui| {
                    other_choices(ui, game, c, other_moves(game, c, offered));
                    // An unseen End round button holds the row's height.
                    ui.add_visible(false, egui::Button::new(egui::RichText::new("End round").strong()));
                });
            }
        }
        header_h = ui.cursor().min.y - top;
        let scroll = egui::ScrollArea::vertical().auto_shrink([false, false]).max_height(ui.available_height());
        let shown = scroll.show(ui, |ui| {
            // The guided game's words, where they cover no card.
            if let Some(words) = guide {
                said.skip_guide = guide_words(ui, words);
            }
            // One line for the step's count: the cards each Hero plays while
            // they are played, then where each Hero's Damage is bound. Kept
            // through the Round, empty or not: a line coming mid-Round went
            // under the strip's foot, cut in half.
            let step_line = if combat.step == CombatStep::AvoidReturnDamage {
                // The Damage is dealt: where it was bound is past, and its
                // line's room goes to the choice's buttons.
                None
            } else if combat.step == CombatStep::PlayCards {
                let counts: Vec<String> = combat
                    .engagements
                    .iter()
                    .map(|e| {
                        let played = e.slots.iter().filter(|s| s.hero.is_some()).count();
                        format!("{} {played} of {}", game.heroes[usize::from(e.hero)].name(), e.hero_cards)
                    })
                    .collect();
                Some(format!("Cards played: {}", counts.join(" · ")))
            } else if combat.step == CombatStep::Resolve && combat.foes.iter().all(|f| f.is_defeated()) {
                // An Ability brought the last one down before the pairs: a
                // playtester took a Monster Hit from a Defeated Hound and
                // read it as a bug. "They still suffer any Direct Damage."
                Some(
                    "Every Monster is down, and the Round ends as usual: a Monster Hit still deals its Direct Damage"
                        .into(),
                )
            } else {
                // "All of a Hero's Damage must be applied to one Individual Monster."
                let bound: Vec<String> = combat
                    .heroes
                    .iter()
                    .enumerate()
                    .flat_map(|(h, round)| round.targets.iter().map(move |t| (h, *t)))
                    .filter_map(|(h, (f, i))| {
                        let foe = combat.foes.get(usize::from(f))?;
                        // A Monster of one individual binds nothing to choose
                        // ("…goes to one individual: Sil: Sentient Vapor").
                        if foe.individuals.len() < 2 {
                            return None;
                        }
                        let ind = foe.individuals.get(usize::from(i))?;
                        Some(format!("{}: {}", game.heroes.get(h)?.name(), ind.name))
                    })
                    .collect();
                Some(if bound.is_empty() {
                    String::new()
                } else {
                    format!("All of a Hero's Damage this Round goes to one individual: {}", bound.join(" · "))
                })
            };
            // A notice or the hint takes the step's line while it lasts: one
            // line, whole on hover, so the table never moves when either
            // comes or goes (a line kept blank for them took a 150 % table's
            // room from the cards in hand).
            let (line, color) = match (log.notice.as_deref(), hint, step_line) {
                (Some(n), ..) => (Some(n.to_owned()), style::notice()),
                // In words: the lamp's glyph stood taller than the line and pushed the
                // lines under it past the strip's foot.
                (None, Some(h), _) => (Some(format!("Hint: {h}")), style::GOLD),
                (None, None, line) => (line, style::MUTED),
            };
            // Kept before the first Round too, empty: the hint coming there
            // pushed the Monster cards 16 px down.
            if let Some(line) = line {
                kept_line(ui, &line, style::type_scale::SMALL, color);
            }
            fight_forecast(ui, game, forecasts);
            // The last round's totals in one line, its events one by one on hover.
            // Its line kept from the first Round: coming at the second it
            // moved the whole table 8 px.
            let summary = &log.rounds;
            if !summary.last.is_empty() {
                let text = format!("{} (hover: each step)", summary.headline());
                let text = egui::RichText::new(text).size(style::type_scale::SMALL).color(style::MUTED);
                one_line(ui, text, &summary.last.join("\n"));
            } else if combat.round >= 1 {
                kept_line(ui, "", style::type_scale::SMALL, style::MUTED);
            }
            // Room for the last line's descenders: "play", "expected damage"
            // were cut at the strip's foot by a point or two.
            ui.add_space(3.0);
        });
        (content, inner) = (shown.content_size.y, shown.inner_rect.height());
    });
    // The lines' height as the panel's: with its frame's margins (without
    // them the last line was cut by a few points).
    let content = (header_h + content + (panel.response.rect.height() - inner - header_h).max(0.0)).ceil();
    // Lines under the strip's foot that a Round's opening height should
    // have held (the steadiness check reads it); at its cap the strip
    // scrolls by design.
    let cut = if height < most.floor() { (content - height).max(0.0) } else { 0.0 };
    root.ctx().data_mut(|d| {
        d.insert_temp(egui::Id::new(STRIP_CUT), cut);
        d.insert_temp(egui::Id::new(STRIP_HEADER), header_h);
        let strip = d.get_temp_mut_or_default::<StripHeight>(egui::Id::new(STRIP_HEIGHT));
        if strip.round > 0 {
            strip.tallest = strip.tallest.max(content);
        }
        // The Round's first lines, all in sight: it opens at their height
        // (the Monsters' assignment and its forecast were cut in half),
        // taken over its first frames, before a player can reach it (the
        // very first frame lacked a few points of them).
        // Before the first Round nothing on the table is clicked (the
        // assignment's choices are the strip's own): it grows to a hint or a
        // notice coming (the hint's line was cut in half by its foot).
        if strip.opening > 0 || strip.round == 0 {
            strip.height = strip.height.max(content);
            strip.opening = strip.opening.saturating_sub(1);
        }
    });
    said
}

/// The guided game's words in the strip, and whether the player skipped
/// the guide. They keep the height of the longest words the guide may say
/// in a fight: a step's longer words coming mid-Round pushed the forecast
/// under the strip's foot, cut in half.
fn guide_words(ui: &mut egui::Ui, (title, text): (&str, &str)) -> bool {
    let job = |title: &str, text: &str, width: f32| {
        let mut job = egui::text::LayoutJob::default();
        // In the strip's small print: at the body's size its three lines at
        // 150 % took the room of the cards in hand.
        let font = egui::FontId::proportional(style::type_scale::SMALL);
        let part = |color| egui::TextFormat { font_id: font.clone(), color, ..Default::default() };
        job.append(&format!("Guide · {title}: "), 0.0, part(style::GOLD));
        job.append(text, 0.0, part(style::MUTED));
        job.wrap.max_width = width;
        job
    };
    ui.horizontal_top(|ui| {
        let skip = ui.small_button("Skip the guide").clicked();
        let width = ui.available_width();
        let tallest = crate::game::guide::fight_words()
            .map(|(t, x)| {
                let job = job(t, x, width);
                ui.ctx().fonts_mut(|f| f.layout_job(job)).size().y
            })
            .fold(0.0, f32::max);
        ui.allocate_ui(egui::vec2(width, tallest), |ui| {
            ui.set_min_height(tallest);
            ui.add(egui::Label::new(job(title, text, width)).wrap());
        });
        skip
    })
    .inner
}

/// The egui memory of how many points of the strip's lines lie under its
/// foot, cut, below its cap.
pub const STRIP_CUT: &str = "combat_strip_cut";
/// The egui memory of [`StripHeight`].
const STRIP_HEIGHT: &str = "combat_strip_height";
/// The egui memory of the height of the strip's title and choices.
const STRIP_HEADER: &str = "combat_strip_header";
/// One line of the strip's small print: the least left under its choices.
const LINE: f32 = 18.0;

/// The Combat strip's height (egui points): the one it holds through
/// `round`, the tallest its lines have been, and the frames left of the
/// Round's opening (its first lines then set the height).
#[derive(Clone, Copy, Debug, Default)]
struct StripHeight {
    round: u32,
    height: f32,
    tallest: f32,
    opening: u8,
}

/// The frames at a Round's opening whose lines set the strip's height.
const OPENING: u8 = 6;

/// The strip's least height: the title, a row of buttons and three lines.
const STRIP_LEAST: f32 = 118.0;

/// The height the strip holds in `round`: the one it had, until a new Round
/// opens at the tallest its lines have been in this Combat's Rounds, or at
/// its own first lines if they are taller. The Monsters' assignment (Round
/// 0, its buttons wrapping over lines) and earlier Combats do not count: a
/// strip held at their height took a third of a 150 % table with blank lines.
fn steady_height(ctx: &egui::Context, round: u32) -> f32 {
    ctx.data_mut(|d| {
        let strip = d.get_temp_mut_or_default::<StripHeight>(egui::Id::new(STRIP_HEIGHT));
        if strip.round != round || strip.height == 0.0 {
            let tallest = if round == 0 || round < strip.round { 0.0 } else { strip.tallest };
            let height = tallest.max(STRIP_LEAST);
            *strip = StripHeight { round, height, tallest, opening: OPENING };
        }
        strip.height
    })
}

/// Any legal move no card and no button offers, in a menu at the start of
/// the strip's row of choices: it covers nothing until the player opens it
/// (as a window over the table it hid the individuals' Health bars at 150 %).
fn other_choices(ui: &mut egui::Ui, game: &Game, c: &mut Choices, rest: Vec<Action>) {
    // Always there, greyed when empty, its words the same: as it came and
    // went (and its count changed its width) the End turn buttons after it
    // moved under the pointer.
    const LABEL: &str = "Other choices ⏷";
    if rest.is_empty() {
        ui.add_enabled(false, egui::Button::new(LABEL))
            .on_disabled_hover_text("No move now that the table and these buttons do not offer");
        return;
    }
    let count = crate::game::words::counted(rest.len() as u64, "more move", "more moves");
    ui.menu_button(LABEL, |ui| {
        for a in rest {
            let label = describe_action(game, &a);
            c.button(ui, a, label);
        }
    })
    .response
    .on_hover_text(format!("{count} than the table and these buttons offer"));
}

/// The legal moves neither the table nor the strip's own buttons offer.
fn other_moves(game: &Game, c: &Choices, offered: &[Action]) -> Vec<Action> {
    // Drawn before the row's own buttons, it leaves out what they offer (it
    // listed the six assignments a second time).
    c.unoffered(game, offered)
        .into_iter()
        .filter(|a| {
            !matches!(a, Action::AssignMonsters { .. } | Action::AvoidReturnDamage { .. } | Action::EndTurn { .. })
        })
        .collect()
}

/// What the strip's own buttons asked for.
#[derive(Default)]
pub(super) struct StripSaid {
    pub(super) skip_guide: bool,
}

/// The strip's words in a replay, where no one plays.
const REPLAY_HINT: &str = "A replay: the arrow keys step through it.";

/// What the players do in `step`, on the table.
pub fn step_hint(step: CombatStep) -> &'static str {
    match step {
        CombatStep::AssignMonsters => "Choose which Monster card each Hero fights.",
        // Short: the help line under the table says how in full (the
        // strip's line was cut at 150 % on 1366×768).
        CombatStep::PlayCards => "Play cards: drag one, click it or press its number.",
        CombatStep::PlaceMonsterCard => "Click the pair that takes the Monster's card.",
        CombatStep::Resolve => "Click a pair for each Hero, then End (E).",
        CombatStep::AssignDamage => "Click the individual on the Monster card that takes the damage.",
        CombatStep::AvoidReturnDamage => "Several Heroes defeated a Monster together: one avoids Return Damage.",
    }
}

/// Behind the curtain: the other players who may act too, with a button to
/// pass them the table now.
/// The players who may act too in a hot-seat Combat, each with their Heroes
/// not at the table now (online each player is at their own table: none).
fn passes(game: &Game, seats: &Seats) -> Vec<(usize, Vec<String>)> {
    if seats.seat.is_some() {
        return Vec::new();
    }
    let mine = seats.heroes_at_table(game);
    let all = crate::game::hotseat::players_to_act(game, &seats.players, &seats.turn);
    all.into_iter()
        .map(|(player, heroes)| {
            let elsewhere = heroes
                .iter()
                .filter(|h| mine.as_ref().is_some_and(|m| !m.contains(h)))
                .map(|h| game.heroes[usize::from(*h)].name().to_owned())
                .collect();
            (player, elsewhere)
        })
        .filter(|(_, elsewhere): &(usize, Vec<String>)| !elsewhere.is_empty())
        .collect()
}

fn pass_buttons(
    ui: &mut egui::Ui,
    seats: &Seats,
    passes: &[(usize, Vec<String>)],
    pass: &mut MessageWriter<PassTable>,
) {
    for (player, elsewhere) in passes {
        let name = seats.players.name(*player);
        let button = ui
            .button(format!("Let {name} act now"))
            .on_hover_text(format!("{} may act too: pass the table before you are done", elsewhere.join(" and ")));
        if button.clicked() {
            pass.write(PassTable(*player));
        }
    }
}

/// "Chance to win this fight: 62% ± 4 · expected damage: Bren 3.1, Sil 4.8".
fn fight_forecast(ui: &mut egui::Ui, game: &Game, forecasts: Option<&crate::game::forecasts::Forecasts>) {
    let line = |ui: &mut egui::Ui, text: &str| {
        ui.label(egui::RichText::new(text).size(style::type_scale::SMALL).color(style::MUTED));
    };
    // The line is kept while there is nothing to say yet: the forecast
    // coming in grew the strip (its first lines were cut, or the table moved).
    let Some(slot) = forecasts.map(|f| &f.fight) else { return line(ui, "") };
    let Some(e) = slot.latest.as_ref().filter(|e| crate::game::forecasts::steady(e) || !slot.busy()) else {
        let text = if slot.busy() {
            format!("Chance to win this fight: estimating…{}", crate::game::forecasts::was_text(slot))
        } else {
            String::new()
        };
        return line(ui, &text);
    };
    // While the players choose who avoids Return Damage, the expected damage
    // is that of the careful bot's choice, not theirs: it read "Bren 4.0,
    // Sil 0.0" and the choice made left Bren −0, Sil −1. Each choice's
    // button says what it leaves.
    let choosing = game.combat().is_some_and(|c| c.step == CombatStep::AvoidReturnDamage);
    let then = if choosing {
        "each choice says the Damage it leaves".to_owned()
    } else {
        let damage: Vec<String> =
            e.damage.iter().zip(&game.heroes).map(|(d, h)| format!("{} {:.1}", h.name(), d.value)).collect();
        format!("expected damage: {}", damage.join(", "))
    };
    let text =
        format!("Chance to win this fight with careful play: {} · {then}", crate::game::forecasts::chance_text(e));
    // One line, whole on hover: wrapped, its second half was cut by the strip's foot.
    let hover = format!("{text}\n\n{}", crate::game::forecasts::method_text(e));
    one_line(ui, egui::RichText::new(&text).size(style::type_scale::SMALL).color(style::MUTED), &hover);
}
