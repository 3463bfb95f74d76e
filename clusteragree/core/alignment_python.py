"""The candidate unitary alignments of gamma's best alignment in pure Python: the route taken
where numba cannot serve (:mod:`clusteragree.core.alignment_kernel` holds the compiled one;
both keep the same candidates, by the conditions of :mod:`clusteragree.core.alignment`).

References
----------
Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). The unified and holistic method gamma (γ)
for inter-annotator agreement measure and alignment. Computational Linguistics 41(3), 437-479.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np

__all__ = ["candidates", "cut_ok"]

#: Members up to this size have every bipartition's cut checked; larger ones a bound.
EXACT_CUTS = 8


def cut_ok(d: list[list[float]], lam: float, delta: float) -> bool:
    """False when some bipartition of the members (``d`` their pairwise dissimilarities) has
    ``sum over crossing pairs of (d - Δ) >= λ``.

    Examples
    --------
    >>> cut_ok([[0, 0.1], [0.1, 0]], 1.0, 1.0), cut_ok([[0, 2.5], [2.5, 0]], 1.0, 1.0)
    (True, False)
    """
    k = len(d)
    weight = [[d[x][y] - delta for y in range(k)] for x in range(k)]
    if k > EXACT_CUTS:
        total = sum(weight[x][y] for x, y in combinations(range(k), 2))
        share = (k // 2) * ((k + 1) // 2) / comb(k, 2)
        return not (total > 0 and share * total >= lam)
    for mask in range(1, 1 << (k - 1)):
        side = [0] + [(mask >> (x - 1)) & 1 for x in range(1, k)]
        cut = sum(weight[x][y] for x, y in combinations(range(k), 2) if side[x] != side[y])
        if cut >= lam:
            return False
    return True


def candidates(gi: np.ndarray, gj: np.ndarray, dist: np.ndarray, owner: np.ndarray,
               labels: np.ndarray, n: int, delta: float, cap: int
               ) -> tuple[np.ndarray, np.ndarray, int]:
    """Members (rows of global positions padded with -1), disorders, and the label of a group
    with more than ``cap`` candidates (-1 when none), as the compiled kernel returns them."""
    near: dict[tuple[int, int], float] = {}
    for a, b, x in zip(gi.tolist(), gj.tolist(), dist.tolist(), strict=True):
        near[a, b] = near[b, a] = x
    later: dict[int, list[int]] = {}
    for a, b in near:
        if owner[b] > owner[a]:
            later.setdefault(a, []).append(b)
    big = comb(n, 2)
    lam = delta * big
    threshold = delta * (big + n - 1)
    nearest: dict[int, dict[int, list[tuple[float, int]]]] = {}
    for (a, b), x in near.items():
        nearest.setdefault(a, {}).setdefault(int(owner[b]), []).append((x, b))
    for per in nearest.values():
        for j in per:
            per[j] = sorted(per[j])[:2]

    def merge_ok(members: list[int]) -> bool:
        """False when some unit of an annotator absent from the members would lower the
        disorder of any alignment holding them by joining them (see the kernel's
        ``_merge_ok``)."""
        held = {int(owner[x]): x for x in members}
        for z in {b for (a, b) in near if a == members[0]}:
            if int(owner[z]) in held or any((x, z) not in near for x in members):
                continue
            gain = sum(near[x, z] - delta for x in members)
            if gain >= lam:
                continue
            negative, least = 0.0, threshold - delta
            for j in range(n):
                if j == owner[z]:
                    continue
                options = [x for x, b in nearest.get(z, {}).get(j, []) if held.get(j) != b]
                best = min([*options[:1], threshold]) - delta
                if best < 0:
                    negative += best
                elif best < least:
                    least = best
            if gain < min(lam, negative if negative < 0 else least):
                return False
        return True

    rows: list[list[int]] = []
    costs: list[float] = []
    per_group: dict[int, int] = {}

    def walk(picks: list[int], sums: list[float], total: float, options: list[int]) -> int:
        for p, v in enumerate(options):
            ds = [near.get((x, v), np.inf) for x in picks]
            if any(np.isinf(ds)):
                continue
            k = len(picks) + 1
            remaining = len({int(owner[z]) for z in options[p + 1:] if owner[z] > owner[v]})
            bound = delta * (big + k + remaining - 1)
            own = sum(ds)
            if own >= bound or any(s + x >= bound for s, x in zip(sums, ds, strict=True)):
                continue
            new_sums = [s + x for s, x in zip(sums, ds, strict=True)] + [own]
            new_total = total + own
            members = [*picks, v]
            if (all(s < delta * (big + k - 1) for s in new_sums)
                    and new_total + (big - comb(k, 2)) * delta < k * delta * big
                    and cut_ok([[0.0 if x == y else near[x, y] for y in members]
                                for x in members], lam, delta)
                    and merge_ok(members)):
                rows.append(members)
                costs.append((new_total + (big - comb(k, 2)) * delta) / big)
                group = int(labels[members[0]])
                per_group[group] = per_group.get(group, 0) + 1
                if per_group[group] > cap:
                    return group
            rest = [z for z in options[p + 1:] if owner[z] > owner[v]]
            over = walk(members, new_sums, new_total, rest)
            if over >= 0:
                return over
        return -1

    over = -1
    for root in sorted(later):
        over = walk([root], [0.0], 0.0, sorted(later[root]))
        if over >= 0:
            break
    table = np.full((len(rows), n), -1, dtype=np.int64)
    for r, members in enumerate(rows):
        table[r, :len(members)] = members
    return table, np.asarray(costs, dtype=float), over
