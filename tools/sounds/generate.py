#!/usr/bin/env python3
"""Makes the game's sounds from nothing but arithmetic: the effects and one
ambient loop per Ecology, written to assets/sounds/ as Ogg Vorbis.

Python's standard library synthesises each sound (seeded, so a run gives the
same samples); sox encodes it to Ogg Vorbis (Debian: `apt-get install sox
libsox-fmt-all`) and decodes it again so the check below measures what the
game will play: duration, peak level (no clipping), and for the loops how
smoothly the end runs into the start.

    python3 tools/sounds/generate.py            # writes assets/sounds/*.ogg
    python3 tools/sounds/generate.py --check    # measures the files only

The figures are written to tools/sounds/report.txt. The run fails (exit 1)
when a file clips, is too quiet, or a loop's seam jumps.
"""

import math
import os
import random
import struct
import subprocess
import sys
import tempfile
import wave

RATE = 44100  # the effects'; the loops are made at MUSIC_RATE (see below)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "assets", "sounds")
REPORT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "report.txt")
TAU = 2.0 * math.pi

# Peak levels the sounds are scaled to: effects at -3 dBFS leave the
# encoder room; the loops sit lower (the game turns music down further).
EFFECT_PEAK = 10 ** (-3 / 20)
MUSIC_PEAK = 10 ** (-6 / 20)
# Vorbis quality (sox -C). The loops need 5 (~130 kb/s): at 3 the codec's
# error alone made their seams jump (measured: up to 4x an ordinary step
# between neighbouring samples at 3, under 1x at 5).
EFFECT_QUALITY = 4
MUSIC_QUALITY = 5


# --- building blocks -------------------------------------------------------


def silence(seconds):
    return [0.0] * int(seconds * RATE)


def mix_into(buf, sound, at=0.0, gain=1.0, wrap=False):
    """Adds `sound` into `buf` from `at` seconds; with `wrap` the part past
    the end comes round to the start (for loops)."""
    start = int(at * RATE)
    n = len(buf)
    for i, s in enumerate(sound):
        j = start + i
        if wrap:
            j %= n
        elif j >= n:
            break
        buf[j] += s * gain


def envelope(n, attack, decay_tau, hold=0.0):
    """Linear attack, optional hold, then an exponential decay (seconds)."""
    a = max(1, int(attack * RATE))
    h = int(hold * RATE)
    out = []
    for i in range(n):
        if i < a:
            out.append(i / a)
        elif i < a + h:
            out.append(1.0)
        else:
            out.append(math.exp(-(i - a - h) / (decay_tau * RATE)))
    return out


def sweep_sine(seconds, f0, f1, curve=6.0):
    """A sine gliding from f0 to f1 (exponentially fast at first)."""
    n = int(seconds * RATE)
    phase = 0.0
    out = []
    for i in range(n):
        t = i / n
        f = f1 + (f0 - f1) * math.exp(-curve * t)
        phase += TAU * f / RATE
        out.append(math.sin(phase))
    return out


def noise(seconds, rng):
    return [rng.uniform(-1.0, 1.0) for _ in range(int(seconds * RATE))]


def lowpass(x, cutoff, passes=1, circular=False):
    """One-pole low-pass, `passes` times; `circular` runs in on the buffer's
    own end first so a loop's start continues its end."""
    k = 1.0 - math.exp(-TAU * cutoff / RATE)
    for _ in range(passes):
        y = 0.0
        if circular:
            for s in x[-min(len(x), RATE):]:
                y += k * (s - y)
        out = []
        for s in x:
            y += k * (s - y)
            out.append(y)
        x = out
    return x


def highpass(x, cutoff):
    low = lowpass(x, cutoff)
    return [a - b for a, b in zip(x, low)]


def bandpass(x, low, high, passes=2):
    return highpass(lowpass(x, high, passes), low)


def times(a, b):
    return [p * q for p, q in zip(a, b)]


def soft_clip(x, drive):
    return [math.tanh(s * drive) / math.tanh(drive) for s in x]


def tone(seconds, freq, harmonics, vibrato=0.0, rng=None):
    """Additive tone: `harmonics` is [(multiple, amplitude)]."""
    n = int(seconds * RATE)
    out = [0.0] * n
    for mult, amp in harmonics:
        f = freq * mult
        if f >= RATE / 2:
            continue
        for i in range(n):
            t = i / RATE
            out[i] += amp * math.sin(TAU * f * t + vibrato * math.sin(TAU * 5.0 * t))
    return out


