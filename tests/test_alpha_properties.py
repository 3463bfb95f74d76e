"""Property tests: both engines equal each other and the brute-force definition."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from reference import SET_DISTANCES, brute_alpha, scalar_distance

from clusteragree import AlphaUndefinedWarning, CodingTable, InputError, alpha, alpha_stats
from clusteragree.core.alpha_classes import class_stats
from clusteragree.core.alpha_generic import value_stats

DISTANCES = sorted(SET_DISTANCES)


@st.composite
def partitions(draw: st.DrawFn, max_units: int = 9) -> dict[str, dict[int, int | None]]:
    """2 to 5 coders, each a partition of (some of) the units; None marks a missing unit."""
    n_units = draw(st.integers(1, max_units))
    n_coders = draw(st.integers(2, 5))
    out = {}
    for c in range(n_coders):
        ids = draw(st.lists(st.one_of(st.integers(0, 3), st.none()),
                            min_size=n_units, max_size=n_units))
        out[f"c{c}"] = dict(enumerate(ids))
    return out


def _cells(table: CodingTable) -> dict:
    return {(c, u): v for c, u, v in table.records()}


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AlphaUndefinedWarning)
        return fn(*args, **kwargs)


def _assert_matches(result, ref) -> None:
    """The engine's result against the brute-force (D_o, D_e, n), or NaN when undefined."""
    if ref is None:
        assert math.isnan(result.alpha)
        return
    d_o, d_e, n = ref
    assert (result.n, result.D_o, result.D_e) == (
        n, pytest.approx(float(d_o)), pytest.approx(float(d_e)))


def _same(x: float, y: float) -> bool:
    return (math.isnan(x) and math.isnan(y)) or abs(x - y) <= 1e-9


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(partitions(), st.sampled_from(DISTANCES))
def test_linear_engine_equals_generic_and_brute_force(parts, name) -> None:
    table = CodingTable.from_clusterings(parts)
    if not table.present.any():  # nothing coded at all: nothing to compare
        for engine in ("classes", "generic"):
            with pytest.raises(InputError, match="nothing to compare"):
                alpha(table, name, engine=engine)
        return
    fast = _quiet(alpha, table, name, engine="classes")
    slow = _quiet(alpha, table, name, engine="generic")
    ref = brute_alpha(_cells(table), SET_DISTANCES[name])
    for r in (fast, slow):
        if ref is None:
            assert math.isnan(r.alpha)
            continue
        d_o, d_e, n = ref
        assert r.n == n
        assert r.D_o == pytest.approx(float(d_o), abs=1e-9)
        assert r.D_e == pytest.approx(float(d_e), abs=1e-9)
        expected = math.nan if d_e == 0 else float(1 - d_o / d_e)
        assert _same(r.alpha, expected) or r.alpha == pytest.approx(expected, abs=1e-9)


@st.composite
def label_sets(draw: st.DrawFn) -> dict[tuple[str, int], frozenset]:
    n_units = draw(st.integers(1, 10))
    n_coders = draw(st.integers(2, 6))
    cells = {}
    for c in range(n_coders):
        for u in range(n_units):
            value = draw(st.one_of(st.none(), st.frozensets(st.sampled_from("abcde"), max_size=3)))
            if value is not None:
                cells[f"c{c}", u] = value
    return cells


@settings(max_examples=150, deadline=None)
@given(label_sets(), st.sampled_from(DISTANCES))
def test_generic_engine_equals_brute_force_on_label_sets(cells, name) -> None:
    assume(cells)  # an empty table is refused (test_linear_engine_equals_...)
    table = CodingTable.from_records((c, u, v) for (c, u), v in cells.items())
    _assert_matches(_quiet(alpha, table, name), brute_alpha(cells, SET_DISTANCES[name]))


@settings(max_examples=60, deadline=None)
@given(st.lists(partitions(max_units=6), min_size=1, max_size=4), st.sampled_from(DISTANCES))
def test_document_statistics_add_to_pooled_alpha(docs, name) -> None:
    assume(any(k is not None for doc in docs for part in doc.values() for k in part.values()))
    coders = sorted({c for doc in docs for c in doc})
    pooled = {
        c: {(d, u): None if k is None else (d, k)
            for d, doc in enumerate(docs) for u, k in doc.get(c, {}).items()}
        for c in coders
    }
    whole = _quiet(alpha, CodingTable.from_clusterings(pooled), name, engine="generic")
    parts_cls = sum(class_stats(CodingTable.from_clusterings(doc)) for doc in docs)
    parts_gen = sum(value_stats(CodingTable.from_clusterings(doc)) for doc in docs)
    # Generic statistics merge equal values: documents whose units share labels would give
    # equal sets, so only the count of values is compared for them.
    by_classes = _quiet(parts_cls.compute, name)
    assert by_classes.n == whole.n
    assert _same(by_classes.alpha, whole.alpha)
    assert parts_gen.n == whole.n


