//! The game on the table, as resources by role: the game itself ([`Delve`]),
//! its change feed ([`EventFeed`]), the log in words ([`GameLog`]), who sits
//! where ([`Seats`]), the moves that can be taken back ([`Undo`]) and the
//! saves ([`SaveSlot`]).
//! Systems ask only for the parts they read; a move touches them all, so it
//! is applied in one place, [`Moves::apply`] (through [`SessionMut`] in the
//! app). The UI and the board input only write [`PlayerAction`] messages;
//! this runs headless.

use bevy::{ecs::system::SystemParam, prelude::*};
use depths_rules::{
    Action, Content, Event, Game, GameOptions, History, Phase, UndoRefused,
    map::{Placement, Rotation},
};

use crate::game::game_log::GameLog;
use crate::game::words::{describe_action, refusal_text, undo_refused_text};
use depths_seats::seats::{Players, Turn};

use crate::{PlaySystems, game::notices::Toast, game::play_phase::PlayPhase, game::screen::Screen};
use depths_rules::map::Cell;

/// The cards and tiles, loaded from `assets/content/` on the loading screen.
#[derive(Resource, Clone, Debug)]
pub struct GameContent(pub Content);

/// The game being played: the rules core's [`Game`] and what the board and
/// the replay follow of it. Present exactly while a game is at the table.
#[derive(Resource, Debug)]
pub struct Delve {
    /// Changed only by [`Moves`] (and [`Delve::swap_content`]), which bump `version`.
    game: Game,
    /// Bumped after every change of the game (and on load): the board re-syncs.
    version: u64,
    /// This sitting (a game laid on the table) among all in this run (a start, a load, a replay): a
    /// new one is never taken for the last at the same version.
    sitting: u64,
    /// Every action applied since the game began, for the replay; `None` for
    /// a game loaded from a save that did not keep them.
    pub history: Option<Vec<Action>>,
    /// A replay: the table only looks, moves are refused and nothing is saved.
    pub read_only: bool,
}

/// The table's change feed: what the rules said since it was last published
/// as messages (`rules_events`), kept apart so the game itself changes only
/// when a move is made.
#[derive(Resource, Debug, Default)]
pub struct EventFeed {
    /// Events applied since they were last published, oldest first.
    pub events: Vec<Event>,
    /// The whole board must be laid again (a new game, a load).
    pub rebuild: bool,
    /// A move was taken back: tiles no longer on the map leave the board,
    /// tokens and the Lantern go back.
    pub taken_back: bool,
}

/// Who sits at the table: the players and their Heroes, whose turn it is
/// (hot-seat, `hotseat.rs`), and online the seat this machine plays.
#[derive(Resource, Debug, Default)]
pub struct Seats {
    /// The players at the table and who owns which Hero.
    pub players: Players,
    /// Whose turn it is to explore, and who has seen the table.
    pub turn: Turn,
    /// Online: the seat this machine plays. The table offers only its
    /// Heroes' moves (the host would refuse the others').
    pub seat: Option<usize>,
    /// Online: the seats it plays for, its own first, then those it stands
    /// in for (`online.rs` keeps it to the lobby's).
    pub acts_as: Vec<usize>,
    /// Online: the players the table waits for (no one may move meanwhile).
    pub waiting_for: Vec<String>,
    /// Online, a player's table: why its moves cannot reach the host now
    /// (the connection lost, or being dialled again); None while connected.
    pub link_down: Option<String>,
    /// Online, a player's table: whether its connection goes through a relay
    /// (Some(false): directly to the host); None where not known.
    pub relayed: Option<bool>,
    /// Online: the connections gone quiet, whose (a player's name; "the
    /// host" on a player's table) and for how many seconds.
    pub quiet: Vec<(String, u64)>,
    /// Online, on the host: the key (its text) that sat at each seat. Saved:
    /// a host that resumes the game lets these keys back without an invite.
    pub keys: Vec<Option<String>>,
}

