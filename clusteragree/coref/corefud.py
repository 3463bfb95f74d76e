"""CorefUD: CoNLL-U with coreference in the MISC column (``Entity=``).

A document starts at ``# newdoc id = ...``; ``# global.Entity = eid-etype-head-other`` declares
the dash-separated fields of an opening chunk (``eid`` or the legacy ``GRP`` names the entity).
In MISC, ``Entity=`` holds chunks without separators: ``(e1-person-2-`` opens a mention (with its
fields), ``e1)`` closes it (id only), ``(e1-person-1-)`` is a one-word mention.
Discontinuous mentions are written as parts ``e3[1/2]``, ``e3[2/2]`` and joined. ``head`` is the
1-based position of the head word within the mention (among the words of every part of a
discontinuous one). Multiword-token lines (``3-4``) are skipped (an ``Entity=`` on one is
reported, kind ``ignored``);
empty nodes (``5.1``) are tokens, since zero mentions live on them.

A document starts at each ``# newdoc`` (with or without an id); one without an id, and the
tokens before the first ``# newdoc``, are named after the file's stem. Two documents of one name
are refused, naming both lines: one would replace the other.

Errors, each with the file and line: a close without an open, mentions open at the end of a
document, discontinuous parts missing, a mention marked twice (these four are repaired under
lenient reading: the close ignored, the mention dropped, the first of the two kept), a missing
``# global.Entity`` in a document that has ``Entity=`` annotations, a non-integer head, a chunk
that cannot be read, a line that is not ten TAB-separated columns, two documents of one name.
Lines may end in LF, CRLF or CR (:mod:`clusteragree.coref.reading`).
"""

from __future__ import annotations

import bisect
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

from ..errors import InputError, ParameterTypeError, Tally, is_strict
from ..inputs import CR_MIXED, decode, iter_lines, line_ends, objects_in_bulk, parse_int, read_bytes
from .corefud_fast import CorefudLines, corefud_lines, entity_value
from .model import CorefCorpus, CorefDocument, Mention, unique_mentions
from .reading import refusal

__all__ = ["read_corefud"]

_CHUNK = re.compile(r"\([^()]+\)?|[^()]+\)")
_RANGE = re.compile(r"[0-9]+-[0-9]+")
_EMPTY = re.compile(r"[0-9]+\.[0-9]+")
_PART = re.compile(r"^(?P<eid>[^\[\]]+)(?:\[(?P<k>[0-9]+)/(?P<n>[0-9]+)\])?$")
_NEWDOC = re.compile(r"#\s*newdoc(?:\s+(?P<rest>.*?))?\s*$")
_ID = re.compile(r"id\s*=\s*(?P<id>.*)")
_GLOBAL = re.compile(r"#\s*global\.Entity\s*=\s*(\S+)")
_READ_COMMENT = re.compile(r"newdoc|global\.Entity")  # in every comment the two above match
#: A chunk of an ``Entity=`` value as read: whether it opens a mention, whether it closes one,
#: the entity (with its part, ``e3[1/2]``), (entity without part, etype) when an etype is
#: given, the head, a head that is not a number (refused where met) and the part
#: (entity[count], part, count) of a discontinuous mention.
_Chunk = tuple[bool, bool, str, "tuple[str, str] | None", "int | None", "str | None",
               "tuple[str, int, int] | None"]
_CHUNKS_KEPT = 1 << 16  # distinct Entity= values whose chunks are kept at a time
#: The note of an entity whose mentions give it different types (``etype``).
ETYPES_DIFFER = "entities whose mentions give them different types (etype): the first kept"
#: The repairs of lenient reading.
UNOPENED = "closes of a mention that is not open ignored"
UNCLOSED = "mentions not closed by the end of their document dropped"
PARTS = "discontinuous mentions with parts missing dropped"
#: The notice of mentions marked on a multiword-token line (they belong on its words).
MWT_ENTITY = ("Entity= on multiword-token lines not read (mentions are marked on the word lines "
              "that follow)")


class _Doc:
    def __init__(self, name: str, line: int) -> None:
        self.name, self.line = name, line
        self.fields: list[str] | None = None
        self.tokens: list[str] = []
        self.token_lines: list[int] = []
        self.open: dict[str, list[tuple[int, int, int | None, int]]] = {}
        self.order: list[int] = []  # of each mention in ``mentions``: when it was opened
        self.counter = 0
        # entity[n] -> the discontinuous mentions of n parts being read, in order: each a
        # dict part number -> (span, line, head: the 1-based word of the whole mention)
        self.parts: dict[str, list[dict[int, tuple[tuple[int, int], int, int | None]]]] = {}
        self.expected: dict[str, int] = {}
        self.mentions: list[Mention] = []
        self.has_entities = False
        self.etypes: dict[str, str] = {}  # entity -> its first etype
        self.first = 0  # its first token among the file's (the vectorised path)


