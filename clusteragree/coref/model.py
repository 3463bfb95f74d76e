"""Coreference documents: tokens, mentions (token spans, discontinuous allowed) and chains.

One model for every reader (CoNLL-2011/2012, SemEval-2010, CorefUD, BRAT): a mention is a tuple of
token spans ``[start, end)`` in document token positions, with the entity (chain) it belongs to;
the chains are the mentions grouped by entity.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..errors import InputError

__all__ = ["CONLL_AVERAGE", "METRICS", "CorefCorpus", "CorefDocument", "Mention", "unique_mentions"]

Span = tuple[tuple[int, int], ...]


#: The coreference metrics, by name (``mentions``: mention identification).
METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mentions")
#: The CoNLL-2011/2012 shared task score: the mean F1 of these three.
CONLL_AVERAGE = ("muc", "bcub", "ceafe")

@dataclass(frozen=True, slots=True)
class Mention:
    """A mention: its token spans (sorted, end exclusive), entity id, head token and source line."""

    spans: Span
    entity: str
    line: int | None = None
    head: int | None = None

    @property
    def start(self) -> int:
        return self.spans[0][0]

    @property
    def end(self) -> int:
        return self.spans[-1][1]

    @property
    def tokens(self) -> list[int]:
        """Token positions covered by the mention."""
        return [t for s, e in self.spans for t in range(s, e)]


def unique_mentions(document: str, mentions: list[Mention], *, lenient: bool,
                    repairs: Counter[str], path: str, line: int | None) -> tuple[Mention, ...]:
    """The mentions in reading order with repeats (the same tokens marked twice) refused, or
    with ``lenient`` the first kept and the others counted in ``repairs``; sorted by start,
    longest first."""
    seen: dict[Span, Mention] = {}
    for m in mentions:
        if m.spans not in seen:
            seen[m.spans] = m
            continue
        if not lenient:
            first = seen[m.spans]
            raise InputError(f"document {document}: the mention at tokens {m.start}-{m.end - 1} "
                             f"is marked twice (entity {first.entity}, line {first.line}, and "
                             f"entity {m.entity}); keep one (lenient reading keeps the first)",
                             path=path, line=m.line or line)
        repairs["repeated mentions removed (first kept)"] += 1
    return tuple(sorted(seen.values(), key=lambda m: (m.start, -m.end)))


@dataclass(frozen=True)
class CorefDocument:
    """A document (or CoNLL part) with one annotator's mentions."""

    name: str
    tokens: tuple[str, ...]
    mentions: tuple[Mention, ...]
    path: str = "<document>"
    line: int | None = None
    token_lines: tuple[int, ...] = ()
    words: tuple[tuple[int, int], ...] = ()

    @property
    def word_spans(self) -> tuple[tuple[int, int], ...]:
        """The word units as token spans: ``words`` when the reader set them (BRAT: runs of
        non-space characters), else one word per token."""
        return self.words or tuple((t, t + 1) for t in range(len(self.tokens)))

    @property
    def chains(self) -> dict[str, list[Mention]]:
        """Mentions grouped by entity, in order of first mention."""
        out: dict[str, list[Mention]] = {}
        for m in self.mentions:
            out.setdefault(m.entity, []).append(m)
        return out

    def clusters(self) -> list[set[Span]]:
        """The chains as sets of mention spans (what the coreference metrics compare)."""
        return [{m.spans for m in ms} for ms in self.chains.values()]


@dataclass(frozen=True)
class CorefCorpus:
    """The documents of one file (one annotator), with the repairs made while reading."""

    documents: dict[str, CorefDocument]
    path: str
    repairs: dict[str, int] = field(default_factory=dict)
    format: str = "conll"
