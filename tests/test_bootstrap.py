"""The bootstrap reweights per-block statistics; a resample must equal alpha recomputed from
scratch on the table in which each block (unit or document) is repeated as often as drawn."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from clusteragree import AlphaUndefinedWarning, CodingTable, alpha
from clusteragree.core.bootstrap import block_stats, bootstrap_alpha, reweighted_alpha

SCALAR = ["nominal", "interval", "ratio", "ordinal"]
SETS = ["nominal", "jaccard", "dice", "masi"]


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AlphaUndefinedWarning)
        return fn(*args, **kwargs)


@st.composite
def tables(draw: st.DrawFn, kind: str | None = None) -> tuple[list[tuple[str, int, object]], str]:
    kind = kind or draw(st.sampled_from(["scalar", "set"]))
    n_units, n_coders = draw(st.integers(2, 7)), draw(st.integers(2, 5))
    value = (st.integers(1, 5) if kind == "scalar"
             else st.frozensets(st.sampled_from("abcd"), max_size=3))
    records = []
    for u in range(n_units):
        for c in range(n_coders):
            v = draw(st.one_of(st.none(), value))
            if v is not None:
                records.append((f"c{c}", u, v))
    return records, kind


def _repeated(records, weights_by_unit) -> CodingTable:
    """The table with unit u repeated weights[u] times (copies are new units)."""
    out = []
    for coder, unit, value in records:
        for copy in range(weights_by_unit.get(unit, 0)):
            out.append((coder, (unit, copy), value))
    return CodingTable.from_records(out)


@settings(max_examples=120, deadline=None)
@given(tables(), st.data())
def test_a_resample_of_units_is_alpha_of_the_repeated_table(drawn, data) -> None:
    records, kind = drawn
    table = CodingTable.from_records(records)
    stats = block_stats(table)
    assume(len(stats.blocks) >= 2)
    weights = data.draw(st.lists(st.integers(0, 3), min_size=len(stats.blocks),
                                 max_size=len(stats.blocks)))
    assume(sum(weights) >= 1)
    name = data.draw(st.sampled_from(SCALAR if kind == "scalar" else SETS))
    got = float(_quiet(reweighted_alpha, stats, name, weights)[0])
    by_unit = dict(zip(stats.blocks, weights, strict=True))
    expected = _quiet(alpha, _repeated(records, by_unit), name).alpha
    assert (math.isnan(got) and math.isnan(expected)) or got == pytest.approx(expected, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["scalar", "set"]).flatmap(
    lambda kind: st.lists(tables(kind), min_size=2, max_size=4)), st.data())
def test_a_resample_of_documents_is_alpha_of_the_repeated_corpus(docs, data) -> None:
    kind = docs[0][1]
    per_doc = [CodingTable.from_records(records) for records, _ in docs]
    stats_each = [block_stats(t) for t in per_doc]
    assume(all(len(s.blocks) for s in stats_each))
    stats = sum(s.collapse(d) for d, s in enumerate(stats_each))
    weights = data.draw(st.lists(st.integers(0, 2), min_size=len(docs), max_size=len(docs)))
    assume(sum(weights) >= 1)
    name = data.draw(st.sampled_from(SCALAR if kind == "scalar" else SETS))
    got = float(_quiet(reweighted_alpha, stats, name, weights)[0])
    repeated = [(coder, (d, unit, copy), value)
                for d, (records, _) in enumerate(docs) for copy in range(weights[d])
                for coder, unit, value in records]
    expected = _quiet(alpha, CodingTable.from_records(repeated), name).alpha
    assert (math.isnan(got) and math.isnan(expected)) or got == pytest.approx(expected, abs=1e-9)


def test_weights_of_one_give_alpha_itself() -> None:
    rng = np.random.default_rng(3)
    records = [(f"c{c}", u, int(rng.integers(0, 4))) for u in range(30) for c in range(3)
               if rng.random() > 0.1]
    table = CodingTable.from_records(records)
    stats = block_stats(table)
    for name in SCALAR:
        assert reweighted_alpha(stats, name, np.ones(len(stats.blocks)))[0] == \
            pytest.approx(alpha(table, name).alpha, abs=1e-12)


def test_a_seed_gives_the_same_resamples_and_an_interval_around_alpha() -> None:
    rng = np.random.default_rng(5)
    truth = rng.integers(0, 4, 200)
    records = [(c, u, int(truth[u] if rng.random() < 0.8 else rng.integers(0, 4)))
               for u in range(200) for c in "ABC"]
    table = CodingTable.from_records(records)
    stats = block_stats(table)
    first = bootstrap_alpha(stats, "nominal", n=300, seed=11)
    again = bootstrap_alpha(stats, "nominal", n=300, seed=11)
    other = bootstrap_alpha(stats, "nominal", n=300, seed=12)
    np.testing.assert_array_equal(first.alphas, again.alphas)
    assert not np.array_equal(first.alphas, other.alphas)
    point = alpha(table, "nominal").alpha
    assert first.ci[0] < point < first.ci[1]
    assert 0 < first.se < 0.1
    assert first.p_below["0.8"] >= first.p_below["0.667"]
    assert first.as_dict()["bootstrap"] == {"n": 300, "resample": "units", "seed": 11,
                                            "level": 0.95, "undefined": 0}


def test_bad_arguments_are_refused() -> None:
    table = CodingTable.from_records([("A", 1, "x"), ("B", 1, "y"), ("A", 2, "x"),
                                      ("B", 2, "x")])
    stats = block_stats(table)
    with pytest.raises(TypeError, match="confidence level"):
        bootstrap_alpha(stats, "nominal", level=95)
    with pytest.raises(TypeError, match="resamples"):
        bootstrap_alpha(stats, "nominal", n=1)
    with pytest.raises(ValueError, match="resample must be"):
        bootstrap_alpha(stats, "nominal", resample="coders")
    one = block_stats(CodingTable.from_records([("A", 1, "x"), ("B", 1, "y")]))
    with pytest.raises(ValueError, match="at least two units"):
        bootstrap_alpha(one, "nominal")


def _python_distance(x: object, y: object) -> float:
    """A distance the engine knows nothing about: a Python function of two values."""
    return float(abs(int(x) - int(y)) ** 1.5)  # type: ignore[call-overload]


@settings(max_examples=60, deadline=None)
@given(tables("scalar"), st.data())
def test_a_python_distance_is_tabulated_and_reweighted_exactly(drawn, data) -> None:
    records, _ = drawn
    table = CodingTable.from_records(records)
    stats = block_stats(table)
    assume(len(stats.blocks) >= 2)
    weights = data.draw(st.lists(st.integers(0, 3), min_size=len(stats.blocks),
                                 max_size=len(stats.blocks)))
    assume(sum(weights) >= 1)
    got = float(_quiet(reweighted_alpha, stats, _python_distance, weights)[0])
    by_unit = dict(zip(stats.blocks, weights, strict=True))
    expected = _quiet(alpha, _repeated(records, by_unit), _python_distance).alpha
    assert (math.isnan(got) and math.isnan(expected)) or got == pytest.approx(expected, abs=1e-9)


def test_the_same_resamples_whatever_the_number_of_jobs(cli) -> None:
    import json
    from pathlib import Path

    rng = np.random.default_rng(8)
    records = [(c, u, int(rng.integers(0, 3))) for u in range(300) for c in "ABC"]
    stats = block_stats(CodingTable.from_records(records))
    one = bootstrap_alpha(stats, "interval", n=500, seed=21, jobs=1)
    three = bootstrap_alpha(stats, "interval", n=500, seed=21, jobs=3)
    np.testing.assert_array_equal(one.alphas, three.alphas)
    with pytest.raises(TypeError, match="seed"):
        bootstrap_alpha(stats, "nominal", seed=-1)
    fixture = Path(__file__).resolve().parent.parent / "corpora_fixtures" / "krippendorff2011.csv"
    runs = [json.loads(cli("table", str(fixture), "--scalar", "--distance", "nominal", "--ci",
                           "0.9", "--seed", "5", "--jobs", jobs, "-f", "json")[1])["results"]
            for jobs in ("1", "2")]
    assert runs[0][0]["ci"] == runs[1][0]["ci"]
