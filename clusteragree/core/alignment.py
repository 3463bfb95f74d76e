"""The best alignment of Mathet, Widlöcher & Métivier's gamma, computed exactly.

A *continuum* holds, for each of ``n`` annotators, a list of units ``(start, end, category)``.
A *unitary alignment* takes at most one unit of each annotator (the others are the empty unit
``∅``); an *alignment* is a set of unitary alignments in which every unit appears exactly once.

* Positional dissimilarity: ``d_pos(u, v) = ((|s_u - s_v| + |e_u - e_v|) / (l_u + l_v))^2 Δ``
  with ``l = e - s`` and ``Δ = delta_empty``; for two zero-length units (0/0) it is 0 at the
  same point and infinite elsewhere (they are never aligned);
* categorical dissimilarity: ``d_cat(u, v) = M[c_u, c_v] Δ`` (default ``M``: 0 on the diagonal,
  1 elsewhere);
* combined: ``d(u, v) = alpha d_pos + beta d_cat``; ``d(u, ∅) = d(∅, ∅) = Δ``;
* disorder of a unitary alignment ``a``: the average of ``d`` over its ``C(n, 2)`` pairs of
  annotators; of an alignment: the sum of its unitary disorders divided by the average number
  of units per annotator. The best alignment minimises it.

Exactness. With ``k`` units in ``a``, ``C(n, 2) δ(a) = S(a) + (C(n, 2) - C(k, 2)) Δ``, ``S(a)``
the sum of ``d`` over the pairs of its units. Splitting ``a`` into two non-empty parts ``b``
and ``c`` changes ``C(n, 2)`` times the total by ``λ - cut(b, c)``, ``λ = C(n, 2) Δ`` and
``cut(b, c)`` the sum of ``d - Δ`` over the pairs across the parts. Hence:

1. *Candidates.* Whenever some bipartition of ``a`` has ``cut >= λ``, or ``δ(a) >= k Δ``
   (every unit alone costs ``Δ``), splitting does not increase the disorder. Splitting while
   one of these holds ends (the number of unitary alignments grows), so some best alignment
   uses only candidates where neither holds. Every bipartition is checked up to 8 units; above,
   the single-unit ones (``S(x, a - x) >= Δ (C(n, 2) + k - 1)``) and the average balanced one
   (a balanced bipartition drawn at random cuts each pair with chance ``p_k = floor(k/2)
   ceil(k/2) / C(k, 2)``, so some cut reaches ``p_k`` times the sum over all pairs). In a
   candidate every pair has ``d < T = Δ (C(n, 2) + n - 1)``.
2. *Independent groups.* Units joined by no chain of pairs with ``d < T`` share no candidate,
   so the best alignment is the union of the best alignments of the connected components of
   the graph "``d < T``", solved one by one. The pairs with ``d < T`` are found without
   comparing every unit with every other: ``d >= alpha d_pos`` bounds the distance of their
   midpoints by their lengths (:mod:`clusteragree.core.alignment_kernel`).
3. *Two annotators* (``T = 2Δ``): a pair costs ``d``, a unit alone ``Δ``, so the disorder times
   the average count is ``(p + q) Δ + Σ_{pairs} (d - 2Δ)``: the best alignment is a minimum-
   weight matching with weights ``min(d - 2Δ, 0)``, which the assignment solver finds exactly
   on the (rectangular) component matrix (a matched pair of weight 0 counts as two units alone).
4. *Three or more*: the candidates of a group (enumerated depth first, capped) and its
   singletons are searched for the least-cost partition (each unit covered exactly once): by
   a depth-first search bounded by each unit's cheapest share ``cost / size`` of a candidate
   holding it, and where that search passes a node limit by an integer program solved by
   HiGHS with a relative gap of 0.

References
----------
Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). The unified and holistic method gamma (γ)
for inter-annotator agreement measure and alignment. Computational Linguistics 41(3), 437-479
(section 4: dissimilarities and alignment; section 5.1: the best alignment).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np

from ..errors import ParameterError, option
from .alignment_kernel import kernels
from .alignment_python import candidates

__all__ = ["Alignment", "Continuum", "best_alignment", "dissimilarity", "dissimilarity_matrix",
           "positional", "prepare"]

#: Default cap on the candidate unitary alignments enumerated in one independent group.
MAX_CANDIDATES = 200_000
#: Nodes the depth-first partition search may visit in one group before HiGHS takes over.
COVER_NODES = 2_000
#: Groups with at most this many candidates try the depth-first search first.
SMALL_GROUP = 64


@dataclass(frozen=True)
class Continuum:
    """Units as arrays, one entry per annotator, with the dissimilarity's parameters."""

    starts: tuple[np.ndarray, ...]
    ends: tuple[np.ndarray, ...]
    codes: tuple[np.ndarray, ...]
    categories: tuple[Hashable, ...]
    category_matrix: np.ndarray
    alpha: float
    beta: float
    delta_empty: float

    @property
    def n_annotators(self) -> int:
        return len(self.starts)

    @property
    def n_units(self) -> int:
        return sum(len(s) for s in self.starts)

    def flat(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every unit, annotator after annotator: starts, ends, category codes, annotators."""
        sizes = [len(s) for s in self.starts]
        owner = np.repeat(np.arange(self.n_annotators), sizes)
        if not sum(sizes):
            return np.zeros(0), np.zeros(0), np.zeros(0, dtype=np.int64), owner
        return (np.concatenate(self.starts), np.concatenate(self.ends),
                np.concatenate(self.codes), owner)


@dataclass(frozen=True)
class Alignment:
    """A best alignment.

    Attributes
    ----------
    unitary : tuple of tuples
        One tuple per unitary alignment: for each annotator the index of its unit (in the order
        given) or None for the empty unit.
    disorders : tuple of float
        The disorder of each unitary alignment.
    disorder : float
        The alignment's disorder (sum of ``disorders`` over the average number of units per
        annotator); NaN when there is no unit.

    References
    ----------
    Mathet, Widlöcher & Métivier (2015), Computational Linguistics 41(3), section 4.

    Examples
    --------
    >>> best_alignment([[(0, 4, "x")], [(0, 4, "x"), (9, 12, "y")]])
    Alignment(unitary=((0, 0), (None, 1)), disorders=(0.0, 1.0), disorder=0.6666666666666666)
    """

    unitary: tuple[tuple[int | None, ...], ...]
    disorders: tuple[float, ...]
    disorder: float


def prepare(annotations: Sequence[Sequence[tuple[float, float, Hashable]]], *,
            alpha: float = 1.0, beta: float = 1.0, delta_empty: float = 1.0,
            categories: Sequence[Hashable] | None = None,
            category_matrix: np.ndarray | Sequence[Sequence[float]] | None = None) -> Continuum:
    """Check the units and the dissimilarity's parameters (see :func:`best_alignment`)."""
    if len(annotations) < 2:
        raise ParameterError(f"gamma needs at least two annotators; got {len(annotations)}.",
                             params=("annotations",))
    for name, value in (("alpha", alpha), ("beta", beta), ("delta_empty", delta_empty)):
        if not (np.isfinite(value) and value >= 0):
            raise ParameterError(f"{option(name, value)} must be a finite number >= 0.",
                                 params=(name,))
    if delta_empty <= 0:
        raise ParameterError(f"{option('delta_empty', delta_empty)} must be > 0.",
                             params=("delta_empty",))
    seen: list[Hashable] = []
    for units in annotations:
        for unit in units:
            if len(unit) != 3:
                raise ParameterError(f"a unit is (start, end, category); got {unit!r}.",
                                     params=("annotations",))
            if unit[2] not in seen:
                seen.append(unit[2])
    if (categories is None) != (category_matrix is None):
        raise ParameterError("give categories and category_matrix together (the matrix's rows "
                             "and columns in the order of categories), or neither.",
                             params=("categories", "category_matrix"))
    if categories is None:
        cats = tuple(seen)
        matrix = 1.0 - np.eye(len(cats))
    else:
        cats = tuple(categories)
        matrix = np.asarray(category_matrix, dtype=float)
        missing = [c for c in seen if c not in cats]
        if missing:
            raise ParameterError(f"categories lacks {missing[:3]!r}, found in the units.",
                                 params=("categories",))
        if (matrix.shape != (len(cats), len(cats)) or not np.all(np.isfinite(matrix))
                or np.any(matrix < 0) or not np.allclose(matrix, matrix.T)
                or np.any(np.diag(matrix) != 0)):
            raise ParameterError("category_matrix must be square over categories, symmetric, "
                                 ">= 0 and 0 on its diagonal.", params=("category_matrix",))
    index = {c: i for i, c in enumerate(cats)}
    starts, ends, codes = [], [], []
    for units in annotations:
        s = np.array([float(u[0]) for u in units], dtype=float)
        e = np.array([float(u[1]) for u in units], dtype=float)
        if not (np.all(np.isfinite(s)) and np.all(np.isfinite(e))):
            raise ParameterError("unit offsets must be finite numbers.", params=("annotations",))
        if np.any(e < s):
            raise ParameterError("every unit must end at or after its start; found end < start.",
                                 params=("annotations",))
        starts.append(s)
        ends.append(e)
        codes.append(np.array([index[u[2]] for u in units], dtype=np.int64))
    return Continuum(tuple(starts), tuple(ends), tuple(codes), cats, matrix,
                     float(alpha), float(beta), float(delta_empty))


