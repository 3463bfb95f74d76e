"""CoNLL-2011/2012 and SemEval-2010 coreference files.

Columns may be TAB- or space-aligned; the coreference cell is the last field (an empty last
field after a trailing TAB, ``-`` and ``_`` mean none). Documents run from
``#begin document NAME`` to ``#end document``; the name is everything after ``begin document``
(``(id); part NNN`` for CoNLL-2012), so every part is its own document. A cell is read left to
right: ``(N`` opens a mention of entity N, ``N)`` closes the most recent open mention of N,
``(N)`` is a one-token mention, ``|`` separates chunks (optional). So ``1)(1`` closes a mention and
opens the next one of the same entity, and same-entity nesting (``(1|(1`` ... ``1)|1)``) closes
innermost first.

Strict by default: every problem is an :class:`InputError` naming the file and line. With
``lenient=True`` what can be repaired is repaired and counted in :attr:`CorefCorpus.repairs`:
a close without an open is ignored, mentions still open at the end of a document are dropped,
a missing ``#end document`` is supplied, a comment line inside a document is skipped, a repeated
mention (same tokens) keeps its first occurrence, SemEval's ``(N+M)`` chunks are ignored.
Under strict reading (:func:`clusteragree.errors.strict`, the command line's ``--strict``) the
file is read through as under ``lenient``, every kind of problem goes to the ledger with its
first line and count, and then the first is refused, so that one run names them all.
Non-numeric entity ids and a document name given twice are never repaired. :func:`read_conll`
reads lines ending in LF, CRLF or CR (old Mac files; :mod:`clusteragree.coref.reading`).
"""

from __future__ import annotations

import codecs
import os
import re
import sys
from collections.abc import Iterable

from ..errors import InputError, ParameterTypeError, Tally, is_strict
from ..inputs import (
    CR_MIXED,
    check_encoding,
    decode,
    iter_lines,
    line_ends,
    objects_in_bulk,
    read_bytes,
)
from .conll_fast import PART_HEADER, fast_conll
from .model import CorefCorpus, CorefDocument, Mention, unique_mentions
from .reading import refusal

__all__ = ["parse_conll", "read_conll"]

_BEGIN = re.compile(r"^#\s*begin document\s*(.*?)\s*$")
_END = re.compile(r"^#\s*end document")
_CHUNK = re.compile(r"\((\d+)\)|\((\d+)|(\d+)\)|\|", re.ASCII)
_DOUBLE = re.compile(r"\(\d+\+\d+\)")
_ID = re.compile(r"[0-9]+")
_NOT_SPACE = re.compile(r"\S")


def _fields(line: str) -> list[str]:
    if "\t" in line:
        return line.split("\t")
    return line.split()


class _Doc:
    def __init__(self, name: str, line: int) -> None:
        self.name, self.line = name, line
        self.tokens: list[str] = []
        self.token_lines: list[int] = []
        self.mentions: list[Mention] = []
        self.open: dict[str, list[tuple[int, int, int]]] = {}  # entity -> [(start, line, order)]
        self.order: list[int] = []
        self.counter = 0
        self.parts = bool(PART_HEADER.match(name))  # a CoNLL-2011/2012 name: no SemEval line


