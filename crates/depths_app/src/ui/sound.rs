//! Sound: a short effect for what happens on the table (a tile laid, a card
//! played, a blow, a reveal, the end of the game) and a quiet loop for each
//! Ecology while a game is on. Menus are silent.
//!
//! The sounds are made by `tools/sounds/generate.py` (Ogg Vorbis under
//! `assets/sounds/`). Playing them needs bevy's audio, which on Linux needs
//! ALSA's headers to build; so there it comes with the cargo feature `sound`,
//! and on Windows and macOS always (see the crate's Cargo.toml). The choices
//! (which event sounds how, which loop plays, how loud) are plain functions
//! compiled in every build, so they are tested without an audio device.

use bevy::prelude::*;
use depths_rules::{Ecology, Event, Game, Phase};

/// The effects, one file each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// A stone tile set down.
    TilePlaced,
    /// A card slapped on the table.
    CardPlayed,
    /// A Monster is struck (or falls).
    Hit,
    /// A Hero is wounded.
    Hurt,
    /// Something turned face up: an element, a card, an Item or Ability.
    Reveal,
    /// The party's Keys changed.
    Key,
    LevelUp,
    Victory,
    Defeat,
}

impl Effect {
    pub const ALL: [Effect; 9] = [
        Effect::TilePlaced,
        Effect::CardPlayed,
        Effect::Hit,
        Effect::Hurt,
        Effect::Reveal,
        Effect::Key,
        Effect::LevelUp,
        Effect::Victory,
        Effect::Defeat,
    ];

    /// The file under `assets/`.
    pub fn file(self) -> &'static str {
        match self {
            Effect::TilePlaced => "sounds/tile_place.ogg",
            Effect::CardPlayed => "sounds/card_play.ogg",
            Effect::Hit => "sounds/hit.ogg",
            Effect::Hurt => "sounds/hurt.ogg",
            Effect::Reveal => "sounds/reveal.ogg",
            Effect::Key => "sounds/key.ogg",
            Effect::LevelUp => "sounds/level_up.ogg",
            Effect::Victory => "sounds/victory.ogg",
            Effect::Defeat => "sounds/defeat.ogg",
        }
    }

    /// How loud against the others (the files are all near full scale; the
    /// blows are frequent and would tire the ear at the level of a fanfare).
    pub fn level(self) -> f32 {
        match self {
            Effect::Hit | Effect::Hurt => 0.55,
            Effect::TilePlaced => 0.6,
            Effect::CardPlayed | Effect::Key => 0.7,
            Effect::Reveal | Effect::LevelUp => 0.6,
            Effect::Victory | Effect::Defeat => 0.8,
        }
    }
}

/// The effect an event makes, if any. No `_` arm: a new event kind must be
/// given its sound (or none) before the client compiles.
pub fn effect_for(event: &Event) -> Option<Effect> {
    Some(match event {
        Event::TilePlaced { .. } => Effect::TilePlaced,
        Event::CardPlayed { .. } | Event::MonsterCardPlayed { .. } => Effect::CardPlayed,
        Event::MonsterDamaged { .. } | Event::IndividualDefeated { .. } | Event::FoeDefeated { .. } => Effect::Hit,
        Event::HeroDamaged { .. } => Effect::Hurt,
        Event::ElementEncountered { .. }
        | Event::LegendaryLocationEncountered { .. }
        | Event::CardDrawn { .. }
        | Event::ItemGained { .. }
        | Event::AbilityGained { .. } => Effect::Reveal,
        Event::KeysChanged { .. } => Effect::Key,
        Event::LevelUp { .. } => Effect::LevelUp,
        Event::GameWon => Effect::Victory,
        Event::GameLost { .. } => Effect::Defeat,
        Event::CombatStarted { .. }
        | Event::MonstersAssigned { .. }
        | Event::RoundStarted { .. }
        | Event::CardsDrawn { .. }
        | Event::PowerStored { .. }
        | Event::DiscardReshuffled { .. }
        | Event::CannotPlay { .. }
        | Event::MonsterDeckReshuffled { .. }
        | Event::MonsterPowerDrawn { .. }
        | Event::MonsterAbility { .. }
        | Event::MonsterPowerWasted { .. }
        | Event::MonsterCardMoved { .. }
        | Event::MonsterCardWaiting { .. }
        | Event::CardsOffered { .. }
        | Event::PairChosen { .. }
        | Event::AbilityActivated { .. }
        | Event::PowerSpent { .. }
        | Event::SpellExhausted { .. }
        | Event::MonsterHealed { .. }
        | Event::ReturnDamageAvoided { .. }
        | Event::HeroHealed { .. }
        | Event::RoundEnded { .. }
        | Event::CombatWon
        | Event::Note { .. }
        | Event::EcologyStarted { .. }
        | Event::EcologyCompleted { .. }
        | Event::TileDrawn { .. }
        | Event::TileSetAside { .. }
        | Event::TestResolved { .. }
        | Event::XpGained { .. }
        | Event::XpSpent { .. }
        | Event::Rested => return None,
    })
}

