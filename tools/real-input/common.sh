# Shared by the real-input scripts (source it): plays "$1 --inside BIN" in a
# fresh home folder under Xvfb at 1280×800, then sets TILES to the number of
# tiles on the map in the save the game left (SAVE: its path), or to "none"
# without a save.
play_and_count_tiles() {
  local script=$1 bin=$2
  export OUT=${OUT:-/tmp}
  export BEVY_ASSET_ROOT=${BEVY_ASSET_ROOT:-$PWD}
  HOME=$(mktemp -d)
  export HOME
  xvfb-run -a -s "-screen 0 1280x800x24" "$script" --inside "$bin"
  SAVE=$(ls "$HOME"/.local/share/forgotten-depths/saves/*.json 2>/dev/null | head -1 || true)
  if [ -z "$SAVE" ]; then TILES=none; return; fi
  TILES=$(python3 -c 'import json,sys; g=json.load(open(sys.argv[1]))["game"]; print(len(g["adventure"]["ecology"]["map"]["tiles"]))' "$SAVE")
}

# Ctrl+S, pressed as a player presses it.
save_now() { xdotool keydown ctrl; sleep 0.2; xdotool key s; sleep 0.2; xdotool keyup ctrl; sleep 2; }

# Plays "$1 --inside $2" and says ok when the save holds $3 tiles ($4: what
# that proves, $5: the screenshots' names), FAIL (exit 1) otherwise.
expect_tiles() {
  play_and_count_tiles "$1" "$2"
  if [ "$TILES" = none ]; then echo "FAIL: no save was written"; exit 1; fi
  if [ "$TILES" = "$3" ]; then echo "ok: $4 ($3 tiles); screenshots in $OUT/$5"
  else echo "FAIL: $TILES tiles on the map, expected $3"; exit 1; fi
}

# The window's close button ($1, the window; $2, the game's pid): the game
# must save and exit within 10 s (exit 0), else FAIL (exit 1).
close_and_expect_exit() {
  python3 "$here/close-window.py" "$1"
  for _ in $(seq 20); do kill -0 "$2" 2>/dev/null || exit 0; sleep 0.5; done
  echo "FAIL: the close button did not exit"; tail -5 "$HOME/game.log"; kill "$2"; exit 1
}
