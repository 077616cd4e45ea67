//! Saves edited one number at a time are either refused by the load or
//! played on without a panic. The saves come from seeded games the bots
//! play (full games from every starting Ecology, with 1–3 Heroes and several
//! variants, and skirmishes against one or two Monster Cards): the first
//! state of each kind met — every phase and pending decision, every Combat
//! step with 1–3 Heroes and 1–2 Monster Cards, the Final Entity, a Passage,
//! a game over. Each save's JSON is then changed one field at a time —
//! integers to 0, 1, n±1, 9, 255 and huge, booleans flipped, enums to each
//! of their other variants — and in seeded pairs of changes, and each
//! changed save must be refused by `Game::load_json` or take 50 legal moves
//! (the random bot's and the careful bot's, every question the client asks
//! before each: `depths_sim::save_play`) without a panic, every listed move
//! accepted and the game it comes to loading again. A fault is reported
//! with the save and the field.

use std::collections::{BTreeMap, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use depths_rules::{Content, Ecology, Foe, Game, GameOptions, GameRng, Phase, Variants};
use depths_sim::save_play::{play_on, play_save_bytes};
use depths_sim::{Bot, HeuristicBot, RandomBot};

/// What kind of state a game is in, in words: one save is kept per kind.
fn kind(g: &Game) -> String {
    let heroes = g.heroes.len();
    let game = if g.adventure().is_some() { "game" } else { "skirmish" };
    let word = |d: Option<depths_rules::Decision>| {
        d.map_or(String::from("no decision"), |d| format!("{d:?}").split([' ', '{']).next().unwrap_or("").to_string())
    };
    let what = match g.phase() {
        Phase::Combat { step } => {
            let c = g.combat().expect("a Combat phase has a Combat");
            let entity = if c.foes.iter().any(|f| matches!(f.card, depths_rules::combat::FoeCard::FinalEntity(_))) {
                ", the Final Entity"
            } else {
                ""
            };
            format!("Combat {step:?}, {heroes} Heroes, {} cards{entity}", c.foes.len())
        }
        Phase::Exploring { tile_in_hand, decision } => {
            let aside = g.adventure().is_some_and(|a| a.ecology.dead_end.set_aside.is_some());
            format!("Exploring, tile in hand {tile_in_hand}, set aside {aside}, {}", word(decision))
        }
        Phase::Encountering { element, decision } => format!("Encountering {element:?}, {}", word(decision)),
        Phase::Setup { decision } => format!("Setup, {}", word(Some(decision))),
        Phase::LevelUp { decision } => format!("Level Up, {}", word(decision)),
        Phase::Passage { .. } => String::from("Passage"),
        Phase::Won => String::from("Won"),
        Phase::Lost(reason) => format!("Lost, {}", format!("{reason:?}").split([' ', '{']).next().unwrap_or("")),
    };
    format!("{game}: {what}")
}

/// New-game choices for game `seed`: 1–3 Heroes (some on their alternate
/// side, some multi-classed), every starting Ecology, several variants.
fn options(seed: u64) -> GameOptions {
    let mut rng = GameRng::from_seed(seed);
    let n = 1 + (seed % 3) as usize;
    let heroes: Vec<String> = ["bren", "sil", "ava"][..n]
        .iter()
        .map(|id| if rng.below(3) == 0 { format!("{id}_alt") } else { id.to_string() })
        .collect();
    let variants = Variants {
        locked_chests: rng.below(3) == 0,
        start_with_ability: rng.below(2) == 0,
        six_keys: rng.below(2) == 0,
        one_dead_end: rng.below(2) == 0,
        double_healing: rng.below(3) == 0,
        ..Variants::default()
    };
    let start = Ecology::ALL[(seed / 3 % 3) as usize];
    GameOptions { heroes, start, variants, single_classed: rng.below(3) == 0, seed }
}

/// Keeps the first state of each kind met in `g`'s play.
fn keep(g: &Game, kept: &mut BTreeMap<String, String>) {
    kept.entry(kind(g)).or_insert_with(|| g.save_json());
}

/// Plays `g` on with the careful bot, the random bot making one move in
/// `random_in` (none when 0), keeping the first state of each kind.
fn play_keeping(mut g: Game, seed: u64, random_in: u32, limit: usize, kept: &mut BTreeMap<String, String>) {
    let mut random = RandomBot { rng: GameRng::from_seed(seed) };
    let mut careful = HeuristicBot;
    let mut coin = GameRng::from_seed(!seed);
    for _ in 0..limit {
        keep(&g, kept);
        if g.is_over() {
            return;
        }
        let action = if random_in > 0 && coin.below(random_in) == 0 { random.choose(&g) } else { careful.choose(&g) };
        g.apply(action).expect("the bots choose legal actions");
    }
}

/// The saves: one of each kind of state met in seeded games.
fn saves(content: &Arc<Content>, games: u64) -> BTreeMap<String, String> {
    let mut kept = BTreeMap::new();
    for seed in 0..games {
        let g = Game::new_shared(options(seed), Arc::clone(content)).expect("the game sets up");
        play_keeping(g, seed, [0, 3, 8][(seed % 3) as usize], 3000, &mut kept);
    }
    // Skirmishes: 1–3 Heroes against one or two Monster Cards of every Ecology.
    for seed in 0..12u64 {
        let heroes = 1 + (seed % 3) as usize;
        let mats = content.heroes.iter().step_by(2).take(heroes).cloned().collect();
        let eco = content.ecology(Ecology::ALL[(seed / 3 % 3) as usize]);
        let mut rng = GameRng::from_seed(seed);
        let cards = 1 + (seed / 2 % 2) as usize;
        let foes = (0..cards)
            .map(|_| Foe::monster(eco.monsters[rng.below(eco.monsters.len() as u32) as usize].clone(), heroes))
            .collect();
        let (g, _) = Game::skirmish(mats, foes, seed);
        play_keeping(g, seed, 2, 500, &mut kept);
    }
    kept
}

// ----- the fields of a save -----

/// A scalar of a save's JSON, or the key of a one-key object (how serde
/// writes an enum variant with data), at `start..end` of the text.
#[derive(Clone, Debug)]
struct Leaf {
    start: usize,
    end: usize,
    /// Where it is, as `heroes.0.draw.3.value`.
    path: String,
    what: What,
}

#[derive(Clone, Debug, PartialEq)]
enum What {
    Number,
    Bool,
    Str,
    /// The key of an object with only that key.
    Key,
}

/// Every scalar and one-key object key of a compact JSON text (as
/// `serde_json::to_string` writes it).
fn leaves(text: &str) -> Vec<Leaf> {
    struct Scan<'a> {
        b: &'a [u8],
        at: usize,
        path: Vec<String>,
        out: Vec<Leaf>,
    }
    impl Scan<'_> {
        fn string_end(&self, from: usize) -> usize {
            let mut i = from + 1;
            while self.b[i] != b'"' {
                i += if self.b[i] == b'\\' { 2 } else { 1 };
            }
            i + 1
        }
        fn leaf(&mut self, start: usize, end: usize, what: What) {
            self.out.push(Leaf { start, end, path: self.path.join("."), what });
        }
        fn value(&mut self) {
            let start = self.at;
            match self.b[start] {
                b'{' => {
                    self.at += 1;
                    let mut keys = Vec::new();
                    while self.b[self.at] != b'}' {
                        let key_start = self.at;
                        let key_end = self.string_end(key_start);
                        let key = String::from_utf8_lossy(&self.b[key_start + 1..key_end - 1]).into_owned();
                        keys.push((key_start, key_end, self.out.len()));
                        self.at = key_end + 1; // the colon
                        self.path.push(key);
                        self.value();
                        self.path.pop();
                        if self.b[self.at] == b',' {
                            self.at += 1;
                        }
                    }
                    self.at += 1;
                    if let [(key_start, key_end, index)] = keys[..] {
                        let leaf = Leaf { start: key_start, end: key_end, path: self.path.join("."), what: What::Key };
                        self.out.insert(index, leaf);
                    }
                }
                b'[' => {
                    self.at += 1;
                    let mut i = 0;
                    while self.b[self.at] != b']' {
                        self.path.push(i.to_string());
                        self.value();
                        self.path.pop();
                        i += 1;
                        if self.b[self.at] == b',' {
                            self.at += 1;
                        }
                    }
                    self.at += 1;
                }
                b'"' => {
                    self.at = self.string_end(start);
                    self.leaf(start, self.at, What::Str);
                }
                b't' | b'f' => {
                    self.at += if self.b[start] == b't' { 4 } else { 5 };
                    self.leaf(start, self.at, What::Bool);
                }
                b'n' => self.at += 4,
                _ => {
                    while self.at < self.b.len() && !matches!(self.b[self.at], b',' | b'}' | b']') {
                        self.at += 1;
                    }
                    self.leaf(start, self.at, What::Number);
                }
            }
        }
    }
    let mut scan = Scan { b: text.as_bytes(), at: 0, path: Vec::new(), out: Vec::new() };
    scan.value();
    scan.out
}

