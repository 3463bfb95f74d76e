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
@pytest.mark.filterwarnings("ignore::clusteragree.errors.InputWarning")  # gamma-k of a rare one
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


# ------------------------------------------------------------------ the two routes
def test_python_route_equals_compiled_route(monkeypatch):
    """The pure Python candidates (no numba) give the same least disorder as the kernel."""
    import clusteragree.core.alignment as engine

    rng = np.random.default_rng(11)
    cases = []
    for _ in range(6):
        cases.append([[(int(s), int(s) + int(rng.integers(0, 7)), "ab"[rng.integers(2)])
                       for s in rng.integers(0, 40, size=rng.integers(0, 6))]
                      for _ in range(int(rng.integers(3, 5)))])
    compiled = [best_alignment(a).disorder if any(a) else None for a in cases]
    monkeypatch.setattr(engine, "kernels", lambda: None)
    for ann, value in zip(cases, compiled, strict=True):
        if value is not None:
            assert best_alignment(ann).disorder == pytest.approx(value, rel=1e-12)
            if sum(map(len, ann)) <= 9:
                assert value == pytest.approx(brute_disorder(ann), rel=1e-9)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.lists(unit, max_size=5), min_size=3, max_size=4))
def test_candidate_sets_of_both_routes_agree(annotations):
    from clusteragree.core.alignment import _csr, _labels, _near, prepare
    from clusteragree.core.alignment_kernel import kernels
    from clusteragree.core.alignment_python import candidates

    compiled = kernels()
    if compiled is None or not any(annotations):
        return
    cont = prepare(annotations)
    flat = cont.flat()
    n = cont.n_annotators
    gi, gj, d = _near(cont, flat, cont.delta_empty * (math.comb(n, 2) + n - 1))
    labels = _labels(gi, gj, len(flat[0]))
    a, ca, _ = compiled[1](*_csr(gi, gj, d, len(flat[0])), flat[3], labels, n, 1.0, 10**6)
    b, cb, _ = candidates(gi, gj, d, flat[3], labels, n, 1.0, 10**6)
    key = sorted(zip(map(tuple, a.tolist()), ca.round(12).tolist(), strict=True))
    assert key == sorted(zip(map(tuple, b.tolist()), cb.round(12).tolist(), strict=True))


# ------------------------------------------------------------------ gamma-cat and gamma-k
def cat_by_definition(annotations, unitary, delta=1.0, category=None):
    """Mathet (2017): pairs of units in each unitary alignment of k >= 2 units, weight
    max(0, 1 - d_pos) / (k - 1), d_cat 0 or Δ; gamma-k keeps the pairs holding the category."""
    num = weight = 0.0
    for tup in unitary:
        units = [annotations[a][i] for a, i in enumerate(tup) if i is not None]
        k = len(units)
        for x in range(k):
            for y in range(x + 1, k):
                u, v = units[x], units[y]
                if category is not None and category not in (u[2], v[2]):
                    continue
                w = max(0.0, 1 - d_unit(u, v, alpha=1.0, beta=0.0, delta=delta)) / (k - 1)
                num += w * delta * (u[2] != v[2])
                weight += w
    return num, weight


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4).flatmap(lambda n: st.lists(st.lists(unit, max_size=4), min_size=n,
                                                    max_size=n)),
       st.sampled_from([1.0, 0.5, 2.0]))
def test_categorical_sums_by_definition(annotations, delta):
    from clusteragree.core.alignment import prepare
    from clusteragree.core.gamma_cat import categorical_sums

    if not any(annotations):
        return
    cont = prepare(annotations, delta_empty=delta)
    al = best_alignment(cont)
    sums = categorical_sums(cont, al)
    num, weight = cat_by_definition(annotations, al.unitary, delta)
    assert sums.numerator == pytest.approx(num, abs=1e-12)
    assert sums.weight == pytest.approx(weight, abs=1e-12)
    for code, cat in enumerate(cont.categories):
        num, weight = cat_by_definition(annotations, al.unitary, delta, cat)
        assert sums.by_category_numerator[code] == pytest.approx(num, abs=1e-12)
        assert sums.by_category_weight[code] == pytest.approx(weight, abs=1e-12)


