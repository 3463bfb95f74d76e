"""DUCView pyramid (``.pyr``) and peer annotation (``.pan``) files.

Reads the XML of DUCView 1.4 and 1.5 and of AutoPan (lxml, with line numbers), rebuilds the text
exactly as DUCView does (every ``<line>`` followed by ``"\\n"``; offsets are 0-based, end
exclusive, in UTF-16 units), finds the model summaries with the file's own regular expression
(falling back to the NIST header pattern when it is missing or finds the wrong number), and checks
every part's label against the text.

Repairs, each counted in ``Pyramid.repairs`` and refused with ``strict=True``:

* a part whose label is not at its offsets (shifted offsets, start after end, offsets past the
  text) is re-anchored to the nearest occurrence of its label within ``window`` characters,
  when that occurrence is unique;
* a file with several XML documents (DUCView 1.5 appends when it saves) keeps the last one;
* a file that is not UTF-8 (and declares no encoding) is decoded as cp1252, else latin-1,
  unless ``encoding`` names its encoding;
* markup inside a ``<line>`` (which DUCView never writes) is read as its text.

Every repair is reported through :func:`clusteragree.errors.notify` (kind ``repaired``, with the
file, its first line and a count) and refused under strict reading. The file's own
``startDocumentRegEx`` is user data: it is matched with a time limit, and one that does not
compile is reported (``ignored``) and the summaries found with the NIST header patterns.

PyrEval's ``.pyr`` (root ``<Pyramid>``, no text or offsets) and its readable TSV are recognised
and refused with a message saying what they are. Every error names the file and line.
"""

from __future__ import annotations

import io
import os
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import numpy as np
import regex
from lxml import etree

from ..errors import InputError, ParameterTypeError, Tally, is_strict, notify
from ..errors import strict as errors_strict
from ..inputs import MAX_INT_DIGITS, check_encoding, parse_int, read_bytes
from .model import SCU, Contributor, Part, PeerAnnotation, Pyramid, Summary
from .reader_fast import Frame, fast_frame, fast_scus

__all__ = ["HEADER_PATTERN", "read_ducview", "read_pan", "read_pyramid"]

#: NIST DUC 2005-2007 model headers: dashes, the model id, dashes.
HEADER_PATTERN = re.compile(
    r"(?m)^-+[ \t]*\n[ \t]*D\d+(?:-[A-Z])?\.M\.\d+\.[A-Z]\.[A-Z][ \t]*\n-+[ \t]*\n"
)
#: DUCView 1.5 "new pyramid from folder" headers.
FOLDER_HEADER_PATTERN = re.compile(r"(?m)^-----+ <.*> -----+[ \t]*\n")
_DASHES_OR_BLANK = re.compile(r"[ \t]*-*[ \t]*\Z")
_ID = re.compile(r"D\d+\S*|<[^>]*>")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
#: Seconds a stored startDocumentRegEx may take on a text of 10 million characters (at least 2 s).
REGEX_SECONDS_PER_10M = 5.0


class _Repairs(Counter[str]):
    """Repairs counted by kind, with the first line of each."""

    def __init__(self) -> None:
        super().__init__()
        self.first: dict[str, int | None] = {}
        #: What the first repair of each kind was, in detail (said when strict refuses it).
        self.detail: dict[str, str] = {}

    def add(self, what: str, line: int | None, count: int = 1, detail: str = "") -> None:
        self[what] += count
        self.first.setdefault(what, line)
        if detail:
            self.detail.setdefault(what, detail)

    def merge(self, other: _Repairs) -> None:
        for what, n in other.items():
            self.add(what, other.first.get(what), n, other.detail.get(what, ""))


def _fail(message: str, path: str, line: int | None = None) -> InputError:
    return InputError(message, path=path, line=line)


