"""The compiled scans of JSON exports against definitions written here in Python.

* :func:`clusteragree.exports._jsonl_blocks.scan_block`: the lines of a block, which are blank,
  which orjson may not read as the standard library does (a run of 19 digits outside strings,
  nesting 100 deep, a string or bracket left open), and the bytes of a top-level key's array
  value, against a small tokenizer of JSON written with regular expressions.
* :func:`clusteragree.exports._jsonl_blocks.records`: a file read a block at a time, against the
  file read line by line, for blocks of every small size.
* :func:`clusteragree.exports._token_bytes.token_offsets`: tokens read from the bytes of their
  array, against the parsed objects checked one by one.
"""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree.exports import _jsonl_blocks, _records
from clusteragree.exports._token_bytes import token_offsets

pytest.importorskip("numba")
SCAN = _jsonl_blocks.scanner()

# --- the definitions

_TOKEN = re.compile(rb'"(?:[^"\\\n]|\\[^\n])*"|[{}\[\]:,]|[ \t\r\n]+|[^ \t\r\n{}\[\]:,"]+'
                    rb'|"(?:[^"\\\n]|\\[^\n])*\\?$')


def _tokens(line: bytes) -> list[tuple[int, bytes]]:
    """The tokens of a line of JSON: strings, punctuation, white space, other runs."""
    out, at = [], 0
    while at < len(line):
        found = _TOKEN.match(line, at)
        assert found is not None, line
        out.append((at, found.group()))
        at = found.end()
    return out


def _expected(line: bytes, key: bytes) -> tuple[int, bool, tuple[int, int] | None]:
    """Blank or not, orjson unsafe or not, and the bytes of ``key``'s top-level array."""
    blank = not line.strip()
    tokens = [(at, t) for at, t in _tokens(line) if t.strip(b" \t\r")]
    depth = deepest = 0
    unsafe = False
    keys: list[tuple[bytes, int]] = []  # spelling, index of the value's first token
    for k, (_, t) in enumerate(tokens):
        if t.startswith(b'"'):
            if not (len(t) >= 2 and t.endswith(b'"') and not re.search(rb'(?<!\\)(\\\\)*\\"$', t)):
                unsafe = True  # left open
            elif depth == 1 and k + 1 < len(tokens) and tokens[k + 1][1] == b":":
                keys.append((t[1:-1], k + 2))
        elif t in (b"{", b"["):
            depth += 1
            deepest = max(deepest, depth)
        elif t in (b"}", b"]"):
            depth -= 1
            unsafe |= depth < 0
        elif re.search(rb"\d{19}", t):
            unsafe = True
    unsafe |= depth != 0 or deepest >= 100
    found = None
    named = [k for spelling, k in keys if spelling == key]
    if len(named) == 1 and not any(b"\\" in spelling for spelling, _ in keys) and \
            named[0] < len(tokens) and tokens[named[0]][1] == b"[":
        first = named[0]
        level = 0
        for at, t in tokens[first:]:
            if t in (b"[", b"{"):
                level += 1
            elif t in (b"]", b"}"):
                level -= 1
                if level == 0:
                    found = (tokens[first][0], at + 1)
                    break
    return blank, unsafe, found


# --- random lines

_SCALAR = st.one_of(
    st.integers(-10**25, 10**25), st.floats(allow_nan=False, allow_infinity=False), st.booleans(),
    st.none(), st.text(st.sampled_from('a"\\\x00\u00e9\U0001F600]{ 1'), max_size=6))
_VALUE = st.recursive(_SCALAR, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["a", "tokens", "t\u00e9"]),
                                                 inner, max_size=3)), max_leaves=12)
_SPACE = st.sampled_from(["", " ", "\t", "  ", "\r"])


