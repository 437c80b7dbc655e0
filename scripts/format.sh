#!/usr/bin/env bash
# scripts/format.sh — the project's C++ against .clang-format (clang-format 14, Debian 12's).
#   bash scripts/format.sh          check: lists every file clang-format would change, exits 1 if any
#   bash scripts/format.sh --fix    rewrites them in place
# Left out: the .cu sources and the two headers that recorded GPU programs include
# (tests/programs/common.h, tests/hardware/sfu/sfu_inputs.h): their line numbers are part of the findings and
# outputs recorded on the H200.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' | grep -v -E '^tests/(programs|hardware)/.*\.h$')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
# One clang-format process for all files; its warnings name each file it would change.
out=$(clang-format --dry-run --Werror "${files[@]}" 2>&1) || true
mapfile -t bad < <(printf '%s\n' "$out" | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)
if [ ${#bad[@]} -eq 0 ] && [ -n "$out" ]; then
  echo "clang-format failed:" >&2
  printf '%s\n' "$out" | head -20 >&2
  exit 1
fi
if [ ${#bad[@]} -ne 0 ]; then
  echo "clang-format would change ${#bad[@]} file(s):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  echo "run: bash scripts/format.sh --fix   (or clang-format -i FILE)" >&2
  exit 1
fi
echo "format: ${#files[@]} files clean"
