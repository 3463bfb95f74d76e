"""Bootstrap intervals for peer annotation: annotators' mean pyramid scores and the
correlation of their scores, over peers drawn with replacement (percentile or BCa,
:mod:`clusteragree.core.intervals`).

A peer summary is the document of a pan study: each annotator scores every peer, and the
question is how far the annotators' scores agree (Pearson, Spearman) and what each annotator's
mean score is. Peers are drawn with replacement, the same draw for every annotator, so that the
pairs of scores stay together.

References
----------
Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.
Passonneau, R. J., Nenkova, A., McKeown, K. & Sigelman, S. (2005). Applying the pyramid method
in DUC 2005. Proceedings of the DUC 2005 workshop (annotators' scores compared by correlation).
"""

from __future__ import annotations

import warnings

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy import stats

from ..core.intervals import (
    DEFAULT_INTERVAL,
    INTERVALS,
    Interval,
    bootstrap_interval,
    check_interval,
    check_resamples,
)
from ..errors import ParameterTypeError

__all__ = ["resampled_correlations", "score_intervals"]

FloatArray = npt.NDArray[np.float64]


def resampled_correlations(a: npt.ArrayLike, b: npt.ArrayLike, draws: npt.ArrayLike
                           ) -> tuple[FloatArray, FloatArray]:
    """Pearson and Spearman correlations of ``a`` and ``b`` on each row of drawn positions.

    Parameters
    ----------
    a, b : arrays of float, one value per peer
        Two annotators' scores of the same peers.
    draws : int array, shape (k, peers)
        Positions drawn for each resample.

    Returns
    -------
    pearson, spearman : arrays of float, shape (k,)
        NaN where a resample's scores are constant for one annotator.

    References
    ----------
    Spearman's rho is Pearson's r of the ranks (ties get their mean rank).

    Examples
    --------
    Drawing peers 0, 1, 2 of scores (1, 2, 3) and (1, 3, 2): r = 0.5; drawing 0, 0, 2:
    (1, 1, 3) and (1, 1, 2) are perfectly correlated.

    >>> r, rho = resampled_correlations([1, 2, 3], [1, 3, 2], [[0, 1, 2], [0, 0, 2]])
    >>> r.round(4).tolist(), rho.round(4).tolist()
    ([0.5, 1.0], [0.5, 1.0])
    """
    x = np.asarray(a, dtype=np.float64)[np.asarray(draws)]
    y = np.asarray(b, dtype=np.float64)[np.asarray(draws)]

    def pearson(u: FloatArray, v: FloatArray) -> FloatArray:
        du, dv = u - u.mean(axis=1, keepdims=True), v - v.mean(axis=1, keepdims=True)
        den = np.sqrt((du * du).sum(axis=1) * (dv * dv).sum(axis=1))
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(den > 0, (du * dv).sum(axis=1) / np.where(den > 0, den, 1.0),
                            np.nan)

    return pearson(x, y), pearson(stats.rankdata(x, axis=1), stats.rankdata(y, axis=1))


def _leave_one_out(count: int) -> npt.NDArray[np.int64]:
    """Row i: every position but i (the jackknife's draws), shape (count, count - 1)."""
    every = np.tile(np.arange(count), (count, 1))
    return every[~np.eye(count, dtype=bool)].reshape(count, count - 1)


