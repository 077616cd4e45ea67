//! Settings remembered between runs: the UI scale (egui zoom), whether
//! hot-seat games use the "Pass to …" curtain (off: the game's information
//! is open, so hiding the table is only for players who want it), and how
//! fast and how strongly Companions play, and the sound's volume. Stored by
//! serde as `settings.json` in the platform's config folder
//! (`~/.config/forgotten-depths/settings.json` on Linux). A file that does
//! not read is named in a warning and on the menu, copied aside
//! (`settings.json.bad`), and the defaults are used; earlier versions'
//! `settings.txt` is read when there is no `settings.json` yet.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::{game::flow::MenuNotice, game::screen::Screen};

/// The UI scales offered.
pub const UI_SCALES: [f32; 6] = [0.8, 0.9, 1.0, 1.15, 1.3, 1.5];

/// The UI scales a settings file may ask for.
const UI_SCALE_RANGE: std::ops::RangeInclusive<f32> = 0.5..=3.0;

/// The UI scale `steps` steps of [`UI_SCALES`] up (or down, when negative)
/// from `scale`, no further than the first or last; a scale between two
/// steps moves to the next one in that direction.
pub fn step_scale(scale: f32, steps: i32) -> f32 {
    let mut at = scale;
    for _ in 0..steps.unsigned_abs() {
        let next = if steps > 0 {
            UI_SCALES.iter().copied().find(|s| *s > at + 1e-3)
        } else {
            UI_SCALES.iter().rev().copied().find(|s| *s < at - 1e-3)
        };
        at = next.unwrap_or(at);
    }
    at
}

/// The settings, and where they are kept. Only `ui_scale`, `curtain`,
/// `companion_speed`, `companion_strength`, `strong_hints`, `vision`, the
/// sound's, the window's and online play's are in the file; a
/// field missing from it keeps its default (so older files still read).
#[derive(Resource, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// egui's zoom factor.
    pub ui_scale: f32,
    /// New hot-seat games hide the table when it changes hands.
    pub curtain: bool,
    /// How long a Companion waits before each move.
    pub companion_speed: Speed,
    /// How Companions choose their moves.
    pub companion_strength: depths_seats::seats::Strength,
    /// Hints from the search bot (it plays each Combat choice out in many
    /// reshuffled worlds) rather than the careful bot's rules of thumb.
    pub strong_hints: bool,
    /// The volume of everything, 0..=1 (see `sound::gain`).
    pub master_volume: f32,
    /// The music's share of it, 0..=1.
    pub music_volume: f32,
    /// No sound at all.
    pub muted: bool,
    /// The window as the player left it (none until it is moved or sized).
    pub window: Option<WindowPlace>,
    /// The window fills its screen, borderless (F11).
    pub fullscreen: bool,
    /// The colour vision the table's signal colours are chosen for.
    pub vision: Vision,
    /// Online play's relays: `public`, `off` (this network only) or the URL
    /// of the players' own relay (`depths_net::Relays`).
    pub relay: String,
    /// Online play: the name this player last sat down under, and the invite
    /// of the table they last joined ("" once they host): a game started
    /// again finds the form filled in (a crash left it empty).
    pub player_name: String,
    pub last_invite: String,
    /// The name of that table's host, once seated there ("" until then).
    pub last_host: String,
    /// Online play with a relay of the players' own whose certificate is
    /// its own making (as `relay --certificate FILE` writes it): the DER
    /// file to trust for it besides the public roots, so the relay's address
    /// discovery works and direct paths are tried. "" for none. Read once,
    /// at the start.
    pub relay_certificate: String,
    /// The Settings window is open.
    #[serde(skip)]
    pub open: bool,
    #[serde(skip)]
    pub file: PathBuf,
    /// Why the file was not used, for the player.
    #[serde(skip)]
    pub problem: Option<String>,
    /// The file did not read and no copy of it could be kept: never write over it.
    #[serde(skip)]
    keep_file: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            ui_scale: 1.0,
            curtain: false,
            companion_speed: Speed::default(),
            companion_strength: depths_seats::seats::Strength::default(),
            strong_hints: false,
            master_volume: 0.8,
            music_volume: 0.6,
            muted: false,
            window: None,
            fullscreen: false,
            vision: Vision::default(),
            relay: "public".into(),
            player_name: String::new(),
            last_invite: String::new(),
            last_host: String::new(),
            relay_certificate: String::new(),
            open: false,
            file: PathBuf::new(),
            problem: None,
            keep_file: false,
        }
    }
}

