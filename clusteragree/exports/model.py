"""What annotation tools export, in one neutral shape: annotated documents.

An :class:`AnnotatedDocument` is one annotator's annotation of one document: the text (when the
export carries it), the tokens and sentences (when the tool tokenised), the spans of every
layer, the relations between spans, the chains (coreference) and the labels of the whole
document. Every reader of :mod:`clusteragree.exports` (INCEpTION/WebAnno, Label Studio,
doccano, Prodigy) gives an :class:`Export`, a tuple of them; the domains adapt it to their own
models (chains to :mod:`clusteragree.coref`, spans to :mod:`clusteragree.spans`, document
labels to the coding tables of ``table``), so one reading of a tool's file serves every measure.

Offsets are always code points of :attr:`AnnotatedDocument.text`, end exclusive, whatever the
tool wrote (UTF-16 units, grapheme clusters, inclusive token ends): each reader converts and
says so in the warnings ledger (:mod:`clusteragree.exports.offsets`).

This module imports nothing but the standard library.

References
----------
docs/formats.md (each tool: how to export, what is read, what is left out).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

__all__ = ["AnnotatedDocument", "Chain", "DocumentLabel", "Export", "Relation", "Span",
           "SpanDraft", "chains_of", "connected_chains", "finish_spans", "new_document",
           "new_label", "new_relation", "new_span", "spans_in_bulk"]


@dataclass(frozen=True, slots=True)
class Span:
    """A span of one layer: its code-point offsets, label and features.

    Attributes
    ----------
    id : str
        The span's id in the export (``T3``, a Label Studio region id, a WebAnno ``1-3`` or
        ``1-3[4]``...), unique within its document and annotator.
    start, end : int
        Code-point offsets in the document's text, end exclusive (``start == end``: a
        zero-length span). For a discontinuous span, the first start and the last end.
    layer : str
        The annotation layer (WebAnno ``de.tudarmstadt...NamedEntity``, Label Studio's
        ``from_name``, ``label`` for tools with one span layer).
    label : str or None
        The span's value (an entity type, a tag); None when it has none.
    features : tuple of (str, str), default=()
        Other feature values, by feature name.
    fragments : tuple of (int, int), default=()
        The parts of a discontinuous span, sorted; empty for a continuous one.
    text : str or None, default=None
        The covered text as the export wrote it (checked against the document's text by the
        reader), None when the export gives none.
    line : int or None, default=None
        The line of the export where the span is written (for messages).

    Examples
    --------
    >>> Span("T1", 0, 4, "label", "PER").parts
    ((0, 4),)
    >>> Span("T2", 0, 9, "label", "LOC", fragments=((0, 4), (6, 9))).parts
    ((0, 4), (6, 9))
    """

    id: str
    start: int
    end: int
    layer: str
    label: str | None
    features: tuple[tuple[str, str], ...] = ()
    fragments: tuple[tuple[int, int], ...] = ()
    text: str | None = None
    line: int | None = None

    @property
    def parts(self) -> tuple[tuple[int, int], ...]:
        """The offsets of the span's parts: its fragments, or the one ``(start, end)``."""
        return self.fragments or ((self.start, self.end),)


@dataclass(frozen=True, slots=True)
class Relation:
    """A directed relation between two spans of the same document and annotator.

    Attributes
    ----------
    source, target : str
        The ids of the two spans.
    layer : str
        The relation layer (WebAnno's type, Label Studio's ``relation``, ...).
    label : str or None
        The relation's value.
    line : int or None, default=None
        Where it is written.
    features : tuple of (str, str), default=()
        Its other feature values, by feature name (WebAnno relation layers with several
        features).
    """

    source: str
    target: str
    layer: str
    label: str | None
    line: int | None = None
    features: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Chain:
    """A chain (a coreference entity): spans in the order the export links them.

    Attributes
    ----------
    id : str
        The chain's id, local to its document and annotator (never compared across annotators).
    layer : str
        The chain layer (WebAnno ``...CoreferenceChain``, ``relations`` for chains made of
        relations, ``equivalence`` for BRAT's ``*`` lines).
    spans : tuple of str
        The ids of its spans.
    label : str or None, default=None
        The chain's value where the tool gives one (a reference type).
    line : int or None, default=None
        Where its first link is written.
    """

    id: str
    layer: str
    spans: tuple[str, ...]
    label: str | None = None
    line: int | None = None