def normalise(x, peak):
    top = max(abs(s) for s in x) or 1.0
    return [s * peak / top for s in x]


def fade_ends(x, fade_in=0.002, fade_out=0.02):
    """Short fades so no effect starts or stops with a click."""
    n = len(x)
    a, b = int(fade_in * RATE), int(fade_out * RATE)
    for i in range(min(a, n)):
        x[i] *= i / a
    for i in range(min(b, n)):
        x[n - 1 - i] *= i / b
    return x


# --- the effects -----------------------------------------------------------


def tile_place(rng):
    """A stone slab set down: a low thump with a short gritty scrape."""
    d = 0.55
    body = times(sweep_sine(d, 95, 48, 9), envelope(int(d * RATE), 0.003, 0.09))
    knock = times(sweep_sine(d, 240, 140, 20), envelope(int(d * RATE), 0.001, 0.025))
    grit = times(bandpass(noise(d, rng), 300, 2200), envelope(int(d * RATE), 0.002, 0.035))
    out = silence(d)
    mix_into(out, body, gain=1.0)
    mix_into(out, knock, gain=0.35)
    mix_into(out, grit, gain=0.8)
    return fade_ends(normalise(soft_clip(out, 1.6), EFFECT_PEAK))


def card_play(rng):
    """A card swished through the air and slapped on the table."""
    d = 0.3
    n = int(d * RATE)
    swish_env = [math.sin(math.pi * min(1.0, i / (0.09 * RATE))) ** 2 if i < 0.09 * RATE else 0.0 for i in range(n)]
    swish = times(bandpass(noise(d, rng), 1500, 6000), swish_env)
    slap = silence(d)
    mix_into(slap, times(bandpass(noise(0.2, rng), 600, 5000), envelope(int(0.2 * RATE), 0.0005, 0.018)), at=0.085)
    thump = silence(d)
    mix_into(thump, times(sweep_sine(0.2, 180, 110, 12), envelope(int(0.2 * RATE), 0.001, 0.03)), at=0.085)
    out = silence(d)
    mix_into(out, swish, gain=0.35)
    mix_into(out, slap, gain=1.0)
    mix_into(out, thump, gain=0.5)
    return fade_ends(normalise(out, EFFECT_PEAK * 0.85))


def hit(rng):
    """A punchy blow landing: a snap, a pitched-down thump and a crunch."""
    d = 0.45
    n = int(d * RATE)
    thump = times(sweep_sine(d, 170, 52, 14), envelope(n, 0.001, 0.07))
    snap = times(highpass(noise(d, rng), 2500), envelope(n, 0.0003, 0.008))
    crunch = times(bandpass(noise(d, rng), 200, 1800), envelope(n, 0.001, 0.05))
    out = silence(d)
    mix_into(out, thump, gain=1.0)
    mix_into(out, snap, gain=0.6)
    mix_into(out, crunch, gain=0.7)
    return fade_ends(normalise(soft_clip(out, 2.5), EFFECT_PEAK))


def hurt(rng):
    """A Hero takes a wound: a duller blow and a low falling groan of a tone."""
    d = 0.6
    n = int(d * RATE)
    thump = times(sweep_sine(d, 120, 45, 10), envelope(n, 0.002, 0.08))
    crunch = times(bandpass(noise(d, rng), 150, 900), envelope(n, 0.002, 0.06))
    groan_env = envelope(n, 0.03, 0.16, hold=0.05)
    phase, groan = 0.0, []
    for i in range(n):
        f = 210 - 80 * (i / n)
        phase += TAU * f / RATE
        # A few odd harmonics make it reedy rather than pure.
        groan.append(math.sin(phase) + 0.3 * math.sin(3 * phase) + 0.12 * math.sin(5 * phase))
    groan = lowpass(times(groan, groan_env), 900)
    out = silence(d)
    mix_into(out, thump, gain=1.0)
    mix_into(out, crunch, gain=0.5)
    mix_into(out, groan, gain=0.35)
    return fade_ends(normalise(soft_clip(out, 2.0), EFFECT_PEAK))