def read_corefud(path: str | os.PathLike[str], *, lenient: bool = False,
                 encoding: str | None = None, fast: bool = True) -> CorefCorpus:
    """Read a CorefUD CoNLL-U file (see the module docstring).

    With ``lenient``, a close without an open is ignored, a mention left open at the end of
    its document or a discontinuous mention with parts missing is dropped, and a mention
    marked twice keeps its first occurrence, each kind counted in ``repairs`` and reported
    once with its first line; every other problem is an error: two documents of one name,
    word ids and heads that are not ASCII numbers among them. Under strict reading
    (:func:`clusteragree.errors.strict`, the command line's ``--strict``) the file is read
    through as under ``lenient``, every kind of problem goes to the ledger, and then the first
    is refused. Multiword-token lines (``3-4``) are recognised by their form and are not
    tokens; empty nodes (``5.1``, the zeros of pro-drop languages) are tokens, since mentions
    may be made of them.

    Parameters
    ----------
    path : str or os.PathLike
        The CoNLL-U file (ten TAB-separated columns, coreference in ``Entity=`` of MISC; lines
        ending in LF, CRLF or CR). A document starts at each ``# newdoc``; tokens before the
        first one, and a document without an id, are named after the file's stem.
    lenient : bool, default=False
        Repair what can be repaired (counted and reported) instead of raising.
    encoding : str, optional
        The file's encoding (default UTF-8).
    fast : bool, default=True
        Scan a well-formed file with the vectorised reader
        (:func:`clusteragree.coref.corefud_fast.corefud_lines`), which finds the same tokens,
        comments and ``Entity=`` values; any other file, and every file with ``fast=False``,
        is read line by line. Both paths read the comments and ``Entity=`` values with the
        same code, so errors and repairs are the same.

    Returns
    -------
    CorefCorpus
        The documents by ``newdoc id``, format ``"corefud"``. Mentions carry their head token
        (document position) when the opening chunk has a ``head`` field.

    Raises
    ------
    InputError
        For every problem listed in the module docstring, with the file and line, and a file
        without token lines.
    ParameterTypeError
        ``path`` is not a path.

    References
    ----------
    Nedoluzhko, A., Novák, M., Popel, M., Žabokrtský, Z., Zeldes, A., Zeman, D. (2022).
    CorefUD 1.0: Coreference meets Universal Dependencies. Proceedings of LREC 2022.

    CorefUD 1.x format (ufal.mff.cuni.cz/corefud), as read by Udapi
    (github.com/udapi/udapi-python, ``udapi/core/coref.py``): ``# global.Entity``, the
    ``Entity=`` chunks, their order, discontinuous parts and heads.

    docs/coref.md, "Reading" and "Input checks and warnings".

    Examples
    --------
    "Mary saw her cat": Mary and her are entity ``e1``; "her cat" is ``e2``, whose head is
    its 2nd word, cat (token 3). Token 3 of the document opens ``e2`` and holds the one-word
    mention of ``e1``; token 4 closes ``e2``:

    >>> import pathlib, tempfile
    >>> def row(i, form, misc):
    ...     return "\\t".join([i, form, "_", "_", "_", "_", "_", "_", "_", misc])
    >>> text = "\\n".join([
    ...     "# global.Entity = eid-etype-head-other",
    ...     "# newdoc id = d1",
    ...     "# sent_id = 1",
    ...     row("1", "Mary", "Entity=(e1-person-1-)"),
    ...     row("2", "saw", "_"),
    ...     row("3", "her", "Entity=(e2-animal-2-(e1-person-1-)"),
    ...     row("4", "cat", "SpaceAfter=No|Entity=e2)"),
    ...     row("5", ".", "_"), ""])
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp) / "a.conllu"
    ...     _ = path.write_text(text, encoding="utf-8")
    ...     corpus = read_corefud(path)
    >>> doc = corpus.documents["d1"]
    >>> [(m.start, m.end, m.entity, m.head) for m in doc.mentions]
    [(0, 1, 'e1', 0), (2, 4, 'e2', 3), (2, 3, 'e1', 2)]
    >>> {e: len(ms) for e, ms in doc.chains.items()}
    {'e1': 2, 'e2': 1}
    """
    if not isinstance(path, (str, os.PathLike)):
        raise ParameterTypeError(f"path must be a file path. Got {type(path).__name__}.")
    name = os.fspath(path)
    text = decode(read_bytes(name), name, encoding=encoding)
    state = _Reading(name, lenient)
    text, cr_line, cr_count = line_ends(text)
    state.tally.add("converted", CR_MIXED, cr_line, cr_count)
    with objects_in_bulk():  # tokens, chunks and mentions: no cycles to collect
        scanned = corefud_lines(text) if fast else None
        if scanned is not None:
            del text  # what the reading needs is scanned
            _assemble(state, scanned)
        else:
            _read_lines(state, text)
    if not state.docs:
        raise state.fail("no token lines: not a CoNLL-U file", 1)
    repairs = {what: n for what, n in state.tally.counts().items()
               if what not in (CR_MIXED, ETYPES_DIFFER, MWT_ENTITY)}
    state.tally.report()  # which empties the tally
    return CorefCorpus(state.docs, name, repairs, "corefud")


