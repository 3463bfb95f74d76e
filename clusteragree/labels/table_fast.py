"""The vectorised path of the long-CSV reader, for plain files.

:func:`fast_codings` reads the rows of a codings CSV after its header with pyarrow's CSV
reader and its compute functions (trim, dictionary encoding) instead of Python's csv module
row by row. It takes only plain files, where both readers must split the same way: no quote
character, no NUL, no carriage return other than in CRLF line ends, no blank line, no
whitespace other than spaces and TABs inside lines, every row with the header's number of
fields and a coder, a unit (and with ``scalar`` a value). On anything else it returns None and
the row-by-row reader, which names the line of every error, reads the file. Without pyarrow it
always returns None. pyarrow is imported on the first file read this way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .._lazy import module
from ..inputs import odd_space, plain_string_table, pyarrow_module

if TYPE_CHECKING:
    import pyarrow.compute as pc
else:  # loaded when a file is large enough to be read by columns
    pc = module("pyarrow.compute")

__all__ = ["CHUNK_CHARS", "FAST_MIN_CHARS", "fast_codings", "fast_columns", "names_of"]

#: Files of fewer characters are read row by row when the reader chooses (``fast=None``):
#: loading pyarrow costs more than reading them by columns saves (timed in fresh processes,
#: the row path is quicker at a quarter of this size and slower at twice it).
FAST_MIN_CHARS = 1 << 19
#: Characters of the file parsed at a time by the column path (whole lines).
CHUNK_CHARS = 1 << 22


def fast_codings(text: str, columns: int, used: Sequence[int | None], scalar: bool = False,
                 *, chunk_chars: int | None = None
                 ) -> tuple[list[list[str]], dict[str, np.ndarray]] | None:
    """The distinct strings and integer codes of the used columns of a plain codings CSV, or
    None when the row-by-row reader must read it.

    The rows are parsed ``chunk_chars`` characters (whole lines) at a time, each chunk's
    distinct strings merged into those of the chunks before in order of first appearance, so
    that memory holds the text once, one chunk's columns and the integer codes, never a
    second copy of the file.

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
    chunk_chars : int, optional
        Characters parsed at a time (a chunk ends at the end of a line; default
        :data:`CHUNK_CHARS`).

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

    Chunks of one line each give the same:

    >>> again = fast_codings("coder,unit,labels\\nA,1,x\\nB,1, y \\nA,2,x\\n", 3,
    ...                      [None, 0, 1, 2], chunk_chars=1)
    >>> again[0] == names and all((again[1][k] == arrays[k]).all() for k in arrays)
    True
    >>> fast_codings('coder,unit,labels\\nA,1,"x"\\n', 3, [None, 0, 1, 2]) is None
    True
    """
    got = fast_columns(text, columns, used, scalar, chunk_chars=chunk_chars)
    return None if got is None else (names_of(got[0]), got[1])


def fast_columns(text: str, columns: int, used: Sequence[int | None], scalar: bool = False,
                 *, chunk_chars: int | None = None
                 ) -> tuple[list[Any], dict[str, np.ndarray]] | None:
    """:func:`fast_codings` with the distinct strings of each column still pyarrow arrays
    (None for a missing document column; :func:`names_of` makes the lists), so that a
    caller can let the text go before the strings become Python objects."""
    pa = pyarrow_module()
    chunk_chars = chunk_chars or CHUNK_CHARS
    if pa is None or '"' in text or "\x00" in text or odd_space(text):
        return None
    start = text.find("\n") + 1
    if start == 0 or start == len(text):
        return None
    rows = text.count("\n", start) + (0 if text.endswith("\n") else 1)
    keys = ("doc", "coder", "unit", "value")
    lines = np.arange(2, rows + 2, dtype=np.int32 if rows < 2**31 - 2 else np.int64)
    arrays: dict[str, np.ndarray] = {"line": lines}
    for key in keys:
        arrays[key] = np.zeros(rows, dtype=np.int32)
    known: dict[str, Any] = {}
    firsts: list[np.ndarray] = []
    pool = pa.default_memory_pool()
    done = 0
    while start < len(text):
        end = text.find("\n", min(len(text), start + max(1, chunk_chars)) - 1)
        end = len(text) if end < 0 else end + 1
        got = _chunk(text[start:end], columns, used, scalar)
        pool.release_unused()  # the chunk's columns go back to the system, not to a cache
        start = end
        if got is None:
            return None
        count, chunk_codes = got
        if done + count > rows:
            return None
        for key, codes, dictionary in chunk_codes:
            before = known.get(key)
            if before is None:
                known[key] = dictionary
            else:
                at = pc.index_in(dictionary, value_set=before)
                new = ~_valid(at)
                remap = _int32s(at).copy()
                remap[new] = np.arange(len(before), len(before) + int(new.sum()),
                                       dtype=np.int32)
                known[key] = pa.concat_arrays([before, dictionary.filter(pa.array(new))])
                codes = remap[codes]
            if key == "value":  # the line where each value first appears
                distinct, first = np.unique(codes, return_index=True)
                fresh = distinct >= sum(len(f) for f in firsts)
                firsts.append(arrays["line"][done + first[fresh]])
            arrays[key][done:done + count] = codes
        done += count
    if done != rows:
        return None
    arrays["first"] = np.concatenate(firsts) if firsts else np.zeros(0, dtype=np.int64)
    return [known[key] if k is not None else None for key, k in zip(keys, used, strict=True)
            ], arrays


def names_of(dictionaries: Sequence[Any]) -> list[list[str]]:
    """The distinct strings of :func:`fast_columns` as lists (empty for a missing column)."""
    return [[] if d is None else d.to_pylist() for d in dictionaries]


def _chunk(chunk: str, columns: int, used: Sequence[int | None], scalar: bool
           ) -> tuple[int, list[tuple[str, np.ndarray, Any]]] | None:
    """One chunk of whole lines: its number of rows and, for each used column, the codes
    of its rows into the chunk's distinct strings (a pyarrow array, in order of first
    appearance); None when the chunk is not plain."""
    table = plain_string_table(chunk, columns, ",")
    del chunk
    if table is None:
        return None
    rows = table.num_rows
    names = [f"c{k}" for k in range(columns)]
    trimmed = [pc.utf8_trim(table.column(c).combine_chunks(), characters=" \t")
               for c in names]
    del table
    empty = [_empty(t) for t in trimmed]
    if np.logical_and.reduce(empty).any():
        return None  # a row of empty fields, which the row-by-row reader skips
    _, coder, unit, value = used
    for k in (coder, unit, value) if scalar else (coder, unit):
        if empty[k].any():  # type: ignore[index]
            return None
    del empty
    out = []
    for key, k in zip(("doc", "coder", "unit", "value"), used, strict=True):
        if k is None:
            continue
        encoded: Any = pc.dictionary_encode(trimmed[k])
        codes = _int32s(encoded.indices).copy()
        out.append((key, codes, encoded.dictionary))
    return rows, out


def _int32s(ints: Any) -> np.ndarray:
    """The values of a pyarrow int32 array as a numpy view (no conversion module: pyarrow's
    ``to_numpy`` loads pandas)."""
    return np.frombuffer(ints.buffers()[1], dtype=np.int32, count=len(ints),
                         offset=4 * ints.offset)


def _valid(array: Any) -> np.ndarray:
    """Which entries of a pyarrow array are not null, from its validity bitmap."""
    if array.null_count == 0:
        return np.ones(len(array), dtype=bool)
    bits = np.unpackbits(np.frombuffer(array.buffers()[0], dtype=np.uint8), bitorder="little")
    return bits[array.offset:array.offset + len(array)].astype(bool)


def _empty(strings: Any) -> np.ndarray:
    """Which strings of a pyarrow string array (no nulls) are empty, from its offsets (no
    compute kernel: the first one run costs tens of MB of resident code)."""
    offsets = np.frombuffer(strings.buffers()[1], dtype=np.int32, count=len(strings) + 1,
                            offset=4 * strings.offset)
    return np.diff(offsets) == 0