/// The moves the table can take back: the rules core's [`History`] (every
/// move since the last one that revealed something, with the game before
/// it) and, beside each, what the table kept then that the game does not
/// hold (the round summary and notes of the log, the turn).
#[derive(Resource, Debug, Default)]
pub struct Undo {
    history: History,
    /// The table before each move of the history, oldest first.
    before: Vec<SessionBefore>,
    /// Online (`Some`): whether this seat may ask for the last move back now
    /// (the host may take back any seat's move, a player only their own);
    /// a move taken back online is not made again.
    pub online: Option<Result<(), String>>,
}

/// The table's own state before a move: restored with the game when the
/// move is taken back. The log is kept without its lines: they stay, since
/// they say what happened.
#[derive(Clone, Debug)]
struct SessionBefore {
    log: GameLog,
    turn: Turn,
    /// The move in words, said in the game it was made in.
    words: String,
}

impl Undo {
    /// The move an undo would take back, or why there is none.
    pub fn next_undo(&self) -> Result<&Action, UndoRefused> {
        self.history.next_undo()
    }

    /// The move a redo would make again.
    pub fn next_redo(&self) -> Option<&Action> {
        self.history.next_redo()
    }

    /// How many moves can be taken back.
    pub fn undoable(&self) -> usize {
        self.history.undoable()
    }

    /// Nothing before now can be taken back (an online seat change: the
    /// turns after a move depend on the seats).
    pub fn forget(&mut self) {
        self.history = History::default();
        self.before.clear();
    }

    /// What Undo would take back, in words, or why nothing can be.
    pub fn undo_words(&self) -> Result<&str, String> {
        if let Some(Err(why)) = &self.online {
            return Err(why.clone());
        }
        match self.history.next_undo() {
            Ok(_) => Ok(self.before.last().map_or("the last move", |t| t.words.as_str())),
            Err(why) => Err(undo_refused_text(&why)),
        }
    }

    /// What Redo would make again, in words. After an undo `game` is the
    /// game the move was first made in, so its words are said the same way.
    /// Why not where it would make nothing: online a move taken back is
    /// not made again (a greyed Redo said "Nothing taken back" there).
    pub fn redo_words(&self, game: &Game) -> Result<String, String> {
        if self.online.is_some() {
            return Err(NO_REDO_ONLINE.to_owned());
        }
        self.history
            .next_redo()
            .map(|a| describe_action(game, a))
            .ok_or_else(|| undo_refused_text(&UndoRefused::NothingToRedo))
    }
}

/// Why Redo does nothing online (the keys and the greyed button say it).
pub const NO_REDO_ONLINE: &str = "Online, a move taken back is not made again: make it anew.";

/// What a replay says to a move tried on it.
pub const REPLAY_REFUSAL: &str = "This is a replay: moves are not made here.";

/// Where this game saves to, and whether a save is due.
#[derive(Resource, Debug)]
pub struct SaveSlot {
    /// Where this game's saves go (file stem), fixed when it starts.
    pub name: String,
    /// A phase change, an undo or Ctrl+S asks for a save, written at once.
    pub due: bool,
    /// A move was made: a save is written off the frame.
    pub moved: bool,
}

/// One game's resources in hand: what a start, a load, a replay or an online
/// join builds before laying it on the table ([`Session::insert`]), and a way
/// to drive a game without the app (tools, tests).
#[derive(Debug)]
pub struct Session {
    pub delve: Delve,
    pub news: EventFeed,
    pub log: GameLog,
    pub seats: Seats,
    pub undo: Undo,
    pub saves: SaveSlot,
    /// Time at the table and whether its end is recorded (`records.rs`).
    pub clock: crate::game::play_clock::PlayClock,
}

/// Everything applying a move touches, for the systems that make moves: the
/// one place ([`Moves::apply`]) where an action is applied.
#[derive(SystemParam)]
pub struct SessionMut<'w> {
    pub delve: ResMut<'w, Delve>,
    pub news: ResMut<'w, EventFeed>,
    pub log: ResMut<'w, GameLog>,
    pub seats: ResMut<'w, Seats>,
    pub undo: ResMut<'w, Undo>,
    pub saves: ResMut<'w, SaveSlot>,
}

