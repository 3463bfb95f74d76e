"""The checks of span tables (``spans-csv``, ``pygamma``), on whole columns.

What :mod:`clusteragree.spans.checks` registers and reports for tables, computed column-wise
so that a table of a million spans is checked in the time of a few passes over its columns:
the scan of the rows (level 1), the offsets, duplicates, overlaps and labels of each
annotator's document (level 2), and what one annotator has that the others lack (level 3).

References
----------
docs/validate.md (the tests); docs/spans.md, "Reading spans" (a document where an annotator
has no span is compared as marking nothing).

Examples
--------
>>> import pandas as pd
>>> f = pd.DataFrame([("A", "d", 0, 4, "PER"), ("A", "d", 2, 6, "PER"), ("B", "d", 0, 4, "PER")],
...                  columns=["annotator", "document", "start", "end", "label"])
>>> [i.test_id for i in table_incidents(f)], [i.test_id for i in across_tables(f)]
(['spans-overlap'], ['spans-one-annotator'])
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from .._lazy import module
from ..errors import InputError, option
from ..incidents import Incident
from ..inputs import csv_rows, parse_float, read_text
from .readers import REQUIRED, _separator

if TYPE_CHECKING:
    import pandas as pd
else:  # loaded when a table is checked: exports are checked without it
    pd = module("pandas")

__all__ = ["across_tables", "scan_table", "table_checks", "table_incidents"]

def _show(x: Any) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


# --- level 1 ----------------------------------------------------------------------------------

def _detailed(rows: Iterator[tuple[int, list[str]]], path: str, width: int, where: str,
              names: list[tuple[str, int]], offsets: list[tuple[str, int]]
              ) -> Iterator[Incident]:
    """The incidents of each row: its number of fields, empty names, offsets."""
    for line, fields in rows:
        if len(fields) != width:
            yield Incident("spans-row-fields", f"{len(fields)} fields where {where} {width}",
                           path, line)
            continue
        empty = [c for c, i in names if not fields[i].strip()]
        if empty:
            yield Incident("spans-row-empty", f"the {' and '.join(empty)} "
                           f"{'is' if len(empty) == 1 else 'are'} empty", path, line)
        for c, i in offsets:
            try:
                parse_float(fields[i], what=c)
            except InputError as err:
                yield Incident("spans-row-offset", err.message, path, line)


def _suspects(text: str, start: int, first_line: int, sep: str, width: int,
              names: list[tuple[str, int]], offsets: list[tuple[str, int]]
              ) -> Iterator[tuple[int, list[str]]]:
    """The rows of ``text`` after ``start`` that a pattern of a good row does not match (every
    bad row among them; each is checked field by field): one pass of the regular-expression
    engine over the file instead of a Python step per row."""
    s = re.escape(sep)
    other, name = rf"[^{s}\n]*", rf"[^{s}\n]*?[^\s{s}][^{s}\n]*"
    number = r"[ \t]*[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)[ \t]*"  # no exponent: finite
    kinds = dict.fromkeys(range(width), other)
    kinds.update({i: name for _, i in names})
    kinds.update({i: number for _, i in offsets})
    good = s.join(f"(?:{kinds[i]})" for i in range(width))
    pattern = re.compile(f"^(?!{good}$).*$", re.M)
    line, at = first_line, start
    for m in pattern.finditer(text, start):
        line += text.count("\n", at, m.start())
        at = m.start()
        fields = m.group(0).split(sep)
        if any(f.strip() for f in fields):
            yield line, fields


def scan_table(path: str, input_format: str, encoding: str | None) -> Iterator[Incident]:
    """Every malformed row of a span table (its reader stops at the first): the number of
    fields, empty names, offsets that are not numbers. A file that cannot be decoded or split
    into rows, or whose header lacks a column, is left to the reader's refusal.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = pathlib.Path(tmp) / "talk.csv"
    ...     _ = p.write_text("Alex,1,2,9\\nAlex,1,2\\nPaul,,2,x\\n")
    ...     [(i.test_id, i.line) for i in scan_table(str(p), "pygamma", None)]
    [('spans-row-fields', 2), ('spans-row-empty', 3), ('spans-row-offset', 3)]
    """
    try:
        text = read_text(path, encoding=encoding)
        sep = _separator(path) if input_format == "spans-csv" else ","
        rows = csv_rows(text, path, delimiter=sep)
        start, first_line = 0, 1
        if input_format == "spans-csv":
            first = next(rows, None)
            if first is None:
                return
            columns = [h.strip().lstrip("\ufeff").lower() for h in first[1]]
            if any(c not in columns for c in REQUIRED):
                return
            at = {c: i for i, c in enumerate(columns)}
            names: list[tuple[str, int]] = [(c, at[c]) for c in ("annotator", "document",
                                                                 "label") if c in at]
            offsets = [(c, at[c]) for c in ("start", "end")]
            width, where = len(columns), "the header has"
            if '"' not in text and "\r" not in text:
                for _ in range(first[0]):  # the rows after the header's line
                    nl = text.find("\n", start)
                    start = len(text) if nl < 0 else nl + 1
                first_line = first[0] + 1
        else:
            names = [("annotator", 0), ("category", 1)]
            offsets = [("start", 2), ("end", 3)]
            width, where = 4, "a line of pygamma-agreement's CSV has"
        if '"' not in text and "\r" not in text:  # rows are lines, fields split at sep
            rows = _suspects(text, start, first_line, sep, width, names, offsets)
        yield from _detailed(rows, path, width, where, names, offsets)
    except InputError:
        return  # the reader refuses the file and says why


# --- the columns as integer codes -------------------------------------------------------------

class _Codes(NamedTuple):
    """The columns the checks use: the annotator, document and label of each row as integer
    codes into their distinct values (strings, in order of first appearance), the offsets as
    floats, and the frame (for the lines and ids of the rows an incident names)."""

    who: np.ndarray
    who_names: list[str]
    doc: np.ndarray
    doc_names: list[str]
    label: np.ndarray
    label_names: list[str]
    start: np.ndarray
    end: np.ndarray
    frame: pd.DataFrame


def _coded(column: pd.Series) -> tuple[np.ndarray, list[str]]:
    """The codes and distinct values (as strings) of a column."""
    if not pd.api.types.is_string_dtype(column.dtype) or column.dtype == object:
        column = column.astype(str)
    codes, uniques = pd.factorize(column, use_na_sentinel=False)
    return codes.astype(np.int64, copy=False), [str(u) for u in uniques.tolist()]


def _codes(frame: pd.DataFrame) -> _Codes:
    who, who_names = _coded(frame["annotator"])
    doc, doc_names = _coded(frame["document"])
    label, label_names = _coded(frame["label"])
    return _Codes(who, who_names, doc, doc_names, label, label_names,
                  pd.to_numeric(frame["start"]).to_numpy(dtype=float),
                  pd.to_numeric(frame["end"]).to_numpy(dtype=float), frame)


def _files(c: _Codes, files: dict[str, str] | None) -> dict[str, str | None]:
    """Annotator -> the file of their first row (or ``files``)."""
    if files is not None:
        return dict(files)
    if "file" not in c.frame.columns or not len(c.frame):
        return {}
    _, first = np.unique(c.who, return_index=True)
    return {c.who_names[w]: (None if f is None else str(f))
            for w, f in zip(c.who[first].tolist(), c.frame["file"].iloc[first].tolist(),
                            strict=True)}


Place = tuple["str | None", "int | None", str, "str | None", str]


def _places(c: _Codes, rows: np.ndarray, file_of: dict[str, str | None]) -> list[Place]:
    """The place of each row of ``rows``: file, line, document, node, annotator."""
    frame = c.frame
    lines = (pd.to_numeric(frame["line"].iloc[rows]).to_numpy(dtype=float).tolist()
             if "line" in frame.columns else [None] * len(rows))
    nodes = (frame["id"].iloc[rows].astype(str).tolist() if "id" in frame.columns
             else [None] * len(rows))
    out: list[Place] = []
    for w, d, line, node in zip(c.who[rows].tolist(), c.doc[rows].tolist(), lines, nodes,
                                strict=True):
        who = c.who_names[w]
        out.append((file_of.get(who), None if line is None or line != line else int(line),
                    c.doc_names[d], None if node is None else str(node), who))
    return out


class _Ordinal(NamedTuple):
    """Offsets as integer codes in the same order: ``value - low`` when they are whole
    numbers of a small range, else ranks among the distinct values (``values``)."""

    codes: np.ndarray
    size: int
    low: float
    values: np.ndarray | None

    def decode(self, codes: np.ndarray) -> np.ndarray:
        return codes + self.low if self.values is None else self.values[codes]


def _ordinal(x: np.ndarray) -> _Ordinal:
    if len(x) and np.isfinite(x).all():
        low, high = float(x.min()), float(x.max())
        if high - low < 2**40 and bool((x == np.floor(x)).all()):
            return _Ordinal((x - low).astype(np.int64), int(high - low) + 1, low, None)
    values, inverse = np.unique(x, return_inverse=True)
    return _Ordinal(inverse.reshape(-1).astype(np.int64), max(1, len(values)), 0.0, values)


def _key(*keys: tuple[np.ndarray, int]) -> tuple[np.ndarray, int]:
    """One int64 per row (and the number of values it may take) that sorts the rows as the
    ``(codes, number of codes)`` keys do, the first the primary one; where the product of
    the numbers would overflow, the key so far is replaced by its rank among its values."""
    key, size = keys[0]
    for codes, n in keys[1:]:
        if size * n >= 2**62:
            distinct, inverse = np.unique(key, return_inverse=True)
            key, size = inverse.reshape(-1).astype(np.int64), max(1, len(distinct))
        if size * n >= 2**62:  # pragma: no cover (more than 2**31 rows)
            distinct, inverse = np.unique(codes, return_inverse=True)
            codes, n = inverse.reshape(-1).astype(np.int64), max(1, len(distinct))
        key, size = key * n + codes, size * n
    return key, size


def _runs(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The order that sorts rows by ``key`` (stable: rows of one value in the order of the
    table) and where each run of one value starts in that order (with the end at the
    last)."""
    order = np.argsort(key, kind="stable")
    change = np.ones(len(order), dtype=bool)
    k = key[order]
    change[1:] = k[1:] != k[:-1]
    return order, np.append(np.flatnonzero(change), len(order))


