//! Who sits at the table and who may act: the players, the seats that take
//! Exploring turns, the turn itself, and which Heroes the game waits for.
//!
//! Who must act is worked out from the rules' [`Game::phase`]: in a Combat
//! step every Hero with something left to do may act, in any order ("All
//! Heroes perform each Step simultaneously"), so every player owning one of
//! them may act. A Hero's own decision (an Item, an Ability, cards to remove)
//! belongs to that Hero's owner, and everything else to the seat whose turn
//! it is to explore. Exploring turns rotate here (the rules core has no
//! players): a turn is one tile drawn and placed, or an Encounter, and passes
//! on once the table is quiet again (Exploring with no decision and no tile in
//! hand). With Companions at the table the turns go round the seats: each
//! player who plays a Hero themselves, then each Companion.
//!
//! The hot-seat client and online play both use this one copy, so a table
//! played over the network follows exactly the same turns.

use depths_rules::{Action, Decision, Event, Game, Phase};
use serde::{Deserialize, Serialize};

/// The players at the table, chosen on the setup screen (or in the online lobby).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "bevy", derive(bevy_ecs::resource::Resource))]
pub struct Players {
    /// 1–3 names.
    pub names: Vec<String>,
    /// Per Hero (in the game's Hero order): the index of the player who owns it.
    pub owners: Vec<usize>,
    /// Show a "pass to …" screen between players.
    pub curtain: bool,
    /// Per Hero (in the game's Hero order): a Companion plays it for its
    /// owner (the client's `companions.rs`). Saves from before Companions have none.
    #[serde(default)]
    pub companions: Vec<bool>,
}

impl Default for Players {
    /// One player who plays every Hero, no curtain.
    fn default() -> Self {
        Players { names: vec!["Player 1".into()], owners: Vec::new(), curtain: false, companions: Vec::new() }
    }
}

impl Players {
    /// The player who owns Hero `hero` (the first player if it was not assigned).
    pub fn owner(&self, hero: u8) -> usize {
        self.owners.get(usize::from(hero)).copied().filter(|p| *p < self.names.len()).unwrap_or(0)
    }

    pub fn name(&self, player: usize) -> &str {
        self.names.get(player).map_or("Player 1", String::as_str)
    }

    pub fn count(&self) -> usize {
        self.names.len().max(1)
    }

    /// Whether a Companion plays Hero `hero`.
    pub fn is_companion(&self, hero: u8) -> bool {
        self.companions.get(usize::from(hero)).copied().unwrap_or(false)
    }

    /// Seats or unseats a Companion for Hero `hero` (of `heroes`).
    pub fn set_companion(&mut self, hero: u8, on: bool, heroes: usize) {
        if self.companions.len() < heroes {
            self.companions.resize(heroes, false);
        }
        if let Some(c) = self.companions.get_mut(usize::from(hero)) {
            *c = on;
        }
    }

    /// The seats that take Exploring turns, in turn order, in a game of
    /// `heroes` Heroes: each player who plays a Hero themselves, then each
    /// Companion. Without Companions, every player.
    pub fn seats(&self, heroes: usize) -> Vec<Seat> {
        let heroes = heroes as u8;
        if !(0..heroes).any(|h| self.is_companion(h)) {
            return (0..self.count()).map(Seat::Player).collect();
        }
        let mut seats: Vec<Seat> = (0..self.count())
            .filter(|&p| (0..heroes).any(|h| self.owner(h) == p && !self.is_companion(h)))
            .map(Seat::Player)
            .collect();
        seats.extend((0..heroes).filter(|&h| self.is_companion(h)).map(Seat::Companion));
        seats
    }
}

/// Who takes an Exploring turn: a player, or the Companion playing a Hero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seat {
    Player(usize),
    Companion(u8),
}

/// The client-side turn: whose turn it is to explore and who has seen the table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// The player whose turn it is to draw a tile (or Encounter).
    pub player: usize,
    /// The turn's tile was placed or an Encounter chosen: the next player
    /// takes over once the table is quiet.
    pub over: bool,
    /// The player the hidden information was last shown to (curtain lifted).
    pub shown_to: Option<usize>,
    /// In a Combat step, the player the table was passed to before the one
    /// at it had finished (until they lift the curtain).
    #[serde(default)]
    pub pass_to: Option<usize>,
    /// The player who acted has handed the table on: the curtain is down
    /// until the next player lifts it.
    #[serde(default)]
    pub handing_over: bool,
    /// The Exploring turn is this Companion's (its Hero's index); `player`
    /// is then the Hero's owner.
    #[serde(default)]
    pub companion: Option<u8>,
}

