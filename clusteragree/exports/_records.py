"""JSON records of the tools' exports, read with their place in the file.

* :func:`iter_jsonl`: JSON Lines (doccano, Prodigy) one line at a time from a binary stream, so
  a large export is never held whole; each line's errors name that line (and the column).
* :func:`iter_json_array` on a string (and :func:`clusteragree.exports._json_array.
  iter_json_array_bytes` on the bytes, a window at a time): the elements of a top-level JSON
  array (Label Studio) one at a time, each with its first line; the parsed objects of one
  element only are alive at once.
* :func:`field`, :func:`integer`, :func:`text_field`: a field of a record checked for its type,
  or an :class:`~clusteragree.errors.InputError` naming the field, the record and the line.

With orjson installed (the extra ``fast``), a line of JSON Lines is parsed by it, about twice as
fast, wherever it reads the line as the standard library does: a line with a run of nineteen
digits (a whole number orjson would make a float past 64 bits), one nested a hundred levels deep
(where the standard library's scanner may run out of stack) and any line orjson refuses are
parsed by the standard library, which gives the readers' values and messages. The elements of
a JSON array are parsed by orjson too, under the same conditions, window for window as the
standard library reads them (:mod:`clusteragree.exports._json_array`). :data:`FAST`
``= False`` turns this and the readers' fast paths off (the tests compare both).

Numbers are checked as :func:`clusteragree.inputs.load_json` checks them, but for the length
of integers: ``NaN`` and ``Infinity`` are refused, as are numbers out of the float range and
integers too long for Python (over 4,300 digits); integers are left to the C scanner (a hook per
integer triples the time of a large export), and every offset is checked against its text. A
record nested too deeply is refused, never a ``RecursionError``.

References
----------
JSON Lines (jsonlines.org): one JSON value per line, UTF-8, lines ended by ``\\n``.
RFC 8259, The JavaScript Object Notation (JSON) Data Interchange Format.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any

from ..errors import InputError
from ..inputs import check_encoding, decode
from . import _jsonl_blocks
from ._jsonl_blocks import _NO_VALUE, _STAND_IN, Shared

__all__ = ["FAST", "Shared", "field", "integer", "iter_json_array", "iter_jsonl", "json_line",
           "label_text", "line_at", "text_field"]

PathLike = str | os.PathLike[str]
_WHITESPACE = " \t\n\r"


class _BadNumber(Exception):
    def __init__(self, token: str, why: str) -> None:
        super().__init__(token, why)
        self.token, self.why = token, why


def _as_float(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise _BadNumber(token, "is out of the range of numbers")
    return value


def _constant(token: str) -> float:
    raise _BadNumber(token, "is not a number JSON allows (NaN, Infinity); write null")


# Integers are parsed by the C scanner itself (a Python hook per integer would triple the time
# of a large export); an integer too long for Python is refused by it (a ValueError), and the
# readers check every offset against the text, so a long id or offset does no harm.
_DECODER = json.JSONDecoder(parse_float=_as_float, parse_constant=_constant)
_TOO_LONG = "a whole number too long to read (over 4,300 digits)"

#: Whether the readers take their fast paths: orjson for JSON Lines (when installed) and each
#: reader's path for well-formed records. Either gives what the general path gives (the tests
#: compare them); False forces the general path everywhere.
FAST = True

try:  # the optional extra "fast"
    import orjson as _orjson
except ImportError:  # pragma: no cover - the standard library is the fallback
    _orjson = None  # type: ignore[assignment]

#: Nineteen digits in a row (digits made zeros first): a whole number orjson might read as a
#: float (beyond 64 bits). Translating and searching is some ten times faster than a regex.
_ZEROS = bytes.maketrans(b"123456789", b"000000000")
_LONG_DIGITS = b"0" * 19
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"')
#: The nesting below which the standard library's scanner never runs out of stack: deeper
#: values are left to it, so that it decides (its RecursionError depends on the caller's depth).
_SHALLOW = 100


def _shallow(raw: bytes) -> bool:
    """Whether the JSON text ``raw`` nests fewer than :data:`_SHALLOW` levels (when it has
    that many brackets at all: the escapes and strings taken out, then the innermost pairs of
    brackets, one level a round)."""
    if raw.count(b"{") + raw.count(b"[") < _SHALLOW:
        return True
    # an escape is two characters; taking out the escaped backslashes first leaves every
    # other backslash before the character it escapes
    kept = raw.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _NOT_STRUCTURE)
    brackets = b"".join(kept.split(b'"')[::2])
    for _ in range(_SHALLOW):
        if not brackets:
            return True
        brackets = brackets.replace(b"{}", b"").replace(b"[]", b"")
    return False


def _orjson_ready(raw: bytes) -> bool:
    """Whether orjson reads the JSON text ``raw`` as the standard library does, if at all: no
    whole number beyond 64 bits (orjson makes it a float), no deep nesting."""
    return _orjson is not None and _LONG_DIGITS not in raw.translate(_ZEROS) and _shallow(raw)


def _orjson_line(raw: bytes) -> Any:
    """The value of a UTF-8 line by orjson, or :data:`_NO_VALUE` where orjson might read it
    otherwise than the standard library (see :func:`_orjson_ready`) or finds a fault (left to
    the standard library, whose messages are the readers')."""
    if not _orjson_ready(raw):
        return _NO_VALUE
    try:
        return _orjson.loads(raw)
    except _orjson.JSONDecodeError:
        return _NO_VALUE


def json_line(text: str, path: PathLike, line: int) -> Any:
    """One JSON value written on line ``line`` of ``path``.

    Examples
    --------
    >>> json_line('{"a": [1, 2]}', "x.jsonl", 3)
    {'a': [1, 2]}
    >>> json_line('{"a": NaN}', "x.jsonl", 3)
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: x.jsonl:3: the number NaN is not a number JSON allows \
(NaN, Infinity); write null
    """
    try:
        return _DECODER.decode(text)
    except _BadNumber as bad:
        raise InputError(f"the number {bad.token} {bad.why}", path, line) from None
    except json.JSONDecodeError as err:
        raise InputError(f"not JSON: {err.msg}", path, line + err.lineno - 1,
                         err.colno) from None
    except RecursionError:
        raise InputError("JSON nested too deeply", path, line) from None
    except ValueError:
        raise InputError(_TOO_LONG, path, line) from None


#: Bytes of a cut value keyed by how it starts: candidates per key, and the key's length.
_KNOWN_PER_KEY, _KEY_BYTES = 8, 256


def _first_array(raw: bytes, at: int) -> tuple[bytes, Any] | None:
    """The JSON array that starts at ``raw[at]`` (a complete value: no other ends there, as an
    array ends at its matching bracket) and its value, when orjson reads it as the standard
    library does, nested at most one level below the top; None else (a few ends tried)."""
    end = raw.find(b"]", at)
    for _ in range(8):
        if end < 0:
            return None
        found = raw[at:end + 1]
        if _LONG_DIGITS not in found.translate(_ZEROS) and (
                found.count(b"{") + found.count(b"[") < _SHALLOW - 1 or
                _shallow(b"[" + found + b"]")):
            try:
                return found, _orjson.loads(found)
            except _orjson.JSONDecodeError:
                pass
        end = raw.find(b"]", end + 1)
    return None


def _shared_line(raw: bytes, marker: bytes, key: str, known: dict[bytes, list[bytes]]) -> Any:
    """The value of the UTF-8 line ``raw``, with its top-level ``key`` (an array) given as a
    :class:`Shared`; :data:`_NO_VALUE` where that is not proven (the line is then read as
    usual).

    The array's bytes are those of an earlier line (``known``, by how they start) or the first
    complete array after the first ``"KEY":``; the line with :data:`_STAND_IN` in its place must
    parse, with the stand-in as the top-level value of ``key`` (its bytes found once in the
    line): then the stand-in sits where a value of ``key`` goes, and the line itself is the same
    object with the array there, as JSON is read the same whatever value fills that place."""
    found = raw.find(marker)
    if found < 0:
        return _NO_VALUE
    at = found + len(marker)
    while raw[at:at + 1] in (b" ", b"\t", b"\r"):
        at += 1
    if raw[at:at + 1] != b"[":
        return _NO_VALUE
    start = raw[at:at + _KEY_BYTES]
    candidates = known.get(start)
    cut, value = None, _NO_VALUE
    for candidate in candidates or ():
        if raw.startswith(candidate, at):
            cut = candidate
            break
    if cut is None:
        first = _first_array(raw, at)
        if first is None:
            return _NO_VALUE
        cut, value = first
    rest = raw[:at] + _STAND_IN + raw[at + len(cut):]
    if not _orjson_ready(rest):
        return _NO_VALUE
    record = _jsonl_blocks.stand_in_record(rest, key, _orjson.loads, _orjson.JSONDecodeError)
    if record is None:
        return _NO_VALUE
    if candidates is None:
        known[start] = [cut]
    elif value is not _NO_VALUE:
        candidates.insert(0, cut)
        del candidates[_KNOWN_PER_KEY:]
    record[key] = Shared(cut, value)
    return record


def iter_jsonl(stream: IO[bytes] | Iterable[bytes], path: PathLike, *,
               encoding: str | None = None, shared: str | None = None, first_line: int = 1,
               scan: bool = False) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for each non-blank line of a JSON Lines stream.

    Lines are split at ``\\n`` only (a final ``\\r`` is dropped); a byte-order mark on the first
    line is dropped; each line is decoded on its own (``encoding``, default UTF-8).

    ``shared``: a top-level key whose value, an array, lines repeat byte for byte; with orjson,
    where it is proven to be the value of the key, it is given as a :class:`Shared` holding
    its bytes, parsed once for all the lines that repeat them (elsewhere it is the parsed
    value, as without ``shared``).

    ``first_line``: the number of the stream's first line (a part of a file read on its own,
    whole lines from a line's start: the byte-order mark is looked for only on line 1).
    ``scan``: the compiled scan of :mod:`clusteragree.exports._jsonl_blocks` whatever the
    stream's size (where it can serve), not only on large files.

    Examples
    --------
    >>> import io
    >>> list(iter_jsonl(io.BytesIO(b'{"a": 1}\\r\\n\\n{"a": 2}'), "x.jsonl"))
    [(1, {'a': 1}), (3, {'a': 2})]
    """
    codec = check_encoding(encoding) or "utf-8"
    fast = FAST and _orjson is not None and codec == "utf-8"
    if fast and (scan or _jsonl_blocks.wanted(stream)):
        scanner = _jsonl_blocks.scanner()
        if scanner is not None:
            yield from _jsonl_blocks.records(stream, shared, scanner,  # type: ignore[arg-type]
                                             _orjson.loads, _orjson.JSONDecodeError,
                                             lambda raw, number: _general_line(
                                                 raw, path, number, codec, encoding),
                                             first_line=first_line)
            return
    marker = None if shared is None else json.dumps(shared).encode() + b":"
    known: dict[bytes, list[bytes]] = {}
    for number, raw in enumerate(stream, first_line):
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        if number == 1 and codec == "utf-8":
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        if not raw.strip():
            continue
        if fast:
            if marker is not None:
                value = _shared_line(raw, marker, shared, known)  # type: ignore[arg-type]
                if value is not _NO_VALUE:
                    yield number, value
                    continue
            value = _orjson_line(raw)
            if value is not _NO_VALUE:
                yield number, value
                continue
        yield number, _general_line(raw, path, number, codec, encoding)


def _general_line(raw: bytes, path: PathLike, number: int, codec: str, encoding: str | None
                  ) -> Any:
    """The value of line ``number`` by the standard library (decoded, then parsed), or the
    :class:`~clusteragree.errors.InputError` that says what is wrong with it."""
    try:
        text = raw.decode(codec)
    except UnicodeDecodeError:
        text = _decode_line(raw, path, number, encoding)
    return json_line(text, path, number)


def _decode_line(raw: bytes, path: PathLike, number: int, encoding: str | None) -> str:
    try:
        return decode(raw, path, encoding=encoding)
    except InputError as err:  # the line within the file, not within the one line decoded
        raise InputError(err.message, path, number, err.col) from None


def line_at(text: str, index: int) -> int:
    """The 1-based line of character ``index`` of ``text``."""
    return text.count("\n", 0, index) + 1


def _skip(text: str, i: int) -> int:
    size = len(text)
    while i < size and text[i] in _WHITESPACE:
        i += 1
    return i


def iter_json_array(text: str, path: PathLike, *, what: str = "element"
                    ) -> Iterator[tuple[int, int, int, Any]]:
    """``(line, start, end, value)`` for each element of the JSON array that is ``text``.

    ``start`` and ``end`` are the element's character range in ``text`` (for finding places
    inside it), ``line`` the line where it starts.

    Raises
    ------
    InputError
        When ``text`` is not a JSON array, with the line and column of the fault.

    Examples
    --------
    >>> [(line, value) for line, _, _, value in iter_json_array('[\\n {"a": 1},\\n 2\\n]', "x")]
    [(2, {'a': 1}), (3, 2)]
    """
    i = _skip(text, 0)
    if i >= len(text) or text[i] != "[":
        found = "nothing" if i >= len(text) else repr(text[i])
        raise InputError(f"not a JSON array (a list of {what}s): it starts with {found}", path,
                         line_at(text, i) if i < len(text) else None)
    i = _skip(text, i + 1)
    line, counted = 1, 0
    first = True
    while True:
        if i >= len(text):
            raise InputError("the JSON array is not closed (the file is cut short?)", path,
                             line_at(text, len(text)))
        if text[i] == "]" and first:
            i += 1
            break
        line += text.count("\n", counted, i)
        counted = i
        try:
            value, end = _DECODER.raw_decode(text, i)
        except _BadNumber as bad:
            at = text.find(bad.token, i)
            raise InputError(f"the number {bad.token} {bad.why}", path,
                             line_at(text, at if at >= 0 else i)) from None
        except json.JSONDecodeError as err:
            raise InputError(f"not JSON: {err.msg}", path, err.lineno, err.colno) from None
        except RecursionError:
            raise InputError(f"JSON nested too deeply (the {what} at line {line})", path,
                             line) from None
        yield line, i, end, value
        i = _skip(text, end)
        if i < len(text) and text[i] == ",":
            i = _skip(text, i + 1)
            first = False
            if i < len(text) and text[i] == "]":
                raise InputError("a comma before the end of the JSON array", path,
                                 line_at(text, i))
            continue
        if i < len(text) and text[i] == "]":
            i += 1
            break
        where = "the end of the file" if i >= len(text) else repr(text[i])
        raise InputError(f"expected ',' or ']' after the {what} at line {line}, found {where}",
                         path, line_at(text, min(i, len(text))))
    rest = _skip(text, i)
    if rest < len(text):
        raise InputError("text after the end of the JSON array", path, line_at(text, rest))


_TYPES = {str: "a string", int: "a whole number", list: "a list", dict: "an object",
          bool: "true or false"}


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    for kind, words in _TYPES.items():
        if isinstance(value, kind):
            return words
    return "a number" if isinstance(value, float) else type(value).__name__


def field(record: dict[str, Any], key: str, kind: type | tuple[type, ...], *, what: str,
          path: PathLike, line: int | None, required: bool = True, default: Any = None
          ) -> Any:
    """``record[key]`` checked to be of ``kind`` (a bool is never an int here), or an
    :class:`InputError` naming the field, ``what`` holds it and the line.

    Examples
    --------
    >>> field({"start": 3}, "start", int, what="span 1", path="x.jsonl", line=2)
    3
    >>> field({"start": "3"}, "start", int, what="span 1", path="x.jsonl", line=2)
    Traceback (most recent call last):
    ...
    clusteragree.errors.InputError: x.jsonl:2: span 1: "start" must be a whole number, \