/// `settings.json` in the platform's config folder (`./settings.json` without a home folder).
pub fn default_file() -> PathBuf {
    crate::game::saves::project_dirs()
        .map_or_else(|| PathBuf::from("settings.json"), |dirs| dirs.config_dir().join("settings.json"))
}

impl Settings {
    /// The player's settings, from their config folder.
    pub fn load() -> Settings {
        let old: Vec<PathBuf> = crate::game::saves::old_data_dirs().iter().map(|d| d.join("settings.txt")).collect();
        Settings::read_or_old(default_file(), &old)
    }

    /// Reads `file`; without it, the first of the `old` (earlier versions')
    /// `key = value` files that exists; without any, the defaults.
    pub fn read_or_old(file: PathBuf, old: &[PathBuf]) -> Settings {
        match std::fs::read_to_string(&file) {
            Ok(text) => Settings::parse(file, &text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let old = old.iter().find_map(|p| std::fs::read_to_string(p).ok());
                let mut settings = old.map_or_else(Settings::default, |text| parse_old(&text));
                settings.file = file;
                settings
            }
            Err(e) => {
                let problem =
                    format!("Could not read the settings file {}: {e}. Using the default settings.", file.display());
                warn!("{problem}");
                Settings { file, problem: Some(problem), keep_file: true, ..Settings::default() }
            }
        }
    }

    /// Reads `file` alone.
    pub fn read(file: PathBuf) -> Settings {
        Settings::read_or_old(file, &[])
    }

    fn parse(file: PathBuf, text: &str) -> Settings {
        match serde_json::from_str::<Settings>(text) {
            Ok(mut settings) => {
                settings.file = file;
                if !UI_SCALE_RANGE.contains(&settings.ui_scale) {
                    warn!(
                        "{}: ui_scale {} is outside {UI_SCALE_RANGE:?}; using 1.0",
                        settings.file.display(),
                        settings.ui_scale
                    );
                    settings.ui_scale = 1.0;
                }
                if let Some(place) = settings.window.filter(|p| !p.sane()) {
                    warn!(
                        "{}: the window's place {place:?} is not a window's; using the default",
                        settings.file.display()
                    );
                    settings.window = None;
                }
                if let Err(e) = depths_net::Relays::parse(&settings.relay) {
                    // The file says where online play goes: the player is told.
                    let problem = format!("{}: relay: {e}. Using the public relays.", settings.file.display());
                    warn!("{problem}");
                    settings.problem = Some(problem);
                    settings.relay = Settings::default().relay;
                }
                // A name or invite that is not one (the file edited by hand) is forgotten.
                let name = |t: &str| depths_net::protocol::normal_name(t).map(drop);
                let file = &settings.file;
                forget_unless(file, "player_name", &mut settings.player_name, name);
                forget_unless(file, "last_invite", &mut settings.last_invite, |t| {
                    depths_net::Invite::parse(t).map(drop)
                });
                forget_unless(file, "last_host", &mut settings.last_host, name);
                for (name, volume, default) in [
                    ("master_volume", &mut settings.master_volume, Settings::default().master_volume),
                    ("music_volume", &mut settings.music_volume, Settings::default().music_volume),
                ] {
                    if !(0.0..=1.0).contains(volume) {
                        warn!("{}: {name} {volume} is outside 0..=1; using {default}", settings.file.display());
                        *volume = default;
                    }
                }
                settings
            }
            Err(e) => {
                let (problem, keep_file) = match keep_copy(&file) {
                    Ok(copy) => (
                        format!(
                            "The settings file {} does not read ({e}). Using the default settings; \
                             the file is kept as {}.",
                            file.display(),
                            copy.display()
                        ),
                        false,
                    ),
                    Err(copy_error) => (
                        format!(
                            "The settings file {} does not read ({e}), and no copy of it could be kept \
                             ({copy_error}). Using the default settings without saving them over it.",
                            file.display()
                        ),
                        true,
                    ),
                };
                warn!("{problem}");
                Settings { file, problem: Some(problem), keep_file, ..Settings::default() }
            }
        }
    }