/// At most this many effects start together: one action can bring a dozen
/// events, and a dozen sounds at once is noise.
pub const MAX_AT_ONCE: usize = 3;

/// The effects for one frame's events, in order: each kind once, at most
/// [`MAX_AT_ONCE`]; the end of the game is heard alone.
pub fn effects_for<'a>(events: impl IntoIterator<Item = &'a Event>) -> Vec<Effect> {
    let mut out: Vec<Effect> = Vec::new();
    for effect in events.into_iter().filter_map(effect_for) {
        if matches!(effect, Effect::Victory | Effect::Defeat) {
            return vec![effect];
        }
        if !out.contains(&effect) && out.len() < MAX_AT_ONCE {
            out.push(effect);
        }
    }
    out
}

/// The loop for the game on the table: its Ecology's.
pub fn track_for(game: &Game) -> Option<Ecology> {
    track(&game.phase(), game.adventure().map(|a| a.ecology.ecology))
}

/// The loop for a phase in an Ecology; none once the game is over (the
/// fanfare or the lament has the last word).
pub fn track(phase: &Phase, ecology: Option<Ecology>) -> Option<Ecology> {
    match phase {
        Phase::Won | Phase::Lost(_) => None,
        _ => ecology,
    }
}

/// The loop's file under `assets/`.
pub fn music_file(ecology: Ecology) -> &'static str {
    match ecology {
        Ecology::Ruins => "sounds/music_ruins.ogg",
        Ecology::Caverns => "sounds/music_caverns.ogg",
        Ecology::Subterranean => "sounds/music_subterranean.ogg",
    }
}

/// The music sits well under the effects: it is there to be forgotten.
/// (Measured at the default volumes: the loop about 17 dB under the
/// effects' peaks, which reach about -11 dBFS.)
pub const MUSIC_LEVEL: f32 = 0.5;

/// The music files, as `tools/sounds/generate.py` makes them: stereo at
/// this rate, a loop of [`LOOP_SECONDS`] with [`PAD_MILLIS`] of its own end
/// before it and of its own start after it. Only the loop is played: a
/// Vorbis stream's very ends carry the encoder's largest error, which made
/// the seam jump when the whole file looped.
pub const MUSIC_RATE: u32 = 32_000;
pub const LOOP_SECONDS: u64 = 32;
pub const PAD_MILLIS: u64 = 500;

/// Where the loop starts in a music file and how long it runs. The player
/// cuts by duration, counting whole nanoseconds per sample (rodio 0.22):
/// at 32 kHz stereo a sample is exactly 15 625 ns, and the extra half
/// sample makes the cut end on the loop's last sample whether it stops at
/// "less than one sample left" or "none left".
pub fn loop_window() -> (std::time::Duration, std::time::Duration) {
    let sample_nanos = 1_000_000_000 / (u64::from(MUSIC_RATE) * 2);
    (
        std::time::Duration::from_millis(PAD_MILLIS),
        std::time::Duration::from_secs(LOOP_SECONDS) + std::time::Duration::from_nanos(sample_nanos / 2),
    )
}

