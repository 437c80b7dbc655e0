#!/usr/bin/env bash
# scripts/deps.sh — make sure the Debian packages warpsim builds with are installed.
# As root it installs what is missing; otherwise it names the packages to install and fails.
set -euo pipefail
#   bash scripts/deps.sh demo   what building the `warpsim` command needs (scripts/demo.sh)
#   bash scripts/deps.sh        that and what the test suite needs (scripts/test.sh)
what=${1:-test}
packages=(build-essential cmake libspdlog-dev libfmt-dev libeigen3-dev nlohmann-json3-dev libcli11-dev)
# libzstd-dev, liblz4-dev: the CUDA runtime (sim/runtime) decompresses the PTX of a program's fatbinary.
packages+=(libzstd-dev liblz4-dev)
if [ "$what" != demo ]; then
  packages+=(catch2)
  # chromium: the HTML report test (tests/html/render_in_chromium.sh) renders the pages in headless Chromium.
  packages+=(chromium)
  # python3-numpy: tests/cli/buffers_io.sh has NumPy write the .npy inputs and read back what --save wrote.
  packages+=(python3-numpy)
  # pybind11-dev, python3-dev, python3-pytest: the Python module (python/) and its tests (tests/python).
  packages+=(pybind11-dev python3-dev python3-pytest)
  # python3-distributed: warpsim.sweep on a Dask cluster, tested on a LocalCluster (tests/python/test_sweep.py).
  packages+=(python3-distributed)
  # clang-format, clang-tidy: scripts/format.sh and scripts/tidy.sh (Debian 12's version 14, as .clang-format
  # expects).
  packages+=(clang-format clang-tidy)
  # clang and its runtime libraries: the libFuzzer targets.
  if [ "${WARPSIM_WITH_CLANG:-1}" = 1 ]; then
    packages+=(clang libclang-rt-14-dev)
  fi
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  echo "warpsim: installing missing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "warpsim: missing Debian packages: ${missing[*]}" >&2
  echo "install them with: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