def _load(path: str | os.PathLike[str], encoding: str | None
          ) -> tuple[bytes, str, int, _Repairs]:
    """The XML bytes to parse, the path, the line offset (documents dropped before), repairs.

    The bytes are the file's own (the same object :func:`read_bytes` gave) unless a repair
    or an encoding changed them."""
    if not isinstance(path, (str, os.PathLike)):
        raise ParameterTypeError(f"path must be a file path (str or PathLike). Got "
                                 f"{type(path).__name__}.")
    name = os.fspath(path)
    codec = check_encoding(encoding)
    repairs = _Repairs()
    raw = read_bytes(name)
    if not raw.strip():
        raise _fail("empty file; expected DUCView XML (<pyramid> or <peerAnnotation>)", name, 1)
    if raw.lstrip().startswith(b"SCU\t"):
        raise _fail(
            "this is PyrEval's readable pyramid (tab-separated SCU lines), not a DUCView file; "
            "clusteragree needs the DUCView .pyr with the summaries' text and offsets", name, 1)
    offset = 0
    decls = [m.start() for m in re.finditer(rb"<\?xml", raw)]
    if len(decls) > 1:
        offset = raw[: decls[-1]].count(b"\n")
        raw = raw[decls[-1]:]
        repairs.add("earlier XML documents dropped (DUCView 1.5 appends on save)", 1,
                    len(decls) - 1)
    prolog = raw[:200].split(b"?>", 1)[0]
    if codec is not None:
        try:
            text = raw.decode(codec)
        except UnicodeDecodeError as err:
            line = raw[: err.start].count(b"\n") + 1 + offset
            raise _fail(f"byte 0x{raw[err.start]:02x} is not {codec}; is this the file's "
                        "encoding?", name, line) from None
        raw = _without_declared_encoding(text).encode("utf-8")
    elif b"encoding" not in prolog:
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as err:
            line = raw[: err.start].count(b"\n") + 1 + offset
            for fallback in ("cp1252", "latin-1"):
                try:
                    text = raw.decode(fallback)
                    break
                except UnicodeDecodeError:
                    continue
            repairs.add(f"decoded as {fallback}, not UTF-8 (first byte 0x{raw[err.start]:02x}; "
                        "--encoding names the encoding)", line)
            raw = text.encode("utf-8")
    return raw, name, offset, repairs


def _without_declared_encoding(text: str) -> str:
    """The text with the prolog's encoding declaration removed (it is decoded already)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return re.sub(r"\A(<\?xml[^>]*?)\s+encoding\s*=\s*(['\"])[^'\"]*\2", r"\1", text, count=1)


class _TextIndex:
    """The text, and a newline-free view of it for finding labels (labels have no newlines).

    Positions are mapped with sorted arrays (newlines; UTF-16 starts of astral characters),
    so the index costs a few bytes per line, not per character.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.flat = text.replace("\n", "")
        nl = np.fromiter((m.start() for m in re.finditer("\n", text)), dtype=np.int64)
        self.newlines = nl
        self.gaps = nl - np.arange(len(nl), dtype=np.int64)  # flat position of each newline
        astral = np.fromiter((m.start() for m in _ASTRAL.finditer(text)), dtype=np.int64)
        self.utf16_starts = astral + np.arange(len(astral), dtype=np.int64)
        self.utf16_len = len(text) + len(astral)

    def python_offset(self, pos: int) -> int:
        """The Python index of a UTF-16 offset (DUCView counts UTF-16 units)."""
        if not len(self.utf16_starts) or not 0 <= pos <= self.utf16_len:
            return pos
        return pos - int(np.searchsorted(self.utf16_starts, pos, side="left"))

    def _to_text(self, k: int) -> int:
        """Index in the text of the ``k``-th character that is not a newline."""
        return k + int(np.searchsorted(self.gaps, k, side="right"))

    def label_at(self, start: int, end: int) -> str:
        return self.text[start:end].replace("\n", "")

    def near(self, label: str, start: int, window: int) -> tuple[int, int] | str | None:
        """Nearest occurrence of ``label`` around ``start``; ``"ambiguous"`` on a tie."""
        if not label or not self.flat:
            return None
        lo = max(0, start - window)
        flat_lo = lo - int(np.searchsorted(self.newlines, lo, side="left"))
        if flat_lo >= len(self.flat) or self._to_text(flat_lo) > min(len(self.text),
                                                                     start + window):
            return None
        found: list[tuple[int, int, int]] = []
        pos = self.flat.find(label, flat_lo)
        while pos != -1:
            s = self._to_text(pos)
            if s > start + window:
                break
            e = self._to_text(pos + len(label) - 1) + 1
            found.append((abs(s - start), s, e))
            pos = self.flat.find(label, pos + 1)
        if not found:
            return None
        found.sort()
        if len(found) > 1 and found[1][0] == found[0][0] and found[1][1] != found[0][1]:
            return "ambiguous"
        return found[0][1], found[0][2]


def _int(el: Any, attr: str, path: str, offset: int) -> int:
    value = el.get(attr)
    if value is not None and value.isascii() and value.isdigit() and \
            len(value) <= MAX_INT_DIGITS:
        return int(value)  # (what parse_int gives, without building its message)
    if value is None:
        raise _fail(f"<{el.tag}> has no {attr} attribute", path, el.sourceline + offset)
    return parse_int(value, what=f"<{el.tag}> {attr}", path=path, line=el.sourceline + offset)


