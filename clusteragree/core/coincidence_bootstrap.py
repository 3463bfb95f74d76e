"""Krippendorff's bootstrap of alpha: pairs of values drawn from the coincidence matrix.

Hayes and Krippendorff's KALPHA macro does not resample units. It draws ``M`` pairs of values
with replacement from the observed coincidences (a pair of values ``c, k`` with probability
``o_ck / n``, the two orders of an unequal pair taken together), keeps the expected
disagreement ``D_e`` of the data, and takes ``alpha* = 1 - mean(delta) / D_e`` over the drawn
pairs. What this module does, step by step, and where each step comes from:

1. ``M = min(25 Q, (m - 1) n / 2)``, ``Q`` the number of non-zero cells of the coincidence
   matrix, ``m`` the number of coders and ``n`` the number of pairable values (KALPHA 3.0;
   Krippendorff's note caps the draws "by a practical limit"); rounded down.
2. For each resample, ``M`` cells drawn (a multinomial draw), ``alpha* = 1 - S / (M D_e)``
   with ``S`` the sum of the drawn cells' distances; ``alpha* < -1`` is set to -1.
3. When only one value is ever paired with itself (one non-zero diagonal cell), a resample
   that draws only that cell has ``alpha* = 1`` and is set to 0.
4. When several values pair with themselves, as many resamples with ``alpha* = 1`` as
   ``round(X sum_c (o_cc / n)^P)`` (``X`` resamples, ``P`` the number of pairs of values within
   units), at most all of them, are set to 0: the chance that every pair of the data agreed.

Gwet (2015) and others argue that this distribution understates the uncertainty of alpha, since
the units are not resampled; docs/uncertainty.md compares it with resampling units and
documents. It is offered as ``resample="krippendorff"`` for comparison with KALPHA's output.

References
----------
Krippendorff, K. (2006, revised 2011). Algorithm for bootstrapping a distribution of alpha.
Manuscript, Annenberg School for Communication.

Hayes, A. F. & Krippendorff, K. (2007). Answering the call for a standard reliability measure
for coding data. Communication Methods and Measures 1(1), 77-89. (The KALPHA macro, version 3.0
of 2011, for SPSS and SAS.)

Gwet, K. L. (2015). Standard error of Krippendorff's alpha coefficient. inter-rater-reliability
blog, 22 August 2015.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..errors import ParameterError, ParameterTypeError
from .bootstrap import (
    BATCH_CELLS,
    CHUNK,
    BlockStats,
    Bootstrap,
    ExpectedSums,
    in_chunks,
    pair_distances,
    summarise,
)
from .distances import DistanceLike, get_distance
from .intervals import check_resamples
from .parallel import resolve_jobs

__all__ = ["CoincidenceDraws", "coincidence_draws", "krippendorff_bootstrap"]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class CoincidenceDraws:
    """What Krippendorff's bootstrap draws from: the cells of the coincidence matrix.

    Attributes
    ----------
    p : ndarray of float
        The probability of each non-zero cell, unequal pairs of values taken in both orders
        (``2 o_ck / n``; ``o_cc / n`` on the diagonal); they add up to 1.
    delta : ndarray of float
        The distance of each cell.
    D_e : float
        The expected disagreement of the data.
    draws : int
        ``M``, the pairs of values drawn per resample.
    cells : int
        ``Q``, the non-zero cells of the (square) coincidence matrix.
    diagonal : ndarray of float
        ``o_cc / n`` of each value paired with itself at least once.
    pairs : int
        ``P``, the pairs of values within units (``sum_u m_u (m_u - 1) / 2``).

    References
    ----------
    Krippendorff, K. (2006, revised 2011). Algorithm for bootstrapping a distribution of alpha.

    Examples
    --------
    Two coders, units (x, x), (x, y), (y, y): o_xx = 2, o_xy = o_yx = 1, o_yy = 2 (n = 6), so
    Q = 4 non-zero cells, M = min(25 x 4, (2 - 1) x 6 / 2) = 3, and the cells xx, xy and yy
    are drawn with probabilities 2/6, 2/6 and 2/6:

    >>> from clusteragree import CodingTable
    >>> from clusteragree.core.bootstrap import block_stats
    >>> t = CodingTable.from_records([(c, u, v) for u, pair in enumerate(["xx", "xy", "yy"])
    ...                               for c, v in zip("AB", pair, strict=True)])
    >>> d = coincidence_draws(block_stats(t), "nominal")
    >>> d.cells, d.draws, d.p.round(4).tolist(), d.delta.tolist(), d.pairs
    (4, 3, [0.3333, 0.3333, 0.3333], [0.0, 1.0, 0.0], 3)
    """

    p: FloatArray
    delta: FloatArray
    D_e: float
    draws: int
    cells: int
    diagonal: FloatArray
    pairs: int


def coincidence_draws(stats: BlockStats, distance: DistanceLike) -> CoincidenceDraws:
    """The cells Krippendorff's bootstrap draws from, their distances, ``D_e`` and ``M``.

    Parameters
    ----------
    stats : BlockStats
        Per-unit statistics (:func:`~clusteragree.core.bootstrap.block_stats`): the number of
        pairs ``P`` needs the units' numbers of values.
    distance : str, Distance or callable
        As :func:`clusteragree.alpha`; a distance bound to the marginals (ordinal) is bound
        to those of the data.

    Returns
    -------
    CoincidenceDraws

    Raises
    ------
    ParameterError
        No pairable value, or no expected disagreement (alpha is undefined: no interval).

    References
    ----------
    Krippendorff, K. (2006, revised 2011). Algorithm for bootstrapping a distribution of alpha.
    Hayes, A. F. & Krippendorff, K. (2007), the KALPHA macro (version 3.0): ``M``.

    Examples
    --------
    Krippendorff's (2011) 4 coders x 12 units: its published coincidence matrix has 17
    non-zero cells (four in each row of the values 1 to 4, one for 5) and n = 40 pairable
    values, so M = min(25 x 17, 3 x 40 / 2) = 60; D_o = (40 - 32) / 40 = 0.2 (32 on the
    diagonal) and alpha = 113/152 give D_e = 0.2 x 152/39 = 0.7795:

    >>> from clusteragree import CodingTable
    >>> from clusteragree.core.bootstrap import block_stats
    >>> rows = {"A": [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    ...         "B": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    ...         "C": [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    ...         "D": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None]}
    >>> t = CodingTable.from_matrix(list(rows.values()), coders=list(rows))
    >>> d = coincidence_draws(block_stats(t), "nominal")
    >>> d.cells, d.draws, round(d.D_e, 4)
    (17, 60, 0.7795)
    """
    dist = get_distance(distance)
    counts = stats.counts
    n_units = counts.shape[0]
    marg = np.asarray(counts.sum(axis=0), dtype=np.float64).ravel()
    n = float(marg.sum())
    if n_units == 0 or n < 2:
        raise ParameterError("no pairable value: nothing to draw")
    if dist.marginal:
        dist = dist.bind(stats.values, marg)
    o = np.asarray(stats.within.sum(axis=0), dtype=np.float64).ravel()
    delta = pair_distances(stats, dist)
    expected = float(ExpectedSums(stats, dist)(marg[None, :], np.ones((1, n_units)))[0])
    d_e = expected / (n * (n - 1.0))
    if not d_e > 0:
        raise ParameterError("alpha is undefined on these data (no expected disagreement): "
                             "no interval")
    nonzero = o > 0
    cells = int(nonzero.sum())
    pi, pj = stats.pairs[:, 0], stats.pairs[:, 1]
    upper = nonzero & (pi <= pj)  # one cell per unordered pair: both orders' coincidences
    lower = nonzero & (pi > pj)
    key = np.minimum(pi, pj) * len(stats.values) + np.maximum(pi, pj)
    order = {k: i for i, k in enumerate(key[upper].tolist())}
    p = o[upper].copy()
    np.add.at(p, [order[k] for k in key[lower].tolist()], o[lower])
    m_units = np.asarray(counts.sum(axis=1), dtype=np.float64).ravel()
    pairs = round(float((m_units * (m_units - 1.0)).sum()) / 2.0)
    draws = int(min(25 * cells, (stats.coders - 1) * n / 2.0))
    diagonal = o[nonzero & (pi == pj)] / n
    return CoincidenceDraws(p / n, delta[upper], d_e, max(draws, 1), cells, diagonal, pairs)


def krippendorff_bootstrap(stats: BlockStats, distance: DistanceLike = "masi", *,
                           n: int = 1000, level: float = 0.95, seed: int | None = None,
                           jobs: int | None = 1) -> Bootstrap:
    """Krippendorff's bootstrap of alpha (KALPHA): pairs of values drawn from the coincidences.

    Parameters
    ----------
    stats : BlockStats
        Per-unit statistics (:func:`~clusteragree.core.bootstrap.block_stats`).
    distance : str, Distance or callable
        As :func:`clusteragree.alpha`.
    n : int, default=1000
        Resamples (KALPHA asks for at least 1,000).
    level : float, default=0.95
        Confidence level of the percentile interval (KALPHA's; the draws are pairs of values,
        with no jackknife for a BCa interval).
    seed : int, optional
        Seed of the draws: the same seed gives the same resamples, whatever ``jobs``.
    jobs : int or None, default=1
        Threads (None or 0: one per core), as :func:`~clusteragree.core.bootstrap.bootstrap_alpha`.

    Returns
    -------
    Bootstrap
        ``resample`` is ``"krippendorff"``.

    References
    ----------
    Krippendorff, K. (2006, revised 2011). Algorithm for bootstrapping a distribution of alpha.
    Hayes, A. F. & Krippendorff, K. (2007). Communication Methods and Measures 1(1), 77-89.

    Examples
    --------
    Five units, each (x, y): D_o = 1 and D_e = 2 x 5 x 5 / (10 x 9) = 5/9, so alpha = -0.8,
    in the data and in every resample (only the cell xy can be drawn):

    >>> from clusteragree import CodingTable
    >>> from clusteragree.core.bootstrap import block_stats
    >>> t = CodingTable.from_records([(c, u, v) for u in range(5)
    ...                               for c, v in (("A", "x"), ("B", "y"))])
    >>> b = krippendorff_bootstrap(block_stats(t), "nominal", n=100, seed=1)
    >>> b.ci, b.resample
    ((-0.8, -0.8), 'krippendorff')
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ParameterTypeError(f"bootstrap must be a whole number of resamples of at least "
                                 f"2. Got {n!r}.", params=("bootstrap",))
    check_resamples(int(n))
    jobs = resolve_jobs(jobs)
    found = coincidence_draws(stats, distance)
    p = found.p / found.p.sum()  # exactly 1, whatever the rounding of the coincidences
    scale = found.draws * found.D_e

    def draw(rng: np.random.Generator, k: int) -> FloatArray:
        picked = rng.multinomial(found.draws, p, size=k)
        return 1.0 - (picked @ found.delta) / scale

    chunk = max(1, min(CHUNK, BATCH_CELLS // max(len(p), 1)))
    alphas = np.maximum(in_chunks(draw, int(n), chunk, seed, jobs), -1.0)
    perfect = alphas >= 1.0
    if len(found.diagonal) == 1:  # only one value meets itself: a run of it is no agreement
        alphas[perfect] = 0.0
    elif len(found.diagonal) > 1 and perfect.any():
        chance = float(n) * float((found.diagonal ** found.pairs).sum())
        alphas[np.flatnonzero(perfect)[:round(chance)]] = 0.0
    estimate = 1.0 - float(found.p @ found.delta) / found.D_e  # alpha of the data
    return summarise(alphas, level, "krippendorff", seed, method="percentile",
                     estimate=estimate)