def positional(s1: np.ndarray, e1: np.ndarray, s2: np.ndarray, e2: np.ndarray,
               delta: float) -> np.ndarray:
    """``d_pos``: ``((|s1 - s2| + |e1 - e2|) / (l1 + l2))^2 Δ``, element by element; for two
    zero-length units 0 at the same point and infinite elsewhere (the formula's limit).

    Examples
    --------
    >>> d = positional(np.array([0.0]), np.array([10.0]), np.array([2.0]), np.array([10.0]), 1.0)
    >>> float(d[0] * 81)  # ((2 + 0) / (10 + 8))^2 = 1/81
    1.0
    """
    num = np.abs(s1 - s2) + np.abs(e1 - e2)
    den = (e1 - s1) + (e2 - s2)
    with np.errstate(divide="ignore", invalid="ignore"):
        pos = (num / den) ** 2
    empty = den == 0
    pos[empty] = np.where(num[empty] == 0, 0.0, np.inf)
    return delta * pos


def dissimilarity(cont: Continuum, flat: tuple[np.ndarray, ...], i: np.ndarray, j: np.ndarray
                  ) -> np.ndarray:
    """``d(u, v)`` for the units at positions ``i`` and ``j`` of ``cont.flat()``."""
    s, e, c, _ = flat
    pos = positional(s[i], e[i], s[j], e[j], cont.delta_empty)
    return cont.alpha * pos + cont.beta * cont.delta_empty * cont.category_matrix[c[i], c[j]]


