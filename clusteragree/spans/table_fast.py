"""The column path of the span-table readers, for plain files.

:func:`plain_columns` reads the rows of a span table (after its header) or of a
pygamma-agreement CSV with pyarrow's CSV reader and compute functions (trim, a regular
expression over the offsets, a cast to floats) instead of Python's csv module row by row. It
takes only plain files, which both ways split alike and the row-by-row reader accepts as
they are: no quote character, no NUL, no carriage return other than in CRLF line ends, no
blank line, no whitespace other than spaces and TABs inside lines, no byte-order mark
starting a row, every row with the header's number of fields, a non-empty annotator,
document and label (category), and offsets that :func:`~clusteragree.inputs.parse_float`
reads as finite numbers. On anything else it returns None and the row-by-row reader, which
names the line of every error, reads the file. Without pyarrow it always returns None.

References
----------
docs/spans.md, "Reading spans"; docs/validate.md, "Speed".

Examples
--------
>>> got = plain_columns("A,x,1, 2.5\\nB,y,0,3\\n", 1, 4, ",", names=(0, 1), offsets=(2, 3))
>>> columns, lines = got
>>> columns[0].to_pylist(), columns[3].tolist(), lines.tolist()
(['A', 'B'], [2.5, 3.0], [1, 2])
>>> plain_columns('A,"x",1,2\\n', 1, 4, ",", names=(0, 1), offsets=(2, 3)) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import module
from ..inputs import odd_space, plain_string_table, pyarrow_module

if TYPE_CHECKING:
    import pyarrow.compute as pc
else:  # loaded when a table is read by columns
    pc = module("pyarrow.compute")

__all__ = ["plain_columns"]

#: What :func:`~clusteragree.inputs.parse_float` reads (after stripping spaces), anchored.
_NUMBER = r"^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$"


def plain_columns(text: str, first_line: int, width: int, sep: str, *,
                  names: Sequence[int], offsets: Sequence[int]
                  ) -> tuple[dict[int, Any], np.ndarray] | None:
    """The columns of the rows of a plain table, or None when the row-by-row reader must
    read it.

    Parameters
    ----------
    text : str
        The rows (the text of the file after its header's line), the first on line
        ``first_line``.
    first_line : int
        The line of the first row in the file.
    width : int
        The number of fields of a row.
    sep : str
        The separator of fields (one character).
    names : sequence of int
        The columns that must not be empty (annotator, document, label): given stripped of
        spaces and TABs, as the row-by-row reader strips them.
    offsets : sequence of int
        The columns of numbers (start, end).

    Returns
    -------
    (columns, lines) or None
        ``columns``: column index -> a pyarrow string array (the names stripped, the other
        columns as written) or, for an offset, a numpy array of floats. ``lines``: the line
        of each row (int64).
    """
    pa = pyarrow_module()
    if pa is None or not text or '"' in text or "\x00" in text or odd_space(text):
        return None
    table = plain_string_table(text, width, sep)
    if table is None:
        return None
    rows = table.num_rows
    columns: dict[int, Any] = {}
    try:
        for k in range(width):
            column = table.column(k).combine_chunks()
            if k in names or k in offsets:
                column = pc.utf8_trim(column, characters=" \t")
            if k in names and _empty(column).any():
                return None
            if k in offsets:
                column = _numbers(column)
                if column is None:
                    return None
            columns[k] = column
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):  # pragma: no cover
        return None  # a column of more than 2 GB, ...
    return columns, np.arange(first_line, first_line + rows, dtype=np.int64)


def _numbers(strings: Any) -> np.ndarray | None:
    """The numbers of a pyarrow string array (stripped) as
    :func:`~clusteragree.inputs.parse_float` reads them, or None when one is not a finite
    number it reads. Whole numbers of ASCII digits are cast as integers (exactly, or not at
    all: then as the others), the others matched against :data:`_NUMBER` then cast."""
    pa = pyarrow_module()
    if pc.all(pc.ascii_is_decimal(strings)).as_py():
        try:  # at most 18 digits and 2**53: exact as int64, then as float
            return np.asarray(pc.cast(pc.cast(strings, pa.int64()), pa.float64()).to_numpy(
                zero_copy_only=False), dtype=float)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            pass
    if not pc.all(pc.match_substring_regex(strings, _NUMBER)).as_py():
        return None
    values = np.asarray(pc.cast(strings, pa.float64()).to_numpy(zero_copy_only=False),
                        dtype=float)
    return values if np.isfinite(values).all() else None


def _empty(strings: Any) -> np.ndarray:
    """Which strings of a pyarrow string array (no nulls) are empty, from its offsets."""
    offsets = np.frombuffer(strings.buffers()[1], dtype=np.int32, count=len(strings) + 1,
                            offset=4 * strings.offset)
    return np.diff(offsets) == 0
