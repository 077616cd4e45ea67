//! Play online: host a table (its invite to pass on, the players as they
//! sit down — each may be sent away — which Hero each seat plays and whether
//! a Companion plays it for them, Start) or join one (the invite and a
//! name; Reconnect after a drop). The game itself is the usual board, with
//! `crate::game::online` routing the moves through the host.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use depths_net::{
    HostedGame, Invite, JoinedGame,
    client::{self, Link},
    host::{self, Kick, StartTable},
};
use depths_rules::{Game, GameOptions};
use depths_seats::seats::{Players, same_name};

use crate::{
    PlaySystems,
    game::online::{LobbyOpen, Online, keep_online_pace},
    game::session::{GameContent, Session},
    game::{flow::MenuAction, screen::Screen},
    theme::style,
};

/// What the lobby's fields hold.
#[derive(Resource, Debug, Clone)]
pub struct LobbyForm {
    pub hosting: bool,
    pub name: String,
    pub address: String,
    /// Per Hero (Bren, Sil, Ava): in the game, and the seat that plays it.
    pub heroes: [(bool, usize); 3],
    /// Per Hero: a Companion plays it for its seat (the host runs it).
    pub companions: [bool; 3],
    pub error: Option<String>,
    /// The saves with two or more players, listed once the table is open.
    pub saves: Option<Vec<crate::game::saves::SaveSummary>>,
    /// The saved game to resume instead of a new one.
    pub resume: Option<Resume>,
    /// The seats of `resume` (or none) have been offered to their keys at
    /// the table open now.
    pub offered: bool,
}

/// A saved game the host resumes: its players sit down again by name.
#[derive(Debug, Clone)]
pub struct Resume {
    pub path: std::path::PathBuf,
    pub game: Game,
    pub session: crate::game::saves::SavedSession,
}

impl Default for LobbyForm {
    fn default() -> Self {
        LobbyForm {
            hosting: true,
            name: String::new(),
            address: String::new(),
            heroes: [(true, 0), (true, 1), (false, 0)],
            companions: [false; 3],
            error: None,
            saves: None,
            resume: None,
            offered: false,
        }
    }
}

const HEROES: [(&str, &str); 3] = [("bren", "Bren"), ("sil", "Sil"), ("ava", "Ava")];

/// The host starts the online game: these Heroes (ids), Hero i played by
/// seat `owners[i]` (by a Companion for it where `companions[i]`; empty:
/// none), from `seed`.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct HostStart {
    pub heroes: Vec<String>,
    pub owners: Vec<usize>,
    pub companions: Vec<bool>,
    pub seed: u64,
}

/// The host resumes the saved game chosen in the lobby.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostResume;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LobbyForm>();
    app.init_resource::<RejoinAsked>();
    app.add_message::<HostStart>();
    app.add_message::<HostResume>();
    app.add_systems(Update, resume_hosted.in_set(PlaySystems::Rules).run_if(in_state(Screen::Lobby)));
    app.add_systems(Update, start_hosted.in_set(PlaySystems::Rules).run_if(in_state(Screen::Lobby)));
    app.add_systems(EguiPrimaryContextPass, lobby_ui.run_if(in_state(Screen::Lobby)));
    app.add_systems(OnEnter(Screen::Lobby), fill_in_from_settings);
    app.add_systems(Update, remember_host.in_set(PlaySystems::Present).run_if(resource_changed::<JoinedGame>));
    app.add_systems(Update, sit_down_to_play.in_set(PlaySystems::Rules).run_if(in_state(Screen::Lobby)));
}

impl LobbyForm {
    fn player_name(&self) -> Result<String, String> {
        let name = self.name.trim();
        if name.is_empty() { Err("Give your name first.".into()) } else { Ok(name.to_owned()) }
    }
}

/// This machine's key (its seats) and the relays the player chose.
fn identity(world: &World) -> Result<(depths_net::transport::SecretKey, depths_net::Relays), String> {
    let key = crate::game::online::machine_key(world.resource::<crate::game::saves::SaveDir>())?;
    let relay = world.get_resource::<crate::game::settings::Settings>().map(|s| s.relay.clone()).unwrap_or_default();
    Ok((key, depths_net::Relays::parse(&relay)?))
}

