//! `--steadiness-check FILE`: the table holds still between moves, looked at
//! from inside the running client. The health check looks at one frame at
//! rest; this one plays Combats move by move (a two-player hot-seat game,
//! three Heroes against two Monster cards, one Hero alone, the guided game's
//! fight, three Heroes against a Group of four over a second card, a one-card hand
//! dealt two more mid-Round) at 1280×800 and 1366×768, at 100 % and 150 %, each move made where
//! a player clicks it (the pointer is put on the card or row first, and
//! stays there), and after each move, once the table is at rest, it checks that
//! - nothing slid under the pointer: what lies there now to click is what
//!   was clicked, or what lay there before (a card played from a hand
//!   leaves a gap; the next card must not close it under the pointer);
//! - the table's room keeps its place and size through a Round (the Combat
//!   strip's lines coming and going moved the whole table), and nothing on
//!   offer moves within a Round, under the pointer or not (slots and hands
//!   jumped 10-26 px as a pass button or a placed Monster card came);
//! - the hover box of what lies under the pointer covers none of the other
//!   places to click (an individual's row opened a box over the pairs and
//!   hands);
//! - no card in hand and no pile lies over a Monster card (at 150 % a card
//!   laid anew grew down over hands kept where they were dealt), and no
//!   Monster card is laid too short for its individuals' rows (laid short
//!   above those hands, a row was drawn under its foot);
//! - the Combat strip's lines are all in sight (the guided game's words for
//!   a later step pushed the forecast under its foot);
//! - a card in hand is no smaller at 150 % than at 100 % in the same state
//!   (the panels grow and leave the table less room: the cards came out
//!   46-60 px wide for 55-99 until the hands took their height first).
//!
//! It writes each (play, size, scale) and its faults to FILE as JSON lines,
//! prints each, and exits non-zero when any check failed.
//! `FD_STEADY_SHOTS=DIR` saves a PNG of the table at rest after each move;
//! `FD_STEADY_PLAY=N` plays only the Nth play (from 0).

use std::{io::Write, path::PathBuf};

use bevy::{
    prelude::*,
    render::view::screenshot::{Screenshot, save_to_disk},
    window::PrimaryWindow,
};
use bevy_egui::{EguiContext, PrimaryEguiContext, egui};
use depths_rules::{Action, Content, Game, GameOptions};
use depths_sim::Bot;

use crate::{
    game::cli::Options,
    game::focus::BoardArea,
    game::hotseat::Players,
    game::screen::Screen,
    game::session::{Delve, GameContent, PlayerAction, Seats, Session},
    game::settings::Settings,
    table::cards::{TableCard, TableGeometry, legal_at_table},
    table::faces::{CardKey, Kind},
};

/// The window sizes and UI scales played at.
const CONFIGS: [((u32, u32), f32); 4] =
    [((1280, 800), 1.0), ((1280, 800), 1.5), ((1366, 768), 1.0), ((1366, 768), 1.5)];
/// Moves played in each Combat at most.
const MOVES: usize = 60;
/// How far (window px) a place to click may drift within a Round: a
/// rounding, not a move.
const JUMP: f32 = 2.0;
/// Frames a move or a switch may take to come to rest before it is a fault.
const SETTLE_MAX: u32 = 300;

/// One Combat to play: its name, the game at its first move, who sits where.
struct Play {
    name: String,
    game: Game,
    players: Players,
    /// The guided game's words are in the Combat strip.
    guided: bool,
    /// Its hand cards are compared at 150 % with 100 %. Not yet in the
    /// fight against a Group of four over a second card: at 1366×768 and
    /// 150 % the two cards' rows leave the hands no room under them, and
    /// beside them they are 77 px wide against 94 at 100 % (known, open).
    hands_compared: bool,
}

/// What the table showed at rest after a move.
#[derive(Clone, Debug, Default)]
struct Still {
    /// The Combat's Round.
    round: u32,
    /// The table's room (window px).
    room: Option<Rect>,
    /// The places to click and their moves (window px).
    targets: Vec<(Rect, Action)>,
    /// The smallest card in a hand (window px), if any.
    hand: Option<Vec2>,
    /// The hover box shown (window px), if any.
    hover: Option<Rect>,
    /// The pass screen hides the table.
    curtain: bool,
    /// Points of the Combat strip's lines cut by its foot.
    cut: f32,
    /// A card in hand or a pile lies over a Monster card.
    over_foe: bool,
    /// A Monster card is laid too short for its individuals' rows (they
    /// were drawn under its foot, over the piles).
    short_foe: bool,
}

