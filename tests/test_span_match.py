"""Span agreement (clusteragree.core.span_match, span_tokens) against independent oracles:
seqeval and nervaluate for the F1 modes, scikit-learn's Cohen's kappa and the krippendorff
package for the token figures, and brute-force definitions on random span sets (a naive
augmenting-path matching, positive specific agreement 2a / (2a + b + c), Fleiss's formula)."""

from __future__ import annotations

import random
import warnings
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree.core import (
    Span,
    span_f1,
    span_f1_pairs,
    span_frame,
    span_tags,
    token_agreement,
)
from clusteragree.errors import AlphaUndefinedWarning, InputError, ParameterError

LABELS = ["PER", "LOC", "ORG"]


def flat_spans(rng: random.Random, annotator: str, doc: str, length: int) -> list[tuple]:
    """Non-overlapping spans of one annotator (adjacent ones allowed)."""
    out, pos = [], 0
    while pos < length:
        pos += rng.choice([0, 0, 1, 2, 3])
        width = rng.randint(1, 3)
        if pos + width > length:
            break
        out.append((annotator, doc, pos, pos + width, rng.choice(LABELS)))
        pos += width
    return out


def random_flat(seed: int, annotators: int = 2, docs: int = 3, length: int = 20):
    rng = random.Random(seed)
    spans = [s for d in range(docs) for a in "ABCDE"[:annotators]
             for s in flat_spans(rng, a, f"d{d}", length)]
    return spans, {f"d{d}": length for d in range(docs)}


def pooled(out: pd.DataFrame, rule: str, average: str = "micro",
           pair: tuple[str, str] = ("A", "B")) -> pd.Series:
    rows = out[out.pooled & (out.rule == rule) & (out.average == average)
               & (out.reference == pair[0]) & (out.other == pair[1])]
    assert len(rows) == 1
    return rows.iloc[0]


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AlphaUndefinedWarning)
        return fn(*args, **kwargs)


# ---------------------------------------------------------------- seqeval and nervaluate
@pytest.mark.parametrize("seed", range(8))
def test_exact_f1_matches_seqeval(seed: int) -> None:
    seqeval = pytest.importorskip("seqeval.metrics")
    spans, lengths = random_flat(seed)
    tags = span_tags(spans, lengths, annotators=["A", "B"])
    true = [tags["A"][d] for d in lengths]
    pred = [tags["B"][d] for d in lengths]
    out = quiet(span_f1_pairs, spans, "exact", annotators=["A", "B"])
    micro = pooled(out, "exact")
    assert micro.precision == pytest.approx(seqeval.precision_score(true, pred))
    assert micro.recall == pytest.approx(seqeval.recall_score(true, pred))
    assert micro.f1 == pytest.approx(seqeval.f1_score(true, pred))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # seqeval's zero-division warnings
        macro_f1 = seqeval.f1_score(true, pred, average="macro")
        report = seqeval.classification_report(true, pred, output_dict=True)
    assert pooled(out, "exact", "macro").f1 == pytest.approx(macro_f1)
    labels = out[out.pooled & (out.average == "")].set_index("label")
    for label in LABELS:
        if label in report:
            assert labels.loc[label, "f1"] == pytest.approx(report[label]["f1-score"])
            assert labels.loc[label, "n_reference"] == report[label]["support"]


@pytest.mark.parametrize("seed", range(8))
def test_exact_and_unlabelled_match_nervaluate(seed: int) -> None:
    nervaluate = pytest.importorskip("nervaluate")
    spans, lengths = random_flat(seed + 100)

    def entities(who: str) -> list[list[dict]]:
        return [[{"label": s[4], "start": s[2], "end": s[3] - 1}  # nervaluate: end inclusive
                 for s in spans if s[0] == who and s[1] == d] for d in lengths]

    result = nervaluate.Evaluator(entities("A"), entities("B"), tags=LABELS).evaluate()
    overall = result["overall"] if isinstance(result, dict) else result[0]
    out = quiet(span_f1_pairs, spans, ["exact", "exact-span"])
    for ours, theirs in (("exact", "strict"), ("exact-span", "exact")):
        row, ref = pooled(out, ours), overall[theirs]
        ref = ref if isinstance(ref, dict) else vars(ref)
        assert (row.tp, row.n_other, row.n_reference) == (
            ref["correct"], ref["actual"], ref["possible"])
        assert (row.precision, row.recall, row.f1) == pytest.approx(
            (ref["precision"], ref["recall"], ref["f1"]))


