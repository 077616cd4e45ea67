#!/usr/bin/env bash
# A smoke test of the client through real X input (mouse and keyboard events
# from xdotool), as a player would give them: New Game screen → Start → D
# draws a tile → the tile is dragged from the tray onto the board → 1 answers
# the first decision → Ctrl+S. It then reads the save and checks that two
# tiles lie on the map. Screenshots of each step go to $OUT (default /tmp).
#
# Needs: xvfb xauth mesa-vulkan-drivers xdotool x11-apps imagemagick (Debian).
# Run from the repository root after `cargo build -p depths_app`:
#   tools/real-input/smoke.sh "$CARGO_TARGET_DIR/debug/forgotten-depths"
# The coordinates fit the 1280×800 window and the layout of seed 5; if the
# layout changes, look at the screenshots and move them.
set -euo pipefail
. "$(dirname "$0")/common.sh"

# Inside the virtual display: play the steps.
if [ "${1:-}" = --inside ]; then
  BIN=$2
  shot() { xwd -root -silent | convert xwd:- "$OUT/real-input-$1.png"; }
  "$BIN" --open setup --seed 5 >"$HOME/game.log" 2>&1 &
  sleep 12
  w=$(xdotool search --name "Forgotten Depths" | head -1)
  xdotool windowfocus "$w"; sleep 0.5
  shot 1-setup
  xdotool mousemove 440 742; sleep 0.3; xdotool click 1; sleep 4  # Start
  xdotool windowfocus "$w"; sleep 0.5
  xdotool key d; sleep 3                                # draw a tile
  shot 2-drawn
  xdotool mousemove 1010 170 mousedown 1; sleep 0.3     # pick it up from the tray
  for x in 950 920 890 870 850 840; do xdotool mousemove "$x" 375; sleep 0.15; done
  shot 3-dragging
  xdotool mouseup 1; sleep 2                            # drop it east of the Entry
  shot 4-dropped
  save_now
  kill %1 || true
  exit 0
fi

BIN=${1:?the forgotten-depths binary}
expect_tiles "$0" "$BIN" 2 "the dragged tile lies on the map" "real-input-*.png"
