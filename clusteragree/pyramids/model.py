"""Pyramids and peer annotations as read from DUCView files.

A pyramid is the text of its model summaries (one string, as DUCView builds it: every ``<line>``
followed by ``"\\n"``), the spans of the model summaries within it, and the Summary Content Units
(SCUs). An SCU has contributors, one per model summary in principle; a contributor is a list of
parts, each a span ``[start, end)`` of the text (0-based, end exclusive, UTF-16 units as in Java).
A peer annotation (``.pan``) adds a peer summary's text and, for each SCU of the pyramid, the
contributors found in the peer.

Everything keeps its uid, label, comment and source line so that files can be reported on
precisely.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

__all__ = ["SCU", "Contributor", "Part", "PeerAnnotation", "Pyramid", "Summary"]


@dataclass(frozen=True, slots=True)
class Part:
    """A span ``[start, end)`` of the text; ``label`` is the text of the span without newlines."""

    start: int
    end: int
    label: str
    line: int | None = None


@dataclass(frozen=True, slots=True)
class Contributor:
    """The parts of one summary that express an SCU (often discontinuous)."""

    label: str
    parts: tuple[Part, ...]
    comment: str | None = None
    line: int | None = None

    @property
    def extent(self) -> tuple[tuple[int, int], ...]:
        """The parts as sorted ``(start, end)`` pairs: the contributor's identity in the text."""
        return tuple(sorted({(p.start, p.end) for p in self.parts}))


@dataclass(frozen=True, slots=True)
class SCU:
    """A Summary Content Unit."""

    uid: int
    label: str
    contributors: tuple[Contributor, ...]
    comment: str | None = None
    line: int | None = None

    @property
    def weight(self) -> int:
        """The weight as DUCView computes it: the number of contributors."""
        return len(self.contributors)

    @property
    def parts(self) -> Iterator[Part]:
        """All parts of all contributors."""
        for contributor in self.contributors:
            yield from contributor.parts


@dataclass(frozen=True, slots=True)
class Summary:
    """A model summary inside the pyramid text: its header and its body spans."""

    id: str
    header: tuple[int, int]
    body: tuple[int, int]


@dataclass(frozen=True)
class Pyramid:
    """A pyramid as read from a ``.pyr`` file (or embedded in a ``.pan``).

    Attributes
    ----------
    text : str
        The text of the model summaries, lines joined as DUCView does.
    summaries : tuple of Summary
        The model summaries, in text order.
    scus : tuple of SCU
        In file order.
    path : str
        The file it was read from.
    regex : str or None
        The stored ``startDocumentRegEx``.
    summaries_found_by : str
        ``"stored regex"``, ``"header pattern"`` (fallback) or ``"whole text"``.
    repairs : dict
        What was repaired, by kind, with counts (empty when the file was clean).
    notes : dict
        Facts about the annotation that are kept as they are (contributors spanning two summaries,
        SCUs with two contributors from one summary), by kind, with counts.
    """

    text: str
    summaries: tuple[Summary, ...]
    scus: tuple[SCU, ...]
    path: str = "<pyramid>"
    regex: str | None = None
    summaries_found_by: str = "stored regex"
    repairs: dict[str, int] = field(default_factory=dict)
    notes: dict[str, int] = field(default_factory=dict)

    @property
    def n_contributors(self) -> int:
        """Number of contributors over all SCUs."""
        return sum(len(s.contributors) for s in self.scus)

    @property
    def n_parts(self) -> int:
        """Number of parts over all SCUs."""
        return sum(1 for s in self.scus for _ in s.parts)

    def summary_at(self, pos: int) -> int | None:
        """Index of the summary whose header or body contains ``pos`` (None before the first)."""
        k = bisect.bisect_right(self._summary_starts, pos)
        return k - 1 if k else None

    @cached_property
    def _summary_starts(self) -> list[int]:
        return [s.header[0] for s in self.summaries]

    def weights(self, by: str = "contributors") -> dict[int, int]:
        """SCU weights: ``"contributors"`` (DUCView) or ``"summaries"`` (distinct summaries)."""
        if by == "contributors":
            return {s.uid: s.weight for s in self.scus}
        return {s.uid: len({self.summary_at(p.start) for p in s.parts}) for s in self.scus}


@dataclass(frozen=True)
class PeerAnnotation:
    """A peer annotation (``.pan``): the pyramid, the peer text and the SCUs found in it.

    ``peer_scus`` holds every ``peerscu`` element, including the uid-0 bucket of non-matching
    content; only SCUs with at least one contributor were found in the peer.
    """

    pyramid: Pyramid
    text: str
    peer_scus: tuple[SCU, ...]
    path: str = "<pan>"
    repairs: dict[str, int] = field(default_factory=dict)

    @property
    def found(self) -> dict[int, SCU]:
        """SCUs of the pyramid matched in the peer (uid 0 excluded), by uid."""
        return {s.uid: s for s in self.peer_scus if s.uid != 0 and s.contributors}
