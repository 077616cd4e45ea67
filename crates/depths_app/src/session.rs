//! The game on the table: the rules core's [`Game`], the log in words, and the
//! one place where player [`Action`]s are applied. The UI and the board input
//! only write [`PlayerAction`] (or [`TileDrop`]) messages; this runs headless.

use bevy::{prelude::*, window::RequestRedraw};
use depths_rules::{
    Action, Content, Event, Game, GameOptions, LossReason, Outcome, Pending, Phase, Purchase, Target, XpRef,
    adventure::HeroChoice,
    hero::AbilitySource,
    map::{Placement, Rotation},
};

use crate::{
    PlaySystems,
    board_view::Cell,
    hotseat::{Players, Turn},
    screens::Screen,
};

/// The cards and tiles, loaded from `assets/content/` on the loading screen.
#[derive(Resource, Clone, Debug)]
pub struct GameContent(pub Content);

/// The game being played.
#[derive(Resource, Debug)]
pub struct Session {
    pub game: Game,
    /// The log in words, oldest first.
    pub log: Vec<String>,
    /// Bumped after every applied action (and on load): the board re-syncs.
    pub version: u64,
    /// Why the last choice was refused, shown until the next one is made.
    pub notice: Option<String>,
    /// A phase change (or Ctrl+S) asks for a save.
    pub save_due: bool,
    /// Where this game's saves go (file stem), fixed when it starts.
    pub save_name: String,
    /// The players at the table and who owns which Hero.
    pub players: Players,
    /// Whose turn it is to explore, and who has seen the table.
    pub turn: Turn,
    /// The game as it was before the last tile placement (client-side undo,
    /// until the next action).
    pub undo: Option<UndoPoint>,
    /// Feature / Legendary Location cards drawn since the table last looked
    /// (names, newest last; a few at most).
    pub drawn_cards: Vec<String>,
    /// The Combat round summary: what the last finished round did, in words.
    pub rounds: RoundSummary,
}

/// What happened in the last finished Combat round (and so far in this one).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RoundSummary {
    /// The number of the last finished round (0 before any).
    pub round: u32,
    /// Its events in words.
    pub last: Vec<String>,
    /// Its totals.
    #[serde(default)]
    pub totals: RoundTotals,
    current: Vec<String>,
    #[serde(default)]
    current_totals: RoundTotals,
}

/// Damage and healing both ways in one round, and individuals defeated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RoundTotals {
    pub dealt: u16,
    pub taken: u16,
    pub healed: u16,
    pub defeated: u16,
}

impl RoundSummary {
    /// Notes one applied event (and its line in the log).
    fn note(&mut self, event: &Event, line: Option<&String>) {
        let t = &mut self.current_totals;
        match event {
            Event::CombatStarted { .. } => *self = RoundSummary::default(),
            Event::RoundStarted { round } => {
                self.round = round.saturating_sub(1);
                self.last = std::mem::take(&mut self.current);
                self.totals = std::mem::take(&mut self.current_totals);
                return;
            }
            Event::MonsterDamaged { amount, .. } => t.dealt += u16::from(*amount),
            Event::HeroDamaged { amount, .. } => t.taken += u16::from(*amount),
            Event::HeroHealed { amount, .. } => t.healed += u16::from(*amount),
            Event::IndividualDefeated { .. } => t.defeated += 1,
            _ => {}
        }
        // Damage, healing, defeats and abilities make the summary; card
        // draws and plays are on the table already.
        if matches!(
            event,
            Event::MonsterDamaged { .. }
                | Event::HeroDamaged { .. }
                | Event::HeroHealed { .. }
                | Event::MonsterHealed { .. }
                | Event::IndividualDefeated { .. }
                | Event::FoeDefeated { .. }
                | Event::AbilityActivated { .. }
                | Event::MonsterAbility { .. }
                | Event::ReturnDamageAvoided { .. }
                | Event::PairChosen { .. }
        ) {
            self.current.extend(line.cloned());
        }
    }

