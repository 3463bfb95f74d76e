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

    Attributes
    ----------
    kind : str
        ``"words"``, ``"spans"`` or ``"contributors"``.
    starts, ends : ndarray of int, shape (n_units,)
        Each unit's character span ``[start, end)`` in the pyramid text; for contributors, the
        start of the first part and the end of the last.
    members : tuple of ndarray of int, shape (k, 2)
        One array per coder (pyramid), in the order given: rows ``(unit index, SCU uid)``,
        one for each SCU of that coder the unit is in. A unit in no SCU has no row.
    labels : tuple of str
        The text of each unit (contributors: the parts' text joined with ``"..."``).

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006, Genoa, Italy. Section 3.3 and
    Figure 4 (spans as coding units), Section 4 (words as coding units).

    docs/pyramids.md, "Units and values".

    Examples
    --------
    Words of two summaries, "the cat sat" and "a cat sat down", with one coder's SCU 1 made of
    both "cat sat" (words 1, 2, 4 and 5) and SCU 2 of "down" (word 6):

    >>> from clusteragree.pyramids.writers import build_pyramid
    >>> p = build_pyramid([("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a cat sat down")],
    ...                   [("A cat sat", [[(0, "cat sat")], [(1, "cat sat")]]),
    ...                    ("Down", [[(1, "down")]])])
    >>> u = word_units([p])
    >>> len(u), u.labels
    (7, ('the', 'cat', 'sat', 'a', 'cat', 'sat', 'down'))
    >>> u.members[0].tolist()
    [[1, 1], [2, 1], [4, 1], [5, 1], [6, 2]]
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

    Parameters
    ----------
    text : str
        The text (a pyramid's or a peer's).
    spans : sequence of (int, int)
        The spans ``[start, end)`` to tokenise, e.g. the model-summary bodies; a token does
        not run past the end of its span.
    tokenizer : {"ws", "ducview", "alnum"}, default="ws"
        A name in :data:`TOKENIZERS`: ``ws`` whitespace tokens (``\\S+``), ``ducview`` runs
        of characters other than DUCView's word delimiters (whitespace, ``,`` ``.`` ``-``
        ``:``), ``alnum`` word characters (``\\w+``).

    Returns
    -------
    starts, ends : ndarray of int
        The offsets of the tokens, in the order of the spans and then of the text.

    Raises
    ------
    ParameterError
        An unknown tokeniser.

    References
    ----------
    DUCView 1.5 (Penn State, github.com/psunlpgroup/DucView-1.5), ``SCUTextPane.java``: a
    selection is snapped to the word delimiters space, tab, newline, ``,`` ``.`` ``-`` ``:``
    (the ``ducview`` tokeniser).

    docs/pyramids.md, "Units and values".

    Examples
    --------
    In "ab cd.\\nef" the whitespace tokens are "ab" (0-2), "cd." (3-6) and "ef" (7-9); the
    DUCView tokeniser stops "cd" before the full stop, at 5:

    >>> tokens("ab cd.\\nef", [(0, 9)])
    (array([0, 3, 7]), array([2, 6, 9]))
    >>> tokens("ab cd.\\nef", [(0, 9)], "ducview")[1]
    array([2, 5, 9])

    Only the spans are tokenised; the span 1-4 cuts "ab" to "b" and "cd." to "c":

    >>> tokens("ab cd.\\nef", [(1, 4)])
    (array([1, 3]), array([2, 4]))
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
    """Raise :class:`InputError` naming the first character where two pyramids' texts differ.

    Parameters
    ----------
    pyramids : sequence of Pyramid
        At least one; every text is compared with the first's.

    Returns
    -------
    None
        When all texts are equal.

    Raises
    ------
    InputError
        Naming the file whose text differs, the first differing character (its offset, text
        line and column) and what each file has there.

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006, Genoa, Italy. Section 2:
    the pyramids compared are built independently over the same model summaries.

    docs/pyramids.md, "Units and values".

    Examples
    --------
    The texts differ in the body of the only summary, "the cat sat" against "the cat sit".
    The body is the 8th line of the text (after "#1", two blank lines, dashes, the id, dashes
    and a blank line) and starts at 51 (see :func:`~clusteragree.pyramids.writers.build_pyramid`);
    "a" is its 10th character, 51 + 9 = 60:

    >>> from clusteragree.pyramids.writers import build_pyramid
    >>> x = build_pyramid([("D1.M.100.A.A", "the cat sat")], [], path="X.pyr")
    >>> y = build_pyramid([("D1.M.100.A.A", "the cat sit")], [], path="Y.pyr")
    >>> check_same_text([x, x])
    >>> check_same_text([x, y])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: Y.pyr: ... 60 (text line 8, column 10): 'i' here, 'a' there; ...
    """
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
    """Tokens of the model-summary bodies, and each pyramid's token-SCU memberships.

    A token is in an SCU when a part of the SCU covers at least one of its characters.

    Parameters
    ----------
    pyramids : sequence of Pyramid
        Pyramids of the same model summaries (equal texts); the first one's summaries give the
        bodies (headers and the ``#N`` preamble are left out).
    tokenizer : {"ws", "ducview", "alnum"}, default="ws"
        See :func:`tokens`.

    Returns
    -------
    Units
        Kind ``"words"``: the tokens, and per pyramid the rows ``(token index, SCU uid)``.

    Raises
    ------
    InputError
        The texts differ (:func:`check_same_text`).

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006, Genoa, Italy. Section 4: words
    as the coding units of pyramid agreement.

    docs/pyramids.md, "Units and values".

    Examples
    --------
    Two coders' pyramids of the same summaries, "the cat sat" and "a cat sat down". Both put
    "cat sat" of each summary in SCU 1; X makes "down" an SCU of its own (uid 2), Y puts it in
    SCU 1 with the second "cat sat":

    >>> from clusteragree.pyramids.writers import build_pyramid
    >>> S = [("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a cat sat down")]
    >>> x = build_pyramid(S, [("A cat sat", [[(0, "cat sat")], [(1, "cat sat")]]),
    ...                       ("Down", [[(1, "down")]])], path="X")
    >>> y = build_pyramid(S, [("A cat sat", [[(0, "cat sat")], [(1, "cat sat down")]])],
    ...                   path="Y")

    The seven words are numbered 0-6 in text order; "down" (word 6) is in X's SCU 2 and in Y's
    SCU 1:

    >>> u = word_units([x, y])
    >>> u.labels
    ('the', 'cat', 'sat', 'a', 'cat', 'sat', 'down')
    >>> [m.tolist() for m in u.members]
    [[[1, 1], [2, 1], [4, 1], [5, 1], [6, 2]], [[1, 1], [2, 1], [4, 1], [5, 1], [6, 1]]]
    """
    check_same_text(pyramids)
    base = pyramids[0]
    starts, ends = tokens(base.text, [s.body for s in base.summaries], tokenizer)
    members = tuple(_cover(starts, ends, p) for p in pyramids)
    labels = tuple(base.text[s:e] for s, e in zip(starts.tolist(), ends.tolist(), strict=True))
    return Units("words", starts, ends, members, labels)


