//! The replay viewer: a game's moves since its start (kept with the game
//! and in its saves) played again on the table, step by step, forward and
//! back, with the board, the cards and the log as they were; it jumps to the
//! start of each Ecology and each Combat. Nothing can be changed while it
//! runs, and nothing is saved.
//!
//! The game at step N is rebuilt from the start (the rules core is
//! deterministic from its options and seed); a forward step or a jump also
//! publishes the events of the move it lands on, so the table shows it happen.

use bevy::prelude::*;
use depths_rules::{Action, Content, Event, Game, GameOptions};

use crate::{
    PlaySystems,
    game::hotseat::Players,
    game::screen::Screen,
    game::session::{GameContent, Session, SessionMut},
};

/// A replay on the table.
#[derive(Resource, Debug, Clone)]
pub struct Replay {
    pub options: GameOptions,
    pub history: Vec<Action>,
    pub players: Players,
    /// How many moves are shown done.
    pub step: usize,
    /// (step, "Caverns" / "Combat 3: Withered Shade"): where Ecologies and Combats begin.
    pub marks: Vec<(usize, String)>,
    /// The game's save, beside which its analysis is kept (`analysis.rs`).
    pub save: Option<std::path::PathBuf>,
}

/// Start watching a game from its first move: its options, its moves, who sat where.
#[derive(Message, Debug, Clone)]
pub struct WatchReplay {
    pub options: GameOptions,
    pub history: Vec<Action>,
    pub players: Players,
    /// The game's save, if it has one.
    pub save: Option<std::path::PathBuf>,
}

/// Watch the game in this save file again.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct ReplaySave(pub std::path::PathBuf);

/// Watch the careful bot play the standard game (Bren and Sil) of this seed.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct WatchSeed(pub u64);

/// The careful bot's moves in the game of `options`, to its end.
pub fn bot_game(options: &GameOptions, content: &Content) -> Vec<Action> {
    let Ok(mut game) = Game::new(options.clone(), content.clone()) else { return Vec::new() };
    let mut moves = Vec::new();
    // A whole game is a few hundred moves; the cap only guards a loop.
    while !game.is_over() && moves.len() < 20_000 {
        let a = depths_sim::Bot::choose(&mut depths_sim::HeuristicBot, &game);
        if game.apply(a.clone()).is_err() {
            break;
        }
        moves.push(a);
    }
    moves
}

/// Leave the replay: back to the game's end it was watched from, else to
/// the menu.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeaveReplay;

/// The finished game a replay was watched from, set aside whole (its log,
/// its seats, its clock) to come back to when the replay is left.
#[derive(Resource)]
pub struct FinishedAside(Session);

/// Go to this step of the replay.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct GoToStep(pub usize);

/// The game after the first `step` moves of `history`, with the last move's
/// events; an error names the move the rules refused (a save from other rules).
pub fn game_at(
    options: &GameOptions,
    content: &Content,
    history: &[Action],
    step: usize,
) -> Result<(Game, Vec<Event>), String> {
    game_and_fight_at(options, content, history, step).map(|(game, last, _)| (game, last))
}

/// [`game_at`], with the fight under way before the last move as the
/// table tallies it: each Hero's Health at its start and lost since.
fn game_and_fight_at(
    options: &GameOptions,
    content: &Content,
    history: &[Action],
    step: usize,
) -> Result<(Game, Vec<Event>, Option<Vec<(u8, i16)>>), String> {
    let mut game = Game::new(options.clone(), content.clone()).map_err(|e| e.to_string())?;
    let mut last = Vec::new();
    let (mut start, mut before_last): (Option<Vec<u8>>, Option<Vec<(u8, i16)>>) = (None, None);
    for (i, a) in history.iter().take(step).enumerate() {
        before_last = start.as_ref().map(|s| {
            s.iter().zip(&game.heroes).map(|(&at, hero)| (at, i16::from(at) - i16::from(hero.health))).collect()
        });
        last = game.apply(a.clone()).map_err(|e| format!("move {} ({a:?}) is refused: {e}", i + 1))?;
        for e in &last {
            match e {
                Event::CombatStarted { .. } => start = Some(game.heroes.iter().map(|h| h.health).collect()),
                Event::CombatWon | Event::GameLost { .. } => start = None,
                _ => {}
            }
        }
    }
    Ok((game, last, before_last))
}

