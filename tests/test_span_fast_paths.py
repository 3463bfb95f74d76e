"""The fast paths of the span measures against the routes they replaced, written out here.

token_agreement computes every table's figures from counts (positions, agreeing pairs of
annotators, tags per annotator); it is compared with a CodingTable of tags per document (and
pooled, and over the annotated positions) given to the core's cohen_kappa, fleiss_pi and
nominal alpha (hypothesis: random flat spans of two to four annotators, BIO and IO, documents
with no span and of length 0). span_f1 averages over pairs with numpy; it is compared with a
pandas groupby of span_f1_pairs' rows, and the columns of span_f1_pairs, typed from the values
they hold, with the types pandas infers from the whole column."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree.core import (
    CodingTable,
    alpha,
    cohen_kappa,
    fleiss_pi,
    span_f1,
    span_f1_pairs,
    span_tags,
    token_agreement,
)
from clusteragree.errors import AlphaUndefinedWarning


def by_tables(spans: list[tuple], lengths: dict[str, int], scheme: str,
              annotators: list[str]) -> tuple[pd.DataFrame, list[str]]:
    """The figures table by table through the core's functions, and the warnings."""
    tags = span_tags(spans, lengths, scheme=scheme, annotators=annotators)
    rows, undefined = [], {}
    scopes = [(d, False, [d]) for d in lengths] + [("TOTAL", True, list(lengths))]
    for doc, pooled, docs in scopes:
        cols = [[t for d in docs for t in tags[a][d]] for a in annotators]
        marked = [i for i in range(len(cols[0])) if any(c[i] != "O" for c in cols)]
        for subset, keep in (("all", range(len(cols[0]))), ("annotated", marked)):
            part = [[c[i] for i in keep] for c in cols]
            n = len(part[0])
            if n == 0 or len({t for c in part for t in c}) == 1:
                why = "no position" if n == 0 else "every tag the same"
                undefined[why] = undefined.get(why, 0) + 1
                values = [np.nan] * 3
            else:
                table = CodingTable.from_matrix(part, coders=annotators)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", AlphaUndefinedWarning)
                    values = [cohen_kappa(table), fleiss_pi(table),
                              alpha(table, "nominal").alpha]
            rows += [{"document": doc, "pooled": pooled, "subset": subset, "measure": m,
                      "value": v, "positions": n}
                     for m, v in zip(("cohen_kappa", "fleiss_kappa", "alpha"), values,
                                     strict=True)]
    notes = []
    if undefined:
        causes = "; ".join(f"{w} in {n}" for w, n in undefined.items())
        notes.append(f"token agreement is undefined (NaN) in {sum(undefined.values())} of "
                     f"{len(rows) // 3} tables of positions ({causes})")
    return pd.DataFrame(rows), notes


@st.composite
def corpora(draw):
    n_ann = draw(st.integers(2, 4))
    lengths = {f"d{k}": draw(st.sampled_from([0, 1, 5, 12, 30])) for k in range(
        draw(st.integers(1, 3)))}
    spans = []
    for a in "ABCD"[:n_ann]:
        for doc, n in lengths.items():
            pos = 0
            while pos < n and draw(st.booleans()):
                pos += draw(st.integers(0, 3))
                width = draw(st.integers(1, 4))
                if pos + width > n:
                    break
                spans.append((a, doc, pos, pos + width, draw(st.sampled_from("xyz"))))
                pos += width
    return spans, lengths, list("ABCD"[:n_ann])


@settings(max_examples=60, deadline=None)
@given(corpora(), st.sampled_from(["bio", "io"]))
def test_counts_give_the_core_figures(corpus, scheme: str) -> None:
    spans, lengths, annotators = corpus
    expected, notes = by_tables(spans, lengths, scheme, annotators)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        out = token_agreement(spans, lengths, scheme=scheme, annotators=annotators)
    pd.testing.assert_frame_equal(out, expected, check_exact=False, rtol=1e-12, atol=1e-12)
    assert [str(w.message) for w in seen if w.category is AlphaUndefinedWarning] == notes


def by_groupby(pairs: pd.DataFrame) -> pd.DataFrame:
    """span_f1 as a pandas groupby of the pairs' rows (its former route)."""
    keys = ["document", "pooled", "rule", "label", "average"]
    grouped = pairs.groupby(keys, sort=False, dropna=False)["f1"]
    out = grouped.agg(["mean", "min", "max", "count"]).rename(
        columns={"mean": "f1", "count": "pairs"})
    out.insert(1, "sd", grouped.std(ddof=0))
    return out.reset_index()


names = st.sampled_from([["A", "B", "C"], [1, 2, 3], ["A", 2, ("x", 3)]])
offsets = st.tuples(st.integers(0, 10), st.integers(1, 5))


@settings(max_examples=40, deadline=None)
@given(names, st.sampled_from([["d1", "d2", "d3"], [10, 20, 30]]),
       st.sampled_from([["x", "y"], [1, 2], ["x", 2]]),
       st.lists(st.tuples(st.integers(0, 2), st.integers(0, 1), offsets, st.integers(0, 1)),
                max_size=25))
def test_f1_over_pairs_and_column_types(who, docs, labels, picks) -> None:
    spans = [(who[a], docs[d], s, s + w, labels[k]) for a, d, (s, w), k in picks]
    rules = ["exact", "exact-span", "overlap", "overlap-span"]
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        pairs = span_f1_pairs(spans, rules, annotators=who, documents=docs)
        out = span_f1(spans, rules, annotators=who, documents=docs)
    # the warning counts the rows of span_f1_pairs (each call warns once)
    none = int(pairs.f1.isna().sum())
    one = int((pairs.precision.isna() | pairs.recall.isna()).sum()) - none
    notes = [str(w.message) for w in seen if w.category is AlphaUndefinedWarning]
    if none or one:
        assert len(notes) == 2 and notes[0] == notes[1]
        assert notes[0].startswith(f"span agreement is undefined (NaN) in {none + one} of "
                                   f"{len(pairs)} rows")
        assert (f"F1 in {none} (" in notes[0]) == bool(none)
    else:
        assert notes == []
    pd.testing.assert_frame_equal(out, by_groupby(pairs), check_exact=False, rtol=1e-12,
                                  atol=1e-12)
    for column in ("document", "rule", "label", "average", "reference", "other"):
        held = np.empty(len(pairs), dtype=object)
        for k, value in enumerate(pairs[column]):
            held[k] = value
        inferred = pd.DataFrame({"x": held})["x"]
        assert pairs[column].dtype == inferred.dtype, column
        assert list(pairs[column]) == list(inferred)
