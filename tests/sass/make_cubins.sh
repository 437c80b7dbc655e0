#!/usr/bin/env bash
# tests/sass/make_cubins.sh OUT_DIR — the cubins of the SASS ground-truth corpus, made by this machine's
# ptxas exactly as warpsim makes them (ptxas -lineinfo -arch=sm_90, sm_90a for PTX that targets it) from
# the project's PTX (examples, tests/ptx, the specs' PTX) and the hand-written cases of tests/sass/cases.
# sass_cases.ptx is regenerated from sass_cases.cu first when nvcc is there (nvcc -O3 -ptx -lineinfo).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: make_cubins.sh OUT_DIR}
mkdir -p "$out"
cases="$root/tests/sass/cases"
if command -v nvcc >/dev/null; then
    nvcc -O3 -arch=sm_90 -lineinfo -ptx -o "$cases/sass_cases.ptx" "$cases/sass_cases.cu"
fi
ptx_files=("$root"/examples/*.ptx "$root"/tests/ptx/*.sm_90.lineinfo.ptx "$root"/tests/specs/*.ptx
           "$root"/tests/hardware/spills/*.ptx "$cases"/*.ptx)
for ptx in "${ptx_files[@]}"; do
    [ -f "$ptx" ] || continue
    rel=${ptx#"$root"/}
    name=$(echo "${rel%.ptx}" | sed 's/\.sm_90a*\.lineinfo//; s/[^A-Za-z0-9]/_/g; s/^tests_sass_cases_//')
    arch=sm_90
    grep -q '^\.target sm_90a' "$ptx" && arch=sm_90a
    ptxas -lineinfo -arch=$arch -o "$out/$name.cubin" "$ptx"
    echo "$name.cubin $rel $arch" >> "$out/SOURCES"
done
