"""One measured case of scripts/bench.py, run in a fresh process (``bench.py --child SPEC``).

The child makes the data (untimed), runs the tool once on a small input (imports, compiled
kernels: timed apart, as ``warm_seconds``, and left out), resets the process's resident peak,
then times the tool: best of
``repeat`` runs, or a single run where the first takes more than ``SINGLE_RUN`` seconds. It
prints a line of JSON when the timing begins (the parent's lower bound if it stops the child),
then one with the seconds, the resident peak during the timed runs (MiB, data included; for a
tool that is a program of its own, that program's peak) and the tool's value.
"""

from __future__ import annotations

import gc
import json
import resource
import time
from pathlib import Path
from typing import Any

import _bench_gamma  # noqa: F401  (registers the gamma section's runs)
import _bench_memory_runs  # noqa: F401  (registers the memory section's runs)
import _bench_startup  # noqa: F401  (registers the start-up section's runs)
import bench_spans  # noqa: F401  (registers the spans section's runs)
from _bench_runs import RUNS, run_command

SINGLE_RUN = 10.0


def _reset_peak() -> bool:
    """Reset the resident peak of this process (Linux); False where it cannot be."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def _mib(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024  # KiB on Linux


def measure(spec: dict[str, Any]) -> dict[str, Any]:
    """Run the case ``spec`` (section, tool, size, params, repeat, warm) and return its
    figures."""
    prepare, run = RUNS[(spec["section"], spec["tool"])]
    params = spec.get("params", {})
    warm = None
    if spec.get("warm"):
        start = time.perf_counter()
        run(prepare(spec["warm"], params))
        warm = time.perf_counter() - start
    data = prepare(spec["size"], params)
    gc.collect()
    reset = _reset_peak()
    print(json.dumps({"timing_from": time.time()}), flush=True)  # for a lower bound if stopped
    times, out = [], None
    while not times or (len(times) < spec.get("repeat", 1) and times[0] <= SINGLE_RUN):
        start = time.perf_counter()
        out = run(data)
        times.append(time.perf_counter() - start)
    external = run is run_command or spec["tool"].startswith("reference scorer")
    peak = _mib(resource.RUSAGE_CHILDREN if external else resource.RUSAGE_SELF)
    details = out if isinstance(out, dict) else {"value": out}
    return {"seconds": min(times), "runs": len(times), "peak_mib": peak,
            "peak_reset": reset or external, "warm_seconds": warm, **details}


def main(text: str) -> None:
    print(json.dumps(measure(json.loads(text))), flush=True)
