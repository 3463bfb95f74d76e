"""Krippendorff's unitizing alpha (u-alpha): agreement on where units begin and end along a
continuum (tokens, characters, seconds), with a category for each unit.

Each rater cuts the continuum, for each category ``c``, into sections: the units of ``c`` and
the gaps between them. Two sections of two raters that overlap differ by

* ``(b_g - b_h)^2 + (e_g - e_h)^2`` when both are units (their begins and ends ``b``, ``e``);
* ``l_g^2`` when ``g`` is a unit and ``h`` a gap that contains it (``l`` a length), and
  ``l_h^2`` the other way round;
* 0 otherwise (two gaps; a unit and a gap that only partly overlap).

With ``R`` raters and a continuum of length ``L``:

* ``D_o(c) = sum over ordered pairs of raters and their overlapping sections of delta^2 /
  (R (R - 1) L^2)``;
* ``D_e(c) = (2 / L) sum_u [ (N_c - 1) (2 l_u^3 - 3 l_u^2 + l_u) / 3
  + l_u^2 sum_{gaps g, l_g >= l_u} (l_g - l_u + 1) ] / (R L (R L - 1) - sum_u l_u (l_u - 1))``,
  the sums over the units ``u`` of ``c`` of every rater (``N_c`` of them) and the gaps of every
  rater;
* ``u-alpha(c) = 1 - D_o(c) / D_e(c)``; over all categories, ``1 - sum_c D_o(c) / sum_c D_e(c)``.

Statistics add: several continua (the documents of a corpus) pool their observed sums, their
units' and gaps' lengths and their lengths; a gap never runs from one document into the next.

References
----------
Krippendorff, K. (1995). On the reliability of unitizing continuous data. Sociological
Methodology 25, 47-76.

Krippendorff, K. (2004). Content Analysis: An Introduction to Its Methodology, 2nd ed., Sage,
section 12.4 (the two-rater example of p. 254: u-alpha 0.7286 for category c, 1 for k, 0.8591
over both, computed there from disagreements rounded to four decimals; exactly 0.8587).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import InputError, ParameterError

__all__ = ["UnitizingStats", "section_distance", "unitizing_alpha", "unitizing_stats"]

FloatArray = npt.NDArray[np.float64]
#: A unit: (rater, begin, end, category), end exclusive.
Unit = tuple[Hashable, int, int, Hashable]


def section_distance(b1: int, e1: int, unit1: bool, b2: int, e2: int, unit2: bool) -> float:
    """delta^2 of two overlapping sections (``[b, e)``; ``unit``: a unit, else a gap).

    Parameters
    ----------
    b1, e1, b2, e2 : int
        Begin and end (exclusive) of each section.
    unit1, unit2 : bool
        Whether each section is a unit of the category (else a gap).

    Returns
    -------
    float
        ``(b1 - b2)^2 + (e1 - e2)^2`` for two overlapping units; the squared length of a unit
        inside the other's gap; 0 otherwise.

    References
    ----------
    Krippendorff, K. (1995). On the reliability of unitizing continuous data. Sociological
    Methodology 25, 47-76. Krippendorff (2004), p. 254 (the example's distances).

    Examples
    --------
    Krippendorff's (2004) example: the units [225, 295) and [220, 300) differ by 5^2 + 5^2;
    [370, 400) and [355, 375) by 15^2 + 25^2; the unit [400, 420) lies in a gap [400, 450):

    >>> section_distance(225, 295, True, 220, 300, True)
    50.0
    >>> section_distance(370, 400, True, 355, 375, True)
    850.0
    >>> section_distance(400, 450, False, 400, 420, True)
    400.0
    """
    if unit1 and unit2 and b1 < e2 and b2 < e1:
        return float((b1 - b2) ** 2 + (e1 - e2) ** 2)
    if unit1 and not unit2 and b2 <= b1 and e1 <= e2:
        return float((e1 - b1) ** 2)
    if unit2 and not unit1 and b1 <= b2 and e2 <= e1:
        return float((e2 - b2) ** 2)
    return 0.0


def _sections(units: list[tuple[int, int]], begin: int, end: int) -> list[tuple[int, int, bool]]:
    """The continuum ``[begin, end)`` cut into the units (sorted, not overlapping) and gaps."""
    out: list[tuple[int, int, bool]] = []
    pos = begin
    for b, e in units:
        if b > pos:
            out.append((pos, b, False))
        out.append((b, e, True))
        pos = e
    if pos < end:
        out.append((pos, end, False))
    return out


def _observed(first: list[tuple[int, int, bool]], second: list[tuple[int, int, bool]]) -> float:
    """Sum of delta^2 over the overlapping sections of two raters (each pair once)."""
    total, j = 0.0, 0
    for b1, e1, u1 in first:
        while j < len(second) and second[j][1] <= b1:
            j += 1
        k = j
        while k < len(second) and second[k][0] < e1:
            b2, e2, u2 = second[k]
            total += section_distance(b1, e1, u1, b2, e2, u2)
            k += 1
    return total


@dataclass(frozen=True)
class UnitizingStats:
    """What u-alpha needs, per category; adds across continua (documents).

    Attributes
    ----------
    raters : tuple
        The raters.
    length : int
        The total length of the continua.
    observed : dict
        Category -> the sum of delta^2 over ordered pairs of raters and their overlapping
        sections.
    units : dict
        Category -> the lengths of its units (every rater).
    gaps : dict
        Category -> the lengths of the gaps between its units (every rater, every continuum).

    References
    ----------
    Krippendorff, K. (1995). On the reliability of unitizing continuous data. Sociological
    Methodology 25, 47-76.

    Examples
    --------
    >>> s = unitizing_stats([("A", 2, 5, "x"), ("B", 2, 5, "x")], length=10)
    >>> s2 = s + s   # two documents alike
    >>> s2.length, s2.units["x"].tolist(), s2.alpha()
    (20, [3.0, 3.0, 3.0, 3.0], 1.0)
    """

    raters: tuple[Hashable, ...]
    length: int
    observed: Mapping[Hashable, float] = field(default_factory=dict)
    units: Mapping[Hashable, FloatArray] = field(default_factory=dict)
    gaps: Mapping[Hashable, FloatArray] = field(default_factory=dict)

    def __add__(self, other: UnitizingStats) -> UnitizingStats:
        if not isinstance(other, UnitizingStats):
            return NotImplemented
        if set(self.raters) != set(other.raters):
            raise ParameterError("u-alpha statistics of different raters cannot be added")
        cats = list(dict.fromkeys([*self.observed, *other.observed]))
        empty = np.zeros(0)
        return UnitizingStats(
            self.raters, self.length + other.length,
            {c: self.observed.get(c, 0.0) + other.observed.get(c, 0.0) for c in cats},
            {c: np.concatenate([self.units.get(c, empty), other.units.get(c, empty)])
             for c in cats},
            {c: np.concatenate([self.gaps.get(c, self._all_gaps()),
                                other.gaps.get(c, other._all_gaps())]) for c in cats})

    def _all_gaps(self) -> FloatArray:
        """The gaps of a category no unit of this continuum has: one gap per rater."""
        return np.full(len(self.raters), float(self.length))

    def disagreements(self, category: Hashable) -> tuple[float, float]:
        """``(D_o, D_e)`` of one category."""
        r, big_l = len(self.raters), float(self.length)
        units = self.units.get(category, np.zeros(0))
        gaps = np.sort(self.gaps.get(category, self._all_gaps()))
        d_o = self.observed.get(category, 0.0) / (r * (r - 1) * big_l * big_l)
        n_c = len(units)
        suffix_sum = np.concatenate([np.cumsum(gaps[::-1])[::-1], [0.0]])
        first = np.searchsorted(gaps, units, side="left")  # gaps at least as long as the unit
        count = len(gaps) - first
        fits = suffix_sum[first] - (units - 1.0) * count  # sum (l_g - l_u + 1)
        numerator = ((n_c - 1) * (2 * units ** 3 - 3 * units ** 2 + units) / 3.0
                     + units ** 2 * fits).sum()
        denominator = r * big_l * (r * big_l - 1) - float((units * (units - 1)).sum())
        d_e = (2.0 / big_l) * numerator / denominator if denominator > 0 else float("nan")
        return float(d_o), float(d_e)

    def alpha(self, category: Hashable | None = None) -> float:
        """u-alpha of one category, or over all (``1 - sum D_o / sum D_e``); NaN where no
        disagreement is expected (no unit, or the whole continuum one unit)."""
        cats = [category] if category is not None else list(self.observed)
        pairs = [self.disagreements(c) for c in cats]
        d_o = sum(p[0] for p in pairs)
        d_e = sum(p[1] for p in pairs)
        return 1.0 - d_o / d_e if d_e > 0 else float("nan")


def unitizing_stats(units: Iterable[Unit], length: int, *, begin: int = 0,
                    raters: Sequence[Hashable] | None = None,
                    categories: Sequence[Hashable] | None = None) -> UnitizingStats:
    """The statistics of u-alpha for one continuum ``[begin, begin + length)``.

    Parameters
    ----------
    units : iterable of (rater, begin, end, category)
        The units, ``end`` exclusive; units of one rater and category may not overlap.
    length : int
        The length of the continuum.
    begin : int, default=0
        Where it begins.
    raters : sequence, optional
        Every rater (one who marked no unit is a rater too); default those of ``units``.
    categories : sequence, optional
        The categories (default: those of ``units``).

    Returns
    -------
    UnitizingStats

    Raises
    ------
    InputError
        A unit outside the continuum, empty, or overlapping another of its rater and category;
        fewer than two raters.

    References
    ----------
    Krippendorff, K. (1995). On the reliability of unitizing continuous data. Sociological
    Methodology 25, 47-76.

    Examples
    --------
    >>> s = unitizing_stats([("A", 0, 4, "x"), ("B", 1, 4, "x")], length=10)
    >>> s.observed["x"], s.units["x"].tolist(), sorted(s.gaps["x"].tolist())
    (2.0, [4.0, 3.0], [1.0, 6.0, 6.0])
    """
    records = list(units)
    names = list(raters) if raters is not None else list(dict.fromkeys(r for r, *_ in records))
    if len(names) < 2:
        raise InputError(f"u-alpha needs two or more raters; got {len(names)}")
    end = begin + length
    by: dict[Hashable, dict[Hashable, list[tuple[int, int]]]] = {}
    for rater, b, e, category in records:
        if rater not in names:
            raise InputError(f"unit [{b}, {e}) of rater {rater!r}, who is not among the raters")
        if not begin <= b < e <= end:
            raise InputError(f"unit [{b}, {e}) of rater {rater!r} is empty or outside the "
                             f"continuum [{begin}, {end})")
        by.setdefault(category, {}).setdefault(rater, []).append((b, e))
    cats = list(categories) if categories is not None else list(by)
    observed: dict[Hashable, float] = {}
    lengths: dict[Hashable, FloatArray] = {}
    gap_lengths: dict[Hashable, FloatArray] = {}
    for category in cats:
        sections = {}
        for rater in names:
            spans = sorted(by.get(category, {}).get(rater, []))
            for (b1, e1), (b2, _) in pairwise(spans):
                if b2 < e1:
                    raise InputError(f"rater {rater!r} has overlapping units [{b1}, {e1}) and "
                                     f"[{b2}, ...) of category {category!r}; u-alpha needs "
                                     "units of one rater and category that do not overlap")
            sections[rater] = _sections(spans, begin, end)
        observed[category] = 2.0 * sum(
            _observed(sections[a], sections[b])
            for i, a in enumerate(names) for b in names[i + 1:])
        lengths[category] = np.array([e - b for r in names for b, e, u in sections[r] if u],
                                     dtype=np.float64)
        gap_lengths[category] = np.array([e - b for r in names for b, e, u in sections[r]
                                          if not u], dtype=np.float64)
    return UnitizingStats(tuple(names), int(length), observed, lengths, gap_lengths)


def unitizing_alpha(continua: Mapping[Any, tuple[int, Iterable[Unit]]], *,
                    raters: Sequence[Hashable] | None = None) -> dict[Any, float]:
    """u-alpha of each category and over all, pooled over several continua (documents).

    Parameters
    ----------
    continua : mapping
        Document -> ``(length, units)``, the units as for :func:`unitizing_stats` (positions
        within the document, from 0).
    raters : sequence, optional
        Every rater (default: those of the units).

    Returns
    -------
    dict
        Category -> u-alpha, and ``None`` -> u-alpha over all categories.

    References
    ----------
    Krippendorff, K. (2004). Content Analysis, 2nd ed., section 12.4.

    Examples
    --------
    Krippendorff's (2004, p. 254) example, the continuum [150, 450) shifted to start at 0. The
    categories give the printed 0.7286 and 1; over both, the exact value is
    1 - 0.014444 / (0.053222 + 0.048979) = 0.8587, where the printed 0.8591 is
    1 - 0.0144 / (0.0532 + 0.0490), from the disagreements rounded to four decimals:

    >>> units = [(0, 75, 145, "c"), (0, 220, 250, "c"), (1, 70, 150, "c"), (1, 205, 225, "c"),
    ...          (1, 250, 270, "c"), (0, 30, 90, "k"), (0, 150, 200, "k"), (1, 30, 90, "k"),
    ...          (1, 150, 200, "k")]
    >>> found = unitizing_alpha({"example": (300, units)})
    >>> round(found["c"], 4), round(found["k"], 4), round(found[None], 4)
    (0.7286, 1.0, 0.8587)
    """
    records = {doc: (length, list(units)) for doc, (length, units) in continua.items()}
    if not records:
        raise InputError("u-alpha needs at least one continuum")
    names = list(raters) if raters is not None else list(dict.fromkeys(
        u[0] for _, units in records.values() for u in units))
    cats = list(dict.fromkeys(u[3] for _, units in records.values() for u in units))
    stats = [unitizing_stats(units, length, raters=names, categories=cats)
             for length, units in records.values()]
    total = sum(stats[1:], stats[0])
    out: dict[Any, float] = {c: total.alpha(c) for c in cats}
    out[None] = total.alpha()
    return out
