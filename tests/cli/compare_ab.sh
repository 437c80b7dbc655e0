#!/usr/bin/env bash
# tests/cli/compare_ab.sh — `warpsim compare A B` (a baseline): two specs, a saved report against a spec, CSV,
# JSON with numbers as numbers, --metrics, and the bad inputs. The expected counts are worked out by hand for
# the two shared tiles of examples/shared_tile.ptx (64 blocks of 32 x 32 threads, 2048 warps): the column read
# of tile[32][32] is 32 wavefronts per warp (65,536, 63,488 of them conflicts), of tile[32][33] one (2,048, 0).
# Usage: compare_ab.sh WARPSIM SOURCE_DIR OUT_DIR
set -uo pipefail
warpsim=$1
src=$2
out=$3
rm -rf "$out"
mkdir -p "$out"
source "$(dirname "${BASH_SOURCE[0]}")/expect_lib.sh"
a=$src/examples/specs/shared_tile_32x32.json
b=$src/examples/specs/shared_tile_32x33.json
conflicts=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
wavefronts=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum

expect 0 "A: $a (simulated, h200, tile_32x32)" "" -- compare "$a" "$b"
grep -qE "^$wavefronts +65536 +2048 +-63488 +0.0312x$" "$out/stdout" || fail "text: no wavefront row 65536 -> 2048: $(grep "$wavefronts" "$out/stdout")"
grep -qE "^$conflicts +63488 +0 +-63488 +0x$" "$out/stdout" || fail "text: no conflict row 63488 -> 0: $(grep "$conflicts" "$out/stdout")"
grep -q "more metrics are equal on both sides (--all lists them)" "$out/stdout" || fail "text: equal metrics not summed up"
# The changed metrics come first, the largest change first: the conflicts (to 0) before the wavefronts (32x).
first=$(grep -nE "^($conflicts|$wavefronts) " "$out/stdout" | head -1 | cut -d: -f2 | cut -d' ' -f1)
[ "$first" = "$conflicts" ] || fail "text: the largest change is not first ($first)"
# The global traffic of both tiles is the same (2048 requests of 4 sectors each way): listed only with --all.
! grep -q "^l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum" "$out/stdout" || fail "text: an equal metric listed without --all"
expect 0 "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum" "" -- compare "$a" "$b" --all

# A report saved with run --json on one side: the same numbers as the spec gives.
"$warpsim" run "$a" --json >"$out/a.json" 2>/dev/null || fail "run --json failed"
expect 0 "A: $out/a.json (saved report: sim, h200, tile_32x32)" "" -- compare "$out/a.json" "$b"
grep -qE "^$conflicts +63488 +0 " "$out/stdout" || fail "saved report: conflict row differs"

# CSV: a header, numbers as numbers; --metrics keeps the rows asked for (and the headline rows).
expect 0 "metric,a,b,difference,ratio" "" -- compare "$a" "$b" --csv --metrics bank_conflicts_pipe_lsu_mem_shared_op_ld
grep -qx "$conflicts,63488,0,-63488,0" "$out/stdout" || fail "csv: conflict row: $(grep "$conflicts" "$out/stdout")"
! grep -q "$wavefronts" "$out/stdout" || fail "csv: --metrics kept a row it does not name"

# JSON: schema 1, numbers as JSON numbers.
expect 0 '"schema": 1' "" -- compare "$a" "$b" --json
if command -v /usr/bin/python3 >/dev/null; then
    /usr/bin/python3 - "$out/stdout" "$wavefronts" <<'PY' || fail "json: rows are not numbers"
import json, sys
doc = json.load(open(sys.argv[1]))
row = next(r for r in doc["rows"] if r["metric"] == sys.argv[2])
assert row["a"] == 65536 and row["b"] == 2048 and row["difference"] == -63488, row
assert abs(row["ratio"] - 2048 / 65536) < 1e-12 and row["changed"] is True, row
PY
fi

# Bad inputs: a missing file, a report nested too deep, options that need two inputs.
expect 2 "" "cannot open" -- compare "$a" "$out/missing.json"
python3 -c "print('[' * 100 + ']' * 100)" >"$out/deep.json"
expect 2 "" "nested deeper than 64 levels" -- compare "$a" "$out/deep.json"
expect 2 "" "--csv, --all, --gpu and --metrics compare two inputs" -- compare "$a" --csv
exit $failed
