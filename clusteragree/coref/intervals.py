"""Bootstrap intervals for the coreference metrics, resampling whole documents.

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

from ..errors import ParameterError, ParameterTypeError
from .model import CONLL_AVERAGE

__all__ = ["metric_intervals", "reweighted"]

FloatArray = npt.NDArray[np.float64]

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


def metric_intervals(per_document: pd.DataFrame, *, n: int = 1000, level: float = 0.95,
                     seed: int | None = None) -> pd.DataFrame:
    """Percentile intervals of every pooled F1 over documents drawn with replacement.

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

    Returns
    -------
    DataFrame
        One row per ``key``, ``response`` and ``metric`` (``conll`` included when its three
        metrics are there): ``f1`` (the corpus score), ``ci_low``, ``ci_high``, ``se``,
        ``documents``.

    Raises
    ------
    ParameterError
        Fewer than two documents, or no per-document rows.

    References
    ----------
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.

    Examples
    --------
    Two documents whose MUC counts are (recall 1/2, precision 1/1) and (1/2, 1/2): a resample
    is one of (d1, d1), (d1, d2), (d2, d2), with MUC F1 2/3, 4/7 and 1/2; the interval lies
    within [1/2, 2/3].

    >>> rows = [{"key": "a", "response": "b", "document": d, "metric": "muc",
    ...          "recall_num": 1.0, "recall_den": 2.0, "precision_num": 1.0,
    ...          "precision_den": den, "f1": None} for d, den in (("d1", 1.0), ("d2", 2.0))]
    >>> out = metric_intervals(pd.DataFrame(rows), n=200, seed=3)
    >>> low, high = float(out.loc[0, "ci_low"]), float(out.loc[0, "ci_high"])
    >>> 0.5 <= low <= high <= 2 / 3, round(float(out.loc[0, "f1"]), 4)
    (True, 0.5714)
    """
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
        raise ParameterTypeError(f"level must be between 0 and 1. Got {level!r}.")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ParameterTypeError(f"n must be a whole number of at least 2. Got {n!r}.")
    if "document" not in per_document:
        raise ParameterError("metric intervals need the per-document counts "
                             "(coref_metrics(..., per_document=True))")
    docs = per_document[per_document["document"].notna()]
    names = list(dict.fromkeys(docs["document"]))
    if len(names) < 2:
        raise ParameterError(f"a bootstrap over documents needs at least two; there are "
                             f"{len(names)}")
    rng = np.random.default_rng(seed)
    weights = np.stack([np.bincount(rng.integers(0, len(names), len(names)),
                                    minlength=len(names)) for _ in range(n)]).astype(float)
    tail = (1.0 - level) / 2.0
    rows: list[dict[str, Any]] = []
    for (key, response, metric), (point, values) in reweighted(docs, weights).items():
        low, high = np.quantile(values, [tail, 1.0 - tail])
        rows.append({"key": key, "response": response, "metric": metric, "f1": point,
                     "ci_low": float(low), "ci_high": float(high),
                     "se": float(np.std(values, ddof=1)), "documents": len(names)})
    return pd.DataFrame(rows, columns=["key", "response", "metric", "f1", "ci_low", "ci_high",
                                       "se", "documents"])
