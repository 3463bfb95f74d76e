"""Annotation tools' exports as coreference corpora, and coreference corpora as exports.

:func:`corpora_from_export` makes one :class:`~clusteragree.coref.model.CorefCorpus` per
annotator of an :class:`~clusteragree.exports.model.Export`: the mentions are the spans of the
chains, and the spans in no chain of the layers the chains use (singletons); what is a chain
and which layer holds the mentions is decided for the whole export
(:func:`clusteragree.exports.coreference.select`: the export's chains, or the connected
components of its relations; ``layer`` and ``chain_layer`` choose where several could be meant).
The tokens are those :func:`clusteragree.exports.tokens.layout` makes for the CoNLL writer, one
tokenisation of each text for every annotator, so that the corpus adapted here and the CoNLL
file written from the same export are the same. Chain ids are local (``0``, ``1``, ... by first
mention in each document); a document an annotator has no annotation of is missing from that
annotator's corpus.

:func:`export_from_corpus` goes back: each document's text is its tokens (one space between
the tokens of a sentence, a line end between sentences; a BRAT document's characters as they
are), each mention a span, each entity a chain; so ``clusteragree convert`` turns CoNLL, CorefUD
and BRAT into each other.

References
----------
docs/formats.md, "Writing" and "Coreference from annotation tools".
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from ..errors import InputError, Tally, notify
from ..exports.coreference import token_documents
from ..exports.model import AnnotatedDocument, Chain, Export, Span
from .model import CorefCorpus, CorefDocument, Mention

__all__ = ["corpora_from_export", "export_from_corpus"]


def corpora_from_export(export: Export, *, layer: str | None = None,
                        chain_layer: str | None = None) -> dict[str, CorefCorpus]:
    """One coreference corpus per annotator of ``export``.

    Parameters
    ----------
    export : Export
        What a reader of :mod:`clusteragree.exports` gave.
    layer : str, optional
        The span layer of the mentions (default: the layers of the chains' spans; with no
        chain at all, the one span layer; several are refused naming ``layer``).
    chain_layer : str, optional
        The chain layer, or the relation layer whose relations link coreferent spans (default:
        the one there is; several are refused naming ``chain_layer``).

    Returns
    -------
    dict of str to CorefCorpus
        By annotator, in the order of the export; each corpus is named by its annotator
        (:attr:`CorefCorpus.path`), format ``"conll"`` (token mentions).

    Raises
    ------
    InputError
        An annotator with two documents of one name.
    ParameterError
        An ambiguous or unknown ``layer`` or ``chain_layer``.

    References
    ----------
    docs/formats.md, "Writing" (the tokens and the mentions, as the CoNLL writer makes them).

    Examples
    --------
    Two annotators of one text; ``a`` links "He" to "John", ``b`` to "Mary". The tokens are
    shared (made from both annotators' spans):

    >>> import warnings
    >>> from clusteragree.exports.model import Relation
    >>> text = "Mary met John. He smiled."
    >>> marks = (Span("1", 0, 4, "m", None), Span("2", 9, 13, "m", None),
    ...          Span("3", 15, 17, "m", None))
    >>> export = Export((
    ...     AnnotatedDocument("d", "a", text, spans=marks,
    ...                       relations=(Relation("3", "2", "coref", None),)),
    ...     AnnotatedDocument("d", "b", text, spans=marks,
    ...                       relations=(Relation("3", "1", "coref", None),))), "x.json", "t")
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     corpora = corpora_from_export(export)
    >>> [sorted(len(c) for c in corpora[a].documents["d"].clusters()) for a in "ab"]
    [[1, 2], [1, 2]]
    >>> corpora["a"].documents["d"].tokens
    ('Mary', 'met', 'John', '.', 'He', 'smiled.')
    """
    tally = Tally(export.path)
    out: dict[str, CorefCorpus] = {}
    for annotator, documents in export.by_annotator().items():
        docs: dict[str, CorefDocument] = {}
        for tdoc in token_documents(documents, layer=layer, chain_layer=chain_layer,
                                    tokens_from=export.documents, tally=tally):
            doc = tdoc.doc
            if doc.name in docs:
                raise InputError(f"annotator {annotator!r} has document {doc.name!r} twice",
                                 doc.path or export.path, doc.line)
            mentions = tuple(Mention(m.parts, str(m.chain), m.span.line)
                             for m in tdoc.mentions)
            docs[doc.name] = CorefDocument(doc.name, tdoc.layout.words, mentions,
                                           doc.path or export.path, doc.line)
        out[annotator] = CorefCorpus(docs, annotator, {}, "conll")
    tally.report()
    return out


def export_from_corpus(corpus: CorefCorpus, annotator: str) -> Export:
    """The annotation of one coreference corpus as an export of ``annotator``.

    A document of a token format (CoNLL, CorefUD) becomes the text of its tokens, one space
    between the tokens of a sentence and a line end between sentences (a sentence ends where
    the token lines of the file skip a line: a blank line or a comment), with the tokens and
    sentences given (a token without a word, as in files of two columns, is ``_``); a BRAT
    document keeps its characters (its tokens) and gives no tokens, so
    that a writer tokenises it. Every mention is a span of layer ``coreference`` (ids ``m1``,
    ``m2``, ... in document order; a discontinuous mention has its fragments), every entity a
    chain named by its id.

    Parameters
    ----------
    corpus : CorefCorpus
        What :func:`~clusteragree.coref.read_conll`, :func:`~clusteragree.coref.read_corefud`
        or :func:`~clusteragree.coref.read_brat_dir` read.
    annotator : str
        The annotator's name.

    Returns
    -------
    Export
        Tool: the corpus's format.

    References
    ----------
    docs/formats.md, "Writing" (what ``clusteragree convert`` keeps and loses per format).

    Examples
    --------
    >>> from clusteragree.coref import parse_conll
    >>> corpus = parse_conll(["#begin document (a); part 000", "a 0 0 John (1)",
    ...                       "a 0 1 left -", "", "a 0 0 He (1)", "a 0 1 came -",
    ...                       "#end document"], "a.conll")
    >>> doc = export_from_corpus(corpus, "ann").documents[0]
    >>> doc.text, doc.sentences, [(s.start, s.end) for s in doc.spans]
    ('John left\\nHe came', ((0, 2), (2, 4)), [(0, 4), (10, 12)])
    >>> doc.chains
    (Chain(id='1', layer='coreference', spans=('m1', 'm2'), label=None, line=2),)
    """
    documents = [_document(doc, annotator, corpus.format)
                 for doc in corpus.documents.values()]
    if corpus.format != "brat":
        notify("converted", "tokens without a word (the file has no word column) written _",
               path=corpus.path, count=sum(not t for d in corpus.documents.values()
                                           for t in d.tokens))
    return Export(tuple(documents), corpus.path, corpus.format)


def _document(doc: CorefDocument, annotator: str, tool: str) -> AnnotatedDocument:
    if tool == "brat":
        text = "".join(doc.tokens)
        offsets = [(k, k + 1) for k in range(len(doc.tokens))]
        tokens: tuple[tuple[int, int], ...] = ()
        sentences: tuple[tuple[int, int], ...] = ()
    else:
        breaks = _sentence_starts(doc)
        pieces: list[str] = []
        offsets = []
        at = 0
        for k, word in enumerate(t or "_" for t in doc.tokens):
            if k:
                pieces.append("\n" if k in breaks else " ")
                at += 1
            offsets.append((at, at + len(word)))
            pieces.append(word)
            at += len(word)
        text = "".join(pieces)
        tokens = tuple(offsets)
        edges = [0, *sorted(breaks), len(doc.tokens)]
        sentences = tuple((a, b) for a, b in itertools.pairwise(edges) if b > a)
    spans: list[Span] = []
    members: dict[str, list[str]] = {}
    lines: dict[str, int | None] = {}
    for k, m in enumerate(doc.mentions, start=1):
        parts = tuple((offsets[s][0], offsets[e - 1][1]) for s, e in m.spans)
        sid = f"m{k}"
        spans.append(Span(sid, parts[0][0], parts[-1][1], "coreference", None,
                          fragments=parts if len(parts) > 1 else (), line=m.line))
        members.setdefault(m.entity, []).append(sid)
        lines.setdefault(m.entity, m.line)
    chains = tuple(Chain(entity, "coreference", tuple(ids), line=lines[entity])
                   for entity, ids in members.items())
    return AnnotatedDocument(doc.name, annotator, text, tokens, sentences, tuple(spans), (),
                             chains, (), doc.path, doc.line, tool)


def _sentence_starts(doc: CorefDocument) -> set[int]:
    """Tokens that start a sentence: where the token lines skip a line."""
    lines: Sequence[int] = doc.token_lines
    if len(lines) != len(doc.tokens):
        return set()
    return {k for k in range(1, len(lines)) if lines[k] > lines[k - 1] + 1}
