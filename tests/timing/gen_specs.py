#!/usr/bin/env python3
# tests/timing/gen_specs.py — writes the timing launch specs (tests/timing/specs/*.json) and their
# calibration/validation split (tests/timing/specs/sets.json). Re-run after editing the tables below.
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "specs")
EX = "../../../examples/"
specs = []  # (name, set, spec)


def buf(t, n, init="random:1"):
    return {"type": t, "count": n, "init": init}


def val(t, v):
    return {"type": t, "value": v}


def add(name, which, desc, src, kernel, grid, block, args, shared=0):
    g = grid if isinstance(grid, list) else [grid, 1, 1]
    b = block if isinstance(block, list) else [block, 1, 1]
    specs.append((name, which, {"description": desc, "source": EX + src, "kernel": kernel,
                                "grid": g, "block": b, "shared_bytes": shared, "args": args}))


def cdiv(a, b):
    return (a + b - 1) // b


# Vector add: size sweep (launch overhead -> L2 -> DRAM bandwidth), 256 threads per block.
for k, which in [(10, "cal"), (12, "val"), (14, "cal"), (16, "val"), (17, "cal"), (18, "val"), (19, "cal"),
                 (20, "val"), (21, "cal"), (22, "val"), (23, "cal")]:
    n = 1 << k
    add(f"vector_add_2p{k}", which, f"vector_add, n = 2^{k}, 256 threads per block", "vector_add.ptx",
        "vector_add", cdiv(n, 256), 256, [buf("f32", n), buf("f32", n, "random:2"), buf("f32", n, "zero"), val("i32", n)])
# Vector add: block-size sweep at n = 2^22 (block size should matter little for streaming).
for bs, which in [(32, "val"), (64, "cal"), (128, "val"), (512, "cal"), (1024, "val")]:
    n = 1 << 22
    add(f"vector_add_2p22_b{bs}", which, f"vector_add, n = 2^22, {bs} threads per block", "vector_add.ptx",
        "vector_add", cdiv(n, bs), bs, [buf("f32", n), buf("f32", n, "random:2"), buf("f32", n, "zero"), val("i32", n)])
# Grid-stride vector add over 2^22 elements: bandwidth grows with blocks while few are resident.
for nb, which in [(1, "cal"), (2, "val"), (4, "cal"), (8, "val"), (16, "cal"), (33, "val"), (66, "cal"),
                  (132, "val"), (264, "cal"), (528, "val"), (1056, "cal")]:
    n = 1 << 22
    add(f"vector_add_strided_2p22_g{nb}", which, f"grid-stride vector add, 2^22 elements, {nb} blocks of 256",
        "vector_add.ptx", "vector_add_strided", nb, 256,
        [buf("f32", n), buf("f32", n, "random:2"), buf("f32", n, "zero"), val("i64", n)])
