#!/usr/bin/env bash
# tests/hardware/corpus/measure_shared_sass.sh — on the GPU machine, with warpsim built there (BUILD): for every
# corpus launch with shared-memory wavefronts on the H200 (h200_results.json), Nsight Compute's shared-memory
# wavefront and bank-conflict counters side by side with their SASS-instrumented (smsp__sass_*) counterparts
# that this ncu offers (ncu --query-metrics), to tell the wavefronts the addresses make from the ones the
# hardware counter adds. Writes OUT_DIR/{sass_query.txt,shared_sass.csv,shared_sass_pids.txt}.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
cd "$ROOT"
EXE=${BUILD:-$ROOT/build-hardware}/warpsim
OUT_DIR=${OUT_DIR:-/tmp/shared-sass-out}
mkdir -p "$OUT_DIR"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
"$NCU" --query-metrics --chip gh100 2>&1 | grep -iE "sass.*(shared|lsu)|shared.*sass" >"$OUT_DIR/sass_query.txt"
metrics="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
metrics="$metrics,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
for base in smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st \
            smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ld smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_st \
            smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared smsp__sass_inst_executed_op_shared_ld smsp__sass_inst_executed_op_shared_st; do
  grep -qw "$base" "$OUT_DIR/sass_query.txt" && metrics="$metrics,$base.sum"
done
echo "metrics: $metrics" >&2
specs=$(python3 - <<'PY'
import json
runs = json.load(open("tests/hardware/corpus/h200_results.json"))["runs"]
keys = ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum")
print(" ".join(s for s, r in sorted(runs.items()) if any(r.get("metrics", {}).get(k, 0) > 0 for k in keys)))
PY
)
RUNS=0 CACHE=all DEADLINE=${DEADLINE:-0} bash tests/hardware/ncu/profile_specs.sh "$EXE" "$metrics" \
  "$OUT_DIR/shared_sass.csv" "$OUT_DIR/shared_sass_pids.txt" $specs tests/specs/syncwarp_exchange.json tests/specs/mbarrier_phases.json
