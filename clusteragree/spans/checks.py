"""What ``validate`` checks in span tables and in annotation tools' exports.

The inputs of this domain are span tables (``spans-csv``), pygamma-agreement's CSV
(``pygamma``) and every export format of :mod:`clusteragree.exports` (INCEpTION projects,
WebAnno TSV, UIMA CAS XMI and JSON, Label Studio, doccano, Prodigy): spans with offsets, a
layer and a label, and for exports the documents' texts, tokens, relations and chains.

* Level 1, the file: a table is scanned row by row (every row whose fields, offsets or names
  are wrong is reported, not only the first), then read by its reader, whose notices and
  refusal become ``read-*`` incidents (:func:`~clusteragree.incidents.read_checked`). An
  export's reader checks each span's covered text against the document's text (``read-
  mismatch``) and refuses a file whose offsets mix units.
* Level 2, one annotator's document (:func:`document_incidents`, :func:`table_incidents`):
  offsets outside the text or ending before they start, zero-length spans, exact duplicates,
  overlaps within a layer, labels outside ``vocabulary``, relations and chain links whose ends
  are not spans of the document, tokens that do not tile the text. The chains as coreference
  (crossing links, the same characters in two chains) are the coreference domain's
  (:mod:`clusteragree.coref.export_checks`), handed the exports read here by ``validate``
  (the option ``chain_checks`` of :func:`validate_inputs`).
* Level 3, across annotators (:func:`across_documents`, :func:`across_tables`): the same
  documents with the same text, the documents an annotator lacks, labels and spans only one
  annotator has.

References
----------
docs/validate.md (every test, its level and class); docs/spans.md, "Reading spans";
docs/formats.md (what each tool's export holds).

Examples
--------
>>> from clusteragree.exports import AnnotatedDocument, Span
>>> doc = AnnotatedDocument("d", "ann", "Mary met John",
...                         spans=(Span("1", 0, 4, "ne", "PER"), Span("2", 0, 4, "ne", "PER")))
>>> [i.test_id for i in document_incidents(doc)]
['spans-duplicate']
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import replace
from functools import partial
from itertools import chain
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import module
from ..core.model import unique_labels
from ..errors import ParameterError, option
from ..exports.columns import PairColumns, is_columns, missing_ids, span_column
from ..exports.model import AnnotatedDocument, Export, Span
from ..exports.reading import IN_PARTS, read_export
from ..incidents import Incident, Test, read_checked, refuse_errors, register
from .readers import read_pygamma_csv, read_span_table, read_texts
from .table_checks import across_tables, scan_table, table_checks, table_incidents

if TYPE_CHECKING:
    import pandas as pd
else:  # loaded when a table is checked: exports are checked without it
    pd = module("pandas")

__all__ = ["across_documents", "across_tables", "document_incidents", "refuse_export_errors",
           "table_incidents", "validate_inputs"]

TABLES = ("spans-csv", "pygamma")
#: Export formats whose file is one annotator's annotation of one document (named by neither).
ONE_DOCUMENT = frozenset({"webanno-tsv", "uima-xmi", "uima-json"})
#: The keyword options of export readers that ``validate_inputs`` passes on when given.
READER_OPTIONS = ("curation", "typesystem", "duplicates", "text_key", "annotator_key",
                  "answers")

register(
    Test("spans-row-fields", 1, "error", "spans", "a row of a span table with another number "
         "of fields than its header (pygamma-agreement: four)", TABLES),
    Test("spans-row-empty", 1, "error", "spans", "a row of a span table whose annotator, "
         "document or label (category) is empty", TABLES),
    Test("spans-row-offset", 1, "error", "spans", "a row of a span table whose start or end is "
         "not a number", TABLES),
    Test("spans-bad-offsets", 2, "error", "spans", "a span with a negative start, an end "
         "before its start, or an end past its document's text"),
    Test("spans-zero-length", 2, "warning", "spans", "a span that ends where it starts (no "
         "matching measure can match it by overlap; token measures ignore it)"),
    Test("spans-fractional-offset", 2, "warning", "spans", "offsets that count characters "
         "(texts given) but are not whole numbers", ("spans-csv",)),
    Test("spans-duplicate", 2, "warning", "spans", "spans of one annotator with the same "
         "start, end, layer and label (stacked): exact matching counts each"),
    Test("spans-overlap", 2, "information", "spans", "spans of one layer that overlap an "
         "earlier span of that layer (many schemes allow it), counted per document"),
    Test("spans-label-unknown", 2, "error", "spans", "a span or document label outside the "
         "labels of --vocabulary"),
    Test("spans-vocabulary-layers", 2, "information", "spans", "layers --vocabulary was not "
         "applied to (none of their labels is in it, while another layer's are)"),
    Test("spans-relation-end-missing", 2, "error", "spans", "a relation or chain link of an "
         "export whose end is not a span of the document"),
    Test("spans-tokens-overlap", 2, "error", "spans", "tokens of an export out of order, "
         "overlapping, or outside the text"),
    Test("spans-tokens-gap", 2, "warning", "spans", "text other than white space that no token "
         "of an export covers"),
    Test("spans-text-differs", 3, "error", "spans", "a document whose text differs between "
         "annotators (the first differing character is named)"),
    Test("spans-document-twice", 3, "error", "spans", "a document annotated twice by one "
         "annotator (in two inputs)"),
    Test("spans-document-missing", 3, "information", "spans", "documents of an export some "
         "annotators have and this one lacks (missing, not empty: the spans command leaves "
         "them out)"),
    Test("spans-document-unmarked", 3, "information", "spans", "documents of a span table in "
         "which this annotator has no span while others have (compared as marking nothing)",
         TABLES),
    Test("spans-no-shared-document", 3, "warning", "spans", "no document every annotator has: "
         "nothing the spans command can compare"),
    Test("spans-label-one-annotator", 3, "information", "spans", "a label of a layer only one "
         "annotator uses"),
    Test("spans-one-annotator", 3, "information", "spans", "spans only one annotator has (the "
         "same start, end, layer and label), counted per annotator and document"),
)


# --- level 2: one annotator's document ------------------------------------------------------

#: The checks of export spans and tokens use their shortcuts over whole columns (False: the
#: general checks alone; the tests compare both).
FAST = True
#: ... on documents of at least this many spans (tokens, for the tokens' checks; the spans of
#: a document's annotators, across them): below, the plain loops are faster, numpy's cost per
#: call being more than the loops' (a JSON export's texts of some 25 tokens and 4 spans: 30,000
#: documents checked in 0.8 s by the loops, 9.7 s by the columns).
BULK = 256

#: A span as the checks see it: start, end, layer, label, id (node), line.
Item = tuple[Any, Any, str, "str | None", "str | None", "int | None"]


def _of(layer: str) -> str:
    """`` of the layer 'X'`` (nothing for a table's one layer, ``""``)."""
    return f" of the layer {layer!r}" if layer else ""


def _show(x: Any) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def _span_checks(items: Sequence[Item], *, file: str | None, document: str, annotator: str,
                 length: int | None, characters: bool = False) -> Iterator[Incident]:
    """Offsets, zero length, duplicates and overlaps of one annotator's spans of one document."""
    seen: dict[tuple[Any, Any, str, str | None], int] = {}
    first: dict[tuple[Any, Any, str, str | None], Item] = {}
    by_layer: dict[str, list[tuple[Any, Any]]] = defaultdict(list)
    for it in items:
        start, end, layer, label, node, line = it
        where = (file, line, document, node, annotator)
        if start < 0 or end < start or (length is not None and end > length):
            why = ("has a negative start" if start < 0 else "ends before it starts"
                   if end < start else f"ends past the text ({length} characters)")
            yield Incident("spans-bad-offsets", f"the span {_show(start)}-{_show(end)} "
                           f"{why}; spans run from start to end (exclusive), "
                           "0 <= start <= end <= the text's length", *where)
            continue
        if characters and not (float(start).is_integer() and float(end).is_integer()):
            yield Incident("spans-fractional-offset", f"the span {start}-{end} has offsets "
                           "that are not whole numbers, but the texts given make them count "
                           "characters", *where)
        if start == end:
            yield Incident("spans-zero-length", f"the span at {_show(start)}{_of(layer)} "
                           f"(label {label!r}) has no length", *where)
        key = (start, end, layer, label)
        seen[key] = n = seen.get(key, 0) + 1
        if n == 1:
            first[key] = it
            if start < end:
                by_layer[layer].append((start, end))
    for key, n in seen.items():
        if n > 1:
            it = first[key]
            yield Incident("spans-duplicate", f"the span {_show(key[0])}-{_show(key[1])}"
                           f"{_of(key[2])} with the label {key[3]!r} is stacked on an "
                           "identical one (exact matching counts each)", file, it[5],
                           document, it[4], annotator, count=n - 1)
    for layer, pairs in by_layer.items():
        pairs.sort()
        reach, overlapping = None, 0
        for s, e in pairs:
            if reach is not None and s < reach:
                overlapping += 1
            reach = e if reach is None or e > reach else reach
        if overlapping:
            yield Incident("spans-overlap", f"a span{_of(layer)} overlaps an earlier "
                           "span",  file, None, document,
                           None, annotator, count=overlapping)


def _checked_layers(labels: dict[str, set[str]], vocabulary: set[str]) -> set[str]:
    """The layers a vocabulary applies to: those using one of its labels, or all when none
    does (every label of a single layer misspelt is still reported)."""
    hit = {layer for layer, found in labels.items() if found & vocabulary}
    return hit or set(labels)


def _vocabulary_checks(entries: Iterable[tuple[str, str | None, str | None, int | None]],
                       vocabulary: Sequence[str], *, file: str | None, document: str | None,
                       annotator: str | None) -> Iterator[Incident]:
    """``(layer, label, node, line)`` entries whose label is not in the vocabulary."""
    allowed = set(vocabulary)
    rows = [e for e in entries if e[1] is not None]
    labels: dict[str, set[str]] = defaultdict(set)
    for layer, label, _, _ in rows:
        labels[layer].add(str(label))
    layers = _checked_layers(labels, allowed)
    left = sorted(set(labels) - layers)
    if left:
        yield Incident("spans-vocabulary-layers", f"the vocabulary is not applied to the "
                       f"layer(s) {', '.join(map(repr, left))} (none of their labels is "
                       "in it)", file, None, document, None, annotator)
    for layer, label, node, line in rows:
        if layer in layers and label not in allowed:
            yield Incident("spans-label-unknown", f"the label {label!r}{_of(layer)} is "
                           f"not in the vocabulary ({option('vocabulary')})", file, line,
                           document, node, annotator)


#: A span's key across annotators, and its layer and label (spans that are objects).
_KEY = attrgetter("start", "end", "layer", "label")
_LAYER_LABEL = attrgetter("layer", "label")
#: A span as :func:`_span_checks` reads it (:data:`Item`).
_ITEM = attrgetter("start", "end", "layer", "label", "id", "line")


def _span_keys(spans: Sequence[Span]) -> Counter[tuple[int, int, str, str | None]]:
    """How many spans of each (start, end, layer, label)."""
    if is_columns(spans):
        return Counter(zip(*_span_columns(spans), strict=True))
    return Counter(map(_KEY, spans))


def _span_columns(spans: Sequence[Span]) -> tuple[list[Any], list[Any], list[str],
                                                  list[str | None]]:
    """The starts, ends, layers and labels of spans, a list each (read from the columns of
    spans kept as columns, without making them)."""
    return (span_column(spans, "start"), span_column(spans, "end"),
            span_column(spans, "layer"), span_column(spans, "label"))


def _plain_span_checks(spans: Sequence[Span], *, file: str | None, document: str,
                       annotator: str, length: int | None) -> list[Incident] | None:
    """What :func:`_span_checks` finds in an export's spans when none has bad offsets or no
    length (the common case), with the spans' keys sorted in columns instead of counted in
    dictionaries: its duplicates and overlaps, in its order and words. None in any other case
    (it then looks)."""
    if not spans:
        return None
    columns = _codes(spans)
    if columns is None:
        return None
    s, e, lc, layers, bc, _ = columns
    if bool((s < 0).any()) or bool((e <= s).any()) or \
            (length is not None and int(e.max()) > length):
        return None
    n = len(spans)
    # by layer, start, end, label; stable: a key's first span comes first, and each layer's
    # distinct keys come in order of their offsets (the overlaps need no sort of their own)
    order = np.lexsort(_packed(lc, s, e, bc))
    ss, ee, ll, bb = s[order], e[order], lc[order], bc[order]
    new = np.ones(n, dtype=bool)
    new[1:] = (ss[1:] != ss[:-1]) | (ee[1:] != ee[:-1]) | (ll[1:] != ll[:-1]) | \
        (bb[1:] != bb[:-1])
    at = np.flatnonzero(new)
    first, counts = order[at], np.diff(np.append(at, n))
    out = []
    for k in np.flatnonzero(counts > 1)[np.argsort(first[counts > 1], kind="stable")]:
        span = spans[int(first[k])]
        out.append(Incident("spans-duplicate", f"the span {_show(span.start)}-"
                            f"{_show(span.end)}{_of(span.layer)} with the label "
                            f"{span.label!r} is stacked on an identical one (exact matching "
                            "counts each)", file, span.line, document, span.id, annotator,
                            count=int(counts[k]) - 1))
    ks, ke, kl = ss[at], ee[at], ll[at]
    for i in np.unique(kl).tolist():  # the layers in order of first use (their codes)
        layer = layers[i]
        mask = kl == i
        a, b = ks[mask], ke[mask]
        overlapping = int(np.count_nonzero(a[1:] < np.maximum.accumulate(b)[:-1]))
        if overlapping:
            out.append(Incident("spans-overlap", f"a span{_of(layer)} overlaps an earlier "
                                "span", file, None, document, None, annotator,
                                count=overlapping))
    return out


def document_incidents(doc: AnnotatedDocument, *, vocabulary: Sequence[str] | None = None
                       ) -> Iterator[Incident]:
    """The level-2 incidents of one annotator's document of an export.

    Parameters
    ----------
    doc : AnnotatedDocument
        As an export reader gives it.
    vocabulary : sequence of str, optional
        The labels allowed (spans and document labels); none checked when None.

    Yields
    ------
    Incident
        Of the tests ``spans-bad-offsets``, ``spans-zero-length``, ``spans-duplicate``,
        ``spans-overlap``, ``spans-label-unknown``, ``spans-vocabulary-layers``,
        ``spans-relation-end-missing``, ``spans-tokens-overlap``, ``spans-tokens-gap``.

    Examples
    --------
    >>> from clusteragree.exports import AnnotatedDocument, Relation, Span
    >>> doc = AnnotatedDocument("d", "ann", "Mary met John",
    ...                         spans=(Span("1", 0, 4, "ne", "PER"),),
    ...                         relations=(Relation("1", "9", "coref", None),))
    >>> [i.test_id for i in document_incidents(doc, vocabulary=["LOC"])]
    ['spans-label-unknown', 'spans-relation-end-missing']
    """
    file, name, who = doc.path or None, doc.name, doc.annotator
    length = None if doc.text is None else len(doc.text)
    fast = _plain_span_checks(doc.spans, file=file, document=name, annotator=who,
                              length=length) if FAST and len(doc.spans) >= BULK else None
    if fast is not None:
        yield from fast
    else:
        yield from _span_checks(list(map(_ITEM, doc.spans)), file=file, document=name,
                                annotator=who, length=length)
    if vocabulary is not None:
        yield from _vocabulary_checks(
            [*((s.layer, s.label, s.id, s.line) for s in doc.spans),
             *((d.layer, d.label, None, d.line) for d in doc.labels)],
            vocabulary, file=file, document=name, annotator=who)
    missing = missing_ids(doc.spans, {x for r in doc.relations for x in (r.source, r.target)}
                          | {x for c in doc.chains for x in c.spans}) \
        if doc.relations or doc.chains else set()
    for r in doc.relations:
        gone = [x for x in (r.source, r.target) if x in missing]
        if gone:
            yield Incident("spans-relation-end-missing", f"a relation of the layer {r.layer!r}"
                           f" ({r.source} -> {r.target}) points at {', '.join(gone)}, not a "
                           "span of the document", file, r.line, name, gone[0], who)
    for c in doc.chains:
        gone = [x for x in c.spans if x in missing]
        if gone:
            yield Incident("spans-relation-end-missing", f"the chain {c.id}{_of(c.layer)} "
                           f"links a span that is not in the document ({', '.join(gone[:5])}"
                           f"{' ...' if len(gone) > 5 else ''})", file, c.line, name,
                           gone[0], who, count=len(gone))
    if doc.tokens and doc.text is not None:
        yield from _token_checks(doc.tokens, doc.text, file=file, document=name, annotator=who)


def _plain_tokens(tokens: Sequence[tuple[int, int]], text: str) -> bool:
    """Whether the tokens are in order, disjoint, inside the text, none at ``(0, 0)`` in a
    non-empty text, and only white space lies between and after them: then
    :func:`_token_checks` finds nothing (this tells it at the cost of a few passes over whole
    columns)."""
    if isinstance(tokens, PairColumns):
        starts, ends = tokens.starts, tokens.ends
    else:
        try:
            pairs = np.fromiter(chain.from_iterable(tokens), dtype=np.int64,
                                count=2 * len(tokens)).reshape(-1, 2)
        except (OverflowError, TypeError, ValueError):
            return False
        starts, ends = pairs[:, 0], pairs[:, 1]
    if not len(starts) or int(starts[0]) < 0 or bool((ends < starts).any()) or \
            int(ends.max()) > len(text) or bool((starts[1:] < ends[:-1]).any()) or \
            (text and bool(((starts == 0) & (ends == 0)).any())):
        return False
    return _only_space_outside(text, starts, ends)


def _only_space_outside(text: str, starts: Any, ends: Any) -> bool:
    """Whether every character of ``text`` outside the ranges (in order, disjoint) is white
    space (``str.isspace``): the characters outside marked with two counts, each distinct one
    tested once."""
    if not text:
        return True
    if text.isascii():
        points = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    else:
        try:
            points = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
        except UnicodeEncodeError:  # a lone surrogate: not white space, and not in a token?
            between = "".join(map(text.__getitem__, map(slice, [0, *ends.tolist()],
                                                           [*starts.tolist(), len(text)])))
            return not between or between.isspace()
    size = len(text)
    depth = np.cumsum(np.bincount(starts, minlength=size + 1) -
                      np.bincount(ends, minlength=size + 1))[:size]
    outside = np.unique(points[depth == 0])
    return all(chr(c).isspace() for c in outside.tolist())


def _token_checks(tokens: Sequence[tuple[int, int]], text: str, *, file: str | None,
                  document: str, annotator: str) -> Iterator[Incident]:
    """Tokens in order, disjoint, inside the text; what lies between them is white space. A
    token at ``(0, 0)`` in a non-empty text is one the reader left out (it says so)."""
    if FAST and len(tokens) >= BULK and _plain_tokens(tokens, text):
        return
    reach, bad, gaps = 0, [], []
    placeholder = (0, 0) if text else None
    for k, (s, e) in enumerate(tokens):
        if (s, e) == placeholder:
            continue
        if s < reach or e < s or e > len(text):
            bad.append(k)
            reach = max(reach, min(e, len(text)))
            continue
        if text[reach:s].strip():
            gaps.append((reach, s))
        reach = e
    if text[reach:].strip() and tokens:
        gaps.append((reach, len(text)))
    if bad:
        k = bad[0]
        yield Incident("spans-tokens-overlap", "a token out of order, overlapping the token "
                       f"before it or outside the text (the first: token {k + 1} at "
                       f"{tokens[k][0]}-{tokens[k][1]})", file, None, document, str(k + 1),
                       annotator, count=len(bad))
    if gaps:
        s, e = gaps[0]
        yield Incident("spans-tokens-gap", "text other than white space that no token "
                       f"covers (the first: {s}-{e}, {text[s:e][:30]!r})", file, None, document,
                       None, annotator, count=len(gaps))


# --- level 3: across annotators --------------------------------------------------------------

def _first_difference(a: str, b: str) -> int:
    n = min(len(a), len(b))
    lo = 0
    while lo < n and a[lo:lo + 4096] == b[lo:lo + 4096]:  # block by block, then character
        lo += 4096
    return next((i for i in range(lo, min(n, lo + 4096)) if a[i] != b[i]), n)


def _only_one(by_annotator: dict[str, Counter[Any]], file_of: dict[str, str | None],
              document: str) -> Iterator[Incident]:
    """``spans-one-annotator``: the spans of each annotator that no other annotator has."""
    if len(by_annotator) < 2:
        return
    holders: Counter[Any] = Counter()
    for spans in by_annotator.values():
        holders.update(spans.keys())
    for who, spans in by_annotator.items():
        alone = sum(1 for key in spans if holders[key] == 1)
        if alone:
            yield Incident("spans-one-annotator", "a span that no other annotator has (the "
                           "same start, end, layer and label)", file_of.get(who),
                           None, document, None, who, count=alone)


def _plain_only_one(by: dict[str, AnnotatedDocument], file_of: dict[str, str | None],
                    document: str) -> list[Incident] | None:
    """What :func:`_only_one` finds, with the spans' keys sorted in columns instead of
    counted in dictionaries; None when an offset is not a whole number of 64 bits."""
    if len(by) < 2:
        return []
    columns = [_codes(d.spans) for d in by.values()]
    if any(c is None for c in columns):
        return None
    layer_code: dict[str, int] = {}
    label_code: dict[str | None, int] = {}
    parts = []
    for a, c in enumerate(columns):
        assert c is not None
        starts, ends, lc, layers, bc, labels = c
        layer_lut = np.asarray([layer_code.setdefault(x, len(layer_code)) for x in layers],
                               dtype=np.int64)
        label_lut = np.asarray([label_code.setdefault(x, len(label_code)) for x in labels],
                               dtype=np.int64)
        parts.append((starts, ends, layer_lut[lc], label_lut[bc],
                      np.full(len(starts), a, dtype=np.int64)))
    s, e, lc, bc, who = (np.concatenate([p[k] for p in parts]) for k in range(5))
    out: list[Incident] = []
    if not len(s):
        return out
    order = np.lexsort((who, *_packed(s, e, lc, bc)))
    s, e, lc, bc, who = s[order], e[order], lc[order], bc[order], who[order]
    new_key = np.ones(len(s), dtype=bool)
    new_key[1:] = (s[1:] != s[:-1]) | (e[1:] != e[:-1]) | (lc[1:] != lc[:-1]) | \
        (bc[1:] != bc[:-1])
    new_pair = new_key.copy()
    new_pair[1:] |= who[1:] != who[:-1]
    key_of_pair = (np.cumsum(new_key) - 1)[new_pair]
    holders = np.bincount(key_of_pair)
    alone = np.bincount(who[new_pair][holders[key_of_pair] == 1], minlength=len(by))
    for a, name in enumerate(by):
        if alone[a]:
            out.append(Incident("spans-one-annotator", "a span that no other annotator has (the "
                                "same start, end, layer and label)", file_of.get(name),
                                None, document, None, name, count=int(alone[a])))
    return out


def _codes(spans: Sequence[Span]) -> tuple[Any, Any, Any, list[str], Any,
                                           list[str | None]] | None:
    """The starts and ends of spans as arrays (None unless whole numbers of 64 bits), their
    layers and labels as codes into lists of the distinct ones (read from the columns of
    spans kept as columns, without making them)."""
    if is_columns(spans):  # whole numbers of 64 bits by construction
        lc, layers = _first_use(spans.layer_codes, spans.layers)
        bc, labels = _first_use(spans.label_codes, spans.labels)
        return spans.starts, spans.ends, lc, layers, bc, labels
    starts, ends, layer_list, label_list = _span_columns(spans)
    if (starts and set(map(type, starts)) != {int}) or (ends and set(map(type, ends)) != {int}):
        return None
    try:
        s, e = np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64)
    except OverflowError:
        return None
    lc, layers = _coded(layer_list)
    bc, labels = _coded(label_list)
    return s, e, lc, layers, bc, labels


