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
and ``c`` changes ``C(n, 2)`` times the total by ``Δ (C(n, 2) + k_b k_c) - S(b, c)``, ``S(b, c)``
the sum over the pairs across the parts. Hence:

1. *Candidates.* Whenever some unit ``x`` of ``a`` has ``S(x, a - x) >= Δ (C(n, 2) + k - 1)``,
   or ``δ(a) >= k Δ`` (every unit alone costs ``Δ``), splitting does not increase the disorder.
   Splitting while one of these holds ends (the number of unitary alignments grows), so some
   best alignment uses only candidates where neither holds. In such a candidate every pair has
   ``d < T = Δ (C(n, 2) + n - 1)``.
2. *Independent groups.* Units joined by no chain of pairs with ``d < T`` share no candidate,
   so the best alignment is the union of the best alignments of the connected components of
   the graph "``d < T``", solved one by one.
3. *Two annotators* (``T = 2Δ``): a pair costs ``d``, a unit alone ``Δ``, so the disorder times
   the average count is ``(p + q) Δ + Σ_{pairs} (d - 2Δ)``: the best alignment is a minimum-
   weight matching with weights ``min(d - 2Δ, 0)``, which the assignment solver finds exactly
   on the (rectangular) component matrix (a matched pair of weight 0 counts as two units alone).
4. *Three or more*: an integer program over the candidates of a component (each unit covered
   exactly once), solved by HiGHS with a relative gap of 0; the enumeration of candidates is
   capped and refused beyond the cap.

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

import numpy as np

from ..errors import ParameterError, option

__all__ = ["Alignment", "Continuum", "best_alignment", "dissimilarity_matrix", "prepare"]

#: Default cap on the candidate unitary alignments enumerated in one independent group.
MAX_CANDIDATES = 200_000


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