@dataclass(frozen=True, slots=True)
class DocumentLabel:
    """A label of the whole document (Label Studio ``choices``, doccano categories, Prodigy
    ``accept``): one per value; several values of one layer are several labels."""

    layer: str
    label: str
    line: int | None = None


@dataclass(frozen=True)
class AnnotatedDocument:
    """One annotator's annotation of one document, as exported by a tool.

    Attributes
    ----------
    name : str
        The document's name in the export.
    annotator : str
        Who annotated it, as the export names them (a user name, an id, an e-mail address).
    text : str or None
        The document's text, None when the export has none (offsets are then unchecked).
    tokens : tuple of (int, int), default=()
        Token offsets ``(start, end)`` in the text (code points), when the tool tokenised
        (a large document's may be kept as two arrays, a
        :class:`~clusteragree.exports.columns.PairColumns`, which reads as their tuple).
    sentences : tuple of (int, int), default=()
        Sentences as token index ranges ``(first, last + 1)``.
    spans, relations, chains, labels : tuples
        The annotation (the spans of a large document may be kept as columns, a
        :class:`~clusteragree.exports.columns.SpanColumns`, which reads as their tuple).
    path : str, default=""
        The file the annotation was read from (inside a ZIP: ``ZIP!member``).
    line : int or None, default=None
        Where the document starts in ``path``.
    tool : str, default=""
        The reader that made it (``inception``, ``webanno-tsv``, ``label-studio``, ``doccano``,
        ``prodigy``).

    Examples
    --------
    >>> doc = AnnotatedDocument("d", "ann", "Mary met John. He smiled.",
    ...     spans=(Span("1", 0, 4, "ne", "PER"), Span("2", 9, 13, "ne", "PER"),
    ...            Span("3", 15, 17, "ne", None)),
    ...     relations=(Relation("2", "3", "coref", None),))
    >>> doc.covered(doc.spans[1])
    'John'
    >>> [c.spans for c in connected_chains(doc, "coref")]
    [('2', '3')]
    """

    name: str
    annotator: str
    text: str | None
    tokens: Sequence[tuple[int, int]] = ()
    sentences: tuple[tuple[int, int], ...] = ()
    spans: Sequence[Span] = ()
    relations: tuple[Relation, ...] = ()
    chains: tuple[Chain, ...] = ()
    labels: tuple[DocumentLabel, ...] = ()
    path: str = ""
    line: int | None = None
    tool: str = ""

    def covered(self, span: Span) -> str | None:
        """The text a span covers (its parts joined by a space), None without a text."""
        if self.text is None:
            return None
        return " ".join(self.text[s:e] for s, e in span.parts)

    def span_layers(self) -> tuple[str, ...]:
        """The layers of the spans, in order of first use."""
        return tuple(dict.fromkeys(s.layer for s in self.spans))


