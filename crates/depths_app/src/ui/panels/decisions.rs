//! Decisions outside Combat: paying XP (with overpayment shown), keeping an
//! Ability or an Item, removing Action Cards, Level Up, the Passage to the
//! next Ecology (with the Hero records), and anything else the rules ask.

use super::*;

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

/// A decision window at the foot of the board (its buttons are numbered).
fn decision_window(title: String, id: &'static str, max_width: f32) -> egui::Window<'static> {
    // Wide enough for its whole title (egui cuts a title to the window's width).
    let title_width = (title.chars().count() as f32 * 8.6 + 60.0).min(640.0);
    egui::Window::new(title)
        .id(egui::Id::new(id))
        .anchor(egui::Align2::CENTER_BOTTOM, [-15.0, -FOOT])
        .min_width(title_width)
        .max_width(max_width.max(title_width))
        .collapsible(true)
        .resizable(false)
}

pub(super) fn pending_window(ctx: &egui::Context, game: &Game, p: &Pending, c: &mut Choices) {
    decision_window(banner(game), "pending", 480.0).show(ctx, |ui| {
        c.next_key = Some(1);
        ui.set_min_width(380.0);
        egui::ScrollArea::vertical().max_height(400.0).show(ui, |ui| {
            match p {
                Pending::Purchase { cost, paid, items, .. } => {
                    let so_far: u16 = paid.iter().map(|c| u16::from(c.xp)).sum::<u16>()
                        + items.iter().map(|o| u16::from(o.item.card.xp)).sum::<u16>();
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
                // "A choice shows what the card does and each Hero's relevant state."
                Pending::ChooseHero(why) => {
                    match why {
                        HeroChoice::GainItem(item) => {
                            ui.label(egui::RichText::new(&item.name).strong().color(ui_style::GOLD));
                            ui.label(crate::game::words::item_facts(item));
                            for ab in &item.abilities {
                                ui.label(egui::RichText::new(ab.text()).color(ui_style::MUTED));
                            }
                        }
                        HeroChoice::DrawItem => {
                            ui.label("The Hero draws one Item from their class's Item Cards.");
                        }
                        HeroChoice::Heal(n) => {
                            ui.label(format!("Heals {n} Health."));
                        }
                        HeroChoice::Damage(n) => {
                            ui.label(format!("Deals {n} damage."));
                        }
                    }
                    ui.separator();
                    for (h, hero) in game.heroes.iter().enumerate() {
                        let hands: u8 = hero.items.iter().filter(|i| i.equipped).map(|i| i.card.hands).sum();
                        let state = format!(
                            "{} ({}): {} / {} Health · {} Item(s), {hands} of 2 hands equipped",
                            hero.name(),
                            hero.mat.class.name(),
                            hero.health,
                            hero.max_health(),
                            hero.items.len(),
                        );
                        ui.horizontal_wrapped(|ui| {
                            c.button(ui, Action::ChooseHero { hero: h as u8 }, hero.name());
                            ui.label(egui::RichText::new(state).size(13.0).color(ui_style::MUTED));
                        });
                    }
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
                            egui::RichText::new(format!("{} {}", "✋".repeat(usize::from(o.hands)), o.name)).strong(),
                        );
                        for ab in &o.abilities {
                            ui.label(egui::RichText::new(ab.text()).color(ui_style::MUTED));
                        }
                        c.button(ui, Action::ChooseOption { index: i as u8 }, format!("Keep {}", o.name));
                    }
                }
                Pending::RemoveCards { hero, count } => {
                    let hero = &game.heroes[usize::from(*hero)];
                    ui.label(format!("Remove {count} card(s) from {}'s Action Card deck. Click a value:", hero.name()));
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
                            let label = card_label(card);
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
                    if let Some(next) = game.adventure().and_then(|a| a.ecology.ecology.next()) {
                        ui.label(
                            egui::RichText::new(format!("Then the Passage to the {}.", next.name()))
                                .color(ui_style::MUTED),
                        );
                    }
                    let label = describe_action(game, &Action::FinishLevelUp);
                    c.button(ui, Action::FinishLevelUp, label);
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

/// "Passage to Next Ecology": the Ecology is complete. The book's moment to
/// record each Hero and the party ("Just after Level Up, record the details
/// of each Hero and the group"); the game saved itself on the way in. One
/// button descends.
pub(super) fn passage_window(ctx: &egui::Context, game: &Game, next: Ecology, c: &mut Choices) {
    let Some(adv) = game.adventure() else { return };
    let from = adv.ecology.ecology;
    decision_window(passage_text(from, next), "passage", 560.0).show(ctx, |ui| {
        c.next_key = Some(1);
        ui.set_min_width(460.0);
        ui.label(format!(
            "Level Up is over and the {} are complete. The game is saved; here are the Hero records.",
            from.name()
        ));
        ui.add_space(4.0);
        egui::Grid::new("hero_records").striped(true).max_col_width(300.0).show(ui, |ui| {
            for hero in &game.heroes {
                ui.label(ui_style::title(hero.name(), 18.0));
                let abilities: Vec<&str> = hero.abilities.iter().map(|a| a.card.ability.name.as_str()).collect();
                let items: Vec<&str> = hero.items.iter().map(|i| i.card.name.as_str()).collect();
                let deck = hero.draw.len() + hero.hand.len() + hero.discard.len();
                let mut lines = vec![
                    format!("level {} · {} / {} Health", hero.level, hero.health, hero.max_health()),
                    format!("{deck} Action Cards · {} Power stored", hero.stored_power.len()),
                ];
                if !abilities.is_empty() {
                    lines.push(format!("Abilities: {}", abilities.join(", ")));
                }
                if !items.is_empty() {
                    lines.push(format!("Items: {}", items.join(", ")));
                }
                ui.label(lines.join("\n"));
                ui.end_row();
            }
        });
        let xp: u16 = adv.xp_pool.iter().map(|x| u16::from(x.xp)).sum();
        let cleared: Vec<&str> = adv.record.ecologies_cleared.iter().map(|e| e.name()).collect();
        ui.label(
            egui::RichText::new(format!(
                "The party: {} Key(s), {xp} XP unspent · cleared: {} · {} Monsters defeated",
                adv.keys,
                cleared.join(", "),
                adv.record.monsters_defeated
            ))
            .color(ui_style::MUTED),
        );
        ui.add_space(6.0);
        let label = describe_action(game, &Action::Descend);
        c.button(ui, Action::Descend, egui::RichText::new(label).strong().size(18.0));
    });
}
