//! The Hero Mats: name, class, level, Health, stored Power, hand, draw and
//! discard piles, Abilities with their activation, Items with equip / unequip.

use super::widgets::*;

pub(super) fn heroes_panel(
    ui: &mut egui::Ui,
    game: &Game,
    icons: &Icons,
    (health, stamp): (&crate::game::rules_events::HealthNews, (u64, u64)),
    c: &mut Choices,
) {
    ui.label(style::title("Heroes", style::type_scale::TITLE));
    let in_combat = matches!(game.phase(), Phase::Combat { .. });
    for (h, hero) in game.heroes.iter().enumerate() {
        let h = h as u8;
        // A mat in the Hero's class colours.
        let class_key = hero.mat.class.name().to_lowercase();
        let (body, edge) = crate::theme::palette::class_tones(&class_key);
        let mat = style::bar_frame()
            .fill(crate::theme::palette::mat_ground(body).egui())
            .stroke(egui::Stroke::new(1.5, edge.egui().gamma_multiply(0.6)));
        mat.show(ui, |ui| {
            ui.set_width(ui.available_width());
            let class = match hero.mat.secondary_class {
                Some(s) => format!("{} / {}", hero.mat.class.name(), s.name()),
                None => hero.mat.class.name().to_string(),
            };
            ui.horizontal(|ui| {
                portrait(ui, icons, &class_key, 34.0);
                // The name over the class and level, beside the portrait; the
                // seat box at the right end (in one row the class was cut
                // short at every size, or the box cut off at 150 %).
                ui.vertical(|ui| {
                    ui.spacing_mut().item_spacing.y = 0.0;
                    ui.horizontal(|ui| {
                        ui.label(style::title(hero.name(), style::type_scale::HEADING));
                        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                            // The seat: a Companion plays this Hero, or its owner does
                            // (not in a replay, where no one plays).
                            if let Some((delve, seats)) = c.seated
                                && !delve.read_only
                            {
                                let mut on = seats.players.is_companion(h);
                                let hint =
                                    if on { "Take this Hero's seat back" } else { "Let a Companion play this Hero" };
                                if ui.checkbox(&mut on, "Companion").on_hover_text(hint).changed() {
                                    c.seats_asked.push((h, on));
                                }
                            }
                        });
                    });
                    let class = format!("{class} · level {}", hero.level);
                    ui.add(
                        egui::Label::new(
                            egui::RichText::new(class).size(style::type_scale::SMALL).color(style::MUTED),
                        )
                        .truncate(),
                    );
                });
            });
            // Abilities usable now: in Combat, and while Exploring (unlocking
            // Doors, healing…), each with its cost and what it does.
            let usable: Vec<Action> = c
                .legal
                .iter()
                .filter(|a| matches!(a, Action::ActivateAbility { hero, .. } if *hero == h))
                .cloned()
                .collect();
            // What the Round's end will take: only while a Round is being
            // played (an Item's wound each Round is no news outside Combat).
            let (least, due) = if round_in_progress(game) { game.hero_damage_range(h) } else { (0, 0) };
            health_bar(ui, ("hero", h), hero.health, hero.max_health(), due, ui.available_width());
            // What the last action did to this Hero's Health (from its events)
            // and what is due, in one line.
            let change = health.change_of(h, hero.health, stamp);
            // The part of it that is Return Damage (a Hero Hit's): avoided if a Monster falls.
            let avoidable = due - least;
            // One line, kept through a Combat even when empty, and over an
            // Ability to use: a line coming and going (or wrapping) moved the
            // next Hero's Ability buttons, or a Drink's second "Use", under
            // the pointer.
            let line = crate::game::words::health_line(change, due, avoidable);
            if line.is_none() && (game.combat().is_some() || !usable.is_empty()) {
                ui.label(" ");
            }
            if let Some(text) = line {
                // Each part in its own colour: "+3 Health just now" was drawn
                // in the damage colour when damage was also due.
                let font = egui::TextStyle::Body.resolve(ui.style());
                let mut job = egui::text::LayoutJob::default();
                let parts: Vec<&str> = text.split(" · ").collect();
                let room = ui.available_width();
                let whole = parts_that_fit(&parts, |t| line_width(ui, t) <= room);
                for (i, part) in parts[..whole].iter().enumerate() {
                    if i > 0 {
                        job.append(" · ", 0.0, egui::TextFormat::simple(font.clone(), style::MUTED));
                    }
                    let gain = i == 0 && change > 0;
                    let color = if gain { good() } else { bad() };
                    job.append(part, 0.0, egui::TextFormat::simple(font.clone(), color));
                }
                let hover = format!(
                    "{text}.\n\nThe last action's change to this Hero's Health; in a Round, the Monsters' side of the pairs \
                     resolved so far (after Armor) that the Round's end takes. A Hero Hit's Return Damage is avoided when \
                     a Monster falls this Round: by every Hero if one Hero's Damage alone Defeated it, else by one of \
                     those who dealt it."
                );
                one_line(ui, job, &hover);
            }
            // One line however narrow the panel: the full words on hover. In
            // a Combat the hand and both piles lie on the table with their
            // counts: the mat says only what the table does not.
            let (stats, hover) = if in_combat {
                let stats = format!("Power {}", hero.stored_power.len());
                let hover = format!(
                    "{stats}: Power Cards stored.\nThe hand, the Draw Pile and the Discard Pile lie on the table, \
                     with their counts."
                );
                (stats, hover)
            } else {
                let stats = format!(
                    "Power {} · hand {} · draw {} · discard {}",
                    hero.stored_power.len(),
                    hero.hand.len(),
                    hero.draw.len(),
                    hero.discard.len()
                );
                let hover =
                    format!("{stats}\nPower Cards stored · Action Cards in hand · in the draw pile · in the discard pile");
                (stats, hover)
            };
            parts_line(ui, &stats, style::type_scale::SMALL, ui.visuals().text_color(), &hover);
            // The rows keep the tallest they have been this Combat: a target's
            // button leaving Bren's mat ("Brush Aside … not now") slid Sil's
            // mat, and her Force Bolt button, 47 px up under the pointer; kept
            // a Round only, Sil's mat still slid 116 px down at a new Round's
            // Resolve step.
            let fight = game.combat().map(|_| 0);
            keep_tallest(ui, egui::Id::new(("ability_height", h)), fight, |ui| {
                // One row per Ability: its name and cost, then a small button
                // per target, what it does under it. A row keeps its place while
                // its targets come and go, so the others do not move under the
                // pointer.
                // In a Combat a row stays once shown, greyed while it cannot be
                // used: the Warding Sigil's row leaving Sil's mat slid the Force
                // Bolt button under the pointer.
                let kept = egui::Id::new(("ability_rows", h));
                let mut sources: Vec<depths_rules::AbilitySource> = if game.combat().is_some() {
                    ui.data(|d| d.get_temp(kept)).unwrap_or_default()
                } else {
                    Vec::new()
                };
                for a in &usable {
                    if let Action::ActivateAbility { source, .. } = a
                        && !sources.contains(source)
                    {
                        sources.push(*source);
                    }
                }
                ui.data_mut(|d| d.insert_temp(kept, sources.clone()));
                // (Every usable Ability is among `sources`.)
                if !sources.is_empty() {
                    ui.label(egui::RichText::new("Use an Ability").strong());
                }
                for source in sources {
                    let actions: Vec<&Action> = usable
                        .iter()
                        .filter(|a| matches!(a, Action::ActivateAbility { source: s, .. } if *s == source))
                        .collect();
                    let ability = hero.ability(source);
                    let name = ability.map_or_else(|| "Ability".to_owned(), |ab| ab.name.clone());
                    let cost = ability.map_or(String::new(), |ab| activation_text(ab.activation));
                    let text = ability.map_or(String::new(), |ab| ab.text());
                    // An Ability's Damage binds the Hero's Damage to its target
                    // for the Round: said on hover, and on each target it wastes.
                    let binds = ability.is_some_and(|ab| {
                        ab.effects.iter().any(|e| matches!(e, depths_rules::Effect::DamageMonster { .. }))
                    });
                    let head_hover = if binds {
                        format!("{text}\n{}", crate::game::words::binding_note(hero.name()))
                    } else {
                        text.clone()
                    };
                    let targets: Vec<String> = actions
                        .iter()
                        .map(|a| match a {
                            Action::ActivateAbility { target, .. } => crate::game::words::target_words(game, target),
                            _ => String::new(),
                        })
                        .collect();
                    let (common, shorts) = crate::game::words::split_common_start(&targets);
                    let now = !actions.is_empty();
                    // Each row keeps the tallest it has been this Round too: a
                    // row's targets leaving ("Force Bolt … not now") slid the
                    // Warding Sigil's buttons under it up under the pointer.
                    keep_tallest(ui, egui::Id::new(("ability_row", h, source)), fight, |ui| {
                        ui.horizontal_wrapped(|ui| {
                            let head = if cost.is_empty() { name.clone() } else { format!("{name} [{cost}]") };
                            let ink = if now { style::GOLD } else { style::MUTED };
                            // Greyed, its hover says why as well as what it does.
                            let head_hover = if now {
                                head_hover
                            } else {
                                format!("{head_hover}\n\nNot now: {}", crate::game::words::ability_not_now(game, h, source))
                            };
                            ui.label(egui::RichText::new(head).strong().color(ink)).on_hover_text(&head_hover);
                            if !now {
                                let why = crate::game::words::ability_not_now(game, h, source);
                                // Unbroken: "not / now" wrapped over two lines at 150 %.
                                ui.label(egui::RichText::new("not\u{a0}now").color(style::MUTED)).on_hover_text(why);
                            }
                            if !common.is_empty() {
                                ui.label(format!("on {common}:"));
                            }
                            for (a, short) in actions.into_iter().zip(shorts) {
                                // An individual's Health beside its "#2": alone, "#1" and "1"
                                // read as number keys.
                                let health = match a {
                                    Action::ActivateAbility { target: depths_rules::Target::Individual { foe, individual }, .. } => game
                                        .combat()
                                        .and_then(|cbt| cbt.foes.get(usize::from(*foe)))
                                        .and_then(|f| f.individuals.get(usize::from(*individual)))
                                        .map(|i| i.health),
                                    _ => None,
                                };
                                let label = match (short.is_empty(), health) {
                                    (true, _) => "Use".to_owned(),
                                    (false, Some(h)) => format!("{short}, {h} Health"),
                                    (false, None) => short,
                                };
                                match crate::game::confirm::wasted_by_binding(game, a) {
                                    Some((target, lost)) => {
                                        let hover = crate::game::words::wasted_note(hero.name(), &target, lost);
                                        c.button_with_hover(ui, a.clone(), format!("{label} ⚠"), &hover);
                                    }
                                    None => {
                                        c.button(ui, a.clone(), label);
                                    }
                                }
                            }
                        });
                        ui.label(egui::RichText::new(text).size(style::type_scale::SMALL).color(style::MUTED));
                    });
                }
            });
            // In a Combat the Discard Pile on the table shows them on hover.
            if !hero.discard.is_empty() && !in_combat {
                // The discard pile is open information: its cards, newest first.
                egui::CollapsingHeader::new(format!("Discard pile ({})", hero.discard.len()))
                    .id_salt(("discard", h))
                    .default_open(false)
                    .show(ui, |ui| {
                        ui.label(egui::RichText::new(pile_text(hero.discard.iter().rev())).size(style::type_scale::SMALL));
                    });
            }
            egui::CollapsingHeader::new("Abilities").id_salt(("abilities", h)).default_open(false).show(ui, |ui| {
                // Each a small card in the Hero's colours, its cost drawn.
                for (source, ability) in hero.abilities() {
                    let exhausted = hero.is_exhausted(source);
                    mat_card(ui, (body, edge), exhausted, |ui| {
                        ui.horizontal(|ui| {
                            cost_icons(ui, icons, ability.activation);
                            ui.label(style::title(&ability.name, style::type_scale::BODY).color(card_ink(exhausted)));
                            if exhausted {
                                ui.label(egui::RichText::new("exhausted").size(style::type_scale::SMALL).color(style::MUTED));
                            }
                        });
                        ui.label(egui::RichText::new(ability.effect_text()).size(style::type_scale::SMALL).color(card_ink(exhausted)));
                    });
                }
            });
            if !hero.items.is_empty() {
                // In Combat the Items fold away (the Abilities to use come first
                // and must stay in sight on a small window); open otherwise.
                let header = egui::CollapsingHeader::new(format!("Items ({})", hero.items.len()))
                    .id_salt(("items", h, in_combat))
                    .default_open(!in_combat);
                header.show(ui, |ui| {
                    // Each a small card in the Items' blue, face down (dimmed)
                    // when unequipped, as the book keeps them under the mat.
                    let tones = (crate::theme::palette::HERO_CARD, crate::theme::palette::HERO_EDGE);
                    for (i, item) in hero.items.iter().enumerate() {
                        let ink = card_ink(!item.equipped);
                        mat_card(ui, tones, !item.equipped, |ui| {
                            ui.horizontal_wrapped(|ui| {
                                let hands = "✋".repeat(usize::from(item.card.hands));
                                ui.label(style::title(&format!("{hands} {}", item.card.name), style::type_scale::BODY).color(ink));
                                let mut facts = Vec::new();
                                if item.card.magic {
                                    facts.push("Magic".to_owned());
                                }
                                if item.card.armor > 0 {
                                    facts.push(format!("Armor {}", item.card.armor));
                                }
                                if let Some(u) = item.uses_left {
                                    facts.push(format!("{u} uses"));
                                }
                                facts.push(format!("{} XP", item.card.xp));
                                ui.label(egui::RichText::new(facts.join(" · ")).size(style::type_scale::SMALL).color(ink));
                                let (a, label) = if item.equipped {
                                    (Action::Unequip { hero: h, item: i as u8 }, "Unequip")
                                } else {
                                    (Action::Equip { hero: h, item: i as u8 }, "Equip")
                                };
                                c.button(ui, a, label);
                            });
                            for ab in &item.card.abilities {
                                ui.horizontal_wrapped(|ui| {
                                    cost_icons(ui, icons, ab.activation);
                                    let words = format!("{}: {}", ab.name, ab.effect_text());
                                    ui.label(egui::RichText::new(words).size(style::type_scale::SMALL).color(ink));
                                });
                            }
                        });
                    }
                });
            }
        });
        ui.add_space(6.0);
    }
}