@dataclass(frozen=True)
class Export:
    """Everything read from one export: documents by annotator, with the tool and the path.

    Attributes
    ----------
    documents : tuple of AnnotatedDocument
        One per (document, annotator) present in the export; an annotator without a file for a
        document is *missing* there (no entry), not empty.
    path : str
        The export read (a file, a ZIP or a directory).
    tool : str
        The reader that made it.
    """

    documents: tuple[AnnotatedDocument, ...]
    path: str
    tool: str
    notes: tuple[str, ...] = field(default=())

    @property
    def annotators(self) -> tuple[str, ...]:
        """The annotators, in order of first appearance."""
        return tuple(dict.fromkeys(d.annotator for d in self.documents))

    @property
    def document_names(self) -> tuple[str, ...]:
        """The documents, in order of first appearance."""
        return tuple(dict.fromkeys(d.name for d in self.documents))

    def by_annotator(self) -> dict[str, list[AnnotatedDocument]]:
        """The documents of each annotator, in export order."""
        out: dict[str, list[AnnotatedDocument]] = {}
        for doc in self.documents:
            out.setdefault(doc.annotator, []).append(doc)
        return out

    def __iter__(self) -> Iterator[AnnotatedDocument]:
        return iter(self.documents)


# --- the readers' constructor of a large export's many spans

#: The fields of Span in order (tests/test_exports_fast.py checks them).
_SPAN_FIELDS = ("id", "start", "end", "layer", "label", "features", "fragments", "text", "line")
_new = object.__new__


class SpanDraft:
    """A span being made by a reader: the slots of :class:`Span` without its frozen checks,
    so that a reader sets them as plain attributes (each a single bytecode, where
    :func:`new_span` makes a call per field). Every one of the nine fields (``id``,
    ``start``, ``end``, ``layer``, ``label``, ``features``, ``fragments``, ``text``,
    ``line``) must be set before :func:`finish_spans` makes the drafts spans.
    """

    __slots__ = Span.__slots__  # the same layout: a draft becomes a Span in place
    id: str
    start: int
    end: int
    layer: str
    label: str | None
    features: tuple[tuple[str, str], ...]
    fragments: tuple[tuple[int, int], ...]
    text: str | None
    line: int | None


def new_span(id: str, start: int, end: int, layer: str, label: str | None,
             features: tuple[tuple[str, str], ...] = (), text: str | None = None,
             line: int | None = None) -> Span:
    """``Span(id, start, end, layer, label, features, text=text, line=line)`` (continuous) at
    a third of the cost: the fields are set on a :class:`SpanDraft` (a bytecode each, not the
    frozen dataclass's ``__init__``), which is then made a Span (a large export makes a million
    spans).

    Examples
    --------
    >>> new_span("T1", 0, 4, "label", "PER", line=3) == Span("T1", 0, 4, "label", "PER",
    ...                                                        line=3)
    True
    """
    span = _new(SpanDraft)
    span.id = id
    span.start = start
    span.end = end
    span.layer = layer
    span.label = label
    span.features = features
    span.fragments = ()
    span.text = text
    span.line = line
    span.__class__ = Span  # type: ignore[assignment]
    return span  # type: ignore[return-value]


def spans_in_bulk(rows: Iterable[tuple[str, int, int, str | None, Any]], layer: str,
                  line: int | None) -> list[Span]:
    """``[new_span(id, start, end, layer, label, (), None, line) for id, start, end, label, _
    in rows]`` (spans of one layer and line without covered text; the fifth item of each row
    is not read).

    Examples
    --------
    >>> spans_in_bulk([("s1", 0, 4, "PER", None)], "label", 3) == [
    ...     Span("s1", 0, 4, "label", "PER", line=3)]
    True
    """
    return [new_span(id_, start, end, layer, label, (), None, line)
            for id_, start, end, label, _ in rows]


#: The fields of DocumentLabel and Relation in order (tests/test_exports_fast.py checks them).
_LABEL_FIELDS = ("layer", "label", "line")
_RELATION_FIELDS = ("source", "target", "layer", "label", "line", "features")
_set_label_layer, _set_label_label, _set_label_line = (
    getattr(DocumentLabel, name).__set__ for name in _LABEL_FIELDS)
(_set_source, _set_target, _set_relation_layer, _set_relation_label, _set_relation_line,
 _set_relation_features) = (getattr(Relation, name).__set__ for name in _RELATION_FIELDS)


