"""Coding units of a pyramid: words, spans, contributors; and which SCUs each unit is in.

* **words**: the tokens of the model-summary bodies (headers and the ``#N`` preamble excluded),
  by a named tokeniser. A token is in an SCU when a part of the SCU covers one of its
  characters. A token in no SCU is in no class (its value will be the empty set).
* **spans** (Passonneau 2006, Figure 4): the segments of the common refinement of all coders'
  contributor parts: cut the text at every part boundary of every coder, keep the pieces covered
  by some part and holding a non-space character.
* **contributors**: the distinct contributor extents (sets of part spans) of all coders.

Each function returns the units and, per coder, the memberships ``(unit index, SCU uid)``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..core.text import first_difference
from ..errors import InputError, ParameterError
from .model import Pyramid

__all__ = [
    "TOKENIZERS",
    "Units",
    "check_same_text",
    "contributor_units",
    "span_units",
    "tokens",
    "word_units",
]

#: Named tokenisers: whitespace tokens (default), DUCView's word boundaries, word characters.
TOKENIZERS: dict[str, str] = {
    "ws": r"\S+",
    "ducview": r"[^\s,.\-:]+",
    "alnum": r"\w+",
}

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Units:
    """Units (character spans, or extents for contributors) and each coder's SCU memberships.

    ``members[c]`` is an array of shape (k, 2): rows ``(unit index, SCU uid)``.
    """

    kind: str
    starts: IntArray
    ends: IntArray
    members: tuple[IntArray, ...]
    labels: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.starts)


def _tokenizer(name: str) -> re.Pattern[str]:
    if name not in TOKENIZERS:
        raise ParameterError(f"The tokenizer must be one of {sorted(TOKENIZERS)}. Got {name!r}.")
    return re.compile(TOKENIZERS[name])


def tokens(text: str, spans: Sequence[tuple[int, int]], tokenizer: str = "ws") -> tuple[
        IntArray, IntArray]:
    """Start and end offsets of the tokens inside ``spans`` of ``text``.

    >>> tokens("ab cd.\\nef", [(0, 9)])
    (array([0, 3, 7]), array([2, 6, 9]))
    >>> tokens("ab cd.\\nef", [(0, 9)], "ducview")[1]
    array([2, 5, 9])
    """
    pattern = _tokenizer(tokenizer)
    starts: list[int] = []
    ends: list[int] = []
    for lo, hi in spans:
        for m in pattern.finditer(text, lo, hi):
            starts.append(m.start())
            ends.append(m.end())
    return np.array(starts, dtype=np.int64), np.array(ends, dtype=np.int64)


def _cover(starts: IntArray, ends: IntArray, pyramid: Pyramid) -> IntArray:
    """Rows (unit, SCU uid) for every unit that a part of the SCU overlaps."""
    order = np.argsort(starts, kind="stable")
    s_sorted, e_sorted = starts[order], ends[order]
    e_max = np.maximum.accumulate(e_sorted) if len(e_sorted) else e_sorted
    rows: set[tuple[int, int]] = set()
    for scu in pyramid.scus:
        for part in scu.parts:
            first = int(np.searchsorted(e_max, part.start, side="right"))
            last = int(np.searchsorted(s_sorted, part.end, side="left"))
            for k in range(first, last):
                if e_sorted[k] > part.start and s_sorted[k] < part.end:
                    rows.add((int(order[k]), scu.uid))
    if not rows:
        return np.zeros((0, 2), dtype=np.int64)
    return np.array(sorted(rows), dtype=np.int64)


def check_same_text(pyramids: Sequence[Pyramid]) -> None:
    """Raise :class:`InputError` naming the first character where two pyramids' texts differ."""
    first = pyramids[0]
    for other in pyramids[1:]:
        if other.text == first.text:
            continue
        a, b = first.text, other.text
        pos = first_difference(a, b)
        line = a.count("\n", 0, pos) + 1
        col = pos - (a.rfind("\n", 0, pos) + 1) + 1
        got_a = repr(a[pos]) if pos < len(a) else "the end of the text"
        got_b = repr(b[pos]) if pos < len(b) else "the end of the text"
        raise InputError(
            f"the summaries' text differs from {first.path}'s at character {pos} (text line "
            f"{line}, column {col}): {got_b} here, {got_a} there; compare pyramids of the same "
            "model summaries", path=other.path)


def word_units(pyramids: Sequence[Pyramid], tokenizer: str = "ws") -> Units:
    """Tokens of the model-summary bodies, and each pyramid's token-SCU memberships."""
    check_same_text(pyramids)
    base = pyramids[0]
    starts, ends = tokens(base.text, [s.body for s in base.summaries], tokenizer)
    members = tuple(_cover(starts, ends, p) for p in pyramids)
    labels = tuple(base.text[s:e] for s, e in zip(starts.tolist(), ends.tolist(), strict=True))
    return Units("words", starts, ends, members, labels)


def span_units(pyramids: Sequence[Pyramid]) -> Units:
    """Segments of the common refinement of all pyramids' parts (Passonneau 2006, Figure 4)."""
    check_same_text(pyramids)
    text = pyramids[0].text
    bounds = sorted({x for p in pyramids for scu in p.scus for part in scu.parts
                     for x in (part.start, part.end)})
    covered = np.zeros(len(text) + 1, dtype=np.int64)
    for p in pyramids:
        for scu in p.scus:
            for part in scu.parts:
                covered[part.start] += 1
                covered[part.end] -= 1
    depth = np.cumsum(covered)
    starts, ends = [], []
    for lo, hi in itertools.pairwise(bounds):
        if hi > lo and depth[lo] > 0 and text[lo:hi].strip():
            starts.append(lo)
            ends.append(hi)
    s, e = np.array(starts, dtype=np.int64), np.array(ends, dtype=np.int64)
    members = tuple(_cover(s, e, p) for p in pyramids)
    labels = tuple(text[a:b] for a, b in zip(starts, ends, strict=True))
    return Units("spans", s, e, members, labels)


def contributor_units(pyramids: Sequence[Pyramid]) -> Units:
    """Distinct contributor extents of all pyramids; a pyramid is in an SCU's unit when one of
    its contributors of that SCU has exactly that extent."""
    check_same_text(pyramids)
    index: dict[tuple[tuple[int, int], ...], int] = {}
    rows: list[list[tuple[int, int]]] = [[] for _ in pyramids]
    for k, p in enumerate(pyramids):
        for scu in p.scus:
            for c in scu.contributors:
                unit = index.setdefault(c.extent, len(index))
                rows[k].append((unit, scu.uid))
    extents = list(index)
    members = tuple(np.array(sorted(set(r)), dtype=np.int64).reshape(-1, 2) for r in rows)
    text = pyramids[0].text
    labels = tuple("...".join(text[a:b].replace("\n", " ") for a, b in ext) for ext in extents)
    return Units("contributors", np.array([e[0][0] for e in extents], dtype=np.int64),
                 np.array([e[-1][1] for e in extents], dtype=np.int64), members, labels)
