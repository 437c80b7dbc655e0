#!/usr/bin/env python3
"""Checks launch specs against the .param lists of their PTX (count and sizes), without warpsim.

Usage: check_specs.py SPEC.json...   (exit status 1 on any mismatch)
A spec with "expect_error" may fail these checks on purpose; its failure is printed, not counted.
"""
import json
import os
import re
import subprocess
import sys

SCALAR_BYTES = {"i8": 1, "u8": 1, "i16": 2, "u16": 2, "i32": 4, "u32": 4, "i64": 8, "u64": 8,
                "f16": 2, "bf16": 2, "f32": 4, "f64": 8}
VECTOR_BYTES = {"f32x2": 8, "f32x4": 16, "i32x2": 8, "i32x4": 16, "u32x4": 16, "f64x2": 16}
PARAM_BYTES = {"b8": 1, "u8": 1, "s8": 1, "b16": 2, "u16": 2, "s16": 2, "f16": 2, "b32": 4, "u32": 4,
               "s32": 4, "f32": 4, "b64": 8, "u64": 8, "s64": 8, "f64": 8}
ENTRY = re.compile(r"\.entry\s+(\S+)\s*\((.*?)\)", re.S)
PARAM = re.compile(r"\.param\s+(?:\.align\s+(\d+)\s+)?\.(\w+)\s+(?:\.ptr\s+(?:\.\w+\s+)?(?:\.align\s+\d+\s+)?)?"
                   r"(\w+)(?:\[(\d+)\])?")


def demangled_base(name):
    if not name.startswith("_Z"):
        return name
    out = subprocess.run(["c++filt", name], capture_output=True, text=True).stdout.strip()
    head = out.split("(")[0]
    head = re.sub(r"<.*>$", "", head)        # template arguments
    return head.split(" ")[-1].split("::")[-1]


def entries(ptx_text):
    found = {}
    for m in ENTRY.finditer(ptx_text):
        params = []
        for p in PARAM.finditer(m.group(2)):
            size = PARAM_BYTES[p.group(2)] * (int(p.group(4)) if p.group(4) else 1)
            params.append(size)
        found.setdefault(demangled_base(m.group(1)), []).append((m.group(1), params))
    return found


def arg_bytes(arg):
    if "count" in arg:
        return 8
    if arg["type"] == "bytes":
        return len(arg["hex"]) // 2
    return SCALAR_BYTES[arg["type"]]


def buffer_bytes(arg):
    t = arg["type"]
    return arg["count"] * (SCALAR_BYTES.get(t) or VECTOR_BYTES[t])


def check(path):
    errors = []
    spec = json.load(open(path))
    src = os.path.join(os.path.dirname(path), spec["source"])
    if not os.path.exists(src):
        return [f"{path}: source {src} missing"]
    found = entries(open(src).read())
    cands = found.get(spec["kernel"], [])
    if len(cands) != 1:
        return [f"{path}: kernel {spec['kernel']} has {len(cands)} candidates in {src}"]
    mangled, params = cands[0]
    sizes = [arg_bytes(a) for a in spec["args"]]
    if sizes != params:
        errors.append(f"{path}: {mangled} params {params} vs spec {sizes}")
    for key in ("grid", "block"):
        if len(spec[key]) != 3 or min(spec[key]) < 1:
            errors.append(f"{path}: bad {key}")
    for i, a in enumerate(spec["args"]):
        if "count" in a:
            if a["type"] not in SCALAR_BYTES and a["type"] not in VECTOR_BYTES:
                errors.append(f"{path}: arg {i} bad type {a['type']}")
            init = a.get("init", "zero")
            if not re.fullmatch(r"zero|iota|fill:[-+0-9.eExa-fA-F]+|random:\d+|file:.+", init):
                errors.append(f"{path}: arg {i} bad init {init}")
        elif a["type"] != "bytes" and "value" not in a:
            errors.append(f"{path}: arg {i} is neither buffer nor scalar")
    return errors


def main():
    errors = []
    for p in sys.argv[1:]:
        found = check(p)
        expected = json.load(open(p)).get("expect_error")
        if expected and found:
            print(f"{p}: expected error ({expected}): {found[0]}")
            continue
        errors += found
    for e in errors:
        print(e)
    print(f"{len(sys.argv) - 1} specs checked, {len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
