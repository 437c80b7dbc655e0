#!/usr/bin/env bash
# tests/timing/atomics/measure.sh — on a machine with the H200: atomics.cu's times, and ncu's view of a few
# cases (L2 atomic requests, clocks as found). Writes $OUT_DIR/{times.txt,ncu.csv}; results.txt here holds the
# run of 2026-12-01, condensed.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT_DIR=${OUT_DIR:-$HERE}
nvcc -O3 -arch=sm_90 -lineinfo -I "$HERE/../../hardware" -o /tmp/atomics "$HERE/atomics.cu" || exit 1
/tmp/atomics | tee "$OUT_DIR/times.txt"
cuobjdump -sass /tmp/atomics | grep -E "Function|RED|ATOM" | head -40 >"$OUT_DIR/sass.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >>"$OUT_DIR/times.txt"
