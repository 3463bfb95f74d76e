"""The Python API refuses wrong arguments precisely, and dispatches distances by what they are.

Each refusal is one of the package's errors (a TypeError or ValueError subclass) naming the
argument; the numbers are checked against the ``krippendorff`` package (reliability data with
missing values, every level of measurement) and against the brute-force definition.
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import krippendorff
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import brute_alpha

from clusteragree import (
    AlphaUndefinedWarning,
    CodingTable,
    InputError,
    ParameterError,
    alpha,
    alpha_many,
)
from clusteragree.core.distances import DISTANCES, Distance
from clusteragree.errors import (
    ClusterAgreeError,
    InputWarning,
    ParameterTypeError,
)

SETS = [("A", 1, {"x"}), ("B", 1, {"x", "y"}), ("A", 2, {"z"}), ("B", 2, {"z"})]


@pytest.mark.parametrize("missing", [None, math.nan, pd.NA, np.float64("nan")])
def test_a_missing_label_inside_a_set_is_refused_naming_the_record(missing: object) -> None:
    # A missing label inside a set used to reach the sparse incidence matrix with index -1
    # and corrupt the heap (SIGABRT at exit).
    records = [*SETS, ("A", 3, {"x", missing}), ("B", 3, {"x"})]
    with pytest.raises(InputError, match=r"record 5: label set .* holds a missing label"):
        CodingTable.from_records(records)
    with pytest.raises(InputError, match="missing label"):
        CodingTable.from_matrix([[{"x"}, ["y", missing]], [{"x"}, {"y"}]])


def test_a_missing_cell_is_not_a_missing_label() -> None:
    for missing in (None, math.nan, pd.NA):
        table = CodingTable.from_records([*SETS, ("A", 3, missing), ("B", 3, {"x"})])
        assert table.value("A", 3) is None


@pytest.mark.parametrize("junk", [None, 3, "table", {"A": 1}, b"xx", [1, 2, 3]])
def test_alpha_names_what_it_accepts(junk: object) -> None:
    with pytest.raises(ParameterTypeError, match="CodingTable"):
        alpha(junk)  # type: ignore[arg-type]


def test_alpha_refuses_a_dataframe_and_says_how_to_choose_a_layout() -> None:
    df = pd.DataFrame({"coder": ["A", "B"], "unit": [1, 1], "value": [1, 2]})
    with pytest.raises(ParameterTypeError, match=r"layout='long'\) or layout='wide'"):
        alpha(df, "nominal")  # type: ignore[arg-type]
    assert isinstance(ParameterTypeError("x"), TypeError)


def test_reliability_data_as_a_2d_list_or_array_agrees_with_krippendorff() -> None:
    # Krippendorff (2011), the 4 coders x 12 units example with missing values.
    data = [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
        [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
    ]
    array = np.array([[np.nan if v is None else v for v in row] for row in data])
    for level in ("nominal", "ordinal", "interval", "ratio"):
        expected = krippendorff.alpha(reliability_data=array, level_of_measurement=level)
        assert alpha(data, level).alpha == pytest.approx(expected, abs=1e-12)
        assert alpha(array, level).alpha == pytest.approx(expected, abs=1e-12)
    assert alpha(data, "nominal").alpha == pytest.approx(0.743, abs=5e-4)  # the paper's value


def test_ragged_reliability_data_is_refused() -> None:
    with pytest.raises(ParameterError, match="different lengths"):
        CodingTable.from_matrix([[1, 2, 3], [1, 2]])
    with pytest.raises(ParameterError, match="2-D"):
        CodingTable.from_matrix(np.zeros((2, 2, 2)))
    with pytest.raises(ParameterTypeError, match="from_dataframe"):
        CodingTable.from_matrix(pd.DataFrame({"u": [1, 2]}))


@pytest.mark.parametrize("junk", [None, 7, "records", {"A": 1}, pd.DataFrame({"a": [1]})])
def test_from_records_names_what_it_accepts(junk: object) -> None:
    with pytest.raises(ParameterTypeError, match="records must be an iterable"):
        CodingTable.from_records(junk)  # type: ignore[arg-type]


def test_unhashable_coders_units_and_labels_are_input_errors() -> None:
    with pytest.raises(InputError, match=r"record 1: coder .* not hashable"):
        CodingTable.from_records([(["A"], 1, "x")])
    with pytest.raises(InputError, match=r"record 2: coder .* not hashable"):
        CodingTable.from_records([("A", 1, "x"), ("B", {"u": 1}, "x")])
    with pytest.raises(InputError, match="unhashable label"):
        CodingTable.from_records([("A", 1, [["nested"]])])
    with pytest.raises(InputError, match="not hashable"):
        CodingTable.from_records([("A", 1, {"a": 1})])


@pytest.mark.parametrize("junk", [[1, 2, 3], "abc", 5, None])
def test_from_clusterings_wants_a_mapping(junk: object) -> None:
    with pytest.raises(ParameterTypeError, match="clusterings must be a mapping"):
        CodingTable.from_clusterings(junk)  # type: ignore[arg-type]
    with pytest.raises(ParameterTypeError, match="coder 'A'"):
        CodingTable.from_clusterings({"A": "aab", "B": [1, 1, 2]})


def test_class_ids_beyond_int64_are_kept() -> None:
    # uint64 ids above 2**63 used to wrap to negative numbers and read as missing.
    big = np.array([2**63, 2**63, 2**64 - 1], dtype=np.uint64)
    other = {"A": np.array([0, 0, 1]), "B": np.array([5, 5, 5])}
    table = CodingTable.from_clusterings({"A": big, "B": other["B"]})
    assert table.present.all()
    assert alpha(table, "jaccard").alpha == pytest.approx(
        alpha(CodingTable.from_clusterings(other), "jaccard").alpha)
    huge = CodingTable.from_clusterings({"A": {"x": 10**30, "y": 10**30, "z": 1},
                                         "B": {"x": 1, "y": 1, "z": 2}})
    assert huge.present.all()


def test_mixing_sets_and_scalars_is_refused_on_every_path() -> None:
    with pytest.raises(InputError, match="one kind of value"):
        CodingTable.from_records([("A", 1, {"x"}), ("B", 1, "x")])
    with pytest.raises(InputError, match="one kind of value"):
        CodingTable.from_matrix([[{"x"}, 1], [{"y"}, 2]])
    with pytest.raises(InputError, match="one kind of value"):
        CodingTable.from_dataframe(pd.DataFrame({"u1": [{"x"}, "x"]}, index=["A", "B"]),
                                   layout="wide")


def test_scalar_levels_asked_of_sets_are_refused() -> None:
    sets = CodingTable.from_records(SETS)
    for name in ("ordinal", "interval", "ratio"):
        with pytest.raises(ParameterError, match="sets"):
            alpha(sets, name)


def test_alpha_many_wants_a_list_and_nothing_to_compare_is_an_error() -> None:
    table = CodingTable.from_records(SETS)
    with pytest.raises(ParameterTypeError, match="list of distances"):
        alpha_many(table, "masi")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="nothing to compare"):
        alpha(CodingTable.from_records([]))
    with pytest.raises(InputError, match="nothing to compare"):
        alpha(CodingTable.from_records([("A", 1, None), ("B", 1, None)]))
    with warnings.catch_warnings(record=True) as caught:  # one coder: undefined, not empty
        warnings.simplefilter("always")
        assert math.isnan(alpha(CodingTable.from_records([("A", 1, {"x"})])).alpha)
    assert any(issubclass(w.category, AlphaUndefinedWarning) for w in caught)


# ---------------------------------------------------------------- dispatch by what it is
SCALARS = [("A", 1, 1), ("B", 1, 2), ("A", 2, 3), ("B", 2, 3), ("A", 3, 1), ("B", 3, 4),
           ("C", 3, 4), ("C", 1, 2)]


def _cells(records: list[tuple[str, int, object]]) -> dict[tuple[str, int], object]:
    return {(c, u): v for c, u, v in records}


def test_a_user_distance_named_interval_is_not_the_builtin_interval() -> None:
    absolute = Distance("interval", "scalar", lambda x, y: np.abs(np.asarray(x) - y))
    got = alpha(CodingTable.from_records(SCALARS), absolute)
    ref = brute_alpha(_cells(SCALARS), lambda a, b: Fraction(abs(a - b)))
    assert ref is not None
    assert got.D_o == pytest.approx(float(ref[0]))
    assert got.D_e == pytest.approx(float(ref[1]))
    builtin = alpha(CodingTable.from_records(SCALARS), "interval")
    assert builtin.alpha != pytest.approx(got.alpha)
    as_callable = alpha(CodingTable.from_records(SCALARS),
                        lambda x, y: abs(x - y))  # a plain function: the same numbers
    assert as_callable.alpha == pytest.approx(got.alpha)


def test_a_user_distance_named_nominal_is_summed_pair_by_pair() -> None:
    half = Distance("nominal", "value", lambda x, y: 0.5 * (x != y))
    ref = brute_alpha(_cells(SCALARS), lambda a, b: Fraction(int(a != b), 2))
    assert ref is not None
    got = alpha(CodingTable.from_records(SCALARS), half)
    assert got.D_o == pytest.approx(float(ref[0]))


def test_ordinal_is_a_real_distance_once_bound() -> None:
    ordinal = DISTANCES["ordinal"]
    assert ordinal.marginal and ordinal.numeric
    with pytest.raises(ParameterError, match="bind"):
        ordinal(1, 2)
    bound = ordinal.bind([1, 2, 3], [4, 2, 6])  # mid-ranks 2, 5, 9
    assert bound(1, 3) == 49.0 and bound(2, 2) == 0.0
    # Krippendorff's form: (sum_{g=c..k} n_g - (n_c + n_k) / 2)^2
    assert bound(1, 3) == (4 + 2 + 6 - (4 + 6) / 2) ** 2
    with pytest.raises(ParameterError, match="sets"):
        ordinal.bind([frozenset("a")], [1])
    with pytest.raises(ParameterError, match="ordered"):
        ordinal.bind([1, "a"], [1, 1])


@st.composite
def reliability_data(draw: st.DrawFn) -> np.ndarray:
    coders = draw(st.integers(2, 5))
    units = draw(st.integers(2, 12))
    values = st.one_of(st.none(), st.integers(1, 5))
    rows = [[draw(values) for _ in range(units)] for _ in range(coders)]
    return np.array([[np.nan if v is None else float(v) for v in r] for r in rows])


@settings(max_examples=150, deadline=None)
@given(reliability_data(), st.sampled_from(["nominal", "ordinal", "interval", "ratio"]))
def test_every_level_agrees_with_the_krippendorff_package(data: np.ndarray, level: str) -> None:
    try:
        expected = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
    except (ValueError, ZeroDivisionError):  # the package refuses data with < 2 values
        expected = math.nan
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AlphaUndefinedWarning)
            got = alpha(data, level).alpha
    except InputError:  # nothing coded at all
        assert np.isnan(data).all()
        return
    if math.isnan(got):
        assert math.isnan(expected) or not math.isfinite(expected)
    else:
        assert got == pytest.approx(expected, abs=1e-9)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(), st.text(max_size=3), st.floats(),
                          st.lists(st.integers(), max_size=2),
                          st.dictionaries(st.text(), st.none()),
                          st.frozensets(st.one_of(st.none(), st.integers()), max_size=2)),
                min_size=1, max_size=6))
def test_junk_values_end_in_a_result_or_a_package_error(values: list[object]) -> None:
    records = [(f"c{i % 2}", i // 2, v) for i, v in enumerate(values)]
    for distance in ("nominal", "jaccard", "interval", "ordinal"):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", AlphaUndefinedWarning)
                warnings.simplefilter("ignore", InputWarning)
                alpha(CodingTable.from_records(records), distance)
        except ClusterAgreeError:
            pass


# ---------------------------------------------------------------- the other domains
def test_other_public_functions_name_what_they_accept() -> None:
    from clusteragree.core import kappa
    from clusteragree.coref import coref_alpha, coref_metrics, score
    from clusteragree.labels import MultiLabel, a_m, augmented_kappa, measures_table, mv_alpha
    from clusteragree.pyramids import pan_agreement, pyramid_agreement, read_pyramid
    from clusteragree.trees import tree_alpha

    calls = [
        (lambda: coref_alpha(None), "CorefCorpus"), (lambda: coref_alpha("a.conll"), "CorefCorpus"),
        (lambda: coref_metrics([3, 4]), "CorefCorpus"), (lambda: score(None, []), "key"),
        (lambda: measures_table(3), "MultiLabel"), (lambda: a_m(None), "MultiLabel"),
        (lambda: mv_alpha(3), "mapping"), (lambda: kappa.cohen_kappa(None), "CodingTable"),
        (lambda: pyramid_agreement("a.pyr"), "list of files"),
        (lambda: pan_agreement(None), "list of files"), (lambda: read_pyramid(3), "path"),
        (lambda: tree_alpha(3), "CodingTable"),
    ]
    for call, words in calls:
        with pytest.raises(ParameterTypeError, match=words):
            call()
    data = MultiLabel.from_records([("i1", "A", "x"), ("i1", "B", "x")])
    with pytest.raises(ParameterTypeError, match="primary weight"):
        augmented_kappa(data, p="x")  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match="two or more annotators"):
        coref_alpha([])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["A", "B", "C"]), st.integers(0, 6),
                          st.one_of(st.none(), st.integers(0, 3), st.sampled_from(["x", "y"]))),
                max_size=20, unique_by=lambda r: (r[0], r[1])),
       st.booleans())
def test_the_vectorised_dataframe_entry_equals_records(rows: list, sets: bool) -> None:
    if sets:
        rows = [(c, u, None if v is None else {str(v), "z"}) for c, u, v in rows]
    df = pd.DataFrame(rows, columns=["coder", "unit", "value"])
    try:
        expected = CodingTable.from_records(rows)
    except InputError:
        with pytest.raises(InputError):
            CodingTable.from_dataframe(df)
        return
    got = CodingTable.from_dataframe(df)
    assert sorted(map(str, got.coders)) == sorted(map(str, expected.coders))
    for c, u, _ in rows:
        assert got.value(c, u) == expected.value(c, u)


def test_a_frame_that_is_not_long_is_refused_not_guessed() -> None:
    wide = pd.DataFrame({"u1": [1, 2], "u2": [2, 2]}, index=["A", "B"])
    with pytest.raises(InputError, match="layout='wide'"):
        CodingTable.from_dataframe(wide)
    named = pd.DataFrame({"rater": ["A", "B"], "item": [1, 1], "code": [1, 2]})
    table = CodingTable.from_dataframe(named, coder="rater", unit="item", value="code")
    assert table.value("B", 1) == 2
    with pytest.raises(InputError, match=r"record 2: coder 'A' coded unit 1 twice"):
        CodingTable.from_dataframe(pd.DataFrame({"coder": ["A", "A"], "unit": [1, 1],
                                                 "value": [1, 2]}))


@settings(max_examples=40, deadline=None)
@given(st.integers(9, 12), st.integers(2, 8), st.randoms(use_true_random=False))
def test_many_coders_take_the_enumerating_path_with_the_same_numbers(
        n_coders: int, n_units: int, rnd) -> None:
    # With more than FEW_CODERS coders the generic engine enumerates the pairs of values of
    # each unit instead of counting coder by coder: both against the brute-force definition.
    cells = {(f"c{c}", u): rnd.choice([None, 1, 2, 3]) for c in range(n_coders)
             for u in range(n_units)}
    cells = {k: v for k, v in cells.items() if v is not None}
    if sum(1 for u in range(n_units) if sum((c, u) in cells for c in
                                            (f"c{k}" for k in range(n_coders))) >= 2) == 0:
        return
    table = CodingTable.from_records([(c, u, v) for (c, u), v in cells.items()])
    ref = brute_alpha(cells, lambda a, b: Fraction((a - b) ** 2))
    assert ref is not None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AlphaUndefinedWarning)
        got = alpha(table, "interval")
    assert got.D_o == pytest.approx(float(ref[0]))
    assert got.D_e == pytest.approx(float(ref[1]))
