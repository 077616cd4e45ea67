//! A headless online table, to try the connection by hand and to measure a
//! waiting table's CPU use:
//!
//! ```text
//! online_table host [PORT] [HZ]        # prints `invite: INVITE`, waits for one player, starts a two-Hero game, then idles
//! online_table join INVITE NAME [HZ]   # INVITE as printed (quote it if it has a space)
//! ```
//!
//! HZ is how often the app updates (a window's frame rate; default 60).

use std::{net::SocketAddr, time::Duration};

use bevy::{app::ScheduleRunnerPlugin, log::LogPlugin, prelude::*};
use depths_net::{
    ClientPlugin, HostPlugin, HostedGame, Invite, JoinedGame,
    host::{self, StartTable},
    transport::lan_address,
};
use depths_rules::{Content, Game, GameOptions};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: online_table host [PORT] [HZ] | online_table join INVITE NAME [HZ]";
    let hz = |i: usize| -> Result<f64, String> {
        args.get(i).map_or(Ok(60.0), |s| s.parse::<f64>().map_err(|e| format!("HZ {s:?}: {e}")))
    };
    let mut app = App::new();
    let frame = |hz: f64| ScheduleRunnerPlugin::run_loop(Duration::from_secs_f64(1.0 / hz));
    match args.first().map(String::as_str) {
        Some("host") => {
            let port: u16 = args.get(1).map_or(Ok(5000), |s| s.parse()).map_err(|e| format!("PORT: {e}"))?;
            app.add_plugins((MinimalPlugins.set(frame(hz(2)?)), LogPlugin::default(), HostPlugin));
            let mut public = vec![SocketAddr::from(([127, 0, 0, 1], port))];
            public.extend(lan_address().map(|ip| SocketAddr::new(ip, port)));
            let bound = host::open(app.world_mut(), SocketAddr::from(([0, 0, 0, 0], port)), &public, "Host")
                .map_err(|e| e.to_string())?;
            println!("hosting on {bound}; players dial one of {public:?}");
            let invite = app.world().resource::<HostedGame>().invite.as_ref().map(Invite::text).unwrap_or_default();
            println!("invite: {invite}");
            app.add_systems(Update, start_when_two_seated);
        }
        Some("join") => {
            let invite = Invite::parse(args.get(1).ok_or(usage)?).map_err(|e| format!("INVITE: {e}"))?;
            let name = args.get(2).ok_or(usage)?.clone();
            app.add_plugins((MinimalPlugins.set(frame(hz(3)?)), LogPlugin::default(), ClientPlugin));
            depths_net::client::join(app.world_mut(), &invite, &name, None).map_err(|e| e.to_string())?;
            app.add_systems(Update, report_link);
        }
        _ => return Err(usage.into()),
    }
    app.run();
    Ok(())
}

fn start_when_two_seated(host: Res<HostedGame>, mut starts: MessageWriter<StartTable>, mut done: Local<bool>) {
    if *done || host.lobby.online.iter().filter(|o| **o).count() < 2 {
        return;
    }
    *done = true;
    let content = Content::builtin().expect("built-in content");
    let game = Game::new(GameOptions::standard(&["bren", "sil"], 1), content).expect("a new game");
    info!("{} joined: starting", host.lobby.name(1));
    starts.write(StartTable { game, owners: vec![0, 1], turn: Default::default(), companions: Vec::new() });
}

fn report_link(remote: Res<JoinedGame>, mut last: Local<String>) {
    let now = format!("{:?} seat {:?} game {}", remote.link, remote.seat, remote.shared.is_some());
    if *last != now {
        info!("{now}");
        *last = now;
    }
}