#[derive(Resource)]
struct SteadyJob {
    path: PathBuf,
    plays: Vec<Play>,
    play: usize,
    config: usize,
    moves: usize,
    frames: u32,
    /// The table after the last move, and where the pointer clicked it.
    last: Option<Still>,
    clicked: Option<(Vec2, Action)>,
    /// The move to make once the pointer, put on its place, has come to
    /// rest there: a player's pointer reaches a card before the click does.
    pending: Option<Action>,
    /// The smallest hand card after each move of this play at 100 %, per size.
    hands: Vec<((u32, u32), usize, Vec2, Option<Rect>)>,
    faults: Vec<String>,
    outcomes: Vec<Outcome>,
}

/// What one play showed at one size and scale.
struct Outcome {
    play: String,
    size: (u32, u32),
    scale: f32,
    faults: Vec<String>,
}

pub(super) fn plugin(app: &mut App) {
    let Some(path) = app.world().get_resource::<Options>().and_then(|o| o.steadiness_check.clone()) else { return };
    app.insert_resource(SteadyJob {
        path,
        plays: Vec::new(),
        play: 0,
        config: 0,
        moves: 0,
        frames: 0,
        last: None,
        clicked: None,
        pending: None,
        hands: Vec::new(),
        faults: Vec::new(),
        outcomes: Vec::new(),
    });
    app.add_systems(Last, drive);
    // Cards fly ten times as fast: the check waits for them at rest.
    app.add_systems(Startup, |mut time: ResMut<Time<Virtual>>| time.set_relative_speed(10.0));
}

/// The Combats played: the first Combat of a careful game of each party.
fn plays(content: &Content) -> Vec<Play> {
    let hot_seat = Players { names: vec!["Ann".into(), "Bo".into()], owners: vec![0, 1], ..default() };
    // The pass screen on: each player passes the table, and lifts it.
    let curtained = Players { curtain: true, ..hot_seat.clone() };
    let any = 1..=40u64;
    let guide = crate::game::guide::GUIDE_SEED..=crate::game::guide::GUIDE_SEED;
    // Each: its Heroes, players, the least Monster cards in the fight and
    // the least individuals on the first (the top one, where there are two).
    let parties: [(&str, &[&str], Players, (usize, usize), _); 7] = [
        ("hot-seat, two players, Bren and Sil", &["bren", "sil"], hot_seat, (1, 1), any.clone()),
        ("hot-seat with the pass screen, Bren and Sil", &["bren", "sil"], curtained, (1, 1), any.clone()),
        ("three Heroes, two Monster cards", &["bren", "sil", "ava"], Players::default(), (2, 1), any.clone()),
        ("one Hero", &["ava"], Players::default(), (1, 1), any.clone()),
        ("the guided game's fight", &["bren", "sil"], Players::default(), (1, 1), guide),
        // A tall Monster card over a second one: laid short above the hands
        // kept where they were dealt, a row fell under its foot.
        (
            "three Heroes, a Group of four and another card",
            &["bren", "sil", "ava"],
            Players::default(),
            (2, 4),
            any.clone(),
        ),
        // A hand of one card that must play two: played, the Discard is
        // shuffled and two more are dealt mid-Round (every hand was laid
        // anew under the pointer).
        ("a hand that runs out mid-Round", &["bren", "sil"], Players::default(), (1, 0), 1..=400u64),
    ];
    let mut out = Vec::new();
    for (name, heroes, players, (foes, rows), seeds) in parties {
        let guided = seeds.start() == seeds.end();
        // Rows 0: the fight is looked for by the hand about to run out.
        let runs_out = rows == 0;
        'seeds: for seed in seeds {
            let Ok(mut game) = Game::new(GameOptions::standard(heroes, seed), content.clone()) else { continue };
            for _ in 0..3000 {
                if game.is_over() {
                    continue 'seeds;
                }
                let fight = |c: &depths_rules::combat::Combat| {
                    c.foes.len() >= foes && c.foes.first().is_some_and(|f| f.individuals.len() >= rows)
                };
                let ready = if runs_out { hand_runs_out(&game) } else { game.combat().is_some_and(fight) };
                if ready {
                    let hands_compared = rows < 4;
                    out.push(Play { name: format!("{name} (seed {seed})"), game, players, guided, hands_compared });
                    break 'seeds;
                }
                let a = depths_sim::HeuristicBot.choose(&game);
                if game.apply(a).is_err() {
                    continue 'seeds;
                }
            }
        }
    }
    out
}

