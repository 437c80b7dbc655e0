#!/usr/bin/env bash
# bench/exec_vadd.sh [BUILD_DIR] — the seed-style timed vector add under `warpsim exec`: n = 2^26, 150 warm-up and
# 51 timed launches with CUDA events, every result checked on the host (tests/programs/vadd_events.cu). Prints
# the wall and CPU time of the whole program, with and without the reuse of identical launches (the latter on
# a smaller n, since simulating all 201 launches at 2^26 takes many minutes). Figures: docs/RUNTIME.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
"$nvcc" -arch=sm_90 -lineinfo -cudart shared -o "$work/vadd_events" "$root/tests/programs/vadd_events.cu"
run() {   # label, warpsim exec options and program arguments
    local label=$1; shift
    /usr/bin/time -f "%e s wall, %U s user + %S s sys, %M KiB max RSS" -o "$work/time" \
        "$build/warpsim" exec "$@" > "$work/out" 2> "$work/err" || { cat "$work/err"; exit 1; }
    grep -q PASS "$work/out" || { echo "$label: no PASS"; cat "$work/out" "$work/err"; exit 1; }
    printf '%-44s %s\n' "$label" "$(cat "$work/time")"
    grep "^warpsim: vadd" "$work/err" | sed 's/^/    /'
}
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), commit $(git -C "$root" rev-parse --short HEAD)"
run "n=2^26, 150+51 launches, reuse" "$work/vadd_events" 67108864 150 51
run "n=2^20, 150+51 launches, reuse" "$work/vadd_events" 1048576 150 51
run "n=2^20, 150+51 launches, --no-reuse" --no-reuse "$work/vadd_events" 1048576 150 51
