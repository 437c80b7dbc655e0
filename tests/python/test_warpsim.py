"""The Python module end to end: kernels on NumPy arrays, buffers and counts against values computed by hand.

Run by CTest ('python') with PYTHONPATH=<build>/python and WARPSIM_SOURCE_DIR=<source root>:
    python3 -m pytest tests/python
"""
import os
import shutil

import numpy as np
import pytest

import warpsim

SOURCE = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
VECTOR_ADD = os.path.join(SOURCE, "examples", "vector_add.ptx")
HAVE_NVCC = bool(shutil.which("nvcc") or os.path.exists("/usr/local/cuda/bin/nvcc"))
needs_nvcc = pytest.mark.skipif(not HAVE_NVCC, reason="nvcc (CUDA toolkit) not installed")

LD_SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
ST_SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
LD_REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
ST_REQUESTS = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"


def vector_add_inputs(n=1000):
    a = np.arange(n, dtype=np.float32)
    return a, 2 * a, np.zeros_like(a)


def test_vector_add_fills_the_output_in_place_and_counts_by_hand():
    mod = warpsim.load(VECTOR_ADD)
    a, b, c = vector_add_inputs()
    a0, b0 = a.copy(), b.copy()
    run = mod.vecAdd[4, 256](a, b, c, np.int32(1000))
    # c[i] = a[i] + b[i] = 3i, exactly (small integers in float32); the inputs are untouched.
    assert np.array_equal(c, 3 * np.arange(1000, dtype=np.float32))
    assert c[999] == 2997
    assert np.array_equal(a, a0) and np.array_equal(b, b0)
    # 1000 threads in 32 warps (the last with 8 active lanes): one load request per warp and input, one
    # store per warp; a full warp touches 32 floats = 4 sectors, the last one 8 floats = 1 sector.
    m = run.metrics
    assert m[LD_REQUESTS] == 64
    assert m[ST_REQUESTS] == 32
    assert m[LD_SECTORS] == 2 * (31 * 4 + 1) == 250
    assert m[ST_SECTORS] == 31 * 4 + 1 == 125
    assert run.predicted.time_us > 0
    report = run.report("dict")
    assert report["kernel"] == "vecAdd" and report["backend"] == "sim"
    assert report["warpsim_version"] == warpsim.__version__


H200_ERROR = ("calibration 8.0 %, validation 7.2 % (MAPE, tests/timing/sets.json), held-out corpus 19.5 % mean "
              "(docs/TIMING.md)")
# The h200 preset holds no timing values: they are its fit's record's (sim/timing/h200_fit.json, "data_set").
H200_ORIGIN = ("sim/timing/h200_fit.json, fitted to tests/hardware/h200/results.json (2026-11-29T23:26:11Z, driver "
               "580.159.04), calibration set of tests/timing/sets.json (44 launches)")


def test_predicted_says_its_clock_and_where_its_parameters_come_from(tmp_path):
    # Expected values from the presets (h200 and h100: 1980 MHz boost, a100: 1410 MHz) and the H200's errors of
    # docs/TIMING.md. The PTX is retargeted to sm_70 so that every preset here loads it.
    ptx = tmp_path / "vector_add_sm70.ptx"
    ptx.write_text(open(VECTOR_ADD).read().replace(".target sm_90", ".target sm_70"))
    mod = warpsim.load(str(ptx))
    a, b, c = vector_add_inputs()
    p = mod.vecAdd[4, 256](a, b, c, np.int32(1000), device="h200").predicted
    assert p.clock_mhz == 1980
    assert p.clock == ("1980 MHz, the preset's SM boost clock (clocks.sm_boost_mhz), sustained under load "
                       "(measured: clocks.sm_sustained_mhz)")
    assert p.parameters == "measured"
    assert p.parameters_origin == H200_ORIGIN
    assert p.expected_error == H200_ERROR
    assert p.l2 == "warm"
    p = mod.vecAdd[4, 256](a, b, c, np.int32(1000), device="h100").predicted
    assert p.clock_mhz == 1980
    assert p.parameters == "borrowed"
    assert p.parameters_origin.startswith("the H200's fit (same sm_90 microarchitecture; ")
    assert p.expected_error == ("unvalidated (no measurements of this GPU; the H200 itself: validation 7.2 %, "
                                "held-out 19.5 % mean)")
    p = mod.vecAdd[4, 256](a, b, c, np.int32(1000), device="a100").predicted
    assert p.clock_mhz == 1410
    assert p.clock.startswith("1410 MHz, the preset's SM boost clock")
    assert p.parameters == "defaults"
    assert p.parameters_origin == "defaults (not fitted for this preset)"
    assert p.expected_error == "unvalidated (the model's defaults; no GPU of this architecture measured)"


