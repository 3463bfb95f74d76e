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
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError, option
from ..incidents import Incident
from ..inputs import csv_rows, parse_float, read_text
from .readers import REQUIRED, _separator

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


# --- level 2 ----------------------------------------------------------------------------------

def _columns(frame: pd.DataFrame) -> pd.DataFrame:
    """The columns the checks use, as strings and floats, in the frame's order."""
    n = len(frame)
    return pd.DataFrame({
        "annotator": frame["annotator"].astype(str).to_numpy(),
        "document": frame["document"].astype(str).to_numpy(),
        "start": pd.to_numeric(frame["start"]).to_numpy(dtype=float),
        "end": pd.to_numeric(frame["end"]).to_numpy(dtype=float),
        "label": frame["label"].astype(str).to_numpy(),
        "node": (frame["id"].astype(str).to_numpy() if "id" in frame.columns
                 else np.full(n, None, dtype=object)),
        "line": (pd.to_numeric(frame["line"]).to_numpy(dtype=float) if "line" in frame.columns
                 else np.full(n, np.nan)),
    })


def _files(frame: pd.DataFrame, files: dict[str, str] | None) -> dict[str, str | None]:
    if files is not None:
        return dict(files)
    if "file" not in frame.columns or not len(frame):
        return {}
    firsts = frame.drop_duplicates("annotator")
    return {str(a): (None if f is None else str(f))
            for a, f in zip(firsts["annotator"], firsts["file"], strict=True)}


Place = tuple["str | None", "int | None", str, "str | None", str]


