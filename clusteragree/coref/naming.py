"""Coreference units and values as a person reads them, for the diagnostics.

A unit (a mention, or a word) is written with its words and their positions in the document,
counted from 1 with both ends included (``words 34-36: "the king of Israel"``); its value, the
other units of its chain, as the chain named by its first mention (``chain of "Moses" (12 other
mentions)``), or ``singleton`` (a mention the annotator marked in no chain with another),
``not marked`` (a mention the annotator did not mark) or ``in no chain`` (a word).

References
----------
docs/coref.md, "Agreement"; docs/uncertainty.md, "Where the disagreement sits".
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from ..core.readable import UnitText, quoted
from .model import CorefDocument

__all__ = ["CorefNames", "mention_order", "word_range"]

Spans = tuple[tuple[int, int], ...]


def mention_order(docs: Sequence[CorefDocument]) -> list[Spans]:
    """The mention units of one document in unit order: the first annotator's mentions in span
    order, then those only later annotators marked.

    Examples
    --------
    >>> from clusteragree.coref import parse_conll
    >>> a = parse_conll(["#begin document d", "d 0 0 Mary (1)", "d 0 1 ran -",
    ...                  "#end document"], "a")
    >>> b = parse_conll(["#begin document d", "d 0 0 Mary (1)", "d 0 1 ran (2)",
    ...                  "#end document"], "b")
    >>> mention_order([a.documents["d"], b.documents["d"]])
    [((0, 1),), ((1, 2),)]
    """
    spans: dict[Spans, int] = {}
    for d in docs:
        for m in sorted(d.mentions, key=lambda m: m.spans):
            spans.setdefault(m.spans, len(spans))
    return list(spans)


def word_range(word_starts: np.ndarray, word_ends: np.ndarray, spans: Spans
               ) -> tuple[int, int]:
    """The first and last word (from 0) token spans touch, given the words' token starts and
    ends (sorted): how a unit's position is counted.

    Examples
    --------
    Words of tokens [0, 3), [4, 6), [7, 9) (BRAT: characters, spaces between):

    >>> word_range(np.array([0, 4, 7]), np.array([3, 6, 9]), ((4, 9),))
    (1, 2)
    """
    first = int(np.searchsorted(word_ends, spans[0][0], side="right"))
    last = int(np.searchsorted(word_starts, spans[-1][1], side="left")) - 1
    return first, max(first, last)


class _Document:
    """What naming needs of one document: its words, and each annotator's marked mentions."""

    def __init__(self, docs: Sequence[CorefDocument], units: str) -> None:
        first = docs[0]
        self.joiner = "" if first.words else " "  # BRAT tokens are characters
        self.tokens = first.tokens
        words = first.word_spans
        self.word_starts = np.array([s for s, _ in words], dtype=np.int64)
        self.word_ends = np.array([e for _, e in words], dtype=np.int64)
        self.words = words
        self.units = units
        self.mentions = mention_order(docs) if units == "mentions" else []
        self.marked = [{m.spans for m in d.mentions} for d in docs]

    def text(self, spans: Spans) -> str:
        return " + ".join(self.joiner.join(self.tokens[a:b]) for a, b in spans)

    def word_range(self, spans: Spans) -> tuple[int, int]:
        """The first and last word (0-based) the token spans touch."""
        return word_range(self.word_starts, self.word_ends, spans)

    def spans_of(self, unit: int) -> Spans:
        if self.units == "mentions":
            return self.mentions[unit]
        return (self.words[unit],)

    def unit_text(self, unit: int) -> tuple[str, tuple[int, ...]]:
        spans = self.spans_of(unit)
        first, last = self.word_range(spans)
        where = f"word {first + 1}" if first == last else f"words {first + 1}-{last + 1}"
        return f"{where}: {quoted(self.text(spans))}", (first, last)


class CorefNames:
    """``describe_unit`` and ``describe_value`` for the tables of :func:`coref_tables`.

    Parameters
    ----------
    docs : mapping of document name to sequence of CorefDocument
        Each shared document as every annotator read it, in the annotators' order.
    coders : sequence of hashable
        The annotators' names, in the same order.
    units : {"mentions", "words"}
        The units of the tables.

    References
    ----------
    docs/uncertainty.md, "Where the disagreement sits".

    Examples
    --------
    "Mary met John and he smiled": A puts he with John, B with Mary.

    >>> from clusteragree.coref import parse_conll
    >>> words = "Mary met John and he smiled".split()
    >>> def annotator(path, cells):
    ...     rows = [f"d 0 {i} {w} {c}" for i, (w, c) in enumerate(zip(words, cells))]
    ...     return parse_conll(["#begin document d", *rows, "#end document"], path)
    >>> a = annotator("a.conll", ["(1)", "-", "(2)", "-", "(2)", "-"])
    >>> b = annotator("b.conll", ["(1)", "-", "(2)", "-", "(1)", "-"])
    >>> names = CorefNames({"d": [a.documents["d"], b.documents["d"]]}, ["A", "B"], "mentions")
    >>> names.unit(("d", 2))
    UnitText(text='word 5: "he"', document='d', position=(4, 4))
    >>> names.value("A", ("d", 2), frozenset({1})), names.value("B", ("d", 1), frozenset())
    ('chain of "John" (1 other mention)', 'singleton')
    """

    def __init__(self, docs: Any, coders: Sequence[Hashable], units: str) -> None:
        self._docs = {name: _Document(list(found), units) for name, found in docs.items()}
        self._coder = {c: k for k, c in enumerate(coders)}
        self._units = units

    def unit(self, unit: Any) -> UnitText:
        """The unit ``(document, index)``: its words and where they are."""
        document, index = unit
        text, position = self._docs[document].unit_text(int(index))
        return UnitText(text, str(document), position)

    def value(self, coder: Hashable, unit: Any, value: Any) -> str:
        """The annotator's chain of the unit, named by its first mention (or word run)."""
        document, index = unit
        doc = self._docs[document]
        noun = "mention" if self._units == "mentions" else "word"
        if not value:
            if self._units == "words":
                return "in no chain"
            marked = doc.mentions[int(index)] in doc.marked[self._coder[coder]]
            return "singleton" if marked else "not marked"
        chain = sorted({int(index), *map(int, value)})
        if self._units == "mentions":
            head = doc.text(doc.mentions[chain[0]])
        else:  # the first run of consecutive words of the chain
            run = [chain[0]]
            for w in chain[1:]:
                if w != run[-1] + 1:
                    break
                run.append(w)
            head = doc.text(((doc.words[run[0]][0], doc.words[run[-1]][1]),))
        n = len(value)
        return f"chain of {quoted(head)} ({n} other {noun}{'' if n == 1 else 's'})"