    /// Writes the file, a failure only logged: the setting holds for this
    /// run either way.
    pub fn keep(&self) {
        if let Err(e) = self.write() {
            warn!("could not write {}: {e}", self.file.display());
        }
    }

    pub fn write(&self) -> std::io::Result<()> {
        if self.keep_file {
            return Err(std::io::Error::other(format!(
                "{} did not read and has no copy; it is left as it is",
                self.file.display()
            )));
        }
        let text = serde_json::to_string_pretty(self).expect("settings always serialize");
        crate::game::saves::write_atomic(&self.file, &format!("{text}\n"))
    }
}

/// Empties `value`, the file's `field`, where it is set and `check` refuses it, saying why.
fn forget_unless(file: &Path, field: &str, value: &mut String, check: impl Fn(&str) -> Result<(), String>) {
    if !value.is_empty()
        && let Err(e) = check(value)
    {
        warn!("{}: {field}: {e}; forgotten", file.display());
        value.clear();
    }
}

/// Copies a settings file that does not read to `FILE.bad` (or `FILE.bad-2`,
/// … when an earlier, different one is there) before anything can write
/// over it; the same bad file seen again is not copied twice.
fn keep_copy(file: &Path) -> std::io::Result<PathBuf> {
    let bytes = std::fs::read(file)?;
    let name = file.file_name().map_or_else(|| "settings".into(), |n| n.to_string_lossy().into_owned());
    for n in 1..100 {
        let copy = file.with_file_name(if n == 1 { format!("{name}.bad") } else { format!("{name}.bad-{n}") });
        match std::fs::read(&copy) {
            Ok(kept) if kept == bytes => return Ok(copy),
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::write(&copy, &bytes)?;
                return Ok(copy);
            }
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other("too many copies of bad settings files beside it"))
}

/// Earlier versions' `settings.txt`: `ui_scale = 1.3` and `curtain = true` lines.
fn parse_old(text: &str) -> Settings {
    let mut settings = Settings::default();
    for (key, value) in text.lines().filter_map(|l| l.split_once('=')) {
        match (key.trim(), value.trim()) {
            ("ui_scale", v) => {
                if let Ok(v) = v.parse::<f32>()
                    && UI_SCALE_RANGE.contains(&v)
                {
                    settings.ui_scale = v;
                }
            }
            ("curtain", v) => settings.curtain = v == "true",
            _ => {}
        }
    }
    settings
}

pub(super) fn plugin(app: &mut App) {
    let mut settings = Settings::load();
    trust_relay(&mut settings);
    app.insert_resource(settings);
    app.add_systems(Update, tell_problem_on_menu.in_set(crate::PlaySystems::Present).run_if(in_state(Screen::Menu)));
}

/// Trusts the own relay's certificate the settings name (before any
/// connection); a file that is not one is told on the menu, and online play
/// goes on with the public roots alone.
fn trust_relay(settings: &mut Settings) {
    let path = settings.relay_certificate.trim();
    if path.is_empty() {
        return;
    }
    if let Err(e) = depths_net::transport::trust_relay_certificate(Path::new(path)) {
        let problem =
            format!("{}: relay_certificate: {e}. Your relay's certificate is not trusted.", settings.file.display());
        warn!("{problem}");
        settings.problem.get_or_insert(problem);
    }
}

/// A settings file that did not read is named on the menu once.
fn tell_problem_on_menu(settings: Res<Settings>, mut notice: ResMut<MenuNotice>, mut told: Local<bool>) {
    if !*told {
        *told = true;
        if notice.0.is_none() {
            notice.0.clone_from(&settings.problem);
        }
    }
}

