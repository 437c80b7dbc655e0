#!/usr/bin/env bash
# tests/cli/limits.sh — warpsim's own limits and the device's, as a user meets them: a run stopped at the
# instruction budget (its own exit code 4, partial counts said to be partial, the advice, `budget_stop` in the
# JSON, the same in check and explain); a --device whose architecture is older than the PTX's .target (refused
# with CUDA's cudaErrorNoKernelImageForDevice), a .cu compiled for the preset's architecture, ptxas's
# registers for the preset; too much shared memory naming the spec field to change and saying when no opt-in
# can help. Expected numbers by hand: vecAdd n = 1000 is 4 blocks of 8 warps; the budget is charged per warp
# turn, so the run stops past 1000 thread-instructions; the H200 allows 49152 bytes of shared memory per block
# without an opt-in and 232448 with it (CUDA Programming Guide, technical specifications for 9.0).
# Usage: limits.sh WARPSIM SOURCE_DIR OUT_DIR
set -uo pipefail
warpsim=$1
src=$2
out=$3
rm -rf "$out"
mkdir -p "$out"
source "$(dirname "${BASH_SOURCE[0]}")/expect_lib.sh"
py=/usr/bin/python3
[ -x "$py" ] || py=python3
spec="$src/examples/specs/vector_add_1000.json"

# contains FILE TEXT: FILE has TEXT (grep reads the file itself: no pipe, no SIGPIPE under pipefail).
contains() {
    grep -qF -- "$2" "$1" || fail "$1 lacks '$2': $(head -c 600 "$1")"
}
lacks() {
    ! grep -qF -- "$2" "$1" || fail "$1 has '$2'"
}

# 1. The instruction budget: exit 4, said as warpsim's own limit, not as a GPU's timeout.
expect 4 "stopped   the run stopped at warpsim's instruction budget of 1000 thread-instructions" "" -- \
    run "$spec" --max-instructions 1000
contains "$out/stdout" "the counts in this report are partial"
contains "$out/stdout" "raise --max-instructions N or use --sample"
contains "$out/stdout" "look at   the counts below are partial: the run stopped at the budget"
lacks "$out/stdout" "cudaErrorLaunchTimeout"
lacks "$out/stdout" "LaunchConfig::max_instructions"
want="stopped at the instruction budget of 1000 thread-instructions (--max-instructions):"
want="$want the counts are partial;"
want="$want raise --max-instructions N or use --sample"
expect 4 "" "$want" -- \
    run "$spec" --max-instructions 1000 --quiet
expect 4 '"budget_stop"' "" -- run "$spec" --max-instructions 1000 --json
"$py" - "$out/stdout" <<'EOF' || fail "run --json: budget_stop"
import json, sys
j = json.load(open(sys.argv[1]))
b = j["budget_stop"]
assert b["max_instructions"] == 1000 and b["partial"] is True, b
assert b["thread_instructions"] > 1000, b
assert b["advice"] == "raise --max-instructions N or use --sample", b
# the partial counts are there, apart from the (empty) metrics of a run that did not finish
assert b["partial_metrics"]["smsp__inst_executed.sum"] > 0, b["partial_metrics"]
assert j["metrics"] == {}, j["metrics"]
assert j["error"]["name"] == "instruction_budget", j["error"]
EOF
# A budget the whole launch fits in: exit 0, no budget_stop.
expect 0 '"kernel": "vecAdd"' "" -- run "$spec" --max-instructions 100000 --json
lacks "$out/stdout" "budget_stop"
# check: incomplete, not a memcheck finding; exit 4.
expect 4 "the check is incomplete: the run stopped at the instruction budget of 1000" "" -- \
    check "$spec" --max-instructions 1000
contains "$out/stdout" "ERROR SUMMARY: 0 errors"
lacks "$out/stdout" "cudaErrorLaunchTimeout"
expect 4 '"budget_stop"' "" -- check "$spec" --max-instructions 1000 --json
# explain: the explanation of what ran, said first to be partial; exit 4.
expect 4 "stopped   the run stopped at warpsim's instruction budget of 1000" "" -- \
    explain "$spec" --line 9 --max-instructions 1000
contains "$out/stdout" "raise --max-instructions N for whole-run figures"
contains "$out/stdout" "explain   line 9 of vector_add.cu"
expect 4 '"budget_stop"' "" -- explain "$spec" --line 9 --max-instructions 1000 --json
expect 0 "explain   line 9" "" -- explain "$spec" --line 9

# 2. --device with an older architecture than the PTX's .target (sm_90): refused as a GPU refuses it.
expect 2 "" "is PTX for sm_90 (.target sm_90), newer than the t4 preset's sm_75" -- run "$spec" --device t4
contains "$out/stderr" "cudaErrorNoKernelImageForDevice"
contains "$out/stderr" "no kernel image is available for execution on the device"
contains "$out/stderr" "nvcc -ptx -arch=sm_75"
expect 2 "" "newer than the a100 preset's sm_80" -- check "$spec" --device a100
expect 2 "" "newer than the t4 preset's sm_75" -- explain "$spec" --line 9 --device t4
expect 2 "" "newer than the t4 preset's sm_75" -- occupancy "$spec" --device t4
# PTX for sm_75 runs on the t4 with ptxas's registers for sm_75 (ptxas 13.0 -arch=sm_75 -v: "Used 12
# registers"), no estimate; on the H200 as well.
sed 's/^\.target sm_90$/.target sm_75/' "$src/examples/vector_add.ptx" >"$out/vector_add_sm75.ptx"
sed 's#"../vector_add.ptx"#"vector_add_sm75.ptx"#' "$spec" >"$out/sm75.json"
if command -v ptxas >/dev/null || [ -x /usr/local/cuda/bin/ptxas ]; then
    expect 0 "registers 12 per thread (ptxas -v (sm_75))" "" -- run "$out/sm75.json" --device t4
    lacks "$out/stdout" "estimate"
