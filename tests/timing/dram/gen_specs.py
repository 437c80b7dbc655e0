#!/usr/bin/env python3
"""Write the DRAM-stream specs (specs/*.json): the kernels of dram.cu over 128 MiB per stream at 1, 2, 8, 16, 32
and 64 warps per SM (132 blocks of 32, 64 or 256 threads; 264, 528 and 1056 blocks of 256). Edit the tables and
re-run; do not edit the JSON by hand. The source is the committed PTX of dram.cu (nvcc -O3 -ptx -arch=sm_90
-lineinfo, the .file path made bare)."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
N4 = 8 << 20  # float4 elements per stream: 128 MiB
OCCUPANCY = [(132, 32), (132, 64), (132, 256), (264, 256), (528, 256), (1056, 256)]  # (blocks, threads)


def f32(count, init):
    return {"type": "f32", "count": count, "init": init}


def kernels(threads):
    return {
        "read1": ([f32(4 * N4, "random:1"), f32(threads, "zero"), {"type": "i32", "value": N4}], "reads one stream"),
        "read2": ([f32(4 * N4, "random:2"), f32(4 * N4, "random:3"), f32(threads, "zero"),
                   {"type": "i32", "value": N4}], "reads two streams"),
        "copy4": ([f32(4 * N4, "random:4"), f32(4 * N4, "zero"), {"type": "i32", "value": N4}],
                  "copies one stream into another with 16-byte accesses"),
        "fill4": ([f32(4 * N4, "zero"), {"type": "f32", "value": 1.5}, {"type": "i32", "value": N4}],
                  "writes one stream"),
        "triad4": ([f32(4 * N4, "random:5"), f32(4 * N4, "random:6"), f32(4 * N4, "zero"), {"type": "f32", "value": 3.0},
                    {"type": "i32", "value": N4}], "reads two streams and writes a third"),
    }


def main():
    out = os.path.join(HERE, "specs")
    os.makedirs(out, exist_ok=True)
    for old in os.listdir(out):
        os.remove(os.path.join(out, old))
    runs = [(k, g, b) for g, b in OCCUPANCY for k in ("read1", "read2", "copy4", "fill4", "triad4")]
    runs += [("copy1", 132, 256), ("copy1", 1056, 256)]
    for k, g, b in runs:
        warps = g * b // 32 // 132
        if k == "copy1":
            args = [f32(4 * N4, "random:7"), f32(4 * N4, "zero"), {"type": "i32", "value": 4 * N4}]
            what = "copies one stream into another with 4-byte accesses"
        else:
            args, what = kernels(g * b)[k]
        spec = {"description": f"A grid-stride loop that {what} of 128 MiB: {g} blocks of {b} threads, "
                               f"{warps} warps per SM.",
                "source": "../dram.sm_90.lineinfo.ptx", "kernel": k, "grid": [g, 1, 1], "block": [b, 1, 1],
                "shared_bytes": 0, "args": args, "notes": "timing tags: DRAM stream"}
        with open(os.path.join(out, f"{k}_w{warps}.json"), "w") as f:
            json.dump(spec, f, indent=1)
            f.write("\n")
    print(f"{len(runs)} specs")


if __name__ == "__main__":
    main()
