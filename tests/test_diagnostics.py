"""Where the disagreement sits: every diagnostic checked against alpha recomputed on the reduced
or recoded table, against the definition, or against Krippendorff's published matrix."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from clusteragree import AlphaUndefinedWarning, CodingTable, alpha
from clusteragree.core.diagnostics import (
    annotator_agreement,
    coincidence_matrix,
    per_category,
    unit_disagreement,
    worst_units,
)

K2011 = [[1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
         [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None]]


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AlphaUndefinedWarning)
        return fn(*args, **kwargs)


def _same(x: float, y: float) -> bool:
    return (math.isnan(x) and math.isnan(y)) or abs(x - y) <= 1e-9


def test_coincidences_of_krippendorff_2011() -> None:
    """The matrix printed by Krippendorff (2011) for his 4 coders x 12 units (values 1..5)."""
    third = Fraction(1, 3)
    published = [[7, 4 * third, third, third, 0],
                 [4 * third, 10, 4 * third, third, 0],
                 [third, 4 * third, 8, third, 0],
                 [third, third, third, 4, 0],
                 [0, 0, 0, 0, 3]]
    frame = coincidence_matrix(CodingTable.from_matrix(K2011, coders=list("ABCD")))
    assert list(frame.index) == ["1", "2", "3", "4", "5"]
    for i in range(5):
        for j in range(5):
            assert frame.iloc[i, j] == pytest.approx(float(published[i][j]), abs=1e-12)
    assert frame["n_v"].tolist() == pytest.approx([9, 13, 10, 5, 3])


@st.composite
def tables(draw: st.DrawFn) -> list[tuple[str, int, object]]:
    sets = draw(st.booleans())
    value = (st.frozensets(st.sampled_from("abc"), max_size=2) if sets
             else st.sampled_from("abcd"))
    records = []
    for u in range(draw(st.integers(1, 8))):
        for c in range(draw(st.integers(2, 4))):
            v = draw(st.one_of(st.none(), value))
            if v is not None:
                records.append((f"c{c}", u, v))
    return records


def _brute_coincidences(records) -> dict[tuple[object, object], float]:
    by_unit: dict[int, list[object]] = {}
    for _, unit, value in records:
        by_unit.setdefault(unit, []).append(value)
    out: dict[tuple[object, object], float] = {}
    for values in by_unit.values():
        if len(values) < 2:
            continue
        for i, v in enumerate(values):
            for j, w in enumerate(values):
                if i != j:
                    out[v, w] = out.get((v, w), 0.0) + 1.0 / (len(values) - 1)
    return out


@settings(max_examples=80, deadline=None)
@given(tables())
def test_unit_shares_add_up_to_the_observed_disagreement(records) -> None:
    assume(records)
    table = CodingTable.from_records(records)
    kind = table.value_kind
    for name in (["nominal", "jaccard", "masi"] if kind == "set" else ["nominal"]):
        result = _quiet(alpha, table, name)
        assume(result.n >= 2)
        units = unit_disagreement(table, name)
        assert units["disagreement"].sum() == pytest.approx(result.D_o * result.n, abs=1e-9)
        assert len(units) == result.units
        if units["disagreement"].sum() > 0:
            assert units["share"].sum() == pytest.approx(1.0)
    matrix = coincidence_matrix(table)
    brute = _brute_coincidences(records)
    label = {v: ("{" + ", ".join(sorted(v)) + "}" if isinstance(v, frozenset) else str(v))
             for _, _, v in records}
    for (v, w), o in brute.items():
        assert matrix.loc[label[v], label[w]] == pytest.approx(o)
    assert matrix.drop(columns="n_v").to_numpy().sum() == pytest.approx(sum(brute.values()))


@settings(max_examples=60, deadline=None)
@given(tables())
def test_left_out_and_pairwise_alphas_are_alpha_of_the_smaller_tables(records) -> None:
    coders = sorted({c for c, _, _ in records})
    assume(len(coders) >= 2)
    table = CodingTable.from_records(records)
    left_out, pairs = _quiet(annotator_agreement, table, "nominal")
    for row in left_out.itertuples():
        others = [r for r in records if r[0] != row.coder]
        expected = (_quiet(alpha, CodingTable.from_records(others), "nominal").alpha
                    if len({c for c, _, _ in others}) >= 2 else float("nan"))
        assert _same(row.alpha_without, expected)
    for a in coders:
        for b in coders:
            if a < b:
                pair = [r for r in records if r[0] in (a, b)]
                assert _same(float(pairs.loc[a, b]),
                             _quiet(alpha, CodingTable.from_records(pair), "nominal").alpha)


@settings(max_examples=60, deadline=None)
@given(tables())
def test_one_versus_rest_is_alpha_of_the_recoded_table(records) -> None:
    assume(records)
    table = CodingTable.from_records(records)
    frame = per_category(table).set_index("category")
    labels = {lab for _, _, v in records for lab in (v if isinstance(v, frozenset) else [v])}
    assert set(frame.index) == {str(x) for x in labels}
    for lab in labels:
        recoded = [(c, u, (lab in v) if isinstance(v, frozenset) else (v == lab))
                   for c, u, v in records]
        expected = _quiet(alpha, CodingTable.from_records(recoded), "nominal").alpha
        assert _same(float(frame.loc[str(lab), "alpha"]), expected)


def test_worst_units_name_every_annotator() -> None:
    table = CodingTable.from_matrix(K2011, coders=list("ABCD"), units=range(1, 13))
    top = worst_units(table, "nominal", k=2)
    # unit 6: four different values, 12 disagreeing ordered pairs / 3 = 4; then units 2 and 8
    # (three equal values and one other: 6 / 3 = 2), the first in table order
    assert top["key"].tolist() == [6, 2] and top["unit"].tolist() == ["6", "2"]
    assert top["disagreement"].tolist() == pytest.approx([4.0, 2.0])
    assert top.loc[0, ["A", "B", "C", "D"]].tolist() == ["1", "2", "3", "4"]
    with pytest.raises(ValueError, match="positive whole number"):
        worst_units(table, k=0)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.one_of(st.none(), st.integers(1, 4)), min_size=6, max_size=6),
                min_size=2, max_size=4))
def test_coincidences_equal_the_krippendorff_packages(rows) -> None:
    """The krippendorff package's own coincidence matrix (its private helpers: the package
    exposes no public one) on the same reliability data."""
    import numpy as np

    kpackage = pytest.importorskip("krippendorff.krippendorff")
    table = CodingTable.from_matrix(rows, coders=[f"c{k}" for k in range(len(rows))])
    data = np.array([[np.nan if v is None else float(v) for v in row] for row in rows])
    domain = np.array([1.0, 2.0, 3.0, 4.0])
    counts = kpackage._reliability_data_to_value_counts(data, domain)
    pairable = counts.sum(axis=1) >= 2
    assume(pairable.sum() >= 1)
    theirs = kpackage._coincidences(counts[pairable], dtype=np.float64)
    ours = coincidence_matrix(table)
    for i, v in enumerate(domain):
        for j, w in enumerate(domain):
            label_v, label_w = str(int(v)), str(int(w))
            mine = (ours.loc[label_v, label_w] if label_v in ours.index
                    and label_w in ours.columns else 0.0)
            assert mine == pytest.approx(theirs[i, j], abs=1e-12)
