#!/usr/bin/env bash
# tests/hardware/corpus/measure.sh — the corpus's H200 data in one run on the GPU machine:
#  1. tests/hardware/approx: the f32 .approx tables (approx_tables.cu) and the reserved shared-memory probe,
#     with the SASS of both (cuobjdump), while warpsim builds;
#  2. tests/hardware/collect_batch.sh over tests/hardware/corpus/specs (CUDA events, median of 20 runs;
#     Nsight Compute, --clock-control none; no compute-sanitizer).
# Writes into OUT_DIR (default /tmp/corpus-out): results.json, approx_tables.{0,1}.bin.xz, approx_sass.txt,
# reserved_smem_probe.txt, measure.log.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
OUT_DIR=${OUT_DIR:-/tmp/corpus-out}
mkdir -p "$OUT_DIR"
BUILD=${BUILD:-$ROOT/build-hardware}
export PATH=/usr/local/cuda/bin:$PATH
START=$(date +%s)
cmake_args=(-DCMAKE_BUILD_TYPE=Release -DWARPSIM_TESTS=OFF -DWARPSIM_WERROR=OFF)
[ -d "$ROOT/.deps/usr" ] && cmake_args+=(-DCMAKE_PREFIX_PATH="$ROOT/.deps/usr" -DWARPSIM_HEADER_ONLY_DEPS=ON)
( cmake -S "$ROOT" -B "$BUILD" "${cmake_args[@]}" >/tmp/configure.log 2>&1 &&
  cmake --build "$BUILD" --target warpsim -j"$(nproc)" >/tmp/build.log 2>&1 ) &
BUILD_PID=$!
A=tests/hardware/approx
nvcc -arch=sm_90 -O2 "$A/approx_tables.cu" -o /tmp/approx_tables && nvcc -arch=sm_90 -O2 "$A/reserved_smem_probe.cu" -o /tmp/probe
/tmp/probe >"$OUT_DIR/reserved_smem_probe.txt" 2>&1
{ cuobjdump -sass /tmp/approx_tables; cuobjdump -sass /tmp/probe; } >"$OUT_DIR/approx_sass.txt" 2>&1
/tmp/approx_tables /tmp/approx_tables 2>&1
echo "approx tables and probe done at $(( $(date +%s) - START )) s"
xz_one() {  # xz, or Python's lzma where the machine has no xz
  if command -v xz >/dev/null; then xz -T8 -6 -c "$1" >"$2"
  else python3 -c 'import lzma,sys; open(sys.argv[2],"wb").write(lzma.compress(open(sys.argv[1],"rb").read(), preset=6))' "$1" "$2"; fi
}
( for k in 0 1; do xz_one /tmp/approx_tables.$k.bin "$OUT_DIR/approx_tables.$k.bin.xz"; done ) &
XZ_PID=$!
wait $BUILD_PID || { tail -30 /tmp/build.log; }
echo "warpsim built at $(( $(date +%s) - START )) s"
SPECS="$(ls tests/hardware/corpus/specs/*.json)" OUT_DIR="$OUT_DIR" SANITIZE=0 BUILD="$BUILD" \
  DEADLINE=${DEADLINE:-420} bash tests/hardware/collect_batch.sh
wait $XZ_PID
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >>"$OUT_DIR/reserved_smem_probe.txt" 2>&1
echo "done at $(( $(date +%s) - START )) s"