def _packed(*keys: Any) -> tuple[Any, ...]:
    """The keys of :func:`numpy.lexsort` for sorting by ``keys`` (the first the primary), two
    at a time in one integer where both lie in ``[0, 2**31)``: the same order, sorted
    faster."""
    out: list[Any] = []
    for k in range(0, len(keys) - 1, 2):
        a, b = keys[k], keys[k + 1]
        if len(a) and min(int(a.min()), int(b.min())) >= 0 and \
                max(int(a.max()), int(b.max())) < 1 << 31:
            out.append((a << 32) | b)
        else:
            out += [a, b]
    if len(keys) % 2:
        out.append(keys[-1])
    return tuple(reversed(out))


def _coded(values: Sequence[Any]) -> tuple[Any, list[Any]]:
    """Values as codes into the distinct ones, numbered in order of first use."""
    code = {v: i for i, v in enumerate(dict.fromkeys(values))}
    return np.fromiter(map(code.__getitem__, values), np.int64, len(values)), list(code)


def _first_use(codes: Any, table: Sequence[Any]) -> tuple[Any, list[Any]]:
    """Codes into a table (whose values may repeat) as codes into the distinct values used,
    numbered in order of first use (as :func:`_codes` numbers a list of values)."""
    if not len(codes):
        return codes, []
    lut, values = _coded(table)
    merged = lut[codes]
    used, first = np.unique(merged, return_index=True)
    rank = np.empty(len(values), dtype=np.int64)
    rank[used[np.argsort(first)]] = np.arange(len(used))
    return rank[merged], [values[i] for i in used[np.argsort(first)].tolist()]