impl Turn {
    /// The seat whose Exploring turn it is.
    pub fn seat(&self) -> Seat {
        self.companion.map_or(Seat::Player(self.player), Seat::Companion)
    }

    /// Gives the Exploring turn to `seat`.
    pub fn set_seat(&mut self, seat: Seat, players: &Players) {
        match seat {
            Seat::Player(p) => {
                self.player = p;
                self.companion = None;
            }
            Seat::Companion(h) => {
                self.player = players.owner(h);
                self.companion = Some(h);
            }
        }
    }
}

/// Who must act now: a player, and the Hero they act for if one is named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Acting {
    pub player: usize,
    pub hero: Option<u8>,
}

/// The Heroes whose own choice the game waits for, in Hero order: in a Combat
/// step every Hero who still has something to do (any of them may act next);
/// outside Combat the Hero a decision names, if any.
pub fn heroes_to_act(game: &Game) -> Vec<u8> {
    let phase = game.phase();
    if let Phase::Combat { .. } = phase {
        return game.combat().map_or_else(Vec::new, |c| c.heroes_to_act());
    }
    match phase.decision() {
        Some(
            Decision::ChooseItem { hero }
            | Decision::RemoveCards { hero, .. }
            | Decision::ChooseAbility { hero }
            | Decision::ChooseAbilityDraw { hero },
        ) => vec![hero],
        _ => Vec::new(),
    }
}

/// The Hero a Combat action is taken for (the bots tell them apart the same way).
pub use depths_sim::combat_hero as action_hero;

/// Who must act in `game` with these players and this turn. When several
/// Heroes may act, the player the table was passed to, else the player at
/// the table, else the player whose turn it is keeps it while one of their
/// Heroes may act; otherwise the owner of the first Hero to act.
pub fn acting(game: &Game, players: &Players, turn: &Turn) -> Acting {
    // A Companion needs nobody at the table: its Heroes are left out, and
    // its turn stays with the player at the table.
    let heroes = players_heroes_to_act(game, players);
    let Some(&first) = heroes.first() else {
        let companions_only = turn.companion.is_some() || !heroes_to_act(game).is_empty();
        let player = if companions_only { turn.shown_to.unwrap_or(turn.player) } else { turn.player };
        return Acting { player: player.min(players.count() - 1), hero: None };
    };
    [turn.pass_to, turn.shown_to, Some(turn.player)]
        .into_iter()
        .flatten()
        .find_map(|p| heroes.iter().find(|&&h| players.owner(h) == p).map(|&h| Acting { player: p, hero: Some(h) }))
        .unwrap_or(Acting { player: players.owner(first), hero: Some(first) })
}

/// Every player who may act now with the Heroes they act for, the player
/// [`acting`] names first; empty when no Hero is named (the turn's player acts).
pub fn players_to_act(game: &Game, players: &Players, turn: &Turn) -> Vec<(usize, Vec<u8>)> {
    let heroes = players_heroes_to_act(game, players);
    if heroes.is_empty() {
        return Vec::new();
    }
    let first = acting(game, players, turn).player;
    let mut order: Vec<usize> = vec![first];
    for &h in &heroes {
        let p = players.owner(h);
        if !order.contains(&p) {
            order.push(p);
        }
    }
    order.into_iter().map(|p| (p, heroes.iter().copied().filter(|&h| players.owner(h) == p).collect())).collect()
}

/// The Heroes to act ([`heroes_to_act`]) that players play, not Companions.
pub fn players_heroes_to_act(game: &Game, players: &Players) -> Vec<u8> {
    heroes_to_act(game).into_iter().filter(|&h| !players.is_companion(h)).collect()
}

/// Nothing is going on: Exploring, no decision, no tile in hand.
pub fn quiet(game: &Game) -> bool {
    matches!(game.phase(), Phase::Exploring { tile_in_hand: false, decision: None })
}

