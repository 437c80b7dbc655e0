#!/usr/bin/env bash
# tests/hardware/sanitizer_partial_init.sh — compute-sanitizer's initcheck on sanitizer_partial_init.cu (reads of
# 8 bytes of which 4, or none, were written, across launches, in one thread, through ld.global.nc, and a
# cudaMemcpy of such bytes), on a machine with an NVIDIA GPU. Writes the GPU, driver, date, tool version and
# the tool's output (host backtraces left out) to OUT_FILE (recorded: tests/hardware/h200/sanitizer_partial_init.txt;
# tests/runtime/exec_programs.sh compares warpsim exec --check's findings with it case by case).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT_FILE=${1:?usage: sanitizer_partial_init.sh OUT_FILE}
WORK=$(mktemp -d)
nvcc -arch=sm_90 -lineinfo -cudart shared -o "$WORK/partial_init" "$ROOT/tests/hardware/sanitizer_partial_init.cu" || exit 1
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u +%FT%TZ; compute-sanitizer --version | tail -1
  compute-sanitizer --tool initcheck --print-limit 100 "$WORK/partial_init" 2>&1 | grep -v 'Host Frame\|Saved host'; } > "$OUT_FILE"
