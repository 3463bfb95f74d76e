"""The input layer under every reader: opening, decoding, lines, numbers, CSV and JSON.

Every reader goes through these helpers so that every malformed input ends in one
:class:`~clusteragree.errors.InputError` carrying the file, the line (and column where known)
and what to do. None of them builds more than one copy of a file's text, and none splits a file
into a list of lines: :func:`iter_lines` yields one line at a time.

* :func:`read_bytes`, :func:`decode`, :func:`read_text`: a file as text, UTF-8 (with or without a
  byte-order mark) unless an ``encoding`` is named; a byte that does not decode is reported with
  its line and column.
* :func:`iter_lines`: ``(number, line)`` over ``\\n`` only (``\\r\\n`` too), never over the other
  characters :meth:`str.splitlines` treats as line breaks (``\\x85``, ``\\u2028``, ...), so line
  numbers are the ones an editor shows.
* :func:`parse_int`, :func:`parse_float`: ASCII decimal numbers only (``str.isdigit`` accepts
  ``"²"``; ``int`` accepts Arabic-Indic digits) within bounds, or an error naming the field.
* :func:`csv_rows`: CSV records with their first line, no field-size limit, and an error for a
  quoted field that runs over a line break (a quote left open swallows the rows after it) or a
  bare carriage return.
* :func:`load_json`: JSON without ``NaN``/``Infinity`` or numbers outside the float range.

Examples
--------
>>> list(iter_lines("a\\r\\nb\\u2028c\\n"))
[(1, 'a'), (2, 'b\\u2028c')]
>>> parse_int("12", what="rank")
12
>>> parse_int("²", what="word id", path="a.conllu", line=4)
Traceback (most recent call last):
...
clusteragree.errors.InputError: a.conllu:4: word id '²' is not a whole number (ASCII digits)
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import gc
import json
import math
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .errors import InputError, ParameterError

__all__ = [
    "check_encoding",
    "csv_rows",
    "decode",
    "iter_lines",
    "load_json",
    "objects_in_bulk",
    "parse_float",
    "parse_int",
    "read_bytes",
    "read_text",
]

PathLike = str | os.PathLike[str]

_INT = re.compile(r"[+-]?[0-9]+")
_FLOAT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
#: Integers beyond this many digits are refused before Python converts them.
MAX_INT_DIGITS = 18


@contextlib.contextmanager
def objects_in_bulk() -> Iterator[None]:
    """Pause the cyclic garbage collector while a reader makes many objects at once.

    Building hundreds of thousands of small objects (mentions, tokens) triggers full
    collections that walk every object already made, though none of them forms a cycle that
    needs collecting; pausing the collector for the duration is what makes such a build linear.
    Reference counting still frees everything as usual; the collector is restored on exit, even
    on an error.

    Examples
    --------
    >>> import gc
    >>> with objects_in_bulk():
    ...     paused = not gc.isenabled()
    ...     spans = [((i, i + 1),) for i in range(1000)]
    >>> paused, gc.isenabled()
    (True, True)
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def check_encoding(encoding: str | None) -> str | None:
    """The codec name, or :class:`ParameterError` for an unknown encoding.

    >>> check_encoding("latin1")
    'iso8859-1'
    """
    if encoding is None:
        return None
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        raise ParameterError(f"unknown encoding {encoding!r}; give a Python codec name such as "
                             "utf-8, cp1252 or latin-1") from None


def read_bytes(path: PathLike, *, what: str = "file") -> bytes:
    """The bytes of a file, or :class:`InputError` saying why it cannot be read."""
    name = os.fspath(path)
    try:
        return Path(path).read_bytes()
    except IsADirectoryError:
        raise InputError(f"is a directory; give a {what}", path=name) from None
    except FileNotFoundError:
        raise InputError(f"no such {what}", path=name) from None
    except PermissionError:
        raise InputError(f"permission denied: cannot read the {what}", path=name) from None
    except OSError as err:
        raise InputError(f"cannot read the {what}: {err.strerror or err}", path=name) from None