/// The path with every list index as `*`: the same field of every element.
fn shape(path: &str) -> String {
    path.split('.').map(|s| if s.bytes().all(|b| b.is_ascii_digit()) { "*" } else { s }).collect::<Vec<_>>().join(".")
}

/// A field of the content the game carries (its cards), not of the game's state.
fn in_content(path: &str) -> bool {
    path.starts_with("adventure.content.")
}

/// The variants of the enum at `leaf`, from serde's refusal of a name no
/// variant has; `None` for a string or key that is no enum's.
fn variants(text: &str, leaf: &Leaf) -> Option<Vec<String>> {
    let probe = "\"no_such_variant_at_all\"";
    let edited = format!("{}{probe}{}", &text[..leaf.start], &text[leaf.end..]);
    let reason = Game::load_json(&edited).err()?.to_string();
    let expected = reason.split("unknown variant `no_such_variant_at_all`, expected ").nth(1)?;
    let names: Vec<String> = expected.split('`').skip(1).step_by(2).map(str::to_string).collect();
    (!names.is_empty()).then_some(names)
}

/// The values a field is changed to, as JSON: an integer to 0, 1, n±1, 9,
/// 255, 65536, 2⁴⁰ and u64::MAX (`all`), or to n+1, 9 and one of the others
/// picked by `rng`; a boolean flipped; an enum to each other variant.
fn changes(
    text: &str,
    leaf: &Leaf,
    all: bool,
    rng: &mut GameRng,
    enums: &mut HashMap<String, Option<Vec<String>>>,
) -> Vec<String> {
    let old = &text[leaf.start..leaf.end];
    let mut out: Vec<String> = match leaf.what {
        What::Bool => vec![if old == "true" { "false" } else { "true" }.to_string()],
        What::Number => {
            let Ok(n) = old.parse::<i128>() else { return Vec::new() };
            let mut values = vec![n + 1, 9];
            let others = [0, 1, n - 1, 255, 65_536, 1 << 40, i128::from(u64::MAX)];
            if all {
                values.extend(others);
            } else {
                values.push(others[rng.below(others.len() as u32) as usize]);
            }
            values.iter().map(|v| v.to_string()).collect()
        }
        What::Str | What::Key => {
            let names = enums.entry(shape(&leaf.path)).or_insert_with(|| variants(text, leaf));
            names.iter().flatten().map(|n| format!("\"{n}\"")).collect()
        }
    };
    out.retain(|v| v != old);
    out.sort();
    out.dedup();
    out
}