# --- level 2 ----------------------------------------------------------------------------------

def table_incidents(frame: pd.DataFrame, *, texts: dict[Hashable, str] | None = None,
                    vocabulary: Sequence[str] | None = None,
                    files: dict[str, str] | None = None) -> Iterator[Incident]:
    """The level-2 incidents of a span table's spans (one layer).

    Parameters
    ----------
    frame : DataFrame
        The columns ``annotator, document, start, end, label`` (and ``id``, ``file``,
        ``line``), as :func:`~clusteragree.spans.readers.read_span_table` or a span corpus
        gives them.
    texts : dict, optional
        Document -> text: offsets then count its characters (lengths checked, whole numbers).
    vocabulary : sequence of str, optional
        The labels allowed.
    files : dict, optional
        Annotator -> the file read, when ``frame`` has no ``file`` column.

    Yields
    ------
    Incident
        ``spans-bad-offsets``, ``spans-fractional-offset``, ``spans-zero-length``,
        ``spans-label-unknown`` (in the order of the rows), then ``spans-duplicate`` (in the
        order of their first rows) and ``spans-overlap`` (per annotator and document, in the
        order of their names).

    Examples
    --------
    >>> f = pd.DataFrame([("A", "d", 0, 4, "PER"), ("A", "d", 5, 3, "PER")],
    ...                  columns=["annotator", "document", "start", "end", "label"])
    >>> [i.test_id for i in table_incidents(f)]
    ['spans-bad-offsets']
    """
    if len(frame):
        c = _codes(frame)
        yield from _level2(c, _files(c, files), texts, vocabulary)


