//! The Combat window: the round summary, Monster cards with a health bar per
//! individual and the Health State table, the Final Entity's parts and Lore,
//! the hand and abilities of every Hero who may act in this step ("All Heroes
//! perform each Step simultaneously"), damage to place, and each Combat Pair
//! labelled with what it would deal both ways (one pair per Hero in all).

use super::*;

pub(super) fn combat_window(
    ctx: &egui::Context,
    session: &Session,
    combat: &Combat,
    icons: &Icons,
    c: &mut Choices,
    pass: &mut MessageWriter<PassTable>,
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
                                    icons.show(ui, "final_entity_parts", &fe.part(part).id, 18.0, FOE_TINT);
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
                            let parts = fe.parts().map(|p| (&p.name, &p.abilities));
                            for (name, abilities) in parts.into_iter().chain([(&fe.tail.name, &fe.tail.abilities)]) {
                                for ab in abilities {
                                    ui.label(
                                        egui::RichText::new(format!("{name}: {}", ab.text()))
                                            .size(12.0)
                                            .color(ui_style::MUTED),
                                    );
                                }
                            }
                            // Folded: open it would push the hand out of view (the log has it too).
                            if let Some(lore) = game.adventure().and_then(|a| a.final_entity_lore.as_ref()) {
                                egui::CollapsingHeader::new("Lore").id_salt("lore").default_open(false).show(
                                    ui,
                                    |ui| {
                                        ui.label(egui::RichText::new(lore).italics().size(13.0));
                                    },
                                );
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
                hands_section(ui, session, combat, c, pass);
                ui.separator();
                engagements_section(ui, game, combat, c);
            } else {
                engagements_section(ui, game, combat, c);
                ui.separator();
                hands_section(ui, session, combat, c, pass);
            }
            if combat.step == CombatStep::AvoidReturnDamage {
                ui.label("Several Heroes defeated a Monster together: one of them avoids Return Damage.");
                c.all(ui, game, |a| matches!(a, Action::AvoidReturnDamage { .. }));
            }
        });
}

/// Each engagement: the Hero's cards against the Monster's, pair by pair.
/// "Every Round, each Hero will choose one of their Combat Pairs to Resolve
/// and discard any others": one pair in all, even against two Monster Cards.
fn engagements_section(ui: &mut egui::Ui, game: &Game, combat: &Combat, c: &mut Choices) {
    for (e, en) in combat.engagements.iter().enumerate() {
        let hero = &game.heroes[usize::from(en.hero)];
        let foe = &combat.foes[usize::from(en.foe)];
        // Priority and the one choice run over all of the Hero's pairs.
        let outcomes: Vec<depths_rules::Outcome> = combat.pairs_of(en.hero).into_iter().map(|(_, _, o)| o).collect();
        let chosen = combat.chosen_engagement(en.hero);
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(format!("{} against {}", hero.name(), foe.name())).strong());
            if combat.engagements_of(en.hero).count() > 1 && en.group == 0 {
                ui.label(
                    egui::RichText::new(format!(
                        "— {} resolves one pair in all, against either Monster card",
                        hero.name()
                    ))
                    .size(12.0)
                    .color(ui_style::MUTED),
                );
            }
        });
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
                            if chosen.is_none() && !may_choose_outcome(o, &outcomes) {
                                ui.label(
                                    egui::RichText::new("(a Monster Hit comes first)")
                                        .size(11.0)
                                        .color(ui_style::MUTED),
                                );
                            }
                        }
                        if en.chosen == Some(s as u8) {
                            ui.label(egui::RichText::new("✔ resolved").color(ui_style::GOLD));
                        } else if chosen.is_some() && slot.outcome(foe.card_bonus).is_some() {
                            ui.label(egui::RichText::new("discarded").size(12.0).color(ui_style::MUTED));
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
                let v: Vec<String> = en.unpaired.iter().map(card_label).collect();
                ui.label(format!("Unpaired Monster cards: {}", v.join(", ")));
            }
            if let Some(w) = &en.waiting {
                ui.label(format!("Waiting to be placed: {}", card_label(w)));
            }
        });
    }
}

