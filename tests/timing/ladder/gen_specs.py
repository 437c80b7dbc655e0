#!/usr/bin/env python3
"""Write the launch ladder's specs (specs/*.json): `touch` (start, one compare, exit) at 1 to 16896 blocks of 32,
256 and 1024 threads, and `fma_chain_short` (a dependent FMA chain of 16 to 4096 steps per thread) at 1, 132
and 1056 blocks. Edit the tables and re-run; do not edit the JSON by hand. The source is the committed PTX of
ladder.cu (nvcc -O3 -ptx -arch=sm_90 -lineinfo, the .file path made bare)."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
TOUCH_GRIDS = [1, 33, 66, 132, 264, 528, 1056, 2112, 4224, 8448, 16896]
TOUCH_BLOCKS = [32, 256, 1024]
FMA = [(1, 32, 64), (1, 32, 256), (1, 32, 1024), (1, 32, 4096),
       (132, 256, 16), (132, 256, 64), (132, 256, 256), (132, 256, 1024), (132, 256, 4096),
       (1056, 256, 64), (1056, 256, 256), (1056, 256, 1024)]


def spec(name, kernel, grid, block, args, description):
    return name, {"description": description, "source": "../ladder.sm_90.lineinfo.ptx", "kernel": kernel,
                  "grid": [grid, 1, 1], "block": [block, 1, 1], "shared_bytes": 0, "args": args,
                  "notes": "timing tags: launch ladder"}


def main():
    out = os.path.join(HERE, "specs")
    os.makedirs(out, exist_ok=True)
    specs = []
    for b in TOUCH_BLOCKS:
        for g in TOUCH_GRIDS:
            specs.append(spec(f"touch_g{g}_b{b}", "touch", g, b,
                              [{"type": "i32", "count": 1, "init": "zero"}, {"type": "i32", "value": -1}],
                              f"A near-empty kernel (one compare, no store): {g} blocks of {b} threads."))
    for g, b, it in FMA:
        specs.append(spec(f"fma_chain_short_g{g}_b{b}_it{it}", "fma_chain_short", g, b,
                          [{"type": "f32", "count": g * b, "init": "zero"}, {"type": "i32", "value": it}],
                          f"{it} dependent FMAs per thread and one store: {g} blocks of {b} threads."))
    for old in os.listdir(out):
        os.remove(os.path.join(out, old))
    for name, s in specs:
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump(s, f, indent=1)
            f.write("\n")
    print(f"{len(specs)} specs")


if __name__ == "__main__":
    main()
