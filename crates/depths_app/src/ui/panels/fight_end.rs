//! The end of a fight, told in the middle of the board's room from its
//! first frame: Victory (or the Hero who fell), the XP gained and what the
//! fight cost each Hero, over the dimmed window; in egui, so no panel or
//! decision window covers it. It stays until a click (or Space or Enter),
//! which does nothing else (a click meant for it played a card under it); gone after
//! a few seconds, a player looking at the board missed what the fight gave.

use super::widgets::*;
use crate::game::rules_events::FightEnd;

/// A click this soon after it came was meant for the table before it.
const DEAF: f64 = 0.3;

/// Draws the end of the fight, and dismisses it.
pub(super) fn fight_end_panel(
    mut contexts: EguiContexts,
    view: GameView,
    pass_on: Res<PanelPass>,
    mut end: ResMut<FightEnd>,
    real: Res<Time<Real>>,
) -> Result {
    // Behind the pass screen it waits for the next player to see it.
    if end.moment.is_none() || pass_on.curtain {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let now = real.elapsed_secs_f64();
    let Some(moment) = end.moment.as_mut() else { return Ok(()) };
    let born = *moment.shown_at.get_or_insert(now);
    let (title, lines) =
        crate::game::words::fight_end_words(view.delve.game(), moment.fell, &moment.xp, moment.cost.as_deref());
    let won = moment.fell.is_none();
    // With every Hero a Companion nobody is at the table to click it away
    // ("A Companion needs nobody at the table"): it goes by itself once
    // read (three Companions' game stood still on a Victory).
    let game = view.delve.game();
    let watched = (0..game.heroes.len() as u8).all(|h| view.seats.players.is_companion(h)) && !game.is_over();
    let read_for = 2.5 + 0.6 * lines.len() as f64;
    let room = pass_on.room.unwrap_or(ctx.content_rect());
    // The whole window dims (a modal's backdrop): a click anywhere puts the
    // moment away and reaches nothing under it.
    let screen = ctx.content_rect();
    let dim = egui::Area::new(egui::Id::new("fight_end_dim"))
        .order(egui::Order::Foreground)
        .fixed_pos(screen.min)
        .show(ctx, |ui| {
            let (rect, response) = ui.allocate_exact_size(screen.size(), egui::Sense::click());
            ui.painter().rect_filled(rect, 0.0, crate::theme::palette::BLACK.egui_alpha(110));
            response
        })
        .inner;
    let width = 420.0f32.min(room.width() - 24.0);
    let accent = if won { style::GOLD } else { bad() };
    egui::Area::new(egui::Id::new("fight_end"))
        .order(egui::Order::Tooltip)
        .pivot(egui::Align2::CENTER_CENTER)
        .fixed_pos(room.center())
        .constrain_to(room)
        .interactable(false)
        .show(ctx, |ui| {
            style::panel_frame().stroke(egui::Stroke::new(3.0, accent)).inner_margin(24.0).show(ui, |ui| {
                ui.set_width(width - 48.0);
                ui.vertical_centered(|ui| {
                    // Wrapped to the box: a centred line does not wrap by
                    // itself, and at 150 % "+2 XP for the party: Pair of
                    // Carrion Birds" spread the box over the party panel.
                    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Wrap);
                    ui.label(style::title(&title, style::type_scale::BANNER).color(accent));
                    ui.add_space(6.0);
                    for line in &lines {
                        ui.label(egui::RichText::new(line).size(style::type_scale::LEAD));
                    }
                    ui.add_space(8.0);
                    let go_on = if watched {
                        "The Companions go on in a moment: a click, Space or Enter goes on now"
                    } else {
                        "Click, or press Space or Enter, to go on"
                    };
                    ui.label(egui::RichText::new(go_on).size(style::type_scale::SMALL).color(style::MUTED));
                });
            });
        });
    let key = ctx.input(|i| i.key_pressed(egui::Key::Space) || i.key_pressed(egui::Key::Enter));
    let read = watched && now - born > read_for;
    if ((dim.clicked() || key) && now - born > DEAF) || read {
        end.moment = None;
        ctx.request_repaint();
    } else if now - born <= DEAF {
        ctx.request_repaint_after(std::time::Duration::from_secs_f64(DEAF));
    } else if watched {
        ctx.request_repaint_after(std::time::Duration::from_secs_f64(read_for - (now - born) + 0.05));
    }
    Ok(())
}
