"""What ``validate`` checks in the coreference chains of annotation tools' exports.

An export's chains (INCEpTION and WebAnno chain layers, UIMA ``CoreferenceChain``s, and the
chains the readers of Label Studio, doccano and Prodigy make of the relations, their connected
components, layer ``relations``: what the ``coref`` command reads as chains) are checked as
the chains of a coreference file are, in the characters of the document's text, with the same
test ids: a span in two chains (``coref-mention-in-two-chains``), the same characters marked
twice in one chain (``coref-duplicate-mention``) or in two (``coref-same-span``), crossing
mentions of one chain (``coref-crossing-same-entity``, an error) or of two
(``coref-crossing-mentions``, a warning), and chains of one mention
(``coref-singletons-allowed``, information: the tools allow them). The coreference commands
would merge, keep or leave out each of these when they put the chains on tokens, with a
warning; ``validate`` names them first, and ``--strict`` refuses the errors in every command
that reads exports (:func:`refuse_chain_errors`).

Each chain layer is checked on its own (an export may hold several); ``chain_layer`` checks
one: a chain layer, or a relation layer whose connected components are then the chains (a
tool's relations of several kinds, of which one links coreferent spans).

References
----------
docs/validate.md (every test, its level and class); docs/formats.md, "Coreference from
annotation tools".

Examples
--------
"Mary met John": the chain ``c1`` holds "Mary met" and "met John", which cross:

>>> from clusteragree.exports.model import AnnotatedDocument, Chain, Export, Span
>>> spans = (Span("1", 0, 8, "coref", None), Span("2", 5, 13, "coref", None))
>>> doc = AnnotatedDocument("d", "a", "Mary met John", spans=spans,
...                         chains=(Chain("c1", "chain", ("1", "2")),), path="a.tsv")
>>> [(i.test_id, i.node) for i in export_incidents([Export((doc,), "a.tsv", "webanno")])]
[('coref-crossing-same-entity', '2')]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from ..errors import ParameterError, option
from ..exports.columns import spans_by_id
from ..exports.model import AnnotatedDocument, Chain, Export, Span, connected_chains
from ..incidents import Incident, refuse_errors
from .checks import crossing_pairs
from .model import Mention

__all__ = ["export_incidents", "refuse_chain_errors"]


def _sources(documents: Sequence[AnnotatedDocument], chain_layer: str | None
             ) -> list[tuple[str, str]]:
    """The layers checked, each ``(kind, layer)``: every chain layer, or the one named (a
    chain layer, else a relation layer)."""
    chain_layers = list(dict.fromkeys(c.layer for d in documents for c in d.chains))
    if chain_layer is None:
        return [("chains", layer) for layer in chain_layers]
    if chain_layer in chain_layers:
        return [("chains", chain_layer)]
    relation_layers = list(dict.fromkeys(r.layer for d in documents for r in d.relations))
    if chain_layer in relation_layers:
        return [("relations", chain_layer)]
    known = ", ".join(repr(x) for x in dict.fromkeys([*chain_layers, *relation_layers]))
    raise ParameterError(f"{option('chain_layer', chain_layer)}: no chain or relation layer "
                         f"of that name; the export has {known or 'none'}",
                         params=("chain_layer",))


def export_incidents(exports: Iterable[Export], *, chain_layer: str | None = None
                     ) -> Iterator[Incident]:
    """The level-2 coreference incidents of the chains of ``exports``.

    Parameters
    ----------
    exports : iterable of Export
        As the export readers give them.
    chain_layer : str, optional
        The one layer checked: a chain layer, or a relation layer whose connected components
        are the chains (default: every chain layer, with the chains the readers make of
        relations).

    Yields
    ------
    Incident
        Of the tests ``coref-mention-in-two-chains``, ``coref-duplicate-mention``,
        ``coref-same-span``, ``coref-crossing-same-entity``, ``coref-crossing-mentions`` and
        ``coref-singletons-allowed``, one document after the other.

    Raises
    ------
    ParameterError
        ``chain_layer`` names no chain or relation layer of the exports.

    Examples
    --------
    Two chains mark the same characters, "Mary":

    >>> from clusteragree.exports.model import AnnotatedDocument, Chain, Export, Span
    >>> spans = (Span("1", 0, 4, "m", None), Span("2", 0, 4, "m", None),
    ...          Span("3", 9, 13, "m", None))
    >>> doc = AnnotatedDocument("d", "a", "Mary met John", spans=spans,
    ...     chains=(Chain("c1", "chain", ("1", "3")), Chain("c2", "chain", ("2",))))
    >>> [i.test_id for i in export_incidents([Export((doc,), "x", "webanno")])]
    ['coref-same-span', 'coref-singletons-allowed']
    """
    documents = [d for e in exports for d in e.documents]
    for kind, layer in _sources(documents, chain_layer):
        for doc in documents:
            chains = ([c for c in doc.chains if c.layer == layer] if kind == "chains"
                      else connected_chains(doc, layer) if doc.relations else ())
            if chains:
                yield from _document(doc, layer, chains)


def refuse_chain_errors(exports: Sequence[Export], *, chain_layer: str | None = None) -> None:
    """``--strict``: refuse the first error :func:`export_incidents` finds (an
    :class:`~clusteragree.errors.InputError` naming its test id), so that the commands that
    read exports refuse exactly what ``validate`` calls an error in their chains."""
    refuse_errors(export_incidents(exports, chain_layer=chain_layer))


def _of(layer: str) -> str:
    return f" of the layer {layer!r}"


def _chars(parts: tuple[tuple[int, int], ...]) -> str:
    return "characters " + ",".join(f"{s}-{e}" for s, e in parts)


def _document(doc: AnnotatedDocument, layer: str, chains: Sequence[Chain]
              ) -> Iterator[Incident]:
    file, name, who = doc.path or None, doc.name, doc.annotator
    by_id = spans_by_id(doc.spans, {i for c in chains for i in c.spans})
    chain_of: dict[str, int] = {}  # span id -> its (first) chain
    members: list[tuple[Span, int]] = []
    for k, c in enumerate(chains):
        for i in dict.fromkeys(c.spans):
            span = by_id.get(i)
            if span is None:  # (spans-relation-end-missing says so)
                continue
            if i in chain_of:
                first = chains[chain_of[i]]
                yield Incident("coref-mention-in-two-chains",
                               f"the span {i} ({_chars(span.parts)}) is in the chain "
                               f"{first.id} and in the chain {c.id}{_of(layer)}; a mention "
                               "belongs to one entity: take it out of one (or merge the "
                               "chains)", file, c.line or span.line, name, i, who)
                continue
            chain_of[i] = k
            members.append((span, k))
    first_at: dict[tuple[tuple[int, int], ...], tuple[Span, int]] = {}
    mentions: list[Mention] = []
    for span, k in members:
        seen = first_at.get(span.parts)
        if seen is None:
            first_at[span.parts] = (span, k)
            mentions.append(Mention(span.parts, str(k), span.line))  # (its chain's place)
        elif seen[1] == k:
            yield Incident("coref-duplicate-mention",
                           f"the span {span.id} marks the same {_chars(span.parts)} as the span "
                           f"{seen[0].id}, and both are in the chain {chains[k].id}"
                           f"{_of(layer)}; remove one", file, span.line, name, span.id, who)
        else:
            yield Incident("coref-same-span",
                           f"the span {span.id} marks the same {_chars(span.parts)} as the span "
                           f"{seen[0].id}, and they are in two chains ({chains[seen[1]].id} and "
                           f"{chains[k].id}{_of(layer)}); keep one mention, or merge the "
                           "chains", file, span.line, name, span.id, who)
    mentions.sort(key=lambda m: (m.start, -m.end, m.spans))
    for a, m in crossing_pairs(mentions):
        same = a.entity == m.entity
        named_a, named_m = chains[int(a.entity)].id, chains[int(m.entity)].id
        whose = (f"two mentions of the chain {named_m}" if same else
                 f"mentions of the chains {named_a} and {named_m}")
        yield Incident("coref-crossing-same-entity" if same else "coref-crossing-mentions",
                       f"{whose}{_of(layer)} cross: {_chars(a.spans)} (line {a.line}) and "
                       f"{_chars(m.spans)} (line {m.line}); overlapping mentions nest, one "
                       "inside the other", file, m.line, name, first_at[m.spans][0].id, who)
    # (a chain's mentions are its distinct characters: two links of one chain on the same
    # characters are one mention, marked twice)
    distinct: list[set[tuple[tuple[int, int], ...]]] = [set() for _ in chains]
    for span, k in members:
        distinct[k].add(span.parts)
    single = [k for k, found in enumerate(distinct) if len(found) == 1]
    if single:
        span = next(s for s, k in members if k == single[0])
        yield Incident("coref-singletons-allowed",
                       f"{len(single)} chain(s) of one mention{_of(layer)} (the first: "
                       f"{chains[single[0]].id}, {_chars(span.parts)})", file, span.line,
                       name, span.id, who, count=len(single))
