#!/usr/bin/env bash
# tests/runtime/exec_programs.sh WARPSIM SOURCE_DIR WORK_DIR — CUDA programs under `warpsim exec`: each is built
# with nvcc and its output (or refusal) compared with what CUDA gives. Skipped (77) without nvcc.
set -uo pipefail
warpsim=$(realpath "$1")
root=$2
src=$root/tests/runtime/programs
work=$3
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
[ -x "$nvcc" ] || { echo "no nvcc: skipped"; exit 77; }
mkdir -p "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

build_from() {   # build_from SOURCE NAME [nvcc options...]: $work/NAME from SOURCE
    local source=$1 name=$2; shift 2
    "$nvcc" -arch=sm_90 -lineinfo -cudart shared "$@" -o "$work/$name" "$source" 2> "$work/$name.build.log" ||
        { fail "$name does not build: $(cat "$work/$name.build.log")"; return 1; }
}
build() { build_from "$src/$1.cu" "$@"; }   # build NAME [nvcc options...]: from $src/NAME.cu

# expect_output NAME EXPECTED_STDOUT [exit code]: runs $work/NAME under warpsim exec.
expect_output() {
    local name=$1 expected=$2 code=${3:-0}
    "$warpsim" exec --quiet "$work/$name" > "$work/$name.out" 2> "$work/$name.err"
    local rc=$?
    [ "$rc" = "$code" ] || fail "$name: exit code $rc, expected $code; stderr: $(head -c 2000 "$work/$name.err")"
    diff <(printf '%s\n' "$expected") "$work/$name.out" > "$work/$name.diff" ||
        fail "$name: stdout differs from the expected:\n$(cat "$work/$name.diff")"
}

# The first chapter's vector add (the program corpus's copy of seed 000's vec_add).
corpus=$2/tests/programs
if build_from "$corpus/seed000_vec_add.cu" vec_add; then
    expect_output vec_add "c[999] = 2997.000000"
    # Without --quiet: one summary line for the kernel on stderr, and one for what the predicted times rest on
    # (the default h200 preset: its fit, its 1980 MHz boost clock, docs/TIMING.md's errors).
    "$warpsim" exec "$work/vec_add" > /dev/null 2> "$work/vec_add.summary"
    grep -q "^warpsim: vecAdd: 1 launch, 4 x 256, predicted" "$work/vec_add.summary" ||
        fail "vec_add: no kernel summary on stderr: $(cat "$work/vec_add.summary")"
    grep -qxF "warpsim: predicted times: timing parameters measured, clock 1980 MHz, the preset's SM boost clock (clocks.sm_boost_mhz), sustained under load (measured: clocks.sm_sustained_mhz); expected error: calibration 8.0 %, validation 7.2 % (MAPE, tests/timing/sets.json), held-out corpus 19.5 % mean (docs/TIMING.md)" \
        "$work/vec_add.summary" || fail "vec_add: no timing basis on stderr: $(cat "$work/vec_add.summary")"
    # A bare name is found on PATH (from a folder without that file) and still runs on the simulator.
    mkdir -p "$work/on_path/bin" "$work/on_path/cwd"
    cp "$work/vec_add" "$work/on_path/bin/warpsim_vec_add_on_path"
    (cd "$work/on_path/cwd" && PATH="$work/on_path/bin:$PATH" "$warpsim" exec warpsim_vec_add_on_path \
        > "$work/on_path.out" 2> "$work/on_path.err")
    grep -qx "c\[999\] = 2997.000000" "$work/on_path.out" && grep -q "^warpsim: vecAdd: 1 launch" "$work/on_path.err" ||
        fail "vec_add on PATH: not simulated: $(head -c 2000 "$work/on_path.out" "$work/on_path.err")"
    (cd "$work/on_path/cwd" && PATH="$work/on_path/bin" "$warpsim" exec warpsim_no_such_program 2> "$work/on_path.err")
    rc=$?
    [ "$rc" = 127 ] && grep -q "warpsim_no_such_program: not found in the current folder or on PATH" "$work/on_path.err" ||
        fail "missing program: exit $rc, stderr: $(cat "$work/on_path.err")"
