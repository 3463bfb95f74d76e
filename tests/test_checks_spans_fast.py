"""The shortcuts of the export checks (spans/checks.py, ``FAST``) against the general checks:
the same incidents (ids, messages, places, counts, order) on random documents (hypothesis),
with and without bad offsets, zero-length and stacked spans, several layers, placeholder
tokens, overlapping tokens and text no token covers, and on the benchmark's generated
WebAnno TSV export."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from alike import as_columns, script
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clusteragree.exports.columns import PairColumns
from clusteragree.exports.model import AnnotatedDocument, Span
from clusteragree.exports.webanno import read_webanno_tsv
from clusteragree.spans import checks
from clusteragree.spans.checks import across_documents, document_incidents


def _both(docs: list[AnnotatedDocument], monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    out = []
    for fast in (False, True):
        with monkeypatch.context() as patch:
            patch.setattr(checks, "FAST", fast)
            patch.setattr(checks, "BULK", 0)  # (the shortcuts on documents of every size)
            out.append([*(i for d in docs for i in document_incidents(d)),
                        *across_documents(docs)])
    assert out[0] == out[1]
    return out[0]


@st.composite
def _document(draw: st.DrawFn, annotator: str) -> AnnotatedDocument:
    text = draw(st.text(alphabet="ab .\n", min_size=0, max_size=30))
    size = len(text)
    spans = []
    for k in range(draw(st.integers(0, 12))):
        start = draw(st.integers(-1 if draw(st.integers(0, 20)) == 0 else 0, max(size, 0)))
        end = draw(st.integers(start if draw(st.integers(0, 10)) else start - 1,
                               size + (1 if draw(st.integers(0, 20)) == 0 else 0)))
        spans.append(Span(f"s{k}", start, end, draw(st.sampled_from(["NE", "POS", "x"])),
                          draw(st.sampled_from(["PER", "ORG", None])), line=k + 1))
    if spans and draw(st.booleans()):
        spans.append(spans[draw(st.integers(0, len(spans) - 1))])  # stacked twice
    tokens: list[tuple[int, int]] = []
    at = 0
    while at < size and draw(st.integers(0, 8)):
        start = at + draw(st.integers(0, 2))
        end = start + draw(st.integers(0 if draw(st.integers(0, 10)) == 0 else 1, 3))
        tokens.append((start, end) if draw(st.integers(0, 25)) else (0, 0))
        at = end + draw(st.integers(-1 if draw(st.integers(0, 15)) == 0 else 0, 1))
    return AnnotatedDocument("d", annotator, text, tuple(tokens), spans=tuple(spans),
                             path=f"{annotator}.tsv")


@st.composite
def _plain_document(draw: st.DrawFn, annotator: str) -> AnnotatedDocument:
    """Words apart by white space, each a token, spans over one or more words."""
    words = draw(st.lists(st.sampled_from(["ab", "b", "a.", "\N{GRINNING FACE}"]),
                          min_size=1, max_size=8))
    gaps = [draw(st.sampled_from([" ", "\n", "  "])) for _ in words]
    text, tokens = "", []
    for w, g in zip(words, gaps, strict=True):
        tokens.append((len(text), len(text) + len(w)))
        text += w + g
    spans = []
    for k in range(draw(st.integers(0, 10))):
        i = draw(st.integers(0, len(tokens) - 1))
        j = draw(st.integers(i, len(tokens) - 1))
        spans.append(Span(f"s{k}", tokens[i][0], tokens[j][1],
                          draw(st.sampled_from(["NE", "POS"])),
                          draw(st.sampled_from(["PER", "ORG", None])), line=k + 1))
    return AnnotatedDocument("d", annotator, text, tuple(tokens), spans=tuple(spans),
                             path=f"{annotator}.tsv")


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_plain_documents_alike(data: st.DataObject,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    a = data.draw(_plain_document("a"))
    b = data.draw(_plain_document("b"))
    if data.draw(st.booleans()):  # the same text
        b = AnnotatedDocument("d", "b", a.text, a.tokens, spans=tuple(
            s for s in a.spans if data.draw(st.booleans())), path="b.tsv")
    _both([a, b], monkeypatch)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(a=_document("a"), b=_document("b"))
def test_random_documents_alike(a: AnnotatedDocument, b: AnnotatedDocument,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    _both([a, b if b.text == a.text or len(b.text) % 2 else
           AnnotatedDocument("d", "b", a.text, a.tokens, spans=b.spans, path="b.tsv")],
          monkeypatch)


def _columned(docs: list[AnnotatedDocument], seed: int) -> list[AnnotatedDocument]:
    return [replace(d, spans=as_columns(d.spans, seed + k),
                    tokens=PairColumns([t[0] for t in d.tokens], [t[1] for t in d.tokens]))
            for k, d in enumerate(docs)]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(a=_document("a"), b=_document("b"), plain=_plain_document("c"), seed=st.integers(0, 99))
def test_spans_kept_as_columns_checked_alike(a: AnnotatedDocument, b: AnnotatedDocument,
                                             plain: AnnotatedDocument, seed: int,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks read spans and tokens kept as columns from their columns: the incidents of
    the same spans and tokens as tuples, both ways."""
    for docs in ([a, b], [plain, replace(plain, annotator="d", path="d.tsv",
                                         spans=plain.spans[::2])]):
        assert _both(_columned(docs, seed), monkeypatch) == _both(docs, monkeypatch)


def test_the_benchmark_export_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script("bench_exports").write_webanno_tsv(tmp_path, 3000, 2)
    docs = [read_webanno_tsv(f, document="d").documents[0]
            for f in sorted(tmp_path.glob("*.tsv"))]
    found = _both(docs, monkeypatch)
    # the generated stacked values make overlaps and spans only one annotator has
    assert {i.test_id for i in found} >= {"spans-overlap", "spans-one-annotator"}


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_keys_packed_two_by_two_sort_alike(data: st.DataObject) -> None:
    """Keys packed two in one integer give the order of the keys themselves, and keys that
    cannot be packed (negative, or of 31 bits and more) are left as they are."""
    import numpy as np

    n = data.draw(st.integers(0, 40))
    values = st.one_of(st.integers(0, 5), st.integers(-3, 3), st.integers(2**31 - 2, 2**31 + 1))
    keys = [np.asarray(data.draw(st.lists(values, min_size=n, max_size=n)), dtype=np.int64)
            for _ in range(data.draw(st.integers(1, 5)))]
    assert np.array_equal(np.lexsort(checks._packed(*keys)), np.lexsort(tuple(reversed(keys))))


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("ab \t\n\x0b\x1c\x85\xa0\u3000\u200b😀é")),
                    max_size=30), data=st.data())
def test_white_space_outside_tokens_as_python_tells_it(text: str, data: st.DataObject) -> None:
    """The characters outside the tokens, marked with counts, against the definition: the
    text between and after the tokens, joined, is empty or white space."""
    import numpy as np

    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=8)))
    pairs = list(zip(cuts[0::2], cuts[1::2], strict=False))
    starts = np.asarray([a for a, _ in pairs], dtype=np.int64)
    ends = np.asarray([b for _, b in pairs], dtype=np.int64)
    between = "".join(text[a:b] for a, b in zip([0, *ends.tolist()],
                                                [*starts.tolist(), len(text)], strict=True))
    assert checks._only_space_outside(text, starts, ends) == (not between or between.isspace())