def reveal(rng):
    """Something turned face up: a soft rising shimmer of bell-like partials."""
    d = 1.4
    out = silence(d)
    notes = [880.0, 1108.7, 1318.5, 1760.0, 2217.5]  # A major, upwards
    for k, f in enumerate(notes):
        m = int((d - 0.07 * k) * RATE)
        env = envelope(m, 0.04, 0.35)
        part = [
            (math.sin(TAU * f * i / RATE) + 0.25 * math.sin(TAU * f * 2.01 * i / RATE))
            * (0.8 + 0.2 * math.sin(TAU * 7.0 * i / RATE + k))
            for i in range(m)
        ]
        mix_into(out, times(part, env), at=0.07 * k, gain=0.9 ** k)
    air = times(bandpass(noise(d, rng), 4000, 9000), envelope(int(d * RATE), 0.15, 0.3))
    mix_into(out, air, gain=0.08)
    return fade_ends(normalise(out, EFFECT_PEAK * 0.7), fade_out=0.2)


def brass(seconds, freq, attack=0.03, decay=0.6, hold=0.0):
    """A soft horn: harmonics falling off, a little vibrato, a gentle swell."""
    n = int(seconds * RATE)
    body = tone(seconds, freq, [(1, 1.0), (2, 0.55), (3, 0.35), (4, 0.2), (5, 0.12), (6, 0.06)], vibrato=0.004)
    return times(body, envelope(n, attack, decay, hold))


def victory(rng):
    """A short rising fanfare ending on a held major chord."""
    d = 2.8
    out = silence(d)
    c4, e4, g4, c5 = 261.63, 329.63, 392.0, 523.25
    for at, f in [(0.0, c4), (0.16, e4), (0.32, g4)]:
        mix_into(out, brass(0.35, f, decay=0.18, hold=0.08), at=at, gain=0.8)
    for f, g in [(c5, 0.8), (g4, 0.55), (e4, 0.5), (c4, 0.45)]:
        mix_into(out, brass(d - 0.5, f, attack=0.05, decay=0.55, hold=0.5), at=0.48, gain=g)
    sparkle = times(bandpass(noise(d, rng), 5000, 10000), envelope(int(d * RATE), 0.5, 0.4))
    mix_into(out, sparkle, gain=0.03)
    return fade_ends(normalise(out, EFFECT_PEAK), fade_out=0.3)


def defeat(rng):
    """A low falling motif in a minor key, fading into a dark drone."""
    d = 3.4
    out = silence(d)
    # G3, E-flat 3, C3, then the low B2 a semitone below: falling, unresolved.
    motif = [(0.0, 196.0), (0.45, 155.56), (0.9, 130.81), (1.45, 123.47)]
    for k, (at, f) in enumerate(motif):
        last = k == len(motif) - 1
        seconds = d - at if last else 0.6
        note = tone(seconds, f, [(1, 1.0), (2, 0.4), (3, 0.25), (4, 0.1)], vibrato=0.003)
        note = times(note, envelope(int(seconds * RATE), 0.04, 0.7 if last else 0.2, 0.3 if last else 0.1))
        mix_into(out, lowpass(note, 1200), at=at, gain=0.8)
    drone = times(tone(d, 65.41, [(1, 1.0), (2, 0.3)]), envelope(int(d * RATE), 0.8, 0.9, 0.8))
    mix_into(out, drone, gain=0.35)
    rumble = times(lowpass(noise(d, rng), 120, 2), envelope(int(d * RATE), 0.6, 1.0))
    mix_into(out, rumble, gain=0.6)
    return fade_ends(normalise(out, EFFECT_PEAK * 0.9), fade_out=0.4)


def key(rng):
    """A key turned in an old lock: two metallic clinks and a click."""
    d = 0.5
    out = silence(d)
    for at, base in [(0.0, 2400.0), (0.13, 3100.0)]:
        n = int(0.35 * RATE)
        ring = [
            math.sin(TAU * base * i / RATE)
            + 0.6 * math.sin(TAU * base * 1.47 * i / RATE)
            + 0.35 * math.sin(TAU * base * 2.09 * i / RATE)
            for i in range(n)
        ]
        mix_into(out, times(ring, envelope(n, 0.0005, 0.05)), at=at, gain=0.5)
    click = times(bandpass(noise(0.1, rng), 800, 4000), envelope(int(0.1 * RATE), 0.0005, 0.01))
    mix_into(out, click, at=0.28, gain=0.9)
    return fade_ends(normalise(out, EFFECT_PEAK * 0.7))


