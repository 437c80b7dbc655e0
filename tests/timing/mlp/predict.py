#!/usr/bin/env python3
"""The timing model on mlp.cu's launches: every spec of specs/ through `warpsim run --json`, beside the H200's
CUDA-event median in results_h200.txt (columns: kernel U blocks threads n iterations median_us ns_per_iteration).

    python3 tests/timing/mlp/predict.py build/warpsim
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def measured():
    out = {}
    for line in open(os.path.join(HERE, "results_h200.txt")):
        f = line.split()
        if len(f) == 8 and f[0] in ("sum", "sumk", "saxpy", "saxpyr"):
            out[f"{f[0]}_u{f[1]}_{f[2]}x{f[3]}"] = float(f[6])
    return out


def main():
    exe = sys.argv[1] if len(sys.argv) > 1 else "build/warpsim"
    m = measured()
    errs = []
    for spec in sorted(os.listdir(os.path.join(HERE, "specs"))):
        name = spec[:-5]
        out = subprocess.run([exe, "run", os.path.join(HERE, "specs", spec), "--json"], capture_output=True, text=True)
        try:
            p = json.loads(out.stdout)["predicted"]
        except (ValueError, KeyError):
            print(f"{name}: no prediction ({out.stderr.strip()[:200]})")
            continue
        e = 100.0 * (p["time_us"] - m[name]) / m[name]
        errs.append(abs(e))
        print(f"{name:<22} predicted {p['time_us']:8.2f} us measured {m[name]:8.2f} us {e:+7.1f} %  {p.get('bound', '')}")
    if errs:
        print(f"{len(errs)} launches: mean |error| {sum(errs) / len(errs):.1f} %, max {max(errs):.1f} %")


if __name__ == "__main__":
    main()
