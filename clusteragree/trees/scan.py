"""Level 1 of ``validate`` for tree files: every line of a CoNLL-X / CoNLL-U file, every tree
of a bracketed file, each malformed one reported, a problem stopping only its sentence.

:func:`scan_conll` reads a decoded CoNLL file line by line as the tree reader does
(:func:`clusteragree.trees.read_conll_trees`), but reports every line the reader would refuse
(columns, ID, HEAD, ``# sent_id``; errors) and what it reads without complaint although the
format forbids it (blank-line structure, comments after a sentence's words, multiword-token
ranges and empty nodes out of place, numbers written with leading zeros, signs or spaces;
warnings). The sentences it could read whole are returned for levels 2 and 3.
:func:`clean_conll` tells, with numpy over the bytes, whether a file the reader accepted needs
that scan at all (most files do not). :func:`scan_brackets` does the same for bracketed trees.

The test ids are registered by :mod:`clusteragree.trees.checks`.

References
----------
Universal Dependencies, the CoNLL-U format (universaldependencies.org/format.html): sentences
of comment lines then word lines, each followed by one blank line; 10 TAB-separated columns;
IDs 1, 2, ..., multiword-token ranges before their first word, empty nodes ``N.1, N.2, ...``
after word N.

Buchholz, S. and Marsi, E. (2006). CoNLL-X shared task on multilingual dependency parsing.
Proceedings of CoNLL-X, pp. 149-164 (the 10-column format).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..incidents import Incident
from ..inputs import byte_lines, iter_lines, tab_columns
from .conllu_fast import _SENT_ID

__all__ = ["Record", "Scan", "clean_conll", "scan_brackets", "scan_conll"]

_RANGE = re.compile(r"[0-9]+-[0-9]+")
_EMPTY = re.compile(r"[0-9]+\.[0-9]+")
_INT = re.compile(r"[+-]?[0-9]+")
_SURROGATE = re.compile("[\udc80-\udcff]")


@dataclass(frozen=True)
class Record:
    """One sentence read whole by the scan: what levels 2 and 3 look at (the attributes of
    :class:`~clusteragree.trees.Sentence` they use, and the line of each word)."""

    line: int
    sent_id: str | None
    words: tuple[str, ...]
    heads: tuple[int, ...]
    deprels: tuple[str, ...]
    path: str
    lines: tuple[int, ...] = ()


@dataclass
class Scan:
    """What a scan found: incidents, the sentences read whole, and the number of sentences."""

    incidents: list[Incident] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)
    sentences: int = 0


def clean_conll(raw: bytes) -> bool:
    """Whether a CoNLL file that the reader accepts holds nothing for :func:`scan_conll` to
    report: no line of spaces or starting with one, one blank line after each sentence and
    none before the first, comments only before a sentence's words, no number written with a
    sign, a leading zero or spaces. (Multiword-token lines and empty nodes are the reader's
    notices, and also send a file to the scan.) False means: scan it.

    Examples
    --------
    >>> row = "1\\tGo\\t_\\t_\\t_\\t_\\t0\\tPred\\t_\\t_\\n"
    >>> clean_conll(("# sent_id = a\\n" + row + "\\n").encode())
    True
    >>> clean_conll((row + "# late\\n\\n").encode()), clean_conll((row + "\\n\\n").encode())
    (False, False)
    """
    got = byte_lines(raw)
    if got is None:
        return False
    buf, starts, ends = got
    if len(starts) == 0:
        return True
    first = buf[np.minimum(starts, len(buf) - 1)]
    blank = starts == ends
    if (~blank & ((first == 32) | (first == 9))).any() or not blank[-1] or blank[0]:
        return False
    if (blank[1:] & blank[:-1]).any():
        return False
    comment = ~blank & (first == 35)
    if comment.any():
        token = ~blank & ~comment
        row = np.arange(len(starts))
        last_blank = np.maximum.accumulate(np.where(blank, row, -1))
        tokens_before = np.cumsum(token)
        at_block = np.where(last_blank >= 0, tokens_before[np.maximum(last_blank, 0)], 0)
        if (comment & (tokens_before - at_block > 0)).any():
            return False  # a comment after a word of its sentence
        block = np.cumsum(blank)
        has_token = np.bincount(block, weights=token) > 0
        if (comment & ~has_token[block]).any():
            return False  # comments followed by no sentence
    token = np.flatnonzero(~blank & (first != 35))
    columns = tab_columns(buf, starts[token], ends[token], 10, [0, 6])
    if columns is None:
        return False
    for lo, hi in columns:  # ID and HEAD: a sign, a leading zero or spaces
        lead = buf[np.minimum(lo, len(buf) - 1)]
        last = buf[np.maximum(hi - 1, 0)]
        odd = (hi == lo) | (lead == 43) | (lead == 45) | (lead == 32) | (last == 32)
        if (odd | ((lead == 48) & (hi - lo > 1))).any():
            return False
    return True


class _Sentence:
    """The lines of the sentence being scanned."""

    def __init__(self) -> None:
        self.rows: list[tuple[int, list[str]]] = []  # every line with 10 columns
        self.comments: list[int] = []
        self.sent_id: tuple[int, str] | None = None
        self.broken = False


def scan_conll(text: str, path: str) -> Scan:
    """Every line of a decoded CoNLL-X / CoNLL-U file (bytes that did not decode are lone
    surrogates, ``errors="surrogateescape"``), each problem an incident; the sentences without
    a level-1 error as records.

    Examples
    --------
    Line 2 has 3 columns and line 5 an ID that is not a number: both are reported, and each
    stops only its sentence; the third sentence is read:

    >>> row = "{}\\tw\\t_\\t_\\t_\\t_\\t{}\\tr\\t_\\t_"
    >>> text = "\\n".join([row.format(1, 0), "2\\tx\\ty", "", row.format("one", 0), "",
    ...                   row.format(1, 0), ""]) + "\\n"
    >>> found = scan_conll(text, "a.conllu")
    >>> [(i.test_id, i.line) for i in found.incidents], len(found.records)
    ([('trees-columns', 2), ('trees-id', 4)], 1)
    """
    out = Scan()
    current = _Sentence()
    last_blank = True  # the line before the first: no sentence is open
    pending_comments: list[int] = []
    number = 0
    for number, line in iter_lines(text):
        if _SURROGATE.search(line):
            column = _SURROGATE.search(line).start() + 1  # type: ignore[union-attr]
            out.incidents.append(Incident(
                "trees-encoding", f"a byte at column {column} does not decode (name the "
                "file's encoding with --encoding, or save it as UTF-8)", path, number))
            current.broken = True
        stripped = line.strip(" \t")
        if not stripped:
            if line:
                out.incidents.append(Incident(
                    "trees-blank-line", "a line of spaces or TABs, read as a blank line "
                    "(a blank line is empty)", path, number))
            if current.rows or current.broken:
                _finish(current, path, out)
                current = _Sentence()
            elif current.comments:
                out.incidents.append(Incident(
                    "trees-blank-line", "a blank line after comment lines, before their "
                    "sentence: the comments are read as the next sentence's", path, number))
            else:
                out.incidents.append(Incident(
                    "trees-blank-line", "a blank line where none is expected (one blank "
                    "line follows each sentence, none comes before the first)", path, number))
            last_blank = True
            continue
        last_blank = False
        if line.startswith("#"):
            if current.rows:
                out.incidents.append(Incident(
                    "trees-comment", "a comment line after the words of its sentence (read "
                    "as a comment; comments come before a sentence's words)", path, number))
            current.comments.append(number)
            pending_comments.append(number)
            _sent_id(line, number, current, path, out)
            continue
        pending_comments.clear()
        _token_line(line, number, current, path, out)
    if current.rows or current.broken:
        _finish(current, path, out)
    elif current.sent_id is not None:
        out.incidents.append(Incident(
            "trees-sent-id", "a # sent_id after the last sentence: no sentence follows it",
            path, current.sent_id[0]))
    elif pending_comments:
        out.incidents.append(Incident(
            "trees-comment", "comment lines after the last sentence (no sentence follows "
            "them)", path, pending_comments[0], count=len(pending_comments)))
    if number and not last_blank:
        out.incidents.append(Incident(
            "trees-blank-line", "the file does not end with a blank line after its last "
            "sentence", path, number))
    return out


def _sent_id(line: str, number: int, current: _Sentence, path: str, out: Scan) -> None:
    found = _SENT_ID.fullmatch(line)
    if found is None:
        return
    value = found.group(1).strip(" \t")
    if not value:
        out.incidents.append(Incident(
            "trees-sent-id", "a # sent_id without a value; give the sentence's id after '='",
            path, number))
        current.broken = True
    elif current.sent_id is not None:
        out.incidents.append(Incident(
            "trees-sent-id", f"a second # sent_id for one sentence (the first at line "
            f"{current.sent_id[0]}); give each sentence one, before its words", path, number))
        current.broken = True
    else:
        current.sent_id = (number, value)


def _number(text: str) -> int | None:
    """The value the reader reads (spaces around, a sign allowed), or None."""
    s = text.strip()
    return int(s) if _INT.fullmatch(s) and len(s.lstrip("+-")) <= 18 else None


def _token_line(line: str, number: int, current: _Sentence, path: str, out: Scan) -> None:
    cols = line.split("\t")
    if len(cols) != 10:
        out.incidents.append(Incident(
            "trees-columns", f"{len(cols)} columns, expected the 10 TAB-separated columns of "
            "CoNLL-X / CoNLL-U", path, number))
        current.broken = True
        return
    current.rows.append((number, cols))
    if _RANGE.fullmatch(cols[0]) or _EMPTY.fullmatch(cols[0]):
        return
    word_id = _number(cols[0])
    if word_id is None or word_id < 1:
        out.incidents.append(Incident(
            "trees-id", f"ID {cols[0]!r} is neither a word's number (1, 2, ...), a "
            "multiword-token range (3-4) nor an empty node (5.1)", path, number))
        current.broken = True
    elif cols[0] != str(word_id):
        out.incidents.append(Incident(
            "trees-number-form", f"ID {cols[0]!r} read as {word_id} (write it as {word_id})",
            path, number))
    head = _number(cols[6])
    if head is None or head < 0:
        out.incidents.append(Incident(
            "trees-head", f"HEAD {cols[6]!r} is not a whole number (0 for the root, else "
            "the ID of a word of the sentence)", path, number))
        current.broken = True
    elif cols[6] != str(head):
        out.incidents.append(Incident(
            "trees-number-form", f"HEAD {cols[6]!r} read as {head} (write it as {head})",
            path, number))


def _finish(current: _Sentence, path: str, out: Scan) -> None:
    """The checks of a whole sentence: its ID sequence, ranges and empty nodes; a record when
    nothing stopped it."""
    out.sentences += 1
    if current.broken:
        return
    words: list[tuple[int, list[str]]] = []
    ranges: list[tuple[int, int, int]] = []  # first, last, line
    expected_empty = 1
    for number, cols in current.rows:
        ident = cols[0]
        if _RANGE.fullmatch(ident):
            first, last = (int(x) for x in ident.split("-"))
            if first != len(words) + 1:
                out.incidents.append(Incident(
                    "trees-multiword", f"the range {ident} is not just before its first word "
                    f"(word {len(words) + 1} comes next)", path, number))
            elif last < first:
                out.incidents.append(Incident(
                    "trees-multiword", f"the range {ident} ends before it begins", path,
                    number))
            elif ranges and first <= ranges[-1][1]:
                out.incidents.append(Incident(
                    "trees-multiword", f"the range {ident} overlaps the range "
                    f"{ranges[-1][0]}-{ranges[-1][1]} (line {ranges[-1][2]})", path, number))
            else:
                ranges.append((first, last, number))
            continue
        if _EMPTY.fullmatch(ident):
            whole, part = (int(x) for x in ident.split("."))
            if whole != len(words) or part != expected_empty:
                out.incidents.append(Incident(
                    "trees-empty-node", f"empty node {ident} out of place: expected "
                    f"{len(words)}.{expected_empty} (empty nodes follow the word they are "
                    "numbered after, counting 1, 2, ...)", path, number))
            expected_empty += 1
            continue
        expected_empty = 1
        word_id = _number(ident)
        if word_id != len(words) + 1:
            out.incidents.append(Incident(
                "trees-id-sequence", f"word ID {ident!r}, expected {len(words) + 1}: the "
                "words of a sentence are numbered 1, 2, ...", path, number))
            return
        words.append((number, cols))
    if not words:
        out.incidents.append(Incident(
            "trees-no-words", "a sentence without words (only multiword-token lines or "
            "empty nodes): the reader leaves it out", path, current.rows[0][0]))
        return
    for first, last, number in ranges:
        if last > len(words) and last >= first:
            out.incidents.append(Incident(
                "trees-multiword", f"the range {first}-{last} goes past the last word "
                f"({len(words)})", path, number))
    heads = tuple(_number(cols[6]) or 0 for _, cols in words)
    sent_id = current.sent_id[1] if current.sent_id is not None else None
    out.records.append(Record(
        words[0][0], sent_id, tuple(cols[1] for _, cols in words), heads,
        tuple(cols[7] for _, cols in words), path, tuple(n for n, _ in words)))


_TOKEN = re.compile(r"\(|\)|[^\s()]+")


def scan_brackets(text: str, path: str) -> Scan:
    """Every tree of a bracketed file, as the reader splits them (a tree ends on the line where
    its brackets close); every unbalanced tree and every text outside the brackets reported,
    the scan going on with the next line.

    Examples
    --------
    >>> found = scan_brackets("(S (NP D) (VP V)))\\n(S (NP D)\\n", "a.tree")
    >>> [(i.test_id, i.line) for i in found.incidents], found.sentences
    ([('trees-brackets-unbalanced', 1), ('trees-brackets-unbalanced', 2)], 0)
    """
    out = Scan()
    depth, start, closed, spoiled = 0, 0, 0, False
    for number, line in iter_lines(text):
        if depth == 0 and not line.strip():
            continue
        if depth == 0:  # a tree begins on this line
            start, closed, spoiled = number, 0, False
        if _SURROGATE.search(line):
            out.incidents.append(Incident(
                "trees-encoding", "a byte does not decode (name the file's encoding with "
                "--encoding, or save it as UTF-8)", path, number))
            spoiled = True
        for token in _TOKEN.findall(line):
            problem = None
            if token == "(":
                if depth == 0 and closed:
                    problem = ("trees-brackets-outside", "a second tree begins on the line "
                               "where one ends (each tree begins on a line of its own)")
                depth += 1
            elif token == ")":
                if depth == 0:
                    problem = ("trees-brackets-unbalanced", "a closing bracket without an "
                               "opening one")
                else:
                    depth -= 1
                    closed += depth == 0
            elif depth == 0:
                problem = ("trees-brackets-outside", f"text {token[:40]!r} outside the "
                           "brackets")
            if problem is not None:
                out.incidents.append(Incident(problem[0], problem[1], path, number))
                depth, spoiled = 0, True
                break
        if depth == 0 and closed and not spoiled:
            out.sentences += 1
    if depth > 0:
        out.incidents.append(Incident(
            "trees-brackets-unbalanced", f"the tree that begins here is not closed at the end "
            f"of the file ({depth} bracket(s) open)", path, start))
    return out
