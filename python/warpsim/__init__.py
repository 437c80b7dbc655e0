"""warpsim: CUDA kernels on a simulated NVIDIA GPU, on NumPy arrays.

    import numpy as np, warpsim
    mod = warpsim.load("examples/vector_add.ptx")           # or warpsim.compile(cuda_source) (NVRTC, nvcc)
    a = np.arange(1000, dtype=np.float32); b = 2 * a; c = np.zeros_like(a)
    run = mod.vecAdd[4, 256](a, b, c, np.int32(1000))       # c is filled in place
    run.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], run.predicted.time_us
    print(run.report())                                     # in Jupyter, `run` shows the HTML report
    warpsim.check(mod.vecAdd[4, 256], a, b, c, 1000)        # memcheck, racecheck, ...: findings as objects

Arrays (and objects NumPy reads without a copy: PyTorch CPU tensors through __array__, written back in
place; anything with __dlpack__, an input only) are read before the kernel and written back, in place, after it (read-only arrays are inputs only).
Scalars are NumPy scalars (their own type, which must have the parameter's size) or Python numbers, typed
from the kernel's PTX parameter: a float for an integer parameter is an error that names the parameter.
A kernel that faults (an out-of-bounds access, a trap, a launch the device refuses) raises LaunchError;
what the launch's checks question but run anyway (a buffer of another type than the C++ pointer's) is a
Python warning.
"""
import logging
import warnings

import numpy as np

from ._core import Error, Module, Param, Predicted, Result, __version__
from . import _core
from ._check import Finding, Findings, check
from ._sweep import sweep

__all__ = ["Error", "LaunchError", "Module", "Kernel", "Run", "Finding", "Findings", "check", "sweep",
           "compile", "load", "from_ptx", "set_log", "__version__"]

_log_sink = None
_LOG_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}


def set_log(level="info", sink=None):
    """The log of the runtime's and the engine's decisions (what is launched, which compiler, ptxas and its
    cache, occupancy limits, sampling): level "debug", "info", "warning" (the default before any call),
    "error" or "off". sink=None: to stderr, "warpsim: info: ..."; a logging.Logger: each message to it at
    its level (warpsim.set_log("debug", logging.getLogger("warpsim")) bridges to Python's logging); a
    callable: sink(level_name, text). A sink gets a call's messages when the call returns (the simulator's
    threads never call into Python)."""
    global _log_sink
    if sink is not None and not callable(sink) and not isinstance(sink, logging.Logger):
        raise Error(f"warpsim.set_log: the sink is None, a logging.Logger or a callable, not {sink!r}")
    _core.take_log()  # what an earlier sink left queued is not this one's
    _core.set_log(level, sink is not None)
    _log_sink = sink


def _deliver_log():
    sink = _log_sink
    if sink is None:
        return
    for level, text in _core.take_log():
        if isinstance(sink, logging.Logger):
            sink.log(_LOG_LEVELS.get(level, logging.WARNING), text)
        else:
            sink(level, text)


def _logged(call, *args):
    """call(*args), then the log's messages to the sink (also when the call raises)."""
    try:
        return call(*args)
    finally:
        _deliver_log()


class LaunchError(RuntimeError):
    """The kernel's own fault, as CUDA names it (cudaErrorIllegalAddress, ...); .run has the report."""

    def __init__(self, run):
        super().__init__(f"{run.error}: {run.error_message}")
        self.run = run


class Run:
    """One launch's outcome: metrics (Nsight Compute names), predicted time, the reports. In Jupyter it shows
    as the HTML report; warpsim.check(run) runs the same launch again with the checkers."""

    def __init__(self, result, launch=None):
        self._result = result
        self._launch = launch  # (configured kernel, args, device) for warpsim.check

    metrics = property(lambda self: self._result.metrics)
    predicted = property(lambda self: self._result.predicted)
    printf_output = property(lambda self: self._result.printf_output)
    json = property(lambda self: self._result.json)
    device = property(lambda self: self._result.device)
    warnings = property(lambda self: self._result.warnings)
    error = property(lambda self: self._result.error)
    error_message = property(lambda self: self._result.error_message)

    def report(self, format="text"):
        """The report: "text", what `warpsim run` prints (the launch, occupancy, what to look at, per source
        line the accesses, the predicted time); "html", the page `warpsim run --html` writes; "dict", what
        `warpsim run --json` prints, as a dict. Text and HTML need a launch with report=True (the default)."""
        if format == "dict":
            import json
            return json.loads(self._result.json)
        if format not in ("text", "html"):
            raise Error(f'run.report: format is "text", "html" or "dict", not {format!r}')
        if not self._result.has_reports:
            raise Error("run.report: the launch was made with report=False: launch again without it")
        return self._result.text_report() if format == "text" else self._result.html_report()

    def _repr_html_(self):
        if not self._result.has_reports:
            return None  # Jupyter then shows __repr__
        # The page is a whole HTML document with its own styles: an iframe keeps them off the notebook's.
        import html
        page = html.escape(self._result.html_report(), quote=True)
        return f'<iframe srcdoc="{page}" style="width:100%;height:720px;border:1px solid #ccc"></iframe>'

    def __repr__(self):
        p = self._result.predicted
        when = f", predicted {p.time_us:.3f} us ({p.bound}-bound)" if p is not None else ""
        return f"<warpsim.Run on {self._result.device}{when}>"


