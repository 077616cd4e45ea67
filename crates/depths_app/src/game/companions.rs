//! Companions: a Hero's seat may be played by the careful bot
//! (`depths_sim::HeuristicBot`) instead of a player. A Companion makes its
//! Hero's decisions — its Combat cards, the pair it Resolves, its Abilities,
//! its damage, its Level Up choices — and its share of Exploring turns (a
//! seat of its own in the turn order, `hotseat::Players::seats`), through
//! the same [`PlayerAction`] a player's click writes, after a pause from the
//! speed setting (⚙ Settings), each move with a one-line reason in the log.
//!
//! A Companion only ever moves for its own Hero: an action naming a Hero is
//! taken only for a Companion's Hero, and one naming none (drawing a tile,
//! the joint choices) only when the turn or the decision is a Companion's.
//! When only a player may act, the Companions wait. Seats change hands at
//! any time ([`SetCompanion`]; the box on each Hero mat), and saves keep them.
//!
//! Online the Companions are the host's alone (its rules core is the only
//! one that applies moves): `online.rs` keeps [`CompanionsOnline`], and on
//! the host a Companion's move goes out as a [`CompanionAction`] for the host
//! to check and send to everyone, while a remote player's table runs none.

use bevy::{
    ecs::message::{MessageCursor, Messages},
    prelude::*,
    tasks::{AsyncComputeTaskPool, Task, block_on, futures_lite::future},
};
use depths_rules::{Action, Game};
use depths_seats::seats::Strength;

use crate::{
    PlaySystems,
    game::animating::{Wait, Waiting},
    game::game_log::{CompanionNote, GameLog},
    game::screen::Screen,
    game::session::{Delve, PlayerAction, Seats, SessionMut, Undo},
    game::words::{describe_action, outcome_name},
};

/// Seat a Companion at Hero `hero` (`on`), or take the seat back for its owner.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetCompanion {
    pub hero: u8,
    pub on: bool,
}

/// A Companion's move on an online host's table, for `online.rs` to send
/// through the host (offline a Companion writes [`PlayerAction`] instead).
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct CompanionAction(pub Action);

/// Present while a game is played online (`online.rs` keeps it): on the
/// host the Companions move through it ([`CompanionAction`]), unless the
/// table waits for a player; on a remote player's table they do not move.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompanionsOnline {
    Host { paused: bool },
    Remote,
}

/// Every move the Companions made this run, oldest first (the moves are in
/// the log in words; this is the record a test can check).
#[derive(Resource, Default, Debug, Clone)]
pub struct CompanionMoves(pub Vec<Action>);

pub use depths_seats::seats::{decision_hero, seat_hero};

/// The Companion whose turn it is to explore (and to make the table's shared
/// choices): a Companion's seat, or a player all of whose Heroes are Companions.
pub fn turn_companion(game: &Game, seats: &Seats) -> Option<u8> {
    depths_seats::seats::turn_companion(game, &seats.players, &seats.turn)
}

/// Whether a Companion may take `action` now: it is legal, and it is for a
/// Companion's Hero, or for no Hero while the decision or the turn is a
/// Companion's.
pub fn companion_may_take(game: &Game, seats: &Seats, action: &Action) -> bool {
    game.check(action).is_ok()
        && depths_seats::seats::companion_may_take(game, &seats.players, &seats.turn, action).is_ok()
}

/// The move a Companion makes now, if any (`seats::companion_choice`, the
/// one choice an online host's Companions make too).
pub fn companion_choice(game: &Game, seats: &Seats) -> Option<Action> {
    depths_seats::seats::companion_choice(game, &seats.players, &seats.turn)
}

/// A planning Companion's move, worked out off the frame for one table
/// version (the planning bot takes tens of milliseconds a move).
#[derive(Default)]
pub struct Thinking {
    version: Option<u64>,
    task: Option<Task<Option<Action>>>,
    ready: Option<Option<Action>>,
}

impl Thinking {
    /// The planning Companion's move at table `version`: `Some` once worked
    /// out, `None` while it still thinks (begun here, off the frame, the
    /// first time this version is asked about; its end wakes the window).
    fn answer(
        &mut self,
        game: &Game,
        seats: &Seats,
        version: u64,
        seed: u64,
        proxy: Option<&bevy::winit::EventLoopProxyWrapper>,
    ) -> Option<Option<Action>> {
        if self.version != Some(version) {
            // A new table: the old work is dropped unseen.
            let (game, players, turn) = (game.clone(), seats.players.clone(), seats.turn.clone());
            let wake = proxy.map(|p| (**p).clone());
            *self = Thinking {
                version: Some(version),
                task: Some(AsyncComputeTaskPool::get().spawn(async move {
                    let choice =
                        depths_seats::seats::companion_choice_by(&game, &players, &turn, Strength::Planning, seed);
                    if let Some(w) = wake {
                        let _ = w.send_event(bevy::winit::WinitUserEvent::WakeUp);
                    }
                    choice
                })),
                ready: None,
            };
        }
        if let Some(task) = self.task.as_mut()
            && let Some(choice) = block_on(future::poll_once(task))
        {
            self.task = None;
            self.ready = Some(choice);
        }
        self.ready.clone()
    }
}