/// A game's parts borrowed together, whether from the resources
/// ([`SessionMut`]) or from a [`Session`] in hand, so both apply moves by the
/// same code.
pub struct Moves<'a> {
    pub delve: &'a mut Delve,
    pub news: &'a mut EventFeed,
    pub log: &'a mut GameLog,
    pub seats: &'a mut Seats,
    pub undo: &'a mut Undo,
    pub saves: &'a mut SaveSlot,
}

/// A run condition: moves may be made (no game, or not a replay's read-only one).
pub fn not_read_only(delve: Option<Res<Delve>>) -> bool {
    delve.is_none_or(|d| !d.read_only)
}

/// `moves` and `apply` for a holder of the six parts (the plain
/// [`Session`] and the systems' [`SessionMut`]): one way to borrow them.
macro_rules! moves_and_apply {
    () => {
        /// The parts borrowed together, to make moves.
        pub fn moves(&mut self) -> Moves<'_> {
            Moves {
                delve: &mut self.delve,
                news: &mut self.news,
                log: &mut self.log,
                seats: &mut self.seats,
                undo: &mut self.undo,
                saves: &mut self.saves,
            }
        }

        /// Applies `action` (see [`Moves::apply`]).
        pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, String> {
            self.moves().apply(action)
        }
    };
}

impl Session {
    pub fn new(game: Game) -> Session {
        let seed = game.adventure().map_or(0, |a| a.options.seed);
        let stamp = crate::game::play_clock::unix_now();
        let names: Vec<String> = game.heroes.iter().map(|h| h.name().to_owned()).collect();
        Session {
            delve: Delve { game, version: 1, sitting: next_sitting(), history: Some(Vec::new()), read_only: false },
            news: EventFeed { rebuild: true, ..default() },
            log: GameLog { lines: vec![format!("A new delve begins: {}.", names.join(", "))], ..default() },
            seats: Seats::default(),
            undo: Undo::default(),
            saves: SaveSlot { name: format!("game-{stamp}-seed{seed}"), due: false, moved: false },
            clock: crate::game::play_clock::PlayClock::now(),
        }
    }

    /// Lays the game on the table: each part becomes its resource.
    pub fn insert(self, commands: &mut Commands) {
        commands.queue(move |world: &mut World| self.insert_into(world));
    }

    /// Lays the game on the table of `world` now (tests, tools).
    pub fn insert_into(self, world: &mut World) {
        let Session { delve, news, log, seats, undo, saves, clock } = self;
        world.insert_resource(delve);
        world.insert_resource(news);
        world.insert_resource(log);
        world.insert_resource(seats);
        world.insert_resource(undo);
        world.insert_resource(saves);
        world.insert_resource(clock);
    }

    /// Takes the game off the table of `world` whole, if one is there.
    pub fn take_from(world: &mut World) -> Option<Session> {
        // Both parts without a default first: a half-taken game is lost.
        if !world.contains_resource::<Delve>() || !world.contains_resource::<SaveSlot>() {
            return None;
        }
        Some(Session {
            delve: world.remove_resource()?,
            news: world.remove_resource().unwrap_or_default(),
            log: world.remove_resource().unwrap_or_default(),
            seats: world.remove_resource().unwrap_or_default(),
            undo: world.remove_resource().unwrap_or_default(),
            saves: world.remove_resource()?,
            clock: world.remove_resource().unwrap_or_default(),
        })
    }

    /// Clears the table: every part of the game leaves together.
    pub fn remove(commands: &mut Commands) {
        commands.remove_resource::<Delve>();
        commands.remove_resource::<EventFeed>();
        commands.remove_resource::<GameLog>();
        commands.remove_resource::<Seats>();
        commands.remove_resource::<Undo>();
        commands.remove_resource::<SaveSlot>();
        commands.remove_resource::<crate::game::play_clock::PlayClock>();
    }

    moves_and_apply!();

    /// Records the events applied since the last call without publishing
    /// them, for a session driven outside the app (tools, tests).
    pub fn record_news(&mut self) {
        for e in std::mem::take(&mut self.news.events) {
            self.log.record(&self.delve.game, &e);
        }
    }
}

impl SessionMut<'_> {
    moves_and_apply!();
}

