"""Gamma's best alignment against a brute-force enumeration of every alignment and against
pygamma-agreement (test-only oracle, skipped when absent); gamma's edge cases."""

from __future__ import annotations

import csv
import math
from collections import defaultdict
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree.core.alignment import best_alignment
from clusteragree.core.gamma import gamma
from clusteragree.errors import InputWarning, ParameterError

FIXTURES = Path(__file__).resolve().parent.parent / "corpora_fixtures" / "gamma"


def d_unit(u, v, alpha=1.0, beta=1.0, delta=1.0):
    if u is None or v is None:
        return delta
    num, den = abs(u[0] - v[0]) + abs(u[1] - v[1]), (u[1] - u[0]) + (v[1] - v[0])
    pos = (num / den) ** 2 if den else (0.0 if num == 0 else math.inf)
    return delta * (alpha * pos + beta * (u[2] != v[2]))


def brute_disorder(annotations, **kw):
    """Least disorder over every partition of the units into unitary alignments, from the
    paper's definitions alone."""
    n = len(annotations)
    units = [(a, i) for a in range(n) for i in range(len(annotations[a]))]
    best = math.inf

    def cost(group):
        picks = {a: annotations[a][i] for a, i in group}
        members = [picks.get(a) for a in range(n)]
        pairs = [(x, y) for x in range(n) for y in range(x + 1, n)]
        return sum(d_unit(members[x], members[y], **kw) for x, y in pairs) / len(pairs)

    def rec(rest, total):
        nonlocal best
        if not rest:
            best = min(best, total)
            return
        first, others = rest[0], rest[1:]
        # the unitary alignment holding `first`: any subset of the others, one per annotator
        free = [u for u in others if u[0] != first[0]]
        for mask in product((0, 1), repeat=len(free)):
            chosen = [u for u, m in zip(free, mask, strict=True) if m]
            if len({a for a, _ in chosen}) != len(chosen):
                continue
            group = [first, *chosen]
            rec([u for u in others if u not in chosen], total + cost(group))

    rec(units, 0.0)
    total_units = len(units)
    return best / (total_units / n) if total_units else math.nan


unit = st.tuples(st.integers(0, 30), st.integers(0, 12), st.sampled_from("ab")).map(
    lambda t: (t[0], t[0] + t[1], t[2]))


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 3).flatmap(lambda n: st.lists(st.lists(unit, max_size=4 if n == 2 else 3),
                                                    min_size=n, max_size=n)),
       st.sampled_from([(1.0, 1.0, 1.0), (3.0, 1.0, 1.0), (1.0, 0.5, 0.5)]))
def test_best_alignment_equals_brute_force(annotations, weights):
    alpha, beta, delta = weights
    if not any(annotations):
        return
    al = best_alignment(annotations, alpha=alpha, beta=beta, delta_empty=delta)
    expected = brute_disorder(annotations, alpha=alpha, beta=beta, delta=delta)
    assert al.disorder == pytest.approx(expected, rel=1e-9, abs=1e-12)
    # the alignment is a partition and its disorders are those of its unitary alignments
    seen = sorted((a, i) for tup in al.unitary for a, i in enumerate(tup) if i is not None)
    assert seen == [(a, i) for a in range(len(annotations)) for i in range(len(annotations[a]))]
    n = len(annotations)
    for tup, dis in zip(al.unitary, al.disorders, strict=True):
        members = [None if i is None else annotations[a][i] for a, i in enumerate(tup)]
        pairs = [(x, y) for x in range(n) for y in range(x + 1, n)]
        assert dis == pytest.approx(sum(d_unit(members[x], members[y], alpha, beta, delta)
                                        for x, y in pairs) / len(pairs))


def test_four_annotators_brute_force():
    rng = np.random.default_rng(5)
    for _ in range(5):
        annotations = []
        for _ in range(4):
            starts = rng.integers(0, 20, size=rng.integers(0, 3))
            annotations.append([(int(s), int(s + rng.integers(1, 8)), "ab"[rng.integers(2)])
                                for s in starts])
        if any(annotations):
            assert best_alignment(annotations).disorder == pytest.approx(
                brute_disorder(annotations), rel=1e-9)


def test_worked_value_by_hand():
    # second pair: ((2 + 0) / (10 + 8))^2 = 1/81; one unit alone costs 1; 3 units / 2 annotators
    al = best_alignment([[(0, 10, "x"), (20, 30, "y")], [(22, 30, "y")]])
    assert al.unitary == ((0, None), (1, 0))
    assert al.disorder == pytest.approx((1 + 1 / 81) / 1.5)


def test_identical_annotations():
    a = [(0, 5, "x"), (10, 12, "y"), (11, 20, "x")]
    r = gamma([a, a, a], min_samples=10, precision=0.1)
    assert r.observed == 0 and r.gamma == 1.0
    assert r.expected > 0 and r.n_samples >= 10 and r.seed == 0


def test_one_annotator_marks_nothing():
    a = [(0, 5, "x"), (10, 12, "y")]
    al = best_alignment([a, []])
    assert al.disorder == pytest.approx(2 * 1.0 / (2 / 2))  # two units alone, 1 unit/annotator
    with pytest.warns(InputWarning) as seen:
        r = gamma([a, []], min_samples=10, precision=0.1)
    assert {str(w.message).split(":")[1].split(" is")[0].strip() for w in seen} == {
        "gamma-cat", "gamma-k"}
    assert r.gamma < 0.5 and np.isfinite(r.gamma)
    assert math.isnan(r.gamma_cat) and r.cat.weight == 0


def test_nobody_marks_anything():
    with pytest.warns(InputWarning, match="undefined"):
        r = gamma([[], []])
    assert math.isnan(r.gamma)


