#!/usr/bin/env bash
# tests/cli/buffers_io.sh — buffers in and out of `warpsim run`: --show, --save (read back with NumPy where
# Debian's python3-numpy is installed), "init"/"expect" from .npy files NumPy wrote, the expect verdict and its
# exit code, and the spec errors around arguments (C++ parameter types, kernel names, fields).
# Usage: buffers_io.sh WARPSIM SOURCE_DIR OUT_DIR
set -uo pipefail
warpsim=$1
src=$2
out=$3
rm -rf "$out"
mkdir -p "$out"
ptx="$src/examples/vector_add.ptx"
source "$(dirname "${BASH_SOURCE[0]}")/expect_lib.sh"

# spec NAME GRID-AND-BLOCK ARGS: a vecAdd spec (a, b, c, n) in $out.
spec() {
    cat >"$out/$1.json" <<JSON
{"source": "$ptx", "kernel": "${KERNEL:-vecAdd}", $2, "args": [$3]}
JSON
}

# c = a + b with a = b = iota over n = 1000: c[k] = 2k, worked out by hand.
spec ok '"grid": 4, "block": 256' '{"type": "f32", "count": 1000, "init": "iota"},
  {"type": "f32", "count": 1000, "init": "iota"},
  {"type": "f32", "count": 1000, "init": "zero", "expect": "iota:0:2", "exact": true},
  {"type": "i32", "value": 1000}'
expect 0 "expect    args[2] c: all 1000 elements as expected (iota:0:2, exact)" "" -- run "$out/ok.json"
expect 0 "  [   990] 1980 1982 1984 1986 1988 1990 1992 1994" "" -- run "$out/ok.json" --show 'c[990:1000]'
expect 0 "  [   998] 1996 1998" "" -- run "$out/ok.json" --show 'args[2][990:1000]'
expect 0 "show      n (i32 value) = 1000" "" -- run "$out/ok.json" --show n
expect 0 '"verdict": "pass"' "" -- run "$out/ok.json" --json
expect 0 '"values": [' "" -- run "$out/ok.json" --json --show 'c[-2:]'
expect 2 "" "--show d[1]: no argument is named 'd'" -- run "$out/ok.json" --show 'd[1]'
expect 0 "saved     args[2] c -> $out/saved/arg2.npy (1000 x f32)" "" -- run "$out/ok.json" --save "$out/saved"
[ -f "$out/saved/arg0.npy" ] && [ -f "$out/saved/arg1.npy" ] || fail "--save wrote no arg0.npy/arg1.npy"
[ ! -e "$out/saved/arg3.npy" ] || fail "--save wrote a file for the scalar n"
expect 0 '"file": "'"$out/saved/arg2.npy"'"' "" -- run "$out/ok.json" --save "$out/saved" --json
# A sampled run produces no buffers: what needs them is refused, with the way out.
expect 2 "" "the spec's \"expect\" checks cannot be made: drop --sample" -- run "$out/ok.json" --sample
expect 2 "" "--sample produces no buffers, so --save and --show have nothing to give" -- \
    run "$out/ok.json" --sample --show 'c[0:2]'
expect 108 "" "--sample excludes --no-sample" -- run "$out/ok.json" --sample --no-sample

# The grid is one block short: c[768..999] stay 0, 232 elements differ, the first c[768] (expected 1536).
spec short '"grid": 3, "block": 256' '{"type": "f32", "count": 1000, "init": "iota"},
  {"type": "f32", "count": 1000, "init": "iota"},
  {"type": "f32", "count": 1000, "init": "zero", "expect": "iota:0:2"},
  {"type": "i32", "value": 1000}'
expect 3 "expect    args[2] c: 232 of 1000 elements differ from iota:0:2 (rtol 1e-05, atol 1e-08)" "" -- run "$out/short.json"
expect 3 "c[768] = 0, expected 1536" "" -- run "$out/short.json"
expect 3 "... and 222 more" "" -- run "$out/short.json"
expect 3 '"mismatched": 232' "" -- run "$out/short.json" --json
expect 3 "" "232 of 1000 elements differ" -- run "$out/short.json" --quiet

# Arguments against the C++ signature (vecAdd(float const*, float const*, float*, int), names from vector_add.cu).
spec floatn '"grid": 4, "block": 256' '{"type": "f32", "count": 1000}, {"type": "f32", "count": 1000},
  {"type": "f32", "count": 1000}, {"type": "f32", "value": 1000}'
expect 2 "" "args[3]: parameter 3 'n' is int (4 bytes, an integer) but the spec gives f32; use \"type\": \"i32\"" -- run "$out/floatn.json"
spec valuec '"grid": 4, "block": 256' '{"type": "f32", "count": 1000}, {"type": "f32", "count": 1000},
  {"type": "i32", "value": 0}, {"type": "i32", "value": 1000}'
