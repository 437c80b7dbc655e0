#!/usr/bin/env bash
# tests/timing/l2_cold/measure.sh — on a machine with the H200: vector_add and saxpy (the examples' PTX)
# timed with a warm and with a flushed L2 (l2_cold.cpp). Writes $OUT_DIR/times.txt; results.json holds the
# run, condensed.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
OUT_DIR=${OUT_DIR:-$HERE}
nvcc -O3 -arch=sm_90 -x cu -I "$HERE/../../hardware" -o /tmp/l2_cold "$HERE/l2_cold.cpp" -lcuda
/tmp/l2_cold "$ROOT/examples/vector_add.ptx" "$ROOT/examples/saxpy.ptx" | tee "$OUT_DIR/times.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$OUT_DIR/times.txt"
date -u +%Y-%m-%dT%H:%M:%SZ | tee -a "$OUT_DIR/times.txt"
