"""Cardinality statistics of set values, and the linear-time engine for class-derived values.

Any set distance of ``(|A|, |B|, |A & B|)`` can be summed over pairs of values from three
histograms, without building the sets:

* ``observed``: rows ``(|A|, |B|, |A & B|, w)`` for the ordered pairs of values inside units,
  each weighted ``1 / (m_u - 1)``;
* ``sizes``: rows ``(s, count)``, how many pairable values have ``s`` elements;
* ``expected``: rows ``(|A|, |B|, |A & B|, count)`` for the ordered pairs of distinct pairable
  values that intersect.

The sum of ``d`` over all ordered pairs of distinct values is then the sum over pairs of sizes
of ``d(s, t, 0)`` (as if no two values intersected), corrected by
``count * (d(a, b, k) - d(a, b, 0))`` for the pairs that do intersect. When values of different
summands never intersect (different documents of a corpus), the histograms simply add.

For class-derived values (a unit's class minus the unit), the intersecting pairs come from the
contingency table of two coders' partitions, in five kinds per pair of classes, so the cost is
linear in the number of units. ``docs/alpha.md`` derives the counts, with missing values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import ParameterError
from .crosstab import contingency, sum_by_key
from .distances import Distance, get_distance
from .result import AlphaResult, alpha_from_sums

__all__ = ["CardinalityStats", "class_stats"]

FloatArray = npt.NDArray[np.float64]
_EMPTY3 = np.zeros((0, 4), dtype=np.float64)
_EMPTY2 = np.zeros((0, 2), dtype=np.float64)


def _histogram(keys: list[npt.NDArray[Any]], weights: FloatArray) -> FloatArray:
    """Rows ``(*key, total weight)``, one per distinct key; keys are non-negative integers."""
    ncols = len(keys) + 1
    nonzero = weights != 0
    if not nonzero.all():
        keys, weights = [k[nonzero] for k in keys], weights[nonzero]
    if len(weights) == 0:
        return np.zeros((0, ncols))
    cols = [np.asarray(k).astype(np.int64) for k in keys]
    if min(int(c.min()) for c in cols) < 0:
        raise AssertionError("negative cardinality in statistics")
    key_cols, weights_out = sum_by_key(cols, weights)
    keep = weights_out != 0
    return np.column_stack([*(k[keep].astype(np.float64) for k in key_cols), weights_out[keep]])


def _compact(rows: FloatArray, ncols: int) -> FloatArray:
    """Sum the weights (last column) of rows with equal keys (the other columns)."""
    return _histogram([rows[:, j] for j in range(ncols - 1)], rows[:, -1])


def _pairs(a: FloatArray, b: FloatArray, inter: FloatArray, w: FloatArray) -> FloatArray:
    """Histogram rows of ordered pairs given one way round: the reverse pairs are added too.

    Distances are symmetric in ``(|A|, |B|)``, so ``(a, b)`` and ``(b, a)`` are stored once,
    smaller size first, with the weight of both.
    """
    return _histogram([np.minimum(a, b), np.maximum(a, b), inter], 2.0 * w)


@dataclass(frozen=True)
class CardinalityStats:
    """Sufficient statistics of alpha for any set distance of the three cardinalities.

    Adding two statistics pools their values; that is exact when no value of one intersects
    a value of the other, as with documents of a corpus. ``n`` is the number of pairable
    values, ``units`` the number of pairable units, ``coders`` the number of coders.

    Examples
    --------
    >>> from clusteragree import CodingTable
    >>> doc1 = CodingTable.from_clusterings({"A": [0, 0, 1], "B": [0, 0, 0]})
    >>> doc2 = CodingTable.from_clusterings({"A": [0, 1], "B": [0, 1]})
    >>> total = class_stats(doc1) + class_stats(doc2)
    >>> total.n, total.units
    (10, 5)
    >>> round(total.compute("jaccard").alpha, 6)
    0.4375
    """

    n: int = 0
    units: int = 0
    coders: int = 0
    observed: FloatArray = field(default_factory=lambda: _EMPTY3)
    expected: FloatArray = field(default_factory=lambda: _EMPTY3)
    sizes: FloatArray = field(default_factory=lambda: _EMPTY2)
    meta: Mapping[str, str] = field(default_factory=dict)
    engine: str = "classes"

    @classmethod
    def build(
        cls,
        n: int,
        units: int,
        coders: int,
        observed: Iterable[FloatArray],
        expected: Iterable[FloatArray],
        sizes: Iterable[FloatArray],
        **kwargs: object,
    ) -> CardinalityStats:
        """Statistics from lists of row blocks, compacted."""

        def stack(blocks: Iterable[FloatArray], ncols: int) -> FloatArray:
            blocks = [np.asarray(b, dtype=np.float64).reshape(-1, ncols) for b in blocks]
            return _compact(np.vstack(blocks) if blocks else np.zeros((0, ncols)), ncols)

        return cls(n, units, coders, stack(observed, 4), stack(expected, 4), stack(sizes, 2),
                   **kwargs)  # type: ignore[arg-type]

    def __add__(self, other: CardinalityStats) -> CardinalityStats:
        if not isinstance(other, CardinalityStats):
            return NotImplemented
        meta = dict(self.meta) if dict(self.meta) == dict(other.meta) else {}
        engine = self.engine if self.engine == other.engine else "mixed"
        return CardinalityStats.build(
            self.n + other.n, self.units + other.units, max(self.coders, other.coders),
            [self.observed, other.observed], [self.expected, other.expected],
            [self.sizes, other.sizes], meta=meta, engine=engine,
        )

    def __radd__(self, other: object) -> CardinalityStats:
        if other == 0:  # support sum()
            return self
        return NotImplemented

    def sums(self, distance: Distance) -> tuple[float, float]:
        """Observed and expected disagreement sums for a set distance."""
        if distance.kind != "set":
            raise ParameterError(
                f"The {distance.name!r} distance is not a function of set cardinalities; "
                "use the generic engine (alpha(table, distance, engine='generic'))."
            )
        d = distance.func
        o = self.observed
        observed = float(np.dot(o[:, 3], d(o[:, 0], o[:, 1], o[:, 2]))) if len(o) else 0.0
        s, h = self.sizes[:, 0], self.sizes[:, 1]
        baseline = -float(np.dot(h, d(s, s, np.zeros_like(s))))
        for start in range(0, len(s), 1024):
            block = slice(start, start + 1024)
            dm = d(s[block, None], s[None, :], np.zeros((1, 1)))
            baseline += float(h[block] @ dm @ h)
        e = self.expected
        correction = 0.0
        if len(e):
            delta = d(e[:, 0], e[:, 1], e[:, 2]) - d(e[:, 0], e[:, 1], np.zeros(len(e)))
            correction = float(np.dot(e[:, 3], delta))
        return observed, baseline + correction

    def compute(self, distance: str | Distance = "masi") -> AlphaResult:
        """Alpha for one set distance."""
        dist = get_distance(distance)
        observed, expected = self.sums(dist)
        return alpha_from_sums(observed, expected, self.n, self.units, self.coders, dist,
                               self.engine, self.meta)


def class_stats(table: object) -> CardinalityStats:
    """Cardinality statistics of a class-derived table, in time linear in its size.

    Parameters
    ----------
    table : CodingTable
        A table built with :meth:`CodingTable.from_clusterings`.

    Returns
    -------
    CardinalityStats
        Exactly the statistics the generic engine gives for the same table (distances are
        taken to be symmetric, as Krippendorff's alpha requires).
    """
    classes = getattr(table, "classes", None)
    if classes is None:
        raise ParameterError("class_stats needs a class-derived table (from_clusterings)")
    meta = getattr(table, "meta", {})
    rows = [row for row in classes if row.size and row.max() >= 0]
    present = [row >= 0 for row in rows]
    complete = [bool(p.all()) for p in present]
    m = np.zeros(classes.shape[1], dtype=np.int64)
    for pres in present:
        m += pres
    pairable = m >= 2
    all_pairable = bool(pairable.all())
    n = int(m[pairable].sum())

    observed: list[FloatArray] = []
    expected: list[FloatArray] = []
    sizes: list[FloatArray] = []
    size: list[FloatArray] = []
    npair: list[FloatArray] = []
    for row, pres, full in zip(rows, present, complete, strict=True):
        n_classes = int(row.max()) + 1
        c_size = np.bincount(row if full else row[pres], minlength=n_classes).astype(np.float64)
        if full and all_pairable:
            c_pair = c_size
        else:
            c_pair = np.bincount(row[pres & pairable], minlength=n_classes).astype(np.float64)
        size.append(c_size)
        npair.append(c_pair)
        sizes.append(_histogram([np.maximum(c_size - 1, 0)], c_pair))
        # Two values of one coder intersect only inside one class: C - {t} and C - {u}.
        same = (c_pair >= 2) & (c_size >= 3)
        a = c_size[same] - 1
        expected.append(_histogram([a, a, a - 1], c_pair[same] * (c_pair[same] - 1)))

    for i in range(len(rows)):
        for j in range(i + 1, len(rows)):
            if complete[i] and complete[j]:
                ci, cj, mm = rows[i], rows[j], m
            else:
                both = present[i] & present[j]
                if not both.any():
                    continue
                ci, cj, mm = rows[i][both], rows[j][both], m[both]
            # A unit alone in its class for both coders: the pair (empty, empty), nothing else.
            alone = (size[i][ci] == 1) & (size[j][cj] == 1)
            if alone.any():
                w_alone = float((1.0 / (mm[alone] - 1.0)).sum())
                observed.append(np.array([[0.0, 0.0, 0.0, 2.0 * w_alone]]))
                ci, cj, mm = ci[~alone], cj[~alone], mm[~alone]
                if not len(ci):
                    continue
            ca, cb, k, w_obs = contingency(ci, cj, len(size[j]), mm)
            a, b = size[i][ca] - 1, size[j][cb] - 1
            p, q = npair[i][ca], npair[j][cb]
            # Pairs (C - {t}, D - {u}), t pairable in C, u pairable in D, K = C & D:
            # t = u in K: k pairs, and one of t, u in K: k(q-k) + (p-k)k pairs, all with k - 1;
            # t != u both in K: k(k-1) pairs with k - 2; neither in K: (p-k)(q-k) with k.
            kinds = [
                (k - 1, k + k * (q - k) + (p - k) * k),
                (k - 2, k * (k - 1)),
                (k, (p - k) * (q - k)),
            ]
            for inter, count in kinds:
                keep = (inter > 0) & (count > 0)
                expected.append(_pairs(a[keep], b[keep], inter[keep], count[keep]))
            observed.append(_pairs(a, b, k - 1, w_obs))

    return CardinalityStats.build(
        n, int(pairable.sum()), len(rows), observed, expected, sizes,
        meta=dict(meta), engine="classes",
    )
