"""Compiled counting of the intersecting class pairs of two coders (the classes engine's loop).

:func:`~clusteragree.core.alpha_classes.class_stats` needs, for every two coders, every pair of
classes that share a unit, with how many units they share (``k``) and the alpha weight of those
units; each pair then gives its five kinds of value pairs (docs/alpha.md). The numpy route sorts
packed ``(class, class)`` keys and makes a dozen passes over arrays as long as the corpus. Here
one compiled pass does it all: the units are grouped by the first coder's class (a counting sort,
once per coder), each group's units are counted by the second coder's class in a scratch array,
and every class pair found adds its observed and expected rows straight into a histogram,
dense for small classes and a growing list of rows for large ones. No array as long as the corpus
is made per pair, so several pairs run at once in threads (the kernel releases the GIL).

The kernel is built with numba on first use and cached on disk; where numba is missing or fails,
:func:`pair_kernel` returns None and the numpy route serves (with one
:class:`~clusteragree.errors.PerformanceWarning`). Both give the same statistics (tested; the
floating-point sums may differ in the last bits, as their order differs).

References
----------
Krippendorff, K. (2011). Computing Krippendorff's alpha-reliability. Annenberg School for
Communication Departmental Papers 43.

Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and pragmatic
annotation. Proceedings of LREC 2006, Genoa. Section 3.3.

docs/alpha.md, "Linear-time engine for class-derived values"; docs/performance.md.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .jit import Compiled

__all__ = ["DENSE", "by_class", "pair_kernel", "pair_rows"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: Class pairs whose values both have fewer than this many elements go to the dense histogram.
DENSE = 64

def pair_kernel() -> Any:
    """The compiled kernels ``(by_class, pair)``, or None where numba cannot serve.

    Returns
    -------
    tuple of two callables, or None
        Built once per process (numba caches the machine code on disk). None when numba is not
        installed or fails to compile; a :class:`~clusteragree.errors.PerformanceWarning` says
        so once.

    Examples
    --------
    >>> kernels = pair_kernel()
    >>> kernels is None or len(kernels) == 2
    True
    """
    return KERNELS.get()


def _group(row, n_classes):  # pragma: no cover - compiled
    """Counting sort of the units by class (the compiled body of :func:`by_class`)."""
    starts = np.zeros(n_classes + 1, dtype=np.int64)
    for t in range(row.shape[0]):
        if row[t] >= 0:
            starts[row[t] + 1] += 1
    for c in range(n_classes):
        starts[c + 1] += starts[c]
    order = np.empty(starts[n_classes], dtype=np.int64)
    fill = starts[:-1].copy()
    for t in range(row.shape[0]):
        c = row[t]
        if c >= 0:
            order[fill[c]] = t
            fill[c] += 1
    return order, starts


def _pair(order, starts, rj, inv, size_i, size_j, npair_i, npair_j, width):  # pragma: no cover
    """The class pairs of two coders into histograms (the compiled body of :func:`pair_rows`).

    Returns the dense histograms (row 0 observed, row 1 expected; cell
    ``(lo * width + hi) * (width + 1) + inter``) and the spilled rows
    ``(histogram, lo, hi, inter, weight)`` of pairs with a size of ``width`` or more.
    """
    count = np.zeros(size_j.shape[0], dtype=np.int64)
    weight = np.zeros(size_j.shape[0])
    largest = 1
    for c in range(starts.shape[0] - 1):
        largest = max(largest, starts[c + 1] - starts[c])
    touched = np.empty(largest, dtype=np.int64)
    hist = np.zeros((2, width * width * (width + 1)))
    spill = np.empty((64, 5))
    n_spill = 0
    kind = np.empty(4, dtype=np.int64)
    inter = np.empty(4, dtype=np.int64)
    amount = np.empty(4)
    for c in range(starts.shape[0] - 1):
        n_touched = 0
        for x in range(starts[c], starts[c + 1]):
            t = order[x]
            d = rj[t]
            if d < 0:
                continue
            if count[d] == 0:
                touched[n_touched] = d
                n_touched += 1
            count[d] += 1
            weight[d] += inv[t]
        a = size_i[c] - 1
        p = npair_i[c]
        for y in range(n_touched):
            d = touched[y]
            k = count[d]
            w = weight[d]
            count[d] = 0
            weight[d] = 0.0
            b = size_j[d] - 1
            q = npair_j[d]
            lo = min(a, b)
            hi = max(a, b)
            # Pairs (C - {t}, D - {u}), t pairable in C, u pairable in D, K = C & D, in the
            # kinds of docs/alpha.md; both orders of each pair, so twice the weight.
            kind[0], inter[0], amount[0] = 0, k - 1, 2.0 * w  # observed: t = u in K
            n = 1
            one = k + k * (q - k) + (p - k) * k  # t = u in K, or one of t, u in K
            if k > 1 and one > 0:
                kind[n], inter[n], amount[n] = 1, k - 1, 2.0 * one
                n += 1
            if k > 2:  # t != u, both in K
                kind[n], inter[n], amount[n] = 1, k - 2, 2.0 * k * (k - 1)
                n += 1
            neither = (p - k) * (q - k)
            if neither > 0:
                kind[n], inter[n], amount[n] = 1, k, 2.0 * neither
                n += 1
            for e in range(n):
                if hi < width:
                    hist[kind[e], (lo * width + hi) * (width + 1) + inter[e]] += amount[e]
                    continue
                if n_spill == spill.shape[0]:
                    bigger = np.empty((2 * spill.shape[0], 5))
                    bigger[:n_spill] = spill
                    spill = bigger
                spill[n_spill, 0] = kind[e]
                spill[n_spill, 1] = lo
                spill[n_spill, 2] = hi
                spill[n_spill, 3] = inter[e]
                spill[n_spill, 4] = amount[e]
                n_spill += 1
    return hist, spill[:n_spill].copy()


def _build() -> tuple[Any, Any]:
    import numba

    group = numba.njit(cache=True, nogil=True)(_group)
    pair = numba.njit(cache=True, nogil=True)(_pair)
    # Compile now (or load from the cache), so that a failure is seen here.
    row = np.zeros(2, dtype=np.int64)
    order, starts = group(row, 1)
    ones = np.full(2, 2, dtype=np.int64)
    pair(order, starts, row, np.ones(2), ones, ones, ones, ones, 2)
    return group, pair


def by_class(row: IntArray, n_classes: int) -> tuple[IntArray, IntArray]:
    """The units of one coder grouped by class: ``order[starts[c]:starts[c + 1]]`` are class
    ``c``'s units, in increasing order (a counting sort; -1, missing, is left out).

    Parameters
    ----------
    row : ndarray of int64, shape (N,)
        Class id of each unit (``< n_classes``), -1 where missing.
    n_classes : int
        The number of classes.

    Returns
    -------
    order : ndarray of int64
        The coded units, class by class.
    starts : ndarray of int64, shape (n_classes + 1,)
        Where each class begins in ``order``.

    Examples
    --------
    >>> if pair_kernel() is not None:
    ...     order, starts = by_class(np.array([1, -1, 0, 1]), 2)
    ...     print(order.tolist(), starts.tolist())
    ... else:
    ...     print([2, 0, 3], [0, 1, 3])
    [2, 0, 3] [0, 1, 3]
    """
    kernels = pair_kernel()
    assert kernels is not None, "by_class needs the compiled kernels"
    order, starts = kernels[0](np.ascontiguousarray(row, dtype=np.int64), int(n_classes))
    return order, starts


def _rows(dense: FloatArray, spill: FloatArray, width: int) -> FloatArray:
    """Histogram rows ``(lo, hi, inter, weight)`` of a dense table and its spilled rows."""
    cells = np.flatnonzero(dense)
    pair, inter = np.divmod(cells, width + 1)
    lo, hi = np.divmod(pair, width)
    rows = np.column_stack([lo, hi, inter, dense[cells]]).astype(np.float64)
    return np.vstack([rows, spill]) if len(spill) else rows


def pair_rows(grouped: tuple[IntArray, IntArray], rj: IntArray, inv: FloatArray,
              size_i: IntArray, size_j: IntArray, npair_i: IntArray, npair_j: IntArray
              ) -> tuple[FloatArray, FloatArray]:
    """Observed and expected histogram rows of one pair of coders (compiled).

    Parameters
    ----------
    grouped : (order, starts)
        The first coder's units by class (:func:`by_class`).
    rj : ndarray of int64, shape (N,)
        The second coder's class of each unit, -1 where missing.
    inv : ndarray of float, shape (N,)
        Each unit's weight ``1 / (m_t - 1)``, ``m_t`` its number of coders (where both
        coders coded it, ``m_t >= 2``).
    size_i, size_j : ndarray of int64
        Each class's number of coded units, per coder.
    npair_i, npair_j : ndarray of int64
        Each class's number of pairable units (coded by at least two coders), per coder.

    Returns
    -------
    observed, expected : ndarray of float, shape (R, 4)
        Rows ``(|A|, |B|, |A & B|, weight)`` as
        :class:`~clusteragree.core.alpha_classes.CardinalityStats` holds them (smaller size
        first, both orders in the weight), not yet compacted.

    References
    ----------
    docs/alpha.md, "Linear-time engine for class-derived values" (the five kinds of pairs).

    Examples
    --------
    Coder A has units 0, 1 together; B has all three together; all units coded by both. The
    observed pairs are ``({1}, {1, 2})`` and ``({0}, {0, 2})`` (sizes 1 and 2, sharing 1,
    both orders: weight 4) and ``({}, {0, 1})`` (weight 2):

    >>> a, b, inv = np.array([0, 0, 1]), np.array([0, 0, 0]), np.ones(3)
    >>> if pair_kernel() is not None:
    ...     obs, exp = pair_rows(by_class(a, 2), b, inv, np.array([2, 1]), np.array([3]),
    ...                          np.array([2, 1]), np.array([3]))
    ...     print(sorted(obs.tolist()))
    ... else:
    ...     print([[0.0, 2.0, 0.0, 2.0], [1.0, 2.0, 1.0, 4.0]])
    [[0.0, 2.0, 0.0, 2.0], [1.0, 2.0, 1.0, 4.0]]
    """
    kernels = pair_kernel()
    assert kernels is not None, "pair_rows needs the compiled kernels"
    order, starts = grouped
    hist, spill = kernels[1](
        order, starts, np.ascontiguousarray(rj, dtype=np.int64),
        np.ascontiguousarray(inv, dtype=np.float64),
        np.ascontiguousarray(size_i, dtype=np.int64),
        np.ascontiguousarray(size_j, dtype=np.int64),
        np.ascontiguousarray(npair_i, dtype=np.int64),
        np.ascontiguousarray(npair_j, dtype=np.int64), DENSE)
    observed = spill[:, 0] == 0
    return (_rows(hist[0], spill[observed, 1:], DENSE),
            _rows(hist[1], spill[~observed, 1:], DENSE))


KERNELS = Compiled(
    _build,
    missing="numba is not installed; the classes engine of alpha counts class pairs with "
            "numpy, a few times slower on large corpora",
    failed="the compiled class-pair kernel could not be built; the classes engine counts with "
           "numpy instead")
