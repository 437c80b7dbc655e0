#!/usr/bin/env bash
# tests/hardware/sanitizer_planted.sh — compute-sanitizer (synccheck, initcheck, racecheck, memcheck) on every
# planted bug of `warpsim check`, on a machine with an NVIDIA GPU. Builds sanitizer_planted.cu with nvcc and
# writes everything — date, GPU, driver, toolkit, the tools' full output per case — to ONE file:
#   tests/hardware/sanitizer_planted.sh OUT_FILE
# DEADLINE (seconds, default 270) stops starting new runs in time.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT_FILE=${1:?usage: sanitizer_planted.sh OUT_FILE}
DEADLINE=${DEADLINE:-270}
START=$(date +%s)
WORK=$(mktemp -d)
SAN=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null | head -1)
NVCC=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null | head -1)
{
  echo "# compute-sanitizer on the planted bugs of warpsim check (tests/hardware/sanitizer_planted.sh)"
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# gpu, driver: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"
  echo "# nvcc: $("$NVCC" --version 2>&1 | grep -o 'release [0-9.]*, V[0-9.]*' | head -1)"
  echo "# compute-sanitizer: $("$SAN" --version 2>&1 | grep -i version | head -1)"
  echo "# build: nvcc -arch=sm_90 -lineinfo tests/hardware/sanitizer_planted.cu"
} >"$OUT_FILE"
if ! "$NVCC" -arch=sm_90 -lineinfo -o "$WORK/planted" "$ROOT/tests/hardware/sanitizer_planted.cu" >>"$OUT_FILE" 2>&1; then
  echo "# the build failed" >>"$OUT_FILE"
  exit 1
fi
# Most wanted first: the tools whose earlier capture came back empty, then the rest.
CASES="launch_error_barrier_in_branch return_before_barrier shfl_wrong_mask shfl_after_return shfl_group_mask
       syncwarp_after_return unwritten_tile reverse_blocks_nosync_4096 tile_loop_one_sync global_flag_no_sync
       launch_error_off_by_one reverse_blocks_4096"
for tool in synccheck initcheck racecheck memcheck; do
  for c in $CASES; do
    if [ $(( $(date +%s) - START )) -ge "$DEADLINE" ]; then
      echo "===== deadline: stopped before --tool $tool $c" >>"$OUT_FILE"
      break 2
    fi
    echo "===== compute-sanitizer --tool $tool sanitizer_planted $c" >>"$OUT_FILE"
    timeout 40 "$SAN" --tool "$tool" --print-limit 20 "$WORK/planted" "$c" >>"$OUT_FILE" 2>&1
    echo "===== exit status $?" >>"$OUT_FILE"
  done
done
echo "# done in $(( $(date +%s) - START )) s" >>"$OUT_FILE"