def dissimilarity_matrix(cont: Continuum, i: int, j: int) -> np.ndarray:
    """``d(u, v)`` for every unit ``u`` of annotator ``i`` and ``v`` of annotator ``j``."""
    si, ei, sj, ej = cont.starts[i], cont.ends[i], cont.starts[j], cont.ends[j]
    pos = positional(si[:, None], ei[:, None], sj[None, :], ej[None, :], cont.delta_empty)
    cat = cont.category_matrix[cont.codes[i][:, None], cont.codes[j][None, :]]
    return cont.alpha * pos + cont.beta * cont.delta_empty * cat


def best_alignment(annotations: Sequence[Sequence[tuple[float, float, Hashable]]] | Continuum,
                   *, alpha: float = 1.0, beta: float = 1.0, delta_empty: float = 1.0,
                   categories: Sequence[Hashable] | None = None,
                   category_matrix: np.ndarray | Sequence[Sequence[float]] | None = None,
                   max_candidates: int = MAX_CANDIDATES) -> Alignment:
    """The alignment of least disorder, computed exactly (see the module's docstring).

    Parameters
    ----------
    annotations : sequence of sequences of (start, end, category), or Continuum
        The units of each annotator on one continuum (``end >= start``).
    alpha, beta : float, default=1.0
        Weights of the positional and the categorical dissimilarity.
    delta_empty : float, default=1.0
        The dissimilarity of a unit with the empty unit.
    categories, category_matrix : optional
        The categorical dissimilarity ``M`` (rows and columns in the order of ``categories``);
        by default 0 for the same category and 1 otherwise.
    max_candidates : int, default=200000
        Cap on the candidate unitary alignments of one independent group (three or more
        annotators); beyond it a ParameterError is raised.

    Returns
    -------
    Alignment

    References
    ----------
    Mathet, Widlöcher & Métivier (2015), Computational Linguistics 41(3), section 5.1.

    Examples
    --------
    >>> a = [(0, 10, "x"), (20, 30, "y")]
    >>> b = [(0, 10, "x"), (22, 30, "y")]
    >>> al = best_alignment([a, b])
    >>> al.unitary
    ((0, 0), (1, 1))
    >>> round(al.disorder, 6)  # d = (2 / 18)^2 for the second pair, over 2 units per annotator
    0.006173
    """
    cont = annotations if isinstance(annotations, Continuum) else prepare(
        annotations, alpha=alpha, beta=beta, delta_empty=delta_empty, categories=categories,
        category_matrix=category_matrix)
    n = cont.n_annotators
    sizes = [len(s) for s in cont.starts]
    total = sum(sizes)
    if total == 0:
        return Alignment((), (), float("nan"))
    flat = cont.flat()
    threshold = cont.delta_empty * (comb(n, 2) + n - 1)
    gi, gj, dist = _near(cont, flat, threshold)
    labels = _labels(gi, gj, total)
    if n == 2:
        groups, costs = _two(gi, gj, dist, labels, cont.delta_empty)
    else:
        groups, costs = _many(cont, gi, gj, dist, labels, max_candidates)
    return _assemble(cont, flat, groups, costs)