    /// One line: "Round 2: the Heroes dealt 9 damage and took 7, healed 3; 1 defeated."
    pub fn headline(&self) -> String {
        let t = self.totals;
        let mut line = format!("Round {}: the Heroes dealt {} damage and took {}", self.round, t.dealt, t.taken);
        if t.healed > 0 {
            line.push_str(&format!(", healed {}", t.healed));
        }
        if t.defeated > 0 {
            line.push_str(&format!("; {} defeated", t.defeated));
        }
        line.push('.');
        line
    }
}

/// What client-side undo restores: the rules core has no undo, so the client
/// keeps the save JSON from before a tile placement.
#[derive(Clone, Debug)]
pub struct UndoPoint {
    pub json: String,
    pub log_len: usize,
    pub turn: Turn,
    /// The tile that was placed, for the log.
    pub tile: String,
}

impl Session {
    pub fn new(game: Game) -> Session {
        let seed = game.adventure().map_or(0, |a| a.options.seed);
        let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let mut s = Session {
            game,
            log: Vec::new(),
            version: 1,
            notice: None,
            save_due: false,
            save_name: format!("game-{stamp}-seed{seed}"),
            players: Players::default(),
            turn: Turn::default(),
            undo: None,
            drawn_cards: Vec::new(),
            rounds: RoundSummary::default(),
        };
        let names: Vec<String> = s.game.heroes.iter().map(|h| h.name().to_owned()).collect();
        s.log.push(format!("A new delve begins: {}.", names.join(", ")));
        s
    }

    /// Seed of the game (varies the floor art).
    pub fn seed(&self) -> u64 {
        self.game.adventure().map_or(0, |a| a.options.seed)
    }

    /// Applies `action` if it is legal; the log gets its events in words.
    pub fn apply(&mut self, action: Action) -> Result<Vec<Event>, String> {
        let before = phase_key(&self.game);
        let placing = matches!(action, Action::PlaceTile { .. } | Action::PlaceSetAsideTile { .. });
        let undo = placing.then(|| UndoPoint {
            json: self.game.save_json(),
            log_len: self.log.len(),
            turn: self.turn.clone(),
            tile: self.tile_in_hand().map_or_else(String::new, |(t, _)| t.id.to_string()),
        });
        match self.game.apply(action) {
            Ok(events) => {
                self.undo = undo;
                crate::hotseat::after_events(&self.game, &self.players, &mut self.turn, &events);
                for e in &events {
                    if let Event::CardDrawn { name } = e {
                        if self.drawn_cards.len() >= 4 {
                            self.drawn_cards.remove(0);
                        }
                        self.drawn_cards.push(name.clone());
                    }
                    let line = describe_event(&self.game, e);
                    self.rounds.note(e, line.as_ref());
                    self.log.extend(line);
                }
                self.version += 1;
                self.notice = None;
                if phase_key(&self.game) != before {
                    self.save_due = true;
                }
                Ok(events)
            }
            Err(e) => {
                let text = rule_error_text(&e);
                self.notice = Some(text.clone());
                Err(text)
            }
        }
    }

    /// Client-side undo of the last tile placement: restores the game saved
    /// just before it. Possible until the next action.
    pub fn undo_placement(&mut self) -> Result<(), String> {
        let point = self.undo.take().ok_or("There is no tile placement to undo.")?;
        self.game = Game::load_json(&point.json)?;
        self.log.truncate(point.log_len);
        self.log.push(format!("Undid the placement of {} (restored the game from before it).", point.tile));
        self.turn = point.turn;
        self.version += 1;
        self.notice = None;
        Ok(())
    }