/// `text` with each (leaf, new value) put in place.
fn edit(text: &str, edits: &[(&Leaf, &str)]) -> String {
    let mut sorted: Vec<&(&Leaf, &str)> = edits.iter().collect();
    sorted.sort_by_key(|(l, _)| l.start);
    let mut out = String::with_capacity(text.len() + 32);
    let mut at = 0;
    for (leaf, value) in sorted {
        if leaf.start < at {
            continue; // the same field twice: the first change stands
        }
        out.push_str(&text[at..leaf.start]);
        out.push_str(value);
        at = leaf.end;
    }
    out.push_str(&text[at..]);
    out
}

// ----- trying the edited saves -----

/// What became of one edited save.
enum Fate {
    Refused,
    Played,
    /// `apply` refused an action `legal_actions` listed, or nothing was legal.
    Disagreed(String),
    Panicked(String),
}

thread_local! {
    /// Where the last panic of this thread was, from the panic hook.
    static PANIC_AT: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// Quiet panics, their place and message kept for the report.
fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        let at = info.location().map_or(String::new(), |l| format!("{}:{}", l.file(), l.line()));
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        PANIC_AT.with(|p| *p.borrow_mut() = format!("{at}: {message}"));
    }));
}

fn try_save(text: &str, seed: u64) -> Fate {
    let run = catch_unwind(AssertUnwindSafe(|| {
        let Ok(mut g) = Game::load_json(text) else { return Fate::Refused };
        let played = play_on(&mut g, seed, 50);
        match (played.refused, played.stuck, played.unloadable) {
            (Some(why), _, _) => Fate::Disagreed(format!("a listed action was refused: {why}")),
            (None, true, _) => Fate::Disagreed(String::from("nothing is legal in a game not over")),
            (None, false, Some(why)) => Fate::Disagreed(format!("the game played on no longer loads: {why}")),
            (None, false, None) => Fate::Played,
        }
    }));
    run.unwrap_or_else(|_| Fate::Panicked(PANIC_AT.with(|p| p.borrow().clone())))
}