# saxpy and float4 scale.
for k, which in [(20, "cal"), (22, "val")]:
    n = 1 << k
    add(f"saxpy_2p{k}", which, f"saxpy, n = 2^{k}", "saxpy.ptx", "saxpy", cdiv(n, 256), 256,
        [val("f32", 3.0), buf("f32", n), buf("f32", n, "fill:1"), val("i32", n)])
    add(f"scale_float4_2p{k}", "val" if which == "cal" else "cal", f"scale_float4, 2^{k} floats",
        "saxpy.ptx", "scale_float4", cdiv(n // 4, 256), 256,
        [buf("f32", n), buf("f32", n, "zero"), val("f32", 0.5), val("i32", n // 4)])
# Coalescing: strided reads, n = 2^20 outputs.
n = 1 << 20
for kern, mult, off, which in [("read_stride1", 1, 0, "cal"), ("read_offset1", 1, 1, "val"),
                               ("read_stride2", 2, 0, "cal"), ("read_stride8", 8, 0, "val"),
                               ("read_stride32", 32, 0, "cal")]:
    add(f"coalescing_{kern}_2p20", which, f"{kern}: in[{mult} i + {off}], 2^20 outputs", "coalescing.ptx",
        kern, cdiv(n, 256), 256, [buf("f32", n * mult + 1), buf("f32", n, "zero"), val("i32", n)])
add("coalescing_read_float4_2p20", "val", "read_float4: 2^20 float4", "coalescing.ptx", "read_float4",
    cdiv(n, 256), 256, [buf("f32x4", n), buf("f32x4", n, "zero"), val("i32", n)])
add("coalescing_strided_s4_2p20", "cal", "read_strided stride 4 offset 0, 2^20 outputs", "coalescing.ptx",
    "read_strided", cdiv(n, 256), 256, [buf("f32", 4 * n), buf("f32", n, "zero"), val("i32", n), val("i32", 4), val("i32", 0)])
# Transposes (block 32x8, tile 32).
for kern in ["transpose_naive", "transpose_tiled", "transpose_padded", "copy_tiles"]:
    for m, which in [(1024, "cal"), (2048, "val")]:
        if kern in ("transpose_tiled", "copy_tiles"):
            which = "val" if which == "cal" else "cal"
        add(f"{kern}_{m}", which, f"{kern}, {m} x {m}", "transpose.ptx", kern, [m // 32, m // 32, 1], [32, 8, 1],
            [buf("f32", m * m), buf("f32", m * m, "zero"), val("i32", m), val("i32", m)])
# Matrix multiply.
for kern, bs, nn, which in [("matmul_naive", 16, 256, "cal"), ("matmul_naive", 16, 512, "val"),
                            ("tiledMatMul", 32, 256, "val"), ("tiledMatMul", 32, 512, "cal"),
                            ("tiledMatMul_tile16", 16, 512, "val"), ("tiledMatMul_tile16", 16, 256, "cal")]:
    add(f"{kern}_{nn}", which, f"{kern}, n = {nn}", "matmul.ptx", kern, [nn // bs, nn // bs, 1], [bs, bs, 1],
        [buf("f32", nn * nn), buf("f32", nn * nn, "random:2"), buf("f32", nn * nn, "zero"), val("i32", nn)])
# Waves: equal-work blocks of 256 threads, 8 per SM -> 1056 per wave.
for nb, iters, which in [(132, 256, "cal"), (528, 256, "val"), (1056, 256, "cal"), (1057, 256, "val"),
                         (1188, 256, "cal"), (2112, 256, "val"), (2113, 256, "cal"), (1056, 1024, "val"),
                         (1057, 1024, "cal"), (4224, 64, "val")]:
    add(f"waves_{nb}_it{iters}", which, f"fixed_work, {nb} blocks of 256, {iters} iterations", "waves.ptx",
        "fixed_work", nb, 256, [buf("f32", nb * 256), buf("f32", nb * 256, "zero"), val("i32", iters)])
# Divergence: lanes split inside warps vs whole warps.
for iters, which in [(256, "cal"), (1024, "val"), (2048, "cal")]:
    for kern in ["divergent_lanes", "uniform_warps"]:
        w = which if kern == "divergent_lanes" else ("val" if which == "cal" else "cal")
        add(f"{kern}_it{iters}", w, f"{kern}, 1056 blocks of 256, {iters} iterations per path", "divergence.ptx",
            kern, 1056, 256, [buf("f32", 1056 * 256), buf("f32", 1056 * 256, "zero"), val("i32", iters)])
# Tiny launches: launch overhead.
add("tiny_fill_ones_32", "cal", "fill_ones, one block of 32 threads", "launch_errors.ptx", "fill_ones", 1, 32,
    [buf("f32", 32, "zero"), val("i32", 32)])
add("tiny_fill_ones_1024", "val", "fill_ones, one block of 1024 threads", "launch_errors.ptx", "fill_ones", 1, 1024,
    [buf("f32", 1024, "zero"), val("i32", 1024)])
add("tiny_vecadd_1000", "cal", "vecAdd, n = 1000 (4 blocks)", "vector_add.ptx", "vecAdd", 4, 256,
    [buf("f32", 1000), buf("f32", 1000, "random:2"), buf("f32", 1000, "zero"), val("i32", 1000)])
add("tiny_block_sum_256", "val", "block_sum, one block of 256", "warp_reduce.ptx", "block_sum", 1, 256,
    [buf("f32", 256), buf("f32", 1, "zero"), val("i32", 256)])
# Reductions.
for k, which in [(20, "cal"), (22, "val")]:
    n = 1 << k
    add(f"block_sum_2p{k}", which, f"block_sum, n = 2^{k}", "warp_reduce.ptx", "block_sum", n // 256, 256,
        [buf("f32", n), buf("f32", n // 256, "zero"), val("i32", n)])
# Occupancy limiters.
n = 1056 * 256 * 4
add("occupancy_many_registers_4224", "cal", "many_registers (launch bounds 256,1), 4224 blocks",
    "occupancy_probe.ptx", "many_registers", 4224, 256, [buf("f32", n), buf("f32", n, "zero"), val("i32", n)])
add("occupancy_capped_registers_4224", "val", "capped_registers (maxnreg 32, spills), 4224 blocks",
    "occupancy_probe.ptx", "capped_registers", 4224, 256, [buf("f32", n), buf("f32", n, "zero"), val("i32", n)])
add("occupancy_static_shared_48k_4224", "val", "static_shared_48k, 4224 blocks", "occupancy_probe.ptx",
    "static_shared_48k", 4224, 256, [buf("f32", n), buf("f32", n, "zero"), val("i32", n)])
for kb, which in [(8, "cal"), (32, "val"), (46, "cal")]:
    add(f"occupancy_dynamic_shared_{kb}k_4224", which, f"dynamic_shared {kb} KB, 4224 blocks", "occupancy_probe.ptx",
        "dynamic_shared", 4224, 256, [buf("f32", n), buf("f32", n, "zero"), val("i32", n), val("i32", kb * 256)],
        shared=kb * 1024)
# Shared tiles (one 32x32 tile per block of 32x32).
for kern, which in [("tile_32x32", "cal"), ("tile_32x33", "val"), ("tile_swizzle", "cal")]:
    nb = 4096
    add(f"shared_{kern}_{nb}", which, f"{kern}, {nb} tiles", "shared_tile.ptx", kern, nb, [32, 32, 1],
        [buf("f32", nb * 1024), buf("f32", nb * 1024, "zero")])
# Scale matrix, coalesced vs swapped indexing; reverse_blocks.
for kern, which in [("scale_matrix", "val"), ("scale_matrix_swapped", "cal")]:
    m = 2048
    add(f"{kern}_{m}", which, f"{kern}, {m} x {m}, block (32, 8)", "scale_matrix.ptx", kern,
        [m // 32, m // 8, 1], [32, 8, 1], [buf("f32", m * m), val("f32", 2.0), val("i32", m), val("i32", m)])
n = 1 << 22
add("reverse_blocks_2p22", "val", "reverse_blocks, n = 2^22", "reverse_blocks.ptx", "reverse_blocks", n // 256, 256,
    [buf("f32", n), buf("f32", n, "zero"), val("i32", n)], shared=1024)

os.makedirs(OUT, exist_ok=True)
for f in os.listdir(OUT):
    if f.endswith(".json"):
        os.remove(os.path.join(OUT, f))
sets = {"calibration": [], "validation": []}
for name, which, spec in specs:
    with open(os.path.join(OUT, name + ".json"), "w") as fh:
        json.dump(spec, fh, indent=1)
        fh.write("\n")
    sets["calibration" if which == "cal" else "validation"].append("tests/timing/specs/" + name + ".json")
with open(os.path.join(HERE, "sets.json"), "w") as fh:
    json.dump(sets, fh, indent=1)
    fh.write("\n")
print(len(specs), "specs:", len(sets["calibration"]), "calibration,", len(sets["validation"]), "validation")
