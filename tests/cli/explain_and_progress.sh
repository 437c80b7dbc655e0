#!/usr/bin/env bash
# tests/cli/explain_and_progress.sh — the command line around `warpsim explain` and the progress bar: exit codes,
# where the text goes, and that nothing but the report reaches a stderr that is not a terminal (run, explain and
# check).
# Usage: explain_and_progress.sh WARPSIM SOURCE_DIR OUT_DIR
set -uo pipefail
warpsim=$1
src=$2
out=$3
mkdir -p "$out"
spec="$src/examples/specs/vector_add_1000.json"
source "$(dirname "${BASH_SOURCE[0]}")/expect_lib.sh"

# stderr is a file here: no progress bar, with or without --json.
expect 0 "launch    grid (4,1,1)" "" -- run "$spec"
expect 0 '"kernel": "vecAdd"' "" -- run "$spec" --json
expect 0 "" "" -- run "$spec" --quiet
# Into a file the report's source column takes up to 100 columns: transpose.cu:10 (68 characters) whole.
expect 0 "   10  if (x < N && y + j < M) out[x * M + (y + j)] = in[(y + j) * N + x];   " "" -- \
    run "$src/examples/specs/transpose_naive_1000x700.json"

# explain: block 3 warp 7 is elements 992..999, 8 lanes.
expect 0 "1 request: 1 sector where 1 would do; 8 of 32 lanes active" "" -- explain "$spec" --line 9 --block 3 --warp 7
expect 0 '"active_lanes": 8' "" -- explain "$spec" --line 9 --block 3 --warp 7 --json
expect 0 "global store  PTX line" "" -- explain "$spec" --ptx-line 58
expect 2 "" "vector_add_1000.json: line 7 of vector_add.cu has no memory instruction" -- explain "$spec" --line 7
expect 2 "" "say which line to explain" -- explain "$spec"
expect 2 "" "say which line to explain" -- explain "$spec" --line 9 --ptx-line 51
expect 2 "" "--block 1,x: write blockIdx as X, X,Y or X,Y,Z" -- explain "$spec" --line 9 --block 1,x
expect 2 "" "--block 4,0,0 is outside the grid (4,1,1)" -- explain "$spec" --line 9 --block 4
expect 2 "" "no warp executed them" -- explain "$src/tests/examples/specs/vector_add_n0.json" --line 9
# The summary names the buffers; the lane table (and its element column) only with --lanes.
expect 0 "arrays      args[2] c: c[992] to c[999]" "" -- explain "$spec" --line 9 --block 3 --warp 7
grep -qF "lane thread" "$out/stdout" && fail "explain without --lanes printed a lane table"
expect 0 "lane thread              address sector element" "" -- explain "$spec" --line 9 --block 3 --warp 7 --lanes
grep -qE "^ +7 \(231,0,0\) +0x[0-9a-f]+ +\+0 c\[999\] " "$out/stdout" || fail "explain --lanes: lane 7 is not c[999]"
# --worst: block 3 warp 7 is the only warp with idle lanes (24 in each of the 3 accesses).
expect 0 "block (3,0,0) warp 7, threads (224,0,0) to (255,0,0): picked by --worst" "" -- explain "$spec" --line 9 --worst
expect 0 '"chosen_by": "worst"' "" -- explain "$spec" --line 9 --worst --json

# warpsim check: stderr is a file here too: no progress bar with any of its options; --quiet prints nothing.
nosync="$src/examples/specs/reverse_blocks_nosync_4096.json"
expect 0 "ERROR SUMMARY: 0 errors" "" -- check "$spec"
expect 0 '"kernel": "vecAdd"' "" -- check "$spec" --json
expect 0 "ran 3 schedules (seeds 0..2)" "" -- check "$spec" --schedules 3
expect 0 "" "" -- check "$spec" --quiet
expect 1 "" "" -- check "$nosync" --quiet --schedules 2
expect 1 "race.rw.shared" "" -- check "$nosync" --json --tool racecheck

[ "$failed" -eq 0 ] && echo "explain and progress: command line as expected"
exit "$failed"
