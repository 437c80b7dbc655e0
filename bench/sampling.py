#!/usr/bin/env python3
"""Sampled against whole runs: wall time of each and the error of every count (docs/PERFORMANCE.md).

    bench/sampling.py --warpsim BUILD/warpsim [--cache DIR] [SPEC ...]

For each spec: `warpsim run SPEC --json --no-sample` (the whole grid, no instruction budget or time limit) and
`warpsim run SPEC --json --sample`, both timed by the wall clock around the process. Prints, per spec, the grid,
the blocks the sample ran, both times, the largest relative error of any count (ratios left out), the largest
bound the sampled report states for a sum and for a footprint (L2/DRAM) figure (counts estimated at 0, whose
bound has no percentage, left out of these two), every count whose error is
outside its stated bound, and the predicted times. With --cache, whole runs are kept in DIR by spec name and
reused (a 4096^3 matmul runs a quarter of an hour whole): delete the file to measure again.
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SPECS = [
    "bench/specs/matmul_tiled16_512.json",
    "bench/specs/matmul_tiled16_1024.json",
    "bench/specs/transpose_padded_4096.json",
    "bench/specs/vector_add_16M.json",
    "bench/specs/block_sum_16M.json",
    "examples/specs/transpose_naive_1000x700.json",
    "examples/specs/vector_add_strided_1M.json",
    "tests/session/specs/collatz_tail.json",
    "bench/specs/matmul_tiled16_4096.json",
]


def run(warpsim, spec, *flags):
    start = time.monotonic()
    done = subprocess.run([warpsim, "run", spec, "--json", *flags], capture_output=True, text=True)
    seconds = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"{spec}: warpsim exited {done.returncode}: {done.stderr[:500]}")
    return json.loads(done.stdout), seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--warpsim", required=True)
    ap.add_argument("--cache", help="keep and reuse whole runs here")
    ap.add_argument("specs", nargs="*")
    a = ap.parse_args()
    root = os.path.dirname(HERE)
    specs = a.specs or [os.path.join(root, s) for s in DEFAULT_SPECS]
    print("| spec | blocks | sampled | whole s | sampled s | speed-up | worst count error | stated sum bound "
          "| stated footprint bound | time us whole / sampled | outside bound |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for spec in specs:
        name = os.path.basename(spec)
        cached = os.path.join(a.cache, name) if a.cache else None
        if cached and os.path.exists(cached):
            with open(cached) as f:
                saved = json.load(f)
            whole, whole_s = saved["report"], saved["seconds"]
        else:
            whole, whole_s = run(a.warpsim, spec, "--no-sample", "--max-instructions", "1000000000000000",
                                 "--time-limit", "0")
            if cached:
                os.makedirs(a.cache, exist_ok=True)
                with open(cached, "w") as f:
                    json.dump({"report": whole, "seconds": whole_s}, f)
        part, part_s = run(a.warpsim, spec, "--sample")
        s = part["sampling"]
        worst, worst_name, outside = 0.0, "", []
        sum_bound = model_bound = 0.0
        for metric, value in whole["metrics"].items():
            if metric.endswith(".pct"):
                continue
            got = part["metrics"].get(metric, 0.0)
            b = s["bounds"][metric]
            err = abs(got - value) / abs(value) * 100 if value else (0.0 if got == 0 else 100.0)
            if err > worst:
                worst, worst_name = err, metric
            if b["estimate"] == 0:
                pass  # a bound on a count estimated at 0 has no percentage (the report says 100 %)
            elif b["kind"] == "sum over blocks":
                sum_bound = max(sum_bound, b["bound_pct"])
            else:
                model_bound = max(model_bound, b["bound_pct"])
            if abs(got - value) > b["bound"] + 0.5 * s["classes"] + 1:
                outside.append(metric)
        tw = whole.get("predicted", {}).get("time_us", 0)
        tp = part.get("predicted", {}).get("time_us", 0)
        print(f"| {name} | {s['grid_blocks']} | {s['blocks_run']} | {whole_s:.1f} | {part_s:.2f} | "
              f"{whole_s / part_s:.0f}x | {worst:.3g} %{' (' + worst_name + ')' if worst else ''} | "
              f"{sum_bound:.3g} % | {model_bound:.3g} % | {tw:.1f} / {tp:.1f} | {', '.join(outside) or 'none'} |",
              flush=True)


if __name__ == "__main__":
    main()