/// The linear gain for a slider setting (0..=1 of the master volume times
/// 0..=1 of a part). Squared, because loudness is heard roughly
/// logarithmically: halfway on the slider is about a quarter of the
/// amplitude (-12 dB), not a barely quieter -6 dB. Out-of-range or NaN
/// settings count as the nearest sensible value (NaN as silence).
pub fn gain(master: f32, part: f32, muted: bool) -> f32 {
    if muted {
        return 0.0;
    }
    let unit = |v: f32| if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
    let x = unit(master) * unit(part);
    x * x
}

/// How far a fade has come (0 at its start, 1 when done) `elapsed` seconds in.
pub fn fade(elapsed: f32, seconds: f32) -> f32 {
    if seconds <= 0.0 || elapsed.is_nan() {
        return 1.0;
    }
    (elapsed / seconds).clamp(0.0, 1.0)
}

pub(super) fn plugin(app: &mut App) {
    #[cfg(any(feature = "sound", not(target_os = "linux")))]
    playback::plugin(app);
    // Without audio there is nothing to do: the settings window says so.
    #[cfg(not(any(feature = "sound", not(target_os = "linux"))))]
    let _ = app;
}

#[cfg(any(feature = "sound", not(target_os = "linux")))]
mod playback {
    use bevy::{
        audio::{AudioPlayer, AudioSink, AudioSinkPlayback, AudioSource, PlaybackSettings, Volume},
        prelude::*,
    };
    use depths_rules::Ecology;

    use super::{Effect, MUSIC_LEVEL, effects_for, fade, gain, loop_window, music_file, track_for};
    use crate::{
        PlaySystems, game::animating::Animating, game::rules_events::RulesEvent, game::screen::Screen,
        game::session::Delve, game::settings::Settings,
    };

    /// A loop fades in and out over this long when the Ecology changes.
    const FADE_SECONDS: f32 = 2.0;

    /// Effects still sounding (or waiting for a device that never came) are
    /// capped: without an audio device bevy never finishes them, and each
    /// action would leave another entity behind.
    const MAX_EFFECT_VOICES: usize = 12;

    /// Every sound, loaded once at start so an effect plays in the frame
    /// its event arrives (a reactive app may not draw another soon).
    #[derive(Resource)]
    struct Sounds {
        effects: Vec<(Effect, Handle<AudioSource>)>,
        music: Vec<(Ecology, Handle<AudioSource>)>,
    }

    #[derive(Component)]
    struct EffectVoice(u64);

    #[derive(Component)]
    struct MusicVoice {
        ecology: Ecology,
        /// When it began (real seconds): it fades in from there.
        born: f32,
        /// When it began to leave: it fades out from there, then goes.
        leaving: Option<f32>,
    }

    pub(crate) fn plugin(app: &mut App) {
        app.add_systems(Startup, load);
        app.add_systems(Update, (play_effects, music).chain().in_set(PlaySystems::Sync));
    }

    fn load(mut commands: Commands, assets: Res<AssetServer>) {
        commands.insert_resource(Sounds {
            effects: Effect::ALL.iter().map(|&e| (e, assets.load(e.file()))).collect(),
            music: depths_rules::Ecology::ALL.iter().map(|&e| (e, assets.load(music_file(e)))).collect(),
        });
    }

    fn play_effects(
        mut commands: Commands,
        mut events: MessageReader<RulesEvent>,
        sounds: Option<Res<Sounds>>,
        settings: Res<Settings>,
        voices: Query<(Entity, &EffectVoice)>,
        mut count: Local<u64>,
    ) {
        let effects = effects_for(events.read().map(|RulesEvent(e)| e));
        let volume = gain(settings.master_volume, 1.0, settings.muted);
        let Some(sounds) = sounds else { return };
        if effects.is_empty() || volume <= 0.0 {
            return;
        }
        let mut alive: Vec<(Entity, u64)> = voices.iter().map(|(e, v)| (e, v.0)).collect();
        alive.sort_by_key(|&(_, n)| n);
        let room = MAX_EFFECT_VOICES.saturating_sub(effects.len());
        for &(entity, _) in alive.iter().take(alive.len().saturating_sub(room)) {
            commands.entity(entity).despawn();
        }
        for effect in effects {
            let Some((_, handle)) = sounds.effects.iter().find(|(e, _)| *e == effect) else { continue };
            *count += 1;
            commands.spawn((
                AudioPlayer(handle.clone()),
                PlaybackSettings::DESPAWN.with_volume(Volume::Linear(volume * effect.level())),
                EffectVoice(*count),
            ));
        }
    }

