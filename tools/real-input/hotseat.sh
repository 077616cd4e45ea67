#!/usr/bin/env bash
# Hot-seat and leaving through real X input (xdotool under Xvfb): New Game
# with 2 players (the "Pass to …" screen off, as by default) → Player 1 draws
# and drags a tile: no curtain → "Pass screen" on in the banner → Player 2
# places a tile: still no curtain, a "Pass to Player 1 ▶" button → Menu →
# Continue (the same move) → Pass to → the curtain → Enter lifts it → Player 1
# places with the keyboard (arrows, Enter) → the window's close button →
# the app has saved 4 tiles and exited. Screenshots go to $OUT (default /tmp).
#
# Needs what smoke.sh needs. Run from the repository root:
#   tools/real-input/hotseat.sh "$CARGO_TARGET_DIR/debug/forgotten-depths"
# The coordinates fit the 1280×800 window and seed 5.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if [ "${1:-}" = --inside ]; then
  BIN=$2
  shot() { xwd -root -silent | convert xwd:- "$OUT/hotseat-$1.png"; }
  # egui acts on a click only after the pointer has moved there.
  click() { xdotool mousemove $(($1 - 4)) $(($2 - 2)); sleep 0.3; xdotool mousemove "$1" "$2"; sleep 0.3; xdotool click 1; }
  drag() { xdotool mousemove 1000 170; sleep 0.3; xdotool mousedown 1; sleep 0.3
           for p in "950 250" "$1 $2"; do xdotool mousemove $p; sleep 0.2; done; xdotool mouseup 1; }
  "$BIN" --open setup --seed 5 >"$HOME/game.log" 2>&1 &
  pid=$!
  sleep 14
  w=$(xdotool search --name "Forgotten Depths" | head -1)
  xdotool windowfocus "$w"; sleep 0.5
  click 452 300; sleep 2                                  # 2 players
  shot 1-setup
  click 440 732; sleep 5                                  # Start
  xdotool windowfocus "$w"; xdotool key d; sleep 2        # Player 1 draws
  drag 828 400; sleep 2.5                                 # … and drops it east of the Entry
  shot 2-p1-placed
  click 992 16; sleep 1.5                                 # "Pass screen" on
  xdotool windowfocus "$w"; xdotool key d; sleep 2        # Player 2 draws
  drag 625 603; sleep 2.5                                 # … and drops it south
  shot 3-p2-placed
  click 45 15; sleep 2.5                                  # Menu
  click 640 393; sleep 3                                  # Continue
  shot 4-continued
  click 1050 15; sleep 2                                  # Pass to Player 1
  shot 5-curtain
  xdotool windowfocus "$w"; xdotool key Return; sleep 1.5 # Player 1 lifts it
  xdotool key d; sleep 1.5; xdotool key Right; sleep 1; xdotool key Return; sleep 2
  shot 6-p1-keyboard
  . "$here/common.sh"
  close_and_expect_exit "$w" "$pid"                       # the close button
fi

BIN=${1:?the forgotten-depths binary}
. "$here/common.sh"
expect_tiles "$0" "$BIN" 4 "closing saved every move" "hotseat-*.png"
