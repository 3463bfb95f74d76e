"""The bootstrap reweights per-block statistics; a resample must equal alpha recomputed from
scratch on the table in which each block (unit or document) is repeated as often as drawn."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

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


# ------------------------------------------------------------------ BCa: jackknife and intervals
DISTANCES_OF = {"scalar": [*SCALAR, _python_distance], "set": SETS}


@settings(max_examples=80, deadline=None)
@given(tables(), st.data())
def test_the_jackknife_is_alpha_with_each_unit_left_out(drawn, data) -> None:
    """The closed-form jackknife (every unit left out in turn) against alpha of the table
    without that unit, recomputed from scratch."""
    from clusteragree.core.bootstrap import _Reweighting
    from clusteragree.core.distances import get_distance

    records, kind = drawn
    table = CodingTable.from_records(records)
    stats = block_stats(table)
    assume(len(stats.blocks) >= 2)
    name = data.draw(st.sampled_from(DISTANCES_OF[kind]))
    got = _quiet(_Reweighting(stats, get_distance(name)).jackknife)
    for b, unit in enumerate(stats.blocks):
        expected = _quiet(alpha, CodingTable.from_records(
            [r for r in records if r[1] != unit]), name).alpha
        assert (math.isnan(got[b]) and math.isnan(expected)) or \
            got[b] == pytest.approx(expected, abs=1e-9), (name, unit)


def test_the_jackknife_of_a_unit_whose_absence_leaves_no_variation() -> None:
    """Found by hypothesis: left without unit 0, every value is 1 and alpha is undefined; the
    jackknife of a Python distance subtracted its way to 3e-16 and said 1.0."""
    from clusteragree.core.bootstrap import _Reweighting
    from clusteragree.core.distances import get_distance
    records = [("c1", 0, 1), ("c2", 0, 3), ("c1", 2, 1), ("c2", 2, 1)]
    for name in (_python_distance, "interval"):
        got = _Reweighting(block_stats(CodingTable.from_records(records)),
                           get_distance(name)).jackknife()
        assert math.isnan(got[0]) and got[1] == pytest.approx(0.0, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["scalar", "set"]).flatmap(
    lambda kind: st.lists(tables(kind), min_size=2, max_size=4)), st.data())
def test_the_jackknife_over_documents_leaves_out_whole_documents(docs, data) -> None:
    from clusteragree.core.bootstrap import _Reweighting
    from clusteragree.core.distances import get_distance

    kind = docs[0][1]
    stats_each = [block_stats(CodingTable.from_records(records)) for records, _ in docs]
    assume(all(len(s.blocks) for s in stats_each))
    stats = sum(s.collapse(d) for d, s in enumerate(stats_each))
    name = data.draw(st.sampled_from(DISTANCES_OF[kind]))
    got = _quiet(_Reweighting(stats, get_distance(name)).jackknife)
    for left in range(len(docs)):
        rest = [(coder, (d, unit), value) for d, (records, _) in enumerate(docs) if d != left
                for coder, unit, value in records]
        expected = _quiet(alpha, CodingTable.from_records(rest), name).alpha
        assert (math.isnan(got[left]) and math.isnan(expected)) or \
            got[left] == pytest.approx(expected, abs=1e-9)


def _agreeing_table(seed: int, units: int, kind: str) -> tuple[CodingTable, list]:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 4, units)
    records = []
    for u in range(units):
        for c in "ABC":
            v = int(truth[u] if rng.random() < 0.7 else rng.integers(0, 4))
            records.append((c, u, v if kind == "scalar" else frozenset({v, (v + u) % 4})
                            if rng.random() < 0.3 else frozenset({v})))
    return CodingTable.from_records(records), records


@pytest.mark.parametrize(("kind", "distance", "resample"), [
    ("scalar", "nominal", "units"), ("scalar", "interval", "units"),
    ("scalar", "ordinal", "units"), ("set", "masi", "units"), ("set", "jaccard", "documents")])
def test_bca_is_scipys_on_the_same_statistic_and_resamples(kind, distance, resample) -> None:
    """scipy.stats.bootstrap(method='BCa') given our resampled alphas (bootstrap_result) and
    alpha as a statistic of the drawn blocks: it computes the estimate and the jackknife on
    its own (leaving out each block), and must find the same interval."""
    from scipy import stats as scipy_stats

    from clusteragree.core.bootstrap import _Reweighting
    from clusteragree.core.distances import get_distance

    table, _ = _agreeing_table(7, 60, kind)
    stats = block_stats(table)
    if resample == "documents":
        parts = [block_stats(table.select(list(table.coders)).__class__(
            table.coders, table.units[d::6], codes=table.codes[:, d::6], values=table.values))
            for d in range(6)]
        stats = sum(p.collapse(d) for d, p in enumerate(parts))
    weigh = _Reweighting(stats, get_distance(distance))
    blocks = len(stats.blocks)

    def statistic(drawn: np.ndarray, axis: int = -1) -> np.ndarray:
        drawn = np.moveaxis(np.asarray(drawn), axis, -1)
        flat = drawn.reshape(-1, drawn.shape[-1]).astype(int)
        weights = np.stack([np.bincount(row, minlength=blocks) for row in flat]).astype(float)
        return weigh(weights).reshape(drawn.shape[:-1])

    for level in (0.9, 0.95):
        ours = bootstrap_alpha(stats, distance, n=2000, level=level, seed=3, resample=resample)
        assert ours.method == "bca"
        theirs = scipy_stats.bootstrap(
            (np.arange(blocks),), statistic, n_resamples=0, method="BCa",
            confidence_level=level, bootstrap_result=scipy_stats._resampling.BootstrapResult(
                confidence_interval=None, bootstrap_distribution=ours.alphas,
                standard_error=None))
        assert ours.estimate == pytest.approx(float(statistic(np.arange(blocks))), abs=1e-12)
        assert ours.ci[0] == pytest.approx(theirs.confidence_interval.low, abs=1e-12)
        assert ours.ci[1] == pytest.approx(theirs.confidence_interval.high, abs=1e-12)
        assert ours.se == pytest.approx(theirs.standard_error, rel=1e-12)


SPATIAL_A = [48, 36, 20, 29, 42, 42, 20, 42, 22, 41, 45, 14, 6, 0, 33, 28, 34, 4, 32, 24, 47,
             41, 24, 26, 30, 41]


def test_bca_on_efron_and_tibshiranis_spatial_test_data() -> None:
    """Efron & Tibshirani (1993), section 14.3: the plug-in variance of the 26 spatial test
    scores A is 171.5; with B = 2000 they found z0 = 0.146, a = 0.061 and the 90% BCa interval
    [115.8, 259.6]. Our own 20,000 resamples must come close, and equal scipy's BCa on the
    same resamples. Their z0 carries the Monte Carlo error of 2,000 resamples (a standard error
    of about 0.03; 200,000 resamples give z0 = 0.177 and [115.8, 261.1]), hence the tolerance."""
    from scipy import stats as scipy_stats

    from clusteragree.core.intervals import bootstrap_interval

    a = np.array(SPATIAL_A, dtype=float)
    assert a.var() == pytest.approx(171.534, abs=1e-3)
    rng = np.random.default_rng(14)
    resampled = a[rng.integers(0, len(a), (20_000, len(a)))].var(axis=1)
    jackknife = [np.delete(a, i).var() for i in range(len(a))]
    found = bootstrap_interval(resampled, 0.9, "bca", estimate=a.var(), jackknife=jackknife)
    assert found.acceleration == pytest.approx(0.061, abs=5e-4)
    assert found.z0 == pytest.approx(0.146, abs=0.05)
    assert found.low == pytest.approx(115.8, rel=0.03)
    assert found.high == pytest.approx(259.6, rel=0.03)
    theirs = scipy_stats.bootstrap(
        (a,), np.var, n_resamples=0, method="BCa", confidence_level=0.9,
        bootstrap_result=scipy_stats._resampling.BootstrapResult(
            confidence_interval=None, bootstrap_distribution=resampled, standard_error=None))
    assert found.low == pytest.approx(theirs.confidence_interval.low, rel=1e-12)
    assert found.high == pytest.approx(theirs.confidence_interval.high, rel=1e-12)
    percentile = bootstrap_interval(resampled, 0.9, "percentile")
    assert (percentile.low, percentile.high) == tuple(np.quantile(resampled, [0.05, 0.95]))


def test_bca_falls_back_to_the_percentile_interval_and_says_why() -> None:
    from clusteragree.core.intervals import bootstrap_interval, outside_note

    values = np.linspace(-0.3, -0.1, 101)
    found = bootstrap_interval(values, 0.95, "bca", estimate=0.0, jackknife=[0.0, 0.1, -0.1])
    assert (found.method, found.asked) == ("percentile", "bca")
    assert "every resample lies below the estimate" in found.reason
    note = outside_note(0.0, found, values, blocks=8)
    assert "lies outside its interval" in note and "few units to draw from (8)" in note
    # a bias correction so large that the interval collapses onto the extreme resamples
    values = np.concatenate([np.linspace(-0.3, -0.1, 997), [0.0, 0.0, 0.0]])
    found = bootstrap_interval(values, 0.95, "bca", estimate=0.0, jackknife=[0.0, 0.1, -0.1])
    assert found.method == "percentile" and "largest resamples" in found.reason
    inside = bootstrap_interval(np.linspace(-1, 1, 101), 0.95, "bca", estimate=0.0,
                                jackknife=[0.0, 0.1, -0.1])
    assert inside.method == "bca" and outside_note(0.0, inside, np.linspace(-1, 1, 101)) is None


def test_an_undefined_alpha_gives_no_interval_rather_than_an_error(cli, tmp_path) -> None:
    """Every value the same: alpha is undefined in the data and in every resample."""
    t = CodingTable.from_records([(c, u, "x") for u in range(5) for c in "AB"])
    b = _quiet(bootstrap_alpha, block_stats(t), "nominal", n=50, seed=1)
    assert b.undefined == 50 and all(math.isnan(x) for x in (*b.ci, b.se))
    path = tmp_path / "same.csv"
    path.write_text("coder,unit,labels\n" + "".join(f"{c},{u},x\n" for u in range(5)
                                                    for c in "AB"))
    code, out, err = cli("table", str(path), "--distance", "nominal", "--ci", "0.95", "-f", "json")
    assert code == 0, err
    import json
    kinds = {(w["kind"], w["message"].split(":")[0]) for w in json.loads(out)["warnings"]}
    # alpha is undefined on the data, so is its interval: said once, before resampling
    assert ("undefined", "alpha (nominal) has no bootstrap interval") in kinds


def test_too_many_resamples_are_refused_before_allocating(cli, monkeypatch) -> None:
    from clusteragree.core import intervals
    from clusteragree.errors import ParameterError

    t = CodingTable.from_records([(c, u, v) for u in range(30) for c, v in
                                  (("A", u % 3), ("B", u % 4))])
    with pytest.raises(ParameterError, match=r"bootstrap=1000000000000 would keep 7\.3 TB") as err:
        bootstrap_alpha(block_stats(t), "nominal", n=10**12)
    assert err.value.params == ("bootstrap",)
    with pytest.raises(ParameterError) as err:
        alpha(t, "nominal", ci=0.95, bootstrap=10**12)
    assert err.value.params == ("bootstrap",)
    import pandas as pd

    from clusteragree.coref.intervals import metric_intervals
    from clusteragree.pyramids.intervals import score_intervals
    scores = pd.DataFrame({"peer": [1, 2, 3] * 2, "annotator": ["A"] * 3 + ["B"] * 3,
                           "original": [0.1, 0.5, 0.9] * 2, "modified": [0.1, 0.5, 0.9] * 2})
    with pytest.raises(ParameterError) as err:
        score_intervals(scores, n=10**12)
    assert err.value.params == ("bootstrap",)
    counts = pd.DataFrame([{"key": "a", "response": "b", "document": d, "metric": "muc",
                            "recall_num": 1.0, "recall_den": 2.0, "precision_num": 1.0,
                            "precision_den": 2.0} for d in ("d1", "d2")])
    with pytest.raises(ParameterError) as err:
        metric_intervals(counts, n=10**12)
    assert err.value.params == ("bootstrap",)
    monkeypatch.setattr(intervals, "_available_memory", lambda: 10**9)
    fixture = Path(__file__).resolve().parent.parent / "corpora_fixtures" / "krippendorff2011.csv"
    code, _, stderr = cli("table", str(fixture), "--scalar", "--distance", "nominal",
                          "--ci", "0.95", "--bootstrap", "100000000")
    assert code == 1, stderr
    assert "--bootstrap 100000000 would keep" in stderr and "bootstrap=" not in stderr


def test_every_interval_says_its_level_method_and_shares(cli) -> None:
    import json

    fixture = str(Path(__file__).resolve().parent.parent / "corpora_fixtures"
                  / "krippendorff2011.csv")
    base = ("table", fixture, "--scalar", "--distance", "nominal,interval", "--ci", "0.9",
            "--seed", "2", "--bootstrap", "300")
    code, out, _ = cli(*base)
    assert code == 0
    headline, table = out.split("\n")[0], out.split("\n\n")[1]
    assert "(90% BCa bootstrap over 11 units, 300 resamples)" in headline  # 11 pairable
    assert "90% CI (BCa)" in table and "P(<0.667)" in table and "P(<0.8)" in table
    records = json.loads(cli(*base, "-f", "json")[1])["results"]
    for r in records:
        assert r["bootstrap"]["method"] == "bca" and r["bootstrap"]["level"] == 0.9
        assert r["bootstrap"]["resampled"] == r["units"]
    shares = [f"{r['p_below'][q]:.3f}" for r in records for q in ("0.667", "0.8")]
    assert all(s in table for s in shares)
    header = cli(*base, "-f", "csv")[1].splitlines()[0].split(",")
    assert {"ci_low", "ci_high", "ci_level", "ci_method", "p_below_0.667"} <= set(header)
    latex = cli(*base, "-f", "latex")[1]
    assert r"90\% CI (BCa)" in latex and "P(<0.8)" in latex
    code, out, _ = cli(*base, "--interval", "percentile", "-f", "json")
    assert {r["bootstrap"]["method"] for r in json.loads(out)["results"]} == {"percentile"}


def test_bca_of_a_correlation_over_peers_is_scipys() -> None:
    """Peer annotation: the jackknife of the correlations (each peer left out) is scipy's
    pearsonr and spearmanr on the other peers, and the BCa interval of the resampled
    correlations is scipy's BCa with paired data on the same resamples."""
    from scipy import stats as scipy_stats

    from clusteragree.core.intervals import bootstrap_interval
    from clusteragree.pyramids.intervals import _leave_one_out, resampled_correlations

    rng = np.random.default_rng(12)
    a = rng.random(18)
    b = a + rng.normal(0, 0.3, 18)
    left_r, left_rho = resampled_correlations(a, b, _leave_one_out(18))
    for i in range(18):
        rest = np.delete(np.arange(18), i)
        assert left_r[i] == pytest.approx(scipy_stats.pearsonr(a[rest], b[rest])[0])
        assert left_rho[i] == pytest.approx(scipy_stats.spearmanr(a[rest], b[rest])[0])
    draws = rng.integers(0, 18, (3000, 18))
    r, _ = resampled_correlations(a, b, draws)
    point = scipy_stats.pearsonr(a, b)[0]
    ours = bootstrap_interval(r, 0.95, "bca", estimate=point, jackknife=left_r)

    def pearson(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
        return scipy_stats.pearsonr(x, y, axis=axis)[0]

    theirs = scipy_stats.bootstrap(
        (a, b), pearson, paired=True, n_resamples=0, method="BCa",
        bootstrap_result=scipy_stats._resampling.BootstrapResult(
            confidence_interval=None, bootstrap_distribution=r, standard_error=None))
    assert ours.method == "bca"
    assert ours.low == pytest.approx(theirs.confidence_interval.low, abs=1e-10)
    assert ours.high == pytest.approx(theirs.confidence_interval.high, abs=1e-10)
