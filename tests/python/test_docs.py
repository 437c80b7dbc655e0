"""Every ```python block of docs/API.md runs as written, from the source root, in a fresh interpreter (the
blocks assert their own hand-computed values)."""
import os
import re
import subprocess
import sys

import pytest

import warpsim  # noqa: F401 (its folder is the blocks' PYTHONPATH)

SOURCE = os.environ.get("WARPSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BLOCKS = re.findall(r"^```python\n(.*?)^```$", open(os.path.join(SOURCE, "docs", "API.md")).read(),
                    re.S | re.M)


def test_the_document_has_its_examples():
    assert len(BLOCKS) >= 4  # the launch, check, sweep and log examples


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_api_md_python_block_runs(index):
    env = dict(os.environ)
    package = os.path.dirname(os.path.abspath(warpsim.__file__))
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(package), env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-c", BLOCKS[index]], cwd=SOURCE, env=env, capture_output=True,
                          text=True, timeout=300)
    if done.returncode != 0 and "neither was found" in done.stderr:
        pytest.skip("no CUDA compiler (NVRTC or nvcc) for this block")
    assert done.returncode == 0, f"docs/API.md python block {index}:\n{BLOCKS[index]}\n{done.stderr}"