class _Reading:
    """What a reading of one file has found so far; both paths feed it, in file order.

    Under lenient or strict reading what can be repaired is repaired and counted in
    ``tally`` (strict reading refuses it once the file is read, every kind in the ledger);
    otherwise the first such problem is an error at once."""

    def __init__(self, name: str, lenient: bool) -> None:
        self.name, self.lenient = name, lenient
        self.repairing = lenient or is_strict()
        self.tally = Tally(name)
        self.docs: dict[str, CorefDocument] = {}
        self.doc_lines: dict[str, tuple[int, bool]] = {}  # name -> (line, named by an id)
        self.doc: _Doc | None = None
        self.global_fields: list[str] | None = None
        # Gives a document its tokens before it is finished (the vectorised path).
        self.fill: Callable[[_Doc, int], None] | None = None
        # The chunks of the Entity= values met so far, read with the fields ``fields``.
        self.fields: list[str] | None = None
        self.chunks: dict[str, tuple[_Chunk, ...]] = {}

    def fail(self, message: str, line: int) -> InputError:
        """The error, once the problems counted so far are reported."""
        return refusal(self.tally, InputError(message, path=self.name, line=line))

    def repair(self, what: str, line: int, message: str, at: int, count: int = 1) -> None:
        """Count a repair first met at ``line``, or (neither lenient nor strict reading)
        refuse it at once: ``message`` at line ``at``."""
        if not self.repairing:
            raise self.fail(message, at)
        self.tally.add("repaired", what, line, count)

    def comment(self, line: str, number: int) -> bool:
        """Read a comment line; True when it starts a document."""
        if not _READ_COMMENT.search(line):
            return False  # neither pattern below can match
        m = _NEWDOC.match(line)
        if m:
            if self.doc is not None:
                self.finish(number)
            given = _ID.fullmatch(m.group("rest") or "")
            doc_id = given.group("id").strip() if given else ""
            self.start(doc_id or Path(self.name).stem, number, bool(doc_id))
            return True
        g = _GLOBAL.match(line)
        if g:
            self.global_fields = g.group(1).split("-")
            if self.doc is not None:
                self.doc.fields = self.global_fields
        return False

    def start(self, doc_name: str, number: int, named: bool) -> _Doc:
        """Start a document; two documents of one name are refused, naming both lines."""
        if doc_name in self.doc_lines:
            first, first_named = self.doc_lines[doc_name]
            if named and first_named:
                raise self.fail(f"# newdoc id = {doc_name} again (first at line {first}); give "
                                "each document its own id", number)
            raise self.fail(f"the documents at lines {first} and {number} are both named "
                            f"{doc_name} (a document without # newdoc id is named after the "
                            "file); give each its own # newdoc id", number)
        self.doc_lines[doc_name] = (number, named)
        self.doc = _Doc(doc_name, number)
        self.doc.fields = self.global_fields
        return self.doc

    def unnamed(self, number: int) -> _Doc:
        """The document of tokens before any ``# newdoc``, named after the file."""
        return self.start(Path(self.name).stem, number, False)

    def finish(self, line: int) -> None:
        d = self.doc
        assert d is not None
        if self.fill is not None:
            self.fill(d, line)
        still = sorted((ln, e) for e, stack in d.open.items() for _, ln, _, _ in stack)
        if still:
            self.repair(UNCLOSED, still[0][0], f"document {d.name}: mention of {still[0][1]} "
                        f"opened at line {still[0][0]} is not closed", line, len(still))
        for eid, groups in d.parts.items():
            for group in groups:
                parts = [group[k] for k in sorted(group)]
                if len(parts) != d.expected[eid]:
                    self.repair(PARTS, parts[0][1], f"document {d.name}: discontinuous "
                                f"mention {eid} has {len(parts)} of {d.expected[eid]} parts",
                                parts[0][1])
                    continue
                spans = tuple(sorted(p[0] for p in parts))
                head = next((h for _, _, h in parts if h is not None), None)
                if head is not None:  # the head counts the words of every part (as Udapi)
                    words = [t for s, e in spans for t in range(s, e)]
                    head = words[head - 1] if head <= len(words) else spans[0][0] + head - 1
                d.mentions.append(Mention(spans, eid.split("[")[0], parts[0][1], head))
                d.order.append(0)  # discontinuous mentions first, in the order read
        ordered = [d.mentions[i] for i in sorted(range(len(d.mentions)),
                                                 key=d.order.__getitem__)]
        try:
            kept = unique_mentions(d.name, ordered, lenient=self.repairing, repairs=self.tally,
                                   path=self.name, line=d.line)
        except InputError as err:
            raise refusal(self.tally, err) from None
        present = {m.entity for m in kept}
        self.docs[d.name] = CorefDocument(
            d.name, tuple(d.tokens), kept, self.name, d.line, tuple(d.token_lines),
            entity_types=tuple((e, t) for e, t in d.etypes.items() if e in present))

    def entity(self, entity: str, token: int, number: int) -> None:
        """Read the value of ``Entity=`` of token ``token`` (of the current document)."""
        doc = self.doc
        assert doc is not None
        if doc.fields is None:
            raise self.fail("Entity= annotations but no # global.Entity header declaring "
                            "their fields (for example # global.Entity = eid-etype-head-other)",
                            number)
        if doc.fields is not self.fields:  # the chunks were read with other fields
            self.fields, self.chunks = doc.fields, {}
        chunks = self.chunks.get(entity)
        if chunks is None:
            chunks = self.read_chunks(entity, doc.fields, number)
            if len(self.chunks) >= _CHUNKS_KEPT:
                self.chunks.clear()
            self.chunks[entity] = chunks
        for opens, closes, eid, typed, head_n, bad_head, part in chunks:
            if opens:
                if typed is not None and doc.etypes.setdefault(*typed) != typed[1]:
                    self.tally.add("note", ETYPES_DIFFER, number)
                if bad_head is not None:  # refused, at this line
                    try:
                        parse_int(bad_head, what=f"head of {eid}", path=self.name,
                                  line=number, lo=1)
                    except InputError as err:
                        raise refusal(self.tally, err) from None
                doc.counter += 1
                if closes:
                    _close(doc, eid, part, token, number, head_n, token, doc.counter)
                else:
                    doc.open.setdefault(eid, []).append((token, number, head_n, doc.counter))
            else:
                stack = doc.open.get(eid)
                if not stack:
                    self.repair(UNOPENED, number, f"mention {eid} closes here but was not "
                                "opened", number)
                    continue
                start, opened_at, head_n, order = stack.pop()
                _close(doc, eid, part, start, opened_at, head_n, token, order)

    def read_chunks(self, entity: str, fields: list[str], number: int) -> tuple[_Chunk, ...]:
        """The chunks of an ``Entity=`` value (of line ``number``) read with ``fields``."""
        chunks = _CHUNK.findall(entity)
        if "".join(chunks) != entity:
            raise self.fail(f"cannot read Entity={entity!r}", number)
        out: list[_Chunk] = []
        for chunk in chunks:
            if not chunk.startswith("("):
                eid = chunk[:-1]
                out.append((False, True, eid, None, None, None, _part(eid)))
                continue
            closes = chunk.endswith(")")
            values = (chunk[1:-1] if closes else chunk[1:]).split("-")
            info = dict(zip(fields, values, strict=False))
            eid = info.get("eid") or info.get("GRP") or values[0]
            etype = info.get("etype")
            typed = (eid.split("[")[0], etype) if etype and etype != "_" else None
            head = info.get("head")
            head_n, bad_head = None, None
            if head:
                try:
                    head_n = parse_int(head, what=f"head of {eid}", path=self.name, line=number,
                                       lo=1)
                except InputError:
                    bad_head = head  # refused where it is met, after the chunks before it
            out.append((True, closes, eid, typed, head_n, bad_head, _part(eid)))
        return tuple(out)


