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
* a file that is not UTF-8 is decoded as cp1252, else latin-1, with an :class:`InputWarning`.

PyrEval's ``.pyr`` (root ``<Pyramid>``, no text or offsets) and its readable TSV are recognised
and refused with a message saying what they are. Every error names the file and line.
"""

from __future__ import annotations

import contextlib
import os
import re
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

from lxml import etree

from ..errors import InputError, InputWarning
from ..pyramids import SCU, Contributor, Part, PeerAnnotation, Pyramid, Summary

__all__ = ["HEADER_PATTERN", "read_ducview", "read_pan", "read_pyramid"]

#: NIST DUC 2005-2007 model headers: dashes, the model id, dashes.
HEADER_PATTERN = re.compile(
    r"(?m)^-+[ \t]*\n[ \t]*D\d+(?:-[A-Z])?\.M\.\d+\.[A-Z]\.[A-Z][ \t]*\n-+[ \t]*\n"
)
#: DUCView 1.5 "new pyramid from folder" headers.
FOLDER_HEADER_PATTERN = re.compile(r"(?m)^-----+ <.*> -----+[ \t]*\n")
_DASHES_OR_BLANK = re.compile(r"[ \t]*-*[ \t]*\Z")
_ID = re.compile(r"D\d+\S*|<[^>]*>")


def _fail(message: str, path: str, line: int | None = None) -> InputError:
    return InputError(message, path=path, line=line)


def _load(path: str | os.PathLike[str]) -> tuple[Any, str, int, Counter[str]]:
    """Parse a file: root element, path, line offset (documents dropped before), repairs."""
    name = os.fspath(path)
    repairs: Counter[str] = Counter()
    try:
        raw = Path(path).read_bytes()
    except OSError as err:
        raise _fail(f"cannot open: {err.strerror}", name) from None
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
        repairs["earlier XML documents dropped (DUCView 1.5 appends on save)"] += len(decls) - 1
    prolog = raw[:200].split(b"?>", 1)[0]
    if b"encoding" not in prolog:
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as err:
            line = raw[: err.start].count(b"\n") + 1 + offset
            for encoding in ("cp1252", "latin-1"):
                try:
                    text = raw.decode(encoding)
                    break
                except UnicodeDecodeError:
                    continue
            warnings.warn(
                f"{name}:{line}: not UTF-8 (byte 0x{raw[err.start]:02x}); read as {encoding}",
                InputWarning, stacklevel=3)
            repairs[f"decoded as {encoding} (not UTF-8)"] += 1
            raw = text.encode("utf-8")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             huge_tree=True, remove_comments=True)
    try:
        root = etree.fromstring(raw, parser)
    except etree.XMLSyntaxError as err:
        raise _fail(f"not well-formed XML: {err.msg}", name, (err.lineno or 1) + offset) from None
    return root, name, offset, repairs


class _TextIndex:
    """The text, and a newline-free view of it for finding labels (labels have no newlines)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.keep = [i for i, c in enumerate(text) if c != "\n"]
        self.flat = text.replace("\n", "")
        self.to_flat = {orig: k for k, orig in enumerate(self.keep)}
        utf16 = any(ord(c) > 0xFFFF for c in text)
        self.from_utf16: list[int] | None = None
        if utf16:
            self.from_utf16 = []
            for i, c in enumerate(text):
                self.from_utf16 += [i] * (2 if ord(c) > 0xFFFF else 1)
            self.from_utf16.append(len(text))

    def python_offset(self, pos: int) -> int:
        if self.from_utf16 is None or not 0 <= pos < len(self.from_utf16):
            return pos
        return self.from_utf16[pos]

    def label_at(self, start: int, end: int) -> str:
        return self.text[start:end].replace("\n", "")

    def near(self, label: str, start: int, window: int) -> tuple[int, int] | str | None:
        """Nearest occurrence of ``label`` around ``start``; ``"ambiguous"`` on a tie."""
        if not label or not self.keep:
            return None
        lo = max(0, start - window)
        flat_lo = next((k for k in range(lo, min(len(self.text), start + window) + 1)
                        if k in self.to_flat), None)
        if flat_lo is None:
            return None
        flat_lo = self.to_flat[flat_lo]
        found: list[tuple[int, int, int]] = []
        pos = self.flat.find(label, flat_lo)
        while pos != -1:
            s = self.keep[pos]
            if s > start + window:
                break
            e = self.keep[pos + len(label) - 1] + 1
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
    if value is None:
        raise _fail(f"<{el.tag}> has no {attr} attribute", path, el.sourceline + offset)
    try:
        return int(value.strip())
    except ValueError:
        raise _fail(f"<{el.tag}> {attr}={value!r} is not an integer", path,
                    el.sourceline + offset) from None


def _text(parent: Any, where: str, path: str, offset: int) -> str:
    text_el = parent.find("text")
    if text_el is None:
        raise _fail(f"<{where}> has no <text> element: a DUCView file stores the summaries' text "
                    "there, one <line> per line", path, parent.sourceline + offset)
    return "".join((line.text or "") + "\n" for line in text_el.findall("line"))


def _parts(el: Any, index: _TextIndex, path: str, offset: int, strict: bool, window: int,
           repairs: Counter[str]) -> tuple[Part, ...]:
    parts = []
    for p in el.findall("part"):
        line = p.sourceline + offset
        label = p.get("label")
        if label is None:
            raise _fail("<part> has no label attribute", path, line)
        start = index.python_offset(_int(p, "start", path, offset))
        end = index.python_offset(_int(p, "end", path, offset))
        n = len(index.text)
        if 0 <= start <= end <= n and index.label_at(start, end) == label:
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
        if strict:
            raise _fail(f"{where}; the label occurs at {found[0]}-{found[1]} (a repair: leave "
                        "out strict to accept it)", path, line)
        repairs[f"part re-anchored ({kind})"] += 1
        parts.append(Part(found[0], found[1], label, line))
    return tuple(parts)


