"""Pyramid units and values as a person reads them, for the diagnostics.

A unit is written with its summary (the document), the position of its words in the summary,
counted from 1 with both ends included (whitespace-separated words), and the words themselves
(``words 12-15: "the storm hit Florida"``; a contributor of several parts joins them with
`` + ``). A value, the other units of the unit's SCU(s), is written as the SCU(s) of that
annotator: ``SCU 14 "The storm hit Florida" (6 other words)``, or ``in no SCU``. A peer
annotation's value, a set of SCU ids, is written as those SCUs (``SCU 0`` is the content that
matches no SCU).

References
----------
docs/pyramids.md, "Units and values"; docs/uncertainty.md, "Where the disagreement sits".
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np

from ..core.readable import UnitText, quoted
from .model import Pyramid

__all__ = ["PanNames", "PyramidNames", "scu_text"]

_WORD = re.compile(r"\S+")
_NOUN = {"words": "word", "spans": "span", "contributors": "contributor"}


def scu_text(uid: int, label: str) -> str:
    """An SCU as ``SCU 14 "its label"`` (uid 0 of a peer annotation: non-matching content).

    Examples
    --------
    >>> scu_text(14, " the storm hit Florida "), scu_text(0, "")
    ('SCU 14 "the storm hit Florida"', 'content matching no SCU')
    """
    if uid == 0:
        return "content matching no SCU"
    return f"SCU {uid} {quoted(' '.join(label.split()))}"


class _Words:
    """Word positions in a text: which summary an offset is in, and its word number there."""

    def __init__(self, pyramid: Pyramid) -> None:
        self.text = pyramid.text
        self.summaries = [(s.id, s.body[0], s.body[1]) for s in pyramid.summaries]
        self.bodies = np.array([b for _, b, _ in self.summaries] or [0], dtype=np.int64)
        self.starts = [np.array([m.start() for m in _WORD.finditer(self.text, b, e)],
                                dtype=np.int64) for _, b, e in self.summaries]

    def place(self, start: int, end: int) -> tuple[str | None, int, int]:
        """The summary of ``[start, end)`` and its first and last word (from 1)."""
        k = max(int(np.searchsorted(self.bodies, start, side="right")) - 1, 0)
        if not self.summaries:
            return None, 0, 0
        starts = self.starts[k]
        first = int(np.searchsorted(starts, start, side="right"))
        last = int(np.searchsorted(starts, max(end - 1, start), side="right"))
        return self.summaries[k][0], max(first, 1), max(last, first, 1)

    def words(self, start: int, end: int) -> str:
        return " ".join(self.text[start:end].split())


def _extents(pyramids: Sequence[Pyramid], units: str, starts: Any, ends: Any
             ) -> list[tuple[tuple[int, int], ...]]:
    if units != "contributors":
        return [((a, b),) for a, b in zip(starts.tolist(), ends.tolist(), strict=True)]
    index: dict[tuple[tuple[int, int], ...], int] = {}  # the order of contributor_units
    for p in pyramids:
        for scu in p.scus:
            for c in scu.contributors:
                index.setdefault(c.extent, len(index))
    return list(index)


class PyramidNames:
    """``describe_unit`` and ``describe_value`` for the table of :func:`pyramid_table`.

    Parameters
    ----------
    pyramids : sequence of Pyramid
        The annotators' pyramids, in the table's coder order.
    found : Units
        The units (:func:`pyramid_table`'s second result).
    coders : sequence of hashable
        The coders' names, in the same order.

    References
    ----------
    docs/uncertainty.md, "Where the disagreement sits".

    Examples
    --------
    >>> from clusteragree.pyramids.writers import build_pyramid
    >>> from clusteragree.pyramids.agreement import pyramid_table
    >>> S = [("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a cat sat down")]
    >>> x = build_pyramid(S, [("A cat sat", [[(0, "cat sat")], [(1, "cat sat")]]),
    ...                       ("Down", [[(1, "down")]])], path="X")
    >>> y = build_pyramid(S, [("A cat sat", [[(0, "cat sat")], [(1, "cat sat down")]])],
    ...                   path="Y", first_uid=5)
    >>> table, found = pyramid_table([x, y], coders=["X", "Y"])
    >>> names = PyramidNames([x, y], found, ["X", "Y"])
    >>> names.unit(6)
    UnitText(text='word 4: "down"', document='D1.M.100.A.B', position=(3, 3))
    >>> names.value("X", 6, table.value("X", 6)), names.value("Y", 6, table.value("Y", 6))
    ('SCU 2 "Down" (no other word)', 'SCU 5 "A cat sat" (4 other words)')
    >>> names.value("X", 0, table.value("X", 0))
    'in no SCU'
    """

    def __init__(self, pyramids: Sequence[Pyramid], found: Any,
                 coders: Sequence[Hashable]) -> None:
        self._words = _Words(pyramids[0])
        self._extents = _extents(pyramids, found.kind, found.starts, found.ends)
        self._noun = _NOUN.get(found.kind, "unit")
        self._coder = {c: k for k, c in enumerate(coders)}
        self._scus: list[dict[int, list[int]]] = []
        for members in found.members:
            by_unit: dict[int, list[int]] = {}
            for unit, uid in members.tolist():
                by_unit.setdefault(unit, []).append(uid)
            self._scus.append(by_unit)
        self._labels = [{s.uid: s.label for s in p.scus} for p in pyramids]

    def unit(self, unit: Any) -> UnitText:
        """The unit (its index in the table): its summary, word positions and words."""
        extent = self._extents[int(unit)]
        places = [self._words.place(a, b) for a, b in extent]
        summary = places[0][0]
        where = " + ".join(str(f) if f == last else f"{f}-{last}" for _, f, last in places)
        single = len(places) == 1 and places[0][1] == places[0][2]
        text = " + ".join(self._words.words(a, b) for a, b in extent)
        return UnitText(f"{'word' if single else 'words'} {where}: {quoted(text)}", summary,
                        (places[0][1] - 1, places[-1][2] - 1))  # from 0, as every domain

    def value(self, coder: Hashable, unit: Any, value: Any) -> str:
        """The annotator's SCU(s) of the unit, with how many other units they hold."""
        k = self._coder[coder]
        uids = self._scus[k].get(int(unit), [])
        if not uids:
            return "in no SCU"
        scus = " and ".join(scu_text(u, self._labels[k].get(u, "")) for u in uids)
        n = len(value)
        count = (f"no other {self._noun}" if n == 0 else
                 f"{n} other {self._noun}{'' if n == 1 else 's'}")
        return f"{scus} ({count})"


class PanNames:
    """``describe_unit`` and ``describe_value`` for the table of :func:`pan_agreement`.

    Parameters
    ----------
    words : mapping of (peer, token) to str
        Each unit's word.
    labels : mapping of int to str
        The SCU labels by uid (the pyramid's).

    References
    ----------
    docs/pyramids.md, "Peer annotations".

    Examples
    --------
    >>> names = PanNames({("D1.M.100.A.3", 3): "down"}, {2: "Down"})
    >>> names.unit(("D1.M.100.A.3", 3))
    UnitText(text='word 4: "down"', document='D1.M.100.A.3', position=(3,))
    >>> names.value("A", ("D1.M.100.A.3", 3), frozenset({2, 0}))
    'content matching no SCU; SCU 2 "Down"'
    >>> names.value("A", ("D1.M.100.A.3", 3), frozenset())
    'in no SCU'
    """

    def __init__(self, words: Mapping[tuple[str, int], str], labels: Mapping[int, str]) -> None:
        self._words = words
        self._labels = labels

    def unit(self, unit: Any) -> UnitText:
        """The unit ``(peer, token)``: the peer summary, the word's position and the word."""
        peer, token = unit
        return UnitText(f"word {int(token) + 1}: {quoted(self._words[unit])}",
                        str(peer), (int(token),))

    def value(self, coder: Hashable, unit: Any, value: Any) -> str:
        """The SCUs the annotator matched the word to."""
        if not value:
            return "in no SCU"
        return "; ".join(scu_text(u, self._labels.get(u, "")) for u in sorted(value))
