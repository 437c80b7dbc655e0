#!/usr/bin/env bash
# tests/timing/dram/measure.sh — on the GPU machine: the DRAM-stream specs' CUDA-event times (collect_batch.sh,
# median of 20 after 3 warm-ups, one process per spec), then, under ONE Nsight Compute session
# (--clock-control none, --cache-control none), each launch's duration and DRAM bytes read and written
# (`warpsim run SPEC --backend cuda --runs 1`). Writes OUT_DIR/{results.json, ncu.csv, ncu_pids.txt, env.txt}.
# DEADLINE: seconds from the start after which no new spec is begun (default 520).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
OUT_DIR=${OUT_DIR:-/tmp/dram-out}
BUILD=${BUILD:-$ROOT/build-hardware}
export PATH=/usr/local/cuda/bin:$PATH
START=$(date +%s)
mkdir -p "$OUT_DIR"
SPECS="$(ls tests/timing/dram/specs/*.json)" OUT_DIR="$OUT_DIR" SANITIZE=0 BUILD="$BUILD" DEADLINE=300 \
  bash tests/hardware/collect_batch.sh
echo "events done at $(( $(date +%s) - START )) s" >&2
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv; date -u +%FT%TZ; } >"$OUT_DIR/env.txt" 2>&1
METRICS=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__cycles_elapsed.max,lts__t_sectors.sum
RUNS=1 CACHE=none DEADLINE=$(( START + ${DEADLINE:-520} )) bash tests/hardware/ncu/profile_specs.sh "$BUILD/warpsim" "$METRICS" \
  "$OUT_DIR/ncu.csv" "$OUT_DIR/ncu_pids.txt" tests/timing/dram/specs/*.json
echo "done at $(( $(date +%s) - START )) s" >&2