# ---------------------------------------------------------------- brute force (hypothesis)
def kuhn(a: list[tuple], b: list[tuple], fits) -> int:
    """Maximum matching by augmenting paths, the textbook way."""
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


def fits_for(rule: str):
    def fits(x: tuple, y: tuple) -> bool:
        where = (x[2] == y[2] and x[3] == y[3]) if rule.startswith("exact") else (
            min(x[3], y[3]) > max(x[2], y[2]))
        return where and (rule.endswith("-span") or x[4] == y[4])
    return fits


span = st.tuples(st.sampled_from("ABC"), st.sampled_from(["d1", "d2"]),
                 st.integers(0, 12), st.integers(1, 5), st.sampled_from(["x", "y"])).map(
    lambda t: (t[0], t[1], t[2], t[2] + t[3], t[4]))


def check_against_brute_force(spans: list[tuple]) -> None:
    """Overlapping, nested, crossing and repeated spans: tp is the size of a maximum matching
    (a naive augmenting-path search), F1 = 2a / (2a + b + c), and span_f1 is the mean over
    pairs with its spread."""
    annotators = ["A", "B", "C"]
    rules = ["exact", "exact-span", "overlap", "overlap-span"]
    out = quiet(span_f1_pairs, spans, rules, annotators=annotators, documents=["d1", "d2"])
    avg = quiet(span_f1, spans, rules, annotators=annotators, documents=["d1", "d2"])
    micro = out[out.pooled & (out.average == "micro")].set_index(["rule", "reference", "other"])
    for rule in rules:
        for ref, other in combinations(annotators, 2):
            mine = [s for s in spans if s[0] == ref]
            theirs = [s for s in spans if s[0] == other]
            a = sum(kuhn([s for s in mine if s[1] == d], [s for s in theirs if s[1] == d],
                         fits_for(rule)) for d in ("d1", "d2"))
            b, c = len(mine) - a, len(theirs) - a
            row = micro.loc[(rule, ref, other)]
            assert (row.tp, row.n_reference, row.n_other) == (a, len(mine), len(theirs))
            if a + b + c:
                assert row.f1 == pytest.approx(2 * a / (2 * a + b + c))
            else:
                assert np.isnan(row.f1)
        values = out[out.pooled & (out.rule == rule) & (out.average == "micro")].f1.dropna()
        summary = avg[avg.pooled & (avg.rule == rule) & (avg.average == "micro")].iloc[0]
        assert summary.pairs == len(values)
        if len(values):
            assert summary.f1 == pytest.approx(values.mean())
            assert summary.sd == pytest.approx(np.std(values))
            assert (summary["min"], summary["max"]) == (values.min(), values.max())


@settings(max_examples=25, deadline=None)
@given(st.lists(span, max_size=18))
def test_f1_is_positive_specific_agreement_of_a_maximum_matching(spans: list[tuple]) -> None:
    check_against_brute_force(spans)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(span, max_size=30))
def test_f1_against_brute_force_long(spans: list[tuple]) -> None:
    check_against_brute_force(spans)


@settings(max_examples=20, deadline=None)
@given(st.lists(span, max_size=14))
def test_macro_and_per_document_by_definition(spans: list[tuple]) -> None:
    out = quiet(span_f1_pairs, spans, "overlap", annotators=["A", "B"],
                documents=["d1", "d2"])
    spans = [s for s in spans if s[0] in "AB"]
    fits = fits_for("overlap")
    for doc in ("d1", "d2", None):
        here = [s for s in spans if doc is None or s[1] == doc]
        rows = out[(out.document == doc) if doc else out.pooled]
        f1s, ps = [], []
        for label in sorted({s[4] for s in here}):
            tp = sum(kuhn([s for s in here if s[0] == "A" and s[4] == label and s[1] == d],
                          [s for s in here if s[0] == "B" and s[4] == label and s[1] == d],
                          fits) for d in ("d1", "d2"))
            na = sum(s[0] == "A" and s[4] == label for s in here)
            nb = len([s for s in here if s[4] == label]) - na
            f1s.append(2 * tp / (na + nb))
            if nb:
                ps.append(tp / nb)
        macro = rows[rows.average == "macro"]
        if f1s:
            assert macro.iloc[0].f1 == pytest.approx(np.mean(f1s))
            assert macro.iloc[0].labels == len(f1s)
            if ps:
                assert macro.iloc[0].precision == pytest.approx(np.mean(ps))
            else:
                assert np.isnan(macro.iloc[0].precision)
        else:
            assert macro.empty and np.isnan(rows[rows.average == "micro"].iloc[0].f1)