# ------------------------------------------------------------------ pairs and groups
def _near(cont: Continuum, flat: tuple[np.ndarray, ...], threshold: float
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every pair ``i < j`` (positions in ``flat``) of different annotators with ``d < T``."""
    s, e, _, owner = flat
    compiled = kernels() if cont.alpha > 0 else None
    if compiled is not None:
        reach = np.sqrt(threshold / (cont.alpha * cont.delta_empty)) * (1 + 1e-9)
        mid, half = (s + e) / 2, reach * (e - s) / 2 + 1e-12 * (1 + np.abs(s) + np.abs(e))
        lo, hi = mid - half, mid + half
        gi, gj = compiled[0](lo, hi, np.argsort(lo, kind="stable"), owner)
    else:  # every pair of every two annotators (no positional bound when alpha is 0)
        offsets = np.concatenate([[0], np.cumsum([len(x) for x in cont.starts])])
        parts_i, parts_j = [], []
        for a in range(cont.n_annotators):
            for b in range(a + 1, cont.n_annotators):
                r, c = np.nonzero(dissimilarity_matrix(cont, a, b) < threshold)
                parts_i.append(r + offsets[a])
                parts_j.append(c + offsets[b])
        gi = np.concatenate(parts_i).astype(np.int64)
        gj = np.concatenate(parts_j).astype(np.int64)
    dist = dissimilarity(cont, flat, gi, gj)
    keep = dist < threshold
    return gi[keep], gj[keep], dist[keep]


def _labels(gi: np.ndarray, gj: np.ndarray, total: int) -> np.ndarray:
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    graph = coo_matrix((np.ones(len(gi)), (gi, gj)), shape=(total, total))
    return np.asarray(connected_components(graph, directed=False)[1], dtype=np.int64)


def _csr(gi: np.ndarray, gj: np.ndarray, dist: np.ndarray, total: int
         ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Symmetric neighbour lists sorted by neighbour: ``indptr``, neighbours, ``d``."""
    rows, cols, vals = np.r_[gi, gj], np.r_[gj, gi], np.r_[dist, dist]
    order = np.lexsort((cols, rows))
    indptr = np.zeros(total + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows, minlength=total), out=indptr[1:])
    return indptr, cols[order].astype(np.int64), vals[order].astype(float)


# ------------------------------------------------------------------ two annotators
def _two(gi: np.ndarray, gj: np.ndarray, dist: np.ndarray, labels: np.ndarray, delta: float
         ) -> tuple[list[np.ndarray], list[float]]:
    """Minimum-weight matching of each group; the pairs matched, with their ``d``."""
    from scipy.optimize import linear_sum_assignment

    size = np.bincount(labels)
    costs: list[float] = []
    lone = size[labels[gi]] == 2  # a group of one unit of each annotator: pair them
    groups = [np.stack([gi[lone], gj[lone]], axis=1)]
    costs += dist[lone].tolist()
    rest = np.flatnonzero(~lone)
    if len(rest):
        order = rest[np.argsort(labels[gi[rest]], kind="stable")]
        cuts = np.flatnonzero(np.diff(labels[gi[order]])) + 1
        for part in np.split(order, cuts):
            a, b = gi[part], gj[part]
            rows, ri = np.unique(a, return_inverse=True)
            cols, ci = np.unique(b, return_inverse=True)
            near = np.full((len(rows), len(cols)), np.inf)
            near[ri, ci] = dist[part]
            weight = np.minimum(near - 2 * delta, 0.0)
            r, c = linear_sum_assignment(weight)
            hit = weight[r, c] < 0
            groups.append(np.stack([rows[r[hit]], cols[c[hit]]], axis=1))
            costs += near[r[hit], c[hit]].tolist()
    return [g for block in groups for g in block], costs