impl Moves<'_> {
    /// Applies `action` if it is legal; the log gets its events in words
    /// once they are published.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, String> {
        if self.delve.read_only {
            let text = REPLAY_REFUSAL.to_owned();
            self.log.notice = Some(text.clone());
            return Err(text);
        }
        let before = phase_key(&self.delve.game);
        let kept = self.session_before(&action);
        match self.undo.history.apply(&mut self.delve.game, action.clone()) {
            Ok(events) => {
                // A move that revealed something starts a new stretch.
                if self.undo.history.undoable() == 0 {
                    self.undo.before.clear();
                } else {
                    self.undo.before.push(kept);
                }
                self.applied(action, &events, &before);
                Ok(events)
            }
            Err(e) => {
                let text = refusal_text(&self.delve.game, &action, &e);
                self.log.notice = Some(text.clone());
                Err(text)
            }
        }
    }

    /// What the table keeps beside the game before `action` is made.
    fn session_before(&self, action: &Action) -> SessionBefore {
        SessionBefore {
            log: GameLog {
                lines: Vec::new(),
                rounds: self.log.rounds.clone(),
                notice: self.log.notice.clone(),
                foes: self.log.foes.clone(),
                individuals: self.log.individuals.clone(),
                companion: None,
                made_again: None,
            },
            turn: self.seats.turn.clone(),
            words: describe_action(&self.delve.game, action),
        }
    }

    /// What follows every move made (or made again): the saved moves, the
    /// turn, the cards drawn, the events to publish, a save at a new phase.
    fn applied(&mut self, action: Action, events: &[Event], before: &PhaseKey) {
        if let Some(h) = &mut self.delve.history {
            h.push(action);
        }
        let seats = &mut *self.seats;
        depths_seats::seats::after_events(&self.delve.game, &seats.players, &mut seats.turn, events);
        self.news.events.extend(events.iter().cloned());
        self.delve.version += 1;
        self.log.notice = None;
        // Every move is saved (a crash loses nothing); a new phase at once.
        self.saves.moved = true;
        if phase_key(&self.delve.game) != *before {
            self.saves.due = true;
        }
    }

    /// Takes back the table's last move, if it revealed nothing: the game
    /// exactly as before it, the turn and the round summary too; the log
    /// says so. Refused (with the reason, in words) across a reveal.
    pub fn undo(&mut self) -> Result<(), String> {
        if self.delve.read_only {
            return Err("This is a replay: moves are not taken back here.".to_owned());
        }
        let action = self.undo.history.undo(&mut self.delve.game).map_err(|why| undo_refused_text(&why))?;
        let words = match self.undo.before.pop() {
            Some(before) => {
                let lines = std::mem::take(&mut self.log.lines);
                *self.log = GameLog { lines, ..before.log };
                self.seats.turn = before.turn;
                before.words
            }
            None => describe_action(&self.delve.game, &action),
        };
        if let Some(h) = &mut self.delve.history {
            h.pop();
        }
        self.log.lines.push(format!("Took back: {words}"));
        // Not yet published, they belong to the move taken back.
        self.news.events.clear();
        self.news.taken_back = true;
        self.delve.version += 1;
        self.saves.due = true;
        Ok(())
    }

    /// Makes again the last move taken back (until a new move is made).
    pub fn redo(&mut self) -> Result<(), String> {
        if self.delve.read_only {
            return Err(REPLAY_REFUSAL.to_owned());
        }
        let Some(next) = self.undo.next_redo().cloned() else {
            return Err(undo_refused_text(&UndoRefused::NothingToRedo));
        };
        let kept = self.session_before(&next);
        let before = phase_key(&self.delve.game);
        let (action, events) = self.undo.history.redo(&mut self.delve.game).map_err(|why| undo_refused_text(&why))?;
        self.log.made_again = Some(kept.words.clone());
        self.undo.before.push(kept);
        self.applied(action, &events, &before);
        self.saves.due = true;
        Ok(())
    }

    /// Hands Hero `hero`'s seat to a Companion (`on`) or back to its owner,
    /// keeping the turn with the same seat as every online copy does
    /// (`depths_seats::seats::seat_companion`); the log says so. Returns
    /// whether anything changed.
    pub fn seat_companion(&mut self, hero: u8, on: bool) -> bool {
        let game = &self.delve.game;
        let seats = &mut *self.seats;
        if depths_seats::seats::seat_companion(&mut seats.players, &mut seats.turn, game.heroes.len(), hero, on)
            != Ok(true)
        {
            return false;
        }
        let owner = seats.players.name(seats.players.owner(hero)).to_owned();
        let name = game.heroes[usize::from(hero)].name().to_owned();
        let line = if on {
            format!("A Companion plays {name} for {owner} now.")
        } else {
            format!("{owner} takes {name}'s seat back from the Companion.")
        };
        self.log.lines.push(line);
        self.saves.due = true;
        self.delve.version += 1;
        true
    }

    /// Replaces the game wholesale (an online resync, a replay's step): the
    /// board is laid again; nothing before it can be taken back.
    pub fn replace_game(&mut self, game: Game) {
        self.delve.game = game;
        // The moves that led here are not known any more.
        self.delve.history = None;
        self.news.rebuild = true;
        *self.undo = Undo::default();
        self.delve.version += 1;
    }
}

