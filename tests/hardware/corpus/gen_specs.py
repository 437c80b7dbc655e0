#!/usr/bin/env python3
"""Write the corpus's launch specs (specs/*.json) and the data files they read (data/*.bin).

Edit the LAUNCHES table and re-run; do not edit the JSON by hand. Every spec's source is the committed
PTX of its .cu (regen.sh: nvcc -O3 -arch=sm_90 -lineinfo). `tags` name what a launch stresses for the
timing model: small-grid (fewer blocks than SMs, or a few waves of a long loop), loop-heavy, atomic-heavy,
latency-bound.
"""
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def mix64(x):
    m = (1 << 64) - 1
    x = (x + 0x9E3779B97F4A7C15) & m
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & m
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & m
    return x ^ (x >> 31)


def write_data():
    """A sparse matrix (4096 rows, 1..48 entries per row, skewed) in CSR and ELL, and a random cyclic
    permutation for pointer chasing. All from mix64, so re-running writes the same bytes."""
    os.makedirs(os.path.join(HERE, "data"), exist_ok=True)
    rows = 4096
    row_ptr, cols = [0], []
    for r in range(rows):
        h = mix64(r)
        length = 1 + (h % 48 if h % 7 == 0 else h % 12)  # mostly short rows, one in seven up to 48
        cs = sorted({(r + (mix64(r * 131 + k) % 2048) - 1024) % rows for k in range(length)})
        cols.extend(cs)
        row_ptr.append(len(cols))
    nnz = len(cols)
    width = max(row_ptr[r + 1] - row_ptr[r] for r in range(rows))
    ell = [-1] * (width * rows)
    for r in range(rows):
        for k, c in enumerate(cols[row_ptr[r]:row_ptr[r + 1]]):
            ell[k * rows + r] = c
    chase_n = 1 << 15
    order = list(range(chase_n))
    for i in range(chase_n - 1, 0, -1):  # Fisher-Yates with mix64
        j = mix64(0xC0FFEE + i) % (i + 1)
        order[i], order[j] = order[j], order[i]
    nxt = [0] * chase_n
    for k in range(chase_n):
        nxt[order[k]] = order[(k + 1) % chase_n]
    out = {"csr_row_ptr.bin": row_ptr, "csr_cols.bin": cols, "ell_cols.bin": ell, "chase_next.bin": nxt}
    for name, values in out.items():
        with open(os.path.join(HERE, "data", name), "wb") as f:
            f.write(struct.pack(f"<{len(values)}i", *values))
    return {"rows": rows, "nnz": nnz, "ell_width": width, "chase_n": chase_n}


def buf(t, count, init="zero"):
    return {"type": t, "count": count, "init": init}


def val(t, v):
    return {"type": t, "value": v}


def spec(name, cu, kernel, grid, block, args, desc, shared=0, tags=()):
    return {"name": name, "cu": cu, "kernel": kernel, "grid": grid, "block": block, "shared": shared,
            "args": args, "description": desc, "tags": list(tags)}