fn open_table(world: &mut World) {
    let form = world.resource::<LobbyForm>().clone();
    let result = (|| {
        let name = form.player_name()?;
        let (key, relays) = identity(world)?;
        host::open(world, key, &relays, &name).map_err(|e| e.to_string())
    })();
    if result.is_ok() {
        remember(world, &form.name, "");
    }
    finish_opening(world, result.map(|_| ()));
}

/// The name and the joined table's invite, kept in the settings for the
/// next start (a host keeps no invite: it makes its own).
fn remember(world: &mut World, name: &str, invite: &str) {
    let Some(mut settings) = world.get_resource_mut::<crate::game::settings::Settings>() else { return };
    let (name, invite) = (name.trim(), invite.trim());
    if settings.player_name == name && settings.last_invite == invite {
        return;
    }
    if settings.last_invite != invite {
        // Whose table it is is learnt once seated there (`remember_host`).
        settings.last_host.clear();
    }
    settings.player_name = name.to_owned();
    settings.last_invite = invite.to_owned();
    settings.keep();
}

/// Once seated at a joined table, its host's name is kept beside its invite
/// (the menu's "Rejoin Ann's table").
fn remember_host(remote: Res<JoinedGame>, settings: Option<ResMut<crate::game::settings::Settings>>) {
    let Some(mut settings) = settings else { return };
    let host = remote.lobby.names.first().map(String::as_str).unwrap_or_default();
    if remote.link != Link::Seated || host.is_empty() || settings.last_invite.is_empty() || settings.last_host == host {
        return;
    }
    settings.last_host = host.to_owned();
    settings.keep();
}

/// The menu's Rejoin: the lobby, once open and filled in, dials at once.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct RejoinAsked(pub bool);

/// The form as the player last filled it in, in an earlier game too: their
/// name, and the invite of the table they last joined (its tab open). Asked
/// from the menu's Rejoin, it joins at once.
fn fill_in_from_settings(
    mut commands: Commands,
    mut form: ResMut<LobbyForm>,
    settings: Option<Res<crate::game::settings::Settings>>,
    mut rejoin: ResMut<RejoinAsked>,
) {
    let asked = std::mem::take(&mut rejoin.0);
    let Some(settings) = settings else { return };
    if asked && !settings.last_invite.is_empty() {
        form.name.clone_from(&settings.player_name);
        form.address.clone_from(&settings.last_invite);
        form.hosting = false;
        commands.queue(join_table);
        return;
    }
    if form.name.trim().is_empty() {
        form.name.clone_from(&settings.player_name);
    }
    if form.address.trim().is_empty() && !settings.last_invite.is_empty() {
        form.address.clone_from(&settings.last_invite);
        form.hosting = false;
    }
}

/// A pasted invite, checked before it is dialled: its summary (whose table,
/// its check, how it is reached), or what is wrong with it in words. One
/// with the key and secret alone is found only through the public relays'
/// lookup: with `relay` off or a relay of one's own it would fail seconds
/// later ("No addressing information available").
pub fn invite_check(text: &str, relay: &str) -> Result<String, String> {
    let invite = Invite::parse(text).map_err(|e| format!("Not an invite yet: {e}."))?;
    let public = matches!(depths_net::Relays::parse(relay), Ok(depths_net::Relays::Public));
    if !invite.has_addresses() && !public {
        return Err(format!(
            "This invite has only the host's key and secret: with Relay {relay}, paste all of it (the addresses \
             after the secret)."
        ));
    }
    Ok(invite.summary())
}

fn join_table(world: &mut World) {
    let form = world.resource::<LobbyForm>().clone();
    let result = (|| {
        let name = form.player_name()?;
        let relay =
            world.get_resource::<crate::game::settings::Settings>().map(|s| s.relay.clone()).unwrap_or_default();
        invite_check(&form.address, &relay)?;
        let invite = Invite::parse(&form.address)?;
        // This machine's key: a seat it sat in before (a drop, a crash) is its own again.
        let (key, relays) = identity(world)?;
        client::join(world, &invite, &name, key, &relays).map_err(|e| e.to_string())
    })();
    if result.is_ok() {
        remember(world, &form.name, &form.address);
    }
    finish_opening(world, result);
}

