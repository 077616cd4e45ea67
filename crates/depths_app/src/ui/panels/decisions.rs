//! Decisions outside Combat: paying XP (with overpayment shown), keeping an
//! Ability or an Item, removing Action Cards, Level Up, the Passage to the
//! next Ecology (with the Hero records), and anything else the rules ask.

use super::widgets::*;
use crate::game::words::counted;

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

/// A decision window at the foot of the board's room (its buttons are
/// numbered), kept inside that room: over the banner or a side panel it hid
/// their words at a large UI scale. Left of `beside` (the cards drawn on the
/// table, from its right), where the room allows: centred, it covered the
/// Feature card it asks about.
fn decision_window(
    title: String,
    id: &'static str,
    max_width: f32,
    room: egui::Rect,
    beside: Option<egui::Rect>,
) -> egui::Window<'static> {
    let room = below_notes(room);
    // Wide enough for its whole title (egui cuts a title to the window's width).
    let title_width = (title.chars().count() as f32 * 8.6 + 60.0).min(640.0).min(room.width() - 16.0);
    let width = max_width.max(title_width).min(room.width() - 16.0);
    let foot = room_foot(room);
    let (pivot, at) = match beside {
        Some(cards) if foot.x + width / 2.0 > cards.min.x - 8.0 => {
            let right = (cards.min.x - 8.0).max(room.min.x + 8.0 + width).min(room.max.x - 8.0);
            (egui::Align2::RIGHT_BOTTOM, egui::pos2(right, foot.y))
        }
        _ => (egui::Align2::CENTER_BOTTOM, foot),
    };
    egui::Window::new(title)
        .id(egui::Id::new(id))
        .pivot(pivot)
        .fixed_pos(at)
        .constrain_to(room)
        .min_width(title_width)
        .max_width(width)
        .max_height(room.height() - 16.0)
        .collapsible(true)
        .resizable(false)
}

/// The room less its top strip, where the notes and toasts over the board
/// go: a tall decision window at 150 % reached up under a toast.
fn below_notes(room: egui::Rect) -> egui::Rect {
    let strip = 44.0f32.min(room.height() * 0.1);
    egui::Rect::from_min_max(egui::pos2(room.min.x, room.min.y + strip), room.max)
}

/// The most a decision's list may take of the room's height before it
/// scrolls, with `above` points of the window already taken over it.
fn list_height(room: egui::Rect, above: f32) -> f32 {
    // At least three Heroes' rows, wrapped: at 1920×1080 and 150 % the
    // second Hero's button lay under the list's foot.
    (below_notes(room).height() - 200.0 - above).clamp(170.0, 400.0)
}

/// What tells one decision from the next, for its list's scroll: its kind
/// and whom or what it is about, not its progress.
fn decision_key(p: &Pending) -> String {
    match p {
        Pending::Purchase { what, cost, .. } => format!("purchase {what:?} {cost}"),
        Pending::ChooseItem { hero, .. }
        | Pending::RemoveCards { hero, .. }
        | Pending::ChooseAbilityDraw { hero }
        | Pending::ChooseAbility { hero, .. } => format!("{:?} {hero}", std::mem::discriminant(p)),
        Pending::ChooseHero(choice) => format!("hero {choice:?}"),
        _ => format!("{:?}", std::mem::discriminant(p)),
    }
}

/// The most the cards a decision answers may take before they scroll: four
/// Legendary Locations revealed in a row pushed the choice itself out of the
/// window, where nothing could reach it.
fn revealed_height(room: egui::Rect) -> f32 {
    (below_notes(room).height() * 0.25).clamp(80.0, 240.0)
}