fi

# Errors: a refused configuration is not sticky; a fault is reported at the next synchronisation and stays
# (cudaGetLastError returns it once, then cudaSuccess, as on the H200: tests/hardware/programs, error.bad_pointer).
if build sticky_fault; then
    expect_output sticky_fault "oversized launch: cudaErrorInvalidValue (invalid argument)
last error after reading it: cudaSuccess
good launch then sync: cudaSuccess
bad launch: cudaSuccess
sync: cudaErrorIllegalAddress (an illegal memory access was encountered)
malloc after the fault: cudaErrorIllegalAddress
last error: cudaErrorIllegalAddress
last error again: cudaSuccess"
    grep -q "writeTo<<<1, 32>>> stopped: an illegal memory access was encountered" "$work/sticky_fault.err" ||
        fail "sticky_fault: the fault is not described on stderr: $(cat "$work/sticky_fault.err")"
fi

# A host dereference of a device pointer faults (SIGSEGV: exit code 139 from the shell's view).
if build host_deref; then
    "$warpsim" exec --quiet "$work/host_deref" > "$work/host_deref.out" 2>&1
    rc=$?
    [ "$rc" -ge 128 ] && [ "$((rc - 128))" = 11 ] || fail "host_deref: exit code $rc, expected death by SIGSEGV (139)"
    grep -q "the host wrote through a device pointer" "$work/host_deref.out" && fail "host_deref: the write worked"
fi

# Copies of every kind, symbols, zero-copy memory; a kernel touching unregistered host memory faults. Also
# built with the per-thread default stream, whose _ptds/_ptsz spellings of the same calls it then uses.
if build memory_kinds; then
    expect_output memory_kinds "PASS"
fi
if build memory_kinds --default-stream per-thread; then
    [[ $(nm -D --undefined-only "$work/memory_kinds") == *cudaMemcpy_ptds* ]] ||
        fail "memory_kinds --default-stream per-thread: does not call cudaMemcpy_ptds"
    expect_output memory_kinds "PASS"
fi

# __managed__ variables: one address for host and kernel, initialisers, both sides' writes, the symbol API.
if build managed_vars; then
    expect_output managed_vars "initial: counter 0, table[3] 4
after bump: counter 69, table 10 20 30 40
through the host's address: counter 70, big[999] 7
cudaMemcpyFromSymbol: cudaSuccess 70
cudaMemcpyToSymbol: cudaSuccess, counter 42
cudaGetSymbolAddress: cudaSuccess, same as &counter: yes
cudaPointerGetAttributes: cudaSuccess, managed: yes"
fi

# Identical launches are reused, and only when memory proves them identical.
if build reuse_loop; then
    expect_output reuse_loop "hello from round 7
hello from round 7
wrong: 0
PASS"
    "$warpsim" exec "$work/reuse_loop" > /dev/null 2> "$work/reuse_loop.summary"
    # 20 warm-up launches (1 simulated), 5 after a memset (replayed), 1 after the input changed (simulated).
    grep -q "^warpsim: vadd: 26 launches,.* 24 reused an identical earlier launch" "$work/reuse_loop.summary" ||
        fail "reuse_loop: vadd summary: $(cat "$work/reuse_loop.summary")"
    # The in-place kernel reads what it writes: every launch is simulated.
    grep "^warpsim: bump: 7 launches" "$work/reuse_loop.summary" | grep -q reused &&
        fail "reuse_loop: bump was reused: $(cat "$work/reuse_loop.summary")"
    "$warpsim" exec --quiet --no-reuse "$work/reuse_loop" > "$work/reuse_loop.noreuse" 2>&1
    diff -q "$work/reuse_loop.out" "$work/reuse_loop.noreuse" > /dev/null || fail "reuse_loop: --no-reuse differs"
fi

# Device printf at the synchronising call; assert as cudaErrorAssert, sticky.
if build printf_assert; then
    expect_output printf_assert "host before sync
device says 42 from thread 0
device says 42 from thread 1
host after sync
assert: cudaErrorAssert
later: cudaErrorAssert"
fi