/// A Hero about to play the last card of a one-card hand with another card
/// still to play this Round, the Draw Pile empty and the Discard not: the
/// next play shuffles and deals mid-Round.
fn hand_runs_out(game: &Game) -> bool {
    let Some(c) = game.combat() else { return false };
    c.engagements.iter().any(|e| {
        let hero = &game.heroes[e.hero as usize];
        c.playing_engagement(e.hero).is_some()
            && e.hero_cards >= e.played() + 2
            && hero.hand.len() == 1
            && hero.draw.is_empty()
            && !hero.discard.is_empty()
    })
}

fn drive(world: &mut World) {
    // FD_STEADY_SHOTS=DIR asks for a PNG of the table at rest after each move: then the cameras draw.
    let shots = std::env::var_os("FD_STEADY_SHOTS").map(PathBuf::from);
    if super::health::tool_frame(world, "steadiness check", shots.is_some()).is_none() {
        return;
    }
    if world.resource::<SteadyJob>().plays.is_empty() {
        let Some(content) = world.get_resource::<GameContent>().map(|c| c.0.clone()) else { return };
        let mut plays = plays(&content);
        // FD_STEADY_PLAY=N plays only the Nth (from 0), to look at one closely.
        if let Some(n) = std::env::var("FD_STEADY_PLAY").ok().and_then(|n| n.parse::<usize>().ok()) {
            plays = plays.into_iter().skip(n).take(1).collect();
        }
        info!("steadiness check: {} plays × {} sizes and scales", plays.len(), CONFIGS.len());
        if plays.is_empty() {
            error!("steadiness check: no Combat found to play");
            world.write_message(AppExit::error());
            return;
        }
        world.resource_mut::<SteadyJob>().plays = plays;
    }
    let (play, config, frames) = {
        let job = world.resource::<SteadyJob>();
        (job.play, job.config, job.frames)
    };
    if play >= world.resource::<SteadyJob>().plays.len() {
        if play == world.resource::<SteadyJob>().plays.len() {
            world.resource_mut::<SteadyJob>().play += 1;
            finish(world);
        }
        return;
    }
    let ((w, h), scale) = CONFIGS[config];
    if frames == 0 && world.resource::<SteadyJob>().moves == 0 && world.resource::<SteadyJob>().last.is_none() {
        set_up(world, play, (w, h), scale);
    }
    let unsettled = super::health::settling(world, (w, h), scale);
    if frames < 4 || (unsettled.is_some() && frames < SETTLE_MAX) {
        world.resource_mut::<SteadyJob>().frames += 1;
        return;
    }
    if let Some(why) = unsettled {
        world.resource_mut::<SteadyJob>().faults.push(format!("after {SETTLE_MAX} frames {why}"));
    }
    if let Some(a) = world.resource_mut::<SteadyJob>().pending.take() {
        world.write_message(PlayerAction(a));
        world.resource_mut::<SteadyJob>().frames = 0;
        return;
    }
    let still = look(world);
    compare(world, &still, (w, h), scale);
    if let Some(dir) = shots {
        let moves = world.resource::<SteadyJob>().moves;
        let path = dir.join(format!("play{play}-{w}x{h}-{:.0}-move{moves:02}.png", scale * 100.0));
        world.spawn(Screenshot::primary_window()).observe(save_to_disk(path));
    }
    let over = world.resource::<Delve>().game().combat().is_none();
    let moves = world.resource::<SteadyJob>().moves;
    if over || moves >= MOVES || !act(world, &still) {
        next_config(world, (w, h), scale);
        return;
    }
    let mut job = world.resource_mut::<SteadyJob>();
    job.last = Some(still);
    job.moves += 1;
    job.frames = 0;
}

/// Lays the play's game on the table at this size and scale.
fn set_up(world: &mut World, play: usize, (w, h): (u32, u32), scale: f32) {
    let (game, players, guided) = {
        let p = &world.resource::<SteadyJob>().plays[play];
        (p.game.clone(), p.players.clone(), p.guided)
    };
    // The guide at its fight, each step explained anew.
    world.resource_mut::<crate::game::guide::Guide>().0 = guided.then_some(crate::game::guide::FIGHT);
    world.resource_mut::<crate::game::guide::Explained>().0.clear();
    let mut session = Session::new(game);
    session.seats.players = players;
    session.insert_into(world);
    let mut window = world.query_filtered::<&mut Window, With<PrimaryWindow>>().single_mut(world).expect("window");
    window.resolution.set_physical_resolution(w, h);
    window.set_cursor_position(None);
    world.resource_mut::<Settings>().ui_scale = scale;
    NextState::set_if_neq(&mut world.resource_mut::<NextState<Screen>>(), Screen::Playing);
}

