"""Maximum one-to-one matchings between two sides' intervals, counted per key, for span F1.

Each interval is ``[start, end)`` with a key (a document and label, say) and a side (0 or 1).
Two intervals of different sides and the same key match when they coincide
(:func:`exact_pairs`) or share a position (:func:`overlap_pairs`); each interval is in one pair
at most, and the count of pairs per key is the size of a *maximum* matching.

Coinciding intervals: a ``(key, start, end)`` cell marked ``m`` times on one side and ``n`` on
the other gives ``min(m, n)`` pairs. The cells are found by sorting one packed integer per
interval (three sorted columns where the packing would not fit in 64 bits).

Overlapping intervals are first cut into chains (a run of intervals of one key, sorted by
start, each starting before the furthest end so far); a chain is a connected component of the
overlap graph, and one with at most one interval of a side gives ``min`` of the sides' counts.
A chain with two or more of each side is matched greedily: its intervals are taken in order of
end, and one not yet matched is paired with the unmatched interval of the other side that
overlaps it and ends first. This is a maximum matching. Let ``x`` end first among the
intervals left and ``y`` be the other side's overlapping interval that ends first. Every
interval left ends at or after ``x``'s end, which is after ``y``'s start, so an interval ``a``
left on ``x``'s side overlaps ``y`` exactly when it starts before ``y``'s end, and then it also
overlaps any other neighbour ``y'`` of ``x`` (which ends no earlier). A maximum matching that
pairs ``x`` with ``y'`` and ``y`` with ``a`` can swap to ``x``-``y`` and ``y'``-``a``; one that
leaves ``x`` alone can take ``x``-``y`` in place of ``y``'s pair, or add it. An interval left
with no such neighbour overlaps none of the intervals left, so leaving it alone loses nothing.
Chains of up to :data:`ROUNDS_UP_TO` intervals run the greedy side by side in numpy, one round
per position in the chain; longer ones run it one chain at a time with a heap.

Only the size of the matching enters a count: which maximum matching is found does not.

References
----------
Hripcsak, G. and Rothschild, A. S. (2005). Agreement, the F-measure, and reliability in
information retrieval. Journal of the American Medical Informatics Association 12(3):296-298.

docs/spans.md, "Matching F1".

Examples
--------
Side 0 marks ``[0, 11)`` and ``[11, 12)``, side 1 ``[1, 12)`` and ``[0, 1)``: two pairs
(``[0, 11)`` with ``[0, 1)``, ``[11, 12)`` with ``[1, 12)``), although the longest overlap
alone would leave one pair:

>>> import numpy as np
>>> key, side = np.zeros(4, dtype=np.int64), np.array([0, 0, 1, 1])
>>> start, end = np.array([0, 11, 1, 0]), np.array([11, 12, 12, 1])
>>> overlap_pairs(key, start, end, side, 1).tolist()
[2]
>>> exact_pairs(key, start, end, side, 1).tolist()
[0]
"""

from __future__ import annotations

import heapq
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["ROUNDS_UP_TO", "exact_pairs", "interval_order", "overlap_pairs"]

IntArray = npt.NDArray[np.int64]

#: Chains of at most this many intervals are matched side by side in numpy; longer ones one
#: by one (a heap per side).
ROUNDS_UP_TO = 64


def interval_order(key: IntArray, start: IntArray, end: IntArray) -> IntArray:
    """The order that sorts the intervals by key, then start, then end (stable).

    Parameters
    ----------
    key, start, end : ndarray of int64
        Non-negative; ``start < end``.

    Returns
    -------
    ndarray of int64
        Indices into the inputs.

    References
    ----------
    docs/spans.md, "Matching F1".

    Examples
    --------
    >>> import numpy as np
    >>> interval_order(np.array([1, 0, 0]), np.array([0, 5, 2]), np.array([3, 6, 4])).tolist()
    [2, 1, 0]
    """
    if not len(key):
        return np.zeros(0, dtype=np.int64)
    r = int(end.max()) + 1
    if (int(key.max()) + 1) * r * r < 2**62:  # one packed integer per interval
        return np.argsort((key * r + start) * r + end, kind="stable")
    return np.lexsort((end, start, key))