pub(super) fn pending_window(
    ctx: &egui::Context,
    game: &Game,
    p: &Pending,
    revealed: &[&crate::table::reveal::RevealCard],
    (room, beside): (egui::Rect, Option<egui::Rect>),
    c: &mut Choices,
) {
    // A purchase, the Level Up, a Healing to share or cards to remove ask
    // about nothing revealed: a card left from the move before (Sil's new
    // Ability) stood under "Pay 5 XP for an Ability for Ava".
    let revealed: &[&crate::table::reveal::RevealCard] = if answers_a_card(p) { revealed } else { &[] };
    let window = decision_window(banner(game), "pending", 480.0, room, beside).show(ctx, |ui| {
        c.next_key = Some(1);
        ui.set_min_width(380.0_f32.min(room.width() - 40.0));
        // The card the decision answers, readable here whatever room the
        // table leaves its reveal; several scroll, the newest (last) in sight.
        // The Features to order, each with what it does: the orders alone
        // named them and left the player to guess.
        let ordering: Vec<crate::table::reveal::RevealCard> = match (p, game.adventure()) {
            (Pending::OrderFeatures { cards }, Some(a)) => {
                cards.iter().map(|f| crate::table::reveal::feature_card(&a.content, f)).collect()
            }
            _ => Vec::new(),
        };
        let above = if revealed.is_empty() && ordering.is_empty() {
            0.0
        } else {
            let area = egui::ScrollArea::vertical().id_salt("revealed").max_height(revealed_height(room));
            let shown = area.stick_to_bottom(true).show(ui, |ui| {
                for card in revealed.iter().copied().chain(&ordering) {
                    ui.label(
                        egui::RichText::new(format!("{} · {}", card.kind, card.title)).strong().color(style::GOLD),
                    );
                    for line in &card.rules {
                        ui.label(line);
                    }
                    ui.separator();
                }
            });
            shown.inner_rect.height()
        };
        // Each decision its own scroll: a new one opened where the last was
        // scrolled to, mid-list; within one (paying part of a price,
        // removing a card of several) it holds still.
        let list = egui::ScrollArea::vertical().id_salt(("decision list", decision_key(p)));
        list.max_height(list_height(room, above)).show(ui, |ui| {
            match p {
                Pending::Purchase { cost, paid, items, .. } => {
                    let so_far = depths_rules::purchases::paid_so_far(paid, items);
                    // "No change is given": say so before a card pays too much.
                    let owed = u16::from(*cost).saturating_sub(so_far);
                    ui.label(format!("Paid {so_far} of {cost} XP."));
                    // One click: the pool's cards that overpay least, the fewest of them (the rules' own choice).
                    if let Some(payment) = game.xp_payment() {
                        let values: Vec<u16> = payment.iter().map(|card| xp_of(game, card)).collect();
                        let sum: u16 = values.iter().sum();
                        let cards = values.iter().map(u16::to_string).collect::<Vec<_>>().join(" + ");
                        let mut label = format!("Pay {owed} XP with {cards}");
                        if sum > owed {
                            label.push_str(&format!(" (overpays by {}, no change)", sum - owed));
                        }
                        let moves = payment.into_iter().map(|card| Action::PayXp { card }).collect();
                        let hover = "The XP pool's cards that leave the least over, the fewest of them";
                        c.button_all(ui, moves, egui::RichText::new(label).strong(), hover);
                        ui.add_space(4.0);
                    }
                    ui.label("Or choose cards (or Items) one at a time:");
                    let pays: Vec<(String, Action)> = c
                        .legal
                        .iter()
                        .filter(|a| matches!(a, Action::PayXp { .. }))
                        .map(|a| (describe_action(game, a), a.clone()))
                        .collect();
                    // Each card keeps its line and number through the purchase: a card
                    // paid leaves its line greyed, so the next key still means the
                    // card it meant (the pool's indices move up as cards leave it).
                    let id = egui::Id::new("payment lines");
                    let mut lines: Vec<String> = ui.data(|d| d.get_temp(id)).unwrap_or_default();
                    if paid.is_empty() || pays.len() > lines.len() {
                        lines = pays.iter().map(|(l, _)| l.clone()).collect();
                        ui.data_mut(|d| d.insert_temp(id, lines.clone()));
                    }
                    let mut left = pays;
                    for line in &lines {
                        let Some(i) = left.iter().position(|(l, _)| l == line) else {
                            c.skip_number();
                            let paid = egui::RichText::new(format!("{line} — paid")).strikethrough();
                            ui.add_enabled(false, egui::Button::new(paid));
                            continue;
                        };
                        let (mut label, a) = left.remove(i);
                        let Action::PayXp { card } = &a else { continue };
                        let over = xp_of(game, card).saturating_sub(owed);
                        if over > 0 {
                            label.push_str(&format!(" — overpays by {over}, no change"));
                        }
                        c.button(ui, a, label);
                    }
                    for (label, a) in left {
                        c.button(ui, a, label);
                    }
                    c.all(ui, game, |a| matches!(a, Action::CancelPurchase));
                }
                // "A choice shows what the card does and each Hero's relevant state."
                Pending::ChooseHero(why) => {
                    match why {
                        HeroChoice::GainItem(item) => {
                            ui.label(egui::RichText::new(&item.name).strong().color(style::GOLD));
                            ui.label(crate::game::words::item_facts(item));
                            for ab in &item.abilities {
                                ui.label(egui::RichText::new(ab.text()).color(style::MUTED));
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
                            "{} ({}): {} / {} Health · {}, {hands} of 2 hands equipped",
                            hero.name(),
                            hero.mat.class.name(),
                            hero.health,
                            hero.max_health(),
                            counted(hero.items.len() as u64, "Item", "Items"),
                        );
                        ui.horizontal_wrapped(|ui| {
                            c.button(ui, Action::ChooseHero { hero: h as u8 }, hero.name());
                            ui.label(egui::RichText::new(state).size(style::type_scale::SMALL).color(style::MUTED));
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
                            ui.label(egui::RichText::new(ab.text()).color(style::MUTED));
                        }
                        c.button(ui, Action::ChooseOption { index: i as u8 }, format!("Keep {}", o.name));
                    }
                }
                Pending::RemoveCards { hero, count } => {
                    let hero = &game.heroes[usize::from(*hero)];
                    ui.label(format!(
                        "Remove {} from {}'s Action Card deck. Click a value:",
                        counted(*count, "card", "cards"),
                        hero.name()
                    ));
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
                            c.button(ui, a, egui::RichText::new(label).size(style::type_scale::HEADING));
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
                                .color(style::MUTED),
                        );
                    }
                    let label = describe_action(game, &Action::FinishLevelUp);
                    c.button(ui, Action::FinishLevelUp, label);
                }
                Pending::SplitHealing { points } => split_healing(ui, game, *points, c),
                Pending::OrderFeatures { cards } => order_features(ui, cards, &ordering, c),
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
    // Folded, the window still offers every choice (unfolding shows them):
    // "Other choices" repeated them in a window of its own over it.
    if window.is_some_and(|w| w.inner.is_none()) {
        c.shown.extend(c.legal.clone());
    }
}

/// Whether decision `p` answers the cards just revealed (a Feature's
/// "choose the Hero who…", the Items or Abilities drawn to keep).
fn answers_a_card(p: &Pending) -> bool {
    match p {
        Pending::ChooseHero(_)
        | Pending::ChooseItem { .. }
        | Pending::ChooseAbility { .. }
        | Pending::ChooseAbilityDraw { .. }
        | Pending::OrderFeatures { .. } => true,
        Pending::Purchase { .. }
        | Pending::SplitHealing { .. }
        | Pending::RemoveCards { .. }
        | Pending::LevelUp { .. }
        | Pending::Passage { .. } => false,
    }
}

/// "Choose the order of the revealed Features", one Feature at a time:
/// which first, then which next, the last one taking the last place. The
/// six orders of three, each a two-line button, filled a 150 % window and
/// half of them hid under a scroll.
fn order_features(
    ui: &mut egui::Ui,
    cards: &[depths_rules::feature::FeatureCard],
    faces: &[crate::table::reveal::RevealCard],
    c: &mut Choices,
) {
    let names: Vec<&str> = cards.iter().map(|f| f.name.as_str()).collect();
    // The Features picked so far, kept for this set of Features only.
    let id = egui::Id::new(("feature order", names.join("|")));
    let mut first: Vec<usize> = ui.data(|d| d.get_temp(id)).unwrap_or_default();
    if first.len() + 1 >= cards.len() || first.iter().any(|&i| i >= cards.len()) {
        first.clear();
    }
    let orders: Vec<(Action, Vec<usize>)> = c
        .legal
        .iter()
        .filter_map(|a| match a {
            Action::ChooseOption { index } => {
                Some((a.clone(), depths_rules::encountering::feature_order(cards.len(), usize::from(*index))))
            }
            _ => None,
        })
        .collect();
    if !first.is_empty() {
        let so_far: Vec<&str> = first.iter().map(|&i| names[i]).collect();
        ui.label(format!("Resolved first: {}", so_far.join(", then ")));
    }
    ui.label(if first.is_empty() { "Which Feature is resolved first?" } else { "Which next?" });
    let left: Vec<usize> = (0..cards.len()).filter(|i| !first.contains(i)).collect();
    for &i in &left {
        let mut order = first.clone();
        order.push(i);
        if left.len() == 2 {
            // The last choice: the other Feature takes the last place.
            order.extend(left.iter().filter(|&&j| j != i));
            if let Some((a, _)) = orders.iter().find(|(_, o)| *o == order) {
                let other = order.last().map_or("", |&j| names[j]);
                c.button(ui, a.clone(), format!("{}, then {other}", names[i]));
            }
        } else if c.step_button(ui, names[i], &faces.get(i).map(|f| f.rules.join("\n")).unwrap_or_default()) {
            first.push(i);
        }
    }
    if !first.is_empty() && ui.button("Choose the order again").clicked() {
        first.clear();
    }
    ui.data_mut(|d| d.insert_temp(id, first));
    // Every order is reached through these steps: none is "another choice".
    c.shown.extend(orders.into_iter().map(|(a, _)| a));
}

/// "Passage to Next Ecology": the Ecology is complete. The book's moment to
/// record each Hero and the party ("Just after Level Up, record the details
/// of each Hero and the group"); the game saved itself on the way in. One
/// button descends.
pub(super) fn passage_window(ctx: &egui::Context, game: &Game, next: Ecology, room: egui::Rect, c: &mut Choices) {
    let Some(adv) = game.adventure() else { return };
    let from = adv.ecology.ecology;
    decision_window(passage_text(from, next), "passage", 560.0, room, None).show(ctx, |ui| {
        c.next_key = Some(1);
        ui.set_min_width(460.0_f32.min(room.width() - 40.0));
        ui.label(format!(
            "Level Up is over and the {} are complete. The game is saved; here are the Hero records.",
            from.name()
        ));
        ui.add_space(4.0);
        egui::Grid::new("hero_records").striped(true).max_col_width(300.0).show(ui, |ui| {
            for hero in &game.heroes {
                ui.label(style::title(hero.name(), style::type_scale::LEAD));
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
                "The party: {}, {xp} XP unspent · cleared: {} · {} defeated",
                counted(adv.keys, "Key", "Keys"),
                cleared.join(", "),
                counted(adv.record.monsters_defeated, "Monster", "Monsters")
            ))
            .color(style::MUTED),
        );
        ui.add_space(6.0);
        let label = describe_action(game, &Action::Descend);
        c.button(ui, Action::Descend, egui::RichText::new(label).strong().size(style::type_scale::LEAD));
    });
}

/// The splits the rules accept now (each a Hero's share, in Hero order).
fn legal_splits(legal: &[Action]) -> Vec<Vec<u8>> {
    legal
        .iter()
        .filter_map(|a| match a {
            Action::SplitHealing { amounts } => Some(amounts.clone()),
            _ => None,
        })
        .collect()
}

/// The − / + choice of how to share healing, kept to what the legal splits
/// allow: every legal split heals the same total, and each Hero's share runs
/// from 0 to the most any legal split gives them.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct SplitChoice {
    pub amounts: Vec<u8>,
    pub most: Vec<u8>,
    pub total: u16,
}

impl SplitChoice {
    /// Nothing given yet; `None` when no split is legal.
    pub fn new(splits: &[Vec<u8>]) -> Option<Self> {
        let first = splits.first()?;
        let mut most = vec![0u8; first.len()];
        for s in splits {
            for (m, &x) in most.iter_mut().zip(s) {
                *m = (*m).max(x);
            }
        }
        let total = first.iter().map(|&x| u16::from(x)).sum();
        Some(Self { amounts: vec![0; first.len()], most, total })
    }

    /// Health still to share.
    pub fn left(&self) -> u16 {
        self.total.saturating_sub(self.amounts.iter().map(|&x| u16::from(x)).sum())
    }

    pub fn can_add(&self, h: usize) -> bool {
        self.left() > 0 && self.amounts.get(h).zip(self.most.get(h)).is_some_and(|(a, m)| a < m)
    }

    pub fn can_take(&self, h: usize) -> bool {
        self.amounts.get(h).is_some_and(|&a| a > 0)
    }

    pub fn add(&mut self, h: usize) {
        if self.can_add(h) {
            self.amounts[h] += 1;
        }
    }

    pub fn take(&mut self, h: usize) {
        if self.can_take(h) {
            self.amounts[h] -= 1;
        }
    }

    /// As much of what is left as this Hero can take.
    pub fn fill(&mut self, h: usize) {
        while self.can_add(h) {
            self.add(h);
        }
    }

    /// The legal action for the chosen split, once it is one.
    pub fn action(&self, legal: &[Action]) -> Option<Action> {
        legal.iter().find(|a| matches!(a, Action::SplitHealing { amounts } if *amounts == self.amounts)).cloned()
    }
}

/// "Share N Health": − / + per Hero, what is left to share, each Hero's
/// Health now → after, and a Confirm that sends the matching legal split.
fn split_healing(ui: &mut egui::Ui, game: &Game, points: u8, c: &mut Choices) {
    let splits = legal_splits(&c.legal);
    // The rules' list is every split: none of it is shown as its own button.
    c.shown.extend(splits.iter().map(|amounts| Action::SplitHealing { amounts: amounts.clone() }));
    let Some(fresh) = SplitChoice::new(&splits) else {
        ui.label("No way to share this healing is open to you.");
        return;
    };
    let id = egui::Id::new(("split_healing", points, fresh.most.clone()));
    let mut choice = ui
        .ctx()
        .data_mut(|d| d.get_temp::<SplitChoice>(id))
        .filter(|s| s.most == fresh.most && s.total == fresh.total)
        .unwrap_or(fresh);
    if choice.total < u16::from(points) {
        ui.label(
            egui::RichText::new(format!(
                "The Heroes miss only {} Health, so {} is shared.",
                choice.total, choice.total
            ))
            .color(style::MUTED),
        );
    }
    let left = choice.left();
    ui.label(egui::RichText::new(format!("Left to share: {left} Health")).strong().color(if left == 0 {
        good()
    } else {
        style::GOLD
    }));
    egui::Grid::new("split_healing_grid").num_columns(3).spacing([8.0, 6.0]).show(ui, |ui| {
        for (h, hero) in game.heroes.iter().enumerate() {
            let give = choice.amounts.get(h).copied().unwrap_or(0);
            ui.label(style::title(hero.name(), style::type_scale::LEAD));
            // One row of controls, centred on one line: in cells of their own
            // the "−" sat 6 px above the "+" and "all".
            ui.horizontal_centered(|ui| {
                if ui.add_enabled(choice.can_take(h), egui::Button::new(egui::RichText::new(" − ").strong())).clicked()
                {
                    choice.take(h);
                }
                ui.label(egui::RichText::new(format!("+{give}")).strong().size(style::type_scale::LEAD));
                if ui.add_enabled(choice.can_add(h), egui::Button::new(egui::RichText::new(" + ").strong())).clicked() {
                    choice.add(h);
                }
                if ui
                    .add_enabled(choice.can_add(h), egui::Button::new("all"))
                    .on_hover_text("Give this Hero as much of what is left as they can take")
                    .clicked()
                {
                    choice.fill(h);
                }
            });
            let after = hero.health.saturating_add(give).min(hero.max_health());
            // "11 ▶ 11 / 14" said the Health twice where nothing changes.
            let text = if after == hero.health {
                format!("{} / {} Health", hero.health, hero.max_health())
            } else {
                format!("{} ▶ {after} / {} Health", hero.health, hero.max_health())
            };
            ui.label(egui::RichText::new(text).color(if give > 0 { good() } else { style::MUTED }));
            ui.end_row();
        }
    });
    ui.add_space(4.0);
    let confirm = choice.action(&c.legal);
    let label = if confirm.is_some() {
        "Confirm the healing".to_owned()
    } else {
        format!("Share all of it first ({left} left)")
    };
    match confirm {
        Some(a) => {
            c.button(ui, a, egui::RichText::new(label).strong());
        }
        None => {
            ui.add_enabled(false, egui::Button::new(label));
        }
    }
    ui.ctx().data_mut(|d| d.insert_temp(id, choice));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tried game: four Legendary Locations revealed in a row, then "Choose
    /// the Hero who gains …": the cards filled the window and its buttons
    /// lay below its foot, out of reach. However many cards are shown, every
    /// choice lies in sight inside the board's room, at 100 % and 150 %.
    #[test]
    fn many_revealed_cards_leave_the_choice_in_reach() {
        let content = depths_rules::Content::builtin().unwrap();
        let decision = |seed| {
            let mut g =
                Game::new(depths_rules::GameOptions::standard(&["bren", "sil", "ava"], seed), content.clone()).ok()?;
            for _ in 0..3000 {
                if g.pending().is_some() && (2..=4).contains(&g.legal_actions().len()) {
                    return Some(g);
                }
                let a = depths_sim::Bot::choose(&mut depths_sim::HeuristicBot, &g);
                g.apply(a).ok()?;
            }
            None
        };
        let game = (1..40).find_map(decision).expect("a decision in some game");
        let pending = game.pending().unwrap();
        let rules = [
            "Test: each Hero draws and plays 3 Action Cards; total 14/28/42.",
            "Failure: Deal 2 Damage to all Heroes.",
            "Worth 1 XP.",
        ];
        let card = crate::table::reveal::RevealCard {
            family: crate::table::reveal::Family::Ecology,
            kind: "Legendary Location".into(),
            title: "Flooded Undercroft".into(),
            icon: ("ui", "power".into()),
            rules: rules.iter().map(|l| l.to_string()).collect(),
            flavour: String::new(),
            rows: Vec::new(),
        };
        let revealed = vec![&card; 5];
        for (w, h, zoom) in [(1280.0, 800.0, 1.0), (1280.0, 800.0, 1.5), (1366.0, 768.0, 1.5)] {
            let (room, controls, _) = drawn_choices(&game, &revealed, (w, h, zoom), None);
            assert!(!controls.is_empty(), "{w}x{h} at {zoom}: no choice drawn for {pending:?}");
            for c in &controls {
                let seen = c.visible.intersect(c.rect);
                assert!(
                    seen.is_positive() && room.expand(1.0).contains_rect(seen),
                    "{w}x{h} at {zoom}: {} at {:?}, seen {:?}, room {room:?}",
                    c.what,
                    c.rect,
                    c.visible
                );
            }
        }
    }

    /// The controls of `game`'s pending decision as drawn in a window of
    /// `w`×`h` px at `zoom`, in a board's room like the table's (the window
    /// less the banner, the side panels and the help line).
    fn drawn_choices(
        game: &Game,
        revealed: &[&crate::table::reveal::RevealCard],
        (w, h, zoom): (f32, f32, f32),
        pressed: Option<u8>,
    ) -> (egui::Rect, Vec<crate::ui::panels::widgets::Control>, Option<egui::Rect>) {
        let pending = game.pending().expect("a decision");
        let ctx = test_context();
        ctx.set_zoom_factor(zoom);
        let room = egui::Rect::from_min_max(egui::pos2(0.27 * w, 60.0), egui::pos2(0.74 * w, h - 40.0)) / zoom;
        let mut controls = Vec::new();
        for _ in 0..4 {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(w, h) / zoom)),
                ..Default::default()
            };
            let mut output = ctx.run_ui(input, |ui| {
                let mut c = Choices::new(None, game.legal_actions(), pressed);
                pending_window(ui.ctx(), game, pending, revealed, (room, None), &mut c);
                controls = c.controls;
            });
            output.textures_delta.clear();
        }
        let window = ctx.memory(|m| m.area_rect(egui::Id::new("pending")));
        (room, controls, window)
    }

    /// A playtester's Brass Scrying Bowl at 150 %: of the six orders of
    /// three Features, two and a half showed and the rest hid under a
    /// scroll. The order is chosen a Feature at a time: first one button
    /// per Feature, then (key 1 took the first) the two orders left that
    /// begin with it; every button whole, at 1366×768 and 1280×800, 100 %
    /// and 150 %.
    #[test]
    fn three_features_are_ordered_one_at_a_time_all_in_sight() {
        let content = depths_rules::Content::builtin().unwrap();
        let ordering = |seed| {
            let mut g = Game::new(depths_rules::GameOptions::standard(&["bren", "sil"], seed), content.clone()).ok()?;
            for _ in 0..3000 {
                if matches!(g.pending(), Some(Pending::OrderFeatures { cards }) if cards.len() == 3) {
                    return Some(g);
                }
                let a = depths_sim::Bot::choose(&mut depths_sim::HeuristicBot, &g);
                g.apply(a).ok()?;
            }
            None
        };
        let game = (1..60).find_map(ordering).expect("three Features to order in some game");
        let Some(Pending::OrderFeatures { cards }) = game.pending() else { unreachable!() };
        let names: Vec<&str> = cards.iter().map(|f| f.name.as_str()).collect();
        for size in [(1366.0, 768.0, 1.5), (1280.0, 800.0, 1.5), (1366.0, 768.0, 1.0), (1280.0, 800.0, 1.0)] {
            let (_, first, _) = drawn_choices(&game, &[], size, None);
            let whats: Vec<&str> = first.iter().map(|c| c.what.as_str()).collect();
            assert_eq!(whats, names, "{size:?}: one button per Feature first");
            let (_, next, _) = drawn_choices(&game, &[], size, Some(1));
            let orders: Vec<Vec<usize>> = next
                .iter()
                .filter_map(|c| c.what.strip_prefix("ChooseOption { index: ")?.strip_suffix(" }")?.parse().ok())
                .map(|i: usize| depths_rules::encountering::feature_order(3, i))
                .collect();
            assert_eq!(orders, vec![vec![0, 1, 2], vec![0, 2, 1]], "{size:?}: the orders left after the first");
            for c in first.iter().chain(&next) {
                let whole = c.visible.expand(0.5).contains_rect(c.rect);
                assert!(whole, "{size:?}: {} at {:?} seen {:?}", c.what, c.rect, c.visible);
            }
        }
    }

    /// A playtester's "Pay 5 XP for an Ability for Ava" stood over "Ability
    /// for Sil · Stone Skin", a card left from the move before: a purchase
    /// draws no card revealed (its window is as tall with one as without),
    /// a Hero to choose for a card does.
    #[test]
    fn a_purchase_shows_no_card_left_from_before() {
        let content = depths_rules::Content::builtin().unwrap();
        let find = |want: fn(&Pending) -> bool| {
            (1..60).find_map(|seed| {
                let mut g =
                    Game::new(depths_rules::GameOptions::standard(&["bren", "sil"], seed), content.clone()).ok()?;
                for _ in 0..3000 {
                    if g.pending().is_some_and(want) {
                        return Some(g);
                    }
                    let a = depths_sim::Bot::choose(&mut depths_sim::HeuristicBot, &g);
                    g.apply(a).ok()?;
                }
                None
            })
        };
        let card = crate::table::reveal::RevealCard {
            family: crate::table::reveal::Family::Ecology,
            kind: "Ability for Sil".into(),
            title: "Stone Skin".into(),
            icon: ("ui", "power".into()),
            rules: vec!["Armor 2 this Round.".into()],
            flavour: String::new(),
            rows: Vec::new(),
        };
        let height = |game: &Game, revealed: &[&crate::table::reveal::RevealCard]| {
            let (_, _, window) = drawn_choices(game, revealed, (1280.0, 800.0, 1.0), None);
            window.expect("the decision's window").height()
        };
        let purchase = find(|p| matches!(p, Pending::Purchase { .. })).expect("a purchase in some game");
        assert_eq!(height(&purchase, &[&card]), height(&purchase, &[]), "the purchase's window holds no card");
        let choose = find(|p| matches!(p, Pending::ChooseHero(_))).expect("a Hero to choose in some game");
        assert!(height(&choose, &[&card]) > height(&choose, &[]), "a Hero to choose shows the card it answers");
    }

    fn split_actions(splits: &[Vec<u8>]) -> Vec<Action> {
        splits.iter().map(|a| Action::SplitHealing { amounts: a.clone() }).collect()
    }

    #[test]
    fn the_split_choice_reaches_exactly_the_legal_actions() {
        // 5 to share; Bren misses 1, Sil 9, Ava 9.
        let legal = split_actions(&depths_rules_splits(&[1, 9, 9], 5));
        let mut choice = SplitChoice::new(&legal_splits(&legal)).unwrap();
        assert_eq!((choice.total, choice.left(), choice.most.clone()), (5, 5, vec![1, 5, 5]));
        assert_eq!(choice.action(&legal), None, "nothing shared yet");
        choice.add(0);
        choice.add(0);
        assert_eq!(choice.amounts, vec![1, 0, 0], "Bren takes no more than he misses");
        choice.fill(1);
        assert_eq!(choice.amounts, vec![1, 4, 0]);
        assert!(!choice.can_add(2), "nothing left for Ava");
        choice.take(1);
        choice.add(2);
        assert_eq!(choice.left(), 0);
        assert_eq!(choice.action(&legal), Some(Action::SplitHealing { amounts: vec![1, 3, 1] }));
        choice.take(0);
        choice.take(0);
        assert_eq!(choice.amounts, vec![0, 3, 1], "never below 0");
        assert_eq!(choice.action(&legal), None);
    }

    #[test]
    fn with_little_missing_the_whole_split_is_the_only_one() {
        let legal = split_actions(&depths_rules_splits(&[1, 0, 2], 15));
        let mut choice = SplitChoice::new(&legal_splits(&legal)).unwrap();
        assert_eq!(choice.total, 3);
        choice.fill(0);
        choice.fill(1);
        choice.fill(2);
        assert_eq!(choice.action(&legal), Some(Action::SplitHealing { amounts: vec![1, 0, 2] }));
        assert_eq!(SplitChoice::new(&[]), None);
    }

    /// Every split of `points` (capped at what is missing), as the rules list them.
    fn depths_rules_splits(missing: &[u8], points: u8) -> Vec<Vec<u8>> {
        let total = u16::from(points).min(missing.iter().map(|&m| u16::from(m)).sum());
        let mut out = vec![vec![]];
        for &m in missing {
            out = out.into_iter().flat_map(|s: Vec<u8>| (0..=m).map(move |x| [s.clone(), vec![x]].concat())).collect();
        }
        out.retain(|s| s.iter().map(|&x| u16::from(x)).sum::<u16>() == total);
        out
    }
}
