"""The vectorised path of the CoNLL coreference reader, for well-formed files.

:func:`fast_conll` reads a whole CoNLL-2011/2012 or SemEval-2010 text with numpy over its bytes:
line ends, blank and comment lines, the word and coreference columns, the chunks of every
coreference cell and the matching of opening and closing brackets are found with array
operations, never a Python loop over lines. It reads only files the line-by-line reader
(:func:`clusteragree.coref.conll.parse_conll`) would read without an error or a repair, and
gives exactly what that reader gives; on anything else (a comment inside a document, a bracket
that does not match, a repeated mention, an odd character, ...) it returns None and the
line-by-line reader, which knows every line number and repair, reads the file instead.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..inputs import byte_lines, decode_ranges, gather_ranges, line_ends, objects_in_bulk
from .model import CorefCorpus, CorefDocument, LazyDocuments, Mention

__all__ = ["ConllArrays", "fast_conll"]

_BEGIN = re.compile(r"^#\s*begin document\s*(.*?)\s*$")
#: A CoNLL-2011/2012 document name, ``(NAME); part NNN``: its lines are never SemEval's, even
#: where the document column is all digits (INCEpTION writes a user name there, as ``42``).
PART_HEADER = re.compile(r"^\(.*\);\s*part\s+[0-9]+$")
_END = re.compile(r"^#\s*end document")
_TAB, _SPACE, _LF, _HASH = 9, 32, 10, 35
_OPEN, _CLOSE, _BAR = 40, 41, 124
_MAX_DIGITS = 15  # entity ids longer than this take the line-by-line path
_BLOCK = 1 << 16  # lines (or ranges) handled at once

Ints = npt.NDArray[np.int64]


def _token_columns(buf: npt.NDArray[np.uint8], raw: bytes, s: Ints, e: Ints,
                   semeval: bool = True) -> tuple[Ints, Ints, Ints, Ints]:
    """Byte ranges of the word and of the coreference cell of each token line ``[s, e)``,
    a block of lines at a time. The word: SemEval (first field all digits, 3 fields or more;
    never when ``semeval`` is False) takes the second field, CoNLL-2012 the fourth (5 fields
    or more) or the second (3 or 4 fields), else none; the cell is the last field without its
    spaces."""
    out = [np.zeros(len(s), dtype=np.int64) for _ in range(4)]
    for a in range(0, len(s), _BLOCK):
        bs, be = s[a:a + _BLOCK], e[a:a + _BLOCK]
        lo, hi = int(bs[0]), int(be[-1]) + 1
        tabs = np.flatnonzero(buf[lo:hi] == _TAB) + lo
        tab_first, tab_end = np.searchsorted(tabs, bs), np.searchsorted(tabs, be)
        nf, f0s, f0e, f1s, f1e, f3s, f3e, ls, le = _fields(
            buf, bs, be, tab_end > tab_first, tabs, tab_first, tab_end - tab_first, lo, hi)
        cs, ce = _strip(ls, le, raw)
        second = (nf >= 3) & ((semeval & _all_digits(buf, f0s, f0e)) | (nf < 5))
        fourth = (nf >= 5) & ~second
        block = slice(a, a + len(bs))
        out[0][block] = np.where(second, f1s, np.where(fourth, f3s, 0))
        out[1][block] = np.where(second, f1e, np.where(fourth, f3e, 0))
        out[2][block], out[3][block] = cs, ce
    return out[0], out[1], out[2], out[3]


def _fields(buf: npt.NDArray[np.uint8], s: Ints, e: Ints, tab_lines: npt.NDArray[np.bool_],
            tabs: Ints, tab_first: Ints, tab_count: Ints, lo: int, hi: int
            ) -> tuple[Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints, Ints]:
    """Per token line: the number of fields, and the byte ranges of the first, second, fourth
    and last fields (the second and fourth only where there are that many); ``tab_first`` and
    ``tab_count`` index each line's TABs in ``tabs``; the lines lie in bytes ``[lo, hi)``.

    A line with a TAB is split at every TAB (empty fields kept); a line without one at runs of
    spaces (leading and trailing spaces ignored), as the line-by-line reader splits them."""
    n = len(s)
    nf = np.zeros(n, dtype=np.int64)
    f = np.zeros((4, 2, n), dtype=np.int64)  # field 0, 1, 3, last; start and end
    if tab_lines.any():
        rows = np.flatnonzero(tab_lines)
        first, count = tab_first[rows], tab_count[rows]
        nf[rows] = count + 1
        top = len(tabs) - 1

        def tab(j: Ints) -> Ints:
            return tabs[np.minimum(first + j, top)]
        f[0, 0, rows], f[0, 1, rows] = s[rows], tab(np.zeros_like(first))
        f[1, 0, rows], f[1, 1, rows] = tab(np.zeros_like(first)) + 1, tab(np.ones_like(first))
        f[2, 0, rows], f[2, 1, rows] = tab(np.full_like(first, 2)) + 1, tab(
            np.full_like(first, 3))
        f[3, 0, rows], f[3, 1, rows] = tab(count - 1) + 1, e[rows]
    if not tab_lines.all():
        rows = np.flatnonzero(~tab_lines)
        part = buf[lo:hi]
        solid = (part != _SPACE) & (part != _LF)
        begins = np.flatnonzero(solid & ~np.concatenate([[False], solid[:-1]])) + lo
        finish = np.flatnonzero(solid & ~np.concatenate([solid[1:], [False]])) + 1 + lo
        first = np.searchsorted(begins, s[rows])
        count = np.searchsorted(begins, e[rows]) - first
        nf[rows] = count
        top = len(begins) - 1
        for slot, j in ((0, np.zeros_like(first)), (1, np.ones_like(first)),
                        (2, np.full_like(first, 3)), (3, count - 1)):
            at = np.clip(first + j, 0, top)
            f[slot, 0, rows], f[slot, 1, rows] = begins[at], finish[at]
    return (nf, f[0, 0], f[0, 1], f[1, 0], f[1, 1], f[2, 0], f[2, 1],
            f[3, 0], f[3, 1])


def fast_conll(text: str | bytes, path: str) -> CorefCorpus | None:
    """The corpus of a well-formed CoNLL coreference text, or None when the text needs the
    line-by-line reader (any error, any repair, or a character this path does not handle).

    Parameters
    ----------
    text : str or bytes
        The whole decoded file, or its UTF-8 bytes (valid UTF-8 without a byte-order mark:
        what the file decodes to, not held twice). Its lines may end in LF, CRLF or CR.
    path : str
        The name of the file, kept in the corpus and its documents.

    Returns
    -------
    CorefCorpus or None
        Equal to what :func:`clusteragree.coref.conll.parse_conll` returns for the lines of
        ``text`` (documents, tokens, token lines, mentions with their lines), or None.

    References
    ----------
    docs/coref.md, "Reading"; docs/performance.md.

    Examples
    --------
    >>> text = "#begin document d\\nd 0 0 John (1)\\nd 0 1 saw -\\nd 0 2 him (1)\\n#end document\\n"
    >>> doc = fast_conll(text, "a.conll").documents["d"]
    >>> doc.tokens, [(m.start, m.entity, m.line) for m in doc.mentions]
    (('John', 'saw', 'him'), [(0, '1', 2), (2, '1', 4)])
    >>> fast_conll("#begin document d\\nd 0 0 John 1)\\n#end document\\n", "b.conll") is None
    True
    """
    text, mixed, _ = line_ends(text)  # CR line ends (old Mac files) are line ends
    if mixed is not None:
        return None  # CRs among LF line ends: the line-by-line reader reports them
    got = byte_lines(text)  # None for odd whitespace or a lone surrogate
    del text
    if got is None:
        return None
    buf, starts, ends = got
    del got
    raw = buf.base  # the bytes the array views
    assert isinstance(raw, bytes)
    # The first byte of each line that is neither space nor TAB (the line end if none).
    lead = starts.copy()
    first_byte = buf[starts]
    indented = np.flatnonzero((first_byte == _SPACE) | (first_byte == _TAB))
    for row in indented.tolist():
        line = raw[starts[row]:ends[row]]
        lead[row] = starts[row] + len(line) - len(line.lstrip(b" \t"))
    blank = lead == ends
    hashed = ~blank & (buf[lead] == _HASH)
    # Comment lines are few: read them in Python, as the line-by-line reader does.
    comment_rows = np.flatnonzero(hashed)
    comments = decode_ranges(buf, starts[comment_rows], ends[comment_rows])
    names: list[str] = []
    doc_lines: list[int] = []
    bounds: list[int] = []  # row of each #begin and #end, alternating
    inside = False
    for row, line_text in zip(comment_rows.tolist(), comments, strict=True):
        begin = _BEGIN.match(line_text)
        if begin:
            if inside:
                return None
            names.append(begin.group(1))
            doc_lines.append(row + 1)
            bounds.append(row)
            inside = True
        elif _END.match(line_text):
            if not inside:
                return None
            bounds.append(row)
            inside = False
        elif inside:
            return None  # a comment inside a document
    if inside or not names or len(set(names)) != len(names):
        return None
    token_rows = np.flatnonzero(~blank & ~hashed)
    # Under CoNLL-2011/2012 names no line is SemEval's; a file mixing such names with others
    # is read line by line, which decides document by document.
    conll2012 = [bool(PART_HEADER.match(n)) for n in names]
    if any(conll2012) and not all(conll2012):
        return None
    edges = np.array(bounds, dtype=np.int64)
    slot = np.searchsorted(edges, token_rows)  # odd: between a #begin and its #end
    if (slot % 2 == 0).any():
        return None  # a token line outside any document
    tok_doc = slot // 2
    s, e = starts[token_rows], ends[token_rows]
    del starts, ends, lead, blank, hashed, slot  # the arrays per line, once used
    ws, we, last_s, last_e = _token_columns(buf, raw, s, e, semeval=not conll2012[0])
    del s, e
    words = gather_ranges(buf, ws, we)
    del ws, we
    cells = _cells(buf, last_s, last_e)
    del last_s, last_e, buf, raw
    if cells is None:
        return None
    chunk_tok, kind, ids = cells
    mentions = _mentions(chunk_tok, kind, ids, tok_doc, len(names))
    if mentions is None:
        return None
    m_start, m_end, m_ent, m_tok, m_doc = mentions
    # Token positions within their document, lines of tokens and of mentions.
    doc_first = np.searchsorted(tok_doc, np.arange(len(names) + 1))
    offset = doc_first[m_doc]
    arrays = ConllArrays(names, doc_lines, doc_first, words, token_rows + 1, m_doc,
                         m_start - offset, m_end - offset, m_ent, token_rows[m_tok] + 1)
    return CorefCorpus(LazyDocuments(names, lambda: arrays.documents(path), arrays), path, {},
                       "conll")


@dataclass(frozen=True)
class ConllArrays:
    """A CoNLL corpus as arrays: what :func:`fast_conll` reads, from which the documents are
    made when first asked for and the coreference metrics count directly.

    Attributes
    ----------
    names : list of str
        The documents' names, in file order.
    doc_lines : list of int
        The line of each ``#begin document``.
    doc_first : int array of shape (D + 1,)
        The first token of each document (tokens numbered through the file), then the number
        of tokens.
    words : bytes
        The tokens in UTF-8, each followed by a line feed.
    lines : int array
        The line of each token.
    m_doc, m_start, m_end, m_entity, m_line : int arrays
        Every mention: document, first token and end (exclusive; token positions within the
        document), entity id and line, sorted by document, start and longest first.

    References
    ----------
    docs/coref.md, "Performance" (reading keeps the arrays; the documents are made on first
    use).

    Examples
    --------
    >>> text = "#begin document d\\nd 0 0 John (1)\\nd 0 1 saw -\\nd 0 2 him (1)\\n#end document\\n"
    >>> arrays = fast_conll(text, "a.conll").documents.arrays
    >>> arrays.m_start.tolist(), arrays.m_entity.tolist(), arrays.m_line.tolist()
    ([0, 2], [1, 1], [2, 4])
    >>> arrays.documents("a.conll")["d"].tokens
    ('John', 'saw', 'him')
    """

    names: list[str]
    doc_lines: list[int]
    doc_first: Ints
    words: bytes
    lines: Ints
    m_doc: Ints
    m_start: Ints
    m_end: Ints
    m_entity: Ints
    m_line: Ints

    def documents(self, path: str) -> dict[str, CorefDocument]:
        """The documents by name, made from the arrays (what the line-by-line reader gives)."""
        with objects_in_bulk():
            words = list(map(sys.intern, self.words.decode("utf-8").split("\n")[:-1]))
            id_text = {v: str(v) for v in set(self.m_entity.tolist())}
            made = [Mention(((a, b),), id_text[c], ln) for a, b, c, ln in zip(
                self.m_start.tolist(), self.m_end.tolist(), self.m_entity.tolist(),
                self.m_line.tolist(), strict=True)]
            m_first = np.searchsorted(self.m_doc, np.arange(len(self.names) + 1)).tolist()
            line_list = self.lines.tolist()
            first = self.doc_first.tolist()
            return {name: CorefDocument(name, tuple(words[first[d]:first[d + 1]]),
                                        tuple(made[m_first[d]:m_first[d + 1]]), path,
                                        self.doc_lines[d],
                                        tuple(line_list[first[d]:first[d + 1]]))
                    for d, name in enumerate(self.names)}


def _strip(start: Ints, end: Ints, raw: bytes) -> tuple[Ints, Ints]:
    """The byte ranges without their leading and trailing spaces and TABs; an empty range
    starts and ends at ``end``."""
    start, end = start.copy(), end.copy()
    buf = np.frombuffer(raw, dtype=np.uint8)
    size = end - start
    head = buf[np.minimum(start, len(buf) - 1)]
    tail = buf[np.maximum(end - 1, 0)]
    padded = (size > 0) & ((head == _SPACE) | (head == _TAB) | (tail == _SPACE) | (tail == _TAB))
    for row in np.flatnonzero(padded).tolist():  # rare: cells with spaces around them
        cell = raw[start[row]:end[row]]
        kept = cell.strip(b" \t")
        if not kept:
            start[row] = end[row]
            continue
        start[row] += cell.index(kept)
        end[row] = start[row] + len(kept)
    return start, end


def _all_digits(buf: npt.NDArray[np.uint8], start: Ints, end: Ints) -> npt.NDArray[np.bool_]:
    """Whether each byte range is not empty and made of ASCII digits alone."""
    size = end - start
    head = buf[np.minimum(start, len(buf) - 1)]
    out = (size > 0) & (head >= 48) & (head <= 57)
    rows = np.flatnonzero(out)
    if len(rows) == 0:
        return out
    lengths = size[rows]
    pos = np.cumsum(lengths) - lengths
    idx = np.repeat(start[rows] - pos, lengths) + np.arange(int(lengths.sum()))
    text = buf[idx]
    other = ((text < 48) | (text > 57)).astype(np.int64)
    out[rows] = np.add.reduceat(other, pos) == 0
    return out


def _cells(buf: npt.NDArray[np.uint8], cs: Ints, ce: Ints
           ) -> tuple[Ints, Ints, Ints] | None:
    """The chunks of every coreference cell: token, kind (0 one-token mention, 1 open, 2 close)
    and entity id, in reading order; None when a cell is not made of ``(N)``, ``(N``, ``N)``
    and ``|`` alone (or is a lone ``-`` or ``_``, which means none)."""
    length = ce - cs
    first = buf[np.minimum(cs, len(buf) - 1)]
    none = (length == 0) | ((length == 1) & ((first == 45) | (first == 95)))  # "", "-", "_"
    rows = np.flatnonzero(~none)
    if len(rows) == 0:
        z = np.zeros(0, dtype=np.int64)
        return z, z.copy(), z.copy()
    lengths = length[rows] + 1
    pos = np.cumsum(lengths) - lengths
    idx = np.repeat(cs[rows] - pos, lengths) + np.arange(int(lengths.sum()))
    text = buf[np.minimum(idx, len(buf) - 1)]
    text[np.cumsum(lengths) - 1] = _LF
    owner = np.repeat(rows, lengths)
    digit = (text >= 48) & (text <= 57)
    allowed = digit | (text == _OPEN) | (text == _CLOSE) | (text == _BAR) | (text == _LF)
    if not allowed.all():
        return None
    prev_digit = np.concatenate([[False], digit[:-1]])
    next_digit = np.concatenate([digit[1:], [False]])
    if ((text == _OPEN) & ~next_digit).any() or ((text == _CLOSE) & ~prev_digit).any():
        return None
    run_start = np.flatnonzero(digit & ~prev_digit)
    run_end = np.flatnonzero(digit & ~next_digit) + 1
    if (run_end - run_start > _MAX_DIGITS).any():
        return None
    # A leading zero: the id as written is not the number's text; take the exact path.
    if ((text[run_start] == 48) & (run_end - run_start > 1)).any():
        return None
    opens = text[np.maximum(run_start - 1, 0)] == _OPEN
    opens &= run_start > 0
    closes = text[np.minimum(run_end, len(text) - 1)] == _CLOSE
    if (~opens & ~closes).any():
        return None  # bare digits
    # The value of every run of digits.
    place = np.zeros(len(text), dtype=np.int64)
    run_of = np.cumsum(digit & ~prev_digit) - 1
    where = np.flatnonzero(digit)
    power = run_end[run_of[where]] - 1 - where
    place[where] = (text[where].astype(np.int64) - 48) * (10 ** power)
    ids = np.add.reduceat(place, run_start) if len(run_start) else np.zeros(0, np.int64)
    # reduceat sums up to the next run's start: only digits are non-zero, so that is the run.
    kind = np.where(opens & closes, 0, np.where(opens, 1, 2))
    return owner[run_start], kind.astype(np.int64), ids.astype(np.int64)


def _mentions(tok: Ints, kind: Ints, ids: Ints, tok_doc: Ints, docs: int
              ) -> tuple[Ints, Ints, Ints, Ints, Ints] | None:
    """Mentions from the chunks: a close ends the most recent open mention of its entity in
    its document. Returns start token, end token (exclusive), entity, the token whose line is
    the mention's, and document, sorted by document, start, and longest first; None when a
    close has no open, a mention stays open, or a span is marked twice."""
    doc = tok_doc[tok]
    single = kind == 0
    brackets = np.flatnonzero(~single)
    pairs = _pair_brackets(brackets, doc[brackets], ids[brackets], kind[brackets])
    if pairs is None:
        return None
    ob, cb = pairs
    m_start = np.concatenate([tok[single], tok[ob]])
    m_end = np.concatenate([tok[single] + 1, tok[cb] + 1])
    m_ent = np.concatenate([ids[single], ids[ob]])
    m_doc = np.concatenate([doc[single], doc[ob]])
    by = np.lexsort((-m_end, m_start, m_doc))
    m_start, m_end, m_ent, m_doc = m_start[by], m_end[by], m_ent[by], m_doc[by]
    same = (m_start[1:] == m_start[:-1]) & (m_end[1:] == m_end[:-1]) & (m_doc[1:] == m_doc[:-1])
    if same.any():
        return None
    del docs
    return m_start, m_end, m_ent, m_start.copy(), m_doc


def _pair_brackets(at: Ints, doc: Ints, ids: Ints, kind: Ints) -> tuple[Ints, Ints] | None:
    """Opening and closing brackets paired (positions from ``at``): a close ends the most
    recent open mention of its entity in its document. None when a close has no open or an
    open is never closed."""
    if len(at) == 0:
        return at, at.copy()
    top = int(ids.max()) + 1
    if top * (int(doc.max()) + 1) < 2**62:
        _, group = np.unique(doc * top + ids, return_inverse=True)
    else:
        _, group = np.unique(np.column_stack([doc, ids]), axis=0, return_inverse=True)
    group = group.ravel()
    order = np.lexsort((at, group))  # by group, in reading order within a group
    b, g, k = at[order], group[order], kind[order]
    step = np.where(k == 1, 1, -1)
    depth = np.cumsum(step)
    starts = np.flatnonzero(np.concatenate([[True], g[1:] != g[:-1]]))
    base = np.repeat(depth[starts] - step[starts], np.diff(np.append(starts, len(g))))
    depth = depth - base  # depth within the group after each bracket
    if (depth < 0).any():
        return None
    if (depth[np.append(starts[1:], len(g)) - 1] != 0).any():
        return None
    # An open at depth d pairs with the next close of its group that leaves depth d - 1:
    # sorted by (group, level, reading order), opens and closes alternate.
    level = np.where(step == 1, depth, depth + 1)
    pair = np.lexsort((b, level, g))
    opens, closes = pair[0::2], pair[1::2]
    if (k[opens] != 1).any() or (k[closes] != 2).any():
        return None
    return b[opens], b[closes]
