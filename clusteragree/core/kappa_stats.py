"""Statistics of the kappa family that add across disjoint sets of units.

The coefficients of :mod:`~clusteragree.core.kappa` and :mod:`~clusteragree.core.gwet` are
functions of sums over units (subjects), so the units can be split among machines and the sums
added; only a unit's own values must be seen together.

* :class:`KappaStats` (complete data, :mod:`~clusteragree.core.kappa`): the number of items,
  the agreeing ordered pairs of coders ``sum_i sum_k n_ik (n_ik - 1)``, and each coder's count
  of each category. Observed agreement, Bennett's S, Scott's and Fleiss's pi and Cohen's and
  Davies and Fleiss's kappa follow.
* :class:`SubjectStats` (Gwet's framework with identity weights, :mod:`~clusteragree.core.gwet`):
  over the subjects rated at least once, the count, sums and centred co-moments of
  ``z_i = [t_i, t_i p_a|i, r_i1 / r_i, ..., r_iq / r_i]`` (``t_i`` 1 when the subject is
  rated twice). The sums give ``p_a`` and ``pi_k``; the co-moments give Gwet's linearised
  variance, whose terms ``c*_i - c`` are linear in ``z_i`` once the global ``p_e`` is known.

Both key their categories by the value itself, so adding merges equal values whatever local
codes they had. Weights other than identity are not reduced: ``p_a|i`` would depend on the
global set of categories (their span, for linear and quadratic weights).

References
----------
Artstein, R. and Poesio, M. (2008). Inter-coder agreement for computational linguistics.
Computational Linguistics 34(4):555-596.

Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed. Advanced Analytics.
(Chapter 5: the coefficients and the linearised variance.)

Chan, T. F., Golub, G. H. and LeVeque, R. J. (1979). Updating formulae and a pairwise algorithm
for computing sample variances. Stanford CS report STAN-CS-79-773. (Combining co-moments.)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .._lazy import module
from ..errors import InputError, ParameterError, option
from .gwet import COEFFICIENTS
from .model import CodingTable

if TYPE_CHECKING:
    import pandas as pd
    from scipy import stats as sps
else:
    pd = module("pandas")
    sps = module("scipy.stats")

__all__ = ["KappaStats", "SubjectStats", "kappa_stats", "subject_stats"]

FloatArray = npt.NDArray[np.float64]

#: The most categories :func:`subject_stats` takes (its co-moments are a q x q matrix).
MAX_CATEGORIES = 4096


def _merge(left: tuple[Any, ...], right: tuple[Any, ...]
           ) -> tuple[tuple[Any, ...], npt.NDArray[np.int64]]:
    """The union of two key tuples (left's order first) and where each key of right went."""
    index = {v: k for k, v in enumerate(left)}
    keys = list(left)
    remap = np.empty(len(right), dtype=np.int64)
    for k, v in enumerate(right):
        if v not in index:
            index[v] = len(keys)
            keys.append(v)
        remap[k] = index[v]
    return tuple(keys), remap


def _kappa(a_o: float, a_e: float) -> float:
    return float("nan") if a_e == 1 else (a_o - a_e) / (1 - a_e)


@dataclass(frozen=True)
class KappaStats:
    """What the complete-data kappa family needs; adds across disjoint sets of items.

    Attributes
    ----------
    items : int, default=0
        Items (units).
    agree : float, default=0
        ``sum_i sum_k n_ik (n_ik - 1)``: ordered pairs of coders agreeing on an item.
    fewest, most : int
        The fewest and most coders of an item (complete data: both equal the coders).
    coders, values : tuple
        The coders and the categories, keys of the rows and columns of ``counts``.
    counts : ndarray, shape (coders, values)
        How many items each coder put in each category.

    References
    ----------
    Artstein, R. and Poesio, M. (2008). Computational Linguistics 34(4):555-596, sections 2-3.

    Examples
    --------
    The two halves of ``[[a, a, b, b], [a, b, b, b]]`` add to the statistics of the whole:
    Cohen's kappa 1/2 and Scott's pi 7/15, as :func:`~clusteragree.core.kappa.cohen_kappa`
    and :func:`~clusteragree.core.kappa.scott_pi` give:

    >>> left = kappa_stats(CodingTable.from_matrix([["a", "a"], ["a", "b"]]))
    >>> right = kappa_stats(CodingTable.from_matrix([["b", "b"], ["b", "b"]]))
    >>> values = (left + right).compute()
    >>> round(values["cohen_kappa"], 6), round(values["scott_pi"], 6)
    (0.5, 0.466667)
    """

    items: int = 0
    agree: float = 0.0
    fewest: int = 2**62
    most: int = 0
    coders: tuple[Any, ...] = ()
    values: tuple[Any, ...] = ()
    counts: FloatArray = field(default_factory=lambda: np.zeros((0, 0)))

    def __add__(self, other: KappaStats) -> KappaStats:
        if not isinstance(other, KappaStats):
            return NotImplemented
        coders, c_map = _merge(self.coders, other.coders)
        values, v_map = _merge(self.values, other.values)
        counts = np.zeros((len(coders), len(values)))
        counts[:len(self.coders), :len(self.values)] = self.counts
        counts[np.ix_(c_map, v_map)] += other.counts
        return KappaStats(self.items + other.items, self.agree + other.agree,
                          min(self.fewest, other.fewest), max(self.most, other.most),
                          coders, values, counts)

    def __radd__(self, other: object) -> KappaStats:
        if other == 0:
            return self
        return NotImplemented

    def compute(self) -> dict[str, float]:
        """The coefficients of :mod:`~clusteragree.core.kappa`.

        Returns
        -------
        dict
            ``observed_agreement``, ``bennett_s`` (categories used), ``scott_pi`` (which is
            ``fleiss_pi``) and ``cohen_kappa`` (which is ``multi_kappa``).

        Raises
        ------
        InputError
            If the data are not complete (an item lacks a coder's label).
        ParameterError
            If fewer than two coders are given.
        """
        c = len(self.coders)
        if c < 2:
            raise ParameterError("give the labels of at least two coders", params=("data",))
        if self.fewest != c or self.most != c:
            raise InputError("the kappa family needs complete data: every coder labels every "
                             "item; use alpha for data with missing values")
        a_o = self.agree / (self.items * c * (c - 1))
        shares = self.counts / self.items
        pooled = shares.mean(axis=0)
        a_e = float(np.mean([shares[i] @ shares[j] for i, j in combinations(range(c), 2)]))
        return {"observed_agreement": a_o,
                "bennett_s": _kappa(a_o, 1.0 / len(self.values)),
                "scott_pi": _kappa(a_o, float(pooled @ pooled)),
                "cohen_kappa": _kappa(a_o, a_e)}


def kappa_stats(table: CodingTable) -> KappaStats:
    """The :class:`KappaStats` of a table (coders x items, single values).

    Parameters
    ----------
    table : CodingTable
        Coders x items; items without any label are left out, and an item that lacks some
        coder's label makes :meth:`KappaStats.compute` refuse the data.

    Returns
    -------
    KappaStats

    References
    ----------
    Artstein, R. and Poesio, M. (2008). Computational Linguistics 34(4):555-596, sections 2-3.

    Examples
    --------
    A third coder like the first (see :func:`~clusteragree.core.kappa.observed_agreement`):
    items 1, 3, 4 agree fully (6 ordered pairs each), item 2 has one agreeing pair (2 ordered):

    >>> s = kappa_stats(CodingTable.from_matrix([list("aabb"), list("abbb"), list("aabb")]))
    >>> s.items, s.agree, round(s.compute()["observed_agreement"], 6)
    (4, 20.0, 0.833333)
    """
    codes = table.codes
    raters = (codes >= 0).sum(axis=0)
    k = len(table.values)
    per_item = np.zeros((codes.shape[1], k + 1))
    items = np.broadcast_to(np.arange(codes.shape[1]), codes.shape)
    np.add.at(per_item, (items, np.where(codes >= 0, codes, k)), 1.0)
    per_item = per_item[:, :k]
    counts = np.zeros((len(codes), k))
    for row, labels in zip(counts, codes, strict=True):
        row += np.bincount(labels[labels >= 0], minlength=k)
    used = counts.sum(axis=0) > 0
    return KappaStats(codes.shape[1], float((per_item * (per_item - 1)).sum()),
                      int(raters.min(initial=2**62)), int(raters.max(initial=0)),
                      tuple(table.coders),
                      tuple(v for v, u in zip(table.values, used, strict=True) if u),
                      counts[:, used])


@dataclass(frozen=True)
class SubjectStats:
    """What Gwet's framework (identity weights) needs; adds across disjoint sets of subjects.

    Attributes
    ----------
    values : tuple
        The categories, in the order of ``sums``' entries from the third on.
    subjects : int
        ``n``: the subjects rated at least once.
    sums : ndarray, shape (2 + q,)
        The sum over those subjects of ``z_i = [t_i, t_i p_a|i, r_i1 / r_i, ..., r_iq / r_i]``.
    comoment : ndarray, shape (2 + q, 2 + q)
        ``sum_i (z_i - mean) (z_i - mean)^T``; two sets of subjects combine as Chan, Golub
        and LeVeque's pairwise update does, which keeps the variance accurate where a sum of
        ``z_i z_i^T`` would lose it to cancellation.

    References
    ----------
    Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed., chapter 5.

    Examples
    --------
    The example of :func:`~clusteragree.core.gwet.chance_corrected`, (x, x), (x, x), (y, y),
    (x, y), cut in two: Fleiss 7/15, AC1 9/17, Brennan-Prediger 1/2:

    >>> left = subject_stats(CodingTable.from_matrix([["x", "x"], ["x", "x"]]))
    >>> right = subject_stats(CodingTable.from_matrix([["y", "x"], ["y", "y"]]))
    >>> (left + right).compute()["value"].round(6).tolist()
    [0.466667, 0.529412, 0.5]
    """

    values: tuple[Any, ...] = ()
    subjects: int = 0
    sums: FloatArray = field(default_factory=lambda: np.zeros(2))
    comoment: FloatArray = field(default_factory=lambda: np.zeros((2, 2)))

    def __add__(self, other: SubjectStats) -> SubjectStats:
        if not isinstance(other, SubjectStats):
            return NotImplemented
        values, remap = _merge(self.values, other.values)
        size = 2 + len(values)
        where = np.concatenate([np.arange(2), 2 + remap])
        sums_a, sums_b = np.zeros(size), np.zeros(size)
        sums_a[:len(self.sums)] = self.sums
        sums_b[where] = other.sums
        moment = np.zeros((size, size))
        moment[:len(self.sums), :len(self.sums)] = self.comoment
        moment[np.ix_(where, where)] += other.comoment
        n_a, n_b = self.subjects, other.subjects
        if n_a and n_b:
            delta = sums_b / n_b - sums_a / n_a
            moment += np.outer(delta, delta) * (n_a * n_b / (n_a + n_b))
        return SubjectStats(values, n_a + n_b, sums_a + sums_b, moment)

    def __radd__(self, other: object) -> SubjectStats:
        if other == 0:
            return self
        return NotImplemented

    def compute(self, coefficients: tuple[str, ...] | list[str] = COEFFICIENTS, *,
                level: float = 0.95, population: float = float("inf")) -> pd.DataFrame:
        """The rows of :func:`~clusteragree.core.gwet.chance_corrected` (identity weights).

        Parameters
        ----------
        coefficients : sequence of {"fleiss", "gwet", "brennan_prediger"}
            Which to compute.
        level : float, default=0.95
            Confidence level of the interval.
        population : float, default=inf
            Number of subjects in the population.

        Returns
        -------
        DataFrame
            The columns of :func:`~clusteragree.core.gwet.chance_corrected`.

        Raises
        ------
        ParameterError
            An unknown coefficient, fewer than two subjects rated twice or two categories.
        """
        unknown = [c for c in coefficients if c not in COEFFICIENTS]
        if unknown:
            raise ParameterError(f"unknown coefficients {unknown}; choose among "
                                 f"{list(COEFFICIENTS)}")
        q, n = len(self.values), self.subjects
        n2 = round(float(self.sums[0]))
        if n2 < 2 or q < 2:
            raise ParameterError(f"chance-corrected coefficients need at least two subjects "
                                 f"rated twice and two categories; there are {n2} and {q}",
                                 params=("metrics",))
        p_a = float(self.sums[1]) / n2
        pi = self.sums[2:] / n
        f = n / population if np.isfinite(population) else 0.0
        rows = []
        for name in coefficients:
            if name == "fleiss":
                p_e, slope, offset = float(pi @ pi), pi, 0.0
            elif name == "gwet":
                slope = (1.0 - pi) / (q - 1.0)
                p_e, offset = float(pi @ slope), 0.0
            else:
                p_e, slope, offset = 1.0 / q, np.zeros(q), 1.0 / q
            value = (p_a - p_e) / (1.0 - p_e) if p_e != 1 else float("nan")
            # c*_i - c = lin . z_i + const, with c_i = t_i (n / n2) (p_a|i - p_e) / (1 - p_e)
            # and p_e|i = shares_i . slope + offset
            scale = (n / n2) / (1.0 - p_e)
            k = 2.0 * (1.0 - value) / (1.0 - p_e)
            lin = np.concatenate([[-scale * p_e, scale], -k * slope])
            const = -k * (offset - p_e) - value
            mean = float(lin @ self.sums) / n + const
            squares = float(lin @ self.comoment @ lin) + n * mean ** 2
            variance = (1.0 - f) / (n * (n - 1.0)) * max(squares, 0.0)
            se = float(np.sqrt(variance))
            half = float(sps.t.ppf(1.0 - (1.0 - level) / 2.0, n - 1)) * se
            label = "ac1" if name == "gwet" else name
            rows.append({"coefficient": label, "value": value, "se": se,
                         "ci_low": value - half, "ci_high": min(1.0, value + half), "p_a": p_a,
                         "p_e": p_e, "subjects": n, "weights": "identity"})
        return pd.DataFrame(rows)


def subject_stats(table: CodingTable) -> SubjectStats:
    """The :class:`SubjectStats` of a table (coders x subjects, single values).

    Parameters
    ----------
    table : CodingTable
        Coders x subjects; missing ratings allowed.

    Returns
    -------
    SubjectStats

    Raises
    ------
    ParameterError
        Set values.

    References
    ----------
    Gwet, K. L. (2014). Handbook of Inter-Rater Reliability, 4th ed., chapter 5.

    Examples
    --------
    Two subjects, (x, x) and (x, y, y): ``p_a|1 = 1`` and ``p_a|2 = 2 / 6``:

    >>> s = subject_stats(CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"),
    ...     ("A", 2, "x"), ("B", 2, "y"), ("C", 2, "y")]))
    >>> s.values, s.subjects, s.sums.round(4).tolist()
    (('x', 'y'), 2, [2.0, 1.3333, 1.3333, 0.6667])
    """
    if table.value_kind == "set":
        raise ParameterError("chance-corrected coefficients need single values, not sets; "
                             f"read one value per field ({option('scalar')})",
                             params=("metrics",))
    codes = table.codes
    coder_ix, unit_ix = np.nonzero(codes >= 0)
    present = codes[coder_ix, unit_ix]
    used = np.flatnonzero(np.bincount(present, minlength=len(table.values)))
    if len(used) > MAX_CATEGORIES:
        raise ParameterError(f"{len(used)} categories: the statistics of Gwet's framework "
                             f"hold a categories x categories matrix; at most "
                             f"{MAX_CATEGORIES} are reduced", params=("metrics",))
    k = max(len(used), 1)
    local = np.zeros(max(len(table.values), 1), dtype=np.int64)
    local[used] = np.arange(len(used))
    counts = np.bincount(unit_ix * k + local[present], minlength=codes.shape[1] * k
                         ).reshape(codes.shape[1], k)[:, :len(used)].astype(np.float64)
    cats = [table.values[j] for j in used.tolist()]
    r_i = counts.sum(axis=1)
    rated = r_i >= 1
    counts, r_i = counts[rated], r_i[rated]
    twice = (r_i >= 2).astype(np.float64)
    pa_i = np.zeros(len(r_i))
    many = twice > 0
    pa_i[many] = (counts[many] * (counts[many] - 1.0)).sum(axis=1) / (
        r_i[many] * (r_i[many] - 1.0))
    z = np.column_stack([twice, twice * pa_i, counts / r_i[:, None]])
    columns = np.ascontiguousarray(z.T)  # a row per column: numpy sums it pairwise
    sums = columns.sum(axis=1)
    centred = z - (sums / len(z) if len(z) else 0.0)
    return SubjectStats(tuple(cats), len(z), sums, centred.T @ centred)
