#!/usr/bin/env bash
# The hot-seat "Pass to …" flow with instant clicks (the pointer moved,
# pressed and released in one go, as a trackpad tap): New Game → 2 players →
# "Pass to …" screen on → Start → I am Player 1 → D → a gold cell, then the
# tile (two taps) → a few seconds → "Pass to Player 2 ▶" → I am Player 2 → D,
# H, Enter → the close button. Each screenshot that should show the table is
# checked to be the table, not a banner grown over the window
# (table-shown.py); the save must hold 3 tiles. Screenshots go to $OUT.
#
# Needs what smoke.sh needs, and imagemagick. Run from the repository root:
#   tools/real-input/hotseat-pass.sh "$CARGO_TARGET_DIR/debug/forgotten-depths"
# The coordinates fit the 1280×800 window and seed 5.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if [ "${1:-}" = --inside ]; then
  BIN=$2
  shot() { xwd -root -silent | convert xwd:- "$OUT/pass-$1.png"; }
  # The table, not a collapsed banner (a failure ends the run).
  table() { shot "$1"; python3 "$here/table-shown.py" "$OUT/pass-$1.png" || { echo "FAIL: $1"; exit 1; }; }
  # Move, press and release at once: no pause for a frame in between.
  tap() { xdotool mousemove "$1" "$2" click 1; }
  # Frames go on for a while (the pointer wanders), as a player's would.
  wander() { for i in $(seq 8); do xdotool mousemove $((560 + 10 * i)) 300; sleep 0.4; done; }
  "$BIN" --open setup --seed 5 >"$HOME/game.log" 2>&1 &
  pid=$!
  sleep 14
  w=$(xdotool search --name "Forgotten Depths" | head -1)
  xdotool windowfocus "$w"; sleep 0.5
  tap 452 300; sleep 1                                    # 2 players
  tap 521 300; sleep 1                                    # "Pass to …" screen
  shot 1-setup
  tap 440 732; sleep 3                                    # Start
  shot 2-curtain-player-1
  tap 640 403; sleep 2                                    # I am Player 1
  table 3-player-1
  xdotool windowfocus "$w"; xdotool key d; sleep 2        # draw
  tap 838 375; sleep 1; tap 838 380                       # a gold cell, then the tile: placed
  sleep 2; wander
  table 4-placed
  tap 1137 15; sleep 2                                    # Pass to Player 2 ▶
  shot 5-curtain-player-2
  tap 640 403; sleep 2                                    # I am Player 2
  table 6-player-2
  xdotool windowfocus "$w"; xdotool key d; sleep 2; xdotool key h; sleep 2; xdotool key Return
  sleep 2; wander
  table 7-player-2-placed
  . "$here/common.sh"
  close_and_expect_exit "$w" "$pid"                       # the close button
fi

BIN=${1:?the forgotten-depths binary}
. "$here/common.sh"
expect_tiles "$0" "$BIN" 3 "every screenshot showed the table; closing saved every move" "pass-*.png"
