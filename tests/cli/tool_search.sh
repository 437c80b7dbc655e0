#!/usr/bin/env bash
# tests/cli/tool_search.sh — `warpsim nvcc` finds nvcc where the rest of warpsim does (launch::find_cuda_program:
# PATH, then $CUDA_HOME/bin, $CUDA_PATH/bin, /usr/local/cuda/bin) and runs it by its full path with the
# options warpsim exec needs added. Fake nvcc scripts in temporary folders print how they were called.
# Usage: tool_search.sh WARPSIM SOURCE_DIR OUT_DIR
set -uo pipefail
warpsim=$1
out=$3
rm -rf "$out"
mkdir -p "$out"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

fake_nvcc() {  # fake_nvcc FOLDER TAG: FOLDER/nvcc prints TAG, its argv[0] and its arguments
    mkdir -p "$1"
    printf '#!/bin/sh\necho "%s $0 $*"\n' "$2" > "$1/nvcc"
    chmod 755 "$1/nvcc"
}
fake_nvcc "$out/path/bin" path
fake_nvcc "$out/home/bin" home
fake_nvcc "$out/cpath/bin" cpath
mkdir -p "$out/empty"
base=/usr/bin:/bin  # system folders, without nvcc
if [ -x /usr/bin/nvcc ] || [ -x /bin/nvcc ]; then echo "nvcc in /usr/bin or /bin: skipped"; exit 77; fi

run() {  # run EXPECTED_LINE ENV...: warpsim nvcc -c a.cu under env -i with ENV
    local expected=$1
    shift
    env -i "$@" "$warpsim" nvcc -c a.cu > "$out/stdout" 2> "$out/stderr"
    local rc=$?
    [ "$rc" = 0 ] || { fail "$*: exit $rc: $(cat "$out/stderr")"; return; }
    [ "$(cat "$out/stdout")" = "$expected" ] || fail "$*: ran '$(cat "$out/stdout")', expected '$expected'"
}
added="-cudart shared -lineinfo -arch=sm_90 -c a.cu"
run "path $out/path/bin/nvcc $added" PATH="$out/path/bin:$base" CUDA_HOME="$out/home" CUDA_PATH="$out/cpath"
run "home $out/home/bin/nvcc $added" PATH="$base" CUDA_HOME="$out/home" CUDA_PATH="$out/cpath"
run "cpath $out/cpath/bin/nvcc $added" PATH="$base" CUDA_HOME="$out/empty" CUDA_PATH="$out/cpath"
# Nowhere to be found (only where /usr/local/cuda has no nvcc either): exit 127 with the search order.
if [ ! -x /usr/local/cuda/bin/nvcc ]; then
    env -i PATH="$base" CUDA_HOME="$out/empty" "$warpsim" nvcc -c a.cu > /dev/null 2> "$out/stderr"
    rc=$?
    [ "$rc" = 127 ] && grep -q 'nvcc not found (looked in PATH, $CUDA_HOME/bin' "$out/stderr" ||
        fail "no nvcc: exit $rc: $(cat "$out/stderr")"
fi
[ "$failures" = 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "tool_search: all checks passed"