def test_most_pairs_before_most_overlap() -> None:
    """A1 overlaps B1 by 10 positions; matching them leaves A2 and B2 alone, while A1-B2 and
    A2-B1 give two pairs: the matching takes the two pairs."""
    spans = [("A", "d", 0, 11, "x"), ("A", "d", 11, 12, "x"),
             ("B", "d", 1, 12, "x"), ("B", "d", 0, 1, "x")]
    assert pooled(span_f1_pairs(spans, "overlap"), "overlap").tp == 2


# ---------------------------------------------------------------- token agreement
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("scheme", ["bio", "io"])
def test_token_kappa_matches_sklearn_and_krippendorff(seed: int, scheme: str) -> None:
    sk = pytest.importorskip("sklearn.metrics")
    krippendorff = pytest.importorskip("krippendorff")
    spans, lengths = random_flat(seed + 200, docs=2)
    tags = span_tags(spans, lengths, scheme=scheme, annotators=["A", "B"])
    out = quiet(token_agreement, spans, lengths, scheme=scheme, annotators=["A", "B"])
    for doc in [*lengths, None]:
        a = [t for d in lengths if doc in (None, d) for t in tags["A"][d]]
        b = [t for d in lengths if doc in (None, d) for t in tags["B"][d]]
        for subset in ("all", "annotated"):
            keep = [i for i in range(len(a)) if subset == "all" or a[i] != "O" or b[i] != "O"]
            x, y = [a[i] for i in keep], [b[i] for i in keep]
            rows = out[(out.pooled if doc is None else out.document == doc)
                       & (out.subset == subset)].set_index("measure")
            assert rows.loc["cohen_kappa", "positions"] == len(keep)
            if len(set(x) | set(y)) < 2:
                assert rows.value.isna().all()
                continue
            assert rows.loc["cohen_kappa", "value"] == pytest.approx(
                sk.cohen_kappa_score(x, y))
            codes = {t: k for k, t in enumerate(sorted(set(x) | set(y)))}
            data = np.array([[codes[t] for t in x], [codes[t] for t in y]], dtype=float)
            assert rows.loc["alpha", "value"] == pytest.approx(
                krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))


def fleiss_by_formula(columns: list[list[str]]) -> float:
    """Fleiss (1971): P-bar from each position's pairs, P_e from the pooled shares."""
    n = len(columns[0])
    tags = sorted({t for col in columns for t in col})
    counts = np.array([[sum(col[i] == t for col in columns) for t in tags]
                       for i in range(len(columns[0]))])
    m = len(columns)
    p_bar = ((counts * (counts - 1)).sum(axis=1) / (m * (m - 1))).mean()
    shares = counts.sum(axis=0) / (n * m)
    return (p_bar - shares @ shares) / (1 - shares @ shares)


@pytest.mark.parametrize("seed", range(4))
def test_fleiss_kappa_of_three_annotators_by_formula(seed: int) -> None:
    spans, lengths = random_flat(seed + 300, annotators=3, docs=2)
    tags = span_tags(spans, lengths, annotators=["A", "B", "C"])
    out = quiet(token_agreement, spans, lengths, annotators=["A", "B", "C"])
    a, b, c = ([t for d in lengths for t in tags[x][d]] for x in "ABC")
    keep = [i for i in range(len(a)) if {a[i], b[i], c[i]} != {"O"}]
    for subset, idx in (("all", range(len(a))), ("annotated", keep)):
        rows = out[out.pooled & (out.subset == subset)].set_index("measure")
        expected = fleiss_by_formula([[a[i] for i in idx], [b[i] for i in idx],
                                      [c[i] for i in idx]])
        assert rows.loc["fleiss_kappa", "value"] == pytest.approx(expected)


def test_hripcsak_rothschild_kappa_approaches_f1() -> None:
    """Kappa over all positions grows towards F1 as unmarked positions are added (IO tags,
    one label, two annotators: Hripcsak & Rothschild's limit)."""
    spans = [("A", "d", 0, 1, "x"), ("A", "d", 2, 3, "x"), ("A", "d", 4, 5, "x"),
             ("B", "d", 0, 1, "x"), ("B", "d", 2, 3, "x"), ("B", "d", 6, 7, "x")]
    f1 = pooled(span_f1_pairs(spans, "exact"), "exact").f1
    assert f1 == pytest.approx(2 / 3)
    kappas = [token_agreement(spans, {"d": n}, scheme="io").query(
        "pooled and subset == 'all' and measure == 'cohen_kappa'").value.iloc[0]
        for n in (10, 100, 10_000)]
    assert kappas[0] < kappas[1] < kappas[2] < f1
    assert kappas[2] == pytest.approx(f1, abs=1e-3)


