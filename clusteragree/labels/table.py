"""Long CSV tables of codings: one row per coder and unit.

The header names the columns ``coder``, ``unit`` and ``labels`` (or ``value``), and optionally
``document``. ``labels`` holds a set of labels separated by ``;`` (``sep`` changes it); an empty
field is the empty set. A (coder, unit) pair that has no row is missing. With ``scalar=True`` the
field is one value instead of a set, a number when it reads as one.

Every problem is reported as ``FILE:LINE: what is wrong``; a label given twice in one cell is
counted once and the repair is reported in :attr:`LongTable.repairs`.

Examples
--------
>>> import io
>>> data = io.StringIO("coder,unit,labels\\nA,1,x;y\\nB,1,x\\n")
>>> table = read_long_table(data, path="example.csv").tables[None]
>>> sorted(table.value("A", "1"))
['x', 'y']
"""

from __future__ import annotations

import math
import os
import re
from array import array
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import IO, Any

import numpy as np

from ..core.model import CodingTable
from ..errors import InputError, ParameterError, ParameterTypeError, notify
from ..inputs import MAX_INT_DIGITS, csv_rows, decode, read_bytes
from .table_fast import FAST_MIN_CHARS, fast_columns, names_of

__all__ = ["CodingRows", "LongTable", "read_long_rows", "read_long_table"]

VALUE_COLUMNS = ("labels", "value", "label")


@dataclass(frozen=True)
class LongTable:
    """Coding tables read from a long CSV file, one per document (``None`` if no column).

    Attributes
    ----------
    tables : dict
        ``document -> CodingTable`` (coders by units), documents in order of first appearance;
        the single key is ``None`` when the file has no ``document`` column.
    rows : int
        The number of codings read (rows after the header).
    repairs : dict, default={}
        ``description -> number of cells`` for what the reading changed; at present the
        cells with a label given twice, counted once.
    path : str, default="<input>"
        The name used in messages.
    coders : tuple or None, default=None
        Every coder of the file, in the order they first appear (None when the reader does
        not say; the tables' coders are then the order to use).

    References
    ----------
    docs/cli.md (``clusteragree table`` and its input formats); docs/multilabel.md, section
    "Reading" (the codings CSV: streaming, ``--scalar``, the notices). The tables are
    Krippendorff's reliability data, coders by units: Krippendorff, K. (2011). Computing
    Krippendorff's Alpha-Reliability.

    Examples
    --------
    Two documents; in d2, A writes ``y`` twice, which counts once and is reported both in
    ``repairs`` and as a ``merged`` notice:

    >>> import io
    >>> from clusteragree.errors import Ledger
    >>> text = "coder,unit,labels,document\\nA,1,x;y,d1\\nB,1,x,d1\\nA,1,y;y,d2\\nB,1,y,d2\\n"
    >>> with Ledger() as ledger:
    ...     long = read_long_table(io.StringIO(text))
    >>> list(long.tables), long.rows, long.repairs
    (['d1', 'd2'], 4, {'cells with a label given twice (counted once)': 1})
    >>> sorted(long.tables["d2"].value("A", "1")), [n.kind for n in ledger.notices]
    (['y'], ['merged'])
    """

    tables: dict[Hashable, CodingTable]
    rows: int
    repairs: dict[str, int] = field(default_factory=dict)
    path: str = "<input>"
    coders: tuple[Hashable, ...] | None = None

    def coder_order(self) -> list[Hashable]:
        """Every coder, in the order they first appear in the file (or, when the reader does
        not say, in the order of the documents and of each table)."""
        if self.coders is not None:
            return list(self.coders)
        return list(dict.fromkeys(c for t in self.tables.values() for c in t.coders))


