#!/usr/bin/env bash
# The tile in hand on the board, through real X input (xdotool under Xvfb),
# as a player moves it with Bevy's picking: D draws a tile → a click on the
# north gold cell puts it there → a right-click on it turns it → pressing it
# and dragging it onto the east gold cell places it there → D draws again →
# a click on the west gold cell, then a click on the tile, places it → a
# click selects the Monster token there → its Encounter button in the panel
# (a click on egui over the board, which must stay egui's) starts the fight
# → Ctrl+S. It then reads the save: three tiles on the map, and a Combat on.
# Screenshots of each step go to $OUT (default /tmp).
#
# Needs what smoke.sh needs. Run from the repository root:
#   tools/real-input/board.sh "$CARGO_TARGET_DIR/debug/forgotten-depths"
# The coordinates fit the 1280×800 window and the layout of seed 5.
set -euo pipefail
. "$(dirname "$0")/common.sh"

if [ "${1:-}" = --inside ]; then
  BIN=$2
  shot() { xwd -root -silent | convert xwd:- "$OUT/board-input-$1.png"; }
  click() { xdotool mousemove $(($1 - 4)) $(($2 - 2)); sleep 0.3; xdotool mousemove "$1" "$2"; sleep 0.3; xdotool click "${3:-1}"; sleep 1; }
  "$BIN" --open setup --seed 5 >"$HOME/game.log" 2>&1 &
  sleep 12
  w=$(xdotool search --name "Forgotten Depths" | head -1)
  xdotool windowfocus "$w"; sleep 0.5
  click 440 742; sleep 4                                   # Start
  xdotool windowfocus "$w"; sleep 0.5
  xdotool key d; sleep 3                                   # draw a tile
  click 638 168                                            # the north gold cell
  shot 1-on-north
  click 638 168 3                                          # right-click: turn it
  shot 2-turned
  xdotool mousemove 638 168 mousedown 1; sleep 0.3         # pick it up
  for p in "680 220" "740 280" "800 340" "838 368"; do xdotool mousemove $p; sleep 0.15; done
  shot 3-carried
  xdotool mouseup 1; sleep 2                               # let go on the east cell
  shot 4-placed-east
  xdotool key d; sleep 3                                   # draw again
  click 438 368                                            # the west gold cell
  click 438 368                                            # and the tile there: place it
  shot 5-placed-west
  click 407 369                                            # the Monster token: selected
  shot 6-selected
  click 1003 251                                           # its Encounter button in the panel
  shot 7-encountered
  save_now
  kill %1 || true
  exit 0
fi

BIN=${1:?the forgotten-depths binary}
expect_tiles "$0" "$BIN" 3 "both tiles lie where they were put" "board-input-*.png"
stage=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["game"]["stage"])' "$SAVE")
if [ "$stage" = Combat ]; then echo "ok: the panel's Encounter button started the fight"
else echo "FAIL: the game is at $stage after the Encounter button, expected Combat"; exit 1; fi
