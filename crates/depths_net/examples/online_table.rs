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
//!          --save FILE                 (host) writes the table and its seats' keys to FILE
//!                                      after every step, as the game's autosave does
//!          --resume FILE               (host) goes on with FILE's table: its players' seats
//!                                      wait for their keys; prints `resumed: …` once all are back
//!          --reconnect                 (join) after a lost connection, dials the same table
//!                                      again each second (the Reconnect button); prints
//!                                      `back: seat N` when seated again
//!
//! A player prints `quiet: …` when nothing has come from the host for a few
//! seconds (what its table shows), and `lost: …` when the connection ends.
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
                     --hz HZ, --doctored, --save FILE, --resume FILE, --reconnect)";

/// The host's table as `--save` writes it and `--resume` reads it: the
/// game, its seats and turn, and the key that sat at each seat.
#[derive(serde::Serialize, serde::Deserialize)]
struct SavedTable {
    game: String,
    players: depths_seats::seats::Players,
    turn: depths_seats::seats::Turn,
    keys: Vec<Option<String>>,
}

/// Where the host saves, and the table it resumes.
#[derive(Resource, Default)]
struct Saving {
    save: Option<std::path::PathBuf>,
    resume: Option<SavedTable>,
}

/// `--reconnect`: when the connection was lost and dialled again.
#[derive(Resource)]
struct Rejoin {
    lost_at: Option<Instant>,
    dialled: Option<Instant>,
}

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
    let saving = Saving {
        save: value("--save").transpose()?.map(std::path::PathBuf::from),
        resume: match value("--resume").transpose()? {
            Some(path) => {
                let text = std::fs::read_to_string(&path).map_err(|e| format!("--resume {path}: {e}"))?;
                Some(serde_json::from_str(&text).map_err(|e| format!("--resume {path}: {e}"))?)
            }
            None => None,
        },
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
            if let Some(saved) = &saving.resume {
                // The saved players' seats wait for their keys.
                let mut returning = Vec::new();
                for (p, key) in saved.keys.iter().enumerate().skip(1) {
                    let key = key.as_deref().map(str::parse).transpose().map_err(|e| format!("--resume: {e}"))?;
                    returning.extend(key.map(|k| (saved.players.name(p).to_owned(), k)));
                }
                app.world_mut().write_message(host::Returning(returning));
            }
            app.insert_resource(saving);
            app.add_systems(Update, (start_when_seated, play_host, report_host, save_host).chain());
        }
        Some("join") => {
            let invite = Invite::parse(args.get(1).ok_or(USAGE)?).map_err(|e| format!("INVITE: {e}"))?;
            let name = args.get(2).ok_or(USAGE)?.clone();
            app.add_plugins((MinimalPlugins.set(frame), LogPlugin::default(), ClientPlugin));
            depths_net::client::join(app.world_mut(), &invite, &name, key, &relays).map_err(|e| e.to_string())?;
            app.add_systems(Update, (report_link, play_player).chain());
            if flag("--reconnect").is_some() {
                app.insert_resource(Rejoin { lost_at: None, dialled: None });
                app.add_systems(Update, reconnect_when_lost.after(report_link));
            }
        }
        _ => return Err(USAGE.into()),
    }
    app.insert_resource(script);
    app.run();
    Ok(())
}

fn start_when_seated(
    host: Res<HostedGame>,
    mut starts: MessageWriter<StartTable>,
    mut script: ResMut<Script>,
    saving: Res<Saving>,
) {
    if host.shared.is_some() || host.lobby.online.iter().filter(|o| **o).count() < script.players + 1 {
        return;
    }
    if let Some(saved) = &saving.resume {
        // Every saved player back at their seat: the saved table goes on.
        let Ok((players, turn)) = depths_seats::seats::reseat(&saved.players, &saved.turn, &host.lobby.names) else {
            return;
        };
        let Ok(game) = Game::load_json(&saved.game) else { return };
        println!("resumed: {} players back, at {} s", host.lobby.names.len(), script.started.elapsed().as_secs_f64());
        script.started = Instant::now();
        let (owners, companions) = (players.owners, players.companions);
        starts.write(StartTable { game, owners, turn, companions });
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

/// `--save`: the table and its seats' keys after every step (written whole,
/// then renamed: a host killed mid-write leaves the last one).
fn save_host(host: Res<HostedGame>, saving: Res<Saving>, mut last: Local<Option<u64>>) {
    let (Some(path), Some(t)) = (&saving.save, &host.shared) else { return };
    if *last == Some(t.seq) {
        return;
    }
    *last = Some(t.seq);
    let keys = host.seat_key_texts();
    let saved = SavedTable { game: t.game.save_json(), players: t.players.clone(), turn: t.turn.clone(), keys };
    let text = serde_json::to_string(&saved).expect("a table serializes");
    let part = path.with_extension("part");
    if let Err(e) = std::fs::write(&part, text).and_then(|()| std::fs::rename(&part, path)) {
        warn!("could not save {}: {e}", path.display());
    }
}

/// `--reconnect`: the Reconnect button, pressed each second while lost.
fn reconnect_when_lost(
    mut commands: Commands,
    remote: Res<JoinedGame>,
    mut rejoin: ResMut<Rejoin>,
    mut script: ResMut<Script>,
) {
    match &remote.link {
        Link::Lost(_) => {
            let now = Instant::now();
            rejoin.lost_at.get_or_insert(now);
            if rejoin.dialled.is_none_or(|d| now.duration_since(d) > Duration::from_secs(1)) {
                rejoin.dialled = Some(now);
                commands.queue(|world: &mut World| {
                    if let Err(e) = depths_net::client::reconnect(world) {
                        warn!("reconnect: {e}");
                    }
                });
            }
        }
        Link::Seated => {
            if let Some(lost) = rejoin.lost_at.take() {
                let seat = remote.seat.unwrap_or_default();
                println!("back: seat {seat}, {} ms after the connection was lost", lost.elapsed().as_millis());
                // A resumed table counts its steps from 0 again.
                script.moved = None;
            }
            rejoin.dialled = None;
        }
        _ => {}
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

fn report_link(
    remote: Res<JoinedGame>,
    mut script: ResMut<Script>,
    mut last: Local<String>,
    mut was_quiet: Local<bool>,
) {
    // The host gone quiet: said once, when the table first shows it.
    if remote.quiet.is_some() != *was_quiet {
        *was_quiet = remote.quiet.is_some();
        if let Some(secs) = remote.quiet {
            println!("quiet: nothing from the host for {secs} s");
        }
    }
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
