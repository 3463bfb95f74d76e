"""Tokens and sentences for writing token formats (CoNLL-2012, CorefUD) from character spans.

Token formats mark a mention by whole tokens, and every annotator's file of a document must
have the same tokens (the official scorer and :func:`clusteragree.coref.scoring.match_documents`
compare documents token by token). :func:`layout` makes one tokenisation of a document's text
for all its annotators:

* the tokens are the tool's (:attr:`~clusteragree.exports.model.AnnotatedDocument.tokens`)
  when it tokenised, otherwise the runs of non-space characters;
* a token in which a span starts or ends (a span boundary strictly inside it) is split there,
  so that every span is a run of whole tokens (a boundary in the space between tokens splits
  nothing); zero-length tokens are left out;
* the sentences are the tool's (token ranges, carried over to the split tokens), otherwise the
  lines of the text (a break wherever the space between two tokens holds a line end); a
  sentence break that a span crosses is removed (CorefUD, and Udapi that reads it, keep a
  mention within one sentence);
* a token's word is its text with every whitespace character written ``_`` (a CoNLL column
  and a CoNLL-U FORM cannot hold a TAB or a line end).

The writers (:mod:`clusteragree.exports.writers`) and the coreference adapter
(:mod:`clusteragree.coref.exports`) both call it, so a CoNLL file written and the
:class:`~clusteragree.coref.model.CorefCorpus` adapted from the same export have the same tokens.

References
----------
CoNLL-2012 shared task, data description (conll.cemantix.org/2012/data.html): one token per line,
sentences separated by a blank line. CorefUD 1.x format, as Udapi reads it
(github.com/udapi/udapi-python, ``udapi/core/coref.py``): mentions within one sentence.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Layout", "layout", "token_span"]

_RUN = re.compile(r"\S+")
_SPACE = re.compile(r"\s")
_LINE_END = re.compile(r"[\n\r\u2028\u2029\x0b\x0c\x1c-\x1e\x85]")


@dataclass(frozen=True)
class Layout:
    """The tokens and sentences of one document's text, shared by its annotators.

    Attributes
    ----------
    tokens : tuple of (int, int)
        Code-point offsets ``[start, end)`` of each token in the text, in order, not overlapping.
    sentences : tuple of (int, int)
        Token index ranges ``[first, last + 1)``, covering every token in order.
    words : tuple of str
        Each token's text, whitespace inside written ``_``.
    by_tool : bool
        Whether the tokens are the tool's (else the runs of non-space characters).
    split : int
        How many tokens were split at a span boundary (each split counts once).
    joined : int
        How many sentence breaks were removed because a span crossed them.
    spaced : int
        How many words had whitespace written ``_``.
    starts : tuple of int
        Each token's start (for finding the tokens of a span).
    sentences_by_tool : bool
        Whether the sentences are the tool's (else the lines of the text).
    """

    tokens: tuple[tuple[int, int], ...]
    sentences: tuple[tuple[int, int], ...]
    words: tuple[str, ...]
    by_tool: bool
    split: int = 0
    joined: int = 0
    spaced: int = 0
    starts: tuple[int, ...] = ()
    sentences_by_tool: bool = False


def layout(text: str, *, tokens: Sequence[tuple[int, int]] = (),
           sentences: Sequence[tuple[int, int]] = (),
           spans: Iterable[Sequence[tuple[int, int]]] = ()) -> Layout:
    """Tokens and sentences of ``text`` in which every part of every span of ``spans`` is a run
    of whole tokens and every span lies within one sentence.

    Parameters
    ----------
    text : str
        The document's text.
    tokens : sequence of (int, int), default=()
        The tool's tokens (code-point offsets); empty: the runs of non-space characters.
    sentences : sequence of (int, int), default=()
        The tool's sentences as ranges of ``tokens``; empty: the lines of the text.
    spans : iterable of sequences of (int, int)
        The parts of every span to be written (of every annotator of the document).

    Returns
    -------
    Layout

    Examples
    --------
    "Mary's dog barked." with a span on "Mary" (0-4) and one on "dog barked" (7-17): the run
    "Mary's" is split at 4, and "barked." at 17:

    >>> lay = layout("Mary's dog barked.", spans=[((0, 4),), ((7, 17),)])
    >>> lay.words, lay.split
    (('Mary', "'s", 'dog', 'barked', '.'), 2)
    >>> token_span(lay, 7, 17)
    (2, 4)

    Two lines are two sentences, unless a span crosses the line end:

    >>> layout("A b.\\nC d.").sentences
    ((0, 2), (2, 4))
    >>> lay = layout("A b.\\nC d.", spans=[((2, 6),)])
    >>> lay.sentences, lay.joined
    (((0, 4),), 1)
    """
    parts = [tuple(span) for span in spans]
    by_tool = bool(tokens)
    base = sorted((s, e) for s, e in tokens if e > s) if by_tool else [
        (m.start(), m.end()) for m in _RUN.finditer(text)]
    origin: list[int] = []  # index of the base token each token comes from
    cuts = sorted({b for span in parts for s, e in span for b in (s, e)})
    out: list[tuple[int, int]] = []
    split = 0
    for k, (s, e) in enumerate(base):
        inside = cuts[bisect_right(cuts, s):bisect_left(cuts, e)]
        points = [s, *inside, e]
        split += len(inside)
        for a, b in itertools.pairwise(points):
            out.append((a, b))
            origin.append(k)
    starts = [s for s, _ in out]
    breaks = _sentence_breaks(text, out, origin, sentences, by_tool)
    joined = 0
    for span in parts:
        first_last = [token_span_of(starts, out, s, e) for s, e in span]
        found = [fl for fl in first_last if fl is not None]
        if not found:
            continue
        lo, hi = found[0][0], found[-1][1]
        crossed = [b for b in breaks if lo < b < hi]
        for b in crossed:
            breaks.discard(b)
        joined += len(crossed)
    edges = [0, *sorted(breaks), len(out)]
    sents = tuple((a, b) for a, b in itertools.pairwise(edges) if b > a)
    words = []
    spaced = 0
    for s, e in out:
        word = text[s:e]
        if _SPACE.search(word):
            word = _SPACE.sub("_", word)
            spaced += 1
        words.append(word)
    return Layout(tuple(out), sents, tuple(words), by_tool, split, joined, spaced,
                  tuple(starts), by_tool and bool(sentences))


def _sentence_breaks(text: str, tokens: list[tuple[int, int]], origin: list[int],
                     sentences: Sequence[tuple[int, int]], by_tool: bool) -> set[int]:
    """Token indices where a sentence starts (0 left out)."""
    if by_tool and sentences:
        starts = {first for first, _ in sentences}
        return {k for k in range(1, len(tokens))
                if origin[k] != origin[k - 1] and origin[k] in starts}
    return {k for k in range(1, len(tokens))
            if _LINE_END.search(text, tokens[k - 1][1], tokens[k][0])}


def token_span_of(starts: Sequence[int], tokens: Sequence[tuple[int, int]], start: int,
                  end: int) -> tuple[int, int] | None:
    """The tokens ``[first, last + 1)`` lying within the characters ``[start, end)``, None when
    none does."""
    first = bisect_left(starts, start)
    last = first
    while last < len(tokens) and tokens[last][1] <= end:
        last += 1
    return (first, last) if last > first else None


def token_span(lay: Layout, start: int, end: int) -> tuple[int, int] | None:
    """The tokens of ``lay`` within the characters ``[start, end)`` as ``(first, last + 1)``,
    None when no token lies there (a span of spaces, or of length zero)."""
    return token_span_of(lay.starts, lay.tokens, start, end)