fn finish_opening(world: &mut World, result: Result<(), String>) {
    match result {
        Ok(()) => {
            world.insert_resource(LobbyOpen);
            keep_online_pace(world);
            let mut form = world.resource_mut::<LobbyForm>();
            form.error = None;
            // A table opened again reads the saves again (one may have been
            // played since) and offers its chosen one's seats anew.
            form.saves = None;
            form.resume = None;
            form.offered = false;
        }
        Err(e) => world.resource_mut::<LobbyForm>().error = Some(e),
    }
}

fn lobby_ui(
    mut contexts: EguiContexts,
    mut commands: Commands,
    mut form: ResMut<LobbyForm>,
    open: Option<Res<LobbyOpen>>,
    hosted: Res<HostedGame>,
    remote: Res<JoinedGame>,
    mut menu: MessageWriter<MenuAction>,
    mut starts: MessageWriter<HostStart>,
    mut resumes: MessageWriter<HostResume>,
    mut returning: MessageWriter<depths_net::host::Returning>,
    mut kicks: MessageWriter<Kick>,
    save_dir: Res<crate::game::saves::SaveDir>,
    mut settings: ResMut<crate::game::settings::Settings>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // Centred once, then grown downward: nothing above moves under the pointer.
    let top = style::steady_top(ctx, egui::Id::new("lobby"));
    egui::Area::new(egui::Id::new("lobby")).anchor(egui::Align2::CENTER_TOP, [0.0, top]).show(ctx, |ui| {
        style::panel_frame().show(ui, |ui| {
            ui.set_width(460.0);
            ui.label(style::title("Play online", style::type_scale::DISPLAY));
            ui.add_space(8.0);
            if open.is_none() {
                ui.horizontal(|ui| {
                    ui.selectable_value(&mut form.hosting, true, "Host a game");
                    ui.selectable_value(&mut form.hosting, false, "Join a game");
                });
                // A complaint about what was typed goes once it is typed again.
                let typed = ui
                    .horizontal(|ui| {
                        ui.label("Your name:");
                        ui.add(egui::TextEdit::singleline(&mut form.name).char_limit(depths_net::protocol::MAX_NAME))
                            .changed()
                    })
                    .inner;
                if typed {
                    form.error = None;
                }
                relay_row(ui, &mut settings);
                if form.hosting {
                    if ui.add(style::menu_button("Open the table")).clicked() {
                        commands.queue(open_table);
                    }
                } else {
                    ui.horizontal(|ui| {
                        ui.label("Invite:").on_hover_text("The invite your host gave you: paste all of it");
                        // The whole invite in view, to check it against what the host read out.
                        if ui.add(egui::TextEdit::singleline(&mut form.address).desired_width(310.0)).changed() {
                            form.error = None;
                        }
                        if ui
                            .button("Paste")
                            .on_hover_text("The invite from the clipboard (or Ctrl+V in the field)")
                            .clicked()
                        {
                            match crate::ui::clipboard::pasted() {
                                Some(text) => form.address = text.trim().to_owned(),
                                None => form.error = Some("The clipboard holds no text.".into()),
                            }
                        }
                    });
                    // The pasted invite checked as it is: what it is, or what is wrong with it.
                    let checked =
                        (!form.address.trim().is_empty()).then(|| invite_check(&form.address, &settings.relay));
                    let (said, colour) = match &checked {
                        Some(Ok(summary)) => (format!("✔ {summary}"), style::MUTED),
                        Some(Err(why)) => (why.clone(), style::notice()),
                        None => (String::new(), style::MUTED),
                    };
                    // A line kept even when empty: Join below it holds still.
                    ui.label(egui::RichText::new(said).size(style::type_scale::SMALL).color(colour));
                    let why = match &checked {
                        Some(Err(why)) => why.clone(),
                        None => "Paste the invite your host gave you".to_owned(),
                        Some(Ok(_)) => String::new(),
                    };
                    let join = ui.add_enabled(why.is_empty(), style::menu_button("Join"));
                    if join.on_disabled_hover_text(why).clicked() {
                        commands.queue(join_table);
                    }
                }
            } else if form.hosting {
                let was = form.resume.as_ref().map(|r| r.path.clone());
                if form.saves.is_none() {
                    // Read once, not every frame: a save folder can be large.
                    let saves = crate::game::saves::summarize_saves(&save_dir.0);
                    let saves: Vec<_> = saves.into_iter().filter(|s| s.loads && s.players >= 2).collect();
                    // The table this host was playing when it stopped comes first.
                    if let Some(s) = saves.iter().find(|s| s.interrupted) {
                        pick_resume(&mut form, s.path.clone());
                    }
                    form.saves = Some(saves);
                }
                resume_picker(ui, &mut form);
                if form.resume.as_ref().map(|r| r.path.clone()) != was || !form.offered {
                    form.offered = true;
                    let seats = form.resume.as_ref().map(returning_seats).unwrap_or_default();
                    returning.write(depths_net::host::Returning(seats));
                }
                if let Some(said) = invite_line(ui, &hosted, &mut commands) {
                    form.error = Some(said);
                }
                match &form.resume {
                    Some(resume) => {
                        if resume_panel(ui, resume, &hosted) {
                            resumes.write(HostResume);
                        }
                    }
                    None => host_panel(ui, &mut form, &hosted, &mut starts, &mut kicks),
                }
                refused_seats(ui, &hosted);
            } else {
                let status = match &remote.link {
                    Link::Idle | Link::Connecting => "Dialing the host…".to_owned(),
                    Link::Joining => "Asking for a seat…".to_owned(),
                    // Rejoining a game under way: it goes on, it does not start.
                    Link::Seated | Link::Resyncing if remote.lobby.started => {
                        "Back at the table: the game comes in a moment…".to_owned()
                    }
                    Link::Seated | Link::Resyncing => "Seated: the host starts (or resumes) the game.".to_owned(),
                    Link::Lost(why) => format!("Not at the table: {why}"),
                };
                ui.label(status);
                if matches!(remote.link, Link::Lost(_))
                    && remote.invite.is_some()
                    && ui.button("Reconnect").on_hover_text("Dial the same table again, as the same player").clicked()
                {
                    commands.queue(reconnect);
                }
                for (seat, name) in remote.lobby.names.iter().enumerate() {
                    let here = remote.lobby.online.get(seat).copied().unwrap_or(false);
                    ui.label(format!("{}. {name}{}", seat + 1, if here { "" } else { " (away)" }));
                }
            }
            if let Some(e) = &form.error {
                ui.label(egui::RichText::new(e).color(style::notice()));
            }
            ui.add_space(8.0);
            if ui.button("Back").clicked() {
                menu.write(MenuAction::BackToMenu);
            }
        });
    });
    Ok(())
}

