"""Spans kept as columns (:class:`clusteragree.exports.columns.SpanColumns`) against the tuple
of the same spans, on random spans (hypothesis): equality both ways, length, indexing
(negative, out of range), slices, iteration, hashing, pickling, each field read from the
columns (``span_column``), the ids missing from them (``missing_ids``), and a difference in any
one field seen."""

from __future__ import annotations

import pickle
from dataclasses import replace

import pytest
from alike import as_columns
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree.exports.columns import PairColumns, SpanColumns, missing_ids, span_column
from clusteragree.exports.model import AnnotatedDocument, Span

_FIELDS = ("id", "start", "end", "layer", "label", "line", "features")


@st.composite
def _spans(draw: st.DrawFn) -> tuple[Span, ...]:
    out = []
    for k in range(draw(st.integers(0, 15))):
        start = draw(st.integers(0, 50))
        out.append(Span(f"L:{k}" + draw(st.sampled_from(["", "[3]", "#2"])), start,
                        start + draw(st.integers(0, 9)), draw(st.sampled_from(["NE", "POS"])),
                        draw(st.sampled_from(["PER", "", "*", None])),
                        draw(st.sampled_from([(), (("a", "x"),), (("a", "x"), ("b", "y"))])),
                        line=draw(st.sampled_from([None, 1, 7, 1 << 40]))))
    return tuple(out)


@settings(max_examples=300, deadline=None)
@given(spans=_spans(), seed=st.integers(0, 10**6), lazy=st.booleans())
def test_columns_read_as_the_tuple(spans: tuple[Span, ...], seed: int, lazy: bool) -> None:
    cols = as_columns(spans, seed, lazy)
    assert cols == spans and spans == cols
    assert not cols.__ne__(spans)
    assert len(cols) == len(spans) and tuple(cols) == spans and list(cols) == list(spans)
    assert hash(cols) == hash(spans)
    for i in range(-len(spans), len(spans)):
        assert as_columns(spans, seed, lazy)[i] == spans[i]  # fresh: ids not made yet
    for i in (len(spans), -len(spans) - 1):
        with pytest.raises(IndexError):
            cols[i]
    assert cols[1:-1] == spans[1:-1] and cols[::-2] == spans[::-2]
    for name in _FIELDS:
        assert span_column(cols, name) == [getattr(s, name) for s in spans] == \
            span_column(spans, name)
    wanted = {s.id for s in spans[::2]} | {"nowhere", "L:99"}
    assert missing_ids(cols, wanted) == wanted - {s.id for s in spans} == \
        missing_ids(spans, wanted)
    assert pickle.loads(pickle.dumps(cols)) == spans
    doc = AnnotatedDocument("d", "a", None, spans=spans)
    assert replace(doc, spans=cols) == doc


@settings(max_examples=200, deadline=None)
@given(spans=_spans().filter(bool), data=st.data())
def test_a_difference_in_one_field_is_seen(spans: tuple[Span, ...], data: st.DataObject
                                           ) -> None:
    k = data.draw(st.integers(0, len(spans) - 1))
    name = data.draw(st.sampled_from(_FIELDS))
    other = {"id": "other", "start": -5, "end": 10**6, "layer": "other", "label": "other",
             "line": 12345, "features": (("z", "z"),)}[name]
    changed = (*spans[:k], replace(spans[k], **{name: other}), *spans[k + 1:])
    assert as_columns(changed) != spans and spans != as_columns(changed)
    assert as_columns(changed) != as_columns(spans)


def test_columns_of_other_lengths_are_refused() -> None:
    with pytest.raises(ValueError, match="differ in length"):
        SpanColumns([0, 1], [1], ("a",), [0, 0], (None,), [0, 0], ((),), [0, 0], [1, 1],
                    ["x", "y"])
    with pytest.raises(ValueError, match="one a span"):
        SpanColumns([0], [1], ("a",), [0], (None,), [0], ((),), [0], [1], ["x", "y"])


@settings(max_examples=200, deadline=None)
@given(pairs=st.lists(st.tuples(st.integers(0, 2**40), st.integers(0, 2**40)), max_size=12))
def test_pairs_kept_as_columns_read_as_the_tuple(pairs: list[tuple[int, int]]) -> None:
    tokens = tuple(pairs)
    cols = PairColumns([a for a, _ in pairs], [b for _, b in pairs])
    assert cols == tokens and tokens == cols and cols == PairColumns(cols.starts, cols.ends)
    assert len(cols) == len(tokens) and tuple(cols) == tokens and hash(cols) == hash(tokens)
    assert bool(cols) == bool(tokens)
    for i in range(-len(tokens), len(tokens)):
        assert cols[i] == tokens[i] and type(cols[i][0]) is int
    with pytest.raises(IndexError):
        cols[len(tokens)]
    assert cols[1:] == tokens[1:] and cols[::-1] == tokens[::-1]
    assert pickle.loads(pickle.dumps(cols)) == tokens
    if tokens:
        changed = (*tokens[:-1], (tokens[-1][0], tokens[-1][1] + 1))
        assert cols != changed and cols != PairColumns(*zip(*changed, strict=True))
