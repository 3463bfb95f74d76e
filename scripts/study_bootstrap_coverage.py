"""How often do the bootstrap intervals of alpha contain the true alpha? A simulation study.

Data come from a known generating model, so the population alpha is known exactly. Each unit
has a true category drawn from ``p``; each coder reports it with probability ``q`` and otherwise
a category drawn from ``p`` (which may be the true one by chance). The values' marginals are
then ``p`` and, for nominal alpha,

    D_e = 1 - sum_c p_c^2,
    D_o = 1 - sum_c p_c [ (q + (1 - q) p_c)^2 + sum_{d != c} ((1 - q) p_d)^2 ],

so the population alpha is ``1 - D_o / D_e``. Two designs:

* ``units``: every unit independent, accuracy ``q`` fixed; intervals resample units, or draw
  pairs of values from the coincidences as Krippendorff's KALPHA does;
* ``documents``: units come in documents of ``--doc-size`` units, each document with its own
  accuracy drawn uniformly from ``q +- --spread`` (some texts are harder); intervals resample
  units (wrong: the units of a document are not independent), documents, or pairs of values
  (KALPHA).

For each design and size, ``--datasets`` data sets are drawn; from the same ``--bootstrap``
resamples of each, a ``--level`` percentile interval and a BCa interval (bias-corrected and
accelerated: Efron 1987) are computed (KALPHA's draws: percentile only, as the macro does), and
the share of intervals containing the population alpha is reported with its Monte Carlo
standard error, with the intervals' mean width and the shares that miss the population alpha
on either side. ``--accuracy`` sets q (0.7 by default; 0.9 gives alpha near 0.85, where the
resamples' distribution is skewed). Usage::

    python scripts/study_bootstrap_coverage.py [--datasets 500] [--bootstrap 1000]
        [--sizes 20,50,200,1000] [--coders 2,3] [--accuracy 0.7] [--out FILE | --docs]

``--docs`` writes docs/reproduction/bootstrap_coverage.md (with ``--accuracy`` other than
0.7, docs/reproduction/bootstrap_coverage_q0.9.md and the like); nothing is written otherwise.
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from clusteragree import CodingTable
from clusteragree.core.bootstrap import Bootstrap, block_stats, bootstrap_alpha
from clusteragree.core.coincidence_bootstrap import krippendorff_bootstrap
from clusteragree.core.intervals import bootstrap_interval

P = np.array([0.4, 0.3, 0.2, 0.1])


def both(b: Bootstrap, level: float) -> dict[str, tuple[float, float]]:
    """The percentile and BCa intervals of one bootstrap (the same resamples)."""
    found = bootstrap_interval(b.alphas, level, "percentile")
    return {"percentile": (found.low, found.high), "BCa": b.ci}


def recorder(rows: dict[tuple[str, str, str], list[tuple[float, float, float]]]) -> Any:
    """A function adding an interval and the population alpha to ``rows``."""

    def record(design: str, resampled: str, method: str, bounds: tuple[float, float],
               truth: float) -> None:
        rows.setdefault((design, resampled, method), []).append((bounds[0], bounds[1], truth))

    return record


def population_alpha(p: np.ndarray, qs: np.ndarray) -> float:
    """Nominal alpha of the model, the accuracy ``q`` averaged over ``qs`` (equally likely)."""
    same = 0.0
    for q in qs:
        for c, pc in enumerate(p):
            others = sum(((1 - q) * pd) ** 2 for d, pd in enumerate(p) if d != c)
            same += pc * ((q + (1 - q) * pc) ** 2 + others) / len(qs)
    d_e = 1.0 - float(p @ p)
    return 1.0 - (1.0 - same) / d_e


def draw(rng: np.random.Generator, units: int, coders: int, q: np.ndarray) -> np.ndarray:
    """Coders x units of category codes; ``q`` the accuracy of each unit."""
    truth = rng.choice(len(P), size=units, p=P)
    noise = rng.choice(len(P), size=(coders, units), p=P)
    keep = rng.random((coders, units)) < q[None, :]
    return np.where(keep, truth[None, :], noise)


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", type=int, default=500)
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--sizes", default="20,50,200,1000", help="units per data set")
    parser.add_argument("--coders", default="2,3",
                        help="coders per unit, comma-separated (default: %(default)s)")
    parser.add_argument("--accuracy", type=float, default=0.7,
                        help="q, each coder's chance of the true category (default: "
                        "%(default)s)")
    parser.add_argument("--level", type=float, default=0.95)
    parser.add_argument("--doc-size", type=int, default=10)
    parser.add_argument("--spread", type=float, default=0.25)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, help="write the report to this file")
    parser.add_argument("--docs", action="store_true",
                        help="write docs/reproduction/bootstrap_coverage.md")
    args = parser.parse_args()
    q_mean = args.accuracy
    spread = min(args.spread, 1.0 - q_mean)  # accuracies stay within [0, 1]
    target = Path(__file__).resolve().parent.parent / "docs" / "reproduction"
    name = ("bootstrap_coverage.md" if q_mean == 0.7
            else f"bootstrap_coverage_q{q_mean:g}.md")
    out = args.out or (target / name if args.docs else None)
    sizes = [int(s) for s in args.sizes.split(",")]
    rng = np.random.default_rng(args.seed)
    fixed = population_alpha(P, np.array([q_mean]))
    grid = np.linspace(q_mean - spread, q_mean + spread, 201)
    varying = population_alpha(P, grid)
    start = time.perf_counter()
    lines = [
        "# Coverage of the bootstrap intervals of alpha",
        "",
        f"Made by `python scripts/study_bootstrap_coverage.py --datasets {args.datasets} "
        f"--bootstrap {args.bootstrap} --sizes {args.sizes} --coders {args.coders} "
        f"--accuracy {q_mean:g}` (seed {args.seed}). Categories p = {P.tolist()}, accuracy "
        f"q = {q_mean:g}; documents of {args.doc_size} units with q uniform in "
        f"[{q_mean - spread:.2f}, {q_mean + spread:.2f}]. Population alpha: {fixed:.4f} "
        f"(fixed q), {varying:.4f} (varying q). Nominal {args.level:.0%} intervals, percentile "
        "and BCa from the same resamples (KALPHA's pairs of values: percentile, as the macro "
        "computes it); coverage is the share of data sets whose interval contains the "
        "population alpha (Monte Carlo standard error in brackets); misses low and high: the "
        "shares whose interval lies wholly below or above it.",
        "",
        "| coders | design | units | resampled | interval | coverage | mean width "
        "| misses low | misses high |",
        "|---:|---|---:|---|---|---:|---:|---:|---:|",
    ]
    for coders, units in [(c, u) for c in (int(x) for x in args.coders.split(","))
                          for u in sizes]:
        rows: dict[tuple[str, str, str], list[tuple[float, float, float]]] = {}
        record = recorder(rows)

        for _ in range(args.datasets):
            seed = int(rng.integers(0, 2**31))
            q = np.full(units, q_mean)
            table = CodingTable(list(range(coders)), range(units),
                                codes=draw(rng, units, coders, q), values=list(range(4)))
            stats = block_stats(table)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                b = bootstrap_alpha(stats, "nominal", n=args.bootstrap, level=args.level,
                                    seed=seed, interval="bca")
                k = krippendorff_bootstrap(stats, "nominal", n=args.bootstrap,
                                           level=args.level, seed=seed)
            for method, bounds in both(b, args.level).items():
                record("independent units", "units", method, bounds, fixed)
            record("independent units", "pairs of values (KALPHA)", "percentile", k.ci, fixed)
            n_docs = max(2, units // args.doc_size)
            doc_q = rng.uniform(q_mean - spread, q_mean + spread, n_docs)
            q = np.repeat(doc_q, args.doc_size)[:units]
            q = np.pad(q, (0, units - len(q)), mode="edge")
            codes = draw(rng, units, coders, q)
            doc_of = np.minimum(np.arange(units) // args.doc_size, n_docs - 1)
            parts = [block_stats(CodingTable(list(range(coders)),
                                             np.flatnonzero(doc_of == d),
                                             codes=codes[:, doc_of == d],
                                             values=list(range(4))))
                     for d in range(n_docs)]
            by_units = sum(parts[1:], parts[0])
            by_docs = sum((p.collapse(d) for d, p in enumerate(parts) if len(p.blocks)),
                          start=0)
            for name, stats_, resample in (("units", by_units, "units"),
                                           ("documents", by_docs, "documents")):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    b = bootstrap_alpha(stats_, "nominal", n=args.bootstrap, level=args.level,
                                        seed=seed, resample=resample, interval="bca")
                for method, bounds in both(b, args.level).items():
                    record("documents", name, method, bounds, varying)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                k = krippendorff_bootstrap(by_units, "nominal", n=args.bootstrap,
                                           level=args.level, seed=seed)
            record("documents", "pairs of values (KALPHA)", "percentile", k.ci, varying)
        for (design, resampled, method), found in rows.items():
            low, high, truth = (np.array(x) for x in zip(*found, strict=True))
            hit = ((low <= truth) & (truth <= high)).astype(float)
            se = float(np.sqrt(hit.mean() * (1 - hit.mean()) / len(hit)))
            lines.append(f"| {coders} | {design} | {units} | {resampled} | {method} | "
                         f"{hit.mean():.3f} ({se:.3f}) | {float(np.mean(high - low)):.3f} | "
                         f"{float(np.mean(high < truth)):.3f} | "
                         f"{float(np.mean(low > truth)):.3f} |")
        print("\n".join(lines[-len(rows):]), flush=True)
    lines += ["", f"Run time {time.perf_counter() - start:.0f} s."]
    print("\n".join(lines))
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