def parse_conll(
    lines: Iterable[str], path: str = "<conll>", *, lenient: bool = False
) -> CorefCorpus:
    """Parse CoNLL coreference lines (see the module docstring). Every kind of repair made
    under lenient reading is reported once (:class:`clusteragree.errors.Tally`, kind
    ``repaired``) with its first line and count, and kept in :attr:`CorefCorpus.repairs`;
    under strict reading every kind is put in the ledger and the first is refused.

    Parameters
    ----------
    lines : iterable of str
        The lines of a CoNLL-2011/2012 or SemEval-2010 file (with or without their line ends),
        e.g. ``text.splitlines()`` or an open file; not one string.
    path : str, default="<conll>"
        The name given to the corpus and used in messages (``path:line: ...``).
    lenient : bool, default=False
        Repair what can be repaired instead of raising (a close without an open, mentions left
        open, a missing ``#end document``, a comment line inside a document, a repeated
        mention, SemEval ``(N+M)`` chunks), counting each kind of repair.

    Returns
    -------
    CorefCorpus
        The documents by name (the rest of each ``#begin document`` line), format ``"conll"``,
        with the repairs made.

    Raises
    ------
    InputError
        For every problem not repaired, with the file and line; non-numeric entity ids and a
        document name used twice are never repaired.
    ParameterTypeError
        ``lines`` is one string.

    References
    ----------
    CoNLL-2012 shared task, data description (conll.cemantix.org/2012/data.html): one token
    per line, the coreference column last, ``(N``, ``N)``, ``(N)`` and ``-``.

    SemEval-2010 Task 1, Coreference Resolution in Multiple Languages, data format
    (stel.ub.edu/semeval2010-coref/datasets): TAB-separated columns, coreference last, ``_``
    for none.

    CoNLL reference coreference scorer v8.01 (github.com/conll/reference-coreference-scorers),
    ``lib/CorScorer.pm``, ``GetCoreference``: how the official scorer reads these files.

    docs/coref.md, "Reading" (and where this reader departs from the official scorer, and
    why).

    Examples
    --------
    "John saw his dog": John and his are entity 1, "his dog" is entity 2. The cell of token 2
    holds a one-token mention of 1 and opens 2, which token 3 closes:

    >>> lines = ["#begin document (d); part 000",
    ...          "d 0 0 John (1)",
    ...          "d 0 1 saw -",
    ...          "d 0 2 his (1)|(2",
    ...          "d 0 3 dog 2)",
    ...          "#end document"]
    >>> doc = parse_conll(lines, "a.conll").documents["(d); part 000"]
    >>> doc.tokens
    ('John', 'saw', 'his', 'dog')
    >>> [(m.start, m.end, m.entity) for m in doc.mentions]
    [(0, 1, '1'), (2, 4, '2'), (2, 3, '1')]

    Cells are read left to right, so ``1)(1`` on token 1 ends the mention of entity 1 opened
    on token 0 and opens the next one, which token 2 ends: tokens 0-1 and 1-2 (the official
    scorer, taking opens first, reads 1-1 and 0-2):

    >>> chain = ["#begin document x", "x 0 0 a (1", "x 0 1 b 1)(1", "x 0 2 c 1)",
    ...          "#end document"]
    >>> [(m.start, m.end) for m in parse_conll(chain).documents["x"].mentions]
    [(0, 2), (1, 3)]

    A close of entity 2 that was never opened is an error (line 3); lenient reading ignores it,
    and also drops the mention of entity 1 opened on line 4 and never closed, keeping the
    mention of tokens 0-2:

    >>> bad = ["#begin document x", "x 0 0 a (1", "x 0 1 b 2)", "x 0 2 c 1)(1",
    ...        "#end document"]
    >>> parse_conll(bad, "b.conll")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: b.conll:3: entity 2 closes here ('2)') but no mention of ...
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     fixed = parse_conll(bad, "b.conll", lenient=True)
    >>> fixed.repairs
    {'closes without an open ignored': 1, 'unclosed mentions dropped': 1}
    >>> [str(w.message) for w in caught]
    ['b.conll:3: repaired: closes without an open ignored',
     'b.conll:4: repaired: unclosed mentions dropped']
    >>> [(m.start, m.end) for m in fixed.documents["x"].mentions]
    [(0, 3)]
    """
    if isinstance(lines, (str, bytes)):
        raise ParameterTypeError("lines must be an iterable of lines (str.splitlines()), not "
                                 "one string")
    tally = Tally(path)
    corpus = _parse(lines, path, lenient, tally)
    tally.report()
    return corpus