/// A number for each sitting (a game laid on the table) in this run.
fn next_sitting() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Delve {
    /// The game on the table.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Counts every change of the game: what was built from it is stale
    /// when this differs.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Which table and which change of it: what was built from the table
    /// is stale when this differs, across a load or a replay too (each
    /// starts again at version 1).
    pub fn stamp(&self) -> (u64, u64) {
        (self.sitting, self.version)
    }

    /// Changes the game by hand, outside the rules (tools and tests set up
    /// a situation this way); what was built from it follows.
    pub fn edit(&mut self, change: impl FnOnce(&mut Game)) {
        change(&mut self.game);
        self.version += 1;
    }

    /// The game's cards take new words from reloaded content (ids, counts
    /// and places unchanged); how many cards changed.
    pub fn swap_content(&mut self, content: std::sync::Arc<Content>) -> Result<usize, depths_rules::SwapRefused> {
        let cards = self.game.swap_content(content)?;
        self.version += 1;
        Ok(cards)
    }

    /// Seed of the game (varies the floor art).
    pub fn seed(&self) -> u64 {
        self.game.adventure().map_or(0, |a| a.options.seed)
    }

    /// The seed of this table state's worlds, for the work played out in
    /// reshuffled worlds (forecasts, a planning Companion): each position its
    /// own, none of them the game's hidden orders. Made from the moves since
    /// the start (what every player saw), so the same position gives the
    /// same figures: after Undo and Redo a chance read 34 % where it had
    /// read 41 %. A game that kept no moves counts its changes instead.
    pub fn situation_seed(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let Some(history) = &self.history else { return self.seed() ^ self.version().wrapping_mul(0x9e37_79b9) };
        // std's SipHash with its fixed keys: the same on every run and machine.
        let mut h = std::hash::DefaultHasher::new();
        serde_json::to_string(history).unwrap_or_default().hash(&mut h);
        self.seed() ^ h.finish()
    }

    /// How many tiles left in the pile would have no legal place on the map
    /// as it is now, and how many tiles are in the pile.
    pub fn dead_ends_in_pile(&self) -> (usize, usize) {
        dead_ends_in_pile(&self.game)
    }

    /// The tile waiting to be placed, and whether it is the set-aside one
    /// ("One Dead-End Per Ecology").
    pub fn tile_in_hand(&self) -> Option<(&depths_rules::map::MapTile, bool)> {
        let eco = &self.game.adventure()?.ecology;
        if let Some(t) = &eco.drawn {
            return Some((t, false));
        }
        let t = eco.dead_end.set_aside.as_ref()?;
        let legal = self.game.legal_actions();
        legal.iter().any(|a| matches!(a, Action::PlaceSetAsideTile { .. })).then_some((t, true))
    }

    /// Every legal placement of the tile in hand.
    pub fn legal_placements(&self) -> Vec<Placement> {
        self.game
            .legal_actions()
            .into_iter()
            .filter_map(|a| match a {
                Action::PlaceTile { placement } | Action::PlaceSetAsideTile { placement } => Some(placement),
                _ => None,
            })
            .collect()
    }

    /// The action that puts the tile in hand at `cell`, turned by `rotation`.
    pub fn place_action(&self, cell: Cell, rotation: Rotation) -> Option<Action> {
        let (_, set_aside) = self.tile_in_hand()?;
        let placement = Placement { cell, rotation };
        Some(if set_aside { Action::PlaceSetAsideTile { placement } } else { Action::PlaceTile { placement } })
    }
}