/// The host's view: where to dial, who sits where, which Hero each seat
/// plays, and Start.
fn host_panel(
    ui: &mut egui::Ui,
    form: &mut LobbyForm,
    hosted: &HostedGame,
    starts: &mut MessageWriter<HostStart>,
    kicks: &mut MessageWriter<Kick>,
) {
    let seats = hosted.lobby.names.len();
    for (seat, name) in hosted.lobby.names.iter().enumerate() {
        let here = hosted.lobby.online.get(seat).copied().unwrap_or(false);
        let you = if seat == 0 {
            " (you)"
        } else if here {
            ""
        } else {
            " (away)"
        };
        ui.horizontal(|ui| {
            ui.label(format!("{}. {name}{you}", seat + 1));
            if seat > 0 {
                send_away_buttons(ui, seat, kicks);
            }
        });
    }
    ui.add_space(6.0);
    give_newcomers_a_hero(&mut form.heroes, seats);
    for (i, (_, hero)) in HEROES.iter().enumerate() {
        ui.horizontal(|ui| {
            ui.checkbox(&mut form.heroes[i].0, *hero);
            if form.heroes[i].0 {
                form.heroes[i].1 = form.heroes[i].1.min(seats.saturating_sub(1));
                egui::ComboBox::from_id_salt(("lobby_owner", i))
                    .selected_text(hosted.lobby.name(form.heroes[i].1).to_owned())
                    .show_ui(ui, |ui| {
                        for (seat, name) in hosted.lobby.names.iter().enumerate() {
                            ui.selectable_value(&mut form.heroes[i].1, seat, name);
                        }
                    });
                ui.checkbox(&mut form.companions[i], "Companion")
                    .on_hover_text("A Companion plays this Hero for its seat (on your machine)");
            }
        });
    }
    let chosen: Vec<(usize, usize)> =
        form.heroes.iter().enumerate().filter(|(_, (on, _))| *on).map(|(i, (_, seat))| (i, *seat)).collect();
    let every_seat_plays = (0..seats).all(|s| chosen.iter().any(|(_, o)| *o == s));
    let ready = !chosen.is_empty() && every_seat_plays && seats >= 2;
    let start = ui
        .add_enabled(ready, style::menu_button("Start"))
        .on_disabled_hover_text("Wait for a player, and give every seat a Hero");
    if start.clicked() {
        let heroes = chosen.iter().map(|(i, _)| HEROES[*i].0.to_owned()).collect();
        let owners = chosen.iter().map(|(_, o)| *o).collect();
        let companions = chosen.iter().map(|(i, _)| form.companions[*i]).collect();
        starts.write(HostStart { heroes, owners, companions, seed: crate::game::session::clock_seed() });
    }
}

