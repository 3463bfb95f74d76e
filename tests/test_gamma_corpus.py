"""Gamma of a corpus of spans (clusteragree.core.span_gamma): the pooled rows against a
combination by hand of the per-document statistics, the bootstrap over documents, the
alignment frame against best_alignment, and the edge cases (an annotator who marks nothing,
identical annotations, no shared document, an empty document, zero-length and nested
units)."""

from __future__ import annotations

import math
import warnings
from collections import defaultdict

import numpy as np
import pandas as pd
import pytest

from clusteragree.core import TOTAL, best_alignment, bootstrap_gamma, span_gamma
from clusteragree.core.gamma_corpus import GAMMA_COLUMNS, gamma_frame, pool_gamma
from clusteragree.errors import InputError, InputWarning, ParameterError

FAST = {"min_samples": 8, "precision": 0.3}
# undefined gamma-k of rare categories in small documents is reported: not what these check
pytestmark = pytest.mark.filterwarnings("ignore::clusteragree.errors.InputWarning")


def corpus(n_docs=3, n=3, seed=0, units=6):
    """Annotators derived from a reference: boundaries moved, some units missed, some added,
    some categories swapped."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(n_docs):
        starts = np.cumsum(rng.integers(3, 12, units))
        lengths = rng.integers(1, 6, units)
        cats = rng.choice(list("xyz"), units)
        for a in range(n):
            for s, e, c in zip(starts, starts + lengths, cats, strict=True):
                if rng.random() < 0.1:
                    continue
                c = c if rng.random() > 0.15 else rng.choice(list("xyz"))
                move = rng.integers(-1, 2, 2)
                rows.append((f"A{a}", f"d{d}", int(s + move[0]), int(max(e + move[1], s + move[0])),
                             c))
            if rng.random() < 0.5:
                s = int(rng.integers(0, starts[-1]))
                rows.append((f"A{a}", f"d{d}", s, s + 2, "x"))
    return pd.DataFrame(rows, columns=["annotator", "document", "start", "end", "label"])


def per_document(frame, annotators):
    """Each document's units per annotator, in the order of the rows (what span_gamma gives
    prepare), with their row numbers."""
    docs = {}
    for doc in pd.unique(frame["document"]):
        part = frame[frame["document"] == doc]
        docs[doc] = ([[(float(r.start), float(r.end), r.label) for r in part.itertuples()
                       if r.annotator == a] for a in annotators],
                     [[i for i, r in zip(part.index, part.itertuples(), strict=True)
                       if r.annotator == a] for a in annotators])
    return docs


def test_pooled_rows_combine_the_document_rows():
    frame = corpus()
    r = span_gamma(frame, seed=3, **FAST)
    rows = r.rows
    docs, pooled = rows[~rows.pooled], rows[rows.pooled]
    assert (pooled["document"] == TOTAL).all()
    for _, p in pooled.iterrows():
        same = docs[(docs.measure == p.measure)
                    & docs.category.map(lambda c, k=p.category: c == k or (c != c and k != k))]
        ok = (same.weight > 0) & same.observed.notna() & same.expected.notna()
        w, o, e = (same[c][ok].to_numpy() for c in ("weight", "observed", "expected"))
        assert p.value == pytest.approx(1 - (w * o).sum() / (w * e).sum(), rel=1e-12)
        assert p.observed == pytest.approx((w * o).sum() / w.sum(), rel=1e-12)
        assert p.expected == pytest.approx((w * e).sum() / w.sum(), rel=1e-12)
        prec = same.precision[ok].to_numpy()
        assert p.precision == pytest.approx(
            math.sqrt(((w * prec * e) ** 2).sum()) / (w * e).sum(), rel=1e-12)
        assert p.n_samples == same.n_samples.sum() and p.units == same.units.sum()


def test_pooled_observed_disorder_is_that_of_all_the_unitary_alignments():
    """Σ w o over documents is the sum of every unitary disorder of the corpus (read from the
    alignment frame), and Σ w the units over the annotators."""
    frame = corpus(seed=1)
    r = span_gamma(frame, measures=["gamma"], seed=1, **FAST)
    unitary = r.alignment.drop_duplicates(["document", "alignment"])
    total = r.rows[r.rows.pooled].iloc[0]
    n = frame.annotator.nunique()
    assert total.observed == pytest.approx(unitary.disorder.sum() / (len(frame) / n), rel=1e-12)
    docs = r.rows[~r.rows.pooled].set_index("document")
    for doc, part in frame.groupby("document"):
        assert docs.loc[doc, "units"] == len(part)
        assert docs.loc[doc, "weight"] == pytest.approx(len(part) / n)


def test_document_values_are_those_of_one_continuum():
    """Each document's observed disorder is its best alignment's; its expected disorder agrees
    with gamma() on that document (other seeds) within both precisions."""
    from clusteragree.core.gamma import gamma

    frame = corpus(n_docs=2, seed=2)
    annotators = list(pd.unique(frame.annotator))
    r = span_gamma(frame, seed=0, min_samples=30, precision=0.05)
    rows = r.rows[~r.rows.pooled]
    for doc, (units, _) in per_document(frame, annotators).items():
        g = rows[(rows.document == doc) & (rows.measure == "gamma")].iloc[0]
        assert g.observed == pytest.approx(best_alignment(units).disorder, rel=1e-12)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", InputWarning)
            alone = gamma(units, seed=11, min_samples=30, precision=0.05)
        band = 2 * (g.precision + alone.precision) * g.expected
        assert abs(alone.expected - g.expected) <= band
        cat = rows[(rows.document == doc) & (rows.measure == "gamma-cat")].iloc[0]
        assert cat.observed == pytest.approx(alone.cat.observed, rel=1e-12)
        assert cat.weight == pytest.approx(alone.cat.weight, rel=1e-12)


def test_alignment_frame_is_the_best_alignment():
    frame = corpus(seed=4)
    annotators = list(pd.unique(frame.annotator))
    r = span_gamma(frame, measures=["gamma"], seed=0, **FAST)
    for doc, (units, rows_of) in per_document(frame, annotators).items():
        al = best_alignment(units)
        part = r.alignment[r.alignment.document == doc]
        rebuilt = defaultdict(lambda: [None] * len(annotators))
        disorder = {}
        for row in part.itertuples():
            a = annotators.index(row.annotator)
            rebuilt[row.alignment][a] = rows_of[a].index(row.span)
            disorder[row.alignment] = row.disorder
            source = frame.loc[row.span]
            assert (source.start, source.end, source.label, source.annotator) == (
                row.start, row.end, row.label, row.annotator)
            assert row.size == sum(x is not None for x in al.unitary[row.alignment])
        assert [tuple(rebuilt[k]) for k in sorted(rebuilt)] == list(al.unitary)
        assert [disorder[k] for k in sorted(disorder)] == pytest.approx(list(al.disorders))


def test_bootstrap_resamples_documents_from_the_rows():
    frame = corpus(n_docs=5, seed=5)
    r = span_gamma(frame, seed=0, **FAST)
    b = r.bootstrap(n=400, seed=2, interval="percentile")
    docs = r.rows[~r.rows.pooled]
    g = docs[docs.measure == "gamma"]
    w, o, e = (g[c].to_numpy() for c in ("weight", "observed", "expected"))
    # every resample is a pooled value of some multiset of documents: within these bounds
    ratios = o / e
    row = b[b.measure == "gamma"].iloc[0]
    assert 1 - ratios.max() - 1e-12 <= row.ci_low <= row.value <= row.ci_high <= \
        1 - ratios.min() + 1e-12
    assert row.documents == 5 and row.resamples == 400 and row.se > 0
    # the same resamples drawn here, by hand
    rng = np.random.default_rng(2)
    values = []
    for _ in range(400):
        pick = rng.integers(0, 5, 5)
        values.append(1 - (w * o)[pick].sum() / (w * e)[pick].sum())
    assert row.ci_low == pytest.approx(np.quantile(values, 0.025), rel=1e-12)
    assert row.ci_high == pytest.approx(np.quantile(values, 0.975), rel=1e-12)
    bca = bootstrap_gamma(r.rows, n=400, seed=2)
    assert (bca["method"].isin(["bca", "percentile"])).all()


def test_bootstrap_of_identical_documents_has_no_width():
    rows = pd.DataFrame([[d, False, "gamma", None, 0.25, 1.5, 2.0, 2.0, 30, 0.01, 0, 4, 2]
                         for d in "abc"], columns=GAMMA_COLUMNS)
    b = bootstrap_gamma(rows, n=50, seed=0, interval="percentile")
    assert (b.ci_low[0], b.ci_high[0]) == pytest.approx((0.25, 0.25)) and b.se[0] == 0


def test_an_annotator_who_marks_nothing_takes_part():
    frame = corpus(n_docs=1, n=2, seed=6)
    two = span_gamma(frame, measures=["gamma"], seed=0, **FAST).rows
    three = span_gamma(frame, measures=["gamma"], annotators=["A0", "A1", "C"], seed=0,
                       **FAST).rows
    units = [list(map(tuple, p[["start", "end", "label"]].to_numpy()))
             for _, p in frame.groupby("annotator")]
    assert three.annotators[0] == 3
    assert three.weight[0] == pytest.approx(len(frame) / 3)
    assert three.observed[0] == pytest.approx(best_alignment([*units, []]).disorder)
    assert three.observed[0] > two.observed[0]


def test_identical_annotations():
    frame = corpus(n_docs=2, n=1, seed=7)
    both = pd.concat([frame, frame.assign(annotator="B")], ignore_index=True)
    r = span_gamma(both, seed=0, **FAST).rows
    defined = r[r.measure.isin(["gamma", "gamma-cat"])]
    assert (defined.value == 1.0).all() and (defined.observed == 0).all()


def test_no_shared_document():
    frame = pd.DataFrame([("A", "d1", 0, 4, "x"), ("A", "d1", 6, 9, "y"),
                          ("B", "d2", 0, 5, "x"), ("B", "d2", 7, 9, "x")],
                         columns=["annotator", "document", "start", "end", "label"])
    with pytest.warns(InputWarning, match="gamma-cat is undefined in 2"):
        r = span_gamma(frame, seed=0, **FAST).rows
    g = r[r.measure == "gamma"]
    # every unit alone: Σ Δ over the units / (units / 2) = 2 in each document
    assert g.observed.tolist() == pytest.approx([2.0, 2.0, 2.0])
    assert np.isfinite(g.value).all()
    assert r[r.measure == "gamma-cat"].value.isna().all()


def test_a_document_where_nobody_marked_anything():
    frame = corpus(n_docs=2, seed=8)
    base = span_gamma(frame, measures=["gamma"], seed=0, **FAST).rows
    with pytest.warns(InputWarning, match="nobody marked anything"):
        more = span_gamma(frame, measures=["gamma"], documents=["d0", "empty", "d1"], seed=0,
                          **FAST).rows
    empty = more[more.document == "empty"].iloc[0]
    assert math.isnan(empty.value) and empty.units == 0 and empty.weight == 0
    # the documents keep their seeds' positions: d1 is the third document here, so only d0
    # keeps its samples; the pool is the combination of the defined rows
    first = more[more.document == "d0"].expected.iloc[0]
    assert first == base[base.document == "d0"].expected.iloc[0]
    total = more[more.pooled].iloc[0]
    assert total.value == pytest.approx(pool_gamma(more[more.document != "empty"]).value[0])


def test_zero_length_and_nested_units():
    spans = [("A", "d", 0, 10, "x"), ("A", "d", 2, 4, "y"), ("A", "d", 6, 6, "z"),
             ("B", "d", 0, 9, "x"), ("B", "d", 2, 5, "y"), ("B", "d", 6, 6, "z")]
    r = span_gamma(spans, seed=0, **FAST)
    g = r.rows.iloc[0]
    units = [[(0, 10, "x"), (2, 4, "y"), (6, 6, "z")], [(0, 9, "x"), (2, 5, "y"), (6, 6, "z")]]
    assert g.observed == pytest.approx(best_alignment(units).disorder)
    # the nested units pair with their own (x with x, y with y), the points with each other
    assert sorted(r.alignment.groupby("alignment").label.apply(tuple).tolist()) == [
        ("x", "x"), ("y", "y"), ("z", "z")]


def test_measures_and_categories():
    frame = corpus(n_docs=1, seed=9)
    r = span_gamma(frame, measures=["gamma-k"], seed=0, **FAST).rows
    assert set(r.measure) == {"gamma-k"}
    assert sorted(r[~r.pooled].category) == sorted(pd.unique(frame.label))


def test_errors():
    frame = corpus(n_docs=1, seed=10)
    with pytest.raises(ParameterError) as err:
        span_gamma(frame, measures=["kappa"])
    assert err.value.params == ("measures",)
    with pytest.raises(ParameterError) as err:
        span_gamma(frame[frame.annotator == "A0"])
    assert err.value.params == ("annotators",)
    with pytest.raises(InputError, match="not among the 1 documents"):
        span_gamma(frame, documents=["elsewhere"])
    with pytest.raises(InputError, match="before it starts"):
        gamma_frame([("A", "d", 5, 4, "x")])
    with pytest.raises(InputError, match="finite"):
        gamma_frame([("A", "d", 0, math.inf, "x")])
    with pytest.warns(InputWarning, match="left out"):
        span_gamma(frame, annotators=["A0", "A1"], measures=["gamma"], **FAST)
    with pytest.raises(ParameterError) as err:
        span_gamma(frame, category_matrix=[[0.0]])
    assert err.value.params == ("categories", "category_matrix")


@pytest.mark.slow  # a process pool starts
def test_jobs_do_not_change_the_values():
    frame = corpus(n_docs=3, seed=12)
    one = span_gamma(frame, seed=4, **FAST)
    two = span_gamma(frame, seed=4, jobs=2, **FAST)
    pd.testing.assert_frame_equal(one.rows, two.rows)
    pd.testing.assert_frame_equal(one.alignment, two.alignment)
    single = frame[frame.document == "d0"]
    pd.testing.assert_frame_equal(span_gamma(single, seed=4, **FAST).rows,
                                  span_gamma(single, seed=4, jobs=2, **FAST).rows)
