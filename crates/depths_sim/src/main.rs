//! `depths-sim`: play many seeded games with a bot, print the census of the
//! content, replay one game, run the benchmarks, forecast a situation, or
//! analyse a whole game move by move.

use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand, ValueEnum};
use depths_rules::{Action, Content, Ecology, Game, GameOptions, Phase, Variants};
use depths_sim::forecast::{Forecaster, Kind};
use depths_sim::{Analyst, Bot, BotKind, HeuristicBot, PlanConfig, SearchConfig, bench, sim, thread_cpu_ns};

#[derive(Parser)]
#[command(name = "depths-sim", about = "Headless play, content census, benchmarks and forecasts for Forgotten Depths")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play many seeded games with a bot and sum up what happened.
    Play {
        #[command(flatten)]
        game: GameArgs,
        /// How many games (seeds SEED, SEED+1, …).
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// The first seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, value_enum, default_value_t = BotArg::Heuristic)]
        bot: BotArg,
        /// With --bot search: playouts (determinized worlds) per candidate
        /// action of a searched Combat decision.
        #[arg(long, default_value_t = SearchConfig::default().playouts)]
        search_playouts: u32,
        /// With --bot search: how much the Health kept at the end of a Combat
        /// counts against surviving it (0: only surviving counts).
        #[arg(long, default_value_t = SearchConfig::default().health_weight)]
        search_health_weight: f64,
        /// With --bot plan: playouts per candidate of a searched Exploring
        /// decision (Combat decisions: --search-playouts).
        #[arg(long, default_value_t = PlanConfig::default().playouts)]
        plan_playouts: u32,
        /// With --bot plan: how many placements of a tile are tried, the
        /// careful bot's best.
        #[arg(long, default_value_t = PlanConfig::default().placements)]
        plan_placements: usize,
        /// With --bot plan: the most actions an Exploring playout plays
        /// (it stops sooner when the Ecology is done).
        #[arg(long, default_value_t = PlanConfig::default().horizon)]
        plan_horizon: u32,
        /// With --bot plan: how much the Health kept at the end of an
        /// Exploring playout counts against surviving it.
        #[arg(long, default_value_t = PlanConfig::default().health_weight)]
        plan_health_weight: f64,
        /// With --bot plan: what finishing the Ecology within the playout adds.
        #[arg(long, default_value_t = PlanConfig::default().progress)]
        plan_progress: f64,
        /// With --bot plan: what the XP left in the pool adds to a playout's
        /// score (for enough to buy every Hero an Ability).
        #[arg(long, default_value_t = PlanConfig::default().xp_weight)]
        plan_xp_weight: f64,
        /// With --bot plan: how many standard errors another candidate must
        /// gain over the careful bot's choice to replace it.
        #[arg(long, default_value_t = PlanConfig::default().margin_z)]
        plan_margin_z: f64,
        /// With --bot plan: also try healing with all the XP the pool pays for.
        #[arg(long)]
        plan_heal_all: bool,
        /// With --bot plan: more batches of worlds (--search-playouts each)
        /// for the Combat candidates still close to the best; 0: the search
        /// bot's Combat search.
        #[arg(long, default_value_t = PlanConfig::default().race_rounds)]
        plan_race_rounds: u32,
        /// With --bot plan: a Combat candidate races on while the best one's
        /// gain over it is below this many standard errors.
        #[arg(long, default_value_t = PlanConfig::default().race_z)]
        plan_race_z: f64,
        /// With --bot plan: at most this many Combat candidates race on.
        #[arg(long, default_value_t = PlanConfig::default().race_keep)]
        plan_race_keep: usize,
        /// Also write one line of JSON per game to this file (seed, won, loss,
        /// and with --bot search what searching cost).
        #[arg(long, value_name = "PATH")]
        per_game: Option<std::path::PathBuf>,
        /// Worker threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Print that one game's action log instead.
        #[arg(long, value_name = "SEED")]
        replay: Option<u64>,
        /// The summary as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Counts read from the content, and where they differ from the rulebook.
    Census {
        #[arg(long)]
        json: bool,
    },
    /// Throughput and worst-case rule calls.
    Bench,
    /// Forecast a situation by playouts on determinized games: the figures,
    /// their 95% ±, the playouts per second and the time to a stable figure.
    Forecast {
        #[command(flatten)]
        game: GameArgs,
        /// The game's seed (its real hidden orders, which the forecast never reads).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Which situation of that game, reached by the careful bot: the new
        /// game (chance to win the game), the first tile in hand after
        /// --tiles placed (chance a later tile of the Ecology finds no place),
        /// or just before the first Encounter that starts a Combat (chance to
        /// win the fight, damage to each Hero).
        #[arg(long, value_enum, default_value_t = At::Start)]
        at: At,
        /// With --at tile: tiles placed before the one in hand.
        #[arg(long, default_value_t = 5)]
        tiles: u32,
        /// Playouts to run.
        #[arg(long, default_value_t = 1000)]
        playouts: u64,
        /// The forecast's own seed (the playouts' deals).
        #[arg(long, default_value_t = 1)]
        forecast_seed: u64,
        /// The figure counts as stable once its 95% ± falls under this many
        /// percentage points.
        #[arg(long, default_value_t = 2.0)]
        stable_under: f64,
    },
    /// The analysis board of the careful bot's game of a seed: the chance to
    /// win the game after every move, as the players could know it, on one
    /// thread; its cost, its turning points, and a check of a few points
    /// against plain forecasts.
    Analyse {
        #[command(flatten)]
        game: GameArgs,
        /// The game's seed.
        #[arg(long, default_value_t = 84)]
        seed: u64,
        /// The analysis' own seed (the playouts' deals).
        #[arg(long, default_value_t = 1)]
        analysis_seed: u64,
        /// How many turning points to list.
        #[arg(long, default_value_t = 8)]
        turning: usize,
        /// How many points to check against a plain forecast to ± 2 points.
        #[arg(long, default_value_t = 3)]
        checks: usize,
        #[arg(long)]
        json: bool,
    },
}

