"""Mutation operators for fuzzing readers: each turns valid input bytes into a near miss.

Used by the property tests (``fuzzing.py``) and by ``scripts/fuzz_campaign.py``. Each operator
is a pure function of the bytes and a ``random.Random``: byte flips, insertions of characters
that matter to some format, deletions, truncation, lines dropped, repeated or swapped, numbers
replaced by huge, negative, fractional or non-ASCII ones, CR line ends, a byte-order mark and
non-UTF-8 bytes.
"""

from __future__ import annotations

import re
from typing import Any

_NUMBER = re.compile(rb"\d+")
NUMBERS = [b"0", b"-1", b"-7", b"99999999999999999999999999999", b"1e999", b"\xc2\xb2",
           b"\xd9\xa1", b"1.7", b"NaN", b"Infinity", b"", b"007"]
JUNK = [b"\xff", b"\xe9", b"\x00", b"\r", b"\r\n", b"\xef\xbb\xbf", b'"', b"'", b",", b";",
        b"\t", b"(", b")", b"[", b"]", b"{", b"}", b"<", b">", b"&", b"#", b"*", b"_", b"-",
        b"|", b"=", b"\\", b" ", b"\n", b"x" * 200_000]


def mutate(data: bytes, op: str, rnd: Any) -> bytes:
    """``data`` changed by the operator ``op`` (one of :data:`OPERATORS`)."""
    lines = data.split(b"\n")
    pos = rnd.randrange(len(data) + 1) if data else 0
    if op == "flip" and data:
        i = rnd.randrange(len(data))
        return data[:i] + bytes([data[i] ^ (1 << rnd.randrange(8))]) + data[i + 1:]
    if op == "insert":
        return data[:pos] + rnd.choice(JUNK) + data[pos:]
    if op == "delete" and data:
        return data[:pos] + data[pos + rnd.randrange(1, 20):]
    if op == "truncate":
        return data[:pos]
    if op == "drop-line" and len(lines) > 1:
        del lines[rnd.randrange(len(lines))]
        return b"\n".join(lines)
    if op == "repeat-line":
        i = rnd.randrange(len(lines))
        lines.insert(i, lines[i])
        return b"\n".join(lines)
    if op == "swap-lines" and len(lines) > 1:
        i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return b"\n".join(lines)
    if op == "number":
        found = list(_NUMBER.finditer(data))
        if found:
            m = rnd.choice(found)
            return data[:m.start()] + rnd.choice(NUMBERS) + data[m.end():]
    if op == "numbers":  # every number, each with probability 1/5
        return _NUMBER.sub(lambda m: rnd.choice(NUMBERS) if rnd.random() < 0.2 else m.group(0),
                           data)
    if op == "crlf":
        return data.replace(b"\n", rnd.choice([b"\r\n", b"\r"]))
    if op == "bom":
        return b"\xef\xbb\xbf" + data
    if op == "latin1":
        return data[:pos] + b"\xe9" + data[pos:]
    return data


OPERATORS = ["flip", "insert", "delete", "truncate", "drop-line", "repeat-line", "swap-lines",
             "number", "numbers", "crlf", "bom", "latin1"]