def _position(raw: bytes, index: int) -> tuple[int, int]:
    """1-based line and column (in characters, counting the bad byte) of byte ``index``."""
    line_start = raw.rfind(b"\n", 0, index) + 1
    line = raw.count(b"\n", 0, index) + 1
    col = len(raw[line_start:index].decode("utf-8", errors="replace")) + 1
    return line, col


def decode(raw: bytes, path: PathLike | None = None, *, encoding: str | None = None) -> str:
    """Bytes as text: UTF-8 (a byte-order mark is dropped) unless ``encoding`` is named.

    Raises
    ------
    InputError
        Naming the line and column of the first byte that does not decode.

    Examples
    --------
    >>> decode(b"\\xef\\xbb\\xbfok")
    'ok'
    >>> decode(b"a\\nb\\xe9", "x.csv")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: x.csv:2:2: byte 0xe9 is not UTF-8; save the file as UTF-8, ...
    """
    codec = check_encoding(encoding) or "utf-8-sig"
    try:
        return raw.decode(codec)
    except UnicodeDecodeError as err:
        line, col = _position(raw, err.start)
        shown = "utf-8" if codec == "utf-8-sig" else codec
        hint = ("save the file as UTF-8, or name its encoding (--encoding, e.g. cp1252)"
                if shown == "utf-8" else "is this the file's encoding?")
        raise InputError(f"byte 0x{raw[err.start]:02x} is not {shown.upper()}; {hint}",
                         path=path, line=line, col=col) from None


def read_text(path: PathLike, *, encoding: str | None = None, what: str = "file") -> str:
    """:func:`read_bytes` then :func:`decode`."""
    return decode(read_bytes(path, what=what), path, encoding=encoding)


def iter_lines(text: str) -> Iterator[tuple[int, str]]:
    """``(number, line)`` for each line, split at ``\\n`` only, a final ``\\r`` removed.

    One line is built at a time, so a large file is never held twice as a list of lines.
    """
    number, start, size = 0, 0, len(text)
    while start < size:
        end = text.find("\n", start)
        if end < 0:
            end = size
        number += 1
        line = text[start:end]
        if line.endswith("\r"):
            line = line[:-1]
        yield number, line
        start = end + 1


def parse_int(
    text: str,
    *,
    what: str,
    path: PathLike | None = None,
    line: int | None = None,
    lo: int | None = None,
    hi: int | None = None,
) -> int:
    """An ASCII decimal integer within ``[lo, hi]`` (and 18 digits), or :class:`InputError`.

    >>> parse_int(" -3 ", what="offset", lo=0)
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: offset -3 is below 0
    """
    s = str(text).strip()
    if not _INT.fullmatch(s):
        raise InputError(f"{what} {text!r} is not a whole number (ASCII digits)", path=path,
                         line=line)
    if len(s.lstrip("+-")) > MAX_INT_DIGITS:
        raise InputError(f"{what} {s[:24]}{'...' if len(s) > 24 else ''} is too large "
                         f"({len(s.lstrip('+-'))} digits)", path=path, line=line)
    value = int(s)
    if lo is not None and value < lo:
        raise InputError(f"{what} {value} is below {lo}", path=path, line=line)
    if hi is not None and value > hi:
        raise InputError(f"{what} {value} is above {hi}", path=path, line=line)
    return value


def parse_float(
    text: str, *, what: str, path: PathLike | None = None, line: int | None = None
) -> float:
    """A finite ASCII decimal number, or :class:`InputError` (``nan``, ``inf`` are refused).

    >>> parse_float("2.5e1", what="weight")
    25.0
    >>> parse_float("1e999", what="weight")
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: weight '1e999' is out of the range of numbers
    """
    s = str(text).strip()
    if not _FLOAT.fullmatch(s):
        raise InputError(f"{what} {text!r} is not a number", path=path, line=line)
    value = float(s)
    if not math.isfinite(value):
        raise InputError(f"{what} {text!r} is out of the range of numbers", path=path,
                         line=line)
    return value


