//! Events drive the table: every [`enum@Event`] the rules core's `apply` returns is
//! published as a [`RulesEvent`] message, and [`reaction`] says which part of
//! the table answers it. The board spawns a landed tile, flips tokens and
//! walks the Lantern from these, and lays the whole board again only on a new
//! game, a load, an undo or a new Ecology.

use bevy::prelude::*;
use depths_rules::{Event, map::Cell};

use crate::{
    PlaySystems,
    game::game_log::GameLog,
    game::screen::Screen,
    game::session::{Delve, EventFeed},
};

/// One event of the rules core, as it happened, oldest first.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct RulesEvent(pub Event);

/// Lay the whole board again (new game, load).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct RebuildBoard;

/// A move was taken back: tiles no longer on the map leave the board, tokens
/// and the Lantern go back. (An undo restores the game before the move, so
/// the rules core reports no event.)
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TakenBack;

/// Which part of the table answers an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reaction {
    /// A new Ecology: the board is laid again.
    NewMap,
    /// A tile is laid: spawn that tile only.
    TileLands,
    /// The tile in hand changed: the tray and the placement hints.
    TileInHand,
    /// An element was Encountered: its token flips, the Lantern walks there,
    /// reachability may change.
    Encounter,
    /// The Combat is over: the Monster's red X goes down.
    CombatOver,
    /// Health changed: the health bars (Hero mats, Monster cards).
    Health,
    /// A Combat round began or ended: the round summary.
    Round,
    /// Cards moved: hands, pairs, decks (the table's cards).
    Cards,
    /// The party's Keys, XP, Items or Abilities changed: the party panel.
    Party,
    /// A line for the log only.
    Log,
    /// The game is over.
    GameOver,
}

/// Where each event goes. No `_` arm: a new event kind must be given a
/// reaction before the client compiles.
pub fn reaction(event: &Event) -> Reaction {
    use Reaction::*;
    match event {
        Event::EcologyStarted { .. } => NewMap,
        Event::TilePlaced { .. } => TileLands,
        Event::TileDrawn { .. } | Event::TileSetAside { .. } => TileInHand,
        Event::ElementEncountered { .. } => Encounter,
        Event::CombatWon => CombatOver,
        Event::HeroDamaged { .. }
        | Event::HeroHealed { .. }
        | Event::MonsterDamaged { .. }
        | Event::MonsterHealed { .. }
        | Event::IndividualDefeated { .. }
        | Event::FoeDefeated { .. } => Health,
        Event::CombatStarted { .. } | Event::RoundStarted { .. } | Event::RoundEnded { .. } => Round,
        Event::MonstersAssigned { .. }
        | Event::CardsDrawn { .. }
        | Event::PowerStored { .. }
        | Event::DiscardReshuffled { .. }
        | Event::CannotPlay { .. }
        | Event::CardPlayed { .. }
        | Event::MonsterCardPlayed { .. }
        | Event::MonsterCardWaiting { .. }
        | Event::CardsOffered { .. }
        | Event::MonsterDeckReshuffled { .. }
        | Event::MonsterPowerDrawn { .. }
        | Event::MonsterPowerWasted { .. }
        | Event::MonsterCardMoved { .. }
        | Event::PairChosen { .. }
        | Event::PowerSpent { .. }
        | Event::SpellExhausted { .. }
        | Event::ReturnDamageAvoided { .. }
        | Event::CardDrawn { .. } => Cards,
        Event::XpGained { .. }
        | Event::XpSpent { .. }
        | Event::KeysChanged { .. }
        | Event::ItemGained { .. }
        | Event::AbilityGained { .. }
        | Event::LevelUp { .. }
        | Event::Rested => Party,
        Event::Note { .. }
        | Event::MonsterAbility { .. }
        | Event::AbilityActivated { .. }
        | Event::LegendaryLocationEncountered { .. }
        | Event::TestResolved { .. }
        | Event::EcologyCompleted { .. } => Log,
        Event::GameWon | Event::GameLost { .. } => GameOver,
    }
}