    /// How many tiles left in the pile would have no legal place on the map
    /// as it is now, and how many tiles are in the pile.
    pub fn dead_ends_in_pile(&self) -> (usize, usize) {
        let Some(a) = self.game.adventure() else { return (0, 0) };
        let frontier = a.ecology.map.frontier();
        let tiles = a.ecology.pile.tiles();
        (tiles.iter().filter(|t| frontier.legal_placements(t).is_empty()).count(), tiles.len())
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
        let placement = Placement { cell: cell.into(), rotation };
        Some(if set_aside { Action::PlaceSetAsideTile { placement } } else { Action::PlaceTile { placement } })
    }
}

fn phase_key(game: &Game) -> (std::mem::Discriminant<Phase>, Option<depths_rules::Ecology>) {
    (std::mem::discriminant(&game.phase), game.adventure().map(|a| a.ecology.ecology))
}

/// Why an action was refused, as a sentence.
pub fn rule_error_text(e: &depths_rules::RuleError) -> String {
    match e {
        depths_rules::RuleError::Placement(p) => capitalise(&p.to_string()) + ".",
        other => capitalise(&other.to_string()),
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// Undo the last tile placement (client-side).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct UndoPlacement;

/// A player's choice, from the panels or the board.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct PlayerAction(pub Action);

/// The tile in hand was let go over `cell`, turned by `rotation`.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileDrop {
    pub cell: Cell,
    pub rotation: Rotation,
}

/// The last drop was refused: the tile springs back to the tray, with the reason.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct DropRefused(pub Option<String>);

/// Start a new game with these options.
#[derive(Message, Clone, Debug)]
pub struct StartGame(pub GameOptions);

/// Why a new game could not start (shown on the setup screen).
#[derive(Resource, Default, Debug, Clone)]
pub struct SetupNotice(pub Option<String>);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<PlayerAction>();
    app.add_message::<TileDrop>();
    app.add_message::<StartGame>();
    app.add_message::<UndoPlacement>();
    app.init_resource::<DropRefused>();
    app.init_resource::<SetupNotice>();
    app.add_systems(
        Update,
        (start_game, apply_player_actions, apply_tile_drops, apply_undo).chain().in_set(PlaySystems::Rules),
    );
}

fn start_game(
    mut commands: Commands,
    mut starts: MessageReader<StartGame>,
    content: Option<Res<GameContent>>,
    players: Res<Players>,
    mut notice: ResMut<SetupNotice>,
    mut next: ResMut<NextState<Screen>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    for StartGame(options) in starts.read() {
        redraw.write(RequestRedraw);
        let Some(content) = &content else {
            notice.0 = Some("The game's content is not loaded.".into());
            continue;
        };
        match Game::new(options.clone(), content.0.clone()) {
            Ok(game) => {
                let mut session = Session::new(game);
                session.players = players.clone();
                commands.insert_resource(session);
                notice.0 = None;
                next.set(Screen::Playing);
            }
            Err(e) => notice.0 = Some(e.to_string()),
        }
    }
}

fn apply_player_actions(
    mut actions: MessageReader<PlayerAction>,
    session: Option<ResMut<Session>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let Some(mut session) = session else {
        actions.clear();
        return;
    };
    for PlayerAction(action) in actions.read() {
        redraw.write(RequestRedraw);
        if let Err(e) = session.apply(action.clone()) {
            warn!("refused {action:?}: {e}");
        }
    }
}

fn apply_tile_drops(
    mut drops: MessageReader<TileDrop>,
    session: Option<ResMut<Session>>,
    mut refused: ResMut<DropRefused>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let Some(mut session) = session else {
        drops.clear();
        return;
    };
    for drop in drops.read() {
        redraw.write(RequestRedraw);
        let Some(action) = session.place_action(drop.cell, drop.rotation) else {
            refused.0 = Some("There is no tile in hand: draw one first.".into());
            continue;
        };
        // Check first, so a refused drop leaves the log and notice alone.
        match session.game.check(&action) {
            Ok(()) => {
                refused.0 = None;
                let _ = session.apply(action);
            }
            Err(e) => refused.0 = Some(rule_error_text(&e)),
        }
    }
}