def _parse(lines: Iterable[str], path: str, lenient: bool, tally: Tally) -> CorefCorpus:
    """:func:`parse_conll` with the repairs counted in ``tally`` (reported by the caller).

    Under lenient reading, or strict reading (:func:`clusteragree.errors.strict`), what can be
    repaired is repaired and counted, so that every kind of problem of the file is known when
    the tally is reported (strict reading then refuses once); otherwise the first problem is an
    error at once. An error that nothing repairs reports the tally first."""
    repairing = lenient or is_strict()
    number = 0

    def repair(what: str, n: int = 1, line: int | None = None) -> None:
        tally.add("repaired", what, line if line is not None else number, n)
    docs: dict[str, CorefDocument] = {}
    doc: _Doc | None = None

    def fail(message: str, line: int) -> InputError:
        return refusal(tally, InputError(message, path=path, line=line))

    def finish(d: _Doc, line: int, at_end: bool) -> None:
        still = [(e, s, ln) for e, stack in d.open.items() for s, ln, _ in stack]
        if still:
            if not repairing:
                e, _, ln = still[0]
                where = "at the end of the file" if at_end else "at #end document"
                raise fail(f"document {d.name}: {len(still)} mention(s) still open {where}, the "
                           f"first of entity {e} opened at line {ln}; close them (or use "
                           "lenient reading to drop them)", line)
            repair("unclosed mentions dropped", len(still), min(ln for _, _, ln in still))
        if d.name in docs:
            raise fail(f"document {d.name} occurs twice in the file (first at line "
                       f"{docs[d.name].line}); give each part its own name", d.line)
        ordered = [m for _, m in sorted(zip(d.order, d.mentions, strict=True),
                                        key=lambda x: x[0])]
        try:
            kept = unique_mentions(d.name, ordered, lenient=repairing, repairs=tally, path=path,
                                   line=d.line)
        except InputError as err:
            raise refusal(tally, err) from None
        docs[d.name] = CorefDocument(d.name, tuple(d.tokens), kept, path, d.line,
                                     tuple(d.token_lines))

    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\n").rstrip("\r")
        begin = _BEGIN.match(line)
        if begin:
            if doc is not None:
                if not repairing:
                    raise fail(f"#begin document inside document {doc.name} (opened at line "
                               f"{doc.line}); end it with #end document first", number)
                repair("missing #end document supplied")
                finish(doc, number, False)
            doc = _Doc(begin.group(1), number)
            continue
        if _END.match(line):
            if doc is None:
                raise fail("#end document without #begin document", number)
            finish(doc, number, False)
            doc = None
            continue
        if not line.strip():
            continue
        if doc is None:
            if line.lstrip().startswith("#"):
                continue  # comments between documents
            raise fail("a token line outside any document; start documents with "
                       "#begin document NAME", number)
        if line.lstrip().startswith("#"):
            if not repairing:
                raise fail(f"comment line inside document {doc.name}; the official scorer reads "
                           "it as a token, which shifts every later mention. Remove it (lenient "
                           "reading skips it)", number)
            repair("comment lines inside documents skipped")
            continue
        fields = _fields(line)
        cell = fields[-1].strip() if fields else ""
        if _ID.fullmatch(fields[0]) and len(fields) >= 3 and not doc.parts:
            word = fields[1]  # SemEval-2010: ID TOKEN LEMMA ...
        else:  # CoNLL-2012: DOC PART NUMBER WORD ...
            word = fields[3] if len(fields) >= 5 else (fields[1] if len(fields) >= 3 else "")
        token = len(doc.tokens)
        doc.tokens.append(sys.intern(word))
        doc.token_lines.append(number)
        if cell in ("", "-", "_"):
            continue
        if _DOUBLE.search(cell):
            if not repairing:
                raise fail(f"coreference cell {cell!r} has a SemEval double-antecedent chunk "
                           "(N+M); lenient reading ignores it", number)
            repair("double-antecedent chunks ignored", len(_DOUBLE.findall(cell)))
            cell = _DOUBLE.sub("", cell)
        pos = 0
        for m in _CHUNK.finditer(cell):
            if m.start() != pos:
                break
            pos = m.end()
            single, opened, closed = m.groups()
            if single is not None:
                doc.mentions.append(Mention(((token, token + 1),), single, number))
                doc.order.append(doc.counter)
                doc.counter += 1
            elif opened is not None:
                doc.open.setdefault(opened, []).append((token, number, doc.counter))
                doc.counter += 1
            elif closed is not None:
                stack = doc.open.get(closed)
                if not stack:
                    if not repairing:
                        raise fail(f"entity {closed} closes here ({cell!r}) but no mention of "
                                   "it is open", number)
                    repair("closes without an open ignored")
                    continue
                start, line_no, order = stack.pop()
                doc.mentions.append(Mention(((start, token + 1),), closed, line_no))
                doc.order.append(order)
        if pos != len(cell):
            bad = cell[pos:]
            kind = ("a non-numeric entity id" if re.match(r"\(?[^\d()|]", bad)
                    else "an unreadable chunk")
            raise fail(f"coreference cell {cell!r} has {kind} at {bad!r}; ids must be numbers "
                       "as in (12, 12) or (12)", number)
    if doc is not None:
        if not repairing:
            raise fail(f"document {doc.name} (line {doc.line}) has no #end document", number)
        repair("missing #end document supplied")
        finish(doc, number, True)
    repairs = {what: n for what, n in tally.counts().items() if what != CR_MIXED}
    return CorefCorpus(docs, path, repairs, "conll")


