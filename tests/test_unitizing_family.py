"""Krippendorff et al.'s (2016) unitizing alpha family: the fast sums against a brute-force
reading of the definitions (position by position, section by section), against the core's
coding alpha where the family reduces to it (units one position long), against the 1995/2004
alpha_U, additivity over documents, and the edge cases."""

from __future__ import annotations

import subprocess
import sys
import warnings
from collections.abc import Callable, Hashable, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree.core import alpha
from clusteragree.core.frames import TOTAL
from clusteragree.core.unitizing import unitizing_alpha
from clusteragree.core.unitizing_family import (
    FAMILY_COLUMNS,
    SELF_PAIRS,
    UnitizingFamilyStats,
    unitizing_family,
    unitizing_family_stats,
)
from clusteragree.errors import InputError, InputWarning, Ledger, ParameterError

GAP = object()  # the empty category of the brute force


# ----------------------------------------------------------------------------- brute force
def brute(spans: Sequence[tuple[Any, int, int, Any]], length: int, annotators: Sequence[Any],
          categories: Sequence[Any], delta: Callable[[Any, Any], float] | None = None,
          self_pairs: str = "mean") -> dict[Any, float]:
    """The family read from its definitions, for one continuum: every position of every
    annotator against every other annotator's value there; every section listed."""
    delta = delta or (lambda a, b: float(a != b))
    m = len(annotators)
    value = {a: [GAP] * length for a in annotators}
    units = []
    for a, s, e, c in spans:
        for x in range(s, e):
            value[a][x] = c
        units.append((a, s, e, c))
    values = [GAP, *categories]
    obs = {(c, k): 0.0 for c in values for k in values}
    for x in range(length):
        for i in annotators:
            for j in annotators:
                if i != j:
                    obs[value[i][x], value[j][x]] += 1.0 / (m - 1)
    squares = dict.fromkeys(values, 0.0)
    for _, s, e, c in units:
        squares[c] += (e - s) ** 2
    for a in annotators:  # the gaps: maximal runs of GAP, each of its positions a section
        squares[GAP] += sum(1.0 for x in range(length) if value[a][x] is GAP)
    total = m * length
    n = {c: sum(obs[c, k] for k in values) for c in values}
    den = total * total - sum(squares.values())
    exp = {(c, k): total * (n[c] * n[k] - (c == k) * squares[c]) / den if den else np.nan
           for c in values for k in values}
    out: dict[Any, float] = {}
    off = [(c, k) for c in values for k in values if c != k]
    d_o = sum(obs[p] for p in off)
    d_e = sum(exp[p] for p in off)
    out["u_alpha"] = 1 - d_o / d_e if d_e > 1e-12 else np.nan
    cross = [(c, k) for c, k in off if (c is GAP) != (k is GAP)]
    d_o = sum(obs[p] for p in cross)
    d_e = sum(exp[p] for p in cross)
    out["bu_alpha"] = 1 - d_o / d_e if d_e > 1e-12 else np.nan
    # cu: the categories where units of two annotators overlap
    star = {(c, k): obs[c, k] for c in categories for k in categories}
    n_star = {c: sum(star[c, k] for k in categories) for c in categories}
    t = sum(n_star.values())
    self_sq = dict.fromkeys(categories, 0.0)
    for a, s, e, c in units:
        others = [j for j in annotators if j != a]
        p = [sum(value[j][x] is not GAP for x in range(s, e)) for j in others]
        if self_pairs == "mean":
            self_sq[c] += (sum(p) / (m - 1)) ** 2
        elif self_pairs == "pairwise":
            self_sq[c] += sum(q * q for q in p) / (m - 1)
        else:
            self_sq[c] += sum(any(value[j][x] is not GAP for j in others)
                              for x in range(s, e)) ** 2
    den = t - sum(self_sq.values()) / t if t else 0.0
    if den <= 1e-12:
        out["cu_alpha"] = np.nan
        for k in categories:
            out[k] = np.nan
        return out
    exp = {(c, k): (n_star[c] * n_star[k] - (c == k) * self_sq[c]) / den
           for c in categories for k in categories}
    d_o = sum(delta(c, k) * star[c, k] for c in categories for k in categories)
    d_e = sum(delta(c, k) * exp[c, k] for c in categories for k in categories)
    out["cu_alpha"] = 1 - d_o / d_e if d_e > 1e-12 else np.nan
    for k in categories:
        e_k = sum(exp[c, k] for c in categories)
        k_o = sum(delta(c, k) * star[c, k] for c in categories)
        k_e = sum(delta(c, k) * exp[c, k] for c in categories)
        out[k] = (1 - (k_o / n_star[k]) / (k_e / e_k)
                  if n_star[k] > 0 and e_k > 1e-12 and k_e > 1e-12 else np.nan)
    return out


