"""Line scans of coreference files for ``validate``: every malformed line, not only the first.

The readers stop at the first fault that nothing repairs (and under lenient reading repair the
others, reporting each kind once). ``clusteragree validate`` needs every place, so each format
has a scan here that reads the raw lines once, keeps going after a fault, and yields one
:class:`~clusteragree.incidents.Incident` per fault: the file's syntax (level 1), and the faults
of one annotation that the model of :mod:`clusteragree.coref.model` cannot hold because the
readers repair them away (a mention marked twice, the same span in two chains, a mention open
across a sentence end; level 2). The tests are registered in :mod:`clusteragree.coref.checks`.

The scans read the brackets as the readers do (:mod:`clusteragree.coref.conll`,
:mod:`clusteragree.coref.corefud`, :mod:`clusteragree.coref.brat`): a close ends the most
recent open mention of its entity, discontinuous CorefUD parts are matched in order.

References
----------
CoNLL-2012 shared task, data description (conll.cemantix.org/2012/data.html).

CorefUD 1.x format (ufal.mff.cuni.cz/corefud); the coreference tests of the UD validator
(``udtools``, ``level6.py``), whose test ids docs/validate.md maps to these.

brat standoff format (brat.nlplab.org/standoff.html).

Examples
--------
A CoNLL document where entity 2 closes without an open (line 3) and entity 1 never closes:

>>> from clusteragree.coref import checks  # registers the tests
>>> lines = ["#begin document d", "d 0 0 a (1", "d 0 1 b 2)", "#end document"]
>>> [(i.test_id, i.line) for i in scan_conll_text("\\n".join(lines), "a.conll")]
[('coref-unopened-close', 3), ('coref-unclosed-mention', 2)]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np

from ..errors import InputError
from ..incidents import Incident
from ..inputs import (
    BRAT_TEXT_BOUND,
    ascii_naturals,
    byte_lines,
    decode_ranges,
    iter_lines,
    parse_int,
)
from .conll import _BEGIN, _CHUNK, _DOUBLE, _END
from .corefud import _CHUNK as _UD_CHUNK
from .corefud import _EMPTY, _GLOBAL, _ID, _NEWDOC, _RANGE
from .corefud_fast import entity_value as _entity_value
from .model import CorefDocument

__all__ = ["corefud_sentence_ends", "scan_brat_ann", "scan_conll_text", "scan_corefud_text"]

Spans = tuple[tuple[int, int], ...]


def _lines(text: str, block: int = 1 << 20) -> Iterator[str]:
    """The lines of ``text`` (split at LF, a final CR removed), split a block of about
    ``block`` characters at a time: C-speed splitting, without a list of every line."""
    start, size = 0, len(text)
    while start < size:
        end = text.find("\n", start + block)
        if end < 0:  # the last block: a final line feed ends its last line
            end = size - 1 if text.endswith("\n") else size
        for line in text[start:end].split("\n"):
            yield line[:-1] if line.endswith("\r") else line
        start = end + 1


def _tokens(spans: Spans) -> str:
    return ",".join(f"{s}-{e - 1}" for s, e in spans)


class _Marks:
    """The mentions of one document as marked (repeats included): a mention marked twice in
    one chain, or the same span in two chains."""

    def __init__(self, path: str, doc: str) -> None:
        self.path, self.doc = path, doc
        self.seen: dict[Spans, tuple[str, int]] = {}

    def add(self, spans: Spans, entity: str, line: int, what: str = "tokens",
            end: int | None = None) -> Incident | None:
        """Note a mention marked at ``line`` (opened there) and complete at ``end``; the
        incident of a repeat is placed where it is complete (as the UD validator)."""
        first = self.seen.get(spans)
        if first is None:
            self.seen[spans] = (entity, line)
            return None
        line = end if end is not None else line
        where = f"{what} {_tokens(spans)}"
        if first[0] == entity:
            return Incident("coref-duplicate-mention",
                            f"the mention at {where} is marked twice in chain {entity} (first "
                            f"at line {first[1]}); remove one", self.path, line, self.doc,
                            _tokens(spans))
        return Incident("coref-same-span",
                        f"the mention at {where} is in chain {first[0]} (line {first[1]}) and "
                        f"in chain {entity}; a span is one mention of one entity: keep one "
                        "(or merge the chains)", self.path, line, self.doc, _tokens(spans))


# --- CoNLL-2011/2012 and SemEval-2010

def _conll_plan(text: str, cells: bool = True
                ) -> tuple[Iterator[tuple[int, str, int, int]], int] | None:
    """The lines of a CoNLL text that the scan must read, found with array operations:
    ``(number, line, token, columns)`` with the token's place in its document and the number
    of columns of the document's first token line (-1 where not a token line). The lines left
    out are token lines inside a document with no coreference (``-``, ``_`` or empty) and the
    columns of its first token line; None when the text needs every line read (columns not
    separated by TABs, odd whitespace). Also the number of lines. Without ``cells``, the lines
    with coreference are left out too (a file its reader read without a notice: only the
    columns are left to check)."""
    got = byte_lines(text)
    if got is None or len(got[1]) == 0:
        return None
    buf, starts, ends = got
    n = len(starts)
    empty = starts == ends
    first = np.where(empty, 0, buf[np.minimum(starts, len(buf) - 1)])
    last = np.where(empty, 0, buf[np.maximum(ends - 1, 0)])
    before = np.where(ends - starts > 1, buf[np.maximum(ends - 2, 0)], 0)
    hashed = first == 35
    special = hashed | (first == 32) | (first == 9)
    tabs = np.flatnonzero(buf == 9)
    count = np.searchsorted(tabs, ends) - np.searchsorted(tabs, starts)
    token = ~empty & ~special
    if (count[token] == 0).any():
        return None  # space-aligned columns: every line is read
    spaced = np.flatnonzero(special & ~hashed)
    for line in decode_ranges(buf, starts[spaced], ends[spaced]):
        if line.strip() and not line.lstrip().startswith("#"):
            return None  # a token line that starts with a space: every line is read
    # begin (1) and end (2) of documents, from the few lines that start with #
    marks = np.zeros(n, dtype=np.int8)
    rows = np.flatnonzero(hashed)
    for row, line in zip(rows.tolist(), decode_ranges(buf, starts[rows], ends[rows]),
                         strict=True):
        marks[row] = 1 if _BEGIN.match(line) else 2 if _END.match(line) else 0
    where = np.where(marks > 0, np.arange(n), -1)
    np.maximum.accumulate(where, out=where)
    state = np.where(where >= 0, marks[np.maximum(where, 0)], 0)  # the last mark so far
    inside = state == 1
    ordinal = np.cumsum(token) - 1  # the token lines before, in the file
    begin_at = np.where(marks == 1, ordinal, -1)
    np.maximum.accumulate(begin_at, out=begin_at)  # ... before the document's #begin
    in_doc = ordinal - begin_at
    # the columns of the document's first token line
    firsts = token & inside & (in_doc == 1) & (marks == 0)
    ref = np.where(firsts, count, -1)
    ref_doc = np.where(marks == 1, -1, ref)
    at = np.where(firsts | (marks == 1), np.arange(n), -1)
    np.maximum.accumulate(at, out=at)
    ref_doc = np.where(at >= 0, ref_doc[np.maximum(at, 0)], -1)
    plain = (last == 9) | (((last == 45) | (last == 95)) & (before == 9))  # -, _ or empty
    keep = ~empty & (special | ~inside | (token & (count != ref_doc)) | firsts)
    if cells:
        keep |= ~empty & ~plain
    rows = np.flatnonzero(keep)
    lines = decode_ranges(buf, starts[rows], ends[rows])
    tokens = np.where(token, in_doc - 1, -1)[rows].tolist()
    columns = np.where(token, ref_doc + 1, -1)[rows].tolist()
    return zip((rows + 1).tolist(), lines, tokens, columns, strict=True), n


def scan_conll_text(text: str, path: str, *, read_clean: bool = False
                    ) -> Iterator[Incident]:
    """The incidents of the lines of a CoNLL coreference file (``text`` decoded, line ends
    LF): document structure, column counts, coreference cells, unbalanced brackets, repeated
    spans. With ``read_clean`` (its reader read it without a notice, so the cells and the
    structure are sound) only the columns are checked, where the arrays can find them."""
    doc: str | None = None
    doc_line = 0
    columns = 0
    stacks: dict[str, list[tuple[int, int]]] = {}
    marks = _Marks(path, "")
    token = 0
    outside = 0  # first line of a run of token lines outside any document
    outside_n = 0
    names: dict[str, int] = {}

    def close_doc(number: int, why: str) -> Iterator[Incident]:
        for entity, stack in stacks.items():
            for start, line in stack:
                yield Incident("coref-unclosed-mention",
                               f"document {doc}: the mention of entity {entity} opened here "
                               f"(token {start}) is not closed {why}; close it", path, line,
                               doc, str(start))
        stacks.clear()

    def flush_outside() -> Iterator[Incident]:
        nonlocal outside, outside_n
        if outside_n:
            yield Incident("coref-document-structure",
                           f"{outside_n} token line(s) outside any document; start documents "
                           "with #begin document NAME", path, outside, count=outside_n)
        outside, outside_n = 0, 0

    planned = _conll_plan(text, not read_clean) if len(text) >= PLAN_FROM else None
    rows = planned[0] if planned is not None else (
        (k, line, -1, 0) for k, line in enumerate(_lines(text), start=1))
    number = 0
    for number, line, at_token, columns_of_doc in rows:
        if at_token >= 0:  # the plan knows the token's place and its document's columns
            token, columns = at_token, columns_of_doc
        first = line[:1]
        if first == "#" or first in _SPACE:  # the few lines that need the regexes
            yield from flush_outside() if _BEGIN.match(line) or _END.match(line) else ()
            begin = _BEGIN.match(line)
            if begin:
                if doc is not None:
                    yield Incident("coref-document-structure",
                                   f"#begin document inside document {doc} (opened at line "
                                   f"{doc_line}); end it with #end document first", path,
                                   number, doc)
                    yield from close_doc(number, "before the next #begin document")
                doc, doc_line, columns, token = begin.group(1), number, 0, 0
                if doc in names:
                    yield Incident("coref-duplicate-document",
                                   f"document {doc} occurs twice in the file (first at line "
                                   f"{names[doc]}); give each part its own name", path,
                                   number, doc)
                else:
                    names[doc] = number
                marks = _Marks(path, doc)
                continue
            if _END.match(line):
                if doc is None:
                    yield Incident("coref-document-structure",
                                   "#end document without #begin document", path, number)
                    continue
                yield from close_doc(number, "by #end document")
                doc = None
                continue
            if not line.strip():
                continue
            if line.lstrip().startswith("#"):
                if doc is not None:
                    yield Incident("coref-comment-in-document",
                                   f"comment line inside document {doc}: the official scorer "
                                   "reads it as a token, which shifts every later mention; "
                                   "remove it", path, number, doc)
                continue
        elif not first:
            continue
        if doc is None:
            outside = outside or number
            outside_n += 1
            continue
        if "\t" in line:
            n = line.count("\t") + 1
            cell = line[line.rfind("\t") + 1:]
        else:
            fields = line.split()
            n, cell = len(fields), fields[-1]
        if n != columns:
            if columns == 0:
                columns = n
            else:
                yield Incident("coref-conll-columns",
                               f"document {doc}: {n} columns here but {columns} on its first "
                               "token line; every token line of a document has the same "
                               "columns", path, number, doc, str(token))
        here = token
        token += 1
        if read_clean or cell == "-" or cell == "_" or not cell:
            continue  # (read without a notice: the cells are sound)
        cell = cell.strip()
        if cell in ("", "-", "_"):
            continue
        if _DOUBLE.search(cell):
            cell = _DOUBLE.sub("", cell)  # SemEval's (N+M): the reader reports it
        pos = 0
        for m in _CHUNK.finditer(cell):
            if m.start() != pos:
                break
            pos = m.end()
            single, opened, closed = m.groups()
            if single is not None:
                found = marks.add(((here, here + 1),), single, number)
                if found is not None:
                    yield found
            elif opened is not None:
                stacks.setdefault(opened, []).append((here, number))
            elif closed is not None:
                stack = stacks.get(closed)
                if not stack:
                    yield Incident("coref-unopened-close",
                                   f"document {doc}: entity {closed} closes here ({cell!r}) but "
                                   "no mention of it is open", path, number, doc, str(here))
                    continue
                start, at = stack.pop()
                found = marks.add(((start, here + 1),), closed, at, end=number)
                if found is not None:
                    yield found
        if pos != len(cell):
            yield Incident("coref-bad-chunk",
                           f"coreference cell {cell!r} cannot be read at {cell[pos:]!r}; "
                           "write (12, 12) or (12) with numeric ids, chunks separated by |",
                           path, number, doc, str(here))
    yield from flush_outside()
    if planned is not None:
        number = planned[1]  # the last line, which the plan may leave out
    if doc is not None:
        yield Incident("coref-document-structure",
                       f"document {doc} (line {doc_line}) has no #end document", path, number,
                       doc)
        yield from close_doc(number, "by the end of the file")


# --- CorefUD

_SPACE = (" ", "\t")
#: Texts of this many characters or more are planned with arrays (:func:`_conll_plan`).
PLAN_FROM = 1 << 16
_PART_IN_ENTITY = re.compile(r"Entity=[^\t\n]*[\[\]]")
#: A part id as the scan requires it (``e3[1/2]``); the reader's pattern also takes a bare id.
_PART = re.compile(r"^(?P<eid>[^\[\]]+)\[(?P<k>[0-9]+)/(?P<n>[0-9]+)\]$")


class _UdDoc:
    def __init__(self, name: str, path: str) -> None:
        self.name = name
        self.first = 0  # the tokens of the file before the document
        self.open: dict[str, list[tuple[int, int]]] = {}  # bracket eid -> [(start, line)]
        # eid[n] -> mentions being assembled: part -> (span, line)
        self.parts: dict[str, list[dict[int, tuple[tuple[int, int], int]]]] = {}
        self.marks = _Marks(path, name)


def _corefud_plan(text: str) -> Iterator[tuple[int, str, int, int]] | None:
    """The lines of a CorefUD text that the scan must read, found with array operations:
    ``(number, line, tokens before it in the file, the last word line at or before it)``.
    The lines left out are word lines of ten columns without ``Entity=``; None when the text
    needs every line read (odd whitespace, a CR inside a line)."""
    got = byte_lines(text)
    if got is None or len(got[1]) == 0:
        return None
    buf, starts, ends = got
    n = len(starts)
    top = len(buf) - 1
    empty = starts == ends
    first = np.where(empty, 0, buf[np.minimum(starts, top)])
    special = empty | (first == 35) | (first == 32) | (first == 9)
    tabs = np.flatnonzero(buf == 9)
    at = np.searchsorted(tabs, starts)
    count = np.searchsorted(tabs, ends) - at
    ten = ~special & (count == 9)
    id_end = np.where(ten, tabs[np.minimum(at, max(len(tabs) - 1, 0))], starts) \
        if len(tabs) else starts
    _, plain = ascii_naturals(buf, starts, id_end)
    plain &= ten
    word = plain.copy()
    tokenish = plain.copy()  # what the loop takes as the last token line
    odd = np.flatnonzero(ten & ~plain)
    for row, wid in zip(odd.tolist(), decode_ranges(buf, starts[odd], id_end[odd]),
                        strict=True):
        if _EMPTY.fullmatch(wid):
            word[row] = tokenish[row] = True
        elif not _RANGE.fullmatch(wid):
            tokenish[row] = True  # a word id the reader reads (+1, 01), or a bad one
            word[row] = _number(wid, 0)
    entity = np.zeros(n, dtype=bool)
    raw = buf.tobytes()
    hits = [m.start() for m in re.finditer(rb"Entity=", raw)]
    del raw
    if hits:
        entity[np.searchsorted(ends, np.array(hits, dtype=np.int64))] = True
    keep = special | ~ten | ~plain | entity
    words = np.flatnonzero(word)
    if len(words):
        keep[words[0]] = True  # it starts a document when no # newdoc came before
    before = np.cumsum(word) - word
    last = np.where(tokenish, np.arange(n) + 1, 0)
    np.maximum.accumulate(last, out=last)
    rows = np.flatnonzero(keep)
    lines = decode_ranges(buf, starts[rows], ends[rows])
    return zip((rows + 1).tolist(), lines, before[rows].tolist(), last[rows].tolist(),
               strict=True)


def corefud_sentence_ends(text: str, path: str, documents: Iterable[CorefDocument]
                          ) -> list[Incident] | None:
    """What the scan of a CorefUD file finds when its reader read it without a notice (its
    brackets, parts and columns are then sound): the mentions still open at the end of
    their sentence, from the documents read and the file's blank lines. None when the
    file needs the whole scan (discontinuous parts, whose ids the scan checks, or odd
    whitespace)."""
    if _PART_IN_ENTITY.search(text):
        return None
    got = byte_lines(text)
    if got is None:
        return None
    buf, starts, ends = got
    empty = starts == ends
    first = np.where(empty, 0, buf[np.minimum(starts, len(buf) - 1)])
    spaced = np.flatnonzero(~empty & ((first == 32) | (first == 9)))
    blank = empty.copy()
    for row, line in zip(spaced.tolist(), decode_ranges(buf, starts[spaced], ends[spaced]),
                         strict=True):
        blank[row] = not line.strip()
    blanks = np.flatnonzero(blank) + 1  # line numbers
    del buf, starts, ends, empty, first, blank
    found: list[Incident] = []
    for doc in documents:
        if not doc.mentions or not doc.token_lines:
            continue
        lines = np.asarray(doc.token_lines)
        opened = np.array([m.start for m in doc.mentions])
        last = np.array([m.end - 1 for m in doc.mentions])
        where = np.searchsorted(blanks, lines[opened])
        crossing = np.flatnonzero(where != np.searchsorted(blanks, lines[last]))
        for k in crossing.tolist():
            m = doc.mentions[k]
            end_at = int(blanks[where[k]])
            sentence_last = int(lines[np.searchsorted(lines, end_at) - 1])
            found.append(Incident(
                "coref-cross-sentence-mention", f"document {doc.name}: the mention {m.entity} "
                f"opened at line {m.line} (token {m.start}) is still open at the end of its "
                "sentence, here", path, sentence_last, doc.name, str(m.start)))
    found.sort(key=lambda i: (i.line or 0))
    return found


def scan_corefud_text(text: str, path: str) -> Iterator[Incident]:
    """The incidents of the lines of a CorefUD CoNLL-U file (``text`` decoded, line ends LF):
    columns and word ids, ``Entity=`` syntax and its header, brackets that never close or
    close without an open, discontinuous parts, annotations on multiword-token lines,
    mentions across a sentence end, repeated spans."""
    fields: list[str] | None = None
    stem = Path(path).stem
    doc: _UdDoc | None = None
    names: dict[str, int] = {}
    sentence_start = 0
    last_token = 0

    def finish(d: _UdDoc, why: str) -> Iterator[Incident]:
        for eid, stack in d.open.items():
            for start, line in stack:
                yield Incident("coref-unclosed-mention",
                               f"document {d.name}: the mention {eid} opened here (token "
                               f"{start}) is not closed {why}; close it", path, line, d.name,
                               str(start))
        d.open.clear()
        for key, groups in d.parts.items():
            n = int(key.rsplit("[", 1)[1][:-1])
            for group in groups:
                if len(group) != n:
                    first = group[min(group)]
                    yield Incident("coref-discontinuous-parts",
                                   f"document {d.name}: the discontinuous mention "
                                   f"{key.split('[')[0]} has {len(group)} of its {n} parts "
                                   f"(parts {sorted(group)}); give every part "
                                   f"{key.split('[')[0]}[k/{n}]", path, first[1], d.name,
                                   str(first[0][0]))
                    continue
                spans = tuple(sorted(group[k][0] for k in group))
                found = d.marks.add(spans, key.split("[")[0], group[min(group)][1])
                if found is not None:
                    yield found
        d.parts.clear()

    def start(name: str, number: int) -> tuple[_UdDoc, list[Incident]]:
        if name not in names:
            names[name] = number
            return _UdDoc(name, path), []
        return _UdDoc(name, path), [Incident(
            "coref-duplicate-document", f"document {name} starts again here (first at line "
            f"{names[name]}); give each document its own # newdoc id (a document without an "
            "id is named after the file)", path, number, name)]

    planned = _corefud_plan(text) if len(text) >= PLAN_FROM else None
    rows = planned if planned is not None else (
        (k, line, -1, -1) for k, line in enumerate(_lines(text), start=1))
    ordinal = 0  # the tokens of the file before this line
    for number, line, before, last_word in rows:
        if before >= 0:  # from the plan
            ordinal, last_token = before, last_word
        first = line[:1]
        if first == "#":
            m = _NEWDOC.match(line)
            if m:
                if doc is not None:
                    yield from finish(doc, "by the end of its document")
                given = _ID.fullmatch(m.group("rest") or "")
                doc, found = start((given.group("id").strip() if given else "") or stem,
                                   number)
                doc.first = ordinal
                yield from found
                continue
            g = _GLOBAL.match(line)
            if g:
                fields = g.group(1).split("-")
            continue
        if not first or (first in _SPACE and not line.strip()):
            if doc is not None and doc.open:
                for eid, stack in doc.open.items():
                    for s, at in stack:
                        if at >= sentence_start:
                            yield Incident(
                                "coref-cross-sentence-mention",
                                f"document {doc.name}: the mention {eid} opened at line {at} "
                                f"(token {s}) is still open at the end of its sentence, here",
                                path, last_token, doc.name, str(s))
            sentence_start = number + 1
            continue
        tabs = line.count("\t")
        if tabs != 9:
            yield Incident("coref-conllu-columns",
                           f"{tabs + 1} columns, expected the 10 TAB-separated columns of "
                           "CoNLL-U", path, number, None if doc is None else doc.name)
            continue
        wid = line[:line.index("\t")]
        if not (wid.isdigit() and wid.isascii()):
            if _RANGE.fullmatch(wid):
                if _entity_value(line[line.rfind("\t") + 1:]) is not None:
                    yield Incident("coref-multiword-entity",
                                   f"Entity= on the multiword-token line {wid}: its mentions "
                                   "are not read (they belong on the word lines that follow)",
                                   path, number, None if doc is None else doc.name)
                continue
            if not _EMPTY.fullmatch(wid) and not _number(wid, 0):
                last_token = number
                yield Incident("coref-conllu-word-id",
                               f"word id {wid!r} is not a number, a range (3-4) or an empty "
                               "node (5.1)", path, number, None if doc is None else doc.name)
                continue
        last_token = number
        if doc is None:
            doc, found = start(stem, number)
            doc.first = ordinal
            yield from found
        here = ordinal - doc.first
        ordinal += 1
        if "Entity=" not in line:
            continue
        entity = _entity_value(line[line.rfind("\t") + 1:])
        if entity is None:
            continue
        if fields is None:
            yield Incident("coref-global-entity",
                           "Entity= but no # global.Entity header before it declaring the "
                           "fields (for example # global.Entity = eid-etype-head-other); add "
                           "it at the top of the file", path, number, doc.name)
            continue
        yield from _entity_chunks(entity, fields, doc, here, number, path)
    if doc is not None:
        yield from finish(doc, "by the end of the file")


def _entity_chunks(value: str, fields: list[str], doc: _UdDoc, here: int, number: int,
                   path: str) -> Iterator[Incident]:
    chunks = _UD_CHUNK.findall(value)
    if "".join(chunks) != value:
        yield Incident("coref-entity-syntax",
                       f"cannot read Entity={value!r}: chunks are (eid-attributes, "
                       "(eid-attributes) or eid)", path, number, doc.name, str(here))
        return
    for chunk in chunks:
        if chunk.startswith("("):
            body = chunk[1:-1] if chunk.endswith(")") else chunk[1:]
            values = body.split("-")
            eid_at, grp_at, head_at = _field_places(fields)
            size = len(values)
            eid = ((values[eid_at] if 0 <= eid_at < size else "")
                   or (values[grp_at] if 0 <= grp_at < size else "") or values[0])
            head = values[head_at] if 0 <= head_at < size else None
            if head and not _number(head, 1):
                yield Incident("coref-entity-syntax",
                               f"the head of {eid} is {head!r}: it is the position (1, 2, ...) "
                               "of the head word in the mention", path, number, doc.name,
                               str(here))
            if not _part_ok(eid):
                yield Incident("coref-part-id",
                               f"the entity id {eid!r} is not a discontinuous part of the form "
                               "e3[k/n] with 1 <= k <= n and n >= 2; it is read as written",
                               path, number, doc.name, str(here))
            if chunk.endswith(")"):
                yield from _closed(doc, eid, here, number, here, number)
            else:
                doc.open.setdefault(eid, []).append((here, number))
        else:
            eid = chunk[:-1]
            stack = doc.open.get(eid)
            if not stack:
                yield Incident("coref-unopened-close",
                               f"document {doc.name}: the mention {eid} closes here but is not "
                               "open", path, number, doc.name, str(here))
                continue
            start, at = stack.pop()
            yield from _closed(doc, eid, start, at, here, number)


def _number(text: str, lo: int) -> bool:
    """Whether the reader reads ``text`` as a whole number of at least ``lo`` (a word id, a
    head): what it refuses is an error here, and nothing more."""
    try:
        parse_int(text, what="number", lo=lo)
    except InputError:
        return False
    return True


_PLACES: dict[tuple[str, ...], tuple[int, int, int]] = {}


def _field_places(fields: list[str]) -> tuple[int, int, int]:
    """Where ``eid``, ``GRP`` and ``head`` are among the fields of ``# global.Entity`` (-1:
    not there; of a name given twice, the last, as the reader's dict of the fields keeps)."""
    key = tuple(fields)
    found = _PLACES.get(key)
    if found is None:
        last = {name: k for k, name in enumerate(fields)}  # the reader's dict keeps the last
        found = _PLACES[key] = (last.get("eid", -1), last.get("GRP", -1), last.get("head", -1))
    return found