/// Every Hero who may act in this step (their hands side by side while
/// cards are played), the player at the table's first: each one's hand, abilities, damage to place and End turn.
/// Behind the curtain the other players' Heroes are named, with a button to
/// pass them the table now.
fn hands_section(
    ui: &mut egui::Ui,
    session: &Session,
    combat: &Combat,
    c: &mut Choices,
    pass: &mut MessageWriter<PassTable>,
) {
    let mine = session.heroes_at_table();
    let all = crate::hotseat::players_to_act(&session.game, &session.players, &session.turn);
    let (here, elsewhere): (Vec<(usize, u8)>, Vec<(usize, u8)>) = all
        .into_iter()
        .flat_map(|(p, heroes)| heroes.into_iter().map(move |h| (p, h)))
        .partition(|(_, h)| mine.as_ref().is_none_or(|m| m.contains(h)));
    if combat.step == CombatStep::PlayCards && here.len() > 1 {
        // Hands side by side, so every hand stays in view.
        ui.columns(here.len(), |cols| {
            for (col, (_, h)) in cols.iter_mut().zip(&here) {
                hero_section(col, &session.game, combat, *h, c);
            }
        });
    } else {
        // Abilities and damage need the window's width.
        for (_, h) in &here {
            hero_section(ui, &session.game, combat, *h, c);
            ui.add_space(4.0);
        }
    }
    for (player, h) in elsewhere {
        let name = session.players.name(player);
        ui.horizontal_wrapped(|ui| {
            let hero = session.game.heroes[usize::from(h)].name();
            ui.label(egui::RichText::new(format!("{hero} ({name}) may act too.")).color(ui_style::MUTED));
            let button = ui.button(format!("Let {name} act now")).on_hover_text("Pass the table before you are done");
            if button.clicked() {
                pass.write(PassTable(player));
            }
        });
    }
}

/// One Hero's hand and abilities, damage to place and End turn.
fn hero_section(ui: &mut egui::Ui, game: &Game, combat: &Combat, h: u8, c: &mut Choices) {
    let hero = &game.heroes[usize::from(h)];
    ui.label(egui::RichText::new(format!("{}'s hand", hero.name())).strong());
    ui.horizontal_wrapped(|ui| {
        for card in &hero.hand {
            let label = card_label(card);
            c.button(ui, Action::PlayCard { hero: h, card: card.id }, egui::RichText::new(label).size(22.0));
        }
    });
    let abilities: Vec<Action> =
        c.legal.iter().filter(|a| matches!(a, Action::ActivateAbility { hero, .. } if *hero == h)).cloned().collect();
    if !abilities.is_empty() {
        ui.label(egui::RichText::new("Abilities").strong());
        for a in abilities {
            let Action::ActivateAbility { source, target, .. } = &a else { continue };
            let cost = hero.ability(*source).map_or(String::new(), |ab| activation_text(ab.activation));
            let mut label = describe_action(game, &a);
            if *target != Target::None || !cost.is_empty() {
                label = format!("{label}\u{a0}[{cost}]");
            }
            let text = hero.ability(*source).map_or(String::new(), |ab| ab.text());
            c.button(ui, a, label);
            ui.label(egui::RichText::new(text).size(12.0).color(ui_style::MUTED));
        }
    }
    // "All of a Hero's Damage must be applied to one Individual Monster."
    if let Some((f, i)) = combat.heroes.get(usize::from(h)).and_then(|r| r.target)
        && let Some(ind) = combat.foes.get(usize::from(f)).and_then(|foe| foe.individuals.get(usize::from(i)))
    {
        ui.label(
            egui::RichText::new(format!("All of {}'s Damage this Round goes to {}.", hero.name(), ind.name))
                .size(12.0)
                .color(ui_style::MUTED),
        );
    }
    if combat.step == CombatStep::AssignDamage
        && let Some(p) = combat.packet_of(h).map(|k| &combat.packets[k])
    {
        ui.label(format!(
            "{}'s {} damage goes to one of {}:",
            hero.name(),
            p.amount,
            combat.foes[usize::from(p.foe)].name()
        ));
        c.all(ui, game, |a| matches!(a, Action::AssignDamage { hero, .. } if *hero == h));
    }
    if combat.step == CombatStep::Resolve {
        c.button(ui, Action::EndTurn { hero: h }, egui::RichText::new(format!("{}: end turn", hero.name())).strong());
    }
}
