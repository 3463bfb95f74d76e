"""Which spans of an export are mentions, how they form chains, and the same on tokens.

An export says what corefers in one of two ways: chains (WebAnno/INCEpTION chain layers, BRAT
``*`` lines, :attr:`~clusteragree.exports.model.AnnotatedDocument.chains`) or relations between
spans (Label Studio, doccano, Prodigy), whose connected components are the chains
(:func:`~clusteragree.exports.model.connected_chains`). :func:`select` decides, for every
document of an export at once:

* **the chains**, for the documents of each tool (:attr:`AnnotatedDocument.tool`: one export
  uses one way): the export's chains where it has any (its relations are then not chains;
  several chain layers are refused unless ``chain_layer`` names one); otherwise the connected
  components of its relations (several relation layers refused unless ``chain_layer`` names
  one). Two chains that share a span are one chain (``merged``);
* **the mentions**: the spans of the chains, and the spans in no chain of the layers that chains
  use (singletons: one-mention chains). With no chain anywhere, every span of the one span
  layer is a singleton; several span layers are then refused unless ``layer`` names one.
  ``layer`` restricts the mentions to one layer everywhere (spans of chains in other layers are
  left out, ``ignored``).

:func:`token_documents` then puts the mentions of every annotator on the tokens of
:func:`clusteragree.exports.tokens.layout` and applies what the token formats need: parts that
cover no token are left out, discontinuous mentions are kept, written as their extent or left
out, two mentions on the same tokens are one (their chains joined), a mention that crosses
another of its chain can be left out (CoNLL and CorefUD brackets cannot hold it), and chains of
one mention can be left out. Each is counted and reported once per call.

References
----------
CorefUD 1.x format, as Udapi reads it (github.com/udapi/udapi-python, ``udapi/core/coref.py``):
same-entity crossing mentions cannot be written; nested ones can.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..errors import ParameterError, Tally, option
from .model import AnnotatedDocument, Chain, Span, connected_chains
from .tokens import Layout, layout, token_span

__all__ = ["Entities", "Sources", "TokenDocument", "TokenMention", "chain_sources", "chains_of",
           "select", "token_documents"]

#: Values of the policies of :func:`token_documents`.
DISCONTINUOUS = ("keep", "extent", "drop")
SINGLETONS = ("keep", "remove")


@dataclass(frozen=True)
class Entities:
    """One annotator's document: its mentions and the chain of each.

    Attributes
    ----------
    doc : AnnotatedDocument
    mentions : tuple of Span
        The spans that are mentions, in document order.
    chain_of : tuple of int
        The chain of each mention (0, 1, ... in order of first mention).
    labels : tuple of (str or None)
        The label of each chain: the chain's own, else the label its mentions share.
    """

    doc: AnnotatedDocument
    mentions: tuple[Span, ...]
    chain_of: tuple[int, ...]
    labels: tuple[str | None, ...]


@dataclass(frozen=True)
class TokenMention:
    """A mention on tokens: its token ranges ``[first, last + 1)``, sorted, and its chain."""

    parts: tuple[tuple[int, int], ...]
    chain: int
    span: Span

    @property
    def start(self) -> int:
        return self.parts[0][0]

    @property
    def end(self) -> int:
        return self.parts[-1][1]


@dataclass(frozen=True)
class TokenDocument:
    """One annotator's document on tokens: the layout, the mentions sorted by start (longest
    first) and the label of each chain (chains numbered 0, 1, ... by first mention)."""

    doc: AnnotatedDocument
    layout: Layout
    mentions: tuple[TokenMention, ...]
    labels: tuple[str | None, ...]


class _Union:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        while self.parent.setdefault(x, x) != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: str, b: str) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        self.parent[rb] = ra
        return True


class Sources(dict):
    """Where the chains of each tool's documents come from: ``tool -> (kind, layer)`` with
    kind ``chains``, ``relations`` or ``none`` (:func:`chain_sources`)."""

    def of(self, doc: AnnotatedDocument) -> tuple[str, str | None]:
        return self.get(doc.tool, ("none", None))


def chain_sources(documents: Sequence[AnnotatedDocument], chain_layer: str | None
                  ) -> Sources:
    """Where the chains come from, decided for the documents of each tool (one export, or one
    coreference file, uses one way): the named ``chain_layer`` where a tool has it, else the
    tool's one chain layer, else its one relation layer; several refused naming
    ``chain_layer``; a ``chain_layer`` that no tool has refused."""
    groups: dict[str, list[AnnotatedDocument]] = {}
    for doc in documents:
        groups.setdefault(doc.tool, []).append(doc)
    out = Sources()
    found = chain_layer is None
    for tool, docs in groups.items():
        chain_layers = list(dict.fromkeys(c.layer for d in docs for c in d.chains))
        relation_layers = list(dict.fromkeys(r.layer for d in docs for r in d.relations))
        if chain_layer is not None and chain_layer in chain_layers:
            out[tool], found = ("chains", chain_layer), True
        elif chain_layer is not None and chain_layer in relation_layers:
            out[tool], found = ("relations", chain_layer), True
        elif len(chain_layers) > 1:
            raise ParameterError(f"the export has several chain layers ({_listed(chain_layers)})"
                                 f": name one with {option('chain_layer')}",
                                 params=("chain_layer",))
        elif chain_layers:
            out[tool] = ("chains", chain_layers[0])
        elif len(relation_layers) > 1:
            raise ParameterError("the export has no chains and several relation layers "
                                 f"({_listed(relation_layers)}): name the one whose relations "
                                 f"link coreferent spans with {option('chain_layer')}",
                                 params=("chain_layer",))
        else:
            out[tool] = ("relations", relation_layers[0]) if relation_layers else ("none", None)
    if not found:
        layers = dict.fromkeys([*(c.layer for d in documents for c in d.chains),
                                *(r.layer for d in documents for r in d.relations)])
        raise ParameterError(f"{option('chain_layer', chain_layer)}: no chain or relation "
                             f"layer of that name; the export has {_listed(layers)}",
                             params=("chain_layer",))
    return out


def _listed(names: Iterable[str]) -> str:
    shown = ", ".join(repr(n) for n in names)
    return shown or "none"


def chains_of(doc: AnnotatedDocument, sources: Sources,
              tally: Tally) -> list[tuple[list[str], str | None]]:
    """The chains of ``doc`` as lists of span ids (of spans the document has), with the
    chain's label; chains that share a span are joined (``merged``). ``sources`` says where
    they come from (:func:`chain_sources`)."""
    kind, name = sources.of(doc)
    raw: Sequence[Chain]
    if kind == "chains":
        raw = [c for c in doc.chains if c.layer == name]
        tally.add("ignored", "relations not written: the export's chains say what corefers",
                  count=len(doc.relations))
    elif kind == "relations":
        raw = connected_chains(doc, name)
        tally.add("ignored", "relations of other layers than the chains' not written",
                  count=sum(r.layer != name for r in doc.relations))
    else:
        raw = ()
    known = {s.id for s in doc.spans}
    union = _Union()
    label: dict[str, str | None] = {}
    order: list[str] = []
    joined = 0
    for chain in raw:
        members = list(dict.fromkeys(i for i in chain.spans if i in known))
        tally.add("skipped", "chain members naming no span of the document left out",
                  count=len(set(chain.spans)) - len(members))
        if not members:
            continue
        earlier = {union.find(i) for i in members if i in union.parent}
        joined += len(earlier)
        for i in members:
            if i not in union.parent:
                order.append(i)
            union.union(members[0], i)
        root = union.find(members[0])
        for r in earlier:
            union.union(root, r)
        root = union.find(members[0])
        label[root] = chain.label if chain.label is not None else label.get(root)
    tally.add("merged", "chains that share a span joined into one", count=joined)
    groups: dict[str, list[str]] = {}
    for i in order:
        groups.setdefault(union.find(i), []).append(i)
    return [(ids, label.get(root)) for root, ids in groups.items()]


def select(documents: Sequence[AnnotatedDocument], *, layer: str | None = None,
           chain_layer: str | None = None, tally: Tally | None = None,
           decided_from: Sequence[AnnotatedDocument] | None = None) -> list[Entities]:
    """The mentions and chains of every document (see the module docstring).

    Parameters
    ----------
    documents : sequence of AnnotatedDocument
        Documents of one export (any annotators): the layers are decided over all of them.
    layer : str, optional
        The span layer whose spans are the mentions (default: the layers of the chains' spans;
        with no chain, the one span layer).
    chain_layer : str, optional
        The chain layer, or the relation layer whose relations link coreferent spans (default:
        the one there is).
    tally : Tally, optional
        Where what is left out or joined is counted (default: reported at once).
    decided_from : sequence of AnnotatedDocument, optional
        The documents over which the layers are decided (default: ``documents``); give the
        whole export when ``documents`` are one annotator's.

    Returns
    -------
    list of Entities
        One per document, in order.

    Raises
    ------
    ParameterError
        Several chain (or relation) layers and no ``chain_layer``; several span layers, no
        chain and no ``layer``; a layer named that the export does not have.

    Examples
    --------
    >>> from clusteragree.exports.model import Relation
    >>> doc = AnnotatedDocument("d", "a", "Mary met John. He smiled.",
    ...     spans=(Span("1", 0, 4, "ne", "PER"), Span("2", 9, 13, "ne", "PER"),
    ...            Span("3", 15, 17, "ne", "PER")),
    ...     relations=(Relation("3", "2", "coref", None),))
    >>> [(e.mentions[k].id, e.chain_of[k]) for e in select([doc]) for k in range(3)]
    [('1', 0), ('2', 1), ('3', 1)]
    """
    own = tally is None
    tally = tally if tally is not None else Tally(documents[0].path if documents else "")
    every = list(decided_from) if decided_from is not None else list(documents)
    source = chain_sources(every, chain_layer)
    chains = [chains_of(d, source, tally) for d in documents]
    layers = _mention_layers(every, source, layer) if decided_from is not None else \
        _mention_layers(documents, source, layer, chains)
    out = []
    for doc, doc_chains in zip(documents, chains, strict=True):
        by_id = {s.id: s for s in doc.spans}
        member_of: dict[str, int] = {}
        labels: list[str | None] = []
        for k, (ids, chain_label) in enumerate(doc_chains):
            kept = [i for i in ids if by_id[i].layer in layers]
            tally.add("ignored", f"spans of chains in other layers than {option('layer')} "
                      "left out", count=len(ids) - len(kept))
            for i in kept:
                member_of[i] = k
            found = {by_id[i].label for i in kept}
            labels.append(chain_label if chain_label is not None
                          else next(iter(found)) if len(found) == 1 else None)
        mentions = [s for s in doc.spans if s.layer in layers]
        for s in mentions:
            if s.id not in member_of:
                member_of[s.id] = len(labels)
                labels.append(s.label)
        # Chains numbered by first mention in document order.
        ordered = sorted(mentions, key=lambda s: (s.start, -s.end))
        renumber: dict[int, int] = {}
        for s in ordered:
            renumber.setdefault(member_of[s.id], len(renumber))
        new_labels: list[str | None] = [None] * len(renumber)
        for old, new in renumber.items():
            new_labels[new] = labels[old]
        out.append(Entities(doc, tuple(ordered),
                            tuple(renumber[member_of[s.id]] for s in ordered),
                            tuple(new_labels)))
    if own:
        tally.report()
    return out


def _mention_layers(documents: Sequence[AnnotatedDocument], source: Sources,
                    layer: str | None,
                    chains: list[list[tuple[list[str], str | None]]] | None = None
                    ) -> set[str]:
    span_layers = list(dict.fromkeys(s.layer for d in documents for s in d.spans))
    if layer is not None:
        if layer not in span_layers:
            raise ParameterError(f"{option('layer', layer)}: no span layer of that name; the "
                                 f"export has {_listed(span_layers)}", params=("layer",))
        return {layer}
    if chains is None:
        chains = [chains_of(d, source, Tally("")) for d in documents]
    in_chains: dict[str, None] = {}
    for doc, doc_chains in zip(documents, chains, strict=True):
        by_id = {s.id: s.layer for s in doc.spans}
        for ids, _ in doc_chains:
            for i in ids:
                in_chains.setdefault(by_id[i])
    if in_chains:
        return set(in_chains)
    if len(span_layers) > 1:
        raise ParameterError(f"the export has no chains and several span layers "
                             f"({_listed(span_layers)}): name the layer of the mentions with "
                             f"{option('layer')}", params=("layer",))
    return set(span_layers)


def token_documents(documents: Sequence[AnnotatedDocument], *, layer: str | None = None,
                    chain_layer: str | None = None, discontinuous: str = "keep",
                    singletons: str = "keep", crossing: str = "keep",
                    tokens_from: Sequence[AnnotatedDocument] | None = None,
                    tally: Tally | None = None) -> list[TokenDocument]:
    """The mentions of ``documents`` on tokens shared with ``tokens_from``.

    Parameters
    ----------
    documents : sequence of AnnotatedDocument
        The documents to convert (a document without text is left out, ``skipped``).
    layer, chain_layer : str, optional
        As in :func:`select`.
    discontinuous : {"keep", "extent", "drop"}, default="keep"
        A mention of several token ranges: kept, made one range from its first token to its
        last (``converted``), or left out (``skipped``).
    singletons : {"keep", "remove"}, default="keep"
        Chains of one mention: kept, or left out (``skipped``).
    crossing : {"keep", "drop"}, default="keep"
        A mention that crosses another of its chain (they share tokens and neither holds the
        other): kept, or left out (``skipped``; the first by start is kept).
    tokens_from : sequence of AnnotatedDocument, optional
        The documents (every annotator's) whose mentions shape the tokens of each text, so
        that each annotator's documents get the same tokens (default: ``documents``). The
        layers are decided over them too.
    tally : Tally, optional
        Where the notices are counted (default: reported at once).

    Returns
    -------
    list of TokenDocument

    Examples
    --------
    A discontinuous mention ("Mary ... herself") written as its extent; the two annotators'
    documents share one tokenisation:

    >>> a = AnnotatedDocument("d", "a", "Mary saw herself.",
    ...     spans=(Span("1", 0, 16, "m", None, fragments=((0, 4), (9, 16))),))
    >>> b = AnnotatedDocument("d", "b", "Mary saw herself.", spans=(Span("1", 0, 8, "m", None),))
    >>> [[m.parts for m in t.mentions] for t in token_documents([a], tokens_from=[a, b])]
    [[((0, 1), (2, 3))]]
    >>> import warnings
    >>> with warnings.catch_warnings(record=True):
    ...     warnings.simplefilter("always")
    ...     docs = token_documents([a], discontinuous="extent", tokens_from=[a, b])
    >>> [m.parts for m in docs[0].mentions], docs[0].layout.words
    ([((0, 3),)], ('Mary', 'saw', 'herself', '.'))
    """
    for name, value, allowed in (("discontinuous", discontinuous, DISCONTINUOUS),
                                 ("singletons", singletons, SINGLETONS),
                                 ("crossing", crossing, ("keep", "drop"))):
        if value not in allowed:
            raise ParameterError(f"{option(name)} must be one of {', '.join(allowed)}. Got "
                                 f"{value!r}.", params=(name,))
    own = tally is None
    tally = tally if tally is not None else Tally(documents[0].path if documents else "")
    among = list(tokens_from) if tokens_from is not None else list(documents)
    mine = {id(d) for d in documents}
    seen = {id(x) for x in among}
    among += [d for d in documents if id(d) not in seen]
    with_text = [d for d in among if d.text is not None]
    skipped = [d for d in documents if d.text is None]
    tally.add("skipped", "documents without text left out (the export gives none: tokens "
              "cannot be made)", count=len(skipped))
    # the layers are decided over every annotator; the notices count this call's documents
    lays = _layouts(select(with_text, layer=layer, chain_layer=chain_layer, tally=Tally("")))
    chosen = select([d for d in with_text if id(d) in mine], layer=layer,
                    chain_layer=chain_layer, tally=tally, decided_from=with_text)
    out = []
    for ent in chosen:
        lay = lays[(ent.doc.name, ent.doc.text)]
        out.append(_on_tokens(ent, lay, discontinuous, singletons, crossing, tally))
    _report_layouts([d.layout for d in out], tally)
    if own:
        tally.report()
    return out


def _layouts(chosen: list[Entities]) -> dict[tuple[str, str | None], Layout]:
    groups: dict[tuple[str, str | None], list[Entities]] = {}
    for ent in chosen:
        groups.setdefault((ent.doc.name, ent.doc.text), []).append(ent)
    out = {}
    for key, ents in groups.items():
        tool = next((e.doc for e in ents if e.doc.tokens), None)
        out[key] = layout(ent_text(ents[0]), tokens=tool.tokens if tool else (),
                          sentences=tool.sentences if tool else (),
                          spans=[s.parts for e in ents for s in e.mentions])
    return out


def ent_text(ent: Entities) -> str:
    assert ent.doc.text is not None
    return ent.doc.text


def _report_layouts(lays: list[Layout], tally: Tally) -> None:
    tally.add("note", "documents tokenised here (the export has no tokens): a token is a run "
              "of non-space characters", count=sum(not lay.by_tool for lay in lays))
    tally.add("note", "documents without sentences from the tool: a sentence per line of text",
              count=sum(not lay.sentences_by_tool for lay in lays))
    tally.add("converted", "tokens split where a span starts or ends inside them",
              count=sum(lay.split for lay in lays))
    tally.add("converted", "sentence breaks removed where a span crosses them",
              count=sum(lay.joined for lay in lays))
    tally.add("converted", "tokens with whitespace inside written with _ for it",
              count=sum(lay.spaced for lay in lays))


def _on_tokens(ent: Entities, lay: Layout, discontinuous: str, singletons: str,
               crossing: str, tally: Tally) -> TokenDocument:
    mentions: list[TokenMention] = []
    for span, chain in zip(ent.mentions, ent.chain_of, strict=True):
        found = [token_span(lay, s, e) for s, e in span.parts]
        parts = _merged([p for p in found if p is not None])
        tally.add("skipped", "span parts covering no token (spaces only, or empty) left out",
                  count=sum(p is None for p in found) if parts else 0)
        if not parts:
            tally.add("skipped", "spans covering no token (spaces only, or empty) left out")
            continue
        if len(parts) > 1 and discontinuous != "keep":
            if discontinuous == "drop":
                tally.add("skipped", "discontinuous mentions left out "
                          f"({option('discontinuous', 'extent')} writes their extent)")
                continue
            tally.add("converted", "discontinuous mentions written as their extent, first "
                      f"token to last ({option('discontinuous', 'drop')} leaves them out)")
            parts = ((parts[0][0], parts[-1][1]),)
        mentions.append(TokenMention(parts, chain, span))
    mentions = _deduplicated(mentions, tally)
    if crossing == "drop":
        mentions = _uncrossed(mentions, tally)
    sizes: dict[int, int] = {}
    for m in mentions:
        sizes[m.chain] = sizes.get(m.chain, 0) + 1
    if singletons == "remove":
        alone = [m for m in mentions if sizes[m.chain] == 1]
        tally.add("skipped", f"chains of one mention left out ({option('singletons', 'keep')} "
                  "keeps them)", count=len(alone))
        mentions = [m for m in mentions if sizes[m.chain] > 1]
    mentions.sort(key=lambda m: (m.start, -m.end, m.parts))
    renumber: dict[int, int] = {}
    for m in mentions:
        renumber.setdefault(m.chain, len(renumber))
    labels: list[str | None] = [None] * len(renumber)
    for old, new in renumber.items():
        labels[new] = ent.labels[old]
    final = tuple(TokenMention(m.parts, renumber[m.chain], m.span) for m in mentions)
    return TokenDocument(ent.doc, lay, final, tuple(labels))


def _merged(parts: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Token ranges sorted, touching or overlapping ones made one."""
    out: list[tuple[int, int]] = []
    for s, e in sorted(parts):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return tuple(out)


def _deduplicated(mentions: list[TokenMention], tally: Tally) -> list[TokenMention]:
    """Two mentions on the same tokens are one (the first kept); their chains become one."""
    first: dict[tuple[tuple[int, int], ...], TokenMention] = {}
    alias: dict[int, int] = {}

    def find(c: int) -> int:
        while alias.get(c, c) != c:
            c = alias[c]
        return c
    repeated = joined = 0
    for m in mentions:
        if m.parts not in first:
            first[m.parts] = m
            continue
        repeated += 1
        a, b = find(first[m.parts].chain), find(m.chain)
        if a != b:
            alias[max(a, b)] = min(a, b)
            joined += 1
    tally.add("merged", "spans on the same tokens written as one mention (the first kept)",
              count=repeated)
    tally.add("merged", "chains joined: two of their spans are on the same tokens",
              count=joined)
    return [TokenMention(m.parts, find(m.chain), m.span) for m in first.values()]


def _uncrossed(mentions: list[TokenMention], tally: Tally) -> list[TokenMention]:
    """Mentions that cross an earlier mention of their chain left out: brackets (CoNLL,
    CorefUD) cannot hold two crossing mentions of one entity."""
    by_chain: dict[int, list[TokenMention]] = {}
    for m in sorted(mentions, key=lambda m: (m.start, -m.end, m.parts)):
        by_chain.setdefault(m.chain, []).append(m)
    dropped: set[int] = set()
    for ms in by_chain.values():
        kept: list[TokenMention] = []
        for m in ms:
            if any(_cross(k, m) for k in kept):
                dropped.add(id(m))
            else:
                kept.append(m)
    tally.add("skipped", "mentions crossing another mention of their chain left out "
              "(brackets cannot hold them; the first by start is kept)", count=len(dropped))
    return [m for m in mentions if id(m) not in dropped]


def _cross(a: TokenMention, b: TokenMention) -> bool:
    """Whether ``a`` and ``b`` (or their parts) overlap without one holding the other."""
    for s1, e1 in a.parts:
        for s2, e2 in b.parts:
            if s1 < s2 < e1 < e2 or s2 < s1 < e2 < e1:
                return True
    if len(a.parts) > 1 and len(b.parts) > 1 and len(a.parts) == len(b.parts):
        # two discontinuous mentions of one entity with as many parts: their part brackets
        # (e1[1/2] ...) are matched in order, so one must end before the other starts
        return not (a.end <= b.start or b.end <= a.start)
    return False
