"""Offsets checked, never trusted: which unit a tool's offsets count, found from the text.

Tools count offsets in different units: Python tools (doccano, Prodigy) in code points,
JavaScript and Java tools (Label Studio's front end, INCEpTION) in UTF-16 code units, and a
text can be seen as grapheme clusters (what a person calls a character: an emoji with its
modifiers, a letter with its combining accents). They agree on a text without characters outside
the Basic Multilingual Plane and without combining sequences, and differ after the first such
character. Where an export carries the covered text of a span, :func:`resolve_offsets` checks
each span in the three units and uses the unit in which the spans match:

* every span matches in a unit: that unit (code points first when several do); said once per
  file in the warnings ledger (kind ``note``) when it is not code points;
* a span matches in no unit: a ``mismatch`` notice with its place (``--strict`` refuses it); its
  offsets are read in the file's unit;
* some spans match only in one unit and others only in another: the file is refused (an
  :class:`~clusteragree.errors.InputError`), since no single reading of it is right.

A span whose covered text is not given is read in the unit the other spans of the file show
(code points when none shows one).

References
----------
Unicode Standard Annex #29, Unicode Text Segmentation (extended grapheme clusters: the
``regex`` module's ``\\X``). docs/formats.md, "Offsets".
"""

from __future__ import annotations

import functools
import os
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import InputError, Tally, notify

__all__ = ["UNITS", "UTF16_NOTE", "OffsetCheck", "convert_offsets", "resolve_offsets",
           "resolve_plain", "unit_notice", "utf16_plain", "utf16_positions"]

#: The units, in the order they are preferred when several fit.
UNITS = ("code points", "UTF-16 code units", "grapheme clusters")


@dataclass(frozen=True)
class OffsetCheck:
    """A span to check: its offsets as the tool wrote them, the text it says it covers, and its
    place in the export (for messages)."""

    start: int
    end: int
    covered: str | None
    line: int | None = None
    what: str = "span"


class _Positions:
    """The code-point position of each offset of a unit, for one text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._pairs: list[int] | None = None
        self._graphemes: list[int] | None = None

    def pairs(self) -> list[int]:
        """The UTF-16 offset where each character outside the BMP (a surrogate pair) ends."""
        if self._pairs is None:
            self._pairs = [m.start() + j + 2 for j, m in enumerate(_NON_BMP.finditer(self.text))]
        return self._pairs

    def graphemes(self) -> list[int]:
        """Code-point index of each grapheme cluster boundary."""
        if self._graphemes is None:
            import regex
            self._graphemes = [0] + [m.end() for m in regex.finditer(r"\X", self.text)]
        return self._graphemes

    def to_code_points(self, offset: int, unit: str) -> int | None:
        """The code-point position of ``offset`` counted in ``unit``; None when it is not a
        boundary of the text in that unit."""
        if offset < 0:
            return None
        if unit == UNITS[0]:
            return offset if offset <= len(self.text) else None
        if unit == UNITS[1]:
            # before it, k pairs end: each counts one unit more than one code point
            ends = self.pairs()
            k = bisect_right(ends, offset)
            if k < len(ends) and offset == ends[k] - 1:
                return None  # between the two halves of a surrogate pair
            return offset - k if offset - k <= len(self.text) else None
        bounds = self.graphemes()
        return bounds[offset] if offset < len(bounds) else None


#: A character outside the Basic Multilingual Plane (two UTF-16 code units).
_NON_BMP = re.compile("[\U00010000-\U0010FFFF]")
#: The characters that can join a grapheme cluster with a neighbour (UAX #29 rules GB3, GB6
#: to GB9b, GB11 to GB13: CR before LF, Hangul jamo and syllables, Extend, SpacingMark, ZWJ,
#: Prepend, regional indicators): a text without any has one cluster per code point.
_JOINERS = (r"[\r\p{GCB=Extend}\p{GCB=SpacingMark}\p{GCB=ZWJ}\p{GCB=Prepend}\p{GCB=L}"
            r"\p{GCB=V}\p{GCB=T}\p{GCB=LV}\p{GCB=LVT}\p{GCB=Regional_Indicator}]")


@functools.lru_cache(maxsize=16)
def _positions(text: str) -> _Positions:
    """One text's positions, kept for the next calls on it (the annotators of one document)."""
    return _Positions(text)


@functools.lru_cache(maxsize=16)
def _needs_check(text: str) -> bool:
    """Whether the three units can differ on this text (a character outside the BMP, or one
    that joins a grapheme cluster with the one before it)."""
    if text.isascii():
        return "\r\n" in text  # CR LF is one grapheme cluster
    if _NON_BMP.search(text):
        return True
    import regex
    if not regex.search(_JOINERS, text):
        return False
    return sum(1 for _ in regex.finditer(r"\X", text)) != len(text)


