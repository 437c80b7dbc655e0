#!/usr/bin/env bash
# Builds every program of tests/programs/programs.txt into OUT_DIR (default build/programs) the way a user
# builds for `warpsim exec`: nvcc -arch=sm_90 -lineinfo -cudart shared (plus the static and SASS-only
# variants the manifest names; `rdc` builds SOURCE with its companion NAME_device.cu, -rdc=true). NVCC (default: nvcc on the PATH, else /usr/local/cuda/bin/nvcc), JOBS.
# Exits 77 where no nvcc is found. Prints one line per binary that failed to build.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT_DIR=${1:-$HERE/../../build/programs}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
JOBS=${JOBS:-2}
[ -x "$NVCC" ] || { echo "build.sh: no nvcc (set NVCC=...)" >&2; exit 77; }
mkdir -p "$OUT_DIR"
# The binary of SOURCE built as BUILD: NAME for shared, NAME_static, NAME_noptx.
build_one() {  # SOURCE BUILD
    local src=$1 kind=$2 flags id
    id=$(basename "$src" .cu)
    [ "$kind" = shared ] || id=${id}_$kind
    case $kind in
        shared) flags=(-arch=sm_90 -lineinfo -cudart shared) ;;
        static) flags=(-arch=sm_90 -lineinfo) ;;
        noptx) flags=(-gencode arch=compute_90,code=sm_90 -lineinfo -cudart shared) ;;
        rdc) flags=(-arch=sm_90 -lineinfo -cudart shared -rdc=true) ;;
        *) echo "build.sh: $id: unknown build kind $kind" >&2; return 1 ;;
    esac
    local sources=("$HERE/$src")
    [ "$kind" = rdc ] && sources+=("$HERE/${src%.cu}_device.cu")
    # Up to date: newer than its sources, common.h and this script.
    local fresh=1 f
    for f in "${sources[@]}" "$HERE/common.h" "$HERE/build.sh"; do [ "$OUT_DIR/$id" -nt "$f" ] || fresh=0; done
    [ "$fresh" = 1 ] && return 0
    "$NVCC" "${flags[@]}" -I"$HERE" -o "$OUT_DIR/$id" "${sources[@]}" >"$OUT_DIR/$id.build.log" 2>&1 ||
        { echo "build.sh: $id failed:"; cat "$OUT_DIR/$id.build.log"; return 1; }
}
export -f build_one
export HERE OUT_DIR NVCC
# copy_bandwidth is no run of the manifest: the copy model's probe, run by the hardware collection.
{ grep -v '^#' "$HERE/programs.txt" | awk 'NF >= 3 {print $2, $3}'
  echo "copy_bandwidth.cu shared"; } |
    sort -u | xargs -P "$JOBS" -L 1 bash -c 'build_one "$@"' _
