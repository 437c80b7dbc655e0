#!/usr/bin/env bash
# tests/cli/verbose_log.sh — `warpsim run -v` / `-vv` and `warpsim check -v`: the log of the runtime's and the
# engine's decisions on stderr, nothing of it without -v. vecAdd over n = 1000 in 4 blocks of 256: 8 warps per
# block, so the H200's 64 warps per SM hold 8 blocks (its block limit, 32, is not reached).
# Usage: verbose_log.sh WARPSIM SOURCE_DIR OUT_DIR
set -uo pipefail
warpsim=$1
src=$2
out=$3
rm -rf "$out"
mkdir -p "$out"
source "$(dirname "${BASH_SOURCE[0]}")/expect_lib.sh"
spec="$src/examples/specs/vector_add_1000.json"

expect 0 '"kernel": "vecAdd"' "" -- run "$spec" --json
expect 0 '"kernel": "vecAdd"' \
  "warpsim: info: launch vecAdd (" -- run -v "$spec" --json
grep -qF "grid (4,1,1) x block (256,1,1), 0 bytes of dynamic shared memory, on the simulated h200" "$out/stderr" ||
  fail "run -v: no launch line: $(head -c 600 "$out/stderr")"
grep -qF "warpsim: info: vecAdd: occupancy on h200: 8 blocks per SM, 64 warps (100.0 %), limited by warps" \
  "$out/stderr" || fail "run -v: no occupancy line: $(head -c 600 "$out/stderr")"
grep -qF "warpsim: debug:" "$out/stderr" && fail "run -v: debug lines without -vv"
expect 0 '"kernel": "vecAdd"' "warpsim: debug: vecAdd: simulated in " -- run -vv "$spec" --json
expect 0 "ERROR SUMMARY: 0 errors" "warpsim: info: check vecAdd: grid (4,1,1) x block (256,1,1)" -- \
  check -v "$spec"
exit $failed
