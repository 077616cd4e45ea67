//! A headless online table, to try the connection by hand, to measure a
//! waiting table's CPU use, and for scripts (`tools/online/nat-lab.sh`):
//!
//! ```text
//! online_table relay ADDR [--certificate FILE]
//!                                          # runs a relay on ADDR; prints `relay: URL`; with FILE,
//!                                          # also address discovery on port 7842, its certificate
//!                                          # written to FILE
//! online_table host NAME [OPTIONS]         # prints `invite: INVITE`; starts once PLAYERS sat down
//! online_table join INVITE NAME [OPTIONS]  # prints `seated: seat N`
//!
//! OPTIONS: --relay URL | --no-relay   the relays (default: the public ones)
//!          --relay-ca FILE             trust this relay certificate (a relay's FILE above)
//!          --players N                 players besides the host (host; default 1)
//!          --play                      the careful bot plays this seat to the game's end,
//!                                      then prints `game over: …` and a line of figures
//!          --key FILE                  this machine's key (default: a new one each run)
//!          --hz HZ                     updates a second (a window's frame rate; default 60)
//!          --doctored                  (host) sends a table whose turn names a player not at
//!                                      it, as a doctored host would: to see a player refuse it
//! ```

#[path = "../tests/common/relay.rs"]
mod relay;

use std::{
    net::SocketAddr,
    time::{Duration, Instant},
};

use bevy::{app::ScheduleRunnerPlugin, log::LogPlugin, prelude::*};
use depths_net::{
    ClientPlugin, HostPlugin, HostedGame, Invite, JoinedGame, Relays, SendAction, SharedGame,
    client::{Link, RemoteApplied},
    host::{self, Applied, HostAct, StartTable},
    transport::machine_key,
};
use depths_rules::{Content, Game, GameOptions};
use depths_seats::seats::{heroes_to_act, player_may_take};
use depths_sim::{Bot, HeuristicBot};
use iroh::SecretKey;

const USAGE: &str = "usage: online_table relay ADDR [--certificate FILE] | host NAME [OPTIONS] | join INVITE NAME \
                     [OPTIONS] (OPTIONS: --relay URL | --no-relay, --relay-ca FILE, --players N, --play, --key FILE, \
                     --hz HZ, --doctored)";

/// What this process does at the table.
#[derive(Resource)]
struct Script {
    seat: Option<usize>,
    players: usize,
    play: bool,
    doctored: bool,
    started: Instant,
    seated_after: Option<Duration>,
    /// The step this seat last moved at, when, and every move's wait for its step.
    moved: Option<(u64, Instant)>,
    latencies: Vec<Duration>,
    over: bool,
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().position(|a| a == name);
    let value = |name: &str| flag(name).map(|i| args.get(i + 1).cloned().ok_or(format!("{name} needs a value")));
    let relays = match (value("--relay").transpose()?, flag("--no-relay")) {
        (Some(url), _) => Relays::parse(&url)?,
        (None, Some(_)) => Relays::Off,
        (None, None) => Relays::Public,
    };
    if let Some(path) = value("--relay-ca").transpose()? {
        depths_net::transport::trust_relay_certificate(std::path::Path::new(&path))?;
    }
    let hz: f64 = value("--hz").transpose()?.map_or(Ok(60.0), |s| s.parse().map_err(|e| format!("--hz {s:?}: {e}")))?;
    let key = match value("--key").transpose()? {
        Some(path) => machine_key(std::path::Path::new(&path))?,
        None => SecretKey::generate(),
    };
    let players: usize =
        value("--players").transpose()?.map_or(Ok(1), |s| s.parse().map_err(|e| format!("--players: {e}")))?;
    let mut script = Script {
        seat: None,
        players,
        play: flag("--play").is_some(),
        doctored: flag("--doctored").is_some(),
        started: Instant::now(),
        seated_after: None,
        moved: None,
        latencies: Vec::new(),
        over: false,
    };
    let mut app = App::new();
    let frame = ScheduleRunnerPlugin::run_loop(Duration::from_secs_f64(1.0 / hz));
    match args.first().map(String::as_str) {
        Some("relay") => {
            let addr: SocketAddr = args.get(1).ok_or(USAGE)?.parse().map_err(|e| format!("ADDR: {e}"))?;
            let certificate = value("--certificate").transpose()?.map(std::path::PathBuf::from);
            println!("relay: {}", relay::spawn_relay(addr, certificate.as_deref())?);
            loop {
                std::thread::park();
            }
        }
        Some("host") => {
            let name = args.get(1).ok_or(USAGE)?;
            app.add_plugins((MinimalPlugins.set(frame), LogPlugin::default(), HostPlugin));
            let invite = host::open(app.world_mut(), key, &relays, name).map_err(|e| e.to_string())?;
            println!("invite: {}", invite.text());
            script.seat = Some(0);
            app.add_systems(Update, (start_when_seated, play_host, report_host).chain());
        }
        Some("join") => {
            let invite = Invite::parse(args.get(1).ok_or(USAGE)?).map_err(|e| format!("INVITE: {e}"))?;
            let name = args.get(2).ok_or(USAGE)?.clone();
            app.add_plugins((MinimalPlugins.set(frame), LogPlugin::default(), ClientPlugin));
            depths_net::client::join(app.world_mut(), &invite, &name, key, &relays).map_err(|e| e.to_string())?;
            app.add_systems(Update, (report_link, play_player).chain());
        }
        _ => return Err(USAGE.into()),
    }
    app.insert_resource(script);
    app.run();
    Ok(())
}

