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
                                            "level": 0.95, "method": "bca", "resampled": 200,
                                            "undefined": 0}


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
    with pytest.raises(ValueError, match="interval"):
        bootstrap_alpha(stats, "nominal", interval="basic")


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


# ------------------------------------------------- Krippendorff's bootstrap (KALPHA's algorithm)
KRIPPENDORFF_2011 = [[1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
                     [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
                     [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
                     [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None]]


def test_krippendorff_draws_are_the_published_coincidences() -> None:
    """Cells and probabilities against Krippendorff's (2011) printed coincidence matrix
    (values 1..5, n = 40), unequal pairs taken in both orders."""
    from fractions import Fraction as F

    from clusteragree.core.coincidence_bootstrap import coincidence_draws

    printed = {(1, 1): F(7), (1, 2): F(4, 3), (1, 3): F(1, 3), (1, 4): F(1, 3),
               (2, 2): F(10), (2, 3): F(4, 3), (2, 4): F(1, 3), (3, 3): F(8),
               (3, 4): F(1, 3), (4, 4): F(4), (5, 5): F(3)}
    stats = block_stats(CodingTable.from_matrix(KRIPPENDORFF_2011))
    found = coincidence_draws(stats, "nominal")
    got = {}
    pi, pj = stats.pairs[:, 0], stats.pairs[:, 1]
    keep = pi <= pj
    for (a, b), p, d in zip(stats.pairs[keep].tolist(), found.p, found.delta, strict=True):
        va, vb = sorted((stats.values[a], stats.values[b]))
        got[(va, vb)] = (p, d)
    assert set(got) == set(printed)
    for (a, b), o in printed.items():
        share = o / 40 * (1 if a == b else 2)
        assert got[(a, b)][0] == pytest.approx(float(share))
        assert got[(a, b)][1] == (a != b)
    assert found.cells == 2 * len(printed) - 5 and found.draws == 60  # min(25 x 17, 3 x 40 / 2)
    assert found.pairs == 3 + 6 + 6 + 6 + 6 + 6 + 6 + 6 + 6 + 3 + 1  # m_u (m_u - 1) / 2
    assert 1 - 0.2 / found.D_e == pytest.approx(113 / 152)


def test_krippendorff_resamples_follow_the_multinomial_of_the_coincidences() -> None:
    """Each resample averages M distances drawn with the coincidences' probabilities, so over
    many resamples alpha* has mean alpha and standard deviation sqrt(Var(delta) / M) / D_e
    (worked out from the multinomial, not from the code)."""
    from clusteragree.core.coincidence_bootstrap import coincidence_draws, krippendorff_bootstrap

    rng = np.random.default_rng(3)
    truth = rng.integers(0, 4, 300)
    codes = np.where(rng.random((3, 300)) < 0.8, truth, rng.integers(0, 4, (3, 300)))
    table = CodingTable(["A", "B", "C"], range(300), codes=codes, values=[0, 1, 2, 3])
    stats = block_stats(table)
    for distance in ("nominal", "interval"):
        found = coincidence_draws(stats, distance)
        point = alpha(table, distance).alpha
        mean = float(found.p @ found.delta)
        var = float(found.p @ found.delta ** 2) - mean ** 2
        assert 1 - mean / found.D_e == pytest.approx(point)
        b = krippendorff_bootstrap(stats, distance, n=20_000, seed=5)
        sd = math.sqrt(var / found.draws) / found.D_e
        assert abs(float(np.mean(b.alphas)) - point) < 4 * sd / math.sqrt(20_000)
        assert b.se == pytest.approx(sd, rel=0.05)
        assert found.draws == min(25 * found.cells, (3 - 1) * 900 // 2)


def test_krippendorff_perfect_resamples_are_corrected() -> None:
    from clusteragree.core.coincidence_bootstrap import coincidence_draws, krippendorff_bootstrap

    # Only x meets itself: a resample of xx pairs alone is no agreement, alpha 0. Units (x, x),
    # (x, y), (y, z): M = min(25 x 5, 6 / 2) = 3 and P(xx three times) = (1/3)^3.
    t = CodingTable.from_records([(c, u, v) for u, pair in enumerate(["xx", "xy", "yz"])
                                  for c, v in zip("AB", pair, strict=True)])
    found = coincidence_draws(block_stats(t), "nominal")
    assert (found.cells, found.draws, len(found.diagonal)) == (5, 3, 1)
    b = krippendorff_bootstrap(block_stats(t), "nominal", n=5400, seed=2)
    assert not (b.alphas == 1).any()
    assert abs((b.alphas == 0).sum() - 5400 / 27) < 4 * math.sqrt(5400 / 27)
    # Several values meet themselves: round(X sum_c (o_cc / n)^P) perfect resamples become 0.
    t = CodingTable.from_records([(c, u, v) for u, pair in enumerate(["xx", "yy", "xy"])
                                  for c, v in zip("AB", pair, strict=True)])
    found = coincidence_draws(block_stats(t), "nominal")
    assert found.pairs == 3 and found.draws == 3
    b = krippendorff_bootstrap(block_stats(t), "nominal", n=4000, seed=9)
    chance = round(4000 * float((found.diagonal ** 3).sum()))  # (2/6)^3 + (2/6)^3 = 2/27
    # P(alpha* = 1) = P(only xx and yy drawn) = (4/6)^3 = 8/27: about 1,185 perfect resamples
    perfect_left = int((b.alphas == 1).sum())
    zeros = int((b.alphas == 0).sum())
    assert zeros >= chance and abs(perfect_left + chance - 4000 * 8 / 27) < 4 * math.sqrt(
        4000 * 8 / 27)


def test_krippendorff_resampling_through_the_api_and_the_command_line(cli, tmp_path) -> None:
    import json

    table = CodingTable.from_matrix(KRIPPENDORFF_2011)
    first = alpha(table, "nominal", ci=0.95, bootstrap=2000, seed=4, resample="krippendorff")
    again = alpha(table, "nominal", ci=0.95, bootstrap=2000, seed=4, resample="krippendorff")
    assert first.uncertainty == again.uncertainty
    assert first.uncertainty["bootstrap"]["resample"] == "krippendorff"
    low, high = first.uncertainty["ci"]
    assert low < first.alpha < high
    with pytest.raises(Exception, match="resample"):
        alpha(table, "nominal", ci=0.95, resample="documents")
    path = tmp_path / "k.csv"
    path.write_text("coder,unit,value\n" + "".join(
        f"{c},{u},{v}\n" for c, row in enumerate(KRIPPENDORFF_2011) for u, v in enumerate(row)
        if v is not None))
    runs = [cli("table", str(path), "--scalar", "--distance", "nominal", "--ci", "0.95",
                "--resample", "krippendorff", "--seed", "4", "--jobs", str(jobs), "-f", "json")
            for jobs in (1, 2)]
    assert all(code == 0 for code, _, _ in runs), runs[0][2]
    records = [json.loads(out)["results"][0] for _, out, _ in runs]
    assert records[0]["bootstrap"]["resample"] == "krippendorff"
    assert records[0]["ci"] == records[1]["ci"]
