//! A host and players in one process, each its own headless Bevy app with
//! its own key, talking directly over this machine's addresses (no relay,
//! never the internet; each on a free port of its own, so tests run in
//! parallel).

#![allow(dead_code)]

use std::time::{Duration, Instant};

use bevy::prelude::*;
use depths_net::{
    ClientPlugin, HostPlugin, HostedGame, Invite, JoinedGame, Relays, SendAction, SharedGame,
    client::{self, Link},
    host::{self, CompanionAct, HostAct, SeatCompanion, StartTable},
};
use depths_rules::{Action, Content, Game, GameOptions};
use depths_seats::seats::{heroes_to_act, player_may_take};
use depths_sim::{Bot, HeuristicBot};
use iroh::SecretKey;

pub fn host_app(name: &str) -> (App, Invite) {
    host_app_with(name, &Relays::Off)
}

/// A host reached through `relays`.
pub fn host_app_with(name: &str, relays: &Relays) -> (App, Invite) {
    host_app_keyed(name, SecretKey::generate(), relays)
}

/// A host with the machine key `key` (the same machine again after a restart).
pub fn host_app_keyed(name: &str, key: SecretKey, relays: &Relays) -> (App, Invite) {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, HostPlugin));
    let invite = host::open(app.world_mut(), key, relays, name).expect("host");
    assert_eq!(app.world().resource::<HostedGame>().invite.as_ref(), Some(&invite));
    (app, invite)
}

/// A player with the machine key `key`, dialling `invite`.
pub fn player_app_with(invite: &Invite, name: &str, key: SecretKey) -> App {
    player_app_relayed(invite, name, key, &Relays::Off)
}

/// A player with the machine key `key`, dialling `invite` through `relays`.
pub fn player_app_relayed(invite: &Invite, name: &str, key: SecretKey, relays: &Relays) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, ClientPlugin));
    client::join(app.world_mut(), invite, name, key, relays).expect("dial");
    app
}

/// A player with a new machine's key.
pub fn player_app(invite: &Invite, name: &str) -> App {
    player_app_with(invite, name, SecretKey::generate())
}

/// A host (seat 0) and its players, updated together.
pub struct Net {
    pub host: App,
    pub invite: Invite,
    pub players: Vec<App>,
    /// Each player's machine key.
    pub keys: Vec<SecretKey>,
    /// The least time a round of updates takes (a real app's frame), if any;
    /// the tests run flat out.
    pub pace: Option<Duration>,
}

impl Net {
    /// A host called `names[0]` and one seated player for each other name.
    pub fn seated(names: &[&str]) -> Net {
        let (host, invite) = host_app(names[0]);
        let mut net = Net { host, invite, players: Vec::new(), keys: Vec::new(), pace: None };
        for (i, name) in names.iter().enumerate().skip(1) {
            let key = SecretKey::generate();
            net.players.push(player_app_with(&net.invite, name, key.clone()));
            net.keys.push(key);
            assert!(
                net.pump(|n| n.remote(i - 1).seat == Some(i) && n.hosted().lobby.online.len() == i + 1),
                "{name} gets seat {i}"
            );
        }
        net
    }

    /// Updates every app until `done` holds; false after 10 s (generous for
    /// CI's two busy cores; loopback answers in microseconds).
    pub fn pump(&mut self, done: impl FnMut(&Net) -> bool) -> bool {
        self.pump_for(Duration::from_secs(10), done)
    }

    /// [`Net::pump`], giving up after `limit`.
    pub fn pump_for(&mut self, limit: Duration, mut done: impl FnMut(&Net) -> bool) -> bool {
        let deadline = Instant::now() + limit;
        loop {
            if done(self) {
                return true;
            }
            if Instant::now() > deadline {
                return false;
            }
            let round = Instant::now();
            self.host.update();
            for p in &mut self.players {
                p.update();
            }
            // Let the engine's threads work between rounds.
            let least = self.pace.unwrap_or(Duration::from_micros(200));
            std::thread::sleep(least.saturating_sub(round.elapsed()));
        }
    }

    pub fn hosted(&self) -> &HostedGame {
        self.host.world().resource::<HostedGame>()
    }

    pub fn shared(&self) -> &SharedGame {
        self.hosted().shared.as_ref().expect("the game has started")
    }

    pub fn remote(&self, player: usize) -> &JoinedGame {
        self.players[player].world().resource::<JoinedGame>()
    }