# ------------------------------------------------------------------ three or more
def _many(cont: Continuum, gi: np.ndarray, gj: np.ndarray, dist: np.ndarray,
          labels: np.ndarray, cap: int) -> tuple[list[np.ndarray], list[float]]:
    """The candidates of every group, then each group's least-cost partition."""
    total = len(labels)
    n = cont.n_annotators
    owner = cont.flat()[3]
    compiled = kernels()
    if compiled is None:
        members, cost, over = candidates(gi, gj, dist, owner, labels, n, cont.delta_empty, cap)
    else:
        indptr, nbr, dval = _csr(gi, gj, dist, total)
        members, cost, over = compiled[1](indptr, nbr, dval, owner, labels, n,
                                          cont.delta_empty, cap)
    if over >= 0:
        raise ParameterError(
            f"more than {option('max_candidates', cap)} candidate unitary alignments in one "
            f"group of {int(np.sum(labels == over))} units that can be aligned together; "
            f"raise {option('max_candidates')}, or use fewer annotators or shorter continua.",
            params=("max_candidates",))
    if not len(cost):
        return [], []
    # units that share no candidate are independent: split the groups along the candidates
    first = np.repeat(members[:, 0], n - 1)
    other = members[:, 1:].ravel()
    labels = _labels(first[other >= 0], other[other >= 0], total)
    group_of = labels[members[:, 0]]
    order = np.argsort(group_of, kind="stable")
    members, cost, group_of = members[order], cost[order], group_of[order]
    cuts = np.flatnonzero(np.diff(group_of)) + 1
    unit_order = np.argsort(labels, kind="stable")
    unit_cuts = np.searchsorted(labels[unit_order], group_of[np.r_[0, cuts]])
    unit_ends = np.searchsorted(labels[unit_order], group_of[np.r_[0, cuts]], side="right")
    parts = []
    for part, lo, hi in zip(np.split(np.arange(len(cost)), cuts), unit_cuts, unit_ends,
                            strict=True):
        units = np.sort(unit_order[lo:hi])
        sub = members[part]
        ptr = np.concatenate([[0], np.cumsum((sub >= 0).sum(axis=1))]).astype(np.int64)
        local = np.searchsorted(units, sub[sub >= 0]).astype(np.int64)
        parts.append((len(units), ptr, local, cost[part], sub))
    chosen: list[np.ndarray] = []
    costs: list[float] = []
    for (_, _, _, part_cost, sub), picked in zip(
            parts, _partitions(parts, cont.delta_empty, compiled), strict=True):
        chosen += [row[row >= 0] for row in sub[picked]]
        costs += part_cost[picked].tolist()
    return chosen, costs


Part = tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _partitions(parts: list[Part], delta: float, compiled: object) -> list[np.ndarray]:
    """The candidates (row numbers) of each group's least-cost partition (the rest alone).

    Small groups: the compiled depth-first search. The others: the linear relaxation of all
    of them at once (HiGHS's dual simplex, which returns a vertex); where a group's optimal
    vertex is integral it is a best partition, elsewhere that group's integer program is
    solved.
    """
    from scipy.optimize import linprog
    from scipy.sparse import block_diag

    out: list[np.ndarray] = [np.zeros(0, np.int64)] * len(parts)
    pending = []
    for k, (n_units, ptr, local, cost, _) in enumerate(parts):
        if compiled is not None and len(cost) <= SMALL_GROUP:
            picked, _, done = compiled[2](  # type: ignore[index]
                n_units, ptr, local, cost, delta, COVER_NODES)
            if done:
                out[k] = np.asarray(picked, dtype=np.int64)
                continue
        pending.append(k)
    if not pending:
        return out
    programs = [_program(*parts[k][:4], delta) for k in pending]
    mat = block_diag([m for m, _ in programs], format="csc")
    res = linprog(np.concatenate([c for _, c in programs]), A_eq=mat,
                  b_eq=np.ones(mat.shape[0]), bounds=(0, None), method="highs-ds")
    col, row = 0, 0
    for k, (m, c) in zip(pending, programs, strict=True):
        n_cand = len(parts[k][3])
        if res.status == 0 and res.x is not None:
            x = res.x[col:col + m.shape[1]]
            duals = res.eqlin.marginals[row:row + m.shape[0]]
            if np.all(np.minimum(np.abs(x), np.abs(x - 1)) < 1e-9):
                out[k] = np.flatnonzero(x[:n_cand] > 0.5)
            else:
                out[k] = _fixed(m, c, x, duals, n_cand)
        else:
            out[k] = _solve(m, c, None, n_cand)
        col += m.shape[1]
        row += m.shape[0]
    return out


