"""Krippendorff's unitizing alpha: the published examples (Krippendorff 2004, p. 254: its
distances, disagreements and alphas; Krippendorff 1995, p. 57: four categories), the observed
disagreement against a brute-force reading of its definition, and what must hold whatever the
units."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree.core.unitizing import (
    section_distance,
    unitizing_alpha,
    unitizing_stats,
)
from clusteragree.errors import InputError

# Krippendorff (2004, p. 254): two observers on the continuum [150, 450), categories c and k,
# as (observer, begin, length, category); printed: D_o(c) 0.0144, D_e(c) 0.0532, alpha(c)
# 0.7286; D_o(k) 0, D_e(k) 0.0490, alpha(k) 1; over both 0.8591 (from the rounded values).
BOOK = [(0, 225, 70, "c"), (0, 370, 30, "c"), (1, 220, 80, "c"), (1, 355, 20, "c"),
        (1, 400, 20, "c"), (0, 180, 60, "k"), (0, 300, 50, "k"), (1, 180, 60, "k"),
        (1, 300, 50, "k")]


def book_stats():
    return unitizing_stats([(r, b, b + n, c) for r, b, n, c in BOOK], 300, begin=150)


def test_the_published_distances() -> None:
    assert section_distance(225, 295, True, 220, 300, True) == 50
    assert section_distance(370, 400, True, 355, 375, True) == 850
    assert section_distance(400, 450, False, 400, 420, True) == 400
    # the small cases: a unit against units shifted and shortened, and inside gaps
    assert section_distance(5, 11, True, 4, 6, True) == 26
    assert section_distance(5, 11, True, 7, 9, True) == 8
    assert section_distance(2, 5, False, 2, 4, True) + section_distance(
        5, 11, True, 4, 11, False) == 40
    assert section_distance(0, 3, False, 5, 9, False) == 0
    assert section_distance(0, 4, True, 2, 8, False) == 0  # only partly in the gap


def test_the_published_example() -> None:
    stats = book_stats()
    d_o, d_e = stats.disagreements("c")
    assert round(d_o, 4) == 0.0144 and round(d_e, 4) == 0.0532
    assert round(stats.alpha("c"), 4) == 0.7286
    d_o, d_e = stats.disagreements("k")
    assert d_o == 0 and round(d_e, 4) == 0.0490 and stats.alpha("k") == 1
    rounded = 1 - 0.0144 / (0.0532 + 0.0490)
    assert round(rounded, 4) == 0.8591  # the printed value, from the rounded disagreements
    assert stats.alpha() == pytest.approx(1 - 1300 / 90000 / sum(
        stats.disagreements(c)[1] for c in "ck"))


def _brute_observed(units: list[tuple], raters: list, length: int) -> float:
    """Every section of every rater against every overlapping section of every other rater,
    read straight from the definition."""
    total = 0.0
    for a in raters:
        for b in raters:
            if a == b:
                continue
            sa, sb = _cut(units, a, length), _cut(units, b, length)
            for g in sa:
                for h in sb:
                    if g[0] < h[1] and h[0] < g[1]:
                        if g[2] and h[2]:
                            total += (g[0] - h[0]) ** 2 + (g[1] - h[1]) ** 2
                        elif g[2] and h[0] <= g[0] and g[1] <= h[1]:
                            total += (g[1] - g[0]) ** 2
                        elif h[2] and g[0] <= h[0] and h[1] <= g[1]:
                            total += (h[1] - h[0]) ** 2
    return total / (len(raters) * (len(raters) - 1) * length * length)


def _cut(units: list[tuple], rater, length: int) -> list[tuple]:
    marks = sorted((b, e) for r, b, e, _ in units if r == rater)
    out, pos = [], 0
    for b, e in marks:
        if b > pos:
            out.append((pos, b, False))
        out.append((b, e, True))
        pos = e
    if pos < length:
        out.append((pos, length, False))
    return out


@st.composite
def unitizations(draw):
    """Two to four raters, non-overlapping units of one category on a continuum of 30."""
    raters = list(range(draw(st.integers(2, 4))))
    units = []
    for r in raters:
        pos = 0
        while pos < 30 and draw(st.booleans()):
            b = pos + draw(st.integers(0, 6))
            e = b + draw(st.integers(1, 8))
            if e > 30:
                break
            units.append((r, b, e, "x"))
            pos = e
    return raters, units


@settings(max_examples=200, deadline=None)
@given(unitizations())
def test_observed_disagreement_is_its_definition(case) -> None:
    raters, units = case
    stats = unitizing_stats(units, 30, raters=raters, categories=["x"])
    assert stats.disagreements("x")[0] == pytest.approx(_brute_observed(units, raters, 30))


@settings(max_examples=200, deadline=None)
@given(unitizations(), st.integers(0, 50))
def test_shifting_or_repeating_the_raters_changes_nothing_it_should_not(case, shift) -> None:
    raters, units = case
    stats = unitizing_stats(units, 30, raters=raters, categories=["x"])
    moved = unitizing_stats([(r, b + shift, e + shift, c) for r, b, e, c in units], 30,
                            begin=shift, raters=raters, categories=["x"])
    assert moved.disagreements("x") == pytest.approx(stats.disagreements("x"), nan_ok=True)
    same = unitizing_stats([(r, b, e, c) for _, b, e, c in units if _ == raters[0]
                            for r in raters], 30, raters=raters, categories=["x"])
    d_o, d_e = same.disagreements("x")
    assert d_o == 0 and (d_e > 0) == any(u[0] == raters[0] for u in units)


def test_documents_pool_their_statistics() -> None:
    one = [(0, 2, 5, "x"), (1, 3, 5, "x")]
    two = [(0, 0, 4, "x"), (1, 0, 4, "x"), (1, 6, 8, "x")]
    pooled = unitizing_alpha({"d1": (10, one), "d2": (12, two)})
    added = unitizing_stats(one, 10, raters=[0, 1]) + unitizing_stats(two, 12, raters=[0, 1])
    assert pooled[None] == pytest.approx(added.alpha())
    assert added.length == 22 and sorted(added.units["x"].tolist()) == [2, 2, 3, 4, 4]
    # a document where no unit was marked still counts: its length, one gap per rater
    quiet = added + unitizing_stats([], 8, raters=[0, 1], categories=["x"])
    assert quiet.length == 30 and sorted(quiet.gaps["x"].tolist())[-2:] == [8, 8]


def test_bad_units_are_refused() -> None:
    with pytest.raises(InputError, match="overlapping units"):
        unitizing_stats([(0, 0, 4, "x"), (0, 3, 6, "x"), (1, 0, 2, "x")], 10)
    with pytest.raises(InputError, match="outside the continuum"):
        unitizing_stats([(0, 0, 12, "x"), (1, 0, 2, "x")], 10)
    with pytest.raises(InputError, match="two or more raters"):
        unitizing_stats([(0, 0, 2, "x")], 10)


# --------------------------------------------------------------- mentions as units (coreference)
def _conll(path: str, doc_cells: dict[str, list[str]]):
    from clusteragree.coref import parse_conll
    lines = []
    for name, cells in doc_cells.items():
        lines += [f"#begin document {name}",
                  *[f"{name} 0 {i} w{i} {c}" for i, c in enumerate(cells)], "#end document"]
    return parse_conll(lines, path)


def test_mentions_as_units_pool_documents_as_one_continuum() -> None:
    from clusteragree.coref import mentions_u_alpha
    a = _conll("a", {"d": ["(1", "1)", "-", "(2)", "-", "-"], "e": ["(3)", "-", "(3)", "-"]})
    b = _conll("b", {"d": ["(1", "-", "1)", "(2)", "-", "-"], "e": ["(3)", "-", "-", "(3)"]})
    frame = mentions_u_alpha([a, b], coders=["A", "B"], per_document=True)
    pooled, rows = frame.iloc[0], frame.iloc[1:].set_index("document")
    want = unitizing_alpha({"d": (6, [("A", 0, 2, "m"), ("A", 3, 4, "m"), ("B", 0, 3, "m"),
                                      ("B", 3, 4, "m")]),
                            "e": (4, [("A", 0, 1, "m"), ("A", 2, 3, "m"), ("B", 0, 1, "m"),
                                      ("B", 3, 4, "m")])})
    assert pooled["alpha"] == pytest.approx(want[None])
    assert pooled["units"] == 8 and pooled["tokens"] == 10
    d_only = unitizing_alpha({"d": (6, [("A", 0, 2, "m"), ("A", 3, 4, "m"),
                                        ("B", 0, 3, "m"), ("B", 3, 4, "m")])})
    assert rows.loc["d", "alpha"] == pytest.approx(d_only[None])
    # D_o of d by hand: [0, 2) against [0, 3): 0^2 + 1^2, both orders, over 2 x 1 x 6^2
    assert rows.loc["d", "D_o"] == pytest.approx(2 * 1 / (2 * 36))


def test_nested_mentions_are_left_out_and_crossing_ones_joined(cli, tmp_path) -> None:
    import json

    from clusteragree.coref import mention_units
    a = _conll("a", {"d": ["(1|(2", "2)", "1)", "-", "(3)"]})
    assert mention_units(a.documents["d"]) == ([(0, 3), (4, 5)], 1, 0)
    for name, cells in (("a.conll", ["(1|(2", "2)", "1)", "-", "(3)"]),
                        ("b.conll", ["(1", "1)", "-", "-", "(3)"])):
        (tmp_path / name).write_text("#begin document d\n" + "".join(
            f"d 0 {i} w{i} {c}\n" for i, c in enumerate(cells)) + "#end document\n")
    code, out, err = cli("coref", str(tmp_path / "a.conll"), str(tmp_path / "b.conll"),
                         "--metrics", "ualpha", "-f", "json")
    assert code == 0, err
    obj = json.loads(out)
    record = obj["results"][0]
    assert record["distance"] == "unitizing" and record["units"] == 4
    assert any(w["kind"] == "note" and "inside another mention" in w["message"]
               for w in obj["warnings"])
    code, text, _ = cli("coref", str(tmp_path / "a.conll"), str(tmp_path / "b.conll"),
                        "--metrics", "ualpha")
    assert code == 0 and text.startswith("Krippendorff's unitizing alpha (mentions over the "
                                         f"tokens): {record['alpha']:.4f}")


# Krippendorff (1995, p. 57): two coders, four categories on a continuum of 24, as (begin, length)
# per coder; the paper prints D_o and alpha of each (the alphas for the continuous case, i.e.
# the continuum stretched; its D_e has a small slip, so the alphas are compared to 0.02).
KRIPPENDORFF_1995 = {
    "A": ([(2, 8), (14, 6)], [(4, 4), (15, 2)]),
    "B": ([(0, 18)], [(0, 2), (2, 1), (3, 1), (4, 1), (5, 1), (6, 3), (9, 1)]),
    "C": ([(2, 6), (10, 2), (14, 4), (20, 2)], [(0, 2), (4, 4), (10, 4), (16, 2), (20, 2)]),
    "D": ([(0, 2), (2, 8), (10, 4), (14, 6), (20, 4)],
          [(0, 4), (4, 4), (8, 7), (15, 2), (17, 7)]),
}


def _stretched(stretch: int) -> list[tuple]:
    return [(coder, b * stretch, (b + n) * stretch, category)
            for category, sides in KRIPPENDORFF_1995.items()
            for coder, units in enumerate(sides) for b, n in units]


@pytest.mark.parametrize(("category", "d_o", "alpha"), [
    ("A", 0.03125, 0.553), ("B", 2.26736, -0.926), ("C", 0.02777, 0.679), ("D", 0.38715, 0.066)])
def test_krippendorff_1995_example(category: str, d_o: float, alpha: float) -> None:
    exact = unitizing_stats(_stretched(1), 24, raters=[0, 1])
    assert exact.disagreements(category)[0] == pytest.approx(d_o, abs=1e-5)
    continuous = unitizing_stats(_stretched(50_000), 24 * 50_000, raters=[0, 1])
    assert continuous.disagreements(category)[0] == pytest.approx(d_o, abs=1e-5)
    assert continuous.alpha(category) == pytest.approx(alpha, abs=0.02)