# A -rdc=true program (two translation units): their PTX linked into one module; by hand 2 * 31 + 1 + 100.
if "$nvcc" -arch=sm_90 -lineinfo -cudart shared -rdc=true -o "$work/rdc" "$src/rdc_main.cu" "$src/rdc_lib.cu" \
        2> "$work/rdc.build.log"; then
    expect_output rdc "h[31] = 163"
else
    fail "rdc does not build: $(cat "$work/rdc.build.log")"
fi

# --check: racecheck reports the shared-memory race; the program itself runs as before.
if build race_check; then
    "$warpsim" exec --check --quiet "$work/race_check" > "$work/race_check.out" 2> "$work/race_check.err"
    [ "$(cat "$work/race_check.out")" = cudaSuccess ] || fail "race_check: stdout $(cat "$work/race_check.out")"
    grep -qi "race" "$work/race_check.err" || fail "race_check: no race reported: $(cat "$work/race_check.err")"
    grep -q "race_check.cu:9" "$work/race_check.err" || fail "race_check: the read's line is not named"
    "$warpsim" exec --quiet "$work/race_check" > /dev/null 2> "$work/race_check.plain"
    [ -s "$work/race_check.plain" ] && fail "race_check without --check printed: $(cat "$work/race_check.plain")"
fi

# --check, initcheck across launches: the second pass reads the partials the first wrote (no finding, the sum
# 0 + 1 + ... + 511 = 130816), the last kernel reads a buffer nothing wrote (one finding, line 25).
if build init_across_launches; then
    "$warpsim" exec --check --quiet "$work/init_across_launches" > "$work/init.out" 2> "$work/init.err"
    [ "$(cat "$work/init.out")" = "$(printf 'sum 130816 (expected 130816)\ncudaSuccess')" ] ||
        fail "init_across_launches: stdout $(cat "$work/init.out")"
    grep -q "final_sum" "$work/init.err" && fail "init_across_launches: final_sum read the first pass's partials, yet: $(cat "$work/init.err")"
    grep -q "init_across_launches.cu:25" "$work/init.err" ||
        fail "init_across_launches: the unwritten read (line 25) is not reported: $(cat "$work/init.err")"
    [ "$(grep -c 'Uninitialized __global__ memory read' "$work/init.err")" = 1 ] ||
        fail "init_across_launches: expected one initcheck finding: $(cat "$work/init.err")"
fi

# --check with surfaces: surface writes initialise the array for the copy back, out-of-range writes with the
# zero and clamp boundaries are no error, and a surface read of an array nothing wrote is one initcheck finding.
if build surface_check; then
    "$warpsim" exec --check --quiet "$work/surface_check" > "$work/surface.out" 2> "$work/surface.err"
    [ "$(cat "$work/surface.out")" = "$(printf 'sum 28, bumps 16\ncudaSuccess')" ] ||
        fail "surface_check: stdout $(cat "$work/surface.out")"
    # Without --check a second launch may be reused: not one with surface instructions (sured alone here).
    "$warpsim" exec --quiet "$work/surface_check" > "$work/surface.plain" 2>&1
    [ "$(cat "$work/surface.plain")" = "$(printf 'sum 28, bumps 16\ncudaSuccess')" ] ||
        fail "surface_check without --check: $(cat "$work/surface.plain")"
    grep -q "cudaMemcpy source" "$work/surface.err" &&
        fail "surface_check: the copy back read bytes the kernel wrote, yet: $(cat "$work/surface.err")"
    grep -qi "memcheck" "$work/surface.err" && fail "surface_check: memcheck reported: $(cat "$work/surface.err")"
    grep -q "surface_check.cu:20" "$work/surface.err" ||
        fail "surface_check: the unwritten surface read (line 20) is not reported: $(cat "$work/surface.err")"
fi

