"""Where two coreference annotations differ, in the error categories of Kummerfeld and Klein
(2013): span errors, missing and extra mentions, missing and extra entities, divided and
conflated entities.

One annotation is the reference (``key``), the other is compared with it (``response``);
swapping them swaps missing with extra and divided with conflated, and nothing else. The
categories are those of Kummerfeld and Klein's error-driven analysis, decided from the two
partitions alone, so that they apply to any language and to annotations without parses:

1. **Span errors.** A response mention with no key mention of the same tokens is matched to a
   key mention that has none either, when the two are the same after leading and trailing
   punctuation tokens are stripped, or when they share their head and no other unmatched
   mention of either side has that head (the head a format gives, CorefUD's ``head``, else the
   last token). The response mention then counts as the key mention in what follows.
2. **Missing / extra entity.** A key entity of two or more mentions none of which the response
   marked is a missing entity; a response entity of two or more mentions none of which is in
   the key is an extra entity.
3. **Missing / extra mention.** Any other key mention the response did not mark is a missing
   mention; any other response mention not in the key is an extra mention.
4. **Divided / conflated entities.** A key entity whose mentions (those the response marked)
   lie in ``k`` response entities needs ``k - 1`` merges: ``k - 1`` divided-entity errors. A
   response entity whose key mentions lie in ``k`` key entities needs ``k - 1`` splits:
   ``k - 1`` conflated-entities errors.

Kummerfeld and Klein's tool decides some cases by the mentions' syntactic types (a pronoun
does not anchor an entity, English heads from parses, "the" and "'s" stripped from spans); this
module uses none of that, so a few of their cases are counted differently (docs/coref.md,
"Where two annotators differ").

References
----------
Kummerfeld, J. K. and Klein, D. (2013). Error-driven analysis of challenges in coreference
resolution. Proceedings of EMNLP 2013, pp. 265-277. (The categories, and the transformation
of a response into the key by span changes, splits, merges, removals and introductions.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd

from ..core.model import unique_labels
from ..errors import ParameterError
from .model import CorefCorpus, CorefDocument, Mention, Span
from .scoring import check_corpora, match_documents

__all__ = ["ERROR_KINDS", "CorefDifference", "coref_differences", "document_errors",
           "error_counts"]

#: The categories, in the order of the analysis.
ERROR_KINDS = ("span", "missing_entity", "extra_entity", "missing_mention", "extra_mention",
               "divided_entity", "conflated_entities")


@dataclass(frozen=True)
class CorefDifference:
    """One difference between a key and a response annotation of a document.

    Attributes
    ----------
    kind : str
        One of :data:`ERROR_KINDS`.
    document : str
        The document's name.
    mentions : tuple of Span
        The mentions concerned (token spans): the response mention and the key mention of a
        span error; the missing or extra mentions; for a divided entity the response piece to
        merge, for conflated entities the key piece to split off.
    key_entity, response_entity : str or None
        The entities concerned, as their ids are written in each file.

    Each record is one error: a key entity divided into ``k`` response entities gives
    ``k - 1`` records, a missing entity one.

    References
    ----------
    Kummerfeld, J. K. and Klein, D. (2013). Error-driven analysis of challenges in coreference
    resolution. EMNLP 2013.

    Examples
    --------
    >>> d = CorefDifference("missing_mention", "doc1", (((4, 5),),), "2", None)
    >>> d.kind, d.mentions[0][0]
    ('missing_mention', (4, 5))
    """

    kind: str
    document: str
    mentions: tuple[Span, ...]
    key_entity: str | None
    response_entity: str | None


def _trimmed(spans: Span, tokens: Sequence[str]) -> Span:
    """The spans with leading and trailing one-character punctuation tokens removed."""
    def punctuation(t: int) -> bool:
        word = tokens[t] if t < len(tokens) else ""
        return len(word) == 1 and not word.isalnum()
    start, end = spans[0][0], spans[-1][1]
    while start < end - 1 and punctuation(start):
        start += 1
    while end - 1 > start and punctuation(end - 1):
        end -= 1
    if len(spans) == 1:
        return ((start, end),)
    return ((start, spans[0][1]), *spans[1:-1], (spans[-1][0], end))


def _head(mention: Mention) -> int:
    return mention.head if mention.head is not None else mention.end - 1


def _span_matches(key: CorefDocument, response: CorefDocument) -> dict[Span, Span]:
    """Response spans -> key spans for the span errors (step 1)."""
    key_spans = {m.spans: m for m in key.mentions}
    resp_spans = {m.spans: m for m in response.mentions}
    only_resp = [m for s, m in resp_spans.items() if s not in key_spans]
    only_key = {s: m for s, m in key_spans.items() if s not in resp_spans}
    matched: dict[Span, Span] = {}
    by_trim: dict[Span, list[Span]] = {}
    for s in only_key:
        by_trim.setdefault(_trimmed(s, key.tokens), []).append(s)
    used: set[Span] = set()
    for m in only_resp:
        for s in by_trim.get(_trimmed(m.spans, key.tokens), []):
            if s not in used:
                matched[m.spans] = s
                used.add(s)
                break
    heads: dict[int, tuple[list[Span], list[Span]]] = {}
    for m in only_resp:
        if m.spans not in matched:
            heads.setdefault(_head(m), ([], []))[0].append(m.spans)
    for s, m in only_key.items():
        if s not in used:
            heads.setdefault(_head(m), ([], []))[1].append(s)
    for resp_side, key_side in heads.values():
        if len(resp_side) == 1 and len(key_side) == 1:
            matched[resp_side[0]] = key_side[0]
    return matched


def document_errors(key: CorefDocument, response: CorefDocument) -> list[CorefDifference]:
    """The differences of a response from the key in one document, by category.

    Parameters
    ----------
    key, response : CorefDocument
        Two annotations of the same document (the same tokens).

    Returns
    -------
    list of CorefDifference
        In the order of :data:`ERROR_KINDS`, then of the mentions' positions.

    References
    ----------
    Kummerfeld, J. K. and Klein, D. (2013). Error-driven analysis of challenges in coreference
    resolution. EMNLP 2013.

    Examples
    --------
    "Mary met John and he said she left": the key has {Mary, she} and {John, he}; the
    response puts he with Mary and she with Mary, and marks "met John" for John. "met John"
    and "John" share their last token: a span error. The key entity {John, he} is divided
    (John in one response entity, he in another); the response entity {Mary, he, she} holds
    mentions of two key entities, conflated.

    >>> tokens = "Mary met John and he said she left".split()
    >>> def doc(*mentions):
    ...     return CorefDocument("d", tuple(tokens),
    ...                          tuple(Mention(((s, e),), str(k)) for s, e, k in mentions))
    >>> key = doc((0, 1, 1), (2, 3, 2), (4, 5, 2), (6, 7, 1))
    >>> response = doc((0, 1, 1), (1, 3, 2), (4, 5, 1), (6, 7, 1))
    >>> for d in document_errors(key, response):
    ...     print(d.kind, d.mentions, d.key_entity, d.response_entity)
    span (((1, 3),), ((2, 3),)) 2 2
    divided_entity (((4, 5),),) 2 1
    conflated_entities (((4, 5),),) 2 1
    """
    if len(key.tokens) != len(response.tokens):
        raise ParameterError(f"document {key.name}: the two annotations have "
                             f"{len(key.tokens)} and {len(response.tokens)} tokens")
    out: list[CorefDifference] = []
    fixed = _span_matches(key, response)
    key_of = {m.spans: m.entity for m in key.mentions}
    as_marked = {m.spans: m.entity for m in response.mentions}
    for resp_span, key_span in sorted(fixed.items()):
        out.append(CorefDifference("span", key.name, (resp_span, key_span), key_of[key_span],
                                   as_marked[resp_span]))
    resp_of = {fixed.get(s, s): entity for s, entity in as_marked.items()}
    key_chains = _chains(key_of)
    resp_chains = _chains(resp_of)
    whole_missing = {e for e, ms in key_chains.items()
                     if len(ms) > 1 and not any(s in resp_of for s in ms)}
    whole_extra = {e for e, ms in resp_chains.items()
                   if len(ms) > 1 and not any(s in key_of for s in ms)}
    for e in sorted(whole_missing, key=lambda e: key_chains[e][0]):
        out.append(CorefDifference("missing_entity", key.name, tuple(key_chains[e]), e, None))
    for e in sorted(whole_extra, key=lambda e: resp_chains[e][0]):
        out.append(CorefDifference("extra_entity", key.name, tuple(resp_chains[e]), None, e))
    for s in sorted(key_of):
        if s not in resp_of and key_of[s] not in whole_missing:
            out.append(CorefDifference("missing_mention", key.name, (s,), key_of[s], None))
    for s in sorted(resp_of):
        if s not in key_of and resp_of[s] not in whole_extra:
            out.append(CorefDifference("extra_mention", key.name, (s,), None, resp_of[s]))
    out += _pieces("divided_entity", key.name, key_chains, resp_of, key_side=True)
    out += _pieces("conflated_entities", key.name, resp_chains, key_of, key_side=False)
    return out


def _chains(entity_of: dict[Span, str]) -> dict[str, list[Span]]:
    chains: dict[str, list[Span]] = {}
    for s in sorted(entity_of):
        chains.setdefault(entity_of[s], []).append(s)
    return chains


def _pieces(kind: str, document: str, chains: dict[str, list[Span]],
            other_of: dict[Span, str], *, key_side: bool) -> list[CorefDifference]:
    """For each chain of one side, its mentions grouped by the other side's entities: every
    group but the first (by position) is one merge (divided) or one split (conflated)."""
    out = []
    for entity, spans in sorted(chains.items(), key=lambda item: item[1][0]):
        groups: dict[str, list[Span]] = {}
        for s in spans:
            if s in other_of:
                groups.setdefault(other_of[s], []).append(s)
        for other, piece in list(groups.items())[1:]:
            key_entity, resp_entity = (entity, other) if key_side else (other, entity)
            out.append(CorefDifference(kind, document, tuple(piece), key_entity, resp_entity))
    return out


def error_counts(differences: Sequence[CorefDifference]) -> dict[str, int]:
    """How many errors of each kind (every kind of :data:`ERROR_KINDS`, zero included).

    Parameters
    ----------
    differences : sequence of CorefDifference

    Returns
    -------
    dict
        Kind -> how many errors of that kind.

    References
    ----------
    Kummerfeld, J. K. and Klein, D. (2013). EMNLP 2013, Table 3 (counts by category).

    Examples
    --------
    >>> error_counts([CorefDifference("span", "d", (), "1", "1"),
    ...               CorefDifference("span", "d", (), "2", "2")])["span"]
    2
    """
    counts = dict.fromkeys(ERROR_KINDS, 0)
    for d in differences:
        counts[d.kind] += 1
    return counts


def describe(difference: CorefDifference, tokens: Sequence[str], limit: int = 60,
             joiner: str = " ") -> str:
    """The mentions of a difference as their words and token positions, briefly (``joiner``
    between tokens: ``""`` where the tokens are characters, as in BRAT documents)."""
    parts = []
    for spans in difference.mentions:
        words = joiner.join(tokens[t] for s, e in spans for t in range(s, min(e, len(tokens))))
        if len(words) > limit:
            words = words[:limit - 3] + "..."
        where = ",".join(f"{s}-{e - 1}" if e - s > 1 else f"{s}" for s, e in spans)
        parts.append(f"{words} [{where}]")
    return "; ".join(parts)


def differences_frame(pairs: Sequence[tuple[Any, Any, CorefDocument, CorefDocument]]
                      ) -> pd.DataFrame:
    """Every difference of every (key name, response name, key document, response document),
    one row each: ``key, response, document, kind, mentions, key_entity, response_entity``
    (``mentions`` as words with token positions)."""
    rows = []
    for key_name, resp_name, key, response in pairs:
        for d in document_errors(key, response):
            rows.append({"key": key_name, "response": resp_name, "document": d.document,
                         "kind": d.kind,
                         "mentions": describe(d, key.tokens, joiner="" if key.words else " "),
                         "key_entity": d.key_entity, "response_entity": d.response_entity})
    return pd.DataFrame(rows, columns=["key", "response", "document", "kind", "mentions",
                                       "key_entity", "response_entity"])


def _without_singletons(doc: CorefDocument) -> CorefDocument:
    sizes: dict[str, int] = {}
    for m in doc.mentions:
        sizes[m.entity] = sizes.get(m.entity, 0) + 1
    return replace(doc, mentions=tuple(m for m in doc.mentions if sizes[m.entity] > 1))


def coref_differences(corpora: Sequence[CorefCorpus], *, coders: Sequence[Any] | None = None,
                      lenient: bool = False, singletons: str = "keep"
                      ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Where every pair of annotators differs: each difference, and the counts by category.

    For each pair of annotators (the first named is the key; swap them to swap missing with
    extra and divided with conflated) and each shared document, the differences of
    :func:`document_errors`.

    Parameters
    ----------
    corpora : sequence of CorefCorpus
        Two or more annotators' corpora.
    coders : sequence, optional
        The annotators' names (default: the corpora's paths, made unique).
    lenient : bool, default=False
        Leave out documents missing from some corpora (:func:`~.scoring.match_documents`).
    singletons : {"keep", "remove"}, default="keep"
        Compare entities of one mention too, or leave them out on both sides (as the
        CoNLL-2012 evaluation does).

    Returns
    -------
    differences : DataFrame
        One row per error: ``key, response, document, kind, mentions`` (the mentions' words
        with their token positions), ``key_entity, response_entity``.
    counts : DataFrame
        One row per pair and document, then a pooled row per pair (``document`` None):
        ``key, response, document`` and a column per kind of :data:`ERROR_KINDS`.

    Raises
    ------
    ParameterError
        An unknown singletons policy, fewer than two corpora.
    InputError
        As :func:`~clusteragree.coref.scoring.match_documents`.

    References
    ----------
    Kummerfeld, J. K. and Klein, D. (2013). Error-driven analysis of challenges in coreference
    resolution. EMNLP 2013.

    Examples
    --------
    >>> from clusteragree.coref import parse_conll
    >>> words = "Mary met John and he smiled".split()
    >>> def annotator(path, cells):
    ...     rows = [f"d 0 {i} {w} {c}" for i, (w, c) in enumerate(zip(words, cells))]
    ...     return parse_conll(["#begin document d", *rows, "#end document"], path)
    >>> a = annotator("a.conll", ["(1)", "-", "(2)", "-", "(2)", "-"])
    >>> b = annotator("b.conll", ["(1)", "-", "(2)", "-", "-", "-"])
    >>> found, counts = coref_differences([a, b], coders=["A", "B"])
    >>> found[["kind", "mentions"]].values.tolist()
    [['missing_mention', 'he [4]']]
    >>> counts.loc[counts.document.isna(), ["missing_mention", "extra_mention"]].values.tolist()
    [[1, 0]]
    """
    if singletons not in ("keep", "remove"):
        raise ParameterError(f"singletons must be 'keep' or 'remove'. Got {singletons!r}.")
    check_corpora(corpora)
    names = list(coders) if coders else unique_labels([c.path for c in corpora])
    common, _ = match_documents(corpora, lenient=lenient)
    pairs = []
    count_rows = []
    for i in range(len(corpora)):
        for j in range(i + 1, len(corpora)):
            pooled = dict.fromkeys(ERROR_KINDS, 0)
            for n in common:
                key, resp = corpora[i].documents[n], corpora[j].documents[n]
                if singletons == "remove":
                    key, resp = _without_singletons(key), _without_singletons(resp)
                pairs.append((names[i], names[j], key, resp))
                counts = error_counts(document_errors(key, resp))
                count_rows.append({"key": names[i], "response": names[j], "document": n,
                                   **counts})
                pooled = {k: pooled[k] + counts[k] for k in ERROR_KINDS}
            count_rows.append({"key": names[i], "response": names[j], "document": None,
                               **pooled})
    counts_frame = pd.DataFrame(count_rows)
    pooled_first = counts_frame["document"].isna()
    counts_frame = pd.concat([counts_frame[pooled_first], counts_frame[~pooled_first]],
                             ignore_index=True)
    return differences_frame(pairs), counts_frame
