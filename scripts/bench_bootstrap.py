"""Benchmark: bootstrap intervals of alpha by reweighting, against recomputing every resample.

Three coders, nominal values among 5 categories (each coder right with probability 0.8),
``--resamples`` resamples of the units. For each size:

* clusteragree: ``block_stats(table)`` once, then ``bootstrap_alpha`` (every resample a
  reweighting of per-unit sums), with the ``--interval`` asked (BCa by default: its jackknife,
  every unit left out in turn, is computed in closed form and timed on its own as well);
* recomputing: each resample's reliability data (the drawn columns of the coders x units
  matrix) given to ``krippendorff.alpha``, as one would without per-unit statistics; timed on
  ``--recompute-resamples`` resamples and scaled to ``--resamples`` (it is linear in them).

Seconds (best of one run; the machine is shared), the ratio, and the peak memory of the
process. Usage::

    python scripts/bench_bootstrap.py [--sizes 10000,100000,1000000] [--resamples 1000]
                                      [--jobs 1] [--interval bca|percentile] [--out FILE]

With ``--out FILE`` the table is also written there; nothing else is written.
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

import numpy as np


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--recompute-resamples", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="threads of the bootstrap")
    parser.add_argument("--interval", choices=("bca", "percentile"), default="bca",
                        help="the interval (default: %(default)s)")
    parser.add_argument("--out", type=Path, help="also write the table to this file")
    args = parser.parse_args()
    import krippendorff

    from clusteragree import CodingTable
    from clusteragree.core.bootstrap import _Reweighting, block_stats, bootstrap_alpha
    from clusteragree.core.distances import get_distance

    lines = [f"{args.resamples} resamples of the units, 3 coders, nominal, 5 categories, "
             f"{args.jobs} job(s), {args.interval} intervals",
             f"{'units':>9} {'stats s':>8} {'resamples s':>11} {'jackknife s':>11} "
             f"{'recompute s':>11} {'ratio':>7} {'95% interval':>20}"]
    print("\n".join(lines), flush=True)
    rng = np.random.default_rng(args.seed)
    for units in (int(s) for s in args.sizes.split(",")):
        truth = rng.integers(0, 5, units)
        codes = np.where(rng.random((3, units)) < 0.8, truth, rng.integers(0, 5, (3, units)))
        table = CodingTable(["A", "B", "C"], range(units), codes=codes, values=list(range(5)))
        start = time.perf_counter()
        stats = block_stats(table)
        t_stats = time.perf_counter() - start
        start = time.perf_counter()
        result = bootstrap_alpha(stats, "nominal", n=args.resamples, seed=args.seed,
                                 jobs=args.jobs, interval=args.interval)
        t_boot = time.perf_counter() - start
        start = time.perf_counter()
        _Reweighting(stats, get_distance("nominal")).jackknife()
        t_jack = time.perf_counter() - start
        data = codes.astype(float)
        start = time.perf_counter()
        for _ in range(args.recompute_resamples):
            drawn = rng.integers(0, units, units)
            krippendorff.alpha(reliability_data=data[:, drawn], level_of_measurement="nominal",
                               value_domain=list(range(5)))
        t_naive = (time.perf_counter() - start) * args.resamples / args.recompute_resamples
        line = (f"{units:>9,} {t_stats:>8.2f} {t_boot:>11.2f} {t_jack:>11.2f} {t_naive:>11.1f} "
                f"{t_naive / (t_stats + t_boot):>6.1f}x "
                f"[{result.ci[0]:.4f}, {result.ci[1]:.4f}]")
        print(line, flush=True)
        lines.append(line)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    lines.append(f"peak memory of the run {peak:.0f} MB")
    print(lines[-1])
    if args.out is not None:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
