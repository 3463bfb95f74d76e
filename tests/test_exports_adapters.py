"""Annotation tools' exports into the spans domain (clusteragree.spans.exports), on exports
built here by hand: the choices of layer, documents and fragments, and F1 counted by hand."""

from __future__ import annotations

import warnings

import pytest

from clusteragree.errors import InputError, Ledger, ParameterError
from clusteragree.exports import AnnotatedDocument, Export, Span
from clusteragree.spans.agreement import span_agreement
from clusteragree.spans.exports import spans_from_exports

TEXT = "Mary met John in Paris."


def doc(name: str, who: str, *spans: Span, text: str | None = TEXT) -> AnnotatedDocument:
    return AnnotatedDocument(name, who, text, spans=spans, path="x.json")


def export(*docs: AnnotatedDocument) -> Export:
    return Export(docs, "x.json", "test")


A = doc("d1", "ann", Span("1", 0, 4, "ne", "PER"), Span("2", 9, 13, "ne", "PER"),
        Span("3", 17, 22, "ne", "LOC"))
B = doc("d1", "bob", Span("a", 0, 4, "ne", "PER"), Span("b", 9, 13, "ne", "ORG"))


def test_exact_f1_counted_by_hand() -> None:
    corpus = spans_from_exports([export(A, B)])
    assert corpus.annotators == ("ann", "bob") and corpus.unit == "characters"
    assert corpus.lengths == {"d1": len(TEXT)}
    f1 = span_agreement(corpus, ["f1"], rules=["exact"]).f1
    micro = f1[(f1["rule"] == "exact") & (f1["average"] == "micro")]
    # one span of ann's three and bob's two matches exactly (Mary/PER): 2*1/(3+2)
    assert micro["f1"].tolist() == [pytest.approx(2 * 1 / (3 + 2))]
    per = f1[f1["label"] == "PER"]  # PER: ann 2, bob 1, one match
    assert per["f1"].tolist() == [pytest.approx(2 * 1 / (2 + 1))]


def test_a_document_one_annotator_lacks_is_left_out() -> None:
    extra = doc("d2", "ann", Span("9", 0, 4, "ne", "PER"))
    with Ledger() as ledger:
        corpus = spans_from_exports([export(A, B, extra)])
    assert corpus.documents == ("d1",)
    assert any(n.kind == "skipped" and "d2" in n.message for n in ledger.notices)
    with pytest.raises(InputError, match="strict"), Ledger(strict=True):
        spans_from_exports([export(A, B, extra)])


def test_layers_are_chosen_or_refused() -> None:
    pos = doc("d1", "ann", *A.spans, Span("p", 0, 4, "pos", "NNP"))
    with pytest.raises(InputError, match=r"2 span layers .*layer"):
        spans_from_exports([export(pos, B)])
    assert spans_from_exports([export(pos, B)], layer="ne").n_spans == 5
    with pytest.raises(InputError, match="no span of the layer 'x'"):
        spans_from_exports([export(pos, B)], layer="x")


def test_texts_must_agree_and_names_rename() -> None:
    other = doc("d1", "bob", *B.spans, text=TEXT.upper())
    with pytest.raises(InputError, match="text of document 'd1' differs"):
        spans_from_exports([export(A, other)])
    assert spans_from_exports([export(A, B)], names=["X", "Y"]).annotators == ("X", "Y")
    with pytest.raises(ParameterError, match="2 annotators"):
        spans_from_exports([export(A, B)], names=["X"])


def test_fragments_and_types() -> None:
    split = doc("d1", "bob", Span("a", 0, 13, "ne", "PER", fragments=((0, 4), (9, 13))))
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        extent = spans_from_exports([export(A, split)])
    assert any("discontinuous" in str(w.message) for w in seen)
    rows = extent.spans[extent.spans["annotator"] == "bob"]
    assert rows[["start", "end"]].values.tolist() == [[0, 13]]
    parts = spans_from_exports([export(A, split)], fragments="parts")
    rows = parts.spans[parts.spans["annotator"] == "bob"]
    assert rows[["start", "end"]].values.tolist() == [[0, 4], [9, 13]]
    with pytest.warns(UserWarning, match=r"LOC .1., ORG .1."):
        kept = spans_from_exports([export(A, B)], types=["PER"])
    assert sorted(kept.spans["label"]) == ["PER", "PER", "PER"]


def test_without_texts_offsets_are_positions() -> None:
    a = doc("d1", "ann", Span("1", 0, 4, "ne", "PER"), text=None)
    b = doc("d1", "bob", Span("1", 0, 4, "ne", None), text=None)
    corpus = spans_from_exports([export(a, b)])
    assert corpus.unit == "positions" and corpus.lengths is None
    assert sorted(corpus.spans["label"]) == ["-", "PER"]


def test_document_labels_as_codings_give_krippendorffs_alpha() -> None:
    """Document labels -> codings -> nominal alpha, against the krippendorff package."""
    krippendorff = pytest.importorskip("krippendorff")
    import io

    import numpy as np

    from clusteragree.core.coefficient import alpha
    from clusteragree.exports import DocumentLabel
    from clusteragree.labels.exports import codings_from_exports
    from clusteragree.labels.table import read_long_table

    rng = np.random.default_rng(3)
    cats = ["pos", "neg", "neu"]
    grid = rng.integers(0, 3, (3, 40)).astype(float)
    grid[rng.random(grid.shape) < 0.15] = np.nan  # documents not annotated: missing
    docs = []
    for c, who in enumerate(["u1", "u2", "u3"]):
        for u in range(40):
            if not np.isnan(grid[c, u]):
                docs.append(AnnotatedDocument(f"t{u}", who, "text", labels=(
                    DocumentLabel("sentiment", cats[int(grid[c, u])]),)))
    text = codings_from_exports([Export(tuple(docs), "x.json", "t")], sep="none")
    table = read_long_table(io.StringIO(text), sep="none", scalar=True).tables[None]
    expected = krippendorff.alpha(reliability_data=grid, level_of_measurement="nominal")
    assert alpha(table, "nominal").alpha == pytest.approx(expected, rel=1e-12)


def test_document_labels_layers_and_sets() -> None:
    from clusteragree.exports import DocumentLabel
    from clusteragree.labels.exports import codings_from_exports
    two = (AnnotatedDocument("d", "a", "t", labels=(DocumentLabel("x", "1"),
                                                     DocumentLabel("y", "2"))),)
    with pytest.raises(InputError, match=r"2 layers .*layer"):
        codings_from_exports([Export(two, "x.json", "t")])
    assert codings_from_exports([Export(two, "x.json", "t")], layer="y").endswith("a,d,2\n")
    many = (AnnotatedDocument("d", "a", "t", labels=(DocumentLabel("x", "1"),
                                                      DocumentLabel("x", "2"))),
            AnnotatedDocument("e", "a", "t"))
    with pytest.raises(InputError, match="has 2 labels"):
        codings_from_exports([Export(many, "x.json", "t")], sep="none")
    with pytest.warns(UserWarning, match="without a label"):
        assert codings_from_exports([Export(many, "x.json", "t")]).endswith("a,d,1;2\n")