def test_a_launch_can_start_from_a_cold_l2():
    # vecAdd over n = 2^20 floats reads a and b (4 MiB each) and writes c (4 MiB): 12 MiB, which a warm
    # repeated launch keeps in the H200's 60 MiB L2 (DRAM sees only the writes of c), and which a cold one
    # moves through DRAM whole; within the 4 KiB the counts model reads besides (docs/VALIDATION.md).
    mod = warpsim.load(VECTOR_ADD)
    n, mib = 1 << 20, 1 << 20
    a, b, c = vector_add_inputs(n)
    launch = mod.vecAdd[n // 256, 256]
    warm = launch(a, b, c, np.int32(n), report=False).predicted
    cold_run = launch(a, b, c, np.int32(n), report=False, l2="cold")
    cold = cold_run.predicted
    assert warm.l2 == "warm" and cold.l2 == "cold"
    assert cold_run.report("dict")["predicted"]["l2"] == "cold"
    assert warm.dram_gbps * warm.time_us * 1e3 == pytest.approx(4 * mib, abs=4096)
    assert cold.dram_gbps * cold.time_us * 1e3 == pytest.approx(12 * mib, abs=4096)
    assert cold.time_us > warm.time_us
    with pytest.raises(warpsim.Error, match='l2 is "warm" .* or "cold" .*, not "hot"'):
        launch(a, b, c, np.int32(n), report=False, l2="hot")


def test_sampled_launch_counts_like_the_whole_one_and_leaves_the_arrays():
    mod = warpsim.load(VECTOR_ADD)
    n = 1 << 16  # 256 blocks of 256: every block adds 256 floats, 8 warps of 4 sectors per array
    a, b, c = vector_add_inputs(n)
    run = mod.vecAdd[n // 256, 256](a, b, c, np.int32(n), sample=True)
    assert not c.any()  # no buffer is produced: the output array is left as it was
    m = run.metrics
    assert m[LD_REQUESTS] == 2 * n // 32
    assert m[LD_SECTORS] == 2 * n // 8
    assert m[ST_SECTORS] == n // 8
    sampling = run.report("dict")["sampling"]
    assert sampling["grid_blocks"] == 256 and sampling["blocks_run"] < 256
    assert sampling["buffers"] == "not produced"
    assert sampling["bounds"][LD_SECTORS]["bound"] == 0


def test_python_int_and_tuple_dimensions():
    mod = warpsim.load(VECTOR_ADD)
    a, b, c = vector_add_inputs(600)
    # A Python int for the `int n` parameter, grid and block as tuples; only the first 600 are computed.
    mod.vecAdd[(3, 1, 1), (256,)](a, b, c, 600)
    assert np.array_equal(c, 3 * np.arange(600, dtype=np.float32))


def test_threads_past_n_leave_the_rest_untouched():
    mod = warpsim.load(VECTOR_ADD)
    a, b, _ = vector_add_inputs(1000)
    c = np.full(1000, -1, dtype=np.float32)
    mod.vecAdd[4, 256](a, b, c, 500)
    assert np.array_equal(c[:500], 3 * np.arange(500, dtype=np.float32))
    assert np.all(c[500:] == -1)


def test_a_float_for_an_integer_parameter_names_the_parameter():
    mod = warpsim.load(VECTOR_ADD)
    a, b, c = vector_add_inputs()
    with pytest.raises(warpsim.Error, match=r"_Z6vecAddPKfS0_Pfi_param_3 is the integer \.u32.*1000\.0"):
        mod.vecAdd[4, 256](a, b, c, 1000.0)


def test_bad_arguments_are_errors_not_crashes():
    mod = warpsim.load(VECTOR_ADD)
    a, b, c = vector_add_inputs()
    with pytest.raises(warpsim.Error, match="3 arguments given, the kernel has 4 parameters"):
        mod.vecAdd[4, 256](a, b, c)
    with pytest.raises(warpsim.Error, match="not contiguous"):
        mod.vecAdd[4, 256](a[::2], b[::2], c[::2], 500)
    with pytest.raises(warpsim.Error, match="no pointer"):
        mod.vecAdd[4, 256](a, b, c, np.arange(4, dtype=np.int32))
    with pytest.raises(warpsim.Error, match="8 bytes"):
        mod.vecAdd[4, 256](a, b, c, np.int64(1000))
    with pytest.raises(AttributeError, match="nosuchkernel"):
        mod.nosuchkernel
    with pytest.raises(warpsim.Error, match="grid"):
        mod.vecAdd[4.0, 256]


CUDA_SOURCE = r"""
__global__ void scale(float* x, int n, float s) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
}
__global__ void reverse_blocks(const float* x, float* y) {
    extern __shared__ float tile[];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    tile[t] = x[i];
    __syncthreads();
    y[i] = tile[blockDim.x - 1 - t];
}
__global__ void out_of_bounds(int* x) { x[threadIdx.x * 100000000] = 1; }
"""


@needs_nvcc
def test_cuda_source_scalars_from_the_signature_and_dynamic_shared_memory():
    mod = warpsim.compile(CUDA_SOURCE, "kernels.cu")
    assert len(mod.kernels) == 3
    x = np.arange(64, dtype=np.float32)
    mod.scale[1, 64](x, 64, 0.5)  # a Python float for the float parameter, an int for the int
    assert np.array_equal(x, np.arange(64, dtype=np.float32) * 0.5)

    x = np.arange(128, dtype=np.float32)
    y = np.zeros_like(x)
    run = mod.reverse_blocks[2, 64, 64 * 4](x, y)
    assert np.array_equal(y[:64], x[:64][::-1]) and np.array_equal(y[64:], x[64:][::-1])
    # 4 warps; each stores 32 consecutive words to shared memory and loads 32 consecutive words (reversed
    # lanes): one wavefront per instruction, no bank conflicts.
    assert run.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] == 4
    assert run.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] == 4
    assert run.metrics["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] == 0


@needs_nvcc
def test_signature_and_faults():
    mod = warpsim.compile(CUDA_SOURCE, "kernels.cu")
    # An int32 array for a float*: it runs (as the command line does), with the signature's warning.
    with pytest.warns(UserWarning, match="parameter 0 'x' is float\\* but the buffer holds i32"):
        mod.scale[1, 64](np.zeros(64, dtype=np.int32), 64, 0.5)
    with pytest.raises(warpsim.LaunchError, match="cudaErrorIllegalAddress") as fault:
        mod.out_of_bounds[1, 32](np.zeros(32, dtype=np.int32))
    assert fault.value.run.report("dict")["error"]["name"] == "cudaErrorIllegalAddress"


@needs_nvcc
def test_nvcc_errors_come_back_as_errors():
    with pytest.raises(warpsim.Error, match="nvcc failed"):
        warpsim.compile("__global__ void broken( { }", "broken.cu", compiler="nvcc")


def nvrtc_or_skip():
    try:
        return warpsim.compile(CUDA_SOURCE, "kernels.cu", compiler="nvrtc")
    except warpsim.Error as e:
        if "no libnvrtc" in str(e):
            pytest.skip("NVRTC (libnvrtc.so.13 or .12) not installed")
        raise


def test_nvrtc_in_process():
    mod = nvrtc_or_skip()
    assert mod.compiler.startswith("nvrtc ")
    assert ".loc" in mod.ptx  # line information, as nvcc -lineinfo gives
    x = np.arange(64, dtype=np.float32)
    mod.scale[1, 64](x, 64, 2.0)
    assert np.array_equal(x, 2 * np.arange(64, dtype=np.float32))
    with pytest.raises(warpsim.Error, match=r"NVRTC .* failed on broken\.cu"):
        warpsim.compile("__global__ void broken( { }", "broken.cu", compiler="nvrtc")


@needs_nvcc
def test_nvrtc_and_nvcc_give_the_same_counts():
    by_nvrtc = nvrtc_or_skip()
    by_nvcc = warpsim.compile(CUDA_SOURCE, "kernels.cu", compiler="nvcc")
    assert by_nvcc.compiler == "nvcc"
    runs = []
    for mod in (by_nvrtc, by_nvcc):
        x = np.arange(256, dtype=np.float32)
        y = np.zeros_like(x)
        runs.append((mod.reverse_blocks[4, 64, 64 * 4](x, y).metrics, mod.scale[2, 128](y, 200, 3.0).metrics, y))
    assert runs[0][0] == runs[1][0]
    assert runs[0][1] == runs[1][1]
    assert np.array_equal(runs[0][2], runs[1][2])


@needs_nvcc
def test_a_whole_program_goes_to_nvcc_when_nvrtc_cannot_compile_it():
    nvrtc_or_skip()
    # The seed's vector add: host headers and a main(), which NVRTC (device code only) refuses.
    source = open(os.path.join(SOURCE, "examples", "vector_add.cu")).read()
    with pytest.raises(warpsim.Error, match="NVRTC"):
        warpsim.compile(source, "vector_add.cu", compiler="nvrtc")
    mod = warpsim.compile(source, "vector_add.cu")
    assert mod.compiler == "nvcc"
    a, b, c = vector_add_inputs()
    run = mod.vecAdd[4, 256](a, b, c, 1000)
    assert c[999] == 2997 and run.metrics[LD_SECTORS] == 250
