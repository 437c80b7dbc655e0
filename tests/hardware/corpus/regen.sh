#!/usr/bin/env bash
# Regenerate the corpus's PTX (nvcc -O3 -arch=sm_90 -lineinfo, what the specs run) and its specs and data.
# The .file directive of each source is rewritten to the bare file name so the PTX does not depend on
# the checkout's path. With --check, every PTX is also assembled by ptxas.
set -euo pipefail
cd "$(dirname "$0")"
CHECK=0
[[ "${1:-}" == "--check" ]] && CHECK=1
for cu in *.cu; do
    out="${cu%.cu}.sm_90.lineinfo.ptx"
    nvcc -O3 -ptx -arch=sm_90 -lineinfo -o "$out" "$cu"
    sed -i -E "s#^(\s*\.file\s+[0-9]+\s+)\"[^\"]*/$cu\"#\1\"$cu\"#" "$out"
    if [[ $CHECK == 1 ]]; then ptxas -O3 -arch=sm_90 -o /dev/null "$out"; fi
    echo "$out"
done
/usr/bin/python3 gen_specs.py
