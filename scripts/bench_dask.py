"""Alpha and Fleiss's kappa of a partitioned Parquet dataset on a local dask cluster.

Generates ``--rows`` codings (default 10^8; columns unit, coder, value; 5 coders, 5 values, a
tenth of the cells missing) as ``--parts`` Parquet files in a temporary directory, sorted by
unit but cut inside units, so that units straddle files (``--unsorted``: rows in random
order). Then, on a LocalCluster of
``--workers`` processes of one thread, computes nominal alpha and the chance-corrected
coefficients in one pass (:func:`clusteragree.core.distributed.dask_stats`), and prints the
time, each worker's peak resident memory (``VmHWM``, read in the worker with ``client.run``)
and the client's. The in-memory engine checks the values on the first
``--check-parts`` files (read with pandas), against the dask backend on the same files.

Usage::

    python scripts/bench_dask.py [--rows 100000000] [--parts 100] [--workers 2] [--unsorted]
                                 [--out DIR]

Nothing is written outside the temporary directory unless ``--out DIR`` is given (then
``dask.json`` goes there); ``--keep DIR`` generates the dataset in DIR and keeps it.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CODERS = ("A", "B", "C", "D", "E")


def generate(folder: Path, rows: int, parts: int, seed: int) -> int:
    """Write ``parts`` Parquet files of about ``rows`` rows in all; return the rows written.

    Each part holds whole units of 5 cells (a tenth dropped) except that the last two cells
    of its last unit open the next part: every boundary cuts a unit."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    rng = np.random.default_rng(seed)
    units_per_part = max(1, round(rows / parts / 4.5))
    written = 0
    tail: tuple[np.ndarray, ...] = tuple(np.zeros(0, dtype=np.int64) for _ in range(3))
    for k in range(parts):
        units = k * units_per_part + np.arange(units_per_part)
        unit = np.repeat(units, 5)
        coder = np.tile(np.arange(5, dtype=np.int64), len(units))
        truth = np.repeat(rng.integers(0, 5, len(units)), 5)
        value = np.where(rng.random(len(unit)) < 0.7, truth, rng.integers(0, 5, len(unit)))
        keep = rng.random(len(unit)) >= 0.1
        keep[-2:] = True
        cols = [np.concatenate([t, c[keep]])
                for t, c in zip(tail, (unit, coder, value), strict=True)]
        moved = 2 if k < parts - 1 else 0
        tail = tuple(c[len(c) - moved:] for c in cols)
        cols = [c[:len(c) - moved] for c in cols]
        table = pa.table({"unit": cols[0],
                          "coder": pa.DictionaryArray.from_arrays(cols[1].astype(np.int8),
                                                                  list(CODERS)),
                          "value": cols[2]})
        pq.write_table(table, folder / f"part-{k:05d}.parquet")
        written += table.num_rows
    return written


