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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import ParameterError, option
from .class_kernel import by_class, pair_kernel, pair_rows
from .crosstab import contingency, sum_by_key
from .distances import Distance, checked, get_distance
from .parallel import resolve_jobs
from .result import AlphaResult, alpha_from_sums

__all__ = ["CardinalityStats", "alpha_in_units", "class_stats"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
_EMPTY3 = np.zeros((0, 4), dtype=np.float64)
_EMPTY2 = np.zeros((0, 2), dtype=np.float64)
#: Tables of at least this many units count class pairs with the compiled kernel (when numba
#: serves): below it, loading the kernel (about a second) costs more than it saves.
COMPILED_FROM = 200_000


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

    Built by :func:`class_stats` (linear-time engine) or
    :meth:`ValueStats.to_cardinality <clusteragree.core.alpha_generic.ValueStats.to_cardinality>`
    (generic engine, set values); ``CardinalityStats()`` is the zero of ``+``.

    Attributes
    ----------
    n : int, default=0
        Number of pairable values (values in units coded by at least two coders).
    units : int, default=0
        Number of pairable units.
    coders : int, default=0
        Number of coders with at least one value (the largest of the summands when added).
    observed : ndarray of float, shape (R, 4)
        Rows ``(|A|, |B|, |A & B|, w)`` over the ordered pairs of values ``(A, B)`` of different
        coders inside a unit, each pair weighted ``1 / (m_u - 1)``; ``(a, b)`` and ``(b, a)``
        are stored once, smaller size first, with the weight of both. Default: no rows.
    expected : ndarray of float, shape (R, 4)
        Rows ``(|A|, |B|, |A & B|, count)``: how many ordered pairs of distinct pairable values
        intersect with these cardinalities (stored like ``observed``). Default: no rows.
    sizes : ndarray of float, shape (S, 2)
        Rows ``(s, count)``: how many pairable values have ``s`` elements. Default: no rows.
    meta : mapping of str to str, default={}
        Provenance of the table (unit kind, tokenisation, ...), echoed in the signature; kept
        by ``+`` only when both summands have the same.
    engine : str, default="classes"
        ``"classes"`` or ``"generic"`` (the engine that built the statistics), ``"mixed"``
        after adding statistics of both.

    Notes
    -----
    With ``d = d(|A|, |B|, |A & B|)``, the observed sum is ``sum(w * d)`` over ``observed``.
    The expected sum over all ordered pairs of distinct pairable values is first taken as if
    no two values intersected, from ``sizes`` alone (``sum_s,t H_s H_t d(s, t, 0)`` minus the
    pairs of a value with itself), then corrected by ``count * (d(a, b, k) - d(a, b, 0))`` for
    each row of ``expected``. Then ``D_o = observed / n``, ``D_e = expected / (n (n - 1))``
    and ``alpha = 1 - D_o / D_e`` (:func:`~clusteragree.core.result.alpha_from_sums`).

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43. (The coincidence form of alpha: pairable values,
    weights ``1 / (m_u - 1)``, ``D_o`` and ``D_e``.)

    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and pragmatic
    annotation. Proceedings of LREC 2006, Genoa. (Set values; the Jaccard and MASI distances.)

    docs/alpha.md, "Linear-time engine for class-derived values" and "Statistics that add";
    docs/architecture.md, "Statistics are distance-free".

    Examples
    --------
    Two documents of two coders, each coder's classes given by a class id per unit; a unit's
    value is its class minus itself. In ``doc1`` coder A has values ``{1}, {0}, {}`` and B
    ``{1, 2}, {0, 2}, {0, 1}``; in ``doc2`` every value is empty. So there are 10 pairable
    values in 5 units:

    >>> from clusteragree import CodingTable
    >>> doc1 = CodingTable.from_clusterings({"A": [0, 0, 1], "B": [0, 0, 0]})
    >>> doc2 = CodingTable.from_clusterings({"A": [0, 1], "B": [0, 1]})
    >>> total = class_stats(doc1) + class_stats(doc2)
    >>> total.n, total.units
    (10, 5)

    Jaccard distances inside the units are 1/2, 1/2, 1 (doc1) and 0, 0 (doc2), each counted
    for both orders, so ``D_o = 2 (1/2 + 1/2 + 1) / 10 = 0.4``. Over the 45 unordered pairs of
    the 10 values: the 5 non-empty values differ by 7 in all (three disjoint pairs at 1, four
    pairs like ``{1}, {1, 2}`` at 1/2, three pairs like ``{1, 2}, {0, 2}`` at 2/3), each of
    the 5 empty values is at 1 from each of them (25) and at 0 from the others, so
    ``D_e = 2 (7 + 25) / (10 * 9) = 64/90`` and ``alpha = 1 - 0.4 * 90/64 = 0.4375``:

    >>> result = total.compute("jaccard")
    >>> round(result.D_o, 6), round(result.D_e, 6), round(result.alpha, 6)
    (0.4, 0.711111, 0.4375)

    The same statistics give every set distance. Nominal (equal sets or not): the three units
    of doc1 disagree, so ``D_o = 6/10``; of the 10 * 10 ordered pairs, the 5 distinct non-empty
    values and the 5 equal empty ones leave ``100 - 5 - 25 = 70`` unequal, so
    ``D_e = 70/90`` and ``alpha = 1 - (6/10) (90/70) = 8/35``. Adding the zero changes nothing:

    >>> round(total.compute("nominal").alpha, 6), round(8 / 35, 6)
    (0.228571, 0.228571)
    >>> (CardinalityStats() + total).n
    10
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
        """Statistics from lists of row blocks, compacted.

        Parameters
        ----------
        n, units, coders : int
            As the attributes.
        observed, expected : iterable of array_like of float, each shape (r, 4)
            Blocks of rows ``(|A|, |B|, |A & B|, weight)``; rows with equal cardinalities are
            summed.
        sizes : iterable of array_like of float, each shape (r, 2)
            Blocks of rows ``(s, count)``; rows with equal ``s`` are summed.
        **kwargs
            ``meta`` and ``engine``.

        Returns
        -------
        CardinalityStats
        """

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
        """Observed and expected disagreement sums for a set distance.

        Parameters
        ----------
        distance : Distance
            A distance of kind ``"set"`` (a function of ``|A|, |B|, |A & B|``).

        Returns
        -------
        (float, float)
            ``n * D_o`` and ``n (n - 1) * D_e``: the weighted sum of ``d`` over the observed
            pairs, and the sum over all ordered pairs of distinct pairable values.

        Raises
        ------
        ParameterError
            If the distance is not a set distance.
        """
        observed, expected, power = self.scaled_sums(distance)
        return float(np.ldexp(observed, power)), float(np.ldexp(expected, power))

    def scaled_sums(self, distance: Distance) -> tuple[float, float, int]:
        """:meth:`sums` in a unit of the largest distance evaluated: a power of two.

        Every distance is checked (:func:`~clusteragree.core.distances.checked`): a NaN, an
        infinite or a negative one is refused, naming the sizes of the two sets and their
        intersection. The unit is the power of two just above the largest distance, so that
        the division is exact, alpha is the same, and :func:`alpha_from_sums` tells an expected
        disagreement of 0 from a small one whatever the distance's scale.

        Returns
        -------
        (float, float, int)
            The observed and expected sums divided by ``2**power``, and ``power``.
        """
        if distance.kind != "set":
            raise ParameterError(
                f"The {distance.name!r} distance is not a function of set cardinalities; "
                f"use the generic engine ({option('engine', 'generic')}).",
                params=("engine", "distance"))
        d = distance.func

        def evaluate(a: Any, b: Any, k: Any) -> FloatArray:
            a, b, k = np.broadcast_arrays(a, b, k)
            return checked(distance, d(a, b, k), lambda i: (
                f"two sets of {a.flat[i]:.0f} and {b.flat[i]:.0f} labels with "
                f"{k.flat[i]:.0f} in common"))

        o = self.observed
        d_o = evaluate(o[:, 0], o[:, 1], o[:, 2]) if len(o) else np.zeros(0)
        observed = float(np.dot(o[:, 3], d_o)) if len(o) else 0.0
        top = float(d_o.max(initial=0.0))
        s, h = self.sizes[:, 0], self.sizes[:, 1]
        same = evaluate(s, s, np.zeros_like(s))
        baseline = -float(np.dot(h, same))
        top = max(top, float(same.max(initial=0.0)))
        for start in range(0, len(s), 1024):
            block = slice(start, start + 1024)
            dm = evaluate(s[block, None], s[None, :], np.zeros((1, 1)))
            baseline += float(h[block] @ dm @ h)
            top = max(top, float(dm.max(initial=0.0)))
        e = self.expected
        correction = 0.0
        if len(e):
            shared = evaluate(e[:, 0], e[:, 1], e[:, 2])
            delta = shared - evaluate(e[:, 0], e[:, 1], np.zeros(len(e)))
            correction = float(np.dot(e[:, 3], delta))
            top = max(top, float(shared.max(initial=0.0)))
        power = int(np.frexp(top)[1])
        return (float(np.ldexp(observed, -power)), float(np.ldexp(baseline + correction, -power)),
                power)

    def compute(self, distance: str | Distance = "masi") -> AlphaResult:
        """Alpha for one set distance.

        Parameters
        ----------
        distance : str or Distance, default="masi"
            A set distance (``nominal``, ``jaccard``, ``dice``, ``masi`` and its variants) or
            a :class:`~clusteragree.core.distances.Distance` of kind ``"set"``.

        Returns
        -------
        AlphaResult
            Alpha with ``D_o``, ``D_e``, ``n`` and the signature.
        """
        dist = get_distance(distance)
        observed, expected, power = self.scaled_sums(dist)
        return alpha_in_units(observed, expected, power, self.n, self.units, self.coders, dist,
                              self.engine, self.meta)


def alpha_in_units(observed: float, expected: float, power: int, n: int, units: int,
                   coders: int, distance: Distance, engine: str,
                   meta: Mapping[str, str] | None = None) -> AlphaResult:
    """Alpha from sums computed in a unit of their own, with D_o and D_e in the distance's.

    The engines sum the distances in a unit of ``2**power`` (about the largest distance, or
    the squared spread of the values for an embedded distance such as interval), so that the
    sums neither overflow nor shrink below :func:`alpha_from_sums`' test of a zero expected
    disagreement; alpha is the same in any unit. ``D_o`` and ``D_e`` are then given in the
    distance's own unit, exactly (a power of two).

    Parameters
    ----------
    observed, expected : float
        The sums in units of ``2**power``.
    power : int
        The unit's exponent (0: the distance's own unit).
    n, units, coders, distance, engine, meta
        As for :func:`alpha_from_sums`.

    Returns
    -------
    AlphaResult
        As :func:`alpha_from_sums` gives it for the sums in the distance's own unit.

    Raises
    ------
    ParameterError
        About ``distance``, when D_o or D_e in the distance's unit lies beyond the range of
        floating-point numbers (values near 1e308 for interval): the message says to rescale
        the values, which leaves alpha as it is.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. (Alpha is a ratio of
    disagreements: the unit of the distance cancels.) docs/alpha.md, "Definition".

    Examples
    --------
    Krippendorff's nominal sums (8 and 1216 over 40 values) computed in units of 4:

    >>> from clusteragree.core.distances import get_distance
    >>> r = alpha_in_units(2, 304, 2, 40, 11, 4, get_distance("nominal"), "generic")
    >>> round(r.alpha, 6), round(r.D_o, 6), round(r.D_e, 6)
    (0.743421, 0.2, 0.779487)
    """
    result = alpha_from_sums(observed, expected, n, units, coders, distance, engine, meta)
    if n < 2 or power == 0:
        return result
    with np.errstate(over="ignore", under="ignore"):
        d_o, d_e = np.ldexp(result.D_o, power), np.ldexp(result.D_e, power)
    lost = [(name, own) for name, scaled, own in (("D_o", result.D_o, d_o),
                                                  ("D_e", result.D_e, d_e))
            if not np.isfinite(own) or (own == 0.0 and scaled != 0.0)]
    if lost:
        name, own = lost[0]
        direction = "above" if not np.isfinite(own) else "below"
        raise ParameterError(
            f"alpha ({distance.name}) is {result.alpha:.6g}, but {name} in the distance's "
            f"unit lies {direction} the range of floating-point numbers (about 1e-308 to "
            f"1e308); {'divide' if direction == 'above' else 'multiply'} the values by a "
            "power of ten, which leaves alpha as it is, to have D_o and D_e as well",
            params=("distance",))
    return replace(result, D_o=float(d_o), D_e=float(d_e))


def class_stats(table: object, *, jobs: int | None = 1, compiled: bool | None = None
                ) -> CardinalityStats:
    """Cardinality statistics of a class-derived table, in time linear in its size.

    A class-derived table gives each unit, for each coder, the coder's class of the unit minus
    the unit itself (Passonneau 2006). Almost every such value is distinct, so enumerating pairs
    of values is quadratic; here the intersecting pairs are counted per pair of classes of two
    coders from their contingency table (:func:`~clusteragree.core.crosstab.contingency`), in
    five kinds (docs/alpha.md derives them, with missing values).

    Parameters
    ----------
    table : CodingTable
        A table built with :meth:`CodingTable.from_clusterings` (it carries ``classes``, one
        row of class ids per coder, -1 where the coder did not code the unit).

    jobs : int or None, default=1
        How many pairs of coders to count at once (None or 0: one per core), in threads (the
        compiled kernel releases the GIL; the numpy route ignores it). The statistics do not
        depend on it.
    compiled : bool or None, default=None
        Count class pairs with the compiled kernel (:mod:`~clusteragree.core.class_kernel`)
        or with numpy alone. None: compiled for tables of at least :data:`COMPILED_FROM`
        units, when numba serves. Both give the same statistics up to the order of
        floating-point sums.

    Returns
    -------
    CardinalityStats
        Exactly the statistics the generic engine gives for the same table (distances are
        taken to be symmetric, as Krippendorff's alpha requires), with ``engine="classes"``.

    Raises
    ------
    ParameterError
        If the table is not class-derived.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43.

    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and pragmatic
    annotation. Proceedings of LREC 2006, Genoa. Section 3.3 (equivalence classes; the coding
    value of a unit is its class minus the unit).

    docs/alpha.md, "Linear-time engine for class-derived values"; docs/performance.md.

    Examples
    --------
    Coder A puts units 0 and 1 together and unit 2 alone; coder B puts all three together. A's
    values are ``{1}, {0}, {}``, B's ``{1, 2}, {0, 2}, {0, 1}``:

    >>> from clusteragree import CodingTable
    >>> t = CodingTable.from_clusterings({"A": [0, 0, 1], "B": [0, 0, 0]})
    >>> s = class_stats(t)
    >>> s.n, s.units, s.coders, s.engine
    (6, 3, 2, 'classes')

    Value sizes: one of size 0, two of size 1, three of size 2. Observed pairs: unit 2 gives
    ``({}, {0, 1})`` (sizes 0 and 2, no overlap), units 0 and 1 each ``({1}, {1, 2})``-like
    pairs (sizes 1 and 2, overlap 1); each unit has two values, so weight 1 for each order:

    >>> s.sizes.tolist()
    [[0.0, 1.0], [1.0, 2.0], [2.0, 3.0]]
    >>> s.observed.tolist()
    [[0.0, 2.0, 0.0, 2.0], [1.0, 2.0, 1.0, 4.0]]

    Intersecting pairs of distinct values: ``{1}`` with ``{1, 2}`` and ``{0, 1}``, ``{0}`` with
    ``{0, 2}`` and ``{0, 1}`` (4 pairs, 8 ordered, sizes 1 and 2, overlap 1), and the three
    pairs of B's values (6 ordered, sizes 2 and 2, overlap 1):

    >>> s.expected.tolist()
    [[1.0, 2.0, 1.0, 8.0], [2.0, 2.0, 1.0, 6.0]]

    Jaccard: the observed sum is ``2 (1/2 + 1/2 + 1) = 4``. The expected sum first takes the
    ``6 * 5 = 30`` ordered pairs as disjoint, each at distance 1 (only two empty values would be
    at 0, and there is one), then corrects the intersecting ones:
    ``30 - 8 (1 - 1/2) - 6 (1 - 2/3) = 24``. So ``D_o = 4/6``, ``D_e = 24/30`` and
    ``alpha = 1 - (4/6) / (24/30) = 1/6``. MASI: the pairs like ``({1}, {1, 2})`` are at
    ``1 - (1/2)(2/3) = 2/3`` and B's pairs at ``1 - (1/3)(1/3) = 8/9``, so the sums are
    ``2 (2/3 + 2/3 + 1) = 14/3`` and ``30 - 8/3 - 6/9 = 80/3``, ``D_o = 7/9``, ``D_e = 8/9``
    and ``alpha = 1/8``:

    >>> from clusteragree.core.distances import get_distance
    >>> s.sums(get_distance("jaccard")), round(s.compute("jaccard").alpha, 6)
    ((4.0, 24.0), 0.166667)
    >>> round(s.compute("masi").alpha, 6)
    0.125
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
    size: list[IntArray] = []
    npair: list[IntArray] = []
    for row, pres, full in zip(rows, present, complete, strict=True):
        n_classes = int(row.max()) + 1
        c_size = np.bincount(row if full else row[pres], minlength=n_classes)
        if full and all_pairable:
            c_pair = c_size
        else:
            c_pair = np.bincount(row[pres & pairable], minlength=n_classes)
        size.append(c_size)
        npair.append(c_pair)
        # A value of a unit in a class of c units has c - 1 elements.
        by_size = np.bincount(np.maximum(c_size - 1, 0), weights=c_pair)
        hit = np.flatnonzero(by_size)
        sizes.append(np.column_stack([hit, by_size[hit]]).astype(np.float64))
        # Two values of one coder intersect only inside one class: C - {t} and C - {u}.
        same = (c_pair >= 2) & (c_size >= 3)
        p = c_pair[same].astype(np.float64)
        by_size = np.bincount(c_size[same] - 1, weights=p * (p - 1.0))
        hit = np.flatnonzero(by_size)
        expected.append(np.column_stack([hit, hit, hit - 1, by_size[hit]]).astype(np.float64))

    pairs = [(i, j) for i in range(len(rows)) for j in range(i + 1, len(rows))]
    kernels = pair_kernel() if compiled is True or (
        compiled is None and classes.shape[1] >= COMPILED_FROM) else None
    if compiled is True and kernels is None:
        raise ParameterError("compiled=True needs numba, which is not available here")
    if kernels is not None:
        found = _compiled_pairs(pairs, rows, m, size, npair, jobs)
    else:
        fsize = [x.astype(np.float64) for x in size]
        fpair = [x.astype(np.float64) for x in npair]
        found = [_numpy_pair(rows[i], rows[j], present[i] & present[j],
                             complete[i] and complete[j], fsize[i], fsize[j], fpair[i],
                             fpair[j], m) for i, j in pairs]
    for obs, exp in found:
        observed.extend(obs)
        expected.extend(exp)
    return CardinalityStats.build(
        n, int(pairable.sum()), len(rows), observed, expected, sizes,
        meta=dict(meta), engine="classes",
    )


def _compiled_pairs(pairs: list[tuple[int, int]], rows: list[Any], m: Any, sizes: list[IntArray],
                    pairables: list[IntArray], jobs: int | None
                    ) -> list[tuple[list[FloatArray], list[FloatArray]]]:
    """The rows of every pair of coders by the compiled kernel, ``jobs`` pairs at a time."""
    grouped = {i: by_class(rows[i], len(sizes[i])) for i in sorted({i for i, _ in pairs})}
    with np.errstate(divide="ignore"):
        inv = 1.0 / (m - 1.0)  # read only where two coders coded the unit

    def one(ij: tuple[int, int]) -> tuple[list[FloatArray], list[FloatArray]]:
        i, j = ij
        obs, exp = pair_rows(grouped[i], rows[j], inv, sizes[i], sizes[j], pairables[i],
                             pairables[j])
        return [obs], [exp]

    workers = max(1, min(resolve_jobs(jobs), len(pairs)))
    if workers == 1:
        return [one(ij) for ij in pairs]
    with ThreadPoolExecutor(workers) as pool:  # the kernel releases the GIL
        return list(pool.map(one, pairs))


def _numpy_pair(ci: Any, cj: Any, both: Any, complete: bool, size_i: FloatArray,
                size_j: FloatArray, npair_i: FloatArray, npair_j: FloatArray, m: Any
                ) -> tuple[list[FloatArray], list[FloatArray]]:
    """The observed and expected rows of one pair of coders, by sorting (numpy alone)."""
    observed: list[FloatArray] = []
    expected: list[FloatArray] = []
    mm = m
    if not complete:
        if not both.any():
            return observed, expected
        ci, cj, mm = ci[both], cj[both], m[both]
    # A unit alone in its class for both coders: the pair (empty, empty), nothing else.
    alone = (size_i[ci] == 1) & (size_j[cj] == 1)
    if alone.any():
        w_alone = float((1.0 / (mm[alone] - 1.0)).sum())
        observed.append(np.array([[0.0, 0.0, 0.0, 2.0 * w_alone]]))
        ci, cj, mm = ci[~alone], cj[~alone], mm[~alone]
        if not len(ci):
            return observed, expected
    ca, cb, k, w_obs = contingency(ci, cj, len(size_j), mm)
    a, b = size_i[ca] - 1, size_j[cb] - 1
    p, q = npair_i[ca], npair_j[cb]
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
    return observed, expected
