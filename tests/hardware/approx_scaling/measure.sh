#!/bin/bash
# tests/hardware/approx_scaling/measure.sh OUT: on the GPU machine, Nsight Compute's instruction totals of the
# six kernels of tests/sass/cases/approx_scaling.ptx (ptxas -lineinfo -arch=sm_90, one block of 64 threads
# each, in the order below), and the SASS nvdisasm makes of the same cubin.
set -euo pipefail
out=${1:?usage: measure.sh OUT}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1; } > "$out/machine.txt"
ptxas -lineinfo -arch=sm_90 "$here/../../sass/cases/approx_scaling.ptx" -o "$tmp/approx_scaling.cubin"
nvdisasm -c -g "$tmp/approx_scaling.cubin" > "$out/approx_scaling.sass"
nvcc -O2 -I "$here/.." "$here/launch_cubin.cu" -o "$tmp/launch" -lcuda
ncu --clock-control none --csv --metrics \
  smsp__inst_executed.sum,smsp__thread_inst_executed.sum,smsp__thread_inst_executed_pred_on.sum \
  "$tmp/launch" "$tmp/approx_scaling.cubin" scale_rsqrt scale_sqrt scale_lg2 scale_ex2 scale_div scale_rsqrt_ftz \
  > "$out/approx_scaling_ncu.csv"
