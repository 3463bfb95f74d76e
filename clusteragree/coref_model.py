"""Coreference documents: tokens, mentions (token spans, discontinuous allowed) and chains.

One model for every reader (CoNLL-2011/2012, SemEval-2010, CorefUD, BRAT): a mention is a tuple of
token spans ``[start, end)`` in document token positions, with the entity (chain) it belongs to;
the chains are the mentions grouped by entity.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["CorefCorpus", "CorefDocument", "Mention", "deduplicate"]

Span = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
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


def deduplicate(mentions: list[Mention]) -> tuple[list[Mention], list[tuple[Mention, Mention]]]:
    """Keep the first of the mentions that cover the same tokens; also return the pairs
    (kept, repeated) so that a reader can refuse or count them."""
    seen: dict[Span, Mention] = {}
    kept, repeated = [], []
    for m in mentions:
        if m.spans in seen:
            repeated.append((seen[m.spans], m))
            continue
        seen[m.spans] = m
        kept.append(m)
    return kept, repeated


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