def test_gamma_cat_expected_is_the_mean_over_the_samples():
    """gamma-cat's expected disorder: the samples redrawn here from their seeds, each best
    alignment's categorical disorder computed by the definition, averaged."""
    from clusteragree.core.alignment import prepare
    from clusteragree.core.gamma import sample_continuum

    a = [(0, 5, "x"), (8, 12, "y"), (20, 26, "x"), (30, 31, "y")]
    b = [(1, 5, "x"), (8, 13, "x"), (21, 26, "x")]
    r = gamma([a, b], seed=5, min_samples=12, precision=0.5)
    cont = prepare([a, b])
    values = []
    for i in range(r.n_samples):
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(5, spawn_key=(i,))))
        sample = sample_continuum(cont, rng)
        units = [[(s, e, cont.categories[c]) for s, e, c in zip(*parts, strict=True)]
                 for parts in zip(sample.starts, sample.ends, sample.codes, strict=True)]
        num, weight = cat_by_definition(units, best_alignment(sample).unitary)
        if weight > 0:
            values.append(num / weight)
    assert r.cat.samples == len(values)
    assert r.cat.expected == pytest.approx(np.mean(values), rel=1e-12)
    num, weight = cat_by_definition([a, b], r.alignment.unitary)
    assert r.cat.observed == pytest.approx(num / weight)
    assert r.gamma_cat == pytest.approx(1 - (num / weight) / np.mean(values))


def test_gamma_cat_worked_by_hand():
    # pairs (x, x) at the same place (weight 1, d_cat 0) and (y, x) 2 apart in 18 (weight
    # 1 - (2/18)^2 = 80/81, d_cat 1): disorder 80/161; gamma-k of "y": its one pair, 1
    from clusteragree.core.alignment import prepare
    from clusteragree.core.gamma_cat import categorical_sums

    cont = prepare([[(0, 10, "x"), (20, 30, "y")], [(0, 10, "x"), (22, 30, "x")]])
    s = categorical_sums(cont, best_alignment(cont))
    assert s.disorder == pytest.approx(80 / 161)
    assert s.category_disorder(1) == 1.0
    assert s.category_disorder(0) == pytest.approx((80 / 81) / (1 + 80 / 81))


def pygamma_alignment(alignment, annotations, names):
    """pygamma's best alignment as unitary tuples of our indices (units matched by their
    offsets and category, each used once)."""
    free = [dict() for _ in annotations]
    for a, units in enumerate(annotations):
        for i, u in enumerate(units):
            free[a].setdefault(u, []).append(i)
    unitary = []
    for ua in alignment.unitary_alignments:
        tup = [None] * len(annotations)
        for annotator, u in ua.n_tuple:
            if u is not None:
                a = names.index(annotator)
                key = (float(u.segment.start), float(u.segment.end), u.annotation)
                tup[a] = free[a][key].pop(0)
        unitary.append(tuple(tup))
    return unitary


@pytest.mark.slow  # pygamma's first call compiles with numba (about 40 s here)
@pytest.mark.parametrize("name", ["AlexPaulSuzan.csv", "annotation_paul_suzann_alex.csv",
                                  "3by100.csv"])
def test_categorical_disorder_against_pygamma(name):
    """pygamma's gamma-cat and gamma-k disorders of its own best alignment, from our sums on
    that alignment. pygamma also counts each pair of a unit with an empty slot, adding Δ² to
    the numerator and Δ to the weight (its "experimental" case); with alpha = 1 its pairing
    confidence is the paper's."""
    pg = pytest.importorskip("pygamma_agreement")
    from clusteragree.core.alignment import Alignment, prepare
    from clusteragree.core.gamma_cat import categorical_sums

    path = FIXTURES / name
    ann = read_pygamma_csv(path)
    cont = prepare(ann)
    continuum = pg.Continuum.from_csv(str(path))
    dissim = pg.CombinedCategoricalDissimilarity(alpha=1, beta=1, delta_empty=1)
    theirs = continuum.get_best_alignment(dissim)
    names = sorted(continuum.annotators)
    unitary = pygamma_alignment(theirs, ann, names)
    sums = categorical_sums(cont, Alignment(tuple(unitary), (), float("nan")))
    n = len(ann)
    for code, category in [(None, None), *enumerate(cont.categories)]:
        extra = 0  # pairs of a unit (holding the category) with an empty slot
        for tup in unitary:
            units = [ann[a][i] for a, i in enumerate(tup) if i is not None]
            hold = len(units) if category is None else sum(u[2] == category for u in units)
            extra += hold * (n - len(units))
        num = sums.numerator if code is None else sums.by_category_numerator[code]
        weight = sums.weight if code is None else sums.by_category_weight[code]
        expected = float(theirs.gamma_k_disorder(dissim, category))
        if weight + extra > 0 and num + extra > 0:
            assert (num + extra) / (weight + extra) == pytest.approx(expected, rel=1e-5)