def _parts(el: Any, index: _TextIndex, path: str, offset: int, window: int,
           repairs: _Repairs) -> tuple[Part, ...]:
    parts = []
    text, n, astral = index.text, len(index.text), len(index.utf16_starts) > 0
    for p in el.findall("part"):
        line = p.sourceline + offset
        label = p.get("label")
        if label is None:
            raise _fail("<part> has no label attribute", path, line)
        start = _int(p, "start", path, offset)
        end = _int(p, "end", path, offset)
        if astral:  # (else the offsets are the Python indices)
            start, end = index.python_offset(start), index.python_offset(end)
        if 0 <= start <= end <= n and text[start:end].replace("\n", "") == label:
            parts.append(Part(start, end, label, line))
            continue
        if not label:
            raise _fail(f"part at {start}-{end} has an empty label", path, line)
        if start > end:
            kind = "start after end"
        elif start < 0 or end > n:
            kind = "offsets outside the text"
        else:
            kind = "label not at its offsets"
        where = f"part {label!r} at {start}-{end}: {kind}"
        if start <= end and start >= 0 and end <= n:
            where += f" (the text there is {index.label_at(start, end)!r})"
        found = index.near(label, min(max(start, 0), n), window)
        if found == "ambiguous":
            raise _fail(f"{where}; the label occurs twice at the same distance, so it cannot be "
                        "re-anchored", path, line)
        if found is None:
            raise _fail(f"{where}, and the label does not occur within {window} characters; "
                        "is this the text that was annotated?", path, line)
        assert isinstance(found, tuple)
        repairs.add(f"part re-anchored ({kind})", line,
                    detail=f"{where}; the label occurs at {found[0]}-{found[1]}")
        parts.append(Part(found[0], found[1], label, line))
    return tuple(parts)


def _scu(s: Any, tag: str, index: _TextIndex, path: str, offset: int,
         window: int, repairs: _Repairs, seen: dict[int, int]) -> SCU:
    """One ``<scu>`` (or ``<peerscu>``) element; ``seen`` maps the uids read so far to lines."""
    line = s.sourceline + offset
    uid = _int(s, "uid", path, offset)
    if uid in seen:
        raise _fail(f"<{tag} uid=\"{uid}\"> repeats the uid of line {seen[uid]}; every "
                    "SCU needs its own uid (DUCView numbers them): renumber one", path, line)
    seen[uid] = line
    label = s.get("label")
    if label is None:
        raise _fail(f"<{tag} uid=\"{uid}\"> has no label attribute", path, line)
    contributors = []
    for c in s.iterfind("contributor"):
        parts = _parts(c, index, path, offset, window, repairs)
        if not parts:
            raise _fail(f"contributor {c.get('label')!r} of SCU {uid} has no part", path,
                        c.sourceline + offset)
        clabel = c.get("label", "")
        if len(parts) == 1 and parts[0].label == clabel:  # one string for both
            clabel = parts[0].label
        contributors.append(Contributor(clabel, parts, c.get("comment"),
                                        c.sourceline + offset))
    return SCU(uid, label, tuple(contributors), s.get("comment"), line)


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Move ``start`` past, and ``end`` before, whole lines that are blank or only dashes."""
    while start < end:
        nl = text.find("\n", start, end)
        stop = end if nl == -1 else nl + 1
        if not _DASHES_OR_BLANK.match(text[start:stop].rstrip("\n")):
            break
        start = stop
    while end > start:
        nl = text.rfind("\n", start, end - 1)
        first = start if nl == -1 else nl + 1
        if not _DASHES_OR_BLANK.match(text[first:end].rstrip("\n")):
            break
        end = first
    return start, end


def _stored_matches(text: str, pattern: str, path: str, line: int | None
                    ) -> list[Any] | None:
    """Matches of a file's own startDocumentRegEx, under a time limit; None if unusable."""
    seconds = max(2.0, REGEX_SECONDS_PER_10M * len(text) / 1e7)
    try:
        compiled = regex.compile(pattern)
    except (regex.error, OverflowError, ValueError, RecursionError, MemoryError) as err:
        notify("ignored", f"startDocumentRegEx {pattern[:60]!r} does not compile ({err}); the "
               "summaries were found without it", path=path, line=line)
        return None
    try:
        return list(compiled.finditer(text, timeout=seconds))
    except TimeoutError:
        raise _fail(f"startDocumentRegEx {pattern[:60]!r} did not finish within {seconds:.0f} s "
                    "(it backtracks catastrophically, e.g. nested repetition such as (-+)+); "
                    "fix or remove the <startDocumentRegEx> element", path, line) from None
    except (RecursionError, MemoryError, OverflowError) as err:
        raise _fail(f"startDocumentRegEx {pattern[:60]!r} cannot be matched ({err}); fix or "
                    "remove the <startDocumentRegEx> element", path, line) from None