/// What the board must do this frame, gathered from the frame's events by
/// [`dispatch`]; the board's sync systems act on it.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct BoardNews {
    /// Lay every tile again.
    pub rebuild: bool,
    /// Tiles laid this frame, in order.
    pub landed: Vec<Cell>,
    /// A placement was undone: tiles no longer on the map go.
    pub lifted: bool,
    /// Tokens may have flipped, the Lantern moved or reachability changed:
    /// compare them with the map and update only those that differ.
    pub tokens: bool,
    /// How many events of each kind this frame (for tests and logs).
    pub counts: Vec<(Reaction, usize)>,
}

impl BoardNews {
    pub fn is_empty(&self) -> bool {
        !self.rebuild && self.landed.is_empty() && !self.lifted && !self.tokens
    }
}

/// What the card table must do this frame, gathered by [`dispatch`] as
/// [`BoardNews`] is for the board. The cards themselves follow the game's
/// stamp (what lies on the table is the game's); the events add what the
/// game no longer holds.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct CardNews {
    /// Feature and Legendary Location cards drawn this frame: resolved at
    /// once, they show for a moment though the game keeps none of them.
    pub drawn: Vec<String>,
}

/// How each Hero's Health changed in the last action's events (the Hero
/// mats show it beside the bar until the next change).
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct HealthNews {
    /// (Hero, net change, Health after it), in Hero order.
    pub heroes: Vec<(u8, i16, u8)>,
    /// The table's stamp after the move that made them (`Delve::stamp`).
    pub at: (u64, u64),
}

impl HealthNews {
    /// Hero `hero`'s last change, while its Health is still what the change
    /// left (`now`); 0 once it moved without a Health event (Level Up heals
    /// to full, a new Ecology, an undo or a replay's jump), where "Last change
    /// −7 Health" beside a full bar was stale.
    ///
    /// "Just now" holds only at the table the move left (`stamp`): after a
    /// Round in which no one was wounded, "−7 Health just now" still told of
    /// the Round before.
    pub fn change_of(&self, hero: u8, now: u8, stamp: (u64, u64)) -> i16 {
        if stamp != self.at {
            return 0;
        }
        self.heroes.iter().find(|(h, _, after)| *h == hero && *after == now).map_or(0, |(_, by, _)| *by)
    }
}

/// The end of a fight, told in the middle of the board's room (drawn by the
/// panels, `ui/panels/fight_end.rs`) until a click, Space or Enter: won, or
/// the Hero who fell; the XP gained; what it cost each Hero.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct FightEnd {
    /// The last fight whose start was seen: each Hero's Health then, and
    /// the Health lost since (damage less healing).
    tally: Option<Vec<(u8, i16)>>,
    /// That fight has ended (kept: an undo may take the end back).
    ended: bool,
    /// The end to tell, until it is dismissed.
    pub moment: Option<FightMoment>,
}

/// One fight's end, as told.
#[derive(Debug, Clone, PartialEq)]
pub struct FightMoment {
    /// The Hero whose fall lost the fight (and the game); `None`: Victory.
    pub fell: Option<u8>,
    /// The XP gained, by what it was gained for.
    pub xp: Vec<(String, u8)>,
    /// Health each Hero lost in the fight, by Hero; `None` when the fight
    /// began before this table saw it (a save loaded mid-fight).
    pub cost: Option<Vec<i16>>,
    /// Real seconds when it was first shown (the panels set it).
    pub shown_at: Option<f64>,
}

