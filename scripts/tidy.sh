#!/usr/bin/env bash
# scripts/tidy.sh — clang-tidy (the checks in .clang-tidy, every finding an error) on the project's sources.
#   bash scripts/tidy.sh [BUILD_DIR]        the sources changed since the commit named in .tidy-base,
#                                           committed or not (scripts/test.sh's tidy stage; 3-10 CPU-s a file)
#   bash scripts/tidy.sh --all [BUILD_DIR]  every source of the libraries, the command line and the runtime
#                                           (160 files, measured 2026-12-02 on the shared 2-core machine:
#                                           16 CPU-minutes, 25-30 minutes wall at load 4-13, 8 at best)
# After a clean --all run, write that commit into .tidy-base so the next changes are checked from there.
# Tests, benchmarks and examples are left out; headers are checked through the sources that include them
# (HeaderFilterRegex), and a changed header also brings in the source of the same name.
# BUILD_DIR (default build) must hold compile_commands.json: configure it first (scripts/test.sh does).
set -euo pipefail
cd "$(dirname "$0")/.."
all=0
if [ "${1:-}" = "--all" ]; then all=1; shift; fi
build=${1:-build}
if [ ! -f "$build/compile_commands.json" ]; then
  echo "tidy: $build/compile_commands.json is missing: configure first (cmake -S . -B $build)" >&2
  exit 1
fi
if ! command -v clang-tidy >/dev/null; then
  echo "tidy: clang-tidy is not installed (apt-get install clang-tidy)" >&2
  exit 1
fi
scope='^(sim|kernels_ir|launch|cli|cuda|warpsim|python)/'
if [ "$all" = 1 ]; then
  mapfile -t files < <(git ls-files '*.cpp' | grep -E "$scope")
else
  base=$(tr -d '[:space:]' < .tidy-base)
  if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
    # Not a silent --all: 16 CPU-minutes, more than the whole test command may take on 2 cores.
    echo "tidy: .tidy-base names $base, which this clone does not have (a shallow clone?): fetch the" \
         "history (git fetch --unshallow) or run bash scripts/tidy.sh --all" >&2
    exit 1
  else
    mapfile -t changed < <(git diff --name-only --diff-filter=AMR "$base" -- '*.cpp' '*.hpp' | grep -E "$scope" || true)
    files=()
    for f in "${changed[@]}"; do
      case "$f" in
        *.cpp) files+=("$f") ;;
        *.hpp) [ -f "${f%.hpp}.cpp" ] && files+=("${f%.hpp}.cpp") ;;
      esac
    done
    mapfile -t files < <(printf '%s\n' "${files[@]}" | grep -v '^$' | sort -u)
  fi
fi
# Sources the build does not compile (another option's files) have no compile command: skip them.
mapfile -t files < <(for f in "${files[@]}"; do
  grep -q "\"file\": \"$PWD/$f\"" "$build/compile_commands.json" && echo "$f"; done)
if [ ${#files[@]} -eq 0 ]; then
  echo "tidy: no source changed since $(cat .tidy-base 2>/dev/null || echo '?')"
  exit 0
fi
echo "tidy: ${#files[@]} source(s)"
status=0
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy -p "$build" --quiet --extra-arg=-Wno-unknown-warning-option \
  --extra-arg=-Wno-ignored-optimization-argument >"$build/tidy.log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  grep -E "error:|warning:" "$build/tidy.log" | sort -u | head -60 >&2
  echo "tidy: findings above (whole log: $build/tidy.log)" >&2
  exit 1
fi
echo "tidy: clean"