/// The table at rest.
fn look(world: &mut World) -> Still {
    let round = world.resource::<Delve>().game().combat().map_or(0, |c| c.round);
    let room = world.resource::<BoardArea>().0;
    let targets = world.resource::<TableGeometry>().targets.iter().map(|t| (t.rect, t.action.clone())).collect();
    let now = world.resource::<Time>().elapsed_secs();
    let hand = world
        .query::<&TableCard>()
        .iter(world)
        .filter(|c| c.kind == Kind::Hand)
        .map(|c| c.screen_rect(now).size())
        .min_by(|a, b| a.x.total_cmp(&b.x));
    let curtain = world.resource::<Seats>().curtain(world.resource::<Delve>().game()).is_some();
    // Cards at rest only: one flying in crosses everything on its way.
    let lying = |kinds: &[Kind], world: &mut World| -> Vec<Rect> {
        let mut q = world.query::<&TableCard>();
        q.iter(world).filter(|c| kinds.contains(&c.kind) && !c.leaving).map(|c| c.screen_rect(now)).collect()
    };
    let foes = lying(&[Kind::Foe], world);
    let over_foe = lying(&[Kind::Hand, Kind::Pile], world)
        .iter()
        .any(|h| foes.iter().any(|f| h.intersect(*f).width() > 1.0 && h.intersect(*f).height() > 1.0));
    let rows: Vec<usize> = world
        .resource::<Delve>()
        .game()
        .combat()
        .map_or(Vec::new(), |c| c.foes.iter().map(|f| f.individuals.len()).collect());
    let short_foe = world.query::<&TableCard>().iter(world).any(|c| match c.key {
        CardKey::Foe(i) if !c.leaving => {
            rows.get(i).is_some_and(|&n| c.face_height() + 0.5 < crate::table::layout::foe_least_height(n))
        }
        _ => false,
    });
    let cut =
        egui_context(world).and_then(|c| c.data(|d| d.get_temp::<f32>(egui::Id::new(crate::ui::panels::STRIP_CUT))));
    let hover = hover_box(world);
    Still { round, room, targets, hand, hover, curtain, cut: cut.unwrap_or(0.0), over_foe, short_foe }
}

fn egui_context(world: &mut World) -> Option<egui::Context> {
    Some(world.query_filtered::<&mut EguiContext, With<PrimaryEguiContext>>().single_mut(world).ok()?.get_mut().clone())
}

/// Where the card's hover box lies this frame (window px), if it is shown.
fn hover_box(world: &mut World) -> Option<Rect> {
    let ctx = egui_context(world)?;
    let id = egui::Id::new(crate::ui::panels::HOVER_BOX);
    let shown = ctx.memory(|m| m.areas().visible_layer_ids().into_iter().any(|l| l.id == id));
    let r = ctx.memory(|m| m.area_rect(id)).filter(|_| shown)?;
    Some(crate::theme::style::in_pixels(r, ctx.zoom_factor()))
}

