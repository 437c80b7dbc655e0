#!/usr/bin/env python3
"""tests/specs/data/make_tensor_data.py — writes the input files of the mma_f16acc_* and wmma_probe_* specs
(run from anywhere; the files land beside this script; seeded, so a rerun writes the same bytes).

mma_f16acc_{train,held}_k{16,8}_{a,b,c16,c32}.bin: f16 A and B of both signs over many binades (tile t's
elements have exponents around a base that cycles over -7..2, so the tiles' sums range from f16 subnormals to
beyond f16's largest value), a few zeros and subnormal inputs; C as f16 (c16) and as f32 with a full
significand (c32). "train" (32 tiles, seed 1) is what the accumulation rule is read off, "held" (16 tiles,
seed 2) checks it.
mma_f16acc_ties_k16_{a,b,c16,c32}.bin: two tiles of hand-picked cases for the f16 result's rounding: exact
f16 midpoints with a term below f32's precision but inside the adder's window (2^-24) or below it (2^-27,
2^-30, through a subnormal B), f16 overflow at and above 65520, exact zeros, subnormals, infinities, NaN and
inf * 0.
Row r of tile 0 has the terms ROWS[r] (B = 1 at k = 0..2), C = COLS[c] in column c; tile 1 the same with B
negated.
wmma_src{16,8lo,8hi,32}.bin: element k holds its own index (u16 k; the low and the high byte of k; the word
k << 20 | k), so a loaded fragment element names the memory element it came from.
"""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def f16_bits(rng, exp):
    """A random f16 with the given unbiased exponent (clamped to the normal range), or sometimes 0 / subnormal."""
    sign = rng.getrandbits(1) << 15
    roll = rng.random()
    if roll < 0.03:
        return sign  # zero
    if roll < 0.06:
        return sign | rng.randrange(1, 1024)  # subnormal
    e = max(-14, min(15, exp))
    return sign | (e + 15) << 10 | rng.getrandbits(10)


def f32_bits(rng, exp):
    sign = rng.getrandbits(1) << 31
    if rng.random() < 0.03:
        return sign
    e = max(-126, min(127, exp))
    return sign | (e + 127) << 23 | rng.getrandbits(23)


def f16acc(name, seed, tiles, k):
    rng = random.Random(seed)
    a, b, c16, c32 = [], [], [], []
    for t in range(tiles):
        base = -7 + t % 10
        a += [f16_bits(rng, base + rng.randint(-3, 3)) for _ in range(16 * k)]
        b += [f16_bits(rng, base + rng.randint(-3, 3)) for _ in range(8 * k)]
        for _ in range(128):
            e = 2 * base + rng.randint(-4, 6)
            c16.append(f16_bits(rng, e))
            c32.append(f32_bits(rng, e))
    for suffix, vals, fmt in (("a", a, "H"), ("b", b, "H"), ("c16", c16, "H"), ("c32", c32, "I")):
        with open(os.path.join(HERE, f"mma_f16acc_{name}_k{k}_{suffix}.bin"), "wb") as f:
            f.write(struct.pack(f"<{len(vals)}{fmt}", *vals))


H = {"1": 0x3C00, "-1": 0xBC00, "2^-11": 0x1000, "-2^-11": 0x9000, "2^-24": 0x0001, "-2^-24": 0x8001,
     "65504": 0x7BFF, "16": 0x4C00, "8": 0x4800, "2^-10": 0x1400, "2^-14": 0x0400, "-2^-15": 0x8200,
     "inf": 0x7C00, "-inf": 0xFC00, "nan": 0x7E00, "4096": 0x6C00, "0": 0, "-0": 0x8000, "1024": 0x6400,
     "2^-12": 0x0C00, "3*2^-12": 0x1200}
F32 = {"0": 0, "-0": 0x80000000, "2^-24": 0x33800000, "-2^-11": 0xBA000000, "1024": 0x44800000, "-1": 0xBF800000,
       "2^-12": 0x39800000, "3*2^-12": 0x3A400000}
# A row: three terms multiplied by B = +-1 (k = 0..2), and an optional extra term at k = 3, where B is the f16
# subnormal 0x0200 = 2^-15 (the products 2^-12 * 2^-15 = 2^-27 and 2^-15 * 2^-15 = 2^-30 lie below the
# adder's window under a leading term of 1), or inf * 0 at k = 4, where B is 0.
EXTRA = {"2^-27": (3, 0x0C00), "2^-30": (3, 0x0200), "inf*0": (4, 0x7C00)}
ROWS = [("1", "2^-11", "2^-24", None), ("1", "2^-11", "0", "2^-30"), ("1", "2^-11", "0", "2^-27"),
        ("-1", "-2^-11", "-2^-24", None), ("65504", "16", "0", None), ("65504", "8", "0", None),
        ("65504", "16", "2^-10", None), ("1", "-1", "0", None), ("2^-14", "-2^-15", "0", "2^-27"),
        ("inf", "1", "0", None), ("inf", "-inf", "0", None), ("nan", "0", "0", None), ("1", "0", "0", "inf*0"),
        ("2^-24", "0", "0", None), ("4096", "1", "2^-11", None), ("1", "2^-11", "2^-24", "2^-30")]
COLS = ["0", "-0", "2^-24", "-2^-11", "1024", "-1", "2^-12", "3*2^-12"]


def f16acc_ties():
    a, b, c16, c32 = [], [], [], []
    for sign in (0x0000, 0x8000):
        for r in ROWS:
            row = [H[v] for v in r[:3]] + [0] * 13
            if r[3]:
                k, v = EXTRA[r[3]]
                row[k] = v
            a += row
        for _ in range(8):
            b += [0x3C00 | sign] * 3 + [0x0200 | sign] + [0] * 12
        for _ in ROWS:
            c16 += [H[v] for v in COLS]
            c32 += [F32[v] for v in COLS]
    for name, vals, fmt in (("a", a, "H"), ("b", b, "H"), ("c16", c16, "H"), ("c32", c32, "I")):
        with open(os.path.join(HERE, f"mma_f16acc_ties_k16_{name}.bin"), "wb") as f:
            f.write(struct.pack(f"<{len(vals)}{fmt}", *vals))


def wmma_sources():
    n = 1024
    files = {
        "wmma_src16.bin": struct.pack(f"<{n}H", *range(n)),
        "wmma_src8lo.bin": bytes(k & 0xFF for k in range(n)),
        "wmma_src8hi.bin": bytes(k >> 8 for k in range(n)),
        "wmma_src32.bin": struct.pack(f"<{n}I", *((k << 20 | k) for k in range(n))),
    }
    for name, data in files.items():
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    for k in (16, 8):
        f16acc("train", 1 + k, 32, k)
        f16acc("held", 2 + k, 16, k)
    f16acc_ties()
    wmma_sources()