/// A player who sits down with no Hero gets one from a seat that has more
/// than one (the last such), so Start is ready once everyone is seated;
/// the host may still change it. `heroes`: per Hero, chosen and its seat.
fn give_newcomers_a_hero(heroes: &mut [(bool, usize)], seats: usize) {
    for seat in 0..seats {
        let owned = |heroes: &[(bool, usize)], s: usize| heroes.iter().filter(|(on, o)| *on && *o == s).count();
        if owned(heroes, seat) > 0 {
            continue;
        }
        if let Some(i) = (0..heroes.len()).rev().find(|&i| heroes[i].0 && owned(heroes, heroes[i].1) > 1) {
            heroes[i].1 = seat;
        }
    }
}

/// The relays online play uses (a setting, kept when the field is left).
fn relay_row(ui: &mut egui::Ui, settings: &mut crate::game::settings::Settings) {
    ui.horizontal(|ui| {
        ui.label("Relay:");
        let field = ui.add(egui::TextEdit::singleline(&mut settings.relay).desired_width(220.0)).on_hover_text(
            "public: the game's public relays find the host and carry what cannot go direct; off: this network \
             only (a LAN party); or the URL of your own relay (everyone at the table uses the host's)",
        );
        if field.lost_focus() && depths_net::Relays::parse(&settings.relay).is_ok() {
            settings.keep();
        }
    });
}

/// "Send away" and "Ban" for a seat's player (the host's, in the lobby).
pub fn send_away_buttons(ui: &mut egui::Ui, seat: usize, kicks: &mut MessageWriter<Kick>) {
    if ui.small_button("Send away").on_hover_text("They leave the table (they may join again)").clicked() {
        kicks.write(Kick { seat, ban: false });
    }
    if ui.small_button("Ban").on_hover_text("They leave and cannot come back to this table").clicked() {
        kicks.write(Kick { seat, ban: true });
    }
}

/// The invite the players need (where to dial and the table's secret),
/// with Copy and New invite. Returns what a button has to say.
pub fn invite_line(ui: &mut egui::Ui, hosted: &HostedGame, commands: &mut Commands) -> Option<String> {
    let invite = hosted.invite.as_ref()?;
    let mut said = None;
    ui.label(format!("Your players' invite (check {}): Copy it, send it in a message", invite.check()))
        .on_hover_text("A player who pastes it sees the same check: a different one is another (an older) invite");
    let mut text = invite.text();
    // Read-only, wrapped at any character: the key alone is 52 of them.
    ui.add(
        egui::TextEdit::multiline(&mut text)
            .font(egui::TextStyle::Monospace)
            .text_color(style::GOLD)
            .desired_rows(2)
            .desired_width(f32::INFINITY)
            .interactive(false),
    )
    .on_hover_text(format!(
        "Your table's key ({}…), how to reach it, and its secret: without the invite nobody new can sit down",
        invite.key().fmt_short()
    ));
    ui.horizontal_wrapped(|ui| {
        if ui.button("Copy").on_hover_text("Put the invite on the clipboard").clicked() {
            said = Some(match crate::ui::clipboard::copy(&invite.text()) {
                Ok(()) => "The invite is on the clipboard.".to_owned(),
                Err(e) => format!("Could not copy the invite: {e}. Read it out instead."),
            });
        }
        if ui
            .button("New invite")
            .on_hover_text(
                "The old invite stops letting anyone in (if it got out); the players at the table stay. \
                 A player who drops needs the new one.",
            )
            .clicked()
        {
            commands.queue(|world: &mut World| {
                if let Err(e) = host::new_invite(world) {
                    warn!("no new invite: {e}");
                }
            });
            said = Some("A new invite: the old one no longer lets anyone in.".to_owned());
        }
    });
    said
}

