#!/usr/bin/env bash
# tests/timing/mlp/measure.sh — on a machine with the H200: mlp.cu's times (grid-stride loops of 1-132 blocks,
# unrolled 1/2/4/8 times or as nvcc chooses, and a one-thread pointer chase), the loop bodies of its SASS (the
# global loads, stores, barriers and branches ptxas made of each kernel), the GPU and driver. Writes
# $OUT_DIR/{times.txt,sass.txt}; results_h200.txt here is the run of 2026-12-01. `measure.sh chase` times the
# pointer chases alone (chase_h200.txt).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT_DIR=${OUT_DIR:-$HERE}
nvcc -O3 -arch=sm_90 -lineinfo -I "$HERE/../../hardware" -o /tmp/mlp "$HERE/mlp.cu" || exit 1
/tmp/mlp "$@" | tee "$OUT_DIR/times.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader >>"$OUT_DIR/times.txt"
nvcc --version | tail -2 >>"$OUT_DIR/times.txt"
cuobjdump -sass /tmp/mlp | grep -E "Function|LDG|STG|BRA|DEPBAR|FADD|FFMA|EXIT" >"$OUT_DIR/sass.txt"