fn apply_undo(
    mut undos: MessageReader<UndoPlacement>,
    session: Option<ResMut<Session>>,
    mut refused: ResMut<DropRefused>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let Some(mut session) = session else {
        undos.clear();
        return;
    };
    for _ in undos.read() {
        redraw.write(RequestRedraw);
        refused.0 = None;
        if let Err(e) = session.undo_placement() {
            session.notice = Some(e);
        }
    }
}

// ---------------------------------------------------------------- words

fn hero_name(game: &Game, h: u8) -> String {
    game.heroes.get(usize::from(h)).map_or_else(|| format!("Hero {h}"), |h| h.name().to_owned())
}

fn foe_name(game: &Game, f: u8) -> String {
    game.combat()
        .and_then(|c| c.foes.get(usize::from(f)))
        .map_or_else(|| format!("Monster {f}"), |f| f.name().to_owned())
}

fn individual_name(game: &Game, f: u8, i: u8) -> String {
    game.combat()
        .and_then(|c| c.foes.get(usize::from(f)))
        .and_then(|f| f.individuals.get(usize::from(i)))
        .map_or_else(|| format!("#{}", i + 1), |i| i.name.clone())
}

pub fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Block => "Block",
        Outcome::MonsterHit => "Monster Hit",
        Outcome::HeroHit => "Hero Hit",
    }
}

/// One line of the log for an event, or `None` for bookkeeping.
pub fn describe_event(game: &Game, e: &Event) -> Option<String> {
    let h = |h: &u8| hero_name(game, *h);
    Some(match e {
        Event::CombatStarted { foes } => format!("Combat! Against {}.", foes.join(" and ")),
        Event::MonstersAssigned { foes } => {
            let parts: Vec<String> = foes
                .iter()
                .enumerate()
                .map(|(i, f)| format!("{} fights {}", h(&(i as u8)), foe_name(game, *f)))
                .collect();
            format!("{}.", parts.join("; "))
        }
        Event::RoundStarted { round } => format!("— Round {round} —"),
        Event::CardsDrawn { .. } => return None,
        Event::PowerStored { hero } => format!("{} stores a Power Card.", h(hero)),
        Event::DiscardReshuffled { hero } => format!("{} reshuffles their discard pile.", h(hero)),
        Event::CannotPlay { hero } => format!("{} has no card to play.", h(hero)),
        Event::CardPlayed { hero, card, .. } => {
            format!("{} plays {}.", h(hero), card_text(card))
        }
        Event::MonsterCardPlayed { foe, card, .. } => {
            format!("{} plays {}.", foe_name(game, *foe), card_text(card))
        }
        Event::MonsterDeckReshuffled { .. } => return None,
        Event::MonsterPowerDrawn { foe, hero } => {
            format!("{} draws Power against {}.", foe_name(game, *foe), h(hero))
        }
        Event::MonsterAbility { foe, name, .. } => {
            format!("{} uses {name}.", foe_name(game, *foe))
        }
        Event::MonsterPowerWasted { foe } => {
            format!("{}'s Power fizzles.", foe_name(game, *foe))
        }
        Event::MonsterCardMoved { .. } => return None,
        Event::PairChosen { hero, outcome, .. } => {
            format!("{} resolves a {}.", h(hero), outcome_name(*outcome))
        }
        Event::AbilityActivated { hero, name } => format!("{} activates {name}.", h(hero)),
        Event::PowerSpent { hero, count } => format!("{} spends {count} Power.", h(hero)),
        Event::SpellExhausted { hero, name } => format!("{}'s {name} is exhausted.", h(hero)),
        Event::MonsterDamaged { hero, foe, individual, amount } => {
            format!("{} deals {amount} damage to {}.", h(hero), individual_name(game, *foe, *individual))
        }
        Event::IndividualDefeated { foe, individual } => {
            format!("{} is defeated.", individual_name(game, *foe, *individual))
        }
        Event::MonsterHealed { foe, individual, amount } => {
            format!("{} heals {amount}.", individual_name(game, *foe, *individual))
        }
        Event::ReturnDamageAvoided { hero } => format!("{} avoids Return Damage.", h(hero)),
        Event::HeroDamaged { hero, amount } => format!("{} takes {amount} damage.", h(hero)),
        Event::HeroHealed { hero, amount } => format!("{} heals {amount}.", h(hero)),
        Event::FoeDefeated { foe } => format!("{} is Defeated!", foe_name(game, *foe)),
        Event::RoundEnded { .. } => return None,
        Event::CombatWon => "The Heroes win the Combat.".into(),
        Event::GameLost { reason } => format!("The Heroes lose: {}.", loss_text(game, reason)),
        Event::Note { text } => text.clone(),
        Event::EcologyStarted { ecology } => format!("The Heroes enter the {}.", ecology.name()),
        Event::TileDrawn { tile } => format!("Drew map tile {tile}."),
        Event::TilePlaced { tile, placement } => format!(
            "Placed {tile} at {:?}, turned {}°.",
            placement.cell,
            u32::from(placement.rotation.quarter_turns()) * 90
        ),
        Event::TileSetAside { tile } => format!("{tile} is set aside (a dead end)."),
        Event::ElementEncountered { element } => {
            let what =
                game.adventure().and_then(|a| a.ecology.map.element(*element)).map_or("an element", |(e, _)| e.name());
            format!("The Heroes Encounter a {what}.")
        }
        Event::LegendaryLocationEncountered { pattern } => {
            format!("Legendary Location {pattern} is Encountered!")
        }
        Event::CardDrawn { name } => format!("Drew “{name}”."),
        Event::TestResolved { total, target, passed } => {
            format!("Test: {total} against {target} — {}.", if *passed { "passed" } else { "failed" })
        }
        Event::XpGained { name, xp } => format!("Gained {name} ({xp} XP)."),
        Event::XpSpent { xp } => format!("Spent {xp} XP."),
        Event::KeysChanged { keys } => format!("Keys: {keys}."),
        Event::ItemGained { hero, name } => format!("{} gains {name}.", h(hero)),
        Event::AbilityGained { hero, name } => format!("{} learns {name}.", h(hero)),
        Event::Rested => "The Heroes rest at the campfire.".into(),
        Event::LevelUp { level } => format!("Level Up! The Heroes reach level {level}."),
        Event::GameWon => "The Final Entity falls. The Heroes win!".into(),
    })
}

