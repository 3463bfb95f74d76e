"""The contingency table of two partitions, three ways: sorted packed keys (what the linear
engine and the coreference metrics use), hashed packed keys, and numpy's unique.

The data are those of ``scripts/bench_alpha.py`` (two coders' class ids over N units, classes
within documents of 500 units, 15% of units moved, 2% missing). Each way counts, for every pair
of classes that share a unit, how many units they share; the script checks that the three give
the same table, then prints the best of ``--repeat`` times and the ratios to the sorted way.

* sort: ``clusteragree.core.crosstab.contingency``: keys ``class_a * K + class_b`` packed in one
  int64 per unit, sorted in place, runs read off;
* hash: the same packed keys counted through ``pandas.factorize`` and ``numpy.bincount`` (a
  hash table, then a sort of the distinct keys to give the same order);
* unique: ``numpy.unique(..., return_counts=True)`` on the packed keys (a sort on a copy).

Usage::

    python scripts/bench_choices.py [--sizes 1e5,1e6,1e7] [--repeat 3] [--out DIR]

With ``--out DIR`` the table also goes to ``DIR/bench_choices.txt``; nothing else is written.
"""

from __future__ import annotations

import argparse
import resource
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _cli import best, printed_to
from bench_alpha import make_clusterings

from clusteragree.core.crosstab import contingency


def by_sorting(a: np.ndarray, b: np.ndarray, kb: int) -> tuple[np.ndarray, np.ndarray]:
    i, j, k, _ = contingency(a, b, kb)
    return i * kb + j, k


def by_hashing(a: np.ndarray, b: np.ndarray, kb: int) -> tuple[np.ndarray, np.ndarray]:
    key = a * kb + b
    codes, uniq = pd.factorize(key)
    counts = np.bincount(codes, minlength=len(uniq)).astype(np.float64)
    order = np.argsort(uniq)
    return np.asarray(uniq)[order], counts[order]


def by_unique(a: np.ndarray, b: np.ndarray, kb: int) -> tuple[np.ndarray, np.ndarray]:
    keys, counts = np.unique(a * kb + b, return_counts=True)
    return keys, counts.astype(np.float64)


WAYS: dict[str, Callable[[np.ndarray, np.ndarray, int], tuple[np.ndarray, np.ndarray]]] = {
    "sort": by_sorting, "hash": by_hashing, "unique": by_unique}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1e5,1e6,1e7",
                        help="numbers of units, comma-separated (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", type=Path, help="directory for bench_choices.txt")
    args = parser.parse_args(argv)
    sizes = [int(float(s)) for s in args.sizes.split(",")]
    failed = False
    with printed_to(args.out, "bench_choices.txt"):
        print(f"contingency table of two partitions, best of {args.repeat}; times in seconds")
        print(f"{'units':>10} {'pairs':>9} " + " ".join(f"{w:>8}" for w in WAYS)
              + f" {'hash/sort':>9} {'unique/sort':>11}")
        for n in sizes:
            a, b = make_clusterings(n)
            both = b >= 0
            a, b = a[both], b[both]
            kb = int(b.max()) + 1
            times, results = {}, {}
            for name, way in WAYS.items():
                times[name], results[name] = best(
                    lambda way=way, a=a, b=b, kb=kb: way(a, b, kb), args.repeat)
            keys, counts = results["sort"]
            for name in ("hash", "unique"):
                other_keys, other_counts = results[name]
                if not (np.array_equal(keys, other_keys) and np.array_equal(counts,
                                                                            other_counts)):
                    print(f"  {name} gives another table than sort")
                    failed = True
            print(f"{n:>10,} {len(keys):>9,} " + " ".join(f"{times[w]:>8.3f}" for w in WAYS)
                  + f" {times['hash'] / times['sort']:>8.1f}x"
                  + f" {times['unique'] / times['sort']:>10.1f}x")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"peak memory of the run {peak:.0f} MB")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
