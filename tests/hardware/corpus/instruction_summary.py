#!/usr/bin/env python3
"""tests/hardware/corpus/instruction_summary.py — how many corpus launches the simulator's instruction totals
match exactly against the H200 (h200_results.json), and the mean absolute relative error of the others.

Usage: instruction_summary.py WARPSIM [--ptx-counts] [-v]
Runs `WARPSIM run SPEC --json` on every measured corpus spec (--ptx-counts: the PTX-level counts, as before
SASS-level instruction counting) and prints, per metric, matched/compared and the mean |sim - gpu| / gpu of
the launches that differ; -v lists every launch with the counting sentence the simulator printed.
"""
import json
import os
import subprocess
import sys

METRICS = ["smsp__inst_executed.sum", "smsp__thread_inst_executed.sum", "smsp__thread_inst_executed_pred_on.sum"]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    warpsim = sys.argv[1]
    extra = ["--ptx-counts"] if "--ptx-counts" in sys.argv else []
    verbose = "-v" in sys.argv
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    data = json.load(open(os.path.join(root, "tests/hardware/corpus/h200_results.json")))
    tally = {m: [0, 0, []] for m in METRICS}
    for spec, gpu in sorted(data["runs"].items()):
        if "error" in gpu:
            continue
        out = subprocess.run([warpsim, "run", os.path.join(root, spec), "--json"] + extra,
                             capture_output=True, text=True)
        try:
            sim = json.loads(out.stdout)
        except json.JSONDecodeError:
            print(f"{spec}: no JSON ({out.stderr.strip()[:200]})")
            continue
        row = []
        for m in METRICS:
            g, s = gpu["metrics"].get(m), sim.get("metrics", {}).get(m)
            if g is None or s is None:
                continue
            t = tally[m]
            t[0] += 1
            if s == g:
                t[1] += 1
            else:
                t[2].append(abs(s - g) / g if g else 1.0)
            row.append(f"{int(s)}/{int(g)}{'' if s == g else ' *'}")
        if verbose:
            print(f"{os.path.basename(spec)}: {' '.join(row)}  [{sim.get('counting', '')}]")
    for m, (compared, matched, errors) in tally.items():
        mean = 100.0 * sum(errors) / len(errors) if errors else 0.0
        print(f"{m}: {matched}/{compared} exact, mean abs error of the rest {mean:.2f} %")


if __name__ == "__main__":
    main()
