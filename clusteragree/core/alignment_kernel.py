"""Compiled loops of gamma's best alignment: near pairs, candidate unitary alignments, and an
exact set-partition search for small independent groups.

Three kernels, each exact (they only skip what the definitions rule out):

* :func:`near_pairs`: the pairs of units of different annotators whose *extended intervals*
  overlap. With ``d >= alpha d_pos`` and ``d_pos = ((|s_u - s_v| + |e_u - e_v|) / (l_u +
  l_v))^2 Δ``, a pair with ``d < T`` has ``|s_u - s_v| + |e_u - e_v| < r (l_u + l_v)``,
  ``r = sqrt(T / (alpha Δ))``, and since ``|s_u - s_v| + |e_u - e_v| >= 2 |m_u - m_v|`` (``m``
  the midpoint), ``|m_u - m_v| < r l_u / 2 + r l_v / 2``: the intervals
  ``[m - r l / 2, m + r l / 2]`` overlap. A sweep over their left ends keeps the open ones;
  the caller then keeps the pairs with ``d < T``.
* :func:`enumerate_candidates`: every unitary alignment of two or more units, one per
  annotator, that no split can improve by the conditions of :mod:`clusteragree.core.alignment`
  (depth first over the annotators, from each unit as the member of lowest annotator index).
* :func:`cover`: the least-cost partition of a group's units into its candidates and
  singletons, by depth-first search with the lower bound "each uncovered unit pays at least its
  cheapest share ``cost(a) / |a|`` of a candidate still open" and a node limit (beyond it the
  caller's integer program takes over).

References
----------
Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). The unified and holistic method gamma (γ)
for inter-annotator agreement measure and alignment. Computational Linguistics 41(3), 437-479.

docs/gamma.md, "The best alignment is exact" and "Speed".
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .jit import Compiled

__all__ = ["kernels"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: Members up to this size have every bipartition's cut checked; larger ones a bound.
EXACT_CUTS = 8


def kernels() -> Any:
    """The compiled kernels ``(near_pairs, enumerate_candidates, cover)``, or None where numba
    cannot serve (a :class:`~clusteragree.errors.PerformanceWarning` says so once).

    Examples
    --------
    >>> k = kernels()
    >>> k is None or len(k) == 3
    True
    """
    return KERNELS.get()


def _near_pairs(lo, hi, order, ann):  # pragma: no cover - compiled
    """Pairs ``(i, j)``, ``i < j``, of different annotators whose ``[lo, hi]`` overlap."""
    n = len(order)
    active = np.empty(n, np.int64)
    n_active = 0
    cap = 8 * n + 16
    pi = np.empty(cap, np.int64)
    pj = np.empty(cap, np.int64)
    k = 0
    for t in range(n):
        u = order[t]
        kept = 0
        for q in range(n_active):
            v = active[q]
            if hi[v] >= lo[u]:
                active[kept] = v
                kept += 1
        n_active = kept
        for q in range(n_active):
            v = active[q]
            if ann[v] != ann[u]:
                if k == cap:
                    cap *= 2
                    grown_i = np.empty(cap, np.int64)
                    grown_j = np.empty(cap, np.int64)
                    grown_i[:k] = pi[:k]
                    grown_j[:k] = pj[:k]
                    pi, pj = grown_i, grown_j
                pi[k] = min(u, v)
                pj[k] = max(u, v)
                k += 1
        active[n_active] = u
        n_active += 1
    return pi[:k].copy(), pj[:k].copy()


def _lookup(indptr, nbr, dval, x, y):  # pragma: no cover - compiled
    """``d(x, y)`` from the sorted neighbour lists, inf when the pair is not near."""
    lo = indptr[x]
    hi = indptr[x + 1]
    end = hi
    while lo < hi:
        mid = (lo + hi) // 2
        if nbr[mid] < y:
            lo = mid + 1
        else:
            hi = mid
    if lo < end and nbr[lo] == y:
        return dval[lo]
    return np.inf


def _cut_ok(mat, k, lam, delta):  # pragma: no cover - compiled
    """False when some bipartition of the ``k`` members has ``sum over crossing pairs of
    (d - Δ) >= λ`` (splitting there does not increase the disorder)."""
    total = 0.0
    for x in range(k):
        for y in range(x + 1, k):
            total += mat[x, y] - delta
    if k > EXACT_CUTS:
        # a random balanced bipartition cuts each pair with this chance: some cut reaches it
        share = (k // 2) * ((k + 1) // 2) / (k * (k - 1) / 2)
        return not (total > 0 and share * total >= lam)
    side = np.zeros(k, np.bool_)
    cut = 0.0
    for step in range(1, 1 << (k - 1)):
        # Gray code over the members 1..k-1 (member 0 stays on side 0)
        flip = 1
        while not (step >> (flip - 1)) & 1:
            flip += 1
        same = 0.0
        other = 0.0
        for y in range(k):
            if y != flip:
                if side[y] == side[flip]:
                    same += mat[flip, y] - delta
                else:
                    other += mat[flip, y] - delta
        cut += same - other
        side[flip] = not side[flip]
        if cut >= lam:
            return False
    return True


def _best_two(indptr, nbr, dval, ann, n):  # pragma: no cover - compiled
    """For each unit and annotator: the nearest unit's ``d``, which unit, and the next ``d``."""
    total = len(ann)
    first = np.full((total, n), np.inf)
    which = np.full((total, n), -1, np.int64)
    second = np.full((total, n), np.inf)
    for u in range(total):
        for q in range(indptr[u], indptr[u + 1]):
            j = ann[nbr[q]]
            if dval[q] < first[u, j]:
                second[u, j] = first[u, j]
                first[u, j] = dval[q]
                which[u, j] = nbr[q]
            elif dval[q] < second[u, j]:
                second[u, j] = dval[q]
    return first, which, second