def _part_ok(eid: str) -> bool:
    if "[" not in eid and "]" not in eid:
        return True
    m = _PART.match(eid)
    return m is not None and 1 <= int(m.group("k")) <= int(m.group("n")) and int(m.group("n")) > 1


def _closed(doc: _UdDoc, eid: str, start: int, line: int, here: int, end: int
            ) -> Iterator[Incident]:
    m = _PART.match(eid)
    if m is None:
        found = doc.marks.add(((start, here + 1),), eid, line, end=end)
        if found is not None:
            yield found
        return
    key = f"{m.group('eid')}[{m.group('n')}]"
    k = int(m.group("k"))
    groups = doc.parts.setdefault(key, [])
    group = next((g for g in groups if k not in g), None)
    if group is None:
        group = {}
        groups.append(group)
    group[k] = ((start, here + 1), line)


# --- BRAT

_KNOWN = ("R", "E", "A", "N", "#")


def scan_brat_ann(annotation: str, content: str, path: str, text_path: str
                  ) -> Iterator[Incident]:
    """The incidents of one ``.ann`` file over its text ``content``: lines BRAT does not
    define, offsets, surfaces against the text, ids defined twice or unknown, chains, and
    repeated spans in one chain or two."""
    doc = Path(path).stem
    mentions: dict[str, tuple[Spans, int]] = {}
    chains: list[tuple[list[str], int]] = []
    for number, line in iter_lines(annotation):
        if not line.strip():
            continue
        if line.startswith("T"):
            m = BRAT_TEXT_BOUND.match(line)
            if not m:
                yield Incident("coref-brat-line",
                               f"cannot read the text-bound annotation {line[:60]!r}: "
                               "T<n>TAB<type> <start> <end>[;<start> <end>]TAB<text>", path,
                               number, doc)
                continue
            tid, _, offsets, surface = m.groups()
            spans = tuple(sorted((int(a), int(b)) for a, b in
                                 (pair.split() for pair in offsets.split(";"))))
            bad = [(s, e) for s, e in spans if not 0 <= s < e <= len(content)]
            if bad:
                yield Incident("coref-brat-offsets",
                               f"{tid} offsets {bad[0][0]}-{bad[0][1]} are empty or outside "
                               f"the text ({len(content)} characters, {text_path})", path,
                               number, doc, tid)
                continue
            found = " ".join(content[s:e] for s, e in spans)
            flat = found.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
            if surface not in (found, flat):
                yield Incident("coref-mention-text",
                               f"{tid} says {surface[:40]!r} but the text at {offsets} is "
                               f"{found[:40]!r}; is {text_path} the annotated text?", path,
                               number, doc, tid)
            if tid in mentions:
                yield Incident("coref-brat-id", f"{tid} is defined twice (first at line "
                               f"{mentions[tid][1]})", path, number, doc, tid)
                continue
            mentions[tid] = (spans, number)
        elif line.startswith("*"):
            parts = line.split("\t")
            ids = parts[1].split()[1:] if len(parts) > 1 else []
            if not ids:
                yield Incident("coref-empty-chain", "an equivalence line (*) that names no "
                               "mention; remove it", path, number, doc)
            chains.append((ids, number))
        elif line[0] not in _KNOWN:
            yield Incident("coref-brat-line", f"a line BRAT does not define: {line[:40]!r}",
                           path, number, doc)
    chain_of: dict[str, tuple[int, int]] = {}  # id -> (chain index, line)
    for k, (ids, number) in enumerate(chains):
        for tid in ids:
            if tid not in mentions:
                yield Incident("coref-brat-id", f"the chain names {tid}, which no T line of "
                               "the file defines", path, number, doc, tid)
                continue
            if tid in chain_of and chain_of[tid][0] != k:
                yield Incident("coref-mention-in-two-chains",
                               f"{tid} is in two chains (lines {chain_of[tid][1]} and "
                               f"{number}); a mention belongs to one entity", path, number,
                               doc, tid)
                continue
            chain_of.setdefault(tid, (k, number))
    # Two ids of the same characters: one mention marked twice in a chain, or a span in two
    # chains; a repeat outside chains is LitBank's convention (a type, then a chain), which
    # the reader merges and reports.
    by_spans: dict[Spans, str] = {}
    for tid, (spans, number) in mentions.items():
        first = by_spans.setdefault(spans, tid)
        if first == tid or tid not in chain_of or first not in chain_of:
            continue
        chain = f"on line {chain_of[tid][1]}"
        if chain_of[tid][0] == chain_of[first][0]:
            yield Incident("coref-duplicate-mention",
                           f"{tid} marks the characters {_tokens(spans)} of {first} (line "
                           f"{mentions[first][1]}), and both are in the chain {chain}; remove "
                           "one", path, number, doc, tid)
        else:
            yield Incident("coref-same-span",
                           f"{tid} marks the characters {_tokens(spans)} of {first}, and they "
                           f"are in two chains (lines {chain_of[first][1]} and "
                           f"{chain_of[tid][1]}); keep one mention, or merge the chains", path,
                           number, doc, tid)