/// The words on a small card of the mat: the cards' ink, or muted on one
/// turned down.
fn card_ink(dim: bool) -> egui::Color32 {
    if dim { style::MUTED } else { crate::theme::palette::CARD_TEXT.egui() }
}

/// A row of cards in short: "P" for a Power Card, else the value.
fn pile_text<'a>(cards: impl Iterator<Item = &'a depths_rules::ActionCard>) -> String {
    let short: Vec<String> = cards.map(|c| if c.power { "P".into() } else { c.value.to_string() }).collect();
    short.join(" ")
}

/// Draws `add` at least as tall as it has been since `round` began (kept
/// under `id`; outside a Combat, `round` is `None` and nothing is kept), so
/// what comes and goes in it never moves what lies under it.
fn keep_tallest(ui: &mut egui::Ui, id: egui::Id, round: Option<u32>, add: impl FnOnce(&mut egui::Ui)) {
    let least = ui
        .data(|d| d.get_temp::<(Option<u32>, f32)>(id))
        .filter(|(r, _)| round.is_some() && *r == round)
        .map_or(0.0, |(_, least)| least);
    let shown = ui.scope(|ui| {
        ui.set_min_height(least);
        add(ui);
    });
    let tallest = least.max(shown.response.rect.height());
    ui.data_mut(|d| d.insert_temp(id, (round, tallest)));
}
