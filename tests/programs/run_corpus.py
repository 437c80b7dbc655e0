#!/usr/bin/env python3
"""The program corpus under `warpsim exec`, compared with the H200.

Builds tests/programs/ with nvcc (build.sh), runs every line of programs.txt as `WARPSIM exec BIN ARGS...`,
and compares each run with its recording in tests/hardware/programs/h200/results.json: the exit status, and
stdout line by line, leaving out only the lines that begin with "time:" (measured times). Binaries linked
with the static cudart or carrying no PTX must be refused: a non-zero exit and a message naming the fix.

not_supported.txt names what the simulator does not do yet, explicitly: `ID | reason` for a whole run,
`ID:PREFIX | reason` for the stdout lines of a run that begin with PREFIX (which may hold spaces). Such a run or line is reported, not
hidden, and one that starts to match is an error until it is taken off the list.

Usage: run_corpus.py --warpsim EXE [--build DIR] [--only REGEX] [--jobs N] [--timeout S]
Exit 0: everything matched (apart from the listed gaps); 1: a mismatch; 77: skipped (no nvcc).
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RECORDING = os.path.join(ROOT, "tests", "hardware", "programs", "h200", "results.json")
TIMING_PREFIX = "time:"
# What `warpsim exec` must say when it refuses a binary (a substring of its stderr).
REFUSAL_HINT = {"static": "-cudart shared", "noptx": "PTX"}


def read_manifest():
    runs = []
    with open(os.path.join(HERE, "programs.txt")) as f:
        for line in f:
            fields = line.split()
            if not fields or fields[0].startswith("#"):
                continue
            run_id, source, build = fields[0], fields[1], fields[2]
            binary = os.path.splitext(source)[0] + ("" if build == "shared" else "_" + build)
            runs.append({"id": run_id, "binary": binary, "build": build, "args": fields[3:]})
    return runs


def read_not_supported():
    whole, lines = {}, {}
    with open(os.path.join(HERE, "not_supported.txt")) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, sep, reason = line.partition(" | ")
            key = key.strip()
            if not sep or not reason.strip():
                sys.exit(f"not_supported.txt:{number}: '{key}' has no reason; write 'ID | why it is not supported yet'")
            if ":" in key:
                run_id, prefix = key.split(":", 1)
                lines.setdefault(run_id, []).append((prefix, reason.strip()))
            else:
                whole[key] = reason.strip()
    return whole, lines


def compared_lines(text, exempt_prefixes):
    kept = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith(TIMING_PREFIX) or any(line.startswith(p) for p in exempt_prefixes):
            continue
        kept.append((number, line))
    return kept


def exit_status(returncode):
    return 128 - returncode if returncode < 0 else returncode  # killed by signal N: 128 + N, as a shell says


def execute(warpsim, build_dir, run, timeout):
    argv = [warpsim, "exec", "--quiet", os.path.join(build_dir, run["binary"])] + run["args"]
    try:
        p = subprocess.run(argv, capture_output=True, text=True, errors="replace", timeout=timeout,
                           stdin=subprocess.DEVNULL)
        return {"exit": exit_status(p.returncode), "stdout": p.stdout, "stderr": p.stderr}
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return {"exit": None, "stdout": out, "stderr": f"timed out after {timeout} s"}


def compare(run, got, recorded, exempt):
    """Returns a list of problems (empty: the run matches)."""
    if run["build"] in REFUSAL_HINT:
        problems = []
        if got["exit"] in (0, None):
            problems.append(f"expected a refusal (non-zero exit), got exit {got['exit']}")
        if REFUSAL_HINT[run["build"]] not in got["stderr"]:
            problems.append(f"the refusal does not mention '{REFUSAL_HINT[run['build']]}'")
        return problems
    problems = []
    if got["exit"] != recorded["exit"]:
        problems.append(f"exit {got['exit']}, the H200 exited {recorded['exit']}")
    prefixes = [p for p, _ in exempt]
    want, have = compared_lines(recorded["stdout"], prefixes), compared_lines(got["stdout"], prefixes)
    for k in range(max(len(want), len(have))):
        w = want[k] if k < len(want) else (None, "<no more lines>")
        h = have[k] if k < len(have) else (None, "<no more lines>")
        if w[1] != h[1]:
            problems.append(f"stdout line {h[0]}: {h[1]!r}\n      the H200's line {w[0]}: {w[1]!r}")
            break
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--warpsim", required=True)
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "programs"))
    ap.add_argument("--only", default="")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=120)
    args = ap.parse_args()

    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else "")
    if not nvcc:
        print("SKIPPED: nvcc not found (install the CUDA toolkit or put nvcc on the PATH)")
        return 77
    built = subprocess.run(["bash", os.path.join(HERE, "build.sh"), args.build], env=dict(os.environ, NVCC=nvcc,
                           JOBS=str(args.jobs)))
    if built.returncode != 0:
        print("FAILED: some programs did not build (above)")
        return 1

    recording = json.load(open(RECORDING))["runs"]
    whole, lines = read_not_supported()
    runs = [r for r in read_manifest() if re.search(args.only, r["id"])]
    for key in list(whole) + list(lines):
        if not any(r["id"] == key for r in read_manifest()):
            print(f"FAILED: not_supported.txt names '{key}', which is no run of programs.txt")
            return 1
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda r: execute(args.warpsim, args.build, r, args.timeout), runs))

    matched, gaps, failed = 0, 0, 0
    for run, got in zip(runs, results):
        rid = run["id"]
        if rid not in recording:
            print(f"FAIL  {rid}: no recording in {os.path.relpath(RECORDING, ROOT)} (run collect.sh on a GPU)")
            failed += 1
            continue
        problems = compare(run, got, recording[rid], lines.get(rid, []))
        if rid in whole:
            if problems:
                print(f"NOT YET SUPPORTED  {rid}: {whole[rid]}")
                gaps += 1
            else:
                print(f"FAIL  {rid}: matches the H200 now; take it off not_supported.txt")
                failed += 1
            continue
        if problems:
            print(f"FAIL  {rid} ({' '.join([run['binary']] + run['args'])}):")
            for p in problems:
                print(f"      {p}")
            if got["stderr"].strip():
                print("      stderr: " + "\n              ".join(got["stderr"].strip().splitlines()[-8:]))
            failed += 1
            continue
        if lines.get(rid) and not compare(run, got, recording[rid], []):
            print(f"FAIL  {rid}: its exempted lines match the H200 now; take them off not_supported.txt")
            failed += 1
            continue
        for prefix, reason in lines.get(rid, []):
            print(f"NOT YET SUPPORTED  {rid}: lines '{prefix}...' not compared: {reason}")
        print(f"ok    {rid}")
        matched += 1
    print(f"{len(runs)} runs: {matched} match the H200, {gaps} not yet supported (not_supported.txt), "
          f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