/// Moves the turn on after `events` were applied.
pub fn after_events(game: &Game, players: &Players, turn: &mut Turn, events: &[Event]) {
    if events.iter().any(|e| {
        matches!(
            e,
            Event::TilePlaced { .. }
                | Event::TileSetAside { .. }
                | Event::ElementEncountered { .. }
                | Event::LegendaryLocationEncountered { .. }
        )
    }) {
        turn.over = true;
    }
    if turn.over && quiet(game) {
        turn.over = false;
        let seats = players.seats(game.heroes.len());
        let next = seats.iter().position(|s| *s == turn.seat()).map_or(0, |i| (i + 1) % seats.len());
        turn.set_seat(seats[next], players);
    }
}

/// Whether two players' names are the same player's (case and spaces aside).
pub fn same_name(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

/// A saved table sat down again at new seats (an online game resumed: the
/// players join in any order). `seats` names the new seats; every player of
/// the save must have one, by name (case and spaces aside). Returns the
/// players and the turn with every player index moved to its new seat, the
/// Companions kept at their Heroes (the host seats them online); or the
/// names of the players still missing.
pub fn reseat(players: &Players, turn: &Turn, seats: &[String]) -> Result<(Players, Turn), Vec<String>> {
    let mut map = Vec::new();
    let mut missing = Vec::new();
    for p in 0..players.count() {
        let name = players.name(p);
        match seats.iter().position(|s| same_name(s, name)) {
            Some(seat) => map.push(seat),
            None => {
                missing.push(name.to_owned());
                map.push(0);
            }
        }
    }
    if !missing.is_empty() {
        return Err(missing);
    }
    let heroes = players.owners.len();
    let owners = (0..heroes).map(|h| map[players.owner(h as u8)]).collect();
    let moved = |p: usize| map.get(p).copied().unwrap_or(0);
    let turn = Turn {
        player: moved(turn.player),
        over: turn.over,
        shown_to: turn.shown_to.map(moved),
        pass_to: turn.pass_to.map(moved),
        handing_over: false,
        companion: turn.companion,
    };
    Ok((Players { names: seats.to_vec(), owners, curtain: false, companions: players.companions.clone() }, turn))
}

/// The Hero an action is made for: a Combat action's Hero, an Item's owner,
/// an Ability bought for a Hero. `None` for the table's shared actions.
pub fn seat_hero(action: &Action) -> Option<u8> {
    match action {
        Action::Equip { hero, .. } | Action::Unequip { hero, .. } => Some(*hero),
        a => action_hero(a),
    }
}

/// The Hero a decision outside Combat names (an Item to choose, cards to
/// remove, an Ability to take): its answers belong to that Hero's seat.
pub fn decision_hero(game: &Game) -> Option<u8> {
    if matches!(game.phase(), Phase::Combat { .. }) {
        return None;
    }
    match game.phase().decision() {
        Some(
            Decision::ChooseItem { hero }
            | Decision::RemoveCards { hero, .. }
            | Decision::ChooseAbility { hero }
            | Decision::ChooseAbilityDraw { hero },
        ) => Some(hero),
        _ => None,
    }
}

/// The Companion whose turn it is to explore (and to make the table's shared
/// choices): a Companion's seat, or a player all of whose Heroes are Companions.
pub fn turn_companion(game: &Game, players: &Players, turn: &Turn) -> Option<u8> {
    let heroes = game.heroes.len() as u8;
    match turn.seat() {
        Seat::Companion(h) => players.is_companion(h).then_some(h),
        Seat::Player(p) => {
            let own: Vec<u8> = (0..heroes).filter(|&h| players.owner(h) == p).collect();
            (!own.is_empty() && own.iter().all(|&h| players.is_companion(h))).then(|| own[0])
        }
    }
}

/// Seats a Companion at Hero `hero` (`on`) or gives the seat back to its
/// owner, in a game of `heroes` Heroes, and keeps the Exploring turn with
/// the same seat: a Companion's turn taken back is its owner's, and the turn
/// of a player whose last own Hero becomes a Companion's is that Companion's
/// (so the rotation goes on from there). Returns whether anything changed,
/// or why not (no such Hero). The hot-seat table and every online copy use
/// this one function, so a seat change moves every copy's turn alike.
pub fn seat_companion(
    players: &mut Players,
    turn: &mut Turn,
    heroes: usize,
    hero: u8,
    on: bool,
) -> Result<bool, String> {
    if usize::from(hero) >= heroes {
        return Err(format!("there is no Hero {hero} at this table"));
    }
    if players.is_companion(hero) == on {
        return Ok(false);
    }
    players.set_companion(hero, on, heroes);
    let owner = players.owner(hero);
    if !on && turn.companion == Some(hero) {
        turn.set_seat(Seat::Player(owner), players);
    } else if on && turn.seat() == Seat::Player(owner) && !players.seats(heroes).contains(&Seat::Player(owner)) {
        turn.set_seat(Seat::Companion(hero), players);
    }
    Ok(true)
}

/// Whether a Companion may take `action` now as far as the seats go (the
/// rules' own check is [`Game::check`]): an action for a Hero only for a
/// Companion's Hero, the answer to a Hero's decision only for a Companion's
/// Hero, the table's shared choices only on a Companion's turn. Exactly the
/// moves no player may take ([`player_may_take`]). The error is a sentence.
pub fn companion_may_take(game: &Game, players: &Players, turn: &Turn, action: &Action) -> Result<(), String> {
    let name = |h: u8| game.heroes.get(usize::from(h)).map_or_else(|| format!("Hero {h}"), |x| x.name().to_owned());
    match seat_hero(action).or_else(|| decision_hero(game)) {
        Some(h) if usize::from(h) >= game.heroes.len() => Err(format!("there is no Hero {h} at this table")),
        Some(h) if players.is_companion(h) => Ok(()),
        Some(h) => Err(format!("{} plays {} themselves", players.name(players.owner(h)), name(h))),
        None if turn_companion(game, players, turn).is_some() => Ok(()),
        None => Err(format!("it is {}'s turn, not a Companion's", players.name(turn.player))),
    }
}

/// Whether `player` may take `action` now as far as the seats go (the rules'
/// own check is [`Game::check`]): an action for a Hero only by that Hero's
/// owner and not while a Companion plays it; the answer to a Hero's decision
/// only by its owner; the table's shared choices (a tile, an Encounter, the
/// joint Combat choices) only on that player's own Exploring turn. The error
/// is a sentence for the player.
pub fn player_may_take(
    game: &Game,
    players: &Players,
    turn: &Turn,
    player: usize,
    action: &Action,
) -> Result<(), String> {
    let name = |h: u8| game.heroes.get(usize::from(h)).map_or_else(|| format!("Hero {h}"), |x| x.name().to_owned());
    let hero = seat_hero(action).or_else(|| decision_hero(game));
    if let Some(h) = hero {
        if usize::from(h) >= game.heroes.len() {
            return Err(format!("there is no Hero {h} at this table"));
        }
        if players.is_companion(h) {
            return Err(format!("a Companion plays {}", name(h)));
        }
        if players.owner(h) != player {
            return Err(format!("{} is {}'s Hero", name(h), players.name(players.owner(h))));
        }
        return Ok(());
    }
    if turn_companion(game, players, turn).is_some() {
        return Err("it is a Companion's turn".to_owned());
    }
    if turn.seat() != Seat::Player(player) {
        return Err(format!("it is {}'s turn", players.name(turn.player)));
    }
    Ok(())
}

/// Whether any of `seats` may take `action` now as far as the seats go (a
/// player standing in for another acts for both): [`player_may_take`] for
/// each, and the first seat's refusal when none may.
pub fn seats_may_take(
    game: &Game,
    players: &Players,
    turn: &Turn,
    seats: &[usize],
    action: &Action,
) -> Result<(), String> {
    let mut first = None;
    for &seat in seats {
        match player_may_take(game, players, turn, seat, action) {
            Ok(()) => return Ok(()),
            Err(e) => {
                first.get_or_insert(e);
            }
        }
    }
    Err(first.unwrap_or_else(|| "not your move".into()))
}

/// How a Companion chooses its moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Strength {
    /// The careful bot's rules of thumb (`depths_sim::HeuristicBot`): at once.
    #[default]
    Careful,
    /// The planning bot (`depths_sim::PlanBot`): every Combat choice and
    /// where to place a tile and what to Encounter next, played out in
    /// reshuffled worlds (tens of milliseconds a move, more in a debug build),
    /// so a client asks it off the frame.
    Planning,
}

