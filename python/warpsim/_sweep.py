"""warpsim.sweep: many variants of a launch (block sizes, tile sizes, ...) on all cores, one process per core,
or on a Dask cluster; one plain dict per variant back, in the variants' order."""
import itertools
import json
import multiprocessing
import os

from . import _core

# The sweep a forked worker process runs: set before the pool forks, so that `setup` needs no pickling
# (a lambda or a function defined in a notebook works as well as a module's function).
_FORKED_SWEEP = None


def _variants(variants):
    if isinstance(variants, dict):
        keys = list(variants)
        for k in keys:
            if isinstance(variants[k], (str, bytes)) or not hasattr(variants[k], "__iter__"):
                raise _core.Error(f"warpsim.sweep: a parameter grid maps each name to a list of values; "
                                  f"{k!r} maps to {variants[k]!r}")
        return [dict(zip(keys, values)) for values in itertools.product(*(list(variants[k]) for k in keys))]
    variants = list(variants)
    for i, v in enumerate(variants):
        if not isinstance(v, dict):
            raise _core.Error(f"warpsim.sweep: variant {i} is a {type(v).__name__}, not a dict")
    return variants


def run_variant(setup, variant, device="h200", sample=False, workers=1, l2="warm"):
    """One variant: setup(variant) gives (configured kernel, args); the row of its run, or of its error."""
    from . import LaunchError
    row = {"variant": variant, "metrics": None, "predicted": None, "time_us": None, "occupancy": None,
           "error": None}
    try:
        configured, args = setup(variant)
        run = configured(*args, device=device, workers=workers, sample=sample, report=False, l2=l2)
    except LaunchError as e:
        row["error"] = str(e)
        return row
    except _core.Error as e:
        row["error"] = str(e)
        return row
    report = json.loads(run.json)
    row["metrics"] = dict(run.metrics)
    # `warpsim run --json`'s "predicted" block as it is (time, bound, clock, parameters and their origin,
    # expected error), with the L2 it starts from always said (that JSON names it only when cold).
    row["predicted"] = dict(report["predicted"], l2=run.predicted.l2)
    row["time_us"] = run.predicted.time_us
    row["occupancy"] = report.get("occupancy")
    return row


def _run_forked(index):
    setup, variants, device, sample, l2 = _FORKED_SWEEP
    return run_variant(setup, variants[index], device, sample, l2=l2)


def sweep(setup, variants, *, client=None, processes=None, device="h200", sample=False, l2="warm"):
    """Runs every variant and returns one dict per variant, in order:
    {"variant": the dict, "metrics": {Nsight Compute name: value}, "predicted": `warpsim run --json`'s
    "predicted" ("time_us", "cycles", "dram_gbps", "gflops", "bound", "clock_mhz", "clock", "parameters",
    "parameters_origin", "expected_error") and "l2" ("warm" or "cold", as asked), "time_us": the predicted
    time, "occupancy": {...}, "error": None or the message of a launch that failed (a block too large for
    the device, a fault)}.

    setup(variant) returns (mod.kernel[grid, block, shared], args): it builds the module (compiled with the
    variant's tile size, say) and the arrays. variants: a list of dicts, or a parameter grid (a dict of
    lists: every combination, the first name varying slowest).

    Without a client the variants run in `processes` worker processes (default: one per core), each
    simulating with one thread; processes=1 runs them here, one after another. With a Dask
    distributed.Client they run on its cluster (setup is sent with cloudpickle; the workers must import
    warpsim). l2: what the L2 holds when each launch starts, for the predicted time ("warm" or "cold", as for
    a single launch)."""
    global _FORKED_SWEEP
    variants = _variants(variants)
    if client is not None:
        futures = client.map(run_variant, [setup] * len(variants), variants, device=device, sample=sample,
                             l2=l2, pure=False)
        return client.gather(futures)
    if processes is None:
        processes = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    processes = max(1, min(int(processes), len(variants)))
    if processes == 1:
        return [run_variant(setup, v, device, sample, workers=0, l2=l2) for v in variants]
    _FORKED_SWEEP = (setup, variants, device, sample, l2)
    try:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            return pool.map(_run_forked, range(len(variants)), chunksize=1)
    finally:
        _FORKED_SWEEP = None
