#!/usr/bin/env bash
# tests/hardware/programs/collect.sh — runs the program corpus (tests/programs/programs.txt) natively on a
# machine with an NVIDIA GPU and records, per run, its argv, exit status, stdout and stderr; then a few
# larger runs (the seed-scale staged copy, the 2^26 vadd with 150 + 51 launches, the copy-time probe) and
# `cuobjdump -res-usage` of every binary. Writes OUT_DIR/results.json (default tests/hardware/programs/h200)
# with the GPU's name, the driver, the toolkit and the date. Needs nvcc, cuobjdump and python3.
# ONLY=REGEX records just the runs whose ID matches (no larger runs) into the existing results.json, each new
# run with its own date, driver and toolkit; the others stay as they were.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
OUT_DIR=${OUT_DIR:-$ROOT/tests/hardware/programs/h200}
WORK=$(mktemp -d)
mkdir -p "$OUT_DIR" "$WORK/runs"
if [ -n "${BIN:-}" ]; then ln -s "$BIN" "$WORK/bin"  # already built (BIN=dir)
else JOBS=$(nproc) bash "$ROOT/tests/programs/build.sh" "$WORK/bin" || echo "some programs failed to build" >&2; fi
run() {  # KEY TIMEOUT BINARY ARGS...
    local key=$1 limit=$2 bin=$3
    shift 3
    local t0 t1
    t0=$(date +%s.%N)
    timeout "$limit" "$WORK/bin/$bin" "$@" </dev/null >"$WORK/runs/$key.out" 2>"$WORK/runs/$key.err"
    echo $? >"$WORK/runs/$key.rc"
    t1=$(date +%s.%N)
    echo "$bin $*" >"$WORK/runs/$key.argv"
    echo "$t0 $t1" | awk '{printf "%.3f\n", $2 - $1}' >"$WORK/runs/$key.wall"
}
while read -r id src kind args; do
    case $id in '#'* | '') continue ;; esac
    if [ -n "${ONLY:-}" ] && ! [[ $id =~ ^(${ONLY})$ ]]; then continue; fi
    bin=$(basename "$src" .cu)
    [ "$kind" = shared ] || bin=${bin}_$kind
    # shellcheck disable=SC2086
    run "$id" 60 "$bin" $args
done <"$ROOT/tests/programs/programs.txt"
# Larger runs, not in CI: the seed's proportions (a copy of ~8 ms and a kernel of ~10 ms on the H200).
if [ -z "${ONLY:-}" ]; then
    run "extra.seed000_staged_copy_seed_scale" 120 seed000_staged_copy 110100480 380
    run "extra.seed000_staged_copy_default" 60 seed000_staged_copy
    run "extra.vadd_events_2e26_150_51" 300 vadd_events
    run "extra.copy_bandwidth" 300 copy_bandwidth 256
fi
for b in "$WORK"/bin/*; do
    case $b in *.log) continue ;; esac
    if [ -n "${ONLY:-}" ] && ! ls "$WORK"/runs/*.argv 2>/dev/null | xargs -r cat | awk '{print $1}' | grep -qx "$(basename "$b")"; then
        continue
    fi
    cuobjdump -res-usage "$b" >"$WORK/runs/res.$(basename "$b").txt" 2>&1
done
python3 - "$WORK" "$OUT_DIR/results.json" "${ONLY:-}" <<'PY'
import datetime, glob, json, os, subprocess, sys
work, out, only = sys.argv[1], sys.argv[2], sys.argv[3]
def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""
gpu = sh("nvidia-smi --query-gpu=name,driver_version --format=csv,noheader").split(", ")
doc = {"gpu": gpu[0] if gpu else "", "driver": gpu[1] if len(gpu) > 1 else "",
       "toolkit": sh("nvcc --version | tail -2 | head -1"),
       "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
       "script": "tests/hardware/programs/collect.sh", "runs": {}, "resource_usage": {}}
new = {"runs": {}, "resource_usage": {}}
for rc in sorted(glob.glob(f"{work}/runs/*.rc")):
    key = os.path.basename(rc)[:-3]
    read = lambda ext: open(f"{work}/runs/{key}.{ext}", errors="replace").read()
    new["runs"][key] = {"argv": read("argv").split(), "exit": int(read("rc")), "wall_s": float(read("wall")),
                        "stdout": read("out"), "stderr": read("err")}
    if only:
        new["runs"][key].update({k: doc[k] for k in ("date", "driver", "gpu", "toolkit")})
for f in sorted(glob.glob(f"{work}/runs/res.*.txt")):
    new["resource_usage"][os.path.basename(f)[4:-4]] = open(f).read()
if only and os.path.exists(out):
    doc = json.load(open(out))
doc["runs"].update(new["runs"])
doc["resource_usage"].update(new["resource_usage"])
json.dump(doc, open(out, "w"), indent=1, sort_keys=True)
print(f"{len(doc['runs'])} runs written to {out}")
PY
