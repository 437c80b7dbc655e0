"""warpsim.check: a launch under memcheck, racecheck, synccheck and initcheck (what `warpsim check` runs, the
C++ check layer through warpsim::check_launch), its findings as Python objects."""
from . import _core


class Finding:
    """One finding: kind ("race.raw.shared", ...), where (location "file:line", the CUDA source where the PTX
    says, else the PTX), who (thread and block, CUDA's coordinates), what (address, space, variable) and how
    to fix it. parties has the one or two accesses involved, each with its own location, thread and block."""

    def __init__(self, f):
        self.tool, self.kind, self.title = f.tool, f.kind, f.title
        self.parties = list(f.parties)
        self.address, self.space, self.variable = f.address, f.space, f.variable
        self.notes, self.fix, self.count = list(f.notes), f.fix, f.count
        first = self.parties[0] if self.parties else None
        self.location = first.location if first else ""
        self.line = first.line if first else 0
        self.thread = first.thread if first else None
        self.block = first.block if first else None

    @property
    def message(self):
        """One line: the title, the variable, the first party's place and thread, the fix."""
        text = self.title
        if self.variable:
            text += f" on {self.variable}"
        if self.parties:
            p = self.parties[0]
            text += f" at {p.location} (thread {p.thread} of block {p.block})"
        if self.fix:
            text += f": {self.fix}"
        return text

    def __repr__(self):
        return f"<warpsim.Finding {self.kind} at {self.location}>"

    def __str__(self):
        return self.message


class Findings(list):
    """The findings of one check (a list of Finding); .text is `warpsim check`'s report, .json its JSON,
    .incomplete says why the simulator could not run the kernel to the end (empty when it did)."""

    def __init__(self, report):
        super().__init__(Finding(f) for f in report.findings)
        self.kernel, self.notes, self.incomplete = report.kernel, list(report.notes), report.incomplete
        self.text, self.json = report.text, report.json

    @property
    def clean(self):
        return not self and not self.incomplete

    def __str__(self):
        return self.text

    def _repr_html_(self):
        import html
        return f"<pre>{html.escape(self.text)}</pre>"


def check(launch, *args, tools="all", device=None, race_global=True, schedules=1):
    """Runs a launch with the checkers and returns its Findings. `launch` is either a configured kernel and
    its arguments, warpsim.check(mod.k[grid, block], x, y, n), or a Run: warpsim.check(mod.k[grid, block](x,
    y, n)) runs the same launch again with the arrays as they are now (after the first run: a kernel that
    updates an array in place is checked on its output; check before running to see the original inputs).
    The checkers' run writes nothing back. tools: "all", one name or a list ("memcheck", "racecheck",
    "synccheck", "initcheck"); race_global=False: racecheck on shared memory only; schedules=N > 1: also N - 1
    other legal warp orders, reporting buffers that differ."""
    from . import Run, _Configured, _as_arrays, _logged
    if isinstance(launch, Run):
        if args:
            raise _core.Error("warpsim.check(run): the run has its arguments; give none")
        if launch._launch is None:
            raise _core.Error("warpsim.check(run): this run does not know its launch")
        configured, args, run_device = launch._launch
        device = device or run_device
    elif isinstance(launch, _Configured):
        configured, args = launch, _as_arrays(args)
    else:
        raise _core.Error("warpsim.check: give mod.kernel[grid, block](args...) (a Run) or "
                          f"mod.kernel[grid, block], args..., not a {type(launch).__name__}")
    options = _core.CheckOptions()
    options.tools = [tools] if isinstance(tools, str) else list(tools)
    options.device = device or "h200"
    options.race_global = race_global
    options.schedules = schedules
    k = configured._kernel
    return Findings(_logged(_core.check, k._module, k.name, configured._grid, configured._block,
                            configured._shared, args, options))
