#!/bin/bash
# tests/counts/h200/run.sh — builds probe_counts.cu, profiles every launch with ncu, writes $OUT/{labels,ncu}.
set -u
OUT=${OUT:-/tmp/probe_out}
mkdir -p "$OUT"
here=$(dirname "$0")
nvcc -O2 -arch=sm_90 -o /tmp/probe_counts "$here/probe_counts.cu" || exit 1
/tmp/probe_counts > "$OUT/labels.txt" || exit 1
metrics=$(grep -o 'WARPSIM_\(STAT\|RATIO\)([^"]*"[^"]*", [^)]*ncu)' "$here/../../../sim/counts/stats.def" | sed 's/.*"\([^"]*\)".*/\1/' | paste -sd,)
echo "metrics: $metrics"
metrics="$metrics,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__sass_inst_executed_op_shared_ld.sum"
# A metric this ncu does not know fails the whole run: drop it (recorded in dropped.txt) and try again.
: > "$OUT/dropped.txt"
for attempt in 1 2 3 4 5 6 7 8; do
    ncu --clock-control none --csv --print-units base --metrics "$metrics" /tmp/probe_counts > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
    rc=$?
    bad=$(grep -ohE '(l1tex|lts|dram|smsp|sm)__[A-Za-z0-9_.]+' "$OUT/ncu.err" "$OUT/ncu.csv" | grep -F -x -f <(tr ',' '\n' <<< "$metrics") | head -1)
    if [ $rc -eq 0 ] || [ -z "$bad" ]; then break; fi
    echo "dropping $bad" | tee -a "$OUT/dropped.txt"
    metrics=$(tr ',' '\n' <<< "$metrics" | grep -v -x -F "$bad" | paste -sd,)
done
echo "ncu rc=$rc"
tail -5 "$OUT/ncu.err"
wc -l "$OUT/ncu.csv" "$OUT/labels.txt"
