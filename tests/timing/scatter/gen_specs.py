#!/usr/bin/env python3
"""Writes specs/*.json: warpsim launch specs of scatter.cu's scatter_chase_z (scatter.sm_90.lineinfo.ptx, nvcc -O3
-ptx -arch=sm_90 -lineinfo with the .file path made bare) for every chase_z line of results_h200.txt (columns:
chase_z layout k footprint_bytes steps hop_words n_words median_us), named chase_LAYOUT_K_FOOTPRINT. One warp;
the buffer is zeros, as scatter.cu's (cudaMemset)."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def launches():
    for line in open(os.path.join(HERE, "results_h200.txt")):
        f = line.split()
        if len(f) == 8 and f[0] == "chase_z":
            yield f[1], int(f[2]), int(f[3]), int(f[4]), int(f[5]), int(f[6])


def spec(layout, k, footprint, steps, hop_words, n_words):
    stride = 32 if layout == "lines" else 8
    return {
        "description": f"scatter.cu scatter_chase_z: one warp, {k} {layout} per load, {footprint} bytes walked, "
                       f"{steps} dependent loads",
        "source": "../scatter.sm_90.lineinfo.ptx",
        "kernel": "scatter_chase_z",
        "grid": [1, 1, 1],
        "block": [32, 1, 1],
        "shared_bytes": 0,
        "args": [{"type": "i32", "count": n_words, "init": "zero"}, {"type": "i32", "count": 32, "init": "zero"},
                 {"type": "i32", "value": steps}, {"type": "i32", "value": k}, {"type": "i32", "value": stride},
                 {"type": "i32", "value": hop_words}, {"type": "i32", "value": n_words}],
    }


def main():
    os.makedirs(os.path.join(HERE, "specs"), exist_ok=True)
    for layout, k, footprint, steps, hop, n in launches():
        with open(os.path.join(HERE, "specs", f"chase_{layout}_{k}_{footprint}.json"), "w") as f:
            json.dump(spec(layout, k, footprint, steps, hop, n), f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