/// The options of a new game.
#[derive(Args)]
struct GameArgs {
    /// Hero ids, comma-separated.
    #[arg(long, default_value = "bren,sil", value_delimiter = ',')]
    heroes: Vec<String>,
    /// The Ecology to start in: ruins, caverns, sub (or subterranean).
    #[arg(long, default_value = "ruins", value_parser = parse_ecology)]
    start: Ecology,
    /// Variants, comma-separated: random_campfire_healing no_level_up_heal
    /// locked_chests start_with_ability six_keys keys_each_ecology
    /// one_dead_end double_healing.
    #[arg(long, default_value = "", value_parser = parse_variants)]
    variant: Variants,
    /// Play alternate Heroes with their Primary class only.
    #[arg(long)]
    single_classed: bool,
}

impl GameArgs {
    fn options(&self) -> GameOptions {
        GameOptions {
            heroes: self.heroes.clone(),
            start: self.start,
            variants: self.variant,
            single_classed: self.single_classed,
            seed: 0,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum BotArg {
    /// The careful bot.
    Heuristic,
    Random,
    /// The careful bot with every Combat decision searched by determinized
    /// playouts to the end of the Combat (see --search-playouts).
    Search,
    /// The search bot with the Exploring searched too: where to place a tile
    /// and what to Encounter next, by playouts to the end of the Ecology (see
    /// --plan-playouts).
    Plan,
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum At {
    Start,
    Tile,
    Combat,
}

fn parse_ecology(name: &str) -> Result<Ecology, String> {
    match name {
        "ruins" => Ok(Ecology::Ruins),
        "caverns" => Ok(Ecology::Caverns),
        "sub" | "subterranean" => Ok(Ecology::Subterranean),
        other => Err(format!("unknown Ecology {other}")),
    }
}

pub fn parse_variants(list: &str) -> Result<Variants, String> {
    let mut v = Variants::default();
    for name in list.split(',').filter(|s| !s.is_empty()) {
        let flag = match name {
            "random_campfire_healing" => &mut v.random_campfire_healing,
            "no_level_up_heal" => &mut v.no_level_up_heal,
            "locked_chests" => &mut v.locked_chests,
            "start_with_ability" => &mut v.start_with_ability,
            "six_keys" => &mut v.six_keys,
            "keys_each_ecology" => &mut v.keys_each_ecology,
            "one_dead_end" => &mut v.one_dead_end,
            "double_healing" => &mut v.double_healing,
            other => return Err(format!("unknown variant {other}")),
        };
        *flag = true;
    }
    Ok(v)
}

fn main() {
    if let Err(e) = run(Cli::parse()) {
        eprintln!("depths-sim: {e}");
        std::process::exit(2);
    }
}

fn content() -> Result<Content, String> {
    Content::builtin().map_err(|e| format!("content: {e}"))
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Census { json } => {
            let c = content()?;
            let census = c.census();
            if json {
                println!("{census}");
            } else {
                println!("{}", serde_json::to_string_pretty(&census).unwrap_or_default());
                for p in c.count_problems() {
                    println!("differs from the rulebook: {p}");
                }
            }
            Ok(())
        }
        Command::Play {
            game,
            games,
            seed,
            bot,
            search_playouts,
            search_health_weight,
            plan_playouts,
            plan_placements,
            plan_horizon,
            plan_health_weight,
            plan_progress,
            plan_xp_weight,
            plan_margin_z,
            plan_heal_all,
            plan_race_rounds,
            plan_race_z,
            plan_race_keep,
            per_game,
            threads,
            replay,
            json,
        } => {
            let c = std::sync::Arc::new(content()?);
            let opts = game.options();
            let combat = SearchConfig { playouts: search_playouts, health_weight: search_health_weight };
            let bot = match bot {
                BotArg::Heuristic => BotKind::Heuristic,
                BotArg::Random => BotKind::Random,
                BotArg::Search => BotKind::Search(combat),
                BotArg::Plan => BotKind::Plan(PlanConfig {
                    combat,
                    playouts: plan_playouts,
                    placements: plan_placements,
                    horizon: plan_horizon,
                    health_weight: plan_health_weight,
                    progress: plan_progress,
                    xp_weight: plan_xp_weight,
                    margin_z: plan_margin_z,
                    heal_all: plan_heal_all,
                    race_rounds: plan_race_rounds,
                    race_z: plan_race_z,
                    race_keep: plan_race_keep,
                }),
            };
            if let Some(seed) = replay {
                let (result, log) = sim::play_one(&c, opts, seed, bot, true);
                for (i, a) in log.iter().enumerate() {
                    println!("{i:5} {}", serde_json::to_string(a).unwrap_or_default());
                }
                println!("{result:?}");
                return Ok(());
            }
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let threads = threads.unwrap_or(cores);
            let started = Instant::now();
            let results = sim::play_many(&c, &opts, seed, games, bot, threads);
            let s = sim::summary(&results, started.elapsed().as_secs_f64());
            if let Some(path) = per_game {
                let lines: String = results.iter().map(|r| format!("{}\n", sim::result_line(r))).collect();
                std::fs::write(&path, lines).map_err(|e| format!("{}: {e}", path.display()))?;
            }
            if json {
                println!("{s}");
            } else {
                print_summary(&s);
            }
            Ok(())
        }
        Command::Bench => bench::run(),
        Command::Analyse { game, seed, analysis_seed, turning, checks, json } => {
            analyse(game.options(), seed, analysis_seed, turning, checks, json)
        }
        Command::Forecast { game, seed, at, tiles, playouts, forecast_seed, stable_under } => {
            let c = content()?;
            let opts = GameOptions { seed, ..game.options() };
            let g = Game::new(opts, c).map_err(|e| format!("{e:?}"))?;
            let (g, kind, what) = situation(g, at, tiles)?;
            forecast(&g, kind, &what, playouts, forecast_seed, stable_under / 100.0);
            Ok(())
        }
    }
}

/// Plays the careful bot from the new game to the situation asked for.
fn situation(mut g: Game, at: At, tiles: u32) -> Result<(Game, Kind, String), String> {
    if at == At::Start {
        return Ok((g, Kind::Game { first: None }, "a new game".into()));
    }
    let mut bot = HeuristicBot;
    while !g.is_over() {
        let a = bot.choose(&g);
        let placed = g.adventure().map_or(0, |a| a.record.tiles_placed);
        match at {
            At::Tile if placed >= tiles && matches!(g.phase(), Phase::Exploring { tile_in_hand: true, .. }) => {
                let what = format!("a tile in hand after {placed} placed");
                return Ok((g, Kind::DeadEnd { first: None }, what));
            }
            At::Combat if matches!(a, Action::Encounter { .. }) => {
                let mut next = g.clone();
                if next.apply(a.clone()).is_ok() && next.in_combat() {
                    let foes: Vec<String> = next
                        .combat()
                        .map(|c| c.foes.iter().map(|f| f.name().to_string()).collect())
                        .unwrap_or_default();
                    let what = format!("before Encountering {} ({placed} tiles placed)", foes.join(" + "));
                    return Ok((g, Kind::Fight { first: Some(a) }, what));
                }
            }
            _ => {}
        }
        g.apply(a).map_err(|e| format!("{e:?}"))?;
    }
    Err("the game ended before that situation".into())
}

fn forecast(g: &Game, kind: Kind, what: &str, playouts: u64, seed: u64, stable_under: f64) {
    let mut f = Forecaster::new(g, kind, seed);
    let mut stable: Option<(u64, Duration)> = None;
    for _ in 0..playouts {
        f.run(1);
        if stable.is_none() && f.estimate().chance.half_width < stable_under {
            stable = Some((f.estimate().playouts, f.busy()));
        }
    }
    let e = f.estimate();
    println!("situation: {what}");
    println!("chance {}: {}  ({} playouts)", f.kind().name(), e.chance, e.playouts);
    for (h, d) in e.damage.iter().enumerate() {
        println!(
            "  expected damage to {}: {:.2} ± {:.2} Health (health now {})",
            g.heroes[h].name(),
            d.value,
            d.half_width,
            g.heroes[h].health
        );
    }
    if matches!(f.kind(), Kind::Fight { .. }) && e.no_fight > 0 {
        println!("  playouts with no Combat: {}", e.no_fight);
    }
    println!(
        "playouts per second: {:.1} (one thread, {:.0} actions per playout, {:.2} s in all)",
        f.playouts_per_second(),
        e.actions_per_playout,
        f.busy().as_secs_f64()
    );
    match stable {
        Some((n, t)) => {
            println!("stable (± under {:.1} points) after {n} playouts, {:.2} s", stable_under * 100.0, t.as_secs_f64())
        }
        None => println!(
            "not stable after {} playouts (± {:.1} points, wanted under {:.1})",
            e.playouts,
            e.chance.half_width * 100.0,
            stable_under * 100.0
        ),
    }
}

/// Plays the careful bot's game of `seed`, analyses it on this thread and
/// reports what it cost and found.
fn analyse(
    options: GameOptions,
    seed: u64,
    analysis_seed: u64,
    turning: usize,
    checks: usize,
    json: bool,
) -> Result<(), String> {
    let c = std::sync::Arc::new(content()?);
    let (result, history) = sim::play_one(&c, options.clone(), seed, BotKind::Heuristic, true);
    let options = GameOptions { seed, ..options };
    let cpu0 = thread_cpu_ns();
    let wall = Instant::now();
    let cpu_s = || match (cpu0, thread_cpu_ns()) {
        (Some(a), Some(b)) => b.saturating_sub(a) as f64 / 1e9,
        _ => wall.elapsed().as_secs_f64(),
    };
    let mut analyst = Analyst::new(&options, &c, &history, analysis_seed)?;
    let n = history.len();
    // When every move was classified, and when the first pass (both ends
    // and every 64th point) was known: a graph spanning the game.
    let (mut classified, mut spanned) = (None, None);
    let coarse: Vec<usize> = (0..n).step_by(64).chain([n]).collect();
    loop {
        let done = analyst.work(Duration::from_millis(20));
        if classified.is_none() && analyst.stats().classified == n {
            classified = Some(cpu_s());
        }
        if spanned.is_none() && coarse.iter().all(|&k| analyst.points()[k].is_some()) {
            spanned = Some(cpu_s());
        }
        if done {
            break;
        }
    }
    let cpu = cpu_s();
    let wall = wall.elapsed().as_secs_f64();
    let stats = analyst.stats();
    let snapshot_bytes = analyst.snapshot_bytes();
    let vm_hwm_kib = std::fs::read_to_string("/proc/self/status").ok().and_then(|s| {
        s.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
    });
    let turns = analyst.turning_points(turning);
    // Points inside the game (not the exact end), spread out; each against
    // a plain forecast of its own deals to ± 2 points.
    let mut checked = Vec::new();
    let exact_from = analyst.analysis().segments.last().filter(|s| s.exact).map_or(n + 1, |s| s.first);
    for i in 1..=checks {
        let k = (n * i / (checks + 1)).min(exact_from.saturating_sub(1));
        let Some(point) = analyst.points()[k] else { continue };
        let g = analyst.game_at(k);
        let mut f = Forecaster::new(&g, Kind::Game { first: None }, analysis_seed.wrapping_add(1_000));
        while f.estimate().playouts < 20_000 {
            f.run(50);
            if f.estimate().chance.half_width <= 0.02 {
                break;
            }
        }
        let e = f.estimate();
        let diff = point.value - e.chance.value;
        let margin = point.half_width.hypot(e.chance.half_width);
        checked.push((k, point, e.chance, e.playouts, diff, margin));
    }
    if json {
        let out = serde_json::json!({
            "seed": seed,
            "won": result.won,
            "moves": n,
            "stats": stats,
            "cpu_s": cpu,
            "wall_s": wall,
            "cpu_ms_per_move": cpu * 1e3 / n.max(1) as f64,
            "cpu_s_classified": classified,
            "cpu_s_first_pass": spanned,
            "snapshot_bytes": snapshot_bytes,
            "vm_hwm_kib": vm_hwm_kib,
            "points": analyst.points(),
            "turning_points": turns,
            "fights": analyst.fights(),
            "checks": checked.iter().map(|(k, p, f, playouts, diff, margin)| serde_json::json!({
                "point": k, "analysis": p, "forecast": f, "forecast_playouts": playouts,
                "difference": diff, "margin": margin, "agree": diff.abs() <= *margin,
            })).collect::<Vec<_>>(),
        });
        println!("{out}");
        return Ok(());
    }
    println!("game: seed {seed}, {n} moves, {}", if result.won { "won" } else { "lost" });
    println!(
        "moves: {n} ({} quiet); points {}: {} segments estimated by playouts, {} points pooled into them, {} exact (the end)",
        stats.quiet_moves,
        n + 1,
        stats.estimated,
        stats.pooled_points,
        stats.exact_points
    );
    println!(
        "playouts: {} whole-game, {} in {} fight Rounds ({} fights)",
        stats.playouts,
        stats.fight_playouts,
        stats.rounds,
        analyst.fights().len()
    );
    println!(
        "CPU: {cpu:.2} s on one thread ({:.1} ms a move), {wall:.2} s wall; every move classified after {:.2} s, \
         the first pass (both ends, every 64th point) known after {:.2} s",
        cpu * 1e3 / n.max(1) as f64,
        classified.unwrap_or(cpu),
        spanned.unwrap_or(cpu)
    );
    println!(
        "memory: snapshots about {:.1} MiB as JSON; process peak RSS {}",
        snapshot_bytes as f64 / 1_048_576.0,
        vm_hwm_kib.map_or("unknown".into(), |k| format!("{:.1} MiB", k as f64 / 1024.0))
    );
    let start = analyst.points()[0].map_or("?".into(), |f| f.to_string());
    println!("chance to win at the start: {start}");
    println!("turning points:");
    for t in &turns {
        let cause = match t.cause {
            Some(depths_sim::Cause::Choice) => "a choice other than the careful bot's",
            Some(depths_sim::Cause::Reveal) => "a reveal (luck of the draw)",
            Some(depths_sim::Cause::ChoiceAndReveal) => "another choice, and a reveal",
            None => "?",
        };
        let a = serde_json::to_string(&history[t.step]).unwrap_or_default();
        println!("  move {:4}: {:+.1} points (noise {:.1}), {cause}: {a}", t.step, t.delta * 100.0, t.noise * 100.0);
    }
    for (k, p, f, playouts, diff, margin) in &checked {
        println!(
            "check at point {k}: analysis {p}, plain forecast {f} ({playouts} playouts): difference {:+.1}, margin {:.1}: {}",
            diff * 100.0,
            margin * 100.0,
            if diff.abs() <= *margin { "agree" } else { "DIFFER" }
        );
    }
    Ok(())
}

fn print_summary(s: &serde_json::Value) {
    let ci = &s["win_rate_ci95"];
    println!(
        "games {}  wins {}  win rate {:.1}% (95% CI {:.1}–{:.1}%)",
        s["games"],
        s["wins"],
        s["win_rate"].as_f64().unwrap_or(0.0) * 100.0,
        ci[0].as_f64().unwrap_or(0.0) * 100.0,
        ci[1].as_f64().unwrap_or(0.0) * 100.0
    );
    if let Some(causes) = s["losses_by_cause"].as_object() {
        for (cause, n) in causes {
            println!("  lost: {cause}: {n}");
        }
    }
    for key in [
        "avg_xp_earned",
        "avg_xp_spent",
        "avg_tiles_placed",
        "avg_legendary_locations",
        "avg_actions",
        "games_per_second",
    ] {
        println!("{key}: {:.2}", s[key].as_f64().unwrap_or(0.0));
    }
    if let Some(search) = s.get("search") {
        // Combat's figures, then the Exploring decisions' (the planning bot).
        let line = |what: &str, e: &serde_json::Value| {
            println!(
                "{what}: {} decisions searched ({:.1} a game, {} changed), {:.0} playouts each, {:.2} ms mean, {:.1} ms max",
                e["searched_decisions"],
                e["searched_per_game"].as_f64().unwrap_or(0.0),
                e["changed_decisions"],
                e["playouts_per_decision"].as_f64().unwrap_or(0.0),
                e["ms_per_decision_mean"].as_f64().unwrap_or(0.0),
                e["ms_per_decision_max"].as_f64().unwrap_or(0.0)
            );
        };
        line("search", search);
        if let Some(e) = search.get("explore") {
            line("search, Exploring", e);
        }
    }
}
