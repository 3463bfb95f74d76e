"""The start-up section of scripts/bench.py: whole processes, and the first call in one.

* ``clusteragree table`` on a small CSV (``corpora_fixtures/krippendorff2011.csv``, nominal
  alpha of scalar labels) run as a command, beside a script that reads the same CSV with the
  csv module and calls ``krippendorff.alpha``, and beside the interpreter alone
  (``python -c pass``): each run ``RUNS_PER_CASE`` times (``QUICK_RUNS`` with ``--quick``, whose
  case parameters say ``runs``) as a whole process, best and median
  wall clock and the best CPU time (user + system) of the process;
* the first ``clusteragree.alpha`` on 1,000 units in a fresh interpreter, after numpy,
  ``import clusteragree`` and the table built (``clusteragree.CodingTable``): the first call
  loads what alpha needs beyond the table (its engines); then the second call, for integer
  labels (nominal) and class-derived values (MASI).

The package's bytecode is compiled first (``compileall``), as ``pip install`` leaves it: an
interpreter that may not write bytecode (``PYTHONDONTWRITEBYTECODE``) with an editable install
compiles every module of the package from source at each start: one more case measures that
(the package copied without bytecode, ``PYTHONDONTWRITEBYTECODE=1``).
"""

from __future__ import annotations

import atexit
import compileall
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _bench_runs import ROOT, tool

FIXTURE = ROOT / "corpora_fixtures" / "krippendorff2011.csv"
RUNS_PER_CASE = 9
QUICK_RUNS = 3  # bench.py --quick: a smoke run


def _runs(params: dict[str, Any]) -> int:
    return int(params.get("runs", RUNS_PER_CASE))

PEER = """
import csv, sys
import numpy as np
import krippendorff
with open(sys.argv[1], newline="", encoding="utf-8") as handle:
    rows = list(csv.DictReader(handle))
coders = list(dict.fromkeys(r["coder"] for r in rows))
units = list(dict.fromkeys(r["unit"] for r in rows))
data = np.full((len(coders), len(units)), np.nan)
for r in rows:
    data[coders.index(r["coder"]), units.index(r["unit"])] = float(r["labels"])
print(krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))
"""

FIRST = """
import json, sys, time
start = time.perf_counter()
import numpy as np
import clusteragree as ca
CodingTable = ca.CodingTable
rng = np.random.default_rng(5)
if sys.argv[1] == "integer":
    table = CodingTable.from_matrix(rng.integers(0, 5, (5, 1000)).astype(float))
    distance = "nominal"
else:
    ids = np.arange(1000) // 3
    table = CodingTable.from_clusterings({"A": ids, "B": (np.arange(1000) + 1) // 3})
    distance = "masi"
ready = time.perf_counter()
value = ca.alpha(table, distance).alpha  # loads what alpha needs beyond the table's modules
first = time.perf_counter()
ca.alpha(table, distance)
second = time.perf_counter()
print(json.dumps({"value": value, "imports": ready - start, "first": first - ready,
                  "second": second - first,
                  "loaded": sorted({m.split(".")[0] for m in sys.modules}
                                   & {"pandas", "scipy", "numba", "pyarrow"})}))
"""


def _compiled() -> None:
    """The package's bytecode written, as an installation leaves it."""
    compileall.compile_dir(str(ROOT / "clusteragree"), quiet=1)


def _whole(argv: list[str], runs: int, cwd: Path = ROOT, env: dict[str, str] | None = None
           ) -> dict[str, Any]:
    """Run ``argv`` ``runs`` times: best and median wall clock, best CPU time, output."""
    walls, cpus, out = [], [], ""
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(argv, check=True, capture_output=True, text=True, cwd=cwd,
                              env=env)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        out = done.stdout
    return {"best": min(walls), "median": statistics.median(walls), "cpu": min(cpus),
            "output": out}


def _table_argv(n: int, params: dict[str, Any]) -> tuple[list[str], int]:
    _compiled()
    return [sys.executable, "-m", "clusteragree", "table", str(FIXTURE), "--scalar",
            "--distance", "nominal"], _runs(params)


@tool("startup", "clusteragree table, whole process", _table_argv)
def ours_table(data: tuple[list[str], int]) -> dict[str, Any]:
    got = _whole(*data)
    line = next(line for line in got.pop("output").splitlines() if line.startswith("nominal "))
    return {"value": float(line.split()[1]), **got}


def _uncompiled(n: int, params: dict[str, Any]
                ) -> tuple[tuple[list[str], int], Path, dict[str, str]]:
    """The package copied without its bytecode, run where Python may not write any."""
    where = Path(tempfile.mkdtemp(prefix="clusteragree-startup-"))
    atexit.register(shutil.rmtree, where, ignore_errors=True)
    shutil.copytree(ROOT / "clusteragree", where / "clusteragree",
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(where)}
    return _table_argv(n, params), where, env


@tool("startup", "clusteragree table, whole process, package compiled at each start",
      _uncompiled)
def ours_uncompiled(data: tuple[tuple[list[str], int], Path, dict[str, str]]
                    ) -> dict[str, Any]:
    (argv, runs), where, env = data
    got = _whole(argv, runs, cwd=where, env=env)
    line = next(line for line in got.pop("output").splitlines() if line.startswith("nominal "))
    return {"value": float(line.split()[1]), **got}


@tool("startup", "script calling krippendorff, whole process",
      lambda n, params: ([sys.executable, "-c", PEER, str(FIXTURE)], _runs(params)))
def peer_table(data: tuple[list[str], int]) -> dict[str, Any]:
    got = _whole(*data)
    return {"value": float(got.pop("output").strip()), **got}


@tool("startup", "the interpreter alone (python -c pass)",
      lambda n, params: ([sys.executable, "-c", "pass"], _runs(params)))
def interpreter(data: tuple[list[str], int]) -> dict[str, Any]:
    got = _whole(*data)
    got.pop("output")
    return {"value": None, **got}


def _first_argv(n: int, params: dict[str, Any]) -> tuple[list[str], int]:
    _compiled()
    return [sys.executable, "-c", FIRST, params["kind"]], _runs(params)


@tool("startup", "first alpha, 1,000 units, fresh process", _first_argv)
def first_alpha(data: tuple[list[str], int]) -> dict[str, Any]:
    """``runs`` fresh interpreters: the median of each figure."""
    argv, count = data
    runs = [json.loads(subprocess.run(argv, check=True, capture_output=True, text=True,
                                      cwd=ROOT).stdout) for _ in range(count)]
    out: dict[str, Any] = {key: statistics.median(r[key] for r in runs)
                           for key in ("imports", "first", "second")}
    return {"value": runs[0]["value"], "loaded": runs[0]["loaded"], **out}