/// The faults of `still` against the table before the last move.
fn compare(world: &mut World, still: &Still, size: (u32, u32), scale: f32) {
    let mut job = world.resource_mut::<SteadyJob>();
    let moves = job.moves;
    // Nothing is compared across the pass screen: nobody clicks through it.
    if let Some(before) = job.last.clone().filter(|b| !b.curtain && !still.curtain) {
        // What was done: a click on the table, or the table passed on.
        let clicked = job.clicked.clone().map(|(_, a)| a);
        let done = clicked.as_ref().map_or_else(|| "the table was passed on".to_owned(), |a| format!("{a:?}"));
        // Nothing else on offer moves within a Round, under the pointer or
        // not: a slot or a hand that jumps as a line or a button comes is a
        // table a player cannot trust.
        if before.round == still.round && still.round > 0 {
            // A move's place as a whole: a pair is one frame, then its two cards.
            let place = |targets: &[(Rect, Action)], a: &Action| {
                targets.iter().filter(|(_, b)| b == a).map(|(r, _)| *r).reduce(|x, y| x.union(y))
            };
            let mut seen: Vec<&Action> = Vec::new();
            for (_, a) in &still.targets {
                if seen.contains(&a) {
                    continue;
                }
                seen.push(a);
                let (Some(was), Some(now)) = (place(&before.targets, a), place(&still.targets, a)) else { continue };
                if Some(a) != clicked.as_ref() && was.center().distance(now.center()) > JUMP {
                    let (from, to) = (was.center(), now.center());
                    let fault = format!(
                        "after {} (move {moves}), {a:?} moved within Round {} from ({:.0},{:.0}) to ({:.0},{:.0})",
                        done, still.round, from.x, from.y, to.x, to.y
                    );
                    job.faults.push(fault);
                }
            }
        }
        if before.round == still.round && before.room != still.room && still.round > 0 {
            let fault = format!(
                "the table's room moved within Round {} after {done}: from {:?} to {:?}",
                still.round, before.room, still.room
            );
            job.faults.push(fault);
        }
    }
    if let (Some(before), Some((at, clicked))) = (job.last.clone(), job.clicked.clone()) {
        // What lies under the pointer now was clicked, or lay there before.
        let under = |targets: &[(Rect, Action)]| -> Vec<Action> {
            targets.iter().filter(|(r, _)| r.contains(at)).map(|(_, a)| a.clone()).collect()
        };
        let was = under(&before.targets);
        // A Monster card's row takes one Hero's Damage, then the next
        // Hero's: the same place, the same row.
        let same = |a: &Action, b: &Action| crate::table::faces::same_place(a, b);
        // A Monster's card placed into a pair makes that pair: the click put it there.
        let made = |a: &Action| match (&clicked, a) {
            (Action::PlaceMonsterCard { hero, slot }, Action::ChoosePair { hero: h, slot: s, .. }) => {
                hero == h && slot == s
            }
            _ => false,
        };
        for a in under(&still.targets) {
            if !same(&a, &clicked) && !made(&a) && !was.iter().any(|w| same(w, &a)) {
                let fault = format!("after {clicked:?}, {a:?} slid under the pointer at ({:.0},{:.0})", at.x, at.y);
                job.faults.push(fault);
            }
        }
        // The box for what lies under the pointer keeps off the other places to click.
        if let Some(hover) = still.hover {
            let covered: Vec<&Action> = still
                .targets
                .iter()
                .filter(|(r, _)| !r.contains(at) && !r.intersect(hover).is_empty())
                .map(|(_, a)| a)
                .collect();
            if !covered.is_empty() {
                let fault = format!("after {clicked:?}, the hover box at {hover:?} covers {covered:?}");
                job.faults.push(fault);
            }
        }
    }
    // The strip's lines all in sight: a line that comes mid-Round must have
    // had its room kept from the Round's start.
    if still.cut > 1.0 && still.round > 0 && !still.curtain {
        let fault = format!(
            "after move {moves} in Round {}, {:.0} points of the Combat strip's lines are cut",
            still.round, still.cut
        );
        job.faults.push(fault);
    }
    // The hands and piles never cover a Monster card, nor is it laid too
    // short for its rows (its rows are clicked).
    let foe_faults = [
        (still.over_foe, "a card in hand or a pile covers a Monster card"),
        (still.short_foe, "a Monster card is too short for its individuals' rows"),
    ];
    for (_, what) in foe_faults.into_iter().filter(|(fault, _)| *fault && !still.curtain) {
        job.faults.push(format!("after move {moves} in Round {}, {what}", still.round));
    }
    // A hand card no smaller at 150 % than at 100 % after the same moves.
    let compared = job.plays.get(job.play).is_some_and(|p| p.hands_compared);
    if let Some(hand) = still.hand.filter(|_| compared) {
        if scale == 1.0 {
            job.hands.push((size, moves, hand, still.room));
        } else if let Some((_, _, at_100, room_100)) = job.hands.iter().find(|(s, m, ..)| *s == size && *m == moves)
            && hand.x + 0.5 < at_100.x
        {
            let room = |r: &Option<Rect>| r.map_or("?".to_owned(), |r| format!("{:.0}x{:.0}", r.width(), r.height()));
            let fault = format!(
                "after {moves} moves a card in hand is {:.0} px wide at {:.0} % (the table {}), {:.0} px at 100 % ({})",
                hand.x,
                scale * 100.0,
                room(&still.room),
                at_100.x,
                room(room_100),
            );
            job.faults.push(fault);
        }
    }
}

