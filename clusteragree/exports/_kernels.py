"""The compiled loops of the readers of JSON exports (numba), imported only when loaded.

* :func:`scan`: the lines of a block of JSON Lines and what orjson may parse
  (:mod:`clusteragree.exports._jsonl_blocks` says what it finds);
* :func:`offsets`: tokens read from the bytes of a JSON array of objects, checked against a text
  (:mod:`clusteragree.exports._token_bytes`).

The functions are defined at the top of the module so that numba caches them on disk (a closure
is compiled again in every process).

References
----------
RFC 8259. docs/formats.md, "Performance".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba
import numpy as np

__all__ = ["offsets", "scan"]


def _njit(function: Callable[..., Any]) -> Any:
    """Compiled, cached on disk where numba finds a place to write (compiled afresh in each
    process elsewhere)."""
    try:
        return numba.njit(cache=True)(function)
    except RuntimeError:  # no cache locator for this file
        return numba.njit(function)


@_njit
def scan(buf, key, starts, ends, flags, key_starts, key_ends):
    """The lines of ``buf`` (uint8) written into the arrays, one row a line: ``starts``,
    ``ends`` (a final ``\\r`` left out), ``flags`` (1 blank, 2 left to the standard library)
    and ``key_starts``, ``key_ends`` (the top-level array of ``key``, or -1); the number of
    lines (:func:`clusteragree.exports._jsonl_blocks.scan_block` says what each means)."""
    size, klen, line, s = buf.shape[0], key.shape[0], 0, 0
    while s <= size:
        i = s
        while i < size and (buf[i] == 32 or buf[i] == 9 or buf[i] == 13 or buf[i] == 11 or
                            buf[i] == 12):
            i += 1
        blank = i >= size or buf[i] == 10
        depth, deepest, digits, unsafe, open_str = 0, 0, 0, False, False
        matches, escaped_key, value_start, value_end, open_at = 0, False, -1, -1, -1
        while i < size:
            c = buf[i]
            if c == 10:
                break
            if c == 34:  # a string: to its closing quote (or the end of the line)
                j, escape = i + 1, False
                while j < size:
                    d = buf[j]
                    if d == 34 or d == 10:
                        break
                    if d == 92:
                        escape = True
                        if j + 1 < size and buf[j + 1] == 10:
                            j += 1
                            break
                        j += 2
                    else:
                        j += 1
                if j >= size or buf[j] != 34:  # not closed on its line
                    open_str = True
                    i = j
                    break
                if depth == 1:  # a top-level key when ':' follows
                    k = j + 1
                    while k < size and (buf[k] == 32 or buf[k] == 9 or buf[k] == 13):
                        k += 1
                    if k < size and buf[k] == 58:
                        if escape:
                            escaped_key = True
                        elif j - i - 1 == klen:
                            same = True
                            for m in range(klen):
                                if buf[i + 1 + m] != key[m]:
                                    same = False
                                    break
                            if same:
                                matches += 1
                                k += 1
                                while k < size and (buf[k] == 32 or buf[k] == 9 or
                                                    buf[k] == 13):
                                    k += 1
                                open_at = k if k < size and buf[k] == 91 else -1
                                value_start, value_end = -1, -1
                digits = 0
                i = j + 1
                continue
            if 48 <= c <= 57:
                digits += 1
                if digits >= 19:
                    unsafe = True
            else:
                digits = 0
                if c == 123 or c == 91:
                    depth += 1
                    if depth > deepest:
                        deepest = depth
                    if i == open_at:
                        value_start = i
                elif c == 125 or c == 93:
                    depth -= 1
                    if depth < 0:
                        unsafe = True
                    elif depth == 1 and value_start >= 0 and value_end < 0:
                        value_end = i + 1
            i += 1
        while i < size and buf[i] != 10:  # (after a string left open)
            i += 1
        e = i
        if e > s and buf[e - 1] == 13:
            e -= 1
        starts[line], ends[line] = s, e
        flag = 1 if blank else 0
        if unsafe or open_str or depth != 0 or deepest >= 100:
            flag |= 2
        flags[line] = flag
        if matches == 1 and not escaped_key and value_start >= 0 and value_end > 0:
            key_starts[line], key_ends[line] = value_start, value_end
        else:
            key_starts[line], key_ends[line] = -1, -1
        line += 1
        s = i + 1
    return line


@_njit
def ws(buf, i):
    """The first place from ``i`` that is not JSON white space."""
    while i < buf.shape[0] and (buf[i] == 32 or buf[i] == 9 or buf[i] == 10 or
                                buf[i] == 13):
        i += 1
    return i


@_njit
def string_end(buf, i):
    """The place after the string that starts at ``i`` (a quote), and whether it holds an
    escape."""
    i += 1
    escape = False
    while buf[i] != 34:
        if buf[i] == 92:
            escape = True
            i += 2
        else:
            i += 1
    return i + 1, escape

@_njit
def value_end(buf, i):
    """The place after the JSON value that starts at ``i``."""
    c = buf[i]
    if c == 34:
        return string_end(buf, i)[0]
    if c == 123 or c == 91:
        depth = 0
        while True:
            c = buf[i]
            if c == 34:
                i = string_end(buf, i)[0]
                continue
            if c == 123 or c == 91:
                depth += 1
            elif c == 125 or c == 93:
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
    while i < buf.shape[0] and not (buf[i] == 44 or buf[i] == 125 or buf[i] == 93 or
                                    buf[i] == 32 or buf[i] == 9 or buf[i] == 10 or
                                    buf[i] == 13):
        i += 1
    return i

@_njit
def same(buf, a, b, key):
    """Whether ``buf[a:b]`` holds the bytes of ``key``."""
    if b - a != key.shape[0]:
        return False
    for k in range(b - a):  # noqa: SIM110 - a loop numba compiles
        if buf[a + k] != key[k]:
            return False
    return True

#: The keys :func:`offsets` reads (constants of the compiled code).
_START, _END, _TEXT = (np.frombuffer(k, np.uint8) for k in (b"start", b"end", b"text"))


@_njit
def offsets(buf, text, out):
    """(tokens, tokens whose text differs), or (-1, 0) where the answer is not certain; each
    token's start and end in ``out[0]`` and ``out[1]``."""
    starts = np.empty(text.shape[0] + 1, dtype=np.int64)  # code point -> byte
    points = 0
    for b in range(text.shape[0]):
        if (text[b] & 0xC0) != 0x80:
            starts[points] = b
            points += 1
    starts[points] = text.shape[0]
    i = ws(buf, 0)
    if buf[i] != 91:
        return -1, 0
    i = ws(buf, i + 1)
    n, wrong = 0, 0
    if buf[i] == 93:
        return 0, 0
    while True:
        if buf[i] != 123:
            return -1, 0
        i = ws(buf, i + 1)
        start, end, text_at, text_end, seen = -1, -1, -1, -1, 0
        if buf[i] == 125:
            return -1, 0
        while True:
            key_at = i + 1
            i, escape = string_end(buf, i)
            if escape:
                return -1, 0
            key_stop = i - 1
            i = ws(buf, ws(buf, i) + 1)  # past the colon
            field = 0
            if same(buf, key_at, key_stop, _START):
                field = 1
            elif same(buf, key_at, key_stop, _END):
                field = 2
            elif same(buf, key_at, key_stop, _TEXT):
                field = 4
            if field == 1 or field == 2:
                if seen & field:
                    return -1, 0
                value, digits = 0, 0
                while 48 <= buf[i] <= 57:
                    value = value * 10 + (buf[i] - 48)
                    digits += 1
                    i += 1
                if digits == 0 or digits > 18 or buf[i] == 46 or buf[i] == 101 or \
                        buf[i] == 69:
                    return -1, 0
                if field == 1:
                    start = value
                else:
                    end = value
                seen |= field
            elif field == 4:
                if seen & 4:
                    return -1, 0
                seen |= 4
                if buf[i] == 34:
                    text_at = i + 1
                    i, escape = string_end(buf, i)
                    if escape:
                        return -1, 0
                    text_end = i - 1
                elif buf[i] == 110:  # null
                    i += 4
                else:
                    return -1, 0
            else:
                i = value_end(buf, i)
            i = ws(buf, i)
            if buf[i] == 44:
                i = ws(buf, i + 1)
                continue
            if buf[i] == 125:
                break
            return -1, 0
        if seen & 3 != 3 or start > end or end > points or n >= out.shape[1]:
            return -1, 0
        out[0, n], out[1, n] = start, end
        if text_at >= 0:
            a, b = starts[start], starts[end]
            if b - a != text_end - text_at:
                wrong += 1
            else:
                for k in range(b - a):
                    if text[a + k] != buf[text_at + k]:
                        wrong += 1
                        break
        n += 1
        i = ws(buf, i + 1)
        if buf[i] == 44:
            i = ws(buf, i + 1)
            continue
        if buf[i] == 93:
            break
        return -1, 0
    if ws(buf, i + 1) != buf.shape[0]:
        return -1, 0
    return n, wrong