@pytest.mark.parametrize("bad", [[(4, 3, "x")], [(0, math.inf, "x")]])
def test_reversed_and_infinite_units_are_refused(bad):
    with pytest.raises(ParameterError, match=r"end|finite") as err:
        best_alignment([bad, [(0, 1, "x")]])
    assert err.value.params == ("annotations",)


def test_zero_length_units():
    # same point: d_pos 0; other points: never aligned; with a proper unit: the formula
    al = best_alignment([[(3, 3, "x"), (10, 10, "x")], [(3, 3, "x"), (11, 11, "x")]])
    assert al.disorder == pytest.approx((0 + 1 + 1) / 2)
    al = best_alignment([[(3, 3, "x")], [(3, 5, "x")]])
    assert al.disorder == pytest.approx((2 / 2) ** 2)  # paired: 1, better than alone: 2 / 1
    with pytest.warns(InputWarning, match="undefined"):
        assert math.isnan(gamma([[(3, 3, "x")], [(3, 3, "x")]]).gamma)


def test_parameters_refused():
    with pytest.raises(ParameterError) as err:
        best_alignment([[(0, 1, "x")]])
    assert err.value.params == ("annotations",)
    with pytest.raises(ParameterError) as err:
        best_alignment([[(0, 1, "x")], [(0, 1, "y")]], categories=["x", "y"])
    assert err.value.params == ("categories", "category_matrix")
    with pytest.raises(ParameterError) as err:
        gamma([[(0, 1, "x")], [(0, 1, "y")]], precision=0)
    assert err.value.params == ("precision",)


def test_candidate_cap_is_refused():
    rng = np.random.default_rng(0)
    ann = [[(int(s), int(s) + 5, "x") for s in rng.integers(0, 40, size=8)] for _ in range(4)]
    with pytest.raises(ParameterError, match="max_candidates") as err:
        best_alignment(ann, max_candidates=10)
    assert err.value.params == ("max_candidates",)


def test_category_matrix_is_used():
    a, b = [(0, 10, "x")], [(0, 10, "y")]
    assert best_alignment([a, b]).disorder == pytest.approx(1.0)  # paired (1) = alone (2/2)
    half = best_alignment([a, b], categories=["x", "y"], category_matrix=[[0, .5], [.5, 0]])
    assert half.disorder == pytest.approx(0.5)


def test_seed_reproducible_and_precision_reported():
    a = [(0, 5, "x"), (8, 12, "y"), (20, 26, "x"), (30, 31, "y")]
    b = [(1, 5, "x"), (8, 13, "x"), (21, 26, "x")]
    r1, r2 = gamma([a, b], seed=3, precision=0.05), gamma([a, b], seed=3, precision=0.05)
    assert r1 == r2
    assert r1.precision <= 0.05 and r1.n_samples >= 30
    other = gamma([a, b], seed=4, precision=0.05)
    assert other.expected == pytest.approx(r1.expected, rel=0.08)  # two ±5% intervals


def read_pygamma_csv(path):
    units = defaultdict(list)
    with open(path, newline="") as handle:
        for row in csv.reader(handle):
            units[row[0]].append((float(row[2]), float(row[3]), row[1]))
    return [sorted(units[k]) for k in sorted(units)]


@pytest.mark.slow  # pygamma's first call compiles with numba (about 40 s here)
@pytest.mark.parametrize("name", [
    "AlexPaulSuzan.csv", "annotation_paul_suzann_alex.csv", "example_figure10.csv",
    "example_figure19.csv", "3by100.csv"])
def test_best_alignment_equals_pygamma(name):
    pg = pytest.importorskip("pygamma_agreement")
    path = FIXTURES / name
    mine = best_alignment(read_pygamma_csv(path), alpha=3, beta=1)
    continuum = pg.Continuum.from_csv(str(path))
    dissim = pg.CombinedCategoricalDissimilarity(alpha=3, beta=1, delta_empty=1)
    theirs = continuum.get_best_alignment(dissim)
    assert mine.disorder == pytest.approx(float(theirs.disorder), rel=1e-5)  # float32 there


def test_published_values():
    # pygamma-agreement's tests/test_gammas.py (alpha=3, beta=1, delta_empty=1): disorder 0.96
    # within 1% on AlexPaulSuzan, 127 unitary alignments on 3by100
    ann = read_pygamma_csv(FIXTURES / "AlexPaulSuzan.csv")
    assert best_alignment(ann, alpha=3, beta=1).disorder == pytest.approx(0.96, rel=0.01)
    ann = read_pygamma_csv(FIXTURES / "3by100.csv")
    assert len(best_alignment(ann, alpha=3, beta=1).unitary) == 127


@pytest.mark.slow
def test_gamma_within_sampling_error_of_pygamma():
    pg = pytest.importorskip("pygamma_agreement")
    from pygamma_agreement.sampler import ShuffleContinuumSampler

    path = FIXTURES / "AlexPaulSuzan.csv"
    mine = gamma(read_pygamma_csv(path), alpha=3, beta=1, precision=0.01, seed=1)
    np.random.seed(4772)
    continuum = pg.Continuum.from_csv(str(path))
    dissim = pg.CombinedCategoricalDissimilarity(alpha=3, beta=1, delta_empty=1)
    theirs = continuum.compute_gamma(dissim, sampler=ShuffleContinuumSampler("float_pivot"),
                                     precision_level=0.01)
    # both expected disorders within 1% (95%); allow 3% for the two samplers' boundary rules
    assert mine.expected == pytest.approx(float(theirs.expected_disorder), rel=0.03)
    assert mine.gamma == pytest.approx(float(theirs.gamma), abs=0.03)
