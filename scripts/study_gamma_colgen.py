"""A study of an exact route to gamma's best alignment for many annotators: column generation
with a certificate of optimality, measured against the library's engine.

The library (:mod:`clusteragree.core.alignment`) enumerates every candidate unitary alignment
of a group and solves the set partitioning over all of them; with ten annotators the
candidates number millions (1.9 million in one group for a sample of 10 x 1,000). This script
tries another exact route, outside the library, on the continua of scripts/_bench_gamma.py
(``reference_continuum``, alpha = 3, beta = 1, Δ = 1) and on their sampled continua:

1. *Pricing.* With multipliers ``π`` (one per unit), the reduced cost of a unitary alignment
   ``a`` is ``rc(a) = δ(a) - Σ_{u in a} π_u``, ``δ(a) = Δ + Σ_{pairs} (d - Δ) / C(n, 2)``. A
   depth-first search over the annotators (as the library's enumeration) lists the candidates
   with ``rc <= G``: a partial set is dropped when ``rc`` plus, for each annotator still to
   come, the least of ``Σ_{x in a} w(x, z) / C(n, 2) - π_z + ½ Σ_j m(z, j)`` over its units
   ``z`` (``w = d - Δ``; ``m(z, j) <= 0`` the least ``w / C(n, 2)`` of ``z`` with a unit of
   annotator ``j``, a lower bound of the pairs among the units still to come) exceeds ``G``.
   The library's split and merge conditions are checked on what is listed, so the family is
   the library's candidates.
2. *Column generation.* The linear relaxation over the columns found so far (HiGHS, warm
   started through SciPy's private ``scipy.optimize._highspy._core``: columns are added and the
   basis kept), priced at ``α π_best + (1 - α) π_LP`` (Wentges' smoothing, ``α = 0.5``) until
   the Lagrangian bound ``L(π) = Σ π + Σ_{rc(a) < 0} rc(a)`` (valid for any ``π``) meets the
   relaxation's value.
3. *Dual feasibility.* ``π`` is lowered on the units of every column of negative reduced cost
   (and capped at ``Δ``, the singletons) until pricing at 0 finds none: every candidate then
   has ``rc >= 0``.
4. *A partition.* The columns with ``rc <= 0.02`` split the units into components; each is
   solved exactly (the library's depth-first cover, else ``scipy.optimize.milp``).
5. *Certificate.* For a partition ``P`` and any partition ``Q`` of candidates, ``cost(Q) -
   cost(P) = Σ_E (rc(Q_E) - rc(P_E))`` over the connected components ``E`` of their
   difference (*exchanges*); if ``Q`` is better some exchange has ``rc(Q_E) < rc(P_E)``, so
   all its columns have ``rc`` below the *defect mass* ``rc(P_E)``. Regions: the columns of
   ``P`` united, then, over the candidates with ``rc < B`` taken by increasing ``rc``, a
   column touching ``k+ >= 1`` regions with positive mass unites the regions it touches when
   one of those has mass above ``rc / k+``, until nothing changes. If then every region has
   mass at most ``B / n`` (a column not listed has ``rc >= B`` and at most ``n`` units),
   charging each crossing column's ``rc`` to the massive regions it touches shows that no
   improving exchange crosses regions; inside a region with mass, the least-cost partition of
   its units by the columns inside it with ``rc`` below its mass, ``P``'s and the singletons is
   computed exactly: equal to ``P``'s cost there, no improving exchange; lower, ``P`` is
   replaced there and the certificate is redone. A partition that passes is a best alignment
   (of the candidates, hence of the continuum). Before certifying, the same local step is
   run at ``B = 0.2`` whatever the regions' masses, until it improves nothing (it only
   improves the partition; the proof is the certificate's pass).

The script prints, per case, the disorder, the seconds of each step and, with
``--reference``, the library's disorder and seconds (its cap on candidates raised). It changes
nothing in the library and writes nothing unless ``--out`` is given (JSON).

Usage: ``python scripts/study_gamma_colgen.py [--cases 10x200:0,10x200:data] [--reference]``
``[--out PATH]``; a case is ``AxU:S``, A annotators, U units of the reference, S the sample
number (``data``: the continuum itself).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from itertools import pairwise
from math import comb
from pathlib import Path
from typing import Any

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench_gamma import DISSIMILARITY, reference_continuum

from clusteragree.core import alignment_kernel as kernel_module
from clusteragree.core.alignment import (
    Continuum,
    _csr,
    _labels,
    _near,
    best_alignment,
    prepare,
)
from clusteragree.core.gamma import sample_continuum

JIT = numba.njit(cache=False)
COMPILED: Any = None
_cut_ok = _merge_ok = _best_two = None  # the library's compiled helpers, bound by _load()


def _load() -> None:
    """Build the library's kernels and bind the helpers the study's kernels call (numba
    reads these globals when it compiles them, at their first call)."""
    global COMPILED, _cut_ok, _merge_ok, _best_two
    COMPILED = kernel_module.kernels()
    if COMPILED is None:
        raise SystemExit("this study needs numba")
    _cut_ok, _merge_ok, _best_two = (kernel_module._cut_ok, kernel_module._merge_ok,
                                     kernel_module._best_two)


@JIT
def _half_minima(indptr, nbr, dval, ann, n, delta, big):  # pragma: no cover - compiled
    """``S[u, t] = ½ Σ_{j >= t} min(0, min_z w(u, z) / big)`` over the units ``z`` of ``j``."""
    total = len(ann)
    low = np.zeros((total, n))
    for u in range(total):
        for q in range(indptr[u], indptr[u + 1]):
            w = (dval[q] - delta) / big
            if w < low[u, ann[nbr[q]]]:
                low[u, ann[nbr[q]]] = w
    out = np.zeros((total, n + 1))
    for u in range(total):
        for j in range(n - 1, -1, -1):
            out[u, j] = out[u, j + 1] + 0.5 * low[u, j]
    return out


@JIT
def _price(indptr, nbr, dval, ann, n, delta, pi, limit, half, first, which, second
           ):  # pragma: no cover - compiled
    """Every candidate (two units or more) with ``rc <= limit``: members (rows padded with
    -1), reduced costs, disorders."""
    big = n * (n - 1) / 2
    lam = delta * big
    threshold = delta * (big + n - 1)
    cap = 1024
    out_m = np.full((cap, n), -1, np.int64)
    out_rc = np.empty(cap)
    out_c = np.empty(cap)
    found = 0
    members = np.empty(n, np.int64)
    has = np.empty(n, np.int64)
    mat = np.zeros((n, n))
    best = np.empty(n)
    for root in range(len(ann)):
        m = 0
        for q in range(indptr[root], indptr[root + 1]):
            if ann[nbr[q]] > ann[root]:
                m += 1
        if m == 0:
            continue
        cand = np.empty(m, np.int64)
        wroot = np.empty(m)
        t = 0
        for q in range(indptr[root], indptr[root + 1]):
            if ann[nbr[q]] > ann[root]:
                cand[t] = nbr[q]
                wroot[t] = dval[q] - delta
                t += 1
        w = np.full((m, m), np.inf)
        for a in range(m):
            q = indptr[cand[a]]
            hi = indptr[cand[a] + 1]
            b = a + 1
            while b < m and q < hi:
                if nbr[q] < cand[b]:
                    q += 1
                elif nbr[q] > cand[b]:
                    b += 1
                else:
                    w[a, b] = dval[q] - delta
                    w[b, a] = w[a, b]
                    q += 1
                    b += 1
        cann = np.empty(m, np.int64)
        for a in range(m):
            cann[a] = ann[cand[a]]
        acc = np.full((n + 1, m), np.inf)  # acc[k, q]: Σ over the k members of w(x, q)
        acc[1, :] = wroot
        rcs = np.zeros(n + 1)
        rcs[1] = delta - pi[root]
        sw = np.zeros(n + 1)
        pos = np.zeros(n + 1, np.int64)
        last = np.zeros(n + 1, np.int64)
        last[1] = ann[root]
        k = 1
        entering = True
        while k > 0:
            if entering:
                entering = False
                top = last[k]
                for j in range(n):
                    best[j] = 0.0
                for q in range(m):
                    if cann[q] > top and acc[k, q] < np.inf:
                        h = acc[k, q] / big - pi[cand[q]] + half[cand[q], top + 1]
                        if h < best[cann[q]]:
                            best[cann[q]] = h
                bound = rcs[k]
                for j in range(top + 1, n):
                    bound += best[j]
                if bound > limit:
                    k -= 1
                    continue
                p0 = 0
                while p0 < m and cann[p0] <= top:
                    p0 += 1
                pos[k] = p0
            p = pos[k]
            if p >= m or k >= n:
                k -= 1
                continue
            pos[k] = p + 1
            if acc[k, p] == np.inf:
                continue
            rc = rcs[k] + acc[k, p] / big - pi[cand[p]]
            members[k] = p
            kk = k + 1
            swk = sw[k] + acc[k, p]
            if rc <= limit:
                ok = True
                cap_sum = delta * (big + kk - 1)
                for x in range(kk):
                    s = 0.0
                    for y in range(kk):
                        if y != x:
                            if x == 0:
                                s += wroot[members[y]] + delta
                            elif y == 0:
                                s += wroot[members[x]] + delta
                            else:
                                s += w[members[x], members[y]] + delta
                    if s >= cap_sum:
                        ok = False
                        break
                cost = delta + swk / big
                if ok and cost >= kk * delta:
                    ok = False
                if ok:
                    for x in range(kk):
                        for y in range(x + 1, kk):
                            if x == 0:
                                mat[x, y] = wroot[members[y]] + delta
                            else:
                                mat[x, y] = w[members[x], members[y]] + delta
                            mat[y, x] = mat[x, y]
                    ok = _cut_ok(mat, kk, lam, delta)
                if ok:
                    ok = _merge_ok(root, cand, members, kk, indptr, nbr, dval, ann, n, delta,
                                   threshold, first, which, second, has)
                if ok:
                    if found == cap:
                        cap *= 2
                        grown_m = np.full((cap, n), -1, np.int64)
                        grown_r = np.empty(cap)
                        grown_c = np.empty(cap)
                        grown_m[:found] = out_m[:found]
                        grown_r[:found] = out_rc[:found]
                        grown_c[:found] = out_c[:found]
                        out_m, out_rc, out_c = grown_m, grown_r, grown_c
                    out_m[found, 0] = root
                    for x in range(1, kk):
                        out_m[found, x] = cand[members[x]]
                    out_rc[found] = rc
                    out_c[found] = cost
                    found += 1
            for q in range(m):
                if cann[q] > cann[p] and acc[k, q] < np.inf and w[p, q] < np.inf:
                    acc[kk, q] = acc[k, q] + w[p, q]
                else:
                    acc[kk, q] = np.inf
            rcs[kk] = rc
            sw[kk] = swk
            last[kk] = cann[p]
            k = kk
            entering = True
    return out_m[:found].copy(), out_rc[:found].copy(), out_c[:found].copy()


@JIT
def _find(parent, x):  # pragma: no cover - compiled
    r = x
    while parent[r] != r:
        r = parent[r]
    while parent[x] != r:
        nxt = parent[x]
        parent[x] = r
        x = nxt
    return r


@JIT
def _grow(total, pptr, punits, prc, cols, rcs, n):  # pragma: no cover - compiled
    """Regions of the certificate: labels (a root unit per region) and the mass of each root."""
    parent = np.arange(total)
    for c in range(len(prc)):
        for q in range(pptr[c] + 1, pptr[c + 1]):
            ra = _find(parent, punits[pptr[c]])
            rb = _find(parent, punits[q])
            if ra != rb:
                parent[rb] = ra
    mass = np.zeros(total)
    for c in range(len(prc)):
        mass[_find(parent, punits[pptr[c]])] += max(prc[c], 0.0)
    order = np.argsort(rcs)
    roots = np.empty(n, np.int64)
    changed = True
    while changed:
        changed = False
        for i in order:
            k = 0
            for x in range(n):
                if cols[i, x] < 0:
                    break
                r = _find(parent, cols[i, x])
                seen = False
                for y in range(k):
                    if roots[y] == r:
                        seen = True
                        break
                if not seen:
                    roots[k] = r
                    k += 1
            if k < 2:
                continue
            massive = 0
            for y in range(k):
                if mass[roots[y]] > 0:
                    massive += 1
            unite = False
            for y in range(k):
                if massive > 0 and mass[roots[y]] > rcs[i] / massive:
                    unite = True
            if unite:
                total_mass = 0.0
                for y in range(k):
                    total_mass += mass[roots[y]]
                    if y > 0:
                        parent[roots[y]] = roots[0]
                mass[roots[0]] = total_mass
                changed = True
    labels = np.empty(total, np.int64)
    for u in range(total):
        labels[u] = _find(parent, u)
    return labels, mass


class Master:
    """The restricted linear relaxation, warm started (SciPy's private HiGHS binding)."""

    def __init__(self, total: int, delta: float) -> None:
        from scipy.optimize._highspy import _core as highs

        self.highs = highs._Highs()
        self.highs.setOptionValue("output_flag", False)
        self.highs.setOptionValue("presolve", "off")
        lp = highs.HighsLp()
        lp.num_col_ = lp.num_row_ = total
        lp.col_cost_ = np.full(total, delta)
        lp.col_lower_ = np.zeros(total)
        lp.col_upper_ = np.full(total, np.inf)
        lp.row_lower_ = lp.row_upper_ = np.ones(total)
        lp.a_matrix_.format_ = highs.MatrixFormat.kColwise
        lp.a_matrix_.num_col_ = lp.a_matrix_.num_row_ = total
        lp.a_matrix_.start_ = np.arange(total + 1, dtype=np.int32)
        lp.a_matrix_.index_ = np.arange(total, dtype=np.int32)
        lp.a_matrix_.value_ = np.ones(total)
        self.highs.passModel(lp)

    def add(self, members: np.ndarray, cost: np.ndarray) -> None:
        count = (members >= 0).sum(1)
        starts = np.r_[0, np.cumsum(count)[:-1]].astype(np.int32)
        index = members[members >= 0].astype(np.int32)
        self.highs.addCols(len(cost), cost, np.zeros(len(cost)), np.full(len(cost), np.inf),
                           len(index), starts, index, np.ones(len(index)))

    def solve(self) -> tuple[float, np.ndarray]:
        self.highs.run()
        return (self.highs.getInfo().objective_function_value,
                np.array(self.highs.getSolution().row_dual))


def _least_partition(units: np.ndarray, cols: np.ndarray, costs: np.ndarray, delta: float
                     ) -> tuple[np.ndarray, float]:
    """The least-cost partition of ``units`` (sorted) by ``cols`` and singletons: the rows of
    ``cols`` chosen, and the cost."""
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import csc_matrix

    if not len(cols):
        return np.zeros(0, np.int64), len(units) * delta
    count = (cols >= 0).sum(1)
    ptr = np.r_[0, np.cumsum(count)].astype(np.int64)
    local = np.searchsorted(units, cols[cols >= 0]).astype(np.int64)
    picked, value, done = COMPILED[2](len(units), ptr, local, costs.astype(float), delta, 20000)
    if done:
        return np.asarray(picked), float(value)
    nu, nc = len(units), len(cols)
    mat = csc_matrix((np.ones(len(local) + nu),
                      (np.r_[local, np.arange(nu)], np.r_[np.repeat(np.arange(nc), count),
                                                           nc + np.arange(nu)])),
                     shape=(nu, nc + nu))
    every = np.r_[costs, np.full(nu, delta)]
    res = milp(every, integrality=np.ones(len(every)), bounds=Bounds(0, 1),
               constraints=LinearConstraint(mat, 1, 1), options={"mip_rel_gap": 0.0})
    if res.x is None:
        raise RuntimeError(res.message)
    return np.flatnonzero(res.x[:nc] > 0.5), float(res.fun)


def _groups(keys: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(keys, kind="stable")
    return order, np.searchsorted(keys[order], np.arange(count + 1))


def solve(cont: Continuum) -> dict[str, Any]:
    """The best alignment's disorder by the route of the module's docstring, with timings."""
    clock = {"start": time.perf_counter()}
    n, delta = cont.n_annotators, cont.delta_empty
    flat = cont.flat()
    total = len(flat[0])
    ann = flat[3]
    gi, gj, dist = _near(cont, flat, delta * (comb(n, 2) + n - 1))
    indptr, nbr, dval = _csr(gi, gj, dist, total)
    half = _half_minima(indptr, nbr, dval, ann, n, delta, comb(n, 2))
    first, which, second = _best_two(indptr, nbr, dval, ann, n)

    def price(pi: np.ndarray, limit: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return _price(indptr, nbr, dval, ann, n, delta, pi, limit, half, first, which,
                      second)

    # 2. column generation
    master = Master(total, delta)
    seen: set[tuple[int, ...]] = set()
    alpha, best_bound, relaxation = 0.5, -np.inf, np.inf
    pi_lp = np.full(total, 0.3 * delta)
    pi_best = pi_lp
    rounds = 0
    while True:
        rounds += 1
        pi = pi_lp if rounds == 1 else alpha * pi_best + (1 - alpha) * pi_lp
        members, rc, cost = price(pi, 0.0)
        bound = pi.sum() + rc[rc < 0].sum() + np.minimum(0, delta - pi).sum()
        if bound > best_bound:
            best_bound, pi_best = bound, pi
        if relaxation - best_bound < 1e-6 * max(1.0, abs(relaxation)):
            break
        new = []
        for r in np.argsort(rc):
            key = tuple(members[r])
            if key not in seen:
                seen.add(key)
                new.append(r)
                if len(new) >= 5 * total:
                    break
        if not new:
            alpha = alpha / 2 if alpha > 0.01 else 0.0
            continue
        master.add(members[new], cost[new])
        relaxation, pi_lp = master.solve()
    clock["column generation"] = time.perf_counter()
    # 3. dual feasibility
    pi = np.minimum(pi_best, delta)
    while True:
        members, rc, _ = price(pi, -1e-12)
        if not len(rc):
            break
        lower = np.zeros(total)
        for row, r in zip(members, rc, strict=True):
            row = row[row >= 0]
            lower[row] = np.maximum(lower[row], -r / len(row) * (1 + 1e-9) + 1e-15)
        pi = pi - lower
    clock["dual feasibility"] = time.perf_counter()
    # 4. a partition
    members, rc, cost = price(pi, 0.02)
    head = np.repeat(members[:, 0], n - 1)
    rest = members[:, 1:].ravel()
    comp = _labels(head[rest >= 0], rest[rest >= 0], total)
    count = int(comp.max()) + 1
    unit_order, unit_cut = _groups(comp, count)
    col_order, col_cut = _groups(comp[members[:, 0]], count)
    rows, costs = [np.zeros((0, n), np.int64)], [np.zeros(0)]
    for k in range(count):
        cols = col_order[col_cut[k]:col_cut[k + 1]]
        if len(cols):
            units = np.sort(unit_order[unit_cut[k]:unit_cut[k + 1]])
            picked, _ = _least_partition(units, members[cols], cost[cols], delta)
            rows.append(members[cols[picked]])
            costs.append(cost[cols[picked]])
    part, part_cost = np.vstack(rows), np.concatenate(costs)
    clock["partition"] = time.perf_counter()
    # 5. certificate
    passes, limit, regions, largest = 0, 0.2, 0, 0
    improving = True  # first improve the partition region by region, then certify
    while True:
        passes += 1
        covered = np.zeros(total, bool)
        covered[part[part >= 0]] = True
        lone = np.flatnonzero(~covered)
        every = np.vstack([part, np.c_[lone, np.full((len(lone), n - 1), -1)]])
        every_cost = np.r_[part_cost, np.full(len(lone), delta)]
        every_rc = every_cost - np.where(every >= 0, pi[np.maximum(every, 0)], 0).sum(1)
        ptr = np.r_[0, np.cumsum((every >= 0).sum(1))].astype(np.int64)
        flat_units = every[every >= 0].astype(np.int64)
        while True:
            members, rc, cost = price(pi, limit)
            labels, mass = _grow(total, ptr, flat_units, every_rc, members, rc, n)
            roots = np.unique(labels)
            certified = mass[roots].max() <= limit / n
            if certified or improving:
                break
            limit *= 2
        hot = roots[mass[roots] > 1e-12]
        regions = len(hot)
        slot = np.full(total, -1)
        slot[hot] = np.arange(len(hot))
        col_label = np.where(members >= 0, labels[np.maximum(members, 0)], -1)
        inside = (((col_label == col_label[:, :1]) | (members < 0)).all(1)
                  & (slot[col_label[:, 0]] >= 0) & (rc < mass[col_label[:, 0]]))
        cols_in = np.flatnonzero(inside)
        c_order, c_cut = _groups(slot[col_label[cols_in, 0]], len(hot))
        part_label = slot[labels[every[:, 0]]]
        parts_in = np.flatnonzero(part_label >= 0)
        p_order, p_cut = _groups(part_label[parts_in], len(hot))
        units_in = np.flatnonzero(slot[labels] >= 0)
        u_order, u_cut = _groups(slot[labels[units_in]], len(hot))
        drop = np.zeros(len(every), bool)
        new_rows, new_costs = [], []
        for h in range(len(hot)):
            units = np.sort(units_in[u_order[u_cut[h]:u_cut[h + 1]]])
            largest = max(largest, len(units))
            mine = parts_in[p_order[p_cut[h]:p_cut[h + 1]]]
            multi = mine[(every[mine] >= 0).sum(1) > 1]
            cols = np.vstack([members[cols_in[c_order[c_cut[h]:c_cut[h + 1]]]], every[multi]])
            col_costs = np.r_[cost[cols_in[c_order[c_cut[h]:c_cut[h + 1]]]], every_cost[multi]]
            picked, value = _least_partition(units, cols, col_costs, delta)
            now = every_cost[mine].sum()
            if value < now - 1e-9 * max(1.0, now):
                drop[mine] = True
                new_rows.append(cols[picked])
                new_costs.append(col_costs[picked])
        if not new_rows:
            if certified:
                break
            improving = False  # no improvement left at this limit: certify
            continue
        keep = ~drop[:len(part)]
        part = np.vstack([part[keep], *new_rows])
        part_cost = np.r_[part_cost[keep], np.concatenate(new_costs)]
    clock["certificate"] = time.perf_counter()
    covered = np.zeros(total, bool)
    covered[part[part >= 0]] = True
    disorder = (part_cost.sum() + delta * (~covered).sum()) / (total / n)
    steps = list(clock)
    return {"units": total, "disorder": float(disorder),
            "seconds": {b: round(clock[b] - clock[a], 3) for a, b in pairwise(steps)},
            "total_s": round(clock[steps[-1]] - clock["start"], 3),
            "generation_rounds": rounds, "relaxation": float(relaxation) / (total / n),
            "certificate_passes": passes, "certificate_limit": limit,
            "regions_with_mass": regions, "largest_region": largest}


def continuum(case: str) -> Continuum:
    size, _, which = case.partition(":")
    annotators, units = (int(x) for x in size.split("x"))
    found = reference_continuum(annotators, units)
    cont = prepare([[u for u in us if u[1] > u[0]] for us in found], **DISSIMILARITY)
    if which in ("", "data"):
        return cont
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(0, spawn_key=(int(which),))))
    return sample_continuum(cont, rng)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="10x200:0,10x200:data",
                        help="comma-separated AxU:S (S a sample number, or data)")
    parser.add_argument("--reference", action="store_true",
                        help="also run the library's engine (max_candidates raised)")
    parser.add_argument("--out", type=Path, help="write the figures there (JSON)")
    args = parser.parse_args()
    _load()
    solve(continuum("3x5:data"))  # compile the kernels
    rows = []
    for case in args.cases.split(","):
        cont = continuum(case)
        found = solve(cont)
        found["case"] = case
        line = f"{case}: {found['units']} units, disorder {found['disorder']:.10f} in " \
               f"{found['total_s']} s {found['seconds']}"
        if args.reference:
            start = time.perf_counter()
            ref = best_alignment(cont, max_candidates=10**9).disorder
            found["reference_s"] = round(time.perf_counter() - start, 3)
            found["reference"] = ref
            found["relative_diff"] = abs(ref - found["disorder"]) / abs(ref)
            line += f"; library {ref:.10f} in {found['reference_s']} s (ratio " \
                    f"{found['reference_s'] / found['total_s']:.1f}x, relative diff " \
                    f"{found['relative_diff']:.1e})"
        print(line, flush=True)
        rows.append(found)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MiB")
    if args.out:
        args.out.write_text(json.dumps({"cases": rows, "peak_mib": peak}, indent=1))


if __name__ == "__main__":
    main()