# ---------------------------------------------------------------- edge cases
def test_one_annotator_marks_nothing() -> None:
    spans = [("A", "d", 0, 2, "x"), ("A", "d", 4, 5, "y")]
    with pytest.raises(ParameterError, match="annotators=") as err:
        span_f1(spans)
    assert err.value.params == ("annotators",)
    with pytest.warns(AlphaUndefinedWarning, match="precision or recall"):
        out = span_f1_pairs(spans, "exact", annotators=["A", "B"])
    row = pooled(out, "exact")
    assert (row.tp, row.f1, row.recall) == (0, 0.0, 0.0) and np.isnan(row.precision)
    tokens = token_agreement(spans, {"d": 6}, annotators=["A", "B"]).set_index(
        ["pooled", "subset", "measure"])
    # B tags O everywhere: over the annotated positions they agree on none, kappa 0
    assert tokens.loc[(True, "annotated", "cohen_kappa"), "value"] == pytest.approx(0.0)


def test_identical_annotations() -> None:
    spans, lengths = random_flat(7)
    spans = [s for s in spans if s[0] == "A"]
    both = spans + [("B", *s[1:]) for s in spans]
    out = span_f1_pairs(both, ["exact", "exact-span", "overlap", "overlap-span"])
    assert (out.f1 == 1).all() and (out.precision == 1).all()
    assert (token_agreement(both, lengths).value == 1).all()


def test_no_shared_document() -> None:
    spans = [("A", "d1", 0, 2, "x"), ("B", "d2", 0, 2, "x")]
    with pytest.warns(AlphaUndefinedWarning):
        out = span_f1_pairs(spans, "overlap")
    assert (out[out.average == "micro"].f1 == 0).all()
    assert list(out[out.average == "micro"].document) == ["d1", "d2", "TOTAL"]


def test_document_without_spans_and_spans_outside_documents() -> None:
    spans = [("A", "d1", 0, 2, "x"), ("B", "d1", 0, 2, "x")]
    with pytest.warns(AlphaUndefinedWarning, match="neither annotator"):
        out = span_f1(spans, "exact", documents=["d1", "d2"])
    micro = out[out.average == "micro"].set_index("document")
    assert micro.loc["d1", "f1"] == 1 and np.isnan(micro.loc["d2", "f1"])
    assert micro.loc["d2", "pairs"] == 0
    with pytest.raises(InputError, match="not among the 1 documents"):
        span_f1(spans, documents=["d2"])
    with pytest.raises(InputError, match="length is 1"):
        token_agreement(spans, {"d1": 1})


def test_zero_length_and_malformed_spans_are_refused() -> None:
    with pytest.raises(InputError, match="zero-length"):
        span_f1([("A", "d", 3, 3, "x"), ("B", "d", 0, 1, "x")])
    with pytest.raises(InputError, match="ends before it starts"):
        span_frame([("A", "d", 3, 1, "x")])
    with pytest.raises(InputError, match="no label"):
        span_frame([("A", "d", 0, 1, None)])
    with pytest.raises(InputError, match="whole numbers"):
        span_frame(pd.DataFrame({"annotator": ["A"], "document": ["d"], "start": [0.5],
                                 "end": [2], "label": ["x"]}))
    with pytest.raises(ParameterError, match="rules must be among") as err:
        span_f1([("A", "d", 0, 1, "x"), ("B", "d", 0, 1, "x")], "fuzzy")
    assert err.value.params == ("rules",)


def test_nested_spans_match_but_cannot_be_tagged() -> None:
    spans = [Span("A", "d", 0, 10, "x"), Span("A", "d", 2, 4, "x"), Span("B", "d", 2, 4, "x")]
    out = span_f1_pairs(spans, ["exact", "overlap"])
    assert pooled(out, "exact").tp == 1 and pooled(out, "overlap").tp == 1
    for scheme in ("bio", "io"):
        with pytest.raises(ParameterError, match=f"scheme='{scheme}'.*0-10 'x' and 2-4") as err:
            token_agreement(spans, {"d": 10}, scheme=scheme)
        assert err.value.params == ("scheme",)


def test_dataframe_input_and_span_objects_agree() -> None:
    spans, _ = random_flat(3)
    frame = pd.DataFrame(spans, columns=["annotator", "document", "start", "end", "label"])
    objects = [Span(*s) for s in spans]
    a, b = quiet(span_f1, frame), quiet(span_f1, objects)
    pd.testing.assert_frame_equal(a, b)
