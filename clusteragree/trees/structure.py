"""The structure of dependency sentences given by their heads: roots, heads out of range,
cycles and non-projective arcs, for ``validate`` (level 2) and ``--strict``.

:func:`flag_sentences` looks at every sentence of a file at once with numpy (roots by counting,
words that never reach the root by pointer jumping, yields that are not intervals a level of
the trees at a time), so that a corpus of millions of words is checked in a fraction of the
time it takes to read; :func:`unreachable` and :func:`non_projective_arcs` then describe the few
sentences flagged, one at a time.

A word ``d`` with head ``h`` (an arc ``h -> d``) is *non-projective* when a word between ``h``
and ``d`` is not a descendant of ``h``; a tree without such arcs is projective, which holds
exactly when the words under every node (its yield) are consecutive (Nivre 2006). The arcs of
the artificial root (head 0) are never non-projective: the root dominates every word.

References
----------
Nivre, J. (2006). Inductive Dependency Parsing. Springer. Section 2.4 (projectivity; a tree is
projective iff every arc is, iff every yield is an interval).

Universal Dependencies, the CoNLL-U format (universaldependencies.org/format.html): HEAD is the
ID of a word of the sentence or 0, one word is headed by 0, and the heads form a tree.

Examples
--------
"I saw the man": the heads of Skjaerholt (2014), Figure 1, form a projective tree; in the
second sentence, the arc 4 -> 2 passes over word 3, whose head is 1, not under 4:

>>> flags = flag_sentences([(2, 0, 4, 2), (0, 4, 1, 1)])
>>> flags.roots.tolist(), flags.cyclic.tolist(), flags.gapped.tolist()
([1, 1], [False, False], [False, True])
>>> non_projective_arcs((0, 4, 1, 1))
[(4, 2)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain

import numpy as np
import numpy.typing as npt

__all__ = ["Flags", "flag_sentences", "non_projective_arcs", "unreachable"]

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Flags:
    """What :func:`flag_sentences` found, one entry per sentence.

    Attributes
    ----------
    roots : ndarray of int
        The number of words headed by 0.
    out_of_range : ndarray of bool
        Some head is larger than the number of words.
    cyclic : ndarray of bool
        Some word never reaches the root (its heads run into a cycle); False where a head is
        out of range or no word is headed by 0 (those sentences are not trees to look into).
    gapped : ndarray of bool
        The tree is not projective (some yield is not an interval); False for the sentences
        above.
    """

    roots: Ints
    out_of_range: Bools
    cyclic: Bools
    gapped: Bools


def flag_sentences(heads: Sequence[Sequence[int]]) -> Flags:
    """Flag the sentences of a file, each given by its words' heads (0 the artificial root,
    ``k`` the ``k``-th word), all at once.

    Parameters
    ----------
    heads : sequence of sequences of int
        One sequence of heads per sentence, each head 0 or more.

    Returns
    -------
    Flags
        Roots, heads out of range, cycles and non-projectivity of each sentence.

    References
    ----------
    Nivre, J. (2006). Inductive Dependency Parsing. Springer. Section 2.4.

    Examples
    --------
    No root; two roots; a head out of range; "go and stop" where "and" and "stop" are each
    other's heads:

    >>> f = flag_sentences([(2, 1), (0, 0), (0, 3), (0, 3, 2)])
    >>> f.roots.tolist(), f.out_of_range.tolist(), f.cyclic.tolist()
    ([0, 2, 1, 1], [False, False, True, False], [False, False, False, True])
    """
    count = len(heads)
    sizes = np.fromiter(map(len, heads), dtype=np.int64, count=count)
    words = int(sizes.sum())
    flat = np.fromiter(chain.from_iterable(heads), dtype=np.int64, count=words)
    sent = np.repeat(np.arange(count), sizes)
    out = np.bincount(sent, weights=flat > sizes[sent], minlength=count) > 0
    roots = np.bincount(sent, weights=flat == 0, minlength=count).astype(np.int64)
    skip = out | (roots == 0)
    # Nodes: sentence j's artificial root is base[j], its k-th word base[j] + k.
    base = np.cumsum(sizes + 1) - (sizes + 1)
    first = np.cumsum(sizes) - sizes
    node = np.arange(words) - first[sent] + 1 + base[sent]
    head = np.where(skip[sent], 0, flat)
    parent = np.arange(words + count, dtype=np.int64)
    parent[node] = base[sent] + head
    rounds = math.ceil(math.log2(int(sizes.max(initial=0)) + 2)) + 1
    jump = parent.copy()
    for _ in range(rounds):
        jump = jump[jump]
    lost = jump[node] != base[sent]
    cyclic = np.bincount(sent, weights=lost, minlength=count) > 0
    gapped = _gapped(parent, node, sent, base, cyclic | skip, rounds, count)
    return Flags(roots, out, cyclic, gapped)


def _gapped(parent: Ints, node: Ints, sent: Ints, base: Ints, skip: Bools, rounds: int,
            count: int) -> Bools:
    """Sentences with a node whose yield is not an interval (the sentences of ``skip`` are
    made stars first, so they are never flagged)."""
    parent = parent.copy()
    parent[node] = np.where(skip[sent], base[sent], parent[node])
    n = len(parent)
    is_word = np.ones(n, dtype=np.bool_)
    is_word[base] = False
    depth = is_word.astype(np.int64)
    jump = parent.copy()
    for _ in range(rounds):
        depth += depth[jump]
        jump = jump[jump]
    position = np.zeros(n, dtype=np.int64)
    position[node] = node - base[sent]
    left, right = position.copy(), position.copy()
    size = np.ones(n, dtype=np.int64)
    order = np.argsort(depth, kind="stable")
    cuts = np.searchsorted(depth[order], np.arange(int(depth.max(initial=0)) + 2))
    for d in range(len(cuts) - 2, 0, -1):  # the deepest level first
        level = order[cuts[d]:cuts[d + 1]]
        up = parent[level]
        np.minimum.at(left, up, left[level])
        np.maximum.at(right, up, right[level])
        np.add.at(size, up, size[level])
    broken = (right - left + 1 != size) & is_word
    owner = np.zeros(n, dtype=np.int64)
    owner[node] = sent
    return np.bincount(owner, weights=broken, minlength=count) > 0


def unreachable(heads: Sequence[int]) -> tuple[list[int], list[int]]:
    """The words of a sentence that never reach the root: those on a cycle, and those hanging
    from one.

    Examples
    --------
    >>> unreachable((0, 3, 2, 3))
    ([2, 3], [4])
    """
    n = len(heads)
    state = [0] * (n + 1)  # 0 unseen, 1 reaches the root, 2 does not
    state[0] = 1
    on_cycle: set[int] = set()
    for start in range(1, n + 1):
        path: list[int] = []
        seen: dict[int, int] = {}
        k = start
        while state[k] == 0 and k not in seen:
            seen[k] = len(path)
            path.append(k)
            k = heads[k - 1] if 1 <= heads[k - 1] <= n or heads[k - 1] == 0 else 0
        if state[k] == 0:  # k closes a cycle of this path
            on_cycle.update(path[seen[k]:])
        result = state[k] if state[k] else 2
        for w in path:
            state[w] = result
    lost = [w for w in range(1, n + 1) if state[w] == 2]
    return sorted(on_cycle), [w for w in lost if w not in on_cycle]


def non_projective_arcs(heads: Sequence[int]) -> list[tuple[int, int]]:
    """The non-projective arcs ``(head, dependent)`` of a tree (every word reaches the root),
    by the definition: a word between them is not a descendant of the head.

    Examples
    --------
    >>> non_projective_arcs((2, 0, 2)), non_projective_arcs((3, 4, 0, 3))
    ([], [(4, 2)])
    """
    n = len(heads)
    children: list[list[int]] = [[] for _ in range(n + 1)]
    for d, h in enumerate(heads, start=1):
        children[h].append(d)
    pre = [0] * (n + 1)
    size = [1] * (n + 1)
    order: list[int] = []
    stack = [0]
    while stack:
        v = stack.pop()
        pre[v] = len(order)
        order.append(v)
        stack.extend(reversed(children[v]))
    for v in reversed(order):
        for c in children[v]:
            size[v] += size[c]
    arcs = []
    for d, h in enumerate(heads, start=1):
        if h == 0:
            continue
        lo, hi = min(h, d), max(h, d)
        if any(not pre[h] <= pre[k] < pre[h] + size[h] for k in range(lo + 1, hi)):
            arcs.append((h, d))
    return arcs