def level_up(rng):
    """The party grows stronger: a quick bright arpeggio with a soft bell tail."""
    d = 1.6
    out = silence(d)
    notes = [392.0, 493.88, 587.33, 783.99]  # G major, rising
    for k, f in enumerate(notes):
        seconds = d - 0.11 * k
        body = tone(seconds, f, [(1, 1.0), (2, 0.3), (3, 0.15), (4.2, 0.08)])
        mix_into(out, times(body, envelope(int(seconds * RATE), 0.008, 0.3 if k < 3 else 0.5)), at=0.11 * k, gain=0.7)
    shimmer = times(bandpass(noise(d, rng), 3000, 8000), envelope(int(d * RATE), 0.3, 0.3))
    mix_into(out, shimmer, gain=0.04)
    return fade_ends(normalise(out, EFFECT_PEAK * 0.8), fade_out=0.2)


# --- the ambient loops -----------------------------------------------------
#
# A loop of LOOP seconds repeats seamlessly when every oscillator makes a
# whole number of cycles in it: frequencies are rounded to multiples of
# 1/LOOP Hz, slow swells too; noise is filtered circularly and one-off
# sounds (drips) wrap round the end.
#
# The file holds PAD seconds of the loop's own end before it and of its
# start after it, and the game plays only the middle LOOP seconds: a Vorbis
# encoder's error is largest at the very ends of a stream (measured: it made
# the seam jump), so the ends are kept out of what is heard. The game's
# sound.rs has the same figures (MUSIC_RATE, LOOP_SECONDS, PAD_SECONDS).
# 32 kHz stereo makes one sample 15 625 ns exactly, so the player's
# duration-based cut (whole nanoseconds) lands on a whole sample.

LOOP = 32.0
PAD = 0.5
MUSIC_RATE = 32000


def snap(freq):
    """The nearest frequency with a whole number of cycles per loop."""
    return max(1, round(freq * LOOP)) / LOOP


def loop_tone(freq, harmonics, swell_cycles, swell_depth, phase):
    n = int(LOOP * RATE)
    f = snap(freq)
    out = [0.0] * n
    for mult, amp in harmonics:
        fk = snap(f * mult)
        w = TAU * fk / RATE
        for i in range(n):
            out[i] += amp * math.sin(w * i + phase * mult)
    sw = TAU * swell_cycles / n
    return [s * (1.0 - swell_depth * 0.5 * (1 - math.cos(sw * i + phase))) for i, s in enumerate(out)]


def loop_noise(rng, low, high, swell_cycles, phase):
    n = int(LOOP * RATE)
    x = [rng.uniform(-1.0, 1.0) for _ in range(n)]
    x = lowpass(x, high, passes=2, circular=True)
    x = [a - b for a, b in zip(x, lowpass(x, low, circular=True))]
    sw = TAU * swell_cycles / n
    return [s * (0.6 + 0.4 * math.sin(sw * i + phase)) for i, s in enumerate(x)]


def stereo(left, right):
    return (left, right)


def pad(voices, rng, spread=0.5):
    """Sums (freq, harmonics, gain, swell_cycles) voices into a stereo pair;
    each voice is a little detuned between the ears for width."""
    n = int(LOOP * RATE)
    left, right = [0.0] * n, [0.0] * n
    for freq, harmonics, gain, cycles in voices:
        ph = rng.uniform(0, TAU)
        detune = spread / LOOP  # a whole number of beats per loop
        for buf, df in ((left, -detune), (right, detune)):
            v = loop_tone(freq + df, harmonics, cycles, 0.7, ph)
            for i in range(n):
                buf[i] += v[i] * gain
    return left, right


def ruins(rng):
    """Ruins: an open fifth on D with a slow minor third above, and wind."""
    warm = [(1, 1.0), (2, 0.35), (3, 0.12)]
    left, right = pad(
        [(73.42, warm, 0.5, 1), (110.0, warm, 0.35, 2), (174.61, warm, 0.18, 3), (220.0, [(1, 1.0)], 0.1, 4)],
        rng,
    )
    for buf, ph in ((left, 0.0), (right, 1.7)):
        wind = loop_noise(rng, 300, 1400, 3, ph)
        mix_into(buf, wind, gain=0.5, wrap=True)
    return left, right


