"""The coding table and its constructors."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from clusteragree import AlphaUndefinedWarning, CodingTable, InputError, ParameterError, alpha


def test_from_records_sets_and_missing() -> None:
    t = CodingTable.from_records([("A", "u1", ["x", "y"]), ("B", "u1", {"x"}), ("B", "u2", None)])
    assert t.value("A", "u1") == frozenset({"x", "y"})
    assert t.value("B", "u2") is None and t.value("A", "u2") is None
    assert t.value_kind == "set"
    assert t.to_frame().shape == (2, 2)


def test_from_records_rejects_duplicates_mixed_kinds_and_unhashable() -> None:
    with pytest.raises(InputError, match=r"record 2: coder 'A' coded unit 1 twice"):
        CodingTable.from_records([("A", 1, "x"), ("A", 1, "y")])
    with pytest.raises(InputError, match=r"record 2: .* set value .* earlier values are scalars"):
        CodingTable.from_records([("A", 1, "x"), ("B", 1, {"y"})])
    with pytest.raises(InputError, match=r"record 1: value .* not hashable"):
        CodingTable.from_records([("A", 1, {"a": 1})])
    with pytest.raises(InputError, match=r"data.csv: record 1 is .*expected a \(coder, unit"):
        CodingTable.from_records([("A", 1)], source="data.csv")


def test_from_dataframe_long_and_wide() -> None:
    long = pd.DataFrame({"coder": ["A", "B"], "unit": [1, 1], "labels": [{"a"}, {"a", "b"}]})
    t = CodingTable.from_dataframe(long)
    assert t.value("B", 1) == frozenset({"a", "b"})
    wide = pd.DataFrame([[1, np.nan], [2, 3]], index=["A", "B"], columns=["u", "v"])
    w = CodingTable.from_dataframe(wide, layout="wide")
    assert w.value("A", "v") is None and w.value("B", "v") == 3.0
    with pytest.raises(InputError, match="needs the columns coder, unit and value"):
        CodingTable.from_dataframe(pd.DataFrame({"coder": [1], "unit": [2]}), layout="long")


def test_from_clusterings_values_are_class_minus_unit() -> None:
    t = CodingTable.from_clusterings(
        {"A": {"w1": "s1", "w2": "s1", "w3": "s2"}, "B": pd.Series({"w2": 4, "w3": 4, "w4": 9})}
    )
    assert list(t.units) == ["w1", "w2", "w3", "w4"]
    assert t.value("A", "w1") == frozenset({"w2"})
    assert t.value("A", "w3") == frozenset()
    assert t.value("B", "w3") == frozenset({"w2"})
    assert t.value("A", "w4") is None and t.value("B", "w1") is None
    assert t.is_class_derived


def test_from_clusterings_arrays_negative_is_missing_and_lengths_checked() -> None:
    t = CodingTable.from_clusterings({"A": np.array([3, 3, 10**12]), "B": [0, -1, 1]})
    assert t.value("A", 1) == frozenset({0}) and t.value("B", 1) is None
    with pytest.raises(InputError, match="different lengths"):
        CodingTable.from_clusterings({"A": [0, 1], "B": [0]})
    with pytest.raises(InputError, match="more than one class"):
        CodingTable.from_clusterings({"A": pd.Series([1, 2], index=["x", "x"])})


def test_no_pairable_values_gives_nan_with_warning() -> None:
    t = CodingTable.from_records([("A", 1, "x"), ("B", 2, "y")])
    with pytest.warns(AlphaUndefinedWarning, match="0 pairable values"):
        r = alpha(t, "nominal")
    assert math.isnan(r.alpha) and r.n == 0


@pytest.mark.parametrize("engine", ["classes", "generic"])
def test_no_expected_disagreement_gives_nan_with_warning(engine: str) -> None:
    t = CodingTable.from_clusterings({"A": [0, 1, 2], "B": [5, 6, 7]})  # all empty
    with pytest.warns(AlphaUndefinedWarning, match="expected disagreement D_e is 0"):
        r = alpha(t, "masi", engine=engine)
    assert math.isnan(r.alpha) and r.D_o == 0.0


def test_nan_is_not_a_crash_for_identical_scalars() -> None:
    t = CodingTable.from_records([("A", 1, 2), ("B", 1, 2), ("A", 2, 2), ("B", 2, 2)])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = alpha(t, "interval")
    assert math.isnan(r.alpha)
    assert any(issubclass(w.category, AlphaUndefinedWarning) for w in caught)


def test_engine_and_distance_mismatches_are_explained() -> None:
    scalars = CodingTable.from_records([("A", 1, 1), ("B", 1, 2), ("A", 2, 2), ("B", 2, 2)])
    with pytest.raises(ParameterError, match="compares sets; the table holds scalar"):
        alpha(scalars, "jaccard")
    with pytest.raises(ParameterError, match="needs a class-derived table"):
        alpha(scalars, "nominal", engine="classes")
    sets = CodingTable.from_records([("A", 1, {"a"}), ("B", 1, {"b"})])
    with pytest.raises(ParameterError, match="needs single numeric values"):
        alpha(sets, "interval")
    with pytest.raises(ParameterError, match="'engine' parameter of alpha"):
        alpha(sets, "masi", engine="fast")  # type: ignore[arg-type]


def test_signature_names_the_choices() -> None:
    t = CodingTable.from_clusterings({"A": [0, 0, 1], "B": [0, 1, 1]}, meta={"units": "words"})
    sig = alpha(t, "masi").signature
    assert sig.startswith(
        "alpha|dist:masi|masi:exact|units:words|engine:classes|coders:2|pairable:3"
    )
    assert "|n:6|" in sig and sig.split("|")[-1].startswith("v:")


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.int64, np.uint64])
def test_class_id_arrays_of_any_integer_dtype_give_the_partition_of_their_mapping(dtype) -> None:
    rng = np.random.default_rng(7)
    ids = {c: rng.integers(0, 5, 40).astype(dtype) for c in "AB"}
    if np.dtype(dtype).kind == "i":
        ids["B"][rng.random(40) < 0.3] = -1  # missing
    from_arrays = CodingTable.from_clusterings(ids)
    from_maps = CodingTable.from_clusterings(
        {c: {u: int(k) for u, k in enumerate(a) if k >= 0} for c, a in ids.items()})
    assert sorted(from_maps.units) == list(range(40))  # A codes every unit
    for c in "AB":
        got = from_arrays.classes[from_arrays.coders.get_loc(c)]
        want = from_maps.classes[from_maps.coders.get_loc(c),
                                 from_maps.units.get_indexer(from_arrays.units)]
        # Same missing cells and the same partition (class ids may be renumbered).
        assert ((got < 0) == (want < 0)).all()
        pairs = set(zip(got[got >= 0].tolist(), want[want >= 0].tolist(), strict=True))
        assert len(pairs) == len({g for g, _ in pairs}) == len({w for _, w in pairs})