def _level2(c: _Codes, file_of: dict[str, str | None],
            texts: dict[Hashable, str] | None, vocabulary: Sequence[str] | None
            ) -> Iterator[Incident]:
    start, end, n = c.start, c.end, len(c.start)
    if texts is not None:
        lengths = {str(k): len(v) for k, v in texts.items()}
        length = np.array([lengths.get(d, np.nan) for d in c.doc_names], dtype=float)[c.doc]
    else:
        length = np.full(n, np.inf)
    bad = (start < 0) | (end < start) | (end > length)
    fractional = ~bad & ((start % 1 != 0) | (end % 1 != 0)) if texts is not None else \
        np.zeros(n, dtype=bool)
    zero = ~bad & (start == end)
    if vocabulary is not None:
        allowed = set(vocabulary)
        unknown = ~np.array([x in allowed for x in c.label_names], dtype=bool)[c.label]
    else:
        unknown = np.zeros(n, dtype=bool)
    flagged = np.flatnonzero(bad | fractional | zero | unknown)
    for a in range(0, len(flagged), 1 << 16):
        rows = flagged[a:a + (1 << 16)]
        for i, at in zip(rows.tolist(), _places(c, rows, file_of), strict=True):
            s, e = start[i], end[i]
            if bad[i]:
                why = ("has a negative start" if s < 0 else "ends before it starts" if e < s
                       else f"ends past the text ({int(length[i])} characters)")
                yield Incident("spans-bad-offsets", f"the span {_show(s)}-{_show(e)} {why}; "
                               "spans run from start to end (exclusive), 0 <= start <= end "
                               "<= the text's length", *at)
            if fractional[i]:
                yield Incident("spans-fractional-offset", f"the span {s}-{e} has offsets that "
                               "are not whole numbers, but the texts given make them count "
                               "characters", *at)
            if zero[i]:
                yield Incident("spans-zero-length", f"the span at {_show(s)} (label "
                               f"{c.label_names[c.label[i]]!r}) has no length", *at)
            if unknown[i]:
                yield Incident("spans-label-unknown", f"the label "
                               f"{c.label_names[c.label[i]]!r} is not in the vocabulary "
                               f"({option('vocabulary')})", *at)
    ok = np.flatnonzero(~bad)
    # Runs of identical spans (annotator, document, start, end, label): the first row of each
    # is the first in the file (the sort is stable).
    ends = _ordinal(end[ok])
    key, _ = _key((c.who[ok], len(c.who_names)), (c.doc[ok], len(c.doc_names)),
                  _ordinal(start[ok])[:2], (ends.codes, ends.size),
                  (c.label[ok], len(c.label_names)))
    order, bounds = _runs(key)
    del key
    firsts = order[bounds[:-1]]
    del order
    sizes = np.diff(bounds)
    twice = np.flatnonzero(sizes > 1)
    twice = twice[np.argsort(firsts[twice], kind="stable")]
    for a in range(0, len(twice), 1 << 16):
        runs = twice[a:a + (1 << 16)]
        for i, n_run, at in zip(ok[firsts[runs]].tolist(), sizes[runs].tolist(),
                                _places(c, ok[firsts[runs]], file_of), strict=True):
            yield Incident("spans-duplicate", f"the span {_show(start[i])}-{_show(end[i])} "
                           f"with the label {c.label_names[c.label[i]]!r} is stacked on an "
                           "identical one (exact matching counts each)", *at,
                           count=n_run - 1)
    yield from _overlaps(c, ok, firsts, ends, file_of)