def caverns(rng):
    """Caverns: a low E drone, distant water and slow echoing drips."""
    warm = [(1, 1.0), (2, 0.25), (3, 0.08)]
    left, right = pad([(82.41, warm, 0.5, 1), (123.47, warm, 0.25, 2), (164.81, [(1, 1.0)], 0.12, 3)], rng)
    for buf, ph in ((left, 0.5), (right, 2.4)):
        water = loop_noise(rng, 150, 700, 2, ph)
        mix_into(buf, water, gain=0.6, wrap=True)
    # Drips: short falling plinks with two quieter echoes, wrapping round.
    for at in [1.3, 4.9, 7.2, 11.8, 15.1, 17.0, 21.6, 24.4, 28.3, 31.2]:
        f = rng.choice([1046.5, 1174.7, 1318.5, 1568.0])
        drip = times(sweep_sine(0.4, f * 1.5, f, 30), envelope(int(0.4 * RATE), 0.001, 0.06))
        pan = rng.uniform(0.2, 0.8)
        for echo, g in [(0.0, 0.09), (0.23, 0.035), (0.47, 0.015)]:
            mix_into(left, drip, at=(at + echo) % LOOP, gain=g * (1 - pan), wrap=True)
            mix_into(right, drip, at=(at + echo) % LOOP, gain=g * pan, wrap=True)
    return left, right


def subterranean(rng):
    """Subterranean Architecture: a deep beating C drone, a far-off hum of
    old machinery and a low rumble."""
    dark = [(1, 1.0), (2, 0.5), (3, 0.25), (4, 0.12)]
    left, right = pad(
        [(65.41, dark, 0.5, 1), (65.41 * 1.5, dark, 0.22, 2), (155.56, [(1, 1.0), (2, 0.2)], 0.1, 3)], rng, spread=1.0
    )
    hum = loop_tone(130.81, [(1, 1.0), (3, 0.4), (5, 0.2)], 4, 0.9, 0.3)
    for buf, g in ((left, 0.06), (right, 0.045)):
        mix_into(buf, hum, gain=g, wrap=True)
    for buf, ph in ((left, 0.9), (right, 2.9)):
        rumble = loop_noise(rng, 25, 160, 2, ph)
        mix_into(buf, rumble, gain=1.4, wrap=True)
    return left, right


EFFECTS = [
    ("tile_place", tile_place),
    ("card_play", card_play),
    ("hit", hit),
    ("hurt", hurt),
    ("reveal", reveal),
    ("victory", victory),
    ("defeat", defeat),
    ("key", key),
    ("level_up", level_up),
]
MUSIC = [("music_ruins", ruins), ("music_caverns", caverns), ("music_subterranean", subterranean)]


# --- files and checks ------------------------------------------------------


def write_wav(path, channels):
    n = len(channels[0])
    with wave.open(path, "wb") as w:
        w.setnchannels(len(channels))
        w.setsampwidth(2)
        w.setframerate(RATE)
        frames = bytearray()
        for i in range(n):
            for ch in channels:
                frames += struct.pack("<h", max(-32767, min(32767, round(ch[i] * 32767))))
        w.writeframes(bytes(frames))


def read_wav(path):
    with wave.open(path, "rb") as w:
        c, n, rate = w.getnchannels(), w.getnframes(), w.getframerate()
        data = struct.unpack("<%dh" % (n * c), w.readframes(n))
    return rate, [list(data[k::c]) for k in range(c)]