    /// Starts, fades and stops the Ecology's loop. Cheap when nothing
    /// changes; a voice is [`Animating`] only while it fades (a few seconds),
    /// so the app goes back to idling.
    fn music(
        mut commands: Commands,
        sounds: Option<Res<Sounds>>,
        settings: Res<Settings>,
        screen: Res<State<Screen>>,
        delve: Option<Res<Delve>>,
        time: Res<Time<Real>>,
        mut voices: Query<(Entity, &mut MusicVoice, Option<&mut AudioSink>, Has<Animating>)>,
    ) {
        let Some(sounds) = sounds else { return };
        let now = time.elapsed_secs();
        let wanted = match (screen.get(), &delve) {
            (Screen::Playing, Some(delve)) => track_for(delve.game()),
            _ => None,
        };
        let playing = voices.iter().find(|(_, v, ..)| v.leaving.is_none()).map(|(_, v, ..)| v.ecology);
        if playing != wanted {
            for (_, mut voice, ..) in &mut voices {
                if voice.leaving.is_none() {
                    voice.leaving = Some(now);
                }
            }
            if let Some(ecology) = wanted
                && let Some((_, handle)) = sounds.music.iter().find(|(e, _)| *e == ecology)
            {
                // Starts silent; the fade below brings it up once its sink exists.
                let (start, length) = loop_window();
                commands.spawn((
                    AudioPlayer(handle.clone()),
                    PlaybackSettings::LOOP.with_volume(Volume::SILENT).with_start_position(start).with_duration(length),
                    MusicVoice { ecology, born: now, leaving: None },
                    Animating,
                ));
            }
        }
        let full = gain(settings.master_volume, settings.music_volume, settings.muted) * MUSIC_LEVEL;
        for (entity, voice, sink, marked) in &mut voices {
            let rise = fade(now - voice.born, FADE_SECONDS);
            let fall = voice.leaving.map_or(1.0, |t| 1.0 - fade(now - t, FADE_SECONDS));
            if voice.leaving.is_some() && fall <= 0.0 {
                commands.entity(entity).despawn();
                continue;
            }
            // Time-based, so it ends even when no device ever gives a sink.
            crate::game::animating::mark_motion(&mut commands, entity, rise < 1.0 || voice.leaving.is_some(), marked);
            if let Some(mut sink) = sink {
                let level = full * rise * fall;
                // Muted music is paused, not played at zero: no decoding for nothing.
                if level <= 0.0 {
                    if !sink.is_paused() {
                        sink.pause();
                    }
                } else {
                    if (sink.volume().to_linear() - level).abs() > 1e-4 {
                        sink.set_volume(Volume::Linear(level));
                    }
                    if sink.is_paused() {
                        sink.play();
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use depths_rules::{
        ActionCard, Content, GameOptions, LossReason,
        map::{ElementRef, Placement, Rotation},
    };

    use super::*;

    #[test]
    fn the_table_s_events_make_their_sounds() {
        let element = ElementRef { cell: (0, 0), area: 0, element: 0 };
        assert_eq!(effect_for(&Event::ElementEncountered { element }), Some(Effect::Reveal));
        assert_eq!(effect_for(&Event::CardDrawn { name: "Altar".into() }), Some(Effect::Reveal));
        assert_eq!(effect_for(&Event::HeroDamaged { hero: 0, amount: 2 }), Some(Effect::Hurt));
        assert_eq!(effect_for(&Event::MonsterDamaged { hero: 0, foe: 0, individual: 0, amount: 1 }), Some(Effect::Hit));
        assert_eq!(effect_for(&Event::KeysChanged { keys: 1 }), Some(Effect::Key));
        assert_eq!(effect_for(&Event::LevelUp { level: 2 }), Some(Effect::LevelUp));
        assert_eq!(effect_for(&Event::GameWon), Some(Effect::Victory));
        assert_eq!(effect_for(&Event::GameLost { reason: LossReason::HeroDefeated { hero: 0 } }), Some(Effect::Defeat));
        assert_eq!(effect_for(&Event::Note { text: "x".into() }), None, "log lines are silent");
        assert_eq!(effect_for(&Event::HeroHealed { hero: 0, amount: 1 }), None);
    }

    #[test]
    fn a_placed_tile_thuds_and_a_played_card_slaps() {
        let placement = Placement { cell: (1, 0), rotation: Rotation::new(1) };
        assert_eq!(effect_for(&Event::TilePlaced { tile: "t".into(), placement }), Some(Effect::TilePlaced));
        assert_eq!(effect_for(&Event::TileDrawn { tile: "t".into() }), None, "drawing a tile is silent");
        let card = ActionCard::numbered(1, 3);
        let played = Event::CardPlayed { hero: 0, engagement: 0, slot: 0, card };
        assert_eq!(effect_for(&played), Some(Effect::CardPlayed));
        let monster = Event::MonsterCardPlayed { foe: 0, engagement: 0, slot: None, card };
        assert_eq!(effect_for(&monster), Some(Effect::CardPlayed));
    }

    #[test]
    fn a_frame_sounds_each_effect_once_and_few_at_a_time() {
        let hit = Event::MonsterDamaged { hero: 0, foe: 0, individual: 0, amount: 1 };
        let hurt = Event::HeroDamaged { hero: 1, amount: 1 };
        let events = [hit.clone(), hit.clone(), Event::Note { text: String::new() }, hurt.clone(), hit, hurt.clone()];
        assert_eq!(effects_for(&events), vec![Effect::Hit, Effect::Hurt]);
        let many = [
            Event::KeysChanged { keys: 2 },
            hurt.clone(),
            Event::LevelUp { level: 2 },
            Event::CardDrawn { name: "x".into() },
        ];
        assert_eq!(effects_for(&many), vec![Effect::Key, Effect::Hurt, Effect::LevelUp]);
        assert_eq!(
            effects_for(&[hurt.clone(), Event::GameLost { reason: LossReason::HeroDefeated { hero: 0 } }]),
            vec![Effect::Defeat]
        );
        assert_eq!(effects_for(&[Event::GameWon, hurt]), vec![Effect::Victory], "the end is heard alone");
        assert!(effects_for(&[]).is_empty());
    }

    #[test]
    fn every_sound_has_its_own_file_and_the_file_is_there() {
        let mut files: Vec<&str> = Effect::ALL.iter().map(|e| e.file()).collect();
        files.extend(Ecology::ALL.iter().map(|&e| music_file(e)));
        let mut unique = files.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), files.len(), "{files:?}");
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
        for file in files {
            let bytes = std::fs::read(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
            assert!(bytes.starts_with(b"OggS"), "{file} is Ogg");
        }
        for e in Effect::ALL {
            assert!((0.0..=1.0).contains(&e.level()), "{e:?}");
        }
    }

    #[test]
    fn the_loop_follows_the_ecology_and_stops_when_the_game_ends() {
        for (seed, start) in [(1, Ecology::Ruins), (2, Ecology::Caverns), (3, Ecology::Subterranean)] {
            let mut options = GameOptions::standard(&["bren", "sil"], seed);
            options.start = start;
            let game = Game::new(options, Content::builtin().unwrap()).unwrap();
            assert_eq!(track_for(&game), Some(start));
        }
        let exploring = Phase::Exploring { tile_in_hand: false, decision: None };
        assert_eq!(track(&exploring, Some(Ecology::Caverns)), Some(Ecology::Caverns));
        assert_eq!(track(&Phase::Passage { next: Ecology::Caverns }, Some(Ecology::Ruins)), Some(Ecology::Ruins));
        assert_eq!(track(&Phase::Won, Some(Ecology::Subterranean)), None, "the fanfare plays alone");
        assert_eq!(track(&Phase::Lost(LossReason::DeadEnd), Some(Ecology::Ruins)), None);
        assert_eq!(track(&exploring, None), None);
        assert_ne!(music_file(Ecology::Ruins), music_file(Ecology::Caverns));
    }

    /// The rate, channels and length of an Ogg Vorbis file, from its
    /// identification header and its last page's granule position.
    fn ogg_facts(bytes: &[u8]) -> (u32, u8, u64) {
        let find = |needle: &[u8]| bytes.windows(needle.len()).position(|w| w == needle);
        let id = find(b"\x01vorbis").expect("a Vorbis identification header") + 7;
        let channels = bytes[id + 4];
        let rate = u32::from_le_bytes(bytes[id + 5..id + 9].try_into().unwrap());
        let last = bytes.windows(4).rposition(|w| w == b"OggS").expect("an Ogg page");
        let frames = u64::from_le_bytes(bytes[last + 6..last + 14].try_into().unwrap());
        (rate, channels, frames)
    }

    #[test]
    fn the_music_files_hold_the_loop_the_game_cuts_out() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets");
        for ecology in Ecology::ALL {
            let bytes = std::fs::read(root.join(music_file(ecology))).unwrap();
            let (rate, channels, frames) = ogg_facts(&bytes);
            assert_eq!((rate, channels), (MUSIC_RATE, 2), "{ecology:?}");
            let pad = u64::from(MUSIC_RATE) * PAD_MILLIS / 1000;
            assert_eq!(frames, LOOP_SECONDS * u64::from(MUSIC_RATE) + 2 * pad, "{ecology:?}: pad, loop, pad");
        }
        for effect in Effect::ALL {
            let (rate, _, frames) = ogg_facts(&std::fs::read(root.join(effect.file())).unwrap());
            assert!(frames > 0 && frames < u64::from(rate) * 4, "{effect:?}: effects are short");
        }
    }

    #[test]
    fn the_loop_is_cut_on_whole_samples() {
        let (start, length) = loop_window();
        let sample = 1_000_000_000u128 / (u128::from(MUSIC_RATE) * 2);
        assert_eq!(sample * u128::from(MUSIC_RATE) * 2, 1_000_000_000, "a sample is a whole number of ns");
        // Skipping counts samples as duration × rate: the pad, exactly.
        assert_eq!(start.as_nanos() * u128::from(MUSIC_RATE) * 2 % 1_000_000_000, 0);
        assert_eq!(start.as_nanos() * u128::from(MUSIC_RATE) / 1_000_000_000, u128::from(MUSIC_RATE / 2));
        // Taking: one sample per `sample` ns while more than one (or at least one) is left.
        let want = u128::from(LOOP_SECONDS) * u128::from(MUSIC_RATE) * 2;
        let (mut left, mut strict, mut loose) = (length.as_nanos(), 0u128, 0u128);
        while left > sample {
            left -= sample;
            strict += 1;
        }
        left = length.as_nanos();
        while left >= sample {
            left -= sample;
            loose += 1;
        }
        assert_eq!(
            (strict, loose),
            (want, want),
            "the loop's samples, no more, no fewer (an even count keeps L and R)"
        );
    }

    #[test]
    fn volume_is_squared_muted_and_kept_in_range() {
        assert_eq!(gain(1.0, 1.0, false), 1.0);
        assert_eq!(gain(0.5, 1.0, false), 0.25, "half the slider is a quarter of the amplitude");
        assert_eq!(gain(1.0, 0.5, false), 0.25);
        assert_eq!(gain(0.5, 0.5, false), 0.0625, "music is a part of the master volume");
        assert_eq!(gain(1.0, 1.0, true), 0.0, "mute silences all");
        assert_eq!(gain(0.0, 1.0, false), 0.0);
        assert_eq!(gain(3.0, 1.0, false), 1.0, "too loud counts as full");
        assert_eq!(gain(-1.0, 1.0, false), 0.0);
        assert_eq!(gain(f32::NAN, 1.0, false), 0.0, "nonsense is silence");
        assert!(gain(0.8, 0.6, false) < gain(0.8, 0.7, false), "louder is louder");
    }

    #[test]
    fn fades_run_from_zero_to_one() {
        assert_eq!(fade(0.0, 2.0), 0.0);
        assert_eq!(fade(1.0, 2.0), 0.5);
        assert_eq!(fade(5.0, 2.0), 1.0);
        assert_eq!(fade(-1.0, 2.0), 0.0, "a clock that steps back does not go negative");
        assert_eq!(fade(1.0, 0.0), 1.0, "no fade is done at once");
        assert_eq!(fade(f32::NAN, 2.0), 1.0);
    }
}
