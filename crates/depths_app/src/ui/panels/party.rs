//! The party panel: the map tile tray and dead-end gauge, the selected
//! element and what Encountering it does, Keys, the XP pool, buying Keys and
//! Healing, the Legend and the Ecology Reference Card.

use super::widgets::*;
use crate::game::words;

pub(super) fn party_panel(
    ui: &mut egui::Ui,
    delve: &Delve,
    hand: &mut ResMut<TileInHand>,
    refused: &DropRefused,
    selected: &SelectedElement,
    previewed: &mut crate::game::focus::PreviewedEncounter,
    icons: &Icons,
    c: &mut Choices,
    forecasts: Option<&crate::game::forecasts::Forecasts>,
    tray: Option<egui::TextureId>,
) {
    use crate::game::forecasts::Subject;
    let game = delve.game();
    let Some(adv) = game.adventure() else { return };
    let eco = &adv.ecology;

    // The tile tray.
    ui.label(style::title("Map tiles", style::type_scale::HEADING));
    ui.horizontal(|ui| {
        c.button(ui, Action::DrawTile, "Draw tile (D)");
        ui.label(egui::RichText::new(format!("{} in the pile", eco.pile.len())).color(style::MUTED));
    });
    dead_end_gauge(ui, delve);
    if let Some((_, set_aside)) = delve.tile_in_hand() {
        const STATES: [&str; 2] = ["on the board", "in the tray"];
        let state = STATES[usize::from(hand.cell.is_none())];
        // Where it fits in this turn, or that it must be turned first.
        let places = delve.legal_placements();
        let here = hand.cell.is_some_and(|c| places.iter().any(|p| p.cell == c && p.rotation == hand.rotation));
        // Online, another seat's tile: shown, not taken up.
        let theirs = c.seated.and_then(|(d, s)| crate::board::explore::tile_not_ours(d, s));
        const TODO: [&str; 4] = [
            "click it again (or Enter) to place it",
            "drag it onto a gold cell",
            "it fits nowhere on the map",
            "it fits nowhere turned so:\nturn it (R)",
        ];
        let todo = if let Some(why) = &theirs {
            why.as_str()
        } else if here {
            // It waits on the board where it fits (a click or a drop there).
            TODO[0]
        } else if places.iter().any(|p| p.rotation == hand.rotation) {
            TODO[1]
        } else if places.is_empty() {
            TODO[2]
        } else {
            TODO[3]
        };
        let words = |state: &str, todo: &str, degrees: u32| {
            let tile = if set_aside { "The set-aside tile" } else { "The drawn tile" };
            format!("{tile}\nturned {degrees}°, {state}\n\n{todo}")
        };
        // Wrapped to the room beside the picture (at 150 % its lines ran
        // past the panel's edge), the tray as tall as the longest words it
        // may say: sized to each, it grew and shrank as the tile turned and
        // the Turn button under it moved from under the pointer.
        let wrap = (ui.available_width() - 132.0).max(60.0);
        let font = egui::FontId::proportional(style::type_scale::BODY);
        let tallest = TODO
            .iter()
            .copied()
            .chain(theirs.as_deref())
            .flat_map(|t| STATES.map(|s| (s, t)))
            .map(|(s, t)| ui.painter().layout(words(s, t, 270), font.clone(), style::GOLD, wrap).size().y)
            .fold(0.0, f32::max);
        let text = ui.painter().layout(
            words(state, todo, u32::from(hand.rotation.quarter_turns()) * 90),
            font,
            style::GOLD,
            wrap,
        );
        let height = (tallest + 20.0).max(120.0);
        let (rect, response) =
            ui.allocate_exact_size(egui::vec2(ui.available_width(), height), egui::Sense::click_and_drag());
        let painter = ui.painter_at(rect);
        painter.rect_filled(rect, 6.0, crate::theme::palette::WIDGET.egui());
        painter.rect_stroke(rect, 6.0, egui::Stroke::new(2.0, style::GOLD), egui::StrokeKind::Inside);
        let square =
            egui::Rect::from_min_size(egui::pos2(rect.min.x + 10.0, rect.center().y - 50.0), egui::vec2(100.0, 100.0));
        // The board's own art for the tile, turned as in hand (tray_preview.rs);
        // an empty square on the board and in the frame before it is drawn.
        if let Some(texture) = tray.filter(|_| hand.cell.is_none()) {
            let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
            painter.image(texture, square, uv, egui::Color32::WHITE);
        } else {
            painter.rect_stroke(square, 4.0, egui::Stroke::new(1.5, style::MUTED), egui::StrokeKind::Inside);
        }
        painter.galley(egui::pos2(square.right() + 12.0, rect.center().y - text.size().y / 2.0), text, style::GOLD);
        if response.drag_started() && theirs.is_none() {
            hand.dragging = true;
        }
        if response.hovered() && theirs.is_none() {
            ui.ctx().set_cursor_icon(egui::CursorIcon::Grab);
        }
        ui.horizontal(|ui| {
            let why = theirs.as_deref().unwrap_or_default();
            let back = ui.add_enabled(theirs.is_none(), egui::Button::new("⟲"));
            if back.on_hover_text("Turn back (Shift+R)").on_disabled_hover_text(why).clicked() {
                crate::board::explore::rotate(&mut *hand, 3);
            }
            let turn = ui.add_enabled(theirs.is_none(), egui::Button::new("⟳ Turn (R)"));
            if turn.on_disabled_hover_text(why).clicked() {
                crate::board::explore::rotate(&mut *hand, 1);
            }
        });
        let now = places.iter().filter(|p| p.rotation == hand.rotation).count();
        ui.label(
            egui::RichText::new(format!(
                // Two lines always: wrapped only at some counts, it moved what lies under it.
                "Places it fits: {now} turned so,\n{} turned any way",
                places.len()
            ))
            .color(style::MUTED),
        );
        // Its line is kept, empty or not, and one line: coming and going it
        // moved everything under it 20 px.
        let why = refused.0.as_ref().map_or_else(String::new, |r| format!("Not there: {r}"));
        kept_line(ui, &why, style::type_scale::BODY, style::notice());
        forecast_line(ui, forecasts, Subject::Tile, "Chance a later tile finds no place");
    }
    ui.separator();

    let reachable: Vec<Action> = c.legal.iter().filter(|a| matches!(a, Action::Encounter { .. })).cloned().collect();
    let rows = within_reach_rows(ui, reachable.clone());
    // A fight's row tells its chance on hover, worked out while the pointer
    // rests there: a click Encounters at once.
    let fight = |a: &Action| match a {
        Action::Encounter { element } => eco.map.element(*element).is_some_and(|(e, _)| {
            matches!(e, depths_rules::map::Element::Monster { .. } | depths_rules::map::Element::StairGuardian)
        }),
        _ => false,
    };
    let mut previewing = None;
    if !rows.is_empty() {
        let list = ui.scope(|ui| {
            ui.label(egui::RichText::new("Within reach").strong());
            for a in &rows {
                let label = crate::game::words::describe_action(game, a);
                // A row kept under the pointer after it was done says so,
                // not only greyed (it read like a choice refused). In words:
                // the fonts have no tick (it was drawn as an empty box).
                let label = row_words(&eco.map, a, reachable.contains(a), label);
                // The way there when it is not a walk (a Lantern gone through
                // a passage looked like one that walked through a locked Door).
                let through = match a {
                    Action::Encounter { element } => eco.map.passage_on_the_way(element.area_ref()),
                    _ => None,
                };
                let label = match through {
                    Some(p) => format!("{label} ({})", words::by_passage(p)),
                    None => label,
                };
                let is_fight = fight(a);
                let chance = is_fight.then(|| {
                    const WHAT: &str = "Chance to win this fight";
                    let ready = forecasts.filter(|f| f.fight_after(a));
                    forecast_text(ready, Subject::Fight, WHAT).map_or_else(|| format!("{WHAT}: estimating…"), |t| t.0)
                });
                let (_, on) = c.button_hover(ui, a.clone(), label, chance);
                if on && is_fight {
                    previewing = Some(a.clone());
                }
            }
        });
        // Kept while the pointer is on the list or anywhere under it in the
        // panel: what lies below moves up as the list shrinks (a click
        // meant for "More Healing" opened the Reference Card).
        let below = egui::Rect::from_min_max(
            egui::pos2(ui.max_rect().min.x.min(list.response.rect.min.x), list.response.rect.min.y),
            egui::pos2(ui.max_rect().max.x.max(list.response.rect.max.x), ui.clip_rect().max.y),
        );
        let pass = ui.ctx().cumulative_pass_nr();
        ui.data_mut(|d| d.insert_temp(egui::Id::new(WITHIN_REACH), (rows, below, pass)));
    }
    if previewed.0 != previewing {
        previewed.0 = previewing;
    }
    let legendary = game.discovered_legendary_locations();
    if !legendary.is_empty() {
        ui.label(egui::RichText::new("Legendary Locations discovered").strong());
        for (i, m) in legendary.iter().enumerate() {
            c.button(
                ui,
                Action::EncounterLegendary { index: i as u8 },
                format!(
                    "Encounter Legendary Location {} ({})",
                    words::legendary_name(game, i as u8),
                    words::counted(m.cells.len() as u64, "tile", "tiles")
                ),
            );
        }
    }
    // The selected element, under what is within reach: above it, its
    // words coming and going as a token was clicked moved the "Within
    // reach" buttons 140 px.
    if let Some(e) = selected.0
        && let Some((element, _)) = eco.map.element(e)
    {
        ui.separator();
        ui.label(style::title(element.name(), style::type_scale::HEADING));
        ui.label(crate::game::words::element_help(element));
        ui.label(egui::RichText::new(words::element_state_text(game, e)).color(style::MUTED));
        c.button(ui, Action::Encounter { element: e }, "Encounter");
        if matches!(element, depths_rules::map::Element::Monster { .. } | depths_rules::map::Element::StairGuardian) {
            forecast_line(ui, forecasts, Subject::Fight, "Chance to win this fight");
        }
    }
    ui.separator();

    // Keys, XP, buying.
    ui.label(style::title("The party", style::type_scale::HEADING));
    if matches!(game.pending(), Some(Pending::Purchase { .. } | Pending::SplitHealing { .. })) {
        // Mid-purchase the playouts would judge a half-paid bill: no figure.
        ui.label(
            egui::RichText::new("Chance to win the game from here: after the purchase")
                .color(style::MUTED)
                .size(style::type_scale::SMALL),
        );
    } else {
        forecast_line(ui, forecasts, Subject::Game, "Chance to win the game from here");
    }
    ui.horizontal(|ui| {
        icons.show(ui, "ui", "key", 18.0, style::GOLD);
        ui.label(format!("Keys: {}", adv.keys));
    });
    let xp = game.pool_xp();
    ui.horizontal(|ui| {
        icons.show(ui, "ui", "xp", 18.0, style::GOLD);
        ui.label(format!("XP pool: {xp} in {}", words::counted(adv.xp_pool.len() as u64, "card", "cards")));
    });
    if !adv.xp_pool.is_empty() {
        // The pool as cards: each a small chip with its XP, the name on hover.
        egui::CollapsingHeader::new(format!("XP cards ({})", adv.xp_pool.len()))
            .id_salt("xp_cards")
            .default_open(adv.xp_pool.len() <= 12)
            .show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    ui.spacing_mut().item_spacing = egui::vec2(4.0, 4.0);
                    for card in &adv.xp_pool {
                        egui::Frame::new()
                            .fill(crate::theme::palette::XP_CARD.egui())
                            .stroke(egui::Stroke::new(1.0, style::GOLD.gamma_multiply(0.6)))
                            .corner_radius(3.0)
                            .inner_margin(egui::Margin::symmetric(4, 1))
                            .show(ui, |ui| {
                                ui.label(egui::RichText::new(card.xp.to_string()).strong().color(style::GOLD));
                            })
                            .response
                            .on_hover_text(&card.name);
                    }
                });
            });
    }
    let r = &eco.reference;
    // "Items may be spent as XP": a purchase the pool alone cannot pay is
    // still open when Items make up the rest, and the buttons say so.
    let items_xp: u16 = game.heroes.iter().flat_map(|h| &h.items).map(|i| u16::from(i.card.xp)).sum();
    let with_items = |cost: u16| xp < cost && xp + items_xp >= cost;
    ui.horizontal_wrapped(|ui| {
        for (what, name, cost) in [
            (Purchase::Key, "Buy a Key", u16::from(r.key_cost)),
            // What it buys, not only its cost (5 XP became "Share 10 Health" unannounced).
            (
                Purchase::Healing { units: 1 },
                &*format!("Buy {} Health", game.healing_per_unit()),
                u16::from(r.healing.xp),
            ),
        ] {
            let a = Action::StartPurchase { what };
            if with_items(cost) && c.is_legal(&a) {
                let label = format!("{name} ({cost} XP, with Items)");
                let hover = format!(
                    "The XP pool holds {xp} XP; the Heroes' Items make up the rest (an Item spent as XP is lost)."
                );
                c.button_with_hover(ui, a, label, &hover);
            } else {
                c.button(ui, a, format!("{name} ({cost} XP)"));
            }
        }
    });
    let more: Vec<u8> = c
        .legal
        .iter()
        .filter_map(|a| match a {
            Action::StartPurchase { what: Purchase::Healing { units } } if *units > 1 => Some(*units),
            _ => None,
        })
        .collect();
    if !more.is_empty() {
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("More, {} Health each:", game.healing_per_unit()))
                .on_hover_text("Buy several Healings in one purchase: each is shared out among the Heroes.");
            for units in more {
                // What the "×3" buys, in XP and Health, on hover.
                let (cost, health) = (u16::from(units) * u16::from(r.healing.xp), u16::from(units) * game.healing_per_unit());
                let hover = format!(
                    "Buy Healing {units} times at once: {cost} XP for {health} Health, shared out among the Heroes as you choose."
                );
                c.button_with_hover(ui, Action::StartPurchase { what: Purchase::Healing { units } }, format!("×{units}"), &hover);
            }
        });
    }
    egui::CollapsingHeader::new("Legend").default_open(false).show(ui, style::legend);
    egui::CollapsingHeader::new("Reference Card").default_open(false).show(ui, |ui| {
        // A card in the Ecology's colours, as the book's Reference Card is.
        let tones = (crate::theme::palette::ECOLOGY_CARD, crate::theme::palette::ECOLOGY_EDGE);
        let ink = crate::theme::palette::CARD_TEXT.egui();
        mat_card(ui, tones, false, |ui| {
            ui.label(style::title(r.ecology.name(), style::type_scale::LEAD).color(ink));
            egui::Grid::new("reference_card").num_columns(2).spacing([12.0, 2.0]).show(ui, |ui| {
                let rows = [
                    ("Monster", format!("{} XP", r.monster_xp)),
                    ("Feature", format!("{} XP", r.feature_xp)),
                    ("Legendary Location", format!("{}–{} XP", r.legendary_xp[0], r.legendary_xp[1])),
                    ("Healing", format!("{} XP: {} per Hero", r.healing.xp, r.healing.health)),
                    ("Key", format!("{} XP", r.key_cost)),
                    ("Ability", format!("{} XP", r.ability_cost)),
                ];
                for (what, worth) in rows {
                    ui.label(egui::RichText::new(what).color(ink));
                    ui.label(egui::RichText::new(worth).strong().color(ink));
                    ui.end_row();
                }
            });
        });
    });
}