def _at(c: pd.DataFrame, i: int, file_of: dict[str, str | None]) -> Place:
    """The place of row ``i``: file, line, document, node, annotator."""
    line = float(c["line"].to_numpy()[i])
    who = str(c["annotator"].iat[i])
    node = c["node"].iat[i]
    return (file_of.get(who), None if line != line else int(line), str(c["document"].iat[i]),
            None if node is None else str(node), who)


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
        ``spans-label-unknown`` (in the order of the rows), then ``spans-duplicate`` and
        ``spans-overlap`` (per annotator and document).

    Examples
    --------
    >>> f = pd.DataFrame([("A", "d", 0, 4, "PER"), ("A", "d", 5, 3, "PER")],
    ...                  columns=["annotator", "document", "start", "end", "label"])
    >>> [i.test_id for i in table_incidents(f)]
    ['spans-bad-offsets']
    """
    if len(frame):
        yield from _level2(_columns(frame), _files(frame, files), texts, vocabulary)


def _level2(c: pd.DataFrame, file_of: dict[str, str | None],
            texts: dict[Hashable, str] | None, vocabulary: Sequence[str] | None
            ) -> Iterator[Incident]:
    start, end = c["start"].to_numpy(), c["end"].to_numpy()
    length = (c["document"].map({str(k): len(v) for k, v in texts.items()}).to_numpy(
        dtype=float) if texts is not None else np.full(len(c), np.inf))
    bad = (start < 0) | (end < start) | (end > length)
    fractional = ~bad & ((start % 1 != 0) | (end % 1 != 0)) if texts is not None else \
        np.zeros(len(c), dtype=bool)
    zero = ~bad & (start == end)
    unknown = (~c["label"].isin(list(vocabulary)).to_numpy() if vocabulary is not None
               else np.zeros(len(c), dtype=bool))
    for i in np.flatnonzero(bad | fractional | zero | unknown).tolist():
        at = _at(c, i, file_of)
        s, e = start[i], end[i]
        if bad[i]:
            why = ("has a negative start" if s < 0 else "ends before it starts" if e < s
                   else f"ends past the text ({int(length[i])} characters)")
            yield Incident("spans-bad-offsets", f"the span {_show(s)}-{_show(e)} {why}; spans "
                           "run from start to end (exclusive), 0 <= start <= end <= the "
                           "text's length", *at)
        if fractional[i]:
            yield Incident("spans-fractional-offset", f"the span {s}-{e} has offsets that are "
                           "not whole numbers, but the texts given make them count "
                           "characters", *at)
        if zero[i]:
            yield Incident("spans-zero-length", f"the span at {_show(s)} (label "
                           f"{c['label'].iat[i]!r}) has no length", *at)
        if unknown[i]:
            yield Incident("spans-label-unknown", f"the label {c['label'].iat[i]!r} is not in "
                           f"the vocabulary ({option('vocabulary')})", *at)
    ok = c[~bad]
    keys = ["annotator", "document", "start", "end", "label"]
    twice = ok.duplicated(keys, keep=False).to_numpy()
    if twice.any():
        groups = ok[twice].reset_index().groupby(keys, sort=False)
        for (_, _, s, e, label), first, n in zip(groups.groups.keys(),
                                                 groups["index"].min().tolist(),
                                                 groups.size().tolist(), strict=True):
            yield Incident("spans-duplicate", f"the span {_show(s)}-{_show(e)} with the label "
                           f"{label!r} is stacked on an identical one (exact matching counts "
                           "each)", *_at(c, first, file_of), count=n - 1)
    spans = ok[~ok.duplicated(keys).to_numpy() & (ok["start"] < ok["end"]).to_numpy()]
    spans = spans.sort_values(["annotator", "document", "start", "end"], kind="stable")
    reach = spans.groupby(["annotator", "document"], sort=False)["end"].cummax()
    before = reach.groupby([spans["annotator"], spans["document"]], sort=False).shift()
    over = spans[(spans["start"] < before).to_numpy()]
    for (who, doc), n in over.groupby(["annotator", "document"], sort=True).size().items():
        yield Incident("spans-overlap", "a span overlaps an earlier span", file_of.get(who),
                       None, doc, None, who, count=int(n))


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
        yield from _level3(_columns(frame), _files(frame, files), annotators)


def table_checks(frame: pd.DataFrame, *, level: int, texts: dict[Hashable, str] | None = None,
                 vocabulary: Sequence[str] | None = None,
                 annotators: Sequence[str] | None = None) -> Iterator[Incident]:
    """:func:`table_incidents` then, at level 3, :func:`across_tables`, on one conversion of
    the columns."""
    if not len(frame) or level < 2:
        return
    c, file_of = _columns(frame), _files(frame, None)
    yield from _level2(c, file_of, texts, vocabulary)
    if level >= 3:
        yield from _level3(c, file_of, annotators)


def _level3(c: pd.DataFrame, file_of: dict[str, str | None],
            annotators: Sequence[str] | None) -> Iterator[Incident]:
    who = ([str(a) for a in annotators] if annotators is not None
           else c["annotator"].unique().tolist())
    if len(who) < 2:
        return
    documents = c["document"].unique().tolist()
    marked = c.groupby("annotator", sort=False)["document"].unique()
    for w in who:
        have = set(marked.get(w, ()))
        lacking = [d for d in documents if d not in have]
        if lacking:
            yield Incident("spans-document-unmarked", "no span in a document others marked: "
                           f"{', '.join(lacking[:5])}{' ...' if len(lacking) > 5 else ''} (a "
                           "span table cannot say whether the document was annotated: it is "
                           "compared as marking nothing; leave it out of every annotator's "
                           "rows if it was not annotated)", file_of.get(w), None, None, None,
                           w, count=len(lacking))
    users = c.groupby("label", sort=False)["annotator"].nunique()
    alone_labels = users[users == 1].index
    if len(alone_labels):
        rows = c[c["label"].isin(alone_labels)]
        for (label, w), n in rows.groupby(["label", "annotator"], sort=False).size().items():
            yield Incident("spans-label-one-annotator", f"the label {label!r} is used by this "
                           "annotator only (its spans counted)", file_of.get(w), None, None,
                           None, w, count=int(n))
    keys = ["document", "start", "end", "label"]
    unique = c.drop_duplicates(["annotator", *keys])
    holders = unique.groupby(keys, sort=False)["annotator"].transform("size")
    alone = unique[(holders == 1).to_numpy()]
    for (doc, w), n in alone.groupby(["document", "annotator"], sort=False).size().items():
        yield Incident("spans-one-annotator", "a span that no other annotator has (the same "
                       "start, end and label)", file_of.get(w), None, doc, None, w,
                       count=int(n))
