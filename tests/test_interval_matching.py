"""The maximum matchings of clusteragree.core.interval_matching against a textbook
augmenting-path matching on random interval sets (hypothesis): dense, nested and crossing
intervals, long chains, both the side-by-side rounds and the one-chain heap route."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree.core import interval_matching
from clusteragree.core.interval_matching import exact_pairs, overlap_pairs


def kuhn(a: list[tuple[int, int]], b: list[tuple[int, int]], fits) -> int:
    """Maximum bipartite matching by augmenting paths."""
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in range(len(b)):
            if j not in seen and fits(a[i], b[j]):
                seen.add(j)
                if j not in owner or augment(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return sum(augment(i, set()) for i in range(len(a)))


interval = st.tuples(st.integers(0, 2), st.integers(0, 1), st.integers(0, 30),
                     st.integers(1, 12))


def arrays(items: list[tuple[int, int, int, int]]):
    key = np.array([k for k, _, _, _ in items], dtype=np.int64)
    side = np.array([d for _, d, _, _ in items], dtype=np.int64)
    start = np.array([s for _, _, s, _ in items], dtype=np.int64)
    end = start + np.array([w for _, _, _, w in items], dtype=np.int64)
    return key, start, end, side


def brute(items, fits) -> list[int]:
    return [kuhn([(s, s + w) for k, d, s, w in items if k == key and d == 0],
                 [(s, s + w) for k, d, s, w in items if k == key and d == 1], fits)
            for key in range(3)]


def overlapping(x: tuple[int, int], y: tuple[int, int]) -> bool:
    return min(x[1], y[1]) > max(x[0], y[0])


@settings(max_examples=150, deadline=None)
@given(st.lists(interval, max_size=60), st.sampled_from([0, 4, 8, 64]))
def test_overlap_pairs_is_a_maximum_matching(items, rounds_up_to) -> None:
    """0: every chain of two or more of each side goes to the heap route; 4 and 8: longer
    chains do; 64: the rounds take all of these."""
    expected = brute(items, overlapping)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(interval_matching, "ROUNDS_UP_TO", rounds_up_to)
        assert overlap_pairs(*arrays(items), 3).tolist() == expected


@settings(max_examples=100, deadline=None)
@given(st.lists(interval, max_size=40))
def test_exact_pairs_is_a_maximum_matching(items) -> None:
    assert exact_pairs(*arrays(items), 3).tolist() == brute(items, lambda x, y: x == y)


def test_packed_and_sorted_orders_agree() -> None:
    """Offsets too large to pack into one integer take the three-column sort."""
    rng = np.random.default_rng(0)
    key = rng.integers(0, 3, 200)
    start = rng.integers(0, 40, 200)
    end = start + rng.integers(1, 9, 200)
    side = rng.integers(0, 2, 200)
    big = 2**40
    for fn in (exact_pairs, overlap_pairs):
        assert fn(key, start + big, end + big, side, 3).tolist() == fn(key, start, end, side,
                                                                        3).tolist()


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 12), st.integers(1, 5)),
                min_size=1, max_size=16), st.sampled_from([0, 64]))
def test_greedy_on_any_set_of_intervals(items, rounds_up_to) -> None:
    """The greedy needs no chain: on any set (touching intervals included), either route
    finds a maximum matching."""
    side = np.array([d for d, _, _ in items], dtype=np.int64)
    start = np.array([s for _, s, _ in items], dtype=np.int64)
    end = start + np.array([w for _, _, w in items], dtype=np.int64)
    expected = kuhn([(s, s + w) for d, s, w in items if d == 0],
                    [(s, s + w) for d, s, w in items if d == 1], overlapping)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(interval_matching, "ROUNDS_UP_TO", rounds_up_to)
        found = interval_matching._greedy(start, end, side, np.array([0]),
                                          np.array([len(items)]))
    assert found.tolist() == [expected]
