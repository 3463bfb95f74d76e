"""Fleiss's kappa, Gwet's AC1/AC2 and Brennan-Prediger with Gwet's standard errors, against
irrCAC (the values stored by scripts/make_irrcac_oracle.py: irrCAC pins old numpy and scipy,
so it cannot be a test dependency) and against hand computations."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from clusteragree import CodingTable
from clusteragree.core.gwet import chance_corrected, weight_matrix

ORACLE = json.loads((Path(__file__).resolve().parent.parent / "corpora_fixtures" / "oracles"
                     / "irrcac.json").read_text(encoding="utf-8"))
NAMES = {"fleiss": "fleiss", "gwet": "gwet", "bp": "brennan_prediger"}


@pytest.mark.parametrize("number", range(len(ORACLE["cases"])))
def test_every_coefficient_and_standard_error_equals_irrcac(number: int) -> None:
    case = ORACLE["cases"][number]
    table = CodingTable.from_matrix(np.array(case["ratings"], dtype=object).T,
                                    coders=[f"r{k}" for k in range(len(case["ratings"][0]))])
    for weights in ("identity", "linear", "quadratic"):
        frame = chance_corrected(table, list(NAMES.values()), weights=weights,
                                 categories=case["categories"]).set_index(
            [["fleiss", "gwet", "bp"]])
        for name in NAMES:
            expected = case["results"][f"{name}/{weights}"]
            row = frame.loc[name]
            assert row["value"] == pytest.approx(expected["value"], abs=1e-9), (name, weights)
            assert row["se"] == pytest.approx(expected["se"], abs=1e-9), (name, weights)
            assert row["p_a"] == pytest.approx(expected["pa"], abs=1e-9)
            assert row["p_e"] == pytest.approx(expected["pe"], abs=1e-9)
            assert row["ci_low"] == pytest.approx(expected["ci"][0], abs=1e-9)
            assert row["ci_high"] == pytest.approx(expected["ci"][1], abs=1e-9)


def test_krippendorff_2011_data_as_irrcac_reports_them() -> None:
    """Krippendorff's 4 coders x 12 units (irrCAC 0.4.4, rounded to 5 decimals)."""
    data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
            [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
            [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
            [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None]]
    frame = chance_corrected(CodingTable.from_matrix(data, coders=list("ABCD")))
    got = frame[["value", "se", "ci_low"]].round(5).values.tolist()
    assert got == [[0.76117, 0.15302, 0.42438], [0.77544, 0.14295, 0.46081],
                   [0.77273, 0.14472, 0.45421]]


def test_weights_and_refusals() -> None:
    assert weight_matrix("quadratic", 3).tolist() == [[1, 0.75, 0], [0.75, 1, 0.75],
                                                      [0, 0.75, 1]]
    assert weight_matrix("linear", 3, [1, 2, 4]).tolist()[0] == pytest.approx([1, 2 / 3, 0])
    sets = CodingTable.from_records([("A", 1, {"x"}), ("B", 1, {"y"})])
    with pytest.raises(ValueError, match="single values"):
        chance_corrected(sets)
    one = CodingTable.from_records([("A", 1, "x"), ("B", 1, "y")])
    with pytest.raises(ValueError, match="two subjects rated twice"):
        chance_corrected(one)
    with pytest.raises(ValueError, match="unknown coefficients"):
        chance_corrected(one, ["cohen"])