/// Dials the last table again as the same player (after a drop).
fn reconnect(world: &mut World) {
    let result = client::reconnect(world).map_err(|e| e.to_string());
    finish_opening(world, result);
}

/// "Resume a saved game": the saves of two or more players, or a new game.
fn resume_picker(ui: &mut egui::Ui, form: &mut LobbyForm) {
    let saves = form.saves.as_deref().unwrap_or_default();
    if saves.is_empty() {
        return;
    }
    let chosen = form.resume.as_ref().map(|r| r.path.clone());
    let shown = chosen
        .as_ref()
        .and_then(|p| saves.iter().find(|s| &s.path == p))
        .map_or("a new game".to_owned(), |s| format!("{} · {}", s.date, s.about));
    let mut pick: Option<Option<std::path::PathBuf>> = None;
    ui.horizontal(|ui| {
        ui.label("Play:");
        egui::ComboBox::from_id_salt("resume_save").selected_text(shown).width(360.0).show_ui(ui, |ui| {
            if ui.selectable_label(chosen.is_none(), "a new game").clicked() {
                pick = Some(None);
            }
            for s in saves {
                let label = format!("resume {} · {}", s.date, s.about);
                if ui.selectable_label(chosen.as_ref() == Some(&s.path), label).clicked() {
                    pick = Some(Some(s.path.clone()));
                }
            }
        });
    });
    match pick {
        Some(None) => form.resume = None,
        Some(Some(path)) => pick_resume(form, path),
        None => {}
    }
}

/// The save at `path` is the game to resume (or why it cannot be).
fn pick_resume(form: &mut LobbyForm, path: std::path::PathBuf) {
    match crate::game::saves::read_save(&path) {
        Ok((game, Some(session))) => {
            form.resume = Some(Resume { path, game, session });
            form.error = None;
        }
        Ok((_, None)) => form.error = Some(format!("{} has no players to seat.", path.display())),
        Err(e) => form.error = Some(format!("{} does not load: {e}", path.display())),
    }
}

/// The saved players whose key the save knows, by name: their seats wait
/// for them and their key sits down again with any invite. A key that is
/// not a key (a save edited by hand) is passed over: that player sits down
/// by name with the invite, as in a save without keys.
fn returning_seats(resume: &Resume) -> Vec<(String, depths_net::transport::PublicKey)> {
    let players = &resume.session.players;
    (1..players.count())
        .filter_map(|p| {
            let key = resume.session.keys.get(p)?.as_deref()?;
            match key.parse() {
                Ok(key) => Some((players.name(p).to_owned(), key)),
                Err(e) => {
                    warn!("{}: the key saved for {} is not a key ({e})", resume.path.display(), players.name(p));
                    None
                }
            }
        })
        .collect()
}

/// The last seats the host refused, and why: a friend whose Reconnect or
/// invite did not work shows up here, not only in their own window.
fn refused_seats(ui: &mut egui::Ui, hosted: &HostedGame) {
    for (name, why) in &hosted.refused_seats {
        let name = if name.trim().is_empty() { "someone" } else { name };
        ui.label(
            egui::RichText::new(format!("Refused {name}: {why}")).size(style::type_scale::SMALL).color(style::notice()),
        );
    }
}

