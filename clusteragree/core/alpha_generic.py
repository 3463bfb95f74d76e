"""The generic alpha engine: statistics over distinct value types.

:class:`ValueStats` holds, for the pairable values of a table, the count of each distinct value
(the marginals ``n_v``) and the coincidences ``o_vw`` of Krippendorff (2011): ordered pairs of
values inside a unit, each weighted ``1 / (m_u - 1)``. Both add across documents, merging equal
values, so the statistics of a corpus are the sum of those of its documents, whatever the values.

Distances are applied at the end, vectorised:

* set distances go through a sparse incidence matrix ``V`` (value types x labels): ``V @ V.T``
  holds every intersection size at once and only intersecting pairs are materialised
  (:class:`~clusteragree.core.alpha_classes.CardinalityStats` does the rest);
* a distance that declares ``equality`` (``nominal``) compares value types; one that declares an
  ``embedding`` (``interval``, and ``ordinal`` bound to the mid-ranks of the marginals) has a
  closed form linear in the number of types; other vectorised scalar distances (``ratio``) are
  summed over blocks of type pairs;
* any callable ``f(x, y)`` is called once per distinct pair of value types.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .._lazy import module
from ..errors import ParameterError, option
from ..progress import Progress
from .alpha_classes import CardinalityStats, alpha_in_units
from .crosstab import sum_by_key
from .distances import Distance, as_numbers, checked, get_distance
from .result import AlphaResult

if TYPE_CHECKING:
    import pandas as pd
    import scipy.sparse as sp
else:
    pd = module("pandas")
    sp = module("scipy.sparse")

__all__ = ["ValueStats", "value_stats"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: Unit counts go into dense units x types blocks (of at most DENSE_BLOCK cells) when the table
#: would have at most DENSE_COUNTS cells per value (plus a little); a sparse matrix otherwise.
DENSE_COUNTS = 4
DENSE_BLOCK = 1 << 22

#: Coder by coder, the coincidences go into a dense (types + 1) x (types + 1) table (the last
#: type standing for missing) when it has at most DENSE_PAIRS cells per unit (plus a little);
#: otherwise the pairs of values present are grouped and summed.
DENSE_PAIRS = 4

#: With at most FEW_CODERS * (1 + (types + 1) / 12) coders, coincidences are counted one pair
#: of coders at a time; with more, from the counts of each value type in each unit. The cost of
#: the first grows with the square of the coders, that of the second with the coders and with
#: the types (a dense row of types per unit); on a million random cells they meet near 7 coders
#: with 2 types, 10 with 5 and 14 with 10.
FEW_CODERS = 6


def _pairs_of(matrix: FloatArray) -> tuple[IntArray, FloatArray]:
    """The (v, w) cells of a dense coincidence matrix that hold a weight, in order."""
    row, col = np.nonzero(matrix > 0)
    return np.column_stack([row, col]).astype(np.int64), matrix[row, col].astype(np.float64)


def _coder_pairs(typed: IntArray, m_unit: IntArray, n_types: int
                 ) -> tuple[IntArray, FloatArray]:
    """Coincidences of the pairable units ``typed`` (coders x units, value types, ``n_types``
    where missing), summed over every ordered pair of coders: each unit coded by both adds
    ``1 / (m_u - 1)`` to the pair of their value types."""
    inv_weight = 1.0 / (m_unit - 1.0)
    side = n_types + 1
    n_coders, n_units = typed.shape
    if side * side <= DENSE_PAIRS * (n_units + 256):  # few types: count into a dense table
        table = np.zeros(side * side)
        for a in range(n_coders):
            first = typed[a] * side
            for b in range(a + 1, n_coders):  # the pair (b, a) is the mirror image
                table += np.bincount(first + typed[b], weights=inv_weight,
                                     minlength=side * side)
        half = table.reshape(side, side)[:n_types, :n_types]  # without the missing type
        return _pairs_of(half + half.T)
    width = max(n_types, 1)
    packed_all, weight_all = [], []
    for a in range(n_coders):
        for b in range(a + 1, n_coders):
            both = (typed[a] < n_types) & (typed[b] < n_types)
            if not both.any():
                continue
            packed_all.append(typed[a, both] * width + typed[b, both])
            weight_all.append(inv_weight[both])
    if not packed_all:
        return np.zeros((0, 2), dtype=np.int64), np.zeros(0)
    half_pairs, weights = _aggregate_packed(np.concatenate(packed_all),
                                            np.concatenate(weight_all), n_types)
    return _aggregate(np.vstack([half_pairs, half_pairs[:, ::-1]]),
                      np.concatenate([weights, weights]), n_types)


def _unit_counts(typed: IntArray, m_unit: IntArray, n_types: int, n_values: int
                 ) -> tuple[IntArray, FloatArray]:
    """Coincidences from ``n_uv``, the number of values of type ``v`` in unit ``u`` (``typed``
    as for :func:`_coder_pairs`; ``n_values`` values in all):
    ``o_vw = sum_u n_uv n_uw / (m_u - 1)`` for ``v != w`` and
    ``o_vv = sum_u n_uv (n_uv - 1) / (m_u - 1)`` (Krippendorff 2011, the coincidence matrix).
    Dense products over blocks of units when there are few value types, a sparse product
    otherwise: the work grows with the distinct value types per unit, not with the square of
    the coders."""
    n_units, side = typed.shape[1], n_types + 1
    inv_weight = 1.0 / (m_unit - 1.0)
    if n_units * side <= DENSE_COUNTS * (n_values + 256):  # few types: dense blocks
        matrix = np.zeros((n_types, n_types))
        step = max(1, DENSE_BLOCK // side)  # units per block
        for first in range(0, n_units, step):
            block = typed[:, first:first + step]
            n_block = block.shape[1]
            keys = block + np.arange(0, n_block * side, side)  # unit-major, type-minor
            dense = np.bincount(keys.reshape(-1), minlength=n_block * side).reshape(
                n_block, side)[:, :n_types].astype(np.float64)
            weighted = dense * inv_weight[first:first + n_block, None]
            part = weighted.T @ dense
            np.fill_diagonal(part, (weighted * (dense - 1.0)).sum(axis=0))
            matrix += part
        return _pairs_of(matrix)
    width = max(n_types, 1)
    unit_ix, coder_ix = np.nonzero(typed.transpose() < n_types)
    types = typed[coder_ix, unit_ix]
    counts = sp.csr_matrix((np.ones(len(types)), (unit_ix, types)), shape=(n_units, width))
    counts.sum_duplicates()
    product = ((sp.diags(inv_weight) @ counts).T @ counts).tocoo()
    row, col = product.row.astype(np.int64), product.col.astype(np.int64)
    off = row != col
    n_uv = counts.data
    per_entry = np.repeat(inv_weight, np.diff(counts.indptr)) * n_uv * (n_uv - 1.0)
    diagonal = np.bincount(counts.indices, weights=per_entry, minlength=width)
    kept = np.flatnonzero(diagonal > 0)
    pairs = np.column_stack([np.concatenate([row[off], kept]),
                             np.concatenate([col[off], kept])]).astype(np.int64)
    return _aggregate(pairs, np.concatenate([product.data[off], diagonal[kept]]), n_types)


def _aggregate(pairs: IntArray, weights: FloatArray, n_types: int) -> tuple[IntArray, FloatArray]:
    """Sum the weights of equal (v, w) pairs (sorted by v, then w)."""
    if len(pairs) == 0:
        return pairs.reshape(0, 2), weights
    (first, second), summed = sum_by_key([pairs[:, 0], pairs[:, 1]], weights)
    return np.column_stack([first, second]).astype(np.int64), summed


def _aggregate_packed(packed: IntArray, weights: FloatArray, n_types: int
                      ) -> tuple[IntArray, FloatArray]:
    """:func:`_aggregate` of pairs packed as ``v * n_types + w``."""
    width = max(n_types, 1)
    (keys,), summed = sum_by_key([packed], weights)
    return np.column_stack([keys // width, keys % width]).astype(np.int64), summed


@dataclass(frozen=True)
class ValueStats:
    """Marginals and coincidences of the pairable values; they add across documents.

    Adding two statistics merges equal values, so the statistics of a corpus are the sum of those
    of its parts however the units are split (``ValueStats()`` is the zero of ``+``). Any
    distance applies at the end (:meth:`compute`).

    Attributes
    ----------
    values : tuple, default=()
        The distinct pairable values (scalars, or frozensets for set values).
    counts : ndarray of float, shape (L,)
        ``n_v``: how many pairable values equal each of ``values``. Default: empty.
    pairs : ndarray of int, shape (P, 2)
        Ordered pairs ``(v, w)`` of indices into ``values`` that coincide in some unit
        (``v == w`` included). Default: empty.
    weights : ndarray of float, shape (P,)
        The coincidence ``o_vw`` of each pair: over the units, the ordered pairs of values of
        different coders equal to ``(v, w)``, each weighted ``1 / (m_u - 1)``. Every pairable
        value has total weight 1, so ``weights.sum() == n``. Default: empty.
    units : int, default=0
        Number of pairable units (coded by at least two coders).
    coders : int, default=0
        Number of coders with at least one value (the largest of the summands when added).
    meta : mapping of str to str, default={}
        Provenance of the table, echoed in the signature; kept by ``+`` only when both
        summands have the same.

    Notes
    -----
    ``D_o = sum(o_vw d(v, w)) / n`` and ``D_e = sum_v,w n_v (n_w - [v = w]) d(v, w) / (n (n - 1))``
    (Krippendorff 2011). How each kind of distance is summed is in the module's description and
    in docs/alpha.md, "Generic engine".

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43. (Coincidences, marginals, ``D_o`` and ``D_e``; the
    4 coders x 12 units example with missing values.)

    Passonneau, R. (2004). Computing reliability for coreference annotation. LREC. (The set
    distance 0, 1/3, 2/3, 1.)

    DKPro Statistics, ``SetAnnotationsTest.java`` (the nine set-valued items below).

    docs/alpha.md, "Generic engine" and "Statistics that add".

    Examples
    --------
    Unit 1 has ``a, a`` and unit 2 ``a, b``. One of the two units disagrees, so
    ``D_o = 2/4``; of the 4 * 3 ordered pairs of the values ``a, a, a, b``, 6 are unequal, so
    ``D_e = 6/12`` and nominal alpha is 0:

    >>> from clusteragree import CodingTable
    >>> t = CodingTable.from_records([("A", 1, "a"), ("B", 1, "a"), ("A", 2, "a"), ("B", 2, "b")])
    >>> s = value_stats(t)
    >>> s.n, round(s.compute("nominal").alpha, 6)
    (4, 0.0)

    Krippendorff (2011)'s 4 coders x 12 units, ``None`` for a missing value. The coincidences
    are his matrix (shown times 3, since units of three values weigh 1/2 and units of four
    1/3); its diagonal holds 32 of the 40 pairable values, so nominal ``D_o = 8/40``:

    >>> import numpy as np
    >>> data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    ...         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    ...         [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    ...         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None]]
    >>> k = value_stats(CodingTable.from_matrix(data, coders=list("ABCD")))
    >>> k.values, k.counts.tolist(), k.n, k.units
    ((1, 2, 3, 4, 5), [9.0, 13.0, 10.0, 5.0, 3.0], 40, 11)
    >>> o = np.zeros((5, 5))
    >>> o[k.pairs[:, 0], k.pairs[:, 1]] = k.weights
    >>> (3 * o).round().astype(int).tolist()
    [[21, 4, 1, 1, 0], [4, 30, 4, 1, 0], [1, 4, 24, 1, 0], [1, 1, 1, 12, 0], [0, 0, 0, 0, 9]]

    The same statistics give his four published values: nominal 113/152 = 0.743, ordinal
    0.815, interval 951/1120 = 0.849 and ratio 0.797:

    >>> [round(k.compute(d).alpha, 6) for d in ("nominal", "ordinal", "interval", "ratio")]
    [0.743421, 0.815388, 0.849107, 0.797403]

    Statistics add: the two halves of the units give the statistics of the whole table:

    >>> left = value_stats(CodingTable.from_matrix([row[:6] for row in data], coders=list("ABCD")))
    >>> right = value_stats(CodingTable.from_matrix([row[6:] for row in data],
    ...                                            coders=list("ABCD")))
    >>> whole = left + right
    >>> whole.n, whole.units, round(whole.compute("nominal").alpha, 6)
    (40, 11, 0.743421)

    Set values with empty sets: DKPro Statistics' ``SetAnnotationsTest`` (two coders, nine
    items) checks ``D_o, D_e, alpha`` = 0.333, 0.409, 0.186 for Passonneau's (2004) set distance
    and 0.253, 0.338, 0.252 for its MASI variant, within 0.001. Passonneau (2004) puts the
    items at 0, 1/3 (``{} < {A}``), 0, 1, 1/3, 2/3, 0, 1/3, 1/3: 3 in all, so the observed sum
    over both orders is 6 and ``D_o = 6/18``:

    >>> c1 = [set(), {"A"}, {"A"}, {"A"}, {"A", "B"}, {"A", "B"}, {"A", "B", "C"}, {"C"}, {"C"}]
    >>> c2 = [set(), set(), {"A"}, {"B"}, {"A"}, {"A", "C"}, {"A", "B", "C"}, {"A", "C"},
    ...       {"A", "C"}]
    >>> sets = value_stats(CodingTable.from_records(
    ...     [(c, i, v) for c, row in (("1", c1), ("2", c2)) for i, v in enumerate(row)]))
    >>> sets.n, sets.sums(get_distance("passonneau2004"))[0]
    (18, 6.0)
    >>> r = sets.compute("passonneau2004")
    >>> round(r.D_o, 4), round(r.D_e, 4), round(r.alpha, 4)
    (0.3333, 0.4096, 0.1862)
    >>> r = sets.compute("masi_dkpro")
    >>> round(r.D_o, 4), round(r.D_e, 4), round(r.alpha, 4)
    (0.2531, 0.3388, 0.2529)
    """

    values: tuple[Any, ...] = ()
    counts: FloatArray = field(default_factory=lambda: np.zeros(0))
    pairs: IntArray = field(default_factory=lambda: np.zeros((0, 2), dtype=np.int64))
    weights: FloatArray = field(default_factory=lambda: np.zeros(0))
    units: int = 0
    coders: int = 0
    meta: Mapping[str, str] = field(default_factory=dict)

    @property
    def n(self) -> int:
        """Number of pairable values (``counts.sum()``)."""
        return round(float(self.counts.sum()))

    def __add__(self, other: ValueStats) -> ValueStats:
        if not isinstance(other, ValueStats):
            return NotImplemented
        index = {v: k for k, v in enumerate(self.values)}
        values = list(self.values)
        remap = np.empty(len(other.values), dtype=np.int64)
        for k, v in enumerate(other.values):
            if v not in index:
                index[v] = len(values)
                values.append(v)
            remap[k] = index[v]
        counts = np.zeros(len(values))
        counts[: len(self.values)] = self.counts
        counts[remap] += other.counts
        pairs = np.vstack([self.pairs, remap[other.pairs]])
        weights = np.concatenate([self.weights, other.weights])
        pairs, weights = _aggregate(pairs, weights, len(values))
        meta = dict(self.meta) if dict(self.meta) == dict(other.meta) else {}
        return ValueStats(tuple(values), counts, pairs, weights, self.units + other.units,
                          max(self.coders, other.coders), meta)

    def __radd__(self, other: object) -> ValueStats:
        if other == 0:  # support sum()
            return self
        return NotImplemented

    @property
    def value_kind(self) -> str:
        """``"set"`` if the values are frozensets, else ``"scalar"``."""
        if self.values and not isinstance(self.values[0], frozenset):
            return "scalar"
        return "set"

    # ------------------------------------------------------------------ sums per distance
    def to_cardinality(self) -> CardinalityStats:
        """The same statistics as cardinality histograms (set values only; computed once).

        Returns
        -------
        CardinalityStats
            With ``engine="generic"``; gives the same alpha for every set distance.

        Raises
        ------
        ParameterError
            If the values are scalars.
        """
        if self.value_kind != "set":
            raise ParameterError("cardinality statistics need set values; these are scalars")
        return self._cardinality

    @cached_property
    def _cardinality(self) -> CardinalityStats:
        sizes_of = np.fromiter((len(v) for v in self.values), dtype=np.int64,
                               count=len(self.values))
        indptr = np.concatenate([[0], np.cumsum(sizes_of)])
        flat = pd.Series(list(chain.from_iterable(self.values)), dtype=object)
        codes, labels = pd.factorize(flat, use_na_sentinel=False)
        if len(codes) and codes.min() < 0:  # never index the incidence matrix out of range
            raise ParameterError("a label set holds a label that cannot be indexed")
        incidence = sp.csr_matrix(
            (np.ones(len(codes)), codes.astype(np.int64), indptr),
            shape=(len(self.values), len(labels)),
        )
        size = sizes_of.astype(np.float64)
        pi, pj = self.pairs[:, 0], self.pairs[:, 1]
        # sparse: only the pairs of types that share a label are materialised (no dense
        # types x types product, whose cells and BLAS threads grow with the square of the types)
        inter = (incidence @ incidence.T).tocsr()
        # the product is symmetric and so are the distances in (|A|, |B|): each unordered
        # pair of types once, smaller size first, with the count of both orders
        upper = sp.triu(inter, format="coo")
        r, c, data = upper.row.astype(np.int64), upper.col.astype(np.int64), upper.data
        shared = np.asarray(inter[pi, pj]).ravel() if len(pi) else np.zeros(0)
        n_r, n_c = self.counts[r], self.counts[c]
        count = np.where(r == c, n_r * (n_r - 1.0), 2.0 * n_r * n_c)
        expected = np.column_stack([np.minimum(size[r], size[c]), np.maximum(size[r], size[c]),
                                    data, count])
        observed = np.column_stack([size[pi], size[pj], shared, self.weights])
        sizes = np.column_stack([size, self.counts])
        return CardinalityStats.build(self.n, self.units, self.coders, [observed], [expected],
                                      [sizes], meta=dict(self.meta), engine="generic")

    def sums(self, distance: Distance) -> tuple[float, float]:
        """Observed and expected disagreement sums (see :func:`alpha_from_sums`).

        The path follows what the distance declares (:class:`~clusteragree.Distance`), never
        its name: set distances on sets use the cardinality statistics, ``equality`` counts
        unequal pairs, an ``embedding`` gives the expected sum in closed form, a marginal
        distance is first bound to these values and counts.

        Parameters
        ----------
        distance : Distance
            Any distance; a set distance needs set values and a numeric one numbers.

        Returns
        -------
        (float, float)
            ``n * D_o`` and ``n (n - 1) * D_e``.

        Raises
        ------
        ParameterError
            If the distance does not apply to the values, or gives a NaN, an infinite or a
            negative distance for some pair of them (:func:`~.distances.checked`).
        """
        observed, expected, power = self.scaled_sums(distance)
        return float(np.ldexp(observed, power)), float(np.ldexp(expected, power))

    def scaled_sums(self, distance: Distance) -> tuple[float, float, int]:
        """:meth:`sums` in a unit of ``2**power``, and ``power``.

        The unit is the power of two just above the largest distance evaluated, or, for a
        distance with an ``embedding`` (interval, a bound ordinal), the squared spread of the
        embedded values, which are summed shifted and scaled (so that values near 1e308
        neither overflow nor values near 1e-7 look all equal); alpha is the same in any unit
        (:func:`~clusteragree.core.alpha_classes.alpha_in_units`). Every distance evaluated
        is checked: a NaN, an infinite or a negative distance is refused with the pair of
        values.

        Parameters
        ----------
        distance : Distance
            As for :meth:`sums`.

        Returns
        -------
        (float, float, int)
            ``n * D_o`` and ``n (n - 1) * D_e`` divided by ``2**power``, and ``power``.
        """
        pi, pj, w, n_v = self.pairs[:, 0], self.pairs[:, 1], self.weights, self.counts
        if distance.marginal:
            distance = distance.bind(self.values, n_v)
        if distance.kind == "set" and self.value_kind == "set":
            return self.to_cardinality().scaled_sums(distance)
        if distance.equality:
            total = float(n_v.sum())
            return float(w[pi != pj].sum()), total * total - float(n_v @ n_v), 0
        if distance.kind == "set":
            raise ParameterError(
                f"The {distance.name!r} distance compares sets; the table holds scalar values "
                f"({option('distance', 'nominal')} compares any values).", params=("distance",))
        if distance.embedding is not None:
            return self._embedded_sums(distance)
        if distance.kind == "scalar":
            x = self._floats(distance, as_numbers)
            func = distance.func
            d_o = self._checked(distance, func(x[pi], x[pj]), pi, pj) if len(w) \
                else np.zeros(0)
            expected, top = self._expected_by_blocks(distance, lambda i, j: func(x[i], x[j]))
            return self._in_power(float(w @ d_o) if len(w) else 0.0, expected,
                                  max(top, float(d_o.max(initial=0.0))))
        cache = self._checked(distance, [float(distance.func(self.values[i], self.values[j]))
                                         for i, j in zip(pi.tolist(), pj.tolist(), strict=True)],
                              pi, pj)
        observed = float(np.dot(w, cache)) if len(cache) else 0.0
        expected, top = self._expected_pairwise(distance)
        return self._in_power(observed, expected, max(top, float(cache.max(initial=0.0))))

    @staticmethod
    def _in_power(observed: float, expected: float, top: float) -> tuple[float, float, int]:
        """The sums in units of the power of two just above ``top`` (exact)."""
        power = int(np.frexp(top)[1])
        return float(np.ldexp(observed, -power)), float(np.ldexp(expected, -power)), power

    def _checked(self, distance: Distance, d: Any, i: Any, j: Any) -> FloatArray:
        """:func:`checked` distances of the pairs of types ``(i, j)`` (broadcast)."""
        d = np.asarray(d, dtype=np.float64)
        i, j = np.broadcast_to(i, d.shape), np.broadcast_to(j, d.shape)
        return checked(distance, d, lambda k: (
            f"the values {self.values[int(i.flat[k])]!r} and {self.values[int(j.flat[k])]!r}"))

    def _embedded_sums(self, distance: Distance) -> tuple[float, float, int]:
        """The sums of ``d(x, y) = (e(x) - e(y))**2`` from the embedded values: observed over
        the coincidences, expected in closed form, ``2 n sum_v n_v (e_v - mean)**2``; the
        values shifted to start at 0 and scaled by a power of two to below 1, in two exact
        steps (no overflow of the spread of values near 1e308)."""
        pi, pj, w, n_v = self.pairs[:, 0], self.pairs[:, 1], self.weights, self.counts
        x = self._floats(distance, distance.embedding)
        if not np.isfinite(x).all():
            k = int(np.flatnonzero(~np.isfinite(x))[0])
            raise ParameterError(
                f"the distance {distance.name!r} places the value {self.values[k]!r} at "
                f"{float(x[k])!r}; alpha needs finite positions", params=("distance",))
        if not len(x):
            return 0.0, 0.0, 0
        _, big = np.frexp(float(np.abs(x).max()))
        y = np.ldexp(x, -big)  # exact, in (-1, 1)
        y = y - y.min()  # in [0, 2)
        _, spread = np.frexp(float(y.max()))
        z = np.ldexp(y, -spread)  # exact, in [0, 1)
        observed = float(w @ (z[pi] - z[pj]) ** 2) if len(w) else 0.0
        total = float(n_v.sum())
        mean = float(n_v @ z) / total if total else 0.0
        return observed, 2.0 * total * float(n_v @ (z - mean) ** 2), 2 * (big + spread)

    def _floats(self, distance: Distance, embed: Any) -> FloatArray:
        if self.value_kind == "set" and self.values:
            raise ParameterError(
                f"The {distance.name!r} distance needs single numeric values; the table holds "
                f"sets such as {set(self.values[0]) or '{}'}.", params=("distance",))
        try:
            return np.asarray(embed(self.values), dtype=np.float64)
        except ParameterError as err:
            raise ParameterError(f"The {distance.name!r} distance: {err}",
                                 params=("distance",)) from None

    def _expected_by_blocks(self, distance: Distance, dist: Any) -> tuple[float, float]:
        """The expected sum of a vectorised distance over blocks of pairs of types, and the
        largest distance (each block checked)."""
        n_v = self.counts
        idx = np.arange(len(n_v))
        same = self._checked(distance, dist(idx, idx), idx, idx)
        total, top = -float(n_v @ same), float(same.max(initial=0.0))
        for start in range(0, len(n_v), 1024):
            block = idx[start : start + 1024]
            d = self._checked(distance, dist(block[:, None], idx[None, :]), block[:, None],
                              idx[None, :])
            total += float(n_v[block] @ d @ n_v)
            top = max(top, float(d.max(initial=0.0)))
        return total, top

    def _expected_pairwise(self, distance: Distance) -> tuple[float, float]:
        """Sum of a Python callable over pairs of types (assumed symmetric), and the largest
        distance (each checked)."""
        n_v, values = self.counts, self.values
        total = top = 0.0
        count = len(values)
        with Progress(count * (count + 1) // 2, "pairs of values") as bar:
            for i in range(count):
                row = self._checked(distance, [float(distance.func(values[i], values[j]))
                                               for j in range(i, count)], i, np.arange(i, count))
                total += n_v[i] * (n_v[i] - 1.0) * float(row[0])
                total += 2.0 * n_v[i] * float(n_v[i + 1:] @ row[1:])
                top = max(top, float(row.max(initial=0.0)))
                bar.update(count - i)
        return total, top

    def compute(self, distance: str | Distance = "masi") -> AlphaResult:
        """Alpha for one distance.

        Parameters
        ----------
        distance : str, Distance or callable, default="masi"
            A name from :data:`~clusteragree.core.distances.DISTANCES`, a
            :class:`~clusteragree.core.distances.Distance`, or any symmetric ``f(x, y)``.

        Returns
        -------
        AlphaResult
            Alpha with ``D_o``, ``D_e``, ``n`` and the signature (``engine:generic``).
        """
        dist = get_distance(distance)
        observed, expected, power = self.scaled_sums(dist)
        return alpha_in_units(observed, expected, power, self.n, self.units, self.coders, dist,
                              "generic", self.meta)


def value_stats(table: Any) -> ValueStats:
    """Marginals and coincidences of a :class:`~clusteragree.CodingTable`.

    Units with fewer than two values are not pairable and contribute nothing. This is the
    generic engine: it works for any values and any distance.

    Parameters
    ----------
    table : CodingTable
        Coders x units, missing cells allowed; scalar or set values.

    Returns
    -------
    ValueStats
        The distinct pairable values with their counts ``n_v`` and coincidences ``o_vw``.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
    Communication Departmental Papers 43.

    NLTK, ``nltk/test/unit/test_disagreement.py``, ``test_easy`` (alpha = -1/3).

    docs/alpha.md, "Generic engine".

    Examples
    --------
    NLTK's small test of alpha (``test_easy``): three coders; the first dress gets yes, no,
    no, the second yes, no (coder C gave nothing), the third only no (one value: not
    pairable). In the first unit
    each of the 6 ordered pairs weighs 1/2: ``yes-no`` and ``no-yes`` twice each, ``no-no``
    twice; in the second each of the 2 pairs weighs 1. So ``o(yes, no) = o(no, yes) = 2``,
    ``o(no, no) = 1``, ``n = 5`` with ``n_yes = 2`` and ``n_no = 3``:

    >>> from clusteragree import CodingTable
    >>> t = CodingTable.from_records([("A", "dress1", "yes"), ("B", "dress1", "no"),
    ...                               ("C", "dress1", "no"), ("A", "dress2", "yes"),
    ...                               ("B", "dress2", "no"), ("C", "dress3", "no")])
    >>> s = value_stats(t)
    >>> s.values, s.counts.tolist(), s.units, s.coders
    (('yes', 'no'), [2.0, 3.0], 2, 3)
    >>> s.pairs.tolist(), s.weights.tolist()
    ([[0, 1], [1, 0], [1, 1]], [2.0, 2.0, 1.0])

    Nominal: ``D_o = 4/5``, ``D_e = (25 - 4 - 9) / 20 = 3/5``, alpha ``= 1 - 4/3 = -1/3``, the
    value NLTK's test expects:

    >>> r = s.compute("nominal")
    >>> round(r.D_o, 6), round(r.D_e, 6), round(r.alpha, 6)
    (0.8, 0.6, -0.333333)
    """
    codes = table.codes
    patterns = _pattern_stats(codes, len(table.values))
    if patterns is not None:  # few coders and few values: count each unit's pattern once
        type_codes, counts, pairs, weights, units, coders = patterns
        values = tuple(table.values[k] for k in type_codes.tolist())
        return ValueStats(values, counts, pairs, weights, units, coders,
                          dict(getattr(table, "meta", {})))
    present = codes >= 0
    m = present.sum(axis=0)
    pairable = m >= 2
    coders = int(present.any(axis=1).sum())
    sub = codes if pairable.all() else codes.compress(pairable, axis=1)  # C order, rows fast
    n_values = len(table.values)
    typed = np.arange(n_values + 1)[sub]  # the code of each cell, n_values where missing (-1)
    used = np.bincount(typed.reshape(-1), minlength=n_values + 1)[:n_values]
    type_codes = np.flatnonzero(used)
    n_types = len(type_codes)
    if n_types < n_values:  # number the values of pairable units only; n_types where missing
        to_type = np.full(n_values + 1, n_types, dtype=np.int64)
        to_type[type_codes] = np.arange(n_types)
        typed = to_type[typed]
    counts = used[type_codes].astype(np.float64)
    if sub.shape[0] <= FEW_CODERS * (1 + (n_types + 1) / 12):  # pairs coder by coder
        pairs, weights = _coder_pairs(typed, m[pairable], n_types)
    else:  # more coders: from the counts of each value type in each unit
        pairs, weights = _unit_counts(typed, m[pairable], n_types, int(used.sum()))
    values = tuple(table.values[k] for k in type_codes.tolist())
    return ValueStats(values, counts, pairs, weights, int(pairable.sum()), coders,
                      dict(getattr(table, "meta", {})))


#: A table is counted by unit patterns when there are at most this many possible patterns
#: ((values + 1) ** coders) per unit of the table (plus 4,096).
PATTERNS_PER_UNIT = 0.5


def _pattern_stats(codes: IntArray, n_values: int) -> tuple[Any, ...] | None:
    """Alpha's statistics from how many units show each pattern (the tuple of the coders'
    value codes, missing included), when the patterns are few: each unit is read once, into
    one integer, and the coincidences are summed over the distinct patterns, each weighing
    ``count / (m - 1)``. None when the possible patterns outnumber the units
    (:data:`PATTERNS_PER_UNIT`).

    Returns ``(type_codes, counts, pairs, weights, units, coders)`` as :func:`value_stats`
    builds them: the value codes of the pairable values and their counts, the coincidences
    ``o_vw`` as pairs of type numbers and weights, the pairable units and the coders with a
    value.
    """
    n_coders, n_units = codes.shape
    side = n_values + 1
    if n_coders < 2 or side ** n_coders > PATTERNS_PER_UNIT * n_units + 4096:
        return None
    key = codes[0] + 1
    for c in range(1, n_coders):
        key *= side
        key += codes[c] + 1
    seen = np.bincount(key, minlength=side ** n_coders)
    found = np.flatnonzero(seen)
    count = seen[found].astype(np.float64)
    digits = np.empty((n_coders, len(found)), dtype=np.int64)  # the patterns' codes, + 1
    rest = found
    for c in range(n_coders - 1, -1, -1):
        rest, digits[c] = np.divmod(rest, side)
    coders = int((digits > 0).any(axis=1).sum())
    m = (digits > 0).sum(axis=0)
    pairable = m >= 2
    digits, count, m = digits[:, pairable], count[pairable], m[pairable]
    units = int(count.sum())
    per_value = np.zeros(side)
    for c in range(n_coders):
        per_value += np.bincount(digits[c], weights=count, minlength=side)
    type_codes = np.flatnonzero(per_value[1:])
    n_types = len(type_codes)
    to_type = np.full(side, -1, dtype=np.int64)
    to_type[type_codes + 1] = np.arange(n_types)
    weight = count / (m - 1.0)
    table = np.zeros(n_types * n_types)
    for a in range(n_coders):
        for b in range(a + 1, n_coders):
            both = (digits[a] > 0) & (digits[b] > 0)
            keys = to_type[digits[a, both]] * n_types + to_type[digits[b, both]]
            table += np.bincount(keys, weights=weight[both], minlength=n_types * n_types)
    half = table.reshape(n_types, n_types)
    pairs, weights = _pairs_of(half + half.T)
    return type_codes, per_value[type_codes + 1], pairs, weights, units, coders
