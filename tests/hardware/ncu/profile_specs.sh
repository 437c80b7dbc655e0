#!/usr/bin/env bash
# tests/hardware/ncu/profile_specs.sh — Nsight Compute metrics of many launch specs in ONE ncu session, on the
# GPU machine: `warpsim run SPEC --backend cuda --runs RUNS` for each spec under `ncu --target-processes all`
# (--clock-control none, --cache-control CACHE), and the process id of each spec's run, so that every row of
# the CSV can be named by its spec.
#   profile_specs.sh WARPSIM METRICS CSV PIDS SPEC...     environment: RUNS (default 0), CACHE (default all),
#                                                          DEADLINE (epoch seconds: start no spec after it)
set -uo pipefail
EXE=$1 METRICS=$2 CSV=$3 PIDS=$4
shift 4
RUNS=${RUNS:-0} CACHE=${CACHE:-all} DEADLINE=${DEADLINE:-0}
WORK=$(mktemp -d)
printf '%s\n' "$@" >"$WORK/list"
: >"$PIDS"
cat >"$WORK/runner.sh" <<EOF2
#!/usr/bin/env bash
while read -r spec; do
  [ $DEADLINE -gt 0 ] && [ \$(date +%s) -ge $DEADLINE ] && break
  "$EXE" run "\$spec" --backend cuda --json --runs $RUNS >/dev/null 2>&1 &
  echo "\$! \$spec" >>"$PIDS"
  wait
done <"$WORK/list"
EOF2
chmod +x "$WORK/runner.sh"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
"$NCU" --csv --page raw --print-units base --clock-control none --cache-control "$CACHE" \
       --target-processes all --metrics "$METRICS" "$WORK/runner.sh" >"$CSV" 2>"$WORK/ncu.err"
rc=$?
tail -5 "$WORK/ncu.err" >&2
echo "profiled $(wc -l <"$PIDS") specs (ncu rc $rc)" >&2