def _summaries(text: str, pattern: str | None, path: str = "", line: int | None = None
               ) -> tuple[tuple[Summary, ...], str]:
    preamble = re.match(r"#(\d{1,9})\n", text)
    expected = int(preamble.group(1)) if preamble else None
    candidates: list[tuple[str, list[Any]]] = []
    if pattern:
        stored = _stored_matches(text, pattern, path, line)
        if stored is not None:
            candidates.append(("stored regex", stored))
    candidates.append(("header pattern", list(HEADER_PATTERN.finditer(text))))
    candidates.append(("folder header pattern", list(FOLDER_HEADER_PATTERN.finditer(text))))
    how, matches = "whole text", []
    for name, found in candidates:
        found = [m for m in found if m.end() > m.start()]
        if found and (expected is None or len(found) == expected):
            how, matches = name, found
            break
    else:
        start = preamble.end() if preamble else 0
        body = _trim(text, start, len(text))
        return (Summary("summary1", (start, start), body),), "whole text"
    out = []
    for i, m in enumerate(matches):
        nxt = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        body = _trim(text, m.end(), nxt)
        ident = _ID.search(text, m.start(), body[0])
        name = ident.group(0).strip("<> ") if ident else f"summary{i + 1}"
        out.append(Summary(name, (m.start(), body[0]), body))
    return tuple(out), how


class _Part:
    """What has been read of one ``<pyramid>`` or ``<annotation>`` element so far."""

    def __init__(self, tag: str, line: int) -> None:
        self.tag, self.line = tag, line
        self.pattern: str | None = None
        self.pattern_line: int | None = None
        self.text: str | None = None
        self.index: _TextIndex | None = None
        self.scus: list[SCU] = []
        self.seen: dict[int, int] = {}


_PARSE = dict(events=("start", "end"), resolve_entities=False, no_network=True, load_dtd=False,
              huge_tree=True, remove_comments=True, remove_pis=True)
#: The elements :func:`_walk` reads (the others are read with them, or ignored).
_READ = ("pyramid", "peerAnnotation", "annotation", "text", "scu", "peerscu",
         "startDocumentRegEx")


def _events(handle: Any) -> Iterator[tuple[str, Any]]:
    """The events :func:`_walk` reads: the start of the root, from a parse that stops there
    when the root is not one of :data:`_READ` (so that it is refused before anything after it
    is parsed, as when every element had events), then those of the elements of
    :data:`_READ` (the lines, contributors and parts are read with their text or SCU)."""
    start = handle.tell()
    for _, el in etree.iterparse(handle, **{**_PARSE, "events": ("start",)}):
        if el.tag not in _READ:
            yield "start", el  # (refused by the caller)
            return
        break
    handle.seek(start)
    yield from etree.iterparse(handle, tag=_READ, **_PARSE)


