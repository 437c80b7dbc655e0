#!/usr/bin/env python3
"""The kernel part of the timing model against the H200: for each spec, the predicted cycles of `warpsim run
--json` (the kernel alone, without the launch overhead) beside Nsight Compute's sm__cycles_elapsed.max of the
last profiled launch (durations_h200.json here, or tests/hardware/corpus/durations_h200.json), and the
CUDA-event time minus the kernel's own duration (the host's share of an event-timed launch).

    kernel_part.py WARPSIM DURATIONS.json [EVENTS.json] [-j N]
"""
import json
import os
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))


def predicted(exe, spec):
    out = subprocess.run([exe, "run", os.path.join(ROOT, spec), "--json"], capture_output=True, text=True)
    try:
        return json.loads(out.stdout)["predicted"]
    except (ValueError, KeyError):
        return None


def main():
    args = sys.argv[1:]
    jobs = 2
    if "-j" in args:
        i = args.index("-j")
        jobs = int(args[i + 1])
        del args[i:i + 2]
    exe, durations = args[0], json.load(open(args[1]))["runs"]
    events = json.load(open(args[2]))["runs"] if len(args) > 2 else {}
    specs = sorted(durations)
    with ThreadPoolExecutor(jobs) as pool:
        preds = dict(zip(specs, pool.map(lambda s: predicted(exe, s), specs)))
    errs, hosts = [], []
    print(f"{'spec':48} {'measured':>9} {'predicted':>9} {'error':>7} {'host us':>7}  bound")
    for s in specs:
        last = durations[s][-1]
        meas, p = last["sm__cycles_elapsed.max"], preds[s]
        if p is None:
            print(f"{os.path.basename(s)[:-5]:48} {meas:9.0f}  (no prediction)")
            continue
        err = (p["cycles"] - meas) / meas
        errs.append(abs(err))
        host = ""
        ev = events.get(s, {}).get("measured", {}).get("time_us")
        if ev:
            hosts.append(ev - last["gpu__time_duration.sum"] / 1000)
            host = f"{hosts[-1]:7.2f}"
        print(f"{os.path.basename(s)[:-5]:48} {meas:9.0f} {p['cycles']:9.0f} {100 * err:+6.1f}% {host:>7}  {p['bound']}")
    if errs:
        print(f"{len(errs)} launches: kernel-part error mean {100 * statistics.mean(errs):.1f} %, "
              f"median {100 * statistics.median(errs):.1f} %, max {100 * max(errs):.1f} %")
    if hosts:
        print(f"host share of the event time: median {statistics.median(hosts):.2f} us, "
              f"min {min(hosts):.2f}, max {max(hosts):.2f}")


if __name__ == "__main__":
    main()
