#!/usr/bin/env bash
# scripts/demo.sh — build warpsim and run the demo: the seed's vector add (n = 1000, blocks of 256) and a
# 1024x1024 transpose, naive against tiled-and-padded, each with its report.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/deps.sh demo
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPSIM_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" --target warpsim
for spec in examples/specs/vector_add_1000.json examples/specs/transpose_naive_1024.json \
            examples/specs/transpose_padded_1024.json; do
  echo
  echo "================ warpsim run $spec"
  ./build/warpsim run "$spec"
done