def _walk(source: bytes | str, name: str, offset: int, window: int,
          repairs: _Repairs) -> tuple[str, dict[str, _Part]]:
    """Stream the XML (bytes, or the file named ``source``, read a block at a time): each SCU
    is read as soon as it ends, then dropped from the tree, so memory holds the text and the
    SCUs read, not the whole document."""
    root_tag = ""
    parts: dict[str, _Part] = {}
    stack: list[_Part] = []
    elements: list[Any] = []
    handle = io.BytesIO(source) if isinstance(source, bytes) else open(source, "rb")  # noqa: SIM115
    try:
        for event, el in _events(handle):
            tag = el.tag if isinstance(el.tag, str) else ""
            if event == "start":
                if not root_tag:
                    root_tag = tag
                    line = (el.sourceline or 1) + offset
                    if tag == "Pyramid":
                        raise _fail("this is a PyrEval pyramid (root <Pyramid>, SCUs without "
                                    "text or offsets), not a DUCView .pyr; clusteragree needs "
                                    "DUCView's format", name, line)
                    if tag not in ("pyramid", "peerAnnotation"):
                        raise _fail(f"the root element is <{tag}>; expected <pyramid> (.pyr) or "
                                    "<peerAnnotation> (.pan) as DUCView writes them", name, line)
                parent = el.getparent()
                top = parent is None if root_tag == "pyramid" else (
                    parent is not None and parent.getparent() is None)
                if tag in ("pyramid", "annotation") and top:
                    if tag in parts:
                        raise _fail(f"a second <{tag}> element", name, el.sourceline + offset)
                    parts[tag] = _Part(tag, el.sourceline + offset)
                    stack.append(parts[tag])
                    elements.append(el)
                continue
            if elements and el is elements[-1]:
                stack.pop()
                elements.pop()
                continue
            current = stack[-1] if stack else None
            if current is None:
                continue
            parent = el.getparent()
            if parent is None or parent.tag != current.tag:
                continue  # inner elements are read with their SCU or text
            if tag in ("startDocumentRegEx", "text") and (
                    current.pattern_line if tag == "startDocumentRegEx" else current.index
            ) is not None:  # which of the two would be meant cannot be told
                raise _fail(f"a second <{tag}> element in <{current.tag}>: DUCView writes one; "
                            "keep the right one and delete the other", name,
                            el.sourceline + offset)
            if tag == "startDocumentRegEx":
                current.pattern = el.text
                current.pattern_line = el.sourceline + offset
            elif tag == "text":
                current.text = _line_text(el, name, offset, repairs)
                current.index = _TextIndex(current.text)
                el.clear()
            elif tag in ("scu", "peerscu"):
                if current.index is None:
                    raise _fail(f"<{current.tag}> has no <text> element before its <{tag}> "
                                "elements: a DUCView file stores the text there, one <line> "
                                "per line, before the SCUs", name, current.line)
                current.scus.append(_scu(el, tag, current.index, name, offset, window,
                                         repairs, current.seen))
                el.clear()
                while el.getprevious() is not None:
                    del parent[0]
    except InputError:
        raise
    except etree.XMLSyntaxError as err:
        raise _fail(f"not well-formed XML: {err.msg}", name, (err.lineno or 1) + offset) from None
    except (ValueError, LookupError) as err:  # e.g. an encoding lxml does not know
        raise _fail(f"cannot read the XML: {err}", name, 1) from None
    except OSError as err:  # the file went away between the two readings
        raise _fail(f"cannot read the file: {err.strerror}", name) from None
    finally:
        handle.close()
    if not root_tag:
        raise _fail("no XML element in the file", name, 1)
    return root_tag, parts


def _walk_fast(frame: Frame, name: str, offset: int, window: int, repairs: _Repairs
               ) -> tuple[str, dict[str, _Part], _Repairs] | None:
    """:func:`_walk` of a file's :class:`~clusteragree.pyramids.reader_fast.Frame`, its
    SCUs read by :mod:`~clusteragree.pyramids.reader_fast` and the rest by lxml; None (nothing
    reported) where that module does not read the SCUs, or where the rest is refused (the
    general path then says why, as it would have)."""
    trial = _Repairs()
    trial.merge(repairs)
    try:
        root_tag, parts = _walk(frame.xml, name, offset, window, trial)
    except InputError:
        return None
    frame.xml = b""  # (parsed)
    for k, run in enumerate(frame.runs):
        part = parts.get(run.parent)
        if part is None or part.index is None or part.scus:
            return None
        scus = fast_scus(frame, k, part.index, offset)
        if scus is None:
            return None
        part.scus = scus
    return root_tag, parts, trial


def _line_text(text_el: Any, path: str, offset: int, repairs: _Repairs) -> str:
    pieces: list[str] = []
    for line in text_el.iterfind("line"):
        pieces.append(line.text or "")
        for child in line:  # DUCView never writes markup inside a line: read it as text
            if isinstance(child, etree._Entity):
                pieces.append(child.text or "")
                what = "an entity reference inside <line> kept as written"
            else:
                pieces.append("".join(child.itertext()))
                what = f"markup inside <line> (<{child.tag}>) read as its text"
            repairs.add(what, child.sourceline + offset if child.sourceline else None)
            pieces.append(child.tail or "")
        pieces.append("\n")
    return "".join(pieces)


def _pyramid(part: _Part, path: str) -> tuple[Pyramid, _Repairs]:
    if part.text is None:
        raise _fail(f"<{part.tag}> has no <text> element: a DUCView file stores the summaries' "
                    "text there, one <line> per line", path, part.line)
    summaries, how = _summaries(part.text, part.pattern, path, part.pattern_line)
    scus = tuple(part.scus)
    pyramid = Pyramid(part.text, summaries, scus, path, part.pattern, how)
    notes = _Repairs()
    starts = [s.header[0] for s in summaries]  # (Pyramid.summary_at, inlined)
    for scu in scus:
        first: set[int] = set()  # the summary of each contributor's first part (-1: none)
        twice = False
        for c in scu.contributors:
            parts = c.parts
            if len(parts) == 1:
                at = bisect_right(starts, parts[0].start)
            else:
                every = {bisect_right(starts, p.start) for p in parts}
                if len(every) > 1:
                    notes.add("contributors with parts in two summaries", c.line)
                at = bisect_right(starts, min(p.start for p in parts))
            if at in first:
                twice = True
            first.add(at)
        if twice:
            notes.add("SCUs with two contributors from one summary", scu.line)
    return pyramid, notes


