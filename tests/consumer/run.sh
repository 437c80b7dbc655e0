#!/usr/bin/env bash
# tests/consumer/run.sh BUILD_DIR SOURCE_DIR WORK_DIR — installs the build into WORK_DIR/prefix, then
# configures, builds and runs the consumer project against that prefix alone (no path into the source tree
# or the build tree is given to it), with docs/API.md's complete example (the first ```cpp block) beside it.
set -euo pipefail
build=$1 source=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
for f in include/warpsim/warpsim.hpp lib/cmake/warpsim/warpsimConfig.cmake bin/warpsim \
         share/warpsim/presets/h200.json share/doc/warpsim/LICENSE; do
  [ -e "$work/prefix/$f" ] || { echo "not installed: $f"; exit 1; }
done
# No absolute path of the source or build tree in the text files installed (package files, presets, headers).
if grep -rlIF -e "$source" -e "$build" "$work/prefix"; then echo "the files above name the source or build tree"; exit 1; fi
"$work/prefix/bin/warpsim" --version
mkdir -p "$work/example"
awk '/^```cpp$/ { n++; inside = (n == 1); next } /^```$/ { inside = 0 } inside' "$source/docs/API.md" \
    >"$work/example/api_example.cpp"
grep -q "warpsim::run" "$work/example/api_example.cpp" || { echo "docs/API.md: no complete example found"; exit 1; }
cmake -S "$source/tests/consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DAPI_EXAMPLE="$work/example/api_example.cpp" -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" ||
  { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" 2>&1 | tee "$work/build.log" | grep -E "warning|error" || true
[ -x "$work/build/consumer" ] && [ -x "$work/build/api_example" ] || { cat "$work/build.log"; exit 1; }
"$work/build/consumer" "$source/examples/vector_add.ptx"
# The document's example reads examples/vector_add.ptx from the source root, and says what it prints.
out=$(cd "$source" && "$work/build/api_example") || { echo "docs/API.md's example failed: $out"; exit 1; }
echo "docs/API.md example: $out"
case "$out" in
  "c[999] = 2997, 250 global load sectors, "*" us predicted") ;;
  *) echo "docs/API.md's example printed something other than the document says"; exit 1 ;;
esac
