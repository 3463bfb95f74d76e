"""From a long DataFrame to alpha: clusteragree against pivoting and the krippendorff package.

Frames of ``--rows`` rows (coder, unit, value), every unit coded by every coder, nominal values
drawn from a number of labels, 5% of the cells missing, in several shapes: coders x labels, and
the text columns as Python strings (``object``) or as pandas categoricals. Timed, best of
``--repeat``, on the same frame:

* clusteragree: ``CodingTable.from_dataframe(df)`` then ``alpha(table, "nominal")``;
* krippendorff: the labels mapped to numbers (``pd.factorize``), ``df.pivot(...)``, then
  ``krippendorff.alpha(reliability_data=..., level_of_measurement="nominal")``.

Both alphas are printed and must agree; the ratio is krippendorff's time over ours. The
krippendorff package builds a units x labels x labels array, so it is skipped (and says so) where
that array would pass ``--max-gb``. Usage::

    python scripts/bench_dataframe.py [--rows 1000000] [--shapes 3x5,3x50,10x5] [--repeat 3]
                                      [--out DIR]

With ``--out DIR`` the table also goes to ``DIR/bench_dataframe.txt``; nothing else is written.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _cli import printed_to


def frame(rows: int, coders: int, n_values: int, kind: str, seed: int) -> pd.DataFrame:
    """``rows`` cells of ``coders`` coders, labels as strings; ``kind`` "category" makes the
    coder and value columns categoricals."""
    rng = np.random.default_rng(seed)
    units = rows // coders
    labels = np.array([f"label{k}" for k in range(n_values)], dtype=object)
    value = labels[rng.integers(0, n_values, units * coders)]
    value[rng.random(units * coders) < 0.05] = None
    names = np.array([f"coder{k}" for k in range(coders)], dtype=object)
    df = pd.DataFrame({"coder": np.tile(names, units), "unit": np.repeat(np.arange(units), coders),
                       "value": value})
    if kind == "category":
        df = df.astype({"coder": "category", "value": "category"})
    return df


def best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Shortest of ``repeat`` runs, and the last result."""
    fastest, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest, out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--shapes", default="2x5,3x5,3x10,3x20,10x5,20x5",
                        help="CODERSxLABELS, comma-separated (default: %(default)s)")
    parser.add_argument("--kinds", default="object,category",
                        help="column kinds to try: object, category (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-gb", type=float, default=4.0,
                        help="skip krippendorff where its units x labels x labels array would "
                             "pass this many GB (default: %(default)s)")
    parser.add_argument("--out", type=Path, help="directory for bench_dataframe.txt")
    args = parser.parse_args(argv)
    import krippendorff

    from clusteragree import CodingTable, alpha

    shapes = [tuple(int(x) for x in s.split("x")) for s in args.shapes.split(",")]
    kinds = args.kinds.split(",")
    failed = False
    with printed_to(args.out, "bench_dataframe.txt"):
        print(f"rows {args.rows:,}, best of {args.repeat}; times in seconds")
        print(f"{'coders':>6} {'labels':>6} {'columns':>8} {'clusteragree':>12} "
              f"{'krippendorff':>12} {'ratio':>6}")
        for coders, n_values in shapes:
            for kind in kinds:
                df = frame(args.rows, coders, n_values, kind, args.seed)

                def ours(df: pd.DataFrame = df) -> float:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", RuntimeWarning)
                        return alpha(CodingTable.from_dataframe(df), "nominal").alpha

                def theirs(df: pd.DataFrame = df) -> float:
                    codes, _ = pd.factorize(df["value"])  # labels as numbers, None as NaN
                    numeric = np.where(codes < 0, np.nan, codes.astype(float))
                    wide = df.assign(value=numeric).pivot(index="coder", columns="unit",
                                                          values="value")
                    return float(krippendorff.alpha(reliability_data=wide.to_numpy(dtype=float),
                                                    level_of_measurement="nominal"))

                t_ours, a_ours = best(ours, args.repeat)
                units = args.rows // coders
                if units * n_values * n_values * 8 > args.max_gb * 1e9:
                    print(f"{coders:>6} {n_values:>6} {kind:>8} {t_ours:>12.3f} "
                          f"{'(skipped)':>12} {'':>6}")
                    continue
                t_theirs, a_theirs = best(theirs, args.repeat)
                print(f"{coders:>6} {n_values:>6} {kind:>8} {t_ours:>12.3f} {t_theirs:>12.3f} "
                      f"{t_theirs / t_ours:>5.1f}x")
                if abs(a_ours - a_theirs) > 1e-9:
                    print(f"  the two alphas differ: {a_ours!r} and {a_theirs!r}")
                    failed = True
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"peak memory of the run {peak:.0f} MB")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
