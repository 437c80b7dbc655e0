"""warpsim.sweep: launch variants in worker processes and on a Dask LocalCluster, the counts and occupancy of
each worked out by hand.

    PYTHONPATH=BUILD/python WARPSIM_SOURCE_DIR=. /usr/bin/python3 -m pytest tests/python
"""
import os

import numpy as np
import pytest

import warpsim

SOURCE = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
VECTOR_ADD = os.path.abspath(os.path.join(SOURCE, "examples", "vector_add.ptx"))
LD_REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
LD_SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"


def vector_add_setup(path):
    def setup(v):
        n, block = v.get("n", 1024), v["block"]
        mod = warpsim.load(path)
        a = np.arange(n, dtype=np.float32)
        return mod.vecAdd[(n + block - 1) // block, block], (a, 2 * a, np.zeros_like(a), n)
    return setup


def expected_occupancy(block):
    # H200 (sm_90): at most 32 resident blocks and 64 warps per SM; vecAdd's 12 registers and no shared
    # memory limit nothing else. Blocks of 32 threads: 32 blocks = 32 warps (50 %); 64 and up: 64 warps.
    warps = block // 32
    blocks_per_sm = min(32, 64 // warps)
    return blocks_per_sm, blocks_per_sm * warps / 64


def check_rows(rows, blocks, n=1024):
    assert [r["variant"]["block"] for r in rows] == blocks
    for r in rows:
        assert r["error"] is None
        # n floats in warps of 32: n / 32 requests per input, each of 4 full sectors.
        assert r["metrics"][LD_REQUESTS] == 2 * n // 32
        assert r["metrics"][LD_SECTORS] == 2 * n // 8
        blocks_per_sm, occupancy = expected_occupancy(r["variant"]["block"])
        assert r["occupancy"]["blocks_per_sm"] == blocks_per_sm
        assert r["occupancy"]["occupancy"] == pytest.approx(occupancy)
        assert r["time_us"] == r["predicted"]["time_us"] > 0


def test_sweep_in_processes_and_in_this_one_agree():
    blocks = [32, 64, 128, 256]
    variants = [{"block": b} for b in blocks]
    setup = vector_add_setup(VECTOR_ADD)  # a closure: the forked workers need no pickling of it
    in_processes = warpsim.sweep(setup, variants, processes=2)
    check_rows(in_processes, blocks)
    assert in_processes == warpsim.sweep(setup, variants, processes=1)


def test_a_row_carries_the_prediction_facts_of_run_json():
    # The default h200 preset: its fit's record (sim/timing/h200_fit.json), its measured 1980 MHz under load.
    setup = vector_add_setup(VECTOR_ADD)
    warm, = warpsim.sweep(setup, [{"block": 256}], processes=1)
    cold, = warpsim.sweep(setup, [{"block": 256}], processes=1, l2="cold")
    p = warm["predicted"]
    assert set(p) == {"time_us", "cycles", "dram_gbps", "gflops", "bound", "l2", "clock_mhz", "clock",
                      "parameters", "parameters_origin", "expected_error"}
    assert p["l2"] == "warm" and cold["predicted"]["l2"] == "cold"
    assert p["clock_mhz"] == 1980
    assert p["clock"] == ("1980 MHz, the preset's SM boost clock (clocks.sm_boost_mhz), sustained under load "
                          "(measured: clocks.sm_sustained_mhz)")
    assert p["parameters"] == "measured"
    assert p["parameters_origin"].startswith("sim/timing/h200_fit.json, fitted to tests/hardware/h200/")
    assert p["expected_error"] == ("calibration 8.0 %, validation 7.2 % (MAPE, tests/timing/sets.json), "
                                   "held-out corpus 19.5 % mean (docs/TIMING.md)")
    # The same block as a single launch's `warpsim run --json` "predicted" (which names the L2 only when cold).
    configured, args = setup({"block": 256})
    single = configured(*args, report=False).report("dict")["predicted"]
    assert {k: v for k, v in p.items() if k != "l2"} == single
    configured, args = setup({"block": 256})
    assert cold["predicted"] == configured(*args, report=False, l2="cold").report("dict")["predicted"]


def test_a_parameter_grid_and_a_variant_that_fails():
    setup = vector_add_setup(VECTOR_ADD)
    rows = warpsim.sweep(setup, {"block": [32, 2048], "n": [512, 1024]}, processes=2)
    assert [r["variant"] for r in rows] == [{"block": 32, "n": 512}, {"block": 32, "n": 1024},
                                           {"block": 2048, "n": 512}, {"block": 2048, "n": 1024}]
    assert rows[0]["metrics"][LD_SECTORS] == 2 * 512 // 8
    assert rows[1]["metrics"][LD_SECTORS] == 2 * 1024 // 8
    for r in rows[2:]:  # 2048 threads per block, more than 1024: CUDA 13 on an H200 says "invalid argument"
        assert r["metrics"] is None and r["error"] == "cudaErrorInvalidValue: invalid argument"


def test_bad_variants_are_errors():
    setup = vector_add_setup(VECTOR_ADD)
    with pytest.raises(warpsim.Error, match="variant 1 is a int"):
        warpsim.sweep(setup, [{"block": 32}, 64])
    with pytest.raises(warpsim.Error, match="'block' maps to 64"):
        warpsim.sweep(setup, {"block": 64})


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # Debian 12's tornado under distributed 2022.12
def test_sweep_on_a_dask_local_cluster():
    distributed = pytest.importorskip("distributed")
    blocks = [32, 64, 128, 256]
    here, setup = os.getpid(), vector_add_setup(VECTOR_ADD)

    def elsewhere(v):  # fails the sweep if a variant ran in this process instead of a worker's
        if os.getpid() == here:
            raise AssertionError("the variant ran in the client's process")
        return setup(v)

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        rows = warpsim.sweep(elsewhere, [{"block": b} for b in blocks], client=client)
    check_rows(rows, blocks)
