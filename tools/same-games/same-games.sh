#!/usr/bin/env bash
# The bots still play the very games they played before the rules core was
# made faster: the `play --per-game` records of 1,000 careful-bot and 20,000
# random games (two Heroes, seeds from 1) against the digests committed in
# digests.sha256. Usage: tools/same-games/same-games.sh [path/to/depths-sim]
# (default: the release build under $CARGO_TARGET_DIR or target/).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
sim="${1:-${CARGO_TARGET_DIR:-$here/../../target}/release/depths-sim}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$sim" play --bot heuristic --games 1000 --seed 1 --json --per-game "$out/heuristic-1000.jsonl" > /dev/null
"$sim" play --bot random --games 20000 --seed 1 --json --per-game "$out/random-20000.jsonl" > /dev/null
cd "$out"
sha256sum --check "$here/digests.sha256"