def read_conll(path: str | os.PathLike[str], *, lenient: bool = False,
               encoding: str | None = None, fast: bool = True) -> CorefCorpus:
    """Read a CoNLL-2011/2012 or SemEval-2010 coreference file (UTF-8 unless ``encoding``
    names another).

    Parameters
    ----------
    path : str or os.PathLike
        The file. Columns may be TAB-separated or space-aligned; a SemEval-2010 line is
        recognised by its first column, a number (the word is then the second column, in
        CoNLL-2012 the fourth). Lines may end in LF, CRLF or CR; CR line ends among LF ones
        are reported (``converted``).
    lenient : bool, default=False
        Repair what can be repaired, as in :func:`parse_conll`.
    encoding : str, optional
        The file's encoding (default UTF-8; a byte that does not decode is an error naming its
        line and column).
    fast : bool, default=True
        Read a well-formed file with the vectorised reader
        (:func:`clusteragree.coref.conll_fast.fast_conll`), which gives the same corpus;
        False reads every file line by line (:func:`parse_conll`). A file with any error or
        repair is always read line by line, so messages and repairs are the same either way.

    Returns
    -------
    CorefCorpus
        The documents of the file, format ``"conll"``, named by ``path``.

    Raises
    ------
    InputError
        An empty file, a file without ``#begin document``, and every error of
        :func:`parse_conll`.
    ParameterTypeError
        ``path`` is not a path.

    References
    ----------
    CoNLL-2012 shared task, data description (conll.cemantix.org/2012/data.html).

    SemEval-2010 Task 1, Coreference Resolution in Multiple Languages, data format
    (stel.ub.edu/semeval2010-coref/datasets).

    docs/coref.md, "Reading" and "Input checks and warnings".

    Examples
    --------
    A SemEval-2010 document (TAB-separated, ``_`` for no mention; the name is the rest of the
    ``#begin document`` line, here ``10``): Mary and she are the one-token mentions of entity
    1.

    >>> import pathlib, tempfile
    >>> rows = ["1 Mary Mary _ (1)", "2 left leave _ _", "3 because because _ _",
    ...         "4 she she _ (1)", "5 was be _ _", "6 tired tired _ _"]
    >>> text = "\\n".join(["#begin document 10", *(r.replace(" ", "\\t") for r in rows),
    ...                    "#end document", ""])
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp) / "a.conll"
    ...     _ = path.write_text(text, encoding="utf-8")
    ...     corpus = read_conll(path)
    >>> doc = corpus.documents["10"]
    >>> doc.tokens[:4], [(m.start, m.entity) for m in doc.mentions]
    (('Mary', 'left', 'because', 'she'), [(0, '1'), (3, '1')])
    """
    if not isinstance(path, (str, os.PathLike)):
        raise ParameterTypeError(f"path must be a file path. Got {type(path).__name__}.")
    name = os.fspath(path)
    data = read_bytes(name)
    text = decode(data, name, encoding=encoding)
    tally = Tally(name)
    text, cr_line, cr_count = line_ends(text)
    tally.add("converted", CR_MIXED, cr_line, cr_count)
    if not _NOT_SPACE.search(text):
        raise refusal(tally, InputError("empty file", path=name, line=1))
    # Well-formed files take the vectorised path; anything it does not read exactly (an error,
    # a repair, an unusual character) is read line by line, which names every line.
    corpus = None
    if fast:
        source: str | bytes = text
        if check_encoding(encoding) in (None, "utf-8") and not data.startswith(codecs.BOM_UTF8):
            source = line_ends(data)[0]  # the UTF-8 bytes are the text: not held twice
            del text
        with objects_in_bulk():
            corpus = fast_conll(source, name)
        del source
        if corpus is None:
            text = line_ends(decode(data, name, encoding=encoding))[0]
    del data
    if corpus is None:
        corpus = _parse((line for _, line in iter_lines(text)), name, lenient, tally)
    if not corpus.documents:
        raise refusal(tally, InputError("no #begin document line: not a CoNLL coreference "
                                        "file", path=name, line=1))
    tally.report()
    return corpus

