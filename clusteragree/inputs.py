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
import functools
import gc
import importlib.util
import io
import json
import math
import os
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, overload

import numpy as np
import numpy.typing as npt

from ._lazy import module
from .errors import InputError, ParameterError

if TYPE_CHECKING:
    import pyarrow.csv as pacsv
else:  # loaded when a text is read by columns
    pacsv = module("pyarrow.csv")

__all__ = [
    "BRAT_TEXT_BOUND",
    "CR_MIXED",
    "ascii_naturals",
    "brat_offsets",
    "byte_lines",
    "check_encoding",
    "csv_rows",
    "decode",
    "decode_ranges",
    "iter_lines",
    "line_ends",
    "load_json",
    "objects_in_bulk",
    "odd_space",
    "parse_float",
    "parse_int",
    "plain_string_table",
    "pyarrow_module",
    "read_bytes",
    "read_text",
    "tab_columns",
]

PathLike = str | os.PathLike[str]

_INT = re.compile(r"[+-]?[0-9]+")
#: A BRAT text-bound annotation: ``T<id>\\t<type> <start> <end>[;<start> <end>...]\\t<text>``.
BRAT_TEXT_BOUND = re.compile(r"^(T[^\t ]+)\t(\S+) ([0-9]+ [0-9]+(?:;[0-9]+ [0-9]+)*)\t(.*)$")
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
    on an error. On exit the objects made are counted old (``gc.freeze`` then ``gc.unfreeze``
    moves every tracked object to the oldest generation, at no cost): else the first young
    collection after it walks all of them at once (about a second for a million spans), though
    they are kept, not garbage; a cycle among them is still collected by the next full
    collection.

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
            gc.freeze()
            gc.unfreeze()
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


T = TypeVar("T", str, bytes)
#: The notice (kind ``converted``) of a file that mixes CR line ends with LF ones.
CR_MIXED = ("carriage returns (CR) read as line ends in a file whose other lines end in LF "
            "(a stray CR splits its line)")
_BARE = re.compile("\r(?!\n)")
_BARE_BYTES = re.compile(b"\r(?!\n)")


@overload
def line_ends(text: str) -> tuple[str, int | None, int]: ...
@overload
def line_ends(text: bytes) -> tuple[bytes, int | None, int]: ...
def line_ends(text: T) -> tuple[T, int | None, int]:
    """``text`` with every CR that is not followed by LF turned into LF, and where the text
    also has LF line ends, the line of the first such CR and their number.

    Parameters
    ----------
    text : str or bytes
        A whole file, decoded or as UTF-8 bytes (a CR byte is never part of another UTF-8
        character).

    Returns
    -------
    text : str or bytes
        The same type; when it had a CR line end, every line now ends in LF (CRLF too).
    line : int or None
        The line (1-based, CRs counted as line ends) of the first CR turned into LF when the
        file mixes them with LF line ends; None when it does not (no such CR, or every line
        end is a CR).
    count : int
        The number of CRs turned into LF in that mixed case; 0 otherwise.

    References
    ----------
    docs/coref.md, "Input checks and warnings" (line ends); docs/trees.md.

    Examples
    --------
    An old Mac file: its lines end with CR and are read as lines, with nothing to report:

    >>> line_ends("#begin document d\\rd 0 0 Mary (1)\\r#end document\\r")
    ('#begin document d\\nd 0 0 Mary (1)\\n#end document\\n', None, 0)

    A CR among LF (or CRLF) line ends is read as a line end too, and its line and number are
    given for a notice, here line 2:

    >>> line_ends(b"a\\r\\nb\\rc\\n")
    (b'a\\nb\\nc\\n', 2, 1)
    """
    if isinstance(text, str):
        cr, lf, bare_cr = "\r", "\n", _BARE
    else:
        cr, lf, bare_cr = b"\r", b"\n", _BARE_BYTES
    if cr not in text:
        return text, None, 0
    bare = text.count(cr) - text.count(cr + lf)
    if bare == 0:
        return text, None, 0
    line, count = None, 0
    if lf in text:  # CR line ends among LF ones
        found = bare_cr.search(text)
        assert found is not None
        line, count = text.count(lf, 0, found.start()) + 1, bare
    return text.replace(cr + lf, lf).replace(cr, lf), line, count


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


# --- Files as arrays of bytes, for the vectorised readers of line formats (CoNLL-U).

