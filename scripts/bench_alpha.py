"""Benchmark: alpha on class-derived values, clusteragree against NLTK, then alone up to 10^7 units.

Two coders partition N units (tokens) into classes; a unit's value is its class minus itself.
Coder A's classes have geometric sizes (mean about 1.5, many singletons) and lie within
documents of 500 units, as coreference chains and pyramid SCUs do; coder B moves 15% of the
units to another class of the same document and leaves 2% uncoded (missing).

Part 1 times NLTK's ``AnnotationTask(distance=masi).alpha()`` (CPU seconds, one run) against
clusteragree (``from_clusterings`` + alpha, best of several runs) at 1,000, 2,000 and 4,000
units, checks that both give the same alpha, and prints the ratio. NLTK's ``masi_distance``
divides by zero on two empty sets (two singletons), so it is wrapped to return 0 there, the
value clusteragree defines.

Part 2 runs clusteragree alone at 10^4 .. 10^7 units, nominal, Jaccard and MASI together, each
size in a fresh process: seconds (table + statistics + three alphas; data generation excluded),
peak resident memory of that process, and the growth exponent (slope of log time on log N).

Usage: ``python scripts/bench_alpha.py [--skip-nltk] [--max-exp 7]``
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench_runs import class_ids
from _cli import printed_to


def make_clusterings(n: int, seed: int = 12345) -> tuple[np.ndarray, np.ndarray]:
    """Class ids of two coders over n units (B: -1 where missing); the data of bench.py."""
    a, b = class_ids(n, 2, seed)
    return a, b


def clusteragree_run(a: np.ndarray, b: np.ndarray, distances: list[str]) -> list[float]:
    from clusteragree import CodingTable, alpha_many

    table = CodingTable.from_clusterings({"A": a, "B": b})
    return [r.alpha for r in alpha_many(table, distances)]


def nltk_part(sizes: list[int]) -> None:
    from nltk.metrics.agreement import AnnotationTask
    from nltk.metrics.distance import masi_distance

    from clusteragree import CodingTable

    def masi(x: frozenset, y: frozenset) -> float:
        return 0.0 if not x and not y else masi_distance(x, y)

    print("Part 1: NLTK AnnotationTask(distance=masi).alpha() vs clusteragree (masi)")
    print(f"{'units':>7} {'labels':>7} {'nltk s':>9} {'ours s':>9} {'ratio':>9} {'|diff|':>9}")
    for n in sizes:
        a, b = make_clusterings(n)
        records = list(CodingTable.from_clusterings({"A": a, "B": b}).records())
        start = time.process_time()
        task = AnnotationTask(data=records, distance=masi)
        nltk_alpha = task.alpha()
        nltk_s = time.process_time() - start
        clusteragree_run(a, b, ["masi"])  # warm up: imports and first calls
        runs = []
        for _ in range(7):
            start = time.process_time()
            ours = clusteragree_run(a, b, ["masi"])[0]
            runs.append(time.process_time() - start)
        ours_s = min(runs)
        labels = len({v for _, _, v in records})
        print(f"{n:>7} {labels:>7} {nltk_s:>9.3f} {ours_s:>9.5f} {nltk_s / ours_s:>9.0f} "
              f"{abs(nltk_alpha - ours):>9.1e}", flush=True)


def one_size(n: int) -> dict[str, float]:
    small_a, small_b = make_clusterings(100)  # imports (the package loads lazily) and first
    clusteragree_run(small_a, small_b, ["nominal", "jaccard", "masi"])  # calls: not measured
    a, b = make_clusterings(n)
    start = time.perf_counter()
    values = clusteragree_run(a, b, ["nominal", "jaccard", "masi"])
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2  # KiB -> GiB
    return {"n": n, "seconds": seconds, "peak_gib": peak, "alphas": values}


def scale_part(max_exp: int) -> None:
    print("\nPart 2: clusteragree alone, nominal + jaccard + masi, each size in a fresh process")
    print(f"{'units':>10} {'seconds':>9} {'peak GiB':>9} {'local exp':>9}  alphas")
    rows = []
    for exp in range(4, max_exp + 1):
        n = 10**exp
        out = subprocess.run([sys.executable, __file__, "--one", str(n)], capture_output=True,
                             text=True, check=True).stdout
        row = json.loads(out.strip().splitlines()[-1])
        local = ""
        if rows:
            local = f"{math.log(row['seconds'] / rows[-1]['seconds']) / math.log(10):9.2f}"
        rows.append(row)
        alphas = ", ".join(f"{x:.4f}" for x in row["alphas"])
        print(f"{n:>10} {row['seconds']:>9.3f} {row['peak_gib']:>9.3f} {local:>9}  {alphas}",
              flush=True)
    for lo in (0, 1):
        pts = rows[lo:]
        if len(pts) >= 2:
            x = np.log10([r["n"] for r in pts])
            y = np.log10([r["seconds"] for r in pts])
            slope = np.polyfit(x, y, 1)[0]
            print(f"growth exponent (least squares, 10^{4 + lo} to 10^{max_exp}): {slope:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-nltk", action="store_true")
    parser.add_argument("--max-exp", type=int, default=7)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help="also write the report to DIR/bench_alpha.txt")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_size(args.one)))
        return
    with printed_to(args.out, "bench_alpha.txt"):
        if not args.skip_nltk:
            nltk_part([1000, 2000, 4000])
        scale_part(args.max_exp)


if __name__ == "__main__":
    main()