fi
expect 0 "device h200" "" -- run "$out/sm75.json"
# CUDA 13's ptxas has no sm_70: the V100's registers are an estimate, said once, with ptxas's reason.
sed 's/^\.target sm_90$/.target sm_70/' "$src/examples/vector_add.ptx" >"$out/vector_add_sm70.ptx"
sed 's#"../vector_add.ptx"#"vector_add_sm70.ptx"#' "$spec" >"$out/sm70.json"
expect 0 "registers 40 per thread (estimate, no ptxas for sm_70 (" "" -- run "$out/sm70.json" --device v100
lacks "$out/stdout" "estimate without ptxas"
lacks "$out/stdout" "estimate (no ptxas)"
# A .cu source is compiled for the preset's architecture; an explicit "arch" newer than the device is refused.
if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
    cp "$src/examples/vector_add.cu" "$out/vector_add.cu"
    sed 's#"../vector_add.ptx"#"vector_add.cu"#' "$spec" >"$out/cu.json"
    expect 0 "registers 12 per thread (ptxas -v (sm_75))" "" -- run "$out/cu.json" --device t4
    expect 0 "registers 12 per thread (ptxas -v (sm_90))" "" -- run "$out/cu.json"
    sed 's#"../vector_add.ptx"#"vector_add.cu", "arch": "sm_90"#' "$spec" >"$out/cu_arch.json"
    expect 2 "" "the spec's \"arch\": \"sm_90\" asks for it" -- run "$out/cu_arch.json" --device t4
fi

# 3. Too much shared memory (dynamic_shared: no static shared memory).
cp "$src/examples/occupancy_probe.ptx" "$out/occupancy_probe.ptx"
probe() {  # probe NAME SHARED_BYTES [MAX_DYNAMIC]
    local extra=""
    [ -n "${3:-}" ] && extra=", \"max_dynamic_shared_bytes\": $3"
    cat >"$out/$1.json" <<EOF
{"source": "occupancy_probe.ptx", "kernel": "dynamic_shared", "grid": 1, "block": 256,
 "shared_bytes": $2$extra,
 "args": [{"type": "f32", "count": 256, "init": "iota"}, {"type": "f32", "count": 256, "init": "zero"},
          {"type": "i32", "value": 256}, {"type": "i32", "value": 64}]}
EOF
}
# --quiet prints the error and its details unwrapped on stderr.
# One byte above 48 KiB without an opt-in: the opt-in helps, and the spec field that sets it is named.
probe over_default 49153
want="the limit is 49152 without an opt-in: cudaFuncSetAttribute(kernel,"
want="$want cudaFuncAttributeMaxDynamicSharedMemorySize, 49153) lets the launch run"
expect 1 "" "$want" -- \
    run "$out/over_default.json" --quiet
contains "$out/stderr" "add \"max_dynamic_shared_bytes\": 49153"
contains "$out/stderr" "lower \"shared_bytes\" to at most 49152"
expect 1 "the limit is 49152 without an opt-in" "" -- run "$out/over_default.json"
# With the opt-in it runs.
probe opted_in 49153 49153
expect 0 "" "" -- run "$out/opted_in.json" --quiet
# Above the device's opt-in maximum: no opt-in can help, and no opt-in is offered.
probe over_optin 232449 232449
want="the device allows at most 232448 bytes per block even with cudaFuncAttributeMaxDynamicSharedMemorySize:"
expect 1 "" "$want no opt-in can help" -- \
    run "$out/over_optin.json" --quiet
contains "$out/stderr" "is more than any opt-in allows; lower \"shared_bytes\" to at most 232448"
lacks "$out/stderr" "add \"max_dynamic_shared_bytes\""
lacks "$out/stderr" "lets the launch run"
probe over_optin_plain 300000
expect 1 "" "no opt-in can help" -- run "$out/over_optin_plain.json" --quiet
lacks "$out/stderr" "add \"max_dynamic_shared_bytes\""
# Above the kernel's own attribute: raising it helps.
probe over_attribute 100000 60000
expect 1 "" "raising the attribute to 100000 lets the launch run" -- run "$out/over_attribute.json" --quiet
contains "$out/stderr" '"max_dynamic_shared_bytes": 60000 is below "shared_bytes": 100000; raise it to 100000'
# The T4 (sm_75, 65536 bytes opt-in): its own maximum, not the H200's.
sed 's/^\.target sm_90$/.target sm_75/' "$src/examples/occupancy_probe.ptx" >"$out/probe_sm75.ptx"
probe t4_over 70000 70000
sed -i 's#"occupancy_probe.ptx"#"probe_sm75.ptx"#' "$out/t4_over.json"
expect 1 "" "the device allows at most 65536 bytes per block" -- run "$out/t4_over.json" --device t4 --quiet
contains "$out/stderr" "lower \"shared_bytes\" to at most 65536"
probe t4_default 50000
sed -i 's#"occupancy_probe.ptx"#"probe_sm75.ptx"#' "$out/t4_default.json"
expect 1 "" "(the device allows up to 65536 bytes per block)" -- \
    run "$out/t4_default.json" --device t4 --quiet

exit $failed
