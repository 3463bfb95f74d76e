"""The contingency table of two partitions: which classes share items, and how many.

One builder for every measure that compares two clusterings of the same items: the linear-time
alpha engine (classes of two coders over the units both coded) and the coreference metrics
(key against response entities over the mentions both marked). Beside it, :func:`sum_by_key`,
the one group-and-sum of both alpha engines (coincidences of value types, histograms of
cardinalities).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from .._lazy import module

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = module("pandas")

__all__ = ["contingency", "groups", "sum_by_key"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def groups(sorted_keys: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Start positions of the runs of equal keys in a sorted array.

    Parameters
    ----------
    sorted_keys : ndarray of int, shape (N,)
        Keys sorted so that equal keys are adjacent (ascending, as ``np.sort`` gives).

    Returns
    -------
    ndarray of int, shape (R,)
        The index of the first key of each of the ``R`` runs; empty for an empty array. The run
        lengths are ``np.diff(starts, append=N)``.

    References
    ----------
    docs/architecture.md, "The contingency table is sorted, not hashed"; docs/performance.md.

    Examples
    --------
    ``1, 1`` starts at 0, ``2`` at 2 and ``5, 5, 5`` at 3, so the runs are 2, 1 and 3 long:

    >>> starts = groups(np.array([1, 1, 2, 5, 5, 5]))
    >>> starts.tolist(), np.diff(starts, append=6).tolist()
    ([0, 2, 3], [2, 1, 3])
    >>> groups(np.array([], dtype=np.int64)).tolist()
    []
    """
    if len(sorted_keys) == 0:
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(np.concatenate([[True], sorted_keys[1:] != sorted_keys[:-1]]))


def contingency(
    ci: IntArray, cj: IntArray, kj: int, m: IntArray | None = None
) -> tuple[IntArray, IntArray, FloatArray, FloatArray]:
    """The intersecting pairs of classes of two partitions of the same items.

    ``ci[t]`` and ``cj[t]`` are item ``t``'s class on each side (non-negative; ``cj < kj``).
    Returns, for every pair of classes that share an item, the class on each side, ``k`` (how
    many items they share) and ``sum over those items of 1 / (m_t - 1)`` where ``m`` gives each
    item's number of coders (alpha's weight; with ``m`` None every item counts 1). The keys are
    sorted rather than hashed: sorting runs of integers is fast and cache friendly. Used by the
    linear-time alpha engine and by the coreference metrics (key against response entities).

    Parameters
    ----------
    ci, cj : ndarray of int, shape (N,)
        The class of each item on each side: non-negative ids, ``cj < kj``.
    kj : int
        An upper bound on the class ids of ``cj`` (their number).
    m : ndarray of int, shape (N,), optional
        Each item's number of coders (at least 2). None (the default) weighs every item 1.

    Returns
    -------
    i, j : ndarray of int, shape (P,)
        The class on each side of each of the ``P`` intersecting pairs, sorted by ``(i, j)``.
    k : ndarray of float, shape (P,)
        The number of items the two classes share (the cell of the contingency table).
    w : ndarray of float, shape (P,)
        The sum over those items of ``1 / (m_t - 1)``; equal to ``k`` when ``m`` is None.

    References
    ----------
    docs/alpha.md, "Intersecting pairs of class-derived values" (the weights); docs/coref.md,
    "Metrics" (key against response entities); docs/architecture.md, "The contingency table is
    sorted, not hashed".

    Examples
    --------
    Items 0 and 1 are in class 0 on the left and class 1 on the right; item 2 in class 1 on
    both sides. So the pairs are ``(0, 1)`` sharing 2 items and ``(1, 1)`` sharing 1:

    >>> i, j, k, w = contingency(np.array([0, 0, 1]), np.array([1, 1, 1]), 2)
    >>> i.tolist(), j.tolist(), k.tolist(), w.tolist()
    ([0, 1], [1, 1], [2.0, 1.0], [2.0, 1.0])

    With item 0 coded by 2 coders and items 1 and 2 by 3, the weights are ``1/1 + 1/2`` for
    the first pair and ``1/2`` for the second:

    >>> contingency(np.array([0, 0, 1]), np.array([1, 1, 1]), 2, np.array([2, 3, 3]))[3].tolist()
    [1.5, 0.5]
    """
    if len(ci) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty.copy(), np.zeros(0), np.zeros(0)
    if m is None:
        m = np.full(len(ci), 2, dtype=np.int64)
    top = int(m.max()) + 1
    uniform = int(m.min()) == top - 1  # every unit coded by the same number of coders
    width = 1 if uniform else top
    if (int(ci.max()) + 1) * kj * width < 2**62:
        key = ci * kj  # built in place: these arrays are as long as the corpus
        key += cj
        if not uniform:
            key *= top
            key += m
        key.sort()
        starts = groups(key)
        runs = np.diff(starts, append=len(key)).astype(np.float64)
        first = key[starts]
        del key
        if uniform:
            pair, m_run = first, np.full(len(first), top - 1)
        else:
            pair, m_run = np.divmod(first, top)
        run_i, run_j = np.divmod(pair, kj)
    else:  # class ids too large to pack in 63 bits: sort rows instead
        uniq, inverse = np.unique(np.column_stack([ci, cj, m]), axis=0, return_inverse=True)
        runs = np.bincount(inverse.ravel(), minlength=len(uniq)).astype(np.float64)
        run_i, run_j, m_run = uniq.T
        uniform = False
    if uniform:
        return run_i, run_j, runs, runs / (top - 2.0)
    new_pair = np.concatenate([[True], (run_i[1:] != run_i[:-1]) | (run_j[1:] != run_j[:-1])])
    pair_starts = np.flatnonzero(new_pair)
    k = np.add.reduceat(runs, pair_starts)
    w = np.add.reduceat(runs / (m_run - 1.0), pair_starts)
    return run_i[pair_starts], run_j[pair_starts], k, w


