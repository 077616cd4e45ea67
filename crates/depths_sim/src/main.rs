//! `depths-sim`: play many seeded games with a bot, print the census of the
//! content, replay one game, or run the benchmarks.

use depths_rules::{Content, Ecology, GameOptions, Variants};
use depths_sim::{BotKind, bench, sim};

const USAGE: &str = "usage:
  depths-sim play [--games N] [--seed S] [--heroes bren,sil] [--bot heuristic|random]
                  [--start ruins|caverns|sub] [--variant name,...] [--threads T] [--json]
  depths-sim play --replay SEED [same options]   print that game's action log
  depths-sim census [--json]
  depths-sim bench
variants: random_campfire_healing no_level_up_heal locked_chests start_with_ability
          six_keys keys_each_ecology one_dead_end double_healing";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = run(&args) {
        eprintln!("depths-sim: {e}\n{USAGE}");
        std::process::exit(2);
    }
}

fn content() -> Result<Content, String> {
    Content::builtin().map_err(|e| format!("content: {e}"))
}

fn value<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).map(String::as_str)
}

fn number(args: &[String], name: &str, default: u64) -> Result<u64, String> {
    value(args, name).map_or(Ok(default), |v| v.parse().map_err(|_| format!("{name} needs a number, got {v}")))
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

fn options(args: &[String]) -> Result<GameOptions, String> {
    let heroes: Vec<String> = value(args, "--heroes").unwrap_or("bren,sil").split(',').map(str::to_string).collect();
    let start = match value(args, "--start").unwrap_or("ruins") {
        "ruins" => Ecology::Ruins,
        "caverns" => Ecology::Caverns,
        "sub" | "subterranean" => Ecology::Subterranean,
        other => return Err(format!("unknown Ecology {other}")),
    };
    let variants = parse_variants(value(args, "--variant").unwrap_or(""))?;
    Ok(GameOptions { heroes, start, variants, single_classed: args.iter().any(|a| a == "--single-classed"), seed: 0 })
}

fn run(args: &[String]) -> Result<(), String> {
    let json = args.iter().any(|a| a == "--json");
    match args.first().map(String::as_str) {
        Some("census") => {
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
        Some("play") => {
            let c = content()?;
            let opts = options(args)?;
            let bot = match value(args, "--bot").unwrap_or("heuristic") {
                "heuristic" => BotKind::Heuristic,
                "random" => BotKind::Random,
                other => return Err(format!("unknown bot {other}")),
            };
            if let Some(seed) = value(args, "--replay") {
                let seed: u64 = seed.parse().map_err(|_| "--replay needs a seed".to_string())?;
                let (result, log) = sim::play_one(&c, opts, seed, bot, true);
                for (i, a) in log.iter().enumerate() {
                    println!("{i:5} {}", serde_json::to_string(a).unwrap_or_default());
                }
                println!("{result:?}");
                return Ok(());
            }
            let games = number(args, "--games", 100)?;
            let seed = number(args, "--seed", 1)?;
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let threads = number(args, "--threads", cores as u64)? as usize;
            let started = std::time::Instant::now();
            let results = sim::play_many(&c, &opts, seed, games, bot, threads);
            let s = sim::summary(&results, started.elapsed().as_secs_f64());
            if json {
                println!("{s}");
            } else {
                print_summary(&s);
            }
            Ok(())
        }
        Some("bench") => bench::run(),
        _ => Err("choose a command".into()),
    }
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
}
