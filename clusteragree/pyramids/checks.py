"""What ``validate`` checks in DUCView pyramids (``.pyr``) and peer annotations (``.pan``).

Level 1 is the reader's (:func:`~clusteragree.pyramids.reader.read_ducview` under
:func:`~clusteragree.incidents.read_checked`): what it refuses, repairs (re-anchored parts,
legacy encodings, appended documents) and notes (contributors in two summaries, two
contributors from one summary).

Level 2 checks one file as written: when the reader repaired something (or refused the file),
its parts are read again from the XML without any repair (the offsets as stored), so that
every part whose label is not at its offsets is listed, not only the first the reader would
refuse; a file the reader read as written is checked on what it read (one parse). Then its
SCUs, contributors and summaries. Level 3
compares the inputs: pyramids of one docset (the same model summaries, the same text), and
the ``.pan`` files of one peer by several annotators (the same peer text, the same pyramid).

The classes follow what the format and the pyramid method say. A part is the text selected in
DUCView (``label == text[start:end]`` with newlines deleted), so a part elsewhere is an
error; the DTD requires every SCU and contributor to have contributors and parts; two
contributors of one SCU sharing characters count the same words twice. The model summaries
are not stored but found with a regular expression, and DUCView's own check of one
contributor per summary is skipped in several ways (no regex, adding parts, merging SCUs), so
what depends on the summaries is a warning. Overlap across SCUs is allowed (a word can
express several SCUs): information.

References
----------
DUCView 1.4 (Columbia University, 2005) and DUCView 1.5 (Penn State,
github.com/psunlpgroup/DucView-1.5): the DTD, labels as selections, weight as the number of
contributors, the message "Multiple contributor per SCU per document".

Nenkova, A. and Passonneau, R. (2004). Evaluating content selection in summarization: The
pyramid method. Proceedings of HLT-NAACL 2004 (an SCU's weight is the number of model
summaries that express it).

docs/validate.md (every test); docs/pyramids.md (the quirks of the real files).

Examples
--------
A pyramid whose SCU has two contributors over the same words of one summary: the words count
twice towards its weight (an error), and the SCU's weight, 2 contributors, is more than the one
summary it comes from (warnings):

>>> from clusteragree.pyramids.writers import build_pyramid
>>> p = build_pyramid([("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a dog ran")],
...                   [("A cat sat", [[(0, "cat sat")], [(0, "cat")]])])
>>> [i.test_id for i in check_pyramid(p)]  # doctest: +NORMALIZE_WHITESPACE
['pyramids-overlap-in-scu', 'pyramids-same-summary-twice', 'pyramids-weight-summaries']
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from lxml import etree

from ..core.text import first_difference
from ..errors import InputError, Ledger
from ..incidents import Incident, Test, from_notice, read_checked, register
from ..inputs import read_bytes
from . import reader
from .model import SCU, Contributor, Part, PeerAnnotation, Pyramid, Summary, peer_of_name
from .reader import read_pan, read_pyramid

__all__ = ["check_across", "check_pan", "check_pyramid", "validate_inputs"]

_D = "pyramids"
_P = ("pyramid", "pan")

register(
    Test("pyramids-part-offsets", 2, "error", _D, "a part's offsets are outside the text, or "
         "its start is after its end", _P),
    Test("pyramids-part-not-at-offsets", 2, "error", _D, "a part's label is not the text at "
         "its offsets (newlines deleted, as DUCView stores labels)", _P),
    Test("pyramids-empty-part", 2, "warning", _D, "a part of no characters (start equal to "
         "end)", _P),
    Test("pyramids-empty-contributor", 2, "error", _D, "a contributor without parts (the DTD "
         "requires one or more)", _P),
    Test("pyramids-empty-scu", 2, "error", _D, "an SCU of a pyramid without contributors (the "
         "DTD requires one or more; its weight would be 0)", _P),
    Test("pyramids-duplicate-uid", 2, "error", _D, "two SCUs (or two peer SCUs) of one file "
         "with the same uid", _P),
    Test("pyramids-contributor-label", 2, "warning", _D, "a contributor's label is not its "
         "parts' labels in text order joined by '...' (as DUCView writes it)", _P),
    Test("pyramids-overlap-in-scu", 2, "error", _D, "two contributors of one SCU share "
         "characters: the same words count twice towards its weight", _P),
    Test("pyramids-peer-overlap-in-scu", 2, "warning", _D, "two contributors of one peer SCU "
         "share characters (redundant: the SCU is counted once)", ("pan",)),
    Test("pyramids-overlap-across-scus", 2, "information", _D, "contributors of two SCUs "
         "share characters (allowed: a word can express several SCUs); one per pair of "
         "SCUs", _P),
    Test("pyramids-same-summary-twice", 2, "warning", _D, "an SCU with two contributors from "
         "one model summary (DUCView refuses it when a contributor is added)", _P),
    Test("pyramids-contributor-two-summaries", 2, "warning", _D, "a contributor whose parts "
         "lie in two model summaries", _P),
    Test("pyramids-weight-summaries", 2, "warning", _D, "an SCU's weight as DUCView counts it "
         "(its contributors) differs from the number of model summaries its parts lie in", _P),
    Test("pyramids-part-outside-summaries", 2, "warning", _D, "a part that starts in no model "
         "summary's body (the preamble, or a header)", _P),
    Test("pyramids-no-summaries", 2, "information", _D, "the model summaries were not found "
         "(no header matched), so the checks by summary are not done", _P),
    Test("pyramids-peer-unknown-scu", 2, "error", _D, "a peer SCU whose uid is neither an "
         "SCU of the embedded pyramid nor 0 (non-matching content)", ("pan",)),
    Test("pyramids-peer-missing-scu", 2, "information", _D, "an SCU of the embedded pyramid "
         "without a peer SCU (DUCView writes one for every SCU; the score is unchanged)",
         ("pan",)),
    Test("pyramids-peer-weight", 2, "warning", _D, "a peer SCU's label prefix (W) differs from "
         "the number of contributors of its SCU in the embedded pyramid", ("pan",)),
    Test("pyramids-peer-label", 2, "warning", _D, "a peer SCU's label (after its (W) prefix) "
         "differs from its SCU's label in the embedded pyramid", ("pan",)),
    Test("pyramids-summary-missing", 3, "error", _D, "pyramids of one docset: a model summary "
         "one pyramid has and another lacks", ("pyramid",)),
    Test("pyramids-summary-differs", 3, "error", _D, "pyramids of one docset: a model summary "
         "whose text differs between pyramids", ("pyramid",)),
    Test("pyramids-text-differs", 3, "error", _D, "pyramids of one docset: the texts differ "
         "outside the summaries' bodies (order, headers, preamble), so offsets do not "
         "correspond", ("pyramid",)),
    Test("pyramids-peer-text-differs", 3, "error", _D, "one peer's .pan files by two "
         "annotators: the peer texts differ", ("pan",)),
    Test("pyramids-pan-pyramid-differs", 3, "error", _D, ".pan files of one docset: the "
         "embedded pyramids' texts differ", ("pan",)),
    Test("pyramids-peer-twice", 3, "error", _D, "one annotator has two .pan files of one peer",
         ("pan",)),
    Test("pyramids-peer-one-annotator", 3, "information", _D, "a peer annotated by fewer "
         "annotators than the inputs have (agreement leaves it out)", ("pan",)),
)

_WEIGHT = re.compile(r"\((\d{1,9})\) (.*)\Z", re.S)


def _uid(scu: SCU) -> str:
    return str(scu.uid)


# --- level 2: one layer (a pyramid, or a peer annotation's SCUs over the peer text)


def _part_checks(scus: Sequence[SCU], text: str, file: str, pyramid: bool
                 ) -> Iterator[Incident]:
    """Parts against the text, empty elements, contributor labels, repeated uids."""
    n = len(text)
    seen: dict[int, int | None] = {}
    what = "SCU" if pyramid else "peer SCU"
    for scu in scus:
        if scu.uid in seen:
            yield Incident("pyramids-duplicate-uid", f"{what} uid {scu.uid} is used again "
                           f"(first at line {seen[scu.uid]}); every SCU needs its own uid",
                           file, scu.line, _uid(scu))
        else:
            seen[scu.uid] = scu.line
        if pyramid and not scu.contributors:
            yield Incident("pyramids-empty-scu", f"SCU {scu.uid} {scu.label.strip()!r} has no "
                           "contributor; remove it or give it its contributors", file,
                           scu.line, _uid(scu))
        for k, c in enumerate(scu.contributors, start=1):
            if not c.parts:
                yield Incident("pyramids-empty-contributor", f"contributor {c.label!r} of "
                               f"{what} {scu.uid} has no part", file, c.line, _uid(scu),
                               f"contributor {k}")
                continue
            placed = True
            for p in c.parts:
                if not 0 <= p.start <= p.end <= n:
                    placed = False
                    why = ("its start is after its end" if p.start > p.end else
                           f"outside the text of {n} characters")
                    yield Incident("pyramids-part-offsets", f"{_at(p)}: {why}", file, p.line,
                                   _uid(scu), f"contributor {k}")
                    continue
                there = text[p.start:p.end].replace("\n", "")
                if p.start == p.end:
                    yield Incident("pyramids-empty-part", f"{_at(p)} holds no characters",
                                   file, p.line, _uid(scu), f"contributor {k}")
                if there != p.label:
                    yield Incident("pyramids-part-not-at-offsets", f"{_at(p)}: the text there "
                                   f"is {there!r}", file, p.line, _uid(scu), f"contributor {k}")
            expected = (c.parts[0].label if len(c.parts) == 1 else
                        "...".join(p.label for p in sorted(c.parts, key=lambda p: p.start)))
            node = f"contributor {k}"
            if placed and c.label != expected:  # (text order needs offsets in the text)
                yield Incident("pyramids-contributor-label", f"contributor label {c.label!r}; "
                               f"its parts in text order give {expected!r}", file, c.line,
                               _uid(scu), node)


def _at(p: Part) -> str:
    return f"part {p.label!r} at {p.start}-{p.end}"


def _valid(p: Part, n: int) -> bool:
    return 0 <= p.start < p.end <= n


def _overlaps(scus: Sequence[SCU], text: str, file: str, pyramid: bool = True
              ) -> Iterator[Incident]:
    """Contributors sharing characters: within one SCU (error), across SCUs (information).
    A sweep over the parts sorted by start; each pair is reported once."""
    n = len(text)
    spans = sorted((p.start, p.end, i, k) for i, scu in enumerate(scus)
                   for k, c in enumerate(scu.contributors) for p in c.parts if _valid(p, n))
    active: list[tuple[int, int, int, int]] = []
    inside: dict[tuple[int, int, int], int] = {}
    across: dict[tuple[int, int], int] = {}
    for span in spans:
        start = span[0]
        active = [a for a in active if a[1] > start]
        for a in active:
            if a[2] == span[2]:
                if a[3] != span[3]:
                    inside.setdefault((a[2], min(a[3], span[3]), max(a[3], span[3])), start)
            else:
                across.setdefault((min(a[2], span[2]), max(a[2], span[2])), start)
        active.append(span)
    for (i, j, k), at in inside.items():
        one = scus[i]
        line = one.contributors[k].line
        yield Incident(
            "pyramids-overlap-in-scu" if pyramid else "pyramids-peer-overlap-in-scu",
            f"contributors {j + 1} and {k + 1} of {'SCU' if pyramid else 'peer SCU'} "
            f"{one.uid} share characters from offset {at} ({text[at:at + 30]!r}): " + (
                "the same words count twice towards its weight" if pyramid else
                "the same words are matched twice") + "; keep one contributor",
            file, line, _uid(one), f"contributors {j + 1} and {k + 1}")
    for (i, j), at in across.items():
        x, y = scus[i], scus[j]
        yield Incident("pyramids-overlap-across-scus", f"SCUs {x.uid} and {y.uid} share "
                       f"characters from offset {at}", file, y.line, _uid(x), f"SCU {y.uid}")


def _summary_checks(p: Pyramid, file: str) -> Iterator[Incident]:
    if p.summaries_found_by == "whole text":
        yield Incident("pyramids-no-summaries", "no model summary header was found (the "
                       "file's startDocumentRegEx, the NIST headers): the text is read as one "
                       "summary, and the checks by summary are not done", file)
        return
    n = len(p.text)
    names = [s.id for s in p.summaries]
    starts = [s.header[0] for s in p.summaries]  # (Pyramid.summary_at, inlined)
    bodies = [s.body for s in p.summaries]
    for scu in p.scus:
        by: dict[int | None, list[int]] = {}
        every: set[int | None] = set()
        for k, c in enumerate(scu.contributors, start=1):
            parts = []  # the parts in the text (of some characters), with their summary
            for q in c.parts:
                if 0 <= q.start < q.end <= n:  # (_valid)
                    j = bisect_right(starts, q.start)
                    parts.append((q, j - 1 if j else None))
            if not parts:
                continue
            at = {s for _, s in parts}
            every |= at
            j = bisect_right(starts, min(q.start for q, _ in parts))
            by.setdefault(j - 1 if j else None, []).append(k)
            if len(at) > 1:
                yield Incident("pyramids-contributor-two-summaries", f"contributor {c.label!r} "
                               f"of SCU {scu.uid} has parts in the summaries "
                               f"{', '.join(_name(names, s) for s in sorted(at, key=_key))}",
                               file, c.line, _uid(scu), f"contributor {k}")
            for q, s in parts:
                body = bodies[s] if s is not None else None
                if body is None or not body[0] <= q.start < body[1]:
                    yield Incident("pyramids-part-outside-summaries", f"part {q.label!r} at "
                                   f"{q.start}-{q.end} starts in "
                                   f"{'the preamble' if s is None else 'the header of ' + names[s]}"
                                   ", not in a summary", file, q.line, _uid(scu),
                                   f"contributor {k}")
        for s, ks in by.items():
            if len(ks) > 1:
                yield Incident("pyramids-same-summary-twice", f"SCU {scu.uid} "
                               f"{scu.label.strip()!r}: contributors "
                               f"{', '.join(map(str, ks))} come from the summary "
                               f"{_name(names, s)}", file, scu.line, _uid(scu))
        placed = sum(len(ks) for ks in by.values())  # contributors with parts in the text
        if every and len(every) != placed:
            yield Incident("pyramids-weight-summaries", f"SCU {scu.uid} has "
                           f"{placed} contributor(s) (DUCView's weight) from "
                           f"{len(every)} summar{'y' if len(every) == 1 else 'ies'}", file,
                           scu.line, _uid(scu))


def _key(s: int | None) -> int:
    return -1 if s is None else s


def _name(names: list[str], s: int | None) -> str:
    return "(before the first header)" if s is None else names[s]


def check_pyramid(pyramid: Pyramid) -> list[Incident]:
    """The level-2 incidents of a pyramid (read, or built).

    Parameters
    ----------
    pyramid : Pyramid
        As :func:`~clusteragree.pyramids.reader.read_pyramid` gives it (strict reading
        leaves the offsets as written) or as :func:`validate_inputs` reads it, without repairs.

    Returns
    -------
    list of Incident
        Parts, empty elements, labels, uids, overlaps and the checks by model summary, in
        that order (docs/validate.md lists the tests).

    References
    ----------
    DUCView 1.4 and 1.5 (the DTD; labels as selections; weight as the number of
    contributors). Nenkova and Passonneau (2004), the pyramid method.

    Examples
    --------
    An SCU without contributors (the DTD requires one or more):

    >>> from clusteragree.pyramids.writers import build_pyramid
    >>> p = build_pyramid([("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a cat sat")],
    ...                   [("A cat sat", [[(0, "cat sat")], [(1, "cat sat")]]),
    ...                    ("Nothing", [])])
    >>> [(i.test_id, i.sentence) for i in check_pyramid(p)]
    [('pyramids-empty-scu', '2')]
    """
    file = pyramid.path
    return [*_part_checks(pyramid.scus, pyramid.text, file, True),
            *_overlaps(pyramid.scus, pyramid.text, file),
            *_summary_checks(pyramid, file)]


def check_pan(pan: PeerAnnotation) -> list[Incident]:
    """The level-2 incidents of a peer annotation: its embedded pyramid's
    (:func:`check_pyramid`), its peer SCUs against the peer text, and the peer SCUs against
    the pyramid (uids, weights and labels).

    Examples
    --------
    A peer SCU labelled with weight 3 where its SCU has 2 contributors:

    >>> from clusteragree.pyramids.writers import build_pyramid
    >>> p = build_pyramid([("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a cat sat")],
    ...                   [("A cat sat", [[(0, "cat sat")], [(1, "cat sat")]])])
    >>> found = SCU(1, "(3) A cat sat", (Contributor("cat sat", (Part(2, 9, "cat sat"),)),))
    >>> pan = PeerAnnotation(p, "a cat sat\\n", (found, SCU(0, "All non-matching SCUs go here",
    ...                                                     ())))
    >>> [i.test_id for i in check_pan(pan)]
    ['pyramids-peer-weight']
    """
    file = pan.path
    out = check_pyramid(pan.pyramid) if pan.pyramid.path == file else [
        Incident(i.test_id, i.message, file, i.line, i.sentence, i.node)
        for i in check_pyramid(pan.pyramid)]
    out += _part_checks(pan.peer_scus, pan.text, file, False)
    out += _overlaps(pan.peer_scus, pan.text, file, pyramid=False)
    scus = {s.uid: s for s in pan.pyramid.scus}
    found: set[int] = set()
    for peer in pan.peer_scus:
        found.add(peer.uid)
        if peer.uid == 0:
            continue
        scu = scus.get(peer.uid)
        if scu is None:
            out.append(Incident("pyramids-peer-unknown-scu", f"peer SCU {peer.uid} "
                                f"{peer.label.strip()!r} is not an SCU of the embedded "
                                "pyramid", file, peer.line, _uid(peer)))
            continue
        m = _WEIGHT.match(peer.label)
        label = peer.label
        if m is not None:
            label = m.group(2)
            if int(m.group(1)) != len(scu.contributors):
                out.append(Incident("pyramids-peer-weight", f"peer SCU {peer.uid} is labelled "
                                    f"with weight {m.group(1)}; SCU {scu.uid} of the pyramid "
                                    f"has {len(scu.contributors)} contributor(s)", file,
                                    peer.line, _uid(peer)))
        if label != scu.label:
            out.append(Incident("pyramids-peer-label", f"peer SCU {peer.uid} is labelled "
                                f"{label!r}; SCU {scu.uid} of the pyramid {scu.label!r}",
                                file, peer.line, _uid(peer)))
    for uid, scu in scus.items():
        if uid not in found:
            out.append(Incident("pyramids-peer-missing-scu", f"SCU {uid} "
                                f"{scu.label.strip()!r} of the pyramid has no peer SCU", file,
                                scu.line, str(uid)))
    return out


# --- reading without repairs


def _raw(path: str, encoding: str | None, kind: str, model: Pyramid | PeerAnnotation | None
         ) -> tuple[Pyramid | PeerAnnotation | None, list[Incident]]:
    """The file as written (offsets as stored, uids repeated, empty elements kept), or None
    when it cannot be parsed (the reader's refusal says why). The summaries are those the
    reader found (the same text); when it refused, they are found here, and the notices of
    finding them become incidents."""
    try:
        raw, name, offset, _ = reader._load(path, encoding)
        root = etree.fromstring(raw, etree.XMLParser(resolve_entities=False, no_network=True,
                                                     load_dtd=False, huge_tree=True,
                                                     remove_comments=True, remove_pis=True))
    except (InputError, etree.XMLSyntaxError, ValueError, OSError):
        return None, []
    found: list[Incident] = []

    def layer(el: Any, tag: str) -> tuple[str, list[SCU], Any] | None:
        text_el = el.find("text")
        if text_el is None:
            return None
        text = reader._line_text(text_el, name, offset, reader._Repairs())
        index = reader._TextIndex(text)
        scus = []
        for s in el.iterfind(tag):
            try:
                uid = int(s.get("uid", ""))
            except ValueError:
                continue
            contributors = []
            for c in s.iterfind("contributor"):
                parts = []
                for p in c.iterfind("part"):
                    try:
                        start, end = int(p.get("start", "")), int(p.get("end", ""))
                    except ValueError:  # the reader's refusal names it; the contributor
                        break  # is left out here (its parts are not known)
                    parts.append(Part(index.python_offset(start), index.python_offset(end),
                                      p.get("label", ""), p.sourceline + offset))
                else:
                        contributors.append(Contributor(c.get("label", ""), tuple(parts),
                                                    c.get("comment"), c.sourceline + offset))
            scus.append(SCU(uid, s.get("label", ""), tuple(contributors), s.get("comment"),
                            s.sourceline + offset))
        regex = el.find("startDocumentRegEx")
        return text, scus, regex

    def pyramid_of(el: Any) -> Pyramid | None:
        got = layer(el, "scu")
        if got is None:
            return None
        text, scus, regex = got
        pattern = regex.text if regex is not None else None
        pattern_line = regex.sourceline + offset if regex is not None else None
        summaries: tuple[Summary, ...]
        if model is not None:
            read = model.pyramid if isinstance(model, PeerAnnotation) else model
            return Pyramid(text, read.summaries, tuple(scus), name, pattern,
                           read.summaries_found_by)
        try:
            with Ledger() as ledger:
                summaries, how = reader._summaries(text, pattern, name, pattern_line)
        except InputError as err:  # a regex that does not finish: the reader says so
            found.append(Incident("read-refused", err.message, name, err.line))
            summaries, how = (), "whole text"
        for notice in ledger.notices:
            incident = from_notice(notice)
            if incident is not None:
                found.append(incident)
        return Pyramid(text, summaries, tuple(scus), name, pattern, how)

    if root.tag == "pyramid" and kind == "pyramid":
        return pyramid_of(root), found
    if root.tag != "peerAnnotation":
        return None, found
    pyr_el, ann_el = root.find("pyramid"), root.find("annotation")
    pyramid = pyramid_of(pyr_el) if pyr_el is not None else None
    if pyramid is None:
        return None, found
    if kind == "pyramid":
        return pyramid, found
    got = layer(ann_el, "peerscu") if ann_el is not None else None
    if got is None:
        return None, found
    return PeerAnnotation(pyramid, got[0], tuple(got[1]), name), found


_TEXT = re.compile(rb"<text[\s/>]")
_REGEX = re.compile(rb"<startDocumentRegEx[\s/>]")


def _as_written(path: str, model: Pyramid | PeerAnnotation | None) -> bool:
    """Whether what the reader read is the file as written, so that :func:`_raw` need not
    parse it again: the reader accepted it and repaired nothing (it re-anchors parts, drops
    documents, reads legacy encodings and markup in lines only as repairs; it refuses
    repeated uids, contributors without parts, attributes missing), and each layer has one
    ``<text>`` and at most one ``<startDocumentRegEx>`` (the reader keeps the last of
    several, :func:`_raw` the first)."""
    if model is None or model.repairs:
        return False
    try:
        data = read_bytes(path)
    except (InputError, OSError):
        return False
    texts = 2 if isinstance(model, PeerAnnotation) else 1
    # (an upper bound of the elements: "<" is escaped in attributes and text)
    return (len(_TEXT.findall(data)) == texts and len(_REGEX.findall(data)) <= 1)


# --- level 3


def _docset(p: Pyramid) -> frozenset[str] | None:
    ids = {s.id.split(".M.")[0].strip() for s in p.summaries if ".M." in s.id}
    return frozenset(ids) if ids else None


def _bodies(p: Pyramid) -> dict[str, str]:
    return {s.id.strip(): p.text[s.body[0]:s.body[1]] for s in p.summaries}


def _compare_pyramids(first: Pyramid, other: Pyramid, who: str, whom: str
                      ) -> Iterator[Incident]:
    if other.text == first.text:
        return
    a, b = _bodies(first), _bodies(other)
    differs = False
    for sid in a:
        if sid not in b:
            differs = True
            yield Incident("pyramids-summary-missing", f"the model summary {sid} of "
                           f"{first.path} is not in this pyramid", other.path, annotator=who)
    for sid in b:
        if sid not in a:
            differs = True
            yield Incident("pyramids-summary-missing", f"the model summary {sid} is not in "
                           f"{first.path} ({whom}'s)", other.path, annotator=who)
    for sid, body in b.items():
        if sid in a and a[sid] != body:
            differs = True
            pos = first_difference(a[sid], body)
            yield Incident("pyramids-summary-differs", f"the model summary {sid} differs from "
                           f"{first.path}'s at its character {pos}: "
                           f"{body[pos:pos + 20]!r} here, {a[sid][pos:pos + 20]!r} there",
                           other.path, sentence=sid, annotator=who)
    if not differs:
        pos = first_difference(first.text, other.text)
        yield Incident("pyramids-text-differs", f"the text differs from {first.path}'s at "
                       f"character {pos} (outside the summaries' bodies): "
                       f"{other.text[pos:pos + 20]!r} here, {first.text[pos:pos + 20]!r} "
                       "there; offsets of the two pyramids do not correspond", other.path,
                       annotator=who)


def check_across(models: Sequence[Pyramid | PeerAnnotation], annotators: Sequence[str],
                 peers: Sequence[str | None] | None = None) -> list[Incident]:
    """The level-3 incidents of several inputs, one annotator each.

    Pyramids are grouped by docset (the ids of their model summaries, before ``.M.``; all
    together when the ids say none): in each group every pyramid is compared with the first.
    Peer annotations are grouped by peer (``peers``, else the file name
    ``ANNOTATOR.DOCSET.M.LEN.SEL.PEER.pan``): the peer texts must be equal, each annotator has
    one file per peer, and the embedded pyramids of a docset must be equal.

    Parameters
    ----------
    models : sequence of Pyramid or PeerAnnotation
        One kind only.
    annotators : sequence of str
        The annotator of each.
    peers : sequence of str or None, optional
        The peer of each ``.pan`` (None: not known, left out of the comparisons by peer).

    Examples
    --------
    Two pyramids of docset D1 whose second summary differs:

    >>> from clusteragree.pyramids.writers import build_pyramid
    >>> a = build_pyramid([("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a dog")], [],
    ...                   path="a.pyr")
    >>> b = build_pyramid([("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a cat")], [],
    ...                   path="b.pyr")
    >>> [(i.test_id, i.sentence) for i in check_across([a, b], ["a", "b"])]
    [('pyramids-summary-differs', 'D1.M.100.A.B')]
    """
    out: list[Incident] = []
    pyramids = [m for m in models if isinstance(m, Pyramid)]
    if pyramids:
        groups: dict[frozenset[str] | None, list[int]] = {}
        for i, p in enumerate(pyramids):
            groups.setdefault(_docset(p), []).append(i)
        for members in groups.values():
            first = members[0]
            for i in members[1:]:
                out += _compare_pyramids(pyramids[first], pyramids[i], annotators[i],
                                         annotators[first])
        return out
    pans = [m for m in models if isinstance(m, PeerAnnotation)]
    peer_of = list(peers) if peers is not None else [None] * len(pans)
    by_peer: dict[str, dict[str, int]] = {}
    for i, peer in enumerate(peer_of):
        if peer is None:
            continue
        earlier = by_peer.setdefault(peer, {}).get(annotators[i])
        if earlier is not None:
            out.append(Incident("pyramids-peer-twice", f"annotator {annotators[i]!r} has two "
                                f"annotations of peer {peer}: this file and "
                                f"{pans[earlier].path}", pans[i].path,
                                annotator=annotators[i]))
            continue
        by_peer[peer][annotators[i]] = i
    everyone = sorted({a for g in by_peer.values() for a in g})
    docsets: dict[str, int] = {}
    for peer, group in by_peer.items():
        members = list(group.values())
        lead = pans[members[0]]
        for i in members[1:]:
            if pans[i].text != lead.text:
                pos = first_difference(lead.text, pans[i].text)
                out.append(Incident("pyramids-peer-text-differs", f"peer {peer}: the peer text "
                                    f"differs from {lead.path}'s at character {pos}",
                                    pans[i].path, sentence=peer, annotator=annotators[i]))
        if len(everyone) > 1 and len(group) < len(everyone):
            lacking = [a for a in everyone if a not in group]
            out.append(Incident("pyramids-peer-one-annotator", f"peer {peer} is not annotated "
                                f"by {', '.join(lacking)}", lead.path, sentence=peer,
                                annotator=annotators[members[0]]))
        docset = peer.split(".M.")[0]
        for i in members:
            ref = docsets.setdefault(docset, i)
            if ref != i and pans[i].pyramid.text != pans[ref].pyramid.text:
                pos = first_difference(pans[ref].pyramid.text, pans[i].pyramid.text)
                out.append(Incident("pyramids-pan-pyramid-differs", f"the embedded pyramid's "
                                    f"text differs from {pans[ref].path}'s at character {pos}",
                                    pans[i].path, annotator=annotators[i]))
    return out


def pan_names(paths: Sequence[str], names: Sequence[str] | None
              ) -> tuple[list[str], list[str | None]]:
    """The annotator and the peer of each ``.pan`` file: from ``names`` (one per file) and
    the file name, or from ``ANNOTATOR.DOCSET.M.LEN.SEL.PEER.pan`` (the peer None, and the
    annotator the file's stem, when the name says neither)."""
    annotators: list[str] = []
    peers: list[str | None] = []
    for i, path in enumerate(paths):
        annotator, peer = peer_of_name(Path(path).name, names is not None)
        if names is not None:
            annotator = str(names[i])
        annotators.append(annotator if annotator is not None else Path(path).stem)
        peers.append(peer if annotator is not None and peer else None)
    return annotators, peers


def validate_inputs(paths: list[str], input_format: str, *, level: int,
                    encoding: str | None, names: Sequence[str] | None,
                    options: dict[str, Any]) -> Iterator[Incident]:
    """Every incident of ``paths`` (``.pyr`` or ``.pan`` files, one annotator each) up to
    ``level`` (see the module's description; ``options`` are not used by pyramids).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from clusteragree.pyramids.writers import build_pyramid, pyramid_xml
    >>> p = build_pyramid([("D1.M.100.A.A", "the cat sat"), ("D1.M.100.A.B", "a cat sat")],
    ...                   [("A cat sat", [[(0, "cat sat")], [(1, "cat sat")]])])
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = pathlib.Path(folder.name, "D1.pyr")
    >>> _ = path.write_text(pyramid_xml(p).replace('end="', 'end="1'))
    >>> sorted({i.test_id for i in validate_inputs([str(path)], "pyramid", level=2,
    ...                                            encoding=None, names=None, options={})})
    ['pyramids-part-offsets', 'read-repaired']
    >>> folder.cleanup()
    """
    kind = "pan" if input_format == "pan" else "pyramid"

    def read(path: str) -> Pyramid | PeerAnnotation:
        return (read_pan if kind == "pan" else read_pyramid)(path, encoding=encoding)

    models: list[Pyramid | PeerAnnotation] = []
    kept: list[int] = []
    for i, path in enumerate(paths):
        model, found = read_checked(path, partial(read, path))
        yield from found
        if level < 2:
            if model is not None:
                models.append(model)
                kept.append(i)
            continue
        if _as_written(os.fspath(path), model):
            raw: Pyramid | PeerAnnotation | None = model  # (no second parse)
        else:
            raw, more = _raw(os.fspath(path), encoding, kind, model)
            yield from more
        if raw is None:
            continue
        yield from (check_pan(raw) if isinstance(raw, PeerAnnotation) else check_pyramid(raw))
        models.append(model if model is not None else raw)
        kept.append(i)
    if level < 3 or len(models) < 2:
        return
    chosen = [os.fspath(paths[i]) for i in kept]
    if kind == "pan":
        annotators, peers = pan_names(chosen, None if names is None else
                                      [names[i] for i in kept])
        yield from check_across(models, annotators, peers)
    else:
        who = [names[i] if names is not None else Path(paths[i]).stem for i in kept]
        yield from check_across(models, who)


def counts(incidents: Sequence[Incident]) -> Counter[str]:
    """``test id -> count`` (a convenience for reports and tests)."""
    out: Counter[str] = Counter()
    for i in incidents:
        out[i.test_id] += i.count
    return out
