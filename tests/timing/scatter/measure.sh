#!/usr/bin/env bash
# tests/timing/scatter/measure.sh — on a machine with the H200: scatter.cu's one-warp pointer chases whose loads
# touch 1..32 distinct sectors (from the L1 and from the L2) and the SM clock under a full-GPU load, with the
# chase kernel's SASS, the GPU and driver. Writes $OUT_DIR/{times.txt,sass.txt}.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT_DIR=${OUT_DIR:-$HERE}
nvcc -O3 -arch=sm_90 -lineinfo -I "$HERE/../../hardware" -o /tmp/scatter "$HERE/scatter.cu"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$OUT_DIR/times.txt"
/tmp/scatter | tee -a "$OUT_DIR/times.txt"
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader | tee -a "$OUT_DIR/times.txt"
nvcc --version | tail -2 >>"$OUT_DIR/times.txt"
date -u +%Y-%m-%dT%H:%M:%SZ >>"$OUT_DIR/times.txt"
cuobjdump -sass /tmp/scatter | grep -E "Function|LDG|IMAD|LEA|BRA|CS2R" >"$OUT_DIR/sass.txt"
