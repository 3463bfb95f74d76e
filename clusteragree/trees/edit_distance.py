"""Ordered labelled trees and the Zhang & Shasha (1989) tree edit distance.

A tree is a :class:`Tree`: its labels in pre-order and the size of each node's subtree, two flat
tuples, hashable (distances between distinct trees are cached) and never traversed recursively,
so a tree 100,000 levels deep is read, compared and scored like any other. The nested form
``(label, (child, child, ...))`` is accepted wherever a tree is.

The edit distance is the cheapest sequence of node deletions,
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

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from numbers import Integral
from typing import Any

import numpy as np

from ..core.jit import Compiled
from ..core.parallel import map_chunks, pool_running, resolve_jobs
from ..errors import InputError, ParameterError, ParameterTypeError
from .model import MAX_CELLS, Tree, TreeLike, as_tree

__all__ = ["MAX_CELLS", "TreeCache", "ted"]

#: Tasks per process when :meth:`TreeCache.fill` computes distances on several: pairs of large
#: trees cost far more than pairs of small ones, so many small tasks balance the load.
TASKS_PER_JOB = 16

#: :meth:`TreeCache.fill` starts a pool of processes for pairs needing at least this many table
#: cells in all (about 2.5 s in one process; starting the pool costs one to two seconds), and
#: uses a pool already started for at least FILL_RUNNING_CELLS.
FILL_POOL_CELLS = 20_000_000
FILL_RUNNING_CELLS = 2_000_000

def _argument(tree: object, name: str) -> Tree:
    """``as_tree``, naming the argument when the value is not a tree."""
    try:
        return as_tree(tree)
    except ParameterTypeError as err:
        raise ParameterTypeError(f"{name}: {err}") from None


@lru_cache(maxsize=65536)
def _postorder(tree: Tree) -> tuple[tuple[str, ...], np.ndarray, tuple[int, ...]]:
    """Labels in post-order, leftmost leaf of each node, and the key roots (all 1-based)."""
    labels, sizes = tree.labels, tree.sizes
    n = len(labels)
    post = [0] * n  # post-order position (0-based) of each pre-order node
    ends: list[int] = []
    for p in range(n):
        while ends and ends[-1] <= p:
            ends.pop()
        post[p] = p - len(ends) + sizes[p] - 1  # earlier non-ancestors, then descendants
        ends.append(p + sizes[p])
    first_leaf = [0] * n  # pre-order index of each node's leftmost leaf
    for p in range(n - 1, -1, -1):
        first_leaf[p] = p if sizes[p] == 1 else first_leaf[p + 1]
    out_labels: list[str] = [""] * n
    lml = [0] * n
    for p in range(n):
        out_labels[post[p]] = labels[p]
        lml[post[p]] = post[first_leaf[p]] + 1
    keyroots: dict[int, int] = {}
    for i, leftmost in enumerate(lml, start=1):
        keyroots[leftmost] = i
    return tuple(out_labels), np.array(lml, dtype=np.int64), tuple(sorted(keyroots.values()))


def _compiled() -> Any:
    """The numba kernel, or None when numba is not installed or cannot be loaded or compile
    for any reason: then the pure Python kernel serves, with one
    :class:`~clusteragree.errors.PerformanceWarning` per process."""
    return KERNEL.get()


def _build_kernel() -> Any:
    """The compiled kernel, cached on disk where numba can write its cache (a worker process
    then loads it instead of compiling it again), compiled afresh otherwise."""
    try:
        return _jit(cache=True)
    except Exception:  # no writable cache directory, or a cache numba cannot read
        return _jit(cache=False)


def _jit(cache: bool) -> Any:
    import numba

    @numba.njit(cache=cache)
    def kernel(la, lla, kra, ca, lb, llb, krb, cb, rc, unit):  # pragma: no cover - compiled
        n, m = la.shape[0], lb.shape[0]
        td = np.zeros((n + 1, m + 1))
        fd = np.zeros((n + 2, m + 2))
        for i in kra:
            li = lla[i - 1]
            for j in krb:
                lj = llb[j - 1]
                rows, cols = i - li + 2, j - lj + 2
                fd[0, 0] = 0.0
                for x in range(1, rows):
                    fd[x, 0] = fd[x - 1, 0] + ca[li + x - 2]
                for y in range(1, cols):
                    fd[0, y] = fd[0, y - 1] + cb[lj + y - 2]
                for x in range(1, rows):
                    i1 = li + x - 1
                    left_i = lla[i1 - 1]
                    for y in range(1, cols):
                        j1 = lj + y - 1
                        best = min(fd[x - 1, y] + ca[i1 - 1], fd[x, y - 1] + cb[j1 - 1])
                        left_j = llb[j1 - 1]
                        if left_i == li and left_j == lj:
                            if unit:  # unit relabelling: labels are ids, compared
                                change = 0.0 if la[i1 - 1] == lb[j1 - 1] else 1.0
                            else:
                                change = rc[la[i1 - 1], lb[j1 - 1]]
                            best = min(best, fd[x - 1, y - 1] + change)
                            fd[x, y] = best
                            td[i1, j1] = best
                        else:
                            fd[x, y] = min(best, fd[left_i - li, left_j - lj] + td[i1, j1])
        return td[n, m]

    one = np.ones(1, dtype=np.int64)  # compile now, so that a failure is seen here
    kernel(one - 1, one, one, np.ones(1), one - 1, one, one, np.ones(1), np.zeros((1, 1)), False)
    return kernel


KERNEL = Compiled(
    _build_kernel,
    missing="numba is not installed (a default dependency where it has wheels); the tree "
            "edit distance uses the pure Python kernel, about 20 times slower",
    failed="the numba tree edit distance kernel could not be loaded; using the pure Python "
           "kernel, which is slower")



def _check_options(relabel: object, indel: object, max_cells: object) -> None:
    """Refuse costs that are not callables and a table limit that is not a positive integer."""
    for name, f in (("relabel", relabel), ("indel", indel)):
        if f is not None and not callable(f):
            raise ParameterTypeError(f"{name} must be a callable (the cost of a label, or of a "
                                     f"pair of labels) or None. Got {type(f).__name__}.")
    if not isinstance(max_cells, Integral) or isinstance(max_cells, bool):
        raise ParameterTypeError(f"max_cells must be a whole number of table cells. Got "
                                 f"{type(max_cells).__name__}.")
    if max_cells < 1:
        raise ParameterError(f"max_cells must be positive. Got {max_cells}.")


def _cost(value: object, what: str) -> float:
    """A cost returned by a user's function, as a non-negative float."""
    try:
        cost = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        cost = math.nan
    if not cost >= 0 or cost == math.inf:
        raise ParameterError(f"{what} costs must be non-negative finite numbers. Got "
                             f"{value!r}.")
    return cost