def launches(d):
    L = []
    n20, n22 = 1 << 20, 1 << 22
    # Reductions (integer data: every variant's sum is exact, whatever the order).
    for k, grid, shared in [("reduce_interleaved_divergent", 4096, 1024), ("reduce_interleaved_strided", 4096, 1024),
                            ("reduce_sequential", 4096, 1024), ("reduce_first_add", 2048, 1024),
                            ("reduce_unroll_last_warp", 2048, 1024), ("reduce_complete_unroll_256", 2048, 0)]:
        L.append(spec(f"{k}_2p20", "reduction", k, [grid, 1, 1], [256, 1, 1],
                      [buf("i32", n20, "random:1"), buf("i32", grid), val("u32", n20)],
                      f"{k} over 2^20 random ints, 256 threads per block, one partial sum per block.", shared))
    L.append(spec("reduce_interleaved_divergent_b1024_2p18", "reduction", "reduce_interleaved_divergent", [256, 1, 1],
                  [1024, 1, 1], [buf("i32", 1 << 18, "random:2"), buf("i32", 256), val("u32", 1 << 18)],
                  "Interleaved divergent reduction with 1024-thread blocks (10 tree levels).", 4096))
    for grid in (64, 1056):
        L.append(spec(f"reduce_multiple_256_g{grid}_2p22", "reduction", "reduce_multiple_256", [grid, 1, 1],
                      [256, 1, 1], [buf("i32", n22, "random:3"), buf("i32", grid), val("u32", n22)],
                      f"Multiple elements per thread: {grid} blocks stride over 2^22 ints.",
                      tags=("small-grid", "loop-heavy") if grid < 132 else ("loop-heavy",)))
    L.append(spec("reduce_shuffle_g132_2p22", "reduction", "reduce_shuffle", [132, 1, 1], [512, 1, 1],
                  [buf("i32", n22, "random:4"), buf("i32", 132), val("u32", n22)],
                  "Shuffle reduction, one block per SM striding over 2^22 ints.", tags=("loop-heavy",)))
    L.append(spec("reduce_shuffle_g4096_2p20", "reduction", "reduce_shuffle", [4096, 1, 1], [256, 1, 1],
                  [buf("i32", n20, "random:5"), buf("i32", 4096), val("u32", n20)],
                  "Shuffle reduction, one element per thread."))
    L.append(spec("reduce_shuffle_atomic_g264_2p22", "reduction", "reduce_shuffle_atomic", [264, 1, 1], [256, 1, 1],
                  [buf("i32", n22, "random:6"), buf("i32", 1), val("u32", n22)],
                  "Shuffles, then one atomicAdd per warp into a single global total.", tags=("atomic-heavy", "loop-heavy")))
    L.append(spec("reduce_float4_shuffle_g132_2p22", "reduction", "reduce_float4_shuffle", [132, 1, 1], [256, 1, 1],
                  [buf("f32x4", n20, "random:7"), buf("f32", 132), val("u32", n20)],
                  "Float sum of 2^22 values read as float4, xor shuffles, one partial per block.", tags=("loop-heavy",)))
    L.append(spec("reduce_last_block_g128_2p20", "reduction", "reduce_last_block", [128, 1, 1], [256, 1, 1],
                  [buf("i32", n20, "random:8"), buf("i32", 128), buf("u32", 1), buf("i32", 1), val("u32", n20)],
                  "Single-pass reduction: partials, a fence, a ticket atomic, the last block sums the partials.",
                  tags=("small-grid", "atomic-heavy")))
    # Matrix multiplies.
    n = 256
    mats = [buf("f32", n * n, "random:11"), buf("f32", n * n, "random:12"), buf("f32", n * n)]
    L.append(spec("matmul_naive_256", "matmul", "matmul_naive", [16, 16, 1], [16, 16, 1], mats + [val("i32", n)],
                  "Naive matrix multiply, n = 256, 16 x 16 blocks.", tags=("loop-heavy",)))
    for tile in (8, 16, 32):
        for pad in ("", "_padded"):
            L.append(spec(f"matmul_tiled{tile}{pad}_256", "matmul", f"matmul_tiled{tile}{pad}", [n // tile, n // tile, 1],
                          [tile, tile, 1], mats + [val("i32", n)],
                          f"Shared-memory tiled multiply, TILE {tile}{' with a padded row' if pad else ''}, n = 256."))
    L.append(spec("matmul_tiled16_128", "matmul", "matmul_tiled16", [8, 8, 1], [16, 16, 1],
                  [buf("f32", 128 * 128, "random:13"), buf("f32", 128 * 128, "random:14"), buf("f32", 128 * 128),
                   val("i32", 128)], "TILE-16 multiply, n = 128: 64 blocks (fewer than the SMs).", tags=("small-grid",)))
    L.append(spec("matmul_tiled16_4x1_256", "matmul", "matmul_tiled16_4x1", [16, 4, 1], [16, 16, 1],
                  mats + [val("i32", n)], "Register-tiled multiply (4 outputs per thread), n = 256: 64 blocks.",
                  tags=("small-grid", "loop-heavy")))
    L.append(spec("matvec_warp_per_row_4096x1024", "matmul", "matvec_warp_per_row", [512, 1, 1], [256, 1, 1],
                  [buf("f32", 4096 * 1024, "random:15"), buf("f32", 1024, "random:16"), buf("f32", 4096),
                   val("i32", 4096), val("i32", 1024)], "Matrix-vector product, one warp per row, 4096 x 1024."))
    # Scans.
    n18 = 1 << 18
    L.append(spec("scan_hillis_steele_2p18", "scan", "scan_hillis_steele", [512, 1, 1], [512, 1, 1],
                  [buf("i32", n18, "random:21"), buf("i32", n18), val("i32", n18)],
                  "Hillis-Steele inclusive scan per 512-thread block, double-buffered.", 4096))
    L.append(spec("scan_blelloch_2p18", "scan", "scan_blelloch", [512, 1, 1], [256, 1, 1],
                  [buf("i32", n18, "random:22"), buf("i32", n18), buf("i32", 512), val("i32", n18)],
                  "Blelloch exclusive scan, 512 elements per 256-thread block (bank conflicts).", 2048))
    L.append(spec("scan_blelloch_padded_2p18", "scan", "scan_blelloch_padded", [512, 1, 1], [256, 1, 1],
                  [buf("i32", n18, "random:22"), buf("i32", n18), buf("i32", 512), val("i32", n18)],
                  "Blelloch scan with a padding word every 32 elements.", 2112))
    L.append(spec("scan_warp_shuffle_2p20", "scan", "scan_warp_shuffle", [1024, 1, 1], [1024, 1, 1],
                  [buf("i32", n20, "random:23"), buf("i32", n20), buf("i32", 1024), val("i32", n20)],
                  "Inclusive scan with shuffles per warp, then across warps."))
    L.append(spec("scan_add_uniform_2p20", "scan", "scan_add_uniform", [1024, 1, 1], [1024, 1, 1],
                  [buf("i32", n20, "iota"), buf("i32", 1024, "random:24"), val("i32", n20)],
                  "The uniform add that finishes a multi-block scan."))
    L.append(spec("compact_positive_2p20", "scan", "compact_positive", [4096, 1, 1], [256, 1, 1],
                  [buf("i32", n20, "random:25"), buf("i32", n20), buf("i32", 4096), val("i32", n20)],
                  "Stream compaction per block with ballots and a scan of the warps' counts."))
    # Histograms and counters.
    L.append(spec("histogram256_global_g264_2p22", "histogram", "histogram256_global", [264, 1, 1], [256, 1, 1],
                  [buf("u8", n22, "random:31"), buf("u32", 256), val("i32", n22)],
                  "256-bin histogram with one global atomicAdd per byte.", tags=("atomic-heavy", "loop-heavy")))
    L.append(spec("histogram256_shared_g264_2p22", "histogram", "histogram256_shared", [264, 1, 1], [256, 1, 1],
                  [buf("u8", n22, "random:31"), buf("u32", 256), val("i32", n22)],
                  "256-bin histogram in shared memory per block, merged with global atomics.",
                  tags=("atomic-heavy", "loop-heavy")))
    L.append(spec("histogram64_per_warp_g132_2p20", "histogram", "histogram64_per_warp", [132, 1, 1], [256, 1, 1],
                  [buf("u32", n20, "random:32"), buf("u32", 64), val("i32", n20)],
                  "64-bin histogram with one shared sub-histogram per warp, 4 bytes per load.", 2048,
                  tags=("atomic-heavy", "loop-heavy")))
    L.append(spec("histogram4_global_g132_2p20", "histogram", "histogram4_global", [132, 1, 1], [256, 1, 1],
                  [buf("u8", n20, "random:33"), buf("u32", 4), val("i32", n20)],
                  "4-bin histogram in global memory: every thread contends for four words.",
                  tags=("atomic-heavy", "loop-heavy")))
    L.append(spec("count_above_aggregated_g264_2p22", "histogram", "count_above_aggregated", [264, 1, 1], [256, 1, 1],
                  [buf("f32", n22, "random:34"), val("f32", 0.5), buf("u32", 1), val("i32", n22)],
                  "Counting values above 0.5 with a warp-aggregated atomic on one counter.", tags=("atomic-heavy",)))
    L.append(spec("count_above_naive_g264_2p20", "histogram", "count_above_naive", [264, 1, 1], [256, 1, 1],
                  [buf("f32", n20, "random:35"), val("f32", 0.5), buf("u32", 1), val("i32", n20)],
                  "The same count with one atomicAdd per hit: half a million atomics on one address.",
                  tags=("atomic-heavy",)))
    L.append(spec("atomic_spread8_g132_2p20", "latency", "atomic_spread8", [132, 1, 1], [256, 1, 1],
                  [buf("i32", n20, "random:36"), buf("i32", 8), val("i32", n20)],
                  "Integer atomicAdd into 8 global words, one per warp of a block.", tags=("atomic-heavy", "loop-heavy")))
    # Sorts.
    L.append(spec("bitonic_sort_shared_2p18", "sort", "bitonic_sort_shared", [256, 1, 1], [512, 1, 1],
                  [buf("u32", n18, "random:41"), buf("u32", n18)], "Bitonic sort of 1024 keys per block in shared memory.",
                  4096, tags=("loop-heavy",)))
    for j, k in ((1024, 4096), (1, 1 << 20)):
        L.append(spec(f"bitonic_merge_global_j{j}_2p20", "sort", "bitonic_merge_global", [4096, 1, 1], [256, 1, 1],
                      [buf("u32", n20, "random:42"), val("u32", j), val("u32", k)],
                      f"One global bitonic compare-exchange step, partner distance {j}, sequence size {k}."))
    L.append(spec("merge_sort_block_2p17", "sort", "merge_sort_block", [256, 1, 1], [512, 1, 1],
                  [buf("i32", 1 << 17, "random:43"), buf("i32", 1 << 17)],
                  "Block merge sort with binary-search ranks, 512 keys per block.", 4096, tags=("loop-heavy",)))
    L.append(spec("odd_even_sort_block_2p17", "sort", "odd_even_sort_block", [1024, 1, 1], [64, 1, 1],
                  [buf("i32", 1 << 17, "random:44"), buf("i32", 1 << 17)],
                  "Odd-even transposition sort, 128 keys per 64-thread block, 128 phases.", tags=("loop-heavy",)))
    # Convolutions and stencils.
    w = h = 1024
    L.append(spec("convolve_rows_1024", "convolution", "convolve_rows", [w // 128, h // 4, 1], [128, 4, 1],
                  [buf("f32", w * h, "random:51"), buf("f32", w * h), val("i32", w), val("i32", h)],
                  "Separable convolution, row pass (radius 8, filter in constant memory)."))
    L.append(spec("convolve_columns_1024", "convolution", "convolve_columns", [w // 16, h // 64, 1], [16, 16, 1],
                  [buf("f32", w * h, "random:52"), buf("f32", w * h), val("i32", w), val("i32", h)],
                  "Separable convolution, column pass, 16 x 64 tiles."))
    L.append(spec("convolve_direct_5x5_512", "convolution", "convolve_direct_5x5", [32, 32, 1], [16, 16, 1],
                  [buf("f32", 512 * 512, "random:53"), buf("f32", 25, "random:54"), buf("f32", 512 * 512),
                   val("i32", 512), val("i32", 512)], "Direct 5 x 5 convolution from global memory."))
    L.append(spec("stencil1d_shared_2p20", "stencil", "stencil1d_shared", [4096, 1, 1], [256, 1, 1],
                  [buf("f32", n20, "random:55"), buf("f32", n20), val("i32", n20)],
                  "1-D 7-point stencil with a shared halo.", (256 + 6) * 4))
    L.append(spec("jacobi2d_shared_1024", "stencil", "jacobi2d_shared", [64, 64, 1], [16, 16, 1],
                  [buf("f32", w * h, "random:56"), buf("f32", w * h), val("i32", w), val("i32", h)],
                  "One Jacobi sweep with an 18 x 18 shared tile."))
    L.append(spec("stencil2d_global_1024", "stencil", "stencil2d_global", [32, 128, 1], [32, 8, 1],
                  [buf("f32", w * h, "random:57"), buf("f32", w * h), val("i32", w), val("i32", h)],
                  "2-D 5-point stencil from global memory."))
    L.append(spec("stencil3d_march_128x128x64", "stencil", "stencil3d_march", [4, 32, 1], [32, 4, 1],
                  [buf("f32", 128 * 128 * 64, "random:58"), buf("f32", 128 * 128 * 64), val("i32", 128), val("i32", 128),
                   val("i32", 64)], "3-D 7-point stencil marching along z: 128 blocks, 62 planes each.",
                  tags=("small-grid", "loop-heavy")))
    # SpMV.
    rows, nnz, width = d["rows"], d["nnz"], d["ell_width"]
    x = buf("f32", rows, "random:62")
    L.append(spec("spmv_csr_scalar_4096", "spmv", "spmv_csr_scalar", [rows // 128, 1, 1], [128, 1, 1],
                  [buf("i32", rows + 1, "file:../data/csr_row_ptr.bin"), buf("i32", nnz, "file:../data/csr_cols.bin"),
                   buf("f32", nnz, "random:61"), x, buf("f32", rows), val("i32", rows)],
                  f"CSR SpMV, one thread per row, {rows} rows, {nnz} nonzeros (skewed row lengths)."))
    L.append(spec("spmv_csr_vector_4096", "spmv", "spmv_csr_vector", [rows * 32 // 256, 1, 1], [256, 1, 1],
                  [buf("i32", rows + 1, "file:../data/csr_row_ptr.bin"), buf("i32", nnz, "file:../data/csr_cols.bin"),
                   buf("f32", nnz, "random:61"), x, buf("f32", rows), val("i32", rows)],
                  "CSR SpMV, one warp per row."))
    L.append(spec("spmv_ell_4096", "spmv", "spmv_ell", [rows // 128, 1, 1], [128, 1, 1],
                  [buf("i32", width * rows, "file:../data/ell_cols.bin"), buf("f32", width * rows, "random:63"), x,
                   buf("f32", rows), val("i32", rows), val("i32", width)],
                  f"ELL SpMV (width {width}, column-major, -1 pads).", tags=("loop-heavy",)))
    # N-body.
    L.append(spec("nbody_tiled_2048", "nbody", "nbody_tiled", [16, 1, 1], [128, 1, 1],
                  [buf("f32x4", 2048, "random:71"), buf("f32x4", 2048, "random:72"), buf("f32x4", 2048),
                   val("i32", 2048), val("f32", 0.01), val("f32", 0.0001)],
                  "All-pairs n-body, 2048 bodies through shared tiles of 128: 16 blocks.", 2048,
                  tags=("small-grid", "loop-heavy")))
    L.append(spec("nbody_naive_1024", "nbody", "nbody_naive", [8, 1, 1], [128, 1, 1],
                  [buf("f32x4", 1024, "random:73"), buf("f32x4", 1024), val("i32", 1024), val("f32", 0.0001)],
                  "All-pairs forces from global memory, 1024 bodies: 8 blocks.", tags=("small-grid", "loop-heavy")))
    # Row reductions.
    L.append(spec("softmax_block_per_row_512x1024", "rows", "softmax_block_per_row", [512, 1, 1], [256, 1, 1],
                  [buf("f32", 512 * 1024, "random:81"), buf("f32", 512 * 1024), val("i32", 1024)],
                  "Softmax, one block per row of 1024."))
    L.append(spec("softmax_warp_per_row_8192x128", "rows", "softmax_warp_per_row", [1024, 1, 1], [256, 1, 1],
                  [buf("f32", 8192 * 128, "random:82"), buf("f32", 8192 * 128), val("i32", 8192), val("i32", 128)],
                  "Softmax, one warp per row of 128, values in registers."))
    L.append(spec("softmax_warp_per_row_8192x100", "rows", "softmax_warp_per_row", [1024, 1, 1], [256, 1, 1],
                  [buf("f32", 8192 * 100, "random:83"), buf("f32", 8192 * 100), val("i32", 8192), val("i32", 100)],
                  "Softmax, one warp per row of 100 (a partial last chunk)."))
    L.append(spec("layernorm_block_per_row_512x1024", "rows", "layernorm_block_per_row", [512, 1, 1], [256, 1, 1],
                  [buf("f32", 512 * 1024, "random:84"), buf("f32", 1024, "random:85"), buf("f32", 1024, "random:86"),
                   buf("f32", 512 * 1024), val("i32", 1024), val("f32", 1e-5)],
                  "Layer normalisation, one block per row of 1024."))
    L.append(spec("row_sum_thread_per_row_4096x256", "rows", "row_sum_thread_per_row", [32, 1, 1], [128, 1, 1],
                  [buf("f32", 4096 * 256, "random:87"), buf("f32", 4096), val("i32", 4096), val("i32", 256)],
                  "Row sums, one thread per row (uncoalesced): 32 blocks.", tags=("small-grid", "loop-heavy")))
    L.append(spec("col_sum_thread_per_col_256x4096", "rows", "col_sum_thread_per_col", [32, 1, 1], [128, 1, 1],
                  [buf("f32", 256 * 4096, "random:88"), buf("f32", 4096), val("i32", 256), val("i32", 4096)],
                  "Column sums, one thread per column (coalesced): 32 blocks.", tags=("small-grid", "loop-heavy")))
    # Transposes.
    for k in ("transpose_naive_rows", "transpose_shared_tile", "transpose_padded_tile", "transpose_diagonal"):
        L.append(spec(f"{k}_1024", "transpose", k, [32, 32, 1], [32, 8, 1],
                      [buf("f32", w * h, "iota"), buf("f32", w * h), val("i32", w), val("i32", h)],
                      f"{k}: 1024 x 1024, 32 x 32 tiles, 32 x 8 threads."))
    L.append(spec("transpose_diagonal_2048x512", "transpose", "transpose_diagonal", [64, 16, 1], [32, 8, 1],
                  [buf("f32", 2048 * 512, "iota"), buf("f32", 2048 * 512), val("i32", 2048), val("i32", 512)],
                  "Diagonal-ordered transpose of a non-square 2048 x 512 matrix."))
    L.append(spec("transpose_padded_double_512", "transpose", "transpose_padded_double", [16, 16, 1], [32, 8, 1],
                  [buf("f64", 512 * 512, "random:91"), buf("f64", 512 * 512), val("i32", 512), val("i32", 512)],
                  "Padded-tile transpose of doubles (8-byte shared accesses)."))
    # Warp-level kernels.
    L.append(spec("warp_allreduce_2p20", "warp", "warp_allreduce", [4096, 1, 1], [256, 1, 1],
                  [buf("f32", n20, "random:101"), buf("f32", n20 // 32), buf("f32", n20 // 32), val("i32", n20)],
                  "Xor-butterfly max and sum per warp."))
    L.append(spec("warp_bitonic_sort_2p18", "warp", "warp_bitonic_sort", [1024, 1, 1], [256, 1, 1],
                  [buf("i32", n18, "random:102"), buf("i32", n18)], "Bitonic sort of 32 keys per warp with shuffles."))
    L.append(spec("warp_segmented_scan_2p18", "warp", "warp_segmented_scan", [1024, 1, 1], [256, 1, 1],
                  [buf("i32", n18, "random:103"), buf("i32", n18, "random:104"), buf("i32", n18), val("i32", n18)],
                  "Segmented inclusive scan per warp (segment heads from random flags)."))
    L.append(spec("warp_vote_count_2p20", "warp", "warp_vote_count", [4096, 1, 1], [256, 1, 1],
                  [buf("i32", n20, "random:105"), buf("i32", n20 // 32), val("i32", n20)],
                  "Broadcast of the leader's value, ballot, all and any per warp."))
    L.append(spec("warp_dot32_32768", "warp", "warp_dot32", [4096, 1, 1], [256, 1, 1],
                  [buf("f32", n20, "random:106"), buf("f32", n20, "random:107"), buf("f32", 32768), val("i32", 32768)],
                  "32768 dot products of length 32, one warp each."))
    # Black-Scholes.
    for grid, count, tags in ((264, n20, ("loop-heavy",)), (8, 1 << 16, ("small-grid", "loop-heavy"))):
        L.append(spec(f"black_scholes_g{grid}_{count}", "blackscholes", "black_scholes", [grid, 1, 1], [128, 1, 1],
                      [buf("f32", count), buf("f32", count), buf("f32", count, "random:111"),
                       buf("f32", count, "random:112"), buf("f32", count, "random:113"), val("f32", 0.02),
                       val("f32", 0.30), val("i32", count)],
                      f"Black-Scholes calls and puts for {count} options, {grid} blocks of 128 (grid-stride loop).",
                      tags=tags))
    # Cooperative groups.
    L.append(spec("cg_reduce_tile32_g264_2p20", "cg", "cg_reduce_tile32", [264, 1, 1], [256, 1, 1],
                  [buf("i32", n20, "random:121"), buf("i32", 1), val("i32", n20)],
                  "cg::reduce over 32-thread tiles, tile leaders atomically add to one total.", tags=("atomic-heavy",)))
    L.append(spec("cg_reduce_tile128_g264_2p20", "cg", "cg_reduce_tile128", [264, 1, 1], [256, 1, 1],
                  [buf("i32", n20, "random:122"), buf("i32", 528), val("i32", n20)],
                  "cg::reduce over 128-thread tiles (scratch in the reserved shared memory), one partial per tile."))
    # Small grids and latency.
    L.append(spec("pointer_chase_1x32_s2048", "latency", "pointer_chase", [1, 1, 1], [32, 1, 1],
                  [buf("i32", d["chase_n"], "file:../data/chase_next.bin"), buf("i32", 32), val("i32", 2048)],
                  "One warp follows 2048 dependent links of a random permutation of 2^15.",
                  tags=("small-grid", "latency-bound", "loop-heavy")))
    L.append(spec("pointer_chase_132x64_s256", "latency", "pointer_chase", [132, 1, 1], [64, 1, 1],
                  [buf("i32", d["chase_n"], "file:../data/chase_next.bin"), buf("i32", 132 * 64), val("i32", 256)],
                  "132 blocks of 64 threads, 256 dependent links each.", tags=("latency-bound", "loop-heavy")))
    L.append(spec("fma_chain_1x32_it16384", "latency", "fma_chain", [1, 1, 1], [32, 1, 1],
                  [buf("f32", 32, "random:131"), buf("f32", 32), val("i32", 16384)],
                  "One warp, a dependent chain of 2 x 16384 FMAs.", tags=("small-grid", "latency-bound", "loop-heavy")))
    L.append(spec("fma_chain_132x128_it1024", "latency", "fma_chain", [132, 1, 1], [128, 1, 1],
                  [buf("f32", 132 * 128, "random:132"), buf("f32", 132 * 128), val("i32", 1024)],
                  "One block of 4 warps per SM, dependent FMA chains.", tags=("latency-bound", "loop-heavy")))
    for grid, count in ((1, 1 << 18), (8, n20)):
        L.append(spec(f"saxpy_grid_stride_g{grid}_{count}", "latency", "saxpy_grid_stride", [grid, 1, 1], [256, 1, 1],
                      [buf("f32", count, "random:141"), buf("f32", count, "random:142"), val("f32", 2.5),
                       val("i32", count)], f"saxpy with {grid} block(s) striding over {count} elements.",
                      tags=("small-grid", "loop-heavy")))
    L.append(spec("scale_float4_grid_stride_g16_2p18", "latency", "scale_float4_grid_stride", [16, 1, 1], [256, 1, 1],
                  [buf("f32x4", n18, "random:143"), buf("f32x4", n18), val("f32", 0.5), val("i32", n18)],
                  "float4 scaling with 16 blocks striding over 2^18 vectors.", tags=("small-grid", "loop-heavy")))
    L.append(spec("polynomial_eval_deg64_2p18", "latency", "polynomial_eval", [1024, 1, 1], [256, 1, 1],
                  [buf("f32", n18, "random:144"), buf("f32", 65, "random:145"), buf("f32", n18), val("i32", 64),
                   val("i32", n18)], "Horner evaluation of a degree-64 polynomial per element (compute-bound).", 260,
                  tags=("loop-heavy",)))
    L.append(spec("single_block_sum_2p20", "latency", "single_block_sum", [1, 1, 1], [1024, 1, 1],
                  [buf("f32", n20, "random:146"), buf("f32", 1), val("i32", n20)],
                  "One block of 1024 threads sums 2^20 floats.", tags=("small-grid", "loop-heavy")))
    # Small-grid variants of kernels above (fewer blocks than SMs: latency and per-block throughput).
    L.append(spec("reduce_shuffle_g8_2p20", "reduction", "reduce_shuffle", [8, 1, 1], [256, 1, 1],
                  [buf("i32", n20, "random:151"), buf("i32", 8), val("u32", n20)],
                  "Shuffle reduction with 8 blocks: 512 elements per thread.", tags=("small-grid", "loop-heavy")))
    L.append(spec("histogram256_shared_g32_2p20", "histogram", "histogram256_shared", [32, 1, 1], [256, 1, 1],
                  [buf("u8", n20, "random:152"), buf("u32", 256), val("i32", n20)],
                  "Shared-memory histogram with 32 blocks.", tags=("small-grid", "atomic-heavy", "loop-heavy")))
    L.append(spec("count_above_aggregated_g16_2p20", "histogram", "count_above_aggregated", [16, 1, 1], [256, 1, 1],
                  [buf("f32", n20, "random:153"), val("f32", 0.25), buf("u32", 1), val("i32", n20)],
                  "Warp-aggregated counting with 16 blocks.", tags=("small-grid", "atomic-heavy", "loop-heavy")))
    L.append(spec("transpose_padded_tile_128", "transpose", "transpose_padded_tile", [4, 4, 1], [32, 8, 1],
                  [buf("f32", 128 * 128, "iota"), buf("f32", 128 * 128), val("i32", 128), val("i32", 128)],
                  "Padded-tile transpose of 128 x 128: 16 blocks.", tags=("small-grid", "latency-bound")))
    L.append(spec("matmul_naive_64", "matmul", "matmul_naive", [4, 4, 1], [16, 16, 1],
                  [buf("f32", 64 * 64, "random:154"), buf("f32", 64 * 64, "random:155"), buf("f32", 64 * 64),
                   val("i32", 64)], "Naive multiply, n = 64: 16 blocks.", tags=("small-grid", "latency-bound")))
    L.append(spec("stencil1d_shared_16blocks", "stencil", "stencil1d_shared", [16, 1, 1], [256, 1, 1],
                  [buf("f32", 4096, "random:156"), buf("f32", 4096), val("i32", 4096)],
                  "1-D stencil over 4096 elements: 16 blocks, one element each.", (256 + 6) * 4,
                  tags=("small-grid", "latency-bound")))
    L.append(spec("spmv_csr_vector_g4_4096", "spmv", "spmv_csr_vector", [4, 1, 1], [1024, 1, 1],
                  [buf("i32", rows + 1, "file:../data/csr_row_ptr.bin"), buf("i32", nnz, "file:../data/csr_cols.bin"),
                   buf("f32", nnz, "random:61"), x, buf("f32", 128), val("i32", 128)],
                  "CSR SpMV of the first 128 rows, one warp per row: 4 blocks.", tags=("small-grid", "latency-bound")))
    L.append(spec("softmax_block_per_row_8x4096", "rows", "softmax_block_per_row", [8, 1, 1], [256, 1, 1],
                  [buf("f32", 8 * 4096, "random:157"), buf("f32", 8 * 4096), val("i32", 4096)],
                  "Softmax of 8 rows of 4096, one block each.", tags=("small-grid", "loop-heavy")))
    L.append(spec("warp_bitonic_sort_g4_1024", "warp", "warp_bitonic_sort", [4, 1, 1], [256, 1, 1],
                  [buf("i32", 1024, "random:158"), buf("i32", 1024)], "Warp bitonic sorts with 4 blocks.",
                  tags=("small-grid", "latency-bound")))
    return L


def main():
    d = write_data()
    spec_dir = os.path.join(HERE, "specs")
    os.makedirs(spec_dir, exist_ok=True)
    for old in os.listdir(spec_dir):
        if old.endswith(".json"):
            os.remove(os.path.join(spec_dir, old))
    index = {}
    for s in launches(d):
        out = {"description": s["description"], "source": f"../{s['cu']}.sm_90.lineinfo.ptx", "kernel": s["kernel"],
               "grid": s["grid"], "block": s["block"], "shared_bytes": s["shared"], "args": s["args"]}
        if s["tags"]:
            out["notes"] = "timing tags: " + ", ".join(s["tags"])
        with open(os.path.join(spec_dir, s["name"] + ".json"), "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
        index[s["name"]] = s["tags"]
    with open(os.path.join(HERE, "tags.json"), "w") as f:
        json.dump(index, f, indent=1, sort_keys=True)
        f.write("\n")
    tagged = sum(1 for t in index.values() if t)
    print(f"{len(index)} specs, {tagged} tagged small-grid/loop-heavy/atomic-heavy/latency-bound; data: {d}")


if __name__ == "__main__":
    main()