def finish_spans(drafts: list[SpanDraft]) -> tuple[Span, ...]:
    """The drafts, each made a :class:`Span` in place (its class changed: the two classes share
    their slots, so the object is a Span like any other, equal and hashed alike); at about a
    third of the cost of :func:`new_span` with the drafts' filling. A draft missing a field
    is refused (an ``AttributeError``), never made a span.

    Examples
    --------
    >>> d = SpanDraft()
    >>> d.id, d.start, d.end, d.layer, d.label = "T1", 0, 4, "label", "PER"
    >>> d.features, d.fragments, d.text, d.line = (), (), "Mary", 3
    >>> finish_spans([d]) == (Span("T1", 0, 4, "label", "PER", text="Mary", line=3),)
    True
    """
    for draft in drafts:
        _every_field(draft)  # an AttributeError for a field not set
        draft.__class__ = Span  # type: ignore[assignment]
    return tuple(drafts)  # type: ignore[arg-type]


_every_field = attrgetter(*_SPAN_FIELDS)


def new_label(layer: str, label: str, line: int | None = None) -> DocumentLabel:
    """``DocumentLabel(layer, label, line)`` through its slots, as :func:`new_span` makes spans.

    Examples
    --------
    >>> new_label("topic", "sport", 2) == DocumentLabel("topic", "sport", 2)
    True
    """
    made = _new(DocumentLabel)
    _set_label_layer(made, layer)
    _set_label_label(made, label)
    _set_label_line(made, line)
    return made


def new_relation(source: str, target: str, layer: str, label: str | None,
                 line: int | None = None) -> Relation:
    """``Relation(source, target, layer, label, line)`` through its slots, as
    :func:`new_span` makes spans.

    Examples
    --------
    >>> new_relation("a", "b", "relation", None, 2) == Relation("a", "b", "relation", None, 2)
    True
    """
    made = _new(Relation)
    _set_source(made, source)
    _set_target(made, target)
    _set_relation_layer(made, layer)
    _set_relation_label(made, label)
    _set_relation_line(made, line)
    _set_relation_features(made, ())
    return made


#: The fields of AnnotatedDocument in order (tests/test_exports_fast.py checks them).
_DOCUMENT_FIELDS = ("name", "annotator", "text", "tokens", "sentences", "spans", "relations",
                    "chains", "labels", "path", "line", "tool")
_set_attribute = object.__setattr__
#: The fields of a document made by the dataclass: copied, they share its keys.
_DOCUMENT_DICT = AnnotatedDocument("", "", None).__dict__


def new_document(name: str, annotator: str, text: str | None,
                 tokens: tuple[tuple[int, int], ...] = (),
                 sentences: tuple[tuple[int, int], ...] = (), spans: tuple[Span, ...] = (),
                 relations: tuple[Relation, ...] = (), chains: tuple[Chain, ...] = (),
                 labels: tuple[DocumentLabel, ...] = (), path: str = "",
                 line: int | None = None, tool: str = "") -> AnnotatedDocument:
    """``AnnotatedDocument(name, annotator, text, ...)`` at about two thirds of the cost: its
    fields given at once as its ``__dict__``, not set one by one through the frozen
    dataclass's ``object.__setattr__`` (a large export makes hundreds of thousands of
    documents). The dict is a copy of a document's made by the dataclass, filled in: it keeps
    the keys the class's instances share (280 bytes a document on CPython 3.11, against 216
    for the dataclass's and 559 for a dict of its own).

    Examples
    --------
    >>> new_document("d", "a", "Mary", spans=(Span("T1", 0, 4, "label", "PER"),),
    ...              line=2) == AnnotatedDocument("d", "a", "Mary",
    ...                                           spans=(Span("T1", 0, 4, "label", "PER"),),
    ...                                           line=2)
    True
    """
    fields = _DOCUMENT_DICT.copy()  # (item by item: a dict of keywords costs more)
    fields["name"] = name
    fields["annotator"] = annotator
    fields["text"] = text
    fields["tokens"] = tokens
    fields["sentences"] = sentences
    fields["spans"] = spans
    fields["relations"] = relations
    fields["chains"] = chains
    fields["labels"] = labels
    fields["path"] = path
    fields["line"] = line
    fields["tool"] = tool
    doc = _new(AnnotatedDocument)
    _set_attribute(doc, "__dict__", fields)
    return doc