/// The move's line in the log, in player words, with why it was made where
/// that is plain: "Companion Sil plays a 7 against the Skeleton".
pub fn reason(game: &Game, seats: &Seats, action: &Action) -> String {
    let name = |h: u8| game.heroes.get(usize::from(h)).map_or("?", |h| h.name()).to_owned();
    let what = describe_action(game, action);
    let combat = game.combat();
    let foe_of = |e: usize| {
        combat
            .and_then(|c| c.engagements.get(e).and_then(|en| c.foes.get(usize::from(en.foe))))
            .map(|f| f.name().to_owned())
    };
    match action {
        Action::PlayCard { hero, .. } => {
            let foe = combat.and_then(|c| c.playing_engagement(*hero)).and_then(foe_of);
            match foe {
                Some(foe) => format!("Companion {what} against the {foe}"),
                None => format!("Companion {what}"),
            }
        }
        Action::ChoosePair { engagement, slot, .. } => {
            let outcome = combat.and_then(|c| {
                let en = c.engagements.get(usize::from(*engagement))?;
                let bonus = c.foes.get(usize::from(en.foe))?.card_bonus;
                en.slots.get(usize::from(*slot))?.outcome(bonus)
            });
            match outcome {
                Some(o) => format!("Companion {what}: a {}", outcome_name(o)),
                None => format!("Companion {what}"),
            }
        }
        Action::AssignDamage { hero, individual } => {
            // What the damage does there: a defeat, or how much it takes off.
            let effect = combat.and_then(|c| {
                let p = c.packets.get(c.packet_of(*hero)?)?;
                let foe = c.foes.get(usize::from(p.foe))?;
                let i = usize::from(*individual);
                let health = foe.individuals.get(i)?.health;
                let dealt = foe.damage_taken(i, p.amount, p.magic);
                Some(if dealt >= health {
                    " to defeat it".to_owned()
                } else {
                    format!(" ({dealt} of its {health} Health)")
                })
            });
            format!("Companion {what}{}", effect.unwrap_or_default())
        }
        Action::EndTurn { hero } => format!("Companion {} is done this Round", name(*hero)),
        a if seat_hero(a).is_some() => format!("Companion {what}"),
        _ => {
            let who = decision_hero(game).or_else(|| turn_companion(game, seats));
            match who {
                Some(h) => format!("Companion {}: {what}", name(h)),
                None => format!("Companion: {what}"),
            }
        }
    }
}

/// The Companions' moves since the players last acted, in a line: the
/// last few, with how many came before (the log has each). None for a
/// single move (its own note said it) or none.
pub fn run_told(run: &[String]) -> Option<String> {
    const SHOWN: usize = 3;
    if run.len() < 2 {
        return None;
    }
    let last = &run[run.len().saturating_sub(SHOWN)..];
    let before = run.len() - last.len();
    let more = if before > 0 { format!("{before} moves, then ") } else { String::new() };
    Some(format!("While you waited, the Companions made {more}{}", last.join(" · ")))
}

/// What the log tells of a Companion's `action`, chosen at table `version`:
/// its reason, joined to the move's own line once it is made
/// (`GameLog::tell_companion`), here and on every online table.
pub fn companion_note(game: &Game, seats: &Seats, version: u64, action: &Action) -> CompanionNote {
    CompanionNote { version, alone: reason(game, seats, action), why: crate::game::hint::why(game, action) }
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<SetCompanion>();
    app.add_message::<CompanionAction>();
    app.init_resource::<CompanionMoves>();
    app.add_systems(Update, seat_companions.in_set(PlaySystems::Input));
    app.add_systems(
        Update,
        companions_play.in_set(PlaySystems::Input).after(seat_companions).run_if(in_state(Screen::Playing)),
    );
}

/// A seat handed to a Companion or taken back (offline; online the host
/// does it, through `online.rs`).
fn seat_companions(mut sets: MessageReader<SetCompanion>, session: Option<SessionMut>) {
    let Some(mut session) = session else {
        sets.clear();
        return;
    };
    for &SetCompanion { hero, on } in sets.read() {
        session.moves().seat_companion(hero, on);
    }
}