/// The seats of a saved game and who has sat down again; true when the host
/// presses Resume (every player of the save is at the table, no one else).
fn resume_panel(ui: &mut egui::Ui, resume: &Resume, hosted: &HostedGame) -> bool {
    let saved = &resume.session.players;
    let seats = &hosted.lobby.names;
    ui.label("The saved game's players:");
    for p in 0..saved.count() {
        let heroes: Vec<&str> = (0..resume.game.heroes.len() as u8)
            .filter(|&h| saved.owner(h) == p)
            .map(|h| resume.game.heroes[usize::from(h)].name())
            .collect();
        let name = saved.name(p);
        let seat = seats.iter().position(|s| same_name(s, name));
        let here = seat.is_some_and(|s| hosted.lobby.online.get(s).copied().unwrap_or(false));
        // A seat kept for its key: its player's Reconnect brings them back, in play too.
        let mark = match (here, seat.is_some()) {
            (true, _) => "at the table",
            (false, true) => "away: their seat waits for them (their Reconnect brings them back)",
            (false, false) => "not here yet: they join with the invite, under this name",
        };
        ui.label(format!("{name} ({}) — {mark}", heroes.join(", ")));
    }
    let outcome = depths_seats::seats::reseat(saved, &resume.session.turn, seats);
    let strangers: Vec<&str> =
        seats.iter().filter(|s| !(0..saved.count()).any(|p| same_name(saved.name(p), s))).map(String::as_str).collect();
    let why = match (&outcome, strangers.is_empty()) {
        (Err(missing), _) => format!("Waiting for {}", missing.join(" and ")),
        (Ok(_), false) => format!("{} did not play this game", strangers.join(" and ")),
        (Ok(_), true) => String::new(),
    };
    ui.add_enabled(why.is_empty(), style::menu_button("Resume")).on_disabled_hover_text(why).clicked()
}

/// The host resumes the chosen save: its players at their new seats, its
/// turn, its log and moves; the host's autosaves go on in the same file.
fn resume_hosted(
    mut commands: Commands,
    mut requests: MessageReader<HostResume>,
    hosted: Res<HostedGame>,
    mut form: ResMut<LobbyForm>,
    mut starts: MessageWriter<StartTable>,
    mut next: ResMut<NextState<Screen>>,
) {
    for _ in requests.read() {
        let Some(resume) = form.resume.clone() else { continue };
        match depths_seats::seats::reseat(&resume.session.players, &resume.session.turn, &hosted.lobby.names) {
            Ok((players, turn)) => {
                starts.write(StartTable {
                    game: resume.game.clone(),
                    owners: players.owners.clone(),
                    turn: turn.clone(),
                    companions: players.companions.clone(),
                });
                let mut session = crate::game::saves::session_from(&resume.path, resume.game, Some(resume.session));
                session.seats.players = players;
                session.seats.turn = turn;
                session.log.lines.push("Resumed online.".into());
                session.seats.seat = Some(0);
                session.insert(&mut commands);
                commands.insert_resource(Online::Host);
                next.set(Screen::Playing);
            }
            Err(missing) => form.error = Some(format!("Waiting for {}.", missing.join(" and "))),
        }
    }
}

/// The host's Start: the game goes to the players (`StartTable`) and onto
/// the host's own board, played online.
fn start_hosted(
    mut commands: Commands,
    mut requests: MessageReader<HostStart>,
    hosted: Res<HostedGame>,
    content: Option<Res<GameContent>>,
    mut form: ResMut<LobbyForm>,
    mut starts: MessageWriter<StartTable>,
    mut next: ResMut<NextState<Screen>>,
) {
    for HostStart { heroes, owners, companions, seed } in requests.read() {
        let Some(content) = &content else { continue };
        let heroes: Vec<&str> = heroes.iter().map(String::as_str).collect();
        match Game::new(GameOptions::standard(&heroes, *seed), content.0.clone()) {
            Ok(game) => {
                let players = Players {
                    names: hosted.lobby.names.clone(),
                    owners: owners.clone(),
                    companions: companions.clone(),
                    ..Players::default()
                };
                starts.write(StartTable {
                    game: game.clone(),
                    owners: owners.clone(),
                    turn: Default::default(),
                    companions: companions.clone(),
                });
                let mut session = Session::new(game);
                session.seats.players = players;
                session.seats.seat = Some(0);
                session.insert(&mut commands);
                commands.insert_resource(Online::Host);
                next.set(Screen::Playing);
            }
            Err(e) => form.error = Some(format!("The game could not start: {e}")),
        }
    }
}