pub fn loss_text(game: &Game, reason: &LossReason) -> String {
    match reason {
        LossReason::DeadEnd => "they drew a Map Tile that cannot be placed (a dead end)".into(),
        LossReason::Stranded => "no tile left to draw and nothing left to Encounter".into(),
        LossReason::HeroDefeated { hero } => format!("{} was Defeated", hero_name(game, *hero)),
    }
}

pub fn card_text(card: &depths_rules::ActionCard) -> String {
    if card.power { "a Power Card".into() } else { format!("a {}", card.value) }
}

fn source_name(game: &Game, hero: u8, source: AbilitySource) -> String {
    game.heroes
        .get(usize::from(hero))
        .and_then(|h| h.ability(source))
        .map_or_else(|| format!("{source:?}"), |a| a.name.clone())
}

fn target_text(game: &Game, t: &Target) -> String {
    match t {
        Target::None => String::new(),
        Target::Engagement(e) => format!(" on engagement {}", e + 1),
        Target::Individual { foe, individual } => {
            format!(" on {}", individual_name(game, *foe, *individual))
        }
        Target::HeroSlot { engagement, slot } => {
            format!(" on own card {} (eng. {})", slot + 1, engagement + 1)
        }
        Target::MonsterSlot { engagement, slot } => {
            format!(" on monster card {} (eng. {})", slot + 1, engagement + 1)
        }
        Target::Hero(h) => format!(" on {}", hero_name(game, *h)),
        Target::DiscardCard(c) => format!(" taking back card #{}", c.0),
        Target::Element(e) => format!(" on the element at {:?}", e.cell),
    }
}

