"""Krippendorff & Craggs (2016): multi-valued alpha (mv-alpha) for set values, nominal labels.

Values are sets of labels; the empty set is a value, not a missing one. With ``n`` pairable
values (units coded by at least two coders):

* set difference ``delta(C, K) = 1 - 2|C & K| / (|C| + |K|)`` (Dice), 0 for two empty sets and
  1 for the empty set against a non-empty one;
* ``mvDo = (1/n) * sum over coincidences o_CK of delta(C, K)``, with
  ``o_CK = sum_u n_uC (n_uK - [C = K]) / (m_u - 1)``;
* ``mvDe``: for every pair of observed set sizes s <= t (with shares P(s), P(t) among the
  pairable values), every set C of s labels and K of t labels drawn from the single-label
  frequencies ``n_c`` without replacement, weight
  ``w = prod_{c in C} n_c * prod_{k in K - C} n_k * prod_{k in K & C} (n_k - 1)``;
  ``mvDe = sum_{s <= t} P(s) P(t) (2 if s != t else 1) * sum(w delta) / sum(w)``;
* ``mv-alpha = 1 - mvDo / mvDe``.

This is the computation of the R package mvalpha (the only other implementation), whose test of
the paper's Table 3 gives 0.2865907. The enumeration is combinatorial in the number of labels.

Examples
--------
>>> table = {"U1": {"F": {"b", "d"}, "G": {"d"}},
...          "U2": {"F": {"a", "b", "d"}, "G": {"b"}, "H": {"b", "d"}},
...          "U3": {"F": set(), "G": {"a"}, "H": {"a"}}, "U4": {"F": {"a"}}}
>>> round(mv_alpha(table).alpha, 7)
0.2865907
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations
from math import comb, prod

from ..errors import ParameterError, ParameterTypeError

__all__ = ["MvAlpha", "mv_alpha"]


@dataclass(frozen=True)
class MvAlpha:
    """mv-alpha with its observed and expected disagreements.

    The shape of every alpha result (:class:`~clusteragree.AlphaResult`): ``alpha``, ``D_o``,
    ``D_e``, ``n``.

    Attributes
    ----------
    alpha : float
        ``1 - D_o / D_e``; NaN when ``D_e`` is 0 or fewer than two values are pairable.
    D_o : float
        Observed disagreement mvDo (also ``do``, its name in version 0.1).
    D_e : float
        Expected disagreement mvDe (also ``de``).
    n : int
        The number of pairable values (codings of units coded by two coders or more).

    References
    ----------
    Krippendorff, K. and Craggs, R. (2016). The reliability of multi-valued coding of data.
    Communication Methods and Measures, 10(4), 181-198. doi:10.1080/19312458.2016.1228863.

    The R package mvalpha (github.com/therealcfdrake/mvalpha, v0.6.0), whose computation this
    follows; its test of the paper's Table 3 gives 0.2865907.

    docs/multilabel.md, section "Multi-valued alpha".

    Examples
    --------
    The paper's Table 3. U4 has one coder and is left out, so n = 8; U1 contributes
    2 x (1/3), U2 2 x (1/2 + 1/5 + 1/3) / 2 and U3 (the empty set against {a} twice)
    2 x (1 + 1) / 2 to the coincidences, 111/30 in all, and mvDo = 111/30 / 8 = 37/80:

    >>> table = {"U1": {"F": {"b", "d"}, "G": {"d"}},
    ...          "U2": {"F": {"a", "b", "d"}, "G": {"b"}, "H": {"b", "d"}},
    ...          "U3": {"F": set(), "G": {"a"}, "H": {"a"}}, "U4": {"F": {"a"}}}
    >>> r = mv_alpha(table)
    >>> r.n, r.D_o, round(r.alpha, 7)
    (8, 0.4625, 0.2865907)
    """

    alpha: float
    D_o: float
    D_e: float
    n: int

    @property
    def do(self) -> float:
        """``D_o`` by its name in version 0.1."""
        return self.D_o

    @property
    def de(self) -> float:
        """``D_e`` by its name in version 0.1."""
        return self.D_e


def _delta(c: frozenset, k: frozenset) -> float:
    if not c and not k:
        return 0.0
    return 1.0 - 2.0 * len(c & k) / (len(c) + len(k))


def mv_alpha(units: Mapping[Hashable, Mapping[Hashable, Iterable[Hashable] | None]]) -> MvAlpha:
    """mv-alpha of ``unit -> coder -> set of labels`` (None, or an absent coder, is missing).

    The empty set is a value, not a missing one. Units with fewer than two values are left
    out. The set difference is ``1 - 2|C & K| / (|C| + |K|)``; the expected disagreement is
    built from the single-label frequencies and the observed distribution of set sizes (see the
    module's description), so with one label per value mv-alpha is Krippendorff's nominal alpha.

    Parameters
    ----------
    units : mapping
        ``unit -> {coder: iterable of labels or None}``; labels are hashable.

    Returns
    -------
    MvAlpha
        mv-alpha, mvDo, mvDe and the number of pairable values; all three NaN when fewer than
        two values are pairable.

    Raises
    ------
    ParameterError
        When the label universe makes the enumeration of expected pairs too large (more than
        10**7 pairs of sets).
    ParameterTypeError
        When ``units`` is not a mapping of mappings.

    References
    ----------
    Krippendorff, K. and Craggs, R. (2016). The reliability of multi-valued coding of data.
    Communication Methods and Measures, 10(4), 181-198. doi:10.1080/19312458.2016.1228863.

    The R package mvalpha (github.com/therealcfdrake/mvalpha, v0.6.0), whose computation this
    follows; its test of the paper's Table 3 gives 0.2865907.

    docs/multilabel.md, section "Multi-valued alpha".

    Examples
    --------
    One label per value: two coders agree on u1 ({a}) and u2 ({b}) and disagree on u3; u4 has
    one value (G's None is missing) and is left out. n = 6 and the two disagreeing ordered
    pairs give mvDo = 2/6. Labels a and b occur 3 times each, so the pairs of single labels
    weigh 3 x 2 (a, a), 3 x 3 (a, b), 3 x 3 (b, a) and 3 x 2 (b, b): mvDe = 18/30 = 0.6, and
    mv-alpha = 1 - (1/3) / 0.6 = 4/9, as nominal alpha:

    >>> r = mv_alpha({"u1": {"F": {"a"}, "G": {"a"}}, "u2": {"F": {"b"}, "G": {"b"}},
    ...               "u3": {"F": {"a"}, "G": {"b"}}, "u4": {"F": {"a"}, "G": None}})
    >>> r.n, round(r.D_o, 4), round(r.D_e, 4), round(r.alpha, 4)
    (6, 0.3333, 0.6, 0.4444)

    The paper's Table 3, with the empty set as a value (mvDo = 37/80, see :class:`MvAlpha`):

    >>> table = {"U1": {"F": {"b", "d"}, "G": {"d"}},
    ...          "U2": {"F": {"a", "b", "d"}, "G": {"b"}, "H": {"b", "d"}},
    ...          "U3": {"F": set(), "G": {"a"}, "H": {"a"}}, "U4": {"F": {"a"}}}
    >>> round(mv_alpha(table).alpha, 7)
    0.2865907

    Two coders, eleven items (stats.stackexchange.com question 407453). The differences are
    1/3 on items 0, 4 and 7 ({l1, l2} against {l1}, {l3} against {l1, l3}), 1 on item 6
    ({l2} against {l4}) and 1 - 4/5 = 1/5 on item 8 ({l1, l2} against {l1, l2, l3}); each
    counts twice, so mvDo = 2 x 2.2 / 22 = 0.2; mv-alpha is 0.680815:

    >>> pairs = ["l1 l2|l1", "l1 l2|l1 l2", "l1|l1", "l3|l3", "l3|l1 l3", "l4|l4", "l2|l4",
    ...          "l1 l2|l1", "l1 l2|l1 l2 l3", "l1|l1", "l1|l1"]
    >>> units = {k: dict(zip(("c1", "c2"), (set(v.split()) for v in pair.split("|"))))
    ...          for k, pair in enumerate(pairs)}
    >>> r = mv_alpha(units)
    >>> round(r.D_o, 6), round(r.alpha, 6)
    (0.2, 0.680815)
    """
    if not isinstance(units, Mapping) or not all(isinstance(v, Mapping)
                                                   for v in units.values()):
        raise ParameterTypeError(
            "units must be a mapping unit -> (coder -> set of labels). Got "
            f"{type(units).__name__}.")
    pairable = []
    for unit in units.values():
        values = [frozenset(v) for v in unit.values() if v is not None]
        if len(values) >= 2:
            pairable.append(values)
    n = sum(len(v) for v in pairable)
    if n < 2:
        return MvAlpha(float("nan"), float("nan"), float("nan"), n)
    observed = 0.0
    for values in pairable:
        m = len(values)
        for i in range(m):
            for j in range(m):
                if i != j:
                    observed += _delta(values[i], values[j]) / (m - 1)
    do = observed / n
    all_values = [v for values in pairable for v in values]
    sizes = Counter(len(v) for v in all_values)
    freq = Counter(label for v in all_values for label in v)
    labels = sorted(freq, key=str)
    # counted, not listed: listing C(50, 11) sets to count them exhausted the memory
    work = sum(comb(len(labels), s) * comb(len(labels), t)
               for s in sizes for t in sizes if s <= t)
    if work > 10**7:
        raise ParameterError(f"mv-alpha's expected disagreement needs {work} pairs of sets "
                             f"over {len(labels)} labels; too many to enumerate")
    de = 0.0
    for s in sorted(sizes):
        for t in sorted(sizes):
            if t < s:
                continue
            total_w = total_wd = 0.0
            for c in combinations(labels, s):
                cs = frozenset(c)
                wc = prod(freq[x] for x in cs)
                for k in combinations(labels, t):
                    ks = frozenset(k)
                    w = wc * prod(freq[x] for x in ks - cs) * prod(freq[x] - 1 for x in ks & cs)
                    total_w += w
                    total_wd += w * _delta(cs, ks)
            if total_w:
                share = sizes[s] * sizes[t] / (n * n) * (2 if s != t else 1)
                de += share * total_wd / total_w
    value = float("nan") if de == 0 else 1.0 - do / de
    return MvAlpha(value, do, de, n)
