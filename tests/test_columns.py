"""The vectorised entries (long and wide DataFrames, records) against independent oracles.

* records: the record-by-record reading (``CodingTable._read_records``, the code from_records
  ran before it was vectorised) on records full of what pandas and Python compare differently:
  the same table, or the same error message;
* the wide layout: the same reading of its records ``(row label, column label, cell)``, which is
  what ``from_dataframe(layout="wide")`` did before;
* the long layout: ``from_records`` on the same rows, and alpha against the ``krippendorff``
  package on the pivoted frame.
"""

from __future__ import annotations

import contextlib
import gc
import math
import warnings
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import krippendorff
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from clusteragree import (
    AlphaUndefinedWarning,
    CodingTable,
    InputError,
    ParameterError,
    alpha,
)
from clusteragree.core import model
from clusteragree.core.columns import factorize_column, record_values


def _same(a: Any, b: Any) -> bool:
    """Equal, of the same type, NaN equal to NaN (and NaT to NaT)."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(map(_same, a, b))
    if not isinstance(a, frozenset) and pd.isna(a):
        return bool(pd.isna(b))
    return bool(a == b)


def assert_same_table(got: CodingTable, expected: CodingTable) -> None:
    assert got.coders.dtype == expected.coders.dtype
    assert got.units.dtype == expected.units.dtype
    assert all(map(_same, got.coders, expected.coders)) and len(got.coders) == len(expected.coders)
    assert all(map(_same, got.units, expected.units)) and len(got.units) == len(expected.units)
    np.testing.assert_array_equal(got.codes, expected.codes)
    assert len(got.values) == len(expected.values)
    assert all(map(_same, got.values, expected.values))


def outcome(build: Any) -> tuple[str, Any]:
    """("table", table) or ("error", message) of a constructor call."""
    try:
        return "table", build()
    except (InputError, ParameterError) as err:
        return "error", f"{type(err).__name__}: {err}"


def assert_same_outcome(got: tuple[str, Any], expected: tuple[str, Any]) -> None:
    assert got[0] == expected[0], (got, expected)
    if got[0] == "error":
        assert got[1] == expected[1]
    else:
        assert_same_table(got[1], expected[1])


def read_one_by_one(records: Any) -> CodingTable | None:
    return CodingTable._read_records(records, meta=None, source="data.csv")


@contextlib.contextmanager
def vectorised_from_the_first_record() -> Iterator[None]:
    """from_records reads few records one by one; here every count takes the columns."""
    saved = model.FEW_RECORDS
    model.FEW_RECORDS = 0
    try:
        yield
    finally:
        model.FEW_RECORDS = saved


# ------------------------------------------------------------------ records
def _fresh_nan_tuple() -> tuple[str, float]:
    return ("t", float("nan"))  # a new NaN object each time: Python's tuples differ, pandas' not


def weighted(*choices: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """One of the strategies, drawn in proportion to its weight."""
    pool = [strategy for weight, strategy in choices for _ in range(weight)]
    return st.integers(0, len(pool) - 1).flatmap(lambda k: pool[k])


LABELS = weighted(
    (40, st.sampled_from(["A", "B", "", 1, 2, 1.0, True, 0, -0.0, 0.0, ("d", 1)])),
    (3, st.builds(np.int64, st.integers(0, 2))),
    (3, st.builds(np.str_, st.sampled_from(["A", "B"]))),
    (1, st.builds(_fresh_nan_tuple)),
)
ODD_LABELS = st.sampled_from([None, math.nan, pd.NA, pd.NaT, ["unhashable"], Decimal("NaN")])
SCALARS = weighted(
    (30, st.sampled_from(["x", "y", "", 1, 2, 1.0, 1.5, True, False, 0.0, -0.0, ("t", 1)])),
    (10, st.sampled_from([None, math.nan, pd.NA])),
    (3, st.builds(np.int64, st.integers(0, 2))),
    (3, st.builds(np.float64, st.sampled_from([1.0, 2.5]))),
    (2, st.builds(np.bool_, st.booleans())),
    (1, st.builds(np.float32, st.sampled_from([1.5, math.nan]))),
    (1, st.builds(_fresh_nan_tuple)),
)
ODD_SCALARS = st.sampled_from([pd.NaT, Decimal("NaN"), Decimal(1), {"un": "hashable"},
                               complex(math.nan, 0), np.datetime64("NaT")])
LABEL_SETS = st.one_of(
    st.frozensets(st.sampled_from(["x", "y", 1, 1.0, True])),
    st.sets(st.sampled_from(["x", "y", 2])), st.lists(st.sampled_from(["x", "y"]), max_size=3),
    st.sampled_from([None, math.nan, pd.NA]),
)
ODD_SETS = st.sampled_from([["x", None], {"x", math.nan}, frozenset({pd.NA}), [["nested"]],
                            [{"un": "hashable"}], "x", 3])


@st.composite
def records(draw: st.DrawFn) -> list[Any]:
    """Records of one kind of value, now and then one with an odd label or value, or one that
    is not a triple."""
    sets = draw(st.booleans())
    odd = draw(st.sampled_from([0.0, 0.0, 0.0, 0.02, 0.1]))
    n = draw(st.integers(0, 30))
    out: list[Any] = []
    for _ in range(n):
        roll = draw(st.floats(0, 1))
        coder = draw(ODD_LABELS if roll < odd / 3 else LABELS)
        unit = draw(ODD_LABELS if odd / 3 <= roll < odd / 2 else st.one_of(LABELS,
                                                                            st.integers(0, 12)))
        if odd / 2 <= roll < odd:
            value = draw(ODD_SETS if sets else ODD_SCALARS)
        else:
            value = draw(LABEL_SETS if sets else SCALARS)
        out.append((coder, unit, value))
    if draw(st.floats(0, 1)) < 0.8:  # mostly each (coder, unit) pair once, as Python sees them
        seen: set[Any] = set()
        kept = []
        for record in out:
            try:
                if (record[0], record[1]) in seen:
                    continue
                seen.add((record[0], record[1]))
            except TypeError:
                pass
            kept.append(record)
        out = kept
    if out and draw(st.floats(0, 1)) < odd:
        out.insert(draw(st.integers(0, len(out) - 1)),
                   draw(st.sampled_from([("A", 1), ("A", 1, "x", "y"), None, "abc", 7])))
    return out


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records())
def test_records_give_what_reading_them_one_by_one_gives(rows: list[Any]) -> None:
    expected = outcome(lambda: read_one_by_one(rows))
    with vectorised_from_the_first_record():
        got = outcome(lambda: CodingTable.from_records(rows, source="data.csv"))
        from_iterator = outcome(lambda: CodingTable.from_records(iter(rows), source="data.csv"))
    assert_same_outcome(got, expected)
    assert_same_outcome(from_iterator, expected)
    assert_same_outcome(outcome(lambda: CodingTable.from_records(rows, source="data.csv")),
                        expected)


@settings(max_examples=100, deadline=None)
@given(records(), st.integers(0, 30))
def test_an_iterable_that_fails_after_some_records(rows: list[Any], stop: int) -> None:
    """The records before the failure are checked first, as when read one by one."""

    def failing() -> Any:
        yield from rows[:stop]
        raise OSError("the reader failed")

    def result(build: Any) -> tuple[str, str]:
        try:
            build()
        except (InputError, OSError) as err:
            return type(err).__name__, str(err)
        return "table", ""

    expected = result(lambda: read_one_by_one(failing()))
    with vectorised_from_the_first_record():
        assert result(lambda: CodingTable.from_records(failing(), source="data.csv")) == expected


@pytest.mark.parametrize("sets", [False, True])
def test_many_records_are_read_as_columns_into_the_same_table(sets: bool, monkeypatch) -> None:
    rng = np.random.default_rng(3)
    labels = ["x", "y", 1, 2.5, True, np.int64(2), None, math.nan, pd.NA]
    rows = [(f"c{i % 7}", int(u), labels[k] if not sets or k >= 6 else {labels[k], "z"})
            for i, (u, k) in enumerate(zip(rng.permutation(3000) // 7,
                                           rng.integers(0, len(labels), 3000), strict=True))]
    rows = list({(c, u): (c, u, v) for c, u, v in rows}.values())
    expected = read_one_by_one(rows)
    assert expected is not None and len(rows) >= model.FEW_RECORDS
    calls = []
    monkeypatch.setattr(CodingTable, "_read_records", lambda *a, **k: calls.append(a))
    assert_same_table(CodingTable.from_records(rows, source="data.csv"), expected)
    assert calls == []  # not read one by one


def test_records_that_pandas_would_merge_or_drop_keep_python_semantics() -> None:
    a, b = ("t", float("nan")), ("t", float("nan"))
    with vectorised_from_the_first_record():
        table = CodingTable.from_records([("A", 1, a), ("B", 1, b), ("A", 2, pd.NaT),
                                          ("B", 2, 1), ("A", 3, True), ("B", 3, 1.0)])
    assert len(table.values) == 3  # the two NaN tuples differ; NaT is missing; True == 1 == 1.0
    assert table.value("A", 2) is None
    assert type(table.value("A", 3)) is int and table.value("B", 3) == 1  # the first seen: 1
    with pytest.raises(InputError, match=r"data.csv: record 3 is \('A', 2\); expected"):
        CodingTable.from_records([("A", 1, "x"), ("B", 1, "y"), ("A", 2)], source="data.csv")
    with pytest.raises(InputError,
                       match=r"record 2: coder 'A' coded unit 1.0 twice \(first at record 1\)"):
        CodingTable.from_records([("A", 1, "x"), ("A", 1.0, "y")])
    with pytest.raises(InputError, match=r"record 2: label set .* holds a missing label"):
        CodingTable.from_records([("A", 1, {"x"}), ("B", 1, ["y", None])])
    with pytest.raises(InputError, match=r"record 2: .* has a scalar value 'x' but earlier"):
        CodingTable.from_records([("A", 1, {"x"}), ("B", 1, "x")])


def test_record_values_numbers_and_sets() -> None:
    codes, values = record_values(np.array([2.0, np.nan, 2.0, -0.0, 0.0]))
    assert codes.tolist() == [0, -1, 0, 1, 1] and values == [2.0, -0.0]
    found = record_values(np.array([["x"], None, {"x"}, frozenset({"y"})], dtype=object))
    assert found is not None
    assert found[0].tolist() == [0, -1, 0, 1] and found[1] == [frozenset({"x"}), frozenset({"y"})]


def test_the_cycle_collector_is_left_as_it_was() -> None:
    rows = [("A", u, {"x", u}) for u in range(500)]
    assert gc.isenabled()
    CodingTable.from_records(rows)
    assert gc.isenabled()
    gc.disable()
    try:
        CodingTable.from_records(rows)
        assert not gc.isenabled()
    finally:
        gc.enable()


# ------------------------------------------------------------------ wide layout
COLUMN_KINDS = ["int", "float", "str", "object", "sets", "bool", "category", "Int64",
                "int category", "float category"]


@st.composite
def wide_frames(draw: st.DrawFn) -> pd.DataFrame:
    """2 to 4 coders, 1 to 6 units, each column of one kind; labels now and then repeated or
    missing."""
    n_rows, n_cols = draw(st.integers(1, 4)), draw(st.integers(0, 6))
    kinds = draw(st.lists(st.sampled_from(COLUMN_KINDS), min_size=1, max_size=2))
    data: dict[Any, pd.Series] = {}
    for j in range(n_cols):
        kind = draw(st.sampled_from(kinds))
        if kind in ("int", "bool"):
            cells: list[Any] = draw(st.lists(st.integers(0, 2), min_size=n_rows,
                                             max_size=n_rows))
            col = pd.Series(cells, dtype="int64" if kind == "int" else "bool")
        elif kind in ("float", "Int64", "int category", "float category"):
            cells = draw(st.lists(st.one_of(st.none(), st.integers(0, 2)), min_size=n_rows,
                                  max_size=n_rows))
            col = pd.Series(cells, dtype={"float": "float64", "Int64": "Int64"}.get(kind))
            if kind == "float category":
                col = col.astype("category")
            elif kind == "int category":
                col = pd.Series(pd.Categorical(cells, categories=[0, 1, 2]))
        elif kind in ("str", "category"):
            cells = draw(st.lists(st.one_of(st.none(), st.sampled_from(["x", "y", "1"])),
                                  min_size=n_rows, max_size=n_rows))
            col = pd.Series(cells, dtype="str" if kind == "str" else "category")
        elif kind == "object":
            cells = draw(st.lists(SCALARS, min_size=n_rows, max_size=n_rows))
            col = pd.Series(cells, dtype=object)
        else:
            cells = draw(st.lists(st.one_of(LABEL_SETS, ODD_SETS) if draw(st.booleans())
                                  else LABEL_SETS, min_size=n_rows, max_size=n_rows))
            col = pd.Series(cells, dtype=object)
        data[j] = col
    df = pd.DataFrame(data, index=range(n_rows))
    label = st.sampled_from(["A", "B", "C", "D", 1, 2.0])
    index = draw(st.lists(st.one_of(label, ODD_LABELS.filter(lambda x: x is not None))
                          if draw(st.integers(0, 3)) == 0 else label,
                          min_size=n_rows, max_size=n_rows, unique_by=None
                          if draw(st.integers(0, 3)) == 0 else str))
    df.index = pd.Index(np.fromiter(index, dtype=object, count=n_rows))  # a list is one label
    df.columns = draw(st.lists(st.sampled_from(["u1", "u2", "u3", "u4", "u5", "u6", 7]),
                               min_size=n_cols, max_size=n_cols,
                               unique=draw(st.integers(0, 3)) > 0))
    return df


def wide_records(df: pd.DataFrame) -> Any:
    """The records the wide layout was read as before it was vectorised."""
    return ((c, u, v)
            for c, row in zip(df.index, df.itertuples(index=False, name=None), strict=True)
            for u, v in zip(df.columns, row, strict=True))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wide_frames())
def test_the_wide_layout_gives_what_its_records_give(df: pd.DataFrame) -> None:
    expected = outcome(lambda: CodingTable._read_records(wide_records(df), meta=None,
                                                         source=None))
    assert_same_outcome(outcome(lambda: CodingTable.from_dataframe(df, layout="wide")),
                        expected)


def test_the_wide_layout_equals_the_long_one() -> None:
    rng = np.random.default_rng(7)
    values = rng.integers(0, 4, (5, 40)).astype(float)
    values[rng.random(values.shape) < 0.2] = np.nan
    wide = pd.DataFrame(values, index=[f"c{i}" for i in range(5)],
                        columns=[f"u{j}" for j in range(40)])
    for frame in (wide, wide.astype(object).map(lambda v: None if v != v else f"l{v:.0f}")):
        long = frame.rename_axis(index="coder", columns="unit").stack(future_stack=True) \
            .rename("value").reset_index()
        w = CodingTable.from_dataframe(frame, layout="wide")
        lo = CodingTable.from_dataframe(long)
        assert list(w.coders) == list(lo.coders) and list(w.units) == list(lo.units)
        for c in w.coders:
            for u in w.units:
                assert _same(w.value(c, u), lo.value(c, u))


def test_wide_errors_name_the_record_as_before() -> None:
    dup = pd.DataFrame([[1, 2], [3, 4]], index=["A", "A"], columns=["u", "v"])
    with pytest.raises(InputError, match=r"^record 3: coder 'A' coded unit 'u' twice"):
        CodingTable.from_dataframe(dup, layout="wide")
    mixed = pd.DataFrame({"u": [{"x"}, None], "v": [{"y"}, "y"]}, index=["A", "B"])
    with pytest.raises(InputError, match=r"^record 4: coder 'B', unit 'v' has a scalar value"):
        CodingTable.from_dataframe(mixed, layout="wide")


# ------------------------------------------------------------------ long layout
@st.composite
def long_frames(draw: st.DrawFn) -> tuple[list[tuple[Any, Any, Any]], pd.DataFrame]:
    """Rows (coder, unit, value) once per pair, and the frame of them with columns of one of
    the kinds: str, int, category or object; values scalars or sets."""
    coder_kind = draw(st.sampled_from(["str", "int", "category", "object"]))
    value_kind = draw(st.sampled_from(["str", "int", "category", "object", "sets"]))
    missing = st.sampled_from([None, math.nan, pd.NA])
    coder = {"str": st.sampled_from(["A", "B", "C"]), "int": st.integers(0, 3),
             "category": st.sampled_from(["A", "B", "C"]),
             "object": st.sampled_from(["A", 2, ("t", 1)])}[coder_kind]
    value = {"str": st.sampled_from(["x", "y", "z"]), "int": st.integers(0, 3),
             "category": st.sampled_from(["x", "y", "z"]),
             "object": st.sampled_from(["x", 1, 2.5, ("t", 2)]),
             "sets": st.one_of(st.frozensets(st.sampled_from(["x", "y"])),
                               st.sets(st.sampled_from(["x", "z"])),
                               st.lists(st.sampled_from(["y", "z"]), max_size=2))}[value_kind]
    rows = draw(st.lists(st.tuples(coder, st.integers(0, 8), st.one_of(value, missing)),
                         max_size=40, unique_by=lambda r: (r[0], r[1])))
    df = pd.DataFrame(rows, columns=["coder", "unit", "value"])
    dtypes = {"str": "str", "category": "category", "object": object}
    if coder_kind in dtypes:
        df["coder"] = df["coder"].astype(dtypes[coder_kind])
    if value_kind in dtypes:
        df["value"] = pd.Series([v for _, _, v in rows], dtype=dtypes[value_kind])
    if draw(st.booleans()):
        df["unit"] = df["unit"].map(lambda u: f"u{u}").astype("str")
        rows = [(c, f"u{u}", v) for c, u, v in rows]
    return rows, df


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(long_frames())
def test_the_long_layout_equals_records_of_its_rows(case) -> None:
    rows, df = case
    expected = CodingTable.from_records(rows)
    got = CodingTable.from_dataframe(df)
    assert list(got.coders) == list(expected.coders)
    assert list(got.units) == list(expected.units)
    for c, u, _ in rows:
        assert got.value(c, u) == expected.value(c, u)
    assert (got.codes >= 0).sum() == (expected.codes >= 0).sum()


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 12), st.integers(1, 30), st.integers(2, 6),
       st.sampled_from(["str", "category", "int"]), st.randoms(use_true_random=False))
def test_nominal_alpha_of_a_long_frame_equals_krippendorff(
        n_coders: int, n_units: int, n_labels: int, kind: str, rnd) -> None:
    rows = [(f"c{c}", u, rnd.choice([*range(n_labels), None]))
            for c in range(n_coders) for u in range(n_units) if rnd.random() < 0.8]
    df = pd.DataFrame(rows, columns=["coder", "unit", "value"])
    if kind != "int":
        df["value"] = pd.Series([None if v is None else f"l{v}" for _, _, v in rows],
                                dtype=kind)
    codes, _ = pd.factorize(df["value"])
    numeric = df.assign(value=np.where(codes < 0, np.nan, codes.astype(float)))
    wide = numeric.pivot(index="coder", columns="unit", values="value").to_numpy(dtype=float)
    present = ~np.isnan(wide)
    pairable = present.sum(axis=0) >= 2
    assume(len(np.unique(wide[:, pairable][present[:, pairable]])) >= 2)
    expected = krippendorff.alpha(reliability_data=wide, level_of_measurement="nominal")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AlphaUndefinedWarning)
        got = alpha(CodingTable.from_dataframe(df), "nominal").alpha
    assert got == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("column", [
    pd.Series(["b", None, "a", "b"], dtype="str"),
    pd.Series(["b", None, "a", "b"], dtype="string"),
    pd.Series(["b", None, "a", "\ud800"], dtype=object),
    pd.Series(["b", None, "a", "b"], dtype="category"),
    pd.Series([3, 1, 3], dtype="int64"),
    pd.Series([3, None, 3], dtype="Int64"),
    pd.Series([], dtype="str"),
])
def test_factorize_column_is_pandas_factorize(column: pd.Series) -> None:
    codes, uniques = factorize_column(column)
    want_codes, want_uniques = pd.factorize(column, use_na_sentinel=True)
    np.testing.assert_array_equal(codes, want_codes)
    assert type(uniques) is type(want_uniques) and uniques.dtype == want_uniques.dtype
    assert list(uniques) == list(want_uniques)


def test_a_python_string_column_with_lone_surrogates_is_read() -> None:
    # pandas' own factorisation of such a str column raised UnicodeEncodeError. (Where pyarrow
    # backs pandas' strings a str column cannot hold the surrogate at all: an object one can.)
    values = ["\ud800", "x"]
    try:
        column = pd.Series(values)
    except UnicodeEncodeError:
        column = pd.Series(values, dtype=object)
    for col in (column, pd.Series(values, dtype=object)):
        df = pd.DataFrame({"coder": ["A", "B"], "unit": [1, 1], "value": col})
        assert CodingTable.from_dataframe(df).value("A", 1) == "\ud800"


def test_an_unhashable_label_in_a_long_frame_is_an_input_error() -> None:
    df = pd.DataFrame({"coder": ["A", "B"], "unit": [1, 1], "value": [["x"], [["nested"]]]})
    with pytest.raises(InputError, match=r"^row 2: label set .* holds the unhashable label"):
        CodingTable.from_dataframe(df)


# ------------------------------------------------------------------ numeric reliability data
def _cells(table: CodingTable) -> list[list[Any]]:
    return [[None if k < 0 else table.values[k] for k in row] for row in table.codes.tolist()]


NUMERIC_DTYPES = st.sampled_from([np.int64, np.int8, np.uint16, np.uint64, np.float64,
                                  np.float32, np.bool_])


@st.composite
def numeric_matrices(draw: Any) -> np.ndarray:
    dtype = draw(NUMERIC_DTYPES)
    shape = (draw(st.integers(1, 4)), draw(st.integers(0, 12)))
    if dtype is np.bool_:
        elements = st.booleans()
    elif np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        wide = draw(st.booleans())  # a span past the lookup table, or a small one
        elements = st.integers(int(info.min), int(info.max)) if wide else st.integers(
            max(int(info.min), -3), min(int(info.max), 5))
    else:
        elements = st.one_of(st.sampled_from([0.0, -0.0, 1.0, 2.0, -7.0, math.nan]),
                             st.floats(-1e6, 1e6, width=32), st.just(math.inf))
    return draw(st.lists(st.lists(elements, min_size=shape[1], max_size=shape[1]),
                         min_size=shape[0], max_size=shape[0]).map(
        lambda rows: np.array(rows, dtype=dtype).reshape(shape)))


@settings(max_examples=300, deadline=None)
@given(numeric_matrices())
def test_a_numeric_matrix_is_coded_as_its_cells_one_by_one(arr: np.ndarray) -> None:
    got = CodingTable.from_matrix(arr)
    if not arr.size:  # no cells: a coders x 0 table (records would not name the coders)
        assert (got.n_coders, got.n_units) == arr.shape
        with pytest.raises(InputError):
            alpha(got)
        return
    records = ((i, j, v) for i, row in enumerate(arr.tolist()) for j, v in enumerate(row))
    expected = read_one_by_one(records)
    assert expected is not None
    assert list(got.coders) == list(expected.coders) and list(got.units) == list(expected.units)
    assert all(_same(a, b) or (a == b and not isinstance(a, float) and not isinstance(b, float))
               for ga, ea in zip(_cells(got), _cells(expected), strict=True)
               for a, b in zip(ga, ea, strict=True)), (arr, got.values, expected.values)
    assert len(got.values) == len(expected.values)
    # A list of rows takes the same path, the dtype numpy gives it.
    listed = CodingTable.from_matrix(arr.tolist())
    assert _cells(listed) == _cells(got) or arr.dtype.kind == "f"


def test_a_list_with_an_int_past_float_precision_keeps_python_ints() -> None:
    big = 2**53 + 1
    table = CodingTable.from_matrix([[big, 1.5], [2**53, 1.5]])
    assert table.value(0, 0) == big and table.value(1, 0) == 2**53
    assert len(table.values) == 3  # 2**53 + 1 is not rounded onto 2**53


# --- label_sets splits each distinct text once: the same as splitting every cell


def _split_each(values: pd.Series, sep: str) -> list[Any]:
    """The definition: every text cell split at ``sep`` (labels trimmed), other cells kept."""
    out = []
    for text in values.astype(object).tolist():
        if not isinstance(text, str):
            out.append(text)
            continue
        labels = [piece.strip() for piece in text.split(sep)] if text else []
        if any(not label for label in labels):
            out.append("refused")
            break
        out.append(frozenset(labels))
    return out


@settings(max_examples=200, deadline=None)
@given(cells=st.lists(st.one_of(st.sampled_from(["a", "b;a", " a ; b", "", "c;", ";", "x y"]),
                                st.none(), st.just(float("nan"))), max_size=12),
       kind=st.sampled_from(["object", "string", "category"]))
def test_label_sets_as_splitting_every_cell(cells, kind):
    """Text and nulls (columns with other values are mapped cell by cell, as before)."""
    from clusteragree.core.columns import label_sets
    from clusteragree.errors import InputError
    values = pd.Series(cells, dtype=kind, index=[10 + k for k in range(len(cells))],
                       name="labels")
    expected = _split_each(values, ";")
    try:
        got = label_sets(values, ";")
    except InputError:
        assert expected and isinstance(expected[-1], str)  # "refused"
        return
    assert not any(isinstance(x, str) for x in expected)
    assert got.index.equals(values.index) and got.name == "labels"
    def null(x):
        return x is None or x is pd.NA or (isinstance(x, float) and math.isnan(x))

    for a, b in zip(got.tolist(), expected, strict=True):  # (a null stays a null)
        assert (null(a) and null(b)) if null(a) or null(b) else (
            type(a) is type(b) and a == b)
