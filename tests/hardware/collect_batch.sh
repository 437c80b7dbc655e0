#!/usr/bin/env bash
# tests/hardware/collect_batch.sh — the whole hardware data set in one run of a few minutes, on a machine
# with an NVIDIA GPU: build warpsim, time every launch spec with CUDA events (one process per spec), then
# profile the deterministic ones under ONE Nsight Compute session (`--target-processes all` over a list
# runner, each spec launched once on fresh buffers), and run compute-sanitizer on the planted bugs.
# Writes $OUT_DIR/results.json ({"gpu","driver","toolkit","date","runs": {spec: report}}) and
# $OUT_DIR/sanitizer.txt. DEADLINE (seconds, default 540) stops starting new work in time.
# Environment (all optional): SPECS="a.json b.json" (default: examples/specs, tests/specs, tests/timing/specs),
# OUT_DIR, BUILD, RUNS (timed launches, default 20), DEADLINE, SANITIZE=0 (skip compute-sanitizer).
# A subset's results.json is merged into tests/hardware/h200/results.json by hand (its "runs" entries).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
BUILD=${BUILD:-$ROOT/build-hardware}
OUT_DIR=${OUT_DIR:-$ROOT/tests/hardware/h200}
RUNS=${RUNS:-20}
DEADLINE=${DEADLINE:-540}
START=$(date +%s)
elapsed() { echo $(( $(date +%s) - START )); }
mkdir -p "$OUT_DIR"
WORK=$(mktemp -d)

cmake_args=(-DCMAKE_BUILD_TYPE=Release -DWARPSIM_TESTS=OFF -DWARPSIM_WERROR=OFF)  # other compilers, other warnings
[ -d "$ROOT/.deps/usr" ] && cmake_args+=(-DCMAKE_PREFIX_PATH="$ROOT/.deps/usr" -DWARPSIM_HEADER_ONLY_DEPS=ON)
cmake -S "$ROOT" -B "$BUILD" "${cmake_args[@]}" >"$WORK/configure.log" 2>&1 || { cat "$WORK/configure.log"; exit 1; }
cmake --build "$BUILD" --target warpsim -j"$(nproc)" >"$WORK/build.log" 2>&1 || { tail -50 "$WORK/build.log"; exit 1; }
EXE="$BUILD/warpsim"
echo "built in $(elapsed) s" >&2

