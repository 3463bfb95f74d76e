"""JSON records of the tools' exports, read with their place in the file.

* :func:`iter_jsonl`: JSON Lines (doccano, Prodigy) one line at a time from a binary stream, so
  a large export is never held whole; each line's errors name that line (and the column).
* :func:`iter_json_array`: the elements of a top-level JSON array (Label Studio) one at a time,
  each with its first line; the parsed objects of one element only are alive at once.
* :func:`field`, :func:`integer`, :func:`text_field`: a field of a record checked for its type,
  or an :class:`~clusteragree.errors.InputError` naming the field, the record and the line.

Numbers are checked as :func:`clusteragree.inputs.load_json` checks them: ``NaN`` and
``Infinity`` are refused, as are numbers out of the float range and integers of more than 18
digits. A record nested too deeply is refused, never a ``RecursionError``.

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
from ..inputs import MAX_INT_DIGITS, decode

__all__ = ["field", "integer", "iter_json_array", "iter_jsonl", "json_line", "label_text",
           "line_at", "text_field"]

PathLike = str | os.PathLike[str]
_WHITESPACE = " \t\n\r"


class _BadNumber(Exception):
    def __init__(self, token: str, why: str) -> None:
        super().__init__(token, why)
        self.token, self.why = token, why


def _as_int(token: str) -> int:
    if len(token.lstrip("-")) > MAX_INT_DIGITS:
        raise _BadNumber(token[:24] + ("..." if len(token) > 24 else ""),
                         f"is too large ({len(token.lstrip('-'))} digits)")
    return int(token)


def _as_float(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise _BadNumber(token, "is out of the range of numbers")
    return value


def _constant(token: str) -> float:
    raise _BadNumber(token, "is not a number JSON allows (NaN, Infinity); write null")


_DECODER = json.JSONDecoder(parse_int=_as_int, parse_float=_as_float, parse_constant=_constant)


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


def iter_jsonl(stream: IO[bytes] | Iterable[bytes], path: PathLike, *,
               encoding: str | None = None) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for each non-blank line of a JSON Lines stream.

    Lines are split at ``\\n`` only (a final ``\\r`` is dropped); a byte-order mark on the first
    line is dropped; each line is decoded on its own (``encoding``, default UTF-8).

    Examples
    --------
    >>> import io
    >>> list(iter_jsonl(io.BytesIO(b'{"a": 1}\\r\\n\\n{"a": 2}'), "x.jsonl"))
    [(1, {'a': 1}), (3, {'a': 2})]
    """
    for number, raw in enumerate(stream, 1):
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        if not raw.strip():
            continue
        text = _decode_line(raw, path, number, encoding)
        yield number, json_line(text, path, number)


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
    if key not in record or record[key] is None:
        if required:
            raise InputError(f'{what}: "{key}" is missing', path, line)
        return default
    value = record[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        wanted = " or ".join(_TYPES.get(k, k.__name__) for k in kinds)
        raise InputError(f'{what}: "{key}" must be {wanted}, not {_describe(value)}', path,
                         line)
    return value


def integer(record: dict[str, Any], key: str, *, what: str, path: PathLike,
            line: int | None, lo: int = 0) -> int:
    """A whole-number field at least ``lo`` (an offset, an index)."""
    value: int = field(record, key, int, what=what, path=path, line=line)
    if value < lo:
        raise InputError(f'{what}: "{key}" is {value}, below {lo}', path, line)
    return value


def text_field(record: dict[str, Any], key: str, *, what: str, path: PathLike,
               line: int | None, required: bool = True) -> str | None:
    """A string field (an id given as a number is read as its decimal text)."""
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