/// How many tiles left in the pile would have no legal place right now.
fn dead_end_gauge(ui: &mut egui::Ui, delve: &Delve) {
    // Once the Stair Guardian is met, no tile of this Ecology will be drawn again.
    if matches!(delve.game().phase(), depths_rules::Phase::LevelUp { .. } | depths_rules::Phase::Passage { .. }) {
        return;
    }
    let (dead, total) = delve.dead_ends_in_pile();
    if total == 0 {
        return;
    }
    let f = dead as f32 / total as f32;
    let color = if dead == 0 {
        good()
    } else if f < 0.25 {
        style::notice()
    } else {
        bad()
    };
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new("Dead ends now").size(style::type_scale::SMALL));
        // None yet: no fill at all (its least, a round dot, sat over the "0").
        let fill = if dead == 0 { egui::Color32::TRANSPARENT } else { color.gamma_multiply(0.7) };
        ui.add(
            egui::ProgressBar::new(f)
                .desired_width(ui.available_width())
                .fill(fill)
                .text(format!("{dead} of {total} tiles")),
        )
        .on_hover_text(
            "Tiles left in the pile that have no legal place on the map as it is now: drawing one loses the game.",
        );
    });
}

/// A "Within reach" row's words: "Done: …" only for an element dealt with;
/// one merely not open now (a Feature's test under way) keeps its words,
/// greyed with the reason (both rows read "Done" while one Feature resolved).
fn row_words(map: &depths_rules::map::Map, a: &Action, open: bool, label: String) -> String {
    let done = match a {
        Action::Encounter { element } => {
            map.element(*element).is_some_and(|(_, state)| state != depths_rules::map::ElementState::Present)
        }
        _ => false,
    };
    if !open && done { format!("Done: {label}") } else { label }
}