@dataclass(frozen=True)
class CodingRows:
    """The rows of a codings CSV as the reader coded them, in file order: what
    ``clusteragree validate`` checks when the reader accepted the file (no Python object per
    row).

    Attributes
    ----------
    doc, coder, unit, field : ndarray of int
        Per row, codes into ``docs`` (zeros without a document column), ``coders``,
        ``units`` and ``fields``.
    line : ndarray of int or None
        The line of each row (None: rows without lines, as Parquet's).
    docs : list or None
        The documents in order of first appearance (None: the file has no document column).
    coders, units : list
        In order of first appearance, stripped as the table reads them (str; Parquet's may
        be whole numbers).
    fields : list of str
        The distinct labels fields (or values) as written, stripped, in order of first
        appearance.

    References
    ----------
    docs/multilabel.md, "Reading" (the codings CSV); docs/validate.md.

    Examples
    --------
    >>> import io
    >>> _, rows = read_long_rows(io.StringIO("coder,unit,labels\\nA,1,x;y\\nB,1,x\\n"))
    >>> rows.coder.tolist(), rows.fields, rows.line.tolist(), rows.docs
    ([0, 1], ['x;y', 'x'], [2, 3], None)
    """

    doc: np.ndarray
    coder: np.ndarray
    unit: np.ndarray
    field: np.ndarray
    line: np.ndarray | None
    docs: list[Any] | None
    coders: list[Any]
    units: list[Any]
    fields: list[str]


def _source_text(source: str | os.PathLike[str] | IO[str], path: str,
                 encoding: str | None) -> str:
    if isinstance(source, (str, os.PathLike)):
        raw = read_bytes(source)
        return decode(raw, path, encoding=encoding)
    if not hasattr(source, "read"):
        raise ParameterTypeError(f"source must be a path or a text stream. Got "
                                 f"{type(source).__name__}.")
    text = source.read()
    if not isinstance(text, str):
        raise ParameterTypeError("source must be a text stream (open the file in text mode)")
    return text[1:] if text.startswith("\ufeff") else text


_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_INTEGER = re.compile(r"[+-]?[0-9]+")


def _number(text: str) -> int | float | None:
    """An ASCII decimal number, finite; None for anything else (``nan``, ``inf``, ``1,5``...)."""
    if not _NUMBER.fullmatch(text):
        return None
    if _INTEGER.fullmatch(text):
        if len(text.lstrip("+-")) > MAX_INT_DIGITS:
            return None
        return int(text)
    value = float(text)
    return value if math.isfinite(value) else None


def _canonical(value: int | float) -> str:
    return str(value) if isinstance(value, int) else repr(value)