@st.composite
def _line(draw: st.DrawFn) -> bytes:
    """A line: mostly a JSON object with a "tokens" array, written in various ways; sometimes
    something that is not JSON."""
    record = draw(st.dictionaries(st.sampled_from(["text", "x", "t\u00e9", 'q"']), _VALUE,
                                  max_size=3))
    if draw(st.booleans()):
        record["tokens"] = draw(st.lists(_VALUE, max_size=4))
    written = json.dumps(record, ensure_ascii=draw(st.booleans()),
                         separators=draw(st.sampled_from([(", ", ": "), (",", ":")])))
    space = draw(_SPACE)
    written = written.replace(": [", ":" + space + "[", 1)
    trick = draw(st.sampled_from(["", "", "", "dup", "escaped", "deep", "open", "close",
                                  "digits", "blank", "cut"]))
    if trick == "dup" and written.endswith("}") and len(written) > 2:
        written = written[:-1] + ', "tokens": [1]}'
    elif trick == "escaped" and written.endswith("}") and len(written) > 2:
        written = written[:-1] + ', "tok\\u0065ns": [2]}'
    elif trick == "deep":
        written = '{"tokens": [], "d": ' + "[" * draw(st.integers(95, 105)) + \
            "]" * draw(st.integers(95, 105)) + "}"
    elif trick == "open":
        written = written + ' "abc'
    elif trick == "close":
        written = written + "]}"
    elif trick == "digits":
        written = written[:-1] + ', "n": ' + "9" * draw(st.integers(17, 21)) + "}" \
            if written.endswith("}") and len(written) > 2 else written
    elif trick == "blank":
        written = draw(st.sampled_from(["", " ", "\t\r", "\x0b\x0c", " \r"]))
    elif trick == "cut":
        written = written[:draw(st.integers(0, len(written)))]
    return (draw(_SPACE) + written + draw(_SPACE)).encode("utf-8", "surrogatepass")


@given(lines=st.lists(_line(), min_size=1, max_size=5), crlf=st.booleans())
@settings(max_examples=400, deadline=None)
def test_the_scan_finds_what_the_definitions_find(lines: list[bytes], crlf: bool) -> None:
    block = (b"\r\n" if crlf else b"\n").join(lines)
    starts, ends, flags, key_starts, key_ends = _jsonl_blocks.scan_block(block, b"tokens",
                                                                         SCAN)
    assert len(starts) == len(lines)
    for k, line in enumerate(block.split(b"\n")):
        line = line.removesuffix(b"\r")
        blank, unsafe, found = _expected(line, b"tokens")
        assert block[starts[k]:ends[k]] == line
        assert bool(flags[k] & _jsonl_blocks.BLANK) == blank, line
        assert bool(flags[k] & _jsonl_blocks.UNSAFE) == unsafe, line
        got = None if key_starts[k] < 0 else (key_starts[k] - starts[k], key_ends[k] - starts[k])
        assert got == found, line
        if found is not None and not unsafe:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            assert json.loads(line[found[0]:found[1]]) == record["tokens"]


def test_the_scan_on_hand_made_lines() -> None:
    block = (b'{"tokens": [1, "]"], "n": 1234567890123456789}\n'
             b'{"s": "12345678901234567890", "tokens" : [ ] }\n'
             b' \t\r\n'
             b'{"a": {"tokens": [1]}, "tokens": [2]}\n'
             b'{"tokens": [1], "tokens": [2]}\n'
             b'{"tok\\u0065ns": [1], "tokens": [2]}')
    _, _, flags, key_starts, key_ends = _jsonl_blocks.scan_block(block, b"tokens", SCAN)
    cuts = [block[a:b] if a >= 0 else None for a, b in zip(key_starts, key_ends, strict=True)]
    assert flags == [_jsonl_blocks.UNSAFE, 0, _jsonl_blocks.BLANK, 0, 0, 0]
    assert cuts == [b'[1, "]"]', b"[ ]", None, b"[2]", None, None]
    deep = b"\n".join(b'{"a": ' + b"[" * n + b"]" * n + b"}" for n in (98, 99))
    assert _jsonl_blocks.scan_block(deep, b"a", SCAN)[2] == [0, _jsonl_blocks.UNSAFE]


# --- a file a block at a time

@given(lines=st.lists(_line(), max_size=6), block=st.integers(1, 80), bom=st.booleans(),
       end=st.sampled_from([b"", b"\n", b"\r\n", b"\n\n"]))