/// A readable label for any legal action.
pub fn describe_action(game: &Game, a: &Action) -> String {
    let h = |h: &u8| hero_name(game, *h);
    let card = |hero: u8, id: depths_rules::CardId| {
        let hero = &game.heroes[usize::from(hero)];
        hero.hand.iter().chain(&hero.draw).find(|c| c.id == id).map_or_else(|| format!("card #{}", id.0), card_text)
    };
    match a {
        Action::AssignMonsters { foes } => {
            let parts: Vec<String> = foes
                .iter()
                .enumerate()
                .map(|(i, f)| format!("{} fights {}", h(&(i as u8)), foe_name(game, *f)))
                .collect();
            parts.join("; ")
        }
        Action::PlayCard { hero, card: id } => format!("{} plays {}", h(hero), card(*hero, *id)),
        Action::PlaceMonsterCard { hero, slot } => {
            format!("{}: put the Monster card opposite card {}", h(hero), slot + 1)
        }
        Action::ActivateAbility { hero, source, target } => {
            format!("{}: activate {}{}", h(hero), source_name(game, *hero, *source), target_text(game, target))
        }
        Action::ChoosePair { hero, engagement, slot } => {
            format!("{}: resolve pair {} (engagement {})", h(hero), slot + 1, engagement + 1)
        }
        Action::EndTurn { hero } => format!("{}: end turn", h(hero)),
        Action::AssignDamage { hero, individual } => {
            let foe = game.combat().and_then(|c| c.packets.first()).map_or(0, |p| p.foe);
            format!("{}: damage {}", h(hero), individual_name(game, foe, *individual))
        }
        Action::AvoidReturnDamage { hero } => format!("{} avoids Return Damage", h(hero)),
        Action::DrawTile => "Draw a map tile".into(),
        Action::PlaceTile { placement } | Action::PlaceSetAsideTile { placement } => format!(
            "Place the tile at {:?}, turned {}°",
            placement.cell,
            u32::from(placement.rotation.quarter_turns()) * 90
        ),
        Action::Encounter { element } => {
            let what =
                game.adventure().and_then(|a| a.ecology.map.element(*element)).map_or("element", |(e, _)| e.name());
            format!("Encounter the {what} at {:?}", element.cell)
        }
        Action::EncounterLegendary { index } => {
            let name = game
                .discovered_legendary_locations()
                .get(usize::from(*index))
                .map_or_else(|| format!("#{index}"), |m| m.pattern.clone());
            format!("Encounter Legendary Location {name}")
        }
        Action::StartPurchase { what } => match what {
            Purchase::Key => "Buy a Key".into(),
            Purchase::Healing { units } => format!("Buy Healing ×{units}"),
            Purchase::Ability { hero } => format!("Buy an Ability for {}", h(hero)),
        },
        Action::PayXp { card } => match card {
            XpRef::Pool(i) => game
                .adventure()
                .and_then(|a| a.xp_pool.get(usize::from(*i)))
                .map_or_else(|| format!("Pay XP card {i}"), |c| format!("Pay {} ({} XP)", c.name, c.xp)),
            XpRef::Item { hero, item } => game.heroes[usize::from(*hero)].items.get(usize::from(*item)).map_or_else(
                || "Pay an Item".into(),
                |i| format!("Pay {}'s {} ({} XP)", h(hero), i.card.name, i.card.xp),
            ),
        },
        Action::CancelPurchase => "Cancel the purchase".into(),
        Action::SplitHealing { amounts } => {
            let parts: Vec<String> =
                amounts.iter().enumerate().map(|(i, n)| format!("{} +{n}", h(&(i as u8)))).collect();
            format!("Heal: {}", parts.join(", "))
        }
        Action::Equip { hero, item } | Action::Unequip { hero, item } => {
            let verb = if matches!(a, Action::Equip { .. }) { "equips" } else { "unequips" };
            let name = game.heroes[usize::from(*hero)]
                .items
                .get(usize::from(*item))
                .map_or("an Item", |i| i.card.name.as_str());
            format!("{} {verb} {name}", h(hero))
        }
        Action::ChooseHero { hero } => {
            let why = match game.pending() {
                Some(Pending::ChooseHero(HeroChoice::DrawItem)) => " draws the Item",
                Some(Pending::ChooseHero(HeroChoice::GainItem(_))) => " gains the Item",
                Some(Pending::ChooseHero(HeroChoice::Heal(_))) => " is healed",
                Some(Pending::ChooseHero(HeroChoice::Damage(_))) => " takes the damage",
                _ => "",
            };
            format!("{}{why}", h(hero))
        }
        Action::ChooseOption { index } => match game.pending() {
            Some(Pending::ChooseItem { options, .. }) => options
                .get(usize::from(*index))
                .map_or_else(|| format!("Option {index}"), |i| format!("Keep {}", i.name)),
            Some(Pending::ChooseAbility { options, .. }) => options
                .get(usize::from(*index))
                .map_or_else(|| format!("Option {index}"), |c| format!("Keep {}", c.ability.text())),
            Some(Pending::ChooseAbilityDraw { .. }) => {
                if *index == 0 {
                    "Draw one from each class".into()
                } else {
                    "Draw two from the Primary class".into()
                }
            }
            Some(Pending::OrderFeatures { cards }) => {
                let order = depths_rules::exploring::feature_order(cards.len(), usize::from(*index));
                let names: Vec<&str> = order.iter().filter_map(|&i| cards.get(i).map(|c| c.name.as_str())).collect();
                format!("Order: {}", names.join(", then "))
            }
            _ => format!("Option {}", index + 1),
        },
        Action::RemoveActionCard { card: id } => {
            let hero = match game.pending() {
                Some(Pending::RemoveCards { hero, .. }) => *hero,
                _ => 0,
            };
            format!("{}: remove {}", h(&hero), card(hero, *id))
        }
        Action::FinishLevelUp => "Finish Level Up: on to the next Ecology".into(),
    }
}

