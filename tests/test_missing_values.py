"""Missing values on every entry of a coding table: a cell numpy's masked array hides, pd.NaT
and the other NaNs pandas knows are missing, whether the data come as reliability data
(``from_matrix``), records, a long or wide DataFrame, or clusterings.

The oracle is the ``krippendorff`` package on the same data with NaN where a cell is missing
(it never sees the masks, the NaTs or the other spellings of missing).
"""

from __future__ import annotations

import math
import warnings
from decimal import Decimal
from typing import Any

import krippendorff
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusteragree import CodingTable, alpha
from clusteragree.core import model
from clusteragree.core.columns import is_missing
from clusteragree.errors import AlphaUndefinedWarning
from clusteragree.labels import MultiLabel

#: Every spelling of a missing cell, beside None and float NaN.
MISSING = [None, math.nan, pd.NA, pd.NaT, np.ma.masked, np.float32("nan"),
           np.datetime64("NaT"), np.timedelta64("NaT"), Decimal("NaN"), complex(math.nan, 0)]


def test_is_missing_agrees_with_pandas_and_numpy_masks() -> None:
    for value in MISSING:
        assert is_missing(value), value
        if value is not np.ma.masked:
            assert pd.isna(value), value
    for value in [0, 0.0, "", "nan", frozenset(), float("inf"), Decimal(1),
                  np.datetime64("2020-01-01"), np.float32(1.5), (math.nan,), [None]]:
        assert not is_missing(value), value


def _oracle(data: np.ndarray, hidden: np.ndarray, level: str) -> float:
    return float(krippendorff.alpha(reliability_data=np.where(hidden, np.nan, data),
                                    level_of_measurement=level))


def _alpha(table: CodingTable, distance: str) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AlphaUndefinedWarning)
        return alpha(table, distance).alpha


def test_a_masked_cell_is_missing_in_reliability_data() -> None:
    # Unit 2 holds 1 and 2 for coders A and B and a masked 9 for C: missing, nominal alpha is
    # 1/3 (krippendorff with NaN there); read as a value, the 9 would be a third category and
    # alpha 0.3293 (krippendorff with the 9), which is what a masked array gave before.
    data = np.array([[1, 1, 2, 2], [1, 2, 2, 2], [1, 9, 1, 2]])
    hidden = np.zeros_like(data, dtype=bool)
    hidden[2, 1] = True
    expected = _oracle(data, hidden, "nominal")
    assert expected == pytest.approx(1 / 3)
    as_value = _oracle(data, np.zeros_like(hidden), "nominal")
    assert as_value == pytest.approx(0.3293, abs=1e-4)
    masked = np.ma.masked_array(data, hidden)
    for given_as in (masked, masked.astype(float), list(masked), masked.astype(object),
                     masked.astype(str)):
        table = CodingTable.from_matrix(given_as)
        assert _alpha(table, "nominal") == pytest.approx(expected), type(given_as)
        assert table.value(2, 1) is None and table.n_units == 4
        assert all(v not in (9, 9.0, "9") for v in table.values)
    assert _alpha(CodingTable.from_matrix(data), "nominal") == pytest.approx(as_value)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 5), st.integers(2, 12), st.sampled_from(["i", "f", "u"]),
       st.sampled_from(["nominal", "interval", "ratio", "ordinal"]),
       st.randoms(use_true_random=False))
def test_masked_reliability_data_equals_krippendorff_with_nan(
        coders: int, units: int, kind: str, level: str, rnd: Any) -> None:
    data = np.array([[rnd.randint(1, 5) for _ in range(units)] for _ in range(coders)],
                    dtype={"i": np.int64, "f": np.float64, "u": np.uint8}[kind])
    hidden = np.array([[rnd.random() < 0.3 for _ in range(units)] for _ in range(coders)])
    present = ~hidden
    pairable = present.sum(axis=0) >= 2
    values = data[:, pairable][present[:, pairable]]
    if len(np.unique(values)) < 2:
        return  # alpha undefined: krippendorff raises, clusteragree warns
    expected = _oracle(data.astype(float), hidden, level)
    masked = np.ma.masked_array(data, hidden)
    for given_as in (masked, list(masked), [list(r) for r in masked]):
        assert _alpha(CodingTable.from_matrix(given_as), level) == pytest.approx(expected), \
            type(given_as)