def exact_pairs(key: IntArray, start: IntArray, end: IntArray, side: npt.NDArray[Any],
                n_keys: int, order: IntArray | None = None) -> IntArray:
    """Pairs per key of coinciding intervals: ``min`` of the sides' counts of each cell.

    Parameters
    ----------
    key, start, end : ndarray of int64
        The intervals (``0 <= key < n_keys``, ``start < end``).
    side : ndarray of int or bool
        0 or 1.
    n_keys : int
        The number of keys.
    order : ndarray of int64, optional
        :func:`interval_order` of the inputs, where known.

    Returns
    -------
    ndarray of int64, shape (n_keys,)
        The matched pairs of each key.

    References
    ----------
    docs/spans.md, "Matching F1".

    Examples
    --------
    >>> import numpy as np
    >>> one = np.ones(3, dtype=np.int64)
    >>> exact_pairs(0 * one, one, 2 * one, np.array([0, 0, 1]), 1).tolist()
    [1]
    """
    if order is None:
        order = interval_order(key, start, end)
    if not len(order):
        return np.zeros(n_keys, dtype=np.int64)
    k, s, e = key[order], start[order], end[order]
    new = np.ones(len(k), dtype=bool)
    new[1:] = (k[1:] != k[:-1]) | (s[1:] != s[:-1]) | (e[1:] != e[:-1])
    cell = np.cumsum(new) - 1
    ones = np.bincount(cell, weights=side[order], minlength=int(cell[-1]) + 1)
    zeros = np.bincount(cell, minlength=len(ones)) - ones
    return np.bincount(k[new], weights=np.minimum(ones, zeros),
                       minlength=n_keys).astype(np.int64)


def overlap_pairs(key: IntArray, start: IntArray, end: IntArray, side: npt.NDArray[Any],
                  n_keys: int, order: IntArray | None = None) -> IntArray:
    """Pairs per key of a maximum matching of overlapping intervals of the two sides.

    Parameters
    ----------
    key, start, end : ndarray of int64
        The intervals (``0 <= key < n_keys``, ``start < end``).
    side : ndarray of int or bool
        0 or 1.
    n_keys : int
        The number of keys.
    order : ndarray of int64, optional
        :func:`interval_order` of the inputs, where known.

    Returns
    -------
    ndarray of int64, shape (n_keys,)
        The matched pairs of each key (the module's description says how they are found).

    References
    ----------
    docs/spans.md, "Matching F1"; the module's description (why the greedy matching is
    maximum).

    Examples
    --------
    A long interval of side 0 over two of side 1 matches one of them:

    >>> import numpy as np
    >>> overlap_pairs(np.zeros(3, dtype=np.int64), np.array([0, 0, 5]), np.array([9, 2, 7]),
    ...               np.array([0, 1, 1]), 1).tolist()
    [1]
    """
    if order is None:
        order = interval_order(key, start, end)
    if not len(order):
        return np.zeros(n_keys, dtype=np.int64)
    key, start, end, side = key[order], start[order], end[order], side[order].astype(np.int64)
    # running maximum of the ends before each interval, within its key
    lift = key * (int(end.max()) + 1)  # keys sorted: a new key outruns every end
    reach = np.maximum.accumulate(end + lift) - lift
    new = np.ones(len(key), dtype=bool)
    new[1:] = (key[1:] != key[:-1]) | (start[1:] >= reach[:-1])
    chain = np.cumsum(new) - 1
    n_chains = int(chain[-1]) + 1
    ones = np.bincount(chain, weights=side, minlength=n_chains).astype(np.int64)
    zeros = np.bincount(chain, minlength=n_chains) - ones
    pairs = np.minimum(zeros, ones)
    hard = np.flatnonzero(pairs > 1)  # two or more of each side: the greedy matching
    if len(hard):
        heads = np.flatnonzero(new)
        sizes = np.diff(np.append(heads, len(key)))
        pairs[hard] = _greedy(start, end, side, heads[hard], sizes[hard])
    return np.bincount(key[new], weights=pairs, minlength=n_keys).astype(np.int64)


