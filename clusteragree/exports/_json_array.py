"""The elements of a top-level JSON array (Label Studio's export) read from its bytes, one at a
time, each with its first line: the file decoded a window at a time, or, with orjson, each
element parsed from the bytes themselves, its end found by a vectorised scan or guessed and
proven (:func:`iter_json_array_bytes`).

The parsing of one value is :mod:`clusteragree.exports._records`' (the standard library's
decoder with its checks of numbers, and orjson where it reads a value as the standard library
does); ``_records.FAST`` turns the orjson path off, as it does for JSON Lines.

References
----------
RFC 8259, The JavaScript Object Notation (JSON) Data Interchange Format.
docs/formats.md, "Performance" (Label Studio).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..errors import InputError
from ..inputs import check_encoding, decode
from . import _records
from ._records import (
    _DECODER,
    _LONG_DIGITS,
    _SHALLOW,
    _TOO_LONG,
    _WHITESPACE,
    _ZEROS,
    PathLike,
    _BadNumber,
    iter_json_array,
)

__all__ = ["WINDOW", "iter_json_array_bytes"]


#: Bytes of a JSON array decoded at a time by :func:`iter_json_array_bytes`.
WINDOW = 1 << 20

#: The change of nesting at each byte: +1 opening an object or array, -1 closing one.
_STEP = np.zeros(256, np.int8)
_STEP[[0x7B, 0x5B]], _STEP[[0x7D, 0x5D]] = 1, -1
#: What may follow an element of the array: blanks, then a comma and blanks.
_AFTER = re.compile(rb"[ \t\n\r]*(,[ \t\n\r]*)?")


def _element_ends(raw: bytes, pos: int, stop: int) -> tuple[list[int], int]:
    """Where the elements of a JSON array that follow one another from ``raw[pos]`` end
    (exclusive), for the bytes up to ``stop``, and the place up to which these ends are sure:
    ``stop``, or the first place nested :data:`_SHALLOW` levels deep (or closing more than it
    opened).

    The strings are found by their quotes (an escaped quote is one after an odd run of
    backslashes), the nesting by the brackets outside them: exact for JSON text, which orjson
    then checks element by element (an element it accepts from a true start ends where found
    here: a JSON value ends where its own brackets close), so a wrong end on text that is not
    JSON is never used. Vectorised: a few passes over the bytes, in numpy.
    """
    a = np.frombuffer(raw, np.uint8, stop - pos, pos)
    # the quotes and the brackets (the test of the bits takes 'Y', 'y', '_' and DEL too,
    # whose step is 0)
    at = np.flatnonzero(((a & 0xD9) == 0x59) | (a == 0x22))
    chars = a[at]
    quote = chars == 0x22
    if raw.find(b"\\", pos, stop) >= 0:
        slash = np.flatnonzero(a == 0x5C)
        run = np.ones(len(slash), bool)
        run[1:] = slash[1:] != slash[:-1] + 1
        index = np.arange(len(slash)) - np.flatnonzero(run)[np.cumsum(run) - 1]
        quote &= ~np.isin(at, slash[index % 2 == 0] + 1, assume_unique=True)
    step = _STEP[chars]
    step[(np.cumsum(quote, dtype=np.int32) & 1).astype(bool)] = 0  # inside a string
    depth = np.cumsum(step, dtype=np.int32)
    closing = np.flatnonzero((depth == 0) & (step < 0))
    wrong = np.flatnonzero((depth >= _SHALLOW) | (depth < 0))
    sure = stop
    if len(wrong):
        closing = closing[closing < wrong[0]]
        sure = pos + int(at[wrong[0]])
    return (at[closing] + (pos + 1)).tolist(), sure


def _tail_of(raw: bytes, start: int, end: int, value: Any) -> bytes | None:
    """The key that ends the object ``raw[start:end]`` (its value ``value``), as written there,
    when its value holds no object or array of its own (a number, a string, ``[]``): the mark
    by which :func:`_guessed` guesses where the next elements end. None else."""
    if type(value) is not dict or not value:
        return None
    key = next(reversed(value))
    last = value[key]
    if isinstance(last, (dict, list)) and last:
        return None
    for spelled in (json.dumps(key, ensure_ascii=False), json.dumps(key)):
        mark = spelled.encode("utf-8", "surrogatepass")
        if raw.rfind(mark, start, end) >= 0:
            return mark
    return None


def _guessed(raw: bytes, start: int, stop: int, long_at: int, tail: bytes,
             out: list[tuple[int, int, Any]]
             ) -> tuple[list[tuple[int, int, Any]], int, bool] | int:
    """The first elements of the window ``raw[start:stop]`` read as :func:`_fast_window` reads
    them, their ends guessed rather than scanned for: the first ``}`` after the first ``tail``
    (the key that ended the first element: every element of an export has the same keys).
    A guess is proven by orjson: an object it accepts from a true start is the element there
    (a JSON value ends at its own closing bracket, so no shorter or longer text starting there
    is a complete object), and fewer than :data:`_SHALLOW` brackets in it make it shallow. The
    elements go to ``out``; the result is :func:`_fast_window`'s when the window is done,
    else the start of the element not guessed (the scan of the window goes on from there)."""
    view, loads, fault = memoryview(raw), _records._orjson.loads, _records._orjson.JSONDecodeError
    find, count = raw.find, raw.count
    while True:
        at = find(tail, start, stop)
        if at < 0:
            return start
        end = find(b"}", at, stop) + 1
        if end <= 0 or end >= stop or end > long_at or \
                count(b"{", start, end) + count(b"[", start, end) >= _SHALLOW:
            return start
        try:
            value = loads(view[start:end])
        except fault:
            return start
        step = _taken(raw, start, end, stop, value, out)
        if step is None:  # the end of the array, or a fault: the scan decides
            return start
        if type(step) is not int:
            return step
        start = step


def _taken(raw: bytes, start: int, end: int, stop: int, value: Any,
           out: list[tuple[int, int, Any]]) -> tuple[list[tuple[int, int, Any]], int, bool] | \
        int | None:
    """The element ``raw[start:end]`` (parsed: ``value``) added to ``out`` by what follows it:
    the start of the next element, or :func:`_fast_window`'s result where the window ends
    there (the array's end, the window's end, an element that is not an object); None, with
    nothing added, where what follows is not a comma or the array's end (the caller gives up
    at ``start``)."""
    after = _AFTER.match(raw, end, stop)
    assert after is not None  # it matches the empty string
    k = after.end()
    if after.group(1) is None:
        if k < stop:  # the end of the array, or a fault
            return None
        out.append((start, end, value))
        return out, end, True
    if k < stop and raw[k] == 0x5D:  # a comma before "]"
        return None
    out.append((start, end, value))
    if k >= stop:
        return out, stop, False
    if raw[k] != 0x7B:  # an element that is not an object
        return out, -k, False
    return k


def _fast_window(raw: bytes, pos: int, stop: int, tail: bytes | None = None
                 ) -> tuple[list[tuple[int, int, Any]], int, bool] | None:
    """The window ``raw[pos:stop]`` of a JSON array read by orjson as the loop of
    :func:`iter_json_array_bytes` reads it with the standard library: ``(elements, resume,
    delimiter)``, the elements ``(start, end, value)`` it would give in this window, where the
    next window starts and whether at a delimiter; or, when orjson might read an element
    otherwise (see :func:`_orjson_ready`) or the window holds something else than objects
    followed by commas, the elements up to there and ``-resume``, the byte where the standard
    library goes on in the same window. None where it would read the window at once.

    Only the elements orjson accepts are taken (it checks their UTF-8); the bytes it does not
    parse are checked for UTF-8 here, so that a window with a fault in its encoding is always
    left to the standard library, which refuses it whole as before.
    """
    if raw[pos] != 0x7B:  # "{"
        return None
    found = raw[pos:stop].translate(_ZEROS).find(_LONG_DIGITS)
    long_at = stop if found < 0 else pos + found
    out: list[tuple[int, int, Any]] = []
    start = pos
    if tail is not None:
        done = _guessed(raw, pos, stop, long_at, tail, out)
        if type(done) is not int:
            return done  # type: ignore[return-value]
        start = done
    ends, sure = _element_ends(raw, start, stop)
    if not ends and not out:
        return None
    view, loads, fault = memoryview(raw), _records._orjson.loads, _records._orjson.JSONDecodeError
    for end in ends:
        if end >= stop:  # it may go on past the window: the next window starts with it
            break
        if end > long_at:
            return out, -start, False
        try:
            value = loads(view[start:end])
        except fault:
            return out, -start, False
        step = _taken(raw, start, end, stop, value, out)
        if step is None:
            return out, -start, False
        if type(step) is not int:
            return step  # type: ignore[return-value]
        start = step
    if not out:
        return None
    if sure < stop:  # nested deeply: the standard library decides
        return out, -start, False
    try:
        raw[start:stop].decode("utf-8")
    except UnicodeDecodeError:
        return out, -start, False
    return out, start, False


def iter_json_array_bytes(raw: bytes, path: PathLike, *, encoding: str | None = None,
                          what: str = "element"
                          ) -> Iterator[tuple[int, str | bytes, int, int, Any]]:
    """``(line, window, start, end, value)`` for each element of the JSON array in the bytes
    ``raw``: :func:`iter_json_array` without decoding the whole file at once.

    A UTF-8 file is decoded a window of about a megabyte at a time (the window grows for an
    element larger than it), so that a file of characters outside the Basic Multilingual Plane
    (which Python stores in four bytes each) is never held as one string; ``start`` and
    ``end`` are the element's range in ``window``. Another encoding is decoded whole.

    With orjson installed (and ``_records.FAST``), a window of objects is read by it instead,
    each element on its own (some 40% faster): the elements are found by a vectorised scan of the
    strings and brackets (:func:`_element_ends`), or, after the first window, their ends
    guessed from the key that ends the first element and proven by orjson (:func:`_guessed`);
    the window is then ``raw`` itself, the range in bytes. It gives the values, lines and
    errors of the standard library's reading, window for window: where orjson could read an
    element otherwise (a run of nineteen digits, nesting a hundred levels deep, a fault it
    refuses), the standard library reads the rest of the window.

    Examples
    --------
    >>> [(line, value) for line, _, _, _, value in
    ...  iter_json_array_bytes(b'[\\n {"a": 1},\\n 2\\n]', "x")]
    [(2, {'a': 1}), (3, 2)]
    """
    codec = check_encoding(encoding)
    if codec not in (None, "utf-8"):
        text = decode(raw, path, encoding=encoding)
        for line, start, end, value in iter_json_array(text, path, what=what):
            yield line, text, start, end, value
        return
    size = len(raw)
    pos = 3 if raw.startswith(b"\xef\xbb\xbf") else 0
    line = 1

    def skip(p: int) -> int:
        while p < size and raw[p] in b" \t\r\n":
            p += 1
        return p

    start = skip(pos)
    line += raw.count(b"\n", pos, start)
    if start >= size or raw[start] != 0x5B:  # "["
        head = raw[start:start + 200].decode("utf-8", "replace")
        found = "nothing" if start >= size else repr(head[:1])
        raise InputError(f"not a JSON array (a list of {what}s): it starts with {found}", path,
                         line if start < size else None)
    pos, first, window_size, delimiter = start + 1, True, WINDOW, False
    fast = _records.FAST and _records._orjson is not None
    tail: bytes | None = None  # the key that ends the elements (see _guessed), once learnt
    learnt = False
    while True:
        at = skip(pos)
        line += raw.count(b"\n", pos, at)
        pos = at
        if pos >= size:
            raise InputError("the JSON array is not closed (the file is cut short?)", path,
                             line)
        if delimiter:  # a window ended between an element and its comma
            delimiter = False
            if raw[pos] == 0x5D:
                pos += 1
                break
            if raw[pos] != 0x2C:
                raise InputError(f"expected ',' or ']' after a {what}, found "
                                 f"{chr(raw[pos])!r}", path, line)
            at = skip(pos + 1)
            line += raw.count(b"\n", pos, at)
            pos = at
            if pos < size and raw[pos] == 0x5D:
                raise InputError("a comma before the end of the JSON array", path, line)
            continue
        if raw[pos] == 0x5D and first:  # "]": an empty array
            pos += 1
            break
        stop = min(size, pos + window_size)
        while stop < size and raw[stop] & 0xC0 == 0x80:  # not inside a character
            stop -= 1
        at_end = stop >= size
        taken = _fast_window(raw, pos, stop, tail) if fast and not at_end else None
        if taken is not None and not learnt and taken[0]:
            learnt = True
            tail = _tail_of(raw, taken[0][0][0], taken[0][0][1], taken[0][0][2])
        if taken is not None and taken[1] >= 0:  # the whole window, as below
            elements, resume, delimiter = taken
            for start, end, value in elements:
                line += raw.count(b"\n", pos, start)
                pos = start
                yield line, raw, start, end, value
                first = False
            line += raw.count(b"\n", pos, resume)
            pos, window_size = resume, WINDOW
            continue
        try:
            window = raw[pos:stop].decode("utf-8")
        except UnicodeDecodeError:
            decode(raw, path)  # raises with the line and column of the byte
            raise
        i, counted, base_line, grow = 0, 0, line, False
        if taken is not None:  # the first elements by orjson, the others as below
            elements, resume, _ = taken
            for start, end, value in elements:
                base_line += raw.count(b"\n", pos + i, start)
                i = start - pos
                yield base_line, raw, start, end, value
                first = False
            base_line += raw.count(b"\n", pos + i, -resume)
            i = counted = len(raw[pos:-resume].decode("utf-8"))
        while True:
            base_line += window.count("\n", counted, i)
            counted = i
            try:
                value, end = _DECODER.raw_decode(window, i)
            except _BadNumber as bad:
                found_at = window.find(bad.token, i)
                raise InputError(f"the number {bad.token} {bad.why}", path, base_line + (
                    window.count("\n", i, found_at) if found_at >= 0 else 0)) from None
            except RecursionError:
                raise InputError(f"JSON nested too deeply (the {what} at line {base_line})",
                                 path, base_line) from None
            except (json.JSONDecodeError, ValueError) as err:
                if not at_end:
                    grow = True
                    break
                if isinstance(err, json.JSONDecodeError):
                    raise InputError(f"not JSON: {err.msg}", path,
                                     line + window.count("\n", 0, err.pos),
                                     err.colno if err.lineno > 1 else None) from None
                raise InputError(_TOO_LONG, path, base_line) from None
            if end >= len(window) and not at_end:
                grow = True  # the element may go on past the window
                break
            yield base_line, window, i, end, value
            first = False
            j = end
            while j < len(window) and window[j] in _WHITESPACE:
                j += 1
            if j >= len(window):
                if at_end:
                    raise InputError(f"the JSON array is not closed after the {what} at line "
                                     f"{base_line}", path, base_line + window.count(
                                         "\n", i, j))
                i, grow, delimiter = end, False, True
                break
            if window[j] == "]":
                base_line += window.count("\n", i, j)
                rest = raw[pos + len(window[:j + 1].encode("utf-8")):]
                if rest.strip(b" \t\r\n"):
                    extra = len(rest) - len(rest.lstrip(b" \t\r\n"))
                    raise InputError("text after the end of the JSON array", path,
                                     base_line + rest.count(b"\n", 0, extra))
                return
            if window[j] != ",":
                raise InputError(f"expected ',' or ']' after the {what} at line {base_line}, "
                                 f"found {window[j]!r}", path,
                                 base_line + window.count("\n", i, j))
            k = j + 1
            while k < len(window) and window[k] in _WHITESPACE:
                k += 1
            if k < len(window) and window[k] == "]":
                raise InputError("a comma before the end of the JSON array", path,
                                 base_line + window.count("\n", i, k))
            i = k
            if i >= len(window):
                break
        # go on from character i of the window: its byte offset, and the lines before it
        line = base_line + window.count("\n", counted, i)
        pos += len(window[:i].encode("utf-8"))
        window_size = window_size * 2 if grow and i == 0 else WINDOW
        if grow and i == 0 and at_end:  # cannot happen: at the end nothing grows
            raise InputError(f"cannot read the {what} at line {line}", path, line)
    rest = raw[pos:]
    if rest.strip(b" \t\r\n"):
        raise InputError("text after the end of the JSON array", path,
                         line + rest.count(b"\n", 0, len(rest) - len(rest.lstrip(b" \t\r\n"))))