SPECS=${SPECS:-$(ls examples/specs/*.json tests/specs/*.json tests/timing/specs/*.json 2>/dev/null)}
# 1. Timings, buffer hashes, registers, occupancy: one process per spec (an illegal address is sticky).
i=0
for spec in $SPECS; do
  [ "$(elapsed)" -ge "$DEADLINE" ] && { echo "deadline: stopped timing at $spec" >&2; break; }
  i=$((i + 1))
  echo "$spec" >"$WORK/t$i.spec"
  timeout 60 "$EXE" run "$spec" --backend cuda --json --runs "$RUNS" >"$WORK/t$i.json" 2>"$WORK/t$i.err"
done
echo "timed $i specs by $(elapsed) s" >&2

# 2. Counters: the deterministic specs that launch cleanly, each once, under one ncu session.
python3 - "$WORK" "$i" >"$WORK/profile.list" <<'PY'
import json, sys
work, n = sys.argv[1], int(sys.argv[2])
for k in range(1, n + 1):
    spec = open(f"{work}/t{k}.spec").read().strip()
    try:
        rep = json.load(open(f"{work}/t{k}.json"))
    except ValueError:
        continue
    if "error" in rep:
        continue
    s = json.load(open(spec))
    if s.get("deterministic", True) is False or "/timing/" in spec:
        continue
    print(spec)
PY
cat >"$WORK/runner.sh" <<EOF2
#!/usr/bin/env bash
while read -r spec; do
  [ \$(( \$(date +%s) - $START )) -ge $DEADLINE ] && break
  "$EXE" run "\$spec" --backend cuda --json --runs 0 >/dev/null 2>&1 &
  echo "\$! \$spec" >>"$WORK/pids.txt"
  wait
done <"$WORK/profile.list"
EOF2
chmod +x "$WORK/runner.sh"
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
METRICS=$("$EXE" ncu-metrics 2>/dev/null || true)
: >"$WORK/pids.txt"  # stays empty when no spec is profiled (a list of timing specs only)
if [ -n "$NCU" ] && [ -n "$METRICS" ] && [ -s "$WORK/profile.list" ]; then
  "$NCU" --csv --page raw --print-units base --clock-control none --target-processes all \
         --metrics "$METRICS" "$WORK/runner.sh" >"$WORK/ncu.csv" 2>"$WORK/ncu.err"
  echo "profiled $(wc -l <"$WORK/pids.txt") specs by $(elapsed) s" >&2
fi

# 3. compute-sanitizer on the planted bugs (what the real tool says, for docs/CHECKERS.md).
SAN=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null | head -1)
[ "${SANITIZE:-1}" = 0 ] && SAN=""  # SANITIZE=0: a subset run (SPECS=...) skips this step
if [ -n "$SAN" ]; then
  for pair in "memcheck examples/specs/launch_error_off_by_one.json" "racecheck examples/specs/reverse_blocks_nosync_4096.json" \
              "synccheck examples/specs/launch_error_barrier_in_branch.json" "initcheck examples/specs/reverse_blocks_nosync_4096.json" \
              $(ls tests/check/data/*.json 2>/dev/null | sed 's/^/all:/'); do
    [ "$(elapsed)" -ge "$DEADLINE" ] && break
    set -- $pair
    tool=$1; spec=${2:-}
    case "$pair" in all:*) spec=${pair#all:}; tool="memcheck racecheck synccheck initcheck";; esac
    for t in $tool; do
      echo "===== compute-sanitizer --tool $t warpsim run $spec --backend cuda" >>"$OUT_DIR/sanitizer.txt"
      timeout 60 "$SAN" --tool "$t" "$EXE" run "$spec" --backend cuda --json --runs 0 2>&1 | grep -v '^ *[{}"\]]' | head -40 >>"$OUT_DIR/sanitizer.txt"
    done
  done
fi

# 4. Merge.
DRIVER=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)
TOOLKIT=$( (nvcc --version 2>/dev/null || true) | grep -o 'release [0-9.]*' | head -1 | cut -d' ' -f2)
python3 - "$WORK" "$i" "$OUT_DIR" "$DRIVER" "$TOOLKIT" "$RUNS" "$METRICS" <<'PY'
import csv, datetime, json, sys
work, n, out_dir, driver, toolkit, runs_n = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]
runs, gpu = {}, ""
for k in range(1, n + 1):
    spec = open(f"{work}/t{k}.spec").read().strip()
    try:
        rep = json.load(open(f"{work}/t{k}.json"))
    except ValueError:
        rep = {"error": {"name": "WARPSIM_NO_REPORT", "message": "the run printed no JSON report",
                         "details": open(f"{work}/t{k}.err").read()[-2000:]}}
    gpu = gpu or rep.get("device", "")
    runs[spec] = rep
pid_spec = {}
wanted = set(sys.argv[7].split(","))
try:
    for line in open(f"{work}/pids.txt"):
        pid, spec = line.split(None, 1)
        pid_spec[pid] = spec.strip()
    rows = [l for l in open(f"{work}/ncu.csv") if l.startswith('"')]
    reader = list(csv.reader(rows))
    header, data = reader[0], reader[2:]   # the second row holds the units
    col = {h: j for j, h in enumerate(header)}
    profiled = 0
    for r in data:
        spec = pid_spec.get(r[col["Process ID"]])
        if spec is None or spec not in runs:
            continue
        metrics = runs[spec].setdefault("metrics", {})
        for h, j in col.items():
            if h not in wanted:   # the raw page adds ~280 device and launch columns
                continue
            try:
                metrics[h] = float(r[j].replace(",", ""))
            except ValueError:
                pass
        profiled += 1
except (OSError, KeyError, IndexError) as e:
    if pid_spec:  # no pids: nothing was profiled (timing specs only), not an error
        print("profile merge:", e, file=sys.stderr)
    profiled = 0
result = {"gpu": gpu, "driver": driver, "toolkit": toolkit,
          "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
          "method": f"tests/hardware/collect_batch.sh: CUDA events ({runs_n} timed runs after 3 warm-ups, median), "
                    "Nsight Compute counters (one session, --clock-control none, each spec launched once on fresh buffers)",
          "runs": runs}
json.dump(result, open(f"{out_dir}/results.json", "w"), indent=1)
print(f"{len(runs)} specs, {profiled} profiled, {sum(1 for r in runs.values() if 'error' in r)} with an error")
PY
echo "done in $(elapsed) s" >&2