def score_intervals(scores: pd.DataFrame, *, n: int = 1000, level: float = 0.95,
                    seed: int | None = None, interval: str = DEFAULT_INTERVAL
                    ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Intervals of each annotator's mean score and of every pair's correlations.

    Parameters
    ----------
    scores : DataFrame
        The scores of :func:`~clusteragree.pyramids.pan_scores` (``peer``, ``annotator``,
        ``original``, ``modified``).
    n : int, default=1000
        Resamples of the peers.
    level : float, default=0.95
        Confidence level of the intervals.
    seed : int, optional
        Seed of numpy's default generator.
    interval : {"bca", "percentile"}, default=DEFAULT_INTERVAL
        BCa (the acceleration from the jackknife over peers, each left out in turn) or
        percentile (:func:`~clusteragree.core.intervals.bootstrap_interval`).

    Returns
    -------
    means : DataFrame
        ``annotator``, ``score`` (original or modified), ``mean``, ``ci_low``, ``ci_high``,
        ``peers``, ``ci_level``, ``ci_method``.
    correlations : DataFrame
        ``annotator_a``, ``annotator_b``, ``score``, ``peers``, then ``pearson_low``,
        ``pearson_high``, ``spearman_low``, ``spearman_high`` (over the peers both scored;
        resamples where a correlation is undefined are left out; NaN with fewer than three
        peers, where :func:`~clusteragree.pyramids.pan_scores` gives no correlation either),
        ``ci_level`` and ``ci_method`` (``percentile`` where BCa is not usable on one of the
        two; both methods, ``bca/percentile``, when they differ).

    References
    ----------
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.
    Efron, B. (1987). Better bootstrap confidence intervals. JASA 82(397), 171-185.

    Examples
    --------
    Two annotators give four peers the same scores: both are drawn on the same peers, so their
    means have the same interval, and their correlation is 1 in every resample where it is
    defined (a resample of one peer repeated has none).

    >>> scores = pd.DataFrame({"peer": [1, 2, 3, 4] * 2, "annotator": ["A"] * 4 + ["B"] * 4,
    ...                        "original": [0.2, 0.5, 0.7, 0.9] * 2,
    ...                        "modified": [0.1, 0.4, 0.6, 0.8] * 2})
    >>> means, corr = score_intervals(scores, n=100, seed=1)
    >>> means[["annotator", "score"]].values.tolist()[:2]
    [['A', 'original'], ['B', 'original']]
    >>> means.loc[0, ["ci_low", "ci_high"]].tolist() == means.loc[1, ["ci_low", "ci_high"]
    ...                                                           ].tolist()
    True
    >>> [round(float(corr.loc[0, c]), 6) for c in ("pearson_low", "pearson_high")]
    [1.0, 1.0]
    """
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
        raise ParameterTypeError(f"level must be between 0 and 1. Got {level!r}.",
                                 params=("ci",))
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ParameterTypeError(f"n must be a whole number of at least 2. Got {n!r}.",
                                 params=("bootstrap",))
    check_interval(interval)
    annotators = list(dict.fromkeys(scores["annotator"]))
    peers_count = int(scores["peer"].nunique()) if len(scores) else 0
    # what is held at once: the drawn positions of one pair, and the values of each statistic
    check_resamples(int(n), max(peers_count, 1) + 4 * len(annotators) ** 2)
    rng = np.random.default_rng(seed)
    means, corr = [], []

    def bounds(values: FloatArray, point: float, jackknife: FloatArray) -> Interval:
        return bootstrap_interval(values, level, interval, estimate=point, jackknife=jackknife)

    for kind in ("original", "modified"):
        wide = scores.pivot(index="peer", columns="annotator", values=kind)
        peers = wide.to_numpy(dtype=float)  # peers x annotators, NaN where not scored
        draws = rng.integers(0, len(peers), (n, len(peers)))  # one draw for every annotator
        for column, annotator in enumerate(wide.columns):
            values = peers[:, column]
            if (~np.isnan(values)).sum() < 2:
                continue
            with np.errstate(invalid="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                drawn = np.nanmean(values[draws], axis=1)
                left = np.nanmean(values[_leave_one_out(len(values))], axis=1)
            point = float(np.nanmean(values))
            found = bounds(drawn, point, left)
            means.append({"annotator": annotator, "score": kind, "mean": point,
                          "ci_low": found.low, "ci_high": found.high,
                          "peers": int((~np.isnan(values)).sum()), "ci_level": float(level),
                          "ci_method": found.method})
        for i, a in enumerate(annotators):
            for b in annotators[i + 1:]:
                both = wide[[a, b]].dropna()
                row: dict[str, object] = {"annotator_a": a, "annotator_b": b, "score": kind,
                                          "peers": len(both)}
                if len(both) < 3:  # no correlation, as in pan_scores
                    row.update({f"{name}_{end}": float("nan") for name in ("pearson", "spearman")
                                for end in ("low", "high")})
                    row.update({"ci_level": float(level), "ci_method": None})
                    corr.append(row)
                    continue
                draws = rng.integers(0, len(both), (n, len(both)))
                r, rho = resampled_correlations(both[a], both[b], draws)
                whole = np.arange(len(both))[None, :]
                point_r, point_rho = resampled_correlations(both[a], both[b], whole)
                left_r, left_rho = resampled_correlations(both[a], both[b],
                                                          _leave_one_out(len(both)))
                methods = []
                for name, values, point_, left_ in (("pearson", r, point_r, left_r),
                                                    ("spearman", rho, point_rho, left_rho)):
                    found = bounds(values, float(point_[0]), left_)
                    row[f"{name}_low"], row[f"{name}_high"] = found.low, found.high
                    methods.append(found.method)
                row["ci_level"] = float(level)
                row["ci_method"] = "/".join(sorted(set(methods), key=INTERVALS.index))
                corr.append(row)
    return pd.DataFrame(means), pd.DataFrame(corr)