/// Where each Ecology and each Combat begins in `history`.
pub fn marks(options: &GameOptions, content: &Content, history: &[Action]) -> Vec<(usize, String)> {
    let Ok(mut game) = Game::new(options.clone(), content.clone()) else { return Vec::new() };
    let mut out = vec![(0, game.adventure().map_or("Start".into(), |a| a.ecology.ecology.name().to_string()))];
    let mut combats = 0;
    for (i, a) in history.iter().enumerate() {
        let Ok(events) = game.apply(a.clone()) else { break };
        for e in &events {
            match e {
                Event::EcologyStarted { ecology } => out.push((i + 1, ecology.name().to_string())),
                Event::CombatStarted { foes } => {
                    combats += 1;
                    out.push((i + 1, format!("Combat {combats}: {}", foes.join(", "))));
                }
                // The other events, by name, so a new one is decided here.
                #[rustfmt::skip]
                Event::MonstersAssigned { .. } | Event::RoundStarted { .. } | Event::CardsDrawn { .. } |
                    Event::PowerStored { .. } | Event::DiscardReshuffled { .. } | Event::CannotPlay { .. } |
                    Event::CardPlayed { .. } | Event::MonsterCardPlayed { .. } | Event::MonsterCardWaiting { .. } |
                    Event::MonsterDeckReshuffled { .. } | Event::MonsterPowerDrawn { .. } |
                    Event::MonsterAbility { .. } | Event::MonsterPowerWasted { .. } |
                    Event::MonsterCardMoved { .. } | Event::PairChosen { .. } | Event::AbilityActivated { .. } |
                    Event::PowerSpent { .. } | Event::SpellExhausted { .. } | Event::MonsterDamaged { .. } |
                    Event::IndividualDefeated { .. } | Event::MonsterHealed { .. } |
                    Event::ReturnDamageAvoided { .. } | Event::HeroDamaged { .. } | Event::HeroHealed { .. } |
                    Event::FoeDefeated { .. } | Event::RoundEnded { .. } | Event::CombatWon |
                    Event::GameLost { .. } | Event::Note { .. } | Event::EcologyCompleted { .. } |
                    Event::TileDrawn { .. } | Event::TilePlaced { .. } | Event::TileSetAside { .. } |
                    Event::ElementEncountered { .. } | Event::LegendaryLocationEncountered { .. } |
                    Event::CardDrawn { .. } | Event::CardsOffered { .. } | Event::TestResolved { .. } |
                    Event::XpGained { .. } | Event::XpSpent { .. } | Event::KeysChanged { .. } |
                    Event::ItemGained { .. } | Event::AbilityGained { .. } | Event::Rested | Event::LevelUp { .. } |
                    Event::GameWon => {}
            }
        }
    }
    out
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<WatchReplay>();
    app.add_message::<GoToStep>();
    app.add_message::<ReplaySave>();
    app.add_message::<WatchSeed>();
    app.add_message::<LeaveReplay>();
    app.add_systems(Update, (replay_save, watch_seed, watch, go_to_step, leave).chain().in_set(PlaySystems::Rules));
    app.add_systems(OnEnter(Screen::Menu), |mut commands: Commands| {
        commands.remove_resource::<Replay>();
        commands.remove_resource::<FinishedAside>();
    });
}

fn replay_save(
    mut asks: MessageReader<ReplaySave>,
    mut watch: MessageWriter<WatchReplay>,
    mut notice: ResMut<crate::game::flow::MenuNotice>,
) {
    for ReplaySave(path) in asks.read() {
        match crate::game::saves::read_save(path) {
            Ok((game, Some(saved))) if saved.history.is_some() => {
                let Some(options) = game.adventure().map(|a| a.options.clone()) else { continue };
                let history = saved.history.unwrap_or_default();
                watch.write(WatchReplay { options, history, players: saved.players, save: Some(path.clone()) });
            }
            Ok(_) => notice.0 = Some(format!("{} did not keep its moves: it cannot be replayed.", path.display())),
            Err(e) => notice.0 = Some(format!("{}: {e}", path.display())),
        }
    }
}

fn watch_seed(
    mut asks: MessageReader<WatchSeed>,
    content: Option<Res<GameContent>>,
    mut watch: MessageWriter<WatchReplay>,
) {
    let Some(content) = content else { return };
    for WatchSeed(seed) in asks.read() {
        let options = GameOptions::standard(&["bren", "sil"], *seed);
        let history = bot_game(&options, &content.0);
        watch.write(WatchReplay { options, history, players: Players::default(), save: None });
    }
}