/// Where the window stood and how large it was.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct WindowPlace {
    /// Its inside, in logical pixels.
    pub width: f32,
    pub height: f32,
    /// Its top-left corner on the desktop, in physical pixels.
    pub x: i32,
    pub y: i32,
}

impl WindowPlace {
    /// The sizes a window may have (a file may say anything).
    pub const SIDES: std::ops::RangeInclusive<f32> = 400.0..=16_384.0;

    /// A size a window can have, at a place on some desktop.
    pub fn sane(&self) -> bool {
        let far = -100_000..=100_000;
        Self::SIDES.contains(&self.width)
            && Self::SIDES.contains(&self.height)
            && far.contains(&self.x)
            && far.contains(&self.y)
    }
}

/// The colour vision the colours that carry a meaning on their own (a
/// pair's outcome, good and bad news, Health left) are chosen for; the
/// palette of each is in `theme::palette::Signals`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Vision {
    #[default]
    Typical,
    /// Deuteranopia and protanopia: red and green are hard to tell apart.
    RedGreen,
    /// Tritanopia: blue and yellow are hard to tell apart.
    BlueYellow,
}

impl Vision {
    pub const ALL: [Vision; 3] = [Vision::Typical, Vision::RedGreen, Vision::BlueYellow];

    pub fn name(self) -> &'static str {
        match self {
            Vision::Typical => "Typical",
            Vision::RedGreen => "Red-green",
            Vision::BlueYellow => "Blue-yellow",
        }
    }

    pub fn hint(self) -> &'static str {
        match self {
            Vision::Typical => "Green for the Heroes' good news, red for the bad",
            Vision::RedGreen => {
                "For deuteranopia and protanopia: blue for the Heroes' good news, orange for the bad, \
                 yellow between"
            }
            Vision::BlueYellow => "For tritanopia: teal for the Heroes' good news, rose for the bad, white between",
        }
    }
}

/// How long a Companion waits before each move, so the players can follow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Speed {
    Slow,
    #[default]
    Normal,
    Fast,
    Instant,
}

impl Speed {
    pub const ALL: [Speed; 4] = [Speed::Slow, Speed::Normal, Speed::Fast, Speed::Instant];

    /// The pause before each move, in seconds.
    /// How much of a revealed card's reading time a Companion waits.
    pub fn reading_share(self) -> f32 {
        match self {
            Speed::Slow => 1.5,
            Speed::Normal => 1.0,
            Speed::Fast => 0.4,
            Speed::Instant => 0.0,
        }
    }

    pub fn delay(self) -> f32 {
        match self {
            Speed::Slow => 1.5,
            Speed::Normal => 0.8,
            Speed::Fast => 0.3,
            Speed::Instant => 0.0,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Speed::Slow => "Slow",
            Speed::Normal => "Normal",
            Speed::Fast => "Fast",
            Speed::Instant => "Instant",
        }
    }

    pub fn hint(self) -> &'static str {
        match self {
            Speed::Slow => "1.5 seconds between a Companion's moves",
            Speed::Normal => "0.8 seconds between a Companion's moves",
            Speed::Fast => "0.3 seconds between a Companion's moves",
            Speed::Instant => "Companions move at once",
        }
    }
}

/// This build plays sound.
pub const AVAILABLE: bool = cfg!(any(feature = "sound", not(target_os = "linux")));

