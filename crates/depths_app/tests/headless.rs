//! The client's logic without a window or GPU: `MinimalPlugins` + `StatesPlugin`
//! + the non-render plugins, driven through menu actions.

use bevy::{prelude::*, state::app::StatesPlugin};
use depths_app::{
    board::{Board, BoardTile, LanternToken, cell_center, lantern_position},
    cli::Options,
    core_plugin,
    demo_map::{DEMO_CELLS, DemoMap},
    screens::{
        Screen,
        menu::{MenuAction, MenuNotice},
        playing::GameSeed,
    },
};

fn headless_app(seed: u64) -> App {
    let mut app = app_with(Options {
        seed: Some(seed),
        ..Options::default()
    });
    // Loading is driven by the asset loader, which needs a renderer-backed
    // AssetServer; start these tests on the menu.
    assert_eq!(screen(&app), Screen::Loading);
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Menu);
    app.update();
    assert_eq!(screen(&app), Screen::Menu);
    app
}

fn app_with(options: Options) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin));
    app.insert_resource(options);
    app.add_plugins(core_plugin);
    app.update();
    app
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

fn choose(app: &mut App, action: MenuAction) {
    app.world_mut().write_message(action);
    // One frame applies the action, the next runs the state transition.
    app.update();
    app.update();
}

fn tile_cells(app: &mut App) -> Vec<(depths_app::demo_map::Cell, Vec3)> {
    let mut cells: Vec<_> = app
        .world_mut()
        .query::<(&BoardTile, &Transform)>()
        .iter(app.world())
        .map(|(t, tr)| (t.cell, tr.translation))
        .collect();
    cells.sort_by_key(|(c, _)| *c);
    cells
}

#[test]
fn new_game_goes_from_menu_to_the_board_and_deals_the_demo_tiles() {
    let mut app = headless_app(7);
    assert!(tile_cells(&mut app).is_empty(), "no tiles on the menu");

    choose(&mut app, MenuAction::NewGame);
    assert_eq!(screen(&app), Screen::Playing);
    assert_eq!(app.world().resource::<GameSeed>().0, 7);
    assert_eq!(app.world().resource::<Board>().0, DemoMap::new(7));

    let cells = tile_cells(&mut app);
    let mut expected = DEMO_CELLS.to_vec();
    expected.sort();
    assert_eq!(cells.iter().map(|(c, _)| *c).collect::<Vec<_>>(), expected);
    for (cell, translation) in &cells {
        assert_eq!(
            translation.truncate(),
            cell_center(*cell),
            "tile {cell:?} misplaced"
        );
    }

    let lanterns: Vec<Vec3> = app
        .world_mut()
        .query_filtered::<&Transform, With<LanternToken>>()
        .iter(app.world())
        .map(|t| t.translation)
        .collect();
    assert_eq!(lanterns.len(), 1, "exactly one Lantern");
    assert_eq!(
        Some(lanterns[0].truncate()),
        lantern_position(&DemoMap::new(7))
    );

    // Further frames spawn nothing twice.
    app.update();
    assert_eq!(tile_cells(&mut app).len(), DEMO_CELLS.len());
}

#[test]
fn back_to_menu_clears_the_board() {
    let mut app = headless_app(3);
    choose(&mut app, MenuAction::NewGame);
    assert_eq!(tile_cells(&mut app).len(), DEMO_CELLS.len());

    choose(&mut app, MenuAction::BackToMenu);
    assert_eq!(screen(&app), Screen::Menu);
    assert!(
        tile_cells(&mut app).is_empty(),
        "tiles despawn on leaving the board"
    );
    assert!(!app.world().contains_resource::<Board>());
    let lanterns = app
        .world_mut()
        .query_filtered::<(), With<LanternToken>>()
        .iter(app.world())
        .count();
    assert_eq!(lanterns, 0);

    // And a new game deals again.
    choose(&mut app, MenuAction::NewGame);
    assert_eq!(tile_cells(&mut app).len(), DEMO_CELLS.len());
}

#[test]
fn unbacked_menu_entries_say_so_and_stay_on_the_menu() {
    let mut app = headless_app(1);
    for action in [MenuAction::Continue, MenuAction::Load, MenuAction::Rules] {
        app.world_mut().resource_mut::<MenuNotice>().0 = None;
        choose(&mut app, action);
        assert_eq!(screen(&app), Screen::Menu);
        let notice = app
            .world()
            .resource::<MenuNotice>()
            .0
            .clone()
            .unwrap_or_default();
        assert!(
            notice.contains("not yet available"),
            "{action:?}: {notice:?}"
        );
    }
}

#[test]
fn quit_asks_the_app_to_exit() {
    let mut app = headless_app(1);
    assert!(app.should_exit().is_none());
    choose(&mut app, MenuAction::Quit);
    assert_eq!(app.should_exit(), Some(AppExit::Success));
}

#[test]
fn new_game_flag_skips_the_menu_once() {
    let mut app = app_with(Options {
        seed: Some(5),
        new_game: true,
        ..Options::default()
    });
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Menu);
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(screen(&app), Screen::Playing);
    assert_eq!(tile_cells(&mut app).len(), DEMO_CELLS.len());

    // Back on the menu, it stays there.
    choose(&mut app, MenuAction::BackToMenu);
    app.update();
    assert_eq!(screen(&app), Screen::Menu);
}