def _scus(parent: Any, tag: str, index: _TextIndex, path: str, offset: int, strict: bool,
          window: int, repairs: Counter[str]) -> tuple[SCU, ...]:
    scus = []
    for s in parent.findall(tag):
        line = s.sourceline + offset
        uid = _int(s, "uid", path, offset)
        label = s.get("label")
        if label is None:
            raise _fail(f"<{tag} uid=\"{uid}\"> has no label attribute", path, line)
        contributors = []
        for c in s.findall("contributor"):
            parts = _parts(c, index, path, offset, strict, window, repairs)
            if not parts:
                raise _fail(f"contributor {c.get('label')!r} of SCU {uid} has no part", path,
                            c.sourceline + offset)
            contributors.append(Contributor(c.get("label", ""), parts, c.get("comment"),
                                            c.sourceline + offset))
        scus.append(SCU(uid, label, tuple(contributors), s.get("comment"), line))
    return tuple(scus)


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


def _summaries(text: str, regex: str | None) -> tuple[tuple[Summary, ...], str]:
    preamble = re.match(r"#(\d+)\n", text)
    expected = int(preamble.group(1)) if preamble else None
    candidates: list[tuple[str, list[re.Match[str]]]] = []
    if regex:
        with contextlib.suppress(re.error):
            candidates.append(("stored regex", list(re.finditer(regex, text))))
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


def _pyramid(el: Any, path: str, offset: int, strict: bool, window: int,
             repairs: Counter[str]) -> Pyramid:
    regex_el = el.find("startDocumentRegEx")
    regex = regex_el.text if regex_el is not None else None
    text = _text(el, "pyramid", path, offset)
    index = _TextIndex(text)
    summaries, how = _summaries(text, regex)
    scus = _scus(el, "scu", index, path, offset, strict, window, repairs)
    pyramid = Pyramid(text, summaries, scus, path, regex, how)
    notes: Counter[str] = Counter()
    for scu in scus:
        per_summary: Counter[int | None] = Counter()
        for c in scu.contributors:
            where = {pyramid.summary_at(p.start) for p in c.parts}
            if len(where) > 1:
                notes["contributors with parts in two summaries"] += 1
            per_summary[pyramid.summary_at(min(p.start for p in c.parts))] += 1
        if any(k > 1 for k in per_summary.values()):
            notes["SCUs with two contributors from one summary"] += 1
    return Pyramid(text, summaries, scus, path, regex, how, dict(repairs), dict(notes))


def read_ducview(
    path: str | os.PathLike[str], *, strict: bool = False, window: int = 200
) -> Pyramid | PeerAnnotation:
    """Read a DUCView ``.pyr`` or ``.pan`` file, whichever it is."""
    root, name, offset, repairs = _load(path)
    tag = root.tag
    line = root.sourceline + offset
    if tag == "Pyramid":
        raise _fail("this is a PyrEval pyramid (root <Pyramid>, SCUs without text or offsets), "
                    "not a DUCView .pyr; clusteragree needs DUCView's format", name, line)
    if strict and repairs:
        raise _fail(f"repairs needed: {dict(repairs)}", name, 1)
    if tag == "pyramid":
        return _pyramid(root, name, offset, strict, window, repairs)
    if tag == "peerAnnotation":
        pyr_el, ann_el = root.find("pyramid"), root.find("annotation")
        if pyr_el is None or ann_el is None:
            missing = "pyramid" if pyr_el is None else "annotation"
            raise _fail(f"<peerAnnotation> has no <{missing}> element", name, line)
        pyramid = _pyramid(pyr_el, name, offset, strict, window, Counter())
        text = _text(ann_el, "annotation", name, offset)
        index = _TextIndex(text)
        peer_scus = _scus(ann_el, "peerscu", index, name, offset, strict, window, repairs)
        all_repairs = Counter(repairs) + Counter(pyramid.repairs)
        return PeerAnnotation(pyramid, text, peer_scus, name, dict(all_repairs))
    raise _fail(f"the root element is <{tag}>; expected <pyramid> (.pyr) or <peerAnnotation> "
                "(.pan) as DUCView writes them", name, line)


def read_pyramid(
    path: str | os.PathLike[str], *, strict: bool = False, window: int = 200
) -> Pyramid:
    """Read a DUCView ``.pyr`` file (a ``.pan`` gives its embedded pyramid).

    Parameters
    ----------
    path : path
    strict : bool, default=False
        Refuse any repair (re-anchored parts, dropped documents, legacy encodings).
    window : int, default=200
        How far (in characters) a misplaced label is looked for.

    Raises
    ------
    InputError
        With the file and line: not XML, wrong root, no text, bad offsets, a label nowhere
        near its offsets, an empty file, PyrEval's format.
    """
    got = read_ducview(path, strict=strict, window=window)
    return got.pyramid if isinstance(got, PeerAnnotation) else got


def read_pan(
    path: str | os.PathLike[str], *, strict: bool = False, window: int = 200
) -> PeerAnnotation:
    """Read a DUCView ``.pan`` peer annotation (see :func:`read_pyramid`)."""
    got = read_ducview(path, strict=strict, window=window)
    if not isinstance(got, PeerAnnotation):
        raise _fail("this is a pyramid (<pyramid>), not a peer annotation (<peerAnnotation>)",
                    os.fspath(path), 1)
    return got