def _merge_ok(root, cand, members, kk, indptr, nbr, dval, ann, n, delta, threshold, first,
              which, second, has):  # pragma: no cover - compiled
    """False when a unit ``z`` of an annotator absent from the members would lower the
    disorder of any alignment holding them by joining them: ``Σ_x (d(x, z) - Δ) <
    min(λ, μ_z)``, ``μ_z`` the least that leaving its own unitary alignment can cost (alone:
    λ; else the sum over its other members of ``d - Δ``, at least the negative parts of its
    nearest unit per annotator among the units not in the candidate, or the least positive)."""
    lam = delta * (n * (n - 1) // 2)
    for x in range(n):
        has[x] = -1
    has[ann[root]] = root
    for x in range(1, kk):
        has[ann[cand[members[x]]]] = cand[members[x]]
    for q in range(indptr[root], indptr[root + 1]):
        z = nbr[q]
        if has[ann[z]] >= 0:
            continue
        gain = dval[q] - delta
        near = True
        for x in range(1, kk):
            dz = _lookup(indptr, nbr, dval, cand[members[x]], z)
            if dz == np.inf:
                near = False
                break
            gain += dz - delta
        if not near or gain >= lam:
            continue
        negative = 0.0
        least = threshold - delta  # units that are not near are at least this far
        for j in range(n):
            if j == ann[z]:
                continue
            best = first[z, j] if which[z, j] != has[j] or has[j] < 0 else second[z, j]
            best = min(best, threshold) - delta
            if best < 0:
                negative += best
            elif best < least:
                least = best
        mu = negative if negative < 0 else least
        if gain < min(lam, mu):
            return False
    return True


def _enumerate(indptr, nbr, dval, ann, label, n, delta, cap):  # pragma: no cover - compiled
    """Candidates: members (rows padded with -1), their disorders, and the label of a group
    with more than ``cap`` candidates (-1 when none)."""
    big = n * (n - 1) // 2
    lam = delta * big
    threshold = delta * (big + n - 1)
    first, which, second = _best_two(indptr, nbr, dval, ann, n)
    has = np.empty(n, np.int64)
    size = 1024
    members_out = np.full((size, n), -1, np.int64)
    cost_out = np.empty(size)
    found = 0
    per_group = np.zeros(label.max() + 2 if len(label) else 1, np.int64)
    members = np.empty(n, np.int64)  # local indices into cand (-1: the root)
    sums = np.zeros(n)
    pos = np.zeros(n + 1, np.int64)
    mat = np.zeros((n, n))
    for root in range(len(ann)):
        lo_r, hi_r = indptr[root], indptr[root + 1]
        m = 0
        for q in range(lo_r, hi_r):
            if ann[nbr[q]] > ann[root]:
                m += 1
        if m == 0:
            continue
        cand = np.empty(m, np.int64)
        droot = np.empty(m)
        t = 0
        for q in range(lo_r, hi_r):
            if ann[nbr[q]] > ann[root]:
                cand[t] = nbr[q]
                droot[t] = dval[q]
                t += 1
        # start[p]: first candidate of a later annotator; after[p]: annotators after it
        start = np.empty(m + 1, np.int64)
        after = np.empty(m + 1, np.int64)
        start[m] = m
        after[m] = 0
        for p in range(m - 1, -1, -1):
            if p + 1 < m and ann[cand[p + 1]] != ann[cand[p]]:
                start[p] = p + 1
                after[p] = after[p + 1] + 1
            elif p + 1 < m:
                start[p] = start[p + 1]
                after[p] = after[p + 1]
            else:
                start[p] = m
                after[p] = 0
        rows = np.full((n, m), np.inf)
        rows[0, :] = droot
        members[0] = -1
        sums[0] = 0.0
        k = 1
        pos[1] = 0
        total = 0.0
        g = label[root]
        while k > 0:
            p = pos[k]
            if p >= m or k >= n:
                k -= 1
                if k >= 1:  # undo the member at depth k
                    v = members[k]
                    for x in range(k):
                        sums[x] -= rows[x, v]
                        total -= rows[x, v]
                continue
            pos[k] = p + 1
            # candidate p joins members 0..k-1?
            near = True
            s_new = 0.0
            for x in range(k):
                if rows[x, p] == np.inf:
                    near = False
                    break
                s_new += rows[x, p]
            if not near:
                continue
            remaining = after[p]
            bound = delta * (big + k + 1 + remaining - 1)
            if s_new >= bound:
                continue
            over = False
            for x in range(k):
                if sums[x] + rows[x, p] >= bound:
                    over = True
                    break
            if over:
                continue
            # push
            members[k] = p
            for x in range(k):
                sums[x] += rows[x, p]
            sums[k] = s_new
            total += s_new
            kk = k + 1
            # the new member's row to later candidates
            for q in range(start[p], m):
                rows[k, q] = _lookup(indptr, nbr, dval, cand[p], cand[q])
            ok = True
            limit = delta * (big + kk - 1)
            for x in range(kk):
                if sums[x] >= limit:
                    ok = False
                    break
            pairs_k = kk * (kk - 1) // 2
            if ok and total + (big - pairs_k) * delta >= kk * delta * big:
                ok = False
            if ok:
                for x in range(kk):
                    for y in range(x + 1, kk):
                        mat[x, y] = rows[x, members[y]]
                        mat[y, x] = mat[x, y]
                ok = _cut_ok(mat, kk, lam, delta)
            if ok:
                ok = _merge_ok(root, cand, members, kk, indptr, nbr, dval, ann, n, delta,
                               threshold, first, which, second, has)
            if ok:
                if found == size:
                    size *= 2
                    grown_m = np.full((size, n), -1, np.int64)
                    grown_c = np.empty(size)
                    grown_m[:found] = members_out[:found]
                    grown_c[:found] = cost_out[:found]
                    members_out, cost_out = grown_m, grown_c
                members_out[found, 0] = root
                for x in range(1, kk):
                    members_out[found, x] = cand[members[x]]
                cost_out[found] = (total + (big - pairs_k) * delta) / big
                found += 1
                per_group[g] += 1
                if per_group[g] > cap:
                    return members_out[:found].copy(), cost_out[:found].copy(), g
            k = kk
            pos[k] = start[p]
    return members_out[:found].copy(), cost_out[:found].copy(), -1


def _cover(n_units, cand_ptr, cand_local, cand_cost, delta, node_limit):  # pragma: no cover
    """Least-cost exact cover of the units ``0..n_units-1`` by the candidates (their members in
    ``cand_local`` between ``cand_ptr``) and singletons of cost ``delta``.

    Depth first; at each node the lower bound is the sum, over the uncovered units, of their
    cheapest share ``cost / size`` among the candidates still open (all members uncovered), and
    the unit branched on is the uncovered one with the fewest open candidates. Returns the
    chosen candidates, the total, and False when the node limit was hit.
    """
    n_cand = len(cand_cost)
    count = np.zeros(n_units + 1, np.int64)
    for c in range(n_cand):
        for q in range(cand_ptr[c], cand_ptr[c + 1]):
            count[cand_local[q] + 1] += 1
    ptr = np.cumsum(count)
    fill = ptr[:-1].copy()
    holds = np.empty(ptr[-1], np.int64)
    unit_share = np.empty(n_cand)
    for c in range(n_cand):
        unit_share[c] = cand_cost[c] / (cand_ptr[c + 1] - cand_ptr[c])
        for q in range(cand_ptr[c], cand_ptr[c + 1]):
            i = cand_local[q]
            holds[fill[i]] = c
            fill[i] += 1
    for i in range(n_units):
        seg = holds[ptr[i]:ptr[i + 1]].copy()
        holds[ptr[i]:ptr[i + 1]] = seg[np.argsort(unit_share[seg])]
    covered = np.zeros(n_units, np.bool_)
    is_open = np.ones(n_cand, np.bool_)
    share = np.empty(n_units)
    n_open = np.empty(n_units, np.int64)
    best = np.inf
    best_pick = np.empty(n_units + 1, np.int64)
    best_n = 0
    pick = np.empty(n_units + 1, np.int64)  # a candidate, or -1 - unit for a singleton
    branch = np.zeros(n_units + 1, np.int64)
    option = np.zeros(n_units + 1, np.int64)
    bound = np.zeros(n_units + 1)
    cost = np.zeros(n_units + 2)
    nodes = 0
    depth = 0
    entering = True
    while depth >= 0:
        if entering:
            entering = False
            # open candidates, shares and the unit to branch on
            for i in range(n_units):
                share[i] = delta
                n_open[i] = 0
            for c in range(n_cand):
                ok = True
                for q in range(cand_ptr[c], cand_ptr[c + 1]):
                    if covered[cand_local[q]]:
                        ok = False
                        break
                is_open[c] = ok
                if ok:
                    for q in range(cand_ptr[c], cand_ptr[c + 1]):
                        i = cand_local[q]
                        n_open[i] += 1
                        if unit_share[c] < share[i]:
                            share[i] = unit_share[c]
            lower = 0.0
            b = -1
            for i in range(n_units):
                if not covered[i]:
                    lower += share[i]
                    if b < 0 or n_open[i] < n_open[b]:
                        b = i
            if b < 0:  # everything covered
                if cost[depth] < best:
                    best = cost[depth]
                    best_n = depth
                    best_pick[:depth] = pick[:depth]
                depth -= 1
                if depth >= 0:
                    _mark(pick[depth], covered, cand_ptr, cand_local, False)
                continue
            branch[depth] = b
            option[depth] = 0
            bound[depth] = lower * (1.0 - 1e-12)
        # the next option at this depth
        b = branch[depth]
        o = option[depth]
        n_opt = ptr[b + 1] - ptr[b] + 1
        if o >= n_opt or cost[depth] + bound[depth] >= best:
            depth -= 1
            if depth >= 0:
                _mark(pick[depth], covered, cand_ptr, cand_local, False)
            continue
        option[depth] = o + 1
        if o < n_opt - 1:
            chosen = holds[ptr[b] + o]
            free = True
            for q in range(cand_ptr[chosen], cand_ptr[chosen + 1]):
                if covered[cand_local[q]]:
                    free = False
                    break
            if not free:
                continue
            step = cand_cost[chosen]
        else:
            chosen = -1 - b
            step = delta
        nodes += 1
        if nodes > node_limit:
            return best_pick[:0].copy(), np.inf, False
        pick[depth] = chosen
        _mark(chosen, covered, cand_ptr, cand_local, True)
        cost[depth + 1] = cost[depth] + step
        depth += 1
        entering = True
    out = np.empty(best_n, np.int64)
    m = 0
    for q in range(best_n):
        if best_pick[q] >= 0:
            out[m] = best_pick[q]
            m += 1
    return out[:m].copy(), best, True


def _mark(chosen, covered, cand_ptr, cand_local, value):  # pragma: no cover - compiled
    """Cover (or uncover) the units of a pick."""
    if chosen < 0:
        covered[-1 - chosen] = value
        return
    for q in range(cand_ptr[chosen], cand_ptr[chosen + 1]):
        covered[cand_local[q]] = value


def _build() -> tuple[Any, Any, Any]:
    import numba

    jit = numba.njit(cache=True, nogil=True)
    # the helpers first: the kernels find them as module globals when they compile
    global _lookup, _cut_ok, _mark, _best_two, _merge_ok
    _lookup, _cut_ok, _mark = jit(_lookup), jit(_cut_ok), jit(_mark)
    _best_two, _merge_ok = jit(_best_two), jit(_merge_ok)
    near = jit(_near_pairs)
    enum = jit(_enumerate)
    cover = jit(_cover)
    # compile now (or load from the cache), so that a failure is seen here
    z = np.zeros(2, np.int64)
    near(np.zeros(2), np.ones(2), np.arange(2), np.array([0, 1]))
    enum(np.array([0, 1, 2]), np.array([1, 0]), np.array([0.5, 0.5]), np.array([0, 1]), z, 2,
         1.0, 10)
    cover(2, np.array([0, 2]), np.array([0, 1]), np.array([0.5]), 1.0, 100)
    return near, enum, cover


KERNELS = Compiled(
    _build,
    missing="numba is not installed: gamma's best alignment runs its pure Python route, "
            "much slower on large continua (pip install numba)",
    failed="gamma's compiled best-alignment kernels could not be built; the pure Python "
           "route serves")
