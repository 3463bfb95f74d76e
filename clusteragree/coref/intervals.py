"""Bootstrap intervals for the coreference metrics, resampling whole documents (percentile or
BCa, :mod:`clusteragree.core.intervals`).

The corpus scores are micro-averages: every metric sums its numerators and denominators over
documents (BLANC its link counts). A resample of documents is therefore a reweighting of the
per-document counts, and the score of a resample is computed from the reweighted sums exactly
as the corpus score is from the plain sums; the CoNLL score is the mean of the MUC, B-cubed and
CEAFe F1 of the same resample.

References
----------
Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.
Pradhan, S., Luo, X., Recasens, M., Hovy, E., Ng, V. & Strube, M. (2014). Scoring coreference
partitions of predicted mentions: a reference implementation. Proceedings of ACL 2014.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from ..core.intervals import (
    DEFAULT_INTERVAL,
    bootstrap_interval,
    check_interval,
    check_resamples,
    outside_note,
)
from ..errors import ParameterError, ParameterTypeError, notify
from .model import CONLL_AVERAGE

__all__ = ["metric_intervals", "reweighted"]

FloatArray = npt.NDArray[np.float64]

#: Fewer documents than this get a note that the intervals are rough.
FEW_DOCUMENTS = 20

_RATIO = ("recall_num", "recall_den", "precision_num", "precision_den")
_BLANC = ("c_key", "c_resp", "c_both", "n_key", "n_resp", "n_both")


def _ratio(num: FloatArray, den: FloatArray) -> FloatArray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)


def _f1(r: FloatArray, p: FloatArray) -> FloatArray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(r + p > 0, 2 * r * p / np.where(r + p > 0, r + p, 1.0), 0.0)


def _blanc(s: FloatArray) -> FloatArray:
    """BLANC F of summed counts, rows of (c_key, c_resp, c_both, n_key, n_resp, n_both)."""
    c_key, c_resp, c_both, n_key, n_resp, n_both = s.T
    fc = _f1(_ratio(c_both, c_key), _ratio(c_both, c_resp))
    fn = _f1(_ratio(n_both, n_key), _ratio(n_both, n_resp))
    return np.where((c_key == 0) & (n_key == 0), 0.0,
                    np.where(c_key == 0, fn, np.where(n_key == 0, fc, (fc + fn) / 2)))


def reweighted(per_document: pd.DataFrame, weights: npt.ArrayLike
               ) -> dict[tuple[Any, Any, str], tuple[float, FloatArray]]:
    """Each pair's and metric's F1 with every document counted as often as its weight.

    Parameters
    ----------
    per_document : DataFrame
        Per-document rows of :func:`~clusteragree.coref.coref_metrics` (``document`` set).
    weights : array, shape (k, documents)
        One row per resample, documents in the order they first appear.

    Returns
    -------
    dict
        ``(key, response, metric)`` to (the corpus F1, the F1 of each row of weights).

    References
    ----------
    Pradhan, S. et al. (2014). Scoring coreference partitions of predicted mentions: a
    reference implementation. Proceedings of ACL 2014 (micro-averaged counts).

    Examples
    --------
    >>> rows = [{"key": "a", "response": "b", "document": d, "metric": "muc",
    ...          "recall_num": 1.0, "recall_den": 2.0, "precision_num": 1.0,
    ...          "precision_den": den} for d, den in (("d1", 1.0), ("d2", 2.0))]
    >>> point, values = reweighted(pd.DataFrame(rows), [[2, 0], [0, 2]])["a", "b", "muc"]
    >>> round(point, 4), [round(float(v), 4) for v in values]
    (0.5714, [0.6667, 0.5])
    """
    docs = per_document[per_document["document"].notna()]
    names = list(dict.fromkeys(docs["document"]))
    position = {d: i for i, d in enumerate(names)}
    w = np.asarray(weights, dtype=np.float64)
    out: dict[tuple[Any, Any, str], tuple[float, FloatArray]] = {}
    for (key, response), pair in docs.groupby(["key", "response"], sort=False):
        f1s: dict[str, FloatArray] = {}
        points: dict[str, float] = {}
        for metric, part in pair.groupby("metric", sort=False):
            if metric == "conll":
                continue
            order = part["document"].map(position).to_numpy()
            columns = _BLANC if metric == "blanc" else _RATIO
            counts = np.zeros((len(names), len(columns)))
            counts[order] = part[list(columns)].to_numpy(dtype=float)
            sums = w @ counts
            total = counts.sum(axis=0, keepdims=True)
            if metric == "blanc":
                f1s[str(metric)], point = _blanc(sums), float(_blanc(total)[0])
            else:
                f1s[str(metric)] = _f1(_ratio(sums[:, 0], sums[:, 1]),
                                       _ratio(sums[:, 2], sums[:, 3]))
                point = float(_f1(_ratio(total[:, 0], total[:, 1]),
                                  _ratio(total[:, 2], total[:, 3]))[0])
            points[str(metric)] = point
        if all(m in f1s for m in CONLL_AVERAGE) and "conll" in set(pair["metric"]):
            f1s["conll"] = np.mean([f1s[m] for m in CONLL_AVERAGE], axis=0)
            points["conll"] = float(np.mean([points[m] for m in CONLL_AVERAGE]))
        for metric, values in f1s.items():
            out[key, response, metric] = (points[metric], values)
    return out


#: Resamples of documents reweighted at once (their weights: resamples x documents floats).
CHUNK_CELLS = 1 << 22

COLUMNS = ["key", "response", "metric", "f1", "ci_low", "ci_high", "se", "documents",
           "ci_level", "ci_method", "ci_note"]


def metric_intervals(per_document: pd.DataFrame, *, n: int = 1000, level: float = 0.95,
                     seed: int | None = None, interval: str = DEFAULT_INTERVAL
                     ) -> pd.DataFrame:
    """Bootstrap intervals of every pooled F1 over documents drawn with replacement.

    Parameters
    ----------
    per_document : DataFrame
        :func:`~clusteragree.coref.coref_metrics` with ``per_document=True`` (rows with a
        ``document`` hold each document's counts).
    n : int, default=1000
        Resamples.
    level : float, default=0.95
        Confidence level.
    seed : int, optional
        Seed of numpy's default generator; the same documents are drawn for every pair of
        annotators and every metric.
    interval : {"bca", "percentile"}, default=DEFAULT_INTERVAL
        BCa (the acceleration from the jackknife over documents, each left out in turn) or
        percentile (:func:`~clusteragree.core.intervals.bootstrap_interval`).

    Returns
    -------
    DataFrame
        One row per ``key``, ``response`` and ``metric`` (``conll`` included when its three
        metrics are there): ``f1`` (the corpus score), ``ci_low``, ``ci_high``, ``se``,
        ``documents``, ``ci_level``, ``ci_method`` (``percentile`` where BCa is not usable on
        those resamples) and ``ci_note`` (why the score lies outside its interval, when it
        does; also a ``note`` in the warnings). With one document there is nothing to
        resample: the bounds are NaN and a ``note`` says so.

    Raises
    ------
    ParameterError
        No per-document rows; a bad level, number of resamples (also one whose values would
        not fit in memory) or interval.

    References
    ----------
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.
    Efron, B. (1987). Better bootstrap confidence intervals. JASA 82(397), 171-185.

    Examples
    --------
    Two documents whose MUC counts are (recall 1/2, precision 1/1) and (1/2, 1/2): a resample
    is one of (d1, d1), (d1, d2), (d2, d2), with MUC F1 2/3, 4/7 and 1/2; the interval lies
    within [1/2, 2/3].

    >>> rows = [{"key": "a", "response": "b", "document": d, "metric": "muc",
    ...          "recall_num": 1.0, "recall_den": 2.0, "precision_num": 1.0,
    ...          "precision_den": den, "f1": None} for d, den in (("d1", 1.0), ("d2", 2.0))]
    >>> out = metric_intervals(pd.DataFrame(rows), n=200, seed=3, interval="percentile")
    >>> low, high = float(out.loc[0, "ci_low"]), float(out.loc[0, "ci_high"])
    >>> 0.5 <= low <= high <= 2 / 3, round(float(out.loc[0, "f1"]), 4)
    (True, 0.5714)
    """
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
        raise ParameterTypeError(f"level must be between 0 and 1. Got {level!r}.",
                                 params=("ci",))
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ParameterTypeError(f"n must be a whole number of at least 2. Got {n!r}.",
                                 params=("bootstrap",))
    check_interval(interval)
    if "document" not in per_document:
        raise ParameterError("metric intervals need the per-document counts "
                             "(coref_metrics(..., per_document=True))")
    docs = per_document[per_document["document"].notna()]
    names = list(dict.fromkeys(docs["document"]))
    statistics = docs[["key", "response", "metric"]].drop_duplicates()
    check_resamples(int(n), len(statistics))
    points = reweighted(docs, np.ones((1, len(names))))
    if len(names) < 2:
        shown = list(dict.fromkeys(str(m) for *_, m in points))
        notify("note", f"the intervals of the coreference metrics ({', '.join(shown)}) "
               f"resample documents, and there {'is one' if names else 'is none'}: they have "
               "no interval (alpha's interval resamples the units of the document)")
        return pd.DataFrame([{"key": k, "response": r, "metric": m, "f1": p,
                              "ci_low": np.nan, "ci_high": np.nan, "se": np.nan,
                              "documents": len(names), "ci_level": float(level),
                              "ci_method": None, "ci_note": None}
                             for (k, r, m), (p, _) in points.items()], columns=COLUMNS)
    if len(names) < FEW_DOCUMENTS:
        notify("note", f"the intervals of the coreference metrics resample {len(names)} "
               "documents: with so few, they are rough, and too narrow with a handful "
               "(docs/uncertainty.md)")
    rng = np.random.default_rng(seed)
    chunk = max(1, CHUNK_CELLS // len(names))
    drawn: dict[tuple[Any, Any, str], list[FloatArray]] = {}
    for start in range(0, n, chunk):
        k = min(chunk, n - start)
        weights = np.stack([np.bincount(rng.integers(0, len(names), len(names)),
                                        minlength=len(names)) for _ in range(k)]).astype(float)
        for key, (_, values) in reweighted(docs, weights).items():
            drawn.setdefault(key, []).append(values)
    jackknife: dict[tuple[Any, Any, str], list[FloatArray]] = {}
    if interval == "bca":  # each document left out in turn
        for start in range(0, len(names), chunk):
            left = np.ones((min(chunk, len(names) - start), len(names)))
            left[np.arange(len(left)), start + np.arange(len(left))] = 0.0
            for key, (_, values) in reweighted(docs, left).items():
                jackknife.setdefault(key, []).append(values)
    rows: list[dict[str, Any]] = []
    for key, parts in drawn.items():
        values = np.concatenate(parts)
        point = points[key][0]
        found = bootstrap_interval(values, level, interval, estimate=point,
                                   jackknife=(np.concatenate(jackknife[key])
                                              if interval == "bca" else None))
        note = outside_note(point, found, values, blocks=len(names), what="documents")
        if note:
            notify("note", f"{key[0]} against {key[1]}, {key[2]}: {note} "
                   "(docs/uncertainty.md)")
        rows.append({"key": key[0], "response": key[1], "metric": key[2], "f1": point,
                     "ci_low": found.low, "ci_high": found.high,
                     "se": float(np.std(values, ddof=1)), "documents": len(names),
                     "ci_level": float(level), "ci_method": found.method, "ci_note": note})
    return pd.DataFrame(rows, columns=COLUMNS)