impl Strength {
    pub const ALL: [Strength; 2] = [Strength::Careful, Strength::Planning];

    pub fn name(self) -> &'static str {
        match self {
            Strength::Careful => "Careful",
            Strength::Planning => "Planning",
        }
    }

    pub fn hint(self) -> &'static str {
        match self {
            Strength::Careful => "Rules of thumb, at once: wins about 42% of games alone",
            Strength::Planning => {
                "Plays every Combat choice, tile placement and Encounter out in reshuffled worlds \
                 (never peeking at the decks): wins about 68% of games alone"
            }
        }
    }
}

/// The move a Companion makes now, if any: the careful bot's choice for a
/// Companion's Hero that may act (or for the Companion's turn or decision),
/// else the first legal move that is a Companion's, putting off Item swaps
/// and purchases (they never move the game on). `None` while only players
/// may act. The one choice the client's Companions and an online host's make.
pub fn companion_choice(game: &Game, players: &Players, turn: &Turn) -> Option<Action> {
    companion_choice_by(game, players, turn, Strength::Careful, 0)
}

/// Whether a Companion may start `action` as far as the party's XP goes:
/// at a table where a player has a Hero too, a purchase costs no more than
/// one Hero's share of the XP pool (the pool divided among the Heroes), so
/// a Companion never spends what the players counted on for their own
/// Heroes (a Companion bought an Ability with the XP a player was saving).
/// With Companions alone at the table the pool is theirs.
pub fn within_share(game: &Game, players: &Players, action: &Action) -> bool {
    let Action::StartPurchase { what } = action else { return true };
    let n = game.heroes.len() as u8;
    if (0..n).all(|h| players.is_companion(h)) {
        return true;
    }
    let share = game.pool_xp() / u16::from(n.max(1));
    game.price_of(*what).is_some_and(|cost| u16::from(cost) <= share)
}

