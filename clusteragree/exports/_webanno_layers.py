"""The span layers of the WebAnno TSV fast path, read as columns.

A :class:`SpanLayer` takes a span layer's cells chunk by chunk (:meth:`SpanLayer.add`) and,
once the whole file is read, gives its spans as columns (:meth:`SpanLayer.spans`), the
spans the general path (:class:`clusteragree.exports.webanno._Reader`) makes, value for
value, in the same order:

* each column's cells are coded (a dictionary of the distinct cells) and each distinct cell is
  read once: its value and disambiguation id ``[N]``, or "stacked" (``|``) or escaped (``\\``);
* a row of single cells defines one span: the id of its first busy cell picks it (a new span
  without id; else the span of that id, started on an earlier row or here), and each busy cell
  sets its feature to its value (``*``: none). The rows of one id are one span, over its rows'
  tokens, with the features of its last row, when every row of the id has the same busy
  columns (the order of the features is then that of the columns);
* anything else (rows with stacked or escaped cells, the ids they name, ids whose rows differ
  in their busy columns) is read row by row, in the order of the rows, as the general path
  reads it.

The fast path gives up (:class:`Abandon`) wherever the general path would notice, repair or
refuse, or where these shortcuts could differ from it (an id in two layers).

References
----------
INCEpTION user guide, "WebAnno TSV 3.3 File format". docs/formats.md, "WebAnno TSV" under
"Performance".
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ..inputs import decode_ranges
from ._tsv_columns import SHORT, Lines
from ._webanno_escapes import _suffix, split_unescaped, unescape_value

__all__ = ["Abandon", "SpanLayer", "cell_bases", "value_of_cell"]

_ANY_ID = re.compile(r"\[([0-9]+)\]")
_PIPE, _BACKSLASH, _OPEN, _CLOSE, _ZERO = 124, 92, 91, 93, 48


class Abandon(Exception):
    """The file leaves the shape of the fast path: the general path reads it."""


def _did(raw: str) -> int:
    if not raw.isdigit() or not raw.isascii() or len(raw) > 9:
        raise Abandon  # the general path refuses it
    return int(raw)


def value_id(raw: str) -> tuple[str, int | None]:
    """``V[N]`` as ``(V, N)``, as the general path reads a value of a stacked cell."""
    if raw[-1:] != "]":
        return raw, None
    if "\\" in raw:
        value, suffix = _suffix(raw)
        return value, None if suffix is None else _did(suffix)
    at = raw.rfind("[")
    if at < 0 or "]" in raw[at + 1:-1]:
        return raw, None
    return raw[:at], _did(raw[at + 1:-1])


def value_of_cell(cell: str) -> tuple[str, int | None]:
    """A cell without ``|`` or ``\\`` read as the general path reads one value: ``V[N]`` as
    ``(V, N)``, a cell without an id as ``(cell, None)``; brackets that hold no number (and
    no ``]``) make the reading give up (the general path refuses them)."""
    if cell[-1:] == "]":
        at = cell.rfind("[")
        if at >= 0:
            digits = cell[at + 1:-1]
            if digits.isdigit() and digits.isascii() and len(digits) < 10:
                return cell[:at], int(digits)
            if "]" not in digits:
                raise Abandon  # not a number: refused
    return cell, None


#: A cell's code: the code of its value as written before its id (its base) shifted by this,
#: plus its id + 1 (0: none). The blank cell ``_`` is 0.
_SHIFT = 31
_ID_MASK = (1 << _SHIFT) - 1


def cell_bases(lines: Lines, j: int) -> tuple[Any, Any, list[str]]:
    """Column ``j`` of token lines read as WebAnno writes a value and its disambiguation id,
    ``V[N]``: each cell's base (the cell without its id) as a code into the distinct bases
    (decoded), and its id (``-1``: none), as :func:`value_of_cell` reads one cell. A cell with
    ``|`` or ``\\`` (stacked or escaped) is all base; brackets that hold no number of one to
    nine ASCII digits are kept when they hold a ``]``, and make the reading give up otherwise
    (the general path refuses them). The cells of 16 bytes or fewer are read from the bytes
    of the whole column, the others one by one.

    Examples
    --------
    >>> lines = Lines.of(b"1-1\\t0-1\\ta\\tPER[12]\\t\\n1-2\\t2-3\\tb\\tA|B[3]\\t\\n", 4)
    >>> codes, dids, bases = cell_bases(lines, 3)
    >>> [bases[c] for c in codes.tolist()], dids.tolist()
    (['PER', 'A|B[3]'], [12, -1])
    """
    n = lines.n
    m, lengths = lines.matrix(j)
    dids = np.full(n, -1, dtype=np.int64)
    codes = np.empty(n, dtype=np.int64)
    bases: list[str] = []
    short = np.flatnonzero(lengths <= SHORT)
    if len(short):
        m, size_all = m[short], lengths[short]
        pos = np.arange(SHORT)
        last = m[np.arange(len(short)), np.maximum(size_all - 1, 0)]
        size_base = size_all.copy()
        # the cells that end in ] and hold no | or \\: perhaps V[N]
        maybe = np.flatnonzero((size_all > 0) & (last == _CLOSE))
        if len(maybe):
            c, size = m[maybe], size_all[maybe]
            plain = ~((c == _PIPE) | (c == _BACKSLASH)).any(axis=1)
            c, size, maybe = c[plain], size[plain], maybe[plain]
            opens = (c == _OPEN) & (pos < (size - 1)[:, None])
            has_open = opens.any(axis=1)
            at = SHORT - 1 - opens[:, ::-1].argmax(axis=1)  # the last [
            inside = (pos > at[:, None]) & (pos < (size - 1)[:, None])
            digits = size - 2 - at
            digit = (c - np.uint8(_ZERO)) <= 9
            split = has_open & (digits >= 1) & (digits <= 9) & \
                ((digit & inside).sum(axis=1) == digits)
            if bool((has_open & ~split & ~((c == _CLOSE) & inside).any(axis=1)).any()):
                raise Abandon  # brackets that hold no number: the general path refuses them
            number = np.zeros(len(c), dtype=np.int64)
            for k in range(1, SHORT):  # the digits after the [, left to right
                number = np.where(inside[:, k],
                                  number * 10 + (c[:, k].astype(np.int64) - _ZERO), number)
            dids[short[maybe[split]]] = number[split]
            size_base[maybe[split]] = at[split]
        found = lines.prefix_codes(j, short, size_base)
        if found is None:
            raise Abandon  # two bases share a key (never seen): the general path
        codes[short], first = found
        start = lines.starts[first, j]
        bases = decode_ranges(lines.buf, start, start + size_base[np.searchsorted(short,
                                                                                    first)])
    long_rows = np.flatnonzero(lengths > SHORT)
    if len(long_rows):
        lut = {b: k for k, b in enumerate(bases)}
        for row, cell in zip(long_rows.tolist(), lines.cells(j, long_rows), strict=True):
            base, did = (cell, None) if "|" in cell or "\\" in cell else value_of_cell(cell)
            code = lut.get(base)
            if code is None:
                code = lut[base] = len(bases)
                bases.append(base)
            codes[row] = code
            dids[row] = -1 if did is None else did
    return codes, dids, bases


class _Column:
    """The cells of one column of a layer, as codes: a cell is its base (the cell without its
    id ``[N]``, a code into the column's distinct bases) and its id. Each distinct base is read
    once: its value (a code into the column's distinct values) and whether it is stacked or
    escaped (then read row by row, never split from an id)."""

    def __init__(self) -> None:
        self.code: dict[str, int] = {"_": 0}
        self.bases: list[str] = ["_"]
        self.value_code: dict[str | None, int] = {None: 0}  # None: the blank cell
        self.values: list[int] = [0]
        self.stacked: list[bool] = [False]
        self.arrays: tuple[Any, Any] | None = None
        self.split: dict[int, list[int] | None] = {}

    def codes(self, bases: Any, dids: Any, distinct: list[str]) -> Any:
        """The codes of a chunk's cells in this column, from their bases' codes in the chunk
        (``bases``, into the chunk's ``distinct`` bases) and their ids (``-1``: none)."""
        lut = np.fromiter(map(self.base, distinct), np.int64, len(distinct))
        return (lut[bases] << _SHIFT) | (dids + 1)

    def base(self, text: str) -> int:
        """The code of a base, read once."""
        found = self.code.get(text)
        if found is None:
            found = self.code[text] = len(self.bases)
            self.bases.append(text)
            self.stacked.append("|" in text or "\\" in text)
            vc = self.value_code.get(text)
            if vc is None:
                vc = self.value_code[text] = len(self.value_code)
            self.values.append(vc)
            self.arrays = None
        return found

    def cell(self, code: int) -> str:
        """A cell as written (its id in its shortest form)."""
        base, did = self.bases[code >> _SHIFT], (code & _ID_MASK) - 1
        return base if did < 0 else f"{base}[{did}]"

    def _tables(self) -> tuple[Any, Any]:
        if self.arrays is None:
            self.arrays = (np.asarray(self.stacked, dtype=bool),
                           np.asarray(self.values, dtype=np.int64))
        return self.arrays

    def stacked_of(self, codes: Any) -> Any:
        """Whether each cell is stacked or escaped."""
        return self._tables()[0][codes >> _SHIFT]

    def value_codes(self, codes: Any) -> Any:
        """The value code of each cell (0: the blank cell)."""
        return np.where(codes == 0, 0, self._tables()[1][codes >> _SHIFT])

    @staticmethod
    def dids(codes: Any) -> Any:
        """The id of each cell (``-1``: none)."""
        return (codes & _ID_MASK) - 1

    def parts(self, code: int) -> list[int] | None:
        """The codes of the values of a stacked cell (``A[1]|B[2]``), each read as a cell of
        its own; None for a cell with an escape or a blank (``_``) value."""
        base = code >> _SHIFT
        found = self.split.get(base)
        if found is None and base not in self.split:
            cell = self.bases[base]
            values = cell.split("|")
            if "\\" in cell or "_" in values:
                found = None
            else:
                found = []
                for value in values:
                    text, did = value_of_cell(value)
                    found.append((self.base(text) << _SHIFT) | (0 if did is None else did + 1))
            self.split[base] = found
        return found

    def split_table(self, codes: Any) -> tuple[Any, Any]:
        """For cells given by their codes: the number of values of each (1 for a single cell,
        0 for the blank, -1 for a stacked cell not to be split: :meth:`parts`), and the codes
        of its values (a row each, padded with 0; a single cell is its own value)."""
        stacked = self.stacked_of(codes)
        distinct, inverse = np.unique(codes[stacked], return_inverse=True)
        split = [self.parts(c) for c in distinct.tolist()]
        width = max((len(p) for p in split if p is not None), default=1)
        d_count = np.asarray([-1 if p is None else len(p) for p in split], dtype=np.int64)
        d_values = np.zeros((len(split), width), dtype=np.int64)
        for k, parts in enumerate(split):
            if parts is not None:
                d_values[k, :len(parts)] = parts
        count = np.where(codes == 0, 0, 1)
        values = np.zeros((len(codes), width), dtype=np.int64)
        values[:, 0] = codes
        at = np.flatnonzero(stacked)
        inverse = np.asarray(inverse).reshape(-1)
        count[at] = d_count[inverse]
        values[at] = d_values[inverse]
        return count, values

    def distinct_values(self) -> list[str | None]:
        """The distinct values, by their codes (the code 0, None, is the blank ``_``)."""
        return list(self.value_code)


class SpanLayer:
    """One span layer of primitive (or placeholder) columns, read chunk by chunk.

    Parameters
    ----------
    index : int
        The layer's place among the file's layers.
    name : str
        The layer's name (the prefix of its spans' ids).
    features : list of str or None
        The feature of each column (None: a placeholder column).
    label_feature : str or None
        The feature whose value is the span's label.
    """

    def __init__(self, index: int, name: str, features: list[str | None],
                 label_feature: str | None) -> None:
        named = [f for f in features if f is not None]
        if len(set(named)) != len(named) or len(features) > 60:
            raise Abandon
        self.index, self.name, self.features, self.lf = index, name, features, label_feature
        self.columns = [_Column() for _ in features]
        self.rows: list[Any] = []  # busy rows (global), a chunk each
        self.codes: list[Any] = []  # their cells' codes, rows x columns

    def add(self, columns: list[tuple[Any, Any, list[str]]], start: int) -> None:
        """The layer's columns of a chunk whose first row is ``start``: each its cells' bases
        as codes, their ids and the distinct bases
        (:func:`cell_bases`)."""
        codes = np.stack([c.codes(*col) for c, col in zip(self.columns, columns, strict=True)],
                         axis=1)
        busy = np.flatnonzero((codes != 0).any(axis=1))
        if len(busy):
            self.rows.append(busy + start)
            self.codes.append(codes[busy])

    # -- the spans, once every chunk is read ------------------------------------------------

    def spans(self, k: int, uids: Any, found: tuple[Any, Any], lines: Any
              ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The layer's spans: ``(fast, slow)``, the spans read as columns (``rows`` the first
        row of each, ``seq`` its place among the spans its row starts, ``dids``, ``fresh``
        (the number of spans without id the row has started so far), ``starts``, ``ends``,
        ``codes``: the codes of the cells that set its features, ``keys``) and the spans read
        row by row (a dict each)."""
        if not self.rows:
            return _empty(len(self.columns)), []
        rows = np.concatenate(self.rows)
        codes = np.concatenate(self.codes)
        self.rows, self.codes = [], []
        width = len(self.columns)
        real, nth, vcodes, irregular = self._explode(codes)
        vrows = rows[real]
        first_did = np.full(len(vrows), -1, dtype=np.int64)
        for j in reversed(range(width)):  # the first busy cell's id
            first_did = np.where(vcodes[:, j] != 0, _Column.dids(vcodes[:, j]), first_did)
        pattern = ((vcodes != 0) * (np.int64(1) << np.arange(width, dtype=np.int64))).sum(
            axis=1)
        tangled: set[int] = set()
        for j in range(width):
            for cell in np.unique(vcodes[irregular, j]).tolist():
                tangled.update(int(x) for x in _ANY_ID.findall(self.columns[j].cell(cell)))
        slow = irregular.copy()
        if tangled:
            slow |= np.isin(first_did, np.fromiter(tangled, np.int64, len(tangled)))
        # a row is read one way, whole; the rows of an id are one span when they all are read
        # as columns and have the same busy columns; else they are read row by row
        while True:
            before = int(slow.sum())
            slow |= np.isin(real, real[slow])
            slow |= np.isin(first_did, first_did[slow & (first_did >= 0)])
            order, starts_at = _groups(first_did, slow)
            if len(order):
                pat = pattern[order]
                same = np.minimum.reduceat(pat, starts_at) == np.maximum.reduceat(pat,
                                                                                   starts_at)
                slow |= np.isin(first_did, first_did[order][starts_at[~same]])
            if int(slow.sum()) == before:
                break
        begins, ends = found
        fresh = np.flatnonzero(~slow & (first_did < 0))
        if len(order):
            ends_at = np.append(starts_at[1:], len(order))
            g_first, g_last = order[starts_at], order[ends_at - 1]  # in (row, n) order
            r = vrows[order]
            g_start = np.minimum.reduceat(begins[r], starts_at)
            g_end = np.maximum.reduceat(ends[r], starts_at)
        else:
            g_first = g_last = g_start = g_end = np.zeros(0, dtype=np.int64)
        fresh_rows = vrows[fresh]
        count = np.ones(len(fresh), dtype=np.int64)  # spans without id a row has started
        if len(fresh) > 1:
            same_row = np.append(False, fresh_rows[1:] == fresh_rows[:-1])
            run = np.cumsum(~same_row)
            count = np.arange(len(fresh)) - np.flatnonzero(~same_row)[run - 1] + 1
        pick = np.concatenate([fresh, g_first])
        first_rows = vrows[pick]
        fast = {
            "rows": first_rows,
            "seq": nth[pick],
            "dids": first_did[pick],
            "fresh": np.concatenate([count, np.ones(len(g_first), dtype=np.int64)]),
            "starts": np.concatenate([begins[fresh_rows], g_start]),
            "ends": np.concatenate([ends[fresh_rows], g_end]),
            "codes": vcodes[np.concatenate([fresh, g_last])],
            "keys": first_rows * k + self.index,
        }
        at = np.unique(real[slow])
        return fast, self._slow(rows[at], codes[at], uids, found, lines, k)

    def _explode(self, codes: Any) -> tuple[Any, Any, Any, Any]:
        """The rows as rows of single cells: a row whose busy cells are each ``m`` values
        stacked (``A|B``) is ``m`` rows, the ``n``-th of each cell's values on the ``n``-th
        (the general path gives the ``n``-th value of each cell to the ``n``-th span of the
        row); any other row with a stacked or escaped cell is kept whole and marked
        irregular. Gives ``(row, n, codes, irregular)``, a value each, in order of ``(row,
        n)``."""
        n = len(codes)
        stacked = np.zeros(n, dtype=bool)
        for j, column in enumerate(self.columns):
            stacked |= column.stacked_of(codes[:, j])
        if not stacked.any():
            return (np.arange(n), np.zeros(n, dtype=np.int64), codes, np.zeros(n, dtype=bool))
        width = len(self.columns)
        rows = np.flatnonzero(stacked)
        sub = codes[rows]
        # each busy cell's number of values (0: blank; -1: not to be split) and the codes of
        # its values, a table of each column's distinct cells
        counts = np.zeros(sub.shape, dtype=np.int64)
        tables = []
        for j, column in enumerate(self.columns):
            count, values = column.split_table(sub[:, j])
            tables.append(values)
            counts[:, j] = count
        busy = counts != 0
        most = counts.max(axis=1)
        regular = ~(counts < 0).any(axis=1) & ((counts == most[:, None]) | ~busy).all(axis=1)
        odd = rows[~regular]
        rows, sub, most = rows[regular], sub[regular], most[regular]
        extra_real = np.repeat(rows, most)
        local = np.repeat(np.arange(len(rows)), most)
        extra_nth = np.arange(len(extra_real)) - np.repeat(np.cumsum(most) - most, most)
        extra_codes = np.zeros((len(extra_real), width), dtype=np.int64)
        for j in range(width):
            values = tables[j][regular]
            extra_codes[:, j] = values[local, np.minimum(extra_nth, values.shape[1] - 1)]
        keep = np.flatnonzero(~stacked)
        real = np.concatenate([keep, odd, extra_real])
        nth = np.concatenate([np.zeros(len(keep) + len(odd), dtype=np.int64), extra_nth])
        vcodes = np.concatenate([codes[keep], codes[odd], extra_codes])
        irregular = np.zeros(len(real), dtype=bool)
        irregular[len(keep):len(keep) + len(odd)] = True
        order = np.lexsort((nth, real))
        return real[order], nth[order], vcodes[order], irregular[order]

    def _slow(self, rows: Any, codes: Any, uids: Any, found: tuple[Any, Any], lines: Any,
              k: int) -> list[dict[str, Any]]:
        """The spans of ``rows`` read row by row, as the general path reads them."""
        name, lf = self.name, self.lf
        by_did: dict[int, dict[str, Any]] = {}
        made: list[dict[str, Any]] = []
        readers = self.columns
        columns = list(enumerate(self.features))
        for row, row_codes in zip(rows.tolist(), codes.tolist(), strict=True):
            stack: list[dict[str, Any]] = []
            fresh = 0
            for j, feature in columns:
                cell = readers[j].cell(row_codes[j])
                if cell == "_":
                    continue
                if "|" in cell or "\\" in cell:
                    pairs = [value_id(raw) for raw in (
                        cell.split("|") if "\\" not in cell else split_unescaped(cell, "|"))]
                else:
                    value, did = value_of_cell(cell)
                    if stack:
                        if feature is not None:
                            stack[0]["features"][feature] = None if value == "*" else value
                        continue
                    pairs = [(value, did)]
                for n, (value, did) in enumerate(pairs):
                    if n < len(stack):
                        span = stack[n]
                    elif did is not None and did in by_did:
                        span = by_did[did]
                        if span["units"][-1] != row:
                            span["units"].append(row)
                        stack.append(span)
                    else:
                        uid = f"{name}:{uids(row)}"
                        if did is None:
                            fresh += 1
                            uid += "" if fresh == 1 else f"#{fresh}"
                        else:
                            uid += f"[{did}]"
                        span = {"id": uid, "units": [row], "line": int(lines[row]),
                                "features": {}, "key": row * k + self.index,
                                "seq": len(stack)}
                        made.append(span)
                        if did is not None:
                            by_did[did] = span
                        stack.append(span)
                    if feature is not None:
                        span["features"][feature] = None if value == "*" else \
                            unescape_value(value)
        if made:
            rows_used = sorted({u for span in made for u in span["units"]})
            at = np.asarray(rows_used, dtype=np.int64)
            b = dict(zip(rows_used, found[0][at].tolist(), strict=True))
            e = dict(zip(rows_used, found[1][at].tolist(), strict=True))
        for span in made:
            units = span.pop("units")
            span["start"] = min(b[u] for u in units)
            span["end"] = max(e[u] for u in units)
            features = span.pop("features")
            span["label"] = features.get(lf) if lf else None
            span["features"] = tuple((f, v) for f, v in features.items()
                                     if f != lf and v is not None)
        return made

    def dids(self) -> set[int]:
        """Every id its cells name (an id in two layers makes the fast path give up)."""
        out: set[int] = set()
        for codes in self.codes:
            found = _Column.dids(codes)
            out.update(np.unique(found[found >= 0]).tolist())
        for c in self.columns:
            for base, stacked in zip(c.bases, c.stacked, strict=True):
                if stacked:
                    out.update(int(x) for x in _ANY_ID.findall(base))
        return out

    def value_codes(self, codes: Any, j: int) -> Any:
        """The value codes of cells of the column ``j`` given by their codes."""
        return self.columns[j].value_codes(codes)


def _groups(first_did: Any, slow: Any) -> tuple[Any, Any]:
    """The rows read as columns that have an id, grouped by it (stable: in row order), and
    where each group starts."""
    with_id = np.flatnonzero(~slow & (first_did >= 0))
    order = with_id[np.argsort(first_did[with_id], kind="stable")]
    did_sorted = first_did[order]
    new = np.ones(len(order), dtype=bool)
    new[1:] = did_sorted[1:] != did_sorted[:-1]
    return order, np.flatnonzero(new)


def _empty(width: int) -> dict[str, Any]:
    z = np.zeros(0, dtype=np.int64)
    return {"rows": z, "seq": z, "dids": z, "fresh": z, "starts": z, "ends": z,
            "codes": np.zeros((0, width), dtype=np.int64), "keys": z}
