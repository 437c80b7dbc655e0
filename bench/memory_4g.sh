#!/usr/bin/env bash
# bench/memory_4g.sh — resident memory of a launch with 4 GiB of buffers (issue: at most 1.2 B + 200 MiB for
# buffers of B bytes). A vector add whose inputs are two 2 GiB buffers (iota) and whose 1 Mi threads read the
# first 4 MiB of each: the buffers are filled, the kernel runs, the buffers are hashed for the report.
# Prints the peak resident set (GNU time's "Maximum resident set size") for `run --quiet`, `run --json` and
# the bound. Usage: bench/memory_4g.sh [WARPSIM] (default build/warpsim). Needs /usr/bin/time and 6 GiB free.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
warpsim=${1:-$root/build/warpsim}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/spec.json" <<JSON
{"source": "$root/examples/vector_add.ptx", "kernel": "vecAdd", "grid": [4096, 1, 1], "block": [256, 1, 1],
 "args": [{"type": "f32", "count": 536870912, "init": "iota"}, {"type": "f32", "count": 536870912, "init": "iota"},
          {"type": "f32", "count": 1048576, "init": "zero"}, {"type": "i32", "value": 1048576}]}
JSON
buffers=$((2 * 536870912 * 4 + 1048576 * 4))
bound_kb=$(( (buffers * 12 / 10 + 200 * 1048576) / 1024 ))
for mode in --quiet --json; do
    /usr/bin/time -v "$warpsim" run "$work/spec.json" $mode >/dev/null 2>"$work/time.txt"
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time.txt")
    user=$(awk -F': ' '/User time/ {print $2}' "$work/time.txt")
    printf 'run %-8s peak RSS %8d KiB = %.3f x buffers (%d KiB), bound 1.2 B + 200 MiB = %d KiB; wall %s, user %s s\n' \
        "$mode" "$rss" "$(echo "$rss * 1024 / $buffers" | bc -l)" $((buffers / 1024)) "$bound_kb" "$wall" "$user"
done