def connected_chains(doc: AnnotatedDocument, layer: str | None = None, *,
                     chain_layer: str = "relations") -> tuple[Chain, ...]:
    """Chains made of relations: the connected components of the spans linked by the relations
    of ``layer`` (every layer when None), each named after its first span. Spans in no relation
    make no chain (they are singletons, left to the reader of chains).

    Examples
    --------
    >>> doc = AnnotatedDocument("d", "a", None,
    ...     spans=tuple(Span(i, 0, 0, "s", None) for i in "abcde"),
    ...     relations=(Relation("a", "b", "r", None), Relation("c", "b", "r", None),
    ...                Relation("d", "e", "r", None)))
    >>> [(c.id, c.spans) for c in connected_chains(doc)]
    [('chain-a', ('a', 'b', 'c')), ('chain-d', ('d', 'e'))]
    """
    return chains_of(doc.spans, doc.relations, layer, chain_layer=chain_layer)


def chains_of(spans: Iterable[Span], relations: Iterable[Relation], layer: str | None = None,
              *, chain_layer: str = "relations") -> tuple[Chain, ...]:
    """:func:`connected_chains` of a document's spans and relations, before the document is
    made (a reader then makes it once, with its chains).

    Examples
    --------
    >>> spans = tuple(Span(i, 0, 0, "s", None) for i in "abc")
    >>> [c.spans for c in chains_of(spans, (Relation("c", "a", "r", None),))]
    [('a', 'c')]
    """
    order = {s.id: i for i, s in enumerate(spans)}
    if layer is None and type(relations) is tuple and len(relations) == 1:
        return _one_chain(relations[0], order, chain_layer)
    return _components(order, relations, layer, chain_layer)


def _one_chain(rel: Relation, order: dict[str, int], chain_layer: str) -> tuple[Chain, ...]:
    """:func:`_components` of one relation: its two spans in the order of the document (the
    source first when they are not both in it), the chain's line the relation's when its
    first span is the source."""
    source, target = rel.source, rel.target
    if source == target:
        return (Chain(f"chain-{source}", chain_layer, (source,), None, rel.line),)
    unknown = len(order)
    if order.get(source, unknown) <= order.get(target, unknown):
        return (Chain(f"chain-{source}", chain_layer, (source, target), None, rel.line),)
    return (Chain(f"chain-{target}", chain_layer, (target, source), None, None),)


def _components(order: dict[str, int], relations: Iterable[Relation], layer: str | None,
                chain_layer: str) -> tuple[Chain, ...]:
    """The connected components of the spans linked by ``relations`` (of ``layer``; all when
    None), the spans of each and the components in the document's order (``order``: each
    span's place; ids not in it last, in the order the relations name them)."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    lines: dict[str, int | None] = {}
    for rel in _of_layer(relations, layer):
        a, b = find(rel.source), find(rel.target)
        if a != b:
            keep, drop = sorted((a, b), key=lambda s: order.get(s, len(order)))
            parent[drop] = keep
        lines.setdefault(rel.source, rel.line)
    groups: dict[str, list[str]] = {}
    for span_id in sorted(parent, key=lambda s: order.get(s, len(order))):
        groups.setdefault(find(span_id), []).append(span_id)
    return tuple(Chain(f"chain-{members[0]}", chain_layer, tuple(members),
                       line=lines.get(members[0]))
                 for members in groups.values())


def _of_layer(relations: Iterable[Relation], layer: str | None) -> Iterator[Relation]:
    return (r for r in relations if layer is None or r.layer == layer)