@settings(max_examples=300, deadline=None)
def test_a_file_read_a_block_at_a_time_is_the_file_read_line_by_line(
        lines: list[bytes], block: int, bom: bool, end: bytes) -> None:
    orjson = pytest.importorskip("orjson")
    raw = (b"\xef\xbb\xbf" if bom else b"") + b"\n".join(lines) + end

    def read(blocks: bool) -> list[Any]:
        out: list[Any] = []
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(_records, "FAST", True)
            patch.setattr(_jsonl_blocks, "BLOCK", block)
            try:
                found = _jsonl_blocks.records(
                    io.BytesIO(raw), "tokens", SCAN, orjson.loads, orjson.JSONDecodeError,
                    lambda line, number: _records._general_line(line, "x.jsonl", number,
                                                                "utf-8", None)) \
                    if blocks else _records.iter_jsonl(io.BytesIO(raw), "x.jsonl",
                                                       shared="tokens")
                for number, value in found:
                    if isinstance(value, dict) and type(value.get("tokens")) is \
                            _records.Shared:
                        value["tokens"] = value["tokens"].parsed()
                    out.append((number, repr(value)))
            except Exception as err:
                out.append((type(err).__name__, str(err)))
        return out

    assert read(True) == read(False)


def test_only_large_files_are_read_a_block_at_a_time(tmp_path: Any) -> None:
    small = tmp_path / "a.jsonl"
    small.write_bytes(b'{"a": 1}\n')
    with open(small, "rb") as handle:
        assert not _jsonl_blocks.wanted(handle)
    assert not _jsonl_blocks.wanted(io.BytesIO(b"x" * (_jsonl_blocks.MIN_SIZE + 1)))
    with pytest.MonkeyPatch.context() as patch, open(small, "rb") as handle:
        patch.setattr(_jsonl_blocks, "MIN_SIZE", 9)
        assert _jsonl_blocks.wanted(handle)


# --- tokens from their bytes

def _reference(raw: bytes, text: str) -> tuple[tuple[tuple[int, int], ...], int] | None:
    """The offsets and the number of wrong texts, from the parsed objects, where the bytes
    say them plainly (the conditions of the module); None elsewhere."""
    tokens = json.loads(raw)
    out, wrong = [], 0
    for tok, spelled in zip(tokens, _objects(raw), strict=True):
        if not isinstance(tok, dict) or spelled is None:
            return None
        keys = [k for k, _ in spelled]
        if any(b"\\" in k for k in keys) or keys.count(b"start") != 1 or \
                keys.count(b"end") != 1 or keys.count(b"text") > 1:
            return None
        values = dict(spelled)
        if not all(re.fullmatch(rb"\d{1,18}", values[k]) for k in (b"start", b"end")):
            return None
        if b"text" in values and (b"\\" in values[b"text"] or not (
                values[b"text"] == b"null" or values[b"text"].startswith(b'"'))):
            return None
        start, end, written = tok["start"], tok["end"], tok.get("text")
        if not 0 <= start <= end <= len(text):
            return None
        out.append((start, end))
        wrong += written is not None and written != text[start:end]
    return tuple(out), wrong


def _objects(raw: bytes) -> list[list[tuple[bytes, bytes]] | None]:
    """Each element's keys and values as written (None for an element not an object)."""
    tokens = [t for _, t in _tokens(raw) if t.strip(b" \t\r\n\x0b\x0c")]
    out: list[list[tuple[bytes, bytes]] | None] = []
    depth, k = 0, 0
    current: list[tuple[bytes, bytes]] | None = None
    while k < len(tokens):
        t = tokens[k]
        if depth == 1 and t not in (b",", b"]"):
            current = [] if t == b"{" else None
            out.append(current)
        if t in (b"[", b"{"):
            depth += 1
        elif t in (b"]", b"}"):
            depth -= 1
        elif depth == 2 and current is not None and t.startswith(b'"') and \
                tokens[k + 1] == b":":
            value = tokens[k + 2]
            current.append((t[1:-1], value))
        k += 1
    return out


_TOKEN_VALUE = st.one_of(
    st.integers(-3, 12), st.sampled_from([10**18, 2**63, 2**64 + 1, 10**19]), st.floats(0, 9),
    st.booleans(), st.none(), st.text(st.sampled_from('ab"\\\u00e9\U0001F600'), max_size=3),
    st.lists(st.integers(0, 3), max_size=2))