/// What a phase change is, for autosave: the kind of [`Game::phase`] (not its
/// details, so drawing a tile or a Combat step does not save) and the Ecology.
type PhaseKey = (std::mem::Discriminant<Phase>, Option<depths_rules::Ecology>);

fn phase_key(game: &Game) -> PhaseKey {
    (std::mem::discriminant(&game.phase()), game.adventure().map(|a| a.ecology.ecology))
}

/// Take back the table's last move that revealed nothing (Ctrl+Z, Undo).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TakeBack;

/// Make again the last move taken back (Ctrl+Shift+Z, Redo).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct PutBack;

/// A player's choice, from the panels or the board.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct PlayerAction(pub Action);

/// The last drop was refused: the tile springs back to the tray, with the reason.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct DropRefused(pub Option<String>);

/// A seed from the clock, for games started without `--seed`.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(0)
        % 1_000_000
}

/// Start a new game with these options.
#[derive(Message, Clone, Debug)]
pub struct StartGame(pub GameOptions);

/// Why a new game could not start (shown on the setup screen).
#[derive(Resource, Default, Debug, Clone)]
pub struct SetupNotice(pub Option<String>);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<PlayerAction>();
    app.add_message::<StartGame>();
    app.add_message::<TakeBack>().add_message::<PutBack>();
    app.init_resource::<DropRefused>();
    app.init_resource::<SetupNotice>();
    // The Rules set applies every action.
    app.add_systems(Update, (start_game, apply_player_actions, apply_undo).chain().in_set(PlaySystems::Rules));
    // The play phase follows the game; leaving the board ends the game on the table.
    app.add_sub_state::<PlayPhase>();
    app.add_systems(OnExit(Screen::Playing), |mut commands: Commands| {
        Session::remove(&mut commands);
    });
    app.add_systems(
        Update,
        follow_phase.in_set(PlaySystems::Sync).run_if(in_state(Screen::Playing).and_then(resource_exists::<Delve>)),
    );
    app.add_systems(Update, log_phases);
}

/// Sets the play phase from the game's own, after every change.
fn follow_phase(delve: Res<Delve>, phase: Res<State<PlayPhase>>, mut next: ResMut<NextState<PlayPhase>>) {
    let now = PlayPhase::of(&delve.game);
    if *phase.get() != now {
        next.set(now);
    }
}

fn log_phases(mut transitions: MessageReader<StateTransitionEvent<PlayPhase>>) {
    for t in transitions.read() {
        debug!("play phase: {:?} → {:?}", t.exited, t.entered);
    }
}

fn start_game(
    mut commands: Commands,
    mut starts: MessageReader<StartGame>,
    content: Option<Res<GameContent>>,
    players: Res<Players>,
    mut notice: ResMut<SetupNotice>,
    (mut next, screen, mut fit): (
        ResMut<NextState<Screen>>,
        Res<State<Screen>>,
        ResMut<crate::game::notices::FitRequested>,
    ),
) {
    for StartGame(options) in starts.read() {
        let Some(content) = &content else {
            notice.0 = Some("The game's content is not loaded.".into());
            continue;
        };
        match Game::new(options.clone(), content.0.clone()) {
            Ok(game) => {
                let mut session = Session::new(game);
                session.seats.players = players.clone();
                session.insert(&mut commands);
                notice.0 = None;
                // From the game-over screen ("Play again") the board stays
                // and lays the new game; leaving and entering it again would
                // clear the new game with the old.
                if *screen.get() == Screen::Playing {
                    fit.0 = true;
                } else {
                    next.set(Screen::Playing);
                }
            }
            Err(e) => notice.0 = Some(e.to_string()),
        }
    }
}