def _fixed(mat: Any, cost: np.ndarray, x: np.ndarray, duals: np.ndarray, n_cand: int
           ) -> np.ndarray:
    """A group whose relaxation is fractional: the integer program over the columns that can
    be in a best partition. With the relaxation's value ``L``, its duals and any partition of
    cost ``U``, a column of reduced cost above ``U - L`` is in none (the reduced costs of a
    best partition's columns are non-negative and sum to its cost minus ``L``). ``U`` comes
    from keeping the columns at 1 and solving what they leave uncovered."""
    lower = float(cost @ x)
    reduced = cost - mat.T @ duals
    ones = np.flatnonzero(x > 1 - 1e-9)
    covered = np.asarray(mat[:, ones].sum(axis=1)).ravel() > 0
    inside = np.flatnonzero(np.asarray(mat[covered].sum(axis=0)).ravel() == 0)
    rest = _solve(mat[~covered][:, inside], cost[inside], None, len(inside))
    upper = float(cost[ones].sum() + cost[inside[rest]].sum())
    gap = upper - lower
    keep = np.flatnonzero(reduced <= gap + 1e-9 * (1 + abs(upper)))
    chosen = keep[_solve(mat[:, keep], cost[keep], None, len(keep))]
    return chosen[chosen < n_cand]


def _program(n_units: int, ptr: np.ndarray, local: np.ndarray, cost: np.ndarray, delta: float
             ) -> tuple[Any, np.ndarray]:
    """The covering constraints (units x candidates, then singletons) and the costs."""
    from scipy.sparse import csc_matrix, hstack, identity

    n_cand = len(cost)
    cols = np.repeat(np.arange(n_cand), np.diff(ptr))
    mat = hstack([csc_matrix((np.ones(len(local)), (local, cols)), shape=(n_units, n_cand)),
                  identity(n_units, format="csc")], format="csc")
    return mat, np.concatenate([cost, np.full(n_units, delta)])


def _solve(mat: Any, cost: np.ndarray, _: object, n_cand: int) -> np.ndarray:
    """The integer program: each unit covered once, least cost; the columns at 1 below
    ``n_cand``."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    if mat.shape[0] == 0:
        return np.zeros(0, np.int64)
    res = milp(cost, integrality=np.ones(len(cost), dtype=np.int64), bounds=Bounds(0, 1),
               constraints=LinearConstraint(mat, 1, 1), options={"mip_rel_gap": 0.0})
    if res.status != 0 or res.x is None:
        raise RuntimeError(f"the integer program of the best alignment failed: {res.message}")
    picked = np.flatnonzero(res.x > 0.5)
    return picked[picked < n_cand]


# ------------------------------------------------------------------ the result
def _assemble(cont: Continuum, flat: tuple[np.ndarray, ...], groups: list[np.ndarray],
              costs: list[float]) -> Alignment:
    """Unitary alignments as tuples of local indices (None: empty), sorted by their first
    unit; the units in no group alone, at ``Δ``."""
    s, _, _, owner = flat
    n = cont.n_annotators
    total = len(owner)
    offsets = np.concatenate([[0], np.cumsum([len(x) for x in cont.starts])])
    table = np.full((len(groups), n), -1, dtype=np.int64)
    used = np.zeros(total, dtype=bool)
    for row, members in enumerate(groups):
        table[row, owner[members]] = members - offsets[owner[members]]
        used[members] = True
    alone = np.flatnonzero(~used)
    single = np.full((len(alone), n), -1, dtype=np.int64)
    single[np.arange(len(alone)), owner[alone]] = alone - offsets[owner[alone]]
    table = np.vstack([table, single])
    disorders = np.concatenate([np.asarray(costs, dtype=float),
                                np.full(len(alone), cont.delta_empty)])
    first_start = np.full(len(table), np.inf)
    first_owner = np.full(len(table), n)
    for a in range(n):
        has = table[:, a] >= 0
        start = np.full(len(table), np.inf)
        start[has] = s[offsets[a] + table[has, a]]
        better = start < first_start
        first_owner[better] = a
        first_start[better] = start[better]
    order = np.lexsort((first_owner, first_start))
    unitary = tuple(tuple(None if x < 0 else int(x) for x in row) for row in table[order].tolist())
    disorders = disorders[order]
    return Alignment(unitary, tuple(disorders.tolist()), float(disorders.sum() / (total / n)))
