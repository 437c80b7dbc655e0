#!/usr/bin/env bash
# scripts/test.sh — the whole test suite: installs missing packages, builds with warnings as errors,
# runs every test, then the same tests under AddressSanitizer + UndefinedBehaviorSanitizer (timing and check,
# which re-simulate the corpus for their own figures, are left to the unsanitized run; the corpus re-simulation
# itself runs sanitized through `hardware`, every spec up to a smaller instruction budget), then each libFuzzer
# target for a fixed number of executions from a fixed seed on inputs up to 1 MiB, seeded with the committed
# corpus: the same inputs on every run, so a pass here is a pass in CI (a slower machine stops at the time cap,
# earlier in the same sequence). Exploring with other seeds and for longer is docs/FUZZING.md's job, and what
# it finds joins the committed corpus. CI (.ci/run) calls exactly this.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/deps.sh
jobs=$(nproc)
# Three fuzzers, each a fixed sequence of executions (about 40 s each on a quiet 2-core machine) capped at
# WARPSIM_FUZZ_SECONDS; WARPSIM_FUZZ_SEED picks another sequence (0: libFuzzer draws one).
fuzz_seconds=${WARPSIM_FUZZ_SECONDS:-60}
fuzz_seed=${WARPSIM_FUZZ_SEED:-1}

echo "== format (clang-format)"
bash scripts/format.sh

# The three build types a user can choose, each with warnings as errors: Release here (GCC -O3, where GCC 12's
# optimisers warn most; every test runs on it), Debug below (GCC, under the sanitizers) and RelWithDebInfo
# for the fuzzers (clang), so that none of them can stop building unnoticed.
echo "== build (Release, -Werror)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DWARPSIM_WERROR=ON >/dev/null
# clang-tidy (.clang-tidy, every finding an error) on the sources changed since the commit in .tidy-base,
# the last one checked whole. Only the changed files: scripts/tidy.sh --all took 16 CPU-minutes (30 minutes
# wall on the shared 2-core machine, 2026-12-02), far too long for this command's 25 minutes; the 8 sources
# changed after the base took 27 CPU-seconds (85 s wall). CI clones main with its history, which holds the
# base (it came in through a merge: a rebase or squash would change its hash, and the stage then stops
# with what to do).
echo "== tidy (clang-tidy, sources changed since $(cat .tidy-base))"
bash scripts/tidy.sh build
cmake --build build -j"$jobs"
echo "== tests"
ctest --test-dir build --output-on-failure -j"$jobs"

echo "== tests under ASan + UBSan"
# -g1 (line tables only): the sanitizers' reports keep file:line, and the build is several minutes shorter
# than with full debug information.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DWARPSIM_SANITIZE=ON -DWARPSIM_WERROR=ON \
      -DCMAKE_CXX_FLAGS="-O1" -DCMAKE_CXX_FLAGS_DEBUG="-g1" >/dev/null
cmake --build build-asan -j"$jobs"
# Every spec of tests/specs, examples/specs, tests/timing/specs and the hardware corpus (402 in all) is
# prepared and simulated under the sanitizers; the budget stops the largest launches early (they are counted as
# skipped, not compared: 137 at 2e7). Measured 2026-12-01 at load 8 on the 2-core development machine:
# test_hardware under ASan+UBSan took 93 s user + 32 s sys (4 min 21 s wall with the machine shared).
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 WARPSIM_CORPUS_BUDGET=${WARPSIM_ASAN_CORPUS_BUDGET:-20000000} \
  ctest --test-dir build-asan --output-on-failure -j"$jobs" -E "${WARPSIM_ASAN_EXCLUDE:-^(timing|check)$}"

if command -v clang++ >/dev/null && [ "$fuzz_seconds" -gt 0 ]; then
  echo "== fuzzers (seed ${fuzz_seed}, at most ${fuzz_seconds} s each)"
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPSIM_FUZZ=ON \
        -DWARPSIM_WERROR=ON >/dev/null
  cmake --build build-fuzz -j"$jobs" --target warpsim_fuzzers
  for pair in "fuzz_ptx ${WARPSIM_FUZZ_PTX_RUNS:-7000} tests/fuzz/corpus/ptx tests/ptx" \
              "fuzz_spec ${WARPSIM_FUZZ_SPEC_RUNS:-400000} tests/fuzz/corpus/spec examples/specs tests/specs" \
              "fuzz_preset ${WARPSIM_FUZZ_PRESET_RUNS:-150000} tests/fuzz/corpus/preset sim/device/presets"; do
    set -- $pair
    name=$1
    runs=$2
    shift 2
    # A fresh corpus folder each time: what an earlier run added would change the sequence.
    rm -rf "build-fuzz/corpus-$name"
    mkdir -p "build-fuzz/corpus-$name"
    status=0
    "build-fuzz/tests/fuzz/$name" -seed="$fuzz_seed" -runs="$runs" -max_total_time="$fuzz_seconds" \
        -max_len=1048576 -timeout=30 -rss_limit_mb=4096 -print_final_stats=1 \
        "build-fuzz/corpus-$name" "$@" >"build-fuzz/$name.log" 2>&1 || status=$?
    grep -E "^stat::number_of_executed_units|^Done|ERROR|SUMMARY" "build-fuzz/$name.log" | sed "s/^/$name: /" || true
    if [ "$status" -ne 0 ]; then tail -40 "build-fuzz/$name.log"; exit 1; fi
  done
fi
echo "== all tests passed"