@settings(max_examples=60, deadline=None)
@given(label_sets(), st.sampled_from(DISTANCES), st.randoms(use_true_random=False))
def test_generic_statistics_add_whatever_the_split(cells, name, rnd) -> None:
    assume(cells)
    whole = _quiet(alpha, CodingTable.from_records((c, u, v) for (c, u), v in cells.items()), name)
    units = sorted({u for _, u in cells})
    groups: dict[int, list] = {}
    for u in units:
        groups.setdefault(rnd.randrange(3), []).append(u)
    stats = [
        alpha_stats(CodingTable.from_records((c, u, v) for (c, u), v in cells.items() if u in g))
        for g in groups.values()
    ]
    pooled = _quiet(sum(stats).compute, name)
    assert pooled.n == whole.n
    assert _same(pooled.alpha, whole.alpha)


@settings(max_examples=60, deadline=None)
@given(partitions(), st.sampled_from(DISTANCES), st.randoms(use_true_random=False))
def test_coder_and_unit_order_do_not_matter(parts, name, rnd) -> None:
    assume(any(k is not None for part in parts.values() for k in part.values()))
    base = _quiet(alpha, CodingTable.from_clusterings(parts), name)
    coders = list(parts)
    rnd.shuffle(coders)
    shuffled = {}
    for c in coders:
        items = list(parts[c].items())
        rnd.shuffle(items)
        shuffled[c] = dict(items)
    other = _quiet(alpha, CodingTable.from_clusterings(shuffled), name)
    assert _same(base.alpha, other.alpha)
    assert base.n == other.n


def test_class_ids_as_integer_arrays_match_mappings() -> None:
    rng = np.random.default_rng(7)
    a = rng.integers(0, 30, 200)
    b = np.where(rng.random(200) < 0.1, -1, rng.integers(0, 30, 200))
    from_arrays = CodingTable.from_clusterings({"A": a, "B": b})
    from_maps = CodingTable.from_clusterings(
        {"A": dict(enumerate(a.tolist())), "B": {u: k for u, k in enumerate(b.tolist()) if k >= 0}}
    )
    for name in DISTANCES:
        assert alpha(from_arrays, name).alpha == pytest.approx(alpha(from_maps, name).alpha)
        assert alpha(from_arrays, name).alpha == pytest.approx(
            alpha(from_arrays, name, engine="generic").alpha
        )


def test_contingency_without_packing_equals_packed_keys() -> None:
    from clusteragree.core.crosstab import contingency as _contingency

    rng = np.random.default_rng(1)
    ci, cj = rng.integers(0, 50, 1000), rng.integers(0, 50, 1000)
    m = rng.integers(2, 4, 1000)
    packed = _contingency(ci, cj, 50, m)
    # Class ids this large do not fit a 63-bit key, which takes the row-sorting path.
    unpacked = _contingency(ci * 10**9, cj, 50 * 10**9, m)
    np.testing.assert_array_equal(packed[0] * 10**9, unpacked[0])
    np.testing.assert_array_equal(packed[1], unpacked[1])
    np.testing.assert_allclose(packed[2], unpacked[2])
    np.testing.assert_allclose(packed[3], unpacked[3])
    uniform = _contingency(ci, cj, 50, np.full(1000, 3))
    assert uniform[2].sum() == 1000 and uniform[3].sum() == pytest.approx(500.0)


@st.composite
def scalar_cells(draw: st.DrawFn) -> dict[tuple[str, int], int]:
    n_units, n_coders = draw(st.integers(1, 10)), draw(st.integers(2, 6))
    cells = {}
    for c in range(n_coders):
        for u in range(n_units):
            value = draw(st.one_of(st.none(), st.integers(0, 6)))
            if value is not None:
                cells[f"c{c}", u] = value
    return cells


@settings(max_examples=150, deadline=None)
@given(scalar_cells(), st.sampled_from(["nominal", "interval", "ratio", "ordinal"]))
def test_scalar_levels_equal_brute_force(cells, name) -> None:
    assume(cells)
    table = CodingTable.from_records((c, u, v) for (c, u), v in cells.items())
    r = _quiet(alpha, table, name)
    by_unit: dict[int, int] = {}
    for _, u in cells:
        by_unit[u] = by_unit.get(u, 0) + 1
    pool = [v for (_, u), v in cells.items() if by_unit[u] >= 2]
    _assert_matches(r, brute_alpha(cells, scalar_distance(name, pool)))