Ints = npt.NDArray[np.int64]
#: Byte positions: 64-bit, or 32-bit where that is enough (:func:`tab_columns`).
Positions = npt.NDArray[np.integer[Any]]
Bytes = npt.NDArray[np.uint8]
#: Lines (or byte ranges) handled at once, so the index arrays stay small.
BLOCK = 1 << 16
#: The characters other than space, TAB and line feed that ``str.split``, ``str.strip`` or
#: ``str.splitlines`` treat as whitespace or line ends: a file with any takes the line-by-line
#: path of a reader (the vectorised one knows only those three).
OTHER_SPACE = ("\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
               "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
# Their UTF-8 forms: bytes 11-13 and 28-31; two-byte and three-byte characters with first
# bytes 0xC2, 0xE1, 0xE2, 0xE3, as the numbers their first two or three bytes make.
_ODD_TWO = np.array([int.from_bytes(c.encode(), "big") for c in OTHER_SPACE
                     if len(c.encode()) == 2], dtype=np.int64)
_ODD_THREE = np.array([int.from_bytes(c.encode(), "big") for c in OTHER_SPACE
                       if len(c.encode()) == 3], dtype=np.int64)


def _other_space(buf: Bytes) -> bool:
    """Whether the UTF-8 bytes hold a character of :data:`OTHER_SPACE` (a block at a time)."""
    size = 1 << 24
    for a in range(0, len(buf), size):
        part = buf[a:a + size]
        if ((part - np.uint8(11)) < 3).any() or ((part - np.uint8(28)) < 4).any():
            return True
        lead = np.flatnonzero((part == 0xC2) | ((part - np.uint8(0xE1)) < 3)) + a
        if len(lead):
            b = [buf[np.minimum(lead + k, len(buf) - 1)].astype(np.int64) for k in range(3)]
            if np.isin(b[0] * 256 + b[1], _ODD_TWO).any():
                return True
            if np.isin((b[0] * 256 + b[1]) * 256 + b[2], _ODD_THREE).any():
                return True
    return False


def byte_lines(text: str | bytes) -> tuple[Bytes, Ints, Ints] | None:
    """The UTF-8 bytes of ``text`` with the start and the end (its line feed) of every line, as
    :func:`iter_lines` numbers them; None when the text has a carriage return that does not end
    a line, whitespace other than space, TAB and line feed, or a lone surrogate (such files are
    for the line-by-line readers). ``text`` may be given as its UTF-8 bytes (valid UTF-8
    without a byte-order mark), so that a file is not held twice; ``buf.base`` is the bytes the
    array views, a line feed added at the end where there was none.

    Examples
    --------
    >>> buf, starts, ends = byte_lines("a\\tb\\r\\n\\nc")
    >>> bytes(buf), starts.tolist(), ends.tolist()
    (b'a\\tb\\n\\nc\\n', [0, 4, 5], [3, 4, 6])
    >>> byte_lines("a\\x0cb") is None
    True
    """
    if isinstance(text, bytes):
        raw = text.replace(b"\r\n", b"\n") if b"\r" in text else text
    else:
        if "\r" in text:
            text = text.replace("\r\n", "\n")
        try:
            raw = text.encode("utf-8")
        except UnicodeEncodeError:
            return None
    del text
    if raw and not raw.endswith(b"\n"):
        raw += b"\n"
    buf = np.frombuffer(raw, dtype=np.uint8)
    if _other_space(buf):
        return None
    size = 1 << 24
    parts = [np.flatnonzero(buf[a:a + size] == 10) + a for a in range(0, len(buf), size)]
    ends = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    starts = np.concatenate([[0], ends[:-1] + 1]).astype(np.int64)[:len(ends)]
    return buf, starts, ends


def decode_ranges(buf: Bytes, starts: Positions, ends: Positions, *, intern: bool = False
                  ) -> list[str]:
    """The byte ranges ``[starts, ends)`` of ``buf`` (none holding a line feed) as strings;
    with ``intern``, equal strings are one object (``sys.intern``, a block at a time, so the
    copies never all exist at once).

    Examples
    --------
    >>> buf = np.frombuffer("ab\\tcé\\n".encode(), dtype=np.uint8)
    >>> decode_ranges(buf, np.array([0, 3, 2]), np.array([2, 6, 2]))
    ['ab', 'cé', '']
    """
    out: list[str] = []
    for a in range(0, len(starts), BLOCK):
        block = gather_ranges(buf, starts[a:a + BLOCK], ends[a:a + BLOCK]).decode(
            "utf-8").split("\n")[:-1]
        out += map(sys.intern, block) if intern else block
    return out


def gather_ranges(buf: Bytes, starts: Positions, ends: Positions) -> bytes:
    """The byte ranges ``[starts, ends)`` of ``buf``, each followed by a line feed, as one
    bytes object (a block of ranges at a time, so the index arrays stay small).

    Examples
    --------
    >>> buf = np.frombuffer(b"ab cd", dtype=np.uint8)
    >>> gather_ranges(buf, np.array([0, 3]), np.array([2, 5]))
    b'ab\\ncd\\n'
    """
    out: list[bytes] = []
    for a in range(0, len(starts), BLOCK):
        lo, hi = starts[a:a + BLOCK], ends[a:a + BLOCK]
        size = hi - lo + 1  # each range and a line feed after it
        last = np.cumsum(size) - 1
        index = np.arange(int(size.sum())) + np.repeat(lo - (last + 1 - size), size)
        taken = buf[np.minimum(index, len(buf) - 1)]
        taken[last] = 10
        out.append(taken.tobytes())
    return b"".join(out)


def ascii_naturals(buf: Bytes, starts: Positions, ends: Positions
                   ) -> tuple[Ints, npt.NDArray[np.bool_]]:
    """The value of each byte range read as a whole number, and whether it is one: 1 to
    :data:`MAX_INT_DIGITS` ASCII digits and nothing else (what :func:`parse_int` reads without
    a sign or spaces). Values of ranges that are not numbers are meaningless.

    Examples
    --------
    >>> buf = np.frombuffer(b"12 x 007 ", dtype=np.uint8)
    >>> values, ok = ascii_naturals(buf, np.array([0, 3, 5, 8]), np.array([2, 4, 8, 8]))
    >>> values[ok].tolist(), ok.tolist()
    ([12, 7], [True, False, True, False])
    """
    size = (ends - starts).astype(np.int64)
    ok = (size > 0) & (size <= MAX_INT_DIGITS)
    value = np.zeros(len(starts), dtype=np.int64)
    top = len(buf) - 1
    bad = np.zeros(len(starts), dtype=bool)
    for j in range(int(size.max(initial=0)) if ok.any() else 0):
        here = size > j
        digit = buf[np.minimum(starts + j, top)] - np.uint8(48)  # wraps below '0'
        bad |= here & (digit > 9)
        value = np.where(here, value * 10 + digit, value)
    return value, ok & ~bad


def tab_columns(buf: Bytes, starts: Ints, ends: Ints, count: int, wanted: Sequence[int]
                ) -> list[tuple[Positions, Positions]] | None:
    """The byte ranges of columns ``wanted`` (0-based) of lines ``[starts, ends)`` split at
    every TAB, as ``line.split("\\t")`` splits them (32-bit positions when the bytes are
    fewer than 2**31); None unless every line has ``count`` columns.

    Examples
    --------
    >>> buf = np.frombuffer(b"a\\tbc\\tx\\n1\\t\\t2\\n", dtype=np.uint8)
    >>> cols = tab_columns(buf, np.array([0, 7]), np.array([6, 11]), 3, [1, 2])
    >>> [(s.tolist(), e.tolist()) for s, e in cols]
    [([2, 9], [4, 9]), ([5, 10], [6, 11])]
    >>> tab_columns(buf, np.array([0]), np.array([6]), 2, [0]) is None
    True
    """
    kind = np.int32 if len(buf) < 2**31 else np.int64  # half the memory for most files
    out: list[tuple[Positions, Positions]] = [
        (np.zeros(len(starts), kind), np.zeros(len(starts), kind)) for _ in wanted]
    for a in range(0, len(starts), BLOCK):
        s, e = starts[a:a + BLOCK], ends[a:a + BLOCK]
        lo, hi = int(s[0]), int(e[-1])
        tabs = np.flatnonzero(buf[lo:hi] == 9) + lo
        if count > 1 and len(tabs) == len(s) * (count - 1):
            # as many tabs as the lines need: each line's are the next count - 1 when every
            # line's first and last lie in it (then so do those between)
            grid = tabs.reshape(len(s), count - 1)
            if bool((grid[:, 0] >= s).all()) and bool((grid[:, -1] < e).all()):
                for k, col in enumerate(wanted):
                    out[k][0][a:a + len(s)] = s if col == 0 else grid[:, col - 1] + 1
                    out[k][1][a:a + len(s)] = e if col == count - 1 else grid[:, col]
                continue
        first = np.searchsorted(tabs, s)
        if (np.searchsorted(tabs, e) - first != count - 1).any():
            return None
        edges = np.concatenate([tabs, [hi]])
        for k, col in enumerate(wanted):
            out[k][0][a:a + len(s)] = s if col == 0 else edges[first + col - 1] + 1
            out[k][1][a:a + len(s)] = e if col == count - 1 else edges[first + col]
    return out


def brat_offsets(tid: str, offsets: str, surface: str, text: str, *, path: PathLike,
                 line: int, text_path: PathLike) -> tuple[tuple[int, int], ...]:
    """The fragments of a BRAT text-bound annotation, sorted, checked against the text.

    Parameters
    ----------
    tid, offsets, surface : str
        The id, the offsets field (``0 4;9 13``) and the text of a ``T`` line
        (:data:`BRAT_TEXT_BOUND`'s groups 1, 3 and 4).
    text : str
        The annotated text as written (offsets count its characters; a CRLF is two).
    path, line : str and int
        The ``.ann`` file and line, for errors.
    text_path : str
        The text file, for errors.

    Returns
    -------
    tuple of (int, int)
        The fragments ``[start, end)``, sorted.

    Raises
    ------
    InputError
        An offset that is not a whole number, a fragment empty or outside the text, or a
        surface that is not the text at the offsets (fragments joined by a space; line ends
        in the text read as spaces).

    References
    ----------
    brat standoff format (brat.nlplab.org/standoff.html): text-bound annotations.

    Examples
    --------
    >>> brat_offsets("T1", "0 4;9 13", "Mary John", "Mary met John.", path="a.ann", line=1,
    ...              text_path="a.txt")
    ((0, 4), (9, 13))
    """
    pairs = (pair.split() for pair in offsets.split(";"))
    spans = tuple(sorted((parse_int(a, what=f"{tid} offset", path=path, line=line),
                          parse_int(b, what=f"{tid} offset", path=path, line=line))
                         for a, b in pairs))
    for s, e in spans:
        if not 0 <= s < e <= len(text):
            raise InputError(f"{tid} offsets {s}-{e} are outside the text ({len(text)} "
                             f"characters, {text_path})", path, line)
    found = " ".join(text[s:e] for s, e in spans)
    flat = found.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
    if found != surface and flat != surface:
        raise InputError(f"{tid} says {surface[:40]!r} but the text at {offsets} is "
                         f"{found[:40]!r}; is {text_path} the annotated text?", path, line)
    return spans


# --- plain delimited text read by columns (pyarrow, the extra ``fast``)

#: Whitespace other than space, TAB and the line ends: ``str.strip`` removes it, pyarrow's trim
#: of ``" \t"`` would not.
_ODD_SPACE = re.compile(r"[^\S \t\n\r]")
#: Those of them in ASCII (CR aside): a quicker test of an ASCII text.
_ODD_ASCII = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f")


def odd_space(text: str) -> bool:
    """Whether ``text`` holds whitespace other than space, TAB, CR and LF (which a reader by
    columns would not trim as ``str.strip`` does).

    Examples
    --------
    >>> odd_space("a, b\\tc\\r\\n"), odd_space("a,\\x0bb"), odd_space("a,\\u00a0b")
    (False, True, True)
    """
    if text.isascii():
        return any(c in text for c in _ODD_ASCII)
    return _ODD_SPACE.search(text) is not None


@functools.cache
def pyarrow_module() -> Any:
    """pyarrow, imported on first use; None where it is not installed."""
    if importlib.util.find_spec("pyarrow") is None:  # pragma: no cover
        return None
    import pyarrow

    return pyarrow


def plain_string_table(text: str, width: int, sep: str) -> Any | None:
    """Whole lines of ``width`` fields parsed by pyarrow as string columns ``c0``, ``c1``, ...
    with nothing quoted, escaped or converted, or None where pyarrow is absent or the text is
    not plain: a blank line (which row-by-row readers skip), a byte-order mark starting it
    (which pyarrow would drop), a lone carriage return, a lone surrogate, or a line of
    another number of fields. The callers check quotes and odd whitespace first.

    Examples
    --------
    >>> table = plain_string_table("A,1\\r\\nB, 2\\n", 2, ",")
    >>> table is None or table.column("c1").to_pylist() == ["1", " 2"]  # (None: no pyarrow)
    True
    >>> plain_string_table("A,1\\n\\nB,2\\n", 2, ",") is None
    True
    """
    pa = pyarrow_module()
    if pa is None:
        return None
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            return None
    if text.startswith(("\n", "\ufeff")) or "\n\n" in text:
        return None
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates from a text stream
        return None
    rows = text.count("\n") + (0 if text.endswith("\n") else 1)
    del text
    names = [f"c{k}" for k in range(width)]
    try:
        table = pacsv.read_csv(
            io.BytesIO(data),
            read_options=pacsv.ReadOptions(column_names=names, use_threads=False),
            parse_options=pacsv.ParseOptions(delimiter=sep, quote_char=False,
                                             escape_char=False, newlines_in_values=False,
                                             ignore_empty_lines=False),
            convert_options=pacsv.ConvertOptions(
                column_types={c: pa.string() for c in names}, strings_can_be_null=False,
                quoted_strings_can_be_null=False, null_values=[]))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None  # a line with another number of fields, ...
    return table if table.num_rows == rows else None