impl FightEnd {
    /// Hears one event, in order, with `health` each Hero's Health now
    /// (read at the fight's start, when no Hero has yet been hurt).
    fn hear(&mut self, event: &Event, health: &[u8]) {
        match event {
            Event::CombatStarted { .. } => {
                self.tally = Some(health.iter().map(|h| (*h, 0)).collect());
                self.ended = false;
                self.moment = None;
            }
            Event::HeroDamaged { hero, amount } => self.add(*hero, i16::from(*amount)),
            Event::HeroHealed { hero, amount } => self.add(*hero, -i16::from(*amount)),
            Event::CombatWon => self.end(None),
            Event::GameLost { reason: depths_rules::LossReason::HeroDefeated { hero } } if self.fighting() => {
                self.end(Some(*hero))
            }
            Event::XpGained { name, xp } => {
                if let Some(m) = self.moment.as_mut().filter(|m| m.shown_at.is_none()) {
                    m.xp.push((name.clone(), *xp));
                }
            }
            _ => {}
        }
    }

    fn fighting(&self) -> bool {
        self.tally.is_some() && !self.ended
    }

    fn add(&mut self, hero: u8, lost: i16) {
        if !self.fighting() {
            return;
        }
        if let Some((_, n)) = self.tally.as_mut().and_then(|t| t.get_mut(usize::from(hero))) {
            *n += lost;
        }
    }

    fn end(&mut self, fell: Option<u8>) {
        let cost = self.tally.as_ref().filter(|_| !self.ended).map(|t| t.iter().map(|(_, n)| *n).collect());
        self.ended = true;
        self.moment = Some(FightMoment { fell, xp: Vec::new(), cost, shown_at: None });
    }