/// When a Companion may move, waits the setting's pause (asking for frames
/// meanwhile: [`Wait::CompanionPause`]), then writes its move.
#[allow(clippy::too_many_arguments)]
fn companions_play(
    time: Res<Time<Real>>,
    session: Option<(Res<Delve>, Res<Seats>, ResMut<GameLog>, Res<Undo>)>,
    settings: Option<Res<crate::game::settings::Settings>>,
    mut actions: ResMut<Messages<PlayerAction>>,
    mut seen: Local<MessageCursor<PlayerAction>>,
    mut moves: ResMut<CompanionMoves>,
    mut waiting: Local<Option<(u64, f32)>>,
    (reveals, fight_end): (Query<&crate::game::notices::ReadFor>, Option<Res<crate::game::rules_events::FightEnd>>),
    (online, mut online_moves, mut sent, mut pause, mut thinking, proxy): (
        Option<Res<CompanionsOnline>>,
        MessageWriter<CompanionAction>,
        Local<Option<(u64, f32)>>,
        ResMut<Waiting>,
        Local<Thinking>,
        Option<Res<bevy::winit::EventLoopProxyWrapper>>,
    ),
    (mut run, mut toast): (Local<Vec<String>>, MessageWriter<crate::game::notices::Toast>),
) {
    // Frames keep coming only while a pause below runs out.
    pause.set(Wait::CompanionPause, false);
    // A move is on its way (a player's, or the last one's): judge the table after it.
    if seen.read(&actions).count() > 0 {
        *waiting = None;
        return;
    }
    let Some((delve, seats, mut log, undo)) = session else {
        *waiting = None;
        return;
    };
    let game = delve.game();
    // A player must hand the table over first; a replay only looks; online
    // only the host's Companions move, and not while the table waits.
    let online = online.map(|o| *o);
    if delve.read_only
        || seats.curtain(game).is_some()
        || seats.hand_off_due(game).is_some()
        || matches!(online, Some(CompanionsOnline::Remote | CompanionsOnline::Host { paused: true }))
        // At one screen the fight's end is read before the table goes on: the
        // Companions played on behind it, the next fight under the Victory.
        // (Only one on screen: the panels mark it shown.)
        || (online.is_none() && fight_end.is_some_and(|f| f.moment.as_ref().is_some_and(|m| m.shown_at.is_some())))
    {
        *waiting = None;
        *sent = None;
        return;
    }
    // The careful choice says whether a Companion moves at all (a planning
    // Companion has a move exactly when a careful one has).
    let Some(careful) = companion_choice(game, &seats) else {
        *waiting = None;
        // The table is the players' again: what the Companions did meanwhile,
        // in a line (at the instant pace a tile placed and a Feature resolved
        // went by with no word but the log's).
        // (In a fight the table itself shows each card they played.)
        if let Some(told) = run_told(&run).filter(|_| !game.in_combat()) {
            toast.write(crate::game::notices::Toast(told));
        }
        run.clear();
        return;
    };
    let now = time.elapsed_secs();
    // Online the move comes back from the host a frame or more later: one
    // move per table state (again after a while, should it have been lost).
    if sent.is_some_and(|(version, at)| version == delve.version() && now - at < 3.0) {
        return;
    }
    // The pause runs while a planning Companion thinks.
    let since = match *waiting {
        Some((version, since)) if version == delve.version() => since,
        _ => {
            *waiting = Some((delve.version(), now));
            now
        }
    };
    let strength = settings.as_ref().map_or(Strength::default(), |s| s.companion_strength);
    let speed = settings.as_ref().map_or(crate::game::settings::Speed::default(), |s| s.companion_speed);
    let mut delay = speed.delay();
    // A card shown large on the table is given the time its words take to
    // read at the chosen pace (a click or Space takes it away sooner).
    for read in &reveals {
        delay = delay.max(read.0 * speed.reading_share());
    }
    let action = match strength {
        Strength::Careful => careful.clone(),
        Strength::Planning => {
            match thinking.answer(game, &seats, delve.version(), delve.situation_seed(), proxy.as_deref()) {
                Some(Some(action)) => action,
                Some(None) => {
                    *waiting = None;
                    return;
                }
                // Still thinking: its end wakes the window; the pace's pause
                // asks for frames meanwhile, as below.
                None => {
                    pause.set(Wait::CompanionPause, now - since < delay);
                    return;
                }
            }
        }
    };
    // A move just taken back is not made again until the table moves on
    // (a new move, or Redo).
    if undo.next_redo() == Some(&action) {
        *waiting = None;
        return;
    }
    if now - since < delay {
        pause.set(Wait::CompanionPause, true);
        return;
    }
    // Told once: with the move's own line in the log, once it is made.
    let mut note = companion_note(game, &seats, delve.version(), &action);
    if action != careful {
        // Not the careful bot's rule of thumb: say what the search found.
        note.why = format!(
            "played out in reshuffled worlds, it did clearly better than the careful choice ({})",
            describe_action(game, &careful)
        );
    }
    log.companion = Some(note);
    run.push(describe_action(game, &action));
    moves.0.push(action.clone());
    if online.is_some() {
        *sent = Some((delve.version(), now));
        online_moves.write(CompanionAction(action));
    } else {
        actions.write(PlayerAction(action));
    }
    *waiting = None;
}

#[cfg(test)]
mod tests {
    use super::run_told;

    #[test]
    fn a_run_of_companion_moves_is_told_in_one_line() {
        let run = |n: usize| (1..=n).map(|i| format!("move {i}")).collect::<Vec<_>>();
        assert_eq!(run_told(&run(1)), None, "one move is told by its own note");
        assert_eq!(run_told(&run(2)).as_deref(), Some("While you waited, the Companions made move 1 · move 2"));
        let long = run_told(&run(7)).unwrap();
        assert!(long.contains("4 moves, then move 5 · move 6 · move 7"), "{long}");
    }
}
