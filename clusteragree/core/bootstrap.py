"""Bootstrap intervals for alpha, by reweighting per-block statistics.

A bootstrap resample of units (or of whole documents) is a vector of weights ``r_b``: how many
times block ``b`` was drawn. Alpha of the resample needs no recomputation from the raw table:

* the observed sum is ``O* = sum_b r_b d_b``, where ``d_b`` is block ``b``'s share of the
  observed disagreement (its coincidences, each ``1 / (m_u - 1)``, times the distance);
* the marginals are ``n*_v = sum_b r_b n_bv`` and the number of values ``n* = sum_v n*_v``;
* the expected sum is the quadratic form ``E* = sum_{v,w} n*_v n*_w d(v, w) - sum_v n*_v
  d(v, v)``, evaluated in closed form for nominal (``n*^2 - sum n*_v^2``) and for an embedded
  distance such as interval, from the cardinalities of the sets for set distances (a histogram
  of set sizes plus the pairs of sets that intersect), and as a dense form otherwise;
* ``alpha* = 1 - (n* - 1) O* / E*``.

This is exactly alpha of the table in which every block is repeated ``r_b`` times (the tests
check it against that table, recomputed from scratch). Blocks are the pairable units of one
table, or the documents of a corpus (their units are not independent: tokens of one text share
its topic and its annotators' habits).

References
----------
Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.
(Percentile intervals and the bootstrap standard error.)
Hayes, A. F. & Krippendorff, K. (2007). Answering the call for a standard reliability measure
for coding data. Communication Methods and Measures 1(1), 77-89. (The probabilities that alpha
falls below 0.667 and 0.8, as their KALPHA macro reports them.)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .._lazy import module
from ..errors import InputError, ParameterError, ParameterTypeError, option
from ..progress import Progress
from .distances import Distance, DistanceLike, as_numbers, get_distance
from .intervals import (
    DEFAULT_INTERVAL,
    Interval,
    bootstrap_interval,
    check_interval,
    check_resamples,
    describe,
    outside_note,
)
from .parallel import resolve_jobs

if TYPE_CHECKING:
    import pandas as pd
    import scipy.sparse as sp
else:
    pd = module("pandas")
    sp = module("scipy.sparse")

__all__ = ["RESAMPLE", "BlockStats", "Bootstrap", "block_stats", "bootstrap_alpha",
           "reweighted_alpha"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: What a resample draws: units of the table, or whole documents.
RESAMPLE = ("units", "documents")

#: Thresholds whose probability of not being reached is reported (Krippendorff's 0.667 and 0.8).
THRESHOLDS = (0.667, 0.8)

#: At most this many weights (resamples x blocks) are held at once by one worker.
BATCH_CELLS = 1 << 23

#: Resamples per chunk at most (each chunk draws from its own stream).
CHUNK = 64

#: A distance that is only a Python callable on values is tabulated for at most this many types.
MAX_DENSE_TYPES = 3000


@dataclass(frozen=True)
class BlockStats:
    """Alpha's statistics kept per block (unit or document), so that resamples reweight them.

    Attributes
    ----------
    values : tuple
        The distinct pairable values (types).
    counts : scipy.sparse.csr_matrix, shape (blocks, types)
        ``n_bv``: how many pairable values of block ``b`` equal ``values[v]``.
    pairs : ndarray of int, shape (P, 2)
        The distinct ordered pairs of types that meet inside some unit.
    within : scipy.sparse.csr_matrix, shape (blocks, P)
        The coincidences of each pair in each block (each ordered pair of values of a unit
        weighs ``1 / (m_u - 1)``).
    blocks : tuple
        The name of each block (unit labels, or document names).
    coders : int
        Coders with at least one value.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. (Coincidences and
    marginals, here kept per block.)

    Examples
    --------
    Two units, two coders: unit 1 holds (x, x), unit 2 holds (x, y).

    >>> from clusteragree import CodingTable
    >>> t = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "x"),
    ...                               ("B", 2, "y")])
    >>> s = block_stats(t)
    >>> s.values, s.counts.toarray().tolist()
    (('x', 'y'), [[2.0, 0.0], [1.0, 1.0]])
    """

    values: tuple[Any, ...]
    counts: sp.csr_matrix
    pairs: IntArray
    within: sp.csr_matrix
    blocks: tuple[Hashable, ...]
    coders: int
    meta: Mapping[str, str] = field(default_factory=dict)

    def collapse(self, name: Hashable) -> BlockStats:
        """All blocks as one (a document).

        Parameters
        ----------
        name : hashable
            The name of the single block.

        Returns
        -------
        BlockStats
            One block holding the sums of all.

        References
        ----------
        docs/uncertainty.md (resampling documents).

        Examples
        --------
        >>> from clusteragree import CodingTable
        >>> t = CodingTable.from_records([("A", 1, "x"), ("B", 1, "y")])
        >>> block_stats(t).collapse("doc").counts.toarray().tolist()
        [[1.0, 1.0]]
        """
        return BlockStats(self.values, sp.csr_matrix(self.counts.sum(axis=0)), self.pairs,
                          sp.csr_matrix(self.within.sum(axis=0)), (name,), self.coders,
                          dict(self.meta))

    def __add__(self, other: BlockStats) -> BlockStats:
        if not isinstance(other, BlockStats):
            return NotImplemented
        values = list(self.values)
        index = {v: k for k, v in enumerate(values)}
        remap = np.empty(len(other.values), dtype=np.int64)
        for k, v in enumerate(other.values):
            remap[k] = index.setdefault(v, len(values))
            if remap[k] == len(values):
                values.append(v)
        n_types = max(len(values), 1)
        moved = sp.csr_matrix((other.counts.data, remap[other.counts.indices],
                               other.counts.indptr), shape=(other.counts.shape[0], n_types))
        counts = sp.vstack([_widen(self.counts, n_types), moved]).tocsr()
        other_pairs = remap[other.pairs] if len(other.pairs) else other.pairs.reshape(0, 2)
        keys = np.concatenate([self.pairs[:, 0] * n_types + self.pairs[:, 1],
                               other_pairs[:, 0] * n_types + other_pairs[:, 1]])
        codes, uniq = pd.factorize(keys)
        first = sp.csr_matrix((self.within.data, codes[: len(self.pairs)][self.within.indices],
                               self.within.indptr), shape=(self.within.shape[0], len(uniq)))
        second = sp.csr_matrix((other.within.data,
                                codes[len(self.pairs):][other.within.indices],
                                other.within.indptr), shape=(other.within.shape[0], len(uniq)))
        uniq = np.asarray(uniq, dtype=np.int64)
        pairs = np.column_stack([uniq // n_types, uniq % n_types]).astype(np.int64)
        meta = dict(self.meta) if dict(self.meta) == dict(other.meta) else {}
        return BlockStats(tuple(values), counts, pairs, sp.vstack([first, second]).tocsr(),
                          self.blocks + other.blocks, max(self.coders, other.coders), meta)

    def __radd__(self, other: object) -> BlockStats:
        if other == 0:
            return self
        return NotImplemented


def _widen(matrix: sp.csr_matrix, columns: int) -> sp.csr_matrix:
    return sp.csr_matrix((matrix.data, matrix.indices, matrix.indptr),
                         shape=(matrix.shape[0], columns))


def block_stats(table: Any) -> BlockStats:
    """Per-unit statistics of a :class:`~clusteragree.CodingTable` (its pairable units).

    Parameters
    ----------
    table : CodingTable
        Any table; class-derived values are materialised as sets.

    Returns
    -------
    BlockStats
        One block per pairable unit.

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability.

    Examples
    --------
    Unit 2 is coded once: it is not pairable and has no block.

    >>> from clusteragree import CodingTable
    >>> t = CodingTable.from_records([("A", 1, "x"), ("B", 1, "y"), ("A", 2, "x")])
    >>> s = block_stats(t)
    >>> s.blocks, s.pairs.tolist(), s.within.toarray().tolist()
    ((1,), [[0, 1], [1, 0]], [[1.0, 1.0]])
    """
    codes = table.codes
    present = codes >= 0
    m = present.sum(axis=0)
    pairable = m >= 2
    sub = codes[:, pairable]
    n_units = sub.shape[1]
    unit_ix, coder_ix = np.nonzero(sub.T >= 0)
    raw = sub[coder_ix, unit_ix]
    type_codes, types = np.unique(raw, return_inverse=True)
    types = types.astype(np.int64).ravel()
    n_types = max(len(type_codes), 1)
    counts = sp.csr_matrix((np.ones(len(types)), (unit_ix, types)), shape=(n_units, n_types))
    counts.sum_duplicates()
    m_unit = m[pairable]
    starts = np.concatenate([[0], np.cumsum(m_unit)[:-1]]).astype(np.int64)
    rep = m_unit[unit_ix]
    first = np.repeat(np.arange(len(types)), rep)
    offsets = np.arange(len(first)) - np.repeat(np.cumsum(rep) - rep, rep)
    second = np.repeat(starts[unit_ix], rep) + offsets
    keep = first != second
    first, second = first[keep], second[keep]
    keys = types[first] * n_types + types[second]
    pair_codes, uniq = pd.factorize(keys)
    uniq = np.asarray(uniq, dtype=np.int64)
    within = sp.csr_matrix((1.0 / (rep[first] - 1.0), (unit_ix[first], pair_codes)),
                           shape=(n_units, len(uniq)))
    within.sum_duplicates()
    values = tuple(table.values[k] for k in type_codes.tolist())
    pairs = np.column_stack([uniq // n_types, uniq % n_types]).astype(np.int64)
    return BlockStats(values, counts, pairs, within,
                      tuple(table.units[pairable].tolist()),
                      int(present.any(axis=1).sum()), dict(getattr(table, "meta", {})))


# ---------------------------------------------------------------------------- distances
def pair_distances(stats: BlockStats, dist: Distance) -> FloatArray:
    """The distance of each pair of types in ``stats.pairs`` (shape ``(P,)``)."""
    pi, pj = stats.pairs[:, 0], stats.pairs[:, 1]
    if dist.equality:
        return (pi != pj).astype(np.float64)
    if dist.kind == "set":
        size, inter = _set_sizes(stats, pi, pj)
        return np.asarray(dist.func(size[pi], size[pj], inter), dtype=np.float64)
    if dist.embedding is not None:
        x = np.asarray(dist.embedding(stats.values), dtype=np.float64)
        return (x[pi] - x[pj]) ** 2
    if dist.kind == "scalar":
        x = np.asarray(as_numbers(stats.values), dtype=np.float64)
        return np.asarray(dist.func(x[pi], x[pj]), dtype=np.float64)
    return np.array([float(dist.func(stats.values[i], stats.values[j]))
                     for i, j in zip(pi.tolist(), pj.tolist(), strict=True)])


def _incidence(values: Sequence[Any]) -> sp.csr_matrix:
    sizes = np.fromiter((len(v) for v in values), dtype=np.int64, count=len(values))
    indptr = np.concatenate([[0], np.cumsum(sizes)])
    flat = pd.Series([label for v in values for label in v], dtype=object)
    codes, labels = pd.factorize(flat, use_na_sentinel=False)
    return sp.csr_matrix((np.ones(len(codes)), codes.astype(np.int64), indptr),
                         shape=(len(values), max(len(labels), 1)))


def _set_sizes(stats: BlockStats, pi: IntArray, pj: IntArray) -> tuple[FloatArray, FloatArray]:
    if stats.values and not isinstance(stats.values[0], frozenset):
        raise ParameterError("a set distance needs set values; these are scalars",
                             params=("distance",))
    incidence = _incidence(stats.values)
    size = np.asarray(incidence.sum(axis=1), dtype=np.float64).ravel()
    product = (incidence @ incidence.T).tocsr()
    inter = np.asarray(product[pi, pj]).ravel() if len(pi) else np.zeros(0)
    return size, inter


class ExpectedSums:
    """``E(n) = sum_{v,w} n_v n_w d(v, w) - sum_v n_v d(v, v)`` for rows of marginals ``n``."""

    def __init__(self, stats: BlockStats, dist: Distance) -> None:
        self.dist, self.kind = dist, "dense"
        self.counts = stats.counts.tocsr()
        values = stats.values
        self.width = len(values)
        if dist.equality:
            self.kind = "equality"
        elif dist.kind == "set":
            if values and not isinstance(values[0], frozenset):
                raise ParameterError(f"The {dist.name!r} distance compares sets; the table "
                                     "holds scalar values", params=("distance",))
            self.kind = "set"
            incidence = _incidence(values)
            self.size = np.asarray(incidence.sum(axis=1), dtype=np.int64).ravel()
            coo = (incidence @ incidence.T).tocoo()
            self.r, self.c = coo.row.astype(np.int64), coo.col.astype(np.int64)
            a, b = self.size[self.r].astype(float), self.size[self.c].astype(float)
            gain = (np.asarray(dist.func(a, b, coo.data), dtype=np.float64)
                    - np.asarray(dist.func(a, b, np.zeros(len(a))), dtype=np.float64))
            s = np.arange(int(self.size.max(initial=0)) + 1, dtype=np.float64)
            self.base = np.asarray(dist.func(s[:, None], s[None, :], np.zeros((1, 1))),
                                   dtype=np.float64)
            indicator = sp.csr_matrix(
                (np.ones(len(values)), (np.arange(len(values)), self.size)),
                shape=(len(values), len(s)))
            # in blocks: n* = N^T r, so n*^T G n* = r^T (N G N^T) r, a sparse blocks x blocks
            # form, and the sizes' histogram is (N S)^T r
            counts = stats.counts
            self.sizes_of_blocks = (counts @ indicator).tocsr()
            gains = sp.csr_matrix((gain, (self.r, self.c)), shape=(len(values), len(values)))
            self.pair_form = (counts @ gains @ counts.T).tocsr()
            self_gain = np.zeros(len(values))
            same = self.r == self.c
            self_gain[self.r[same]] = gain[same]
            self.self_gain = np.asarray(counts @ self_gain).ravel()
            self.width = max(len(values), s.size, counts.shape[0])
        elif dist.embedding is not None:
            self.kind = "embedding"
            self.x = np.asarray(dist.embedding(values), dtype=np.float64)
        else:
            if dist.kind == "scalar":
                x = np.asarray(as_numbers(values), dtype=np.float64)
                self.delta = np.asarray(dist.func(x[:, None], x[None, :]), dtype=np.float64)
            elif len(values) <= MAX_DENSE_TYPES:
                self.delta = np.array([[float(dist.func(v, w)) for w in values]
                                       for v in values])
            else:
                raise ParameterError(
                    f"the bootstrap of a distance given only as a Python function tabulates "
                    f"it over pairs of distinct values; {len(values):,} values are more than "
                    f"{MAX_DENSE_TYPES:,}", params=("distance",))
            counts = stats.counts
            self.block_form: FloatArray | None = None
            if counts.shape[0] <= len(values):  # fewer blocks than types: r^T (N D N^T) r
                self.block_form = np.asarray(counts @ (counts @ self.delta).T)
                self.block_self = np.asarray(counts @ np.diag(self.delta)).ravel()

    def left_out(self, n: FloatArray) -> FloatArray:
        """The expected sum with each block left out in turn (weights ``1 - e_b``), from the
        data's marginals ``n``: the quadratic form expanded around the full data."""
        counts = self.counts
        if self.kind == "equality":
            total = n.sum() - np.asarray(counts.sum(axis=1)).ravel()
            squares = (float(n @ n) - 2.0 * np.asarray(counts @ n).ravel()
                       + np.asarray(counts.multiply(counts).sum(axis=1)).ravel())
            return total * total - squares
        if self.kind == "embedding":
            total = n.sum() - np.asarray(counts.sum(axis=1)).ravel()
            first = float(n @ self.x) - np.asarray(counts @ self.x).ravel()
            second = float(n @ (self.x * self.x)) - np.asarray(counts @ (self.x * self.x)).ravel()
            return 2.0 * (total * second - first * first)
        if self.kind == "set":
            sizes = self.sizes_of_blocks
            hist = np.asarray(sizes.sum(axis=0), dtype=np.float64).ravel()
            base = self.base
            full = float(hist @ base @ hist) - float(hist @ np.diag(base))
            inner = (full - np.asarray(sizes @ (base @ hist)).ravel()
                     - np.asarray(sizes @ (base.T @ hist)).ravel()
                     + _rowwise(sizes, base, sizes)
                     + np.asarray(sizes @ np.diag(base)).ravel())
            form = self.pair_form
            paired = _quadratic_left_out(form, np.asarray(form.sum(axis=1)).ravel(),
                                         form.diagonal())
            return inner + paired - (self.self_gain.sum() - self.self_gain)
        if self.block_form is not None:
            form = self.block_form
            return (_quadratic_left_out(form, form.sum(axis=1), np.diag(form).copy())
                    - (self.block_self.sum() - self.block_self))
        delta = self.delta
        diagonal = np.diag(delta)
        return (float(n @ delta @ n) - np.asarray(counts @ (delta @ n)).ravel()
                - np.asarray(counts @ (delta.T @ n)).ravel() + _rowwise(counts, delta, counts)
                - (float(n @ diagonal) - np.asarray(counts @ diagonal).ravel()))

    def __call__(self, n: FloatArray, weights: FloatArray | None = None) -> FloatArray:
        """The expected sums for rows of marginals ``n`` (set distances: rows of block
        ``weights``, whose marginals ``n`` are)."""
        if self.kind == "equality":
            total = n.sum(axis=1)
            return total * total - (n * n).sum(axis=1)
        if self.kind == "embedding":
            total = n.sum(axis=1)
            first, second = n @ self.x, n @ (self.x * self.x)
            return 2.0 * (total * second - first * first)
        if self.kind == "set":
            if weights is None:
                raise ParameterError("set distances reweight blocks: give the weights")
            hist = np.asarray(self.sizes_of_blocks.T @ weights.T, dtype=np.float64).T
            base = np.einsum("ka,ab,kb->k", hist, self.base, hist) \
                - hist @ np.diag(self.base)
            paired = np.asarray(self.pair_form @ weights.T, dtype=np.float64).T
            return base + (paired * weights).sum(axis=1) - weights @ self.self_gain
        if weights is not None and self.block_form is not None:
            return ((weights @ self.block_form) * weights).sum(axis=1) - weights @ self.block_self
        return np.einsum("kv,vw,kw->k", n, self.delta, n) - n @ np.diag(self.delta)


