"""From a long DataFrame to alpha: clusteragree against pivoting and the krippendorff package.

A frame of ``--rows`` rows (coder, unit, value), three coders per unit, nominal values drawn
from ``--values`` labels (strings, as codings usually are), some cells missing. Timed, best of
``--repeat``:

* clusteragree: ``CodingTable.from_dataframe(df)`` then ``alpha(table, "nominal")``;
* krippendorff: the labels mapped to numbers (``pd.factorize``), ``df.pivot(...)``, then
  ``krippendorff.alpha(reliability_data=..., level_of_measurement="nominal")``.

Both alphas are printed and must agree. Usage::

    python scripts/bench_dataframe.py [--rows 1000000] [--values 5] [--repeat 3] [--out DIR]

With ``--out DIR`` the figures go to ``DIR/bench_dataframe.json`` too; nothing else is written.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd


def _frame(rows: int, n_values: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    units = rows // 3
    labels = np.array([f"label{k}" for k in range(n_values)], dtype=object)
    value = labels[rng.integers(0, n_values, units * 3)]
    value[rng.random(units * 3) < 0.05] = None
    return pd.DataFrame({"coder": np.tile(np.array(["A", "B", "C"], dtype=object), units),
                         "unit": np.repeat(np.arange(units), 3), "value": value})


def _best(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--values", type=int, default=5, help="distinct labels")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="directory for bench_dataframe.json")
    args = parser.parse_args(argv)
    import krippendorff

    from clusteragree import CodingTable, alpha

    df = _frame(args.rows, args.values, args.seed)

    def ours() -> float:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return alpha(CodingTable.from_dataframe(df), "nominal").alpha

    def theirs() -> float:
        codes, _ = pd.factorize(df["value"])  # labels as numbers, None as NaN
        numeric = np.where(codes < 0, np.nan, codes.astype(float))
        wide = df.assign(value=numeric).pivot(index="coder", columns="unit", values="value")
        return float(krippendorff.alpha(reliability_data=wide.to_numpy(dtype=float),
                                        level_of_measurement="nominal"))

    t_ours, a_ours = _best(ours, args.repeat)
    t_theirs, a_theirs = _best(theirs, args.repeat)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"rows {len(df):,}  values {args.values}")
    print(f"clusteragree  from_dataframe + alpha    {t_ours:8.3f} s   alpha {a_ours:.6f}")
    print(f"krippendorff  pivot + alpha             {t_theirs:8.3f} s   alpha {a_theirs:.6f}")
    print(f"ratio {t_theirs / t_ours:.1f}x   peak memory of the run {peak:.0f} MB")
    if abs(a_ours - a_theirs) > 1e-9:
        print("the two alphas differ")
        return 1
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "bench_dataframe.json").write_text(json.dumps(
            {"rows": len(df), "values": args.values, "clusteragree_s": t_ours,
             "krippendorff_s": t_theirs, "ratio": t_theirs / t_ours, "alpha": a_ours,
             "peak_mb": peak}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