class _Codes:
    """Distinct strings as small integers, in order of first appearance."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.names: list[str] = []

    def __call__(self, text: str) -> int:
        k = self.ids.get(text)
        if k is None:
            k = self.ids[text] = len(self.names)
            self.names.append(text)
        return k


def read_long_table(
    source: str | os.PathLike[str] | IO[str],
    *,
    sep: str = ";",
    scalar: bool = False,
    numeric: bool = False,
    path: str | None = None,
    encoding: str | None = None,
    fast: bool | None = None,
) -> LongTable:
    """Read a long CSV of codings.

    With ``scalar``, a field that is an ASCII decimal number (``3``, ``-0.5``, ``1e3``) is that
    number; anything else, ``nan`` and ``inf`` included, stays a text label (and is refused
    when ``numeric``). Numbers written in several ways that read as one value (``01`` and
    ``1``, ``1.0`` and ``1``) are reported (``converted``), as are columns the table does
    not use (``ignored``) and labels given twice in one cell (``merged``); strict reading
    refuses them.

    Rows are streamed into integer codes (coders, units, documents and distinct fields), so
    memory grows with the number of rows by a few dozen bytes, not by Python objects per cell.

    Parameters
    ----------
    source : str, os.PathLike or text stream
        The file, or an open text stream (``io.StringIO``, a file opened in text mode).
    sep : str, default=";"
        Separator between the labels of a set; ``"none"``: a field is one label (a set of
        one, or the empty set for an empty field).
    scalar : bool, default=False
        Read one value per field instead of a set.
    numeric : bool, default=False
        With ``scalar``: every value must be a number.
    path : str, optional
        Name used in messages (defaults to ``source`` when it is a path).
    encoding : str, optional
        The file's encoding (default UTF-8, with or without a byte-order mark).
    fast : bool or None, default=None
        Read a plain file (no quotes, no blank lines, ...) by columns with pyarrow when it is
        installed (:func:`clusteragree.labels.table_fast.fast_codings`), which gives the same
        table; any other file, and every file with ``fast=False``, is read row by row, so
        errors and notices name the same lines either way. None: by columns from
        :data:`~clusteragree.labels.table_fast.FAST_MIN_CHARS` characters on (below, loading
        pyarrow costs more than it saves).

    Returns
    -------
    LongTable
        One :class:`~clusteragree.core.model.CodingTable` per document, the number of rows and
        the repairs made. Units, coders and documents are strings, as written in the file.

    Raises
    ------
    InputError
        With the file and line: empty file, missing columns, wrong number of fields, a quote
        left open, a bare carriage return, empty coder or unit, a coder coding a unit twice,
        an empty label between separators, an empty or non-numeric scalar value, no unit
        coded by two coders (nothing to compare).
    ParameterError, ParameterTypeError
        An empty ``sep``; a ``source`` that is neither a path nor a text stream.

    References
    ----------
    docs/cli.md (``clusteragree table`` and its input formats); docs/multilabel.md, section
    "Reading" (the codings CSV: streaming, ``--scalar``, the notices). The tables are
    Krippendorff's reliability data, coders by units: Krippendorff, K. (2011). Computing
    Krippendorff's Alpha-Reliability.

    Examples
    --------
    Sets of labels: A codes unit 1 with x and y and unit 2 with the empty set (an empty
    field); C has no row for unit 2, so that cell is missing:

    >>> import io
    >>> text = "coder,unit,labels\\nA,1,x;y\\nB,1,x\\nC,1,y\\nA,2,\\nB,2,z\\n"
    >>> table = read_long_table(io.StringIO(text)).tables[None]
    >>> list(table.coders), list(table.units)
    (['A', 'B', 'C'], ['1', '2'])
    >>> sorted(table.value("A", "1")), table.value("A", "2"), table.value("C", "2")
    (['x', 'y'], frozenset(), None)

    One value per field with ``scalar=True``; numbers are read as numbers:

    >>> text = "coder,unit,value\\nA,1,3\\nB,1,-0.5\\nA,2,2\\nB,2,2\\n"
    >>> table = read_long_table(io.StringIO(text), scalar=True).tables[None]
    >>> table.value("A", "1"), table.value("B", "1"), table.value("B", "2")
    (3, -0.5, 2)

    A coder coding a unit twice is refused, with the file and both lines:

    >>> text = "coder,unit,labels\\nA,1,x\\nA,1,y\\nB,1,x\\n"
    >>> read_long_table(io.StringIO(text), path="codings.csv")
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: codings.csv:3: coder 'A' coded unit '1' twice (first at
    line 2); keep one row per coder and unit
    """
    return _read(source, sep=sep, scalar=scalar, numeric=numeric, path=path,
                 encoding=encoding, fast=fast)[0]


def read_long_rows(
    source: str | os.PathLike[str] | IO[str],
    *,
    sep: str = ";",
    scalar: bool = False,
    numeric: bool = False,
    path: str | None = None,
    encoding: str | None = None,
    fast: bool | None = None,
) -> tuple[LongTable, CodingRows]:
    """:func:`read_long_table`, with the rows it read: what it returns, its notices and its
    refusals are the same, and :class:`CodingRows` gives each row's codes and line (for
    checks that look at the rows as written, such as ``clusteragree validate``).

    Parameters
    ----------
    source, sep, scalar, numeric, path, encoding, fast
        As :func:`read_long_table`.

    Returns
    -------
    (LongTable, CodingRows)

    References
    ----------
    docs/multilabel.md, "Reading"; docs/validate.md.

    Examples
    --------
    >>> import io
    >>> text = "coder,unit,labels,document\\nA,1,x,d1\\nB,1,y,d1\\n\\nA,1,x,d2\\nB,1,x,d2\\n"
    >>> long, rows = read_long_rows(io.StringIO(text))
    >>> list(long.tables), rows.docs, rows.doc.tolist(), rows.line.tolist()
    (['d1', 'd2'], ['d1', 'd2'], [0, 0, 1, 1], [2, 3, 5, 6])
    """
    table, rows = _read(source, sep=sep, scalar=scalar, numeric=numeric, path=path,
                        encoding=encoding, fast=fast, keep=True)
    assert rows is not None
    return table, rows


def _read(source: str | os.PathLike[str] | IO[str], *, sep: str, scalar: bool, numeric: bool,
          path: str | None, encoding: str | None, fast: bool | None, keep: bool = False
          ) -> tuple[LongTable, CodingRows | None]:
    if not isinstance(sep, str) or not sep:
        raise ParameterError("the label separator must be a non-empty string or 'none'",
                             params=("sep",))
    name = path or (os.fspath(source) if isinstance(source, (str, os.PathLike)) else "<input>")
    text = _source_text(source, name, encoding)
    rows_iter = csv_rows(text, name)
    first = next(rows_iter, None)
    if first is None:
        raise InputError("empty file; expected a header coder,unit,labels", path=name, line=1)
    header_line, header = first
    columns = [h.strip().lower() for h in header]
    value_col = next((c for c in VALUE_COLUMNS if c in columns), None)
    if "coder" not in columns or "unit" not in columns or value_col is None:
        raise InputError(
            f"the header has the columns {header}; expected coder, unit and labels "
            "(and optionally document)", path=name, line=header_line,
        )
    ic, iu, iv = columns.index("coder"), columns.index("unit"), columns.index(value_col)
    idoc = columns.index("document") if "document" in columns else None
    used = {ic, iu, iv} | ({idoc} if idoc is not None else set())
    extra = [header[k] for k in range(len(header)) if k not in used]
    if extra:
        notify("ignored", f"columns not used: {', '.join(repr(c) for c in extra)} (the table "
               "reads coder, unit, document and one of labels, value, label)",
               path=name, line=header_line)
    coders, units, docs, fields = _Codes(), _Codes(), _Codes(), _Codes()
    if fast is None:
        fast = len(text) >= FAST_MIN_CHARS
    fast_read = (fast_columns(text, len(header), [idoc, ic, iu, iv], scalar)
                 if fast and header_line == 1 else None)
    if fast_read is not None:  # a plain file, read by columns
        del rows_iter, text  # not needed any more: the file's text goes before the names come
        dictionaries, arrays = fast_read
        names = names_of(dictionaries)
        del fast_read, dictionaries
        for coded, distinct in zip((docs, coders, units, fields), names, strict=True):
            coded.names = distinct  # (no ids: only the row-by-row reader looks names up)
        n = len(arrays["line"])
    else:
        arrays, n = _read_rows(rows_iter, header, header_line, (idoc, ic, iu, iv), scalar,
                               (docs, coders, units, fields), name)
    _refuse_duplicates(arrays, coders, units, name)
    values, of_field, merged = _parse_values(fields.names, arrays["first"], scalar, numeric,
                                             sep, name)
    kept = (CodingRows(arrays["doc"], arrays["coder"], arrays["unit"], arrays["value"],
                       arrays["line"], list(docs.names) if idoc is not None else None,
                       coders.names, units.names, fields.names) if keep else None)
    arrays["value"] = of_field[arrays["value"]]
    doc_names: list[Hashable] = list(docs.names) if idoc is not None else [None]
    tables: dict[Hashable, CodingTable] = {}
    if len(doc_names) == 1:
        groups: list[Any] = [slice(None)]
    else:
        order = np.argsort(arrays["doc"], kind="stable")
        groups = np.split(order, np.flatnonzero(np.diff(arrays["doc"][order])) + 1)
    for rows in groups:
        doc = doc_names[int(arrays["doc"][rows][0])]
        c_ids, c_inv = _dense(arrays["coder"], rows, len(coders.names))
        u_ids, u_inv = _dense(arrays["unit"], rows, len(units.names))
        v_ids, v_inv = _dense(arrays["value"], rows, len(values))
        codes = np.full((len(c_ids), len(u_ids)), -1, dtype=np.int64)
        codes[c_inv, u_inv] = v_inv
        tables[doc] = CodingTable([coders.names[k] for k in c_ids],
                                  [units.names[k] for k in u_ids], codes=codes,
                                  values=[values[k] for k in v_ids.tolist()])
    repairs = {"cells with a label given twice (counted once)": merged} if merged else {}
    _check_pairable(tables, name)
    return LongTable(tables, n, repairs, name, tuple(coders.names)), kept


def _read_rows(rows_iter: Any, header: list[str], header_line: int,
               used: tuple[int | None, int, int, int], scalar: bool,
               codes: tuple[_Codes, _Codes, _Codes, _Codes], name: str
               ) -> tuple[dict[str, np.ndarray], int]:
    """The row-by-row reading of a codings CSV (every file :func:`fast_codings` leaves):
    integer codes of the used columns, the line of every row and of each distinct field's
    first appearance."""
    idoc, ic, iu, iv = used
    docs, coders, units, fields = codes
    cols: dict[str, array] = {k: array("l" if k == "line" else "i")
                              for k in ("doc", "coder", "unit", "value", "line")}
    for line, row in rows_iter:
        if len(row) != len(header):
            raise InputError(
                f"{len(row)} fields, expected {len(header)} as in the header; quote a field "
                "that contains a comma", path=name, line=line,
            )
        coder, unit, text = row[ic].strip(), row[iu].strip(), row[iv].strip()
        for what, val in (("coder", coder), ("unit", unit)):
            if not val:
                raise InputError(f"empty {what}", path=name, line=line)
        if scalar and not text:
            raise InputError("empty value; leave the row out for a missing value", path=name,
                             line=line)
        cols["doc"].append(docs(row[idoc].strip()) if idoc is not None else 0)
        cols["coder"].append(coders(coder))
        cols["unit"].append(units(unit))
        k = fields.ids.get(text)
        if k is None:
            k = fields(text)
            cols.setdefault("first", array("l")).append(line)
        cols["value"].append(k)
        cols["line"].append(line)
    n = len(cols["line"])
    if n == 0:
        raise InputError("no codings after the header", path=name, line=header_line)
    arrays = {k: np.frombuffer(v, dtype=np.int32 if v.typecode == "i" else np.int64)
              for k, v in cols.items()}
    del cols
    return arrays, n


def _dense(codes: np.ndarray, rows: Any, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The codes used by ``rows`` (in order of first appearance in the file) and each row's
    position among them, by counting, without sorting."""
    sub = codes[rows]
    used = np.flatnonzero(np.bincount(sub, minlength=n))
    if len(used) == n:
        return used, sub
    remap = np.full(n, -1, dtype=np.int32)
    remap[used] = np.arange(len(used), dtype=np.int32)
    return used, remap[sub]


