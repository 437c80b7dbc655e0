#!/usr/bin/env bash
# Regenerate every examples/*.ptx from its .cu (sm_90, with line info). The .file directives are
# rewritten to the bare source name so the PTX does not depend on where the checkout lives.
set -euo pipefail
cd "$(dirname "$0")"
ARCH="${ARCH:-sm_90}"
for cu in *.cu; do
    base="${cu%.cu}"
    nvcc -ptx -arch="$ARCH" -lineinfo -o "$base.ptx" "$cu"
    sed -i -E "s#^(\s*\.file\s+[0-9]+\s+)\"[^\"]*/$cu\"#\1\"$cu\"#" "$base.ptx"
    echo "$base.ptx"
done