def shuffle(folder: Path, parts: int, seed: int) -> None:
    """Rewrite the dataset with its rows in random order (it must fit in memory)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    files = sorted(folder.glob("*.parquet"))
    whole = pa.concat_tables([pq.read_table(f) for f in files])
    order = np.random.default_rng(seed).permutation(whole.num_rows)
    whole = whole.take(pa.array(order))
    for f in files:
        f.unlink()
    step = -(-whole.num_rows // parts)
    for k in range(parts):
        pq.write_table(whole.slice(k * step, step), folder / f"part-{k:05d}.parquet")


def warm_up() -> None:
    """Import what the tasks use."""
    import dask.dataframe  # noqa: F401
    import pyarrow.parquet  # noqa: F401

    import clusteragree.core.distributed  # noqa: F401


def peak_mb() -> float:
    """This process's peak resident memory in MiB: ``VmHWM`` where Linux gives it (the peak of
    this process's own address space; ``ru_maxrss`` would also count the memory of the parent
    at the fork that started a worker), else ``ru_maxrss``."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    scale = 1024 if sys.platform != "darwin" else 1024 * 1024  # KiB on Linux, bytes on macOS
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / scale


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=10**8, help="rows to generate")
    parser.add_argument("--parts", type=int, default=100, help="Parquet files")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--check-parts", type=int, default=5,
                        help="files checked against the in-memory engine")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--unsorted", action="store_true",
                        help="rows in random order (every row goes through the buckets; the "
                        "dataset must fit in memory to be shuffled)")
    parser.add_argument("--keep", type=Path, help="generate the dataset here and keep it")
    parser.add_argument("--out", type=Path, help="write dask.json to this directory")
    args = parser.parse_args()

    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    from clusteragree import CodingTable, alpha
    from clusteragree.core.distributed import dask_stats
    from clusteragree.core.gwet import chance_corrected

    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-dask-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        start = time.perf_counter()
        rows = generate(folder, args.rows, args.parts, args.seed)
        if args.unsorted:
            shuffle(folder, args.parts, args.seed)
        made = time.perf_counter() - start
        size = sum(p.stat().st_size for p in folder.glob("*.parquet")) / 2**20
        print(f"{rows:,} rows in {args.parts} files ({size:,.0f} MiB), written in {made:.1f} s")
        files = sorted(folder.glob("*.parquet"))
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            client.run(warm_up)  # imports in the workers, outside the time
            start = time.perf_counter()
            stats = dask_stats(dd.read_parquet(str(folder)), ("alpha", "gwet"))
            elapsed = time.perf_counter() - start
            result = stats.alphas(["nominal"])[0]
            assert stats.gwet is not None
            kappa = stats.gwet.compute(["fleiss", "gwet"])
            workers: dict[str, Any] = client.run(peak_mb)
            client_peak = peak_mb()
            # the cross-check, after the measurement, on a few files
            few = files[:args.check_parts]
            start = time.perf_counter()
            small = pd.concat([pd.read_parquet(f) for f in few], ignore_index=True)
            table = CodingTable.from_dataframe(small)
            memory_alpha = alpha(table, "nominal").alpha
            memory_fleiss = float(chance_corrected(table, ["fleiss"])["value"].iloc[0])
            memory_seconds = time.perf_counter() - start
            start = time.perf_counter()
            check = dask_stats(dd.read_parquet([str(f) for f in few]), ("alpha", "gwet"))
            check_seconds = time.perf_counter() - start
            dask_alpha = check.alphas(["nominal"])[0].alpha
            assert check.gwet is not None
            dask_fleiss = float(check.gwet.compute(["fleiss"])["value"].iloc[0])
            print(f"check on {len(small):,} rows: alpha {memory_alpha:.12f} in memory "
                  f"({memory_seconds:.1f} s), {dask_alpha:.12f} on dask ({check_seconds:.1f} s); "
                  f"Fleiss {memory_fleiss:.12f} / {dask_fleiss:.12f}")
        report = {
            "rows": rows, "parts": args.parts, "unsorted": args.unsorted,
            "parquet_mib": round(size, 1),
            "workers": args.workers, "seconds": round(elapsed, 1),
            "alpha_nominal": result.alpha, "units": result.units, "n": result.n,
            "fleiss": float(kappa["value"].iloc[0]), "ac1": float(kappa["value"].iloc[1]),
            "worker_peak_mib": sorted(round(v) for v in workers.values()),
            "client_peak_mib": round(client_peak),
            "check": {"rows": len(small), "seconds_memory": round(memory_seconds, 1),
                      "seconds_dask": round(check_seconds, 1), "alpha_memory": memory_alpha,
                      "alpha_dask": dask_alpha, "fleiss_memory": memory_fleiss,
                      "fleiss_dask": dask_fleiss},
            "machine": f"{platform.machine()}, {platform.python_version()}",
        }
        print(f"dask: {elapsed:.1f} s for {rows:,} rows on {args.workers} workers; nominal "
              f"alpha {result.alpha:.6f} ({result.units:,} units, n {result.n:,}); Fleiss "
              f"{report['fleiss']:.6f}, AC1 {report['ac1']:.6f}")
        print(f"peak memory: workers {report['worker_peak_mib']} MiB, client "
              f"{report['client_peak_mib']} MiB")
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / "dask.json").write_text(json.dumps(report, indent=2) + "\n")
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