def _bytes(n: float) -> str:
    """A number of bytes, readably."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n:.0f} bytes"


@lru_cache(maxsize=256)
def _unit_relabel(k: int) -> np.ndarray:
    """0 on the diagonal, 1 elsewhere: unit relabelling costs between k labels."""
    return 1.0 - np.eye(k)


def _indel_costs(labels: tuple[str, ...], free_empty: bool,
                 indel: Callable[[str], float] | None) -> list[float]:
    return [0.0 if (free_empty and x == "")
            else (1.0 if indel is None else _cost(indel(x), "insert/delete"))
            for x in labels]


def ted(a: TreeLike, b: TreeLike, *, free_empty: bool = False,
        relabel: Callable[[str, str], float] | None = None,
        indel: Callable[[str], float] | None = None, kernel: str = "auto",
        max_cells: int = MAX_CELLS) -> float:
    """Zhang-Shasha edit distance between two ordered labelled trees.

    Costs: ``relabel(x, y)`` to turn label x into y (default 0 if equal, else 1) and
    ``indel(x)`` to insert or delete a node labelled x (default 1); with ``free_empty`` a node
    labelled ``""`` costs nothing to insert or delete (the reproduction convention). Costs must
    be non-negative. ``kernel``: ``"python"``, ``"numba"`` (the ``fast`` extra) or ``"auto"``
    (numba when it can be loaded; custom costs are tabulated for it first). Trees are
    :class:`Tree` objects or nested tuples ``(label, (child, ...))``. Equal trees are at
    distance 0 without a table; other pairs needing more than ``max_cells`` cells
    (:data:`MAX_CELLS`) are refused with an :class:`~clusteragree.errors.InputError`.

    Parameters
    ----------
    a, b : Tree or tuple
        The two trees: :class:`~clusteragree.trees.Tree` objects or the nested form
        ``(label, (child, ...))``. Children are ordered: sibling order matters.
    free_empty : bool, default=False
        Make a node labelled ``""`` free to insert or delete (Skjaerholt's reference code,
        through the zss package; :func:`~clusteragree.trees.tree_alpha` uses it by default).
    relabel : callable (str, str) -> float, optional
        The cost of turning one label into another; default 0 for equal labels, else 1.
    indel : callable str -> float, optional
        The cost of inserting or deleting a node with that label; default 1. ``free_empty``
        still makes ``""`` nodes free.
    kernel : {"auto", "python", "numba"}, default="auto"
        The implementation; both give the same distances.
    max_cells : int, default=MAX_CELLS
        The largest table, ``(len(a) + 1) * (len(b) + 1)`` cells, to fill (25 million).

    Returns
    -------
    float
        The least total cost of the deletions, insertions and relabellings that turn ``a``
        into ``b``.

    Raises
    ------
    ParameterTypeError
        A tree that is neither a Tree nor the nested form (naming ``a`` or ``b``), costs that
        are not callables, a ``max_cells`` that is not a whole number.
    ParameterError
        An unknown kernel, ``max_cells`` below 1, a cost that is negative, infinite or not a
        number.
    InputError
        Two different trees needing more than ``max_cells`` table cells.
    ImportError
        ``kernel="numba"`` without numba.

    References
    ----------
    Zhang, K. and Shasha, D. (1989). Simple fast algorithms for the editing distance between
    trees and related problems. SIAM Journal on Computing, 18(6), 1245-1262.

    Skjaerholt, A. (2014). A chance-corrected measure of inter-annotator agreement for syntax.
    Proceedings of ACL 2014, pp. 934-944. Section 2 and Figure 2 (the three trees below).

    docs/trees.md, "Tree edit distance" and "Deep trees, limits and input checks".

    Examples
    --------
    Skjaerholt (2014), Figure 2. Every operation changes the number of nodes by at most one,
    so two trees of n and m nodes are at least ``abs(n - m)`` apart; t1 (5 nodes) is t2
    (9 nodes) without the four nodes Atr, Pred, Obj, Det under Obj, and t3 (3 nodes) is t1
    without Obj and Det. So TED(t1, t2) = 4, TED(t1, t3) = 2 and TED(t2, t3) = 6, as in the
    paper:

    >>> t1 = ("", (("Pred", (("Subj", ()), ("Obj", (("Det", ()),)))),))
    >>> t2 = ("", (("Pred", (("Subj", ()), ("Obj", (("Det", ()),
    ...        ("Atr", (("Pred", (("Obj", (("Det", ()),)),)),)))))),))
    >>> t3 = ("", (("Pred", (("Subj", ()),)),))
    >>> ted(t1, t2), ted(t1, t3), ted(t2, t3)
    (4.0, 2.0, 6.0)

    Relabelling a to b costs 1 (deleting a and inserting b would cost 2). Sibling order
    matters: ``S(a, b)`` and ``S(b, a)`` are 2 apart (one relabelling gives two equal leaves,
    and deleting or inserting changes the size):

    >>> ted(("S", (("a", ()),)), ("S", (("b", ()),)))
    1.0
    >>> ted(("S", (("a", ()), ("b", ()))), ("S", (("b", ()), ("a", ()))))
    2.0

    Deleting the root labelled ``""`` costs 1, or nothing with ``free_empty``:

    >>> ted(("", (("A", ()),)), ("A", ())), ted(("", (("A", ()),)), ("A", ()), free_empty=True)
    (1.0, 0.0)

    Custom costs: relabelling for 0.5, or inserting the leaf a for 2:

    >>> ted(("S", (("a", ()),)), ("S", (("b", ()),)), relabel=lambda x, y: 0.5 * (x != y))
    0.5
    >>> ted(("S", ()), ("S", (("a", ()),)), indel=lambda x: 2.0)
    2.0

    t1 and t2 need a table of (5 + 1)(9 + 1) = 60 cells:

    >>> ted(t1, t2, max_cells=59)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: ... trees of 5 and 9 nodes needs 60 table cells, ...
    """
    if kernel not in ("auto", "python", "numba"):
        raise ParameterError(f"kernel must be 'auto', 'python' or 'numba'. Got {kernel!r}.")
    _check_options(relabel, indel, max_cells)
    a, b = _argument(a, "a"), _argument(b, "b")
    if relabel is None and indel is None and a == b:
        return 0.0
    cells = (len(a) + 1) * (len(b) + 1)
    if cells > max_cells:
        raise InputError(
            f"the tree edit distance between trees of {len(a)} and {len(b)} nodes needs "
            f"{cells:,} table cells, more than the limit of {max_cells:,} (about "
            f"{_bytes(16 * max_cells)}); raise max_cells (--max-cells) if the memory is there")
    compiled = _compiled() if kernel != "python" else None
    if kernel == "numba" and compiled is None:
        raise ImportError("the numba kernel needs numba: pip install 'clusteragree[fast]'")
    if compiled is None:
        return _ted_python(a, b, free_empty, relabel, indel)
    if relabel is None and indel is None:  # unit costs: each tree's arrays made once
        tree_a, tree_b = _prepared(a, free_empty), _prepared(b, free_empty)
        return float(compiled(*tree_a, *tree_b, _NO_TABLE, True))
    la, lla, kra = _postorder(a)
    lb, llb, krb = _postorder(b)
    ids: dict[str, int] = {}
    ia = np.array([ids.setdefault(x, len(ids)) for x in la], dtype=np.int64)
    ib = np.array([ids.setdefault(y, len(ids)) for y in lb], dtype=np.int64)
    ca = np.array(_indel_costs(la, free_empty, indel))
    cb = np.array(_indel_costs(lb, free_empty, indel))
    if relabel is None:
        rc = _unit_relabel(len(ids))
    else:
        names = list(ids)
        rc = np.array([[_cost(relabel(x, y), "relabelling") for y in names] for x in names])
    return float(compiled(ia, lla, np.array(kra, dtype=np.int64), ca, ib, llb,
                          np.array(krb, dtype=np.int64), cb, rc, False))


#: Every label met by the unit-cost kernel, numbered (the same label, the same number).
_LABEL_IDS: dict[str, int] = {}
_NO_TABLE = np.zeros((1, 1))


@lru_cache(maxsize=65536)
def _prepared(tree: Tree, free_empty: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                     np.ndarray]:
    """What the unit-cost kernel needs of a tree: its labels' numbers, leftmost leaves and
    key roots in post-order, and the cost of inserting or deleting each node."""
    labels, lml, keyroots = _postorder(tree)
    ids = np.fromiter((_LABEL_IDS.setdefault(x, len(_LABEL_IDS)) for x in labels),
                      dtype=np.int64, count=len(labels))
    costs = np.array(_indel_costs(labels, free_empty, None))
    return ids, lml, np.array(keyroots, dtype=np.int64), costs


def _ted_python(a: Tree, b: Tree, free_empty: bool,
                relabel: Callable[[str, str], float] | None,
                indel: Callable[[str], float] | None) -> float:
    la, lla_arr, kr_a = _postorder(a)
    lb, llb_arr, kr_b = _postorder(b)
    lla, llb = lla_arr.tolist(), llb_arr.tolist()
    n, m = len(la), len(lb)
    ca = _indel_costs(la, free_empty, indel)
    cb = _indel_costs(lb, free_empty, indel)
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
                            change = _cost(relabel(label_i, lb[j1 - 1]), "relabelling")
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
    """Edit distances between distinct trees, computed once each (symmetric: custom costs
    should be too), with the costs of :func:`ted`.

    Call it with two trees, ``cache(a, b)``, for their distance: 0 for equal trees (neither
    computed nor counted), else looked up or computed by :func:`ted` and stored under the
    unordered pair.

    Parameters
    ----------
    free_empty : bool, default=False
        Nodes labelled ``""`` are free to insert or delete (as in :func:`ted`).
    relabel : callable (str, str) -> float, optional
        Relabelling cost, as in :func:`ted`.
    indel : callable str -> float, optional
        Insertion and deletion cost, as in :func:`ted`.
    max_cells : int, default=MAX_CELLS
        The largest table to fill, as in :func:`ted`.

    Attributes
    ----------
    free_empty, relabel, indel, max_cells
        The costs and limit given.
    cache : dict
        ``(tree, tree) -> distance`` for the distinct pairs computed so far.
    hits, misses : int
        Calls answered from the cache, and calls that computed a distance.

    Raises
    ------
    ParameterTypeError, ParameterError
        Costs or a ``max_cells`` that :func:`ted` would refuse.

    References
    ----------
    Zhang, K. and Shasha, D. (1989). Simple fast algorithms for the editing distance between
    trees and related problems. SIAM Journal on Computing, 18(6), 1245-1262.

    Skjaerholt, A. (2014). A chance-corrected measure of inter-annotator agreement for syntax.
    Proceedings of ACL 2014, pp. 934-944. Section 2 and Figure 2.

    docs/trees.md, "Tree edit distance" (the expected disagreement needs the distance of every
    pair of trees, hence the cache).

    Examples
    --------
    Skjaerholt (2014), Figure 2: deleting Obj and Det turns t1 into t3. The second call, in
    the other order, is answered from the cache; the distance of a tree to itself is 0
    without a look-up:

    >>> t1 = ("", (("Pred", (("Subj", ()), ("Obj", (("Det", ()),)))),))
    >>> t3 = ("", (("Pred", (("Subj", ()),)),))
    >>> cache = TreeCache()
    >>> cache(t1, t3), cache(t3, t1), cache.hits
    (2.0, 2.0, 1)
    >>> cache(t1, t1), cache.hits, cache.misses, len(cache.cache)
    (0.0, 1, 1, 1)
    """

    def __init__(self, free_empty: bool = False, *,
                 relabel: Callable[[str, str], float] | None = None,
                 indel: Callable[[str], float] | None = None,
                 max_cells: int = MAX_CELLS) -> None:
        _check_options(relabel, indel, max_cells)
        self.free_empty = bool(free_empty)
        self.relabel = relabel
        self.indel = indel
        self.max_cells = max_cells
        self.cache: dict[tuple[Tree, Tree], float] = {}
        self.hits = 0
        self.misses = 0
        self._ready: dict[tuple[Tree, Tree], float] = {}  # computed ahead by fill()

    @staticmethod
    def _key(a: Tree, b: Tree) -> tuple[Tree, Tree]:
        return (a, b) if hash(a) <= hash(b) else (b, a)

    def fill(self, trees: Sequence[TreeLike], jobs: int | None = 1) -> int:
        """Compute ahead, on ``jobs`` processes, the distances between every two distinct
        ``trees`` not known yet, for the calls to come.

        The calls then find them: ``hits`` and ``misses`` count as if each distance were
        computed when first asked for, and the distances are those :func:`ted` gives in this
        process. A pair too large to compare is left for its call, which raises. With custom
        costs (functions need not pickle), one process, or too little work to pay for the pool
        (:data:`FILL_POOL_CELLS`, or :data:`FILL_RUNNING_CELLS` once a pool runs), nothing is
        computed ahead.

        Parameters
        ----------
        trees : sequence of Tree or tuple
            The trees whose pairs will be asked for (repeats are fine).
        jobs : int or None, default=1
            Processes (:func:`~clusteragree.core.parallel.resolve_jobs`: None or 0 every core).

        Returns
        -------
        int
            The number of distances computed ahead.

        Examples
        --------
        >>> cache = TreeCache()
        >>> cache.fill([("a", ()), ("b", ()), ("a", ())], jobs=1)  # one process: nothing ahead
        0
        """
        if resolve_jobs(jobs) == 1 or self.relabel is not None or self.indel is not None:
            return 0
        distinct = list(dict.fromkeys(_argument(t, "tree") for t in trees))
        pairs = [(i, j) for i in range(len(distinct)) for j in range(i + 1, len(distinct))
                 if (key := self._key(distinct[i], distinct[j])) not in self.cache
                 and key not in self._ready]
        sizes = [len(t) + 1 for t in distinct]
        cells = sum(sizes[i] * sizes[j] for i, j in pairs)
        if cells < (FILL_RUNNING_CELLS if pool_running(jobs) else FILL_POOL_CELLS):
            return 0  # the calls compute them here: a pool would cost more than it saves
        tasks = int(resolve_jobs(jobs)) * TASKS_PER_JOB
        step = max(1, -(-len(pairs) // tasks))
        shared = tuple(distinct)
        work = [(shared, pairs[k:k + step], self.free_empty, self.max_cells)
                for k in range(0, len(pairs), step)]
        found = 0
        for part, values in zip(work, map_chunks(_distances, work, jobs, chunk_size=1),
                                strict=True):
            for (i, j), value in zip(part[1], values, strict=True):
                if value is not None:
                    self._ready[self._key(distinct[i], distinct[j])] = value
                    found += 1
        return found

    def __call__(self, a: TreeLike, b: TreeLike) -> float:
        a, b = _argument(a, "a"), _argument(b, "b")
        if a == b:
            return 0.0
        key = self._key(a, b)
        if key in self.cache:
            self.hits += 1
            return self.cache[key]
        self.misses += 1
        value = self._ready.pop(key, None)
        if value is None:
            value = ted(a, b, free_empty=self.free_empty, relabel=self.relabel,
                        indel=self.indel, max_cells=self.max_cells)
        self.cache[key] = value
        return value


def _distances(task: tuple[tuple[Tree, ...], list[tuple[int, int]], bool, int]
               ) -> list[float | None]:
    """A worker's share of :meth:`TreeCache.fill`: the unit-cost distances of some pairs of
    the trees (None for a pair too large, left for its call to refuse)."""
    trees, pairs, free_empty, max_cells = task
    out: list[float | None] = []
    for i, j in pairs:
        try:
            out.append(ted(trees[i], trees[j], free_empty=free_empty, max_cells=max_cells))
        except InputError:
            out.append(None)
    return out