def _matches(positions: _Positions, check: OffsetCheck, unit: str) -> tuple[int, int] | None:
    s = positions.to_code_points(check.start, unit)
    e = positions.to_code_points(check.end, unit)
    if s is None or e is None or e < s:
        return None
    if check.covered is not None and positions.text[s:e] != check.covered:
        return None
    return s, e


def resolve_offsets(text: str, checks: Sequence[OffsetCheck], *, path: str | os.PathLike[str],
                    document: str = "", tally: Tally | None = None
                    ) -> tuple[str, list[tuple[int, int] | None]]:
    """The unit of a document's offsets, and every span's offsets in code points.

    Parameters
    ----------
    text : str
        The document's text.
    checks : sequence of OffsetCheck
        The spans as written.
    path : str or os.PathLike
        The export (for notices and errors).
    document : str, default=""
        The document's name (for messages).
    tally : Tally, optional
        The file's tally: the unit, when it is not code points, is counted there (one line per
        file and unit in the ledger, with the number of documents) instead of said for this
        document alone.

    Returns
    -------
    unit : str
        One of :data:`UNITS`.
    offsets : list of (int, int) or None
        Code-point offsets of each span; None for a span out of the text in that unit (a
        ``mismatch`` notice is given).

    Raises
    ------
    InputError
        When spans match in different units only (the file mixes units).

    Examples
    --------
    An emoji outside the BMP counts two UTF-16 units: a tool writing "ok" at 3-5 counts
    UTF-16 units.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True):
    ...     resolve_offsets("\\N{GRINNING FACE} ok", [OffsetCheck(3, 5, "ok")], path="x.json")
    ('UTF-16 code units', [(2, 4)])
    >>> resolve_offsets("plain ok", [OffsetCheck(6, 8, "ok")], path="x.json")
    ('code points', [(6, 8)])
    """
    where = f" of document {document!r}" if document else ""
    positions = _positions(text)
    if not _needs_check(text):
        units: Sequence[str] = UNITS[:1]
    else:
        units = UNITS
    covered = [c for c in checks if c.covered is not None]
    # the first unit every span with a covered text fits (the same as the first unit of the
    # full reckoning below whenever one exists; the others are not computed then)
    first = next((u for u in units if all(_matches(positions, c, u) is not None
                                          for c in covered)), None)
    fits: list[tuple[str, ...]] = []
    if first is None:
        for check in checks:
            fits.append(tuple(u for u in units if _matches(positions, check, u) is not None
                              and check.covered is not None))
    # the units every checked span fits; else the file mixes units or some spans fit none
    checked = [f for f, c in zip(fits, checks, strict=False) if c.covered is not None and f]
    common = [first] if first is not None else \
        [u for u in units if all(u in f for f in checked)]
    if common:
        unit = common[0]
    elif checked:
        # the span that fits the fewest units, and one that does not fit the first of them
        i = min((k for k, c in enumerate(checks) if c.covered is not None and fits[k]),
                key=lambda k: len(fits[k]))
        j = next(k for k, c in enumerate(checks)
                 if c.covered is not None and fits[k] and fits[i][0] not in fits[k])
        raise InputError(
            f"the offsets{where} mix units: the {checks[i].what} at line {checks[i].line} "
            f"matches its text in {' or '.join(fits[i])} only, the {checks[j].what} at line "
            f"{checks[j].line} in {' or '.join(fits[j])} only; export the document again "
            "from the tool, or correct the offsets", path, checks[i].line)
    else:
        unit = UNITS[0]
    if unit != UNITS[0] and tally is not None:
        tally.add("note", _unit_note(unit),
                  next((c.line for c in checks if c.line is not None), None))
    elif unit != UNITS[0]:
        unit_notice(unit, path=path, document=document)
    out: list[tuple[int, int] | None] = []
    for check in checks:
        found = _matches(positions, OffsetCheck(check.start, check.end, None), unit)
        if found is not None and check.covered is not None and \
                text[found[0]:found[1]] != check.covered:
            notify("mismatch", f"{check.what} at {check.start}-{check.end}{where} covers "
                   f"{text[found[0]:found[1]]!r} in the text but the export says "
                   f"{check.covered!r} (no unit of offsets matches); read at its offsets",
                   path=path, line=check.line)
        elif found is None:
            notify("skipped", f"{check.what} at {check.start}-{check.end}{where} is outside "
                   f"the text ({len(text)} code points) in {unit}; left out",
                   path=path, line=check.line)
        out.append(found)
    return unit, out


def unit_notice(unit: str, *, path: str | os.PathLike[str], document: str = "") -> None:
    """The ``note`` of :func:`resolve_offsets` (without a tally) that a document's offsets
    count ``unit``, said once per file, document and unit (a reader that finds the unit by
    other means says it with the same words)."""
    where = f" of document {document!r}" if document else ""
    notify("note", f"offsets{where} are read as {unit} (the covered texts match in that "
           "unit, not in code points)", path=path, once=("offset unit", os.fspath(path),
                                                          document, unit))


