"""Cross-check against NLTK's AnnotationTask (exact-thirds MASI since nltk 3.10.1)."""

from __future__ import annotations

import random

import pytest

from clusteragree import CodingTable, alpha

agreement = pytest.importorskip("nltk.metrics.agreement")
nltk_distance = pytest.importorskip("nltk.metrics.distance")

NLTK = {
    "masi": nltk_distance.masi_distance,
    "jaccard": nltk_distance.jaccard_distance,
    "nominal": nltk_distance.binary_distance,
}


def _random_set_data(seed: int, n_units: int, n_coders: int) -> list[tuple[str, int, frozenset]]:
    rng = random.Random(seed)
    labels = list(range(12))
    recs = []
    for u in range(n_units):
        for c in range(n_coders):
            if rng.random() < 0.15:
                continue  # missing
            recs.append((f"c{c}", u, frozenset(rng.sample(labels, rng.randint(1, 4)))))
    return recs


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("name", sorted(NLTK))
def test_alpha_equals_nltk_on_random_sets(seed: int, name: str) -> None:
    recs = _random_set_data(seed, n_units=40, n_coders=2 + seed % 3)
    expected = agreement.AnnotationTask(data=recs, distance=NLTK[name]).alpha()
    assert alpha(CodingTable.from_records(recs), name).alpha == pytest.approx(expected, abs=1e-10)


@pytest.mark.parametrize("seed", range(4))
def test_class_derived_alpha_equals_nltk(seed: int) -> None:
    rng = random.Random(seed)
    n = 60
    a = [rng.randrange(15) for _ in range(n)]
    b = [k if rng.random() < 0.7 else rng.randrange(15) for k in a]
    a, b = [*a, 100, 101], [*b, 200, 200]  # a singleton: empty sets in both coders
    table = CodingTable.from_clusterings({"A": a, "B": b})
    recs = [(c, u, v) for c, u, v in table.records()]
    for name, dist in NLTK.items():
        # NLTK's MASI and Jaccard divide by zero on two empty sets; we define that distance as 0.
        safe = (lambda f: lambda x, y: 0.0 if not x and not y else f(x, y))(dist)
        expected = agreement.AnnotationTask(data=recs, distance=safe).alpha()
        assert alpha(table, name).alpha == pytest.approx(expected, abs=1e-10)


def test_interval_equals_nltk() -> None:
    rng = random.Random(3)
    recs = [(f"c{c}", u, rng.randint(1, 7)) for u in range(50) for c in range(3)
            if rng.random() > 0.2]
    expected = agreement.AnnotationTask(data=recs, distance=nltk_distance.interval_distance).alpha()
    assert alpha(CodingTable.from_records(recs), "interval").alpha == pytest.approx(expected)


def test_user_callable_matches_named_distance() -> None:
    recs = _random_set_data(11, n_units=30, n_coders=3)
    table = CodingTable.from_records(recs)
    assert alpha(table, nltk_distance.masi_distance).alpha == pytest.approx(
        alpha(table, "masi").alpha, abs=1e-12
    )
