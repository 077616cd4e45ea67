#!/usr/bin/env python3
"""Rasterize Game Icons glyphs into the PNGs under assets/icons/.

Reads the Game Icons set in Iconify JSON form (the `icons.json` of the npm
package @iconify-json/game-icons) and the list in tools/icons/wanted.json,
then writes:

  * assets/icons/<name>.png for every entry of "icons": 128x128, the glyph in
    pure white on a transparent background (the game tints it);
  * assets/icons/<app name>.png: the window icon, a gold glyph on a dark
    rounded square, 64x64 RGBA.

Afterwards it checks that every value in assets/icons/icons.json names one of
the PNGs and that every monster id in assets/content/ has an icon.

The game's build never runs this; the PNGs are committed. See README.md.

Needs `rsvg-convert` (Debian: librsvg2-bin) and Pillow (Debian: python3-pil).
"""

import argparse
import difflib
import glob
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

from PIL import Image

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
WANTED = HERE / "wanted.json"
# The release packages' icons (tools/package/package.sh, the client's build.rs).
PACKAGING = ROOT / "packaging"
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
OUT = ROOT / "assets" / "icons"
CONTENT = ROOT / "assets" / "content"

ICON_SIZE = 128
# Extra space around the glyph's grid (in the glyph's own units, 512 a side),
# so that even glyphs drawn to the very edge keep a few pixels of margin.
PADDING = 16

# The window icon: a gold glyph on a dark rounded square.
APP_BACKGROUND_TOP = "#2b2533"
APP_BACKGROUND_BOTTOM = "#120f16"
APP_BORDER = "#7a5a24"
APP_GOLD_LIGHT = "#f6cf6a"
APP_GOLD_DARK = "#c98a22"


def fail(message):
    sys.exit(f"rasterize.py: {message}")


def load_icon_set(path):
    """The Iconify JSON; `path` may be the file or a folder holding it."""
    path = Path(path)
    if path.is_dir():
        for candidate in (path / "icons.json", path / "package" / "icons.json",
                          path / "node_modules/@iconify-json/game-icons/icons.json"):
            if candidate.is_file():
                path = candidate
                break
        else:
            fail(f"no icons.json found in {path}")
    with open(path, encoding="utf-8") as f:
        icon_set = json.load(f)
    if icon_set.get("prefix") != "game-icons":
        fail(f"{path} is not the Game Icons set (prefix {icon_set.get('prefix')!r})")
    return icon_set


def glyph(icon_set, name):
    """(body, left, top, width, height) of one icon; exits if it is unknown."""
    icons = icon_set["icons"]
    aliases = icon_set.get("aliases", {})
    while name not in icons and name in aliases:
        name = aliases[name]["parent"]
    if name not in icons:
        close = difflib.get_close_matches(name, list(icons) + list(aliases), n=5)
        hint = f" (did you mean: {', '.join(close)}?)" if close else ""
        fail(f"unknown Game Icons name {name!r}{hint}")
    icon = icons[name]
    return (
        icon["body"],
        icon.get("left", icon_set.get("left", 0)),
        icon.get("top", icon_set.get("top", 0)),
        icon.get("width", icon_set.get("width", 16)),
        icon.get("height", icon_set.get("height", 16)),
    )


def render(svg, size):
    """Renders SVG text to a size x size RGBA image with rsvg-convert."""
    result = subprocess.run(
        ["rsvg-convert", "--width", str(size), "--height", str(size), "--format", "png"],
        input=svg.encode("utf-8"),
        capture_output=True,
    )
    if result.returncode != 0:
        fail(f"rsvg-convert failed: {result.stderr.decode(errors='replace').strip()}")
    return Image.open(io.BytesIO(result.stdout)).convert("RGBA")


def white_icon(icon_set, name):
    body, left, top, width, height = glyph(icon_set, name)
    side = max(width, height) + 2 * PADDING
    x = left - PADDING - (side - 2 * PADDING - width) / 2
    y = top - PADDING - (side - 2 * PADDING - height) / 2
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{ICON_SIZE}" height="{ICON_SIZE}" '
        f'viewBox="{x} {y} {side} {side}">'
        f'{body.replace("currentColor", "#000")}</svg>'
    )
    coverage = render(svg, ICON_SIZE).getchannel("A")
    # Every pixel is white, the glyph is only in the alpha channel: no dark
    # fringe where the engine filters the texture, however it is tinted.
    image = Image.new("RGBA", (ICON_SIZE, ICON_SIZE), (255, 255, 255, 0))
    image.putalpha(coverage)
    return image


