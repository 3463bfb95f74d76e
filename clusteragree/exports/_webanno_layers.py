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

from ._webanno_escapes import _suffix, split_unescaped, unescape_value

__all__ = ["Abandon", "SpanLayer"]

_ANY_ID = re.compile(r"\[([0-9]+)\]")


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


def _single(cell: str) -> tuple[str, int | None]:
    """A cell without ``|`` or ``\\`` read as the general path reads one value."""
    if cell[-1:] == "]":
        at = cell.rfind("[")
        if at >= 0:
            digits = cell[at + 1:-1]
            if digits.isdigit() and digits.isascii() and len(digits) < 10:
                return cell[:at], int(digits)
            if "]" not in digits:
                raise Abandon  # not a number: refused
    return cell, None


class _Column:
    """The distinct cells of one column of a layer, each read once: its value (a code into
    the column's distinct values), its id (``-1``: none) and whether it is stacked or
    escaped (then read row by row)."""

    def __init__(self) -> None:
        self.code: dict[str, int] = {"_": 0}
        self.cells: list[str] = ["_"]
        self.dids: list[int] = [-1]
        self.value_code: dict[str | None, int] = {None: 0}  # None: the blank cell
        self.values: list[int] = [0]
        self.stacked: list[bool] = [False]
        self.arrays: tuple[Any, Any, Any] | None = None

    def codes(self, codes: Any, cells: list[str]) -> Any:
        """The codes of a chunk's cells in this column, from their codes in the chunk
        (``codes``, into the chunk's distinct ``cells``)."""
        code = self.code
        lut = np.empty(len(cells), dtype=np.int64)
        for k, cell in enumerate(cells):
            found = code.get(cell)
            if found is None:
                found = code[cell] = len(self.cells)
                self._read(cell)
                self.arrays = None
            lut[k] = found
        return lut[codes]

    def _read(self, cell: str) -> None:
        self.cells.append(cell)
        if "|" in cell or "\\" in cell:
            self.stacked.append(True)
            self.dids.append(-1)
            value = cell
        else:
            value, did = _single(cell)
            self.stacked.append(False)
            self.dids.append(-1 if did is None else did)
        vc = self.value_code.get(value)
        if vc is None:
            vc = self.value_code[value] = len(self.value_code)
        self.values.append(vc)

    def tables(self) -> tuple[Any, Any, Any]:
        """The id, the stacked flag and the value code of each distinct cell."""
        if self.arrays is None:
            self.arrays = (np.asarray(self.dids, dtype=np.int64),
                           np.asarray(self.stacked, dtype=bool),
                           np.asarray(self.values, dtype=np.int64))
        return self.arrays

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

    def add(self, columns: list[tuple[Any, list[str]]], start: int) -> None:
        """The layer's columns of a chunk whose first row is ``start``: each its cells'
        codes and its distinct cells (:meth:`clusteragree.exports._tsv_columns.Lines.codes`)."""
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
        row of each, ``dids``, ``starts``, ``ends``, ``values``: their cells' value codes, rows
        x columns, ``-1`` where not set) and the spans read row by row (a dict each)."""
        if not self.rows:
            return _empty(len(self.columns)), []
        rows = np.concatenate(self.rows)
        codes = np.concatenate(self.codes)
        self.rows, self.codes = [], []
        width = len(self.columns)
        tables = [c.tables() for c in self.columns]
        stacked = np.zeros(len(rows), dtype=bool)
        first_did = np.full(len(rows), -1, dtype=np.int64)
        for j in reversed(range(width)):  # the first busy cell's id
            dids, flags, _ = tables[j]
            stacked |= flags[codes[:, j]]
            first_did = np.where(codes[:, j] != 0, dids[codes[:, j]], first_did)
        pattern = ((codes != 0) * (np.int64(1) << np.arange(width, dtype=np.int64))).sum(axis=1)
        tangled: set[int] = set()
        for j in range(width):
            for cell in np.unique(codes[stacked, j]).tolist():
                tangled.update(int(x) for x in _ANY_ID.findall(self.columns[j].cells[cell]))
        slow = stacked.copy()
        if tangled:
            slow |= np.isin(first_did, np.fromiter(tangled, np.int64, len(tangled)))
        # the rows of an id are one span when they have the same busy columns; else they are
        # read row by row (removing whole ids leaves the others' groups as they were)
        order, starts_at = _groups(first_did, slow)
        if len(order):
            pat = pattern[order]
            same = np.minimum.reduceat(pat, starts_at) == np.maximum.reduceat(pat, starts_at)
            if not same.all():
                slow |= np.isin(first_did, first_did[order][starts_at[~same]])
                order, starts_at = _groups(first_did, slow)
        return self._assemble(rows, codes, first_did, slow, order, starts_at, k, uids, found,
                              lines)

    def _assemble(self, rows: Any, codes: Any, first_did: Any, slow: Any, order: Any,
                  starts_at: Any, k: int, uids: Any, found: tuple[Any, Any], lines: Any
                  ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        begins, ends = found
        fresh = np.flatnonzero(~slow & (first_did < 0))
        if len(order):
            ends_at = np.append(starts_at[1:], len(order))
            g_first = order[starts_at]  # rows are in order: a group's first is its first
            g_last = order[ends_at - 1]
            r = rows[order]
            g_start = np.minimum.reduceat(begins[r], starts_at)
            g_end = np.maximum.reduceat(ends[r], starts_at)
        else:
            g_first = g_last = g_start = g_end = np.zeros(0, dtype=np.int64)
        pick = np.concatenate([fresh, g_first])
        last = np.concatenate([fresh, g_last])
        first_rows = rows[pick]
        fast = {
            "rows": first_rows,
            "dids": first_did[pick],
            "starts": np.concatenate([begins[rows[fresh]], g_start]),
            "ends": np.concatenate([ends[rows[fresh]], g_end]),
            "codes": codes[last],
            "keys": first_rows * k + self.index,
        }
        slow_spans = self._slow(rows[slow], codes[slow], uids, found, lines, k)
        return fast, slow_spans

    def _slow(self, rows: Any, codes: Any, uids: Any, found: tuple[Any, Any], lines: Any,
              k: int) -> list[dict[str, Any]]:
        """The spans of ``rows`` read row by row, as the general path reads them."""
        name, lf = self.name, self.lf
        by_did: dict[int, dict[str, Any]] = {}
        made: list[dict[str, Any]] = []
        cells_of = [c.cells for c in self.columns]
        columns = list(enumerate(self.features))
        for row, row_codes in zip(rows.tolist(), codes.tolist(), strict=True):
            stack: list[dict[str, Any]] = []
            fresh = 0
            for j, feature in columns:
                cell = cells_of[j][row_codes[j]]
                if cell == "_":
                    continue
                if "|" in cell or "\\" in cell:
                    pairs = [value_id(raw) for raw in (
                        cell.split("|") if "\\" not in cell else split_unescaped(cell, "|"))]
                else:
                    value, did = _single(cell)
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
                                "seq": len(made)}
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
        for c in self.columns:
            out.update(d for d in c.dids if d >= 0)
            for cell, stacked in zip(c.cells, c.stacked, strict=True):
                if stacked:
                    out.update(int(x) for x in _ANY_ID.findall(cell))
        return out

    def value_codes(self, codes: Any, j: int) -> Any:
        """The value codes of cells of the column ``j`` given by their codes."""
        return self.columns[j].tables()[2][codes]


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
    return {"rows": z, "dids": z, "starts": z, "ends": z,
            "codes": np.zeros((0, width), dtype=np.int64), "keys": z}