def _refuse_duplicates(arrays: dict[str, np.ndarray], coders: _Codes, units: _Codes,
                       name: str) -> None:
    """A coder coding a unit twice in one document: refused, naming both lines."""
    n_c, n_u = len(coders.names), len(units.names)
    n_d = int(arrays["doc"].max(initial=0)) + 1
    if n_d * n_c * n_u < 2**62:  # one packed key: one sort
        key = _packed(arrays, n_c, n_u)
        key.sort()  # in place: no copy of the rows when (as nearly always) none repeats
        if not (key[1:] == key[:-1]).any():
            return
        key = _packed(arrays, n_c, n_u)
        order = np.argsort(key, kind="stable")
        key = key[order]
        same = np.flatnonzero(key[1:] == key[:-1])
        del key
    else:
        order = np.lexsort((arrays["unit"], arrays["coder"], arrays["doc"]))
        d, c, u = arrays["doc"][order], arrays["coder"][order], arrays["unit"][order]
        same = np.flatnonzero((d[1:] == d[:-1]) & (c[1:] == c[:-1]) & (u[1:] == u[:-1]))
    if not len(same):
        return
    lines = arrays["line"]
    k = int(same[np.argmin(lines[order[same + 1]])])  # stable: rows of one key in file order
    first, again = int(order[k]), int(order[k + 1])
    raise InputError(
        f"coder {coders.names[int(arrays['coder'][first])]!r} coded unit "
        f"{units.names[int(arrays['unit'][first])]!r} twice (first at line "
        f"{int(lines[first])}); keep one row per coder and unit", path=name,
        line=int(lines[again]))