def _report(path: str, repairs: _Repairs, notes: _Repairs | None = None,
            strict: bool = False) -> None:
    """Every repair and note of a file, once, with its first line and count; with ``strict``
    (or under :func:`~clusteragree.errors.strict`) every repair reaches the ledger and the
    first is refused, so that one run names every repair the file needs."""
    tally = Tally(path)
    strict = strict or is_strict()
    for what, n in repairs.items():  # strict reading says the first in detail
        detail = repairs.detail.get(what) if strict else None
        tally.add("repaired", f"{what}, first {detail}" if detail else what,
                  repairs.first.get(what), n)
    for what, n in (notes or {}).items():
        line = notes.first.get(what) if notes is not None else None
        tally.add("note", f"{what} (kept as annotated)", line, n)
    with errors_strict(strict):
        tally.report()


def read_ducview(
    path: str | os.PathLike[str], *, strict: bool = False, window: int = 200,
    encoding: str | None = None,
) -> Pyramid | PeerAnnotation:
    """Read a DUCView ``.pyr`` or ``.pan`` file, whichever it is (see :func:`read_pyramid`).

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    strict : bool, default=False
        Refuse any repair (re-anchored parts, dropped documents, legacy encodings).
    window : int, default=200
        How far (in characters) a misplaced label is looked for.
    encoding : str, optional
        The file's encoding (by default UTF-8, else cp1252, else latin-1, as a repair).

    Returns
    -------
    Pyramid or PeerAnnotation
        A :class:`~clusteragree.pyramids.model.Pyramid` for a root ``<pyramid>`` (``.pyr``),
        a :class:`~clusteragree.pyramids.model.PeerAnnotation` for a root
        ``<peerAnnotation>`` (``.pan``).

    Raises
    ------
    InputError
        As :func:`read_pyramid`.

    References
    ----------
    DUCView 1.4 (Columbia University, 2005), the annotation tool that wrote the NIST DUC 2006
    and DUC 2007 pyramids and peer annotations, and DUCView 1.5 (Penn State,
    github.com/psunlpgroup/DucView-1.5): the format is what they write and read (text as the
    ``<line>`` elements each followed by a newline; part offsets as selection indices).

    Nenkova, A. and Passonneau, R. (2004). Evaluating content selection in summarization: The
    pyramid method. Proceedings of HLT-NAACL 2004, Boston, MA.

    docs/pyramids.md, "Reading .pyr and .pan files" (the quirks of the real files and the
    repairs).

    Examples
    --------
    The root element decides what is read: a pyramid, then a peer annotation of the peer "a
    cat sat" written by :func:`~clusteragree.pyramids.writers.pan_xml` against it:

    >>> import pathlib, tempfile
    >>> from clusteragree.pyramids.writers import build_pyramid, pan_xml, pyramid_xml
    >>> p = build_pyramid([("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a cat sat")],
    ...                   [("A cat sat", [[(0, "cat sat")], [(1, "cat sat")]])])
    >>> folder = tempfile.TemporaryDirectory()
    >>> pyr, pan = pathlib.Path(folder.name, "D1.pyr"), pathlib.Path(folder.name, "D1.pan")
    >>> _ = pyr.write_text(pyramid_xml(p))
    >>> _ = pan.write_text(pan_xml(p, "a cat sat", {1: [["cat sat"]]}))
    >>> type(read_ducview(pyr)).__name__, type(read_ducview(pan)).__name__
    ('Pyramid', 'PeerAnnotation')
    >>> folder.cleanup()
    """
    if not isinstance(window, int) or isinstance(window, bool) or window < 0:
        raise ParameterTypeError(f"window must be a non-negative int. Got {window!r}.")
    raw, name, offset, repairs = _load(path, encoding)
    # strict reading reads the whole file first, so that its refusal names every repair
    found = None
    frame = fast_frame(raw)
    if frame is not None:
        del raw  # (the frame holds the text: memory holds one copy of the file, not two)
        found = _walk_fast(frame, name, offset, window, repairs)
        del frame
        if found is None:  # read by the general path, from the file again
            raw, name, offset, repairs = _load(path, encoding)
    if found is None:
        source: bytes | str = raw
        if not repairs and encoding is None and os.path.isfile(name):
            source = name  # the file as it is: parsed from disk, its bytes not held beside
        del raw
        root_tag, parts = _walk(source, name, offset, window, repairs)
    else:
        root_tag, parts, repairs = found
    if root_tag == "pyramid":
        pyramid, notes = _pyramid(parts["pyramid"], name)
        pyramid = replace(pyramid, repairs=dict(repairs), notes=dict(notes))
        _report(name, repairs, notes, strict)
        return pyramid
    for missing in ("pyramid", "annotation"):
        if missing not in parts:
            raise _fail(f"<peerAnnotation> has no <{missing}> element", name, 1 + offset)
    pyramid, _ = _pyramid(parts["pyramid"], name)
    annotation = parts["annotation"]
    if annotation.text is None:
        raise _fail("<annotation> has no <text> element: a .pan stores the peer's text there",
                    name, annotation.line)
    _report(name, repairs, strict=strict)
    return PeerAnnotation(pyramid, annotation.text, tuple(annotation.scus), name, dict(repairs))


