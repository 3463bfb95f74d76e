"""Coreference mentions as spans, for the span measures (matching F1, token kappa, unitizing
alpha, gamma): where the annotators put mentions, whatever their chains.

Chain ids are each annotator's own (entity ``3`` of one file has nothing to do with entity ``3``
of another), so they are never a category: a mention's label is its entity's type where the
format gives one (CorefUD ``etype``, an annotator's own category such as ``person``), and
``mention`` elsewhere (CoNLL-2011/2012, whose coreference column has no type, and BRAT). Chain
identity is the coreference metrics' business (MUC, B-cubed, CEAF, BLANC, LEA, alpha over
mentions). A discontinuous mention (CorefUD parts, BRAT fragments) is one span from its first
token to its last by default (a ``note``), or one span per part (``fragments="parts"``).

References
----------
docs/spans.md, "Coreference mentions and pyramid contributors".
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import pandas as pd

from ..core.model import unique_labels
from ..core.spans import SpanCorpus, span_corpus
from ..errors import ParameterError, notify, option
from .model import CorefCorpus
from .scoring import check_corpora, match_documents

__all__ = ["MENTION", "mention_spans"]

#: The label of every mention as a span.
MENTION = "mention"


def mention_spans(corpora: Sequence[CorefCorpus], *, coders: Sequence[Hashable] | None = None,
                  lenient: bool = False, fragments: str = "extent") -> SpanCorpus:
    """The mentions of several annotators' corpora as a span corpus over the shared documents.

    Parameters
    ----------
    corpora : sequence of CorefCorpus
        Two or more annotators' corpora.
    coders : sequence, optional
        Their names (default: the corpora's paths, made unique).
    lenient : bool, default=False
        Leave out documents missing from some corpora
        (:func:`~clusteragree.coref.scoring.match_documents`).
    fragments : {"extent", "parts"}, default="extent"
        A discontinuous mention as one span from its first token to its last, or one span per
        part.

    Returns
    -------
    SpanCorpus
        Offsets in tokens (BRAT: characters, as the coreference reader counts them), the
        documents' lengths and tokens (BRAT: the text) known; each label the entity's type
        (CorefUD ``etype``) or ``mention``; ``id`` the mention's entity (its chain, as written)
        and ``line`` its line.

    Raises
    ------
    InputError, ParameterError
        As :func:`~clusteragree.coref.scoring.match_documents`; an unknown ``fragments``.

    References
    ----------
    docs/spans.md, "Coreference mentions and pyramid contributors".

    Examples
    --------
    >>> from clusteragree.coref import CorefDocument, Mention
    >>> from clusteragree.coref.model import CorefCorpus
    >>> words = tuple("the leader of the party met him".split())
    >>> a = CorefCorpus({"d": CorefDocument("d", words, (Mention(((0, 5),), "1"),
    ...                                                  Mention(((6, 7),), "1")))}, "a")
    >>> b = CorefCorpus({"d": CorefDocument("d", words, (Mention(((3, 5),), "7"),))}, "b")
    >>> c = mention_spans([a, b])
    >>> c.spans[["annotator", "start", "end", "label"]].values.tolist()
    [['a', 0, 5, 'mention'], ['a', 6, 7, 'mention'], ['b', 3, 5, 'mention']]
    >>> c.lengths, c.unit
    ({'d': 7}, 'tokens')
    """
    if fragments not in ("extent", "parts"):
        raise ParameterError(f"{option('fragments', fragments)} must be extent or parts",
                             params=("fragments",))
    check_corpora(corpora)
    names = list(coders) if coders else unique_labels([c.path for c in corpora])
    common, _ = match_documents(corpora, lenient=lenient)
    rows = []
    split = typed = 0
    for name, corpus in zip(names, corpora, strict=True):
        for doc in common:
            document = corpus.documents[doc]
            types = dict(document.entity_types)
            typed += bool(types)
            for m in document.mentions:
                if len(m.spans) > 1:
                    split += 1
                pieces = m.spans if fragments == "parts" else ((m.start, m.end),)
                label = types.get(m.entity, MENTION)
                rows += [(name, doc, s, e, label, m.entity, corpus.path, m.line)
                         for s, e in pieces]
    if split and fragments == "extent":
        notify("note", "discontinuous mentions read as one span from their first token to "
               f"their last ({option('fragments', 'parts')} takes each part as a span)",
               count=split)
    if typed:
        notify("note", "mentions are labelled by their entity's type (CorefUD etype; "
               f"'{MENTION}' where the entity has none)", count=typed)
    first = corpora[0]
    brat = first.format == "brat"
    texts = {d: ("".join(first.documents[d].tokens) if brat else first.documents[d].tokens)
             for d in common}
    frame = pd.DataFrame(rows, columns=["annotator", "document", "start", "end", "label", "id",
                                        "file", "line"])
    return span_corpus(frame, annotators=names, documents=common,
                       lengths={d: len(first.documents[d].tokens) for d in common},
                       texts=texts, unit="characters" if brat else "tokens",
                       sources={n: c.path for n, c in zip(names, corpora, strict=True)})
