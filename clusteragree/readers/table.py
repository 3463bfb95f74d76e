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

import csv
import io
import os
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import IO, Any

from ..errors import InputError
from ..model import CodingTable

__all__ = ["LongTable", "read_long_table"]

VALUE_COLUMNS = ("labels", "value", "label")


@dataclass(frozen=True)
class LongTable:
    """Coding tables read from a long CSV file, one per document (``None`` if no column)."""

    tables: dict[Hashable, CodingTable]
    rows: int
    repairs: dict[str, int] = field(default_factory=dict)
    path: str = "<input>"


def _open_text(source: str | os.PathLike[str] | IO[str], path: str) -> IO[str]:
    if not isinstance(source, (str, os.PathLike)):
        return source
    try:
        raw = open(source, "rb").read()  # noqa: SIM115 - closed by the read
    except OSError as err:
        raise InputError(f"cannot open: {err.strerror}", path=path) from None
    try:
        return io.StringIO(raw.decode("utf-8-sig"), newline="")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        raise InputError(
            f"byte {err.start} is not UTF-8 (0x{raw[err.start]:02x}); save the file as UTF-8",
            path=path, line=line,
        ) from None


def _number(text: str) -> int | float | None:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return None


def read_long_table(
    source: str | os.PathLike[str] | IO[str],
    *,
    sep: str = ";",
    scalar: bool = False,
    numeric: bool = False,
    path: str | None = None,
) -> LongTable:
    """Read a long CSV of codings.

    Parameters
    ----------
    source : path or text stream
    sep : str, default=";"
        Separator between the labels of a set.
    scalar : bool, default=False
        Read one value per field instead of a set.
    numeric : bool, default=False
        With ``scalar``: every value must be a number.
    path : str, optional
        Name used in messages (defaults to ``source`` when it is a path).

    Raises
    ------
    InputError
        With the file and line: empty file, missing columns, wrong number of fields, empty
        coder or unit, a coder coding a unit twice, an empty label between separators,
        an empty or non-numeric scalar value.
    """
    if not sep:
        raise InputError("the label separator must not be empty")
    name = path or (os.fspath(source) if isinstance(source, (str, os.PathLike)) else "<input>")
    reader = csv.reader(_open_text(source, name))
    header = next(reader, None)
    if header is None:
        raise InputError("empty file; expected a header coder,unit,labels", path=name, line=1)
    columns = [h.strip().lower() for h in header]
    value_col = next((c for c in VALUE_COLUMNS if c in columns), None)
    if "coder" not in columns or "unit" not in columns or value_col is None:
        raise InputError(
            f"the header has the columns {header}; expected coder, unit and labels "
            "(and optionally document)", path=name, line=reader.line_num,
        )
    ic, iu, iv = columns.index("coder"), columns.index("unit"), columns.index(value_col)
    idoc = columns.index("document") if "document" in columns else None
    records: dict[Hashable, list[tuple[str, str, Any]]] = {}
    seen: dict[tuple[Hashable, str, str], int] = {}
    duplicated_labels = 0
    rows = 0
    for fields in reader:
        line = reader.line_num
        if not fields or all(not f.strip() for f in fields):
            continue
        if len(fields) != len(header):
            raise InputError(
                f"{len(fields)} fields, expected {len(header)} as in the header; quote a field "
                "that contains a comma", path=name, line=line,
            )
        coder, unit, text = fields[ic].strip(), fields[iu].strip(), fields[iv].strip()
        doc = fields[idoc].strip() if idoc is not None else None
        for what, val in (("coder", coder), ("unit", unit)):
            if not val:
                raise InputError(f"empty {what}", path=name, line=line)
        key = (doc, coder, unit)
        if key in seen:
            raise InputError(
                f"coder {coder!r} coded unit {unit!r} twice (first at line {seen[key]}); keep "
                "one row per coder and unit", path=name, line=line,
            )
        seen[key] = line
        value: Any
        if scalar:
            if not text:
                raise InputError(
                    "empty value; leave the row out for a missing value", path=name, line=line
                )
            number = _number(text)
            if numeric and number is None:
                raise InputError(f"value {text!r} is not a number", path=name, line=line)
            value = text if number is None else number
        else:
            labels = [piece.strip() for piece in text.split(sep)] if text else []
            if any(not label for label in labels):
                raise InputError(
                    f"empty label in {text!r} (separator {sep!r}); remove the extra separator",
                    path=name, line=line,
                )
            value = frozenset(labels)
            duplicated_labels += len(labels) != len(value)
        records.setdefault(doc, []).append((coder, unit, value))
        rows += 1
    if rows == 0:
        raise InputError("no codings after the header", path=name, line=reader.line_num)
    tables = {doc: CodingTable.from_records(recs, source=name) for doc, recs in records.items()}
    repairs = {"cells with a label given twice (counted once)": duplicated_labels}
    return LongTable(tables, rows, {k: v for k, v in repairs.items() if v}, name)