def read_pyramid(
    path: str | os.PathLike[str], *, strict: bool = False, window: int = 200,
    encoding: str | None = None,
) -> Pyramid:
    """Read a DUCView ``.pyr`` file (a ``.pan`` gives its embedded pyramid).

    Parameters
    ----------
    path : str or os.PathLike
        The ``.pyr`` file (or a ``.pan``, whose embedded pyramid is returned).
    strict : bool, default=False
        Refuse any repair (re-anchored parts, dropped documents, legacy encodings).
    window : int, default=200
        How far (in characters) a misplaced label is looked for.
    encoding : str, optional
        The file's encoding. By default a file that declares none is read as UTF-8, and one
        that is not UTF-8 as cp1252 (else latin-1), which is reported as a repair.

    Returns
    -------
    Pyramid
        The text, the model summaries found in it (and how they were found), the SCUs in file
        order, the repairs and the notes.

    Raises
    ------
    InputError
        With the file and line: not XML, wrong root, no text, bad offsets, a label nowhere
        near its offsets, an empty file, PyrEval's format, a repeated SCU uid, a stored
        startDocumentRegEx that does not finish in time.

    Notes
    -----
    Every repair and note is reported once (``clusteragree.errors.notify``: kinds
    ``repaired`` and ``note``) with the file, its first line and a count, and kept in
    ``Pyramid.repairs`` and ``Pyramid.notes``.

    References
    ----------
    DUCView 1.4 (Columbia University, 2005), the annotation tool that wrote the NIST DUC 2006
    and DUC 2007 pyramids and peer annotations, and DUCView 1.5 (Penn State,
    github.com/psunlpgroup/DucView-1.5): the format is what they write and read (text as the
    ``<line>`` elements each followed by a newline; part offsets as selection indices).

    Nenkova, A. and Passonneau, R. (2004). Evaluating content selection in summarization: The
    pyramid method. Proceedings of HLT-NAACL 2004, Boston, MA.

    docs/pyramids.md, "Reading .pyr and .pan files" (the quirks of the real files and the
    repairs).

    Examples
    --------
    A pyramid of two model summaries with NIST-style headers ("---", the model id, "---"); no
    ``startDocumentRegEx``, so the models are found with the header pattern. Each header is
    4 + 13 + 4 = 21 characters, so the first body starts at 21 and "cat sat" (after "the ") at
    25-32; the second header starts at 21 + 12 = 33 (after "the cat sat" and its newline), its
    body at 33 + 21 = 54, and "cat sat" (after "a ") at 56-63:

    >>> import pathlib, tempfile
    >>> xml = '''<?xml version="1.0"?>
    ... <pyramid>
    ...  <text>
    ...   <line>---</line><line>D1.M.100.A.A</line><line>---</line><line>the cat sat</line>
    ...   <line>---</line><line>D1.M.100.A.B</line><line>---</line><line>a cat sat</line>
    ...  </text>
    ...  <scu uid="1" label="A cat sat">
    ...   <contributor label="cat sat"><part label="cat sat" start="25" end="32"/></contributor>
    ...   <contributor label="cat sat"><part label="cat sat" start="56" end="63"/></contributor>
    ...  </scu>
    ... </pyramid>
    ... '''
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = pathlib.Path(folder.name, "D1.pyr")
    >>> _ = path.write_text(xml)
    >>> p = read_pyramid(path)
    >>> [s.id for s in p.summaries], p.summaries_found_by
    (['D1.M.100.A.A', 'D1.M.100.A.B'], 'header pattern')
    >>> [(part.start, part.end, p.text[part.start:part.end]) for part in p.scus[0].parts]
    [(25, 32, 'cat sat'), (56, 63, 'cat sat')]

    A part whose offsets are one character off (26-33 holds "at sat" and the newline) is
    re-anchored to the nearest occurrence of its label, 25-32, and the repair is counted; a
    :class:`~clusteragree.errors.Ledger` collects the warning:

    >>> from clusteragree.errors import Ledger
    >>> _ = path.write_text(xml.replace('start="25" end="32"', 'start="26" end="33"'))
    >>> with Ledger() as ledger:
    ...     p = read_pyramid(path)
    >>> p.repairs, [(part.start, part.end) for part in p.scus[0].parts]
    ({'part re-anchored (label not at its offsets)': 1}, [(25, 32), (56, 63)])

    Strict reading refuses the repair, naming the file, the line of the ``<part>`` (the 8th of
    the file) and where the label is:

    >>> read_pyramid(path, strict=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: ...D1.pyr:8: part re-anchored ...'cat sat' at 26-33...25-32 ...
    >>> folder.cleanup()
    """
    got = read_ducview(path, strict=strict, window=window, encoding=encoding)
    return got.pyramid if isinstance(got, PeerAnnotation) else got