/// How far the edits go: every instance of a field, or a few.
#[derive(Clone, Copy)]
struct Reach {
    /// Instances of each field (its shape) changed in each save.
    per_shape: usize,
    /// Whether the content's fields are changed in this save.
    content: bool,
    /// Every value of [`changes`] for each field, or a seeded few.
    all_values: bool,
    /// Pairs of changes per save.
    pairs: usize,
}

#[derive(Default)]
struct Tally {
    tried: usize,
    refused: usize,
    played: usize,
    /// (save, change, what happened)
    faults: Vec<(String, String, String)>,
}

/// The edits of one save within `reach`: each a list of (field, new value)
/// and the words for the report.
fn edits_of<'a>(text: &str, all: &'a [Leaf], seed: u64, reach: Reach) -> Vec<(Vec<(&'a Leaf, String)>, String)> {
    let mut enums = HashMap::new();
    let mut rng = GameRng::from_seed(seed);
    // Per shape, the instances to change: the first, then seeded others.
    let mut by_shape: BTreeMap<String, Vec<&Leaf>> = BTreeMap::new();
    for leaf in all {
        if reach.content || !in_content(&leaf.path) {
            by_shape.entry(shape(&leaf.path)).or_default().push(leaf);
        }
    }
    let mut chosen: Vec<&Leaf> = Vec::new();
    for (_, mut list) in by_shape {
        let mut take = vec![list.remove(0)];
        while take.len() < reach.per_shape && !list.is_empty() {
            take.push(list.remove(rng.below(list.len() as u32) as usize));
        }
        chosen.extend(take);
    }
    let mut edits = Vec::new();
    let mut singles: Vec<(&Leaf, String)> = Vec::new();
    for leaf in chosen {
        for value in changes(text, leaf, reach.all_values, &mut rng, &mut enums) {
            edits.push((vec![(leaf, value.clone())], format!("{} = {value}", leaf.path)));
            singles.push((leaf, value));
        }
    }
    for _ in 0..reach.pairs.min(singles.len() * singles.len()) {
        let a = &singles[rng.below(singles.len() as u32) as usize];
        let b = &singles[rng.below(singles.len() as u32) as usize];
        let words = format!("{} = {} and {} = {}", a.0.path, a.1, b.0.path, b.1);
        edits.push((vec![a.clone(), b.clone()], words));
    }
    edits
}

/// How long one edited save may take before the test calls it hung.
const HUNG_AFTER: Duration = Duration::from_secs(30);

/// Every save within `reach`, on two threads; the tally of all. A save
/// that hangs ends the test with the report so far (a thread cannot be stopped).
fn try_all(saves: &BTreeMap<String, String>, reach: impl Fn(usize) -> Reach + Sync) -> Tally {
    // The saves as the rules left them load and play on: refusing every
    // edit would otherwise pass.
    for (name, text) in saves {
        assert!(matches!(try_save(text, 0), Fate::Played), "the unedited save of {name} does not play on");
    }
    if let Ok(dir) = std::env::var("SAVE_EDITS_CORPUS") {
        // A seed corpus for the `saves` fuzz target (see fuzz/README.md).
        std::fs::create_dir_all(&dir).expect("the corpus folder can be made");
        for (i, text) in saves.values().enumerate() {
            std::fs::write(format!("{dir}/save-{i:02}.json"), text).expect("the corpus is written");
        }
    }
    quiet_panics();
    let only: Option<usize> = std::env::var("SAVE_EDITS_ONLY").ok().and_then(|s| s.parse().ok());
    let saves: Vec<(usize, &String, &String)> = saves
        .iter()
        .enumerate()
        .map(|(i, (n, t))| (i, n, t))
        .filter(|(i, _, _)| only.is_none_or(|o| o == *i))
        .collect();
    let total = Mutex::new(Tally::default());
    let current: Mutex<[Option<(Instant, String)>; 2]> = Mutex::new([None, None]);
    let done = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for part in 0..2 {
            let (saves, total, reach, current, done) = (&saves, &total, &reach, &current, &done);
            s.spawn(move || {
                for (i, name, text) in saves.iter().filter(|(i, _, _)| i % 2 == part) {
                    let all = leaves(text);
                    for (k, (change, words)) in edits_of(text, &all, *i as u64, reach(*i)).iter().enumerate() {
                        let pairs: Vec<(&Leaf, &str)> = change.iter().map(|(l, v)| (*l, v.as_str())).collect();
                        let edited = edit(text, &pairs);
                        current.lock().expect("held briefly")[part] =
                            Some((Instant::now(), format!("{name}: {words}")));
                        let fate = try_save(&edited, (*i as u64) << 32 | k as u64);
                        current.lock().expect("held briefly")[part] = None;
                        let mut t = total.lock().expect("held briefly");
                        t.tried += 1;
                        match fate {
                            Fate::Refused => t.refused += 1,
                            Fate::Played => t.played += 1,
                            Fate::Disagreed(why) | Fate::Panicked(why) => {
                                t.faults.push((name.to_string(), words.clone(), why))
                            }
                        }
                    }
                }
                done.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            });
        }
        // The watchdog.
        s.spawn(|| {
            while done.load(std::sync::atomic::Ordering::SeqCst) < 2 {
                std::thread::sleep(Duration::from_millis(200));
                let hung = current
                    .lock()
                    .expect("held briefly")
                    .iter()
                    .flatten()
                    .find(|(at, _)| at.elapsed() > HUNG_AFTER)
                    .cloned();
                if let Some((_, what)) = hung {
                    let t = total.lock().expect("held briefly");
                    eprintln!("{}\nHUNG (over {HUNG_AFTER:?}) on {what}", report(saves.len(), &t));
                    std::process::exit(101);
                }
            }
        });
    });
    let _ = std::panic::take_hook();
    total.into_inner().expect("no thread panicked holding it")
}

