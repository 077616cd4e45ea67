# Shared by the real-input scripts (source it): plays "$1 --inside BIN" in a
# fresh home folder under Xvfb at 1280×800, then sets TILES to the number of
# tiles on the map in the save the game left, or to "none" without a save.
play_and_count_tiles() {
  local script=$1 bin=$2 save
  export OUT=${OUT:-/tmp}
  export BEVY_ASSET_ROOT=${BEVY_ASSET_ROOT:-$PWD}
  HOME=$(mktemp -d)
  export HOME
  xvfb-run -a -s "-screen 0 1280x800x24" "$script" --inside "$bin"
  save=$(ls "$HOME"/.local/share/forgotten-depths/saves/*.json 2>/dev/null | head -1 || true)
  if [ -z "$save" ]; then TILES=none; return; fi
  TILES=$(python3 -c 'import json,sys; g=json.load(open(sys.argv[1]))["game"]; print(len(g["adventure"]["ecology"]["map"]["tiles"]))' "$save")
}