fn start_when_seated(host: Res<HostedGame>, mut starts: MessageWriter<StartTable>, mut script: ResMut<Script>) {
    if host.shared.is_some() || host.lobby.online.iter().filter(|o| **o).count() < script.players + 1 {
        return;
    }
    let heroes = ["bren", "sil", "ava"];
    let seats = script.players + 1;
    let content = Content::builtin().expect("built-in content");
    let game = Game::new(GameOptions::standard(&heroes[..seats], 11), content).expect("a new game");
    info!("{} players at the table: starting", seats);
    script.started = Instant::now();
    let turn = depths_seats::seats::Turn { pass_to: script.doctored.then_some(9), ..Default::default() };
    starts.write(StartTable { game, owners: (0..seats).collect(), turn, companions: Vec::new() });
}

/// The careful bot's move at this table if it is `seat`'s: the Heroes that
/// may act now, in turn, then the table's one move.
fn bot_move(t: &SharedGame, seat: usize) -> Option<depths_rules::Action> {
    let g = &t.game;
    if g.is_over() {
        return None;
    }
    let own = heroes_to_act(g).into_iter().filter(|&h| t.players.owner(h) == seat);
    for h in own {
        if let Some(a) = HeuristicBot.choose_for(g, h)
            && player_may_take(g, &t.players, &t.turn, seat, &a).is_ok()
        {
            return Some(a);
        }
    }
    let a = HeuristicBot.choose(g);
    player_may_take(g, &t.players, &t.turn, seat, &a).is_ok().then_some(a)
}

/// Moves once per step of the table (never twice for one step).
fn next_move(shared: Option<&SharedGame>, seat: usize, script: &mut Script) -> Option<depths_rules::Action> {
    let t = shared?;
    if !script.play || script.moved.is_some_and(|(seq, _)| seq == t.seq) {
        return None;
    }
    let action = bot_move(t, seat)?;
    script.moved = Some((t.seq, Instant::now()));
    Some(action)
}

/// A step came: if this seat moved for the step before it, how long it took.
fn stepped(script: &mut Script, seq: u64) {
    if let Some((at, when)) = script.moved
        && seq == at + 1
    {
        script.latencies.push(when.elapsed());
    }
}

fn play_host(host: Res<HostedGame>, mut acts: MessageWriter<HostAct>, mut script: ResMut<Script>) {
    if let Some(action) = next_move(host.shared.as_ref(), 0, &mut script) {
        acts.write(HostAct(action));
    }
}

fn report_host(host: Res<HostedGame>, mut applied: MessageReader<Applied>, mut script: ResMut<Script>) {
    for a in applied.read() {
        stepped(&mut script, a.seq);
    }
    if let Some(t) = &host.shared
        && t.game.is_over()
        && !script.over
    {
        script.over = true;
        let stats = host.stats;
        println!("game over: {:?} after {} steps", t.game.phase(), t.seq);
        println!(
            "figures: played {:.1} s; applied {}; host message bytes in {} out {}",
            script.started.elapsed().as_secs_f64(),
            stats.applied,
            stats.bytes_in,
            stats.bytes_out
        );
    }
}

fn play_player(
    remote: Res<JoinedGame>,
    link: Option<Res<depths_net::link::PlayerLink>>,
    mut sends: MessageWriter<SendAction>,
    mut applied: MessageReader<RemoteApplied>,
    mut script: ResMut<Script>,
) {
    for a in applied.read() {
        stepped(&mut script, a.seq);
    }
    let Some(seat) = remote.seat else { return };
    if remote.link != Link::Seated {
        return;
    }
    if let Some(action) = next_move(remote.shared.as_ref(), seat, &mut script) {
        sends.write(SendAction(action));
    }
    if let Some(t) = &remote.shared
        && t.game.is_over()
        && !script.over
    {
        script.over = true;
        let n = script.latencies.len().max(1) as f64;
        let mean = script.latencies.iter().map(Duration::as_secs_f64).sum::<f64>() / n * 1000.0;
        let max = script.latencies.iter().max().copied().unwrap_or_default().as_secs_f64() * 1000.0;
        println!("game over: {:?} after {} steps", t.game.phase(), t.seq);
        let wire = link.and_then(|l| l.wire()).unwrap_or_default();
        println!(
            "figures: joined in {:.0} ms; {} own moves, each back applied in {mean:.1} ms on average, {max:.1} ms at \
             most; message bytes in {} out {}; on the network {} B in, {} B out, {:.0} B per step, now {}",
            script.seated_after.unwrap_or_default().as_secs_f64() * 1000.0,
            script.latencies.len(),
            remote.stats.bytes_in,
            remote.stats.bytes_out,
            wire.received,
            wire.sent,
            (wire.received + wire.sent) as f64 / t.seq.max(1) as f64,
            if wire.relayed { "relayed" } else { "direct" }
        );
    }
}

fn report_link(remote: Res<JoinedGame>, mut script: ResMut<Script>, mut last: Local<String>) {
    let now = format!("{:?} seat {:?} game {}", remote.link, remote.seat, remote.shared.is_some());
    if *last != now {
        info!("{now}");
        *last = now;
        if let (Some(seat), Link::Seated, None) = (remote.seat, &remote.link, script.seat) {
            script.seat = Some(seat);
            script.seated_after = Some(script.started.elapsed());
            println!("seated: seat {seat}");
        }
        if let Link::Lost(why) = &remote.link {
            println!("lost: {why}");
        }
    }
}
