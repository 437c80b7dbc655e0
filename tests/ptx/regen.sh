#!/usr/bin/env bash
# Regenerate the parser corpus: every tests/ptx/*.cu compiled to PTX four ways
#   NAME.sm_90.ptx  NAME.sm_90.lineinfo.ptx  NAME.sm_80.ptx  NAME.sm_80.lineinfo.ptx
# plus NAME.sm_90.debug.ptx (-G) for the files in DEBUG_FILES; the files in SM90_FILES use Hopper-only
# instructions (clusters, stmatrix) and have no sm_80 variants. The .file directive of the source
# itself is rewritten to the bare file name so the PTX does not depend on the checkout's path.
# With --check, every PTX is also assembled by ptxas for its architecture.
set -euo pipefail
cd "$(dirname "$0")"
DEBUG_FILES="control_flow device_functions warp_shuffle local_struct"
SM90_FILES="clusters tensor_mma wmma mma_f16acc"
CHECK=0
[[ "${1:-}" == "--check" ]] && CHECK=1

compile() {  # compile SOURCE ARCH SUFFIX [extra nvcc flags...]
    local cu="$1" arch="$2" suffix="$3"; shift 3
    local out="${cu%.cu}.$arch$suffix.ptx"
    nvcc -ptx -arch="$arch" "$@" -o "$out" "$cu"
    sed -i -E "s#^(\s*\.file\s+[0-9]+\s+)\"[^\"]*/$cu\"#\1\"$cu\"#" "$out"
    if [[ $CHECK == 1 ]]; then ptxas -arch="$arch" -o /dev/null "$out"; fi
    echo "$out"
}

for cu in *.cu; do
    compile "$cu" sm_90 ""
    compile "$cu" sm_90 .lineinfo -lineinfo
    [[ " $SM90_FILES " == *" ${cu%.cu} "* ]] && continue
    compile "$cu" sm_80 ""
    compile "$cu" sm_80 .lineinfo -lineinfo
done
for name in $DEBUG_FILES; do
    compile "$name.cu" sm_90 .debug -G
done
