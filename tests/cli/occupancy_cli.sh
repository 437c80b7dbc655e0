#!/usr/bin/env bash
# tests/cli/occupancy_cli.sh — `warpsim occupancy`: configurations no launch can have are errors that say why
# and what to do; the sweep as CSV and as JSON. Expected values worked out by hand for the H200 (64 warps and
# at most 32 resident blocks per SM, 1024 threads and 232,448 bytes of opt-in shared memory per block).
# Usage: occupancy_cli.sh WARPSIM SOURCE_DIR OUT_DIR
set -uo pipefail
warpsim=$1
out=$3
rm -rf "$out"
mkdir -p "$out"
source "$(dirname "${BASH_SOURCE[0]}")/expect_lib.sh"

expect 2 "" "2000 threads per block: h200 allows at most 1024" -- occupancy --threads 2000 --regs 32
expect 2 "" "300000 bytes of shared memory per block: h200 allows at most 232448 even with the opt-in" -- \
    occupancy --threads 256 --shared-bytes 300000
expect 2 "" "cannot be negative" -- occupancy --threads 256 --shared-bytes -1
expect 2 "" "occupancy --csv prints the --sweep table" -- occupancy --threads 256 --csv
# 256 threads = 8 warps: 64 / 8 = 8 blocks, 100 %.
expect 0 "occupancy      100.0 %" "" -- occupancy --threads 256 --regs 32
# 32 threads (one warp) and 16 registers: the 32-block limit, 32 of 64 warps = 50 %.
expect 0 "threads,registers,occupancy_pct,blocks_per_sm,limiter" "" -- occupancy --sweep --csv
grep -qx "32,16,50.0,32,blocks" "$out/stdout" || fail "csv: row 32,16: $(grep '^32,16,' "$out/stdout")"
[ "$(wc -l <"$out/stdout")" -eq $((1 + 32 * 10)) ] || fail "csv: $(wc -l <"$out/stdout") lines, expected 321"
expect 0 '"schema": 1' "" -- occupancy --sweep --json
if command -v /usr/bin/python3 >/dev/null; then
    /usr/bin/python3 - "$out/stdout" <<'PY' || fail "json sweep: row 32 x 16 is not 32 blocks, 0.5"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
r = next(r for r in rows if r["threads_per_block"] == 32 and r["registers_per_thread"] == 16)
assert r["blocks_per_sm"] == 32 and r["occupancy"] == 0.5 and r["limiter"] == "blocks", r
assert len(rows) == 320
PY
fi
exit $failed
