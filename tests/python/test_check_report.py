"""warpsim.check (the checkers' findings as objects), the run's text and HTML reports, arrays from objects
NumPy reads in place (PyTorch CPU tensors). Expected values are worked out by hand from the kernels below.

    PYTHONPATH=BUILD/python WARPSIM_SOURCE_DIR=. /usr/bin/python3 -m pytest tests/python
"""
import os

import numpy as np
import pytest

import warpsim

SOURCE = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
VECTOR_ADD = os.path.join(SOURCE, "examples", "vector_add.ptx")

# Line numbers matter: the findings name them (line 1 is the empty line after the opening quotes).
CHECKED = r"""
__global__ void reverse_no_sync(const float* x, float* y) {
    __shared__ float tile[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    tile[t] = x[i];
    y[i] = tile[255 - t];
}
__global__ void reverse_synced(const float* x, float* y) {
    __shared__ float tile[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    tile[t] = x[i];
    __syncthreads();
    y[i] = tile[255 - t];
}
__global__ void write_past_end(int* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) x[i] = i;
}
__global__ void barrier_in_branch(float* x) {
    if (threadIdx.x < 16) __syncthreads();
    x[threadIdx.x] = 1.0f;
}
"""


@pytest.fixture(scope="module")
def checked():
    try:
        return warpsim.compile(CHECKED, "checked.cu")
    except warpsim.Error as e:
        if "neither" in str(e):
            pytest.skip("no CUDA compiler (NVRTC or nvcc)")
        raise


def test_a_missing_barrier_is_a_shared_memory_race_between_the_two_lines(checked):
    x = np.arange(256, dtype=np.float32)
    y = np.zeros_like(x)
    found = warpsim.check(checked.reverse_no_sync[1, 256], x, y, tools="racecheck")
    assert len(found) == 1 and not found.clean
    f = found[0]
    assert f.tool == "racecheck" and f.kind.startswith("race.") and f.kind.endswith(".shared")
    assert f.space == "shared"
    # Thread w writes tile[w] (line 5); thread 255 - w reads it (line 6); with no barrier, the first pair in
    # different warps races. Whichever element it names, the writer is w and the reader 255 - w.
    lines = sorted(p.line for p in f.parties)
    assert lines == [5, 6]
    assert {p.location for p in f.parties} == {"checked.cu:5", "checked.cu:6"}
    write = next(p for p in f.parties if p.line == 5)
    read = next(p for p in f.parties if p.line == 6)
    w = write.thread[0]
    assert read.thread[0] == 255 - w
    assert w // 32 != read.thread[0] // 32  # threads of one warp run in lockstep: no race among them
    assert write.block == read.block == (0, 0, 0)
    assert f.variable.startswith(f"tile[{w}]")
    assert "__syncthreads() between line 5 and line 6" in f.fix
    assert "checked.cu:5" in f.message and "ERROR SUMMARY: 1 error" in found.text
    assert '"kind": "race.' in found.json
    assert np.all(y == 0)  # the checkers' run writes nothing back


def test_the_barrier_makes_it_clean(checked):
    x = np.arange(512, dtype=np.float32)
    y = np.zeros_like(x)
    found = warpsim.check(checked.reverse_synced[2, 256], x, y)
    assert list(found) == [] and found.clean
    assert "ERROR SUMMARY: 0 errors" in found.text


def test_memcheck_names_the_thread_one_past_the_end(checked):
    x = np.zeros(1000, dtype=np.int32)
    # i <= n lets thread 1000 (block 3, thread 232: 3 * 256 + 232) write x[1000], 4 bytes past the end.
    found = warpsim.check(checked.write_past_end[4, 256], x, 1000, tools=["memcheck"])
    assert len(found) >= 1
    f = found[0]
    assert f.tool == "memcheck" and f.location == "checked.cu:17"
    assert f.block == (3, 0, 0) and f.thread == (232, 0, 0)
    assert f.space == "global"
    assert f.variable.startswith("args[0] x[1000]")  # the C++ parameter's name, one past the end


def test_synccheck_finds_the_barrier_in_a_branch(checked):
    x = np.zeros(32, dtype=np.float32)
    found = warpsim.check(checked.barrier_in_branch[1, 32], x, tools="synccheck")
    assert len(found) == 1
    assert found[0].tool == "synccheck" and found[0].location == "checked.cu:20"


def test_check_of_a_run_runs_the_same_launch_again(checked):
    x = np.arange(256, dtype=np.float32)
    y = np.zeros_like(x)
    run = checked.reverse_synced[1, 256](x, y)
    assert np.array_equal(y, x[::-1])
    assert warpsim.check(run).clean
    racy = checked.reverse_no_sync[1, 256](x, np.zeros_like(x))
    assert [f.tool for f in warpsim.check(racy, tools="racecheck")] == ["racecheck"]