fn watch(
    mut commands: Commands,
    mut asks: MessageReader<WatchReplay>,
    content: Option<Res<GameContent>>,
    mut next: ResMut<NextState<Screen>>,
    screen: Res<State<Screen>>,
    finished: Option<Res<crate::game::session::Delve>>,
) {
    let Some(ask) = asks.read().last().cloned() else { return };
    let Some(content) = content else { return };
    let (game, _) = match game_at(&ask.options, &content.0, &ask.history, 0) {
        Ok(g) => g,
        Err(e) => {
            warn!("no replay: {e}");
            return;
        }
    };
    let marks = marks(&ask.options, &content.0, &ask.history);
    // Watched from a finished game's end: that game waits aside, and
    // leaving the replay comes back to it (it went to the menu).
    if finished.is_some_and(|d| d.game().is_over() && !d.read_only) {
        commands.queue(|world: &mut World| {
            if let Some(game) = Session::take_from(world) {
                world.insert_resource(FinishedAside(game));
            }
        });
    }
    let mut session = Session::new(game);
    session.seats.players = Players { curtain: false, ..ask.players.clone() };
    session.delve.history = None;
    session.delve.read_only = true;
    session.log.lines = vec!["Replay: the game from its first move. ◀ ▶ step through it.".into()];
    session.insert(&mut commands);
    commands.insert_resource(Replay {
        options: ask.options,
        history: ask.history,
        players: ask.players,
        step: 0,
        marks,
        save: ask.save,
    });
    // From the game-over screen the board stays: the new game lays it again.
    if *screen.get() != Screen::Playing {
        next.set(Screen::Playing);
    }
}

fn go_to_step(
    mut commands: Commands,
    reveals: Query<Entity, With<crate::game::notices::RevealSet>>,
    mut steps: MessageReader<GoToStep>,
    fit: Option<ResMut<crate::game::notices::FitRequested>>,
    replay: Option<ResMut<Replay>>,
    session: Option<SessionMut>,
    content: Option<Res<GameContent>>,
) {
    let Some(GoToStep(want)) = steps.read().last().copied() else { return };
    let (Some(mut replay), Some(mut session), Some(content)) = (replay, session, content) else { return };
    let want = want.min(replay.history.len());
    if want == replay.step {
        return;
    }
    match game_and_fight_at(&replay.options, &content.0, &replay.history, want) {
        Ok((game, events, fight)) => {
            // The fight's tally so far: its end, stepped onto, tells what it
            // cost each Hero (a replay's Victory said only "Victory").
            commands.insert_resource(crate::game::rules_events::FightSoFar(fight));
            // A jump lands somewhere new: frame the whole map again.
            if want.abs_diff(replay.step) > 1
                && let Some(mut fit) = fit
            {
                fit.0 = true;
            }
            session.moves().replace_game(game);
            // The cards revealed at the step left are not this step's.
            for e in &reveals {
                commands.entity(e).despawn();
            }
            // One step forward, or a jump: the table shows the move it lands
            // on happen (a jump to "Combat 2" shows that Monster's reveal).
            // One step back shows the table as it was, nothing happening.
            let back_one = want + 1 == replay.step;
            session.news.events = if back_one { Vec::new() } else { events };
            session.log.lines.push(format!("— step {want} of {} —", replay.history.len()));
            replay.step = want;
        }
        Err(e) => session.log.notice = Some(format!("The replay stops here: {e}")),
    }
}

/// Leaves the replay for the finished game it was watched from, laid on the
/// table again at its end; else for the menu.
fn leave(
    mut commands: Commands,
    mut asks: MessageReader<LeaveReplay>,
    aside: Option<Res<FinishedAside>>,
    mut menu: MessageWriter<crate::game::flow::MenuAction>,
) {
    if asks.read().last().is_none() {
        return;
    }
    if aside.is_none() {
        menu.write(crate::game::flow::MenuAction::BackToMenu);
        return;
    }
    commands.queue(|world: &mut World| {
        let Some(FinishedAside(mut game)) = world.remove_resource::<FinishedAside>() else { return };
        world.remove_resource::<Replay>();
        game.news.rebuild = true;
        game.insert_into(world);
        if let Some(mut fit) = world.get_resource_mut::<crate::game::notices::FitRequested>() {
            fit.0 = true;
        }
    });
}
