#!/usr/bin/env python3
"""tests/hardware/sass_cases/convert.py RAW_DIR — turns what tests/sass/ground_truth.sh brought back from the
H200 into the files of this folder: results.json (ncu.csv's metrics per launch, in launch order, with the
buffer hash measure_cases printed) and source_sass.csv (the SourceCounters page, one row per SASS instruction:
kernel, offset in its function, instruction text, and the per-instruction counters kept here)."""
import csv
import gzip
import json
import re
import sys

KEEP = ["Instructions Executed", "Thread Instructions Executed", "Predicated-On Thread Instructions Executed",
        "L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal", "L1 Tag Requests Global",
        "L2 Theoretical Sectors Global", "Address Space", "Access Operation", "Access Size"]


def main(raw):
    hashes = [l.split() for l in open(f"{raw}/measure.txt") if "out_fnv1a=" in l]
    rows = [r for r in csv.reader(l for l in open(f"{raw}/ncu.csv") if l.startswith('"'))]
    head, rows = rows[0], rows[1:]
    col = {n: i for i, n in enumerate(head)}
    launches = {}
    for r in rows:
        launch = launches.setdefault(int(r[col["ID"]]), {"kernel": r[col["Kernel Name"]], "block": r[col["Block Size"]],
                                                         "grid": r[col["Grid Size"]], "metrics": {}})
        launch["metrics"][r[col["Metric Name"]]] = float(r[col["Metric Value"]].replace(",", ""))
    runs = []
    for i in sorted(launches):
        cubin, kernel, h = hashes[i]
        assert launches[i]["kernel"] == kernel, (launches[i]["kernel"], kernel)
        runs.append(dict(launches[i], cubin=cubin, out_fnv1a=h.split("=")[1]))
    tools = open(f"{raw}/TOOLS").read()
    json.dump({"gpu": "NVIDIA H200", "driver": re.search(r"H200, (\S+)", tools).group(1),
               "date": "2026-12-01", "script": "tests/sass/ground_truth.sh", "runs": runs},
              open("results.json", "w"), indent=1)
    out = csv.writer(open("source_sass.csv", "w", newline=""))
    out.writerow(["kernel", "offset", "source"] + KEEP)
    kernel, base = None, None
    for r in csv.reader(gzip.open(f"{raw}/source_sass.csv.gz", "rt")):
        if len(r) >= 2 and r[0] == "Kernel Name":
            kernel, base, names = r[1], None, None
            continue
        if r and r[0] == "Address":
            names = {n: i for i, n in enumerate(r)}
            continue
        if kernel and r and r[0].startswith("0x"):
            addr = int(r[0], 16)
            base = addr if base is None else base
            out.writerow([kernel, f"{addr - base:04x}", r[1].strip()] + [r[names[k]] if k in names else "" for k in KEEP])


if __name__ == "__main__":
    main(sys.argv[1])
