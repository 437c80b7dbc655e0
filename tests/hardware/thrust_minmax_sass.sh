#!/usr/bin/env bash
# tests/hardware/thrust_minmax_sass.sh OUT_FILE: the loads and stores of thrust_algorithms' minmax_element reduction
# kernels in the SASS (needs nvcc and cuobjdump; recorded: tests/hardware/h200/thrust_minmax_sass.txt).
out=$(realpath -m "${1:?usage: thrust_minmax_sass.sh OUT_FILE}")
cd "$(dirname "$0")/../programs"
nvcc -arch=sm_90 -lineinfo -cudart shared -o /tmp/thr thrust_algorithms.cu
cuobjdump -sass /tmp/thr > /tmp/thr.sass
python3 - > "$out" <<'PY'
import re
text = open('/tmp/thr.sass').read()
funcs = re.split(r'\n\s*Function : ', text)
for f in funcs:
    name = f.split('\n', 1)[0]
    if 'arg_minmax' in name and 'ReduceAgent' in name:
        stg = [l.strip() for l in f.split('\n') if re.search(r'\b(STG|LDG)\b', l)]
        print('==', name[:200]); print('\n'.join(stg[:40]))
PY
