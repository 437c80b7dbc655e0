"""What a launch from Python costs beyond the simulation: vecAdd on 32 threads (one warp, negligible
simulated work) launched N times from the Python module, wall time per launch (first and median of the rest),
with report=False (the launch alone) and with the default report=True (also the short second run of the first
blocks that the text and HTML reports' lane diagrams come from).

    PYTHONPATH=BUILD/python /usr/bin/python3 bench/python_launch.py [N]
"""
import os
import sys
import time

import numpy as np
import warpsim

n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
mod = warpsim.load(os.path.join(root, "examples", "vector_add.ptx"))
a = np.arange(32, dtype=np.float32)
b = 2 * a
c = np.zeros_like(a)
for report in (False, True):
    times = []
    for _ in range(n):
        t = time.perf_counter()
        mod.vecAdd[1, 32](a, b, c, 32, report=report)
        times.append(time.perf_counter() - t)
    assert np.array_equal(c, 3 * a)
    rest = sorted(times[1:])
    print(f"warpsim {warpsim.__version__}: {n} launches of vecAdd[1, 32] (report={report}): first "
          f"{times[0] * 1e3:.1f} ms, median of the rest {rest[len(rest) // 2] * 1e3:.3f} ms, "
          f"min {rest[0] * 1e3:.3f} ms")

# The copies of big buffers: the same one-warp launch on arrays of 2^24 floats (64 MiB each, three of them);
# the kernel touches 32 elements, so the time is the copies in and out (and the hash of each buffer).
big = 1 << 24
a, b, c = np.ones(big, np.float32), np.ones(big, np.float32), np.zeros(big, np.float32)
for report in (False, True):
    times = []
    for _ in range(5):
        t = time.perf_counter()
        mod.vecAdd[1, 32](a, b, c, 32, report=report)
        times.append(time.perf_counter() - t)
    assert c[0] == 2 and c[32] == 0
    print(f"vecAdd[1, 32] on three arrays of {big} floats (report={report}): median of 5 "
          f"{sorted(times)[2] * 1e3:.1f} ms")