# --check against compute-sanitizer on the H200 (tests/hardware/h200/sanitizer_partial_init.txt): reads of 8
# bytes of which 4 or none were written (across launches, in one thread, through ld.global.nc) and a cudaMemcpy
# of such bytes give the same findings, case by case: kind, size and source line.
if build_from "$root/tests/hardware/sanitizer_partial_init.cu" partial_init; then
    "$warpsim" exec --check --quiet "$work/partial_init" > "$work/partial_init.out" 2>&1
    findings() {  # the findings of a run's output, one line per case
        python3 - "$1" <<'PY'
import re, sys
case, out = None, {}
for line in open(sys.argv[1]):
    if line.startswith("case "):
        case = line.split()[1].rstrip(":"); out[case] = []
    elif "Uninitialized __global__ memory read of size" in line:
        out[case].append("read " + line.split("size ")[1].split()[0])
    elif "Host API memory access error" in line:
        out[case].append("host copy " + line.split("size ")[1].split()[0])
    elif out.get(case) and out[case][-1].startswith("read ") and ":" not in out[case][-1]:
        lines = re.findall(r"partial_init\.cu:(\d+)", line)
        if lines: out[case][-1] += ":" + lines[-1]
for c, f in out.items(): print(c, " ".join(f))
PY
    }
    findings "$root/tests/hardware/h200/sanitizer_partial_init.txt" > "$work/partial_init.h200"
    findings "$work/partial_init.out" > "$work/partial_init.sim"
    [ "$(wc -l < "$work/partial_init.h200")" = 7 ] || fail "partial_init: the H200 recording has not 7 cases"
    diff "$work/partial_init.h200" "$work/partial_init.sim" > "$work/partial_init.diff" ||
        fail "partial_init: warpsim exec --check differs from compute-sanitizer on the H200:\n$(cat "$work/partial_init.diff")"
fi

# --report DIR: per launch JSON lines, the text report, the timeline page.
if [ -x "$work/reuse_loop" ]; then
    rm -rf "$work/report"
    "$warpsim" exec --quiet --report "$work/report" "$work/reuse_loop" > /dev/null 2> "$work/report.err"
    [ "$(wc -l < "$work/report/launches.jsonl")" = 35 ] || fail "--report: $(wc -l < "$work/report/launches.jsonl") launches, expected 35"
    [ "$(grep -c '"reused":true' "$work/report/launches.jsonl")" = 25 ] || fail "--report: reused launches"
    grep -q '"kernel":"vadd"' "$work/report/launches.jsonl" || fail "--report: no vadd object"
    grep -q "== vadd" "$work/report/report.txt" || fail "--report: report.txt has no vadd section"
    grep -q "<svg" "$work/report/timeline.html" || fail "--report: no timeline"
fi

# Refusals, each with the reason and the fix.
if "$nvcc" -arch=sm_90 -o "$work/vec_add_static" "$corpus/seed000_vec_add.cu" 2> /dev/null; then
    "$warpsim" exec "$work/vec_add_static" > "$work/static.out" 2>&1
    rc=$?
    [ "$rc" = 2 ] || fail "static cudart: exit code $rc, expected 2"
    grep -q "linked with the static CUDA runtime.*relink with -cudart shared, or build with \`warpsim nvcc\`" "$work/static.out" ||
        fail "static cudart: message: $(cat "$work/static.out")"
fi
if "$nvcc" -gencode arch=compute_90,code=sm_90 -cudart shared -o "$work/vec_add_sass" "$corpus/seed000_vec_add.cu" 2> /dev/null; then
    "$warpsim" exec "$work/vec_add_sass" > "$work/sass.out" 2>&1
    rc=$?
    [ "$rc" = 2 ] || fail "no PTX: exit code $rc, expected 2"
    grep -q "carries no PTX (only SASS for sm_90).*build with -arch=sm_90" "$work/sass.out" ||
        fail "no PTX: message: $(cat "$work/sass.out")"
fi
# A program that does not use CUDA just runs, with its own options after its path.
"$warpsim" exec /bin/echo --help -n=3 > "$work/echo.out" 2>&1
[ "$(cat "$work/echo.out")" = "--help -n=3" ] || fail "non-CUDA program: $(cat "$work/echo.out")"

# Graph calls beyond the corpus's graph programs; each expected line follows from the CUDA runtime API's
# documentation (node lists, dependencies set by hand, external event nodes, updates of instantiated graphs).
if build graph_nodes; then
    expect_output graph_nodes "not capturing: status 0