def _greedy(start: IntArray, end: IntArray, side: IntArray, heads: IntArray,
            sizes: IntArray) -> IntArray:
    """The greedy matching's size in each chain ``heads[g] : heads[g] + sizes[g]``."""
    out = np.zeros(len(heads), dtype=np.int64)
    width = 4
    done = np.zeros(len(heads), dtype=bool)
    while width <= ROUNDS_UP_TO:
        these = np.flatnonzero(~done & (sizes <= width))
        if len(these):
            out[these] = _rounds(start, end, side, heads[these], sizes[these], width)
            done[these] = True
        width *= 2
    for g in np.flatnonzero(~done):
        lo, hi = heads[g], heads[g] + sizes[g]
        out[g] = _one_chain(start[lo:hi], end[lo:hi], side[lo:hi])
    return out


def _rounds(start: IntArray, end: IntArray, side: IntArray, heads: IntArray, sizes: IntArray,
            width: int) -> IntArray:
    """The greedy matching of many chains of at most ``width`` intervals at once: a row per
    chain, its intervals in order of end; round ``t`` matches each row's ``t``-th interval."""
    cols = np.arange(width)
    valid = cols < sizes[:, None]
    at = np.where(valid, heads[:, None] + cols, heads[:, None])
    rows = np.arange(len(heads))[:, None]
    by_end = np.argsort(np.where(valid, end[at], np.iinfo(np.int64).max), axis=1, kind="stable")
    at, valid = at[rows, by_end], valid[rows, by_end]
    s, e = start[at], end[at]
    d = np.where(valid, side[at], -1)
    free = valid.copy()  # valid and not matched yet
    found = np.zeros(len(heads), dtype=np.int64)
    for t in range(int(sizes.max())):
        xs, xe, xd = s[:, t:t + 1], e[:, t:t + 1], d[:, t:t + 1]
        # the other side's free intervals overlapping interval t; the first ends first
        cand = free & (d == 1 - xd) & (s < xe) & (e > xs)
        ok = free[:, t] & cand.any(axis=1)
        hit = np.flatnonzero(ok)
        free[hit, t] = False
        free[hit, cand[hit].argmax(axis=1)] = False
        found += ok
    return found


def _one_chain(start: IntArray, end: IntArray, side: IntArray) -> int:
    """The greedy matching of one chain, with a heap per side of the intervals that start
    before the current end (the unmatched one that ends first on top)."""
    by_end = np.argsort(end, kind="stable").tolist()
    s, e, d = start.tolist(), end.tolist(), side.tolist()
    by_start = [sorted((i for i in range(len(s)) if d[i] == k), key=s.__getitem__)
                for k in (0, 1)]
    nxt = [0, 0]
    heaps: list[list[tuple[int, int]]] = [[], []]
    matched = [False] * len(s)
    found = 0
    for x in by_end:
        if matched[x]:
            continue
        o = 1 - d[x]
        waiting, heap = by_start[o], heaps[o]
        while nxt[o] < len(waiting) and s[waiting[nxt[o]]] < e[x]:
            y = waiting[nxt[o]]
            heapq.heappush(heap, (e[y], y))
            nxt[o] += 1
        # drop the matched, and those ending before x starts: they ended before x, unmatched,
        # when no free interval overlapped them, so none left does
        while heap and (matched[heap[0][1]] or heap[0][0] <= s[x]):
            heapq.heappop(heap)
        if heap:
            y = heapq.heappop(heap)[1]
            matched[x] = matched[y] = True
            found += 1
    return found