/// A remote player sits down once the host's table arrives.
fn sit_down_to_play(
    mut commands: Commands,
    remote: Res<JoinedGame>,
    online: Option<Res<Online>>,
    mut next: ResMut<NextState<Screen>>,
    content: Option<Res<crate::game::session::GameContent>>,
) {
    if online.is_some() || remote.link != Link::Seated {
        return;
    }
    let Some(shared) = &remote.shared else { return };
    let mut session = Session::new(shared.game.clone());
    session.seats.players = shared.players.clone();
    session.seats.turn = shared.turn.clone();
    // The moves since the start are known only to a player seated at it: they
    // give the game-over screen its analysis and replay (the same figures as
    // the host's, from the same seed). Nothing of it is saved here.
    let fresh = |game: &depths_rules::Game| {
        let options = game.adventure().map(|a| a.options.clone())?;
        depths_rules::Game::new(options, content.as_ref()?.0.clone()).ok().filter(|new| new == game)
    };
    session.delve.history = fresh(&shared.game).map(|_| Vec::new());
    session.seats.seat = remote.seat;
    session.insert(&mut commands);
    commands.insert_resource(Online::Player);
    next.set(Screen::Playing);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pasted_invite_is_checked_before_it_is_dialled() {
        let key = depths_net::transport::SecretKey::generate().public();
        let addr = depths_net::transport::EndpointAddr::new(key).with_ip_addr("192.168.1.20:5000".parse().unwrap());
        let invite = Invite::new(addr);
        let whole = invite_check(&invite.text(), "off").unwrap();
        assert!(whole.contains(&invite.check()) && whole.ends_with("1 address"), "{whole}");
        // The key and secret alone, as typed off a screen: found by the public
        // relays' lookup, refused at once with a relay off (it failed 3-9 s later).
        let bare = invite.text().split_whitespace().next().unwrap().to_owned();
        assert!(invite_check(&bare, "public").unwrap().contains("found by its key"));
        assert!(invite_check(&bare, "off").unwrap_err().contains("paste all of it"));
        assert!(invite_check(&invite.text()[..40], "public").unwrap_err().starts_with("Not an invite yet"));
    }

    #[test]
    fn a_resumed_save_offers_each_players_seat_to_the_key_it_saved() {
        // Ann hosted; Bo's key was saved, Cy's was edited into nonsense.
        let bo = depths_net::transport::SecretKey::generate().public();
        let game =
            Game::new(GameOptions::standard(&["bren", "sil", "ava"], 4), depths_rules::Content::builtin().unwrap())
                .unwrap();
        let mut session = crate::game::saves::SavedSession::default();
        session.players.names = vec!["Ann".into(), "Bo".into(), "Cy".into()];
        session.players.owners = vec![0, 1, 2];
        session.keys = vec![Some(bo.to_string()), Some(bo.to_string()), Some("not a key".into())];
        let resume = Resume { path: "hosted.json".into(), game, session };
        // The host's own seat is never offered; Cy sits down by name with the invite.
        assert_eq!(returning_seats(&resume), vec![("Bo".to_owned(), bo)]);
        // A save without keys (older, or never hosted) offers nothing.
        let mut older = resume.clone();
        older.session.keys.clear();
        assert!(returning_seats(&older).is_empty());
    }

    #[test]
    fn a_player_who_sits_down_gets_a_hero_from_a_seat_with_two() {
        // Ann (seat 0) holds Bren and Sil when Bo sits down: Sil goes to Bo.
        let mut heroes = [(true, 0), (true, 0), (false, 0)];
        give_newcomers_a_hero(&mut heroes, 2);
        assert_eq!(heroes, [(true, 0), (true, 1), (false, 0)]);
        // The host's own choice stands once every seat has a Hero.
        let mut chosen = [(true, 1), (true, 0), (false, 0)];
        give_newcomers_a_hero(&mut chosen, 2);
        assert_eq!(chosen, [(true, 1), (true, 0), (false, 0)]);
        // Three seats, two Heroes: nobody has two to give.
        let mut short = [(true, 0), (true, 1), (false, 0)];
        give_newcomers_a_hero(&mut short, 3);
        assert_eq!(short, [(true, 0), (true, 1), (false, 0)]);
        // A third player takes Ava when Ann holds her besides Bren.
        let mut three = [(true, 0), (true, 1), (true, 0)];
        give_newcomers_a_hero(&mut three, 3);
        assert_eq!(three, [(true, 0), (true, 1), (true, 2)]);
    }
}