/// [`companion_choice`] made with `strength`; a planning Companion's worlds
/// are dealt from `seed` (never from the game's hidden orders). A planning
/// Companion has a move exactly when a careful one has (the planning bot
/// searches only the decisions the careful bot would take).
pub fn companion_choice_by(
    game: &Game,
    players: &Players,
    turn: &Turn,
    strength: Strength,
    seed: u64,
) -> Option<Action> {
    use depths_sim::{Bot, HeuristicBot, PlanBot, PlanConfig};
    if game.is_over() {
        return None;
    }
    let mut planning = (strength == Strength::Planning).then(|| PlanBot::new(seed, PlanConfig::default()));
    let mut choose_for = |h: u8| match planning.as_mut() {
        Some(bot) => bot.choose_for(game, h),
        None => HeuristicBot.choose_for(game, h),
    };
    let ok = |a: &Action| {
        game.check(a).is_ok() && companion_may_take(game, players, turn, a).is_ok() && within_share(game, players, a)
    };
    let acting = heroes_to_act(game);
    for &h in acting.iter().filter(|&&h| players.is_companion(h)) {
        if let Some(a) = choose_for(h).filter(ok) {
            return Some(a);
        }
    }
    if acting.is_empty() {
        // Nothing of a Companion's to do: a player's turn, no Companion's decision.
        if decision_hero(game).is_none() && turn_companion(game, players, turn).is_none() {
            return None;
        }
        let choice = match planning.as_mut() {
            Some(bot) => bot.choose(game),
            None => HeuristicBot.choose(game),
        };
        if let Some(a) = Some(choice).filter(ok) {
            return Some(a);
        }
    }
    let legal = game.legal_actions();
    let busy = |a: &&Action| {
        !matches!(
            a,
            Action::Equip { .. } | Action::Unequip { .. } | Action::StartPurchase { .. } | Action::CancelPurchase
        )
    };
    let mine: Vec<&Action> = legal.iter().filter(|a| ok(a)).collect();
    mine.iter().copied().find(busy).or(mine.first().copied()).cloned()
}

#[cfg(test)]
mod tests {
    use depths_rules::{Content, GameOptions};

    use super::*;