def _rowwise(left: sp.csr_matrix, dense: FloatArray, right: sp.csr_matrix) -> FloatArray:
    """``sum_vw left_bv dense_vw right_bw`` for every row b, a chunk of rows at a time."""
    out = np.empty(left.shape[0])
    step = max(1, BATCH_CELLS // max(dense.shape[1], 1))
    for start in range(0, left.shape[0], step):
        part = np.asarray(left[start:start + step] @ dense)
        out[start:start + step] = np.asarray(
            right[start:start + step].multiply(part).sum(axis=1)).ravel()
    return out


def _quadratic_left_out(form: Any, ones_form: FloatArray, diagonal: FloatArray
                        ) -> FloatArray:
    """``r^T F r`` for ``r = 1 - e_b``, every b: ``1^T F 1 - (F 1)_b - (F^T 1)_b + F_bb``."""
    column = np.asarray(form.sum(axis=0)).ravel()
    return float(ones_form.sum()) - ones_form - column + diagonal


def _rebound(stats: BlockStats, dist: Distance, weights: FloatArray, marg: FloatArray
             ) -> tuple[FloatArray, FloatArray]:
    """Observed and expected sums of each resample for a distance bound to its marginals."""
    observed, expected = np.empty(len(weights)), np.empty(len(weights))
    for i in range(len(weights)):
        bound = dist.bind(stats.values, marg[i])
        observed[i] = float(weights[i] @ (stats.within @ pair_distances(stats, bound)))
        expected[i] = float(ExpectedSums(stats, bound)(marg[i : i + 1])[0])
    return observed, expected


class _Reweighting:
    """Alpha of the blocks of ``stats`` weighted by each row of a weight matrix."""

    def __init__(self, stats: BlockStats, dist: Distance) -> None:
        self.stats, self.dist = stats, dist
        self.sizes = np.asarray(stats.counts.sum(axis=1), dtype=np.float64).ravel()
        self.counts_t = stats.counts.T.tocsr()
        #: The widest array a resample needs (blocks, types, or pairs of types): batches of
        #: resamples are sized by it, so that memory stays at about BATCH_CELLS floats.
        self.width = max(stats.counts.shape[0], len(stats.values), len(stats.pairs), 1)
        if dist.marginal:  # bound to each resample's own marginals (ordinal's mid-ranks)
            self.per_block: FloatArray | None = None
        else:
            self.per_block = np.asarray(stats.within @ pair_distances(stats, dist)).ravel()
            self.expected = ExpectedSums(stats, dist)
            self.width = max(self.width, self.expected.width)

    def jackknife(self) -> FloatArray:
        """Alpha with each block left out in turn (weights ``1 - e_b``), in closed form: the
        sums are linear in the weights and the expected sums quadratic, so each leave-one-out
        value is the full sum minus the block's own terms."""
        stats, dist = self.stats, self.dist
        counts = stats.counts.tocsr()
        n = np.asarray(counts.sum(axis=0), dtype=np.float64).ravel()
        total = self.sizes.sum() - self.sizes
        if self.per_block is None:  # bound to the marginals left: one binding per count row
            observed, expected = np.empty(len(total)), np.empty(len(total))
            keys = [counts.indices[a:b].tobytes() + counts.data[a:b].tobytes()
                    for a, b in zip(counts.indptr[:-1], counts.indptr[1:], strict=True)]
            groups: dict[bytes, list[int]] = {}
            for b, key in enumerate(keys):
                groups.setdefault(key, []).append(b)
            for members in groups.values():
                left = n - counts[members[0]].toarray().ravel()
                bound = dist.bind(stats.values, left)
                per_block = np.asarray(stats.within @ pair_distances(stats, bound)).ravel()
                observed[members] = per_block.sum() - per_block[members]
                expected[members] = ExpectedSums(stats, bound)(left[None, :])[0]
        else:
            observed = self.per_block.sum() - self.per_block
            expected = self.expected.left_out(n)
            # the left-out sums are the full one minus a block's terms: what rounding leaves
            # of a zero (every value left the same) is no expected disagreement
            full = float(self.expected(n[None, :], np.ones((1, len(self.sizes))))[0])
            expected = np.where(np.abs(expected) <= 1e-12 * abs(full), 0.0, expected)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(expected > 0, 1.0 - (total - 1.0) * observed / expected, np.nan)

    def __call__(self, weights: FloatArray) -> FloatArray:
        marg = np.asarray((self.counts_t @ weights.T).T, dtype=np.float64)
        total = weights @ self.sizes
        if self.per_block is None:
            obs, e = _rebound(self.stats, self.dist, weights, marg)
        else:
            obs, e = weights @ self.per_block, self.expected(marg, weights)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(e > 0, 1.0 - (total - 1.0) * obs / e, np.nan)


def reweighted_alpha(stats: BlockStats, distance: DistanceLike, weights: npt.ArrayLike
                     ) -> FloatArray:
    """Alpha with each block counted as many times as its weight, for each row of weights.

    Parameters
    ----------
    stats : BlockStats
        Per-block statistics.
    distance : str, Distance or callable
        As :func:`clusteragree.alpha`.
    weights : array of shape (k, blocks) or (blocks,)
        Non-negative weights; whole numbers give alpha of the table in which block ``b`` is
        repeated ``weights[b]`` times.

    Returns
    -------
    ndarray of float, shape (k,)
        Alpha of each row (NaN where the expected disagreement is 0).

    References
    ----------
    Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability.

    Examples
    --------
    Unit 1 holds (x, x), unit 2 (x, y). Weights (2, 1): the table with unit 1 twice has x five
    times and y once (n = 6), one disagreeing pair in unit 2 counted both ways (observed 2) and
    expected 2 x 5 x 1 = 10, so alpha = 1 - 5 x 2 / 10 = 0.

    >>> from clusteragree import CodingTable
    >>> t = CodingTable.from_records([("A", 1, "x"), ("B", 1, "x"), ("A", 2, "x"),
    ...                               ("B", 2, "y")])
    >>> reweighted_alpha(block_stats(t), "nominal", [2, 1]).round(6).tolist()
    [0.0]
    """
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim == 1:
        w = w[None, :]
    if w.ndim != 2 or w.shape[1] != stats.counts.shape[0] or (w < 0).any():
        raise ParameterError(f"weights must be non-negative, one per block "
                             f"({stats.counts.shape[0]}); got shape {w.shape}")
    return _Reweighting(stats, get_distance(distance))(w)


# ---------------------------------------------------------------------------- the bootstrap
@dataclass(frozen=True)
class Bootstrap:
    """The bootstrap distribution of alpha and what is reported from it.

    Attributes
    ----------
    alphas : ndarray of float
        Alpha of each resample (NaN where a resample left alpha undefined).
    ci : tuple of float
        The interval at ``level``, by ``method`` (NaN when alpha is undefined in every
        resample).
    se : float
        The standard deviation of the resampled alphas (the bootstrap standard error).
    p_below : dict
        For 0.667 and 0.8: the share of resamples whose alpha is below it (among the
        resamples where alpha is defined).
    level : float
        Confidence level of ``ci``.
    n : int
        Resamples drawn.
    resample : str
        ``"units"``, ``"documents"`` or ``"krippendorff"``.
    seed : int or None
        The seed of the generator.
    undefined : int
        Resamples in which alpha is undefined (no expected disagreement), left out of the
        interval, the standard error and the shares.
    method : str
        The method of ``ci``: ``bca`` or ``percentile`` (``percentile`` also when BCa was
        asked for and is undefined on these resamples; ``interval.reason`` says why).
    estimate : float
        Alpha of the data (every block once).
    resampled : int
        How many blocks (units or documents) a resample draws from.
    interval : Interval or None
        The interval's details (bias correction, acceleration).
    note : str or None
        Why the estimate lies outside its interval, when it does
        (:func:`~clusteragree.core.intervals.outside_note`).

    References
    ----------
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.
    Hayes, A. F. & Krippendorff, K. (2007). Answering the call for a standard reliability
    measure for coding data. Communication Methods and Measures 1(1), 77-89.

    Examples
    --------
    Every unit the same pair of values: every resample gives the same alpha.

    >>> from clusteragree import CodingTable
    >>> t = CodingTable.from_records([(c, u, v) for u in range(4)
    ...                               for c, v in (("A", "x"), ("B", "y"))])
    >>> b = bootstrap_alpha(block_stats(t), "nominal", n=50, seed=1, interval="percentile")
    >>> b.ci == (b.alphas[0], b.alphas[0]), b.se
    (True, 0.0)
    """

    alphas: FloatArray
    ci: tuple[float, float]
    se: float
    p_below: dict[str, float]
    level: float
    n: int
    resample: str
    seed: int | None
    undefined: int = 0
    method: str = "percentile"
    estimate: float = float("nan")
    resampled: int = 0
    interval: Interval | None = None
    note: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """The JSON fields of an alpha record: ``ci``, ``se``, ``p_below``, ``bootstrap``
        (``n``, ``resample``, ``seed``, ``level``, ``method``, ``resampled``, ``undefined``,
        and ``note`` when the estimate lies outside the interval)."""
        about: dict[str, Any] = {"n": self.n, "resample": self.resample, "seed": self.seed,
                                 "level": self.level, "method": self.method,
                                 "resampled": self.resampled, "undefined": self.undefined}
        if self.note:
            about["note"] = self.note
        return {"ci": list(self.ci), "se": self.se, "p_below": dict(self.p_below),
                "bootstrap": about}

    def describe(self) -> str:
        """``95% BCa bootstrap over 38 units, 1000 resamples``."""
        return describe(self.level, self.method, self.n, self.resample, self.resampled)


def _check(level: float, n: int) -> None:
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
        raise ParameterTypeError(f"ci must be a confidence level between 0 and 1, such as "
                                 f"0.95. Got {level!r}.", params=("ci",))
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ParameterTypeError(f"bootstrap must be a whole number of resamples of at least "
                                 f"2. Got {n!r}.", params=("bootstrap",))
    check_resamples(int(n))


def bootstrap_alpha(stats: BlockStats, distance: DistanceLike = "masi", *, n: int = 1000,
                    level: float = 0.95, seed: int | None = None,
                    resample: str = "units", jobs: int | None = 1,
                    interval: str = DEFAULT_INTERVAL) -> Bootstrap:
    """Resample the blocks of ``stats`` with replacement ``n`` times; alpha of each resample.

    Parameters
    ----------
    stats : BlockStats
        Per-unit statistics (:func:`block_stats`), or per-document ones (each document
        collapsed to one block, then added).
    distance : str, Distance or callable
        As :func:`clusteragree.alpha`.
    n : int, default=1000
        Number of resamples.
    level : float, default=0.95
        Confidence level of the interval.
    seed : int, optional
        Seed of numpy's default generator: the same seed gives the same resamples.
    resample : str
        What a block is (``"units"`` or ``"documents"``), recorded in the result.
    jobs : int or None, default=1
        Threads drawing and reweighting resamples (None or 0: one per core, as
        :func:`~clusteragree.core.parallel.resolve_jobs` reads it); the resamples are the same
        whatever the number (each chunk of resamples has its own random stream, spawned from
        the seed and the chunk's index, and the chunks do not depend on ``jobs``).
    interval : {"bca", "percentile"}, default=DEFAULT_INTERVAL
        The interval: bias-corrected and accelerated, its acceleration from the jackknife over
        the blocks (each left out in turn), or percentile
        (:func:`~clusteragree.core.intervals.bootstrap_interval`).

    Returns
    -------
    Bootstrap

    Raises
    ------
    ParameterError
        A bad level, number of resamples (also: more than the memory can hold), seed,
        resample or interval; fewer than two blocks.

    References
    ----------
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap. Chapman & Hall.
    Efron, B. (1987). Better bootstrap confidence intervals. JASA 82(397), 171-185.

    Examples
    --------
    >>> from clusteragree import CodingTable
    >>> t = CodingTable.from_records([(c, u, v) for u, pair in enumerate(
    ...     ["xx", "xx", "yy", "xy", "yy", "xx"]) for c, v in zip("AB", pair)])
    >>> b = bootstrap_alpha(block_stats(t), "nominal", n=200, seed=7)
    >>> b.ci[0] <= 0.6667 <= b.ci[1], len(b.alphas), b.method
    (True, 200, 'bca')
    >>> b.describe()
    '95% BCa bootstrap over 6 units, 200 resamples'
    """
    _check(level, n)
    check_interval(interval)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))
                             or seed < 0):
        raise ParameterTypeError(f"seed must be a non-negative whole number or None. Got "
                                 f"{seed!r}.", params=("seed",))
    jobs = resolve_jobs(jobs)
    if resample not in RESAMPLE:
        raise ParameterError(f"resample must be one of {list(RESAMPLE)}. Got {resample!r}.",
                             params=("resample",))
    dist = get_distance(distance)
    n_blocks = stats.counts.shape[0]
    if n_blocks < 2:
        raise InputError(f"a bootstrap needs at least two {resample} to resample; there "
                         f"{'is' if n_blocks == 1 else 'are'} {n_blocks}: leave out "
                         f"{option('ci')}")
    weigh = _Reweighting(stats, dist)

    def draw(rng: np.random.Generator, k: int) -> FloatArray:
        weights = np.empty((k, n_blocks))
        for row in range(k):
            weights[row] = np.bincount(rng.integers(0, n_blocks, n_blocks),
                                       minlength=n_blocks)
        return weigh(weights)

    alphas = in_chunks(draw, n, max(1, min(CHUNK, BATCH_CELLS // weigh.width)), seed, jobs)
    estimate = float(weigh(np.ones((1, n_blocks)))[0])
    jackknife = weigh.jackknife() if interval == "bca" else None
    return summarise(alphas, level, resample, seed, method=interval, estimate=estimate,
                     jackknife=jackknife, resampled=n_blocks, causes=_causes(stats, resample[:-1]))


def _causes(stats: BlockStats, noun: str) -> list[str]:
    """What in the data biases the resamples: values found in one block (a ``noun``) only; a
    block drawn twice repeats them, an agreement by chance the data never have."""
    alone = np.asarray((stats.counts > 0).sum(axis=0)).ravel() == 1
    if len(alone) and alone.mean() > 0.5:
        return [f"{alone.mean():.0%} of the values occur in one {noun} only, so a {noun} "
                f"drawn twice repeats values no two {noun}s share in the data (as with "
                "class-derived values under the nominal distance)"]
    return []


def in_chunks(draw: Callable[[np.random.Generator, int], FloatArray], n: int, chunk: int,
              seed: int | None, jobs: int) -> FloatArray:
    """``n`` values drawn ``chunk`` at a time, each chunk from its own random stream spawned
    from ``seed``: the draws depend on the seed and the data only, never on how many threads
    (``jobs``) run them."""
    alphas = np.empty(n)
    entropy = seed if seed is not None else np.random.SeedSequence().entropy
    starts = list(range(0, n, chunk))
    with Progress(n, "bootstrap resamples") as bar:

        def run(index: int) -> None:
            start = starts[index]
            k = min(chunk, n - start)
            rng = np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=(index,)))
            alphas[start:start + k] = draw(rng, k)
            bar.update(k)

        if jobs == 1 or len(starts) == 1:
            for index in range(len(starts)):
                run(index)
        else:  # threads: numpy's heavy loops release the interpreter lock; nothing is pickled
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                list(pool.map(run, range(len(starts))))
    return alphas


def summarise(alphas: FloatArray, level: float, resample: str, seed: int | None, *,
              method: str = "percentile", estimate: float = float("nan"),
              jackknife: FloatArray | None = None, resampled: int = 0,
              causes: Sequence[str] = ()) -> Bootstrap:
    """The interval, standard error and shares below the thresholds of resampled alphas
    (NaN: undefined in that resample, left out and counted; undefined in every resample: NaN
    interval, standard error and shares)."""
    n = len(alphas)
    kept = alphas[~np.isnan(alphas)]
    found = bootstrap_interval(kept, level, method, estimate=estimate, jackknife=jackknife)
    nan = float("nan")
    se = (float(np.std(kept, ddof=1)) if len(kept) > 1 else 0.0) if len(kept) else nan
    p_below = {f"{q:g}": float(np.mean(kept < q)) if len(kept) else nan for q in THRESHOLDS}
    what = resample if resample in RESAMPLE else "units"
    note = outside_note(estimate, found, kept, blocks=resampled or None, what=what,
                        causes=causes)
    return Bootstrap(alphas, (found.low, found.high), se, p_below, float(level), int(n),
                     resample, seed, int(n - len(kept)), found.method, float(estimate),
                     int(resampled), found, note)
