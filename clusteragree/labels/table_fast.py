"""The vectorised path of the long-CSV reader, for plain files.

:func:`fast_codings` reads the rows of a codings CSV after its header with pyarrow's CSV
reader and its compute functions (trim, dictionary encoding) instead of Python's csv module
row by row. It takes only plain files, where both readers must split the same way: no quote
character, no NUL, no carriage return other than in CRLF line ends, no blank line, no
whitespace other than spaces and TABs inside lines, every row with the header's number of
fields and a coder, a unit (and with ``scalar`` a value). On anything else it returns None and
the row-by-row reader, which names the line of every error, reads the file. Without pyarrow it
always returns None.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

try:  # optional: without pyarrow every file is read row by row
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pacsv
except ImportError:  # pragma: no cover
    pa = None

__all__ = ["fast_codings"]

# Whitespace other than space, TAB and the line ends: str.strip removes it, pyarrow's trim
# of " \t" would not, so such files take the row-by-row path.
_ODD_SPACE = re.compile(r"[^\S \t\n\r]")


def fast_codings(text: str, columns: int, used: Sequence[int | None], scalar: bool = False
                 ) -> tuple[list[list[str]], dict[str, np.ndarray]] | None:
    """The distinct strings and integer codes of the used columns of a plain codings CSV, or
    None when the row-by-row reader must read it.

    Parameters
    ----------
    text : str
        The whole decoded file; its first line is the header (of ``columns`` fields).
    columns : int
        The number of fields of the header.
    used : sequence of int or None
        The index of the document, coder, unit and value columns (document None when the
        file has none).
    scalar : bool, default=False
        Whether a value is one scalar: then an empty value takes the row-by-row path (which
        refuses it).

    Returns
    -------
    (names, arrays) or None
        ``names``: for the document, coder, unit and value columns, the distinct values
        (stripped of spaces and TABs) in order of first appearance (empty for a missing
        document column). ``arrays``: ``doc``, ``coder``, ``unit``, ``value`` (int32 codes
        into those lists), ``line`` (the line of each row) and ``first`` (the line where each
        distinct value first appears), as the row-by-row reader builds them.

    References
    ----------
    docs/multilabel.md, "Reading"; docs/performance.md.

    Examples
    --------
    >>> names, arrays = fast_codings("coder,unit,labels\\nA,1,x\\nB,1, y \\nA,2,x\\n", 3,
    ...                              [None, 0, 1, 2])
    >>> names
    [[], ['A', 'B'], ['1', '2'], ['x', 'y']]
    >>> arrays["coder"].tolist(), arrays["value"].tolist(), arrays["first"].tolist()
    ([0, 1, 0], [0, 1, 0], [2, 3])
    >>> fast_codings('coder,unit,labels\\nA,1,"x"\\n', 3, [None, 0, 1, 2]) is None
    True
    """
    if pa is None or '"' in text or "\x00" in text:
        return None
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            return None
    if _ODD_SPACE.search(text):
        return None
    cut = text.find("\n")
    if cut < 0:
        return None
    body = text[cut + 1:]
    if not body or body.startswith("\n") or "\n\n" in body:
        return None
    try:
        data = body.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates from a text stream
        return None
    rows = body.count("\n") + (0 if body.endswith("\n") else 1)
    names = [f"c{k}" for k in range(columns)]
    try:
        table = pacsv.read_csv(
            io.BytesIO(data),
            read_options=pacsv.ReadOptions(column_names=names, use_threads=False),
            parse_options=pacsv.ParseOptions(delimiter=",", quote_char=False,
                                             escape_char=False, newlines_in_values=False,
                                             ignore_empty_lines=False),
            convert_options=pacsv.ConvertOptions(
                column_types={c: pa.string() for c in names}, strings_can_be_null=False,
                quoted_strings_can_be_null=False, null_values=[]))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None  # a row with another number of fields, ...
    if table.num_rows != rows:
        return None
    trimmed = [pc.utf8_trim(table.column(c).combine_chunks(), characters=" \t")
               for c in names]
    empty = [pc.equal(pc.utf8_length(t), 0) for t in trimmed]
    blank = empty[0]
    for e in empty[1:]:
        blank = pc.and_(blank, e)
    if pc.any(blank).as_py():
        return None  # a row of empty fields, which the row-by-row reader skips
    _, coder, unit, value = used
    for k in (coder, unit, value) if scalar else (coder, unit):
        if pc.any(empty[k]).as_py():  # type: ignore[index]
            return None
    lines = np.arange(2, rows + 2, dtype=np.int64)
    out_names: list[list[str]] = []
    arrays: dict[str, np.ndarray] = {"line": lines}
    for key, k in zip(("doc", "coder", "unit", "value"), used, strict=True):
        if k is None:
            out_names.append([])
            arrays[key] = np.zeros(rows, dtype=np.int32)
            continue
        encoded: Any = pc.dictionary_encode(trimmed[k])
        codes = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int32)
        out_names.append(encoded.dictionary.to_pylist())
        arrays[key] = codes
        if key == "value":
            _, first = np.unique(codes, return_index=True)
            arrays["first"] = lines[first]
    return out_names, arrays
