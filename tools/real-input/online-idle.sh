#!/usr/bin/env bash
# An online game between two instances on one X display (Xvfb, 2560×800),
# through real X input (xdotool), and how much CPU each uses while the table
# waits: the host (left, "Ann") opens a table and copies the invite; the
# player (right, "Bo") pastes it and joins, and gets Sil; the host starts. With both boards up and nobody moving, it prints each instance's
# CPU clock ticks over 30 s with the pointer on the host's board, then 30 s
# with it on the host's side panel; then Ann draws a tile, and the player's
# table shows it (online-4-ann-drew.png). Screenshots go to $OUT (default /tmp).
#
# Needs what smoke.sh needs, and xclip. Run from the repository root:
#   tools/real-input/online-idle.sh "$CARGO_TARGET_DIR/debug/forgotten-depths"
# The coordinates fit two 1280×800 windows side by side (port 5000 free).
set -euo pipefail

if [ "${1:-}" = --inside ]; then
  BIN=$2
  pids=()
  shot() { xwd -root -silent | convert xwd:- "$OUT/online-$1.png"; }
  fail() { echo "FAIL: $*"; shot fail || true; kill "${pids[@]}" 2>/dev/null || true; exit 1; }
  # egui acts on a click only after the pointer has moved there.
  click() { xdotool mousemove $(($1 - 4)) $(($2 - 2)); sleep 0.3; xdotool mousemove "$1" "$2"; sleep 0.3; xdotool click 1; }
  # Types $4 into the text field at ($1, $2) of window $3, emptied first.
  fill() { click "$1" "$2"; xdotool windowfocus "$3"; sleep 0.3; xdotool key End; xdotool key --repeat 50 --delay 20 BackSpace
           xdotool type --delay 60 "$4"; sleep 0.5; }
  windows() { xdotool search --name "Forgotten Depths" 2>/dev/null | sort || true; }
  # Waits up to $3 s for the log $1 to say $2.
  wait_log() { for _ in $(seq "$3"); do grep -q "$2" "$1" && return 0; sleep 1; done; return 1; }
  # Starts the $1 in a fresh home, its window at x = $2; sets WIN and LOG.
  start() {
    local home before pid w; home=$(mktemp -d); before=$(windows)
    HOME=$home "$BIN" >"$home/game.log" 2>&1 &
    pid=$!; pids+=("$pid"); LOG=$home/game.log; WIN=
    for _ in $(seq 60); do
      w=$(comm -13 <(echo "$before") <(windows) | head -1)
      if [ -n "$w" ]; then WIN=$w; break; fi
      kill -0 "$pid" 2>/dev/null || fail "the $1 exited: $(tail -3 "$LOG")"; sleep 1
    done
    [ -n "$WIN" ] || fail "the $1's window never appeared"
    wait_log "$LOG" "Some(Menu)" 60 || fail "the $1 never showed the menu"
    sleep 2; xdotool windowmove "$WIN" "$2" 0; sleep 1
  }
  ticks() { for p in "${pids[@]}"; do awk '{print $14 + $15}' "/proc/$p/stat"; done; }
  # utime + stime of each instance over 30 s.
  measure() {
    local a b; a=($(ticks)); sleep 30; b=($(ticks))
    echo "pointer on the host's $1:"
    echo "host: $((b[0] - a[0])) ticks in 30 s"
    echo "player: $((b[1] - a[1])) ticks in 30 s"
  }

  start host 0; HOST=$WIN; HOST_LOG=$LOG
  start player 1280; PLAYER=$WIN; PLAYER_LOG=$LOG
  # The host opens a table and copies its invite.
  click 640 495; sleep 2                                  # Play online
  fill 630 384 "$HOST" Ann
  click 530 442; sleep 3                                  # Open the table
  click 823 322; sleep 1                                  # Copy
  invite=$(xclip -o -selection clipboard 2>/dev/null || true)
  [ -n "$invite" ] || fail "Copy put nothing on the clipboard (host log: $(tail -1 "$HOST_LOG"))"
  echo "invite: $invite"
  # The player pastes it and joins.
  click 1920 495; sleep 2                                 # Play online
  click 1849 357; sleep 1                                 # Join a game
  fill 1912 382 "$PLAYER" Bo
  click 2085 409; sleep 1                                 # Paste
  click 1810 446                                          # Join
  if ! wait_log "$HOST_LOG" "Bo sits at seat" 15; then
    echo "Paste did not seat Bo: typing the invite instead"
    fill 1894 405 "$PLAYER" "$invite"; click 1810 446
    wait_log "$HOST_LOG" "Bo sits at seat" 15 || fail "Bo never sat down (host log: $(tail -1 "$HOST_LOG"))"
  fi
  sleep 2; shot 1-lobby
  # Bo sat down with no Hero: the lobby gave him Sil (Ann held both); Start.
  click 530 500                                           # Start
  wait_log "$HOST_LOG" "Some(Playing)" 20 || fail "the host's board never came up"
  wait_log "$PLAYER_LOG" "Some(Playing)" 20 || fail "the player's board never came up"
  sleep 3; shot 2-board
  # The pointer rests on the host's board; the start-up work (the forecasts)
  # settles first, for $SETTLE s (10 by default).
  xdotool windowfocus "$HOST"; xdotool mousemove 450 180; sleep "${SETTLE:-10}"
  echo "CLK_TCK: $(getconf CLK_TCK)"
  measure board
  xdotool mousemove 1110 560; sleep 2
  measure "side panel"
  shot 3-end
  # A move wakes the sleeping table across: Ann draws, Bo's pile shows it within 2 s.
  xdotool mousemove 450 180; xdotool windowfocus "$HOST"; sleep 0.5; xdotool key d; sleep 2
  shot 4-ann-drew
  for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null || fail "an instance quit while the table waited"; done
  kill "${pids[@]}"; echo "ok: screenshots in $OUT/online-*.png"; exit 0
fi

BIN=${1:?the forgotten-depths binary}
export OUT=${OUT:-/tmp} BEVY_ASSET_ROOT=${BEVY_ASSET_ROOT:-$PWD}
exec xvfb-run -a -s "-screen 0 2560x800x24" "$0" --inside "$BIN"
