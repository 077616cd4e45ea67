//! Command line options.

use std::path::PathBuf;

use bevy::prelude::*;

pub const USAGE: &str = "\
Forgotten Depths — cooperative tile-laying dungeon board game

Usage: forgotten-depths [OPTIONS]

Options:
  --seed N           seed of the new game (default: time-based)
  --new-game         skip the menus: a standard game with Bren and Sil
  --load FILE        skip the menus and play this saved game
  --screenshot FILE  open straight on the board, save a PNG of the first
                     complete frame to FILE, check it is not blank, and exit
                     (non-zero status if it is blank or could not be saved)
  --open SCREEN      open on the menu or on setup (New Game) instead of the
                     board; with --screenshot, that screen is captured
  --frame-bench N    open straight on the board, pan it for N frames and
                     print the frame times (mean, median, 95th percentile)
  -h, --help         print this help
";

/// What the command line asked for.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub seed: Option<u64>,
    /// Skip the main menu.
    pub new_game: bool,
    pub screenshot: Option<PathBuf>,
    /// A save to open straight away.
    pub load: Option<PathBuf>,
    /// Time this many frames of the board moving, print them, exit.
    pub frame_bench: Option<usize>,
    /// Open on this screen rather than the board.
    pub open: Option<OpenScreen>,
}

/// A screen `--open` can start on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpenScreen {
    Menu,
    Setup,
}

/// What to do after parsing.
#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    Run(Options),
    Help,
}

/// Parses the arguments after the program name.
pub fn parse<I, S>(args: I) -> Result<Command, String>
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    let mut options = Options::default();
    let mut args = args.into_iter().map(Into::into);
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag.to_owned(), Some(value.to_owned())),
            _ => (arg.clone(), None),
        };
        let mut value =
            |name: &str| inline.clone().or_else(|| args.next()).ok_or_else(|| format!("{name} needs a value"));
        match flag.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "--seed" => {
                let v = value("--seed")?;
                let seed = v.parse().map_err(|_| format!("--seed expects a whole number, got {v:?}"))?;
                options.seed = Some(seed);
            }
            "--new-game" => options.new_game = true,
            "--load" => options.load = Some(PathBuf::from(value("--load")?)),
            "--screenshot" => options.screenshot = Some(PathBuf::from(value("--screenshot")?)),
            "--open" => {
                options.open = Some(match value("--open")?.as_str() {
                    "menu" => OpenScreen::Menu,
                    "setup" => OpenScreen::Setup,
                    other => return Err(format!("--open expects menu or setup, got {other:?}")),
                });
            }
            "--frame-bench" => {
                let v = value("--frame-bench")?;
                let n = v.parse().ok().filter(|n| *n > 0);
                options.frame_bench =
                    Some(n.ok_or_else(|| format!("--frame-bench expects a number of frames, got {v:?}"))?);
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(Command::Run(options))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_seed_and_screenshot() {
        let cmd = parse(["--seed", "42", "--screenshot=out.png", "--new-game"]).unwrap();
        assert_eq!(
            cmd,
            Command::Run(Options {
                seed: Some(42),
                new_game: true,
                screenshot: Some("out.png".into()),
                load: None,
                frame_bench: None,
                open: None
            })
        );
        assert_eq!(parse(Vec::<String>::new()).unwrap(), Command::Run(Options::default()));
        assert_eq!(parse(["-h"]).unwrap(), Command::Help);
    }

    #[test]
    fn rejects_bad_input() {
        assert!(parse(["--seed", "x"]).is_err());
        assert!(parse(["--seed"]).is_err());
        assert!(parse(["--frobnicate"]).is_err());
        assert!(parse(["--frame-bench", "0"]).is_err());
        assert!(parse(["--open", "board"]).is_err());
        assert_eq!(
            parse(["--open", "setup"]).unwrap(),
            Command::Run(Options { open: Some(OpenScreen::Setup), ..Options::default() })
        );
    }
}