@st.composite
def _token_array(draw: st.DrawFn, text: str) -> bytes:
    tokens: list[Any] = []
    for _ in range(draw(st.integers(0, 5))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, len(text)))
        if draw(st.integers(0, 9)) == 0:  # off the text, or backwards
            start, end = draw(st.sampled_from([(end + 1, end), (start, len(text) + 1)]))
        tok: dict[str, Any] = {"start": start, "end": end, "id": len(tokens), "ws": True}
        if draw(st.integers(0, 3)):
            tok["text"] = text[start:end] if draw(st.integers(0, 3)) else draw(st.text(
                st.sampled_from("ab\u00e9\U0001F600"), max_size=3))
        for key in draw(st.lists(st.sampled_from(["start", "end", "text", "x"]), max_size=2)):
            if draw(st.integers(0, 4)) == 0:
                tok[key] = draw(_TOKEN_VALUE)
        items = list(tok.items())
        if draw(st.booleans()):
            items.reverse()
        tokens.append(dict(items) if draw(st.integers(0, 12)) else draw(_TOKEN_VALUE))
    written = json.dumps(tokens, ensure_ascii=draw(st.booleans()),
                         separators=draw(st.sampled_from([(", ", ": "), (",", ":"),
                                                          (" , ", " : ")])))
    trick = draw(st.sampled_from(["", "", "", "dup", "escaped", "space", "exponent"]))
    if trick == "dup":
        written = written.replace('"start":', '"start": 0, "start":', 1)
    elif trick == "escaped":
        written = written.replace('"end"', '"\\u0065nd"', 1)
    elif trick == "space":
        written = " \n" + written.replace("{", "{ \r\n", 1) + " \t"
    elif trick == "exponent":
        written = re.sub(r'("start": ?)(\d+)', r"\g<1>\g<2>e0", written, count=1)
    return written.encode("utf-8", "surrogatepass")


_TEXTS = st.text(st.sampled_from("ab \u00e9\U0001F600\ud800"), max_size=8)


@given(data=st.data(), text=_TEXTS)
@settings(max_examples=500, deadline=None)
def test_tokens_from_their_bytes_are_the_tokens_of_their_objects(data: st.DataObject,
                                                                 text: str) -> None:
    raw = data.draw(_token_array(text))
    try:
        json.loads(raw)
    except ValueError:
        return  # the bytes given are JSON that was parsed (the callers' promise)
    assert token_offsets(raw, text) == _reference(raw, text), raw


def test_tokens_from_their_bytes_by_hand() -> None:
    text = "Zo\u00eb \U0001F600 met"
    good = json.dumps([{"text": "Zo\u00eb", "start": 0, "end": 3},
                       {"text": "\U0001F600", "start": 4, "end": 5, "ws": [1, {"a": "]"}]},
                       {"text": "mat", "start": 6, "end": 9}, {"start": 6, "end": 9,
                                                               "text": None}],
                      ensure_ascii=False).encode()
    assert token_offsets(good, text) == (((0, 3), (4, 5), (6, 9), (6, 9)), 1)
    assert token_offsets(b"[]", text) == ((), 0)
    assert token_offsets(b'[{"start": 0, "end": 2, "text": "Zo\xc3\xab"}]', text) == (((0, 2),), 1)
    for bad in (b'[{"start": 9223372036854775808, "end": 1}]',
                b'[{"start": 0, "end": 18446744073709551617}]',
                b'[{"start": 0, "end": 1, "text": "Z", "text": "Z"}]',
                b'[{"start": 0, "end": 1, "end": 1}]', b'[{"start": 0}]',
                b'[{"start": 0, "end": 1.0}]', b'[{"start": -1, "end": 1}]',
                b'[{"start": 0, "end": 99}]', b'[{"start": 2, "end": 1}]',
                b'[{"start": 0, "end": 1, "text": "\\u005a"}]', b'[1]',
                b'[{"start": 0, "end": 1, "text": 5}]',
                b'[{"start": 0, "end": 1, "st\\u0061rt": 0}]'):
        assert token_offsets(bad, text) is None, bad
