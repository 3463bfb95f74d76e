"""JSON Lines read a block at a time: a compiled scan finds the lines and what orjson may parse.

Parsing a line of a large export with orjson is the largest part of reading it; the checks that
orjson reads the line as the standard library does (no whole number past 64 bits, no deep
nesting: see :func:`clusteragree.exports._records._orjson_ready`) cost about half as much again
when made in Python, line by line, and cutting a repeated array out of a line (Prodigy's tokens,
the same for every annotator of a text) cost as much as parsing the line. The scan of
:func:`scan_block` makes both in one pass over a block of lines, in compiled code:

* the lines: split at ``\\n``, a final ``\\r`` dropped, blank lines (ASCII white space alone)
  marked;
* per line, :data:`UNSAFE` where orjson might read it otherwise than the standard library or
  where it cannot be JSON: a run of 19 digits outside strings (a whole number orjson may make a
  float), nesting :data:`DEEPEST` levels deep or more (the standard library's scanner may run out
  of stack), a string or bracket left open or a bracket closed that was not open;
* per line, the bytes of the value of one top-level key when it is an array: the key written
  once among the top-level keys, no top-level key written with an escape (so that no other key
  is the same name written otherwise), the array from its ``[`` to its matching ``]``.

In a line that is JSON (orjson parsed it), strings, brackets and keys are what this scan finds,
so the bytes given are the key's value. Where a line is not JSON, orjson refuses it and the
standard library reads it (with its messages), whatever the scan found. The tests compare the
scan with a parser on random JSON.

Without numba the readers read line by line (:func:`clusteragree.exports._records.iter_jsonl`).

References
----------
JSON Lines (jsonlines.org); RFC 8259 (strings, escapes, the white space between tokens).
docs/formats.md, "Performance".
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable, Iterator
from typing import IO, Any

import numpy as np

from .._lazy import module
from ..compiled import Compiled

try:  # the optional extra "fast"
    import orjson as _orjson
except ImportError:  # pragma: no cover - the standard library is the fallback
    _orjson = None  # type: ignore[assignment]

_kernels = module("clusteragree.exports._kernels")

__all__ = ["BLANK", "DEEPEST", "UNSAFE", "Shared", "loaded", "records", "scan_block", "scanner",
           "stand_in_record", "wanted"]

#: The flags of a line.
BLANK, UNSAFE = 1, 2
#: The nesting at which a line is left to the standard library (as
#: :data:`clusteragree.exports._records._SHALLOW`).
DEEPEST = 100
#: Digits in a row outside strings from which a line is left to the standard library.
LONG_DIGITS = 19


def _build() -> Any:
    scan = _kernels.scan
    out = np.zeros(2, dtype=np.int64)  # run once, so that a failure is seen here
    scan(np.frombuffer(b'{"k": [1]}', np.uint8), np.frombuffer(b"k", np.uint8), out, out.copy(),
         np.zeros(2, dtype=np.uint8), out.copy(), out.copy())
    return scan


SCANNER = Compiled(
    _build,
    missing="numba is not installed (a default dependency where it has wheels); JSON Lines "
            "are read line by line, about a third slower",
    failed="the numba scan of JSON Lines could not be loaded; reading line by line")


def scanner() -> Any:
    """The compiled scan, or None (after one warning) where numba cannot serve."""
    return SCANNER.get()


def scan_block(block: bytes, key: bytes, scan: Any
               ) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    """The lines of ``block`` (complete lines: the text between ``\\n``, the last one up to the
    end): their starts and ends (a final ``\\r`` left out), flags (:data:`BLANK`,
    :data:`UNSAFE`), and the start and end of the top-level array value of ``key`` (its bytes
    as written, without quotes and escapes), -1 where there is none to give.

    Examples
    --------
    >>> scan = scanner()
    >>> scan_block(b'{"a": [1, "]"], "b": 2}\\r\\n\\n[1', b"a", scan)
    ([0, 25, 26], [23, 25, 28], [0, 1, 2], [6, -1, -1], [14, -1, -1])
    """
    buf = np.frombuffer(block, np.uint8)
    lines = int(np.count_nonzero(buf == 10)) + 1
    starts = np.empty(lines, dtype=np.int64)
    ends, key_starts, key_ends = np.empty_like(starts), np.empty_like(starts), \
        np.empty_like(starts)
    flags = np.empty(lines, dtype=np.uint8)
    found = scan(buf, np.frombuffer(key, np.uint8), starts, ends,
                 flags, key_starts, key_ends)
    assert found == lines
    return (starts.tolist(), ends.tolist(), flags.tolist(), key_starts.tolist(),
            key_ends.tolist())


_NO_VALUE = object()


class Shared:
    """A value cut out of a JSON line by :func:`iter_jsonl` (``shared=KEY``): its bytes, as
    written, and its value (parsed when first asked for). Lines that repeat a value byte for
    byte (Prodigy's tokens, the same for every annotator of a text) give the same bytes, so a
    reader may reuse what it made of them.

    Examples
    --------
    >>> Shared(b'[1, 2.0, true]').parsed()
    [1, 2.0, True]
    """

    __slots__ = ("raw", "value")

    def __init__(self, raw: bytes, value: Any = _NO_VALUE) -> None:
        self.raw, self.value = raw, value

    def parsed(self) -> Any:
        """The value (the bytes were read by orjson as the standard library reads them)."""
        if self.value is _NO_VALUE:
            self.value = (_orjson.loads if _orjson is not None else json.loads)(self.raw)
        return self.value


#: What stands for the value cut out of a line: an object whose one key is U+0000, which JSON
#: can only write as these bytes, so that where they occur once in the line, the parsed object
#: is this one.
_STAND_IN = b'{"\\u0000":0}'
_STAND_IN_KEY = b"\\u0000"
#: Bytes read at a time, and the size of file from which the scan pays for loading numba.
BLOCK = 8 << 20
MIN_SIZE = 64 << 20


def wanted(stream: Any) -> bool:
    """Whether ``stream`` is a file large enough for the scan (numba is loaded on first use)."""
    try:
        return os.fstat(stream.fileno()).st_size >= MIN_SIZE and callable(stream.read)
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        return False


def _blocks(stream: IO[bytes], mark: bool = True) -> Iterator[bytes]:
    """The stream's complete lines, a block of them at a time (without the last ``\\n`` of a
    block; a line longer than :data:`BLOCK` whole), the byte-order mark of the file dropped
    (``mark``: the stream starts at the file's start)."""
    tail, first = b"", mark
    while True:
        chunk = stream.read(BLOCK)
        if not chunk:
            if tail:
                yield tail
            return
        if first:  # (the mark whole, however small the blocks)
            while len(chunk) < 3 and (more := stream.read(BLOCK)):
                chunk += more
            chunk, first = chunk.removeprefix(b"\xef\xbb\xbf"), False
        data = tail + chunk if tail else chunk
        cut = data.rfind(b"\n")
        if cut < 0:
            tail = data
            continue
        yield data[:cut]
        tail = data[cut + 1:]


def records(stream: IO[bytes], shared: str | None, scan: Any, loads: Callable[[bytes], Any],
            fault: type[Exception], general: Callable[[bytes, int], Any], *,
            first_line: int = 1) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for each non-blank line of a UTF-8 JSON Lines stream, as
    :func:`clusteragree.exports._records.iter_jsonl` gives them (orjson installed), the lines
    found and checked by the scan a block at a time.

    ``shared``: a top-level key whose array value is given as a
    :class:`Shared` holding its bytes: bytes seen before are
    not parsed again (the rest of the line is, with a stand-in where they were, which must be
    the key's value); bytes first seen come with the value parsed with the line.

    ``loads`` and ``fault``: orjson's parser and error; ``general(raw, number)``: the line's
    value by the standard library, or the InputError that says what is wrong with it (for the
    lines orjson may read otherwise, or refuses). ``first_line``: the number of the stream's
    first line (the byte-order mark is looked for only on line 1)."""
    stand_in = _STAND_IN
    key = b"" if shared is None else json.dumps(shared)[1:-1].encode()
    share = shared is not None and b"\\" not in key
    seen: dict[bytes, bytes] = {}
    done = first_line - 1  # lines of the blocks before
    for block in _blocks(stream, first_line == 1):
        starts, ends, flags, key_starts, key_ends = scan_block(block, key, scan)
        for k, flag in enumerate(flags):
            if flag & BLANK:
                continue
            number, s, e = done + k + 1, starts[k], ends[k]
            if not flag & UNSAFE:
                a = key_starts[k]
                cut = known = None
                if share and a >= 0:
                    b = key_ends[k]
                    cut = block[a:b]
                    known = seen.get(cut)
                    if known is not None:
                        rest = block[s:a] + stand_in + block[b:e]
                        record = stand_in_record(rest, shared, loads, fault)  # type: ignore[arg-type]
                        if record is not None:
                            record[shared] = Shared(known)
                            yield number, record
                            continue
                try:
                    record = loads(block[s:e])
                except fault:
                    pass
                else:
                    if known is None and cut is not None and type(record) is dict:
                        value = record.get(shared)
                        if type(value) is list:
                            seen[cut] = cut
                            record[shared] = Shared(cut, value)
                    yield number, record
                    continue
            yield number, general(block[s:e], number)
        done += len(flags)


def stand_in_record(rest: bytes, key: str, loads: Any, fault: type[Exception]) -> Any:
    """The record of a line with the stand-in where its ``key``'s bytes were, or None where
    the stand-in is not that key's value (the line is then parsed whole)."""
    if rest.count(_STAND_IN_KEY) != 1:
        return None
    try:
        record = loads(rest)
    except fault:
        return None
    if type(record) is not dict:
        return None
    stand_in = record.get(key)
    if type(stand_in) is not dict or len(stand_in) != 1 or "\x00" not in stand_in:
        return None
    return record


def loaded() -> bool:
    """Whether the scan has been loaded in this process (numba with it): the readers then take
    their compiled checks too, at no further cost of loading."""
    return SCANNER.value not in (False, None)