/// Where the "Within reach" rows are kept between frames.
const WITHIN_REACH: &str = "within_reach_rows";

/// The "Within reach" rows: while the pointer rests on the list (or on
/// what lies under it in the panel), each row
/// keeps its place (one dealt with stays, greyed with its reason; a new one
/// comes last), so a quick second click never lands on the row that slid
/// up under it; once the pointer leaves, the rows are what is in reach now.
fn within_reach_rows(ui: &egui::Ui, reachable: Vec<Action>) -> Vec<Action> {
    let kept: Option<(Vec<Action>, egui::Rect, u64)> = ui.data(|d| d.get_temp(egui::Id::new(WITHIN_REACH)));
    kept_rows(kept, ui.ctx().pointer_hover_pos(), ui.ctx().cumulative_pass_nr(), reachable)
}

/// [`within_reach_rows`] from what was kept: the rows, where they lay and in
/// which pass (only the pass before counts: a list not drawn since, during
/// a fight, say, is gone).
fn kept_rows(
    kept: Option<(Vec<Action>, egui::Rect, u64)>,
    pointer: Option<egui::Pos2>,
    pass: u64,
    reachable: Vec<Action>,
) -> Vec<Action> {
    match kept {
        Some((mut rows, rect, at)) if at + 1 >= pass && pointer.is_some_and(|p| rect.contains(p)) => {
            rows.extend(reachable.into_iter().filter(|a| !rows.contains(a)).collect::<Vec<_>>());
            rows
        }
        _ => reachable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use depths_rules::map::ElementRef;

    fn encounter(x: i32) -> Action {
        Action::Encounter { element: ElementRef { cell: (x, 0), area: 0, element: 0 } }
    }

    /// A new player's report: after an Encounter the "Within reach" list
    /// changed under an impatient second click, which Encountered the next
    /// row. While the pointer rests on the list its rows keep their places.
    /// A row is "Done" only once its element is dealt with.
    #[test]
    fn only_an_element_dealt_with_reads_done() {
        let mut game =
            Game::new(depths_rules::GameOptions::standard(&["bren"], 2), depths_rules::Content::builtin().unwrap())
                .unwrap();
        let element = loop {
            let map = &game.adventure().unwrap().ecology.map;
            if let Some(e) = map.reachable_unencountered_elements().into_iter().next() {
                break e;
            }
            game.apply(Action::DrawTile).unwrap();
            let place = game.legal_actions().into_iter().find(|a| matches!(a, Action::PlaceTile { .. })).unwrap();
            game.apply(place).unwrap();
        };
        let a = Action::Encounter { element };
        let map = game.adventure().unwrap().ecology.map.clone();
        assert_eq!(row_words(&map, &a, false, "Encounter it".into()), "Encounter it", "not open now, not done");
        assert_eq!(row_words(&map, &a, true, "Encounter it".into()), "Encounter it");
        let mut after = map.clone();
        after.encounter(element).unwrap();
        assert_eq!(row_words(&after, &a, false, "Encounter it".into()), "Done: Encounter it");
    }

    #[test]
    fn within_reach_rows_keep_their_places_under_the_pointer() {
        let (a, b, c) = (encounter(1), encounter(2), encounter(3));
        let list = egui::Rect::from_min_size(egui::pos2(900.0, 150.0), egui::vec2(300.0, 90.0));
        let kept = Some((vec![a.clone(), b.clone()], list, 41));
        let (on, off) = (Some(egui::pos2(950.0, 170.0)), Some(egui::pos2(500.0, 400.0)));
        // `a` was Encountered: `b` stays second, `c` (new) comes last.
        assert_eq!(kept_rows(kept.clone(), on, 42, vec![b.clone(), c.clone()]), vec![a.clone(), b.clone(), c.clone()]);
        // The pointer gone, or the list not drawn in the pass before: what is in reach now.
        assert_eq!(kept_rows(kept.clone(), off, 42, vec![b.clone(), c.clone()]), vec![b.clone(), c.clone()]);
        assert_eq!(kept_rows(kept.clone(), on, 44, vec![c.clone()]), vec![c.clone()]);
        assert_eq!(kept_rows(None, on, 42, vec![b.clone()]), vec![b]);
    }
}