def _field_limit() -> int:
    return min(sys.maxsize, 2**31 - 1)


def csv_rows(
    text: str, path: PathLike | None = None, *, delimiter: str = ","
) -> Iterator[tuple[int, list[str]]]:
    """CSV records as ``(first line, fields)``, blank lines skipped.

    A field may be as long as the file. A quoted field may not run over a line break: in a
    table of codings that is a quote left open, which would swallow the rows after it. A
    carriage return that does not end a line (old Mac files) is refused too.

    Raises
    ------
    InputError
        With the line (and column for a stray carriage return).

    Examples
    --------
    >>> list(csv_rows('a,"b,c"\\n\\nd,e\\n'))
    [(1, ['a', 'b,c']), (3, ['d', 'e'])]
    >>> list(csv_rows('a,"b\\nc,d\\n', "t.csv"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: t.csv:1: a quoted field runs from line 1 to line 2 (a quote ...
    """
    bare_cr = re.search(r"\r(?!\n)", text)
    if bare_cr:
        line = text.count("\n", 0, bare_cr.start()) + 1
        col = bare_cr.start() - (text.rfind("\n", 0, bare_cr.start()) + 1) + 1
        raise InputError("a carriage return (CR) that does not end a line; convert the file "
                         "to LF or CRLF line endings", path=path, line=line, col=col)
    old = csv.field_size_limit()
    csv.field_size_limit(_field_limit())
    try:
        lines = (line + "\n" for _, line in iter_lines(text))
        reader = csv.reader(lines, delimiter=delimiter, strict=True)
        last = 0
        while True:
            try:
                fields = next(reader)
            except StopIteration:
                return
            except csv.Error as err:
                if reader.line_num > last + 1 or "end of data" in str(err):
                    raise _open_quote(path, last + 1, reader.line_num) from None
                raise InputError(f"cannot read the CSV: {err}", path=path,
                                 line=reader.line_num) from None
            first, last = last + 1, reader.line_num
            if last > first:
                raise _open_quote(path, first, last)
            if fields and any(f.strip() for f in fields):
                yield first, fields
    finally:
        csv.field_size_limit(old)


def _open_quote(path: PathLike | None, first: int, last: int) -> InputError:
    runs = f"runs from line {first} to line {last}" if last > first else "is never closed"
    return InputError(f"a quoted field {runs} (a quote left open?); close the quote, or "
                      'double a quote inside a quoted field ("")', path=path, line=first)


def _line_of(text: str, needle: str) -> int | None:
    at = text.find(needle)
    return None if at < 0 else text.count("\n", 0, at) + 1


def load_json(text: str, path: PathLike | None = None) -> Any:
    """JSON as Python objects; ``NaN``, ``Infinity``, numbers out of range and integers of
    more than 18 digits are refused with their line.

    >>> load_json('[{"rank": 1e999}]', "x.json")
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: x.json:1: the number 1e999 is out of the range of numbers
    """

    def bad(token: str, why: str) -> InputError:
        return InputError(f"the number {token} {why}", path=path, line=_line_of(text, token))

    def as_int(token: str) -> int:
        if len(token.lstrip("-")) > MAX_INT_DIGITS:
            raise bad(token[:24] + ("..." if len(token) > 24 else ""),
                      f"is too large ({len(token.lstrip('-'))} digits)")
        return int(token)

    def as_float(token: str) -> float:
        value = float(token)
        if not math.isfinite(value):
            raise bad(token, "is out of the range of numbers")
        return value

    def constant(token: str) -> float:
        raise bad(token, "is not a number JSON allows (NaN, Infinity); write null")

    try:
        return json.loads(text, parse_int=as_int, parse_float=as_float, parse_constant=constant)
    except json.JSONDecodeError as err:
        raise InputError(f"not JSON: {err.msg}", path=path, line=err.lineno,
                         col=err.colno) from None
    except RecursionError:
        raise InputError("JSON nested too deeply", path=path) from None