#: Keys are counted into a dense table when it has at most this many cells per row (plus 1,024).
DENSE_PER_ROW = 4


def sum_by_key(columns: Sequence[npt.ArrayLike], weights: npt.ArrayLike
               ) -> tuple[list[IntArray], FloatArray]:
    """The distinct rows of some columns of non-negative integers, in increasing order, with
    the total weight of each.

    Parameters
    ----------
    columns : sequence of int arrays, all of one length
        The key of each row, one column per part (e.g. value type of one coder and of the
        other, or the sizes ``|A|, |B|, |A & B|``).
    weights : float array of the same length
        The weight of each row.

    Returns
    -------
    keys : list of int arrays
        One array per column: the distinct keys, sorted by the first column, then the second...
    sums : float array
        The total weight of each distinct key.

    Notes
    -----
    Keys are packed into one integer (mixed radix) and counted into a dense table when it is
    small, factorised otherwise; rows are sorted when the packed key would not fit in 63 bits.

    References
    ----------
    docs/architecture.md (one contingency builder, one group-and-sum).

    Examples
    --------
    Rows (0, 1), (2, 0), (0, 1) with weights 1, 2, 3: the key (0, 1) totals 1 + 3 = 4.

    >>> keys, sums = sum_by_key([np.array([0, 2, 0]), np.array([1, 0, 1])], [1.0, 2.0, 3.0])
    >>> [k.tolist() for k in keys], sums.tolist()
    ([[0, 2], [1, 0]], [4.0, 2.0])
    """
    cols = [np.asarray(c).astype(np.int64) for c in columns]
    w = np.asarray(weights, dtype=np.float64)
    if len(w) == 0:
        return [np.zeros(0, dtype=np.int64) for _ in cols], np.zeros(0)
    if min(int(c.min()) for c in cols) < 0:
        raise ValueError("sum_by_key needs non-negative integer keys")
    span = [int(c.max()) + 1 for c in cols]
    total = 1
    for width in span:
        total *= width
    if total >= 2**62:  # too wide to pack: sort the rows themselves
        uniq, codes = np.unique(np.column_stack(cols), axis=0, return_inverse=True)
        sums = np.bincount(codes.ravel(), weights=w, minlength=len(uniq))
        return [np.ascontiguousarray(c) for c in uniq.T], np.asarray(sums, dtype=np.float64)
    flat = np.zeros(len(w), dtype=np.int64)
    for col, width in zip(cols, span, strict=True):
        flat = flat * width + col
    if total <= DENSE_PER_ROW * len(flat) + 1024:
        present = np.bincount(flat, minlength=total)
        found = np.flatnonzero(present)
        sums = np.bincount(flat, weights=w, minlength=total)[found]
    else:
        codes, uniq = pd.factorize(flat, sort=True)
        sums = np.bincount(codes, weights=w, minlength=len(uniq))
        found = np.asarray(uniq, dtype=np.int64)
    decoded = []
    for width in reversed(span):
        found, rest = np.divmod(found, width)
        decoded.append(rest)
    return decoded[::-1], np.asarray(sums, dtype=np.float64)