def fast(spans: Sequence[tuple[Any, int, int, Any]], length: int, annotators: Sequence[Any],
         categories: Sequence[Any], distance: Any = "nominal",
         self_pairs: str = "mean") -> dict[Any, float]:
    rows = [(a, "d", s, e, c) for a, s, e, c in spans]
    frame = pd.DataFrame(rows, columns=["annotator", "document", "start", "end", "label"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        out = unitizing_family(frame, {"d": length}, annotators=annotators,
                               categories=categories, distance=distance, self_pairs=self_pairs)
    return {(r.category if r.coefficient == "ku_alpha" else r.coefficient): r.alpha
            for r in out.itertuples()}


def same(a: dict[Any, float], b: dict[Any, float]) -> None:
    assert a.keys() == b.keys()
    for key in a:
        if np.isnan(b[key]):
            assert np.isnan(a[key]), key
        else:
            assert a[key] == pytest.approx(b[key], rel=1e-9, abs=1e-9), key


@st.composite
def continua(draw: Any, annotators: tuple[int, int] = (2, 4), categories: int = 3,
             max_length: int = 24) -> tuple[list[tuple[Any, int, int, Any]], int, list[Any],
                                            list[Any]]:
    """A continuum cut by each annotator into sections (units touching each other and the
    ends, gaps), sometimes an annotator who marks nothing."""
    length = draw(st.integers(1, max_length))
    names = [f"a{k}" for k in range(draw(st.integers(*annotators)))]
    cats = ["x", "y", "z"][:draw(st.integers(1, categories))]
    spans = []
    for a in names:
        if draw(st.integers(0, 5)) == 0:
            continue  # marks nothing
        cuts = sorted(draw(st.sets(st.integers(0, length), max_size=8)) | {0, length})
        for s, e in pairwise(cuts):
            kind = draw(st.integers(0, len(cats)))
            if kind:
                spans.append((a, s, e, cats[kind - 1]))
    return spans, length, names, cats


# -------------------------------------------------------------------- against brute force
@settings(max_examples=40, deadline=None)
@given(continua())
def test_the_family_is_its_definition(data: Any) -> None:
    spans, length, names, cats = data
    same(fast(spans, length, names, cats), brute(spans, length, names, cats))


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(continua(annotators=(2, 5), max_length=40))
def test_the_family_is_its_definition_on_more_continua(data: Any) -> None:
    spans, length, names, cats = data
    same(fast(spans, length, names, cats), brute(spans, length, names, cats))


@settings(max_examples=25, deadline=None)
@given(continua(annotators=(3, 4)), st.sampled_from(["pairwise", "union"]))
def test_the_other_readings_of_the_self_pairs(data: Any, self_pairs: str) -> None:
    spans, length, names, cats = data
    same(fast(spans, length, names, cats, self_pairs=self_pairs),
         brute(spans, length, names, cats, self_pairs=self_pairs))


@settings(max_examples=12, deadline=None)
@given(continua(annotators=(2, 2)))
def test_the_readings_agree_for_two_annotators(data: Any) -> None:
    spans, length, names, cats = data
    first = fast(spans, length, names, cats)
    for reading in SELF_PAIRS[1:]:
        same(fast(spans, length, names, cats, self_pairs=reading), first)


@settings(max_examples=20, deadline=None)
@given(continua(categories=3))
def test_an_interval_distance_between_categories(data: Any) -> None:
    spans, length, names, _ = data
    numeric = [(a, s, e, {"x": 1, "y": 2, "z": 4}[c]) for a, s, e, c in spans]
    cats = [1, 2, 4]
    same(fast(numeric, length, names, cats, distance="interval"),
         brute(numeric, length, names, cats, delta=lambda a, b: float((a - b) ** 2)))


def test_an_ordinal_distance_ranks_the_categories_by_their_cu_margins() -> None:
    """Krippendorff's ordinal difference with the cu margins as counts: 1 (low), 2 (mid) and 3
    (high) meet over 0-3 (1, 1), 4 (2, 1), 5 (2, 3) and 6-9 (3, 3), so the margins are 9, 2
    and 9 and the mid-ranks 4.5, 10 and 15.5."""
    spans = [("A", 0, 4, 1), ("A", 4, 6, 2), ("A", 6, 10, 3),
             ("B", 0, 5, 1), ("B", 5, 7, 3), ("B", 7, 10, 3)]
    rank = {1: 4.5, 2: 10.0, 3: 15.5}
    want = brute(spans, 10, ["A", "B"], [1, 2, 3], delta=lambda a, b: (rank[a] - rank[b]) ** 2)
    same(fast(spans, 10, ["A", "B"], [1, 2, 3], distance="ordinal"), want)


# ------------------------------------------------------------- against the core's alpha
def _positions(spans: list[tuple[Any, int, int, Any]], length: int, names: list[Any],
               gap: Any) -> list[list[Any]]:
    table = {a: [gap] * length for a in names}
    for a, s, e, c in spans:
        for x in range(s, e):
            table[a][x] = c
    return [table[a] for a in names]


@st.composite
def single_positions(draw: Any, annotators: tuple[int, int] = (2, 4)) -> Any:
    """Units one position long: each position of each annotator a unit or a gap."""
    length = draw(st.integers(2, 30))
    names = [f"a{k}" for k in range(draw(st.integers(*annotators)))]
    spans = [(a, x, x + 1, c) for a in names for x in range(length)
             if (c := draw(st.sampled_from([None, 1, 2, 3]))) is not None]
    return spans, length, names


@settings(max_examples=20, deadline=None)
@given(single_positions())
def test_units_of_one_position_make_u_alpha_the_coding_alpha_of_the_positions(data: Any
                                                                              ) -> None:
    """Every section one position long (a gap counts its positions singly anyway): the
    expected coincidences are Krippendorff's ``n_c (n_k - [c = k]) / (n - 1)``, so u-alpha is
    the nominal alpha of the positions with the gap as a value, and |u-alpha that of gap
    against unit (the core's generic engine, another code path)."""
    spans, length, names = data
    got = fast(spans, length, names, [1, 2, 3])
    table = _positions(spans, length, names, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        u = alpha(table, "nominal").alpha
        bu = alpha([[int(v != 0) for v in row] for row in table], "nominal").alpha
    for key, want in (("u_alpha", u), ("bu_alpha", bu)):
        assert got[key] == pytest.approx(want, abs=1e-9) or (np.isnan(got[key])
                                                             and np.isnan(want))


@settings(max_examples=20, deadline=None)
@given(single_positions(annotators=(2, 2)), st.sampled_from(["nominal", "interval"]))
def test_cu_alpha_of_two_annotators_is_the_coding_alpha_where_both_mark(data: Any,
                                                                        distance: str) -> None:
    """Two annotators, units one position long: cu-alpha is alpha over the positions both
    marked, with any distance."""
    spans, length, names = data
    got = fast(spans, length, names, [1, 2, 3], distance=distance)["cu_alpha"]
    table = _positions(spans, length, names, None)
    both = [x for x in range(length) if table[0][x] is not None and table[1][x] is not None]
    if len(both) < 1 or len({table[a][x] for a in (0, 1) for x in both}) < 2:
        assert np.isnan(got)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = alpha([[row[x] for x in both] for row in table], distance).alpha
    assert got == pytest.approx(want, abs=1e-9)


# ------------------------------------------------------------------ against alpha_U (1995)
# Krippendorff (2004, p. 254), shifted to start at 0: units as (observer, begin, end).
BOOK_C = [(0, 75, 145), (0, 220, 250), (1, 70, 150), (1, 205, 225), (1, 250, 270)]
BOOK_K = [(0, 30, 90), (0, 150, 200), (1, 30, 90), (1, 150, 200)]


def test_the_2016_alpha_differs_from_alpha_u_on_one_category() -> None:
    """On one category (binary data) u-alpha and |u-alpha are one coefficient, and it is not
    Krippendorff's 1995/2004 alpha_U: there a unit's disagreement is the squared shift of its
    ends, here the positions two observers value differently. On the book's category c
    alpha_U is 0.7286; the 2016 value is 1 - (140 / 600) / (167200 / 346620) = 0.5163 (70
    positions valued differently, 220 valued c, squared lengths 13000 and 380 gap positions).
    Both are 1 where the observers agree (category k)."""
    old = unitizing_alpha({"book": (300, [(r, b, e, "c") for r, b, e in BOOK_C])})["c"]
    assert round(old, 4) == 0.7286
    spans = [(r, "book", b, e, "c") for r, b, e in BOOK_C]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        out = unitizing_family(spans, {"book": 300}).set_index("coefficient")
    assert out.loc["u_alpha", "alpha"] == pytest.approx(1 - (140 / 600) / (167200 / 346620))
    assert out.loc["bu_alpha", "alpha"] == out.loc["u_alpha", "alpha"]
    assert round(out.loc["u_alpha", "alpha"], 4) == 0.5163
    same(fast([(r, b, e, "c") for r, b, e in BOOK_C], 300, [0, 1], ["c"]),
         brute([(r, b, e, "c") for r, b, e in BOOK_C], 300, [0, 1], ["c"]))
    k = [(r, "book", b, e, "k") for r, b, e in BOOK_K]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        agree = unitizing_family(k, {"book": 300}).set_index("coefficient")["alpha"]
    assert agree["u_alpha"] == 1 == unitizing_alpha({"book": (300, [(r, b, e, "k") for r, b, e
                                                                     in BOOK_K])})["k"]


def test_the_book_example_with_both_categories_is_refused() -> None:
    """The 2004 example's observer 0 marks c over 225-240 inside a unit of k: alpha_U takes each
    category on its own, the 2016 family one value per position, so it refuses."""
    spans = [(r, "book", b, e, "c") for r, b, e in BOOK_C] + \
        [(r, "book", b, e, "k") for r, b, e in BOOK_K]
    with pytest.raises(InputError, match="overlap"):
        unitizing_family(spans, {"book": 300})


# ---------------------------------------------------------------------------- additivity
def _same_stats(a: UnitizingFamilyStats, b: UnitizingFamilyStats) -> None:
    assert (a.annotators, a.categories, a.length) == (b.annotators, b.categories, b.length)
    for name in ("overlap", "units", "unit_lengths", "unit_squares", "paired_units",
                 "pair_squares", "pairwise_squares", "union_squares"):
        np.testing.assert_allclose(getattr(a, name), getattr(b, name), err_msg=name)


@settings(max_examples=20, deadline=None)
@given(continua(), continua())
def test_statistics_add_over_documents_as_the_documents_laid_end_to_end(one: Any, two: Any
                                                                        ) -> None:
    spans1, len1, names1, _ = one
    spans2, len2, names2, _ = two
    names = sorted(set(names1) | set(names2))
    cats = ["x", "y", "z"]
    rows = [(a, "d1", s, e, c) for a, s, e, c in spans1] + \
        [(a, "d2", s, e, c) for a, s, e, c in spans2]
    joined = [(a, "d", s, e, c) for a, s, e, c in spans1] + \
        [(a, "d", s + len1, e + len1, c) for a, s, e, c in spans2]
    frame = pd.DataFrame(rows, columns=["annotator", "document", "start", "end", "label"])
    per = unitizing_family_stats(frame, {"d1": len1, "d2": len2}, annotators=names,
                                 categories=cats)
    total = (per["d1"] + per["d2"]).aligned(cats)
    whole = unitizing_family_stats(joined, {"d": len1 + len2}, annotators=names,
                                   categories=cats)["d"].aligned(cats)
    _same_stats(sum(per.values()).aligned(cats), total)  # sum() starts at 0
    _same_stats(total, whole)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        pooled = unitizing_family(frame, {"d1": len1, "d2": len2}, annotators=names,
                                  categories=cats, per_document=True)
        by_sum = total.coefficients()
    got = pooled[pooled.pooled].reset_index(drop=True)
    np.testing.assert_allclose(got["alpha"], by_sum["alpha"], rtol=1e-9, atol=1e-12)
    assert (got["document"] == TOTAL).all()
    assert list(got["coefficient"]) == list(by_sum["coefficient"])


def test_per_document_rows_are_each_documents_statistics() -> None:
    spans = [("A", "d1", 0, 4, "x"), ("B", "d1", 1, 4, "x"), ("B", "d1", 5, 8, "y"),
             ("A", "d2", 2, 6, "y"), ("B", "d2", 2, 5, "y"), ("A", "d2", 7, 9, "x"),
             ("B", "d2", 7, 9, "y")]
    lengths = {"d1": 10, "d2": 12, "d3": 5}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InputWarning)
        out = unitizing_family(spans, lengths, per_document=True)
        stats = unitizing_family_stats(spans, lengths)
        for doc in lengths:
            want = stats[doc].coefficients()
            got = out[(out.document == doc) & ~out.pooled].reset_index(drop=True)
            np.testing.assert_allclose(got["alpha"], want["alpha"])
    assert tuple(out.columns) == FAMILY_COLUMNS
    assert list(out[out.document == "d3"]["coefficient"]) == ["u_alpha", "bu_alpha",
                                                              "cu_alpha"]
    assert stats["d3"].categories == () and stats["d1"].categories == ("x", "y")
    pooled = out[out.pooled]
    assert list(pooled["category"].iloc[3:]) == ["x", "y"] and pooled["length"].iloc[0] == 27


def test_statistics_of_other_annotators_do_not_add() -> None:
    one = unitizing_family_stats([("A", "d", 0, 2, "x"), ("B", "d", 0, 2, "x")], {"d": 3})["d"]
    two = unitizing_family_stats([("A", "d", 0, 2, "x"), ("C", "d", 0, 2, "x")], {"d": 3})["d"]
    with pytest.raises(ParameterError, match="different annotators"):
        one + two


# ---------------------------------------------------------------------------- edge cases
def _alphas(spans: list[tuple[Any, ...]], lengths: dict[Hashable, int], **kw: Any
            ) -> tuple[dict[Any, float], Ledger]:
    with Ledger() as ledger:
        out = unitizing_family(spans, lengths, **kw)
    return ({(r.category if r.coefficient == "ku_alpha" else r.coefficient): r.alpha
             for r in out.itertuples()}, ledger)


def test_identical_annotations_give_one_where_defined() -> None:
    marks = [(0, 3, "x"), (3, 5, "y"), (8, 10, "x")]
    spans = [(a, "d", s, e, c) for a in "ABC" for s, e, c in marks]
    got, ledger = _alphas(spans, {"d": 12})
    assert got == {"u_alpha": 1.0, "bu_alpha": 1.0, "cu_alpha": 1.0, "x": 1.0, "y": 1.0}
    assert not ledger.notices


def test_one_annotator_marking_nothing_is_not_agreement() -> None:
    """DKPro's alpha_U gave 1 when one of three annotators marked a unit and the others
    nothing (dkpro-statistics issue 2); here the units are all disagreement: 0."""
    got, _ = _alphas([("A", "d", 0, 1, "X")], {"d": 20}, annotators=["A", "B", "C"])
    assert got["u_alpha"] == 0.0 and got["bu_alpha"] == 0.0
    assert np.isnan(got["cu_alpha"]) and np.isnan(got["X"])
    spans = [("A", "d", 2, 6, "x"), ("A", "d", 9, 12, "y")]
    got, _ = _alphas(spans, {"d": 15}, annotators=["A", "B"])
    assert got["u_alpha"] < 0.5 and got["u_alpha"] == pytest.approx(
        brute([("A", 2, 6, "x"), ("A", 9, 12, "y")], 15, ["A", "B"], ["x", "y"])["u_alpha"])


def test_no_unit_at_all_is_undefined_with_a_notice() -> None:
    got, ledger = _alphas([], {"d": 10}, annotators=["A", "B"])
    assert all(np.isnan(v) for v in got.values())
    assert [n.kind for n in ledger.notices] == ["undefined"]
    assert "u_alpha in 1" in ledger.notices[0].message


def test_a_single_category() -> None:
    spans = [("A", "d", 0, 4, "x"), ("B", "d", 1, 5, "x"), ("B", "d", 7, 9, "x")]
    got, ledger = _alphas(spans, {"d": 10})
    assert got["u_alpha"] == got["bu_alpha"] and not np.isnan(got["u_alpha"])
    assert np.isnan(got["cu_alpha"]) and np.isnan(got["x"])
    assert "one category" in ledger.notices[0].message


def test_no_gap_leaves_bu_alpha_undefined() -> None:
    spans = [("A", "d", 0, 5, "x"), ("A", "d", 5, 10, "y"), ("B", "d", 0, 6, "x"),
             ("B", "d", 6, 10, "y")]
    got, _ = _alphas(spans, {"d": 10})
    assert np.isnan(got["bu_alpha"]) and not np.isnan(got["u_alpha"])


def test_touching_units_of_one_category_stay_two_units() -> None:
    """Two units that meet are two sections: alike in the coincidences, not in the expected
    ones (4 + 1 squared, not 9)."""
    apart = [("A", 0, 2, "x"), ("A", 2, 3, "x"), ("B", 0, 4, "x")]
    joined = [("A", 0, 3, "x"), ("B", 0, 4, "x")]
    assert fast(apart, 6, ["A", "B"], ["x"])["u_alpha"] != \
        fast(joined, 6, ["A", "B"], ["x"])["u_alpha"]
    same(fast(apart, 6, ["A", "B"], ["x"]), brute(apart, 6, ["A", "B"], ["x"]))


def test_the_mean_reading_survives_where_the_others_break_down() -> None:
    """Three annotators, C marks nothing where A (x) and B (y) overlap: under the pairwise and
    union readings ``l*.. - sum S* / l*..`` is 0 and -10, so cu-alpha is undefined; the mean
    reading gives each unit half its length (one of two others marks there): 0, as alpha of one
    unit coded x and y."""
    spans = [("A", "d", 0, 10, "x"), ("B", "d", 0, 10, "y")]
    names = ["A", "B", "C"]
    got, _ = _alphas(spans, {"d": 10}, annotators=names)
    assert got["cu_alpha"] == pytest.approx(0.0)
    for reading in ("pairwise", "union"):
        got, ledger = _alphas(spans, {"d": 10}, annotators=names, self_pairs=reading)
        assert np.isnan(got["cu_alpha"]) and np.isnan(got["x"])
        assert "not defined" in ledger.notices[0].message


def test_zero_length_and_nested_spans_are_refused() -> None:
    with pytest.raises(InputError, match="empty"):
        unitizing_family([("A", "d", 3, 3, "x"), ("B", "d", 0, 2, "x")], {"d": 5})
    with pytest.raises(InputError, match=r"span 0 .* and span 2 .* overlap"):
        unitizing_family([("A", "d", 0, 6, "x"), ("B", "d", 0, 2, "x"), ("A", "d", 2, 4, "y")],
                         {"d": 8})
    # nested in another document, or by another annotator: allowed
    with Ledger():
        unitizing_family([("A", "d", 0, 6, "x"), ("B", "d", 2, 4, "x"),
                          ("A", "e", 2, 4, "y")], {"d": 8, "e": 8})


def test_spans_outside_the_continuum_are_refused() -> None:
    with pytest.raises(InputError, match="ends after its document"):
        unitizing_family([("A", "d", 0, 6, "x"), ("B", "d", 0, 2, "x")], {"d": 5})
    with pytest.raises(InputError, match="lengths does not give"):
        unitizing_family([("A", "e", 0, 2, "x"), ("B", "d", 0, 2, "x")], {"d": 5})
    with pytest.raises(InputError, match="not among"):
        unitizing_family([("A", "d", 0, 2, "x"), ("B", "d", 0, 2, "q")], {"d": 5},
                         categories=["x"])


def test_bad_arguments() -> None:
    spans = [("A", "d", 0, 2, "x"), ("B", "d", 0, 2, "x")]
    with pytest.raises(ParameterError, match="two annotators"):
        unitizing_family([("A", "d", 0, 2, "x")], {"d": 5})
    with pytest.raises(ParameterError, match="self_pairs"):
        unitizing_family(spans, {"d": 5}, self_pairs="max")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="length"):
        unitizing_family(spans, {"d": 2.5})
    with pytest.raises(ParameterError, match="compares sets"):
        unitizing_family(spans, {"d": 5}, distance="jaccard")
    with pytest.raises(ParameterError, match="needs numbers"):
        unitizing_family(spans, {"d": 5}, distance="interval")
    with pytest.raises(TypeError, match="lengths must map"):
        unitizing_family(spans, [5])  # type: ignore[arg-type]


def test_spans_of_annotators_not_compared_are_left_out_with_a_notice() -> None:
    spans = [("A", "d", 0, 2, "x"), ("B", "d", 0, 2, "x"), ("C", "d", 2, 4, "x")]
    with Ledger() as ledger:
        out = unitizing_family(spans, pd.Series({"d": 5}), annotators=["A", "B"])
    assert ledger.notices[0].kind == "ignored"
    assert out.set_index("coefficient").loc["u_alpha", "alpha"] == 1.0


# ------------------------------------------------------------- a second implementation
def test_u_alpha_against_the_krippendorff_unitized_alpha_package() -> None:
    """The ``krippendorff-unitized-alpha`` package (PyPI 0.1.0, u-alpha only) computes the
    same coincidences and expected coincidences from sections given with their gaps."""
    package = pytest.importorskip("krippendorff_unitized_alpha.krippendorffs_unitized_alpha")
    rng = np.random.default_rng(7)
    for _ in range(20):
        length, names = int(rng.integers(5, 40)), ["a", "b", "c"][: int(rng.integers(2, 4))]
        spans, sections = [], {}
        for a in names:
            cuts = sorted({0, length, *rng.integers(0, length + 1, 6).tolist()})
            sections[a] = []
            for s, e in pairwise(cuts):
                tag = ["x", "y", None][int(rng.integers(0, 3))]
                sections[a].append(package.Segment(tag or package.EMPTY_TAG, s, e))
                if tag:
                    spans.append((a, s, e, tag))
        want = package.KrippendorffUnitizedAlpha(sections).result
        got = fast(spans, length, names, ["x", "y"])["u_alpha"]
        assert got == pytest.approx(want, abs=1e-9) or (np.isnan(got) and np.isnan(want))


def test_the_reproduction_script_runs(tmp_path: Path) -> None:
    script = Path(__file__).resolve().parent.parent / "scripts" / \
        "reproduce_krippendorff2016.py"
    out = tmp_path / "k2016.md"
    printed = subprocess.run([sys.executable, str(script), "--out", str(out)], check=True,
                             capture_output=True, text=True).stdout
    text = out.read_text()
    assert printed == text
    assert "11 of 11 hand-worked values agree." in text
    assert "| c | 0.7286 | 0.7286 | 0.5163 | 0.5163 | 0.5163 | yes |" in text