    /// A move was taken back: within a fight, the Health lost is what each
    /// Hero had at its start less what they have now (no Level Up happens
    /// in a fight); a fight's end taken back is told no more.
    fn taken_back(&mut self, health: &[u8], in_fight: bool) {
        self.moment = None;
        if !in_fight {
            // Out of the fight: an undo further back may land in a fight
            // whose start is not this tally's.
            self.tally = None;
            return;
        }
        self.ended = false;
        if let Some(t) = self.tally.as_mut() {
            for ((start, lost), now) in t.iter_mut().zip(health) {
                *lost = i16::from(*start) - i16::from(*now);
            }
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<RulesEvent>();
    app.add_message::<RebuildBoard>();
    app.add_message::<TakenBack>();
    app.init_resource::<BoardNews>();
    app.init_resource::<HealthNews>();
    app.init_resource::<CardNews>();
    app.init_resource::<FightEnd>();
    app.add_systems(
        Update,
        (
            publish.run_if(resource_exists::<EventFeed>.and_then(in_state(Screen::Playing))),
            dispatch,
            (write_log.run_if(resource_exists::<GameLog>), health_bars, fight_end),
        )
            .chain()
            .in_set(PlaySystems::Events),
    );
    app.add_systems(OnExit(Screen::Playing), |mut health: ResMut<HealthNews>, mut end: ResMut<FightEnd>| {
        *health = HealthNews::default();
        *end = FightEnd::default();
    });
}

/// The log and the round summary take every event in words.
fn write_log(mut events: MessageReader<RulesEvent>, delve: Res<Delve>, mut log: ResMut<GameLog>) {
    let from = log.lines.len();
    for RulesEvent(event) in events.read() {
        log.record(delve.game(), event);
    }
    if log.made_again.is_some() {
        log.tell_made_again(from);
    }
    // Only a note to tell touches the log: a change every frame would redraw every frame.
    if log.companion.as_ref().is_some_and(|n| n.version != delve.version()) {
        log.tell_companion(delve.version(), from);
    }
}

/// Health events: the Hero mats show each Hero's change beside the bar.
fn health_bars(mut events: MessageReader<RulesEvent>, mut health: ResMut<HealthNews>, delve: Option<Res<Delve>>) {
    let mut changes: Vec<(u8, i16)> = Vec::new();
    for RulesEvent(event) in events.read() {
        if reaction(event) != Reaction::Health {
            continue;
        }
        // Monster health is on the Combat window's cards.
        let (hero, by) = if let Event::HeroDamaged { hero, amount } = event {
            (*hero, -i16::from(*amount))
        } else if let Event::HeroHealed { hero, amount } = event {
            (*hero, i16::from(*amount))
        } else {
            continue;
        };
        match changes.iter_mut().find(|(h, _)| *h == hero) {
            Some((_, n)) => *n += by,
            None => changes.push((hero, by)),
        }
    }
    if !changes.is_empty() {
        changes.sort();
        // Runs on every screen (the events of a game being left still come).
        let after =
            |h: u8| delve.as_ref().and_then(|d| d.game().heroes.get(usize::from(h))).map_or(0, |hero| hero.health);
        health.heroes = changes.into_iter().map(|(h, by)| (h, by, after(h))).collect();
        health.at = delve.as_ref().map_or((0, 0), |d| d.stamp());
    }
}

/// A fight's start, its Health events and its end: the moment told at its end.
/// A replay's step laid the table anew: the fight under way before its
/// move, as [`FightEnd`] tallies it (taken once the table is laid).
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct FightSoFar(pub Option<Vec<(u8, i16)>>);

fn fight_end(
    mut events: MessageReader<RulesEvent>,
    (mut rebuilds, mut lifts): (MessageReader<RebuildBoard>, MessageReader<TakenBack>),
    mut end: ResMut<FightEnd>,
    delve: Option<Res<Delve>>,
    mut so_far: Option<ResMut<FightSoFar>>,
) {
    // Most frames bring nothing: no Health is read for them.
    if events.is_empty() && rebuilds.is_empty() && lifts.is_empty() {
        return;
    }
    let health: Vec<u8> =
        delve.as_ref().map(|d| d.game().heroes.iter().map(|h| h.health).collect()).unwrap_or_default();
    // A new game or a load: what was seen of a fight is not this one's.
    if rebuilds.read().count() > 0 {
        *end = FightEnd::default();
        if let Some(tally) = so_far.as_mut().and_then(|s| s.0.take()) {
            end.tally = Some(tally);
        }
    }
    if lifts.read().count() > 0 {
        end.taken_back(&health, delve.as_ref().is_some_and(|d| d.game().combat().is_some()));
    }
    for RulesEvent(event) in events.read() {
        end.hear(event, &health);
    }
}

/// Publishes what the rules said since the last frame.
fn publish(
    mut news: ResMut<EventFeed>,
    mut events: MessageWriter<RulesEvent>,
    mut rebuild: MessageWriter<RebuildBoard>,
    mut lifted: MessageWriter<TakenBack>,
) {
    if news.rebuild {
        news.rebuild = false;
        rebuild.write(RebuildBoard);
    }
    if news.taken_back {
        news.taken_back = false;
        lifted.write(TakenBack);
    }
    if !news.events.is_empty() {
        events.write_batch(std::mem::take(&mut news.events).into_iter().map(RulesEvent));
    }
}

/// Sends every event to its reaction.
fn dispatch(
    mut events: MessageReader<RulesEvent>,
    mut rebuilds: MessageReader<RebuildBoard>,
    mut lifts: MessageReader<TakenBack>,
    mut news: ResMut<BoardNews>,
    mut cards: ResMut<CardNews>,
) {
    let lifted = lifts.read().count() > 0;
    // Undoing may unflip tokens and relight areas too.
    let mut next = BoardNews { rebuild: rebuilds.read().count() > 0, lifted, tokens: lifted, ..default() };
    let mut drawn = Vec::new();
    for RulesEvent(event) in events.read() {
        let kind = reaction(event);
        if let Event::CardDrawn { name } = event {
            drawn.push(name.clone());
        }
        match kind {
            Reaction::NewMap => next.rebuild = true,
            Reaction::TileLands => {
                if let Event::TilePlaced { placement, .. } = event {
                    next.landed.push(placement.cell);
                }
                // Reachability of the tiles around may change.
                next.tokens = true;
            }
            Reaction::Encounter | Reaction::CombatOver => next.tokens = true,
            Reaction::TileInHand
            | Reaction::Health
            | Reaction::Round
            | Reaction::Cards
            | Reaction::Party
            | Reaction::Log
            | Reaction::GameOver => {}
        }
        match next.counts.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => next.counts.push((kind, 1)),
        }
    }
    // Written only when something happened, so an idle frame changes nothing.
    if !next.is_empty() || !next.counts.is_empty() || !news.is_empty() || !news.counts.is_empty() {
        *news = next;
    }
    if !drawn.is_empty() || !cards.drawn.is_empty() {
        cards.drawn = drawn;
    }
}

#[cfg(test)]
mod tests {