expect 2 "" "args[2]: parameter 2 'c' is float*, a pointer: give a count" -- run "$out/valuec.json"
KERNEL=vecadd spec misspelt '"grid": 4, "block": 256' '{"type": "f32", "count": 1000}, {"type": "f32", "count": 1000},
  {"type": "f32", "count": 1000}, {"type": "i32", "value": 1000}'
expect 2 "" "did you mean 'vecAdd'?" -- run "$out/misspelt.json"
cat >"$out/field.json" <<JSON
{"source": "$ptx", "kernel": "vecAdd", "grid": 4, "block": 256, "shared_byte": 0,
 "args": [{"type": "f32", "count": 1000}, {"type": "f32", "count": 1000},
          {"type": "f32", "count": 1000, "expekt": "zero"}, {"type": "i32", "value": 1000}]}
JSON
expect 0 "" "shared_byte: unknown field, ignored (did you mean 'shared_bytes'?)" -- run "$out/field.json" --quiet
expect 0 "" "args[2].expekt: unknown field, ignored (did you mean 'expect'?)" -- run "$out/field.json" --quiet

# warpsim ptx: demangled names, C++ types and names, ptxas's registers (not the PTX's virtual registers).
expect 0 "kernel vecAdd(float const*, float const*, float*, int)  [_Z6vecAddPKfS0_Pfi]" "" -- ptx "$ptx"
expect 0 "  param 3  n            int                    .u32 (4 bytes)  _Z6vecAddPKfS0_Pfi_param_3" "" -- ptx "$ptx"
if command -v ptxas >/dev/null || [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/ptxas" ] || [ -x /usr/local/cuda/bin/ptxas ]; then
    expect 0 "  ptxas (sm_90): 12 registers per thread, 0 bytes static shared" "" -- ptx "$ptx"
else
    expect 0 "  no ptxas (" "" -- ptx "$ptx"
fi

# NumPy writes the inputs and the reference and reads back what --save wrote (skipped without python3-numpy).
py=/usr/bin/python3
if [ -x "$py" ] && "$py" -c "import numpy" 2>/dev/null; then
    "$py" - "$out" <<'PY' || fail "numpy could not write the inputs"
import sys, numpy as np
d = sys.argv[1]
np.save(d + "/a.npy", np.arange(1000, dtype=np.float32) * 0.5)
np.save(d + "/b.npy", np.full(1000, 3.0, dtype=np.float32))
np.save(d + "/ref.npy", np.arange(1000, dtype=np.float64) * 0.5 + 3.0)
np.save(d + "/wrong.npy", np.arange(1000, dtype=np.float64))
np.save(d + "/short.npy", np.zeros(999, dtype=np.float32))
PY
    spec npy '"grid": 4, "block": 256' '{"type": "f32", "count": 1000, "init": "npy:a.npy"},
      {"type": "f32", "count": 1000, "init": "npy:b.npy"},
      {"type": "f32", "count": 1000, "expect": "npy:ref.npy"}, {"type": "i32", "value": 1000}'
    expect 0 "all 1000 elements as expected (npy:ref.npy" "" -- run "$out/npy.json" --save "$out/np"
    "$py" - "$out" <<'PY' || fail "numpy does not read back what --save wrote"
import sys, numpy as np
d = sys.argv[1]
c = np.load(d + "/np/arg2.npy")
assert c.dtype == np.float32 and c.shape == (1000,), (c.dtype, c.shape)
assert (c == np.arange(1000, dtype=np.float32) * 0.5 + 3.0).all()
assert (np.load(d + "/np/arg0.npy") == np.load(d + "/a.npy")).all()
PY
    spec npywrong '"grid": 4, "block": 256' '{"type": "f32", "count": 1000, "init": "npy:wrong.npy"},
      {"type": "f32", "count": 1000}, {"type": "f32", "count": 1000}, {"type": "i32", "value": 1000}'
    expect 2 "" "holds float64 but the argument is f32; save it with a.astype(np.float32)" -- run "$out/npywrong.json"
    spec npyshort '"grid": 4, "block": 256' '{"type": "f32", "count": 1000, "init": "npy:short.npy"},
      {"type": "f32", "count": 1000}, {"type": "f32", "count": 1000}, {"type": "i32", "value": 1000}'
    expect 2 "" "has shape (999,) (999 elements) but the argument has 1000 x f32" -- run "$out/npyshort.json"
else
    echo "buffers io: python3-numpy not installed, the NumPy round trip was not run"
fi

[ "$failed" -eq 0 ] && echo "buffers io: as expected"
exit "$failed"