fn apply_player_actions(mut actions: MessageReader<PlayerAction>, session: Option<SessionMut>) {
    let Some(mut session) = session else {
        actions.clear();
        return;
    };
    for PlayerAction(action) in actions.read() {
        let game = &session.delve.game;
        if session.seats.hand_over_instead(game) {
            continue;
        }
        if let Err(e) = session.apply(action.clone()) {
            warn!("refused {action:?}: {e}");
        }
    }
}

fn apply_undo(
    mut undos: MessageReader<TakeBack>,
    mut redos: MessageReader<PutBack>,
    session: Option<SessionMut>,
    mut refused: ResMut<DropRefused>,
    mut toast: MessageWriter<Toast>,
) {
    let Some(mut session) = session else {
        undos.clear();
        redos.clear();
        return;
    };
    // Behind the pass screen the next player has not seen the table: a Ctrl+Z
    // there took back a move unseen.
    let behind = session.seats.curtain(session.delve.game()).is_some();
    let mut moves = |undo: bool| {
        if behind {
            Err("Behind the pass screen nothing is taken back or made again: lift it first.".to_owned())
        } else if undo {
            session.moves().undo()
        } else {
            session.moves().redo()
        }
    };
    let undone = undos.read().map(|_| moves(true)).collect::<Vec<_>>();
    let redone = redos.read().map(|_| moves(false)).collect::<Vec<_>>();
    for result in undone.into_iter().chain(redone) {
        refused.0 = None;
        // A refusal is said where the eye is (a key press has no button to
        // grey out), and kept in the banner's notice line.
        if let Err(e) = result {
            toast.write(Toast(e.clone()));
            session.log.notice = Some(e);
        }
    }
}

/// How many tiles left in `game`'s pile have no legal place now, of how many.
pub fn dead_ends_in_pile(game: &Game) -> (usize, usize) {
    let Some(a) = game.adventure() else { return (0, 0) };
    let frontier = a.ecology.map.frontier();
    let tiles = a.ecology.pile.tiles();
    (tiles.iter().filter(|t| frontier.legal_placements(t).is_empty()).count(), tiles.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_monster_to_fall_is_named_in_the_log() {
        // No Combat on the table: as after the last Monster of one is Defeated.
        let game = Game::new(GameOptions::standard(&["bren", "sil"], 1), Content::builtin().unwrap()).unwrap();
        let mut log = GameLog::default();
        log.record(
            &game,
            &Event::CombatStarted { foes: vec!["Strangling Ivy Mass".into(), "the Final Entity".into()] },
        );
        log.record(&game, &Event::FoeDefeated { foe: 1 });
        log.record(&game, &Event::FoeDefeated { foe: 0 });
        let n = log.lines.len();
        assert_eq!(log.lines[n - 2..], ["The Final Entity is Defeated!", "Strangling Ivy Mass is Defeated!"]);
    }

    /// The killing blow ends the Combat before its events are told: its
    /// line read "Bren deals 8 damage to #1" with no Monster's name.
    #[test]
    fn the_killing_blow_names_the_individual_it_struck() {
        use depths_sim::Bot;
        let mut blows = 0;
        for seed in 1..=6 {
            let mut game =
                Game::new(GameOptions::standard(&["bren", "sil"], seed), Content::builtin().unwrap()).unwrap();
            let mut log = GameLog::default();
            for _ in 0..4000 {
                if game.is_over() {
                    break;
                }
                let a = depths_sim::HeuristicBot.choose(&game);
                let fought = game.combat().is_some();
                for e in game.apply(a).unwrap() {
                    log.record(&game, &e);
                    if fought && game.combat().is_none() && matches!(e, Event::MonsterDamaged { .. }) {
                        let line = log.lines.last().unwrap();
                        assert!(!line.contains("to #"), "{line}");
                        blows += 1;
                    }
                }
            }
        }
        assert!(blows > 3, "{blows} Combats ended by a blow");
    }
}
