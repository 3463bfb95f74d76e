"""Tab-separated lines read as columns of bytes, with numpy: the fields' bounds, numbers of
the form ``A-B``, fields coded by their first bytes, and covered texts
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

__all__ = ["Lines", "covered_match", "text_bytes"]

_TAB, _NL, _DASH, _ZERO = 9, 10, 45, 48
#: Fields up to this many bytes are coded by their bytes with numpy; longer ones one by one.
SHORT = 16
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
    >>> import numpy as np
    >>> codes, first = lines.prefix_codes(3, np.arange(2), np.array([1, 1]))
    >>> codes.tolist(), lines.cells(3, first)
    ([0, 1], ['X', '_'])
    """

    def __init__(self, buf: Any, starts: Any, ends: Any) -> None:
        self.buf, self.starts, self.ends = buf, starts, ends
        self.n = starts.shape[0]
        self.windows: Any = None
        self.last: tuple[tuple[int, int], tuple[Any, Any]] | None = None

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
        return cls(buf, field_starts, field_ends)

    def _matrix(self, j: int, size: int) -> tuple[Any, Any]:
        """The bytes of the fields of column ``j``, up to ``size`` (bytes), padded with 0, and
        their lengths."""
        if self.last is not None and self.last[0] == (j, size):
            return self.last[1]
        s, e = self.starts[:, j], self.ends[:, j]
        lengths = e - s
        if self.windows is None or self.windows.shape[1] < size:
            padded = np.concatenate([self.buf, np.zeros(max(size, 32), dtype=np.uint8)])
            self.windows = np.lib.stride_tricks.sliding_window_view(padded, max(size, 32))
        m = self.windows[s, :size]
        found = m * (np.arange(size, dtype=np.int64) < lengths[:, None]), lengths
        self.last = ((j, size), found)  # (the column read next is most often the same)
        return found

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

    def prefix_codes(self, j: int, rows: Any, sizes: Any) -> tuple[Any, Any] | None:
        """The first ``sizes`` bytes (16 at most) of the fields of column ``j`` in ``rows``,
        coded by their bytes (two 64-bit words and the size): a code each, and the row of
        each code's first field; None when two different prefixes share a key (never seen:
        the keys are compared, not trusted)."""
        m, _ = self._matrix(j, SHORT)
        kept = m[rows] * (np.arange(SHORT) < sizes[:, None])
        words = np.ascontiguousarray(kept, dtype=np.uint8).view(np.uint64)
        key = words[:, 0] * _M1 + words[:, 1] * _M2 + sizes.astype(np.uint64)
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        inverse = np.asarray(inverse).reshape(-1)
        if not (bool((words[first][inverse] == words).all()) and
                bool((sizes[first][inverse] == sizes).all())):
            return None
        return inverse, rows[first]

    def matrix(self, j: int) -> tuple[Any, Any]:
        """The first 16 bytes of every field of column ``j`` (padded with 0), and the
        fields' lengths."""
        return self._matrix(j, SHORT)

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
