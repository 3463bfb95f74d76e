"""Tab-separated lines read as columns of bytes, with numpy: the fields' bounds, numbers of
the form ``A-B``, the cells of a column coded by their distinct values, and covered texts
compared with a text, without a Python object a field (on the input layer's byte columns:
:func:`~clusteragree.inputs.tab_columns`, :func:`~clusteragree.inputs.ascii_naturals`,
:func:`~clusteragree.inputs.decode_ranges`).

Used by the WebAnno TSV fast path (:mod:`clusteragree.exports._webanno_fast`) on the token
lines of a file, a chunk at a time. Every function either gives exactly what reading the
lines field by field would give, or None (the caller then reads otherwise).

References
----------
docs/formats.md, "WebAnno TSV" under "Performance".
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..inputs import ascii_naturals, decode_ranges, tab_columns
from ._webanno_layers import Abandon, value_of_cell

__all__ = ["Lines", "covered_match", "text_bytes"]

_TAB, _NL, _DASH, _ZERO = 9, 10, 45, 48
_PIPE, _BACKSLASH, _OPEN, _CLOSE = 124, 92, 91, 93
#: Cells up to this many bytes are coded by their bytes with numpy; longer ones one by one.
_SHORT = 16
_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xC2B2AE3D27D4EB4F)


class Lines:
    """The lines of ``raw`` (each ending in a line feed), split at tabs into ``width``
    fields each, or ``width + 1`` with an empty last one (a final tab).

    Examples
    --------
    >>> lines = Lines.of(b"1-1\\t0-2\\tab\\tX\\t\\n1-2\\t3-4\\tc\\t_\\t\\n", 4)
    >>> lines.pairs(0, 9)[0].tolist(), lines.pairs(1, 12)[1].tolist()
    ([1, 1], [2, 4])
    >>> codes, cells = lines.codes(3)
    >>> [cells[c] for c in codes.tolist()]
    ['X', '_']
    """

    def __init__(self, raw: bytes, buf: Any, starts: Any, ends: Any) -> None:
        self.raw, self.buf, self.starts, self.ends = raw, buf, starts, ends
        self.n = starts.shape[0]
        self.windows: Any = None

    @classmethod
    def of(cls, raw: bytes, width: int) -> Lines | None:
        """The fields of ``raw``; None when a line has another number of fields (or the
        lines differ in having a final tab), or a final field is not empty."""
        buf = np.frombuffer(raw, dtype=np.uint8)
        ends = np.flatnonzero(buf == _NL)
        if not len(ends) or ends[-1] != len(buf) - 1:
            return None
        line_starts = np.concatenate([[0], ends[:-1] + 1])
        tabs = int(np.count_nonzero(buf == _TAB))
        count = width + 1 if tabs == len(ends) * width else width
        columns = tab_columns(buf, line_starts, ends, count, range(count))
        if columns is None:
            return None
        if count > width and bool((columns[-1][1] != columns[-1][0]).any()):
            return None  # a field past the declared ones
        field_starts = np.stack([c[0] for c in columns[:width]], axis=1).astype(np.int64)
        field_ends = np.stack([c[1] for c in columns[:width]], axis=1).astype(np.int64)
        return cls(raw, buf, field_starts, field_ends)

    def _matrix(self, j: int, size: int) -> tuple[Any, Any]:
        """The bytes of the fields of column ``j``, up to ``size`` (bytes), padded with 0, and
        their lengths."""
        s, e = self.starts[:, j], self.ends[:, j]
        lengths = e - s
        if self.windows is None or self.windows.shape[1] < size:
            padded = np.concatenate([self.buf, np.zeros(max(size, 32), dtype=np.uint8)])
            self.windows = np.lib.stride_tricks.sliding_window_view(padded, max(size, 32))
        m = self.windows[s, :size]
        return m * (np.arange(size, dtype=np.int64) < lengths[:, None]), lengths

    def pairs(self, j: int, digits: int) -> tuple[Any, Any] | None:
        """The numbers of column ``j`` written ``A-B`` (1 to ``digits`` ASCII digits each, no
        leading zero but for ``0`` itself), or None if any field is written otherwise."""
        s, e = self.starts[:, j], self.ends[:, j]
        if not self.n:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        dashes = np.flatnonzero(self.buf[int(s.min()):int(e.max())] == _DASH) + int(s.min())
        first = np.searchsorted(dashes, s)
        if not bool((np.searchsorted(dashes, e) - first == 1).all()):
            return None  # not one dash in each field
        dash = dashes[first]
        a, a_ok = ascii_naturals(self.buf, s, dash)
        b, b_ok = ascii_naturals(self.buf, dash + 1, e)
        size_a, size_b = dash - s, e - dash - 1
        if not (bool(a_ok.all()) and bool(b_ok.all()) and int(size_a.max()) <= digits and
                int(size_b.max()) <= digits):
            return None
        zero_a = (self.buf[s] == _ZERO) & (size_a > 1)
        zero_b = (self.buf[dash + 1] == _ZERO) & (size_b > 1)
        if bool((zero_a | zero_b).any()):
            return None  # a leading zero: the ids are remade from the numbers
        return a, b

    def codes(self, j: int) -> tuple[Any, list[str]]:
        """Column ``j`` coded: a code a line, and the distinct cells (decoded) by code."""
        lengths = self.ends[:, j] - self.starts[:, j]
        short = lengths <= _SHORT
        codes = np.empty(self.n, dtype=np.int64)
        cells: list[str] = []
        if bool(short.any()):
            m, _ = self._matrix(j, _SHORT)
            words = np.ascontiguousarray(m[short], dtype=np.uint8).view(np.uint64)
            key = words[:, 0] * _M1 + words[:, 1] * _M2 + lengths[short].astype(np.uint64)
            _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
            inverse = np.asarray(inverse).reshape(-1)
            if not (bool((words[first][inverse] == words).all()) and
                    bool((lengths[short][first][inverse] == lengths[short]).all())):
                return self._slow_codes(j)  # two cells share a key: code them one by one
            rows = np.flatnonzero(short)[first]
            cells = decode_ranges(self.buf, self.starts[rows, j], self.ends[rows, j])
            codes[short] = inverse
        if not bool(short.all()):
            long_rows = np.flatnonzero(~short)
            lut: dict[str, int] = {}
            raw = self.raw
            for row, s, e in zip(long_rows.tolist(), self.starts[long_rows, j].tolist(),
                                 self.ends[long_rows, j].tolist(), strict=True):
                cell = raw[s:e].decode()
                code = lut.get(cell)
                if code is None:
                    code = lut[cell] = len(cells)
                    cells.append(cell)
                codes[row] = code
        return codes, cells

    def bases(self, j: int) -> tuple[Any, Any, list[str]]:
        """Column ``j`` read as WebAnno writes a value and its disambiguation id, ``V[N]``:
        each cell's base (the cell without its id) as a code into the distinct bases
        (decoded), and its id (``-1``: none). A cell with ``|`` or ``\\`` (stacked or
        escaped) is all base; a cell ending in ``[...]`` whose brackets hold no number of one
        to nine ASCII digits keeps its brackets when they hold a ``]``, and makes the reading
        give up otherwise (the general path refuses it): as a single value is read, with
        :func:`clusteragree.exports._webanno_layers.value_of_cell`.

        Examples
        --------
        >>> lines = Lines.of(b"1-1\\t0-1\\ta\\tPER[12]\\t\\n1-2\\t2-3\\tb\\tA|B[3]\\t\\n", 4)
        >>> codes, dids, bases = lines.bases(3)
        >>> [bases[c] for c in codes.tolist()], dids.tolist()
        (['PER', 'A|B[3]'], [12, -1])
        """
        s, e = self.starts[:, j], self.ends[:, j]
        lengths = e - s
        n = self.n
        dids = np.full(n, -1, dtype=np.int64)
        codes = np.empty(n, dtype=np.int64)
        bases: list[str] = []
        short = np.flatnonzero(lengths <= _SHORT)
        if len(short):
            m, lengths_s = self._matrix(j, _SHORT)
            m, lengths_s = m[short], lengths_s[short]
            pos = np.arange(_SHORT)
            last = m[np.arange(len(short)), np.maximum(lengths_s - 1, 0)]
            size_base = lengths_s.copy()
            # the cells that end in ] and have no | or \\: perhaps V[N]
            maybe = np.flatnonzero((lengths_s > 0) & (last == _CLOSE))
            if len(maybe):
                c, size = m[maybe], lengths_s[maybe]
                plain = ~((c == _PIPE) | (c == _BACKSLASH)).any(axis=1)
                c, size, maybe = c[plain], size[plain], maybe[plain]
                opens = (c == _OPEN) & (pos < (size - 1)[:, None])
                has_open = opens.any(axis=1)
                at = _SHORT - 1 - opens[:, ::-1].argmax(axis=1)  # the last [
                inside = (pos > at[:, None]) & (pos < (size - 1)[:, None])
                digits = size - 2 - at
                digit = (c - np.uint8(_ZERO)) <= 9
                split = has_open & (digits >= 1) & (digits <= 9) & \
                    ((digit & inside).sum(axis=1) == digits)
                if bool((has_open & ~split & ~((c == _CLOSE) & inside).any(axis=1)).any()):
                    raise Abandon  # brackets that hold no number: the general path refuses
                number = np.zeros(len(c), dtype=np.int64)
                for k in range(1, _SHORT):  # the digits after the [, left to right
                    here = inside[:, k]
                    number = np.where(here, number * 10 + (c[:, k].astype(np.int64) - _ZERO),
                                      number)
                dids[short[maybe[split]]] = number[split]
                size_base[maybe[split]] = at[split]
            kept = m * (pos < size_base[:, None])
            words = np.ascontiguousarray(kept, dtype=np.uint8).view(np.uint64)
            key = words[:, 0] * _M1 + words[:, 1] * _M2 + size_base.astype(np.uint64)
            _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
            inverse = np.asarray(inverse).reshape(-1)
            if not (bool((words[first][inverse] == words).all()) and
                    bool((size_base[first][inverse] == size_base).all())):
                raise Abandon  # two bases share a key (never seen): read otherwise
            at_first = short[first]
            bases = decode_ranges(self.buf, s[at_first], s[at_first] + size_base[first])
            codes[short] = inverse
        long_rows = np.flatnonzero(lengths > _SHORT)
        if len(long_rows):
            lut = {b: k for k, b in enumerate(bases)}
            for row, cell in zip(long_rows.tolist(), self.cells(j, long_rows), strict=True):
                base, did = (cell, None) if "|" in cell or "\\" in cell else value_of_cell(cell)
                code = lut.get(base)
                if code is None:
                    code = lut[base] = len(bases)
                    bases.append(base)
                codes[row] = code
                dids[row] = -1 if did is None else did
        return codes, dids, bases

    def _slow_codes(self, j: int) -> tuple[Any, list[str]]:
        lut: dict[str, int] = {}
        raw = self.raw
        out = [lut.setdefault(raw[s:e].decode(), len(lut)) for s, e in zip(
            self.starts[:, j].tolist(), self.ends[:, j].tolist(), strict=True)]
        return np.asarray(out, dtype=np.int64), list(lut)

    def cells(self, j: int, rows: Any) -> list[str]:
        """The cells of column ``j`` in ``rows``, decoded."""
        return decode_ranges(self.buf, self.starts[rows, j], self.ends[rows, j])

    def blank(self, j: int) -> Any:
        """Whether each cell of column ``j`` is ``_``."""
        s = self.starts[:, j]
        return ((self.ends[:, j] - s) == 1) & (self.buf[s] == ord("_"))


def text_bytes(text: str) -> tuple[Any, Any]:
    """The UTF-8 bytes of ``text`` (an array) and the byte offset of each of its code points,
    with the length at the end."""
    raw = np.frombuffer(text.encode(), dtype=np.uint8)
    if len(raw) == len(text):
        return raw, np.arange(len(text) + 1, dtype=np.int64)
    lead = np.flatnonzero((raw & 0xC0) != 0x80)
    return raw, np.append(lead, len(raw))


def covered_match(text: tuple[Any, Any], size: int, lines: Lines, j: int, begins: Any,
                  ends: Any) -> bool:
    """Whether each field of column ``j`` is the text from ``begins`` to ``ends`` (code points,
    ``begins <= ends``): ``text`` from :func:`text_bytes`, ``size`` its length."""
    if not len(begins):
        return True
    if int(ends.max()) > size:
        return False
    raw, at = text
    tb, te = at[begins], at[ends]
    fs, fe = lines.starts[:, j], lines.ends[:, j]
    n = te - tb
    if not bool((n == fe - fs).all()):
        return False
    total = int(n.sum())
    if not total:
        return True
    shift = np.repeat(np.cumsum(n) - n, n)
    ramp = np.arange(total, dtype=np.int64) - shift
    return bool((raw[np.repeat(tb, n) + ramp] == lines.buf[np.repeat(fs, n) + ramp]).all())
