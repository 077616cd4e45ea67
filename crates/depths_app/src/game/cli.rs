//! Command line options, parsed by clap from the fields below: the doc
//! comments are the help text, clap writes the errors.
//!
//! `--screenshot` and `--frame-bench` are development tools, built only with
//! the cargo feature `dev-tools` (CI and the README's test commands enable
//! it). Without it they are refused with a message naming the feature, and
//! `--help` does not list them.

use std::{ffi::OsString, path::PathBuf};

use bevy::prelude::*;
use clap::{CommandFactory, Parser, ValueEnum, error::ErrorKind};

/// True when this build has the development tools (`--screenshot`, `--frame-bench`).
pub const DEV_TOOLS: bool = cfg!(feature = "dev-tools");

/// Forgotten Depths — cooperative tile-laying dungeon board game
#[derive(Resource, Parser, Clone, Debug, Default, PartialEq, Eq)]
#[command(name = "forgotten-depths")]
pub struct Options {
    /// Seed of the new game (default: time-based)
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Skip the menus: a standard game with Bren and Sil
    #[arg(long)]
    pub new_game: bool,
    /// Skip the menus and play this saved game
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,
    /// Open straight on the board, save a PNG of the first complete frame to
    /// FILE, check it is not blank, and exit (non-zero status if it is blank
    /// or could not be saved)
    #[arg(long, value_name = "FILE", hide = !DEV_TOOLS)]
    pub screenshot: Option<PathBuf>,
    /// Open on the menu or on setup (New Game) instead of the board; with
    /// --screenshot, that screen is captured
    #[arg(long, value_name = "SCREEN", value_enum)]
    pub open: Option<OpenScreen>,
    /// Watch this save's game again from its first move (the replay viewer)
    #[arg(long, value_name = "FILE")]
    pub replay: Option<PathBuf>,
    /// Watch the careful bot play the standard game (Bren and Sil) of this
    /// seed, move by move — the game `depths-sim play --replay N` prints
    #[arg(long, value_name = "N")]
    pub watch_seed: Option<u64>,
    /// Open straight on the board, pan it for N frames and print the frame
    /// times (mean, median, 95th percentile)
    #[arg(long, value_name = "N", value_parser = frame_count, hide = !DEV_TOOLS)]
    pub frame_bench: Option<usize>,
    /// Check the table's health in every state it can reach, at four window
    /// sizes and three UI scales; write the faults to FILE as JSON lines,
    /// print the matrix, and exit non-zero if any check failed
    #[arg(long, value_name = "FILE", hide = !DEV_TOOLS)]
    pub health_check: Option<PathBuf>,
    /// Play Combats move by move at two window sizes and two UI scales and
    /// check that nothing slides under the pointer, the table keeps its
    /// place through a Round and cards in hand grow with the UI scale;
    /// write the faults to FILE as JSON lines, exit non-zero if any
    #[arg(long, value_name = "FILE", hide = !DEV_TOOLS)]
    pub steadiness_check: Option<PathBuf>,
    /// With --frame-bench or --screenshot: draw into an image of WIDTHxHEIGHT
    /// pixels (e.g. 1920x1080) with no window and no display, for a machine
    /// with a GPU and no screen
    #[arg(long, value_name = "WxH", value_parser = image_size, hide = !DEV_TOOLS)]
    pub offscreen: Option<UVec2>,
    /// Stop on a panic once the first frame is drawn, to see what a player
    /// is shown and what the log file keeps
    #[arg(long, hide = !DEV_TOOLS)]
    pub crash: bool,
}

/// A screen `--open` can start on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OpenScreen {
    /// The main menu
    Menu,
    /// The New Game screen
    Setup,
    /// The Statistics screen
    Statistics,
}

fn frame_count(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err("expects a number of frames, 1 or more".into()),
    }
}

/// "1920x1080": both sides from 1 to 8192 pixels (the largest texture side
/// every GPU the engine supports can draw).
fn image_size(text: &str) -> Result<UVec2, String> {
    let side = |t: &str| t.trim().parse::<u32>().ok().filter(|n| (1..=8192).contains(n));
    match text.split_once(['x', 'X']).map(|(w, h)| (side(w), side(h))) {
        Some((Some(w), Some(h))) => Ok(UVec2::new(w, h)),
        _ => Err("expects WIDTHxHEIGHT in pixels, each from 1 to 8192 (e.g. 1920x1080)".into()),
    }
}

/// Parses a whole command line, program name first (as `std::env::args_os`
/// gives it). `-h` / `--help` comes back as an error of kind
/// [`ErrorKind::DisplayHelp`]: `print` it and exit successfully.
pub fn parse_from<I, T>(args: I) -> Result<Options, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let options = Options::try_parse_from(args)?;
    options.refuse_missing_tools(DEV_TOOLS)?;
    Ok(options)
}

