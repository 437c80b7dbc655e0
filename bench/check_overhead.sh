#!/usr/bin/env bash
# bench/check_overhead.sh [BUILD_DIR [RUNS]] — what `warpsim check` costs over `warpsim run` on shared-memory
# histograms (bench/specs/histogram*): the median wall and user time of RUNS runs (default 3) of run, of check
# with each tool alone and of check with all four. Figures: docs/PERFORMANCE.md ("warpsim check").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
runs=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
measure() {   # label, warpsim arguments
    local label=$1; shift
    : > "$work/wall"; : > "$work/user"
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%e %U" -o "$work/t" "$build/warpsim" "$@" > /dev/null 2>&1 || true
        read -r wall user < "$work/t"
        echo "$wall" >> "$work/wall"; echo "$user" >> "$work/user"
    done
    printf '  %-22s %6s s wall %6s s user\n' "$label" "$(median < "$work/wall")" "$(median < "$work/user")"
}
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), commit $(git -C "$root" rev-parse --short HEAD)"
for spec in "$root"/bench/specs/histogram*.json; do
    echo "$(basename "$spec")"
    measure run run "$spec" --quiet
    for tool in memcheck racecheck initcheck synccheck; do measure "check --tool $tool" check "$spec" --tool "$tool"; done
    measure "check (all)" check "$spec"
done
