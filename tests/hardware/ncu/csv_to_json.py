#!/usr/bin/env python3
"""Turns profile_specs.sh's output into JSON: every launch's metrics, named by the spec whose run made it.

    csv_to_json.py CSV PIDS OUT.json --metrics M1,M2,... [--note TEXT] [--env ENV.txt]

OUT.json = {"note", "env", "runs": {spec: [{metric: value, ...} per launch, in launch order]}}; values in the
CSV's base units (ns, cycles, counts); only the metrics asked for (what profile_specs.sh was given), not the
launch attributes and the avg/min/max columns ncu adds beside them.
"""
import csv
import json
import sys


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def main():
    args = sys.argv[1:]
    opts = {}
    for key in ("--note", "--env", "--metrics"):
        if key in args:
            i = args.index(key)
            opts[key] = args[i + 1]
            del args[i:i + 2]
    csv_path, pids_path, out_path = args
    spec_of = {}
    for line in open(pids_path):
        pid, spec = line.split(None, 1)
        spec_of[pid] = spec.strip()
    rows = list(csv.reader(l for l in open(csv_path) if l.startswith('"')))
    header, data = rows[0], rows[2:]  # the second row holds the units
    col = {h: j for j, h in enumerate(header)}
    metrics = [m for m in opts["--metrics"].split(",") if m in col]
    runs = {}
    for row in data:
        spec = spec_of.get(row[col["Process ID"]])
        if spec is None:
            continue
        launch = {m: number(row[col[m]]) for m in metrics if number(row[col[m]]) is not None}
        launch["kernel"] = row[col["Kernel Name"]]
        runs.setdefault(spec, []).append(launch)
    out = {"note": opts.get("--note", ""), "env": open(opts["--env"]).read().strip().splitlines()
           if "--env" in opts else [], "runs": runs}
    with open(out_path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
