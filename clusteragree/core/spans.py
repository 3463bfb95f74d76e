"""Positioned units of several annotators over the same documents: the model every span measure
takes (matching F1, token-level kappa, unitizing alpha, gamma).

A :class:`SpanCorpus` holds one table of spans, ``(annotator, document, start, end, label)``
with ``end`` exclusive, and what the measures need beyond the spans themselves: every annotator
compared (one who marked nothing in a document marked nothing there), every document (one
nobody annotated still counts), each document's length where it is known (the continuum of the
unitizing coefficients and the positions of the token-level ones), its text where it is known
(shown by the report), and the unit the offsets count (characters, tokens, or positions whose
unit the input did not say).

Readers of every format build it (the spans domain from CSV, BRAT and pygamma-agreement's CSV;
the coreference domain from mentions; the pyramids domain from contributors); it knows no file
format.

References
----------
docs/spans.md, "The spans model".
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError, ParameterError, notify, option

__all__ = ["OFFSET_UNITS", "SPAN_FIELDS", "SpanCorpus", "outermost_units", "span_corpus"]

#: The columns every span table has (``end`` exclusive); ``id``, ``file`` and ``line`` say
#: where a span was read, and any further column is an attribute of the span.
SPAN_FIELDS = ("annotator", "document", "start", "end", "label", "id", "file", "line")

#: What offsets count: characters of a text, tokens of a tokenised text, or positions of a
#: continuum whose unit the input does not say (seconds, for instance).
OFFSET_UNITS = ("characters", "tokens", "positions")

#: The label of spans read without one.
NO_LABEL = "span"


@dataclass(frozen=True)
class SpanCorpus:
    """The spans of several annotators over the same documents.

    Attributes
    ----------
    spans : DataFrame
        One row per span: :data:`SPAN_FIELDS` (``start`` and ``end`` int64, or float64 when
        some offset is not a whole number), then the attributes read, if any. Rows are in
        reading order; a span's row number is its identity in results (the alignment).
    annotators : tuple
        Every annotator compared, in order (the first is the reference of a pair).
    documents : tuple
        Every document, in order.
    lengths : dict or None
        Document -> its length in offset units (the continuum ``[0, length)``); None when the
        input does not give them (the measures that need them say so).
    texts : dict or None
        Document -> its text (characters) or tokens, where known.
    unit : str
        What the offsets count (:data:`OFFSET_UNITS`).
    sources : dict
        Annotator -> the file or directory it was read from.

    References
    ----------
    docs/spans.md, "The spans model".

    Examples
    --------
    >>> c = span_corpus([("A", "d1", 0, 4, "PER"), ("B", "d1", 0, 5, "PER")],
    ...                 lengths={"d1": 10}, annotators=["A", "B", "C"])
    >>> c.annotators, c.documents, c.n_spans, c.lengths
    (('A', 'B', 'C'), ('d1',), 2, {'d1': 10})
    """

    spans: pd.DataFrame
    annotators: tuple[Hashable, ...]
    documents: tuple[Hashable, ...]
    lengths: dict[Hashable, int] | None = None
    texts: dict[Hashable, Any] | None = None
    unit: str = "positions"
    sources: dict[Hashable, str] = field(default_factory=dict)

    @property
    def n_spans(self) -> int:
        """How many spans, every annotator together."""
        return len(self.spans)

    @property
    def whole(self) -> bool:
        """Whether every offset is a whole number."""
        return bool(self.spans["start"].dtype.kind in "iu")

    @property
    def attributes(self) -> list[str]:
        """The attribute columns read beside the span fields."""
        return [c for c in self.spans.columns if c not in SPAN_FIELDS]

    def core_frame(self) -> pd.DataFrame:
        """The five columns the span engines take (``annotator, document, start, end,
        label``), with the row numbers of :attr:`spans` as index."""
        return self.spans.loc[:, ["annotator", "document", "start", "end", "label"]]

    def need_lengths(self, measure: str, how: str) -> dict[Hashable, int]:
        """The lengths, or an :class:`InputError` saying that ``measure`` needs them and
        ``how`` to give them."""
        if self.lengths is None:
            raise InputError(f"{measure} needs the length of every document (its continuum of "
                             f"{self.unit}), which the input does not give: {how}")
        return self.lengths

    def need_whole(self, measure: str) -> None:
        """Refuse offsets that are not whole numbers for a measure over positions."""
        if not self.whole:
            frame = self.spans
            bad = (frame["start"] % 1 != 0) | (frame["end"] % 1 != 0)
            row = frame[bad].iloc[0]
            raise InputError(f"{measure} counts positions, and a span has the offsets "
                             f"{row['start']}-{row['end']} (annotator {row['annotator']!r}, "
                             f"document {row['document']!r}); it needs whole-number offsets",
                             row["file"], _line(row["line"]))

    def nonempty(self, measure: str) -> SpanCorpus:
        """The corpus without its zero-length spans, which mark no position (a ``skipped``
        notice counts them for ``measure``)."""
        empty = (self.spans["end"] == self.spans["start"]).to_numpy()
        if not empty.any():
            return self
        first = self.spans[empty].iloc[0]
        notify("skipped", f"zero-length spans left out of {measure}: they mark no position "
               "(gamma takes them)", path=first["file"], line=_line(first["line"]),
               count=int(empty.sum()), once=("zero-length", measure))
        return self.subset(~empty)

    def subset(self, keep: Any) -> SpanCorpus:
        """The corpus with only the spans where ``keep`` (a boolean mask over the rows) holds;
        annotators, documents and lengths stay."""
        return SpanCorpus(self.spans[np.asarray(keep, dtype=bool)], self.annotators,
                          self.documents, self.lengths, self.texts, self.unit, self.sources)

    def in_document(self, document: Hashable) -> pd.DataFrame:
        """The spans of one document."""
        return self.spans[self.spans["document"] == document]


def _line(value: Any) -> int | None:
    return None if value is None or pd.isna(value) else int(value)


def span_corpus(spans: pd.DataFrame | Iterable[Sequence[Any]], *,
                annotators: Sequence[Hashable] | None = None,
                documents: Sequence[Hashable] | None = None,
                lengths: Mapping[Any, int] | None = None,
                texts: Mapping[Any, Any] | None = None,
                unit: str = "positions",
                sources: Mapping[Hashable, str] | None = None) -> SpanCorpus:
    """Build and check a :class:`SpanCorpus`.

    Parameters
    ----------
    spans : DataFrame or iterable of tuples
        A DataFrame with at least ``annotator, document, start, end, label`` (``id``, ``file``,
        ``line`` and attribute columns kept), or ``(annotator, document, start, end, label)``
        tuples.
    annotators : sequence, optional
        Every annotator, in order (default: those with spans, in order of appearance). Spans of
        annotators not named are refused.
    documents : sequence, optional
        Every document, in order (default: those of ``lengths``, else those with spans).
    lengths : mapping, optional
        Document -> length; every span must lie within ``[0, length]``.
    texts : mapping, optional
        Document -> text or tokens.
    unit : {"characters", "tokens", "positions"}, default="positions"
        What the offsets count.
    sources : mapping, optional
        Annotator -> where it was read from.

    Returns
    -------
    SpanCorpus

    Raises
    ------
    ParameterError
        Fewer than two annotators, an annotator named twice, an unknown ``unit``.
    InputError
        A span without annotator, document or label, with offsets that are not finite
        numbers, a negative start, an end before its start, outside its document's length, in
        a document not among ``documents``, or of an annotator not among ``annotators``
        (the span's file and line when known).

    References
    ----------
    docs/spans.md, "The spans model".

    Examples
    --------
    >>> c = span_corpus([("A", "d", 2, 5, "x"), ("B", "d", 2.5, 5, "x")])
    >>> c.whole, c.spans["start"].tolist()
    (False, [2.0, 2.5])
    >>> span_corpus([("A", "d", 4, 2, "x"), ("B", "d", 1, 2, "x")])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: a span of annotator 'A' in document 'd' ends before it ...
    """
    if unit not in OFFSET_UNITS:
        raise ParameterError(f"{option('unit', unit)} must be one of {', '.join(OFFSET_UNITS)}",
                             params=("unit",))
    if isinstance(spans, pd.DataFrame):
        frame = spans.reset_index(drop=True).copy()
        missing = [c for c in SPAN_FIELDS[:5] if c not in frame.columns]
        if missing:
            raise ParameterError(f"the spans lack the column(s) {', '.join(missing)}",
                                 params=("spans",))
    else:
        frame = pd.DataFrame(list(spans), columns=list(SPAN_FIELDS[:5]), dtype=object)
    for col, default in (("id", None), ("file", None), ("line", None)):
        if col not in frame.columns:
            frame[col] = default
    extra = [c for c in frame.columns if c not in SPAN_FIELDS]
    frame = frame[[*SPAN_FIELDS, *extra]]
    if frame["id"].isna().any():
        frame["id"] = [str(i) if v is None or pd.isna(v) else v
                       for i, v in zip(range(len(frame)), frame["id"], strict=True)]

    def refuse(i: int, what: str) -> InputError:
        row = frame.iloc[i]
        return InputError(f"a span of annotator {row['annotator']!r} in document "
                          f"{row['document']!r} {what}", row["file"], _line(row["line"]))

    for col in ("annotator", "document", "label"):
        bad = frame[col].isna().to_numpy()
        if bad.any():
            raise refuse(int(np.flatnonzero(bad)[0]), f"has no {col}")
    offsets = {}
    for col in ("start", "end"):
        values = pd.to_numeric(frame[col], errors="coerce").astype(float)
        bad = ~np.isfinite(values.to_numpy())
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise refuse(i, f"has the {col} {frame[col].iloc[i]!r}, which is not a number")
        offsets[col] = values.to_numpy()
    start, end = offsets["start"], offsets["end"]
    if len(frame) and (np.all(start % 1 == 0) and np.all(end % 1 == 0)):
        frame["start"], frame["end"] = start.astype(np.int64), end.astype(np.int64)
    else:
        frame["start"], frame["end"] = start, end
    bad = (start < 0) | (end < start)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise refuse(i, f"{'has a negative start' if start[i] < 0 else 'ends before it starts'}"
                     f" ({_number(start[i])}-{_number(end[i])}); spans run from start to end "
                     "(exclusive), 0 <= start <= end")
    names = list(dict.fromkeys(frame["annotator"])) if annotators is None else list(annotators)
    if len(set(names)) != len(names):
        raise ParameterError("annotators names an annotator twice", params=("annotators",))
    if len(names) < 2:
        raise ParameterError(f"span agreement needs two or more annotators; got {len(names)}",
                             params=("annotators",))
    outside = ~frame["annotator"].isin(names).to_numpy()
    if outside.any():
        raise refuse(int(np.flatnonzero(outside)[0]), "is of an annotator not among "
                     f"the annotators compared ({', '.join(map(str, names))})")
    if documents is not None:
        docs = list(documents)
    elif lengths is not None:
        docs = list(lengths)
    else:
        docs = list(dict.fromkeys(frame["document"]))
    unknown = ~frame["document"].isin(docs).to_numpy()
    if unknown.any():
        raise refuse(int(np.flatnonzero(unknown)[0]), "lies in a document that is not among "
                     "the documents compared")
    sizes = None
    if lengths is not None:
        sizes = {d: int(lengths[d]) for d in docs if d in lengths}
        lacking = [d for d in docs if d not in sizes]
        if lacking:
            raise InputError(f"the length of document {lacking[0]!r} is not known "
                             f"({len(lacking)} documents lack one)")
        limit = frame["document"].map(sizes).to_numpy(dtype=float)
        past = end > limit
        if past.any():
            i = int(np.flatnonzero(past)[0])
            raise refuse(i, f"ends at {_number(end[i])}, past the document's end "
                         f"({int(limit[i])} {unit})")
    return SpanCorpus(frame, tuple(names), tuple(docs), sizes,
                      None if texts is None else dict(texts), unit,
                      {} if sources is None else dict(sources))


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def outermost_units(spans: pd.DataFrame) -> tuple[pd.DataFrame, int, int]:
    """One annotator's spans of one label as units that do not overlap: a span inside another
    is left out, and spans that cross (overlap, neither containing the other) are joined.

    Parameters
    ----------
    spans : DataFrame
        Spans with ``start`` and ``end`` (one annotator, one label).

    Returns
    -------
    units : DataFrame
        ``start`` and ``end`` of the units, sorted, not overlapping.
    nested : int
        Spans left out because another contains them.
    crossing : int
        Spans joined with one they cross.

    References
    ----------
    Krippendorff, K. (1995). On the reliability of unitizing continuous data. Sociological
    Methodology 25, 47-76 (the units of one rater do not overlap).

    Examples
    --------
    [0, 5) contains [3, 5); [6, 9) and [8, 12) cross and become [6, 12):

    >>> units, nested, crossing = outermost_units(pd.DataFrame(
    ...     {"start": [0, 3, 6, 8], "end": [5, 5, 9, 12]}))
    >>> units.values.tolist(), nested, crossing
    ([[0, 5], [6, 12]], 1, 1)
    """
    order = np.lexsort((-spans["end"].to_numpy(), spans["start"].to_numpy()))
    starts = spans["start"].to_numpy()[order]
    ends = spans["end"].to_numpy()[order]
    out_s: list[Any] = []
    out_e: list[Any] = []
    nested = crossing = 0
    for s, e in zip(starts, ends, strict=True):
        if out_e and s < out_e[-1]:
            if e <= out_e[-1]:
                nested += 1
            else:
                crossing += 1
                out_e[-1] = e
            continue
        out_s.append(s)
        out_e.append(e)
    return pd.DataFrame({"start": out_s, "end": out_e}), nested, crossing