    /// Issue 53: a Companion bought an Ability with the party's XP while a
    /// player shared the table. Beside a player a Companion's purchase costs
    /// no more than one Hero's share of the pool; alone, the pool is theirs.
    #[test]
    fn a_companion_beside_a_player_spends_no_more_than_its_heros_share_of_the_xp() {
        use depths_rules::Purchase;
        use depths_sim::{Bot, HeuristicBot};
        let beside = Players {
            names: vec!["Ann".into()],
            owners: vec![0, 0],
            companions: vec![false, true],
            ..Players::default()
        };
        let alone = Players { companions: vec![true, true], ..beside.clone() };
        // The Companion's Exploring turn: the table's choices (Level Up's purchases among them) are its.
        let turn = Turn { companion: Some(1), ..Turn::default() };
        let (mut held_back, mut bought_alone) = (0, 0);
        for seed in 0..30 {
            let options = GameOptions::standard(&["bren", "sil"], seed);
            let mut game = Game::new(options, Content::builtin().unwrap()).unwrap();
            for _ in 0..4000 {
                if game.is_over() {
                    break;
                }
                let wants = HeuristicBot.choose_for(&game, 1).unwrap_or(Action::DrawTile);
                if let Action::StartPurchase { what: what @ Purchase::Ability { hero: 1 } } = wants
                    && game.check(&wants).is_ok()
                {
                    let pool = game.pool_xp();
                    let over = u16::from(game.price_of(what).unwrap()) > pool / 2;
                    let chosen = companion_choice(&game, &beside, &turn);
                    if over {
                        assert_ne!(chosen, Some(wants.clone()), "{pool} XP in the pool, two Heroes");
                        held_back += 1;
                    }
                    bought_alone += usize::from(companion_choice(&game, &alone, &turn) == Some(wants));
                }
                let a = HeuristicBot.choose(&game);
                game.apply(a).unwrap();
            }
        }
        assert!(held_back > 0 && bought_alone > 0, "{held_back} held back, {bought_alone} bought alone");
    }

    /// Ann plays Bren; Bo plays Sil and Ava. Ann explores first.
    fn game_for() -> (Game, Players, Turn) {
        let game = Game::new(GameOptions::standard(&["bren", "sil", "ava"], 7), Content::builtin().unwrap()).unwrap();
        let players = Players { names: vec!["Ann".into(), "Bo".into()], owners: vec![0, 1, 1], ..Players::default() };
        (game, players, Turn::default())
    }

    #[test]
    fn the_shared_choices_belong_to_the_seat_whose_turn_it_is() {
        let (game, players, turn) = game_for();
        assert_eq!(player_may_take(&game, &players, &turn, 0, &Action::DrawTile), Ok(()));
        assert_eq!(player_may_take(&game, &players, &turn, 1, &Action::DrawTile), Err("it is Ann's turn".into()));
    }

    #[test]
    fn a_heros_actions_belong_to_its_owner_and_not_while_a_companion_plays_it() {
        let (game, mut players, turn) = game_for();
        let unequip = |hero| Action::Unequip { hero, item: 0 };
        assert_eq!(player_may_take(&game, &players, &turn, 1, &unequip(1)), Ok(()));
        assert_eq!(player_may_take(&game, &players, &turn, 0, &unequip(1)), Err("Sil is Bo's Hero".into()));
        assert_eq!(
            player_may_take(&game, &players, &turn, 0, &unequip(9)),
            Err("there is no Hero 9 at this table".into())
        );
        players.set_companion(1, true, 3);
        assert_eq!(player_may_take(&game, &players, &turn, 1, &unequip(1)), Err("a Companion plays Sil".into()));
    }

    #[test]
    fn the_turn_passes_on_once_a_tile_is_placed_and_the_table_is_quiet() {
        let (mut game, players, mut turn) = game_for();
        let events = game.apply(Action::DrawTile).unwrap();
        after_events(&game, &players, &mut turn, &events);
        assert_eq!(turn.seat(), Seat::Player(0), "a tile in hand: still Ann's turn");
        let place = game.legal_actions().into_iter().find(|a| matches!(a, Action::PlaceTile { .. })).unwrap();
        let events = game.apply(place).unwrap();
        after_events(&game, &players, &mut turn, &events);
        if quiet(&game) {
            assert_eq!(turn.seat(), Seat::Player(1), "placed and quiet: Bo's turn");
        } else {
            assert!(turn.over, "the turn ends once the table is quiet");
        }
    }

