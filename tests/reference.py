"""Brute-force transcriptions of the definitions, written independently of the package.

Set distances are written on Python sets with exact fractions; alpha is the double sum of
Krippendorff (2011) over units and over all ordered pairs of pairable values.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

Value = frozenset


def _jacc(a: Value, b: Value) -> Fraction:
    return Fraction(1) if not (a | b) else Fraction(len(a & b), len(a | b))


def _mono(a: Value, b: Value, subset: Fraction, overlap: Fraction) -> Fraction:
    if a == b:
        return Fraction(1)
    if a <= b or b <= a:
        return subset
    return overlap if a & b else Fraction(0)


T3, T23 = Fraction(1, 3), Fraction(2, 3)
SET_DISTANCES: dict[str, Callable[[Value, Value], Fraction]] = {
    "nominal": lambda a, b: Fraction(int(a != b)),
    "jaccard": lambda a, b: 1 - _jacc(a, b),
    "dice": lambda a, b: (
        Fraction(0) if not (a or b) else 1 - Fraction(2 * len(a & b), len(a) + len(b))
    ),
    "masi": lambda a, b: 1 - _jacc(a, b) * _mono(a, b, T23, T3),
    "masi_nltk_legacy": lambda a, b: (
        1 - _jacc(a, b) * _mono(a, b, Fraction("0.67"), Fraction("0.33"))
    ),
    "masi_dkpro": lambda a, b: (1 - _jacc(a, b)) * (1 - _mono(a, b, T23, T3)),
    "passonneau2004": lambda a, b: 1 - _mono(a, b, T23, T3),
}


def brute_alpha(
    cells: dict[tuple[Hashable, Hashable], Any], dist: Callable[[Any, Any], Fraction]
) -> tuple[Fraction, Fraction, int] | None:
    """(D_o, D_e, n) from {(coder, unit): value}; None when fewer than two pairable values."""
    by_unit: dict[Hashable, list[Any]] = {}
    for (_, unit), value in cells.items():
        by_unit.setdefault(unit, []).append(value)
    units = [vals for vals in by_unit.values() if len(vals) >= 2]
    pool = [v for vals in units for v in vals]
    n = len(pool)
    if n < 2:
        return None
    observed = Fraction(0)
    for vals in units:
        s = sum((dist(vals[i], vals[j]) for i in range(len(vals)) for j in range(len(vals))
                 if i != j), Fraction(0))
        observed += s / (len(vals) - 1)
    expected = sum((dist(pool[i], pool[j]) for i in range(n) for j in range(n) if i != j),
                   Fraction(0))
    return observed / n, expected / (n * (n - 1)), n


def scalar_distance(name: str, pool: list[int]) -> Callable[[int, int], Fraction]:
    """Krippendorff's (2011) scalar differences; ordinal uses the marginals of ``pool``."""
    if name == "nominal":
        return lambda c, k: Fraction(int(c != k))
    if name == "interval":
        return lambda c, k: Fraction(c - k) ** 2
    if name == "ratio":
        return lambda c, k: Fraction(0) if c + k == 0 else Fraction(c - k, c + k) ** 2
    counts = {v: pool.count(v) for v in set(pool)}

    def ordinal(c: int, k: int) -> Fraction:
        lo, hi = min(c, k), max(c, k)
        between = sum(n for g, n in counts.items() if lo <= g <= hi)
        return (Fraction(between) - Fraction(counts[c] + counts[k], 2)) ** 2

    return ordinal


def dense_a_m(cells: dict, annotators: list, categories: list, items: list,
              consistent: bool = False) -> tuple[float, float]:
    """Po and Pe of Bhowmick et al.'s A_m by their equations, over an annotators x items x
    category pairs array (the definition, for tests; ``cells[(annotator, item)]`` is a set)."""
    import itertools

    import numpy as np

    x = np.array([[[int(c in cells[a, i]) for c in categories] for i in items]
                  for a in annotators])
    pairs_c = list(itertools.combinations(range(len(categories)), 2))
    pairs_u = list(itertools.combinations(range(len(annotators)), 2))
    codes = np.stack([2 * x[:, :, a] + x[:, :, b] for a, b in pairs_c], axis=-1)
    groups = np.where(codes == 2, 1, codes)
    seen = groups if consistent else codes
    p_i = np.array([sum(int(seen[u, i, k] == seen[v, i, k]) for u, v in pairs_u
                        for k in range(len(pairs_c))) for i in range(len(items))])
    po = float((p_i / (len(pairs_c) * len(pairs_u))).mean())
    shares = {(u, k, g): float((groups[u, :, k] == g).mean())
              for u in range(len(annotators)) for k in range(len(pairs_c)) for g in (0, 1, 3)}
    pe = float(np.mean([np.mean([sum(shares[u, k, g] * shares[v, k, g] for g in (0, 1, 3))
                                 for u, v in pairs_u]) for k in range(len(pairs_c))]))
    return po, pe