#[cfg(test)]
mod round_summary_tests {
    use super::*;

    #[test]
    fn the_summary_holds_the_last_finished_round_and_starts_afresh_each_combat() {
        let mut r = RoundSummary::default();
        let line = |t: &str| Some(t.to_owned());
        r.note(&Event::CombatStarted { foes: vec!["Rats".into()] }, None);
        r.note(&Event::RoundStarted { round: 1 }, line("— Round 1 —").as_ref());
        r.note(&Event::CardsDrawn { hero: 0, count: 3 }, None);
        r.note(&Event::HeroDamaged { hero: 0, amount: 3 }, line("Bren takes 3 damage.").as_ref());
        assert!(r.last.is_empty(), "round 1 is not over yet");
        r.note(&Event::RoundStarted { round: 2 }, line("— Round 2 —").as_ref());
        assert_eq!((r.round, r.last.clone()), (1, vec!["Bren takes 3 damage.".to_owned()]));
        assert_eq!(r.headline(), "Round 1: the Heroes dealt 0 damage and took 3.");
        r.note(&Event::HeroHealed { hero: 0, amount: 2 }, line("Bren heals 2.").as_ref());
        r.note(&Event::RoundStarted { round: 3 }, None);
        assert_eq!((r.round, r.last.clone()), (2, vec!["Bren heals 2.".to_owned()]));
        assert_eq!(r.headline(), "Round 2: the Heroes dealt 0 damage and took 0, healed 2.");
        r.note(&Event::CombatStarted { foes: vec![] }, None);
        assert_eq!(r, RoundSummary::default());
    }
}
