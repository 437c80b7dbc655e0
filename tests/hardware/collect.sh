#!/usr/bin/env bash
# tests/hardware/collect.sh — on a machine with an NVIDIA GPU: build warpsim (Release), run every launch
# spec of examples/specs and tests/specs on the GPU with Nsight Compute metrics, and write
# tests/hardware/<gpu>/results.json: {"gpu", "driver", "toolkit", "date", "runs": {spec: report}}.
#
# Environment (all optional):
#   BUILD=dir        build folder (default build-hardware in the repository)
#   OUT_DIR=dir      where results.json goes (default tests/hardware/<gpu>, e.g. tests/hardware/h200)
#   SPECS="a.json …" the specs to run (default: all of examples/specs/*.json and tests/specs/*.json)
#   PROFILE=0        skip Nsight Compute (buffers, registers, occupancy and timings only)
#   RUNS=N           timed launches per spec (default 20)
#   TESTS=ON         also configure the test suite (default OFF)
#   EXE=path         the program to run (default: warpsim if it builds, else warpsim_gpu_run)
# Dependencies: a repository-local prefix .deps/usr (Debian packages unpacked with dpkg -x, see README.md)
# is used when present, so that machines without a package registry can build.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build-hardware}
RUNS=${RUNS:-20}
PROFILE=${PROFILE:-1}
cd "$ROOT"

cmake_args=(-DCMAKE_BUILD_TYPE=Release -DWARPSIM_TESTS=${TESTS:-OFF})
if [ -d "$ROOT/.deps/usr" ]; then
  cmake_args+=(-DCMAKE_PREFIX_PATH="$ROOT/.deps/usr" -DWARPSIM_HEADER_ONLY_DEPS=ON)
fi
cmake -S "$ROOT" -B "$BUILD" "${cmake_args[@]}" >"$BUILD.configure.log" 2>&1 || { cat "$BUILD.configure.log"; exit 1; }
# The CLI (warpsim) when it builds, else the backend's own driver, which takes the same arguments.
cmake --build "$BUILD" --target warpsim_gpu_run -j"$(nproc)"
if [ -z "${EXE:-}" ]; then
  EXE="$BUILD/warpsim_gpu_run"
  if cmake --build "$BUILD" --target help | grep -q '^\.\.\. warpsim$' &&
     cmake --build "$BUILD" --target warpsim -j"$(nproc)"; then
    EXE="$BUILD/warpsim"
  fi
fi
echo "collect.sh: running the specs with $EXE" >&2

if [ -z "${SPECS:-}" ]; then SPECS=$(ls examples/specs/*.json tests/specs/*.json 2>/dev/null); fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
flags=(--backend cuda --json --runs "$RUNS")
[ "$PROFILE" = 1 ] && flags+=(--profile)
i=0
for spec in $SPECS; do
  i=$((i + 1))
  printf '%s\n' "$spec" >"$TMP/$i.spec"
  start=$(date +%s.%N)
  # A spec that fails (expect_error, or a kernel the driver refuses) still writes its report.
  timeout 300 "$EXE" run "$spec" "${flags[@]}" >"$TMP/$i.json" 2>"$TMP/$i.err" || true
  printf '%-60s %6.1fs\n' "$spec" "$(echo "$(date +%s.%N) - $start" | bc 2>/dev/null || echo 0)" >&2
done

TOOLKIT=$( (nvcc --version 2>/dev/null || true) | grep -o 'release [0-9.]*' | head -1 | cut -d' ' -f2)
python3 - "$TMP" "$i" "${OUT_DIR:-}" "$TOOLKIT" "$ROOT" <<'PY'
import datetime, json, os, re, sys
tmp, count, out_dir, toolkit, root = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
runs, gpu = {}, {}
for i in range(1, count + 1):
    spec = open(f"{tmp}/{i}.spec").read().strip()
    text = open(f"{tmp}/{i}.json").read()
    try:
        report = json.loads(text)
    except ValueError:
        err = open(f"{tmp}/{i}.err").read()
        report = {"error": {"name": "WARPSIM_NO_REPORT", "message": "the run printed no JSON report",
                            "details": (err or text)[-2000:]}}
    gpu = gpu or report.get("gpu", {})
    runs[spec] = report
name = gpu.get("name", "unknown GPU")
slug = re.sub(r"[^a-z0-9]+", "-", name.lower().replace("nvidia", "")).strip("-") or "unknown"
out_dir = out_dir or os.path.join(root, "tests", "hardware", slug)
os.makedirs(out_dir, exist_ok=True)
result = {"gpu": name, "driver": gpu.get("driver_version", ""), "toolkit": toolkit,
          "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), "runs": runs}
path = os.path.join(out_dir, "results.json")
with open(path, "w") as f:
    json.dump(result, f, indent=1, sort_keys=False)
    f.write("\n")
errors = sum(1 for r in runs.values() if "error" in r)
print(f"{path}: {len(runs)} specs, {errors} with an error (expected ones included)")
PY