def _records(data: np.ndarray, hidden: np.ndarray, missing: Any) -> list[tuple[Any, Any, Any]]:
    return [(f"c{c}", u, missing if hidden[c, u] else f"v{data[c, u]}")
            for c in range(data.shape[0]) for u in range(data.shape[1])]


@pytest.mark.parametrize("missing", MISSING, ids=repr)
@pytest.mark.parametrize("many", [False, True], ids=["one by one", "as columns"])
def test_every_missing_value_is_missing_in_records_and_frames(missing: Any, many: bool,
                                                              monkeypatch) -> None:
    rnd = np.random.default_rng(7)
    data = rnd.integers(0, 3, size=(3, 40))
    hidden = rnd.random((3, 40)) < 0.25
    expected = _oracle(data.astype(float), hidden, "nominal")
    if many:  # the records are read as columns whatever their number
        monkeypatch.setattr(model, "FEW_RECORDS", 0)
    rows = _records(data, hidden, missing)
    tables = {
        "records": CodingTable.from_records(rows),
        "long": CodingTable.from_dataframe(pd.DataFrame(rows, columns=["coder", "unit",
                                                                       "value"])),
        "wide": CodingTable.from_dataframe(
            pd.DataFrame([[missing if hidden[c, u] else f"v{data[c, u]}"
                           for u in range(40)] for c in range(3)], dtype=object),
            layout="wide"),
        "matrix": CodingTable.from_matrix(
            [[missing if hidden[c, u] else f"v{data[c, u]}" for u in range(40)]
             for c in range(3)]),
    }
    for how, table in tables.items():
        assert _alpha(table, "nominal") == pytest.approx(expected), how
        assert int((table.codes >= 0).sum()) == int((~hidden).sum()), how


@pytest.mark.parametrize("missing", [pd.NaT, np.ma.masked, np.datetime64("NaT")], ids=repr)
def test_a_set_table_and_a_number_table_read_nat_and_masked_as_missing(missing: Any) -> None:
    sets = CodingTable.from_records([("A", 1, {"x"}), ("B", 1, {"x", "y"}), ("A", 2, missing),
                                     ("B", 2, {"z"})])
    assert sets.value("A", 2) is None and sets.value_kind == "set"
    numbers = CodingTable.from_records([("A", 1, 1.5), ("B", 1, 2), ("A", 2, missing),
                                        ("B", 2, 3)])
    assert numbers.value("A", 2) is None
    assert alpha(numbers, "interval").n == 2


def test_masked_and_nat_class_ids_are_missing() -> None:
    plain = CodingTable.from_clusterings({"A": [0, 0, -1, 1], "B": [5, 5, 6, -1]})
    for a, b in [
        (np.ma.masked_array([0, 0, 3, 1], [0, 0, 1, 0]), np.ma.masked_array([5, 5, 6, 9],
                                                                           [0, 0, 0, 1])),
        (np.ma.masked_array(["p", "p", "q", "r"], [0, 0, 1, 0]), ["s", "s", "t", pd.NaT]),
        (np.ma.masked_array([0, 0, 3, 1], [0, 0, 1, 0]).astype(np.uint8),
         [5.0, 5.0, 6.0, np.nan]),
    ]:
        table = CodingTable.from_clusterings({"A": a, "B": b})
        np.testing.assert_array_equal(table.present, plain.present)
        for distance in ("nominal", "jaccard", "masi"):
            assert alpha(table, distance).alpha == pytest.approx(alpha(plain, distance).alpha)


def test_a_nat_label_of_multilabel_records_gives_no_label() -> None:
    with pytest.warns(Warning, match="missing label"):
        data = MultiLabel.from_records([("i1", "A", "x"), ("i1", "B", pd.NaT),
                                        ("i1", "B", "y"), ("i2", "A", np.ma.masked),
                                        ("i2", "A", "z"), ("i2", "B", "z")])
    assert data.labels("B", "i1") == ("y",) and data.labels("A", "i2") == ("z",)
