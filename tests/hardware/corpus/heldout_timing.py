#!/usr/bin/env python3
"""The timing model on the corpus, held out (never used for calibration): run every spec of h200_results.json
through `warpsim run --json` (the simulator's prediction) and set it beside the H200's CUDA-event median.

    python3 tests/hardware/corpus/heldout_timing.py build/warpsim [--record | --check]

Prints the mean and median absolute error, per timing tag (tags.json), the pairs of launches whose
measured times are more than 20 % apart and that the prediction orders wrongly, and every launch.
--record writes the figures of all launches into the fit's record, sim/timing/h200_fit.json ("heldout"), where
the reports' expected error is read from (after a refit, which drops them, run it again); --check exits 1
when the record's mean error, to 0.1 %, is not the one measured now.
"""
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
RECORD = os.path.join(ROOT, "sim", "timing", "h200_fit.json")


def heldout_record(rows, pairs, wrong):
    errs = [abs(r[3]) for r in rows]
    return {"script": "tests/hardware/corpus/heldout_timing.py",
            "measurements": "tests/hardware/corpus/h200_results.json",
            "launches": len(rows),
            "mean_abs_error_pct": statistics.mean(errs),
            "median_abs_error_pct": statistics.median(errs),
            "pairs_20pct_apart": len(pairs),
            "misordered_pairs": len(wrong)}


def record_or_check(mode, heldout):
    record = json.load(open(RECORD))
    if mode == "--record":
        record["heldout"] = heldout
        with open(RECORD, "w") as f:
            f.write(json.dumps(record, indent=2, ensure_ascii=False) + "\n")
        print(f"written to {os.path.relpath(RECORD, ROOT)}: held-out mean {heldout['mean_abs_error_pct']:.1f} %")
        return 0
    have = record.get("heldout", {}).get("mean_abs_error_pct")
    if have is None or f"{have:.1f}" != f"{heldout['mean_abs_error_pct']:.1f}":
        print(f"{os.path.relpath(RECORD, ROOT)} says a held-out mean of {have}, measured now "
              f"{heldout['mean_abs_error_pct']:.1f} %: run with --record (and update docs/TIMING.md)",
              file=sys.stderr)
        return 1
    print(f"{os.path.relpath(RECORD, ROOT)}: held-out mean {have:.1f} %, as measured now")
    return 0


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    modes = [a for a in sys.argv[1:] if a.startswith("--")]
    if modes and (len(modes) > 1 or modes[0] not in ("--record", "--check")):
        sys.exit("usage: heldout_timing.py [WARPSIM] [--record | --check]")
    exe = args[0] if args else os.path.join(ROOT, "build", "warpsim")
    runs = json.load(open(os.path.join(HERE, "h200_results.json")))["runs"]
    tags = json.load(open(os.path.join(HERE, "tags.json")))
    rows = []
    for spec, gpu in sorted(runs.items()):
        name = os.path.basename(spec)[:-5]
        out = subprocess.run([exe, "run", os.path.join(ROOT, spec), "--json"], capture_output=True, text=True)
        try:
            sim = json.loads(out.stdout)
        except ValueError:
            print(f"{name}: no report", file=sys.stderr)
            continue
        if sim.get("error") or "predicted" not in sim:
            print(f"{name}: {sim.get('error', {}).get('message', 'no prediction')}", file=sys.stderr)
            continue
        p, m = sim["predicted"]["time_us"], gpu["measured"]["time_us"]
        rows.append((name, p, m, 100.0 * (p - m) / m, sim["predicted"].get("bound", ""), tags.get(name, [])))

    def summary(label, errs):
        if errs:
            print(f"{label:<14} {len(errs):>3} launches: mean |error| {statistics.mean(errs):6.1f} %, "
                  f"median {statistics.median(errs):5.1f} %, within 10 %: {sum(e <= 10 for e in errs)}, "
                  f"within 15 %: {sum(e <= 15 for e in errs)}")

    summary("all", [abs(r[3]) for r in rows])
    summary("untagged", [abs(r[3]) for r in rows if not r[5]])
    summary("tagged", [abs(r[3]) for r in rows if r[5]])
    for tag in ("small-grid", "loop-heavy", "atomic-heavy", "latency-bound"):
        summary(tag, [abs(r[3]) for r in rows if tag in r[5]])
    pairs = [(a, b) for a in rows for b in rows if a[2] > 1.2 * b[2]]
    wrong = [(a, b) for a, b in pairs if a[1] <= b[1]]
    print(f"pairs measured more than 20 % apart: {len(pairs)}, ordered wrongly by the prediction: {len(wrong)}")
    for r in sorted(rows, key=lambda r: -abs(r[3])):
        print(f"{r[0]:<42} predicted {r[1]:9.2f} us measured {r[2]:9.2f} us {r[3]:+7.1f} %  "
              f"{r[4].split(':')[0]:<10} {','.join(r[5])}")
    if modes:
        return record_or_check(modes[0], heldout_record(rows, pairs, wrong))
    return 0


if __name__ == "__main__":
    sys.exit(main())
