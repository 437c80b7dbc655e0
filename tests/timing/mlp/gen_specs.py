#!/usr/bin/env python3
"""Writes specs/*.json: warpsim launch specs of mlp.cu's kernels (mlp.sm_90.lineinfo.ptx, nvcc -O3 -ptx -arch=sm_90
-lineinfo) for the shapes results_h200.txt measured, named KERNEL_uU_BLOCKSxTHREADS (as results_h200.txt's columns
kernel U blocks threads). Buffers start at zero, as mlp.cu's do (cudaMemset)."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# (kernel, U, blocks, threads, iterations per thread)
LAUNCHES = [
    ("sum", 1, 1, 32, 4096), ("sum", 8, 1, 32, 4096), ("sum", 0, 1, 32, 4096),
    ("sumk", 1, 1, 32, 4096), ("sumk", 2, 1, 32, 4096), ("sumk", 4, 1, 32, 4096), ("sumk", 8, 1, 32, 4096),
    ("sumk", 16, 1, 32, 4096), ("sumk", 32, 1, 32, 4096), ("sumk", 0, 1, 32, 4096),
    ("saxpy", 1, 1, 32, 4096),
    ("sum", 1, 1, 256, 1024), ("sumk", 1, 1, 256, 1024), ("sumk", 4, 1, 256, 1024), ("sumk", 16, 1, 256, 1024),
    ("saxpy", 1, 1, 256, 1024),
    ("sum", 1, 8, 256, 1024), ("sumk", 4, 8, 256, 1024), ("saxpy", 1, 8, 256, 1024),
    ("sum", 1, 1, 1024, 1024), ("sumk", 8, 1, 1024, 1024),
]


def spec(kernel, u, blocks, threads, iters):
    n = blocks * threads * iters
    name = f"{kernel}_u{u}"
    if kernel == "sumk":
        args = [{"type": "f32", "count": n, "init": "zero"}, {"type": "f32", "count": blocks * threads, "init": "zero"},
                {"type": "i32", "value": iters}]
    elif kernel == "sum":
        args = [{"type": "f32", "count": n, "init": "zero"}, {"type": "f32", "count": blocks * threads, "init": "zero"},
                {"type": "i32", "value": n}]
    else:
        args = [{"type": "f32", "count": n, "init": "zero"}, {"type": "f32", "count": n, "init": "zero"},
                {"type": "f32", "value": 1.5}, {"type": "i32", "value": n}]
    return {
        "description": f"mlp.cu {name}: {blocks} blocks of {threads} threads, {iters} loop iterations per thread",
        "source": "../mlp.sm_90.lineinfo.ptx",
        "kernel": name,
        "grid": [blocks, 1, 1],
        "block": [threads, 1, 1],
        "shared_bytes": 0,
        "args": args,
    }


def main():
    for k, u, b, t, it in LAUNCHES:
        with open(os.path.join(HERE, "specs", f"{k}_u{u}_{b}x{t}.json"), "w") as f:
            json.dump(spec(k, u, b, t, it), f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
