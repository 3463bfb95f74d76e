"""The SCUs of a DUCView file read with regular expressions, where the file is written as
DUCView writes it.

:func:`clusteragree.pyramids.reader.read_ducview` parses the XML with lxml, an element at a
time. On a large pyramid most of that time goes to the ``<scu>``, ``<contributor>`` and
``<part>`` elements. This module reads those elements without the XML parser when they are
written in the one shape DUCView (and :mod:`clusteragree.pyramids.writers`) writes:

* every ``<scu>`` (``<peerscu>``) of a ``<pyramid>`` (``<annotation>``) follows its ``</text>``
  and nothing else stands between them and the closing tag of the parent;
* attributes in DUCView's order (``uid label comment?``; ``label comment?``;
  ``label start end``), in double quotes, with a space between them, and no tab, newline or
  other control character in a value (XML would normalise those); the five predefined entities
  only (no character references);
* every tag on one line; whitespace between tags only;
* every part's label at its offsets, every uid new: the reader's repairs and errors are not
  reproduced here.

Anything else, anywhere in the file (a comment, a processing instruction or a CDATA section
after the first SCU, an entity declaration, a lone carriage return, a declared encoding other
than UTF-8), and the reader parses the whole file with lxml as before. Where this module
reads, the rest of the file (prolog, root, text, regular expression) is still parsed by lxml,
the SCUs' lines replaced by as many empty lines, so that every line number and every error
stays the XML parser's. ``tests/test_pyramids_fast.py`` compares both ways on every real
DUCView file and on random ones.

References
----------
DUCView 1.4 (Columbia University, 2005) and 1.5 (Penn State,
github.com/psunlpgroup/DucView-1.5): the layout they write. W3C, Extensible Markup Language
(XML) 1.0, fifth edition (2008): section 2.11 (end-of-line handling), 3.3.3 (attribute-value
normalization), 4.6 (predefined entities).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..inputs import MAX_INT_DIGITS, objects_in_bulk
from .model import SCU, Contributor, Part

__all__ = ["CHUNK", "Frame", "Run", "fast_frame", "fast_scus"]

_WS = r"[ \t\n]*"
_CHARS = r'[^"<&\x00-\x1f\ufffe\uffff]*'
_VALUE = '"(' + _CHARS + "(?:&(?:amp|lt|gt|quot|apos);" + _CHARS + ')*)"'
_INT = '"([0-9]{1,' + str(MAX_INT_DIGITS) + '})"'
_SCU_OPEN = re.compile(
    _WS + r"<(scu|peerscu) uid=" + _INT + " label=" + _VALUE + "(?: comment=" + _VALUE
    + r")? *(/?)>")
_CONTRIBUTOR = re.compile(_WS + r"<contributor label=" + _VALUE + "(?: comment=" + _VALUE
                          + r")? *>")
_PART = re.compile(_WS + r"<part label=" + _VALUE + " start=" + _INT + " end=" + _INT
                   + r" */>")
#: A contributor of one part, the common case, in one match.
_ONE_PART = re.compile(_CONTRIBUTOR.pattern + _PART.pattern + _WS + "</contributor>")
_CONTRIBUTOR_END = re.compile(_WS + "</contributor>")
_SCU_END = re.compile(_WS + r"</(scu|peerscu)>")
#: Where a run of SCUs begins: right after a ``</text>``.
_RUN = re.compile(r"</text>" + _WS + r"(?=<(?:peer)?scu[ \t\n/>])")
_PARENT_END = re.compile(r"</(pyramid|annotation)>")
_ROOTS = {"pyramid": re.compile(r"<pyramid[ \t\n/>]"),
          "annotation": re.compile(r"<annotation[ \t\n/>]")}
_UNSAFE = (("<![CDATA[", "]]>"), ("<!--", "-->"), ("<?", "?>"))


def _unescape(value: str) -> str:
    if "&" not in value:
        return value
    return (value.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
            .replace("&apos;", "'").replace("&amp;", "&"))


#: Characters of a chunk of SCUs (each chunk is dropped once read, so that memory holds the
#: SCUs read and the chunks to come, not the whole file beside them).
CHUNK = 1 << 20


@dataclass
class Run:
    """The SCUs of one parent element (``pyramid`` or ``annotation``): the text of their
    elements in chunks that end after an SCU's end tag, each with the line it starts on."""

    parent: str
    chunks: list[tuple[str, int]]