impl Options {
    /// A development tool asked of a build without them is an error that
    /// names the feature, not a silent run of the game; so is a window-less
    /// run with no tool to end it.
    fn refuse_missing_tools(&self, dev_tools: bool) -> Result<(), clap::Error> {
        if self.offscreen.is_some() && self.screenshot.is_none() && self.frame_bench.is_none() {
            // A game with no window could not be seen or played.
            return Err(Options::command().error(
                ErrorKind::MissingRequiredArgument,
                "--offscreen only goes with --frame-bench or --screenshot: a game with no window could not be played",
            ));
        }
        if dev_tools {
            return Ok(());
        }
        let asked = [
            ("--screenshot", self.screenshot.is_some()),
            ("--frame-bench", self.frame_bench.is_some()),
            ("--offscreen", self.offscreen.is_some()),
            ("--crash", self.crash),
        ];
        match asked.iter().find(|(_, asked)| *asked) {
            None => Ok(()),
            Some((flag, _)) => Err(Options::command().error(
                ErrorKind::ArgumentConflict,
                format!(
                    "{flag} is a development tool, and this build leaves it out: build with the cargo \
                     feature `dev-tools` (cargo run -p depths_app --features dev-tools -- {flag} …)"
                ),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options, clap::Error> {
        let options = Options::try_parse_from(std::iter::once("forgotten-depths").chain(args.iter().copied()))?;
        // The tools are tested as a build with them has them.
        options.refuse_missing_tools(true)?;
        Ok(options)
    }

    fn error(args: &[&str]) -> String {
        parse(args).expect_err("refused").to_string()
    }

    #[test]
    fn the_options_parse_as_before() {
        assert_eq!(
            parse(&["--seed", "42", "--screenshot=out.png", "--new-game"]).unwrap(),
            Options {
                seed: Some(42),
                new_game: true,
                screenshot: Some("out.png".into()),
                load: None,
                frame_bench: None,
                open: None,
                replay: None,
                watch_seed: None,
                health_check: None,
                steadiness_check: None,
                offscreen: None,
                crash: false,
            }
        );
        assert_eq!(parse(&["--watch-seed", "9"]).unwrap(), Options { watch_seed: Some(9), ..Options::default() });
        assert_eq!(
            parse(&["--replay", "old.json"]).unwrap(),
            Options { replay: Some("old.json".into()), ..Options::default() }
        );
        assert_eq!(parse(&[]).unwrap(), Options::default());
        assert_eq!(parse(&["--seed=7"]).unwrap(), Options { seed: Some(7), ..Options::default() });
        assert_eq!(
            parse(&["--load", "a save.json"]).unwrap(),
            Options { load: Some("a save.json".into()), ..Options::default() }
        );
        assert_eq!(parse(&["--frame-bench", "300"]).unwrap(), Options { frame_bench: Some(300), ..Options::default() });
        assert_eq!(
            parse(&["--frame-bench", "9", "--offscreen", "1920x1080"]).unwrap(),
            Options { frame_bench: Some(9), offscreen: Some(UVec2::new(1920, 1080)), ..Options::default() }
        );
        assert_eq!(
            parse(&["--open", "setup"]).unwrap(),
            Options { open: Some(OpenScreen::Setup), ..Options::default() }
        );
        assert_eq!(parse(&["--open=menu"]).unwrap(), Options { open: Some(OpenScreen::Menu), ..Options::default() });
        assert_eq!(parse(&["--crash"]).unwrap(), Options { crash: true, ..Options::default() });
    }

    #[test]
    fn help_is_asked_for_with_h() {
        for flag in ["-h", "--help"] {
            let help = parse(&[flag]).expect_err("help is shown, not run");
            assert_eq!(help.kind(), ErrorKind::DisplayHelp);
            let text = help.to_string();
            for option in ["--seed <N>", "--new-game", "--load <FILE>", "--open <SCREEN>"] {
                assert!(text.contains(option), "{option} missing from\n{text}");
            }
        }
    }

    #[test]
    fn bad_values_are_refused_with_what_was_expected() {
        let seed = error(&["--seed", "x"]);
        assert!(seed.contains("'x'") && seed.contains("--seed <N>"), "{seed}");
        assert!(error(&["--seed"]).contains("a value is required for '--seed <N>'"));
        assert!(error(&["--frobnicate"]).contains("unexpected argument '--frobnicate'"));
        let frames = error(&["--frame-bench", "0"]);
        assert!(frames.contains("a number of frames, 1 or more"), "{frames}");
        for size in ["1920", "0x1080", "1920x", "axb", "9000x100"] {
            let offscreen = error(&["--frame-bench", "9", "--offscreen", size]);
            assert!(offscreen.contains("WIDTHxHEIGHT"), "{size}: {offscreen}");
        }
        let alone = error(&["--offscreen", "640x480"]);
        assert!(alone.contains("only goes with --frame-bench or --screenshot"), "{alone}");
        let open = error(&["--open", "board"]);
        assert!(open.contains("'board'") && open.contains("[possible values: menu, setup, statistics]"), "{open}");
    }

    #[test]
    fn without_the_feature_the_tools_are_refused_by_name() {
        let shot = Options { screenshot: Some("a.png".into()), ..Options::default() };
        let message = shot.refuse_missing_tools(false).expect_err("refused").to_string();
        assert!(message.contains("--screenshot") && message.contains("`dev-tools`"), "{message}");
        let bench = Options { frame_bench: Some(10), ..Options::default() };
        let message = bench.refuse_missing_tools(false).expect_err("refused").to_string();
        assert!(message.contains("--frame-bench") && message.contains("`dev-tools`"), "{message}");
        let offscreen = Options { offscreen: Some(UVec2::ONE), ..bench };
        assert!(offscreen.refuse_missing_tools(true).is_ok());
        let crash = Options { crash: true, ..Options::default() };
        let message = crash.refuse_missing_tools(false).expect_err("refused").to_string();
        assert!(message.contains("--crash") && message.contains("`dev-tools`"), "{message}");
        let play = Options { seed: Some(3), new_game: true, ..Options::default() };
        assert!(play.refuse_missing_tools(false).is_ok(), "playing needs no tools");
        assert!(shot.refuse_missing_tools(true).is_ok());
    }

    #[test]
    fn clap_accepts_the_definition() {
        Options::command().debug_assert();
    }
}