    /// A tried game: "Last change −7 Health" stayed on Sil's mat after Level
    /// Up healed her to full, into the next Ecology and a replay's first move.
    #[test]
    fn a_health_change_is_told_only_while_the_health_it_left_stands() {
        let at = (1, 5);
        let news = HealthNews { heroes: vec![(0, -7, 9), (1, 3, 12)], at };
        assert_eq!(news.change_of(0, 9, at), -7);
        assert_eq!(news.change_of(1, 12, at), 3);
        assert_eq!(news.change_of(0, 16, at), 0, "healed to full with no Health event");
        assert_eq!(news.change_of(0, 9, (1, 6)), 0, "a move later, with no wound, it is no news");
        assert_eq!(news.change_of(2, 20, at), 0, "no change for this Hero");
    }

    use super::*;

    /// Issue 55: the end of a fight tells the XP gained and what it cost
    /// each Hero: damage less healing since the fight began, not the Health
    /// after a Level Up that healed every Hero to full.
    #[test]
    fn a_fights_end_tells_its_cost_and_its_xp() {
        let mut end = FightEnd::default();
        let health = [20, 14];
        end.hear(&Event::CombatStarted { foes: vec!["Beetle".into()] }, &health);
        end.hear(&Event::HeroDamaged { hero: 1, amount: 7 }, &health);
        end.hear(&Event::HeroHealed { hero: 1, amount: 2 }, &health);
        end.hear(&Event::HeroDamaged { hero: 0, amount: 3 }, &health);
        end.hear(&Event::CombatWon, &health);
        end.hear(&Event::XpGained { name: "Beetle".into(), xp: 3 }, &health);
        end.hear(&Event::LevelUp { level: 2 }, &[20, 14]);
        let m = end.moment.clone().expect("told");
        assert_eq!(m.fell, None);
        assert_eq!(m.cost, Some(vec![3, 5]));
        assert_eq!(m.xp, vec![("Beetle".to_owned(), 3)]);
        // Taken back into the fight: the end is told no more, the cost is
        // counted from the Health at the start.
        end.taken_back(&[20, 9], true);
        assert_eq!(end.moment, None);
        end.hear(&Event::CombatWon, &[20, 9]);
        assert_eq!(end.moment.as_ref().and_then(|m| m.cost.clone()), Some(vec![0, 5]));
        // A fight whose start this table never saw has no cost to tell.
        let mut loaded = FightEnd::default();
        loaded.hear(&Event::HeroDamaged { hero: 0, amount: 4 }, &health);
        loaded.hear(&Event::CombatWon, &health);
        assert_eq!(loaded.moment.map(|m| m.cost), Some(None));
    }

    /// `reaction` matches every event kind without `_`, so a new kind does
    /// not build until its reaction is decided; here, that the board's are right.
    #[test]
    fn the_board_reacts_to_its_events() {
        assert_eq!(reaction(&Event::EcologyStarted { ecology: depths_rules::Ecology::Ruins }), Reaction::NewMap);
        let element = depths_rules::map::ElementRef { cell: (0, 0), area: 0, element: 0 };
        assert_eq!(reaction(&Event::ElementEncountered { element }), Reaction::Encounter);
        assert_eq!(reaction(&Event::HeroDamaged { hero: 0, amount: 1 }), Reaction::Health);
        assert_eq!(reaction(&Event::Note { text: "x".into() }), Reaction::Log);
    }
}
