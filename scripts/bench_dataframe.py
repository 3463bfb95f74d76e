"""From a DataFrame to alpha: clusteragree against pivoting and the krippendorff package.

Frames of ``--rows`` rows (coder, unit, value), every unit coded by every coder, nominal values
drawn from a number of labels, 5% of the cells missing, in several shapes: coders x labels, and
the text columns as Python strings (``object``) or as pandas categoricals, or the labels as
numbers (``number``: floats, NaN missing; coders stay strings). Timed, best of
``--repeat``, on the same cells, entry by entry (``--entries``):

* ``long``: clusteragree ``CodingTable.from_dataframe(df)`` then ``alpha(table, "nominal")``;
  krippendorff: the labels mapped to numbers (``pd.factorize``; numbers as they are),
  ``df.pivot(...)``, then
  ``krippendorff.alpha(reliability_data=..., level_of_measurement="nominal")``;
* ``wide``: the same cells pivoted beforehand (a row per coder, a column per unit, untimed);
  clusteragree ``from_dataframe(wide, layout="wide")`` then alpha; krippendorff: the cells to
  numbers (``pd.factorize`` of ``wide.to_numpy(dtype=object)``; numbers as they are) then
  ``krippendorff.alpha``;
* ``records``: the rows as a list of Python tuples (untimed; string columns only); clusteragree
  ``CodingTable.from_records(records)`` then alpha; krippendorff: ``pd.DataFrame(records)``,
  then as ``long``.

Both alphas are printed and must agree; the ratio is krippendorff's time over ours. The
krippendorff package builds a units x labels x labels array, so it is skipped (and says so) where
that array would pass ``--max-gb``. Usage::

    python scripts/bench_dataframe.py [--rows 1000000] [--shapes 3x5,3x50,10x5] [--repeat 3]
                                      [--entries long,wide,records] [--out DIR]

With ``--out DIR`` the table also goes to ``DIR/bench_dataframe.txt``; nothing else is written.
"""

from __future__ import annotations

import argparse
import resource
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _cli import best, printed_to


def frame(rows: int, coders: int, n_values: int, kind: str, seed: int) -> pd.DataFrame:
    """``rows`` cells of ``coders`` coders, labels as strings; ``kind`` "category" makes the
    coder and value columns categoricals, "number" the labels numbers (0.0, 1.0, ..., NaN
    missing), the same cells whatever the kind."""
    rng = np.random.default_rng(seed)
    units = rows // coders
    drawn = rng.integers(0, n_values, units * coders)
    missing = rng.random(units * coders) < 0.05
    if kind == "number":
        value = np.where(missing, np.nan, drawn.astype(float))
    else:
        value = np.array([f"label{k}" for k in range(n_values)], dtype=object)[drawn]
        value[missing] = None
    names = np.array([f"coder{k}" for k in range(coders)], dtype=object)
    df = pd.DataFrame({"coder": np.tile(names, units), "unit": np.repeat(np.arange(units), coders),
                       "value": value})
    if kind == "category":
        df = df.astype({"coder": "category", "value": "category"})
    return df


def to_krippendorff(values: Any) -> np.ndarray:
    """Labels as numbers, None and NaN as NaN (the krippendorff package's missing value);
    numbers as they are."""
    if np.asarray(values).dtype.kind == "f":
        return np.asarray(values, dtype=float)
    codes, _ = pd.factorize(values)
    return np.where(codes < 0, np.nan, codes.astype(float))


def krippendorff_long(df: pd.DataFrame) -> float:
    """The usual route from a long frame: labels to numbers, pivot, krippendorff.alpha."""
    import krippendorff

    wide = df.assign(value=to_krippendorff(df["value"])).pivot(index="coder", columns="unit",
                                                               values="value")
    return float(krippendorff.alpha(reliability_data=wide.to_numpy(dtype=float),
                                    level_of_measurement="nominal"))


def krippendorff_wide(wide: pd.DataFrame) -> float:
    """From a wide frame: its cells to numbers, then krippendorff.alpha."""
    import krippendorff

    numbers = all(dtype.kind == "f" for dtype in set(wide.dtypes.tolist()))
    cells = wide.to_numpy(dtype=float if numbers else object)
    data = to_krippendorff(cells.reshape(-1)).reshape(wide.shape)
    return float(krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))


def entries(df: pd.DataFrame, kind: str, wanted: list[str]
            ) -> list[tuple[str, Callable[[], float], Callable[[], float]]]:
    """(entry, ours, theirs) for each entry asked for, on the cells of ``df``."""
    from clusteragree import CodingTable, alpha

    def nominal(table: CodingTable) -> float:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return alpha(table, "nominal").alpha

    out: list[tuple[str, Callable[[], float], Callable[[], float]]] = []
    if "long" in wanted:
        out.append(("long", lambda: nominal(CodingTable.from_dataframe(df)),
                    lambda: krippendorff_long(df)))
    if "wide" in wanted:
        wide = df.pivot(index="coder", columns="unit", values="value")
        out.append(("wide", lambda: nominal(CodingTable.from_dataframe(wide, layout="wide")),
                    lambda: krippendorff_wide(wide)))
    if "records" in wanted and kind == "object":
        records = list(df.itertuples(index=False, name=None))
        out.append(("records", lambda: nominal(CodingTable.from_records(records)),
                    lambda: krippendorff_long(pd.DataFrame(records, columns=list(df.columns)))))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--shapes", default="2x5,3x5,3x10,3x20,10x5,20x5",
                        help="CODERSxLABELS, comma-separated (default: %(default)s)")
    parser.add_argument("--kinds", default="object,category,number",
                        help="value columns to try: object (strings), category, number "
                             "(default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--entries", default="long,wide,records",
                        help="entries to time: long, wide, records (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-gb", type=float, default=4.0,
                        help="skip krippendorff where its units x labels x labels array would "
                             "pass this many GB (default: %(default)s)")
    parser.add_argument("--out", type=Path, help="directory for bench_dataframe.txt")
    args = parser.parse_args(argv)
    shapes = [tuple(int(x) for x in s.split("x")) for s in args.shapes.split(",")]
    kinds = args.kinds.split(",")
    wanted = args.entries.split(",")
    failed = False
    with printed_to(args.out, "bench_dataframe.txt"):
        print(f"rows {args.rows:,}, best of {args.repeat}; times in seconds")
        print(f"{'entry':>7} {'coders':>6} {'labels':>6} {'columns':>8} {'clusteragree':>12} "
              f"{'krippendorff':>12} {'ratio':>6}")
        for coders, n_values in shapes:
            for kind in kinds:
                df = frame(args.rows, coders, n_values, kind, args.seed)
                for entry, ours, theirs in entries(df, kind, wanted):
                    columns = "tuples" if entry == "records" else kind
                    head = f"{entry:>7} {coders:>6} {n_values:>6} {columns:>8}"
                    t_ours, a_ours = best(ours, args.repeat)
                    units = args.rows // coders
                    if units * n_values * n_values * 8 > args.max_gb * 1e9:
                        print(f"{head} {t_ours:>12.3f} {'(skipped)':>12} {'':>6}")
                        continue
                    t_theirs, a_theirs = best(theirs, args.repeat)
                    print(f"{head} {t_ours:>12.3f} {t_theirs:>12.3f} {t_theirs / t_ours:>5.1f}x")
                    if abs(a_ours - a_theirs) > 1e-9:
                        print(f"  the two alphas differ: {a_ours!r} and {a_theirs!r}")
                        failed = True
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"peak memory of the run {peak:.0f} MB")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