/// The report: the counts, then each fault (the first of each place, and how many).
fn report(saves: usize, tally: &Tally) -> String {
    let mut by_place: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for (save, change, why) in &tally.faults {
        let place = why.split(": ").next().unwrap_or("").to_string();
        let e = by_place.entry(place).or_insert((0, format!("{save}: {change}: {why}")));
        e.0 += 1;
    }
    let mut out = format!(
        "{saves} saves, {} edited saves tried: {} refused, {} played 50 moves (or to the end), {} failed",
        tally.tried,
        tally.refused,
        tally.played,
        tally.faults.len()
    );
    for (place, (n, first)) in by_place {
        out.push_str(&format!("\n  {n} × {place}; first: {first}"));
    }
    out
}

/// The saves of every kind met, and those the quick test edits: one kind
/// in three (still every phase, Combats of each size, the Final Entity).
fn quick(saves: BTreeMap<String, String>) -> BTreeMap<String, String> {
    saves.into_iter().enumerate().filter(|(i, _)| i % 3 == 0).map(|(_, s)| s).collect()
}

#[test]
fn every_save_edited_one_number_at_a_time_is_refused_or_plays_on() {
    let content = Arc::new(Content::builtin().expect("the shipped content loads"));
    let t = Instant::now();
    let saves = quick(saves(&content, 30));
    assert!(saves.len() >= 30, "only {} kinds of state", saves.len());
    let tally = try_all(&saves, |i| Reach { per_shape: 1, content: i % 15 == 0, all_values: false, pairs: 20 });
    let report = report(saves.len(), &tally);
    eprintln!("{report}\n({:?})", t.elapsed());
    assert!(tally.faults.is_empty(), "{report}");
}

