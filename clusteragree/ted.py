"""Ordered labelled trees and the Zhang & Shasha (1989) tree edit distance.

A tree is a nested tuple ``(label, (child, child, ...))``: hashable, so distances between
distinct trees can be cached. The edit distance is the cheapest sequence of node deletions,
insertions and relabellings turning one tree into the other; costs are 1 for each (relabelling
to the same label costs 0). With ``free_empty=True`` (the reproduction convention of Skjaerholt's
code, through the zss package) a node labelled ``""`` costs nothing to insert or delete.

The algorithm is iterative (no recursion over the depth of the tree: deep trees do not overflow
the stack), over the post-order numbering with leftmost-leaf descendants and key roots.

Examples
--------
>>> t1 = ("", (("Pred", (("Subj", ()), ("Obj", (("Det", ()),)))),))
>>> t3 = ("", (("Pred", (("Subj", ()),)),))
>>> ted(t1, t3)
2.0
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np

__all__ = ["Tree", "TreeCache", "leaves", "size", "ted"]

Tree = tuple[str, tuple[Any, ...]]


def size(tree: Tree) -> int:
    """Number of nodes."""
    count, stack = 0, [tree]
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(node[1])
    return count


def leaves(tree: Tree) -> int:
    """Number of leaves."""
    count, stack = 0, [tree]
    while stack:
        node = stack.pop()
        if not node[1]:
            count += 1
        stack.extend(node[1])
    return count


@lru_cache(maxsize=65536)
def _postorder(tree: Tree) -> tuple[tuple[str, ...], np.ndarray, tuple[int, ...]]:
    """Labels in post-order, leftmost leaf of each node, and the key roots (all 1-based)."""
    labels: list[str] = []
    lml: list[int] = []
    stack: list[list[Any]] = [[tree, 0, None]]  # node, next child, leftmost leaf found
    while stack:
        frame = stack[-1]
        node, k = frame[0], frame[1]
        if k < len(node[1]):
            frame[1] += 1
            stack.append([node[1][k], 0, None])
            continue
        stack.pop()
        labels.append(node[0])
        leftmost = frame[2] if frame[2] is not None else len(labels)
        lml.append(leftmost)
        if stack and stack[-1][2] is None:
            stack[-1][2] = leftmost  # the first child to finish gives its parent's leftmost
    keyroots: dict[int, int] = {}
    for i, leftmost in enumerate(lml, start=1):
        keyroots[leftmost] = i
    return tuple(labels), np.array(lml, dtype=np.int64), tuple(sorted(keyroots.values()))


def ted(a: Tree, b: Tree, *, free_empty: bool = False,
        relabel: Callable[[str, str], float] | None = None) -> float:
    """Zhang-Shasha edit distance between two ordered labelled trees (unit costs)."""
    la, lla_arr, kr_a = _postorder(a)
    lb, llb_arr, kr_b = _postorder(b)
    lla, llb = lla_arr.tolist(), llb_arr.tolist()
    n, m = len(la), len(lb)
    ca = [0.0 if (free_empty and x == "") else 1.0 for x in la]
    cb = [0.0 if (free_empty and y == "") else 1.0 for y in lb]
    td = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in kr_a:
        li = lla[i - 1]
        for j in kr_b:
            lj = llb[j - 1]
            rows, cols = i - li + 2, j - lj + 2
            fd = [[0.0] * cols for _ in range(rows)]
            acc = 0.0
            for x in range(1, rows):
                acc += ca[li + x - 2]
                fd[x][0] = acc
            acc = 0.0
            first = fd[0]
            for y in range(1, cols):
                acc += cb[lj + y - 2]
                first[y] = acc
            for x in range(1, rows):
                i1 = li + x - 1
                cost_i, label_i, left_i = ca[i1 - 1], la[i1 - 1], lla[i1 - 1]
                row, prev, td_row = fd[x], fd[x - 1], td[i1]
                tree_i = left_i == li
                forest_row = fd[left_i - li]
                for y in range(1, cols):
                    j1 = lj + y - 1
                    best = prev[y] + cost_i
                    other = row[y - 1] + cb[j1 - 1]
                    if other < best:
                        best = other
                    left_j = llb[j1 - 1]
                    if tree_i and left_j == lj:
                        if relabel is None:
                            change = 0.0 if label_i == lb[j1 - 1] else 1.0
                        else:
                            change = relabel(label_i, lb[j1 - 1])
                        other = prev[y - 1] + change
                        if other < best:
                            best = other
                        row[y] = best
                        td_row[j1] = best
                    else:
                        other = forest_row[left_j - lj] + td_row[j1]
                        row[y] = best if best < other else other
    return float(td[n][m])


class TreeCache:
    """Edit distances between distinct trees, computed once each (symmetric)."""

    def __init__(self, free_empty: bool = False) -> None:
        self.free_empty = free_empty
        self.cache: dict[tuple[Tree, Tree], float] = {}
        self.hits = 0
        self.misses = 0

    def __call__(self, a: Tree, b: Tree) -> float:
        if a == b:
            return 0.0
        key = (a, b) if hash(a) <= hash(b) else (b, a)
        if key in self.cache:
            self.hits += 1
            return self.cache[key]
        self.misses += 1
        value = ted(a, b, free_empty=self.free_empty)
        self.cache[key] = value
        return value