def _as_arrays(args):
    """Arguments that are no NumPy array but that NumPy reads in place, as the NumPy arrays viewing their
    memory: through __array__ first (a PyTorch CPU tensor: t.numpy(), a writable view, so the kernel's
    output lands in the tensor), else __dlpack__ (NumPy 1.24 makes such a view read-only: an input only).
    Everything else as given."""
    out = []
    for i, a in enumerate(args):
        if isinstance(a, (np.ndarray, np.generic, int, float, bool)) or not (
                hasattr(a, "__dlpack__") or hasattr(a, "__array__")):
            out.append(a)
            continue
        try:
            view = np.asarray(a) if hasattr(a, "__array__") else np.from_dlpack(a)
        except (TypeError, RuntimeError, BufferError, ValueError) as e:
            raise Error(f"argument {i}: a {type(a).__name__} NumPy cannot read in place ({e}); a PyTorch "
                        "tensor must be on the CPU (t.cpu()) and not require grad (t.detach())") from None
        out.append(view)
    return tuple(out)


def _dims(value, what):
    if isinstance(value, int):
        return [value]
    if isinstance(value, tuple) and 1 <= len(value) <= 3 and all(isinstance(v, int) for v in value):
        return list(value)
    raise Error(f"{what} must be an int or a tuple of 1 to 3 ints, not {value!r}")


class _Configured:
    def __init__(self, kernel, grid, block, shared_bytes):
        self._kernel, self._grid, self._block, self._shared = kernel, grid, block, shared_bytes

    def __call__(self, *args, device="h200", workers=0, sample=False, report=True, l2="warm"):
        """Runs the launch. sample=True: counts and predicted time from a sample of the blocks; the arrays are
        then left as they were (no buffer is produced) and run.report("dict")["sampling"] has each count's
        bound. report=False: no text or HTML report (saves the short second run of the first blocks that
        the lane diagrams come from). l2: what the L2 holds at the start for the predicted time, "warm" (what
        the launch's previous run left, as CUDA-event timing repeats it) or "cold" (flushed, as Nsight
        Compute's --cache-control all); the launch spec's "l2"."""
        k = self._kernel
        args = _as_arrays(args)
        result = _logged(_core.launch, k._module, k.name, self._grid, self._block, self._shared, args, device,
                         workers, sample, report, l2)
        run = Run(result, (self, args, device))
        for message in result.warnings:
            warnings.warn(message, stacklevel=2)
        if not result.ok:
            raise LaunchError(run)
        return run


class Kernel:
    """A kernel of a module; kernel[grid, block] or kernel[grid, block, shared_bytes] configures a launch."""

    def __init__(self, module, name):
        self._module, self.name = module, name

    @property
    def parameters(self):
        return self._module.parameters(self.name)

    def __getitem__(self, config):
        if not isinstance(config, tuple) or len(config) not in (2, 3):
            raise Error(f"{self.name}[grid, block] or [grid, block, shared_bytes], not [{config!r}]")
        shared = config[2] if len(config) == 3 else 0
        if not isinstance(shared, int) or shared < 0:
            raise Error(f"{self.name}: shared_bytes must be a non-negative int, not {shared!r}")
        return _Configured(self, _dims(config[0], "grid"), _dims(config[1], "block"), shared)

    def __repr__(self):
        return f"<warpsim.Kernel {self.name}>"


class _ModuleView:
    """A loaded module: its kernels as attributes (by PTX name or demangled base name) or mod["name"]."""

    def __init__(self, module):
        self._module = module

    @property
    def kernels(self):
        return self._module.kernels

    @property
    def ptx(self):
        return self._module.ptx

    @property
    def compiler(self):
        return self._module.compiler

    def __getitem__(self, name):
        self._module.parameters(name)  # raises Error naming the candidates for an unknown kernel
        return Kernel(self._module, name)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self[name]
        except Error as e:
            raise AttributeError(str(e)) from None

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._module.kernels))


def load(path):
    """A .ptx or .cu file (a .cu goes through nvcc)."""
    return _ModuleView(_logged(Module.load, str(path)))


def from_ptx(ptx, name="module.ptx"):
    return _ModuleView(_logged(Module.from_ptx, ptx, name))


def compile(source, name="kernel.cu", arch="sm_90", compiler="auto"):
    """CUDA C++ source text compiled to PTX with line information: in process by NVRTC when libnvrtc is
    there, else by nvcc ("auto"), or by the one named ("nvrtc", "nvcc"). mod.compiler says which."""
    return _ModuleView(_logged(Module.from_cuda, source, name, arch, compiler))
