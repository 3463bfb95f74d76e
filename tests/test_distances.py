"""Set and scalar distances: single-pair values from the notes, NLTK, and vectorisation;
distances alpha cannot weigh (NaN, negative), values at any scale, dispatch by declaration."""

from __future__ import annotations

import random
from fractions import Fraction

import krippendorff
import numpy as np
import pytest
from reference import SET_DISTANCES

from clusteragree import (
    DISTANCES,
    CodingTable,
    Distance,
    ParameterError,
    alpha,
    get_distance,
    set_distance,
)
from clusteragree.core.distances import as_numbers, interval, ratio


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


# ---------------------------------------------------------------- distances alpha cannot weigh
TWO_CODERS = [[1, 2, 3, 3], [1, 2, 4, 3]]


def _refused(distance: object, table: object, pair: str, got: str) -> None:
    with pytest.raises(ParameterError) as caught:
        alpha(table, distance)
    assert f"gives {got} for {pair}" in str(caught.value)
    assert caught.value.params == ("distance",)


def test_a_distance_giving_nan_or_a_negative_number_is_refused_with_the_pair() -> None:
    # NaN used to make alpha NaN without an `undefined` warning; -1 used to be summed
    table = CodingTable.from_matrix(TWO_CODERS)

    def nan_for_3_and_4(x, y):
        return float("nan") if {x, y} == {3, 4} else float(x != y)

    _refused(nan_for_3_and_4, table, "the values 3 and 4", "nan")
    _refused(lambda x, y: -1.0 * (x != y), table, "the values 3 and 4", "-1.0")
    _refused(Distance("signed", "scalar", lambda x, y: np.asarray(x, float) - y), table,
             "the values 3 and 4", "-1.0")  # the pairs of units first: 3 - 4
    _refused(Distance("inf", "scalar", lambda x, y: np.where(np.asarray(x) == y, 0, np.inf)),
             table, "the values 3 and 4", "inf")
    # set distances see cardinalities: the pair is named by them, on both engines
    negative = set_distance(lambda a, b, k: -np.ones(np.broadcast(a, b, k).shape),
                            name="negative")
    sets = CodingTable.from_records([("A", 1, {"a"}), ("B", 1, {"a", "b"}), ("A", 2, {"b"}),
                                     ("B", 2, {"c"})])
    _refused(negative, sets, "two sets of 1 and 1 labels with 0 in common", "-1.0")
    _refused(negative, CodingTable.from_clusterings({"A": [0, 0, 1], "B": [0, 1, 1]}),
             "two sets of 0 and 1 labels with 0 in common", "-1.0")
    # Jaccard written without the case of two empty sets (0/0), as NLTK's is
    plain_jaccard = set_distance(lambda a, b, k: 1 - np.asarray(k) / (np.asarray(a) + b - k),
                                 name="plain_jaccard")
    empty = CodingTable.from_records([("A", 1, set()), ("B", 1, set()), ("A", 2, {"b"}),
                                      ("B", 2, {"c"})])
    with np.errstate(invalid="ignore"):
        _refused(plain_jaccard, empty, "two sets of 0 and 0 labels with 0 in common", "nan")


@pytest.mark.parametrize("power", [-300, -150, -7, 0, 7, 150, 300])
@pytest.mark.parametrize("level", ["interval", "ratio", "ordinal"])
def test_alpha_is_the_same_at_any_scale_of_the_values(power: int, level: str) -> None:
    data = np.array([[1, 0.6, -1, 0.5, 2], [1, -1, -1, 0.5, 1.5], [np.nan, 0.6, -1, 0.4, 2]])
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
    scaled = data * 10.0**power
    try:
        got = alpha(CodingTable.from_matrix(scaled), level)
    except ParameterError as err:  # D_o and D_e of interval leave the range of floats
        assert level == "interval" and abs(power) == 300
        assert f"alpha (interval) is {expected:.6g}" in str(err)
        assert "range of floating-point numbers" in str(err) and "D_e is 0" not in str(err)
        return
    assert got.alpha == pytest.approx(expected, abs=1e-9)  # was NaN ("D_e is 0") at 1e-7
    if level == "interval":
        unscaled = alpha(CodingTable.from_matrix(data), level)
        assert got.D_o == pytest.approx(unscaled.D_o * 10.0 ** (2 * power), rel=1e-9)


def test_ratio_of_numbers_near_the_largest_float_does_not_overflow() -> None:
    data = np.array([[1, 0.6, -1, 0.5], [1, -1, -1, 0.5]])
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement="ratio")
    huge = CodingTable.from_matrix(data * 1.7e308)
    assert alpha(huge, "ratio").alpha == pytest.approx(expected, abs=1e-12)
    assert float(ratio(1.7e308, -1.7e308 / 3)) == pytest.approx(4.0)


def test_values_a_tiny_fraction_apart_from_whole_numbers_stay_distinct() -> None:
    # numeric_cells once took 1e-20 for 0 (shifted by the smallest whole number first)
    data = np.array([[1e-20, 0.0, 1e-20, 2.0], [1e-20, 1e-20, 0.0, 2.0]])
    table = CodingTable.from_matrix(data)
    assert len(table.values) == 3
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    assert alpha(table, "nominal").alpha == pytest.approx(expected)


def test_the_engines_follow_what_a_distance_declares() -> None:
    def never(x, y):
        raise AssertionError("an embedded distance is summed in closed form")

    embedded = Distance("anything", "scalar", never, embedding=as_numbers)
    table = CodingTable.from_matrix(TWO_CODERS)
    assert alpha(table, embedded).alpha == pytest.approx(alpha(table, "interval").alpha)
    equal = Distance("whatever", "value", never, equality=True)
    assert alpha(table, equal).alpha == pytest.approx(alpha(table, "nominal").alpha)
