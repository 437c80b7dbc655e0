#!/usr/bin/env bash
# tests/hardware/spills/measure.sh — times the register-spill launches of this folder and the 2^26 vector add
# (bench/specs/vector_add_64M.json) on the GPU with CUDA events (warpsim run --backend cuda, 20 runs after
# warm-up, median), and writes $OUT_DIR/results.json ({"gpu", "driver", "date", "method", "runs": {spec: report}}).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
BUILD=${BUILD:-/tmp/build-spills}
OUT_DIR=${OUT_DIR:-$ROOT/tests/hardware/spills}
args=(-DCMAKE_BUILD_TYPE=Release -DWARPSIM_TESTS=OFF -DWARPSIM_WERROR=OFF)
[ -d "$ROOT/.deps/usr" ] && args+=(-DCMAKE_PREFIX_PATH="$ROOT/.deps/usr" -DWARPSIM_HEADER_ONLY_DEPS=ON)
cmake -S "$ROOT" -B "$BUILD" "${args[@]}" >"$OUT_DIR/build.log" 2>&1 &&
  cmake --build "$BUILD" --target warpsim -j"$(nproc)" >>"$OUT_DIR/build.log" 2>&1 || { tail -40 "$OUT_DIR/build.log"; exit 1; }
WORK=$(mktemp -d)
i=0
for spec in tests/hardware/spills/*.json bench/specs/vector_add_64M.json; do
  case "$spec" in */results.json) continue;; esac
  i=$((i + 1))
  echo "$spec" >"$WORK/$i.spec"
  timeout 120 "$BUILD/warpsim" run "$spec" --backend cuda --json --runs 20 >"$WORK/$i.json" 2>"$WORK/$i.err"
done
DRIVER=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)
python3 - "$WORK" "$i" "$OUT_DIR" "$DRIVER" <<'PY'
import datetime, json, sys
work, n, out_dir, driver = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
runs, gpu = {}, ""
for k in range(1, n + 1):
    spec = open(f"{work}/{k}.spec").read().strip()
    try:
        rep = json.load(open(f"{work}/{k}.json"))
    except ValueError:
        rep = {"error": {"name": "WARPSIM_NO_REPORT", "details": open(f"{work}/{k}.err").read()[-2000:]}}
    gpu = gpu or rep.get("device", "")
    runs[spec] = rep
json.dump({"gpu": gpu, "driver": driver,
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "method": "tests/hardware/spills/measure.sh: warpsim run --backend cuda --runs 20 (CUDA events, median of 20 after warm-up)",
           "runs": runs}, open(f"{out_dir}/results.json", "w"), indent=1)
for s, r in runs.items():
    print(s, r.get("measured", {}).get("time_us"), r.get("function", {}), r.get("error", ""))
PY