def _read_lines(state: _Reading, text: str) -> None:
    """The line-by-line reading: every line in turn, errors as they come."""
    last = 0
    for number, line in iter_lines(text):
        last = number
        if line.startswith("#"):
            state.comment(line, number)
            continue
        if not line.strip():
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            raise state.fail(f"{len(cols)} columns, expected the 10 TAB-separated columns of "
                             "CoNLL-U", number)
        if _RANGE.fullmatch(cols[0]):  # a multiword token: its words follow
            if entity_value(cols[9]):
                state.tally.add("ignored", MWT_ENTITY, number)
            continue
        if not _EMPTY.fullmatch(cols[0]):  # empty nodes (zeros) are tokens: they corefer
            try:
                parse_int(cols[0], what="word id", path=state.name, line=number, lo=0)
            except InputError as err:
                raise refusal(state.tally, err) from None
        doc = state.doc or state.unnamed(number)
        token = len(doc.tokens)
        doc.tokens.append(sys.intern(cols[1]))
        doc.token_lines.append(number)
        entity = entity_value(cols[9])
        if entity:
            state.entity(entity, token, number)
    if state.doc is not None:
        state.finish(last)


def _assemble(state: _Reading, lines: CorefudLines) -> None:
    """The reading of a file scanned by :func:`corefud_lines`: comment lines and tokens with
    ``Entity=`` in file order, the other tokens taken in bulk (a document's tokens are those
    from its start to the line where it is finished)."""
    token_lines = lines.token_lines

    def fill(doc: _Doc, line: int) -> None:
        end = bisect.bisect_right(token_lines, line)
        doc.tokens, doc.token_lines = lines.words[doc.first:end], token_lines[doc.first:end]

    state.fill = fill
    entities = lines.entities
    entity_lines = [token_lines[k] for k, _ in entities]
    done = 0

    def read_entities(before: int) -> None:
        """The Entity= values of the lines before line ``before`` not yet read."""
        nonlocal done
        end = bisect.bisect_left(entity_lines, before, lo=done)
        if end > done:
            doc = state.doc
            assert doc is not None
            first, entity = doc.first, state.entity
            for (k, value), number in zip(entities[done:end], entity_lines[done:end],
                                          strict=True):
                entity(value, k - first, number)
            done = end

    # The comments that start a document or declare fields (the others are not read) and the
    # first token (which opens a document named after the file when no # newdoc came before
    # it), in file order, each after the Entity= values before it.
    marks: list[tuple[int, str | None]] = [
        (number, text) for number, text in lines.comments if _READ_COMMENT.search(text)]
    if token_lines:
        marks.insert(bisect.bisect_left(marks, (token_lines[0], "")), (token_lines[0], None))
    for number, comment in marks:
        read_entities(number)
        if comment is None:
            if state.doc is None:
                state.unnamed(number)
        elif state.comment(comment, number):
            assert state.doc is not None
            state.doc.first = bisect.bisect_left(token_lines, number)
    read_entities(sys.maxsize)
    if state.doc is not None:
        state.finish(lines.last)


def _part(eid: str) -> tuple[str, int, int] | None:
    """(entity[count], part, count) of a part of a discontinuous mention (``e3[1/2]``)."""
    m = _PART.match(eid)
    if m is None or m.group("k") is None:
        return None
    return eid.split("[")[0] + f"[{m.group('n')}]", int(m.group("k")), int(m.group("n"))


def _close(doc: _Doc, eid: str, part: tuple[str, int, int] | None, start: int, line: int,
           head: int | None, token: int, order: int) -> None:
    if part is None:
        mention = Mention(((start, token + 1),), eid, line,
                          None if head is None else start + head - 1)
        doc.order.append(order)
        doc.mentions.append(mention)
        return
    # Parts are matched in order, as Udapi does: part k joins the first mention of this
    # entity and part count that lacks a part k (several discontinuous mentions of one
    # entity in a document are several mentions).
    key, k, n = part
    groups = doc.parts.setdefault(key, [])
    group = next((g for g in groups if k not in g), None)
    if group is None:
        group = {}
        groups.append(group)
    group[k] = ((start, token + 1), line, head)  # the head's place is known once joined
    doc.expected[key] = n