/// What the Settings window says in a build without sound: a player's
/// words (a path into the docs read like a note to a developer; the
/// docs say how to build with sound).
pub const NO_SOUND: &str = "This copy of the game plays no sound.";

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("fd-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn the_settings_file_is_json_in_the_config_folder() {
        let file = default_file();
        assert_eq!(file.file_name().unwrap(), "settings.json");
        assert_eq!(Some(file.parent().unwrap()), crate::game::saves::project_dirs().as_ref().map(|d| d.config_dir()));
    }

    #[test]
    fn the_settings_are_remembered() {
        let dir = temp("settings");
        let file = dir.join("settings.json");
        let mut s = Settings::read(file.clone());
        assert_eq!(s.ui_scale, 1.0, "default without a file");
        assert!(!s.curtain, "the curtain is off unless asked for");
        assert_eq!(s.problem, None, "no file is no problem");
        s.ui_scale = 1.3;
        s.curtain = true;
        s.open = true;
        s.write().unwrap();
        let text = std::fs::read_to_string(&file).unwrap();
        let stored: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            stored,
            serde_json::json!({
                "ui_scale": 1.3,
                "curtain": true,
                "companion_speed": "normal",
                "companion_strength": "careful",
                "strong_hints": false,
                "master_volume": 0.8,
                "music_volume": 0.6,
                "muted": false,
                "window": null,
                "fullscreen": false,
                "vision": "typical",
                "relay": "public",
                "player_name": "",
                "last_invite": "",
                "last_host": "",
                "relay_certificate": ""
            }),
            "{text}"
        );
        let again = Settings::read(file.clone());
        assert_eq!((again.ui_scale, again.curtain, again.open), (1.3, true, false));
        assert_eq!(again.file, file);
        let mut s = again;
        s.companion_speed = Speed::Fast;
        s.companion_strength = depths_seats::seats::Strength::Planning;
        s.write().unwrap();
        let again = Settings::read(file.clone());
        assert_eq!(
            (again.companion_speed, again.companion_strength),
            (Speed::Fast, depths_seats::seats::Strength::Planning)
        );

        // A missing field keeps its default; an unknown one is ignored.
        std::fs::write(&file, r#"{ "curtain": true, "volume": 3 }"#).unwrap();
        let s = Settings::read(file.clone());
        assert_eq!((s.ui_scale, s.curtain, s.problem), (1.0, true, None));
        std::fs::write(&file, r#"{ "ui_scale": 40.0 }"#).unwrap();
        assert_eq!(Settings::read(file.clone()).ui_scale, 1.0, "an absurd scale keeps the default");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A restarted game remembers the player's name and the invite of the
    /// table they joined (the form came back empty: "Give your name first.");
    /// a name or invite edited into something else is forgotten, the rest kept.
    #[test]
    fn the_players_name_and_last_invite_are_remembered_and_nonsense_forgotten() {
        let dir = temp("online-settings");
        let file = dir.join("settings.json");
        let mut s = Settings::read(file.clone());
        assert_eq!((s.player_name.as_str(), s.last_invite.as_str()), ("", ""), "the defaults");
        let invite = depths_net::Invite::new(depths_net::transport::EndpointAddr::from(
            depths_net::transport::SecretKey::generate().public(),
        ))
        .text();
        (s.player_name, s.last_invite) = ("Bo".into(), invite.clone());
        s.write().unwrap();
        let again = Settings::read(file.clone());
        assert_eq!((again.player_name.as_str(), again.last_invite.as_str()), ("Bo", invite.as_str()));
        std::fs::write(&file, r#"{ "curtain": true, "player_name": "Bo<b>", "last_invite": "zzz" }"#).unwrap();
        let s = Settings::read(file.clone());
        assert_eq!((s.player_name.as_str(), s.last_invite.as_str(), s.curtain), ("", "", true), "{:?}", s.problem);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A relay certificate that is not one is told on the menu (online play
    /// goes on without it), never a crash; none named, nothing said.
    #[test]
    fn a_relay_certificate_that_is_not_one_is_told() {
        let dir = temp("relay-ca-settings");
        let mut s = Settings::read(dir.join("settings.json"));
        trust_relay(&mut s);
        assert_eq!(s.problem, None);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("relay.der"), "not a certificate").unwrap();
        s.relay_certificate = dir.join("relay.der").display().to_string();
        trust_relay(&mut s);
        let problem = s.problem.unwrap_or_default();
        assert!(problem.contains("relay_certificate") && problem.contains("not a DER certificate"), "{problem}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The window's place and fullscreen are remembered; a place no window
    /// could have (a hostile or broken file) is refused, the rest kept.
    #[test]
    fn the_windows_place_is_remembered_and_an_absurd_one_refused() {
        let dir = temp("window-settings");
        let file = dir.join("settings.json");
        let mut s = Settings::read(file.clone());
        assert_eq!((s.window, s.fullscreen), (None, false), "the defaults");
        let place = WindowPlace { width: 1200.0, height: 700.0, x: 80, y: -20 };
        (s.window, s.fullscreen) = (Some(place), true);
        s.write().unwrap();
        let again = Settings::read(file.clone());
        assert_eq!((again.window, again.fullscreen), (Some(place), true));
        for absurd in [
            r#"{ "window": { "width": 1e12, "height": 700, "x": 0, "y": 0 }, "curtain": true }"#,
            r#"{ "window": { "width": 1200, "height": 3, "x": 0, "y": 0 }, "curtain": true }"#,
            r#"{ "window": { "width": 1200, "height": 700, "x": 2000000000, "y": 0 }, "curtain": true }"#,
        ] {
            std::fs::write(&file, absurd).unwrap();
            let s = Settings::read(file.clone());
            assert_eq!((s.window, s.curtain, s.problem), (None, true, None), "{absurd}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The colour vision is remembered; a file from before it reads as
    /// typical vision, and a vision the game does not know is refused.
    #[test]
    fn the_colour_vision_is_remembered() {
        let dir = temp("vision-settings");
        let file = dir.join("settings.json");
        let mut s = Settings::read(file.clone());
        assert_eq!(s.vision, Vision::Typical, "the default");
        s.vision = Vision::RedGreen;
        s.write().unwrap();
        assert!(std::fs::read_to_string(&file).unwrap().contains(r#""vision": "red_green""#));
        assert_eq!(Settings::read(file.clone()).vision, Vision::RedGreen);
        std::fs::write(&file, r#"{ "curtain": true }"#).unwrap();
        assert_eq!(Settings::read(file.clone()).vision, Vision::Typical);
        std::fs::write(&file, r#"{ "vision": "ultraviolet" }"#).unwrap();
        let s = Settings::read(file.clone());
        assert_eq!(s.vision, Vision::Typical);
        assert!(s.problem.is_some_and(|p| p.contains("ultraviolet")), "the player is told");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_relay_is_remembered_and_a_bad_one_named() {
        let dir = temp("relay-settings");
        let file = dir.join("settings.json");
        let mut s = Settings::read(file.clone());
        assert_eq!(s.relay, "public", "the default");
        s.relay = "https://relay.example.org./".into();
        s.write().unwrap();
        assert_eq!(Settings::read(file.clone()).relay, "https://relay.example.org./");
        std::fs::write(&file, r#"{ "relay": "relay example" }"#).unwrap();
        let s = Settings::read(file.clone());
        assert_eq!(s.relay, "public");
        assert!(s.problem.is_some_and(|p| p.contains("relay example")), "the player is told");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_sound_settings_are_remembered_and_older_files_still_read() {
        let dir = temp("sound-settings");
        let file = dir.join("settings.json");
        let mut s = Settings::read(file.clone());
        assert_eq!((s.master_volume, s.music_volume, s.muted), (0.8, 0.6, false), "the defaults");
        (s.master_volume, s.music_volume, s.muted) = (0.5, 0.25, true);
        s.write().unwrap();
        let again = Settings::read(file.clone());
        assert_eq!((again.master_volume, again.music_volume, again.muted), (0.5, 0.25, true));

        // A file from before sound: the sound's defaults, the rest as it was.
        std::fs::write(
            &file,
            r#"{ "ui_scale": 1.3, "curtain": true, "companion_speed": "fast", "strong_hints": true }"#,
        )
        .unwrap();
        let old = Settings::read(file.clone());
        assert_eq!((old.ui_scale, old.curtain, old.strong_hints, old.problem), (1.3, true, true, None));
        assert_eq!((old.master_volume, old.music_volume, old.muted), (0.8, 0.6, false));

        // Volumes out of range keep their defaults; a good one stays.
        std::fs::write(&file, r#"{ "master_volume": 7.5, "music_volume": 0.3 }"#).unwrap();
        let s = Settings::read(file.clone());
        assert_eq!((s.master_volume, s.music_volume, s.problem), (0.8, 0.3, None));
        std::fs::write(&file, r#"{ "music_volume": -1 }"#).unwrap();
        assert_eq!(Settings::read(file.clone()).music_volume, 0.6);
        // A volume of the wrong type makes the file unreadable, like any other field.
        std::fs::write(&file, r#"{ "muted": "yes" }"#).unwrap();
        assert!(Settings::read(file).problem.is_some());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_corrupt_file_is_named_kept_and_replaced_only_by_a_change() {
        let dir = temp("bad-settings");
        let file = dir.join("settings.json");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&file, "ui_scale = nonsense\n").unwrap();
        let mut s = Settings::read(file.clone());
        assert_eq!((s.ui_scale, s.curtain), (1.0, false), "the defaults");
        let problem = s.problem.clone().expect("the player is told");
        assert!(problem.contains(&file.display().to_string()), "{problem}");
        let copy = dir.join("settings.json.bad");
        assert!(problem.contains(&copy.display().to_string()), "{problem}");
        assert_eq!(std::fs::read_to_string(&copy).unwrap(), "ui_scale = nonsense\n");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "ui_scale = nonsense\n", "reading changes nothing");

        // Reading it again keeps one copy; another bad file gets a copy of its own.
        Settings::read(file.clone());
        std::fs::write(&file, "{ \"ui_scale\": ").unwrap();
        Settings::read(file.clone());
        assert_eq!(std::fs::read_to_string(dir.join("settings.json.bad-2")).unwrap(), "{ \"ui_scale\": ");
        assert_eq!(std::fs::read_to_string(&copy).unwrap(), "ui_scale = nonsense\n");
        assert!(!dir.join("settings.json.bad-3").exists());

        // Changing a setting writes a good file; the copies stay.
        s.ui_scale = 1.15;
        s.write().unwrap();
        let fixed = Settings::read(file.clone());
        assert_eq!((fixed.ui_scale, fixed.problem), (1.15, None));
        assert!(copy.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_without_a_copy_is_never_written_over() {
        let s = Settings { file: PathBuf::from("/nowhere/settings.json"), keep_file: true, ..Settings::default() };
        assert!(s.write().is_err());
    }

    #[test]
    fn earlier_versions_settings_are_read_when_there_is_no_new_file() {
        let dir = temp("old-settings");
        std::fs::create_dir_all(&dir).unwrap();
        let (file, old) = (dir.join("config/settings.json"), dir.join("settings.txt"));
        std::fs::write(&old, "ui_scale = 1.3\ncurtain = true\n").unwrap();
        let s = Settings::read_or_old(file.clone(), &[dir.join("missing.txt"), old.clone()]);
        assert_eq!((s.ui_scale, s.curtain, &s.file), (1.3, true, &file));
        assert!(!file.exists(), "reading writes nothing");
        s.write().unwrap();
        assert!(Settings::read_or_old(file, std::slice::from_ref(&old)).curtain);
        assert_eq!(std::fs::read_to_string(&old).unwrap(), "ui_scale = 1.3\ncurtain = true\n", "left as it was");
        assert_eq!(parse_old("ui_scale = nonsense\n").ui_scale, 1.0, "nonsense keeps the default");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Issue 53: three Ctrl+minus presses moved the UI scale one step.
    #[test]
    fn each_zoom_key_press_is_one_ui_scale_step() {
        assert_eq!(super::step_scale(1.0, -1), 0.9);
        assert_eq!(super::step_scale(1.0, -3), 0.8, "no smaller than the least");
        assert_eq!(super::step_scale(1.0, 1), 1.15);
        assert_eq!(super::step_scale(1.0, 3), 1.5);
        assert_eq!(super::step_scale(1.5, 1), 1.5);
        assert_eq!(super::step_scale(1.2, 1), 1.3, "between steps, to the next up");
        assert_eq!(super::step_scale(1.2, -1), 1.15);
    }
}