def _unit_note(unit: str) -> str:
    return (f"documents whose offsets are read as {unit} (the covered texts match in that "
            "unit, not in code points)")


def resolve_plain(text: str, spans: Sequence[tuple[int, int, str]], tally: Tally,
                  line: int | None) -> list[tuple[int, int]] | None:
    """:func:`resolve_offsets` for the common case, at a fraction of its cost: every span gives
    its covered text (``(start, end, covered)``) and they all match in code points, or all in
    UTF-16 code units on a text with characters outside the BMP (the ``note`` of that unit is
    counted in ``tally`` at ``line``, as :func:`resolve_offsets` counts it). None in any other
    case, with nothing counted: :func:`resolve_offsets` then decides.

    Examples
    --------
    >>> from clusteragree.errors import Tally
    >>> resolve_plain("plain ok", [(6, 8, "ok")], Tally("x.json"), 1)
    [(6, 8)]
    >>> resolve_plain("plain ok", [(6, 8, "no")], Tally("x.json"), 1) is None
    True
    """
    size = len(text)
    for s, e, covered in spans:
        if not (0 <= s <= e <= size and text[s:e] == covered):
            break
    else:
        return [(s, e) for s, e, _ in spans]
    out = utf16_plain(text, spans)
    if out is not None:
        tally.add("note", UTF16_NOTE, line)
    return out


#: The ``note`` counted by :func:`resolve_plain` (and :func:`resolve_offsets`) for the
#: documents whose offsets are read as UTF-16 code units.
UTF16_NOTE = _unit_note(UNITS[1])


def utf16_plain(text: str, spans: Sequence[tuple[int, int, str]]
                ) -> list[tuple[int, int]] | None:
    """The second half of :func:`resolve_plain`: every span's offsets read as UTF-16 code
    units on a text with characters outside the BMP, each covering its text, as code points;
    None where one does not (or the text has no such character), with nothing counted (the
    caller counts :data:`UTF16_NOTE` when it uses them).

    Examples
    --------
    >>> utf16_plain("\N{GRINNING FACE} ok", [(3, 5, "ok")])
    [(2, 4)]
    >>> utf16_plain("\N{GRINNING FACE} ok", [(2, 4, "ok")]) is None
    True
    """
    if text.isascii() or _NON_BMP.search(text) is None:
        return None
    # UTF-16 offsets as _Positions.to_code_points converts them: k pairs end before an
    # offset, which must not fall between the two halves of one
    size = len(text)
    ends = _positions(text).pairs()
    count = len(ends)
    out: list[tuple[int, int]] = []
    for s, e, covered in spans:
        if s < 0 or e < s:
            return None
        k = bisect_right(ends, s)
        m = bisect_right(ends, e, k)
        if (k < count and s == ends[k] - 1) or (m < count and e == ends[m] - 1):
            return None
        a, b = s - k, e - m
        if b > size or b < a or text[a:b] != covered:
            return None
        out.append((a, b))
    return out


def utf16_positions(text: str) -> list[int | None] | None:
    """The code-point position of each UTF-16 offset of ``text`` (None between the two halves
    of a surrogate pair), as :meth:`_Positions.to_code_points` gives them one by one; None for
    a text without characters outside the BMP (the two units agree). Made once per text, it
    converts a span with two look-ups (a reader of several annotators of one text makes it
    once for all of them).

    Examples
    --------
    >>> utf16_positions("\N{GRINNING FACE} ok")
    [0, None, 1, 2, 3, 4]
    >>> utf16_positions("plain") is None
    True
    """
    if text.isascii():
        return None
    out: list[int | None] = []
    done = 0
    for found in _NON_BMP.finditer(text):
        at = found.start()
        out.extend(range(done, at + 1))  # up to the start of the pair
        out.append(None)  # between its halves
        done = at + 1
    if not out:
        return None
    out.extend(range(done, len(text) + 1))
    return out


def convert_offsets(text: str, offsets: Sequence[tuple[int, int]], unit: str
                    ) -> list[tuple[int, int] | None]:
    """Offsets counted in ``unit`` as code points of ``text`` (None where one is not a
    boundary in that unit).

    Examples
    --------
    >>> convert_offsets("\\N{GRINNING FACE} ok", [(3, 5)], "UTF-16 code units")
    [(2, 4)]
    """
    positions = _positions(text)
    out: list[tuple[int, int] | None] = []
    for s, e in offsets:
        a, b = positions.to_code_points(s, unit), positions.to_code_points(e, unit)
        out.append(None if a is None or b is None or b < a else (a, b))
    return out
