"""The vectorised scan of CorefUD CoNLL-U files, for well-formed files.

:func:`corefud_lines` finds, with numpy over a file's bytes, what the CorefUD reader
(:func:`clusteragree.coref.read_corefud`) needs from its lines: the comment lines, the token
lines with their words, and the ``Entity=`` values of the tokens that have one. The reader then
reads the comments and the ``Entity=`` values with the same code as its line-by-line path, in
file order, so mentions, errors and repairs do not depend on the path. A file this scan does not
handle (a line without ten TAB-separated columns, a word id that is neither plain ASCII digits
nor a multiword-token range nor an empty node, a line that starts with a space, whitespace other
than space, TAB and the line ends, CR line ends among LF ones) gives None and is read line by
line, which names the line of any error or notice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..inputs import (
    Bytes,
    Positions,
    ascii_naturals,
    byte_lines,
    decode_ranges,
    line_ends,
    tab_columns,
)

__all__ = ["CorefudLines", "corefud_lines", "entity_value", "entity_values"]

_RANGE = re.compile(r"[0-9]+-[0-9]+")
_EMPTY = re.compile(r"[0-9]+\.[0-9]+")
_ATTRIBUTE = np.frombuffer(b"Entity=", dtype=np.uint8)
_BLOCK = 1 << 24  # bytes searched at a time


@dataclass
class CorefudLines:
    """The lines of a CorefUD file as :func:`corefud_lines` finds them.

    Attributes
    ----------
    comments : list of (int, str)
        Every comment line (starting with ``#``), with its number.
    token_lines : list of int
        The number of every token line (multiword-token ranges left out, empty nodes kept).
    words : list of str
        The FORM of every token.
    entities : list of (int, str)
        ``(token, value)``: the non-empty ``Entity=`` value of each token that has one, the
        token counted among the file's.
    last : int
        The number of the last line.
    """

    comments: list[tuple[int, str]]
    token_lines: list[int]
    words: list[str]
    entities: list[tuple[int, str]]
    last: int


def entity_value(misc: str) -> str | None:
    """The value of the first ``Entity=`` attribute of a MISC cell, or None.

    Examples
    --------
    >>> entity_value("SpaceAfter=No|Entity=(e1-person-1-)"), entity_value("_")
    ('(e1-person-1-)', None)
    """
    return next((a[len("Entity="):] for a in misc.split("|") if a.startswith("Entity=")), None)


def entity_values(buf: Bytes, starts: Positions, ends: Positions) -> list[tuple[int, str]]:
    """``(cell, value)``: what :func:`entity_value` finds in each MISC cell ``[starts, ends)``
    of the UTF-8 bytes ``buf`` (cells in file order, none holding a line feed), for the cells
    where it finds a non-empty value; only those cells are decoded.

    An ``Entity=`` is an attribute when it starts its cell or follows a ``|``; the first in a
    cell is its value, up to the next ``|`` or the end of the cell.

    Examples
    --------
    >>> cells = ["_", "SpaceAfter=No|Entity=(e1-person-1-)|X=1", "XEntity=a|Entity=", "Entity=e2)"]
    >>> buf = np.frombuffer("\\t".join(cells).encode(), dtype=np.uint8)
    >>> ends = np.cumsum([len(c) + 1 for c in cells]) - 1
    >>> entity_values(buf, ends - [len(c) for c in cells], ends)
    [(1, '(e1-person-1-)'), (3, 'e2)')]
    """
    size, top = len(_ATTRIBUTE), len(buf) - len(_ATTRIBUTE)
    found = [np.flatnonzero(buf[a:min(a + _BLOCK, top + 1)] == _ATTRIBUTE[0]) + a
             for a in range(0, top + 1, _BLOCK)]
    at = np.concatenate(found) if found else np.zeros(0, dtype=np.int64)
    for j in range(1, size):  # the candidates that go on with "ntity="
        at = at[buf[at + j] == _ATTRIBUTE[j]]
    cell = np.searchsorted(starts, at, side="right") - 1
    inside = cell >= 0
    at, cell = at[inside], cell[inside]
    inside = at + size <= ends[cell]
    at, cell = at[inside], cell[inside]
    # An attribute starts its cell or follows a "|"; the first one of a cell is its value.
    at_start = (at == starts[cell]) | (buf[np.maximum(at - 1, 0)] == 124)
    at, cell = at[at_start], cell[at_start]
    first = np.ones(len(cell), dtype=bool)
    first[1:] = cell[1:] != cell[:-1]
    at, cell = at[first], cell[first]
    values = decode_ranges(buf, at + size, ends[cell])
    return [(k, v.partition("|")[0] if "|" in v else v)
            for k, v in zip(cell.tolist(), values, strict=True)
            if v and v[0] != "|"]


def corefud_lines(text: str) -> CorefudLines | None:
    """Comment lines, tokens and ``Entity=`` values of a well-formed CorefUD text, or None
    when the text needs the line-by-line reader.

    Parameters
    ----------
    text : str
        The whole decoded file; its lines may end in LF, CRLF or CR.

    Returns
    -------
    CorefudLines or None
        What the line-by-line reading of :func:`clusteragree.coref.read_corefud` finds in the
        same lines, or None.

    References
    ----------
    CorefUD 1.x format (ufal.mff.cuni.cz/corefud); docs/coref.md, "Reading".

    Examples
    --------
    >>> row = "{}\\t{}\\t_\\t_\\t_\\t_\\t_\\t_\\t_\\t{}"
    >>> text = "\\n".join(["# newdoc id = d1", row.format(1, "Mary", "Entity=(e1-person-1-)"),
    ...                    row.format(2, "sang", "_")])
    >>> got = corefud_lines(text)
    >>> got.comments, got.token_lines, got.words, got.entities
    ([(1, '# newdoc id = d1')], [2, 3], ['Mary', 'sang'], [(0, '(e1-person-1-)')])
    >>> corefud_lines("1\\tMary\\n") is None  # two columns: the line-by-line reader says so
    True
    """
    text, mixed, _ = line_ends(text)  # CR line ends (old Mac files) are line ends
    if mixed is not None:
        return None  # CRs among LF line ends: the line-by-line reading reports them
    got = byte_lines(text)
    if got is None or len(got[1]) == 0:
        return None
    buf, starts, ends = got
    del got  # each array goes once used
    head = buf[starts]
    empty = starts == ends
    comment = ~empty & (head == 35)
    spaced = ~empty & ((head == 32) | (head == 9))
    for row in np.flatnonzero(spaced).tolist():  # rare: a line that starts with a space
        if buf[starts[row]:ends[row]].tobytes().strip(b" \t"):
            return None
    rows = np.flatnonzero(~empty & ~comment & ~spaced)
    notes = np.flatnonzero(comment)
    comments = list(zip((notes + 1).tolist(), decode_ranges(buf, starts[notes], ends[notes]),
                        strict=True))
    last = len(starts)
    cols = tab_columns(buf, starts[rows], ends[rows], 10, [0, 1, 9])
    del starts, ends, head, empty, comment, spaced
    if cols is None:
        return None
    (id_s, id_e), (form_s, form_e), (misc_s, misc_e) = cols
    _, plain = ascii_naturals(buf, id_s, id_e)
    special = np.flatnonzero(~plain)
    for row, value in zip(special.tolist(), decode_ranges(buf, id_s[special], id_e[special]),
                          strict=True):
        if _RANGE.fullmatch(value):
            plain[row] = False  # a multiword token: its words follow
            if b"Entity=" in buf[misc_s[row]:misc_e[row]].tobytes():
                return None  # not read: the line-by-line reader reports it
        elif _EMPTY.fullmatch(value):
            plain[row] = True  # an empty node is a token: zeros corefer
        else:
            return None
    rows = rows[plain]
    words = decode_ranges(buf, form_s[plain], form_e[plain], intern=True)
    del form_s, form_e, id_s, id_e
    misc_s, misc_e = misc_s[plain], misc_e[plain]
    entities = entity_values(buf, misc_s, misc_e)
    del buf, misc_s, misc_e  # the bytes, once read
    return CorefudLines(comments, (rows + 1).tolist(), words, entities, last)
