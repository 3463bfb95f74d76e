"""JSON records of the tools' exports, read with their place in the file.

* :func:`iter_jsonl`: JSON Lines (doccano, Prodigy) one line at a time from a binary stream, so
  a large export is never held whole; each line's errors name that line (and the column).
* :func:`iter_json_array_bytes` (and :func:`iter_json_array` on a string): the elements of a
  top-level JSON array (Label Studio) one at a time, each with its first line, the file decoded
  a window at a time; the parsed objects of one element only are alive at once.
* :func:`field`, :func:`integer`, :func:`text_field`: a field of a record checked for its type,
  or an :class:`~clusteragree.errors.InputError` naming the field, the record and the line.

With orjson installed (the extra ``fast``), a line of JSON Lines is parsed by it, about twice as
fast, wherever it reads the line as the standard library does: a line with a run of nineteen
digits (a whole number orjson would make a float past 64 bits), one nested a hundred levels deep
(where the standard library's scanner may run out of stack) and any line orjson refuses are
parsed by the standard library, which gives the readers' values and messages. The elements of
a JSON array are parsed by orjson too, under the same conditions, window for window as the
standard library reads them (:func:`iter_json_array_bytes`). :data:`FAST` ``= False`` turns
this and the readers' fast paths off (the tests compare both).

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
import re
import sys
from collections.abc import Iterable, Iterator
from typing import IO, Any

import numpy as np

from ..errors import InputError
from ..inputs import check_encoding, decode
from . import _jsonl_blocks
from ._jsonl_blocks import _NO_VALUE, _STAND_IN, Shared

__all__ = ["FAST", "Shared", "field", "integer", "iter_json_array", "iter_json_array_bytes",
           "iter_jsonl", "json_line", "label_text", "line_at", "text_field"]

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
               encoding: str | None = None, shared: str | None = None
               ) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for each non-blank line of a JSON Lines stream.

    Lines are split at ``\\n`` only (a final ``\\r`` is dropped); a byte-order mark on the first
    line is dropped; each line is decoded on its own (``encoding``, default UTF-8).

    ``shared``: a top-level key whose value, an array, lines repeat byte for byte; with orjson,
    where it is proven to be the value of the key, it is given as a :class:`Shared` holding
    its bytes, parsed once for all the lines that repeat them (elsewhere it is the parsed
    value, as without ``shared``).

    Examples
    --------
    >>> import io
    >>> list(iter_jsonl(io.BytesIO(b'{"a": 1}\\r\\n\\n{"a": 2}'), "x.jsonl"))
    [(1, {'a': 1}), (3, {'a': 2})]
    """
    codec = check_encoding(encoding) or "utf-8"
    fast = FAST and _orjson is not None and codec == "utf-8"
    if fast and _jsonl_blocks.wanted(stream):
        scan = _jsonl_blocks.scanner()
        if scan is not None:
            yield from _jsonl_blocks.records(stream, shared, scan,  # type: ignore[arg-type]
                                             _orjson.loads, _orjson.JSONDecodeError,
                                             lambda raw, number: _general_line(
                                                 raw, path, number, codec, encoding))
            return
    marker = None if shared is None else json.dumps(shared).encode() + b":"
    known: dict[bytes, list[bytes]] = {}
    for number, raw in enumerate(stream, 1):
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
    view, loads, fault = memoryview(raw), _orjson.loads, _orjson.JSONDecodeError
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
    view, loads, fault = memoryview(raw), _orjson.loads, _orjson.JSONDecodeError
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

    With orjson installed (and :data:`FAST`), a window of objects is read by it instead, each
    element on its own (some 40% faster): the elements are found by a vectorised scan of the
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
    fast = FAST and _orjson is not None
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
