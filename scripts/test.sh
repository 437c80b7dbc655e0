#!/usr/bin/env bash
# scripts/test.sh — the whole test suite: installs missing packages, builds with warnings as errors,
# runs every test, then the same tests under AddressSanitizer + UndefinedBehaviorSanitizer, then each
# libFuzzer target for a bounded time. CI (.ci/run) calls exactly this.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/deps.sh
jobs=$(nproc)
fuzz_seconds=${WARPSIM_FUZZ_SECONDS:-60}

echo "== build (RelWithDebInfo, -Werror)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPSIM_WERROR=ON >/dev/null
cmake --build build -j"$jobs"
echo "== tests"
ctest --test-dir build --output-on-failure -j"$jobs"

echo "== tests under ASan + UBSan"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DWARPSIM_SANITIZE=ON -DWARPSIM_WERROR=ON \
      -DCMAKE_CXX_FLAGS="-O1" >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" -E "${WARPSIM_ASAN_EXCLUDE:-^$}"

if command -v clang++ >/dev/null && [ "$fuzz_seconds" -gt 0 ]; then
  echo "== fuzzers (${fuzz_seconds} s each)"
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPSIM_FUZZ=ON \
        -DWARPSIM_WERROR=ON >/dev/null
  cmake --build build-fuzz -j"$jobs" --target warpsim_fuzzers
  for f in build-fuzz/tests/fuzz/fuzz_*; do
    [ -x "$f" ] || continue
    name=$(basename "$f")
    mkdir -p "build-fuzz/corpus-$name"
    "$f" -max_total_time="$fuzz_seconds" -print_final_stats=1 "build-fuzz/corpus-$name" \
         "tests/fuzz/seeds/$name" 2>&1 | grep -E "^(stat::number_of_executed_units|==|Done)|ERROR" || true
    test "${PIPESTATUS[0]}" -eq 0
  done
fi
echo "== all tests passed"