def _overlaps(c: _Codes, ok: np.ndarray, firsts: np.ndarray, ends: _Ordinal,
              file_of: dict[str, str | None]) -> Iterator[Incident]:
    """``spans-overlap`` among the rows ``ok[firsts]`` (one row of each distinct span,
    sorted by annotator, document, start and end; ``ends``: the codes of ``c.end[ok]``): the
    spans that start before the furthest end of the spans before them in their annotator's
    document."""
    firsts = firsts[c.start[ok[firsts]] < c.end[ok[firsts]]]
    spans = ok[firsts]
    if not len(spans):
        return
    group = c.who[spans] * len(c.doc_names) + c.doc[spans]
    new = np.ones(len(spans), dtype=bool)
    new[1:] = group[1:] != group[:-1]
    del group
    rank = np.cumsum(new) - 1  # the group of each span, counted from 0 in sorted order
    # The furthest end so far within each group: a running maximum of (group, end code).
    size = ends.size
    if int(rank[-1] + 1) * size >= 2**62:  # pragma: no cover (a key of more than 62 bits)
        distinct, inverse = np.unique(ends.codes[firsts], return_inverse=True)
        ends = _Ordinal(inverse.reshape(-1).astype(np.int64), len(distinct), 0.0,
                        ends.decode(distinct))
        codes = ends.codes
    else:
        codes = ends.codes[firsts]
    reach = np.maximum.accumulate(rank * ends.size + codes) - rank * ends.size
    over = np.zeros(len(spans), dtype=bool)
    over[1:] = ~new[1:] & (c.start[spans][1:] < ends.decode(reach[:-1]))
    counts = np.bincount(rank[over], minlength=int(rank[-1]) + 1)
    heads = spans[new]
    found = [(c.who_names[c.who[h]], c.doc_names[c.doc[h]], int(k))
             for h, k in zip(heads.tolist(), counts.tolist(), strict=True) if k]
    for who, doc, k in sorted(found):
        yield Incident("spans-overlap", "a span overlaps an earlier span", file_of.get(who),
                       None, doc, None, who, count=k)


# --- level 3 ----------------------------------------------------------------------------------