def app_icon(icon_set, name, size):
    body, left, top, width, height = glyph(icon_set, name)
    # Drawn on a 512 grid: a rounded square, the glyph scaled into its middle.
    inset = 14
    scale = 360 / max(width, height)
    dx = 256 - (left + width / 2) * scale
    dy = 256 - (top + height / 2) * scale
    svg = f"""<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 512 512">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="{APP_BACKGROUND_TOP}"/>
      <stop offset="1" stop-color="{APP_BACKGROUND_BOTTOM}"/>
    </linearGradient>
    <linearGradient id="gold" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="{APP_GOLD_LIGHT}"/>
      <stop offset="1" stop-color="{APP_GOLD_DARK}"/>
    </linearGradient>
  </defs>
  <rect x="{inset}" y="{inset}" width="{512 - 2 * inset}" height="{512 - 2 * inset}" rx="96"
        fill="url(#bg)" stroke="{APP_BORDER}" stroke-width="16"/>
  <g transform="translate({dx} {dy}) scale({scale})" fill="url(#gold)">
    {body.replace('fill="currentColor"', "").replace("currentColor", "url(#gold)")}
  </g>
</svg>"""
    # Drawn large and scaled down, which keeps the thin strokes crisp.
    return render(svg, size * 4).resize((size, size), Image.LANCZOS)


def save(image, path):
    image.save(path, format="PNG", optimize=True)


def content_ids():
    """Every monster id the game has, and every Final Entity part id."""
    monsters = []
    for pattern in ("*/monsters.json", "*/stair_guardians.json"):
        for path in sorted(glob.glob(str(CONTENT / pattern))):
            with open(path, encoding="utf-8") as f:
                for cards in json.load(f).values():
                    monsters += [card["id"] for card in cards]
    parts = []
    final_entity = CONTENT / "final_entity.json"
    if final_entity.is_file():
        with open(final_entity, encoding="utf-8") as f:
            for group in json.load(f).values():
                for part in group if isinstance(group, list) else [group]:
                    if isinstance(part, dict) and "id" in part:
                        parts.append(part["id"])
    return monsters, parts


def check_mapping(written):
    """Problems in assets/icons/icons.json, as a list of sentences."""
    mapping_path = OUT / "icons.json"
    if not mapping_path.is_file():
        return [f"{mapping_path.relative_to(ROOT)} is missing"]
    with open(mapping_path, encoding="utf-8") as f:
        mapping = json.load(f)
    problems = []
    for section, entries in mapping.items():
        for key, stem in entries.items():
            if stem not in written and not (OUT / f"{stem}.png").is_file():
                problems.append(f"icons.json {section}.{key} names {stem!r}, which has no PNG")
    monsters, parts = content_ids()
    for monster in monsters:
        if monster not in mapping.get("monsters", {}):
            problems.append(f"monster {monster!r} has no icon in icons.json")
    for part in parts:
        if part not in mapping.get("final_entity_parts", {}):
            problems.append(f"Final Entity part {part!r} has no icon in icons.json")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("icon_set", help="icons.json of @iconify-json/game-icons, or a folder holding it")
    parser.add_argument("--out", default=str(OUT), help=f"output folder (default {OUT.relative_to(ROOT)})")
    args = parser.parse_args()

    if shutil.which("rsvg-convert") is None:
        fail("rsvg-convert not found; install it (Debian: apt-get install librsvg2-bin)")

    icon_set = load_icon_set(args.icon_set)
    with open(WANTED, encoding="utf-8") as f:
        wanted = json.load(f)

    # Attribution is a condition of the licence: refuse icons nobody is credited for.
    credited = {icon for icons in wanted["authors"].values() for icon in icons}
    used = set(wanted["icons"].values()) | {wanted["app"]["glyph"]}
    uncredited = sorted(used - credited)
    if uncredited:
        fail(f"no author listed in wanted.json for: {', '.join(uncredited)}")

    # Check every name before writing anything.
    for source in sorted(used):
        glyph(icon_set, source)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    written = set()
    for name, source in wanted["icons"].items():
        save(white_icon(icon_set, source), out / f"{name}.png")
        written.add(name)
    app = wanted["app"]
    save(app_icon(icon_set, app["glyph"], app["size"]), out / f"{app['name']}.png")
    written.add(app["name"])
    # The same icon for the release packages: 512x512 for the macOS app
    # (iconutil makes its sizes), and the Windows .exe's icon file.
    PACKAGING.mkdir(parents=True, exist_ok=True)
    large = app_icon(icon_set, app["glyph"], 512)
    save(large, PACKAGING / "app-icon.png")
    large.save(PACKAGING / "forgotten-depths.ico", format="ICO", sizes=[(s, s) for s in ICO_SIZES])
    print(f"wrote the packages' icons to {PACKAGING}")
    print(f"wrote {len(written)} PNGs to {out}")

    stale = sorted(p.name for p in out.glob("*.png") if p.stem not in written)
    if stale:
        print(f"note: PNGs not in wanted.json (delete them if unused): {', '.join(stale)}")
    if out.resolve() == OUT.resolve():
        problems = check_mapping(written)
        for problem in problems:
            print(f"warning: {problem}")
        if problems:
            sys.exit(1)


if __name__ == "__main__":
    main()
