"""What an adjudicator needs to see two or more coreference annotations side by side: the text
in rows (sentences, or lines of a BRAT text), each annotator's mentions over it, the chains
aligned across annotators, and every mention and chain marked by how it differs.

The result is plain data (a *view*, see docs/report.md, "Side by side") that the report draws
in the page; nothing here knows HTML.

Definitions (for annotators X and Y; a mention is identified by its token spans, as the
coreference metrics identify it):

* the **partner** in Y of a chain c of X is the chain of Y that shares the most mentions with
  c (ties: the one whose first shared mention comes first); none when they share none;
* c is **split** in Y when its mentions that Y marked lie in two or more chains of Y, and
  **merged** in Y when its partner also holds mentions of another chain of X;
* a mention of X is **one-sided** when some other annotator did not mark it, **in another
  chain** when every other annotator marked it but some put it in a chain that is not the
  partner of its chain, and **agreed** otherwise.

References
----------
Kummerfeld, J. K. and Klein, D. (2013). Error-driven analysis of challenges in coreference
resolution. EMNLP 2013. (The categories of the differences listed with each document.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import numpy as np

from ..errors import ParameterError
from .errors import _without_singletons, describe, document_errors
from .model import CorefCorpus, CorefDocument, Span
from .naming import word_range
from .scoring import check_corpora, match_documents

__all__ = ["CHAIN_FIELDS", "KINDS", "MENTION_FIELDS", "chain_views", "document_view"]

#: How a difference of :func:`~clusteragree.coref.errors.document_errors` is shown.
KINDS = {"span": "span differs", "missing_entity": "chain missing",
         "extra_entity": "chain extra", "missing_mention": "mention missing",
         "extra_mention": "mention extra", "divided_entity": "chain divided",
         "conflated_entities": "chains conflated"}

#: The fields of a chain's row: its id in the file, its number of mentions, its colour (aligned
#: chains share one), its partner's index in each annotator's chains (None: none, or itself),
#: its status (``split``, ``merged``, ``one-sided``), its first mention's words.
CHAIN_FIELDS = ("id", "n", "colour", "partner", "status", "first")
#: The fields of a mention's row: its token spans, its chain's index, its mark (``agree``,
#: ``one``, ``other``), the anchor of the first difference it takes part in (or None), and
#: where the tokens are characters (BRAT) its first and last word (from 0).
MENTION_FIELDS = ("spans", "chain", "mark", "anchor", "words")

#: The legend of the marks (CSS class of the view -> what it means).
LEGEND = [
    ["chains-agree", "mention both marked, in aligned chains"],
    ["chains-one", "mention another annotator did not mark (dashed frame)"],
    ["chains-other", "mention another annotator put in another chain (double frame)"],
    ["chains-split", "chain split by another annotator (dotted underline)"],
    ["chains-merged", "chain merged with another by another annotator (double underline)"],
]


def _rows(doc: CorefDocument) -> list[list[int]]:
    """Token ranges of the sentences (a gap in the tokens' lines: a blank or comment line) or,
    where the tokens are characters (BRAT), of the lines of the text."""
    n = len(doc.tokens)
    cuts = [0]
    if doc.words:  # characters: a row ends after each newline
        cuts += [t + 1 for t, c in enumerate(doc.tokens) if c == "\n" and t + 1 < n]
    elif doc.token_lines and len(doc.token_lines) == n:
        cuts += [t for t in range(1, n) if doc.token_lines[t] - doc.token_lines[t - 1] > 1]
    cuts.append(n)
    return [[a, b] for a, b in pairwise(cuts) if b > a]


def _partners(mine: dict[str, list[Span]], theirs: dict[Span, str]
              ) -> tuple[dict[str, str | None], dict[str, int]]:
    """Each chain's partner among the other annotator's chains, and how many of the other's
    chains its marked mentions lie in."""
    partner: dict[str, str | None] = {}
    spread: dict[str, int] = {}
    for chain, spans in mine.items():
        shared = Counter(theirs[s] for s in spans if s in theirs)
        order = {c: i for i, c in reversed(list(enumerate(theirs[s] for s in spans
                                                           if s in theirs)))}
        partner[chain] = (min(shared, key=lambda c: (-shared[c], order[c])) if shared
                          else None)
        spread[chain] = len(shared)
    return partner, spread


def document_view(docs: Sequence[CorefDocument], names: Sequence[str], item_id: str,
                  *, singletons: str = "keep") -> dict[str, Any]:
    """One document as an item of the view: text rows, mentions and chains per annotator,
    the marks, and the differences of every pair of annotators.

    Parameters
    ----------
    docs : sequence of CorefDocument
        The same document as each annotator marked it (the tokens of the first are shown).
    names : sequence of str
        The annotators, in the order of ``docs``.
    item_id : str
        The item's id in the page.
    singletons : {"keep", "remove"}, default="keep"
        As :func:`~clusteragree.coref.errors.coref_differences`.

    Returns
    -------
    dict
        ``id, name, document, order`` (the number of differences), ``cells``, ``tokens``,
        ``joiner``, ``rows``, ``chains`` and ``mentions`` per annotator (rows of
        :data:`CHAIN_FIELDS` and :data:`MENTION_FIELDS`), ``differences`` (each with the
        indices of the two annotators compared, ``who``; its text ends with their chains).

    References
    ----------
    docs/report.md, "Side by side".

    Examples
    --------
    "Mary met John and he smiled": A puts *he* with *John*, B with *Mary*.

    >>> from clusteragree.coref import parse_conll
    >>> words = "Mary met John and he smiled".split()
    >>> def annotator(cells):
    ...     rows = [f"d 0 {i} {w} {c}" for i, (w, c) in enumerate(zip(words, cells))]
    ...     return parse_conll(["#begin document d", *rows, "#end document"], "x").documents["d"]
    >>> a = annotator(["(1)", "-", "(2)", "-", "(2)", "-"])
    >>> b = annotator(["(1)", "-", "(2)", "-", "(1)", "-"])
    >>> item = document_view([a, b], ["A", "B"], "d0")
    >>> [m[2] for m in item["mentions"]["A"]], item["chains"]["B"][0][4]
    (['agree', 'agree', 'other'], ['split'])
    """
    if singletons == "remove":
        docs = [_without_singletons(d) for d in docs]
    first = docs[0]
    spans_of = [{chain: [m.spans for m in ms] for chain, ms in d.chains.items()} for d in docs]
    chain_of = [{m.spans: m.entity for m in d.mentions} for d in docs]
    order = [list(s) for s in spans_of]  # chain ids in order of first mention
    index = [{c: i for i, c in enumerate(o)} for o in order]
    partner: list[dict[int, dict[str, str | None]]] = [{} for _ in docs]
    spread: list[dict[int, dict[str, int]]] = [{} for _ in docs]
    for x in range(len(docs)):
        for y in range(len(docs)):
            if x != y:
                partner[x][y], spread[x][y] = _partners(spans_of[x], chain_of[y])
    colour: list[dict[str, int]] = [{c: i for i, c in enumerate(order[0])}]
    fresh = len(order[0])
    for y in range(1, len(docs)):
        mine: dict[str, int] = {}
        for c in order[y]:
            back = partner[y][0].get(c)
            if back is not None and partner[0][y].get(back) == c:
                mine[c] = colour[0][back]
            else:
                mine[c], fresh = fresh, fresh + 1
        colour.append(mine)
    chains: dict[str, list[list[Any]]] = {}
    mentions: dict[str, list[list[Any]]] = {}
    words = _word_range(first)
    for x, (name, doc) in enumerate(zip(names, docs, strict=True)):
        rows = []
        for c in order[x]:
            status = set()
            others = {}
            for y in partner[x]:
                p = partner[x][y][c]
                others[names[y]] = None if p is None else index[y][p]
                if p is None:
                    status.add("one-sided")
                    continue
                if spread[x][y][c] > 1:
                    status.add("split")
                if any(chain_of[x].get(s) not in (None, c) for s in spans_of[y][p]):
                    status.add("merged")
            rows.append([c, len(spans_of[x][c]), colour[x][c],
                         [others.get(n) for n in names], sorted(status),
                         describe_span(spans_of[x][c][0], first)])
        chains[name] = rows
        marks = []
        for m in doc.mentions:
            state = "agree"
            for y in partner[x]:
                theirs = chain_of[y].get(m.spans)
                if theirs is None:
                    state = "one"
                    break
                if partner[x][y][m.entity] != theirs:
                    state = "other"
            marks.append([[list(s) for s in m.spans], index[x][m.entity], state, None,
                          *([list(words(m.spans))] if words else [])])
        mentions[name] = marks
    differences: list[dict[str, Any]] = []
    where = [{tuple(map(tuple, m[0])): k for k, m in enumerate(mentions[n])} for n in names]
    counts: Counter[str] = Counter()
    for x in range(len(docs)):
        for y in range(x + 1, len(docs)):
            for d in document_errors(docs[x], docs[y]):
                anchor = f"d{len(differences)}"
                counts[d.kind] += 1
                for spans in d.mentions:
                    for z in (x, y):
                        k = where[z].get(spans)
                        if k is not None and mentions[names[z]][k][3] is None:
                            mentions[names[z]][k][3] = anchor
                text = describe(d, first.tokens, joiner="" if first.words else " ")
                chains_of = " / ".join("-" if e is None else str(e)
                                       for e in (d.key_entity, d.response_entity))
                differences.append({"anchor": anchor, "kind": KINDS.get(d.kind, d.kind),
                                    "who": [x, y], "text": f"{text} (chains {chains_of})"})
    cells: dict[str, Any] = {"differences": len(differences)}
    cells.update({KINDS[k]: counts.get(k, 0) for k in KINDS})
    for name in names:
        cells[f"mentions {name}"] = len(mentions[name])
    return {"id": item_id, "name": first.name, "document": first.name,
            "order": float(len(differences)), "cells": cells,
            "tokens": list(first.tokens), "joiner": "" if first.words else " ",
            "rows": _rows(first), "chains": chains, "mentions": mentions,
            "differences": differences}


def _word_range(doc: CorefDocument) -> Any:
    """Where the tokens are characters (BRAT): the first and last word (from 0) of a mention,
    as the units that disagree most count them; None where the tokens are the words."""
    if not doc.words:
        return None
    starts = np.array([s for s, _ in doc.words], dtype=np.int64)
    ends = np.array([e for _, e in doc.words], dtype=np.int64)
    return lambda spans: word_range(starts, ends, spans)


def describe_span(spans: Span, doc: CorefDocument, limit: int = 40) -> str:
    """A mention's words, cut to ``limit`` characters."""
    joiner = "" if doc.words else " "
    words = joiner.join(doc.tokens[t] for s, e in spans for t in range(s, min(e, len(doc.tokens))))
    words = " ".join(words.split())
    return words if len(words) <= limit else words[:limit - 1] + "\u2026"


def chain_views(corpora: Sequence[CorefCorpus], names: Sequence[str], *, lenient: bool = False,
                singletons: str = "keep") -> dict[str, Any]:
    """The side-by-side view of every shared document, most differences first.

    Parameters
    ----------
    corpora : sequence of CorefCorpus
        Two or more annotators' corpora.
    names : sequence of str
        Their names.
    lenient : bool, default=False
        Leave out documents some corpora lack (as :func:`~.scoring.match_documents`).
    singletons : {"keep", "remove"}, default="keep"
        As :func:`~clusteragree.coref.errors.coref_differences`.

    Returns
    -------
    dict
        The view (``kind`` ``"chains"``, ``title``, ``annotators``, ``legend``, ``columns``,
        ``items`` sorted by their number of differences, most first; then document order).

    Raises
    ------
    ParameterError
        Names and corpora of different lengths; an unknown singletons policy.

    References
    ----------
    docs/report.md, "Side by side".

    Examples
    --------
    >>> from clusteragree.coref import parse_conll
    >>> a = parse_conll(["#begin document d", "d 0 0 Mary (1)", "d 0 1 ran -",
    ...                  "#end document"], "a")
    >>> view = chain_views([a, a], ["A", "B"])
    >>> view["kind"], [item["order"] for item in view["items"]]
    ('chains', [0.0])
    """
    if singletons not in ("keep", "remove"):
        raise ParameterError(f"singletons must be 'keep' or 'remove'. Got {singletons!r}.",
                             params=("singletons",))
    check_corpora(corpora)
    if len(names) != len(corpora):
        raise ParameterError(f"{len(names)} names for {len(corpora)} annotations",
                             params=("names",))
    common, _ = match_documents(corpora, lenient=lenient)
    items = [document_view([c.documents[d] for c in corpora], [str(n) for n in names],
                           f"doc{k}", singletons=singletons) for k, d in enumerate(common)]
    position = {item["id"]: k for k, item in enumerate(items)}
    items.sort(key=lambda item: (-item["order"], position[item["id"]]))
    columns = ["differences", *KINDS.values(), *(f"mentions {n}" for n in names)]
    return {"kind": "chains", "title": "the annotations side by side",
            "annotators": [str(n) for n in names], "legend": LEGEND, "columns": columns,
            "items": items}