def test_check_with_bad_input_is_an_error():
    mod = warpsim.load(VECTOR_ADD)
    a = np.zeros(32, dtype=np.float32)
    with pytest.raises(warpsim.Error, match="unknown tool 'leakcheck'"):
        warpsim.check(mod.vecAdd[1, 32], a, a, a, 32, tools="leakcheck")
    with pytest.raises(warpsim.Error, match="not a int"):
        warpsim.check(42)
    with pytest.raises(warpsim.Error, match="3 arguments given"):
        warpsim.check(mod.vecAdd[1, 32], a, a, a)


def test_the_text_report_and_the_html_page():
    mod = warpsim.load(VECTOR_ADD)
    a = np.arange(1000, dtype=np.float32)
    c = np.zeros_like(a)
    run = mod.vecAdd[4, 256](a, 2 * a, c, 1000)
    text = run.report()
    # 4 blocks of 256 threads: 1024 threads, 8 warps per block; n = 1000 leaves the last warp 8 lanes.
    assert "grid (4,1,1) x block (256,1,1): 4 blocks of 256 threads = 1024 threads" in text
    assert "1000 of 1024 threads touched memory" in text
    assert "block 3 warp 7 (8 of 32 lanes)" in text
    assert "us predicted" in text
    page = run.report("html")
    assert page.lstrip().lower().startswith("<!doctype html")
    inline = run._repr_html_()
    assert inline.startswith("<iframe srcdoc=") and "&lt;" in inline and "<html" not in inline[20:]
    assert run.report("dict")["kernel"] == "vecAdd"
    with pytest.raises(warpsim.Error, match='"text", "html" or "dict"'):
        run.report("pdf")
    quick = mod.vecAdd[4, 256](a, 2 * a, c, 1000, report=False)
    assert quick._repr_html_() is None  # Jupyter falls back to repr()
    with pytest.raises(warpsim.Error, match="report=False"):
        quick.report()


class DlpackOnly:
    """Something NumPy reads through DLPack alone (no __array__), backed by a NumPy array."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


class ArrayLike:
    """Something with __array__ returning a view of its memory, as a PyTorch CPU tensor's t.numpy() is."""

    def __init__(self, array):
        self.array = array

    def __array__(self, dtype=None):
        return self.array


def test_objects_numpy_reads_in_place():
    mod = warpsim.load(VECTOR_ADD)
    a = np.arange(1000, dtype=np.float32)
    c = np.zeros_like(a)
    out = ArrayLike(c)
    mod.vecAdd[4, 256](DlpackOnly(a), DlpackOnly(2 * a), out, 1000)
    assert np.array_equal(c, 3 * a)  # written back through the view __array__ gave
    # A DLPack import is read-only in NumPy: an input only, like a read-only array.
    d = np.full(1000, -1, dtype=np.float32)
    mod.vecAdd[4, 256](a, a, DlpackOnly(d), 1000)
    assert np.all(d == -1)


def test_pytorch_cpu_tensors():
    torch = pytest.importorskip("torch")
    mod = warpsim.load(VECTOR_ADD)
    a = torch.arange(1000, dtype=torch.float32)
    c = torch.zeros(1000)
    mod.vecAdd[4, 256](a, 2 * a, c, 1000)
    assert torch.equal(c, 3 * a)
    with pytest.raises(warpsim.Error, match="require grad"):
        mod.vecAdd[4, 256](a, a, torch.zeros(1000, requires_grad=True), 1000)


IN_PLACE = r"""
__global__ void halve(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * 0.5f;
}
__global__ void first_then_fault(int* x) {
    x[threadIdx.x] = 7;
    if (threadIdx.x == 31) x[1 << 28] = 1;
}
"""


@pytest.mark.parametrize("report", [False, True])
def test_arrays_are_written_back_once_in_place_and_not_after_a_fault(report):
    try:
        mod = warpsim.compile(IN_PLACE, "in_place.cu")
    except warpsim.Error as e:
        if "neither" in str(e):
            pytest.skip("no CUDA compiler (NVRTC or nvcc)")
        raise
    # x is input and output: halved once (x / 2), not twice, whether or not the report's lane sample re-runs
    # the first blocks (it must see the initial x, so with report=True the write-back waits for it).
    x = np.arange(1000, dtype=np.float32)
    run = mod.halve[4, 256](x, 1000, report=report)
    assert np.array_equal(x, np.arange(1000, dtype=np.float32) / 2)
    assert run.report("dict")["buffers"][0]["arg"] == 0  # the report still hashes the buffer
    # A faulting kernel leaves the array as it was (a GPU's memory after a fault is not the caller's).
    y = np.zeros(32, dtype=np.int32)
    with pytest.raises(warpsim.LaunchError, match="cudaErrorIllegalAddress"):
        mod.first_then_fault[1, 32](y, report=report)
    assert not y.any()
    # A read-only array is an input only.
    z = np.arange(1000, dtype=np.float32)
    z.flags.writeable = False
    mod.halve[4, 256](z, 1000, report=report)
    assert np.array_equal(z, np.arange(1000, dtype=np.float32))