def span_units(pyramids: Sequence[Pyramid]) -> Units:
    """Segments of the common refinement of all pyramids' parts (Passonneau 2006, Figure 4).

    The text is cut at every start and end of every part of every pyramid; the pieces that
    some part covers and that hold a non-space character are the units.

    Parameters
    ----------
    pyramids : sequence of Pyramid
        Pyramids of the same model summaries (equal texts).

    Returns
    -------
    Units
        Kind ``"spans"``: the segments, and per pyramid the rows ``(segment index, SCU uid)``
        for the SCUs whose parts overlap the segment.

    Raises
    ------
    InputError
        The texts differ (:func:`check_same_text`).

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006, Genoa, Italy. Figure 4 and
    Table 1 (spans instead of words as coding units).

    docs/pyramids.md, "Units and values".

    Examples
    --------
    Two coders' pyramids of the same summaries, "the cat sat" and "a cat sat down". Both put
    "cat sat" of each summary in SCU 1; X makes "down" an SCU of its own (uid 2), Y puts it in
    SCU 1 with the second "cat sat":

    >>> from clusteragree.pyramids.writers import build_pyramid
    >>> S = [("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a cat sat down")]
    >>> x = build_pyramid(S, [("A cat sat", [[(0, "cat sat")], [(1, "cat sat")]]),
    ...                       ("Down", [[(1, "down")]])], path="X")
    >>> y = build_pyramid(S, [("A cat sat", [[(0, "cat sat")], [(1, "cat sat down")]])],
    ...                   path="Y")

    The parts are X's "cat sat", "cat sat" and "down" and Y's "cat sat" and "cat sat down".
    Cutting at all their ends gives "cat sat", "cat sat", the space before "down" (dropped: no
    non-space character) and "down":

    >>> u = span_units([x, y])
    >>> u.labels, [m.tolist() for m in u.members]
    (('cat sat', 'cat sat', 'down'), [[[0, 1], [1, 1], [2, 2]], [[0, 1], [1, 1], [2, 1]]])
    """
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
    its contributors of that SCU has exactly that extent.

    Parameters
    ----------
    pyramids : sequence of Pyramid
        Pyramids of the same model summaries (equal texts).

    Returns
    -------
    Units
        Kind ``"contributors"``: one unit per distinct extent (the sorted ``(start, end)``
        spans of a contributor's parts), numbered in order of first appearance (pyramid, SCU,
        contributor); per pyramid the rows ``(unit index, SCU uid)``.

    Raises
    ------
    InputError
        The texts differ (:func:`check_same_text`).

    References
    ----------
    Passonneau, R. (2006). Measuring agreement on set-valued items (MASI) for semantic and
    pragmatic annotation. Proceedings of LREC 2006, Genoa, Italy. Section 2 and
    Figure 1 (contributors as the spans annotators group into SCUs).

    docs/pyramids.md, "Units and values".

    Examples
    --------
    Two coders' pyramids of the same summaries, "the cat sat" and "a cat sat down". Both put
    "cat sat" of each summary in SCU 1; X makes "down" an SCU of its own (uid 2), Y puts it in
    SCU 1 with the second "cat sat":

    >>> from clusteragree.pyramids.writers import build_pyramid
    >>> S = [("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a cat sat down")]
    >>> x = build_pyramid(S, [("A cat sat", [[(0, "cat sat")], [(1, "cat sat")]]),
    ...                       ("Down", [[(1, "down")]])], path="X")
    >>> y = build_pyramid(S, [("A cat sat", [[(0, "cat sat")], [(1, "cat sat down")]])],
    ...                   path="Y")

    X has the contributors "cat sat", "cat sat" and "down" (units 0, 1, 2); Y shares the first
    and adds "cat sat down" (unit 3):

    >>> u = contributor_units([x, y])
    >>> u.labels, [m.tolist() for m in u.members]
    (('cat sat', 'cat sat', 'down', 'cat sat down'), [[[0, 1], [1, 1], [2, 2]], [[0, 1], [3, 1]]])
    """
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