    /// Ann plays Bren herself; Bo's Sil and Ava turn to Companions and back.
    #[test]
    fn seating_a_companion_keeps_the_turn_with_the_same_seat() {
        let (_, mut players, mut turn) = game_for();
        assert_eq!(seat_companion(&mut players, &mut turn, 3, 9, true), Err("there is no Hero 9 at this table".into()));
        turn.set_seat(Seat::Player(1), &players);
        assert_eq!(seat_companion(&mut players, &mut turn, 3, 1, true), Ok(true));
        assert_eq!(turn.seat(), Seat::Player(1), "Bo still plays Ava: his turn stays his");
        assert_eq!(seat_companion(&mut players, &mut turn, 3, 1, true), Ok(false), "no change");
        assert_eq!(seat_companion(&mut players, &mut turn, 3, 2, true), Ok(true));
        assert_eq!(turn.seat(), Seat::Companion(2), "Bo's last Hero: the Companion takes his turn");
        assert_eq!(players.seats(3), vec![Seat::Player(0), Seat::Companion(1), Seat::Companion(2)]);
        assert_eq!(seat_companion(&mut players, &mut turn, 3, 1, false), Ok(true));
        assert_eq!(turn.seat(), Seat::Companion(2), "another Companion's turn is untouched");
        assert_eq!(seat_companion(&mut players, &mut turn, 3, 2, false), Ok(true));
        assert_eq!(turn.seat(), Seat::Player(1), "a Companion's turn taken back is its owner's");
        assert_eq!(players.companions, vec![false; 3]);
    }

    /// A Companion's moves are exactly those no player may take.
    #[test]
    fn a_companion_moves_only_for_its_heroes_and_on_its_turn() {
        let (game, mut players, mut turn) = game_for();
        let unequip = |hero| Action::Unequip { hero, item: 0 };
        assert_eq!(companion_may_take(&game, &players, &turn, &unequip(1)), Err("Bo plays Sil themselves".into()));
        assert_eq!(
            companion_may_take(&game, &players, &turn, &Action::DrawTile),
            Err("it is Ann's turn, not a Companion's".into())
        );
        seat_companion(&mut players, &mut turn, 3, 0, true).unwrap();
        assert_eq!(turn.seat(), Seat::Companion(0), "Ann's only Hero: her turn is the Companion's");
        assert_eq!(companion_may_take(&game, &players, &turn, &Action::DrawTile), Ok(()));
        assert_eq!(companion_may_take(&game, &players, &turn, &unequip(0)), Ok(()));
        assert!(player_may_take(&game, &players, &turn, 0, &Action::DrawTile).is_err());
        assert!(player_may_take(&game, &players, &turn, 0, &unequip(0)).is_err());
        assert_eq!(
            companion_may_take(&game, &players, &turn, &unequip(7)),
            Err("there is no Hero 7 at this table".into())
        );
    }

    /// A resumed table: the players come back in another order, each keeps
    /// their Heroes and the turn; a missing player is named.
    #[test]
    fn reseating_follows_the_names_and_names_who_is_missing() {
        let players = Players { names: vec!["Ann".into(), "Bo".into()], owners: vec![0, 1, 1], ..Players::default() };
        let turn = Turn { player: 1, shown_to: Some(0), ..Turn::default() };
        let seats = vec!["bo ".to_owned(), "Ann".to_owned()];
        let (p, t) = reseat(&players, &turn, &seats).unwrap();
        assert_eq!(p.owners, vec![1, 0, 0]);
        assert_eq!((t.player, t.shown_to), (0, Some(1)));
        assert_eq!(reseat(&players, &turn, &["Ann".to_owned()]).unwrap_err(), vec!["Bo".to_owned()]);
        // A Companion stays at its Hero, its turn with it.
        let mut with = players.clone();
        let mut turn = turn;
        seat_companion(&mut with, &mut turn, 3, 2, true).unwrap();
        turn.set_seat(Seat::Companion(2), &with);
        let (p, t) = reseat(&with, &turn, &seats).unwrap();
        assert_eq!((p.companions, t.seat(), t.player), (vec![false, false, true], Seat::Companion(2), 0));
    }
}