/// Makes the careful bot's move where a player clicks it: on its place on
/// the table, the pointer left there; a move with no place on the table
/// (End turn) from the strip. `false` when there is no move to make.
fn act(world: &mut World, still: &Still) -> bool {
    let game = world.resource::<Delve>().game().clone();
    let legal = legal_at_table(world.resource::<Delve>(), world.resource::<Seats>());
    let choice = depths_sim::HeuristicBot.choose(&game);
    // With the pass screen, the table goes where the move is: lifted, handed
    // over, or passed to the player whose Hero moves next.
    let seats = world.resource::<Seats>();
    let passing = if seats.curtain(&game).is_some() {
        Some(Passing::Lift)
    } else if legal.is_empty() && seats.hand_off_due(&game).is_some() {
        Some(Passing::HandOver)
    } else if seats.players.curtain && !legal.contains(&choice) {
        crate::game::hotseat::action_hero(&choice).map(|h| Passing::To(seats.players.owner(h)))
    } else {
        None
    };
    if let Some(passing) = passing {
        match passing {
            Passing::Lift => world.write_message(crate::game::hotseat::LiftCurtain).map(drop),
            Passing::HandOver => world.write_message(crate::game::hotseat::HandOver).map(drop),
            Passing::To(p) => world.write_message(crate::game::hotseat::PassTable(p)).map(drop),
        };
        world.resource_mut::<SteadyJob>().clicked = None;
        return true;
    }
    if legal.is_empty() {
        return false;
    }
    let a = if legal.contains(&choice) { choice } else { legal[0].clone() };
    let place = still.targets.iter().find(|(_, t)| *t == a).map(|(r, _)| r.center());
    if let Some(at) = place {
        let mut window = world.query_filtered::<&mut Window, With<PrimaryWindow>>().single_mut(world).expect("window");
        window.set_cursor_position(Some(at));
    }
    let mut job = world.resource_mut::<SteadyJob>();
    job.clicked = place.map(|at| (at, a.clone()));
    job.pending = Some(a);
    true
}

/// How the table goes on to the next player.
enum Passing {
    Lift,
    HandOver,
    To(usize),
}

/// This play is done at this size and scale: note it, go on to the next.
fn next_config(world: &mut World, size: (u32, u32), scale: f32) {
    let mut job = world.resource_mut::<SteadyJob>();
    let name = job.plays[job.play].name.clone();
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v.dedup();
        v
    };
    let faults = sorted(std::mem::take(&mut job.faults));
    let (w, h, moves) = (size.0, size.1, job.moves);
    info!("steadiness check: {name} at {w}x{h} {:.0} %: {moves} moves, {} faults", scale * 100.0, faults.len());
    job.outcomes.push(Outcome { play: name, size, scale, faults });
    job.moves = 0;
    job.frames = 0;
    job.last = None;
    job.clicked = None;
    job.config += 1;
    if job.config == CONFIGS.len() {
        job.config = 0;
        job.play += 1;
        job.hands.clear();
    }
}

fn finish(world: &mut World) {
    let job = world.resource::<SteadyJob>();
    let quoted = |v: &[String]| v.iter().map(|f| format!("{f:?}")).collect::<Vec<_>>().join(",");
    let mut text = String::new();
    for o in &job.outcomes {
        text.push_str(&format!(
            "{{\"play\":{:?},\"size\":\"{}x{}\",\"scale\":{},\"faults\":[{}]}}\n",
            o.play,
            o.size.0,
            o.size.1,
            o.scale,
            quoted(&o.faults),
        ));
    }
    if let Err(e) = std::fs::File::create(&job.path).and_then(|mut f| f.write_all(text.as_bytes())) {
        error!("steadiness check: cannot write {}: {e}", job.path.display());
    }
    for o in &job.outcomes {
        let at = format!("{} at {}x{} {:.0} %", o.play, o.size.0, o.size.1, o.scale * 100.0);
        for f in &o.faults {
            println!("  {at}: {f}");
        }
    }
    let faults: usize = job.outcomes.iter().map(|o| o.faults.len()).sum();
    println!(
        "steadiness check: {} plays, {} checked, {faults} faults ({})",
        job.plays.len(),
        job.outcomes.len(),
        job.path.display()
    );
    world.write_message(if faults == 0 { AppExit::Success } else { AppExit::error() });
}