    pub fn remote_mut(&mut self, player: usize) -> Mut<'_, JoinedGame> {
        self.players[player].world_mut().resource_mut::<JoinedGame>()
    }

    /// Starts `heroes`, Hero i played by seat `owners[i]`, and waits for every
    /// player to hold the same table.
    pub fn start(&mut self, heroes: &[&str], owners: &[usize], seed: u64) {
        self.start_with(heroes, owners, &[], seed);
    }

    /// [`Net::start`], with a Companion at each Hero `companions` marks.
    pub fn start_with(&mut self, heroes: &[&str], owners: &[usize], companions: &[bool], seed: u64) {
        let game = Game::new(GameOptions::standard(heroes, seed), Content::builtin().unwrap()).unwrap();
        self.host.world_mut().write_message(StartTable {
            game,
            owners: owners.to_vec(),
            turn: Default::default(),
            companions: companions.to_vec(),
        });
        assert!(self.pump(|n| n.all_in_step()), "every player gets the starting table");
    }

    /// The host seats a Companion at Hero `hero` (`on`) or gives it back, and
    /// every player's copy follows; returns whether a step was taken.
    pub fn seat_companion(&mut self, hero: u8, on: bool) -> bool {
        let before = self.shared().seq;
        self.host.world_mut().write_message(SeatCompanion { hero, on });
        self.host.update();
        let stepped = self.shared().seq == before + 1;
        assert!(self.pump(|n| n.all_in_step()), "every copy takes Hero {hero}'s seat change");
        stepped
    }

    /// Player `player` comes back as `name` on a new connection from the
    /// same machine (its key): a crash, a drop, a new network.
    pub fn rejoin(&mut self, player: usize, name: &str) {
        self.players[player] = player_app_with(&self.invite, name, self.keys[player].clone());
    }

    /// Every seated player's copy is the host's: same game, turn and count.
    pub fn all_in_step(&self) -> bool {
        let Some(truth) = self.hosted().shared.as_ref() else { return false };
        (0..self.players.len()).all(|p| {
            let r = self.remote(p);
            matches!(r.link, Link::Lost(_)) || (r.in_sync() && r.shared.as_ref() == Some(truth))
        })
    }

    /// Seat `seat` asks for `action`: the host player directly, a remote one over the network.
    pub fn act(&mut self, seat: usize, action: Action) {
        if seat == 0 {
            self.host.world_mut().write_message(HostAct(action));
        } else {
            self.players[seat - 1].world_mut().write_message(SendAction(action));
        }
    }
}

/// The careful bot's next move at this table, and the seat it belongs to.
/// When several seats' Heroes may act in a Combat step, the seats take turns
/// (by `round`), so every player sends moves; each seat only ever moves for
/// its own Heroes or on its own turn.
pub fn next_move(t: &SharedGame, round: usize) -> (usize, Action) {
    player_move(t, round).unwrap_or_else(|| panic!("no seat may take the bot's move in {:?}", t.game.phase()))
}

/// [`next_move`], or `None` when the bot's move is no seat's (a Companion's).
pub fn player_move(t: &SharedGame, round: usize) -> Option<(usize, Action)> {
    let g = &t.game;
    let heroes = heroes_to_act(g);
    for k in 0..heroes.len() {
        let h = heroes[(k + round) % heroes.len()];
        let seat = t.players.owner(h);
        if let Some(a) = HeuristicBot.choose_for(g, h)
            && player_may_take(g, &t.players, &t.turn, seat, &a).is_ok()
        {
            return Some((seat, a));
        }
    }
    let a = HeuristicBot.choose(g);
    (0..t.players.count()).find(|&s| player_may_take(g, &t.players, &t.turn, s, &a).is_ok()).map(|seat| (seat, a))
}

/// The move a Companion makes now, if one may move: the one choice the
/// client's Companions make (`seats::companion_choice`).
pub fn companion_move(t: &SharedGame) -> Option<Action> {
    depths_seats::seats::companion_choice(&t.game, &t.players, &t.turn)
}

/// The next move at a table with Companions: a Companion's (`None`) when
/// one may move, else the careful bot's for the seat it belongs to.
pub fn next_step(t: &SharedGame, round: usize) -> (Option<usize>, Action) {
    // Players and Companions take turns when both may act in a Combat step.
    match (companion_move(t), player_move(t, round)) {
        (Some(c), Some((seat, p))) => {
            if round % 2 == 1 {
                (Some(seat), p)
            } else {
                (None, c)
            }
        }
        (Some(c), None) => (None, c),
        (None, Some((seat, p))) => (Some(seat), p),
        (None, None) => panic!("nobody may move in {:?}", t.game.phase()),
    }
}

/// Plays one step (a Companion's move through the host, or a seat's) and
/// waits until every player has applied it; asserts every copy equals the
/// host's. Returns who moved.
pub fn play_step(net: &mut Net, round: usize) -> Option<usize> {
    let before = net.shared().seq;
    let (by, action) = next_step(net.shared(), round);
    match by {
        None => {
            net.host.world_mut().write_message(CompanionAct(action.clone()));
        }
        Some(seat) => net.act(seat, action.clone()),
    }
    let ok = net.pump(|n| n.shared().seq > before && n.all_in_step());
    assert!(
        ok,
        "after {action:?} by {by:?} (step {}), every copy equals the host's; refused: {:?}",
        before + 1,
        (0..net.players.len()).map(|p| net.remote(p).refusal.clone()).collect::<Vec<_>>()
    );
    by
}

/// Plays one move by its seat and waits until every player has applied it;
/// asserts every copy equals the host's.
pub fn play_one(net: &mut Net, round: usize) {
    let before = net.shared().seq;
    let (seat, action) = next_move(net.shared(), round);
    net.act(seat, action.clone());
    let ok = net.pump(|n| n.shared().seq > before && n.all_in_step());
    assert!(
        ok,
        "after {action:?} by seat {seat} (action {}), every copy equals the host's; host refused: {:?}",
        before + 1,
        (0..net.players.len()).map(|p| net.remote(p).refusal.clone()).collect::<Vec<_>>()
    );
}

pub mod relay;