@pytest.mark.slow
def test_gamma_cat_against_pygamma_without_empty_slots():
    """Where no unitary alignment has an empty slot, in the data and in the samples, both
    definitions coincide: three annotators mark the same units, moved a little, some with
    another category; gamma-cat's observed disorder equals pygamma's."""
    pg = pytest.importorskip("pygamma_agreement")
    from pyannote.core import Segment

    rng = np.random.default_rng(3)
    ann = []
    for _ in range(3):
        ann.append([(float(10 * i + rng.integers(0, 2)), float(10 * i + 6 + rng.integers(0, 2)),
                     "ab"[int(i % 2 if rng.random() > 0.2 else 1 - i % 2)]) for i in range(8)])
    mine = gamma(ann, seed=1, min_samples=10, precision=0.2)
    assert all(None not in tup for tup in mine.alignment.unitary)
    continuum = pg.Continuum()
    for a, units in enumerate(ann):
        for s, e, c in units:
            continuum.add(f"a{a}", Segment(s, e), c)
    dissim = pg.CombinedCategoricalDissimilarity(alpha=1, beta=1, delta_empty=1)
    theirs = continuum.get_best_alignment(dissim)
    assert mine.observed == pytest.approx(float(theirs.disorder), rel=1e-5)
    assert mine.cat.observed == pytest.approx(float(theirs.gamma_k_disorder(dissim, None)),
                                              rel=1e-5)


def test_more_than_128_categories():
    """pygamma indexes its category matrix with int8 (wrong rows above 128 categories); the
    sums here follow the definition with 300 categories."""
    from clusteragree.core.alignment import prepare
    from clusteragree.core.gamma_cat import categorical_sums

    rng = np.random.default_rng(8)
    labels = [f"c{i}" for i in range(300)]
    base = [(10.0 * i, 10.0 * i + 6, labels[i]) for i in range(300)]
    other = [(s + rng.integers(0, 2), e, labels[(i * 7) % 300] if i % 3 else c)
             for i, (s, e, c) in enumerate(base)]
    cont = prepare([base, other])
    al = best_alignment(cont)
    sums = categorical_sums(cont, al)
    num, weight = cat_by_definition([base, other], al.unitary)
    assert sums.numerator == pytest.approx(num) and sums.weight == pytest.approx(weight)
    assert len(cont.categories) == 300 and 0 < sums.disorder < 1


def test_relaxation_route_equals_exhaustive_search(monkeypatch):
    """The groups' partitions found by the linear relaxation (integral vertex, reduced-cost
    fixing, integer program) cost what the bounded exhaustive search finds, group by group,
    on continua of 3 to 5 annotators and their samples."""
    import clusteragree.core.alignment as engine
    from clusteragree.core.gamma import sample_continuum

    compiled = engine.kernels()
    if compiled is None:
        pytest.skip("numba is absent: the exhaustive search is the compiled one")
    seen = []
    relax = engine._partitions

    def both(parts, delta, kernel):
        monkeypatch.setattr(engine, "SMALL_GROUP", -1)
        found = relax(parts, delta, kernel)
        for (n_units, ptr, local, cost, _), picked in zip(parts, found, strict=True):
            _, best, done = compiled[2](n_units, ptr, local, cost, delta, 20_000)
            if done:
                total = cost[picked].sum() + delta * (n_units - np.diff(ptr)[picked].sum())
                seen.append((total, best))
        return found

    monkeypatch.setattr(engine, "_partitions", both)
    rng = np.random.default_rng(0)
    for n, m in [(3, 40), (4, 30), (5, 20)]:
        starts = np.cumsum(rng.integers(6, 20, m))  # units of a reference, each annotator
        ann = [[(float(s + rng.integers(-2, 3)), float(s + rng.integers(3, 9)),  # moving them
                 "xyz"[rng.integers(3)]) for s in starts if rng.random() > 0.1]
               for _ in range(n)]
        cont = engine.prepare(ann)
        for c in (cont, sample_continuum(cont, rng)):
            engine.best_alignment(c)
    assert len(seen) >= 10
    for total, best in seen:
        assert total == pytest.approx(best, rel=1e-12, abs=1e-12)
