"""Span tables: the plain CSV/TSV layout, pygamma-agreement's CSV, document lengths and texts.

The plain layout has a header naming its columns, in any order: ``document``, ``start``,
``end`` (required), ``annotator`` (unless each file is one annotator's, named by ``--names`` or
the file name), ``label`` (optional: spans without it are all one category, ``span``), and any
other column, kept as an attribute of the span. ``end`` is exclusive. The separator is a tab for
``.tsv`` and ``.tab`` files and a comma otherwise.

pygamma-agreement's layout has no header, one unit a line: ``annotator,category,start,end``; a
file is one continuum (one document, named by the file's stem).

Offsets are whole numbers or decimals (time, for instance). What they count is not written in
either layout; it is ``positions`` unless texts are given (``--text-dir``: characters).

References
----------
pygamma-agreement (github.com/bootphon/pygamma-agreement), ``Continuum.from_csv``: the columns
annotator, annotation (category), segment start, segment end, without a header.

docs/spans.md, "Reading spans".
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._lazy import module
from ..errors import InputError, ParameterError, option
from ..inputs import csv_rows, decode, parse_float, parse_int, read_bytes, read_text
from .table_fast import plain_columns

if TYPE_CHECKING:
    import pandas as pd
else:  # loaded on the first table read: recognising a file (sniff_table) needs none of it
    pd = module("pandas")

__all__ = ["read_lengths", "read_pygamma_csv", "read_span_table", "read_texts", "sniff_table"]

REQUIRED = ("document", "start", "end")
#: The label of spans read from a table without a ``label`` column.
NO_LABEL = "span"


def _separator(path: str | os.PathLike[str]) -> str:
    return "\t" if str(path).lower().endswith((".tsv", ".tab")) else ","


def _after_line(text: str, line: int) -> int:
    """The position in ``text`` after its first ``line`` lines."""
    at = 0
    for _ in range(line):
        nl = text.find("\n", at)
        if nl < 0:
            return len(text)
        at = nl + 1
    return at


def _columns_frame(text: str, first_line: int, width: int, sep: str, name: str,
                   at: dict[str, int], *, annotator: str | None = None,
                   document: str | None = None, extra: Sequence[str] = ()
                   ) -> pd.DataFrame | None:
    """The frame the row-by-row reader builds, from the columns of a plain table
    (:func:`~clusteragree.spans.table_fast.plain_columns`: ``text`` holds the rows only), or
    None when the row-by-row reader must read it. ``at``: column -> its index; ``annotator``
    and ``document``: the value of every row, for a table without that column."""
    got = plain_columns(text, first_line, width, sep,
                        names=[at[c] for c in ("annotator", "document", "label") if c in at],
                        offsets=(at["start"], at["end"]))
    if got is None:
        return None
    import pyarrow as pa
    import pyarrow.compute as pc
    columns, lines = got
    n = len(lines)

    def strings(column: str, constant: str | None = None) -> pd.Series:
        if column in at:
            return columns[at[column]].to_pandas()
        return pa.repeat(constant, n).to_pandas()

    frame = pd.DataFrame({
        "annotator": strings("annotator", annotator), "document": strings("document", document),
        "start": columns[at["start"]], "end": columns[at["end"]],
        "label": strings("label", NO_LABEL),
        "id": pc.cast(pa.array(lines), pa.string()).to_pandas(),
        "file": pa.repeat(name, n).to_pandas(), "line": lines,
        **{c: columns[at[c]].to_pandas() for c in extra}})
    return frame


def sniff_table(path: str | os.PathLike[str], encoding: str | None = None) -> str | None:
    """``"spans-csv"`` when the first line names the columns of the plain layout,
    ``"pygamma"`` when it is a unit of pygamma-agreement's layout (four fields, the last two
    numbers), else None.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     a, b = pathlib.Path(tmp) / "a.csv", pathlib.Path(tmp) / "b.csv"
    ...     _ = a.write_text("annotator,document,start,end,label\\n")
    ...     _ = b.write_text("Alex,1,2,9\\n")
    ...     sniff_table(a), sniff_table(b)
    ('spans-csv', 'pygamma')
    """
    try:
        with open(path, "rb") as handle:
            head = handle.readline(4096)
    except OSError:
        return None
    text = head.decode(encoding or "utf-8-sig", errors="replace").lstrip("\ufeff").strip()
    fields = [f.strip().lower() for f in text.split(_separator(path))]
    if all(c in fields for c in REQUIRED):
        return "spans-csv"
    if len(fields) == 4:
        try:
            float(fields[2])
            float(fields[3])
        except ValueError:
            return None
        return "pygamma"
    return None


def read_span_table(path: str | os.PathLike[str], *, annotator: Hashable | None = None,
                    fallback: Hashable | None = None, encoding: str | None = None
                    ) -> pd.DataFrame:
    """The spans of a plain CSV/TSV file (see the module's docstring).

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    annotator : hashable, optional
        The annotator of every span, for a file without an ``annotator`` column (one file per
        annotator). A file with that column names its own annotators: giving ``annotator`` too
        is refused, since it is not clear which names hold.
    fallback : hashable, optional
        The annotator of a file without an ``annotator`` column when ``annotator`` is not
        given (the file's name); unused for a file with that column.
    encoding : str, optional
        Default UTF-8 (a byte-order mark is skipped).

    Returns
    -------
    DataFrame
        The columns ``annotator, document, start, end, label, id, file, line`` and the
        attributes; ``id`` is ``LINE`` (the span's line in the file). ``attrs["annotators"]``
        lists the file's annotators: those of its column, or the one annotator of a file
        without it (who may have marked nothing).

    Raises
    ------
    InputError
        No header with ``document``, ``start`` and ``end``; a column named twice; a row of
        another number of fields than the header; an empty annotator or document; an offset
        that is not a number; no annotator column and no ``annotator`` given (each with the
        file and line).

    References
    ----------
    docs/spans.md, "Reading spans".

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = pathlib.Path(tmp) / "spans.csv"
    ...     _ = p.write_text("annotator,document,start,end,label,note\\n"
    ...                      "A,d1,0,4,PER,sure\\nB,d1,0,5,PER,\\n")
    ...     frame = read_span_table(p)
    >>> frame[["annotator", "document", "start", "end", "label", "note"]].values.tolist()
    [['A', 'd1', 0.0, 4.0, 'PER', 'sure'], ['B', 'd1', 0.0, 5.0, 'PER', '']]
    """
    name = os.fspath(path)
    text = read_text(name, encoding=encoding)
    rows = csv_rows(text, name, delimiter=_separator(name))
    try:
        first, header = next(rows)
    except StopIteration:
        raise InputError("the file is empty; a span table starts with a header naming "
                         "document,start,end (and annotator, label)", name, 1) from None
    columns = [h.strip().lstrip("\ufeff").lower() for h in header]
    missing = [c for c in REQUIRED if c not in columns]
    if missing:
        raise InputError(f"the header lacks the column(s) {', '.join(missing)}; a span table "
                         f"has the columns annotator,document,start,end,label (got "
                         f"{','.join(columns)[:80]})", name, first)
    twice = [c for c in dict.fromkeys(columns) if columns.count(c) > 1]
    if twice:
        raise InputError(f"the header names {twice[0]!r} twice", name, first)
    has_annotator = "annotator" in columns
    if has_annotator and annotator is not None:
        raise ParameterError(f"{name} names its annotators in its annotator column, and "
                             f"{option('names')} names them too: give {option('names')} only "
                             "for files without an annotator column", params=("names",))
    annotator = annotator if annotator is not None else fallback
    if not has_annotator and annotator is None:
        raise InputError("the header has no annotator column: name the file's annotator "
                         f"(one file per annotator, {option('names')}), or add the column",
                         name, first)
    at = {c: i for i, c in enumerate(columns)}
    extra = [c for c in columns if c not in (*REQUIRED, "annotator", "label")]
    if (has_annotator or isinstance(annotator, str)) and not {"id", "file", "line"} & set(
            extra):  # the frame's own columns named in the header: built row by row
        fast = _columns_frame(text[_after_line(text, first):], first + 1, len(columns),
                              _separator(name), name, at,
                              annotator=None if has_annotator else str(annotator), extra=extra)
        if fast is not None:
            fast.attrs["annotators"] = (fast["annotator"].unique().tolist() if has_annotator
                                        else [annotator])
            return fast
    records: list[list[Any]] = []
    for line, fields in rows:
        if len(fields) != len(columns):
            raise InputError(f"{len(fields)} fields where the header has {len(columns)}",
                             name, line)
        who = fields[at["annotator"]].strip() if has_annotator else annotator
        doc = fields[at["document"]].strip()
        if who == "" or doc == "":
            raise InputError(f"the {'annotator' if who == '' else 'document'} is empty", name,
                             line)
        label = fields[at["label"]].strip() if "label" in at else NO_LABEL
        if label == "":
            raise InputError(f"the label is empty; give every span its label (or leave out "
                             f"the label column: every span is then {NO_LABEL!r})", name, line)
        start = parse_float(fields[at["start"]], what="start", path=name, line=line)
        end = parse_float(fields[at["end"]], what="end", path=name, line=line)
        records.append([who, doc, start, end, label, str(line), name, line,
                        *(fields[at[c]] for c in extra)])
    frame = pd.DataFrame(records, columns=["annotator", "document", "start", "end", "label",
                                           "id", "file", "line", *extra])
    frame.attrs["annotators"] = (frame["annotator"].unique().tolist() if has_annotator
                                 else [annotator])
    return frame


def read_pygamma_csv(path: str | os.PathLike[str], *, encoding: str | None = None
                     ) -> pd.DataFrame:
    """The units of a pygamma-agreement CSV (``annotator,category,start,end``, no header): one
    document, named by the file's stem.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    encoding : str, optional
        Default UTF-8.

    Returns
    -------
    DataFrame
        As :func:`read_span_table`.

    Raises
    ------
    InputError
        A line of another number of fields, an empty annotator or category, an offset that is
        not a number (with the file and line).

    References
    ----------
    pygamma-agreement, ``Continuum.from_csv`` (github.com/bootphon/pygamma-agreement).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = pathlib.Path(tmp) / "talk.csv"
    ...     _ = p.write_text("Alex,1,2,9\\nPaul,1,2.5,9\\n")
    ...     read_pygamma_csv(p)[["annotator", "document", "start", "end", "label"]]
      annotator document  start  end label
    0      Alex     talk    2.0  9.0     1
    1      Paul     talk    2.5  9.0     1
    """
    name = os.fspath(path)
    text = read_text(name, encoding=encoding)
    stem = Path(name).stem
    fast = _columns_frame(text, 1, 4, ",", name, {"annotator": 0, "label": 1, "start": 2,
                                                  "end": 3}, document=stem)
    if fast is not None:
        return fast
    records: list[list[Any]] = []
    for line, fields in csv_rows(text, name):
        if len(fields) != 4:
            raise InputError(f"{len(fields)} fields; a line of pygamma-agreement's CSV is "
                             "annotator,category,start,end", name, line)
        who, label = fields[0].strip(), fields[1].strip()
        if who == "" or label == "":
            raise InputError(f"the {'annotator' if who == '' else 'category'} is empty", name,
                             line)
        records.append([who, stem, parse_float(fields[2], what="start", path=name, line=line),
                        parse_float(fields[3], what="end", path=name, line=line), label,
                        str(line), name, line])
    return pd.DataFrame(records, columns=["annotator", "document", "start", "end", "label",
                                          "id", "file", "line"])


def read_lengths(path: str | os.PathLike[str], *, encoding: str | None = None
                 ) -> dict[str, int]:
    """Document lengths from a CSV with the header ``document,length``.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = pathlib.Path(tmp) / "lengths.csv"
    ...     _ = p.write_text("document,length\\nd1,120\\nd2,80\\n")
    ...     read_lengths(p)
    {'d1': 120, 'd2': 80}
    """
    name = os.fspath(path)
    rows = csv_rows(read_text(name, encoding=encoding), name, delimiter=_separator(name))
    try:
        first, header = next(rows)
    except StopIteration:
        raise InputError("the file of lengths is empty; it has the header document,length",
                         name, 1) from None
    if [h.strip().lower() for h in header] != ["document", "length"]:
        raise InputError(f"the header must be document,length (got {','.join(header)[:60]})",
                         name, first)
    out: dict[str, int] = {}
    for line, fields in rows:
        if len(fields) != 2:
            raise InputError(f"{len(fields)} fields where the header has 2", name, line)
        doc = fields[0].strip()
        if doc in out:
            raise InputError(f"document {doc!r} is given twice", name, line)
        out[doc] = parse_int(fields[1], what="length", path=name, line=line, lo=0)
    return out


def read_texts(directory: str | os.PathLike[str], documents: Sequence[Hashable], *,
               encoding: str | None = None) -> dict[Hashable, str]:
    """Each document's text, ``<document>.txt`` in ``directory``, read as written (a CRLF is
    two characters, as offsets into it count).

    Raises
    ------
    InputError
        A text that is not there (named with ``--text-dir``).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = (pathlib.Path(tmp) / "d1.txt").write_text("Mary met John.")
    ...     read_texts(tmp, ["d1"])
    {'d1': 'Mary met John.'}
    """
    out: dict[Hashable, str] = {}
    for doc in documents:
        path = Path(directory) / f"{doc}.txt"
        if not path.exists():
            raise InputError(f"no text for document {doc!r} in "
                             f"{option('text_dir', os.fspath(directory))}", str(path))
        out[doc] = decode(read_bytes(path, what="text"), str(path), encoding=encoding)
    return out