@settings(max_examples=100, deadline=None)
@given(st.one_of(scalar_cells(), label_sets()))
def test_both_ways_of_counting_coincidences_agree(cells) -> None:
    """Coder pair by coder pair, or from the counts of each value in each unit: the same
    marginals and coincidences (the engine picks one by the number of coders)."""
    import clusteragree.core.alpha_generic as generic

    assume(cells)
    table = CodingTable.from_records((c, u, v) for (c, u), v in cells.items())
    saved = (generic.FEW_CODERS, generic.DENSE_COUNTS, generic.DENSE_BLOCK,
             generic.PATTERNS_PER_UNIT)
    try:
        generic.PATTERNS_PER_UNIT = -1e18  # never by unit patterns...
        generic.FEW_CODERS = 10**6
        by_pairs = value_stats(table)
        generic.FEW_CODERS = 0
        ways = []
        for dense, block in [(4, 1 << 22), (4, 3), (0, 1 << 22)]:  # dense, small blocks, sparse
            generic.DENSE_COUNTS, generic.DENSE_BLOCK = dense, block
            ways.append(value_stats(table))
        generic.PATTERNS_PER_UNIT = 1e18  # ...and always
        ways.append(value_stats(table))
    finally:
        (generic.FEW_CODERS, generic.DENSE_COUNTS, generic.DENSE_BLOCK,
         generic.PATTERNS_PER_UNIT) = saved
    for by_counts in ways:
        assert by_counts.values == by_pairs.values
        np.testing.assert_array_equal(by_counts.counts, by_pairs.counts)
        np.testing.assert_array_equal(by_counts.pairs, by_pairs.pairs)
        np.testing.assert_allclose(by_counts.weights, by_pairs.weights, rtol=1e-12)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 9), st.integers(0, 12), st.integers(1, 5), st.randoms(use_true_random=False))
def test_dense_and_grouped_pair_counts_agree(n_coders: int, n_units: int, n_values: int,
                                             rnd) -> None:
    """Coder by coder, a dense table of type pairs or the pairs grouped and summed; some units
    not pairable and some values only in them, so that both renumber the types."""
    import clusteragree.core.alpha_generic as generic

    codes = np.array([[rnd.choice([-1, *range(n_values)]) for _ in range(n_units)]
                      for _ in range(n_coders)], dtype=np.int64).reshape(n_coders, n_units)
    table = CodingTable([f"c{i}" for i in range(n_coders)], list(range(n_units)), codes=codes,
                        values=[f"v{k}" for k in range(n_values)])
    saved = generic.FEW_CODERS, generic.DENSE_PAIRS, generic.PATTERNS_PER_UNIT
    try:
        generic.PATTERNS_PER_UNIT = -1e18  # never by unit patterns...
        generic.FEW_CODERS = 10**6
        dense = value_stats(table)
        generic.DENSE_PAIRS = 0
        grouped = value_stats(table)
        generic.FEW_CODERS = 0
        by_units = value_stats(table)
        generic.PATTERNS_PER_UNIT = 1e18  # ...and always
        by_patterns = value_stats(table)
    finally:
        generic.FEW_CODERS, generic.DENSE_PAIRS, generic.PATTERNS_PER_UNIT = saved
    for other in (grouped, by_units, by_patterns):
        assert other.values == dense.values and other.units == dense.units
        assert other.coders == dense.coders
        np.testing.assert_array_equal(other.counts, dense.counts)
        np.testing.assert_array_equal(other.pairs, dense.pairs)
        np.testing.assert_allclose(other.weights, dense.weights, rtol=1e-12)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2**40), st.integers(0, 9), st.integers(-3, 3)),
                max_size=40),
       st.sampled_from(["dense", "factorize", "rows"]))
def test_sum_by_key_equals_a_dictionary(rows, path) -> None:
    """The group-and-sum of both engines against a plain dictionary, on every path: a dense
    count, a factorisation of packed keys, and sorted rows (keys too wide to pack)."""
    import clusteragree.core.crosstab as crosstab

    expected: dict[tuple[int, ...], float] = {}
    for a, b, w in rows:
        key = (a, b) if path != "dense" else (a % 50, b)
        expected[key] = expected.get(key, 0.0) + w
    cols = [np.array([k[0] for k in ([r[:2] for r in rows] if path != "dense" else
                                     [(a % 50, b) for a, b, _ in rows])], dtype=np.int64),
            np.array([r[1] for r in rows], dtype=np.int64)]
    if path == "rows":
        cols.append(np.full(len(rows), 2**30, dtype=np.int64))  # 2**40 * 10 * 2**30 > 2**62
        expected = {(*k, 2**30): v for k, v in expected.items()}
    keys, sums = crosstab.sum_by_key(cols, np.array([float(r[2]) for r in rows]))
    got = {tuple(int(c[i]) for c in keys): float(sums[i]) for i in range(len(sums))}
    assert got == expected
    flat = list(zip(*[c.tolist() for c in keys], strict=True))
    assert flat == sorted(flat)
