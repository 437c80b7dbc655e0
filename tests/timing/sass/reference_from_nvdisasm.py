#!/usr/bin/env python3
# tests/timing/sass/reference_from_nvdisasm.py — condenses `nvdisasm -c -gp -hex X.cubin` (run where the full CUDA
# toolkit is: tests/timing/l2_reuse/measure.sh) into the reference list the SASS spill reader is tested against:
# one line per STL/LDL, "section offset(hex) ptx_line STL|LDL" in listing order.
import re
import sys

section, line = None, 0
for text in open(sys.argv[1]):
    m = re.match(r'\s*\.section\s+(\.text\.[^,]+),', text)
    if m:
        section, line = m.group(1), 0
    m = re.search(r'//## File "\.nv_debug_ptx_txt", line (\d+)', text)
    if m:
        line = int(m.group(1))
    m = re.match(r'\s*/\*([0-9a-f]+)\*/\s+(?:@!?U?P\w+\s+)?(STL|LDL)\b', text)
    if m:
        print(section, m.group(1).lstrip('0') or '0', line, m.group(2))