edges 2, both from the memset yes
roots 1, the memset yes, the rest null yes
external events: 3 nodes, 1 wait, 1 kernel, 1 record, records rec yes
after the launch: query cudaSuccess
exec updates: h1[3] -1.0, h2[3] 5.0, host_a 0, host_b 1
memcpy params of the kernel node: cudaErrorInvalidValue
clone: h1[3] 5.0
child changed through its node: h1[3] 5.0
exec child set: h1[3] 7.0
exec child set, another topology: cudaErrorInvalidValue
add an edge twice: cudaErrorInvalidValue
remove a missing edge: cudaErrorInvalidValue, the host node now has 1 dependency
after destroying a node: 2 nodes, the host node has 0 dependencies
host node: fn is host_b yes; in the clone: a node of its own yes, fn host_b yes
find a node of the clone itself in the clone: cudaErrorInvalidValue
memset node: value 0x3f, width 128, element size 1
instantiated with params: result 0, flags 0, host_b calls 1, v word 0x3f3f3f3f
capture into a graph: the same graph yes, 3 nodes, the first empty node has 1 dependents
done"
fi

# Memsets of 2- and 4-byte elements over rows, memcpy nodes of cudaMemcpy3DParms (linear memory, a CUDA array),
# their parameters in the graph and the instantiated graph, 2D memsets and 3D copies in a capture.
if build graph_copies; then
    expect_output graph_copies "2-byte memset: row 1 1234 1234 1234 1234 1234 ffff, 15 elements set
4-byte memset: deadbeef deadbeef deadbeef 00000000 | deadbeef deadbeef deadbeef 00000000
its parameters: value 0xdeadbeef, element size 4, width 3, height 2, pitch 16
refused: element size 3 cudaErrorInvalidValue, misaligned cudaErrorInvalidValue, pitch 8 for 16-byte rows cudaErrorInvalidValue
exec memset update: value cudaSuccess, width cudaErrorInvalidValue; word 4 0x01020304, word 3 0x00000000
3D copy: slice 0 row 0 12 13 14 15, slice 1 row 1 122 123 124 125, 16 bytes written
its node: type memcpy yes, parameters as given yes
into the array: 0 0 0 0 | 0 1 2 3 | 0 11 12 13
from the array: 11 12 13; refused: array and pointer cudaErrorInvalidValue, beyond the array cudaErrorInvalidValue
exec memcpy update: two rows cudaErrorInvalidValue, another destination cudaSuccess; floats 4 and 8 0 1.5
captured: 2 nodes, memset width 8 height 3 pitch 32; byte 64 0x5a, byte 65 112, 32 bytes written
done"
fi

# Nodes disabled and enabled in an instantiated graph, nodes through cudaGraphNodeParams (cudaGraphAddNode,
# cudaGraph[Exec]NodeSetParams), edges from nodes added later, cycles refused.
if build graph_edits; then
    expect_output graph_edits "the += 10 kernel disabled: h[0] 1, enabled 0
enabled again: h[0] 11, enabled 1
the memset disabled: h[31] 22
the copy disabled too: h[5] -1, host node calls 4
a new instantiation: enabled 1; disabling a host node cudaErrorInvalidValue
cudaGraphAddNode: types 2 0 1 3, h[31] 5, host calls 1
refused: reserved bytes cudaErrorInvalidValue, a semaphore node cudaErrorNotSupported, type 0x0c cudaErrorInvalidValue
set through the union: exec h[31] 9, graph h[31] 7, a kernel's union on a memcpy node cudaErrorInvalidValue
later edges: ran BCA, 1 root, it is B yes
cycles: cudaErrorInvalidValue, in a pair cudaErrorInvalidValue; 2 edges
the clone ran BCAD
done"
    grep -q "warpsim: external-semaphore graph nodes is not supported yet" "$work/graph_edits.err" ||
        fail "graph_edits: no word on stderr for the semaphore node: $(cat "$work/graph_edits.err")"
fi

