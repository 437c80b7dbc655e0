#!/usr/bin/env bash
# tests/timing/l2_reuse/measure.sh — on a machine with the H200: the re-read stream's launch time and its
# steady-state L2 hit rate (ncu, caches kept between launches, clocks as found) for footprints of 8-96 MiB;
# copy, in-place and write-only streams of 16-96 MiB (l2_mixed.cu);
# and nvdisasm's listing of tests/timing/sass/*.cubin (ptxas -lineinfo, made where ptxas is), the reference the
# SASS spill reader is checked against. Writes $OUT_DIR/{times.txt,mixed.txt,ncu.csv,*.sass};
# results.json here holds two such runs (2026-11-30), condensed.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT_DIR=${OUT_DIR:-$HERE}
nvcc -O3 -arch=sm_90 -I "$HERE/../../hardware" -o /tmp/l2_reread "$HERE/l2_reread.cu" || exit 1
/tmp/l2_reread time | tee "$OUT_DIR/times.txt"
nvcc -O3 -arch=sm_90 -I "$HERE/../../hardware" -o /tmp/l2_mixed "$HERE/l2_mixed.cu" && /tmp/l2_mixed | tee "$OUT_DIR/mixed.txt"
ncu --clock-control none --cache-control none --csv \
    --metrics lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,gpu__time_duration.sum \
    /tmp/l2_reread ncu >"$OUT_DIR/ncu.csv" 2>"$OUT_DIR/ncu.err"
tail -3 "$OUT_DIR/ncu.err"
for c in "$HERE"/../sass/*.cubin; do
  [ -e "$c" ] || continue
  base=$(basename "$c" .cubin)
  nvdisasm -c -gp -hex "$c" >"$OUT_DIR/$base.sass" 2>&1 || nvdisasm -c -g -hex "$c" >"$OUT_DIR/$base.sass" 2>&1
  grep -c -E "LDL|STL" "$OUT_DIR/$base.sass"
done
nvdisasm --version | tail -1
