#!/usr/bin/env bash
# tests/timing/ladder/measure.sh — on the GPU machine: the launch ladder's CUDA-event times (collect_batch.sh,
# median of 20 after 3 warm-ups, one process per spec), then, under ONE Nsight Compute session
# (--clock-control none, --cache-control none: warm caches, as repeated event-timed launches see them), every
# launch's own duration and SM cycles for the ladder and for the corpus (tests/hardware/corpus/specs), each
# spec run with --runs 1 (the hashed launch, 3 warm-ups, 1 timed: five launches a spec).
# Writes OUT_DIR/{results.json, durations.csv, durations_pids.txt, env.txt}. DEADLINE: seconds from the start
# after which no new spec is begun (default 520).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
OUT_DIR=${OUT_DIR:-/tmp/ladder-out}
BUILD=${BUILD:-$ROOT/build-hardware}
export PATH=/usr/local/cuda/bin:$PATH
START=$(date +%s)
mkdir -p "$OUT_DIR"
SPECS="$(ls tests/timing/ladder/specs/*.json)" OUT_DIR="$OUT_DIR" SANITIZE=0 BUILD="$BUILD" DEADLINE=240 \
  bash tests/hardware/collect_batch.sh
echo "events done at $(( $(date +%s) - START )) s" >&2
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; date -u +%FT%TZ; } >"$OUT_DIR/env.txt" 2>&1
METRICS=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg,sm__cycles_elapsed.avg.per_second,sm__cycles_active.max
RUNS=1 CACHE=none DEADLINE=$(( START + ${DEADLINE:-520} )) bash tests/hardware/ncu/profile_specs.sh "$BUILD/warpsim" "$METRICS" \
  "$OUT_DIR/durations.csv" "$OUT_DIR/durations_pids.txt" tests/timing/ladder/specs/*.json tests/hardware/corpus/specs/*.json
echo "done at $(( $(date +%s) - START )) s" >&2
