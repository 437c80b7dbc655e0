"""warpsim.set_log: the runtime's and the engine's decisions to a callable, to Python's logging, to stderr, or
nowhere. The expected lines follow from the launches (occupancy worked out by hand for the H200).

    PYTHONPATH=BUILD/python WARPSIM_SOURCE_DIR=. /usr/bin/python3 -m pytest tests/python
"""
import logging
import os
import shutil

import numpy as np
import pytest

import warpsim

SOURCE = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
VECTOR_ADD = os.path.join(SOURCE, "examples", "vector_add.ptx")
HAVE_PTXAS = bool(shutil.which("ptxas") or os.path.exists("/usr/local/cuda/bin/ptxas"))


@pytest.fixture(autouse=True)
def quiet_log_after():
    yield
    warpsim.set_log("warning")  # the default, to stderr


def vector_add(mod, n=1000, **options):
    a = np.arange(n, dtype=np.float32)
    return mod.vecAdd[(n + 255) // 256, 256](a, 2 * a, np.zeros_like(a), n, **options)


def test_info_names_the_launch_and_its_occupancy_limits():
    mod = warpsim.load(VECTOR_ADD)
    messages = []
    warpsim.set_log("info", sink=lambda level, text: messages.append((level, text)))
    vector_add(mod)
    infos = [t for level, t in messages if level == "info"]
    assert any(t.startswith("launch vecAdd (") and t.endswith(
        "): grid (4,1,1) x block (256,1,1), 0 bytes of dynamic shared memory, on the simulated h200")
        for t in infos), infos
    # 256 threads = 8 warps per block; the H200 holds 64 warps and 32 blocks per SM: 8 blocks, by warps.
    occupancy = [t for t in infos if t.startswith("vecAdd: occupancy on h200: ")]
    assert len(occupancy) == 1
    assert "8 blocks per SM, 64 warps (100.0 %), limited by warps" in occupancy[0]
    assert "warps 8," in occupancy[0] and "blocks 32," in occupancy[0]
    assert not any(level == "debug" for level, _ in messages)


def test_debug_adds_the_details_and_warning_hides_the_decisions():
    mod = warpsim.load(VECTOR_ADD)
    messages = []
    warpsim.set_log("debug", sink=lambda level, text: messages.append((level, text)))
    vector_add(mod, report=False)
    vector_add(mod, report=False)
    debugs = [t for level, t in messages if level == "debug"]
    assert any(t.startswith("vecAdd: simulated in ") for t in debugs)
    if HAVE_PTXAS:  # the second launch of the same PTX takes ptxas's output from the process's cache
        assert any(t.startswith("ptxas -arch=sm_90: this PTX") and "process's cache" in t for t in debugs)
    messages.clear()
    warpsim.set_log("warning", sink=lambda level, text: messages.append((level, text)))
    vector_add(mod)
    assert messages == []


def test_sampling_decisions_are_logged():
    mod = warpsim.load(VECTOR_ADD)
    messages = []
    warpsim.set_log("info", sink=lambda level, text: messages.append(text))
    vector_add(mod, n=1 << 16, sample=True)  # 256 blocks
    sampled = [t for t in messages if t.startswith("vecAdd: sampled: ")]
    assert len(sampled) == 1 and " of 256 blocks run (--sample)" in sampled[0]


def test_a_logging_logger_gets_the_messages_at_their_levels():
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record)

    logger = logging.getLogger("warpsim.test")
    logger.setLevel(logging.DEBUG)
    logger.addHandler(Keep())
    logger.propagate = False
    warpsim.set_log("info", sink=logger)
    vector_add(warpsim.load(VECTOR_ADD))
    launches = [r for r in records if r.getMessage().startswith("launch vecAdd")]
    assert len(launches) == 1 and launches[0].levelno == logging.INFO


def test_stderr_and_off(capfd):
    mod = warpsim.load(VECTOR_ADD)
    capfd.readouterr()
    warpsim.set_log("info")
    vector_add(mod)
    err = capfd.readouterr().err
    assert "warpsim: info: launch vecAdd (" in err
    warpsim.set_log("off")
    vector_add(mod)
    assert capfd.readouterr().err == ""


def test_compiler_choice_is_logged():
    messages = []
    warpsim.set_log("info", sink=lambda level, text: messages.append(text))
    source = "__global__ void twice(float* x) { x[threadIdx.x] *= 2; }"
    try:
        mod = warpsim.compile(source, "twice.cu")
    except warpsim.Error as e:
        if "neither" in str(e):
            pytest.skip("no CUDA compiler (NVRTC or nvcc)")
        raise
    if mod.compiler.startswith("nvrtc"):
        assert any(t.startswith("compiled twice.cu for sm_90 in process with NVRTC ") for t in messages)
    else:
        assert any(t.startswith("compiled twice.cu for sm_90 with nvcc") for t in messages)
    messages.clear()
    warpsim.set_log("debug", sink=lambda level, text: messages.append(text))
    warpsim.compile(source, "twice.cu")  # the same source again: from the process's cache
    assert any(t.startswith("twice.cu: the PTX ") and "process's cache" in t for t in messages)


def test_bad_log_settings_are_errors():
    with pytest.raises(warpsim.Error, match='"debug", "info", "warning", "error" or "off", not "loud"'):
        warpsim.set_log("loud")
    with pytest.raises(warpsim.Error, match="a logging.Logger or a callable"):
        warpsim.set_log("info", sink=42)
