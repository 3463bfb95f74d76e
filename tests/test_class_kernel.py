"""The compiled class-pair kernel against the numpy route and the generic engine."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusteragree import CodingTable, alpha
from clusteragree.core import class_kernel
from clusteragree.core.alpha_classes import class_stats
from clusteragree.core.alpha_generic import value_stats
from clusteragree.core.distances import get_distance
from clusteragree.errors import ParameterError

needs_numba = pytest.mark.skipif(class_kernel.pair_kernel() is None,
                                 reason="numba cannot serve here")


@st.composite
def clusterings(draw) -> dict[int, np.ndarray]:
    """2-5 coders over up to 300 units; few classes (large ones, past the dense histogram) or
    many small ones; some units missing for some coders."""
    n = draw(st.integers(1, 300))
    coders = draw(st.integers(2, 5))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    out = {}
    for c in range(coders):
        n_classes = max(1, int(n / draw(st.sampled_from([1, 1.5, 3, 40, 150]))))
        ids = rng.integers(0, n_classes, n)
        missing = draw(st.sampled_from([0.0, 0.1, 0.6]))
        ids[rng.random(n) < missing] = -1
        out[c] = ids
    return out


def _assert_same_stats(a, b) -> None:
    assert (a.n, a.units, a.coders) == (b.n, b.units, b.coders)
    for name in ("observed", "expected", "sizes"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.shape == y.shape, name
        np.testing.assert_allclose(x, y, rtol=1e-12, atol=0, err_msg=name)


@needs_numba
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clusterings(), st.integers(1, 3))
def test_the_kernel_gives_the_statistics_of_the_numpy_route(classes, jobs) -> None:
    table = CodingTable.from_clusterings(classes)
    if table.classes is None or not (table.classes >= 0).sum(axis=0).max(initial=0) >= 2:
        return
    _assert_same_stats(class_stats(table, compiled=True, jobs=jobs),
                       class_stats(table, compiled=False))


@needs_numba
@settings(max_examples=60, deadline=None)
@given(clusterings())
def test_kernel_alphas_equal_the_generic_engine(classes) -> None:
    table = CodingTable.from_clusterings(classes)
    stats = class_stats(table, compiled=True, jobs=2)
    generic = value_stats(table).to_cardinality()
    for distance in ("nominal", "jaccard", "masi"):
        got, want = stats.sums(get_distance(distance)), generic.sums(get_distance(distance))
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-9)


@needs_numba
def test_classes_past_the_dense_histogram_spill_and_are_counted() -> None:
    rng = np.random.default_rng(4)
    n = 2_000  # three classes of about 660 units: every pair is past DENSE
    table = CodingTable.from_clusterings({c: rng.integers(0, 3, n) for c in "ABC"})
    assert table.classes is not None
    assert np.bincount(table.classes[0]).min() > class_kernel.DENSE
    _assert_same_stats(class_stats(table, compiled=True), class_stats(table, compiled=False))


def test_without_the_kernel_the_numpy_route_serves(monkeypatch) -> None:
    monkeypatch.setattr(class_kernel.KERNELS, "value", None)
    table = CodingTable.from_clusterings({"A": [0, 0, 1], "B": [0, 0, 0]})
    assert round(alpha(table, "masi").alpha, 6) == 0.125  # the worked example of class_stats
    with pytest.raises(ParameterError, match="numba"):
        class_stats(table, compiled=True)
