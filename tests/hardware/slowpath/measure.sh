#!/bin/bash
# tests/hardware/slowpath/measure.sh OUT — on the GPU machine: the slow-path probe (which operands send the
# f32 division and reciprocal down their slow-path call, by timing) and Nsight Compute's instruction totals
# of the five launches of tests/sass/specs/slow_*.json (in that file order: divide normal, subnormal, by
# zero; reciprocal normal, 1e38).
set -euo pipefail
out=${1:?usage: measure.sh OUT}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1; } > "$out/machine.txt"
nvcc -O3 -arch=sm_90 -I "$here/.." "$here/slowpath_probe.cu" -o "$tmp/probe"
"$tmp/probe" > "$out/slowpath_h200.txt"
nvcc -O3 -arch=sm_90 -lineinfo "$here/measure_slow_path.cu" -o "$tmp/measure"
ncu --clock-control none --csv --metrics \
  smsp__inst_executed.sum,smsp__thread_inst_executed.sum,smsp__thread_inst_executed_pred_on.sum \
  "$tmp/measure" > "$out/slow_path_ncu.csv"