/// Every kind of state met, three instances of every field, every value,
/// the content's fields in one save in eight, 200 pairs per save (several
/// minutes in a release build: `cargo test --release -p depths_sim --test
/// save_edits -- --ignored`).
#[test]
#[ignore]
fn every_save_of_every_kind_edited_everywhere_is_refused_or_plays_on() {
    let content = Arc::new(Content::builtin().expect("the shipped content loads"));
    let t = Instant::now();
    let saves = saves(&content, 60);
    let tally = try_all(&saves, |i| Reach { per_shape: 3, content: i % 8 == 0, all_values: true, pairs: 200 });
    let report = report(saves.len(), &tally);
    eprintln!("{report}\n({:?})", t.elapsed());
    assert!(tally.faults.is_empty(), "{report}");
}

/// The check never refuses what the rules make: every state of seeded games
/// (the careful bot, it with random moves among its own, the random bot;
/// every starting Ecology, 1–3 Heroes, several variants) passes it.
#[test]
fn every_state_the_rules_reach_in_seeded_games_passes_the_whole_check() {
    let content = Arc::new(Content::builtin().expect("the shipped content loads"));
    let mut states = 0;
    for seed in 0..36u64 {
        let mut g = Game::new_shared(options(seed), Arc::clone(&content)).expect("the game sets up");
        let mut random = RandomBot { rng: GameRng::from_seed(seed) };
        let mut careful = HeuristicBot;
        let mut coin = GameRng::from_seed(!seed);
        let random_in = [1, 3, 0][(seed % 3) as usize];
        for step in 0..3000 {
            states += 1;
            if let Err(e) = g.check_whole() {
                panic!("game {seed}, after {step} moves: {e}");
            }
            if g.is_over() {
                break;
            }
            let action =
                if random_in > 0 && coin.below(random_in) == 0 { random.choose(&g) } else { careful.choose(&g) };
            g.apply(action).expect("the bots choose legal actions");
        }
    }
    assert!(states > 5000, "only {states} states");
}

/// The `saves` fuzz target's entry point reads any bytes: not text, not a
/// save, a save cut short, a save refused, and a save that plays on.
#[test]
fn the_save_fuzz_entry_point_reads_any_bytes() {
    let content = Arc::new(Content::builtin().expect("the shipped content loads"));
    let g = Game::new_shared(options(2), content).expect("the game sets up");
    let text = g.save_json();
    for bytes in [&b"\xff\xfe"[..], b"", b"{}", b"not a save", &text.as_bytes()[..text.len() / 2]] {
        assert_eq!(play_save_bytes(bytes), None, "{:?}", String::from_utf8_lossy(&bytes[..bytes.len().min(40)]));
    }
    let refused = text.replacen("\"level\":1", "\"level\":9", 1);
    assert_ne!(refused, text);
    assert_eq!(play_save_bytes(refused.as_bytes()), None, "a Hero at level 9 is refused");
    let played = play_save_bytes(text.as_bytes()).expect("a save as the rules leave it loads");
    assert!(played.moves > 0 && played.refused.is_none() && !played.stuck && played.unloadable.is_none(), "{played:?}");
}
