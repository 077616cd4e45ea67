//! Taking moves back: a move that revealed nothing can be undone exactly and
//! redone; none can be undone past a move that revealed something.

use depths_rules::event::revealed;
use depths_rules::{Action, Content, Game, GameOptions, History, UndoRefused};
use depths_sim::{Bot, HeuristicBot};

fn new_game(seed: u64) -> Game {
    Game::new(GameOptions::standard(&["bren", "sil"], seed), Content::builtin().unwrap()).unwrap()
}

/// One to three Heroes, any Ecology to start in, the book's variants at random.
fn any_game(seed: u64) -> Game {
    Game::new(depths_tests::random_options(seed), Content::builtin().unwrap()).unwrap()
}

/// The careful bot's move, or now and then another legal one, so that
/// purchases, equips and odd choices are made too.
fn next_move(g: &Game, step: u64) -> Action {
    let legal = g.legal_actions();
    if step.is_multiple_of(5) && !legal.is_empty() {
        return legal[(step as usize / 5) % legal.len()].clone();
    }
    HeuristicBot.choose(g)
}

/// The legal moves as a set (a pile's cards are listed in the pile's order).
fn choices(g: &Game) -> Vec<String> {
    let mut all: Vec<String> = g.legal_actions().iter().map(|a| format!("{a:?}")).collect();
    all.sort();
    all
}

/// A move is classified as revealing nothing only if its outcome is the same
/// in every world the players cannot tell apart from the real one: applied to
/// games whose face-down orders (and generator) are dealt afresh, it gives the
/// same events and leaves the same choices.
#[test]
fn a_move_that_reveals_nothing_has_the_same_outcome_in_every_hidden_order() {
    let (mut quiet, mut revealing) = (0, 0);
    for seed in 1..=24u64 {
        let mut g = if seed.is_multiple_of(2) { new_game(seed) } else { any_game(seed) };
        for step in 0..400 {
            if g.is_over() {
                break;
            }
            let a = next_move(&g, step);
            let before = g.clone();
            let events = g.apply(a.clone()).unwrap();
            if revealed(&events).is_some() {
                revealing += 1;
                continue;
            }
            quiet += 1;
            for world in [11, 12] {
                let mut other = before.determinized(world);
                let theirs = other.apply(a.clone()).expect("legal in every world");
                assert_eq!(theirs, events, "seed {seed} step {step}: {a:?} depends on a hidden order");
                assert_eq!(
                    choices(&other),
                    choices(&g),
                    "seed {seed} step {step}: {a:?} {events:?} {:?} / {:?}",
                    g.pending(),
                    other.pending()
                );
            }
        }
    }
    assert!(quiet > 500 && revealing > 200, "{quiet} quiet and {revealing} revealing moves were checked");
}

#[test]
fn undo_restores_the_game_exactly_and_redo_makes_the_move_again() {
    let mut checked = 0;
    for seed in 1..=6 {
        let mut g = new_game(seed);
        let mut history = History::default();
        assert_eq!(history.undo(&mut g), Err(UndoRefused::NoMove));
        for step in 0..300 {
            if g.is_over() {
                break;
            }
            let a = next_move(&g, step);
            let before = g.clone();
            let events = history.apply(&mut g, a.clone()).unwrap();
            let after = g.clone();
            match revealed(&events) {
                Some(reveal) => {
                    // The line: nothing before it can be taken back.
                    assert_eq!(history.undo(&mut g), Err(UndoRefused::Revealed(reveal)));
                    assert_eq!(g, after, "a refused undo changes nothing");
                }
                None => {
                    assert_eq!(history.undo(&mut g), Ok(a.clone()));
                    assert_eq!(g, before, "seed {seed} step {step}: undo restores the game, generator included");
                    let (again, redone) = history.redo(&mut g).unwrap();
                    assert_eq!((again, redone), (a, events));
                    assert_eq!(g, after, "redo makes the same move");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 300, "{checked} undos checked");
}

#[test]
fn undo_goes_back_move_by_move_to_the_last_reveal_and_a_new_move_forgets_the_redo() {
    let mut g = new_game(3);
    let mut history = History::default();
    // Play until three quiet moves in a row are on the history.
    let mut snapshots = Vec::new();
    for step in 0..2000 {
        if history.undoable() == 3 {
            break;
        }
        snapshots.push(g.clone());
        let a = next_move(&g, step);
        history.apply(&mut g, a).unwrap();
        if history.undoable() == 0 {
            snapshots.clear();
        }
    }
    assert_eq!(history.undoable(), 3, "three quiet moves in a row were found");
    let last = snapshots.len();
    for back in 1..=3 {
        history.undo(&mut g).unwrap();
        assert_eq!(g, snapshots[last - back], "{back} moves back");
    }
    assert!(matches!(history.undo(&mut g), Err(UndoRefused::Revealed(_)) | Err(UndoRefused::NoMove)));
    assert!(history.next_redo().is_some());
    let a = next_move(&g, 1);
    history.apply(&mut g, a).unwrap();
    assert_eq!(history.next_redo(), None, "a new move forgets what was taken back");
    assert_eq!(history.redo(&mut g).map(|_| ()), Err(UndoRefused::NothingToRedo));
}

/// A tried game: Undo on the game-over sheet took the Victory back (and a
/// table of Companions then waited for a person). A game's end is final:
/// the move that ended it, won or lost, cannot be taken back.
#[test]
fn the_move_that_ends_the_game_cannot_be_taken_back() {
    let (mut won, mut lost) = (0, 0);
    for seed in 1..=12 {
        let mut g = any_game(seed);
        let mut history = History::default();
        for step in 0..6000 {
            if g.is_over() {
                break;
            }
            let a = next_move(&g, step);
            history.apply(&mut g, a).unwrap();
        }
        if !g.is_over() {
            continue;
        }
        if matches!(g.phase(), depths_rules::Phase::Won) {
            won += 1
        } else {
            lost += 1
        }
        let over = g.clone();
        assert_eq!(history.undo(&mut g), Err(UndoRefused::Revealed(depths_rules::Reveal::End)), "seed {seed}");
        assert_eq!(g, over, "seed {seed}: the ended game is unchanged");
    }
    assert!(won + lost >= 8 && lost >= 1, "{won} won, {lost} lost");
}

#[test]
fn an_illegal_move_changes_neither_the_game_nor_the_history() {
    let mut g = new_game(5);
    let mut history = History::default();
    let a = next_move(&g, 1);
    history.apply(&mut g, a).unwrap();
    let (game, kept) = (g.clone(), history.clone());
    assert!(history.apply(&mut g, Action::Descend).is_err());
    assert_eq!((g, history), (game, kept));
}
