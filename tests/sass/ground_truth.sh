#!/usr/bin/env bash
# tests/sass/ground_truth.sh CUBIN_DIR OUT_DIR — on a machine with the CUDA toolkit's nvdisasm and
# cuobjdump (and a GPU with Nsight Compute for the measured part): disassembles every cubin of CUBIN_DIR
# (made by make_cubins.sh) into OUT_DIR/listings.tgz (nvdisasm -hex -gp, with PTX lines; nvdisasm -hex
# -g -gi, with CUDA lines and inlining; cuobjdump -sass), then runs measure_cases under ncu: the
# requested metrics per launch (ncu.csv) and the per-SASS-instruction source counters (source_sass.csv).
set -uo pipefail
cub=${1:?usage: ground_truth.sh CUBIN_DIR OUT_DIR}
out=${2:?usage: ground_truth.sh CUBIN_DIR OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
mkdir -p "$work/listings"
{ nvdisasm --version; cuobjdump --version; nvidia-smi --query-gpu=name,driver_version --format=csv; date -u; } \
    > "$work/listings/TOOLS" 2>&1
cp "$cub/SOURCES" "$work/listings/"
for c in "$cub"/*.cubin; do
    n=$(basename "$c" .cubin)
    nvdisasm -hex -gp -c "$c" > "$work/listings/$n.gp.sass" 2>&1 || nvdisasm -hex -c "$c" > "$work/listings/$n.gp.sass" 2>&1
    nvdisasm -hex -g -gi -c "$c" > "$work/listings/$n.g.sass" 2>&1
    cuobjdump -sass "$c" > "$work/listings/$n.cuobjdump.sass" 2>&1
done
tar czf "$out/listings.tgz" -C "$work" listings
cp "$work/listings/TOOLS" "$out/"
command -v ncu >/dev/null || { echo "no ncu: measured part skipped"; exit 0; }
nvcc -O2 -I "$here/../hardware" -o "$work/measure_cases" "$here/cases/measure_cases.cu" -lcuda || exit 1
"$work/measure_cases" "$cub" > "$out/measure.txt" 2>&1
metrics=$(tr '\n' ',' < "$here/cases/metrics.txt" | sed 's/,$//')
ncu --clock-control none --csv --metrics "$metrics" "$work/measure_cases" "$cub" > "$out/ncu.csv" 2> "$out/ncu.err"
ncu --clock-control none --csv --section SourceCounters --page source --print-source sass \
    "$work/measure_cases" "$cub" > "$out/source_sass.csv" 2>> "$out/ncu.err" ||
    ncu --clock-control none --csv --section SourceCounters --page source \
        "$work/measure_cases" "$cub" > "$out/source_sass.csv" 2>> "$out/ncu.err"
gzip -9 "$out/source_sass.csv"