def read_pan(
    path: str | os.PathLike[str], *, strict: bool = False, window: int = 200,
    encoding: str | None = None,
) -> PeerAnnotation:
    """Read a DUCView ``.pan`` peer annotation (see :func:`read_pyramid`).

    Parameters
    ----------
    path : str or os.PathLike
        The ``.pan`` file.
    strict : bool, default=False
        Refuse any repair (re-anchored parts, dropped documents, legacy encodings).
    window : int, default=200
        How far (in characters) a misplaced label is looked for.
    encoding : str, optional
        The file's encoding (by default UTF-8, else cp1252, else latin-1, as a repair).

    Returns
    -------
    PeerAnnotation
        The embedded pyramid, the peer's text (its parts' offsets index into it) and every
        ``<peerscu>``, the uid-0 bucket of non-matching content included.

    Raises
    ------
    InputError
        As :func:`read_pyramid`, and for a file that is a pyramid (root ``<pyramid>``).

    References
    ----------
    DUCView 1.4 (Columbia University, 2005), the annotation tool that wrote the NIST DUC 2006
    and DUC 2007 pyramids and peer annotations, and DUCView 1.5 (Penn State,
    github.com/psunlpgroup/DucView-1.5): the format is what they write and read (text as the
    ``<line>`` elements each followed by a newline; part offsets as selection indices).

    Nenkova, A. and Passonneau, R. (2004). Evaluating content selection in summarization: The
    pyramid method. Proceedings of HLT-NAACL 2004, Boston, MA.

    docs/pyramids.md, "Reading .pyr and .pan files" (the quirks of the real files and the
    repairs).

    Examples
    --------
    A peer "a cat sat" annotated against a pyramid of one SCU, written by
    :func:`~clusteragree.pyramids.writers.pan_xml`. The peer's text is its line and a newline;
    "cat sat" is found after "a ", at 2-9; DUCView labels the ``peerscu`` with the SCU's
    weight, 2 contributors:

    >>> import pathlib, tempfile
    >>> from clusteragree.pyramids.writers import build_pyramid, pan_xml
    >>> p = build_pyramid([("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a cat sat")],
    ...                   [("A cat sat", [[(0, "cat sat")], [(1, "cat sat")]])])
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = pathlib.Path(folder.name, "A.D1.M.100.A.7.pan")
    >>> _ = path.write_text(pan_xml(p, "a cat sat", {1: [["cat sat"]]}))
    >>> pan = read_pan(path)
    >>> pan.text, [(s.uid, s.label) for s in pan.peer_scus]
    ('a cat sat\\n', [(1, '(2) A cat sat'), (0, 'All non-matching SCUs go here')])
    >>> [(part.start, part.end) for part in pan.found[1].parts]
    [(2, 9)]
    >>> folder.cleanup()
    """
    got = read_ducview(path, strict=strict, window=window, encoding=encoding)
    if not isinstance(got, PeerAnnotation):
        raise _fail("this is a pyramid (<pyramid>), not a peer annotation (<peerAnnotation>)",
                    os.fspath(path), 1)
    return got