def _packed(arrays: dict[str, np.ndarray], n_c: int, n_u: int) -> np.ndarray:
    """One int64 per row: its document, coder and unit, packed (built in place)."""
    key = arrays["doc"].astype(np.int64)
    key *= n_c
    key += arrays["coder"]
    key *= n_u
    key += arrays["unit"]
    return key


def _parse_values(texts: list[str], lines: np.ndarray, scalar: bool, numeric: bool, sep: str,
                  name: str) -> tuple[list[Any], np.ndarray, int]:
    """Each distinct field parsed once: a number or text (scalar), or a set of labels.

    Returns the distinct values, the value of each field (fields written differently may be
    one value: ``x;y`` and ``y;x``, ``1`` and ``1.0``) and the number of cells with a label
    given twice.
    """
    values: list[Any] = []
    index: dict[Any, int] = {}
    of_field = np.empty(len(texts), dtype=np.int32)
    merged = 0
    first_merged: tuple[int, str] | None = None
    spellings: dict[Any, list[str]] = {}
    words: list[tuple[int, str]] = []
    for k, (text, line) in enumerate(zip(texts, lines.tolist(), strict=True)):
        value: Any
        if scalar:
            number = _number(text)
            if numeric and number is None:
                raise InputError(f"value {text!r} is not a number", path=name, line=line)
            if number is None:
                value = text
                words.append((line, text))
            else:
                # a whole number is an int where ints and floats agree (|x| < 2**53): 1e308
                # stays a float, not an int of 309 digits
                value = int(number) if isinstance(number, int) or (
                    number.is_integer() and abs(number) < 2.0**53) else number
                spellings.setdefault(value, []).append(text)
        else:
            pieces = [text] if sep == "none" else text.split(sep)
            labels = [piece.strip() for piece in pieces] if text else []
            if any(not label for label in labels):
                raise InputError(
                    f"empty label in {text!r} (separator {sep!r}); remove the extra separator",
                    path=name, line=line,
                )
            value = frozenset(labels)
            if len(value) != len(labels):
                merged += 1
                first_merged = first_merged or (line, text)
        j = index.get(value)
        if j is None:
            j = index[value] = len(values)
            values.append(value)
        of_field[k] = j
    if first_merged is not None:
        notify("merged", f"a label given twice in one cell is counted once (e.g. "
               f"{first_merged[1]!r}; distinct cells of this kind)", path=name,
               line=first_merged[0], count=merged)
    converted = {v: ts for v, ts in spellings.items()
                 if len(ts) > 1 or ts[0] != _canonical(v)}
    if converted:
        examples = "; ".join(f"{', '.join(repr(t) for t in ts[:3])} read as {v!r}"
                             for v, ts in list(converted.items())[:3])
        notify("converted", f"numbers written in another form read as one value "
               f"({examples})", path=name, count=sum(len(t) for t in converted.values()))
    if words and spellings:
        shown = ", ".join(repr(t) for _, t in words[:3])
        notify("converted", f"fields that are not numbers kept as text labels beside the "
               f"numbers ({shown}); a numeric distance refuses them", path=name,
               line=min(line for line, _ in words), count=len(words))
    return values, of_field, merged


def _check_pairable(tables: dict[Hashable, CodingTable], name: str) -> None:
    """Nothing to compare when no unit of any document was coded by two coders."""
    for table in tables.values():
        if (table.present.sum(axis=0) >= 2).any():
            return
    coders = {c for t in tables.values() for c in t.coders}
    raise InputError(
        f"nothing to compare: no unit was coded by two coders ({len(coders)} coder(s)); "
        "agreement needs the same units coded by at least two coders (check the coder and "
        "unit columns, and the document column if there is one)", path=name)