def across_tables(frame: pd.DataFrame, *, annotators: Sequence[str] | None = None,
                  files: dict[str, str] | None = None) -> Iterator[Incident]:
    """The level-3 incidents of span tables: documents an annotator left unmarked, labels and
    spans only one annotator has. Every annotator is compared in every document: one without
    a span there marked nothing (as the spans command reads tables).

    Examples
    --------
    >>> f = pd.DataFrame([("A", "d1", 0, 4, "PER"), ("B", "d1", 0, 4, "PER"),
    ...                   ("B", "d2", 1, 2, "PER")],
    ...                  columns=["annotator", "document", "start", "end", "label"])
    >>> [(i.test_id, i.annotator) for i in across_tables(f)]
    [('spans-document-unmarked', 'A'), ('spans-one-annotator', 'B')]
    """
    if len(frame):
        c = _codes(frame)
        yield from _level3(c, _files(c, files), annotators)


def table_checks(frame: pd.DataFrame, *, level: int, texts: dict[Hashable, str] | None = None,
                 vocabulary: Sequence[str] | None = None,
                 annotators: Sequence[str] | None = None) -> Iterator[Incident]:
    """:func:`table_incidents` then, at level 3, :func:`across_tables`, on one conversion of
    the columns."""
    if not len(frame) or level < 2:
        return
    c = _codes(frame)
    file_of = _files(c, None)
    yield from _level2(c, file_of, texts, vocabulary)
    if level >= 3:
        yield from _level3(c, file_of, annotators)


def _level3(c: _Codes, file_of: dict[str, str | None],
            annotators: Sequence[str] | None) -> Iterator[Incident]:
    who = [str(a) for a in annotators] if annotators is not None else c.who_names
    if len(who) < 2:
        return
    n_docs, n_who = len(c.doc_names), len(c.who_names)
    marked = np.unique(c.who * n_docs + c.doc)  # (annotator, document) pairs, by annotator
    code = {w: k for k, w in enumerate(c.who_names)}
    for w in who:
        have = np.zeros(n_docs, dtype=bool)
        if w in code:
            lo, hi = np.searchsorted(marked, [code[w] * n_docs, (code[w] + 1) * n_docs])
            have[marked[lo:hi] - code[w] * n_docs] = True
        lacking = [c.doc_names[d] for d in np.flatnonzero(~have).tolist()]
        if lacking:
            yield Incident("spans-document-unmarked", "no span in a document others marked: "
                           f"{', '.join(lacking[:5])}{' ...' if len(lacking) > 5 else ''} (a "
                           "span table cannot say whether the document was annotated: it is "
                           "compared as marking nothing; leave it out of every annotator's "
                           "rows if it was not annotated)", file_of.get(w), None, None, None,
                           w, count=len(lacking))
    uses = np.unique(c.label * n_who + c.who)  # (label, annotator) pairs, by label
    users = np.bincount(uses // n_who, minlength=len(c.label_names))
    user = np.zeros(len(c.label_names), dtype=np.int64)
    user[uses // n_who] = uses % n_who
    spans_of = np.bincount(c.label, minlength=len(c.label_names))
    for lab in np.flatnonzero(users == 1).tolist():  # in order of first use
        w = c.who_names[int(user[lab])]
        yield Incident("spans-label-one-annotator", f"the label {c.label_names[lab]!r} is used "
                       "by this annotator only (its spans counted)", file_of.get(w), None,
                       None, None, w, count=int(spans_of[lab]))
    # Distinct spans (the first row of each annotator's), then those of one annotator only.
    span, size = _key((c.doc, n_docs), _ordinal(c.start)[:2], _ordinal(c.end)[:2],
                      (c.label, len(c.label_names)))
    key, _ = _key((span, size), (c.who, n_who))
    order, bounds = _runs(key)
    del key
    firsts = order[bounds[:-1]]
    del order
    k = span[firsts]
    del span
    same = np.zeros(len(firsts), dtype=bool)  # the span (without the annotator) of the one before
    same[1:] = k[1:] == k[:-1]
    alone_next = np.ones(len(firsts), dtype=bool)
    alone_next[:-1] = ~same[1:]
    alone = np.sort(firsts[~same & alone_next])
    if not len(alone):
        return
    pair = c.doc[alone] * n_who + c.who[alone]
    pairs, first, count = np.unique(pair, return_index=True, return_counts=True)
    for k in np.argsort(first, kind="stable").tolist():
        d, a = divmod(int(pairs[k]), n_who)
        name = c.who_names[a]
        yield Incident("spans-one-annotator", "a span that no other annotator has (the same "
                       "start, end and label)", file_of.get(name), None, c.doc_names[d], None,
                       name, count=int(count[k]))