def dissimilarity_matrix(cont: Continuum, i: int, j: int) -> np.ndarray:
    """``d(u, v)`` for every unit ``u`` of annotator ``i`` and ``v`` of annotator ``j``."""
    si, ei, sj, ej = cont.starts[i], cont.ends[i], cont.starts[j], cont.ends[j]
    num = np.abs(si[:, None] - sj[None, :]) + np.abs(ei[:, None] - ej[None, :])
    den = (ei - si)[:, None] + (ej - sj)[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        pos = (num / den) ** 2
    # two zero-length units: 0 at the same point, never aligned elsewhere (the formula's limit)
    pos[den == 0] = np.where(num[den == 0] == 0, 0.0, np.inf)
    cat = cont.category_matrix[cont.codes[i][:, None], cont.codes[j][None, :]]
    return cont.delta_empty * (cont.alpha * pos + cont.beta * cat)


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
    pairs_n = comb(n, 2)
    delta = cont.delta_empty
    threshold = delta * (pairs_n + n - 1)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    mats = {(i, j): dissimilarity_matrix(cont, i, j) for i in range(n) for j in range(i + 1, n)}
    labels = _components(mats, sizes, offsets, threshold)
    unitary: list[tuple[int | None, ...]] = []
    disorders: list[float] = []
    owner = np.repeat(np.arange(n), sizes)
    local = np.arange(total) - offsets[owner]
    for group in _groups(labels):
        members: list[list[int]] = [[] for _ in range(n)]
        for g in group:
            members[owner[g]].append(int(local[g]))
        if len(group) == 1:
            chosen = [(_tuple(n, {int(owner[group[0]]): int(local[group[0]])}), delta)]
        elif n == 2:
            chosen = _two(mats[0, 1], members, delta)
        else:
            chosen = _many(mats, members, delta, pairs_n, max_candidates)
        for tup, dis in chosen:
            unitary.append(tup)
            disorders.append(dis)
    order = sorted(range(len(unitary)), key=lambda k: _first(cont, unitary[k]))
    unitary = [unitary[k] for k in order]
    disorders = [disorders[k] for k in order]
    return Alignment(tuple(unitary), tuple(disorders), float(sum(disorders) / (total / n)))


def _first(cont: Continuum, tup: tuple[int | None, ...]) -> tuple[float, int]:
    return min((float(cont.starts[a][u]), a) for a, u in enumerate(tup) if u is not None)


def _tuple(n: int, picks: dict[int, int]) -> tuple[int | None, ...]:
    return tuple(picks.get(a) for a in range(n))


def _components(mats: dict[tuple[int, int], np.ndarray], sizes: list[int], offsets: np.ndarray,
                threshold: float) -> np.ndarray:
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    rows, cols = [], []
    for (i, j), mat in mats.items():
        r, c = np.nonzero(mat < threshold)
        rows.append(r + offsets[i])
        cols.append(c + offsets[j])
    total = int(sum(sizes))
    r = np.concatenate(rows) if rows else np.zeros(0, dtype=int)
    c = np.concatenate(cols) if cols else np.zeros(0, dtype=int)
    graph = coo_matrix((np.ones(len(r)), (r, c)), shape=(total, total))
    _, labels = connected_components(graph, directed=False)
    return np.asarray(labels)


def _groups(labels: np.ndarray) -> list[list[int]]:
    order = np.argsort(labels, kind="stable")
    cuts = np.nonzero(np.diff(labels[order]))[0] + 1
    return [list(map(int, part)) for part in np.split(order, cuts)]


def _two(mat: np.ndarray, members: list[list[int]], delta: float
         ) -> list[tuple[tuple[int | None, ...], float]]:
    from scipy.optimize import linear_sum_assignment

    rows, cols = members
    sub = mat[np.ix_(rows, cols)]
    out: list[tuple[tuple[int | None, ...], float]] = []
    used_r: set[int] = set()
    used_c: set[int] = set()
    if len(rows) and len(cols):
        r, c = linear_sum_assignment(np.minimum(sub - 2 * delta, 0.0))
        for a, b in zip(r, c, strict=True):
            if sub[a, b] < 2 * delta:
                out.append(((rows[a], cols[b]), float(sub[a, b])))
                used_r.add(int(a))
                used_c.add(int(b))
    out += [((rows[a], None), delta) for a in range(len(rows)) if a not in used_r]
    out += [((None, cols[b]), delta) for b in range(len(cols)) if b not in used_c]
    return out


def _many(mats: dict[tuple[int, int], np.ndarray], members: list[list[int]], delta: float,
          pairs_n: int, cap: int) -> list[tuple[tuple[int | None, ...], float]]:
    n = len(members)
    cands: list[tuple[dict[int, int], float]] = []
    for a in range(n):
        cands += [({a: u}, delta) for u in members[a]]
    singles = len(cands)

    def d(a: int, u: int, b: int, v: int) -> float:
        return float(mats[a, b][u, v] if a < b else mats[b, a][v, u])

    def walk(nxt: int, picks: dict[int, int], sums: dict[int, float], total: float) -> None:
        k = len(picks)
        if nxt == n:
            if k >= 2 and all(s < delta * (pairs_n + k - 1) for s in sums.values()):
                dis = (total + (pairs_n - comb(k, 2)) * delta) / pairs_n
                if dis < k * delta:
                    if len(cands) - singles >= cap:
                        raise ParameterError(
                            f"more than {option('max_candidates', cap)} candidate unitary "
                            f"alignments in one group of {sum(map(len, members))} units that "
                            "can be aligned together; raise max_candidates, or use fewer "
                            "annotators or shorter continua.", params=("max_candidates",))
                    cands.append((dict(picks), dis))
            return
        walk(nxt + 1, picks, sums, total)
        bound = delta * (pairs_n + k + (n - nxt) - 1)
        for v in members[nxt]:
            ds = {a: d(a, u, nxt, v) for a, u in picks.items()}
            if any(sums[a] + ds[a] >= bound for a in picks):
                continue
            own = sum(ds.values())
            if own >= bound:
                continue
            new_sums = {a: sums[a] + ds[a] for a in picks}
            new_sums[nxt] = own
            picks[nxt] = v
            walk(nxt + 1, picks, new_sums, total + own)
            del picks[nxt]

    walk(0, {}, {}, 0.0)
    if len(cands) == singles:
        return [(_tuple(n, p), c) for p, c in cands]
    return _solve(cands, members, n)


def _solve(cands: list[tuple[dict[int, int], float]], members: list[list[int]], n: int
           ) -> list[tuple[tuple[int | None, ...], float]]:
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import csc_matrix

    row_of: dict[tuple[int, int], int] = {}
    for a in range(n):
        for u in members[a]:
            row_of[a, u] = len(row_of)
    rows, cols = [], []
    for k, (picks, _) in enumerate(cands):
        for a, u in picks.items():
            rows.append(row_of[a, u])
            cols.append(k)
    mat = csc_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(row_of), len(cands)))
    cost = np.array([c for _, c in cands])
    res = milp(cost, integrality=np.ones(len(cands), dtype=np.int64), bounds=Bounds(0, 1),
               constraints=LinearConstraint(mat, 1, 1), options={"mip_rel_gap": 0.0})
    if res.status != 0 or res.x is None:
        raise RuntimeError(f"the integer program of the best alignment failed: {res.message}")
    chosen = np.nonzero(res.x > 0.5)[0]
    return [(_tuple(n, cands[k][0]), cands[k][1]) for k in chosen]