def _label_counts(spans: Sequence[Span]) -> list[tuple[tuple[str, str | None], int]]:
    """The number of spans of each (layer, label), in order of first use."""
    columns = _codes(spans) if is_columns(spans) else None
    if columns is None:
        return list(Counter(zip(span_column(spans, "layer"), span_column(spans, "label"),
                                strict=True)
                            if is_columns(spans) else map(_LAYER_LABEL, spans)).items())
    _, _, lc, layers, bc, labels = columns
    key = lc * len(labels) + bc
    used, first, counts = np.unique(key, return_index=True, return_counts=True)
    by = np.argsort(first)
    return [((layers[k // len(labels)], labels[k % len(labels)]), int(n))
            for k, n in zip(used[by].tolist(), counts[by].tolist(), strict=True)]


def _label_drift(uses: dict[tuple[str, str], Counter[str]], file_of: dict[str, str | None],
                 annotators: int) -> Iterator[Incident]:
    """``spans-label-one-annotator``: ``(layer, label) -> annotator -> count``."""
    if annotators < 2:
        return
    for (layer, label), who in uses.items():
        if len(who) == 1:
            (name, n), = who.items()
            yield Incident("spans-label-one-annotator", f"the label {label!r}{_of(layer)} "
                           "is used by this annotator only (its spans counted)",
                           file_of.get(name), None, None, None, name, count=n)


def across_documents(docs: Sequence[AnnotatedDocument]) -> Iterator[Incident]:
    """The level-3 incidents of exports' documents (every annotator's).

    Yields
    ------
    Incident
        Of the tests ``spans-document-twice``, ``spans-text-differs``,
        ``spans-document-missing``, ``spans-no-shared-document``,
        ``spans-label-one-annotator``, ``spans-one-annotator``.

    Examples
    --------
    >>> from clusteragree.exports import AnnotatedDocument, Span
    >>> a = AnnotatedDocument("d", "ann1", "Mary met John", spans=(Span("1", 0, 4, "ne", "PER"),))
    >>> b = AnnotatedDocument("d", "ann2", "Mary met Jon", spans=(Span("1", 0, 4, "ne", "PER"),))
    >>> for incident in across_documents([a, b]):
    ...     print(incident)  # doctest: +NORMALIZE_WHITESPACE
    [Sent d Annotator ann2]: [L3 spans spans-text-differs] the text of document 'd' differs
    from the text of 'ann1' from character 11 ('hn' / 'n'): annotations of different texts
    cannot be compared
    """
    who = list(dict.fromkeys(d.annotator for d in docs))
    file_of: dict[str, str | None] = {}
    have: dict[str, dict[str, AnnotatedDocument]] = {}
    for d in docs:
        file_of.setdefault(d.annotator, d.path or None)
        seen = have.setdefault(d.name, {})
        if d.annotator in seen:
            yield Incident("spans-document-twice", f"document {d.name!r} is annotated twice by "
                           f"{d.annotator!r} (also in {seen[d.annotator].path})", d.path or None,
                           d.line, d.name, None, d.annotator)
            continue
        seen[d.annotator] = d
    if len(who) < 2:
        return
    for name, by in have.items():
        first = next(iter(by.values()))
        for d in list(by.values())[1:]:
            if d.text is not None and first.text is not None and d.text != first.text:
                at = _first_difference(first.text, d.text)
                yield Incident("spans-text-differs", f"the text of document {name!r} differs "
                               f"from the text of {first.annotator!r} from character {at} "
                               f"({first.text[at:at + 20]!r} / {d.text[at:at + 20]!r}): "
                               "annotations of different texts cannot be compared",
                               d.path or None, d.line, name, None, d.annotator)
    for w in who:
        lacking = [n for n, by in have.items() if w not in by]
        if lacking:
            yield Incident("spans-document-missing", "a document others annotated is missing: "
                           f"{', '.join(lacking[:5])}"
                           f"{' ...' if len(lacking) > 5 else ''}", file_of[w], None, None,
                           None, w, count=len(lacking))
    if not any(len(by) == len(who) for by in have.values()):
        yield Incident("spans-no-shared-document", f"no document is annotated by every "
                       f"annotator ({', '.join(who)}): the spans command has nothing to "
                       "compare", file_of[who[0]])
    uses: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for d in docs:
        for (layer, label), n in _label_counts(d.spans):
            if label is not None:
                uses[(layer, label)][d.annotator] += n
    yield from _label_drift(uses, file_of, len(who))
    for name, by in have.items():
        fast = (_plain_only_one(by, file_of, name)
                if FAST and sum(len(d.spans) for d in by.values()) >= BULK else None)
        if fast is not None:
            yield from fast
        else:
            yield from _only_one({w: _span_keys(d.spans) for w, d in by.items()}, file_of,
                                 name)


# --- span tables -----------------------------------------------------------------------------
# (pandas is imported when a table is checked: exports are checked without it)

def _read_tables(paths: list[str], input_format: str, encoding: str | None,
                 names: Sequence[str] | None, found: list[Incident]) -> list[Any]:
    """Each table read by its reader (None where it refuses), its incidents added to
    ``found``: a table the reader refused or reported on is scanned row by row (every
    malformed row, before the reader's incidents; a refusal at a row the scan reported is not
    reported twice). A table the reader accepted without a word has no row the scan
    reports (the scan's faults are the reader's refusals), and is not read again."""
    fallback = unique_labels(paths) if len(paths) > 1 else [None] * len(paths)
    frames = []
    for i, path in enumerate(paths):
        if input_format == "pygamma":
            if names is not None:
                raise ParameterError(f"pygamma-agreement's CSV names its annotators in its "
                                     f"first column: {option('names')} is for files of one "
                                     "annotator", params=("names",))
            frame, read = read_checked(path, partial(read_pygamma_csv, path,
                                                     encoding=encoding))
        else:
            given = names[i] if names is not None else None
            frame, read = read_checked(path, partial(read_span_table, path, annotator=given,
                                                     fallback=fallback[i], encoding=encoding))
        scanned = list(scan_table(path, input_format, encoding)) if read else []
        lines = {s.line for s in scanned}
        found.extend(scanned)
        found.extend(r for r in read if not (r.test_id == "read-refused" and r.line in lines))
        frames.append(frame)
    return frames


def _tables(paths: list[str], input_format: str, *, level: int, encoding: str | None,
            names: Sequence[str] | None, options: dict[str, Any]) -> Iterator[Incident]:
    found: list[Incident] = []
    frames = _read_tables(paths, input_format, encoding, names, found)
    yield from found
    read = [f for f in frames if f is not None]
    if level < 2 or not read:
        return
    frame = pd.concat(read, ignore_index=True)
    texts: dict[Hashable, str] | None = None
    if options.get("text_dir") is not None:
        documents = list(dict.fromkeys(frame["document"]))
        texts, refused = read_checked(options["text_dir"], lambda: read_texts(
            options["text_dir"], documents, encoding=encoding))
        yield from refused
    every = None if input_format == "pygamma" else list(dict.fromkeys(
        a for f in read for a in f.attrs.get("annotators", ())))
    yield from table_checks(frame, level=level, texts=texts,
                            vocabulary=options.get("vocabulary"), annotators=every)


# --- exports ----------------------------------------------------------------------------------

def _read_exports(paths: list[str], input_format: str, encoding: str | None,
                  names: Sequence[str] | None, options: dict[str, Any],
                  found: list[Incident]) -> list[Export | None]:
    """Each export read by its reader (as the other commands read them: the files of one-
    document formats are one document, by one annotator each)."""
    kwargs = {k: options[k] for k in READER_OPTIONS if options.get(k) is not None}
    if input_format in IN_PARTS and options.get("jobs") is not None:
        kwargs["jobs"] = options["jobs"]  # a large file read on several processes
    out: list[Export | None] = []
    if input_format in ONE_DOCUMENT:
        document = Path(paths[0]).stem
        who = list(names) if names is not None else unique_labels(paths)
        for path, name in zip(paths, who, strict=True):
            export, read = read_checked(path, partial(
                read_export, path, input_format, encoding=encoding, annotator=str(name),
                document=document, **kwargs))
            found.extend(read)
            out.append(export)
        return out
    for path in paths:
        export, read = read_checked(path, partial(read_export, path, input_format,
                                                  encoding=encoding, **kwargs))
        found.extend(read)
        out.append(export)
    return out


def _renamed(docs: list[AnnotatedDocument], names: Sequence[str] | None
             ) -> list[AnnotatedDocument]:
    """The documents with their annotators renamed by ``names`` (in order of first
    appearance), as the spans command renames them."""
    if names is None:
        return docs
    who = list(dict.fromkeys(d.annotator for d in docs))
    if len(names) != len(who):
        raise ParameterError(f"{option('names')} gives {len(names)} names for {len(who)} "
                             f"annotators ({', '.join(who)}): these exports name their "
                             "annotators; give one name per annotator, in their order",
                             params=("names",))
    renamed = dict(zip(who, names, strict=True))
    return [replace(d, annotator=str(renamed[d.annotator])) for d in docs]


def _exports(paths: list[str], input_format: str, *, level: int, encoding: str | None,
             names: Sequence[str] | None, options: dict[str, Any]) -> Iterator[Incident]:
    found: list[Incident] = []
    exports = _read_exports(paths, input_format, encoding, names, options, found)
    yield from found
    if level < 2:
        return
    docs = [d for e in exports if e is not None for d in e.documents]
    if input_format not in ONE_DOCUMENT and all(e is not None for e in exports):
        docs = _renamed(docs, names)
    for d in docs:
        yield from document_incidents(d, vocabulary=options.get("vocabulary"))
    chains = options.get("chain_checks")
    if chains is not None:
        yield from chains([e for e in exports if e is not None])
    if level >= 3:
        yield from across_documents(docs)


def refuse_export_errors(exports: Sequence[Export]) -> None:
    """Strict reading of exports: refuse what ``validate`` calls an error in them (level 2 on
    every annotator's document, level 3 across them), on the exports already read. Every
    command that reads exports under ``--strict`` calls it (``spans``; ``coref`` and ``table``
    for chains and document labels).

    Raises
    ------
    InputError
        The first error, with the number of the others.

    Examples
    --------
    >>> from clusteragree.exports import AnnotatedDocument, Export, Span
    >>> doc = AnnotatedDocument("d", "ann", "Mary", spans=(Span("1", 0, 9, "ne", "PER"),))
    >>> refuse_export_errors([Export((doc,), "x.json", "label-studio")])
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: the span 0-9 ends past the text (4 characters); ...
    """
    docs = [d for e in exports for d in e.documents]
    refuse_errors(chain(chain.from_iterable(document_incidents(d) for d in docs),
                        across_documents(docs)))


def validate_inputs(paths: list[str], input_format: str, *, level: int,
                    encoding: str | None = None, names: Sequence[str] | None = None,
                    options: dict[str, Any] | None = None) -> Iterator[Incident]:
    """Every incident of span tables or of annotation tools' exports, up to ``level``.

    Parameters
    ----------
    paths : list of str
        The inputs, all of ``input_format``. Span tables: one annotator each, or tables with
        an ``annotator`` column; pygamma-agreement: one document each; exports: as the other
        commands read them (one-document formats: the files are one document, one annotator
        each; the others name their documents and annotators).
    input_format : str
        ``spans-csv``, ``pygamma`` or an export format.
    level : {1, 2, 3}
        The highest level checked.
    encoding : str, optional
        Of every input (default UTF-8).
    names : sequence of str, optional
        Annotators' names: one per input for files of one annotator; for exports that name
        their annotators, one per annotator, in order of first appearance.
    options : dict, optional
        ``vocabulary`` (the labels allowed), ``text_dir`` (span tables: the texts
        ``DOCUMENT.txt`` whose characters the offsets count), the export readers' own
        options (``typesystem``, ``curation``, ...), and ``chain_checks``: a function of the
        exports read giving the level-2 incidents of their chains (``validate`` passes the
        coreference domain's, :func:`clusteragree.coref.export_checks.export_incidents`).

    Yields
    ------
    Incident
        Level 1 first (every input), then level 2 (every annotator's document), then 3.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = pathlib.Path(tmp) / "ner.csv"
    ...     _ = p.write_text("annotator,document,start,end,label\\n"
    ...                      "A,d1,0,4,PER\\nA,d1,x,4\\nB,d1,0,4,PER\\nB,d1,6,2,PER\\n")
    ...     [(i.test_id, i.line) for i in validate_inputs([str(p)], "spans-csv", level=3)]
    [('spans-row-fields', 3)]
    """
    options = dict(options or {})
    if input_format in TABLES:
        yield from _tables(paths, input_format, level=level, encoding=encoding, names=names,
                           options=options)
    else:
        yield from _exports(paths, input_format, level=level, encoding=encoding, names=names,
                            options=options)