def measure(path, is_loop, tmp):
    """Decodes `path` with sox and measures what a player will hear."""
    decoded = os.path.join(tmp, "check.wav")
    subprocess.run(["sox", path, "-b", "16", decoded], check=True)
    rate, chans = read_wav(decoded)
    n = len(chans[0])
    peak = max(max(abs(s) for s in ch) for ch in chans) / 32768.0
    clipped = sum(1 for ch in chans for s in ch if abs(s) >= 32767)
    rms = math.sqrt(sum(s * s for ch in chans for s in ch) / (n * len(chans))) / 32768.0
    figures = {
        "seconds": n / rate,
        "bytes": os.path.getsize(path),
        "peak_dbfs": 20 * math.log10(peak) if peak > 0 else -999.0,
        "rms_dbfs": 20 * math.log10(rms) if rms > 0 else -999.0,
        "clipped": clipped,
    }
    if is_loop:
        # The part the game plays, and the jump from its last sample back to
        # its first, against the steps between neighbours inside it: a seam
        # no bigger than an ordinary step is inaudible.
        pad = int(PAD * rate)
        chans = [ch[pad : n - pad] for ch in chans]
        n = len(chans[0])
        figures["rate"] = rate
        figures["loop_seconds"] = n / rate
        seam = max(abs(ch[0] - ch[-1]) for ch in chans)
        step = max(max(abs(ch[i + 1] - ch[i]) for i in range(n - 1)) for ch in chans)
        typical = sorted(abs(ch[i + 1] - ch[i]) for ch in chans for i in range(0, n - 1, 7))
        figures["seam"] = seam / 32768.0
        figures["seam_vs_max_step"] = seam / step if step else 0.0
        figures["seam_vs_p99_step"] = seam / max(1, typical[int(len(typical) * 0.99)])
    return figures


def problems(name, f, is_loop):
    out = []
    if f["clipped"]:
        out.append(f"{name}: {f['clipped']} clipped samples")
    if f["peak_dbfs"] > -0.5:
        out.append(f"{name}: peak {f['peak_dbfs']:.1f} dBFS leaves no headroom")
    if f["peak_dbfs"] < -20:
        out.append(f"{name}: peak {f['peak_dbfs']:.1f} dBFS is too quiet")
    if is_loop and f["seam_vs_p99_step"] > 1.0:
        out.append(f"{name}: the loop's seam jumps ({f['seam_vs_p99_step']:.2f}x a 99th-percentile step)")
    if is_loop and (f["loop_seconds"] != LOOP or f["rate"] != MUSIC_RATE):
        out.append(f"{name}: a {f['loop_seconds']} s loop at {f['rate']} Hz, not {LOOP} s at {MUSIC_RATE}")
    return out


def main():
    global RATE
    check_only = "--check" in sys.argv
    os.makedirs(OUT, exist_ok=True)
    rng = random.Random(13)
    lines = [
        "Figures of the decoded files (sox), from tools/sounds/generate.py.",
        "seam: |last - first| sample of a loop, as a fraction of full scale and",
        "against the 99th-percentile step between neighbouring samples (<= 1: inaudible).",
        "",
    ]
    failures = []
    total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, make, is_loop in [(n, m, False) for n, m in EFFECTS] + [(n, m, True) for n, m in MUSIC]:
            path = os.path.join(OUT, name + ".ogg")
            if not check_only:
                RATE = MUSIC_RATE if is_loop else 44100
                made = make(rng)
                chans = list(made) if is_loop else [made]
                if is_loop:
                    pad = int(PAD * RATE)
                    chans = [ch[-pad:] + ch + ch[:pad] for ch in normalise_pair(chans, MUSIC_PEAK)]
                wav = os.path.join(tmp, name + ".wav")
                write_wav(wav, chans)
                quality = MUSIC_QUALITY if is_loop else EFFECT_QUALITY
                subprocess.run(["sox", wav, "-C", str(quality), path], check=True)
            f = measure(path, is_loop, tmp)
            total += f["bytes"]
            line = (
                f"{name + '.ogg':26} {f['seconds']:6.2f} s {f['bytes'] / 1024:7.1f} KiB "
                f"peak {f['peak_dbfs']:6.1f} dBFS  rms {f['rms_dbfs']:6.1f} dBFS  clipped {f['clipped']}"
            )
            if is_loop:
                line += f"  loop {f['loop_seconds']:.2f} s at {f['rate']} Hz"
                line += f"  seam {f['seam']:.4f} ({f['seam_vs_p99_step']:.2f}x p99 step)"
            print(line, flush=True)
            lines.append(line)
            failures += problems(name, f, is_loop)
    lines.append("")
    lines.append(f"total {total / 1024:.1f} KiB")
    print(lines[-1])
    with open(REPORT, "w") as r:
        r.write("\n".join(lines) + "\n")
    for p in failures:
        print("PROBLEM:", p, file=sys.stderr)
    return 1 if failures else 0


def normalise_pair(chans, peak):
    top = max(max(abs(s) for s in ch) for ch in chans) or 1.0
    return [[s * peak / top for s in ch] for ch in chans]


if __name__ == "__main__":
    sys.exit(main())