@dataclass
class Frame:
    """A file split in two: the XML to parse (the SCUs replaced by as many empty lines) and
    the runs of SCUs."""

    xml: bytes
    runs: list[Run]


def _chunks(text: str, a: int, b: int, line: int) -> list[tuple[str, int]]:
    out = []
    while a < b:
        cut = b
        if b - a > CHUNK:
            ends = [k for k in (text.find("</scu>", a + CHUNK, b),
                                text.find("</peerscu>", a + CHUNK, b)) if k != -1]
            if ends:
                cut = text.index(">", min(ends)) + 1
        out.append((text[a:cut], line))
        line += text.count("\n", a, cut)
        a = cut
    return out


def fast_frame(raw: bytes) -> Frame | None:
    """The file's frame and runs of SCUs, or None when the file is not in DUCView's layout.

    Parameters
    ----------
    raw : bytes
        The file's bytes, as :func:`clusteragree.pyramids.reader._load` gives them.

    Returns
    -------
    Frame or None
        None whenever the layout differs in any way from the one this module reads.

    Examples
    --------
    >>> raw = (b'<pyramid><text><line>a cat</line></text>\\n'
    ...        b'<scu uid="1" label="A"><contributor label="cat">'
    ...        b'<part label="cat" start="2" end="5"/></contributor></scu>\\n</pyramid>')
    >>> frame = fast_frame(raw)
    >>> frame.xml
    b'<pyramid><text><line>a cat</line></text>\\n\\n</pyramid>'
    >>> [(run.parent, run.chunks[0][0][:8], run.chunks[0][1]) for run in frame.runs]
    [('pyramid', '<scu uid', 2)]
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    prolog = text[:200].split("?>", 1)[0]
    if "encoding" in prolog and not re.search(
            r"""encoding\s*=\s*["']utf-?8["']""", prolog, re.IGNORECASE):
        return None
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            return None
    if "<!ENTITY" in text:
        return None
    spans: list[tuple[str, int, int]] = []
    pos = 0
    while True:
        m = _RUN.search(text, pos)
        if m is None:
            break
        end = _PARENT_END.search(text, m.end())
        if end is None:
            return None
        spans.append((end.group(1), m.end(), end.start()))
        pos = end.end()
    if not spans:
        return None
    first = spans[0][1]
    for opening, closing in _UNSAFE:
        if text.find(opening, first) != -1:
            return None
        k = text.rfind(opening, 0, first)
        if k != -1 and not -1 < text.find(closing, k + len(opening)) < first:
            return None
    parents = [tag for tag, _, _ in spans]
    if len(set(parents)) != len(parents) or any(
            len(_ROOTS[tag].findall(text)) != 1 for tag in parents):
        return None
    pieces, at, runs, line = [], 0, [], 1
    for tag, a, b in spans:
        pieces.append(text[at:a])
        line += text.count("\n", at, a)
        runs.append(Run(tag, _chunks(text, a, b, line)))
        newlines = text.count("\n", a, b)
        pieces.append("\n" * newlines)
        line += newlines
        at = b
    pieces.append(text[at:])
    del text
    xml = "".join(pieces)
    del pieces
    if "<scu" in xml or "<peerscu" in xml:
        return None
    return Frame(xml.encode("utf-8"), runs)


def fast_scus(frame: Frame, run: int, index: Any, line_offset: int) -> list[SCU] | None:
    """The SCUs of one run of :func:`fast_frame`, or None when one of them is not in DUCView's
    layout, repeats a uid, or has a part whose label is not at its offsets (the reader's
    general path then reads the file and says so). The run's chunks are dropped as they are
    read.

    Parameters
    ----------
    frame : Frame
        What :func:`fast_frame` gave.
    run : int
        Which run of ``frame.runs``.
    index : clusteragree.pyramids.reader._TextIndex
        The text of the run's parent, as the reader indexed it.
    line_offset : int
        Lines to add to every line (documents the reader dropped before this one).

    Returns
    -------
    list of SCU or None

    Examples
    --------
    >>> from clusteragree.pyramids.reader import _TextIndex
    >>> raw = (b'<pyramid><text><line>a cat</line></text>\\n'
    ...        b'<scu uid="1" label="A"><contributor label="cat">'
    ...        b'<part label="cat" start="2" end="5"/></contributor></scu>\\n</pyramid>')
    >>> fast_scus(fast_frame(raw), 0, _TextIndex("a cat\\n"), 0)[0].contributors[0].parts
    (Part(start=2, end=5, label='cat', line=2),)
    """
    with objects_in_bulk():  # (a large pyramid makes millions of objects and no cycle)
        return _scus(frame, run, index, line_offset)


def _scus(frame: Frame, run: int, index: Any, line_offset: int) -> list[SCU] | None:
    chunks = frame.runs[run].chunks
    scus: list[SCU] = []
    seen: set[int] = set()
    for k, (text, line) in enumerate(chunks):
        chunks[k] = ("", line)  # (dropped as it is read)
        if not _chunk(text, line + line_offset, index, scus, seen, last=k == len(chunks) - 1):
            return None
    return scus


def _chunk(text: str, line: int, index: Any, scus: list[SCU], seen: set[int], last: bool
           ) -> bool:
    """The SCUs of one chunk added to ``scus``; False where the fast way does not read."""
    pos = 0
    words, n = index.text, len(index.text)
    astral = len(index.utf16_starts) > 0
    scu_open, one_part, contributor_open = _SCU_OPEN.match, _ONE_PART.match, _CONTRIBUTOR.match
    part_match, contributor_end, scu_end = _PART.match, _CONTRIBUTOR_END.match, _SCU_END.match
    count = text.count

    def part(label: str, start: int, end: int, at: int) -> Part | None:
        if astral:
            start, end = index.python_offset(start), index.python_offset(end)
        if 0 <= start <= end <= n and words[start:end].replace("\n", "") == label:
            return Part(start, end, label, at)
        return None

    while True:
        m = scu_open(text, pos)
        if m is None:
            break
        tag, uid, label, comment, empty = m.groups()
        line += count("\n", pos, m.end())
        pos = m.end()
        uid = int(uid)
        if uid in seen:
            return False
        seen.add(uid)
        scu_line = line
        contributors = []
        while not empty:
            c = one_part(text, pos)
            if c is not None:
                clabel, ccomment, plabel, start, end = c.groups()
                c_line = line + count("\n", pos, c.start(1))
                plabel = _unescape(plabel)
                p = part(plabel, int(start), int(end), line + count("\n", pos, c.start(3)))
                if p is None:
                    return False
                clabel = _unescape(clabel)
                contributors.append(Contributor(plabel if clabel == plabel else clabel, (p,),
                                                None if ccomment is None else
                                                _unescape(ccomment), c_line))
                line += count("\n", pos, c.end())
                pos = c.end()
                continue
            c = contributor_open(text, pos)
            if c is None:
                break
            clabel, ccomment = c.groups()
            line += count("\n", pos, c.end())
            pos, c_line = c.end(), line
            parts = []
            while (q := part_match(text, pos)) is not None:
                line += count("\n", pos, q.end())
                pos = q.end()
                plabel, start, end = q.groups()
                p = part(_unescape(plabel), int(start), int(end), line)
                if p is None:
                    return False
                parts.append(p)
            e = contributor_end(text, pos)
            if e is None or not parts:
                return False
            line += count("\n", pos, e.end())
            pos = e.end()
            clabel = _unescape(clabel)
            if len(parts) == 1 and parts[0].label == clabel:
                clabel = parts[0].label
            contributors.append(Contributor(clabel, tuple(parts), None if ccomment is None
                                            else _unescape(ccomment), c_line))
        if not empty:
            e = scu_end(text, pos)
            if e is None or e.group(1) != tag:
                return False
            line += count("\n", pos, e.end())
            pos = e.end()
        scus.append(SCU(uid, _unescape(label), tuple(contributors),
                        None if comment is None else _unescape(comment), scu_line))
    rest = text[pos:]
    return not rest if not last else not rest.strip(" \t\n")