# Allocation and free nodes (by hand, through cudaGraphAddNode, captured from cudaMallocAsync/cudaFreeAsync), the
# relaunch of an unfreed allocation, cudaGraphInstantiateFlagAutoFreeOnLaunch and the other flags.
if build graph_memory; then
    expect_output graph_memory "alloc and free nodes: types 10 11, two launches h[5] 10, size 256, device location yes, the free node frees it yes
refused: second instantiation cudaErrorInvalidValue, clone cudaErrorInvalidValue, child cudaErrorInvalidValue, destroy node cudaErrorInvalidValue, remove edge cudaErrorInvalidValue
refused free nodes: the same allocation again cudaErrorInvalidValue, cudaMalloc's memory cudaErrorInvalidValue
unfreed: first launch cudaSuccess, h[63] 126, relaunch cudaErrorInvalidValue, after cudaFree cudaSuccess
auto free on launch: cudaSuccess cudaSuccess, flags 1
flags: device launch cudaErrorNotSupported, with auto free cudaErrorInvalidValue, bit 16 cudaErrorInvalidValue
upload and node priority: result 0, flags 10
captured: 4 nodes of types 10 0 1 11, h[10] 20 and 20
cudaGraphAddNode: an address yes, two launches fine
done"
    grep -q "warpsim: cudaGraphInstantiateFlagDeviceLaunch (graphs launched from kernels) is not supported yet" \
        "$work/graph_memory.err" || fail "graph_memory: no word on stderr for device launch: $(cat "$work/graph_memory.err")"
fi

# Conditional nodes: IF with else, WHILE, SWITCH, set by kernels (cudaGraphSetConditional) or by the default value.
if build graph_conditional; then
    expect_output graph_conditional "IF: node type 13, two bodies yes; condition 1: v 1; condition 0: v 101
refused: clone cudaErrorInvalidValue, a second instantiation cudaErrorInvalidValue
WHILE: from 5 the body ran 5 times, counter 0; again from 2: v 7
SWITCH: condition 2: v 30; condition 7: v 30; the captured body is the node's yes
refused: WHILE of 2 cudaErrorInvalidValue, another graph's handle cudaErrorInvalidValue, flag 2 cudaErrorInvalidValue
a WHILE that never ends: cudaErrorLaunchTimeout
done"
    grep -q "warpsim: a WHILE graph node ran its body 1048576 times" "$work/graph_conditional.err" ||
        fail "graph_conditional: no word on stderr for the endless loop: $(cat "$work/graph_conditional.err")"
fi

# Capture of the per-thread default stream: by its handle, and as stream 0 under --default-stream per-thread.
per_thread_expected="captured the per-thread stream: status 1, another thread's 0 (cudaSuccess), 3 nodes, h[0] -1 before the launch
launched: h[0] 3, h[31] 3, capturing after the end 0
done"
if build graph_per_thread; then
    expect_output graph_per_thread "$per_thread_expected"
fi
if build_from "$src/graph_per_thread.cu" graph_per_thread_ptds --default-stream per-thread; then
    expect_output graph_per_thread_ptds "$per_thread_expected"
fi

# A CMake project with warpsim_add_simulated_test: its CTest runs the program under warpsim exec.
if command -v cmake > /dev/null; then
    proj=$work/cmake_project
    if cmake -S "$2/tests/runtime/cmake_project" -B "$proj" -DWARPSIM_SOURCE_DIR="$2" -DWARPSIM_EXECUTABLE="$warpsim" \
            -DCMAKE_CUDA_COMPILER="$nvcc" > "$work/cmake_project.log" 2>&1 &&
        cmake --build "$proj" >> "$work/cmake_project.log" 2>&1; then
        ctest --test-dir "$proj" --output-on-failure >> "$work/cmake_project.log" 2>&1 ||
            fail "warpsim_add_simulated_test: the test failed: $(tail -20 "$work/cmake_project.log")"
    else
        fail "warpsim_add_simulated_test: the project does not build: $(tail -20 "$work/cmake_project.log")"
    fi
fi

[ "$failures" = 0 ] && echo "all passed"
exit $((failures > 0))
