#!/usr/bin/env bash
# scripts/fuzz_long.sh FUZZER [SECONDS] — one long exploring run of a libFuzzer target (docs/FUZZING.md's
# "Long runs"): a seed drawn by libFuzzer, inputs up to 1 MiB, the committed corpus and the folders the
# test command seeds it with, a fresh corpus folder under build-fuzz/long-FUZZER, at nice 19, with
# /usr/bin/time -v's CPU and memory figures at the end of build-fuzz/long-FUZZER.log. Crashes, leaks and
# slow units are written beside it (artifact prefix build-fuzz/long-FUZZER-).
# Build first: CC=clang CXX=clang++ cmake -S . -B build-fuzz -DWARPSIM_FUZZ=ON && cmake --build build-fuzz --target warpsim_fuzzers
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: scripts/fuzz_long.sh fuzz_ptx|fuzz_spec|fuzz_preset [SECONDS]}
seconds=${2:-3600}
case "$name" in
  fuzz_ptx) seeds=(tests/fuzz/corpus/ptx tests/ptx) ;;
  fuzz_spec) seeds=(tests/fuzz/corpus/spec examples/specs tests/specs) ;;
  fuzz_preset) seeds=(tests/fuzz/corpus/preset sim/device/presets) ;;
  *) echo "fuzz_long: unknown fuzzer $name (fuzz_ptx, fuzz_spec, fuzz_preset)" >&2; exit 2 ;;
esac
bin=build-fuzz/tests/fuzz/$name
[ -x "$bin" ] || { echo "fuzz_long: $bin is not built (see the comment at the top)" >&2; exit 1; }
corpus=build-fuzz/long-$name
rm -rf "$corpus"
mkdir -p "$corpus"
status=0
/usr/bin/time -v nice -n 19 "$bin" -seed=0 -max_total_time="$seconds" -max_len=1048576 -timeout=30 \
    -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$corpus-" "$corpus" "${seeds[@]}" \
    >"$corpus.log" 2>&1 || status=$?
grep -E "^stat::|^Done|ERROR|SUMMARY|User time|Elapsed|Maximum resident" "$corpus.log" || true
exit "$status"