not a string
    """
    value = record.get(key)
    if type(value) is kind:  # the common case, at once
        return value
    if value is None:
        if required:
            raise InputError(f'{what}: "{key}" is missing', path, line)
        return default
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        wanted = " or ".join(_TYPES.get(k, k.__name__) for k in kinds)
        raise InputError(f'{what}: "{key}" must be {wanted}, not {_describe(value)}', path,
                         line)
    return value


def integer(record: dict[str, Any], key: str, *, what: str, path: PathLike,
            line: int | None, lo: int = 0) -> int:
    """A whole-number field at least ``lo`` (an offset, an index)."""
    value = record.get(key)
    if type(value) is int and value >= lo:
        return value
    value = field(record, key, int, what=what, path=path, line=line)
    if value < lo:
        raise InputError(f'{what}: "{key}" is {value}, below {lo}', path, line)
    return value


def text_field(record: dict[str, Any], key: str, *, what: str, path: PathLike,
               line: int | None, required: bool = True) -> str | None:
    """A string field (an id given as a number is read as its decimal text)."""
    value = record.get(key)
    if type(value) is str:
        return value
    value = field(record, key, (str, int), what=what, path=path, line=line, required=required)
    return None if value is None else str(value)


_INTERNED: dict[str, str] = {}


def label_text(value: str) -> str:
    """One object per distinct label, tag or layer name (a large export repeats a few names
    hundreds of thousands of times)."""
    if len(value) > 200:
        return value
    found = _INTERNED.get(value)
    if found is None:
        if len(_INTERNED) > 100_000:
            _INTERNED.clear()
        found = _INTERNED[value] = sys.intern(value)
    return found
