"""Set and scalar distances: single-pair values from the notes, NLTK, and vectorisation."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from reference import SET_DISTANCES

from clusteragree import DISTANCES, Distance, ParameterError, get_distance, set_distance
from clusteragree.core.distances import interval, ratio


@pytest.mark.parametrize(
    ("name", "a", "b", "expected"),
    [
        ("masi", {1, 2}, {1, 2, 3, 4}, 2 / 3),
        ("masi_nltk_legacy", {1, 2}, {1, 2, 3, 4}, 0.665),
        ("masi_dkpro", {"A"}, {"A", "B"}, 1 / 6),
        ("passonneau2004", {"A"}, {"A", "B"}, 1 / 3),
        ("passonneau2004", {"A", "B"}, {"A", "C"}, 2 / 3),
        ("passonneau2004", {"A"}, {"B"}, 1.0),
        ("passonneau2004", set(), {"A"}, 1 / 3),
        ("masi_dkpro", set(), {"A"}, 1 / 3),
        ("masi", set(), {"A"}, 1.0),
        ("jaccard", set(), {"A"}, 1.0),
        ("dice", {"a", "b", "d"}, {"b", "d"}, 1 / 5),
        ("nominal", {"a"}, {"a"}, 0.0),
    ],
)
def test_single_pairs_from_the_notes(name: str, a: set, b: set, expected: float) -> None:
    assert get_distance(name)(a, b) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("name", sorted(SET_DISTANCES))
def test_two_empty_sets_are_at_distance_zero(name: str) -> None:
    assert get_distance(name)(set(), set()) == 0.0


@pytest.mark.parametrize("name", sorted(SET_DISTANCES))
def test_vectorised_equals_reference_on_random_pairs(name: str) -> None:
    rng = random.Random(name)
    pairs = [(frozenset(rng.sample(range(6), rng.randint(0, 4))),
              frozenset(rng.sample(range(6), rng.randint(0, 4)))) for _ in range(300)]
    a = np.array([len(x) for x, _ in pairs])
    b = np.array([len(y) for _, y in pairs])
    k = np.array([len(x & y) for x, y in pairs])
    got = get_distance(name).func(a, b, k)
    want = np.array([float(SET_DISTANCES[name](x, y)) for x, y in pairs])
    np.testing.assert_allclose(got, want, atol=1e-12)
    np.testing.assert_allclose(got, get_distance(name).func(b, a, k), atol=1e-12)  # symmetric


def test_nltk_distances_agree() -> None:
    nd = pytest.importorskip("nltk.metrics.distance")
    rng = random.Random(5)
    for _ in range(300):
        x = set(rng.sample(range(8), rng.randint(1, 5)))
        y = set(rng.sample(range(8), rng.randint(1, 5)))
        assert get_distance("masi")(x, y) == pytest.approx(nd.masi_distance(x, y), abs=1e-12)
        assert get_distance("jaccard")(x, y) == pytest.approx(nd.jaccard_distance(x, y))


def test_scalar_levels() -> None:
    assert float(interval(2, 5)) == 9.0
    assert float(ratio(0, 0)) == 0.0
    assert float(ratio(1, 3)) == pytest.approx(float(Fraction(1, 4)))
    with pytest.raises(ParameterError, match="how often every value occurs"):
        get_distance("ordinal")(1, 2)


def test_registry_and_lookup() -> None:
    assert {"nominal", "jaccard", "dice", "masi", "masi_nltk_legacy", "masi_dkpro",
            "passonneau2004", "interval", "ratio", "ordinal"} <= set(DISTANCES)
    assert get_distance("MASI").name == "masi"
    assert get_distance("binary").name == "nominal"
    with pytest.raises(ParameterError, match=r"one of .*Got 'jacard'"):
        get_distance("jacard")
    with pytest.raises(ParameterError, match="Got int"):
        get_distance(3)  # type: ignore[arg-type]


def test_set_distance_decorator_gives_a_set_distance() -> None:
    @set_distance(name="half")
    def half(n_a, n_b, n_ab):
        return 0.5 * get_distance("jaccard").func(n_a, n_b, n_ab)

    assert isinstance(half, Distance) and half.kind == "set" and half.name == "half"
    assert half({1}, {1, 2}) == pytest.approx(0.25)
