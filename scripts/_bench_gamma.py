"""The gamma section of scripts/bench.py: the best alignment and gamma against
pygamma-agreement on its own test files, and realistic continua of many annotators.

Data (``params["data"]``): ``5by100`` (pygamma's tests/data/5by100.csv, copied under
corpora_fixtures/gamma/), ``2by5000`` (its tests/data/2by5000.csv, not in this repository:
``params["file"]``, from ``--pygamma-data DIR``), ``AlexPaulSuzan`` (the small fixture, for
``--quick``), and ``NxM``: N annotators derived from one seeded reference of M units
(:func:`reference_continuum`). Zero-length units are left out for both tools, since
pygamma-agreement discards them (2by5000 has two).

Both tools use the combined dissimilarity with alpha = 3, beta = 1, Δ = 1 (the Gamma
Software's and pygamma's tests' choice) and the paper's shuffled continua to a precision of
0.02: ours ``gamma(..., precision=0.02, jobs=None)`` (every core), pygamma's
``compute_gamma(dissim, sampler=ShuffleContinuumSampler(), precision_level=0.02)`` (its own
process pool). pygamma runs under its own interpreter (``--pygamma-python``).
"""

from __future__ import annotations

import csv
import warnings
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
from _bench_runs import ROOT, tool

FIXTURES = ROOT / "corpora_fixtures" / "gamma"
DISSIMILARITY = {"alpha": 3.0, "beta": 1.0, "delta_empty": 1.0}
PRECISION = 0.02


def reference_continuum(annotators: int, units: int, seed: int = 0
                        ) -> list[list[tuple[float, float, str]]]:
    """Annotators derived from one reference: ``units`` units of geometric lengths (mean 6)
    and gaps (mean 12) in 5 categories; each annotator misses 5% of them, moves each boundary
    by a rounded normal error (sd 1), swaps 10% of the categories and adds 5% units of its own
    at random places. Seeded."""
    rng = np.random.default_rng(seed)
    lengths = rng.geometric(1 / 6, units).astype(float)
    gaps = rng.geometric(1 / 12, units).astype(float)
    starts = np.cumsum(gaps + np.r_[0, lengths[:-1]])
    cats = rng.integers(0, 5, units)
    out = []
    for _ in range(annotators):
        keep = rng.random(units) >= 0.05
        s = starts[keep] + np.round(rng.normal(0, 1, keep.sum()))
        e = np.maximum(starts[keep] + lengths[keep] + np.round(rng.normal(0, 1, keep.sum())),
                       s + 1)
        c = cats[keep].copy()
        swap = rng.random(len(c)) < 0.1
        c[swap] = rng.integers(0, 5, swap.sum())
        extra = rng.binomial(units, 0.05)
        xs = rng.uniform(0, starts[-1], extra).round()
        s = np.r_[s, xs]
        e = np.r_[e, xs + rng.geometric(1 / 6, extra)]
        c = np.r_[c, rng.integers(0, 5, extra)]
        order = np.argsort(s, kind="stable")
        out.append([(float(s[i]), float(e[i]), f"c{c[i]}") for i in order])
    return out


def read_pygamma_csv(path: Path) -> list[list[tuple[float, float, str]]]:
    """pygamma's CSV (annotator, category, start, end), annotators in sorted order."""
    units: dict[str, list[tuple[float, float, str]]] = defaultdict(list)
    with open(path, newline="") as handle:
        for row in csv.reader(handle):
            units[row[0]].append((float(row[2]), float(row[3]), row[1]))
    return [sorted(units[k]) for k in sorted(units)]


def units_of(n: int, params: dict[str, Any]) -> list[list[tuple[float, float, str]]]:
    """The continuum of a case (``n`` 1: the warm-up's small one), zero-length units left
    out."""
    data = "AlexPaulSuzan" if n == 1 else params["data"]
    if data in ("5by100", "AlexPaulSuzan"):
        found = read_pygamma_csv(FIXTURES / f"{data}.csv")
    elif data == "2by5000":
        found = read_pygamma_csv(Path(params["file"]))
    else:
        annotators, size = (int(x) for x in data.split("x"))
        found = reference_continuum(annotators, size)
    return [[u for u in units if u[1] > u[0]] for units in found]


def _prepared(n: int, params: dict[str, Any]) -> dict[str, Any]:
    return {"units": units_of(n, params), "kind": params.get("kind", "gamma"),
            "cap": params.get("max_candidates")}


@tool("gamma", "clusteragree", _prepared)
def ours_gamma(data: dict[str, Any]) -> dict[str, Any]:
    """Ours; a continuum refused for its candidates (more than ``max_candidates`` in a group)
    gives the refusal instead of a value."""
    from clusteragree.core.alignment import MAX_CANDIDATES, best_alignment
    from clusteragree.core.gamma import gamma
    from clusteragree.errors import ParameterError

    cap = data["cap"] or MAX_CANDIDATES
    try:
        if data["kind"] == "alignment":
            found = best_alignment(data["units"], **DISSIMILARITY, max_candidates=cap)
            return {"value": found.disorder, "unitary": len(found.unitary)}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # gamma-k of a category with no pair, say
            r = gamma(data["units"], **DISSIMILARITY, precision=PRECISION, jobs=None,
                      max_candidates=cap)
    except ParameterError as refused:
        if "max_candidates" not in refused.params:
            raise
        return {"value": None, "refused": str(refused).split(";")[0]}
    return {"value": r.gamma, "expected": r.expected, "samples": r.n_samples,
            "unitary": len(r.alignment.unitary)}


def _pygamma(n: int, params: dict[str, Any]) -> dict[str, Any]:
    from pyannote.core import Segment
    from pygamma_agreement import Continuum

    continuum = Continuum()
    for a, units in enumerate(units_of(n, params)):
        for s, e, c in units:
            continuum.add(f"annotator_{a}", Segment(s, e), c)
    return {"continuum": continuum, "kind": params.get("kind", "gamma")}


@tool("gamma", "pygamma-agreement", _pygamma)
def pygamma_gamma(data: dict[str, Any]) -> dict[str, Any]:
    from importlib.metadata import version

    from pygamma_agreement import CombinedCategoricalDissimilarity
    from pygamma_agreement.sampler import ShuffleContinuumSampler

    dissim = CombinedCategoricalDissimilarity(**DISSIMILARITY)
    if data["kind"] == "alignment":
        found = data["continuum"].get_best_alignment(dissim)
        return {"value": float(found.disorder), "unitary": len(found.unitary_alignments),
                "version": version("pygamma-agreement")}
    r = data["continuum"].compute_gamma(dissim, sampler=ShuffleContinuumSampler(),
                                        precision_level=PRECISION)
    return {"value": float(r.gamma), "expected": float(r.expected_disorder),
            "samples": int(r.n_samples), "unitary": len(r.best_alignment.unitary_alignments),
            "version": version("pygamma-agreement")}
