"""The contingency table of two partitions: which classes share items, and how many.

One builder for every measure that compares two clusterings of the same items: the linear-time
alpha engine (classes of two coders over the units both coded) and the coreference metrics
(key against response entities over the mentions both marked).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["contingency", "groups"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def groups(sorted_keys: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Start positions of the runs of equal keys in a sorted array."""
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

    Examples
    --------
    >>> i, j, k, _ = contingency(np.array([0, 0, 1]), np.array([1, 1, 1]), 2)
    >>> i.tolist(), j.tolist(), k.tolist()
    ([0, 1], [1, 1], [2.0, 1.0])
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
